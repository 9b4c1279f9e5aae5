// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_contain.c - fixed plans whose tensors nest (module/planner/
 * ta_contain.c): a tensor inside another live over it is accepted, every
 * other overlap refused, exportable tensors never nest, the lower bound
 * leaves the contained out. Built with -DTA_PLAN_DEBUG, so ta_plan_solve()
 * checks its own plan again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "ta_plan_helpers.h"

static struct ta_problem fixed_trace(struct ta_buffer *b, u32 n,
				     const u64 *off)
{
	struct ta_problem p = { .n_buffers = n, .buffers = b, .fixed = off };

	return p;
}

/*
 * Vela's layout in miniature: a scratch tensor (0) holding its twin
 * scratch_fast (1), the input (2) and, inside the input, the output (3),
 * plus an activation (4) the planner places around them.
 */
static int t_contain_accepted(void)
{
	struct ta_buffer b[5] = {
		{ .size = 1000, .align = 1, .start = 0, .end = 4 },
		{ .size = 1000, .align = 1, .start = 0, .end = 4 },
		{ .size = 100, .align = 1, .start = 1, .end = 3 },
		{ .size = 2, .align = 1, .start = 2, .end = 3 },
		{ .size = 50, .align = 1, .start = 2, .end = 5 },
	};
	u64 fix[5] = { 0, 0, 200, 200, TA_OFFSET_UNFIXED }, off[5], lb;
	struct ta_problem p = fixed_trace(b, 5, fix);
	struct ta_problem strict = fixed_trace(b, 5, NULL);
	struct ta_result res;
	struct ta_conflict c;
	u32 i;

	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
		 "fixed: conflict %u (%u, %u)", res.conflict.kind,
		 res.conflict.a, res.conflict.b);
	for (i = 0; i < 4; i++)
		TA_CHECK(off[i] == fix[i], "tensor %u at %llu", i,
			 (unsigned long long)off[i]);
	TA_CHECK(off[4] == 1000 && res.height == 1050,
		 "placed around: %llu, height %llu",
		 (unsigned long long)off[4], (unsigned long long)res.height);
	/* the contained take no room: 1000 + 50 at step 2 */
	TA_CHECK(res.lower_bound == 1050 && res.optimal, "lower bound %llu",
		 (unsigned long long)res.lower_bound);
	TA_CHECK(!ta_problem_lower_bound(&p, &lb) && lb == 1050, "lb %llu",
		 (unsigned long long)lb);
	TA_CHECK(!ta_plan_check(&p, off, res.height, &c), "check: %u", c.kind);
	TA_CHECK(!ta_plan_validate(&p, off, res.height), "validate");
	/* without the fixed offsets nothing nests: the overlap is refused */
	TA_CHECK(ta_plan_check(&strict, off, res.height, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP, "strict: %u", c.kind);
	TA_CHECK(!ta_problem_lower_bound(&strict, &lb) && lb == 2152,
		 "strict lb %llu", (unsigned long long)lb);
	/* the planner's own placement never nests: 4 inside 0 is refused */
	off[4] = 300;
	TA_CHECK(ta_plan_check(&p, off, 1050, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP && c.b == 4,
		 "unfixed inside: %u (%u, %u)", c.kind, c.a, c.b);
	return 0;
}

/*
 * Two tensors in one container must not overlap while both are live (at
 * the same bytes over disjoint lifetimes they may); a tensor reaching out
 * of its container, or outliving it, is no contained one.
 */
static int t_contain_siblings(void)
{
	struct ta_buffer b[3] = {
		{ .size = 1000, .align = 1, .start = 0, .end = 6 },
		{ .size = 100, .align = 1, .start = 1, .end = 3 },
		{ .size = 100, .align = 1, .start = 2, .end = 4 },
	};
	u64 fix[3] = { 0, 100, 150 }, off[3];
	struct ta_problem p = fixed_trace(b, 3, fix);
	struct ta_result res;

	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL &&
		 res.conflict.kind == TA_CONFLICT_OVERLAP &&
		 res.conflict.a == 1 && res.conflict.b == 2 &&
		 res.conflict.step == 2, "siblings: %u (%u, %u) at %u",
		 res.conflict.kind, res.conflict.a, res.conflict.b,
		 res.conflict.step);
	/* the same bytes, one after the other: apart in time, accepted */
	b[2].start = 3;
	b[2].end = 5;
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) &&
		 res.height == 1000 && res.lower_bound == 1000,
		 "one after the other: %u", res.conflict.kind);
	/* reaching out of the container */
	fix[2] = 950;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL &&
		 res.conflict.a == 0 && res.conflict.b == 2,
		 "out of it: %u (%u, %u)", res.conflict.kind, res.conflict.a,
		 res.conflict.b);
	/* outliving the container */
	fix[2] = 150;
	b[2].end = 7;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL &&
		 res.conflict.a == 0 && res.conflict.b == 2,
		 "outlives it: %u (%u, %u)", res.conflict.kind, res.conflict.a,
		 res.conflict.b);
	/* a grandchild inside one sibling but reaching into the other */
	b[2].end = 5;
	{
		struct ta_buffer c[4] = {
			{ .size = 1000, .align = 1, .start = 0, .end = 6 },
			{ .size = 100, .align = 1, .start = 1, .end = 4 },
			{ .size = 100, .align = 1, .start = 1, .end = 4 },
			{ .size = 60, .align = 1, .start = 2, .end = 3 },
		};
		u64 f4[4] = { 0, 100, 200, 150 }, o4[4];
		struct ta_problem q = fixed_trace(c, 4, f4);

		TA_CHECK(ta_plan_solve(&q, TA_STRATEGY_FIXED, NULL, o4, &res) ==
			 -EINVAL && res.conflict.kind == TA_CONFLICT_OVERLAP &&
			 res.conflict.b == 3, "across siblings: %u (%u, %u)",
			 res.conflict.kind, res.conflict.a, res.conflict.b);
		f4[3] = 120;
		TA_CHECK(!ta_plan_solve(&q, TA_STRATEGY_FIXED, NULL, o4, &res) &&
			 res.height == 1000, "grandchild: %u",
			 res.conflict.kind);
	}
	return 0;
}

