// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tier_bound.c - how much weight a fast tier can serve at most.
 *
 * Relax the offsets: a fast set fits when, at every step, the bytes it
 * has live fit the capacity (less what the fast pins hold there). Only the
 * steps where a free unit starts matter (the coordinates). Split each
 * unit's weight into shares over the coordinates it lives at; at each
 * coordinate the shares of a fitting set sum to at most a fractional
 * knapsack of the live units, so the knapsacks' sum bounds the served
 * weight (a Lagrangian bound of the per-step LP). Two splits: all of the
 * weight at the unit's most crowded coordinate, and evenly over its
 * coordinates (rounded up); the least of them and the plain sum of the
 * free units' weights. Integer arithmetic, every rounding upward.
 */
#include "ta_tier_unit.h"
#include "ta_bits.h"
#include "ta_bound.h"

/* Past this much work the even split is left out (the others remain). */
#define TA_TIER_BOUND_WORK	20000000ULL

struct ta_tier_item {
	u32 k;		/* unit */
	u32 at;		/* coordinate (concentrated split) */
	u32 lo, hi;	/* its coordinates [lo, hi) */
	u64 v;		/* its share */
	u64 s;		/* its size */
};

struct ta_tier_relax {
	const struct ta_tier_units *tu;
	u32 n_x;
	u32 *x;		/* coordinates: sorted distinct starts */
	u64 *room;	/* per coordinate: capacity less the pins live */
	u64 *demand;	/* per coordinate: free bytes live */
	struct ta_tier_item *it;
	u32 n_it;
	struct ta_work *w;
};

