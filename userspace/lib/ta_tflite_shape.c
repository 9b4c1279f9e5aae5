// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_shape.c - the TFLite reader (ta_tflite.c): each op's output
 * shape as TFLite's kernel computes it, against the shape the model
 * records.
 *
 * The reader plans a tensor at its recorded shape. TFLite's kernels do not
 * read that shape for their outputs: each op's Prepare() computes it from
 * the inputs and the options, and the runtime resizes the tensor to it. A
 * model that records an output smaller than that is planned too small, and
 * the op writes past it (Documentation/tflite.md, "Against TFLite's
 * runtime", measured in LiteRT). So for the builtins below the computed
 * shape must be the recorded one, or the model is refused, naming the op;
 * the other builtins' outputs are taken as recorded (tflite.md says which
 * are checked). An op whose inputs the runtime itself refuses (shapes
 * that do not broadcast, a stride of 0, a window past its input) is left
 * to the runtime: it does not run, so it writes nothing.
 */
#include "ta_tflite_shape.h"

/* Inputs of one op read here (a CONCATENATION of more is not checked). */
#define TA_TFL_SHAPE_MAX_INPUTS	64

/* Padding, the enum of the window options. */
enum { TA_TFL_PADDING_VALID = 1 };

/* What the checker knows of an op's kind. */
enum ta_tfl_shape_rule {
	TA_TFL_RULE_NONE,	/* taken as recorded */
	TA_TFL_RULE_SAME,	/* input 0's shape */
	TA_TFL_RULE_BROADCAST,	/* inputs 0 and 1 broadcast */
	TA_TFL_RULE_ELEMENTS,	/* input 0's element count (a view) */
	TA_TFL_RULE_CONV,
	TA_TFL_RULE_DEPTHWISE,
	TA_TFL_RULE_CONV_3D,
	TA_TFL_RULE_POOL,
	TA_TFL_RULE_FC,
	TA_TFL_RULE_CONCAT,
	/* from constant inputs */
	TA_TFL_RULE_PAD,	/* paddings [rank, 2] */
	TA_TFL_RULE_REDUCE,	/* axes; keep_dims */
	TA_TFL_RULE_TRANSPOSE,	/* perm */
	TA_TFL_RULE_RESIZE,	/* [height, width] */
	TA_TFL_RULE_ARG,	/* axis: ARG_MAX, ARG_MIN */
	TA_TFL_RULE_TILE,	/* multiples */
	TA_TFL_RULE_SLICE,	/* begin, size */
	TA_TFL_RULE_SPLIT,	/* axis (input 0), num_splits: every output */
	/* from options */
	TA_TFL_RULE_PACK,
	TA_TFL_RULE_UNPACK,	/* every output */
	TA_TFL_RULE_GATHER,
	TA_TFL_RULE_SPACE_TO_DEPTH,
	TA_TFL_RULE_DEPTH_TO_SPACE,
	TA_TFL_RULE_SVDF,
	/* from the inputs' shapes alone */
	TA_TFL_RULE_GATHER_ND,
	TA_TFL_RULE_SEQUENCE_LSTM,
	TA_TFL_RULE_BATCH_MATMUL,	/* adj_x, adj_y */
	TA_TFL_RULE_SELECT_V2,		/* three inputs broadcast */
	TA_TFL_RULE_TRANSPOSE_CONV,	/* the constant output_shape */
	TA_TFL_RULE_SELECT,		/* x's shape, y's and the condition's */
	TA_TFL_RULE_INDEXED,		/* ta_tflite_shape_index.c */
};

