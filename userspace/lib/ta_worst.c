// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_worst.c - worst-case planner inputs within the kernel's default
 * limits (see ta_worst.h).
 *
 * The shapes:
 *  overlap  8,192 tensors all live at once (one op writes them, one reads
 *           them), random sizes and alignments up to 4 KiB: every fit
 *           query sees every placed tensor - stack's look-ahead window
 *           (64 queries per step), auto's portfolio.
 *  gaps     65,534 one-to-64-byte tensors at alignment 2^32, all live at
 *           once: every placed tensor leaves a gap of almost 4 GiB, so
 *           greedy-size's and the fit engine's gap scans see them all.
 *  stair    65,535 ops, tensor k read by op k and op k + 2047: each lives
 *           2,048 steps, so every query has ~4,096 neighbours; 196k refs.
 *  branchy  65,535 ops over 64 interleaved branches, merged every 1,024
 *           ops by an op that reads every branch head: long chains for
 *           pingpong, 64 live tensors at a time.
 *  huge     a 65,519-op chain of tensors of 2^60 to 2^61 bytes at alignment
 *           2^32, each op also reading two of 16 constants: heights near
 *           2^63 and the most references the limits allow (262,076).
 *  ranges   not a valid graph: 65,536 ops whose reference ranges all are
 *           the same 196,608 references (reads of one input). Before the
 *           strict graph form, validation read 1.3 * 10^10 references;
 *           now the second op is rejected (-EINVAL).
 */
#include <stdlib.h>
#include <string.h>

#include "ta_worst.h"

struct ta_wb {
	struct ta_worst *w;
	u32 cap_t, cap_o, cap_r;
	u64 seed;
};

static u32 ta_wb_rand(struct ta_wb *b)
{
	b->seed = b->seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(b->seed >> 33);
}

static u32 ta_wb_tensor(struct ta_wb *b, u64 size, u64 align, u32 flags)
{
	struct ta_graph *g = &b->w->graph;
	u32 i = g->n_tensors++;

	b->w->tensors[i].size = size;
	b->w->tensors[i].align = align;
	b->w->tensors[i].flags = flags;
	return i;
}

/* Start an op; its references follow with ta_wb_ref(). */
static void ta_wb_op(struct ta_wb *b, u32 n_in, u32 n_out)
{
	struct ta_graph *g = &b->w->graph;
	struct ta_graph_op *op = &b->w->ops[g->n_ops++];

	op->first_ref = g->n_refs;
	op->n_inputs = n_in;
	op->n_outputs = n_out;
	op->flags = 0;
}

static void ta_wb_ref(struct ta_wb *b, u32 t)
{
	b->w->refs[b->w->graph.n_refs++] = t;
}

static u64 ta_wb_align(struct ta_wb *b, u32 max_log2)
{
	return 1ULL << (ta_wb_rand(b) % (max_log2 + 1));
}

/* All @m middle tensors live at once: in -> op0 -> m tensors -> op1 -> out */
static void ta_worst_all_live(struct ta_wb *b, u32 m, bool gaps)
{
	u32 x, y, i, first;

	x = ta_wb_tensor(b, 64, 64, TA_TENSOR_INPUT);
	first = b->w->graph.n_tensors;
	for (i = 0; i < m; i++) {
		if (gaps)
			ta_wb_tensor(b, 1 + ta_wb_rand(b) % 64, 1ULL << 32, 0);
		else
			ta_wb_tensor(b, 1 + ta_wb_rand(b) % (1U << 20),
				     ta_wb_align(b, 12), 0);
	}
	y = ta_wb_tensor(b, 64, 64, TA_TENSOR_OUTPUT);
	ta_wb_op(b, 1, m);
	ta_wb_ref(b, x);
	for (i = 0; i < m; i++)
		ta_wb_ref(b, first + i);
	ta_wb_op(b, m, 1);
	for (i = 0; i < m; i++)
		ta_wb_ref(b, first + i);
	ta_wb_ref(b, y);
}

/* Tensor k (op k - 1 writes it) is read by op k and op k + @win - 1. */
static void ta_worst_stair(struct ta_wb *b, u32 n_ops, u32 win)
{
	u32 j;

	ta_wb_tensor(b, 1 + ta_wb_rand(b) % 4096, 1, TA_TENSOR_INPUT);
	for (j = 0; j < n_ops; j++)
		ta_wb_tensor(b, 1 + ta_wb_rand(b) % (1U << 16),
			     ta_wb_align(b, 6),
			     j + 1 == n_ops ? TA_TENSOR_OUTPUT : 0);
	for (j = 0; j < n_ops; j++) {
		bool skip = j >= win && j - win + 1 != j;

		ta_wb_op(b, skip ? 2 : 1, 1);
		ta_wb_ref(b, j);
		if (skip)
			ta_wb_ref(b, j - win + 1);
		ta_wb_ref(b, j + 1);
	}
}

