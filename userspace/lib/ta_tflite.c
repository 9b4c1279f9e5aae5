// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite.c - read a TensorFlow Lite model (.tflite) as a graph.
 *
 * A .tflite file is a FlatBuffer with the file identifier "TFL3" at bytes
 * 4..7. It is read here directly, by hand, from the TFLite schema's field
 * numbers (no flatc, no generated code), and every read is checked against
 * the file size first: a root offset, a table's vtable, a field, an offset
 * to a vector or string, a vector's length and every index the model holds
 * (tensor, buffer, operator code, subgraph). A corrupt file is -EINVAL with
 * a message, never a read outside the file.
 *
 * What is read (see Documentation/tflite.md):
 *
 *	Model     1 operator_codes  2 subgraphs  4 buffers  6 metadata
 *	SubGraph  0 tensors  1 inputs  2 outputs  3 operators
 *	Tensor    0 shape  1 type  2 buffer  3 name  5 is_variable
 *	Operator  0 opcode_index  1 inputs  2 outputs   (-1 = optional input)
 *		  3, 4 builtin_options (IfOptions, WhileOptions, CallOnceOptions)
 *	OperatorCode  0 deprecated_builtin_code  1 custom_code  3 builtin_code
 *	Buffer    0 data  2 size  (data in the file, or beyond it)
 *	Metadata  0 name  1 buffer  ("OfflineMemoryAllocation" only)
 *
 * The graph is subgraph 0, the main graph, with every subgraph it calls
 * (IF, WHILE, CALL_ONCE, recursively) inlined at the calling op between a
 * begin and an end op that keep the call's tensors live as TFLite runs
 * them (ta_tfl_emit_call()). The graph has one tensor per TFLite tensor
 * that an op references, subgraph 0's first in TFLite index order with the
 * index as id, then those of each inlined copy, "S:I" (subgraph S, tensor
 * I; "S:I@K" for the K-th copy of a subgraph called from several places);
 * the ops in execution order. Flags: a tensor whose buffer holds data is
 * constant, an is_variable tensor persistent, subgraph 0's inputs and
 * outputs input and output. Sizes are the product of the shape times the
 * element size; every tensor is 64-byte aligned (TFLite's
 * kDefaultTensorAlignment, which its interpreter checks for the buffers it
 * is handed; TFLite Micro's arena aligns to 16). tactl --align changes it
 * (ta_input_retune()). RESHAPE, SQUEEZE, EXPAND_DIMS and BITCAST, views of
 * their first input, are marked TA_OP_INPLACE when their first input and
 * output have the same size.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"
#include "ta_tflite_fb.h"

#define TA_TFL_ALIGN		64
#define TA_TFL_MAX_FILE		BIT_ULL(31)	/* FlatBuffers' own limit */
#define TA_TFL_MAX_DIMS		16
/* Elements of one tensor: 2^36 x 16 bytes = 1 TiB; sums stay below 2^61. */
#define TA_TFL_MAX_ELEMS	BIT_ULL(36)
/* Op references; tables may share vectors, so bound them explicitly. */
#define TA_TFL_MAX_REFS		BIT(24)
/*
 * Control flow: subgraphs in a model, subgraphs nested in one call chain,
 * inlined copies and their tensors (a subgraph calling another twice, and
 * so on, doubles at each level: bound the total, not only the depth).
 */
#define TA_TFL_MAX_SUBGRAPHS	BIT(16)
#define TA_TFL_MAX_DEPTH	16
#define TA_TFL_MAX_COPIES	BIT(16)
#define TA_TFL_MAX_COPY_TENSORS	BIT(22)

/* BuiltinOperator values this reader treats specially. */
enum {
	TA_TFL_RESHAPE = 22, TA_TFL_CALL = 31, TA_TFL_CUSTOM = 32,
	TA_TFL_SQUEEZE = 43, TA_TFL_EXPAND_DIMS = 70, TA_TFL_IF = 118,
	TA_TFL_WHILE = 119, TA_TFL_CALL_ONCE = 129, TA_TFL_BITCAST = 159,
	TA_TFL_STABLEHLO_CUSTOM_CALL = 173, TA_TFL_STABLEHLO_REDUCE = 174,
	TA_TFL_STABLEHLO_SCATTER = 190, TA_TFL_STABLEHLO_REDUCE_WINDOW = 198,
	TA_TFL_STABLEHLO_SORT = 199, TA_TFL_STABLEHLO_WHILE = 200,
};

/* BuiltinOptions union members (0 is NONE). */
enum {
	TA_TFL_IF_OPTIONS = 92, TA_TFL_WHILE_OPTIONS = 93,
	TA_TFL_CALL_ONCE_OPTIONS = 103,
};

int ta_fb_bad(struct ta_fb *fb, u64 at, const char *what)
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

u32 ta_fb_u32(const struct ta_fb *fb, u64 pos)
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
int ta_fb_deref(struct ta_fb *fb, u64 pos, u64 *to)
{
	if (!ta_fb_in(fb, pos, 4))
		return ta_fb_bad(fb, pos, "offset beyond the end");
	*to = pos + ta_fb_u32(fb, pos);
	if (!ta_fb_in(fb, *to, 4))
		return ta_fb_bad(fb, pos, "offset points beyond the end");
	return 0;
}

/* The table at @pos: check its vtable and its extent. */
int ta_fb_table(struct ta_fb *fb, u64 pos, struct ta_fbt *t)
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
int ta_fb_field(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		u64 *at)
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

int ta_fb_scalar(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		 u64 def, u64 *v)
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
int ta_fb_vector(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 esize,
		 struct ta_fbv *v)
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
int ta_fb_vtable(struct ta_fb *fb, const struct ta_fbv *v, u64 i,
		 struct ta_fbt *t)
{
	u64 pos;
	int ret = ta_fb_deref(fb, v->data + 4 * i, &pos);

	return ret ? ret : ta_fb_table(fb, pos, t);
}

int ta_fb_root(struct ta_fb *fb, struct ta_fbt *root)
{
	u64 pos;
	int ret;

	if (fb->n < 8) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "too short to be a TFLite model (%llu bytes)",
		       (unsigned long long)fb->n);
		return -EINVAL;
	}
	if (memcmp(fb->p + 4, "TFL3", 4))
		return ta_fb_bad(fb, 4, "no TFL3 identifier at bytes 4..7");
	ret = ta_fb_deref(fb, 0, &pos);
	return ret ? ret : ta_fb_table(fb, pos, root);
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
	/* 162.. */
	"STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE",
	"STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_RESHAPE",
	"STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM",
	"STABLEHLO_CONVOLUTION", "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL",
	"STABLEHLO_REDUCE", "STABLEHLO_ABS", "STABLEHLO_AND",
	"STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR",
	"STABLEHLO_LOG", "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE",
	"STABLEHLO_OR", "STABLEHLO_POWER", "STABLEHLO_REMAINDER",
	"STABLEHLO_RSQRT", "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT",
	"STABLEHLO_TANH", "STABLEHLO_SCATTER", "STABLEHLO_COMPARE",
	"STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE",
	"STABLEHLO_DYNAMIC_UPDATE_SLICE", "STABLEHLO_PAD", "STABLEHLO_IOTA",
	"STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT",
	"STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE",
	"STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW",
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

