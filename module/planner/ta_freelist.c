// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_freelist.c - the execution-order free list.
 *
 * Walk the steps in order. At each step the blocks of buffers whose
 * lifetime has ended are released first and merged with free neighbours;
 * then the buffers that start at this step are allocated, largest first
 * (ties: lower index). A buffer takes the best-fitting free block: the
 * smallest block it fits in at its alignment, the lowest one on a tie. When
 * no free block fits, the arena grows: the buffer goes on top, reusing the
 * free block at the top if there is one.
 *
 * Why best fit: tensors of one network come in few sizes, so an exact or
 * near-exact hole is often free; taking it keeps the large holes whole for
 * the large tensors that come later, where first fit cuts them up and the
 * arena grows. Known to fragment less than first or next fit on such
 * workloads, and exact best fit costs little with the free tree below.
 *
 * Structures: every block, used or free, is a node of one list in address
 * order, so releasing merges with the neighbours in O(1); free blocks are
 * also kept in one binary search tree ordered by length, then offset (a
 * treap: heap-ordered on a fixed scramble of the node's index, so its depth
 * is O(log n) as a random one's, and the planner stays deterministic). The
 * best fit is the first block in that order of at least the buffer's size
 * whose padding for the alignment fits too: O(log n) to the first, then
 * in order (with alignment 1, the first is it). The size classes this
 * replaces scanned every block of a class, O(n) a buffer when a class
 * holds many blocks too short for it (a trace built that way, 60,000
 * buffers, took 1.1 s; now 86 ms). The space above the top is one "tail"
 * block of unbounded length that the tree does not hold. Free blocks
 * are never adjacent, so there are at most 2n + 1 blocks; nodes are taken
 * from one array allocated up front. About 100 bytes per buffer.
 */
#include "ta_bits.h"
#include "ta_plan_helpers.h"
#include "ta_sort.h"
#include "ta_strategy.h"

#define TA_FL_NIL	U32_MAX

struct ta_fl_block {
	u64 off;
	u64 len;		/* unused for the tail */
	u32 prev, next;		/* address order */
	u32 up, kid[2];		/* the free tree, free blocks only */
	u32 free;
};

struct ta_fl {
	struct ta_fl_block *blk;
	u32 *spare;		/* stack of unused nodes */
	u32 n_spare;
	u32 tail;
	u32 root;		/* of the free tree */
};

/*
 * The free tree's heap priority of node @k: a fixed scramble of its index
 * (Knuth's multiplicative hash), so the shape is that of a random treap
 * and the planner stays deterministic.
 */
static u32 ta_fl_prio(u32 k)
{
	return k * 2654435761U;
}

/* Whether free block @a comes before @b: shorter, then lower. */
static bool ta_fl_before(const struct ta_fl_block *a,
			 const struct ta_fl_block *b)
{
	return a->len < b->len || (a->len == b->len && a->off < b->off);
}

/* Point @k's parent (or the root) at @to instead of @k. */
static void ta_fl_relink(struct ta_fl *fl, u32 k, u32 to)
{
	u32 p = fl->blk[k].up;

	if (to != TA_FL_NIL)
		fl->blk[to].up = p;
	if (p == TA_FL_NIL)
		fl->root = to;
	else
		fl->blk[p].kid[fl->blk[p].kid[1] == k] = to;
}

/* Rotate node @k above its parent. */
static void ta_fl_rotate_up(struct ta_fl *fl, u32 k)
{
	u32 p = fl->blk[k].up;
	u32 side = fl->blk[p].kid[1] == k;
	u32 inner = fl->blk[k].kid[!side];

	ta_fl_relink(fl, p, k);
	fl->blk[p].kid[side] = inner;
	if (inner != TA_FL_NIL)
		fl->blk[inner].up = p;
	fl->blk[k].kid[!side] = p;
	fl->blk[p].up = k;
}

static u32 ta_fl_new(struct ta_fl *fl)
{
	return fl->spare[--fl->n_spare];
}

static void ta_fl_put(struct ta_fl *fl, u32 k)
{
	fl->spare[fl->n_spare++] = k;
}

/* Add free block @k to the free tree; @work counts the nodes visited. */
static void ta_fl_tree_add(struct ta_fl *fl, u32 k, u64 *work)
{
	struct ta_fl_block *b = &fl->blk[k];
	u32 p = TA_FL_NIL, at = fl->root, side = 0;

	while (at != TA_FL_NIL) {
		(*work)++;
		p = at;
		side = !ta_fl_before(b, &fl->blk[at]);
		at = fl->blk[at].kid[side];
	}
	b->up = p;
	b->kid[0] = TA_FL_NIL;
	b->kid[1] = TA_FL_NIL;
	if (p == TA_FL_NIL)
		fl->root = k;
	else
		fl->blk[p].kid[side] = k;
	while (b->up != TA_FL_NIL && ta_fl_prio(k) > ta_fl_prio(b->up)) {
		(*work)++;
		ta_fl_rotate_up(fl, k);
	}
}

/*
 * Take free block @k out of the free tree: rotated down below its
 * children (the one of higher priority goes up) until it has at most one,
 * which takes its place.
 */
static void ta_fl_tree_del(struct ta_fl *fl, u32 k, u64 *work)
{
	struct ta_fl_block *b = &fl->blk[k];

	while (b->kid[0] != TA_FL_NIL && b->kid[1] != TA_FL_NIL) {
		(*work)++;
		ta_fl_rotate_up(fl, b->kid[ta_fl_prio(b->kid[1]) >
					   ta_fl_prio(b->kid[0])]);
	}
	ta_fl_relink(fl, k, b->kid[b->kid[0] == TA_FL_NIL]);
}

/* The next free block in the tree's order after @k, or TA_FL_NIL. */
static u32 ta_fl_tree_next(const struct ta_fl *fl, u32 k, u64 *work)
{
	u32 c = fl->blk[k].kid[1];

	if (c != TA_FL_NIL) {
		while (fl->blk[c].kid[0] != TA_FL_NIL) {
			(*work)++;
			c = fl->blk[c].kid[0];
		}
		return c;
	}
	for (c = fl->blk[k].up; c != TA_FL_NIL && fl->blk[c].kid[1] == k;
	     c = fl->blk[c].up) {
		(*work)++;
		k = c;
	}
	return c;
}

/* Link node @k into the address list just before node @at. */
static void ta_fl_link_before(struct ta_fl *fl, u32 k, u32 at)
{
	struct ta_fl_block *b = &fl->blk[k];

	b->next = at;
	b->prev = fl->blk[at].prev;
	if (b->prev != TA_FL_NIL)
		fl->blk[b->prev].next = k;
	fl->blk[at].prev = k;
}

static void ta_fl_unlink(struct ta_fl *fl, u32 k)
{
	struct ta_fl_block *b = &fl->blk[k];

	if (b->prev != TA_FL_NIL)
		fl->blk[b->prev].next = b->next;
	if (b->next != TA_FL_NIL)
		fl->blk[b->next].prev = b->prev;
	ta_fl_put(fl, k);
}

/*
 * The best-fitting free block for @size at @align, or TA_FL_NIL; adds the
 * blocks it looked at to *@work.
 */
static u32 ta_fl_find(const struct ta_fl *fl, u64 size, u64 align, u64 *work)
{
	u32 k = fl->root, first = TA_FL_NIL;

	/* the shortest block of at least @size, the lowest among equals */
	while (k != TA_FL_NIL) {
		(*work)++;
		if (fl->blk[k].len >= size) {
			first = k;
			k = fl->blk[k].kid[0];
		} else {
			k = fl->blk[k].kid[1];
		}
	}
	/* then in order until the padding for @align fits too */
	for (k = first; k != TA_FL_NIL; k = ta_fl_tree_next(fl, k, work)) {
		const struct ta_fl_block *b = &fl->blk[k];

		(*work)++;
		if (ta_align_up(b->off, align) + size <= b->off + b->len)
			break;
	}
	return k;
}

/*
 * Carve [off, off + size) out of free block @k; return the used node.
 * @work counts the free tree's nodes visited.
 */
static u32 ta_fl_carve(struct ta_fl *fl, u32 k, u64 off, u64 size,
		       u64 *work)
{
	struct ta_fl_block *b = &fl->blk[k];
	bool tail = k == fl->tail;
	u64 pad = off - b->off;
	u32 u;

	if (!tail)
		ta_fl_tree_del(fl, k, work);
	if (pad) {
		u32 f = ta_fl_new(fl);

		fl->blk[f].off = b->off;
		fl->blk[f].len = pad;
		fl->blk[f].free = 1;
		ta_fl_link_before(fl, f, k);
		ta_fl_tree_add(fl, f, work);
	}
	u = ta_fl_new(fl);
	fl->blk[u].off = off;
	fl->blk[u].len = size;
	fl->blk[u].free = 0;
	ta_fl_link_before(fl, u, k);
	if (!tail)
		b->len -= pad + size;
	b->off = off + size;
	if (!tail) {
		if (b->len)
			ta_fl_tree_add(fl, k, work);
		else
			ta_fl_unlink(fl, k);
	}
	return u;
}

/* Free used node @k and merge it with free neighbours; @work as above. */
static void ta_fl_release(struct ta_fl *fl, u32 k, u64 *work)
{
	struct ta_fl_block *b = &fl->blk[k];
	u32 nb = b->prev;

	if (nb != TA_FL_NIL && fl->blk[nb].free) {
		ta_fl_tree_del(fl, nb, work);
		fl->blk[nb].len += b->len;
		ta_fl_unlink(fl, k);
		k = nb;
		b = &fl->blk[k];
	}
	b->free = 1;
	nb = b->next;
	if (nb == fl->tail) {
		fl->blk[nb].off = b->off;
		ta_fl_unlink(fl, k);
		return;
	}
	if (fl->blk[nb].free) {
		ta_fl_tree_del(fl, nb, work);
		b->len += fl->blk[nb].len;
		ta_fl_unlink(fl, nb);
	}
	ta_fl_tree_add(fl, k, work);
}

/*
 * Allocation order into @alloc (start, then largest first, then index),
 * release order (end << 32 | i) into @rel: stable radix sorts, by size
 * then by start, as greedy-size's order.
 */
static int ta_fl_orders(const struct ta_buffer *bufs, u32 n, u32 *alloc,
			u64 *rel)
{
	/* the keys, then the sorts' scratch: one allocation */
	u64 *key = ta_env_alloc_array(n + 1 + ta_radix_scratch_words(n, true),
				      sizeof(*key));
	u64 *scratch;
	u32 i;

	if (!key)
		return -ENOMEM;
	scratch = key + n + 1;
	for (i = 0; i < n; i++) {
		key[i] = ~bufs[i].size;
		alloc[i] = i;
		rel[i] = (u64)bufs[i].end << 32 | i;
	}
	ta_radix_sort_in(key, alloc, n, scratch);
	for (i = 0; i < n; i++)
		key[i] = bufs[alloc[i]].start;
	ta_radix_sort_in(key, alloc, n, scratch);
	/* made in index order: sorted by end */
	ta_radix_sort_above(rel, NULL, n, scratch, 32);
	ta_env_free(key);
	return 0;
}

static void ta_fl_init(struct ta_fl *fl, u32 nodes)
{
	fl->root = TA_FL_NIL;
	fl->n_spare = 0;
	while (nodes)
		fl->spare[fl->n_spare++] = --nodes;
	fl->tail = ta_fl_new(fl);
	fl->blk[fl->tail].off = 0;
	fl->blk[fl->tail].free = 1;
	fl->blk[fl->tail].prev = TA_FL_NIL;
	fl->blk[fl->tail].next = TA_FL_NIL;
}

static int ta_fl_run(struct ta_fl *fl, const struct ta_buffer *bufs, u32 n,
		     const u32 *alloc, const u64 *rel, u32 *node,
		     u64 *offsets, u64 *height, struct ta_work *w)
{
	u64 top = 0;
	u32 t, r = 0;
	int ret;

	for (t = 0; t < n; t++) {
		u32 i = alloc[t];
		const struct ta_buffer *b = &bufs[i];
		u32 k;
		u64 off;

		ret = ta_work_add(w, 16);
		if (ret)
			return ret;
		for (; r < n && (u32)(rel[r] >> 32) <= b->start; r++) {
			u32 j = (u32)rel[r];

			w->units += 4;
			if (node[j] != TA_FL_NIL)
				ta_fl_release(fl, node[j], &w->units);
			node[j] = TA_FL_NIL;
		}
		offsets[i] = 0;
		node[i] = TA_FL_NIL;
		if (!b->size)
			continue;
		k = ta_fl_find(fl, b->size, b->align, &w->units);
		if (k == TA_FL_NIL)
			k = fl->tail;
		off = ta_align_up(fl->blk[k].off, b->align);
		if (off > TA_PLAN_MAX_HEIGHT ||
		    off + b->size > TA_PLAN_MAX_HEIGHT)
			return -EOVERFLOW;
		node[i] = ta_fl_carve(fl, k, off, b->size, &w->units);
		offsets[i] = off;
		if (off + b->size > top)
			top = off + b->size;
	}
	*height = top;
	return 0;
}

/**
 * ta_plan_freelist() - the freelist strategy
 * @p: the problem, validated by ta_plan_solve()
 * @budget: unused, the free list does not search
 * @offsets: out
 * @res: out, height and steps (one per buffer)
 * @w: work counter
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the height would reach 2^63, -EINTR,
 * -ETIMEDOUT past the deadline.
 */
int ta_plan_freelist(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res, struct ta_work *w)
{
	u32 n = p->n_buffers, nodes = 2 * n + 2;
	struct ta_fl *fl;
	u32 *alloc = NULL, *node = NULL;
	u64 *rel = NULL;
	int ret = -ENOMEM;

	(void)budget;
	fl = ta_env_alloc_array(1, sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	fl->blk = ta_env_alloc_array(nodes, sizeof(*fl->blk));
	fl->spare = ta_env_alloc_array(nodes, sizeof(*fl->spare));
	alloc = ta_env_alloc_array(n, sizeof(*alloc));
	node = ta_env_alloc_array(n, sizeof(*node));
	rel = ta_env_alloc_array(n, sizeof(*rel));
	if (!fl->blk || !fl->spare || !alloc || !node || !rel)
		goto out;
	ret = ta_fl_orders(p->buffers, n, alloc, rel);
	if (ret)
		goto out;
	ta_fl_init(fl, nodes);
	res->steps = n;
	ret = ta_fl_run(fl, p->buffers, n, alloc, rel, node, offsets,
			&res->height, w);
out:
	ta_env_free(rel);
	ta_env_free(node);
	ta_env_free(alloc);
	ta_env_free(fl->spare);
	ta_env_free(fl->blk);
	ta_env_free(fl);
	return ret;
}
