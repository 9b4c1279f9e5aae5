// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_fit.c - the fit engine (ta_fit.h): place buffers one at a time, each
 * at the lowest (first fit) or tightest (best fit) gap between the already
 * placed buffers that overlap it in time.
 *
 * The buffers are sorted by start once; a max-tree over that order holds,
 * per subtree, the latest end among the placed buffers (0 for none). The
 * placed buffers overlapping [s, e) are those among the ones starting
 * before e whose end is after s: a walk down the tree that skips subtrees
 * ending at or before s finds exactly them, O(log n) per neighbour, and
 * they are then sorted by offset to read off the gaps.
 *
 * With %TA_FIT_RUNS the engine also keeps the run index (ta_runs.c): the
 * union of the neighbours' address spans as sorted runs, read without
 * visiting the neighbours one by one. The gaps between runs are the gaps
 * between the neighbours, so both give the same answer; the tree is the
 * fallback when the index is full or a buffer was unplaced, built from a
 * bit per placed buffer the first time it is needed (until then placing
 * a buffer does not update it).
 *
 * Memory, taken once in ta_fit_create(): about 70 bytes per buffer (the
 * tree, the start order, offsets and the neighbour scratch), plus the run
 * index's pool. Offsets stay at or below %TA_PLAN_MAX_HEIGHT - size.
 */
#include "ta_fit.h"
#include "ta_plan_helpers.h"
#include "ta_runs.h"
#include "ta_sort.h"

#define TA_FIT_CHECK_EVERY	256

struct ta_fit {
	const struct ta_buffer *b;
	u32 n;
	u32 leaves;		/* a power of two >= n */
	u32 shift;		/* log2(leaves) */
	u32 *by_start;		/* buffer indices sorted by start */
	u32 *pos;		/* buffer -> position in by_start */
	u32 *tree;		/* 2 * leaves: latest end placed per subtree */
	u64 *off;
	struct ta_span *nb;	/* neighbours of one query; the runs' scratch */
	struct ta_span *tmp;	/* sort scratch after nb; the runs' cache */
	u32 *count;		/* radix counters */
	struct ta_work *w;	/* work counter */
	struct ta_work own;	/* the counter when none is given */
	struct ta_runs *runs;	/* the run index, or NULL */
	bool runs_ok;		/* the index holds every placed buffer */
	bool tree_ok;		/* the tree is kept (else built when asked) */
	u32 *placed;		/* bit per buffer: placed */
	size_t bytes;		/* what ta_fit_create() allocated */
	/*
	 * ta_fit_neighbours()' walk, a waiting node a level at most: here,
	 * not on the stack, where the kernel's -ftrivial-auto-var-init=zero
	 * would clear it on every query.
	 */
	u32 stack[64];
};

#define TA_FIT_RADIX_BITS	11
#define TA_FIT_RADIX		BIT(TA_FIT_RADIX_BITS)
#define TA_FIT_MERGE_MAX	2048
/*
 * Fewer buffers: no run index. Enumerating a few hundred neighbours costs
 * less than setting the index up (a dozen allocations, 7 KiB of list
 * pointers); both give the same plan.
 */
#ifndef TA_FIT_RUNS_MIN
#define TA_FIT_RUNS_MIN		128
#endif

int ta_fit_order_by_start(const struct ta_buffer *b, u32 n, u32 *order)
{
	/* the keys, then the sort's scratch: one allocation */
	u64 *key = ta_env_alloc_array(n + 1 + ta_radix_scratch_words(n, false),
				      sizeof(*key));
	u32 i;

	if (!key)
		return -ENOMEM;
	/* start, then index: made in index order, sorted by start */
	for (i = 0; i < n; i++)
		key[i] = (u64)b[i].start << 32 | i;
	ta_radix_sort_above(key, NULL, n, key + n + 1, 32);
	for (i = 0; i < n; i++)
		order[i] = (u32)key[i];
	ta_env_free(key);
	return 0;
}

