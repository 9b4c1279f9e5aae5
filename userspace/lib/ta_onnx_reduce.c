// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_reduce.c - the ONNX reader (ta_onnx.c): shape inference:
 * reductions (the training losses among them) and data-dependent ops.
 */
#include <string.h>

#include "ta_onnx_internal.h"

/* 1 for a dimension of 0: an output must be able to hold one element. */
static s64 ta_ox_at_least_1(s64 d)
{
	return d > 0 ? d : 1;
}

/* @x with the dimensions in @mask reduced: to 1 with @keep, else dropped. */
static void ta_ox_reduced(const struct ta_ox_shape *x, u32 mask, bool keep,
			  struct ta_ox_shape *s)
{
	u32 i;

	s->rank = 0;
	for (i = 0; i < x->rank; i++) {
		if (!(mask & (1U << i)))
			s->d[s->rank++] = x->d[i];
		else if (keep)
			s->d[s->rank++] = 1;
	}
}

/**
 * ta_ox_may_empty() - the node's outputs may be empty at run time
 * @ox: the reader, at a node whose outputs are set
 *
 * A data-dependent op planned at its largest (NonZero with no element
 * non-zero writes [rank, 0]), or a node reading such an output.
 */
void ta_ox_may_empty(struct ta_ox *ox)
{
	u32 k;

	for (k = 0; k < ox->nd.n_out; k++)
		if (ox->nd.out[k] >= 0)
			ox->v[ox->nd.out[k]].may_empty = true;
}

/*
 * A reduction of an input whose size comes from the data: at run time it
 * may have no element, and ONNX Runtime then reduces the axes of @ort_mask
 * (below) where the operator reduces those of @mask. Where they differ
 * (or without axes, noop_with_empty_axes, which ONNX Runtime does not
 * keep there), no one shape is safe for the nodes after it: refused.
 */
static int ta_ox_may_empty_reduction(struct ta_ox *ox,
				     const struct ta_ox_value *x, u32 mask,
				     u32 ort_mask)
{
	if (!x->may_empty || mask == ort_mask)
		return 0;
	return ta_ox_node_fail(ox, -EINVAL,
			       "its input's size comes from the data and may be 0 at run time, where ONNX Runtime reduces only the axes given as numbers >= 0 (all of them when none are given) and the operator others: no one shape is safe for the nodes after it");
}

/*
 * A reduction over an input without elements, where ONNX Runtime (1.23)
 * does not do what the operator says: it reduces only the axes given as
 * numbers >= 0 (with none of them, it writes the input's shape whatever
 * keepdims says: [0,4] over axis -1 stays [0,4]), and without axes it
 * reduces them all even when noop_with_empty_axes is set. Its output
 * @ort is then not always the operator's @spec, and no one shape is safe
 * for the nodes after it in both (one can hold elements where the other
 * has none, and ops along an axis see other dimensions): refused unless
 * they are the same, whatever shape the model records (it would be the
 * operator's).
 */
static int ta_ox_empty_reduction(struct ta_ox *ox,
				 const struct ta_ox_shape *spec,
				 const struct ta_ox_shape *ort)
{
	char a[128], b[128];

	if (ta_ox_shape_eq(spec, ort))
		return 0;
	ta_ox_shape_str(ort, a, sizeof(a));
	ta_ox_shape_str(spec, b, sizeof(b));
	return ta_ox_node_fail(ox, -EINVAL,
			       "over an input without elements ONNX Runtime writes %s, the operator %s (ONNX Runtime reduces only the axes given as numbers >= 0, all of them when none are given): no one shape is safe for the nodes after it",
			       a, b);
}

int ta_ox_reduce(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 }, ort = { 0 };
	s64 axes[TA_OX_MAX_KEPT], keep, noop;
	u32 i, ax = 0, mask = 0, ort_mask = 0;
	s32 n;
	bool sum = !strcmp(ox->nd.op_str, "ReduceSum");
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "keepdims", 1, &keep) ?:
		  ta_ox_attr_int(ox, "noop_with_empty_axes", 0, &noop) ?:
		  ta_ox_axes_arg(ox, "axes", 1, sum ? 13 : 18, axes, &n);

	if (ret)
		return ret;
	for (i = 0; n > 0 && i < (u32)n; i++) {
		ret = ta_ox_axis(ox, axes[i], x->shape.rank, false, &ax);
		if (ret)
			return ret;
		mask |= 1U << ax;
		if (axes[i] >= 0)
			ort_mask |= 1U << ax;
	}
	if (n <= 0) {
		/* no axes: all of them, or none with noop_with_empty_axes */
		mask = noop ? 0 : ~0U;
		ort_mask = ~0U;
	}
	if (mask)
		ta_ox_reduced(&x->shape, mask, keep, &s);
	else
		s = x->shape;
	ret = ta_ox_may_empty_reduction(ox, x, mask & (BIT(x->shape.rank) - 1),
					ort_mask & (BIT(x->shape.rank) - 1));
	if (ret)
		return ret;
	if (!ta_ox_elems(&x->shape)) {
		if (ort_mask)
			ta_ox_reduced(&x->shape, ort_mask, keep, &ort);
		else
			ort = x->shape;
		ret = ta_ox_empty_reduction(ox, &s, &ort);
		if (ret)
			return ret;
	}
	return mask ? ta_ox_set(ox, 0, x->dtype, &s) : ta_ox_same(ox);
}

