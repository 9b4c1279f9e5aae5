// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_onnx_infer.c - host unit tests of the ONNX importer's shape
 * inference (ta_onnx.c) on tiny ModelProtos built with onnx_build.h, and
 * of the shapes a model records (value_info) against those inferred.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
#include "ta_test.h"
#include "tensorarena.h"
#include "onnx_build.h"

/* ---- shape inference ---- */

static int t_add_broadcast(void)
{
	static const s64 a[] = { 2, 3, 4 }, b[] = { 3, 1 }, c[] = { 5 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "a", a, 3);
	input(&g, "b", b, 2);
	node(&g, "Add", "add", "a,b", "c", NULL);
	node(&g, "Relu", "", "c", "d", NULL);
	output(&g, "d");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "c", 96, "FLOAT [2,3,4]") || has(&in, "b", 12, "FLOAT [3,1]"))
		return 1;
	TA_CHECK(in.tensors[tensor(&in, "a")].flags == TA_TENSOR_INPUT &&
		 in.tensors[tensor(&in, "d")].flags == TA_TENSOR_OUTPUT &&
		 in.tensors[0].align == 64, "flags, align");
	TA_CHECK(in.graph.n_ops == 2 && !strcmp(in.op_names[0], "Add"), "ops");
	ta_input_free(&in);

	memset(&g, 0, sizeof(g));
	input(&g, "a", a, 3);
	input(&g, "c", c, 1);
	node(&g, "Mul", "mul", "a,c", "d", NULL);
	output(&g, "d");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (mul, Mul)",
		     "shapes [2,3,4] and [5] do not broadcast", NULL);
}

static int t_reshape(void)
{
	static const s64 x[] = { 2, 3, 4 }, two[] = { 2 }, s1[] = { 0, -1 };
	static const s64 s2[] = { -1, -1 }, s3[] = { 5, -1 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 3);
	init(&g, "s", ONNX_INT64, two, 1, s1);
	node(&g, "Reshape", "r", "x,s", "y", NULL);
	node(&g, "Relu", "", "y", "z", NULL);
	output(&g, "z");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y", 96, "FLOAT [2,12]") ||
	    has(&in, "s", 16, "INT64 [2] initializer"))
		return 1;
	TA_CHECK(in.ops[0].flags == TA_OP_INPLACE && !in.ops[1].flags,
		 "Reshape in place, Relu not");
	TA_CHECK(in.tensors[tensor(&in, "s")].flags == TA_TENSOR_CONSTANT,
		 "shape is constant");
	ta_input_free(&in);

	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	init(&g, "s", ONNX_INT64, two, 1, s2);
	node(&g, "Reshape", "r", "x,s", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (r, Reshape)", "more than one -1",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	init(&g, "s", ONNX_INT64, two, 1, s3);
	node(&g, "Reshape", "r", "x,s", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "cannot reshape [2,3,4] to [5,-1]", NULL);
}

/*
 * x [N,3,4,5] reshaped to [Shape(x)[0], -1] as @out: PyTorch's
 * x.view(x.size(0), -1), the values of a shape carried through Gather,
 * Unsqueeze and Concat.
 */
static void shape_chain(struct pbw *g, const char *out)
{
	static const s64 x[] = { SYM, 3, 4, 5 }, one[] = { 1 }, zero[] = { 0 };
	static const s64 m1[] = { -1 };

	input(g, "x", x, 4);
	init(g, "i0", ONNX_INT64, NULL, 0, zero);
	init(g, "ax", ONNX_INT64, one, 1, zero);
	init(g, "m1", ONNX_INT64, one, 1, m1);
	node(g, "Shape", "", "x", "sh", NULL);
	node(g, "Gather", "", "sh,i0", "n", NULL);
	node(g, "Unsqueeze", "", "n,ax", "n1", NULL);
	node(g, "Concat", "", "n1,m1", "target", "axis=0", NULL);
	node(g, "Reshape", "flat", "x,target", out, NULL);
}

/* Shape -> Gather -> Unsqueeze -> Concat -> Reshape: values folded. */
static int t_shape_chain(void)
{
	struct pbw g = { 0 }, m;
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	int ret;

	shape_chain(&g, "y");
	node(&g, "Flatten", "", "y", "z", "axis=1", NULL);
	output(&g, "z");
	m = model(&g, 13);
	ret = parse(&m, &in, &info, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y", 240, "FLOAT [1,60]") || has(&in, "z", 240, "FLOAT [1,60]") ||
	    has(&in, "x", 240, "FLOAT [1,3,4,5]") || has(&in, "sh", 32, "INT64 [4]"))
		return 1;
	TA_CHECK(info.n_symbolic == 1 && info.n_folded == 0 &&
		 info.n_inplace == 3, "symbolic %u folded %u inplace %u",
		 info.n_symbolic, info.n_folded, info.n_inplace);
	ta_input_free(&in);
	return 0;
}

/*
 * shape_chain() into z, and t [T, ?] through a Relu (u): the graph
 * inputs' symbolic dimensions, sized by name.
 */
static struct pbw sym_model(void)
{
	static const s64 t[] = { SYM_T, SYM_ANON };
	struct pbw g = { 0 };

	shape_chain(&g, "z");
	input(&g, "t", t, 2);
	node(&g, "Relu", "", "t", "u", NULL);
	output(&g, "z");
	output(&g, "u");
	return model(&g, 13);
}

/* sym_model() read with @n sizes: the parse's return, @err its message. */
static int sym_parse(const struct ta_onnx_dim *dims, u32 n,
		     struct ta_input *in, struct ta_onnx_info *info,
		     char *err, size_t errlen)
{
	struct pbw m = sym_model();
	int ret = ta_onnx_parse_dims(m.b, m.n, "t.onnx", dims, n, in, info,
				     err, errlen);

	free(m.b);
	return ret;
}

/* A bad set of sizes: @want, a message naming it, nothing read. */
static int sym_fails(const struct ta_onnx_dim *dims, u32 n, const char *msg)
{
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	int ret = sym_parse(dims, n, &in, &info, err, sizeof(err));

	if (!ret)
		ta_input_free(&in);
	TA_CHECK(ret == -EINVAL, "ret %d for '%s' (%s)", ret, msg, err);
	TA_CHECK(strstr(err, msg) && !strncmp(err, "t.onnx: ", 8),
		 "message '%s' lacks '%s'", err, msg);
	TA_CHECK(!in.graph.n_tensors && !in.prob.n_buffers,
		 "a refused read left %u tensors", in.graph.n_tensors);
	return 0;
}

/*
 * Sizes for symbolic dimensions (tactl --dim): every dimension of that
 * name in every graph input, the values computed from the shape (Shape ->
 * Reshape) too; or by position, INPUT[AXIS], the way to size one without
 * a name; one without a size is 1, counted and named (by position when it
 * has no name); a name no input has, one given twice, a size past the
 * limit, no name, too many sizes, a static dimension's position, a
 * dimension given both by name and position: refused.
 */
