// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_skyline.c - the skyline engine of the search: it builds
 * canonical plans at the lowest point of the skyline. At level x it takes
 * the leftmost open section a and branches on which buffer starting at a
 * goes at x, or on closing a; a walled-in run of closed sections rises to
 * the lower of its neighbours. Identical buffers go in a fixed order only.
 * Candidates whose top would be flush with the floor of the section just
 * before or just after them go first: a zero-slack packing is built of
 * such rows (on the perfect cuts, 39 of 48 against 38 without).
 */
#include "ta_search_state.h"

/* Set up frame @f for the node at level @x, scanning from @scan. */
static bool ta_skyline_enter(struct ta_search_state *s,
			     struct ta_skyline_frame *f, u64 x, u32 scan,
			     u32 p)
{
	u32 a = scan, r;

	while (a < s->n_sections &&
	       !(s->unplaced_bytes[a] && s->floor[a] == x))
		a++;
	if (a >= s->n_sections) {
		u64 m = U64_MAX;

		for (a = 0; a < s->n_sections; a++)
			if (s->unplaced_bytes[a] && s->floor[a] < m)
				m = s->floor[a];
		if (m == U64_MAX)
			return false;
		x = m;
		a = 0;
		while (!(s->unplaced_bytes[a] && s->floor[a] == x))
			a++;
		p = TA_SEARCH_NONE;
	}
	r = a + 1;
	while (r < s->n_sections && s->floor[r] == x)
		r++;
	f->level = x;
	f->sec = a;
	f->open_end = r;
	f->pending = p;
	f->next = s->sky_cand_first[a];
	f->cur = TA_SEARCH_NONE;
	f->closed = 0;
	f->pass = 0;
	f->floor_mark = s->floor_trail_len;
	f->min_mark = s->min_trail_len;
	return true;
}

static void ta_skyline_undo(struct ta_search_state *s,
			    struct ta_skyline_frame *f)
{
	u32 t;

	if (f->cur != TA_SEARCH_NONE) {
		u32 u = f->cur;

		for (t = s->sec_first[u]; t < s->sec_end[u]; t++)
			s->unplaced_bytes[t] += s->size[u];
		ta_search_mark_unplaced(s, u);
		f->cur = TA_SEARCH_NONE;
	}
	ta_search_undo_floors(s, f->floor_mark);
	ta_search_undo_min_offsets(s, f->min_mark);
}

/* Raise the walled-in closed run [lo, hi) from its level to its neighbours. */
static bool ta_skyline_raise(struct ta_search_state *s, u32 lo, u32 hi)
{
	u64 y = U64_MAX;
	u32 t;

	if (lo > 0 && s->unplaced_bytes[lo - 1])
		y = s->floor[lo - 1];
	if (hi < s->n_sections && s->unplaced_bytes[hi] && s->floor[hi] < y)
		y = s->floor[hi];
	if (y == U64_MAX || y > s->cap)
		return false;
	for (t = lo; t < hi; t++)
		if (s->unplaced_bytes[t] > s->cap - y)
			return false;
	for (t = lo; t < hi; t++)
		if (s->floor[t] < y && !ta_search_set_floor(s, t, y))
			return false;
	return ta_search_propagate(s, lo, hi, 0) &&
	       ta_search_tight(s, lo, hi);
}

/*
 * Would candidate @u at frame @f end flush with a neighbour: its top at
 * the floor of the section before it or of the one after it?
 */
static bool ta_skyline_flush(const struct ta_search_state *s,
			     const struct ta_skyline_frame *f, u32 u)
{
	u64 top = f->level + s->size[u];
	u32 e = s->sec_end[u];

	return (f->sec > 0 && s->floor[f->sec - 1] == top) ||
	       (e < s->n_sections && s->floor[e] == top);
}

/* Try to place candidate @u at frame @f; false when it may not go there. */
static bool ta_skyline_try(struct ta_search_state *s,
			   struct ta_skyline_frame *f, u32 u)
{
	u64 o, sz = s->size[u];
	u32 t;

