// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_signal.c - shape inference of the ONNX reader (ta_onnx.c) for
 * the signal ops of opset 17 and later, an audio model's front end: DFT,
 * STFT, the windows (Hann, Hamming, Blackman) and MelWeightMatrix. Their
 * sizes come from scalar inputs (a length, a step, a number of bins): a
 * constant, or a value computed from the model's constants, is read; one
 * computed at run time is left to ta_onnx.c, which refuses the node when
 * it comes from the data. Shapes are ONNX Runtime's (its CPU kernels in
 * core/providers/cpu/signal/), checked by tests/onnx-oracle.
 */
#include <errno.h>

#include "ta_onnx_internal.h"

/*
 * The value of input @k, a scalar (one element) of an integer type, into
 * *@v: 1 when it is there, 0 when the node has no such input, or an error
 * (-EOPNOTSUPP when the model computes it at run time).
 */
static int ta_ox_scalar_in(struct ta_ox *ox, u32 k, const char *what, s64 *v)
{
	struct ta_ox_value *x = ta_ox_in(ox, k);

	if (!x)
		return 0;
	if (!ta_ox_is_int(x->dtype) || ta_ox_elems(&x->shape) != 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "input %u (%s) is not one integer", k,
				       what);
	if (!x->iv || x->n_kept != 1)
		return ta_ox_runtime_input(ox, k, what);
	*v = x->iv[0];
	return 1;
}

/* A scalar input the op cannot do without, at least @min. */
static int ta_ox_scalar_need(struct ta_ox *ox, u32 k, const char *what,
			     s64 min, s64 *v)
{
	int ret = ta_ox_scalar_in(ox, k, what, v);

	if (ret < 0)
		return ret;
	if (!ret)
		return ta_ox_node_fail(ox, -EINVAL, "input %u (%s) is missing",
				       k, what);
	if (*v < min || (u64)*v > TA_OX_MAX_ELEMS)
		return ta_ox_node_fail(ox, -EINVAL, "%s %lld", what,
				       (long long)*v);
	return 0;
}

/* The output_datatype attribute: a known type (default float). */
static int ta_ox_output_datatype(struct ta_ox *ox, u32 *dtype)
{
	s64 t;
	int ret = ta_ox_attr_int(ox, "output_datatype", 1, &t) ?:
		  ta_ox_known_type(ox, "output_datatype", t);

	if (!ret)
		*dtype = (u32)t;
	return ret;
}

/*
 * DFT: the input [batch, signal..., 1 or 2] with the last dimension 2 (a
 * complex result) and the transformed axis dft_length long, or
 * dft_length / 2 + 1 with onesided. The axis is an attribute (default 1)
 * up to opset 19, an input (default -2) from opset 20; it may not be the
 * last dimension. dft_length (input 1) defaults to the axis's length.
 */
int ta_ox_dft(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, n, onesided;
	u32 ax, r;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK) ?:
		  ta_ox_attr_int(ox, "onesided", 0, &onesided);

	if (ret)
		return ret;
	r = x->shape.rank;
	if (x->shape.d[r - 1] != 1 && x->shape.d[r - 1] != 2)
		return ta_ox_node_fail(ox, -EINVAL,
				       "a signal whose last dimension is %lld, not 1 (real) or 2 (complex)",
				       (long long)x->shape.d[r - 1]);
	if (ox->opset >= 20) {
		axis = -2;
		ret = ta_ox_scalar_in(ox, 2, "axis", &axis);
	} else {
		ret = ta_ox_attr_int(ox, "axis", 1, &axis);
	}
	if (ret < 0)
		return ret;
	ret = ta_ox_axis(ox, axis, r, false, &ax);
	if (ret)
		return ret;
	if (ax == r - 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "axis %lld is the signal's real and imaginary parts",
				       (long long)axis);
	n = x->shape.d[ax];
	ret = ta_ox_scalar_in(ox, 1, "dft_length", &n);
	if (ret < 0)
		return ret;
	if (n < 1 || (u64)n > TA_OX_MAX_ELEMS)
		return ta_ox_node_fail(ox, -EINVAL, "dft_length %lld",
				       (long long)n);
	s = x->shape;
	s.d[ax] = onesided ? n / 2 + 1 : n;
	s.d[r - 1] = 2;
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * STFT: the signal [batch, length] or [batch, length, 1 or 2] cut in
 * frames of the window's length (input 2) or frame_length (input 3; both:
 * equal), shorter than the signal, every frame_step (input 1): [batch,
 * (length - frame) / step + 1 frames, frame or frame / 2 + 1 with onesided
 * (default 1), 2].
 */
int ta_ox_stft(struct ta_ox *ox)
{
	struct ta_ox_value *sig, *win = ta_ox_in(ox, 2);
	struct ta_ox_shape s = { 0 };
	s64 step, frame = 0, onesided, len;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &sig, 2, 3) ?:
		  ta_ox_attr_int(ox, "onesided", 1, &onesided) ?:
		  ta_ox_scalar_need(ox, 1, "frame_step", 1, &step);

	if (ret)
		return ret;
	if (sig->shape.rank == 3 && sig->shape.d[2] != 1 &&
	    sig->shape.d[2] != 2)
		return ta_ox_node_fail(ox, -EINVAL,
				       "a signal whose last dimension is %lld, not 1 (real) or 2 (complex)",
				       (long long)sig->shape.d[2]);
	ret = ta_ox_scalar_in(ox, 3, "frame_length", &frame);
	if (ret < 0)
		return ret;
	if (win) {
		if (win->shape.rank != 1 || (ret && frame != win->shape.d[0]))
			return ta_ox_node_fail(ox, -EINVAL,
					       "a window of shape rank %u and %lld elements, for frames of %lld",
					       win->shape.rank,
					       (long long)ta_ox_elems(&win->shape),
					       (long long)frame);
		frame = win->shape.d[0];
	} else if (!ret) {
		return ta_ox_node_fail(ox, -EINVAL,
				       "neither a window nor frame_length");
	}
	len = sig->shape.d[1];
	if (frame < 1 || frame >= len)
		return ta_ox_node_fail(ox, -EINVAL,
				       "frames of %lld for a signal of %lld",
				       (long long)frame, (long long)len);
	s.rank = 4;
	s.d[0] = sig->shape.d[0];
	s.d[1] = (len - frame) / step + 1;
	s.d[2] = onesided ? frame / 2 + 1 : frame;
	s.d[3] = 2;
	return ta_ox_set(ox, 0, sig->dtype, &s);
}

/* HannWindow, HammingWindow, BlackmanWindow: [size] of output_datatype. */
int ta_ox_window(struct ta_ox *ox)
{
	struct ta_ox_shape s = { .rank = 1 };
	u32 dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_output_datatype(ox, &dtype) ?:
		  ta_ox_scalar_need(ox, 0, "size", 1, &s.d[0]);

	if (ret)
		return ret;
	return ta_ox_set(ox, 0, dtype, &s);
}

/*
 * MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] of output_datatype;
 * the other inputs (the sample rate, the edges) change values, not sizes.
 */
int ta_ox_mel_weight_matrix(struct ta_ox *ox)
{
	struct ta_ox_shape s = { .rank = 2 };
	s64 bins, dft;
	u32 dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_output_datatype(ox, &dtype) ?:
		  ta_ox_scalar_need(ox, 0, "num_mel_bins", 1, &bins) ?:
		  ta_ox_scalar_need(ox, 1, "dft_length", 1, &dft);

	if (ret)
		return ret;
	s.d[0] = dft / 2 + 1;
	s.d[1] = bins;
	return ta_ox_set(ox, 0, dtype, &s);
}
