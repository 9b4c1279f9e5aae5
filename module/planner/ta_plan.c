// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_plan.c - the planner's entry points: ta_plan_solve() validates a problem,
 * computes its lower bound (ta_bound.c), runs a strategy and checks what it
 * returns (ta_validate.c); ta_plan_check(), ta_plan_validate() and
 * ta_problem_lower_bound() check a problem the same way first. Also the
 * strategies' names.
 */
#include "ta_alias.h"
#include "ta_bound.h"
#include "ta_contain.h"
#include "ta_graph.h"
#include "ta_plan_helpers.h"
#include "ta_strategy.h"
#include "ta_validate.h"

static const char *const ta_strategy_names[TA_STRATEGY_FIXED + 1] = {
	[TA_STRATEGY_AUTO] = "auto",
	[TA_STRATEGY_PINGPONG] = "pingpong",
	[TA_STRATEGY_STACK] = "stack",
	[TA_STRATEGY_FREELIST] = "freelist",
	[TA_STRATEGY_GREEDY_SIZE] = "greedy-size",
	[TA_STRATEGY_FIXED] = "fixed",
};

/**
 * ta_strategy_name() - a strategy's name
 * @strategy: the strategy
 *
 * Return: "auto", "pingpong", "stack", "freelist", "greedy-size" or
 * "fixed"; NULL when @strategy is out of range.
 */
const char *ta_strategy_name(enum ta_strategy strategy)
{
	if ((unsigned int)strategy > TA_STRATEGY_FIXED)
		return NULL;
	return ta_strategy_names[strategy];
}

static bool ta_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/**
 * ta_strategy_from_name() - parse a strategy name
 * @name: NUL-terminated name, as ta_strategy_name() spells it
 *
 * Return: the strategy, or -EINVAL for NULL or an unknown name.
 */
int ta_strategy_from_name(const char *name)
{
	int s;

	if (!name)
		return -EINVAL;
	for (s = 0; s <= TA_STRATEGY_FIXED; s++)
		if (ta_streq(name, ta_strategy_names[s]))
			return s;
	return -EINVAL;
}

/*
 * A trace's alias classes (&ta_problem.alias): one root each, one size,
 * and no step missing between a class's first start and its last end, so
 * that the class is one memory over one span, as ta_plan_solve() plans it and
 * the validator sees it. The members sorted by class, then start
 * (class << 44 | start << 20 | index: 20, 24 and 20 bits), each must start
 * by the time the ones before it end.
 */
static int ta_check_alias(const struct ta_problem *p, struct ta_work *w)
{
	u32 i, r, n = p->n_buffers, reach = 0;
	u64 *key;
	int ret;

	if (p->graph)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		r = p->alias[i];
		if (r >= n || p->alias[r] != r ||
		    p->buffers[r].size != p->buffers[i].size)
			return -EINVAL;
	}
	key = ta_env_alloc_array(n ? n : 1, sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		key[i] = (u64)p->alias[i] << 44 |
			 (u64)p->buffers[i].start << 20 | i;
	ta_env_sort(key, n, sizeof(*key), ta_cmp_u64);
	ret = ta_work_add(w, n);
	for (i = 0; !ret && i < n; i++) {
		const struct ta_buffer *b = &p->buffers[key[i] & 0xfffff];

		if (i && key[i] >> 44 == key[i - 1] >> 44 && b->start > reach)
			ret = -EINVAL;
		else if (!i || key[i] >> 44 != key[i - 1] >> 44 ||
			 b->end > reach)
			reach = b->end;
	}
	ta_env_free(key);
	return ret;
}

static int ta_check_buffers(const struct ta_problem *p, struct ta_work *w)
{
	int ret;

	u32 i;

	if (!p)
		return -EINVAL;
	if (p->n_buffers > TA_PLAN_MAX_BUFFERS)
		return -E2BIG;
	if (p->n_buffers && !p->buffers)
		return -EINVAL;
	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		if (!ta_is_pow2(b->align) || b->start >= b->end)
			return -EINVAL;
		if (b->align > TA_PLAN_MAX_ALIGN || b->size >= TA_PLAN_MAX_SIZE ||
		    b->end > TA_PLAN_MAX_STEPS)
			return -E2BIG;
	}
	return p->alias ? ta_check_alias(p, w) : 0;
}

