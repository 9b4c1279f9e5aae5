// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_greedy_size.c - greedy by size: the baseline every framework ships.
 *
 * Buffers are placed largest first (ties: longer lifetime first, then lower
 * index). Each goes into the best-fitting gap among the already placed
 * buffers whose lifetimes overlap its own: the smallest free gap between
 * them in which it fits at its alignment, the lowest such gap on a tie, or
 * on top of them all when no gap fits.
 *
 * Finding the placed buffers that overlap [s, e) in time must not scan all
 * placed buffers. The buffers are sorted by start once; a max-tree over that
 * order holds, per subtree, the largest end among placed buffers (0 when
 * none is placed). The overlapping ones are those among the first p (start
 * < e) whose end is > s: a walk down the tree that skips every subtree whose
 * largest end is <= s visits only them, plus O(log n) per hit. Their
 * address spans are then sorted and the gaps read off in one pass.
 *
 * Time O(n log n + K log K), K the number of (placed, overlapping) pairs;
 * memory about 48 bytes per buffer, allocated before planning starts.
 */
#include "ta_internal.h"

struct ta_gs_key {
	u64 size;
	u32 len;
	u32 index;
};

struct ta_gs {
	const struct ta_buffer *b;
	u32 n;
	u32 leaves;		/* power of two >= n */
	u32 shift;		/* log2(leaves) */
	u32 *by_start;		/* buffer indices sorted by start */
	u32 *pos;		/* buffer index -> position in by_start */
	u32 *tree;		/* 2 * leaves: max end of placed, per subtree */
	struct ta_span *span;	/* scratch: spans of overlapping placed */
	struct ta_span *tmp;	/* scratch for the radix sort */
	u32 *count;		/* TA_GS_RADIX counters */
	u64 lo_bits;		/* OR of the collected span starts */
};

#define TA_GS_RADIX_BITS	11
#define TA_GS_RADIX		2048U	/* 2^TA_GS_RADIX_BITS */
#define TA_GS_SMALL		48

