// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_tflite.c - host unit tests of the TFLite importer (ta_tflite.c):
 * a hand-built model with known values, every model in ../shared/models
 * (TA_SHARED overrides the directory) against PROVENANCE.md, every strategy
 * on each, and corrupt files: truncated, bytes flipped, lengths and indices
 * out of range, and a seeded fuzz loop. ASan and UBSan watch every read.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
#include "ta_test.h"

/* ---- a tiny FlatBuffer builder: objects laid out front to back ---- */

struct fbb {
	u8 b[65536];
	u32 n;
};

static void fb_put(struct fbb *f, u32 at, u32 v)
{
	f->b[at] = (u8)v;
	f->b[at + 1] = (u8)(v >> 8);
	f->b[at + 2] = (u8)(v >> 16);
	f->b[at + 3] = (u8)(v >> 24);
}

static u32 fb_alloc(struct fbb *f, u32 size)
{
	u32 p = (f->n + 3) & ~3U;

	f->n = p + size;
	memset(f->b + p, 0, size);
	return p;
}

/* A table of @nf 4-byte fields, its vtable just before it. */
static u32 fb_table(struct fbb *f, u32 nf)
{
	u32 vt = fb_alloc(f, 4 + 2 * nf), t, i;

	f->b[vt] = (u8)(4 + 2 * nf);
	f->b[vt + 2] = (u8)(4 + 4 * nf);
	for (i = 0; i < nf; i++)
		f->b[vt + 4 + 2 * i] = (u8)(4 + 4 * i);
	t = fb_alloc(f, 4 + 4 * nf);
	fb_put(f, t, t - vt);
	return t;
}

static u32 fb_field(u32 table, u32 i)
{
	return table + 4 + 4 * i;
}

static void fb_absent(struct fbb *f, u32 table, u32 i)
{
	u32 vt = table - (f->b[table] | f->b[table + 1] << 8);

	f->b[vt + 4 + 2 * i] = 0;
	f->b[vt + 5 + 2 * i] = 0;
}

/* Point field @i of @table at @target (which must come later). */
static void fb_ref(struct fbb *f, u32 at, u32 target)
{
	fb_put(f, at, target - at);
}

static u32 fb_vec(struct fbb *f, u32 n, const s32 *v)
{
	u32 p = fb_alloc(f, 4 + 4 * n), i;

	fb_put(f, p, n);
	for (i = 0; i < n; i++)
		fb_put(f, p + 4 + 4 * i, (u32)v[i]);
	return p;
}

static u32 fb_bytes(struct fbb *f, u32 n, const char *s)
{
	u32 p = fb_alloc(f, 4 + n + 1);

	fb_put(f, p, n);
	if (s)
		memcpy(f->b + p + 4, s, n);
	return p;
}

/* Positions the corruption tests poke at. */
struct tiny {
	struct fbb f;
	u32 tensors_vec, op0_inputs, t1_buffer, t0_type, t0_shape,
	    t0_vtable_off, opcode_idx, sg;
};

/*
 * Tensors: 0 input [1,8] INT8; 1 weights [8,8] INT8 in buffer 1;
 * 2 [1,8] INT16; 3 [1,4] FLOAT32 variable; 4 output [1,2] FLOAT32;
 * 5 [3] INT32, used by no op. Ops: FULLY_CONNECTED(0, 1, -1) -> 2 (a new
 * style code), SVDF(2, 3) -> 4 (an old style code: deprecated field only).
 * Tensors 0, 2 and 5 have a shape_signature with a batch left open (-1),
 * 4 one without.
 */