	if (s->placed[u] || s->sec_end[u] > f->open_end)
		return false;
	if (f->next - 1 > s->sky_cand_first[f->sec]) {
		u32 v = s->sky_cand[f->next - 2];

		if (!s->placed[v] && s->sec_end[v] == s->sec_end[u] &&
		    s->size[v] == sz && s->align[v] == s->align[u])
			return false;
	}
	o = (f->level + s->align[u] - 1) & ~(s->align[u] - 1);
	/* ta_search_boundary() may have ruled out offsets below */
	if (o > s->cap || sz > s->cap - o || s->min_offset[u] > o)
		return false;
	if (o != f->level)
		for (t = s->sec_first[u]; t < s->sec_end[u]; t++)
			if (s->unplaced_bytes[t] > s->cap - o)
				return false;
	ta_search_mark_placed(s, u);
	s->offset[u] = o;
	f->cur = u;
	for (t = s->sec_first[u]; t < s->sec_end[u]; t++) {
		s->unplaced_bytes[t] -= sz;
		if (!ta_search_set_floor(s, t, o + sz))
			return false;
	}
	return true;
}

/**
 * ta_skyline_run() - one depth-first run of the skyline engine
 * @s: the state, ranked by ta_search_order(), with its cap set
 * @node_limit: nodes to spend at most
 * @lim: the caller's limits
 * @offsets: out, every better plan found
 *
 * Return: 1 when the run was complete (no plan at or below the cap it
 * ended with, unless @s->overflowed), 0 when a limit stopped it, or
 * -EINTR.
 */
int ta_skyline_run(struct ta_search_state *s, u64 node_limit,
		   struct ta_work *lim, u64 *offsets)
{
	u64 nodes = 0;
	u32 depth = 1;
	int ret, resume;

	ta_search_reset(s);
	if (!ta_search_fits(s))
		return 1;
	if (!ta_skyline_enter(s, &s->sky_frames[0], 0, 0, TA_SEARCH_NONE))
		return 1;
	while (depth) {
		struct ta_skyline_frame *f = &s->sky_frames[depth - 1];
		struct ta_skyline_frame *c;
		bool go = false;
		u32 scan = 0, pend = TA_SEARCH_NONE;

		ta_skyline_undo(s, f);
		resume = ta_search_resume(s);
		if (resume == TA_SEARCH_DONE)
			return 1;
		if (resume == TA_SEARCH_POP) {
			depth--;
			continue;
		}
		ret = ta_search_node(lim, &nodes, node_limit);
		if (ret <= 0)
			return ret;
		while (!go) {
			u32 u;

			if (f->next >= s->sky_cand_first[f->sec + 1]) {
				if (f->pass)
					break;
				/* the flush ones first, then the others */
				f->pass = 1;
				f->next = s->sky_cand_first[f->sec];
				continue;
			}
			u = s->sky_cand[f->next++];
			if (ta_skyline_flush(s, f, u) == !!f->pass)
				continue;
			if (!ta_skyline_try(s, f, u)) {
				if (f->cur == TA_SEARCH_NONE)
					continue;
				break;
			}
			if (f->pending != TA_SEARCH_NONE &&
			    !ta_skyline_raise(s, f->pending, f->sec))
				break;
			if (!ta_search_propagate(s, s->sec_first[u],
						 s->sec_end[u],
						 s->offset[u] + s->size[u]))
				break;
			if (!ta_search_tight(s, s->sec_first[u],
					     s->sec_end[u]))
				break;
			scan = s->sec_end[u];
			go = true;
		}
		if (!go && f->cur != TA_SEARCH_NONE)
			continue;	/* pruned: undo, try the next */
		if (!go) {
			u32 a = f->sec, p = f->pending;
			u64 room = s->cap - f->level;

			if (p == TA_SEARCH_NONE)
				p = a;
			if (f->closed || s->unplaced_bytes[a] > room ||
			    s->granule > room - s->unplaced_bytes[a]) {
				ta_search_memo_store(s, f);
				depth--;
				continue;
			}
			f->closed = 1;
			f->pass = 1;
			f->next = s->sky_cand_first[a + 1];
			if (a + 1 < s->n_sections && s->unplaced_bytes[a + 1] &&
			    s->floor[a + 1] == f->level) {
				pend = p;
			} else if (!ta_skyline_raise(s, p, a + 1)) {
				continue;
			}
			scan = a + 1;
		}
		if (depth >= s->max_depth) {
			s->overflowed = true;
			continue;
		}
		c = &s->sky_frames[depth];
		if (!ta_skyline_enter(s, c, f->level, scan, pend)) {
			ta_search_solution(s, offsets);
			continue;
		}
		if (ta_search_memo_dead(s, c))
			continue;	/* a state seen to fail: next choice */
		depth++;
	}
	return 1;
}
