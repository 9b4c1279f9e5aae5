/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_sort.h - a stable radix sort of 64-bit keys (ta_sort.c), for the
 * planner's large sorts: the placement and start orders, the sweep events.
 */
#ifndef TA_SORT_H
#define TA_SORT_H

#include "ta_planner.h"

size_t ta_radix_scratch_words(u32 n, bool with_val);
void ta_radix_sort_in(u64 *key, u32 *val, u32 n, u64 *scratch);
void ta_radix_sort_above(u64 *key, u32 *val, u32 n, u64 *scratch, u32 low);

#endif /* TA_SORT_H */
