// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tile.c - the search for a perfect tiling: on a packing with no slack
 * (the same live bytes at every moment, ta_contract_is_flat()), a plan at
 * the lower bound covers the time x bytes rectangle exactly, and this
 * depth-first search with restarts looks for one.
 *
 * The plan is built bottom-up on a skyline (as in ta_climb.c): the lowest
 * section (the leftmost among equals) at height h, and the run of
 * sections at h to its right, is the gap to fill. In a perfect tiling the
 * buffer over the gap's bottom-left corner starts at the gap's section
 * (the section to its left is full up to above h) and ends within the run
 * (the section after it is full above h too), so trying every such buffer
 * there is complete, and a gap no buffer fits is a dead end: there is no
 * lift, since a lift would waste bytes the packing does not have.
 *
 * Walls prune further: where the skyline steps down from left to right
 * at a boundary (below the bound), an unplaced buffer must start there
 * that fits the step's foot (it ends before the skyline rises above the
 * foot, and fits under the bound); where it steps up, one must end there
 * that fits the foot on the left. And a well (a run with higher sections
 * on both sides) must be filled up to its lower side by buffers that lie
 * within it: their area must be enough. After each placement the two
 * boundaries of the buffer placed (the only walls it changes) are checked.
 *
 * Candidates go in the order of ta_climb.c's greedy rule (ends flush with
 * the run, top flush with a neighbour, longest, largest), at most
 * %TA_TILE_CANDIDATES of them, one of every identical kind. A wrong
 * choice near the root is rarely undone by backtracking in time, so the
 * search restarts, with node budgets in the Luby sequence (1, 1, 2, 1, 1,
 * 2, 4, ... times %TA_TILE_FIRST_NODES a buffer) and the order of up to
 * %TA_TILE_NOISE percent of the nodes shuffled: heavy-tailed runs are cut
 * short. It pays on small problems, such as the merged problems of
 * ta_contract.c (a cut of 2,000 buffers merged to 31 is tiled at once);
 * on 400 buffers or more it rarely finds a tiling within a second.
 *
 * Memory: O(n + sections), taken up front; time per node O(candidates +
 * span * log sections + the run of a wall or well checked).
 */
#include "ta_tile.h"
#include "ta_plan_helpers.h"
#include "ta_search.h"
#include "ta_skyline.h"

/* candidates a node tries at most (the best by the rule) */
#define TA_TILE_CANDIDATES	8
/* the first restart's nodes, per buffer */
#define TA_TILE_FIRST_NODES	4
/* percent of nodes shuffled in a restart, at most */
#define TA_TILE_NOISE		16

/* One level of the search: the gap, its candidates, the one placed. */
struct ta_tile_frame {
	u32 s, j;		/* the gap: the run [s, j) */
	u64 h;			/* at this height */
	u32 cand;		/* its candidates in the pool from here */
	u32 n_cand, next;	/* how many, the next to try */
	u32 placed;		/* the buffer placed (U32_MAX: none yet) */
};

/* The state of the search. */
struct ta_tile {
	const struct ta_problem *p;
	u64 bound;
	struct ta_skyline sky;	/* the sections, their lists and tops */
	u32 *efirst;		/* per boundary: its buffers in @elist */
	u32 *elist;		/* buffers by end boundary */
	u8 *placed;		/* per buffer */
	u32 *n_start, *n_end;	/* per boundary: unplaced starting, ending */
	struct ta_tile_frame *frame;	/* n + 1 */
	u32 *pool;		/* candidates, TA_TILE_CANDIDATES a frame */
	u64 *key;		/* their scores while sorting */
	u64 rng;
	u32 noise;		/* percent of nodes with a shuffled order */
	u64 units;
	u64 bytes;
};

static void ta_tile_set(struct ta_tile *t, u32 s, u64 v)
{
	ta_skyline_set(&t->sky, s, v);
	t->units += 4;
}

/* The top at section @s, the bound outside the sections (a full wall). */
static u64 ta_tile_top(const struct ta_tile *t, u32 s)
{
	return s < t->sky.n_sections ? t->sky.top[s] : t->bound;
}

/*
 * Whether the wall at boundary @k (between sections k - 1 and k) can
 * still be closed: a step down needs an unplaced buffer starting at @k,
 * a step up one ending there.
 */
