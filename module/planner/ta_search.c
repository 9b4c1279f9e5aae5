// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search.c - branch and bound over canonical placements, used by the
 * `auto` strategy to close the gap between a heuristic plan and the lower
 * bound: the driver that schedules the runs of the two engines
 * (ta_search_ordered.c, ta_search_skyline.c) over the shared state
 * (ta_search_state.c).
 *
 * A plan is canonical when every buffer rests on the floor or on top of a
 * buffer that overlaps it in time; some canonical plan is optimal.
 *
 * Schedule: runs restart with a doubling node limit and rotate through a
 * small portfolio of orders and engines (ta_search_plan); each searches at
 * the lowest height not yet ruled out, then probes, with a quarter of the
 * nodes, a height between that and the best found, spread over the range
 * from run to run (how long a run takes to find a plan varies wildly with
 * its cap, not monotonically). One skyline entry draws a new random order
 * for each of many short runs (a few nodes per buffer each): where every
 * fixed order makes an early mistake that a long run never undoes, as on
 * zero-slack packings, restarts find a plan. Its restarts also probe, with
 * as many nodes, halfway between the best plan and the last probe height
 * that yielded none (the lowest height not ruled out at first): where the
 * lower bound is far below the optimum, a height just above it is where a
 * plan can be found (Documentation/planner.md gives an example). Every
 * plan found lowers the cap; a run that completes under its limit rules
 * out every height up to its cap (a proof of optimality once that meets
 * the best plan, when no alignment exceeds the size granule).
 *
 * Rounds alternate between the problem and its mirror in time (see
 * ta_search_whole()); a problem in independent parts is searched part by
 * part (ta_search_parts.c); the skyline engine remembers the states it
 * saw fail (ta_search_memo.c).
 *
 * The one circle of calls in the planner, and a bounded recursion: the
 * search of a problem (ta_search_split()) searches its independent parts
 * (ta_search_parts()), each with ta_search_one(), which may cut a slab off
 * the bottom (ta_search_slab()) and search the slab's sides with
 * ta_search_split() again, one slab less deep: at most
 * %TA_SEARCH_SLAB_DEPTH slabs nest, and every piece is smaller than the
 * problem it came from. tests/planner-includes.sh allows this circle.
 *
 * Memory, all taken up front, at most %TA_SEARCH_MAX_BYTES and limited to
 * %TA_SEARCH_MAX_BUFFERS buffers: per buffer about 150 bytes plus its
 * sections in the per-section lists (4 bytes each), per section about 60
 * bytes, then the candidate pool and the three undo trails, sized to what
 * is left (ta_search_size_trails()).
 */
#include "ta_search_state.h"

#define TA_SEARCH_PROBES	1	/* probing runs per order and round */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The runs of one round: candidate order (low bits) and engine, and how
 * much smaller than the round's node limit each one's limit is (a shift).
 */
static const u8 ta_search_plan[][2] = {
	{ 2, 0 },		/* most crowded, longest, largest area */
	{ TA_SEARCH_F_SKYLINE | 3, 1 },	/* skyline, largest first */
	/* skyline, random orders, at the lowest height not ruled out */
	{ TA_SEARCH_F_SKYLINE | TA_SEARCH_F_SHUFFLE, 0 },
	{ TA_SEARCH_F_ADAPT | 2, 0 },	/* the first, re-ranked per component */
	{ TA_SEARCH_F_ADAPT | 1, 0 },	/* crowded, area, longest, re-ranked */
};

u64 ta_search_granule(const struct ta_problem *p)
{
	u64 acc = 0;
	u32 i;

	for (i = 0; i < p->n_buffers; i++)
		acc |= p->buffers[i].size;
	if (!acc)
		return TA_PLAN_MAX_SIZE;
	return acc & (~acc + 1);
}

/*
 * The @j-th probe height in [@lo, @hi]: at the fraction of the way given by
 * the bit-reversed @j (the van der Corput sequence: 1/2, 1/4, 3/4, 1/8...),
 * so the probes of any stretch of runs spread over the whole range.
 */
static u64 ta_search_probe(u64 lo, u64 hi, u32 j)
{
	u64 d = hi - lo;
	u32 f = 0, b;

	for (b = 0; b < 16; b++)
		f |= ((j >> b) & 1) << (15 - b);
	return lo + (d >> 16) * f + (((d & 0xffff) * f) >> 16);
}

