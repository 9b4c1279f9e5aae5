/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_fit.h - the planner's one fit engine: "which placed buffers overlap
 * this one in time, and where is the lowest (or tightest) gap between
 * them?"
 *
 * greedy-size, pingpong's region packing, the fixed-offset planner, stack
 * and auto all place buffers through it (ta_fit.c). Its index of the placed
 * buffers is a max-tree over the buffers sorted by start; with
 * %TA_FIT_RUNS it also keeps the occupied address runs per time range
 * (ta_runs.c), which answers the same question faster when a buffer has
 * thousands of neighbours.
 */
#ifndef TA_FIT_H
#define TA_FIT_H

#include "ta_planner.h"
#include "ta_work.h"

/* Fit modes. */
#define TA_FIT_FIRST	0	/* lowest gap that fits */
#define TA_FIT_BEST	1	/* smallest gap that fits, the lowest on a tie */

/* ta_fit_create() flags. */
#define TA_FIT_RUNS	BIT(0)	/* keep the run index (no unplacing then) */

struct ta_fit;
struct ta_span;

/**
 * ta_fit_order_by_start() - buffer indices by start step, ties by index
 * @b: the buffers
 * @n: how many
 * @order: out, the @n indices in that order
 *
 * The fit engine's order of its buffers, and greedy-size's walk through
 * time to find its components.
 *
 * Return: 0 or -ENOMEM.
 */
int ta_fit_order_by_start(const struct ta_buffer *b, u32 n, u32 *order);

/**
 * ta_fit_create() - build the fit engine for a set of buffers
 * @b: the buffers (validated; sizes and alignments as ta_plan_solve() checks)
 * @n: how many
 * @flags: 0 or %TA_FIT_RUNS (the run index, kept from 128 buffers on:
 *	   below, enumerating neighbours costs less than building it, and
 *	   the plans are the same)
 * @w: work counter every query adds to, or NULL for one of its own
 *
 * Memory, taken here and nowhere else: about 70 bytes per buffer, plus
 * about 180 with the run index.
 *
 * Return: the engine, or NULL when memory is short.
 */
struct ta_fit *ta_fit_create(const struct ta_buffer *b, u32 n, u32 flags,
			     struct ta_work *w);

/**
 * ta_fit_destroy() - free a fit engine; NULL is a no-op
 * @f: the engine
 */
void ta_fit_destroy(struct ta_fit *f);

/**
 * ta_fit_reset() - unplace every buffer
 * @f: the engine
 */
void ta_fit_reset(struct ta_fit *f);

/**
 * ta_fit_lowest() - where one buffer fits among the placed ones
 * @f: the engine
 * @b: an unplaced buffer
 * @mode: %TA_FIT_FIRST or %TA_FIT_BEST (above every neighbour when no gap
 *	  between them fits)
 * @off: out, the offset, aligned, with @off + size below 2^63
 *
 * Counts its work (the neighbours it looked at) in the engine's counter.
 *
 * Return: 0, -EOVERFLOW, or what ta_work_add() returns (-EINTR,
 * -ETIMEDOUT).
 */
int ta_fit_lowest(struct ta_fit *f, u32 b, u32 mode, u64 *off);

/**
 * ta_fit_lowest_beside() - ta_fit_lowest() with one more span occupied
 * @f: the engine
 * @b: an unplaced buffer
 * @mode: %TA_FIT_FIRST or %TA_FIT_BEST
 * @extra: an address span taken during all of @b's lifetime (a buffer
 *	   that would be placed first), or NULL
 * @off: out, the offset
 *
 * Answers "where would @b go if that buffer were placed too" without
 * placing it, so the run index stays in use.
 *
 * Return: as ta_fit_lowest().
 */
int ta_fit_lowest_beside(struct ta_fit *f, u32 b, u32 mode,
			 const struct ta_span *extra, u64 *off);

/**
 * ta_fit_place() - record buffer @b at offset @off
 * @f: the engine
 * @b: an unplaced buffer
 * @off: its offset (the caller checked it against 2^63)
 */
void ta_fit_place(struct ta_fit *f, u32 b, u64 off);

/**
 * ta_fit_unplace_last() - undo the last ta_fit_place()
 * @f: the engine
 * @b: the buffer that call placed
 *
 * The run index cannot forget a buffer: the engine stops using it until
 * the next ta_fit_reset().
 */
void ta_fit_unplace_last(struct ta_fit *f, u32 b);

/**
 * ta_fit_run() - place every buffer in @order at its first or best fit
 * @f: the engine; reset first
 * @order: a permutation of the buffer indices
 * @mode: %TA_FIT_FIRST or %TA_FIT_BEST
 * @stop_above: abandon the pass (return -EAGAIN) once the height exceeds
 *		this; U64_MAX to always finish
 * @offsets: out, the plan
 * @height: out, its height
 * @lim: the work budget and its soft limits, checked every few hundred
 *	 placements
 *
 * Return: 0; -EAGAIN when abandoned (over @stop_above or out of time, see
 * @lim->timed_out, also set on the hard deadline); -EOVERFLOW; -EINTR.
 */
int ta_fit_run(struct ta_fit *f, const u32 *order, u32 mode, u64 stop_above,
	       u64 *offsets, u64 *height, struct ta_work *lim);

/**
 * ta_fit_bytes() - memory the engine holds
 * @f: the engine
 *
 * Return: bytes allocated by ta_fit_create().
 */
size_t ta_fit_bytes(const struct ta_fit *f);

#endif /* TA_FIT_H */
