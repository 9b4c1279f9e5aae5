// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_runs.c - the fit engine's run index: which address ranges do placed
 * buffers occupy during [s, e)?
 *
 * Greedy placement asks, for each new buffer, for the union of the address
 * spans of the already placed buffers whose lifetimes overlap its own. The
 * union has far fewer runs than there are such buffers (on real traces 35
 * times fewer), so this structure keeps runs, not buffers:
 *
 * - Time is cut at the distinct start steps: two lifetimes overlap iff one
 *   contains the other's start, so a buffer covers the leaves (start steps)
 *   in [s, e) and two buffers overlap iff they share a leaf.
 * - A segment tree over the leaves. A placed buffer is stored at the
 *   canonical nodes of its leaf range: own(v) is the union of the spans
 *   stored at v, sub(v) the union of those stored anywhere under v. Both
 *   are sorted lists of disjoint runs (touching spans merge).
 * - A query's answer is the union of sub(c) over its canonical nodes c and
 *   own(a) over their proper ancestors a: a buffer overlapping [s, e)
 *   shares a leaf with it, so its node and some c are on one root path.
 *   The lists are merged pairwise, shortest first, coalescing as they go
 *   (the runs of the longer list that meet none of the shorter's are
 *   copied in stretches); from %TA_RUNS_SWEEP_LISTS lists on (long
 *   lifetimes: on Y_1, 42 lists of 666 runs into a union of 30) by
 *   sweeping: an output run grows by passes over the lists, each taking
 *   its runs that start inside it; each run is read once, and an output
 *   run costs a pass or two over the L lists, O(R + U L) for R runs into
 *   a union of U. Either way the lists of one run are united first.
 * - sub(v) lies within its parent's: an insert going up the sub lists
 *   stops at the first that held the span already.
 * - Nodes near the leaves (small subtrees) keep no sub list: a query walks
 *   their subtree's own lists instead. That saves most of the memory.
 *   Nor does a node that is no canonical node of any of the buffers: no
 *   query reads its sub list (marked once, when the structure is made).
 * - The union of own() along the root path of a node at depth <= 10 is
 *   cached, made when asked for from its grandparent's entry and its own
 *   and its parent's lists (entries every other level take less of the
 *   pool, which fills up).
 *   A query's ancestors down to that depth lie on the root paths of two
 *   nodes (its left and right edges), so their two entries stand for all
 *   of them. An insert stamps the nodes whose own list it changed; an
 *   entry older than a stamp on its path is stale. The entries share a
 *   pool of n + 1 spans, the second half of the fit engine's sort scratch
 *   (which only its other index uses, and a query whose merges need it:
 *   both drop the cache); when it is full they all start over.
 *
 * Lists live in one pool allocated up front; a list that outgrows its block
 * moves to a bigger one (about 1.4 times), and when the pool is full it is
 * compacted in place. When even that fails, or a query would need more
 * scratch than there is, the caller falls back to enumerating buffers
 * (see ta_fit.c); answers are the same either way.
 */
#include "ta_plan_helpers.h"
#include "ta_runs.h"

#define TA_RUNS_SMALL		4	/* subtrees this many levels deep */
#define TA_RUNS_POOL_PER_BUF	9	/* pool spans per buffer */
#define TA_RUNS_CACHE_DEPTH	10	/* cache unions down to this depth */
#define TA_RUNS_INVALID		U32_MAX
#define TA_RUNS_FREE		U64_MAX	/* a free block's tag */
#define TA_RUNS_SWEEP_LISTS	16	/* lists from which to union in passes */

#ifdef TA_PLAN_DEBUG
/* Tests shrink the pool to exercise compaction and the fallback. */
u32 ta_runs_debug_pool;
/* Unions made by sweeping, so that tests can see they ran. */
u64 ta_runs_debug_sweep_unions;
/* Cache pools that filled up and started over. */
u64 ta_runs_debug_cache_full;
/* Blocks a growing list took from a free list, free blocks compacted. */
u64 ta_runs_debug_block_reused;
u64 ta_runs_debug_free_compacted;
/* Pools that ran out, leaving the engine to its other index. */
u64 ta_runs_debug_pool_out;
#endif

/* Capacity of block class @k: 2, 3, 4, 6, 8, 12, ... */
static u32 ta_runs_cap(u32 k)
{
	return (2U + (k & 1)) << (k >> 1);
}

static u32 ta_runs_class(u32 need)
{
	u32 k = 0;

	while (ta_runs_cap(k) < need)
		k++;
	return k;
}

static u32 ta_runs_depth(u32 v)
{
	return 31U - (u32)__builtin_clz(v);
}

static bool ta_runs_small(const struct ta_runs *r, u32 v)
{
	return ta_runs_depth(v) + TA_RUNS_SMALL >= r->leaf_depth;
}

/* Forget every cached union (the pool is reused from its start). */
static void ta_runs_cache_clear(struct ta_runs *r)
{
	u32 i;

	for (i = 0; i < 2U << r->cdepth; i++) {
		r->cnum[i] = TA_RUNS_INVALID;
		r->cmod[i] = 0;
	}
	r->cbump = 0;
	r->tick = 0;
}

