/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_bound.h - the lower bound (ta_bound.c) and the sweep over time it
 * shares with the validator.
 */
#ifndef TA_BOUND_H
#define TA_BOUND_H

#include "ta_planner.h"
#include "ta_work.h"

/* ta_env_sort() comparator of two u64. */
int ta_cmp_u64(const void *a, const void *b);

/*
 * The 2 * @n sweep events of @bufs, sorted: step << 32 | kind << 31 |
 * buffer, kind 0 = end, 1 = start; NULL when memory is short. Free with
 * ta_env_free().
 */
u64 *ta_sweep_events(const struct ta_buffer *bufs, u32 n);

int ta_sweep_lower_bound(const struct ta_buffer *bufs, u32 n, u64 *lb,
			 struct ta_work *w);

/* The lower bound of a problem with aliases (@root): that of its merged one. */
int ta_alias_lower_bound(const struct ta_problem *p, const u32 *root,
			 u64 *lb, struct ta_work *w);

#endif /* TA_BOUND_H */
