// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_random.c - shape inference of the ONNX reader (ta_onnx.c) for
 * the ops that draw random values: RandomNormal, RandomUniform (a shape
 * attribute), RandomNormalLike, RandomUniformLike, Bernoulli (their
 * input's shape) and Multinomial ([batch, sample_size]). Their shapes are
 * fixed; their values are not, so ta_onnx.c never folds them and treats
 * their values as the data's (TA_OX_RANDOM). The element type is the
 * dtype attribute's, or by default the input's (the Like ops and
 * Bernoulli), FLOAT (RandomNormal, RandomUniform) or INT32 (Multinomial),
 * as the spec and ONNX Runtime's CPU kernels have it.
 */
#include "ta_onnx_internal.h"

/* The dtype attribute, a known type, or @def when it is not given. */
static int ta_ox_random_dtype(struct ta_ox *ox, u32 def, u32 *dtype)
{
	s64 t;
	int ret = ta_ox_attr_int(ox, "dtype", 0, &t);

	if (ret)
		return ret;
	if (!t)
		t = def;
	ret = ta_ox_known_type(ox, "dtype", t);
	if (!ret)
		*dtype = (u32)t;
	return ret;
}

/* RandomNormal, RandomUniform: the shape attribute, FLOAT by default. */
int ta_ox_random(struct ta_ox *ox)
{
	struct ta_ox_shape s;
	u32 dtype, i;
	s32 n;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_random_dtype(ox, TA_OX_FLOAT, &dtype) ?:
		  ta_ox_attr_ints(ox, "shape", s.d, TA_OX_MAX_RANK, &n);

	if (ret)
		return ret;
	if (n < 0)
		return ta_ox_node_fail(ox, -EINVAL, "no shape attribute");
	s.rank = (u32)n;
	for (i = 0; i < s.rank; i++)
		if (s.d[i] < 0)
			return ta_ox_node_fail(ox, -EINVAL,
					       "shape dimension %u is %lld", i,
					       (long long)s.d[i]);
	return ta_ox_set(ox, 0, dtype, &s);
}

/*
 * RandomNormalLike, RandomUniformLike, Bernoulli: input 0's shape, its
 * type by default.
 */
int ta_ox_random_like(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	u32 dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	ret = ta_ox_random_dtype(ox, x->dtype, &dtype);
	if (ret)
		return ret;
	return ta_ox_set(ox, 0, dtype, &x->shape);
}

/* Multinomial: [batch_size, sample_size] of a [batch_size, class_size]. */
int ta_ox_multinomial(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 2 };
	s64 samples;
	u32 dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 2, 2) ?:
		  ta_ox_attr_int(ox, "sample_size", 1, &samples) ?:
		  ta_ox_random_dtype(ox, TA_OX_INT32, &dtype);

	if (ret)
		return ret;
	if (samples < 1 || (u64)samples > TA_OX_MAX_ELEMS)
		return ta_ox_node_fail(ox, -EINVAL, "sample_size %lld",
				       (long long)samples);
	if (dtype != TA_OX_INT32 && dtype != TA_OX_INT64)
		return ta_ox_node_fail(ox, -EINVAL,
				       "dtype %u: Multinomial writes INT32 or INT64",
				       dtype);
	s.d[0] = x->shape.d[0];
	s.d[1] = samples;
	return ta_ox_set(ox, 0, dtype, &s);
}
