// SPDX-License-Identifier: GPL-2.0
/*
 * ta_module_kunit.c - KUnit suites for the module's own code: the
 * arena_size parser, ioctl decoding, arena reservation and the INFO path.
 * Built into tensorarena with CONFIG_TENSORARENA_KUNIT_TEST (TA_KUNIT=1 out
 * of tree); they run when it is loaded, or at boot when it is built in.
 */
#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/genalloc.h>
#include <linux/mm.h>
#include <linux/cred.h>
#include <linux/dma-buf.h>
#include <linux/dma-direct.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/of_reserved_mem.h>
#include <linux/user_namespace.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/swiotlb.h>

#include "../ta_internal.h"
#include "../include/tensorarena_kapi.h"
#include "../include/ta_compat.h"

struct ta_size_case {
	const char *str;
	int err;
	u64 bytes;
};

static const struct ta_size_case ta_size_cases[] = {
	{ "4096", 0, 4096 },
	{ "16M", 0, 16ULL << 20 },
	{ "16m", 0, 16ULL << 20 },
	{ "8K", 0, 8192 },
	{ "2G", 0, 2ULL << 30 },
	{ "1g", 0, 1ULL << 30 },
	{ "0x100000", 0, 1ULL << 20 },
	{ "32M\n", 0, 32ULL << 20 },
	{ "", -EINVAL, 0 },
	{ "\n", -EINVAL, 0 },
	{ "M", -EINVAL, 0 },
	{ "0", -EINVAL, 0 },
	{ "0M", -EINVAL, 0 },
	{ "1000", -EINVAL, 0 },
	{ "1K", -EINVAL, 0 },
	{ "16Q", -EINVAL, 0 },
	{ "16MB", -EINVAL, 0 },
	{ "-16M", -EINVAL, 0 },
	{ " 16M", -EINVAL, 0 },
	{ "16 M", -EINVAL, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "99999999999999999999999999999999999999", -EINVAL, 0 },
};

static void ta_size_case_desc(const struct ta_size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" -> %d", c->str, c->err);
	strreplace(desc, '\n', '|');
}

KUNIT_ARRAY_PARAM(ta_size, ta_size_cases, ta_size_case_desc);

static void ta_parse_size_test(struct kunit *test)
{
	const struct ta_size_case *c = test->param_value;
	u64 bytes = 12345;
	int err;

	err = ta_parse_size(c->str, &bytes);
	KUNIT_EXPECT_EQ(test, err, c->err);
	KUNIT_EXPECT_EQ(test, bytes, c->err ? 12345ULL : c->bytes);
}

static void ta_parse_size_largest_test(struct kunit *test)
{
	u64 bytes = 0;

	/* 2^64 - 4096 is the largest page multiple: accepted as a number. */
	KUNIT_EXPECT_EQ(test, ta_parse_size("0xfffffffffffff000", &bytes), 0);
	KUNIT_EXPECT_EQ(test, bytes, U64_MAX - 4095);
	/* 2^24 G is 2^54: fits. */
	KUNIT_EXPECT_EQ(test, ta_parse_size("16777216G", &bytes), 0);
	KUNIT_EXPECT_EQ(test, bytes, 1ULL << 54);
}

static struct kunit_case ta_params_cases[] = {
	KUNIT_CASE_PARAM(ta_parse_size_test, ta_size_gen_params),
	KUNIT_CASE(ta_parse_size_largest_test),
	{}
};

static struct kunit_suite ta_params_suite = {
	.name = "tensorarena-params",
	.test_cases = ta_params_cases,
};

/* The errno ta_ioctl_lookup() gives for @cmd, or 0 when it finds an entry. */
static long ta_lookup_err(unsigned int cmd)
{
	return PTR_ERR_OR_ZERO(ta_ioctl_lookup(cmd));
}