static enum ta_tfl_shape_rule ta_tfl_rule(u32 code)
{
	switch (code) {
	/* elementwise with one input, or whose output is input 0's shape */
	case 6:		/* DEQUANTIZE */
	case 8:		/* FLOOR */
	case 11:	/* L2_NORMALIZATION */
	case 13:	/* LOCAL_RESPONSE_NORMALIZATION */
	case 14:	/* LOGISTIC */
	case 19:	/* RELU */
	case 20:	/* RELU_N1_TO_1 */
	case 21:	/* RELU6 */
	case 25:	/* SOFTMAX */
	case 28:	/* TANH */
	case 47:	/* EXP */
	case 50:	/* LOG_SOFTMAX */
	case 53:	/* CAST */
	case 59:	/* NEG */
	case 66:	/* SIN */
	case 73:	/* LOG */
	case 75:	/* SQRT */
	case 76:	/* RSQRT */
	case 87:	/* LOGICAL_NOT */
	case 92:	/* SQUARE */
	case 93:	/* ZEROS_LIKE */
	case 98:	/* LEAKY_RELU */
	case 101:	/* ABS */
	case 104:	/* CEIL */
	case 105:	/* REVERSE_V2 */
	case 106:	/* ADD_N: every input of input 0's shape */
	case 108:	/* COS */
	case 111:	/* ELU */
	case 114:	/* QUANTIZE */
	case 116:	/* ROUND */
	case 117:	/* HARD_SWISH */
	case 128:	/* CUMSUM */
	case 150:	/* GELU */
	case 152:	/* RELU_0_TO_1 */
	case 158:	/* SIGN */
		return TA_TFL_RULE_SAME;
	/* two inputs, broadcast */
	case TA_TFL_ADD:
	case 18:	/* MUL */
	case 41:	/* SUB */
	case 42:	/* DIV */
	case 54:	/* PRELU */
	case 55:	/* MAXIMUM */
	case 57:	/* MINIMUM */
	case 58:	/* LESS */
	case 61:	/* GREATER */
	case 62:	/* GREATER_EQUAL */
	case 63:	/* LESS_EQUAL */
	case 71:	/* EQUAL */
	case 72:	/* NOT_EQUAL */
	case 78:	/* POW */
	case 84:	/* LOGICAL_OR */
	case 86:	/* LOGICAL_AND */
	case 90:	/* FLOOR_DIV */
	case 95:	/* FLOOR_MOD */
	case 99:	/* SQUARED_DIFFERENCE */
	case 156:	/* ATAN2 */
	case 160:	/* BITWISE_XOR */
	case 161:	/* RIGHT_SHIFT */
		return TA_TFL_RULE_BROADCAST;
	case TA_TFL_RESHAPE:
	case TA_TFL_SQUEEZE:
	case TA_TFL_EXPAND_DIMS:
		return TA_TFL_RULE_ELEMENTS;
	case TA_TFL_CONV_2D:
		return TA_TFL_RULE_CONV;
	case TA_TFL_DEPTHWISE_CONV_2D:
		return TA_TFL_RULE_DEPTHWISE;
	case TA_TFL_CONV_3D:
		return TA_TFL_RULE_CONV_3D;
	case TA_TFL_AVERAGE_POOL_2D:
	case TA_TFL_L2_POOL_2D:
	case TA_TFL_MAX_POOL_2D:
		return TA_TFL_RULE_POOL;
	case TA_TFL_FULLY_CONNECTED:
		return TA_TFL_RULE_FC;
	case TA_TFL_CONCATENATION:
		return TA_TFL_RULE_CONCAT;
	case 34:	/* PAD */
	case 60:	/* PADV2 */
	case 100:	/* MIRROR_PAD */
		return TA_TFL_RULE_PAD;
	case 40:	/* MEAN */
	case 74:	/* SUM */
	case 81:	/* REDUCE_PROD */
	case 82:	/* REDUCE_MAX */
	case 89:	/* REDUCE_MIN */
	case 91:	/* REDUCE_ANY */
	case 140:	/* REDUCE_ALL */
		return TA_TFL_RULE_REDUCE;
	case 39:	/* TRANSPOSE */
		return TA_TFL_RULE_TRANSPOSE;
	case 23:	/* RESIZE_BILINEAR */
	case 97:	/* RESIZE_NEAREST_NEIGHBOR */
		return TA_TFL_RULE_RESIZE;
	case 56:	/* ARG_MAX */
	case 79:	/* ARG_MIN */
		return TA_TFL_RULE_ARG;
	case 69:	/* TILE */
		return TA_TFL_RULE_TILE;
	case 65:	/* SLICE */
		return TA_TFL_RULE_SLICE;
	case 49:	/* SPLIT */
		return TA_TFL_RULE_SPLIT;
	case 83:	/* PACK */
		return TA_TFL_RULE_PACK;
	case 88:	/* UNPACK */
		return TA_TFL_RULE_UNPACK;
	case 36:	/* GATHER */
		return TA_TFL_RULE_GATHER;
	case 26:	/* SPACE_TO_DEPTH */
		return TA_TFL_RULE_SPACE_TO_DEPTH;
	case 5:		/* DEPTH_TO_SPACE */
		return TA_TFL_RULE_DEPTH_TO_SPACE;
	case 27:	/* SVDF */
		return TA_TFL_RULE_SVDF;
	case 107:	/* GATHER_ND */
		return TA_TFL_RULE_GATHER_ND;
	case 44:	/* UNIDIRECTIONAL_SEQUENCE_LSTM */
		return TA_TFL_RULE_SEQUENCE_LSTM;
	case 126:	/* BATCH_MATMUL */
		return TA_TFL_RULE_BATCH_MATMUL;
	case 123:	/* SELECT_V2 */
		return TA_TFL_RULE_SELECT_V2;
	case 67:	/* TRANSPOSE_CONV */
		return TA_TFL_RULE_TRANSPOSE_CONV;
	case 64:	/* SELECT */
		return TA_TFL_RULE_SELECT;
	}
	return ta_tfl_index_rule(code) ? TA_TFL_RULE_INDEXED :
	       TA_TFL_RULE_NONE;
}

void ta_tfl_shape_of(const struct ta_tfl_tensor *t, struct ta_tfl_shape *s)
{
	u32 k;

	s->rank = t->rank;
	for (k = 0; k < t->rank; k++)
		s->d[k] = t->dims[k];
}

u64 ta_tfl_elems(const struct ta_tfl_tensor *t)
{
	u64 n = 1;
	u32 k;

	for (k = 0; k < t->rank; k++)
		n *= t->dims[k];	/* bounded when the tensor was read */
	return n;
}

/*
 * The values of constant @t (INT32 or INT64, at most @max of them) into
 * @v, their count into *@n, or those ta_tflite_fold.c computed for it;
 * false when @t holds no such data (a variable's initial value is no
 * constant: the model may assign it).
 */
bool ta_tfl_const(struct ta_tfl *m, const struct ta_tfl_tensor *t, s64 *v,
		  u32 max, u32 *n)
{
	u64 count = ta_tfl_elems(t), size, k;

	if (t->value) {
		/* computed from shapes and constants (ta_tflite_fold.c) */
		if (t->n_value > max)
			return false;
		memcpy(v, t->value, t->n_value * sizeof(*v));
		*n = t->n_value;
		return true;
	}
	size = t->type == TA_TFL_INT32 ? 4 : t->type == TA_TFL_INT64 ? 8 : 0;
	if (!(t->flags & TA_TENSOR_CONSTANT) || !size || count > max ||
	    t->data.len < count * size)
		return false;
	for (k = 0; k < count; k++) {
		u64 at = t->data.data + k * size;
		u64 x = ta_fb_u32(&m->fb, at);

		if (size == 8)
			x |= (u64)ta_fb_u32(&m->fb, at + 4) << 32;
		v[k] = size == 8 ? (s64)x : (s32)x;
	}
	*n = (u32)count;
	return true;
}

/* @axis of a shape of @rank into [0, rank); false when out of range. */
bool ta_tfl_axis(s64 *axis, u32 rank)
{
	if (*axis < 0)
		*axis += rank;
	return *axis >= 0 && *axis < rank;
}

/* "[1,2,3]" into @buf. */
static const char *ta_tfl_dims_str(const struct ta_tfl_shape *s, char *buf,
				   size_t len)
{
	size_t at = 0;
	u32 k;

	at += snprintf(buf, len, "[");
	for (k = 0; k < s->rank && at < len; k++)
		at += snprintf(buf + at, len - at, "%s%lld", k ? "," : "",
			       (long long)s->d[k]);
	if (at < len)
		snprintf(buf + at, len - at, "]");
	return buf;
}

/*
 * TFLite's ComputeOutSize() (kernels/padding.h): the output length of a
 * window @filter, @dilation apart, @stride apart over @in.
 */
static s64 ta_tfl_out_size(bool valid, s64 in, s64 filter, s64 stride,
			   s64 dilation)
{
	s64 eff = (filter - 1) * dilation + 1;

	if (valid)
		return (in + stride - eff) / stride;
	return (in + stride - 1) / stride;
}

