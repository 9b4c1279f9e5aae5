// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench_worst.c - `ta_bench --worst`: time every strategy on the
 * worst-case inputs of ta_worst.c, in userspace.
 *
 *	ta_bench --worst [--budget-ms N] [--limit-ms N] [--cap-s N] [--div N]
 *			 [--shape NAME] [--strategy NAME]
 *
 * Each (shape, strategy) runs in a child process that derives the
 * lifetimes and calls ta_plan_solve(), as the module does for a graph; the child
 * is killed after --cap-s seconds (default 30), so code without a deadline
 * (the planner before issue #9: see worst-before.sh) can be measured too.
 * --budget-ms is &ta_budget.time_ns (default 1000), --limit-ms its limit_ns
 * (default 0: none). One line per run:
 *
 *	worst SHAPE STRATEGY MS RESULT
 *
 * RESULT is "ok height=H", an errno name, or "killed" when the cap hit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ta_planner.h"
#include "ta_worst.h"

int ta_bench_worst(int argc, char **argv);

static double ta_bw_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *ta_bw_errname(int e)
{
	switch (e) {
	case -EINVAL: return "-EINVAL";
	case -E2BIG: return "-E2BIG";
	case -EOVERFLOW: return "-EOVERFLOW";
	case -ENOMEM: return "-ENOMEM";
	case -EINTR: return "-EINTR";
	case -ETIMEDOUT: return "-ETIMEDOUT";
	default: return "-E?";
	}
}

struct ta_bw_out {
	int ret;
	int valid;
	unsigned long long height;
};

/* In the child: what the module does with a graph. */
static void ta_bw_child(const struct ta_worst *w, int s,
			const struct ta_budget *budget, int fd)
{
	struct ta_bw_out o = { 0 };
	struct ta_buffer *b;
	struct ta_problem p = { 0 };
	struct ta_result res;
	u64 *off;
	u32 n = w->graph.n_tensors;

	b = calloc(n ? n : 1, sizeof(*b));
	off = calloc(n ? n : 1, sizeof(*off));
	if (!b || !off) {
		o.ret = -ENOMEM;
	} else {
		o.ret = ta_graph_lifetimes(&w->graph, b);
		if (!o.ret) {
			p.n_buffers = n;
			p.buffers = b;
			p.graph = &w->graph;
			o.ret = ta_plan_solve(&p, s, budget, off, &res);
		}
		if (!o.ret) {
			o.height = res.height;
			o.valid = !ta_plan_validate(&p, off, res.height);
		}
	}
	if (write(fd, &o, sizeof(o)) != sizeof(o))
		_exit(2);
	_exit(0);
}

static void ta_bw_run(const struct ta_worst *w, int s,
		      const struct ta_budget *budget, unsigned int cap_s)
{
	struct ta_bw_out o;
	int fd[2], status;
	double t0, ms;
	pid_t pid;
	ssize_t got;

	if (pipe(fd)) {
		perror("pipe");
		return;
	}
	fflush(stdout);
	t0 = ta_bw_now_ms();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return;
	}
	if (!pid) {
		close(fd[0]);
		alarm(cap_s);
		ta_bw_child(w, s, budget, fd[1]);
	}
	close(fd[1]);
	got = read(fd[0], &o, sizeof(o));
	waitpid(pid, &status, 0);
	ms = ta_bw_now_ms() - t0;
	close(fd[0]);
	printf("worst %-8s %-11s %9.1f ", w->name, ta_strategy_name(s), ms);
	if (got != sizeof(o) || !WIFEXITED(status))
		printf("killed (cap %u s)\n", cap_s);
	else if (o.ret)
		printf("%s%s\n", ta_bw_errname(o.ret),
		       o.ret == w->expect ? " (expected)" : "");
	else
		printf("ok height=%llu%s\n", o.height,
		       o.valid ? "" : " INVALID PLAN");
}

int ta_bench_worst(int argc, char **argv)
{
	struct ta_budget budget = { .time_ns = 1000000000ULL };
	const char *only_shape = NULL;
	unsigned int cap_s = 30, div = 1;
	int only_s = -1, i, s;

	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "ta_bench --worst: %s needs a value\n",
				argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "--budget-ms"))
			budget.time_ns = strtoull(v, NULL, 0) * 1000000ULL;
#ifndef TA_BENCH_OLD
		else if (!strcmp(argv[i], "--limit-ms"))
			budget.limit_ns = strtoull(v, NULL, 0) * 1000000ULL;
#endif
		else if (!strcmp(argv[i], "--cap-s"))
			cap_s = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--div"))
			div = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--shape"))
			only_shape = v;
		else if (!strcmp(argv[i], "--strategy"))
			only_s = ta_strategy_from_name(v);
		else {
			fprintf(stderr, "ta_bench --worst: unknown %s\n",
				argv[i]);
			return 2;
		}
		i++;
	}
	printf("# worst-case inputs (userspace, one run each, killed after %u s)\n",
	       cap_s);
	printf("# budget %llu ms", (unsigned long long)(budget.time_ns / 1000000));
#ifndef TA_BENCH_OLD
	printf(", limit %llu ms", (unsigned long long)(budget.limit_ns / 1000000));
#else
	printf(", planner without limit_ns");
#endif
	printf("\n# worst SHAPE STRATEGY MS RESULT\n");
	for (i = 0; i < ta_worst_count(); i++) {
		struct ta_worst w;
		int ret;

		if (only_shape && strcmp(only_shape, ta_worst_name(i)))
			continue;
		ret = ta_worst_make(i, div, &w);
		if (ret) {
			fprintf(stderr, "ta_bench: %s: %s\n", ta_worst_name(i),
				strerror(-ret));
			return 1;
		}
		printf("# %s: %u tensors, %u ops, %u refs: %s\n", w.name,
		       w.graph.n_tensors, w.graph.n_ops, w.graph.n_refs,
		       w.what);
		for (s = 0; s < TA_STRATEGY_COUNT; s++)
			if (only_s < 0 || only_s == s)
				ta_bw_run(&w, s, &budget, cap_s);
		ta_worst_free(&w);
	}
	return 0;
}

#ifdef TA_BENCH_WORST_MAIN
/* worst-before.sh builds this file alone against an older planner. */
int main(int argc, char **argv)
{
	return ta_bench_worst(argc, argv);
}
#endif
