// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_onnx.c - host unit tests of the ONNX importer (ta_onnx.c): the
 * models of ../shared/models (TA_SHARED overrides the directory) against
 * figures computed apart (tests/unit/onnx-figures.py, and mnist_cnn by
 * hand), tiny ModelProtos built here with a small protobuf encoder for
 * shape inference and every refusal, and damaged files. ASan and UBSan
 * watch every read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
#include "ta_test.h"

/* ---- a protobuf encoder ---- */

struct pbw {
	u8 *b;
	size_t n, cap;
};

static void pb_raw(struct pbw *w, const void *p, size_t n)
{
	if (w->n + n > w->cap) {
		w->cap = (w->n + n) * 2 + 64;
		w->b = realloc(w->b, w->cap);
		if (!w->b)
			abort();
	}
	if (n)
		memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void pb_varint(struct pbw *w, u64 v)
{
	u8 c;

	do {
		c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		pb_raw(w, &c, 1);
	} while (v);
}

static void pb_key(struct pbw *w, u32 num, u32 wire)
{
	pb_varint(w, (u64)num << 3 | wire);
}

static void pb_int(struct pbw *w, u32 num, s64 v)
{
	pb_key(w, num, 0);
	pb_varint(w, (u64)v);
}

static void pb_bytes(struct pbw *w, u32 num, const void *p, size_t n)
{
	pb_key(w, num, 2);
	pb_varint(w, n);
	pb_raw(w, p, n);
}

static void pb_str(struct pbw *w, u32 num, const char *s)
{
	pb_bytes(w, num, s, strlen(s));
}

/* Embed @sub as field @num and free it. */
static void pb_msg(struct pbw *w, u32 num, struct pbw *sub)
{
	pb_bytes(w, num, sub->b, sub->n);
	free(sub->b);
	memset(sub, 0, sizeof(*sub));
}

static void pb_packed(struct pbw *w, u32 num, const s64 *v, u32 n)
{
	struct pbw p = { 0 };
	u32 i;

	for (i = 0; i < n; i++)
		pb_varint(&p, (u64)v[i]);
	pb_msg(w, num, &p);
}

/* ---- ONNX messages ---- */

#define ONNX_FLOAT	1
#define ONNX_INT64	7
#define SYM		(-1)	/* a dim_param dimension */

/* A ValueInfoProto: FLOAT or @dtype, @rank dims (SYM: dim_param "N"). */
static void vinfo(struct pbw *g, u32 field, const char *name, int dtype,
		  const s64 *dims, int rank)
{
	struct pbw vi = { 0 }, tp = { 0 }, tt = { 0 }, sh = { 0 }, d = { 0 };
	int i;

	pb_str(&vi, 1, name);
	pb_int(&tt, 1, dtype);
	for (i = 0; i < rank; i++) {
		if (dims[i] == SYM)
			pb_str(&d, 2, "N");
		else
			pb_int(&d, 1, dims[i]);
		pb_msg(&sh, 1, &d);
	}
	if (rank >= 0)
		pb_msg(&tt, 2, &sh);
	pb_msg(&tp, 1, &tt);
	pb_msg(&vi, 2, &tp);
	pb_msg(g, field, &vi);
}

static void input(struct pbw *g, const char *name, const s64 *dims, int rank)
{
	vinfo(g, 11, name, ONNX_FLOAT, dims, rank);
}

static void output(struct pbw *g, const char *name)
{
	struct pbw vi = { 0 };

	pb_str(&vi, 1, name);
	pb_msg(g, 12, &vi);
}

/* A TensorProto's dims, data_type and name: its element count. */
static u64 tensor_head(struct pbw *t, const char *name, int dtype,
		       const s64 *dims, int rank)
{
	u64 elems = 1;
	int i;

	for (i = 0; i < rank; i++) {
		pb_int(t, 1, dims[i]);
		elems *= (u64)dims[i];
	}
	pb_int(t, 2, dtype);
	pb_str(t, 8, name);
	return elems;
}

/* An initializer: FLOAT zeros in raw_data, or INT64 @vals unpacked. */
static void init(struct pbw *g, const char *name, int dtype, const s64 *dims,
		 int rank, const s64 *vals)
{
	struct pbw t = { 0 };
	u64 elems = tensor_head(&t, name, dtype, dims, rank);

	if (dtype == ONNX_INT64) {
		for (u64 k = 0; k < elems; k++)
			pb_int(&t, 7, vals[k]);
	} else {
		u8 *z = calloc(elems * 4 + 1, 1);

		pb_bytes(&t, 9, z, elems * 4);
		free(z);
	}
	pb_msg(g, 5, &t);
}

/* A FLOAT initializer with the values @vals, in raw_data. */
static void init_f(struct pbw *g, const char *name, const s64 *dims,
		   int rank, const float *vals)
{
	struct pbw t = { 0 };
	u64 elems = tensor_head(&t, name, ONNX_FLOAT, dims, rank);

	pb_bytes(&t, 9, vals, elems * 4);
	pb_msg(g, 5, &t);
}

/* Attributes: "name=i", "name=[a,b]" (ints), "name:s" (string). */
static void attr(struct pbw *nd, const char *spec)
{
	struct pbw a = { 0 };
	char name[64];
	const char *eq = strpbrk(spec, "=:");
	size_t l = (size_t)(eq - spec);

	memcpy(name, spec, l);
	name[l] = 0;
	pb_str(&a, 1, name);
	if (*eq == ':') {
		pb_str(&a, 4, eq + 1);
		pb_int(&a, 20, 3);
	} else if (eq[1] == '[') {
		s64 v[16];
		u32 n = 0;
		char *p = (char *)eq + 2;

		while (*p && *p != ']') {
			v[n++] = strtoll(p, &p, 10);
			if (*p == ',')
				p++;
		}
		pb_packed(&a, 8, v, n);
		pb_int(&a, 20, 7);
	} else {
		pb_int(&a, 3, strtoll(eq + 1, NULL, 10));
		pb_int(&a, 20, 2);
	}
	pb_msg(nd, 5, &a);
}

/*
 * A node: "Op name in1,in2 -> out1 | attr attr"; "-" is an empty input,
 * a name of "" leaves the node unnamed.
 */
static void node(struct pbw *g, const char *op, const char *name,
		 const char *ins, const char *outs, ...)
{
	struct pbw nd = { 0 };
	const char *a;
	char buf[256], *tok, *save;
	va_list ap;

	snprintf(buf, sizeof(buf), "%s", ins);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pb_str(&nd, 1, strcmp(tok, "-") ? tok : "");
	snprintf(buf, sizeof(buf), "%s", outs);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pb_str(&nd, 2, strcmp(tok, "-") ? tok : "");
	if (*name)
		pb_str(&nd, 3, name);
	pb_str(&nd, 4, op);
	va_start(ap, outs);
	while ((a = va_arg(ap, const char *)))
		attr(&nd, a);
	va_end(ap);
	pb_msg(g, 1, &nd);
}

/* The ModelProto around @g (freed): IR 7, default opset @opset. */
static struct pbw model(struct pbw *g, int opset)
{
	struct pbw m = { 0 }, o = { 0 };

	pb_int(&m, 1, 7);
	pb_str(&o, 1, "");
	pb_int(&o, 2, opset);
	pb_msg(&m, 8, &o);
	pb_msg(&m, 7, g);
	return m;
}

static int parse(const struct pbw *m, struct ta_input *in,
		 struct ta_onnx_info *info, char *err, size_t errlen)
{
	return ta_onnx_parse(m->b, m->n, "t.onnx", in, info, err, errlen);
}

/* Tensor named @name in @in: its index, or -1. */
static int tensor(const struct ta_input *in, const char *name)
{
	u32 i;

	for (i = 0; i < in->graph.n_tensors; i++)
		if (!strcmp(in->ids[i], name))
			return (int)i;
	return -1;
}

/* The graph's tensor @name has size @size and a note starting @note. */
static int has(const struct ta_input *in, const char *name, u64 size,
	       const char *note)
{
	int t = tensor(in, name);

	TA_CHECK(t >= 0, "no tensor %s", name);
	TA_CHECK(in->tensors[t].size == size, "%s: size %llu, want %llu", name,
		 (unsigned long long)in->tensors[t].size,
		 (unsigned long long)size);
	TA_CHECK(!strncmp(in->notes[t], note, strlen(note)),
		 "%s: note '%s', want '%s'", name, in->notes[t], note);
	return 0;
}

/* Parsing @m fails with @want and a message holding every string given. */
static int fails(struct pbw *m, int want, ...)
{
	struct ta_input in;
	char err[512] = "";
	const char *s;
	va_list ap;
	int ret = parse(m, &in, NULL, err, sizeof(err));

	free(m->b);
	if (!ret)
		ta_input_free(&in);
	TA_CHECK(ret == want, "ret %d, want %d (%s)", ret, want, err);
	TA_CHECK(!strncmp(err, "t.onnx: ", 8) && !strstr(err, ":0:"),
		 "message '%s'", err);
	va_start(ap, want);
	while ((s = va_arg(ap, const char *))) {
		if (!strstr(err, s)) {
			va_end(ap);
			TA_CHECK(0, "message '%s' lacks '%s'", err, s);
		}
	}
	va_end(ap);
	return 0;
}

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

/* Shape -> Gather -> Unsqueeze -> Concat -> Reshape: values folded. */
static int t_shape_chain(void)
{
	static const s64 x[] = { SYM, 3, 4, 5 }, one[] = { 1 }, zero[] = { 0 };
	static const s64 m1[] = { -1 };
	struct pbw g = { 0 }, m;
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	int ret;

	input(&g, "x", x, 4);
	init(&g, "i0", ONNX_INT64, NULL, 0, zero);
	init(&g, "ax", ONNX_INT64, one, 1, zero);
	init(&g, "m1", ONNX_INT64, one, 1, m1);
	node(&g, "Shape", "", "x", "sh", NULL);
	node(&g, "Gather", "", "sh,i0", "n", NULL);
	node(&g, "Unsqueeze", "", "n,ax", "n1", NULL);
	node(&g, "Concat", "", "n1,m1", "target", "axis=0", NULL);
	node(&g, "Reshape", "flat", "x,target", "y", NULL);
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
 * ---- what ONNX Runtime writes (issue 26) ----
 *
 * Each model here was planned smaller than ONNX Runtime writes before its
 * fix: the figures are ONNX Runtime's.
 */

/* Parse @m (freed) into @in; 0, or 1 with the error printed. */
static int parsed(struct pbw *m, struct ta_input *in)
{
	char err[512] = "";
	int ret = parse(m, in, NULL, err, sizeof(err));

	free(m->b);
	TA_CHECK(!ret, "%s", err);
	return 0;
}

#define ONNX_BOOL	9

/* Broadcasting when the first operand has the lower rank. */
static int t_broadcast_lower_rank_first(void)
{
	static const s64 x[] = { 3 }, y[] = { 3, 1 }, a[] = { 2, 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	int ran = 0;

	input(&g, "x", x, 1);
	input(&g, "y", y, 2);
	input(&g, "a", a, 2);
	vinfo(&g, 11, "c", ONNX_BOOL, NULL, 0);
	init(&g, "one", ONNX_FLOAT, NULL, 0, NULL);
	node(&g, "Add", "add", "x,y", "z", NULL);		/* [3,3] */
	node(&g, "Sub", "sub", "one,a", "s", NULL);		/* 1 - a */
	node(&g, "Div", "div", "one,a", "d", NULL);		/* 1 / a */
	node(&g, "Where", "where", "c,a,s", "w", NULL);	/* scalar c */
	node(&g, "PRelu", "prelu", "x,a", "pr", NULL);	/* slope [2,3] */
	output(&g, "pr");
	output(&g, "z");
	output(&g, "d");
	output(&g, "w");
	m = model(&g, 13);
	if (parsed(&m, &in))
		return 1;
	ran += !has(&in, "z", 36, "FLOAT [3,3]");
	ran += !has(&in, "s", 24, "FLOAT [2,3]");
	ran += !has(&in, "d", 24, "FLOAT [2,3]");
	ran += !has(&in, "w", 24, "FLOAT [2,3]");
	ran += !has(&in, "pr", 24, "FLOAT [2,3]");
	ta_input_free(&in);
	TA_CHECK(ran == 5, "%d of 5 shapes right", ran);
	/* Max of [3], [3,1] and [2,3]: [3,1] and [2,3] do not broadcast */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 1);
	input(&g, "y", y, 2);
	input(&g, "a", a, 2);
	node(&g, "Max", "max", "x,y,a", "mx", NULL);
	output(&g, "mx");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (max, Max)",
		     "shapes [3,3] and [2,3] do not broadcast", NULL);
}

/* Flatten's axis is one of [-r, r]; -1 names the last dimension. */
static int t_flatten_negative_axis(void)
{
	static const s64 x[] = { 2, 3, 4, 5 };
	static const struct { const char *axis, *note; u64 bytes; } c[] = {
		{ "axis=-1", "FLOAT [24,5]", 480 },
		{ "axis=-4", "FLOAT [1,120]", 480 },
		{ "axis=4", "FLOAT [120,1]", 480 },
		{ "axis=0", "FLOAT [1,120]", 480 },
	};
	struct pbw g, m;
	struct ta_input in;
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		node(&g, "Flatten", "f", "x", "y", c[i].axis, NULL);
		node(&g, "ReduceMax", "r", "y", "z", "axes=[0]", "keepdims=0",
		     NULL);
		output(&g, "z");
		m = model(&g, 13);
		if (parsed(&m, &in) || has(&in, "y", c[i].bytes, c[i].note))
			return 1;
		/* Flatten(-1) then ReduceMax(axes=[0]): [5], 20 bytes */
		if (!i && has(&in, "z", 20, "FLOAT [5]"))
			return 1;
		ta_input_free(&in);
		ran++;
	}
	for (i = 0; i < 2; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		node(&g, "Flatten", "f", "x", "y", i ? "axis=5" : "axis=-5",
		     NULL);
		output(&g, "y");
		m = model(&g, 13);
		if (fails(&m, -EINVAL, "node 0 (f, Flatten)",
			  i ? "axis 5 out of range for rank 4" :
			      "axis -5 out of range for rank 4", NULL))
			return 1;
		ran++;
	}
	TA_CHECK(ran == 6, "%u of 6 cases", ran);
	return 0;
}

