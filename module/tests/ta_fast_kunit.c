// SPDX-License-Identifier: GPL-2.0
/*
 * ta_fast_kunit.c - KUnit suite for the fast tier (ta_fast.c) and tiered
 * plans in the plan object path: the pool's figures and refusals, the
 * range tables, tiered creates of seeded random lifetimes checked by
 * ta_tier_check() (the validator as oracle, independent of the solver),
 * the fast slice zeroed, refusals each with nothing changed, and the
 * kernel API's addresses in each tensor's tier.
 *
 * Like the arena suite, each case brings up a device of its own: a bare
 * platform device, ta_arena_init() and ta_fast_init_emulated(), as probe
 * does with sram_size; unregistering the device releases both (devres).
 */
#include <kunit/test.h>
#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/iosys-map.h>
#include <linux/platform_device.h>
#include <linux/prandom.h>
#include <linux/sizes.h>

#include "../ta_internal.h"
#include "../include/ta_compat.h"
#include "../include/tensorarena_kapi.h"

#define TA_FAST_KUNIT_ARENA	SZ_1M
#define TA_FAST_KUNIT_SRAM	SZ_256K
#define TA_FAST_KUNIT_CAP	SZ_64K

struct ta_fast_fixture {
	struct platform_device *pdev;
	struct ta_device ta;
};

static int ta_fast_kunit_init(struct kunit *test)
{
	struct ta_fast_fixture *f;
	int err;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->pdev = platform_device_register_simple("tensorarena-kunit",
						  PLATFORM_DEVID_AUTO, NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->pdev));
	f->ta.dev = &f->pdev->dev;
	ta_plan_tables_init(&f->ta);
	err = ta_arena_init(&f->ta, TA_FAST_KUNIT_ARENA);
	if (!err)
		err = ta_fast_init_emulated(&f->ta, TA_FAST_KUNIT_SRAM);
	if (err)
		platform_device_unregister(f->pdev);
	KUNIT_ASSERT_EQ(test, err, 0);
	test->priv = f;
	return 0;
}

static void ta_fast_kunit_exit(struct kunit *test)
{
	struct ta_fast_fixture *f = test->priv;

	ta_plan_obj_destroy_all(&f->ta);
	KUNIT_EXPECT_EQ(test, ta_fast_in_use(&f->ta), (size_t)0);
	ta_plan_tables_destroy(&f->ta);
	platform_device_unregister(f->pdev);
}

/* INFO's fast fields, the pool's figures, and what it refuses. */
static void ta_fast_pool_test(struct kunit *test)
{
	struct ta_fast_fixture *f = test->priv;
	struct ta_device *ta = &f->ta, *none;
	unsigned long a, b, c;
	struct ta_info info = {};
	dma_addr_t da, db, dc;

	ta_arena_fill_info(ta, &info, true);
	KUNIT_EXPECT_EQ(test, info.fast_size, (u64)TA_FAST_KUNIT_SRAM);
	KUNIT_EXPECT_EQ(test, info.fast_in_use, 0ULL);
	KUNIT_EXPECT_EQ(test, info.fast_largest_free, (u64)TA_FAST_KUNIT_SRAM);
	KUNIT_EXPECT_EQ(test, info.fast_dma_base, (u64)ta->fast.dma_base);
	KUNIT_EXPECT_EQ(test, info.fast_flags, (u32)(TA_FAST_EMULATED |
		TA_FAST_MAPPABLE | TA_FAST_EXPORTABLE));
	memset(&info, 0, sizeof(info));
	ta_arena_fill_info(ta, &info, false);
	KUNIT_EXPECT_EQ(test, info.fast_dma_base, 0ULL);

	KUNIT_ASSERT_EQ(test, ta_fast_alloc(ta, SZ_64K, &a, &da), 0);
	KUNIT_ASSERT_EQ(test, ta_fast_alloc(ta, SZ_128K, &b, &db), 0);
	KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta), (size_t)(SZ_64K + SZ_128K));
	KUNIT_EXPECT_EQ(test, ta_fast_largest_free(ta), (size_t)SZ_64K);
	/* Addresses inside the tier, DMA and CPU views at the same offset. */
	KUNIT_EXPECT_EQ(test, da - ta->fast.dma_base,
			(dma_addr_t)(a - (unsigned long)ta->fast.cpu_base));
	KUNIT_EXPECT_TRUE(test, db + SZ_128K <= ta->fast.dma_base +
			  ta->fast.size);
	KUNIT_EXPECT_EQ(test, ta_fast_alloc(ta, SZ_128K, &c, &dc), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ta_fast_alloc(ta, SZ_1M, &c, &dc), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ta_fast_alloc(ta, 0, &c, &dc), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta), (size_t)(SZ_64K + SZ_128K));
	ta_fast_free(ta, a, SZ_64K);
	ta_fast_free(ta, b, SZ_128K);
	KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta), (size_t)0);

	/* A device without a fast tier. */
	none = kunit_kzalloc(test, sizeof(*none), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, none);
	KUNIT_EXPECT_EQ(test, ta_fast_alloc(none, PAGE_SIZE, &c, &dc), -ENODEV);
	KUNIT_EXPECT_EQ(test, ta_fast_in_use(none), (size_t)0);
	KUNIT_EXPECT_EQ(test, ta_fast_largest_free(none), (size_t)0);
	KUNIT_EXPECT_EQ(test, ta_fast_init_emulated(none, 0), 0);
	KUNIT_EXPECT_EQ(test, none->fast.size, (size_t)0);
}

