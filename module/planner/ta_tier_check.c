// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tier_check.c - the tiered-plan validator, independent of the choice
 * (ta_tier.c): it shares no code with it but the plan validator itself.
 * Each tier's buffers become a trace of their own (their lifetimes as the
 * problem gives them, their alias classes renumbered), which
 * ta_plan_check() must accept within the tier's claimed height.
 */
#include "ta_tier.h"

static void ta_tier_conflict_set(struct ta_tier_conflict *c, u32 kind,
				 u32 tensor, u32 tier)
{
	c->kind = kind;
	c->tensor = tensor;
	c->tier = tier;
}

/* One tier: its trace, checked. */
static int ta_tier_check_one(const struct ta_problem *p, const u32 *root,
			     const u8 *tier, const u64 *offsets, u8 which,
			     u64 height, u32 *map, struct ta_buffer *bufs,
			     u64 *off, u32 *alias, u32 *idx,
			     struct ta_tier_conflict *c)
{
	struct ta_problem q = { 0 };
	u32 i, m = 0;
	int ret;

	for (i = 0; i < p->n_buffers; i++) {
		map[i] = U32_MAX;
		if (tier[i] != which)
			continue;
		map[i] = m;
		idx[m] = i;
		bufs[m] = p->buffers[i];
		off[m++] = offsets[i];
	}
	for (i = 0; i < m; i++)
		alias[i] = map[root[idx[i]]];
	q.n_buffers = m;
	q.buffers = bufs;
	q.alias = alias;
	ret = ta_plan_check(&q, offsets ? off : NULL, height, &c->plan);
	if (ret == -EINVAL) {
		ta_tier_conflict_set(c, TA_TIER_BAD_PLAN, 0, which);
		if (c->plan.kind != TA_CONFLICT_NONE) {
			c->tensor = idx[c->plan.a];
			c->plan.a = idx[c->plan.a];
			if (c->plan.kind == TA_CONFLICT_OVERLAP)
				c->plan.b = idx[c->plan.b];
		}
	}
	return ret;
}

/* Tiers, pins and classes; *@served the fast tier's weight. */
static int ta_tier_check_tiers(const struct ta_problem *p,
			       const struct ta_tier_request *rq,
			       const u8 *tier, const u32 *root, u64 *served,
			       struct ta_tier_conflict *c)
{
	u64 *wt = NULL, sum = 0;
	u32 i;

	if (!rq->weights) {
		wt = ta_env_alloc_array(p->n_buffers ? p->n_buffers : 1,
					sizeof(*wt));
		if (!wt)
			return -ENOMEM;
		if (ta_tier_weights(p, wt)) {
			ta_env_free(wt);
			return -EINVAL;
		}
	}
	for (i = 0; i < p->n_buffers; i++) {
		u8 pin = rq->pins ? rq->pins[i] : TA_TIER_ANY;
		u64 w = rq->weights ? rq->weights[i] : wt[i];

		if (tier[i] != TA_TIER_FAST && tier[i] != TA_TIER_SLOW) {
			ta_tier_conflict_set(c, TA_TIER_BAD_TIER, i, tier[i]);
			break;
		}
		if (pin != TA_TIER_ANY && pin != tier[i]) {
			ta_tier_conflict_set(c, TA_TIER_BAD_PIN, i, tier[i]);
			break;
		}
		if (tier[root[i]] != tier[i]) {
			ta_tier_conflict_set(c, TA_TIER_BAD_CLASS, i, tier[i]);
			break;
		}
		if (tier[i] == TA_TIER_FAST)
			sum = sum + w < sum ? U64_MAX : sum + w;
	}
	ta_env_free(wt);
	if (c->kind != TA_TIER_OK)
		return -EINVAL;
	if (served)
		*served = sum;
	return 0;
}

/**
 * ta_tier_check() - check a tiered plan, independently of ta_tier_solve()
 * @p: the problem
 * @rq: capacity, weights (NULL: the default) and pins
 * @tier: per buffer, its tier
 * @offsets: per buffer, its offset within its tier
 * @fast_height: the fast tier's claimed height
 * @slow_height: the arena's claimed height
 * @served: out (may be NULL): the weight the fast tier serves
 * @c: out: the first problem found, %TA_TIER_OK when none
 *
 * See ta_tier.h. O(n log n) time, O(n) memory.
 *
 * Return: 0 when valid; -EINVAL otherwise; -ENOMEM; -EINTR.
 */
int ta_tier_check(const struct ta_problem *p, const struct ta_tier_request *rq,
		  const u8 *tier, const u64 *offsets, u64 fast_height,
		  u64 slow_height, u64 *served, struct ta_tier_conflict *c)
{
	u32 i, n, *root = NULL, *map = NULL, *alias = NULL, *idx = NULL;
	struct ta_buffer *bufs = NULL;
	u64 *off = NULL, lb;
	int ret;

	if (!c)
		return -EINVAL;
	*c = (struct ta_tier_conflict){ 0 };
	if (!p || !rq || p->fixed)
		return -EINVAL;
	ret = ta_problem_lower_bound(p, &lb);	/* validates @p */
	if (ret)
		return ret == -ENOMEM || ret == -EINTR ? ret : -EINVAL;
	n = p->n_buffers;
	if (n && (!tier || !offsets))
		return -EINVAL;
	for (i = 0; rq->pins && i < n; i++)
		if (rq->pins[i] > TA_TIER_SLOW)
			return -EINVAL;
	if (fast_height > rq->capacity) {
		ta_tier_conflict_set(c, TA_TIER_BAD_HEIGHT, 0, TA_TIER_FAST);
		for (i = 0; i < n; i++)
			if (tier[i] == TA_TIER_FAST && p->buffers[i].size &&
			    offsets[i] + p->buffers[i].size > rq->capacity)
				c->tensor = i;
		return -EINVAL;
	}
	root = ta_env_alloc_array(n ? n : 1, sizeof(*root));
	map = ta_env_alloc_array(n ? n : 1, sizeof(*map));
	alias = ta_env_alloc_array(n ? n : 1, sizeof(*alias));
	idx = ta_env_alloc_array(n ? n : 1, sizeof(*idx));
	bufs = ta_env_alloc_array(n ? n : 1, sizeof(*bufs));
	off = ta_env_alloc_array(n ? n : 1, sizeof(*off));
	if (!root || !map || !alias || !idx || !bufs || !off) {
		ret = -ENOMEM;
		goto free_all;
	}
	if (p->graph)
		ta_graph_aliases(p->graph, p->buffers, root);
	else
		for (i = 0; i < n; i++)
			root[i] = p->alias ? p->alias[i] : i;
	ret = ta_tier_check_tiers(p, rq, tier, root, served, c);
	if (!ret)
		ret = ta_tier_check_one(p, root, tier, offsets, TA_TIER_FAST,
					fast_height, map, bufs, off, alias, idx,
					c);
	if (!ret)
		ret = ta_tier_check_one(p, root, tier, offsets, TA_TIER_SLOW,
					slow_height, map, bufs, off, alias, idx,
					c);
free_all:
	ta_env_free(off);
	ta_env_free(bufs);
	ta_env_free(idx);
	ta_env_free(alias);
	ta_env_free(map);
	ta_env_free(root);
	return ret;
}
