// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_data.c - the TFLite reader's ops whose output shape comes from
 * values the model computes from its input data: refused.
 *
 * Many kernels take an output's shape from an input's values: PAD its
 * paddings, RESHAPE its shape, TILE its multiples, RANGE its limits,
 * WHERE the count of true values... When that input is no constant (nor
 * a value TFLite computes when it prepares the model, from constants and
 * shapes), TFLite makes the output a dynamic tensor and sizes it each
 * time the model runs, from what it is fed. No plan made beforehand can
 * hold such a tensor: the recorded shape is a guess, and the runtime
 * writes past it when fed other values (tests/tflite-oracle feeds LiteRT
 * such models). So the model is refused, naming the op and the input.
 *
 * Which values come from data is followed in execution order: a
 * subgraph's inputs, variables and what is read before anything writes it
 * do; constants, the values ta_tflite_fold.c computes, the outputs of
 * SHAPE and RANK (they read shapes, not values) and the outputs of a
 * builtin that reads only such values do not. The ops whose outputs are
 * data whatever they read: the random ones, reads of variables and hash
 * tables, custom ops and builtins this reader does not know.
 */
#include "ta_tflite_shape.h"

/* StridedSliceOptions' offset field. */
#define TA_TFL_STRIDED_SLICE_OFFSET	5

/*
 * The inputs whose values TFLite's kernel of @code takes its output's
 * shape from (as a bit mask of input positions; each kernel's Prepare()
 * makes its output dynamic when one is no constant), or 0.
 */
static u32 ta_tfl_shape_inputs(u32 code)
{
	switch (code) {
	case TA_TFL_FILL:
	case TA_TFL_SPLIT:			/* its axis */
	case TA_TFL_TRANSPOSE_CONV:	/* output_shape */
	case TA_TFL_CONV_3D_TRANSPOSE:
	case TA_TFL_RANDOM_STANDARD_NORMAL:		/* the shape */
	case TA_TFL_RANDOM_UNIFORM:
	case TA_TFL_WHERE:			/* how many are true */
	case TA_TFL_UNIQUE:		/* how many differ */
		return BIT(0);
	case TA_TFL_RESHAPE:
	case TA_TFL_EXPAND_DIMS:
	case TA_TFL_RESIZE_BILINEAR:
	case TA_TFL_RESIZE_NEAREST_NEIGHBOR:
	case TA_TFL_PAD:
	case TA_TFL_PADV2:
	case TA_TFL_MIRROR_PAD:
	case TA_TFL_TRANSPOSE:
	case TA_TFL_MEAN:
	case TA_TFL_SUM:
	case TA_TFL_REDUCE_PROD:
	case TA_TFL_REDUCE_MAX:
	case TA_TFL_REDUCE_MIN:
	case TA_TFL_REDUCE_ANY:
	case TA_TFL_REDUCE_ALL:
	case TA_TFL_ARG_MAX:
	case TA_TFL_ARG_MIN:
	case TA_TFL_TILE:
	case TA_TFL_BROADCAST_TO:
	case TA_TFL_TOPK_V2:
	case TA_TFL_ONE_HOT:		/* depth */
	case TA_TFL_SPARSE_TO_DENSE:	/* output_shape */
	case TA_TFL_RFFT2D:		/* fft_length */
	case TA_TFL_MULTINOMIAL:		/* num_samples */
	case TA_TFL_SEGMENT_SUM:		/* the largest segment id */
		return BIT(1);
	case TA_TFL_SPLIT_V:
	case TA_TFL_SPACE_TO_BATCH_ND:
	case TA_TFL_BATCH_TO_SPACE_ND:
		return BIT(1) | BIT(2);
	case TA_TFL_SCATTER_ND:		/* the shape */
	case TA_TFL_NON_MAX_SUPPRESSION_V4:		/* max_output_size */
	case TA_TFL_NON_MAX_SUPPRESSION_V5:
	case TA_TFL_UNSORTED_SEGMENT_PROD:		/* num_segments */
	case TA_TFL_UNSORTED_SEGMENT_MAX:
	case TA_TFL_UNSORTED_SEGMENT_SUM:
	case TA_TFL_UNSORTED_SEGMENT_MIN:
	case TA_TFL_EMBEDDING_LOOKUP_SPARSE:	/* dense_shape */
		return BIT(2);
	case TA_TFL_RANGE:
		return BIT(0) | BIT(1) | BIT(2);
	case TA_TFL_STRIDED_SLICE:		/* begin, end, strides */
		return BIT(1) | BIT(2) | BIT(3);
	}
	return 0;
}

