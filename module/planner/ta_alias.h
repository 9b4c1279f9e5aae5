/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_alias.h - in-place ops (ta_alias.c): a problem whose tensors share
 * memory, merged into one with each alias class as one buffer.
 *
 * ta_graph_aliases() and ta_alias_trace_merge() are in ta_planner.h.
 */
#ifndef TA_ALIAS_H
#define TA_ALIAS_H

#include "ta_planner.h"
#include "ta_work.h"

int ta_alias_merge(const struct ta_graph *g, const struct ta_buffer *bufs,
		   const u32 *root, struct ta_graph *m, u32 *cls);
void ta_alias_free(struct ta_graph *m);

/*
 * struct ta_merged - a problem with aliases, each alias class one buffer
 * @g: graph form: the merged graph as ta_alias_merge() makes it; trace
 *     form: only @g.n_tensors is set, the number of classes
 * @bufs: the merged buffers (graph form: the merged graph's lifetimes)
 * @cls: per buffer of the original problem, its class's buffer in @bufs
 * @graph: @g for graph form, NULL for trace form
 */
struct ta_merged {
	struct ta_graph g;
	struct ta_buffer *bufs;
	u32 *cls;
	const struct ta_graph *graph;
};

/* Merge @p's alias classes (@root) and derive the merged lifetimes. */
int ta_merged_build(const struct ta_problem *p, const u32 *root,
		    struct ta_merged *mg, struct ta_work *w);
void ta_merged_free(struct ta_merged *mg);

#endif /* TA_ALIAS_H */