/* The buffers of a graph-form problem must be what its graph says. */
static int ta_check_graph(const struct ta_problem *p, struct ta_work *w)
{
	struct ta_buffer *derived;
	u32 i;
	int ret;

	if (p->graph->n_tensors != p->n_buffers)
		return -EINVAL;
	derived = ta_env_alloc_array(p->n_buffers, sizeof(*derived));
	if (!derived)
		return -ENOMEM;
	ret = ta_graph_lifetimes_work(p->graph, derived, w);
	for (i = 0; !ret && i < p->n_buffers; i++) {
		const struct ta_buffer *a = &derived[i], *b = &p->buffers[i];

		if (a->size != b->size || a->align != b->align ||
		    a->start != b->start || a->end != b->end)
			ret = -EINVAL;
		else
			ret = ta_work_add(w, 1);
	}
	ta_env_free(derived);
	return ret;
}

static int ta_check_problem(const struct ta_problem *p, struct ta_work *w)
{
	int ret = ta_check_buffers(p, w);

	if (!ret && p->graph)
		ret = ta_check_graph(p, w);
	return ret;
}

/*
 * The alias classes of a problem (a graph's in-place ops, or a trace's
 * &ta_problem.alias), or NULL when there are none; *@joined (may be NULL)
 * as ta_graph_aliases() returns it.
 */
static int ta_problem_roots(const struct ta_problem *p, u32 **root,
			    u32 *joined)
{
	u32 i, n = 0;

	*root = NULL;
	if (joined)
		*joined = 0;
	if ((!p->graph && !p->alias) || !p->n_buffers)
		return 0;
	*root = ta_env_alloc_array(p->n_buffers, sizeof(**root));
	if (!*root)
		return -ENOMEM;
	if (p->graph) {
		n = ta_graph_aliases(p->graph, p->buffers, *root);
	} else {
		for (i = 0; i < p->n_buffers; i++) {
			(*root)[i] = p->alias[i];
			n += p->alias[i] != i;
		}
	}
	if (joined)
		*joined = n;
	if (!n) {
		ta_env_free(*root);
		*root = NULL;
	}
	return 0;
}

/**
 * ta_plan_check() - ta_plan_validate() that says what is wrong
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims; at least max(offset + size) over
 *	    the non-empty buffers
 * @conflict: out: the first problem found (%TA_CONFLICT_NONE when the
 *	      plan is valid or the problem itself is malformed)
 *
 * Every offset must be a multiple of its buffer's alignment and end within
 * @height and at or below %TA_PLAN_MAX_HEIGHT (no plan is taller), and two
 * buffers whose lifetimes overlap must not share a byte, unless they are
 * one alias class (a graph's in-place ops, see ta_graph_aliases(), or a
 * trace's &ta_problem.alias) at the same offset, or, in a problem with
 * &ta_problem.fixed and no alias classes, one is contained in the other:
 * both at their fixed offsets, neither exportable, its bytes and lifetime
 * within the other's (ta_contain.c). O(n log n) time (plus the nesting's
 * walks), O(n) memory.
 *
 * Return: 0 when valid; -EINVAL otherwise (also for a malformed problem);
 * -ENOMEM; -EINTR when ta_env_yield() asked to stop.
 */
int ta_plan_check(const struct ta_problem *p, const u64 *offsets,
		  u64 height, struct ta_conflict *conflict)
{
	struct ta_work w;
	u32 *root;
	int ret;

	ta_conflict_set(conflict, TA_CONFLICT_NONE, 0, 0, 0);
	ta_work_init(&w, 0);
	ret = ta_check_problem(p, &w);
	if (ret)
		return ret == -ENOMEM || ret == -EINTR ? ret : -EINVAL;
	if (!p->n_buffers)
		return 0;
	if (!offsets)
		return -EINVAL;
	ret = ta_problem_roots(p, &root, NULL);
	if (ret)
		return ret;
	ret = ta_check_plan(p, offsets, NULL, root, height, conflict, &w);
	ta_env_free(root);
	return ret;
}

/**
 * ta_plan_validate() - check a plan: no live overlap, alignment, height
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims; must equal max(offset + size) over
 *	    the non-empty buffers (0 when there are none)
 *
 * As ta_plan_check(), which also says what is wrong, plus the exact height.
 *
 * Return: 0 when valid; -EINVAL otherwise (also for a malformed problem);
 * -ENOMEM; -EINTR when ta_env_yield() asked to stop.
 */