/*
 * An exportable tensor's pages are its own (its dma-buf): it may neither
 * lie inside another tensor nor hold one. Graph form: a persistent
 * scratch tensor and an exportable one, both live over the whole run.
 */
static int t_contain_exportable(void)
{
	u64 page = ta_env_page_size();
	struct ta_graph_tensor t[3] = {
		{ .size = 4 * page, .align = 1, .flags = TA_TENSOR_PERSISTENT },
		{ .size = page, .align = 1, .flags = TA_TENSOR_INPUT },
		{ .size = page, .align = 1, .flags = TA_TENSOR_OUTPUT },
	};
	struct ta_graph_op op = { .first_ref = 0, .n_inputs = 2,
				  .n_outputs = 1 };
	u32 refs[3] = { 0, 1, 2 };
	struct ta_graph g = { .n_tensors = 3, .n_ops = 1, .n_refs = 3,
			      .tensors = t, .ops = &op, .refs = refs };
	struct ta_buffer b[3];
	u64 fix[3] = { 0, page, 2 * page }, off[3];
	struct ta_problem p = { .n_buffers = 3, .buffers = b, .graph = &g,
				.fixed = fix };
	struct ta_result res;
	int k;

	/* input and output inside the scratch: accepted */
	TA_CHECK(!ta_graph_lifetimes(&g, b), "lifetimes");
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) &&
		 res.height == 4 * page && res.lower_bound == 4 * page,
		 "nested: %u (%u, %u)", res.conflict.kind, res.conflict.a,
		 res.conflict.b);
	/* the input exportable (contained), then the scratch (container) */
	for (k = 1; k >= 0; k--) {
		t[k].flags |= TA_TENSOR_EXPORTABLE;
		TA_CHECK(!ta_graph_lifetimes(&g, b), "lifetimes");
		TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) ==
			 -EINVAL && res.conflict.kind == TA_CONFLICT_OVERLAP &&
			 res.conflict.a == 0 && res.conflict.b == 1,
			 "exportable %d: %u (%u, %u)", k, res.conflict.kind,
			 res.conflict.a, res.conflict.b);
		t[k].flags &= ~TA_TENSOR_EXPORTABLE;
	}
	/* exportable and apart from the scratch: accepted */
	t[1].flags |= TA_TENSOR_EXPORTABLE;
	fix[1] = 4 * page;
	TA_CHECK(!ta_graph_lifetimes(&g, b), "lifetimes");
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) &&
		 res.height == 5 * page, "apart: %u", res.conflict.kind);
	return 0;
}

/* ---- random fixed plans against the pairwise rule ---------------------- */

static u64 c_lcg_state;

static u32 c_lcg(void)
{
	c_lcg_state = c_lcg_state * 6364136223846793005ULL +
		      1442695040888963407ULL;
	return (u32)(c_lcg_state >> 33);
}

/* @a lies within @b, bytes and lifetime */
static bool inside(const struct ta_buffer *b, const u64 *off, u32 a, u32 c)
{
	return off[c] <= off[a] && off[a] + b[a].size <= off[c] + b[c].size &&
	       b[c].start <= b[a].start && b[a].end <= b[c].end;
}

/* The rule, pair by pair: O(n^2), the reference. */
static bool ref_valid(const struct ta_buffer *b, const u64 *off, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (!b[i].size || !b[j].size ||
			    b[i].start >= b[j].end || b[j].start >= b[i].end ||
			    off[i] >= off[j] + b[j].size ||
			    off[j] >= off[i] + b[i].size)
				continue;
			if (!inside(b, off, i, j) && !inside(b, off, j, i))
				return false;
		}
	return true;
}

