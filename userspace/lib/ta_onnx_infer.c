// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_infer.c - the ONNX reader (ta_onnx.c): shape inference: common
 * helpers, elementwise and broadcasting ops.
 */
#include "ta_onnx_internal.h"

/* ---- shape inference ---- */

/* Why an op's output shapes could not be inferred: -EOPNOTSUPP. */
int __attribute__((format(printf, 2, 3)))
ta_ox_cannot(struct ta_ox *ox, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ox->why, sizeof(ox->why), fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

/*
 * The values of input @k (@what: its role), which the op's output shapes
 * need, are not known before the model runs: -EOPNOTSUPP, remembering
 * which input (ta_onnx.c refuses the node when they come from the data).
 */
int ta_ox_runtime_input(struct ta_ox *ox, u32 k, const char *what)
{
	ox->why_input = (s32)k;
	return ta_ox_cannot(ox, "input %u (%s) is computed at run time", k,
			    what);
}

/* Input @k, or NULL when absent or empty. */
struct ta_ox_value *ta_ox_in(struct ta_ox *ox, u32 k)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_in || nd->in[k] < 0)
		return NULL;
	return &ox->v[nd->in[k]];
}

int ta_ox_need(struct ta_ox *ox, u32 k, struct ta_ox_value **v)
{
	*v = ta_ox_in(ox, k);
	if (!*v)
		return ta_ox_node_fail(ox, -EINVAL, "input %u is missing", k);
	return 0;
}

int ta_ox_need_rank(struct ta_ox *ox, u32 k, struct ta_ox_value **v,
		    u32 min, u32 max)
{
	int ret = ta_ox_need(ox, k, v);

	if (ret)
		return ret;
	if ((*v)->shape.rank < min || (*v)->shape.rank > max)
		return ta_ox_node_fail(ox, -EINVAL,
				       "input %u has rank %u, want %u to %u",
				       k, (*v)->shape.rank, min, max);
	return 0;
}

/* Output @k gets @dtype and @s (when the node names it). */
int ta_ox_set(struct ta_ox *ox, u32 k, u32 dtype,
	      const struct ta_ox_shape *s)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_ox_value *v;
	char b[160];

	if (k >= nd->n_out || nd->out[k] < 0)
		return 0;
	if (!ta_ox_shape_ok(s)) {
		struct ta_ox_shape c = *s;

		if (c.rank > TA_OX_MAX_RANK)
			return ta_ox_node_fail(ox, -EINVAL,
					       "output %u would have rank %u, more than %u",
					       k, c.rank, TA_OX_MAX_RANK);
		ta_ox_shape_str(&c, b, sizeof(b));
		return ta_ox_node_fail(ox, -EINVAL,
				       "output %u would have shape %s (a negative dimension, or more than 2^36 elements)",
				       k, b);
	}
	v = &ox->v[nd->out[k]];
	v->dtype = dtype;
	v->shape = *s;
	return 0;
}

int ta_ox_set_ivals(struct ta_ox *ox, u32 k, const s64 *iv, u32 n)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_out || nd->out[k] < 0)
		return 0;
	return ta_ox_keep(&ox->v[nd->out[k]], iv, NULL, n);
}

/* The kept int values of @v: true when known. */
bool ta_ox_ints(const struct ta_ox_value *v, const s64 **iv, u32 *n)
{
	if (!v || !v->iv)
		return false;
	*iv = v->iv;
	*n = v->n_kept;
	return true;
}

/*
 * Normalize an axis against rank @r: one of [-r, r - 1], or with @incl
 * (Flatten, whose axis may name the end) one of [-r, r]; a negative axis
 * counts from the end, -1 naming the last dimension either way.
 */
int ta_ox_axis(struct ta_ox *ox, s64 axis, u32 r, bool incl, u32 *out)
{
	s64 hi = (s64)r - (incl ? 0 : 1);

	if (axis < -(s64)r || axis > hi)
		return ta_ox_node_fail(ox, -EINVAL,
				       "axis %lld out of range for rank %u",
				       (long long)axis, r);
	*out = (u32)(axis < 0 ? axis + (s64)r : axis);
	return 0;
}