/* ---- the model: each subgraph read once ---- */

struct ta_tfl_tensor {
	u64 size;
	u32 flags;
	char *note;
};

/* How an op calls subgraphs. */
enum ta_tfl_call {
	TA_TFL_CALLS_NONE,
	TA_TFL_CALLS_IF,	/* then, else: one of them runs */
	TA_TFL_CALLS_WHILE,	/* cond, body: in a loop */
	TA_TFL_CALLS_ONCE,	/* init, once per interpreter */
};

/*
 * struct ta_tfl_op - an operator as read
 * @first_ref: in its subgraph's refs: its inputs (without -1), then outputs
 * @code: BuiltinOperator (CUSTOM for a custom op)
 * @name: what tactl shows: the builtin's name or the custom code
 * @call: &enum ta_tfl_call
 * @callee: the subgraphs it calls (@n_callees of them)
 * @view: a view of its first input (RESHAPE...) of the same byte size
 */
struct ta_tfl_op {
	u32 first_ref;
	u32 n_inputs;
	u32 n_outputs;
	u32 code;
	char *name;
	u32 call;
	u32 n_callees;
	u32 callee[2];
	bool view;
};

/* A growing array of tensor references. */
struct ta_tfl_refs {
	u32 *v;
	u32 n, cap;
};

/*
 * struct ta_tfl_sg - a subgraph, read when first reached
 * @on_chain: its ops are being inlined now (a call to it is recursion)
 * @n_copies: how often it is in the graph
 * @refs: the ops' references, TFLite tensor indices of this subgraph
 */
struct ta_tfl_sg {
	bool parsed;
	bool on_chain;
	u32 n_tensors;
	u32 n_ops;
	u32 n_inputs;
	u32 n_outputs;
	u32 n_copies;
	struct ta_tfl_tensor *t;
	struct ta_tfl_op *ops;
	struct ta_tfl_refs refs;
	u32 *inputs;
	u32 *outputs;
};

/*
 * struct ta_tfl_copy - one subgraph's ops and tensors in the graph: copy 0
 * is subgraph 0, each call adds one of the called subgraph
 * @base: key of its tensor 0 (its tensor i has key @base + i)
 * @ordinal: 1 for the first copy of its subgraph, 2 for the second...
 */
struct ta_tfl_copy {
	u32 sg;
	u32 base;
	u32 ordinal;
};

/*
 * struct ta_tfl_key - per tensor of every copy
 * @seen: de-duplication stamp while ops are built; then its graph index
 * @carried: a WHILE's loop state: written by the WHILE's begin op, so an
 *	     op of the loop that writes it is recorded as reading it
 * @written: an op emitted so far writes it
 */
struct ta_tfl_key {
	u32 seen;
	bool carried;
	bool written;
};

struct ta_tfl {
	struct ta_fb fb;
	struct ta_fbv opcodes, buffers, subgraphs, metadata;
	struct ta_tflite_info *info;
	u32 n_subgraphs;
	struct ta_tfl_sg *sg;
	u32 parsed_refs;
	/* the graph as it is built */
	struct ta_tfl_copy *copies;
	u32 n_copies, cap_copies;
	struct ta_tfl_key *keys;
	u32 n_keys, cap_keys;
	u32 stamp;
	struct ta_graph_op *ops;
	char **op_names;
	u32 n_ops, cap_ops;
	struct ta_tfl_refs refs;
	/* the subgraphs being inlined, outermost first */
	u32 chain[TA_TFL_MAX_DEPTH];
	u32 depth;
	/* OfflineMemoryAllocation: its data, when the model has one */
	bool has_offline;
	struct ta_fbv offline;
	/* per subgraph, the entry of its tensor 0: tensors before it */
	u64 *sg_base;
};

/* Make room for @need elements of @size bytes at *@p (zeroed). */
static int ta_tfl_grow(void **p, u32 *cap, u32 need, size_t size)
{
	u64 c = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	np = realloc(*p, (size_t)c * size);
	if (!np)
		return -ENOMEM;
	memset((char *)np + (size_t)*cap * size, 0,
	       (size_t)(c - *cap) * size);
	*p = np;
	*cap = (u32)c;
	return 0;
}

static int ta_tfl_ref(struct ta_tfl_refs *r, u32 t)
{
	int ret;

	if (r->n >= TA_TFL_MAX_REFS)
		return -E2BIG;
	ret = ta_tfl_grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v));
	if (ret)
		return ret;
	r->v[r->n++] = t;
	return 0;
}

static int ta_tfl_tensor(struct ta_tfl *m, u32 s, const struct ta_fbv *tensors,
			 u32 i)
{
	struct ta_fb *fb = &m->fb;
	struct ta_tfl_tensor *tt = &m->sg[s].t[i];
	struct ta_fbt t, b;
	struct ta_fbv shape, name, data;
	u64 type, buf, var, elems = 1, bytes, extsize, k;
	const char *tname;
	char dims[TA_TFL_MAX_DIMS * 12 + 4], *nm, who[48];
	size_t dl = 0;
	u32 bits;
	int ret;

	if (s)
		snprintf(who, sizeof(who), "subgraph %u, tensor %u", s, i);
	else
		snprintf(who, sizeof(who), "tensor %u", i);
	ret = ta_fb_vtable(fb, tensors, i, &t);
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
			       "%s: dynamic dimension %d (shapes must be static)",
			       who, d);
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
		       "%s: element type %s (%llu) has no fixed size",
		       who, tname, (unsigned long long)type);
		return -EINVAL;
	}
	bytes = (elems * bits + 7) / 8;
	tt->size = bytes;
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

/*
 * A subgraph's inputs or outputs into *@list; subgraph 0's get @flag
 * (graph input or output).
 */
