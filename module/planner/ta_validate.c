// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_validate.c - the plan validator behind ta_plan_check() and
 * ta_plan_validate(), and the fixed strategy's check of the caller's
 * offsets.
 *
 * It runs in O(n log n): buffers are ranked by offset, then a sweep over
 * time keeps the ranks of the live buffers in a ta_bits set; since live
 * buffers must be disjoint in address, a buffer that starts only needs
 * checking against its live neighbours in address order (the previous and
 * the next rank). Also ta_plan_finish(), the height of a finished plan.
 */
#include "ta_bits.h"
#include "ta_bound.h"
#include "ta_contain.h"
#include "ta_plan_helpers.h"
#include "ta_sort.h"
#include "ta_validate.h"

void ta_conflict_set(struct ta_conflict *c, u32 kind, u32 a, u32 b,
		     u32 step)
{
	c->kind = kind;
	c->a = a;
	c->b = b;
	c->step = step;
}

/*
 * Whether buffer @i takes part in a check: it has bytes and, when @only is
 * set, a fixed offset there.
 */
static bool ta_checked(const struct ta_problem *p, const u64 *only, u32 i)
{
	return p->buffers[i].size && (!only || only[i] != TA_OFFSET_UNFIXED);
}

/*
 * Alignment and height of every buffer (with @only, of the fixed ones);
 * *@top gets max(offset + size) of those with bytes.
 */
int ta_check_offsets(const struct ta_problem *p, const u64 *offsets,
		     const u64 *only, u64 height, u64 *top,
		     struct ta_conflict *c, struct ta_work *w)
{
	u32 i;
	int ret;

	*top = 0;
	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		/*
		 * The validator checks zero-size buffers too; a fixed plan's
		 * are put at 0 whatever it says (ta_plan_finish()).
		 */
		if (only && (only[i] == TA_OFFSET_UNFIXED || !b->size))
			continue;
		if (offsets[i] & (b->align - 1)) {
			ta_conflict_set(c, TA_CONFLICT_ALIGN, i, i, 0);
			return -EINVAL;
		}
		if (offsets[i] > TA_PLAN_MAX_HEIGHT ||
		    b->size > TA_PLAN_MAX_HEIGHT - offsets[i] ||
		    offsets[i] + b->size > height) {
			ta_conflict_set(c, TA_CONFLICT_HEIGHT, i, i, 0);
			return -EINVAL;
		}
		if (b->size && offsets[i] + b->size > *top)
			*top = offsets[i] + b->size;
	}
	return 0;
}

/*
 * Ranks in address order (ties by index) of the non-empty buffers; by_rank
 * is the inverse. @key holds ta_radix_scratch_words(n, true) + n words: the
 * offsets, made in index order, sorted stably by a radix sort (glibc's
 * merge sort of them was 4 % of a `ta_bench --scale` run's samples).
 */
static u32 ta_rank_by_offset(const struct ta_problem *p, const u64 *offsets,
			     const u64 *only, u64 *key, u32 *rank,
			     u32 *by_rank)
{
	u32 i, m = 0;

	for (i = 0; i < p->n_buffers; i++) {
		if (!ta_checked(p, only, i))
			continue;
		key[m] = offsets[i];
		by_rank[m] = i;
		m++;
	}
	ta_radix_sort_in(key, by_rank, m, key + p->n_buffers);
	for (i = 0; i < m; i++)
		rank[by_rank[i]] = i;
	return m;
}

/*
 * Two live buffers may share bytes only when they are one alias class
 * (@root, NULL when none) at the same offset; such a pair has one span, so
 * checking address neighbours still finds every overlap.
 */
static bool ta_may_share(const u32 *root, const u64 *offsets, u32 i, u32 j)
{
	return root && root[i] == root[j] && offsets[i] == offsets[j];
}

static int ta_check_overlaps(const struct ta_problem *p, const u64 *offsets,
			     const u64 *only, const u32 *root, const u64 *ev,
			     const u32 *rank,
			     const u32 *by_rank, struct ta_bits *live,
			     struct ta_conflict *c, struct ta_work *w)
{
	u32 i, j, k, n = p->n_buffers;
	int ret;

