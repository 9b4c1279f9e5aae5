/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_greedy.h - greedy-size's placement (ta_greedy_size.c), which pingpong,
 * the fixed strategy and contained tensors (ta_contain.c) place with too.
 * A header of its own so that those see this function and not every
 * strategy (tests/planner-includes.sh).
 */
#ifndef TA_GREEDY_H
#define TA_GREEDY_H

#include "ta_planner.h"
#include "ta_work.h"

/*
 * Place @n buffers in greedy-size's order, after those @fixed gives: @fixed
 * (or NULL) holds offsets already given (%TA_OFFSET_UNFIXED for none).
 * Writes @offsets and the height.
 */
int ta_greedy_place(const struct ta_buffer *bufs, u32 n, const u64 *fixed,
		    u64 *offsets, u64 *height, struct ta_work *w);

/*
 * greedy-size's order into @order (@n indices), so that auto can run the
 * same pass through its own fit engine, cut at its deadline.
 */
int ta_greedy_order(const struct ta_buffer *b, u32 n, u32 *order);

#ifdef TA_PLAN_DEBUG
/* Parts ta_greedy_place() planned apart, so that tests can see it did. */
extern u64 ta_greedy_debug_parts;
#endif

#endif /* TA_GREEDY_H */