static void tiny_build(struct tiny *m)
{
	static const s32 open_batch[2] = { -1, 8 }, closed[2] = { 1, 2 };
	static const struct {
		s32 dims[2];
		u32 ndims, type, buffer, var;
		const char *name;
	} ts[6] = {
		{ { 1, 8 }, 2, 9, 0, 0, "input x" },
		{ { 8, 8 }, 2, 9, 1, 0, "weights" },
		{ { 1, 8 }, 2, 7, 0, 0, "hidden#1" },
		{ { 1, 4 }, 2, 0, 0, 1, "state" },
		{ { 1, 2 }, 2, 0, 0, 0, "out" },
		{ { 3, 0 }, 1, 2, 0, 0, "unused" },
	};
	static const s32 op_in[2][3] = { { 0, 1, -1 }, { 2, 3, 0 } };
	static const u32 op_nin[2] = { 3, 2 };
	static const s32 op_out[2] = { 2, 4 };
	struct fbb *f = &m->f;
	u32 model, v, sg, i, tv[6], ov[2], oc[2], bv[2], x;
	s32 one;

	memset(m, 0, sizeof(*m));
	fb_alloc(f, 8);
	memcpy(f->b + 4, "TFL3", 4);
	model = fb_table(f, 5);
	fb_ref(f, 0, model);
	fb_absent(f, model, 0);
	fb_absent(f, model, 3);
	/* operator_codes */
	v = fb_alloc(f, 12);
	fb_put(f, v, 2);
	fb_ref(f, fb_field(model, 1), v);
	for (i = 0; i < 2; i++) {
		oc[i] = fb_table(f, 4);
		fb_ref(f, v + 4 + 4 * i, oc[i]);
		fb_absent(f, oc[i], 1);
		fb_absent(f, oc[i], 2);
	}
	f->b[fb_field(oc[0], 0)] = 9;
	fb_put(f, fb_field(oc[0], 3), 9);		/* FULLY_CONNECTED */
	f->b[fb_field(oc[1], 0)] = 27;			/* SVDF */
	fb_absent(f, oc[1], 3);
	/* subgraphs */
	v = fb_alloc(f, 8);
	fb_put(f, v, 1);
	fb_ref(f, fb_field(model, 2), v);
	sg = fb_table(f, 4);
	m->sg = sg;
	fb_ref(f, v + 4, sg);
	m->tensors_vec = fb_alloc(f, 4 + 4 * 6);
	fb_put(f, m->tensors_vec, 6);
	fb_ref(f, fb_field(sg, 0), m->tensors_vec);
	for (i = 0; i < 6; i++) {
		tv[i] = fb_table(f, 8);
		fb_ref(f, m->tensors_vec + 4 + 4 * i, tv[i]);
		x = fb_vec(f, ts[i].ndims, ts[i].dims);
		fb_ref(f, fb_field(tv[i], 0), x);
		f->b[fb_field(tv[i], 1)] = (u8)ts[i].type;
		fb_put(f, fb_field(tv[i], 2), ts[i].buffer);
		x = fb_bytes(f, strlen(ts[i].name), ts[i].name);
		fb_ref(f, fb_field(tv[i], 3), x);
		fb_absent(f, tv[i], 4);
		f->b[fb_field(tv[i], 5)] = (u8)ts[i].var;
		fb_absent(f, tv[i], 6);
		if (i == 0 || i == 2 || i == 5)
			fb_ref(f, fb_field(tv[i], 7),
			       fb_vec(f, 2, open_batch));
		else if (i == 4)
			fb_ref(f, fb_field(tv[i], 7), fb_vec(f, 2, closed));
		else
			fb_absent(f, tv[i], 7);
		if (!i)
			m->t0_shape = fb_field(tv[i], 0) +
				(f->b[fb_field(tv[i], 0)] |
				 f->b[fb_field(tv[i], 0) + 1] << 8);
	}
	m->t0_type = fb_field(tv[0], 1);
	m->t0_vtable_off = tv[0];
	m->t1_buffer = fb_field(tv[1], 2);
	one = 0;
	x = fb_vec(f, 1, &one);
	fb_ref(f, fb_field(sg, 1), x);
	one = 4;
	x = fb_vec(f, 1, &one);
	fb_ref(f, fb_field(sg, 2), x);
	v = fb_alloc(f, 12);
	fb_put(f, v, 2);
	fb_ref(f, fb_field(sg, 3), v);
	for (i = 0; i < 2; i++) {
		ov[i] = fb_table(f, 3);
		fb_ref(f, v + 4 + 4 * i, ov[i]);
		fb_put(f, fb_field(ov[i], 0), i);
		x = fb_vec(f, op_nin[i], op_in[i]);
		if (!i) {
			m->op0_inputs = x;
			m->opcode_idx = fb_field(ov[i], 0);
		}
		fb_ref(f, fb_field(ov[i], 1), x);
		x = fb_vec(f, 1, &op_out[i]);
		fb_ref(f, fb_field(ov[i], 2), x);
	}
	/* buffers: 0 empty, 1 the weights */
	v = fb_alloc(f, 12);
	fb_put(f, v, 2);
	fb_ref(f, fb_field(model, 4), v);
	for (i = 0; i < 2; i++) {
		bv[i] = fb_table(f, 1);
		fb_ref(f, v + 4 + 4 * i, bv[i]);
	}
	fb_absent(f, bv[0], 0);
	x = fb_bytes(f, 64, NULL);
	fb_ref(f, fb_field(bv[1], 0), x);
}

static int t_tiny(void)
{
	static const u64 size[5] = { 8, 64, 16, 16, 8 };
	static const u32 flags[5] = { TA_TENSOR_INPUT, TA_TENSOR_CONSTANT, 0,
				      TA_TENSOR_PERSISTENT, TA_TENSOR_OUTPUT };
	static const u32 start[5] = { 0, 0, 0, 0, 1 };
	static const u32 end[5] = { 1, 2, 2, 2, 2 };
	struct ta_tflite_info info;
	struct ta_input in;
	static struct tiny m;
	char err[256] = "", id[4];
	u32 i;

	tiny_build(&m);
	TA_CHECK(!ta_tflite_parse(m.f.b, m.f.n, "tiny", &in, &info, err,
				  sizeof(err)), "%s", err);
	TA_CHECK(in.is_graph && in.graph.n_tensors == 5 &&
		 in.graph.n_ops == 2 && in.prob.n_buffers == 5, "counts %u %u",
		 in.graph.n_tensors, in.graph.n_ops);
	TA_CHECK(info.n_subgraphs == 1 && info.n_tensors == 6 &&
		 info.n_used == 5 && info.n_ops == 2 && info.n_constants == 1 &&
		 info.n_variables == 1 && info.naive_bytes == 112 &&
		 info.constant_bytes == 64 && info.variable_bytes == 16, "info");
	/* tensor 5's open batch is not counted: no op uses it */
	TA_CHECK(info.n_dynamic == 2, "open dimensions: %u", info.n_dynamic);
	for (i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "%u", i);
		TA_CHECK(!strcmp(in.ids[i], id), "id %u", i);
		TA_CHECK(in.tensors[i].size == size[i] &&
			 in.tensors[i].align == 64 &&
			 in.tensors[i].flags == flags[i], "tensor %u", i);
		TA_CHECK(in.bufs[i].start == start[i] && in.bufs[i].end == end[i],
			 "lifetime %u: [%u,%u)", i, in.bufs[i].start,
			 in.bufs[i].end);
	}
	TA_CHECK(in.graph.ops[0].n_inputs == 2 && in.graph.ops[0].n_outputs == 1 &&
		 in.graph.ops[1].n_inputs == 2, "optional input skipped");
	TA_CHECK(!strcmp(in.op_names[0], "FULLY_CONNECTED") &&
		 !strcmp(in.op_names[1], "SVDF"), "op names");
	TA_CHECK(!strcmp(in.notes[0], "INT8 [1,8] input_x") &&
		 !strcmp(in.notes[2], "INT16 [1,8] hidden_1"), "notes '%s'",
		 in.notes[0]);
	/* tactl --align and --exportable: ta_input_retune() */
	TA_CHECK(ta_input_retune(&in, 48, NULL, err, sizeof(err)) == -EINVAL &&
		 strstr(err, "power of two"), "align 48: %s", err);
	TA_CHECK(ta_input_retune(&in, 0, "0,9", err, sizeof(err)) == -EINVAL &&
		 strstr(err, "'9'"), "name 9: %s", err);
	TA_CHECK(!ta_input_retune(&in, 128, "0,2", err, sizeof(err)), "%s", err);
	for (i = 0; i < 5; i++)
		TA_CHECK(in.tensors[i].align == 128 &&
			 !!(in.tensors[i].flags & TA_TENSOR_EXPORTABLE) ==
			 (i == 0 || i == 2) &&
			 in.bufs[i].size == (i == 0 || i == 2 ?
					     ta_env_page_size() : size[i]) &&
			 in.bufs[i].align == (i == 0 || i == 2 ?
					      ta_env_page_size() : 128),
			 "retuned %u", i);
	TA_CHECK(!ta_input_retune(&in, 64, NULL, err, sizeof(err)), "%s", err);
	TA_CHECK(!ta_input_drop_constants(&in), "drop");
	TA_CHECK(in.graph.n_tensors == 4 && in.prob.n_buffers == 4 &&
		 !strcmp(in.ids[1], "2") && in.graph.ops[0].n_inputs == 1 &&
		 in.bufs[1].start == 0 && in.bufs[1].end == 2, "after drop");
	ta_input_free(&in);
	return 0;
}

