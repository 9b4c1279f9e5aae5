/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_plan_helpers.h - helpers shared by the planner's own sources.
 *
 * Not part of any API: only the planner's own sources include this.
 * Everything here is plain C under the same rules as the rest of the core
 * (see ta_env.h): no libc, no floating point, no 64-bit division.
 */
#ifndef TA_PLAN_HELPERS_H
#define TA_PLAN_HELPERS_H

#include "ta_strategy.h"

/*
 * Long loops count their work in a struct ta_work (ta_strategy.h) and call
 * ta_work_add(), which yields and checks the deadline every %TA_WORK_CHUNK
 * units.
 */

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

/* An address span [lo, hi). */
struct ta_span {
	u64 lo;
	u64 hi;
};

/*
 * struct ta_runs - placed buffers as runs of occupied addresses over a
 * segment tree of time (ta_runs.c); fields are private to ta_runs.c but
 * for @work, the spans ta_runs_insert() moved since the caller last read
 * and reset it (the caller counts it as work done).
 */
#define TA_RUNS_MAX_LISTS	256
struct ta_runs {
	u32 *pts;
	u32 m, leaf_depth, nlists, sub_base;
	struct ta_span *pool;
	u32 pool_cap, bump;
	u32 *loff, *lnum;
	u8 *lcls;
	struct ta_span *sa, *sb;
	u32 scap;
	struct ta_span *cpool;
	u32 *coff, *cnum;
	u32 cdepth, ccap, cbump;
	u32 n_canon, n_anc, n_lists;
	u32 canon[64];
	u32 anc[64];
	const struct ta_span *lp[TA_RUNS_MAX_LISTS];
	u32 ln[TA_RUNS_MAX_LISTS];
	u64 work;
	bool ok;
};

#ifdef TA_PLAN_DEBUG
extern u32 ta_runs_debug_pool;
#endif
int ta_runs_init(struct ta_runs *r, const struct ta_buffer *b, u32 n,
		 struct ta_span *sa, struct ta_span *sb, u32 scap);
void ta_runs_free(struct ta_runs *r);
void ta_runs_reset(struct ta_runs *r);
size_t ta_runs_bytes(const struct ta_runs *r);
int ta_runs_insert(struct ta_runs *r, u32 s, u32 e, u64 lo, u64 hi);
s64 ta_runs_query(struct ta_runs *r, u32 s, u32 e,
		  const struct ta_span **out, u64 *work);

int ta_greedy_place(const struct ta_buffer *bufs, u32 n, const u64 *fixed,
		    u64 *offsets, u64 *height, struct ta_work *w);

#endif /* TA_PLAN_HELPERS_H */
