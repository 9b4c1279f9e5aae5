/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_search.h - planner-internal search machinery shared by the `stack` and
 * `auto` strategies.
 *
 * The effort limits every search shares (the fit engine's passes too, see
 * ta_fit.h), and the search (ta_search.c and its parts ta_search_state.c,
 * ta_search_ordered.c, ta_search_skyline.c), a branch and bound over
 * canonical placements (every buffer rests on the floor or on a buffer
 * below it), built bottom-up, with section-based pruning; it improves an
 * incumbent plan and can prove it optimal.
 */
#ifndef TA_SEARCH_H
#define TA_SEARCH_H

#include "ta_strategy.h"

#define TA_SEARCH_NONE		U32_MAX

/* The skyline search runs only on problems up to this many buffers. */
#define TA_SEARCH_MAX_BUFFERS	4096U

/*
 * The most memory one search takes (its state, candidate pool and undo
 * trails); a problem whose lists alone need half of it is not searched.
 */
#define TA_SEARCH_MAX_BYTES	(8ULL << 20)

/**
 * struct ta_search_limits - effort limits shared by the engines
 * @deadline_ns: ta_env_now_ns() value at which to stop; 0 for none
 * @max_steps: step limit; 0 for none
 * @steps: steps spent so far (engines add to it)
 * @timed_out: set when an engine stopped on @deadline_ns, @max_steps or
 *	       the hard deadline of @work
 * @work: the planning call's work counter (yield, signals, hard deadline),
 *	  or NULL for plain ta_env_yield()
 * @bytes: out, the memory the search took (0 when it did not run)
 */
struct ta_search_limits {
	u64 deadline_ns;
	u64 max_steps;
	u64 steps;
	bool timed_out;
	struct ta_work *work;
	u64 bytes;
};

/**
 * ta_search_skyline() - improve a plan by branch and bound
 * @p: the problem (validated)
 * @lower_bound: its lower bound
 * @lim: effort limits
 * @offsets: in, a valid plan; out, the best plan found
 * @height: in, its height; out, the best height found
 * @proven: out, true when @height is proven optimal
 *
 * Return: 0, -ENOMEM, -EINTR; -E2BIG above %TA_SEARCH_MAX_BUFFERS or when
 * the search would need more than %TA_SEARCH_MAX_BYTES (@offsets and
 * @height unchanged then).
 */
int ta_search_skyline(const struct ta_problem *p, u64 lower_bound,
		      struct ta_search_limits *lim, u64 *offsets, u64 *height,
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
 * ta_search_limit_hit() - check @lim's deadline and steps, and yield
 * @lim: the limits
 *
 * Call every few thousand steps. The hard deadline of @lim->work counts as
 * a limit reached (the caller keeps its best plan).
 *
 * Return: 0 to go on, 1 when a limit is reached, -EINTR to stop at once.
 */
int ta_search_limit_hit(struct ta_search_limits *lim);

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