static void ta_ioctl_lookup_test(struct kunit *test)
{
	const struct ta_ioctl_desc *desc;

	desc = ta_ioctl_lookup(TA_IOCTL_INFO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(desc));
	KUNIT_EXPECT_EQ(test, desc->cmd, (unsigned int)TA_IOCTL_INFO);
	KUNIT_EXPECT_TRUE(test, desc->handler == ta_ioctl_info);

	/* Larger struct (a newer ABI): same entry. */
	desc = ta_ioctl_lookup(_IOWR(TA_IOCTL_BASE, 0x00, u8[128]));
	KUNIT_EXPECT_FALSE(test, IS_ERR(desc));

	KUNIT_EXPECT_EQ(test, ta_lookup_err(_IOWR(TA_IOCTL_BASE, 0x00, u64)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			ta_lookup_err(_IOWR(TA_IOCTL_BASE, 0x7f, struct ta_info)),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test, ta_lookup_err(_IOWR('x', 0x00, struct ta_info)),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test,
			ta_lookup_err(_IOR(TA_IOCTL_BASE, 0x00, struct ta_info)),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test,
			ta_lookup_err(_IOW(TA_IOCTL_BASE, 0x00, struct ta_info)),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test, ta_lookup_err(_IO(TA_IOCTL_BASE, 0x00)), -ENOTTY);
	KUNIT_EXPECT_EQ(test, ta_lookup_err(0), -ENOTTY);
}

/*
 * KUnit runs a module's suites before its init, so the arena suite brings up
 * an arena of its own: a bare platform device and ta_arena_init(), exactly
 * what probe does. Unregistering the device releases the arena (devres).
 */
struct ta_live {
	struct platform_device *pdev;
	struct ta_device ta;
};

#define TA_LIVE_SIZE	SZ_1M

static int ta_live_init(struct kunit *test)
{
	struct ta_live *live;
	int err;

	live = kunit_kzalloc(test, sizeof(*live), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, live);
	live->pdev = platform_device_register_simple("tensorarena-kunit",
						     PLATFORM_DEVID_AUTO,
						     NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(live->pdev));
	live->ta.dev = &live->pdev->dev;
	err = ta_arena_init(&live->ta, TA_LIVE_SIZE);
	if (err)
		platform_device_unregister(live->pdev);
	KUNIT_ASSERT_EQ(test, err, 0);
	test->priv = &live->ta;
	return 0;
}

static void ta_live_exit(struct kunit *test)
{
	struct ta_live *live = container_of(test->priv, struct ta_live, ta);

	platform_device_unregister(live->pdev);
}

static void ta_info_live_test(struct kunit *test)
{
	const struct ta_owner user = { .uid = current_euid() };
	const struct ta_owner admin = { .uid = current_euid(), .admin = true };
	struct ta_device *ta = test->priv;
	struct ta_info info = {};

	KUNIT_ASSERT_EQ(test, ta_ioctl_info(ta, &user, &info), 0);
	KUNIT_EXPECT_EQ(test, info.abi_version, TA_ABI_VERSION);
	KUNIT_EXPECT_EQ(test, info.arena_size, (u64)TA_LIVE_SIZE);
	KUNIT_EXPECT_EQ(test, info.arena_size, (u64)ta->size);
	KUNIT_EXPECT_EQ(test, info.bytes_in_use, 0ULL);
	KUNIT_EXPECT_EQ(test, info.page_size, (u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, info.alignment, (u64)PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(ta->dma_base, info.alignment));
	KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(ta->cpu_base));
	KUNIT_EXPECT_EQ(test, info.n_plans, 0U);
	KUNIT_EXPECT_EQ(test, info.largest_free, (u64)TA_LIVE_SIZE);
	/* Addresses are for an admin only. */
	KUNIT_EXPECT_EQ(test, info.dma_base, 0ULL);
	KUNIT_EXPECT_EQ(test, info.dma_limit, 0ULL);
	memset(&info, 0, sizeof(info));
	KUNIT_ASSERT_EQ(test, ta_ioctl_info(ta, &admin, &info), 0);
	KUNIT_EXPECT_EQ(test, info.dma_base, (u64)ta->dma_base);
	KUNIT_EXPECT_EQ(test, info.dma_limit, (u64)ta_dma_limit(ta->dev));
	KUNIT_EXPECT_GE(test, info.dma_limit, info.dma_base + info.arena_size - 1);
}

static void ta_info_rejects_test(struct kunit *test)
{
	const struct ta_owner user = { .uid = current_euid() };
	struct ta_device *ta = test->priv;
	struct ta_info info = {};

	info.flags = 1;
	KUNIT_EXPECT_EQ(test, ta_ioctl_info(ta, &user, &info), -EINVAL);
	KUNIT_EXPECT_EQ(test, info.arena_size, 0ULL);

	info.flags = 0;

	info.reserved = 1;
	KUNIT_EXPECT_EQ(test, ta_ioctl_info(ta, &user, &info), -EINVAL);
	KUNIT_EXPECT_EQ(test, info.arena_size, 0ULL);
	info.reserved = 0;
	KUNIT_EXPECT_EQ(test, ta_ioctl_info(ta, &user, &info), 0);
}

static void ta_arena_use_test(struct kunit *test)
{
	const struct ta_owner user = { .uid = current_euid() };
	struct ta_device *ta = test->priv;
	struct ta_info info = {};
	unsigned long slice;

	/* A slice taken from the pool shows up as use, page-rounded. */
	slice = gen_pool_alloc(ta->pool, 1);
	KUNIT_ASSERT_NE(test, slice, 0UL);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), (size_t)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ta_ioctl_info(ta, &user, &info), 0);
	KUNIT_EXPECT_EQ(test, info.bytes_in_use, (u64)PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, slice >= (unsigned long)ta->cpu_base &&
			  slice < (unsigned long)ta->cpu_base + ta->size);
	KUNIT_EXPECT_EQ(test, ta_arena_largest_free(ta),
			(size_t)TA_LIVE_SIZE - PAGE_SIZE);
	gen_pool_free(ta->pool, slice, 1);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), (size_t)0);
	KUNIT_EXPECT_EQ(test, ta_arena_largest_free(ta), (size_t)TA_LIVE_SIZE);

	/* The whole arena can be taken, and not a byte more. */
	slice = gen_pool_alloc(ta->pool, ta->size);
	KUNIT_ASSERT_NE(test, slice, 0UL);
	KUNIT_EXPECT_EQ(test, gen_pool_alloc(ta->pool, 1), 0UL);
	KUNIT_EXPECT_EQ(test, ta_arena_largest_free(ta), (size_t)0);
	gen_pool_free(ta->pool, slice, ta->size);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), (size_t)0);
}

