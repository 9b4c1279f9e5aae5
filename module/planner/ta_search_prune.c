// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_prune.c - the pruning of the search: sections with less than
 * a granule of slack are tight, and a tight level must be covered exactly
 * (ta_search_tiles()); at a boundary between two tight sections the
 * buffers ending and starting there must balance (ta_search_boundary(),
 * by subset sums). ta_search_tight() runs both after every change.
 */
#include "ta_search_state.h"

/* Less than a granule of slack in section @t? */
static bool ta_search_is_tight(struct ta_search_state *s, u32 t)
{
	u64 room;

	if (s->floor[t] > s->cap)
		return true;
	room = s->cap - s->floor[t];
	return s->unplaced_bytes[t] > room ||
	       room - s->unplaced_bytes[t] < s->granule;
}

/**
 * ta_search_tiles() - can the tight sections of a level still be covered?
 * @s: the state, in the skyline model: every placed buffer lies below the
 *     floor of each of its sections
 * @t: a section with unplaced bytes
 * @run_end: out, past the last section of the run checked
 *
 * The run is the maximal stretch of sections around @t with unplaced bytes
 * and the floor y of @t. Every offset is a multiple of the granule, and so
 * is every gap, so a section with less than a granule of slack (cap less
 * floor less unplaced bytes) cannot leave [y, y + granule) empty: some
 * unplaced buffer goes exactly at y over it. Such buffers do not overlap
 * in time, and each lies in the run or in sections with a lower floor (a
 * higher one would keep it above y). So the tight sections of the run must
 * be covered by a chain of such buffers' lifetimes, cut to the run, with
 * gaps only at sections that have slack: a reachability check over the
 * run's section boundaries, in time linear in its live lists. It holds for
 * any cap and any alignment (a buffer counts only when y suits its
 * alignment), so it prunes only states that no plan completes.
 *
 * Return: false when no such chain exists.
 */
bool ta_search_tiles(struct ta_search_state *s, u32 t, u32 *run_end)
{
	u64 y = s->floor[t], room;
	u32 a = t, b = t + 1, p, j, end, reach;
	bool tight = false;

	while (a > 0 && s->unplaced_bytes[a - 1] && s->floor[a - 1] == y)
		a--;
	while (b < s->n_sections && s->unplaced_bytes[b] && s->floor[b] == y)
		b++;
	*run_end = b;
	if (y > s->cap)
		return false;
	room = s->cap - y;
	for (p = a; p < b && !tight; p++)
		tight = ta_search_is_tight(s, p);
	if (!tight)
		return true;
	if (!++s->tile_now) {
		for (p = 0; p <= s->n_sections; p++)
			s->tile_stamp[p] = 0;
		s->tile_now = 1;
	}
	s->tile_stamp[a] = s->tile_now;
	reach = a;	/* the furthest boundary reached so far */
	for (p = a; p < b; p++) {
		if (p > reach)
			return false;	/* nothing covers section p - 1 */
		if (s->tile_stamp[p] != s->tile_now)
			continue;
		if (!ta_search_is_tight(s, p)) {
			s->tile_stamp[p + 1] = s->tile_now;
			if (p + 1 > reach)
				reach = p + 1;
		}
		end = s->live_first[p] + s->live_unplaced[p];
		for (j = s->live_first[p]; j < end; j++) {
			u32 v = s->live[j], e;

			/* each buffer once: where it enters the run */
			if (s->sec_first[v] < p && p != a)
				continue;
			if (s->min_offset[v] > y || (y & (s->align[v] - 1)) ||
			    s->size[v] > room)
				continue;
			e = s->sec_end[v] < b ? s->sec_end[v] : b;
			s->tile_stamp[e] = s->tile_now;
			if (e > reach)
				reach = e;
		}
	}
	return s->tile_stamp[b] == s->tile_now;
}

/*
 * The subset sums, in granules, of the sizes of the unplaced buffers live
 * in section @t that end at boundary @edge (when @t is before it) or that
 * start there (when @t is at it), into the @nw words of @bits. Sums past
 * @nw words are dropped.
 */
static void ta_search_sums_of(struct ta_search_state *s, u32 t, u32 edge,
			      u64 *bits, u32 nw)
{
	u32 j, w, end = s->live_first[t] + s->live_unplaced[t];

	for (w = 0; w < nw; w++)
		bits[w] = 0;
	bits[0] = 1;
	for (j = s->live_first[t]; j < end; j++) {
		u32 v = s->live[j], ws, bs;
		u64 k;

		if (t < edge ? s->sec_end[v] != edge : s->sec_first[v] != edge)
			continue;
		k = s->size[v] / s->granule;
		if (k >= 64ULL * nw)
			continue;
		ws = (u32)(k >> 6);
		bs = (u32)(k & 63);
		/* bits |= bits << k, high words first */
		for (w = nw; w-- > ws;) {
			u64 x = bits[w - ws] << bs;

			if (bs && w > ws)
				x |= bits[w - ws - 1] >> (64 - bs);
			bits[w] |= x;
		}
	}
}

/* Is bit @k of the subset sums set? */
static inline bool ta_search_sum_has(const u64 *bits, u64 k)
{
	return (bits[k >> 6] >> (k & 63)) & 1;
}

