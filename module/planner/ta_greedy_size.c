// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_greedy_size.c - greedy by size: the baseline every framework ships.
 *
 * Buffers are placed largest first (ties: longer lifetime first, then lower
 * index). Each goes into the best-fitting gap among the already placed
 * buffers whose lifetimes overlap its own: the smallest free gap between
 * them in which it fits at its alignment, the lowest such gap on a tie, or
 * on top of them all when no gap fits. The fit engine (ta_fit.c) answers
 * that question, with its run index for the traces where a buffer has
 * thousands of neighbours. Each time-connected component (or a run of
 * small ones) is planned on its own, with an engine of its own size.
 *
 * Time O(n log n + K log K), K the number of (placed, overlapping) pairs;
 * memory about 240 bytes per buffer of the largest part, allocated before
 * that part's planning starts.
 */
#include "ta_fit.h"
#include "ta_plan_helpers.h"
#include "ta_sort.h"
#include "ta_strategy.h"

/* Buffers a part gathers at least (whole components) before the next. */
#define TA_GREEDY_PART	4096

#ifdef TA_PLAN_DEBUG
u64 ta_greedy_debug_parts;
#endif

/**
 * ta_greedy_order() - greedy-size's placement order
 * @b: the buffers
 * @n: how many
 * @order: out, the @n indices: largest first, then longest, then lowest
 *	   index
 *
 * Return: 0 or -ENOMEM.
 */
int ta_greedy_order(const struct ta_buffer *b, u32 n, u32 *order)
{
	u64 *key;
	u32 i;

	/* the keys, then the sorts' scratch: one allocation */
	key = ta_env_alloc_array(n + 1 + ta_radix_scratch_words(n, true),
				 sizeof(*key));
	if (!key)
		return -ENOMEM;
	/* stable radix sorts: by lifetime, longest first, then by size */
	for (i = 0; i < n; i++) {
		key[i] = ~(u32)(b[i].end - b[i].start);
		order[i] = i;
	}
	ta_radix_sort_in(key, order, n, key + n + 1);
	for (i = 0; i < n; i++)
		key[i] = ~b[order[i]].size;
	ta_radix_sort_in(key, order, n, key + n + 1);
	ta_env_free(key);
	return 0;
}

/* A fixed offset @at of buffer @b into *@off: -EOVERFLOW past the height. */
static int ta_greedy_fixed_at(const struct ta_buffer *b, u64 at, u64 *off)
{
	*off = at;
	if (at > TA_PLAN_MAX_HEIGHT || b->size > TA_PLAN_MAX_HEIGHT - at)
		return -EOVERFLOW;
	return 0;
}

/*
 * Greedy placement of one part of the buffers (all of them, or some whole
 * time-connected components), as ta_greedy_place() describes.
 */
static int ta_greedy_place_part(const struct ta_buffer *bufs, u32 n,
				const u64 *fixed, u64 *offsets, u64 *height,
				struct ta_work *w)
{
	struct ta_fit *fit = NULL;
	u32 *order;
	u64 top = 0, off;
	u32 i, t, pass;
	int ret = -ENOMEM;

	order = ta_env_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	/* the order first: its sort keys are gone before the engine's arrays */
	ret = ta_greedy_order(bufs, n, order);
	if (ret)
		goto free_order;
	fit = ta_fit_create(bufs, n, TA_FIT_RUNS, w);
	if (!fit) {
		ret = -ENOMEM;
		goto free_order;
	}
	/* the sorts and the run index: O(n log n), check after them */
	ret = ta_work_add(w, 16 * (u64)n);
	if (ret)
		goto destroy_fit;
	/* pass 0 places the fixed buffers, pass 1 fits the others */
	for (pass = fixed ? 0 : 1; pass < 2; pass++) {
		for (t = 0; t < n; t++) {
			i = order[t];
			if ((fixed && fixed[i] != TA_OFFSET_UNFIXED) != !pass)
				continue;
			ret = ta_work_add(w, 16);
			if (ret)
				goto destroy_fit;
			offsets[i] = 0;
			if (!bufs[i].size)
				continue;
			if (pass) {
				ret = ta_fit_lowest(fit, i, TA_FIT_BEST, &off);
				if (ret)
					goto destroy_fit;
			} else {
				ret = ta_greedy_fixed_at(&bufs[i], fixed[i],
							 &off);
				if (ret)
					goto destroy_fit;
			}
			offsets[i] = off;
			if (off + bufs[i].size > top)
				top = off + bufs[i].size;
			ta_fit_place(fit, i, off);
		}
	}
	*height = top;
destroy_fit:
	ta_fit_destroy(fit);
free_order:
	ta_env_free(order);
	return ret;
}

