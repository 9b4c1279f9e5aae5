// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_tier.c - memory tiers through the ioctls (issue 29): a module
 * loaded with a fast tier (sram_size: emulated SRAM).
 *
 *  - INFO reports the fast tier (size, use, largest free run, flags, the
 *    DMA address to root);
 *  - a tiered plan: placements carry their tier, the figures agree between
 *    PLAN_CREATE and PLAN_GET, the fast slice is counted in fast_in_use
 *    (not in bytes_in_use), both slices map, a new fast slice is zeroed,
 *    bytes written through one mapping show through another and through
 *    the fast slice's dma-buf (TA_EXPORT_FAST) and a fast tensor's own
 *    (TENSOR_EXPORT, tier FAST);
 *  - pins and weights are obeyed;
 *  - refusals, case by case, each with its errno and nothing changed
 *    (INFO's plans, bytes and fast bytes as before): bad tier fields, pins
 *    that cannot be met (with the tensor, kind and shortfall);
 *  - max_user_fast_bytes bounds the fast bytes one uid holds: EDQUOT past
 *    it, nothing taken, and a destroyed plan's bytes count no more;
 *  - --no-fast: a module without a fast tier refuses every tiered create
 *    with ENODEV.
 *
 * Runs as root in the test VM with tensorarena.ko loaded with
 * sram_size=1M (or, with --no-fast, without it) and no plan held; with
 * --sram, on a board whose device tree gives the module 1 MiB of SRAM
 * (not emulated).
 *
 * usage: ta_e2e_tier [--no-fast | --sram] [-l] [-t TEST]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_dev.h"
#include "ta_e2e_param.h"

#define PAGE	4096ULL
#define KIB	1024ULL
#define SRAM	(1024 * KIB)	/* the sram_size vm-tests.sh loads with */
#define CAP	(128 * KIB)	/* the plans' fast_capacity */
#define NT	5
#define NOPS	4

static bool no_fast;
static bool device_sram;	/* --sram: the device tree's, not emulated */
/* Elements of 24 bytes: a struct ta_tensor_tier and 8 more bytes. */
static __u64 big_tiers[3 * NT];

/*
 * t0 (input, exportable, 64K) -op0-> t1 (64K) -op1, in place-> t2 (64K)
 * -op2-> t3 (64K) -op3-> t4 (output, 256K): t1 and t2 share bytes.
 */
struct graph {
	struct ta_tensor t[NT];
	struct ta_op ops[NOPS];
	__u32 refs[2 * NOPS];
	struct ta_tensor_tier tiers[NT];
};

static void graph_init(struct graph *g)
{
	static const __u32 refs[2 * NOPS] = { 0, 1, 1, 2, 2, 3, 3, 4 };
	int i;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < NT; i++)
		g->t[i].size = 64 * KIB;
	g->t[4].size = 256 * KIB;
	g->t[0].flags = TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE;
	g->t[4].flags = TA_TENSOR_OUTPUT;
	for (i = 0; i < NOPS; i++)
		g->ops[i] = (struct ta_op){ .first_ref = 2 * i, .n_inputs = 1,
					    .n_outputs = 1 };
	g->ops[1].flags = TA_OP_INPLACE;
	memcpy(g->refs, refs, sizeof(refs));
}

static void create_init(struct ta_plan_create *c, struct graph *g,
			bool with_tiers)
{
	memset(c, 0, sizeof(*c));
	c->flags = TA_CREATE_TIERED;
	c->tensors = (uintptr_t)g->t;
	c->n_tensors = NT;
	c->tensor_size = sizeof(struct ta_tensor);
	c->ops = (uintptr_t)g->ops;
	c->n_ops = NOPS;
	c->op_size = sizeof(struct ta_op);
	c->refs = (uintptr_t)g->refs;
	c->n_refs = 2 * NOPS;
	c->fast_capacity = CAP;
	if (with_tiers) {
		c->tiers = (uintptr_t)g->tiers;
		c->tier_size = sizeof(struct ta_tensor_tier);
	}
}

static int placements(int fd, __u32 id, struct ta_placement *pl, __u32 n,
		      struct ta_plan_get *g)
{
	memset(g, 0, sizeof(*g));
	g->plan_id = id;
	g->placements = (uintptr_t)pl;
	g->n_placements = n;
	g->placement_size = sizeof(*pl);
	return xioctl(fd, TA_IOCTL_PLAN_GET, g);
}

