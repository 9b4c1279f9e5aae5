// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_graph.c - graph form to trace form: each tensor's lifetime.
 *
 * Op i runs at step i. A tensor lives over the half-open steps
 * [producer, last reader + 1): from the op that writes it to the last op
 * that reads it, inclusive. Graph inputs start at step 0, graph outputs end
 * at n_ops, constants, persistent and exportable tensors live over
 * [0, n_ops). An output that nobody reads lives through the op that writes
 * it. An exportable tensor's pages are its own dma-buf, which its holder (a
 * camera, possibly another uid) may read and write at any time: no other
 * tensor may have them while the plan exists.
 *
 * Validation is strict: the ops' reference ranges follow one another in
 * @refs without gap or overlap and cover it exactly (so validation reads
 * each reference once: O(n_tensors + n_ops + n_refs)), every reference in
 * range, every tensor referenced,
 * produced at most once, never read before it is produced (inputs,
 * constants and persistent tensors exist from the start), graph inputs and
 * constants never written by an op, op flags known (%TA_OP_FLAGS_ALL).
 */
#include "ta_graph.h"
#include "ta_plan_helpers.h"

#define TA_NO_STEP	U32_MAX

static int ta_graph_check_tensors(const struct ta_graph *g,
				  struct ta_buffer *out, struct ta_work *w)
{
	u32 t;

	for (t = 0; t < g->n_tensors; t++) {
		const struct ta_graph_tensor *gt = &g->tensors[t];
		int ret = ta_work_add(w, 1);

		if (ret)
			return ret;
		if (gt->flags & ~TA_TENSOR_FLAGS_ALL)
			return -EINVAL;
		if (!ta_is_pow2(gt->align))
			return -EINVAL;
		if (gt->align > TA_PLAN_MAX_ALIGN ||
		    gt->size >= TA_PLAN_MAX_SIZE)
			return -E2BIG;
		out[t].size = gt->size;
		out[t].align = gt->align;
		if (gt->flags & TA_TENSOR_EXPORTABLE) {
			/* Whole pages at a page boundary: its own dma-buf. */
			u64 page = ta_env_page_size();

			out[t].size = (gt->size + page - 1) & ~(page - 1);
			if (out[t].align < page)
				out[t].align = page;
		}
		out[t].start = TA_NO_STEP;	/* not produced yet */
		out[t].end = 0;			/* not referenced yet */
	}
	return 0;
}

/*
 * Op @i's references: its range must start at *@next, where op i - 1's
 * ended, and stay within @refs; *@next moves to its end.
 */
static int ta_graph_op(const struct ta_graph *g, u32 i, struct ta_buffer *out,
		       u64 *next)
{
	const struct ta_graph_op *op = &g->ops[i];
	u64 last = (u64)op->first_ref + op->n_inputs + op->n_outputs;
	u32 k;

	/* u32 + u32 + u32 fits in u64: no wrap */
	if (op->first_ref != *next || last > g->n_refs ||
	    (op->flags & ~TA_OP_FLAGS_ALL))
		return -EINVAL;
	*next = last;
	for (k = 0; k < op->n_inputs; k++) {
		u32 t = g->refs[op->first_ref + k];
		u32 flags;

		if (t >= g->n_tensors)
			return -EINVAL;
		flags = g->tensors[t].flags;
		if (out[t].start == TA_NO_STEP &&
		    !(flags & (TA_TENSOR_INPUT | TA_TENSOR_CONSTANT |
			       TA_TENSOR_PERSISTENT)))
			return -EINVAL;	/* read before it is produced */
		out[t].end = i + 1;
	}
	for (k = 0; k < op->n_outputs; k++) {
		u32 t = g->refs[op->first_ref + op->n_inputs + k];

		if (t >= g->n_tensors)
			return -EINVAL;
		if (g->tensors[t].flags & (TA_TENSOR_INPUT | TA_TENSOR_CONSTANT))
			return -EINVAL;	/* inputs and constants are given */
		if (out[t].start != TA_NO_STEP)
			return -EINVAL;	/* produced twice */
		out[t].start = i;
		if (out[t].end < i + 1)
			out[t].end = i + 1;
	}
	return 0;
}

int ta_graph_lifetimes_work(const struct ta_graph *g, struct ta_buffer *out,
			    struct ta_work *w)
{
	u64 next = 0;
	u32 i, t;
	int ret;

	if (!g)
		return -EINVAL;
	if (g->n_tensors > TA_PLAN_MAX_BUFFERS || g->n_ops > TA_PLAN_MAX_STEPS)
		return -E2BIG;
	if ((g->n_tensors && (!g->tensors || !out)) ||
	    (g->n_ops && !g->ops) || (g->n_refs && !g->refs))
		return -EINVAL;

	ret = ta_graph_check_tensors(g, out, w);
	if (ret)
		return ret;
	for (i = 0; i < g->n_ops; i++) {
		ret = ta_graph_op(g, i, out, &next);
		if (!ret)
			ret = ta_work_add(w, 1 + g->ops[i].n_inputs +
					  g->ops[i].n_outputs);
		if (ret)
			return ret;
	}
	if (next != g->n_refs)
		return -EINVAL;	/* references no op owns */
	for (t = 0; t < g->n_tensors; t++) {
		u32 flags = g->tensors[t].flags;

		if (!out[t].end)
			return -EINVAL;	/* no op references it */
		if (flags & (TA_TENSOR_INPUT | TA_TENSOR_CONSTANT |
			     TA_TENSOR_PERSISTENT | TA_TENSOR_EXPORTABLE))
			out[t].start = 0;
		if (flags & (TA_TENSOR_OUTPUT | TA_TENSOR_CONSTANT |
			     TA_TENSOR_PERSISTENT | TA_TENSOR_EXPORTABLE))
			out[t].end = g->n_ops;
	}
	return 0;
}

/**
 * ta_graph_lifetimes() - validate a graph and derive each tensor's lifetime
 * @g: the graph
 * @out: @g->n_tensors buffers, filled in tensor order (unspecified on error)
 *
 * See ta_planner.h for the rules. The ops' reference ranges must be
 * consecutive: ops[0].first_ref is 0, each op's range starts where the
 * previous one's ends, and the last one ends at @g->n_refs; so the work is
 * linear in the graph's size. It calls ta_env_yield() every few thousand
 * units of work and has no deadline of its own (ta_plan_solve() applies
 * &ta_budget.limit_ns when it checks a graph).
 *
 * Return: 0, -EINVAL for a malformed graph, -E2BIG beyond the limits,
 * -EINTR when ta_env_yield() asked to stop.
 */
int ta_graph_lifetimes(const struct ta_graph *g, struct ta_buffer *out)
{
	struct ta_work w;

	ta_work_init(&w, 0);
	return ta_graph_lifetimes_work(g, out, &w);
}