/*
 * Every buffer with bytes has a fixed offset (an external plan as a whole):
 * the placement is those offsets, without a fit engine. Return: 1 when
 * some buffer with bytes is unfixed (nothing done), else as
 * ta_greedy_place().
 */
static int ta_greedy_all_fixed(const struct ta_buffer *bufs, u32 n,
			       const u64 *fixed, u64 *offsets, u64 *height,
			       struct ta_work *w)
{
	u64 top = 0, off;
	u32 i;
	int ret;

	for (i = 0; i < n; i++)
		if (bufs[i].size && fixed[i] == TA_OFFSET_UNFIXED)
			return 1;
	for (i = 0; i < n; i++) {
		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		offsets[i] = 0;
		if (!bufs[i].size)
			continue;
		ret = ta_greedy_fixed_at(&bufs[i], fixed[i], &off);
		if (ret)
			return ret;
		offsets[i] = off;
		if (off + bufs[i].size > top)
			top = off + bufs[i].size;
	}
	*height = top;
	return 0;
}

/*
 * Cut the buffers into parts: whole time-connected components (no buffer
 * of one overlaps a buffer of another in time), consecutive in time,
 * gathered until a part holds %TA_GREEDY_PART buffers. @part gets each
 * buffer's part. Returns the number of parts, or 0 when memory is short.
 */
static u32 ta_greedy_parts(const struct ta_buffer *b, u32 n, u32 *part)
{
	u32 i, parts = 0, in_part = 0, reach = 0;
	u32 *order;

	order = ta_env_alloc_array(n, sizeof(*order));
	if (!order)
		return 0;
	if (ta_fit_order_by_start(b, n, order)) {
		ta_env_free(order);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct ta_buffer *x = &b[order[i]];

		/* nothing before starts a lifetime that reaches this one */
		if (i && x->start >= reach && in_part >= TA_GREEDY_PART) {
			parts++;
			in_part = 0;
		}
		if (x->end > reach)
			reach = x->end;
		part[order[i]] = parts;
		in_part++;
	}
	ta_env_free(order);
	return parts + 1;
}

/**
 * ta_greedy_place() - place buffers largest first, each in its best gap
 * @bufs: validated buffers
 * @n: how many, at least 1
 * @fixed: NULL, or per buffer an offset it must have (placed first, as
 *	   given, in the same size order) or %TA_OFFSET_UNFIXED; the others
 *	   are then placed around them (when there are none, no engine is
 *	   made: the offsets are @fixed's)
 * @offsets: out, one per buffer
 * @height: out, max(offset + size)
 * @w: work counter
 *
 * The engine behind greedy-size, also used by pingpong for the regions and
 * the tensors no branch covers.
 *
 * Where a buffer goes depends only on the placed buffers that overlap it
 * in time, so each time-connected component is planned on its own, in
 * the same order restricted to it, with the same offsets as a plan of the
 * whole: the fit engine then indexes one part at a time (a few thousand
 * buffers at least, whole components), which keeps it small.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the height would reach 2^63, -EINTR,
 * -ETIMEDOUT (see ta_work_check()).
 */
