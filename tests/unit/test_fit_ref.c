// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_fit_ref.c - the fit engine (ta_fit.c) with its run index against
 * the same engine without it, query by query, and both against a first
 * and best fit computed from the definition.
 *
 * greedy-size's reference test (test_greedy_ref.c) covers one way of using
 * the engine: best fit, in greedy-size's order, each buffer placed once.
 * auto and stack use it in others: first fit and best fit mixed, in any
 * order, several passes over one engine (ta_fit_reset()), a query with one
 * more span taken (ta_fit_lowest_beside()), a placement taken back
 * (ta_fit_unplace_last(), after which the run index is off until the
 * next reset), and the index's pool running out mid-pass. Every query here
 * is asked of two engines, one built with %TA_FIT_RUNS and one without
 * (which enumerates the neighbours); the answers must be equal. One query
 * in four is also answered from the definition (ref_fit_answer(): every
 * placed buffer that overlaps it listed, sorted, its gaps scanned), with
 * nothing of the engine.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "planner_build.h"
#include "ta_fit.h"
#include "ta_greedy.h"
#include "ta_runs.h"

#define FIT_REF_SEEDS	3
#define FIT_REF_ROUNDS	3

/*
 * planner_build.h's shapes, each with the run index's pool in spans (0:
 * its own size): short and long lifetimes, alignments, zero sizes, pools
 * that run out.
 */
static const struct fit_ref_shape {
	struct ref_shape sh;
	u32 small_pool;
} fit_ref_shapes[] = {
	{ { 600, 400, 8, 0, 100000, 0, false, 0, 0, FIT_REF_SEEDS }, 0 },
	{ { 600, 300, 300, 0, 5000, 4, true, 0, 0, FIT_REF_SEEDS }, 0 },
	{ { 2500, 2000, 40, 0, 100000, 0, false, 0, 0, FIT_REF_SEEDS }, 0 },
	{ { 1500, 1000, 1000, 0, 1U << 16, 3, false, 0, 0, FIT_REF_SEEDS }, 0 },
	{ { 1200, 900, 100, 0, 4096, 2, true, 0, 0, FIT_REF_SEEDS }, 700 },
	{ { 1200, 2000, 2000, 0, 100000, 0, false, 0, 0, FIT_REF_SEEDS },
	  2500 },
};

/* The counts a run adds up, to show that each way of asking was taken */
struct fit_ref_counts {
	u64 queries, referenced, first, beside, unplaced, pool_out, ran;
};

/*
 * One pass over the engines @a (run index) and @p (plain) in a random
 * order, as round @round of an input: 0 in greedy-size's order with best
 * fit, 1 in a random order with first fit, 2 in a random order with both
 * modes, a span beside some queries and some placements taken back.
 */
static int fit_ref_pass(struct ta_fit *a, struct ta_fit *p,
			const struct ta_buffer *b, u32 n, u32 round,
			u32 *order, u64 *off, bool *placed,
			struct ref_span *nb, struct fit_ref_counts *c)
{
	u32 t, i, j;

	ta_fit_reset(a);
	ta_fit_reset(p);
	memset(placed, 0, n * sizeof(*placed));
	if (round) {
		for (t = 0; t < n; t++)
			order[t] = t;
		for (t = n - 1; t; t--) {
			j = lcg() % (t + 1);
			i = order[t];
			order[t] = order[j];
			order[j] = i;
		}
	} else if (ta_greedy_order(b, n, order)) {
		return -ENOMEM;
	}
	for (t = 0; t < n; t++) {
		u32 mode = round == 1 || (round == 2 && lcg() % 2) ?
			   TA_FIT_FIRST : TA_FIT_BEST;
		struct ta_span ex, *extra = NULL;
		u64 oa, op;
		int ra, rp;

		i = order[t];
		if (round == 2 && !(lcg() % 8)) {
			ex.lo = lcg() % 200000;
			ex.hi = ex.lo + 1 + lcg() % 50000;
			extra = &ex;
		}
		ra = ta_fit_lowest_beside(a, i, mode, extra, &oa);
		rp = ta_fit_lowest_beside(p, i, mode, extra, &op);
		c->queries++;
		c->first += mode == TA_FIT_FIRST;
		if (ra || rp || oa != op) {
			printf("# buffer %u, %s fit%s: %d %llu with the index, %d %llu without\n",
			       i, mode == TA_FIT_FIRST ? "first" : "best",
			       extra ? ", a span beside" : "", ra,
			       (unsigned long long)oa, rp,
			       (unsigned long long)op);
			return -1;
		}
		if (!(t % 4)) {
			u64 want = b[i].size ?
				   ref_fit_answer(b, n, i, placed, off, extra,
						  mode == TA_FIT_FIRST, nb) : 0;

			c->referenced++;
			if (oa != want) {
				printf("# buffer %u, %s fit: %llu, by definition %llu\n",
				       i, mode == TA_FIT_FIRST ? "first" : "best",
				       (unsigned long long)oa,
				       (unsigned long long)want);
				return -1;
			}
		}
		if (extra) {
			c->beside++;
			continue;	/* asked, not placed */
		}
		ta_fit_place(a, i, oa);
		ta_fit_place(p, i, oa);
		off[i] = oa;
		placed[i] = true;
		if (round == 2 && !(lcg() % 64)) {
			ta_fit_unplace_last(a, i);
			ta_fit_unplace_last(p, i);
			placed[i] = false;
			c->unplaced++;
		}
	}
	return 0;
}