static int ta_tfl_io(struct ta_tfl *m, u32 s, const struct ta_fbt *sgt,
		     u32 id, u32 flag, u32 **list, u32 *count)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	struct ta_fbv v;
	u64 k;
	int ret = ta_fb_vector(&m->fb, sgt, id, 4, &v);

	if (ret)
		return ret;
	if (v.len > TA_TFL_MAX_REFS - m->parsed_refs)
		return -E2BIG;
	m->parsed_refs += (u32)v.len;
	*list = malloc(sizeof(**list) * (v.len ? v.len : 1));
	if (!*list)
		return -ENOMEM;
	for (k = 0; k < v.len; k++) {
		s32 x = (s32)ta_fb_u32(&m->fb, v.data + 4 * k);

		if (x < 0 || (u64)x >= sg->n_tensors)
			return ta_fb_bad(&m->fb, v.data + 4 * k,
					 "subgraph input/output index out of range");
		(*list)[k] = (u32)x;
		if (!s)
			sg->t[x].flags |= flag;
	}
	*count = (u32)v.len;
	return 0;
}

/* Operator code @opcode: its BuiltinOperator and the name tactl shows. */
static int ta_tfl_opcode(struct ta_tfl *m, u64 opcode, u32 *codep,
			 char **out)
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
	*codep = (u32)code;
	if (code == TA_TFL_CUSTOM && custom.len) {
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

/*
 * An op's inputs or outputs: TFLite indices appended to its subgraph's
 * refs, -1 (an optional input left out) skipped; *@first is the list's
 * first entry as written, -1 when the list is empty.
 */
static int ta_tfl_op_list(struct ta_tfl *m, struct ta_tfl_sg *sg,
			  const struct ta_fbt *op, u32 id, u32 *count,
			  s32 *first)
{
	struct ta_fbv v;
	u64 k;
	int ret = ta_fb_vector(&m->fb, op, id, 4, &v);

	*count = 0;
	*first = -1;
	if (ret)
		return ret;
	for (k = 0; k < v.len; k++) {
		s32 x = (s32)ta_fb_u32(&m->fb, v.data + 4 * k);

		if (!k)
			*first = x;
		if (x == -1 && id == TA_OP_INPUTS)
			continue;		/* an optional input left out */
		if (x < 0 || (u64)x >= sg->n_tensors)
			return ta_fb_bad(&m->fb, v.data + 4 * k,
					 "operator's tensor index out of range");
		if (m->parsed_refs >= TA_TFL_MAX_REFS)
			return -E2BIG;
		m->parsed_refs++;
		ret = ta_tfl_ref(&sg->refs, (u32)x);
		if (ret)
			return ret;
		(*count)++;
	}
	return 0;
}

/* Builtins that call subgraphs in ways this reader does not inline. */
static bool ta_tfl_calls_unknown(u32 code)
{
	switch (code) {
	case TA_TFL_CALL:
	case TA_TFL_STABLEHLO_CUSTOM_CALL:
	case TA_TFL_STABLEHLO_REDUCE:
	case TA_TFL_STABLEHLO_SCATTER:
	case TA_TFL_STABLEHLO_REDUCE_WINDOW:
	case TA_TFL_STABLEHLO_SORT:
	case TA_TFL_STABLEHLO_WHILE:
		return true;
	}
	return false;
}

/* Views of their first input, which TFLite runs in place. */
static bool ta_tfl_is_view(u32 code)
{
	return code == TA_TFL_RESHAPE || code == TA_TFL_SQUEEZE ||
	       code == TA_TFL_EXPAND_DIMS || code == TA_TFL_BITCAST;
}

/* IF, WHILE, CALL_ONCE: which subgraphs op @i of subgraph @s calls. */
static int ta_tfl_callees(struct ta_tfl *m, u32 s, u32 i,
			  const struct ta_fbt *o, struct ta_tfl_op *op)
{
	static const struct {
		u32 code, options, n;
		const char *options_name;
		u32 call;
	} kinds[] = {
		{ TA_TFL_IF, TA_TFL_IF_OPTIONS, 2, "IfOptions",
		  TA_TFL_CALLS_IF },
		{ TA_TFL_WHILE, TA_TFL_WHILE_OPTIONS, 2, "WhileOptions",
		  TA_TFL_CALLS_WHILE },
		{ TA_TFL_CALL_ONCE, TA_TFL_CALL_ONCE_OPTIONS, 1,
		  "CallOnceOptions", TA_TFL_CALLS_ONCE },
	};
	struct ta_fb *fb = &m->fb;
	struct ta_fbt opt;
	u64 type, at, pos, v;
	u32 kind, k;
	int ret;

	for (kind = 0; kinds[kind].code != op->code; kind++)
		;
	ret = ta_fb_scalar(fb, o, TA_OP_OPTIONS_TYPE, 1, 0, &type);
	if (!ret)
		ret = ta_fb_field(fb, o, TA_OP_OPTIONS, 4, &at);
	if (ret)
		return ret;
	if (type != kinds[kind].options || !at) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "subgraph %u, op %u (%s): no %s (builtin_options type %llu)",
		       s, i, op->name, kinds[kind].options_name,
		       (unsigned long long)type);
		return -EINVAL;
	}
	ret = ta_fb_deref(fb, at, &pos);
	if (!ret)
		ret = ta_fb_table(fb, pos, &opt);
	for (k = 0; !ret && k < kinds[kind].n; k++) {
		ret = ta_fb_scalar(fb, &opt, k, 4, 0, &v);
		if (ret)
			break;
		if ((s32)v < 0 || (u32)v >= m->n_subgraphs) {
			ta_err(fb->err, fb->errlen, fb->path, 0,
			       "subgraph %u, op %u (%s): subgraph index %d out of range (the model has %u)",
			       s, i, op->name, (s32)v, m->n_subgraphs);
			return -EINVAL;
		}
		op->callee[k] = (u32)v;
	}
	op->n_callees = kinds[kind].n;
	op->call = kinds[kind].call;
	return ret;
}

