// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_shape.c - the ONNX reader (ta_onnx.c): shape inference: ops that
 * rearrange shapes.
 */
#include "ta_onnx_internal.h"

int ta_ox_concat(struct ta_ox *ox)
{
	struct ta_ox_value *x, *y;
	struct ta_ox_shape s;
	s64 axis, iv[TA_OX_MAX_KEPT];
	u32 k, i, ax = 0, n = 0;
	bool vals = true;
	struct ta_ox_attr a;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	ret = ta_ox_attr(ox, "axis", &a);
	if (ret < 0)
		return ret;
	if (!ret && ox->opset >= 4)
		return ta_ox_node_fail(ox, -EINVAL, "no axis attribute");
	ret = ta_ox_attr_int(ox, "axis", 1, &axis) ?:
	      ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (ret)
		return ret;
	s = x->shape;
	s.d[ax] = 0;
	for (k = 0; k < ox->nd.n_in; k++) {
		y = ta_ox_in(ox, k);
		if (!y)
			continue;
		if (y->shape.rank != s.rank || y->dtype != x->dtype)
			return ta_ox_node_fail(ox, -EINVAL,
					       "input %u's rank or type differs from input 0's",
					       k);
		for (i = 0; i < s.rank; i++)
			if (i != ax && y->shape.d[i] != s.d[i])
				return ta_ox_node_fail(ox, -EINVAL,
						       "input %u's dimension %u is %lld, input 0's %lld",
						       k, i, (long long)y->shape.d[i],
						       (long long)s.d[i]);
		s.d[ax] += y->shape.d[ax];	/* each <= 2^36, n < 2^24 */
		if (!y->iv || n + y->n_kept > TA_OX_MAX_KEPT)
			vals = false;
		for (i = 0; vals && i < y->n_kept; i++)
			iv[n++] = y->iv[i];
	}
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (!ret && vals && s.rank == 1)
		ret = ta_ox_set_ivals(ox, 0, iv, n);
	return ret;
}

int ta_ox_reshape(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 shape[TA_OX_MAX_KEPT], allowzero, known = 1;
	const s64 *iv;
	u32 i, n;
	s32 neg = -1, na;
	char a[160], b[160];
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "allowzero", 0, &allowzero);

	if (ret)
		return ret;
	if (ox->opset < 5) {
		ret = ta_ox_attr_ints(ox, "shape", shape, TA_OX_MAX_KEPT, &na);
		if (ret)
			return ret;
		if (na < 0)
			return ta_ox_node_fail(ox, -EINVAL, "no shape attribute");
		n = (u32)na;
	} else {
		if (!ta_ox_in(ox, 1))
			return ta_ox_node_fail(ox, -EINVAL, "input 1 (shape) is missing");
		if (!ta_ox_ints(ta_ox_in(ox, 1), &iv, &n))
			return ta_ox_runtime_input(ox, 1, "shape");
		memcpy(shape, iv, sizeof(*iv) * n);
	}
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "target rank %u, more than %u",
				       n, TA_OX_MAX_RANK);
	s.rank = n;
	for (i = 0; i < n; i++) {
		s.d[i] = shape[i];
		if (shape[i] == 0 && !allowzero) {
			if (i >= x->shape.rank)
				return ta_ox_node_fail(ox, -EINVAL,
						       "shape[%u] is 0 (copy) but the input has rank %u",
						       i, x->shape.rank);
			s.d[i] = x->shape.d[i];
		} else if (shape[i] == -1) {
			if (neg >= 0)
				return ta_ox_node_fail(ox, -EINVAL,
						       "more than one -1 in the shape");
			neg = (s32)i;
			continue;
		} else if (shape[i] < 0 || (u64)shape[i] > TA_OX_MAX_ELEMS) {
			return ta_ox_node_fail(ox, -EINVAL,
					       "shape[%u] is %lld", i,
					       (long long)shape[i]);
		}
		if (s.d[i] && known > (s64)TA_OX_MAX_ELEMS / s.d[i])
			return ta_ox_node_fail(ox, -EINVAL, "shape too large");
		known *= s.d[i];
	}
	if (neg >= 0) {
		if (!known || ta_ox_elems(&x->shape) % (u64)known)
			goto mismatch;
		s.d[neg] = (s64)(ta_ox_elems(&x->shape) / (u64)known);
	}
	if (ta_ox_elems(&s) != ta_ox_elems(&x->shape))
		goto mismatch;
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
mismatch:
	ta_ox_shape_str(&x->shape, a, sizeof(a));
	s.rank = n;
	for (i = 0; i < n; i++)
		s.d[i] = shape[i];
	ta_ox_shape_str(&s, b, sizeof(b));
	return ta_ox_node_fail(ox, -EINVAL, "cannot reshape %s to %s", a, b);
}