/*
 * Mark the nodes whose sub list some query will read: the canonical nodes
 * (above the small subtrees) of every buffer's leaves. Only the engine's
 * buffers are ever asked for, so the other sub lists need not be kept.
 * The buffers in start order: a start's leaf follows the one before, an
 * end's is found by galloping from its start's. Each buffer's leaves are
 * kept for its query and its insert.
 */
static void ta_runs_mark_asked(struct ta_runs *r, const struct ta_buffer *b,
			       const u32 *by_start, u32 n)
{
	u32 i, first = 0, lo, hi, up, step;

	for (i = 0; i < r->nlists - r->sub_base; i++)
		r->asked[i] = 0;
	for (i = 0; i < n; i++) {
		const struct ta_buffer *x = &b[by_start[i]];

		while (r->pts[first] < x->start)
			first++;
		/* the first leaf at or after the end: in (lo, up] */
		lo = first;
		step = 1;
		up = first + 1;
		while (up < r->m && r->pts[up] < x->end) {
			lo = up;
			step <<= 1;
			up = first + step;
		}
		if (up > r->m)
			up = r->m;
		while (lo + 1 < up) {
			u32 mid = lo + ((up - lo) >> 1);

			if (r->pts[mid] < x->end)
				lo = mid;
			else
				up = mid;
		}
		lo = first + r->m;
		hi = up + r->m;
		r->leaves[2 * i] = lo;
		r->leaves[2 * i + 1] = hi;
		for (; lo < hi; lo >>= 1, hi >>= 1) {
			if (lo & 1) {
				if (!ta_runs_small(r, lo))
					r->asked[lo] = 1;
				lo++;
			}
			if (hi & 1) {
				--hi;
				if (!ta_runs_small(r, hi))
					r->asked[hi] = 1;
			}
		}
	}
}

/**
 * ta_runs_init() - set up the structure for a set of buffers
 * @r: the structure
 * @b: the buffers (their starts define the leaves)
 * @by_start: their indices by start (ta_fit_order_by_start())
 * @n: how many, at least 1
 * @sa: scratch, 2 * @scap spans: the first half for the merges, the
 *	second the pool of the cached unions; a query whose merges need more
 *	drops the cache and takes it all. The caller's scratch for the other
 *	index, which it may overwrite only after a query failed (then
 *	ta_runs_cache_drop())
 * @scap: half of @sa
 *
 * Return: 0 or -ENOMEM.
 */
int ta_runs_init(struct ta_runs *r, const struct ta_buffer *b,
		 const u32 *by_start, u32 n, struct ta_span *sa, u32 scap)
{
	u32 i, m = 0;

	r->pts = ta_env_alloc_array(n, sizeof(*r->pts));
	r->leaves = NULL;
	r->seen = NULL;
	r->pool = NULL;
	r->l = NULL;
	r->lcls = NULL;
	r->asked = NULL;
	r->cpool = NULL;
	r->coff = NULL;
	r->cnum = NULL;
	r->cstamp = NULL;
	r->cmod = NULL;
	r->work = 0;
	r->ok = false;
	r->nodes_ok = false;
	if (!r->pts)
		return -ENOMEM;
	/* the distinct starts, in order */
	for (i = 0; i < n; i++)
		if (!m || r->pts[m - 1] != b[by_start[i]].start)
			r->pts[m++] = b[by_start[i]].start;
	r->m = m;
	r->n = n;
	r->leaf_depth = ta_runs_depth(2 * m - 1);
	/* own lists 1 .. 2m - 1, then sub lists of the nodes above the small */
	r->sub_base = 2 * m;
	r->nlists = 2 * m;
	if (r->leaf_depth > TA_RUNS_SMALL)
		r->nlists += 1U << (r->leaf_depth - TA_RUNS_SMALL);
	r->pool_cap = TA_RUNS_POOL_PER_BUF * n + 64;
#ifdef TA_PLAN_DEBUG
	if (ta_runs_debug_pool)
		r->pool_cap = ta_runs_debug_pool;
#endif
	r->bump = 0;
	for (i = 0; i < TA_RUNS_CLASSES; i++)
		r->freel[i] = 0;
	r->sa = sa;
	r->scap = scap;
	r->slim = scap;
	r->sbase = 0;
	r->pool = ta_env_alloc_array(r->pool_cap, sizeof(*r->pool));
	r->l = ta_env_alloc_array(r->nlists, sizeof(*r->l));
	r->lcls = ta_env_alloc_array(r->nlists, sizeof(*r->lcls));
	r->seen = ta_env_alloc_array(2 * (size_t)m, sizeof(*r->seen));
	r->asked = ta_env_alloc_array(r->nlists - r->sub_base + 1,
				      sizeof(*r->asked));
	r->leaves = ta_env_alloc_array(2 * (size_t)n, sizeof(*r->leaves));
	if (!r->pool || !r->l || !r->lcls || !r->seen ||
	    !r->asked || !r->leaves) {
		ta_runs_free(r);
		return -ENOMEM;
	}
	ta_runs_mark_asked(r, b, by_start, n);
	r->cdepth = 0;
	if (r->leaf_depth > TA_RUNS_SMALL + 2) {
		u32 nc;

		r->cdepth = r->leaf_depth - TA_RUNS_SMALL - 1;
		if (r->cdepth > TA_RUNS_CACHE_DEPTH)
			r->cdepth = TA_RUNS_CACHE_DEPTH;
		/* an entry per node down to the cache depth, by node number */
		nc = 2U << r->cdepth;
		r->ccap = scap;
		r->cbump = 0;
		r->cpool = sa + scap;
		r->coff = ta_env_alloc_array(nc, sizeof(*r->coff));
		r->cnum = ta_env_alloc_array(nc, sizeof(*r->cnum));
		r->cstamp = ta_env_alloc_array(nc, sizeof(*r->cstamp));
		r->cmod = ta_env_alloc_array(nc, sizeof(*r->cmod));
		if (!r->coff || !r->cnum || !r->cstamp || !r->cmod) {
			ta_runs_free(r);
			return -ENOMEM;
		}
		ta_runs_cache_clear(r);
	}
	for (i = 0; i < 2 * m; i++)
		r->seen[i] = 0;
	r->stamp = 0;
	r->ok = true;
	return 0;
}