static int t_symbolic_sizes(void)
{
	static const struct ta_onnx_dim both[] = { { "T", 5 }, { "N", 3 } };
	static const struct ta_onnx_dim n_only[] = { { "N", 7 } };
	static const struct ta_onnx_dim stray[] = { { "N", 2 }, { "M", 2 } };
	static const struct ta_onnx_dim twice[] = { { "N", 2 }, { "N", 3 } };
	static const struct ta_onnx_dim big[] = { { "N", (1ULL << 36) + 1 } };
	static const struct ta_onnx_dim anon[] = { { "", 2 } };
	static const struct ta_onnx_dim all3[] = { { "T", 5 }, { "t[1]", 4 },
						   { "N", 3 } };
	static const struct ta_onnx_dim x0[] = { { "x[0]", 6 } };
	static const struct ta_onnx_dim named_and_pos[] = { { "N", 2 },
							    { "x[0]", 2 } };
	static const struct ta_onnx_dim fixed[] = { { "x[1]", 3 } };
	static const struct ta_onnx_dim past[] = { { "t[2]", 1 } };
	struct ta_onnx_dim many[TA_ONNX_MAX_DIMS + 1];
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	u32 k, cases = 0;

	/* none given: as before, every symbolic dimension 1 */
	TA_CHECK(!sym_parse(NULL, 0, &in, &info, err, sizeof(err)), "%s", err);
	if (has(&in, "x", 240, "FLOAT [1,3,4,5]") ||
	    has(&in, "z", 240, "FLOAT [1,60]") || has(&in, "u", 4, "FLOAT [1,1]"))
		return 1;
	TA_CHECK(info.n_symbolic == 3 && info.n_bound == 0 &&
		 !strcmp(info.unbound, "N") && info.unbound_others,
		 "symbolic %u bound %u first '%s'", info.n_symbolic,
		 info.n_bound, info.unbound);
	ta_input_free(&in);
	cases++;
	/* both named ones given, in any order; the unnamed one stays 1 */
	TA_CHECK(!sym_parse(both, 2, &in, &info, err, sizeof(err)), "%s", err);
	if (has(&in, "x", 720, "FLOAT [3,3,4,5]") ||
	    has(&in, "z", 720, "FLOAT [3,60]") || has(&in, "u", 20, "FLOAT [5,1]"))
		return 1;
	TA_CHECK(info.n_symbolic == 1 && info.n_bound == 2 &&
		 !strcmp(info.unbound, "t[1]") && !info.unbound_others,
		 "symbolic %u bound %u first '%s'", info.n_symbolic,
		 info.n_bound, info.unbound);
	ta_input_free(&in);
	cases++;
	/* one given: the other named one is reported */
	TA_CHECK(!sym_parse(n_only, 1, &in, &info, err, sizeof(err)), "%s", err);
	if (has(&in, "z", 1680, "FLOAT [7,60]") || has(&in, "u", 4, "FLOAT [1,1]"))
		return 1;
	TA_CHECK(info.n_symbolic == 2 && info.n_bound == 1 &&
		 !strcmp(info.unbound, "T") && info.unbound_others,
		 "symbolic %u bound %u first '%s'",
		 info.n_symbolic, info.n_bound, info.unbound);
	ta_input_free(&in);
	cases++;
	if (sym_fails(stray, 2, "dimension 'M' was given a size, but no graph input has a symbolic dimension of that name, or of that INPUT[AXIS]") ||
	    sym_fails(twice, 2, "dimension 'N' given a size twice") ||
	    sym_fails(big, 1, "dimension 'N': size 68719476737, more than 2^36") ||
	    sym_fails(anon, 1, "a size for a symbolic dimension without a name"))
		return 1;
	cases += 4;
	for (k = 0; k < TA_ONNX_MAX_DIMS + 1; k++)
		many[k] = (struct ta_onnx_dim){ "N", 1 };
	if (sym_fails(many, TA_ONNX_MAX_DIMS + 1, "sizes for 65 symbolic dimensions, at most 64") ||
	    sym_fails(NULL, 1, "sizes for 1 symbolic dimensions, but none given"))
		return 1;
	cases += 2;
	/* by position: the dimension without a name, or a named one */
	TA_CHECK(!sym_parse(all3, 3, &in, &info, err, sizeof(err)), "%s", err);
	if (has(&in, "u", 80, "FLOAT [5,4]") ||
	    has(&in, "z", 720, "FLOAT [3,60]"))
		return 1;
	TA_CHECK(info.n_symbolic == 0 && info.n_bound == 3 && !info.unbound[0],
		 "symbolic %u bound %u first '%s'", info.n_symbolic,
		 info.n_bound, info.unbound);
	ta_input_free(&in);
	cases++;
	TA_CHECK(!sym_parse(x0, 1, &in, &info, err, sizeof(err)), "%s", err);
	if (has(&in, "x", 1440, "FLOAT [6,3,4,5]") ||
	    has(&in, "z", 1440, "FLOAT [6,60]"))
		return 1;
	TA_CHECK(info.n_symbolic == 2 && info.n_bound == 1 &&
		 !strcmp(info.unbound, "T") && info.unbound_others,
		 "symbolic %u bound %u first '%s'", info.n_symbolic,
		 info.n_bound, info.unbound);
	ta_input_free(&in);
	cases++;
	if (sym_fails(named_and_pos, 2, "dimension 0 of graph input 'x' is given a size both by its name ('N') and by its position") ||
	    sym_fails(fixed, 1, "dimension 1 of graph input 'x' is 3, not symbolic: it takes no size") ||
	    sym_fails(past, 1, "dimension 't[2]' was given a size, but no graph input has a symbolic dimension"))
		return 1;
	cases += 3;
	TA_CHECK(cases == 14, "%u cases", cases);
	return 0;
}

/*
 * The library's ta_graph_load_dims(): sym_model() from a file, N = 3 and
 * T = 5: z [3,60] and u [5,1] in the plan; a name no input has refused
 * with the reader's message and no graph; sizes for a trace refused.
 */
static int t_load_dims(void)
{
	static const struct ta_load_dim sizes[] = { { "N", 3 }, { "T", 5 } };
	static const struct ta_load_dim stray[] = { { "B", 3 } };
	struct ta_graph_builder *g = NULL;
	struct pbw m = sym_model();
	char path[64], csv[64], err[512] = "";
	struct ta_plan *p;
	int z, u, ok;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ta_unit_dims_%d.onnx", (int)getpid());
	snprintf(csv, sizeof(csv), "/tmp/ta_unit_dims_%d.csv", (int)getpid());
	f = fopen(path, "wb");
	ok = f && fwrite(m.b, 1, m.n, f) == m.n;
	if (f)
		ok = !fclose(f) && ok;
	free(m.b);
	f = fopen(csv, "w");
	ok = f && fputs("id,lower,upper,size\n0,0,1,10\n", f) >= 0 && ok;
	if (f)
		ok = !fclose(f) && ok;
	TA_CHECK(ok, "write %s, %s", path, csv);
	TA_CHECK(!ta_graph_load_dims(path, NULL, sizes, 2, &g, err, sizeof(err)),
		 "%s", err);
	z = ta_graph_tensor_find(g, "z");
	u = ta_graph_tensor_find(g, "u");
	TA_CHECK(z >= 0 && u >= 0, "z %d u %d", z, u);
	TA_CHECK(!ta_plan_offline(g, NULL, &p), "plan");
	TA_CHECK(ta_plan_size(p, z) == 720 && ta_plan_size(p, u) == 20,
		 "z %llu u %llu", (unsigned long long)ta_plan_size(p, z),
		 (unsigned long long)ta_plan_size(p, u));
	ta_plan_free(p);
	ta_graph_free(g);
	g = NULL;
	TA_CHECK(ta_graph_load_dims(path, NULL, stray, 1, &g, err,
				    sizeof(err)) == -EINVAL && !g &&
		 strstr(err, "dimension 'B' was given a size, but no graph input"),
		 "%s", err);
	TA_CHECK(ta_graph_load_dims(csv, NULL, sizes, 1, &g, err,
				    sizeof(err)) == -EINVAL && !g &&
		 strstr(err, "sizes of symbolic dimensions are for an ONNX model"),
		 "%s", err);
	TA_CHECK(ta_graph_load_dims(path, NULL, NULL, 1, &g, err,
				    sizeof(err)) == -EINVAL && !g, "NULL sizes");
	unlink(path);
	unlink(csv);
	return 0;
}

