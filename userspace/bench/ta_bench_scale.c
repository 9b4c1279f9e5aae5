// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench_scale.c - `ta_bench --scale`: how planning time and memory grow
 * with the number of buffers, and whether auto keeps its budget.
 *
 *	ta_bench --scale [BENCH_DIR] [--trace PATH] [--max-log2 N]
 *			 [--cap-s N] [--rounds N] [--strategy NAME]
 *
 * The inputs are one real trace (default BENCH_DIR/traces/real/Y_1.csv,
 * 62,185 buffers) replicated in time: copy c is the trace shifted past the
 * end of copy c - 1, and the first N buffers by start are kept, so every
 * size is a prefix in time of one long run of the same network.
 *
 * Two tables, each run in a child process (killed after --cap-s seconds,
 * default 60) so that peak memory is that run's alone:
 *
 *	scale STRATEGY N MS CPU_MS RSS_B/BUF SLOPE HEIGHT
 *
 * for greedy-size, freelist, auto (--budget-ms 1000) and fixed (freelist's
 * plan, made first and not timed, given back as a fixed plan: what the
 * check of an external plan costs) at 2^16, 2^18 and 2^20 buffers, each
 * run --rounds times: wall time of ta_plan_solve() and
 * the CPU time its process spent in it (user and system: what the host's
 * other work does not add to, though it still slows it), each the fastest
 * of the rounds; the peak resident memory it added over the input (VmHWM
 * after minus VmRSS before, in bytes per buffer, the most of the rounds);
 * and the slope log(t2/t1) / log(n2/n1) of the wall times from the size
 * before (1 is linear; n log n shows as about 1.1 here). And
 *
 *	budget N REQUESTED_MS TAKEN_MS RATIO ALLOWED_MS HEIGHT FREELIST_HEIGHT
 *
 * for auto with --budget-ms 10, 100 and 1000 at sizes 10 to 2^20: the
 * budget asked for, the wall time taken, what issue 30 allows (the budget
 * plus 10 %, plus one O(n log n) pass: freelist's whole ta_plan_solve() on
 * the same input), and the plan's height beside freelist's (auto must
 * not be worse). At each size freelist and the three budgets of auto run
 * in turn, --rounds times (default 3): each time is the fastest of its
 * rounds and each height the worst, so that the load of a shared machine,
 * which only ever adds time, weighs on both sides alike (one round is
 * what the table measured before: freelist once, then each budget once).
 * A time over the allowance says OVER.
 *
 * --strategy NAME prints the scale table for that one strategy and skips
 * the budget table.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ta_files.h"

int ta_bench_scale(int argc, char **argv);

struct ta_bs_out {
	int ret;
	int valid;
	unsigned long long height;
	double ms;
	double cpu_ms;		/* the process's CPU time in the call */
	long long rss_kb;	/* peak over the input */
};