static bool ta_tile_wall_ok(struct ta_tile *t, u32 k)
{
	u64 l = k ? t->sky.top[k - 1] : t->bound, r = ta_tile_top(t, k);
	u32 i, lim;

	if (l > r) {
		/* the foot at @r right of @k: a buffer from @k up to a wall */
		if (!t->n_start[k])
			return false;
		for (lim = k; lim < t->sky.n_sections && t->sky.top[lim] <= r; lim++)
			;
		t->units += lim - k;
		for (i = t->sky.first[k]; i < t->sky.first[k + 1]; i++) {
			u32 c = t->sky.by_start[i];
			const struct ta_buffer *buf = &t->p->buffers[c];

			if (!t->placed[c] && t->sky.be[c] <= lim &&
			    r + buf->size <= t->bound && !(r & (buf->align - 1)))
				return true;
		}
		return false;
	}
	if (l < r) {
		/* the foot at @l left of @k: a buffer back to a wall, to @k */
		if (!t->n_end[k])
			return false;
		for (lim = k; lim && t->sky.top[lim - 1] <= l; lim--)
			;
		t->units += k - lim;
		for (i = t->efirst[k]; i < t->efirst[k + 1]; i++) {
			u32 c = t->elist[i];
			const struct ta_buffer *buf = &t->p->buffers[c];

			if (!t->placed[c] && t->sky.bs[c] >= lim &&
			    l + buf->size <= t->bound && !(l & (buf->align - 1)))
				return true;
		}
		return false;
	}
	return true;
}

/*
 * Whether the well around section @k can still be filled: a run of
 * sections at one top with higher neighbours on both sides must be filled
 * up to the lower neighbour by buffers that lie within the run (any other
 * would cut into a wall), so their area must be at least the well's.
 */
static bool ta_tile_well_ok(struct ta_tile *t, u32 k)
{
	u64 x, l, r, need, area = 0;
	u32 a = k, b = k + 1, i;

	if (k >= t->sky.n_sections)
		return true;
	x = t->sky.top[k];
	if (x >= t->bound)
		return true;
	while (a && t->sky.top[a - 1] == x)
		a--;
	while (b < t->sky.n_sections && t->sky.top[b] == x)
		b++;
	t->units += b - a;
	l = a ? t->sky.top[a - 1] : t->bound;
	r = ta_tile_top(t, b);
	if (l < x || r < x)
		return true;
	need = ((l < r ? l : r) - x) * (u64)(t->sky.time[b] - t->sky.time[a]);
	for (i = t->sky.first[a]; i < t->sky.first[b]; i++) {
		u32 c = t->sky.by_start[i];
		const struct ta_buffer *buf = &t->p->buffers[c];

		if (t->placed[c] || t->sky.be[c] > b)
			continue;
		area += buf->size * (u64)(buf->end - buf->start);
		if (area >= need)
			break;
	}
	t->units += i - t->sky.first[a];
	return area >= need;
}

static void ta_tile_raise(struct ta_tile *t, u32 b, u64 v)
{
	u32 k;

	for (k = t->sky.bs[b]; k < t->sky.be[b]; k++)
		ta_tile_set(t, k, v);
}

static void ta_tile_place(struct ta_tile *t, u32 b, u64 h)
{
	ta_tile_raise(t, b, h + t->p->buffers[b].size);
	t->placed[b] = 1;
	t->n_start[t->sky.bs[b]]--;
	t->n_end[t->sky.be[b]]--;
}

static void ta_tile_unplace(struct ta_tile *t, u32 b, u64 h)
{
	ta_tile_raise(t, b, h);
	t->placed[b] = 0;
	t->n_start[t->sky.bs[b]]++;
	t->n_end[t->sky.be[b]]++;
}

/* Whether buffers @a and @b are interchangeable. */
static bool ta_tile_same(const struct ta_tile *t, u32 a, u32 b)
{
	const struct ta_buffer *x = &t->p->buffers[a], *y = &t->p->buffers[b];

	return x->size == y->size && x->align == y->align &&
	       x->start == y->start && x->end == y->end;
}

/*
 * Enter frame @f: find the gap and its candidates, best first.
 * Return: false when every section is full (a tiling).
 */
