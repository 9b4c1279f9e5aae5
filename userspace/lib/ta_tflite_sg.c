// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_sg.c - the TFLite reader (ta_tflite.c): the schema's enums,
 * and the model's subgraphs, each read once (tensors, inputs and outputs,
 * operators and the subgraphs they call).
 */
#include "ta_tflite_internal.h"

/* ---- the TFLite schema's enums ---- */

/**
 * ta_tfl_type_bits() - element size of a TensorType
 * @type: TensorType
 * @name: out, its name ("unknown" past the schema's)
 *
 * Return: bits (INT4 is packed two per byte), 0 for the types of no fixed
 * size and unknown ones.
 */
u32 ta_tfl_type_bits(u64 type, const char **name)
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

int ta_tfl_ref(struct ta_tfl_refs *r, u32 t)
{
	int ret;

	if (r->n >= TA_TFL_MAX_REFS)
		return -E2BIG;
	ret = ta_grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v));
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
	struct ta_fbv shape, sig, name, data;
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
	if (!ret)
		ret = ta_fb_vector(fb, &t, TA_T_SIGNATURE, 4, &sig);
	if (ret)
		return ret;
	/*
	 * A dimension left open by the converter (a batch): -1 in
	 * shape_signature, its size in shape (1). TFLite allocates shape's
	 * unless the application resizes the input, which tactl import says.
	 */
	for (k = 0; k < sig.len && !tt->dynamic; k++)
		tt->dynamic = (s32)ta_fb_u32(fb, sig.data + 4 * k) < 0;
	if (shape.len > TA_TFL_MAX_DIMS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%s: %llu dimensions, more than %u (the most this reader plans)",
		       who, (unsigned long long)shape.len,
		       (u32)TA_TFL_MAX_DIMS);
		return -EINVAL;
	}
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
		tt->dims[k] = (u32)d;
		dl += snprintf(dims + dl, sizeof(dims) - dl, "%s%d",
			       k ? "," : "", d);
	}
	tt->rank = (u32)shape.len;
	dims[dl++] = ']';
	dims[dl] = 0;
	bits = ta_tfl_type_bits(type, &tname);
	if (!bits) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%s: element type %s (%llu) has no fixed size",
		       who, tname, (unsigned long long)type);
		return -EINVAL;
	}
	tt->type = (u32)type;
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
		/* a constant's values, for ta_tfl_check_shape() */
		tt->data = data;
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
	ret = ta_tfl_check_data_shape(m, s, i, &o);
	if (!ret)
		ret = ta_tfl_check_type(m, s, i, &o);
	if (!ret)
		ret = ta_tfl_check_shape(m, s, i, &o);
	if (!ret)
		ret = ta_tfl_fold(m, s, i, &o);
	if (!ret)
		ta_tfl_mark_data(m, s, i);
	return ret;
}

/* Read subgraph @s (once): tensors, inputs, outputs, operators. */
int ta_tfl_parse_subgraph(struct ta_tfl *m, u32 s)
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
	ret = ta_grow((void **)&sg->refs.v, &sg->refs.cap, 1,
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
