// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_bounded.c - issue #9, bounded CPU: the strict graph form, the hard
 * deadline (&ta_budget.limit_ns) and -EINTR from ta_env_yield().
 *
 * Built with -DTA_ENV_TEST_HOOKS: ta_env_yield() (userspace/lib/
 * ta_env_user.c) counts its calls and fails with -EINTR from the N-th on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ta_test.h"
#include "ta_worst.h"

extern unsigned long ta_env_test_yields;
extern unsigned long ta_env_test_fail_after;

/* A four-op graph: x -> op0 -> a; a, c -> op1 -> b; b -> op2 -> d, e; d, e -> op3 -> y */
static struct ta_graph_tensor sg_t[] = {
	{ 100, 1, TA_TENSOR_INPUT }, { 200, 1, 0 }, { 300, 1, 0 },
	{ 50, 1, TA_TENSOR_CONSTANT }, { 10, 1, 0 }, { 20, 1, 0 },
	{ 400, 1, TA_TENSOR_OUTPUT },
};
static const struct ta_graph_op sg_o_ok[] = {
	{ 0, 1, 1, 0 }, { 2, 2, 1, 0 }, { 5, 1, 2, 0 }, { 8, 2, 1, 0 },
};
static const u32 sg_r[] = { 0, 1, 1, 3, 2, 2, 4, 5, 4, 5, 6 };

struct sg {
	struct ta_graph_op o[4];
	struct ta_graph g;
	struct ta_buffer b[7];
};

static void sg_init(struct sg *s)
{
	memcpy(s->o, sg_o_ok, sizeof(s->o));
	s->g.n_tensors = 7;
	s->g.n_ops = 4;
	s->g.n_refs = 11;
	s->g.tensors = sg_t;
	s->g.ops = s->o;
	s->g.refs = sg_r;
}

/* Lifetimes, then ta_plan_solve() on the derived buffers with the graph. */
static int sg_check(struct sg *s)
{
	struct ta_problem p = { .n_buffers = 7, .buffers = s->b, .graph = &s->g };
	struct ta_result res;
	u64 off[7];
	int ret = ta_graph_lifetimes(&s->g, s->b);

	if (ret)
		return ret;
	return ta_plan_solve(&p, TA_STRATEGY_GREEDY_SIZE, NULL, off, &res);
}

static int t_strict_ranges(void)
{
	struct sg s;
	int ret;

	sg_init(&s);
	ret = sg_check(&s);
	TA_CHECK(ret == 0, "valid graph: %d", ret);

	sg_init(&s);
	s.o[0].first_ref = 1;		/* gap before op 0 */
	s.o[0].n_inputs = 0;
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "gap at start");

	sg_init(&s);
	s.o[1].first_ref = 1;		/* op 1 overlaps op 0 */
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "overlap");

	sg_init(&s);
	s.o[2].first_ref = 6;		/* gap between op 1 and op 2 */
	s.o[2].n_inputs = 0;
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "gap");

	sg_init(&s);
	s.g.n_refs = 10;		/* last op runs past n_refs */
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "long");

	sg_init(&s);
	s.o[3].n_inputs = 1;		/* last op ends short of n_refs */
	s.o[3].n_outputs = 1;
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "short");

	sg_init(&s);
	s.o[3].first_ref = U32_MAX;	/* would wrap in u32 arithmetic */
	s.o[3].n_inputs = U32_MAX;
	s.o[3].n_outputs = 12;
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "wrap");

	sg_init(&s);
	s.g.n_ops = 0;			/* references but no op */
	TA_CHECK(ta_graph_lifetimes(&s.g, s.b) == -EINVAL, "no ops");

	/* ta_plan_solve() checks the graph again: overlapping ranges in p->graph */
	{
		struct ta_problem p = { 0 };
		struct ta_result res;
		u64 off[7];

		sg_init(&s);
		TA_CHECK(!ta_graph_lifetimes(&s.g, s.b), "valid");
		s.o[1].first_ref = 1;
		p.n_buffers = 7;
		p.buffers = s.b;
		p.graph = &s.g;
		for (int st = 0; st < TA_STRATEGY_COUNT; st++)
			TA_CHECK(ta_plan_solve(&p, st, NULL, off, &res) == -EINVAL,
				 "ta_plan_solve %s", ta_strategy_name(st));
	}
	return 0;
}

