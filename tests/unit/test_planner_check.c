// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_planner_check.c - host unit tests of the planner against checks
 * made apart: the validator on hand-made and large plans, random traces
 * and graphs under every strategy, brute-force optima and the
 * alignment-aware lower bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "planner_build.h"
#include "ta_runs.h"

/* ---- validator -------------------------------------------------------- */

static int t_validator(void)
{
	struct ta_buffer b[3] = {
		{ .size = 10, .align = 1, .start = 0, .end = 3 },
		{ .size = 10, .align = 4, .start = 2, .end = 5 },
		{ .size = 10, .align = 1, .start = 3, .end = 6 },
	};
	struct ta_problem p = trace(b, 3);
	u64 off[3] = { 0, 12, 0 };

	TA_CHECK(!ta_plan_validate(&p, off, 22), "valid");
	TA_CHECK(ta_plan_validate(&p, off, 23) == -EINVAL, "height too high");
	TA_CHECK(ta_plan_validate(&p, off, 21) == -EINVAL, "height too low");
	off[1] = 10;
	TA_CHECK(ta_plan_validate(&p, off, 20) == -EINVAL, "misaligned");
	off[1] = 8;
	TA_CHECK(ta_plan_validate(&p, off, 18) == -EINVAL, "overlap below");
	off[1] = 12;
	off[2] = 20;
	TA_CHECK(ta_plan_validate(&p, off, 30) == -EINVAL, "overlap above");
	off[2] = 22;
	TA_CHECK(!ta_plan_validate(&p, off, 32), "touching is fine");
	off[2] = 12;
	TA_CHECK(ta_plan_validate(&p, off, 22) == -EINVAL, "same offset");
	off[2] = 2;
	TA_CHECK(!ta_plan_validate(&p, off, 22), "0 and 2 do not meet");
	off[0] = TA_PLAN_MAX_SIZE;
	TA_CHECK(ta_plan_validate(&p, off, 22) == -EINVAL, "offset 2^63");
	return 0;
}

/*
 * No plan is taller than 2^63 - 1, whatever height it claims: an offset
 * below 2^63 whose buffer ends above it is refused by the validator and
 * by the fixed strategy alike (the fuzzer's input ce9c6a97 once found the
 * validator accepting what the fixed strategy refused).
 */
static int t_validator_top(void)
{
	struct ta_buffer b[2] = {
		{ .size = 1ULL << 62, .align = 1, .start = 0, .end = 2 },
		{ .size = 16, .align = 1, .start = 1, .end = 3 },
	};
	struct ta_problem p = trace(b, 2);
	u64 off[2] = { (1ULL << 62) - 1, 0 }, got[2];
	u64 top = (1ULL << 63) - 1;
	struct ta_conflict c;
	struct ta_result res;

	TA_CHECK(!ta_plan_validate(&p, off, top), "ends at 2^63 - 1");
	off[0] = 1ULL << 62;
	TA_CHECK(ta_plan_validate(&p, off, top + 1) == -EINVAL,
		 "ends at 2^63");
	TA_CHECK(ta_plan_check(&p, off, ~0ULL, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_HEIGHT && c.a == 0,
		 "kind %u buffer %u", c.kind, c.a);
	p.fixed = off;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, got, &res) == -EINVAL &&
		 res.conflict.kind == TA_CONFLICT_HEIGHT && res.conflict.a == 0,
		 "fixed: kind %u buffer %u", res.conflict.kind, res.conflict.a);
	off[0] = (1ULL << 62) - 1;
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, got, &res) &&
		 res.height == top, "fixed: height %llu",
		 (unsigned long long)res.height);
	return 0;
}

static int t_validator_random(void)
{
	/* shift one buffer of a valid plan onto a live neighbour */
	struct ta_buffer *b = calloc(500, sizeof(*b));
	u64 *off = calloc(500, sizeof(*off));
	struct ta_problem p = trace(b, 500);
	struct ta_result res;
	int round, bad = 0, i;

	TA_CHECK(b && off, "memory");
	lcg_state = 99;
	for (i = 0; i < 500; i++) {
		b[i].start = lcg() % 200;
		b[i].end = b[i].start + 1 + lcg() % 40;
		b[i].size = 1 + lcg() % 1000;
		b[i].align = 1;
	}
	TA_CHECK(!plan_ok(&p, TA_STRATEGY_GREEDY_SIZE, off, &res), "plan");
	for (round = 0; round < 200; round++) {
		u32 x = lcg() % 500, y = lcg() % 500;
		u64 keep = off[x];

		if (x == y || b[x].start >= b[y].end || b[y].start >= b[x].end)
			continue;
		off[x] = off[y] + lcg() % b[y].size;
		if (off[x] + b[x].size <= res.height &&
		    ta_plan_validate(&p, off, res.height) != -EINVAL)
			bad++;
		off[x] = keep;
	}
	free(b);
	free(off);
	TA_CHECK(!bad, "%d overlaps accepted", bad);
	return 0;
}

