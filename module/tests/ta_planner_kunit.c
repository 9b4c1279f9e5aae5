// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_planner_kunit.c - KUnit suite "tensorarena-planner": the planner core
 * as it runs inside tensorarena.ko.
 *
 * Hand-made problems with exact offsets (ping-pong on a chain, free-list
 * reuse and merging, greedy-size gaps), graphs with skips, branches and
 * concats, sizes near 2^63, zero tensors, bad input, the validator,
 * seeded random traces and graphs (a plain LCG) that every strategy must
 * plan validly, and groups (ta_group.h): lanes, a link, the refusals,
 * extend, each plan passing ta_group_check(); and the kernel's
 * ta_env_sort() against sort(). Arrays come from
 * kunit_kcalloc() to keep frames small.
 */
#include <kunit/test.h>
#include <linux/sort.h>

#include "../planner/ta_group.h"
#include "../planner/ta_planner.h"

#define TA_KT_NS	TA_STRATEGY_COUNT
#define TA_KT_MAX	64

/* A short budget keeps auto and stack quick under TCG. */
static const struct ta_budget ta_kt_budget = { .time_ns = 20000000ULL };

struct ta_kt_graph {
	struct ta_graph_tensor t[TA_KT_MAX];
	struct ta_graph_op o[TA_KT_MAX];
	u32 r[4 * TA_KT_MAX];
	struct ta_graph g;
	struct ta_buffer b[TA_KT_MAX];
	struct ta_problem p;
};

static u64 ta_kt_seed;

static u32 ta_kt_rand(void)
{
	ta_kt_seed = ta_kt_seed * 6364136223846793005ULL +
		     1442695040888963407ULL;
	return (u32)(ta_kt_seed >> 33);
}

static struct ta_problem ta_kt_trace(const struct ta_buffer *b, u32 n)
{
	struct ta_problem p = { .n_buffers = n, .buffers = b, .graph = NULL };

	return p;
}

/* Plan with @s, check the result validates and its figures hold. */
static void ta_kt_plan_ok(struct kunit *test, const struct ta_problem *p,
			  int s, u64 *off, struct ta_result *res)
{
	int ret = ta_plan_solve(p, s, &ta_kt_budget, off, res);

	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "strategy %s", ta_strategy_name(s));
	KUNIT_EXPECT_EQ_MSG(test, ta_plan_validate(p, off, res->height), 0,
			    "strategy %s", ta_strategy_name(s));
	KUNIT_EXPECT_GE(test, res->height, res->lower_bound);
	if (res->height == res->lower_bound)
		KUNIT_EXPECT_TRUE(test, res->optimal);
}

static struct ta_kt_graph *ta_kt_graph_new(struct kunit *test)
{
	struct ta_kt_graph *gb = kunit_kzalloc(test, sizeof(*gb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gb);
	return gb;
}

static u32 ta_kt_tensor(struct ta_kt_graph *gb, u64 size, u32 flags)
{
	u32 i = gb->g.n_tensors++;

	gb->t[i].size = size;
	gb->t[i].align = 1;
	gb->t[i].flags = flags;
	return i;
}

static void ta_kt_op(struct ta_kt_graph *gb, u32 nin, const u32 *in, u32 nout,
		     const u32 *out)
{
	struct ta_graph_op *op = &gb->o[gb->g.n_ops++];
	u32 k;

	op->first_ref = gb->g.n_refs;
	op->n_inputs = nin;
	op->n_outputs = nout;
	for (k = 0; k < nin; k++)
		gb->r[gb->g.n_refs++] = in[k];
	for (k = 0; k < nout; k++)
		gb->r[gb->g.n_refs++] = out[k];
}

static int ta_kt_finish(struct ta_kt_graph *gb)
{
	gb->g.tensors = gb->t;
	gb->g.ops = gb->o;
	gb->g.refs = gb->r;
	gb->p.n_buffers = gb->g.n_tensors;
	gb->p.buffers = gb->b;
	gb->p.graph = &gb->g;
	return ta_graph_lifetimes(&gb->g, gb->b);
}

/* x (input) -> t1 -> ... -> y (output) */
static int ta_kt_chain(struct ta_kt_graph *gb, const u64 *sizes, u32 n)
{
	u32 prev, cur, i;

	memset(gb, 0, sizeof(*gb));
	prev = ta_kt_tensor(gb, sizes[0], TA_TENSOR_INPUT);
	for (i = 1; i < n; i++) {
		cur = ta_kt_tensor(gb, sizes[i],
				   i == n - 1 ? TA_TENSOR_OUTPUT : 0);
		ta_kt_op(gb, 1, &prev, 1, &cur);
		prev = cur;
	}
	return ta_kt_finish(gb);
}

static void ta_kt_names(struct kunit *test)
{
	int s;

	for (s = 0; s < TA_KT_NS; s++)
		KUNIT_EXPECT_EQ(test, ta_strategy_from_name(ta_strategy_name(s)),
				s);
	KUNIT_EXPECT_STREQ(test, ta_strategy_name(TA_STRATEGY_AUTO), "auto");
	KUNIT_EXPECT_STREQ(test, ta_strategy_name(TA_STRATEGY_GREEDY_SIZE),
			   "greedy-size");
	KUNIT_EXPECT_STREQ(test, ta_strategy_name(TA_STRATEGY_FIXED), "fixed");
	KUNIT_EXPECT_EQ(test, ta_strategy_from_name("fixed"),
			TA_STRATEGY_FIXED);
	KUNIT_EXPECT_PTR_EQ(test, ta_strategy_name(TA_STRATEGY_FIXED + 1),
			    NULL);
	KUNIT_EXPECT_EQ(test, ta_strategy_from_name("greedy"), -EINVAL);
}

static void ta_kt_bad_input(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 2, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 2, sizeof(*off), GFP_KERNEL);
	struct ta_result res;
	struct ta_problem p = { 0 };

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	b[0] = (struct ta_buffer){ .size = 8, .align = 1, .start = 0, .end = 2 };
	b[1] = (struct ta_buffer){ .size = 8, .align = 1, .start = 1, .end = 3 };
	p = ta_kt_trace(b, 2);
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_GREEDY_SIZE, NULL, off,
					    &res), 0);
	b[1].align = 3;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FREELIST, NULL, off, &res),
			-EINVAL);
	b[1].align = TA_PLAN_MAX_ALIGN << 1;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FREELIST, NULL, off, &res),
			-E2BIG);
	b[1].align = 1;
	b[1].start = 3;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_PINGPONG, NULL, off, &res),
			-EINVAL);
	b[1].start = 1;
	b[1].size = TA_PLAN_MAX_SIZE;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res),
			-E2BIG);
	b[1].size = 1ULL << 62;
	b[0].size = 1ULL << 62;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_STACK, NULL, off, &res),
			-EOVERFLOW);
	b[0].size = 8;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_KT_NS, NULL, off, &res), -EINVAL);
	p.n_buffers = TA_PLAN_MAX_BUFFERS + 1;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res),
			-E2BIG);
}

