// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench - plan every trace of a bench folder with every strategy and
 * print one table: height / lower bound and planning time per strategy,
 * beside reference.csv's best-known and greedy-by-size heights.
 *
 *	ta_bench [BENCH_DIR] [--budget-ms N] [--strategy NAME]...
 *
 * BENCH_DIR (default /work/shared/bench) holds the CSV files under
 * traces/GROUP/ and reference.csv. The budget (default 1000 ms) is what
 * auto and stack may spend per trace. Every plan is checked with
 * ta_plan_validate().
 *
 *	ta_bench --worst [...]
 *
 * times every strategy on the worst-case inputs instead (ta_bench_worst.c).
 *
 *	ta_bench --groups [MODELS_DIR] [...]
 *
 * plans pipelines of the shared models as groups (ta_bench_group.c).
 *
 *	ta_bench --scale [BENCH_DIR] [...]
 *
 * prints the scaling and budget tables (ta_bench_scale.c).
 *
 *	ta_bench --tier [...]
 *
 * plans random traces with a fast tier against the exhaustive optimum
 * (ta_bench_tier.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"

int ta_bench_worst(int argc, char **argv);
int ta_bench_group(int argc, char **argv);
int ta_bench_scale(int argc, char **argv);
int ta_bench_tier(int argc, char **argv);

#define MAX_TRACES	256
#define MAX_REF		256

struct ref {
	char trace[128];
	u64 lower_bound, best_known, greedy;
	double best_s;
};

struct stat_acc {
	int runs, at_best, at_lb, failed;
	double worst_vs_best, total_ms, max_ms, sum_vs_lb;
	const char *worst_trace;
};

static struct ref refs[MAX_REF];
static int n_refs;

static u64 field_u64(const char *s)
{
	return *s ? strtoull(s, NULL, 10) : 0;
}

static void read_reference(const char *dir)
{
	char path[4096], *data, *p, *line;

	snprintf(path, sizeof(path), "%s/reference.csv", dir);
	data = ta_slurp(path, NULL);
	if (!data) {
		fprintf(stderr, "ta_bench: %s: %s (no reference figures)\n",
			path, strerror(errno));
		return;
	}
	p = data;
	ta_next_line(&p);	/* header */
	while ((line = ta_next_line(&p)) && n_refs < MAX_REF) {
		char *f[6] = { 0 };
		int k = 0;

		f[k++] = line;
		for (char *c = line; *c && k < 6; c++)
			if (*c == ',') {
				*c = 0;
				f[k++] = c + 1;
			}
		if (k < 6)
			continue;
		snprintf(refs[n_refs].trace, sizeof(refs[n_refs].trace), "%s",
			 f[0]);
		refs[n_refs].lower_bound = field_u64(f[2]);
		refs[n_refs].best_known = field_u64(f[3]);
		refs[n_refs].best_s = *f[4] ? strtod(f[4], NULL) : -1;
		refs[n_refs].greedy = field_u64(f[5]);
		n_refs++;
	}
	free(data);
}

static const struct ref *find_ref(const char *trace)
{
	int i;

	for (i = 0; i < n_refs; i++)
		if (!strcmp(refs[i].trace, trace))
			return &refs[i];
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "group/name.csv" for every CSV under dir/traces/<group>/, sorted. */
static int list_traces(const char *dir, char **out)
{
	static const char *const groups[] = { "challenging", "synthetic",
					      "real", "perfect", "cut",
					      "skewed", "pinwheel" };
	char path[4096];
	int n = 0;
	size_t g;

	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		DIR *d;
		struct dirent *e;
		int first = n;

		snprintf(path, sizeof(path), "%s/traces/%s", dir, groups[g]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d)) && n < MAX_TRACES) {
			size_t l = strlen(e->d_name);

			if (l < 5 || strcmp(e->d_name + l - 4, ".csv"))
				continue;
			out[n] = malloc(strlen(groups[g]) + l + 2);
			if (!out[n])
				break;
			sprintf(out[n], "%s/%s", groups[g], e->d_name);
			n++;
		}
		closedir(d);
		qsort(out + first, n - first, sizeof(*out), cmp_str);
	}
	return n;
}

static void print_ratio(u64 h, u64 lb)
{
	if (!h || !lb)
		printf(" %8s", "-");
	else
		printf(" %8.4f", (double)h / (double)lb);
}

