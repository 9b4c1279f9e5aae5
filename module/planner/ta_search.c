// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search.c - branch and bound over canonical placements, used by the
 * `auto` strategy to close the gap between a heuristic plan and the lower
 * bound. Two engines share the state and the inference below.
 *
 * Time is cut into sections at every buffer start and end. A plan is
 * canonical when every buffer rests on the floor or on top of a buffer that
 * overlaps it in time; some canonical plan is optimal, and a buffer's
 * lowest possible offset (minoff) is the highest floor among its sections.
 *
 * The ordered engine (ta_mm_*, the main one) places the next buffer at its
 * minoff, choosing among the unplaced buffers in order of (minoff, rank in
 * a heuristic order); the keys along a branch never decrease, so each
 * canonical plan is built once. Dominance: a buffer whose minoff is at or
 * above the lowest top another unplaced buffer could reach would leave a gap
 * that buffer fits in, so it waits; once a buffer no unplaced buffer
 * overlaps has been tried, the node is done. When no unplaced buffer
 * crosses some section boundary any more, the rest splits into independent
 * components, solved left to right; if one fails, the search jumps back to
 * the choice that split them instead of trying its siblings' alternatives.
 * Optionally each component is re-ranked by the bytes still unplaced.
 *
 * The skyline engine (ta_sky_run) builds plans at the lowest point of the
 * skyline: at level x it takes the leftmost open section a and branches on
 * which buffer starting at a goes at x, or on closing a; a walled-in run of
 * closed sections rises to the lower of its neighbours.
 *
 * Inference, after every placement: the minoff of every unplaced buffer
 * over the placed one rises, every section's floor rises to the lowest
 * minoff among the unplaced buffers live there, and in every section the
 * unplaced bytes must fit between max(floor, last offset) and the cap.
 * Identical buffers are placed in a fixed order only. All changes go to
 * undo trails, so the depth-first search is iterative, without recursion.
 *
 * Schedule: runs restart with a doubling node limit and rotate through a
 * small portfolio of orders and engines (ta_sky_plan); each searches at the
 * lowest height not yet ruled out, then probes, with a quarter of the
 * nodes, a height between that and the best found, spread over the range
 * from run to run (how long a run takes to find a plan varies wildly with
 * its cap, not monotonically).
 * Every plan found lowers the cap; a run that completes under its limit
 * rules out every height up to its cap (a proof of optimality once that
 * meets the best plan, when no alignment exceeds the size granule).
 *
 * Memory, all taken up front and limited to %TA_SEARCH_MAX_BUFFERS buffers:
 * per buffer about 150 bytes plus its sections in the per-section lists (4
 * bytes each), per section about 60 bytes, the candidate pool and the three
 * undo trails (each at most %TA_SKY_MAX_TRAIL entries of 12 bytes).
 */
#include "ta_search.h"

#define TA_SKY_SKYLINE		8	/* heuristic flag: the skyline engine */
/* a node costs up to O(sections): check often enough to stay bounded */
#define TA_SKY_CHECK_EVERY	256
#define TA_SKY_MAX_TRAIL	BIT(20)
#define TA_SKY_ADAPT		4	/* heuristic flag: re-rank each component */
#define TA_SKY_SMALL_SORT	32	/* insertion sort up to this many */
#define TA_SKY_RERANK_COST	2	/* log2 of buffers re-ranked per node */
#define TA_SKY_PROBES		1	/* probing runs per order and round */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The runs of one round: candidate order (low bits) and engine, and how
 * much smaller than the round's node limit each one's limit is (a shift).
 */
static const u8 ta_sky_plan[][2] = {
	{ 2, 0 },			/* most crowded, longest, largest area */
	{ TA_SKY_SKYLINE | 3, 1 },	/* skyline, largest first */
	{ TA_SKY_ADAPT | 2, 0 },	/* the first, re-ranked per component */
	{ TA_SKY_ADAPT | 1, 0 },	/* crowded, area, longest, re-ranked */
};

struct ta_sky_item {
	u64 key;
	u64 k2;
	u64 k3;
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
	u32 closed;	/* the close choice was taken */
	u32 tf;		/* floor trail length before the current choice */
	u32 tm;		/* min-offset trail length before it */
};

struct ta_mm_frame {
	u64 last_off;	/* offset of the buffer placed last */
	u64 min_top;	/* lowest top any unplaced buffer can reach */
	u64 co;		/* key of the current choice: offset, rank */
	u32 cr;
	u32 last_rank;
	u32 cur;	/* buffer placed by the current choice, or NONE */
	u32 tf;
	u32 tm;
	u32 tr;		/* rank trail length before this frame's re-ranking */
	u32 pl;		/* candidates: pool[pl, pl + pn), next at pi */
	u32 pn;
	u32 pi;
	u32 lo;		/* the component being solved: sections [lo, hi) */
	u32 hi;
	u32 jump;	/* on failure, back to this depth (NONE: normal) */
	u32 plans;	/* plans found before this frame was entered */
	u32 hatless;	/* the current choice overlaps no unplaced buffer */
	u32 upos;	/* where the current choice sat in the unplaced list */
};

