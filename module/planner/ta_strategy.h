/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_strategy.h - internal interface between ta_plan() and the strategies.
 *
 * ta_plan() validates the problem, computes the lower bound into
 * res->lower_bound and starts the clock; then it calls one of these. A
 * strategy fills every offset and res->height, may set res->steps and
 * res->optimal, and returns 0 or a negative errno. ta_plan() fills
 * res->time_ns afterwards and, in debug builds, validates the plan.
 */
#ifndef TA_STRATEGY_H
#define TA_STRATEGY_H

#include "ta_planner.h"

/* stack enumerates every order, exactly, up to this many buffers. */
#define TA_STACK_EXHAUSTIVE	8

int ta_plan_auto(const struct ta_problem *p, const struct ta_budget *budget,
		 u64 *offsets, struct ta_result *res);
int ta_plan_pingpong(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res);
int ta_plan_stack(const struct ta_problem *p, const struct ta_budget *budget,
		  u64 *offsets, struct ta_result *res);
int ta_plan_freelist(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res);
int ta_plan_greedy_size(const struct ta_problem *p,
			const struct ta_budget *budget, u64 *offsets,
			struct ta_result *res);

#endif /* TA_STRATEGY_H */
