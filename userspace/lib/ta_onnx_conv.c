// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_conv.c - the ONNX reader (ta_onnx.c): shape inference:
 * convolutions (also integer, quantized, transposed), pools, matrix
 * products (also Einsum, Det), resize.
 */
#include <float.h>

#include "ta_onnx_internal.h"

/* Kernel, strides, dilations, pads of a conv or pool over @nsp dims. */
struct ta_ox_window {
	s64 k[TA_OX_MAX_RANK], s[TA_OX_MAX_RANK], dl[TA_OX_MAX_RANK];
	s64 pads[2 * TA_OX_MAX_RANK];
	char auto_pad[24];
	s64 ceil_mode;
};

static int ta_ox_window_attrs(struct ta_ox *ox, u32 nsp,
			      struct ta_ox_window *w, bool need_kernel)
{
	s32 n;
	u32 i;
	int ret;

	ret = ta_ox_attr_ints(ox, "kernel_shape", w->k, TA_OX_MAX_RANK, &n);
	if (ret)
		return ret;
	if (n < 0 && need_kernel)
		return ta_ox_node_fail(ox, -EINVAL,
				       "no kernel_shape attribute");
	if (n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL,
				       "kernel_shape has %d values for %u spatial dimensions",
				       n, nsp);
	ret = ta_ox_attr_ints(ox, "strides", w->s, TA_OX_MAX_RANK, &n);
	if (!ret && n < 0)
		for (i = 0; i < nsp; i++)
			w->s[i] = 1;
	if (!ret && n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL, "strides has %d values, want %u",
				       n, nsp);
	if (!ret)
		ret = ta_ox_attr_ints(ox, "dilations", w->dl, TA_OX_MAX_RANK,
				      &n);
	if (!ret && n < 0)
		for (i = 0; i < nsp; i++)
			w->dl[i] = 1;
	if (!ret && n >= 0 && (u32)n != nsp)
		return ta_ox_node_fail(ox, -EINVAL, "dilations has %d values, want %u",
				       n, nsp);
	if (!ret)
		ret = ta_ox_attr_ints(ox, "pads", w->pads, 2 * TA_OX_MAX_RANK,
				      &n);
	if (!ret && n < 0)
		memset(w->pads, 0, sizeof(w->pads));
	if (!ret && n >= 0 && (u32)n != 2 * nsp)
		return ta_ox_node_fail(ox, -EINVAL, "pads has %d values, want %u",
				       n, 2 * nsp);
	if (!ret)
		ret = ta_ox_attr_str(ox, "auto_pad", "NOTSET", w->auto_pad,
				     sizeof(w->auto_pad));
	if (!ret)
		ret = ta_ox_attr_int(ox, "ceil_mode", 0, &w->ceil_mode);
	if (ret)
		return ret;
	for (i = 0; i < nsp; i++) {
		if (w->s[i] < 1 || w->s[i] > (1LL << 32) ||
		    w->dl[i] < 1 || w->dl[i] > (1LL << 31) ||
		    w->pads[i] < 0 || w->pads[i] > (1LL << 32) ||
		    w->pads[i + nsp] < 0 || w->pads[i + nsp] > (1LL << 32))
			return ta_ox_node_fail(ox, -EINVAL,
					       "stride, dilation or pad out of range");
	}
	if (strcmp(w->auto_pad, "NOTSET") && strcmp(w->auto_pad, "VALID") &&
	    strcmp(w->auto_pad, "SAME_UPPER") &&
	    strcmp(w->auto_pad, "SAME_LOWER"))
		return ta_ox_node_fail(ox, -EINVAL, "unknown auto_pad '%s'",
				       w->auto_pad);
	return 0;
}

/*
 * What ONNX Runtime (1.23) writes along spatial dimension @i of a pool with
 * auto_pad SAME where the operator gives @out: it pads for
 * the window without its dilation ((out - 1) x stride + kernel - in, not
 * made 0 when negative), then slides the dilated window (@ek) over that;
 * with ceil_mode the last division is rounded up, else towards zero.
 * Negative: it refuses the node.
 */
static s64 ta_ox_same_pool_ort(const struct ta_ox_window *w, u32 i, s64 out,
			       s64 ek)
{
	/* in + pads - ek, the pads (out - 1) x stride + kernel - in */
	s64 span = (out - 1) * w->s[i] + w->k[i] - ek;

	if (w->ceil_mode && span > 0)
		return (span + w->s[i] - 1) / w->s[i] + 1;
	return span / w->s[i] + 1;
}

/*
 * A pool's output size along spatial dimension @i with ceil_mode, @span
 * the padded input less the dilated window (in + pads - ek). Runtimes
 * differ on a last window that would start in the end padding: ONNX
 * Runtime 1.23 (and ONNX from 1.16, PyTorch when it pads) drop it, older
 * ones and the operator's formula up to then keep it. ONNX Runtime also
 * divides in float, which rounds a span of 2^24 or more. Where the two
 * differ no one shape is safe for the nodes after it (a larger one is
 * cut to less by a Slice with negative starts): refused. For a negative
 * span the ceiling is C's truncation, as ONNX Runtime's std::ceil().
 */