/**
 * ta_search_boundary() - the stacks on either side of a boundary must meet
 * @s: the state, in the skyline model (see ta_search_tiles())
 * @b: a boundary, between sections @b - 1 and @b
 *
 * When both sections are tight (less than a granule of slack: their
 * unplaced buffers will stack from the floor without a gap, as every gap
 * would be a granule at least) and some unplaced
 * buffer crosses @b, take the lowest such buffer v of a plan: below it, in
 * section @b - 1, lie without a gap unplaced buffers that end at @b (a
 * crossing one would be lower), from that section's floor; in section @b,
 * likewise buffers that start at @b, from its floor. So the floors differ
 * by a sum of sizes that end at @b less a sum of sizes that start there,
 * and v, hence every crossing buffer, lies at least the least such first
 * sum above the floor of section @b - 1: their lowest offsets rise to it.
 * The sums come from two bitsets, when they fit in %TA_SEARCH_SUM_WORDS.
 *
 * Return: false when the floors cannot meet (or a trail is full).
 */
bool ta_search_boundary(struct ta_search_state *s, u32 b)
{
	u64 *ends = s->sum_bits, *starts = s->sum_bits + TA_SEARCH_SUM_WORDS;
	u64 g = s->granule, fl, lift, a, diff;
	u64 max_a = 0, max_b = 0;
	u32 j, i, end, nchg = 0, cross = 0;
	bool down;

	if (!b || b >= s->n_sections || !s->unplaced_bytes[b - 1] ||
	    !s->unplaced_bytes[b] || s->floor[b] > s->cap ||
	    s->floor[b - 1] > s->cap ||
	    !ta_search_is_tight(s, b - 1) || !ta_search_is_tight(s, b))
		return true;
	fl = s->floor[b - 1];
	end = s->live_first[b] + s->live_unplaced[b];
	for (j = s->live_first[b]; j < end; j++) {
		u32 v = s->live[j];

		if (s->sec_first[v] < b)
			cross++;
		else
			max_b += s->size[v] / g;
	}
	if (!cross)
		return true;
	end = s->live_first[b - 1] + s->live_unplaced[b - 1];
	for (j = s->live_first[b - 1]; j < end; j++)
		if (s->sec_end[s->live[j]] == b)
			max_a += s->size[s->live[j]] / g;
	if (max_a >= 64ULL * TA_SEARCH_SUM_WORDS ||
	    max_b >= 64ULL * TA_SEARCH_SUM_WORDS)
		return true;
	ta_search_sums_of(s, b - 1, b, ends, (u32)(max_a >> 6) + 1);
	ta_search_sums_of(s, b, b, starts, (u32)(max_b >> 6) + 1);
	/* sum(ends) - sum(starts) = (floor[b] - fl) / g = +/- diff */
	down = s->floor[b] < fl;
	diff = (down ? fl - s->floor[b] : s->floor[b] - fl) / g;
	for (a = 0; a <= max_a; a++) {
		if (!ta_search_sum_has(ends, a))
			continue;
		if (down && a + diff <= max_b &&
		    ta_search_sum_has(starts, a + diff))
			break;
		if (!down && a >= diff && a - diff <= max_b &&
		    ta_search_sum_has(starts, a - diff))
			break;
	}
	if (a > max_a)
		return false;
	lift = fl + a * g;
	if (!++s->stamp_now) {
		for (i = 0; i < s->n_buffers; i++)
			s->buffer_stamp[i] = 0;
		for (i = 0; i < s->n_sections; i++)
			s->section_stamp[i] = 0;
		s->stamp_now = 1;
	}
	end = s->live_first[b] + s->live_unplaced[b];
	for (j = s->live_first[b]; j < end; j++) {
		u32 v = s->live[j];
		u64 m, mask = s->align[v] - 1;

		if (s->sec_first[v] >= b || s->min_offset[v] >= lift)
			continue;
		m = (lift + mask) & ~mask;
		if (m > s->cap || s->size[v] > s->cap - m)
			return false;
		if (s->min_trail_len >= s->min_trail_size) {
			s->overflowed = true;
			return false;
		}
		s->min_trail_buffer[s->min_trail_len] = v;
		s->min_trail_value[s->min_trail_len++] = s->min_offset[v];
		s->min_offset[v] = m;
		s->changed[nchg++] = v;
	}
	return ta_search_lift_floors(s, nchg);
}

/*
 * ta_search_tiles() on every run of equal floors that meets sections
 * [@lo, @hi): after a placement or a raise, the levels it changed.
 */
static bool ta_search_tiles_span(struct ta_search_state *s, u32 lo, u32 hi)
{
	u32 t = lo, e;

	if (hi > s->n_sections)
		hi = s->n_sections;
	while (t < hi) {
		if (!s->unplaced_bytes[t]) {
			t++;
			continue;
		}
		if (!ta_search_tiles(s, t, &e))
			return false;
		t = e;
	}
	return true;
}

/**
 * ta_search_tight() - the inference of tight sections after a change
 * @s: the state
 * @lo: first section whose floor rose
 * @hi: past the last one
 *
 * ta_search_boundary() at both ends, then ta_search_tiles() on every
 * level that meets them or their neighbours (not subset sums over every
 * section of the change: Documentation/planner.md says why).
 *
 * Return: false when the state cannot be completed under the cap.
 */
bool ta_search_tight(struct ta_search_state *s, u32 lo, u32 hi)
{
	return ta_search_boundary(s, lo) && ta_search_boundary(s, hi) &&
	       ta_search_tiles_span(s, lo ? lo - 1 : 0, hi + 1);
}
