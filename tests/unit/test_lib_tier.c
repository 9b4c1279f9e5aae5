// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_lib_tier.c - libtensorarena's memory tiers, offline, through the
 * public API (tensorarena.h): per-tensor requests, tiered plans and their
 * figures, every plan checked with ta_tier_check() (the planner's own
 * validator, independent of ta_tier_solve()), pin failures read back, and
 * the inputs the API refuses, case by case. The kernel path runs against
 * a stand-in transport (the contract's PLAN_CREATE and PLAN_GET fields,
 * a memfd for /dev/tensorarena's mappings): no module is needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_test.h"
#include "tensorarena.h"
#include "ta_client.h"
#include "ta_tier.h"

/*
 * in (1000) -> a (3000) -> b (2000); c (500) reads a and b; out (100).
 * Steps: f: in->a, g: a->b, h: a,b->c, k: c->out. Default weights: size
 * times one plus readers: in 2000, a 9000, b 4000, c 1000, out 100.
 */
static struct ta_graph_builder *diamond(void)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t in, a, b, c, out, ab[2];

	if (!g)
		return NULL;
	in = ta_graph_add_tensor(g, 1000, 1, TA_TENSOR_INPUT);
	a = ta_graph_add_tensor(g, 3000, 1, 0);
	b = ta_graph_add_tensor(g, 2000, 1, 0);
	c = ta_graph_add_tensor(g, 500, 1, 0);
	out = ta_graph_add_tensor(g, 100, 1, TA_TENSOR_OUTPUT);
	ab[0] = a;
	ab[1] = b;
	ta_graph_add_op(g, &in, 1, &a, 1);
	ta_graph_add_op(g, &a, 1, &b, 1);
	ta_graph_add_op(g, ab, 2, &c, 1);
	ta_graph_add_op(g, &c, 1, &out, 1);
	return g;
}

/*
 * Check @p, a tiered plan of @g, with ta_tier_check() (its pins from @g's
 * requests, default weights unless given): 0 when valid and the weight it
 * serves is the plan's figure.
 */
static int tier_valid(const struct ta_graph_builder *g, const struct ta_plan *p)
{
	uint32_t i, n = ta_plan_tensor_count(p);
	struct ta_tier_request rq = { 0 };
	struct ta_tier_conflict c;
	struct ta_lib_problem lp;
	struct ta_plan_tiers t;
	u64 *off, *w, served = 0;
	u8 *tier, *pins;
	int ret = -ENOMEM;

	ta_plan_tiers(p, &t);
	off = calloc(n + 1, sizeof(*off));
	w = calloc(n + 1, sizeof(*w));
	tier = calloc(n + 1, sizeof(*tier));
	pins = calloc(n + 1, sizeof(*pins));
	memset(&lp, 0, sizeof(lp));
	if (!off || !w || !tier || !pins || ta_lib_problem(g, &lp) ||
	    ta_tier_weights(&lp.prob, w))
		goto out;
	for (i = 0; i < n; i++) {
		off[i] = ta_plan_offset(p, i);
		tier[i] = (u8)ta_plan_tensor_tier(p, i);
		if (i < g->n_tiers) {
			pins[i] = (u8)g->tiers[i].pin;
			if (g->tiers[i].weight)
				w[i] = g->tiers[i].weight;
		}
	}
	rq.capacity = t.fast_capacity;
	rq.weights = w;
	rq.pins = pins;
	ret = ta_tier_check(&lp.prob, &rq, tier, off, t.fast_height,
			    ta_plan_height(p), &served, &c);
	if (ret)
		printf("# ta_tier_check: kind %u tensor %u tier %u\n", c.kind,
		       c.tensor, c.tier);
	else if (served != t.weight_fast)
		ret = -EDOM;
out:
	ta_lib_problem_free(&lp);
	free(off);
	free(w);
	free(tier);
	free(pins);
	return ret;
}

