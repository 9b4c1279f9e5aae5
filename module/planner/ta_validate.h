/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_validate.h - the plan validator (ta_validate.c), shared by the entry
 * points (ta_plan.c) and the fixed strategy (ta_fixed.c).
 */
#ifndef TA_VALIDATE_H
#define TA_VALIDATE_H

#include "ta_planner.h"
#include "ta_work.h"

void ta_conflict_set(struct ta_conflict *c, u32 kind, u32 a, u32 b,
		     u32 step);
/*
 * Alignment and height of every buffer (with @only, of the fixed ones);
 * *@top gets max(offset + size) of those with bytes.
 */
int ta_check_offsets(const struct ta_problem *p, const u64 *offsets,
		     const u64 *only, u64 height, u64 *top,
		     struct ta_conflict *c, struct ta_work *w);
/*
 * The plan check of a validated problem, over the buffers with bytes (with
 * @only, the fixed ones); @root its alias classes or NULL.
 */
int ta_check_plan(const struct ta_problem *p, const u64 *offsets,
		  const u64 *only, const u32 *root, u64 height,
		  struct ta_conflict *conflict, struct ta_work *w);
/* Zero-size buffers sit at 0; the height is recomputed, never trusted. */
int ta_plan_finish(const struct ta_problem *p, u64 *offsets,
		   struct ta_result *res);

#endif /* TA_VALIDATE_H */