static void ta_kt_zero_and_single(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 2, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 2, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = ta_kt_trace(NULL, 0);
	struct ta_result res;
	int s;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	for (s = 0; s < TA_KT_NS; s++) {
		KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, s, NULL, NULL, &res), 0);
		KUNIT_EXPECT_EQ(test, res.height, 0ULL);
		KUNIT_EXPECT_TRUE(test, res.optimal);
	}
	b[0] = (struct ta_buffer){ .size = 4096, .align = 4096, .start = 2,
				   .end = 7 };
	b[1] = (struct ta_buffer){ .size = 0, .align = 1, .start = 0, .end = 9 };
	p = ta_kt_trace(b, 2);
	for (s = 0; s < TA_KT_NS; s++) {
		ta_kt_plan_ok(test, &p, s, off, &res);
		KUNIT_EXPECT_EQ(test, off[0], 0ULL);
		KUNIT_EXPECT_EQ(test, off[1], 0ULL);
		KUNIT_EXPECT_EQ(test, res.height, 4096ULL);
	}
}

static void ta_kt_huge(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 3, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 3, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = { 0 };
	struct ta_result res;
	int s;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	b[0] = (struct ta_buffer){ .size = 1ULL << 62, .align = 1, .start = 0,
				   .end = 2 };
	b[1] = (struct ta_buffer){ .size = (1ULL << 62) - 1, .align = 1,
				   .start = 1, .end = 3 };
	b[2] = (struct ta_buffer){ .size = TA_PLAN_MAX_SIZE - 1, .align = 1,
				   .start = 3, .end = 4 };
	p = ta_kt_trace(b, 3);
	for (s = 0; s < TA_KT_NS; s++) {
		ta_kt_plan_ok(test, &p, s, off, &res);
		KUNIT_EXPECT_EQ(test, res.height, TA_PLAN_MAX_SIZE - 1);
		KUNIT_EXPECT_TRUE(test, res.optimal);
	}
}

static void ta_kt_equal_lifetimes(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 5, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 5, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = { 0 };
	struct ta_result res;
	int s, i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	for (i = 0; i < 5; i++)
		b[i] = (struct ta_buffer){ .size = 100 * (i + 1), .align = 1,
					   .start = 1, .end = 4 };
	p = ta_kt_trace(b, 5);
	for (s = 0; s < TA_KT_NS; s++) {
		ta_kt_plan_ok(test, &p, s, off, &res);
		KUNIT_EXPECT_EQ(test, res.height, 1500ULL);
	}
	ta_kt_plan_ok(test, &p, TA_STRATEGY_GREEDY_SIZE, off, &res);
	KUNIT_EXPECT_EQ(test, off[4], 0ULL);
	KUNIT_EXPECT_EQ(test, off[3], 500ULL);
	KUNIT_EXPECT_EQ(test, off[0], 1400ULL);
}

