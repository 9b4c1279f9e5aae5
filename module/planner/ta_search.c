// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search.c - branch and bound over canonical placements ("skyline
 * search"), used by the `auto` strategy to close the gap between a
 * heuristic plan and the lower bound.
 *
 * Time is cut into sections at every buffer start and end. A plan is
 * canonical when every buffer rests on the floor or on top of a buffer that
 * overlaps it in time; some canonical plan is optimal. The search builds
 * canonical plans bottom-up: at the lowest level x of the skyline it takes
 * the leftmost open section a and branches on which unplaced buffer starting
 * at a goes at x (its sections must all be open at x), or on closing a: no
 * buffer will rest at x there. A run of closed sections, once walled in,
 * rises to the lower of its neighbours (a buffer covering it must also cover
 * a neighbour, so it cannot sit lower); sections no unplaced buffer covers
 * are walls. Each canonical plan is reached once.
 *
 * Pruning (section inference): in every section the unplaced buffers live
 * there must fit between its floor and the cap (best height so far minus
 * one granule), so floor + unplaced bytes <= cap. Placing a buffer keeps
 * that sum, so it is only checked when a closed run rises. Identical
 * buffers are placed in a fixed order only.
 *
 * The search restarts with a doubling node limit and rotates through
 * several candidate orders (largest first, longest first, largest area
 * first, most crowded first), keeping the best plan across runs; a run that
 * finishes under its limit has proven the best plan optimal.
 *
 * Memory: about 60 bytes per buffer plus 16 bytes per section and one
 * 48-byte frame per possible depth (n + 4 * sections + 64), all taken up
 * front; limited to %TA_SEARCH_MAX_BUFFERS buffers.
 */
#include "ta_search.h"

#define TA_SKY_HEURISTICS	4
#define TA_SKY_CHECK_EVERY	4096

struct ta_sky_item {
	u64 key;
	u64 size;
	u64 align;
	u32 si;
	u32 ei;
	u32 idx;
};

struct ta_sky_frame {
	u64 x;		/* level of this node */
	u32 a;		/* section decided at */
	u32 r;		/* first section past a not open at x */
	u32 p;		/* start of the pending closed run, or NONE */
	u32 k;		/* next candidate position */
	u32 cur;	/* buffer placed by the current choice, or NONE */
	u32 rlo;	/* closed run raised by the current choice */
	u32 rhi;
	u32 closed;	/* the close choice was taken */
};

struct ta_sky {
	u32 n;			/* buffers of positive size */
	u32 ns;			/* sections */
	u32 max_depth;
	bool recheck;
	bool overflowed;
	u64 cap;		/* plans must stay at or below */
	u64 best;
	u64 g;			/* granule */
	u64 lbg;		/* lower bound rounded up to the granule */
	u32 *bid;		/* search buffer -> problem buffer */
	u32 *si;
	u32 *ei;
	u64 *size;
	u64 *align;
	u64 *off;
	u8 *placed;
	u32 *cand;		/* bucketed by start section */
	u32 *head;		/* ns + 1 bucket starts */
	u64 *floor;
	u64 *rem;
	u64 *rem0;
	struct ta_sky_item *items;
	struct ta_sky_frame *fr;
};

u64 ta_search_granule(const struct ta_problem *p)
{
	u64 acc = 0;
	u32 i;

	for (i = 0; i < p->n_buffers; i++)
		acc |= p->buffers[i].size;
	if (!acc)
		return 1ULL << 63;
	return acc & (~acc + 1);
}

int ta_search_limit_hit(struct ta_search_limits *lim)
{
	if (ta_env_yield())
		return -EINTR;
	if (lim->max_steps && lim->steps >= lim->max_steps)
		lim->timed_out = true;
	else if (lim->deadline_ns && ta_env_now_ns() >= lim->deadline_ns)
		lim->timed_out = true;
	return lim->timed_out ? 1 : 0;
}

static int ta_sky_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int ta_sky_cmp_item(const void *a, const void *b)
{
	const struct ta_sky_item *x = a, *y = b;

	if (x->si != y->si)
		return x->si < y->si ? -1 : 1;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->ei != y->ei)
		return x->ei > y->ei ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static u32 ta_sky_find(const u32 *t, u32 n, u32 v)
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

static void ta_sky_free(struct ta_sky *s)
{
	ta_env_free(s->bid);
	ta_env_free(s->si);
	ta_env_free(s->ei);
	ta_env_free(s->size);
	ta_env_free(s->align);
	ta_env_free(s->off);
	ta_env_free(s->placed);
	ta_env_free(s->cand);
	ta_env_free(s->head);
	ta_env_free(s->floor);
	ta_env_free(s->rem);
	ta_env_free(s->rem0);
	ta_env_free(s->items);
	ta_env_free(s->fr);
}