/* Resize and Upsample scale in float: 10 * 0.7f is 7, not 6. */
static int t_resize_float(void)
{
	static const s64 x[] = { 1, 1, 10, 10 }, four[] = { 4 }, none[] = { 0 };
	static const float sc[] = { 1, 1, 0.7f, 0.7f };
	struct pbw g, m;
	struct ta_input in;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		init_f(&g, "roi", none, 1, NULL);
		init_f(&g, "scales", four, 1, sc);
		if (pass)
			node(&g, "Upsample", "u", "x,scales", "y", NULL);
		else
			node(&g, "Resize", "r", "x,roi,scales", "y", NULL);
		output(&g, "y");
		m = model(&g, pass ? 9 : 13);
		if (parsed(&m, &in) || has(&in, "y", 196, "FLOAT [1,1,7,7]"))
			return 1;
		ta_input_free(&in);
	}
	return 0;
}

/*
 * A ceil_mode pool whose last window starts in the end padding: kept, as
 * older runtimes keep it. Slice to INT64_MAX (or INT32_MAX) with a
 * negative step runs down to element 0.
 */
static int t_pool_ceil_slice_end(void)
{
	static const s64 x[] = { 1, 1, 5, 5 }, v[] = { 5 }, one[] = { 1 };
	static const s64 below[] = { -10 }, four[] = { 4 }, zero[] = { 0 };
	static const s64 imax[] = { INT64_MAX }, i32[] = { INT32_MAX };
	static const s64 back[] = { -1 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 4);
	/* (5 + 1 - 2) / 3 rounded up + 1 = 3; the third starts at 6 */
	node(&g, "MaxPool", "p", "x", "y", "kernel_shape=[2,2]",
	     "strides=[3,3]", "pads=[0,0,1,1]", "ceil_mode=1", NULL);
	output(&g, "y");
	input(&g, "v", v, 1);
	init(&g, "below", ONNX_INT64, one, 1, below);
	init(&g, "four", ONNX_INT64, one, 1, four);
	init(&g, "imax", ONNX_INT64, one, 1, imax);
	init(&g, "i32", ONNX_INT64, one, 1, i32);
	init(&g, "zero", ONNX_INT64, one, 1, zero);
	init(&g, "back", ONNX_INT64, one, 1, back);
	node(&g, "Slice", "s1", "v,below,imax,zero,back", "s1", NULL);
	node(&g, "Slice", "s2", "v,four,imax,zero,back", "s2", NULL);
	node(&g, "Slice", "s3", "v,four,i32,zero,back", "s3", NULL);
	output(&g, "s1");
	output(&g, "s2");
	output(&g, "s3");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "y", 36, "FLOAT [1,1,3,3]") ||
	    has(&in, "s1", 4, "FLOAT [1]") || has(&in, "s2", 20, "FLOAT [5]") ||
	    has(&in, "s3", 20, "FLOAT [5]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * A reduction over an empty axis writes the other axes whole; a SAME pool
 * with ceil_mode may have one more window (ONNX's inference).
 */
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

static int t_empty_reduce_same_ceil(void)
{
	static const s64 x[] = { 0, 1, 9 }, p[] = { 1, 1, 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 3);
	node(&g, "ReduceL2", "", "x", "r1", "axes=[-1,0]", NULL);
	node(&g, "ReduceMax", "", "x", "r0", "axes=[-1,0]", "keepdims=0", NULL);
	node(&g, "ReduceMean", "", "x", "rn", "axes=[1]", NULL);
	input(&g, "p", p, 3);
	node(&g, "MaxPool", "", "p", "mp", "kernel_shape=[1]", "strides=[3]",
	     "auto_pad:SAME_UPPER", "ceil_mode=1", NULL);
	output(&g, "r1");
	output(&g, "r0");
	output(&g, "rn");
	output(&g, "mp");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "r1", 36, "FLOAT [1,1,9]") ||
	    has(&in, "r0", 36, "FLOAT [1,1,9]") ||
	    has(&in, "rn", 0, "FLOAT [0,1,9]") ||
	    has(&in, "mp", 8, "FLOAT [1,1,2]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * Ops whose output shape depends on the data are planned at the largest
 * they can produce; a recorded shape may be smaller, never larger.
 */
static int t_data_dependent(void)
{
	static const s64 x[] = { 2, 3 }, rec[] = { 2, 3 }, big[] = { 2, 7 };
	static const s64 six[] = { 6 }, three[] = { 3 }, four[] = { 4 };
	static const s64 bx[] = { 1, 5, 4 }, sc[] = { 1, 2, 5 }, one[] = { 1 };
	static const s64 m3[] = { 3 }, tx[] = { 2, 8 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	int pass;

	/* NonZero: the model records one run's [2,3]; all-true gives [2,6] */
	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		node(&g, "NonZero", "nz", "x", "y", NULL);
		vinfo(&g, 12, "y", ONNX_INT64, pass ? big : rec, 2);
		m = model(&g, 13);
		if (pass) {
			if (fails(&m, -EINVAL, "node 0 (nz, NonZero)",
				  "inferred INT64 at most [2,6], but the model records INT64 [2,7]",
				  NULL))
				return 1;
			continue;
		}
		if (parsed(&m, &in) || has(&in, "y", 96, "INT64 [2,6]"))
			return 1;
		ta_input_free(&in);
	}
	/* Unique, Compress, NonMaxSuppression, TopK */
	memset(&g, 0, sizeof(g));
	input(&g, "u", six, 1);
	input(&g, "x", x, 2);
	vinfo(&g, 11, "c3", ONNX_BOOL, three, 1);
	vinfo(&g, 11, "c4", ONNX_BOOL, four, 1);
	input(&g, "boxes", bx, 3);
	input(&g, "scores", sc, 3);
	init(&g, "m3", ONNX_INT64, one, 1, m3);
	input(&g, "t", tx, 2);
	vinfo(&g, 11, "k", ONNX_INT64, one, 1);
	node(&g, "Unique", "", "u", "uy,ui,uv,uc", NULL);
	node(&g, "Compress", "", "x,c3", "ca", "axis=1", NULL);
	node(&g, "Compress", "", "x,c4", "cf", NULL);
	node(&g, "NonMaxSuppression", "", "boxes,scores,m3", "n3", NULL);
	node(&g, "NonMaxSuppression", "", "boxes,scores", "na", NULL);
	node(&g, "TopK", "", "t,m3", "tv,ti", NULL);
	node(&g, "TopK", "", "t,k", "rv,ri", NULL);
	output(&g, "uy");
	output(&g, "ui");
	output(&g, "uv");
	output(&g, "uc");
	output(&g, "ca");
	output(&g, "cf");
	output(&g, "n3");
	output(&g, "na");
	output(&g, "tv");
	output(&g, "ti");
	output(&g, "rv");
	output(&g, "ri");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "uy", 24, "FLOAT [6]") ||
	    has(&in, "ui", 48, "INT64 [6]") || has(&in, "uv", 48, "INT64 [6]") ||
	    has(&in, "uc", 48, "INT64 [6]") ||
	    has(&in, "ca", 24, "FLOAT [2,3]") || has(&in, "cf", 16, "FLOAT [4]") ||
	    has(&in, "n3", 6 * 3 * 8, "INT64 [6,3]") ||
	    has(&in, "na", 10 * 3 * 8, "INT64 [10,3]") ||
	    has(&in, "tv", 24, "FLOAT [2,3]") || has(&in, "ti", 48, "INT64 [2,3]") ||
	    has(&in, "rv", 64, "FLOAT [2,8]") || has(&in, "ri", 128, "INT64 [2,8]"))
		return 1;
	ta_input_free(&in);
	/* Range of run-time inputs: nothing bounds it */
	memset(&g, 0, sizeof(g));
	vinfo(&g, 11, "n", ONNX_INT64, NULL, 0);
	init(&g, "z", ONNX_INT64, NULL, 0, m3);
	node(&g, "Range", "rg", "z,n,z", "r", NULL);
	vinfo(&g, 12, "r", ONNX_INT64, three, 1);
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (rg, Range)",
		     "input 1 is computed at run time", "nothing bounds it",
		     NULL);
}

