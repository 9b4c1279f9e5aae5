// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_fold.c - the TFLite reader's values of the small integer
 * tensors ops compute from constants and shapes, so that the shape checks
 * (ta_tflite_shape.c) read them as constants.
 *
 * A converter that keeps a dimension open computes shapes in the graph:
 * SHAPE of an activation, a STRIDED_SLICE of that, a PACK with -1, then a
 * RESHAPE, or paddings an ADD makes. TFLite computes such values when the
 * model is prepared (SHAPE's output is persistent, and the ops after it
 * fold what they can), and sizes the op that reads them from them; the
 * reader planned those outputs as recorded. Now, for the ops below, an
 * output of at most %TA_TFL_FOLD_MAX INT32 or INT64 elements whose inputs
 * are all known (constants, or values computed here) gets its values, in
 * execution order: SHAPE, RANK, CAST between INT32 and INT64, the views,
 * STRIDED_SLICE and SLICE of a vector, GATHER from a vector, PACK and
 * CONCATENATION on axis 0, ADD, SUB and MUL without an activation (of one
 * shape, or one side a single element), FILL, RANGE. A value that leaves the
 * output's type (INT32 past 2^31), an index outside its input, or a count
 * other than the output records leaves the output unknown: the op reading
 * it is then taken as recorded, as before.
 */
#include "ta_tflite_shape.h"

/* Inputs of one folded op read at most (a PACK or CONCATENATION). */
#define TA_TFL_FOLD_INPUTS	TA_TFL_FOLD_MAX

/*
 * The known values of input @k of the op (@t[@in[@k]]) into @v (room for
 * %TA_TFL_FOLD_MAX); false if none.
 */
static bool ta_tfl_known(struct ta_tfl *m, const struct ta_tfl_tensor *t,
			 const s32 *in, u32 n_in, u32 k, s64 *v, u32 *n)
{
	return k < n_in && in[k] >= 0 &&
	       ta_tfl_const(m, &t[in[k]], v, TA_TFL_FOLD_MAX, n);
}

/* The one known value of input @k into *@x; false if none or more. */
static bool ta_tfl_known_one(struct ta_tfl *m, const struct ta_tfl_tensor *t,
			     const s32 *in, u32 n_in, u32 k, s64 *x)
{
	s64 v[TA_TFL_FOLD_MAX];
	u32 n;

	if (!ta_tfl_known(m, t, in, n_in, k, v, &n) || n != 1)
		return false;
	*x = v[0];
	return true;
}

/* An int32 option field @id of union member @type is @want (absent: 0). */
static int ta_tfl_option_is(struct ta_tfl *m, const struct ta_fbt *o,
			    u64 type, u32 id, s64 want, bool *is)
{
	bool have;
	s64 v;
	int ret = ta_tfl_option(m, o, type, id, 0, &v, &have);

	*is = !ret && v == want;
	return ret;
}

/* PACK and CONCATENATION on axis 0: the inputs' values one after another. */
static int ta_tfl_fold_joined(struct ta_tfl *m, const struct ta_fbt *o,
			      const struct ta_tfl_op *op,
			      const struct ta_tfl_tensor *t, const s32 *in,
			      u32 n_in, s64 *v, u32 *n)
{
	s64 part[TA_TFL_FOLD_MAX], axis;
	bool have, plain = true;
	u32 k, got;
	int ret;

	if (op->code == TA_TFL_PACK) {
		ret = ta_tfl_option(m, o, TA_TFL_PACK_OPTIONS, 1, 0, &axis,
				    &have);
	} else {
		ret = ta_tfl_option(m, o, TA_TFL_CONCAT_OPTIONS, 0, 0,
				    &axis, &have);
		/* its fused activation: none */
		if (!ret)
			ret = ta_tfl_option_is(m, o, TA_TFL_CONCAT_OPTIONS,
					       1, 0, &plain);
		/* a vector's last axis is its first */
		if (axis == -1 && in[0] >= 0 && t[in[0]].rank == 1)
			axis = 0;
	}
	if (ret || axis || !plain)
		return ret;
	*n = 0;
	for (k = 0; k < n_in; k++) {
		if (!ta_tfl_known(m, t, in, n_in, k, part, &got) ||
		    *n + got > TA_TFL_FOLD_MAX)
			return 0;
		memcpy(v + *n, part, got * sizeof(*v));
		*n += got;
	}
	return 1;
}

