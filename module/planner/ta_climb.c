// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_climb.c - auto's improving search: when the branch and bound gives up,
 * build complete plans again and again from the best one so far.
 *
 * A plan is built bottom-up on a skyline: time is cut into sections at
 * every start and end, and each section has a top, the highest byte placed
 * there so far. The lowest section (the leftmost among equals) and the run
 * of sections at its height to its right are the gap to fill next. Only a
 * buffer that starts at that section can rest on it without leaving a
 * hole on its left; of those that end within the run, one is placed (at
 * the run's height rounded up to its alignment). When none fits, the
 * section is lifted to the lower of its neighbours: the bytes in between
 * are waste, the only waste a skyline plan has.
 *
 * Which buffer, when several fit: the one whose *look-ahead* goes further.
 * Each candidate is placed in turn, then the greedy rule (ends flush with
 * the run, top flush with a neighbour, longest, largest) places buffers
 * until the first lift or %TA_CLIMB_PILOT placements, and everything is
 * undone; the candidate with the longest run without waste wins (the
 * pilot method). A zero-slack packing, where the greedy rule alone misses
 * by 20-40 %, is what this is for: a wrong choice shows as a lift a few
 * placements later, not at once.
 *
 * Climbing: the choices of the best construction are kept. Each new one
 * replays a prefix of them (a random length) and decides the rest with
 * random noise in the greedy rule; a construction as low as the best
 * replaces it (plateaus are crossed), a lower one is the new plan.
 * So the budget left after the search goes into plans near the best one,
 * never back to the first greedy plan.
 *
 * Memory: O(n + sections), taken up front; time per construction
 * O((n + lifts) * (candidates * pilot + span) * log sections).
 */
#include "ta_climb.h"
#include "ta_plan_helpers.h"
#include "ta_search.h"
#include "ta_skyline.h"

/* placements the look-ahead of one candidate makes at most */
#define TA_CLIMB_PILOT		32
/* candidates the look-ahead compares at most (the best by the rule) */
#define TA_CLIMB_CANDIDATES	6
/* undo entries of a look-ahead (it stops short when they run out) */
#define TA_CLIMB_UNDO_MAX	16384U
/* a lifted-off section: no buffer rests on it any more */
#define TA_CLIMB_DEAD		U64_MAX

/* One undoable change of the skyline. */
struct ta_climb_undo {
	u32 kind;	/* 0: top of a section, 1: a buffer placed */
	u32 where;	/* the section, or the start section of the buffer */
	u64 old;	/* the old top, or the buffer's slot in its list */
};

/* The state of one construction, and the best one's choices. */
struct ta_climb {
	const struct ta_problem *p;
	struct ta_skyline sky;	/* the sections, their lists and tops */
	u32 *list;		/* buffers by start section, unplaced first */
	u32 *avail;		/* per section: unplaced buffers starting */
	u64 *off;		/* the plan being built */
	u32 *seq;		/* its choices, in order */
	u32 *best_seq;		/* the best construction's choices */
	u32 n_seq, n_best_seq, seq_max, n_placed;
	struct ta_climb_undo *undo;	/* the look-ahead's changes */
	u32 n_undo, undo_max;
	bool logging;
	u64 height;
	u64 rng;
	u32 noise;		/* percent of choices made at random */
	u64 units;		/* work since the last count */
	u64 bytes;		/* memory taken */
};

static void ta_climb_tree_set(struct ta_climb *c, u32 s, u64 v)
{
	ta_skyline_set(&c->sky, s, v);
	c->units += 8;
}

static void ta_climb_set_top(struct ta_climb *c, u32 s, u64 v)
{
	if (c->logging && c->n_undo < c->undo_max)
		c->undo[c->n_undo++] = (struct ta_climb_undo){
			.kind = 0, .where = s, .old = c->sky.top[s] };
	ta_climb_tree_set(c, s, v);
}

/* Place buffer @b, the @slot-th unplaced one of section @s, at height @h. */
static void ta_climb_place(struct ta_climb *c, u32 s, u32 slot, u32 b, u64 h)
{
	const struct ta_buffer *buf = &c->p->buffers[b];
	u64 at = ta_align_up(h, buf->align), t;
	u32 k, last = c->sky.first[s] + c->avail[s] - 1;

	t = at + buf->size;
	c->off[b] = at;
	for (k = c->sky.bs[b]; k < c->sky.be[b]; k++)
		ta_climb_set_top(c, k, t);
	if (t > c->height)
		c->height = t;
	c->list[c->sky.first[s] + slot] = c->list[last];
	c->list[last] = b;
	c->avail[s]--;
	c->n_placed++;
	if (!c->logging && c->n_seq < c->seq_max)
		c->seq[c->n_seq++] = b;
	if (c->logging && c->n_undo < c->undo_max)
		c->undo[c->n_undo++] = (struct ta_climb_undo){
			.kind = 1, .where = s, .old = slot };
}

/* Undo the look-ahead's changes back to @mark. */
static void ta_climb_undo_to(struct ta_climb *c, u32 mark)
{
	while (c->n_undo > mark) {
		const struct ta_climb_undo *u = &c->undo[--c->n_undo];

		if (u->kind == 0) {
			ta_climb_tree_set(c, u->where, u->old);
		} else {
			u32 s = u->where, slot = (u32)u->old;
			u32 last = c->sky.first[s] + c->avail[s];
			u32 b = c->list[last];

			/* b back to its slot, the one moved there back last */
			c->list[last] = c->list[c->sky.first[s] + slot];
			c->list[c->sky.first[s] + slot] = b;
			c->avail[s]++;
			c->n_placed--;
		}
	}
}

/* The gap to fill: section @s, the run [@s, *@j) at height @h. */
struct ta_climb_gap {
	u32 s, j;
	u64 h, left, right;
};

static void ta_climb_gap(struct ta_climb *c, struct ta_climb_gap *g)
{
	u32 j;

	g->s = ta_skyline_lowest(&c->sky);
	g->h = c->sky.top[g->s];
	for (j = g->s + 1; j < c->sky.n_sections && c->sky.top[j] == g->h; j++)
		;
	c->units += j - g->s;
	g->j = j;
	g->left = g->s ? c->sky.top[g->s - 1] : TA_CLIMB_DEAD;
	g->right = j < c->sky.n_sections ? c->sky.top[j] : TA_CLIMB_DEAD;
}

/* The greedy rule's score of buffer @b in gap @g (higher is better). */
static u64 ta_climb_score(struct ta_climb *c, const struct ta_climb_gap *g,
			  u32 b)
{
	const struct ta_buffer *buf = &c->p->buffers[b];
	u64 t = ta_align_up(g->h, buf->align) + buf->size, sc = 0;
	u32 bits = 64 - 2 - 24;

	if (c->sky.be[b] == g->j)
		sc |= BIT_ULL(63);
	if (t == g->left || (c->sky.be[b] == g->j && t == g->right))
		sc |= BIT_ULL(62);
	sc |= (u64)(c->sky.be[b] & 0xffffff) << bits;
	sc |= buf->size >= BIT_ULL(bits) ? BIT_ULL(bits) - 1 : buf->size;
	if (c->noise && (u32)ta_xorshift64(&c->rng) % 100 < c->noise)
		sc = ta_xorshift64(&c->rng) >> 1;
	return sc;
}

/*
 * Lift section @g->s to the lower of its neighbours (the first higher
 * section to its right counts), or retire it when nothing can rest on it.
 */
static void ta_climb_lift(struct ta_climb *c, const struct ta_climb_gap *g)
{
	u64 to = g->left;
	u32 k;

	for (k = g->s + 1; k < c->sky.n_sections; k++) {
		if (c->sky.top[k] > g->h) {
			if (c->sky.top[k] < to)
				to = c->sky.top[k];
			break;
		}
	}
	c->units += k - g->s;
	if (!c->logging && c->n_seq < c->seq_max)
		c->seq[c->n_seq++] = U32_MAX;
	ta_climb_set_top(c, g->s, to);
}

/*
 * One step of the greedy rule (or with @forced, that buffer if it fits).
 * Return: 1 placed, 2 lifted, 0 nothing left.
 */
static int ta_climb_step(struct ta_climb *c, u32 forced)
{
	struct ta_climb_gap g;
	u32 k, slot = 0, best = U32_MAX;
	u64 best_sc = 0;

	if (c->n_placed == c->sky.n_items)
		return 0;
	ta_climb_gap(c, &g);
	for (k = 0; k < c->avail[g.s]; k++) {
		u32 b = c->list[c->sky.first[g.s] + k];
		u64 sc;

		if (c->sky.be[b] > g.j)
			continue;
		if (forced != U32_MAX) {
			if (b != forced)
				continue;
			best = b;
			slot = k;
			break;
		}
		sc = ta_climb_score(c, &g, b);
		if (best == U32_MAX || sc > best_sc) {
			best = b;
			best_sc = sc;
			slot = k;
		}
	}
	c->units += c->avail[g.s];
	if (best == U32_MAX) {
		ta_climb_lift(c, &g);
		return 2;
	}
	ta_climb_place(c, g.s, slot, best, g.h);
	return 1;
}

/*
 * A step with the look-ahead: the candidates (the best few by the rule)
 * each tried with a greedy run of up to %TA_CLIMB_PILOT placements; the
 * one that goes furthest without a lift is placed. Return: as
 * ta_climb_step().
 */
static int ta_climb_pilot_step(struct ta_climb *c)
{
	u32 cand[TA_CLIMB_CANDIDATES], slot[TA_CLIMB_CANDIDATES];
	u64 sc[TA_CLIMB_CANDIDATES];
	struct ta_climb_gap g;
	u32 k, i, nc = 0, win = 0, win_run = 0, mark;
	u64 h0 = c->height;

	if (c->n_placed == c->sky.n_items)
		return 0;
	ta_climb_gap(c, &g);
	for (k = 0; k < c->avail[g.s]; k++) {
		u32 b = c->list[c->sky.first[g.s] + k];
		u64 s;

		if (c->sky.be[b] > g.j)
			continue;
		s = ta_climb_score(c, &g, b);
		/* keep the best few, sorted by score */
		if (nc == TA_CLIMB_CANDIDATES && s <= sc[nc - 1])
			continue;
		i = nc < TA_CLIMB_CANDIDATES ? nc++ : nc - 1;
		for (; i && sc[i - 1] < s; i--) {
			cand[i] = cand[i - 1];
			sc[i] = sc[i - 1];
			slot[i] = slot[i - 1];
		}
		cand[i] = b;
		sc[i] = s;
		slot[i] = k;
	}
	c->units += c->avail[g.s];
	if (!nc) {
		ta_climb_lift(c, &g);
		return 2;
	}
	if (nc > 1) {
		u32 saved_noise = c->noise;

		c->noise = 0;
		c->logging = true;
		for (i = 0; i < nc; i++) {
			u32 run = 0;

			mark = c->n_undo;
			ta_climb_step(c, cand[i]);
			while (run < TA_CLIMB_PILOT &&
			       c->n_undo + c->sky.n_sections + 2 <= c->undo_max &&
			       ta_climb_step(c, U32_MAX) == 1)
				run++;
			ta_climb_undo_to(c, mark);
			if (!i || run > win_run) {
				win = i;
				win_run = run;
			}
			if (run >= TA_CLIMB_PILOT)
				break;
		}
		c->logging = false;
		c->noise = saved_noise;
		c->height = h0;
	}
	/* the slots may have moved while undoing: find the winner again */
	for (k = 0; k < c->avail[g.s]; k++)
		if (c->list[c->sky.first[g.s] + k] == cand[win])
			break;
	ta_climb_place(c, g.s, k, cand[win], g.h);
	return 1;
}

/* Start a construction from the empty skyline. */
static void ta_climb_reset(struct ta_climb *c)
{
	u32 i;

	for (i = 0; i < 2 * c->sky.m; i++)
		c->sky.tree[i] = TA_CLIMB_DEAD;
	for (i = 0; i < c->sky.n_sections; i++)
		ta_climb_tree_set(c, i, 0);
	for (i = 0; i < c->sky.n_sections; i++)
		c->avail[i] = c->sky.first[i + 1] - c->sky.first[i];
	/* the lists in index order, so that a replay meets the same */
	for (i = 0; i < c->sky.n_items; i++)
		c->list[i] = c->sky.by_start[i];
	c->units += 2 * (u64)c->sky.m + c->sky.n_items;
	c->height = 0;
	c->n_placed = 0;
	c->n_seq = 0;
	c->n_undo = 0;
}

/*
 * Replay choice @b (U32_MAX: a lift) of the best construction. The state
 * after the same choices is the same, so it must still be possible.
 * Return: 1 placed, 2 lifted, -EINVAL when it is not (a bug).
 */
static int ta_climb_replay(struct ta_climb *c, u32 b)
{
	struct ta_climb_gap g;
	u32 k;

	ta_climb_gap(c, &g);
	if (b == U32_MAX) {
		ta_climb_lift(c, &g);
		return 2;
	}
	for (k = 0; k < c->avail[g.s]; k++)
		if (c->list[c->sky.first[g.s] + k] == b && c->sky.be[b] <= g.j) {
			ta_climb_place(c, g.s, k, b, g.h);
			return 1;
		}
	return -EINVAL;
}

/*
 * One construction: the first @replay choices of the best one, then the
 * look-ahead with @noise percent of random choices. Return: 0 complete,
 * 2 abandoned above @stop, or as ta_work_limit_hit() (1: out of budget).
 */
static int ta_climb_build(struct ta_climb *c, u32 replay, u32 noise, u64 stop,
			  struct ta_work *lim)
{
	int st, ret;

	ta_climb_reset(c);
	c->noise = noise;
	for (;;) {
		if (c->n_seq < replay)
			st = ta_climb_replay(c, c->best_seq[c->n_seq]);
		else
			st = ta_climb_pilot_step(c);
		if (st <= 0)
			return st;
		lim->steps++;
		if (c->height > stop)
			return 2;
		/* the steps, or the work, since the last check */
		if (c->units >= TA_WORK_CHUNK || !(lim->steps & 63)) {
			ret = ta_work_add(lim, c->units);
			c->units = 0;
			if (ret == -EINTR)
				return ret;
			ret = ta_work_limit_hit(lim);
			if (ret)
				return ret;
		}
	}
}

static void ta_climb_free(struct ta_climb *c)
{
	ta_skyline_free(&c->sky);
	ta_env_free(c->list);
	ta_env_free(c->avail);
	ta_env_free(c->off);
	ta_env_free(c->seq);
	ta_env_free(c->best_seq);
	ta_env_free(c->undo);
}

/* The skyline, and the construction's lists, plan and undo trail. */
static int ta_climb_init(struct ta_climb *c, const struct ta_problem *p)
{
	u32 n = p->n_buffers, ns;
	int ret;

	ret = ta_skyline_init(&c->sky, p);
	if (ret)
		return ret;
	ns = c->sky.n_sections;
	c->seq_max = 4 * (n + ns) + 16;
	/* room for one step over every section, and a look-ahead's worth */
	c->undo_max = TA_CLIMB_UNDO_MAX;
	if (c->undo_max < 2 * (ns + 2))
		c->undo_max = 2 * (ns + 2);
	c->list = ta_env_alloc_array(n + 1, sizeof(*c->list));
	c->avail = ta_env_alloc_array(ns + 1, sizeof(*c->avail));
	c->off = ta_env_alloc_array(n + 1, sizeof(*c->off));
	c->seq = ta_env_alloc_array(c->seq_max, sizeof(*c->seq));
	c->best_seq = ta_env_alloc_array(c->seq_max, sizeof(*c->best_seq));
	c->undo = ta_env_alloc_array(c->undo_max, sizeof(*c->undo));
	c->bytes = c->sky.bytes + (u64)(n + 1) * sizeof(*c->list) +
		   (u64)(ns + 1) * sizeof(*c->avail) +
		   (u64)(n + 1) * sizeof(*c->off) +
		   2 * (u64)c->seq_max * sizeof(*c->seq) +
		   (u64)c->undo_max * sizeof(*c->undo);
	if (!c->list || !c->avail || !c->off || !c->seq || !c->best_seq ||
	    !c->undo)
		return -ENOMEM;
	return 0;
}

int ta_climb(const struct ta_problem *p, u64 lower_bound, struct ta_work *lim,
	     u64 *offsets, u64 *height)
{
	struct ta_climb c = { .p = p, .rng = 0x9e3779b97f4a7c15ULL };
	u64 best_h = U64_MAX;
	u32 i, tries;
	int ret;

	if (p->n_buffers > TA_SEARCH_MAX_BUFFERS)
		return -E2BIG;
	ret = ta_climb_init(&c, p);
	if (ret || !c.sky.n_sections)
		goto out;
	for (tries = 0; *height > lower_bound; tries++) {
		u32 replay = 0, noise = 0;

		if (tries) {
			replay = (u32)ta_xorshift64(&c.rng) % (c.n_best_seq + 1);
			noise = 1 + ((u32)ta_xorshift64(&c.rng) & 7);
		}
		ret = ta_climb_build(&c, replay, noise, best_h, lim);
		if (ret < 0)
			goto out;
		if (ret == 1)
			break;		/* out of budget */
		if (ret == 2)
			continue;	/* above the best: abandoned */
		/* as low as the best: climb on from it */
		best_h = c.height;
		for (i = 0; i < c.n_seq; i++)
			c.best_seq[i] = c.seq[i];
		c.n_best_seq = c.n_seq;
		if (c.height < *height) {
			for (i = 0; i < p->n_buffers; i++)
				offsets[i] = p->buffers[i].size ? c.off[i] : 0;
			*height = c.height;
		}
	}
	ret = 0;
out:
	if (lim->bytes < c.bytes)
		lim->bytes = c.bytes;
	if (c.units)
		ta_work_add(lim, c.units);
	ta_climb_free(&c);
	return ret;
}
