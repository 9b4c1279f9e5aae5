// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_runtime.c - in-place ops (aliasing) and the fixed strategy.
 */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "ta_test.h"
#include "ta_files.h"

struct rt {
	struct ta_graph_tensor t[16];
	struct ta_graph_op o[16];
	u32 r[64];
	struct ta_graph g;
	struct ta_buffer b[16];
	struct ta_problem p;
};

static u32 rt_tensor(struct rt *x, u64 size, u64 align, u32 flags)
{
	u32 i = x->g.n_tensors++;

	x->t[i].size = size;
	x->t[i].align = align;
	x->t[i].flags = flags;
	return i;
}

static void rt_op(struct rt *x, u32 flags, u32 nin, const u32 *in, u32 nout,
		  const u32 *out)
{
	struct ta_graph_op *op = &x->o[x->g.n_ops++];
	u32 k;

	op->first_ref = x->g.n_refs;
	op->n_inputs = nin;
	op->n_outputs = nout;
	op->flags = flags;
	for (k = 0; k < nin; k++)
		x->r[x->g.n_refs++] = in[k];
	for (k = 0; k < nout; k++)
		x->r[x->g.n_refs++] = out[k];
}

static int rt_finish(struct rt *x)
{
	x->g.tensors = x->t;
	x->g.ops = x->o;
	x->g.refs = x->r;
	x->p.n_buffers = x->g.n_tensors;
	x->p.buffers = x->b;
	x->p.graph = &x->g;
	return ta_graph_lifetimes(&x->g, x->b);
}

/*
 * x(in, 10) -op0-> a(100) -view-> b(100) -op2-> y(out, 10): the view is
 * the peak, 200 bytes live without sharing, 110 with it.
 */
static int rt_view(struct rt *x, u32 view_flags, u64 b_size, u32 a_flags)
{
	u32 t_x, t_a, t_b, t_y;

	memset(x, 0, sizeof(*x));
	t_x = rt_tensor(x, 10, 1, TA_TENSOR_INPUT);
	t_a = rt_tensor(x, 100, 8, a_flags);
	t_b = rt_tensor(x, b_size, 16, 0);
	t_y = rt_tensor(x, 10, 1, TA_TENSOR_OUTPUT);
	rt_op(x, 0, 1, &t_x, 1, &t_a);
	rt_op(x, view_flags, 1, &t_a, 1, &t_b);
	rt_op(x, 0, 1, &t_b, 1, &t_y);
	return rt_finish(x);
}

static int t_alias_every_strategy(void)
{
	u64 off[16];
	struct ta_result res;
	u32 root[16];
	struct rt x;
	int s;

	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 100, 0), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 1, "one joins");
	TA_CHECK(root[2] == 1 && root[1] == 1 && root[0] == 0, "b joins a");
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		TA_CHECK(!ta_plan_solve(&x.p, s, NULL, off, &res), "%d", s);
		TA_CHECK(res.lower_bound == 110, "%d: lb %llu", s,
			 (unsigned long long)res.lower_bound);
		TA_CHECK(res.n_aliased == 1, "%d", s);
		TA_CHECK(off[1] == off[2], "%d: a %llu b %llu", s,
			 (unsigned long long)off[1], (unsigned long long)off[2]);
		TA_CHECK(off[1] % 16 == 0, "%d: the class takes both aligns", s);
		TA_CHECK(!ta_plan_validate(&x.p, off, res.height), "%d", s);
		TA_CHECK(res.height >= 110 && res.height <= 130, "%d: %llu", s,
			 (unsigned long long)res.height);
	}
	/*
	 * without the flag: no sharing, 200 bytes live; a (8-aligned) on
	 * top of b starts at 104, b (16-aligned) on top of a at 112: 204
	 */
	TA_CHECK(!rt_view(&x, 0, 100, 0), "graph");
	TA_CHECK(!ta_plan_solve(&x.p, TA_STRATEGY_AUTO, NULL, off, &res), "plan");
	TA_CHECK(res.lower_bound == 204 && res.n_aliased == 0 &&
		 res.height == 204 && res.optimal && off[1] != off[2], "%llu",
		 (unsigned long long)res.height);
	return 0;
}