static int ta_ox_ceil_window_out(struct ta_ox *ox,
				 const struct ta_ox_window *w, u32 i, s64 in,
				 s64 span, s64 *out)
{
	s64 keep, head, as_float;

	keep = (span > 0 ? (span + w->s[i] - 1) / w->s[i] : span / w->s[i]) + 1;
	as_float = (s64)ceilf((float)span / (float)w->s[i]) + 1;
	if (as_float != keep)
		return ta_ox_node_fail(ox, -EINVAL,
				       "spatial dimension %u: ceil_mode over a span of %lld, which ONNX Runtime divides in float: it writes %lld, the operator %lld, and no one shape is safe for the nodes after it",
				       i, (long long)span, (long long)as_float,
				       (long long)keep);
	head = strcmp(w->auto_pad, "VALID") ? w->pads[i] : 0;
	if (keep >= 1 && (keep - 1) * w->s[i] >= in + head)
		return ta_ox_node_fail(ox, -EINVAL,
				       "spatial dimension %u: with ceil_mode the last window starts at %lld, in the end padding (input %lld, head pad %lld): ONNX Runtime 1.23 drops it and writes %lld, older runtimes and the operator's formula keep it and write %lld, and no one shape is safe for the nodes after it",
				       i, (long long)((keep - 1) * w->s[i]),
				       (long long)in, (long long)head,
				       (long long)(keep - 1), (long long)keep);
	*out = keep;
	return 0;
}

/*
 * Output size of one spatial dimension. @pool: a pooling op, which ONNX
 * Runtime also runs when the window is larger than the padded input (see
 * below); a Conv it refuses then.
 */
static int ta_ox_window_out(struct ta_ox *ox, const struct ta_ox_window *w,
			    u32 i, u32 nsp, s64 in, s64 *out, bool pool)
{
	s64 ek, span;

	if (w->k[i] < 1 || w->k[i] > (1LL << 31))
		return ta_ox_node_fail(ox, -EINVAL, "kernel size %lld out of range",
				       (long long)w->k[i]);
	ek = (w->k[i] - 1) * w->dl[i] + 1;
	if (!strcmp(w->auto_pad, "SAME_UPPER") ||
	    !strcmp(w->auto_pad, "SAME_LOWER")) {
		*out = (in + w->s[i] - 1) / w->s[i];
		if (pool && w->dl[i] > 1) {
			s64 ort = ta_ox_same_pool_ort(w, i, *out, ek);

			if (ort >= 0 && ort != *out)
				return ta_ox_node_fail(ox, -EINVAL,
						       "spatial dimension %u: auto_pad SAME with dilation %lld, which ONNX Runtime pads for the window without its dilation: it writes %lld, the operator %lld, and no one shape is safe for the nodes after it",
						       i, (long long)w->dl[i],
						       (long long)ort, (long long)*out);
		}
		/*
		 * That is ONNX Runtime's size too (without dilation, and with
		 * it when not refused above). ONNX's inference (1.12) puts the
		 * pads SAME gives into ceil_mode's formula, which can give one
		 * more, and 1 for an input dimension of 0: not planned, since
		 * no shape but the runtime's is safe (a Slice with negative
		 * starts after it keeps less of a larger one).
		 */
		return 0;
	}
	span = in - ek;
	if (strcmp(w->auto_pad, "VALID"))
		span += w->pads[i] + w->pads[i + nsp];
	if (span < 0 && !pool)
		return ta_ox_node_fail(ox, -EINVAL,
				       "spatial dimension %u: the window (%lld) is larger than the padded input (%lld), which ONNX Runtime refuses too (\"Invalid input shape\")",
				       i, (long long)ek, (long long)(span + ek));
	/*
	 * A pool's window larger than the padded input: ONNX Runtime (1.23)
	 * still computes span / stride + 1 (ceil mode: its ceiling), the
	 * division truncated towards zero, and writes that many elements
	 * when it is not negative: 3 in, window 5, pad 1, stride 2 gives 1.
	 * C's division truncates so too; and for a negative span the
	 * ceiling is that truncation: -2 / 2 + 1 is no window, where the
	 * positive span's (span + stride - 1) / stride gives one (ONNX
	 * Runtime and ONNX's inference write none). Negative: refused.
	 */
	if (span < 0 && span / w->s[i] + 1 < 0)
		return ta_ox_node_fail(ox, -EINVAL,
				       "spatial dimension %u: the window (%lld) is larger than the padded input (%lld) by more than the stride (%lld): the output size would be negative, and ONNX Runtime refuses it too",
				       i, (long long)ek, (long long)(span + ek),
				       (long long)w->s[i]);
	if (!w->ceil_mode) {
		*out = span / w->s[i] + 1;
		return 0;
	}
	return ta_ox_ceil_window_out(ox, w, i, in, span, out);
}

/*
 * A convolution's X (input 0, with spatial dimensions), W (input @wk, of
 * X's rank), group and window.
 */
