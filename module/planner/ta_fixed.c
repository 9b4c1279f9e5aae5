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
		ret = ta_contain_fixed(p, limit, offsets, res, w);
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
