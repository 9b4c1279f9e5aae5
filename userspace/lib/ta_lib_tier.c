// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_lib_tier.c - libtensorarena: memory tiers. A graph's per-tensor tier
 * requests (weight, pin), tiered plans in the kernel (the TA_CREATE_TIERED
 * fields of PLAN_CREATE) and in this process (ta_tier_solve(), the same
 * planner), their figures, and the pin failure a caller can read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_client.h"
#include "ta_tier.h"

int ta_graph_set_tensor_tier(struct ta_graph_builder *g, uint32_t tensor,
			     uint64_t weight, uint32_t pin)
{
	struct ta_tensor_tier *n;
	uint32_t cap;

	if (!g || tensor >= g->n_tensors || pin > TA_TIER_SLOW)
		return -EINVAL;
	if (tensor >= g->cap_tiers) {
		cap = g->cap_tiers ? g->cap_tiers : 16;
		while (cap <= tensor)
			cap *= 2;
		n = realloc(g->tiers, (size_t)cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + g->cap_tiers, 0,
		       (size_t)(cap - g->cap_tiers) * sizeof(*n));
		g->tiers = n;
		g->cap_tiers = cap;
	}
	g->tiers[tensor].weight = weight;
	g->tiers[tensor].pin = pin;
	if (tensor >= g->n_tiers)
		g->n_tiers = tensor + 1;
	return 0;
}

bool ta_plan_options_tiered(const struct ta_plan_options *opts)
{
	return opts && (opts->fast_capacity ||
			(opts->flags & TA_CREATE_TIERED));
}

/* One request per tensor: those never set are TA_TIER_ANY, weight 0. */
static struct ta_tensor_tier *ta_graph_tiers(const struct ta_graph_builder *g)
{
	struct ta_tensor_tier *t = calloc(g->n_tensors ? g->n_tensors : 1,
					  sizeof(*t));

	if (t && g->n_tiers)
		memcpy(t, g->tiers, (size_t)g->n_tiers * sizeof(*t));
	return t;
}

int ta_graph_tier_request(const struct ta_graph_builder *g,
			  const struct ta_plan_options *opts,
			  struct ta_plan_create *args,
			  struct ta_tensor_tier **tiers)
{
	*tiers = NULL;
	if (!ta_plan_options_tiered(opts))
		return 0;
	args->flags |= TA_CREATE_TIERED;
	args->fast_capacity = opts->fast_capacity;
	if (!g->n_tiers)
		return 0;	/* every tensor TA_TIER_ANY, default weight */
	*tiers = ta_graph_tiers(g);
	if (!*tiers)
		return -ENOMEM;
	args->tiers = (uintptr_t)*tiers;
	args->tier_size = sizeof(**tiers);
	return 0;
}

void ta_tier_failure_from_create(const struct ta_plan_create *args,
				 struct ta_tier_failure *fail)
{
	if (!fail)
		return;
	memset(fail, 0, sizeof(*fail));
	if (!(args->flags & TA_CREATE_TIERED) || !args->tier_fail_kind)
		return;
	fail->kind = args->tier_fail_kind;
	fail->tensor = args->tier_fail_tensor;
	fail->step = args->tier_fail_step;
	fail->shortfall = args->tier_fail_shortfall;
}

void ta_plan_tiers_from_create(struct ta_plan *p,
			       const struct ta_plan_create *args)
{
	memset(&p->tiers, 0, sizeof(p->tiers));
	if (!(args->flags & TA_CREATE_TIERED))
		return;
	p->tiers.fast_capacity = args->fast_capacity;
	p->tiers.fast_height = args->fast_height;
	p->tiers.n_fast = args->n_fast;
	p->tiers.weight_total = args->weight_total;
	p->tiers.weight_fast = args->weight_fast;
	p->tiers.weight_bound = args->weight_bound;
	p->fast_mmap_offset = args->fast_mmap_offset;
}

void ta_plan_tiers_from_get(struct ta_plan *p, const struct ta_plan_get *g)
{
	memset(&p->tiers, 0, sizeof(p->tiers));
	p->tiers.fast_capacity = g->fast_capacity;
	p->tiers.fast_height = g->fast_height;
	p->tiers.n_fast = g->n_fast;
	p->tiers.weight_total = g->weight_total;
	p->tiers.weight_fast = g->weight_fast;
	p->tiers.weight_bound = g->weight_bound;
	p->fast_mmap_offset = g->fast_mmap_offset;
}