/*
 * The builtin options table of the op, when it is of union member @type;
 * false when the op has none of that type (it is then not checked).
 */
static bool ta_tfl_options(struct ta_tfl *m, const struct ta_fbt *o,
			   u64 type, struct ta_fbt *opt, int *ret)
{
	u64 have, at, pos;

	*ret = ta_fb_scalar(&m->fb, o, TA_OP_OPTIONS_TYPE, 1, 0, &have);
	if (!*ret)
		*ret = ta_fb_field(&m->fb, o, TA_OP_OPTIONS, 4, &at);
	if (*ret || have != type || !at)
		return false;
	*ret = ta_fb_deref(&m->fb, at, &pos);
	if (!*ret)
		*ret = ta_fb_table(&m->fb, pos, opt);
	return !*ret;
}

/*
 * Reads fields of @opt: @ids[k] into @v[k], @defs[k] when absent; field
 * @ids[0] is the Padding enum (a byte) when @padding, the others int32.
 */
static int ta_tfl_ints(struct ta_tfl *m, const struct ta_fbt *opt,
		       bool padding, const u32 *ids, const s32 *defs, s64 *v,
		       u32 n)
{
	u64 x;
	u32 k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++) {
		if (!k && padding) {
			ret = ta_fb_scalar(&m->fb, opt, ids[k], 1, 0, &x);
			v[k] = (int8_t)x;
			continue;
		}
		ret = ta_fb_scalar(&m->fb, opt, ids[k], 4, (u32)defs[k], &x);
		v[k] = (s32)x;
	}
	return ret;
}

/*
 * The spatial output of CONV_2D, DEPTHWISE_CONV_2D and the pools: NHWC
 * input @in, window @kh x @kw; @f holds padding, stride_w, stride_h,
 * dilation_w, dilation_h. False when the runtime would refuse the op.
 */
static bool ta_tfl_spatial(const struct ta_tfl_tensor *in, const s64 *f,
			   s64 kh, s64 kw, s64 channels,
			   struct ta_tfl_shape *out)
{
	bool valid = f[0] == TA_TFL_PADDING_VALID;

	if (in->rank != 4 || f[1] <= 0 || f[2] <= 0 || f[3] <= 0 ||
	    f[4] <= 0 || kh <= 0 || kw <= 0)
		return false;
	out->rank = 4;
	out->d[0] = in->dims[0];
	out->d[1] = ta_tfl_out_size(valid, in->dims[1], kh, f[2], f[4]);
	out->d[2] = ta_tfl_out_size(valid, in->dims[2], kw, f[1], f[3]);
	out->d[3] = channels;
	return out->d[1] >= 0 && out->d[2] >= 0;
}

/*
 * CONV_3D: input [N, D, H, W, C], filter [KD, KH, KW, C, O]; @f holds
 * padding, stride_d, stride_w, stride_h, dilation_d, dilation_w and
 * dilation_h. False when the runtime would refuse the op.
 */
static bool ta_tfl_spatial_3d(const struct ta_tfl_tensor *in,
			      const struct ta_tfl_tensor *w, const s64 *f,
			      struct ta_tfl_shape *out)
{
	bool valid = f[0] == TA_TFL_PADDING_VALID;
	/* stride and dilation of depth, height, width; the window's */
	const s64 stride[3] = { f[1], f[3], f[2] };
	const s64 dilation[3] = { f[4], f[6], f[5] };
	u32 k;

	if (in->rank != 5 || w->rank != 5 || in->dims[4] != w->dims[3])
		return false;
	out->rank = 5;
	out->d[0] = in->dims[0];
	out->d[4] = w->dims[4];
	for (k = 0; k < 3; k++) {
		if (stride[k] <= 0 || dilation[k] <= 0 || !w->dims[k])
			return false;
		out->d[k + 1] = ta_tfl_out_size(valid, in->dims[k + 1],
						w->dims[k], stride[k],
						dilation[k]);
		if (out->d[k + 1] < 0)
			return false;
	}
	return true;
}

/*
 * Numpy's broadcast of shapes @a and @b into @out (which may be @a);
 * false when they do not broadcast.
 */
static bool ta_tfl_broadcast(const struct ta_tfl_shape *a,
			     const struct ta_tfl_shape *b,
			     struct ta_tfl_shape *out)
{
	u32 rank = a->rank > b->rank ? a->rank : b->rank, k;
	s64 d[TA_TFL_MAX_DIMS];

	for (k = 0; k < rank; k++) {
		s64 x = k < rank - a->rank ? 1 : a->d[k - (rank - a->rank)];
		s64 y = k < rank - b->rank ? 1 : b->d[k - (rank - b->rank)];

		if (x != y && x != 1 && y != 1)
			return false;
		d[k] = x == 1 ? y : x;
	}
	out->rank = rank;
	memcpy(out->d, d, rank * sizeof(d[0]));
	return true;
}

/* The broadcast of tensors @a and @b, both less their last @skip dims. */
static bool ta_tfl_broadcast_of(const struct ta_tfl_tensor *a,
				const struct ta_tfl_tensor *b, u32 skip,
				struct ta_tfl_shape *out)
{
	struct ta_tfl_shape x, y;

	ta_tfl_shape_of(a, &x);
	ta_tfl_shape_of(b, &y);
	x.rank -= skip;
	y.rank -= skip;
	return ta_tfl_broadcast(&x, &y, out);
}

/* An int32 field @id of the op's options of union member @type, or @def. */
int ta_tfl_option(struct ta_tfl *m, const struct ta_fbt *o, u64 type, u32 id,
		  s32 def, s64 *v, bool *have)
{
	struct ta_fbt opt;
	int ret;

	*v = def;
	*have = ta_tfl_options(m, o, type, &opt, &ret);
	if (*have)
		ret = ta_tfl_ints(m, &opt, false, &id, &def, v, 1);
	return ret;
}

/*
 * A one-byte field @id (a bool, an enum such as a TensorType) of the op's
 * options of union member @type into *@v, 0 when absent; *@have false when
 * the op has no such options.
 */
int ta_tfl_option_byte(struct ta_tfl *m, const struct ta_fbt *o, u64 type,
		       u32 id, s64 *v, bool *have)
{
	struct ta_fbt opt;
	u64 x = 0;
	int ret;

	*have = ta_tfl_options(m, o, type, &opt, &ret);
	if (*have)
		ret = ta_fb_scalar(&m->fb, &opt, id, 1, 0, &x);
	*v = x & 0xff;
	return ret;
}

