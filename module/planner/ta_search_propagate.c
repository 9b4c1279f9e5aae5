// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_propagate.c - the search state's changes and their undoing:
 * placing and unplacing a buffer, raising floors and lowest offsets on the
 * undo trails (ta_search_propagate()), the undo, the check that the state
 * still fits under the cap, and recording a complete plan
 * (ta_search_solution()), which lowers the cap. The model is in
 * ta_search_state.c.
 */
#include "ta_search_state.h"

/**
 * ta_search_set_floor() - raise a section's floor, on the floor trail
 * @s: the state
 * @t: the section
 * @v: its new floor
 *
 * Return: false when the trail is full (@s->overflowed is set).
 */
bool ta_search_set_floor(struct ta_search_state *s, u32 t, u64 v)
{
	if (s->floor_trail_len >= s->floor_trail_size) {
		s->overflowed = true;
		return false;
	}
	s->floor_trail_section[s->floor_trail_len] = t;
	s->floor_trail_value[s->floor_trail_len++] = s->floor[t];
	s->floor_sig += ta_search_floor_sig(t, v) -
			ta_search_floor_sig(t, s->floor[t]);
	s->floor[t] = v;
	return true;
}

/**
 * ta_search_mark_placed() - mark @u placed in every section's live list
 * @s: the state
 * @u: an unplaced buffer
 *
 * Every section keeps its unplaced buffers at the front of its list in
 * @s->live, so the propagation scans those only. Placing @u moves it past
 * the front in each of its sections; placements are undone last first,
 * which ta_search_mark_unplaced() restores with a plain count.
 */
void ta_search_mark_placed(struct ta_search_state *s, u32 u)
{
	u32 t, j;

	s->placed[u] = 1;
	s->placed_sig += s->buffer_sig[u];
	for (t = s->sec_first[u]; t < s->sec_end[u]; t++) {
		u32 *c = s->live + s->live_first[t], k = --s->live_unplaced[t];

		for (j = 0; c[j] != u; j++)
			;
		c[j] = c[k];
		c[k] = u;
	}
}

/**
 * ta_search_mark_unplaced() - undo the last ta_search_mark_placed()
 * @s: the state
 * @u: the buffer it placed
 */
void ta_search_mark_unplaced(struct ta_search_state *s, u32 u)
{
	u32 t;

	s->placed[u] = 0;
	s->placed_sig -= s->buffer_sig[u];
	for (t = s->sec_first[u]; t < s->sec_end[u]; t++)
		s->live_unplaced[t]++;
}

/**
 * ta_search_reset() - the start of a run
 * @s: the state
 *
 * Every buffer unplaced at lowest offset 0, every section at floor 0 with
 * all its bytes, the floor and lowest-offset trails empty.
 */
void ta_search_reset(struct ta_search_state *s)
{
	u32 t;

	for (t = 0; t < s->n_sections; t++) {
		s->floor[t] = 0;
		s->unplaced_bytes[t] = s->live_bytes[t];
		s->live_unplaced[t] = s->live_first[t + 1] - s->live_first[t];
	}
	for (t = 0; t < s->n_buffers; t++) {
		s->placed[t] = 0;
		s->min_offset[t] = 0;
	}
	s->floor_trail_len = 0;
	s->min_trail_len = 0;
	s->recheck_cap = false;
	s->floor_sig = 0;
	s->placed_sig = 0;
}

/*
 * Lift every section of the @nchg buffers in @s->changed, whose lowest
 * offsets rose, to the lowest offset of the unplaced buffers live there,
 * once per section in this stamp, and check that it still fits the cap.
 */
bool ta_search_lift_floors(struct ta_search_state *s, u32 nchg)
{
	u32 i, j, t, end;

	for (i = 0; i < nchg; i++) {
		u32 v = s->changed[i];
		u64 mv = s->min_offset[v];

		for (t = s->sec_first[v]; t < s->sec_end[v]; t++) {
			u64 m = mv, fl = s->floor[t];

			/* only a section below v's new offset can rise */
			if (fl >= mv || s->section_stamp[t] == s->stamp_now)
				continue;
			s->section_stamp[t] = s->stamp_now;
			end = s->live_first[t] + s->live_unplaced[t];
			for (j = s->live_first[t]; j < end; j++) {
				u32 w = s->live[j];

				if (!s->placed[w] && s->min_offset[w] < m) {
					m = s->min_offset[w];
					if (m <= fl)
						break;
				}
			}
			if (m <= fl)
				continue;
			if (m > s->cap || s->unplaced_bytes[t] > s->cap - m)
				return false;
			if (!ta_search_set_floor(s, t, m))
				return false;
		}
	}
	return true;
}

/**
 * ta_search_propagate() - the inference after floors in [@lo, @hi) rose
 * @s: the state
 * @lo: first section whose floor rose
 * @hi: past the last one
 * @val: the new floor of them all (a placed buffer's top), or 0 to take
 *	 each section's own floor
 *
 * Raises the lowest offsets of the unplaced buffers over those sections,
 * then lifts every section they cover to the lowest offset any unplaced
 * buffer live there can take, and checks that each lifted section still
 * fits its unplaced bytes under the cap. All changes go to the trails.
 * Sets @s->met_unplaced when some unplaced buffer overlaps the sections.
 *
 * Return: false when the state cannot fit under the cap (or a trail is
 * full: @s->overflowed).
 */