/*
 * A capacity of 5000 holds a (3000) and b (2000) together, in beside a
 * before b starts and out after them: 15100 of 16100 (c, 500, would need
 * 5500 at step 2); the figures, the tiers and the check agree, and
 * ta_plan_submit_tiered(NULL, ...) makes the same plan. An untiered plan
 * says so: its figures are zero, every tensor slow.
 */
static int t_lib_tier_offline(void)
{
	struct ta_plan_options o = { .fast_capacity = 5000 };
	struct ta_graph_builder *g = diamond();
	struct ta_tier_failure fail;
	struct ta_plan *p, *q;
	struct ta_plan_tiers t;
	uint32_t i;

	TA_CHECK(g, "alloc");
	TA_CHECK(!ta_plan_offline(g, &o, &p), "plan");
	ta_plan_tiers(p, &t);
	TA_CHECK(t.fast_capacity == 5000 && t.weight_total == 16100,
		 "%llu %llu", (unsigned long long)t.fast_capacity,
		 (unsigned long long)t.weight_total);
	TA_CHECK(t.weight_fast == 15100 && t.weight_bound >= t.weight_fast &&
		 t.weight_bound <= t.weight_total, "fast %llu bound %llu",
		 (unsigned long long)t.weight_fast,
		 (unsigned long long)t.weight_bound);
	TA_CHECK(ta_plan_tensor_tier(p, 1) == TA_TIER_FAST &&
		 ta_plan_tensor_tier(p, 2) == TA_TIER_FAST, "a, b fast");
	TA_CHECK(t.fast_height == 5000 && t.n_fast == 4 &&
		 ta_plan_tensor_tier(p, 3) == TA_TIER_SLOW, "%llu %u",
		 (unsigned long long)t.fast_height, t.n_fast);
	TA_CHECK(!tier_valid(g, p), "check");
	TA_CHECK(ta_plan_tensor_tier(p, 5) == 0, "out of range");
	TA_CHECK(ta_plan_map(p) == -EINVAL && !ta_plan_tensor(p, 1),
		 "offline map");
	TA_CHECK(!ta_plan_submit_tiered(NULL, g, &o, &fail, &q), "tiered");
	TA_CHECK(fail.kind == TA_TIER_FAIL_NONE, "%u", fail.kind);
	for (i = 0; i < 5; i++)
		TA_CHECK(ta_plan_tensor_tier(q, i) == ta_plan_tensor_tier(p, i) &&
			 ta_plan_offset(q, i) == ta_plan_offset(p, i), "%u", i);
	ta_plan_free(q);
	ta_plan_free(p);
	TA_CHECK(!ta_plan_offline(g, NULL, &p), "untiered");
	ta_plan_tiers(p, &t);
	TA_CHECK(!t.fast_capacity && !t.weight_total && !t.n_fast, "zero");
	for (i = 0; i < 5; i++)
		TA_CHECK(ta_plan_tensor_tier(p, i) == TA_TIER_SLOW, "%u", i);
	ta_plan_free(p);
	ta_graph_free(g);
	return 0;
}

/*
 * Weights and pins: a's weight made 1 moves the choice to what else fits
 * with b; pinning a slow does the same; pinning c fast keeps it there;
 * the lifetime form's default weight is twice the size.
 */