/* First coordinate at or after step @t. */
static u32 ta_tier_xfind(const struct ta_tier_relax *r, u32 t)
{
	u32 a = 0, b = r->n_x;

	while (a < b) {
		u32 m = a + (b - a) / 2;

		if (r->x[m] < t)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

static int ta_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* By coordinate, then share per byte descending, then unit. */
static int ta_cmp_item_at(const void *a, const void *b)
{
	const struct ta_tier_item *x = a, *y = b;
	int c;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	c = -ta_tier_mul_cmp(x->v, y->s, y->v, x->s);
	if (c)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Share per byte descending, then unit. */
static int ta_cmp_item(const void *a, const void *b)
{
	const struct ta_tier_item *x = a, *y = b;
	int c = -ta_tier_mul_cmp(x->v, y->s, y->v, x->s);

	if (c)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* A knapsack's next item of @v for @s bytes into *@room: what it adds. */
static u64 ta_tier_take_frac(u64 v, u64 s, u64 *room)
{
	u64 r = *room;

	if (s <= r) {
		*room = r - s;
		return v;
	}
	*room = 0;
	if (r && v <= U64_MAX / r)
		return (v * r + s - 1) / s;
	return r ? v : 0;
}

/* All of each unit's weight at its most crowded coordinate. */
static int ta_tier_concentrated(struct ta_tier_relax *r, u64 *bound)
{
	u64 sum = 0, room = 0, scanned = 0;
	u32 i, j, cur = U32_MAX;
	int ret;

	for (i = 0; i < r->n_it; i++) {
		struct ta_tier_item *t = &r->it[i];
		u32 best = t->lo;
		u64 best_ex = 0;
		bool first = true;

		scanned += t->hi - t->lo;
		for (j = t->lo; j < t->hi && scanned < TA_TIER_BOUND_WORK;
		     j++) {
			/* excess: demand - room, as a signed comparison */
			u64 ex = r->demand[j] + (U64_MAX / 2) - r->room[j];

			if (first || ex > best_ex) {
				best_ex = ex;
				best = j;
				first = false;
			}
		}
		t->at = best;
		t->v = r->tu->u[t->k].weight;
		ret = ta_work_add(r->w, 1 + t->hi - t->lo);
		if (ret)
			return ret;
	}
	ta_env_sort(r->it, r->n_it, sizeof(*r->it), ta_cmp_item_at);
	for (i = 0; i < r->n_it; i++) {
		const struct ta_tier_item *t = &r->it[i];

		if (t->at != cur) {
			cur = t->at;
			room = r->room[cur];
		}
		sum = ta_tier_add(sum, ta_tier_take_frac(t->v, t->s, &room));
	}
	*bound = sum;
	return 0;
}

/* Each unit's weight evenly over its coordinates, knapsacks by sweep. */
static int ta_tier_even(struct ta_tier_relax *r, u64 *bound)
{
	u32 i, j, n = r->n_it, a = 0, e = 0;
	u64 sum = 0, work = 0, *mem, *st, *en;
	struct ta_bits live;
	int ret = 0;

	*bound = U64_MAX;
	for (i = 0; i < n; i++) {
		u64 k = r->it[i].hi - r->it[i].lo;
		u64 w = r->tu->u[r->it[i].k].weight;

		r->it[i].v = w / k + (w % k ? 1 : 0);
	}
	ta_env_sort(r->it, n, sizeof(*r->it), ta_cmp_item);
	st = ta_env_alloc_array(n + 1, sizeof(u64));
	en = ta_env_alloc_array(n + 1, sizeof(u64));
	mem = ta_env_alloc_array(ta_bits_words(n + 1), sizeof(u64));
	if (!st || !en || !mem) {
		ret = -ENOMEM;
		goto free_all;
	}
	ta_bits_init(&live, n + 1, mem);
	/* by coordinate: coordinate << 32 | rank (the item's index now) */
	for (i = 0; i < n; i++) {
		st[i] = (u64)r->it[i].lo << 32 | i;
		en[i] = (u64)r->it[i].hi << 32 | i;
	}
	ta_env_sort(st, n, sizeof(*st), ta_cmp_u64);
	ta_env_sort(en, n, sizeof(*en), ta_cmp_u64);
	for (j = 0; j < r->n_x; j++) {
		u64 room = r->room[j];
		s64 q;

		for (; e < n && en[e] >> 32 <= j; e++)
			ta_bits_clear(&live, (u32)en[e]);
		for (; a < n && st[a] >> 32 <= j; a++)
			ta_bits_set(&live, (u32)st[a]);
		for (q = ta_bits_next(&live, 0); q >= 0 && room;
		     q = ta_bits_next(&live, (u32)q + 1)) {
			sum = ta_tier_add(sum, ta_tier_take_frac(r->it[q].v,
								 r->it[q].s,
								 &room));
			work++;
		}
		work++;
		ret = ta_work_add(r->w, 8);
		if (ret)
			goto free_all;
		if (work > TA_TIER_BOUND_WORK)
			goto free_all;	/* left out */
	}
	*bound = sum;
free_all:
	ta_env_free(mem);
	ta_env_free(en);
	ta_env_free(st);
	return ret;
}

static void ta_tier_relax_free(struct ta_tier_relax *r)
{
	ta_env_free(r->x);
	ta_env_free(r->room);
	ta_env_free(r->demand);
	ta_env_free(r->it);
}

/* Coordinates, room, demand and the free items' ranges. */
static int ta_tier_relax_build(struct ta_tier_relax *r, u64 cap, u64 *free_sum)
{
	const struct ta_tier_units *tu = r->tu;
	size_t n = tu->n + 1;
	u64 live = 0, dem = 0;
	u32 i, m = 0;

	r->x = ta_env_alloc_array(n, sizeof(*r->x));
	r->room = ta_env_alloc_array(n + 1, sizeof(*r->room));
	r->demand = ta_env_alloc_array(n + 1, sizeof(*r->demand));
	r->it = ta_env_alloc_array(n, sizeof(*r->it));
	if (!r->x || !r->room || !r->demand || !r->it)
		return -ENOMEM;
	for (i = 0; i < tu->n; i++) {
		const struct ta_tier_unit *u = &tu->u[i];

		if (u->pin != TA_TIER_ANY || !u->weight)
			continue;
		if (!u->size) {
			*free_sum = ta_tier_add(*free_sum, u->weight);
			continue;
		}
		if (u->size > cap)
			continue;
		r->it[r->n_it++] = (struct ta_tier_item){ .k = i, .s = u->size };
		r->x[m++] = u->start;
	}
	ta_env_sort(r->x, m, sizeof(*r->x), ta_cmp_u32);
	r->n_x = 0;
	for (i = 0; i < m; i++)
		if (!r->n_x || r->x[r->n_x - 1] != r->x[i])
			r->x[r->n_x++] = r->x[i];
	/* difference arrays, then prefix sums (wrapping, exact in the end) */
	for (i = 0; i < tu->n; i++) {
		const struct ta_tier_unit *u = &tu->u[i];
		u32 a = ta_tier_xfind(r, u->start), b = ta_tier_xfind(r, u->end);

		if (u->pin == TA_TIER_FAST && u->size) {
			r->room[a] += u->size;
			r->room[b] -= u->size;
		}
	}
	for (i = 0; i < r->n_it; i++) {
		struct ta_tier_item *t = &r->it[i];
		const struct ta_tier_unit *u = &tu->u[t->k];

		t->lo = ta_tier_xfind(r, u->start);
		t->hi = ta_tier_xfind(r, u->end);
		r->demand[t->lo] += u->size;
		r->demand[t->hi] -= u->size;
	}
	for (i = 0; i < r->n_x; i++) {
		live += r->room[i];
		dem += r->demand[i];
		r->room[i] = live < cap ? cap - live : 0;
		r->demand[i] = dem;
	}
	return ta_work_add(r->w, tu->n + r->n_x);
}

int ta_tier_bound_units(const struct ta_tier_units *tu, u64 cap, u64 *bound,
			struct ta_work *w)
{
	struct ta_tier_relax r = { .tu = tu, .w = w };
	u64 free_sum = 0, all = 0, b;
	u32 i;
	int ret;

	ret = ta_tier_relax_build(&r, cap, &free_sum);
	if (ret)
		goto free_relax;
	for (i = 0; i < r.n_it; i++)
		all = ta_tier_add(all, tu->u[r.it[i].k].weight);
	ret = ta_tier_concentrated(&r, &b);
	if (ret)
		goto free_relax;
	if (b < all)
		all = b;
	ret = ta_tier_even(&r, &b);
	if (ret)
		goto free_relax;
	if (b < all)
		all = b;
	*bound = ta_tier_add(ta_tier_add(tu->fast_weight, free_sum), all);
free_relax:
	ta_tier_relax_free(&r);
	return ret;
}

/**
 * ta_tier_bound() - a weight no tiered plan can serve more than
 * @p: the problem
 * @rq: capacity, weights and pins
 * @bound: out
 *
 * See ta_tier.h.
 *
 * Return: 0; -EINVAL for a malformed problem or request; -ENOMEM; -EINTR.
 */
int ta_tier_bound(const struct ta_problem *p, const struct ta_tier_request *rq,
		  u64 *bound)
{
	struct ta_tier_fail f = { 0 };
	struct ta_tier_units tu;
	struct ta_work w;
	int ret;

	if (!bound)
		return -EINVAL;
	*bound = 0;
	ta_work_init(&w, 0);
	ret = ta_tier_units_build(p, rq, &tu, &f, &w);
	if (ret)
		return ret;
	ret = ta_tier_bound_units(&tu, rq->capacity, bound, &w);
	ta_tier_units_free(&tu);
	return ret;
}