/* ---- random problems -------------------------------------------------- */

static void random_trace(struct ta_buffer *b, u32 n, u32 steps, u32 maxsize,
			 bool aligned)
{
	u32 i;

	for (i = 0; i < n; i++) {
		b[i].start = lcg() % steps;
		b[i].end = b[i].start + 1 + lcg() % (steps - b[i].start);
		b[i].size = lcg() % 8 ? 1 + lcg() % maxsize : 0;
		b[i].align = aligned ? 1ULL << (lcg() % 7) : 1;
	}
}

static int t_random_traces(void)
{
	struct ta_buffer b[300];
	u64 off[300];
	struct ta_result res;
	int seed, s;

	for (seed = 1; seed <= 120; seed++) {
		u32 n = 1 + (seed * 37) % 300;

		lcg_state = seed;
		random_trace(b, n, 2 + seed % 60, seed % 3 ? 1000 : 1U << 30,
			     seed & 1);
		for (s = 0; s < NS; s++) {
			struct ta_problem p = trace(b, n);
			struct ta_budget bud = { .time_ns = 20000000ULL };
			int ret = ta_plan_solve(&p, s, &bud, off, &res);

			TA_CHECK(!ret, "seed %d %s: %d", seed,
				 ta_strategy_name(s), ret);
			TA_CHECK(!ta_plan_validate(&p, off, res.height),
				 "seed %d %s invalid", seed, ta_strategy_name(s));
			TA_CHECK(res.height >= res.lower_bound, "seed %d", seed);
		}
	}
	return 0;
}

/* Random graph: ops in order, each reads earlier tensors, writes new ones. */
static int random_graph(struct gb *gb)
{
	u32 nops = 3 + lcg() % 20, o, k;
	u32 live[64], nlive = 0;

	gb_init(gb);
	for (k = 0; k < 1 + lcg() % 3; k++)
		live[nlive++] = gb_tensor(gb, 1 + lcg() % 500, TA_TENSOR_INPUT);
	if (lcg() % 2)
		live[nlive++] = gb_tensor(gb, 1 + lcg() % 100,
					  TA_TENSOR_CONSTANT);
	for (o = 0; o < nops && gb->g.n_tensors < 60; o++) {
		u32 in[4], out[2], nin = 1 + lcg() % 3, nout = 1 + lcg() % 2;

		if (lcg() % 3)
			nin = 1;
		if (lcg() % 3)
			nout = 1;
		for (k = 0; k < nin; k++)
			in[k] = live[nlive - 1 - lcg() % (nlive < 4 ? nlive : 4)];
		if (nin == 2 && in[0] == in[1])
			nin = 1;
		for (k = 0; k < nout; k++) {
			out[k] = gb_tensor(gb, 1 + lcg() % 500,
					   lcg() % 10 ? 0 : TA_TENSOR_OUTPUT);
			if (nlive < 64)
				live[nlive++] = out[k];
		}
		gb_op(gb, nin, in, nout, out);
	}
	/* inputs and constants nobody read would be rejected: read them */
	{
		u32 all[64], n = 0, t;
		u32 sink = gb_tensor(gb, 1, TA_TENSOR_OUTPUT);

		for (t = 0; t < gb->g.n_tensors - 1 && n < 60; t++)
			all[n++] = t;
		gb_op(gb, n, all, 1, &sink);
	}
	return gb_finish(gb);
}

static int t_random_graphs(void)
{
	static struct gb gb;
	struct ta_result res;
	u64 off[64];
	int seed, s;

	for (seed = 1; seed <= 150; seed++) {
		lcg_state = 1000 + seed;
		TA_CHECK(!random_graph(&gb), "seed %d lifetimes", seed);
		for (s = 0; s < NS; s++) {
			int ret = plan_ok(&gb.p, s, off, &res);

			TA_CHECK(!ret, "seed %d %s: %d", seed,
				 ta_strategy_name(s), ret);
		}
	}
	return 0;
}

/* ---- brute force ------------------------------------------------------ */

