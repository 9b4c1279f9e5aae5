/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_search_state.h - private to the search (ta_search*.c, not the fit
 * engine): the state its two engines share, their frames, and the shared
 * inference. See ta_search_state.c for the model (sections, floors, lowest
 * offsets) and its memory, ta_search_order.c for the candidate orders,
 * ta_search_propagate.c for the propagation and its undo,
 * ta_search_prune.c for the pruning, ta_search_ordered.c and
 * ta_search_skyline.c for the engines, ta_search.c for the schedule that
 * runs them.
 */
#ifndef TA_SEARCH_STATE_H
#define TA_SEARCH_STATE_H

#include "ta_search.h"

/* Heuristic flags, above the two bits that choose the order's keys. */
#define TA_SEARCH_F_ADAPT	4	/* ordered: re-rank each component */
#define TA_SEARCH_F_SKYLINE	8	/* the skyline engine */
#define TA_SEARCH_F_SHUFFLE	16	/* candidates in an order drawn anew */

/* a node costs up to O(sections): check often enough to stay bounded */
#define TA_SEARCH_CHECK_EVERY	256
#define TA_SEARCH_MAX_TRAIL	BIT(20)	/* entries of each trail, at most */
#define TA_SEARCH_MIN_TRAIL	4096	/* squeezed below: the search does not run */
/* subset sums of a section's sizes in granules, up to 64 * this many */
#define TA_SEARCH_SUM_WORDS	64
/* slabs within slabs (ta_search_slab.c), at most: bounds the recursion */
#define TA_SEARCH_SLAB_DEPTH	3
/* entries of the memo of dead states (ta_search_memo.c), at most */
#define TA_SEARCH_MEMO_MAX	BIT(15)

/* A dead state of the skyline engine, see ta_search_memo.c. */
struct ta_search_memo_entry {
	u64 where;	/* the floors and where the node decides */
	u64 placed;	/* the buffers placed */
	u64 cap_1;	/* the cap every branch failed at, plus 1; 0: empty */
};

/* One buffer's sort keys, for the candidate orders. */
struct ta_search_item {
	u64 key;	/* first key of the heuristic, larger first */
	u64 k2;		/* second key */
	u64 k3;		/* third key */
	u64 size;
	u64 align;
	u32 si;		/* first section */
	u32 ei;		/* past its last section */
	u32 idx;	/* the search buffer */
};

/* A node of the skyline engine. */
struct ta_skyline_frame {
	u64 level;	/* level of this node */
	u32 sec;	/* section decided at */
	u32 open_end;	/* first section past sec not open at level */
	u32 pending;	/* start of the pending closed run, or NONE */
	u32 next;	/* next candidate position in sky_cand */
	u32 cur;	/* buffer the current choice placed, or NONE */
	u32 closed;	/* the close choice was taken */
	u32 pass;	/* 0: flush candidates, 1: the others */
	u32 floor_mark;	/* floor trail length before the current choice */
	u32 min_mark;	/* lowest-offset trail length before it */
};

/* A node of the ordered engine. */
struct ta_ordered_frame {
	u64 last_offset;	/* offset of the buffer placed last */
	u64 min_top;		/* lowest top any unplaced buffer can reach */
	u64 key_offset;		/* key of the current choice: offset, */
	u32 key_rank;		/* and rank + 1 */
	u32 last_rank;		/* rank + 1 of the buffer placed last */
	u32 cur;		/* buffer the current choice placed, or NONE */
	u32 floor_mark;		/* floor trail length before the choice */
	u32 min_mark;		/* lowest-offset trail length before it */
	u32 rank_mark;		/* rank trail length before the re-ranking */
	u32 pool_first;		/* candidates: pool[pool_first, + pool_len), */
	u32 pool_len;
	u32 pool_next;		/* the next one at pool_first + pool_next */
	u32 lo;			/* the component being solved: sections */
	u32 hi;			/* [lo, hi) */
	u32 jump;		/* on failure back to this depth, or NONE */
	u32 plans;		/* plans found before this frame was entered */
	u32 hatless;		/* the choice overlaps no unplaced buffer */
	u32 unplaced_pos;	/* where the choice sat in unplaced_list */
};

/*
 * The search state. Buffers of size 0 take no part: the search numbers the
 * others 0..n_buffers-1 ("search buffers"); per-buffer arrays have
 * n_buffers entries, per-section ones n_sections, unless noted.
 */
