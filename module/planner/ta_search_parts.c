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
 *
 * A piece also comes apart when some of its buffers live over all of its
 * span: every other buffer of the piece lies wholly above or below each of
 * them, so they can go at the bottom, stacked, at no cost in any plan
 * (lift out such a buffer and lower what was above it by its size; that
 * keeps alignment when the size is a multiple of every alignment, the only
 * ones peeled off). What is left may then have moments no buffer crosses,
 * and so on: a part is what neither cuts nor peels, searched above the
 * bytes peeled under it (its base). A perfect cut of make bench with 600
 * buffers comes apart in 15 cuts and 54 peels into parts of at most 169.
 */
#include "ta_search_state.h"

/* A buffer of positive size, in the order of the parts. */
struct ta_search_part_item {
	u32 start;
	u32 end;
	u32 idx;	/* in the problem */
};

/*
 * A part: items [first, end) in the sorted order, the bytes peeled off
 * under it, and its plan's top (base included). While the problem is being
 * taken apart, also a range still to be cut or peeled.
 */
struct ta_search_part {
	u32 first;
	u32 end;
	u64 base;
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
 * The end of the piece that begins at @first: the first item after it that
 * starts when (or after) every item before it has ended, or @end.
 */
static u32 ta_search_piece_end(const struct ta_search_part_item *items,
			       u32 first, u32 end)
{
	u32 i, last_end = items[first].end;

	for (i = first + 1; i < end && items[i].start < last_end; i++)
		if (items[i].end > last_end)
			last_end = items[i].end;
	return i;
}

/* May the item @it of a piece from @t0 to @t1 be peeled off (see below)? */
static bool ta_search_peelable(const struct ta_problem *p,
			       const struct ta_search_part_item *it, u32 t0,
			       u32 t1, u64 align)
{
	return it->start == t0 && it->end == t1 &&
	       !(p->buffers[it->idx].size & (align - 1));
}

/*
 * Peel the piece [@first, @end): its items live over all of its span, of a
 * size that is a multiple of @align, go at the bottom, from *@base up, in
 * @plan; the others move, in order, to the end of the range. Return: the
 * first of the others.
 */
static u32 ta_search_peel(const struct ta_problem *p,
			  struct ta_search_part_item *items, u32 first,
			  u32 end, u64 align, u64 *plan, u64 *base)
{
	u32 t0 = items[first].start, t1 = 0, i, w = end;

	for (i = first; i < end; i++)
		if (items[i].end > t1)
			t1 = items[i].end;
	for (i = end; i-- > first;) {
		if (ta_search_peelable(p, &items[i], t0, t1, align)) {
			plan[items[i].idx] = *base;
			*base += p->buffers[items[i].idx].size;
			continue;
		}
		items[--w] = items[i];
	}
	return w;
}

/*
 * Does the whole (@items, @m, sorted) come apart: more than one piece, or
 * an item to peel?
 */
static bool ta_search_comes_apart(const struct ta_problem *p,
				  const struct ta_search_part_item *items,
				  u32 m, u64 align)
{
	u32 i, t1 = 0;

	if (ta_search_piece_end(items, 0, m) < m)
		return true;
	for (i = 0; i < m; i++)
		if (items[i].end > t1)
			t1 = items[i].end;
	for (i = 0; i < m; i++)
		if (ta_search_peelable(p, &items[i], items[0].start, t1, align))
			return true;
	return false;
}

/*
 * Take the whole apart: cut it into pieces where no item is live across a
 * moment, peel each piece, cut what is left again, and so on; what neither
 * cuts nor peels is a part. @pend holds the ranges still to do (they are
 * disjoint: at most @m). Return: the count of parts in @parts; *@cut
 * true when anything was cut (peels alone leave a problem as hard).
 */
static u32 ta_search_take_apart(const struct ta_problem *p,
				struct ta_search_part_item *items, u32 m,
				u64 align, u64 *plan,
				struct ta_search_part *parts,
				struct ta_search_part *pend, bool *cut)
{
	u32 np = 0, npend = 1, e, f;

