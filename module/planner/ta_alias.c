// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_alias.c - in-place ops: which tensors may share memory (stub).
 */
#include "ta_internal.h"

u32 ta_graph_aliases(const struct ta_graph *g, const struct ta_buffer *bufs,
		     u32 *root)
{
	u32 i;

	(void)bufs;
	for (i = 0; i < g->n_tensors; i++)
		root[i] = i;
	return 0;
}
