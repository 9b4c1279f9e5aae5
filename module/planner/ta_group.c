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

/* Lane @a goes below lane @b: larger alignment, then no padding after. */
static bool ta_group_lane_below(u32 a, u32 b, const u64 *align,
				const u64 *height)
{
	bool a_whole = !(height[a] & (align[a] - 1));
	bool b_whole = !(height[b] & (align[b] - 1));

	if (align[a] != align[b])
		return align[a] > align[b];
	if (a_whole != b_whole)
		return a_whole;
	return a < b;
}

/*
 * The planned lanes (@align non-zero) in stacking order: largest
 * alignment first, then those whose height leaves no padding above them,
 * so that the lanes' bases need the least. Return: how many, in @order.
 */
static u32 ta_group_lane_order(const u64 *align, const u64 *height,
			       u32 *order)
{
	u32 j, l, lanes = 0;

	for (l = 0; l < TA_GROUP_MAX_LANES; l++) {
		if (!align[l])
			continue;
		for (j = lanes; j && ta_group_lane_below(l, order[j - 1], align,
							 height); j--)
			order[j] = order[j - 1];
		order[j] = l;
		lanes++;
	}
	return lanes;
}

/*
 * Each lane planned with @strategy from 0 (offsets relative to its base,
 * its height and largest alignment in @height and @align), then the lanes
 * stacked from *@top.
 */
static int ta_group_plan_lanes(struct ta_group_ctx *x, u32 strategy,
			       const struct ta_budget *budget, u64 t0,
			       u64 *offsets, u64 *top, bool *optimal)
{
	u64 align[TA_GROUP_MAX_LANES], height[TA_GROUP_MAX_LANES];
	u64 base[TA_GROUP_MAX_LANES] = { 0 };
	u32 order[TA_GROUP_MAX_LANES], i, k, l, m, lanes = 0;
	struct ta_budget share;
	int ret;

	*optimal = true;
	for (l = 0; l < TA_GROUP_MAX_LANES; l++)
		lanes += !!ta_group_lane_trace(x, l, false, false);
	for (l = 0; l < TA_GROUP_MAX_LANES; l++) {
		struct ta_problem p = { 0 };
		struct ta_result r;
		bool late;

		align[l] = 0;
		height[l] = 0;
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
		for (k = 0; k < m; k++) {
			offsets[x->idx[k]] = x->tb[k].size ? x->to[k] : 0;
			if (x->tb[k].align > align[l])
				align[l] = x->tb[k].align;
		}
		height[l] = r.height;
		*optimal = *optimal && r.optimal;
	}
	lanes = ta_group_lane_order(align, height, order);
	for (i = 0; i < lanes; i++) {
		l = order[i];
		base[l] = ta_align_up(*top, align[l]);
		if (base[l] > TA_PLAN_MAX_HEIGHT ||
		    height[l] > TA_PLAN_MAX_HEIGHT - base[l])
			return -EOVERFLOW;
		if (height[l])
			*top = base[l] + height[l];
	}
	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (ta_group_in_lane(b, i, b->lane) && b->size)
			offsets[i] += base[b->lane];
	}
	return 0;
}

/*
 * Every tensor at its root's offset; the height; the final check, within
 * *@limit (NULL: the height).
 */