static void ta_kt_pingpong_chain(struct kunit *test)
{
	static const u64 same[6] = { 64, 64, 64, 64, 64, 64 };
	static const u64 mid[4] = { 10, 50, 20, 30 };
	struct ta_kt_graph *gb = ta_kt_graph_new(test);
	u64 *off = kunit_kcalloc(test, TA_KT_MAX, sizeof(*off), GFP_KERNEL);
	struct ta_result res;
	u32 i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	KUNIT_ASSERT_EQ(test, ta_kt_chain(gb, same, 6), 0);
	ta_kt_plan_ok(test, &gb->p, TA_STRATEGY_PINGPONG, off, &res);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, off[i], (u64)(i & 1 ? 64 : 0));
	KUNIT_EXPECT_EQ(test, res.height, 128ULL);

	KUNIT_ASSERT_EQ(test, ta_kt_chain(gb, mid, 4), 0);
	ta_kt_plan_ok(test, &gb->p, TA_STRATEGY_PINGPONG, off, &res);
	KUNIT_EXPECT_EQ(test, off[1], 0ULL);
	KUNIT_EXPECT_EQ(test, off[3], 0ULL);
	KUNIT_EXPECT_EQ(test, off[0], 50ULL);
	KUNIT_EXPECT_EQ(test, off[2], 50ULL);
	KUNIT_EXPECT_EQ(test, res.height, 70ULL);
}

static void ta_kt_freelist_exact(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 5, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 5, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = { 0 };
	struct ta_result res;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	/* two neighbours end together: merged, reused by one twice as big */
	b[0] = (struct ta_buffer){ .size = 100, .align = 1, .start = 0, .end = 2 };
	b[1] = (struct ta_buffer){ .size = 100, .align = 1, .start = 0, .end = 2 };
	b[2] = (struct ta_buffer){ .size = 200, .align = 1, .start = 2, .end = 4 };
	p = ta_kt_trace(b, 3);
	ta_kt_plan_ok(test, &p, TA_STRATEGY_FREELIST, off, &res);
	KUNIT_EXPECT_EQ(test, off[2], 0ULL);
	KUNIT_EXPECT_EQ(test, res.height, 200ULL);

	/* holes of 50 at 0 and 30 at 60: a 30 takes the best fit */
	b[0] = (struct ta_buffer){ .size = 50, .align = 1, .start = 0, .end = 4 };
	b[1] = (struct ta_buffer){ .size = 10, .align = 1, .start = 1, .end = 9 };
	b[2] = (struct ta_buffer){ .size = 30, .align = 1, .start = 2, .end = 4 };
	b[3] = (struct ta_buffer){ .size = 10, .align = 1, .start = 3, .end = 9 };
	b[4] = (struct ta_buffer){ .size = 30, .align = 1, .start = 4, .end = 6 };
	p = ta_kt_trace(b, 5);
	ta_kt_plan_ok(test, &p, TA_STRATEGY_FREELIST, off, &res);
	KUNIT_EXPECT_EQ(test, off[1], 50ULL);
	KUNIT_EXPECT_EQ(test, off[2], 60ULL);
	KUNIT_EXPECT_EQ(test, off[3], 90ULL);
	KUNIT_EXPECT_EQ(test, off[4], 60ULL);
}

static void ta_kt_greedy_exact(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 6, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 6, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = { 0 };
	struct ta_result res;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	/* gaps [0,60) and [88,100) at step 2: the 12 takes the best, 88 */
	b[0] = (struct ta_buffer){ .size = 100, .align = 1, .start = 0, .end = 1 };
	b[1] = (struct ta_buffer){ .size = 60, .align = 1, .start = 1, .end = 2 };
	b[2] = (struct ta_buffer){ .size = 20, .align = 1, .start = 0, .end = 9 };
	b[3] = (struct ta_buffer){ .size = 15, .align = 1, .start = 1, .end = 9 };
	b[4] = (struct ta_buffer){ .size = 13, .align = 1, .start = 1, .end = 9 };
	b[5] = (struct ta_buffer){ .size = 12, .align = 1, .start = 2, .end = 3 };
	p = ta_kt_trace(b, 6);
	ta_kt_plan_ok(test, &p, TA_STRATEGY_GREEDY_SIZE, off, &res);
	KUNIT_EXPECT_EQ(test, off[0], 0ULL);
	KUNIT_EXPECT_EQ(test, off[1], 0ULL);
	KUNIT_EXPECT_EQ(test, off[2], 100ULL);
	KUNIT_EXPECT_EQ(test, off[3], 60ULL);
	KUNIT_EXPECT_EQ(test, off[4], 75ULL);
	KUNIT_EXPECT_EQ(test, off[5], 88ULL);
}