struct ta_search_state {
	u32 n_buffers;		/* buffers of positive size */
	u64 bytes;		/* memory taken, at most TA_SEARCH_MAX_BYTES */
	bool over;		/* an allocation was refused: past that limit */
	u32 n_sections;		/* time between consecutive start/end times */
	u32 max_depth;		/* skyline frames available */
	bool recheck_cap;	/* the cap fell: recheck the placements */
	/* a trail, the pool or the depth ran out: the run proves nothing */
	bool overflowed;
	/* the last propagation met an unplaced buffer over the placed one */
	bool met_unplaced;
	u32 plans;		/* better plans found by this run */
	u64 cap;		/* plans must stay at or below */
	u64 best_height;	/* height of the best plan so far */
	u64 granule;		/* largest power of two dividing every size */
	u64 lower_bound_granular; /* lower bound rounded up to the granule */
	const struct ta_problem *problem;
	/*
	 * The memory the arrays below are carved from: one block per stage
	 * of ta_search_state_init() (the buffers; the sections; the live
	 * lists and the rest; the trails and the pool).
	 */
	void *mem[4];

	/* the buffers */
	u32 *problem_index;	/* search buffer -> problem buffer */
	u32 *sec_first;		/* first section a buffer is live in */
	u32 *sec_end;		/* past the last one */
	u64 *size;
	u64 *align;		/* at least 1 */
	u64 *offset;		/* where a placed buffer is */
	u8 *placed;
	u64 *min_offset;	/* lowest offset an unplaced buffer can take */
	u32 *buffer_stamp;	/* visited by the propagation of stamp_now */
	u32 *changed;		/* buffers whose min_offset rose (scratch) */

	/* the sections */
	u64 *floor;		/* no unplaced buffer can go below */
	u64 *unplaced_bytes;	/* bytes of the unplaced buffers live there */
	u64 *live_bytes;	/* bytes of all the buffers live there */
	u32 *live;		/* the buffers live in each section */
	u32 *live_first;	/* n_sections + 1 starts of the lists in live */
	u32 *live_unplaced;	/* how many lead each list: the unplaced ones */
	u32 *section_stamp;	/* lifted by the propagation of stamp_now */
	u32 stamp_now;
	/* ta_search_tiles(): section boundaries reached in check tile_now */
	u32 *tile_stamp;	/* n_sections + 1 */
	u32 tile_now;
	/* subset sums: two bitsets of TA_SEARCH_SUM_WORDS words */
	u64 *sum_bits;

	/* candidate orders */
	struct ta_search_item *items;	/* sort scratch */
	u32 heuristic;		/* of this run: key choice and TA_SEARCH_F_* */
	u64 shuffle;		/* nonzero: rank by a hash with this seed */
	u32 *rank;		/* position in the current order */
	u32 *by_rank;		/* the buffers in that order */
	/* identical buffer just before in it, or NONE: it goes first */
	u32 *identical_before;
	u32 *sky_cand;		/* skyline: the order, by start section */
	u32 *sky_cand_first;	/* n_sections + 1 starts in sky_cand */

	/* the ordered engine */
	struct ta_ordered_frame *ordered_frames;	/* n_buffers + 1 */
	u32 *crossing;		/* unplaced buffers crossing each boundary */
	u32 *crossing_initial;	/* all the buffers crossing it */
	u32 *cut_at_depth;	/* depth whose choice cut a boundary */
	u32 *pool;		/* candidate lists of the frames, stacked */
	u32 pool_size;
	u32 *unplaced_list;	/* unplaced buffers first, placed after */
	u32 *unplaced_pos;	/* position of each buffer in unplaced_list */
	u32 n_unplaced;
	u32 reranked;		/* buffers re-ranked since the last node */

	/* the skyline engine */
	struct ta_skyline_frame *sky_frames;	/* max_depth */
	/* its memo of dead states: signatures kept up to date by the state */
	u64 *buffer_sig;	/* of each buffer: the same for identical ones */
	u64 placed_sig;		/* sum of buffer_sig over the placed buffers */
	u64 floor_sig;		/* sum of ta_search_floor_sig() over sections */
	struct ta_search_memo_entry *memo;	/* memo_mask + 1 entries */
	u32 memo_mask;

	/* undo trails, sized by ta_search_state_init() */
	u32 floor_trail_size;
	u32 min_trail_size;
	u32 rank_trail_size;
	u32 floor_trail_len;
	u32 *floor_trail_section;	/* a floor that rose, */
	u64 *floor_trail_value;		/* and its old value */
	u32 min_trail_len;
	u32 *min_trail_buffer;		/* a min_offset that rose, */
	u64 *min_trail_value;		/* and its old value */
	u32 rank_trail_len;
	u32 *rank_trail_buffer;		/* a rank a re-ranking changed, */
	u32 *rank_trail_value;		/* and its old value */
};

/* splitmix64's finaliser: a 64-bit mix for the memo's signatures */
static inline u64 ta_search_mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* What section @t at floor @v adds to the floor signature (0 at floor 0). */
static inline u64 ta_search_floor_sig(u32 t, u64 v)
{
	return v ? ta_search_mix(ta_search_mix(t) ^ v) : 0;
}

int ta_search_whole(const struct ta_problem *p, u64 lower_bound,
		    struct ta_work *lim, u64 *offsets, u64 *height,
		    bool *proven, u64 reserved);
