// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_dominance.c - auto is never beaten by a single strategy.
 *
 * Every model of ../shared/models (TFLite and ONNX, TA_SHARED overrides the
 * directory) and every trace of ../shared/bench/traces is planned with
 * every strategy; auto's height must be at most the lowest of theirs, and
 * every plan valid. auto runs with a step budget, not a time budget, so the
 * result does not depend on the machine's load: the property holds for any
 * budget, because auto always runs the other strategies.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_strategy.h"
#include "ta_test.h"

const char *ta_test_shared_dir(void);

/* 0: dominated; 1: a failure (printed). */
static int dominance_check(const char *name, const struct ta_problem *p)
{
	struct ta_budget budget = { .steps = 5000 };
	u64 *off = calloc(p->n_buffers + 1, sizeof(*off)), best = U64_MAX;
	struct ta_result res;
	int s, ret, rival = -1;

	TA_CHECK(off, "oom");
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		if (s == TA_STRATEGY_AUTO || s == TA_STRATEGY_FIXED)
			continue;
		/* stack plans with greedy-size there: no rival of its own */
		if (s == TA_STRATEGY_STACK &&
		    p->n_buffers > TA_STACK_MAX_GREEDY)
			continue;
		ret = ta_plan(p, s, &budget, off, &res);
		if (!ret)
			ret = ta_plan_validate(p, off, res.height);
		if (ret)
			free(off);
		TA_CHECK(!ret, "%s: %s: %d", name, ta_strategy_name(s), ret);
		if (res.height < best) {
			best = res.height;
			rival = s;
		}
	}
	ret = ta_plan(p, TA_STRATEGY_AUTO, &budget, off, &res);
	if (!ret)
		ret = ta_plan_validate(p, off, res.height);
	free(off);
	TA_CHECK(!ret, "%s: auto: %d", name, ret);
	TA_CHECK(res.height <= best, "%s: auto %llu, %s %llu", name,
		 (unsigned long long)res.height, ta_strategy_name(rival),
		 (unsigned long long)best);
	return 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t l = strlen(s), k = strlen(suffix);

	return l > k && !strcmp(s + l - k, suffix);
}

static int t_models(void)
{
	const char *dir = ta_test_shared_dir();
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0, failed = 0;

	TA_CHECK(d, "%s: %s (set TA_SHARED)", dir, strerror(errno));
	while ((e = readdir(d)) && !failed) {
		char path[1200], err[512] = "";
		struct ta_input in;
		int ret;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (has_suffix(e->d_name, ".tflite"))
			ret = ta_tflite_read(path, &in, NULL, err, sizeof(err));
		else if (has_suffix(e->d_name, ".onnx"))
			ret = ta_onnx_read(path, &in, NULL, err, sizeof(err));
		else
			continue;
		if (ret) {
			printf("# %s\n", err);
			failed = 1;
			break;
		}
		found++;
		failed = dominance_check(e->d_name, &in.prob);
		ta_input_free(&in);
	}
	closedir(d);
	TA_CHECK(!failed, "see above");
	TA_CHECK(found >= 10, "%d models in %s", found, dir);
	return 0;
}

static int t_traces(void)
{
	static const char *const kinds[] = { "challenging", "synthetic",
					     "real" };
	const char *models = ta_test_shared_dir();
	int found = 0, failed = 0;
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && !failed; k++) {
		char dir[1200];
		struct dirent *e;
		DIR *d;

		/* the traces sit next to the models: ../shared/bench */
		snprintf(dir, sizeof(dir), "%s/../bench/traces/%s", models,
			 kinds[k]);
		d = opendir(dir);
		TA_CHECK(d, "%s: %s", dir, strerror(errno));
		while ((e = readdir(d)) && !failed) {
			char path[1500], err[512] = "";
			struct ta_input in;

			if (!has_suffix(e->d_name, ".csv"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (ta_trace_read(path, &in, err, sizeof(err))) {
				printf("# %s\n", err);
				failed = 1;
				break;
			}
			found++;
			failed = dominance_check(e->d_name, &in.prob);
			ta_input_free(&in);
		}
		closedir(d);
	}
	TA_CHECK(!failed, "see above");
	TA_CHECK(found >= 46, "%d traces", found);
	return 0;
}

const struct ta_test ta_dominance_tests[] = {
	{ "dominance: auto never above a single strategy, shared models",
	  t_models },
	{ "dominance: auto never above a single strategy, bench traces",
	  t_traces },
	{ NULL, NULL },
};
