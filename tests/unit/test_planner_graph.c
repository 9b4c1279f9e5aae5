// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_planner_graph.c - host unit tests of the planner on graphs
 * (ta_graph_lifetimes()): shapes, lifetimes, exportable tensors, errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "planner_build.h"
#include "ta_runs.h"

/* ---- graphs ----------------------------------------------------------- */

static int t_graph_shapes(void)
{
	struct gb gb;
	struct ta_result res;
	u64 off[64];
	int s, shape;

	for (shape = 0; shape < 4; shape++) {
		gb_init(&gb);
		if (shape == 0) {
			/* skip connection: c = add(b(a), a) */
			u32 x = gb_tensor(&gb, 64, TA_TENSOR_INPUT);
			u32 w = gb_tensor(&gb, 32, TA_TENSOR_CONSTANT);
			u32 a = gb_tensor(&gb, 128, 0);
			u32 b1 = gb_tensor(&gb, 96, 0);
			u32 b2 = gb_tensor(&gb, 96, 0);
			u32 c = gb_tensor(&gb, 128, TA_TENSOR_OUTPUT);
			u32 i0[] = { x, w }, o0[] = { a };
			u32 i1[] = { a }, o1[] = { b1 };
			u32 i2[] = { b1, w }, o2[] = { b2 };
			u32 i3[] = { b2, a }, o3[] = { c };

			OP(&gb, i0, o0);
			OP(&gb, i1, o1);
			OP(&gb, i2, o2);
			OP(&gb, i3, o3);
		} else if (shape == 1) {
			/* two branches joined by a concat */
			u32 x = gb_tensor(&gb, 50, TA_TENSOR_INPUT);
			u32 a = gb_tensor(&gb, 70, 0);
			u32 l1 = gb_tensor(&gb, 30, 0), l2 = gb_tensor(&gb, 40, 0);
			u32 r1 = gb_tensor(&gb, 60, 0), r2 = gb_tensor(&gb, 20, 0);
			u32 y = gb_tensor(&gb, 60, TA_TENSOR_OUTPUT);
			u32 i0[] = { x }, o0[] = { a };
			u32 i1[] = { a }, o1[] = { l1 };
			u32 i2[] = { l1 }, o2[] = { l2 };
			u32 i3[] = { a }, o3[] = { r1 };
			u32 i4[] = { r1 }, o4[] = { r2 };
			u32 i5[] = { l2, r2 }, o5[] = { y };

			OP(&gb, i0, o0);
			OP(&gb, i1, o1);
			OP(&gb, i2, o2);
			OP(&gb, i3, o3);
			OP(&gb, i4, o4);
			OP(&gb, i5, o5);
		} else if (shape == 2) {
			/* concat of many inputs, persistent state, two outputs */
			u32 x = gb_tensor(&gb, 8, TA_TENSOR_INPUT);
			u32 st = gb_tensor(&gb, 16, TA_TENSOR_PERSISTENT);
			u32 parts[8], cat, y1, y2;
			u32 o[2];
			int k;

			for (k = 0; k < 8; k++) {
				u32 in[] = { x, st };

				parts[k] = gb_tensor(&gb, 10 + k, 0);
				gb_op(&gb, 2, in, 1, &parts[k]);
			}
			cat = gb_tensor(&gb, 100, 0);
			gb_op(&gb, 8, parts, 1, &cat);
			y1 = gb_tensor(&gb, 50, TA_TENSOR_OUTPUT);
			y2 = gb_tensor(&gb, 50, TA_TENSOR_OUTPUT);
			o[0] = y1;
			o[1] = y2;
			gb_op(&gb, 1, &cat, 2, o);
			gb_op(&gb, 1, &y1, 1, &st);
		} else {
			/* a long chain with a graph output in the middle */
			u32 prev = gb_tensor(&gb, 40, TA_TENSOR_INPUT), cur;
			int k;

			for (k = 0; k < 12; k++) {
				cur = gb_tensor(&gb, 10 + (k * 7) % 30,
						k == 5 || k == 11 ?
						TA_TENSOR_OUTPUT : 0);
				gb_op(&gb, 1, &prev, 1, &cur);
				prev = cur;
			}
		}
		TA_CHECK(!gb_finish(&gb), "shape %d lifetimes", shape);
		for (s = 0; s < NS; s++)
			TA_CHECK(!plan_ok(&gb.p, s, off, &res), "shape %d %s",
				 shape, ta_strategy_name(s));
	}
	return 0;
}

