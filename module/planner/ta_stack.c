// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_stack.c - rectangle stacking, the second source method.
 *
 * Every buffer is a rectangle, its size by its lifetime. Rectangles are
 * stacked one at a time; a rectangle goes at the lowest offset where it
 * fits between the already stacked rectangles that overlap it in time
 * (first fit).
 *
 * - Up to %TA_STACK_EXHAUSTIVE buffers every order is enumerated (depth
 *   first, cutting any prefix that already reaches the best height) and the
 *   lowest stack is kept. Some order's first-fit stack is optimal (take an
 *   optimal plan, stack its rectangles bottom-up: each lands at or below
 *   its place), so the result is proven optimal.
 * - Larger inputs are stacked greedily: the candidates are the next
 *   %TA_STACK_WINDOW unplaced rectangles in order of decreasing size; the
 *   one whose placement keeps the stack lowest wins; ties are broken by
 *   looking one placement ahead (the lowest stack the best next candidate
 *   would then reach), then by the larger rectangle, the lower offset and
 *   the order. Each step costs %TA_STACK_WINDOW first-fit queries plus the
 *   look-ahead, so above %TA_STACK_MAX_GREEDY buffers the strategy plans
 *   with greedy-size (a window of one) instead.
 */
#include "ta_fit.h"
#include "ta_plan_helpers.h"
#include "ta_search.h"
#include "ta_strategy.h"

#define TA_STACK_WINDOW		8

struct ta_stack_ex {
	u32 perm[TA_STACK_EXHAUSTIVE];		/* the order so far */
	u32 next[TA_STACK_EXHAUSTIVE + 1];	/* next choice per depth */
	u64 off[TA_STACK_EXHAUSTIVE];
	u64 hgt[TA_STACK_EXHAUSTIVE + 1];	/* stack height per depth */
};

/*
 * Anytime: past the hard deadline it keeps the best complete order found
 * (not proven optimal); -ETIMEDOUT only before the first one.
 */
static int ta_stack_exhaustive(const struct ta_problem *p, u64 *offsets,
			       struct ta_result *res, struct ta_work *w)
{
	u32 n = p->n_buffers, used = 0, i;
	u64 best = U64_MAX, steps = 0;
	struct ta_stack_ex *x;
	struct ta_fit *fit;
	int d = 0, ret = 0;