static void ta_kt_graph_shapes(struct kunit *test)
{
	struct ta_kt_graph *gb = ta_kt_graph_new(test);
	u64 *off = kunit_kcalloc(test, TA_KT_MAX, sizeof(*off), GFP_KERNEL);
	struct ta_result res;
	u32 x, w, a, b1, b2, c, l1, r1, y;
	int s;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	/* skip connection: c = add(conv(conv(a)), a) */
	x = ta_kt_tensor(gb, 64, TA_TENSOR_INPUT);
	w = ta_kt_tensor(gb, 32, TA_TENSOR_CONSTANT);
	a = ta_kt_tensor(gb, 128, 0);
	b1 = ta_kt_tensor(gb, 96, 0);
	b2 = ta_kt_tensor(gb, 96, 0);
	c = ta_kt_tensor(gb, 128, TA_TENSOR_OUTPUT);
	{
		u32 i0[] = { x, w }, i2[] = { b1, w }, i3[] = { b2, a };

		ta_kt_op(gb, 2, i0, 1, &a);
		ta_kt_op(gb, 1, &a, 1, &b1);
		ta_kt_op(gb, 2, i2, 1, &b2);
		ta_kt_op(gb, 2, i3, 1, &c);
	}
	KUNIT_ASSERT_EQ(test, ta_kt_finish(gb), 0);
	KUNIT_EXPECT_EQ(test, gb->b[a].start, 0U);
	KUNIT_EXPECT_EQ(test, gb->b[a].end, 4U);
	KUNIT_EXPECT_EQ(test, gb->b[w].end, 4U);
	KUNIT_EXPECT_EQ(test, gb->b[b1].end, 3U);
	for (s = 0; s < TA_KT_NS; s++)
		ta_kt_plan_ok(test, &gb->p, s, off, &res);

	/* branches joined by a concat */
	memset(gb, 0, sizeof(*gb));
	x = ta_kt_tensor(gb, 50, TA_TENSOR_INPUT);
	a = ta_kt_tensor(gb, 70, 0);
	l1 = ta_kt_tensor(gb, 30, 0);
	r1 = ta_kt_tensor(gb, 60, 0);
	y = ta_kt_tensor(gb, 90, TA_TENSOR_OUTPUT);
	{
		u32 cat[] = { l1, r1 };

		ta_kt_op(gb, 1, &x, 1, &a);
		ta_kt_op(gb, 1, &a, 1, &l1);
		ta_kt_op(gb, 1, &a, 1, &r1);
		ta_kt_op(gb, 2, cat, 1, &y);
	}
	KUNIT_ASSERT_EQ(test, ta_kt_finish(gb), 0);
	for (s = 0; s < TA_KT_NS; s++)
		ta_kt_plan_ok(test, &gb->p, s, off, &res);

	/* malformed: read before produced */
	memset(gb, 0, sizeof(*gb));
	x = ta_kt_tensor(gb, 8, TA_TENSOR_INPUT);
	a = ta_kt_tensor(gb, 8, 0);
	y = ta_kt_tensor(gb, 8, TA_TENSOR_OUTPUT);
	ta_kt_op(gb, 1, &a, 1, &y);
	ta_kt_op(gb, 1, &x, 1, &a);
	KUNIT_EXPECT_EQ(test, ta_kt_finish(gb), -EINVAL);
}

static void ta_kt_validator(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 3, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 3, sizeof(*off), GFP_KERNEL);
	struct ta_problem p = { 0 };

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	b[0] = (struct ta_buffer){ .size = 10, .align = 1, .start = 0, .end = 3 };
	b[1] = (struct ta_buffer){ .size = 10, .align = 4, .start = 2, .end = 5 };
	b[2] = (struct ta_buffer){ .size = 10, .align = 1, .start = 3, .end = 6 };
	p = ta_kt_trace(b, 3);
	off[0] = 0;
	off[1] = 12;
	off[2] = 2;
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, 22), 0);
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, 23), -EINVAL);
	off[1] = 10;
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, 20), -EINVAL);
	off[1] = 8;
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, 18), -EINVAL);
	off[1] = 12;
	off[2] = 5;
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, 22), -EINVAL);
}

static void ta_kt_random_traces(struct kunit *test)
{
	struct ta_buffer *b = kunit_kcalloc(test, 200, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 200, sizeof(*off), GFP_KERNEL);
	struct ta_result res;
	struct ta_problem p = { 0 };
	int seed, s;
	u32 i, n;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	for (seed = 1; seed <= 30; seed++) {
		u32 steps = 2 + seed % 40;

		ta_kt_seed = seed;
		n = 1 + ta_kt_rand() % 200;
		for (i = 0; i < n; i++) {
			b[i].start = ta_kt_rand() % steps;
			b[i].end = b[i].start + 1 +
				   ta_kt_rand() % (steps - b[i].start);
			b[i].size = ta_kt_rand() % 8 ?
				    1 + ta_kt_rand() % (seed & 2 ? 1000 : 1U << 30) :
				    0;
			b[i].align = seed & 1 ? 1ULL << (ta_kt_rand() % 7) : 1;
		}
		p = ta_kt_trace(b, n);
		for (s = 0; s < TA_KT_NS; s++)
			ta_kt_plan_ok(test, &p, s, off, &res);
	}
}

/*
 * auto whose budget is spent before it starts (1 ns: in the module, a
 * default_budget_ms or max_plan_ms far below the input's size) still
 * returns a valid plan, at most freelist's height, at 10 to 4,096 buffers.
 */
static void ta_kt_auto_spent_budget(struct kunit *test)
{
	static const u32 sizes[] = { 10, 300, 4096 };
	const struct ta_budget spent = { .time_ns = 1 };
	struct ta_buffer *b = kunit_kcalloc(test, 4096, sizeof(*b), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 4096, sizeof(*off), GFP_KERNEL);
	struct ta_result res, fl;
	struct ta_problem p;
	u32 i, k, ran = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		ta_kt_seed = 7 + k;
		for (i = 0; i < sizes[k]; i++) {
			b[i].start = ta_kt_rand() % 1000;
			b[i].end = b[i].start + 1 + ta_kt_rand() % 20;
			b[i].size = 1 + ta_kt_rand() % 100000;
			b[i].align = 1ULL << (ta_kt_rand() % 7);
		}
		p = ta_kt_trace(b, sizes[k]);
		KUNIT_ASSERT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FREELIST,
						    NULL, off, &fl), 0);
		KUNIT_ASSERT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_AUTO,
						    &spent, off, &res), 0);
		KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, res.height), 0);
		KUNIT_EXPECT_LE(test, res.height, fl.height);
		KUNIT_EXPECT_GE(test, res.height, res.lower_bound);
		ran++;
	}
	KUNIT_EXPECT_EQ(test, ran, 3U);
}