static int t_alias_rules(void)
{
	u64 off[16];
	struct ta_result res;
	u32 root[16];
	struct rt x;
	u32 t_x, t_a, t_b, t_c, t_y;

	/* sizes differ: no sharing */
	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 96, 0), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 0, "size");
	/* the input is a graph output: it must keep its bytes */
	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 100, TA_TENSOR_OUTPUT), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 0, "output");
	/* persistent and exportable inputs keep theirs too */
	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 100, TA_TENSOR_PERSISTENT), "p");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 0, "persistent");

	/* the input is read again after the view: no sharing */
	memset(&x, 0, sizeof(x));
	t_x = rt_tensor(&x, 10, 1, TA_TENSOR_INPUT);
	t_a = rt_tensor(&x, 100, 1, 0);
	t_b = rt_tensor(&x, 100, 1, 0);
	t_y = rt_tensor(&x, 10, 1, TA_TENSOR_OUTPUT);
	rt_op(&x, 0, 1, &t_x, 1, &t_a);
	rt_op(&x, TA_OP_INPLACE, 1, &t_a, 1, &t_b);
	{
		u32 in2[2] = { t_a, t_b };

		rt_op(&x, 0, 2, in2, 1, &t_y);
	}
	TA_CHECK(!rt_finish(&x), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 0, "read again");

	/* a chain of two views is one class of three */
	memset(&x, 0, sizeof(x));
	t_x = rt_tensor(&x, 10, 1, TA_TENSOR_INPUT);
	t_a = rt_tensor(&x, 64, 1, 0);
	t_b = rt_tensor(&x, 64, 1, 0);
	t_c = rt_tensor(&x, 64, 1, 0);
	t_y = rt_tensor(&x, 10, 1, TA_TENSOR_OUTPUT);
	rt_op(&x, 0, 1, &t_x, 1, &t_a);
	rt_op(&x, TA_OP_INPLACE, 1, &t_a, 1, &t_b);
	rt_op(&x, TA_OP_INPLACE, 1, &t_b, 1, &t_c);
	rt_op(&x, 0, 1, &t_c, 1, &t_y);
	TA_CHECK(!rt_finish(&x), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 2, "chain");
	TA_CHECK(root[t_b] == t_a && root[t_c] == t_a, "one class");
	TA_CHECK(!ta_plan_solve(&x.p, TA_STRATEGY_GREEDY_SIZE, NULL, off, &res), "p");
	TA_CHECK(res.n_aliased == 2 && res.lower_bound == 74 &&
		 res.height == 74 && res.optimal, "%llu",
		 (unsigned long long)res.height);
	TA_CHECK(off[t_a] == off[t_b] && off[t_b] == off[t_c], "same offset");

	/* the view's input after its output in tensor order: aligns merge */
	memset(&x, 0, sizeof(x));
	t_y = rt_tensor(&x, 10, 1, TA_TENSOR_OUTPUT);
	t_b = rt_tensor(&x, 64, 64, 0);
	t_a = rt_tensor(&x, 64, 2, TA_TENSOR_INPUT);
	t_x = rt_tensor(&x, 3, 1, TA_TENSOR_INPUT);
	{
		u32 in2[2] = { t_a, t_x };

		rt_op(&x, TA_OP_INPLACE, 2, in2, 1, &t_b);
	}
	rt_op(&x, 0, 1, &t_b, 1, &t_y);
	TA_CHECK(!rt_finish(&x), "graph");
	TA_CHECK(ta_graph_aliases(&x.g, x.b, root) == 1 && root[t_b] == t_a,
		 "b joins a");
	for (int s = 0; s < TA_STRATEGY_COUNT; s++) {
		TA_CHECK(!ta_plan_solve(&x.p, s, NULL, off, &res), "%d", s);
		TA_CHECK(off[t_a] == off[t_b] && off[t_b] % 64 == 0, "%d", s);
	}

	/* unknown op flags are refused */
	x.o[1].flags = 0x80;
	TA_CHECK(ta_graph_lifetimes(&x.g, x.b) == -EINVAL, "op flags");
	return 0;
}