	x = ta_env_alloc_array(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	/* holds the rectangles of the order so far, perm[0, d) */
	fit = ta_fit_create(p->buffers, n, 0, w);
	if (!fit) {
		ret = -ENOMEM;
		goto out;
	}
	x->hgt[0] = 0;
	x->next[0] = 0;
	while (d >= 0) {
		u64 o, top;

		if (x->next[d] >= n) {
			if (--d >= 0) {
				used &= ~(1U << x->perm[d]);
				ta_fit_unplace_last(fit, x->perm[d]);
			}
			continue;
		}
		i = x->next[d]++;
		if (used & (1U << i))
			continue;
		steps++;
		/* counts its work; -ETIMEDOUT or -EINTR stop the enumeration */
		ret = ta_fit_lowest(fit, i, TA_FIT_FIRST, &o);
		if (ret == -EOVERFLOW)
			goto out;
		if (ret)
			goto stopped;
		x->off[i] = o;
		top = p->buffers[i].size ? o + p->buffers[i].size : 0;
		if (top < x->hgt[d])
			top = x->hgt[d];
		if (top >= best)
			continue;
		x->perm[d] = i;
		if ((u32)d + 1 == n) {
			best = top;
			for (i = 0; i < n; i++)
				offsets[i] = x->off[i];
			continue;
		}
		used |= 1U << i;
		ta_fit_place(fit, i, o);
		x->hgt[d + 1] = top;
		x->next[++d] = 0;
	}
	res->height = best;
	res->steps = steps;
	res->optimal = true;
	goto out;
stopped:
	if (ret == -ETIMEDOUT && best != U64_MAX) {
		res->height = best;
		res->steps = steps;
		ret = 0;
	}
out:
	ta_fit_destroy(fit);
	ta_env_free(x);
	return ret;
}

struct ta_stack_key {
	u64 size;
	u64 len;
	u32 idx;
};

static int ta_stack_cmp(const void *a, const void *b)
{
	const struct ta_stack_key *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Is (h, la, b, o) a better choice than the best so far? */
static bool ta_stack_better(const struct ta_problem *p, u64 h, u64 la, u32 b,
			    u64 o, u64 bh, u64 bla, u32 bb, u64 bo)
{
	if (h != bh)
		return h < bh;
	if (la != bla)
		return la < bla;
	if (p->buffers[b].size != p->buffers[bb].size)
		return p->buffers[b].size > p->buffers[bb].size;
	return o < bo;
}

/*
 * Would @a at @oa and @b at @ob share a byte while both live? A placed
 * buffer moves another's first fit only when they collide there: every
 * lower offset was blocked already, and the old one stays free.
 */
static bool ta_stack_collide(const struct ta_buffer *a, u64 oa,
			     const struct ta_buffer *b, u64 ob)
{
	return a->size && b->size && a->start < b->end && b->start < a->end &&
	       oa < ob + b->size && ob < oa + a->size;
}

/*
 * The window's first fits are kept from step to step and asked again only
 * when the buffer just placed collides with them; the look-ahead asks only
 * for the candidates the tried one collides with, with its span added
 * (ta_fit_lowest_beside(), so the run index stays on). The plan is the same
 * as placing, asking every time and unplacing, at a fraction of the cost.
 */
static int ta_stack_greedy(const struct ta_problem *p, u64 *offsets,
			   struct ta_result *res, struct ta_work *w)
{
	const struct ta_buffer *buf = p->buffers;
	u64 steps = 0;
	u32 n = p->n_buffers, win[TA_STACK_WINDOW], wn = 0, next = 0, i, j;
	u64 woff[TA_STACK_WINDOW], height = 0;
	bool known[TA_STACK_WINDOW];
	struct ta_stack_key *keys;
	struct ta_fit *fit;
	int ret = 0;

	keys = ta_env_alloc_array(n, sizeof(*keys));
	fit = ta_fit_create(buf, n, TA_FIT_RUNS, w);
	if (!keys || !fit) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		keys[i].size = buf[i].size;
		keys[i].len = buf[i].end - buf[i].start;
		keys[i].idx = i;
	}
	ta_env_sort(keys, n, sizeof(*keys), ta_stack_cmp);
	ta_fit_reset(fit);
	for (;;) {
		u64 bh = U64_MAX, bla = U64_MAX, bo = 0;
		u32 bi = 0;

		while (wn < TA_STACK_WINDOW && next < n) {
			known[wn] = false;
			win[wn++] = keys[next++].idx;
		}
		if (!wn)
			break;
		steps++;
		/* ta_fit_lowest() counts the queries' work and checks it */
		ret = ta_work_add(w, TA_STACK_WINDOW);
		if (ret)
			goto out;
		for (i = 0; i < wn; i++) {
			if (known[i])
				continue;
			ret = ta_fit_lowest(fit, win[i], TA_FIT_FIRST, &woff[i]);
			if (ret)
				goto out;
			known[i] = true;
		}
		for (i = 0; i < wn; i++) {
			u64 top = woff[i] + buf[win[i]].size;
			u64 h = top > height ? top : height;
			struct ta_span span = { woff[i], top };
			u64 la;

			if (h > bh)
				continue;
			/* look one placement ahead */
			la = U64_MAX;
			for (j = 0; j < wn; j++) {
				u64 o2 = woff[j], t2;

				if (j == i)
					continue;
				if (ta_stack_collide(&buf[win[i]], woff[i],
						     &buf[win[j]], woff[j])) {
					ret = ta_fit_lowest_beside(fit, win[j],
								   TA_FIT_FIRST,
								   &span, &o2);
					if (ret)
						goto out;
				}
				t2 = o2 + buf[win[j]].size;
				if (t2 < h)
					t2 = h;
				if (t2 < la)
					la = t2;
			}
			if (bh == U64_MAX ||
			    ta_stack_better(p, h, la, win[i], woff[i],
					    bh, bla, win[bi], bo)) {
				bh = h;
				bla = la;
				bi = i;
				bo = woff[i];
			}
		}
		ta_fit_place(fit, win[bi], bo);
		offsets[win[bi]] = bo;
		height = bh;
		for (i = 0; i < wn; i++)
			if (i != bi && ta_stack_collide(&buf[win[bi]], bo,
							&buf[win[i]], woff[i]))
				known[i] = false;
		wn--;
		win[bi] = win[wn];
		woff[bi] = woff[wn];
		known[bi] = known[wn];
	}
	res->height = height;
	res->steps = steps;
out:
	ta_fit_destroy(fit);
	ta_env_free(keys);
	return ret;
}

/**
 * ta_plan_stack() - plan by rectangle stacking (see the file comment)
 * @p: the problem, validated
 * @budget: unused: the exhaustive part is bounded by %TA_STACK_EXHAUSTIVE
 * @offsets: out, the plan
 * @res: out, height, steps and whether the plan is proven optimal
 * @w: work counter. Past the hard deadline the exhaustive enumeration keeps
 *     the best order it has found; the greedy stacking has no plan before
 *     it ends and fails with -ETIMEDOUT.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW, -EINTR or -ETIMEDOUT.
 */
int ta_plan_stack(const struct ta_problem *p, const struct ta_budget *budget,
		  u64 *offsets, struct ta_result *res, struct ta_work *w)
{
	if (!p->n_buffers) {
		res->height = 0;
		res->optimal = true;
		return 0;
	}
	if (p->n_buffers <= TA_STACK_EXHAUSTIVE)
		return ta_stack_exhaustive(p, offsets, res, w);
	if (p->n_buffers > TA_STACK_MAX_GREEDY)
		return ta_plan_greedy_size(p, budget, offsets, res, w);
	return ta_stack_greedy(p, offsets, res, w);
}
