// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_state.c - the state the search engines share: taking and
 * freeing its memory, four zeroed blocks carved into its arrays, one per
 * stage of ta_search_state_init() (each stage's sizes depend on the one
 * before). The candidate orders are in ta_search_order.c, the
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

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

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
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s->mem); i++)
		ta_env_free(s->mem[i]);
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

/* One array of a block: where its pointer goes, its length, its element. */
struct ta_search_array {
	void **p;
	u32 n;
	u32 size;
};

/*
 * Each array starts at a multiple of this in its block: no element needs
 * more (u64 at most), and the block itself is aligned at least so.
 */
#define TA_SEARCH_ARRAY_ALIGN	sizeof(u64)

/*
 * ta_search_take() - one zeroed block for the @count arrays @a, into
 * @s->mem[@stage]
 *
 * The arrays' bytes (not the padding between them) count in @s->bytes;
 * what would take @s->bytes past %TA_SEARCH_MAX_BYTES is refused (@s->over
 * set): the search's memory is bounded before it is taken.
 *
 * Return: 0, -E2BIG past the limit, or -ENOMEM.
 */
static int ta_search_take(struct ta_search_state *s, unsigned int stage,
			  const struct ta_search_array *a, unsigned int count)
{
	size_t at = 0, i;
	u64 bytes = 0;
	char *block;

	for (i = 0; i < count; i++) {
		if ((u64)a[i].n * a[i].size > (size_t)-1)
			return -ENOMEM;
		bytes += (u64)a[i].n * a[i].size;
		if (!ta_search_mem_fits(s->bytes, bytes)) {
			s->over = true;
			return -E2BIG;
		}
		at = (at + TA_SEARCH_ARRAY_ALIGN - 1) &
		     ~(TA_SEARCH_ARRAY_ALIGN - 1);
		at += (size_t)a[i].n * a[i].size;
	}
	block = ta_env_alloc_array(at ? at : 1, 1);
	if (!block)
		return -ENOMEM;
	s->mem[stage] = block;
	s->bytes += bytes;
	at = 0;
	for (i = 0; i < count; i++) {
		at = (at + TA_SEARCH_ARRAY_ALIGN - 1) &
		     ~(TA_SEARCH_ARRAY_ALIGN - 1);
		*a[i].p = block + at;
		at += (size_t)a[i].n * a[i].size;
	}
	return 0;
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
	u32 n = 0, i, t, nt, ns, entries;
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
	if (!times)
		return -ENOMEM;
	{
		const struct ta_search_array buffers[] = {
			{ (void **)&s->problem_index, n + 1,
			  sizeof(*s->problem_index) },
			{ (void **)&s->sec_first, n + 1,
			  sizeof(*s->sec_first) },
			{ (void **)&s->sec_end, n + 1, sizeof(*s->sec_end) },
			{ (void **)&s->size, n + 1, sizeof(*s->size) },
			{ (void **)&s->align, n + 1, sizeof(*s->align) },
			{ (void **)&s->offset, n + 1, sizeof(*s->offset) },
			{ (void **)&s->placed, n + 1, sizeof(*s->placed) },
			{ (void **)&s->sky_cand, n + 1, sizeof(*s->sky_cand) },
			{ (void **)&s->items, n + 1, sizeof(*s->items) },
		};

		ret = ta_search_take(s, 0, buffers, ARRAY_SIZE(buffers));
	}
	if (ret) {
		ta_env_free(times);
		return ret;
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
	s->max_depth = n + 4 * ns + 64;
	{
		const struct ta_search_array sections[] = {
			{ (void **)&s->sky_cand_first, ns + 2,
			  sizeof(*s->sky_cand_first) },
			{ (void **)&s->floor, ns + 1, sizeof(*s->floor) },
			{ (void **)&s->unplaced_bytes, ns + 1,
			  sizeof(*s->unplaced_bytes) },
			{ (void **)&s->live_bytes, ns + 1,
			  sizeof(*s->live_bytes) },
			{ (void **)&s->sky_frames, s->max_depth,
			  sizeof(*s->sky_frames) },
			{ (void **)&s->live_first, ns + 2,
			  sizeof(*s->live_first) },
		};

		ret = ta_search_take(s, 1, sections, ARRAY_SIZE(sections));
	}
	if (ret)
		return ret;
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
	entries = ta_search_memo_entries(s);
	{
		const struct ta_search_array rest[] = {
			{ (void **)&s->live, s->live_first[ns] + 1,
			  sizeof(*s->live) },
			{ (void **)&s->section_stamp, ns + 1,
			  sizeof(*s->section_stamp) },
			{ (void **)&s->tile_stamp, ns + 1,
			  sizeof(*s->tile_stamp) },
			{ (void **)&s->sum_bits, 2 * TA_SEARCH_SUM_WORDS,
			  sizeof(*s->sum_bits) },
			{ (void **)&s->live_unplaced, ns + 1,
			  sizeof(*s->live_unplaced) },
			{ (void **)&s->min_offset, n + 1,
			  sizeof(*s->min_offset) },
			{ (void **)&s->buffer_stamp, n + 1,
			  sizeof(*s->buffer_stamp) },
			{ (void **)&s->changed, n + 1, sizeof(*s->changed) },
			{ (void **)&s->rank, n + 1, sizeof(*s->rank) },
			{ (void **)&s->identical_before, n + 1,
			  sizeof(*s->identical_before) },
			{ (void **)&s->ordered_frames, n + 1,
			  sizeof(*s->ordered_frames) },
			{ (void **)&s->crossing, ns + 1, sizeof(*s->crossing) },
			{ (void **)&s->crossing_initial, ns + 1,
			  sizeof(*s->crossing_initial) },
			{ (void **)&s->cut_at_depth, ns + 1,
			  sizeof(*s->cut_at_depth) },
			{ (void **)&s->by_rank, n + 1, sizeof(*s->by_rank) },
			{ (void **)&s->unplaced_list, n + 1,
			  sizeof(*s->unplaced_list) },
			{ (void **)&s->unplaced_pos, n + 1,
			  sizeof(*s->unplaced_pos) },
			{ (void **)&s->buffer_sig, n + 1,
			  sizeof(*s->buffer_sig) },
			{ (void **)&s->memo, entries, sizeof(*s->memo) },
		};

		ret = ta_search_take(s, 2, rest, ARRAY_SIZE(rest));
	}
	if (ret)
		return ret;
	ta_search_memo_init(s, entries);
	/* the trails and the pool take what is left, and fit by their sizes */
	ret = ta_search_size_trails(s);
	if (ret)
		return ret;
	{
		const struct ta_search_array trails[] = {
			{ (void **)&s->pool, s->pool_size, sizeof(*s->pool) },
			{ (void **)&s->floor_trail_section, s->floor_trail_size,
			  sizeof(*s->floor_trail_section) },
			{ (void **)&s->floor_trail_value, s->floor_trail_size,
			  sizeof(*s->floor_trail_value) },
			{ (void **)&s->min_trail_buffer, s->min_trail_size,
			  sizeof(*s->min_trail_buffer) },
			{ (void **)&s->min_trail_value, s->min_trail_size,
			  sizeof(*s->min_trail_value) },
			{ (void **)&s->rank_trail_buffer, s->rank_trail_size,
			  sizeof(*s->rank_trail_buffer) },
			{ (void **)&s->rank_trail_value, s->rank_trail_size,
			  sizeof(*s->rank_trail_value) },
		};

		ret = ta_search_take(s, 3, trails, ARRAY_SIZE(trails));
	}
	if (ret)
		return ret;
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