/* If, Loop, Scan and sequences are refused, even with shapes recorded. */
static int t_control_flow_refused(void)
{
	static const char *const ops[] = { "If", "Loop", "Scan",
					   "SequenceConstruct" };
	static const s64 x[] = { 2, 3 };
	struct pbw g, m;
	char nm[64];
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		node(&g, ops[i], "cf", "x", "y", NULL);
		vinfo(&g, 12, "y", ONNX_FLOAT, x, 2);
		m = model(&g, 13);
		snprintf(nm, sizeof(nm), "node 0 (cf, %s)", ops[i]);
		if (fails(&m, -EINVAL, nm, i < 3 ? "control flow" :
			  "a sequence or optional value", NULL))
			return 1;
		ran++;
	}
	TA_CHECK(ran == 4, "%u of 4 ops", ran);
	return 0;
}

/* An empty constant is known: Reshape to [] is a scalar, Expand to [] a copy. */
static int t_empty_constant(void)
{
	static const s64 x[] = { 1, 1 }, y[] = { 2, 3 }, none[] = { 0 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 2);
	input(&g, "y", y, 2);
	init(&g, "e", ONNX_INT64, none, 1, NULL);
	node(&g, "Reshape", "", "x,e", "r", NULL);
	node(&g, "Expand", "", "y,e", "ex", NULL);
	node(&g, "ReduceSum", "", "y,e", "rs", NULL);
	output(&g, "r");
	output(&g, "ex");
	output(&g, "rs");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "r", 4, "FLOAT []") ||
	    has(&in, "ex", 24, "FLOAT [2,3]") || has(&in, "rs", 4, "FLOAT [1,1]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/* A recorded shape for a run-time shape input is checked where it can be. */
static int t_recorded_checked(void)
{
	static const s64 x[] = { 3, 4 }, two[] = { 2 }, ok[] = { 2, 6 };
	static const s64 bad[] = { 2, 7 }, nb[] = { 2, 3 };
	static const struct { const char *op; const s64 *rec; const char *why; } c[] = {
		{ "Reshape", ok, NULL },
		{ "Reshape", bad, "not the input's element count" },
		{ "Expand", nb, "not a broadcast of the input" },
		{ "Tile", nb, "a dimension no multiple of the input's" },
	};
	struct pbw g, m;
	struct ta_input in;
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		vinfo(&g, 11, "s", ONNX_INT64, two, 1);
		node(&g, c[i].op, "n", "x,s", "y", NULL);
		vinfo(&g, 12, "y", ONNX_FLOAT, c[i].rec, 2);
		m = model(&g, 13);
		if (!c[i].why) {
			if (parsed(&m, &in) || has(&in, "y", 48, "FLOAT [2,6]"))
				return 1;
			ta_input_free(&in);
		} else if (fails(&m, -EINVAL, "node 0 (n, ", c[i].why,
				 "computed at run time", NULL)) {
			return 1;
		}
		ran++;
	}
	TA_CHECK(ran == 4, "%u of 4 cases", ran);
	return 0;
}

