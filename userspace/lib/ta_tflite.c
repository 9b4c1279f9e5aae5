// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite.c - read a TensorFlow Lite model (.tflite) as a graph.
 *
 * A .tflite file is a FlatBuffer with the file identifier "TFL3" at bytes
 * 4..7. It is read here directly, by hand, from the TFLite schema's field
 * numbers (no flatc, no generated code), and every read is checked against
 * the file size first: a root offset, a table's vtable, a field, an offset
 * to a vector or string, a vector's length and every index the model holds
 * (tensor, buffer, operator code). A corrupt file is -EINVAL with a message,
 * never a read outside the file.
 *
 * What is read (see Documentation/tflite.md):
 *
 *	Model     1 operator_codes  2 subgraphs  4 buffers
 *	SubGraph  0 tensors  1 inputs  2 outputs  3 operators
 *	Tensor    0 shape  1 type  2 buffer  3 name  5 is_variable
 *	Operator  0 opcode_index  1 inputs  2 outputs   (-1 = optional input)
 *	OperatorCode  0 deprecated_builtin_code  1 custom_code  3 builtin_code
 *	Buffer    0 data  2 size  (data in the file, or beyond it)
 *
 * Only subgraph 0 is planned (the main graph; other subgraphs are bodies of
 * control-flow ops). The graph has one tensor per TFLite tensor that an op
 * references, in TFLite index order, with the TFLite index as its id; the
 * ops in execution order. Flags: a tensor whose buffer holds data is
 * constant, an is_variable tensor persistent, the subgraph's inputs and
 * outputs input and output. Sizes are the product of the shape times the
 * element size; every tensor is 64-byte aligned (TFLite's
 * kDefaultTensorAlignment, which its interpreter checks for the buffers it
 * is handed; TFLite Micro's arena aligns to 16). tactl --align changes it
 * (ta_input_retune()).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"

#define TA_TFL_ALIGN		64
#define TA_TFL_MAX_FILE		(1ULL << 31)	/* FlatBuffers' own limit */
#define TA_TFL_MAX_DIMS		16
/* Elements of one tensor: 2^36 x 16 bytes = 1 TiB; sums stay below 2^61. */
#define TA_TFL_MAX_ELEMS	(1ULL << 36)
/* Op references; tables may share vectors, so bound them explicitly. */
#define TA_TFL_MAX_REFS		(1U << 24)

/* TFLite schema field numbers (vtable slots). */
enum {
	TA_MODEL_OPCODES = 1, TA_MODEL_SUBGRAPHS = 2, TA_MODEL_BUFFERS = 4,
	TA_SG_TENSORS = 0, TA_SG_INPUTS = 1, TA_SG_OUTPUTS = 2, TA_SG_OPS = 3,
	TA_T_SHAPE = 0, TA_T_TYPE = 1, TA_T_BUFFER = 2, TA_T_NAME = 3,
	TA_T_VARIABLE = 5,
	TA_OP_OPCODE = 0, TA_OP_INPUTS = 1, TA_OP_OUTPUTS = 2,
	TA_OC_DEPRECATED = 0, TA_OC_CUSTOM = 1, TA_OC_BUILTIN = 3,
	TA_BUF_DATA = 0, TA_BUF_SIZE = 2,
};

/* struct ta_fb - the file and where to report */
struct ta_fb {
	const u8 *p;
	u64 n;
	const char *path;
	char *err;
	size_t errlen;
};

/* A table: its position, its vtable and the sizes both declare. */
struct ta_fbt {
	u64 pos;
	u64 vt;
	u32 vtsize;
	u32 tsize;
};

/* A vector: its element count and where element 0 starts. */
struct ta_fbv {
	u64 len;
	u64 data;
};

static int ta_fb_bad(struct ta_fb *fb, u64 at, const char *what)
{
	ta_err(fb->err, fb->errlen, fb->path, 0,
	       "corrupt TFLite file at byte %llu: %s",
	       (unsigned long long)at, what);
	return -EINVAL;
}

static bool ta_fb_in(const struct ta_fb *fb, u64 pos, u64 len)
{
	return pos <= fb->n && len <= fb->n - pos;
}

static u32 ta_fb_u32(const struct ta_fb *fb, u64 pos)
{
	const u8 *b = fb->p + pos;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static u16 ta_fb_u16(const struct ta_fb *fb, u64 pos)
{
	return (u16)(fb->p[pos] | fb->p[pos + 1] << 8);
}

static u64 ta_fb_u64(const struct ta_fb *fb, u64 pos)
{
	return (u64)ta_fb_u32(fb, pos) | (u64)ta_fb_u32(fb, pos + 4) << 32;
}

/* Follow the uoffset stored at @pos. */
static int ta_fb_deref(struct ta_fb *fb, u64 pos, u64 *to)
{
	if (!ta_fb_in(fb, pos, 4))
		return ta_fb_bad(fb, pos, "offset beyond the end");
	*to = pos + ta_fb_u32(fb, pos);
	if (!ta_fb_in(fb, *to, 4))
		return ta_fb_bad(fb, pos, "offset points beyond the end");
	return 0;
}

/* The table at @pos: check its vtable and its extent. */
static int ta_fb_table(struct ta_fb *fb, u64 pos, struct ta_fbt *t)
{
	s64 vt;

	if (!ta_fb_in(fb, pos, 4))
		return ta_fb_bad(fb, pos, "table beyond the end");
	vt = (s64)pos - (s64)(s32)ta_fb_u32(fb, pos);
	if (vt < 0 || !ta_fb_in(fb, (u64)vt, 4))
		return ta_fb_bad(fb, pos, "vtable outside the file");
	t->pos = pos;
	t->vt = (u64)vt;
	t->vtsize = ta_fb_u16(fb, t->vt);
	t->tsize = ta_fb_u16(fb, t->vt + 2);
	if (t->vtsize < 4 || (t->vtsize & 1) || !ta_fb_in(fb, t->vt, t->vtsize))
		return ta_fb_bad(fb, t->vt, "bad vtable size");
	if (t->tsize < 4 || !ta_fb_in(fb, pos, t->tsize))
		return ta_fb_bad(fb, pos, "table runs past the end");
	return 0;
}

/*
 * Field @id of table @t, @size bytes: its position in *@at, or 0 when the
 * field is absent (default value). -EINVAL when it does not fit the table.
 */
static int ta_fb_field(struct ta_fb *fb, const struct ta_fbt *t, u32 id,
		       u32 size, u64 *at)
{
	u32 slot = 4 + 2 * id, fo;

	*at = 0;
	if (slot + 2 > t->vtsize)
		return 0;
	fo = ta_fb_u16(fb, t->vt + slot);
	if (!fo)
		return 0;
	if (fo < 4 || (u64)fo + size > t->tsize)
		return ta_fb_bad(fb, t->vt + slot, "field outside its table");
	*at = t->pos + fo;
	return 0;
}

static int ta_fb_scalar(struct ta_fb *fb, const struct ta_fbt *t, u32 id,
			u32 size, u64 def, u64 *v)
{
	u64 at;
	int ret = ta_fb_field(fb, t, id, size, &at);

	if (ret)
		return ret;
	if (!at)
		*v = def;
	else if (size == 1)
		*v = fb->p[at];
	else if (size == 4)
		*v = ta_fb_u32(fb, at);
	else
		*v = ta_fb_u64(fb, at);
	return 0;
}

/* Vector field @id of @t with @esize-byte elements; absent = empty. */
static int ta_fb_vector(struct ta_fb *fb, const struct ta_fbt *t, u32 id,
			u32 esize, struct ta_fbv *v)
{
	u64 at, pos;
	int ret = ta_fb_field(fb, t, id, 4, &at);

	v->len = 0;
	v->data = 0;
	if (ret || !at)
		return ret;
	ret = ta_fb_deref(fb, at, &pos);
	if (ret)
		return ret;
	v->len = ta_fb_u32(fb, pos);
	v->data = pos + 4;
	if (!ta_fb_in(fb, v->data, v->len * esize))
		return ta_fb_bad(fb, pos, "vector runs past the end");
	return 0;
}

/* Element @i of a vector of tables. */
static int ta_fb_vtable(struct ta_fb *fb, const struct ta_fbv *v, u64 i,
			struct ta_fbt *t)
{
	u64 pos;
	int ret = ta_fb_deref(fb, v->data + 4 * i, &pos);

	return ret ? ret : ta_fb_table(fb, pos, t);
}

/* ---- the TFLite schema's enums ---- */

/* Element size of TensorType @type, bits (INT4 is packed two per byte). */
static u32 ta_tfl_type_bits(u64 type, const char **name)
{
	static const struct { const char *name; u32 bits; } types[] = {
		[0] = { "FLOAT32", 32 },	[1] = { "FLOAT16", 16 },
		[2] = { "INT32", 32 },		[3] = { "UINT8", 8 },
		[4] = { "INT64", 64 },		[5] = { "STRING", 0 },
		[6] = { "BOOL", 8 },		[7] = { "INT16", 16 },
		[8] = { "COMPLEX64", 64 },	[9] = { "INT8", 8 },
		[10] = { "FLOAT64", 64 },	[11] = { "COMPLEX128", 128 },
		[12] = { "UINT64", 64 },	[13] = { "RESOURCE", 0 },
		[14] = { "VARIANT", 0 },	[15] = { "UINT32", 32 },
		[16] = { "UINT16", 16 },	[17] = { "INT4", 4 },
		[18] = { "BFLOAT16", 16 },
	};

	if (type >= sizeof(types) / sizeof(types[0])) {
		*name = "unknown";
		return 0;
	}
	*name = types[type].name;
	return types[type].bits;
}

static const char *const ta_tfl_builtins[] = {
	"ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D",
	"DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE",
	"EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
	"L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
	"LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU",
	"RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN",
	"SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS",
	"SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
	"UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND",
	"SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE",
	"UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE",
	"BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT",
	"LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST",
	"PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2",
	"GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE", "SIN",
	"TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
	"NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN",
	"FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR",
	"ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN",
	"FLOOR_DIV",
	"REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE",
	"RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
	"MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2",
	"ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU",
	"REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG",
	"ROUND", "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4",
	"NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY",
	"SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES",
	"CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG",
	"REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
	"HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL",
	"CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
	"BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE",
	"RANDOM_UNIFORM", "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE",
	"RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
	"UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN",
	"BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
};

/**
 * ta_tflite_op_name() - a TFLite builtin operator's name
 * @code: BuiltinOperator value
 *
 * Return: e.g. "CONV_2D", or NULL for a code this table does not know.
 */
const char *ta_tflite_op_name(u32 code)
{
	if (code >= sizeof(ta_tfl_builtins) / sizeof(ta_tfl_builtins[0]))
		return NULL;
	return ta_tfl_builtins[code];
}

/* A token without whitespace or control characters, for names. */
static char *ta_tfl_token(const struct ta_fb *fb, u64 pos, u64 len,
			  size_t max)
{
	char *s;
	u64 i;

	if (len > max)
		len = max;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	for (i = 0; i < len; i++) {
		u8 c = fb->p[pos + i];

		s[i] = c <= ' ' || c >= 0x7f || c == '#' ? '_' : (char)c;
	}
	s[len] = 0;
	return s;
}

/* ---- the model ---- */

struct ta_tfl_tensor {
	u64 size;
	u32 flags;
	u32 new_index;		/* in the graph, or U32_MAX when unused */
	char *note;
};

struct ta_tfl {
	struct ta_fb fb;
	struct ta_fbv opcodes, buffers, tensors, ops;
	struct ta_tfl_tensor *t;
	struct ta_tflite_info *info;
};

static int ta_tfl_tensor(struct ta_tfl *m, u32 i)
{
	struct ta_fb *fb = &m->fb;
	struct ta_tfl_tensor *tt = &m->t[i];
	struct ta_fbt t, b;
	struct ta_fbv shape, name, data;
	u64 type, buf, var, elems = 1, bytes, extsize, k;
	const char *tname;
	char dims[TA_TFL_MAX_DIMS * 12 + 4], *nm;
	size_t dl = 0;
	u32 bits;
	int ret;

	ret = ta_fb_vtable(fb, &m->tensors, i, &t);
	if (!ret)
		ret = ta_fb_vector(fb, &t, TA_T_SHAPE, 4, &shape);
	if (!ret)
		ret = ta_fb_scalar(fb, &t, TA_T_TYPE, 1, 0, &type);
	if (!ret)
		ret = ta_fb_scalar(fb, &t, TA_T_BUFFER, 4, 0, &buf);
	if (!ret)
		ret = ta_fb_vector(fb, &t, TA_T_NAME, 1, &name);
	if (!ret)
		ret = ta_fb_scalar(fb, &t, TA_T_VARIABLE, 1, 0, &var);
	if (ret)
		return ret;
	if (shape.len > TA_TFL_MAX_DIMS)
		return ta_fb_bad(fb, t.pos, "tensor of more than 16 dimensions");
	dims[dl++] = '[';
	for (k = 0; k < shape.len; k++) {
		s32 d = (s32)ta_fb_u32(fb, shape.data + 4 * k);

		if (d < 0) {
			ta_err(fb->err, fb->errlen, fb->path, 0,
			       "tensor %u: dynamic dimension %d (shapes must be static)",
			       i, d);
			return -EINVAL;
		}
		if (d && elems > TA_TFL_MAX_ELEMS / (u64)d)
			return ta_fb_bad(fb, t.pos, "tensor too large");
		elems *= (u64)d;
		dl += snprintf(dims + dl, sizeof(dims) - dl, "%s%d",
			       k ? "," : "", d);
	}
	dims[dl++] = ']';
	dims[dl] = 0;
	bits = ta_tfl_type_bits(type, &tname);
	if (!bits) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "tensor %u: element type %s (%llu) has no fixed size",
		       i, tname, (unsigned long long)type);
		return -EINVAL;
	}
	bytes = (elems * bits + 7) / 8;
	tt->size = bytes;
	tt->new_index = U32_MAX;
	if (var)
		tt->flags |= TA_TENSOR_PERSISTENT;
	if (buf >= m->buffers.len && !(buf == 0 && m->buffers.len == 0))
		return ta_fb_bad(fb, t.pos, "tensor's buffer index out of range");
	if (buf) {
		/* buffer 0 is the empty sentinel by convention */
		ret = ta_fb_vtable(fb, &m->buffers, buf, &b);
		if (!ret)
			ret = ta_fb_vector(fb, &b, TA_BUF_DATA, 1, &data);
		if (!ret)
			ret = ta_fb_scalar(fb, &b, TA_BUF_SIZE, 8, 0, &extsize);
		if (ret)
			return ret;
		/* a variable's data is its initial value: still variable */
		if ((data.len || extsize) && !var)
			tt->flags |= TA_TENSOR_CONSTANT;
	}
	nm = ta_tfl_token(fb, name.data, name.len, 200);
	if (!nm)
		return -ENOMEM;
	tt->note = malloc(strlen(nm) + strlen(dims) + 32);
	if (tt->note)
		sprintf(tt->note, "%s %s%s%s", tname, dims, *nm ? " " : "", nm);
	free(nm);
	return tt->note ? 0 : -ENOMEM;
}