void ta_fit_destroy(struct ta_fit *f)
{
	if (!f)
		return;
	ta_env_free(f->count);
	if (f->runs) {
		ta_runs_free(f->runs);
		ta_env_free(f->runs);
	}
	ta_env_free(f);
}

struct ta_fit *ta_fit_create(const struct ta_buffer *b, u32 n, u32 flags,
			     struct ta_work *w)
{
	size_t m = (size_t)n + 1, bytes;
	struct ta_fit *f;
	u32 i, leaves = 1, shift = 0;

	while (leaves < n) {
		leaves <<= 1;
		shift++;
	}
	/*
	 * One allocation: the engine, then its offsets, the neighbour spans
	 * (nb, then tmp: the run index's scratch and its cache's pool), the
	 * start order, the positions in it and the tree of ends.
	 */
	bytes = sizeof(*f) + m * (sizeof(u64) + 2 * sizeof(struct ta_span) +
				  2 * sizeof(u32)) +
		2 * (size_t)leaves * sizeof(u32) + (m + 31) / 32 * sizeof(u32);
	f = ta_env_alloc_array(1, bytes);
	if (!f)
		return NULL;
	f->off = (u64 *)(f + 1);
	f->nb = (struct ta_span *)(f->off + m);
	f->tmp = f->nb + m;
	f->by_start = (u32 *)(f->tmp + m);
	f->pos = f->by_start + m;
	f->tree = f->pos + m;
	f->placed = f->tree + 2 * (size_t)leaves;
	f->b = b;
	f->n = n;
	if (!w) {
		ta_work_init(&f->own, 0);
		w = &f->own;
	}
	f->w = w;
	f->leaves = leaves;
	f->shift = shift;
	/* a query sorts at most n spans: the radix sort only above */
	if (n > TA_FIT_MERGE_MAX) {
		f->count = ta_env_alloc_array(TA_FIT_RADIX, sizeof(*f->count));
		if (!f->count)
			goto free_engine;
	}
	if (ta_fit_order_by_start(b, n, f->by_start))
		goto free_engine;
	if (flags & TA_FIT_RUNS && n >= TA_FIT_RUNS_MIN) {
		f->runs = ta_env_alloc_array(1, sizeof(*f->runs));
		if (!f->runs)
			goto free_engine;
		if (ta_runs_init(f->runs, b, f->by_start, n, f->nb, n + 1)) {
			ta_env_free(f->runs);
			f->runs = NULL;
			goto free_engine;
		}
		f->runs_ok = true;
	}
	f->tree_ok = !f->runs;
	for (i = 0; i < n; i++)
		f->pos[f->by_start[i]] = i;
	f->bytes = bytes +
		   (f->count ? TA_FIT_RADIX * sizeof(u32) : 0) +
		   (f->runs ? sizeof(*f->runs) + ta_runs_bytes(f->runs) : 0);
	return f;

free_engine:
	ta_fit_destroy(f);
	return NULL;
}

size_t ta_fit_bytes(const struct ta_fit *f)
{
	return f->bytes;
}

void ta_fit_reset(struct ta_fit *f)
{
	u32 i;

	for (i = 0; i < 2 * f->leaves; i++)
		f->tree[i] = 0;
	for (i = 0; i < (f->n + 32) / 32; i++)
		f->placed[i] = 0;
	f->w->units += f->leaves;
	if (f->runs) {
		ta_runs_reset(f->runs);
		f->runs_ok = true;
		f->tree_ok = false;
		f->w->units += f->n;
	}
}

static void ta_fit_set(struct ta_fit *f, u32 b, u32 end)
{
	u32 k = f->leaves + f->pos[b];

	f->tree[k] = end;
	for (k >>= 1; k; k >>= 1) {
		u32 m = f->tree[2 * k] > f->tree[2 * k + 1] ?
			f->tree[2 * k] : f->tree[2 * k + 1];

		if (f->tree[k] == m)
			break;
		f->tree[k] = m;
	}
}

