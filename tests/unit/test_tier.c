// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_tier.c - tiered plans (module/planner/ta_tier*.c): pins, a capacity
 * of 0, pins that cannot fit, weights, every strategy per tier, the bound,
 * and a randomized property test with ta_tier_check() as the oracle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "ta_tier.h"

#define N_MAX 64

struct tier_out {
	u8 tier[N_MAX];
	u64 off[N_MAX];
	struct ta_tier_result res;
};

static int solve_checked(const struct ta_problem *p,
			 const struct ta_tier_request *rq,
			 struct tier_out *o)
{
	struct ta_tier_conflict c;
	u64 served;
	int ret;

	ret = ta_tier_solve(p, rq, NULL, o->tier, o->off, &o->res);
	if (ret)
		return ret;
	ret = ta_tier_check(p, rq, o->tier, o->off, o->res.fast.height,
			    o->res.slow.height, &served, &c);
	if (ret) {
		printf("# check: kind %u tensor %u tier %u plan %u\n", c.kind,
		       c.tensor, c.tier, c.plan.kind);
		return -1000;
	}
	if (served != o->res.weight_fast) {
		printf("# served %llu != %llu\n", (unsigned long long)served,
		       (unsigned long long)o->res.weight_fast);
		return -1001;
	}
	if (o->res.weight_fast > o->res.weight_bound) {
		printf("# above the bound\n");
		return -1002;
	}
	return 0;
}

/* Three buffers: two overlap, one later; 100 bytes of fast tier. */
static struct ta_buffer three[3] = {
	{ .size = 60, .align = 1, .start = 0, .end = 2 },
	{ .size = 60, .align = 1, .start = 1, .end = 3 },
	{ .size = 100, .align = 1, .start = 3, .end = 4 },
};

static int t_tier_basic(void)
{
	struct ta_problem p = { .n_buffers = 3, .buffers = three };
	struct ta_tier_request rq = { .capacity = 100 };
	struct tier_out o;

	TA_CHECK(!solve_checked(&p, &rq, &o), "solve");
	/* 0 and 1 cannot both be fast; 2 always can */
	TA_CHECK(o.tier[2] == TA_TIER_FAST, "tier 2 %u", o.tier[2]);
	TA_CHECK(o.tier[0] != o.tier[1], "0 and 1 %u %u", o.tier[0], o.tier[1]);
	TA_CHECK(o.res.weight_fast == 320 && o.res.weight_total == 440,
		 "weights %llu %llu", (unsigned long long)o.res.weight_fast,
		 (unsigned long long)o.res.weight_total);
	TA_CHECK(o.res.weight_bound >= 320, "bound");
	TA_CHECK(o.res.slow.height == 60 && o.res.fast.height <= 100,
		 "heights");
	return 0;
}

static int t_tier_pins(void)
{
	struct ta_problem p = { .n_buffers = 3, .buffers = three };
	u8 pins[3] = { TA_TIER_SLOW, TA_TIER_ANY, TA_TIER_SLOW };
	struct ta_tier_request rq = { .capacity = 100, .pins = pins };
	struct tier_out o;

	TA_CHECK(!solve_checked(&p, &rq, &o), "solve");
	TA_CHECK(o.tier[0] == TA_TIER_SLOW && o.tier[1] == TA_TIER_FAST &&
		 o.tier[2] == TA_TIER_SLOW, "tiers %u %u %u", o.tier[0],
		 o.tier[1], o.tier[2]);
	pins[0] = TA_TIER_FAST;
	pins[1] = TA_TIER_FAST;
	TA_CHECK(ta_tier_solve(&p, &rq, NULL, o.tier, o.off, &o.res) ==
		 -ENOSPC, "two pinned that overlap");
	TA_CHECK(o.res.fail.kind == TA_TIER_FAIL_LIVE &&
		 o.res.fail.tensor == 1 && o.res.fail.shortfall == 20 &&
		 o.res.fail.step == 1, "fail %u %u %llu", o.res.fail.kind,
		 o.res.fail.tensor, (unsigned long long)o.res.fail.shortfall);
	pins[0] = TA_TIER_ANY;
	pins[1] = TA_TIER_ANY;
	pins[2] = 7;
	TA_CHECK(ta_tier_solve(&p, &rq, NULL, o.tier, o.off, &o.res) ==
		 -EINVAL, "bad pin");
	return 0;
}