static int t_lib_tier_requests(void)
{
	struct ta_plan_options o = { .fast_capacity = 5000 };
	struct ta_graph_builder *g = diamond(), *lt = ta_graph_new();
	struct ta_plan *p;
	struct ta_plan_tiers t;

	TA_CHECK(g && lt, "alloc");
	TA_CHECK(!ta_graph_set_tensor_tier(g, 1, 1, TA_TIER_ANY), "weight");
	TA_CHECK(!ta_plan_offline(g, &o, &p), "plan");
	ta_plan_tiers(p, &t);
	TA_CHECK(ta_plan_tensor_tier(p, 1) == TA_TIER_SLOW &&
		 t.weight_total == 16100 - 9000 + 1, "a weight 1: %llu",
		 (unsigned long long)t.weight_total);
	TA_CHECK(!tier_valid(g, p), "check weight");
	ta_plan_free(p);
	TA_CHECK(!ta_graph_set_tensor_tier(g, 1, 0, TA_TIER_SLOW), "pin a");
	TA_CHECK(!ta_graph_set_tensor_tier(g, 3, 0, TA_TIER_FAST), "pin c");
	TA_CHECK(!ta_plan_offline(g, &o, &p), "plan pins");
	ta_plan_tiers(p, &t);
	TA_CHECK(ta_plan_tensor_tier(p, 1) == TA_TIER_SLOW &&
		 ta_plan_tensor_tier(p, 3) == TA_TIER_FAST &&
		 t.weight_total == 16100, "pins");
	TA_CHECK(!tier_valid(g, p), "check pins");
	ta_plan_free(p);
	TA_CHECK(ta_graph_add_buffer(lt, 4096, 64, 0, 2) == 0 &&
		 ta_graph_add_buffer(lt, 1024, 64, 1, 3) == 1, "buffers");
	o.fast_capacity = 1024;
	TA_CHECK(!ta_plan_offline(lt, &o, &p), "lifetimes");
	ta_plan_tiers(p, &t);
	TA_CHECK(t.weight_total == 2 * 5120 && t.weight_fast == 2048 &&
		 ta_plan_height(p) == 4096, "%llu %llu %llu",
		 (unsigned long long)t.weight_total,
		 (unsigned long long)t.weight_fast,
		 (unsigned long long)ta_plan_height(p));
	TA_CHECK(!tier_valid(lt, p), "check lifetimes");
	ta_plan_free(p);
	ta_graph_free(lt);
	ta_graph_free(g);
	return 0;
}

/*
 * Every refusal, case by case: the errno, the pin failure where there is
 * one, and *out untouched.
 */