/* Mark subgraph inputs or outputs with @flag. */
static int ta_tfl_io(struct ta_tfl *m, const struct ta_fbt *sg, u32 id,
		     u32 flag)
{
	struct ta_fbv v;
	u64 k;
	int ret = ta_fb_vector(&m->fb, sg, id, 4, &v);

	if (ret)
		return ret;
	for (k = 0; k < v.len; k++) {
		s32 x = (s32)ta_fb_u32(&m->fb, v.data + 4 * k);

		if (x < 0 || (u64)x >= m->tensors.len)
			return ta_fb_bad(&m->fb, v.data + 4 * k,
					 "subgraph input/output index out of range");
		m->t[x].flags |= flag;
	}
	return 0;
}

/* The name of op @i: its builtin or custom code. */
static int ta_tfl_op_name(struct ta_tfl *m, u64 opcode, char **out)
{
	struct ta_fb *fb = &m->fb;
	struct ta_fbt oc;
	struct ta_fbv custom;
	u64 dep, code;
	const char *n;
	char tmp[32];
	int ret;

	if (opcode >= m->opcodes.len)
		return ta_fb_bad(fb, 0, "operator's opcode_index out of range");
	ret = ta_fb_vtable(fb, &m->opcodes, opcode, &oc);
	if (!ret)
		ret = ta_fb_scalar(fb, &oc, TA_OC_DEPRECATED, 1, 0, &dep);
	if (!ret)
		ret = ta_fb_scalar(fb, &oc, TA_OC_BUILTIN, 4, 0, &code);
	if (!ret)
		ret = ta_fb_vector(fb, &oc, TA_OC_CUSTOM, 1, &custom);
	if (ret)
		return ret;
	/* as TFLite's GetBuiltinCode(): the larger of the two fields */
	dep = (u64)(s64)(int8_t)dep;
	if ((s64)dep > (s64)(s32)code)
		code = dep;
	if (code == 32 && custom.len) {	/* CUSTOM */
		*out = ta_tfl_token(fb, custom.data, custom.len, 64);
		return *out ? 0 : -ENOMEM;
	}
	n = ta_tflite_op_name((u32)code);
	if (!n) {
		snprintf(tmp, sizeof(tmp), "BUILTIN_%u", (u32)code);
		n = tmp;
	}
	*out = strdup(n);
	return *out ? 0 : -ENOMEM;
}