/* A bool field @id of the op's options of union member @type, or false. */
int ta_tfl_option_bool(struct ta_tfl *m, const struct ta_fbt *o, u64 type,
		       u32 id, s64 *v)
{
	bool have;
	int ret = ta_tfl_option_byte(m, o, type, id, v, &have);

	*v = !!*v;
	return ret;
}

/* Whether @y holds @want (a view: as many elements). */
static bool ta_tfl_holds(enum ta_tfl_shape_rule rule,
			 const struct ta_tfl_shape *want,
			 const struct ta_tfl_tensor *y)
{
	bool same = want->rank == y->rank;
	u64 n = 1;
	u32 k;

	if (rule == TA_TFL_RULE_ELEMENTS) {
		for (k = 0; k < want->rank; k++)
			n *= (u64)want->d[k];
		return n == ta_tfl_elems(y);
	}
	for (k = 0; same && k < y->rank; k++)
		same = want->d[k] == y->dims[k];
	return same;
}

/*
 * The rules whose shape comes from a constant input (paddings, axes, a
 * permutation, sizes...): as ta_tfl_computed().
 */
static int ta_tfl_from_constants(struct ta_tfl *m, const struct ta_fbt *o,
				 enum ta_tfl_shape_rule rule,
				 const struct ta_tfl_tensor *t, const s32 *in,
				 u32 n_in, struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]], *w;
	s64 v[2 * TA_TFL_MAX_DIMS], u[TA_TFL_MAX_DIMS], a, b;
	bool seen[TA_TFL_MAX_DIMS] = { false }, have;
	u32 n, k, j;
	int ret;

	w = n_in > 1 && in[1] >= 0 ? &t[in[1]] : NULL;
	switch (rule) {
	case TA_TFL_RULE_PAD:
		if (!w || !ta_tfl_const(m, w, v, 2 * TA_TFL_MAX_DIMS, &n) ||
		    n != 2 * x->rank)
			return 0;
		ta_tfl_shape_of(x, out);
		for (k = 0; k < x->rank; k++) {
			if (v[2 * k] < 0 || v[2 * k + 1] < 0 ||
			    v[2 * k] > U32_MAX || v[2 * k + 1] > U32_MAX)
				return 0;
			out->d[k] += v[2 * k] + v[2 * k + 1];
		}
		return 1;
	case TA_TFL_RULE_REDUCE:
		if (!w || !ta_tfl_const(m, w, v, 2 * TA_TFL_MAX_DIMS, &n))
			return 0;
		for (k = 0; k < n; k++) {
			if (!ta_tfl_axis(&v[k], x->rank))
				return 0;
			seen[v[k]] = true;
		}
		/* keep_dims */
		ret = ta_tfl_option_bool(m, o, TA_TFL_REDUCER_OPTIONS, 0, &a);
		if (ret)
			return ret;
		out->rank = 0;
		for (k = 0; k < x->rank; k++)
			if (!seen[k])
				out->d[out->rank++] = x->dims[k];
			else if (a)
				out->d[out->rank++] = 1;
		return 1;
	case TA_TFL_RULE_TRANSPOSE:
		if (!w || !ta_tfl_const(m, w, v, TA_TFL_MAX_DIMS, &n) ||
		    n != x->rank)
			return 0;
		out->rank = n;
		for (k = 0; k < n; k++) {
			if (v[k] < 0 || v[k] >= n || seen[v[k]])
				return 0;
			seen[v[k]] = true;
			out->d[k] = x->dims[v[k]];
		}
		return 1;
	case TA_TFL_RULE_RESIZE:
		if (!w || x->rank != 4 || !ta_tfl_const(m, w, v, 2, &n) ||
		    n != 2 || v[0] <= 0 || v[1] <= 0 || v[0] > U32_MAX ||
		    v[1] > U32_MAX)
			return 0;
		ta_tfl_shape_of(x, out);
		out->d[1] = v[0];
		out->d[2] = v[1];
		return 1;
	case TA_TFL_RULE_ARG:
		if (!w || !ta_tfl_const(m, w, v, 1, &n) || n != 1 ||
		    !ta_tfl_axis(&v[0], x->rank))
			return 0;
		out->rank = 0;
		for (k = 0; k < x->rank; k++)
			if (k != v[0])
				out->d[out->rank++] = x->dims[k];
		return 1;
	case TA_TFL_RULE_TILE:
		if (!w || !ta_tfl_const(m, w, v, TA_TFL_MAX_DIMS, &n) ||
		    n != x->rank)
			return 0;
		ta_tfl_shape_of(x, out);
		for (k = 0; k < n; k++) {
			if (v[k] < 0 || v[k] > U32_MAX)
				return 0;
			out->d[k] *= v[k];
		}
		return 1;
	case TA_TFL_RULE_SLICE:
		if (!w || n_in < 3 || in[2] < 0 ||
		    !ta_tfl_const(m, w, v, TA_TFL_MAX_DIMS, &n) ||
		    n != x->rank ||
		    !ta_tfl_const(m, &t[in[2]], u, TA_TFL_MAX_DIMS, &j) ||
		    j != n)
			return 0;
		out->rank = n;
		for (k = 0; k < n; k++) {
			/* begin, then size, inside the input (no overflow) */
			if (v[k] < 0 || v[k] > x->dims[k])
				return 0;
			b = u[k] == -1 ? (s64)x->dims[k] - v[k] : u[k];
			if (b < 0 || b > (s64)x->dims[k] - v[k])
				return 0;
			out->d[k] = b;
		}
		return 1;
	case TA_TFL_RULE_SPLIT:
		/* axis first, then the value */
		if (!w || !ta_tfl_const(m, x, v, 1, &n) || n != 1 ||
		    !ta_tfl_axis(&v[0], w->rank))
			return 0;
		ret = ta_tfl_option(m, o, TA_TFL_SPLIT_OPTIONS, 0, 0, &a,
				    &have);
		if (ret || a <= 0 || w->dims[v[0]] % a)
			return ret;
		ta_tfl_shape_of(w, out);
		out->d[v[0]] /= a;
		return 1;
	case TA_TFL_RULE_TRANSPOSE_CONV:
		/* output_shape (input 0) holds the output's shape */
		if (!ta_tfl_const(m, x, v, TA_TFL_MAX_DIMS, &n))
			return 0;
		out->rank = n;
		for (k = 0; k < n; k++) {
			if (v[k] < 0 || v[k] > U32_MAX)
				return 0;
			out->d[k] = v[k];
		}
		return 1;
	default:
		break;
	}
	return 0;
}