/* Parse @data; it must fail with -EINVAL, and @want must be in the message. */
static int expect_einval(const u8 *data, size_t len, const char *want)
{
	struct ta_input in;
	char err[256] = "";
	int ret = ta_tflite_parse(data, len, "bad", &in, NULL, err, sizeof(err));

	if (!ret)
		ta_input_free(&in);
	TA_CHECK(ret == -EINVAL, "ret %d (%s), want -EINVAL for '%s'", ret,
		 err, want);
	TA_CHECK(strstr(err, want), "message '%s' lacks '%s'", err, want);
	return 0;
}

/* tests/data/refused/@file is refused with -EINVAL and @want said. */
static int expect_refused(const char *file, const char *want)
{
	char path[1024];
	size_t len;
	u8 *b;
	int ret;

	snprintf(path, sizeof(path), "%s/tests/data/refused/%s", TA_REPO, file);
	b = (u8 *)ta_slurp(path, &len);
	TA_CHECK(b, "%s", path);
	ret = expect_einval(b, len, want);
	free(b);
	return ret;
}

static int t_tiny_corrupt(void)
{
	static struct tiny m;
	static u8 b[65536];
	size_t n;

#define POKE(at, v) do { memcpy(b, m.f.b, n); b[(at)] = (u8)(v); } while (0)
	tiny_build(&m);
	n = m.f.n;
	memcpy(b, m.f.b, n);
	b[4] = 'X';
	TA_CHECK(!expect_einval(b, n, "TFL3"), "identifier");
	TA_CHECK(!expect_einval(b, 7, "too short to be a TFLite model (7 bytes)"),
		 "7 bytes");
	/* the tensors vector claims 2^31 entries */
	POKE(m.tensors_vec + 3, 0x7f);
	TA_CHECK(!expect_einval(b, n, "vector runs past the end"), "len");
	/* an operator input past the tensors */
	POKE(m.op0_inputs + 4, 99);
	TA_CHECK(!expect_einval(b, n, "tensor index out of range"), "index");
	/* a negative index other than -1 */
	POKE(m.op0_inputs + 4, 0xfe);
	b[m.op0_inputs + 5] = b[m.op0_inputs + 6] = b[m.op0_inputs + 7] = 0xff;
	TA_CHECK(!expect_einval(b, n, "tensor index out of range"), "-2");
	POKE(m.t1_buffer, 7);
	TA_CHECK(!expect_einval(b, n, "buffer index out of range"), "buffer");
	POKE(m.t0_type, 5);
	TA_CHECK(!expect_einval(b, n, "STRING"), "string type");
	POKE(m.t0_type, 200);
	TA_CHECK(!expect_einval(b, n, "unknown"), "unknown type");
	POKE(m.t0_shape + 7, 0xff);			/* dim 0 < 0 */
	TA_CHECK(!expect_einval(b, n, "dynamic dimension"), "dim");
	POKE(m.t0_shape + 7, 0x7f);			/* 2^30 x 2^30 */
	b[m.t0_shape + 11] = 0x7f;
	TA_CHECK(!expect_einval(b, n, "tensor too large"), "huge");
	POKE(m.t0_shape, 17);		/* 17 dims: named, with the count */
	TA_CHECK(!expect_einval(b, n, "tensor 0: 17 dimensions, more than 16"),
		 "17 dims");
	POKE(m.t0_vtable_off + 3, 0x40);		/* vtable before the file */
	TA_CHECK(!expect_einval(b, n, "vtable outside the file"), "vtable");
	POKE(m.opcode_idx, 2);
	TA_CHECK(!expect_einval(b, n, "opcode_index out of range"), "opcode");
	POKE(3, 0x7f);					/* root offset */
	TA_CHECK(!expect_einval(b, n, "beyond the end"), "root");
#undef POKE
	return 0;
}

static u32 fb_get(const struct fbb *f, u32 at)
{
	return f->b[at] | f->b[at + 1] << 8 | f->b[at + 2] << 16 |
	       (u32)f->b[at + 3] << 24;
}

/*
 * The reader plans a tensor at its recorded shape, but TFLite's kernel
 * computes its output's shape from the inputs: FULLY_CONNECTED of [1,8]
 * by [8,8] writes [1,8] (32 bytes of INT16) whatever tensor 2 records.
 * Recorded smaller, it would be planned too small; recorded larger or
 * otherwise, the ops after it would be judged on a shape the runtime does
 * not have. Both are refused, naming the op and the two shapes; the
 * untouched model plans (t_tiny).
 */