/**
 * ta_runs_free() - free what ta_runs_init() allocated
 * @r: the structure
 */
void ta_runs_free(struct ta_runs *r)
{
	ta_env_free(r->cmod);
	ta_env_free(r->cstamp);
	ta_env_free(r->cnum);
	ta_env_free(r->coff);
	r->cmod = NULL;
	r->cstamp = NULL;
	r->cnum = NULL;
	r->coff = NULL;
	r->cpool = NULL;
	ta_env_free(r->seen);
	ta_env_free(r->leaves);
	r->leaves = NULL;
	ta_env_free(r->asked);
	r->asked = NULL;
	ta_env_free(r->lcls);
	ta_env_free(r->l);
	ta_env_free(r->pool);
	ta_env_free(r->pts);
	r->seen = NULL;
	r->lcls = NULL;
	r->l = NULL;
	r->pool = NULL;
	r->pts = NULL;
	r->ok = false;
}

/**
 * ta_runs_reset() - forget every placed buffer, keep the memory
 * @r: the structure, set up by ta_runs_init()
 */
void ta_runs_reset(struct ta_runs *r)
{
	u32 i;

	for (i = 0; i < r->nlists; i++) {
		r->l[i].off = 0;
		r->l[i].num = 0;
		r->lcls[i] = 0;
	}
	r->bump = 0;
	for (i = 0; i < TA_RUNS_CLASSES; i++)
		r->freel[i] = 0;
	if (r->cdepth)
		ta_runs_cache_clear(r);
	r->work = 0;
	r->ok = true;
}

/**
 * ta_runs_cache_drop() - forget the cached unions: their pool was overwritten
 * @r: the structure
 */
void ta_runs_cache_drop(struct ta_runs *r)
{
	if (r->cdepth)
		ta_runs_cache_clear(r);
}

/**
 * ta_runs_bytes() - memory ta_runs_init() took
 * @r: the structure
 *
 * Return: bytes.
 */
size_t ta_runs_bytes(const struct ta_runs *r)
{
	size_t bytes = (size_t)r->m * sizeof(*r->pts) +
		       (size_t)r->pool_cap * sizeof(*r->pool) +
		       (size_t)r->nlists * (2 * sizeof(u32) + 1) +
		       2 * (size_t)r->m * sizeof(*r->seen) +
		       2 * (size_t)r->n * sizeof(*r->leaves) +
		       (size_t)(r->nlists - r->sub_base + 1) *
		       sizeof(*r->asked);

	if (r->cdepth)
		bytes += 8 * sizeof(u32) << r->cdepth;
	return bytes;
}

/*
 * Slide the live blocks down over the dead ones, each shrunk to the
 * smallest class that holds its runs. A block is a header span (lo: list,
 * hi: capacity) followed by its capacity in spans; it is live when its list
 * still points at it.
 */
static void ta_runs_compact(struct ta_runs *r)
{
	u32 pos = 0, dst = 0, j;

	r->work += r->bump;
	/* the free blocks are dead like the others, and move */
	for (j = 0; j < TA_RUNS_CLASSES; j++)
		r->freel[j] = 0;
	while (pos < r->bump) {
		u64 tag = r->pool[pos].lo;
		u32 l = (u32)tag;
		u32 cap = (u32)r->pool[pos].hi;
		u32 n, k;

		if (tag == TA_RUNS_FREE || r->l[l].off != pos + 1) {
#ifdef TA_PLAN_DEBUG
			ta_runs_debug_free_compacted += tag == TA_RUNS_FREE;
#endif
			pos += 1 + cap;
			continue;
		}
		n = r->l[l].num;
		if (!n) {
			r->l[l].off = 0;
			pos += 1 + cap;
			continue;
		}
		k = ta_runs_class(n);
		r->pool[dst].lo = l;
		r->pool[dst].hi = ta_runs_cap(k);
		for (j = 0; j < n; j++)
			r->pool[dst + 1 + j] = r->pool[pos + 1 + j];
		r->l[l].off = dst + 1;
		r->lcls[l] = k;
		dst += 1 + ta_runs_cap(k);
		pos += 1 + cap;
	}
	r->bump = dst;
}

