// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_shape_index.c - the TFLite reader's shape rules (see
 * ta_tflite_shape.c) for the ops that slice, split and rearrange by index
 * constants (STRIDED_SLICE, SPLIT_V, TOPK_V2, EMBEDDING_LOOKUP,
 * SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, ONE_HOT) and those whose output
 * shape is a constant input or the input's rank (BROADCAST_TO, FILL,
 * SHAPE, RANK) or counts constants (RANGE).
 *
 * Each follows its kernel's Prepare() in TFLite (kernels/<op>.cc): where the
 * kernel computes an output shape from constants, so does the rule, and a
 * model recording another is refused by ta_tfl_check_shape(). Inputs the
 * kernel refuses, or reads past (a strides vector shorter than begin), and
 * indexing tensors that are not constant (the kernel then resizes the
 * output when it runs, and the reader takes the recorded shape) leave the
 * op unchecked: the rule returns 0.
 */
#include "ta_tflite_shape.h"

/* STRIDED_SLICE takes up to 5 dimensions, counting the new axes. */
#define TA_TFL_SLICE_DIMS	5
/* The kernels' sizes are int32; past 2^24 the float ceil() could differ. */
#define TA_TFL_EXACT_FLOAT	((s64)1 << 24)

/**
 * ta_tfl_index_rule() - whether builtin @code has a rule here
 * @code: BuiltinOperator
 *
 * Return: true for the ops this file computes.
 */
bool ta_tfl_index_rule(u32 code)
{
	switch (code) {
	case TA_TFL_EMBEDDING_LOOKUP:
	case TA_TFL_BATCH_TO_SPACE_ND:
	case TA_TFL_SPACE_TO_BATCH_ND:
	case TA_TFL_STRIDED_SLICE:
	case TA_TFL_TOPK_V2:
	case TA_TFL_SHAPE:
	case TA_TFL_FILL:
	case TA_TFL_SPLIT_V:
	case TA_TFL_RANK:
	case TA_TFL_BROADCAST_TO:
	case TA_TFL_ONE_HOT:
	case TA_TFL_RANGE:
		return true;
	}
	return false;
}

/**
 * ta_tfl_index_all_outputs() - whether every output of builtin @code has a
 * computed shape (SPLIT_V's outputs, TOPK_V2's values and indices)
 * @code: BuiltinOperator
 *
 * Return: true when each output is checked, false when only the first.
 */
bool ta_tfl_index_all_outputs(u32 code)
{
	return code == TA_TFL_SPLIT_V || code == TA_TFL_TOPK_V2;
}

/* An INT32 constant of rank 1 (or a scalar, @scalar) into @v; its count. */
static bool ta_tfl_int32s(struct ta_tfl *m, const struct ta_tfl_tensor *t,
			  bool scalar, s64 *v, u32 max, u32 *n)
{
	if (t->type != TA_TFL_INT32 || t->rank > 1 || (!scalar && !t->rank))
		return false;
	return ta_tfl_const(m, t, v, max, n);
}

/* ceil(@a / @b), @b != 0, as the kernels' float division gives it. */
static s64 ta_tfl_ceil_div(s64 a, s64 b)
{
	s64 q = a / b;

	/* C truncates toward 0: up one for a positive quotient (same signs) */
	if (a % b && (a ^ b) >= 0)
		q++;
	return q;
}

/* The begin, end and strides of a STRIDED_SLICE over the effective axes. */
struct ta_tfl_slice {
	u32 rank;			/* effective: the input's and new axes */
	s64 dim[TA_TFL_SLICE_DIMS];	/* the effective input shape */
	s64 begin[TA_TFL_SLICE_DIMS], end[TA_TFL_SLICE_DIMS];
	s64 stride[TA_TFL_SLICE_DIMS];
	u32 begin_mask, end_mask, shrink_mask;
};

