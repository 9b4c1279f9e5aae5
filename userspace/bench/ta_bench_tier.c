// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench_tier.c - ta_bench --tier: tiered plans against the optimum.
 *
 * 200 random traces of up to 20 buffers, a fast tier of a random share of
 * the peak: the optimum served weight by exhaustive search over subsets
 * (a set is feasible when auto plans it within the capacity; auto's plan
 * must be proven optimal for an infeasible verdict, else the set is
 * counted as unknown and left out), against ta_tier_solve() with auto,
 * every plan checked with ta_tier_check(). With MODELS_DIR, then the
 * per-model table of ta_bench_tier_models.c.
 *
 *	ta_bench --tier [MODELS_DIR] [--budget-ms N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_tier.h"

int ta_bench_tier(int argc, char **argv);
int ta_bench_tier_models(const char *dir, u64 budget_ns);

#define NT 20

struct bf {
	struct ta_buffer *b;
	u64 *w, cap, best, unknown;
	u32 n;
	struct ta_buffer sub[NT];
	u64 off[NT];
};

static u64 rnd(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int feasible(struct bf *f, const u32 *set, u32 m)
{
	struct ta_budget bud = { .time_ns = 20000000ULL };
	struct ta_problem q = { .n_buffers = m, .buffers = f->sub };
	struct ta_result r;
	u32 i;

	for (i = 0; i < m; i++)
		f->sub[i] = f->b[set[i]];
	if (ta_plan_solve(&q, TA_STRATEGY_AUTO, &bud, f->off, &r))
		return 0;
	if (r.height <= f->cap)
		return 1;
	if (!r.optimal)
		f->unknown++;
	return 0;
}

/* include/exclude buffer k; feasibility is monotone, so prune on it */
static void dfs(struct bf *f, u32 k, u32 *set, u32 m, u64 w, u64 rest)
{
	if (w > f->best)
		f->best = w;
	if (k == f->n || w + rest <= f->best)
		return;
	set[m] = k;
	if (f->b[k].size <= f->cap && feasible(f, set, m + 1))
		dfs(f, k + 1, set, m + 1, w + f->w[k], rest - f->w[k]);
	dfs(f, k + 1, set, m, w, rest - f->w[k]);
}

int ta_bench_tier(int argc, char **argv)
{
	u64 x = 0x2545f4914f6cdd1dULL;
	double sum = 0, worst = 1;
	int g, fails = 0, at_opt = 0;
	u64 unknown = 0;

	const char *dir = NULL;
	u64 budget_ns = 0;	/* the strategies' own */
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--budget-ms") && i + 1 < argc) {
			budget_ns = strtoull(argv[++i], NULL, 10) * 1000000ULL;
		} else if (argv[i][0] != '-') {
			dir = argv[i];
		} else {
			printf("usage: ta_bench --tier [MODELS_DIR] [--budget-ms N]\n");
			return argv[i][1] == 'h' ? 0 : 2;
		}
	}
	for (g = 0; g < 200; g++) {
		struct ta_buffer b[NT];
		u64 w[NT], peak = 0, tot = 0, off[NT];
		u8 tier[NT];
		u32 n = 4 + rnd(&x) % (NT - 3), i, set[NT], steps;
		struct ta_problem p = { .n_buffers = n, .buffers = b };
		struct ta_tier_request rq = { 0 };
		struct ta_tier_result res;
		struct ta_tier_conflict c;
		struct bf f = { .b = b, .w = w, .n = n };
		u64 served;

		steps = 4 + rnd(&x) % 16;
		for (i = 0; i < n; i++) {
			u32 a = rnd(&x) % steps;

			b[i].size = 64 * (1 + rnd(&x) % 64);
			b[i].align = 1ULL << (rnd(&x) % 7);
			b[i].start = a;
			b[i].end = a + 1 + rnd(&x) % 5;
			peak += b[i].size;
			w[i] = b[i].size * (1 + rnd(&x) % 4);
			tot += w[i];
		}
		/* sort by weight descending: the search finds good sets early */
		for (i = 1; i < n; i++) {
			u32 j = i;

			while (j && w[j - 1] < w[j]) {
				struct ta_buffer tb = b[j];
				u64 tw = w[j];

				b[j] = b[j - 1];
				w[j] = w[j - 1];
				b[j - 1] = tb;
				w[j - 1] = tw;
				j--;
			}
		}
		rq.capacity = peak / (3 + rnd(&x) % 6);
		rq.weights = w;
		f.cap = rq.capacity;
		dfs(&f, 0, set, 0, 0, tot);
		unknown += f.unknown;
		if (ta_tier_solve(&p, &rq, NULL, tier, off, &res) ||
		    ta_tier_check(&p, &rq, tier, off, res.fast.height,
				  res.slow.height, &served, &c) ||
		    served != res.weight_fast) {
			fails++;
			continue;
		}
		if (f.best) {
			double r = (double)res.weight_fast / (double)f.best;

			sum += r;
			if (r < worst)
				worst = r;
			at_opt += res.weight_fast >= f.best;
		} else {
			sum += 1;
			at_opt++;
		}
	}
	printf("tier: 200 random traces of 4-20 buffers\n");
	printf("mean auto/optimum %.4f, worst %.4f, at the optimum %d\n",
	       sum / 200, worst, at_opt);
	printf("plans failed or invalid %d, subsets unknown %llu\n", fails,
	       (unsigned long long)unknown);
	if (dir && ta_bench_tier_models(dir, budget_ns))
		fails++;
	return fails ? 1 : 0;
}