/**
 * ta_search_whole() - ta_search_skyline() on @p as one problem
 * @p: the problem (validated)
 * @lower_bound: a height no plan goes below, as far as the caller cares
 * @lim: the work budget and its soft limits
 * @offsets: in, a valid plan; out, the best plan found
 * @height: in, its height; out, the best height found
 * @proven: out, true when no plan is lower than @height, or @height is at
 *	    most @lower_bound rounded up to the size granule
 * @reserved: memory the caller holds, counted in the search's
 *	      %TA_SEARCH_MAX_BYTES
 *
 * Return: as ta_search_skyline().
 */
int ta_search_whole(const struct ta_problem *p, u64 lower_bound,
		    struct ta_work *lim, u64 *offsets, u64 *height,
		    bool *proven, u64 reserved)
{
	struct ta_search_state *sp;
	struct ta_buffer *rev_buffers = NULL;
	struct ta_problem rev = { .n_buffers = p->n_buffers };
	const struct ta_problem *cur = p;
	u64 limit, nl, max_align = 1, lo, granule, draws = 0;
	u64 draw_nodes, reps, r, soft = 0, probe_from, round, round_steps = 0;
	u32 i, h, hi, k, probe = 1, last = 0;
	int ret = 0;

	*proven = false;
	if (p->n_buffers > TA_SEARCH_MAX_BUFFERS ||
	    !ta_search_mem_fits(reserved, sizeof(*sp) + (u64)(p->n_buffers + 1) *
					  sizeof(*rev_buffers)))
		return -E2BIG;
	sp = ta_env_alloc_array(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	/* the same buffers with time reversed: the runs take turns */
	rev_buffers = ta_env_alloc_array(p->n_buffers + 1,
					 sizeof(*rev_buffers));
	if (!rev_buffers) {
		ret = -ENOMEM;
		goto out;
	}
	reserved += (u64)(p->n_buffers + 1) * sizeof(*rev_buffers);
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].end > last)
			last = p->buffers[i].end;
	for (i = 0; i < p->n_buffers; i++) {
		rev_buffers[i] = p->buffers[i];
		rev_buffers[i].start = last - p->buffers[i].end;
		rev_buffers[i].end = last - p->buffers[i].start;
	}
	rev.buffers = rev_buffers;
	sp->bytes = reserved;
	granule = ta_search_granule(p);
	sp->granule = granule;
	sp->best_height = *height;
	if (*height <= lower_bound) {
		*proven = true;
		goto out;
	}
	lo = (lower_bound + granule - 1) & ~(granule - 1);
	sp->lower_bound_granular = lo;
	if (lo < lower_bound)
		goto out;
	if (*height <= lo) {
		*proven = true;
		goto out;
	}
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].size && p->buffers[i].align > max_align)
			max_align = p->buffers[i].align;
	sp->problem = p;
	ret = ta_search_state_init(sp, p);
	if (ret)
		goto out;
	/* a part or a slab's side may be given less than its own max-live */
	for (i = 0; i < sp->n_sections; i++)
		if (sp->live_bytes[i] > lo)
			lo = (sp->live_bytes[i] + granule - 1) & ~(granule - 1);
	sp->lower_bound_granular = lo;
	if (*height <= lo) {
		*proven = true;
		goto out;
	}
	limit = 2 * (u64)sp->n_buffers + 64;
	draw_nodes = 2 * (u64)sp->n_buffers + 256;
	for (round = 0;; round++) {
		/*
		 * Rounds alternate between the problem and its mirror in
		 * time: a plan of one is a plan of the other, and what rules
		 * out a height in one does in the other, but the engines'
		 * left-to-right choices differ (challenging/E: no plan at its
		 * bound in 4 s, reversed in 40 ms).
		 */
		if (!(round & 1))
			round_steps = lim->steps;
		if (round) {
			cur = round & 1 ? &rev : p;
			ret = ta_search_state_rebuild(sp, cur, reserved);
			if (ret)
				goto out;
		}
		for (hi = 0; hi < ARRAY_SIZE(ta_search_plan); hi++) {
			h = ta_search_plan[hi][0];
			/* a new draw every round: a restart, not a repeat */
			sp->shuffle = h & TA_SEARCH_F_SHUFFLE ? ++draws : 0;
			ta_search_order(sp, cur, h & 3);
			sp->heuristic = h;
			/*
			 * k = 0: the lowest height not yet ruled out; k >= 1:
			 * probe a height between that and the best, spread by
			 * ta_search_probe(): a cap that is just right can take
			 * a run far less time than one above it.
			 */
			for (k = 0; k <= TA_SEARCH_PROBES; k++) {
				u64 t = lo;

				if (lo + granule > sp->best_height) {
					*proven = max_align <= granule;
					goto done;
				}
				if (k && (h & TA_SEARCH_F_SHUFFLE)) {
					/* halfway from what did not yield */
					if (soft < lo ||
					    soft + granule >= sp->best_height)
						soft = lo;
					t = soft + (sp->best_height - granule -
						    soft) / 2;
					t &= ~(granule - 1);
					if (t <= lo ||
					    t + granule > sp->best_height)
						continue;
				} else if (k) {
					u64 top = sp->best_height - granule;

					t = ta_search_probe(lo, top, probe++) &
					    ~(granule - 1);
					if (t <= lo ||
					    t + granule > sp->best_height)
						continue;
				}
				/* other probing runs get a quarter of the nodes */
				nl = limit >> (ta_search_plan[hi][1] +
					       2 * (k && !(h & TA_SEARCH_F_SHUFFLE)));
				probe_from = sp->best_height;
				/*
				 * Shuffled runs restart often instead: with a
				 * new random order each, a few thousand nodes
				 * find what one long run may never reach.
				 */
				reps = 1;
				if (h & TA_SEARCH_F_SHUFFLE && nl > draw_nodes) {
					reps = nl / draw_nodes;
					nl = draw_nodes;
				}
				for (r = 0; r < reps; r++) {
					u64 before = sp->best_height;

					if (r) {
						sp->shuffle = ++draws;
						ta_search_order(sp, cur, h & 3);
					}
					sp->cap = t;
					sp->overflowed = false;
					if (h & TA_SEARCH_F_SKYLINE)
						ret = ta_skyline_run(sp, nl, lim,
								     offsets);
					else
						ret = ta_ordered_run(sp, nl, lim,
								     offsets);
					if (ret < 0)
						goto out;
					if (sp->best_height <=
					    sp->lower_bound_granular) {
						*proven = true;
						goto done;
					}
					/* complete: nothing fits at or below the cap */
					if (ret == 1 && !sp->overflowed &&
					    max_align <= granule &&
					    sp->cap + granule > lo)
						lo = sp->cap + granule;
					if (lim->timed_out)
						goto done;
					/* the cap is settled, or lower now */
					if (ret == 1 || sp->best_height < before)
						break;
				}
				if (k && (h & TA_SEARCH_F_SHUFFLE) &&
				    sp->best_height == probe_from)
					soft = t;
			}
		}
		/* runs check the limits as they go; this bounds a round */
		ret = ta_work_limit_hit(lim);
		if (ret < 0)
			goto out;
		if (ret)
			goto done;
		/* no run took a node both ways (every cap failed at once) */
		if ((round & 1) && lim->steps == round_steps)
			goto done;
		if (limit < BIT_ULL(40))
			limit <<= 1;
	}