static void ta_arena_impossible_test(struct kunit *test)
{
	struct platform_device *pdev;
	struct ta_device ta = {};

	pdev = platform_device_register_simple("tensorarena-kunit",
					       PLATFORM_DEVID_AUTO, NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pdev));
	ta.dev = &pdev->dev;
	/* 1 TiB: more than any test machine's CMA or memory. */
	KUNIT_EXPECT_EQ(test, ta_arena_init(&ta, 1ULL << 40), -ENOMEM);
	KUNIT_EXPECT_NULL(test, ta.cpu_base);
	KUNIT_EXPECT_NULL(test, ta.pool);
	platform_device_unregister(pdev);
}

static struct kunit_case ta_ioctl_cases[] = {
	KUNIT_CASE(ta_ioctl_lookup_test),
	KUNIT_CASE(ta_arena_impossible_test),
	{}
};

static struct kunit_suite ta_ioctl_suite = {
	.name = "tensorarena-ioctl",
	.test_cases = ta_ioctl_cases,
};

/*
 * The CMA fallback: an arena that dma_alloc_coherent() took from outside
 * the device's reusable region (the page allocator's fallback) is refused.
 * The fixture's arena is real; the regions around it are made up.
 */
static void ta_arena_region_check_test(struct kunit *test)
{
	struct ta_device *ta = test->priv;
	phys_addr_t phys = dma_to_phys(ta->dev, ta->dma_base);
	struct reserved_mem around = {
		.name = "npu-region-around", .base = phys - PAGE_SIZE,
		.size = ta->size + 2 * PAGE_SIZE,
	};
	struct reserved_mem above = {
		.name = "npu-region-above", .base = phys + 4 * ta->size,
		.size = 2 * ta->size,
	};

	ta->region_cma = true;
	ta->region = &around;
	KUNIT_EXPECT_EQ(test, ta_arena_check_region(ta), 0);
	ta->region = &above;
	KUNIT_EXPECT_EQ(test, ta_arena_check_region(ta), -ENOMEM);
	/* A no-map region never falls back: nothing to check. */
	ta->region_cma = false;
	KUNIT_EXPECT_EQ(test, ta_arena_check_region(ta), 0);
	ta->region = NULL;
}

/*
 * A dma-buf's table is cut from the arena's own description: the range's
 * pages where they really are, whatever the arena's entries (one for
 * dma-direct; scattered pages behind an IOMMU, made up here from three
 * separate blocks), and one entry without a page for an arena that has
 * none.
 */
static void ta_arena_range_table_test(struct kunit *test)
{
	struct ta_device *ta = test->priv;
	struct sg_table arena = ta->pages, sgt;
	struct page *blocks[3] = { NULL };
	struct scatterlist *sg;
	unsigned int i, checked = 0;

	/* the live arena: one entry, the range at its offset */
	KUNIT_ASSERT_EQ(test, ta_arena_range_table(ta, 3 * PAGE_SIZE,
						   2 * PAGE_SIZE, &sgt), 0);
	KUNIT_EXPECT_EQ(test, sgt.orig_nents, 1U);
	KUNIT_EXPECT_EQ(test, sg_phys(sgt.sgl),
			sg_phys(arena.sgl) + 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sgt.sgl->length, 2 * PAGE_SIZE);
	sg_free_table(&sgt);
	KUNIT_EXPECT_EQ(test, ta_arena_range_table(ta, 0, 0, &sgt), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_arena_range_table(ta, ta->size, PAGE_SIZE,
						   &sgt), -EINVAL);
	KUNIT_EXPECT_EQ(test, ta_arena_range_table(ta, PAGE_SIZE, ta->size,
						   &sgt), -EINVAL);

	/* scattered: three blocks of two pages; pages 1 to 4 span them all */
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&ta->pages, 3, GFP_KERNEL), 0);
	for_each_sgtable_sg(&ta->pages, sg, i) {
		blocks[i] = alloc_pages(GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, blocks[i]);
		sg_set_page(sg, blocks[i], 2 * PAGE_SIZE, 0);
	}
	KUNIT_EXPECT_EQ(test, ta_arena_range_table(ta, PAGE_SIZE,
						   4 * PAGE_SIZE, &sgt), 0);
	KUNIT_EXPECT_EQ(test, sgt.orig_nents, 3U);
	for_each_sgtable_sg(&sgt, sg, i) {
		struct page *want = i ? blocks[i] : blocks[0] + 1;

		KUNIT_EXPECT_EQ(test, sg_phys(sg), page_to_phys(want));
		KUNIT_EXPECT_EQ(test, sg->length, i == 1 ? 2 * PAGE_SIZE :
							   PAGE_SIZE);
		checked++;
	}
	KUNIT_EXPECT_EQ(test, checked, 3U);
	sg_free_table(&sgt);
	for (i = 0; i < ARRAY_SIZE(blocks); i++)
		__free_pages(blocks[i], 1);
	sg_free_table(&ta->pages);

	/* no struct page: one entry without one, for dma_map_resource() */
	memset(&ta->pages, 0, sizeof(ta->pages));
	KUNIT_EXPECT_EQ(test, ta_arena_range_table(ta, PAGE_SIZE, PAGE_SIZE,
						   &sgt), 0);
	KUNIT_EXPECT_EQ(test, sgt.orig_nents, 1U);
	KUNIT_EXPECT_NULL(test, sg_page(sgt.sgl));
	sg_free_table(&sgt);
	ta->pages = arena;
}