static int t_tier_capacity(void)
{
	struct ta_problem p = { .n_buffers = 3, .buffers = three };
	u8 pins[3] = { TA_TIER_ANY, TA_TIER_ANY, TA_TIER_FAST };
	struct ta_tier_request rq = { .capacity = 0 };
	struct tier_out o;
	int i;

	TA_CHECK(!solve_checked(&p, &rq, &o), "capacity 0");
	for (i = 0; i < 3; i++)
		TA_CHECK(o.tier[i] == TA_TIER_SLOW, "tier %d", i);
	TA_CHECK(!o.res.weight_fast && !o.res.weight_bound, "nothing fast");
	rq.pins = pins;
	rq.capacity = 99;
	TA_CHECK(ta_tier_solve(&p, &rq, NULL, o.tier, o.off, &o.res) ==
		 -ENOSPC, "pin too large");
	TA_CHECK(o.res.fail.kind == TA_TIER_FAIL_SIZE &&
		 o.res.fail.tensor == 2 && o.res.fail.shortfall == 1, "fail");
	return 0;
}

/* Alignment makes a liveness-feasible pin set unplannable. */
static int t_tier_pin_plan(void)
{
	struct ta_buffer b[2] = {
		{ .size = 1, .align = 64, .start = 0, .end = 2 },
		{ .size = 1, .align = 64, .start = 0, .end = 2 },
	};
	u8 pins[2] = { TA_TIER_FAST, TA_TIER_FAST };
	struct ta_problem p = { .n_buffers = 2, .buffers = b };
	struct ta_tier_request rq = { .capacity = 64, .pins = pins };
	struct tier_out o;

	TA_CHECK(ta_tier_solve(&p, &rq, NULL, o.tier, o.off, &o.res) ==
		 -ENOSPC, "aligned pins");
	TA_CHECK(o.res.fail.kind == TA_TIER_FAIL_PLAN &&
		 o.res.fail.shortfall == 1, "fail %u %llu", o.res.fail.kind,
		 (unsigned long long)o.res.fail.shortfall);
	rq.capacity = 65;
	TA_CHECK(!solve_checked(&p, &rq, &o), "fits in 65");
	return 0;
}

static int t_tier_weights(void)
{
	struct ta_problem p = { .n_buffers = 3, .buffers = three };
	u64 w[3] = { 1, 1000, 0 };
	struct ta_tier_request rq = { .capacity = 100, .weights = w };
	struct tier_out o;

	TA_CHECK(!solve_checked(&p, &rq, &o), "solve");
	TA_CHECK(o.tier[1] == TA_TIER_FAST && o.tier[0] == TA_TIER_SLOW,
		 "the heavy one");
	TA_CHECK(o.res.weight_fast == 1000 && o.res.weight_bound >= 1000,
		 "weight %llu", (unsigned long long)o.res.weight_fast);
	return 0;
}

/* A chain graph: default weights count readers. */
static int t_tier_graph_weights(void)
{
	struct ta_graph_tensor t[3] = {
		{ .size = 10, .align = 1, .flags = TA_TENSOR_INPUT },
		{ .size = 20, .align = 1 },
		{ .size = 30, .align = 1, .flags = TA_TENSOR_OUTPUT },
	};
	struct ta_graph_op ops[2] = {
		{ .first_ref = 0, .n_inputs = 1, .n_outputs = 1 },
		{ .first_ref = 2, .n_inputs = 2, .n_outputs = 1 },
	};
	u32 refs[5] = { 0, 1, 1, 0, 2 };
	struct ta_graph g = { .n_tensors = 3, .n_ops = 2, .n_refs = 5,
			      .tensors = t, .ops = ops, .refs = refs };
	struct ta_buffer b[3];
	struct ta_problem p = { .n_buffers = 3, .buffers = b, .graph = &g };
	struct ta_tier_request rq = { .capacity = 1000 };
	struct tier_out o;
	u64 w[3];
	int s;

	TA_CHECK(!ta_graph_lifetimes(&g, b), "lifetimes");
	TA_CHECK(!ta_tier_weights(&p, w), "weights");
	TA_CHECK(w[0] == 30 && w[1] == 40 && w[2] == 30, "%llu %llu %llu",
		 (unsigned long long)w[0], (unsigned long long)w[1],
		 (unsigned long long)w[2]);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		rq.fast_strategy = s;
		rq.slow_strategy = TA_STRATEGY_COUNT - 1 - s;
		TA_CHECK(!solve_checked(&p, &rq, &o), "strategy %d", s);
		TA_CHECK(o.res.n_fast == 3 && o.res.weight_fast == 100,
			 "all fast");
	}
	rq.fast_strategy = TA_STRATEGY_FIXED;
	TA_CHECK(ta_tier_solve(&p, &rq, NULL, o.tier, o.off, &o.res) ==
		 -EINVAL, "fixed refused");
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
 * Random traces, random capacities, pins and strategies: every solved
 * plan passes the checker, serves no more than the bound, and corrupting
 * it (a fast offset moved onto a neighbour, a pin broken) is caught.
 */