/* The validator: aliases may share only at one offset; others never. */
static int t_alias_validator(void)
{
	struct ta_conflict c;
	u64 off[4] = { 0, 16, 16, 0 };
	struct rt x;

	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 100, 0), "graph");
	TA_CHECK(!ta_plan_check(&x.p, off, 116, &c), "same offset");
	TA_CHECK(c.kind == TA_CONFLICT_NONE, "none");
	off[2] = 32;
	TA_CHECK(ta_plan_check(&x.p, off, 132, &c) == -EINVAL, "apart");
	TA_CHECK(c.kind == TA_CONFLICT_OVERLAP && c.a == 1 && c.b == 2 &&
		 c.step == 1, "%u %u %u %u", c.kind, c.a, c.b, c.step);
	/* no view: the same offsets conflict */
	TA_CHECK(!rt_view(&x, 0, 100, 0), "graph");
	off[2] = 16;
	TA_CHECK(ta_plan_check(&x.p, off, 116, &c) == -EINVAL, "no view");
	TA_CHECK(c.kind == TA_CONFLICT_OVERLAP && c.a == 1 && c.b == 2, "ab");
	return 0;
}

/*
 * A trace's alias classes (&ta_problem.alias, a plan CSV's alias column):
 * a and b are one memory, live at once at step 1, c beside them. Every
 * strategy gives a and b one offset, the bound counts them once, the
 * validator lets them share and nobody else, and a bad class is -EINVAL.
 */
static int t_alias_trace(void)
{
	struct ta_buffer b[3] = {
		{ .size = 64, .align = 16, .start = 0, .end = 2 },
		{ .size = 64, .align = 64, .start = 1, .end = 3 },
		{ .size = 32, .align = 1, .start = 0, .end = 3 },
	};
	u32 alias[3] = { 0, 0, 2 };
	struct ta_problem p = { .n_buffers = 3, .buffers = b, .alias = alias };
	u64 off[3], lb, fixed[3] = { 64, 64, 0 };
	struct ta_conflict c;
	struct ta_result res;
	int s, planned = 0;

	TA_CHECK(!ta_problem_lower_bound(&p, &lb) && lb == 96, "bound %llu",
		 (unsigned long long)lb);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		TA_CHECK(!ta_plan_solve(&p, s, NULL, off, &res), "%s",
			 ta_strategy_name(s));
		TA_CHECK(off[0] == off[1] && !(off[0] % 64) &&
			 res.n_aliased == 1 && res.lower_bound == 96 &&
			 !ta_plan_validate(&p, off, res.height), "%s: %llu %llu",
			 ta_strategy_name(s), (unsigned long long)off[0],
			 (unsigned long long)off[1]);
		planned++;
	}
	TA_CHECK(planned == TA_STRATEGY_COUNT, "%d strategies", planned);
	p.fixed = fixed;
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) &&
		 res.height == 128 && !memcmp(off, fixed, sizeof(off)), "fixed");
	p.fixed = NULL;
	TA_CHECK(!ta_plan_check(&p, fixed, 128, &c), "shared");
	fixed[2] = 64;
	TA_CHECK(ta_plan_check(&p, fixed, 128, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP, "c is no alias");
	fixed[0] = 16;
	fixed[2] = 128;
	TA_CHECK(ta_plan_check(&p, fixed, 160, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP, "apart, overlapping");
	alias[2] = 1;		/* 1 is no root */
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res) == -EINVAL,
		 "no root");
	alias[2] = 0;		/* 32 bytes in a class of 64 */
	TA_CHECK(ta_problem_lower_bound(&p, &lb) == -EINVAL, "two sizes");
	alias[2] = 3;
	TA_CHECK(ta_plan_check(&p, off, 128, &c) == -EINVAL, "beyond");
	alias[2] = 2;
	alias[0] = 1;		/* a root may come after its members */
	alias[1] = 1;
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res) &&
		 off[0] == off[1] && res.n_aliased == 1, "root last");
	b[1].start = 2;		/* a at [0, 2), b at [2, 3): one span */
	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res), "touching");
	b[1].start = 3;		/* step 2 uncovered: not one memory */
	b[1].end = 4;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_AUTO, NULL, off, &res) == -EINVAL &&
		 ta_problem_lower_bound(&p, &lb) == -EINVAL, "a gap");
	return 0;
}