static int t_tiny_recorded_shape(void)
{
	static const struct {
		s32 d0, d1;
		const char *want;
	} cases[] = {
		{ 1, 4, "subgraph 0, op 0 (FULLY_CONNECTED): its output, tensor 2, records [1,4], but TFLite's kernel computes [1,8]" },
		{ 1, 16, "op 0 (FULLY_CONNECTED): its output, tensor 2, records [1,16], but TFLite's kernel computes [1,8]" },
		{ 8, 1, "records [8,1], but TFLite's kernel computes [1,8]" },
	};
	static struct tiny m;
	struct ta_input in;
	char err[256] = "";
	u32 t2, shape, k, ran = 0;

	tiny_build(&m);
	t2 = m.tensors_vec + 4 + 4 * 2;
	t2 += fb_get(&m.f, t2);
	shape = fb_field(t2, 0);
	shape += fb_get(&m.f, shape);
	TA_CHECK(fb_get(&m.f, shape) == 2 && fb_get(&m.f, shape + 4) == 1 &&
		 fb_get(&m.f, shape + 8) == 8, "tensor 2 is [1,8]");
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		fb_put(&m.f, shape + 4, (u32)cases[k].d0);
		fb_put(&m.f, shape + 8, (u32)cases[k].d1);
		TA_CHECK(!expect_einval(m.f.b, m.f.n, cases[k].want),
			 "case %u", k);
		ran++;
	}
	fb_put(&m.f, shape + 4, 1);
	fb_put(&m.f, shape + 8, 8);
	TA_CHECK(!ta_tflite_parse(m.f.b, m.f.n, "tiny", &in, NULL, err,
				  sizeof(err)), "restored: %s", err);
	ta_input_free(&in);
	TA_CHECK(ran == 3, "ran %u cases", ran);
	return 0;
}

/*
 * Tables may share vectors: 4,100 operators that are one table reading one
 * 4,100-entry inputs vector make 16.8 M references from 33 KiB. -E2BIG.
 */
static int t_tiny_shared(void)
{
	static struct tiny m;
	struct fbb *f = &m.f;
	struct ta_input in;
	char err[256] = "";
	u32 ops, op, inputs, i, n = 4100;
	int ret;

	tiny_build(&m);
	ops = fb_alloc(f, 4 + 4 * n);
	fb_put(f, ops, n);
	fb_ref(f, fb_field(m.sg, 3), ops);
	op = fb_table(f, 3);
	inputs = fb_alloc(f, 4 + 4 * n);		/* all tensor 0 */
	fb_put(f, inputs, n);
	fb_ref(f, fb_field(op, 1), inputs);
	fb_absent(f, op, 2);
	for (i = 0; i < n; i++)
		fb_ref(f, ops + 4 + 4 * i, op);
	TA_CHECK(f->n < sizeof(f->b), "builder");
	ret = ta_tflite_parse(f->b, f->n, "shared", &in, NULL, err, sizeof(err));
	if (!ret)
		ta_input_free(&in);
	TA_CHECK(ret == -E2BIG && strstr(err, "references"), "%d %s", ret, err);
	return 0;
}

/* ---- the real models ---- */

/*
 * From /work/shared/models/PROVENANCE.md; 0 = not given there. The models
 * compiled for an NPU are in its compiled/ (@compiled). @dynamic: tensors
 * whose shape_signature has a -1, counted in flatc's JSON of each model
 * (tests/data/tflite-subset.fbs; every one of them is used by an op).
 */
static const struct model_ref {
	const char *file;
	bool compiled;
	u32 tensors, ops, variables;
	u64 max_live;
	const char *op1;	/* an op kind and how often */
	u32 op1_count;
	u32 dynamic;
} model_refs[] = {
	{ "hello_world_mlp_f32.tflite", false, 10, 3, 0, 128,
	  "FULLY_CONNECTED", 3, 4 },
	{ "person_detect_mobilenetv1_i8.tflite", false, 89, 31, 0, 55296,
	  "DEPTHWISE_CONV_2D", 14, 0 },
	{ "keyword_svdf_scrambled.tflite", false, 54, 15, 7, 2112, "SVDF", 7,
	  0 },
	{ "mnist_lstm_i8.tflite", false, 27, 4, 2, 0,
	  "UNIDIRECTIONAL_SEQUENCE_LSTM", 1, 0 },
	{ "kws_dscnn_i8.tflite", false, 35, 13, 0, 16000, "CONV_2D", 5, 14 },
	{ "anomaly_autoencoder_i8.tflite", false, 31, 10, 0, 768,
	  "FULLY_CONNECTED", 10, 11 },
	{ "resnet8_cifar10_i8.tflite", false, 38, 16, 0, 49152, "ADD", 3, 17 },
	{ "deeplabv3_mnv2_dm05_u8.tflite", false, 186, 72, 0, 7631901,
	  "RESIZE_BILINEAR", 3, 0 },
	{ "movenet_lightning_i8.tflite", false, 333, 157, 0, 1105920,
	  "GATHER_ND", 4, 0 },
	{ "mobilenet_v2_1.0_224_u8.tflite", false, 0, 66, 0, 0, "ADD", 10, 0 },
	/* Vela for Ethos-U: one ethos-u op, its plan offline */
	{ "person_detect_vela.tflite", true, 6, 1, 0, 0, "ethos-u", 1, 0 },
};

const char *ta_test_shared_dir(void);

const char *ta_test_shared_dir(void)
{
	static char dir[1024];
	const char *e = getenv("TA_SHARED");

	if (e && *e) {
		snprintf(dir, sizeof(dir), "%s/models", e);
		if (access(dir, R_OK))
			snprintf(dir, sizeof(dir), "%s", e);
		return dir;
	}
	/* next to the repository: ../shared/models */
	snprintf(dir, sizeof(dir), "%s/../shared/models", TA_REPO);
	return dir;
}