static int t_fit_vs_reference(void)
{
	const u32 n_shapes = sizeof(fit_ref_shapes) / sizeof(fit_ref_shapes[0]);
	struct fit_ref_counts c = { 0 };
	struct ta_buffer *b;
	struct ref_span *nb;
	u32 s, seed, round, max_n = 0, *order;
	u64 *off, sizes[16];
	bool *placed;
	int ret = 0;

	for (s = 0; s < n_shapes; s++)
		if (fit_ref_shapes[s].sh.n > max_n)
			max_n = fit_ref_shapes[s].sh.n;
	b = calloc(max_n, sizeof(*b));
	nb = calloc(max_n + 1, sizeof(*nb));
	order = calloc(max_n, sizeof(*order));
	off = calloc(max_n, sizeof(*off));
	placed = calloc(max_n, sizeof(*placed));
	if (!b || !nb || !order || !off || !placed) {
		ret = -ENOMEM;
		goto free_all;
	}
	ta_runs_debug_pool_out = 0;
	for (s = 0; s < n_shapes && !ret; s++) {
		const struct ref_shape *sh = &fit_ref_shapes[s].sh;

		for (seed = 1; seed <= ref_seeds(sh) && !ret; seed++) {
			struct ta_fit *a, *p;

			lcg_state = 31000 + 100 * s + seed;
			ref_random(sh, b, NULL, sizes);
			ta_runs_debug_pool = fit_ref_shapes[s].small_pool;
			a = ta_fit_create(b, sh->n, TA_FIT_RUNS, NULL);
			p = ta_fit_create(b, sh->n, 0, NULL);
			ta_runs_debug_pool = 0;
			if (!a || !p)
				ret = -ENOMEM;
			for (round = 0; round < FIT_REF_ROUNDS && !ret; round++) {
				ret = fit_ref_pass(a, p, b, sh->n, round, order,
						   off, placed, nb, &c);
				if (ret)
					printf("# shape %u seed %u round %u\n",
					       s, seed, round);
				c.ran += !ret;
			}
			ta_fit_destroy(a);
			ta_fit_destroy(p);
		}
	}
	c.pool_out = ta_runs_debug_pool_out;
	printf("# %llu queries, %llu by definition too, %llu first fit, %llu with a span beside, %llu taken back, %llu pools ran out\n",
	       (unsigned long long)c.queries,
	       (unsigned long long)c.referenced,
	       (unsigned long long)c.first, (unsigned long long)c.beside,
	       (unsigned long long)c.unplaced,
	       (unsigned long long)c.pool_out);
free_all:
	free(b);
	free(nb);
	free(order);
	free(off);
	free(placed);
	TA_CHECK(!ret, "%d", ret);
	TA_CHECK(c.ran == n_shapes * FIT_REF_SEEDS * FIT_REF_ROUNDS,
		 "ran %llu passes of %u", (unsigned long long)c.ran,
		 n_shapes * FIT_REF_SEEDS * FIT_REF_ROUNDS);
	TA_CHECK(c.referenced * 4 >= c.queries, "%llu of %llu by definition",
		 (unsigned long long)c.referenced,
		 (unsigned long long)c.queries);
	TA_CHECK(c.first && c.beside && c.unplaced && c.pool_out,
		 "first fit %llu, beside %llu, taken back %llu, pools out %llu",
		 (unsigned long long)c.first, (unsigned long long)c.beside,
		 (unsigned long long)c.unplaced,
		 (unsigned long long)c.pool_out);
	return 0;
}

const struct ta_test ta_fit_ref_tests[] = {
	{ "fit engine: the run index answers as enumerating neighbours and as the definition, 54 passes",
	  t_fit_vs_reference },
	{ NULL, NULL },
};