/**
 * struct ta_search_job - one problem for the search, and what it gives back
 * @p: the problem (validated)
 * @lower_bound: a height no plan goes below, as far as the caller cares
 * @lim: the work budget and its soft limits
 * @offsets: in, a valid plan; out, the best plan found
 * @height: in, its height; out, the best height found
 * @proven: out, true when @height is proven optimal (as for
 *	    ta_search_whole())
 * @reserved: memory the caller holds, counted in %TA_SEARCH_MAX_BYTES
 * @slabs: how deep slabs may still nest (ta_search_slab.c); 0 for none
 *
 * Parts, slabs and strips make jobs of their own for the pieces they
 * search, down to ta_search_whole().
 */
struct ta_search_job {
	const struct ta_problem *p;
	u64 lower_bound;
	struct ta_work *lim;
	u64 *offsets;
	u64 *height;
	bool *proven;
	u64 reserved;
	u32 slabs;
};

int ta_search_parts(const struct ta_search_job *job);
int ta_search_split(const struct ta_search_job *job);
int ta_search_one(const struct ta_search_job *job);
int ta_search_slab(const struct ta_search_job *job);
int ta_search_strips(const struct ta_search_job *job);

/**
 * ta_search_mem_fits() - whether @more bytes on top of @taken stay within
 * %TA_SEARCH_MAX_BYTES
 * @taken: what the search and its callers hold already
 * @more: what a step is about to take
 *
 * Every structure of the search (its state, parts, slabs, strips) asks
 * before it allocates, so the search as a whole never holds more than the
 * limit; a step that does not fit is not taken (-E2BIG, or "nothing
 * changed").
 *
 * Return: true when it fits.
 */
static inline bool ta_search_mem_fits(u64 taken, u64 more)
{
	return taken <= TA_SEARCH_MAX_BYTES &&
	       more <= TA_SEARCH_MAX_BYTES - taken;
}

u32 ta_search_moments(const struct ta_problem *p, u32 *times);
int ta_search_state_init(struct ta_search_state *s,
			 const struct ta_problem *p);
void ta_search_state_free(struct ta_search_state *s);
int ta_search_state_rebuild(struct ta_search_state *s,
			    const struct ta_problem *p, u64 reserved);
int ta_search_cmp_rank(const void *a, const void *b);
void ta_search_keys(struct ta_search_item *it, u32 h, u64 size, u64 len,
		    u64 area, u64 total);
void ta_search_order(struct ta_search_state *s, const struct ta_problem *p,
		     u32 h);
bool ta_search_set_floor(struct ta_search_state *s, u32 t, u64 v);
void ta_search_mark_placed(struct ta_search_state *s, u32 u);
void ta_search_mark_unplaced(struct ta_search_state *s, u32 u);
void ta_search_reset(struct ta_search_state *s);
bool ta_search_propagate(struct ta_search_state *s, u32 lo, u32 hi, u64 val);
bool ta_search_lift_floors(struct ta_search_state *s, u32 nchg);
void ta_search_undo_floors(struct ta_search_state *s, u32 mark);
void ta_search_undo_min_offsets(struct ta_search_state *s, u32 mark);
bool ta_search_fits(struct ta_search_state *s);

/* what ta_search_resume() says */
enum { TA_SEARCH_GO_ON, TA_SEARCH_POP, TA_SEARCH_DONE };
int ta_search_resume(struct ta_search_state *s);
bool ta_search_tiles(struct ta_search_state *s, u32 t, u32 *run_end);
bool ta_search_boundary(struct ta_search_state *s, u32 b);
bool ta_search_tight(struct ta_search_state *s, u32 lo, u32 hi);
void ta_search_solution(struct ta_search_state *s, u64 *offsets);

u32 ta_search_memo_entries(const struct ta_search_state *s);
void ta_search_memo_init(struct ta_search_state *s, u32 entries);
bool ta_search_memo_dead(struct ta_search_state *s,
			 const struct ta_skyline_frame *f);
void ta_search_memo_store(struct ta_search_state *s,
			  const struct ta_skyline_frame *f);

int ta_ordered_run(struct ta_search_state *s, u64 node_limit,
		   struct ta_work *lim, u64 *offsets);
int ta_skyline_run(struct ta_search_state *s, u64 node_limit,
		   struct ta_work *lim, u64 *offsets);

/**
 * ta_search_node() - the bookkeeping of one node, shared by both engines
 * @lim: the caller's limits, checked every %TA_SEARCH_CHECK_EVERY steps
 * @nodes: the run's node count
 * @node_limit: the run's node budget, checked always
 *
 * Return: 1 to go on; otherwise what the engine returns (0 when it stops
 * at a limit, -errno).
 */
static inline int ta_search_node(struct ta_work *lim, u64 *nodes,
				 u64 node_limit)
{
	int ret;

	if (!(++lim->steps & (TA_SEARCH_CHECK_EVERY - 1))) {
		ret = ta_work_limit_hit(lim);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return ++*nodes > node_limit ? 0 : 1;
}

#endif /* TA_SEARCH_STATE_H */