/* Count one reference and remember it in @refs (grown as needed). */
struct ta_tfl_refs {
	u32 *v;
	u32 n, cap;
};

static int ta_tfl_ref(struct ta_tfl_refs *r, u32 t)
{
	if (r->n >= TA_TFL_MAX_REFS)
		return -E2BIG;
	if (r->n == r->cap) {
		u32 c = r->cap ? r->cap * 2 : 256;
		u32 *nv;
		nv = realloc(r->v, (size_t)c * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = c;
	}
	r->v[r->n++] = t;
	return 0;
}

/* Op @i's inputs or outputs: TFLite indices into @r, -1 skipped. */
static int ta_tfl_op_list(struct ta_tfl *m, const struct ta_fbt *op, u32 id,
			  struct ta_tfl_refs *r, u32 *count)
{
	struct ta_fbv v;
	u64 k;
	int ret = ta_fb_vector(&m->fb, op, id, 4, &v);

	*count = 0;
	if (ret)
		return ret;
	for (k = 0; k < v.len; k++) {
		s32 x = (s32)ta_fb_u32(&m->fb, v.data + 4 * k);

		if (x == -1 && id == TA_OP_INPUTS)
			continue;		/* an optional input left out */
		if (x < 0 || (u64)x >= m->tensors.len)
			return ta_fb_bad(&m->fb, v.data + 4 * k,
					 "operator's tensor index out of range");
		ret = ta_tfl_ref(r, (u32)x);
		if (ret)
			return ret;
		(*count)++;
	}
	return 0;
}

static int ta_tfl_build(struct ta_tfl *m, struct ta_input *in)
{
	struct ta_fb *fb = &m->fb;
	struct ta_fbt root, sg;
	struct ta_fbv subgraphs;
	struct ta_tfl_refs refs = { 0 };
	u64 rootpos, i;
	u32 nt = 0;
	int ret;

	if (fb->n < 8 || memcmp(fb->p + 4, "TFL3", 4))
		return ta_fb_bad(fb, 4, "no TFL3 identifier at bytes 4..7");
	ret = ta_fb_deref(fb, 0, &rootpos);
	if (!ret)
		ret = ta_fb_table(fb, rootpos, &root);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_OPCODES, 4, &m->opcodes);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_SUBGRAPHS, 4, &subgraphs);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_BUFFERS, 4, &m->buffers);
	if (ret)
		return ret;
	if (!subgraphs.len)
		return ta_fb_bad(fb, rootpos, "model without a subgraph");
	m->info->n_subgraphs = (u32)subgraphs.len;
	ret = ta_fb_vtable(fb, &subgraphs, 0, &sg);
	if (!ret)
		ret = ta_fb_vector(fb, &sg, TA_SG_TENSORS, 4, &m->tensors);
	if (!ret)
		ret = ta_fb_vector(fb, &sg, TA_SG_OPS, 4, &m->ops);
	if (ret)
		return ret;
	/* the vectors fit in the file, so these counts are < 2^29 */
	if (m->tensors.len > TA_PLAN_MAX_BUFFERS ||
	    m->ops.len > TA_PLAN_MAX_STEPS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%llu tensors, %llu operators: beyond the planner's limits",
		       (unsigned long long)m->tensors.len,
		       (unsigned long long)m->ops.len);
		return -E2BIG;
	}
	m->info->n_tensors = (u32)m->tensors.len;
	m->info->n_ops = (u32)m->ops.len;
	m->t = calloc(m->tensors.len ? m->tensors.len : 1, sizeof(*m->t));
	if (!m->t)
		return -ENOMEM;
	for (i = 0; i < m->tensors.len; i++) {
		ret = ta_tfl_tensor(m, (u32)i);
		if (ret)
			return ret;
	}
	ret = ta_tfl_io(m, &sg, TA_SG_INPUTS, TA_TENSOR_INPUT);
	if (!ret)
		ret = ta_tfl_io(m, &sg, TA_SG_OUTPUTS, TA_TENSOR_OUTPUT);
	if (ret)
		return ret;

	/* the ops, with TFLite tensor indices for now */
	in->ops = calloc(m->ops.len ? m->ops.len : 1, sizeof(*in->ops));
	in->op_names = calloc(m->ops.len ? m->ops.len : 1,
			      sizeof(*in->op_names));
	if (!in->ops || !in->op_names)
		return -ENOMEM;
	in->graph.n_ops = (u32)m->ops.len;	/* ta_input_free() frees names */
	for (i = 0; i < m->ops.len; i++) {
		struct ta_graph_op *op = &in->ops[i];
		struct ta_fbt o;
		u64 opcode;

		ret = ta_fb_vtable(fb, &m->ops, i, &o);
		if (!ret)
			ret = ta_fb_scalar(fb, &o, TA_OP_OPCODE, 4, 0, &opcode);
		if (!ret)
			ret = ta_tfl_op_name(m, opcode, &in->op_names[i]);
		op->first_ref = refs.n;
		if (!ret)
			ret = ta_tfl_op_list(m, &o, TA_OP_INPUTS, &refs,
					     &op->n_inputs);
		if (!ret)
			ret = ta_tfl_op_list(m, &o, TA_OP_OUTPUTS, &refs,
					     &op->n_outputs);
		if (ret)
			goto out;
	}
	in->refs = refs.v;
	refs.v = NULL;
	in->graph.n_refs = refs.n;

	/* keep the tensors the ops reference, in TFLite order */
	for (i = 0; i < refs.n; i++)
		m->t[in->refs[i]].new_index = 0;
	in->tensors = calloc(m->tensors.len ? m->tensors.len : 1,
			     sizeof(*in->tensors));
	in->ids = calloc(m->tensors.len ? m->tensors.len : 1,
			 sizeof(*in->ids));
	in->notes = calloc(m->tensors.len ? m->tensors.len : 1,
			   sizeof(*in->notes));
	if (!in->tensors || !in->ids || !in->notes) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < m->tensors.len; i++) {
		struct ta_tfl_tensor *tt = &m->t[i];
		char id[16];

		if (tt->new_index == U32_MAX)
			continue;
		tt->new_index = nt;
		in->tensors[nt].size = tt->size;
		in->tensors[nt].align = TA_TFL_ALIGN;
		in->tensors[nt].flags = tt->flags;
		snprintf(id, sizeof(id), "%u", (u32)i);
		in->ids[nt] = strdup(id);
		in->notes[nt] = tt->note;
		tt->note = NULL;
		in->graph.n_tensors = ++nt;
		if (!in->ids[nt - 1]) {
			ret = -ENOMEM;
			goto out;
		}
		m->info->naive_bytes += tt->size;
		if (tt->flags & TA_TENSOR_CONSTANT) {
			m->info->n_constants++;
			m->info->constant_bytes += tt->size;
		}
		if (tt->flags & TA_TENSOR_PERSISTENT) {
			m->info->n_variables++;
			m->info->variable_bytes += tt->size;
		}
	}
	for (i = 0; i < in->graph.n_refs; i++)
		in->refs[i] = m->t[in->refs[i]].new_index;
	m->info->n_used = nt;