/*
 * BuildStridedSliceParams() of TFLite's kernel: the ellipsis expanded to
 * the axes begin leaves out, a new axis a dimension of 1, the axes past
 * begin's count taken whole. @f holds begin_mask, end_mask, ellipsis_mask,
 * new_axis_mask and shrink_axis_mask. False where the kernel would read
 * past its vectors or its input's shape.
 */
static bool ta_tfl_slice_axes(const struct ta_tfl_tensor *x, const s64 *f,
			      const s64 *begin, const s64 *end,
			      const s64 *stride, s32 n, struct ta_tfl_slice *p)
{
	u32 ellipsis = (u32)f[2], new_axis = (u32)f[3];
	u32 eff_ellipsis = 0, eff_new = 0;
	s32 rank = (s32)x->rank, add = 0, eff, i, start = 0, expanded = 0;
	s32 added_ellipsis = 0, added_axes = 0, orig, at;

	for (i = 0; i < n && i < 32; i++)
		if (!(ellipsis & BIT(i)) && (new_axis & BIT(i)))
			add++;
	eff = rank + add;
	if (eff > TA_TFL_SLICE_DIMS)
		return false;
	start = eff;
	for (i = 0; i < eff;) {
		if (ellipsis & BIT(i)) {
			s32 stop = i + 1 + add + rank - n;

			start = i;
			if (stop > eff)
				stop = eff;
			if (stop < i + 1)
				stop = i + 1;
			expanded = stop - start - 1;
			for (; i < stop; i++)
				eff_ellipsis |= BIT(i);
			continue;
		}
		if (new_axis & BIT(i - expanded))
			eff_new |= BIT(i);
		i++;
	}
	memset(p, 0, sizeof(*p));
	p->rank = (u32)eff;
	for (i = 0; i < eff; i++) {
		at = i - added_axes;
		p->stride[i] = 1;
		if (eff_ellipsis & BIT(i)) {
			added_ellipsis = i - start > 0 ? i - start : 0;
			p->begin_mask |= BIT(i);
			p->end_mask |= BIT(i);
		} else if (eff_new & BIT(i)) {
			p->end[i] = 1;
			p->dim[i] = 1;
			added_axes++;
			continue;
		} else if (i >= n + expanded) {
			p->begin_mask |= BIT(i);
			p->end_mask |= BIT(i);
		} else {
			orig = i - added_ellipsis;
			if (orig < 0 || orig >= n || orig >= 32)
				return false;
			p->begin[i] = begin[orig];
			p->end[i] = end[orig];
			p->stride[i] = stride[orig];
			if (f[0] & BIT(orig))
				p->begin_mask |= BIT(i);
			if (f[1] & BIT(orig))
				p->end_mask |= BIT(i);
			if (f[4] & BIT(orig))
				p->shrink_mask |= BIT(i);
		}
		if (at < 0 || at >= rank)
			return false;
		p->dim[i] = x->dims[at];
	}
	return true;
}

/*
 * An index @v along an axis of @size as the kernel takes a begin or an
 * end: counted from the end when negative, then clamped, to [0, size]
 * going up (@up), to [-1, size - 1] going down; @whole when its mask bit
 * is set (@masked).
 */
