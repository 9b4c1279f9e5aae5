// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_index.c - the ONNX reader (ta_onnx.c): shape inference: ops
 * that gather elements by index or coordinates, or move them between
 * dimensions (GatherElements, GatherND, OneHot, GridSample, RoiAlign,
 * MaxRoiPool, DepthToSpace, SpaceToDepth), or count n-grams into slots by
 * index (TfIdfVectorizer).
 */
#include "ta_onnx_internal.h"

/* GatherElements: the indices' shape (data's rank), data's type. */
int ta_ox_gather_elements(struct ta_ox *ox)
{
	struct ta_ox_value *x, *ind;
	u32 ax;
	int ret = ta_ox_gather_args(ox, &x, &ind, &ax);

	if (ret)
		return ret;
	if (ind->shape.rank != x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL,
				       "indices of rank %u for data of rank %u",
				       ind->shape.rank, x->shape.rank);
	return ta_ox_set(ox, 0, x->dtype, &ind->shape);
}

/*
 * GatherND: indices[:-1], then data's dimensions past batch_dims and the
 * indices' last dimension (how many of data's each index names).
 */
int ta_ox_gather_nd(struct ta_ox *ox)
{
	struct ta_ox_value *x, *ind;
	struct ta_ox_shape s = { 0 };
	s64 b, last;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 1, TA_OX_MAX_RANK) ?:
		  ta_ox_need_rank(ox, 1, &ind, 1, TA_OX_MAX_RANK) ?:
		  ta_ox_attr_int(ox, "batch_dims", 0, &b);

	if (ret)
		return ret;
	last = ind->shape.d[ind->shape.rank - 1];
	if (b < 0 || b >= ind->shape.rank || b >= x->shape.rank ||
	    last < 1 || b + last > x->shape.rank)
		return ta_ox_node_fail(ox, -EINVAL,
				       "batch_dims %lld and indices of %lld for data of rank %u",
				       (long long)b, (long long)last,
				       x->shape.rank);
	for (i = 0; i + 1 < ind->shape.rank; i++)
		s.d[s.rank++] = ind->shape.d[i];
	for (i = (u32)(b + last); i < x->shape.rank; i++) {
		if (s.rank == TA_OX_MAX_RANK)
			return ta_ox_node_fail(ox, -EINVAL, "rank too large");
		s.d[s.rank++] = x->shape.d[i];
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * OneHot: the indices' shape with depth (a constant) inserted at axis;
 * the values' type.
 */
int ta_ox_one_hot(struct ta_ox *ox)
{
	struct ta_ox_value *ind, *depth, *vals;
	struct ta_ox_shape s = { 0 };
	s64 axis, d;
	u32 ax, i;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need(ox, 0, &ind) ?:
		  ta_ox_need(ox, 1, &depth) ?: ta_ox_need(ox, 2, &vals) ?:
		  ta_ox_attr_int(ox, "axis", -1, &axis);

	if (ret)
		return ret;
	if (ind->shape.rank >= TA_OX_MAX_RANK)
		return ta_ox_node_fail(ox, -EINVAL, "rank too large");
	ret = ta_ox_axis(ox, axis, ind->shape.rank + 1, false, &ax);
	if (ret)
		return ret;
	if (depth->iv && depth->n_kept == 1) {
		d = depth->iv[0];
	} else if (depth->fv && depth->n_kept == 1 &&
		   fabs(depth->fv[0]) < 1e12) {
		d = (s64)depth->fv[0];	/* ONNX Runtime casts it down */
	} else {
		return ta_ox_runtime_input(ox, 1, "depth");
	}
	if (d < 1)
		return ta_ox_node_fail(ox, -EINVAL, "depth %lld", (long long)d);
	for (i = 0; i <= ind->shape.rank; i++) {
		if (i == ax)
			s.d[s.rank++] = d;
		if (i < ind->shape.rank)
			s.d[s.rank++] = ind->shape.d[i];
	}
	return ta_ox_set(ox, 0, vals->dtype, &s);
}

/* GridSample: [N, C] and the grid's [N, out..., rank - 2] out dims. */
int ta_ox_grid_sample(struct ta_ox *ox)
{
	struct ta_ox_value *x, *grid;
	struct ta_ox_shape s;
	u32 i;
	int ret = ta_ox_one_output(ox) ?:
		  ta_ox_need_rank(ox, 0, &x, 3, TA_OX_MAX_RANK) ?:
		  ta_ox_need_rank(ox, 1, &grid, x->shape.rank, x->shape.rank);

	if (ret)
		return ret;
	if (grid->shape.d[0] != x->shape.d[0] ||
	    grid->shape.d[grid->shape.rank - 1] != x->shape.rank - 2)
		return ta_ox_node_fail(ox, -EINVAL,
				       "a grid of %lld batches and points of %lld for X of %lld and %u spatial dimensions",
				       (long long)grid->shape.d[0],
				       (long long)grid->shape.d[grid->shape.rank - 1],
				       (long long)x->shape.d[0], x->shape.rank - 2);
	s = x->shape;
	for (i = 2; i < s.rank; i++)
		s.d[i] = grid->shape.d[i - 1];
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/* RoiAlign: [num_rois, C, output_height, output_width]. */
int ta_ox_roi_align(struct ta_ox *ox)
{
	struct ta_ox_value *x, *rois, *idx;
	struct ta_ox_shape s = { .rank = 4 };
	s64 oh, ow;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 4, 4) ?:
		  ta_ox_need_rank(ox, 1, &rois, 2, 2) ?:
		  ta_ox_need_rank(ox, 2, &idx, 1, 1) ?:
		  ta_ox_attr_int(ox, "output_height", 1, &oh) ?:
		  ta_ox_attr_int(ox, "output_width", 1, &ow);

	if (ret)
		return ret;
	if (rois->shape.d[1] != 4 || idx->shape.d[0] != rois->shape.d[0] ||
	    oh < 1 || ow < 1)
		return ta_ox_node_fail(ox, -EINVAL,
				       "rois [%lld,%lld], %lld batch indices, output %lld x %lld",
				       (long long)rois->shape.d[0],
				       (long long)rois->shape.d[1],
				       (long long)idx->shape.d[0], (long long)oh,
				       (long long)ow);
	s.d[0] = rois->shape.d[0];
	s.d[1] = x->shape.d[1];
	s.d[2] = oh;
	s.d[3] = ow;
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/* MaxRoiPool: [num_rois, C, pooled_shape[0], pooled_shape[1]]. */
int ta_ox_max_roi_pool(struct ta_ox *ox)
{
	struct ta_ox_value *x, *rois;
	struct ta_ox_shape s = { .rank = 4 };
	s64 pooled[TA_OX_MAX_RANK];
	s32 n;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 4, 4) ?:
		  ta_ox_need_rank(ox, 1, &rois, 2, 2) ?:
		  ta_ox_attr_ints(ox, "pooled_shape", pooled, TA_OX_MAX_RANK,
				  &n);

	if (ret)
		return ret;
	if (n != 2 || pooled[0] < 1 || pooled[1] < 1 ||
	    pooled[0] > (1LL << 31) || pooled[1] > (1LL << 31) ||
	    rois->shape.d[1] != 5)
		return ta_ox_node_fail(ox, -EINVAL,
				       "pooled_shape of %d values (want 2, each at least 1), rois [%lld,%lld] (want [num_rois,5])",
				       n, (long long)rois->shape.d[0],
				       (long long)rois->shape.d[1]);
	s.d[0] = rois->shape.d[0];
	s.d[1] = x->shape.d[1];
	s.d[2] = pooled[0];
	s.d[3] = pooled[1];
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * DepthToSpace [N, C, H, W] to [N, C / b^2, H b, W b]; SpaceToDepth the
 * other way, [N, C b^2, H / b, W / b].
 */
int ta_ox_depth_space(struct ta_ox *ox)
{
	bool to_space = !strcmp(ox->nd.op_str, "DepthToSpace");
	struct ta_ox_value *x;
	struct ta_ox_shape s;
	s64 b;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 4, 4) ?:
		  ta_ox_attr_int(ox, "blocksize", 0, &b);

	if (ret)
		return ret;
	if (b < 1 || b > (1 << 16))
		return ta_ox_node_fail(ox, -EINVAL, "blocksize %lld", (long long)b);
	s = x->shape;
	if (to_space) {
		if (s.d[1] % (b * b))
			return ta_ox_node_fail(ox, -EINVAL,
					       "%lld channels for blocksize %lld",
					       (long long)s.d[1], (long long)b);
		s.d[1] /= b * b;
		s.d[2] *= b;
		s.d[3] *= b;
	} else {
		if (s.d[2] % b || s.d[3] % b)
			return ta_ox_node_fail(ox, -EINVAL,
					       "height %lld and width %lld for blocksize %lld",
					       (long long)s.d[2], (long long)s.d[3],
					       (long long)b);
		s.d[1] *= b * b;
		s.d[2] /= b;
		s.d[3] /= b;
	}
	return ta_ox_set(ox, 0, x->dtype, &s);
}

/*
 * TfIdfVectorizer: X [C] or [N, C] of n-grams to count, FLOAT [size] or
 * [N, size] where size is one more than the largest of ngram_indexes
 * (the output slot of each n-gram of the pool: a vocabulary's worth, all
 * of them read).
 */
int ta_ox_tfidf(struct ta_ox *ox)
{
	struct ta_ox_value *x;
	struct ta_ox_shape s = { 0 };
	struct ta_ox_attr a;
	int ret = ta_ox_one_output(ox) ?: ta_ox_need_rank(ox, 0, &x, 1, 2) ?:
		  ta_ox_attr(ox, "ngram_indexes", &a);

	if (ret < 0)
		return ret;
	if (!ret || !a.n_ints)
		return ta_ox_node_fail(ox, -EINVAL, "no ngram_indexes");
	ret = ta_ox_attr_type(ox, "ngram_indexes", &a, TA_OX_AT_INTS, true);
	if (ret)
		return ret;
	if (a.ints_lo < 0 || (u64)a.ints_hi >= TA_OX_MAX_ELEMS)
		return ta_ox_node_fail(ox, -EINVAL, "ngram_indexes holds %lld",
				       (long long)(a.ints_lo < 0 ? a.ints_lo :
						   a.ints_hi));
	if (x->shape.rank == 2)
		s.d[s.rank++] = x->shape.d[0];
	s.d[s.rank++] = a.ints_hi + 1;
	return ta_ox_set(ox, 0, TA_OX_FLOAT, &s);
}