/* ---- refusals ---- */

static int t_external_data(void)
{
	static const s64 x[] = { 1, 4 };
	struct pbw g = { 0 }, m, t = { 0 }, kv = { 0 };

	input(&g, "x", x, 2);
	pb_int(&t, 1, 4);
	pb_int(&t, 2, ONNX_FLOAT);
	pb_str(&t, 8, "w");
	pb_str(&kv, 1, "location");
	pb_str(&kv, 2, "weights.bin");
	pb_msg(&t, 13, &kv);
	pb_int(&t, 14, 1);
	pb_msg(&g, 5, &t);
	node(&g, "Add", "", "x,w", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "initializer 'w'", "stored outside the model",
		     NULL);
}

static int t_bad_wire(void)
{
	static const s64 x[] = { 1, 4 };
	struct pbw g = { 0 }, m = { 0 };
	u8 eleven[11];
	int i;

	/* a graph whose length runs past the end of the file */
	pb_int(&m, 1, 7);
	pb_key(&m, 7, 2);
	pb_varint(&m, 1000);
	pb_raw(&m, "\x0a\x00", 2);
	if (fails(&m, -EINVAL, "corrupt ONNX file at byte 2 (in ModelProto)",
		  "field 7: length 1000 runs past the end (2 bytes left)",
		  NULL))
		return 1;
	/* an oversized length inside a node */
	input(&g, "x", x, 2);
	{
		struct pbw nd = { 0 };

		pb_str(&nd, 4, "Relu");
		pb_key(&nd, 1, 2);
		pb_varint(&nd, 1ULL << 40);
		pb_msg(&g, 1, &nd);
	}
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "(in NodeProto)", "runs past the end", NULL))
		return 1;
	/* a varint of 11 bytes, and one of 10 beyond 64 bits */
	memset(&m, 0, sizeof(m));
	for (i = 0; i < 10; i++)
		eleven[i] = 0x80;
	eleven[10] = 0x01;
	pb_raw(&m, eleven, 11);
	if (fails(&m, -EINVAL, "at byte 0 (in ModelProto)",
		  "varint longer than 10 bytes", NULL))
		return 1;
	memset(&m, 0, sizeof(m));
	pb_raw(&m, "\x08", 1);
	eleven[9] = 0x02;
	pb_raw(&m, eleven, 10);
	if (fails(&m, -EINVAL, "varint beyond 64 bits", NULL))
		return 1;
	/* a group, a truncated fixed32 */
	memset(&m, 0, sizeof(m));
	pb_key(&m, 3, 3);
	if (fails(&m, -EINVAL, "a group", NULL))
		return 1;
	memset(&m, 0, sizeof(m));
	pb_key(&m, 3, 5);
	pb_raw(&m, "\1\2", 2);
	if (fails(&m, -EINVAL, "fixed-size field runs past the end", NULL))
		return 1;
	/* no graph; no opset */
	memset(&m, 0, sizeof(m));
	pb_int(&m, 1, 7);
	if (fails(&m, -EINVAL, "no ModelProto.graph", NULL))
		return 1;
	memset(&m, 0, sizeof(m));
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	pb_msg(&m, 7, &g);
	return fails(&m, -EINVAL, "no opset_import", NULL);
}