done:
	ret = 0;
	*height = sp->best_height;
out:
	lim->bytes = sp->bytes;
	ta_search_state_free(sp);
	ta_env_free(sp);
	ta_env_free(rev_buffers);
	return ret;
}

/**
 * ta_search_split() - ta_search_skyline() part by part, or whole
 * @job: the problem and what to give back; with @job->slabs not 0, a
 *	 problem in one part first tries a slab off the bottom
 *	 (ta_search_slab.c)
 *
 * Return: as ta_search_skyline().
 */
int ta_search_split(const struct ta_search_job *job)
{
	int ret = ta_search_parts(job);

	if (ret != 1)
		return ret;
	return ta_search_one(job);
}

/**
 * ta_search_one() - search a problem in one part
 * @job: the problem and what to give back; when @job->slabs is not 0,
 *	 first try a slab off the bottom, which may free a moment (its
 *	 sides with one less)
 *
 * Return: as ta_search_skyline().
 */
int ta_search_one(const struct ta_search_job *job)
{
	int ret;

	if (job->slabs) {
		ret = ta_search_slab(job);
		if (ret < 0 ||
		    (!ret && (*job->proven || job->lim->timed_out)))
			return ret;
	}
	return ta_search_whole(job->p, job->lower_bound, job->lim,
			       job->offsets, job->height, job->proven,
			       job->reserved);
}

int ta_search_skyline(const struct ta_problem *p, u64 lower_bound,
		      struct ta_work *lim, u64 *offsets, u64 *height,
		      bool *proven)
{
	struct ta_search_job job = {
		.p = p, .lower_bound = lower_bound, .lim = lim,
		.offsets = offsets, .height = height, .proven = proven,
		.slabs = TA_SEARCH_SLAB_DEPTH,
	};

	return ta_search_split(&job);
}