static int ta_ox_conv_inputs(struct ta_ox *ox, u32 wk, struct ta_ox_value **x,
			     struct ta_ox_value **w, s64 *group,
			     struct ta_ox_window *win)
{
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	return ta_ox_need_rank(ox, wk, w, (*x)->shape.rank, (*x)->shape.rank) ?:
	       ta_ox_attr_int(ox, "group", 1, group) ?:
	       ta_ox_window_attrs(ox, (*x)->shape.rank - 2, win, false);
}

/*
 * A convolution of X (input 0) by W (input @wk), its bias input @bk (or
 * none: -1), into an output of type @dtype (0: X's): Conv, ConvInteger,
 * QLinearConv.
 */
static int ta_ox_conv_of(struct ta_ox *ox, u32 wk, s32 bk, u32 dtype)
{
	struct ta_ox_value *x, *w, *b;
	struct ta_ox_window win;
	struct ta_ox_shape s;
	s64 group;
	u32 nsp, i;
	int ret = ta_ox_conv_inputs(ox, wk, &x, &w, &group, &win);

	if (ret)
		return ret;
	nsp = x->shape.rank - 2;
	for (i = 0; i < nsp; i++) {
		struct ta_ox_attr a;

		ret = ta_ox_attr(ox, "kernel_shape", &a);
		if (ret < 0)
			return ret;
		if (ret && win.k[i] != w->shape.d[2 + i])
			return ta_ox_node_fail(ox, -EINVAL,
					       "kernel_shape does not match the weights' shape");
		win.k[i] = w->shape.d[2 + i];
	}
	if (group < 1 || group > (1LL << 24) || w->shape.d[0] % group ||
	    x->shape.d[1] != w->shape.d[1] * group)
		return ta_ox_node_fail(ox, -EINVAL,
				       "%lld input channels, weights [%lld,%lld,...] and group %lld do not agree",
				       (long long)x->shape.d[1],
				       (long long)w->shape.d[0],
				       (long long)w->shape.d[1], (long long)group);
	b = bk >= 0 ? ta_ox_in(ox, (u32)bk) : NULL;
	if (b && (b->shape.rank != 1 || b->shape.d[0] != w->shape.d[0]))
		return ta_ox_node_fail(ox, -EINVAL,
				       "the bias is not a vector of %lld",
				       (long long)w->shape.d[0]);
	s.rank = x->shape.rank;
	s.d[0] = x->shape.d[0];
	s.d[1] = w->shape.d[0];
	for (i = 0; i < nsp; i++) {
		ret = ta_ox_window_out(ox, &win, i, nsp, x->shape.d[2 + i],
				       &s.d[2 + i], false);
		if (ret)
			return ret;
	}
	return ta_ox_set(ox, 0, dtype ?: x->dtype, &s);
}

int ta_ox_conv(struct ta_ox *ox)
{
	return ta_ox_conv_of(ox, 1, 2, 0);
}

/* ConvInteger: Conv's shape (x, w, their zero points), INT32. */
int ta_ox_conv_integer(struct ta_ox *ox)
{
	return ta_ox_conv_of(ox, 1, -1, TA_OX_INT32);
}

/* QLinearConv: x, its scale and zero, w (input 3)...: y_zero_point's type. */
int ta_ox_qlinear_conv(struct ta_ox *ox)
{
	struct ta_ox_value *zp;
	int ret = ta_ox_need(ox, 7, &zp);

	return ret ?: ta_ox_conv_of(ox, 3, 8, zp->dtype);
}

/*
 * ConvTranspose: [N, W[1] x group, out...], each out the operator's
 * stride x (in - 1) + output_padding + the dilated kernel - the pads; with
 * auto_pad SAME, in x stride (or that without pads, when larger); with
 * output_shape, its (spatial) values.
 */