/*
 * The lower bound, step by step: the bytes of the live tensors no other
 * contains (of two equal ones, the lower index contains the other).
 */
static u64 ref_lb(const struct ta_buffer *b, const u64 *off, u32 n)
{
	u64 best = 0, sum;
	u32 t, i, j;
	bool in;

	for (t = 0; t < 16; t++) {
		sum = 0;
		for (i = 0; i < n; i++) {
			if (!b[i].size || b[i].start > t || b[i].end <= t)
				continue;
			for (j = 0, in = false; j < n && !in; j++)
				in = j != i && b[j].size && inside(b, off, i, j) &&
				     (!inside(b, off, j, i) || j < i);
			sum += in ? 0 : b[i].size;
		}
		best = sum > best ? sum : best;
	}
	return best;
}

/*
 * Small random fixed plans, nested and not, some slots unfixed: the
 * validator agrees with the pairwise rule, and a plan it accepts is
 * served at its offsets, with the lower bound of the tensors no other
 * contains, at or below its height.
 */
static int t_contain_random(void)
{
	struct ta_buffer b[8];
	u64 fix[8], off[8];
	struct ta_result res;
	struct ta_conflict c;
	int seed, valid = 0, refused = 0, nested = 0;
	u32 n, i, j;

	for (seed = 1; seed <= 20000; seed++) {
		struct ta_problem p = fixed_trace(b, 0, fix);
		bool want, any = false;
		int ret;

		c_lcg_state = seed;
		n = 2 + c_lcg() % 7;
		for (i = 0; i < n; i++) {
			b[i].start = c_lcg() % 5;
			b[i].end = b[i].start + 1 + c_lcg() % 4;
			b[i].size = c_lcg() % 10 ? 1 + c_lcg() % 12 : 0;
			b[i].align = 1;
			fix[i] = c_lcg() % 16;
			/* often inside an earlier one, bytes and lifetime */
			j = i ? c_lcg() % i : 0;
			if (i && b[j].size && c_lcg() % 2) {
				b[i].start = b[j].start +
					     c_lcg() % (b[j].end - b[j].start);
				b[i].end = b[i].start + 1 +
					   c_lcg() % (b[j].end - b[i].start);
				b[i].size = 1 + c_lcg() % b[j].size;
				fix[i] = fix[j] + c_lcg() %
					 (b[j].size - b[i].size + 1);
			}
		}
		want = ref_valid(b, fix, n);
		p.n_buffers = n;

		ret = ta_plan_check(&p, fix, 64, &c);
		TA_CHECK((ret == 0) == want, "seed %d: check %d, rule %d",
			 seed, ret, want);
		TA_CHECK(want || c.kind == TA_CONFLICT_OVERLAP,
			 "seed %d: conflict %u", seed, c.kind);
		ret = ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res);
		TA_CHECK((ret == 0) == want, "seed %d: fixed %d, rule %d", seed,
			 ret, want);
		if (!want) {
			refused++;
			continue;
		}
		valid++;
		for (i = 0; i < n; i++) {
			TA_CHECK(!b[i].size || off[i] == fix[i], "seed %d", seed);
			for (j = 0; j < n; j++)
				any |= i != j && b[i].size && b[j].size &&
				       inside(b, fix, i, j);
		}
		nested += any;
		TA_CHECK(res.lower_bound == ref_lb(b, fix, n),
			 "seed %d: lower bound %llu, want %llu", seed,
			 (unsigned long long)res.lower_bound,
			 (unsigned long long)ref_lb(b, fix, n));
		TA_CHECK(res.height >= res.lower_bound, "seed %d: %llu < %llu",
			 seed, (unsigned long long)res.height,
			 (unsigned long long)res.lower_bound);
		/* one slot unfixed: placed apart from every other tensor */
		fix[0] = TA_OFFSET_UNFIXED;
		ret = ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res);
		TA_CHECK(!ret, "seed %d: unfixed: %d", seed, ret);
		TA_CHECK(ref_valid(b, off, n), "seed %d", seed);
		for (i = 1; i < n && b[0].size; i++)
			TA_CHECK(!b[i].size || b[0].start >= b[i].end ||
				 b[i].start >= b[0].end ||
				 off[0] >= off[i] + b[i].size ||
				 off[i] >= off[0] + b[0].size,
				 "seed %d: the unfixed one nests", seed);
	}
	printf("# 20000 random fixed plans: %d accepted (%d with nesting), %d refused\n",
	       valid, nested, refused);
	TA_CHECK(nested > 1000 && refused > 1000, "coverage");
	return 0;
}

const struct ta_test ta_contain_tests[] = {
	{ "contain: tensors inside a fixed container accepted, lower bound",
	  t_contain_accepted },
	{ "contain: siblings that overlap live refused, nesting rules",
	  t_contain_siblings },
	{ "contain: an exportable tensor neither contained nor container",
	  t_contain_exportable },
	{ "contain: random fixed plans agree with the pairwise rule",
	  t_contain_random },
	{ NULL, NULL },
};
