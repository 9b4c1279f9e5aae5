// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_ordered.c - the ordered engine of the search, the main one.
 *
 * The next buffer is any unplaced one, placed at its lowest offset, taken
 * in order of (lowest offset, rank in a heuristic order); the keys along a
 * branch never decrease, so each canonical plan is built once. Every
 * section must fit its unplaced bytes above max(its floor, the last
 * offset). Dominance: a buffer whose lowest offset is at or above the
 * lowest top another unplaced buffer could reach would leave a gap that
 * buffer fits in, so it waits; once a buffer no unplaced buffer overlaps
 * has been tried, the node is done. Identical buffers go in a fixed order.
 *
 * When no unplaced buffer crosses some section boundary any more, the rest
 * splits into independent components, solved left to right; when one fails
 * without having yielded a plan, the search jumps back to the last choice
 * that cut it off instead of trying the alternatives of the components to
 * its left. Optionally (%TA_SEARCH_F_ADAPT) each component is re-ranked by
 * the bytes still unplaced.
 */
#include "ta_search_state.h"

#define TA_SEARCH_SMALL_SORT	32	/* insertion sort up to this many */
#define TA_SEARCH_RERANK_COST	2	/* log2 of buffers re-ranked per node */

/*
 * A new component: rank its buffers afresh by the run's heuristic, with
 * the crowding of each section taken from the bytes still unplaced there.
 */
static bool ta_ordered_rerank(struct ta_search_state *s, u32 lo, u32 hi)
{
	const struct ta_problem *p = s->problem;
	u32 i, j, t, k = 0;

	for (j = 0; j < s->n_unplaced; j++) {
		u32 i = s->unplaced_list[j];
		const struct ta_buffer *b = &p->buffers[s->problem_index[i]];
		struct ta_search_item *it;
		u64 len = b->end - b->start, area, total = 0;

		if (s->sec_first[i] < lo || s->sec_end[i] > hi)
			continue;
		it = &s->items[k++];
		if (__builtin_mul_overflow(s->size[i], len, &area))
			area = U64_MAX;
		for (t = s->sec_first[i]; t < s->sec_end[i]; t++)
			if (s->unplaced_bytes[t] > total)
				total = s->unplaced_bytes[t];
		ta_search_keys(it, s->heuristic, s->size[i], len, area, total);
		it->size = s->size[i];
		it->align = s->align[i];
		it->si = s->sec_first[i];
		it->ei = s->sec_end[i];
		it->idx = i;
	}
	s->reranked += k;
	if (k > TA_SEARCH_SMALL_SORT) {
		ta_env_sort(s->items, k, sizeof(*s->items), ta_search_cmp_rank);
	} else {
		/* small components are the common case: insertion sort */
		for (i = 1; i < k; i++) {
			struct ta_search_item x = s->items[i];

			for (j = i; j &&
			     ta_search_cmp_rank(&s->items[j - 1], &x) > 0; j--)
				s->items[j] = s->items[j - 1];
			s->items[j] = x;
		}
	}
	if (s->rank_trail_len + k > s->rank_trail_size) {
		s->overflowed = true;
		return false;
	}
	for (i = 0; i < k; i++) {
		u32 v = s->items[i].idx;

		s->rank_trail_buffer[s->rank_trail_len] = v;
		s->rank_trail_value[s->rank_trail_len++] = s->rank[v];
		s->rank[v] = i;
	}
	return true;
}

/* Undo the rank trail back to @mark. */
static void ta_ordered_undo_ranks(struct ta_search_state *s, u32 mark)
{
	while (s->rank_trail_len > mark) {
		u32 k = --s->rank_trail_len;

		s->rank[s->rank_trail_buffer[k]] = s->rank_trail_value[k];
	}
}

/*
 * The depth whose choice cut boundary @t (no unplaced buffer crosses it any
 * more), plus one; 0 when no choice did (the problem's own cut, or @t at
 * either end).
 */
static u32 ta_ordered_cut_depth(struct ta_search_state *s, u32 t)
{
	if (!t || t >= s->n_sections || s->cut_at_depth[t] == TA_SEARCH_NONE)
		return 0;
	return s->cut_at_depth[t] + 1;
}