out:
	free(refs.v);
	return ret;
}

/**
 * ta_tflite_parse() - read a TFLite model held in memory
 * @data: the file's bytes
 * @len: how many
 * @name: the file's name, for messages
 * @in: out; a graph-form problem; free with ta_input_free()
 * @info: out, figures about the model, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: 0; -EINVAL for a corrupt file or one this reader cannot plan
 * (dynamic shapes, a type without a fixed size, a graph that
 * ta_graph_lifetimes() rejects); -E2BIG beyond the limits; -ENOMEM.
 */
int ta_tflite_parse(const void *data, size_t len, const char *name,
		    struct ta_input *in, struct ta_tflite_info *info,
		    char *err, size_t errlen)
{
	struct ta_tflite_info dummy;
	struct ta_tfl m = {
		.fb = { .p = data, .n = len, .path = name, .err = err,
			.errlen = errlen },
		.info = info ? info : &dummy,
	};
	u64 i;
	int ret;

	memset(in, 0, sizeof(*in));
	memset(m.info, 0, sizeof(*m.info));
	if (err && errlen)
		err[0] = 0;
	in->is_graph = true;
	if ((u64)len >= TA_TFL_MAX_FILE) {
		ta_err(err, errlen, name, 0, "file larger than 2 GiB");
		return -E2BIG;
	}
	ret = ta_tfl_build(&m, in);
	if (m.t)
		for (i = 0; i < m.tensors.len; i++)
			free(m.t[i].note);
	free(m.t);
	if (ret == -ENOMEM)
		ta_err(err, errlen, name, 0, "out of memory");
	else if (ret == -E2BIG && !(err && errlen && err[0]))
		ta_err(err, errlen, name, 0,
		       "more than %u operator references", TA_TFL_MAX_REFS);
	if (ret)
		goto fail;
	ret = ta_input_finish_graph(in, name,
				    "subgraph 0: a tensor written twice, read before written, or a written input/constant",
				    err, errlen);
	if (!ret)
		return 0;
fail:
	ta_input_free(in);
	return ret;
}

/**
 * ta_tflite_read() - read a TFLite model file
 * @path: the file
 * @in: out; free with ta_input_free()
 * @info: out, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: as ta_tflite_parse(), or -errno from the file system.
 */
int ta_tflite_read(const char *path, struct ta_input *in,
		   struct ta_tflite_info *info, char *err, size_t errlen)
{
	size_t len;
	char *data = ta_slurp(path, &len);
	int ret;

	if (!data) {
		ret = -errno;
		memset(in, 0, sizeof(*in));
		ta_err(err, errlen, path, 0, "%s", strerror(errno));
		return ret;
	}
	ret = ta_tflite_parse(data, len, path, in, info, err, errlen);
	free(data);
	return ret;
}