/*
 * The rules whose shape comes from options or from the inputs' shapes
 * alone (PACK, GATHER, BATCH_MATMUL...): as ta_tfl_computed().
 */
static int ta_tfl_from_options(struct ta_tfl *m, const struct ta_fbt *o,
			       enum ta_tfl_shape_rule rule,
			       const struct ta_tfl_tensor *t, const s32 *in,
			       u32 n_in, struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]], *w;
	struct ta_tfl_shape c;
	s64 a, b;
	bool have;
	u32 k, j;
	int ret;

	w = n_in > 1 && in[1] >= 0 ? &t[in[1]] : NULL;
	switch (rule) {
	case TA_TFL_RULE_PACK:
		ret = ta_tfl_option(m, o, TA_TFL_PACK_OPTIONS, 0, 0, &a,
				    &have);
		if (!ret)
			ret = ta_tfl_option(m, o, TA_TFL_PACK_OPTIONS, 1, 0, &b,
					    &have);
		if (ret || !have || a != n_in ||
		    x->rank + 1 > TA_TFL_MAX_DIMS || !ta_tfl_axis(&b, x->rank + 1))
			return ret;
		for (k = 1; k < n_in; k++) {
			if (in[k] < 0 || t[in[k]].rank != x->rank)
				return 0;
			for (j = 0; j < x->rank; j++)
				if (t[in[k]].dims[j] != x->dims[j])
					return 0;
		}
		out->rank = x->rank + 1;
		for (k = 0, j = 0; k < out->rank; k++)
			out->d[k] = k == b ? a : x->dims[j++];
		return 1;
	case TA_TFL_RULE_UNPACK:
		ret = ta_tfl_option(m, o, TA_TFL_UNPACK_OPTIONS, 0, 0, &a,
				    &have);
		if (!ret)
			ret = ta_tfl_option(m, o, TA_TFL_UNPACK_OPTIONS, 1, 0, &b,
					    &have);
		if (ret || !have || !ta_tfl_axis(&b, x->rank) ||
		    x->dims[b] != a)
			return ret;
		out->rank = 0;
		for (k = 0; k < x->rank; k++)
			if (k != b)
				out->d[out->rank++] = x->dims[k];
		return 1;
	case TA_TFL_RULE_GATHER:
		ret = ta_tfl_option(m, o, TA_TFL_GATHER_OPTIONS, 0, 0, &a,
				    &have);
		if (!ret)
			ret = ta_tfl_option(m, o, TA_TFL_GATHER_OPTIONS, 1, 0,
					    &b, &have);
		if (ret || !w || !ta_tfl_axis(&a, x->rank))
			return ret;
		if (b < 0)
			b += w->rank;
		if (b < 0 || b > w->rank || b > a ||
		    x->rank - 1 + w->rank - b > TA_TFL_MAX_DIMS)
			return 0;
		out->rank = 0;
		for (k = 0; k < a; k++)
			out->d[out->rank++] = x->dims[k];
		for (k = (u32)b; k < w->rank; k++)
			out->d[out->rank++] = w->dims[k];
		for (k = (u32)a + 1; k < x->rank; k++)
			out->d[out->rank++] = x->dims[k];
		return 1;
	case TA_TFL_RULE_SPACE_TO_DEPTH:
	case TA_TFL_RULE_DEPTH_TO_SPACE:
		ret = ta_tfl_option(m, o, rule == TA_TFL_RULE_SPACE_TO_DEPTH ?
				    TA_TFL_SPACE_TO_DEPTH_OPTIONS :
				    TA_TFL_DEPTH_TO_SPACE_OPTIONS, 0, 0, &a,
				    &have);
		if (ret || a <= 0 || a > 65535 || x->rank != 4)
			return ret;
		ta_tfl_shape_of(x, out);
		if (rule == TA_TFL_RULE_SPACE_TO_DEPTH) {
			if (out->d[1] % a || out->d[2] % a)
				return 0;
			out->d[1] /= a;
			out->d[2] /= a;
			out->d[3] *= a * a;
		} else {
			if (out->d[3] % (a * a))
				return 0;
			out->d[1] *= a;
			out->d[2] *= a;
			out->d[3] /= a * a;
		}
		return 1;
	case TA_TFL_RULE_SVDF:
		/* input [batch, size], weights_feature [filters, size] */
		ret = ta_tfl_option(m, o, TA_TFL_SVDF_OPTIONS, 0, 0, &a,
				    &have);
		if (ret || !w || a <= 0 || x->rank != 2 || w->rank != 2 ||
		    w->dims[0] % a)
			return ret;
		out->rank = 2;
		out->d[0] = x->dims[0];
		out->d[1] = w->dims[0] / a;
		return 1;
	case TA_TFL_RULE_GATHER_ND:
		/* indices[:-1] + params[indices[-1]:] */
		if (!w || !w->rank || w->dims[w->rank - 1] > x->rank ||
		    w->rank - 1 + x->rank - w->dims[w->rank - 1] >
		    TA_TFL_MAX_DIMS)
			return 0;
		out->rank = 0;
		for (k = 0; k + 1 < w->rank; k++)
			out->d[out->rank++] = w->dims[k];
		for (k = w->dims[w->rank - 1]; k < x->rank; k++)
			out->d[out->rank++] = x->dims[k];
		return 1;
	case TA_TFL_RULE_BATCH_MATMUL:
		/* the batch dimensions broadcast, then [rows of x, cols of y] */
		if (!w || x->rank < 2 || w->rank < 2)
			return 0;
		/* adj_x, adj_y */
		ret = ta_tfl_option_bool(m, o, TA_TFL_BATCH_MATMUL_OPTIONS, 0,
					 &a);
		if (!ret)
			ret = ta_tfl_option_bool(m, o,
						 TA_TFL_BATCH_MATMUL_OPTIONS, 1,
						 &b);
		if (ret)
			return ret;
		if (x->dims[x->rank - (a ? 2 : 1)] !=
		    w->dims[w->rank - (b ? 1 : 2)] ||
		    !ta_tfl_broadcast_of(x, w, 2, out))
			return 0;
		out->d[out->rank++] = x->dims[x->rank - (a ? 1 : 2)];
		out->d[out->rank++] = w->dims[w->rank - (b ? 2 : 1)];
		return 1;
	case TA_TFL_RULE_SELECT_V2:
		if (!w || n_in < 3 || in[2] < 0 ||
		    !ta_tfl_broadcast_of(x, w, 0, out))
			return 0;
		ta_tfl_shape_of(&t[in[2]], &c);
		return ta_tfl_broadcast(out, &c, out) ? 1 : 0;
	case TA_TFL_RULE_SELECT:
		/*
		 * condition, x, y: x's shape, which y has; the condition has
		 * it too, or is a scalar, or a vector along x's first axis
		 */
		if (!w || n_in != 3 || in[2] < 0)
			return 0;
		ta_tfl_shape_of(w, out);
		if (!ta_tfl_holds(TA_TFL_RULE_SAME, out, &t[in[2]]))
			return 0;
		return ta_tfl_holds(TA_TFL_RULE_SAME, out, x) || !x->rank ||
		       (x->rank == 1 && w->rank && x->dims[0] == w->dims[0]) ?
		       1 : 0;
	case TA_TFL_RULE_SEQUENCE_LSTM:
		/*
		 * the input [batch, time, n_input] (or time first) with
		 * n_output, recurrent_to_output_weights' (input 8) second
		 * dimension, last
		 */
		if (n_in < 9 || in[8] < 0 || x->rank != 3 ||
		    t[in[8]].rank != 2)
			return 0;
		ta_tfl_shape_of(x, out);
		out->d[2] = t[in[8]].dims[1];
		return 1;
	default:
		break;
	}
	return 0;
}

