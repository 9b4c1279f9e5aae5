// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_group.c - planning a group: ta_group_solve() and ta_group_extend()
 * (ta_group.h).
 *
 * Solve: the always-live roots of ta_group_layout() are stacked at the
 * bottom (largest alignment first, so that they need no padding between
 * them); each lane's other roots are one trace problem, planned with the
 * caller's strategy by ta_plan_solve() on a share of the budget; the lanes
 * are stacked above the always-live region and each other, each at an
 * offset aligned to its largest alignment. Members of one lane share bytes
 * wherever their windows of time do not meet.
 *
 * Extend: the old offsets stay; the new always-live roots are placed
 * around every old root's bytes (one step, the old bytes as fixed spans),
 * then each lane's new roots around the old roots of their lane (with their
 * lifetimes) and the bytes of every always-live root and every root of the
 * other lanes (fixed spans over the whole lane), each with
 * %TA_STRATEGY_FIXED under the capacity.
 *
 * Every plan is checked by ta_group_check() before it is returned.
 */
#include "ta_group.h"
#include "ta_plan_helpers.h"

/* Scratch of one planning call. */
struct ta_group_ctx {
	const struct ta_group_problem *gp;
	struct ta_group_buffer *gb;
	u32 n;
	u32 lane_len[TA_GROUP_MAX_LANES];
	struct ta_buffer *tb;
	u64 *to;
	u64 *fix;
	u32 *idx;
	struct ta_span *spans;
};

static void ta_group_ctx_free(struct ta_group_ctx *x)
{
	ta_env_free(x->spans);
	ta_env_free(x->idx);
	ta_env_free(x->fix);
	ta_env_free(x->to);
	ta_env_free(x->tb);
	ta_env_free(x->gb);
}

/* Layout and scratch for @gp: room for every tensor plus as many spans. */
static int ta_group_ctx_init(struct ta_group_ctx *x,
			     const struct ta_group_problem *gp)
{
	u32 i, m;
	int ret;

	memset(x, 0, sizeof(*x));
	x->gp = gp;
	if (!gp || !gp->n_members || gp->n_members > TA_GROUP_MAX_MEMBERS ||
	    !gp->members)
		return ta_group_layout(gp, NULL);
	x->n = ta_group_tensor_count(gp);
	m = 2 * x->n + 2;
	x->gb = ta_env_alloc_array(x->n ? x->n : 1, sizeof(*x->gb));
	x->tb = ta_env_alloc_array(m, sizeof(*x->tb));
	x->to = ta_env_alloc_array(m, sizeof(*x->to));
	x->fix = ta_env_alloc_array(m, sizeof(*x->fix));
	x->idx = ta_env_alloc_array(m, sizeof(*x->idx));
	x->spans = ta_env_alloc_array(m, sizeof(*x->spans));
	if (!x->gb || !x->tb || !x->to || !x->fix || !x->idx || !x->spans) {
		ta_group_ctx_free(x);
		return -ENOMEM;
	}
	ret = ta_group_layout(gp, x->gb);
	if (ret) {
		ta_group_ctx_free(x);
		return ret;
	}
	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (!b->always && b->end > x->lane_len[b->lane])
			x->lane_len[b->lane] = b->end;
	}
	return 0;
}

static bool ta_group_strategy_ok(u32 strategy)
{
	return strategy < TA_STRATEGY_COUNT && strategy != TA_STRATEGY_PINGPONG;
}

static void ta_group_result_init(struct ta_group_result *res)
{
	memset(res, 0, sizeof(*res));
}

/* Root @i of lane @l that a lane's trace plans. */
static bool ta_group_in_lane(const struct ta_group_buffer *b, u32 i, u32 l)
{
	return b->root == i && !b->always && b->lane == l;
}

/*
 * Lane @l's roots as a trace in x->tb (x->idx their group-wide indices),
 * plus, with @always, the always-live roots over the whole lane; with
 * @bytes_only, every alignment 1. Return: the number of buffers.
 */
static u32 ta_group_lane_trace(struct ta_group_ctx *x, u32 l, bool always,
			       bool bytes_only)
{
	u32 i, m = 0, len = x->lane_len[l] ? x->lane_len[l] : 1;

	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];
		struct ta_buffer *t = &x->tb[m];

		if (b->root != i || !(ta_group_in_lane(b, i, l) ||
				      (always && b->always)))
			continue;
		t->size = b->size;
		t->align = bytes_only ? 1 : b->align;
		t->start = b->always ? 0 : b->start;
		t->end = b->always ? len : b->end;
		x->idx[m++] = i;
	}
	return m;
}

