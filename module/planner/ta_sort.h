/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_sort.h - a stable radix sort of 64-bit keys (ta_sort.c), for the
 * planner's large sorts: the placement and start orders, the sweep events.
 */
#ifndef TA_SORT_H
#define TA_SORT_H

#include "ta_planner.h"

int ta_radix_sort(u64 *key, u32 *val, u32 n);

#endif /* TA_SORT_H */