static int t_concat(void)
{
	static const s64 a[] = { 1, 2, 4, 4 }, b[] = { 1, 3, 4, 4 };
	static const s64 c[] = { 1, 3, 5, 4 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "a", a, 4);
	input(&g, "b", b, 4);
	node(&g, "Concat", "cat", "a,b,a", "y", "axis=-3", NULL);
	output(&g, "y");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y", 7 * 16 * 4, "FLOAT [1,7,4,4]"))
		return 1;
	ta_input_free(&in);

	memset(&g, 0, sizeof(g));
	input(&g, "a", a, 4);
	input(&g, "c", c, 4);
	node(&g, "Concat", "cat", "a,c", "y", "axis=1", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (cat, Concat)",
		     "input 1's dimension 2 is 5, input 0's 4", NULL);
}

static int t_conv(void)
{
	static const s64 x[] = { 1, 4, 10, 10 }, w[] = { 6, 2, 3, 3 };
	static const s64 b[] = { 6 }, w1[] = { 6, 3, 3, 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 4);
	init(&g, "w", ONNX_FLOAT, w, 4, NULL);
	init(&g, "b", ONNX_FLOAT, b, 1, NULL);
	/* (10 + 1 + 1 - 3) / 2 + 1 = 5 */
	node(&g, "Conv", "c1", "x,w,b", "y1", "group=2", "pads=[1,1,1,1]",
	     "strides=[2,2]", NULL);
	/* ceil(10 / 3) = 4 */
	node(&g, "Conv", "c2", "x,w", "y2", "group=2", "auto_pad:SAME_UPPER",
	     "strides=[3,3]", NULL);
	/* 10 - ((3 - 1) * 2 + 1) + 1 = 6; 10 + 2 - 3 + 1 = 10 */
	node(&g, "Conv", "c3", "x,w", "y3", "group=2", "dilations=[2,1]",
	     "pads=[0,1,0,1]", "kernel_shape=[3,3]", NULL);
	/* max pool, ceil mode: (10 - 3 + 1) / 2 + 1 = 5 */
	node(&g, "MaxPool", "p", "x", "y4", "kernel_shape=[3,3]",
	     "strides=[2,2]", "ceil_mode=1", NULL);
	node(&g, "GlobalAveragePool", "gp", "y1", "y5", NULL);
	output(&g, "y2");
	output(&g, "y3");
	output(&g, "y4");
	output(&g, "y5");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y1", 6 * 25 * 4, "FLOAT [1,6,5,5]") ||
	    has(&in, "y2", 6 * 16 * 4, "FLOAT [1,6,4,4]") ||
	    has(&in, "y3", 6 * 60 * 4, "FLOAT [1,6,6,10]") ||
	    has(&in, "y4", 4 * 25 * 4, "FLOAT [1,4,5,5]") ||
	    has(&in, "y5", 6 * 4, "FLOAT [1,6,1,1]"))
		return 1;
	ta_input_free(&in);

	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 4);
	init(&g, "w", ONNX_FLOAT, w1, 4, NULL);
	node(&g, "Conv", "c", "x,w", "y", "group=2", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (c, Conv)", "group 2 do not agree",
		     NULL);
}

static int t_gemm(void)
{
	static const s64 a[] = { 2, 5 }, b[] = { 7, 5 }, c[] = { 7 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "a", a, 2);
	init(&g, "b", ONNX_FLOAT, b, 2, NULL);
	init(&g, "c", ONNX_FLOAT, c, 1, NULL);
	node(&g, "Gemm", "fc", "a,b,c", "y", "transB=1", NULL);
	node(&g, "Gemm", "bad", "a,b,c", "z", NULL);
	output(&g, "y");
	output(&g, "z");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	TA_CHECK(ret == -EINVAL && strstr(err, "node 1 (bad, Gemm)") &&
		 strstr(err, "inner dimension 5 differs from B's 7"), "%s", err);
	free(m.b);

	memset(&g, 0, sizeof(g));
	input(&g, "a", a, 2);
	init(&g, "b", ONNX_FLOAT, b, 2, NULL);
	init(&g, "c", ONNX_FLOAT, c, 1, NULL);
	node(&g, "Gemm", "fc", "a,b,c", "y", "transB=1", NULL);
	output(&g, "y");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y", 56, "FLOAT [2,7]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/* Slice with inputs (opset 13), Transpose, Softmax, Split, Squeeze. */
static int t_misc_ops(void)
{
	static const s64 x[] = { 1, 4420, 4 }, one[] = { 1 }, two[] = { 2 };
	static const s64 st[] = { 2 }, en[] = { 1LL << 62 }, ax[] = { -1 };
	static const s64 sp[] = { 3, 1 }, sq[] = { 0 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 3);
	init(&g, "st", ONNX_INT64, one, 1, st);
	init(&g, "en", ONNX_INT64, one, 1, en);
	init(&g, "ax", ONNX_INT64, one, 1, ax);
	init(&g, "sp", ONNX_INT64, two, 1, sp);
	init(&g, "sq", ONNX_INT64, one, 1, sq);
	node(&g, "Slice", "s", "x,st,en,ax", "y", NULL);
	node(&g, "Transpose", "t", "y", "yt", "perm=[2,0,1]", NULL);
	node(&g, "Softmax", "", "yt", "p", "axis=-1", NULL);
	node(&g, "Split", "", "x,sp", "a,b", "axis=2", NULL);
	node(&g, "Squeeze", "", "b,sq", "bs", NULL);
	node(&g, "Dropout", "", "bs", "bd", NULL);
	output(&g, "p");
	output(&g, "a");
	output(&g, "bd");
	m = model(&g, 13);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "y", 4420 * 2 * 4, "FLOAT [1,4420,2]") ||
	    has(&in, "p", 4420 * 2 * 4, "FLOAT [2,1,4420]") ||
	    has(&in, "a", 4420 * 3 * 4, "FLOAT [1,4420,3]") ||
	    has(&in, "bs", 4420 * 4, "FLOAT [4420,1]") ||
	    has(&in, "bd", 4420 * 4, "FLOAT [4420,1]"))
		return 1;
	TA_CHECK(in.ops[4].flags == TA_OP_INPLACE &&
		 in.ops[5].flags == TA_OP_INPLACE && !in.ops[3].flags,
		 "Squeeze and Dropout in place");
	ta_input_free(&in);
	return 0;
}

/* ---- recorded shapes ---- */

static int t_value_info(void)
{
	static const s64 x[] = { 1, 4 }, good[] = { 1, 4 }, bad[] = { 1, 5 };
	static const s64 sym[] = { SYM, 4 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret, pass;

	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		node(&g, "Relu", "r", "x", "y", NULL);
		node(&g, "Sigmoid", "s", "y", "z", NULL);
		vinfo(&g, 13, "y", ONNX_FLOAT, good, 2);
		/* a symbolic dimension is not compared */
		vinfo(&g, 12, "z", ONNX_FLOAT, pass ? sym : good, 2);
		m = model(&g, 13);
		ret = parse(&m, &in, NULL, err, sizeof(err));
		free(m.b);
		TA_CHECK(!ret, "%s", err);
		ta_input_free(&in);
	}
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "r", "x", "y", NULL);
	vinfo(&g, 13, "y", ONNX_FLOAT, bad, 2);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (r, Relu)",
		  "output 'y': inferred FLOAT [1,4], but the model records FLOAT [1,5]",
		  NULL))
		return 1;
	/* a graph output's recorded type is checked too */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "r", "x", "y", NULL);
	vinfo(&g, 12, "y", ONNX_INT64, good, 2);
	m = model(&g, 13);
	return fails(&m, -EINVAL, "inferred FLOAT [1,4], but the model records INT64 [1,4]",
		     NULL);
}