/* An arena beyond the device's bus limit (dma-ranges) is refused. */
static void ta_arena_reach_test(struct kunit *test)
{
	struct ta_device *ta = test->priv;
	u64 saved = ta->dev->bus_dma_limit;

	KUNIT_EXPECT_EQ(test, ta_arena_check_reach(ta), 0);
	ta->dev->bus_dma_limit = ta->dma_base + ta->size - 1;
	KUNIT_EXPECT_EQ(test, ta_arena_check_reach(ta), 0);
	ta->dev->bus_dma_limit = ta->dma_base + ta->size - 2;
	KUNIT_EXPECT_EQ(test, ta_arena_check_reach(ta), -ERANGE);
	ta->dev->bus_dma_limit = saved;
}

static struct kunit_case ta_arena_cases[] = {
	KUNIT_CASE(ta_info_live_test),
	KUNIT_CASE(ta_info_rejects_test),
	KUNIT_CASE(ta_arena_use_test),
	KUNIT_CASE(ta_arena_region_check_test),
	KUNIT_CASE(ta_arena_reach_test),
	KUNIT_CASE(ta_arena_range_table_test),
	{}
};

static struct kunit_suite ta_arena_suite = {
	.name = "tensorarena-arena",
	.init = ta_live_init,
	.exit = ta_live_exit,
	.test_cases = ta_arena_cases,
};

/*
 * The kernel API, on a plan made in a fixture arena that stands in for the
 * module's device (6.1 runs the suites before module init; 6.12 after it,
 * and the module's own device is set aside meanwhile, in @saved).
 */
struct ta_kapi_fixture {
	struct ta_live live;
	u32 id;
	int notified;
	struct notifier_block nb;
	struct ta_device *saved;
	struct file *file;
};

static const struct file_operations ta_kunit_driver_fops = {
	.owner = THIS_MODULE,
};

/*
 * A file of an accelerator driver's, as the kernel API is given: opened
 * with @flags, by @cred (NULL: the test's own credentials).
 */
static struct file *ta_kunit_driver_file(struct kunit *test,
					 const struct cred *cred, int flags)
{
	struct file *file;

	file = anon_inode_getfile("[ta-kunit-driver]", &ta_kunit_driver_fops,
				  NULL, flags);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	if (cred) {
		put_cred(file->f_cred);
		file->f_cred = get_cred(cred);
	}
	return file;
}

/* fput() from a kthread is deferred: run it now. */
static void ta_kunit_driver_file_put(struct file *file)
{
	fput(file);
	flush_delayed_fput();
}

static const struct ta_buffer ta_kapi_buffers[] = {
	{ .size = 4096, .align = 64, .start = 0, .end = 2 },
	{ .size = 1000, .align = 64, .start = 1, .end = 3 },
	{ .size = 3000, .align = 64, .start = 2, .end = 4 },
};

static int ta_kapi_notified(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct ta_kapi_fixture *f = container_of(nb, struct ta_kapi_fixture,
						 nb);

	if (action == TA_KAPI_PLAN_DESTROYED)
		f->notified++;
	return NOTIFY_OK;
}

static int ta_kapi_init(struct kunit *test)
{
	struct ta_kapi_fixture *f;
	struct ta_plan_summary sum;
	struct ta_plan_request req = {
		.flags = TA_CREATE_LIFETIMES,
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.n_tensors = ARRAY_SIZE(ta_kapi_buffers),
	};
	struct ta_owner owner = { .uid = current_euid(), .key = 1 };

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->live.pdev = platform_device_register_simple("tensorarena-kunit",
						       PLATFORM_DEVID_AUTO,
						       NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->live.pdev));
	f->live.ta.dev = &f->live.pdev->dev;
	ta_plan_tables_init(&f->live.ta);
	KUNIT_ASSERT_EQ(test, ta_arena_init(&f->live.ta, TA_LIVE_SIZE), 0);
	req.buffers = kmemdup(ta_kapi_buffers, sizeof(ta_kapi_buffers),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req.buffers);
	KUNIT_ASSERT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);
	KUNIT_ASSERT_EQ(test, ta_plan_obj_create(&f->live.ta, &owner, &req,
						 &sum), 0);
	ta_request_free(&req);
	f->id = sum.plan_id;
	f->nb.notifier_call = ta_kapi_notified;
	f->file = ta_kunit_driver_file(test, NULL, O_RDWR);
	/* The module's own device, when its init ran first (6.12), waits. */
	f->saved = ta_default_device;
	ta_default_device = &f->live.ta;
	test->priv = f;
	return 0;
}