static void ta_fast_range_table_test(struct kunit *test)
{
	struct ta_fast_fixture *f = test->priv;
	struct ta_device *ta = &f->ta;
	struct scatterlist *sg;
	struct sg_table sgt;
	u64 total = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ta_fast_range_table(ta, PAGE_SIZE,
						  2 * PAGE_SIZE, &sgt), 0);
	KUNIT_EXPECT_EQ(test, sg_phys(sgt.sgl), ta->fast.phys + PAGE_SIZE);
	for_each_sgtable_sg(&sgt, sg, i)
		total += sg->length;
	KUNIT_EXPECT_EQ(test, total, 2ULL * PAGE_SIZE);
	sg_free_table(&sgt);
	KUNIT_EXPECT_EQ(test, ta_fast_range_table(ta, 0, 0, &sgt), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_fast_range_table(ta, TA_FAST_KUNIT_SRAM,
						  PAGE_SIZE, &sgt), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_fast_range_table(ta, PAGE_SIZE,
						  TA_FAST_KUNIT_SRAM, &sgt),
			-EINVAL);
}

/* A lifetime-form tiered request of @n buffers, checked and copied. */
static void ta_fast_request(struct kunit *test, struct ta_plan_request *req,
			    const struct ta_buffer *bufs, u32 n, u64 capacity)
{
	memset(req, 0, sizeof(*req));
	req->flags = TA_CREATE_LIFETIMES | TA_CREATE_TIERED;
	req->strategy = TA_STRATEGY_AUTO;
	req->n_tensors = n;
	KUNIT_ASSERT_EQ(test, ta_request_check(req, 0, 0, 1000), 0);
	req->buffers = kmemdup(bufs, n * sizeof(*bufs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req->buffers);
	req->fast_capacity = capacity;
}

#define TA_FAST_KUNIT_SEEDS	20
#define TA_FAST_KUNIT_BUFS	24

/*
 * Seeded random lifetimes planned across tiers through the plan objects:
 * ta_tier_check() (the validator, not the solver) accepts every plan, the
 * fast slice is counted and zeroed (its bytes dirtied before), and the
 * kernel API gives each tensor's DMA address in its tier.
 */
static void ta_fast_plan_random_test(struct kunit *test)
{
	const struct ta_owner owner = { .uid = current_euid() };
	struct ta_fast_fixture *f = test->priv;
	struct ta_device *ta = &f->ta;
	unsigned int seed, ran = 0, with_fast = 0;
	struct ta_buffer *bufs;
	u64 *offsets;
	u8 *tiers;
	struct rnd_state rnd;
	unsigned long dirty;
	dma_addr_t dirty_dma;

	bufs = kunit_kcalloc(test, TA_FAST_KUNIT_BUFS, sizeof(*bufs), GFP_KERNEL);
	offsets = kunit_kcalloc(test, TA_FAST_KUNIT_BUFS, sizeof(*offsets),
				GFP_KERNEL);
	tiers = kunit_kcalloc(test, TA_FAST_KUNIT_BUFS, sizeof(*tiers),
			      GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, bufs && offsets && tiers);
	/* Every byte of the fast tier dirty: a new slice must not show it. */
	KUNIT_ASSERT_EQ(test, ta_fast_alloc(ta, TA_FAST_KUNIT_SRAM, &dirty,
					    &dirty_dma), 0);
	memset((void *)dirty, 0xa5, TA_FAST_KUNIT_SRAM);
	ta_fast_free(ta, dirty, TA_FAST_KUNIT_SRAM);

	for (seed = 1; seed <= TA_FAST_KUNIT_SEEDS; seed++) {
		struct ta_tier_request rq = { .capacity = TA_FAST_KUNIT_CAP };
		struct ta_tier_conflict conflict = {};
		struct ta_problem problem = {};
		struct ta_plan_request req;
		struct ta_plan_summary sum;
		struct ta_plan_obj *plan;
		u64 served = 0;
		u32 i, n_fast = 0;

		prandom_seed_state(&rnd, seed);
		for (i = 0; i < TA_FAST_KUNIT_BUFS; i++) {
			u32 a = prandom_u32_state(&rnd) % 16;
			u32 b = prandom_u32_state(&rnd) % 16;

			bufs[i] = (struct ta_buffer){
				.size = 256 + prandom_u32_state(&rnd) % SZ_32K,
				.align = 1U << (prandom_u32_state(&rnd) % 8),
				/* end is exclusive: start < end */
				.start = min(a, b), .end = max(a, b) + 1,
			};
		}
		ta_fast_request(test, &req, bufs, TA_FAST_KUNIT_BUFS,
				TA_FAST_KUNIT_CAP);
		KUNIT_ASSERT_EQ(test, ta_plan_obj_create(ta, &owner, &req,
							 &sum), 0);
		ta_request_free(&req);
		plan = ta_plan_obj_lookup(ta, sum.plan_id, &owner);
		KUNIT_ASSERT_FALSE(test, IS_ERR(plan));

		for (i = 0; i < TA_FAST_KUNIT_BUFS; i++) {
			tiers[i] = plan->placements[i].tier;
			offsets[i] = plan->placements[i].offset;
			n_fast += tiers[i] == TA_TIER_FAST;
		}
		problem.n_buffers = TA_FAST_KUNIT_BUFS;
		problem.buffers = bufs;
		KUNIT_EXPECT_EQ_MSG(test, ta_tier_check(&problem, &rq, tiers,
							offsets,
							sum.fast_height,
							sum.height, &served,
							&conflict), 0,
				    "seed %u: conflict kind %u tensor %u", seed,
				    conflict.kind, conflict.tensor);
		KUNIT_EXPECT_EQ(test, served, sum.weight_fast);
		KUNIT_EXPECT_EQ(test, n_fast, sum.n_fast);
		KUNIT_EXPECT_LE(test, sum.fast_height, (u64)TA_FAST_KUNIT_CAP);
		KUNIT_EXPECT_LE(test, sum.weight_fast, sum.weight_bound);
		KUNIT_EXPECT_LE(test, sum.weight_bound, sum.weight_total);
		KUNIT_EXPECT_EQ(test, plan->fast_capacity,
				(u64)TA_FAST_KUNIT_CAP);
		KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta),
				(size_t)PAGE_ALIGN(sum.fast_height));
		KUNIT_EXPECT_EQ(test, ta_kapi_plan_fast_size(plan),
				(size_t)PAGE_ALIGN(sum.fast_height));
		if (plan->fast_slice_size) {
			with_fast++;
			KUNIT_EXPECT_TRUE(test, !memchr_inv((void *)
				plan->fast_slice_vaddr, 0,
				plan->fast_slice_size));
			KUNIT_EXPECT_EQ(test, ta_kapi_plan_fast_dma_base(plan),
					plan->fast_slice_dma);
		}
		for (i = 0; i < TA_FAST_KUNIT_BUFS; i++) {
			dma_addr_t dma = 0;
			u64 size = 0;
			u32 tier = 0;

			KUNIT_EXPECT_EQ(test, ta_kapi_plan_tensor_tier(plan, i,
								       &tier), 0);
			KUNIT_EXPECT_EQ(test, tier, (u32)tiers[i]);
			if (ta_kapi_plan_tensor(plan, i, &dma, &size))
				continue;
			KUNIT_EXPECT_EQ(test, dma, (tier == TA_TIER_FAST ?
					plan->fast_slice_dma :
					plan->slice_dma) + offsets[i]);
		}
		KUNIT_EXPECT_EQ(test,
				ta_kapi_plan_tensor_tier(plan,
							 TA_FAST_KUNIT_BUFS,
							 &i), -EINVAL);
		ta_plan_obj_put(plan);
		KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(ta, sum.plan_id,
							  &owner), 0);
		KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta), (size_t)0);
		ran++;
	}
	KUNIT_EXPECT_EQ(test, ran, TA_FAST_KUNIT_SEEDS);
	KUNIT_EXPECT_GT(test, with_fast, TA_FAST_KUNIT_SEEDS / 2);
}