/* Axes from an attribute (older opsets) or input @k; *@n = -1 if none. */
int ta_ox_axes_arg(struct ta_ox *ox, const char *attr, u32 k,
		   s64 since, s64 *axes, s32 *n)
{
	const s64 *iv;
	u32 cnt;

	if (ox->opset < since)
		return ta_ox_attr_ints(ox, attr, axes, TA_OX_MAX_KEPT, n);
	*n = -1;
	if (!ta_ox_in(ox, k))
		return 0;
	if (!ta_ox_ints(ta_ox_in(ox, k), &iv, &cnt))
		return ta_ox_runtime_input(ox, k, attr);
	memcpy(axes, iv, sizeof(*iv) * cnt);
	*n = (s32)cnt;
	return 0;
}

/* Element-wise ops: same shape and type as input 0. */
int ta_ox_same(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	u32 k;
	int ret = ta_ox_need(ox, 0, &x);

	if (ret)
		return ret;
	for (k = 0; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, x->dtype, &x->shape);
	return ret;
}

/* Output @k keeps the values @iv or @fv (when the node names it). */
int ta_ox_keep_out(struct ta_ox *ox, u32 k, const s64 *iv,
		   const double *fv, u32 n)
{
	struct ta_ox_node *nd = &ox->nd;

	if (k >= nd->n_out || nd->out[k] < 0 || (!iv && !fv))
		return 0;
	return ta_ox_keep(&ox->v[nd->out[k]], iv, fv, n);
}

int ta_ox_one_output(struct ta_ox *ox)
{
	if (ox->nd.n_out != 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "has %u outputs, want 1", ox->nd.n_out);
	return 0;
}

int ta_ox_outputs_at_most(struct ta_ox *ox, u32 max)
{
	if (ox->nd.n_out > max)
		return ta_ox_node_fail(ox, -EINVAL,
				       "has %u outputs, want at most %u",
				       ox->nd.n_out, max);
	return 0;
}

/*
 * Element-wise ops of one input. Neg and Abs of kept int values keep
 * theirs too: a shape computation may negate an axis (LayerNormalization's
 * expanded function feeds Neg(axis) to ConstantOfShape).
 */
int ta_ox_unary(struct ta_ox *ox)
{
	const char *op = ox->nd.op_str;
	bool neg = !strcmp(op, "Neg");
	struct ta_ox_value *x;
	s64 iv[TA_OX_MAX_KEPT];
	u32 i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_same(ox);

	if (ret || (!neg && strcmp(op, "Abs")))
		return ret;
	x = ta_ox_in(ox, 0);
	if (!x || !x->iv)
		return 0;
	for (i = 0; i < x->n_kept; i++) {
		if (x->iv[i] == INT64_MIN)
			return 0;	/* no int64 holds its negation */
		iv[i] = neg || x->iv[i] < 0 ? -x->iv[i] : x->iv[i];
	}
	return ta_ox_set_ivals(ox, 0, iv, x->n_kept);
}

int ta_ox_identity(struct ta_ox *ox)
{
	struct ta_ox_value *x;

	return ta_ox_one_output(ox) ?: ta_ox_same(ox) ?:
	       ta_ox_need(ox, 0, &x) ?:
	       ta_ox_keep_out(ox, 0, x->iv, x->fv, x->n_kept);
}

int ta_ox_dropout(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	int ret = ta_ox_need(ox, 0, &x);

	if (!ret)
		ret = ta_ox_outputs_at_most(ox, 2);
	if (ret)
		return ret;
	ret = ta_ox_set(ox, 0, x->dtype, &x->shape);
	/* the mask: the input's type up to opset 9, BOOL from opset 10 */
	if (!ret)
		ret = ta_ox_set(ox, 1, ox->opset >= 10 ? TA_OX_BOOL : x->dtype,
				&x->shape);
	return ret;
}