static void ta_kapi_exit(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;

	ta_default_device = f->saved;
	ta_kunit_driver_file_put(f->file);
	ta_plan_obj_destroy_all(&f->live.ta);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->live.ta), (size_t)0);
	ta_plan_tables_destroy(&f->live.ta);
	platform_device_unregister(f->live.pdev);
}

/*
 * A kernel user's reference pins the module (rmmod: EBUSY): the module's
 * reference count, and what one reference adds to it. Built into the
 * kernel (kunit.py) there is no module to pin: 0 and 0.
 */
#ifdef MODULE
#define TA_KUNIT_PIN	1
static int ta_kunit_module_refs(void)
{
	return module_refcount(THIS_MODULE);
}
#else
#define TA_KUNIT_PIN	0
static int ta_kunit_module_refs(void)
{
	return 0;
}
#endif

static void ta_kapi_lookup_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct ta_plan_obj *plan;
	dma_addr_t dma;
	u64 size;
	u32 i;

	int refs = ta_kunit_module_refs();

	plan = ta_kapi_plan_get(f->id, f->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	KUNIT_EXPECT_EQ(test, ta_kunit_module_refs(), refs + TA_KUNIT_PIN);
	KUNIT_EXPECT_PTR_EQ(test, ta_kapi_plan_device(plan), f->live.ta.dev);
	KUNIT_EXPECT_EQ(test, ta_kapi_plan_tensor_count(plan), 3U);
	KUNIT_EXPECT_EQ(test, ta_kapi_plan_size(plan), (size_t)PAGE_SIZE * 2);
	KUNIT_EXPECT_TRUE(test, ta_kapi_plan_dma_base(plan) >= f->live.ta.dma_base);
	KUNIT_EXPECT_TRUE(test, ta_kapi_plan_dma_base(plan) + ta_kapi_plan_size(plan) <=
			  f->live.ta.dma_base + f->live.ta.size);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, ta_kapi_plan_tensor(plan, i, &dma, &size), 0);
		KUNIT_EXPECT_EQ(test, size, ta_kapi_buffers[i].size);
		KUNIT_EXPECT_EQ(test, dma, ta_kapi_plan_dma_base(plan) +
				plan->placements[i].offset);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED(dma, 64));
	}
	KUNIT_EXPECT_EQ(test, ta_kapi_plan_tensor(plan, 3, &dma, &size), -EINVAL);
	ta_kapi_plan_put(plan);
	KUNIT_EXPECT_EQ(test, ta_kunit_module_refs(), refs);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id + 1, f->file)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ta_kunit_module_refs(), refs);
}

/*
 * Stands for a child user namespace in credentials; only its address is
 * compared. It is never put: the test restores the real one first.
 */
static struct user_namespace ta_kunit_child_ns = {
	.level = 1,
	.parent = &init_user_ns,
};

/*
 * The device's rule, applied to the driver's file and its opener: outside
 * the device's group EACCES, a read-only file EBADF, another uid's plan
 * ENOENT, an admin opener (with an admin caller) may; the caller's own
 * rights never stand in for the opener's.
 */
static void ta_kapi_other_user_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct cred *other = prepare_creds();
	struct user_namespace *own_ns;
	struct ta_plan_obj *plan;
	struct file *file;
	int cases = 0;

	KUNIT_ASSERT_NOT_NULL(test, other);
	other->euid = KUIDT_INIT(4242);
	other->fsuid = KUIDT_INIT(4242);
	other->fsgid = KGIDT_INIT(4242);
	cap_clear(other->cap_effective);
	/* 4242 outside the device's group (mode 0660): as open() would. */
	KUNIT_ASSERT_NE(test, (u32)READ_ONCE(ta_dev_gid), 4242U);
	file = ta_kunit_driver_file(test, other, O_RDWR);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id, file)), -EACCES);
	ta_kunit_driver_file_put(file);
	cases++;
	/* In the group, another uid's plan does not exist for it. */
	other->fsgid = make_kgid(&init_user_ns, READ_ONCE(ta_dev_gid));
	file = ta_kunit_driver_file(test, other, O_RDWR);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id, file)), -ENOENT);
	ta_kunit_driver_file_put(file);
	cases++;
	/* The caller (this kthread) is admin: the opener's rights count. */
	KUNIT_EXPECT_TRUE(test, capable(CAP_SYS_ADMIN));
	/* Another uid with CAP_SYS_ADMIN may. */
	cap_raise(other->cap_effective, CAP_SYS_ADMIN);
	file = ta_kunit_driver_file(test, other, O_RDWR);
	plan = ta_kapi_plan_get(f->id, file);
	KUNIT_EXPECT_FALSE(test, IS_ERR(plan));
	if (!IS_ERR(plan))
		ta_kapi_plan_put(plan);
	ta_kunit_driver_file_put(file);
	cases++;
	/* CAP_SYS_ADMIN in a child user namespace (unshare -U) is not. */
	own_ns = other->user_ns;
	other->user_ns = &ta_kunit_child_ns;
	file = ta_kunit_driver_file(test, other, O_RDWR);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id, file)), -ENOENT);
	ta_kunit_driver_file_put(file);
	other->user_ns = own_ns;
	cases++;
	abort_creds(other);
	/* The plan's own uid, on a file not open for writing. */
	file = ta_kunit_driver_file(test, NULL, O_RDONLY);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id, file)), -EBADF);
	ta_kunit_driver_file_put(file);
	cases++;
	KUNIT_EXPECT_EQ(test, cases, 5);
}