static int ta_tfl_parse_op(struct ta_tfl *m, u32 s, const struct ta_fbv *ops,
			   u32 i)
{
	struct ta_fb *fb = &m->fb;
	struct ta_tfl_sg *sg = &m->sg[s];
	struct ta_tfl_op *op = &sg->ops[i];
	struct ta_fbt o;
	u64 opcode;
	s32 in0, out0;
	int ret;

	ret = ta_fb_vtable(fb, ops, i, &o);
	if (!ret)
		ret = ta_fb_scalar(fb, &o, TA_OP_OPCODE, 4, 0, &opcode);
	if (!ret)
		ret = ta_tfl_opcode(m, opcode, &op->code, &op->name);
	op->first_ref = sg->refs.n;
	if (!ret)
		ret = ta_tfl_op_list(m, sg, &o, TA_OP_INPUTS, &op->n_inputs,
				     &in0);
	if (!ret)
		ret = ta_tfl_op_list(m, sg, &o, TA_OP_OUTPUTS, &op->n_outputs,
				     &out0);
	if (ret)
		return ret;
	if (op->code == TA_TFL_IF || op->code == TA_TFL_WHILE ||
	    op->code == TA_TFL_CALL_ONCE)
		return ta_tfl_callees(m, s, i, &o, op);
	if (ta_tfl_calls_unknown(op->code)) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "subgraph %u, op %u (%s) calls subgraphs, which this reader cannot inline (it inlines IF, WHILE and CALL_ONCE): the model is refused rather than planned in part",
		       s, i, op->name);
		return -EINVAL;
	}
	if (!ta_tflite_op_name(op->code) && m->n_subgraphs > 1) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "subgraph %u, op %u (%s): an operator this reader does not know, in a model of %u subgraphs: it may call one, so the model is refused rather than planned in part",
		       s, i, op->name, m->n_subgraphs);
		return -EINVAL;
	}
	op->view = ta_tfl_is_view(op->code) && in0 >= 0 && out0 >= 0 &&
		   sg->t[in0].size == sg->t[out0].size;
	return 0;
}

/* Read subgraph @s (once): tensors, inputs, outputs, operators. */
static int ta_tfl_parse_subgraph(struct ta_tfl *m, u32 s)
{
	struct ta_fb *fb = &m->fb;
	struct ta_tfl_sg *sg = &m->sg[s];
	struct ta_fbv tensors, ops;
	struct ta_fbt t;
	u64 i;
	int ret;

	if (sg->parsed)
		return 0;
	sg->parsed = true;
	ret = ta_fb_vtable(fb, &m->subgraphs, s, &t);
	if (!ret)
		ret = ta_fb_vector(fb, &t, TA_SG_TENSORS, 4, &tensors);
	if (!ret)
		ret = ta_fb_vector(fb, &t, TA_SG_OPS, 4, &ops);
	if (ret)
		return ret;
	/* the vectors fit in the file, so these counts are < 2^29 */
	if (tensors.len > TA_PLAN_MAX_BUFFERS || ops.len > TA_PLAN_MAX_STEPS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "subgraph %u: %llu tensors, %llu operators: beyond the planner's limits",
		       s, (unsigned long long)tensors.len,
		       (unsigned long long)ops.len);
		return -E2BIG;
	}
	sg->t = calloc(tensors.len ? tensors.len : 1, sizeof(*sg->t));
	sg->ops = calloc(ops.len ? ops.len : 1, sizeof(*sg->ops));
	/* never NULL, also without refs: ops point into it */
	ret = ta_tfl_grow((void **)&sg->refs.v, &sg->refs.cap, 1,
			  sizeof(*sg->refs.v));
	if (!sg->t || !sg->ops || ret)
		return -ENOMEM;
	sg->n_tensors = (u32)tensors.len;
	sg->n_ops = (u32)ops.len;
	for (i = 0; i < tensors.len; i++) {
		ret = ta_tfl_tensor(m, s, &tensors, (u32)i);
		if (ret)
			return ret;
	}
	ret = ta_tfl_io(m, s, &t, TA_SG_INPUTS, TA_TENSOR_INPUT, &sg->inputs,
			&sg->n_inputs);
	if (!ret)
		ret = ta_tfl_io(m, s, &t, TA_SG_OUTPUTS, TA_TENSOR_OUTPUT,
				&sg->outputs, &sg->n_outputs);
	for (i = 0; !ret && i < ops.len; i++)
		ret = ta_tfl_parse_op(m, s, &ops, (u32)i);
	return ret;
}

/* ---- inlining: the graph's ops ---- */

static int ta_tfl_too_big(struct ta_tfl *m, const char *what, u32 limit)
{
	ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
	       "control flow inlined to more than %u %s", limit, what);
	return -E2BIG;
}

/* Add a copy of subgraph @s (already read) to the graph. */
static int ta_tfl_new_copy(struct ta_tfl *m, u32 s, u32 *copy)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	struct ta_tfl_copy *c;
	int ret;

	if (m->n_copies >= TA_TFL_MAX_COPIES)
		return ta_tfl_too_big(m, "subgraph copies",
				      (u32)TA_TFL_MAX_COPIES);
	if (sg->n_tensors > TA_TFL_MAX_COPY_TENSORS - m->n_keys)
		return ta_tfl_too_big(m, "tensors",
				      (u32)TA_TFL_MAX_COPY_TENSORS);
	ret = ta_tfl_grow((void **)&m->copies, &m->cap_copies,
			  m->n_copies + 1, sizeof(*m->copies));
	if (!ret)
		ret = ta_tfl_grow((void **)&m->keys, &m->cap_keys,
				  m->n_keys + sg->n_tensors, sizeof(*m->keys));
	if (ret)
		return ret;
	c = &m->copies[m->n_copies];
	c->sg = s;
	c->base = m->n_keys;
	c->ordinal = ++sg->n_copies;
	m->n_keys += sg->n_tensors;
	*copy = m->n_copies++;
	if (s)
		m->info->n_inlined++;
	return 0;
}

/* Start a graph op named @name @suffix; its refs follow. */
static int ta_tfl_op_start(struct ta_tfl *m, const char *name,
			   const char *suffix)
{
	char *n;

	if (m->n_ops >= TA_PLAN_MAX_STEPS)
		return ta_tfl_too_big(m, "operators", TA_PLAN_MAX_STEPS);
	if (m->n_ops == m->cap_ops) {
		u32 cap = m->cap_ops ? 2 * m->cap_ops : 64;
		struct ta_graph_op *ops = realloc(m->ops, sizeof(*ops) * cap);
		char **names;

		if (!ops)
			return -ENOMEM;
		m->ops = ops;
		names = realloc(m->op_names, sizeof(*names) * cap);
		if (!names)
			return -ENOMEM;
		m->op_names = names;
		m->cap_ops = cap;
	}
	n = malloc(strlen(name) + strlen(suffix) + 1);
	if (!n)
		return -ENOMEM;
	sprintf(n, "%s%s", name, suffix);
	m->op_names[m->n_ops] = n;
	memset(&m->ops[m->n_ops], 0, sizeof(m->ops[0]));
	m->ops[m->n_ops].first_ref = m->refs.n;
	m->n_ops++;
	m->stamp++;
	return 0;
}

