// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_models.c - ta_e2e_npu's runs of the models: each model given
 * on plans of every strategy, bit for bit with the reference, whole and op
 * by op, by handle and by plan ID (npu.models); or on plans made wrong
 * through the test hook, which the comparison must catch (npu.corrupt,
 * --corrupt: each model on one strategy, the strategies in turn). Then
 * npu.end. This file is linked last: its tests run after the others.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_e2e_npu.h"

NPU_FIXTURE

/* One plan of @strategy, run as planned: every check must pass. */
static uint64_t test_plan(int ta, int npu, struct model *m, uint32_t strategy,
			  const struct options *o, uint64_t *lb)
{
	const char *sn = strategy_names[strategy];
	uint64_t height;
	struct plan p;
	uint32_t step = 0;
	int64_t bad = -1;
	double secs = 0;
	int ret;

	ret = plan_create(ta, m, strategy, &p);
	if (ret) {
		CHECK(false, "npu %s %s: plan: %s", m->name, sn,
		      strerror(-ret));
		plan_destroy(ta, &p);
		return 0;
	}
	height = p.create.height;
	*lb = p.create.lower_bound;
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	CHECK(!ret && bad < 0,
	      "npu %s %s: bit for bit with the reference (height %llu, %u tensors, %u ops, %.2f s)%s",
	      m->name, sn, (unsigned long long)height, m->n_tensors,
	      m->n_ops, secs, ret ? ": run failed" :
	      bad < 0 ? "" : ": a tensor differs");
	if (bad >= 0)
		printf("# first difference: tensor %lld\n", (long long)bad);
	if (o->steps) {
		ret = run_steps(npu, m, &p, &bad, &step);
		CHECK(!ret && bad < 0,
		      "npu %s %s op by op: every live tensor matches after each of %u ops%s",
		      m->name, sn, m->n_ops, ret ? ": run failed" :
		      bad < 0 ? "" : ": mismatch");
	}
	if (o->plan_id && strategy == TA_STRATEGY_AUTO) {
		ret = run_whole(npu, m, &p, true, &bad, &secs);
		CHECK(!ret && bad < 0,
		      "npu %s %s by plan ID (kernel API): bit for bit%s",
		      m->name, sn, ret ? ": run failed" : "");
	}
	plan_destroy(ta, &p);
	return height;
}

/*
 * Plans of @strategy made wrong through the test hook: the comparison must
 * fail. Whole run: a tensor moved onto one still needed after the op that
 * writes it. Op by op (--steps): an op's output moved onto its own input.
 */
static void test_corrupt_plan(int ta, int npu, struct model *m,
			      uint32_t strategy, const struct options *o)
{
	const char *sn = strategy_names[strategy];
	uint32_t a, b, k, step = 0;
	struct plan p;
	int64_t bad = -1;
	double secs;
	int ret;

	ret = plan_create(ta, m, strategy, &p);
	if (!ret)
		ret = pick_corruption(m, &p, &a, &b) ? 0 : -ESRCH;
	if (!ret)
		ret = corrupt(m, &p, ta, a, b);
	if (!ret)
		ret = run_whole(npu, m, &p, false, &bad, &secs);
	if (ret)
		CHECK(false, "npu %s %s: corrupted plan: %s", m->name, sn,
		      strerror(-ret));
	else
		CHECK(bad >= 0,
		      "npu %s %s: tensor %u moved onto live %s %u: the comparison fails (first at tensor %lld)",
		      m->name, sn, a,
		      is_initial(m, b) ? "input/constant" : "activation", b,
		      (long long)bad);
	plan_destroy(ta, &p);
	if (!o->steps)
		return;

	ret = plan_create(ta, m, strategy, &p);
	if (!ret)
		ret = pick_inplace(m, &p, &a, &b, &k) ? 0 : -ESRCH;
	if (!ret)
		ret = corrupt(m, &p, ta, a, b);
	if (!ret)
		ret = run_steps(npu, m, &p, &bad, &step);
	if (ret)
		CHECK(false, "npu %s %s op by op: corrupted plan: %s", m->name,
		      sn, strerror(-ret));
	else
		CHECK(bad >= 0 && step == k,
		      "npu %s %s op by op: output %u of op %u moved onto its input %u is caught at op %u (tensor %lld)",
		      m->name, sn, a, k, b, step, (long long)bad);
	plan_destroy(ta, &p);
}


#define N_STRATEGIES (sizeof(strategies) / sizeof(strategies[0]))

static void test_model(int ta, int npu, struct model *m,
		       const struct options *o)
{
	uint64_t heights[N_STRATEGIES] = { 0 }, lb = 0;
	size_t s;

	for (s = 0; s < N_STRATEGIES; s++)
		heights[s] = test_plan(ta, npu, m, strategies[s], o, &lb);
	if (o->table) {
		/* model tensors ops naive lower-bound pingpong stack freelist greedy auto */
		printf("npu-table: %s %u %u %llu %llu", m->name, m->n_tensors,
		       m->n_ops, (unsigned long long)m->info.naive_bytes,
		       (unsigned long long)lb);
		for (s = 0; s < 5; s++)
			printf(" %llu", (unsigned long long)heights[s]);
		printf("\n");
	}
}

static void test_models(int ta, int npu, bool corrupt)
{
	struct options o = opts;
	int i, corrupted = 0;

	o.corrupt = corrupt;
	for (i = 0; i < n_models; i++) {
		if (!corrupt) {
			test_model(ta, npu, &models[i], &o);
			continue;
		}
		/*
		 * What is proven (the comparison catches a moved tensor) does
		 * not depend on the strategy that made the plan: each model
		 * on one, in turn, so that every strategy's plans are made
		 * wrong once the models outnumber them (a tenth of the debug
		 * VM's time went to every model on every strategy).
		 */
		test_corrupt_plan(ta, npu, &models[i],
				  strategies[i % N_STRATEGIES], &o);
		corrupted++;
	}
	if (corrupt)
		CHECK(corrupted == n_models && n_models >= (int)N_STRATEGIES,
		      "npu corrupt: %d of %d models made wrong, the %zu strategies in turn",
		      corrupted, n_models, N_STRATEGIES);
}

TEST_F(npu, models)
{
	test_models(self->ta, self->npu, false);
}

TEST_F(npu, corrupt)
{
	test_models(self->ta, self->npu, true);
}

/* Every model given was read, and no test left memory in the arena. */
TEST_F(npu, end)
{
	int i;

	for (i = 0; i < n_not_loaded; i++)
		CHECK(false, "npu: import %s", not_loaded[i]);
	/*
	 * Every model given was run, and there was one at least: an empty
	 * list (a glob or a filter that matched nothing) tested nothing.
	 */
	CHECK(n_models > 0 && n_models == n_given,
	      "npu: %d of the %d models given ran", n_models, n_given);
	CHECK(bytes_in_use(self->ta) == 0, "npu: every plan's memory returned");
}