static u8 *load(const char *path, size_t *len)
{
	return (u8 *)ta_slurp(path, len);
}

/*
 * PROVENANCE.md's max-live: the most bytes of non-constant tensors live at
 * one step, a variable tensor counted only from its first to its last op
 * (not over the whole run, as the plan keeps it).
 */
/*
 * tests/data/shape_rules.tflite: PAD, SLICE, TILE, MEAN, TRANSPOSE, SPLIT
 * and ADD take their output shapes from constants (INT32 and INT64), and a
 * CONV_3D from its options, all 8 checked. shape_rules_hostile.tflite
 * records the same shapes beside constants no kernel takes (paddings,
 * begin, size, multiples near 2^63, an axis past the rank, a perm
 * repeating an axis, a stride of 0): those 7 ops are left
 * unchecked, as the runtime refuses them, and nothing overflows (UBSan
 * watches); ADD is still checked. index_rules.tflite does the same for
 * the index rules (STRIDED_SLICE with begin and end at the int32 limits,
 * SPLIT_V, TOPK_V2, SPACE_TO_BATCH_ND, BROADCAST_TO, RANGE, ONE_HOT...: 15
 * checked, the RANGE folded); its hostile copy (a stride of 0 beside every
 * mask bit, a block of 0, negative crops, two -1 sizes, k of -1, a size
 * near 2^62, a negative dim, a lookup of rank 2, a RANGE step of 0, a depth
 * of -1) leaves those 10 unchecked, the 5 ops without constants checked.
 * folded_shapes.tflite computes shapes in the graph (SHAPE, STRIDED_SLICE,
 * PACK, ADD, GATHER, CONCATENATION, SLICE, RANK, RANGE: 9 values folded)
 * for a RESHAPE, PAD, BROADCAST_TO, TILE, FILL and MEAN, all 15 checked;
 * its hostile copy (an ADD past 2^31, a GATHER and a SLICE past the shape,
 * a RANGE step of 0) folds 4 and leaves PAD, TILE, SLICE, FILL, RANGE and
 * MEAN unchecked.
 * data_shapes.tflite reads values of its input k where TFLite keeps the
 * recorded shape (a SLICE's size, GATHER's indices: accepted, the SLICE
 * unchecked) and sizes a FILL by the SHAPE of one (no data: checked).
 */
static int t_shape_rules_constants(void)
{
	static const struct {
		const char *file;
		u32 ops, checked, folded;
	} cases[] = {
		{ "shape_rules.tflite", 8, 8, 0 },
		{ "shape_rules_hostile.tflite", 8, 1, 0 },
		{ "index_rules.tflite", 15, 15, 3 },
		{ "index_rules_hostile.tflite", 15, 5, 2 },
		{ "folded_shapes.tflite", 15, 15, 9 },
		{ "folded_shapes_hostile.tflite", 15, 9, 4 },
		{ "data_shapes.tflite", 7, 6, 2 },
	};
	struct ta_tflite_info info;
	struct ta_input in;
	char path[1024], err[256] = "";
	size_t len;
	u32 k, ran = 0;
	u8 *b;
	int ret;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(path, sizeof(path), "%s/tests/data/%s", TA_REPO,
			 cases[k].file);
		b = load(path, &len);
		TA_CHECK(b, "%s", path);
		ret = ta_tflite_parse(b, len, cases[k].file, &in, &info, err,
				      sizeof(err));
		free(b);
		TA_CHECK(!ret, "%s: %s", cases[k].file, err);
		ta_input_free(&in);
		TA_CHECK(info.n_ops == cases[k].ops &&
			 info.n_shape_checked == cases[k].checked &&
			 info.n_folded == cases[k].folded,
			 "%s: %u of %u ops checked, %u values folded, want %u, %u",
			 cases[k].file, info.n_shape_checked, info.n_ops,
			 info.n_folded, cases[k].checked, cases[k].folded);
		ran++;
	}
	TA_CHECK(ran == 7, "ran %u", ran);
	/*
	 * A view's very shape: RESHAPE by the constant shape [2, 3], recorded
	 * [3, 2]. As many bytes, but TFLite's RESHAPE kernel writes [2, 3],
	 * so the PAD after it (5 more rows) writes 21 floats where its
	 * recorded [8, 2] holds 16; judged on elements alone, both ops were
	 * taken as recorded.
	 */
	TA_CHECK(!expect_refused("reshape_arranged.tflite", "subgraph 0, op 0 (RESHAPE): its output, tensor 2, records [3,2], but TFLite's kernel computes [2,3]"),
		 "reshape_arranged");
	/*
	 * Paddings an ADD computes from the model's input: TFLite sizes the
	 * PAD's output only when the model runs, from what it is fed.
	 */
	TA_CHECK(!expect_refused("data_paddings.tflite", "subgraph 0, op 1 (PAD): the shape of its output, tensor 4, comes from the values of its input 1, tensor 3, which the model computes from its input data"),
		 "data_paddings");
	/*
	 * GATHER makes its output its input's type: FLOAT32 recorded INT16
	 * is sized twice as large by TFLite as recorded.
	 */
	TA_CHECK(!expect_refused("gather_type.tflite", "subgraph 0, op 0 (GATHER): its output 0, tensor 2, records INT16 elements, but TFLite's kernel makes them FLOAT32"),
		 "gather_type");
	/*
	 * RESHAPE assigns no type and checks none, but copies its input's
	 * bytes: FLOAT32 recorded INT8 would be overrun four times over.
	 */
	TA_CHECK(!expect_refused("reshape_type.tflite", "subgraph 0, op 0 (RESHAPE): its output 0, tensor 2, records INT8 elements, but TFLite's kernel writes its input's FLOAT32 elements into it"),
		 "reshape_type");
	return 0;
}