static int t_fixed(void)
{
	u64 fixed[4] = { 0, 16, 16, 128 }, off[4];
	struct ta_result res;
	struct rt x;

	TA_CHECK(!rt_view(&x, TA_OP_INPLACE, 100, 0), "graph");
	/* the fixed strategy needs offsets, and only it takes them */
	TA_CHECK(ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "no offsets");
	x.p.fixed = fixed;
	TA_CHECK(ta_plan_solve(&x.p, TA_STRATEGY_AUTO, NULL, off, &res) == -EINVAL,
		 "offsets with auto");
	TA_CHECK(!ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res), "valid");
	TA_CHECK(!memcmp(off, fixed, sizeof(off)), "as given");
	TA_CHECK(res.height == 138 && res.lower_bound == 110 && !res.optimal,
		 "%llu", (unsigned long long)res.height);
	/* the height the caller planned for */
	x.p.fixed_height = 4096;
	TA_CHECK(!ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res), "height");
	TA_CHECK(res.height == 4096, "%llu", (unsigned long long)res.height);
	x.p.fixed_height = 137;
	TA_CHECK(ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "above the height");
	TA_CHECK(res.conflict.kind == TA_CONFLICT_HEIGHT && res.conflict.a == 3,
		 "%u %u", res.conflict.kind, res.conflict.a);
	x.p.fixed_height = 0;
	/* misaligned: b wants 16 */
	fixed[2] = 24;
	fixed[1] = 24;
	TA_CHECK(ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "misaligned");
	TA_CHECK(res.conflict.kind == TA_CONFLICT_ALIGN && res.conflict.a == 2,
		 "%u %u", res.conflict.kind, res.conflict.a);
	/* x and a live together at step 0, overlapping */
	fixed[1] = 0;
	fixed[2] = 0;
	TA_CHECK(ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "overlap");
	TA_CHECK(res.conflict.kind == TA_CONFLICT_OVERLAP &&
		 res.conflict.a == 0 && res.conflict.b == 1 &&
		 res.conflict.step == 0, "%u %u %u %u", res.conflict.kind,
		 res.conflict.a, res.conflict.b, res.conflict.step);
	/* unfixed tensors are placed around the fixed ones */
	fixed[0] = 200;
	fixed[1] = TA_OFFSET_UNFIXED;
	fixed[2] = 0;
	fixed[3] = TA_OFFSET_UNFIXED;
	TA_CHECK(!ta_plan_solve(&x.p, TA_STRATEGY_FIXED, NULL, off, &res), "around");
	TA_CHECK(off[0] == 200 && off[2] == 0, "fixed kept");
	TA_CHECK(!ta_plan_validate(&x.p, off, res.height), "valid");
	TA_CHECK(off[1] >= 100, "a is not shared: %llu",
		 (unsigned long long)off[1]);
	return 0;
}