/*
 * Give list @l room for @need runs: a free block of the class it needs (one
 * a list left when it grew), else the pool's end. The block it leaves is
 * free for the next list that grows into its class.
 */
static int ta_runs_grow(struct ta_runs *r, u32 l, u32 need)
{
	u32 k = r->l[l].off ? r->lcls[l] + 1U : 0, cap, off, hdr, j;

	while (ta_runs_cap(k) < need)
		k++;
	cap = ta_runs_cap(k);
	if (k < TA_RUNS_CLASSES && r->freel[k]) {
		hdr = r->freel[k] - 1;
		r->freel[k] = (u32)r->pool[hdr + 1].lo;
#ifdef TA_PLAN_DEBUG
		ta_runs_debug_block_reused++;
#endif
	} else {
		if ((u64)r->bump + 1 + cap > r->pool_cap) {
			ta_runs_compact(r);
			if ((u64)r->bump + 1 + cap > r->pool_cap)
				return -ENOSPC;
		}
		hdr = r->bump;
		r->bump += 1 + cap;
	}
	off = hdr + 1;
	r->work += r->l[l].num;
	r->pool[hdr].lo = l;
	r->pool[hdr].hi = cap;
	for (j = 0; j < r->l[l].num; j++)
		r->pool[off + j] = r->pool[r->l[l].off + j];
	if (r->l[l].off && r->lcls[l] < TA_RUNS_CLASSES) {
		/* its old block: tagged free, linked through its first span */
		hdr = r->l[l].off - 1;
		r->pool[hdr].lo = TA_RUNS_FREE;
		r->pool[hdr + 1].lo = r->freel[r->lcls[l]];
		r->freel[r->lcls[l]] = hdr + 1;
	}
	r->l[l].off = off;
	r->lcls[l] = k;
	return 0;
}

/*
 * The first of the @n runs of @s from @a on that ends at @x or after, or
 * @a + @n: the range halved without a branch on the runs (whose order
 * against @x the data decides).
 */
static u32 ta_runs_first_ending_at(const struct ta_span *s, u32 a, u32 n,
				   u64 x)
{
	for (; n > 1; n -= n >> 1)
		a = s[a + (n >> 1) - 1].hi < x ? a + (n >> 1) : a;
	if (n && s[a].hi < x)
		a++;
	return a;
}

/*
 * Add [lo, hi) to list @l, merging with the runs it overlaps or touches.
 * Returns 0, 1 when a run of the list held it already (nothing changed),
 * or -ENOSPC.
 */
static int ta_runs_add(struct ta_runs *r, u32 l, u64 lo, u64 hi)
{
	u32 n = r->l[l].num, i = 0, j, k;
	struct ta_span *s;

	if (r->l[l].off) {
		s = r->pool + r->l[l].off;
		i = ta_runs_first_ending_at(s, 0, n, lo);
	}
	j = i;
	r->work += 8 + n - i;	/* the search, then a merge or a shift */
	if (r->l[l].off) {
		s = r->pool + r->l[l].off;
		for (; j < n && s[j].lo <= hi; j++) {
			if (s[j].lo < lo)
				lo = s[j].lo;
			if (s[j].hi > hi)
				hi = s[j].hi;
		}
	}
	if (j == i) {
		if (!r->l[l].off || n + 1 > ta_runs_cap(r->lcls[l])) {
			int ret = ta_runs_grow(r, l, n + 1);

			if (ret)
				return ret;
		}
		s = r->pool + r->l[l].off;
		for (k = n; k > i; k--)
			s[k] = s[k - 1];
		r->l[l].num = n + 1;
	} else if (j > i + 1) {
		for (k = 0; j + k < n; k++)
			s[i + 1 + k] = s[j + k];
		r->l[l].num = n - (j - i - 1);
	} else if (s[i].lo == lo && s[i].hi == hi) {
		return 1;	/* inside a run already */
	}
	s[i].lo = lo;
	s[i].hi = hi;
	return 0;
}

/*
 * Canonical nodes of the leaves of the buffer at @i in start order into
 * r->canon; proper ancestors into r->anc (each once: r->seen[v] ==
 * r->stamp marks the ones taken in this call, so a root path shared by
 * several canonical nodes is walked once). Kept for the next call: a
 * query and the insert after it ask for the same buffer.
 */