/* The fast slice as a dma-buf: its size, its CPU address. */
static void ta_fast_dmabuf_test(struct kunit *test)
{
	const struct ta_owner owner = { .uid = current_euid() };
	struct ta_fast_fixture *f = test->priv;
	const struct ta_buffer bufs[] = {
		{ .size = 5000, .align = 1, .start = 0, .end = 1 },
		{ .size = 3000, .align = 1, .start = 1, .end = 2 },
	};
	struct ta_device *ta = &f->ta;
	struct ta_plan_request req;
	struct ta_plan_summary sum;
	struct iosys_map map = {};
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;

	ta_fast_request(test, &req, bufs, ARRAY_SIZE(bufs),
			TA_FAST_KUNIT_CAP);
	KUNIT_ASSERT_EQ(test, ta_plan_obj_create(ta, &owner, &req, &sum), 0);
	ta_request_free(&req);
	KUNIT_EXPECT_EQ(test, sum.n_fast, 2U);
	plan = ta_plan_obj_lookup(ta, sum.plan_id, &owner);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	dmabuf = ta_kapi_plan_fast_dmabuf(plan);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	KUNIT_EXPECT_EQ(test, dmabuf->size, plan->fast_slice_size);
	KUNIT_EXPECT_NULL(test, ta_dmabuf_plan(dmabuf));
	KUNIT_ASSERT_EQ(test, ta_dma_buf_vmap(dmabuf, &map), 0);
	KUNIT_EXPECT_PTR_EQ(test, map.vaddr, (void *)plan->fast_slice_vaddr);
	ta_dma_buf_vunmap(dmabuf, &map);
	dma_buf_put(dmabuf);
	/* A kthread's fput is deferred: let the buffer drop its reference. */
	flush_delayed_fput();
	/* No arena bytes: no slice there, and no dma-buf of it. */
	KUNIT_EXPECT_EQ(test, sum.height, 0ULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_dmabuf_create(plan)), -EINVAL);
	ta_plan_obj_put(plan);
}

