/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_search.h - planner-internal search machinery shared by the `stack` and
 * `auto` strategies.
 *
 * The search (ta_search.c and its parts ta_search_state.c,
 * ta_search_ordered.c, ta_search_skyline.c), a branch and bound over
 * canonical placements (every buffer rests on the floor or on a buffer
 * below it), built bottom-up, with section-based pruning; it improves an
 * incumbent plan and can prove it optimal.
 */
#ifndef TA_SEARCH_H
#define TA_SEARCH_H

#include "ta_planner.h"
#include "ta_work.h"

#define TA_SEARCH_NONE		U32_MAX

/* The skyline search runs only on problems up to this many buffers. */
#define TA_SEARCH_MAX_BUFFERS	4096U

/*
 * The most memory one search takes (its state, candidate pool and undo
 * trails); a problem whose lists alone need half of it is not searched.
 */
#define TA_SEARCH_MAX_BYTES	(8ULL << 20)

/**
 * ta_search_skyline() - improve a plan by branch and bound
 * @p: the problem (validated)
 * @lower_bound: its lower bound
 * @lim: the work budget and its soft limits (ta_work.h)
 * @offsets: in, a valid plan; out, the best plan found
 * @height: in, its height; out, the best height found
 * @proven: out, true when @height is proven optimal
 *
 * Return: 0, -ENOMEM, -EINTR; -E2BIG above %TA_SEARCH_MAX_BUFFERS or when
 * the search would need more than %TA_SEARCH_MAX_BYTES (@offsets and
 * @height unchanged then).
 */
int ta_search_skyline(const struct ta_problem *p, u64 lower_bound,
		      struct ta_work *lim, u64 *offsets, u64 *height,
		      bool *proven);

/**
 * ta_search_granule() - the largest power of two dividing every size
 * @p: the problem
 *
 * Every canonical plan's offsets and height are multiples of it.
 *
 * Return: the granule, %TA_PLAN_MAX_SIZE when every size is 0.
 */
u64 ta_search_granule(const struct ta_problem *p);

/**
 * ta_search_index() - index of the first element >= @v in a sorted array
 * @t: ascending values
 * @n: their count
 * @v: the value looked for
 *
 * Return: an index in [0, @n].
 */
static inline u32 ta_search_index(const u32 *t, u32 n, u32 v)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (t[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif /* TA_SEARCH_H */