static void ta_runs_nodes(struct ta_runs *r, u32 i)
{
	u32 lo, hi, q, v;

	/* a buffer is asked for, then inserted: the same nodes */
	if (r->nodes_ok && i == r->nodes_i)
		return;
	r->nodes_i = i;
	r->nodes_ok = true;
	lo = r->leaves[2 * i];
	hi = r->leaves[2 * i + 1];
	if (!++r->stamp) {
		/* wrapped after 2^32 calls: forget the old marks */
		for (v = 0; v < 2 * r->m; v++)
			r->seen[v] = 0;
		r->stamp = 1;
	}
	r->n_canon = 0;
	r->n_anc = 0;
	for (; lo < hi; lo >>= 1, hi >>= 1) {
		if (lo & 1)
			r->canon[r->n_canon++] = lo++;
		if (hi & 1)
			r->canon[r->n_canon++] = --hi;
	}
	for (q = 0; q < r->n_canon; q++) {
		for (v = r->canon[q] >> 1; v; v >>= 1) {
			if (r->seen[v] == r->stamp)
				break;	/* seen: so is everything above */
			r->seen[v] = r->stamp;
			r->anc[r->n_anc++] = v;
		}
		r->anc_end[q] = r->n_anc;
	}
}

/**
 * ta_runs_insert() - record a placed buffer
 * @r: the structure
 * @i: its position in the start order ta_runs_init() was given
 * @lo: first byte
 * @hi: end byte (@lo < @hi)
 *
 * Return: 0, or -ENOSPC when the pool is full (the structure is then off
 * for good: r->ok is false).
 */
int ta_runs_insert(struct ta_runs *r, u32 i, u64 lo, u64 hi)
{
	u32 q, k = 0, sub = r->sub_base;
	int ret = 0;

	ta_runs_nodes(r, i);
	if (r->cdepth && !++r->tick)
		ta_runs_cache_clear(r);	/* wrapped: forget every entry */
	for (q = 0; q < r->n_canon && ret >= 0; q++) {
		u32 c = r->canon[q], d = ta_runs_depth(c);
		bool held = false;

		/* own(c) changes: the entries under c are stale from now */
		if (r->cdepth && d <= r->cdepth)
			r->cmod[c] = r->tick;
		ret = ta_runs_add(r, c, lo, hi);
		if (ret >= 0 && !ta_runs_small(r, c) && r->asked[c]) {
			ret = ta_runs_add(r, sub + c, lo, hi);
			held = ret == 1;
		}
		/*
		 * Then c's ancestors that no canonical node before it had,
		 * upwards. sub(v) is within its parent's: once one of them
		 * held the span already, so do all above it.
		 */
		for (; k < r->anc_end[q] && ret >= 0 && !held; k++) {
			if (ta_runs_small(r, r->anc[k]) || !r->asked[r->anc[k]])
				continue;
			ret = ta_runs_add(r, sub + r->anc[k], lo, hi);
			held = ret == 1;
		}
		k = r->anc_end[q];
	}
	if (ret >= 0)
		return 0;
#ifdef TA_PLAN_DEBUG
	ta_runs_debug_pool_out++;
#endif
	r->ok = false;
	return ret;
}

/*
 * The first run of @a from @i on (a[i].hi <= @hi) that ends after @hi, or
 * @na: a gallop, then a binary search.
 */
static u32 ta_runs_gallop_hi(const struct ta_span *a, u32 i, u32 na, u64 hi)
{
	u32 lo = i + 1, up = i + 1;

	while (up < na && a[up].hi <= hi) {
		lo = up + 1;
		up = i + 2 * (up - i);
	}
	if (up > na)
		up = na;
	/* in [lo, up]; hi + 1 cannot wrap: heights stay below 2^63 */
	return ta_runs_first_ending_at(a, lo, up - lo, hi + 1);
}

/*
 * Union of two sorted lists of runs into @o; returns its length. The runs
 * of the longer list that meet no run of the shorter one are copied in
 * stretches, their ends found by galloping, and only the others are
 * compared: a query's lists are mostly one long one (a cached union, a
 * high node's sub list) and a few short ones.
 */
static u32 ta_runs_merge(const struct ta_span *a, u32 na,
			 const struct ta_span *b, u32 nb, struct ta_span *o)
{
	u32 i = 0, j, k = 0;

	if (na < nb) {
		const struct ta_span *t = a;

		a = b;
		b = t;
		j = na;
		na = nb;
		nb = j;
	}
	for (j = 0; j < nb; j++) {
		struct ta_span cur = b[j];
		u32 lo;

		if (k && cur.lo <= o[k - 1].hi) {
			/* it meets the run just written: reopen that */
			k--;
			if (o[k].lo < cur.lo)
				cur.lo = o[k].lo;
			if (o[k].hi > cur.hi)
				cur.hi = o[k].hi;
		} else if (i < na && a[i].hi < cur.lo) {
			/*
			 * the first run of a from i on that ends at cur or
			 * after (cur.lo > a[i].hi, so cur.lo - 1 is defined)
			 */
			lo = i + 1;
			if (lo < na && a[lo].hi < cur.lo)
				lo = ta_runs_gallop_hi(a, lo, na, cur.lo - 1);
			/* a[i, lo) end before cur and after what is written */
			if (lo - i == 1)
				o[k] = a[i];
			else
				memcpy(o + k, a + i, (lo - i) * sizeof(*o));
			k += lo - i;
			i = lo;
		}
		if (i < na && a[i].lo <= cur.hi) {
			if (a[i].lo < cur.lo)
				cur.lo = a[i].lo;
			/* the runs of a inside cur: skipped by galloping */
			if (a[i].hi <= cur.hi) {
				i++;
				if (i < na && a[i].hi <= cur.hi)
					i = ta_runs_gallop_hi(a, i, na,
							      cur.hi);
			}
			/* one more may reach past cur; the next starts after it */
			if (i < na && a[i].lo <= cur.hi) {
				cur.hi = a[i].hi;
				i++;
			}
		}
		o[k++] = cur;
	}
	memcpy(o + k, a + i, (na - i) * sizeof(*o));
	return k + na - i;
}

