/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_work.h - the work budget: what one planning call may spend, and what
 * it has spent. A leaf of the planner: it includes only the environment
 * (ta_env.h), and every strategy, the fit engine, the graph lifetimes and
 * the search count their work in it.
 *
 * One planning call owns one budget, the call's (ta_work_init()): its
 * work units, its hard deadline (&ta_budget.limit_ns) and its sticky stop
 * (-EINTR or -ETIMEDOUT). An engine that runs to a softer limit - a
 * deadline of its own, a step limit - takes a sub-budget (ta_work_sub(),
 * ta_work_share(), ta_work_part()): a copy carrying those limits and its own step count,
 * whose work and stop are counted in the call's budget (@root).
 */
#ifndef TA_WORK_H
#define TA_WORK_H

#include "ta_env.h"

/* Units of inner-loop work between two ta_work_check()s. */
#define TA_WORK_CHUNK	4096U

/**
 * struct ta_work - a work budget
 * @units: work since the last check: one unit is about one inner-loop
 *	   iteration (a reference, a neighbour, a gap, a block)
 * @limit_ns: ta_env_now_ns() value at which the whole call must stop
 *	      (the caller's &ta_budget.limit_ns); 0 for none
 * @err: 0, or the first -EINTR / -ETIMEDOUT seen; sticky, so that every
 *	 later check reports it again
 * @deadline_ns: a sub-budget's soft deadline, ta_env_now_ns() value at
 *		 which to stop; 0 for none
 * @max_steps: a sub-budget's step limit; 0 for none
 * @steps: steps spent so far (engines add to it)
 * @timed_out: set when an engine stopped on @deadline_ns, @max_steps or
 *	       the hard deadline
 * @bytes: out, the memory the search took (0 when it did not run)
 * @root: the call's budget, which counts @units, @limit_ns and @err for
 *	  a sub-budget; NULL in the call's budget itself
 *
 * @units, @limit_ns and @err are used in the root only; the soft limits
 * (@deadline_ns to @bytes) in the budget an engine is given.
 */
struct ta_work {
	u64 units;
	u64 limit_ns;
	int err;
	u64 deadline_ns;
	u64 max_steps;
	u64 steps;
	bool timed_out;
	u64 bytes;
	struct ta_work *root;
};

/**
 * ta_work_init() - start a call's budget, with no soft limit
 * @w: the budget
 * @limit_ns: wall-clock cap from now, 0 for none
 */
void ta_work_init(struct ta_work *w, u64 limit_ns);

/**
 * ta_work_check() - yield, then check for a signal and the hard deadline
 * @w: the budget, or NULL (then only ta_env_yield())
 *
 * Return: 0 to go on, -EINTR when ta_env_yield() asked to stop,
 * -ETIMEDOUT once the hard deadline has passed.
 */
int ta_work_check(struct ta_work *w);

/**
 * ta_work_add() - count @units of work; check every %TA_WORK_CHUNK units
 * @w: the budget
 * @units: work just done
 *
 * Return: as ta_work_check(), 0 between checks.
 */
static inline int ta_work_add(struct ta_work *w, u64 units)
{
	if (w->root)
		w = w->root;
	w->units += units;
	if (w->units < TA_WORK_CHUNK)
		return w->err;
	return ta_work_check(w);
}

/**
 * ta_work_sub() - a sub-budget of @w with soft limits of its own
 * @w: the call's budget, or a sub-budget of it
 * @deadline_ns: ta_env_now_ns() value at which to stop; 0 for none
 * @max_steps: step limit; 0 for none
 *
 * Return: a budget with no step spent, counting its work in @w's root.
 */
struct ta_work ta_work_sub(struct ta_work *w, u64 deadline_ns, u64 max_steps);

/**
 * ta_work_limit_hit() - check @w's soft limits and the hard deadline, and
 * yield
 * @w: the budget
 *
 * Call every few thousand steps. The hard deadline counts as a limit
 * reached (the caller keeps its best plan).
 *
 * Return: 0 to go on, 1 when a limit is reached, -EINTR to stop at once.
 */
int ta_work_limit_hit(struct ta_work *w);

/**
 * ta_work_share() - a sub-budget for a share of what @w has left
 * @w: the caller's budget
 * @share: the callee gets 1/@share of the time and of the steps left
 *
 * Return: a copy of @w with its deadline and step limit brought in;
 * ta_work_spent() counts what it spent back in @w.
 */
struct ta_work ta_work_share(struct ta_work *w, u32 share);

/**
 * ta_work_part() - a sub-budget for @num / @den of what @w has left
 * @w: the caller's budget
 * @num: the callee's part
 * @den: out of this many (what is left is divided first, then
 *	 multiplied: ta_work_share(@w, @den) is ta_work_part(@w, 1, @den))
 *
 * Return: as ta_work_share().
 */
struct ta_work ta_work_part(struct ta_work *w, u32 num, u32 den);

/**
 * ta_work_spent() - count in @w what @part spent
 * @w: the caller's budget
 * @part: from ta_work_share(@w), after the callee ran
 */
void ta_work_spent(struct ta_work *w, const struct ta_work *part);

#endif /* TA_WORK_H */