int ta_ox_conv_transpose(struct ta_ox *ox)
{
	struct ta_ox_value *x, *w;
	struct ta_ox_window win;
	struct ta_ox_shape s;
	s64 group, opad[TA_OX_MAX_RANK], oshape[TA_OX_MAX_RANK + 2];
	s32 n_opad, n_oshape;
	u32 nsp, i;
	int ret = ta_ox_conv_inputs(ox, 1, &x, &w, &group, &win);

	if (ret)
		return ret;
	nsp = x->shape.rank - 2;
	ret = ta_ox_attr_ints(ox, "output_padding", opad, TA_OX_MAX_RANK,
			      &n_opad) ?:
	      ta_ox_attr_ints(ox, "output_shape", oshape, TA_OX_MAX_RANK + 2,
			      &n_oshape);
	if (ret)
		return ret;
	if (group < 1 || group > (1LL << 24) || x->shape.d[1] != w->shape.d[0] ||
	    w->shape.d[0] % group)
		return ta_ox_node_fail(ox, -EINVAL,
				       "%lld input channels, weights [%lld,%lld,...] and group %lld do not agree",
				       (long long)x->shape.d[1],
				       (long long)w->shape.d[0],
				       (long long)w->shape.d[1], (long long)group);
	if ((n_opad >= 0 && (u32)n_opad != nsp) ||
	    (n_oshape >= 0 && (u32)n_oshape != nsp && (u32)n_oshape != nsp + 2))
		return ta_ox_node_fail(ox, -EINVAL,
				       "output_padding or output_shape of another rank");
	s.rank = x->shape.rank;
	s.d[0] = x->shape.d[0];
	s.d[1] = w->shape.d[1] * group;
	for (i = 0; i < nsp; i++) {
		s64 in = x->shape.d[2 + i], k = w->shape.d[2 + i];
		s64 op = n_opad >= 0 ? opad[i] : 0, full;

		if (op < 0 || op > (1LL << 31) || k < 1 || k > (1LL << 31))
			return ta_ox_node_fail(ox, -EINVAL,
					       "output_padding or kernel out of range");
		/* without pads */
		full = win.s[i] * (in - 1) + op + (k - 1) * win.dl[i] + 1;
		if (n_oshape >= 0) {
			s.d[2 + i] = oshape[n_oshape - nsp + i];
		} else if (!strcmp(win.auto_pad, "SAME_UPPER") ||
			   !strcmp(win.auto_pad, "SAME_LOWER")) {
			/*
			 * in x stride, as the spec says, output_padding or
			 * not. ONNX Runtime pads up to that, but never
			 * negatively: when the unpadded size is smaller (a
			 * kernel shorter than the stride) it writes that.
			 * There no one shape is safe for the nodes after it
			 * (a Slice with negative starts cuts less of the
			 * larger). Nor is python3-onnx 1.12's unpadded size
			 * planned when larger: it is no runtime's.
			 */
			s.d[2 + i] = in * win.s[i];
			if (full < s.d[2 + i])
				return ta_ox_node_fail(ox, -EINVAL,
						       "spatial dimension %u: auto_pad SAME with a window (%lld with output_padding) shorter than the stride (%lld): the spec's output is in x stride, %lld, ONNX Runtime writes the unpadded %lld, and no one shape is safe for the nodes after it",
						       i, (long long)((k - 1) * win.dl[i] + 1 + op),
						       (long long)win.s[i],
						       (long long)s.d[2 + i], (long long)full);
		} else {
			s.d[2 + i] = full - (strcmp(win.auto_pad, "VALID") ?
					     win.pads[i] + win.pads[i + nsp] :
					     0);
		}
		if (s.d[2 + i] < 0)
			return ta_ox_node_fail(ox, -EINVAL,
					       "spatial dimension %u would be %lld",
					       i, (long long)s.d[2 + i]);
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

int ta_ox_pool(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_window win;
	struct ta_ox_shape s;
	u32 nsp, i;
	int ret = ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	if (ox->nd.n_out > 2 ||
	    (ox->nd.n_out == 2 && strcmp(ox->nd.op_str, "MaxPool")))
		return ta_ox_node_fail(ox, -EINVAL, "too many outputs");
	nsp = x->shape.rank - 2;
	ret = ta_ox_window_attrs(ox, nsp, &win, true);
	if (ret)
		return ret;
	s = x->shape;
	for (i = 0; i < nsp; i++) {
		ret = ta_ox_window_out(ox, &win, i, nsp, x->shape.d[2 + i],
				       &s.d[2 + i], true);
		if (ret)
			return ret;
	}
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_set(ox, 1, TA_OX_INT64, &s);
}

int ta_ox_global_pool(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	s = x->shape;
	for (i = 2; i < s.rank; i++)
		s.d[i] = 1;
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * MaxUnpool: the values of its output_shape input (a constant), else each
 * spatial dimension (in - 1) x stride + kernel - the pads; X's type.
 */
int ta_ox_max_unpool(struct ta_ox *ox)
{
	struct ta_ox_value *x, *os = ta_ox_in(ox, 2);
	struct ta_ox_window win;
	struct ta_ox_shape s;
	const s64 *iv;
	u32 nsp, i, n;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	nsp = x->shape.rank - 2;
	ret = ta_ox_window_attrs(ox, nsp, &win, true);
	if (ret)
		return ret;
	s = x->shape;
	if (os) {
		if (!ta_ox_ints(os, &iv, &n))
			return ta_ox_runtime_input(ox, 2, "output_shape");
		if (n != s.rank)
			return ta_ox_node_fail(ox, -EINVAL,
					       "output_shape of %u values for rank %u",
					       n, s.rank);
		memcpy(s.d, iv, sizeof(*iv) * n);
		return ta_ox_set(ox, 0, x->dtype, &s);
	}
	for (i = 0; i < nsp; i++) {
		if (win.k[i] < 1 || win.k[i] > (1LL << 31))
			return ta_ox_node_fail(ox, -EINVAL, "kernel size %lld out of range",
					       (long long)win.k[i]);
		s.d[2 + i] = (s.d[2 + i] - 1) * win.s[i] + win.k[i] -
			     win.pads[i] - win.pads[i + nsp];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

int ta_ox_gemm(struct ta_ox *ox)
{
	struct ta_ox_value *a, *b, *c;
	struct ta_ox_shape s = { .rank = 2 }, bc;
	s64 ta, tb, k1, k2;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &a, 2, 2) ?:
		  ta_ox_need_rank(ox, 1, &b, 2, 2) ?:
		  ta_ox_attr_int(ox, "transA", 0, &ta) ?:
		  ta_ox_attr_int(ox, "transB", 0, &tb);

	if (ret)
		return ret;
	s.d[0] = a->shape.d[ta ? 1 : 0];
	k1 = a->shape.d[ta ? 0 : 1];
	k2 = b->shape.d[tb ? 1 : 0];
	s.d[1] = b->shape.d[tb ? 0 : 1];
	if (k1 != k2)
		return ta_ox_node_fail(ox, -EINVAL,
				       "A's inner dimension %lld differs from B's %lld",
				       (long long)k1, (long long)k2);
	c = ta_ox_in(ox, 2);
	if (c) {
		ret = ta_ox_broadcast(ox, &s, &c->shape, &bc);
		if (ret)
			return ret;
		if (bc.rank != 2 || bc.d[0] != s.d[0] || bc.d[1] != s.d[1])
			return ta_ox_node_fail(ox, -EINVAL,
					       "C does not broadcast to [M, N]");
	}
	return ta_ox_set(ox, 0, a->dtype, &s);
}

/*
 * numpy's matmul of inputs 0 and @bk into an output of type @dtype (0:
 * input 0's): MatMul, MatMulInteger, QLinearMatMul.
 */
static int ta_ox_matmul_of(struct ta_ox *ox, u32 bk, u32 dtype)
{
	struct ta_ox_value *a, *b;
	struct ta_ox_shape sa, sb, ba, bb, s;
	bool a1, b1;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &a, 1, TA_OX_MAX_RANK) ?:
		  ta_ox_need_rank(ox, bk, &b, 1, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	sa = a->shape;
	sb = b->shape;
	a1 = sa.rank == 1;
	b1 = sb.rank == 1;
	if (a1) {
		sa.rank = 2;
		sa.d[1] = sa.d[0];
		sa.d[0] = 1;
	}
	if (b1) {
		sb.rank = 2;
		sb.d[1] = 1;
	}
	if (sa.d[sa.rank - 1] != sb.d[sb.rank - 2])
		return ta_ox_node_fail(ox, -EINVAL,
				       "inner dimensions %lld and %lld differ",
				       (long long)sa.d[sa.rank - 1],
				       (long long)sb.d[sb.rank - 2]);
	ba.rank = sa.rank - 2;
	bb.rank = sb.rank - 2;
	memcpy(ba.d, sa.d, sizeof(s64) * ba.rank);
	memcpy(bb.d, sb.d, sizeof(s64) * bb.rank);
	ret = ta_ox_broadcast(ox, &ba, &bb, &s);
	if (ret)
		return ret;
	i = s.rank;
	if (!a1)
		s.d[i++] = sa.d[sa.rank - 2];
	if (!b1)
		s.d[i++] = sb.d[sb.rank - 1];
	if (i > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	s.rank = i;
	return ta_ox_set(ox, 0, dtype ?: a->dtype, &s);
}

int ta_ox_matmul(struct ta_ox *ox)
{
	return ta_ox_matmul_of(ox, 1, 0);
}

/* MatMulInteger: MatMul's shape, INT32. */
int ta_ox_matmul_integer(struct ta_ox *ox)
{
	return ta_ox_matmul_of(ox, 1, TA_OX_INT32);
}

/* QLinearMatMul: a, its scale and zero, b (input 3)...: y_zero_point's type. */
int ta_ox_qlinear_matmul(struct ta_ox *ox)
{
	struct ta_ox_value *zp;
	int ret = ta_ox_need(ox, 7, &zp);

	return ret ?: ta_ox_matmul_of(ox, 3, zp->dtype);
}

/*
 * RNN, GRU, LSTM: X [seq, batch, input] (layout 1: [batch, seq, input]),
 * W [directions, gates x hidden, input]. Y [seq, directions, batch,
 * hidden] (layout 1: [batch, seq, directions, hidden]); Y_h and LSTM's Y_c
 * [directions, batch, hidden] (layout 1: [batch, directions, hidden]).
 */
int ta_ox_recurrent(struct ta_ox *ox)
{
	const char *op = ox->nd.op_str;
	u32 gates = !strcmp(op, "LSTM") ? 4 : !strcmp(op, "GRU") ? 3 : 1;
	struct ta_ox_value *x, *w;
	struct ta_ox_shape y = { .rank = 4 }, h = { .rank = 3 };
	char dir[24];
	s64 hidden, layout, nd, seq, batch;
	u32 k;
	int ret = ta_ox_need_rank(ox, 0, &x, 3, 3) ?:
		  ta_ox_need_rank(ox, 1, &w, 3, 3) ?:
		  ta_ox_attr_int(ox, "hidden_size", 0, &hidden) ?:
		  ta_ox_attr_int(ox, "layout", 0, &layout) ?:
		  ta_ox_attr_str(ox, "direction", "forward", dir, sizeof(dir)) ?:
		  ta_ox_outputs_at_most(ox, gates == 4 ? 3 : 2);

	if (ret)
		return ret;
	nd = !strcmp(dir, "bidirectional") ? 2 : 1;
	if (strcmp(dir, "forward") && strcmp(dir, "reverse") && nd == 1)
		return ta_ox_node_fail(ox, -EINVAL, "direction '%s'", dir);
	if (layout != 0 && layout != 1)
		return ta_ox_node_fail(ox, -EINVAL, "layout %lld", (long long)layout);
	if (w->shape.d[0] != nd || w->shape.d[1] % gates ||
	    (hidden && w->shape.d[1] != gates * hidden) ||
	    w->shape.d[2] != x->shape.d[2])
		return ta_ox_node_fail(ox, -EINVAL,
				       "W [%lld,%lld,%lld] for %lld directions, %u gates of hidden_size %lld and input size %lld",
				       (long long)w->shape.d[0],
				       (long long)w->shape.d[1],
				       (long long)w->shape.d[2], (long long)nd,
				       gates, (long long)hidden,
				       (long long)x->shape.d[2]);
	hidden = w->shape.d[1] / gates;
	seq = x->shape.d[layout ? 1 : 0];
	batch = x->shape.d[layout ? 0 : 1];
	if (layout) {
		y.d[0] = batch;
		y.d[1] = seq;
		y.d[2] = nd;
		h.d[0] = batch;
		h.d[1] = nd;
	} else {
		y.d[0] = seq;
		y.d[1] = nd;
		y.d[2] = batch;
		h.d[0] = nd;
		h.d[1] = batch;
	}
	y.d[3] = hidden;
	h.d[2] = hidden;
	ret = ta_ox_set(ox, 0, x->dtype, &y);
	for (k = 1; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, x->dtype, &h);
	return ret;
}

/* Det: the batch dimensions of [*, M, M]. */
int ta_ox_det(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 2, TA_OX_MAX_RANK);

	if (ret)
		return ret;
	s = x->shape;
	if (s.d[s.rank - 1] != s.d[s.rank - 2])
		return ta_ox_node_fail(ox, -EINVAL, "matrices of %lld x %lld",
				       (long long)s.d[s.rank - 2],
				       (long long)s.d[s.rank - 1]);
	s.rank -= 2;
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * Einsum: each input's letters name its dimensions (a letter's size the
 * same wherever it appears), an ellipsis the dimensions its letters leave
 * (broadcast together over the inputs); the output's are the letters after
 * "->", or without it the ellipsis' and then the letters that appear once,
 * in ASCII order.
 */
int ta_ox_einsum(struct ta_ox *ox)
{
	s64 size[128];
	u32 count[128] = { 0 }, k = 0, i, n = 0, c;
	struct ta_ox_shape s = { 0 }, ell = { 0 };
	struct ta_ox_value *x;
	char raw[256], eq[256];
	const char *p, *arrow, *term;
	bool any_ell = false;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_str(ox, "equation", "", raw, sizeof(raw));

	if (ret)
		return ret;
	if (strlen(raw) >= sizeof(raw) - 1)
		return ta_ox_cannot(ox, "an equation of %zu bytes or more",
				    sizeof(raw) - 1);
	/* without its spaces (which ta_ox_token() wrote as '_') */
	for (p = raw; *p; p++)
		if (*p != '_')
			eq[n++] = *p;
	eq[n] = 0;
	arrow = strstr(eq, "->");
	for (term = eq; k < ox->nd.n_in; term = p + 1, k++) {
		struct ta_ox_value *in = ta_ox_in(ox, k);
		const char *dots = NULL;
		u32 letters = 0, ne = 0, pos = 0;

		for (p = term; *p && *p != ',' && p != arrow; p++) {
			if (!strncmp(p, "...", 3) && !dots) {
				dots = p;
				p += 2;
			} else if (isalpha((u8)*p)) {
				letters++;
			} else {
				goto bad;
			}
		}
		if (!in || letters > in->shape.rank ||
		    (!dots && letters != in->shape.rank) ||
		    (*p == ',') != (k + 1 < ox->nd.n_in))
			goto bad;
		if (dots) {
			struct ta_ox_shape e = { .rank = in->shape.rank - letters };

			ne = e.rank;
			for (i = 0; i < ne; i++)
				e.d[i] = in->shape.d[dots - term + i];
			ret = ta_ox_broadcast(ox, &ell, &e, &ell);
			if (ret)
				return ret;
			any_ell = true;
		}
		for (p = term; *p && *p != ',' && p != arrow; p++) {
			s64 d;

			if (*p == '.') {
				pos += ne;
				p += 2;
				continue;
			}
			c = (u8)*p;
			d = in->shape.d[pos++];
			if (count[c] && size[c] != d)
				return ta_ox_node_fail(ox, -EINVAL,
						       "'%c' is %lld and %lld long in '%s'",
						       c, (long long)size[c],
						       (long long)d, eq);
			size[c] = d;
			count[c]++;
		}
	}
	if (term != (arrow ? arrow + 1 : eq + n + 1))
		goto bad;
	if (!arrow) {
		s = ell;
		for (c = 'A'; c <= 'z'; c++)
			if (count[c] == 1) {
				if (s.rank == TA_OX_MAX_RANK)
					goto bad;
				s.d[s.rank++] = size[c];
			}
		return ta_ox_set(ox, 0, x->dtype, &s);
	}
	for (p = arrow + 2; *p; p++) {
		if (!strncmp(p, "...", 3) && any_ell) {
			if (s.rank + ell.rank > TA_OX_MAX_RANK)
				goto bad;
			for (i = 0; i < ell.rank; i++)
				s.d[s.rank++] = ell.d[i];
			p += 2;
			continue;
		}
		c = (u8)*p;
		if (!isalpha((int)c) || !count[c] || s.rank == TA_OX_MAX_RANK)
			goto bad;
		s.d[s.rank++] = size[c];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
bad:
	return ta_ox_node_fail(ox, -EINVAL,
			       "equation '%s' does not fit its %u inputs", raw,
			       ox->nd.n_in);
}

/*
 * Resize's roi, which sizes the output by scales only in
 * tf_crop_and_resize mode (the spec: floor(dim x scale x (end - start)),
 * where ONNX Runtime ignores it): into @roi the @rank starts then the
 * @rank ends in that mode (left as they are in another), roi's values
 * given for the @naxes axes @ax. Refused in that mode when roi is not a
 * constant.
 */
static int ta_ox_resize_roi(struct ta_ox *ox, u32 rank, const u32 *ax,
			    u32 naxes, double *roi)
{
	struct ta_ox_value *r;
	char mode[32];
	u32 j;
	int ret;

	ret = ta_ox_attr_str(ox, "coordinate_transformation_mode", "half_pixel",
			     mode, sizeof(mode));
	if (ret || strcmp(mode, "tf_crop_and_resize"))
		return ret;
	r = ta_ox_in(ox, 1);
	if (!r || !r->fv)
		return ta_ox_node_fail(ox, -EINVAL,
				       "tf_crop_and_resize with scales and roi %s: the spec sizes the output by roi's extent, ONNX Runtime by the scales alone, and no one shape is safe for the nodes after it (give sizes instead of scales)",
				       r ? "computed at run time" : "not given");
	if (r->n_kept != 2 * naxes)
		return ta_ox_node_fail(ox, -EINVAL, "%u roi values for %u axes",
				       r->n_kept, naxes);
	for (j = 0; j < naxes; j++) {
		roi[ax[j]] = r->fv[j];
		roi[rank + ax[j]] = r->fv[naxes + j];
	}
	return 0;
}

/*
 * Resize's axes attribute (opset 18): into @ax the axes that scales,
 * sizes and roi give values for, *@n of them; all, in order, without it.
 */
static int ta_ox_resize_axes(struct ta_ox *ox, u32 rank, u32 *ax, u32 *n)
{
	s64 v[TA_OX_MAX_RANK];
	u32 i, seen = 0;
	s32 k = -1;
	int ret = 0;

	if (strcmp(ox->nd.op_str, "Upsample") && ox->opset >= 18)
		ret = ta_ox_attr_ints(ox, "axes", v, TA_OX_MAX_RANK, &k);
	if (ret)
		return ret;
	if (k < 0) {
		for (i = 0; i < rank; i++)
			ax[i] = i;
		*n = rank;
		return 0;
	}
	for (i = 0; i < (u32)k; i++) {
		ret = ta_ox_axis(ox, v[i], rank, false, &ax[i]);
		if (ret)
			return ret;
		if (seen & (1U << ax[i]))
			return ta_ox_node_fail(ox, -EINVAL,
					       "axis %u given twice", ax[i]);
		seen |= 1U << ax[i];
	}
	*n = (u32)k;
	return 0;
}

/*
 * sizes under keep_aspect_ratio_policy not_larger (@larger false) or
 * not_smaller: one scale for the @n axes @ax, the least (or largest) of
 * size / input, and each of those dimensions round(scale x input), into
 * @s. ONNX Runtime computes in float; where double gives another size,
 * no one shape is safe for the nodes after it.
 */
static int ta_ox_resize_policy(struct ta_ox *ox, const struct ta_ox_shape *in,
			       const u32 *ax, u32 n, const s64 *sizes,
			       bool larger, struct ta_ox_shape *s)
{
	float sf = larger ? 0 : FLT_MAX;
	double sd = larger ? 0 : DBL_MAX;
	u32 j;

	for (j = 0; j < n; j++) {
		s64 d = in->d[ax[j]];
		float f = d ? (float)sizes[j] / (float)d : 1.0f;
		double g = d ? (double)sizes[j] / (double)d : 1.0;

		if (larger ? f > sf : f < sf)
			sf = f;
		if (larger ? g > sd : g < sd)
			sd = g;
	}
	for (j = 0; j < n; j++) {
		s64 d = in->d[ax[j]];
		double of = roundf(sf * (float)d), od = round(sd * (double)d);

		if (!(of >= 0 && of <= (double)TA_OX_MAX_ELEMS))
			return ta_ox_node_fail(ox, -EINVAL,
					       "dimension %u: size %.0f", ax[j],
					       of);
		if (of != od)
			return ta_ox_node_fail(ox, -EINVAL,
					       "dimension %u: keep_aspect_ratio_policy gives %.0f in float (ONNX Runtime), %.0f in double: no one shape is safe for the nodes after it",
					       ax[j], of, od);
		s->d[ax[j]] = (s64)of;
	}
	return 0;
}

/* Resize (opset 10+) and Upsample: sizes, or floor(dim * scale). */
int ta_ox_resize(struct ta_ox *ox)
{
	struct ta_ox_value *x, *sc, *sz;
	struct ta_ox_shape s;
	struct ta_ox_attr a;
	double scales[TA_OX_MAX_RANK], roi[2 * TA_OX_MAX_RANK];
	const s64 *iv;
	char policy[24] = "stretch";
	u32 i, n, ax[TA_OX_MAX_RANK], naxes = 0;
	bool upsample = !strcmp(ox->nd.op_str, "Upsample");
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	s = x->shape;
	ret = ta_ox_resize_axes(ox, s.rank, ax, &naxes);
	if (!ret && !upsample && ox->opset >= 18)
		ret = ta_ox_attr_str(ox, "keep_aspect_ratio_policy",
				     "stretch", policy, sizeof(policy));
	if (ret)
		return ret;
	if (strcmp(policy, "stretch") && strcmp(policy, "not_larger") &&
	    strcmp(policy, "not_smaller"))
		return ta_ox_node_fail(ox, -EINVAL,
				       "unknown keep_aspect_ratio_policy '%s'",
				       policy);
	for (i = 0; i < s.rank; i++)
		scales[i] = 1;
	if (upsample && ox->opset < 9) {
		ret = ta_ox_attr(ox, "scales", &a);
		if (ret <= 0)
			return ret ?: ta_ox_node_fail(ox, -EINVAL, "no scales");
		if (a.n_floats != s.rank)
			return ta_ox_node_fail(ox, -EINVAL,
					       "%llu scales for rank %u",
					       (unsigned long long)a.n_floats,
					       s.rank);
		for (i = 0; i < s.rank; i++)
			scales[i] = a.floats[i];
		goto scale;
	}
	sc = ta_ox_in(ox, upsample || ox->opset < 11 ? 1 : 2);
	sz = upsample || ox->opset < 11 ? NULL : ta_ox_in(ox, 3);
	if (sc && !ta_ox_elems(&sc->shape))
		sc = NULL;
	if (sz && !ta_ox_elems(&sz->shape))
		sz = NULL;
	if (sz) {
		if (!ta_ox_ints(sz, &iv, &n))
			return ta_ox_runtime_input(ox, 3, "sizes");
		if (n != naxes)
			return ta_ox_node_fail(ox, -EINVAL, "%u sizes for %u axes",
					       n, naxes);
		if (strcmp(policy, "stretch"))
			ret = ta_ox_resize_policy(ox, &x->shape, ax, n, iv,
						  !strcmp(policy, "not_smaller"),
						  &s);
		else
			for (i = 0; i < n; i++)
				s.d[ax[i]] = iv[i];
		return ret ?: ta_ox_set(ox, 0, x->dtype, &s);
	}
	if (!sc)
		return ta_ox_node_fail(ox, -EINVAL, "neither scales nor sizes");
	if (!sc->fv)
		return ta_ox_runtime_input(ox, upsample || ox->opset < 11 ? 1 : 2,
					   "scales");
	if (sc->n_kept != naxes)
		return ta_ox_node_fail(ox, -EINVAL, "%u scales for %u axes",
				       sc->n_kept, naxes);
	for (i = 0; i < naxes; i++)
		scales[ax[i]] = sc->fv[i];
scale:
	for (i = 0; i < s.rank; i++) {
		roi[i] = 0;
		roi[s.rank + i] = 1;
	}
	if (!upsample && ox->opset >= 11) {
		ret = ta_ox_resize_roi(ox, s.rank, ax, naxes, roi);
		if (ret)
			return ret;
	}
	for (i = 0; i < s.rank; i++) {
		/*
		 * ONNX Runtime multiplies in float and ignores roi: 10 * 0.7f
		 * is 7 there, 6.99... in double, and the spec's formula for
		 * tf_crop_and_resize takes roi's extent too. Where these
		 * differ, no one shape is safe for the nodes after it.
		 */
		float f = (float)s.d[i] * (float)scales[i];
		double d = floor((double)s.d[i] * scales[i]);
		double spec = floor((double)s.d[i] * scales[i] *
				    (roi[i + s.rank] - roi[i]));

		if (!(d >= 0 && d <= (double)TA_OX_MAX_ELEMS))
			return ta_ox_node_fail(ox, -EINVAL,
					       "scale %g out of range", scales[i]);
		if (floor((double)f) != d || spec != d)
			return ta_ox_node_fail(ox, -EINVAL,
					       "dimension %u: %lld x scale %.9g is %.0f in float (ONNX Runtime), %.0f in double, %.0f by the spec's formula with roi: no one shape is safe for the nodes after it (give sizes instead of scales)",
					       i, (long long)s.d[i], scales[i],
					       floor((double)f), d, spec);
		s.d[i] = (s64)d;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}