static void ta_kapi_reference_outlives_destroy_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct ta_owner owner = { .uid = current_euid(), .key = 1 };
	struct ta_plan_obj *plan;
	size_t held;

	plan = ta_kapi_plan_get(f->id, f->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	KUNIT_ASSERT_EQ(test, ta_kapi_plan_notifier_register(plan, &f->nb), 0);
	held = ta_arena_in_use(&f->live.ta);
	KUNIT_EXPECT_GT(test, held, (size_t)0);

	/* The owner goes away: the ID dies, the driver is told, the memory
	 * stays while the driver holds its reference.
	 */
	ta_plan_obj_release_owner(&f->live.ta, owner.key, NULL);
	KUNIT_EXPECT_EQ(test, f->notified, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_get(f->id, f->file)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->live.ta), held);
	KUNIT_EXPECT_EQ(test, ta_kapi_plan_notifier_unregister(plan, &f->nb), 0);
	ta_kapi_plan_put(plan);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->live.ta), (size_t)0);
}

/*
 * A driver given a plan ID gets a dma-buf of it; the buffer leads back to
 * the plan and alone keeps the memory once the ID and the driver's own
 * reference are gone.
 */
static void ta_kapi_dmabuf_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct ta_owner owner = { .uid = current_euid(), .key = 1 };
	struct ta_plan_obj *plan, *back;
	struct dma_buf *dmabuf, *again;
	size_t held;

	plan = ta_kapi_plan_get(f->id, f->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	dmabuf = ta_kapi_plan_dmabuf(plan);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	KUNIT_EXPECT_EQ(test, dmabuf->size, ta_kapi_plan_size(plan));
	/*
	 * Every buffer of the slice shares the plan's reservation object
	 * (issue 25: a job by ID sees the fences of one userspace exported).
	 */
	again = ta_kapi_plan_dmabuf(plan);
	KUNIT_ASSERT_FALSE(test, IS_ERR(again));
	KUNIT_EXPECT_PTR_EQ(test, dmabuf->resv, ta_kapi_plan_resv(plan));
	KUNIT_EXPECT_PTR_EQ(test, again->resv, dmabuf->resv);
	dma_buf_put(again);
	back = ta_kapi_plan_from_dmabuf(dmabuf);
	KUNIT_EXPECT_PTR_EQ(test, back, plan);
	if (!IS_ERR(back))
		ta_kapi_plan_put(back);
	held = ta_arena_in_use(&f->live.ta);
	ta_kapi_plan_put(plan);
	ta_plan_obj_release_owner(&f->live.ta, owner.key, NULL);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->live.ta), held);
	/* A kthread's last fput is deferred: run it now. */
	dma_buf_put(dmabuf);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->live.ta), (size_t)0);
}

/*
 * A graph plan with exportable tensors in the fixture's arena: t0 (input,
 * 100 bytes, exportable) -> op 0 -> t1 (1000 bytes) -> op 1 -> t2 (output,
 * 5000 bytes, exportable). Returns its ID.
 */
static u32 ta_kapi_export_plan(struct kunit *test, struct ta_kapi_fixture *f)
{
	static const struct ta_graph_tensor tensors[] = {
		{ .size = 100, .align = 1,
		  .flags = TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE },
		{ .size = 1000, .align = 1 },
		{ .size = 5000, .align = 1,
		  .flags = TA_TENSOR_OUTPUT | TA_TENSOR_EXPORTABLE },
	};
	static const struct ta_graph_op ops[] = {
		{ .first_ref = 0, .n_inputs = 1, .n_outputs = 1 },
		{ .first_ref = 2, .n_inputs = 1, .n_outputs = 1 },
	};
	static const u32 refs[] = { 0, 1, 1, 2 };
	struct ta_plan_request req = {
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.n_tensors = ARRAY_SIZE(tensors),
		.n_ops = ARRAY_SIZE(ops),
		.n_refs = ARRAY_SIZE(refs),
	};
	struct ta_owner owner = { .uid = current_euid(), .key = 2 };
	struct ta_plan_summary sum;

	req.tensors = kmemdup(tensors, sizeof(tensors), GFP_KERNEL);
	req.ops = kmemdup(ops, sizeof(ops), GFP_KERNEL);
	req.refs = kmemdup(refs, sizeof(refs), GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);
	KUNIT_ASSERT_TRUE(test, req.tensors && req.ops && req.refs);
	KUNIT_ASSERT_EQ(test, ta_plan_obj_create(&f->live.ta, &owner, &req,
						 &sum), 0);
	ta_request_free(&req);
	/*
	 * The padding counts, and t0, exportable, lives the whole run: its
	 * page, t1 and t2's two pages at step 1.
	 */
	KUNIT_EXPECT_EQ(test, sum.lower_bound, 1000 + 3 * PAGE_SIZE);
	KUNIT_EXPECT_GE(test, sum.height, sum.lower_bound);
	return sum.plan_id;
}

