// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_stack.c - placeholder: plans with greedy-by-size until the real
 * strategy lands.
 */
#include "ta_strategy.h"

int ta_plan_stack(const struct ta_problem *p, const struct ta_budget *budget,
	       u64 *offsets, struct ta_result *res)
{
	return ta_plan_greedy_size(p, budget, offsets, res);
}