/* ADD, SUB, MUL of two known values: one shape, or a single element. */
static int ta_tfl_fold_arith(struct ta_tfl *m, const struct ta_fbt *o,
			     const struct ta_tfl_op *op,
			     const struct ta_tfl_tensor *t, const s32 *in,
			     u32 n_in, s64 *v, u32 *n)
{
	s64 a[TA_TFL_FOLD_MAX], b[TA_TFL_FOLD_MAX];
	u64 type = op->code == TA_TFL_ADD ? TA_TFL_ADD_OPTIONS :
		   op->code == TA_TFL_SUB ? TA_TFL_SUB_OPTIONS :
		   TA_TFL_MUL_OPTIONS;
	u32 na, nb, k;
	bool plain;
	int ret;

	/* the fused activation (field 0): none */
	ret = ta_tfl_option_is(m, o, type, 0, 0, &plain);
	if (ret || !plain || n_in != 2 ||
	    !ta_tfl_known(m, t, in, n_in, 0, a, &na) ||
	    !ta_tfl_known(m, t, in, n_in, 1, b, &nb) ||
	    (na != nb && na != 1 && nb != 1))
		return ret;
	*n = na > nb ? na : nb;
	for (k = 0; k < *n; k++) {
		s64 x = a[na == 1 ? 0 : k], y = b[nb == 1 ? 0 : k];

		/* both within int64's halves: no overflow in s64 */
		if (x > INT32_MAX || x < INT32_MIN || y > INT32_MAX ||
		    y < INT32_MIN)
			return 0;
		v[k] = op->code == TA_TFL_ADD ? x + y :
		       op->code == TA_TFL_SUB ? x - y : x * y;
	}
	return 1;
}

/*
 * The values op @op computes into @v (*@n of them): 1, 0 when they are
 * not known here, or -errno.
 */
static int ta_tfl_fold_values(struct ta_tfl *m, const struct ta_fbt *o,
			      const struct ta_tfl_op *op,
			      const struct ta_tfl_tensor *t, const s32 *in,
			      u32 n_in, s64 *v, u32 *n)
{
	const struct ta_tfl_tensor *x = n_in && in[0] >= 0 ? &t[in[0]] : NULL;
	s64 a[TA_TFL_FOLD_MAX], idx[TA_TFL_FOLD_MAX], first, step, axis;
	u32 na, ni, k, count;
	bool have;
	int ret;

	if (!x)
		return 0;
	switch (op->code) {
	case TA_TFL_SHAPE:
		for (k = 0; k < x->rank; k++)
			v[k] = x->dims[k];
		*n = x->rank;
		return 1;
	case TA_TFL_RANK:
		v[0] = x->rank;
		*n = 1;
		return 1;
	case TA_TFL_CAST:
	case TA_TFL_RESHAPE:
	case TA_TFL_SQUEEZE:
	case TA_TFL_EXPAND_DIMS:
		return ta_tfl_known(m, t, in, n_in, 0, v, n) ? 1 : 0;
	case TA_TFL_STRIDED_SLICE:
		if (!ta_tfl_known(m, t, in, n_in, 0, a, &na))
			return 0;
		ret = ta_tfl_slice_vector(m, o, t, in, n_in, &first, &step,
					  &count);
		if (ret <= 0 || count > TA_TFL_FOLD_MAX)
			return ret;
		for (k = 0; k < count; k++) {
			s64 at = first + (s64)k * step;

			if (at < 0 || at >= na)
				return 0;
			v[k] = a[at];
		}
		*n = count;
		return 1;
	case TA_TFL_SLICE:
		/* a vector: begin [1], size [1] (-1: to the end) */
		if (x->rank != 1 || !ta_tfl_known(m, t, in, n_in, 0, a, &na) ||
		    !ta_tfl_known_one(m, t, in, n_in, 1, &first) ||
		    !ta_tfl_known_one(m, t, in, n_in, 2, &step) ||
		    first < 0 || first > na)
			return 0;
		if (step == -1)
			step = na - first;
		if (step < 0 || step > na - first)
			return 0;
		memcpy(v, a + first, step * sizeof(*v));
		*n = (u32)step;
		return 1;
	case TA_TFL_GATHER:
		/* from a vector, on axis 0, no batch dimensions */
		ret = ta_tfl_option(m, o, TA_TFL_GATHER_OPTIONS, 0, 0,
				    &axis, &have);
		if (!ret)
			ret = ta_tfl_option(m, o, TA_TFL_GATHER_OPTIONS, 1,
					    0, &first, &have);
		if (ret || (axis && axis != -1) || first || x->rank != 1 ||
		    !ta_tfl_known(m, t, in, n_in, 0, a, &na) ||
		    !ta_tfl_known(m, t, in, n_in, 1, idx, &ni))
			return ret;
		for (k = 0; k < ni; k++) {
			if (idx[k] < 0 || idx[k] >= na)
				return 0;
			v[k] = a[idx[k]];
		}
		*n = ni;
		return 1;
	case TA_TFL_PACK:
	case TA_TFL_CONCATENATION:
		return ta_tfl_fold_joined(m, o, op, t, in, n_in, v, n);
	case TA_TFL_ADD:
	case TA_TFL_SUB:
	case TA_TFL_MUL:
		return ta_tfl_fold_arith(m, o, op, t, in, n_in, v, n);
	case TA_TFL_RANGE:
		if (!ta_tfl_range(m, t, in, n_in, &first, &step, &axis) ||
		    axis > TA_TFL_FOLD_MAX)
			return 0;
		for (k = 0; k < axis; k++)
			v[k] = first + (s64)k * step;
		*n = (u32)axis;
		return 1;
	case TA_TFL_FILL:
		/* dims, then a scalar value */
		if (x->rank != 1 || !ta_tfl_known(m, t, in, n_in, 0, a, &na) ||
		    !ta_tfl_known_one(m, t, in, n_in, 1, &first) ||
		    t[in[1]].rank)
			return 0;
		count = 1;
		for (k = 0; k < na; k++) {
			if (a[k] < 0 || a[k] > TA_TFL_FOLD_MAX)
				return 0;
			count *= (u32)a[k];
			if (count > TA_TFL_FOLD_MAX)
				return 0;
		}
		for (k = 0; k < count; k++)
			v[k] = first;
		*n = count;
		return 1;
	}
	return 0;
}