static int ta_group_finish(struct ta_group_ctx *x, u64 *offsets,
			   const u64 *limit, struct ta_group_result *res)
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
	return ta_group_check(x->gp, offsets, limit ? *limit : top,
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
		ret = ta_group_finish(&x, offsets, NULL, res);
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

static int ta_cmp_span(const void *a, const void *b)
{
	const struct ta_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * The bytes of the placed roots with bytes that a new root of lane @l
 * (every root for %TA_GROUP_MAX_LANES: a new always-live one) may not
 * share whatever the time: the always-live ones and those of the other
 * lanes, as merged spans in x->spans. Return: how many.
 */
static u32 ta_group_spans(struct ta_group_ctx *x, const u64 *offsets,
			  const u8 *placed, u32 l)
{
	u32 i, m = 0, k = 0;

	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (b->root != i || !placed[i] || !b->size ||
		    (l < TA_GROUP_MAX_LANES && !b->always && b->lane == l))
			continue;
		x->spans[m].lo = offsets[i];
		x->spans[m++].hi = offsets[i] + b->size;
	}
	ta_env_sort(x->spans, m, sizeof(*x->spans), ta_cmp_span);
	for (i = 0; i < m; i++) {
		if (k && x->spans[i].lo <= x->spans[k - 1].hi) {
			if (x->spans[i].hi > x->spans[k - 1].hi)
				x->spans[k - 1].hi = x->spans[i].hi;
			continue;
		}
		x->spans[k++] = x->spans[i];
	}
	return k;
}

/* Append a buffer to the fixed trace in x->tb, x->fix, x->idx. */
static void ta_group_push(struct ta_group_ctx *x, u32 *m, u64 size,
			  u64 align, u32 start, u32 end, u64 fix, u32 index)
{
	x->tb[*m].size = size;
	x->tb[*m].align = align;
	x->tb[*m].start = start;
	x->tb[*m].end = end;
	x->fix[*m] = fix;
	x->idx[(*m)++] = index;
}

/*
 * Place the unplaced roots of lane @l (%TA_GROUP_MAX_LANES: the
 * always-live ones) with %TA_STRATEGY_FIXED around the placed ones.
 */
static int ta_group_place_new(struct ta_group_ctx *x, u32 l, u64 *offsets,
			      u8 *placed, u64 capacity,
			      const struct ta_budget *budget)
{
	bool always = l == TA_GROUP_MAX_LANES;
	u32 len = always || !x->lane_len[l] ? 1 : x->lane_len[l];
	struct ta_problem p = { 0 };
	u32 i, k, m = 0, n_new = 0, n_spans;
	struct ta_result r;
	int ret;

	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (b->root != i || placed[i] ||
		    (always ? !b->always : !ta_group_in_lane(b, i, l)))
			continue;
		if (!b->size) {
			offsets[i] = 0;
			placed[i] = 1;
			continue;
		}
		n_new++;
	}
	if (!n_new)
		return 0;
	n_spans = ta_group_spans(x, offsets, placed, l);
	for (k = 0; k < n_spans; k++)
		ta_group_push(x, &m, x->spans[k].hi - x->spans[k].lo, 1, 0,
			      len, x->spans[k].lo, U32_MAX);
	for (i = 0; i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (always || !ta_group_in_lane(b, i, l) || !b->size)
			continue;
		/* this lane's roots, fixed or not, with their lifetimes */
		ta_group_push(x, &m, b->size, b->align, b->start, b->end,
			      placed[i] ? offsets[i] : TA_OFFSET_UNFIXED, i);
	}
	for (i = 0; always && i < x->n; i++) {
		const struct ta_group_buffer *b = &x->gb[i];

		if (b->root == i && b->always && !placed[i] && b->size)
			ta_group_push(x, &m, b->size, b->align, 0, 1,
				      TA_OFFSET_UNFIXED, i);
	}
	p.n_buffers = m;
	p.buffers = x->tb;
	p.fixed = x->fix;
	p.fixed_height = capacity;
	ret = ta_plan_solve(&p, TA_STRATEGY_FIXED, budget, x->to, &r);
	if (ret)
		return ret == -EINVAL ? -ENOSPC : ret;
	for (k = 0; k < m; k++) {
		if (x->idx[k] == U32_MAX || placed[x->idx[k]])
			continue;
		offsets[x->idx[k]] = x->to[k];
		placed[x->idx[k]] = 1;
	}
	return 0;
}

/*
 * The old tensors (of the first @n_old members): one offset per class,
 * each aligned to its own alignment and within @capacity with its own
 * size (a class a new link or key made larger is ta_group_place_new()'s
 * and the final check's to refuse, with -ENOSPC).
 */
static int ta_group_check_old(struct ta_group_ctx *x, u32 n_old,
			      const u64 *old_offsets, u64 capacity,
			      u64 *offsets, u8 *placed)
{
	u32 m, t, i = 0;

	for (m = 0; m < n_old; m++) {
		const struct ta_problem *p = &x->gp->members[m].problem;

		for (t = 0; t < p->n_buffers; t++, i++) {
			const struct ta_buffer *b = &p->buffers[t];
			u64 off = old_offsets[i];

			if (off > capacity || b->size > capacity - off)
				return -EINVAL;
			/*
			 * A new link or shared key that joins this tensor to
			 * another, or raises its alignment, asks an old
			 * tensor to move: it does not fit as it is.
			 */
			if (off != old_offsets[x->gb[i].root] ||
			    (off & (b->align - 1)))
				return -ENOSPC;
			offsets[i] = off;
			placed[i] = x->gb[i].root == i;
		}
	}
	return 0;
}