static int max_live(const struct ta_input *in, u64 *lb)
{
	struct ta_buffer *b = calloc(in->prob.n_buffers + 1, sizeof(*b));
	struct ta_problem p = { .buffers = b };
	u32 i, k;
	int ret;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < in->prob.n_buffers; i++) {
		u32 first = U32_MAX, last = 0;

		if (in->tensors[i].flags & TA_TENSOR_CONSTANT)
			continue;
		b[p.n_buffers] = in->bufs[i];
		/* the bytes live, not the alignment-aware bound */
		b[p.n_buffers].align = 1;
		if (in->tensors[i].flags & TA_TENSOR_PERSISTENT) {
			for (k = 0; k < in->graph.n_ops; k++) {
				const struct ta_graph_op *op = &in->graph.ops[k];
				u32 r;

				for (r = 0; r < op->n_inputs + op->n_outputs; r++)
					if (in->graph.refs[op->first_ref + r] == i) {
						if (first == U32_MAX)
							first = k;
						last = k;
					}
			}
			b[p.n_buffers].start = first;
			b[p.n_buffers].end = last + 1;
		}
		p.n_buffers++;
	}
	ret = ta_problem_lower_bound(&p, lb);
	free(b);
	return ret;
}

static int plan_all(const char *name, const struct ta_problem *p)
{
	u64 *off = calloc(p->n_buffers + 1, sizeof(*off)), lb;
	struct ta_budget budget = { .steps = 20000 };
	struct ta_result res;
	int s, ret;

	TA_CHECK(off, "oom");
	TA_CHECK(!ta_problem_lower_bound(p, &lb), "lb");
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		ret = ta_plan_solve(p, s, &budget, off, &res);
		if (ret)
			free(off);
		TA_CHECK(!ret, "%s: %s: %d", name, ta_strategy_name(s), ret);
		ret = ta_plan_validate(p, off, res.height);
		if (ret)
			free(off);
		TA_CHECK(!ret, "%s: %s: invalid plan", name,
			 ta_strategy_name(s));
		TA_CHECK(res.lower_bound == lb && res.height >= lb, "%s: %s",
			 name, ta_strategy_name(s));
	}
	free(off);
	return 0;
}

static int check_model(const char *dir, const struct model_ref *r)
{
	struct ta_tflite_info info;
	struct ta_input in, in2;
	char path[1200], err[512] = "";
	u64 lb = 0, naive = 0;
	u32 i, kind = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, r->file);
	TA_CHECK(!ta_tflite_read(path, &in, &info, err, sizeof(err)), "%s", err);
	TA_CHECK(info.n_subgraphs == 1, "%s: subgraphs %u", r->file,
		 info.n_subgraphs);
	if (r->tensors)
		TA_CHECK(info.n_tensors == r->tensors, "%s: tensors %u",
			 r->file, info.n_tensors);
	TA_CHECK(info.n_ops == r->ops && in.graph.n_ops == r->ops,
		 "%s: ops %u", r->file, info.n_ops);
	TA_CHECK(info.n_variables == r->variables, "%s: variables %u",
		 r->file, info.n_variables);
	TA_CHECK(info.n_dynamic == r->dynamic, "%s: %u tensors left open",
		 r->file, info.n_dynamic);
	for (i = 0; i < in.graph.n_ops; i++)
		kind += !strcmp(in.op_names[i], r->op1);
	TA_CHECK(kind == r->op1_count, "%s: %u %s", r->file, kind, r->op1);
	for (i = 0; i < in.graph.n_tensors; i++)
		naive += in.tensors[i].size;
	TA_CHECK(naive == info.naive_bytes, "naive");
	if (r->max_live) {
		TA_CHECK(!max_live(&in, &lb), "lb");
		TA_CHECK(lb == r->max_live, "%s: max-live %llu, want %llu",
			 r->file, (unsigned long long)lb,
			 (unsigned long long)r->max_live);
	}
	/* ta_input_read() recognises the file and gives the same graph */
	TA_CHECK(!ta_input_read(path, &in2, err, sizeof(err)), "%s", err);
	TA_CHECK(in2.is_graph && in2.graph.n_tensors == in.graph.n_tensors &&
		 !memcmp(in2.bufs, in.bufs,
			 sizeof(*in.bufs) * in.graph.n_tensors), "dispatch");
	ta_input_free(&in2);
	if (plan_all(r->file, &in.prob)) {
		ta_input_free(&in);
		return 1;
	}
	TA_CHECK(!ta_input_drop_constants(&in), "drop");
	for (i = 0; i < in.graph.n_tensors; i++)
		TA_CHECK(!(in.tensors[i].flags & TA_TENSOR_CONSTANT), "const");
	if (r->max_live && !r->variables) {
		u64 align = 1;

		/* max-live, plus less than the largest alignment */
		for (i = 0; i < in.graph.n_tensors; i++)
			if (in.bufs[i].align > align)
				align = in.bufs[i].align;
		TA_CHECK(!ta_problem_lower_bound(&in.prob, &lb), "lb");
		TA_CHECK(lb >= r->max_live && lb - r->max_live < align,
			 "%s: no-constants lb %llu", r->file,
			 (unsigned long long)lb);
	}
	if (plan_all(r->file, &in.prob)) {
		ta_input_free(&in);
		return 1;
	}
	ta_input_free(&in);
	return 0;
}

