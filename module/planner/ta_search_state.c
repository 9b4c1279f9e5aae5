// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_state.c - the state the search engines share: taking and
 * freeing its memory. The candidate orders are in ta_search_order.c, the
 * propagation and its undo trails in ta_search_propagate.c, the pruning of
 * tight sections in ta_search_prune.c.
 *
 * Time is cut into sections at every buffer start and end. A section's
 * floor is the lowest offset any buffer still to be placed there can take;
 * a buffer's lowest offset is the highest floor among its sections. After
 * every placement the lowest offset of every unplaced buffer over the
 * placed one rises, every section's floor rises to the lowest offset among
 * the unplaced buffers live there, and every section must fit its unplaced
 * bytes between its floor and the cap. All changes go to undo trails, so
 * the engines search depth first without recursion.
 */
#include "ta_search_state.h"

static int ta_search_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * ta_search_moments() - the moments at which buffers of @p start or end
 * @p: the problem
 * @times: out, room for 2 * @p->n_buffers: the distinct start and end
 *	   times of the buffers of positive size, ascending
 *
 * Return: how many.
 */
u32 ta_search_moments(const struct ta_problem *p, u32 *times)
{
	u32 i, nt = 0, k = 0;

	for (i = 0; i < p->n_buffers; i++) {
		if (!p->buffers[i].size)
			continue;
		times[nt++] = p->buffers[i].start;
		times[nt++] = p->buffers[i].end;
	}
	ta_env_sort(times, nt, sizeof(*times), ta_search_cmp_u32);
	for (i = 0; i < nt; i++)
		if (!k || times[k - 1] != times[i])
			times[k++] = times[i];
	return k;
}

/**
 * ta_search_state_free() - free what ta_search_state_init() took
 * @s: the state (not itself)
 */
void ta_search_state_free(struct ta_search_state *s)
{
	ta_env_free(s->problem_index);
	ta_env_free(s->sec_first);
	ta_env_free(s->sec_end);
	ta_env_free(s->size);
	ta_env_free(s->align);
	ta_env_free(s->offset);
	ta_env_free(s->placed);
	ta_env_free(s->sky_cand);
	ta_env_free(s->sky_cand_first);
	ta_env_free(s->floor);
	ta_env_free(s->unplaced_bytes);
	ta_env_free(s->live_bytes);
	ta_env_free(s->min_offset);
	ta_env_free(s->live);
	ta_env_free(s->live_first);
	ta_env_free(s->live_unplaced);
	ta_env_free(s->buffer_stamp);
	ta_env_free(s->section_stamp);
	ta_env_free(s->tile_stamp);
	ta_env_free(s->sum_bits);
	ta_env_free(s->changed);
	ta_env_free(s->rank);
	ta_env_free(s->identical_before);
	ta_env_free(s->ordered_frames);
	ta_env_free(s->crossing);
	ta_env_free(s->crossing_initial);
	ta_env_free(s->cut_at_depth);
	ta_env_free(s->pool);
	ta_env_free(s->by_rank);
	ta_env_free(s->unplaced_list);
	ta_env_free(s->unplaced_pos);
	ta_env_free(s->floor_trail_section);
	ta_env_free(s->floor_trail_value);
	ta_env_free(s->min_trail_buffer);
	ta_env_free(s->min_trail_value);
	ta_env_free(s->rank_trail_buffer);
	ta_env_free(s->rank_trail_value);
	ta_env_free(s->items);
	ta_env_free(s->sky_frames);
	ta_env_free(s->buffer_sig);
	ta_env_free(s->memo);
}

/**
 * ta_search_state_rebuild() - the state anew, for another form of the problem
 * @s: the state, from ta_search_state_init()
 * @p: the problem, or the same buffers another way (time reversed)
 * @reserved: memory the caller holds, as for ta_search_whole()
 *
 * Keeps what holds for every form: the granule, the lower bound and the
 * best height; the rest (memo, orders) starts afresh.
 *
 * Return: as ta_search_state_init().
 */
int ta_search_state_rebuild(struct ta_search_state *s,
			    const struct ta_problem *p, u64 reserved)
{
	u64 granule = s->granule, best = s->best_height;
	u64 lbg = s->lower_bound_granular;

	ta_search_state_free(s);
	*s = (struct ta_search_state){ .bytes = reserved, .granule = granule,
				       .best_height = best,
				       .lower_bound_granular = lbg,
				       .problem = p };
	return ta_search_state_init(s, p);
}

