// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_contract.c - search a smaller problem: buffers that pack together as
 * one block are merged first, and the plan of the merged problem is
 * expanded back.
 *
 * Two merges, each exact in both directions of the plan (a plan of the
 * merged problem is a plan of the problem):
 * - *stack*: buffers with the same lifetime become one buffer of their
 *   summed size; expanded, they lie one on top of the other;
 * - *chain*: a buffer that ends at the moment another of the same size
 *   starts, when it is the only buffer of that size ending then and the
 *   other the only one of that size starting then, becomes one buffer
 *   over both lifetimes; expanded, both take its offset.
 * Rounds of both run until nothing merges. On a zero-slack packing cut
 * from a rectangle (the cuts of make bench, tests/gen-packing.py) the two
 * pieces of the last cut of a region are such a pair, so the rounds undo
 * the cutting from the leaves up: 800 buffers become 23 to 74, which the
 * branch and bound solves in milliseconds where it found nothing for the
 * 800 in 8 s.
 *
 * A merge can be wrong: two buffers with the same lifetime from two
 * regions that do not touch must lie apart in every plan at the lower
 * bound, and merged they cannot (on a cut of 2,000 buffers, 36 of the 132
 * blocks left were no rectangle of the tiling). Such a stack blocks the
 * merges its members belong to, so when a round merges nothing, two
 * repairs run: a node that no chain continues takes apart the stack
 * ending when it starts (or starting when it ends) that holds a member of
 * its size and chains with it (ta_contract_repair()); then, up to
 * %TA_CONTRACT_TRIALS times, each stack in turn is taken apart and kept
 * apart when chains and pinwheels then merge something, else put back
 * (ta_contract_trials()). With them that cut merges to 31 blocks, and a
 * pinwheel packing of 2,000 to 257 (was 807). The merged problem goes to
 * the tiling search (ta_tile.c) first, with half of its share.
 *
 * The repairs do not find every wrong merge, and one wrong block leaves
 * the merged problem with no plan at the bound. So two careful ways run
 * first (forward and mirrored in time): stacks only of two nodes with a
 * lifetime nothing else has, when nothing else starts with them or
 * nothing else ends with them (ta_contract_sure()), and chains only when
 * nothing else ends at that moment (then the chain is forced: the only
 * bytes freed are the first node's, the second fills them). Those blocks
 * go to the tiling search with a third of the way's share; when it finds
 * no tiling, chains with at most three nodes ending then merge on top, and
 * then every merge (a ladder: fewer blocks, more of them wrong). Two more
 * careful ways (forward and mirrored) add a middle rung: after the chains
 * of at most three, every stack of exactly two nodes, tiled again, and
 * every merge on top of that (the order of the merges decides which go
 * wrong: pinwheel n2000_s2 of make bench tiles that way, not the other,
 * and n2000_s1 the other way). On a cut, where careful merging takes
 * away less than a quarter, the careful ways stop after their rounds and
 * leave their time to the others.
 *
 * The merged problem's plan is only a
 * candidate: auto keeps it when it is lower than the plan in hand. Only
 * problems whose live bytes are the same at every moment are merged (a
 * packing with no slack, where both merges are what the packing is made
 * of; on a real trace merging buffers only constrains the search), and
 * only when every size is a multiple of every alignment (so that a stack
 * keeps every offset aligned).
 *
 * Memory: O(n), taken up front (%TA_CONTRACT_NODES nodes a buffer: the
 * repairs make new merges of what they took apart). Time: O(n log n) a
 * round, at most log2(n) + 1 rounds in practice (each round about halves
 * what is left on a cut packing), and a pass of trials O(stacks * n log n);
 * the rounds stop when one merges nothing, or at %TA_CONTRACT_ROUNDS.
 */
#include "ta_contract.h"
#include "ta_search.h"
#include "ta_climb.h"
#include "ta_tile.h"
#include "ta_plan_helpers.h"

#define TA_CONTRACT_STACK	1
#define TA_CONTRACT_CHAIN	2
#define TA_CONTRACT_PINWHEEL	3
/* a stack taken apart again (ta_contract_repair()): nothing to expand */
#define TA_CONTRACT_UNDONE	4
/* nodes per buffer of the problem: the buffers, merges, merges again */
#define TA_CONTRACT_NODES	4
/* passes of trials (ta_contract_trials()) per way of merging */
#define TA_CONTRACT_TRIALS	4
/* in @hold: a member of the stack (else a stack node in it) */
#define TA_CONTRACT_MEMBER	BIT(31)
/* rounds of merges, at most (each merges at least one pair) */
#define TA_CONTRACT_ROUNDS	64
/* pinwheel arms tried per centre and side, at most */
#define TA_CONTRACT_ARMS	32
/* ways to merge (forward or mirrored in time, stacks or chains first) */
#define TA_CONTRACT_VARIANTS	8
/*
 * careful ways, run first (ta_contract_variant()); the last two with a
 * middle rung
 */
#define TA_CONTRACT_CAREFUL	4
/*
 * A random draw's share of the time left: many short draws (a draw with
 * a wrong merge has no tiling however long it is searched), each merged,
 * tiled and climbed, without the branch and bound
 */
#define TA_CONTRACT_DRAW_SHARE	16

/* One buffer of the merged problem, or one that was merged away. */
struct ta_contract_node {
	u64 size;
	u32 start, end;
	u32 kind;	/* 0: a buffer of the problem, else how merged */
	u32 n_child;
	u32 child[5];	/* bottom first; a pinwheel's in the order below */
	u32 alive;	/* a buffer of the merged problem now */
};

/* A sort key: what the rules compare, and the node. */
struct ta_contract_key {
	u64 size;
	u32 t1, t2;	/* the times the rule sorts by, in order */
	u32 id;
};

struct ta_contract {
	struct ta_contract_node *node;	/* the problem's, then merges */
	u32 max_nodes;			/* room in @node */
	u32 *todo;			/* a walk through a stack */
	u32 *hold;			/* a stack taken apart on trial */
	u32 *cand;			/* the stacks to try that on */
	u32 n_nodes;
	struct ta_contract_key *by;	/* alive nodes, sorted for a rule */
	u32 n_by;			/* how many, as last sorted */
	struct ta_contract_key *by2;
	u8 *used;			/* merged in this round */
	u32 *ends, *starts;		/* alive ids by end, by start */
	u64 rng;			/* 0, or a draw to skip merges by */
	u32 careful;			/* 2, 1: careful merges; 0: all */
	u32 mid;			/* 1: a middle rung to come; 2: on */
};

/*
 * With a draw (@c->rng not 0), skip one merge in @one_in at random: where
 * a merge is wrong (its buffers lie apart in every plan at the bound),
 * another draw may merge around it.
 */
static bool ta_contract_skip(struct ta_contract *c, u32 one_in)
{
	if (!c->rng)
		return false;
	return (u32)ta_xorshift64(&c->rng) % one_in == 0;
}

static int ta_contract_key_cmp(const void *a, const void *b)
{
	const struct ta_contract_key *x = a, *y = b;

	if (x->t1 != y->t1)
		return x->t1 < y->t1 ? -1 : 1;
	if (x->t2 != y->t2)
		return x->t2 < y->t2 ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Merge @k nodes @ids into a new one of @kind. Return: its id. */
static u32 ta_contract_merge(struct ta_contract *c, const u32 *ids, u32 k,
			     u32 kind, u32 start, u32 end, u64 size)
{
	struct ta_contract_node *m = &c->node[c->n_nodes];
	u32 i;

	m->kind = kind;
	m->n_child = k;
	m->start = start;
	m->end = end;
	m->size = size;
	m->alive = 1;
	for (i = 0; i < k; i++) {
		m->child[i] = ids[i];
		c->node[ids[i]].alive = 0;
		c->used[ids[i]] = 1;
	}
	c->used[c->n_nodes] = 1;
	return c->n_nodes++;
}

/*
 * The alive nodes into @by, keyed by (start, end) when @by_life, else by
 * (end, 0) and into @by2 by (start, 0), all then by size; @by sorted, and
 * @by2 too when @starts (not by life). Return: their count (also in
 * @c->n_by).
 */
static u32 ta_contract_keys(struct ta_contract *c, bool by_life, bool starts)
{
	u32 i, k = 0;

	for (i = 0; i < c->n_nodes; i++) {
		const struct ta_contract_node *x = &c->node[i];

		c->used[i] = 0;
		if (!x->alive)
			continue;
		c->by[k] = (struct ta_contract_key){ .size = x->size,
			.t1 = by_life ? x->start : x->end,
			.t2 = by_life ? x->end : 0, .id = i };
		c->by2[k] = (struct ta_contract_key){ .size = x->size,
			.t1 = x->start, .t2 = by_life ? x->end : 0, .id = i };
		k++;
	}
	ta_env_sort(c->by, k, sizeof(*c->by), ta_contract_key_cmp);
	if (!by_life && starts)
		ta_env_sort(c->by2, k, sizeof(*c->by2), ta_contract_key_cmp);
	c->n_by = k;
	return k;
}

/* The first of the @k keys in @by with t1 > @t (@past) or t1 >= @t. */
static u32 ta_contract_from(const struct ta_contract_key *by, u32 k, u32 t,
			    bool past)
{
	u32 lo = 0, hi = k;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (by[mid].t1 < t || (past && by[mid].t1 == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How many keys of the @k in @by have t1 == @t. */
static u32 ta_contract_count(const struct ta_contract_key *by, u32 k, u32 t)
{
	return ta_contract_from(by, k, t, true) -
	       ta_contract_from(by, k, t, false);
}

/*
 * Whether the @g nodes with one lifetime at @by[@i] would make a stack
 * that is rarely wrong: exactly two, and no other node starting when
 * they start or none ending when they end (@c->by2 sorted by end); on the
 * middle rung (@c->mid 2) every pair.
 * Counted on pinwheel packings, such a pair was wrong 3 times in 186,
 * against 49 in 310 for a pair with others starting and ending then and
 * 46 in 109 for three or more.
 */
static bool ta_contract_sure(const struct ta_contract *c, u32 k, u32 i,
			     u32 g)
{
	const struct ta_contract_key *x = &c->by[i];

	if (g != 2)
		return false;
	if (c->mid > 1)
		return true;
	return ta_contract_count(c->by, k, x->t1) == g ||
	       ta_contract_count(c->by2, k, x->t2) == g;
}

/* One round of stacks. Return: how many merged. */
static u32 ta_contract_stacks(struct ta_contract *c)
{
	u32 k = ta_contract_keys(c, true, false), i, merged = 0, top, pair[2];

	if (c->careful) {
		/* by2 by end: the nodes ending at a moment, counted */
		for (i = 0; i < k; i++) {
			c->by2[i].t1 = c->by2[i].t2;
			c->by2[i].t2 = 0;
		}
		ta_env_sort(c->by2, k, sizeof(*c->by2), ta_contract_key_cmp);
	}
	for (i = 0; i < k; i = top) {
		const struct ta_contract_key *x = &c->by[i];

		if (c->careful) {
			for (top = i + 1; top < k && c->by[top].t1 == x->t1 &&
			     c->by[top].t2 == x->t2; top++)
				;
			if (!ta_contract_sure(c, k, i, top - i))
				continue;
		}
		pair[0] = x->id;
		for (top = i + 1; top < k; top++) {
			const struct ta_contract_key *y = &c->by[top];

			if (x->t1 != y->t1 || x->t2 != y->t2)
				break;
			if (ta_contract_skip(c, 4))
				continue;
			pair[1] = y->id;
			pair[0] = ta_contract_merge(c, pair, 2, TA_CONTRACT_STACK,
						    x->t1, x->t2,
						    c->node[pair[0]].size +
						    y->size);
			merged++;
		}
	}
	return merged;
}

static bool ta_contract_same(const struct ta_contract_key *a,
			     const struct ta_contract_key *b)
{
	return a->t1 == b->t1 && a->size == b->size;
}

/* One round of chains. Return: how many merged. */
static u32 ta_contract_chains(struct ta_contract *c)
{
	u32 k = ta_contract_keys(c, false, true), i, j = 0, m, merged = 0;
	u32 pair[2];

	for (i = 0; i < k; i++) {
		const struct ta_contract_key *x = &c->by[i], *y;
		bool alone;

		/* the only one of its size ending then (a draw may pair it) */
		alone = !(i && ta_contract_same(&c->by[i - 1], x)) &&
			!(i + 1 < k && ta_contract_same(&c->by[i + 1], x));
		if (!alone && !c->rng)
			continue;
		/*
		 * careful: only when nothing else ends then (forced: only its
		 * bytes are freed), or at most three (wrong 14 times in 226
		 * on pinwheels, against 78 in 213 with more)
		 */
		if (c->careful && ta_contract_count(c->by, k, x->t1) >
				  (c->careful > 1 ? 1 : 3))
			continue;
		while (j < k && (c->by2[j].t1 < x->t1 ||
				 (c->by2[j].t1 == x->t1 &&
				  c->by2[j].size < x->size)))
			j++;
		if (j == k)
			break;
		y = &c->by2[j];
		if (!ta_contract_same(y, x))
			continue;
		/* the buffers of that size starting then */
		for (m = j + 1; m < k && ta_contract_same(&c->by2[m], y); m++)
			;
		if (m - j > 1 || !alone) {
			/* not alone: only a draw pairs them, at random */
			if (!c->rng || ta_contract_skip(c, 2))
				continue;
			y = &c->by2[j + (u32)c->rng % (m - j)];
		}
		if (c->used[x->id] || c->used[y->id] || ta_contract_skip(c, 8))
			continue;
		pair[0] = x->id;
		pair[1] = y->id;
		ta_contract_merge(c, pair, 2, TA_CONTRACT_CHAIN,
				  c->node[x->id].start, c->node[y->id].end,
				  x->size);
		merged++;
	}
	return merged;
}

/*
 * The alive node of lifetime [@s, @e) and @size in @by (sorted by start,
 * end, size), not merged this round. Return: its id, or U32_MAX.
 */
static u32 ta_contract_find(const struct ta_contract *c, u32 k, u32 s, u32 e,
			    u64 size)
{
	struct ta_contract_key want = { .size = size, .t1 = s, .t2 = e };
	u32 lo = 0, hi = k;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);

		if (ta_contract_key_cmp(&c->by[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < k; lo++) {
		const struct ta_contract_key *x = &c->by[lo];

		if (x->t1 != s || x->t2 != e || x->size != size)
			break;
		if (!c->used[x->id])
			return x->id;
	}
	return U32_MAX;
}

/* The first of @k ids in @ids whose node's end (or start) is >= @t. */
static u32 ta_contract_first(const struct ta_contract *c, const u32 *ids,
			     u32 k, u32 t, bool by_end)
{
	u32 lo = 0, hi = k;

	while (lo < hi) {
		u32 mid = lo + ((hi - lo) >> 1);
		const struct ta_contract_node *x = &c->node[ids[mid]];

		if ((by_end ? x->end : x->start) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * One round of pinwheels: five buffers around a moment a < b, with t0 <
 * a and b < t1, that fill a rectangle [t0, t1) x H with no straight cut:
 *
 *	long left   [t0, b)  s2		at the bottom
 *	short left  [t0, a)  s1		on the long left arm
 *	centre      [a, b)   s3		on the long left arm
 *	long right  [a, t1)  s4		at the top
 *	short right [b, t1)  s5		at the bottom
 *
 * with s1 = s3 + s4 and s5 = s2 + s3 (H = s1 + s2 = s4 + s5). With
 * @ends_ready, @c->by already holds the alive nodes by end (a round of
 * chains that merged nothing just sorted them). Return: how many merged.
 */
static u32 ta_contract_pinwheels(struct ta_contract *c, bool ends_ready)
{
	u32 k, i, merged = 0;

	k = ends_ready ? c->n_by : ta_contract_keys(c, false, false);
	for (i = 0; i < k; i++)
		c->ends[i] = c->by[i].id;
	/* by start, end, size: the lookups and the long right arms */
	k = ta_contract_keys(c, true, false);
	for (i = 0; i < k; i++)
		c->starts[i] = c->by[i].id;
	for (i = 0; i < k; i++) {
		const struct ta_contract_node *x3 = &c->node[c->starts[i]];
		u32 a = x3->start, b = x3->end, p, q, tried = 0;
		bool done = false;

		if (c->used[c->starts[i]])
			continue;
		/* long left arms end at b, long right arms start at a */
		p = ta_contract_first(c, c->ends, k, b, true);
		for (; p < k && !done && c->node[c->ends[p]].end == b &&
		     tried < TA_CONTRACT_ARMS; p++) {
			const struct ta_contract_node *x2 = &c->node[c->ends[p]];

			if (x2->start >= a || c->used[c->ends[p]])
				continue;
			tried++;
			q = ta_contract_first(c, c->starts, k, a, false);
			for (; q < k && c->node[c->starts[q]].start == a; q++) {
				const struct ta_contract_node *x4 =
					&c->node[c->starts[q]];
				u32 ids[5];

				if (x4->end <= b || c->used[c->starts[q]])
					continue;
				ids[0] = c->ends[p];
				ids[1] = ta_contract_find(c, k, x2->start, a,
							  x3->size + x4->size);
				ids[2] = c->starts[i];
				ids[3] = c->starts[q];
				ids[4] = ta_contract_find(c, k, b, x4->end,
							  x2->size + x3->size);
				if (ids[1] == U32_MAX || ids[4] == U32_MAX)
					continue;
				ta_contract_merge(c, ids, 5,
						  TA_CONTRACT_PINWHEEL,
						  x2->start, x4->end,
						  x2->size + c->node[ids[1]].size);
				merged++;
				done = true;
				break;
			}
		}
	}
	return merged;
}

/*
 * In the stack of same-lifetime nodes under @m, a node of @size; take the
 * stack apart when there is one (its members alive again) and return it,
 * else U32_MAX.
 */
static u32 ta_contract_unstack(struct ta_contract *c, u32 m, u64 size)
{
	u32 nt = 0, i, found = U32_MAX;

	c->todo[nt++] = m;
	while (nt) {
		const struct ta_contract_node *x = &c->node[c->todo[--nt]];

		if (x->kind != TA_CONTRACT_STACK) {
			if (x->size == size && found == U32_MAX)
				found = c->todo[nt];
			continue;
		}
		for (i = 0; i < x->n_child; i++)
			c->todo[nt++] = x->child[i];
	}
	if (found == U32_MAX)
		return found;
	c->todo[nt++] = m;
	while (nt) {
		struct ta_contract_node *x = &c->node[c->todo[--nt]];

		x->alive = 1;
		if (x->kind != TA_CONTRACT_STACK)
			continue;
		x->alive = 0;
		x->kind = TA_CONTRACT_UNDONE;
		for (i = 0; i < x->n_child; i++)
			c->todo[nt++] = x->child[i];
	}
	return found;
}

/*
 * When the rounds merge nothing more: a stack may have taken a node whose
 * place was in a chain (two buffers with the same lifetime, from regions
 * that do not touch). For a node that no chain continues, a stack ending
 * when it starts (or starting when it ends) with a member of its size is
 * taken apart, and that member and the node chained. Return: how many.
 */
static u32 ta_contract_repair(struct ta_contract *c)
{
	u32 k = ta_contract_keys(c, false, true), i, p, merged = 0, pair[2];
	u32 side;

	for (i = 0; i < k; i++) {
		c->ends[i] = c->by[i].id;
		c->starts[i] = c->by2[i].id;
	}
	for (i = 0; i < k; i++) {
		for (side = 0; side < 2; side++) {
			const struct ta_contract_node *b =
				&c->node[c->starts[i]];
			u32 t = side ? b->end : b->start, m, x;

			if (c->used[c->starts[i]])
				break;
			p = ta_contract_first(c, side ? c->starts : c->ends, k,
					      t, !side);
			for (; p < k; p++) {
				m = side ? c->starts[p] : c->ends[p];
				if ((side ? c->node[m].start :
					    c->node[m].end) != t)
					break;
				if (c->used[m] || c->node[m].size == b->size ||
				    c->node[m].kind != TA_CONTRACT_STACK)
					continue;
				x = ta_contract_unstack(c, m, b->size);
				if (x == U32_MAX)
					continue;
				c->used[m] = 1;
				pair[side ? 0 : 1] = c->starts[i];
				pair[side ? 1 : 0] = x;
				ta_contract_merge(c, pair, 2, TA_CONTRACT_CHAIN,
						  c->node[pair[0]].start,
						  c->node[pair[1]].end,
						  b->size);
				merged++;
				break;
			}
		}
	}
	return merged;
}

/*
 * Take the stack under @m apart, its nodes kept in @c->hold to put back.
 * Return: how many kept.
 */
static u32 ta_contract_dissolve(struct ta_contract *c, u32 m)
{
	u32 nt = 0, nh = 0, i;

	c->todo[nt++] = m;
	while (nt) {
		u32 id = c->todo[--nt];
		struct ta_contract_node *x = &c->node[id];

		if (x->kind != TA_CONTRACT_STACK) {
			x->alive = 1;
			c->hold[nh++] = id | TA_CONTRACT_MEMBER;
			continue;
		}
		x->alive = 0;
		x->kind = TA_CONTRACT_UNDONE;
		c->hold[nh++] = id;
		for (i = 0; i < x->n_child; i++)
			c->todo[nt++] = x->child[i];
	}
	return nh;
}

/* Put back the stack under @m that ta_contract_dissolve() took apart. */
static void ta_contract_restore(struct ta_contract *c, u32 m, u32 nh)
{
	u32 i;

	for (i = 0; i < nh; i++) {
		u32 id = c->hold[i] & ~TA_CONTRACT_MEMBER;

		c->node[id].alive = 0;
		if (!(c->hold[i] & TA_CONTRACT_MEMBER))
			c->node[id].kind = TA_CONTRACT_STACK;
	}
	c->node[m].alive = 1;
}

/*
 * When nothing merges, not even by ta_contract_repair(): a stack may hold
 * a piece of a pinwheel, or of a chain that is not alone. Each stack in
 * turn is taken apart, and kept apart when chains and pinwheels then merge
 * something (its members found their places); else it is put back. The
 * rounds then stack what is left again. Return: how many merged.
 */
static u32 ta_contract_trials(struct ta_contract *c, u32 n,
			      struct ta_work *lim)
{
	u32 i, k = 0, merged = 0, nh, got;

	for (i = 0; i < c->n_nodes; i++)
		if (c->node[i].alive && c->node[i].kind == TA_CONTRACT_STACK)
			c->cand[k++] = i;
	for (i = 0; i < k; i++) {
		u32 m = c->cand[i];

		if (!c->node[m].alive || c->node[m].kind != TA_CONTRACT_STACK)
			continue;
		if (c->n_nodes + n > c->max_nodes ||
		    ta_work_add(lim, 32 * (u64)k) || ta_work_limit_hit(lim))
			break;
		nh = ta_contract_dissolve(c, m);
		got = ta_contract_chains(c);
		got += ta_contract_pinwheels(c, !got);
		if (got)
			merged += got;
		else
			ta_contract_restore(c, m, nh);
	}
	return merged;
}

static int ta_contract_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Is @p a packing with no slack: the same live bytes at every moment of
 * its span, every size a multiple of every alignment? @times: room for
 * 2n values, @live: for 2n + 1. Return: true then.
 */
static bool ta_contract_flat(const struct ta_problem *p, u32 *times,
			     u64 *live)
{
	u32 n = p->n_buffers, i, nt = 0, t = 0;
	u64 max_align = 1, acc = 0;

	for (i = 0; i < n; i++)
		if (p->buffers[i].align > max_align)
			max_align = p->buffers[i].align;
	for (i = 0; i < n; i++) {
		if (!p->buffers[i].size || p->buffers[i].size & (max_align - 1))
			return false;
		times[nt++] = p->buffers[i].start;
		times[nt++] = p->buffers[i].end;
	}
	ta_env_sort(times, nt, sizeof(*times), ta_contract_cmp_u32);
	for (i = 0; i < nt; i++)
		if (!t || times[t - 1] != times[i])
			times[t++] = times[i];
	for (i = 0; i <= t; i++)
		live[i] = 0;
	/* a difference array over the sections (wrapping u64 arithmetic) */
	for (i = 0; i < n; i++) {
		live[ta_search_index(times, t, p->buffers[i].start)] +=
			p->buffers[i].size;
		live[ta_search_index(times, t, p->buffers[i].end)] -=
			p->buffers[i].size;
	}
	for (i = 0; i + 1 < t; i++) {
		acc += live[i];
		if (i && acc != live[t])
			return false;
		live[t] = acc;
	}
	return true;
}

int ta_contract_is_flat(const struct ta_problem *p)
{
	u32 n = p->n_buffers;
	u32 *times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*times));
	u64 *live = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*live));
	int ret = -ENOMEM;

	if (times && live)
		ret = n > 1 && ta_contract_flat(p, times, live);
	ta_env_free(times);
	ta_env_free(live);
	return ret;
}

/* Offsets of every node from the merged problem's (the alive nodes'). */
static void ta_contract_expand(const struct ta_contract *c, u64 *node_off)
{
	u32 i;

	for (i = c->n_nodes; i-- > 0;) {
		const struct ta_contract_node *m = &c->node[i];
		u64 o = node_off[i];
		const u32 *ch = m->child;

		switch (m->kind) {
		case TA_CONTRACT_STACK:
			node_off[ch[0]] = o;
			node_off[ch[1]] = o + c->node[ch[0]].size;
			break;
		case TA_CONTRACT_CHAIN:
			node_off[ch[0]] = o;
			node_off[ch[1]] = o;
			break;
		case TA_CONTRACT_PINWHEEL:
			/* long left, short left, centre, long right, short right */
			node_off[ch[0]] = o;
			node_off[ch[1]] = o + c->node[ch[0]].size;
			node_off[ch[2]] = o + c->node[ch[0]].size;
			node_off[ch[3]] = o + m->size - c->node[ch[3]].size;
			node_off[ch[4]] = o;
			break;
		default:
			break;
		}
	}
}

/* The problem's buffers as nodes, mirrored in time for @variant & 1. */
static void ta_contract_start(struct ta_contract *c, const struct ta_problem *p,
			      u32 variant, u32 last)
{
	u32 i;

	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		c->node[i] = (struct ta_contract_node){ .size = b->size,
			.start = variant & 1 ? last - b->end : b->start,
			.end = variant & 1 ? last - b->start : b->end,
			.alive = 1 };
	}
	c->n_nodes = p->n_buffers;
}

/*
 * Rounds of merges (@variant & 2: chains before stacks) until one merges
 * nothing, with @trials passes of ta_contract_trials() left. Return: 0,
 * or as ta_work_add().
 */
static int ta_contract_rounds(struct ta_contract *c, u32 n, u32 variant,
			      struct ta_work *lim, u32 *trials)
{
	u32 round, merged, chained;
	bool ends_ready;
	int ret;

	for (round = 0; round < TA_CONTRACT_ROUNDS; round++) {
		if (variant & 2) {
			merged = ta_contract_chains(c);
			merged += ta_contract_stacks(c);
			ends_ready = false;	/* the stacks sorted by lifetime */
		} else {
			merged = ta_contract_stacks(c);
			chained = ta_contract_chains(c);
			merged += chained;
			ends_ready = !chained;
		}
		merged += ta_contract_pinwheels(c, ends_ready);
		/* stuck: a stack in the way of a chain, taken apart */
		if (!merged)
			merged = ta_contract_repair(c);
		if (!merged && !c->rng && *trials) {
			(*trials)--;
			merged = ta_contract_trials(c, n, lim);
		}
		ret = ta_work_add(lim, 64 * (u64)c->n_nodes);
		if (ret)
			return ret;
		/* a round merges fewer than n: room for one more, always */
		if (!merged || c->n_nodes + n > c->max_nodes)
			break;
	}
	return 0;
}

/*
 * The alive nodes as the merged problem's buffers (their ids in
 * @c->ends), with a first plan that stacks them all. Return: how many.
 */
static u32 ta_contract_problem(struct ta_contract *c, u64 max_align,
			       struct ta_buffer *mb, u64 *m_off, u64 *height)
{
	u32 i, k = 0;

	*height = 0;
	for (i = 0; i < c->n_nodes; i++) {
		if (!c->node[i].alive)
			continue;
		c->ends[k] = i;
		mb[k] = (struct ta_buffer){ .size = c->node[i].size,
			.align = max_align, .start = c->node[i].start,
			.end = c->node[i].end };
		m_off[k] = *height;
		*height += mb[k].size;
		k++;
	}
	return k;
}

/*
 * Merge in rounds, then search the merged problem from a plan that
 * stacks it all: the tiling search, then the climb and (not in a random
 * draw) the branch and bound. A careful way (@c->careful 2) first merges
 * only what is rarely wrong (ta_contract_sure(), chains forced by being
 * the only node ending then), gives that to the tiling search with a
 * third of @lim, and when it finds no tiling merges more on top: chains
 * with at most three nodes ending then (@c->careful 1), with @c->mid 1
 * then every stack of two nodes too (@c->mid 2), then every merge, as
 * the other ways.
 * Return: 0 with its plan expanded into @node_off and its height in
 * *@height, 1 when it merged too little to be worth a search, or as
 * ta_search_skyline().
 */
static int ta_contract_variant(struct ta_contract *c, u32 n, u32 variant,
			       u64 lower_bound, u64 max_align,
			       struct ta_work *lim, struct ta_buffer *mb,
			       u64 *m_off, u64 *node_off, u64 *height,
			       bool *proven)
{
	struct ta_problem mp = { .buffers = mb };
	struct ta_work climb;
	u32 i, trials;
	int ret;

	if (c->careful) {
		/* too little merged without trials: no trials (a cut) */
		trials = 0;
		ret = ta_contract_rounds(c, n, variant, lim, &trials);
		if (ret)
			return ret;
		if (4 * (u64)ta_contract_problem(c, max_align, mb, m_off,
						 height) > 3 * (u64)n)
			return 1;
	}
	for (;;) {
		trials = TA_CONTRACT_TRIALS;
		ret = ta_contract_rounds(c, n, variant, lim, &trials);
		if (ret)
			return ret;
		mp.n_buffers = ta_contract_problem(c, max_align, mb, m_off,
						   height);
		/* merged less than a quarter away: the search does as well */
		if (4 * (u64)mp.n_buffers > 3 * (u64)n)
			return 1;
		climb = ta_work_share(lim, c->careful ? 3 : 2);
		ret = ta_tile(&mp, lower_bound, &climb, m_off, height);
		ta_work_spent(lim, &climb);
		if (ret < 0)
			return ret;
		if (!ret) {
			*proven = true;
			for (i = 0; i < mp.n_buffers; i++)
				node_off[c->ends[i]] = m_off[i];
			ta_contract_expand(c, node_off);
			return 0;
		}
		if (!c->careful)
			break;
		/*
		 * a middle way, after the careful chains: every stack of
		 * exactly two nodes too, then every merge on top of that
		 */
		if (c->careful == 1 && c->mid == 1) {
			c->mid = 2;
			continue;
		}
		/* no tiling of the careful merges: the rest on top of them */
		c->careful--;
	}
	/* a first plan better than the stack: a few constructions */
	climb = ta_work_share(lim, 16);
	ret = ta_climb(&mp, lower_bound, &climb, m_off, height);
	ta_work_spent(lim, &climb);
	if (ret)
		return ret == -E2BIG ? 1 : ret;
	/* a draw leaves the branch and bound's time to the next draws */
	ret = c->rng ? 0 : ta_search_skyline(&mp, lower_bound, lim, m_off,
					     height, proven);
	if (ret)
		return ret == -E2BIG ? 1 : ret;
	for (i = 0; i < mp.n_buffers; i++)
		node_off[c->ends[i]] = m_off[i];
	ta_contract_expand(c, node_off);
	return 0;
}

static void ta_contract_free(struct ta_contract *c)
{
	ta_env_free(c->node);
	ta_env_free(c->by);
	ta_env_free(c->by2);
	ta_env_free(c->used);
	ta_env_free(c->todo);
	ta_env_free(c->hold);
	ta_env_free(c->cand);
	ta_env_free(c->ends);
	ta_env_free(c->starts);
}

int ta_contract_search(const struct ta_problem *p, u64 lower_bound,
		       struct ta_work *lim, u64 *offsets, u64 *height,
		       bool *proven)
{
	struct ta_contract c = { 0 };
	struct ta_buffer *mb = NULL;
	u64 *node_off = NULL, *m_off = NULL, max_align = 1, h, bytes, inner = 0;
	u32 n = p->n_buffers, i, v, way, last = 0, few = 0;
	bool changed = false, worth = false, m_proven;
	int ret = -ENOMEM;

	*proven = false;
	if (n < 2 || n > TA_SEARCH_MAX_BUFFERS)
		return 1;
	c.ends = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*c.ends));
	node_off = ta_env_alloc_array(TA_CONTRACT_NODES * (size_t)n + 1,
				      sizeof(*node_off));
	if (!c.ends || !node_off)
		goto out;
	ret = 2;
	if (!ta_contract_flat(p, c.ends, node_off))
		goto out;
	ret = -ENOMEM;
	c.max_nodes = TA_CONTRACT_NODES * n;
	c.node = ta_env_alloc_array(c.max_nodes, sizeof(*c.node));
	c.by = ta_env_alloc_array(2 * (size_t)n, sizeof(*c.by));
	c.by2 = ta_env_alloc_array(2 * (size_t)n, sizeof(*c.by2));
	c.used = ta_env_alloc_array(c.max_nodes, sizeof(*c.used));
	c.todo = ta_env_alloc_array(c.max_nodes, sizeof(*c.todo));
	c.hold = ta_env_alloc_array(c.max_nodes, sizeof(*c.hold));
	c.cand = ta_env_alloc_array(n, sizeof(*c.cand));
	c.starts = ta_env_alloc_array(2 * (size_t)n, sizeof(*c.starts));
	mb = ta_env_alloc_array(n, sizeof(*mb));
	m_off = ta_env_alloc_array(n, sizeof(*m_off));
	if (!c.node || !c.by || !c.by2 || !c.used || !c.todo || !c.hold ||
	    !c.cand || !c.starts ||
	    !mb ||
	    !m_off)
		goto out;
	bytes = (u64)c.max_nodes * (sizeof(*c.node) + sizeof(*c.used) +
				     2 * sizeof(*c.todo) + sizeof(*node_off)) +
		(u64)n * sizeof(*c.cand) +
		2 * (u64)n * (2 * sizeof(*c.by) + 2 * sizeof(*c.ends)) +
		(u64)n * (sizeof(*mb) + sizeof(*m_off));
	for (i = 0; i < n; i++) {
		if (p->buffers[i].align > max_align)
			max_align = p->buffers[i].align;
		if (p->buffers[i].end > last)
			last = p->buffers[i].end;
	}
	/*
	 * The careful ways, the four others in turn, then draws that skip
	 * merges at random, each with a share of what is left
	 * (1/%TA_CONTRACT_DRAW_SHARE for a draw), until the bound or the
	 * budget
	 */
	for (v = 0; !*proven; v++) {
		struct ta_work part;

		/* the careful ways first, then the others and draws as before */
		way = v < TA_CONTRACT_CAREFUL ? v & 1 : v - TA_CONTRACT_CAREFUL;
		part = ta_work_share(lim, v < TA_CONTRACT_VARIANTS ? 8 - way :
				     TA_CONTRACT_DRAW_SHARE);
		if (ta_work_limit_hit(lim))
			break;
		/* its careful rounds merged too little the first time (a cut) */
		if (v < TA_CONTRACT_CAREFUL && (few & BIT(way)))
			continue;
		ta_contract_start(&c, p, way, last);
		/* the draws' seeds as before the careful ways were added */
		c.rng = v < TA_CONTRACT_VARIANTS ? 0 :
			0x9e3779b97f4a7c15ULL * (v - 3);
		c.careful = v < TA_CONTRACT_CAREFUL ? 2 : 0;
		c.mid = v < TA_CONTRACT_CAREFUL && v >= 2;
		m_proven = false;
		ret = ta_contract_variant(&c, n, way, lower_bound, max_align,
					  &part, mb, m_off, node_off, &h,
					  &m_proven);
		ta_work_spent(lim, &part);
		if (part.bytes > inner)
			inner = part.bytes;
		if (ret < 0)
			goto out;
		worth |= ret != 1;
		if (v < TA_CONTRACT_CAREFUL && ret == 1)
			few |= BIT(way);
		/* too little merged every way: no draw merges more */
		if (v + 1 == TA_CONTRACT_VARIANTS && !worth)
			break;
		if (ret == 1 || h >= *height)
			continue;
		for (i = 0; i < n; i++)
			offsets[i] = node_off[i];
		*height = h;
		*proven = h <= lower_bound;
		changed = true;
	}
	ret = changed ? 0 : 1;
	/* what it holds, and the most a search of a merged problem took */
	if (lim->bytes < bytes + inner)
		lim->bytes = bytes + inner;
out:
	ta_contract_free(&c);
	ta_env_free(node_off);
	ta_env_free(mb);
	ta_env_free(m_off);
	return ret;
}