static bool ta_runs_take(struct ta_runs *r, u32 l, u64 *total)
{
	u32 n = r->l[l].num;	/* a list with runs has a block */

	if (!n)
		return true;
	if (n == 1 && r->n_single < TA_RUNS_SINGLES) {
		/* a list of one run: read with the others once all are asked */
		r->sp[r->n_single++] = r->pool + r->l[l].off;
		ta_prefetch(r->sp[r->n_single - 1]);
		*total += 1;
		return true;
	}
	/* room for the singles' list */
	if (r->n_lists == TA_RUNS_MAX_LISTS - 1)
		return false;
	r->lp[r->n_lists] = r->pool + r->l[l].off;
	/* its first runs, for the merges after the gathering */
	ta_prefetch(r->lp[r->n_lists]);
	r->ln[r->n_lists++] = n;
	*total += n;
	return true;
}

/*
 * Gather the lists a query needs, leaving out the ancestors at depth <=
 * @skip (the cached union stands for them); false when there are too many.
 */
static bool ta_runs_gather(struct ta_runs *r, u64 *total, u32 skip)
{
	u32 q, sub = r->sub_base;

	for (q = 0; q < r->n_canon; q++) {
		u32 c = r->canon[q], lo, hi, v;

		if (!ta_runs_small(r, c)) {
			if (!ta_runs_take(r, sub + c, total))
				return false;
			continue;
		}
		/* its subtree's own lists, mostly empty */
		for (lo = c, hi = c + 1; lo < 2 * r->m; lo <<= 1, hi <<= 1)
			for (v = lo; v < hi && v < 2 * r->m; v++)
				if (r->l[v].num && !ta_runs_take(r, v, total))
					return false;
	}
	for (q = 0; q < r->n_anc; q++) {
		if (skip && ta_runs_depth(r->anc[q]) <= skip)
			continue;
		if (!ta_runs_take(r, r->anc[q], total))
			return false;
	}
	return true;
}

/*
 * The lists of one run (a long query's leaves' own lists, most of them),
 * gathered apart by ta_runs_take(), sorted: coalesced into one list, so
 * that the passes do not visit each (and before pairwise merges, so that
 * each does not cost a merge). Their runs were asked from the memory
 * when they were gathered: read now, they are there.
 */
static void ta_runs_unite_singles(struct ta_runs *r)
{
	struct ta_span *f = r->single;
	u32 m = r->n_single, q, j;

	if (!m)
		return;
	/* sorted by insertion */
	for (q = 0; q < m; q++) {
		struct ta_span v = *r->sp[q];

		for (j = q; j && f[j - 1].lo > v.lo; j--)
			f[j] = f[j - 1];
		f[j] = v;
	}
	for (q = 1, j = 1; q < m; q++) {
		if (f[q].lo <= f[j - 1].hi) {
			if (f[q].hi > f[j - 1].hi)
				f[j - 1].hi = f[q].hi;
		} else {
			f[j++] = f[q];
		}
	}
	r->lp[r->n_lists] = f;
	r->ln[r->n_lists++] = j;
	r->n_single = 0;
}

/*
 * Union of the gathered lists in passes, for queries with many lists
 * (long lifetimes: their runs mostly fall inside runs of other lists, and
 * the union has few runs). An output run [clo, chi) is grown by passes
 * over the lists, each list taking every run that starts at or before chi;
 * a pass also finds the least start left, and the run is done when that
 * lies past chi (which is then the next run's start). A list is read once;
 * a run of the output costs a pass or two over the lists left.
 */
