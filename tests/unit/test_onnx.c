// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_onnx.c - host unit tests of the ONNX importer (ta_onnx.c): every
 * refusal of a tiny ModelProto (onnx_build.h), the models of
 * ../shared/models (TA_SHARED overrides the directory) against figures
 * computed apart (tests/unit/onnx-figures.py, and mnist_cnn by hand), and
 * damaged files. Shape inference is tested in test_onnx_infer.c and
 * test_onnx_ort.c. ASan and UBSan watch every read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
#include "ta_test.h"
#include "onnx_build.h"

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
	/* the steps, not the machine's load, decide auto's height */
	struct ta_budget budget = { .time_ns = 600000000000ULL, .steps = 20000 };
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
	int fails = 0, flips = 0, k;

	snprintf(path, sizeof(path), "%s/inception_v1_light.onnx",
		 shared_dir());
	data = (u8 *)ta_slurp(path, &len);
	TA_CHECK(data, "%s", path);
	copy = malloc(len);
	TA_CHECK(copy, "oom");
	/*
	 * Every 7th byte, three ways: the fuzzers (make fuzz) explore the
	 * rest; every 3rd byte cost this test 40 s under ASan.
	 */
	for (i = 0; i < len; i += 7) {
		for (k = 0; k < 3; k++) {
			memcpy(copy, data, len);
			copy[i] ^= (u8)masks[k];
			flips++;
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
	printf("# %d of %d flips rejected\n", fails, flips);
	TA_CHECK(flips == (int)(3 * ((len + 6) / 7)), "%d flips", flips);
	TA_CHECK(fails > flips / 2, "only %d of %d flips rejected", fails, flips);
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
