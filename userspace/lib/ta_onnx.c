// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx.c - read an ONNX model (.onnx) as a graph.
 *
 * An .onnx file is one protobuf message, onnx.ModelProto. It is read here
 * with a small protobuf wire-format reader of our own (no protobuf library,
 * no generated code), bounded everywhere: a varint has at most 10 bytes and
 * fits 64 bits, every length is checked against the bytes left in its
 * enclosing message before anything is read, groups and unknown wire types
 * are refused, counts are bounded before anything is allocated, and there is
 * no recursion: each message kind has its own reader, so the nesting depth
 * is fixed by the schema (ModelProto > GraphProto > NodeProto >
 * AttributeProto > TensorProto, or GraphProto > ValueInfoProto > TypeProto
 * > Tensor > TensorShapeProto > Dimension: at most 6).
 *
 * What is read (field numbers of onnx.proto, Documentation/onnx.md):
 *
 *	ModelProto         1 ir_version  7 graph  8 opset_import
 *	OperatorSetIdProto 1 domain  2 version
 *	GraphProto         1 node  5 initializer  11 input  12 output
 *			   13 value_info  (15 sparse_initializer: refused)
 *	NodeProto          1 input  2 output  3 name  4 op_type  5 attribute
 *			   7 domain
 *	AttributeProto     1 name  2 f  3 i  4 s  5 t  7 floats  8 ints  20 type
 *	TensorProto        1 dims  2 data_type  3 segment (refused)
 *			   4 float_data  5 int32_data  7 int64_data  8 name
 *			   9 raw_data  10 double_data  11 uint64_data
 *			   13 external_data  14 data_location (refused)
 *	ValueInfoProto     1 name  2 type
 *	TypeProto          1 tensor_type > 1 elem_type  2 shape > 1 dim >
 *			   1 dim_value  2 dim_param
 *
 * The graph: one op per node, in file order (ONNX requires a topological
 * order; a node reading a value that no earlier node produced and that is
 * not a graph input or initializer is an error). Most exported models
 * record no intermediate shapes, so every node's output shapes and types
 * are inferred here from the graph inputs and initializers, for the op
 * types in ta_ox_ops[]; a shape recorded in value_info or on a graph output
 * is checked against the inferred one, and used for an op this file cannot
 * infer. A node whose inputs are all constant (initializers, or outputs of
 * such nodes: Constant, ConstantOfShape, a Reshape of a weight) is folded:
 * its outputs are constants computed when the model is loaded, and its op
 * reads and writes nothing. Sizes are the product of the shape times the
 * element size; every tensor is 64-byte aligned, as the TFLite importer's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ta_files.h"
#include "ta_reader.h"

#define TA_OX_ALIGN		64
#define TA_OX_MAX_FILE		(1ULL << 31)	/* protobuf's own limit */
#define TA_OX_MAX_RANK		8
/* Elements of one tensor: 2^36 x 16 bytes = 1 TiB; sums stay below 2^61. */
#define TA_OX_MAX_ELEMS		(1ULL << 36)
/* Node inputs and outputs, all nodes together. */
#define TA_OX_MAX_REFS		(1U << 24)
/* Named values: initializers, inputs, node outputs, value_info entries. */
#define TA_OX_MAX_VALUES	(1U << 22)
/* Attributes of one node. */
#define TA_OX_MAX_ATTRS		1024
/* Elements of a small tensor whose values are kept (shapes, axes, pads). */
#define TA_OX_MAX_KEPT		64
/* Tensor names in the graph (ids) are cut to this many bytes. */
#define TA_OX_MAX_ID		200

/* Protobuf wire types. */
enum { TA_PB_VARINT = 0, TA_PB_I64 = 1, TA_PB_LEN = 2, TA_PB_I32 = 5 };

/* TensorProto.DataType values this reader knows. */
enum {
	TA_OX_FLOAT = 1, TA_OX_UINT8 = 2, TA_OX_INT8 = 3, TA_OX_UINT16 = 4,
	TA_OX_INT16 = 5, TA_OX_INT32 = 6, TA_OX_INT64 = 7, TA_OX_STRING = 8,
	TA_OX_BOOL = 9, TA_OX_FLOAT16 = 10, TA_OX_DOUBLE = 11,
	TA_OX_UINT32 = 12, TA_OX_UINT64 = 13, TA_OX_COMPLEX64 = 14,
	TA_OX_COMPLEX128 = 15, TA_OX_BFLOAT16 = 16, TA_OX_NTYPES = 24,
};

/* AttributeProto.AttributeType values. */
enum {
	TA_OX_AT_FLOAT = 1, TA_OX_AT_INT = 2, TA_OX_AT_STRING = 3,
	TA_OX_AT_TENSOR = 4, TA_OX_AT_GRAPH = 5, TA_OX_AT_FLOATS = 6,
	TA_OX_AT_INTS = 7,
};

/* ---- the model as read ---- */

/* A byte range of the file. */
struct ta_ox_span {
	const u8 *p;
	u64 len;
};

/* A shape: rank and dimensions. */
struct ta_ox_shape {
	u32 rank;
	s64 d[TA_OX_MAX_RANK];
};

enum ta_ox_state { TA_OX_DECLARED, TA_OX_GRAPH_INPUT, TA_OX_INITIALIZER,
		   TA_OX_PRODUCED };

/* A named value of the graph (a tensor). */
struct ta_ox_value {
	struct ta_ox_span name;
	enum ta_ox_state state;
	u32 dtype;
	struct ta_ox_shape shape;
	bool is_const;		/* initializer or output of a folded node */
	bool used;		/* referenced by an op that is not folded */
	bool is_output;		/* a graph output */
	s32 producer;		/* node index, or -1 */
	/* a shape recorded in value_info or a graph output */
	bool rec;
	bool rec_shape;
	u32 rec_dtype;
	u32 rec_sym;		/* bit i: dimension i is symbolic */
	struct ta_ox_shape rec_dims;
	/* the values of a small tensor, when known: ints or floats */
	u32 n_kept;
	s64 *iv;
	double *fv;
	u32 index;		/* in the graph, or U32_MAX */
};

/* One node being read. */
struct ta_ox_node {
	u32 index;
	struct ta_ox_span name, op, domain;
	char op_str[64];
	char name_str[80];
	u32 n_in, n_out;
	s32 *in, *out;		/* value indices, -1 for an empty name */
	u32 n_attrs;
	struct ta_ox_span attrs[TA_OX_MAX_ATTRS];
	bool folded;
	bool inplace;
};

struct ta_ox {
	const u8 *base;
	u64 n;
	const char *path;
	char *err;
	size_t errlen;
	struct ta_onnx_info *info;
	s64 opset;
	/* the graph's repeated fields, as spans */
	struct ta_ox_span *nodes, *inits, *inputs, *outputs, *vinfos;
	u32 n_nodes, n_inits, n_inputs, n_outputs, n_vinfos;
	u32 cap_nodes, cap_inits, cap_inputs, cap_outputs, cap_vinfos;
	/* values and their name hash (index + 1, 0 = empty) */
	struct ta_ox_value *v;
	u32 n_v, cap_v;
	u32 *hash;
	u32 hash_mask;
	/* per node: folded, its refs (value indices) */
	bool *folded;
	bool *inplace;
	char **op_names;
	u32 *node_ref_start;
	s32 *node_refs;
	u32 *node_n_in, *node_n_out;
	u32 n_node_refs, cap_node_refs;
	char why[200];		/* why an op's shapes were not inferred */
	struct ta_ox_node nd;
};

/* ---- messages ---- */

static void ta_ox_vmsg(struct ta_ox *ox, const char *fmt, va_list ap)
{
	int n;

	if (!ox->err || !ox->errlen || ox->err[0])
		return;		/* the first error is the one reported */
	n = snprintf(ox->err, ox->errlen, "%s: ", ox->path);
	if (n < 0 || (size_t)n >= ox->errlen)
		return;
	vsnprintf(ox->err + n, ox->errlen - n, fmt, ap);
}

static int __attribute__((format(printf, 3, 4)))
ta_ox_fail(struct ta_ox *ox, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ta_ox_vmsg(ox, fmt, ap);
	va_end(ap);
	return ret;
}

/* "corrupt ONNX file at byte N (in MSG): what" */
static int ta_ox_bad(struct ta_ox *ox, const u8 *at, const char *msg,
		     const char *what)
{
	return ta_ox_fail(ox, -EINVAL, "corrupt ONNX file at byte %llu (in %s): %s",
			  (unsigned long long)(at - ox->base), msg, what);
}

/* A printable copy of @s for messages: at most @max - 1 bytes. */
static const char *ta_ox_print(const struct ta_ox_span *s, char *buf,
			       size_t max)
{
	size_t i, n = s->len < max - 1 ? s->len : max - 1;

	for (i = 0; i < n; i++)
		buf[i] = s->p[i] >= ' ' && s->p[i] < 0x7f ? (char)s->p[i] : '?';
	buf[n] = 0;
	return buf;
}

/* "node N (name, OpType): what" */
static int __attribute__((format(printf, 3, 4)))
ta_ox_node_fail(struct ta_ox *ox, int ret, const char *fmt, ...)
{
	struct ta_ox_node *nd = &ox->nd;
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (nd->name.len)
		return ta_ox_fail(ox, ret, "node %u (%s, %s): %s", nd->index,
				  nd->name_str, nd->op_str, msg);
	return ta_ox_fail(ox, ret, "node %u (%s): %s", nd->index, nd->op_str,
			  msg);
}

static const char *ta_ox_vname(struct ta_ox *ox, u32 v, char *buf,
			       size_t max)
{
	return ta_ox_print(&ox->v[v].name, buf, max);
}

static void ta_ox_shape_str(const struct ta_ox_shape *s, char *buf,
			    size_t max)
{
	size_t n = 0;
	u32 i;

	n += snprintf(buf + n, max - n, "[");
	for (i = 0; i < s->rank && n < max; i++)
		n += snprintf(buf + n, max - n, "%s%lld", i ? "," : "",
			      (long long)s->d[i]);
	if (n < max)
		snprintf(buf + n, max - n, "]");
}

/* ---- the wire format ---- */

/* A message being read: its bytes and its name for messages. */
struct ta_pb {
	const u8 *p, *end;
	const char *msg;
};

/* One field: number, wire type, and its value or bytes. */
struct ta_pbf {
	u32 num;
	u32 wire;
	u64 v;			/* a varint, or the bits of a fixed field */
	struct ta_ox_span s;	/* a length-delimited field's bytes */
	const u8 *at;		/* where the field starts, for messages */
};

static struct ta_pb ta_pb_of(const struct ta_ox_span *s, const char *msg)
{
	static const u8 none;
	struct ta_pb m = { .p = s->p ? s->p : &none, .msg = msg };

	m.end = m.p + (s->p ? s->len : 0);
	return m;
}

static int ta_pb_varint(struct ta_ox *ox, struct ta_pb *m, u64 *v)
{
	const u8 *start = m->p;
	u64 x = 0;
	u32 i;

	for (i = 0; i < 10; i++) {
		u8 c;

		if (m->p == m->end)
			return ta_ox_bad(ox, start, m->msg,
					 "varint runs past the end of its message");
		c = *m->p++;
		if (i == 9 && (c & 0x80))
			return ta_ox_bad(ox, start, m->msg,
					 "varint longer than 10 bytes");
		if (i == 9 && c > 1)
			return ta_ox_bad(ox, start, m->msg,
					 "varint beyond 64 bits");
		x |= (u64)(c & 0x7f) << (7 * i);
		if (!(c & 0x80))
			break;
	}
	*v = x;
	return 0;
}

/* The next field of @m: 1, 0 at the end, or -EINVAL. */
static int ta_pb_next(struct ta_ox *ox, struct ta_pb *m, struct ta_pbf *f)
{
	u64 key, len, left;
	char what[96];
	int ret;

	if (m->p == m->end)
		return 0;
	f->at = m->p;
	ret = ta_pb_varint(ox, m, &key);
	if (ret)
		return ret;
	f->num = (u32)(key >> 3);
	f->wire = key & 7;
	if (!f->num || key >> 32)
		return ta_ox_bad(ox, f->at, m->msg, "bad field number");
	f->s.p = m->p;
	f->s.len = 0;
	left = (u64)(m->end - m->p);
	switch (f->wire) {
	case TA_PB_VARINT:
		return ta_pb_varint(ox, m, &f->v) ?: 1;
	case TA_PB_I64:
	case TA_PB_I32:
		len = f->wire == TA_PB_I64 ? 8 : 4;
		if (left < len)
			return ta_ox_bad(ox, f->at, m->msg,
					 "fixed-size field runs past the end");
		f->v = 0;
		while (len--)
			f->v |= (u64)m->p[len] << (8 * len);
		m->p += f->wire == TA_PB_I64 ? 8 : 4;
		return 1;
	case TA_PB_LEN:
		ret = ta_pb_varint(ox, m, &len);
		if (ret)
			return ret;
		left = (u64)(m->end - m->p);
		if (len > left) {
			snprintf(what, sizeof(what),
				 "field %u: length %llu runs past the end (%llu bytes left)",
				 f->num, (unsigned long long)len,
				 (unsigned long long)left);
			return ta_ox_bad(ox, f->at, m->msg, what);
		}
		f->s.p = m->p;
		f->s.len = len;
		m->p += len;
		return 1;
	default:
		snprintf(what, sizeof(what), "field %u: wire type %u (%s)",
			 f->num, f->wire, f->wire == 3 || f->wire == 4 ?
			 "a group, which ONNX does not use" : "undefined");
		return ta_ox_bad(ox, f->at, m->msg, what);
	}
}

/* A field must have wire type @wire. */
static int ta_pb_want(struct ta_ox *ox, const struct ta_pb *m,
		      const struct ta_pbf *f, u32 wire)
{
	char what[80];

	if (f->wire == wire)
		return 0;
	snprintf(what, sizeof(what), "field %u has wire type %u, want %u",
		 f->num, f->wire, wire);
	return ta_ox_bad(ox, f->at, m->msg, what);
}

/*
 * A repeated integer field (packed or not), called once per occurrence:
 * appends to @out (at most @max; *@n counts all of them).
 */
static int ta_pb_ints(struct ta_ox *ox, const struct ta_pb *m,
		      const struct ta_pbf *f, s64 *out, u32 max, u64 *n)
{
	struct ta_pb p;
	u64 x;
	int ret;

	if (f->wire == TA_PB_VARINT) {
		if (*n < max)
			out[*n] = (s64)f->v;
		(*n)++;
		return 0;
	}
	ret = ta_pb_want(ox, m, f, TA_PB_LEN);
	if (ret)
		return ret;
	p = ta_pb_of(&f->s, m->msg);
	while (p.p < p.end) {
		ret = ta_pb_varint(ox, &p, &x);
		if (ret)
			return ret;
		if (*n < max)
			out[*n] = (s64)x;
		(*n)++;
	}
	return 0;
}

/* A repeated fixed-size field (float, double): elements in one occurrence. */
static int ta_pb_fixed_count(struct ta_ox *ox, const struct ta_pb *m,
			     const struct ta_pbf *f, u32 size, u64 *n)
{
	if (f->wire == (size == 4 ? TA_PB_I32 : TA_PB_I64)) {
		(*n)++;
		return 0;
	}
	if (f->wire != TA_PB_LEN || f->s.len % size)
		return ta_ox_bad(ox, f->at, m->msg,
				 "packed fixed-size field of a bad length");
	*n += f->s.len / size;
	return 0;
}

static bool ta_span_is(const struct ta_ox_span *s, const char *str)
{
	size_t l = strlen(str);

	return s->len == l && !memcmp(s->p, str, l);
}

/* ---- data types ---- */

static u32 ta_ox_type_bits(u32 t, const char **name)
{
	static const struct { const char *name; u32 bits; } types[] = {
		[0] = { "UNDEFINED", 0 },	[1] = { "FLOAT", 32 },
		[2] = { "UINT8", 8 },		[3] = { "INT8", 8 },
		[4] = { "UINT16", 16 },		[5] = { "INT16", 16 },
		[6] = { "INT32", 32 },		[7] = { "INT64", 64 },
		[8] = { "STRING", 0 },		[9] = { "BOOL", 8 },
		[10] = { "FLOAT16", 16 },	[11] = { "DOUBLE", 64 },
		[12] = { "UINT32", 32 },	[13] = { "UINT64", 64 },
		[14] = { "COMPLEX64", 64 },	[15] = { "COMPLEX128", 128 },
		[16] = { "BFLOAT16", 16 },	[17] = { "FLOAT8E4M3FN", 8 },
		[18] = { "FLOAT8E4M3FNUZ", 8 },	[19] = { "FLOAT8E5M2", 8 },
		[20] = { "FLOAT8E5M2FNUZ", 8 },	[21] = { "UINT4", 4 },
		[22] = { "INT4", 4 },		[23] = { "FLOAT4E2M1", 4 },
	};

	if (t >= TA_OX_NTYPES) {
		if (name)
			*name = "unknown";
		return 0;
	}
	if (name)
		*name = types[t].name;
	return types[t].bits;
}

