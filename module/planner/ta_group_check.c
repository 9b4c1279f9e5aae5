// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_group_check.c - the group validator, ta_group_check() (ta_group.h).
 *
 * Independent of the strategies: it takes the group's tensors from
 * ta_group_layout() alone and checks, per tensor, its alignment, that it
 * ends within the height and that it sits at its root's offset; then, over
 * the roots with bytes:
 *  - a sweep in address order, keeping the highest end so far of every
 *    root, of the always-live ones and of each lane's others, finds any
 *    root that shares a byte with an always-live one or with one of
 *    another lane (the pair is the later root and the one that ends
 *    highest before it: if any earlier root reaches into it, that one
 *    does);
 *  - within a lane, the roots that are not always live form a trace
 *    problem, which ta_plan_check()'s interval sweep checks.
 * O(n log n) in the tensors.
 */
#include "ta_group.h"
#include "ta_plan_helpers.h"

struct ta_group_rank {
	u64 offset;
	u32 index;
};

/* The highest end so far of a set of roots, and whose it is. */
struct ta_group_reach {
	u64 end;
	u32 index;
};

static int ta_cmp_group_rank(const void *a, const void *b)
{
	const struct ta_group_rank *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int ta_group_conflict(struct ta_conflict *c, u32 kind, u32 a, u32 b,
			     u32 step)
{
	c->kind = kind;
	c->a = a < b ? a : b;
	c->b = a < b ? b : a;
	c->step = step;
	return -EINVAL;
}

/* Alignment, height and root offset of every tensor. */
static int ta_group_check_tensors(const struct ta_group_buffer *gb, u32 n,
				  const u64 *offsets, u64 height,
				  struct ta_conflict *c)
{
	u32 i;

	for (i = 0; i < n; i++) {
		const struct ta_group_buffer *b = &gb[i];
		u64 off = offsets[i];

		if (off != offsets[b->root])
			return ta_group_conflict(c, TA_CONFLICT_OVERLAP,
						 b->root, i, b->start);
		if (off & (b->align - 1))
			return ta_group_conflict(c, TA_CONFLICT_ALIGN, i, i, 0);
		if (b->size && (off > TA_PLAN_MAX_HEIGHT ||
				b->size > TA_PLAN_MAX_HEIGHT - off ||
				off + b->size > height))
			return ta_group_conflict(c, TA_CONFLICT_HEIGHT, i, i, 0);
	}
	return 0;
}

static void ta_group_reach(struct ta_group_reach *r, u64 end, u32 index)
{
	if (end > r->end) {
		r->end = end;
		r->index = index;
	}
}

/* Always-live roots against every root, lanes against each other. */
static int ta_group_check_sweep(const struct ta_group_buffer *gb,
				const u64 *offsets, struct ta_group_rank *rk,
				u32 m, struct ta_conflict *c)
{
	struct ta_group_reach lane[TA_GROUP_MAX_LANES] = { 0 };
	struct ta_group_reach all = { 0 }, always = { 0 };
	u32 k, l;

	ta_env_sort(rk, m, sizeof(*rk), ta_cmp_group_rank);
	for (k = 0; k < m; k++) {
		u32 i = rk[k].index;
		const struct ta_group_buffer *b = &gb[i];
		u64 off = offsets[i];

		if (b->always && all.end > off)
			return ta_group_conflict(c, TA_CONFLICT_OVERLAP, i,
						 all.index, 0);
		if (!b->always && always.end > off)
			return ta_group_conflict(c, TA_CONFLICT_OVERLAP, i,
						 always.index, 0);
		for (l = 0; !b->always && l < TA_GROUP_MAX_LANES; l++)
			if (l != b->lane && lane[l].end > off)
				return ta_group_conflict(c, TA_CONFLICT_OVERLAP,
							 i, lane[l].index,
							 b->start);
		ta_group_reach(&all, off + b->size, i);
		if (b->always)
			ta_group_reach(&always, off + b->size, i);
		else
			ta_group_reach(&lane[b->lane], off + b->size, i);
		if (!(k & 4095) && ta_env_yield())
			return -EINTR;
	}
	return 0;
}

/* Within lane @l, the roots that are not always live: a trace. */
static int ta_group_check_lane(const struct ta_group_buffer *gb, u32 n,
			       const u64 *offsets, u64 height, u32 l,
			       struct ta_buffer *tb, u64 *to, u32 *idx,
			       struct ta_conflict *c)
{
	struct ta_problem p = { 0 };
	struct ta_conflict lc;
	u32 i, m = 0;
	int ret;

	for (i = 0; i < n; i++) {
		const struct ta_group_buffer *b = &gb[i];

		if (b->root != i || b->always || !b->size || b->lane != l)
			continue;
		tb[m].size = b->size;
		tb[m].align = b->align;
		tb[m].start = b->start;
		tb[m].end = b->end;
		to[m] = offsets[i];
		idx[m++] = i;
	}
	if (!m)
		return 0;
	p.n_buffers = m;
	p.buffers = tb;
	ret = ta_plan_check(&p, to, height, &lc);
	if (ret == -EINVAL && lc.kind != TA_CONFLICT_NONE)
		return ta_group_conflict(c, lc.kind, idx[lc.a], idx[lc.b],
					 lc.step);
	return ret;
}

/**
 * ta_group_check() - the validator: does a group plan hold?
 * @gp: the group
 * @offsets: ta_group_tensor_count() offsets
 * @height: every tensor must end within it
 * @conflict: out, the first broken rule (group-wide indices)
 *
 * Independent of the strategies: from ta_group_layout() alone, checks
 * alignment, the height, that the tensors of one root share its offset
 * (a tensor that does not is reported as %TA_CONFLICT_OVERLAP of it and
 * its root), and that no two conflicting roots (&struct ta_group_buffer)
 * share a byte. A conflict between lanes or with an always-live root
 * reports step 0 or the later root's start in its lane. O(n log n) in the
 * tensors.
 *
 * Return: 0; -EINVAL with @conflict filled in (%TA_CONFLICT_NONE when the
 * group itself is malformed); errors of ta_group_layout().
 */
int ta_group_check(const struct ta_group_problem *gp, const u64 *offsets,
		   u64 height, struct ta_conflict *conflict)
{
	struct ta_group_buffer *gb = NULL;
	struct ta_group_rank *rk = NULL;
	struct ta_buffer *tb = NULL;
	u64 *to = NULL;
	u32 *idx = NULL;
	u32 i, n, m = 0;
	int ret;

	if (!conflict)
		return -EINVAL;
	conflict->kind = TA_CONFLICT_NONE;
	conflict->a = 0;
	conflict->b = 0;
	conflict->step = 0;
	if (!gp || !gp->n_members || gp->n_members > TA_GROUP_MAX_MEMBERS ||
	    !gp->members)
		return ta_group_layout(gp, NULL);
	n = ta_group_tensor_count(gp);
	if (!n)
		return ta_group_layout(gp, NULL);
	if (!offsets)
		return -EINVAL;
	gb = ta_env_alloc_array(n, sizeof(*gb));
	if (!gb)
		return -ENOMEM;
	ret = ta_group_layout(gp, gb);
	if (ret)
		goto free;
	ret = ta_group_check_tensors(gb, n, offsets, height, conflict);
	if (ret)
		goto free;
	ret = -ENOMEM;
	rk = ta_env_alloc_array(n, sizeof(*rk));
	tb = ta_env_alloc_array(n, sizeof(*tb));
	to = ta_env_alloc_array(n, sizeof(*to));
	idx = ta_env_alloc_array(n, sizeof(*idx));
	if (!rk || !tb || !to || !idx)
		goto free;
	for (i = 0; i < n; i++) {
		if (gb[i].root != i || !gb[i].size)
			continue;
		rk[m].offset = offsets[i];
		rk[m++].index = i;
	}
	ret = ta_group_check_sweep(gb, offsets, rk, m, conflict);
	for (i = 0; !ret && i < TA_GROUP_MAX_LANES; i++)
		ret = ta_group_check_lane(gb, n, offsets, height, i, tb, to,
					  idx, conflict);
free:
	ta_env_free(idx);
	ta_env_free(to);
	ta_env_free(tb);
	ta_env_free(rk);
	ta_env_free(gb);
	return ret;
}
