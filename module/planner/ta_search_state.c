// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_state.c - the state the search engines share: taking and
 * freeing its memory, the candidate orders, and the inference with its
 * undo trails.
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

static int ta_search_cmp_item(const void *a, const void *b)
{
	const struct ta_search_item *x = a, *y = b;

	if (x->si != y->si)
		return x->si < y->si ? -1 : 1;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	if (x->ei != y->ei)
		return x->ei > y->ei ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
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

/**
 * ta_search_cmp_rank() - ta_env_sort() comparison of the candidate order
 * @a: a &struct ta_search_item
 * @b: another
 *
 * Return: <0 when @a comes first, >0 when @b does, 0 for the same buffer.
 */
int ta_search_cmp_rank(const void *a, const void *b)
{
	const struct ta_search_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	if (x->k3 != y->k3)
		return x->k3 > y->k3 ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->si != y->si)
		return x->si < y->si ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The global order of the ordered engine, from the keys in s->items. */
static void ta_search_rank(struct ta_search_state *s)
{
	u32 i;

	ta_env_sort(s->items, s->n_buffers, sizeof(*s->items),
		    ta_search_cmp_rank);
	for (i = 0; i < s->n_buffers; i++) {
		const struct ta_search_item *it = &s->items[i], *pv = it - 1;

		s->rank[it->idx] = i;
		s->by_rank[i] = it->idx;
		s->identical_before[it->idx] = TA_SEARCH_NONE;
		if (i && pv->si == it->si && pv->ei == it->ei &&
		    pv->size == it->size && pv->align == it->align)
			s->identical_before[it->idx] = pv->idx;
	}
}

/**
 * ta_search_keys() - set an item's sort keys for heuristic @h
 * @it: the item
 * @h: the heuristic (its low two bits choose the keys)
 * @size: the buffer's size
 * @len: its lifetime
 * @area: @size * @len, saturated
 * @total: the most bytes live in one of its sections (crowding)
 */
void ta_search_keys(struct ta_search_item *it, u32 h, u64 size, u64 len,
		    u64 area, u64 total)
{
	switch (h & 3) {
	case 0:		/* longest, then largest area, then most crowded */
		it->key = len;
		it->k2 = area;
		it->k3 = total;
		break;
	case 1:		/* most crowded, largest area, longest */
		it->key = total;
		it->k2 = area;
		it->k3 = len;
		break;
	case 2:		/* most crowded, longest, largest area */
		it->key = total;
		it->k2 = len;
		it->k3 = area;
		break;
	default:	/* largest, longest, most crowded */
		it->key = size;
		it->k2 = len;
		it->k3 = total;
		break;
	}
}

/**
 * ta_search_order() - rank the buffers by heuristic @h
 * @s: the state
 * @p: the problem
 * @h: the heuristic (its low two bits choose the keys)
 *
 * Sets the skyline engine's candidates of every start section and the
 * ordered engine's global rank, with the identical-buffer links.
 */
void ta_search_order(struct ta_search_state *s, const struct ta_problem *p,
		     u32 h)
{
	u32 i, t;

	for (i = 0; i < s->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[s->problem_index[i]];
		struct ta_search_item *it = &s->items[i];
		u64 len = b->end - b->start, area, total = 0;

		if (__builtin_mul_overflow(s->size[i], len, &area))
			area = U64_MAX;
		for (t = s->sec_first[i]; t < s->sec_end[i]; t++)
			if (s->live_bytes[t] > total)
				total = s->live_bytes[t];
		ta_search_keys(it, h, s->size[i], len, area, total);
		/*
		 * A random draw: the size times a pseudo-random factor in
		 * [1, 3) (splitmix64 of the buffer and the seed), so larger
		 * buffers still tend to go first but any order can come up
		 * (34 of 48 perfect packings at the optimum against 28 for
		 * a uniform draw; factors up to 1.25 or 5 gave 30 and 34).
		 */
		if (s->shuffle) {
			u64 x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ s->shuffle;

			x ^= x >> 31;
			x *= 0xbf58476d1ce4e5b9ULL;
			x ^= x >> 29;
			if (__builtin_mul_overflow(s->size[i], 256 + (x & 511),
						   &it->key))
				it->key = U64_MAX;
		}
		it->size = s->size[i];
		it->align = s->align[i];
		it->si = s->sec_first[i];
		it->ei = s->sec_end[i];
		it->idx = i;
	}
	ta_env_sort(s->items, s->n_buffers, sizeof(*s->items),
		    ta_search_cmp_item);
	for (t = 0; t <= s->n_sections + 1; t++)
		s->sky_cand_first[t] = s->n_buffers;
	for (i = s->n_buffers; i-- > 0;) {
		s->sky_cand[i] = s->items[i].idx;
		s->sky_cand_first[s->items[i].si] = i;
	}
	for (t = s->n_sections + 1; t-- > 0;)
		if (s->sky_cand_first[t] > s->sky_cand_first[t + 1])
			s->sky_cand_first[t] = s->sky_cand_first[t + 1];
	ta_search_rank(s);
}

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
static bool ta_search_lift_floors(struct ta_search_state *s, u32 nchg)
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
 * level that meets them or their neighbours. (Subset sums over every
 * section of the change lifted more offsets but cost five times the
 * node rate at 300 buffers, and found fewer optima in 1 s.)
 *
 * Return: false when the state cannot be completed under the cap.
 */
bool ta_search_tight(struct ta_search_state *s, u32 lo, u32 hi)
{
	return ta_search_boundary(s, lo) && ta_search_boundary(s, hi) &&
	       ta_search_tiles_span(s, lo ? lo - 1 : 0, hi + 1);
}