static int t_graph_lifetimes(void)
{
	struct gb gb;
	u32 x, w, a, b, y, dead, tmp;

	gb_init(&gb);
	x = gb_tensor(&gb, 1, TA_TENSOR_INPUT);
	w = gb_tensor(&gb, 2, TA_TENSOR_CONSTANT);
	a = gb_tensor(&gb, 3, 0);
	b = gb_tensor(&gb, 4, 0);
	dead = gb_tensor(&gb, 5, 0);
	y = gb_tensor(&gb, 6, TA_TENSOR_OUTPUT);
	{
		u32 i0[] = { x, w }, o0[] = { a, dead };
		u32 i1[] = { a }, o1[] = { b };
		u32 i2[] = { a, b }, o2[] = { y };
		u32 i3[] = { w }, o3[1];

		OP(&gb, i0, o0);
		OP(&gb, i1, o1);
		OP(&gb, i2, o2);
		tmp = gb_tensor(&gb, 7, 0);
		o3[0] = tmp;
		OP(&gb, i3, o3);
	}
	TA_CHECK(!gb_finish(&gb), "lifetimes");
	TA_CHECK(gb.b[x].start == 0 && gb.b[x].end == 1, "x");
	TA_CHECK(gb.b[w].start == 0 && gb.b[w].end == 4, "w");
	TA_CHECK(gb.b[a].start == 0 && gb.b[a].end == 3, "a");
	TA_CHECK(gb.b[b].start == 1 && gb.b[b].end == 3, "b");
	TA_CHECK(gb.b[dead].start == 0 && gb.b[dead].end == 1, "dead");
	TA_CHECK(gb.b[y].start == 2 && gb.b[y].end == 4, "y");
	TA_CHECK(gb.b[tmp].start == 3 && gb.b[tmp].end == 4, "tmp");
	TA_CHECK(gb.b[a].size == 3 && gb.b[a].align == 1, "size");

	/* a problem whose buffers disagree with its graph is rejected */
	{
		struct ta_result res;
		u64 off[8];

		gb.b[b].end = 4;
		TA_CHECK(ta_plan_solve(&gb.p, TA_STRATEGY_GREEDY_SIZE, NULL, off,
				       &res) == -EINVAL, "mismatch");
		gb.b[b].end = 3;
		gb.p.n_buffers--;
		TA_CHECK(ta_plan_solve(&gb.p, TA_STRATEGY_GREEDY_SIZE, NULL, off,
				       &res) == -EINVAL, "count");
	}
	return 0;
}

/*
 * An exportable tensor is planned in whole pages at a page boundary, for
 * the whole run: its buffer's size, alignment and lifetime say so, every
 * strategy places it there, and the lower bound counts the padding (x,
 * read by op 0 only, still takes its page at step 1).
 */
static int t_graph_exportable(void)
{
	u64 page = ta_env_page_size();
	struct gb gb;
	u32 x, a, y, s;

	gb_init(&gb);
	x = gb_tensor(&gb, 100, TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE);
	a = gb_tensor(&gb, 1000, 0);
	y = gb_tensor(&gb, 2 * page + 1, TA_TENSOR_OUTPUT | TA_TENSOR_EXPORTABLE);
	gb.t[y].align = 2 * page;	/* a larger alignment stays */
	{
		u32 i0[] = { x }, o0[] = { a };
		u32 i1[] = { a }, o1[] = { y };

		OP(&gb, i0, o0);
		OP(&gb, i1, o1);
	}
	TA_CHECK(!gb_finish(&gb), "lifetimes");
	TA_CHECK(gb.b[x].size == page && gb.b[x].align == page, "x: %llu %llu",
		 (unsigned long long)gb.b[x].size,
		 (unsigned long long)gb.b[x].align);
	TA_CHECK(gb.b[a].size == 1000 && gb.b[a].align == 1, "a");
	TA_CHECK(gb.b[y].size == 3 * page && gb.b[y].align == 2 * page, "y");
	/* Size 0 stays 0: nothing to export. */
	gb.t[a].flags = TA_TENSOR_EXPORTABLE;
	gb.t[a].size = 0;
	TA_CHECK(!gb_finish(&gb), "size 0");
	TA_CHECK(gb.b[a].size == 0 && gb.b[a].align == page, "a size 0");
	gb.t[a].flags = 0;
	gb.t[a].size = 1000;
	TA_CHECK(!gb_finish(&gb), "again");
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		struct ta_result res;
		u64 off[3];

		TA_CHECK(!ta_plan_solve(&gb.p, s, NULL, off, &res), "plan %u", s);
		TA_CHECK(off[x] % page == 0 && off[y] % (2 * page) == 0,
			 "%s: offsets %llu %llu", ta_strategy_name(s),
			 (unsigned long long)off[x], (unsigned long long)off[y]);
		TA_CHECK(res.lower_bound == 1000 + 4 * page, "%s: bound %llu",
			 ta_strategy_name(s),
			 (unsigned long long)res.lower_bound);
		TA_CHECK(!ta_plan_validate(&gb.p, off, res.height), "valid");
	}
	return 0;
}

/*
 * Issue 25, row 2: t0 (input, exportable, read by op 0 only) -> t1 -> t2 ->
 * t3 (output), a page each. The holder of t0's dma-buf may use it at any
 * time, so no strategy may put another tensor on t0's page once op 0 has
 * run (before the fix every strategy put t2 there), and the validator
 * refuses a plan that does.
 */