/*
 * A pool's window larger than its padded input: ONNX Runtime 1.23 (and
 * onnx.shape_inference) still give span / stride + 1 elements, the
 * division truncated towards zero: 3 in, window 5, begin pad 1, stride 2
 * writes [1,1,1,1], stride 1 writes [1,1,0,0]; no pad, stride 1 is
 * negative and refused by both. A Conv so is refused by ONNX Runtime
 * ("Invalid input shape"), and here, saying so. Before, every one of them
 * was refused as "larger than the padded input".
 */
static int t_pool_window_over(void)
{
	static const s64 x[] = { 1, 1, 3, 3 }, wd[] = { 1, 1, 5, 5 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 4);
	node(&g, "MaxPool", "p1", "x", "y1", "kernel_shape=[5,5]",
	     "strides=[2,2]", "pads=[1,1,0,0]", NULL);
	node(&g, "AveragePool", "p2", "x", "y2", "kernel_shape=[5,5]",
	     "strides=[3,3]", NULL);
	node(&g, "MaxPool", "p3", "x", "y3", "kernel_shape=[5,5]",
	     "pads=[1,1,0,0]", NULL);
	node(&g, "MaxPool", "p4", "x", "y4", "kernel_shape=[5,5]",
	     "strides=[3,3]", "ceil_mode=1", NULL);
	output(&g, "y1");
	output(&g, "y2");
	output(&g, "y3");
	output(&g, "y4");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "y1", 4, "FLOAT [1,1,1,1]") ||
	    has(&in, "y2", 4, "FLOAT [1,1,1,1]") ||
	    has(&in, "y3", 0, "FLOAT [1,1,0,0]") ||
	    has(&in, "y4", 4, "FLOAT [1,1,1,1]"))
		return 1;
	ta_input_free(&in);
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 4);
	node(&g, "MaxPool", "p", "x", "y", "kernel_shape=[5,5]", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (p, MaxPool)",
		  "the window (5) is larger than the padded input (3) by more than the stride (1): the output size would be negative, and ONNX Runtime refuses it too",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 4);
	init(&g, "w", ONNX_FLOAT, wd, 4, NULL);
	node(&g, "Conv", "c", "x,w", "y", "strides=[2,2]", "pads=[1,1,0,0]",
	     NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (c, Conv)",
		     "the window (5) is larger than the padded input (4), which ONNX Runtime refuses too",
		     NULL);
}

/*
 * More than 8 dimensions (the importer's TA_OX_MAX_RANK): a graph input,
 * a value_info and an initializer refused with the tensor's name and its
 * count. Before, a value's shape was "corrupt ONNX file at byte N (in
 * TensorShapeProto): more than 8 dimensions", naming nothing.
 */
static int t_too_many_dims(void)
{
	static const s64 nine[] = { 1, 1, 1, 1, 1, 1, 1, 1, 2 };
	static const s64 x[] = { 1, 4 };
	struct pbw g = { 0 }, m;

	input(&g, "big_in", nine, 9);
	node(&g, "Relu", "r", "big_in", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "value 'big_in': 9 dimensions, more than 8",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "r", "x", "y", NULL);
	vinfo(&g, 13, "y", ONNX_FLOAT, nine, 9);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "value 'y': 9 dimensions, more than 8", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	init(&g, "w9", ONNX_FLOAT, nine, 9, NULL);
	node(&g, "Add", "a", "x,w9", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "initializer 'w9': 9 dimensions, more than 8",
		     NULL);
}

static int t_unknown_op(void)
{
	static const s64 x[] = { 1, 4 }, y[] = { 2, 3 };
	struct pbw g = { 0 }, m;
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 2);
	node(&g, "Relu", "", "x", "r", NULL);
	node(&g, "FancyOp", "fancy", "r", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 1 (fancy, FancyOp)",
		  "an op type this importer does not know",
		  "onnx.shape_inference.infer_shapes", "value_info", NULL))
		return 1;
	/* unnamed node, another domain */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	{
		struct pbw nd = { 0 };

		pb_str(&nd, 1, "x");
		pb_str(&nd, 2, "y");
		pb_str(&nd, 4, "Relu");
		pb_str(&nd, 7, "com.example");
		pb_msg(&g, 1, &nd);
	}
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (Relu): ", "domain 'com.example'",
		  "infer_shapes", NULL))
		return 1;
	/* with the shape recorded, the op is accepted */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "FancyOp", "fancy", "x", "y", NULL);
	vinfo(&g, 12, "y", ONNX_INT64, y, 2);
	m = model(&g, 13);
	ret = parse(&m, &in, &info, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret && info.n_recorded == 1, "%s", err);
	if (has(&in, "y", 48, "INT64 [2,3]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * The ops of a quantized model for an NPU and of transformers: QDQ,
 * DynamicQuantizeLinear, LayerNormalization's three outputs, depth and
 * space, the gathers, OneHot of a constant depth (of the data: refused).
 */
static int t_npu_ops(void)
{
	static const s64 x[] = { 1, 8, 4, 6 }, six[] = { 6 }, three[] = { 3 };
	static const s64 one[] = { 1 }, two[] = { 2 }, five[] = { 5 };
	static const s64 gi[] = { 1, 8, 4, 2 }, nd[] = { 2, 2 };
	static const s64 zeros[64] = { 0 }, ndv[] = { 0, 1, 0, 3 };
	static const s64 w63[] = { 6, 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 4);
	vinfo(&g, 11, "ind", ONNX_INT64, three, 1);
	init(&g, "sc", ONNX_FLOAT, NULL, 0, NULL);
	init(&g, "zp", ONNX_INT64, NULL, 0, zeros);
	init(&g, "lns", ONNX_FLOAT, six, 1, NULL);
	init(&g, "gi", ONNX_INT64, gi, 4, zeros);
	init(&g, "ndi", ONNX_INT64, nd, 2, ndv);
	init(&g, "depth", ONNX_INT64, one, 1, five);
	init(&g, "ohv", ONNX_FLOAT, two, 1, NULL);
	node(&g, "Cast", "", "zp", "zp8", "to=3", NULL);
	node(&g, "QuantizeLinear", "", "x,sc,zp8", "q", NULL);
	node(&g, "DequantizeLinear", "", "q,sc,zp8", "dq", NULL);
	node(&g, "DepthToSpace", "", "x", "d2s", "blocksize=2", NULL);
	node(&g, "SpaceToDepth", "", "x", "s2d", "blocksize=2", NULL);
	node(&g, "LayerNormalization", "", "x,lns", "ln,mean,inv", "axis=-1",
	     NULL);
	node(&g, "GatherElements", "", "x,gi", "ge", "axis=3", NULL);
	node(&g, "GatherND", "", "x,ndi", "gnd", NULL);
	node(&g, "OneHot", "", "ind,depth,ohv", "oh", NULL);
	node(&g, "IsNaN", "", "x", "isn", NULL);
	node(&g, "DynamicQuantizeLinear", "", "x", "dy,dys,dyz", NULL);
	/* a quantized weight: its DequantizeLinear runs, it is not folded */
	init(&g, "wq", ONNX_INT64, w63, 2, zeros);
	node(&g, "Cast", "", "wq", "w8", "to=3", NULL);
	node(&g, "DequantizeLinear", "", "w8,sc,zp8", "dqw", NULL);
	node(&g, "MatMul", "", "x,dqw", "mm", NULL);
	output(&g, "mm");
	output(&g, "dq");
	output(&g, "d2s");
	output(&g, "s2d");
	output(&g, "ln");
	output(&g, "mean");
	output(&g, "inv");
	output(&g, "ge");
	output(&g, "gnd");
	output(&g, "oh");
	output(&g, "isn");
	output(&g, "dy");
	output(&g, "dys");
	output(&g, "dyz");
	m = model(&g, 17);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "q", 192, "INT8 [1,8,4,6]") ||
	    has(&in, "dq", 768, "FLOAT [1,8,4,6]") ||
	    has(&in, "d2s", 768, "FLOAT [1,2,8,12]") ||
	    has(&in, "s2d", 768, "FLOAT [1,32,2,3]") ||
	    has(&in, "ln", 768, "FLOAT [1,8,4,6]") ||
	    has(&in, "mean", 128, "FLOAT [1,8,4,1]") ||
	    has(&in, "inv", 128, "FLOAT [1,8,4,1]") ||
	    has(&in, "ge", 256, "FLOAT [1,8,4,2]") ||
	    has(&in, "gnd", 192, "FLOAT [2,4,6]") ||
	    has(&in, "oh", 60, "FLOAT [3,5]") ||
	    has(&in, "isn", 192, "BOOL [1,8,4,6]") ||
	    has(&in, "dy", 192, "UINT8 [1,8,4,6]") ||
	    has(&in, "dys", 4, "FLOAT []") || has(&in, "dyz", 1, "UINT8 []") ||
	    has(&in, "w8", 18, "INT8 [6,3] folded") ||
	    has(&in, "dqw", 72, "FLOAT [6,3]") ||
	    has(&in, "mm", 384, "FLOAT [1,8,4,3]"))
		return 1;
	TA_CHECK(!strstr(in.notes[tensor(&in, "dqw")], "folded"),
		 "the DequantizeLinear of a weight folded: %s",
		 in.notes[tensor(&in, "dqw")]);
	ta_input_free(&in);
	/* a depth from the data */
	memset(&g, 0, sizeof(g));
	vinfo(&g, 11, "ind", ONNX_INT64, three, 1);
	vinfo(&g, 11, "depth", ONNX_INT64, one, 1);
	init(&g, "ohv", ONNX_FLOAT, two, 1, NULL);
	node(&g, "OneHot", "h", "ind,depth,ohv", "oh", NULL);
	vinfo(&g, 12, "oh", ONNX_FLOAT, nd, 2);
	m = model(&g, 17);
	return fails(&m, -EINVAL, "node 0 (h, OneHot)",
		     "comes from the values of input 1 ('depth')", NULL);
}