static bool ta_ox_is_int(u32 t)
{
	return t == TA_OX_INT64 || t == TA_OX_INT32 || t == TA_OX_INT16 ||
	       t == TA_OX_INT8 || t == TA_OX_UINT8 || t == TA_OX_UINT16 ||
	       t == TA_OX_UINT32 || t == TA_OX_UINT64 || t == TA_OX_BOOL;
}

static u64 ta_ox_elems(const struct ta_ox_shape *s)
{
	u64 e = 1;
	u32 i;

	/* every shape stored was checked: the product is at most 2^36 */
	for (i = 0; i < s->rank; i++)
		e *= (u64)s->d[i];
	return e;
}

/* A shape's dimensions are >= 0 and its elements at most 2^36. */
static bool ta_ox_shape_ok(const struct ta_ox_shape *s)
{
	u64 e = 1;
	u32 i;

	if (s->rank > TA_OX_MAX_RANK)
		return false;
	for (i = 0; i < s->rank; i++) {
		if (s->d[i] < 0 || (u64)s->d[i] > TA_OX_MAX_ELEMS)
			return false;
		/* non-zero dims too: a zero one must not hide a huge rest */
		if (!s->d[i])
			continue;
		if (e > TA_OX_MAX_ELEMS / (u64)s->d[i])
			return false;
		e *= (u64)s->d[i];
	}
	return true;
}

/* ---- values (named tensors) ---- */

static u32 ta_ox_fnv(const struct ta_ox_span *s)
{
	u32 h = 2166136261u;
	u64 i;

	for (i = 0; i < s->len; i++)
		h = (h ^ s->p[i]) * 16777619u;
	return h;
}

static int ta_ox_rehash(struct ta_ox *ox, u32 size)
{
	u32 *h = calloc(size, sizeof(*h)), i, k;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < ox->n_v; i++) {
		for (k = ta_ox_fnv(&ox->v[i].name) & (size - 1); h[k];
		     k = (k + 1) & (size - 1))
			;
		h[k] = i + 1;
	}
	free(ox->hash);
	ox->hash = h;
	ox->hash_mask = size - 1;
	return 0;
}

static s32 ta_ox_find(const struct ta_ox *ox, const struct ta_ox_span *name)
{
	u32 k;

	for (k = ta_ox_fnv(name) & ox->hash_mask; ox->hash[k];
	     k = (k + 1) & ox->hash_mask) {
		const struct ta_ox_span *s = &ox->v[ox->hash[k] - 1].name;

		if (s->len == name->len && !memcmp(s->p, name->p, s->len))
			return (s32)(ox->hash[k] - 1);
	}
	return -1;
}

/* The value named @name, created (declared) when new. */
static int ta_ox_value(struct ta_ox *ox, const struct ta_ox_span *name,
		       u32 *idx)
{
	s32 f = ta_ox_find(ox, name);
	struct ta_ox_value *v;
	int ret;

	if (f >= 0) {
		*idx = (u32)f;
		return 0;
	}
	if (ox->n_v >= TA_OX_MAX_VALUES)
		return ta_ox_fail(ox, -E2BIG, "more than %u named values",
				  TA_OX_MAX_VALUES);
	if (ox->n_v == ox->cap_v) {
		u32 c = ox->cap_v ? ox->cap_v * 2 : 256;

		v = realloc(ox->v, (size_t)c * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ox->v = v;
		ox->cap_v = c;
	}
	if ((ox->n_v + 1) * 2 > ox->hash_mask + 1) {
		ret = ta_ox_rehash(ox, (ox->hash_mask + 1) * 2);
		if (ret)
			return ret;
	}
	v = &ox->v[ox->n_v];
	memset(v, 0, sizeof(*v));
	v->name = *name;
	v->producer = -1;
	v->index = U32_MAX;
	*idx = ox->n_v++;
	{
		u32 k;

		for (k = ta_ox_fnv(name) & ox->hash_mask; ox->hash[k];
		     k = (k + 1) & ox->hash_mask)
			;
		ox->hash[k] = ox->n_v;
	}
	return 0;
}

/* Keep the values of a small tensor: ints (@iv) or floats (@fv). */
static int ta_ox_keep(struct ta_ox_value *v, const s64 *iv, const double *fv,
		      u32 n)
{
	free(v->iv);
	free(v->fv);
	v->iv = NULL;
	v->fv = NULL;
	v->n_kept = 0;
	if (n > TA_OX_MAX_KEPT || n != ta_ox_elems(&v->shape))
		return 0;
	if (iv) {
		v->iv = malloc(sizeof(*iv) * (n ? n : 1));
		if (!v->iv)
			return -ENOMEM;
		memcpy(v->iv, iv, sizeof(*iv) * n);
	} else {
		v->fv = malloc(sizeof(*fv) * (n ? n : 1));
		if (!v->fv)
			return -ENOMEM;
		memcpy(v->fv, fv, sizeof(*fv) * n);
	}
	v->n_kept = n;
	return 0;
}

/* ---- TensorProto ---- */

struct ta_ox_tensor {
	struct ta_ox_span name;
	u32 dtype;
	struct ta_ox_shape shape;
	u32 n_kept;			/* values decoded, when small */
	s64 iv[TA_OX_MAX_KEPT];
	double fv[TA_OX_MAX_KEPT];
	bool is_float;
};

static u64 ta_le(const u8 *p, u32 size)
{
	u64 x = 0;

	while (size--)
		x |= (u64)p[size] << (8 * size);
	return x;
}

static s64 ta_ox_sext(u64 x, u32 t)
{
	switch (t) {
	case TA_OX_INT8:
		return (s64)(int8_t)x;
	case TA_OX_INT16:
		return (s64)(int16_t)x;
	case TA_OX_INT32:
		return (s64)(int32_t)x;
	case TA_OX_UINT8:
		return (s64)(uint8_t)x;
	case TA_OX_UINT16:
		return (s64)(uint16_t)x;
	case TA_OX_UINT32:
		return (s64)(uint32_t)x;
	case TA_OX_BOOL:
		return x != 0;
	default:
		return (s64)x;
	}
}

static double ta_ox_f32(u64 bits)
{
	union { u32 u; float f; } c = { .u = (u32)bits };

	return c.f;
}

static double ta_ox_f64(u64 bits)
{
	union { u64 u; double f; } c = { .u = bits };

	return c.f;
}

/*
 * A TensorProto: name, type, shape; its data checked against the shape
 * and, for a small int or float tensor, decoded. @what names it for
 * messages ("initializer", "attribute 'value'").
 */
static int ta_ox_tensor(struct ta_ox *ox, const struct ta_ox_span *s,
			const char *what, struct ta_ox_tensor *t)
{
	struct ta_pb m = ta_pb_of(s, "TensorProto");
	struct ta_ox_span raw = { 0 };
	struct ta_pbf f;
	u64 ndims = 0, typed = 0, elems, bytes, x;
	bool has_raw = false, external = false;
	u32 bits, typed_field = 0, per_elem = 1, i;
	const char *tname;
	char nm[80];
	int ret;

	memset(t, 0, sizeof(*t));
	/* pass 1: everything but the typed data */
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		switch (f.num) {
		case 1:
			ret = ta_pb_ints(ox, &m, &f, t->shape.d, TA_OX_MAX_RANK,
					 &ndims);
			break;
		case 2:
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			t->dtype = (u32)f.v;
			if (!ret && f.v >= TA_OX_NTYPES)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"unknown data_type");
			break;
		case 3:
			return ta_ox_fail(ox, -EINVAL,
					  "%s '%s': segmented tensors are not supported",
					  what, ta_ox_print(&t->name, nm, sizeof(nm)));
		case 8:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			t->name = f.s;
			break;
		case 9:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			raw = f.s;
			has_raw = true;
			break;
		case 13:
			external = true;
			break;
		case 14:
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			external |= f.v == 1;
			break;
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (external)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': its data is stored outside the model (data_location EXTERNAL, external_data), which is not supported: save the model with its data inside",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	if (ndims > TA_OX_MAX_RANK)
		return ta_ox_fail(ox, -EINVAL, "%s '%s': %llu dimensions, more than %u",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)ndims, TA_OX_MAX_RANK);
	t->shape.rank = (u32)ndims;
	if (!ta_ox_shape_ok(&t->shape))
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': negative dimension or more than 2^36 elements",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	bits = ta_ox_type_bits(t->dtype, &tname);
	if (!bits)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': element type %s (%u) has no fixed size",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  tname, t->dtype);
	elems = ta_ox_elems(&t->shape);
	bytes = (elems * bits + 7) / 8;
	switch (t->dtype) {
	case TA_OX_FLOAT:
	case TA_OX_COMPLEX64:
		typed_field = 4;
		per_elem = t->dtype == TA_OX_COMPLEX64 ? 2 : 1;
		break;
	case TA_OX_INT64:
		typed_field = 7;
		break;
	case TA_OX_DOUBLE:
	case TA_OX_COMPLEX128:
		typed_field = 10;
		per_elem = t->dtype == TA_OX_COMPLEX128 ? 2 : 1;
		break;
	case TA_OX_UINT32:
	case TA_OX_UINT64:
		typed_field = 11;
		break;
	default:
		typed_field = 5;	/* int32_data: the small types */
		break;
	}
	/* pass 2: count the typed data, decode it when small */
	m = ta_pb_of(s, "TensorProto");
	t->is_float = t->dtype == TA_OX_FLOAT || t->dtype == TA_OX_DOUBLE;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		u64 before = typed;

		if (f.num != typed_field && (f.num == 4 || f.num == 5 ||
					     f.num == 7 || f.num == 10 ||
					     f.num == 11))
			return ta_ox_bad(ox, f.at, m.msg,
					 "data field that does not match data_type");
		if (f.num != typed_field)
			continue;
		if (typed_field == 4 || typed_field == 10) {
			u32 size = typed_field == 4 ? 4 : 8;

			ret = ta_pb_fixed_count(ox, &m, &f, size, &typed);
			for (x = before; !ret && x < typed &&
			     x < TA_OX_MAX_KEPT; x++) {
				const u8 *p = f.wire == TA_PB_LEN ?
					f.s.p + (x - before) * size : NULL;
				u64 b = p ? ta_le(p, size) : f.v;

				t->fv[x] = size == 4 ? ta_ox_f32(b) :
					   ta_ox_f64(b);
			}
		} else {
			ret = ta_pb_ints(ox, &m, &f, t->iv, TA_OX_MAX_KEPT,
					 &typed);
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (has_raw && typed)
		return ta_ox_fail(ox, -EINVAL, "%s '%s': both raw_data and typed data",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	if (has_raw && raw.len != bytes)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': raw_data holds %llu bytes, its shape says %llu",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)raw.len,
				  (unsigned long long)bytes);
	if (!has_raw && bits >= 8 && typed != elems * per_elem)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': holds %llu values, its shape says %llu",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)typed,
				  (unsigned long long)(elems * per_elem));
	if (elems > TA_OX_MAX_KEPT || per_elem != 1 || bits < 8)
		return 0;
	if (ta_ox_is_int(t->dtype)) {
		for (i = 0; i < elems; i++)
			t->iv[i] = has_raw ?
				ta_ox_sext(ta_le(raw.p + i * (bits / 8), bits / 8),
					   t->dtype) :
				ta_ox_sext((u64)t->iv[i], t->dtype);
		t->n_kept = (u32)elems;
	} else if (t->is_float) {
		for (i = 0; has_raw && i < elems; i++) {
			u64 b = ta_le(raw.p + i * (bits / 8), bits / 8);

			t->fv[i] = bits == 32 ? ta_ox_f32(b) : ta_ox_f64(b);
		}
		t->n_kept = (u32)elems;
	}
	return 0;
}

/* ---- ValueInfoProto ---- */

struct ta_ox_vinfo {
	struct ta_ox_span name;
	bool has_type;		/* a tensor_type with an elem_type */
	u32 dtype;
	bool has_shape;
	struct ta_ox_shape shape;
	u32 sym;		/* bit i: dim i is symbolic or absent */
};

static int ta_ox_dim(struct ta_ox *ox, const struct ta_ox_span *s,
		     struct ta_ox_vinfo *vi, u32 i)
{
	struct ta_pb m = ta_pb_of(s, "TensorShapeProto.Dimension");
	struct ta_pbf f;
	bool value = false;
	int ret;

	vi->shape.d[i] = 0;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			if (ret)
				return ret;
			vi->shape.d[i] = (s64)f.v;
			value = true;
		}
	}
	if (ret)
		return ret;
	if (!value)
		vi->sym |= 1U << i;	/* dim_param, or nothing */
	else if (vi->shape.d[i] < 0 ||
		 (u64)vi->shape.d[i] > TA_OX_MAX_ELEMS)
		return ta_ox_bad(ox, s->p, m.msg, "dim_value out of range");
	return 0;
}

/* TensorShapeProto: its dimensions. */
static int ta_ox_tshape(struct ta_ox *ox, const struct ta_ox_span *s,
			struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "TensorShapeProto");
	struct ta_pbf f;
	int ret;

	vi->has_shape = true;
	vi->shape.rank = 0;
	vi->sym = 0;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		if (f.num != 1)
			continue;
		ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		if (!ret && vi->shape.rank >= TA_OX_MAX_RANK)
			ret = ta_ox_bad(ox, f.at, m.msg, "more than 8 dimensions");
		if (!ret)
			ret = ta_ox_dim(ox, &f.s, vi, vi->shape.rank++);
		if (ret)
			return ret;
	}
	return ret;
}

/* TypeProto.Tensor: elem_type and shape. */
static int ta_ox_tensor_type(struct ta_ox *ox, const struct ta_ox_span *s,
			     struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "TypeProto.Tensor");
	struct ta_pbf f;
	int ret;

	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			if (!ret && f.v >= TA_OX_NTYPES)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"unknown elem_type");
			vi->dtype = (u32)f.v;
			vi->has_type = true;
		} else if (f.num == 2) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_tshape(ox, &f.s, vi);
		}
		if (ret)
			return ret;
	}
	return ret;
}

/* ValueInfoProto: a name and, for a tensor, its type and shape. */
static int ta_ox_vinfo(struct ta_ox *ox, const struct ta_ox_span *s,
		       struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "ValueInfoProto"), tp;
	struct ta_pbf f, g;
	int ret;

	memset(vi, 0, sizeof(*vi));
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		if (f.num != 1 && f.num != 2)
			continue;
		ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		if (ret)
			return ret;
		if (f.num == 1) {
			vi->name = f.s;
			continue;
		}
		tp = ta_pb_of(&f.s, "TypeProto");
		while ((ret = ta_pb_next(ox, &tp, &g)) > 0) {
			if (g.num != 1)
				continue;	/* sequence, map, ...: no tensor */
			ret = ta_pb_want(ox, &tp, &g, TA_PB_LEN) ?:
			      ta_ox_tensor_type(ox, &g.s, vi);
			if (ret)
				return ret;
		}
		if (ret)
			return ret;
	}
	return ret;
}

/* ---- the graph's fields ---- */

static int ta_ox_push(struct ta_ox *ox, struct ta_ox_span **a, u32 *n,
		      u32 *cap, const struct ta_ox_span *s, u32 max,
		      const char *what)
{
	if (*n >= max)
		return ta_ox_fail(ox, -E2BIG, "more than %u %s: beyond the planner's limits",
				  max, what);
	if (*n == *cap) {
		u32 c = *cap ? *cap * 2 : 64;
		struct ta_ox_span *na = realloc(*a, sizeof(**a) * c);

		if (!na)
			return -ENOMEM;
		*a = na;
		*cap = c;
	}
	(*a)[(*n)++] = *s;
	return 0;
}

static int ta_ox_graph_fields(struct ta_ox *ox, const struct ta_ox_span *g)
{
	struct ta_pb m = ta_pb_of(g, "GraphProto");
	struct ta_pbf f;
	int ret;

	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		switch (f.num) {
		case 1:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->nodes, &ox->n_nodes,
					 &ox->cap_nodes, &f.s,
					 TA_PLAN_MAX_STEPS, "nodes");
			break;
		case 5:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->inits, &ox->n_inits,
					 &ox->cap_inits, &f.s,
					 TA_PLAN_MAX_BUFFERS, "initializers");
			break;
		case 11:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->inputs, &ox->n_inputs,
					 &ox->cap_inputs, &f.s,
					 TA_PLAN_MAX_BUFFERS, "graph inputs");
			break;
		case 12:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->outputs, &ox->n_outputs,
					 &ox->cap_outputs, &f.s,
					 TA_PLAN_MAX_BUFFERS, "graph outputs");
			break;
		case 13:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->vinfos, &ox->n_vinfos,
					 &ox->cap_vinfos, &f.s,
					 TA_OX_MAX_VALUES, "value_info entries");
			break;
		case 15:
			return ta_ox_fail(ox, -EINVAL,
					  "the graph has sparse initializers, which are not supported");
		}
		if (ret)
			return ret;
	}
	return ret;
}