static void ta_kt_random_graphs(struct kunit *test)
{
	struct ta_kt_graph *gb = ta_kt_graph_new(test);
	u64 *off = kunit_kcalloc(test, TA_KT_MAX, sizeof(*off), GFP_KERNEL);
	u32 *live = kunit_kcalloc(test, TA_KT_MAX, sizeof(*live), GFP_KERNEL);
	struct ta_result res;
	int seed, s;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, off);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, live);
	for (seed = 1; seed <= 30; seed++) {
		u32 nlive = 0, o, k, nops, sink;
		u32 in[3], out[2];

		ta_kt_seed = 500 + seed;
		memset(gb, 0, sizeof(*gb));
		live[nlive++] = ta_kt_tensor(gb, 1 + ta_kt_rand() % 300,
					     TA_TENSOR_INPUT);
		nops = 3 + ta_kt_rand() % 20;
		for (o = 0; o < nops && gb->g.n_tensors < TA_KT_MAX - 8; o++) {
			u32 nin = ta_kt_rand() % 3 ? 1 : 2;
			u32 nout = ta_kt_rand() % 3 ? 1 : 2;

			for (k = 0; k < nin; k++)
				in[k] = live[nlive - 1 - ta_kt_rand() %
					     (nlive < 3 ? nlive : 3)];
			if (nin == 2 && in[0] == in[1])
				nin = 1;
			for (k = 0; k < nout; k++) {
				out[k] = ta_kt_tensor(gb, 1 + ta_kt_rand() % 300,
						      0);
				if (nlive < TA_KT_MAX)
					live[nlive++] = out[k];
			}
			ta_kt_op(gb, nin, in, nout, out);
		}
		sink = ta_kt_tensor(gb, 4, TA_TENSOR_OUTPUT);
		ta_kt_op(gb, 1, &live[nlive - 1], 1, &sink);
		KUNIT_ASSERT_EQ(test, ta_kt_finish(gb), 0);
		for (s = 0; s < TA_KT_NS; s++)
			ta_kt_plan_ok(test, &gb->p, s, off, &res);
	}
}

/* Op reference ranges must follow one another and end at n_refs. */
static void ta_kt_strict_ranges(struct kunit *test)
{
	static const u64 sizes[] = { 8, 16, 32, 64 };
	struct ta_kt_graph *gb = ta_kt_graph_new(test);

	KUNIT_ASSERT_EQ(test, ta_kt_chain(gb, sizes, 4), 0);
	gb->o[1].first_ref = 1;			/* overlaps op 0 */
	KUNIT_EXPECT_EQ(test, ta_graph_lifetimes(&gb->g, gb->b), -EINVAL);
	gb->o[1].first_ref = 2;
	KUNIT_EXPECT_EQ(test, ta_graph_lifetimes(&gb->g, gb->b), 0);
	gb->g.n_refs++;				/* a reference no op owns */
	gb->r[gb->g.n_refs - 1] = 0;
	KUNIT_EXPECT_EQ(test, ta_graph_lifetimes(&gb->g, gb->b), -EINVAL);
	gb->g.n_refs--;
	gb->o[2].first_ref = 5;			/* a gap before op 2 */
	gb->o[2].n_inputs = 0;
	KUNIT_EXPECT_EQ(test, ta_graph_lifetimes(&gb->g, gb->b), -EINVAL);
}

/* x -> a -view-> b -> y: every strategy shares the view's bytes. */
static void ta_kt_inplace(struct kunit *test)
{
	struct ta_kt_graph *gb = ta_kt_graph_new(test);
	struct ta_result res;
	u64 off[4];
	u32 x, a, b, y;
	int s;

	x = ta_kt_tensor(gb, 10, TA_TENSOR_INPUT);
	a = ta_kt_tensor(gb, 100, 0);
	b = ta_kt_tensor(gb, 100, 0);
	y = ta_kt_tensor(gb, 10, TA_TENSOR_OUTPUT);
	ta_kt_op(gb, 1, &x, 1, &a);
	ta_kt_op(gb, 1, &a, 1, &b);
	ta_kt_op(gb, 1, &b, 1, &y);
	gb->o[1].flags = TA_OP_INPLACE;
	KUNIT_ASSERT_EQ(test, ta_kt_finish(gb), 0);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		ta_kt_plan_ok(test, &gb->p, s, off, &res);
		KUNIT_EXPECT_EQ(test, off[a], off[b]);
		KUNIT_EXPECT_EQ(test, res.lower_bound, 110ULL);
		KUNIT_EXPECT_EQ(test, res.height, 110ULL);
		KUNIT_EXPECT_EQ(test, res.n_aliased, 1U);
	}
	/* an unknown op flag is a malformed graph */
	gb->o[1].flags = 0x2;
	KUNIT_EXPECT_EQ(test, ta_graph_lifetimes(&gb->g, gb->b), -EINVAL);
}