static int t_graph_exportable_alone(void)
{
	u64 page = ta_env_page_size();
	unsigned int s, checked = 0;
	u32 t[4], i;
	struct gb gb;

	gb_init(&gb);
	t[0] = gb_tensor(&gb, page, TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE);
	t[1] = gb_tensor(&gb, page, 0);
	t[2] = gb_tensor(&gb, page, 0);
	t[3] = gb_tensor(&gb, page, TA_TENSOR_OUTPUT);
	for (i = 0; i < 3; i++)
		gb_op(&gb, 1, &t[i], 1, &t[i + 1]);
	TA_CHECK(!gb_finish(&gb), "lifetimes");
	TA_CHECK(gb.b[t[0]].start == 0 && gb.b[t[0]].end == 3,
		 "t0 lives [%u, %u), not the whole run", gb.b[t[0]].start,
		 gb.b[t[0]].end);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		struct ta_result res;
		u64 off[4];

		TA_CHECK(!ta_plan_solve(&gb.p, s, NULL, off, &res), "plan %u", s);
		for (i = 1; i < 4; i++)
			TA_CHECK(off[i] + page <= off[0] || off[0] + page <= off[i],
				 "%s: t%u at %llu on t0's page at %llu",
				 ta_strategy_name(s), i,
				 (unsigned long long)off[i],
				 (unsigned long long)off[0]);
		TA_CHECK(res.lower_bound == 3 * page, "%s: bound %llu",
			 ta_strategy_name(s),
			 (unsigned long long)res.lower_bound);
		checked++;
	}
	TA_CHECK(checked == TA_STRATEGY_COUNT, "%u strategies", checked);
	{
		/* t2 on t0's page: what every strategy did before. */
		u64 off[4] = { 0, page, 0, page };

		TA_CHECK(ta_plan_validate(&gb.p, off, 2 * page),
			 "the validator takes t2 on t0's page");
	}
	return 0;
}

static int t_graph_errors(void)
{
	struct gb gb;
	u32 x, a;

#define FRESH()							\
	do {							\
		gb_init(&gb);					\
		x = gb_tensor(&gb, 8, TA_TENSOR_INPUT);		\
		a = gb_tensor(&gb, 8, TA_TENSOR_OUTPUT);	\
	} while (0)

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	TA_CHECK(!gb_finish(&gb), "good");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb_op(&gb, 1, &x, 1, &a);
	TA_CHECK(gb_finish(&gb) == -EINVAL, "produced twice");

	FRESH();
	gb_op(&gb, 1, &a, 1, &x);
	TA_CHECK(gb_finish(&gb) == -EINVAL, "input written");

	FRESH();
	{
		u32 b = gb_tensor(&gb, 8, 0);

		gb_op(&gb, 1, &b, 1, &a);
		gb_op(&gb, 1, &x, 1, &b);
	}
	TA_CHECK(gb_finish(&gb) == -EINVAL, "read before produced");

	FRESH();
	gb_tensor(&gb, 8, 0);
	gb_op(&gb, 1, &x, 1, &a);
	TA_CHECK(gb_finish(&gb) == -EINVAL, "unreferenced");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.r[1] = 7;
	TA_CHECK(gb_finish(&gb) == -EINVAL, "ref out of range");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.o[0].n_outputs = 2;
	TA_CHECK(gb_finish(&gb) == -EINVAL, "refs out of range");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.t[1].flags = 0x20;
	TA_CHECK(gb_finish(&gb) == -EINVAL, "bad flag");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.t[1].align = 3;
	TA_CHECK(gb_finish(&gb) == -EINVAL, "bad align");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.t[1].align = TA_PLAN_MAX_ALIGN << 1;
	TA_CHECK(gb_finish(&gb) == -E2BIG, "align too big");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.t[1].size = TA_PLAN_MAX_SIZE;
	TA_CHECK(gb_finish(&gb) == -E2BIG, "size too big");

	FRESH();
	gb_op(&gb, 1, &x, 1, &a);
	gb.g.n_tensors = TA_PLAN_MAX_BUFFERS + 1;
	TA_CHECK(ta_graph_lifetimes(&gb.g, gb.b) == -E2BIG, "too many");
	TA_CHECK(ta_graph_lifetimes(NULL, gb.b) == -EINVAL, "NULL");
#undef FRESH
	return 0;
}

const struct ta_test ta_planner_graph_tests[] = {
	{ "graphs: skip, branches, concat, outputs mid-chain", t_graph_shapes },
	{ "graph lifetimes", t_graph_lifetimes },
	{ "graph errors", t_graph_errors },
	{ "graph: exportable tensors in whole pages", t_graph_exportable },
	{ "graph: an exportable tensor's pages are its own all run", t_graph_exportable_alone },
	{ NULL, NULL },
};