/* Lower bound of a trace in x->tb. */
static int ta_group_trace_bound(struct ta_group_ctx *x, u32 m, u64 *lb)
{
	struct ta_problem p = { .n_buffers = m, .buffers = x->tb };

	*lb = 0;
	return m ? ta_problem_lower_bound(&p, lb) : 0;
}

/*
 * No plan of the group is lower than the bytes of the always-live roots
 * plus, per lane, its most bytes live at one step (those are all live at
 * once, pairwise conflicting), nor than the alignment-aware bound of one
 * lane with the always-live roots.
 */
static int ta_group_bound(struct ta_group_ctx *x, u64 *lb)
{
	u64 sum = 0, always = 0, one;
	u32 i, l, m;
	int ret;

	*lb = 0;
	for (i = 0; i < x->n; i++)
		if (x->gb[i].root == i && x->gb[i].always)
			always += x->gb[i].size;
	for (l = 0; l < TA_GROUP_MAX_LANES; l++) {
		m = ta_group_lane_trace(x, l, false, true);
		ret = ta_group_trace_bound(x, m, &one);
		if (ret)
			return ret;
		sum += one;
		m = ta_group_lane_trace(x, l, true, false);
		ret = ta_group_trace_bound(x, m, &one);
		if (ret)
			return ret;
		if (one > *lb)
			*lb = one;
	}
	if (always + sum > *lb)
		*lb = always + sum;
	return 0;
}

struct ta_group_always {
	u64 align;
	u64 size;
	u32 index;
};

static int ta_cmp_always(const void *a, const void *b)
{
	const struct ta_group_always *x = a, *y = b;

	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The always-live roots stacked from 0; *@top is where they end. */
static int ta_group_place_always(struct ta_group_ctx *x, u64 *offsets,
				 u64 *top)
{
	struct ta_group_always *a;
	u32 i, m = 0;

	*top = 0;
	a = ta_env_alloc_array(x->n ? x->n : 1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (b->root != i || !b->always)
			continue;
		if (!b->size) {
			offsets[i] = 0;
			continue;
		}
		a[m].align = b->align;
		a[m].size = b->size;
		a[m++].index = i;
	}
	ta_env_sort(a, m, sizeof(*a), ta_cmp_always);
	for (i = 0; i < m; i++) {
		u64 off = ta_align_up(*top, a[i].align);

		offsets[a[i].index] = off;
		*top = off + a[i].size;
	}
	ta_env_free(a);
	return 0;
}

/* Lane @l's share of the budget: 1/@share of the time and steps. */
static void ta_group_share(const struct ta_budget *budget, u32 share,
			   u64 t0, struct ta_budget *out, bool *late)
{
	u64 spent = ta_env_now_ns() - t0;

	*late = false;
	out->time_ns = budget->time_ns / share;
	out->steps = budget->steps / share;
	out->limit_ns = 0;
	if (budget->limit_ns) {
		*late = spent >= budget->limit_ns;
		out->limit_ns = budget->limit_ns - spent;
	}
}

/* Each lane planned with @strategy, stacked from *@top. */
static int ta_group_plan_lanes(struct ta_group_ctx *x, u32 strategy,
			       const struct ta_budget *budget, u64 t0,
			       u64 *offsets, u64 *top, bool *optimal)
{
	u32 l, k, m, lanes = 0;
	struct ta_budget share;
	int ret;

	*optimal = true;
	for (l = 0; l < TA_GROUP_MAX_LANES; l++)
		lanes += !!ta_group_lane_trace(x, l, false, false);
	for (l = 0; l < TA_GROUP_MAX_LANES; l++) {
		struct ta_problem p = { 0 };
		struct ta_result r;
		u64 base, align = 1;
		bool late;

		m = ta_group_lane_trace(x, l, false, false);
		if (!m)
			continue;
		if (budget) {
			ta_group_share(budget, lanes, t0, &share, &late);
			if (late)
				return -ETIMEDOUT;
		}
		p.n_buffers = m;
		p.buffers = x->tb;
		ret = ta_plan_solve(&p, strategy, budget ? &share : NULL,
				    x->to, &r);
		if (ret)
			return ret;
		for (k = 0; k < m; k++)
			if (x->tb[k].align > align)
				align = x->tb[k].align;
		base = ta_align_up(*top, align);
		if (base > TA_PLAN_MAX_HEIGHT ||
		    r.height > TA_PLAN_MAX_HEIGHT - base)
			return -EOVERFLOW;
		for (k = 0; k < m; k++)
			offsets[x->idx[k]] = x->tb[k].size ? base + x->to[k] : 0;
		if (r.height)
			*top = base + r.height;
		*optimal = *optimal && r.optimal;
	}
	return 0;
}

/* Every tensor at its root's offset; the height; the final check. */
static int ta_group_finish(struct ta_group_ctx *x, u64 *offsets,
			   u64 limit, struct ta_group_result *res)
{
	u64 top = 0;
	u32 i;

	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		offsets[i] = offsets[b->root];
		if (b->size && offsets[i] + b->size > top)
			top = offsets[i] + b->size;
	}
	res->height = top;
	return ta_group_check(x->gp, offsets, limit ? limit : top,
			      &res->conflict);
}