static s64 ta_tfl_slice_index(s64 v, s64 size, bool up, bool masked,
			      s64 whole)
{
	s64 lo = up ? 0 : -1, hi = up ? size : size - 1;

	if (masked)
		return whole;
	if (v < 0)
		v += size;
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * StridedSliceStartForAxis() and StridedSliceEndForAxis(): the range of
 * axis @i, its start into *@start; returns end - start.
 */
static s64 ta_tfl_slice_range(const struct ta_tfl_slice *p, u32 i,
			      s64 *start)
{
	s64 size = p->dim[i];
	bool up = p->stride[i] > 0;

	*start = ta_tfl_slice_index(p->begin[i], size, up,
				    p->begin_mask & BIT(i), up ? 0 : size - 1);
	return ta_tfl_slice_index(p->end[i], size, up, p->end_mask & BIT(i),
				  up ? size : -1) - *start;
}

/*
 * A STRIDED_SLICE's inputs (input, begin, end, strides; begin, end and
 * strides INT32 constants of rank 1, begin and end of one count) over the
 * effective axes into @p, its options into @f (begin_mask, end_mask,
 * ellipsis_mask, new_axis_mask, shrink_axis_mask, offset), end as given
 * into @end. Returns 1, 0 when the op is not checked, or -errno.
 */
static int ta_tfl_slice_read(struct ta_tfl *m, const struct ta_fbt *o,
			     const struct ta_tfl_tensor *t, const s32 *in,
			     u32 n_in, struct ta_tfl_slice *p, s64 *f,
			     s64 *end)
{
	const struct ta_tfl_tensor *x = &t[in[0]];
	s64 begin[TA_TFL_MAX_DIMS], stride[TA_TFL_MAX_DIMS];
	u32 nb, ne, ns, k;
	bool have;
	int ret = 0;

	if (n_in != 4 || in[1] < 0 || in[2] < 0 || in[3] < 0 ||
	    x->rank > TA_TFL_SLICE_DIMS ||
	    !ta_tfl_int32s(m, &t[in[1]], false, begin, TA_TFL_MAX_DIMS, &nb) ||
	    !ta_tfl_int32s(m, &t[in[2]], false, end, TA_TFL_MAX_DIMS, &ne) ||
	    !ta_tfl_int32s(m, &t[in[3]], false, stride, TA_TFL_MAX_DIMS, &ns) ||
	    nb != ne || ns != nb)
		return 0;
	for (k = 0; k < 5 && !ret; k++)
		ret = ta_tfl_option(m, o, TA_TFL_STRIDED_SLICE_OPTIONS, k, 0,
				    &f[k], &have);
	if (!ret)
		ret = ta_tfl_option_bool(m, o, TA_TFL_STRIDED_SLICE_OPTIONS, 5,
					 &f[5]);
	if (ret || !ta_tfl_slice_axes(x, f, begin, end, stride, (s32)nb, p))
		return ret;
	/* with offset the kernel reads end at the effective axis */
	return f[5] && p->rank > nb ? 0 : 1;
}

/*
 * STRIDED_SLICE: each effective axis not shrunk gives ceil(length /
 * stride), at least 0; with the offset option the length is end's value
 * at that axis, as the kernel reads it.
 */
static int ta_tfl_strided_slice(struct ta_tfl *m, const struct ta_fbt *o,
				const struct ta_tfl_tensor *t, const s32 *in,
				u32 n_in, struct ta_tfl_shape *out)
{
	s64 end[TA_TFL_MAX_DIMS], f[6], start;
	struct ta_tfl_slice p;
	u32 k;
	int ret;

	ret = ta_tfl_slice_read(m, o, t, in, n_in, &p, f, end);
	if (ret <= 0)
		return ret;
	out->rank = 0;
	for (k = 0; k < p.rank; k++) {
		s64 len;

		if (!p.stride[k])
			return 0;	/* the kernel refuses a stride of 0 */
		if (p.shrink_mask & BIT(k))
			continue;
		len = f[5] ? end[k] : ta_tfl_slice_range(&p, k, &start);
		if (len >= TA_TFL_EXACT_FLOAT || len <= -TA_TFL_EXACT_FLOAT)
			return 0;
		len = ta_tfl_ceil_div(len, p.stride[k]);
		out->d[out->rank++] = len < 0 ? 0 : len;
	}
	return 1;
}

/**
 * ta_tfl_slice_vector() - the elements a STRIDED_SLICE of a vector picks
 * @m: the model
 * @o: the op's table
 * @t: the subgraph's tensors
 * @in: the op's inputs
 * @n_in: how many
 * @first: out, the first element's index
 * @step: out, the stride
 * @count: out, how many (a shrunk axis: 1, and the output is a scalar)
 *
 * For ta_tflite_fold.c: the elements first + k x step, k < count, all
 * inside the input.
 *
 * Return: 1 with the outs set, 0 when the op slices no vector (or the
 * kernel would refuse it), -errno when its options are corrupt.
 */
int ta_tfl_slice_vector(struct ta_tfl *m, const struct ta_fbt *o,
			const struct ta_tfl_tensor *t, const s32 *in, u32 n_in,
			s64 *first, s64 *step, u32 *count)
{
	s64 end[TA_TFL_MAX_DIMS], f[6], len;
	struct ta_tfl_slice p;
	int ret;

	ret = ta_tfl_slice_read(m, o, t, in, n_in, &p, f, end);
	if (ret <= 0)
		return ret;
	if (t[in[0]].rank != 1 || p.rank != 1 || f[5] || !p.stride[0])
		return 0;
	len = ta_tfl_slice_range(&p, 0, first);
	*step = p.stride[0];
	if (p.shrink_mask & 1) {
		*count = 1;
		return *first >= 0 && *first < p.dim[0] ? 1 : 0;
	}
	len = ta_tfl_ceil_div(len, p.stride[0]);
	*count = len < 0 ? 0 : (u32)len;
	return 1;
}

/*
 * SPLIT_V (input, size_splits, axis): output @k is the input with the
 * axis cut to size_splits[k], the one -1 taking what the others leave.
 */
static int ta_tfl_split_v(struct ta_tfl *m, const struct ta_fbt *o, u32 k,
			  const struct ta_tfl_tensor *t, const s32 *in,
			  u32 n_in, struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]];
	s64 size[TA_TFL_SHAPE_MAX_OUTPUTS], axis, splits, sum = 0;
	u32 n, j, open = TA_TFL_SHAPE_MAX_OUTPUTS, na;
	bool have;
	int ret;

	if (n_in != 3 || in[1] < 0 || in[2] < 0 || t[in[1]].rank != 1 ||
	    !ta_tfl_const(m, &t[in[1]], size, TA_TFL_SHAPE_MAX_OUTPUTS, &n) ||
	    !ta_tfl_int32s(m, &t[in[2]], true, &axis, 1, &na) ||
	    !ta_tfl_axis(&axis, x->rank) || k >= n)
		return 0;
	ret = ta_tfl_option(m, o, TA_TFL_SPLIT_V_OPTIONS, 0, 0, &splits,
			    &have);
	if (ret || splits != n)
		return ret;
	for (j = 0; j < n; j++) {
		if (size[j] == -1 && open == TA_TFL_SHAPE_MAX_OUTPUTS) {
			open = j;
			continue;
		}
		if (size[j] < 0 || size[j] > INT32_MAX)
			return 0;
		sum += size[j];
	}
	if (open < n) {
		if (sum > x->dims[axis])
			return 0;
		size[open] = x->dims[axis] - sum;
	} else if (sum != x->dims[axis]) {
		return 0;
	}
	ta_tfl_shape_of(x, out);
	out->d[axis] = size[k];
	return 1;
}