/* The fixed strategy: served as given, or refused with the conflict. */
static void ta_kt_fixed(struct kunit *test)
{
	static const struct ta_buffer b[3] = {
		{ 64, 64, 0, 2 }, { 16, 16, 1, 3 }, { 32, 32, 2, 4 },
	};
	u64 fixed[3] = { 0, 64, 0 }, off[3];
	struct ta_problem p = ta_kt_trace(b, 3);
	struct ta_result res;

	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
			-EINVAL);
	p.fixed = fixed;
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
			0);
	KUNIT_EXPECT_EQ(test, off[1], 64ULL);
	KUNIT_EXPECT_EQ(test, res.height, 80ULL);
	fixed[2] = 64;	/* b[1] and b[2] are live at step 2 */
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, res.conflict.kind, (u32)TA_CONFLICT_OVERLAP);
	KUNIT_EXPECT_EQ(test, res.conflict.a, 1U);
	KUNIT_EXPECT_EQ(test, res.conflict.b, 2U);
	KUNIT_EXPECT_EQ(test, res.conflict.step, 2U);
	fixed[2] = 8;	/* not a multiple of 32 */
	KUNIT_EXPECT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, res.conflict.kind, (u32)TA_CONFLICT_ALIGN);
	KUNIT_EXPECT_EQ(test, res.conflict.a, 2U);
	fixed[2] = TA_OFFSET_UNFIXED;
	KUNIT_ASSERT_EQ(test, ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res),
			0);
	KUNIT_EXPECT_EQ(test, ta_plan_validate(&p, off, res.height), 0);
}

/* Groups (ta_group.h): one member, a chain of up to eight tensors. */
struct ta_kt_member {
	struct ta_graph_tensor t[8];
	struct ta_graph_op o[8];
	u32 r[16];
	struct ta_graph g;
	struct ta_buffer b[8];
};

/* x -> ... -> y of @sizes; with @konst, a constant op 0 also reads */
static struct ta_group_member_problem
ta_kt_member(struct kunit *test, struct ta_kt_member *m, const u64 *sizes,
	     u32 n, u64 konst, u32 lane)
{
	struct ta_group_member_problem mp = { .lane = lane };
	u32 i, nr = 0;

	for (i = 0; i < n; i++) {
		m->t[i].size = sizes[i];
		m->t[i].align = 16;
	}
	m->t[0].flags = TA_TENSOR_INPUT;
	m->t[n - 1].flags = TA_TENSOR_OUTPUT;
	if (konst) {
		m->t[n].size = konst;
		m->t[n].align = 16;
		m->t[n].flags = TA_TENSOR_CONSTANT;
	}
	for (i = 0; i + 1 < n; i++) {
		m->o[i].first_ref = nr;
		m->o[i].n_inputs = 1 + (konst && !i);
		m->o[i].n_outputs = 1;
		m->r[nr++] = i;
		if (konst && !i)
			m->r[nr++] = n;
		m->r[nr++] = i + 1;
	}
	m->g.n_tensors = n + !!konst;
	m->g.n_ops = n - 1;
	m->g.n_refs = nr;
	m->g.tensors = m->t;
	m->g.ops = m->o;
	m->g.refs = m->r;
	KUNIT_ASSERT_EQ(test, ta_graph_lifetimes(&m->g, m->b), 0);
	mp.problem.n_buffers = m->g.n_tensors;
	mp.problem.buffers = m->b;
	mp.problem.graph = &m->g;
	return mp;
}

static const u64 ta_kt_gsz[3][4] = {
	{ 112, 304, 208, 48 }, { 48, 400, 400, 16 }, { 16, 32, 704, 64 },
};

/*
 * Three members in one lane need the largest of them; in three lanes,
 * the sum; a link is one offset; every plan passes ta_group_check().
 */