/*
 * An importer that cannot work on the slice in place is refused at
 * attach, with ERANGE: one whose DMA mask and bus limit stop a byte short
 * of the slice (one that reaches its last byte exactly attaches), and one
 * whose every mapping bounces through swiotlb (swiotlb=force, or a
 * confidential guest), which would work on a copy.
 */
static void ta_kapi_importer_reach_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct device *dev = f->live.ta.dev;
	u64 saved_limit = dev->bus_dma_limit;
	struct dma_buf_attachment *attach;
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;
	dma_addr_t last;

	plan = ta_kapi_plan_get(f->id, f->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	dmabuf = ta_kapi_plan_dmabuf(plan);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	last = plan->slice_dma + ta_kapi_plan_size(plan) - 1;

	dev->bus_dma_limit = last;
	attach = dma_buf_attach(dmabuf, dev);
	KUNIT_EXPECT_FALSE(test, IS_ERR(attach));
	if (!IS_ERR(attach))
		dma_buf_detach(dmabuf, attach);
	dev->bus_dma_limit = last - 1;
	attach = dma_buf_attach(dmabuf, dev);
	KUNIT_EXPECT_EQ(test, PTR_ERR(attach), -ERANGE);
	if (!IS_ERR(attach))
		dma_buf_detach(dmabuf, attach);
	dev->bus_dma_limit = saved_limit;
#ifdef CONFIG_SWIOTLB
	{
		struct io_tlb_mem bounce = { .force_bounce = true };
		struct io_tlb_mem *saved_mem = dev->dma_io_tlb_mem;

		dev->dma_io_tlb_mem = &bounce;
		attach = dma_buf_attach(dmabuf, dev);
		dev->dma_io_tlb_mem = saved_mem;
		KUNIT_EXPECT_EQ(test, PTR_ERR(attach), -ERANGE);
		if (!IS_ERR(attach))
			dma_buf_detach(dmabuf, attach);
	}
#else
	/* no swiotlb: nothing bounces */
	KUNIT_EXPECT_FALSE(test, is_swiotlb_force_bounce(dev));
#endif
	/* and the refusals left the importer able to attach */
	attach = dma_buf_attach(dmabuf, dev);
	KUNIT_EXPECT_FALSE(test, IS_ERR(attach));
	if (!IS_ERR(attach))
		dma_buf_detach(dmabuf, attach);
	ta_kapi_plan_put(plan);
	dma_buf_put(dmabuf);
	flush_delayed_fput();
}

/*
 * TENSOR_EXPORT's kernel side: an exportable tensor's dma-buf covers its
 * whole pages at a page-aligned offset, maps to one contiguous entry at
 * that offset, vmaps to the tensor, leads back to the plan and index
 * (and only through ta_kapi_tensor_from_dmabuf()), and keeps the memory
 * after the plan is destroyed. Other tensors and indices are refused.
 */
static void ta_kapi_tensor_export_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct ta_device *ta = &f->live.ta;
	struct ta_owner caller = { .uid = current_euid() };
	struct dma_buf_attachment *attach;
	struct dma_buf *dmabuf, *whole;
	struct ta_plan_obj *plan, *back;
	struct iosys_map map = {};
	struct sg_table *sgt;
	u64 offset = 0, size = 0;
	size_t held, slice;
	u32 id, i, index = 99, tier = 0;

	id = ta_kapi_export_plan(test, f);
	plan = ta_kapi_plan_get(id, f->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	for (i = 0; i < 3; i += 2) {
		KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(plan->placements[i].offset));
		KUNIT_EXPECT_EQ(test, plan->placements[i].size,
				(u64)PAGE_ALIGN(i ? 5000 : 100));
	}
	KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(plan->slice_vaddr));

	/* Refusals change nothing. */
	held = ta_arena_in_use(ta);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_dmabuf_create_tensor(plan, 1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_dmabuf_create_tensor(plan, 3)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_dmabuf_create_tensor(plan, U32_MAX)),
			-EINVAL);
	dmabuf = ta_dmabuf_create_tensor_by_id(ta, &caller, id + 1, 0, &offset,
					       &size, &tier);
	KUNIT_EXPECT_EQ(test, PTR_ERR(dmabuf), -ENOENT);
	KUNIT_EXPECT_EQ(test, offset, 0ULL);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), held);

	dmabuf = ta_dmabuf_create_tensor_by_id(ta, &caller, id, 2, &offset,
					       &size, &tier);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	KUNIT_EXPECT_EQ(test, offset, plan->placements[2].offset);
	KUNIT_EXPECT_EQ(test, size, (u64)PAGE_ALIGN(5000));
	KUNIT_EXPECT_EQ(test, dmabuf->size, (size_t)size);

	back = ta_kapi_tensor_from_dmabuf(dmabuf, &index);
	KUNIT_EXPECT_PTR_EQ(test, back, plan);
	KUNIT_EXPECT_EQ(test, index, 2U);
	if (!IS_ERR(back))
		ta_kapi_plan_put(back);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_plan_from_dmabuf(dmabuf)),
			-EINVAL);
	whole = ta_kapi_plan_dmabuf(plan);
	KUNIT_ASSERT_FALSE(test, IS_ERR(whole));
	index = 99;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ta_kapi_tensor_from_dmabuf(whole, &index)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, index, 99U);
	/* A tensor's buffer keeps a reservation object of its own. */
	KUNIT_EXPECT_PTR_EQ(test, whole->resv, ta_kapi_plan_resv(plan));
	KUNIT_EXPECT_PTR_NE(test, dmabuf->resv, whole->resv);
	dma_buf_put(whole);

	/* An importer sees one contiguous entry: the tensor's pages. */
	attach = dma_buf_attach(dmabuf, ta->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(attach));
	sgt = ta_dma_buf_map_attachment(attach, DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sgt));
	KUNIT_EXPECT_EQ(test, sgt->nents, 1U);
	KUNIT_EXPECT_EQ(test, sg_dma_len(sgt->sgl), (unsigned int)size);
	KUNIT_EXPECT_EQ(test, sg_dma_address(sgt->sgl),
			plan->slice_dma + (dma_addr_t)offset);
	KUNIT_EXPECT_EQ(test, dma_buf_begin_cpu_access(dmabuf, DMA_FROM_DEVICE), 0);
	KUNIT_EXPECT_EQ(test, dma_buf_end_cpu_access(dmabuf, DMA_TO_DEVICE), 0);
	ta_dma_buf_unmap_attachment(attach, sgt, DMA_BIDIRECTIONAL);
	dma_buf_detach(dmabuf, attach);
	KUNIT_ASSERT_EQ(test, ta_dma_buf_vmap(dmabuf, &map), 0);
	KUNIT_EXPECT_PTR_EQ(test, map.vaddr,
			    (void *)(plan->slice_vaddr + (unsigned long)offset));
	ta_dma_buf_vunmap(dmabuf, &map);

	/* The buffer alone keeps the memory once the plan is destroyed. */
	slice = ta_kapi_plan_size(plan);
	ta_kapi_plan_put(plan);
	KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(ta, id, &caller), 0);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), held);
	dma_buf_put(dmabuf);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(ta), held - slice);
}