/* Trace form takes fixed offsets too; zero-size buffers sit at 0. */
static int t_fixed_trace(void)
{
	struct ta_buffer b[3] = {
		{ 64, 64, 0, 2 }, { 0, 1, 0, 1 }, { 32, 32, 1, 3 },
	};
	u64 fixed[3] = { 0, 12345, 64 }, off[3];
	struct ta_problem p = { .n_buffers = 3, .buffers = b, .fixed = fixed };
	struct ta_result res;

	TA_CHECK(!ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res), "plan");
	TA_CHECK(off[0] == 0 && off[1] == 0 && off[2] == 64, "offsets");
	TA_CHECK(res.height == 96 && res.lower_bound == 96 && res.optimal,
		 "%llu", (unsigned long long)res.height);
	fixed[2] = 32;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "overlap");
	TA_CHECK(res.conflict.kind == TA_CONFLICT_OVERLAP &&
		 res.conflict.a == 0 && res.conflict.b == 2 &&
		 res.conflict.step == 1, "%u %u %u %u", res.conflict.kind,
		 res.conflict.a, res.conflict.b, res.conflict.step);
	fixed[2] = 1ULL << 62;
	p.fixed_height = 0;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL ||
		 res.height == (1ULL << 62) + 32, "huge offset");
	fixed[2] = TA_PLAN_MAX_SIZE;
	TA_CHECK(ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res) == -EINVAL,
		 "offset beyond 2^63");
	return 0;
}

/* The graph file spells a view "inplace"; it survives a round trip. */
static int t_graph_file_inplace(void)
{
	char path[] = "/tmp/ta_unit_inplaceXXXXXX", err[256];
	const char *text = "tensorarena-graph 1\n"
			   "tensor x 10 input\ntensor a 100\ntensor b 100\n"
			   "tensor y 10 output\n"
			   "op conv x -> a\ninplace reshape a -> b\n"
			   "op conv b -> y\n";
	struct ta_input in, back;
	struct ta_result res;
	u64 off[4];
	FILE *f;
	int fd = mkstemp(path);

	TA_CHECK(fd >= 0, "mkstemp");
	f = fdopen(fd, "w");
	TA_CHECK(f && fputs(text, f) >= 0 && !fclose(f), "write");
	TA_CHECK(!ta_input_read(path, &in, err, sizeof(err)), "%s", err);
	TA_CHECK(in.ops[1].flags == TA_OP_INPLACE && !in.ops[0].flags, "flags");
	TA_CHECK(!ta_plan_solve(&in.prob, TA_STRATEGY_AUTO, NULL, off, &res), "plan");
	TA_CHECK(res.height == 110 && res.n_aliased == 1, "%llu",
		 (unsigned long long)res.height);
	TA_CHECK(!ta_graph_write(path, &in), "write back");
	TA_CHECK(!ta_input_read(path, &back, err, sizeof(err)), "%s", err);
	TA_CHECK(back.ops[1].flags == TA_OP_INPLACE, "round trip");
	ta_input_free(&back);
	ta_input_free(&in);
	f = fopen(path, "w");
	TA_CHECK(f && fputs("tensorarena-graph 1\ntensor x 1 input\n"
			    "inplace bad -> x\n", f) >= 0 && !fclose(f), "w");
	TA_CHECK(ta_input_read(path, &in, err, sizeof(err)) == -EINVAL, "bad");
	TA_CHECK(strstr(err, "inplace op needs an input"), "%s", err);
	unlink(path);
	return 0;
}

const struct ta_test ta_runtime_tests[] = {
	{ "alias: every strategy shares a view's bytes", t_alias_every_strategy },
	{ "alias: the rules (size, output, reread, chain, flags)", t_alias_rules },
	{ "alias: the validator lets aliases share one offset", t_alias_validator },
	{ "alias: a trace's classes (a plan CSV's alias column)", t_alias_trace },
	{ "fixed: offsets checked, conflicts named, unfixed placed", t_fixed },
	{ "fixed: trace form", t_fixed_trace },
	{ "graph file: inplace ops round trip", t_graph_file_inplace },
	{ NULL, NULL },
};
