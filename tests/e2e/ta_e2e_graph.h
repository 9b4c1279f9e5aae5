/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_graph.h - the small graph the end-to-end programs plan: 6 tensors,
 * 4 ops, a skip connection and a constant; one page of arena. Included
 * once per program (the arrays are its own; some tests change them).
 *
 *   op0: t0(in), t5(const) -> t1
 *   op1: t1 -> t2
 *   op2: t2, t1 -> t3
 *   op3: t3 -> t4(out)
 */
#ifndef TA_E2E_GRAPH_H
#define TA_E2E_GRAPH_H

#include <stdint.h>

#include <linux/tensorarena.h>

static struct ta_tensor g_tensors[] = {
	{ .size = 1000, .align = 64, .flags = TA_TENSOR_INPUT },
	{ .size = 2000, .align = 64 },
	{ .size = 3000, .align = 64 },
	{ .size = 1500, .align = 64 },
	{ .size = 500, .align = 64, .flags = TA_TENSOR_OUTPUT },
	{ .size = 100, .align = 16, .flags = TA_TENSOR_CONSTANT },
};
static struct ta_op g_ops[] = {
	{ .first_ref = 0, .n_inputs = 2, .n_outputs = 1 },
	{ .first_ref = 3, .n_inputs = 1, .n_outputs = 1 },
	{ .first_ref = 5, .n_inputs = 2, .n_outputs = 1 },
	{ .first_ref = 8, .n_inputs = 1, .n_outputs = 1 },
};
static __u32 g_refs[] = { 0, 5, 1, 1, 2, 2, 1, 3, 3, 4 };
#define G_TENSORS (sizeof(g_tensors) / sizeof(g_tensors[0]))
#define G_OPS (sizeof(g_ops) / sizeof(g_ops[0]))
#define G_REFS (sizeof(g_refs) / sizeof(g_refs[0]))

/* A PLAN_CREATE of the graph with @strategy; everything else zero. */
static inline struct ta_plan_create ta_e2e_graph_request(__u32 strategy)
{
	struct ta_plan_create c = {
		.strategy = strategy,
		.tensors = (uintptr_t)g_tensors,
		.n_tensors = G_TENSORS,
		.tensor_size = sizeof(struct ta_tensor),
		.ops = (uintptr_t)g_ops,
		.n_ops = G_OPS,
		.op_size = sizeof(struct ta_op),
		.refs = (uintptr_t)g_refs,
		.n_refs = G_REFS,
	};

	return c;
}

#endif /* TA_E2E_GRAPH_H */
