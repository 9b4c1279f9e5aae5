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
 */
#include "ta_tflite_shape.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/* How a kernel assigns its output's type. */
enum ta_tfl_type_from {
	TA_TFL_TYPE_IS,		/* a TensorType */
	TA_TFL_TYPE_OF_INPUT,	/* the type of an input */
	TA_TFL_TYPE_OPTION,	/* field 0 of an options table: INT32 or INT64 */
};

/* Outputs of one op: every one of them. */
#define TA_TFL_TYPE_ALL		0xff

/* TensorType values assigned here. */
enum {
	TA_TFL_FLOAT32 = 0, TA_TFL_BOOL = 6, TA_TFL_COMPLEX64 = 8,
};

/*
 * struct ta_tfl_type_rule - one output type a kernel assigns (each from its
 * Prepare() in TFLite's kernels/)
 * @code: BuiltinOperator
 * @out: the output, or %TA_TFL_TYPE_ALL
 * @from: &enum ta_tfl_type_from
 * @arg: the TensorType, the input, or the BuiltinOptions member
 */
struct ta_tfl_type_rule {
	u8 code, out, from, arg;
};

static const struct ta_tfl_type_rule ta_tfl_type_rules[] = {
	{ TA_TFL_ADD, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_DEQUANTIZE, 0, TA_TFL_TYPE_IS, TA_TFL_FLOAT32 },
	{ TA_TFL_FLOOR, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_RESIZE_BILINEAR, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_GATHER, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_SUB, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_DIV, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_EXP, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_TOPK_V2, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_SPLIT, TA_TFL_TYPE_ALL, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_PRELU, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_MAXIMUM, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ARG_MAX, 0, TA_TFL_TYPE_OPTION, TA_TFL_ARG_MAX_OPTIONS },
	{ TA_TFL_MINIMUM, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_LESS, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_NEG, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_GREATER, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_GREATER_EQUAL, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_LESS_EQUAL, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_SELECT, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_SPARSE_TO_DENSE, 0, TA_TFL_TYPE_OF_INPUT, 2 },
	{ TA_TFL_EXPAND_DIMS, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_EQUAL, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_NOT_EQUAL, 0, TA_TFL_TYPE_IS, TA_TFL_BOOL },
	{ TA_TFL_SHAPE, 0, TA_TFL_TYPE_OPTION, TA_TFL_SHAPE_OPTIONS },
	{ TA_TFL_POW, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ARG_MIN, 0, TA_TFL_TYPE_OPTION, TA_TFL_ARG_MIN_OPTIONS },
	{ TA_TFL_FAKE_QUANT, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_LOGICAL_OR, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ONE_HOT, 0, TA_TFL_TYPE_OF_INPUT, 2 },
	{ TA_TFL_LOGICAL_AND, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_FLOOR_DIV, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ZEROS_LIKE, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_FILL, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_FLOOR_MOD, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_RANGE, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_RESIZE_NEAREST_NEIGHBOR, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_SQUARED_DIFFERENCE, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_SPLIT_V, TA_TFL_TYPE_ALL, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_CEIL, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ADD_N, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_GATHER_ND, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_WHERE, 0, TA_TFL_TYPE_IS, TA_TFL_INT64 },
	{ TA_TFL_RANK, 0, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_MATRIX_DIAG, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_MATRIX_SET_DIAG, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_ROUND, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_NON_MAX_SUPPRESSION_V4, 0, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_NON_MAX_SUPPRESSION_V4, 1, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_NON_MAX_SUPPRESSION_V5, 0, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_NON_MAX_SUPPRESSION_V5, 1, TA_TFL_TYPE_IS, TA_TFL_FLOAT32 },
	{ TA_TFL_NON_MAX_SUPPRESSION_V5, 2, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_SCATTER_ND, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_SELECT_V2, 0, TA_TFL_TYPE_OF_INPUT, 1 },
	{ TA_TFL_DENSIFY, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_RFFT2D, 0, TA_TFL_TYPE_IS, TA_TFL_COMPLEX64 },
	{ TA_TFL_BUCKETIZE, 0, TA_TFL_TYPE_IS, TA_TFL_INT32 },
	{ TA_TFL_DYNAMIC_UPDATE_SLICE, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_BITWISE_XOR, 0, TA_TFL_TYPE_OF_INPUT, 0 },
	{ TA_TFL_RIGHT_SHIFT, 0, TA_TFL_TYPE_OF_INPUT, 0 },
};

/*
 * The type rule @r assigns output @k of the op: 1 with *@type set, 0 when
 * the kernel would refuse the op anyway (an input left out, an output
 * type its options do not allow), -errno when the options are corrupt.
 */
static int ta_tfl_type_of(struct ta_tfl *m, const struct ta_fbt *o,
			  const struct ta_tfl_type_rule *r,
			  const struct ta_tfl_tensor *t, const struct ta_fbv *ins,
			  u32 *type)
{
	bool have;
	s64 v;
	s32 in;
	int ret;

	switch (r->from) {
	case TA_TFL_TYPE_IS:
		*type = r->arg;
		return 1;
	case TA_TFL_TYPE_OF_INPUT:
		if (r->arg >= ins->len)
			return 0;
		in = (s32)ta_fb_u32(&m->fb, ins->data + 4 * r->arg);
		if (in < 0)
			return 0;
		*type = t[in].type;
		return 1;
	case TA_TFL_TYPE_OPTION:
		/* a TensorType (a byte); without options the kernel fails */
		ret = ta_tfl_option_byte(m, o, r->arg, 0, &v, &have);
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
	struct ta_fbv ins, outs;
	u32 r, k, want = 0;
	int ret;

	for (r = 0; r < ARRAY_SIZE(ta_tfl_type_rules); r++) {
		const struct ta_tfl_type_rule *rule = &ta_tfl_type_rules[r];

		if (rule->code != op->code)
			continue;
		/* checked when the op was read: the indices are in range */
		ret = ta_fb_vector(&m->fb, o, TA_OP_INPUTS, 4, &ins);
		if (!ret)
			ret = ta_fb_vector(&m->fb, o, TA_OP_OUTPUTS, 4, &outs);
		if (!ret)
			ret = ta_tfl_type_of(m, o, rule, sg->t, &ins, &want);
		if (ret <= 0)
			return ret;
		for (k = 0; k < outs.len; k++) {
			s32 out = (s32)ta_fb_u32(&m->fb, outs.data + 4 * k);
			u32 got = sg->t[out].type;

			if ((rule->out != TA_TFL_TYPE_ALL && rule->out != k) ||
			    got == want)
				continue;
			ta_tfl_type_bits(want, &want_name);
			ta_tfl_type_bits(got, &got_name);
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): its output %u, tensor %d, records %s elements, but TFLite's kernel makes them %s and sizes the output for that: the model is refused rather than planned at the recorded size",
			       s, i, op->name, k, out, got_name, want_name);
			return -EINVAL;
		}
	}
	return 0;
}