/*
 * The per-plan default alignment: 0 is 1; a power of two up to 2^32
 * applies to tensors and buffers whose align is 0 (not to the others);
 * anything else is -EINVAL.
 */
static void ta_default_align_test(struct kunit *test)
{
	struct ta_kapi_fixture *f = test->priv;
	struct ta_buffer buffers[] = {
		{ .size = 100, .align = 4096, .start = 0, .end = 2 },
		{ .size = 100, .align = 0, .start = 0, .end = 2 },
		{ .size = 100, .align = 0, .start = 0, .end = 2 },
	};
	struct ta_plan_request req = {
		.flags = TA_CREATE_LIFETIMES | TA_CREATE_DRY_RUN,
		.n_tensors = 1,
	};
	static const u64 bad[] = { 3, 48, BIT_ULL(33), U64_MAX };
	struct ta_owner owner = { .uid = current_euid(), .key = 3 };
	struct ta_plan_summary sum;
	u32 i;

	KUNIT_EXPECT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);
	KUNIT_EXPECT_EQ(test, req.default_align, 1ULL);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		req.default_align = bad[i];
		KUNIT_EXPECT_EQ(test, ta_request_check(&req, 0, 0, 1000),
				-EINVAL);
	}
	req.default_align = BIT_ULL(32);
	KUNIT_EXPECT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);

	/* As a transport fills the buffers: align 0 takes the default. */
	req.default_align = 256;
	req.n_tensors = ARRAY_SIZE(buffers);
	KUNIT_ASSERT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);
	for (i = 1; i < ARRAY_SIZE(buffers); i++)
		buffers[i].align = req.default_align;
	req.buffers = kmemdup(buffers, sizeof(buffers), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req.buffers);
	req.strategy = TA_STRATEGY_GREEDY_SIZE;
	KUNIT_ASSERT_EQ(test, ta_plan_obj_create(&f->live.ta, &owner, &req,
						 &sum), 0);
	ta_request_free(&req);
	/* Three live together at multiples of 256: 0, 256, 512. */
	KUNIT_EXPECT_EQ(test, sum.height, 612ULL);
}

static struct kunit_case ta_kapi_cases[] = {
	KUNIT_CASE(ta_kapi_lookup_test),
	KUNIT_CASE(ta_kapi_other_user_test),
	KUNIT_CASE(ta_kapi_reference_outlives_destroy_test),
	KUNIT_CASE(ta_kapi_dmabuf_test),
	KUNIT_CASE(ta_kapi_tensor_export_test),
	KUNIT_CASE(ta_kapi_importer_reach_test),
	KUNIT_CASE(ta_default_align_test),
	{}
};

static struct kunit_suite ta_kapi_suite = {
	.name = "tensorarena-kapi",
	.init = ta_kapi_init,
	.exit = ta_kapi_exit,
	.test_cases = ta_kapi_cases,
};

kunit_test_suites(&ta_params_suite, &ta_ioctl_suite, &ta_arena_suite,
		  &ta_kapi_suite);