/* Add tensor @key to the op being built; @once: unless it is there. */
static int ta_tfl_push(struct ta_tfl *m, u32 key, bool once)
{
	if (once) {
		if (m->keys[key].seen == m->stamp)
			return 0;
		m->keys[key].seen = m->stamp;
	}
	return ta_tfl_ref(&m->refs, key);
}

/* The refs pushed so far are the op's inputs; outputs follow. */
static void ta_tfl_op_inputs_done(struct ta_tfl *m)
{
	struct ta_graph_op *op = &m->ops[m->n_ops - 1];

	op->n_inputs = m->refs.n - op->first_ref;
	m->stamp++;
}

static void ta_tfl_op_done(struct ta_tfl *m)
{
	struct ta_graph_op *op = &m->ops[m->n_ops - 1];
	u32 k;

	op->n_outputs = m->refs.n - op->first_ref - op->n_inputs;
	for (k = op->first_ref + op->n_inputs; k < m->refs.n; k++)
		m->keys[m->refs.v[k]].written = true;
}

/* Push @n TFLite indices @idx of the copy at @base, once each. */
static int ta_tfl_push_list(struct ta_tfl *m, u32 base, const u32 *idx,
			    u32 n, bool carried_only, bool skip_carried)
{
	u32 k;
	int ret = 0;

	for (k = 0; !ret && k < n; k++) {
		bool carried = m->keys[base + idx[k]].carried;

		if ((carried_only && !carried) || (skip_carried && carried))
			continue;
		ret = ta_tfl_push(m, base + idx[k], true);
	}
	return ret;
}

/* A subgraph's inputs and outputs, constants left out: @fn each. */
static int ta_tfl_for_io(struct ta_tfl *m, u32 s, u32 base, bool inputs,
			 bool outputs, int (*fn)(struct ta_tfl *m, u32 key))
{
	const struct ta_tfl_sg *sg = &m->sg[s];
	u32 k;
	int ret = 0;

	for (k = 0; !ret && inputs && k < sg->n_inputs; k++)
		if (!(sg->t[sg->inputs[k]].flags & TA_TENSOR_CONSTANT))
			ret = fn(m, base + sg->inputs[k]);
	for (k = 0; !ret && outputs && k < sg->n_outputs; k++)
		if (!(sg->t[sg->outputs[k]].flags & TA_TENSOR_CONSTANT))
			ret = fn(m, base + sg->outputs[k]);
	return ret;
}

static int ta_tfl_carry(struct ta_tfl *m, u32 key)
{
	m->keys[key].carried = true;
	return 0;
}

static int ta_tfl_push_once(struct ta_tfl *m, u32 key)
{
	return ta_tfl_push(m, key, true);
}

/*
 * An input no op has written yet that is neither constant, variable nor a
 * graph input: memory the op works in, as Vela's scratch tensors that its
 * ethos-u op reads (TFLite Micro plans such a tensor from the start of the
 * run, unwritten). It is recorded as written by this op, its first reader.
 */
static bool ta_tfl_op_only(const struct ta_tfl *m, u32 s, u32 base, u32 i)
{
	return !m->keys[base + i].written && !m->keys[base + i].carried &&
	       !(m->sg[s].t[i].flags & (TA_TENSOR_CONSTANT |
					TA_TENSOR_PERSISTENT |
					TA_TENSOR_INPUT));
}

/* A plain op of the copy at @base. */
static int ta_tfl_emit_op(struct ta_tfl *m, u32 s, u32 base,
			  const struct ta_tfl_op *op)
{
	const u32 *r = &m->sg[s].refs.v[op->first_ref];
	const u32 *out = r + op->n_inputs;
	bool moved = false;
	u32 k;
	int ret = ta_tfl_op_start(m, op->name, "");

	for (k = 0; !ret && k < op->n_inputs; k++) {
		if (ta_tfl_op_only(m, s, base, r[k]))
			moved = true;
		else
			ret = ta_tfl_push(m, base + r[k], false);
	}
	/* writes of loop state are reads here: the WHILE's begin wrote it */
	for (k = 0; !ret && k < op->n_outputs; k++)
		if (m->keys[base + out[k]].carried)
			ret = ta_tfl_push(m, base + out[k], false);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	for (k = 0; !ret && k < op->n_outputs; k++)
		if (!m->keys[base + out[k]].carried)
			ret = ta_tfl_push(m, base + out[k], false);
	for (k = 0; !ret && k < op->n_inputs; k++)
		if (ta_tfl_op_only(m, s, base, r[k]))
			ret = ta_tfl_push(m, base + r[k], true);
	if (ret)
		return ret;
	ta_tfl_op_done(m);
	/* a view of an input nobody wrote is no view: its input moved */
	if (op->view && op->n_outputs && !moved &&
	    !m->keys[base + out[0]].carried) {
		m->ops[m->n_ops - 1].flags |= TA_OP_INPLACE;
		m->info->n_inplace++;
	}
	return 0;
}

static int ta_tfl_emit_copy(struct ta_tfl *m, u32 copy);

/* "0 > 2 > 5" */
static void ta_tfl_chain(const struct ta_tfl *m, u32 last, char *buf,
			 size_t len)
{
	size_t n = 0;
	u32 k;

	buf[0] = 0;
	for (k = 0; k < m->depth && n < len; k++)
		n += snprintf(buf + n, len - n, "%u > ", m->chain[k]);
	if (n < len)
		snprintf(buf + n, len - n, "%u", last);
}

/*
 * Op @i of subgraph @s, in the copy @copy, calls subgraphs: inline them.
 *
 *   IF, CALL_ONCE:  OP.begin    reads the op's inputs, writes its outputs
 *                   OP.B.begin  reads the op's inputs, writes B's inputs
 *                   B's ops                           (B = then, else, init)
 *                   OP.B.end    reads B's outputs
 *                   ... the next branch ...
 *                   OP.end      reads the op's inputs and outputs
 *
 *   WHILE:          OP.begin    reads the op's inputs, writes its outputs
 *                               and the loop state: cond's and body's
 *                               inputs and outputs
 *                   cond's ops, body's ops (a write of loop state is
 *                               recorded as a read: it is live already)
 *                   OP.end      reads the op's inputs, outputs, loop state
 *
 * So the op's inputs and outputs are live across the whole call, the loop
 * state across the whole loop, the subgraphs' other tensors only within
 * their own ops, and IF's branches, one after the other, may share memory.
 */
