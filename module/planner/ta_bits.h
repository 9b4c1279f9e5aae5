/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_bits.h - a set of small integers with fast predecessor and successor
 * (ta_bits.c), for the plan validator and the free-list strategy.
 */
#ifndef TA_BITS_H
#define TA_BITS_H

#include "ta_planner.h"

/*
 * struct ta_bits - a set of small integers with fast predecessor/successor:
 * a bitmap plus up to three summary levels, 64 children per word, so every
 * query touches at most eight words. Sized for %TA_PLAN_MAX_BUFFERS * 2
 * members (four levels of 64-way fan-out reach 2^24).
 */
#define TA_BITS_LEVELS	4
struct ta_bits {
	u64 *word[TA_BITS_LEVELS];
	u32 nwords[TA_BITS_LEVELS];
	u32 levels;
};

size_t ta_bits_words(u32 n);
void ta_bits_init(struct ta_bits *b, u32 n, u64 *mem);
void ta_bits_set(struct ta_bits *b, u32 i);
void ta_bits_clear(struct ta_bits *b, u32 i);
s64 ta_bits_next(const struct ta_bits *b, u32 i);
s64 ta_bits_prev(const struct ta_bits *b, u32 i);

#endif /* TA_BITS_H */