int ta_ox_argmax(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	s64 axis, keep;
	u32 ax = 0;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis) ?:
		  ta_ox_attr_int(ox, "keepdims", 1, &keep);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	ta_ox_reduced(&x->shape, 1U << ax, keep, &s);
	ret = ta_ox_may_empty_reduction(ox, x, 1U << ax,
					axis < 0 ? 0 : 1U << ax);
	if (ret)
		return ret;
	/* an input without elements: ONNX Runtime ignores a negative axis */
	if (axis < 0 && !ta_ox_elems(&x->shape)) {
		ret = ta_ox_empty_reduction(ox, &s, &x->shape);
		if (ret)
			return ret;
	}
	return ta_ox_set(ox, 0, TA_OX_INT64, &s);
}

/*
 * NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: input 0 [N, C,
 * d...] of scores, input 1 [N, d...] of class labels; the loss has the
 * labels' shape with reduction "none", else it is a scalar (the default
 * "mean", and "sum"); SoftmaxCrossEntropyLoss's optional log_prob is the
 * scores' shape. The scores' type.
 */
int ta_ox_loss(struct ta_ox *ox)
{
	struct ta_ox_value *x, *t;
	struct ta_ox_shape s = { 0 };
	char red[8], ls[80], xs[80];
	u32 i, outs = strcmp(ox->nd.op_str, "SoftmaxCrossEntropyLoss") ? 1 : 2;
	bool bad;
	int ret = ta_ox_outputs_at_most(ox, outs) ?:
		  ta_ox_need_rank(ox, 0, &x, 2, TA_OX_MAX_RANK) ?:
		  ta_ox_need_rank(ox, 1, &t, 1, TA_OX_MAX_RANK - 1) ?:
		  ta_ox_attr_str(ox, "reduction", "mean", red, sizeof(red));

	if (ret)
		return ret;
	if (strcmp(red, "none") && strcmp(red, "mean") && strcmp(red, "sum"))
		return ta_ox_node_fail(ox, -EINVAL, "reduction '%s'", red);
	/* the labels: the scores' shape without C */
	bad = t->shape.rank != x->shape.rank - 1 ||
	      t->shape.d[0] != x->shape.d[0];
	for (i = 1; !bad && i < t->shape.rank; i++)
		bad = t->shape.d[i] != x->shape.d[i + 1];
	if (bad) {
		ta_ox_shape_str(&t->shape, ls, sizeof(ls));
		ta_ox_shape_str(&x->shape, xs, sizeof(xs));
		return ta_ox_node_fail(ox, -EINVAL,
				       "labels %s for scores %s: not the scores' shape without its dimension 1",
				       ls, xs);
	}
	if (!strcmp(red, "none"))
		s = t->shape;
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (!ret && ox->nd.n_out > 1)
		ret = ta_ox_set(ox, 1, x->dtype, &x->shape);
	return ret;
}

/*
 * ---- ops whose output shape depends on the data ----
 *
 * Their outputs are planned at the largest the op can produce for inputs
 * of the shapes given (TA_OX_BOUND in the table): a shape a model records
 * for them is what one run produced, and may only be smaller. An op whose
 * largest output is not known from shapes alone is refused, never planned
 * from a recorded shape.
 */

/* The optional attribute axis, normalized: 1 when present, 0, or -errno. */
static int ta_ox_opt_axis(struct ta_ox *ox, u32 r, u32 *ax)
{
	struct ta_ox_attr a;
	s64 axis;
	int ret = ta_ox_attr(ox, "axis", &a);

	if (ret <= 0)
		return ret;
	return ta_ox_attr_int(ox, "axis", 0, &axis) ?:
	       ta_ox_axis(ox, axis, r, false, ax) ?: 1;
}

/* NonZero: [rank, n] indices of the n non-zero elements, n <= numel. */
int ta_ox_nonzero(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 2 };
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	/* a scalar is read as one element of rank 1 */
	s.d[0] = ta_ox_at_least_1((s64)x->shape.rank);
	s.d[1] = (s64)ta_ox_elems(&x->shape);
	ret = ta_ox_set(ox, 0, TA_OX_INT64, &s);
	ta_ox_may_empty(ox);
	return ret;
}

