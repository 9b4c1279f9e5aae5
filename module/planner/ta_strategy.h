/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_strategy.h - internal interface between ta_plan_solve() and the strategies.
 *
 * ta_plan_solve() validates the problem, computes the lower bound into
 * res->lower_bound and starts the clock; then it calls one of these. A
 * strategy fills every offset and res->height, may set res->steps and
 * res->optimal, and returns 0 or a negative errno. It counts its work in
 * the &ta_work it is given (ta_work.h) and stops on -EINTR; on -ETIMEDOUT (the hard
 * deadline, &ta_budget.limit_ns) an anytime strategy returns the best
 * complete plan it has, a constructive one returns -ETIMEDOUT. ta_plan_solve() fills
 * res->time_ns afterwards and, in debug builds, validates the plan.
 */
#ifndef TA_STRATEGY_H
#define TA_STRATEGY_H

#include "ta_planner.h"
#include "ta_greedy.h"
#include "ta_work.h"

/* stack enumerates every order, exactly, up to this many buffers. */
#define TA_STACK_EXHAUSTIVE	8
/* Above this many buffers stack plans with greedy-size. */
#define TA_STACK_MAX_GREEDY	8192U

int ta_plan_auto(const struct ta_problem *p, const struct ta_budget *budget,
		 u64 *offsets, struct ta_result *res, struct ta_work *w);
int ta_plan_pingpong(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res, struct ta_work *w);
int ta_pingpong_regions(const struct ta_problem *p, u64 *offsets,
			struct ta_result *res, struct ta_work *w);
int ta_plan_stack(const struct ta_problem *p, const struct ta_budget *budget,
		  u64 *offsets, struct ta_result *res, struct ta_work *w);
int ta_plan_freelist(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res, struct ta_work *w);
int ta_plan_greedy_size(const struct ta_problem *p,
			const struct ta_budget *budget, u64 *offsets,
			struct ta_result *res, struct ta_work *w);

/*
 * %TA_STRATEGY_FIXED (ta_fixed.c): @p->fixed set, @root the alias classes
 * of @p or NULL; unlike the others, it fills res->lower_bound and finishes
 * the plan itself, and sets res->conflict when the fixed offsets break a
 * rule.
 */
int ta_plan_fixed(const struct ta_problem *p, u64 *offsets,
		  struct ta_result *res, const u32 *root, struct ta_work *w);

#endif /* TA_STRATEGY_H */