/*
 * A type an attribute names (Cast's to, a dtype, an output_dtype...):
 * one of TensorProto's, else -EINVAL "@what T is not a known type".
 */
int ta_ox_known_type(struct ta_ox *ox, const char *what, s64 t)
{
	if (t <= 0 || t >= TA_OX_NTYPES)
		return ta_ox_node_fail(ox, -EINVAL, "%s %lld is not a known type",
				       what, (long long)t);
	return 0;
}

/*
 * Y has X's shape. The outputs of training mode (running mean and variance
 * from opset 14; mean, variance and the two saved ones before) have the
 * mean's, [C]: its type from opset 14, X's before.
 */
int ta_ox_batchnorm(struct ta_ox *ox)
{
	struct ta_ox_value *x, *mean;
	u32 k;
	int ret;

	/* inference: X's shape, whatever the statistics' (opset 7's spatial) */
	if (ox->nd.n_out == 1)
		return ta_ox_same(ox);
	ret = ta_ox_need_rank(ox, 0, &x, 2, TA_OX_MAX_RANK) ?:
	      ta_ox_need_rank(ox, 3, &mean, 1, 1) ?:
	      ta_ox_outputs_at_most(ox, ox->opset >= 14 ? 3 : 5);
	if (ret)
		return ret;
	if (mean->shape.d[0] != x->shape.d[1])
		return ta_ox_node_fail(ox, -EINVAL,
				       "the mean has %lld elements, X %lld channels",
				       (long long)mean->shape.d[0],
				       (long long)x->shape.d[1]);
	ret = ta_ox_set(ox, 0, x->dtype, &x->shape);
	for (k = 1; k < ox->nd.n_out && !ret; k++)
		ret = ta_ox_set(ox, k, ox->opset >= 14 ? mean->dtype : x->dtype,
				&mean->shape);
	return ret;
}

int ta_ox_cast(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	s64 to;
	u32 i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &x) ?:
		  ta_ox_attr_int(ox, "to", 0, &to);

	if (ret)
		return ret;
	ret = ta_ox_known_type(ox, "attribute 'to'", to) ?:
	      ta_ox_set(ox, 0, (u32)to, &x->shape);
	if (ret || !ox->nd.n_out || ox->nd.out[0] < 0)
		return ret;
	if (x->iv && ta_ox_is_int((u32)to))
		return ta_ox_keep_out(ox, 0, x->iv, NULL, x->n_kept);
	if (x->fv && ta_ox_is_int((u32)to)) {
		s64 iv[TA_OX_MAX_KEPT];

		for (i = 0; i < x->n_kept; i++) {
			if (!(fabs(x->fv[i]) < 9e18))
				return 0;
			iv[i] = (s64)x->fv[i];
		}
		return ta_ox_keep_out(ox, 0, iv, NULL, x->n_kept);
	}
	return 0;
}

/*
 * Multidirectional (numpy) broadcast of @a and @b into @out, which may be
 * @a or @b: the result is built apart and written last.
 */
int ta_ox_broadcast(struct ta_ox *ox, const struct ta_ox_shape *a,
		    const struct ta_ox_shape *b,
		    struct ta_ox_shape *out)
{
	u32 r = a->rank > b->rank ? a->rank : b->rank, i;
	struct ta_ox_shape o = { .rank = r };
	char sa[160], sb[160];

	for (i = 0; i < r; i++) {
		s64 x = i < r - a->rank ? 1 : a->d[i - (r - a->rank)];
		s64 y = i < r - b->rank ? 1 : b->d[i - (r - b->rank)];

		if (x == y || y == 1) {
			o.d[i] = x;
		} else if (x == 1) {
			o.d[i] = y;
		} else {
			ta_ox_shape_str(a, sa, sizeof(sa));
			ta_ox_shape_str(b, sb, sizeof(sb));
			return ta_ox_node_fail(ox, -EINVAL,
					       "shapes %s and %s do not broadcast",
					       sa, sb);
		}
	}
	*out = o;
	return 0;
}