static int ta_tfl_emit_call(struct ta_tfl *m, u32 s, u32 copy, u32 i)
{
	static const char *const branch[][2] = {
		[TA_TFL_CALLS_IF] = { ".then", ".else" },
		[TA_TFL_CALLS_ONCE] = { ".init", "" },
	};
	const struct ta_tfl_op *op = &m->sg[s].ops[i];
	const u32 *r = &m->sg[s].refs.v[op->first_ref];
	u32 base = m->copies[copy].base, callee_copy[2], callee_base[2], k;
	char name[96], chain[TA_TFL_MAX_DEPTH * 14 + 16];
	int ret;

	for (k = 0; k < op->n_callees; k++) {
		u32 t = op->callee[k];

		if (m->sg[t].on_chain) {
			ta_tfl_chain(m, t, chain, sizeof(chain));
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s) calls subgraph %u, which is already being inlined (call chain %s): recursion cannot be planned",
			       s, i, op->name, t, chain);
			return -EINVAL;
		}
		if (m->depth >= TA_TFL_MAX_DEPTH) {
			ta_tfl_chain(m, t, chain, sizeof(chain));
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): control flow nested more than %u subgraphs deep (call chain %s)",
			       s, i, op->name, TA_TFL_MAX_DEPTH, chain);
			return -E2BIG;
		}
		ret = ta_tfl_parse_subgraph(m, t);
		if (!ret)
			ret = ta_tfl_new_copy(m, t, &callee_copy[k]);
		if (ret)
			return ret;
		callee_base[k] = m->copies[callee_copy[k]].base;
	}
	if (op->call == TA_TFL_CALLS_WHILE)
		for (k = 0; k < 2; k++)
			ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				      true, ta_tfl_carry);

	/* OP.begin */
	ret = ta_tfl_op_start(m, op->name, ".begin");
	if (!ret)
		ret = ta_tfl_push_list(m, base, r, op->n_inputs, false, false);
	if (!ret)
		ret = ta_tfl_push_list(m, base, r + op->n_inputs,
				       op->n_outputs, true, false);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	ret = ta_tfl_push_list(m, base, r + op->n_inputs, op->n_outputs,
			       false, true);
	for (k = 0; !ret && op->call == TA_TFL_CALLS_WHILE && k < 2; k++)
		ret = ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				    true, ta_tfl_push_once);
	if (ret)
		return ret;
	ta_tfl_op_done(m);

	for (k = 0; k < op->n_callees; k++) {
		u32 t = op->callee[k];

		if (op->call == TA_TFL_CALLS_WHILE) {
			ret = ta_tfl_emit_copy(m, callee_copy[k]);
			if (ret)
				return ret;
			continue;
		}
		/* OP.B.begin, B's ops, OP.B.end */
		snprintf(name, sizeof(name), "%s%s", op->name,
			 branch[op->call][k]);
		ret = ta_tfl_op_start(m, name, ".begin");
		if (!ret)
			ret = ta_tfl_push_list(m, base, r, op->n_inputs, false,
					       false);
		if (ret)
			return ret;
		ta_tfl_op_inputs_done(m);
		ret = ta_tfl_for_io(m, t, callee_base[k], true, false,
				    ta_tfl_push_once);
		if (ret)
			return ret;
		ta_tfl_op_done(m);
		ret = ta_tfl_emit_copy(m, callee_copy[k]);
		if (!ret)
			ret = ta_tfl_op_start(m, name, ".end");
		if (!ret)
			ret = ta_tfl_for_io(m, t, callee_base[k], false, true,
					    ta_tfl_push_once);
		if (ret)
			return ret;
		ta_tfl_op_inputs_done(m);
		ta_tfl_op_done(m);
	}

	/* OP.end */
	ret = ta_tfl_op_start(m, op->name, ".end");
	if (!ret)
		ret = ta_tfl_push_list(m, base, r,
				       op->n_inputs + op->n_outputs, false,
				       false);
	for (k = 0; !ret && op->call == TA_TFL_CALLS_WHILE && k < 2; k++)
		ret = ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				    true, ta_tfl_push_once);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	ta_tfl_op_done(m);
	return 0;
}

/* The ops of copy @copy, calls inlined. */
static int ta_tfl_emit_copy(struct ta_tfl *m, u32 copy)
{
	u32 s = m->copies[copy].sg, base = m->copies[copy].base, i;
	struct ta_tfl_sg *sg = &m->sg[s];
	int ret = 0;

	sg->on_chain = true;
	m->chain[m->depth++] = s;
	for (i = 0; !ret && i < sg->n_ops; i++) {
		const struct ta_tfl_op *op = &sg->ops[i];

		ret = op->call ? ta_tfl_emit_call(m, s, copy, i) :
			ta_tfl_emit_op(m, s, base, op);
	}
	m->depth--;
	sg->on_chain = false;
	return ret;
}

/* ---- OfflineMemoryAllocation ---- */

/*
 * As TFLite Micro reads it (micro_allocation_info.cc,
 * GetOfflinePlannedOffsets() and InitializeAllocationInfo()): the entry's
 * buffer holds int32s [version, subgraph, n, offsets...]; version and
 * subgraph are never read (Vela writes [0, 1, n]: its 1 is the number of
 * subgraphs); n must be the number of tensors of all subgraphs; an offset
 * is used only for a tensor TFLite Micro plans (not a constant, not of
 * size 0), -1 having it planned at runtime. Tensor i of subgraph S takes
 * entry base(S) + i, base(S) the tensors of the subgraphs before it: the
 * layout TFLite Micro documents and Vela writes. (TFLite Micro's code
 * gives tensor i of every subgraph entry i; ta_tflite_write.c writes
 * only metadata that both read the same way.) Documentation/tflite.md.
 */
static int ta_tfl_offline_bad(struct ta_tfl *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int ta_tfl_offline_bad(struct ta_tfl *m, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
	       "%s metadata: %s", TA_TFL_OFFLINE_NAME, what);
	return -EINVAL;
}

static s32 ta_tfl_offline_at(const struct ta_tfl *m, u64 k)
{
	return (s32)ta_fb_u32(&m->fb, m->offline.data +
			      4 * (TA_TFL_OFFLINE_HEADER + k));
}

/* Whether TFLite Micro plans tensor @i of subgraph @s (uses its entry). */
static bool ta_tfl_offline_used(const struct ta_tfl *m, u32 s, u32 i)
{
	const struct ta_tfl_tensor *t = &m->sg[s].t[i];

	return t->size && !(t->flags & TA_TENSOR_CONSTANT);
}