static int t_unknown_tensor(void)
{
	static const s64 x[] = { 1, 4 };
	struct pbw g = { 0 }, m;

	input(&g, "x", x, 2);
	node(&g, "Relu", "n0", "ghost", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (n0, Relu): reads 'ghost'",
		  "not a graph input or initializer", NULL))
		return 1;
	/* not in topological order */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "late", "y", "z", NULL);
	node(&g, "Relu", "early", "x", "y", NULL);
	output(&g, "z");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (late, Relu): reads 'y'",
		  "topological order", NULL))
		return 1;
	/* written twice; an input written */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "a", "x", "y", NULL);
	node(&g, "Relu", "b", "x", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 1 (b, Relu): writes 'y'",
		  "written by an earlier node", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "a", "x", "x", NULL);
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "writes 'x', which is already a graph input",
		  NULL))
		return 1;
	/* an output nobody computes; an input without a shape */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	node(&g, "Relu", "a", "x", "y", NULL);
	output(&g, "nothing");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "graph output 'nothing' is not computed", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, -1);
	node(&g, "Relu", "a", "x", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "graph input 'x' has no tensor type and shape",
		     NULL);
}

/* Initializer data that disagrees with its shape. */
static int t_bad_initializer(void)
{
	static const s64 x[] = { 1, 4 };
	struct pbw g = { 0 }, m, t = { 0 };

	input(&g, "x", x, 2);
	pb_int(&t, 1, 4);
	pb_int(&t, 2, ONNX_FLOAT);
	pb_str(&t, 8, "w");
	pb_bytes(&t, 9, "12345678", 8);
	pb_msg(&g, 5, &t);
	node(&g, "Add", "", "x,w", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "initializer 'w': raw_data holds 8 bytes, its shape says 16",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	memset(&t, 0, sizeof(t));
	input(&g, "x", x, 2);
	pb_int(&t, 1, 2);
	pb_int(&t, 2, 8);	/* STRING */
	pb_str(&t, 8, "s");
	pb_msg(&g, 5, &t);
	node(&g, "Add", "", "x,s", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "element type STRING (8) has no fixed size",
		     NULL);
}

/* ---- the shared models ---- */

static const char *shared_dir(void)
{
	static char dir[1024];
	const char *e = getenv("TA_SHARED");

	if (e && *e) {
		snprintf(dir, sizeof(dir), "%s/models", e);
		if (access(dir, R_OK))
			snprintf(dir, sizeof(dir), "%s", e);
		return dir;
	}
	snprintf(dir, sizeof(dir), "%s/../shared/models", TA_REPO);
	return dir;
}

/*
 * Figures from tests/unit/onnx-figures.py (its own decoding and shape
 * inference); mnist_cnn also by hand (Documentation/onnx.md). Heights:
 * auto with the budget below, as measured.
 */
static const struct onnx_ref {
	const char *file;
	u32 tensors, ops, initializers, constants, folded, inplace;
	u64 lb, lb_noconst, naive, height, height_noconst;
	const char *op1;
	u32 op1_count;
} onnx_refs[] = {
	{ "mnist_cnn.onnx", 19, 12, 8, 7, 1, 1, 74168, 50176, 148424,
	  74256, 50176, "Conv", 2 },
	{ "ultraface_rfb320.onnx", 246, 126, 119, 119, 0, 8, 6117040, 4915200,
	  28251280, 6118020, 4915200, "Conv", 52 },
	{ "inception_v1_light.onnx", 262, 237, 118, 117, 94, 1, 34416752,
	  6422528, 65242800, 34416848, 6422528, "ConstantOfShape", 93 },
};

static int plan_check(const char *name, const struct ta_problem *p, u64 lb,
		      u64 height)
{
	u64 *off = calloc(p->n_buffers + 1, sizeof(*off)), got;
	struct ta_budget budget = { .steps = 20000 };
	struct ta_result res;
	int s, ret;

	TA_CHECK(off, "oom");
	TA_CHECK(!ta_problem_lower_bound(p, &got), "lb");
	/*
	 * @lb is the most bytes live; the bound adds what alignment forces
	 * on top, and cannot pass a height auto reaches
	 */
	if (got < lb || got > height)
		free(off);
	TA_CHECK(got >= lb && got <= height,
		 "%s: lower bound %llu, max-live %llu, auto %llu", name,
		 (unsigned long long)got, (unsigned long long)lb,
		 (unsigned long long)height);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		ret = ta_plan_solve(p, s, &budget, off, &res);
		if (!ret)
			ret = ta_plan_validate(p, off, res.height);
		if (!ret && s == TA_STRATEGY_AUTO && res.height != height) {
			printf("# %s: auto height %llu, want %llu\n", name,
			       (unsigned long long)res.height,
			       (unsigned long long)height);
			ret = -EDOM;
		}
		if (ret)
			free(off);
		TA_CHECK(!ret, "%s: %s: %d", name, ta_strategy_name(s), ret);
	}
	free(off);
	return 0;
}