/*
 * The int32 vector field @id of the op's options of union member @type
 * into @v (at most @max); false when there is none.
 */
static bool ta_tfl_option_ints(struct ta_tfl *m, const struct ta_fbt *o,
			       u64 type, u32 id, s64 *v, u32 max, u32 *n,
			       int *ret)
{
	struct ta_fbt opt;
	struct ta_fbv vec;
	u32 k;

	if (!ta_tfl_options(m, o, type, &opt, ret))
		return false;
	*ret = ta_fb_vector(&m->fb, &opt, id, 4, &vec);
	if (*ret || !vec.data || vec.len > max)
		return false;
	for (k = 0; k < vec.len; k++)
		v[k] = (s32)ta_fb_u32(&m->fb, vec.data + 4 * k);
	*n = (u32)vec.len;
	return true;
}

/*
 * The exact shape a view (RESHAPE, SQUEEZE, EXPAND_DIMS) of @x takes, as
 * TFLite's kernel takes it: RESHAPE's INT32 shape input, else its
 * new_shape option (a -1 the elements left over; [0] a scalar, as TFLite
 * reads old models); SQUEEZE's squeeze_dims (none: every 1 goes);
 * EXPAND_DIMS's constant axis. Returns 1 with @out set, 0 when only the
 * element count is known (a shape an op computes), or -errno.
 */
static int ta_tfl_view_shape(struct ta_tfl *m, const struct ta_fbt *o,
			     u32 code, const struct ta_tfl_tensor *t,
			     const s32 *in, u32 n_in,
			     struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]];
	const struct ta_tfl_tensor *w = n_in > 1 && in[1] >= 0 ? &t[in[1]] :
					NULL;
	u64 known = 1, elems = ta_tfl_elems(x);
	s64 v[TA_TFL_MAX_DIMS];
	u32 n = 0, k, open = TA_TFL_MAX_DIMS;
	bool seen[TA_TFL_MAX_DIMS] = { false };
	int ret = 0;

	switch (code) {
	case TA_TFL_RESHAPE:
		if (w && w->rank == 1 && w->type == TA_TFL_INT32) {
			if (!ta_tfl_const(m, w, v, TA_TFL_MAX_DIMS, &n))
				return 0;
		} else if (!ta_tfl_option_ints(m, o, TA_TFL_RESHAPE_OPTIONS, 0,
					       v, TA_TFL_MAX_DIMS, &n, &ret)) {
			return ret;
		} else if (n == 1 && !v[0]) {
			n = 0;	/* [0]: a scalar */
		}
		for (k = 0; k < n; k++) {
			if (v[k] == -1 && open == TA_TFL_MAX_DIMS) {
				open = k;
				continue;
			}
			if (v[k] < 0)
				return 0;
			known *= (u64)v[k];	/* < 2^31 each */
			if (known > TA_TFL_MAX_ELEMS)
				return 0;
		}
		if (open < n) {
			if (!known || elems % known)
				return 0;
			v[open] = (s64)(elems / known);
		}
		out->rank = n;
		for (k = 0; k < n; k++)
			out->d[k] = v[k];
		return 1;
	case TA_TFL_SQUEEZE:
		if (!ta_tfl_option_ints(m, o, TA_TFL_SQUEEZE_OPTIONS, 0, v,
					TA_TFL_MAX_DIMS, &n, &ret) && ret)
			return ret;
		for (k = 0; k < n; k++) {
			if (!ta_tfl_axis(&v[k], x->rank) || x->dims[v[k]] != 1)
				return 0;
			seen[v[k]] = true;
		}
		out->rank = 0;
		for (k = 0; k < x->rank; k++)
			if (n ? !seen[k] : x->dims[k] != 1)
				out->d[out->rank++] = x->dims[k];
		return 1;
	case TA_TFL_EXPAND_DIMS:
		if (!w || x->rank + 1 > TA_TFL_MAX_DIMS ||
		    !ta_tfl_const(m, w, v, 1, &n) || n != 1 ||
		    !ta_tfl_axis(&v[0], x->rank + 1))
			return 0;
		out->rank = x->rank + 1;
		for (k = 0, n = 0; k < out->rank; k++)
			out->d[k] = k == v[0] ? 1 : x->dims[n++];
		return 1;
	}
	return 0;
}

/*
 * The shape of output @k op @op computes from @t[@in[...]] (the op's
 * inputs as written, -1 for one left out, @n_in of them) into @out.
 * Returns 1 with @out set, 0 when the op is not checked (its rule is none,
 * an input it needs is missing, or the runtime would refuse its inputs),
 * or -errno.
 */