/*
 * Can an unplaced buffer live in section @t still start at @off, the
 * offset of the last choice, with key (@off, @rank)? One whose lowest
 * offset is below @off never can: that only rises to the top of a buffer
 * placed later, above @off. If none can, the section stays empty from its
 * floor (at most @off) to @off + granule, the next offset anything can
 * take (every offset is a multiple of the granule).
 */
static bool ta_ordered_fills(struct ta_search_state *s, u32 t, u64 off,
			     u32 rank)
{
	u32 j, end = s->live_first[t] + s->live_unplaced[t];

	for (j = s->live_first[t]; j < end; j++) {
		u32 w = s->live[j];

		if (s->min_offset[w] == off && s->rank[w] + 1 > rank)
			return true;
	}
	return false;
}

/*
 * Buffer @i of the component, when it may be a candidate after the key
 * (@off, @rank): at its lowest offset below *@mt, the lowest top of those
 * seen so far (lowered here), and not after an unplaced identical one.
 * Return: false when the pool is full (@s->overflowed set).
 */
static inline bool ta_ordered_consider(struct ta_search_state *s, u32 i,
				       u64 off, u32 rank, u64 *mt, u32 pl,
				       u32 *pn)
{
	u64 m = s->min_offset[i];
	u32 r = s->rank[i] + 1;

	if (m + s->size[i] < *mt)
		*mt = m + s->size[i];
	if (m >= *mt)
		return true;
	if (m < off || (m == off && r <= rank))
		return true;
	if (s->identical_before[i] != TA_SEARCH_NONE &&
	    !s->placed[s->identical_before[i]])
		return true;
	if (pl + *pn >= s->pool_size) {
		s->overflowed = true;
		return false;
	}
	s->pool[pl + (*pn)++] = i;
	return true;
}

/*
 * Set up frame @f after a choice with key (@off, @rank) in the component
 * [@plo, @phi): find the component to solve now and its candidates.
 * Return: 1 for a node to search, 2 when every buffer is placed (a plan),
 * 0 when the state cannot fit the cap.
 */