static s64 ta_runs_union_sweep(struct ta_runs *r, const struct ta_span **out,
			       u64 *work)
{
	struct ta_span *o = r->sa + r->sbase;
	u64 *head = r->head, clo = U64_MAX, chi;
	u32 n = r->n_lists, k = 0, q;
	u64 passes = 0;

	/* the lo of each list's next run, side by side for the passes */
	for (q = 0; q < n; q++) {
		head[q] = r->lp[q]->lo;
		if (head[q] < clo)
			clo = head[q];
	}
	chi = clo;
	while (n) {
		u64 next = U64_MAX;

		passes += n;
		for (q = 0; q < n; q++) {
			const struct ta_span *sp;
			u32 c;

			if (head[q] > chi) {
				next = head[q] < next ? head[q] : next;
				continue;
			}
			sp = r->lp[q];
			c = r->ln[q];
			do {
				if (sp->hi > chi)
					chi = sp->hi;
				sp++;
			} while (--c && sp->lo <= chi);
			if (!c) {
				n--;
				r->lp[q] = r->lp[n];
				r->ln[q] = r->ln[n];
				head[q] = head[n];
				q--;
				continue;
			}
			r->lp[q] = sp;
			r->ln[q] = c;
			head[q] = sp->lo;
			next = sp->lo < next ? sp->lo : next;
		}
		if (next > chi) {
			o[k++] = (struct ta_span){ clo, chi };
			clo = next;
			chi = next;
		}
	}
#ifdef TA_PLAN_DEBUG
	ta_runs_debug_sweep_unions++;
#endif
	*work += passes + k;
	r->n_lists = 1;
	*out = o;
	return k;
}

/*
 * Merge the gathered lists into one, always the two shortest first (so the
 * long lists are read as few times as possible); the results are laid out
 * one after the other in the scratch. Returns the length, or -ENOSPC when
 * the scratch is too small.
 */
static s64 ta_runs_merge_all(struct ta_runs *r, const struct ta_span **out,
			     u64 *work)
{
	struct ta_span *dst = r->sa + r->sbase;
	u32 q, j, w = 0, n = r->n_lists + r->n_single;

	/* the lists of one run first (many of them: sweep the lists) */
	ta_runs_unite_singles(r);
	if (!n) {
		*out = dst;
		return 0;
	}
	if (n >= TA_RUNS_SWEEP_LISTS)
		return ta_runs_union_sweep(r, out, work);
	n = r->n_lists;
	/* sort the lists by length, longest first (insertion: few lists) */
	for (q = 1; q < n; q++) {
		const struct ta_span *p = r->lp[q];
		u32 len = r->ln[q];

		for (j = q; j && r->ln[j - 1] < len; j--) {
			r->lp[j] = r->lp[j - 1];
			r->ln[j] = r->ln[j - 1];
		}
		r->lp[j] = p;
		r->ln[j] = len;
	}
	while (n > 1) {
		const struct ta_span *p;
		u32 got;

		if ((u64)w + r->ln[n - 1] + r->ln[n - 2] > r->slim)
			return -ENOSPC;
		got = ta_runs_merge(r->lp[n - 1], r->ln[n - 1], r->lp[n - 2],
				    r->ln[n - 2], dst + w);
		*work += got;
		p = dst + w;
		w += got;
		n -= 2;
		for (j = n; j && r->ln[j - 1] < got; j--) {
			r->lp[j] = r->lp[j - 1];
			r->ln[j] = r->ln[j - 1];
		}
		r->lp[j] = p;
		r->ln[j] = got;
		n++;
	}
	r->n_lists = 1;
	*out = r->lp[0];
	return r->ln[0];
}

/*
 * Whether node @v's cached union is there and no own list on its root
 * path changed since it was made.
 */
static bool ta_runs_cache_valid(const struct ta_runs *r, u32 v)
{
	u32 a;

	if (r->cnum[v] == TA_RUNS_INVALID)
		return false;
	for (a = v; a; a >>= 1)
		if (r->cmod[a] > r->cstamp[v])
			return false;
	return true;
}

/*
 * Cache the union of own() along the root path of @v (depth <= the cache
 * depth): the union of its grandparent's entry, made first if need be,
 * own(@v) and own() of its parent. False when an entry does not fit the
 * scratch or the pool.
 */
static bool ta_runs_cache_make(struct ta_runs *r, u32 v, u64 *work)
{
	u32 path[TA_RUNS_CACHE_DEPTH + 1], np = 0, a, j, k;
	struct ta_span *dst;

	/* entries every other level: each from its grandparent's */
	for (a = v; a && !ta_runs_cache_valid(r, a); a >>= 2) {
		path[np++] = a;
		/* its own lists, read below: seldom in the cache */
		ta_prefetch(r->pool + r->l[a].off);
		ta_prefetch(r->pool + r->l[a >> 1].off);
	}
	while (np--) {
		const struct ta_span *up = NULL, *own, *o2 = NULL;
		u32 nup = 0, nown, n2 = 0;

		a = path[np];
		if (a > 3) {
			up = r->cpool + r->coff[a >> 2];
			nup = r->cnum[a >> 2];
		}
		own = r->pool + r->l[a].off;
		nown = r->l[a].num;
		if (a > 1 && r->l[a >> 1].num) {
			o2 = r->pool + r->l[a >> 1].off;
			n2 = r->l[a >> 1].num;
		}
		if (2 * ((u64)nup + nown + n2) > r->scap ||
		    nup + nown + n2 > r->ccap)
			return false;
		/* the two own lists into the scratch's start */
		if (nown && n2) {
			nown = ta_runs_merge(own, nown, o2, n2, r->sa);
			own = r->sa;
		} else if (n2) {
			own = o2;
			nown = n2;
		}
		/* into the pool's free end, or the scratch when it is full */
		dst = r->cbump + nup + nown <= r->ccap ?
		      r->cpool + r->cbump : r->sa + nown;
		if (nup && nown)
			k = ta_runs_merge(up, nup, own, nown, dst);
		else
			for (k = 0, j = 0; j < nup + nown; j++, k++)
				dst[k] = nup ? up[j] : own[j];
		*work += nup + nown + n2;
		if (dst == r->sa + nown) {
			/* full: forget every entry, this one starts over */
			ta_runs_cache_clear(r);
#ifdef TA_PLAN_DEBUG
			ta_runs_debug_cache_full++;
#endif
			for (j = 0; j < k; j++)
				r->cpool[j] = dst[j];
		}
		r->coff[a] = r->cbump;
		r->cnum[a] = k;
		r->cstamp[a] = r->tick;
		r->cbump += k;
	}
	return true;
}