static bool same_info(struct ta_info a, struct ta_info b)
{
	return a.n_plans == b.n_plans && a.bytes_in_use == b.bytes_in_use &&
	       a.fast_in_use == b.fast_in_use;
}

static __u64 page_up(__u64 n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
}

static bool all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool all_byte(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

TEST(info)
{
	struct ta_info i = info();

	if (no_fast) {
		CHECK(i.fast_size == 0 && i.fast_in_use == 0 &&
		      i.fast_largest_free == 0 && i.fast_dma_base == 0 &&
		      i.fast_flags == 0,
		      "tier: INFO without a fast tier: every fast field 0");
		return;
	}
	CHECK(i.fast_size == SRAM, "tier: INFO fast_size %llu (sram_size %llu)",
	      (unsigned long long)i.fast_size, SRAM);
	if (device_sram)
		CHECK(i.fast_flags == (TA_FAST_MAPPABLE | TA_FAST_EXPORTABLE),
		      "tier: INFO fast_flags MAPPABLE|EXPORTABLE, SRAM (0x%x)",
		      i.fast_flags);
	else
		CHECK(i.fast_flags == (TA_FAST_EMULATED | TA_FAST_MAPPABLE |
				       TA_FAST_EXPORTABLE),
		      "tier: INFO fast_flags EMULATED|MAPPABLE|EXPORTABLE (0x%x)",
		      i.fast_flags);
	CHECK(i.fast_in_use == 0 && i.fast_largest_free == SRAM,
	      "tier: INFO fast tier unused, its largest free run all of it");
	CHECK(i.fast_dma_base != 0 && i.fast_pad == 0,
	      "tier: INFO fast_dma_base shown to root");
}

TEST(no_fast_tier)
{
	struct ta_info before = info();
	struct ta_plan_create c;
	struct graph g;
	int fd = devopen(), err;

	if (!no_fast) {
		CHECK(before.fast_size, "tier: --no-fast not given, fast tier present");
		close(fd);
		return;
	}
	graph_init(&g);
	create_init(&c, &g, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(err == -ENODEV && c.plan_id == 0 && same_info(info(), before),
	      "tier: tiered create without a fast tier: ENODEV (got %d), nothing changed",
	      err);
	c.flags |= TA_CREATE_DRY_RUN;
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(err == -ENODEV, "tier: tiered dry run without a fast tier: ENODEV (got %d)",
	      err);
	close(fd);
}

/* A tensor's bytes in its tier's mapping. */
static unsigned char *at(unsigned char *slow, unsigned char *fast,
			 const struct ta_placement *p)
{
	return (p->tier == TA_TIER_FAST ? fast : slow) + p->offset;
}

/* Does a later tensor of the same tier share bytes with tensor i? */
static bool overwritten(const struct ta_placement *pl, int i)
{
	int j;

	for (j = i + 1; j < NT; j++)
		if (pl[j].tier == pl[i].tier && pl[j].size && pl[i].size &&
		    pl[j].offset < pl[i].offset + pl[i].size &&
		    pl[i].offset < pl[j].offset + pl[j].size)
			return true;
	return false;
}

TEST(tiered_plan)
{
	struct ta_info before = info(), during;
	struct ta_placement pl[NT];
	struct ta_plan_create c;
	struct ta_plan_get g;
	unsigned char *slow, *fast, *fast2;
	__u64 slow_len, fast_len;
	unsigned int n_fast = 0, checked = 0;
	struct graph gr;
	int fd = devopen(), err, i;

	if (no_fast)
		SKIP("no fast tier");
	graph_init(&gr);
	create_init(&c, &gr, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(!err && c.plan_id, "tier: tiered create, capacity %llu: %d",
	      CAP, err);
	if (err)
		SKIP("create failed");
	CHECK(c.n_fast > 0 && c.fast_height > 0 && c.fast_height <= CAP,
	      "tier: %u tensors fast, fast_height %llu within the capacity",
	      c.n_fast, (unsigned long long)c.fast_height);
	CHECK(c.weight_fast <= c.weight_bound && c.weight_bound <= c.weight_total &&
	      c.weight_fast > 0,
	      "tier: weight served %llu <= bound %llu <= total %llu",
	      (unsigned long long)c.weight_fast,
	      (unsigned long long)c.weight_bound,
	      (unsigned long long)c.weight_total);
	CHECK(c.fast_mmap_offset && c.fast_mmap_offset != c.mmap_offset &&
	      c.tier_fail_kind == TA_TIER_FAIL_NONE,
	      "tier: fast_mmap_offset 0x%llx set, no pin failure",
	      (unsigned long long)c.fast_mmap_offset);

	err = placements(fd, c.plan_id, pl, NT, &g);
	CHECK(!err && g.fast_height == c.fast_height &&
	      g.fast_mmap_offset == c.fast_mmap_offset &&
	      g.n_fast == c.n_fast && g.weight_fast == c.weight_fast &&
	      g.weight_bound == c.weight_bound &&
	      g.weight_total == c.weight_total && g.fast_capacity == CAP &&
	      g.height == c.height,
	      "tier: PLAN_GET's tier figures are the create's");
	for (i = 0; i < NT; i++) {
		n_fast += pl[i].tier == TA_TIER_FAST;
		CHECK((pl[i].tier == TA_TIER_FAST || pl[i].tier == TA_TIER_SLOW) &&
		      pl[i].pad == 0 && pl[i].offset + pl[i].size <=
		      (pl[i].tier == TA_TIER_FAST ? c.fast_height : c.height),
		      "tier: tensor %d: tier %u, offset %llu within its slice",
		      i, pl[i].tier, (unsigned long long)pl[i].offset);
	}
	CHECK(n_fast == c.n_fast, "tier: %u placements FAST, n_fast %u", n_fast,
	      c.n_fast);
	CHECK(pl[4].tier == TA_TIER_SLOW,
	      "tier: the 256K tensor (above the capacity) lives in the arena");
	CHECK(pl[1].tier == pl[2].tier && pl[1].offset == pl[2].offset,
	      "tier: the in-place pair shares a tier and offset");

	during = info();
	CHECK(during.fast_in_use == page_up(c.fast_height) &&
	      during.bytes_in_use == before.bytes_in_use + page_up(c.height) &&
	      during.n_plans == before.n_plans + 1,
	      "tier: INFO counts the fast slice (%llu) apart from the arena's",
	      (unsigned long long)during.fast_in_use);

	slow_len = page_up(c.height);
	fast_len = page_up(c.fast_height);
	slow = mmap(NULL, slow_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    c.mmap_offset);
	fast = mmap(NULL, fast_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    c.fast_mmap_offset);
	CHECK(slow != MAP_FAILED && fast != MAP_FAILED,
	      "tier: both slices map (%llu and %llu bytes)",
	      (unsigned long long)slow_len, (unsigned long long)fast_len);
	if (slow == MAP_FAILED || fast == MAP_FAILED)
		SKIP("mmap failed");
	CHECK(all_zero(fast, fast_len) && all_zero(slow, slow_len),
	      "tier: both new slices are zeroed");
	CHECK(mmap(NULL, fast_len + PAGE, PROT_READ, MAP_SHARED, fd,
		   c.fast_mmap_offset) == MAP_FAILED && errno == EINVAL,
	      "tier: a mapping longer than the fast slice: EINVAL");
	CHECK(mmap(NULL, fast_len, PROT_READ, MAP_PRIVATE, fd,
		   c.fast_mmap_offset) == MAP_FAILED && errno == EINVAL,
	      "tier: a private mapping of the fast slice: EINVAL");

	for (i = 0; i < NT; i++)
		memset(at(slow, fast, &pl[i]), 0xa0 + i, pl[i].size);
	fast2 = mmap(NULL, fast_len, PROT_READ, MAP_SHARED, fd,
		     c.fast_mmap_offset);
	CHECK(fast2 != MAP_FAILED, "tier: a second mapping of the fast slice");
	if (fast2 == MAP_FAILED)
		SKIP("second mmap failed");
	for (i = 0; i < NT; i++) {
		if (overwritten(pl, i))
			continue;
		CHECK(all_byte(at(slow, fast2, &pl[i]), pl[i].size, 0xa0 + i),
		      "tier: tensor %d's bytes (tier %u) read back through a second mapping",
		      i, pl[i].tier);
		checked++;
	}
	CHECK(checked >= 3, "tier: %u tensors read back", checked);

	/* The fast slice as a dma-buf: the same bytes. */
	{
		struct ta_plan_export x = { .plan_id = c.plan_id,
					    .flags = TA_EXPORT_FAST };
		unsigned char *d;
		off_t end;

		err = xioctl(fd, TA_IOCTL_PLAN_EXPORT, &x);
		CHECK(!err && x.fd >= 0, "tier: PLAN_EXPORT TA_EXPORT_FAST: %d", err);
		if (!err) {
			end = lseek(x.fd, 0, SEEK_END);
			CHECK((__u64)end == fast_len,
			      "tier: the fast dma-buf is the fast slice (%lld bytes)",
			      (long long)end);
			d = mmap(NULL, fast_len, PROT_READ, MAP_SHARED, x.fd, 0);
			CHECK(d != MAP_FAILED && !memcmp(d, fast2, fast_len),
			      "tier: the fast dma-buf shows the fast slice's bytes");
			if (d != MAP_FAILED)
				munmap(d, fast_len);
			close(x.fd);
		}
	}
	/* Tensor 0 (exportable): its own dma-buf, in its tier. */
	{
		struct ta_tensor_export x = { .plan_id = c.plan_id, .tensor = 0 };
		unsigned char *d;

		err = xioctl(fd, TA_IOCTL_TENSOR_EXPORT, &x);
		CHECK(!err && x.tier == pl[0].tier && x.offset == pl[0].offset &&
		      x.size == pl[0].size,
		      "tier: TENSOR_EXPORT of tensor 0: tier %u, offset %llu (%d)",
		      x.tier, (unsigned long long)x.offset, err);
		if (!err) {
			d = mmap(NULL, x.size, PROT_READ, MAP_SHARED, x.fd, 0);
			CHECK(d != MAP_FAILED &&
			      (overwritten(pl, 0) ||
			       all_byte(d, x.size, 0xa0)),
			      "tier: tensor 0's dma-buf shows its bytes");
			if (d != MAP_FAILED)
				munmap(d, x.size);
			close(x.fd);
		}
	}
	/* The 16-byte placements of before tiers still read. */
	{
		__u64 old[2 * NT];
		struct ta_plan_get o = { .plan_id = c.plan_id,
					 .placements = (uintptr_t)old,
					 .n_placements = NT, .placement_size = 16 };

		err = xioctl(fd, TA_IOCTL_PLAN_GET, &o);
		CHECK(!err && old[2] == pl[1].offset && old[3] == pl[1].size,
		      "tier: PLAN_GET with 16-byte placements (%d)", err);
	}
	munmap(fast2, fast_len);
	munmap(fast, fast_len);
	munmap(slow, slow_len);
	CHECK(!destroy(fd, c.plan_id), "tier: destroy the plan");
	CHECK(same_info(info(), before), "tier: INFO as before the plan");

	/* The same plan again: its fast slice (same bytes) is zeroed. */
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	fast = err ? MAP_FAILED : mmap(NULL, fast_len, PROT_READ, MAP_SHARED, fd,
				       c.fast_mmap_offset);
	CHECK(fast != MAP_FAILED && all_zero(fast, fast_len),
	      "tier: a new plan's fast slice is zeroed after the last one wrote it");
	if (fast != MAP_FAILED)
		munmap(fast, fast_len);
	if (!err)
		destroy(fd, c.plan_id);
	close(fd);
}

/*
 * A fast, exportable tensor's own dma-buf: tier FAST, and its bytes are
 * the fast slice's (written through the slice's mapping).
 */
static void export_fast_tensor(int fd, __u32 id, const struct ta_placement *p)
{
	struct ta_tensor_export x = { .plan_id = id, .tensor = 0 };
	struct ta_plan_get g;
	unsigned char *fast, *d = MAP_FAILED;
	int err;

	err = placements(fd, id, NULL, 0, &g);
	fast = err ? MAP_FAILED :
		mmap(NULL, page_up(g.fast_height), PROT_READ | PROT_WRITE,
		     MAP_SHARED, fd, g.fast_mmap_offset);
	CHECK(fast != MAP_FAILED, "tier: map the fast slice (%d)", err);
	if (fast == MAP_FAILED)
		return;
	memset(fast + p->offset, 0x5a, p->size);
	err = xioctl(fd, TA_IOCTL_TENSOR_EXPORT, &x);
	if (!err)
		d = mmap(NULL, x.size, PROT_READ, MAP_SHARED, x.fd, 0);
	CHECK(!err && x.tier == TA_TIER_FAST && x.offset == p->offset &&
	      d != MAP_FAILED && all_byte(d, x.size, 0x5a),
	      "tier: TENSOR_EXPORT of a fast tensor: tier FAST, its bytes in SRAM (%d)",
	      err);
	if (d != MAP_FAILED)
		munmap(d, x.size);
	if (!err)
		close(x.fd);
	munmap(fast, page_up(g.fast_height));
}

TEST(pins_and_weights)
{
	struct ta_info before = info();
	struct ta_placement pl[NT];
	struct ta_plan_create c;
	struct ta_plan_get g;
	struct graph gr;
	int fd = devopen(), err, i;
	unsigned int ran = 0;

	if (no_fast)
		SKIP("no fast tier");
	for (i = 0; i < 4; i++) {
		graph_init(&gr);
		create_init(&c, &gr, true);
		switch (i) {
		case 0: /* pin 3 fast, 0 slow */
			gr.tiers[3].pin = TA_TIER_FAST;
			gr.tiers[0].pin = TA_TIER_SLOW;
			break;
		case 1: /* everything slow */
			for (int j = 0; j < NT; j++)
				gr.tiers[j].pin = TA_TIER_SLOW;
			break;
		case 2: /* tensor 0 weighs most */
			gr.tiers[0].weight = 1ULL << 40;
			break;
		case 3: /* a larger element, its tail zero */
			memset(big_tiers, 0, sizeof(big_tiers));
			big_tiers[3 * 3 + 1] = TA_TIER_FAST; /* tensor 3's pin */
			c.tiers = (uintptr_t)big_tiers;
			c.tier_size = sizeof(big_tiers) / NT;
			break;
		}
		err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
		if (!err)
			err = placements(fd, c.plan_id, pl, NT, &g);
		switch (i) {
		case 0:
			CHECK(!err && pl[3].tier == TA_TIER_FAST &&
			      pl[0].tier == TA_TIER_SLOW,
			      "tier: pins obeyed: tensor 3 fast, tensor 0 slow (%d)", err);
			break;
		case 1:
			CHECK(!err && c.n_fast == 0 && c.fast_height == 0 &&
			      c.fast_mmap_offset == 0 && c.weight_fast == 0,
			      "tier: everything pinned slow: no fast slice (%d)", err);
			break;
		case 2:
			CHECK(!err && pl[0].tier == TA_TIER_FAST &&
			      c.weight_fast >= (1ULL << 40),
			      "tier: the heaviest tensor is served fast (%d)", err);
			if (!err)
				export_fast_tensor(fd, c.plan_id, &pl[0]);
			break;
		case 3:
			CHECK(!err && pl[3].tier == TA_TIER_FAST,
			      "tier: tier_size of this ABI (%d)", err);
			break;
		}
		if (!err)
			destroy(fd, c.plan_id);
		ran++;
	}
	CHECK(ran == 4, "tier: the pin and weight table ran %u cases", ran);
	CHECK(same_info(info(), before), "tier: INFO as before the pins");
	close(fd);
}

/* Refusals: what to spoil, the errno, and the pin failure expected. */
struct bad_create {
	const char *what;
	int err;
	void (*spoil)(struct ta_plan_create *c, struct graph *g);
	__u32 fail_kind, fail_tensor;
	__u64 fail_shortfall;
};


#define SPOIL(name, body)						\
	static void spoil_##name(struct ta_plan_create *c, struct graph *g) \
	{								\
		(void)c;						\
		(void)g;						\
		body;							\
	}

SPOIL(capacity_zero, c->fast_capacity = 0)
SPOIL(capacity_over, c->fast_capacity = SRAM + PAGE)
SPOIL(pin_unknown, g->tiers[2].pin = 3)
SPOIL(pad, g->tiers[1].pad = 1)
SPOIL(tier_size_small, c->tier_size = 8)
SPOIL(tier_size_big, c->tier_size = 4096)
SPOIL(tier_size_alone, c->tiers = 0)
SPOIL(tiers_alone, c->tier_size = 0)
SPOIL(tail_nonzero, c->tier_size = sizeof(big_tiers) / NT;
      memset(big_tiers, 0, sizeof(big_tiers));
      big_tiers[3 * 1 + 2] = 1; c->tiers = (uintptr_t)big_tiers)
SPOIL(capacity_untiered, c->flags = 0; c->tiers = 0; c->tier_size = 0)
SPOIL(tiers_untiered, c->flags = 0; c->fast_capacity = 0)
SPOIL(tier_size_untiered, c->flags = 0; c->fast_capacity = 0; c->tiers = 0)
SPOIL(tier_reserved, c->tier_reserved = 1)
SPOIL(fixed, c->strategy = TA_STRATEGY_FIXED)
SPOIL(fail_size, g->tiers[4].pin = TA_TIER_FAST)
SPOIL(fail_live, c->fast_capacity = 100 * KIB;
      g->tiers[0].pin = TA_TIER_FAST; g->tiers[3].pin = TA_TIER_FAST)
SPOIL(fail_class, g->tiers[1].pin = TA_TIER_FAST;
      g->tiers[2].pin = TA_TIER_SLOW)

static const struct bad_create bad_creates[] = {
	{ "fast_capacity 0", -EINVAL, spoil_capacity_zero, 0, 0, 0 },
	{ "fast_capacity above the fast tier", -EINVAL, spoil_capacity_over, 0, 0, 0 },
	{ "an unknown pin", -EINVAL, spoil_pin_unknown, 0, 0, 0 },
	{ "a tier's pad non-zero", -EINVAL, spoil_pad, 0, 0, 0 },
	{ "tier_size below the first ABI's", -EINVAL, spoil_tier_size_small, 0, 0, 0 },
	{ "tier_size over 256", -E2BIG, spoil_tier_size_big, 0, 0, 0 },
	{ "tier_size without tiers", -EINVAL, spoil_tier_size_alone, 0, 0, 0 },
	{ "tiers without tier_size", -EINVAL, spoil_tiers_alone, 0, 0, 0 },
	{ "a longer tier element, its tail non-zero", -E2BIG, spoil_tail_nonzero, 0, 0, 0 },
	{ "fast_capacity without TA_CREATE_TIERED", -EINVAL, spoil_capacity_untiered, 0, 0, 0 },
	{ "tiers without TA_CREATE_TIERED", -EINVAL, spoil_tiers_untiered, 0, 0, 0 },
	{ "tier_size without TA_CREATE_TIERED", -EINVAL, spoil_tier_size_untiered, 0, 0, 0 },
	{ "tier_reserved non-zero", -EINVAL, spoil_tier_reserved, 0, 0, 0 },
	{ "the fixed strategy", -EINVAL, spoil_fixed, 0, 0, 0 },
	{ "a 256K tensor pinned fast, capacity 128K", -ENOSPC, spoil_fail_size,
	  TA_TIER_FAIL_SIZE, 4, 128 * KIB },
	{ "two 64K tensors pinned fast live at once, capacity 100K", -ENOSPC,
	  spoil_fail_live, TA_TIER_FAIL_LIVE, 3, 28 * KIB },
	{ "an in-place pair pinned to both tiers", -EINVAL, spoil_fail_class,
	  TA_TIER_FAIL_CLASS, 2, 0 },
};

#define N_BAD_CREATES (sizeof(bad_creates) / sizeof(bad_creates[0]))

TEST(bad_create)
{
	struct ta_info before = info();
	unsigned int i, ran = 0;
	int fd = devopen();

	if (no_fast)
		SKIP("no fast tier");
	for (i = 0; i < N_BAD_CREATES; i++) {
		const struct bad_create *b = &bad_creates[i];
		struct ta_plan_create c;
		struct graph g;
		int err;

		graph_init(&g);
		create_init(&c, &g, true);
		b->spoil(&c, &g);
		/* Out fields the call must leave alone unless it says why. */
		c.n_fast = 77;
		c.fast_height = 77;
		c.tier_fail_step = 12345;
		err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
		CHECK(err == b->err && c.plan_id == 0 && c.n_fast == 77 &&
		      c.fast_height == 77 && same_info(info(), before),
		      "tier: %s: %s (got %d), nothing changed", b->what,
		      strerror(-b->err), err);
		if (b->fail_kind) {
			CHECK(c.tier_fail_kind == b->fail_kind &&
			      c.tier_fail_tensor == b->fail_tensor &&
			      c.tier_fail_shortfall == b->fail_shortfall,
			      "tier: %s: says kind %u tensor %u shortfall %llu (want %u, %u, %llu)",
			      b->what, c.tier_fail_kind, c.tier_fail_tensor,
			      (unsigned long long)c.tier_fail_shortfall,
			      b->fail_kind, b->fail_tensor,
			      (unsigned long long)b->fail_shortfall);
		} else {
			CHECK(c.tier_fail_kind == 0 && c.tier_fail_step == 12345,
			      "tier: %s: no pin failure written", b->what);
		}
		ran++;
	}
	CHECK(ran == N_BAD_CREATES && ran == 17,
	      "tier: the refusal table ran %u cases", ran);

	/* Exports a plan without a fast slice cannot make. */
	{
		struct ta_plan_create c;
		struct ta_plan_export x;
		struct graph g;
		int err;

		graph_init(&g);
		create_init(&c, &g, false);
		c.flags = 0;
		c.fast_capacity = 0;
		err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
		CHECK(!err, "tier: an untiered plan: %d", err);
		x = (struct ta_plan_export){ .plan_id = c.plan_id,
					     .flags = TA_EXPORT_FAST };
		err = xioctl(fd, TA_IOCTL_PLAN_EXPORT, &x);
		CHECK(err == -EINVAL,
		      "tier: TA_EXPORT_FAST of an untiered plan: EINVAL (got %d)",
		      err);
		CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd,
			   (off_t)(0x100000ULL * PAGE + c.plan_id * PAGE)) ==
		      MAP_FAILED && errno == EINVAL,
		      "tier: mmap of an untiered plan's fast slice: EINVAL");
		x.flags = 0x80;
		err = xioctl(fd, TA_IOCTL_PLAN_EXPORT, &x);
		CHECK(err == -EINVAL, "tier: PLAN_EXPORT unknown flag: EINVAL (got %d)",
		      err);
		destroy(fd, c.plan_id);
	}
	CHECK(same_info(info(), before), "tier: INFO as before the refusals");
	close(fd);
}

/*
 * max_user_fast_bytes: with room for one plan's fast slice, a second
 * tiered plan is EDQUOT and changes nothing; once the first is destroyed
 * the second fits (the charge went back); a limit a page short of one
 * slice refuses the first. The limit goes back to 0 (none) at the end.
 */
TEST(fast_quota)
{
	static const char *const param = "max_user_fast_bytes";
	struct ta_info before = info(), held;
	struct ta_plan_create c, c2;
	struct graph g;
	__u64 slice;
	int fd = devopen();
	int err;

	graph_init(&g);
	create_init(&c, &g, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(!err && c.fast_height > PAGE,
	      "tier quota: a tiered plan without a limit (fast height %llu; %d)",
	      (unsigned long long)c.fast_height, err);
	slice = page_up(c.fast_height);
	destroy(fd, c.plan_id);

	CHECK(ta_e2e_param_read(param) == 0 &&
	      !ta_e2e_param_write(param, (long long)slice) &&
	      ta_e2e_param_read(param) == (long long)slice,
	      "tier quota: max_user_fast_bytes set to one fast slice (%llu)",
	      (unsigned long long)slice);
	create_init(&c, &g, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(!err && page_up(c.fast_height) == slice,
	      "tier quota: one plan's fast slice is within the limit (%d)",
	      err);
	held = info();
	create_init(&c2, &g, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c2);
	CHECK(err == -EDQUOT && c2.plan_id == 0 && same_info(info(), held),
	      "tier quota: a second plan past the uid's fast bytes: EDQUOT, nothing taken (got %d)",
	      err);
	destroy(fd, c.plan_id);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c2);
	CHECK(!err && c2.plan_id,
	      "tier quota: after the first is destroyed, the second fits: its bytes were given back (%d)",
	      err);
	if (!err)
		destroy(fd, c2.plan_id);

	CHECK(!ta_e2e_param_write(param, (long long)(slice - PAGE)),
	      "tier quota: max_user_fast_bytes set a page short of one slice");
	create_init(&c, &g, false);
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK(err == -EDQUOT && c.plan_id == 0 && same_info(info(), before),
	      "tier quota: a plan whose fast slice alone is past the limit: EDQUOT, nothing taken (got %d)",
	      err);
	CHECK(!ta_e2e_param_write(param, 0) && ta_e2e_param_read(param) == 0,
	      "tier quota: max_user_fast_bytes back to 0 (no limit)");
	CHECK(same_info(info(), before), "tier quota: INFO as before");
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--no-fast")) {
		no_fast = true;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--sram")) {
		device_sram = true;
		argc--;
		argv++;
	}
	return ta_harness_main(argc - 1, argv + 1) ? 1 : 0;
}