	for (k = 0; k < 2 * n; k++) {
		u64 lo, hi;
		s64 nb;

		i = ev[k] & 0x7fffffffU;
		lo = offsets[i];
		hi = lo + p->buffers[i].size;

		/* a few ta_bits queries of at most eight words each */
		ret = ta_work_add(w, 4);
		if (ret)
			return ret;
		if (!ta_checked(p, only, i))
			continue;
		if (!(ev[k] & (1ULL << 31))) {
			ta_bits_clear(live, rank[i]);
			continue;
		}
		nb = ta_bits_prev(live, rank[i]);
		if (nb >= 0) {
			j = by_rank[nb];
			if (offsets[j] + p->buffers[j].size > lo &&
			    !ta_may_share(root, offsets, i, j))
				goto conflict;
		}
		nb = ta_bits_next(live, rank[i]);
		if (nb >= 0) {
			j = by_rank[nb];
			if (offsets[j] < hi && !ta_may_share(root, offsets, i, j))
				goto conflict;
		}
		ta_bits_set(live, rank[i]);
	}
	return 0;
conflict:
	/* both are live at the step where @i starts */
	ta_conflict_set(c, TA_CONFLICT_OVERLAP, i < j ? i : j, i < j ? j : i,
			(u32)(ev[k] >> 32));
	return -EINVAL;
}

/*
 * The plan check of a validated problem, over the buffers ta_checked()
 * selects; @root as ta_problem_roots() gives it.
 */
int ta_check_plan(const struct ta_problem *p, const u64 *offsets,
		  const u64 *only, const u32 *root, u64 height,
		  struct ta_conflict *conflict, struct ta_work *w)
{
	u32 *rank = NULL, *by_rank = NULL;
	u64 *key = NULL, *ev = NULL, *bits = NULL;
	struct ta_bits live;
	u32 n = p->n_buffers;
	u64 top;
	int ret;

	ret = ta_check_offsets(p, offsets, only, height, &top, conflict, w);
	if (ret)
		return ret;
	/* a fixed plan's tensors may nest (ta_contain.c) */
	if (ta_contain_applies(p, root))
		return ta_contain_check(p, offsets, only, NULL, conflict, w);
	ret = -ENOMEM;
	key = ta_env_alloc_array(n + ta_radix_scratch_words(n, true),
				 sizeof(*key));
	rank = ta_env_alloc_array(n, sizeof(*rank));
	by_rank = ta_env_alloc_array(n, sizeof(*by_rank));
	bits = ta_env_alloc_array(ta_bits_words(n), sizeof(*bits));
	if (!key || !rank || !by_rank || !bits)
		goto out;
	ta_rank_by_offset(p, offsets, only, key, rank, by_rank);
	ta_env_free(key);
	key = NULL;
	ev = ta_sweep_events(p->buffers, n);
	if (!ev)
		goto out;
	ta_bits_init(&live, n, bits);
	ret = ta_check_overlaps(p, offsets, only, root, ev, rank, by_rank,
				&live, conflict, w);
out:
	ta_env_free(ev);
	ta_env_free(bits);
	ta_env_free(by_rank);
	ta_env_free(rank);
	ta_env_free(key);
	return ret;
}

/* Zero-size buffers sit at 0; the height is recomputed, never trusted. */
int ta_plan_finish(const struct ta_problem *p, u64 *offsets,
		   struct ta_result *res)
{
	u64 top = 0;
	u32 i;

	for (i = 0; i < p->n_buffers; i++) {
		u64 size = p->buffers[i].size;

		if (!size) {
			offsets[i] = 0;
			continue;
		}
		if (offsets[i] > TA_PLAN_MAX_HEIGHT ||
		    offsets[i] + size > TA_PLAN_MAX_HEIGHT)
			return -EOVERFLOW;
		if (offsets[i] + size > top)
			top = offsets[i] + size;
	}
	res->height = top;
	if (top == res->lower_bound)
		res->optimal = true;
	return 0;
}