static int ta_gs_cmp_key(const void *a, const void *b)
{
	const struct ta_gs_key *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int ta_gs_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sort the collected spans by start: insertion sort when few, else an LSD
 * radix sort over as many 11-bit digits as the largest start needs. The
 * gap scan does not care how equal starts are ordered.
 */
static void ta_gs_sort_spans(struct ta_gs *gs, u32 k)
{
	struct ta_span *a = gs->span, *b = gs->tmp, *t;
	u32 shift, i, j;

	if (k <= TA_GS_SMALL) {
		for (i = 1; i < k; i++) {
			struct ta_span x = a[i];

			for (j = i; j && a[j - 1].lo > x.lo; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	for (shift = 0; shift < 64 && (gs->lo_bits >> shift);
	     shift += TA_GS_RADIX_BITS) {
		u32 sum = 0;

		for (i = 0; i < TA_GS_RADIX; i++)
			gs->count[i] = 0;
		for (i = 0; i < k; i++)
			gs->count[(a[i].lo >> shift) & (TA_GS_RADIX - 1)]++;
		for (i = 0; i < TA_GS_RADIX; i++) {
			u32 c = gs->count[i];

			gs->count[i] = sum;
			sum += c;
		}
		for (i = 0; i < k; i++)
			b[gs->count[(a[i].lo >> shift) & (TA_GS_RADIX - 1)]++] =
				a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a != gs->span)
		for (i = 0; i < k; i++)
			gs->span[i] = a[i];
}

/* Number of buffers whose start is < @e: a binary search over by_start. */
static u32 ta_gs_count_before(const struct ta_gs *gs, u32 e)
{
	u32 lo = 0, hi = gs->n;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (gs->b[gs->by_start[mid]].start < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Collect the spans of placed buffers alive somewhere in [s, e). */
static u32 ta_gs_collect(struct ta_gs *gs, const u64 *offsets, u32 s, u32 e)
{
	u32 p = ta_gs_count_before(gs, e);
	u32 stack[40];	/* depth <= 21: at most 22 pending nodes */
	u32 sp = 0, k = 0;

	gs->lo_bits = 0;
	if (!p || gs->tree[1] <= s)
		return 0;
	stack[sp++] = 1;
	while (sp) {
		u32 v = stack[--sp];
		u32 level = 31 - (u32)__builtin_clz(v);
		u32 first = (v << (gs->shift - level)) - gs->leaves;

		if (gs->tree[v] <= s || first >= p)
			continue;
		if (v >= gs->leaves) {
			u32 i = gs->by_start[v - gs->leaves];

			gs->span[k].lo = offsets[i];
			gs->span[k].hi = offsets[i] + gs->b[i].size;
			gs->lo_bits |= offsets[i];
			k++;
			continue;
		}
		stack[sp++] = 2 * v + 1;
		stack[sp++] = 2 * v;
	}
	return k;
}

static void ta_gs_mark_placed(struct ta_gs *gs, u32 i)
{
	u32 v = gs->leaves + gs->pos[i];
	u32 end = gs->b[i].end;

	while (v && gs->tree[v] < end) {
		gs->tree[v] = end;
		v >>= 1;
	}
}

/* Best-fitting gap among the sorted spans, else the top; U64_MAX = none. */
static u64 ta_gs_fit(const struct ta_span *span, u32 k, u64 size, u64 align)
{
	u64 cur = 0, best = U64_MAX, best_len = U64_MAX, off;
	u32 j;

	for (j = 0; j < k; j++) {
		if (span[j].lo > cur && span[j].lo - cur < best_len) {
			off = ta_align_up(cur, align);
			if (off + size <= span[j].lo) {
				best_len = span[j].lo - cur;
				best = off;
			}
		}
		if (span[j].hi > cur)
			cur = span[j].hi;
	}
	if (best != U64_MAX)
		return best;
	off = ta_align_up(cur, align);
	if (off > TA_PLAN_MAX_HEIGHT || off + size > TA_PLAN_MAX_HEIGHT)
		return U64_MAX;
	return off;
}

static int ta_gs_setup(struct ta_gs *gs, const struct ta_buffer *b, u32 n,
		       u32 *order)
{
	struct ta_gs_key *key;
	u64 *sk;
	u32 i;

	gs->b = b;
	gs->n = n;
	gs->shift = 0;
	while ((1U << gs->shift) < n)
		gs->shift++;
	gs->leaves = 1U << gs->shift;

	key = ta_env_alloc_array(n, sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		key[i].size = b[i].size;
		key[i].len = b[i].end - b[i].start;
		key[i].index = i;
	}
	ta_env_sort(key, n, sizeof(*key), ta_gs_cmp_key);
	for (i = 0; i < n; i++)
		order[i] = key[i].index;
	ta_env_free(key);

	sk = ta_env_alloc_array(n, sizeof(*sk));
	if (!sk)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sk[i] = (u64)b[i].start << 32 | i;
	ta_env_sort(sk, n, sizeof(*sk), ta_gs_cmp_u64);
	for (i = 0; i < n; i++) {
		gs->by_start[i] = (u32)sk[i];
		gs->pos[(u32)sk[i]] = i;
	}
	ta_env_free(sk);
	return 0;
}

/*
 * Place buffer @i at @want, or when that is %TA_OFFSET_UNFIXED in the best
 * gap among the placed buffers that overlap it in time; record it.
 */
static int ta_gs_place(struct ta_gs *gs, struct ta_runs *rs, bool *runs_ok,
		       const struct ta_buffer *bufs, u32 i, u64 want,
		       u64 *offsets, u64 *top, struct ta_work *w)
{
	const struct ta_buffer *b = &bufs[i];
	const struct ta_span *runs;
	s64 nr = -ENOSPC;
	u64 off = want;
	u32 k;
	int ret;

	ret = ta_work_add(w, 16);
	if (ret)
		return ret;
	offsets[i] = 0;
	if (!b->size)
		return 0;
	if (want == TA_OFFSET_UNFIXED) {
		if (*runs_ok)
			nr = ta_runs_query(rs, b->start, b->end, &runs,
					   &w->units);
		if (nr >= 0) {
			w->units += (u64)nr;
			off = ta_gs_fit(runs, (u32)nr, b->size, b->align);
		} else {
			k = ta_gs_collect(gs, offsets, b->start, b->end);
			ta_gs_sort_spans(gs, k);
			w->units += 2 * (u64)k;
			off = ta_gs_fit(gs->span, k, b->size, b->align);
		}
	}
	if (off > TA_PLAN_MAX_HEIGHT || off + b->size > TA_PLAN_MAX_HEIGHT)
		return -EOVERFLOW;
	offsets[i] = off;
	if (off + b->size > *top)
		*top = off + b->size;
	ta_gs_mark_placed(gs, i);
	if (*runs_ok && ta_runs_insert(rs, b->start, b->end, off,
				       off + b->size))
		*runs_ok = false;
	w->units += rs->work;
	rs->work = 0;
	return 0;
}

/**
 * ta_greedy_place() - place buffers largest first, each in its best gap
 * @bufs: validated buffers
 * @n: how many, at least 1
 * @fixed: NULL, or per buffer an offset it must have (placed first, as
 *	   given, in the same size order) or %TA_OFFSET_UNFIXED; the others
 *	   are then placed around them
 * @offsets: out, one per buffer
 * @height: out, max(offset + size)
 * @w: work counter
 *
 * The engine behind greedy-size, also used by pingpong for the regions and
 * the tensors no branch covers.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the height would reach 2^63, -EINTR,
 * -ETIMEDOUT (see ta_work_check()).
 */
int ta_greedy_place(const struct ta_buffer *bufs, u32 n, const u64 *fixed,
		    u64 *offsets, u64 *height, struct ta_work *w)
{
	struct ta_runs *rs;
	struct ta_gs gs;
	bool runs_ok = false;
	u32 *order;
	u64 top = 0;
	u32 i, t, pass;
	int ret = -ENOMEM;

	rs = NULL;
	gs.span = NULL;
	gs.tmp = NULL;
	gs.count = NULL;
	gs.tree = NULL;
	gs.pos = NULL;
	gs.by_start = NULL;
	order = ta_env_alloc_array(n, sizeof(*order));
	gs.by_start = ta_env_alloc_array(n, sizeof(*gs.by_start));
	gs.pos = ta_env_alloc_array(n, sizeof(*gs.pos));
	if (!order || !gs.by_start || !gs.pos)
		goto out;
	/* the orders first: their sort keys are gone before the big arrays */
	ret = ta_gs_setup(&gs, bufs, n, order);
	if (ret)
		goto out;
	ret = -ENOMEM;
	/* span and tmp are halves of one array: the run engine's scratch */
	gs.span = ta_env_alloc_array((size_t)n * 2, sizeof(*gs.span));
	gs.tmp = gs.span ? gs.span + n : NULL;
	/* the radix sort only runs on more than TA_GS_SMALL spans */
	if (n > TA_GS_SMALL)
		gs.count = ta_env_alloc_array(TA_GS_RADIX, sizeof(*gs.count));
	gs.tree = ta_env_alloc_array((size_t)gs.leaves * 2, sizeof(*gs.tree));
	rs = ta_env_alloc_array(1, sizeof(*rs));
	if (!gs.span || !gs.tmp || (n > TA_GS_SMALL && !gs.count) ||
	    !gs.tree || !rs)
		goto out;
	if (ta_runs_init(rs, bufs, n, gs.span, gs.tmp, 2 * n))
		goto out;
	runs_ok = true;

	/* the sorts and the run structure: O(n log n), check after them */
	ret = ta_work_add(w, 16 * (u64)n);
	if (ret)
		goto out;
	/* pass 0 places the fixed buffers, pass 1 fits the others */
	for (pass = fixed ? 0 : 1; pass < 2; pass++) {
		for (t = 0; t < n; t++) {
			i = order[t];
			if ((fixed && fixed[i] != TA_OFFSET_UNFIXED) != !pass)
				continue;
			ret = ta_gs_place(&gs, rs, &runs_ok, bufs, i,
					  pass ? TA_OFFSET_UNFIXED : fixed[i],
					  offsets, &top, w);
			if (ret)
				goto out;
		}
	}
	*height = top;
out:
	if (rs) {
		ta_runs_free(rs);
		ta_env_free(rs);
	}
	ta_env_free(gs.tree);
	ta_env_free(gs.count);
	ta_env_free(gs.span);
	ta_env_free(gs.pos);
	ta_env_free(gs.by_start);
	ta_env_free(order);
	return ret;
}

/**
 * ta_plan_greedy_size() - the greedy-size strategy
 * @p: the problem, validated by ta_plan()
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