/**
 * ta_tfl_fold() - the values op @i of subgraph @s computes, when known
 * @m: the model
 * @s: subgraph
 * @i: op, read after the ops before it (execution order)
 * @o: the op's table
 *
 * Stores the values of the op's one output (INT32 or INT64, at most
 * %TA_TFL_FOLD_MAX elements, as many as its recorded shape holds) in its
 * tensor, where ta_tfl_const() finds them; counted in
 * &ta_tflite_info.n_folded.
 *
 * Return: 0 (also when nothing is known), -ENOMEM, or -errno when the
 * op's options are corrupt.
 */
int ta_tfl_fold(struct ta_tfl *m, u32 s, u32 i, const struct ta_fbt *o)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	const struct ta_tfl_op *op = &sg->ops[i];
	s32 in[TA_TFL_FOLD_INPUTS];
	s64 v[TA_TFL_FOLD_MAX];
	struct ta_tfl_tensor *y;
	struct ta_fbv ins, outs;
	u32 n = 0, k;
	int ret;

	/* as written (an input left out is -1); checked when the op was read */
	ret = ta_fb_vector(&m->fb, o, TA_OP_INPUTS, 4, &ins);
	if (!ret)
		ret = ta_fb_vector(&m->fb, o, TA_OP_OUTPUTS, 4, &outs);
	if (ret || outs.len != 1 || ins.len > TA_TFL_FOLD_INPUTS)
		return ret;
	y = &sg->t[ta_fb_u32(&m->fb, outs.data)];
	if ((y->type != TA_TFL_INT32 && y->type != TA_TFL_INT64) ||
	    (y->flags & (TA_TENSOR_CONSTANT | TA_TENSOR_INPUT)) || y->value ||
	    ta_tfl_elems(y) > TA_TFL_FOLD_MAX)
		return 0;
	for (k = 0; k < ins.len; k++)
		in[k] = (s32)ta_fb_u32(&m->fb, ins.data + 4 * k);
	ret = ta_tfl_fold_values(m, o, op, sg->t, in, (u32)ins.len, v, &n);
	if (ret <= 0 || n != ta_tfl_elems(y))
		return ret < 0 ? ret : 0;
	for (k = 0; k < n; k++)
		if (y->type == TA_TFL_INT32 &&
		    (v[k] > INT32_MAX || v[k] < INT32_MIN))
			return 0;
	y->value = malloc((n ? n : 1) * sizeof(*y->value));
	if (!y->value)
		return -ENOMEM;
	memcpy(y->value, v, n * sizeof(*v));
	y->n_value = n;
	m->info->n_folded++;
	return 0;
}