/*
 * The integer and quantized convolutions and products, ConvTranspose,
 * Einsum (with an ellipsis, implicit output), Det, the recurrent ops (a
 * bidirectional LSTM, a GRU whose hidden size comes from W).
 */
static int t_npu_products(void)
{
	static const s64 x[] = { 1, 2, 5, 5 }, w[] = { 3, 2, 3, 3 };
	static const s64 a[] = { 4, 5 }, bm[] = { 5, 3 };
	static const s64 xt[] = { 1, 2, 3, 3 }, wt[] = { 2, 4, 3, 3 };
	static const s64 xe[] = { 2, 3, 4 }, ye[] = { 2, 4, 5 };
	static const s64 dm[] = { 2, 3, 3 }, zero[] = { 0 }, zero3[] = { 0, 0, 0 };
	static const s64 lw[] = { 2, 8, 4 }, lr[] = { 2, 8, 2 };
	static const s64 gw[] = { 1, 15, 4 }, gr[] = { 1, 15, 5 };
	static const s64 grid[] = { 1, 4, 7, 2 }, rois[] = { 3, 4 }, three[] = { 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	char err[512] = "";
	int ret;

	vinfo(&g, 11, "x8", 2, x, 4);
	vinfo(&g, 11, "a8", 2, a, 2);
	input(&g, "xt", xt, 4);
	input(&g, "xe", xe, 3);
	input(&g, "ye", ye, 3);
	input(&g, "dm", dm, 3);
	init(&g, "wf", ONNX_FLOAT, w, 4, NULL);
	init(&g, "bf", ONNX_FLOAT, bm, 2, NULL);
	init(&g, "wt", ONNX_FLOAT, wt, 4, NULL);
	init(&g, "zp", ONNX_INT64, NULL, 0, zero);
	init(&g, "sc", ONNX_FLOAT, NULL, 0, NULL);
	node(&g, "Cast", "", "wf", "w8", "to=2", NULL);
	node(&g, "Cast", "", "bf", "b8", "to=2", NULL);
	node(&g, "Cast", "", "zp", "z8", "to=2", NULL);
	node(&g, "ConvInteger", "", "x8,w8", "ci", "pads=[1,1,1,1]", NULL);
	node(&g, "QLinearConv", "", "x8,sc,z8,w8,sc,z8,sc,z8", "qc",
	     "strides=[2,2]", NULL);
	node(&g, "QLinearMatMul", "", "a8,sc,z8,b8,sc,z8,sc,z8", "qm", NULL);
	node(&g, "ConvTranspose", "", "xt,wt", "ct", "strides=[2,2]",
	     "pads=[1,1,1,1]", "output_padding=[1,1]", NULL);
	/* SAME: the input times the stride, not the unpadded 5 */
	node(&g, "ConvTranspose", "", "xt,wt", "cts", "auto_pad:SAME_UPPER",
	     NULL);
	node(&g, "Einsum", "", "xe,ye", "e1", "equation:bij,bjk->bik", NULL);
	node(&g, "Einsum", "", "xe", "e2", "equation:...ij->...ji", NULL);
	node(&g, "Einsum", "", "xe", "e3", "equation:bji", NULL);
	node(&g, "Det", "", "dm", "det", NULL);
	init(&g, "lw", ONNX_FLOAT, lw, 3, NULL);
	init(&g, "lr", ONNX_FLOAT, lr, 3, NULL);
	node(&g, "LSTM", "", "xe,lw,lr", "ly,lh,lc", "hidden_size=2",
	     "direction:bidirectional", NULL);
	node(&g, "GRU", "", "xe,gw,gr", "gy", NULL);
	init(&g, "gw", ONNX_FLOAT, gw, 3, NULL);
	init(&g, "gr", ONNX_FLOAT, gr, 3, NULL);
	input(&g, "grid", grid, 4);
	init(&g, "rois", ONNX_FLOAT, rois, 2, NULL);
	init(&g, "ri", ONNX_INT64, three, 1, zero3);
	node(&g, "GridSample", "", "xt,grid", "gs", NULL);
	node(&g, "RoiAlign", "", "xt,rois,ri", "ra", "output_height=2",
	     "output_width=5", NULL);
	node(&g, "MaxPool", "", "xt", "mp,mi", "kernel_shape=[2,2]",
	     "strides=[1,1]", NULL);
	node(&g, "MaxUnpool", "", "mp,mi", "mu", "kernel_shape=[2,2]",
	     "strides=[1,1]", NULL);
	output(&g, "gs");
	output(&g, "ra");
	output(&g, "mu");
	output(&g, "ly");
	output(&g, "lh");
	output(&g, "lc");
	output(&g, "gy");
	output(&g, "ci");
	output(&g, "qc");
	output(&g, "qm");
	output(&g, "ct");
	output(&g, "cts");
	output(&g, "e1");
	output(&g, "e2");
	output(&g, "e3");
	output(&g, "det");
	m = model(&g, 17);
	ret = parse(&m, &in, NULL, err, sizeof(err));
	free(m.b);
	TA_CHECK(!ret, "%s", err);
	if (has(&in, "ci", 300, "INT32 [1,3,5,5]") ||
	    has(&in, "qc", 12, "UINT8 [1,3,2,2]") ||
	    has(&in, "qm", 12, "UINT8 [4,3]") ||
	    has(&in, "ct", 576, "FLOAT [1,4,6,6]") ||
	    has(&in, "cts", 144, "FLOAT [1,4,3,3]") ||
	    has(&in, "e1", 120, "FLOAT [2,3,5]") ||
	    has(&in, "e2", 96, "FLOAT [2,4,3]") ||
	    has(&in, "e3", 96, "FLOAT [2,4,3]") ||
	    has(&in, "det", 8, "FLOAT [2]") ||
	    has(&in, "ly", 96, "FLOAT [2,2,3,2]") ||
	    has(&in, "lh", 48, "FLOAT [2,3,2]") ||
	    has(&in, "lc", 48, "FLOAT [2,3,2]") ||
	    has(&in, "gy", 120, "FLOAT [2,1,3,5]") ||
	    has(&in, "gs", 224, "FLOAT [1,2,4,7]") ||
	    has(&in, "ra", 240, "FLOAT [3,2,2,5]") ||
	    has(&in, "mu", 72, "FLOAT [1,2,3,3]"))
		return 1;
	ta_input_free(&in);
	/* an equation that does not fit its input */
	memset(&g, 0, sizeof(g));
	input(&g, "xe", xe, 3);
	node(&g, "Einsum", "es", "xe", "e", "equation:ij->ji", NULL);
	output(&g, "e");
	m = model(&g, 17);
	return fails(&m, -EINVAL, "node 0 (es, Einsum)",
		     "equation 'ij->ji' does not fit its 1 inputs", NULL);
}

/* @in freed, and @failed passed on: checks of a parsed model, then done. */
static int checked_free(struct ta_input *in, int failed)
{
	ta_input_free(in);
	return failed;
}

/*
 * The signal ops (ta_onnx_signal.c), as ONNX Runtime sizes them: DFT with
 * its axis an attribute (opset 17) and an input (20), dft_length and
 * onesided; STFT with frame_length, a window, onesided; the windows and
 * MelWeightMatrix of an output_datatype. Then the refusals: a length from
 * the data, a window that is not the frame, a frame as long as the
 * signal, the axis on the real and imaginary parts, a window of 0.
 */
static int t_signal_ops(void)
{
	static const s64 x[] = { 2, 8, 1 }, c[] = { 1, 4, 6, 2 };
	static const s64 sig[] = { 1, 12, 1 }, x20[] = { 1, 5, 6, 1 };
	static const s64 three[] = { 3 }, nine[] = { 9 }, ten[] = { 10 };
	static const s64 four[] = { 4 }, sixteen[] = { 16 }, rate[] = { 8000 };
	static const s64 five[] = { 5 }, zero[] = { 0 }, twelve[] = { 12 };
	static const s64 eight[] = { 8 }, axis[] = { -3 }, one[] = { 1 };
	static const float lo[] = { 0 }, hi[] = { 2000 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	u32 checked = 0;

	input(&g, "x", x, 3);
	input(&g, "c", c, 4);
	input(&g, "sig", sig, 3);
	init(&g, "n10", ONNX_INT64, NULL, 0, ten);
	init(&g, "step", ONNX_INT64, NULL, 0, three);
	init(&g, "frame", ONNX_INT64, NULL, 0, nine);
	init(&g, "bins", ONNX_INT64, NULL, 0, four);
	init(&g, "dft", ONNX_INT64, NULL, 0, sixteen);
	init(&g, "rate", ONNX_INT64, NULL, 0, rate);
	init(&g, "five", ONNX_INT64, NULL, 0, five);
	init_f(&g, "lo", NULL, 0, lo);
	init_f(&g, "hi", NULL, 0, hi);
	node(&g, "DFT", "", "x", "d0", NULL);
	node(&g, "DFT", "", "x,n10", "d1", "onesided=1", NULL);
	node(&g, "DFT", "", "c", "d2", "axis=2", "inverse=1", NULL);
	node(&g, "STFT", "", "sig,step,-,frame", "s0", NULL);
	node(&g, "HannWindow", "", "frame", "w", NULL);
	node(&g, "STFT", "", "sig,step,w", "s1", "onesided=0", NULL);
	node(&g, "MelWeightMatrix", "", "bins,dft,rate,lo,hi", "mel", NULL);
	node(&g, "MelWeightMatrix", "", "bins,dft,rate,lo,hi", "mel64",
	     "output_datatype=11", NULL);
	node(&g, "BlackmanWindow", "", "five", "bw", "output_datatype=7", NULL);
	node(&g, "Relu", "", "s1", "r", NULL);
	output(&g, "d0");
	output(&g, "d1");
	output(&g, "d2");
	output(&g, "s0");
	output(&g, "r");
	output(&g, "mel");
	output(&g, "mel64");
	output(&g, "bw");
	m = model(&g, 17);
	if (parsed(&m, &in))
		return 1;
	if (checked_free(&in, has(&in, "d0", 128, "FLOAT [2,8,2]") ||
	    has(&in, "d1", 96, "FLOAT [2,6,2]") ||
	    has(&in, "d2", 192, "FLOAT [1,4,6,2]") ||
	    has(&in, "s0", 80, "FLOAT [1,2,5,2]") ||
	    has(&in, "s1", 144, "FLOAT [1,2,9,2]") ||
	    has(&in, "mel", 144, "FLOAT [9,4]") ||
	    has(&in, "mel64", 288, "DOUBLE [9,4]") ||
	    has(&in, "bw", 40, "INT64 [5]")))
		return 1;
	checked++;
	/* opset 20: the axis an input, a constant */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x20, 4);
	init(&g, "ax", ONNX_INT64, NULL, 0, axis);
	node(&g, "DFT", "", "x,-,ax", "d", "onesided=1", NULL);
	output(&g, "d");
	m = model(&g, 20);
	if (parsed(&m, &in))
		return 1;
	if (checked_free(&in, has(&in, "d", 144, "FLOAT [1,3,6,2]")))
		return 1;
	checked++;
	/* the refusals */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x20, 4);
	vinfo(&g, 11, "ax", ONNX_INT64, NULL, 0);
	node(&g, "DFT", "d", "x,-,ax", "y", NULL);
	output(&g, "y");
	m = model(&g, 20);
	if (fails(&m, -EINVAL, "node 0 (d, DFT)",
		  "comes from the values of input 2 ('ax')", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "sig", sig, 3);
	init(&g, "step", ONNX_INT64, NULL, 0, three);
	init(&g, "frame", ONNX_INT64, NULL, 0, nine);
	init(&g, "eight", ONNX_INT64, NULL, 0, eight);
	node(&g, "HannWindow", "", "eight", "w", NULL);
	node(&g, "STFT", "st", "sig,step,w,frame", "y", NULL);
	output(&g, "y");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 1 (st, STFT)",
		  "a window of shape rank 1 and 8 elements, for frames of 9",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "sig", sig, 3);
	init(&g, "step", ONNX_INT64, NULL, 0, one);
	init(&g, "frame", ONNX_INT64, NULL, 0, twelve);
	node(&g, "STFT", "st", "sig,step,-,frame", "y", NULL);
	output(&g, "y");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 0 (st, STFT)",
		  "frames of 12 for a signal of 12", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	node(&g, "DFT", "d", "x", "y", "axis=-1", NULL);
	output(&g, "y");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 0 (d, DFT)",
		  "axis -1 is the signal's real and imaginary parts", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	init(&g, "zero", ONNX_INT64, NULL, 0, zero);
	node(&g, "HammingWindow", "hw", "zero", "y", NULL);
	output(&g, "y");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 0 (hw, HammingWindow)", "size 0", NULL))
		return 1;
	checked += 5;
	TA_CHECK(checked == 7, "%u cases", checked);
	return 0;
}