static int check_onnx_model(const struct onnx_ref *r)
{
	struct ta_onnx_info info;
	struct ta_input in, in2;
	char path[1200], err[512] = "";
	u32 i, kind = 0, inplace = 0;
	u64 naive = 0;

	snprintf(path, sizeof(path), "%s/%s", shared_dir(), r->file);
	TA_CHECK(!ta_onnx_read(path, &in, &info, err, sizeof(err)), "%s", err);
	TA_CHECK(in.graph.n_tensors == r->tensors && info.n_tensors == r->tensors,
		 "%s: tensors %u", r->file, in.graph.n_tensors);
	TA_CHECK(in.graph.n_ops == r->ops && info.n_nodes == r->ops,
		 "%s: ops %u", r->file, in.graph.n_ops);
	TA_CHECK(info.n_initializers == r->initializers &&
		 info.n_constants == r->constants &&
		 info.n_folded == r->folded && info.n_inplace == r->inplace,
		 "%s: initializers %u constants %u folded %u inplace %u",
		 r->file, info.n_initializers, info.n_constants,
		 info.n_folded, info.n_inplace);
	for (i = 0; i < in.graph.n_ops; i++) {
		kind += !strcmp(in.op_names[i], r->op1);
		inplace += in.ops[i].flags == TA_OP_INPLACE;
	}
	TA_CHECK(kind == r->op1_count && inplace == r->inplace,
		 "%s: %u %s, %u in place", r->file, kind, r->op1, inplace);
	for (i = 0; i < in.graph.n_tensors; i++)
		naive += in.tensors[i].size;
	TA_CHECK(naive == r->naive && naive == info.naive_bytes,
		 "%s: naive %llu", r->file, (unsigned long long)naive);
	/* ta_input_read() knows the file by its name */
	TA_CHECK(!ta_input_read(path, &in2, err, sizeof(err)), "%s", err);
	TA_CHECK(in2.is_graph && in2.graph.n_tensors == in.graph.n_tensors &&
		 !memcmp(in2.bufs, in.bufs,
			 sizeof(*in.bufs) * in.graph.n_tensors), "dispatch");
	ta_input_free(&in2);
	if (plan_check(r->file, &in.prob, r->lb, r->height)) {
		ta_input_free(&in);
		return 1;
	}
	TA_CHECK(!ta_input_drop_constants(&in), "drop");
	TA_CHECK(in.graph.n_tensors == r->tensors - r->constants, "drop count");
	if (plan_check(r->file, &in.prob, r->lb_noconst, r->height_noconst)) {
		ta_input_free(&in);
		return 1;
	}
	ta_input_free(&in);
	return 0;
}

