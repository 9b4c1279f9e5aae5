// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_fit.c - the fit engine: place buffers one at a time, each at
 * the lowest (first fit) or tightest (best fit) gap between the already
 * placed buffers that overlap it in time.
 *
 * Placed buffers are kept in a segment tree over the time sections: each
 * buffer is stored at the O(log S) nodes that cover its lifetime exactly,
 * and every node counts the placed buffers stored in its subtree. The
 * buffers overlapping a lifetime are those stored on the paths to the
 * nodes covering it and inside those nodes' subtrees, so a query costs
 * O(log S + overlapping neighbours) plus sorting them by offset.
 *
 * Memory, taken once in ta_fit_create(): per buffer its sections, stamp,
 * neighbour records and up to 2 log2(S) tree slots (4 bytes each); per tree
 * node three counters. Sizes and offsets are checked against
 * %TA_SEARCH_MAX_HEIGHT so that offset + size never overflows.
 */
#include "ta_search.h"

#define TA_FIT_CHECK_EVERY	256

struct ta_fit_gap {
	u64 lo;
	u64 hi;
};

struct ta_fit {
	const struct ta_problem *p;
	u32 n;
	u32 ns;
	u32 m;			/* leaves: a power of two >= ns */
	u32 stamp_now;
	u32 *l;			/* first section of each buffer */
	u32 *r;			/* one past its last section */
	u32 *stamp;
	u64 *off;
	u8 *placed;
	u32 *base;		/* 2m + 1 node slot starts */
	u32 *fill;		/* 2m stored counts */
	u32 *sub;		/* 2m placed counts in subtree */
	u32 *slot;
	struct ta_fit_gap *nb;	/* neighbours of one query */
	struct ta_fit_gap *tmp;
};

static int ta_fit_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static u32 ta_fit_find(const u32 *t, u32 n, u32 v)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (t[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Visit the canonical cover of [l, r): call with @count set to count slots
 * per node, or clear to store buffer @b. Iterative over the leaf range.
 */
static void ta_fit_cover(struct ta_fit *f, u32 b, bool count)
{
	u32 lo = f->l[b] + f->m, hi = f->r[b] + f->m;

	while (lo < hi) {
		if (lo & 1) {
			if (count)
				f->fill[lo]++;
			else
				f->slot[f->base[lo] + f->fill[lo]++] = b;
			lo++;
		}
		if (hi & 1) {
			hi--;
			if (count)
				f->fill[hi]++;
			else
				f->slot[f->base[hi] + f->fill[hi]++] = b;
		}
		lo >>= 1;
		hi >>= 1;
	}
}

void ta_fit_destroy(struct ta_fit *f)
{
	if (!f)
		return;
	ta_env_free(f->l);
	ta_env_free(f->r);
	ta_env_free(f->stamp);
	ta_env_free(f->off);
	ta_env_free(f->placed);
	ta_env_free(f->base);
	ta_env_free(f->fill);
	ta_env_free(f->sub);
	ta_env_free(f->slot);
	ta_env_free(f->nb);
	ta_env_free(f->tmp);
	ta_env_free(f);
}

struct ta_fit *ta_fit_create(const struct ta_problem *p)
{
	struct ta_fit *f;
	u32 n = p->n_buffers, i, t, nt = 0;
	u32 *times;
	u64 total;

	f = ta_env_alloc_array(1, sizeof(*f));
	if (!f)
		return NULL;
	f->p = p;
	f->n = n;
	times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*times));
	f->l = ta_env_alloc_array(n + 1, sizeof(*f->l));
	f->r = ta_env_alloc_array(n + 1, sizeof(*f->r));
	f->stamp = ta_env_alloc_array(n + 1, sizeof(*f->stamp));
	f->off = ta_env_alloc_array(n + 1, sizeof(*f->off));
	f->placed = ta_env_alloc_array(n + 1, sizeof(*f->placed));
	f->nb = ta_env_alloc_array(n + 1, sizeof(*f->nb));
	f->tmp = ta_env_alloc_array(n + 1, sizeof(*f->tmp));
	if (!times || !f->l || !f->r || !f->stamp || !f->off || !f->placed ||
	    !f->nb || !f->tmp)
		goto fail;
	for (i = 0; i < n; i++) {
		times[nt++] = p->buffers[i].start;
		times[nt++] = p->buffers[i].end;
	}
	ta_env_sort(times, nt, sizeof(*times), ta_fit_cmp_u32);
	t = 0;
	for (i = 0; i < nt; i++)
		if (!t || times[t - 1] != times[i])
			times[t++] = times[i];
	f->ns = t ? t - 1 : 0;
	for (i = 0; i < n; i++) {
		f->l[i] = ta_fit_find(times, t, p->buffers[i].start);
		f->r[i] = ta_fit_find(times, t, p->buffers[i].end);
	}
	ta_env_free(times);
	times = NULL;
	f->m = 1;
	while (f->m < f->ns)
		f->m <<= 1;
	f->base = ta_env_alloc_array(2 * (size_t)f->m + 1, sizeof(*f->base));
	f->fill = ta_env_alloc_array(2 * (size_t)f->m, sizeof(*f->fill));
	f->sub = ta_env_alloc_array(2 * (size_t)f->m, sizeof(*f->sub));
	if (!f->base || !f->fill || !f->sub)
		goto fail;
	for (i = 0; i < n; i++)
		if (p->buffers[i].size)
			ta_fit_cover(f, i, true);
	total = 0;
	for (i = 0; i < 2 * f->m; i++) {
		f->base[i] = (u32)total;
		total += f->fill[i];
		f->fill[i] = 0;
	}
	if (total >= U32_MAX)
		goto fail;
	f->base[2 * f->m] = (u32)total;
	f->slot = ta_env_alloc_array(total + 1, sizeof(*f->slot));
	if (!f->slot)
		goto fail;
	return f;
fail:
	ta_env_free(times);
	ta_fit_destroy(f);
	return NULL;
}

