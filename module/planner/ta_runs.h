/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_runs.h - placed buffers as runs of occupied addresses over a segment
 * tree of time (ta_runs.c), the fit engine's index for buffers with many
 * neighbours.
 */
#ifndef TA_RUNS_H
#define TA_RUNS_H

#include "ta_plan_helpers.h"

/* A list of runs: where its block starts in the pool (0: none), its length. */
struct ta_runs_list {
	u32 off, num;
};

/*
 * struct ta_runs - placed buffers as runs of occupied addresses over a
 * segment tree of time (ta_runs.c); fields are private to ta_runs.c but
 * for @work, the spans ta_runs_insert() moved since the caller last read
 * and reset it (the caller counts it as work done).
 */
#define TA_RUNS_MAX_LISTS	256
#define TA_RUNS_SINGLES		64	/* lists of one run gathered apart */
#define TA_RUNS_CLASSES		48	/* block classes with free lists */
struct ta_runs {
	u32 *pts;
	u32 m, leaf_depth, nlists, sub_base;
	struct ta_span *pool;
	u32 pool_cap, bump;
	u32 freel[TA_RUNS_CLASSES];	/* free blocks by class, + 1 */
	struct ta_runs_list *l;
	u8 *lcls;
	u8 *asked;
	struct ta_span *sa;
	u32 scap, slim, sbase;
	struct ta_span *cpool;
	u32 *coff, *cnum, *cstamp, *cmod;
	u32 cdepth, ccap, cbump, tick;
	u32 n_canon, n_anc, n_lists;
	u32 *seen, stamp;
	u32 *leaves, n, nodes_i;
	bool nodes_ok;
	u32 canon[64];
	u32 anc[64];
	u32 anc_end[64];
	const struct ta_span *lp[TA_RUNS_MAX_LISTS];
	u32 ln[TA_RUNS_MAX_LISTS];
	u64 head[TA_RUNS_MAX_LISTS];
	struct ta_span single[TA_RUNS_SINGLES];
	const struct ta_span *sp[TA_RUNS_SINGLES];
	u32 n_single;
	u64 work;
	bool ok;
};

#ifdef TA_PLAN_DEBUG
extern u32 ta_runs_debug_pool;
extern u64 ta_runs_debug_sweep_unions;
extern u64 ta_runs_debug_cache_full;
extern u64 ta_runs_debug_block_reused;
extern u64 ta_runs_debug_free_compacted;
extern u64 ta_runs_debug_pool_out;
#endif
int ta_runs_init(struct ta_runs *r, const struct ta_buffer *b,
		 const u32 *by_start, u32 n, struct ta_span *sa, u32 scap);
void ta_runs_free(struct ta_runs *r);
void ta_runs_reset(struct ta_runs *r);
void ta_runs_cache_drop(struct ta_runs *r);
size_t ta_runs_bytes(const struct ta_runs *r);
int ta_runs_insert(struct ta_runs *r, u32 i, u64 lo, u64 hi);
s64 ta_runs_query(struct ta_runs *r, u32 i, const struct ta_span **out,
		  u64 *work);

#endif /* TA_RUNS_H */
