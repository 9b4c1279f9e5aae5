// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_pingpong.c - per-branch ping-pong of two regions.
 *
 * Branches come from the graph's connections: tensor a links to tensor b
 * when a's only reader is an op whose only activation input (inputs that
 * are not constant or persistent) is a and whose only output is b. Links
 * form chains, and a maximal chain is a branch; joins (an op with several
 * activation inputs), splits (a tensor read by several ops), constants and
 * persistent tensors end branches.
 *
 * On a branch the tensor with the largest size (the first one on a tie)
 * takes region A, and the others alternate relative to it: tensors an even
 * number of links away from it share A, the odd ones share B. A is as large
 * as the largest tensor, B as the largest tensor it holds (at most the
 * second-largest on the branch). Along a chain, tensor j is dead before
 * tensor j + 2 is produced, so the tensors of one region never coexist;
 * where that fails (say a graph output mid-branch, which lives to the end)
 * the branch is cut in two before j + 2.
 *
 * Then every region (lifetime: from its first member's start to its last
 * member's end; alignment: the largest of its members) and every tensor no
 * branch of two or more covers (joins' outputs, concat inputs, long-lived
 * skips, constants) is one item, and the items are placed by the
 * greedy-size engine: largest first, best-fitting gap. Each member takes
 * its region's offset.
 *
 * Trace form has no connections. There the links are inferred from the
 * lifetimes the way graph form produces them: b follows a when b starts at
 * the last step of a (b was produced by a's last reader) and neither has
 * another such partner. Guessed branches can be wrong (and ping-pong
 * regions sized for their largest member waste room when sizes vary along
 * a branch), so in trace form pingpong also places every buffer on its own,
 * which is greedy-size, and keeps the lower of the two plans.
 *
 * Time O(n log n + greedy-size on the items); memory about 50 bytes per
 * buffer, then 36 plus greedy-size's on the items (at most one per buffer).
 */
#include "ta_plan_helpers.h"
#include "ta_strategy.h"

#define TA_PP_NIL	U32_MAX

struct ta_pp {
	const struct ta_problem *p;
	bool regions_only;	/* no greedy-size plan alongside (auto has it) */
	u32 *succ;		/* next tensor on the branch, or NIL */
	u32 *npred;		/* how many tensors link to this one */
	u32 *chain;		/* scratch: one branch */
	u32 *item_of;		/* tensor -> item */
	struct ta_buffer *item;
	u32 n_items;
};

#define TA_PP_WHOLE_RUN	(TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT)

/* Graph form: links from connections. @rd and @act are scratch arrays. */
static int ta_pp_links_graph(struct ta_pp *pp, u32 *rd, u32 *act,
			     struct ta_work *w)
{
	const struct ta_graph *g = pp->p->graph;
	u32 o, k, t;
	int ret;

	/* rd[t]: reads of t; act[o]: activation inputs of op o */
	for (o = 0; o < g->n_ops; o++) {
		const struct ta_graph_op *op = &g->ops[o];

		ret = ta_work_add(w, 1 + op->n_inputs);
		if (ret)
			return ret;
		for (k = 0; k < op->n_inputs; k++) {
			t = g->refs[op->first_ref + k];
			rd[t]++;
			if (!(g->tensors[t].flags & TA_PP_WHOLE_RUN))
				act[o]++;
		}
	}
	for (o = 0; o < g->n_ops; o++) {
		const struct ta_graph_op *op = &g->ops[o];
		u32 a = TA_PP_NIL, b;

		ret = ta_work_add(w, 1 + op->n_inputs);
		if (ret)
			return ret;
		if (act[o] != 1 || op->n_outputs != 1)
			continue;
		for (k = 0; k < op->n_inputs; k++) {
			t = g->refs[op->first_ref + k];
			if (!(g->tensors[t].flags & TA_PP_WHOLE_RUN))
				a = t;
		}
		b = g->refs[op->first_ref + op->n_inputs];
		if (rd[a] != 1 || a == b ||
		    (g->tensors[b].flags & (TA_PP_WHOLE_RUN | TA_TENSOR_INPUT)))
			continue;
		pp->succ[a] = b;
		pp->npred[b]++;
	}
	return 0;
}

static int ta_pp_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Trace form: b follows a when b is the only buffer starting at a.end - 1. */
static int ta_pp_links_trace(struct ta_pp *pp, u64 *key, struct ta_work *w)
{
	const struct ta_buffer *bufs = pp->p->buffers;
	u32 n = pp->p->n_buffers, i;

	for (i = 0; i < n; i++)
		key[i] = (u64)bufs[i].start << 32 | i;
	ta_env_sort(key, n, sizeof(*key), ta_pp_cmp_u64);
	for (i = 0; i < n; i++) {
		u32 want = bufs[i].end - 1, lo = 0, hi = n, b = TA_PP_NIL;
		u32 j;
		int ret = ta_work_add(w, 32);	/* a binary search */

		if (ret)
			return ret;
		if (want <= bufs[i].start)
			continue;	/* starts must rise along a chain */
		while (lo < hi) {
			u32 mid = lo + ((hi - lo) >> 1);

			if ((u32)(key[mid] >> 32) < want)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < n && (u32)(key[j] >> 32) == want; j++) {
			if ((u32)key[j] == i)
				continue;
			if (b != TA_PP_NIL) {
				b = TA_PP_NIL;
				break;
			}
			b = (u32)key[j];
		}
		if (b == TA_PP_NIL)
			continue;
		pp->succ[i] = b;
		pp->npred[b]++;
	}
	/* keep a link only when its target has no other predecessor */
	for (i = 0; i < n; i++)
		if (pp->succ[i] != TA_PP_NIL && pp->npred[pp->succ[i]] != 1)
			pp->succ[i] = TA_PP_NIL;
	return 0;
}

static u32 ta_pp_new_item(struct ta_pp *pp, const struct ta_buffer *b)
{
	struct ta_buffer *it = &pp->item[pp->n_items];

	it->size = b->size;
	it->align = b->align;
	it->start = b->start;
	it->end = b->end;
	return pp->n_items++;
}

/* Grow item @k to hold buffer @b too. */
static void ta_pp_grow_item(struct ta_pp *pp, u32 k, const struct ta_buffer *b)
{
	struct ta_buffer *it = &pp->item[k];

	if (b->size > it->size)
		it->size = b->size;
	if (b->align > it->align)
		it->align = b->align;
	if (b->start < it->start)
		it->start = b->start;
	if (b->end > it->end)
		it->end = b->end;
}

/* One branch segment chain[0..len): two regions, alternating. */
static void ta_pp_segment(struct ta_pp *pp, const u32 *chain, u32 len)
{
	const struct ta_buffer *bufs = pp->p->buffers;
	u32 j, jmax = 0, other, region[2];

	if (len == 1) {
		pp->item_of[chain[0]] = ta_pp_new_item(pp, &bufs[chain[0]]);
		return;
	}
	for (j = 1; j < len; j++)
		if (bufs[chain[j]].size > bufs[chain[jmax]].size)
			jmax = j;
	/* A member of the other parity; jmax ^ 1 is past the end when the
	 * largest is the last of an odd-length segment.
	 */
	other = (jmax ^ 1) < len ? jmax ^ 1 : jmax - 1;
	region[0] = ta_pp_new_item(pp, &bufs[chain[jmax]]);
	region[1] = ta_pp_new_item(pp, &bufs[chain[other]]);
	for (j = 0; j < len; j++) {
		u32 r = region[(j ^ jmax) & 1];

		ta_pp_grow_item(pp, r, &bufs[chain[j]]);
		pp->item_of[chain[j]] = r;
	}
}

/*
 * Walk the branch that starts at @head; cut it where a region would clash.
 * Returns its length (the work done).
 */
static u32 ta_pp_branch(struct ta_pp *pp, u32 head)
{
	const struct ta_buffer *bufs = pp->p->buffers;
	u32 len = 0, seg = 0, t, j;

	for (t = head; t != TA_PP_NIL; t = pp->succ[t])
		pp->chain[len++] = t;
	for (j = 2; j < len; j++) {
		if (j - seg < 2)
			continue;
		if (bufs[pp->chain[j - 2]].end > bufs[pp->chain[j]].start) {
			ta_pp_segment(pp, pp->chain + seg, j - seg);
			seg = j;
		}
	}
	ta_pp_segment(pp, pp->chain + seg, len - seg);
	return len;
}

static int ta_pp_items(struct ta_pp *pp, struct ta_work *w)
{
	const struct ta_buffer *bufs = pp->p->buffers;
	u32 n = pp->p->n_buffers, t;
	int ret;

	for (t = 0; t < n; t++)
		pp->item_of[t] = TA_PP_NIL;
	for (t = 0; t < n; t++) {
		/* every tensor is on at most one branch: O(n) in all */
		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		if (!pp->npred[t])
			w->units += 4 * ta_pp_branch(pp, t);
	}
	/* links always run forward in time, but never leave a tensor out */
	for (t = 0; t < n; t++)
		if (pp->item_of[t] == TA_PP_NIL)
			pp->item_of[t] = ta_pp_new_item(pp, &bufs[t]);
	return 0;
}

static int ta_pp_place(struct ta_pp *pp, u64 *offsets, u64 *item_off,
		       u64 *height, struct ta_work *w)
{
	u32 t, n = pp->p->n_buffers;
	u64 h;
	int ret;

	if (pp->regions_only && pp->n_items == n) {
		*height = U64_MAX;	/* no branch: greedy-size's plan */
		return 0;
	}
	ret = ta_greedy_place(pp->item, pp->n_items, NULL, item_off, height, w);
	if (ret)
		return ret;
	for (t = 0; t < n; t++)
		offsets[t] = item_off[pp->item_of[t]];
	if (pp->p->graph || pp->n_items == n || pp->regions_only)
		return 0;
	/*
	 * Trace form: the branches were guessed. Place every buffer on its
	 * own too and keep that plan when it is lower.
	 */
	ret = ta_greedy_place(pp->p->buffers, n, NULL, item_off, &h, w);
	if (ret == -EOVERFLOW)
		return 0;
	if (ret)
		return ret;
	if (h < *height) {
		for (t = 0; t < n; t++)
			offsets[t] = item_off[t];
		*height = h;
	}
	return 0;
}

static int ta_pingpong(const struct ta_problem *p, bool regions_only,
		       u64 *offsets, struct ta_result *res, struct ta_work *w)
{
	u32 n = p->n_buffers, t;
	u32 n_ops = p->graph ? p->graph->n_ops : 0;
	struct ta_pp pp;
	u64 *scratch;
	u32 *act = NULL;
	int ret = -ENOMEM;

	pp.p = p;
	pp.regions_only = regions_only;
	pp.n_items = 0;
	pp.succ = ta_env_alloc_array(n, sizeof(*pp.succ));
	pp.npred = ta_env_alloc_array(n, sizeof(*pp.npred));
	pp.chain = ta_env_alloc_array(n, sizeof(*pp.chain));
	pp.item_of = ta_env_alloc_array(n, sizeof(*pp.item_of));
	pp.item = ta_env_alloc_array(n, sizeof(*pp.item));
	scratch = ta_env_alloc_array(n, sizeof(*scratch));
	if (p->graph)
		act = ta_env_alloc_array(n_ops, sizeof(*act));
	if (!pp.succ || !pp.npred || !pp.chain || !pp.item_of || !pp.item ||
	    !scratch || (p->graph && !act))
		goto out;
	for (t = 0; t < n; t++)
		pp.succ[t] = TA_PP_NIL;
	if (p->graph)
		ret = ta_pp_links_graph(&pp, pp.chain, act, w);
	else
		ret = ta_pp_links_trace(&pp, scratch, w);
	if (ret)
		goto out;
	ret = ta_pp_items(&pp, w);
	if (ret)
		goto out;
	/* the links are done with: free them before the placement's memory */
	ta_env_free(act);
	ta_env_free(pp.chain);
	ta_env_free(pp.npred);
	ta_env_free(pp.succ);
	act = NULL;
	pp.chain = NULL;
	pp.npred = NULL;
	pp.succ = NULL;
	res->steps = n;
	ret = ta_pp_place(&pp, offsets, scratch, &res->height, w);
out:
	ta_env_free(act);
	ta_env_free(scratch);
	ta_env_free(pp.item);
	ta_env_free(pp.item_of);
	ta_env_free(pp.chain);
	ta_env_free(pp.npred);
	ta_env_free(pp.succ);
	return ret;
}

/**
 * ta_plan_pingpong() - the pingpong strategy
 * @p: the problem, validated by ta_plan_solve()
 * @budget: unused, pingpong does not search
 * @offsets: out
 * @res: out, height and steps (one per buffer)
 * @w: work counter
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the height would reach 2^63, -EINTR,
 * -ETIMEDOUT past the deadline.
 */
int ta_plan_pingpong(const struct ta_problem *p,
		     const struct ta_budget *budget, u64 *offsets,
		     struct ta_result *res, struct ta_work *w)
{
	(void)budget;
	return ta_pingpong(p, false, offsets, res, w);
}

/**
 * ta_pingpong_regions() - pingpong's region plan alone, for auto
 * @p: the problem, validated by ta_plan_solve()
 * @offsets: out
 * @res: out, height (U64_MAX when no branch of two formed: the plan would
 *	 be greedy-size's) and steps
 * @w: work counter
 *
 * In trace form ta_plan_pingpong() also plans with greedy-size and keeps
 * the lower plan; auto has greedy-size's plan already.
 *
 * Return: as ta_plan_pingpong().
 */
int ta_pingpong_regions(const struct ta_problem *p, u64 *offsets,
			struct ta_result *res, struct ta_work *w)
{
	return ta_pingpong(p, true, offsets, res, w);
}
