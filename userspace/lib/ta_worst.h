/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_worst.h - worst-case planner inputs (internal to the project: the
 * benchmark, the unit tests and tests/e2e/ta_e2e_worst.c; not exported by
 * the shared library).
 *
 * Each shape is a graph in the strict form (consecutive op reference
 * ranges) within the kernel's default limits: at most 65,536 tensors and
 * ops, 262,144 references, sizes below 2^63, alignments up to 2^32; built
 * to be slow for some strategy. Deterministic: the same shape and scale
 * always give the same graph.
 */
#ifndef TA_WORST_H
#define TA_WORST_H

#include "ta_planner.h"

/* The kernel's default limits (module parameters max_tensors ...). */
#define TA_WORST_MAX_TENSORS	65536U
#define TA_WORST_MAX_OPS	65536U
#define TA_WORST_MAX_REFS	262144U

/**
 * struct ta_worst - one generated input
 * @name: the shape's name
 * @what: one line on why it is slow, and for whom
 * @graph: the graph; its arrays belong to this struct
 * @tensors: the tensors (@graph.tensors)
 * @ops: the ops (@graph.ops)
 * @refs: the references (@graph.refs)
 * @expect: what planning it must give: 0, or -EINVAL for a shape that
 *	    breaks the strict graph form on purpose
 */
struct ta_worst {
	const char *name;
	const char *what;
	struct ta_graph graph;
	struct ta_graph_tensor *tensors;
	struct ta_graph_op *ops;
	u32 *refs;
	int expect;
};

/**
 * ta_worst_count() - how many shapes there are
 *
 * Return: the number of shapes; shape numbers run from 0.
 */
int ta_worst_count(void);

/**
 * ta_worst_name() - a shape's name
 * @shape: shape number
 *
 * Return: the name, NULL when out of range.
 */
const char *ta_worst_name(int shape);

/**
 * ta_worst_make() - generate one shape
 * @shape: shape number
 * @div: 1 for the full size (the kernel's limits); larger divides the
 *	 tensor, op and reference counts (for quick tests)
 * @w: out, free with ta_worst_free()
 *
 * Return: 0, -EINVAL for a bad shape or @div, -ENOMEM.
 */
int ta_worst_make(int shape, u32 div, struct ta_worst *w);

/**
 * ta_worst_free() - free what ta_worst_make() made
 * @w: the input
 */
void ta_worst_free(struct ta_worst *w);

#endif /* TA_WORST_H */