static void ta_worst_branchy(struct ta_wb *b, u32 n_ops, u32 nb, u32 merge)
{
	u32 head[64], j, k, in;

	in = ta_wb_tensor(b, 4096, 64, TA_TENSOR_INPUT);
	for (k = 0; k < nb; k++)
		head[k] = in;
	for (j = 0; j < n_ops; j++) {
		bool last = j + 1 == n_ops;
		u32 t = ta_wb_tensor(b, 64 * (1 + ta_wb_rand(b) % 1024), 64,
				     last ? TA_TENSOR_OUTPUT : 0);

		if (last || (j % merge) == merge - 1) {
			ta_wb_op(b, nb, 1);
			for (k = 0; k < nb; k++)
				ta_wb_ref(b, head[k]);
			ta_wb_ref(b, t);
			for (k = 0; k < nb; k++)
				head[k] = t;
			continue;
		}
		ta_wb_op(b, 1, 1);
		ta_wb_ref(b, head[j % nb]);
		ta_wb_ref(b, t);
		head[j % nb] = t;
	}
}

static void ta_worst_huge(struct ta_wb *b, u32 n_ops, u32 n_const)
{
	u32 c0, prev, j;

	prev = ta_wb_tensor(b, 1ULL << 60, 1ULL << 32, TA_TENSOR_INPUT);
	c0 = b->w->graph.n_tensors;
	for (j = 0; j < n_const; j++)
		ta_wb_tensor(b, 1 + ta_wb_rand(b) % 4096, 1ULL << 32,
			     TA_TENSOR_CONSTANT);
	for (j = 0; j < n_ops; j++) {
		u64 size = (1ULL << 60) +
			   ((u64)ta_wb_rand(b) << 28 | ta_wb_rand(b));
		u32 t = ta_wb_tensor(b, size, 1ULL << (20 + ta_wb_rand(b) % 13),
				     j + 1 == n_ops ? TA_TENSOR_OUTPUT : 0);

		ta_wb_op(b, 3, 1);
		ta_wb_ref(b, prev);
		ta_wb_ref(b, c0 + ta_wb_rand(b) % n_const);
		ta_wb_ref(b, c0 + ta_wb_rand(b) % n_const);
		ta_wb_ref(b, t);
		prev = t;
	}
}

/* Every op reads the same @nr references: overlapping ranges. */
static void ta_worst_ranges(struct ta_wb *b, u32 n_ops, u32 nr)
{
	struct ta_graph *g = &b->w->graph;
	u32 j;

	ta_wb_tensor(b, 4096, 64, TA_TENSOR_INPUT | TA_TENSOR_OUTPUT);
	for (j = 0; j < nr; j++)
		ta_wb_ref(b, 0);
	for (j = 0; j < n_ops; j++) {
		g->n_ops++;
		b->w->ops[j].first_ref = 0;
		b->w->ops[j].n_inputs = nr;
		b->w->ops[j].n_outputs = 0;
	}
}

static const struct {
	const char *name;
	const char *what;
} ta_worst_shapes[] = {
	{ "overlap", "8,192 tensors live at once: stack, auto" },
	{ "gaps", "65,534 tensors at align 2^32 live at once: greedy-size" },
	{ "stair", "65,535 ops, each tensor live 2,048 steps: all" },
	{ "branchy", "64 interleaved branches, merged every 1,024 ops: pingpong" },
	{ "huge", "2^60-byte tensors, align 2^32, 262,076 refs: validation" },
	{ "ranges", "overlapping op ref ranges (invalid): validation" },
};

#define TA_WORST_N	((int)(sizeof(ta_worst_shapes) / sizeof(ta_worst_shapes[0])))

int ta_worst_count(void)
{
	return TA_WORST_N;
}

const char *ta_worst_name(int shape)
{
	return shape >= 0 && shape < TA_WORST_N ? ta_worst_shapes[shape].name :
						   NULL;
}

void ta_worst_free(struct ta_worst *w)
{
	free(w->tensors);
	free(w->ops);
	free(w->refs);
	memset(w, 0, sizeof(*w));
}

int ta_worst_make(int shape, u32 div, struct ta_worst *w)
{
	struct ta_wb b = { .w = w, .seed = 0x7a5eed + (u64)shape };

	memset(w, 0, sizeof(*w));
	if (shape < 0 || shape >= TA_WORST_N || !div || div > 1024)
		return -EINVAL;
	w->name = ta_worst_shapes[shape].name;
	w->what = ta_worst_shapes[shape].what;
	w->tensors = calloc(TA_WORST_MAX_TENSORS, sizeof(*w->tensors));
	w->ops = calloc(TA_WORST_MAX_OPS, sizeof(*w->ops));
	w->refs = calloc(TA_WORST_MAX_REFS, sizeof(*w->refs));
	if (!w->tensors || !w->ops || !w->refs) {
		ta_worst_free(w);
		return -ENOMEM;
	}
	switch (shape) {
	case 0:
		ta_worst_all_live(&b, 8190 / div, false);
		break;
	case 1:
		ta_worst_all_live(&b, 65534 / div, true);
		break;
	case 2:
		ta_worst_stair(&b, 65535 / div, 2048 / div);
		break;
	case 3:
		ta_worst_branchy(&b, 65535 / div, 64, 1024);
		break;
	case 4:
		ta_worst_huge(&b, 65519 / div, 16);
		break;
	default:
		ta_worst_ranges(&b, 65536 / div, 196608 / div);
		w->expect = -EINVAL;
		break;
	}
	w->graph.tensors = w->tensors;
	w->graph.ops = w->ops;
	w->graph.refs = w->refs;
	return 0;
}
