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
 *
 * The reader's files: ta_onnx_wire.c, messages and the protobuf wire
 * format; ta_onnx_msg.c, data types, values and the message readers
 * (TensorProto, ValueInfoProto, the graph's fields, nodes, attributes);
 * shape inference in ta_onnx_infer.c (common helpers, elementwise and
 * broadcasting ops), ta_onnx_conv.c (convolutions, pools, matrix
 * products, resize), ta_onnx_shape.c (ops that rearrange shapes) and
 * ta_onnx_reduce.c (reductions and data-dependent ops); and this one, the
 * op table, node inference, checks and folding, and the graph.
 * ta_onnx_internal.h is what they share.
 */
#include "ta_onnx_internal.h"

/* What an op's outputs are, beside their inferred shapes. */
enum ta_ox_kind {
	TA_OX_PLAIN,
	TA_OX_VIEW,	/* a view of input 0: TA_OP_INPLACE when sizes match */
	TA_OX_BOUND,	/* the largest the data may give (ta_onnx_reduce.c) */
	TA_OX_RANDOM,	/* random values (ta_onnx_random.c): never folded */
};

struct ta_ox_op {
	const char *name;
	int (*infer)(struct ta_ox *ox);
	enum ta_ox_kind kind;
};

static const struct ta_ox_op ta_ox_ops[] = {
	{ "Abs", ta_ox_unary, TA_OX_PLAIN },
	{ "Acos", ta_ox_unary, TA_OX_PLAIN },
	{ "Acosh", ta_ox_unary, TA_OX_PLAIN },
	{ "Add", ta_ox_binary, TA_OX_PLAIN },
	{ "And", ta_ox_binary, TA_OX_PLAIN },
	{ "ArgMax", ta_ox_argmax, TA_OX_PLAIN },
	{ "ArgMin", ta_ox_argmax, TA_OX_PLAIN },
	{ "Asin", ta_ox_unary, TA_OX_PLAIN },
	{ "Asinh", ta_ox_unary, TA_OX_PLAIN },
	{ "Atan", ta_ox_unary, TA_OX_PLAIN },
	{ "Atanh", ta_ox_unary, TA_OX_PLAIN },
	{ "AveragePool", ta_ox_pool, TA_OX_PLAIN },
	{ "BatchNormalization", ta_ox_batchnorm, TA_OX_PLAIN },
	{ "Bernoulli", ta_ox_random_like, TA_OX_RANDOM },
	{ "BitShift", ta_ox_binary, TA_OX_PLAIN },
	{ "BlackmanWindow", ta_ox_window, TA_OX_PLAIN },
	{ "Cast", ta_ox_cast, TA_OX_PLAIN },
	{ "CastLike", ta_ox_cast_like, TA_OX_PLAIN },
	{ "Ceil", ta_ox_unary, TA_OX_PLAIN },
	{ "Celu", ta_ox_unary, TA_OX_PLAIN },
	{ "Clip", ta_ox_unary, TA_OX_PLAIN },
	{ "Compress", ta_ox_compress, TA_OX_BOUND },
	{ "Concat", ta_ox_concat, TA_OX_PLAIN },
	{ "ConcatFromSequence", ta_ox_sequence, TA_OX_PLAIN },
	{ "Constant", ta_ox_constant, TA_OX_PLAIN },
	{ "ConstantOfShape", ta_ox_constant_of_shape, TA_OX_PLAIN },
	{ "Conv", ta_ox_conv, TA_OX_PLAIN },
	{ "ConvInteger", ta_ox_conv_integer, TA_OX_PLAIN },
	{ "ConvTranspose", ta_ox_conv_transpose, TA_OX_PLAIN },
	{ "Cos", ta_ox_unary, TA_OX_PLAIN },
	{ "Cosh", ta_ox_unary, TA_OX_PLAIN },
	{ "CumSum", ta_ox_unary, TA_OX_PLAIN },
	{ "DFT", ta_ox_dft, TA_OX_PLAIN },
	{ "DepthToSpace", ta_ox_depth_space, TA_OX_PLAIN },
	{ "DequantizeLinear", ta_ox_dequantize, TA_OX_PLAIN },
	{ "Det", ta_ox_det, TA_OX_PLAIN },
	{ "Div", ta_ox_binary, TA_OX_PLAIN },
	{ "Dropout", ta_ox_dropout, TA_OX_VIEW },
	{ "DynamicQuantizeLinear", ta_ox_dynamic_quantize, TA_OX_PLAIN },
	{ "Einsum", ta_ox_einsum, TA_OX_PLAIN },
	{ "Elu", ta_ox_unary, TA_OX_PLAIN },
	{ "Equal", ta_ox_binary, TA_OX_PLAIN },
	{ "Erf", ta_ox_unary, TA_OX_PLAIN },
	{ "Exp", ta_ox_unary, TA_OX_PLAIN },
	{ "Expand", ta_ox_expand, TA_OX_PLAIN },
	{ "EyeLike", ta_ox_eye_like, TA_OX_PLAIN },
	{ "Flatten", ta_ox_flatten, TA_OX_VIEW },
	{ "Floor", ta_ox_unary, TA_OX_PLAIN },
	{ "GRU", ta_ox_recurrent, TA_OX_PLAIN },
	{ "Gather", ta_ox_gather, TA_OX_PLAIN },
	{ "GatherElements", ta_ox_gather_elements, TA_OX_PLAIN },
	{ "GatherND", ta_ox_gather_nd, TA_OX_PLAIN },
	{ "Gelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Gemm", ta_ox_gemm, TA_OX_PLAIN },
	{ "GlobalAveragePool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "GlobalLpPool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "GlobalMaxPool", ta_ox_global_pool, TA_OX_PLAIN },
	{ "Greater", ta_ox_binary, TA_OX_PLAIN },
	{ "GreaterOrEqual", ta_ox_binary, TA_OX_PLAIN },
	{ "GridSample", ta_ox_grid_sample, TA_OX_PLAIN },
	{ "HammingWindow", ta_ox_window, TA_OX_PLAIN },
	{ "HannWindow", ta_ox_window, TA_OX_PLAIN },
	{ "HardSigmoid", ta_ox_unary, TA_OX_PLAIN },
	{ "HardSwish", ta_ox_unary, TA_OX_PLAIN },
	{ "Hardmax", ta_ox_unary, TA_OX_PLAIN },
	{ "Identity", ta_ox_identity, TA_OX_VIEW },
	{ "If", ta_ox_control_flow, TA_OX_PLAIN },
	{ "InstanceNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "IsInf", ta_ox_is_class, TA_OX_PLAIN },
	{ "IsNaN", ta_ox_is_class, TA_OX_PLAIN },
	{ "LRN", ta_ox_unary, TA_OX_PLAIN },
	{ "LSTM", ta_ox_recurrent, TA_OX_PLAIN },
	{ "LayerNormalization", ta_ox_layer_norm, TA_OX_PLAIN },
	{ "LeakyRelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Less", ta_ox_binary, TA_OX_PLAIN },
	{ "LessOrEqual", ta_ox_binary, TA_OX_PLAIN },
	{ "Log", ta_ox_unary, TA_OX_PLAIN },
	{ "LogSoftmax", ta_ox_unary, TA_OX_PLAIN },
	{ "Loop", ta_ox_control_flow, TA_OX_PLAIN },
	{ "LpNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "LpPool", ta_ox_pool, TA_OX_PLAIN },
	{ "MatMul", ta_ox_matmul, TA_OX_PLAIN },
	{ "MatMulInteger", ta_ox_matmul_integer, TA_OX_PLAIN },
	{ "Max", ta_ox_binary, TA_OX_PLAIN },
	{ "MaxPool", ta_ox_pool, TA_OX_PLAIN },
	{ "MaxRoiPool", ta_ox_max_roi_pool, TA_OX_PLAIN },
	{ "MaxUnpool", ta_ox_max_unpool, TA_OX_PLAIN },
	{ "Mean", ta_ox_binary, TA_OX_PLAIN },
	{ "MeanVarianceNormalization", ta_ox_unary, TA_OX_PLAIN },
	{ "MelWeightMatrix", ta_ox_mel_weight_matrix, TA_OX_PLAIN },
	{ "Min", ta_ox_binary, TA_OX_PLAIN },
	{ "Mish", ta_ox_unary, TA_OX_PLAIN },
	{ "Mod", ta_ox_binary, TA_OX_PLAIN },
	{ "Mul", ta_ox_binary, TA_OX_PLAIN },
	{ "Multinomial", ta_ox_multinomial, TA_OX_RANDOM },
	{ "Neg", ta_ox_unary, TA_OX_PLAIN },
	{ "NegativeLogLikelihoodLoss", ta_ox_loss, TA_OX_PLAIN },
	{ "NonMaxSuppression", ta_ox_nms, TA_OX_BOUND },
	{ "NonZero", ta_ox_nonzero, TA_OX_BOUND },
	{ "Not", ta_ox_unary, TA_OX_PLAIN },
	{ "OneHot", ta_ox_one_hot, TA_OX_PLAIN },
	{ "Optional", ta_ox_sequence, TA_OX_PLAIN },
	{ "OptionalGetElement", ta_ox_sequence, TA_OX_PLAIN },
	{ "OptionalHasElement", ta_ox_sequence, TA_OX_PLAIN },
	{ "Or", ta_ox_binary, TA_OX_PLAIN },
	{ "PRelu", ta_ox_binary, TA_OX_PLAIN },
	{ "Pad", ta_ox_pad, TA_OX_PLAIN },
	{ "Pow", ta_ox_binary, TA_OX_PLAIN },
	{ "QLinearConv", ta_ox_qlinear_conv, TA_OX_PLAIN },
	{ "QLinearMatMul", ta_ox_qlinear_matmul, TA_OX_PLAIN },
	{ "QuantizeLinear", ta_ox_quantize, TA_OX_PLAIN },
	{ "RNN", ta_ox_recurrent, TA_OX_PLAIN },
	{ "RandomNormal", ta_ox_random, TA_OX_RANDOM },
	{ "RandomNormalLike", ta_ox_random_like, TA_OX_RANDOM },
	{ "RandomUniform", ta_ox_random, TA_OX_RANDOM },
	{ "RandomUniformLike", ta_ox_random_like, TA_OX_RANDOM },
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
	{ "ReverseSequence", ta_ox_unary, TA_OX_PLAIN },
	{ "RoiAlign", ta_ox_roi_align, TA_OX_PLAIN },
	{ "Round", ta_ox_unary, TA_OX_PLAIN },
	{ "STFT", ta_ox_stft, TA_OX_PLAIN },
	{ "Scan", ta_ox_control_flow, TA_OX_PLAIN },
	{ "Scatter", ta_ox_unary, TA_OX_PLAIN },
	{ "ScatterElements", ta_ox_unary, TA_OX_PLAIN },
	{ "ScatterND", ta_ox_unary, TA_OX_PLAIN },
	{ "Selu", ta_ox_unary, TA_OX_PLAIN },
	{ "SequenceAt", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceConstruct", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceEmpty", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceErase", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceInsert", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceLength", ta_ox_sequence, TA_OX_PLAIN },
	{ "SequenceMap", ta_ox_sequence, TA_OX_PLAIN },
	{ "Shape", ta_ox_shape_op, TA_OX_PLAIN },
	{ "Shrink", ta_ox_unary, TA_OX_PLAIN },
	{ "Sigmoid", ta_ox_unary, TA_OX_PLAIN },
	{ "Sign", ta_ox_unary, TA_OX_PLAIN },
	{ "Sin", ta_ox_unary, TA_OX_PLAIN },
	{ "Sinh", ta_ox_unary, TA_OX_PLAIN },
	{ "Size", ta_ox_size_op, TA_OX_PLAIN },
	{ "Slice", ta_ox_slice, TA_OX_PLAIN },
	{ "Softmax", ta_ox_unary, TA_OX_PLAIN },
	{ "SoftmaxCrossEntropyLoss", ta_ox_loss, TA_OX_PLAIN },
	{ "Softplus", ta_ox_unary, TA_OX_PLAIN },
	{ "Softsign", ta_ox_unary, TA_OX_PLAIN },
	{ "SpaceToDepth", ta_ox_depth_space, TA_OX_PLAIN },
	{ "Split", ta_ox_split, TA_OX_PLAIN },
	{ "SplitToSequence", ta_ox_sequence, TA_OX_PLAIN },
	{ "Sqrt", ta_ox_unary, TA_OX_PLAIN },
	{ "Squeeze", ta_ox_squeeze, TA_OX_VIEW },
	{ "Sub", ta_ox_binary, TA_OX_PLAIN },
	{ "Sum", ta_ox_binary, TA_OX_PLAIN },
	{ "Tan", ta_ox_unary, TA_OX_PLAIN },
	{ "Tanh", ta_ox_unary, TA_OX_PLAIN },
	{ "TfIdfVectorizer", ta_ox_tfidf, TA_OX_PLAIN },
	{ "ThresholdedRelu", ta_ox_unary, TA_OX_PLAIN },
	{ "Tile", ta_ox_tile, TA_OX_PLAIN },
	{ "TopK", ta_ox_topk, TA_OX_BOUND },
	{ "Transpose", ta_ox_transpose, TA_OX_PLAIN },
	{ "Trilu", ta_ox_unary, TA_OX_PLAIN },
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

/*
 * Whether the node's outputs are values from the model's input data: when
 * it reads such values, or is an op this reader does not know (its values
 * could come from anywhere). Shape and Size read their input's shape,
 * which comes from the data only when the input's size does.
 */
static void ta_ox_mark_data(struct ta_ox *ox, bool known)
{
	struct ta_ox_node *nd = &ox->nd;
	bool reads_shape = !strcmp(nd->op_str, "Shape") ||
			   !strcmp(nd->op_str, "Size");
	bool data = !known;
	u32 k;

	for (k = 0; k < nd->n_in; k++) {
		const struct ta_ox_value *x;

		if (nd->in[k] < 0)
			continue;
		x = &ox->v[nd->in[k]];
		data |= reads_shape ? x->may_empty : x->from_data;
	}
	for (k = 0; k < nd->n_out; k++)
		if (nd->out[k] >= 0)
			ox->v[nd->out[k]].from_data = data;
}

static int ta_ox_node(struct ta_ox *ox, u32 i)
{
	struct ta_ox_node *nd = &ox->nd;
	const struct ta_ox_op *op;
	bool all_const = true, known, random;
	u32 k, named = 0;
	int ret = ta_ox_node_read(ox, i);

	if (ret)
		return ret;
	if (!nd->n_out)
		return ta_ox_node_fail(ox, -EINVAL, "no outputs");
	op = ta_ox_op_find(nd);
	known = op;
	random = op && op->kind == TA_OX_RANDOM;
	ox->why[0] = 0;
	ox->why_input = -1;
	if (op) {
		ret = op->infer(ox);
	} else if (nd->domain.len && !ta_span_is(&nd->domain, "ai.onnx")) {
		char dom[64];

		ret = ta_ox_cannot(ox, "an op of domain '%s'",
				   ta_ox_print(&nd->domain, dom, sizeof(dom)));
	} else {
		ret = ta_ox_cannot(ox, "an op type this importer does not know");
	}
	if (ret == -EOPNOTSUPP && ox->why_input >= 0 &&
	    ta_ox_in(ox, (u32)ox->why_input) &&
	    ta_ox_in(ox, (u32)ox->why_input)->from_data) {
		char nm[80];

		return ta_ox_node_fail(ox, -EINVAL,
			"the shape of its outputs comes from the values of input %d ('%s'), which the model computes from its input data: ONNX Runtime sizes them only when the model runs, from what it is fed, and no plan made before can hold them; the model is refused rather than planned at the recorded size (make that input a constant)",
			ox->why_input,
			ta_ox_vname(ox, (u32)nd->in[ox->why_input], nm,
				    sizeof(nm)));
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
	/* an input that may be empty at run time: so may the outputs */
	for (k = 0; k < nd->n_in; k++)
		if (nd->in[k] >= 0 && ox->v[nd->in[k]].may_empty)
			ta_ox_may_empty(ox);
	ta_ox_mark_data(ox, known && !random);
	/*
	 * folded: every input constant, no graph output, a known op
	 * that draws no random values
	 */
	for (k = 0; k < nd->n_in; k++)
		if (nd->in[k] >= 0 && !ox->v[nd->in[k]].is_const)
			all_const = false;
	for (k = 0; k < nd->n_out; k++)
		if (nd->out[k] >= 0 && ox->v[nd->out[k]].is_output)
			all_const = false;
	/*
	 * ONNX Runtime's constant folding keeps a DequantizeLinear (of a
	 * quantized weight: its QDQ fusion reads the pair), and so does an
	 * NPU's compiler: it runs, its output a tensor of the plan
	 */
	nd->folded = all_const && op && !random &&
		     strcmp(nd->op_str, "DequantizeLinear");
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

/*
 * Whether @given names dimension @axis of the graph input @input by
 * position: "INPUT[AXIS]", the only way to name a dimension that has no
 * dim_param.
 */
static bool ta_ox_is_position(const char *given, const struct ta_ox_span *input,
			      u32 axis)
{
	char tail[16];
	size_t len = strlen(given);

	snprintf(tail, sizeof(tail), "[%u]", axis);
	return input->len && len == input->len + strlen(tail) &&
	       !memcmp(given, input->p, input->len) &&
	       !strcmp(given + input->len, tail);
}

/*
 * The size of dimension @axis of graph input @input, symbolic, named
 * @name (a dim_param, or none): the one the caller gave for that name or
 * for that position (INPUT[AXIS]), else 1 (counted; the first such
 * dimension's name, or position when it has none, kept for the caller's
 * message, and whether another was taken as 1 too). Given both: -EINVAL.
 */
static int ta_ox_dim_size(struct ta_ox *ox, const struct ta_ox_span *input,
			  u32 axis, const struct ta_ox_span *name, s64 *size)
{
	char key[sizeof(ox->info->unbound)], in[48];
	s32 by_name = -1, by_pos = -1;
	u32 k;

	for (k = 0; k < ox->n_dims; k++) {
		if (name->len && strlen(ox->dims[k].name) == name->len &&
		    !memcmp(ox->dims[k].name, name->p, name->len))
			by_name = (s32)k;
		if (ta_ox_is_position(ox->dims[k].name, input, axis))
			by_pos = (s32)k;
	}
	if (by_name >= 0 && by_pos >= 0)
		return ta_ox_fail(ox, -EINVAL,
				  "dimension %u of graph input '%s' is given a size both by its name ('%.64s') and by its position",
				  axis, ta_ox_print(input, in, sizeof(in)),
				  ox->dims[by_name].name);
	k = (u32)(by_pos >= 0 ? by_pos : by_name);
	if (by_name >= 0 || by_pos >= 0) {
		ox->dims_used |= 1ULL << k;
		ox->info->n_bound++;
		*size = (s64)ox->dims[k].value;
		return 0;
	}
	ox->info->n_symbolic++;
	if (name->len)
		ta_ox_print(name, key, sizeof(key));
	else
		snprintf(key, sizeof(key), "%s[%u]",
			 ta_ox_print(input, in, sizeof(in)), axis);
	if (!ox->info->unbound[0])
		memcpy(ox->info->unbound, key, sizeof(key));
	else if (strcmp(key, ox->info->unbound))
		ox->info->unbound_others = true;
	*size = 1;
	return 0;
}

/* A size given for a dimension of @input by position, which is static. */
static int ta_ox_static_dims(struct ta_ox *ox, const struct ta_ox_vinfo *vi)
{
	char in[48];
	u32 k, d;

	for (d = 0; d < vi->shape.rank; d++) {
		if (vi->sym & (1U << d))
			continue;
		for (k = 0; k < ox->n_dims; k++)
			if (ta_ox_is_position(ox->dims[k].name, &vi->name, d))
				return ta_ox_fail(ox, -EINVAL,
						  "dimension %u of graph input '%s' is %lld, not symbolic: it takes no size",
						  d,
						  ta_ox_print(&vi->name, in,
							      sizeof(in)),
						  (long long)vi->shape.d[d]);
	}
	return 0;
}

/*
 * The sizes given for symbolic dimensions: each with a name, given once,
 * within the reader's limit.
 */
static int ta_ox_check_dims(struct ta_ox *ox)
{
	u32 k, j;

	for (k = 0; k < ox->n_dims; k++) {
		const char *name = ox->dims[k].name;

		if (!name || !name[0])
			return ta_ox_fail(ox, -EINVAL,
					  "a size for a symbolic dimension without a name");
		if (ox->dims[k].value > TA_OX_MAX_ELEMS)
			return ta_ox_fail(ox, -EINVAL,
					  "dimension '%.64s': size %llu, more than 2^36",
					  name,
					  (unsigned long long)ox->dims[k].value);
		for (j = 0; j < k; j++)
			if (!strcmp(ox->dims[j].name, name))
				return ta_ox_fail(ox, -EINVAL,
						  "dimension '%.64s' given a size twice",
						  name);
	}
	return 0;
}

/* After the graph inputs: a size no input's dimension took is an error. */
static int ta_ox_dims_used(struct ta_ox *ox)
{
	u32 k;

	for (k = 0; k < ox->n_dims; k++)
		if (!(ox->dims_used & (1ULL << k)))
			return ta_ox_fail(ox, -EINVAL,
					  "dimension '%.64s' was given a size, but no graph input has a symbolic dimension of that name, or of that INPUT[AXIS]",
					  ox->dims[k].name);
	return 0;
}

static int ta_ox_sources(struct ta_ox *ox)
{
	struct ta_ox_vinfo vi;
	struct ta_ox_tensor t;
	char nm[80];
	u32 i, idx;
	int ret;

	ret = ta_ox_check_dims(ox);
	if (ret)
		return ret;
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
		/* a symbolic dimension (a batch size): as given, else 1 */
		ret = ta_ox_static_dims(ox, &vi);
		for (d = 0; !ret && d < vi.shape.rank; d++)
			if (vi.sym & (1U << d))
				ret = ta_ox_dim_size(ox, &vi.name, d,
						     &vi.sym_name[d],
						     &vi.shape.d[d]);
		if (ret)
			return ret;
		if (!ta_ox_shape_ok(&vi.shape))
			return ta_ox_fail(ox, -EINVAL,
					  "graph input '%s': more than 2^36 elements",
					  ta_ox_print(&vi.name, nm, sizeof(nm)));
		v->state = TA_OX_GRAPH_INPUT;
		v->from_data = true;
		v->dtype = vi.dtype;
		v->shape = vi.shape;
	}
	ret = ta_ox_dims_used(ox);
	if (ret)
		return ret;
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
	return ta_onnx_parse_dims(data, len, name, NULL, 0, in, info, err,
				  errlen);
}

/**
 * ta_onnx_parse_dims() - ta_onnx_parse() with sizes for symbolic dimensions
 * @data: the file's bytes
 * @len: how many
 * @name: the file's name, for messages
 * @dims: sizes for the graph inputs' symbolic dimensions, by name (a
 *	  dim_param) or by position ("INPUT[AXIS]"); a symbolic dimension
 *	  given none is taken as 1
 * @n_dims: how many (at most %TA_ONNX_MAX_DIMS); 0 for none
 * @in: out; a graph-form problem; free with ta_input_free()
 * @info: out, figures about the model, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: as ta_onnx_parse(); also -EINVAL, with a message, for more than
 * %TA_ONNX_MAX_DIMS sizes, a name without a size's use (no graph input
 * has a dimension of that name: a misspelt name would leave the dimension
 * at 1), a name given twice, or a size above 2^36.
 */
int ta_onnx_parse_dims(const void *data, size_t len, const char *name,
		       const struct ta_onnx_dim *dims, u32 n_dims,
		       struct ta_input *in, struct ta_onnx_info *info,
		       char *err, size_t errlen)
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
	if (n_dims > TA_ONNX_MAX_DIMS || (n_dims && !dims)) {
		if (!dims)
			snprintf(err, errlen,
				 "%s: sizes for %u symbolic dimensions, but none given",
				 name, n_dims);
		else
			snprintf(err, errlen,
				 "%s: sizes for %u symbolic dimensions, at most %u",
				 name, n_dims, TA_ONNX_MAX_DIMS);
		return -EINVAL;
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
	ox->dims = dims;
	ox->n_dims = n_dims;
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
	return ta_onnx_read_dims(path, NULL, 0, in, info, err, errlen);
}

/**
 * ta_onnx_read_dims() - ta_onnx_read() with sizes for symbolic dimensions
 * @path: the file
 * @dims: as for ta_onnx_parse_dims()
 * @n_dims: how many
 * @in: out; free with ta_input_free()
 * @info: out, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: as ta_onnx_parse_dims(), or -errno from the file system.
 */
int ta_onnx_read_dims(const char *path, const struct ta_onnx_dim *dims,
		      u32 n_dims, struct ta_input *in,
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
	ret = ta_onnx_parse_dims(data, len, path, dims, n_dims, in, info, err,
				 errlen);
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