static int ta_ox_model(struct ta_ox *ox, struct ta_ox_span *graph)
{
	struct ta_ox_span all = { ox->base, ox->n };
	struct ta_pb m = ta_pb_of(&all, "ModelProto"), o;
	struct ta_pbf f, g;
	bool has_graph = false;
	int ret;

	ox->opset = -1;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			ox->info->ir_version = f.v;
		} else if (f.num == 7) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (!ret && has_graph)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"a second graph field");
			*graph = f.s;
			has_graph = true;
		} else if (f.num == 8) {
			struct ta_ox_span dom = { (const u8 *)"", 0 };
			s64 version = -1;

			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (ret)
				return ret;
			o = ta_pb_of(&f.s, "OperatorSetIdProto");
			while ((ret = ta_pb_next(ox, &o, &g)) > 0) {
				ret = 0;
				if (g.num == 1)
					ret = ta_pb_want(ox, &o, &g, TA_PB_LEN);
				if (g.num == 1)
					dom = g.s;
				if (!ret && g.num == 2) {
					ret = ta_pb_want(ox, &o, &g,
							 TA_PB_VARINT);
					version = (s64)g.v;
				}
				if (ret)
					return ret;
			}
			if (!ret && (!dom.len || ta_span_is(&dom, "ai.onnx")))
				ox->opset = version;
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!has_graph)
		return ta_ox_fail(ox, -EINVAL,
				  "not an ONNX model: no ModelProto.graph (field 7)");
	if (ox->opset < 1 || ox->opset > 1000)
		return ta_ox_fail(ox, -EINVAL,
				  "no opset_import for the default ONNX domain (or a bad version): the op semantics are unknown");
	ox->info->opset = (u32)ox->opset;
	return 0;
}

/* ---- nodes: reading ---- */

static void ta_ox_token(const struct ta_ox_span *s, char *buf, size_t max)
{
	size_t i, n = s->len < max - 1 ? s->len : max - 1;

	for (i = 0; i < n; i++) {
		u8 c = s->p[i];

		buf[i] = c <= ' ' || c >= 0x7f || c == '#' ? '_' : (char)c;
	}
	buf[n] = 0;
}

static int ta_ox_ref_push(struct ta_ox *ox, s32 v)
{
	if (ox->n_node_refs >= TA_OX_MAX_REFS)
		return ta_ox_fail(ox, -E2BIG,
				  "more than %u node inputs and outputs",
				  TA_OX_MAX_REFS);
	if (ox->n_node_refs == ox->cap_node_refs) {
		u32 c = ox->cap_node_refs ? ox->cap_node_refs * 2 : 1024;
		s32 *n = realloc(ox->node_refs, sizeof(*n) * c);

		if (!n)
			return -ENOMEM;
		ox->node_refs = n;
		ox->cap_node_refs = c;
	}
	ox->node_refs[ox->n_node_refs++] = v;
	return 0;
}

/* A node's input @name: an existing value, or -1 when empty. */
static int ta_ox_node_input(struct ta_ox *ox, const struct ta_ox_span *name)
{
	char nm[80];
	s32 v;

	if (!name->len)
		return ta_ox_ref_push(ox, -1);
	v = ta_ox_find(ox, name);
	if (v < 0 || ox->v[v].state == TA_OX_DECLARED)
		return ta_ox_node_fail(ox, -EINVAL,
				       "reads '%s', which no earlier node produces and which is not a graph input or initializer (nodes must be in topological order)",
				       ta_ox_print(name, nm, sizeof(nm)));
	return ta_ox_ref_push(ox, v);
}

/* A node's output @name: a new value, or -1 when empty. */
static int ta_ox_node_output(struct ta_ox *ox, const struct ta_ox_span *name)
{
	static const char *const already[] = {
		[TA_OX_GRAPH_INPUT] = "a graph input",
		[TA_OX_INITIALIZER] = "an initializer",
		[TA_OX_PRODUCED] =
			"written by an earlier node (or twice by this one)",
	};
	struct ta_ox_value *v;
	char nm[80];
	u32 idx;
	int ret;

	if (!name->len)
		return ta_ox_ref_push(ox, -1);
	ret = ta_ox_value(ox, name, &idx);
	if (ret)
		return ret;
	v = &ox->v[idx];
	if (v->state != TA_OX_DECLARED)
		return ta_ox_node_fail(ox, -EINVAL, "writes '%s', which is already %s",
				       ta_ox_print(name, nm, sizeof(nm)),
				       already[v->state]);
	v->state = TA_OX_PRODUCED;
	v->producer = (s32)ox->nd.index;
	return ta_ox_ref_push(ox, (s32)idx);
}

/*
 * Node @i: its fields; inputs resolved to values (each must exist),
 * outputs created. Refs go to ox->node_refs.
 */
static int ta_ox_node_read(struct ta_ox *ox, u32 i)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_pb m = ta_pb_of(&ox->nodes[i], "NodeProto");
	struct ta_pbf f;
	u32 start = ox->n_node_refs, k;
	int ret;

	memset(nd, 0, offsetof(struct ta_ox_node, attrs));
	nd->index = i;
	nd->folded = false;
	nd->inplace = false;
	/* names first, for messages; inputs before outputs in the refs */
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if ((f.num >= 1 && f.num <= 5) || f.num == 7)
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		if (ret)
			return ret;
		if (f.num == 3) {
			nd->name = f.s;
		} else if (f.num == 4) {
			nd->op = f.s;
		} else if (f.num == 7) {
			nd->domain = f.s;
		} else if (f.num == 5) {
			if (nd->n_attrs >= TA_OX_MAX_ATTRS)
				return ta_ox_bad(ox, f.at, m.msg,
						 "more than 1024 attributes");
			nd->attrs[nd->n_attrs++] = f.s;
		}
	}
	if (ret)
		return ret;
	ta_ox_token(&nd->op, nd->op_str, sizeof(nd->op_str));
	if (!nd->op_str[0])
		snprintf(nd->op_str, sizeof(nd->op_str), "no_op_type");
	ta_ox_print(&nd->name, nd->name_str, sizeof(nd->name_str));
	for (k = 1; k <= 2; k++) {
		m = ta_pb_of(&ox->nodes[i], "NodeProto");
		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			if (f.num != k)
				continue;
			ret = k == 1 ? ta_ox_node_input(ox, &f.s) :
			      ta_ox_node_output(ox, &f.s);
			if (ret)
				return ret;
			if (k == 1)
				nd->n_in++;
			else
				nd->n_out++;
		}
		if (ret)
			return ret;
	}
	ox->node_ref_start[i] = start;
	ox->node_n_in[i] = nd->n_in;
	ox->node_n_out[i] = nd->n_out;
	/* no node has named a value yet: node_refs is not allocated */
	nd->in = ox->node_refs ? ox->node_refs + start : NULL;
	nd->out = nd->in ? nd->in + nd->n_in : NULL;
	return 0;
}

/* ---- attributes ---- */

struct ta_ox_attr {
	u32 type;
	bool has_f, has_i, has_s, has_t;
	double f;
	s64 i;
	struct ta_ox_span s, t;
	u64 n_ints, n_floats;
	s64 ints[TA_OX_MAX_KEPT];
	double floats[TA_OX_MAX_KEPT];
	const u8 *at;
};

/* Attribute @name of the node: 1 found, 0 absent, or an error. */
static int ta_ox_attr(struct ta_ox *ox, const char *name,
		      struct ta_ox_attr *a)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_pbf f;
	u32 k;
	int ret;

	for (k = 0; k < nd->n_attrs; k++) {
		struct ta_pb m = ta_pb_of(&nd->attrs[k], "AttributeProto");
		bool match = false;

		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			ret = 0;
			if (f.num != 1)
				continue;
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (ret)
				return ret;
			match = ta_span_is(&f.s, name);
		}
		if (ret)
			return ret;
		if (!match)
			continue;
		memset(a, 0, sizeof(*a));
		a->at = nd->attrs[k].p;
		m = ta_pb_of(&nd->attrs[k], "AttributeProto");
		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			ret = 0;
			switch (f.num) {
			case 2:
				ret = ta_pb_want(ox, &m, &f, TA_PB_I32);
				a->f = ta_ox_f32(f.v);
				a->has_f = true;
				break;
			case 3:
				ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
				a->i = (s64)f.v;
				a->has_i = true;
				break;
			case 4:
				ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
				a->s = f.s;
				a->has_s = true;
				break;
			case 5:
				ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
				a->t = f.s;
				a->has_t = true;
				break;
			case 7: {
				u64 before = a->n_floats, x;

				ret = ta_pb_fixed_count(ox, &m, &f, 4,
							&a->n_floats);
				for (x = before; !ret && x < a->n_floats &&
				     x < TA_OX_MAX_KEPT; x++)
					a->floats[x] = ta_ox_f32(f.wire == TA_PB_LEN ?
						ta_le(f.s.p + 4 * (x - before), 4) :
						f.v);
				break;
			}
			case 8:
				ret = ta_pb_ints(ox, &m, &f, a->ints,
						 TA_OX_MAX_KEPT, &a->n_ints);
				break;
			case 20:
				ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
				a->type = (u32)f.v;
				break;
			}
			if (ret)
				return ret;
		}
		if (ret)
			return ret;
		if (a->n_ints > TA_OX_MAX_KEPT || a->n_floats > TA_OX_MAX_KEPT)
			return ta_ox_node_fail(ox, -EINVAL,
					       "attribute '%s' holds more than %u values",
					       name, TA_OX_MAX_KEPT);
		return 1;
	}
	return 0;
}

static int ta_ox_attr_type(struct ta_ox *ox, const char *name,
			   const struct ta_ox_attr *a, u32 want, bool present)
{
	static const char *const names[] = {
		"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH",
		"FLOATS", "INTS",
	};

	if (a->type && a->type != want)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' is of type %s, want %s",
				       name, a->type < 8 ? names[a->type] :
				       "other", names[want]);
	if (!present)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' has no %s value", name,
				       names[want]);
	return 0;
}

static int ta_ox_attr_int(struct ta_ox *ox, const char *name, s64 def,
			  s64 *v)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*v = def;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_INT, a.has_i);
	if (!ret)
		*v = a.i;
	return ret;
}

/* An INTS attribute: *@n = -1 when absent. */
static int ta_ox_attr_ints(struct ta_ox *ox, const char *name, s64 *v,
			   u32 max, s32 *n)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*n = -1;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_INTS, true);
	if (ret)
		return ret;
	if (a.n_ints > max)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' has %llu values, at most %u here",
				       name, (unsigned long long)a.n_ints, max);
	memcpy(v, a.ints, sizeof(*v) * a.n_ints);
	*n = (s32)a.n_ints;
	return 0;
}

static int ta_ox_attr_str(struct ta_ox *ox, const char *name,
			  const char *def, char *buf, size_t max)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	snprintf(buf, max, "%s", def);
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_STRING, a.has_s);
	if (!ret)
		ta_ox_token(&a.s, buf, max);
	return ret;
}

/* ---- shape inference ---- */

/* Why an op's output shapes could not be inferred: -EOPNOTSUPP. */
static int __attribute__((format(printf, 2, 3)))
ta_ox_cannot(struct ta_ox *ox, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ox->why, sizeof(ox->why), fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

/* Input @k, or NULL when absent or empty. */
static struct ta_ox_value *ta_ox_in(struct ta_ox *ox, u32 k)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_in || nd->in[k] < 0)
		return NULL;
	return &ox->v[nd->in[k]];
}

static int ta_ox_need(struct ta_ox *ox, u32 k, struct ta_ox_value **v)
{
	*v = ta_ox_in(ox, k);
	if (!*v)
		return ta_ox_node_fail(ox, -EINVAL, "input %u is missing", k);
	return 0;
}

static int ta_ox_need_rank(struct ta_ox *ox, u32 k, struct ta_ox_value **v,
			   u32 min, u32 max)
{
	int ret = ta_ox_need(ox, k, v);

	if (ret)
		return ret;
	if ((*v)->shape.rank < min || (*v)->shape.rank > max)
		return ta_ox_node_fail(ox, -EINVAL,
				       "input %u has rank %u, want %u to %u",
				       k, (*v)->shape.rank, min, max);
	return 0;
}

/* Output @k gets @dtype and @s (when the node names it). */
static int ta_ox_set(struct ta_ox *ox, u32 k, u32 dtype,
		     const struct ta_ox_shape *s)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_ox_value *v;
	char b[160];

	if (k >= nd->n_out || nd->out[k] < 0)
		return 0;
	if (!ta_ox_shape_ok(s)) {
		struct ta_ox_shape c = *s;

		if (c.rank > TA_OX_MAX_RANK)
			return ta_ox_node_fail(ox, -EINVAL,
					       "output %u would have rank %u, more than %u",
					       k, c.rank, TA_OX_MAX_RANK);
		ta_ox_shape_str(&c, b, sizeof(b));
		return ta_ox_node_fail(ox, -EINVAL,
				       "output %u would have shape %s (a negative dimension, or more than 2^36 elements)",
				       k, b);
	}
	v = &ox->v[nd->out[k]];
	v->dtype = dtype;
	v->shape = *s;
	return 0;
}

static int ta_ox_set_ivals(struct ta_ox *ox, u32 k, const s64 *iv, u32 n)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_out || nd->out[k] < 0)
		return 0;
	return ta_ox_keep(&ox->v[nd->out[k]], iv, NULL, n);
}

/* The kept int values of @v: true when known. */
static bool ta_ox_ints(const struct ta_ox_value *v, const s64 **iv, u32 *n)
{
	if (!v || !v->iv)
		return false;
	*iv = v->iv;
	*n = v->n_kept;
	return true;
}

/*
 * Normalize an axis against rank @r: one of [-r, r - 1], or with @incl
 * (Flatten, whose axis may name the end) one of [-r, r]; a negative axis
 * counts from the end, -1 naming the last dimension either way.
 */
static int ta_ox_axis(struct ta_ox *ox, s64 axis, u32 r, bool incl, u32 *out)
{
	s64 hi = (s64)r - (incl ? 0 : 1);

	if (axis < -(s64)r || axis > hi)
		return ta_ox_node_fail(ox, -EINVAL,
				       "axis %lld out of range for rank %u",
				       (long long)axis, r);
	*out = (u32)(axis < 0 ? axis + (s64)r : axis);
	return 0;
}

/* Axes from an attribute (older opsets) or input @k; *@n = -1 if none. */
static int ta_ox_axes_arg(struct ta_ox *ox, const char *attr, u32 k,
			  s64 since, s64 *axes, s32 *n)
{
	const s64 *iv;
	u32 cnt;

	if (ox->opset < since)
		return ta_ox_attr_ints(ox, attr, axes, TA_OX_MAX_KEPT, n);
	*n = -1;
	if (!ta_ox_in(ox, k))
		return 0;
	if (!ta_ox_ints(ta_ox_in(ox, k), &iv, &cnt))
		return ta_ox_cannot(ox, "input %u (%s) is computed at run time", k,
				    attr);
	memcpy(axes, iv, sizeof(*iv) * cnt);
	*n = (s32)cnt;
	return 0;
}

/* Element-wise ops: same shape and type as input 0. */
static int ta_ox_same(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	u32 k;
	int ret = ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	for (k = 0; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, x->dtype, &x->shape);
	return ret;
}

/* Output @k keeps the values @iv or @fv (when the node names it). */
static int ta_ox_keep_out(struct ta_ox *ox, u32 k, const s64 *iv,
			  const double *fv, u32 n)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_out || nd->out[k] < 0 || (!iv && !fv))
		return 0;
	return ta_ox_keep(&ox->v[nd->out[k]], iv, fv, n);
}

static int ta_ox_one_output(struct ta_ox *ox)
{
	if (ox->nd.n_out != 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "has %u outputs, want 1", ox->nd.n_out);
	return 0;
}

static int ta_ox_unary(struct ta_ox *ox)
{
	return ta_ox_one_output(ox) ?: ta_ox_same(ox);
}

static int ta_ox_identity(struct ta_ox *ox)
{
	struct ta_ox_value *x;

	return ta_ox_one_output(ox) ?: ta_ox_same(ox) ?:
	       ta_ox_need(ox, 0, &x) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

static int ta_ox_dropout(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	int ret = ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	if (ox->nd.n_out > 2)
		return ta_ox_node_fail(ox, -EINVAL, "more than 2 outputs");
	ret = ta_ox_set(ox, 0, x->dtype, &x->shape);
	/* the mask: the input's type up to opset 9, BOOL from opset 10 */
	if (!ret)
		ret = ta_ox_set(ox, 1, ox->opset >= 10 ? TA_OX_BOOL : x->dtype,
				&x->shape);
	return ret;
}

static int ta_ox_batchnorm(struct ta_ox *ox)
{
	if (ox->nd.n_out != 1)
		return ta_ox_cannot(ox, "%u outputs (training mode)",
				    ox->nd.n_out);
	return ta_ox_same(ox);
}

static int ta_ox_cast(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	s64 to;
	u32 i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "to", 0, &to);

	if (ret)
		return ret;
	if (to <= 0 || to >= TA_OX_NTYPES)
		return ta_ox_node_fail(ox, -EINVAL, "attribute 'to' %lld is not a known type",
				       (long long)to);
	ret = ta_ox_set(ox, 0, (u32)to, &x->shape);
	if (ret || !ox->nd.n_out || ox->nd.out[0] < 0)
		return ret;
	if (x->iv && ta_ox_is_int((u32)to))
		return ta_ox_keep_out(ox, 0, x->iv, NULL, x->n_kept);
	if (x->fv && ta_ox_is_int((u32)to)) {
		s64 iv[TA_OX_MAX_KEPT];

		for (i = 0; i < x->n_kept; i++) {
			if (!(fabs(x->fv[i]) < 9e18))
				return 0;
			iv[i] = (s64)x->fv[i];
		}
		return ta_ox_keep_out(ox, 0, iv, NULL, x->n_kept);
	}
	return 0;
}