/*
 * Unique: Y (the distinct values, or slices along axis), indices,
 * inverse_indices and counts, each at most as long as the input (or its
 * axis).
 */
int ta_ox_unique(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape y, v = { .rank = 1 };
	u32 ax = 0, k;
	int ret = ta_ox_need(ox, 0, &x) ?: ta_ox_outputs_at_most(ox, 4);

	if (ret)
		return ret;
	ret = ta_ox_opt_axis(ox, x->shape.rank, &ax);
	if (ret < 0)
		return ret;
	if (ret) {
		y = x->shape;
		v.d[0] = x->shape.d[ax];
	} else {
		y.rank = 1;
		y.d[0] = (s64)ta_ox_elems(&x->shape);
		v.d[0] = y.d[0];
	}
	ret = ta_ox_set(ox, 0, x->dtype, &y);
	for (k = 1; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, TA_OX_INT64, &v);
	return ret;
}

/* Compress: the slices (or elements) its condition selects, at most all. */
int ta_ox_compress(struct ta_ox *ox)
{
	struct ta_ox_value *x, *c;
	struct ta_ox_shape s;
	s64 len;
	u32 ax = 0;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need_rank(ox, 1, &c, 1, 1);

	if (ret)
		return ret;
	len = c->shape.d[0];
	ret = ta_ox_opt_axis(ox, x->shape.rank, &ax);
	if (ret < 0)
		return ret;
	if (ret) {
		s = x->shape;
		if (len < s.d[ax])
			s.d[ax] = len;
	} else {
		s.rank = 1;
		s.d[0] = (s64)ta_ox_elems(&x->shape);
		if (len < s.d[0])
			s.d[0] = len;
	}
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	ta_ox_may_empty(ox);
	return ret;
}

/*
 * NonMaxSuppression: [n, 3] selected indices, n at most batches x classes
 * x min(max_output_boxes_per_class, boxes). The bound takes every box when
 * the maximum is not a constant, or is absent (the operator's 0, no box:
 * planning the boxes costs little and holds any reading).
 */
int ta_ox_nms(struct ta_ox *ox)
{
	struct ta_ox_value *boxes, *scores, *m = NULL;
	struct ta_ox_shape s = { .rank = 2, .d = { 0, 3 } };
	s64 per_class;
	const s64 *iv;
	u32 n;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &boxes, 3, 3) ?:
		  ta_ox_need_rank(ox, 1, &scores, 3, 3);

	if (ret)
		return ret;
	if (boxes->shape.d[2] != 4 || scores->shape.d[0] != boxes->shape.d[0] ||
	    scores->shape.d[2] != boxes->shape.d[1])
		return ta_ox_node_fail(ox, -EINVAL,
				       "boxes [%lld,%lld,%lld] and scores [%lld,%lld,%lld] do not agree",
				       (long long)boxes->shape.d[0],
				       (long long)boxes->shape.d[1],
				       (long long)boxes->shape.d[2],
				       (long long)scores->shape.d[0],
				       (long long)scores->shape.d[1],
				       (long long)scores->shape.d[2]);
	per_class = boxes->shape.d[1];
	m = ta_ox_in(ox, 2);
	if (m && ta_ox_ints(m, &iv, &n) && n == 1 && iv[0] >= 0 &&
	    iv[0] < per_class)
		per_class = iv[0];
	/* batches x classes <= the scores' elements, < 2^36 */
	s.d[0] = boxes->shape.d[0] * scores->shape.d[1];
	if (s.d[0] && per_class > (s64)TA_OX_MAX_ELEMS / s.d[0])
		return ta_ox_node_fail(ox, -EINVAL, "too many boxes");
	s.d[0] *= per_class;
	ret = ta_ox_set(ox, 0, TA_OX_INT64, &s);
	ta_ox_may_empty(ox);
	return ret;
}

/*
 * TopK: values and indices, the input's shape with k along the axis; a k
 * computed at run time is bounded by the dimension (a larger k fails).
 */