int ta_plan_validate(const struct ta_problem *p, const u64 *offsets,
		     u64 height)
{
	struct ta_conflict c;
	struct ta_work w;
	u64 top = 0;
	int ret;

	ret = ta_plan_check(p, offsets, height, &c);
	if (ret || !p->n_buffers)
		return ret ? ret : (height ? -EINVAL : 0);
	ta_work_init(&w, 0);
	ret = ta_check_offsets(p, offsets, NULL, height, &top, &c, &w);
	if (ret)
		return ret;
	return top == height ? 0 : -EINVAL;
}

typedef int (*ta_strategy_fn)(const struct ta_problem *p,
			      const struct ta_budget *budget, u64 *offsets,
			      struct ta_result *res, struct ta_work *w);

static const ta_strategy_fn ta_strategies[TA_STRATEGY_COUNT] = {
	[TA_STRATEGY_AUTO] = ta_plan_auto,
	[TA_STRATEGY_PINGPONG] = ta_plan_pingpong,
	[TA_STRATEGY_STACK] = ta_plan_stack,
	[TA_STRATEGY_FREELIST] = ta_plan_freelist,
	[TA_STRATEGY_GREEDY_SIZE] = ta_plan_greedy_size,
};

/* Lower bound, strategy, height: a validated problem without aliases. */
static int ta_plan_run(const struct ta_problem *p, enum ta_strategy strategy,
		       const struct ta_budget *budget, u64 *offsets,
		       struct ta_result *res, struct ta_work *w)
{
	int ret;

	ret = ta_sweep_lower_bound(p->buffers, p->n_buffers,
				   &res->lower_bound, w);
	if (ret)
		return ret;
	if (p->n_buffers) {
		ret = ta_strategies[strategy](p, budget, offsets, res, w);
		if (ret)
			return ret;
	}
	return ta_plan_finish(p, offsets, res);
}

/*
 * A graph whose in-place ops alias tensors (@root, @joined of them): plan
 * the merged graph (ta_alias_merge()), then give each member its class's
 * offset.
 */
static int ta_plan_aliased(const struct ta_problem *p,
			   enum ta_strategy strategy,
			   const struct ta_budget *budget, u64 *offsets,
			   struct ta_result *res, const u32 *root, u32 joined,
			   struct ta_work *w)
{
	struct ta_problem mp = { 0 };
	struct ta_merged mg;
	u64 *moff;
	u32 i;
	int ret;

	ret = ta_merged_build(p, root, &mg, w);
	if (ret)
		return ret;
	moff = ta_env_alloc_array(mg.g.n_tensors, sizeof(*moff));
	if (!moff) {
		ret = -ENOMEM;
		goto free_merged;
	}
	mp.n_buffers = mg.g.n_tensors;
	mp.buffers = mg.bufs;
	mp.graph = mg.graph;
	ret = ta_plan_run(&mp, strategy, budget, moff, res, w);
	if (!ret) {
		for (i = 0; i < p->n_buffers; i++)
			offsets[i] = p->buffers[i].size ? moff[mg.cls[i]] : 0;
		res->n_aliased = joined;
	}
	ta_env_free(moff);
free_merged:
	ta_merged_free(&mg);
	return ret;
}

/**
 * ta_plan_solve() - plan a problem with one strategy
 * @p: the problem (validated here: sizes, alignments, lifetimes, limits;
 *     for graph form, the buffers must be ta_graph_lifetimes() of the graph)
 * @strategy: which strategy
 * @budget: effort limits passed to the strategy, or NULL for its defaults
 * @offsets: out, @p->n_buffers offsets (may be NULL when there are none)
 * @res: out, the figures
 *
 * Zero-size buffers get offset 0. res->optimal is set when the height
 * equals the lower bound or the strategy proved its plan optimal. A graph
 * whose %TA_OP_INPLACE ops alias tensors (ta_graph_aliases()) is planned
 * with each alias class as one buffer: its members get one offset, the
 * lower bound is that of the aliased graph and res->n_aliased counts the
 * members that share. %TA_STRATEGY_FIXED takes @p->fixed (which must be
 * set with it and only with it) and fails with -EINVAL and res->conflict
 * set when those offsets break a rule. Built with TA_PLAN_DEBUG, every
 * plan is checked with ta_plan_check() and a plan that fails (a planner
 * bug) makes ta_plan_solve() return -EINVAL.
 *
 * Return: 0; -EINVAL for a malformed problem or unknown strategy; -E2BIG
 * beyond the limits; -EOVERFLOW when the lower bound or the strategy's
 * height would not fit in 63 bits; -ENOMEM; -EINTR when ta_env_yield()
 * asked to stop (in the kernel: a signal is pending); -ETIMEDOUT when
 * @budget->limit_ns ran out before the strategy had a complete plan (an
 * anytime strategy that has one returns it instead, with 0).
 *
 * Every loop counts its work and calls ta_env_yield() every few thousand
 * units; @budget->limit_ns, when set, bounds the whole call, validation
 * included, checked at the same points.
 */