static void ta_kt_group_solve(struct kunit *test)
{
	struct ta_kt_member *m = kunit_kcalloc(test, 3, sizeof(*m), GFP_KERNEL);
	struct ta_group_member_problem mp[3];
	struct ta_group_link link = { 0, 3, 1, 0 };
	struct ta_group_problem gp = { .n_members = 3, .members = mp };
	struct ta_group_result res;
	struct ta_conflict c;
	u64 *off = kunit_kcalloc(test, 16, sizeof(*off), GFP_KERNEL);
	u32 i, s;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, off);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		for (i = 0; i < 3; i++)
			mp[i] = ta_kt_member(test, &m[i], ta_kt_gsz[i], 4, 0, 0);
		if (s == TA_STRATEGY_PINGPONG) {
			KUNIT_EXPECT_EQ(test, ta_group_solve(&gp, s, NULL, off,
							     &res), -EINVAL);
			continue;
		}
		KUNIT_ASSERT_EQ(test, ta_group_solve(&gp, s, &ta_kt_budget,
						     off, &res), 0);
		KUNIT_EXPECT_EQ(test, ta_group_check(&gp, off, res.height, &c),
				0);
		KUNIT_EXPECT_GE(test, res.height, res.lower_bound);
		/* 400 + 400 live at once in the second member */
		KUNIT_EXPECT_EQ(test, res.lower_bound, 800ULL);
		if (s == TA_STRATEGY_AUTO)
			KUNIT_EXPECT_EQ(test, res.height, 800ULL);
		for (i = 0; i < 3; i++)
			mp[i].lane = i;
		KUNIT_ASSERT_EQ(test, ta_group_solve(&gp, s, &ta_kt_budget,
						     off, &res), 0);
		KUNIT_EXPECT_EQ(test, ta_group_check(&gp, off, res.height, &c),
				0);
		/* the sum of the members' peaks */
		KUNIT_EXPECT_EQ(test, res.lower_bound, 512ULL + 800 + 768);
		if (s == TA_STRATEGY_AUTO)
			KUNIT_EXPECT_EQ(test, res.height, 512ULL + 800 + 768);
	}
	for (i = 0; i < 3; i++)
		mp[i].lane = 0;
	gp.n_links = 1;
	gp.links = &link;
	KUNIT_ASSERT_EQ(test, ta_group_solve(&gp, TA_STRATEGY_AUTO,
					     &ta_kt_budget, off, &res), 0);
	KUNIT_EXPECT_EQ(test, off[3], off[4]);
	KUNIT_EXPECT_EQ(test, ta_group_check(&gp, off, res.height, &c), 0);
	off[5] = off[4];	/* b's op 0 writes over the link it reads */
	KUNIT_EXPECT_EQ(test, ta_group_check(&gp, off, res.height + 1024, &c),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, c.kind, (u32)TA_CONFLICT_OVERLAP);
	KUNIT_EXPECT_EQ(test, ta_group_solve(&gp, TA_STRATEGY_FIXED, NULL,
					     off, &res), -EINVAL);
}

/* Bad groups: each refused by layout, solve and check alike. */
static void ta_kt_group_refusals(struct kunit *test)
{
	struct ta_kt_member *m = kunit_kcalloc(test, 2, sizeof(*m), GFP_KERNEL);
	struct ta_group_buffer *gb = kunit_kcalloc(test, 16, sizeof(*gb),
						   GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 16, sizeof(*off), GFP_KERNEL);
	static const struct {
		struct ta_group_link link;
		struct ta_group_shared shared;
		u32 lane, n_shared;
		int err;
	} cases[] = {
		{ { 0, 3, 1, 0 }, { 0 }, 0, 0, 0 },
		{ { 0, 3, 1, 0 }, { 0 }, TA_GROUP_MAX_LANES, 0, -EINVAL },
		{ { 2, 3, 1, 0 }, { 0 }, 0, 0, -EINVAL },
		{ { 0, 3, 1, 9 }, { 0 }, 0, 0, -EINVAL },
		{ { 1, 3, 0, 0 }, { 0 }, 0, 0, -EINVAL },
		{ { 0, 3, 0, 0 }, { 0 }, 0, 0, -EINVAL },
		{ { 0, 3, 1, 1 }, { 0 }, 0, 0, -EINVAL },
		{ { 0, 4, 1, 0 }, { 0 }, 0, 0, -EINVAL },
		{ { 0, 3, 1, 0 }, { 1, 0, 5, 0 }, 0, 1, -EINVAL },
		{ { 0, 3, 1, 0 }, { 0, 1, 5, 1 }, 0, 1, -EINVAL },
		{ { 0, 3, 1, 0 }, { 0, 1, 5, 0 }, 0, 1, 0 },
	};
	struct ta_group_member_problem mp[2];
	struct ta_group_problem gp = { .n_members = 2, .members = mp,
				       .n_links = 1 };
	struct ta_group_result res;
	struct ta_conflict c;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, gb);
	KUNIT_ASSERT_NOT_NULL(test, off);
	/* member 0 has a constant, tensor 4 */
	mp[0] = ta_kt_member(test, &m[0], ta_kt_gsz[0], 4, 32, 0);
	mp[1] = ta_kt_member(test, &m[1], ta_kt_gsz[1], 4, 0, 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int want = cases[i].err;

		gp.links = &cases[i].link;
		gp.shared = &cases[i].shared;
		gp.n_shared = cases[i].n_shared;
		mp[1].lane = cases[i].lane;
		KUNIT_EXPECT_EQ_MSG(test, ta_group_layout(&gp, gb), want,
				    "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ta_group_solve(&gp, TA_STRATEGY_AUTO,
							 &ta_kt_budget, off,
							 &res), want,
				    "case %u", i);
		if (want)
			KUNIT_EXPECT_EQ_MSG(test, ta_group_check(&gp, off, 0,
								 &c),
					    want, "case %u", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, ta_group_check(&gp, off,
								 res.height,
								 &c),
					    0, "case %u", i);
	}
	gp.n_members = TA_GROUP_MAX_MEMBERS + 1;
	KUNIT_EXPECT_EQ(test, ta_group_layout(&gp, gb), -E2BIG);
	gp.n_members = 2;
	gp.n_links = TA_GROUP_MAX_LINKS + 1;
	KUNIT_EXPECT_EQ(test, ta_group_layout(&gp, gb), -E2BIG);
}