int ta_ox_topk(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, k = -1;
	const s64 *iv;
	u32 ax = 0, n;
	int ret = ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", -1, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (!ret)
		ret = ta_ox_outputs_at_most(ox, 2);
	if (ret)
		return ret;
	if (ox->opset < 10) {
		ret = ta_ox_attr_int(ox, "k", -1, &k);
		if (ret)
			return ret;
	} else if (ta_ox_in(ox, 1) && ta_ox_ints(ta_ox_in(ox, 1), &iv, &n) &&
		   n == 1) {
		k = iv[0];
	} else if (!ta_ox_in(ox, 1)) {
		return ta_ox_node_fail(ox, -EINVAL, "input 1 (K) is missing");
	}
	s = x->shape;
	if (k > s.d[ax])
		return ta_ox_node_fail(ox, -EINVAL,
				       "k %lld is larger than dimension %u (%lld)",
				       (long long)k, ax, (long long)s.d[ax]);
	if (k >= 0)
		s.d[ax] = k;
	ret = ta_ox_set(ox, 0, x->dtype, &s) ?:
	      ta_ox_set(ox, 1, TA_OX_INT64, &s);
	/* a k computed at run time may be 0 */
	if (k < 0)
		ta_ox_may_empty(ox);
	return ret;
}

/* One scalar input's value as a double (an int or a float kept). */
static bool ta_ox_scalar(struct ta_ox *ox, u32 k, double *v, bool *is_int,
			 s64 *iv)
{
	struct ta_ox_value *x = ta_ox_in(ox, k);

	if (!x || ta_ox_elems(&x->shape) != 1 || x->n_kept != 1)
		return false;
	*is_int = !!x->iv;
	if (x->iv) {
		*iv = x->iv[0];
		*v = (double)x->iv[0];
		return true;
	}
	if (!x->fv)
		return false;
	*v = x->fv[0];
	return true;
}

/*
 * Range: max(ceil((limit - start) / delta), 0) elements, known only when
 * all three inputs are constants; otherwise nothing bounds it, and it is
 * refused. Floats: refused where float and double give other lengths.
 */
int ta_ox_range(struct ta_ox *ox)
{
	struct ta_ox_value *st;
	struct ta_ox_shape s = { .rank = 1 };
	double v[3], n;
	bool is_int[3];
	s64 iv[3];
	u32 k;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &st);

	if (ret)
		return ret;
	for (k = 0; k < 3; k++)
		if (!ta_ox_scalar(ox, k, &v[k], &is_int[k], &iv[k]))
			return ta_ox_node_fail(ox, -EINVAL,
					       "input %u is computed at run time: the length of Range's output is known only when start, limit and delta are constants, and nothing bounds it otherwise",
					       k);
	if (!v[2])
		return ta_ox_node_fail(ox, -EINVAL, "delta is 0");
	if (is_int[0] && is_int[1] && is_int[2]) {
		s64 span, d = iv[2];

		if (__builtin_sub_overflow(iv[1], iv[0], &span))
			return ta_ox_node_fail(ox, -EINVAL, "range too large");
		/* ceil(span / d), 0 when negative */
		if (!span || (span > 0 && d < 0) || (span < 0 && d > 0))
			n = 0;
		else
			n = (double)(span / d + (span % d != 0));
	} else {
		/*
		 * ONNX Runtime subtracts in the inputs' type and divides in
		 * double; computed all in float or all in double, a float
		 * count can differ by one, and then no one shape is safe for
		 * the nodes after it.
		 */
		float diff = (float)v[1] - (float)v[0];
		double ort = ceil((st->dtype == TA_OX_DOUBLE ? v[1] - v[0] :
				   (double)diff) / v[2]);
		double f = st->dtype == TA_OX_DOUBLE ? ceil((v[1] - v[0]) / v[2]) :
			   ceilf(diff / (float)v[2]);

		n = ceil((v[1] - v[0]) / v[2]);
		if (!(n > 0))
			n = 0;
		if (!(f > 0))
			f = 0;
		if (!(ort > 0))
			ort = 0;
		if (f != n || ort != n)
			return ta_ox_node_fail(ox, -EINVAL,
					       "ceil((limit - start) / delta) is %.0f in double, %.0f in float, %.0f as ONNX Runtime computes it: no one length is safe for the nodes after it",
					       n, f, ort);
	}
	if (!(n <= (double)TA_OX_MAX_ELEMS))
		return ta_ox_node_fail(ox, -EINVAL, "range too large");
	s.d[0] = (s64)n;
	return ta_ox_set(ox, 0, st->dtype, &s);
}

/*
 * If, Loop and Scan run subgraphs this importer does not plan: a plan of
 * the outer graph alone would leave the subgraphs' tensors out of the
 * arena. Refused, even with their outputs' shapes recorded.
 */
int ta_ox_control_flow(struct ta_ox *ox)
{
	return ta_ox_node_fail(ox, -EINVAL,
			       "control flow: its subgraphs are not planned (the ONNX importer plans one graph; the TFLite importer plans control-flow subgraphs), and a plan without them would leave their tensors outside the arena");
}

/* Sequences and optionals hold no tensor of a size a plan could give. */
int ta_ox_sequence(struct ta_ox *ox)
{
	return ta_ox_node_fail(ox, -EINVAL,
			       "a sequence or optional value: its size is known only at run time");
}