/* Whether the values of @t come from the model's data. */
static bool ta_tfl_is_data(const struct ta_tfl_tensor *t)
{
	return !(t->flags & TA_TENSOR_CONSTANT) && !t->value &&
	       !t->from_shapes;
}

/* Whether @code's outputs are data whatever its inputs are. */
static bool ta_tfl_makes_data(u32 code)
{
	switch (code) {
	case TA_TFL_CUSTOM:
	case TA_TFL_RANDOM_STANDARD_NORMAL:
	case TA_TFL_RANDOM_UNIFORM:
	case TA_TFL_MULTINOMIAL:
	case TA_TFL_VAR_HANDLE:
	case TA_TFL_READ_VARIABLE:
		return true;
	}
	return (code >= TA_TFL_HASHTABLE &&
		code <= TA_TFL_HASHTABLE_SIZE) || !ta_tflite_op_name(code);
}

/**
 * ta_tfl_check_data_shape() - op @i of subgraph @s takes no output shape
 * from values that come from the model's data
 * @m: the model
 * @s: subgraph
 * @i: op, read after the ops before it (execution order)
 * @o: the op's table
 *
 * Return: 0; -EINVAL with a message naming the op, its output and the
 * input when TFLite sizes the output only when the model runs; -errno
 * when the file is corrupt.
 */
int ta_tfl_check_data_shape(struct ta_tfl *m, u32 s, u32 i,
			    const struct ta_fbt *o)
{
	const struct ta_tfl_sg *sg = &m->sg[s];
	const struct ta_tfl_op *op = &sg->ops[i];
	u32 want = ta_tfl_shape_inputs(op->code), k;
	struct ta_fbv ins, outs;
	s64 offset = 0;
	int ret;

	if (!want)
		return 0;
	if (op->code == TA_TFL_STRIDED_SLICE) {
		/* with offset, end counts from begin: the strides alone */
		ret = ta_tfl_option_bool(m, o,
					 TA_TFL_STRIDED_SLICE_OPTIONS,
					 TA_TFL_STRIDED_SLICE_OFFSET,
					 &offset);
		if (ret)
			return ret;
		if (offset)
			want = BIT(3);
	}
	/* as written (an input left out is -1); checked when the op was read */
	ret = ta_fb_vector(&m->fb, o, TA_OP_INPUTS, 4, &ins);
	if (!ret)
		ret = ta_fb_vector(&m->fb, o, TA_OP_OUTPUTS, 4, &outs);
	if (ret || !outs.len)
		return ret;
	for (k = 0; k < ins.len && k < 32; k++) {
		s32 in = (s32)ta_fb_u32(&m->fb, ins.data + 4 * k);

		if (!(want & BIT(k)) || in < 0 || !ta_tfl_is_data(&sg->t[in]))
			continue;
		ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
		       "subgraph %u, op %u (%s): the shape of its output, tensor %d, comes from the values of its input %u, tensor %d, which the model computes from its input data: TFLite sizes that output only when the model runs, from what it is fed, and no plan made before can hold it; the model is refused rather than planned at the recorded size (convert it with that input constant)",
		       s, i, op->name, (s32)ta_fb_u32(&m->fb, outs.data), k,
		       in);
		return -EINVAL;
	}
	return 0;
}

/**
 * ta_tfl_mark_data() - whether the values op @i of subgraph @s writes come
 * from the model's data
 * @m: the model
 * @s: subgraph
 * @i: op, read after the ops before it (execution order)
 *
 * Marks its outputs &ta_tfl_tensor.from_shapes when they do not: SHAPE
 * and RANK, and a builtin that makes no data of its own and reads only
 * constants and values computed from shapes.
 */
void ta_tfl_mark_data(struct ta_tfl *m, u32 s, u32 i)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	const struct ta_tfl_op *op = &sg->ops[i];
	const u32 *ref = &sg->refs.v[op->first_ref];
	bool shapes = op->code == TA_TFL_SHAPE ||
		      op->code == TA_TFL_RANK;
	u32 k;

	if (!shapes) {
		if (ta_tfl_makes_data(op->code))
			return;
		for (k = 0; k < op->n_inputs; k++)
			if (ta_tfl_is_data(&sg->t[ref[k]]))
				return;
	}
	for (k = 0; k < op->n_outputs; k++)
		sg->t[ref[op->n_inputs + k]].from_shapes = true;
}