/**
 * struct ta_tier_work - what an offline tiered plan needs, freed together
 * @lp: the builder as a planner problem
 * @weights: per tensor, its weight (the default where the caller gave 0)
 * @pins: per tensor, its pin
 * @tier: out of ta_tier_solve(), per tensor
 * @offsets: out of ta_tier_solve(), per tensor, within its tier
 */
struct ta_tier_work {
	struct ta_lib_problem lp;
	u64 *weights;
	u8 *pins;
	u8 *tier;
	u64 *offsets;
};

static void ta_tier_work_free(struct ta_tier_work *w)
{
	ta_lib_problem_free(&w->lp);
	free(w->weights);
	free(w->pins);
	free(w->tier);
	free(w->offsets);
}

static int ta_tier_work_init(const struct ta_graph_builder *g,
			     struct ta_tier_work *w)
{
	uint32_t i, n = g->n_tensors, m = n ? n : 1;
	int err;

	memset(w, 0, sizeof(*w));
	w->weights = calloc(m, sizeof(*w->weights));
	w->pins = calloc(m, sizeof(*w->pins));
	w->tier = calloc(m, sizeof(*w->tier));
	w->offsets = calloc(m, sizeof(*w->offsets));
	if (!w->weights || !w->pins || !w->tier || !w->offsets)
		return -ENOMEM;
	err = ta_lib_problem(g, &w->lp);
	if (err)
		return err;
	err = ta_tier_weights(&w->lp.prob, w->weights);
	if (err)
		return err;
	for (i = 0; i < g->n_tiers; i++) {
		if (g->tiers[i].weight)
			w->weights[i] = g->tiers[i].weight;
		w->pins[i] = (u8)g->tiers[i].pin;
	}
	return 0;
}

int ta_plan_offline_tiered(const struct ta_graph_builder *g,
			   const struct ta_plan_options *opts,
			   struct ta_tier_failure *fail, struct ta_plan **out)
{
	struct ta_tier_request rq = { 0 };
	struct ta_budget budget = { 0 };
	struct ta_tier_result res;
	struct ta_tier_work w;
	struct ta_plan *p = NULL;
	uint32_t i;
	int err;

	if (fail)
		memset(fail, 0, sizeof(*fail));
	if (!opts || !opts->fast_capacity ||
	    (opts->flags & ~(TA_CREATE_DRY_RUN | TA_CREATE_TIERED)))
		return -EINVAL;
	budget.time_ns = opts->budget_ns;
	budget.steps = opts->budget_steps;
	err = ta_tier_work_init(g, &w);
	if (err)
		goto out;
	rq.capacity = opts->fast_capacity;
	rq.weights = w.weights;
	rq.pins = w.pins;
	rq.fast_strategy = opts->strategy;
	rq.slow_strategy = opts->strategy;
	memset(&res, 0, sizeof(res));
	err = ta_tier_solve(&w.lp.prob, &rq, &budget, w.tier, w.offsets, &res);
	if (err) {
		if (fail && res.fail.kind) {
			fail->kind = res.fail.kind;
			fail->tensor = res.fail.tensor;
			fail->step = res.fail.step;
			fail->shortfall = res.fail.shortfall;
		}
		goto out;
	}
	err = -ENOMEM;
	p = ta_plan_alloc(g->n_tensors);
	if (!p)
		goto out;
	for (i = 0; i < g->n_tensors; i++) {
		p->placements[i].offset = w.offsets[i];
		p->placements[i].size = w.lp.buffers[i].size;
		p->placements[i].tier = w.tier[i];
	}
	p->strategy = opts->strategy;
	p->optimal = res.slow.optimal;
	p->height = res.slow.height;
	p->lower_bound = res.slow.lower_bound;
	p->time_ns = res.time_ns;
	p->tiers.fast_capacity = opts->fast_capacity;
	p->tiers.fast_height = res.fast.height;
	p->tiers.n_fast = res.n_fast;
	p->tiers.weight_total = res.weight_total;
	p->tiers.weight_fast = res.weight_fast;
	p->tiers.weight_bound = res.weight_bound;
	*out = p;
	err = 0;
out:
	ta_tier_work_free(&w);
	return err;
}

void ta_plan_tiers(const struct ta_plan *p, struct ta_plan_tiers *t)
{
	*t = p->tiers;
}

uint32_t ta_plan_tensor_tier(const struct ta_plan *p, uint32_t tensor)
{
	if (tensor >= p->n_tensors)
		return 0;
	/* a kernel without tiers leaves 0: its arena is the slow tier */
	return p->placements[tensor].tier == TA_TIER_FAST ? TA_TIER_FAST :
	       TA_TIER_SLOW;
}