/*
 * The training losses: the labels' shape with reduction "none", else a
 * scalar; SoftmaxCrossEntropyLoss's log_prob the scores'. TfIdfVectorizer:
 * one slot past the largest of ngram_indexes, per row. Refused: labels
 * that are not the scores' shape without C, an unknown reduction, a
 * negative slot.
 */
static int t_losses_tfidf(void)
{
	static const s64 x[] = { 2, 3, 4 }, lab[] = { 2, 4 }, bad[] = { 3, 4 };
	static const s64 v[] = { 0, 1, 2, 0, 1, 2, 0, 1 }, t2[] = { 2, 5 };
	static const s64 t1[] = { 5 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	u32 checked = 0;

	input(&g, "x", x, 3);
	init(&g, "lab", ONNX_INT64, lab, 2, v);
	vinfo(&g, 11, "t2", ONNX_INT64, t2, 2);
	vinfo(&g, 11, "t1", ONNX_INT64, t1, 1);
	node(&g, "NegativeLogLikelihoodLoss", "", "x,lab", "none",
	     "reduction:none", NULL);
	node(&g, "NegativeLogLikelihoodLoss", "", "x,lab", "mean", NULL);
	node(&g, "SoftmaxCrossEntropyLoss", "", "x,lab", "sum,logp",
	     "reduction:sum", NULL);
	node(&g, "TfIdfVectorizer", "", "t2", "f2", "mode:TF",
	     "min_gram_length=1", "max_gram_length=1", "max_skip_count=0",
	     "ngram_counts=[0]", "pool_int64s=[4,5,6]",
	     "ngram_indexes=[0,3,1]", NULL);
	node(&g, "TfIdfVectorizer", "", "t1", "f1", "mode:TF",
	     "min_gram_length=1", "max_gram_length=1", "max_skip_count=0",
	     "ngram_counts=[0]", "pool_int64s=[4,5,6]",
	     "ngram_indexes=[0,3,1]", NULL);
	output(&g, "none");
	output(&g, "mean");
	output(&g, "sum");
	output(&g, "logp");
	output(&g, "f2");
	output(&g, "f1");
	m = model(&g, 13);
	if (parsed(&m, &in))
		return 1;
	if (checked_free(&in, has(&in, "none", 32, "FLOAT [2,4]") ||
	    has(&in, "mean", 4, "FLOAT []") || has(&in, "sum", 4, "FLOAT []") ||
	    has(&in, "logp", 96, "FLOAT [2,3,4]") ||
	    has(&in, "f2", 32, "FLOAT [2,4]") || has(&in, "f1", 16, "FLOAT [4]")))
		return 1;
	checked++;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	vinfo(&g, 11, "lab", ONNX_INT64, bad, 2);
	node(&g, "NegativeLogLikelihoodLoss", "nll", "x,lab", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (nll, NegativeLogLikelihoodLoss)",
		  "labels [3,4] for scores [2,3,4]: not the scores' shape without its dimension 1",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	vinfo(&g, 11, "lab", ONNX_INT64, lab, 2);
	node(&g, "SoftmaxCrossEntropyLoss", "sce", "x,lab", "y",
	     "reduction:avg", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (sce, SoftmaxCrossEntropyLoss)",
		  "reduction 'avg'", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	vinfo(&g, 11, "t1", ONNX_INT64, t1, 1);
	node(&g, "TfIdfVectorizer", "tf", "t1", "y", "mode:TF",
	     "ngram_counts=[0]", "pool_int64s=[4]", "ngram_indexes=[-1]",
	     NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (tf, TfIdfVectorizer)",
		  "ngram_indexes holds -1", NULL))
		return 1;
	checked += 3;
	/*
	 * a vocabulary of 300 n-grams, slots 0 to 299 listed backwards: all
	 * read (the reader keeps 64 values of a list, and refused longer
	 * ones until stop 62); a Constant of 100 ints is [100]
	 */
	{
		static char pool[4096], idx[4096], vals[1024];
		size_t a = 0, b = 0, c = 0;
		u32 k;

		a += snprintf(pool + a, sizeof(pool) - a, "pool_int64s=[");
		b += snprintf(idx + b, sizeof(idx) - b, "ngram_indexes=[");
		c += snprintf(vals + c, sizeof(vals) - c, "value_ints=[");
		for (k = 0; k < 300; k++) {
			a += snprintf(pool + a, sizeof(pool) - a, "%s%u",
				      k ? "," : "", k + 10);
			b += snprintf(idx + b, sizeof(idx) - b, "%s%u",
				      k ? "," : "", 299 - k);
		}
		for (k = 0; k < 100; k++)
			c += snprintf(vals + c, sizeof(vals) - c, "%s%u",
				      k ? "," : "", k);
		snprintf(pool + a, sizeof(pool) - a, "]");
		snprintf(idx + b, sizeof(idx) - b, "]");
		snprintf(vals + c, sizeof(vals) - c, "]");
		memset(&g, 0, sizeof(g));
		vinfo(&g, 11, "t2", ONNX_INT64, t2, 2);
		node(&g, "TfIdfVectorizer", "", "t2", "f", "mode:TF",
		     "min_gram_length=1", "max_gram_length=1",
		     "max_skip_count=0", "ngram_counts=[0]", pool, idx, NULL);
		node(&g, "Constant", "", "", "c", vals, NULL);
		node(&g, "Shape", "", "f", "fs", NULL);
		node(&g, "Concat", "", "fs,c", "cc", "axis=0", NULL);
		output(&g, "f");
		output(&g, "cc");
		m = model(&g, 13);
		if (parsed(&m, &in))
			return 1;
		if (checked_free(&in, has(&in, "f", 2400, "FLOAT [2,300]") ||
				 has(&in, "cc", 816, "INT64 [102]")))
			return 1;
		checked++;
	}
	TA_CHECK(checked == 5, "%u cases", checked);
	return 0;
}

/* The tensor @name's note does not say it was folded. */
static int not_folded(const struct ta_input *in, const char *name)
{
	int t = tensor(in, name);

	TA_CHECK(t >= 0 && !strstr(in->notes[t], "folded"),
		 "%s: folded, or no such tensor", name);
	return 0;
}

/*
 * The ops that draw random values have fixed shapes: RandomNormal and
 * RandomUniform the shape attribute's, the Like ops and Bernoulli their
 * input's, Multinomial [batch, sample_size]; dtype or the default type.
 * Never folded, even of constants or of no input at all (ONNX Runtime
 * draws them at every run). MaxRoiPool: [num_rois, C, pooled_shape].
 * Refused: a bad dtype, no shape, a negative dimension, a pooled_shape of
 * one value.
 */
static int t_random_ops(void)
{
	static const s64 x[] = { 2, 2 }, p[] = { 3, 5 }, four[] = { 4 };
	static const s64 img[] = { 1, 3, 8, 8 }, rois[] = { 2, 5 };
	static const s64 cv[] = { 1, 2, 3, 4 };
	static const struct {
		const char *op, *attr, *msg;
	} refused[] = {
		{ "Multinomial", "dtype=1",
		  "dtype 1: Multinomial writes INT32 or INT64" },
		{ "RandomNormal", "seed=1", "no shape attribute" },
		{ "RandomUniform", "shape=[2,-1]", "shape dimension 1 is -1" },
		{ "Bernoulli", "dtype=99", "dtype 99 is not a known type" },
		{ "MaxRoiPool", "pooled_shape=[2]",
		  "pooled_shape of 1 values (want 2, each at least 1)" },
	};
	struct pbw g = { 0 }, m;
	struct ta_input in;
	u32 i, checked = 0;

	node(&g, "RandomNormal", "", "", "rn", "shape=[2,3]", NULL);
	node(&g, "Relu", "", "rn", "rnr", NULL);
	node(&g, "RandomUniform", "", "", "ru", "shape=[4]", "dtype=11", NULL);
	init(&g, "c", ONNX_INT64, four, 1, cv);
	node(&g, "RandomUniformLike", "", "c", "rl", "dtype=1", NULL);
	node(&g, "Relu", "", "rl", "rlr", NULL);
	input(&g, "x", x, 2);
	node(&g, "Bernoulli", "", "x", "b1", NULL);
	node(&g, "Bernoulli", "", "x", "b2", "dtype=9", NULL);
	node(&g, "RandomNormalLike", "", "x", "nl", NULL);
	input(&g, "p", p, 2);
	node(&g, "Multinomial", "", "p", "mn", "sample_size=2", NULL);
	node(&g, "Multinomial", "", "p", "m64", "sample_size=2", "dtype=7",
	     NULL);
	input(&g, "img", img, 4);
	init(&g, "rois", ONNX_FLOAT, rois, 2, NULL);
	node(&g, "MaxRoiPool", "", "img,rois", "mr", "pooled_shape=[2,2]",
	     NULL);
	output(&g, "rnr");
	output(&g, "ru");
	output(&g, "rlr");
	output(&g, "b1");
	output(&g, "b2");
	output(&g, "nl");
	output(&g, "mn");
	output(&g, "m64");
	output(&g, "mr");
	m = model(&g, 17);
	if (parsed(&m, &in))
		return 1;
	if (checked_free(&in, has(&in, "rn", 24, "FLOAT [2,3]") ||
	    has(&in, "ru", 32, "DOUBLE [4]") || has(&in, "rl", 16, "FLOAT [4]") ||
	    has(&in, "b1", 16, "FLOAT [2,2]") || has(&in, "b2", 4, "BOOL [2,2]") ||
	    has(&in, "nl", 16, "FLOAT [2,2]") ||
	    has(&in, "mn", 24, "INT32 [3,2]") ||
	    has(&in, "m64", 48, "INT64 [3,2]") ||
	    has(&in, "mr", 96, "FLOAT [2,3,2,2]") ||
	    not_folded(&in, "rn") || not_folded(&in, "rl")))
		return 1;
	checked++;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "p", p, 2);
		init(&g, "rois", ONNX_FLOAT, rois, 2, NULL);
		input(&g, "img", img, 4);
		if (!strcmp(refused[i].op, "MaxRoiPool"))
			node(&g, refused[i].op, "r", "img,rois", "y",
			     refused[i].attr, NULL);
		else if (!strncmp(refused[i].op, "Random", 6))
			node(&g, refused[i].op, "r", "", "y", refused[i].attr,
			     NULL);
		else
			node(&g, refused[i].op, "r", "p", "y", refused[i].attr,
			     NULL);
		output(&g, "y");
		m = model(&g, 17);
		if (fails(&m, -EINVAL, "node 0 (r, ", refused[i].op,
			  refused[i].msg, NULL))
			return 1;
		checked++;
	}
	TA_CHECK(checked == 6, "%u of 6 cases", checked);
	return 0;
}

