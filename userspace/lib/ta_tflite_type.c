// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_type.c - the TFLite reader's output element types: the kernels
 * that set an output's type themselves, against the type the model records.
 *
 * A tensor's bytes are its shape times its element size, and the reader
 * takes the element size from the type the model records. But many
 * kernels assign their output's type in Prepare() before sizing it: a
 * comparison writes BOOL, ARG_MAX the output_type of its options, GATHER,
 * ADD or RESIZE_BILINEAR their input's type... TFLite then allocates the
 * bytes of that type, whatever the model records. A model recording a
 * smaller type (INT16 where GATHER copies FLOAT32) is planned too small:
 * LiteRT finds such an allocation too small (tests/tflite-oracle). So a
 * recorded type other than the one the kernel assigns is refused, naming
 * the op, the output and both types. An op whose kernel only checks its
 * output's type refuses such a model itself, and is not listed here.
 *
 * A few kernels assign no type and check none, but write their input's
 * elements into the output: RESHAPE and SQUEEZE copy the input's bytes
 * (TFLite Micro's, whose arena such a plan is for, copies the input's
 * element count times its type's size), CUMSUM and the segment sums
 * compute in the input's type. A recorded type other than the input's
 * would be overrun there; it is refused the same way.
 */
#include "ta_tflite_shape.h"

/* How a kernel assigns its output's type. */
enum ta_tfl_type_from {
	TA_TFL_TYPE_IS,		/* a TensorType */
	TA_TFL_TYPE_OF_INPUT,	/* the type of an input */
	TA_TFL_TYPE_OPTION,	/* field 0 of an options table: INT32 or INT64 */
	TA_TFL_TYPE_WRITTEN,	/* none, but it writes an input's elements */
};

/*
 * How output @k of builtin @code gets its type: *@arg the TensorType, the
 * input or the BuiltinOptions member; false when its kernel assigns none
 * (each from its Prepare() in TFLite's kernels/).
 */
static bool ta_tfl_type_rule(u32 code, u32 k, enum ta_tfl_type_from *from,
			     u32 *arg)
{
	*from = TA_TFL_TYPE_IS;
	switch (code) {
	case TA_TFL_LESS:
	case TA_TFL_GREATER:
	case TA_TFL_GREATER_EQUAL:
	case TA_TFL_LESS_EQUAL:
	case TA_TFL_EQUAL:
	case TA_TFL_NOT_EQUAL:
		*arg = TA_TFL_BOOL;
		return !k;
	case TA_TFL_DEQUANTIZE:
		*arg = TA_TFL_FLOAT32;
		return !k;
	case TA_TFL_WHERE:
		*arg = TA_TFL_INT64;
		return !k;
	case TA_TFL_RANK:
	case TA_TFL_BUCKETIZE:
		*arg = TA_TFL_INT32;
		return !k;
	case TA_TFL_RFFT2D:
		*arg = TA_TFL_COMPLEX64;
		return !k;
	case TA_TFL_NON_MAX_SUPPRESSION_V4:
		/* selected indices, how many */
		*arg = TA_TFL_INT32;
		return k < 2;
	case TA_TFL_NON_MAX_SUPPRESSION_V5:
		/* selected indices, their scores, how many */
		*arg = k == 1 ? TA_TFL_FLOAT32 : TA_TFL_INT32;
		return k < 3;
	case TA_TFL_ARG_MAX:
	case TA_TFL_ARG_MIN:
	case TA_TFL_SHAPE:
		*from = TA_TFL_TYPE_OPTION;
		*arg = code == TA_TFL_ARG_MAX ? TA_TFL_ARG_MAX_OPTIONS :
		       code == TA_TFL_ARG_MIN ? TA_TFL_ARG_MIN_OPTIONS :
		       TA_TFL_SHAPE_OPTIONS;
		return !k;
	}
	*from = TA_TFL_TYPE_WRITTEN;
	*arg = 0;
	switch (code) {
	case TA_TFL_RESHAPE:
	case TA_TFL_SQUEEZE:
	case TA_TFL_CUMSUM:
	case TA_TFL_SEGMENT_SUM:
	case TA_TFL_UNSORTED_SEGMENT_SUM:
	case TA_TFL_UNSORTED_SEGMENT_MAX:
	case TA_TFL_UNSORTED_SEGMENT_MIN:
	case TA_TFL_UNSORTED_SEGMENT_PROD:
		return !k;
	}
	*from = TA_TFL_TYPE_OF_INPUT;
	switch (code) {
	case TA_TFL_SPLIT:			/* every output: the data's */
		*arg = 1;
		return true;
	case TA_TFL_SPLIT_V:
		*arg = 0;
		return true;
	case TA_TFL_ADD:			/* input 2, checked against 1 */
	case TA_TFL_SUB:
	case TA_TFL_DIV:
	case TA_TFL_SQUARED_DIFFERENCE:
	case TA_TFL_SELECT:			/* x */
	case TA_TFL_SELECT_V2:
	case TA_TFL_FILL:			/* the value */
	case TA_TFL_SCATTER_ND:			/* the updates */
		*arg = 1;
		return !k;
	case TA_TFL_ONE_HOT:			/* on_value */
	case TA_TFL_SPARSE_TO_DENSE:		/* the values */
		*arg = 2;
		return !k;
	case TA_TFL_FLOOR:
	case TA_TFL_RESIZE_BILINEAR:
	case TA_TFL_RESIZE_NEAREST_NEIGHBOR:
	case TA_TFL_GATHER:
	case TA_TFL_GATHER_ND:
	case TA_TFL_EXP:
	case TA_TFL_NEG:
	case TA_TFL_CEIL:
	case TA_TFL_ROUND:
	case TA_TFL_TOPK_V2:			/* the values */
	case TA_TFL_PRELU:
	case TA_TFL_MAXIMUM:
	case TA_TFL_MINIMUM:
	case TA_TFL_POW:
	case TA_TFL_FLOOR_DIV:
	case TA_TFL_FLOOR_MOD:
	case TA_TFL_BITWISE_XOR:
	case TA_TFL_RIGHT_SHIFT:
	case TA_TFL_LOGICAL_OR:
	case TA_TFL_LOGICAL_AND:
	case TA_TFL_EXPAND_DIMS:
	case TA_TFL_FAKE_QUANT:
	case TA_TFL_ZEROS_LIKE:
	case TA_TFL_RANGE:			/* start */
	case TA_TFL_ADD_N:
	case TA_TFL_MATRIX_DIAG:
	case TA_TFL_MATRIX_SET_DIAG:
	case TA_TFL_DENSIFY:
	case TA_TFL_DYNAMIC_UPDATE_SLICE:
		*arg = 0;
		return !k;
	}
	return false;
}

/*
 * The type @from and @arg (ta_tfl_type_rule()) give an output of the op: 1
 * with *@type set, 0 when the kernel would refuse the op anyway (an input
 * left out, an output type its options do not allow), -errno when the
 * options are corrupt.
 */
static int ta_tfl_type_of(struct ta_tfl *m, const struct ta_fbt *o,
			  enum ta_tfl_type_from from, u32 arg,
			  const struct ta_tfl_tensor *t, const struct ta_fbv *ins,
			  u32 *type)
{
	bool have;
	s64 v;
	s32 in;
	int ret;

	switch (from) {
	case TA_TFL_TYPE_IS:
		*type = arg;
		return 1;
	case TA_TFL_TYPE_OF_INPUT:
	case TA_TFL_TYPE_WRITTEN:
		if (arg >= ins->len)
			return 0;
		in = (s32)ta_fb_u32(&m->fb, ins->data + 4 * arg);
		if (in < 0)
			return 0;
		*type = t[in].type;
		return 1;
	case TA_TFL_TYPE_OPTION:
		/* a TensorType (a byte); without options the kernel fails */
		ret = ta_tfl_option_byte(m, o, arg, 0, &v, &have);
		if (ret || !have)
			return ret;
		if (v != TA_TFL_INT32 && v != TA_TFL_INT64)
			return 0;
		*type = (u32)v;
		return 1;
	}
	return 0;
}

/**
 * ta_tfl_check_type() - op @i of subgraph @s records the output types its
 * kernel assigns
 * @m: the model
 * @s: subgraph
 * @i: op
 * @o: the op's table
 *
 * Return: 0; -EINVAL with a message naming the op, the output and both
 * types when a recorded type is not the kernel's; -errno when the file is
 * corrupt.
 */
int ta_tfl_check_type(struct ta_tfl *m, u32 s, u32 i, const struct ta_fbt *o)
{
	const struct ta_tfl_sg *sg = &m->sg[s];
	const struct ta_tfl_op *op = &sg->ops[i];
	const char *want_name, *got_name;
	enum ta_tfl_type_from from;
	struct ta_fbv ins, outs;
	u32 k, arg, want = 0;
	int ret;

	if (!ta_tfl_type_rule(op->code, 0, &from, &arg))
		return 0;
	/* checked when the op was read: the indices are in range */
	ret = ta_fb_vector(&m->fb, o, TA_OP_INPUTS, 4, &ins);
	if (!ret)
		ret = ta_fb_vector(&m->fb, o, TA_OP_OUTPUTS, 4, &outs);
	for (k = 0; !ret && k < outs.len; k++) {
		s32 out = (s32)ta_fb_u32(&m->fb, outs.data + 4 * k);
		u32 got = sg->t[out].type;

		if (!ta_tfl_type_rule(op->code, k, &from, &arg))
			break;
		ret = ta_tfl_type_of(m, o, from, arg, sg->t, &ins, &want);
		if (ret <= 0)
			return ret;
		ret = 0;
		if (got == want)
			continue;
		ta_tfl_type_bits(want, &want_name);
		ta_tfl_type_bits(got, &got_name);
		if (from == TA_TFL_TYPE_WRITTEN)
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): its output %u, tensor %d, records %s elements, but TFLite's kernel writes its input's %s elements into it: the model is refused rather than planned at the recorded size",
			       s, i, op->name, k, out, got_name, want_name);
		else
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): its output %u, tensor %d, records %s elements, but TFLite's kernel makes them %s and sizes the output for that: the model is refused rather than planned at the recorded size",
			       s, i, op->name, k, out, got_name, want_name);
		return -EINVAL;
	}
	return ret;
}
