// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_auto.c - the default strategy: a portfolio of fast orderings, then a
 * bounded search toward the lower bound.
 *
 * 1. greedy-size, the baseline, so that auto is never worse than it;
 * 2. the fit engine (ta_search_fit.c) with several static orders (largest,
 *    largest area, longest, most crowded, ...), each with first and best
 *    fit, keeping the lowest plan;
 * 3. up to %TA_SEARCH_MAX_BUFFERS buffers: the skyline branch and bound
 *    (ta_search.c) from the best plan, which stops at the lower bound or
 *    when it has proven its plan optimal;
 * 4. larger problems: iterated greedy - buffers that end up high move
 *    forward in the order and the fit runs again - while time is left.
 *
 * Every phase stops at the lower bound and within the budget: time_ns
 * (default %TA_AUTO_DEFAULT_NS) and steps (default unlimited).
 */
#include "ta_strategy.h"
#include "ta_search.h"

#define TA_AUTO_DEFAULT_NS	1000000000ULL
#define TA_AUTO_ORDERS		6

struct ta_auto_key {
	u64 k1;
	u64 k2;
	u32 idx;
};

static int ta_auto_cmp(const void *a, const void *b)
{
	const struct ta_auto_key *x = a, *y = b;

	if (x->k1 != y->k1)
		return x->k1 > y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static u64 ta_auto_mul(u64 a, u64 b)
{
	u64 r;

	if (__builtin_mul_overflow(a, b, &r))
		return U64_MAX;
	return r;
}

/* Fill @order with static order number @which. */
static void ta_auto_order(const struct ta_problem *p, u32 which,
			  struct ta_auto_key *keys, u32 *order)
{
	u32 i, n = p->n_buffers;

	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[i];
		u64 len = b->end - b->start;

		keys[i].idx = i;
		switch (which) {
		case 0:		/* largest first, longest among equals */
			keys[i].k1 = b->size;
			keys[i].k2 = len;
			break;
		case 1:		/* largest area first */
			keys[i].k1 = ta_auto_mul(b->size, len);
			keys[i].k2 = b->size;
			break;
		case 2:		/* longest first */
			keys[i].k1 = len;
			keys[i].k2 = b->size;
			break;
		case 3:		/* earliest start first, then largest */
			keys[i].k1 = U32_MAX - b->start;
			keys[i].k2 = b->size;
			break;
		case 4:		/* latest end first, then largest */
			keys[i].k1 = b->end;
			keys[i].k2 = b->size;
			break;
		default:	/* largest size class (power of two), then longest */
			keys[i].k1 = b->size ? 64 - __builtin_clzll(b->size) : 0;
			keys[i].k2 = len;
			break;
		}
	}
	ta_env_sort(keys, n, sizeof(*keys), ta_auto_cmp);
	for (i = 0; i < n; i++)
		order[i] = keys[i].idx;
}

static void ta_auto_copy(u64 *dst, const u64 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

/*
 * Iterated greedy for large problems: buffers whose top lies above the
 * lower bound move to the front of the order, and the pass runs again.
 */
static int ta_auto_iterate(const struct ta_problem *p, struct ta_fit *fit,
			   u32 *order, u32 *tmpo, u64 *cur, u64 *offsets,
			   u64 *best, u64 lb, struct ta_search_limits *lim)
{
	u32 n = p->n_buffers, i, k, round;
	u64 h, ref = *best;
	int ret;

	ta_auto_copy(cur, offsets, n);
	for (round = 0; *best > lb; round++) {
		u64 thr = lb;

		/* the buffers above the lower bound in the reference plan */
		k = 0;
		for (i = 0; i < n; i++) {
			u32 b = order[i];

			if (cur[b] + p->buffers[b].size > thr)
				tmpo[k++] = b;
		}
		if (!k)
			break;
		for (i = 0; i < n; i++) {
			u32 b = order[i];

			if (cur[b] + p->buffers[b].size <= thr)
				tmpo[k++] = b;
		}
		for (i = 0; i < n; i++)
			order[i] = tmpo[i];
		ret = ta_fit_run(fit, order, round & 1 ? TA_FIT_FIRST : TA_FIT_BEST,
				 U64_MAX, cur, &h, lim);
		if (ret == -EAGAIN)
			return 0;
		if (ret)
			return ret;
		if (h < *best) {
			*best = h;
			ta_auto_copy(offsets, cur, n);
		}
		if (h > ref + (ref >> 4))
			break;
	}
	return 0;
}

int ta_plan_auto(const struct ta_problem *p, const struct ta_budget *budget,
		 u64 *offsets, struct ta_result *res)
{
	struct ta_search_limits lim = { 0 };
	struct ta_auto_key *keys = NULL;
	struct ta_fit *fit = NULL;
	u32 *order = NULL, *tmpo = NULL;
	u64 *cur = NULL, best, lb = res->lower_bound, h, t0;
	u32 n = p->n_buffers, which, mode;
	bool proven = false;
	int ret;

	t0 = ta_env_now_ns();
	lim.deadline_ns = t0 + (budget && budget->time_ns ? budget->time_ns :
				TA_AUTO_DEFAULT_NS);
	lim.max_steps = budget ? budget->steps : 0;

	ret = ta_plan_greedy_size(p, budget, offsets, res);
	if (ret)
		return ret;
	best = res->height;
	res->lower_bound = lb;
	if (best <= lb || n < 2)
		goto done;

	fit = ta_fit_create(p);
	keys = ta_env_alloc_array(n, sizeof(*keys));
	order = ta_env_alloc_array(n, sizeof(*order));
	tmpo = ta_env_alloc_array(n, sizeof(*tmpo));
	cur = ta_env_alloc_array(n, sizeof(*cur));
	if (!fit || !keys || !order || !tmpo || !cur) {
		ret = -ENOMEM;
		goto out;
	}
	for (which = 0; which < TA_AUTO_ORDERS && best > lb; which++) {
		ta_auto_order(p, which, keys, order);
		for (mode = TA_FIT_FIRST; mode <= TA_FIT_BEST; mode++) {
			ret = ta_fit_run(fit, order, mode, best, cur, &h, &lim);
			if (ret == -EAGAIN) {
				if (lim.timed_out)
					goto searched;
				continue;
			}
			if (ret)
				goto out;
			if (h < best) {
				best = h;
				ta_auto_copy(offsets, cur, n);
			}
		}
	}
	if (best > lb && n <= TA_SEARCH_MAX_BUFFERS) {
		ret = ta_search_skyline(p, lb, &lim, offsets, &best, &proven);
		if (ret)
			goto out;
	} else if (best > lb) {
		ta_auto_order(p, 0, keys, order);
		ret = ta_auto_iterate(p, fit, order, tmpo, cur, offsets,
				      &best, lb, &lim);
		if (ret)
			goto out;
	}
searched:
	ret = 0;
out:
	ta_fit_destroy(fit);
	ta_env_free(keys);
	ta_env_free(order);
	ta_env_free(tmpo);
	ta_env_free(cur);
	if (ret)
		return ret;
done:
	res->height = best;
	res->steps += lim.steps;
	res->optimal = best <= lb || proven;
	return 0;
}
