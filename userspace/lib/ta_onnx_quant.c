// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_quant.c - the ONNX reader (ta_onnx.c): shape inference:
 * quantization (the QDQ and integer ops a quantized model for an NPU is
 * made of), layer normalization, and the element-wise ops whose output
 * type is not their input's.
 */
#include "ta_onnx_internal.h"

/*
 * QuantizeLinear: x's shape; the type of y_zero_point, else (opset 21)
 * output_dtype, else UINT8.
 */
int ta_ox_quantize(struct ta_ox *ox)
{
	struct ta_ox_value *x, *zp = ta_ox_in(ox, 2);
	s64 dtype = TA_OX_UINT8;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "output_dtype", 0, &dtype);

	if (ret)
		return ret;
	if (zp)
		dtype = zp->dtype;
	else if (!dtype)
		dtype = TA_OX_UINT8;
	return ta_ox_known_type(ox, "output_dtype", dtype) ?:
	       ta_ox_set(ox, 0, (u32)dtype, &x->shape);
}

/* DequantizeLinear: x's shape, x_scale's type (FLOAT before opset 19). */
int ta_ox_dequantize(struct ta_ox *ox)
{
	struct ta_ox_value *x, *scale;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &scale);

	if (ret)
		return ret;
	return ta_ox_set(ox, 0, scale->dtype, &x->shape);
}

/* DynamicQuantizeLinear: y UINT8 of x's shape, a FLOAT scale, a UINT8 zero. */
int ta_ox_dynamic_quantize(struct ta_ox *ox)
{
	static const struct ta_ox_shape scalar = { .rank = 0 };
	struct ta_ox_value *x;
	int ret = ta_ox_need(ox, 0, &x) ?: ta_ox_outputs_at_most(ox, 3);

	if (ret)
		return ret;
	return ta_ox_set(ox, 0, TA_OX_UINT8, &x->shape) ?:
	       ta_ox_set(ox, 1, TA_OX_FLOAT, &scalar) ?:
	       ta_ox_set(ox, 2, TA_OX_UINT8, &scalar);
}

/*
 * LayerNormalization: Y is X; Mean and InvStdDev X's shape with every
 * dimension from axis on 1, of type stash_type (FLOAT by default).
 */
int ta_ox_layer_norm(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, stash;
	u32 ax, i;
	int ret = ta_ox_need_rank(ox, 0, &x, 1, TA_OX_MAX_RANK) ?:
		  ta_ox_attr_int(ox, "axis", -1, &axis) ?:
		  ta_ox_attr_int(ox, "stash_type", TA_OX_FLOAT, &stash) ?:
		  ta_ox_outputs_at_most(ox, 3);

	if (ret)
		return ret;
	ret = ta_ox_known_type(ox, "stash_type", stash) ?:
	      ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	s = x->shape;
	for (i = ax; i < s.rank; i++)
		s.d[i] = 1;
	return ta_ox_set(ox, 0, x->dtype, &x->shape) ?:
	       ta_ox_set(ox, 1, (u32)stash, &s) ?:
	       ta_ox_set(ox, 2, (u32)stash, &s);
}

/* IsNaN, IsInf: BOOL of input 0's shape. */
int ta_ox_is_class(struct ta_ox *ox)
{
	struct ta_ox_value *x;

	return ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
	       ta_ox_set(ox, 0, TA_OX_BOOL, &x->shape);
}

/* CastLike: input 0's shape, input 1's type. */
int ta_ox_cast_like(struct ta_ox *ox)
{
	struct ta_ox_value *x, *like;

	return ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
	       ta_ox_need(ox, 1, &like) ?:
	       ta_ox_set(ox, 0, like->dtype, &x->shape);
}

/* EyeLike: input 0's shape (rank 2), attribute dtype or input 0's type. */
int ta_ox_eye_like(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	s64 dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 2, 2) ?:
		  ta_ox_attr_int(ox, "dtype", 0, &dtype);

	if (ret)
		return ret;
	if (!dtype)
		dtype = x->dtype;
	return ta_ox_known_type(ox, "dtype", dtype) ?:
	       ta_ox_set(ox, 0, (u32)dtype, &x->shape);
}