int ta_plan_solve(const struct ta_problem *p, enum ta_strategy strategy,
		  const struct ta_budget *budget, u64 *offsets,
		  struct ta_result *res)
{
	u64 t0 = ta_env_now_ns();
	u32 *root, joined = 0;
	struct ta_work w;
	bool is_fixed;
	int ret;

	if (!res)
		return -EINVAL;
	res->height = 0;
	res->lower_bound = 0;
	res->time_ns = 0;
	res->steps = 0;
	res->search_bytes = 0;
	res->optimal = false;
	res->n_aliased = 0;
	res->conflict.kind = TA_CONFLICT_NONE;
	if (strategy != TA_STRATEGY_FIXED &&
	    (unsigned int)strategy >= TA_STRATEGY_COUNT)
		return -EINVAL;
	ta_work_init(&w, budget ? budget->limit_ns : 0);
	ret = ta_check_problem(p, &w);
	if (ret)
		return ret;
	is_fixed = strategy == TA_STRATEGY_FIXED;
	if ((p->n_buffers && !offsets) || is_fixed != !!p->fixed ||
	    (p->fixed_height && !p->fixed) ||
	    p->fixed_height > TA_PLAN_MAX_HEIGHT)
		return -EINVAL;
	ret = ta_problem_roots(p, &root, &joined);
	if (ret)
		return ret;
	if (strategy == TA_STRATEGY_FIXED)
		ret = ta_plan_fixed(p, offsets, res, root, &w);
	else if (root)
		ret = ta_plan_aliased(p, strategy, budget, offsets, res, root,
				      joined, &w);
	else
		ret = ta_plan_run(p, strategy, budget, offsets, res, &w);
	ta_env_free(root);
	if (ret)
		return ret;
#ifdef TA_PLAN_DEBUG
	{
		struct ta_conflict c;

		ret = ta_plan_check(p, offsets, res->height, &c);
		if (ret)
			return ret == -ENOMEM || ret == -EINTR ? ret : -EINVAL;
	}
#endif
	res->time_ns = ta_env_now_ns() - t0;
	return 0;
}

/**
 * ta_problem_lower_bound() - a height no plan can go below
 * @p: the problem
 * @lower_bound: out
 *
 * The alignment-aware bound of ta_sweep_lower_bound(). For a graph whose
 * in-place ops alias tensors, an alias class counts once, with the largest
 * alignment of its members (see ta_graph_aliases()): the bound ta_plan_solve()
 * reports, and a plan at it is optimal. With &ta_problem.fixed (and no
 * alias classes), the fixed tensors contained in others are left out: they
 * take no byte of their own (ta_contain_lower_bound()).
 *
 * Return: 0; -EINVAL or -E2BIG for a bad problem (as ta_plan_solve()); -ENOMEM;
 * -EOVERFLOW when the bound would not fit in 63 bits; -EINTR when
 * ta_env_yield() asked to stop.
 */
int ta_problem_lower_bound(const struct ta_problem *p, u64 *lower_bound)
{
	struct ta_work w;
	u32 *root;
	int ret;

	if (!lower_bound)
		return -EINVAL;
	*lower_bound = 0;
	ta_work_init(&w, 0);
	ret = p && p->graph ? ta_check_problem(p, &w) : ta_check_buffers(p, &w);
	if (ret)
		return ret;
	ret = ta_problem_roots(p, &root, NULL);
	if (ret)
		return ret;
	if (root)
		ret = ta_alias_lower_bound(p, root, lower_bound, &w);
	else
		ret = ta_contain_lower_bound(p, lower_bound, &w);
	ta_env_free(root);
	return ret;
}