/* Every model of @dir: the known ones (@compiled or not) checked. */
static int models_in(const char *dir, bool compiled, size_t *found,
		     size_t *known)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t i;

	TA_CHECK(d, "%s: %s (set TA_SHARED)", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct model_ref unknown = { .file = e->d_name };

		if (l < 7 || strcmp(e->d_name + l - 7, ".tflite"))
			continue;
		(*found)++;
		for (i = 0; i < sizeof(model_refs) / sizeof(model_refs[0]); i++)
			if (!strcmp(model_refs[i].file, e->d_name) &&
			    model_refs[i].compiled == compiled)
				break;
		if (i < sizeof(model_refs) / sizeof(model_refs[0])) {
			(*known)++;
			if (check_model(dir, &model_refs[i]))
				goto fail;
		} else {
			/* a model PROVENANCE.md has no numbers for here */
			struct ta_input in;
			char path[1200], err[512] = "";

			snprintf(path, sizeof(path), "%s/%s", dir, unknown.file);
			if (ta_tflite_read(path, &in, NULL, err, sizeof(err))) {
				printf("# %s\n", err);
				goto fail;
			}
			if (plan_all(unknown.file, &in.prob)) {
				ta_input_free(&in);
				goto fail;
			}
			ta_input_free(&in);
		}
	}
	closedir(d);
	return 0;
fail:
	closedir(d);
	return 1;
}

/* ../shared/models and its compiled/ (models compiled for an NPU) */
static int t_models(void)
{
	const char *dir = ta_test_shared_dir();
	char compiled[1200];
	size_t found = 0, known = 0;

	snprintf(compiled, sizeof(compiled), "%s/compiled", dir);
	if (models_in(dir, false, &found, &known) ||
	    models_in(compiled, true, &found, &known))
		return 1;
	TA_CHECK(known == sizeof(model_refs) / sizeof(model_refs[0]),
		 "found %zu of the %zu known models in %s and %s", known,
		 sizeof(model_refs) / sizeof(model_refs[0]), dir, compiled);
	TA_CHECK(found >= known, "found");
	return 0;
}

/* resnet8: tensor 22 is read by ops 1 and 3 (a skip connection). */
static int t_resnet_skip(void)
{
	struct ta_input in;
	char path[1200], err[512] = "";
	u32 i;

	snprintf(path, sizeof(path), "%s/resnet8_cifar10_i8.tflite",
		 ta_test_shared_dir());
	TA_CHECK(!ta_tflite_read(path, &in, NULL, err, sizeof(err)), "%s", err);
	for (i = 0; i < in.graph.n_tensors; i++)
		if (!strcmp(in.ids[i], "22"))
			break;
	TA_CHECK(i < in.graph.n_tensors, "no tensor 22");
	TA_CHECK(in.bufs[i].start == 0 && in.bufs[i].end == 4,
		 "tensor 22 lives [%u,%u)", in.bufs[i].start, in.bufs[i].end);
	TA_CHECK(in.tensors[i].size == 32 * 32 * 16, "size %llu",
		 (unsigned long long)in.tensors[i].size);
	ta_input_free(&in);
	return 0;
}

/* A parse of a damaged file: -EINVAL, or a graph every strategy plans. */
static int damaged_ok(const u8 *b, size_t len, int *fails)
{
	struct ta_input in;
	char err[256] = "";
	int ret = ta_tflite_parse(b, len, "fuzz", &in, NULL, err, sizeof(err));

	if (ret) {
		TA_CHECK(ret == -EINVAL || ret == -E2BIG, "ret %d: %s", ret, err);
		TA_CHECK(err[0], "no message");
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

	snprintf(path, sizeof(path), "%s/hello_world_mlp_f32.tflite",
		 ta_test_shared_dir());
	data = load(path, &len);
	TA_CHECK(data && len == 3164, "%s", path);
	/* every length short of the whole file, each in its own allocation */
	for (l = 0; l < len; l++) {
		copy = malloc(l ? l : 1);
		TA_CHECK(copy, "oom");
		memcpy(copy, data, l);
		if (damaged_ok(copy, l, &fails)) {
			free(copy);
			free(data);
			return 1;
		}
		free(copy);
	}
	free(data);
	/* the buffers' data ends the file: any cut breaks a vector */
	TA_CHECK(fails == (int)len, "%d of %zu truncations rejected", fails,
		 len);
	return 0;
}

static int t_truncated_big(void)
{
	char path[1200];
	size_t len, l, n = 0;
	u8 *data, *copy;
	int fails = 0;

	snprintf(path, sizeof(path), "%s/person_detect_mobilenetv1_i8.tflite",
		 ta_test_shared_dir());
	data = load(path, &len);
	TA_CHECK(data && len == 300568, "%s", path);
	for (l = 0; l < len; l += 1 + l / 7 + (l % 97), n++) {
		copy = malloc(l ? l : 1);
		TA_CHECK(copy, "oom");
		memcpy(copy, data, l);
		if (damaged_ok(copy, l, &fails)) {
			free(copy);
			free(data);
			return 1;
		}
		free(copy);
	}
	free(data);
	TA_CHECK(fails == (int)n && n > 50, "%d of %zu rejected", fails, n);
	return 0;
}

static int t_flipped(void)
{
	char path[1200];
	size_t len, i;
	u8 *data, *copy;
	int fails = 0, masks[3] = { 0xff, 0x80, 0x01 }, k;

	snprintf(path, sizeof(path), "%s/keyword_svdf_scrambled.tflite",
		 ta_test_shared_dir());
	data = load(path, &len);
	TA_CHECK(data && len == 34576, "%s", path);
	copy = malloc(len);
	TA_CHECK(copy, "oom");
	/* every byte of the first 4 KiB (the tables), then every 7th */
	for (i = 0; i < len; i += i < 4096 ? 1 : 7) {
		for (k = 0; k < 3; k++) {
			memcpy(copy, data, len);
			copy[i] ^= (u8)masks[k];
			if (damaged_ok(copy, len, &fails)) {
				printf("# flipped byte %zu ^ 0x%x\n", i, masks[k]);
				free(copy);
				free(data);
				return 1;
			}
		}
	}
	free(copy);
	free(data);
	/* many flips land in weights and change nothing; enough must not */
	TA_CHECK(fails > 1000, "only %d flips rejected", fails);
	return 0;
}

/* Seeded mutations: several random bytes and a random length at once. */
static int t_fuzz(void)
{
	static const char *const files[] = {
		"mnist_lstm_i8.tflite", "resnet8_cifar10_i8.tflite",
		"hello_world_mlp_f32.tflite",
	};
	u64 seed = 0x7e45a7e4a11ceULL;
	int fails = 0, total = 0;
	size_t f;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[1200];
		size_t len, n, i, k;
		u8 *data, *copy;

		snprintf(path, sizeof(path), "%s/%s", ta_test_shared_dir(), files[f]);
		data = load(path, &len);
		TA_CHECK(data, "%s", path);
		for (n = 0; n < 700; n++) {
			size_t cut = len, muts;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			muts = 1 + (seed >> 60);
			if ((seed >> 33) % 4 == 0)
				cut = (size_t)((seed >> 20) % len);
			copy = malloc(len);
			TA_CHECK(copy, "oom");
			memcpy(copy, data, len);
			for (k = 0; k < muts; k++) {
				seed = seed * 6364136223846793005ULL +
				       1442695040888963407ULL;
				/* mostly the table area at the front */
				i = (size_t)((seed >> 24) %
					     ((seed >> 62) ? 2048 : len)) % len;
				copy[i] = (seed >> 50) & 1 ? (u8)(seed >> 8) :
					  copy[i] ^ (u8)(1 << ((seed >> 40) & 7));
			}
			total++;
			if (damaged_ok(copy, cut, &fails)) {
				printf("# %s mutation %zu\n", files[f], n);
				free(copy);
				free(data);
				return 1;
			}
			free(copy);
		}
		free(data);
	}
	TA_CHECK(total == 2100 && fails > 300, "%d of %d rejected", fails,
		 total);
	return 0;
}