struct ta_sky {
	u32 n;			/* buffers of positive size */
	u32 ns;			/* sections */
	u32 max_depth;
	bool recheck;
	bool overflowed;
	bool hat;		/* propagation met an unplaced neighbour */
	u32 plans;		/* plans found by this run */
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
	u64 *minoff;		/* lowest offset each unplaced buffer can take */
	u32 *cov;		/* buffers live in each section */
	u32 *covh;		/* ns + 1 starts in cov */
	u32 *ucov;		/* per section: its unplaced buffers lead in cov */
	u32 *stamp;		/* per buffer: visited by this propagation */
	u32 *sstamp;		/* per section */
	u32 *chg;		/* buffers whose minoff rose */
	u32 *rank;		/* position in the current candidate order */
	u32 *dup;		/* identical buffer just before in that order */
	struct ta_mm_frame *mf;
	u32 *cut;		/* unplaced buffers crossing each boundary */
	u32 *cut0;
	u32 *zdepth;		/* depth whose choice zeroed a boundary */
	u32 *pool;		/* candidate lists of the frames, stacked */
	u32 pool_cap;
	u32 *byrank;
	u32 *ulist;		/* unplaced buffers first, placed ones parked after */
	u32 *upos;		/* position of each buffer in ulist */
	u32 ucount;
	u32 now;
	u32 ntf, ntm, max_trail;
	u32 *tf_s;		/* floor trail: section, old value */
	u64 *tf_v;
	u32 *tm_b;		/* min-offset trail: buffer, old value */
	u64 *tm_v;
	u32 ntr;
	u32 *tr_b;		/* rank trail: buffer, old rank */
	u32 *tr_v;
	u32 heur;		/* the heuristic of this run */
	u32 sorted;		/* buffers re-ranked since the last node */
	const struct ta_problem *prob;
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
	int ret = ta_work_check(lim->work);

	if (ret == -EINTR)
		return -EINTR;
	if (ret)
		lim->timed_out = true;	/* the hard deadline */
	else if (lim->max_steps && lim->steps >= lim->max_steps)
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
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	if (x->ei != y->ei)
		return x->ei > y->ei ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
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
	ta_env_free(s->minoff);
	ta_env_free(s->cov);
	ta_env_free(s->covh);
	ta_env_free(s->ucov);
	ta_env_free(s->stamp);
	ta_env_free(s->sstamp);
	ta_env_free(s->chg);
	ta_env_free(s->rank);
	ta_env_free(s->dup);
	ta_env_free(s->mf);
	ta_env_free(s->cut);
	ta_env_free(s->cut0);
	ta_env_free(s->zdepth);
	ta_env_free(s->pool);
	ta_env_free(s->byrank);
	ta_env_free(s->ulist);
	ta_env_free(s->upos);
	ta_env_free(s->tf_s);
	ta_env_free(s->tf_v);
	ta_env_free(s->tm_b);
	ta_env_free(s->tm_v);
	ta_env_free(s->tr_b);
	ta_env_free(s->tr_v);
	ta_env_free(s->items);
	ta_env_free(s->fr);
}