int main(int argc, char **argv)
{
	const char *dir = "/work/shared/bench";
	int strategies[TA_STRATEGY_COUNT], n_strat = 0, i, s, n;
	static const int default_order[] = {
		TA_STRATEGY_GREEDY_SIZE, TA_STRATEGY_FREELIST,
		TA_STRATEGY_PINGPONG, TA_STRATEGY_STACK, TA_STRATEGY_AUTO,
	};
	struct stat_acc acc[TA_STRATEGY_COUNT] = { 0 };
	struct ta_budget budget = { .time_ns = 1000000000ULL };
	char *traces[MAX_TRACES];
	int failures = 0;

	if (argc > 1 && !strcmp(argv[1], "--worst"))
		return ta_bench_worst(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--groups"))
		return ta_bench_group(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--scale"))
		return ta_bench_scale(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--tier"))
		return ta_bench_tier(argc - 1, argv + 1);

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc) {
			budget.time_ns = strtoull(argv[++i], NULL, 10) * 1000000ULL;
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			s = ta_strategy_from_name(argv[++i]);
			if (s < 0 || n_strat == TA_STRATEGY_COUNT) {
				fprintf(stderr, "ta_bench: bad strategy %s\n",
					argv[i]);
				return 2;
			}
			strategies[n_strat++] = s;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ta_bench [BENCH_DIR] [--budget-ms N] [--strategy NAME]...\n");
			return 0;
		} else {
			dir = argv[i];
		}
	}
	if (!n_strat)
		for (i = 0; i < TA_STRATEGY_COUNT; i++)
			strategies[n_strat++] = default_order[i];

	read_reference(dir);
	n = list_traces(dir, traces);
	if (!n) {
		fprintf(stderr, "ta_bench: no traces under %s/traces\n", dir);
		return 1;
	}
	printf("ta_bench: %d traces under %s/traces, budget %llu ms for auto and stack\n",
	       n, dir, (unsigned long long)(budget.time_ns / 1000000ULL));
	printf("columns: height / lower bound (* = proven optimal, ! = invalid or failed), planning ms\n\n");
	printf("%-30s %6s %8s %8s", "trace", "n", "best/lb", "gbs/lb");
	for (s = 0; s < n_strat; s++)
		printf(" | %-18s", ta_strategy_name(strategies[s]));
	printf("\n");

	for (i = 0; i < n; i++) {
		const struct ref *r = find_ref(traces[i]);
		char path[4096], err[512] = "";
		struct ta_input in;
		u64 *off;
		u64 lb;

		snprintf(path, sizeof(path), "%s/traces/%s", dir, traces[i]);
		if (ta_input_read(path, &in, err, sizeof(err))) {
			printf("%-30s %s\n", traces[i], err);
			failures++;
			continue;
		}
		off = calloc(in.prob.n_buffers + 1, sizeof(*off));
		if (!off || ta_problem_lower_bound(&in.prob, &lb)) {
			printf("%-30s cannot plan\n", traces[i]);
			failures++;
			free(off);
			ta_input_free(&in);
			continue;
		}
		printf("%-30s %6u", traces[i], in.prob.n_buffers);
		print_ratio(r ? r->best_known : 0, lb);
		print_ratio(r ? r->greedy : 0, lb);
		for (s = 0; s < n_strat; s++) {
			int st = strategies[s];
			struct ta_result res;
			int ret = ta_plan_solve(&in.prob, st, &budget, off, &res);
			struct stat_acc *a = &acc[st];
			double ms = res.time_ns / 1e6;

			a->runs++;
			if (ret || ta_plan_validate(&in.prob, off, res.height)) {
				printf(" | %-18s", "! failed");
				a->failed++;
				failures++;
				continue;
			}
			printf(" | %8.4f%c %8.1f", (double)res.height / (double)lb,
			       res.optimal ? '*' : ' ', ms);
			a->total_ms += ms;
			a->sum_vs_lb += (double)res.height / (double)lb;
			if (ms > a->max_ms)
				a->max_ms = ms;
			if (res.height == lb)
				a->at_lb++;
			if (r && r->best_known) {
				double v = (double)res.height / (double)r->best_known;

				if (res.height <= r->best_known)
					a->at_best++;
				if (v > a->worst_vs_best) {
					a->worst_vs_best = v;
					a->worst_trace = traces[i];
				}
			}
		}
		printf("\n");
		fflush(stdout);
		free(off);
		ta_input_free(&in);
	}

	printf("\n%-12s %10s %10s %10s %8s %12s %12s  %s\n", "strategy",
	       "at best", "at lb", "mean h/lb", "failed", "total ms", "max ms",
	       "worst height/best_known");
	for (s = 0; s < n_strat; s++) {
		const struct stat_acc *a = &acc[strategies[s]];
		int ok = a->runs - a->failed;

		printf("%-12s %6d/%-3d %6d/%-3d %10.4f %8d %12.1f %12.1f  %.4f %s\n",
		       ta_strategy_name(strategies[s]), a->at_best, a->runs,
		       a->at_lb, a->runs, ok ? a->sum_vs_lb / ok : 0.0,
		       a->failed, a->total_ms, a->max_ms, a->worst_vs_best,
		       a->worst_trace ? a->worst_trace : "");
	}
	for (i = 0; i < n; i++)
		free(traces[i]);
	return failures ? 1 : 0;
}