int ta_ox_flatten(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 2, .d = { 1, 1 } };
	s64 axis;
	u32 ax = 0, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 1, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, true, &ax);
	if (ret)
		return ret;
	for (i = 0; i < x->shape.rank; i++)
		s.d[i < ax ? 0 : 1] *= x->shape.d[i];
	return ta_ox_set(ox, 0, x->dtype, &s);
}

int ta_ox_transpose(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 perm[TA_OX_MAX_RANK];
	u32 i, seen = 0;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_ints(ox, "perm", perm, TA_OX_MAX_RANK, &n);

	if (ret)
		return ret;
	if (n < 0) {
		n = (s32)x->shape.rank;
		for (i = 0; i < x->shape.rank; i++)
			perm[i] = x->shape.rank - 1 - i;
	}
	if ((u32)n != x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL, "perm has %d values for rank %u",
				       n, x->shape.rank);
	s.rank = x->shape.rank;
	for (i = 0; i < s.rank; i++) {
		if (perm[i] < 0 || perm[i] >= (s64)s.rank ||
		    (seen & (1U << perm[i])))
			return ta_ox_node_fail(ox, -EINVAL, "perm is not a permutation");
		seen |= 1U << perm[i];
		s.d[i] = x->shape.d[perm[i]];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/* A value list from an attribute (before @since) or from input @k. */
static int ta_ox_list(struct ta_ox *ox, const char *attr, u32 k, s64 since,
		      s64 *out, s32 *n)
{
	const s64 *iv;
	u32 cnt;

	if (ox->opset < since)
		return ta_ox_attr_ints(ox, attr, out, TA_OX_MAX_KEPT, n);
	*n = -1;
	if (!ta_ox_in(ox, k))
		return 0;
	if (!ta_ox_ints(ta_ox_in(ox, k), &iv, &cnt))
		return ta_ox_runtime_input(ox, k, attr);
	memcpy(out, iv, sizeof(*iv) * cnt);
	*n = (s32)cnt;
	return 0;
}

int ta_ox_slice(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 st[TA_OX_MAX_KEPT], en[TA_OX_MAX_KEPT], axes[TA_OX_MAX_KEPT];
	s64 steps[TA_OX_MAX_KEPT], iv[TA_OX_MAX_KEPT];
	s32 ns, ne, na, nst;
	u32 i, ax = 0, seen = 0;
	s64 first = 0, step1 = 1;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_list(ox, "starts", 1, 10, st, &ns) ?:
		  ta_ox_list(ox, "ends", 2, 10, en, &ne) ?:
		  ta_ox_list(ox, "axes", 3, 10, axes, &na);

	if (ret)
		return ret;
	nst = -1;
	if (ox->opset >= 10)
		ret = ta_ox_list(ox, "steps", 4, 10, steps, &nst);
	if (ret)
		return ret;
	if (ns < 0 || ne < 0 || ns != ne || (na >= 0 && na != ns) ||
	    (nst >= 0 && nst != ns))
		return ta_ox_node_fail(ox, -EINVAL,
				       "starts, ends, axes and steps differ in length");
	s = x->shape;
	for (i = 0; i < (u32)ns; i++) {
		s64 d, b, e, step = nst >= 0 ? steps[i] : 1;

		ret = ta_ox_axis(ox, na >= 0 ? axes[i] : (s64)i, s.rank,
				 false, &ax);
		if (ret)
			return ret;
		if (seen & (1U << ax))
			return ta_ox_node_fail(ox, -EINVAL, "axis %u sliced twice",
					       ax);
		seen |= 1U << ax;
		if (!step)
			return ta_ox_node_fail(ox, -EINVAL, "a step of 0");
		/* |step| beyond any dimension gives the same result */
		if (step > (1LL << 40))
			step = 1LL << 40;
		if (step < -(1LL << 40))
			step = -(1LL << 40);
		d = x->shape.d[ax];
		b = st[i] < 0 ? st[i] + d : st[i];
		e = en[i] < 0 ? en[i] + d : en[i];
		/*
		 * An end of INT32_MAX or INT64_MAX means "to the end" in the
		 * step's direction (numpy's None), as ONNX Runtime reads it:
		 * with a negative step, down to and with element 0. A plain
		 * clamp would give less; plan the larger.
		 */
		if (step < 0 && (en[i] == INT64_MAX || en[i] == INT32_MAX))
			e = -1;
		if (step > 0) {
			b = b < 0 ? 0 : b > d ? d : b;
			e = e < 0 ? 0 : e > d ? d : e;
			s.d[ax] = e > b ? (e - b + step - 1) / step : 0;
		} else {
			b = b < 0 ? 0 : b > d - 1 ? d - 1 : b;
			e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
			s.d[ax] = b > e ? (b - e - step - 1) / -step : 0;
		}
		if (ax == 0) {
			first = b;
			step1 = step;
		}
	}
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (ret || !x->iv || x->shape.rank != 1)
		return ret;
	for (i = 0; i < (u32)s.d[0]; i++)
		iv[i] = x->iv[first + step1 * (s64)i];
	return ta_ox_set_ivals(ox, 0, iv, (u32)s.d[0]);
}

int ta_ox_squeeze(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	s64 axes[TA_OX_MAX_KEPT];
	u32 i, k, ax = 0, drop = 0;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_axes_arg(ox, "axes", 1, 13, axes, &n);

	if (ret)
		return ret;
	for (k = 0; n >= 0 && k < (u32)n; k++) {
		ret = ta_ox_axis(ox, axes[k], x->shape.rank, false, &ax);
		if (ret)
			return ret;
		if (x->shape.d[ax] != 1)
			return ta_ox_node_fail(ox, -EINVAL,
					       "squeezes dimension %u of size %lld",
					       ax, (long long)x->shape.d[ax]);
		drop |= 1U << ax;
	}
	for (i = 0; i < x->shape.rank; i++) {
		if (n < 0 ? x->shape.d[i] == 1 : !!(drop & (1U << i)))
			continue;
		s.d[s.rank++] = x->shape.d[i];
	}
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

int ta_ox_unsqueeze(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axes[TA_OX_MAX_KEPT];
	u32 i, k, ax = 0, add = 0, r;
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_axes_arg(ox, "axes", 1, 13, axes, &n);

	if (ret)
		return ret;
	if (n < 0)
		return ta_ox_node_fail(ox, -EINVAL, "no axes");
	r = x->shape.rank + (u32)n;
	if (r > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank %u, more than %u", r,
				       TA_OX_MAX_RANK);
	for (k = 0; k < (u32)n; k++) {
		ret = ta_ox_axis(ox, axes[k], r, false, &ax);
		if (ret)
			return ret;
		if (add & (1U << ax))
			return ta_ox_node_fail(ox, -EINVAL, "axis %u repeated", ax);
		add |= 1U << ax;
	}
	s.rank = r;
	for (i = 0, k = 0; i < r; i++)
		s.d[i] = add & (1U << i) ? 1 : x->shape.d[k++];
	return ta_ox_set(ox, 0, x->dtype, &s) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

int ta_ox_shape_op(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 1 };
	s64 start, end;
	u32 b, e;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "start", 0, &start) ?:
		  ta_ox_attr_int(ox, "end", x->shape.rank, &end);

	if (ret)
		return ret;
	/* start and end are clamped, as the operator says */
	if (start < 0)
		start += x->shape.rank;
	if (end < 0)
		end += x->shape.rank;
	b = start < 0 ? 0 : start > x->shape.rank ? x->shape.rank : (u32)start;
	e = end < 0 ? 0 : end > x->shape.rank ? x->shape.rank : (u32)end;
	s.d[0] = e > b ? e - b : 0;
	ret = ta_ox_set(ox, 0, TA_OX_INT64, &s);
	if (!ret)
		ret = ta_ox_set_ivals(ox, 0, x->shape.d + b, (u32)s.d[0]);
	return ret;
}

int ta_ox_size_op(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { .rank = 0 };
	s64 e;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_set(ox, 0, TA_OX_INT64, &s);

	if (ret)
		return ret;
	e = (s64)ta_ox_elems(&x->shape);
	return ta_ox_set_ivals(ox, 0, &e, 1);
}

/* A gather's data (input 0), indices (input 1) and axis, normalized. */
int ta_ox_gather_args(struct ta_ox *ox, struct ta_ox_value **x,
		      struct ta_ox_value **ind, u32 *ax)
{
	s64 axis;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, x) ?:
		  ta_ox_need(ox, 1, ind) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis);

	return ret ?: ta_ox_axis(ox, axis, (*x)->shape.rank, false, ax);
}