/* Int values of an element-wise op on kept values (same count or 1). */
static void ta_ox_fold_ints(struct ta_ox *ox, const struct ta_ox_value *a,
			    const struct ta_ox_value *b, u32 n)
{
	const char *op = ox->nd.op_str;
	s64 iv[TA_OX_MAX_KEPT];
	u32 i;

	if (!a->iv || !b->iv || n > TA_OX_MAX_KEPT ||
	    (a->n_kept != n && a->n_kept != 1) ||
	    (b->n_kept != n && b->n_kept != 1))
		return;
	for (i = 0; i < n; i++) {
		s64 x = a->iv[a->n_kept == 1 ? 0 : i];
		s64 y = b->iv[b->n_kept == 1 ? 0 : i];

		if (!strcmp(op, "Add")) {
			if (__builtin_add_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Sub")) {
			if (__builtin_sub_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Mul")) {
			if (__builtin_mul_overflow(x, y, &iv[i]))
				return;
		} else if (!strcmp(op, "Div")) {
			if (!y || (x == INT64_MIN && y == -1))
				return;
			iv[i] = x / y;
		} else {
			return;
		}
	}
	ta_ox_set_ivals(ox, 0, iv, n);
}

int ta_ox_binary(struct ta_ox *ox)
{
	const char *op = ox->nd.op_str;
	struct ta_ox_value *a, *b;
	struct ta_ox_shape s;
	struct ta_ox_attr at;
	bool legacy = false;
	u32 k, dtype;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &a);

	if (ret)
		return ret;
	s = a->shape;
	if (ox->opset < 7) {
		/* before opset 7, B broadcasts to A (or has its shape) */
		ret = ta_ox_attr(ox, "broadcast", &at);
		if (ret < 0)
			return ret;
		legacy = ret;
	}
	for (k = 1; k < ox->nd.n_in && !legacy; k++) {
		ret = ta_ox_need(ox, k, &b);
		if (!ret)
			ret = ta_ox_broadcast(ox, &s, &b->shape, &s);
		if (ret)
			return ret;
	}
	/*
	 * PRelu's slope broadcasts to X, one way: X's shape is the output.
	 * ONNX Runtime broadcasts both ways and writes the larger; after it
	 * the two differ in ways no one shape covers (a GlobalMaxPool of
	 * ONNX Runtime's [2,4,3,2] writes 8 elements, of X's [4,3,2] 12).
	 */
	if (!strcmp(op, "PRelu") && !ta_ox_shape_eq(&s, &a->shape)) {
		char xs[128], ss[128], os[128];

		ta_ox_shape_str(&a->shape, xs, sizeof(xs));
		ta_ox_shape_str(&ta_ox_in(ox, 1)->shape, ss, sizeof(ss));
		ta_ox_shape_str(&s, os, sizeof(os));
		return ta_ox_node_fail(ox, -EINVAL,
				       "the slope %s does not broadcast to X %s, as the operator has it; ONNX Runtime broadcasts both ways and writes %s: no one shape is safe for the nodes after it",
				       ss, xs, os);
	}
	dtype = a->dtype;
	if (!strcmp(op, "Equal") || !strcmp(op, "Less") ||
	    !strcmp(op, "Greater") || !strcmp(op, "LessOrEqual") ||
	    !strcmp(op, "GreaterOrEqual") || !strcmp(op, "And") ||
	    !strcmp(op, "Or") || !strcmp(op, "Xor"))
		dtype = TA_OX_BOOL;
	if (!strcmp(op, "Where"))
		dtype = ta_ox_in(ox, 1) ? ta_ox_in(ox, 1)->dtype : dtype;
	ret = ta_ox_set(ox, 0, dtype, &s);
	if (!ret && ox->nd.n_in == 2)
		ta_ox_fold_ints(ox, a, ta_ox_in(ox, 1), (u32)ta_ox_elems(&s));
	return ret;
}