static int t_models(void)
{
	size_t i;

	for (i = 0; i < sizeof(onnx_refs) / sizeof(onnx_refs[0]); i++)
		if (check_onnx_model(&onnx_refs[i]))
			return 1;
	return 0;
}

/* mnist_cnn's figures by hand, and its recorded shapes all agree. */
static int t_mnist_by_hand(void)
{
	struct ta_input in;
	struct ta_onnx_info info;
	char path[1200], err[512] = "";
	int t;

	snprintf(path, sizeof(path), "%s/mnist_cnn.onnx", shared_dir());
	TA_CHECK(!ta_onnx_read(path, &in, &info, err, sizeof(err)), "%s", err);
	TA_CHECK(info.n_value_info == 11 && info.opset == 8 &&
		 info.ir_version == 3, "value_info %u", info.n_value_info);
	/* Conv 5x5 SAME_UPPER on 28x28: 8 x 28 x 28 floats */
	if (has(&in, "Convolution28_Output_0", 25088, "FLOAT [1,8,28,28]") ||
	    has(&in, "Pooling160_Output_0", 1024, "FLOAT [1,16,4,4]") ||
	    has(&in, "Parameter193_reshape1", 10240, "FLOAT [256,10] folded"))
		return 1;
	/* Add at step 2: its input and output, 2 x 25,088, nothing else */
	t = tensor(&in, "Plus30_Output_0");
	TA_CHECK(t >= 0 && in.bufs[t].start == 2 && in.bufs[t].end == 4,
		 "Plus30 lives [%u,%u)", in.bufs[t].start, in.bufs[t].end);
	/* the folded Reshape (node 0) is an op that touches nothing */
	TA_CHECK(in.ops[0].n_inputs == 0 && in.ops[0].n_outputs == 0 &&
		 !strcmp(in.op_names[0], "Reshape"), "folded node 0");
	TA_CHECK(tensor(&in, "Parameter193") < 0, "a weight only the folded node reads");
	ta_input_free(&in);
	return 0;
}

/* A parse of a damaged file: an error with a message, or a valid graph. */
static int damaged_ok(const u8 *b, size_t len, int *fails)
{
	struct ta_input in;
	char err[512] = "";
	int ret = ta_onnx_parse(b, len, "fuzz.onnx", &in, NULL, err,
				sizeof(err));

	if (ret) {
		TA_CHECK(ret == -EINVAL || ret == -E2BIG, "ret %d: %s", ret, err);
		TA_CHECK(!strncmp(err, "fuzz.onnx: ", 11), "message '%s'", err);
		(*fails)++;
		return 0;
	}
	{
		u64 *off = calloc(in.prob.n_buffers + 1, sizeof(*off));
		struct ta_result res;
		int r = off ? ta_plan_solve(&in.prob, TA_STRATEGY_FREELIST, NULL, off,
					    &res) : -ENOMEM;

		if (!r)
			r = ta_plan_validate(&in.prob, off, res.height);
		free(off);
		ta_input_free(&in);
		TA_CHECK(!r || r == -EOVERFLOW, "plan of a damaged file: %d", r);
	}
	return 0;
}