int ta_ox_gather(struct ta_ox *ox)
{
	struct ta_ox_value *x, *ind;
	struct ta_ox_shape s = { 0 };
	s64 iv[TA_OX_MAX_KEPT];
	u32 ax = 0, i;
	int ret = ta_ox_gather_args(ox, &x, &ind, &ax);

	if (ret)
		return ret;
	if (x->shape.rank - 1 + ind->shape.rank > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	for (i = 0; i < ax; i++)
		s.d[s.rank++] = x->shape.d[i];
	for (i = 0; i < ind->shape.rank; i++)
		s.d[s.rank++] = ind->shape.d[i];
	for (i = ax + 1; i < x->shape.rank; i++)
		s.d[s.rank++] = x->shape.d[i];
	ret = ta_ox_set(ox, 0, x->dtype, &s);
	if (ret || !x->iv || !ind->iv || x->shape.rank != 1)
		return ret;
	for (i = 0; i < ind->n_kept; i++) {
		s64 k = ind->iv[i] < 0 ? ind->iv[i] + x->shape.d[0] :
			ind->iv[i];

		if (k < 0 || k >= x->shape.d[0])
			return ta_ox_node_fail(ox, -EINVAL,
					       "index %lld out of range",
					       (long long)ind->iv[i]);
		iv[i] = x->iv[k];
	}
	return ta_ox_set_ivals(ox, 0, iv, ind->n_kept);
}

/* The shape and type a TensorProto attribute describes. */
static int ta_ox_tensor_attr(struct ta_ox *ox, const char *name,
			     struct ta_ox_tensor *t, bool *present)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*present = ret > 0;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_TENSOR, a.has_t);
	return ret ?: ta_ox_tensor(ox, &a.t, "a tensor attribute", t);
}