int ta_greedy_place(const struct ta_buffer *bufs, u32 n, const u64 *fixed,
		    u64 *offsets, u64 *height, struct ta_work *w)
{
	struct ta_buffer *pb = NULL;
	u64 *pfixed = NULL, *poff = NULL, h, top = 0;
	u32 *part, *first = NULL, *member = NULL;
	u32 parts, i, p, k, most = 0;
	int ret;

	if (fixed) {
		ret = ta_greedy_all_fixed(bufs, n, fixed, offsets, height, w);
		if (ret <= 0)
			return ret;
	}
	if (n <= TA_GREEDY_PART)
		return ta_greedy_place_part(bufs, n, fixed, offsets, height, w);
	part = ta_env_alloc_array(n, sizeof(*part));
	if (!part)
		return -ENOMEM;
	ret = -ENOMEM;
	parts = ta_greedy_parts(bufs, n, part);
	if (!parts)
		goto out;
	ret = ta_work_add(w, 4 * (u64)n);
	if (ret)
		goto out;
	/* the members of each part, in index order: a counting sort */
	ret = -ENOMEM;
	first = ta_env_alloc_array(parts + 1, sizeof(*first));
	if (!first)
		goto out;
	for (i = 0; i < n; i++)
		first[part[i] + 1]++;
	for (p = 0; p < parts; p++) {
		if (first[p + 1] > most)
			most = first[p + 1];
		first[p + 1] += first[p];
	}
	/*
	 * A part costs its engine and a copy (36 bytes a buffer) on top of
	 * this: when one holds most buffers, the whole takes less memory.
	 */
	if (most > n / 4 * 3) {
		ta_env_free(first);
		ta_env_free(part);
		return ta_greedy_place_part(bufs, n, fixed, offsets, height,
					    w);
	}
	member = ta_env_alloc_array(n, sizeof(*member));
	if (!member)
		goto out;
	for (i = 0; i < n; i++)
		member[first[part[i]]++] = i;
	for (p = parts; p; p--)
		first[p] = first[p - 1];
	first[0] = 0;
	ta_env_free(part);
	part = NULL;
	pb = ta_env_alloc_array(most, sizeof(*pb));
	poff = ta_env_alloc_array(most, sizeof(*poff));
	if (fixed)
		pfixed = ta_env_alloc_array(most, sizeof(*pfixed));
	if (!pb || !poff || (fixed && !pfixed))
		goto out;
	for (p = 0; p < parts; p++) {
		u32 lo = first[p], cnt = first[p + 1] - lo;

		/* in index order, so that ties fall as in the whole */
		for (k = 0; k < cnt; k++) {
			pb[k] = bufs[member[lo + k]];
			if (fixed)
				pfixed[k] = fixed[member[lo + k]];
		}
		ret = ta_greedy_place_part(pb, cnt, pfixed, poff, &h, w);
		if (ret)
			goto out;
#ifdef TA_PLAN_DEBUG
		ta_greedy_debug_parts++;
#endif
		for (k = 0; k < cnt; k++)
			offsets[member[lo + k]] = poff[k];
		if (h > top)
			top = h;
	}
	*height = top;
	ret = 0;
out:
	ta_env_free(pfixed);
	ta_env_free(poff);
	ta_env_free(pb);
	ta_env_free(member);
	ta_env_free(first);
	ta_env_free(part);
	return ret;
}

/**
 * ta_plan_greedy_size() - the greedy-size strategy
 * @p: the problem, validated by ta_plan_solve()
 * @budget: unused, greedy-size does not search
 * @offsets: out
 * @res: out, height and steps (one per buffer)
 * @w: work counter; past the deadline greedy-size fails with -ETIMEDOUT
 *
 * Return: 0 or a negative errno, see ta_greedy_place().
 */
int ta_plan_greedy_size(const struct ta_problem *p,
			const struct ta_budget *budget, u64 *offsets,
			struct ta_result *res, struct ta_work *w)
{
	(void)budget;
	res->steps = p->n_buffers;
	return ta_greedy_place(p->buffers, p->n_buffers, NULL, offsets,
			       &res->height, w);
}