/*
 * The cached unions that stand for every ancestor at depth <= the cache
 * depth of the canonical nodes: the ancestors lie on two root paths (left
 * and right of the query), so the deepest node of each, at most two,
 * into r->lp. Returns how many, or -1 when they cannot be had.
 */
static int ta_runs_cache_lists(struct ta_runs *r, u64 *total, u64 *work)
{
	u32 keep[2], nk = 0, q, j;

	for (q = 0; q < r->n_canon; q++) {
		u32 c = r->canon[q], d = ta_runs_depth(c), a, da;
		bool covered = false;

		if (!d)
			continue;	/* the root: no ancestors */
		a = d > r->cdepth ? c >> (d - r->cdepth) : c >> 1;
		da = ta_runs_depth(a);
		for (j = 0; j < nk && !covered; j++) {
			u32 dk = ta_runs_depth(keep[j]);

			if (dk >= da && keep[j] >> (dk - da) == a) {
				covered = true;	/* a on keep[j]'s path */
			} else if (da > dk && a >> (da - dk) == keep[j]) {
				keep[j] = a;	/* keep[j] on a's path */
				covered = true;
			}
		}
		if (covered)
			continue;
		if (nk == 2)
			return -1;
		keep[nk++] = a;
	}
	for (j = 0; j < nk; j++)
		if (!ta_runs_cache_make(r, keep[j], work))
			return -1;
	/* making the second may have cleared the pool under the first */
	for (j = 0; j < nk; j++) {
		if (!ta_runs_cache_valid(r, keep[j]))
			return -1;
		if (!r->cnum[keep[j]])
			continue;
		r->lp[r->n_lists] = r->cpool + r->coff[keep[j]];
		r->ln[r->n_lists++] = r->cnum[keep[j]];
		*total += r->cnum[keep[j]];
	}
	return nk;
}

/**
 * ta_runs_query() - the runs placed buffers occupy during a buffer's life
 * @r: the structure
 * @i: the buffer's position in the start order ta_runs_init() was given
 * @out: out, the runs, sorted and disjoint (valid until the next call)
 * @work: in/out, work done, for yielding
 *
 * Return: the number of runs, or -ENOSPC when the answer needs more
 * scratch than there is (ask the slow way).
 */
s64 ta_runs_query(struct ta_runs *r, u32 i, const struct ta_span **out,
		  u64 *work)
{
	u32 skip = 0;
	u64 total = 0;
	s64 got;

	ta_runs_nodes(r, i);
	r->n_lists = 0;
	r->n_single = 0;
	/* without a cache its pool is scratch too */
	r->slim = r->cdepth ? r->scap : 2 * r->scap;
	if (r->cdepth) {
		if (ta_runs_cache_lists(r, &total, work) >= 0) {
			skip = r->cdepth;
		} else {
			r->n_lists = 0;
			total = 0;
		}
	}
	if (ta_runs_gather(r, &total, skip) && total <= r->slim) {
		*work += total + r->n_lists + r->n_single;
		got = ta_runs_merge_all(r, out, work);
		if (got != -ENOSPC || !r->cdepth)
			return got;
	} else if (!r->cdepth) {
		return -ENOSPC;
	}
	/*
	 * Short of scratch: the cached unions move to its start, and the
	 * cache's pool, its second half, joins it.
	 */
	r->n_lists = 0;
	r->n_single = 0;
	total = 0;
	skip = 0;
	if (ta_runs_cache_lists(r, &total, work) >= 0 && total <= r->scap) {
		u32 j, k;

		for (j = 0; j < r->n_lists; j++) {
			for (k = 0; k < r->ln[j]; k++)
				r->sa[r->sbase + k] = r->lp[j][k];
			r->lp[j] = r->sa + r->sbase;
			r->sbase += r->ln[j];
		}
		skip = r->cdepth;
	} else {
		r->n_lists = 0;
		total = 0;
	}
	ta_runs_cache_clear(r);
	r->slim = 2 * r->scap - r->sbase;
	if (!ta_runs_gather(r, &total, skip) || total > r->slim) {
		r->sbase = 0;
		return -ENOSPC;
	}
	*work += total + r->n_lists + r->n_single;
	got = ta_runs_merge_all(r, out, work);
	r->sbase = 0;
	return got;
}