/* Lowest offset for each buffer in @order: over all orders, the optimum. */
static u64 lowest_fit(const struct ta_buffer *b, const u32 *order, u32 n,
		      u64 cap)
{
	u64 off[8], top = 0;
	u32 i, j, k;

	for (i = 0; i < n; i++) {
		const struct ta_buffer *x = &b[order[i]];
		u64 o = 0;
		bool moved = true;

		while (moved) {
			moved = false;
			o = (o + x->align - 1) & ~(x->align - 1);
			for (j = 0; j < i; j++) {
				const struct ta_buffer *y = &b[order[j]];

				k = order[j];
				if (!x->size || !y->size || x->start >= y->end ||
				    y->start >= x->end)
					continue;
				if (o < off[k] + y->size && off[k] < o + x->size) {
					o = off[k] + y->size;
					moved = true;
				}
			}
		}
		off[order[i]] = x->size ? o : 0;
		if (x->size && o + x->size > top)
			top = o + x->size;
		if (top >= cap)
			return top;
	}
	return top;
}

static u64 brute_opt(const struct ta_buffer *b, u32 n)
{
	u32 order[8] = { 0 }, c[8] = { 0 }, i;
	u64 best;

	for (i = 0; i < n; i++) {
		order[i] = i;
		c[i] = 0;
	}
	best = lowest_fit(b, order, n, U64_MAX);
	i = 0;
	while (i < n) {		/* Heap's algorithm */
		if (c[i] < i) {
			u32 a = i & 1 ? c[i] : 0, t = order[a];
			u64 h;

			order[a] = order[i];
			order[i] = t;
			h = lowest_fit(b, order, n, best);
			if (h < best)
				best = h;
			c[i]++;
			i = 0;
		} else {
			c[i] = 0;
			i++;
		}
	}
	return best;
}

static int t_brute_force(void)
{
	struct ta_buffer b[7];
	u64 off[7];
	struct ta_result res[NS];
	int seed, s, hit = 0, total = 0;

	for (seed = 1; seed <= 200; seed++) {
		u32 n = 2 + seed % 6;
		struct ta_problem p = trace(b, n);
		u64 opt;

		lcg_state = 7000 + seed;
		random_trace(b, n, 3 + seed % 8, seed % 2 ? 16 : 100, seed % 3 == 0);
		opt = brute_opt(b, n);
		for (s = 0; s < NS; s++) {
			TA_CHECK(!plan_ok(&p, s, off, &res[s]), "seed %d %s", seed,
				 ta_strategy_name(s));
			TA_CHECK(res[s].height >= opt, "seed %d %s below optimum %llu",
				 seed, ta_strategy_name(s), (unsigned long long)opt);
			TA_CHECK(!res[s].optimal || res[s].height == opt,
				 "seed %d %s claims optimal at %llu, optimum %llu",
				 seed, ta_strategy_name(s),
				 (unsigned long long)res[s].height,
				 (unsigned long long)opt);
		}
		for (s = 0; s < NS; s++)
			TA_CHECK(res[TA_STRATEGY_AUTO].height <= res[s].height,
				 "seed %d: auto %llu > %s %llu", seed,
				 (unsigned long long)res[TA_STRATEGY_AUTO].height,
				 ta_strategy_name(s),
				 (unsigned long long)res[s].height);
		total++;
		hit += res[TA_STRATEGY_AUTO].height == opt;
		TA_CHECK(res[TA_STRATEGY_AUTO].height == opt,
			 "seed %d: auto %llu, optimum %llu", seed,
			 (unsigned long long)res[TA_STRATEGY_AUTO].height,
			 (unsigned long long)opt);
	}
	printf("# auto reached the brute-force optimum on %d of %d\n", hit,
	       total);
	return 0;
}

/* ---- the alignment-aware lower bound ---------------------------------- */

static u64 lb_of(struct ta_buffer *b, u32 n)
{
	struct ta_problem p = trace(b, n);
	u64 lb = 0;

	if (ta_problem_lower_bound(&p, &lb))
		return U64_MAX;
	return lb;
}

/*
 * Hand-computed: at a step with live sizes summing to S, the buffer T
 * placed highest starts at or above roundup(S - size(T), align(T)); the
 * bound is the least of those tops, the largest over the steps.
 */