/*
 * SPACE_TO_BATCH_ND (input, block_shape, paddings) and BATCH_TO_SPACE_ND
 * (input, block_shape, crops): an input of 3 or 4 dimensions, a block
 * and a pair for each between the first and the last.
 */
static int ta_tfl_batch_space(struct ta_tfl *m, bool to_batch,
			      const struct ta_tfl_tensor *t, const s32 *in,
			      u32 n_in, struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]];
	s64 block[2], pad[4], batch;
	u32 nb, np, d;

	if (n_in != 3 || in[1] < 0 || in[2] < 0 ||
	    (x->rank != 3 && x->rank != 4) || t[in[2]].rank != 2 ||
	    !ta_tfl_int32s(m, &t[in[1]], false, block, 2, &nb) ||
	    nb != x->rank - 2 || t[in[2]].type != TA_TFL_INT32 ||
	    !ta_tfl_const(m, &t[in[2]], pad, 4, &np) || np != 2 * nb)
		return 0;
	ta_tfl_shape_of(x, out);
	batch = x->dims[0];
	for (d = 0; d < nb; d++) {
		s64 *dim = &out->d[d + 1];

		if (block[d] < 1 || pad[2 * d] < 0 || pad[2 * d + 1] < 0)
			return 0;
		if (to_batch) {
			*dim += pad[2 * d] + pad[2 * d + 1];
			if (*dim % block[d])
				return 0;
			*dim /= block[d];
			batch *= block[d];
		} else {
			if (batch % block[d])
				return 0;
			batch /= block[d];
			*dim = *dim * block[d] - pad[2 * d] - pad[2 * d + 1];
		}
		if (*dim < 0 || *dim > INT32_MAX || batch > INT32_MAX)
			return 0;
	}
	out->d[0] = batch;
	return 1;
}