	*cut = false;
	pend[0] = (struct ta_search_part){ .first = 0, .end = m };
	while (npend) {
		struct ta_search_part r = pend[--npend];

		e = ta_search_piece_end(items, r.first, r.end);
		if (e < r.end) {
			*cut = true;
			pend[npend] = r;
			pend[npend++].end = e;
			pend[npend] = r;
			pend[npend++].first = e;
			continue;
		}
		f = ta_search_peel(p, items, r.first, r.end, align, plan,
				   &r.base);
		if (f == r.first) {
			parts[np++] = r;
		} else if (f < r.end) {
			r.first = f;
			pend[npend++] = r;
		}
	}
	return np;
}

/*
 * Search part @pk of @job's problem, its plan in @plan above its base,
 * down to @goal with @job's limits, shared by @turns parts still to go
 * this round: it gets that share of the time and of the steps left.
 * Return: 0, -E2BIG (the part is left as it is), or -errno.
 */
static int ta_search_part(const struct ta_search_job *job, u64 goal,
			  u32 turns, u64 *plan,
			  const struct ta_search_part_item *items,
			  struct ta_search_part *pk, struct ta_buffer *sub,
			  u64 *sub_offsets, u64 reserved)
{
	const struct ta_problem *p = job->p;
	struct ta_problem sp = { .n_buffers = pk->end - pk->first,
				 .buffers = sub };
	struct ta_work share = ta_work_share(job->lim,
								turns);
	u64 target, h = pk->height - pk->base;
	bool proven = false;
	struct ta_search_job part = {
		.p = &sp, .lim = &share, .offsets = sub_offsets, .height = &h,
		.proven = &proven, .reserved = reserved, .slabs = job->slabs,
	};
	u32 i;
	int ret;

	for (i = 0; i < sp.n_buffers; i++) {
		u32 idx = items[pk->first + i].idx;

		sub[i] = p->buffers[idx];
		sub_offsets[i] = plan[idx] - pk->base;
	}
	/* a canonical plan's height is a multiple of the part's granule */
	target = goal > pk->base ? goal - pk->base : 0;
	target &= ~(ta_search_granule(&sp) - 1);
	part.lower_bound = target;
	ret = ta_search_one(&part);
	ta_work_spent(job->lim, &share);
	if (ret)
		return ret;
	for (i = 0; i < sp.n_buffers; i++)
		plan[items[pk->first + i].idx] = pk->base + sub_offsets[i];
	pk->height = pk->base + h;
	/* proven above the target: no plan of the part is lower */
	pk->proven = proven && h > target;
	/* short of the target with time left: as low as it can prove */
	pk->stuck = !proven && !share.timed_out;
	return 0;
}

/*
 * Start each part from the plan in hand, shifted down as far as alignment
 * allows and then up onto its base: the plan of the whole in @plan, each
 * part's top in its height.
 */
static void ta_search_parts_start(const struct ta_problem *p,
				  const struct ta_search_part_item *items,
				  struct ta_search_part *parts, u32 np,
				  u64 align, const u64 *offsets, u64 *plan)
{
	u32 k, i;

	for (k = 0; k < np; k++) {
		struct ta_search_part *pk = &parts[k];
		u64 low = U64_MAX;

		for (i = pk->first; i < pk->end; i++)
			if (offsets[items[i].idx] < low)
				low = offsets[items[i].idx];
		low &= ~(align - 1);
		pk->height = pk->base;
		for (i = pk->first; i < pk->end; i++) {
			u32 idx = items[i].idx;

			plan[idx] = offsets[idx] - low + pk->base;
			if (plan[idx] + p->buffers[idx].size > pk->height)
				pk->height = plan[idx] + p->buffers[idx].size;
		}
	}
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

/* The parts take turns until each is at the goal or can do no more. */
static int ta_search_turns(const struct ta_search_job *job, u64 *plan,
			   const struct ta_search_part_item *items,
			   struct ta_search_part *parts, u32 np,
			   struct ta_buffer *sub, u64 *sub_offsets,
			   u64 reserved, u64 *goal)
{
	u32 i, open;
	int ret;

	*goal = ta_search_goal(parts, np, job->lower_bound, &open);
	while (open) {
		for (i = 0; i < np && open; i++) {
			if (parts[i].height <= *goal || parts[i].stuck)
				continue;
			ret = ta_search_part(job, *goal, open, plan, items,
					     &parts[i], sub, sub_offsets,
					     reserved);
			open--;
			if (ret == -E2BIG)
				parts[i].stuck = true;	/* left as it is */
			else if (ret)
				return ret;
			if (parts[i].proven && parts[i].height > *goal)
				*goal = parts[i].height;
		}
		ret = ta_work_limit_hit(job->lim);
		if (ret < 0)
			return ret;
		if (ret)
			break;
		*goal = ta_search_goal(parts, np, job->lower_bound, &open);
	}
	return 0;
}

/**
 * ta_search_parts() - ta_search_skyline() part by part, when the problem
 * has parts
 * @job: the problem and what to give back; each part may first take a
 *	 slab off (ta_search_one())
 *
 * Return: 1 when no piece of the problem comes apart in time (nothing
 * done: with peels alone, what is left is as hard as the whole), else as
 * ta_search_skyline().
 */
int ta_search_parts(const struct ta_search_job *job)
{
	const struct ta_problem *p = job->p;
	u64 reserved = job->reserved;
	struct ta_search_part_item *items;
	struct ta_search_part *parts = NULL, *pend = NULL;
	struct ta_buffer *sub = NULL;
	u64 *sub_offsets = NULL, *plan = NULL, h, goal, align = 1;
	u32 i, m = 0, np;
	bool cut;
	int ret;

	*job->proven = false;
	/* what it may take at most (m <= n), asked before it takes */
	if (!ta_search_mem_fits(reserved, (u64)(p->n_buffers + 1) *
				      (sizeof(*items) + 2 * sizeof(*parts) +
				       sizeof(*sub) + sizeof(*sub_offsets) +
				       sizeof(*plan))))
		return 1;	/* nothing changed */
	items = ta_env_alloc_array(p->n_buffers + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (i = 0; i < p->n_buffers; i++) {
		if (!p->buffers[i].size)
			continue;
		if (p->buffers[i].align > align)
			align = p->buffers[i].align;
		items[m].start = p->buffers[i].start;
		items[m].end = p->buffers[i].end;
		items[m++].idx = i;
	}
	ta_env_sort(items, m, sizeof(*items), ta_search_part_cmp);
	ret = 1;
	if (!m || !ta_search_comes_apart(p, items, m, align))
		goto free_items;
	ret = -ENOMEM;
	parts = ta_env_alloc_array(m, sizeof(*parts));
	pend = ta_env_alloc_array(m, sizeof(*pend));
	sub = ta_env_alloc_array(m, sizeof(*sub));
	sub_offsets = ta_env_alloc_array(m, sizeof(*sub_offsets));
	plan = ta_env_alloc_array(p->n_buffers, sizeof(*plan));
	if (!parts || !pend || !sub || !sub_offsets || !plan)
		goto free_arrays;
	reserved += (u64)(p->n_buffers + 1) * sizeof(*items) +
		    2 * (u64)m * sizeof(*parts) +
		    (u64)m * (sizeof(*sub) + sizeof(*sub_offsets)) +
		    (u64)p->n_buffers * sizeof(*plan);
	if (job->lim->bytes < reserved)
		job->lim->bytes = reserved;
	for (i = 0; i < p->n_buffers; i++)
		plan[i] = job->offsets[i];
	np = ta_search_take_apart(p, items, m, align, plan, parts, pend, &cut);
	ret = 1;
	if (!cut)
		goto free_arrays;	/* one part, searched as the whole */
	ta_search_parts_start(p, items, parts, np, align, job->offsets, plan);
	ret = ta_search_turns(job, plan, items, parts, np, sub, sub_offsets,
			      reserved, &goal);
	if (ret)
		goto free_arrays;
	h = 0;
	for (i = 0; i < p->n_buffers; i++)
		if (plan[i] + p->buffers[i].size > h)
			h = plan[i] + p->buffers[i].size;
	if (h < *job->height) {
		for (i = 0; i < p->n_buffers; i++)
			job->offsets[i] = plan[i];
		*job->height = h;
	}
	/* at the goal: the lower bound, or a part proven optimal */
	*job->proven = *job->height <= goal;
free_arrays:
	ta_env_free(plan);
	ta_env_free(sub_offsets);
	ta_env_free(sub);
	ta_env_free(pend);
	ta_env_free(parts);
free_items:
	ta_env_free(items);
	return ret;
}