/**
 * ta_group_extend() - place new members in a planned group, moving nothing
 * @gp: the group with its new members last
 * @n_old: members of @gp already planned (the first @n_old)
 * @old_offsets: their tensors' offsets (group-wide indices, which the
 *		 first @n_old members keep)
 * @capacity: bytes of the slice: every tensor must end within it
 * @strategy: %TA_STRATEGY_* as for ta_group_solve(), which plans the group
 *	      when @n_old is 0; the new tensors are otherwise placed around
 *	      the old ones by %TA_STRATEGY_FIXED's greedy placement
 * @budget: budget, or NULL
 * @offsets: out, ta_group_tensor_count() offsets: @old_offsets unchanged,
 *	     then the new members'
 * @res: out; @res->height is the group's new height (the highest end of
 *	 a tensor, at most @capacity), @res->lower_bound the group's
 *
 * The new always-live roots are placed first, around the bytes of every
 * old root; then each lane's new roots around its old roots (over their
 * lifetimes) and the bytes of every always-live root and every root of
 * another lane. A new link or shared key that joins an old tensor to a
 * new one keeps the old offset (the class's root is the old tensor); if
 * the class's larger size, alignment or longer life then meets another
 * old tensor the call fails with -ENOSPC. The result passes
 * ta_group_check() with @capacity.
 *
 * Return: 0; -ENOSPC when the new members do not fit within @capacity
 * around what may be live beside them; -EINVAL for a bad @strategy,
 * @n_old above @gp->n_members or old offsets that are misaligned, above
 * @capacity or not one per class; errors of ta_group_layout().
 */
int ta_group_extend(const struct ta_group_problem *gp, u32 n_old,
		    const u64 *old_offsets, u64 capacity, u32 strategy,
		    const struct ta_budget *budget, u64 *offsets,
		    struct ta_group_result *res)
{
	u64 t0 = ta_env_now_ns(), top = 0;
	struct ta_group_ctx x;
	u32 i, n_old_tensors;
	u8 *placed = NULL;
	int ret;

	if (!res)
		return -EINVAL;
	ta_group_result_init(res);
	if (!ta_group_strategy_ok(strategy) || !gp || n_old > gp->n_members)
		return -EINVAL;
	if (capacity > TA_PLAN_MAX_HEIGHT)
		capacity = TA_PLAN_MAX_HEIGHT;
	if (!n_old) {
		ret = ta_group_solve(gp, strategy, budget, offsets, res);
		return !ret && res->height > capacity ? -ENOSPC : ret;
	}
	ret = ta_group_ctx_init(&x, gp);
	if (ret)
		return ret;
	n_old_tensors = ta_group_index(gp, n_old, 0);
	ret = -EINVAL;
	if (x.n && (!offsets || (n_old_tensors && !old_offsets)))
		goto free;
	ret = -ENOMEM;
	placed = ta_env_alloc_array(x.n ? x.n : 1, sizeof(*placed));
	if (!placed)
		goto free;
	ret = ta_group_check_old(&x, n_old, old_offsets, capacity,
				 offsets, placed);
	for (i = 0; !ret && i <= TA_GROUP_MAX_LANES; i++)
		ret = ta_group_place_new(&x, i ? i - 1 : TA_GROUP_MAX_LANES,
					 offsets, placed, capacity, budget);
	if (!ret)
		ret = ta_group_bound(&x, &res->lower_bound);
	if (!ret) {
		ret = ta_group_finish(&x, offsets, &capacity, res);
		if (ret == -EINVAL)
			ret = -ENOSPC;
	}
	if (ret)
		goto free;
	top = res->height;
	res->optimal = top == res->lower_bound;
	res->time_ns = ta_env_now_ns() - t0;
free:
	ta_env_free(placed);
	ta_group_ctx_free(&x);
	return ret;
}