static int ta_sky_init(struct ta_sky *s, const struct ta_problem *p)
{
	u32 n = 0, i, t, nt;
	u64 trail;
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

		s->si[i] = ta_search_index(times, t, b->start);
		s->ei[i] = ta_search_index(times, t, b->end);
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
	s->covh = ta_env_alloc_array(s->ns + 2, sizeof(*s->covh));
	if (!s->covh)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (t = s->si[i]; t < s->ei[i]; t++) {
			s->rem0[t] += s->size[i];
			s->covh[t + 1]++;
		}
	for (t = 0; t < s->ns; t++)
		s->covh[t + 1] += s->covh[t];
	s->cov = ta_env_alloc_array(s->covh[s->ns] + 1, sizeof(*s->cov));
	s->sstamp = ta_env_alloc_array(s->ns + 1, sizeof(*s->sstamp));
	s->ucov = ta_env_alloc_array(s->ns + 1, sizeof(*s->ucov));
	s->minoff = ta_env_alloc_array(n + 1, sizeof(*s->minoff));
	s->stamp = ta_env_alloc_array(n + 1, sizeof(*s->stamp));
	s->chg = ta_env_alloc_array(n + 1, sizeof(*s->chg));
	s->rank = ta_env_alloc_array(n + 1, sizeof(*s->rank));
	s->dup = ta_env_alloc_array(n + 1, sizeof(*s->dup));
	s->mf = ta_env_alloc_array(n + 1, sizeof(*s->mf));
	s->cut = ta_env_alloc_array(s->ns + 1, sizeof(*s->cut));
	s->cut0 = ta_env_alloc_array(s->ns + 1, sizeof(*s->cut0));
	s->zdepth = ta_env_alloc_array(s->ns + 1, sizeof(*s->zdepth));
	trail = (u64)n * (n + 1) + 64;
	s->pool_cap = trail < TA_SKY_MAX_TRAIL ? (u32)trail : TA_SKY_MAX_TRAIL;
	s->pool = ta_env_alloc_array(s->pool_cap, sizeof(*s->pool));
	s->byrank = ta_env_alloc_array(n + 1, sizeof(*s->byrank));
	s->ulist = ta_env_alloc_array(n + 1, sizeof(*s->ulist));
	s->upos = ta_env_alloc_array(n + 1, sizeof(*s->upos));
	/* a choice changes at most 2 * ns floors and n lowest offsets */
	trail = 2 * (u64)(n > s->ns ? n : s->ns) * (n + 1) + 1024;
	s->max_trail = trail < TA_SKY_MAX_TRAIL ? (u32)trail : TA_SKY_MAX_TRAIL;
	s->tf_s = ta_env_alloc_array(s->max_trail, sizeof(*s->tf_s));
	s->tf_v = ta_env_alloc_array(s->max_trail, sizeof(*s->tf_v));
	s->tm_b = ta_env_alloc_array(s->max_trail, sizeof(*s->tm_b));
	s->tm_v = ta_env_alloc_array(s->max_trail, sizeof(*s->tm_v));
	s->tr_b = ta_env_alloc_array(s->max_trail, sizeof(*s->tr_b));
	s->tr_v = ta_env_alloc_array(s->max_trail, sizeof(*s->tr_v));
	if (!s->cov || !s->sstamp || !s->ucov || !s->minoff || !s->stamp || !s->chg ||
	    !s->rank || !s->dup || !s->mf || !s->cut || !s->cut0 ||
	    !s->zdepth || !s->pool || !s->byrank || !s->ulist || !s->upos ||
	    !s->tf_s || !s->tf_v || !s->tm_b || !s->tm_v || !s->tr_b ||
	    !s->tr_v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		for (t = s->si[i]; t < s->ei[i]; t++)
			s->cov[s->covh[t + 1] - 1 - s->sstamp[t]++] = i;
		for (t = s->si[i] + 1; t < s->ei[i]; t++)
			s->cut0[t]++;
	}
	for (t = 0; t < s->ns; t++)
		s->sstamp[t] = 0;
	return 0;
}

static int ta_sky_cmp_rank(const void *a, const void *b)
{
	const struct ta_sky_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	if (x->k3 != y->k3)
		return x->k3 > y->k3 ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->si != y->si)
		return x->si < y->si ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Global order for the ordered search: items hold the keys of heuristic h. */
static void ta_sky_rank(struct ta_sky *s, u32 h)
{
	u32 i;

	(void)h;
	ta_env_sort(s->items, s->n, sizeof(*s->items), ta_sky_cmp_rank);
	for (i = 0; i < s->n; i++) {
		const struct ta_sky_item *it = &s->items[i], *pv = it - 1;

		s->rank[it->idx] = i;
		s->byrank[i] = it->idx;
		s->dup[it->idx] = TA_SEARCH_NONE;
		if (i && pv->si == it->si && pv->ei == it->ei &&
		    pv->size == it->size && pv->align == it->align)
			s->dup[it->idx] = pv->idx;
	}
}

static void ta_sky_keys(struct ta_sky_item *it, u32 h, u64 size, u64 len,
			u64 area, u64 total)
{
	switch (h & 3) {
	case 0:		/* longest, then largest area, then most crowded */
		it->key = len;
		it->k2 = area;
		it->k3 = total;
		break;
	case 1:		/* most crowded, largest area, longest */
		it->key = total;
		it->k2 = area;
		it->k3 = len;
		break;
	case 2:		/* most crowded, longest, largest area */
		it->key = total;
		it->k2 = len;
		it->k3 = area;
		break;
	default:	/* largest, longest, most crowded */
		it->key = size;
		it->k2 = len;
		it->k3 = total;
		break;
	}
}