static int t_lib_tier_refusals(void)
{
	struct {
		const char *what;
		uint32_t pin_tensor, pin;	/* pin_tensor 9: none */
		uint32_t pin2_tensor, pin2;	/* pin2_tensor 9: none */
		struct ta_plan_options o;
		bool inplace;
		int err;
		uint32_t kind, tensor, step;
		uint64_t shortfall;
	} cases[] = {
		{ "capacity 0", 9, 0, 9, 0, { .fast_capacity = 0 }, false,
		  -EINVAL, 0, 0, 0, 0 },
		{ "flag without capacity", 9, 0, 9, 0,
		  { .flags = TA_CREATE_TIERED }, false, -EINVAL, 0, 0, 0, 0 },
		{ "fixed strategy", 9, 0, 9, 0,
		  { .strategy = TA_STRATEGY_FIXED, .fast_capacity = 4096 },
		  false, -EINVAL, 0, 0, 0, 0 },
		{ "reserved", 9, 0, 9, 0,
		  { .fast_capacity = 4096, .reserved = { 0, 1 } }, false,
		  -EINVAL, 0, 0, 0, 0 },
		{ "unknown flag", 9, 0, 9, 0,
		  { .flags = 0x100, .fast_capacity = 4096 }, false, -EINVAL,
		  0, 0, 0, 0 },
		{ "a pinned fast above the capacity", 1, TA_TIER_FAST, 9, 0,
		  { .fast_capacity = 2500 }, false, -ENOSPC,
		  TA_TIER_FAIL_SIZE, 1, 0, 500 },
		{ "a and b pinned fast live together", 1, TA_TIER_FAST, 2,
		  TA_TIER_FAST, { .fast_capacity = 4000 }, false, -ENOSPC,
		  TA_TIER_FAIL_LIVE, 2, 1, 1000 },
		{ "an in-place chain pinned to both tiers", 3, TA_TIER_FAST, 4,
		  TA_TIER_SLOW, { .fast_capacity = 4000 }, true, -EINVAL,
		  TA_TIER_FAIL_CLASS, 4, 0, 0 },
	};
	struct ta_plan *sentinel = (struct ta_plan *)&cases, *p;
	struct ta_tier_failure fail;
	size_t k, ran = 0;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ta_graph_builder *g = ta_graph_new();
		uint32_t in, a, b, c, out, ab[2];
		int err;

		TA_CHECK(g, "alloc");
		/* the diamond, with c -> out in place (same size) when asked */
		in = ta_graph_add_tensor(g, 1000, 1, TA_TENSOR_INPUT);
		a = ta_graph_add_tensor(g, 3000, 1, 0);
		b = ta_graph_add_tensor(g, 2000, 1, 0);
		c = ta_graph_add_tensor(g, 500, 1, 0);
		out = ta_graph_add_tensor(g, cases[k].inplace ? 500 : 100, 1,
					  TA_TENSOR_OUTPUT);
		ab[0] = a;
		ab[1] = b;
		ta_graph_add_op(g, &in, 1, &a, 1);
		ta_graph_add_op(g, &a, 1, &b, 1);
		ta_graph_add_op(g, ab, 2, &c, 1);
		ta_graph_add_op(g, &c, 1, &out, 1);
		if (cases[k].inplace)
			TA_CHECK(!ta_graph_set_op_flags(g, 3, TA_OP_INPLACE),
				 "inplace");
		if (cases[k].pin_tensor != 9)
			TA_CHECK(!ta_graph_set_tensor_tier(g, cases[k].pin_tensor,
							   0, cases[k].pin), "pin");
		if (cases[k].pin2_tensor != 9)
			TA_CHECK(!ta_graph_set_tensor_tier(g, cases[k].pin2_tensor,
							   0, cases[k].pin2), "pin2");
		p = sentinel;
		memset(&fail, 0xff, sizeof(fail));
		err = ta_plan_submit_tiered(NULL, g, &cases[k].o, &fail, &p);
		TA_CHECK(err == cases[k].err && p == sentinel, "%s: %d",
			 cases[k].what, err);
		TA_CHECK(fail.kind == cases[k].kind, "%s: kind %u", cases[k].what,
			 fail.kind);
		if (cases[k].kind)
			TA_CHECK(fail.tensor == cases[k].tensor &&
				 fail.shortfall == cases[k].shortfall &&
				 (cases[k].kind != TA_TIER_FAIL_LIVE ||
				  fail.step == cases[k].step),
				 "%s: tensor %u step %u shortfall %llu",
				 cases[k].what, fail.tensor, fail.step,
				 (unsigned long long)fail.shortfall);
		/* ta_plan_offline() refuses alike (without the failure) */
		if (cases[k].o.fast_capacity || cases[k].o.flags) {
			err = ta_plan_offline(g, &cases[k].o, &p);
			TA_CHECK(err == cases[k].err && p == sentinel, "%s: %d",
				 cases[k].what, err);
		}
		ta_graph_free(g);
		ran++;
	}
	TA_CHECK(ran == 8, "%zu cases", ran);

	/* the requests themselves */
	{
		struct ta_graph_builder *g = diamond();
		struct ta_plan_options o = { .fast_capacity = 4096 };

		TA_CHECK(g, "alloc");
		TA_CHECK(ta_graph_set_tensor_tier(g, 5, 0, 0) == -EINVAL,
			 "tensor out of range");
		TA_CHECK(ta_graph_set_tensor_tier(g, 0, 0, 3) == -EINVAL,
			 "pin 3");
		TA_CHECK(ta_graph_set_tensor_tier(NULL, 0, 0, 0) == -EINVAL,
			 "NULL graph");
		p = sentinel;
		TA_CHECK(ta_plan_submit_tiered(NULL, g, NULL, &fail, &p) ==
			 -EINVAL && p == sentinel && !fail.kind, "NULL options");
		/* a refused request changed nothing: the plan has no pin */
		TA_CHECK(!ta_plan_submit_tiered(NULL, g, &o, NULL, &p), "plan");
		TA_CHECK(!tier_valid(g, p), "check");
		ta_plan_free(p);
		ta_graph_free(g);
	}
	return 0;
}