/* Extend: a member that fits moves nothing; one that does not, -ENOSPC. */
static void ta_kt_group_extend(struct kunit *test)
{
	struct ta_kt_member *m = kunit_kcalloc(test, 3, sizeof(*m), GFP_KERNEL);
	u64 *off = kunit_kcalloc(test, 16, sizeof(*off), GFP_KERNEL);
	u64 *noff = kunit_kcalloc(test, 16, sizeof(*noff), GFP_KERNEL);
	static const u64 small[] = { 64, 80, 96, 16 };
	struct ta_group_member_problem mp[3];
	struct ta_group_problem gp = { .n_members = 2, .members = mp };
	struct ta_group_result res, ext;
	struct ta_conflict c;
	u64 cap;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, off);
	KUNIT_ASSERT_NOT_NULL(test, noff);
	mp[0] = ta_kt_member(test, &m[0], ta_kt_gsz[0], 4, 0, 0);
	mp[1] = ta_kt_member(test, &m[1], ta_kt_gsz[1], 4, 0, 0);
	mp[2] = ta_kt_member(test, &m[2], small, 4, 0, 0);
	KUNIT_ASSERT_EQ(test, ta_group_solve(&gp, TA_STRATEGY_AUTO,
					     &ta_kt_budget, off, &res), 0);
	cap = res.height;
	gp.n_members = 3;
	KUNIT_ASSERT_EQ(test, ta_group_extend(&gp, 2, off, cap,
					      TA_STRATEGY_AUTO, &ta_kt_budget,
					      noff, &ext), 0);
	KUNIT_EXPECT_EQ(test, memcmp(off, noff, 8 * sizeof(*off)), 0);
	KUNIT_EXPECT_EQ(test, ta_group_check(&gp, noff, cap, &c), 0);
	KUNIT_EXPECT_LE(test, ext.height, cap);
	mp[2].lane = 1;
	KUNIT_EXPECT_EQ(test, ta_group_extend(&gp, 2, off, cap,
					      TA_STRATEGY_AUTO, &ta_kt_budget,
					      noff, &ext), -ENOSPC);
	KUNIT_ASSERT_EQ(test, ta_group_extend(&gp, 2, off, cap + 176,
					      TA_STRATEGY_AUTO, &ta_kt_budget,
					      noff, &ext), 0);
	KUNIT_EXPECT_EQ(test, memcmp(off, noff, 8 * sizeof(*off)), 0);
	KUNIT_EXPECT_EQ(test, ta_group_check(&gp, noff, cap + 176, &c), 0);
}

/* An element of ta_kt_env_sort(): few distinct keys, ties broken by index. */
struct ta_kt_sort_elem {
	u32 key;
	u32 index;
};

static int ta_kt_sort_cmp(const void *a, const void *b)
{
	const struct ta_kt_sort_elem *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * ta_env_sort() (the kernel's merge sort of indices, sort() in place for
 * short arrays) orders as sort() does, at sizes around its insertion runs
 * and its merge widths, with many equal keys.
 */
static void ta_kt_env_sort(struct kunit *test)
{
	static const u32 sizes[] = { 0, 1, 2, 15, 16, 17, 23, 31, 33, 64, 100,
				     1000, 4099 };
	struct ta_kt_sort_elem *a, *want;
	unsigned int k, cases = 0;
	u32 i, n;

	a = kunit_kcalloc(test, 4099, sizeof(*a), GFP_KERNEL);
	want = kunit_kcalloc(test, 4099, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, want);
	ta_kt_seed = 77;
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		n = sizes[k];
		for (i = 0; i < n; i++) {
			a[i].key = ta_kt_rand() % (n / 4 + 1);
			a[i].index = ta_kt_rand();
		}
		memcpy(want, a, n * sizeof(*a));
		sort(want, n, sizeof(*want), ta_kt_sort_cmp, NULL);
		ta_env_sort(a, n, sizeof(*a), ta_kt_sort_cmp);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(a, want, n * sizeof(*a)), 0,
				    "%u elements", n);
		cases++;
	}
	KUNIT_EXPECT_EQ(test, cases, ARRAY_SIZE(sizes));
}

static struct kunit_case ta_planner_kunit_cases[] = {
	KUNIT_CASE(ta_kt_names),
	KUNIT_CASE(ta_kt_bad_input),
	KUNIT_CASE(ta_kt_zero_and_single),
	KUNIT_CASE(ta_kt_huge),
	KUNIT_CASE(ta_kt_equal_lifetimes),
	KUNIT_CASE(ta_kt_pingpong_chain),
	KUNIT_CASE(ta_kt_freelist_exact),
	KUNIT_CASE(ta_kt_greedy_exact),
	KUNIT_CASE(ta_kt_graph_shapes),
	KUNIT_CASE(ta_kt_strict_ranges),
	KUNIT_CASE(ta_kt_validator),
	KUNIT_CASE(ta_kt_inplace),
	KUNIT_CASE(ta_kt_fixed),
	KUNIT_CASE(ta_kt_random_traces),
	KUNIT_CASE(ta_kt_auto_spent_budget),
	KUNIT_CASE(ta_kt_random_graphs),
	KUNIT_CASE(ta_kt_group_solve),
	KUNIT_CASE(ta_kt_group_refusals),
	KUNIT_CASE(ta_kt_group_extend),
	KUNIT_CASE(ta_kt_env_sort),
	{}
};

static struct kunit_suite ta_planner_kunit_suite = {
	.name = "tensorarena-planner",
	.test_cases = ta_planner_kunit_cases,
};

kunit_test_suite(ta_planner_kunit_suite);