/**
 * ta_search_alloc() - ta_env_alloc_array() that counts in @s->bytes
 * @s: the state
 * @n: element count
 * @size: bytes per element
 *
 * Refuses (NULL, and @s->over set) what would take @s->bytes past
 * %TA_SEARCH_MAX_BYTES: the search's memory is bounded before it is taken.
 *
 * Return: the zeroed array, or NULL.
 */
void *ta_search_alloc(struct ta_search_state *s, size_t n, size_t size)
{
	void *p;

	if (size && n > (size_t)-1 / size)
		return NULL;
	if (!ta_search_mem_fits(s->bytes, (u64)n * size)) {
		s->over = true;
		return NULL;
	}
	p = ta_env_alloc_array(n, size);
	if (p)
		s->bytes += (u64)n * size;
	return p;
}

/* @v less an eighth, for ta_search_size_trails() */
static u64 ta_search_shrink(u64 v)
{
	return v - (v >> 3);
}

/*
 * Size the three undo trails and the candidate pool from what the state
 * took so far and %TA_SEARCH_MAX_BYTES. With C (buffer, section) pairs, a
 * search kept at most 1.3 C floor and lowest-offset trail entries and 6
 * rank trail entries per buffer; a frame's candidates are unplaced
 * buffers, so a branch holds at most n (n + 1) / 2 in the pool (searches
 * kept up to 0.5 of that on the bench). Each gets that or a margin over
 * it, then all shrink by an eighth until they fit. A search that runs out
 * of a trail or the pool abandons the branch and proves nothing
 * (ta_search.c).
 *
 * Return: 0, or -E2BIG when not even a small search fits.
 */
static int ta_search_size_trails(struct ta_search_state *s)
{
	u64 c = s->live_first[s->n_sections], n = s->n_buffers;
	u64 floors = c + c / 2 + 2 * (u64)s->n_sections + 1024;
	u64 mins = c + c / 2 + n + 1024;
	u64 ranks = 8 * n + 1024;
	u64 pool = n * (n + 1) / 2 + n + 64;
	u64 left, least = floors < mins ? floors : mins, pool_least = pool;

	/* shrunk below this (or TA_SEARCH_MIN_TRAIL), the search is no use */
	if (least > TA_SEARCH_MIN_TRAIL)
		least = TA_SEARCH_MIN_TRAIL;
	/* the pool has its own: a small problem needs less than a trail */
	if (pool_least > TA_SEARCH_MIN_TRAIL)
		pool_least = TA_SEARCH_MIN_TRAIL;
	if (s->bytes >= TA_SEARCH_MAX_BYTES)
		return -E2BIG;
	left = TA_SEARCH_MAX_BYTES - s->bytes;
	for (;;) {
		floors = floors < TA_SEARCH_MAX_TRAIL ? floors :
						       TA_SEARCH_MAX_TRAIL;
		mins = mins < TA_SEARCH_MAX_TRAIL ? mins : TA_SEARCH_MAX_TRAIL;
		ranks = ranks < TA_SEARCH_MAX_TRAIL ? ranks :
						     TA_SEARCH_MAX_TRAIL;
		pool = pool < TA_SEARCH_MAX_TRAIL ? pool : TA_SEARCH_MAX_TRAIL;
		if (floors < least || mins < least || pool < pool_least)
			return -E2BIG;
		if (floors * (sizeof(*s->floor_trail_section) +
			      sizeof(*s->floor_trail_value)) +
		    mins * (sizeof(*s->min_trail_buffer) +
			    sizeof(*s->min_trail_value)) +
		    ranks * (sizeof(*s->rank_trail_buffer) +
			     sizeof(*s->rank_trail_value)) +
		    pool * sizeof(*s->pool) <= left)
			break;
		floors = ta_search_shrink(floors);
		mins = ta_search_shrink(mins);
		ranks = ta_search_shrink(ranks);
		pool = ta_search_shrink(pool);
	}
	s->floor_trail_size = (u32)floors;
	s->min_trail_size = (u32)mins;
	s->rank_trail_size = (u32)ranks;
	s->pool_size = (u32)pool;
	return 0;
}