static double ta_bs_clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A "VmRSS:" or "VmHWM:" line of /proc/self/status, in kB. */
static long long ta_bs_status_kb(const char *key)
{
	char line[256];
	long long kb = -1;
	size_t l = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, l)) {
			kb = strtoll(line + l, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

static int ta_bs_cmp_start(const void *a, const void *b)
{
	const struct ta_buffer *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/*
 * The first @n buffers by start of @src (@ns buffers) replicated in time;
 * NULL when memory is short.
 */
static struct ta_buffer *ta_bs_make(const struct ta_buffer *src, u32 ns,
				    u32 n)
{
	struct ta_buffer *b, *one;
	u32 span = 0, i, c, k = 0;

	one = malloc((size_t)ns * sizeof(*one));
	b = malloc((size_t)n * sizeof(*b));
	if (!one || !b) {
		free(one);
		free(b);
		return NULL;
	}
	memcpy(one, src, (size_t)ns * sizeof(*one));
	/* stable enough: ties keep the file's order on glibc's merge sort */
	qsort(one, ns, sizeof(*one), ta_bs_cmp_start);
	for (i = 0; i < ns; i++)
		if (one[i].end > span)
			span = one[i].end;
	for (c = 0; k < n; c++)
		for (i = 0; i < ns && k < n; i++) {
			b[k] = one[i];
			b[k].start += c * span;
			b[k].end += c * span;
			k++;
		}
	free(one);
	return b;
}

/*
 * For the fixed strategy, freelist's plan of @p as @p->fixed (into @given),
 * then the peak memory reset to what the process holds now (Linux's
 * clear_refs), so that the run's own peak is measured.
 */
static int ta_bs_fixed_input(struct ta_problem *p, u64 *given)
{
	struct ta_result res;
	FILE *f;
	int ret;

	ret = ta_plan_solve(p, TA_STRATEGY_FREELIST, NULL, given, &res);
	if (ret)
		return ret;
	p->fixed = given;
	f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return -errno;
	ret = fputs("5", f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static void ta_bs_child(const struct ta_buffer *src, u32 ns, u32 n, int s,
			u64 budget_ms, int fd)
{
	struct ta_bs_out o = { .ret = -ENOMEM };
	struct ta_budget budget = { .time_ns = budget_ms * 1000000ULL };
	struct ta_problem p = { .n_buffers = n };
	struct ta_result res;
	struct ta_buffer *b = ta_bs_make(src, ns, n);
	u64 *off = calloc(n, sizeof(*off));
	u64 *given = s == TA_STRATEGY_FIXED ? calloc(n, sizeof(*given)) : NULL;
	long long before;
	double t0, c0;

	if (b && off && (s != TA_STRATEGY_FIXED || given)) {
		p.buffers = b;
		if (given) {
			o.ret = ta_bs_fixed_input(&p, given);
			if (o.ret)
				goto out;
		}
		/* fault the offsets in: they are the input's, not the plan's */
		memset(off, 0xff, (size_t)n * sizeof(*off));
		before = ta_bs_status_kb("VmRSS:");
		c0 = ta_bs_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
		t0 = ta_bs_clock_ms(CLOCK_MONOTONIC);
		o.ret = ta_plan_solve(&p, s, budget_ms ? &budget : NULL, off,
				      &res);
		o.ms = ta_bs_clock_ms(CLOCK_MONOTONIC) - t0;
		o.cpu_ms = ta_bs_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
		o.rss_kb = ta_bs_status_kb("VmHWM:") - before;
		if (!o.ret) {
			o.height = res.height;
			o.valid = !ta_plan_validate(&p, off, res.height);
		}
	}
out:
	if (write(fd, &o, sizeof(o)) != sizeof(o))
		_exit(2);
	_exit(0);
}

/* One run in a child; false when it failed or was killed. */
static bool ta_bs_run(const struct ta_buffer *src, u32 ns, u32 n, int s,
		      u64 budget_ms, unsigned int cap_s, struct ta_bs_out *o)
{
	int fd[2], status;
	pid_t pid;
	ssize_t got;

	if (pipe(fd)) {
		perror("pipe");
		return false;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (!pid) {
		close(fd[0]);
		alarm(cap_s);
		ta_bs_child(src, ns, n, s, budget_ms, fd[1]);
	}
	close(fd[1]);
	got = read(fd[0], o, sizeof(*o));
	waitpid(pid, &status, 0);
	close(fd[0]);
	if (got != sizeof(*o) || !WIFEXITED(status)) {
		printf("killed (cap %u s)\n", cap_s);
		return false;
	}
	if (o->ret) {
		printf("error %d\n", o->ret);
		return false;
	}
	if (!o->valid) {
		printf("INVALID PLAN\n");
		return false;
	}
	return true;
}

/* The fastest of a column's rounds, its worst height and memory. */
struct ta_bs_best {
	double ms, cpu_ms;
	long long rss_kb;
	u64 height;
	u32 runs;
};

/* One more round of a column: false when it failed (said why). */
static bool ta_bs_take(const struct ta_buffer *src, u32 ns, u32 n, int s,
		       u64 budget_ms, unsigned int cap_s, struct ta_bs_best *b)
{
	struct ta_bs_out o;

	if (!ta_bs_run(src, ns, n, s, budget_ms, cap_s, &o))
		return false;
	if (!b->runs || o.ms < b->ms)
		b->ms = o.ms;
	if (!b->runs || o.cpu_ms < b->cpu_ms)
		b->cpu_ms = o.cpu_ms;
	if (!b->runs || o.rss_kb > b->rss_kb)
		b->rss_kb = o.rss_kb;
	if (o.height > b->height)
		b->height = o.height;
	b->runs++;
	return true;
}

int ta_bench_scale(int argc, char **argv)
{
	static const int strat[] = { TA_STRATEGY_GREEDY_SIZE,
				     TA_STRATEGY_FREELIST, TA_STRATEGY_AUTO,
				     TA_STRATEGY_FIXED };
	static const u32 bsizes[] = { 10, 100, 1000, 1U << 13, 1U << 16,
				      1U << 18, 1U << 20 };
	static const u64 budgets[] = { 10, 100, 1000 };
#define N_BUDGETS (sizeof(budgets) / sizeof(budgets[0]))
	const char *dir = "/work/shared/bench", *trace = NULL;
	char path[4096], err[512] = "";
	unsigned int cap_s = 60, max_log2 = 20, rounds = 3;
	int only = -1;
	struct ta_input in;
	size_t si, bi, k;
	u32 ns;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--trace") && i + 1 < argc)
			trace = argv[++i];
		else if (!strcmp(argv[i], "--cap-s") && i + 1 < argc)
			cap_s = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--max-log2") && i + 1 < argc)
			max_log2 = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			only = ta_strategy_from_name(argv[++i]);
			if (only < 0) {
				fprintf(stderr, "ta_bench --scale: no strategy %s\n",
					argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "ta_bench --scale: unknown %s\n",
				argv[i]);
			return 2;
		}
	}
	if (!rounds) {
		fprintf(stderr, "ta_bench --scale: --rounds is at least 1\n");
		return 2;
	}
	if (!trace) {
		snprintf(path, sizeof(path), "%s/traces/real/Y_1.csv", dir);
		trace = path;
	}
	if (ta_input_read(trace, &in, err, sizeof(err))) {
		fprintf(stderr, "ta_bench --scale: %s\n", err);
		return 1;
	}
	ns = in.prob.n_buffers;
	printf("# scaling: %s (%u buffers) replicated in time, first N by start\n",
	       trace, ns);
	printf("# %u rounds at each size: the fastest wall and CPU times, the most memory\n",
	       rounds);
	printf("# scale STRATEGY N MS CPU_MS RSS_B/BUF SLOPE HEIGHT\n");
	for (si = 0; si < sizeof(strat) / sizeof(strat[0]); si++) {
		double prev_ms = 0;
		u32 prev_n = 0, e;

		if (only >= 0 && strat[si] != only)
			continue;
		for (e = 16; e <= max_log2; e += 2) {
			struct ta_bs_best o = { 0 };
			u32 n = 1U << e, r;
			bool failed = false;

			printf("scale %-11s %8u ", ta_strategy_name(strat[si]),
			       n);
			for (r = 0; r < rounds && !failed; r++)
				failed = !ta_bs_take(in.prob.buffers, ns, n,
						     strat[si],
						     strat[si] == TA_STRATEGY_AUTO ?
						     1000 : 0, cap_s, &o);
			if (failed) {
				prev_n = 0;
				continue;
			}
			printf("%9.1f %9.1f %9.1f ", o.ms, o.cpu_ms,
			       o.rss_kb * 1024.0 / (double)n);
			if (prev_n && prev_ms > 0 && o.ms > 0)
				printf("%6.2f", log(o.ms / prev_ms) /
					       log((double)n / prev_n));
			else
				printf("%6s", "-");
			printf(" %llu\n", o.height);
			prev_ms = o.ms;
			prev_n = n;
		}
	}
	if (only >= 0)
		goto free_input;
	printf("# budget: auto --budget-ms REQUESTED (taken within +10 %% is kept)\n");
	printf("# %u rounds alternating freelist and auto at each size; times: the fastest of the rounds, each side\n",
	       rounds);
	printf("# budget N REQUESTED_MS TAKEN_MS RATIO ALLOWED_MS HEIGHT FREELIST_HEIGHT\n");
	for (k = 0; k < sizeof(bsizes) / sizeof(bsizes[0]); k++) {
		struct ta_bs_best fl = { 0 }, au[N_BUDGETS] = { { 0 } };
		u32 n = bsizes[k], r;
		bool failed = false;

		if (n > 1U << max_log2)
			break;
		for (r = 0; r < rounds && !failed; r++) {
			failed = !ta_bs_take(in.prob.buffers, ns, n,
					     TA_STRATEGY_FREELIST, 0, cap_s,
					     &fl);
			for (bi = 0; bi < N_BUDGETS && !failed; bi++)
				failed = !ta_bs_take(in.prob.buffers, ns, n,
						     TA_STRATEGY_AUTO,
						     budgets[bi], cap_s,
						     &au[bi]);
		}
		if (failed) {
			printf("budget %8u: a run failed (above)\n", n);
			continue;
		}
		printf("budget %8u freelist %.1f ms %llu\n", n, fl.ms,
		       fl.height);
		for (bi = 0; bi < N_BUDGETS; bi++) {
			double allowed = 1.1 * (double)budgets[bi] + fl.ms;

			printf("budget %8u %6llu %9.1f %6.2f %9.1f %llu %llu%s%s\n",
			       n, (unsigned long long)budgets[bi], au[bi].ms,
			       au[bi].ms / (double)budgets[bi], allowed,
			       au[bi].height, fl.height,
			       au[bi].height > fl.height ?
			       " WORSE THAN FREELIST" : "",
			       au[bi].ms > allowed ? " OVER" : "");
		}
	}
free_input:
	ta_input_free(&in);
	return 0;
}