/* Order the candidates of every start section by heuristic @h. */
static void ta_sky_order(struct ta_sky *s, const struct ta_problem *p, u32 h)
{
	u32 i, t;

	for (i = 0; i < s->n; i++) {
		const struct ta_buffer *b = &p->buffers[s->bid[i]];
		struct ta_sky_item *it = &s->items[i];
		u64 len = b->end - b->start, area, total = 0;

		if (__builtin_mul_overflow(s->size[i], len, &area))
			area = U64_MAX;
		for (t = s->si[i]; t < s->ei[i]; t++)
			if (s->rem0[t] > total)
				total = s->rem0[t];
		ta_sky_keys(it, h, s->size[i], len, area, total);
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
	ta_sky_rank(s, h);
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
	f->closed = 0;
	f->tf = s->ntf;
	f->tm = s->ntm;
	return true;
}

static bool ta_sky_set_floor(struct ta_sky *s, u32 t, u64 v)
{
	if (s->ntf >= s->max_trail) {
		s->overflowed = true;
		return false;
	}
	s->tf_s[s->ntf] = t;
	s->tf_v[s->ntf++] = s->floor[t];
	s->floor[t] = v;
	return true;
}

/*
 * Every section keeps its unplaced buffers at the front of its list in
 * cov, so the propagation scans those only. Placing @u moves it past the
 * front in each of its sections; placements are undone last first, which
 * a plain count restores.
 */
static void ta_sky_mark_placed(struct ta_sky *s, u32 u)
{
	u32 t, j;

	s->placed[u] = 1;
	for (t = s->si[u]; t < s->ei[u]; t++) {
		u32 *c = s->cov + s->covh[t], k = --s->ucov[t];

		for (j = 0; c[j] != u; j++)
			;
		c[j] = c[k];
		c[k] = u;
	}
}

static void ta_sky_mark_unplaced(struct ta_sky *s, u32 u)
{
	u32 t;

	s->placed[u] = 0;
	for (t = s->si[u]; t < s->ei[u]; t++)
		s->ucov[t]++;
}

/* Every buffer unplaced, every section at the floor with all its bytes. */
static void ta_sky_reset(struct ta_sky *s)
{
	u32 t;

	for (t = 0; t < s->ns; t++) {
		s->floor[t] = 0;
		s->rem[t] = s->rem0[t];
		s->ucov[t] = s->covh[t + 1] - s->covh[t];
	}
	for (t = 0; t < s->n; t++) {
		s->placed[t] = 0;
		s->minoff[t] = 0;
	}
	s->ntf = 0;
	s->ntm = 0;
	s->recheck = false;
}

static void ta_sky_undo(struct ta_sky *s, struct ta_sky_frame *f)
{
	u32 t;

	if (f->cur != TA_SEARCH_NONE) {
		u32 u = f->cur;

		for (t = s->si[u]; t < s->ei[u]; t++)
			s->rem[t] += s->size[u];
		ta_sky_mark_unplaced(s, u);
		f->cur = TA_SEARCH_NONE;
	}
	while (s->ntf > f->tf) {
		s->ntf--;
		s->floor[s->tf_s[s->ntf]] = s->tf_v[s->ntf];
	}
	while (s->ntm > f->tm) {
		s->ntm--;
		s->minoff[s->tm_b[s->ntm]] = s->tm_v[s->ntm];
	}
}

/*
 * Floors in [lo, hi) rose: raise the lowest offsets of the unplaced buffers
 * over them, then lift every section they cover to the lowest offset any
 * unplaced buffer live there can take, and check the section inference.
 */
static bool ta_sky_propagate(struct ta_sky *s, u32 lo, u32 hi, u64 val)
{
	u32 t, i, j, nchg = 0;

	s->hat = false;
	if (!++s->now) {
		for (i = 0; i < s->n; i++)
			s->stamp[i] = 0;
		for (t = 0; t < s->ns; t++)
			s->sstamp[t] = 0;
		s->now = 1;
	}
	for (t = lo; t < hi; t++) {
		for (i = s->covh[t]; i < s->covh[t] + s->ucov[t]; i++) {
			u32 v = s->cov[i], a, b;
			u64 m, mask;

			if (s->placed[v] || s->stamp[v] == s->now)
				continue;
			s->stamp[v] = s->now;
			s->hat = true;
			m = s->minoff[v];
			if (val) {
				if (val > m)
					m = val;
			} else {
				a = s->si[v] > lo ? s->si[v] : lo;
				b = s->ei[v] < hi ? s->ei[v] : hi;
				for (j = a; j < b; j++)
					if (s->floor[j] > m)
						m = s->floor[j];
			}
			mask = s->align[v] - 1;
			m = (m + mask) & ~mask;
			if (m == s->minoff[v])
				continue;
			if (m > s->cap || s->size[v] > s->cap - m)
				return false;
			if (s->ntm >= s->max_trail) {
				s->overflowed = true;
				return false;
			}
			s->tm_b[s->ntm] = v;
			s->tm_v[s->ntm++] = s->minoff[v];
			s->minoff[v] = m;
			s->chg[nchg++] = v;
		}
	}
	for (i = 0; i < nchg; i++) {
		u32 v = s->chg[i];
		u64 mv = s->minoff[v];

		for (t = s->si[v]; t < s->ei[v]; t++) {
			u64 m = mv, fl = s->floor[t];

			/* only a section below v's new offset can rise */
			if (fl >= mv || s->sstamp[t] == s->now)
				continue;
			s->sstamp[t] = s->now;
			for (j = s->covh[t]; j < s->covh[t] + s->ucov[t]; j++) {
				u32 w = s->cov[j];

				if (!s->placed[w] && s->minoff[w] < m) {
					m = s->minoff[w];
					if (m <= fl)
						break;
				}
			}
			if (m <= fl)
				continue;
			if (m > s->cap || s->rem[t] > s->cap - m)
				return false;
			if (!ta_sky_set_floor(s, t, m))
				return false;
		}
	}
	return true;
}

/* Raise the walled-in closed run [lo, hi) from its level to its neighbours. */
static bool ta_sky_raise(struct ta_sky *s, u32 lo, u32 hi)
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
		if (s->floor[t] < y && !ta_sky_set_floor(s, t, y))
			return false;
	return ta_sky_propagate(s, lo, hi, 0);
}