/* import -> graph file -> read back: the same problem. */
static int t_roundtrip(void)
{
	char path[1200], out[64], err[512] = "";
	struct ta_input a, b;

	snprintf(path, sizeof(path), "%s/mnist_lstm_i8.tflite", ta_test_shared_dir());
	snprintf(out, sizeof(out), "/tmp/ta_unit_tfl_%d.graph", (int)getpid());
	TA_CHECK(!ta_tflite_read(path, &a, NULL, err, sizeof(err)), "%s", err);
	TA_CHECK(!ta_graph_write(out, &a), "write");
	TA_CHECK(!ta_input_read(out, &b, err, sizeof(err)), "%s", err);
	unlink(out);
	TA_CHECK(b.is_graph && b.graph.n_tensors == a.graph.n_tensors &&
		 b.graph.n_ops == a.graph.n_ops &&
		 b.graph.n_refs == a.graph.n_refs, "counts");
	TA_CHECK(!memcmp(a.bufs, b.bufs, sizeof(*a.bufs) * a.graph.n_tensors) &&
		 !memcmp(a.tensors, b.tensors,
			 sizeof(*a.tensors) * a.graph.n_tensors) &&
		 !memcmp(a.refs, b.refs, sizeof(*a.refs) * a.graph.n_refs),
		 "same graph");
	TA_CHECK(!strcmp(a.ids[3], b.ids[3]), "ids");
	ta_input_free(&a);
	ta_input_free(&b);
	return 0;
}

/* test_tflite_control.c */
int t_cf_inline(void);
int t_cf_same_branch(void);
int t_cf_refused(void);
int t_inplace_views(void);
int t_offline_read(void);
int t_offline_malformed(void);
int t_offline_write(void);
int t_offline_rewrite(void);
int t_offline_write_refused(void);
int t_offline_vela(void);
int t_offline_vela_inside(void);
int t_offline_write_subgraphs(void);

const struct ta_test ta_tflite_tests[] = {
	{ "tflite: hand-built model, sizes, flags, lifetimes", t_tiny },
	{ "tflite: corrupt fields of the hand-built model", t_tiny_corrupt },
	{ "tflite: a recorded output shape the kernel does not compute refused",
	  t_tiny_recorded_shape },
	{ "tflite: output shapes from constants checked; hostile ones left to the runtime",
	  t_shape_rules_constants },
	{ "tflite: shared vectors cannot blow up", t_tiny_shared },
	{ "tflite: every shared model vs PROVENANCE, every strategy", t_models },
	{ "tflite: resnet8 skip connection", t_resnet_skip },
	{ "tflite: truncated at every length", t_truncated },
	{ "tflite: person_detect truncated", t_truncated_big },
	{ "tflite: bytes flipped", t_flipped },
	{ "tflite: seeded fuzz", t_fuzz },
	{ "tflite: import, write graph, read back", t_roundtrip },
	{ "tflite: control flow inlined, lifetimes of loop state, body, branches",
	  t_cf_inline },
	{ "tflite: a subgraph called twice is inlined twice", t_cf_same_branch },
	{ "tflite: recursion, unknown calls, depth, bad index refused",
	  t_cf_refused },
	{ "tflite: views (RESHAPE...) marked in place, nothing else",
	  t_inplace_views },
	{ "tflite: OfflineMemoryAllocation read, fixed strategy", t_offline_read },
	{ "tflite: malformed OfflineMemoryAllocation refused",
	  t_offline_malformed },
	{ "tflite: OfflineMemoryAllocation written, read back (and by flatc)",
	  t_offline_write },
	{ "tflite: OfflineMemoryAllocation written twice, in place",
	  t_offline_rewrite },
	{ "tflite: OfflineMemoryAllocation writes refused", t_offline_write_refused },
	{ "tflite: Vela's layout over 3 subgraphs served by the fixed strategy",
	  t_offline_vela },
	{ "tflite: Vela's tensors inside its scratch: served at their offsets",
	  t_offline_vela_inside },
	{ "tflite: OfflineMemoryAllocation of several subgraphs written",
	  t_offline_write_subgraphs },
	{ NULL, NULL },
};
