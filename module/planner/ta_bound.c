// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bound.c - the lower bound: a height no plan can go below.
 *
 * A sweep over time (ta_sweep_events()) keeps the live set and its sums;
 * ta_sweep_lower_bound() documents the bound. ta_plan_solve() reports it in
 * res->lower_bound and a plan at it is optimal; a problem with aliases is
 * bounded through its merged problem (ta_alias_lower_bound()).
 */
#include "ta_alias.h"
#include "ta_bound.h"
#include "ta_plan_helpers.h"
#include "ta_sort.h"

int ta_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sweep events: step << 32 | kind << 31 | buffer, kind 0 = end, 1 = start.
 * Every key differs, so any sort gives qsort's order. The ends and the
 * starts are sorted apart in a scratch of n keys (and the counters) after
 * them, which then holds a copy of the ends for the merge: about 3n keys
 * at once, as a sort of all 2n with a scratch of its own half would not
 * be.
 */
u64 *ta_sweep_events(const struct ta_buffer *bufs, u32 n)
{
	/* 2n events, then the sorts' scratch, which then holds the ends */
	u64 *ev = ta_env_alloc_array(2 * (size_t)n + 1 +
				     ta_radix_scratch_words(n, false),
				     sizeof(*ev));
	u64 *end, *start;
	u32 i, a = 0, b = 0, k = 0;

	if (!ev)
		return NULL;
	start = ev + n;
	end = ev + 2 * (size_t)n + 1;
	for (i = 0; i < n; i++) {
		ev[i] = (u64)bufs[i].end << 32 | i;
		start[i] = (u64)bufs[i].start << 32 | 1ULL << 31 | i;
	}
	/* made in index order: ties are in it already */
	ta_radix_sort_above(ev, NULL, n, end, 32);
	ta_radix_sort_above(start, NULL, n, end, 32);
	for (i = 0; i < n; i++)
		end[i] = ev[i];
	/* into ev from its start: k = a + b never passes start[b] */
	while (a < n && b < n)
		ev[k++] = end[a] < start[b] ? end[a++] : start[b++];
	while (a < n)
		ev[k++] = end[a++];
	return ev;
}

/* log2 of TA_PLAN_MAX_ALIGN */
#define TA_ALIGN_LOG2_MAX	32

/*
 * The live set of the sweep: the non-empty buffers live at the current
 * step (@idx, with @pos the place of each in it), their sum @sum, how many
 * there are of each alignment (@n_align, by log2) and @rounded_sum[k], the
 * sum of their sizes each rounded up to 2^k, for k up to @max_align_log2
 * (the problem's largest alignment: no live set's smallest is above it).
 */
struct ta_live_set {
	u32 *idx;
	u32 *pos;
	u32 n;
	u64 sum;
	u32 n_align[TA_ALIGN_LOG2_MAX + 1];
	u32 max_align_log2;
	u64 rounded_sum[TA_ALIGN_LOG2_MAX + 1];
};

/* @size rounded up to 2^@k */
static u64 ta_round_up_pow2(u64 size, u32 k)
{
	return (size + BIT_ULL(k) - 1) & ~(BIT_ULL(k) - 1);
}

/*
 * A lower bound of the live set. Every live buffer's offset is a multiple
 * of the smallest live alignment 2^a, so a buffer below another one takes
 * its size rounded up to 2^a before the next can start: whichever buffer T
 * is highest in a plan starts at or above R - roundup(size(T), 2^a), R the
 * sum of the rounded sizes, rounded up to T's own alignment. The bound is
 * the least of these over T; with a = 0 it is the plain sum. Only worked
 * out when it can beat @best (it exceeds R by less than the largest
 * alignment live); otherwise the sum is given.
 */
static int ta_live_bound(const struct ta_live_set *ls,
			 const struct ta_buffer *bufs, u64 best, u64 *out,
			 struct ta_work *w)
{
	u64 lb = U64_MAX, top, rounded, below;
	u32 k, a = 0, a_max = ls->max_align_log2;
	int ret;

	*out = ls->sum;
	if (!ls->n || ls->n_align[0])
		return 0;
	while (!ls->n_align[a])
		a++;
	while (!ls->n_align[a_max])
		a_max--;
	rounded = ls->rounded_sum[a];
	if (rounded + (BIT_ULL(a_max) - 1) <= best)
		return 0;
	ret = ta_work_add(w, ls->n);
	if (ret)
		return ret;
	for (k = 0; k < ls->n; k++) {
		const struct ta_buffer *b = &bufs[ls->idx[k]];

		below = rounded - ta_round_up_pow2(b->size, a);
		/* below + ((size - below) mod align) + size: align | top */
		top = below + ((0 - below) & (b->align - 1)) + b->size;
		if (top < lb)
			lb = top;
	}
	*out = lb > ls->sum ? lb : ls->sum;
	return 0;
}

