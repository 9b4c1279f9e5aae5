// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tier_unit.c - the units of a tiered plan: a problem's alias classes
 * (a graph's in-place ops, a trace's &ta_problem.alias), each chosen for a
 * tier as one, with its weight (ta_tier_weights() by default) and pin.
 */
#include "ta_tier_unit.h"
#include "ta_plan_helpers.h"

static void ta_tier_mul128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 al = a & 0xffffffffULL, ah = a >> 32;
	u64 bl = b & 0xffffffffULL, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);

	*lo = (mid << 32) | (ll & 0xffffffffULL);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

int ta_tier_mul_cmp(u64 a, u64 b, u64 c, u64 d)
{
	u64 h1, l1, h2, l2;

	ta_tier_mul128(a, b, &h1, &l1);
	ta_tier_mul128(c, d, &h2, &l2);
	if (h1 != h2)
		return h1 < h2 ? -1 : 1;
	if (l1 != l2)
		return l1 < l2 ? -1 : 1;
	return 0;
}

/**
 * ta_tier_weights() - the default weights: the bytes the NPU moves
 * @p: a problem
 * @weights: out, @p->n_buffers entries
 *
 * Graph form: size times one write plus one read per op input naming the
 * tensor; trace form: twice the size. Saturating.
 *
 * Return: 0, or -EINVAL for a NULL argument or a graph that is not the
 * problem's.
 */
int ta_tier_weights(const struct ta_problem *p, u64 *weights)
{
	const struct ta_graph *g;
	u32 i, o, k;

	if (!p || (p->n_buffers && (!p->buffers || !weights)))
		return -EINVAL;
	g = p->graph;
	if (!g) {
		for (i = 0; i < p->n_buffers; i++)
			weights[i] = ta_tier_mul(p->buffers[i].size, 2);
		return 0;
	}
	if (g->n_tensors != p->n_buffers || (g->n_ops && !g->ops) ||
	    (g->n_refs && !g->refs) || (g->n_tensors && !g->tensors))
		return -EINVAL;
	for (i = 0; i < p->n_buffers; i++)
		weights[i] = 1;	/* the write */
	for (o = 0; o < g->n_ops; o++) {
		const struct ta_graph_op *op = &g->ops[o];

		if ((u64)op->first_ref + op->n_inputs > g->n_refs)
			return -EINVAL;
		for (k = 0; k < op->n_inputs; k++) {
			u32 t = g->refs[op->first_ref + k];

			if (t >= g->n_tensors)
				return -EINVAL;
			weights[t] = ta_tier_add(weights[t], 1);
		}
	}
	for (i = 0; i < p->n_buffers; i++)
		weights[i] = ta_tier_mul(weights[i], g->tensors[i].size);
	return 0;
}

static int ta_tier_check_request(const struct ta_problem *p,
				 const struct ta_tier_request *rq)
{
	u32 i;

	if (!rq || p->fixed ||
	    rq->fast_strategy >= TA_STRATEGY_COUNT ||
	    rq->slow_strategy >= TA_STRATEGY_COUNT)
		return -EINVAL;
	for (i = 0; rq->pins && i < p->n_buffers; i++)
		if (rq->pins[i] > TA_TIER_SLOW)
			return -EINVAL;
	return 0;
}

/* Per buffer, its class root (itself without aliases). */
static int ta_tier_roots(const struct ta_problem *p, u32 *root)
{
	u32 i;

	if (p->graph) {
		ta_graph_aliases(p->graph, p->buffers, root);
		return 0;
	}
	for (i = 0; i < p->n_buffers; i++)
		root[i] = p->alias ? p->alias[i] : i;
	return 0;
}

static int ta_tier_join(struct ta_tier_unit *u, const struct ta_buffer *b,
			u64 weight, u8 pin)
{
	if (b->align > u->align)
		u->align = b->align;
	if (b->start < u->start)
		u->start = b->start;
	if (b->end > u->end)
		u->end = b->end;
	u->weight = ta_tier_add(u->weight, weight);
	if (pin != TA_TIER_ANY) {
		if (u->pin != TA_TIER_ANY && u->pin != pin)
			return -EINVAL;
		u->pin = pin;
	}
	return 0;
}

int ta_tier_units_build(const struct ta_problem *p,
			const struct ta_tier_request *rq,
			struct ta_tier_units *tu, struct ta_tier_fail *fail,
			struct ta_work *w)
{
	u32 i, n = p ? p->n_buffers : 0, *root = NULL, *unit_of_root;
	u64 *wt = NULL, lb;
	int ret;

	*tu = (struct ta_tier_units){ 0 };
	if (!p)
		return -EINVAL;
	ret = ta_problem_lower_bound(p, &lb);	/* validates @p */
	if (!ret)
		ret = ta_tier_check_request(p, rq);
	if (ret)
		return ret;
	tu->u = ta_env_alloc_array(n ? n : 1, sizeof(*tu->u));
	tu->of = ta_env_alloc_array(n ? n : 1, sizeof(*tu->of));
	root = ta_env_alloc_array(n ? n : 1, sizeof(*root));
	wt = rq->weights ? NULL : ta_env_alloc_array(n ? n : 1, sizeof(*wt));
	if (!tu->u || !tu->of || !root || (!rq->weights && !wt)) {
		ret = -ENOMEM;
		goto free_scratch;
	}
	ret = ta_tier_roots(p, root);
	if (!ret && wt)
		ret = ta_tier_weights(p, wt);
	if (ret)
		goto free_scratch;
	unit_of_root = tu->of;	/* per root, its unit, for now */
	for (i = 0; i < n; i++)
		unit_of_root[i] = U32_MAX;
	for (i = 0; i < n && !ret; i++) {
		u32 r = root[i], k = unit_of_root[r];
		const struct ta_buffer *b = &p->buffers[i];
		u64 weight = rq->weights ? rq->weights[i] : wt[i];
		u8 pin = rq->pins ? rq->pins[i] : TA_TIER_ANY;

		if (k == U32_MAX) {
			k = tu->n++;
			unit_of_root[r] = k;
			tu->u[k] = (struct ta_tier_unit){
				.size = b->size, .align = b->align,
				.start = b->start, .end = b->end,
				.first = i,
			};
		}
		tu->weight_total = ta_tier_add(tu->weight_total, weight);
		if (ta_tier_join(&tu->u[k], b, weight, pin)) {
			fail->kind = TA_TIER_FAIL_CLASS;
			fail->tensor = i;
			ret = -EINVAL;
		}
		if (!ret)
			ret = ta_work_add(w, 1);
	}
	/* @of held the unit of each root; now the unit of each buffer */
	for (i = 0; i < n && !ret; i++)
		root[i] = unit_of_root[root[i]];
	if (!ret)
		memcpy(tu->of, root, n * sizeof(*root));
	for (i = 0; i < tu->n && !ret; i++)
		if (tu->u[i].pin == TA_TIER_FAST)
			tu->fast_weight = ta_tier_add(tu->fast_weight,
						      tu->u[i].weight);
free_scratch:
	ta_env_free(wt);
	ta_env_free(root);
	if (ret)
		ta_tier_units_free(tu);
	return ret;
}

void ta_tier_units_free(struct ta_tier_units *tu)
{
	ta_env_free(tu->u);
	ta_env_free(tu->of);
	tu->u = NULL;
	tu->of = NULL;
	tu->n = 0;
}