static bool ta_tile_enter(struct ta_tile *t, struct ta_tile_frame *f)
{
	u32 k, i, n = 0, *c = &t->pool[f->cand];
	u64 *key = t->key, left, right;

	f->s = ta_skyline_lowest(&t->sky);
	f->h = t->sky.top[f->s];
	f->next = 0;
	f->n_cand = 0;
	f->placed = U32_MAX;
	if (f->h >= t->bound)
		return false;
	for (k = f->s + 1; k < t->sky.n_sections && t->sky.top[k] == f->h; k++)
		;
	f->j = k;
	t->units += k - f->s;
	left = f->s ? t->sky.top[f->s - 1] : t->bound;
	right = ta_tile_top(t, f->j);
	for (k = t->sky.first[f->s]; k < t->sky.first[f->s + 1]; k++) {
		u32 b = t->sky.by_start[k];
		const struct ta_buffer *buf = &t->p->buffers[b];
		u64 top = f->h + buf->size, sc = 0;

		if (t->placed[b] || t->sky.be[b] > f->j || top > t->bound ||
		    (f->h & (buf->align - 1)))
			continue;
		for (i = 0; i < n; i++)
			if (ta_tile_same(t, c[i], b))
				break;
		if (i < n)
			continue;
		if (t->sky.be[b] == f->j)
			sc |= BIT_ULL(63);
		if (top == left || (t->sky.be[b] == f->j && top == right))
			sc |= BIT_ULL(62);
		sc |= (u64)(t->sky.be[b] & 0xffffff) << 38;
		sc |= buf->size >= BIT_ULL(38) ? BIT_ULL(38) - 1 : buf->size;
		if (t->noise && (u32)ta_xorshift64(&t->rng) % 100 < t->noise)
			sc = ta_xorshift64(&t->rng) >> 1;
		/* keep the best few, sorted by score */
		if (n == TA_TILE_CANDIDATES && sc <= key[n - 1])
			continue;
		i = n < TA_TILE_CANDIDATES ? n++ : n - 1;
		for (; i && key[i - 1] < sc; i--) {
			c[i] = c[i - 1];
			key[i] = key[i - 1];
		}
		c[i] = b;
		key[i] = sc;
	}
	t->units += t->sky.first[f->s + 1] - t->sky.first[f->s];
	f->n_cand = n;
	return true;
}

/*
 * One run of the search from the empty skyline, @max_nodes nodes at most.
 * Return: 0 a tiling (in @offsets), 1 not found within the nodes, 2 the
 * whole tree searched (the candidates cut, so not a proof), or as
 * ta_work_limit_hit().
 */
static int ta_tile_run(struct ta_tile *t, u64 max_nodes, u64 *offsets,
		       struct ta_work *lim)
{
	u32 d = 0, i;
	u64 nodes = 0;
	int ret;

	for (i = 0; i < t->sky.n_sections; i++)
		ta_tile_set(t, i, 0);
	for (i = 0; i <= t->sky.n_sections; i++) {
		t->n_start[i] = 0;
		t->n_end[i] = 0;
	}
	for (i = 0; i < t->p->n_buffers; i++) {
		t->placed[i] = t->p->buffers[i].size ? 0 : 1;
		if (t->placed[i])
			continue;
		t->n_start[t->sky.bs[i]]++;
		t->n_end[t->sky.be[i]]++;
	}
	t->frame[0].cand = 0;
	if (!ta_tile_enter(t, &t->frame[0]))
		return t->sky.n_items ? 2 : 0;
	for (;;) {
		struct ta_tile_frame *f = &t->frame[d];
		u32 b;

		if (f->placed != U32_MAX) {
			ta_tile_unplace(t, f->placed, f->h);
			f->placed = U32_MAX;
		}
		if (f->next == f->n_cand) {
			if (!d)
				return 2;
			d--;
			continue;
		}
		b = t->pool[f->cand + f->next++];
		ta_tile_place(t, b, f->h);
		f->placed = b;
		lim->steps++;
		if (++nodes > max_nodes)
			return 1;
		if (t->units >= TA_WORK_CHUNK || !(nodes & 255)) {
			ret = ta_work_add(lim, t->units);
			t->units = 0;
			if (ret == -EINTR)
				return ret;
			ret = ta_work_limit_hit(lim);
			if (ret)
				return ret;
		}
		if (!ta_tile_wall_ok(t, t->sky.bs[b]) ||
		    !ta_tile_wall_ok(t, t->sky.be[b]) ||
		    !ta_tile_well_ok(t, t->sky.bs[b]) ||
		    !ta_tile_well_ok(t, t->sky.be[b]))
			continue;
		t->frame[d + 1].cand = f->cand + f->n_cand;
		if (ta_tile_enter(t, &t->frame[d + 1]))
			d++;
		else if (d + 1 == t->sky.n_items)
			goto found;	/* full, every buffer placed */
	}
found:
	for (i = 0; i <= d; i++) {
		const struct ta_tile_frame *f = &t->frame[i];

		if (f->placed != U32_MAX)
			offsets[f->placed] = f->h;
	}
	for (i = 0; i < t->p->n_buffers; i++)
		if (!t->p->buffers[i].size)
			offsets[i] = 0;
	return 0;
}