static u64 rnd(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * 300 random chains with skips (graph form) or lifetime sets, random
 * capacities, weights and pins: every plan valid by ta_tier_check(),
 * every refusal a pin failure with its kind set (-ENOSPC or -EINVAL).
 */
static int t_lib_tier_random(void)
{
	u64 x = 0x9e3779b97f4a7c15ULL;
	int k, planned = 0, refused = 0, fast_seen = 0;

	for (k = 0; k < 300; k++) {
		struct ta_graph_builder *g = ta_graph_new();
		struct ta_plan_options o = { 0 };
		uint32_t n = 2 + rnd(&x) % 14, i;
		struct ta_tier_failure fail;
		struct ta_plan *p;
		u64 peak = 0;
		int err;

		TA_CHECK(g, "alloc");
		if (k % 2) {
			for (i = 0; i < n; i++) {
				u32 s = rnd(&x) % 10;
				u64 size = 16 * (1 + rnd(&x) % 100);

				TA_CHECK(ta_graph_add_buffer(g, size,
							     1ULL << (rnd(&x) % 6),
							     s, s + 1 + rnd(&x) % 4) ==
					 (int)i, "buffer");
				peak += size;
			}
		} else {
			for (i = 0; i < n; i++) {
				u64 size = 16 * (1 + rnd(&x) % 100);

				ta_graph_add_tensor(g, size, 1ULL << (rnd(&x) % 6),
						    i ? 0 : TA_TENSOR_INPUT);
				peak += size;
			}
			for (i = 1; i < n; i++) {
				uint32_t ins[2] = { i - 1, (uint32_t)(rnd(&x) % i) };

				TA_CHECK(ta_graph_add_op(g, ins, 1 + (i > 1),
							 &i, 1) >= 0, "op");
			}
		}
		for (i = 0; i < n; i++)
			if (!(rnd(&x) % 3))
				TA_CHECK(!ta_graph_set_tensor_tier(g, i,
						rnd(&x) % 2 ? rnd(&x) % 5000 : 0,
						rnd(&x) % 5 == 0 ? TA_TIER_FAST :
						rnd(&x) % 5 == 0 ? TA_TIER_SLOW :
						TA_TIER_ANY), "request");
		o.fast_capacity = 1 + peak / (2 + rnd(&x) % 6);
		err = ta_plan_submit_tiered(NULL, g, &o, &fail, &p);
		if (err) {
			TA_CHECK((err == -ENOSPC || err == -EINVAL) && fail.kind,
				 "case %d: %d, kind %u", k, err, fail.kind);
			refused++;
		} else {
			struct ta_plan_tiers t;

			TA_CHECK(!tier_valid(g, p), "case %d", k);
			ta_plan_tiers(p, &t);
			fast_seen += t.n_fast > 0;
			ta_plan_free(p);
			planned++;
		}
		ta_graph_free(g);
	}
	printf("# lib tier random: 300 cases, %d planned (%d with tensors in SRAM), %d refused\n",
	       planned, fast_seen, refused);
	TA_CHECK(planned + refused == 300 && planned >= 150 && refused >= 1 &&
		 fast_seen >= 100, "planned %d refused %d with fast %d",
		 planned, refused, fast_seen);
	return 0;
}

/*
 * The stand-in transport: what the library sent, and what a module with
 * a fast tier answers (3 tensors: 0 and 2 fast, 1 slow).
 */
static struct ta_plan_create fake_sent;
static struct ta_tensor_tier fake_tiers[8];
static u32 fake_n_tiers;
static int fake_fail;	/* 0, or the errno of a pin failure */

static int fake_create(struct ta_client *c, struct ta_plan_create *a)
{
	(void)c;
	fake_sent = *a;
	fake_n_tiers = 0;
	if (a->tiers && a->tier_size == sizeof(struct ta_tensor_tier) &&
	    a->n_tensors <= 8) {
		memcpy(fake_tiers, (const void *)(uintptr_t)a->tiers,
		       a->n_tensors * sizeof(fake_tiers[0]));
		fake_n_tiers = a->n_tensors;
	}
	if (fake_fail) {
		a->tier_fail_tensor = 1;
		a->tier_fail_kind = TA_TIER_FAIL_LIVE;
		a->tier_fail_step = 2;
		a->tier_fail_shortfall = 300;
		return -fake_fail;
	}
	a->plan_id = (a->flags & TA_CREATE_DRY_RUN) ? 0 : 7;
	a->height = 3000;
	a->n_fast = 2;
	a->fast_height = 1500;
	a->weight_total = 13000;
	a->weight_fast = 4000;
	a->weight_bound = 4500;
	a->fast_mmap_offset = 8192;
	return 0;
}

static int fake_get(struct ta_client *c, struct ta_plan_get *g)
{
	static const struct ta_placement pl[3] = {
		{ .offset = 0, .size = 1000, .tier = TA_TIER_FAST },
		{ .offset = 0, .size = 3000, .tier = TA_TIER_SLOW },
		{ .offset = 1000, .size = 500, .tier = TA_TIER_FAST },
	};

	(void)c;
	if (g->plan_id != 7)
		return -ENOENT;
	if (g->placements) {
		if (g->placement_size != sizeof(pl[0]) || g->n_placements < 3)
			return -EINVAL;
		memcpy((void *)(uintptr_t)g->placements, pl, sizeof(pl));
	}
	g->n_placements = 3;
	g->height = 3000;
	g->lower_bound = 3000;
	g->mmap_offset = 0;
	g->fast_capacity = 2048;
	g->fast_height = 1500;
	g->n_fast = 2;
	g->weight_total = 13000;
	g->weight_fast = 4000;
	g->weight_bound = 4500;
	g->fast_mmap_offset = 8192;
	return 0;
}

static int fake_destroy(struct ta_client *c, uint32_t id)
{
	(void)c;
	return id == 7 ? 0 : -ENOENT;
}

static const struct ta_transport_ops fake_ops = {
	.create = fake_create,
	.get = fake_get,
	.destroy = fake_destroy,
};

/*
 * The kernel path, to the contract of 56f7dc1: the request carries
 * TA_CREATE_TIERED, the capacity and one ta_tensor_tier per tensor (none
 * when the graph has no requests); a dry run's figures come from the
 * create, a plan's from PLAN_GET with each tensor's tier; ta_plan_map()
 * maps both slices (a memfd here) and ta_plan_tensor() points into the
 * tensor's own; a pin failure comes back in *fail with *out untouched.
 */
static int t_lib_tier_kernel_path(void)
{
	struct ta_plan_options o = { .fast_capacity = 2048 };
	struct ta_client fc = { .transport = TA_TRANSPORT_IOCTL,
				.ops = &fake_ops };
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan *sentinel = (struct ta_plan *)&fc, *p;
	struct ta_tier_failure fail;
	struct ta_plan_tiers t;
	uint32_t in, mid, out;
	char byte = 0;

	TA_CHECK(g, "alloc");
	in = ta_graph_add_tensor(g, 1000, 1, TA_TENSOR_INPUT);
	mid = ta_graph_add_tensor(g, 3000, 1, 0);
	out = ta_graph_add_tensor(g, 500, 1, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &mid, 1);
	ta_graph_add_op(g, &mid, 1, &out, 1);
	fc.dev_fd = memfd_create("ta_unit_tier", 0);
	TA_CHECK(fc.dev_fd >= 0 && !ftruncate(fc.dev_fd, 16384), "memfd");

	/* no requests: the flag and the capacity, no array */
	o.flags = TA_CREATE_DRY_RUN;
	TA_CHECK(!ta_plan_submit(&fc, g, &o, &p), "dry run");
	TA_CHECK((fake_sent.flags & TA_CREATE_TIERED) &&
		 fake_sent.fast_capacity == 2048 && !fake_sent.tiers &&
		 !fake_sent.tier_size && !fake_sent.tier_reserved,
		 "request %x %llu", fake_sent.flags,
		 (unsigned long long)fake_sent.fast_capacity);
	ta_plan_tiers(p, &t);
	TA_CHECK(!ta_plan_id(p) && t.fast_capacity == 2048 &&
		 t.fast_height == 1500 && t.n_fast == 2 &&
		 t.weight_fast == 4000 && t.weight_bound == 4500 &&
		 ta_plan_height(p) == 3000, "dry-run figures");
	ta_plan_free(p);

	/* requests: one element per tensor, those never set zero */
	TA_CHECK(!ta_graph_set_tensor_tier(g, mid, 77, TA_TIER_SLOW), "req");
	o.flags = 0;
	TA_CHECK(!ta_plan_submit_tiered(&fc, g, &o, &fail, &p), "plan");
	TA_CHECK(fake_n_tiers == 3 &&
		 fake_sent.tier_size == sizeof(struct ta_tensor_tier) &&
		 !fake_tiers[0].weight && !fake_tiers[0].pin &&
		 fake_tiers[1].weight == 77 && fake_tiers[1].pin == TA_TIER_SLOW &&
		 !fake_tiers[2].weight && !fake_tiers[2].pin && !fail.kind,
		 "tiers sent: %u", fake_n_tiers);
	ta_plan_tiers(p, &t);
	TA_CHECK(ta_plan_id(p) == 7 && t.fast_capacity == 2048 &&
		 t.weight_total == 13000, "figures");
	TA_CHECK(ta_plan_tensor_tier(p, 0) == TA_TIER_FAST &&
		 ta_plan_tensor_tier(p, 1) == TA_TIER_SLOW &&
		 ta_plan_tensor_tier(p, 2) == TA_TIER_FAST &&
		 ta_plan_offset(p, 2) == 1000, "tiers");
	TA_CHECK(!ta_plan_tensor(p, 0), "unmapped");
	TA_CHECK(!ta_plan_map(p), "map");
	/* tensor 2 is 1000 bytes into the fast slice, at 8192 in the file */
	memset(ta_plan_tensor(p, 2), 0x5a, 500);
	memset(ta_plan_tensor(p, 1), 0x11, 3000);
	TA_CHECK(pread(fc.dev_fd, &byte, 1, 8192 + 1000) == 1 && byte == 0x5a,
		 "fast byte %x", byte);
	TA_CHECK(pread(fc.dev_fd, &byte, 1, 8192 + 999) == 1 && byte == 0,
		 "before it %x", byte);
	TA_CHECK(pread(fc.dev_fd, &byte, 1, 0) == 1 && byte == 0x11,
		 "slow byte %x", byte);
	TA_CHECK(ta_plan_tensor(p, 0) != ta_plan_tensor(p, 1), "two slices");
	TA_CHECK(!ta_plan_destroy(p), "destroy");
	ta_plan_free(p);

	/* a pin failure: read back, nothing returned */
	fake_fail = ENOSPC;
	p = sentinel;
	TA_CHECK(ta_plan_submit_tiered(&fc, g, &o, &fail, &p) == -ENOSPC &&
		 p == sentinel, "failure");
	TA_CHECK(fail.kind == TA_TIER_FAIL_LIVE && fail.tensor == 1 &&
		 fail.step == 2 && fail.shortfall == 300, "fail %u %u %u",
		 fail.kind, fail.tensor, fail.step);
	fake_fail = 0;
	close(fc.dev_fd);
	ta_graph_free(g);
	return 0;
}

const struct ta_test ta_lib_tier_tests[] = {
	{ "lib_tier_offline", t_lib_tier_offline },
	{ "lib_tier_requests", t_lib_tier_requests },
	{ "lib_tier_refusals", t_lib_tier_refusals },
	{ "lib_tier_random", t_lib_tier_random },
	{ "lib_tier_kernel_path", t_lib_tier_kernel_path },
	{ NULL, NULL },
};