static int ta_ordered_enter(struct ta_search_state *s,
			    struct ta_ordered_frame *f, u64 off, u32 rank,
			    u32 plo, u32 phi)
{
	u64 mt = U64_MAX;
	u32 i, j, k, t, lo, hi, pl, pn, live = 0, jump = TA_SEARCH_NONE;

	lo = plo;
	while (lo < s->n_sections && !s->unplaced_bytes[lo])
		lo++;
	if (lo >= s->n_sections)
		return 2;
	hi = lo + 1;
	while (hi < s->n_sections && s->crossing[hi])
		hi++;
	if (lo >= phi) {
		/*
		 * The component is done; the next one is independent of how
		 * it was solved: if it fails, go back to the last choice that
		 * cut it off (its left or its right boundary), with the key
		 * that choice left.
		 */
		jump = ta_ordered_cut_depth(s, lo);
		if (ta_ordered_cut_depth(s, hi) > jump)
			jump = ta_ordered_cut_depth(s, hi);
		if (jump) {
			off = s->ordered_frames[jump - 1].key_offset;
			rank = s->ordered_frames[jump - 1].key_rank;
		} else {
			off = 0;
			rank = 0;
		}
	}
	if (s->heuristic & TA_SEARCH_F_ADAPT) {
		bool split = f == s->ordered_frames || lo >= phi;

		for (t = hi; !split && t < phi; t++)
			split = s->unplaced_bytes[t] != 0;
		if (split) {
			if (!ta_ordered_rerank(s, lo, hi))
				return 0;
			rank = 0;
		}
	}
	for (t = lo; t < hi; t++) {
		u64 fl = s->floor[t] > off ? s->floor[t] : off;

		live += s->live_unplaced[t];
		if (!s->unplaced_bytes[t])
			continue;
		if (fl > s->cap || s->unplaced_bytes[t] > s->cap - fl)
			return 0;
		/* less than a granule to spare: something must start at off */
		if (fl == off &&
		    s->granule > s->cap - fl - s->unplaced_bytes[t] &&
		    !ta_ordered_fills(s, t, off, rank))
			return 0;
	}
	/*
	 * One pass: keep every buffer of the component that could still be a
	 * candidate under the lowest top seen so far, then drop those at or
	 * above the final lowest top and sort the rest by (offset, rank).
	 */
	pl = f == s->ordered_frames ? 0 :
				      (f - 1)->pool_first + (f - 1)->pool_len;
	pn = 0;
	if (live < s->n_unplaced) {
		/* a narrow component: its buffers by their start sections */
		for (t = lo; t < hi; t++) {
			u32 end = s->live_first[t] + s->live_unplaced[t];

			for (j = s->live_first[t]; j < end; j++) {
				i = s->live[j];
				if (s->sec_first[i] == t &&
				    !ta_ordered_consider(s, i, off, rank, &mt,
							 pl, &pn))
					return 0;
			}
		}
	} else {
		for (j = 0; j < s->n_unplaced; j++) {
			i = s->unplaced_list[j];
			if (s->sec_first[i] >= lo && s->sec_end[i] <= hi &&
			    !ta_ordered_consider(s, i, off, rank, &mt, pl, &pn))
				return 0;
		}
	}
	k = pl;
	for (j = pl; j < pl + pn; j++) {
		u32 v = s->pool[j], q;
		u64 m = s->min_offset[v];
		u32 r = s->rank[v];

		if (m >= mt)
			continue;
		/* insertion by (offset, rank) */
		for (q = k; q > pl; q--) {
			u32 w = s->pool[q - 1];

			if (s->min_offset[w] < m ||
			    (s->min_offset[w] == m && s->rank[w] < r))
				break;
			s->pool[q] = w;
		}
		s->pool[q] = v;
		k++;
	}
	pn = k - pl;
	f->pool_first = pl;
	f->pool_len = pn;
	f->pool_next = 0;
	f->last_offset = off;
	f->last_rank = rank;
	f->min_top = mt;
	f->key_offset = off;
	f->key_rank = rank;
	f->cur = TA_SEARCH_NONE;
	f->floor_mark = s->floor_trail_len;
	f->min_mark = s->min_trail_len;
	f->rank_mark = s->rank_trail_len;
	f->lo = lo;
	f->hi = hi;
	f->jump = jump;
	f->plans = s->plans;
	f->hatless = 0;
	return 1;
}

static void ta_ordered_undo(struct ta_search_state *s,
			    struct ta_ordered_frame *f)
{
	u32 t;

	if (f->cur != TA_SEARCH_NONE) {
		u32 u = f->cur, w;

		for (t = s->sec_first[u]; t < s->sec_end[u]; t++)
			s->unplaced_bytes[t] += s->size[u];
		for (t = s->sec_first[u] + 1; t < s->sec_end[u]; t++)
			s->crossing[t]++;
		ta_search_mark_unplaced(s, u);
		/* swap u back from its parking place */
		w = s->unplaced_list[f->unplaced_pos];
		s->unplaced_list[f->unplaced_pos] = u;
		s->unplaced_list[s->n_unplaced] = w;
		s->unplaced_pos[u] = f->unplaced_pos;
		s->unplaced_pos[w] = s->n_unplaced++;
		f->cur = TA_SEARCH_NONE;
	}
	ta_search_undo_floors(s, f->floor_mark);
	ta_search_undo_min_offsets(s, f->min_mark);
	ta_ordered_undo_ranks(s, f->rank_mark);
}

/* The frame's next candidate, in key order; NONE when none is left. */
static u32 ta_ordered_next(struct ta_search_state *s,
			   struct ta_ordered_frame *f)
{
	while (f->pool_next < f->pool_len) {
		u32 u = s->pool[f->pool_first + f->pool_next++];
		u64 m = s->min_offset[u];

		f->key_offset = m;
		f->key_rank = s->rank[u] + 1;
		if (m > s->cap || s->size[u] > s->cap - m)
			continue;
		return u;
	}
	return TA_SEARCH_NONE;
}

/**
 * ta_ordered_run() - one depth-first run of the ordered engine
 * @s: the state, ranked by ta_search_order(), with its cap and heuristic
 *     set
 * @node_limit: nodes to spend at most
 * @lim: the caller's limits
 * @offsets: out, every better plan found
 *
 * Return: 1 when the run was complete (no plan at or below the cap it
 * ended with, unless @s->overflowed), 0 when a limit stopped it, or
 * -EINTR.
 */