static int ta_sky_init(struct ta_sky *s, const struct ta_problem *p)
{
	u32 n = 0, i, t, nt;
	u32 *times;

	for (i = 0; i < p->n_buffers; i++)
		n += p->buffers[i].size != 0;
	s->n = n;
	times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*times));
	s->bid = ta_env_alloc_array(n + 1, sizeof(*s->bid));
	s->si = ta_env_alloc_array(n + 1, sizeof(*s->si));
	s->ei = ta_env_alloc_array(n + 1, sizeof(*s->ei));
	s->size = ta_env_alloc_array(n + 1, sizeof(*s->size));
	s->align = ta_env_alloc_array(n + 1, sizeof(*s->align));
	s->off = ta_env_alloc_array(n + 1, sizeof(*s->off));
	s->placed = ta_env_alloc_array(n + 1, sizeof(*s->placed));
	s->cand = ta_env_alloc_array(n + 1, sizeof(*s->cand));
	s->items = ta_env_alloc_array(n + 1, sizeof(*s->items));
	if (!times || !s->bid || !s->si || !s->ei || !s->size || !s->align ||
	    !s->off || !s->placed || !s->cand || !s->items) {
		ta_env_free(times);
		return -ENOMEM;
	}
	nt = 0;
	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		if (!b->size)
			continue;
		s->bid[nt >> 1] = i;
		times[nt++] = b->start;
		times[nt++] = b->end;
	}
	ta_env_sort(times, nt, sizeof(*times), ta_sky_cmp_u32);
	t = 0;
	for (i = 0; i < nt; i++)
		if (!t || times[t - 1] != times[i])
			times[t++] = times[i];
	s->ns = t ? t - 1 : 0;
	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[s->bid[i]];

		s->si[i] = ta_sky_find(times, t, b->start);
		s->ei[i] = ta_sky_find(times, t, b->end);
		s->size[i] = b->size;
		s->align[i] = b->align ? b->align : 1;
	}
	ta_env_free(times);
	s->head = ta_env_alloc_array(s->ns + 2, sizeof(*s->head));
	s->floor = ta_env_alloc_array(s->ns + 1, sizeof(*s->floor));
	s->rem = ta_env_alloc_array(s->ns + 1, sizeof(*s->rem));
	s->rem0 = ta_env_alloc_array(s->ns + 1, sizeof(*s->rem0));
	s->max_depth = n + 4 * s->ns + 64;
	s->fr = ta_env_alloc_array(s->max_depth, sizeof(*s->fr));
	if (!s->head || !s->floor || !s->rem || !s->rem0 || !s->fr)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (t = s->si[i]; t < s->ei[i]; t++)
			s->rem0[t] += s->size[i];
	return 0;
}

/* Order the candidates of every start section by heuristic @h. */
static void ta_sky_order(struct ta_sky *s, const struct ta_problem *p, u32 h)
{
	u32 i, t;

	for (i = 0; i < s->n; i++) {
		const struct ta_buffer *b = &p->buffers[s->bid[i]];
		struct ta_sky_item *it = &s->items[i];
		u64 len = b->end - b->start, key;

		switch (h) {
		case 0:
			key = s->size[i];
			break;
		case 1:
			key = ((u64)s->ei[i] << 32) | (u32)(s->ei[i] - s->si[i]);
			break;
		case 2:
			if (__builtin_mul_overflow(s->size[i], len, &key))
				key = U64_MAX;
			break;
		default:
			key = 0;
			for (t = s->si[i]; t < s->ei[i]; t++)
				if (s->rem0[t] > key)
					key = s->rem0[t];
			break;
		}
		it->key = key;
		it->size = s->size[i];
		it->align = s->align[i];
		it->si = s->si[i];
		it->ei = s->ei[i];
		it->idx = i;
	}
	ta_env_sort(s->items, s->n, sizeof(*s->items), ta_sky_cmp_item);
	for (t = 0; t <= s->ns + 1; t++)
		s->head[t] = s->n;
	for (i = s->n; i-- > 0;) {
		s->cand[i] = s->items[i].idx;
		s->head[s->items[i].si] = i;
	}
	for (t = s->ns + 1; t-- > 0;)
		if (s->head[t] > s->head[t + 1])
			s->head[t] = s->head[t + 1];
}