/*
 * Multidirectional (numpy) broadcast of @a and @b into @out, which may be
 * @a or @b: the result is built apart and written last.
 */
static int ta_ox_broadcast(struct ta_ox *ox, const struct ta_ox_shape *a,
			   const struct ta_ox_shape *b,
			   struct ta_ox_shape *out)
{
	u32 r = a->rank > b->rank ? a->rank : b->rank, i;
	struct ta_ox_shape o = { .rank = r };
	char sa[160], sb[160];

	for (i = 0; i < r; i++) {
		s64 x = i < r - a->rank ? 1 : a->d[i - (r - a->rank)];
		s64 y = i < r - b->rank ? 1 : b->d[i - (r - b->rank)];

		if (x == y || y == 1) {
			o.d[i] = x;
		} else if (x == 1) {
			o.d[i] = y;
		} else {
			ta_ox_shape_str(a, sa, sizeof(sa));
			ta_ox_shape_str(b, sb, sizeof(sb));
			return ta_ox_node_fail(ox, -EINVAL,
					       "shapes %s and %s do not broadcast",
					       sa, sb);
		}
	}
	*out = o;
	return 0;
}

/* Int values of an element-wise op on kept values (same count or 1). */
static void ta_ox_fold_ints(struct ta_ox *ox, const struct ta_ox_value *a,
			    const struct ta_ox_value *b, u32 n)
{
	const char *op = ox->nd.op_str;
	s64 iv[TA_OX_MAX_KEPT];
	u32 i;

	if (!a->iv || !b->iv || n > TA_OX_MAX_KEPT ||
	    (a->n_kept != n && a->n_kept != 1) ||
	    (b->n_kept != n && b->n_kept != 1))
		return;
	for (i = 0; i < n; i++) {
		s64 x = a->iv[a->n_kept == 1 ? 0 : i];
		s64 y = b->iv[b->n_kept == 1 ? 0 : i];

		if (!strcmp(op, "Add")) {
			if (__builtin_add_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Sub")) {
			if (__builtin_sub_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Mul")) {
			if (__builtin_mul_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Div")) {
			if (!y || (x == INT64_MIN && y == -1))
				return;
			iv[i] = x / y;
		} else {
			return;
		}
	}
	ta_ox_set_ivals(ox, 0, iv, n);
}

static int ta_ox_binary(struct ta_ox *ox)
{
	const char *op = ox->nd.op_str;
	struct ta_ox_value *a, *b;
	struct ta_ox_shape s;
	struct ta_ox_attr at;
	u32 k, dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &a);

	if (ret)
		return ret;
	if (ox->opset < 7) {
		ret = ta_ox_attr(ox, "broadcast", &at);
		if (ret < 0)
			return ret;
		if (ret)
			return ta_ox_cannot(ox, "the legacy 'broadcast' attribute of opset %lld",
					    (long long)ox->opset);
	}
	s = a->shape;
	for (k = 1; k < ox->nd.n_in; k++) {
		ret = ta_ox_need(ox, k, &b);
		if (!ret)
			ret = ta_ox_broadcast(ox, &s, &b->shape, &s);
		if (ret)
			return ret;
	}
	dtype = a->dtype;
	if (!strcmp(op, "Equal") || !strcmp(op, "Less") ||
	    !strcmp(op, "Greater") || !strcmp(op, "LessOrEqual") ||
	    !strcmp(op, "GreaterOrEqual") || !strcmp(op, "And") ||
	    !strcmp(op, "Or") || !strcmp(op, "Xor"))
		dtype = TA_OX_BOOL;
	if (!strcmp(op, "Where"))
		dtype = ta_ox_in(ox, 1) ? ta_ox_in(ox, 1)->dtype : dtype;
	ret = ta_ox_set(ox, 0, dtype, &s);
	if (!ret && ox->nd.n_in == 2)
		ta_ox_fold_ints(ox, a, ta_ox_in(ox, 1), (u32)ta_ox_elems(&s));
	return ret;
}

/* Kernel, strides, dilations, pads of a conv or pool over @nsp dims. */
struct ta_ox_window {
	s64 k[TA_OX_MAX_RANK], s[TA_OX_MAX_RANK], dl[TA_OX_MAX_RANK];
	s64 pads[2 * TA_OX_MAX_RANK];
	char auto_pad[24];
	s64 ceil_mode;
};

static int ta_ox_window_attrs(struct ta_ox *ox, u32 nsp,
			      struct ta_ox_window *w, bool need_kernel)
{
	s32 n;
	u32 i;
	int ret;

	ret = ta_ox_attr_ints(ox, "kernel_shape", w->k, TA_OX_MAX_RANK, &n);
	if (ret)
		return ret;
	if (n < 0 && need_kernel)
		return ta_ox_node_fail(ox, -EINVAL,
				       "no kernel_shape attribute");
	if (n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL,
				       "kernel_shape has %d values for %u spatial dimensions",
				       n, nsp);
	ret = ta_ox_attr_ints(ox, "strides", w->s, TA_OX_MAX_RANK, &n);
	if (!ret && n < 0)
		for (i = 0; i < nsp; i++)
			w->s[i] = 1;
	if (!ret && n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL, "strides has %d values, want %u",
				       n, nsp);
	if (!ret)
		ret = ta_ox_attr_ints(ox, "dilations", w->dl, TA_OX_MAX_RANK,
				      &n);
	if (!ret && n < 0)
		for (i = 0; i < nsp; i++)
			w->dl[i] = 1;
	if (!ret && n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL, "dilations has %d values, want %u",
				       n, nsp);
	if (!ret)
		ret = ta_ox_attr_ints(ox, "pads", w->pads, 2 * TA_OX_MAX_RANK,
				      &n);
	if (!ret && n < 0)
		memset(w->pads, 0, sizeof(w->pads));
	if (!ret && n >= 0 && (u32)n != 2 * nsp)
		return ta_ox_node_fail(ox, -EINVAL, "pads has %d values, want %u",
				       n, 2 * nsp);
	if (!ret)
		ret = ta_ox_attr_str(ox, "auto_pad", "NOTSET", w->auto_pad,
				     sizeof(w->auto_pad));
	if (!ret)
		ret = ta_ox_attr_int(ox, "ceil_mode", 0, &w->ceil_mode);
	if (ret)
		return ret;
	for (i = 0; i < nsp; i++) {
		if (w->s[i] < 1 || w->s[i] > (1LL << 32) ||
		    w->dl[i] < 1 || w->dl[i] > (1LL << 31) ||
		    w->pads[i] < 0 || w->pads[i] > (1LL << 32) ||
		    w->pads[i + nsp] < 0 || w->pads[i + nsp] > (1LL << 32))
			return ta_ox_node_fail(ox, -EINVAL,
					       "stride, dilation or pad out of range");
	}
	if (strcmp(w->auto_pad, "NOTSET") && strcmp(w->auto_pad, "VALID") &&
	    strcmp(w->auto_pad, "SAME_UPPER") &&
	    strcmp(w->auto_pad, "SAME_LOWER"))
		return ta_ox_node_fail(ox, -EINVAL, "unknown auto_pad '%s'",
				       w->auto_pad);
	return 0;
}

/* Output size of one spatial dimension. */
static int ta_ox_window_out(struct ta_ox *ox, const struct ta_ox_window *w,
			    u32 i, u32 nsp, s64 in, s64 *out)
{
	s64 ek, span;

	if (w->k[i] < 1 || w->k[i] > (1LL << 31))
		return ta_ox_node_fail(ox, -EINVAL, "kernel size %lld out of range",
				       (long long)w->k[i]);
	ek = (w->k[i] - 1) * w->dl[i] + 1;
	if (!strcmp(w->auto_pad, "SAME_UPPER") ||
	    !strcmp(w->auto_pad, "SAME_LOWER")) {
		*out = (in + w->s[i] - 1) / w->s[i];
		/*
		 * ONNX's inference (1.12) applies ceil_mode to the pads SAME
		 * gives, which can give one more: plan the larger.
		 */
		span = (*out - 1) * w->s[i] + ek - in;
		span = in + (span > 0 ? span : 0) - ek;
		if (w->ceil_mode && span >= 0 &&
		    (span + w->s[i] - 1) / w->s[i] + 1 > *out)
			*out = (span + w->s[i] - 1) / w->s[i] + 1;
		return 0;
	}
	span = in - ek;
	if (strcmp(w->auto_pad, "VALID"))
		span += w->pads[i] + w->pads[i + nsp];
	if (span < 0)
		return ta_ox_node_fail(ox, -EINVAL,
				       "spatial dimension %u: the window (%lld) is larger than the padded input",
				       i, (long long)ek);
	if (w->ceil_mode) {
		/*
		 * Runtimes differ on a last window that would start in the
		 * end padding: newer ones drop it, older ones (and the
		 * operator's formula) keep it. Plan the larger: keep it.
		 */
		*out = (span + w->s[i] - 1) / w->s[i] + 1;
	} else {
		*out = span / w->s[i] + 1;
	}
	return 0;
}

static int ta_ox_conv(struct ta_ox *ox)
{
	struct ta_ox_value *x, *w, *b;
	struct ta_ox_window win;
	struct ta_ox_shape s;
	s64 group;
	u32 nsp, i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	nsp = x->shape.rank - 2;
	ret = ta_ox_need_rank(ox, 1, &w, x->shape.rank, x->shape.rank) ?:
	      ta_ox_attr_int(ox, "group", 1, &group) ?:
	      ta_ox_window_attrs(ox, nsp, &win, false);
	if (ret)
		return ret;
	for (i = 0; i < nsp; i++) {
		struct ta_ox_attr a;

		ret = ta_ox_attr(ox, "kernel_shape", &a);
		if (ret < 0)
			return ret;
		if (ret && win.k[i] != w->shape.d[2 + i])
			return ta_ox_node_fail(ox, -EINVAL,
					       "kernel_shape does not match the weights' shape");
		win.k[i] = w->shape.d[2 + i];
	}
	if (group < 1 || group > (1LL << 24) || w->shape.d[0] % group ||
	    x->shape.d[1] != w->shape.d[1] * group)
		return ta_ox_node_fail(ox, -EINVAL,
				       "%lld input channels, weights [%lld,%lld,...] and group %lld do not agree",
				       (long long)x->shape.d[1],
				       (long long)w->shape.d[0],
				       (long long)w->shape.d[1], (long long)group);
	b = ta_ox_in(ox, 2);
	if (b && (b->shape.rank != 1 || b->shape.d[0] != w->shape.d[0]))
		return ta_ox_node_fail(ox, -EINVAL,
				       "the bias is not a vector of %lld",
				       (long long)w->shape.d[0]);
	s.rank = x->shape.rank;
	s.d[0] = x->shape.d[0];
	s.d[1] = w->shape.d[0];
	for (i = 0; i < nsp; i++) {
		ret = ta_ox_window_out(ox, &win, i, nsp, x->shape.d[2 + i],
				       &s.d[2 + i]);
		if (ret)
			return ret;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_pool(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_window win;
	struct ta_ox_shape s;
	u32 nsp, i;
	int ret = ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	if (ox->nd.n_out > 2 ||
	    (ox->nd.n_out == 2 && strcmp(ox->nd.op_str, "MaxPool")))
		return ta_ox_node_fail(ox, -EINVAL, "too many outputs");
	nsp = x->shape.rank - 2;
	ret = ta_ox_window_attrs(ox, nsp, &win, true);
	if (ret)
		return ret;
	s = x->shape;
	for (i = 0; i < nsp; i++) {
		ret = ta_ox_window_out(ox, &win, i, nsp, x->shape.d[2 + i],
				       &s.d[2 + i]);
		if (ret)
			return ret;
	}
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_set(ox, 1, TA_OX_INT64, &s);
}

static int ta_ox_global_pool(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	s = x->shape;
	for (i = 2; i < s.rank; i++)
		s.d[i] = 1;
	return ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_concat(struct ta_ox *ox)
{
	struct ta_ox_value *x, *y;
	struct ta_ox_shape s;
	s64 axis, iv[TA_OX_MAX_KEPT];
	u32 k, i, ax = 0, n = 0;
	bool vals = true;
	struct ta_ox_attr a;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	ret = ta_ox_attr(ox, "axis", &a);
	if (ret < 0)
		return ret;
	if (!ret && ox->opset >= 4)
		return ta_ox_node_fail(ox, -EINVAL, "no axis attribute");
	ret = ta_ox_attr_int(ox, "axis", 1, &axis) ?:
	      ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	s = x->shape;
	s.d[ax] = 0;
	for (k = 0; k < ox->nd.n_in; k++) {
		y = ta_ox_in(ox, k);
		if (!y)
			continue;
		if (y->shape.rank != s.rank || y->dtype != x->dtype)
			return ta_ox_node_fail(ox, -EINVAL,
					       "input %u's rank or type differs from input 0's",
					       k);
		for (i = 0; i < s.rank; i++)
			if (i != ax && y->shape.d[i] != s.d[i])
				return ta_ox_node_fail(ox, -EINVAL,
						       "input %u's dimension %u is %lld, input 0's %lld",
						       k, i, (long long)y->shape.d[i],
						       (long long)s.d[i]);
		s.d[ax] += y->shape.d[ax];	/* each <= 2^36, n < 2^24 */
		if (!y->iv || n + y->n_kept > TA_OX_MAX_KEPT)
			vals = false;
		for (i = 0; vals && i < y->n_kept; i++)
			iv[n++] = y->iv[i];
	}
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (!ret && vals && s.rank == 1)
		ret = ta_ox_set_ivals(ox, 0, iv, n);
	return ret;
}

static int ta_ox_reshape(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 shape[TA_OX_MAX_KEPT], allowzero, known = 1;
	const s64 *iv;
	u32 i, n;
	s32 neg = -1, na;
	char a[160], b[160];
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "allowzero", 0, &allowzero);

	if (ret)
		return ret;
	if (ox->opset < 5) {
		ret = ta_ox_attr_ints(ox, "shape", shape, TA_OX_MAX_KEPT, &na);
		if (ret)
			return ret;
		if (na < 0)
			return ta_ox_node_fail(ox, -EINVAL, "no shape attribute");
		n = (u32)na;
	} else {
		if (!ta_ox_in(ox, 1))
			return ta_ox_node_fail(ox, -EINVAL, "input 1 (shape) is missing");
		if (!ta_ox_ints(ta_ox_in(ox, 1), &iv, &n))
			return ta_ox_cannot(ox, "its shape input is computed at run time");
		memcpy(shape, iv, sizeof(*iv) * n);
	}
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "target rank %u, more than %u",
				       n, TA_OX_MAX_RANK);
	s.rank = n;
	for (i = 0; i < n; i++) {
		s.d[i] = shape[i];
		if (shape[i] == 0 && !allowzero) {
			if (i >= x->shape.rank)
				return ta_ox_node_fail(ox, -EINVAL,
						       "shape[%u] is 0 (copy) but the input has rank %u",
						       i, x->shape.rank);
			s.d[i] = x->shape.d[i];
		} else if (shape[i] == -1) {
			if (neg >= 0)
				return ta_ox_node_fail(ox, -EINVAL,
						       "more than one -1 in the shape");
			neg = (s32)i;
			continue;
		} else if (shape[i] < 0 || (u64)shape[i] > TA_OX_MAX_ELEMS) {
			return ta_ox_node_fail(ox, -EINVAL,
					       "shape[%u] is %lld", i,
					       (long long)shape[i]);
		}
		if (s.d[i] && known > (s64)TA_OX_MAX_ELEMS / s.d[i])
			return ta_ox_node_fail(ox, -EINVAL, "shape too large");
		known *= s.d[i];
	}
	if (neg >= 0) {
		if (!known || ta_ox_elems(&x->shape) % (u64)known)
			goto mismatch;
		s.d[neg] = (s64)(ta_ox_elems(&x->shape) / (u64)known);
	}
	if (ta_ox_elems(&s) != ta_ox_elems(&x->shape))
		goto mismatch;
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
mismatch:
	ta_ox_shape_str(&x->shape, a, sizeof(a));
	s.rank = n;
	for (i = 0; i < n; i++)
		s.d[i] = shape[i];
	ta_ox_shape_str(&s, b, sizeof(b));
	return ta_ox_node_fail(ox, -EINVAL, "cannot reshape %s to %s", a, b);
}

static int ta_ox_flatten(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 2, .d = { 1, 1 } };
	s64 axis;
	u32 ax = 0, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 1, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, true, &ax);
	if (ret)
		return ret;
	for (i = 0; i < x->shape.rank; i++)
		s.d[i < ax ? 0 : 1] *= x->shape.d[i];
	return ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_transpose(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 perm[TA_OX_MAX_RANK];
	u32 i, seen = 0;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_ints(ox, "perm", perm, TA_OX_MAX_RANK, &n);

	if (ret)
		return ret;
	if (n < 0) {
		n = (s32)x->shape.rank;
		for (i = 0; i < x->shape.rank; i++)
			perm[i] = x->shape.rank - 1 - i;
	}
	if ((u32)n != x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL, "perm has %d values for rank %u",
				       n, x->shape.rank);
	s.rank = x->shape.rank;
	for (i = 0; i < s.rank; i++) {
		if (perm[i] < 0 || perm[i] >= (s64)s.rank ||
		    (seen & (1U << perm[i])))
			return ta_ox_node_fail(ox, -EINVAL, "perm is not a permutation");
		seen |= 1U << perm[i];
		s.d[i] = x->shape.d[perm[i]];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/* A value list from an attribute (before @since) or from input @k. */
static int ta_ox_list(struct ta_ox *ox, const char *attr, u32 k, s64 since,
		      s64 *out, s32 *n)
{
	const s64 *iv;
	u32 cnt;

	if (ox->opset < since)
		return ta_ox_attr_ints(ox, attr, out, TA_OX_MAX_KEPT, n);
	*n = -1;
	if (!ta_ox_in(ox, k))
		return 0;
	if (!ta_ox_ints(ta_ox_in(ox, k), &iv, &cnt))
		return ta_ox_cannot(ox, "input %u (%s) is computed at run time", k,
				    attr);
	memcpy(out, iv, sizeof(*iv) * cnt);
	*n = (s32)cnt;
	return 0;
}

static int ta_ox_slice(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 st[TA_OX_MAX_KEPT], en[TA_OX_MAX_KEPT], axes[TA_OX_MAX_KEPT];
	s64 steps[TA_OX_MAX_KEPT], iv[TA_OX_MAX_KEPT];
	s32 ns, ne, na, nst;
	u32 i, ax = 0, seen = 0;
	s64 first = 0, step1 = 1;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_list(ox, "starts", 1, 10, st, &ns) ?:
		  ta_ox_list(ox, "ends", 2, 10, en, &ne) ?:
		  ta_ox_list(ox, "axes", 3, 10, axes, &na);

	if (ret)
		return ret;
	nst = -1;
	if (ox->opset >= 10)
		ret = ta_ox_list(ox, "steps", 4, 10, steps, &nst);
	if (ret)
		return ret;
	if (ns < 0 || ne < 0 || ns != ne || (na >= 0 && na != ns) ||
	    (nst >= 0 && nst != ns))
		return ta_ox_node_fail(ox, -EINVAL,
				       "starts, ends, axes and steps differ in length");
	s = x->shape;
	for (i = 0; i < (u32)ns; i++) {
		s64 d, b, e, step = nst >= 0 ? steps[i] : 1;

		ret = ta_ox_axis(ox, na >= 0 ? axes[i] : (s64)i, s.rank,
				 false, &ax);
		if (ret)
			return ret;
		if (seen & (1U << ax))
			return ta_ox_node_fail(ox, -EINVAL, "axis %u sliced twice",
					       ax);
		seen |= 1U << ax;
		if (!step)
			return ta_ox_node_fail(ox, -EINVAL, "a step of 0");
		/* |step| beyond any dimension gives the same result */
		if (step > (1LL << 40))
			step = 1LL << 40;
		if (step < -(1LL << 40))
			step = -(1LL << 40);
		d = x->shape.d[ax];
		b = st[i] < 0 ? st[i] + d : st[i];
		e = en[i] < 0 ? en[i] + d : en[i];
		/*
		 * An end of INT32_MAX or INT64_MAX means "to the end" in the
		 * step's direction (numpy's None), as ONNX Runtime reads it:
		 * with a negative step, down to and with element 0. A plain
		 * clamp would give less; plan the larger.
		 */
		if (step < 0 && (en[i] == INT64_MAX || en[i] == INT32_MAX))
			e = -1;
		if (step > 0) {
			b = b < 0 ? 0 : b > d ? d : b;
			e = e < 0 ? 0 : e > d ? d : e;
			s.d[ax] = e > b ? (e - b + step - 1) / step : 0;
		} else {
			b = b < 0 ? 0 : b > d - 1 ? d - 1 : b;
			e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
			s.d[ax] = b > e ? (b - e - step - 1) / -step : 0;
		}
		if (ax == 0) {
			first = b;
			step1 = step;
		}
	}
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (ret || !x->iv || x->shape.rank != 1)
		return ret;
	for (i = 0; i < (u32)s.d[0]; i++)
		iv[i] = x->iv[first + step1 * (s64)i];
	return ta_ox_set_ivals(ox, 0, iv, (u32)s.d[0]);
}

static int ta_ox_gemm(struct ta_ox *ox)
{
	struct ta_ox_value *a, *b, *c;
	struct ta_ox_shape s = { .rank = 2 }, bc;
	s64 ta, tb, k1, k2;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &a, 2, 2) ?:
		  ta_ox_need_rank(ox, 1, &b, 2, 2) ?:
		  ta_ox_attr_int(ox, "transA", 0, &ta) ?:
		  ta_ox_attr_int(ox, "transB", 0, &tb);

	if (ret)
		return ret;
	s.d[0] = a->shape.d[ta ? 1 : 0];
	k1 = a->shape.d[ta ? 0 : 1];
	k2 = b->shape.d[tb ? 1 : 0];
	s.d[1] = b->shape.d[tb ? 0 : 1];
	if (k1 != k2)
		return ta_ox_node_fail(ox, -EINVAL,
				       "A's inner dimension %lld differs from B's %lld",
				       (long long)k1, (long long)k2);
	c = ta_ox_in(ox, 2);
	if (c) {
		ret = ta_ox_broadcast(ox, &s, &c->shape, &bc);
		if (ret)
			return ret;
		if (bc.rank != 2 || bc.d[0] != s.d[0] || bc.d[1] != s.d[1])
			return ta_ox_node_fail(ox, -EINVAL,
					       "C does not broadcast to [M, N]");
	}
	return ta_ox_set(ox, 0, a->dtype, &s);
}

static int ta_ox_matmul(struct ta_ox *ox)
{
	struct ta_ox_value *a, *b;
	struct ta_ox_shape sa, sb, ba, bb, s;
	bool a1, b1;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &a, 1, TA_OX_MAX_RANK) ?:
		  ta_ox_need_rank(ox, 1, &b, 1, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	sa = a->shape;
	sb = b->shape;
	a1 = sa.rank == 1;
	b1 = sb.rank == 1;
	if (a1) {
		sa.rank = 2;
		sa.d[1] = sa.d[0];
		sa.d[0] = 1;
	}
	if (b1) {
		sb.rank = 2;
		sb.d[1] = 1;
	}
	if (sa.d[sa.rank - 1] != sb.d[sb.rank - 2])
		return ta_ox_node_fail(ox, -EINVAL,
				       "inner dimensions %lld and %lld differ",
				       (long long)sa.d[sa.rank - 1],
				       (long long)sb.d[sb.rank - 2]);
	ba.rank = sa.rank - 2;
	bb.rank = sb.rank - 2;
	memcpy(ba.d, sa.d, sizeof(s64) * ba.rank);
	memcpy(bb.d, sb.d, sizeof(s64) * bb.rank);
	ret = ta_ox_broadcast(ox, &ba, &bb, &s);
	if (ret)
		return ret;
	i = s.rank;
	if (!a1)
		s.d[i++] = sa.d[sa.rank - 2];
	if (!b1)
		s.d[i++] = sb.d[sb.rank - 1];
	if (i > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	s.rank = i;
	return ta_ox_set(ox, 0, a->dtype, &s);
}

static int ta_ox_squeeze(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	s64 axes[TA_OX_MAX_KEPT];
	u32 i, k, ax = 0, drop = 0;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_axes_arg(ox, "axes", 1, 13, axes, &n);

	if (ret)
		return ret;
	for (k = 0; n >= 0 && k < (u32)n; k++) {
		ret = ta_ox_axis(ox, axes[k], x->shape.rank, false, &ax);
		if (ret)
			return ret;
		if (x->shape.d[ax] != 1)
			return ta_ox_node_fail(ox, -EINVAL,
					       "squeezes dimension %u of size %lld",
					       ax, (long long)x->shape.d[ax]);
		drop |= 1U << ax;
	}
	for (i = 0; i < x->shape.rank; i++) {
		if (n < 0 ? x->shape.d[i] == 1 : !!(drop & (1U << i)))
			continue;
		s.d[s.rank++] = x->shape.d[i];
	}
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

static int ta_ox_unsqueeze(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axes[TA_OX_MAX_KEPT];
	u32 i, k, ax = 0, add = 0, r;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_axes_arg(ox, "axes", 1, 13, axes, &n);

	if (ret)
		return ret;
	if (n < 0)
		return ta_ox_node_fail(ox, -EINVAL, "no axes");
	r = x->shape.rank + (u32)n;
	if (r > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank %u, more than %u", r,
				       TA_OX_MAX_RANK);
	for (k = 0; k < (u32)n; k++) {
		ret = ta_ox_axis(ox, axes[k], r, false, &ax);
		if (ret)
			return ret;
		if (add & (1U << ax))
			return ta_ox_node_fail(ox, -EINVAL, "axis %u repeated", ax);
		add |= 1U << ax;
	}
	s.rank = r;
	for (i = 0, k = 0; i < r; i++)
		s.d[i] = add & (1U << i) ? 1 : x->shape.d[k++];
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

static int ta_ox_shape_op(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 1 };
	s64 start, end;
	u32 b, e;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "start", 0, &start) ?:
		  ta_ox_attr_int(ox, "end", x->shape.rank, &end);

	if (ret)
		return ret;
	/* start and end are clamped, as the operator says */
	if (start < 0)
		start += x->shape.rank;
	if (end < 0)
		end += x->shape.rank;
	b = start < 0 ? 0 : start > x->shape.rank ? x->shape.rank : (u32)start;
	e = end < 0 ? 0 : end > x->shape.rank ? x->shape.rank : (u32)end;
	s.d[0] = e > b ? e - b : 0;
	ret = ta_ox_set(ox, 0, TA_OX_INT64, &s);
	if (!ret)
		ret = ta_ox_set_ivals(ox, 0, x->shape.d + b, (u32)s.d[0]);
	return ret;
}

static int ta_ox_size_op(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 0 };
	s64 e;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_set(ox, 0, TA_OX_INT64, &s);

	if (ret)
		return ret;
	e = (s64)ta_ox_elems(&x->shape);
	return ta_ox_set_ivals(ox, 0, &e, 1);
}

static int ta_ox_gather(struct ta_ox *ox)
{
	struct ta_ox_value *x, *ind;
	struct ta_ox_shape s = { 0 };
	s64 axis, iv[TA_OX_MAX_KEPT];
	u32 ax = 0, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &ind) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	if (x->shape.rank - 1 + ind->shape.rank > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	for (i = 0; i < ax; i++)
		s.d[s.rank++] = x->shape.d[i];
	for (i = 0; i < ind->shape.rank; i++)
		s.d[s.rank++] = ind->shape.d[i];
	for (i = ax + 1; i < x->shape.rank; i++)
		s.d[s.rank++] = x->shape.d[i];
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (ret || !x->iv || !ind->iv || x->shape.rank != 1)
		return ret;
	for (i = 0; i < ind->n_kept; i++) {
		s64 k = ind->iv[i] < 0 ? ind->iv[i] + x->shape.d[0] :
			ind->iv[i];

		if (k < 0 || k >= x->shape.d[0])
			return ta_ox_node_fail(ox, -EINVAL,
					       "index %lld out of range",
					       (long long)ind->iv[i]);
		iv[i] = x->iv[k];
	}
	return ta_ox_set_ivals(ox, 0, iv, ind->n_kept);
}

/* The shape and type a TensorProto attribute describes. */
static int ta_ox_tensor_attr(struct ta_ox *ox, const char *name,
			     struct ta_ox_tensor *t, bool *present)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*present = ret > 0;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_TENSOR, a.has_t);
	return ret ?: ta_ox_tensor(ox, &a.t, "a tensor attribute", t);
}

static int ta_ox_constant_of_shape(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_tensor t;
	struct ta_ox_shape s;
	const s64 *iv;
	s64 fill[TA_OX_MAX_KEPT];
	u32 n, i;
	bool present;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_tensor_attr(ox, "value", &t, &present);

	if (ret)
		return ret;
	if (!ta_ox_ints(x, &iv, &n))
		return ta_ox_cannot(ox, "its shape input is computed at run time");
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank %u, more than %u", n,
				       TA_OX_MAX_RANK);
	if (present && ta_ox_elems(&t.shape) != 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute 'value' is not one element");
	s.rank = n;
	memcpy(s.d, iv, sizeof(*iv) * n);
	ret = ta_ox_set(ox, 0, present ? t.dtype : TA_OX_FLOAT, &s);
	if (ret || !present || !t.n_kept || !ta_ox_is_int(t.dtype) ||
	    ta_ox_elems(&s) > TA_OX_MAX_KEPT)
		return ret;
	for (i = 0; i < ta_ox_elems(&s); i++)
		fill[i] = t.iv[0];
	return ta_ox_set_ivals(ox, 0, fill, (u32)ta_ox_elems(&s));
}

static int ta_ox_constant(struct ta_ox *ox)
{
	static const char *const others[] = {
		"sparse_value", "value_string", "value_strings",
	};
	struct ta_ox_tensor t;
	struct ta_ox_attr a;
	struct ta_ox_shape s = { 0 };
	bool present;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_tensor_attr(ox, "value", &t, &present);

	if (ret)
		return ret;
	if (present) {
		ret = ta_ox_set(ox, 0, t.dtype, &t.shape);
		if (!ret && (t.n_kept || !ta_ox_elems(&t.shape)))
			ret = ta_ox_keep_out(ox, 0, t.is_float ? NULL : t.iv,
					     t.is_float ? t.fv : NULL,
					     t.n_kept);
		return ret;
	}
	for (i = 0; i < 3; i++) {
		ret = ta_ox_attr(ox, others[i], &a);
		if (ret < 0)
			return ret;
		if (ret)
			return ta_ox_cannot(ox, "attribute '%s'", others[i]);
	}
	ret = ta_ox_attr(ox, "value_int", &a);
	if (ret > 0) {
		ret = ta_ox_attr_type(ox, "value_int", &a, TA_OX_AT_INT,
				      a.has_i) ?:
		      ta_ox_set(ox, 0, TA_OX_INT64, &s) ?:
		      ta_ox_set_ivals(ox, 0, &a.i, 1);
		return ret;
	}
	if (!ret)
		ret = ta_ox_attr(ox, "value_ints", &a);
	if (ret > 0) {
		s.rank = 1;
		s.d[0] = (s64)a.n_ints;
		return ta_ox_attr_type(ox, "value_ints", &a, TA_OX_AT_INTS,
				       true) ?:
		       ta_ox_set(ox, 0, TA_OX_INT64, &s) ?:
		       ta_ox_set_ivals(ox, 0, a.ints, (u32)a.n_ints);
	}
	if (!ret)
		ret = ta_ox_attr(ox, "value_float", &a);
	if (ret > 0)
		return ta_ox_attr_type(ox, "value_float", &a, TA_OX_AT_FLOAT,
				       a.has_f) ?:
		       ta_ox_set(ox, 0, TA_OX_FLOAT, &s);
	if (!ret)
		ret = ta_ox_attr(ox, "value_floats", &a);
	if (ret > 0) {
		s.rank = 1;
		s.d[0] = (s64)a.n_floats;
		return ta_ox_attr_type(ox, "value_floats", &a, TA_OX_AT_FLOATS,
				       true) ?:
		       ta_ox_set(ox, 0, TA_OX_FLOAT, &s);
	}
	if (ret < 0)
		return ret;
	return ta_ox_node_fail(ox, -EINVAL, "no value attribute");
}

static int ta_ox_pad(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 pads[TA_OX_MAX_KEPT], axes[TA_OX_MAX_KEPT];
	s32 n, na = -1;
	u32 i, r, ax = 0;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	r = x->shape.rank;
	if (ox->opset < 11) {
		ret = ta_ox_attr_ints(ox, ox->opset < 2 ? "paddings" : "pads",
				      pads, TA_OX_MAX_KEPT, &n);
	} else {
		ret = ta_ox_list(ox, "pads", 1, 11, pads, &n);
		if (!ret && ox->opset >= 18)
			ret = ta_ox_list(ox, "axes", 3, 18, axes, &na);
	}
	if (ret)
		return ret;
	if (na < 0)
		for (i = 0; i < r; i++)
			axes[i] = i;
	if (n < 0 || (u32)n != 2 * (na < 0 ? r : (u32)na))
		return ta_ox_node_fail(ox, -EINVAL,
				       "pads has %d values for %u axes", n,
				       na < 0 ? r : (u32)na);
	s = x->shape;
	for (i = 0; i < (u32)n / 2; i++) {
		s64 b = pads[i], e = pads[i + n / 2];

		ret = ta_ox_axis(ox, axes[i], r, false, &ax);
		if (ret)
			return ret;
		if (b < -(1LL << 40) || b > (1LL << 40) ||
		    e < -(1LL << 40) || e > (1LL << 40))
			return ta_ox_node_fail(ox, -EINVAL, "pad out of range");
		s.d[ax] = x->shape.d[ax] + b + e;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/* Resize (opset 10+) and Upsample: sizes, or floor(dim * scale). */
static int ta_ox_resize(struct ta_ox *ox)
{
	struct ta_ox_value *x, *sc, *sz;
	struct ta_ox_shape s;
	struct ta_ox_attr a;
	double scales[TA_OX_MAX_RANK];
	const s64 *iv;
	char policy[24];
	u32 i, n;
	bool upsample = !strcmp(ox->nd.op_str, "Upsample");
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	s = x->shape;
	if (!upsample && ox->opset >= 18) {
		ret = ta_ox_attr(ox, "axes", &a);
		if (ret)
			return ret < 0 ? ret :
			       ta_ox_cannot(ox, "the axes attribute");
		ret = ta_ox_attr_str(ox, "keep_aspect_ratio_policy",
				     "stretch", policy, sizeof(policy));
		if (ret)
			return ret;
		if (strcmp(policy, "stretch"))
			return ta_ox_cannot(ox, "keep_aspect_ratio_policy %s",
					    policy);
	}
	if (upsample && ox->opset < 9) {
		ret = ta_ox_attr(ox, "scales", &a);
		if (ret <= 0)
			return ret ?: ta_ox_node_fail(ox, -EINVAL, "no scales");
		if (a.n_floats != s.rank)
			return ta_ox_node_fail(ox, -EINVAL,
					       "%llu scales for rank %u",
					       (unsigned long long)a.n_floats,
					       s.rank);
		for (i = 0; i < s.rank; i++)
			scales[i] = a.floats[i];
		goto scale;
	}
	sc = ta_ox_in(ox, upsample || ox->opset < 11 ? 1 : 2);
	sz = upsample || ox->opset < 11 ? NULL : ta_ox_in(ox, 3);
	if (sc && !ta_ox_elems(&sc->shape))
		sc = NULL;
	if (sz && !ta_ox_elems(&sz->shape))
		sz = NULL;
	if (sz) {
		if (!ta_ox_ints(sz, &iv, &n))
			return ta_ox_cannot(ox, "its sizes input is computed at run time");
		if (n != s.rank)
			return ta_ox_node_fail(ox, -EINVAL, "%u sizes for rank %u",
					       n, s.rank);
		memcpy(s.d, iv, sizeof(*iv) * n);
		return ta_ox_set(ox, 0, x->dtype, &s);
	}
	if (!sc)
		return ta_ox_node_fail(ox, -EINVAL, "neither scales nor sizes");
	if (!sc->fv)
		return ta_ox_cannot(ox, "its scales input is computed at run time");
	if (sc->n_kept != s.rank)
		return ta_ox_node_fail(ox, -EINVAL, "%u scales for rank %u",
				       sc->n_kept, s.rank);
	for (i = 0; i < s.rank; i++)
		scales[i] = sc->fv[i];
scale:
	for (i = 0; i < s.rank; i++) {
		/*
		 * ONNX Runtime and ONNX's own inference multiply in float:
		 * 10 * 0.7f is 7 there and 6.99... in double. Plan the larger.
		 */
		float f = (float)s.d[i] * (float)scales[i];
		double d = floor((double)s.d[i] * scales[i]);

		if (f == f && floor((double)f) > d)
			d = floor((double)f);

		if (!(d >= 0 && d <= (double)TA_OX_MAX_ELEMS))
			return ta_ox_node_fail(ox, -EINVAL,
					       "scale %g out of range", scales[i]);
		s.d[i] = (s64)d;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_expand(struct ta_ox *ox)
{
	struct ta_ox_value *x, *sh;
	struct ta_ox_shape t, s;
	const s64 *iv;
	u32 n, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &sh);

	if (ret)
		return ret;
	if (!ta_ox_ints(sh, &iv, &n))
		return ta_ox_cannot(ox, "its shape input is computed at run time");
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	t.rank = n;
	for (i = 0; i < n; i++) {
		if (iv[i] < 0 || (u64)iv[i] > TA_OX_MAX_ELEMS)
			return ta_ox_node_fail(ox, -EINVAL, "bad shape");
		t.d[i] = iv[i];
	}
	ret = ta_ox_broadcast(ox, &x->shape, &t, &s);
	return ret ?: ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_split(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, split[TA_OX_MAX_KEPT], sum = 0, num;
	u32 ax = 0, k, nout = ox->nd.n_out;
	s32 n;
	int ret = ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (!ret)
		ret = ta_ox_list(ox, "split", 1, 13, split, &n);
	if (!ret)
		ret = ta_ox_attr_int(ox, "num_outputs", nout, &num);
	if (ret)
		return ret;
	if (!nout || nout > TA_OX_MAX_KEPT || num != nout)
		return ta_ox_node_fail(ox, -EINVAL, "%u outputs", nout);
	s = x->shape;
	if (n < 0) {
		/* equal parts; from opset 18 the last may be smaller */
		s64 part = (s.d[ax] + nout - 1) / nout;

		if (ox->opset < 18 && s.d[ax] % nout)
			return ta_ox_node_fail(ox, -EINVAL,
					       "dimension %lld does not split in %u",
					       (long long)s.d[ax], nout);
		for (k = 0; k < nout; k++) {
			split[k] = s.d[ax] - sum < part ? s.d[ax] - sum : part;
			sum += split[k];
		}
		n = (s32)nout;
	} else {
		for (k = 0; k < (u32)n; k++) {
			if (split[k] < 0 || split[k] > s.d[ax])
				return ta_ox_node_fail(ox, -EINVAL, "bad split");
			sum += split[k];
		}
	}
	if ((u32)n != nout || sum != x->shape.d[ax])
		return ta_ox_node_fail(ox, -EINVAL,
				       "split does not match the outputs or the dimension");
	for (k = 0; k < nout; k++) {
		s.d[ax] = split[k];
		ret = ta_ox_set(ox, k, x->dtype, &s);
		if (ret)
			return ret;
	}
	return 0;
}

/* 1 for a dimension of 0: an output must be able to hold one element. */
static s64 ta_ox_at_least_1(s64 d)
{
	return d > 0 ? d : 1;
}

static int ta_ox_reduce(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	s64 axes[TA_OX_MAX_KEPT], keep, noop;
	u32 i, ax = 0, mask = 0;
	s32 n;
	bool sum = !strcmp(ox->nd.op_str, "ReduceSum");
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "keepdims", 1, &keep) ?:
		  ta_ox_attr_int(ox, "noop_with_empty_axes", 0, &noop) ?:
		  ta_ox_axes_arg(ox, "axes", 1, sum ? 13 : 18, axes, &n);

	if (ret)
		return ret;
	if (n <= 0 && noop)
		return ta_ox_same(ox);
	for (i = 0; n > 0 && i < (u32)n; i++) {
		ret = ta_ox_axis(ox, axes[i], x->shape.rank, false, &ax);
		if (ret)
			return ret;
		mask |= 1U << ax;
	}
	if (n <= 0)
		mask = ~0U;
	for (i = 0; i < x->shape.rank; i++) {
		if (!(mask & (1U << i)))
			s.d[s.rank++] = x->shape.d[i];
		else if (keep)
			s.d[s.rank++] = 1;
	}
	/*
	 * Over an empty axis ONNX Runtime reduces that axis alone, and
	 * writes the others whole: [0,1,9] over axes -1 and 0 gives [1,1,9].
	 * Plan the larger: the input with each empty dimension made 1.
	 */
	for (i = 0; i < x->shape.rank; i++)
		if ((mask & (1U << i)) && !x->shape.d[i])
			break;
	if (i < x->shape.rank) {
		s = x->shape;
		for (i = 0; i < s.rank; i++)
			s.d[i] = ta_ox_at_least_1(s.d[i]);
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

static int ta_ox_argmax(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	s64 axis, keep;
	u32 ax = 0, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis) ?:
		  ta_ox_attr_int(ox, "keepdims", 1, &keep);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	for (i = 0; i < x->shape.rank; i++) {
		if (i != ax)
			s.d[s.rank++] = x->shape.d[i];
		else if (keep)
			s.d[s.rank++] = 1;
	}
	return ta_ox_set(ox, 0, TA_OX_INT64, &s);
}

static int ta_ox_tile(struct ta_ox *ox)
{
	struct ta_ox_value *x, *r;
	struct ta_ox_shape s;
	const s64 *iv;
	u32 n, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &r);

	if (ret)
		return ret;
	if (!ta_ox_ints(r, &iv, &n))
		return ta_ox_cannot(ox, "its repeats input is computed at run time");
	if (n != x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL, "%u repeats for rank %u", n,
				       x->shape.rank);
	s = x->shape;
	for (i = 0; i < n; i++) {
		if (iv[i] < 0 || (u64)iv[i] > TA_OX_MAX_ELEMS)
			return ta_ox_node_fail(ox, -EINVAL, "bad repeats");
		if (s.d[i] && (u64)iv[i] > TA_OX_MAX_ELEMS / (u64)s.d[i])
			return ta_ox_node_fail(ox, -EINVAL, "too large");
		s.d[i] *= iv[i];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * ---- ops whose output shape depends on the data ----
 *
 * Their outputs are planned at the largest the op can produce for inputs
 * of the shapes given (TA_OX_BOUND in the table): a shape a model records
 * for them is what one run produced, and may only be smaller. An op whose
 * largest output is not known from shapes alone is refused, never planned
 * from a recorded shape.
 */

/* The optional attribute axis, normalized: 1 when present, 0, or -errno. */
static int ta_ox_opt_axis(struct ta_ox *ox, u32 r, u32 *ax)
{
	struct ta_ox_attr a;
	s64 axis;
	int ret = ta_ox_attr(ox, "axis", &a);

	if (ret <= 0)
		return ret;
	return ta_ox_attr_int(ox, "axis", 0, &axis) ?:
	       ta_ox_axis(ox, axis, r, false, ax) ?: 1;
}

/* NonZero: [rank, n] indices of the n non-zero elements, n <= numel. */
static int ta_ox_nonzero(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 2 };
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	/* a scalar is read as one element of rank 1 */
	s.d[0] = ta_ox_at_least_1((s64)x->shape.rank);
	s.d[1] = (s64)ta_ox_elems(&x->shape);
	return ta_ox_set(ox, 0, TA_OX_INT64, &s);
}

/*
 * Unique: Y (the distinct values, or slices along axis), indices,
 * inverse_indices and counts, each at most as long as the input (or its
 * axis).
 */
static int ta_ox_unique(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape y, v = { .rank = 1 };
	u32 ax = 0, k;
	int ret = ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	if (ox->nd.n_out > 4)
		return ta_ox_node_fail(ox, -EINVAL, "%u outputs, want 1 to 4",
				       ox->nd.n_out);
	ret = ta_ox_opt_axis(ox, x->shape.rank, &ax);
	if (ret < 0)
		return ret;
	if (ret) {
		y = x->shape;
		v.d[0] = x->shape.d[ax];
	} else {
		y.rank = 1;
		y.d[0] = (s64)ta_ox_elems(&x->shape);
		v.d[0] = y.d[0];
	}
	ret = ta_ox_set(ox, 0, x->dtype, &y);
	for (k = 1; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, TA_OX_INT64, &v);
	return ret;
}

/* Compress: the slices (or elements) its condition selects, at most all. */
static int ta_ox_compress(struct ta_ox *ox)
{
	struct ta_ox_value *x, *c;
	struct ta_ox_shape s;
	s64 len;
	u32 ax = 0;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need_rank(ox, 1, &c, 1, 1);

	if (ret)
		return ret;
	len = c->shape.d[0];
	ret = ta_ox_opt_axis(ox, x->shape.rank, &ax);
	if (ret < 0)
		return ret;
	if (ret) {
		s = x->shape;
		if (len < s.d[ax])
			s.d[ax] = len;
	} else {
		s.rank = 1;
		s.d[0] = (s64)ta_ox_elems(&x->shape);
		if (len < s.d[0])
			s.d[0] = len;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * NonMaxSuppression: [n, 3] selected indices, n at most batches x classes
 * x min(max_output_boxes_per_class, boxes). The bound takes every box when
 * the maximum is not a constant, or is absent (the operator's 0, no box:
 * planning the boxes costs little and holds any reading).
 */
static int ta_ox_nms(struct ta_ox *ox)
{
	struct ta_ox_value *boxes, *scores, *m = NULL;
	struct ta_ox_shape s = { .rank = 2, .d = { 0, 3 } };
	s64 per_class;
	const s64 *iv;
	u32 n;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &boxes, 3, 3) ?:
		  ta_ox_need_rank(ox, 1, &scores, 3, 3);

	if (ret)
		return ret;
	if (boxes->shape.d[2] != 4 || scores->shape.d[0] != boxes->shape.d[0] ||
	    scores->shape.d[2] != boxes->shape.d[1])
		return ta_ox_node_fail(ox, -EINVAL,
				       "boxes [%lld,%lld,%lld] and scores [%lld,%lld,%lld] do not agree",
				       (long long)boxes->shape.d[0],
				       (long long)boxes->shape.d[1],
				       (long long)boxes->shape.d[2],
				       (long long)scores->shape.d[0],
				       (long long)scores->shape.d[1],
				       (long long)scores->shape.d[2]);
	per_class = boxes->shape.d[1];
	m = ta_ox_in(ox, 2);
	if (m && ta_ox_ints(m, &iv, &n) && n == 1 && iv[0] >= 0 &&
	    iv[0] < per_class)
		per_class = iv[0];
	/* batches x classes <= the scores' elements, < 2^36 */
	s.d[0] = boxes->shape.d[0] * scores->shape.d[1];
	if (s.d[0] && per_class > (s64)TA_OX_MAX_ELEMS / s.d[0])
		return ta_ox_node_fail(ox, -EINVAL, "too many boxes");
	s.d[0] *= per_class;
	return ta_ox_set(ox, 0, TA_OX_INT64, &s);
}

/*
 * TopK: values and indices, the input's shape with k along the axis; a k
 * computed at run time is bounded by the dimension (a larger k fails).
 */
static int ta_ox_topk(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, k = -1;
	const s64 *iv;
	u32 ax = 0, n;
	int ret = ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", -1, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	if (ox->nd.n_out > 2)
		return ta_ox_node_fail(ox, -EINVAL, "%u outputs, want 1 or 2",
				       ox->nd.n_out);
	if (ox->opset < 10) {
		ret = ta_ox_attr_int(ox, "k", -1, &k);
		if (ret)
			return ret;
	} else if (ta_ox_in(ox, 1) && ta_ox_ints(ta_ox_in(ox, 1), &iv, &n) &&
		   n == 1) {
		k = iv[0];
	} else if (!ta_ox_in(ox, 1)) {
		return ta_ox_node_fail(ox, -EINVAL, "input 1 (K) is missing");
	}
	s = x->shape;
	if (k > s.d[ax])
		return ta_ox_node_fail(ox, -EINVAL,
				       "k %lld is larger than dimension %u (%lld)",
				       (long long)k, ax, (long long)s.d[ax]);
	if (k >= 0)
		s.d[ax] = k;
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_set(ox, 1, TA_OX_INT64, &s);
}

/* One scalar input's value as a double (an int or a float kept). */
static bool ta_ox_scalar(struct ta_ox *ox, u32 k, double *v, bool *is_int,
			 s64 *iv)
{
	struct ta_ox_value *x = ta_ox_in(ox, k);

	if (!x || ta_ox_elems(&x->shape) != 1 || x->n_kept != 1)
		return false;
	*is_int = !!x->iv;
	if (x->iv) {
		*iv = x->iv[0];
		*v = (double)x->iv[0];
		return true;
	}
	if (!x->fv)
		return false;
	*v = x->fv[0];
	return true;
}

/*
 * Range: max(ceil((limit - start) / delta), 0) elements, known only when
 * all three inputs are constants; otherwise nothing bounds it, and it is
 * refused. Floats are computed in float and in double: the larger.
 */
static int ta_ox_range(struct ta_ox *ox)
{
	struct ta_ox_value *st;
	struct ta_ox_shape s = { .rank = 1 };
	double v[3], n;
	bool is_int[3];
	s64 iv[3];
	u32 k;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &st);

	if (ret)
		return ret;
	for (k = 0; k < 3; k++)
		if (!ta_ox_scalar(ox, k, &v[k], &is_int[k], &iv[k]))
			return ta_ox_node_fail(ox, -EINVAL,
					       "input %u is computed at run time: the length of Range's output is known only when start, limit and delta are constants, and nothing bounds it otherwise",
					       k);
	if (!v[2])
		return ta_ox_node_fail(ox, -EINVAL, "delta is 0");
	if (is_int[0] && is_int[1] && is_int[2]) {
		s64 span, d = iv[2];

		if (__builtin_sub_overflow(iv[1], iv[0], &span))
			return ta_ox_node_fail(ox, -EINVAL, "range too large");
		/* ceil(span / d), 0 when negative */
		if (!span || (span > 0 && d < 0) || (span < 0 && d > 0))
			n = 0;
		else
			n = (double)(span / d + (span % d != 0));
	} else {
		float f = ceilf(((float)v[1] - (float)v[0]) / (float)v[2]);

		n = ceil((v[1] - v[0]) / v[2]);
		if (f == f && f > n)
			n = f;
		if (!(n > 0))
			n = 0;
	}
	if (!(n <= (double)TA_OX_MAX_ELEMS))
		return ta_ox_node_fail(ox, -EINVAL, "range too large");
	s.d[0] = (s64)n;
	return ta_ox_set(ox, 0, st->dtype, &s);
}

/*
 * If, Loop and Scan run subgraphs this importer does not plan: a plan of
 * the outer graph alone would leave the subgraphs' tensors out of the
 * arena. Refused, even with their outputs' shapes recorded.
 */
static int ta_ox_control_flow(struct ta_ox *ox)
{
	return ta_ox_node_fail(ox, -EINVAL,
			       "control flow: its subgraphs are not planned (the ONNX importer plans one graph; the TFLite importer plans control-flow subgraphs), and a plan without them would leave their tensors outside the arena");
}

/* Sequences and optionals hold no tensor of a size a plan could give. */
static int ta_ox_sequence(struct ta_ox *ox)
{
	return ta_ox_node_fail(ox, -EINVAL,
			       "a sequence or optional value: its size is known only at run time");
}

/* What an op's outputs are, beside their inferred shapes. */
enum ta_ox_kind {
	TA_OX_PLAIN,
	TA_OX_VIEW,	/* a view of input 0: TA_OP_INPLACE when sizes match */
	TA_OX_BOUND,	/* the largest the data may give (above) */
};

struct ta_ox_op {
	const char *name;
	int (*infer)(struct ta_ox *ox);
	enum ta_ox_kind kind;
};

static const struct ta_ox_op ta_ox_ops[] = {
	{ "Abs", ta_ox_unary, TA_OX_PLAIN },
	{ "Acos", ta_ox_unary, TA_OX_PLAIN },
	{ "Add", ta_ox_binary, TA_OX_PLAIN },
	{ "And", ta_ox_binary, TA_OX_PLAIN },
	{ "ArgMax", ta_ox_argmax, TA_OX_PLAIN },
	{ "ArgMin", ta_ox_argmax, TA_OX_PLAIN },
	{ "Asin", ta_ox_unary, TA_OX_PLAIN },
	{ "Atan", ta_ox_unary, TA_OX_PLAIN },
	{ "AveragePool", ta_ox_pool, TA_OX_PLAIN },
	{ "BatchNormalization", ta_ox_batchnorm, TA_OX_PLAIN },
	{ "Cast", ta_ox_cast, TA_OX_PLAIN },
	{ "Ceil", ta_ox_unary, TA_OX_PLAIN },
	{ "Celu", ta_ox_unary, TA_OX_PLAIN },
	{ "Clip", ta_ox_unary, TA_OX_PLAIN },
	{ "Compress", ta_ox_compress, TA_OX_BOUND },
	{ "Concat", ta_ox_concat, TA_OX_PLAIN },
	{ "ConcatFromSequence", ta_ox_sequence, TA_OX_PLAIN },
	{ "Constant", ta_ox_constant, TA_OX_PLAIN },
	{ "ConstantOfShape", ta_ox_constant_of_shape, TA_OX_PLAIN },
	{ "Conv", ta_ox_conv, TA_OX_PLAIN },
	{ "Cos", ta_ox_unary, TA_OX_PLAIN },
	{ "Div", ta_ox_binary, TA_OX_PLAIN },
	{ "Dropout", ta_ox_dropout, TA_OX_VIEW },
	{ "Elu", ta_ox_unary, TA_OX_PLAIN },
	{ "Equal", ta_ox_binary, TA_OX_PLAIN },
	{ "Erf", ta_ox_unary, TA_OX_PLAIN },
	{ "Exp", ta_ox_unary, TA_OX_PLAIN },
	{ "Expand", ta_ox_expand, TA_OX_PLAIN },
	{ "Flatten", ta_ox_flatten, TA_OX_VIEW },
	{ "Floor", ta_ox_unary, TA_OX_PLAIN },
	{ "Gather", ta_ox_gather, TA_OX_PLAIN },
	{ "Gelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Gemm", ta_ox_gemm, TA_OX_PLAIN },
	{ "GlobalAveragePool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "GlobalLpPool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "GlobalMaxPool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "Greater", ta_ox_binary, TA_OX_PLAIN },
	{ "GreaterOrEqual", ta_ox_binary, TA_OX_PLAIN },
	{ "HardSigmoid", ta_ox_unary, TA_OX_PLAIN },
	{ "HardSwish", ta_ox_unary, TA_OX_PLAIN },
	{ "Hardmax", ta_ox_unary, TA_OX_PLAIN },
	{ "Identity", ta_ox_identity, TA_OX_VIEW },
	{ "If", ta_ox_control_flow, TA_OX_PLAIN },
	{ "InstanceNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "LRN", ta_ox_unary, TA_OX_PLAIN },
	{ "LeakyRelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Less", ta_ox_binary, TA_OX_PLAIN },
	{ "LessOrEqual", ta_ox_binary, TA_OX_PLAIN },
	{ "Log", ta_ox_unary, TA_OX_PLAIN },
	{ "LogSoftmax", ta_ox_unary, TA_OX_PLAIN },
	{ "Loop", ta_ox_control_flow, TA_OX_PLAIN },
	{ "LpNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "LpPool", ta_ox_pool, TA_OX_PLAIN },
	{ "MatMul", ta_ox_matmul, TA_OX_PLAIN },
	{ "Max", ta_ox_binary, TA_OX_PLAIN },
	{ "MaxPool", ta_ox_pool, TA_OX_PLAIN },
	{ "Mean", ta_ox_binary, TA_OX_PLAIN },
	{ "MeanVarianceNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "Min", ta_ox_binary, TA_OX_PLAIN },
	{ "Mish", ta_ox_unary, TA_OX_PLAIN },
	{ "Mod", ta_ox_binary, TA_OX_PLAIN },
	{ "Mul", ta_ox_binary, TA_OX_PLAIN },
	{ "Neg", ta_ox_unary, TA_OX_PLAIN },
	{ "NonMaxSuppression", ta_ox_nms, TA_OX_BOUND },
	{ "NonZero", ta_ox_nonzero, TA_OX_BOUND },
	{ "Not", ta_ox_unary, TA_OX_PLAIN },
	{ "Optional", ta_ox_sequence, TA_OX_PLAIN },
	{ "OptionalGetElement", ta_ox_sequence, TA_OX_PLAIN },
	{ "OptionalHasElement", ta_ox_sequence, TA_OX_PLAIN },
	{ "Or", ta_ox_binary, TA_OX_PLAIN },
	{ "PRelu", ta_ox_binary, TA_OX_PLAIN },
	{ "Pad", ta_ox_pad, TA_OX_PLAIN },
	{ "Pow", ta_ox_binary, TA_OX_PLAIN },
	{ "Range", ta_ox_range, TA_OX_BOUND },
	{ "Reciprocal", ta_ox_unary, TA_OX_PLAIN },
	{ "ReduceL1", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceL2", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceLogSum", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceLogSumExp", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceMax", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceMean", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceMin", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceProd", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceSum", ta_ox_reduce, TA_OX_PLAIN },
	{ "ReduceSumSquare", ta_ox_reduce, TA_OX_PLAIN },
	{ "Relu", ta_ox_unary, TA_OX_PLAIN },
	{ "Reshape", ta_ox_reshape, TA_OX_VIEW },
	{ "Resize", ta_ox_resize, TA_OX_PLAIN },
	{ "Round", ta_ox_unary, TA_OX_PLAIN },
	{ "Scan", ta_ox_control_flow, TA_OX_PLAIN },
	{ "Selu", ta_ox_unary, TA_OX_PLAIN },
	{ "SequenceAt", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceConstruct", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceEmpty", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceErase", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceInsert", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceLength", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceMap", ta_ox_sequence, TA_OX_PLAIN },
	{ "Shape", ta_ox_shape_op, TA_OX_PLAIN },
	{ "Sigmoid", ta_ox_unary, TA_OX_PLAIN },
	{ "Sign", ta_ox_unary, TA_OX_PLAIN },
	{ "Sin", ta_ox_unary, TA_OX_PLAIN },
	{ "Size", ta_ox_size_op, TA_OX_PLAIN },
	{ "Slice", ta_ox_slice, TA_OX_PLAIN },
	{ "Softmax", ta_ox_unary, TA_OX_PLAIN },
	{ "Softplus", ta_ox_unary, TA_OX_PLAIN },
	{ "Softsign", ta_ox_unary, TA_OX_PLAIN },
	{ "Split", ta_ox_split, TA_OX_PLAIN },
	{ "SplitToSequence", ta_ox_sequence, TA_OX_PLAIN },
	{ "Sqrt", ta_ox_unary, TA_OX_PLAIN },
	{ "Squeeze", ta_ox_squeeze, TA_OX_VIEW },
	{ "Sub", ta_ox_binary, TA_OX_PLAIN },
	{ "Sum", ta_ox_binary, TA_OX_PLAIN },
	{ "Tan", ta_ox_unary, TA_OX_PLAIN },
	{ "Tanh", ta_ox_unary, TA_OX_PLAIN },
	{ "ThresholdedRelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Tile", ta_ox_tile, TA_OX_PLAIN },
	{ "TopK", ta_ox_topk, TA_OX_BOUND },
	{ "Transpose", ta_ox_transpose, TA_OX_PLAIN },
	{ "Unique", ta_ox_unique, TA_OX_BOUND },
	{ "Unsqueeze", ta_ox_unsqueeze, TA_OX_VIEW },
	{ "Upsample", ta_ox_resize, TA_OX_PLAIN },
	{ "Where", ta_ox_binary, TA_OX_PLAIN },
	{ "Xor", ta_ox_binary, TA_OX_PLAIN },
};

static const struct ta_ox_op *ta_ox_op_find(const struct ta_ox_node *nd)
{
	size_t lo = 0, hi = sizeof(ta_ox_ops) / sizeof(ta_ox_ops[0]);

	if (nd->domain.len && !ta_span_is(&nd->domain, "ai.onnx"))
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(nd->op_str, ta_ox_ops[mid].name);

		if (!c)
			return &ta_ox_ops[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* ---- nodes: inference, checks, folding ---- */

/*
 * A recorded type and shape agree with the inferred ones; with @bound (the
 * inferred shape is the largest the op can produce) a recorded dimension
 * may be smaller.
 */
static int ta_ox_check_recorded(struct ta_ox *ox, u32 vi, bool bound)
{
	struct ta_ox_value *v = &ox->v[vi];
	const char *t1, *t2;
	char a[160], b[160], nm[80];
	u32 i;
	bool bad = false;

	if (!v->rec)
		return 0;
	if (v->rec_dtype && v->rec_dtype != v->dtype)
		bad = true;
	if (v->rec_shape) {
		if (v->rec_dims.rank != v->shape.rank)
			bad = true;
		for (i = 0; !bad && i < v->shape.rank; i++)
			if (!(v->rec_sym & (1U << i)) &&
			    (bound ? v->rec_dims.d[i] > v->shape.d[i] :
			     v->rec_dims.d[i] != v->shape.d[i]))
				bad = true;
	}
	if (!bad)
		return 0;
	ta_ox_type_bits(v->dtype, &t1);
	ta_ox_type_bits(v->rec_dtype, &t2);
	ta_ox_shape_str(&v->shape, a, sizeof(a));
	ta_ox_shape_str(&v->rec_dims, b, sizeof(b));
	return ta_ox_node_fail(ox, -EINVAL,
			       "output '%s': inferred %s %s%s, but the model records %s %s (value_info or graph output)",
			       ta_ox_vname(ox, vi, nm, sizeof(nm)), t1,
			       bound ? "at most " : "", a,
			       v->rec_dtype ? t2 : "?",
			       v->rec_shape ? b : "(no shape)");
}

/* @x broadcasts to @y: @y is what Expand may make of @x. */
static bool ta_ox_broadcasts_to(const struct ta_ox_shape *x,
				const struct ta_ox_shape *y)
{
	u32 i;

	if (x->rank > y->rank)
		return false;
	for (i = 0; i < x->rank; i++) {
		s64 dx = x->d[x->rank - 1 - i], dy = y->d[y->rank - 1 - i];

		if (dx != dy && dx != 1)
			return false;
	}
	return true;
}

/*
 * A known op whose shape input is computed at run time takes its output's
 * recorded shape: check of it what the op's rules still fix. A Reshape
 * keeps the element count, an Expand's output is a broadcast of its input,
 * a Tile's each dimension a multiple, a Slice's no larger, and the ops that
 * keep the rank keep it. Anything else of the recorded shape is trusted
 * (onnx.md).
 */
static int ta_ox_recorded_plausible(struct ta_ox *ox)
{
	static const char *const views[] = { "Reshape", "Squeeze",
					     "Unsqueeze" };
	static const char *const ranked[] = { "Resize", "Upsample", "Pad",
					      "Split", "Slice", "Tile" };
	struct ta_ox_node *nd = &ox->nd;
	struct ta_ox_value *x = ta_ox_in(ox, 0), *y;
	const char *op = nd->op_str, *why = NULL;
	char sx[160], sy[160];
	u32 i, k;

	if (!x || !ta_ox_op_find(nd))
		return 0;
	for (k = 0; k < nd->n_out && !why; k++) {
		if (nd->out[k] < 0)
			continue;
		y = &ox->v[nd->out[k]];
		for (i = 0; i < 3; i++)
			if (!strcmp(op, views[i]) &&
			    ta_ox_elems(&y->rec_dims) != ta_ox_elems(&x->shape))
				why = "not the input's element count";
		for (i = 0; i < 6; i++)
			if (!strcmp(op, ranked[i]) &&
			    y->rec_dims.rank != x->shape.rank)
				why = "not the input's rank";
		if (why)
			break;
		if (!strcmp(op, "Expand") &&
		    !ta_ox_broadcasts_to(&x->shape, &y->rec_dims))
			why = "not a broadcast of the input";
		for (i = 0; !why && i < x->shape.rank; i++) {
			s64 dx = x->shape.d[i], dy = y->rec_dims.d[i];

			if (!strcmp(op, "Slice") && dy > dx)
				why = "a dimension larger than the input's";
			if (!strcmp(op, "Tile") && (dx ? dy % dx : dy))
				why = "a dimension no multiple of the input's";
		}
	}
	if (!why)
		return 0;
	ta_ox_shape_str(&x->shape, sx, sizeof(sx));
	ta_ox_shape_str(&y->rec_dims, sy, sizeof(sy));
	return ta_ox_node_fail(ox, -EINVAL,
			       "the model records output %u as %s: %s (input 0 is %s; %s)",
			       k, sy, why, sx, ox->why);
}

/* Every output named has a complete recorded type and shape. */
static bool ta_ox_all_recorded(struct ta_ox *ox)
{
	struct ta_ox_node *nd = &ox->nd;
	u32 k;

	for (k = 0; k < nd->n_out; k++) {
		struct ta_ox_value *v;

		if (nd->out[k] < 0)
			continue;
		v = &ox->v[nd->out[k]];
		if (!v->rec || !v->rec_dtype || !v->rec_shape || v->rec_sym ||
		    !ta_ox_shape_ok(&v->rec_dims))
			return false;
	}
	return true;
}

static int ta_ox_node(struct ta_ox *ox, u32 i)
{
	struct ta_ox_node *nd = &ox->nd;
	const struct ta_ox_op *op;
	bool all_const = true;
	u32 k, named = 0;
	int ret = ta_ox_node_read(ox, i);

	if (ret)
		return ret;
	if (!nd->n_out)
		return ta_ox_node_fail(ox, -EINVAL, "no outputs");
	op = ta_ox_op_find(nd);
	ox->why[0] = 0;
	if (op) {
		ret = op->infer(ox);
	} else if (nd->domain.len && !ta_span_is(&nd->domain, "ai.onnx")) {
		char dom[64];

		ret = ta_ox_cannot(ox, "an op of domain '%s'",
				   ta_ox_print(&nd->domain, dom, sizeof(dom)));
	} else {
		ret = ta_ox_cannot(ox, "an op type this importer does not know");
	}
	if (ret == -EOPNOTSUPP) {
		if (!ta_ox_all_recorded(ox))
			return ta_ox_node_fail(ox, -EINVAL,
				"cannot infer the shape of its outputs (%s) and the model does not record them; ONNX shape inference (onnx.shape_inference.infer_shapes) would record the shapes in value_info",
				ox->why);
		ret = ta_ox_recorded_plausible(ox);
		if (ret)
			return ret;
		for (k = 0; k < nd->n_out; k++)
			if (nd->out[k] >= 0) {
				struct ta_ox_value *v = &ox->v[nd->out[k]];

				v->dtype = v->rec_dtype;
				v->shape = v->rec_dims;
			}
		ox->info->n_recorded++;
		op = NULL;
		ret = 0;
	}
	if (ret)
		return ret;
	for (k = 0; k < nd->n_out; k++)
		if (nd->out[k] >= 0) {
			ret = ta_ox_check_recorded(ox, (u32)nd->out[k],
						   op && op->kind == TA_OX_BOUND);
			if (ret)
				return ret;
		}
	/* folded: every input constant, no graph output, a known op */
	for (k = 0; k < nd->n_in; k++)
		if (nd->in[k] >= 0 && !ox->v[nd->in[k]].is_const)
			all_const = false;
	for (k = 0; k < nd->n_out; k++)
		if (nd->out[k] >= 0 && ox->v[nd->out[k]].is_output)
			all_const = false;
	nd->folded = all_const && op;
	for (k = 0; nd->folded && k < nd->n_out; k++)
		if (nd->out[k] >= 0)
			ox->v[nd->out[k]].is_const = true;
	if (!nd->folded)
		for (k = 0; k < nd->n_in + nd->n_out; k++)
			if (nd->in[k] >= 0)
				ox->v[nd->in[k]].used = true;
	for (k = 0; k < nd->n_out; k++)
		named += nd->out[k] >= 0;
	/*
	 * A view of input 0 whose output 0 has its size. Not of a constant:
	 * the output would share memory with a weight (and with
	 * --no-constants, input 0 would be another tensor).
	 */
	if (op && op->kind == TA_OX_VIEW && !nd->folded && named == 1 &&
	    nd->out[0] >= 0 && nd->n_in && nd->in[0] >= 0 &&
	    !ox->v[nd->in[0]].is_const) {
		struct ta_ox_value *a = &ox->v[nd->in[0]];
		struct ta_ox_value *b = &ox->v[nd->out[0]];

		nd->inplace = ta_ox_elems(&a->shape) *
			      ta_ox_type_bits(a->dtype, NULL) ==
			      ta_ox_elems(&b->shape) *
			      ta_ox_type_bits(b->dtype, NULL);
	}
	ox->folded[i] = nd->folded;
	ox->inplace[i] = nd->inplace;
	ox->op_names[i] = strdup(nd->op_str);
	if (!ox->op_names[i])
		return -ENOMEM;
	return 0;
}

/* ---- graph inputs, initializers, outputs, value_info ---- */

static int ta_ox_sources(struct ta_ox *ox)
{
	struct ta_ox_vinfo vi;
	struct ta_ox_tensor t;
	char nm[80];
	u32 i, idx;
	int ret;

	for (i = 0; i < ox->n_inits; i++) {
		ret = ta_ox_tensor(ox, &ox->inits[i], "initializer", &t);
		if (ret)
			return ret;
		if (!t.name.len)
			return ta_ox_fail(ox, -EINVAL, "initializer %u has no name", i);
		ret = ta_ox_value(ox, &t.name, &idx);
		if (ret)
			return ret;
		if (ox->v[idx].state != TA_OX_DECLARED)
			return ta_ox_fail(ox, -EINVAL, "initializer '%s' given twice",
					  ta_ox_print(&t.name, nm, sizeof(nm)));
		ox->v[idx].state = TA_OX_INITIALIZER;
		ox->v[idx].is_const = true;
		ox->v[idx].dtype = t.dtype;
		ox->v[idx].shape = t.shape;
		/* an empty tensor's values are known too: there are none */
		if (t.n_kept || !ta_ox_elems(&t.shape)) {
			ret = ta_ox_keep(&ox->v[idx], t.is_float ? NULL : t.iv,
					 t.is_float ? t.fv : NULL, t.n_kept);
			if (ret)
				return ret;
		}
	}
	for (i = 0; i < ox->n_inputs; i++) {
		struct ta_ox_value *v;
		u32 d;

		ret = ta_ox_vinfo(ox, &ox->inputs[i], &vi);
		if (ret)
			return ret;
		ret = ta_ox_value(ox, &vi.name, &idx);
		if (ret)
			return ret;
		v = &ox->v[idx];
		if (v->state == TA_OX_INITIALIZER)
			continue;	/* a constant (listed as an input before IR 4) */
		if (v->state != TA_OX_DECLARED)
			return ta_ox_fail(ox, -EINVAL, "graph input '%s' given twice",
					  ta_ox_print(&vi.name, nm, sizeof(nm)));
		if (!vi.name.len || !vi.has_type || !vi.has_shape)
			return ta_ox_fail(ox, -EINVAL,
					  "graph input '%s' has no tensor type and shape",
					  ta_ox_print(&vi.name, nm, sizeof(nm)));
		/* a symbolic dimension (a batch size) is taken as 1 */
		for (d = 0; d < vi.shape.rank; d++)
			if (vi.sym & (1U << d)) {
				vi.shape.d[d] = 1;
				ox->info->n_symbolic++;
			}
		if (!ta_ox_shape_ok(&vi.shape))
			return ta_ox_fail(ox, -EINVAL,
					  "graph input '%s': more than 2^36 elements",
					  ta_ox_print(&vi.name, nm, sizeof(nm)));
		v->state = TA_OX_GRAPH_INPUT;
		v->dtype = vi.dtype;
		v->shape = vi.shape;
	}
	/* recorded shapes: value_info, then the graph outputs */
	for (i = 0; i < ox->n_vinfos + ox->n_outputs; i++) {
		bool out = i >= ox->n_vinfos;
		struct ta_ox_value *v;

		ret = ta_ox_vinfo(ox, out ? &ox->outputs[i - ox->n_vinfos] :
				  &ox->vinfos[i], &vi);
		if (ret)
			return ret;
		if (!vi.name.len)
			return ta_ox_fail(ox, -EINVAL, "a %s without a name",
					  out ? "graph output" : "value_info entry");
		ret = ta_ox_value(ox, &vi.name, &idx);
		if (ret)
			return ret;
		v = &ox->v[idx];
		if (out && v->is_output)
			return ta_ox_fail(ox, -EINVAL, "graph output '%s' listed twice",
					  ta_ox_print(&vi.name, nm, sizeof(nm)));
		v->is_output |= out;
		if (v->state == TA_OX_GRAPH_INPUT ||
		    v->state == TA_OX_INITIALIZER)
			continue;
		if (!vi.has_type && !vi.has_shape)
			continue;
		v->rec = true;
		v->rec_dtype = vi.dtype;
		v->rec_shape = vi.has_shape;
		v->rec_dims = vi.shape;
		v->rec_sym = vi.sym;
	}
	return 0;
}

/* ---- the graph ---- */

/* A unique token for tensor @v: its name, cut and cleaned. */
static int ta_ox_ids(struct ta_ox *ox, struct ta_input *in)
{
	u32 n = in->graph.n_tensors, size = 16, *h, i, k, j;
	int ret = 0;

	while (size < 2 * n + 2)
		size *= 2;
	h = calloc(size, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (i = 0; i < ox->n_v; i++) {
		struct ta_ox_value *v = &ox->v[i];
		char id[TA_OX_MAX_ID + 16];
		struct ta_ox_span s;
		size_t base;

		if (v->index == U32_MAX)
			continue;
		ta_ox_token(&v->name, id, TA_OX_MAX_ID + 1);
		if (!strcmp(id, "->"))
			snprintf(id, sizeof(id), "_->");
		base = strlen(id);
		for (j = 0;; j++) {
			if (j)
				snprintf(id + base, sizeof(id) - base, "~%u", j);
			s.p = (const u8 *)id;
			s.len = strlen(id);
			for (k = ta_ox_fnv(&s) & (size - 1); h[k];
			     k = (k + 1) & (size - 1))
				if (!strcmp(in->ids[h[k] - 1], id))
					break;
			if (!h[k])
				break;
		}
		in->ids[v->index] = strdup(id);
		if (!in->ids[v->index]) {
			ret = -ENOMEM;
			break;
		}
		h[k] = v->index + 1;
	}
	free(h);
	return ret;
}

static int ta_ox_build(struct ta_ox *ox, struct ta_input *in)
{
	struct ta_onnx_info *info = ox->info;
	u32 nt = 0, i, k, nr = 0;
	char nm[80];
	int ret;

	for (i = 0; i < ox->n_v; i++) {
		struct ta_ox_value *v = &ox->v[i];

		if (v->is_output && v->state != TA_OX_PRODUCED)
			return ta_ox_fail(ox, -EINVAL,
					  "graph output '%s' is not computed by any node",
					  ta_ox_vname(ox, i, nm, sizeof(nm)));
		if (v->used)
			v->index = nt++;
	}
	if (nt > TA_PLAN_MAX_BUFFERS)
		return ta_ox_fail(ox, -E2BIG, "%u tensors: beyond the planner's limits",
				  nt);
	in->tensors = calloc(nt ? nt : 1, sizeof(*in->tensors));
	in->ids = calloc(nt ? nt : 1, sizeof(*in->ids));
	in->notes = calloc(nt ? nt : 1, sizeof(*in->notes));
	if (!in->tensors || !in->ids || !in->notes)
		return -ENOMEM;
	in->graph.n_tensors = nt;
	for (i = 0; i < ox->n_v; i++) {
		struct ta_ox_value *v = &ox->v[i];
		struct ta_graph_tensor *gt;
		const char *tname;
		char dims[TA_OX_MAX_RANK * 14 + 4];
		u32 bits;

		if (v->index == U32_MAX)
			continue;
		gt = &in->tensors[v->index];
		bits = ta_ox_type_bits(v->dtype, &tname);
		if (!bits)
			return ta_ox_fail(ox, -EINVAL,
					  "tensor '%s': element type %s (%u) has no fixed size",
					  ta_ox_vname(ox, i, nm, sizeof(nm)),
					  tname, v->dtype);
		gt->size = (ta_ox_elems(&v->shape) * bits + 7) / 8;
		gt->align = TA_OX_ALIGN;
		if (v->state == TA_OX_GRAPH_INPUT)
			gt->flags |= TA_TENSOR_INPUT;
		if (v->is_output)
			gt->flags |= TA_TENSOR_OUTPUT;
		if (v->is_const)
			gt->flags |= TA_TENSOR_CONSTANT;
		ta_ox_shape_str(&v->shape, dims, sizeof(dims));
		in->notes[v->index] = malloc(strlen(tname) + strlen(dims) + 32);
		if (!in->notes[v->index])
			return -ENOMEM;
		sprintf(in->notes[v->index], "%s %s%s", tname, dims,
			v->state == TA_OX_INITIALIZER ? " initializer" :
			v->is_const ? " folded" : "");
		info->naive_bytes += gt->size;
		if (v->is_const) {
			info->n_constants++;
			info->constant_bytes += gt->size;
		}
	}
	ret = ta_ox_ids(ox, in);
	if (ret)
		return ret;
	/* ops: a folded node reads and writes nothing */
	for (i = 0; i < ox->n_nodes; i++)
		if (!ox->folded[i])
			for (k = 0; k < ox->node_n_in[i] + ox->node_n_out[i]; k++)
				nr += ox->node_refs[ox->node_ref_start[i] + k] >= 0;
	in->ops = calloc(ox->n_nodes ? ox->n_nodes : 1, sizeof(*in->ops));
	in->refs = calloc(nr ? nr : 1, sizeof(*in->refs));
	if (!in->ops || !in->refs)
		return -ENOMEM;
	in->op_names = ox->op_names;
	ox->op_names = NULL;
	in->graph.n_ops = ox->n_nodes;
	nr = 0;
	for (i = 0; i < ox->n_nodes; i++) {
		struct ta_graph_op *op = &in->ops[i];
		const s32 *r = ox->node_refs + ox->node_ref_start[i];

		op->first_ref = nr;
		if (ox->folded[i]) {
			info->n_folded++;
			continue;
		}
		for (k = 0; k < ox->node_n_in[i] + ox->node_n_out[i]; k++) {
			if (r[k] < 0)
				continue;
			in->refs[nr++] = ox->v[r[k]].index;
			if (k < ox->node_n_in[i])
				op->n_inputs++;
			else
				op->n_outputs++;
		}
		if (ox->inplace[i]) {
			op->flags = TA_OP_INPLACE;
			info->n_inplace++;
		}
	}
	in->graph.n_refs = nr;
	info->n_tensors = nt;
	return 0;
}

static void ta_ox_free(struct ta_ox *ox)
{
	u32 i;

	for (i = 0; i < ox->n_v; i++) {
		free(ox->v[i].iv);
		free(ox->v[i].fv);
	}
	if (ox->op_names)
		for (i = 0; i < ox->n_nodes; i++)
			free(ox->op_names[i]);
	free(ox->op_names);
	free(ox->v);
	free(ox->hash);
	free(ox->nodes);
	free(ox->inits);
	free(ox->inputs);
	free(ox->outputs);
	free(ox->vinfos);
	free(ox->folded);
	free(ox->inplace);
	free(ox->node_ref_start);
	free(ox->node_n_in);
	free(ox->node_n_out);
	free(ox->node_refs);
}

static int ta_ox_run(struct ta_ox *ox, struct ta_input *in)
{
	struct ta_ox_span graph = { 0 };
	u32 i, n;
	int ret = ta_ox_model(ox, &graph);

	if (!ret)
		ret = ta_ox_graph_fields(ox, &graph);
	if (ret)
		return ret;
	ox->info->n_nodes = ox->n_nodes;
	ox->info->n_initializers = ox->n_inits;
	ox->info->n_value_info = ox->n_vinfos;
	ox->info->n_graph_outputs = ox->n_outputs;
	ret = ta_ox_rehash(ox, 1024);
	if (ret)
		return ret;
	ret = ta_ox_sources(ox);
	if (ret)
		return ret;
	for (i = 0; i < ox->n_v; i++)
		ox->info->n_graph_inputs += ox->v[i].state == TA_OX_GRAPH_INPUT;
	n = ox->n_nodes ? ox->n_nodes : 1;
	ox->folded = calloc(n, sizeof(*ox->folded));
	ox->inplace = calloc(n, sizeof(*ox->inplace));
	ox->op_names = calloc(n, sizeof(*ox->op_names));
	ox->node_ref_start = calloc(n, sizeof(*ox->node_ref_start));
	ox->node_n_in = calloc(n, sizeof(*ox->node_n_in));
	ox->node_n_out = calloc(n, sizeof(*ox->node_n_out));
	if (!ox->folded || !ox->inplace || !ox->op_names ||
	    !ox->node_ref_start || !ox->node_n_in || !ox->node_n_out)
		return -ENOMEM;
	for (i = 0; i < ox->n_nodes; i++) {
		ret = ta_ox_node(ox, i);
		if (ret)
			return ret;
	}
	return ta_ox_build(ox, in);
}

/**
 * ta_onnx_parse() - read an ONNX model held in memory
 * @data: the file's bytes
 * @len: how many
 * @name: the file's name, for messages
 * @in: out; a graph-form problem; free with ta_input_free()
 * @info: out, figures about the model, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: 0; -EINVAL for a corrupt file or one this reader cannot plan
 * (with a message "FILE: node N (name, OpType): what" for a node);
 * -E2BIG beyond the limits; -ENOMEM.
 */
int ta_onnx_parse(const void *data, size_t len, const char *name,
		  struct ta_input *in, struct ta_onnx_info *info, char *err,
		  size_t errlen)
{
	struct ta_onnx_info dummy;
	struct ta_ox *ox;
	int ret;

	memset(in, 0, sizeof(*in));
	if (err && errlen)
		err[0] = 0;
	in->is_graph = true;
	info = info ? info : &dummy;
	memset(info, 0, sizeof(*info));
	if ((u64)len >= TA_OX_MAX_FILE) {
		snprintf(err, errlen, "%s: file larger than 2 GiB", name);
		return -E2BIG;
	}
	ox = calloc(1, sizeof(*ox));
	if (!ox) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	ox->base = data;
	ox->n = len;
	ox->path = name;
	ox->err = err;
	ox->errlen = errlen;
	ox->info = info;
	ret = ta_ox_run(ox, in);
	ta_ox_free(ox);
	free(ox);
	if (ret == -ENOMEM && err && errlen && !err[0])
		snprintf(err, errlen, "%s: out of memory", name);
	if (ret)
		goto fail;
	ret = ta_input_finish_graph(in, name,
				    "a node writes a graph input or a tensor twice",
				    err, errlen);
	if (!ret)
		return 0;
fail:
	ta_input_free(in);
	return ret;
}

/**
 * ta_onnx_read() - read an ONNX model file
 * @path: the file
 * @in: out; free with ta_input_free()
 * @info: out, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: as ta_onnx_parse(), or -errno from the file system.
 */
int ta_onnx_read(const char *path, struct ta_input *in,
		 struct ta_onnx_info *info, char *err, size_t errlen)
{
	size_t len;
	char *data = ta_slurp(path, &len);
	int ret;

	if (!data) {
		ret = -errno;
		memset(in, 0, sizeof(*in));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	ret = ta_onnx_parse(data, len, path, in, info, err, errlen);
	free(data);
	return ret;
}

/**
 * ta_is_onnx_name() - does a file name end in ".onnx" (any case)?
 * @path: the file name
 *
 * A protobuf message has no magic number: the name is all there is.
 */
bool ta_is_onnx_name(const char *path)
{
	size_t l = strlen(path);

	return l >= 5 && !strcasecmp(path + l - 5, ".onnx");
}