int ta_ordered_run(struct ta_search_state *s, u64 node_limit,
		   struct ta_work *lim, u64 *offsets)
{
	u64 nodes = 0, top;
	u32 depth = 1, t, w;
	int ret, resume;

	ta_ordered_undo_ranks(s, 0);
	ta_search_reset(s);
	for (t = 0; t < s->n_sections; t++) {
		s->crossing[t] = s->crossing_initial[t];
		s->cut_at_depth[t] = TA_SEARCH_NONE;
	}
	for (t = 0; t < s->n_buffers; t++) {
		s->unplaced_list[t] = s->by_rank[t];
		s->unplaced_pos[s->by_rank[t]] = t;
	}
	s->n_unplaced = s->n_buffers;
	s->reranked = 0;
	s->plans = 0;
	ret = ta_ordered_enter(s, &s->ordered_frames[0], 0, 0, 0,
			       s->n_sections);
	if (ret != 1)
		return 1;
	while (depth) {
		struct ta_ordered_frame *f = &s->ordered_frames[depth - 1];
		u32 u;

		ta_ordered_undo(s, f);
		resume = ta_search_resume(s);
		if (resume == TA_SEARCH_DONE)
			return 1;
		if (resume == TA_SEARCH_POP) {
			depth--;
			continue;
		}
		/* re-ranking costs a node per 2^RERANK_COST buffers sorted */
		nodes += s->reranked >> TA_SEARCH_RERANK_COST;
		s->reranked &= BIT(TA_SEARCH_RERANK_COST) - 1;
		ret = ta_search_node(lim, &nodes, node_limit);
		if (ret <= 0)
			return ret;
		/*
		 * A buffer nothing unplaced overlaps is best placed now: if
		 * that failed, so does every other choice here.
		 */
		u = f->hatless ? TA_SEARCH_NONE : ta_ordered_next(s, f);
		if (u == TA_SEARCH_NONE) {
			/*
			 * A component that yielded a plan may fit the lower
			 * cap with other choices to its left: back up normally.
			 */
			if (f->jump == TA_SEARCH_NONE || f->plans != s->plans) {
				depth--;
				continue;
			}
			/* an independent component failed: skip its siblings */
			for (t = depth - 1; t-- > f->jump;)
				ta_ordered_undo(s, &s->ordered_frames[t]);
			depth = f->jump;
			continue;
		}
		ta_search_mark_placed(s, u);
		s->offset[u] = f->key_offset;
		f->cur = u;
		/* park u after the unplaced ones */
		f->unplaced_pos = s->unplaced_pos[u];
		w = s->unplaced_list[--s->n_unplaced];
		s->unplaced_list[f->unplaced_pos] = w;
		s->unplaced_pos[w] = f->unplaced_pos;
		s->unplaced_list[s->n_unplaced] = u;
		s->unplaced_pos[u] = s->n_unplaced;
		for (t = s->sec_first[u] + 1; t < s->sec_end[u]; t++)
			if (!--s->crossing[t])
				s->cut_at_depth[t] = depth - 1;
		top = f->key_offset + s->size[u];
		for (t = s->sec_first[u]; t < s->sec_end[u]; t++) {
			s->unplaced_bytes[t] -= s->size[u];
			if (!ta_search_set_floor(s, t, top))
				break;
		}
		if (t < s->sec_end[u] ||
		    !ta_search_propagate(s, s->sec_first[u], s->sec_end[u],
					 top))
			continue;
		f->hatless = !s->met_unplaced;
		/* the sections u covers now stand on its top */
		if (!ta_search_tight(s, s->sec_first[u], s->sec_end[u]))
			continue;
		if (depth >= s->n_buffers + 1) {
			s->overflowed = true;
			continue;
		}
		ret = ta_ordered_enter(s, &s->ordered_frames[depth],
				       f->key_offset, f->key_rank, f->lo,
				       f->hi);
		if (ret == 2)
			ta_search_solution(s, offsets);
		else if (ret == 1)
			depth++;
	}
	return 1;
}