/**
 * ta_tfl_range() - the values a RANGE of known scalars gives
 * @m: the model
 * @t: the subgraph's tensors
 * @in: the op's inputs (start, limit, delta), -1 for one left out
 * @n_in: how many
 * @start: out, its first value
 * @delta: out, the step
 * @count: out, how many: (|limit - start| + |delta| - 1) / |delta|, as
 *	   TFLite's kernel counts integers
 *
 * Return: true when start, limit and delta are known scalars of one type,
 * INT32 or INT64, that the kernel takes (delta not 0 and towards limit,
 * its count an int32), false otherwise (also when the kernel's own
 * arithmetic in that type would overflow).
 */
bool ta_tfl_range(struct ta_tfl *m, const struct ta_tfl_tensor *t,
		  const s32 *in, u32 n_in, s64 *start, s64 *delta, s64 *count)
{
	s64 v[3];
	u64 span, step, lim;
	u32 k, n;

	if (n_in != 3)
		return false;
	for (k = 0; k < 3; k++) {
		const struct ta_tfl_tensor *x = in[k] >= 0 ? &t[in[k]] : NULL;

		if (!x || x->rank || x->type != t[in[0]].type ||
		    !ta_tfl_const(m, x, &v[k], 1, &n) || n != 1)
			return false;
	}
	if (!v[2] || (v[2] > 0 && v[0] > v[1]) || (v[2] < 0 && v[0] < v[1]))
		return false;
	/* |limit - start| and |delta| without overflow in 64 bits */
	span = v[1] >= v[0] ? (u64)v[1] - (u64)v[0] : (u64)v[0] - (u64)v[1];
	step = v[2] > 0 ? (u64)v[2] : -(u64)v[2];
	lim = t[in[0]].type == TA_TFL_INT32 ? INT32_MAX : BIT_ULL(62);
	if (span > lim || step > lim || span + step - 1 > lim)
		return false;
	*start = v[0];
	*delta = v[2];
	*count = (s64)((span + step - 1) / step);
	return *count <= INT32_MAX;
}

/*
 * ONE_HOT: the indices' shape with depth inserted at the axis (-1: last);
 * depth an INT32 of one element, at least 0.
 */
static int ta_tfl_one_hot(struct ta_tfl *m, const struct ta_fbt *o,
			  const struct ta_tfl_tensor *x,
			  const struct ta_tfl_tensor *w, struct ta_tfl_shape *out)
{
	s64 axis, depth;
	bool have;
	u32 n, j;
	int ret;

	ret = ta_tfl_option(m, o, TA_TFL_ONE_HOT_OPTIONS, 0, 0, &axis, &have);
	if (ret || !w || !ta_tfl_int32s(m, w, true, &depth, 1, &n) ||
	    depth < 0 || x->rank + 1 > TA_TFL_MAX_DIMS)
		return ret;
	if (axis == -1)
		axis = x->rank;
	if (axis < 0 || axis > x->rank)
		return 0;
	out->rank = x->rank + 1;
	for (j = 0; j < out->rank; j++)
		out->d[j] = j < axis ? x->dims[j] : j == axis ? depth :
			    x->dims[j - 1];
	return 1;
}

/*
 * A shape given as a constant vector (BROADCAST_TO's second input, FILL's
 * first): INT32 or INT64, each at least 0.
 */