/* Set up frame @f for the node at level @x, scanning from @scan. */
static bool ta_sky_enter(struct ta_sky *s, struct ta_sky_frame *f, u64 x,
			 u32 scan, u32 p)
{
	u32 a = scan, r;

	while (a < s->ns && !(s->rem[a] && s->floor[a] == x))
		a++;
	if (a >= s->ns) {
		u64 m = U64_MAX;

		for (a = 0; a < s->ns; a++)
			if (s->rem[a] && s->floor[a] < m)
				m = s->floor[a];
		if (m == U64_MAX)
			return false;
		x = m;
		a = 0;
		while (!(s->rem[a] && s->floor[a] == x))
			a++;
		p = TA_SEARCH_NONE;
	}
	r = a + 1;
	while (r < s->ns && s->floor[r] == x)
		r++;
	f->x = x;
	f->a = a;
	f->r = r;
	f->p = p;
	f->k = s->head[a];
	f->cur = TA_SEARCH_NONE;
	f->rlo = 0;
	f->rhi = 0;
	f->closed = 0;
	return true;
}

static void ta_sky_undo(struct ta_sky *s, struct ta_sky_frame *f)
{
	u32 t;

	if (f->cur != TA_SEARCH_NONE) {
		u32 u = f->cur;

		for (t = s->si[u]; t < s->ei[u]; t++) {
			s->floor[t] = f->x;
			s->rem[t] += s->size[u];
		}
		s->placed[u] = 0;
		f->cur = TA_SEARCH_NONE;
	}
	for (t = f->rlo; t < f->rhi; t++)
		s->floor[t] = f->x;
	f->rlo = 0;
	f->rhi = 0;
}

/* Raise the walled-in closed run [lo, hi) from its level to its neighbours. */
static bool ta_sky_raise(struct ta_sky *s, struct ta_sky_frame *f, u32 lo,
			 u32 hi)
{
	u64 y = U64_MAX;
	u32 t;

	if (lo > 0 && s->rem[lo - 1])
		y = s->floor[lo - 1];
	if (hi < s->ns && s->rem[hi] && s->floor[hi] < y)
		y = s->floor[hi];
	if (y == U64_MAX || y > s->cap)
		return false;
	for (t = lo; t < hi; t++)
		if (s->rem[t] > s->cap - y)
			return false;
	for (t = lo; t < hi; t++)
		s->floor[t] = y;
	f->rlo = lo;
	f->rhi = hi;
	return true;
}

/* Does the current state still fit under the cap? */
static bool ta_sky_fits(struct ta_sky *s)
{
	u32 t;

	for (t = 0; t < s->ns; t++)
		if (s->rem[t] && (s->floor[t] > s->cap ||
				  s->rem[t] > s->cap - s->floor[t]))
			return false;
	return true;
}

static void ta_sky_solution(struct ta_sky *s, u64 *offsets)
{
	u64 h = 0;
	u32 i;

	for (i = 0; i < s->n; i++)
		if (s->off[i] + s->size[i] > h)
			h = s->off[i] + s->size[i];
	if (h >= s->best)
		return;
	for (i = 0; i < s->n; i++)
		offsets[s->bid[i]] = s->off[i];
	s->best = h;
	s->cap = h >= s->g ? h - s->g : 0;
	s->recheck = true;
}

/* Try to place candidate @u at frame @f; false when it may not go there. */
static bool ta_sky_try(struct ta_sky *s, struct ta_sky_frame *f, u32 u)
{
	u64 o, sz = s->size[u];
	u32 t;

	if (s->placed[u] || s->ei[u] > f->r)
		return false;
	if (f->k - 1 > s->head[f->a]) {
		u32 v = s->cand[f->k - 2];

		if (!s->placed[v] && s->ei[v] == s->ei[u] &&
		    s->size[v] == sz && s->align[v] == s->align[u])
			return false;
	}
	o = (f->x + s->align[u] - 1) & ~(s->align[u] - 1);
	if (o > s->cap || sz > s->cap - o)
		return false;
	if (o != f->x)
		for (t = s->si[u]; t < s->ei[u]; t++)
			if (s->rem[t] > s->cap - o)
				return false;
	for (t = s->si[u]; t < s->ei[u]; t++) {
		s->floor[t] = o + sz;
		s->rem[t] -= sz;
	}
	s->placed[u] = 1;
	s->off[u] = o;
	f->cur = u;
	return true;
}

/*
 * One depth-first run with the current candidate order, from scratch.
 * Returns 1 when the run was complete, 0 when a limit stopped it, or
 * -EINTR.
 */
static int ta_sky_run(struct ta_sky *s, u64 node_limit,
		      struct ta_search_limits *lim, u64 *offsets)
{
	u64 nodes = 0;
	u32 depth = 1, t;
	int ret;