int ta_ox_constant_of_shape(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_tensor t;
	struct ta_ox_shape s;
	const s64 *iv;
	s64 fill[TA_OX_MAX_KEPT];
	u32 n, i;
	bool present;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_tensor_attr(ox, "value", &t, &present);

	if (ret)
		return ret;
	if (!ta_ox_ints(x, &iv, &n))
		return ta_ox_runtime_input(ox, 0, "shape");
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank %u, more than %u", n,
				       TA_OX_MAX_RANK);
	if (present && ta_ox_elems(&t.shape) != 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute 'value' is not one element");
	s.rank = n;
	memcpy(s.d, iv, sizeof(*iv) * n);
	ret = ta_ox_set(ox, 0, present ? t.dtype : TA_OX_FLOAT, &s);
	if (ret || !present || !t.n_kept || !ta_ox_is_int(t.dtype) ||
	    ta_ox_elems(&s) > TA_OX_MAX_KEPT)
		return ret;
	for (i = 0; i < ta_ox_elems(&s); i++)
		fill[i] = t.iv[0];
	return ta_ox_set_ivals(ox, 0, fill, (u32)ta_ox_elems(&s));
}

int ta_ox_constant(struct ta_ox *ox)
{
	static const char *const others[] = {
		"sparse_value", "value_string", "value_strings",
	};
	struct ta_ox_tensor t;
	struct ta_ox_attr a;
	struct ta_ox_shape s = { 0 };
	bool present;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_tensor_attr(ox, "value", &t, &present);

	if (ret)
		return ret;
	if (present) {
		ret = ta_ox_set(ox, 0, t.dtype, &t.shape);
		if (!ret && (t.n_kept || !ta_ox_elems(&t.shape)))
			ret = ta_ox_keep_out(ox, 0, t.is_float ? NULL : t.iv,
					     t.is_float ? t.fv : NULL,
					     t.n_kept);
		return ret;
	}
	for (i = 0; i < 3; i++) {
		ret = ta_ox_attr(ox, others[i], &a);
		if (ret < 0)
			return ret;
		if (ret)
			return ta_ox_cannot(ox, "attribute '%s'", others[i]);
	}
	ret = ta_ox_attr(ox, "value_int", &a);
	if (ret > 0) {
		ret = ta_ox_attr_type(ox, "value_int", &a, TA_OX_AT_INT,
				      a.has_i) ?:
		      ta_ox_set(ox, 0, TA_OX_INT64, &s) ?:
		      ta_ox_set_ivals(ox, 0, &a.i, 1);
		return ret;
	}
	if (!ret)
		ret = ta_ox_attr(ox, "value_ints", &a);
	if (ret > 0) {
		s.rank = 1;
		s.d[0] = (s64)a.n_ints;
		return ta_ox_attr_type(ox, "value_ints", &a, TA_OX_AT_INTS,
				       true) ?:
		       ta_ox_set(ox, 0, TA_OX_INT64, &s) ?:
		       ta_ox_set_ivals(ox, 0, a.ints, (u32)a.n_ints);
	}
	if (!ret)
		ret = ta_ox_attr(ox, "value_float", &a);
	if (ret > 0)
		return ta_ox_attr_type(ox, "value_float", &a, TA_OX_AT_FLOAT,
				       a.has_f) ?:
		       ta_ox_set(ox, 0, TA_OX_FLOAT, &s);
	if (!ret)
		ret = ta_ox_attr(ox, "value_floats", &a);
	if (ret > 0) {
		s.rank = 1;
		s.d[0] = (s64)a.n_floats;
		return ta_ox_attr_type(ox, "value_floats", &a, TA_OX_AT_FLOATS,
				       true) ?:
		       ta_ox_set(ox, 0, TA_OX_FLOAT, &s);
	}
	if (ret < 0)
		return ret;
	return ta_ox_node_fail(ox, -EINVAL, "no value attribute");
}

