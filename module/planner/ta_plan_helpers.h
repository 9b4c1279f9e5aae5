/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_plan_helpers.h - helpers shared by the planner's own sources.
 *
 * Not part of any API: only the planner's own sources include this. A
 * leaf: inline helpers and limits only, no function another file defines.
 * Everything here is plain C under the same rules as the rest of the core
 * (see ta_env.h): no libc, no floating point, no 64-bit division.
 */
#ifndef TA_PLAN_HELPERS_H
#define TA_PLAN_HELPERS_H

#include "ta_planner.h"

/* Largest height (and offset + size) a plan may reach: 2^63 - 1. */
#define TA_PLAN_MAX_HEIGHT	(TA_PLAN_MAX_SIZE - 1)

/**
 * ta_align_up() - round @v up to a multiple of the power of two @a
 * @v: value, below 2^63
 * @a: alignment, a power of two no larger than %TA_PLAN_MAX_ALIGN
 *
 * Return: the rounded value; cannot wrap for the documented ranges.
 */
static inline u64 ta_align_up(u64 v, u64 a)
{
	return (v + a - 1) & ~(a - 1);
}

/**
 * ta_xorshift64() - the next value of a xorshift64 generator
 * @state: its state, never 0
 *
 * The planner's searches draw their random choices from it, so that a run
 * is the same on every machine.
 *
 * Return: the new state, the value drawn.
 */
static inline u64 ta_xorshift64(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/**
 * ta_is_pow2() - whether @a is a power of two
 * @a: value
 *
 * Return: true when exactly one bit of @a is set.
 */
static inline bool ta_is_pow2(u64 a)
{
	return a && !(a & (a - 1));
}

/* Overlap of two half-open lifetimes. */
static inline bool ta_live_overlap(const struct ta_buffer *a,
				   const struct ta_buffer *b)
{
	return a->start < b->end && b->start < a->end;
}

/* An address span [lo, hi). */
struct ta_span {
	u64 lo;
	u64 hi;
};

#endif /* TA_PLAN_HELPERS_H */