static int t_truncated(void)
{
	char path[1200];
	size_t len, l;
	u8 *data, *copy;
	int fails = 0;

	snprintf(path, sizeof(path), "%s/mnist_cnn.onnx", shared_dir());
	data = (u8 *)ta_slurp(path, &len);
	TA_CHECK(data && len == 26454, "%s", path);
	for (l = 0; l < len; l++) {
		copy = malloc(l ? l : 1);
		TA_CHECK(copy, "oom");
		memcpy(copy, data, l);
		if (damaged_ok(copy, l, &fails)) {
			printf("# cut at %zu\n", l);
			free(copy);
			free(data);
			return 1;
		}
		free(copy);
	}
	free(data);
	/* the graph is the last field: every cut breaks it */
	TA_CHECK(fails == (int)len, "%d of %zu truncations rejected", fails,
		 len);
	return 0;
}

static int t_flipped(void)
{
	static const int masks[3] = { 0xff, 0x80, 0x01 };
	char path[1200];
	size_t len, i;
	u8 *data, *copy;
	int fails = 0, k;

	snprintf(path, sizeof(path), "%s/inception_v1_light.onnx",
		 shared_dir());
	data = (u8 *)ta_slurp(path, &len);
	TA_CHECK(data, "%s", path);
	copy = malloc(len);
	TA_CHECK(copy, "oom");
	for (i = 0; i < len; i += 3) {
		for (k = 0; k < 3; k++) {
			memcpy(copy, data, len);
			copy[i] ^= (u8)masks[k];
			if (damaged_ok(copy, len, &fails)) {
				printf("# flipped byte %zu ^ 0x%x\n", i,
				       masks[k]);
				free(copy);
				free(data);
				return 1;
			}
		}
	}
	free(copy);
	free(data);
	TA_CHECK(fails > 10000, "only %d flips rejected", fails);
	return 0;
}

/* import -> graph file -> read back: the same problem. */
static int t_roundtrip(void)
{
	char path[1200], out[64], err[512] = "";
	struct ta_input a, b;

	snprintf(path, sizeof(path), "%s/ultraface_rfb320.onnx", shared_dir());
	snprintf(out, sizeof(out), "/tmp/ta_unit_onnx_%d.graph", (int)getpid());
	TA_CHECK(!ta_onnx_read(path, &a, NULL, err, sizeof(err)), "%s", err);
	TA_CHECK(!ta_graph_write(out, &a), "write");
	TA_CHECK(!ta_input_read(out, &b, err, sizeof(err)), "%s", err);
	unlink(out);
	TA_CHECK(b.graph.n_tensors == a.graph.n_tensors &&
		 b.graph.n_ops == a.graph.n_ops &&
		 b.graph.n_refs == a.graph.n_refs, "counts");
	TA_CHECK(!memcmp(a.bufs, b.bufs, sizeof(*a.bufs) * a.graph.n_tensors) &&
		 !memcmp(a.refs, b.refs, sizeof(*a.refs) * a.graph.n_refs),
		 "same graph");
	TA_CHECK(!strcmp(a.ids[tensor(&a, "boxes")], "boxes"), "ids");
	ta_input_free(&a);
	ta_input_free(&b);
	return 0;
}

const struct ta_test ta_onnx_tests[] = {
	{ "onnx: Add broadcasts, a bad broadcast named", t_add_broadcast },
	{ "onnx: Reshape with 0 and -1; bad shapes", t_reshape },
	{ "onnx: Shape/Gather/Unsqueeze/Concat into Reshape, symbolic batch",
	  t_shape_chain },
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
	{ "onnx: broadcasting with a lower-rank first operand (ONNX Runtime's sizes)",
	  t_broadcast_lower_rank_first },
	{ "onnx: Flatten with a negative axis", t_flatten_negative_axis },
	{ "onnx: Resize and Upsample scale in float", t_resize_float },
	{ "onnx: ceil_mode pool into the end padding, Slice to INT64_MAX backwards",
	  t_pool_ceil_slice_end },
	{ "onnx: NonZero/Unique/Compress/NonMaxSuppression/TopK at their largest, Range bounded or refused",
	  t_data_dependent },
	{ "onnx: reductions over an empty axis, SAME pools with ceil_mode",
	  t_empty_reduce_same_ceil },
	{ "onnx: If/Loop/Scan and sequences refused", t_control_flow_refused },
	{ "onnx: an empty constant shape, axes input", t_empty_constant },
	{ "onnx: recorded shapes of run-time shape inputs checked",
	  t_recorded_checked },
	{ "onnx: external data refused", t_external_data },
	{ "onnx: bad lengths, 11-byte varint, groups, no graph",
	  t_bad_wire },
	{ "onnx: unknown tensor, order, double writes, missing output",
	  t_unknown_tensor },
	{ "onnx: initializer data vs shape, STRING", t_bad_initializer },
	{ "onnx: the shared models: counts, bounds, auto heights", t_models },
	{ "onnx: mnist_cnn by hand", t_mnist_by_hand },
	{ "onnx: mnist_cnn truncated at every length", t_truncated },
	{ "onnx: inception bytes flipped", t_flipped },
	{ "onnx: import, write graph, read back", t_roundtrip },
	{ NULL, NULL },
};