/**
 * ta_search_state_init() - take all the memory of a search up front
 * @s: the state, zeroed
 * @p: the problem (validated)
 *
 * Cuts time into sections, numbers the buffers of positive size and builds
 * the per-section lists; ta_search_state_free() frees @s also after a
 * failure.
 *
 * Everything it takes counts in s->bytes, at most %TA_SEARCH_MAX_BYTES.
 *
 * Return: 0, -ENOMEM, or -E2BIG when the problem needs more than that.
 */
int ta_search_state_init(struct ta_search_state *s,
			 const struct ta_problem *p)
{
	u32 n = 0, i, t, nt, ns, tl, entries;
	u32 *times;
	int ret;

	for (i = 0; i < p->n_buffers; i++)
		n += p->buffers[i].size != 0;
	s->n_buffers = n;
	s->bytes += sizeof(*s);	/* on what the caller reserved */
	/* the moments, held only while the sections are made */
	if (!ta_search_mem_fits(s->bytes, (2 * (u64)n + 1) * sizeof(*times)))
		return -E2BIG;
	times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*times));
	s->problem_index =
		ta_search_alloc(s, n + 1, sizeof(*s->problem_index));
	s->sec_first = ta_search_alloc(s, n + 1, sizeof(*s->sec_first));
	s->sec_end = ta_search_alloc(s, n + 1, sizeof(*s->sec_end));
	s->size = ta_search_alloc(s, n + 1, sizeof(*s->size));
	s->align = ta_search_alloc(s, n + 1, sizeof(*s->align));
	s->offset = ta_search_alloc(s, n + 1, sizeof(*s->offset));
	s->placed = ta_search_alloc(s, n + 1, sizeof(*s->placed));
	s->sky_cand = ta_search_alloc(s, n + 1, sizeof(*s->sky_cand));
	s->items = ta_search_alloc(s, n + 1, sizeof(*s->items));
	if (!times || !s->problem_index || !s->sec_first || !s->sec_end ||
	    !s->size || !s->align || !s->offset || !s->placed || !s->sky_cand ||
	    !s->items) {
		ta_env_free(times);
		return s->over ? -E2BIG : -ENOMEM;
	}
	nt = 0;
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].size)
			s->problem_index[nt++] = i;
	t = ta_search_moments(p, times);
	s->n_sections = t ? t - 1 : 0;
	ns = s->n_sections;
	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[s->problem_index[i]];

		s->sec_first[i] = ta_search_index(times, t, b->start);
		s->sec_end[i] = ta_search_index(times, t, b->end);
		s->size[i] = b->size;
		s->align[i] = b->align ? b->align : 1;
	}
	ta_env_free(times);
	s->sky_cand_first =
		ta_search_alloc(s, ns + 2, sizeof(*s->sky_cand_first));
	s->floor = ta_search_alloc(s, ns + 1, sizeof(*s->floor));
	s->unplaced_bytes =
		ta_search_alloc(s, ns + 1, sizeof(*s->unplaced_bytes));
	s->live_bytes = ta_search_alloc(s, ns + 1, sizeof(*s->live_bytes));
	s->max_depth = n + 4 * ns + 64;
	s->sky_frames =
		ta_search_alloc(s, s->max_depth, sizeof(*s->sky_frames));
	if (!s->sky_cand_first || !s->floor || !s->unplaced_bytes ||
	    !s->live_bytes || !s->sky_frames)
		return s->over ? -E2BIG : -ENOMEM;
	s->live_first = ta_search_alloc(s, ns + 2, sizeof(*s->live_first));
	if (!s->live_first)
		return s->over ? -E2BIG : -ENOMEM;
	for (i = 0; i < n; i++)
		for (t = s->sec_first[i]; t < s->sec_end[i]; t++) {
			s->live_bytes[t] += s->size[i];
			s->live_first[t + 1]++;
		}
	for (t = 0; t < s->n_sections; t++)
		s->live_first[t + 1] += s->live_first[t];
	/* the live lists must leave half the budget to the rest */
	if (s->bytes + ((u64)s->live_first[ns] + 1) * sizeof(*s->live) >
	    TA_SEARCH_MAX_BYTES / 2)
		return -E2BIG;
	s->live = ta_search_alloc(s, s->live_first[ns] + 1, sizeof(*s->live));
	s->section_stamp =
		ta_search_alloc(s, ns + 1, sizeof(*s->section_stamp));
	s->tile_stamp = ta_search_alloc(s, ns + 1, sizeof(*s->tile_stamp));
	s->sum_bits = ta_search_alloc(s, 2 * TA_SEARCH_SUM_WORDS,
				      sizeof(*s->sum_bits));
	s->live_unplaced =
		ta_search_alloc(s, ns + 1, sizeof(*s->live_unplaced));
	s->min_offset = ta_search_alloc(s, n + 1, sizeof(*s->min_offset));
	s->buffer_stamp =
		ta_search_alloc(s, n + 1, sizeof(*s->buffer_stamp));
	s->changed = ta_search_alloc(s, n + 1, sizeof(*s->changed));
	s->rank = ta_search_alloc(s, n + 1, sizeof(*s->rank));
	s->identical_before =
		ta_search_alloc(s, n + 1, sizeof(*s->identical_before));
	s->ordered_frames =
		ta_search_alloc(s, n + 1, sizeof(*s->ordered_frames));
	s->crossing = ta_search_alloc(s, ns + 1, sizeof(*s->crossing));
	s->crossing_initial =
		ta_search_alloc(s, ns + 1, sizeof(*s->crossing_initial));
	s->cut_at_depth =
		ta_search_alloc(s, ns + 1, sizeof(*s->cut_at_depth));
	s->by_rank = ta_search_alloc(s, n + 1, sizeof(*s->by_rank));
	s->unplaced_list =
		ta_search_alloc(s, n + 1, sizeof(*s->unplaced_list));
	s->unplaced_pos =
		ta_search_alloc(s, n + 1, sizeof(*s->unplaced_pos));
	entries = ta_search_memo_entries(s);
	s->buffer_sig = ta_search_alloc(s, n + 1, sizeof(*s->buffer_sig));
	s->memo = ta_search_alloc(s, entries, sizeof(*s->memo));
	if (!s->buffer_sig || !s->memo)
		return s->over ? -E2BIG : -ENOMEM;
	ta_search_memo_init(s, entries);
	ret = ta_search_size_trails(s);
	if (ret)
		return ret;
	s->pool = ta_search_alloc(s, s->pool_size, sizeof(*s->pool));
	tl = s->floor_trail_size;
	s->floor_trail_section =
		ta_search_alloc(s, tl, sizeof(*s->floor_trail_section));
	s->floor_trail_value =
		ta_search_alloc(s, tl, sizeof(*s->floor_trail_value));
	tl = s->min_trail_size;
	s->min_trail_buffer =
		ta_search_alloc(s, tl, sizeof(*s->min_trail_buffer));
	s->min_trail_value =
		ta_search_alloc(s, tl, sizeof(*s->min_trail_value));
	tl = s->rank_trail_size;
	s->rank_trail_buffer =
		ta_search_alloc(s, tl, sizeof(*s->rank_trail_buffer));
	s->rank_trail_value =
		ta_search_alloc(s, tl, sizeof(*s->rank_trail_value));
	if (!s->live || !s->section_stamp || !s->tile_stamp || !s->sum_bits ||
	    !s->live_unplaced ||
	    !s->min_offset || !s->buffer_stamp || !s->changed || !s->rank ||
	    !s->identical_before || !s->ordered_frames || !s->crossing ||
	    !s->crossing_initial || !s->cut_at_depth || !s->pool ||
	    !s->by_rank || !s->unplaced_list || !s->unplaced_pos ||
	    !s->floor_trail_section || !s->floor_trail_value ||
	    !s->min_trail_buffer || !s->min_trail_value ||
	    !s->rank_trail_buffer || !s->rank_trail_value)
		return s->over ? -E2BIG : -ENOMEM;
	for (i = 0; i < n; i++) {
		for (t = s->sec_first[i]; t < s->sec_end[i]; t++)
			s->live[s->live_first[t + 1] - 1 -
				s->section_stamp[t]++] = i;
		for (t = s->sec_first[i] + 1; t < s->sec_end[i]; t++)
			s->crossing_initial[t]++;
	}
	for (t = 0; t < s->n_sections; t++)
		s->section_stamp[t] = 0;
	return 0;
}
