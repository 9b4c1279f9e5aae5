// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_parts.c - the search, part by part. Where no buffer is live
 * across some moment, the buffers before it and those after it are two
 * problems that share nothing but the height: the plan's height is the
 * highest of theirs. Searched as one, a failure in a later part sends the
 * search back through the choices of an earlier one, and a restart loses
 * the parts it had solved; searched apart, each costs what it costs alone.
 *
 * The parts take turns: each one not yet at the height to beat (the lower
 * bound, or a part proven optimal above it) gets an equal share of what is
 * left of the budget, so the easy ones are done in a few milliseconds and
 * what they leave goes to the hard ones; then the parts still above share
 * the rest. The plan is proven optimal when its height is at the lower
 * bound, or when the search proves optimal the part that sets it.
 */
#include "ta_search_state.h"

/* A buffer of positive size, in the order of the parts. */
struct ta_search_part_item {
	u32 start;
	u32 end;
	u32 idx;	/* in the problem */
};

/* A part: items [first, end) in the sorted order, and its plan's height. */
struct ta_search_part {
	u32 first;
	u32 end;
	u64 height;
	bool proven;	/* optimal on its own */
	bool stuck;	/* the search can do no more without more budget */
};

static int ta_search_part_cmp(const void *a, const void *b)
{
	const struct ta_search_part_item *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Cut the buffers of @p into parts: sort them by start, a new part begins
 * at a buffer that starts when (or after) every buffer before it ended.
 * Return: the count of parts; @items sorted, @parts filled when not NULL.
 */
static u32 ta_search_cut(const struct ta_problem *p, u32 m,
			 struct ta_search_part_item *items,
			 struct ta_search_part *parts, const u64 *offsets)
{
	u32 i, np = 0, last_end = 0;

	for (i = 0; i < m; i++) {
		const struct ta_buffer *b = &p->buffers[items[i].idx];
		u64 top = offsets[items[i].idx] + b->size;

		if (!i || items[i].start >= last_end) {
			if (parts) {
				if (np)
					parts[np - 1].end = i;
				parts[np].first = i;
				parts[np].height = 0;
			}
			np++;
			last_end = 0;
		}
		if (items[i].end > last_end)
			last_end = items[i].end;
		if (parts && top > parts[np - 1].height)
			parts[np - 1].height = top;
	}
	if (parts && np)
		parts[np - 1].end = m;
	return np;
}

/*
 * Search part @k of @parts down to @goal with the limits @lim, shared by
 * @turns parts still to go this round: it gets that share of the time and
 * of the steps left. Return: 0, -E2BIG (the part is left as it is), or
 * -errno.
 */
static int ta_search_part(const struct ta_problem *p, u64 goal,
			  struct ta_search_limits *lim, u32 turns,
			  u64 *offsets, const struct ta_search_part_item *items,
			  struct ta_search_part *pk, struct ta_buffer *sub,
			  u64 *sub_offsets, u64 reserved, u32 slabs)
{
	struct ta_problem sp = { .n_buffers = pk->end - pk->first,
				 .buffers = sub };
	struct ta_search_limits share = ta_search_limits_share(lim, turns);
	u64 target, h = pk->height;
	bool proven = false;
	u32 i;
	int ret;

	for (i = 0; i < sp.n_buffers; i++) {
		u32 idx = items[pk->first + i].idx;

		sub[i] = p->buffers[idx];
		sub_offsets[i] = offsets[idx];
	}
	/* a canonical plan's height is a multiple of the part's granule */
	target = goal & ~(ta_search_granule(&sp) - 1);
	ret = ta_search_one(&sp, target, &share, sub_offsets, &h, &proven,
			    reserved, slabs);
	ta_search_limits_spent(lim, &share);
	if (ret)
		return ret;
	for (i = 0; i < sp.n_buffers; i++)
		offsets[items[pk->first + i].idx] = sub_offsets[i];
	pk->height = h;
	/* proven above the target: no plan of the part is lower */
	pk->proven = proven && h > target;
	/* short of the target with time left: as low as it can prove */
	pk->stuck = !proven && !share.timed_out;
	return 0;
}

/*
 * The height to beat: the lower bound, or the highest part proven optimal
 * above it; and how many parts are above that and may still come down.
 */
static u64 ta_search_goal(const struct ta_search_part *parts, u32 np,
			  u64 lower_bound, u32 *open)
{
	u64 goal = lower_bound;
	u32 i;

	for (i = 0; i < np; i++)
		if (parts[i].proven && parts[i].height > goal)
			goal = parts[i].height;
	*open = 0;
	for (i = 0; i < np; i++)
		if (parts[i].height > goal && !parts[i].stuck)
			++*open;
	return goal;
}

/**
 * ta_search_parts() - ta_search_skyline() part by part, when @p has parts
 * @p: the problem (validated)
 * @lower_bound: its lower bound
 * @lim: effort limits
 * @offsets: in, a valid plan; out, the best plan found
 * @height: in, its height; out, the best height found
 * @proven: out, true when @height is proven optimal
 * @reserved: memory the caller holds, as for ta_search_whole()
 * @slabs: each part may first take a slab off (ta_search_one())
 *
 * Return: 1 when @p is one part (nothing done), else as
 * ta_search_skyline().
 */
int ta_search_parts(const struct ta_problem *p, u64 lower_bound,
		    struct ta_search_limits *lim, u64 *offsets, u64 *height,
		    bool *proven, u64 reserved, u32 slabs)
{
	struct ta_search_part_item *items;
	struct ta_search_part *parts = NULL;
	struct ta_buffer *sub = NULL;
	u64 *sub_offsets = NULL, h, goal;
	u32 i, m = 0, np, open;
	int ret;

	*proven = false;
	items = ta_env_alloc_array(p->n_buffers + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (i = 0; i < p->n_buffers; i++) {
		if (!p->buffers[i].size)
			continue;
		items[m].start = p->buffers[i].start;
		items[m].end = p->buffers[i].end;
		items[m++].idx = i;
	}
	ta_env_sort(items, m, sizeof(*items), ta_search_part_cmp);
	np = ta_search_cut(p, m, items, NULL, offsets);
	ret = 1;
	if (np < 2)
		goto free_items;
	ret = -ENOMEM;
	parts = ta_env_alloc_array(np, sizeof(*parts));
	if (!parts)
		goto free_items;
	sub = ta_env_alloc_array(m, sizeof(*sub));
	if (!sub)
		goto free_parts;
	sub_offsets = ta_env_alloc_array(m, sizeof(*sub_offsets));
	if (!sub_offsets)
		goto free_sub;
	reserved += (u64)(p->n_buffers + 1) * sizeof(*items) +
		    (u64)np * sizeof(*parts) +
		    (u64)m * (sizeof(*sub) + sizeof(*sub_offsets));
	if (lim->bytes < reserved)
		lim->bytes = reserved;
	ta_search_cut(p, m, items, parts, offsets);
	/* rounds: each part above the goal takes its turn */
	goal = ta_search_goal(parts, np, lower_bound, &open);
	while (open) {
		for (i = 0; i < np && open; i++) {
			if (parts[i].height <= goal || parts[i].stuck)
				continue;
			ret = ta_search_part(p, goal, lim, open, offsets, items,
					     &parts[i], sub, sub_offsets,
					     reserved, slabs);
			open--;
			if (ret == -E2BIG)
				parts[i].stuck = true;	/* left as it is */
			else if (ret)
				goto free_sub_offsets;
			if (parts[i].proven && parts[i].height > goal)
				goal = parts[i].height;
		}
		ret = ta_search_limit_hit(lim);
		if (ret < 0)
			goto free_sub_offsets;
		if (ret)
			break;
		goal = ta_search_goal(parts, np, lower_bound, &open);
	}
	ret = 0;
	h = 0;
	for (i = 0; i < p->n_buffers; i++)
		if (offsets[i] + p->buffers[i].size > h)
			h = offsets[i] + p->buffers[i].size;
	*height = h;
	/* at the goal: the lower bound, or a part proven optimal */
	*proven = h <= goal;
free_sub_offsets:
	ta_env_free(sub_offsets);
free_sub:
	ta_env_free(sub);
free_parts:
	ta_env_free(parts);
free_items:
	ta_env_free(items);
	return ret;
}
