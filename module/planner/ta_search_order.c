// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_order.c - the search's candidate orders: each buffer's sort
 * keys for a heuristic (ta_search_keys()), the order they give
 * (ta_search_order()), the ranks and the identical buffers in it.
 */
#include "ta_search_state.h"

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