void ta_fit_reset(struct ta_fit *f)
{
	u32 i;

	for (i = 0; i < 2 * f->m; i++) {
		f->fill[i] = 0;
		f->sub[i] = 0;
	}
	for (i = 0; i < f->n; i++)
		f->placed[i] = 0;
}

void ta_fit_place(struct ta_fit *f, u32 b, u64 off)
{
	u32 lo, hi;

	f->off[b] = off;
	f->placed[b] = 1;
	if (!f->p->buffers[b].size)
		return;
	ta_fit_cover(f, b, false);
	/* count b in every cover node and its ancestors */
	lo = f->l[b] + f->m;
	hi = f->r[b] + f->m;
	while (lo < hi) {
		u32 k;

		if (lo & 1)
			for (k = lo++; k; k >>= 1)
				f->sub[k]++;
		if (hi & 1)
			for (k = --hi; k; k >>= 1)
				f->sub[k]++;
		lo >>= 1;
		hi >>= 1;
	}
}

void ta_fit_unplace_last(struct ta_fit *f, u32 b)
{
	u32 lo, hi;

	f->placed[b] = 0;
	if (!f->p->buffers[b].size)
		return;
	lo = f->l[b] + f->m;
	hi = f->r[b] + f->m;
	while (lo < hi) {
		u32 k;

		if (lo & 1) {
			f->fill[lo]--;
			for (k = lo++; k; k >>= 1)
				f->sub[k]--;
		}
		if (hi & 1) {
			f->fill[--hi]--;
			for (k = hi; k; k >>= 1)
				f->sub[k]--;
		}
		lo >>= 1;
		hi >>= 1;
	}
}

/* Sort @n gaps by lo (bottom-up merge sort, stable). */
static struct ta_fit_gap *ta_fit_sort(struct ta_fit_gap *a,
				      struct ta_fit_gap *t, u32 n)
{
	u32 w, i;

