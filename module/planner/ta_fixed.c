// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_fixed.c - the fixed strategy: the caller fixes some offsets, the rest
 * are placed greedily around them.
 *
 * ta_plan_solve() calls it for %TA_STRATEGY_FIXED after validating the problem;
 * unlike the other strategies (ta_strategy.h) it computes the lower bound
 * itself and finishes the plan (ta_plan_finish()), since the height it
 * reports may be the caller's &ta_problem.fixed_height.
 */
#include "ta_bound.h"
#include "ta_contain.h"
#include "ta_plan_helpers.h"
#include "ta_strategy.h"
#include "ta_validate.h"

/*
 * The fixed strategy of a plan whose tensors may nest (at least one
 * buffer, no alias classes): the lower bound as ta_contain_lower_bound()
 * gives it, the fixed offsets checked as ta_check_plan() checks them
 * (alignment and height first, then overlaps), then the placement around
 * them (ta_contain_place()); the nesting, and the buffers that take room,
 * found once for all three.
 */
static int ta_plan_fixed_nested(const struct ta_problem *p, u64 limit,
				u64 *offsets, struct ta_result *res,
				struct ta_work *w)
{
	struct ta_buffer *outer = NULL;
	struct ta_conflict overlap;
	u32 *parent;
	u64 top;
	int ret, nest;

	nest = ta_contain_parents(p, &parent, &overlap, w);
	if (nest && nest != -EINVAL)
		return nest;
	ret = -ENOMEM;
	if (parent) {
		outer = ta_contain_outer(p, parent);
		if (!outer)
			goto free_parent;
	}
	ret = ta_sweep_lower_bound(outer ? outer : p->buffers, p->n_buffers,
				   &res->lower_bound, w);
	if (!ret)
		ret = ta_check_offsets(p, p->fixed, p->fixed, limit, &top,
				       &res->conflict, w);
	if (!ret && nest) {
		res->conflict = overlap;
		ret = nest;
	}
	if (!ret)
		ret = ta_contain_place(p, parent, outer, offsets, &res->height,
				       w);
	ta_env_free(outer);
free_parent:
	ta_env_free(parent);
	return ret;
}

/*
 * TA_STRATEGY_FIXED: the caller's offsets (@p->fixed) must be aligned,
 * within the height and free of live overlaps (aliases may share at one
 * offset; without aliases, a fixed tensor may lie within another:
 * ta_contain.c); the unfixed buffers are placed greedily around them and must
 * fit under &ta_problem.fixed_height when one is given.
 */
int ta_plan_fixed(const struct ta_problem *p, u64 *offsets,
		  struct ta_result *res, const u32 *root, struct ta_work *w)
{
	u64 limit = p->fixed_height ? p->fixed_height : TA_PLAN_MAX_HEIGHT;
	u32 i, high = 0;
	int ret;

	if (!p->n_buffers)
		return root ? ta_alias_lower_bound(p, root, &res->lower_bound, w) :
			      ta_contain_lower_bound(p, &res->lower_bound, w);
	if (ta_contain_applies(p, root)) {
		ret = ta_plan_fixed_nested(p, limit, offsets, res, w);
	} else {
		ret = ta_alias_lower_bound(p, root, &res->lower_bound, w);
		if (ret)
			return ret;
		ret = ta_check_plan(p, p->fixed, p->fixed, root, limit,
				    &res->conflict, w);
		if (ret)
			return ret;
		ret = ta_greedy_place(p->buffers, p->n_buffers, p->fixed,
				      offsets, &res->height, w);
	}
	if (ret)
		return ret;
	res->steps = p->n_buffers;
	ret = ta_plan_finish(p, offsets, res);
	if (ret || !p->fixed_height)
		return ret;
	if (res->height > p->fixed_height) {
		/* an unfixed buffer did not fit: name the highest */
		for (i = 0; i < p->n_buffers; i++)
			if (offsets[i] + p->buffers[i].size >
			    offsets[high] + p->buffers[high].size)
				high = i;
		ta_conflict_set(&res->conflict, TA_CONFLICT_HEIGHT, high, high,
				0);
		return -EINVAL;
	}
	res->height = p->fixed_height;
	res->optimal = res->height == res->lower_bound;
	return 0;
}