/*
 * Neg and Abs of kept ints keep theirs: ConstantOfShape(Neg([-2])) is [2]
 * and ConstantOfShape(Abs([-3])) [3] (LayerNormalization's expanded
 * function sizes its outputs so); Neg of INT64_MIN keeps nothing, and the
 * ConstantOfShape after it cannot be inferred.
 */
static int t_neg_abs_values(void)
{
	static const s64 one[] = { 1 }, m2[] = { -2 }, m3[] = { -3 };
	static const s64 lo[] = { INT64_MIN };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	init(&g, "a", ONNX_INT64, one, 1, m2);
	init(&g, "b", ONNX_INT64, one, 1, m3);
	node(&g, "Neg", "", "a", "na", NULL);
	node(&g, "Abs", "", "b", "ab", NULL);
	node(&g, "ConstantOfShape", "", "na", "y", NULL);
	node(&g, "ConstantOfShape", "", "ab", "z", NULL);
	output(&g, "y");
	output(&g, "z");
	m = model(&g, 13);
	if (parsed(&m, &in))
		return 1;
	if (checked_free(&in, has(&in, "y", 8, "FLOAT [2]") ||
			 has(&in, "z", 12, "FLOAT [3]")))
		return 1;
	memset(&g, 0, sizeof(g));
	init(&g, "a", ONNX_INT64, one, 1, lo);
	node(&g, "Neg", "", "a", "na", NULL);
	node(&g, "ConstantOfShape", "cs", "na", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 1 (cs, ConstantOfShape)",
		     "cannot infer the shape of its outputs (input 0 (shape) is computed at run time)",
		     NULL);
}