bool ta_search_propagate(struct ta_search_state *s, u32 lo, u32 hi, u64 val)
{
	u32 t, i, j, end, nchg = 0;

	s->met_unplaced = false;
	if (!++s->stamp_now) {
		for (i = 0; i < s->n_buffers; i++)
			s->buffer_stamp[i] = 0;
		for (t = 0; t < s->n_sections; t++)
			s->section_stamp[t] = 0;
		s->stamp_now = 1;
	}
	for (t = lo; t < hi; t++) {
		end = s->live_first[t] + s->live_unplaced[t];
		for (i = s->live_first[t]; i < end; i++) {
			u32 v = s->live[i], a, b;
			u64 m, mask;

			if (s->placed[v] || s->buffer_stamp[v] == s->stamp_now)
				continue;
			s->buffer_stamp[v] = s->stamp_now;
			s->met_unplaced = true;
			m = s->min_offset[v];
			if (val) {
				if (val > m)
					m = val;
			} else {
				a = s->sec_first[v] > lo ? s->sec_first[v] : lo;
				b = s->sec_end[v] < hi ? s->sec_end[v] : hi;
				for (j = a; j < b; j++)
					if (s->floor[j] > m)
						m = s->floor[j];
			}
			mask = s->align[v] - 1;
			m = (m + mask) & ~mask;
			if (m == s->min_offset[v])
				continue;
			if (m > s->cap || s->size[v] > s->cap - m)
				return false;
			if (s->min_trail_len >= s->min_trail_size) {
				s->overflowed = true;
				return false;
			}
			s->min_trail_buffer[s->min_trail_len] = v;
			s->min_trail_value[s->min_trail_len++] =
				s->min_offset[v];
			s->min_offset[v] = m;
			s->changed[nchg++] = v;
		}
	}
	return ta_search_lift_floors(s, nchg);
}

/**
 * ta_search_undo_floors() - undo the floor trail back to @mark
 * @s: the state
 * @mark: the trail length to go back to
 */
void ta_search_undo_floors(struct ta_search_state *s, u32 mark)
{
	while (s->floor_trail_len > mark) {
		u32 k = --s->floor_trail_len, t = s->floor_trail_section[k];
		u64 v = s->floor_trail_value[k];

		s->floor_sig += ta_search_floor_sig(t, v) -
				ta_search_floor_sig(t, s->floor[t]);
		s->floor[t] = v;
	}
}

/**
 * ta_search_undo_min_offsets() - undo the lowest-offset trail to @mark
 * @s: the state
 * @mark: the trail length to go back to
 */
void ta_search_undo_min_offsets(struct ta_search_state *s, u32 mark)
{
	while (s->min_trail_len > mark) {
		u32 k = --s->min_trail_len;

		s->min_offset[s->min_trail_buffer[k]] = s->min_trail_value[k];
	}
}

/**
 * ta_search_fits() - does the current state still fit under the cap?
 * @s: the state
 *
 * A floor is never above the top of what will be placed in its section,
 * so one above the cap fails too, also in a section already full: after a
 * plan lowered the cap, buffers placed before it may stand above it.
 *
 * Return: true when every section fits.
 */
bool ta_search_fits(struct ta_search_state *s)
{
	u32 t;

	for (t = 0; t < s->n_sections; t++)
		if (s->floor[t] > s->cap ||
		    s->unplaced_bytes[t] > s->cap - s->floor[t])
			return false;
	return true;
}

/**
 * ta_search_resume() - may a run go on at a frame whose choice was undone?
 * @s: the state
 *
 * Return: %TA_SEARCH_DONE when the best plan meets the lower bound (the
 * run is over), %TA_SEARCH_POP when a plan found meanwhile lowered the cap
 * below what the frame's state needs (back up past it), else
 * %TA_SEARCH_GO_ON.
 */
int ta_search_resume(struct ta_search_state *s)
{
	if (s->best_height <= s->lower_bound_granular)
		return TA_SEARCH_DONE;
	if (s->recheck_cap) {
		if (!ta_search_fits(s))
			return TA_SEARCH_POP;
		s->recheck_cap = false;
	}
	return TA_SEARCH_GO_ON;
}

/**
 * ta_search_solution() - record a complete placement if it is better
 * @s: the state, every buffer placed
 * @offsets: out, the plan (problem buffer order), when better
 *
 * A better plan lowers the cap to one granule below it, asks for a
 * recheck of the placements on the stack and counts in @s->plans.
 */
void ta_search_solution(struct ta_search_state *s, u64 *offsets)
{
	u64 h = 0;
	u32 i;

	for (i = 0; i < s->n_buffers; i++)
		if (s->offset[i] + s->size[i] > h)
			h = s->offset[i] + s->size[i];
	if (h >= s->best_height)
		return;
	for (i = 0; i < s->n_buffers; i++)
		offsets[s->problem_index[i]] = s->offset[i];
	s->best_height = h;
	s->cap = h >= s->granule ? h - s->granule : 0;
	s->recheck_cap = true;
	s->plans++;
}