static int t_lower_bound_aligned(void)
{
	struct ta_buffer b[4] = {
		{ 10, 16, 0, 1 }, { 10, 64, 0, 1 },
	};
	u64 off[4];
	struct ta_result res;
	int s;

	/* 16 + 10 (the 16-aligned on top) beats 64 + 10: 26, not 20 */
	TA_CHECK(lb_of(b, 2) == 26, "%llu", (unsigned long long)lb_of(b, 2));
	/* every strategy that reaches it says optimal (plan_ok checks) */
	for (s = 0; s < NS; s++) {
		struct ta_problem p = trace(b, 2);

		TA_CHECK(!plan_ok(&p, s, off, &res), "%s", ta_strategy_name(s));
		TA_CHECK(res.lower_bound == 26, "%s", ta_strategy_name(s));
	}
	/* a byte-aligned buffer live: the sum, it can go on top */
	b[2] = (struct ta_buffer){ 3, 1, 0, 1 };
	TA_CHECK(lb_of(b, 3) == 23, "%llu", (unsigned long long)lb_of(b, 3));
	/* mixed: 100 @8, 100 @16: 104 + 100 = 204 (the 8-aligned on top) */
	b[0] = (struct ta_buffer){ 100, 8, 0, 2 };
	b[1] = (struct ta_buffer){ 100, 16, 1, 3 };
	TA_CHECK(lb_of(b, 2) == 204, "%llu", (unsigned long long)lb_of(b, 2));
	/* sizes multiples of the alignments: the sum */
	b[0] = (struct ta_buffer){ 128, 64, 0, 2 };
	b[1] = (struct ta_buffer){ 48, 16, 1, 3 };
	TA_CHECK(lb_of(b, 2) == 176, "%llu", (unsigned long long)lb_of(b, 2));
	/*
	 * 5 @4, 6 @8, 9 @16: every offset is a multiple of 4, so a buffer
	 * below another takes 8, 8, 12: min(20 + 5, roundup(20, 8) + 6,
	 * 16 + 9) = 25, the optimum (6 at 0, 5 at 8, 9 at 16); the plain
	 * sum rounded up to the top one's alignment gave only 21.
	 */
	b[0] = (struct ta_buffer){ 5, 4, 0, 1 };
	b[1] = (struct ta_buffer){ 6, 8, 0, 1 };
	b[2] = (struct ta_buffer){ 9, 16, 0, 1 };
	TA_CHECK(lb_of(b, 3) == 25, "%llu", (unsigned long long)lb_of(b, 3));
	/* 7 @8 takes 8 below as 6 did: 25 again (7 at 0, 5 at 8, 9 at 16) */
	b[1].size = 7;
	TA_CHECK(lb_of(b, 3) == 25, "%llu", (unsigned long long)lb_of(b, 3));
	/* one alignment for all: exact, the rounded sizes less the top's */
	b[0] = (struct ta_buffer){ 5, 16, 0, 1 };
	b[1] = (struct ta_buffer){ 17, 16, 0, 1 };
	b[2] = (struct ta_buffer){ 1, 16, 0, 1 };
	TA_CHECK(lb_of(b, 3) == 16 + 32 + 1, "%llu",
		 (unsigned long long)lb_of(b, 3));
	/*
	 * Not at the peak of the sum: step 0 has 1 @1 + 40 @32, 41 (a byte-
	 * aligned buffer goes on top); step 1 has 33 @32 + 3 @64, S = 36:
	 * min(roundup(3, 32) + 33, roundup(33, 64) + 3) = min(65, 67).
	 */
	b[0] = (struct ta_buffer){ 1, 1, 0, 1 };
	b[1] = (struct ta_buffer){ 40, 32, 0, 1 };
	b[2] = (struct ta_buffer){ 33, 32, 1, 2 };
	b[3] = (struct ta_buffer){ 3, 64, 1, 2 };
	TA_CHECK(lb_of(b, 4) == 65, "%llu", (unsigned long long)lb_of(b, 4));
	/* zero-size buffers take no room and do not count */
	b[0] = (struct ta_buffer){ 0, 4096, 0, 1 };
	b[1] = (struct ta_buffer){ 10, 1, 0, 1 };
	TA_CHECK(lb_of(b, 2) == 10, "%llu", (unsigned long long)lb_of(b, 2));
	/* one buffer: its size, whatever its alignment */
	b[0] = (struct ta_buffer){ 5, 4096, 3, 9 };
	TA_CHECK(lb_of(b, 1) == 5, "%llu", (unsigned long long)lb_of(b, 1));
	return 0;
}

/*
 * Two to four brute-forced problems one after the other in time: auto
 * searches them part by part (ta_search_parts.c) and must say "optimal"
 * only at the highest part's optimum; with byte alignment (where the
 * search is exact) it must reach it.
 */