static int ta_tfl_computed(struct ta_tfl *m, const struct ta_fbt *o,
			   const struct ta_tfl_op *op, u32 k_out,
			   const struct ta_tfl_tensor *t, const s32 *in,
			   u32 n_in, struct ta_tfl_shape *out)
{
	static const u32 conv_ids[] = { 0, 1, 2, 4, 5 };
	static const u32 dw_ids[] = { 0, 1, 2, 5, 6 };
	static const u32 pool_ids[] = { 0, 1, 2, 3, 4 };
	static const s32 conv_defs[] = { 0, 0, 0, 1, 1 };
	static const s32 pool_defs[] = { 0, 0, 0, 0, 0 };
	/* padding, stride_d, _w, _h, dilation_d, _w, _h (not the activation) */
	static const u32 conv3d_ids[] = { 0, 1, 2, 3, 5, 6, 7 };
	static const s32 conv3d_defs[] = { 0, 0, 0, 0, 1, 1, 1 };
	enum ta_tfl_shape_rule rule = ta_tfl_rule(op->code);
	const struct ta_tfl_tensor *x, *w;
	struct ta_fbt opt;
	s64 f[5], g[5], g3[7], axis;
	u64 keep, units, in_elems;
	u32 k, j;
	int ret;

	if (rule == TA_TFL_RULE_NONE || !n_in || in[0] < 0)
		return 0;
	x = &t[in[0]];
	w = n_in > 1 && in[1] >= 0 ? &t[in[1]] : NULL;
	switch (rule) {
	case TA_TFL_RULE_SAME:
	case TA_TFL_RULE_ELEMENTS:
		ta_tfl_shape_of(x, out);
		return 1;
	case TA_TFL_RULE_BROADCAST:
		return w && ta_tfl_broadcast_of(x, w, 0, out) ? 1 : 0;
	case TA_TFL_RULE_CONV:
	case TA_TFL_RULE_DEPTHWISE:
		if (!w || w->rank != 4)
			return 0;
		if (!ta_tfl_options(m, o, rule == TA_TFL_RULE_CONV ?
				    TA_TFL_CONV_OPTIONS :
				    TA_TFL_DEPTHWISE_OPTIONS, &opt, &ret))
			return ret;
		ret = ta_tfl_ints(m, &opt, true, rule == TA_TFL_RULE_CONV ?
				  conv_ids : dw_ids, conv_defs, f, 5);
		if (ret)
			return ret;
		/* filter [O, KH, KW, I]; depthwise [1, KH, KW, O] */
		return ta_tfl_spatial(x, f, w->dims[1], w->dims[2],
				      rule == TA_TFL_RULE_CONV ? w->dims[0] :
				      w->dims[3], out) ? 1 : 0;
	case TA_TFL_RULE_CONV_3D:
		if (!w || !ta_tfl_options(m, o, TA_TFL_CONV_3D_OPTIONS, &opt,
					  &ret))
			return w ? ret : 0;
		ret = ta_tfl_ints(m, &opt, true, conv3d_ids, conv3d_defs, g3,
				  7);
		if (ret)
			return ret;
		return ta_tfl_spatial_3d(x, w, g3, out) ? 1 : 0;
	case TA_TFL_RULE_POOL:
		if (!ta_tfl_options(m, o, TA_TFL_POOL_OPTIONS, &opt, &ret))
			return ret;
		ret = ta_tfl_ints(m, &opt, true, pool_ids, pool_defs, f, 5);
		if (ret || x->rank != 4)
			return ret;
		/* stride_w, stride_h, then the window: no dilation */
		g[0] = f[0];
		g[1] = f[1];
		g[2] = f[2];
		g[3] = 1;
		g[4] = 1;
		return ta_tfl_spatial(x, g, f[4], f[3], x->dims[3], out) ?
		       1 : 0;
	case TA_TFL_RULE_FC:
		/* weights [units, input depth] */
		if (!w || w->rank != 2 || !w->dims[1])
			return 0;
		keep = 0;
		if (ta_tfl_options(m, o, TA_TFL_FC_OPTIONS, &opt, &ret))
			ret = ta_fb_scalar(&m->fb, &opt, 2, 1, 0, &keep);
		if (ret)
			return ret;
		units = w->dims[0];
		in_elems = ta_tfl_elems(x);
		if (in_elems % w->dims[1])
			return 0;
		if (keep) {
			if (!x->rank || x->dims[x->rank - 1] != w->dims[1])
				return 0;
			ta_tfl_shape_of(x, out);
			out->d[x->rank - 1] = (s64)units;
		} else {
			out->rank = 2;
			out->d[0] = (s64)(in_elems / w->dims[1]);
			out->d[1] = (s64)units;
		}
		return 1;
	case TA_TFL_RULE_CONCAT:
		if (!ta_tfl_options(m, o, TA_TFL_CONCAT_OPTIONS, &opt, &ret))
			return ret;
		ret = ta_tfl_ints(m, &opt, false, (const u32[]){ 0 },
				  (const s32[]){ 0 }, &axis, 1);
		if (ret || !x->rank)
			return ret;
		if (axis < 0)
			axis += x->rank;
		if (axis < 0 || axis >= x->rank)
			return 0;
		ta_tfl_shape_of(x, out);
		for (k = 1; k < n_in; k++) {
			const struct ta_tfl_tensor *y;

			if (in[k] < 0)
				return 0;
			y = &t[in[k]];
			if (y->rank != x->rank)
				return 0;
			for (j = 0; j < x->rank; j++)
				if (j != axis && y->dims[j] != x->dims[j])
					return 0;
			out->d[axis] += y->dims[axis];
		}
		return 1;
	case TA_TFL_RULE_INDEXED:
		return ta_tfl_index_shape(m, o, op->code, k_out, t, in, n_in,
					  out);
	case TA_TFL_RULE_NONE:
		break;
	default:
		ret = ta_tfl_from_constants(m, o, rule, t, in, n_in, out);
		if (!ret)
			ret = ta_tfl_from_options(m, o, rule, t, in, n_in, out);
		return ret;
	}
	return 0;
}

/**
 * ta_tfl_check_shape() - op @i of subgraph @s records the output shapes
 * its kernel computes
 * @m: the model
 * @s: subgraph
 * @i: op
 * @o: the op's table
 *
 * The first output (every output of SPLIT, UNPACK, SPLIT_V and TOPK_V2)
 * against the shape computed from the inputs; counted in
 * &ta_tflite_info.n_shape_checked.
 *
 * Return: 0 (also when the op is not checked); -EINVAL (with a message
 * naming the op, the tensor and both shapes) when a recorded shape is not
 * the computed one; -errno when the file is corrupt.
 */