/*
 * The tree of ends, built from the placed buffers when first needed: while
 * the run index answers, placements do not keep it (its updates miss the
 * cache). Kept from then on.
 */
static void ta_fit_tree(struct ta_fit *f)
{
	u32 i, k;

	if (f->tree_ok)
		return;
	for (i = 0; i < f->n; i++) {
		u32 b = f->by_start[i];

		f->tree[f->leaves + i] = f->placed[b / 32] & BIT(b % 32) &&
					 f->b[b].size ? f->b[b].end : 0;
	}
	for (; i < f->leaves; i++)
		f->tree[f->leaves + i] = 0;
	for (k = f->leaves - 1; k; k--)
		f->tree[k] = f->tree[2 * k] > f->tree[2 * k + 1] ?
			     f->tree[2 * k] : f->tree[2 * k + 1];
	f->w->units += 2 * f->leaves;
	f->tree_ok = true;
}

void ta_fit_place(struct ta_fit *f, u32 b, u64 off)
{
	const struct ta_buffer *buf = &f->b[b];

	f->off[b] = off;
	f->placed[b / 32] |= BIT(b % 32);
	if (!buf->size)
		return;
	if (f->tree_ok)
		ta_fit_set(f, b, buf->end);
	if (f->runs_ok) {
		/* a full index stays off: the tree answers from now on */
		if (ta_runs_insert(f->runs, f->pos[b], off, off + buf->size)) {
			f->runs_ok = false;
			ta_fit_tree(f);
		}
		f->w->units += f->runs->work;
		f->runs->work = 0;
	}
}

void ta_fit_unplace_last(struct ta_fit *f, u32 b)
{
	f->placed[b / 32] &= ~BIT(b % 32);
	if (f->tree_ok)
		ta_fit_set(f, b, 0);
	f->runs_ok = false;
	ta_fit_tree(f);
}

/*
 * Sort @n gaps by lo: insertion sort in runs of eight and bottom-up merges
 * up to %TA_FIT_MERGE_MAX, else least significant digit first radix sort
 * over the bits in which the keys differ.
 */
static struct ta_span *ta_fit_sort(struct ta_fit *f, u32 n)
{
	struct ta_span *a = f->nb, *t = f->tmp, *x;
	u64 any = 0, all = U64_MAX, diff;
	u32 i, shift;

