// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_plan.c - tactl plan: plan a trace CSV or a graph file offline.
 *
 *	tactl plan FILE [--strategy NAME] [--budget-ms N] [-o PLAN.csv]
 *		   [--svg PLAN.svg] [--json]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "tactl.h"

static void plan_usage(FILE *out)
{
	int s;

	fprintf(out,
		"usage: tactl plan FILE [--strategy NAME] [--budget-ms N] [-o PLAN.csv]\n"
		"                  [--svg PLAN.svg] [--json]\n"
		"\n"
		"Plans a trace CSV (id,lower,upper,size[,alignment]) or a graph file\n"
		"(Documentation/graph-format.md) without the module and prints the\n"
		"height, the lower bound, their ratio, whether the plan is optimal and\n"
		"the planning time.\n"
		"\n"
		"  --strategy NAME  one of:");
	for (s = 0; s < TA_STRATEGY_COUNT; s++)
		fprintf(out, " %s", ta_strategy_name(s));
	fprintf(out, " (default auto)\n"
		"  --budget-ms N    search budget for auto (default: the strategy's)\n"
		"  -o PLAN.csv      write the rows with an offset column ('-': stdout)\n"
		"  --svg PLAN.svg   draw the plan\n"
		"  --json           print the figures as one JSON object\n");
}

static void plan_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void plan_print(const char *file, const struct ta_input *in,
		       int strategy, const struct ta_result *res, bool json)
{
	double ratio = res->lower_bound ?
		(double)res->height / (double)res->lower_bound : 1.0;

	if (json) {
		printf("{\"file\":");
		plan_json_string(file);
		printf(",\"form\":\"%s\",\"buffers\":%u,\"strategy\":\"%s\","
		       "\"height\":%llu,\"lower_bound\":%llu,\"ratio\":%.6f,"
		       "\"optimal\":%s,\"time_ns\":%llu,\"steps\":%llu}\n",
		       in->is_graph ? "graph" : "trace", in->prob.n_buffers,
		       ta_strategy_name(strategy),
		       (unsigned long long)res->height,
		       (unsigned long long)res->lower_bound, ratio,
		       res->optimal ? "true" : "false",
		       (unsigned long long)res->time_ns,
		       (unsigned long long)res->steps);
		return;
	}
	printf("file:        %s (%s, %u buffers)\n", file,
	       in->is_graph ? "graph" : "trace", in->prob.n_buffers);
	printf("strategy:    %s\n", ta_strategy_name(strategy));
	printf("height:      %llu\n", (unsigned long long)res->height);
	printf("lower bound: %llu\n", (unsigned long long)res->lower_bound);
	printf("ratio:       %.6f (+%.3f %%)\n", ratio, (ratio - 1.0) * 100.0);
	printf("optimal:     %s\n", res->optimal ? "yes" : "no");
	printf("time:        %.3f ms\n", (double)res->time_ns / 1e6);
}

static int plan_parse_ms(const char *s, u64 *ns)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v > U64_MAX / 1000000ULL)
		return -EINVAL;
	*ns = v * 1000000ULL;
	return 0;
}

int tactl_cmd_plan(int argc, char **argv)
{
	const char *file = NULL, *out_csv = NULL, *out_svg = NULL;
	struct ta_budget budget = { 0 }, *bp = NULL;
	int strategy = TA_STRATEGY_AUTO, i, ret;
	struct ta_result res;
	struct ta_input in;
	bool json = false;
	char err[512] = "";
	u64 *offsets;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			plan_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--strategy") && more) {
			strategy = ta_strategy_from_name(argv[++i]);
			if (strategy < 0) {
				fprintf(stderr, "tactl plan: unknown strategy '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--budget-ms") && more) {
			if (plan_parse_ms(argv[++i], &budget.time_ns)) {
				fprintf(stderr, "tactl plan: bad budget '%s'\n",
					argv[i]);
				return 2;
			}
			bp = &budget;
		} else if (!strcmp(a, "-o") && more) {
			out_csv = argv[++i];
		} else if (!strcmp(a, "--svg") && more) {
			out_svg = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tactl plan: bad option '%s'\n", a);
			plan_usage(stderr);
			return 2;
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "tactl plan: one FILE only\n");
			return 2;
		}
	}
	if (!file) {
		plan_usage(stderr);
		return 2;
	}

	ret = ta_input_read(file, &in, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tactl plan: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	offsets = calloc(in.prob.n_buffers ? in.prob.n_buffers : 1,
			 sizeof(*offsets));
	if (!offsets) {
		ta_input_free(&in);
		fprintf(stderr, "tactl plan: %s\n", strerror(ENOMEM));
		return 1;
	}
	ret = ta_plan(&in.prob, strategy, bp, offsets, &res);
	if (ret) {
		fprintf(stderr, "tactl plan: %s: planning failed: %s\n", file,
			strerror(-ret));
		goto out;
	}
	plan_print(file, &in, strategy, &res, json);
	if (out_csv) {
		ret = ta_plan_write_csv(out_csv, &in, offsets);
		if (ret) {
			fprintf(stderr, "tactl plan: %s: %s\n", out_csv,
				strerror(-ret));
			goto out;
		}
	}
	if (out_svg) {
		struct ta_svg_info info = {
			.title = file,
			.strategy = ta_strategy_name(strategy),
			.height = res.height,
			.lower_bound = res.lower_bound,
			.time_ns = res.time_ns,
		};

		ret = ta_plan_write_svg(out_svg, &in, offsets, &info);
		if (ret)
			fprintf(stderr, "tactl plan: %s: %s\n", out_svg,
				strerror(-ret));
	}
out:
	free(offsets);
	ta_input_free(&in);
	return ret ? 1 : 0;
}