	for (i = 1; i < n; i++) {
		struct ta_fit_gap v = a[i];
		u32 j = i;

		if (i & 7 && a[i - 1].lo > v.lo) {
			while (j > (i & ~7U) && a[j - 1].lo > v.lo) {
				a[j] = a[j - 1];
				j--;
			}
			a[j] = v;
		}
	}
	for (w = 8; w < n; w <<= 1) {
		struct ta_fit_gap *x;

		for (i = 0; i < n; i += 2 * w) {
			u32 mid = i + w < n ? i + w : n;
			u32 end = i + 2 * w < n ? i + 2 * w : n;
			u32 p = i, q = mid, o = i;

			while (p < mid && q < end)
				t[o++] = a[q].lo < a[p].lo ? a[q++] : a[p++];
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

/* Collect the placed buffers overlapping @b into f->nb; return the count. */
static u32 ta_fit_neighbours(struct ta_fit *f, u32 b)
{
	u32 stack[2 * 34];
	u32 sp = 0, k = 0, ql = f->l[b], qr = f->r[b];

	if (!++f->stamp_now) {
		u32 i;

		for (i = 0; i < f->n; i++)
			f->stamp[i] = 0;
		f->stamp_now = 1;
	}
	stack[sp++] = 1;
	while (sp) {
		u32 node = stack[--sp], lvl, nl, nr, i;

		if (!f->sub[node])
			continue;
		/* node covers leaves [nl, nr) */
		lvl = 31 - __builtin_clz(node);
		nl = (node - (1U << lvl)) * (f->m >> lvl);
		nr = nl + (f->m >> lvl);
		if (nr <= ql || nl >= qr)
			continue;
		for (i = f->base[node]; i < f->base[node] + f->fill[node]; i++) {
			u32 o = f->slot[i];

			if (f->stamp[o] == f->stamp_now)
				continue;
			f->stamp[o] = f->stamp_now;
			f->nb[k].lo = f->off[o];
			f->nb[k].hi = f->off[o] + f->p->buffers[o].size;
			k++;
		}
		if (node < f->m) {
			stack[sp++] = 2 * node + 1;
			stack[sp++] = 2 * node;
		}
	}
	return k;
}

int ta_fit_lowest(struct ta_fit *f, u32 b, u32 mode, u64 *off)
{
	const struct ta_buffer *buf = &f->p->buffers[b];
	u64 size = buf->size, mask = buf->align - 1, y = 0;
	u64 best = U64_MAX, best_gap = U64_MAX;
	struct ta_fit_gap *g;
	u32 k, i;

	if (!size) {
		*off = 0;
		return 0;
	}
	k = ta_fit_neighbours(f, b);
	g = ta_fit_sort(f->nb, f->tmp, k);
	for (i = 0; i <= k; i++) {
		u64 lim = i < k ? g[i].lo : U64_MAX;
		u64 o = (y + mask) & ~mask;

		if (o < y)
			return -EOVERFLOW;
		if (lim > o && lim - o >= size) {
			u64 gap = lim - y;

			if (mode == TA_FIT_FIRST || i == k) {
				if (best == U64_MAX)
					best = o;
				break;
			}
			if (gap < best_gap) {
				best_gap = gap;
				best = o;
			}
		}
		if (i < k && g[i].hi > y)
			y = g[i].hi;
	}
	if (best == U64_MAX || best >= TA_SEARCH_MAX_HEIGHT ||
	    size > TA_SEARCH_MAX_HEIGHT - best)
		return -EOVERFLOW;
	*off = best;
	return 0;
}

int ta_fit_run(struct ta_fit *f, const u32 *order, u32 mode, u64 stop_above,
	       u64 *offsets, u64 *height, struct ta_search_limits *lim)
{
	u64 h = 0;
	u32 i;
	int ret;

	ta_fit_reset(f);
	for (i = 0; i < f->n; i++) {
		u32 b = order[i];
		u64 o;

		if (!(i & (TA_FIT_CHECK_EVERY - 1)) && i) {
			ret = ta_search_limit_hit(lim);
			if (ret < 0)
				return ret;
			if (ret)
				return -EAGAIN;
		}
		ret = ta_fit_lowest(f, b, mode, &o);
		if (ret)
			return ret;
		ta_fit_place(f, b, o);
		offsets[b] = o;
		if (f->p->buffers[b].size && o + f->p->buffers[b].size > h) {
			h = o + f->p->buffers[b].size;
			if (h > stop_above)
				return -EAGAIN;
		}
	}
	lim->steps += f->n;
	*height = h;
	return 0;
}