static void ta_live_add(struct ta_live_set *ls, const struct ta_buffer *bufs,
			u32 i)
{
	u32 k;

	ls->pos[i] = ls->n;
	ls->idx[ls->n++] = i;
	ls->sum += bufs[i].size;
	ls->n_align[__builtin_ctzll(bufs[i].align)]++;
	for (k = 0; k <= ls->max_align_log2; k++)
		ls->rounded_sum[k] += ta_round_up_pow2(bufs[i].size, k);
}

static void ta_live_del(struct ta_live_set *ls, const struct ta_buffer *bufs,
			u32 i)
{
	u32 last = ls->idx[--ls->n], k;

	ls->idx[ls->pos[i]] = last;
	ls->pos[last] = ls->pos[i];
	ls->sum -= bufs[i].size;
	ls->n_align[__builtin_ctzll(bufs[i].align)]--;
	for (k = 0; k <= ls->max_align_log2; k++)
		ls->rounded_sum[k] -= ta_round_up_pow2(bufs[i].size, k);
}

/**
 * ta_sweep_lower_bound() - a lower bound of every plan's height
 * @bufs: buffers, already validated
 * @n: how many
 * @lb: out
 * @w: work counter
 *
 * At every step, the non-empty buffers live there are disjoint in any
 * plan, and every offset is a multiple of the smallest live alignment A,
 * so each buffer below the highest one takes its size rounded up to A: the
 * highest, T, starts at or above R(T), the sum of the others' sizes so
 * rounded, rounded up to its own alignment. The height is at least min
 * over the live T of roundup(R(T), align(T)) + size(T), which is the plain
 * sum S when a live buffer has alignment 1 (and exact when all share one
 * alignment). The bound is the largest of these over the steps (it covers
 * each buffer alone, too). The minimum is only worked out at steps where
 * it could beat the best so far, so the cost is at most the sum over steps
 * of the buffers live there, and O(n log n) when most buffers are
 * byte-aligned.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the bound reaches 2^63, or what
 * ta_work_check() returns.
 */
int ta_sweep_lower_bound(const struct ta_buffer *bufs, u32 n, u64 *lb,
			 struct ta_work *w)
{
	struct ta_live_set ls = { 0 };
	u64 best = 0, here;
	u64 *ev;
	u32 k, i;
	int ret = 0;

	*lb = 0;
	if (!n)
		return 0;
	ev = ta_sweep_events(bufs, n);
	/* idx, then pos: one allocation */
	ls.idx = ta_env_alloc_array(2 * (size_t)n, sizeof(*ls.idx));
	ls.pos = ls.idx ? ls.idx + n : NULL;
	if (!ev || !ls.idx) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		u32 log2 = (u32)__builtin_ctzll(bufs[i].align);

		if (bufs[i].size && log2 > ls.max_align_log2)
			ls.max_align_log2 = log2;
	}
	w->units += 8 * (u64)n;		/* the sort: check at the first event */
	for (k = 0; k < 2 * n; k++) {
		i = ev[k] & 0x7fffffffU;
		ret = ta_work_add(w, 1);
		if (ret)
			break;
		/* sizes and their sum stay below 2^63: no wrap */
		if (bufs[i].size && (ev[k] & (1ULL << 31)))
			ta_live_add(&ls, bufs, i);
		else if (bufs[i].size)
			ta_live_del(&ls, bufs, i);
		if (ls.sum > TA_PLAN_MAX_HEIGHT) {
			ret = -EOVERFLOW;
			break;
		}
		/* the live set of a step: after its last event */
		if (k + 1 < 2 * n && ev[k + 1] >> 32 == ev[k] >> 32)
			continue;
		ret = ta_live_bound(&ls, bufs, best, &here, w);
		if (ret)
			break;
		if (here > TA_PLAN_MAX_HEIGHT) {
			ret = -EOVERFLOW;
			break;
		}
		if (here > best)
			best = here;
	}
out:
	ta_env_free(ls.idx);
	ta_env_free(ev);
	if (!ret)
		*lb = best;
	return ret;
}

/* The lower bound of a graph with aliases: that of its merged graph. */
int ta_alias_lower_bound(const struct ta_problem *p, const u32 *root,
			 u64 *lb, struct ta_work *w)
{
	struct ta_merged mg;
	int ret;

	ret = ta_merged_build(p, root, &mg, w);
	if (ret)
		return ret;
	ret = ta_sweep_lower_bound(mg.bufs, mg.g.n_tensors, lb, w);
	ta_merged_free(&mg);
	return ret;
}