static int t_brute_force_parts(void)
{
	struct ta_buffer b[4 * 7];
	u64 off[4 * 7];
	struct ta_result res;
	int seed, hit = 0, total = 0;

	for (seed = 1; seed <= 100; seed++) {
		struct ta_budget budget = { .time_ns = 600000000000ULL,
					    .steps = 200000 };
		u32 parts = 2 + seed % 3, n = 0, j, i;
		bool aligned = seed % 4 == 0;
		struct ta_problem p;
		u64 opt = 0;

		lcg_state = 9000 + seed;
		for (j = 0; j < parts; j++) {
			u32 m = 3 + lcg() % 5;
			u64 o;

			random_trace(b + n, m, 3 + seed % 6, 100, aligned);
			for (i = n; i < n + m; i++) {
				b[i].start += 16 * j;
				b[i].end += 16 * j;
			}
			o = brute_opt(b + n, m);
			if (o > opt)
				opt = o;
			n += m;
		}
		p = trace(b, n);
		TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_AUTO, &budget, off, &res),
			 "seed %d", seed);
		TA_CHECK(!ta_plan_validate(&p, off, res.height), "seed %d",
			 seed);
		TA_CHECK(res.height >= opt, "seed %d: %llu below the optimum",
			 seed, (unsigned long long)res.height);
		TA_CHECK(!res.optimal || res.height == opt,
			 "seed %d: optimal at %llu, optimum %llu", seed,
			 (unsigned long long)res.height,
			 (unsigned long long)opt);
		TA_CHECK(aligned || res.height == opt,
			 "seed %d: %llu, optimum %llu", seed,
			 (unsigned long long)res.height,
			 (unsigned long long)opt);
		hit += res.height == opt;
		total++;
	}
	printf("# auto reached the optimum of %d of %d problems in parts\n",
	       hit, total);
	return 0;
}

/* Tiny random traces of mixed alignments: bound <= the optimum, flags. */
static int t_lower_bound_vs_brute(void)
{
	static const u64 aligns[] = { 1, 4, 16, 64 };
	struct ta_buffer b[7];
	struct ta_result res;
	u64 off[7], opt, lb;
	int seed, s, tight = 0, above_sum = 0;
	u32 i, n;

	for (seed = 1; seed <= 400; seed++) {
		struct ta_problem p;

		lcg_state = 91000 + seed;
		n = 2 + lcg() % 5;
		for (i = 0; i < n; i++) {
			b[i].start = lcg() % 4;
			b[i].end = b[i].start + 1 + lcg() % 3;
			b[i].size = lcg() % 8 ? 1 + lcg() % 90 : 0;
			b[i].align = aligns[seed % 3 ? 1 + lcg() % 3 :
					    lcg() % 4];
		}
		p = trace(b, n);
		opt = brute_opt(b, n);
		lb = lb_of(b, n);
		TA_CHECK(lb <= opt, "seed %d: bound %llu above the optimum %llu",
			 seed, (unsigned long long)lb, (unsigned long long)opt);
		tight += lb == opt;
		for (s = 0; s < NS; s++) {
			TA_CHECK(!plan_ok(&p, s, off, &res), "seed %d %s", seed,
				 ta_strategy_name(s));
			TA_CHECK(!res.optimal || res.height == opt,
				 "seed %d %s claims optimal at %llu, optimum %llu",
				 seed, ta_strategy_name(s),
				 (unsigned long long)res.height,
				 (unsigned long long)opt);
		}
		/* the old bound, the most bytes live, for the count */
		for (i = 0; i < n; i++)
			b[i].align = 1;
		above_sum += lb > lb_of(b, n);
	}
	printf("# bound = optimum on %d of 400, above max-live on %d\n",
	       tight, above_sum);
	TA_CHECK(above_sum > 0, "alignment never raised the bound");
	return 0;
}

const struct ta_test ta_planner_check_tests[] = {
	{ "validator: hand-made plans", t_validator },
	{ "validator: no plan ends above 2^63 - 1", t_validator_top },
	{ "validator: rejects overlaps in a large plan", t_validator_random },
	{ "random traces, every strategy valid", t_random_traces },
	{ "random graphs, every strategy valid", t_random_graphs },
	{ "brute force n <= 7: auto optimal, flag honest, auto <= others",
	  t_brute_force },
	{ "brute force in parts: auto optimal, flag honest",
	  t_brute_force_parts },
	{ "lower bound: alignment-aware, hand-computed", t_lower_bound_aligned },
	{ "lower bound: mixed alignments, never above a brute-force optimum",
	  t_lower_bound_vs_brute },
	{ NULL, NULL },
};