/*
 * Find the model's OfflineMemoryAllocation entries (the last one counts,
 * as in TFLite Micro; each must be well-formed) and check the data: the
 * count, the length, and every entry a planned tensor takes.
 */
static int ta_tfl_find_offline(struct ta_tfl *m)
{
	struct ta_fb *fb = &m->fb;
	const size_t nlen = strlen(TA_TFL_OFFLINE_NAME);
	struct ta_fbt md, b;
	struct ta_fbv name, data;
	u64 i, buf, extsize, total = 0, n;
	u32 s, c;
	int ret;

	m->sg_base = calloc(m->n_subgraphs, sizeof(*m->sg_base));
	if (!m->sg_base)
		return -ENOMEM;
	for (s = 0; s < m->n_subgraphs; s++) {
		struct ta_fbt t;
		struct ta_fbv tv;

		ret = ta_fb_vtable(fb, &m->subgraphs, s, &t);
		if (!ret)
			ret = ta_fb_vector(fb, &t, TA_SG_TENSORS, 4, &tv);
		if (ret)
			return ret;
		m->sg_base[s] = total;
		total += tv.len;	/* each < 2^29: no wrap */
	}
	for (i = 0; i < m->metadata.len; i++) {
		ret = ta_fb_vtable(fb, &m->metadata, i, &md);
		if (!ret)
			ret = ta_fb_vector(fb, &md, TA_META_NAME, 1, &name);
		if (ret)
			return ret;
		if (name.len != nlen ||
		    memcmp(fb->p + name.data, TA_TFL_OFFLINE_NAME, nlen))
			continue;
		ret = ta_fb_scalar(fb, &md, TA_META_BUFFER, 4, 0, &buf);
		if (ret)
			return ret;
		if (buf >= m->buffers.len)
			return ta_tfl_offline_bad(m, "buffer %llu out of range (%llu buffers)",
						  (unsigned long long)buf,
						  (unsigned long long)m->buffers.len);
		ret = ta_fb_vtable(fb, &m->buffers, buf, &b);
		if (!ret)
			ret = ta_fb_vector(fb, &b, TA_BUF_DATA, 1, &data);
		if (!ret)
			ret = ta_fb_scalar(fb, &b, TA_BUF_SIZE, 8, 0, &extsize);
		if (ret)
			return ret;
		if (!data.len && extsize)
			return ta_tfl_offline_bad(m,
						  "buffer %llu is stored outside the FlatBuffer (%llu bytes)",
						  (unsigned long long)buf,
						  (unsigned long long)extsize);
		if (data.len < 4 * TA_TFL_OFFLINE_HEADER)
			return ta_tfl_offline_bad(m, "%llu bytes, less than its %d-byte header",
						  (unsigned long long)data.len,
						  4 * TA_TFL_OFFLINE_HEADER);
		/* TFLite Micro reads n as unsigned: -1 is 4294967295 */
		n = ta_fb_u32(fb, data.data + 8);
		if (n != total)
			return ta_tfl_offline_bad(m, "%llu offsets for the %llu tensors of the model's %u subgraph%s (TFLite Micro wants one per tensor of every subgraph, in order)",
						  (unsigned long long)n,
						  (unsigned long long)total,
						  m->n_subgraphs,
						  m->n_subgraphs == 1 ? "" : "s");
		if ((data.len - 4 * TA_TFL_OFFLINE_HEADER) / 4 < n)
			return ta_tfl_offline_bad(m, "%llu offsets announced, its buffer holds %llu",
						  (unsigned long long)n,
						  (unsigned long long)(data.len / 4 -
							      TA_TFL_OFFLINE_HEADER));
		m->offline = data;
		m->has_offline = true;
	}
	if (!m->has_offline)
		return 0;
	/* every entry a tensor of the graph takes */
	for (c = 0; c < m->n_copies; c++) {
		struct ta_tfl_sg *sg;

		s = m->copies[c].sg;
		sg = &m->sg[s];
		if (m->copies[c].ordinal != 1)
			continue;	/* the same entries as the first copy */
		for (i = 0; i < sg->n_tensors; i++) {
			s32 v = ta_tfl_offline_at(m, m->sg_base[s] + i);

			if (!ta_tfl_offline_used(m, s, (u32)i))
				continue;
			if (v < -1 && !s)
				return ta_tfl_offline_bad(m,
							  "tensor %llu: offset %d (an offset is >= 0, or -1 to plan it online)",
							  (unsigned long long)i, v);
			if (v < -1)
				return ta_tfl_offline_bad(m,
							  "subgraph %u, tensor %llu: offset %d (an offset is >= 0, or -1 to plan it online)",
							  s, (unsigned long long)i, v);
		}
	}
	return 0;
}
/*
 * The offsets, per graph tensor: tensor I of subgraph S (of each of its
 * inlined copies) takes entry base(S) + I when TFLite Micro plans it;
 * -1, a constant and a tensor of size 0 are TA_OFFSET_UNFIXED.
 */
static void ta_tfl_fixed_offsets(struct ta_tfl *m, struct ta_input *in)
{
	u32 c, i, g;

	for (g = 0; g < in->graph.n_tensors; g++)
		in->fixed_offsets[g] = TA_OFFSET_UNFIXED;
	for (c = 0; c < m->n_copies; c++) {
		const struct ta_tfl_copy *cp = &m->copies[c];

		for (i = 0; i < m->sg[cp->sg].n_tensors; i++) {
			s32 v = ta_tfl_offline_at(m, m->sg_base[cp->sg] + i);

			g = m->keys[cp->base + i].seen;
			if (g == U32_MAX || v < 0 ||
			    !ta_tfl_offline_used(m, cp->sg, i))
				continue;
			in->fixed_offsets[g] = (u64)v;
			m->info->n_fixed++;
		}
	}
	in->has_fixed_offsets = true;
}

/* ---- the graph ---- */

