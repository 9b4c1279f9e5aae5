// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_alias.c - in-place ops: tensors that share memory.
 *
 * An op marked %TA_OP_INPLACE is a view of its first input (RESHAPE,
 * SQUEEZE, ...): when that input dies at the op, its first output can take
 * over the input's bytes. Such tensors form alias classes (a chain of
 * reshapes is one class). ta_plan_solve() plans a graph with classes as a graph
 * whose class members are one tensor: every reference to a member becomes a
 * reference to the class, and the in-place op no longer writes the class
 * it reads. Every strategy then plans the classes like any tensor, and the
 * lower bound of that graph is the lower bound of the aliased graph (an
 * aliased pair is the same bytes at the step where both are live). The
 * members get the class's offset.
 */
#include "ta_alias.h"
#include "ta_graph.h"
#include "ta_plan_helpers.h"

#define TA_ALIAS_NOT_INPUT	(TA_TENSOR_OUTPUT | TA_TENSOR_CONSTANT | \
				 TA_TENSOR_PERSISTENT | TA_TENSOR_EXPORTABLE)
#define TA_ALIAS_NOT_OUTPUT	(TA_TENSOR_INPUT | TA_TENSOR_CONSTANT | \
				 TA_TENSOR_PERSISTENT | TA_TENSOR_EXPORTABLE)

/*
 * Whether op @k joins its first output to its first input's class; the
 * output's index in *@out. @bufs are the graph's validated lifetimes.
 */
static bool ta_alias_joins(const struct ta_graph *g,
			   const struct ta_buffer *bufs, u32 k, u32 *out)
{
	const struct ta_graph_op *op = &g->ops[k];
	u32 in;

	if (!(op->flags & TA_OP_INPLACE) || !op->n_inputs || !op->n_outputs)
		return false;
	in = g->refs[op->first_ref];
	*out = g->refs[op->first_ref + op->n_inputs];
	if (in == *out)
		return false;
	if ((g->tensors[in].flags & TA_ALIAS_NOT_INPUT) ||
	    (g->tensors[*out].flags & TA_ALIAS_NOT_OUTPUT))
		return false;
	/* the input dies here (last read at step k), same bytes out */
	return bufs[in].end == k + 1 && bufs[in].size == bufs[*out].size;
}

/**
 * ta_graph_aliases() - which tensors share memory through in-place ops
 * @g: a graph that ta_graph_lifetimes() accepted
 * @bufs: its lifetimes, as ta_graph_lifetimes() gave them
 * @root: out, @g->n_tensors entries: per tensor, the first tensor of its
 *	  alias class (itself when it shares with nobody)
 *
 * See ta_planner.h for the rule. An output is produced once, so it joins
 * at most one class; its input's class is already final then, so @root
 * needs no union-find: O(n_tensors + n_ops).
 *
 * Return: the number of tensors that joined another's class.
 */
u32 ta_graph_aliases(const struct ta_graph *g, const struct ta_buffer *bufs,
		     u32 *root)
{
	u32 i, k, out, joined = 0;

	for (i = 0; i < g->n_tensors; i++)
		root[i] = i;
	for (k = 0; k < g->n_ops; k++) {
		if (!ta_alias_joins(g, bufs, k, &out))
			continue;
		root[out] = root[g->refs[g->ops[k].first_ref]];
		joined++;
	}
	return joined;
}

/* Documented in ta_planner.h. */
u32 ta_alias_trace_merge(const struct ta_buffer *bufs, u32 n, const u32 *root,
			 struct ta_buffer *merged, u32 *cls)
{
	u32 i, k = 0;

	for (i = 0; i < n; i++)
		if (root[i] == i)
			cls[i] = k++;
	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &bufs[i];
		struct ta_buffer *c;

		cls[i] = cls[root[i]];
		c = &merged[cls[i]];
		if (root[i] == i) {
			*c = *b;
			continue;
		}
		if (b->start < c->start)
			c->start = b->start;
		if (b->end > c->end)
			c->end = b->end;
		if (b->align > c->align)
			c->align = b->align;
	}
	return k;
}

/**
 * ta_alias_merge() - the graph ta_plan_solve() plans when tensors alias
 * @g: the validated graph
 * @bufs: its lifetimes
 * @root: ta_graph_aliases() of it
 * @m: out: the merged graph, its arrays allocated here; free them with
 *     ta_alias_free()
 * @cls: out, @g->n_tensors entries: per tensor, its class's tensor index
 *	 in @m
 *
 * A class keeps its first tensor's flags plus %TA_TENSOR_OUTPUT when any
 * member is a graph output, and the largest alignment of its members.
 *
 * Return: 0 or -ENOMEM.
 */
