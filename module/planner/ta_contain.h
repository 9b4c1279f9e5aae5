/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_contain.h - fixed plans whose tensors nest (ta_contain.c).
 *
 * Not part of any API: the hooks the fixed strategy, the plan validator
 * and the lower bound call. Only the planner's own sources include this.
 */
#ifndef TA_CONTAIN_H
#define TA_CONTAIN_H

#include "ta_plan_helpers.h"

/* &ta_contain_check()'s parent of a tensor inside no other */
#define TA_CONTAIN_NONE	U32_MAX

bool ta_contain_applies(const struct ta_problem *p, const u32 *root);
int ta_contain_check(const struct ta_problem *p, const u64 *offsets,
		     const u64 *only, u32 *parent, struct ta_conflict *c,
		     struct ta_work *w);
int ta_contain_lower_bound(const struct ta_problem *p, u64 *lb,
			   struct ta_work *w);
int ta_contain_parents(const struct ta_problem *p, u32 **parent,
		       struct ta_conflict *c, struct ta_work *w);
struct ta_buffer *ta_contain_outer(const struct ta_problem *p,
				   const u32 *parent);
int ta_contain_place(const struct ta_problem *p, const u32 *parent,
		     const struct ta_buffer *outer, u64 *offsets, u64 *height,
		     struct ta_work *w);

#endif /* TA_CONTAIN_H */