	if (n <= TA_FIT_MERGE_MAX) {
		u32 w;

		for (i = 1; i < n; i++) {
			struct ta_span v = a[i];
			u32 j = i;

			while (j & 7 && a[j - 1].lo > v.lo) {
				a[j] = a[j - 1];
				j--;
			}
			a[j] = v;
		}
		for (w = 8; w < n; w <<= 1) {
			for (i = 0; i < n; i += 2 * w) {
				u32 mid = i + w < n ? i + w : n;
				u32 end = i + 2 * w < n ? i + 2 * w : n;
				u32 p = i, q = mid, o = i;

				while (p < mid && q < end)
					t[o++] = a[q].lo < a[p].lo ? a[q++] :
								     a[p++];
				while (p < mid)
					t[o++] = a[p++];
				while (q < end)
					t[o++] = a[q++];
			}
			x = a;
			a = t;
			t = x;
		}
		return a;
	}
	for (i = 0; i < n; i++) {
		any |= a[i].lo;
		all &= a[i].lo;
	}
	diff = any ^ all;
	shift = diff ? __builtin_ctzll(diff) : 64;
	for (; shift < 64 && (diff >> shift); shift += TA_FIT_RADIX_BITS) {
		u32 sum = 0;

		for (i = 0; i < TA_FIT_RADIX; i++)
			f->count[i] = 0;
		for (i = 0; i < n; i++)
			f->count[(a[i].lo >> shift) & (TA_FIT_RADIX - 1)]++;
		for (i = 0; i < TA_FIT_RADIX; i++) {
			u32 c = f->count[i];

			f->count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			t[f->count[(a[i].lo >> shift) & (TA_FIT_RADIX - 1)]++] =
				a[i];
		x = a;
		a = t;
		t = x;
	}
	return a;
}

/*
 * Collect the placed buffers overlapping @b into f->nb; return the count.
 * The engine's arrays are read through locals: the kernel builds with
 * -fno-strict-aliasing, under which each store into f->nb would otherwise
 * make the compiler read f's pointers again.
 */
static u32 ta_fit_neighbours(struct ta_fit *f, u32 b)
{
	const struct ta_buffer *buf = f->b;
	const u32 *by_start = f->by_start, *tree = f->tree;
	const u64 *off = f->off;
	struct ta_span *nb = f->nb;
	u32 *stack = f->stack, leaves = f->leaves, shift = f->shift;
	u32 sp = 0, k = 0, s = buf[b].start, e = buf[b].end, lo = 0, hi;

	/* the buffers starting before e: positions [0, hi) */
	hi = f->n;
	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (buf[by_start[mid]].start < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	hi = lo;
	if (!hi || tree[1] <= s)
		return 0;
	stack[sp++] = 1;
	while (sp) {
		u32 node = stack[--sp], lvl, first;

		if (tree[node] <= s)
			continue;
		lvl = 31 - __builtin_clz(node);
		first = (node - (1U << lvl)) << (shift - lvl);
		if (first >= hi)
			continue;
		if (node >= leaves) {
			u32 o = by_start[node - leaves];

			nb[k].lo = off[o];
			nb[k].hi = off[o] + buf[o].size;
			k++;
			continue;
		}
		stack[sp++] = 2 * node + 1;
		stack[sp++] = 2 * node;
	}
	return k;
}

/*
 * The lowest (first fit) or tightest (best fit) gap for @size (> 0) at
 * alignment mask @mask among the spans @g[0, @k), sorted by lo (@runs:
 * disjoint too, the run index's), and @extra (one more occupied span, or
 * NULL); above them all when no gap fits.
 */
static int ta_fit_scan(const struct ta_span *g, u32 k, bool runs,
		       const struct ta_span *extra, u64 size, u64 mask,
		       u32 mode, u64 *off)
{
	u64 y = 0, best = U64_MAX, best_gap = U64_MAX, top;
	u32 i = 0;

	if (runs && !extra && mode == TA_FIT_BEST) {
		/*
		 * Disjoint runs: the gap before run i is g[i].lo - g[i - 1].hi.
		 * slack is best_gap - size, 2^63 before any fits: gap - size
		 * wraps to 2^63 or more for a gap too short (both are below
		 * 2^63), so one comparison takes size <= gap < best_gap.
		 */
		u64 slack = BIT_ULL(63);

		for (; i < k; i++) {
			u64 gap = g[i].lo - y, o;

			if (gap - size < slack) {
				o = (y + mask) & ~mask;
				if (o < y)
					return -EOVERFLOW;
				if (g[i].lo > o && g[i].lo - o >= size) {
					slack = gap - size;
					best = o;
				}
			}
			y = g[i].hi;
		}
		top = (y + mask) & ~mask;
		if (top < y)
			return -EOVERFLOW;
		if (best == U64_MAX && top != U64_MAX && U64_MAX - top >= size)
			best = top;
		goto check;
	}
	if (!extra && mode == TA_FIT_BEST) {
		/* the common case, the same steps without the choices */
		for (; i < k; i++) {
			u64 lim = g[i].lo, o;

			/* a gap too short or no tighter fails before aligning */
			if (lim > y && lim - y >= size && lim - y < best_gap) {
				o = (y + mask) & ~mask;
				if (o < y)
					return -EOVERFLOW;
				if (lim > o && lim - o >= size) {
					best_gap = lim - y;
					best = o;
				}
			}
			if (g[i].hi > y)
				y = g[i].hi;
		}
		/* above them all when no gap fits */
		top = (y + mask) & ~mask;
		if (top < y)
			return -EOVERFLOW;
		if (best == U64_MAX && top != U64_MAX && U64_MAX - top >= size)
			best = top;
		goto check;
	}
	for (;;) {
		const struct ta_span *sp = NULL;
		u64 lim, o = (y + mask) & ~mask;

		if (extra && (i >= k || extra->lo < g[i].lo)) {
			sp = extra;
			extra = NULL;
		} else if (i < k) {
			sp = &g[i++];
		}
		lim = sp ? sp->lo : U64_MAX;
		if (o < y)
			return -EOVERFLOW;
		if (lim > o && lim - o >= size) {
			if (mode == TA_FIT_FIRST || !sp) {
				if (best == U64_MAX)
					best = o;
				break;
			}
			if (lim - y < best_gap) {
				best_gap = lim - y;
				best = o;
			}
		}
		if (!sp)
			break;
		if (sp->hi > y)
			y = sp->hi;
	}
check:
	if (best > TA_PLAN_MAX_HEIGHT || size > TA_PLAN_MAX_HEIGHT - best)
		return -EOVERFLOW;
	*off = best;
	return 0;
}

int ta_fit_lowest_beside(struct ta_fit *f, u32 b, u32 mode,
			 const struct ta_span *extra, u64 *off)
{
	const struct ta_buffer *buf = &f->b[b];
	const struct ta_span *g = NULL;
	s64 runs = -ENOSPC;
	u32 k;
	int ret;

	if (!buf->size) {
		*off = 0;
		return 0;
	}
	if (f->runs_ok)
		runs = ta_runs_query(f->runs, f->pos[b], &g, &f->w->units);
	if (runs >= 0) {
		k = (u32)runs;
		ret = ta_work_add(f->w, 16 + (u64)k);
	} else {
		ta_fit_tree(f);
		k = ta_fit_neighbours(f, b);
		/* neighbours found, sorted (a few passes) and scanned */
		ret = ta_work_add(f->w, 16 + 4 * (u64)k);
		/* the sort's scratch is where the run index caches unions */
		if (f->runs_ok)
			ta_runs_cache_drop(f->runs);
		if (!ret)
			g = ta_fit_sort(f, k);
	}
	if (ret)
		return ret;
	return ta_fit_scan(g, k, runs >= 0, extra, buf->size, buf->align - 1,
			   mode, off);
}

int ta_fit_lowest(struct ta_fit *f, u32 b, u32 mode, u64 *off)
{
	return ta_fit_lowest_beside(f, b, mode, NULL, off);
}

int ta_fit_run(struct ta_fit *f, const u32 *order, u32 mode, u64 stop_above,
	       u64 *offsets, u64 *height, struct ta_work *lim)
{
	u64 h = 0;
	u32 i;
	int ret;

	ta_fit_reset(f);
	for (i = 0; i < f->n; i++) {
		u32 b = order[i];
		u64 o;

		if (!(i & (TA_FIT_CHECK_EVERY - 1)) && i) {
			ret = ta_work_limit_hit(lim);
			if (ret < 0)
				return ret;
			if (ret)
				return -EAGAIN;
		}
		ret = ta_fit_lowest(f, b, mode, &o);
		if (ret == -ETIMEDOUT) {
			lim->timed_out = true;
			return -EAGAIN;
		}
		if (ret)
			return ret;
		ta_fit_place(f, b, o);
		offsets[b] = o;
		if (f->b[b].size && o + f->b[b].size > h) {
			h = o + f->b[b].size;
			if (h > stop_above)
				return -EAGAIN;
		}
	}
	lim->steps += f->n;
	*height = h;
	return 0;
}
