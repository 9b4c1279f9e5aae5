/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_contract.h - search the problem with its blocks merged (ta_contract.c).
 */
#ifndef TA_CONTRACT_H
#define TA_CONTRACT_H

#include "ta_planner.h"
#include "ta_work.h"

/**
 * ta_contract_search() - merge buffers that pack as one, search, expand
 * @p: the problem (validated)
 * @lower_bound: its lower bound
 * @lim: the work budget for the merges and the search
 * @offsets: in, a valid plan; out, the expanded plan when it is lower
 * @height: in, the height of @offsets; out, of the plan returned
 * @proven: out, true when the plan returned is at @lower_bound
 *
 * Only a packing with the same live bytes at every moment, whose sizes
 * are multiples of every alignment, is merged, and only when the merges
 * take away at least a quarter of the buffers.
 *
 * Return: 0 with a lower plan in @offsets, 1 when nothing changed, 2 when
 * nothing changed because @p is not such a packing, -ENOMEM, -EINTR,
 * -ETIMEDOUT.
 */
int ta_contract_search(const struct ta_problem *p, u64 lower_bound,
		       struct ta_work *lim, u64 *offsets, u64 *height,
		       bool *proven);

/**
 * ta_contract_is_flat() - is @p a packing ta_contract_search() merges?
 * @p: the problem (validated)
 *
 * Return: 1 when @p has two buffers or more, the same live bytes at every
 * moment of its span and every size a multiple of every alignment, 0
 * when not, -ENOMEM. O(n log n).
 */
int ta_contract_is_flat(const struct ta_problem *p);

#endif /* TA_CONTRACT_H */