int ta_tfl_check_shape(struct ta_tfl *m, u32 s, u32 i, const struct ta_fbt *o)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	const struct ta_tfl_op *op = &sg->ops[i];
	enum ta_tfl_shape_rule rule = ta_tfl_rule(op->code);
	struct ta_tfl_shape want, got, exact;
	struct ta_fbv ins, outs;
	s32 in[TA_TFL_SHAPE_MAX_INPUTS];
	char a[TA_TFL_MAX_DIMS * 21 + 3], b[sizeof(a)];
	u32 n_in, n_out, k;
	s32 out = -1;
	int ret;

	if (rule == TA_TFL_RULE_NONE)
		return 0;
	ret = ta_fb_vector(&m->fb, o, TA_OP_INPUTS, 4, &ins);
	if (!ret)
		ret = ta_fb_vector(&m->fb, o, TA_OP_OUTPUTS, 4, &outs);
	if (ret || !outs.len || ins.len > TA_TFL_SHAPE_MAX_INPUTS)
		return ret;
	/* the indices were checked when the op was read */
	n_in = (u32)ins.len;
	for (k = 0; k < n_in; k++)
		in[k] = (s32)ta_fb_u32(&m->fb, ins.data + 4 * k);
	ret = ta_tfl_computed(m, o, op, 0, sg->t, in, n_in, &want);
	if (ret <= 0)
		return ret;
	if (rule == TA_TFL_RULE_ELEMENTS) {
		/*
		 * A view keeps its input's elements (an op before it that
		 * writes more shows here), in the very shape its kernel
		 * takes when that is known.
		 */
		out = (s32)ta_fb_u32(&m->fb, outs.data);
		if (ta_tfl_holds(rule, &want, &sg->t[out])) {
			ret = ta_tfl_view_shape(m, o, op->code, sg->t, in,
						n_in, &exact);
			if (ret < 0)
				return ret;
			if (ret) {
				want = exact;
				rule = TA_TFL_RULE_SAME;
			}
		}
	}
	/*
	 * SPLIT and UNPACK: every output has that shape; SPLIT_V's and
	 * TOPK_V2's each its own; the others' first output is checked
	 */
	n_out = rule == TA_TFL_RULE_SPLIT || rule == TA_TFL_RULE_UNPACK ||
		(rule == TA_TFL_RULE_INDEXED &&
		 ta_tfl_index_all_outputs(op->code)) ? (u32)outs.len : 1;
	for (k = 0; k < n_out; k++) {
		if (k && rule == TA_TFL_RULE_INDEXED) {
			ret = ta_tfl_computed(m, o, op, k, sg->t, in, n_in,
					      &want);
			if (ret <= 0)
				return ret;
		}
		out = (s32)ta_fb_u32(&m->fb, outs.data + 4 * k);
		if (!ta_tfl_holds(rule, &want, &sg->t[out]))
			break;
	}
	if (k == n_out) {
		m->info->n_shape_checked++;
		return 0;
	}
	ta_tfl_shape_of(&sg->t[out], &got);
	if (rule == TA_TFL_RULE_ELEMENTS)
		ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
		       "subgraph %u, op %u (%s): its output, tensor %d, records %s, not as many elements as its input's %s, which TFLite's kernel keeps: the model is refused rather than planned at the recorded size",
		       s, i, op->name, out,
		       ta_tfl_dims_str(&got, a, sizeof(a)),
		       ta_tfl_dims_str(&want, b, sizeof(b)));
	else
		ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
		       "subgraph %u, op %u (%s): its output, tensor %d, records %s, but TFLite's kernel computes %s from its inputs and writes that: the model is refused rather than planned at the recorded size",
		       s, i, op->name, out,
		       ta_tfl_dims_str(&got, a, sizeof(a)),
		       ta_tfl_dims_str(&want, b, sizeof(b)));
	return -EINVAL;
}

/**
 * ta_tfl_check_call_shapes() - an IF's or WHILE's outputs record what the
 * called subgraphs write into them
 * @m: the model (the callees read)
 * @s: subgraph of the op
 * @i: the op (IF, WHILE or CALL_ONCE)
 *
 * TFLite's IF copies the branch's outputs into the op's, WHILE the body's
 * (and resizes the op's outputs to their shapes): each output must record
 * the shape of the callee's output of the same place (CALL_ONCE has none).
 *
 * Return: 0, or -EINVAL with a message naming the op, the output and both
 * shapes.
 */
int ta_tfl_check_call_shapes(struct ta_tfl *m, u32 s, u32 i)
{
	const struct ta_tfl_op *op = &m->sg[s].ops[i];
	const u32 *outs = &m->sg[s].refs.v[op->first_ref + op->n_inputs];
	char a[TA_TFL_MAX_DIMS * 21 + 3], b[sizeof(a)];
	struct ta_tfl_shape want, got;
	u32 k, j, first = op->call == TA_TFL_CALLS_WHILE ? 1 : 0;

	if (op->call != TA_TFL_CALLS_IF && op->call != TA_TFL_CALLS_WHILE)
		return 0;
	for (k = first; k < op->n_callees; k++) {
		const struct ta_tfl_sg *c = &m->sg[op->callee[k]];

		/* a count that differs: the runtime refuses the op */
		if (c->n_outputs != op->n_outputs)
			return 0;
		for (j = 0; j < op->n_outputs; j++) {
			ta_tfl_shape_of(&c->t[c->outputs[j]], &want);
			if (ta_tfl_holds(TA_TFL_RULE_SAME, &want,
					 &m->sg[s].t[outs[j]]))
				continue;
			ta_tfl_shape_of(&m->sg[s].t[outs[j]], &got);
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): its output %u, tensor %u, records %s, but TFLite's kernel copies subgraph %u's output %u there, which records %s: the model is refused rather than planned at the recorded size",
			       s, i, op->name, j, outs[j],
			       ta_tfl_dims_str(&got, a, sizeof(a)),
			       op->callee[k], j,
			       ta_tfl_dims_str(&want, b, sizeof(b)));
			return -EINVAL;
		}
	}
	m->info->n_shape_checked++;
	return 0;
}