const struct ta_test ta_onnx_infer_tests[] = {
	{ "onnx: Add broadcasts, a bad broadcast named", t_add_broadcast },
	{ "onnx: Reshape with 0 and -1; bad shapes", t_reshape },
	{ "onnx: Shape/Gather/Unsqueeze/Concat into Reshape, symbolic batch",
	  t_shape_chain },
	{ "onnx: symbolic dimensions sized by name, bad sizes refused",
	  t_symbolic_sizes },
	{ "onnx: ta_graph_load_dims() sizes a model's symbolic dimensions",
	  t_load_dims },
	{ "onnx: Concat; mismatched dims", t_concat },
	{ "onnx: Conv pads/strides/group/dilations/auto_pad, pools",
	  t_conv },
	{ "onnx: Gemm transB; bad inner dimension", t_gemm },
	{ "onnx: Slice/Transpose/Softmax/Split/Squeeze/Dropout", t_misc_ops },
	{ "onnx: value_info agrees or is an error", t_value_info },
	{ "onnx: a pool's window over its padded input: ONNX Runtime's size",
	  t_pool_window_over },
	{ "onnx: more than 8 dimensions refused, the tensor named",
	  t_too_many_dims },
	{ "onnx: unknown op names op and node, points to infer_shapes",
	  t_unknown_op },
	{ "onnx: QDQ, LayerNormalization, depth and space, gathers, OneHot",
	  t_npu_ops },
	{ "onnx: integer, quantized, transposed convs; Einsum, Det, RNNs, GridSample, RoiAlign, MaxUnpool",
	  t_npu_products },
	{ "onnx: DFT, STFT, windows, MelWeightMatrix as ONNX Runtime sizes them",
	  t_signal_ops },
	{ "onnx: the training losses and TfIdfVectorizer; bad labels refused",
	  t_losses_tfidf },
	{ "onnx: random ops (never folded), Multinomial, MaxRoiPool",
	  t_random_ops },
	{ "onnx: Neg and Abs of shape values (ConstantOfShape after them)",
	  t_neg_abs_values },
	{ NULL, NULL },
};