	for (t = 0; t < s->ns; t++) {
		s->floor[t] = 0;
		s->rem[t] = s->rem0[t];
	}
	for (t = 0; t < s->n; t++)
		s->placed[t] = 0;
	s->recheck = false;
	if (!ta_sky_fits(s))
		return 1;
	if (!ta_sky_enter(s, &s->fr[0], 0, 0, TA_SEARCH_NONE))
		return 1;
	while (depth) {
		struct ta_sky_frame *f = &s->fr[depth - 1];
		struct ta_sky_frame *c;
		bool go = false;
		u32 scan = 0, pend = TA_SEARCH_NONE;

		ta_sky_undo(s, f);
		if (s->best <= s->lbg)
			return 1;
		if (s->recheck) {
			if (!ta_sky_fits(s)) {
				depth--;
				continue;
			}
			s->recheck = false;
		}
		if (!(++lim->steps & (TA_SKY_CHECK_EVERY - 1))) {
			ret = ta_search_limit_hit(lim);
			if (ret)
				return ret < 0 ? ret : 0;
		}
		if (++nodes > node_limit)
			return 0;
		while (!go && f->k < s->head[f->a + 1]) {
			u32 u = s->cand[f->k++];

			if (!ta_sky_try(s, f, u))
				continue;
			if (f->p != TA_SEARCH_NONE &&
			    !ta_sky_raise(s, f, f->p, f->a))
				break;
			scan = s->ei[u];
			go = true;
		}
		if (!go && f->cur != TA_SEARCH_NONE)
			continue;	/* raise failed: undo, try the next */
		if (!go) {
			u32 a = f->a, p = f->p == TA_SEARCH_NONE ? a : f->p;

			if (f->closed || s->rem[a] > s->cap - f->x ||
			    s->g > s->cap - f->x - s->rem[a]) {
				depth--;
				continue;
			}
			f->closed = 1;
			f->k = s->head[a + 1];
			if (a + 1 < s->ns && s->rem[a + 1] &&
			    s->floor[a + 1] == f->x) {
				pend = p;
			} else if (!ta_sky_raise(s, f, p, a + 1)) {
				continue;
			}
			scan = a + 1;
		}
		if (depth >= s->max_depth) {
			s->overflowed = true;
			continue;
		}
		c = &s->fr[depth];
		if (!ta_sky_enter(s, c, f->x, scan, pend)) {
			ta_sky_solution(s, offsets);
			continue;
		}
		depth++;
	}
	return 1;
}

int ta_search_skyline(const struct ta_problem *p, u64 lower_bound,
		      struct ta_search_limits *lim, u64 *offsets, u64 *height,
		      bool *proven)
{
	struct ta_sky s = { 0 };
	u64 limit, max_align = 1, lo;
	u32 i, h, k;
	int ret;

	*proven = false;
	if (p->n_buffers > TA_SEARCH_MAX_BUFFERS)
		return -E2BIG;
	s.g = ta_search_granule(p);
	s.best = *height;
	if (*height <= lower_bound) {
		*proven = true;
		return 0;
	}
	s.lbg = (lower_bound + s.g - 1) & ~(s.g - 1);
	if (s.lbg < lower_bound)
		return 0;
	if (*height <= s.lbg) {
		*proven = true;
		return 0;
	}
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].size && p->buffers[i].align > max_align)
			max_align = p->buffers[i].align;
	ret = ta_sky_init(&s, p);
	if (ret)
		goto out;
	lo = s.lbg;
	limit = 2 * (u64)s.n + 64;
	for (;;) {
		for (h = 0; h < TA_SKY_HEURISTICS; h++) {
			ta_sky_order(&s, p, h);
			for (k = 0; k < 3; k++) {
				u64 t;

				if (lo + s.g > s.best) {
					*proven = max_align <= s.g;
					goto done;
				}
				if (k == 0)
					t = s.best - s.g;
				else if (k == 1)
					t = lo;
				else
					t = (lo + ((s.best - lo) >> 1)) & ~(s.g - 1);
				if (t < lo || t + s.g > s.best || (k && t == s.best - s.g))
					continue;
				if (k == 2 && t == lo)
					continue;
				s.cap = t;
				s.overflowed = false;
				ret = ta_sky_run(&s, limit, lim, offsets);
				if (ret < 0)
					goto out;
				if (s.best <= s.lbg) {
					*proven = true;
					goto done;
				}
				if (ret == 1 && !s.overflowed && max_align <= s.g &&
				    s.cap + s.g > lo)
					lo = s.cap + s.g;
				if (lim->timed_out)
					goto done;
			}
		}
		if (limit < (1ULL << 40))
			limit <<= 1;
	}
done:
	ret = 0;
	*height = s.best;
out:
	ta_sky_free(&s);
	return ret;
}