static bool ta_tfl_shape_input(struct ta_tfl *m, const struct ta_tfl_tensor *s,
			       u32 max, struct ta_tfl_shape *out)
{
	u32 k;

	if (s->rank != 1 || !ta_tfl_const(m, s, out->d, max, &out->rank))
		return false;
	for (k = 0; k < out->rank; k++)
		if (out->d[k] < 0 || out->d[k] > INT32_MAX)
			return false;
	return true;
}

/**
 * ta_tfl_index_shape() - output @k's shape as the kernel of @code computes it
 * @m: the model
 * @o: the op's table (its options)
 * @code: BuiltinOperator, one ta_tfl_index_rule() takes
 * @k: the output (only SPLIT_V's differ)
 * @t: the subgraph's tensors
 * @in: the op's inputs, -1 for one left out
 * @n_in: how many
 * @out: the shape
 *
 * Return: 1 with @out set, 0 when the op is not checked (its inputs are
 * not constant, or the kernel would refuse them), -errno when its options
 * are corrupt.
 */
int ta_tfl_index_shape(struct ta_tfl *m, const struct ta_fbt *o, u32 code,
		       u32 k, const struct ta_tfl_tensor *t, const s32 *in,
		       u32 n_in, struct ta_tfl_shape *out)
{
	const struct ta_tfl_tensor *x = &t[in[0]], *w;
	s64 v;
	u32 n, j;

	w = n_in > 1 && in[1] >= 0 ? &t[in[1]] : NULL;
	switch (code) {
	case TA_TFL_STRIDED_SLICE:
		return ta_tfl_strided_slice(m, o, t, in, n_in, out);
	case TA_TFL_SPLIT_V:
		return ta_tfl_split_v(m, o, k, t, in, n_in, out);
	case TA_TFL_SPACE_TO_BATCH_ND:
	case TA_TFL_BATCH_TO_SPACE_ND:
		return ta_tfl_batch_space(m, code == TA_TFL_SPACE_TO_BATCH_ND,
					  t, in, n_in, out);
	case TA_TFL_TOPK_V2:
		/* values and indices: the input with its last axis k */
		if (!w || !x->rank || !ta_tfl_int32s(m, w, true, &v, 1, &n) ||
		    v < 0 || v > x->dims[x->rank - 1])
			return 0;
		ta_tfl_shape_of(x, out);
		out->d[x->rank - 1] = v;
		return 1;
	case TA_TFL_EMBEDDING_LOOKUP:
		/* lookup [n], value [rows, ...]: [n, ...] */
		if (!w || x->rank != 1 || x->type != TA_TFL_INT32 ||
		    w->rank < 2)
			return 0;
		ta_tfl_shape_of(w, out);
		out->d[0] = x->dims[0];
		return 1;
	case TA_TFL_BROADCAST_TO:
		/* the shape, into which the input broadcasts (up to 8 axes) */
		if (!w || !ta_tfl_shape_input(m, w, 8, out) ||
		    x->rank > out->rank)
			return 0;
		for (j = 0; j < x->rank; j++) {
			s64 d = out->d[out->rank - x->rank + j];

			if (x->dims[j] != 1 && x->dims[j] != d)
				return 0;
		}
		return 1;
	case TA_TFL_FILL:
		/* dims (input 0), a scalar value */
		return w && !w->rank &&
		       ta_tfl_shape_input(m, x, TA_TFL_MAX_DIMS, out) ? 1 : 0;
	case TA_TFL_SHAPE:
		out->rank = 1;
		out->d[0] = x->rank;
		return 1;
	case TA_TFL_RANK:
		out->rank = 0;
		return 1;
	case TA_TFL_ONE_HOT:
		return ta_tfl_one_hot(m, o, x, w, out);
	case TA_TFL_RANGE:
		if (!ta_tfl_range(m, t, in, n_in, &v, &v, &out->d[0]))
			return 0;
		out->rank = 1;
		return 1;
	}
	return 0;
}