/**
 * ta_group_solve() - plan a group
 * @gp: the group
 * @strategy: %TA_STRATEGY_* (not FIXED or PINGPONG: -EINVAL)
 * @budget: the whole group's budget, or NULL; each lane gets an even
 *	    share of its time and steps, and &ta_budget.limit_ns caps the
 *	    whole call
 * @offsets: out, ta_group_tensor_count() offsets from the group's slice,
 *	     group-wide indices
 * @res: out
 *
 * Every lane is planned with @strategy and the lanes and the always-live
 * tensors get disjoint bytes. The plan passes ta_group_check().
 * @res->lower_bound is the larger of the always-live bytes plus every
 * lane's peak of bytes and the alignment-aware bound of each lane with
 * the always-live tensors; @res->optimal is set when the height is that
 * bound, or when one lane and nothing always-live make the group that
 * lane's problem and its plan was optimal.
 *
 * Return: 0, or an error of ta_group_layout() or ta_plan_solve();
 * -EOVERFLOW when the height would not fit in 63 bits; -ETIMEDOUT.
 */
int ta_group_solve(const struct ta_group_problem *gp, u32 strategy,
		   const struct ta_budget *budget, u64 *offsets,
		   struct ta_group_result *res)
{
	u64 t0 = ta_env_now_ns(), top, always_top;
	struct ta_group_ctx x;
	bool optimal;
	u32 l, lanes = 0;
	int ret;

	if (!res)
		return -EINVAL;
	ta_group_result_init(res);
	if (!ta_group_strategy_ok(strategy))
		return -EINVAL;
	ret = ta_group_ctx_init(&x, gp);
	if (ret)
		return ret;
	if (x.n && !offsets) {
		ret = -EINVAL;
		goto free;
	}
	ret = ta_group_place_always(&x, offsets, &top);
	always_top = top;
	if (!ret)
		ret = ta_group_plan_lanes(&x, strategy, budget, t0, offsets,
					  &top, &optimal);
	if (!ret)
		ret = ta_group_bound(&x, &res->lower_bound);
	if (!ret)
		ret = ta_group_finish(&x, offsets, 0, res);
	if (ret)
		goto free;
	for (l = 0; l < TA_GROUP_MAX_LANES; l++)
		lanes += !!ta_group_lane_trace(&x, l, false, false);
	res->optimal = res->height == res->lower_bound ||
		       (optimal && lanes <= 1 && !always_top);
	res->time_ns = ta_env_now_ns() - t0;
free:
	ta_group_ctx_free(&x);
	return ret;
}

/**
 * ta_group_extend() - place new members in a planned group, moving nothing
 * @gp: the group with its new members last
 * @n_old: members of @gp already planned (the first @n_old)
 * @old_offsets: their tensors' offsets
 * @capacity: bytes of the slice
 * @strategy: how to place the new members' tensors
 * @budget: budget
 * @offsets: out, ta_group_tensor_count() offsets
 * @res: out
 *
 * Not yet implemented.
 *
 * Return: -EOPNOTSUPP.
 */
int ta_group_extend(const struct ta_group_problem *gp, u32 n_old,
		    const u64 *old_offsets, u64 capacity, u32 strategy,
		    const struct ta_budget *budget, u64 *offsets,
		    struct ta_group_result *res)
{
	(void)gp;
	(void)n_old;
	(void)old_offsets;
	(void)capacity;
	(void)strategy;
	(void)budget;
	(void)offsets;
	(void)res;
	return -EOPNOTSUPP;
}