/*
 * Does the current state still fit under the cap? A floor is never above
 * the top of what will be placed in its section, so one above the cap
 * fails too, also in a section already full: after a plan lowered the cap,
 * buffers placed before it may stand above it.
 */
static bool ta_sky_fits(struct ta_sky *s)
{
	u32 t;

	for (t = 0; t < s->ns; t++)
		if (s->floor[t] > s->cap ||
		    s->rem[t] > s->cap - s->floor[t])
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
	s->plans++;
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
	ta_sky_mark_placed(s, u);
	s->off[u] = o;
	f->cur = u;
	for (t = s->si[u]; t < s->ei[u]; t++) {
		s->rem[t] -= sz;
		if (!ta_sky_set_floor(s, t, o + sz))
			return false;
	}
	return true;
}

/*
 * The bookkeeping of one search node, shared by both searches: the
 * caller's limits every TA_SKY_CHECK_EVERY steps, the node budget always.
 * Return: 1 to go on; otherwise what the search returns (0 when it stops
 * at a limit, -errno).
 */
static inline int ta_sky_node(struct ta_search_limits *lim, u64 *nodes,
			      u64 node_limit)
{
	int ret;

	if (!(++lim->steps & (TA_SKY_CHECK_EVERY - 1))) {
		ret = ta_search_limit_hit(lim);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return ++*nodes > node_limit ? 0 : 1;
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
	u32 depth = 1;
	int ret;

	ta_sky_reset(s);
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
		ret = ta_sky_node(lim, &nodes, node_limit);
		if (ret <= 0)
			return ret;
		while (!go && f->k < s->head[f->a + 1]) {
			u32 u = s->cand[f->k++];

			if (!ta_sky_try(s, f, u)) {
				if (f->cur == TA_SEARCH_NONE)
					continue;
				break;
			}
			if (f->p != TA_SEARCH_NONE &&
			    !ta_sky_raise(s, f->p, f->a))
				break;
			if (!ta_sky_propagate(s, s->si[u], s->ei[u],
					      s->off[u] + s->size[u]))
				break;
			scan = s->ei[u];
			go = true;
		}
		if (!go && f->cur != TA_SEARCH_NONE)
			continue;	/* pruned: undo, try the next */
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
			} else if (!ta_sky_raise(s, p, a + 1)) {
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

/*
 * The ordered search: the next buffer is any unplaced one, taken in order
 * of its lowest possible offset, then of its rank in the heuristic order;
 * the (offset, rank) keys of a branch never decrease, so each canonical
 * plan is built once. A buffer that could only go at or above the lowest
 * top another unplaced buffer can reach would leave a gap that buffer
 * fits in, so it waits. Every section must fit its unplaced bytes above
 * max(its floor, the last offset).
 */
/*
 * A new component: rank its buffers afresh by the run's heuristic, with
 * the crowding of each section taken from the bytes still unplaced there.
 */
static bool ta_mm_rerank(struct ta_sky *s, u32 lo, u32 hi)
{
	const struct ta_problem *p = s->prob;
	u32 i, j, t, k = 0;

	for (j = 0; j < s->ucount; j++) {
		u32 i = s->ulist[j];
		const struct ta_buffer *b = &p->buffers[s->bid[i]];
		struct ta_sky_item *it;
		u64 len = b->end - b->start, area, total = 0;

		if (s->si[i] < lo || s->ei[i] > hi)
			continue;
		it = &s->items[k++];
		if (__builtin_mul_overflow(s->size[i], len, &area))
			area = U64_MAX;
		for (t = s->si[i]; t < s->ei[i]; t++)
			if (s->rem[t] > total)
				total = s->rem[t];
		ta_sky_keys(it, s->heur, s->size[i], len, area, total);
		it->size = s->size[i];
		it->align = s->align[i];
		it->si = s->si[i];
		it->ei = s->ei[i];
		it->idx = i;
	}
	s->sorted += k;
	if (k > TA_SKY_SMALL_SORT) {
		ta_env_sort(s->items, k, sizeof(*s->items), ta_sky_cmp_rank);
	} else {
		/* small components are the common case: insertion sort */
		for (i = 1; i < k; i++) {
			struct ta_sky_item x = s->items[i];

			for (j = i; j && ta_sky_cmp_rank(&s->items[j - 1], &x) > 0;
			     j--)
				s->items[j] = s->items[j - 1];
			s->items[j] = x;
		}
	}
	if (s->ntr + k > s->max_trail) {
		s->overflowed = true;
		return false;
	}
	for (i = 0; i < k; i++) {
		u32 v = s->items[i].idx;

		s->tr_b[s->ntr] = v;
		s->tr_v[s->ntr++] = s->rank[v];
		s->rank[v] = i;
	}
	return true;
}

/*
 * The depth whose choice cut boundary @t (no unplaced buffer crosses it any
 * more), plus one; 0 when no choice did (the problem's own cut, or @t at
 * either end).
 */
static u32 ta_mm_cut_depth(struct ta_sky *s, u32 t)
{
	if (!t || t >= s->ns || s->zdepth[t] == TA_SEARCH_NONE)
		return 0;
	return s->zdepth[t] + 1;
}

static int ta_mm_enter(struct ta_sky *s, struct ta_mm_frame *f, u64 off,
		       u32 rank, u32 plo, u32 phi)
{
	u64 mt = U64_MAX;
	u32 i, j, k, t, lo, hi, pl, pn, jump = TA_SEARCH_NONE;

	lo = plo;
	while (lo < s->ns && !s->rem[lo])
		lo++;
	if (lo >= s->ns)
		return 2;
	if (lo >= phi) {
		/*
		 * The component is done; the next one is independent of how
		 * it was solved: if it fails, go back to the last choice that
		 * cut it off (its left or its right boundary), with the key
		 * that choice left.
		 */
		jump = ta_mm_cut_depth(s, lo);
		for (hi = lo + 1; hi < s->ns && s->cut[hi]; hi++)
			;
		if (ta_mm_cut_depth(s, hi) > jump)
			jump = ta_mm_cut_depth(s, hi);
		if (jump) {
			off = s->mf[jump - 1].co;
			rank = s->mf[jump - 1].cr;
		} else {
			off = 0;
			rank = 0;
		}
	}
	hi = lo + 1;
	while (hi < s->ns && s->cut[hi])
		hi++;
	if (s->heur & TA_SKY_ADAPT) {
		bool split = f == s->mf || lo >= phi;

		for (t = hi; !split && t < phi; t++)
			split = s->rem[t] != 0;
		if (split) {
			if (!ta_mm_rerank(s, lo, hi))
				return 0;
			rank = 0;
		}
	}
	for (t = lo; t < hi; t++) {
		u64 fl = s->floor[t] > off ? s->floor[t] : off;

		if (s->rem[t] && (fl > s->cap || s->rem[t] > s->cap - fl))
			return 0;
	}
	/*
	 * One pass: keep every buffer of the component that could still be a
	 * candidate under the lowest top seen so far, then drop those at or
	 * above the final lowest top and sort the rest by (offset, rank).
	 */
	pl = f == s->mf ? 0 : (f - 1)->pl + (f - 1)->pn;
	pn = 0;
	for (j = 0; j < s->ucount; j++) {
		u64 m;
		u32 r;

		i = s->ulist[j];
		if (s->si[i] < lo || s->ei[i] > hi)
			continue;
		m = s->minoff[i];
		if (m + s->size[i] < mt)
			mt = m + s->size[i];
		if (m >= mt)
			continue;
		r = s->rank[i] + 1;
		if (m < off || (m == off && r <= rank))
			continue;
		if (s->dup[i] != TA_SEARCH_NONE && !s->placed[s->dup[i]])
			continue;
		if (pl + pn >= s->pool_cap) {
			s->overflowed = true;
			return 0;
		}
		s->pool[pl + pn++] = i;
	}
	k = pl;
	for (j = pl; j < pl + pn; j++) {
		u32 v = s->pool[j], q;
		u64 m = s->minoff[v];
		u32 r = s->rank[v];

		if (m >= mt)
			continue;
		/* insertion by (offset, rank) */
		for (q = k; q > pl; q--) {
			u32 w = s->pool[q - 1];

			if (s->minoff[w] < m ||
			    (s->minoff[w] == m && s->rank[w] < r))
				break;
			s->pool[q] = w;
		}
		s->pool[q] = v;
		k++;
	}
	pn = k - pl;
	f->pl = pl;
	f->pn = pn;
	f->pi = 0;
	f->last_off = off;
	f->last_rank = rank;
	f->min_top = mt;
	f->co = off;
	f->cr = rank;
	f->cur = TA_SEARCH_NONE;
	f->tf = s->ntf;
	f->tm = s->ntm;
	f->tr = s->ntr;
	f->lo = lo;
	f->hi = hi;
	f->jump = jump;
	f->plans = s->plans;
	f->hatless = 0;
	return 1;
}

static void ta_mm_undo(struct ta_sky *s, struct ta_mm_frame *f)
{
	u32 t;

	if (f->cur != TA_SEARCH_NONE) {
		u32 u = f->cur, w;

		for (t = s->si[u]; t < s->ei[u]; t++)
			s->rem[t] += s->size[u];
		for (t = s->si[u] + 1; t < s->ei[u]; t++)
			s->cut[t]++;
		ta_sky_mark_unplaced(s, u);
		/* swap u back from its parking place */
		w = s->ulist[f->upos];
		s->ulist[f->upos] = u;
		s->ulist[s->ucount] = w;
		s->upos[u] = f->upos;
		s->upos[w] = s->ucount++;
		f->cur = TA_SEARCH_NONE;
	}
	while (s->ntf > f->tf) {
		s->ntf--;
		s->floor[s->tf_s[s->ntf]] = s->tf_v[s->ntf];
	}
	while (s->ntm > f->tm) {
		s->ntm--;
		s->minoff[s->tm_b[s->ntm]] = s->tm_v[s->ntm];
	}
	while (s->ntr > f->tr) {
		s->ntr--;
		s->rank[s->tr_b[s->ntr]] = s->tr_v[s->ntr];
	}
}

/* The frame's next candidate, in key order; NONE when none is left. */
static u32 ta_mm_next(struct ta_sky *s, struct ta_mm_frame *f)
{
	while (f->pi < f->pn) {
		u32 u = s->pool[f->pl + f->pi++];
		u64 m = s->minoff[u];

		f->co = m;
		f->cr = s->rank[u] + 1;
		if (m > s->cap || s->size[u] > s->cap - m)
			continue;
		return u;
	}
	return TA_SEARCH_NONE;
}

static int ta_mm_run(struct ta_sky *s, u64 node_limit,
		     struct ta_search_limits *lim, u64 *offsets)
{
	u64 nodes = 0;
	u32 depth = 1, t, w;
	int ret;

	while (s->ntr) {
		s->ntr--;
		s->rank[s->tr_b[s->ntr]] = s->tr_v[s->ntr];
	}
	ta_sky_reset(s);
	for (t = 0; t < s->ns; t++) {
		s->cut[t] = s->cut0[t];
		s->zdepth[t] = TA_SEARCH_NONE;
	}
	for (t = 0; t < s->n; t++) {
		s->ulist[t] = s->byrank[t];
		s->upos[s->byrank[t]] = t;
	}
	s->ucount = s->n;
	s->sorted = 0;
	s->plans = 0;
	ret = ta_mm_enter(s, &s->mf[0], 0, 0, 0, s->ns);
	if (ret != 1)
		return 1;
	while (depth) {
		struct ta_mm_frame *f = &s->mf[depth - 1];
		u32 u;

		ta_mm_undo(s, f);
		if (s->best <= s->lbg)
			return 1;
		if (s->recheck) {
			if (!ta_sky_fits(s)) {
				depth--;
				continue;
			}
			s->recheck = false;
		}
		/* re-ranking costs a node per 2^RERANK_COST buffers sorted */
		nodes += s->sorted >> TA_SKY_RERANK_COST;
		s->sorted &= BIT(TA_SKY_RERANK_COST) - 1;
		ret = ta_sky_node(lim, &nodes, node_limit);
		if (ret <= 0)
			return ret;
		/*
		 * A buffer nothing unplaced overlaps is best placed now: if
		 * that failed, so does every other choice here.
		 */
		u = f->hatless ? TA_SEARCH_NONE : ta_mm_next(s, f);
		if (u == TA_SEARCH_NONE) {
			/*
			 * A component that yielded a plan may fit the lower
			 * cap with other choices to its left: back up normally.
			 */
			if (f->jump == TA_SEARCH_NONE || f->plans != s->plans) {
				depth--;
				continue;
			}
			/* an independent component failed: skip its siblings */
			for (t = depth - 1; t-- > f->jump;)
				ta_mm_undo(s, &s->mf[t]);
			depth = f->jump;
			continue;
		}
		ta_sky_mark_placed(s, u);
		s->off[u] = f->co;
		f->cur = u;
		/* park u after the unplaced ones */
		f->upos = s->upos[u];
		w = s->ulist[--s->ucount];
		s->ulist[f->upos] = w;
		s->upos[w] = f->upos;
		s->ulist[s->ucount] = u;
		s->upos[u] = s->ucount;
		for (t = s->si[u] + 1; t < s->ei[u]; t++)
			if (!--s->cut[t])
				s->zdepth[t] = depth - 1;
		for (t = s->si[u]; t < s->ei[u]; t++) {
			s->rem[t] -= s->size[u];
			if (!ta_sky_set_floor(s, t, f->co + s->size[u]))
				break;
		}
		if (t < s->ei[u] ||
		    !ta_sky_propagate(s, s->si[u], s->ei[u], f->co + s->size[u]))
			continue;
		f->hatless = !s->hat;
		if (depth >= s->n + 1) {
			s->overflowed = true;
			continue;
		}
		ret = ta_mm_enter(s, &s->mf[depth], f->co, f->cr, f->lo,
				  f->hi);
		if (ret == 2)
			ta_sky_solution(s, offsets);
		else if (ret == 1)
			depth++;
	}
	return 1;
}

/*
 * The @j-th probe height in [@lo, @hi]: at the fraction of the way given by
 * the bit-reversed @j (the van der Corput sequence: 1/2, 1/4, 3/4, 1/8...),
 * so the probes of any stretch of runs spread over the whole range.
 */
static u64 ta_search_probe(u64 lo, u64 hi, u32 j)
{
	u64 d = hi - lo;
	u32 f = 0, b;

	for (b = 0; b < 16; b++)
		f |= ((j >> b) & 1) << (15 - b);
	return lo + (d >> 16) * f + (((d & 0xffff) * f) >> 16);
}

int ta_search_skyline(const struct ta_problem *p, u64 lower_bound,
		      struct ta_search_limits *lim, u64 *offsets, u64 *height,
		      bool *proven)
{
	struct ta_sky *sp;
	u64 limit, nl, max_align = 1, lo;
	u32 i, h, hi, k, probe = 1;
	int ret = 0;

	*proven = false;
	if (p->n_buffers > TA_SEARCH_MAX_BUFFERS)
		return -E2BIG;
	sp = ta_env_alloc_array(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	sp->g = ta_search_granule(p);
	sp->best = *height;
	if (*height <= lower_bound) {
		*proven = true;
		goto out;
	}
	sp->lbg = (lower_bound + sp->g - 1) & ~(sp->g - 1);
	if (sp->lbg < lower_bound)
		goto out;
	if (*height <= sp->lbg) {
		*proven = true;
		goto out;
	}
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].size && p->buffers[i].align > max_align)
			max_align = p->buffers[i].align;
	sp->prob = p;
	ret = ta_sky_init(sp, p);
	if (ret)
		goto out;
	lo = sp->lbg;
	limit = 2 * (u64)sp->n + 64;
	for (;;) {
		for (hi = 0; hi < ARRAY_SIZE(ta_sky_plan); hi++) {
			h = ta_sky_plan[hi][0];
			ta_sky_order(sp, p, h & 3);
			sp->heur = h;
			/*
			 * k = 0: the lowest height not yet ruled out; k >= 1:
			 * probe a height between that and the best, spread by
			 * ta_search_probe(): a cap that is just right can take a
			 * run far less time than one above it.
			 */
			for (k = 0; k <= TA_SKY_PROBES; k++) {
				u64 t = lo;

				if (lo + sp->g > sp->best) {
					*proven = max_align <= sp->g;
					goto done;
				}
				if (k) {
					t = ta_search_probe(lo, sp->best - sp->g,
							    probe++) &
					    ~(sp->g - 1);
					if (t <= lo || t + sp->g > sp->best)
						continue;
				}
				sp->cap = t;
				sp->overflowed = false;
				/* probing runs get a quarter of the nodes */
				nl = limit >> (ta_sky_plan[hi][1] + 2 * !!k);
				if (h & TA_SKY_SKYLINE)
					ret = ta_sky_run(sp, nl, lim, offsets);
				else
					ret = ta_mm_run(sp, nl, lim, offsets);
				if (ret < 0)
					goto out;
				if (sp->best <= sp->lbg) {
					*proven = true;
					goto done;
				}
				if (ret == 1 && !sp->overflowed && max_align <= sp->g &&
				    sp->cap + sp->g > lo)
					lo = sp->cap + sp->g;
				if (lim->timed_out)
					goto done;
			}
		}
		/* runs check the limits as they go; this bounds a round of none */
		ret = ta_search_limit_hit(lim);
		if (ret < 0)
			goto out;
		if (ret)
			goto done;
		if (limit < BIT_ULL(40))
			limit <<= 1;
	}
done:
	ret = 0;
	*height = sp->best;
out:
	ta_sky_free(sp);
	ta_env_free(sp);
	return ret;
}