/* The Luby sequence: 1 1 2 1 1 2 4 1 1 2 ..., for restart @i >= 1. */
static u64 ta_tile_luby(u32 i)
{
	u32 k = 1;

	for (;;) {
		while (((u64)1 << k) - 1 < i)
			k++;
		if (((u64)1 << k) - 1 == i)
			return (u64)1 << (k - 1);
		i -= ((u32)1 << (k - 1)) - 1;
		k = 1;
	}
}

static void ta_tile_free(struct ta_tile *t)
{
	ta_skyline_free(&t->sky);
	ta_env_free(t->efirst);
	ta_env_free(t->elist);
	ta_env_free(t->placed);
	ta_env_free(t->n_start);
	ta_env_free(t->n_end);
	ta_env_free(t->frame);
	ta_env_free(t->pool);
	ta_env_free(t->key);
}

/* The skyline, the lists by end boundary and the search's frames. */
static int ta_tile_init(struct ta_tile *t, const struct ta_problem *p)
{
	u32 n = p->n_buffers, ns, items, i;
	int ret;

	ret = ta_skyline_init(&t->sky, p);
	if (ret)
		return ret;
	ns = t->sky.n_sections;
	items = t->sky.n_items;
	t->efirst = ta_env_alloc_array(ns + 2, sizeof(*t->efirst));
	t->elist = ta_env_alloc_array(n + 1, sizeof(*t->elist));
	t->placed = ta_env_alloc_array(n + 1, sizeof(*t->placed));
	t->n_start = ta_env_alloc_array(ns + 1, sizeof(*t->n_start));
	t->n_end = ta_env_alloc_array(ns + 1, sizeof(*t->n_end));
	t->frame = ta_env_alloc_array(items + 1, sizeof(*t->frame));
	t->pool = ta_env_alloc_array((items + 1) * (size_t)TA_TILE_CANDIDATES,
				     sizeof(*t->pool));
	t->key = ta_env_alloc_array(TA_TILE_CANDIDATES, sizeof(*t->key));
	t->bytes = t->sky.bytes + (u64)(n + 1) * (sizeof(u32) + 1) +
		   (u64)(ns + 2) * 3 * sizeof(u32) +
		   (u64)(items + 1) * (sizeof(*t->frame) +
				       TA_TILE_CANDIDATES * sizeof(u32));
	if (!t->efirst || !t->elist || !t->placed || !t->n_start ||
	    !t->n_end || !t->frame || !t->pool || !t->key)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (p->buffers[i].size)
			t->efirst[t->sky.be[i] + 1]++;
	for (i = 0; i <= ns; i++)
		t->efirst[i + 1] += t->efirst[i];
	/* n_end as a fill count for now; buffers in index order */
	for (i = 0; i < n; i++)
		if (p->buffers[i].size)
			t->elist[t->efirst[t->sky.be[i]] +
				 t->n_end[t->sky.be[i]]++] = i;
	return 0;
}

int ta_tile(const struct ta_problem *p, u64 lower_bound, struct ta_work *lim,
	    u64 *offsets, u64 *height)
{
	struct ta_tile t = { .p = p, .bound = lower_bound,
			     .rng = 0x2545f4914f6cdd1dULL };
	u64 nodes;
	u32 r;
	int ret;

	if (p->n_buffers > TA_SEARCH_MAX_BUFFERS)
		return -E2BIG;
	ret = ta_tile_init(&t, p);
	if (ret)
		goto out;
	ret = 1;
	if (!t.sky.n_sections || *height <= lower_bound)
		goto out;
	for (r = 0;; r++) {
		nodes = (TA_TILE_FIRST_NODES * (u64)t.sky.n_items + 64) *
			ta_tile_luby(r + 1);
		t.noise = r ? 1 + (u32)ta_xorshift64(&t.rng) % TA_TILE_NOISE : 0;
		ret = ta_tile_run(&t, nodes, offsets, lim);
		if (ret <= 0 || (ret == 1 && lim->timed_out))
			break;
	}
	if (!ret)
		*height = lower_bound;
	else if (ret > 0)
		ret = 1;
out:
	if (lim->bytes < t.bytes)
		lim->bytes = t.bytes;
	if (t.units)
		ta_work_add(lim, t.units);
	ta_tile_free(&t);
	return ret;
}