static int t_tier_random(void)
{
	struct ta_buffer b[N_MAX];
	u8 pins[N_MAX];
	u64 x = 0x1234567ULL, served;
	int cases = 0, solved = 0, refused = 0, caught = 0, iter;

	for (iter = 0; iter < 300; iter++) {
		u32 n = 1 + rnd(&x) % 24, i, steps = 2 + rnd(&x) % 12;
		struct ta_problem p = { .n_buffers = n, .buffers = b };
		struct ta_tier_request rq = { 0 };
		struct ta_tier_conflict c;
		struct tier_out o;
		u64 peak = 0;
		int ret;

		for (i = 0; i < n; i++) {
			u32 a = rnd(&x) % steps, len = 1 + rnd(&x) % 4;

			b[i].size = rnd(&x) % 5 ? 1 + rnd(&x) % 4096 : 0;
			b[i].align = 1ULL << (rnd(&x) % 5);
			b[i].start = a;
			b[i].end = a + len;
			peak += b[i].size;
			pins[i] = rnd(&x) % 8 == 0 ? 1 + rnd(&x) % 2 : 0;
		}
		rq.capacity = peak ? rnd(&x) % (peak / 2 + 1) : 0;
		rq.pins = iter % 2 ? pins : NULL;
		rq.fast_strategy = rnd(&x) % TA_STRATEGY_COUNT;
		rq.slow_strategy = rnd(&x) % TA_STRATEGY_COUNT;
		cases++;
		ret = solve_checked(&p, &rq, &o);
		if (ret == -ENOSPC) {
			TA_CHECK(o.res.fail.kind != TA_TIER_FAIL_NONE &&
				 o.res.fail.tensor < n && o.res.fail.shortfall,
				 "iteration %d: a refusal says why", iter);
			refused++;
			continue;
		}
		TA_CHECK(!ret, "iteration %d: %d", iter, ret);
		solved++;
		/* corrupt: a fast buffer with bytes moved onto another */
		for (i = 0; i < n; i++) {
			u32 j;

			if (o.tier[i] != TA_TIER_FAST || !b[i].size)
				continue;
			for (j = 0; j < n; j++) {
				if (j == i || o.tier[j] != TA_TIER_FAST ||
				    !b[j].size || b[j].align % b[i].align ||
				    b[i].start >= b[j].end ||
				    b[j].start >= b[i].end)
					continue;
				o.off[i] = o.off[j];
				TA_CHECK(ta_tier_check(&p, &rq, o.tier, o.off,
						       o.res.fast.height +
						       b[i].size,
						       o.res.slow.height,
						       &served, &c) == -EINVAL,
					 "iteration %d: overlap not caught",
					 iter);
				caught++;
				goto next;
			}
		}
next:
		;
	}
	printf("# tier random: %d cases, %d solved, %d refused, %d corruptions caught\n",
	       cases, solved, refused, caught);
	TA_CHECK(cases == 300 && solved > 200 && caught > 50,
		 "cases %d solved %d caught %d", cases, solved, caught);
	return 0;
}

const struct ta_test ta_tier_tests[] = {
	{ "tier: basic choice and both heights", t_tier_basic },
	{ "tier: pins, overlapping fast pins refused", t_tier_pins },
	{ "tier: capacity 0, a pin larger than the capacity", t_tier_capacity },
	{ "tier: pins that fit per step but not planned", t_tier_pin_plan },
	{ "tier: caller weights", t_tier_weights },
	{ "tier: graph weights, every strategy per tier", t_tier_graph_weights },
	{ "tier: random plans, the checker as oracle", t_tier_random },
	{ NULL, NULL },
};
