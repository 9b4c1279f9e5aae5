// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench_group.c - ta_bench --groups: pipelines of the shared models
 * planned as groups (module/planner/ta_group.h) against the same models
 * planned one by one.
 *
 *	ta_bench --groups [MODELS_DIR] [--budget-ms N] [--strategy NAME]
 *
 * MODELS_DIR (default /work/shared/models) holds the TFLite models. Each
 * model is read without its constants (as tactl plan --no-constants) and
 * planned alone with the strategy (default auto) and budget (default
 * 1000 ms per model, and per group); then every pipeline is planned as one
 * group, its members in lane 0 one after another, and the members marked
 * "beside" in a lane of their own (run at the same time as the others). The table gives the
 * sum of the separate plans, the group's height, its lower bound, the
 * largest member alone, and the group's planning time; every group plan
 * is checked with ta_group_check(). Exit status 1 when one fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_group.h"

int ta_bench_group(int argc, char **argv);

#define BG_MAX_MEMBERS	8
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct bg_model {
	const char *file;
	const char *name;
	struct ta_input in;
	u64 height;
	bool loaded;
};

static struct bg_model bg_models[] = {
	{ .file = "person_detect_mobilenetv1_i8.tflite",
	  .name = "person_detect" },
	{ .file = "movenet_lightning_i8.tflite", .name = "movenet" },
	{ .file = "mobilenet_v2_1.0_224_u8.tflite", .name = "mobilenet_v2" },
	{ .file = "deeplabv3_mnv2_dm05_u8.tflite", .name = "deeplabv3" },
	{ .file = "kws_dscnn_i8.tflite", .name = "kws_dscnn" },
};

/* A pipeline: model indices; a lane per member. */
struct bg_pipeline {
	u32 n;
	u32 model[BG_MAX_MEMBERS];
	u32 lane[BG_MAX_MEMBERS];
};

static const struct bg_pipeline bg_pipelines[] = {
	{ 3, { 0, 1, 2 }, { 0, 0, 0 } },
	{ 4, { 0, 1, 2, 3 }, { 0, 0, 0, 0 } },
	{ 4, { 4, 0, 1, 2 }, { 1, 0, 0, 0 } },
	{ 2, { 4, 3 }, { 1, 0 } },
};

static int bg_load(const char *dir, struct bg_model *m, u32 strategy,
		   const struct ta_budget *budget)
{
	char path[4096], err[256] = "";
	struct ta_result res;
	u64 *off;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, m->file);
	ret = ta_input_read(path, &m->in, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ta_bench --groups: %s: %s\n", path,
			err[0] ? err : strerror(-ret));
		return ret;
	}
	ret = ta_input_drop_constants(&m->in);
	if (ret) {
		fprintf(stderr, "ta_bench --groups: %s: --no-constants: %s\n",
			path, strerror(-ret));
		ta_input_free(&m->in);
		return ret;
	}
	off = calloc(m->in.prob.n_buffers + 1, sizeof(*off));
	if (!off) {
		ta_input_free(&m->in);
		return -ENOMEM;
	}
	ret = ta_plan_solve(&m->in.prob, strategy, budget, off, &res);
	free(off);
	if (ret) {
		fprintf(stderr, "ta_bench --groups: %s: %s\n", m->name,
			strerror(-ret));
		ta_input_free(&m->in);
		return ret;
	}
	m->height = res.height;
	m->loaded = true;
	return 0;
}

static void bg_name(const struct bg_pipeline *pl, char *buf, size_t len)
{
	size_t at = 0;
	u32 i;

	buf[0] = 0;
	for (i = 0; i < pl->n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%s%s", i ? " + " : "",
			       bg_models[pl->model[i]].name,
			       pl->lane[i] ? " (beside)" : "");
}

/* Plan one pipeline as a group; print its row. Return: 0 or 1. */
static int bg_run(const struct bg_pipeline *pl, u32 strategy,
		  const struct ta_budget *budget)
{
	struct ta_group_member_problem mp[BG_MAX_MEMBERS];
	struct ta_group_problem gp = { .n_members = pl->n, .members = mp };
	struct ta_group_result res;
	struct ta_conflict c;
	u64 sum = 0, largest = 0, *off;
	char name[256];
	u32 i;
	int ret;

	for (i = 0; i < pl->n; i++) {
		struct bg_model *m = &bg_models[pl->model[i]];

		if (!m->loaded)
			return 0;	/* said when loading */
		mp[i].problem = m->in.prob;
		mp[i].lane = pl->lane[i];
		sum += m->height;
		largest = m->height > largest ? m->height : largest;
	}
	bg_name(pl, name, sizeof(name));
	off = calloc(ta_group_tensor_count(&gp) + 1, sizeof(*off));
	if (!off)
		return 1;
	ret = ta_group_solve(&gp, strategy, budget, off, &res);
	if (!ret)
		ret = ta_group_check(&gp, off, res.height, &c);
	free(off);
	if (ret) {
		printf("| %s | %llu | FAILED: %s | | | |\n", name,
		       (unsigned long long)sum, strerror(-ret));
		return 1;
	}
	printf("| %s | %llu | %llu | %llu | %llu | %.1f | %.0f %% |\n", name,
	       (unsigned long long)sum, (unsigned long long)res.height,
	       (unsigned long long)res.lower_bound,
	       (unsigned long long)largest, res.time_ns / 1e6,
	       100.0 * (1.0 - (double)res.height / (double)sum));
	return 0;
}

int ta_bench_group(int argc, char **argv)
{
	struct ta_budget budget = { .time_ns = 1000000000ULL };
	const char *dir = "/work/shared/models";
	int strategy = TA_STRATEGY_AUTO, failed = 0, i;
	size_t k;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc) {
			budget.time_ns = strtoull(argv[++i], NULL, 10) * 1000000ULL;
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			strategy = ta_strategy_from_name(argv[++i]);
			if (strategy < 0) {
				fprintf(stderr, "ta_bench --groups: bad strategy %s\n",
					argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-') {
			dir = argv[i];
		} else {
			printf("usage: ta_bench --groups [MODELS_DIR] [--budget-ms N]\n"
			       "                        [--strategy NAME]\n");
			return argv[i][1] == 'h' ? 0 : 2;
		}
	}
	for (k = 0; k < ARRAY_SIZE(bg_models); k++)
		failed |= !!bg_load(dir, &bg_models[k], strategy, &budget);
	printf("\nPipelines as groups (%s, --no-constants, %llu ms budget;\n"
	       "\"beside\": a lane of its own, run at the same time as the others)\n\n",
	       ta_strategy_name(strategy),
	       (unsigned long long)(budget.time_ns / 1000000ULL));
	printf("| pipeline | sum of separate plans | group height | lower bound |"
	       " largest member | plan ms | saved |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|\n");
	for (k = 0; k < ARRAY_SIZE(bg_pipelines); k++)
		failed |= bg_run(&bg_pipelines[k], strategy, &budget);
	for (k = 0; k < ARRAY_SIZE(bg_models); k++)
		if (bg_models[k].loaded)
			ta_input_free(&bg_models[k].in);
	return failed;
}