int ta_ox_pad(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 pads[TA_OX_MAX_KEPT], axes[TA_OX_MAX_KEPT];
	s32 n, na = -1;
	u32 i, r, ax = 0;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	r = x->shape.rank;
	if (ox->opset < 11) {
		ret = ta_ox_attr_ints(ox, ox->opset < 2 ? "paddings" : "pads",
				      pads, TA_OX_MAX_KEPT, &n);
	} else {
		ret = ta_ox_list(ox, "pads", 1, 11, pads, &n);
		if (!ret && ox->opset >= 18)
			ret = ta_ox_list(ox, "axes", 3, 18, axes, &na);
	}
	if (ret)
		return ret;
	if (na < 0)
		for (i = 0; i < r; i++)
			axes[i] = i;
	if (n < 0 || (u32)n != 2 * (na < 0 ? r : (u32)na))
		return ta_ox_node_fail(ox, -EINVAL,
				       "pads has %d values for %u axes", n,
				       na < 0 ? r : (u32)na);
	s = x->shape;
	for (i = 0; i < (u32)n / 2; i++) {
		s64 b = pads[i], e = pads[i + n / 2];

		ret = ta_ox_axis(ox, axes[i], r, false, &ax);
		if (ret)
			return ret;
		if (b < -(1LL << 40) || b > (1LL << 40) ||
		    e < -(1LL << 40) || e > (1LL << 40))
			return ta_ox_node_fail(ox, -EINVAL, "pad out of range");
		s.d[ax] = x->shape.d[ax] + b + e;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

int ta_ox_expand(struct ta_ox *ox)
{
	struct ta_ox_value *x, *sh;
	struct ta_ox_shape t, s;
	const s64 *iv;
	u32 n, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &sh);

	if (ret)
		return ret;
	if (!ta_ox_ints(sh, &iv, &n))
		return ta_ox_runtime_input(ox, 1, "shape");
	if (n > TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	t.rank = n;
	for (i = 0; i < n; i++) {
		if (iv[i] < 0 || (u64)iv[i] > TA_OX_MAX_ELEMS)
			return ta_ox_node_fail(ox, -EINVAL, "bad shape");
		t.d[i] = iv[i];
	}
	ret = ta_ox_broadcast(ox, &x->shape, &t, &s);
	return ret ?: ta_ox_set(ox, 0, x->dtype, &s);
}

int ta_ox_split(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 axis, split[TA_OX_MAX_KEPT], sum = 0, num;
	u32 ax = 0, k, nout = ox->nd.n_out;
	s32 n;
	int ret = ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "axis", 0, &axis);

	if (!ret)
		ret = ta_ox_axis(ox, axis, x->shape.rank, false, &ax);
	if (!ret)
		ret = ta_ox_list(ox, "split", 1, 13, split, &n);
	if (!ret)
		ret = ta_ox_attr_int(ox, "num_outputs", nout, &num);
	if (ret)
		return ret;
	if (!nout || nout > TA_OX_MAX_KEPT || num != nout)
		return ta_ox_node_fail(ox, -EINVAL, "%u outputs", nout);
	s = x->shape;
	if (n < 0) {
		/* equal parts; from opset 18 the last may be smaller */
		s64 part = (s.d[ax] + nout - 1) / nout;

		if (ox->opset < 18 && s.d[ax] % nout)
			return ta_ox_node_fail(ox, -EINVAL,
					       "dimension %lld does not split in %u",
					       (long long)s.d[ax], nout);
		for (k = 0; k < nout; k++) {
			split[k] = s.d[ax] - sum < part ? s.d[ax] - sum : part;
			sum += split[k];
		}
		n = (s32)nout;
	} else {
		for (k = 0; k < (u32)n; k++) {
			if (split[k] < 0 || split[k] > s.d[ax])
				return ta_ox_node_fail(ox, -EINVAL, "bad split");
			sum += split[k];
		}
	}
	if ((u32)n != nout || sum != x->shape.d[ax])
		return ta_ox_node_fail(ox, -EINVAL,
				       "split does not match the outputs or the dimension");
	for (k = 0; k < nout; k++) {
		s.d[ax] = split[k];
		ret = ta_ox_set(ox, k, x->dtype, &s);
		if (ret)
			return ret;
	}
	return 0;
}

int ta_ox_tile(struct ta_ox *ox)
{
	struct ta_ox_value *x, *r;
	struct ta_ox_shape s;
	const s64 *iv;
	u32 n, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_need(ox, 1, &r);

	if (ret)
		return ret;
	if (!ta_ox_ints(r, &iv, &n))
		return ta_ox_runtime_input(ox, 1, "repeats");
	if (n != x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL, "%u repeats for rank %u", n,
				       x->shape.rank);
	s = x->shape;
	for (i = 0; i < n; i++) {
		if (iv[i] < 0 || (u64)iv[i] > TA_OX_MAX_ELEMS)
			return ta_ox_node_fail(ox, -EINVAL, "bad repeats");
		if (s.d[i] && (u64)iv[i] > TA_OX_MAX_ELEMS / (u64)s.d[i])
			return ta_ox_node_fail(ox, -EINVAL, "too large");
		s.d[i] *= iv[i];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}