/* The worst-case generator: strict form, within the kernel's limits. */
static int t_worst_shapes(void)
{
	for (int i = 0; i < ta_worst_count(); i++) {
		struct ta_worst w;
		struct ta_buffer *b;
		int ret, expect;

		TA_CHECK(!ta_worst_make(i, 1, &w), "make %d", i);
		TA_CHECK(w.graph.n_tensors <= TA_WORST_MAX_TENSORS &&
			 w.graph.n_ops <= TA_WORST_MAX_OPS &&
			 w.graph.n_refs <= TA_WORST_MAX_REFS, "%s: limits",
			 w.name);
		b = calloc(w.graph.n_tensors, sizeof(*b));
		TA_CHECK(b, "calloc");
		ret = ta_graph_lifetimes(&w.graph, b);
		expect = w.expect;
		free(b);
		ta_worst_free(&w);
		TA_CHECK(ret == expect, "%s: lifetimes %d, expected %d",
			 ta_worst_name(i), ret, expect);
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct bp {
	struct ta_worst w;
	struct ta_buffer *b;
	u64 *off;
	struct ta_problem p;
};

static int bp_make(struct bp *x, int shape, u32 div)
{
	int ret;

	memset(x, 0, sizeof(*x));
	ret = ta_worst_make(shape, div, &x->w);
	if (ret)
		return ret;
	x->b = calloc(x->w.graph.n_tensors, sizeof(*x->b));
	x->off = calloc(x->w.graph.n_tensors, sizeof(*x->off));
	if (!x->b || !x->off)
		return -ENOMEM;
	x->p.n_buffers = x->w.graph.n_tensors;
	x->p.buffers = x->b;
	x->p.graph = &x->w.graph;
	return ta_graph_lifetimes(&x->w.graph, x->b);
}

static void bp_free(struct bp *x)
{
	free(x->b);
	free(x->off);
	ta_worst_free(&x->w);
}

/*
 * A tiny limit: every strategy returns a valid plan or -ETIMEDOUT, never a
 * wrong plan, and stops within the limit plus a little.
 */
static int t_deadline(void)
{
	static const u64 limits_ns[] = { 1, 100000, 2000000, 20000000 };
	int shape, s, timed_out = 0, planned = 0;
	size_t l;

	for (shape = 0; shape < ta_worst_count(); shape++) {
		struct bp x;

		if (!strcmp(ta_worst_name(shape), "ranges"))
			continue;
		TA_CHECK(!bp_make(&x, shape, 16), "make %d", shape);
		for (s = 0; s < TA_STRATEGY_COUNT; s++) {
			for (l = 0; l < sizeof(limits_ns) / sizeof(*limits_ns); l++) {
				struct ta_budget bud = {
					.time_ns = 1000000000ULL,
					.limit_ns = limits_ns[l],
				};
				struct ta_result res;
				double t0 = now_ms(), ms;
				int ret = ta_plan_solve(&x.p, s, &bud, x.off, &res);

				ms = now_ms() - t0;
				TA_CHECK(ret == 0 || ret == -ETIMEDOUT,
					 "%s %s limit %llu: %d", x.w.name,
					 ta_strategy_name(s),
					 (unsigned long long)limits_ns[l], ret);
				/* generous: sanitizers, a shared machine */
				TA_CHECK(ms < limits_ns[l] / 1e6 + 1500,
					 "%s %s limit %llu ns took %.0f ms",
					 x.w.name, ta_strategy_name(s),
					 (unsigned long long)limits_ns[l], ms);
				if (ret) {
					timed_out++;
					continue;
				}
				planned++;
				TA_CHECK(!ta_plan_validate(&x.p, x.off,
							   res.height),
					 "%s %s: invalid plan", x.w.name,
					 ta_strategy_name(s));
			}
		}
		bp_free(&x);
	}
	printf("# deadline: %d plans, %d -ETIMEDOUT\n", planned, timed_out);
	TA_CHECK(timed_out && planned, "both outcomes seen");
	return 0;
}

/* Anytime: stack's exhaustive enumeration keeps its best order. */
static int t_deadline_anytime(void)
{
	struct ta_buffer b[8];
	struct ta_problem p = { .n_buffers = 8, .buffers = b };
	struct ta_budget bud = { .limit_ns = 1 };
	struct ta_result res;
	u64 off[8];
	int i, ret;

	for (i = 0; i < 8; i++) {
		b[i].size = 100 + 37 * i;
		b[i].align = 1ULL << (i % 4);
		b[i].start = i / 3;
		b[i].end = 3 + i % 5;
	}
	/* 8! orders: well past one work chunk, so the deadline is seen */
	for (int s = 0; s < TA_STRATEGY_COUNT; s++) {
		ret = ta_plan_solve(&p, s, &bud, off, &res);
		TA_CHECK(ret == 0 || ret == -ETIMEDOUT, "%s: %d",
			 ta_strategy_name(s), ret);
		if (s == TA_STRATEGY_STACK || s == TA_STRATEGY_AUTO)
			TA_CHECK(ret == 0, "%s is anytime: %d",
				 ta_strategy_name(s), ret);
		if (!ret)
			TA_CHECK(!ta_plan_validate(&p, off, res.height),
				 "%s: invalid", ta_strategy_name(s));
	}
	ret = ta_plan_solve(&p, TA_STRATEGY_STACK, NULL, off, &res);
	TA_CHECK(!ret && res.optimal, "without a limit stack proves optimal");
	return 0;
}

/* One run with the N-th yield failing (0: none); counts the yields. */
static int run_fail_after(struct bp *x, int s, unsigned long n,
			  unsigned long *yields)
{
	/* steps, not time, bound the searches: the same run every time */
	struct ta_budget bud = { .time_ns = 60000000000ULL, .steps = 3000 };
	struct ta_result res;
	int ret;

	ta_env_test_yields = 0;
	ta_env_test_fail_after = n;
	ret = ta_plan_solve(&x->p, s, &bud, x->off, &res);
	*yields = ta_env_test_yields;
	ta_env_test_fail_after = 0;
	return ret;
}

/*
 * -EINTR from ta_env_yield() at every yield point in turn: every strategy
 * stops with -EINTR (LeakSanitizer checks that it frees everything).
 */
static int t_eintr_sweep(void)
{
	int shape, s, runs = 0, swept = 0;

	for (shape = 0; shape < ta_worst_count(); shape++) {
		struct bp x;

		if (!strcmp(ta_worst_name(shape), "ranges"))
			continue;
		TA_CHECK(!bp_make(&x, shape, 64), "make %d", shape);
		for (s = 0; s < TA_STRATEGY_COUNT; s++) {
			unsigned long total, y, n, stride;
			double t0 = now_ms();
			int ret = run_fail_after(&x, s, 0, &total);

			/* a slow pair (stack on "gaps") is swept sparsely */
			stride = now_ms() - t0 > 200 ? 4 : 1;
			TA_CHECK(ret == 0, "%s %s: %d", x.w.name,
				 ta_strategy_name(s), ret);
			swept += total > 0;
			if (total > 16 * stride)
				stride = total / 16;
			for (n = 1; n <= total; n += stride) {
				ret = run_fail_after(&x, s, n, &y);
				runs++;
				TA_CHECK(ret == -EINTR,
					 "%s %s: yield %lu of %lu failed, got %d",
					 x.w.name, ta_strategy_name(s), n, total,
					 ret);
				TA_CHECK(y == n, "%s %s: went on yielding (%lu)",
					 x.w.name, ta_strategy_name(s), y);
			}
			ret = run_fail_after(&x, s, total + 1, &y);
			TA_CHECK(ret == 0, "%s %s: past the last yield: %d",
				 x.w.name, ta_strategy_name(s), ret);
		}
		bp_free(&x);
	}
	/* ta_graph_lifetimes() alone */
	{
		struct bp x;
		unsigned long y;

		TA_CHECK(!bp_make(&x, 2, 1), "make stair");
		ta_env_test_yields = 0;
		ta_env_test_fail_after = 1;
		TA_CHECK(ta_graph_lifetimes(&x.w.graph, x.b) == -EINTR,
			 "lifetimes");
		y = ta_env_test_yields;
		ta_env_test_fail_after = 0;
		TA_CHECK(y == 1, "lifetimes stopped at once (%lu)", y);
		bp_free(&x);
	}
	printf("# -EINTR sweep: %d runs, %d of %d shape x strategy yielded\n",
	       runs, swept, (ta_worst_count() - 1) * TA_STRATEGY_COUNT);
	TA_CHECK(swept >= 3 * TA_STRATEGY_COUNT, "too few yields to sweep");
	return 0;
}

const struct ta_test ta_bounded_tests[] = {
	{ "strict graph form: overlapping, gapped, short ranges rejected",
	  t_strict_ranges },
	{ "worst-case shapes: strict form, within the kernel's limits",
	  t_worst_shapes },
	{ "deadline: a valid plan or -ETIMEDOUT, within the limit",
	  t_deadline },
	{ "deadline: stack and auto are anytime", t_deadline_anytime },
	{ "-EINTR at every yield: every strategy stops, frees all",
	  t_eintr_sweep },
	{ NULL, NULL },
};