int ta_alias_merge(const struct ta_graph *g, const struct ta_buffer *bufs,
		   const u32 *root, struct ta_graph *m, u32 *cls)
{
	struct ta_graph_tensor *mt;
	struct ta_graph_op *mo;
	u32 *mr;
	u32 i, k, n = 0, nr = 0;

	for (i = 0; i < g->n_tensors; i++)
		if (root[i] == i)
			cls[i] = n++;
	for (i = 0; i < g->n_tensors; i++)
		cls[i] = cls[root[i]];
	mt = ta_env_alloc_array(n, sizeof(*mt));
	mo = ta_env_alloc_array(g->n_ops ? g->n_ops : 1, sizeof(*mo));
	mr = ta_env_alloc_array(g->n_refs ? g->n_refs : 1, sizeof(*mr));
	if (!mt || !mo || !mr) {
		ta_env_free(mr);
		ta_env_free(mo);
		ta_env_free(mt);
		return -ENOMEM;
	}
	/* the roots first: a member may come before its root in tensor order */
	for (i = 0; i < g->n_tensors; i++) {
		if (root[i] != i)
			continue;
		mt[cls[i]] = g->tensors[i];
		mt[cls[i]].align = bufs[i].align;
	}
	for (i = 0; i < g->n_tensors; i++) {
		struct ta_graph_tensor *c = &mt[cls[i]];

		if (root[i] == i)
			continue;
		c->flags |= g->tensors[i].flags & TA_TENSOR_OUTPUT;
		if (bufs[i].align > c->align)
			c->align = bufs[i].align;
	}
	for (k = 0; k < g->n_ops; k++) {
		const struct ta_graph_op *op = &g->ops[k];
		u32 first = op->first_ref, j, out = 0;
		bool joins = ta_alias_joins(g, bufs, k, &out);

		mo[k].first_ref = nr;
		mo[k].n_inputs = op->n_inputs;
		mo[k].n_outputs = op->n_outputs - joins;
		mo[k].flags = 0;
		for (j = 0; j < op->n_inputs + op->n_outputs; j++) {
			if (joins && j == op->n_inputs)
				continue;	/* the view writes nothing new */
			mr[nr++] = cls[g->refs[first + j]];
		}
	}
	m->n_tensors = n;
	m->n_ops = g->n_ops;
	m->n_refs = nr;
	m->tensors = mt;
	m->ops = mo;
	m->refs = mr;
	return 0;
}

/**
 * ta_alias_free() - free what ta_alias_merge() allocated
 * @m: the merged graph
 */
void ta_alias_free(struct ta_graph *m)
{
	ta_env_free((void *)m->refs);
	ta_env_free((void *)m->ops);
	ta_env_free((void *)m->tensors);
}

void ta_merged_free(struct ta_merged *mg)
{
	ta_env_free(mg->bufs);
	if (mg->graph)
		ta_alias_free(&mg->g);
	ta_env_free(mg->cls);
}

/* Merge @p's alias classes (@root) and derive the merged lifetimes. */
int ta_merged_build(const struct ta_problem *p, const u32 *root,
		    struct ta_merged *mg, struct ta_work *w)
{
	int ret;

	memset(mg, 0, sizeof(*mg));
	mg->cls = ta_env_alloc_array(p->n_buffers, sizeof(*mg->cls));
	if (!mg->cls)
		return -ENOMEM;
	if (!p->graph) {
		mg->bufs = ta_env_alloc_array(p->n_buffers, sizeof(*mg->bufs));
		if (!mg->bufs) {
			ta_merged_free(mg);
			return -ENOMEM;
		}
		mg->g.n_tensors = ta_alias_trace_merge(p->buffers, p->n_buffers,
						       root, mg->bufs, mg->cls);
		return 0;
	}
	mg->graph = &mg->g;
	ret = ta_alias_merge(p->graph, p->buffers, root, &mg->g, mg->cls);
	if (ret) {
		ta_env_free(mg->cls);
		return ret;
	}
	mg->bufs = ta_env_alloc_array(mg->g.n_tensors, sizeof(*mg->bufs));
	ret = mg->bufs ? ta_graph_lifetimes_work(&mg->g, mg->bufs, w) :
			 -ENOMEM;
	if (ret)
		ta_merged_free(mg);
	return ret;
}