/* Refusals of the core, each with nothing changed. */
static void ta_fast_refusals_test(struct kunit *test)
{
	const struct ta_owner owner = { .uid = current_euid() };
	struct ta_fast_fixture *f = test->priv;
	const struct ta_buffer bufs[] = {
		{ .size = SZ_128K, .align = 1, .start = 0, .end = 1 },
		{ .size = SZ_4K, .align = 1, .start = 1, .end = 2 },
	};
	struct ta_device *ta = &f->ta;
	struct ta_plan_request req;
	struct ta_plan_summary sum;
	size_t in_use = ta_arena_in_use(ta);
	unsigned int i, ran = 0;
	u8 pins[2] = { TA_TIER_FAST, TA_TIER_ANY };
	int err;

	for (i = 0; i < 5; i++) {
		int want = -EINVAL;

		ta_fast_request(test, &req, bufs, ARRAY_SIZE(bufs),
				TA_FAST_KUNIT_CAP);
		switch (i) {
		case 0:
			req.fast_capacity = 0;
			break;
		case 1:
			req.fast_capacity = TA_FAST_KUNIT_SRAM + 1;
			break;
		case 2:
			req.flags &= ~TA_CREATE_TIERED;
			break;
		case 3: /* the 128K tensor pinned fast, capacity 64K */
			req.tier_pins = kmemdup(pins, sizeof(pins), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, req.tier_pins);
			want = -ENOSPC;
			break;
		case 4:
			ta->fast.size = 0;	/* as a device without one */
			want = -ENODEV;
			break;
		}
		err = ta_plan_obj_create(ta, &owner, &req, &sum);
		ta->fast.size = TA_FAST_KUNIT_SRAM;
		ta_request_free(&req);
		KUNIT_EXPECT_EQ_MSG(test, err, want, "case %u", i);
		KUNIT_EXPECT_EQ(test, atomic_read(&ta->n_plans), 0);
		KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), in_use);
		KUNIT_EXPECT_EQ(test, ta_fast_in_use(ta), (size_t)0);
		if (i == 3) {
			KUNIT_EXPECT_EQ(test, sum.tier_fail.kind,
					(u32)TA_TIER_FAIL_SIZE);
			KUNIT_EXPECT_EQ(test, sum.tier_fail.tensor, 0U);
			KUNIT_EXPECT_EQ(test, sum.tier_fail.shortfall,
					(u64)(SZ_128K - TA_FAST_KUNIT_CAP));
		} else {
			KUNIT_EXPECT_EQ(test, sum.tier_fail.kind,
					(u32)TA_TIER_FAIL_NONE);
		}
		ran++;
	}
	KUNIT_EXPECT_EQ(test, ran, 5U);
}

static struct kunit_case ta_fast_cases[] = {
	KUNIT_CASE(ta_fast_pool_test),
	KUNIT_CASE(ta_fast_range_table_test),
	KUNIT_CASE(ta_fast_plan_random_test),
	KUNIT_CASE(ta_fast_dmabuf_test),
	KUNIT_CASE(ta_fast_refusals_test),
	{}
};

static struct kunit_suite ta_fast_suite = {
	.name = "tensorarena-fast",
	.init = ta_fast_kunit_init,
	.exit = ta_fast_kunit_exit,
	.test_cases = ta_fast_cases,
};

kunit_test_suite(ta_fast_suite);