static int ta_tfl_build(struct ta_tfl *m, struct ta_input *in)
{
	struct ta_fb *fb = &m->fb;
	struct ta_fbt root;
	u32 nt = 0, n_used = 0, c, i, copy0;
	size_t tsize;
	int ret;

	ret = ta_fb_root(fb, &root);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_OPCODES, 4, &m->opcodes);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_SUBGRAPHS, 4,
				   &m->subgraphs);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_BUFFERS, 4, &m->buffers);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_METADATA, 4,
				   &m->metadata);
	if (ret)
		return ret;
	if (!m->subgraphs.len)
		return ta_fb_bad(fb, root.pos, "model without a subgraph");
	if (m->subgraphs.len > TA_TFL_MAX_SUBGRAPHS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%llu subgraphs: more than %u",
		       (unsigned long long)m->subgraphs.len,
		       (u32)TA_TFL_MAX_SUBGRAPHS);
		return -E2BIG;
	}
	m->n_subgraphs = (u32)m->subgraphs.len;
	m->info->n_subgraphs = m->n_subgraphs;
	m->sg = calloc(m->n_subgraphs, sizeof(*m->sg));
	if (!m->sg)
		return -ENOMEM;
	ret = ta_tfl_parse_subgraph(m, 0);
	if (ret)
		return ret;
	m->info->n_tensors = m->sg[0].n_tensors;
	m->info->n_ops = m->sg[0].n_ops;
	ret = ta_tfl_new_copy(m, 0, &copy0);
	if (!ret)
		ret = ta_tfl_emit_copy(m, copy0);
	if (!ret)
		ret = ta_tfl_find_offline(m);
	if (ret)
		return ret;
	for (i = 1; i < m->n_subgraphs; i++)
		m->info->n_called += m->sg[i].n_copies > 0;
	m->info->n_unreachable = m->n_subgraphs - 1 - m->info->n_called;

	/* the ops */
	in->ops = m->ops;
	in->op_names = m->op_names;
	in->graph.n_ops = m->n_ops;		/* ta_input_free() frees names */
	m->ops = NULL;
	m->op_names = NULL;
	m->n_ops = 0;

	/* keep the tensors the ops reference: copy 0's first */
	for (i = 0; i < m->n_keys; i++)
		m->keys[i].seen = U32_MAX;
	for (i = 0; i < m->refs.n; i++) {
		n_used += m->keys[m->refs.v[i]].seen == U32_MAX;
		m->keys[m->refs.v[i]].seen = 0;
	}
	if (n_used > TA_PLAN_MAX_BUFFERS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%u tensors: beyond the planner's limits", n_used);
		return -E2BIG;
	}
	tsize = sizeof(*in->tensors) * (n_used ? n_used : 1);
	in->tensors = calloc(1, tsize);
	if (m->has_offline) {
		in->fixed_offsets = calloc(n_used ? n_used : 1, sizeof(u64));
		if (!in->fixed_offsets)
			return -ENOMEM;
	}
	in->ids = calloc(n_used ? n_used : 1, sizeof(*in->ids));
	in->notes = calloc(n_used ? n_used : 1, sizeof(*in->notes));
	if (!in->tensors || !in->ids || !in->notes)
		return -ENOMEM;
	for (c = 0; c < m->n_copies; c++) {
		const struct ta_tfl_copy *cp = &m->copies[c];
		struct ta_tfl_sg *sg = &m->sg[cp->sg];

		for (i = 0; i < sg->n_tensors; i++) {
			struct ta_tfl_key *key = &m->keys[cp->base + i];
			const struct ta_tfl_tensor *tt = &sg->t[i];
			char id[40];

			if (key->seen == U32_MAX)
				continue;
			key->seen = nt;
			in->tensors[nt].size = tt->size;
			in->tensors[nt].align = TA_TFL_ALIGN;
			in->tensors[nt].flags = tt->flags;
			if (!c)
				snprintf(id, sizeof(id), "%u", i);
			else if (cp->ordinal == 1)
				snprintf(id, sizeof(id), "%u:%u", cp->sg, i);
			else
				snprintf(id, sizeof(id), "%u:%u@%u", cp->sg, i,
					 cp->ordinal);
			in->ids[nt] = strdup(id);
			in->notes[nt] = strdup(tt->note);
			in->graph.n_tensors = ++nt;
			if (!in->ids[nt - 1] || !in->notes[nt - 1])
				return -ENOMEM;
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
	}
	for (i = 0; i < m->refs.n; i++)
		m->refs.v[i] = m->keys[m->refs.v[i]].seen;
	in->refs = m->refs.v;
	in->graph.n_refs = m->refs.n;
	m->refs.v = NULL;
	m->info->n_used = nt;
	if (m->has_offline)
		ta_tfl_fixed_offsets(m, in);
	return 0;
}

static void ta_tfl_free(struct ta_tfl *m)
{
	u32 s, i;

	for (s = 0; m->sg && s < m->n_subgraphs; s++) {
		struct ta_tfl_sg *sg = &m->sg[s];

		for (i = 0; sg->t && i < sg->n_tensors; i++)
			free(sg->t[i].note);
		for (i = 0; sg->ops && i < sg->n_ops; i++)
			free(sg->ops[i].name);
		free(sg->t);
		free(sg->ops);
		free(sg->refs.v);
		free(sg->inputs);
		free(sg->outputs);
	}
	free(m->sg);
	free(m->sg_base);
	free(m->copies);
	free(m->keys);
	for (i = 0; i < m->n_ops; i++)
		free(m->op_names[i]);
	free(m->ops);
	free(m->op_names);
	free(m->refs.v);
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
 * Subgraph 0 with every subgraph it calls inlined (Documentation/tflite.md);
 * @in->fixed_offsets when the model has an OfflineMemoryAllocation entry.
 *
 * Return: 0; -EINVAL for a corrupt file or one this reader cannot plan
 * (dynamic shapes, a type without a fixed size, recursive control flow, a
 * subgraph-calling op it cannot inline, malformed OfflineMemoryAllocation
 * metadata, a graph that ta_graph_lifetimes() rejects); -E2BIG beyond the
 * limits; -ENOMEM.
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
	ta_tfl_free(&m);
	if (ret == -ENOMEM)
		ta_err(err, errlen, name, 0, "out of memory");
	else if (ret == -E2BIG && !(err && errlen && err[0]))
		ta_err(err, errlen, name, 0,
		       "more than %u operator references", (u32)TA_TFL_MAX_REFS);
	if (ret)
		goto fail;
	ret = ta_input_finish_graph(in, name,
				    "a tensor written twice, read before written, or a written input/constant; S:I is tensor I of subgraph S",
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
/**
 * ta_is_tflite_name() - does a file name end in ".tflite" (any case)?
 * @path: the file name
 *
 * A file so named goes to the TFLite reader even without the "TFL3"
 * identifier, whose message then says what is wrong with it.
 */
bool ta_is_tflite_name(const char *path)
{
	size_t l = strlen(path);

	return l >= 7 && !strcasecmp(path + l - 7, ".tflite");
}

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
