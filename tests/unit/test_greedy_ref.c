// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_greedy_ref.c - greedy-size against a plain O(n^2) best fit written
 * from its definition, on random inputs: the plans must be identical,
 * offset for offset.
 *
 * The reference places the buffers largest first (ties: longer lifetime,
 * then lower index); each goes into the smallest free gap between the
 * already placed buffers overlapping it in time where it fits at its
 * alignment (the gap measured from the top of the run below it to the
 * bottom of the run above, the lowest such gap on a tie), or on top of
 * them all. It lists the neighbours by scanning every placed buffer and
 * sorts them with qsort(): nothing of the fit engine (ta_fit.c) or its run
 * index (ta_runs.c) is shared. The shapes with long lifetimes over many
 * start steps make the run index answer from dozens of lists (its union
 * by sweeping) and fill the pool of its cached root-path unions (which then
 * starts over); the shapes in several time-disjoint groups, more than
 * %TA_GREEDY_PART buffers, make ta_greedy_place() plan parts of them on
 * their own; and a shape with offsets given to some buffers (as pingpong
 * and contained tensors give them) places those first. The test checks
 * that each of these happened.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "planner_build.h"
#include "ta_greedy.h"
#include "ta_runs.h"
#include "ta_sort.h"

static const struct ta_buffer *ref_bufs;

static int ref_cmp_order(const void *a, const void *b)
{
	const struct ta_buffer *x = &ref_bufs[*(const u32 *)a];
	const struct ta_buffer *y = &ref_bufs[*(const u32 *)b];
	u32 i = *(const u32 *)a, j = *(const u32 *)b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->end - x->start != y->end - y->start)
		return x->end - x->start > y->end - y->start ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * The reference plan into @off; returns its height. @fixed, when not NULL,
 * gives some buffers their offsets (the others %TA_OFFSET_UNFIXED): those
 * are placed first, in the same order, and the others fit around them.
 */
static u64 ref_plan(const struct ta_buffer *b, u32 n, const u64 *fixed,
		    u64 *off)
{
	u32 *order = calloc(n, sizeof(*order));
	bool *placed = calloc(n, sizeof(*placed));
	struct ref_span *nb = calloc(n + 1, sizeof(*nb));
	u64 top = 0;
	u32 t, pass;

	if (!order || !placed || !nb) {
		top = U64_MAX;
		goto free_all;
	}
	for (t = 0; t < n; t++)
		order[t] = t;
	ref_bufs = b;
	qsort(order, n, sizeof(*order), ref_cmp_order);
	for (pass = fixed ? 0 : 1; pass < 2; pass++) {
		for (t = 0; t < n; t++) {
			u32 i = order[t];

			if ((fixed && fixed[i] != TA_OFFSET_UNFIXED) != !pass)
				continue;
			if (!b[i].size)
				off[i] = 0;
			else if (pass)
				off[i] = ref_fit_answer(b, n, i, placed, off,
							NULL, false, nb);
			else
				off[i] = fixed[i];
			placed[i] = true;
			if (b[i].size && off[i] + b[i].size > top)
				top = off[i] + b[i].size;
		}
	}
free_all:
	free(order);
	free(placed);
	free(nb);
	return top;
}

/*
 * Each stresses a part of the engine: short lifetimes (the run index's
 * small subtrees), long ones (many canonical nodes), few distinct sizes
 * (ties in size, gap and length), alignments (a gap big enough but not at
 * the alignment), zero sizes, touching spans (runs that merge), groups
 * (greedy-size's parts) and offsets given.
 */
static const struct ref_shape ref_shapes[] = {
	{ 300, 200, 8, 0, 100000, 0, false, 0, 0, 0 },
	{ 300, 200, 200, 0, 100000, 0, false, 0, 0, 0 },
	{ 400, 500, 40, 6, 4096, 0, false, 0, 0, 0 },
	{ 400, 300, 300, 3, 64, 0, false, 0, 0, 0 },
	{ 300, 100, 30, 0, 5000, 6, false, 0, 0, 0 },
	{ 300, 100, 30, 5, 512, 9, true, 0, 0, 0 },
	{ 700, 2000, 60, 12, 1U << 20, 3, false, 0, 0, 0 },
	{ 64, 4, 4, 2, 8, 1, true, 0, 0, 0 },
	{ 900, 900, 900, 0, 100000, 0, false, 0, 0, 0 },
	{ 900, 1500, 1500, 7, 1U << 16, 2, false, 0, 0, 0 },
	/* parts of more than TA_GREEDY_PART buffers, whole groups each */
	{ 8400, 2000, 40, 0, 100000, 0, false, 4, 0, 1 },
	{ 8400, 1000, 1000, 9, 1U << 16, 2, true, 4, 0, 1 },
	/* offsets given, in one part and in several */
	{ 600, 400, 60, 0, 5000, 3, true, 0, 7, 0 },
	{ 8400, 1500, 30, 0, 100000, 0, false, 4, 25, 1 },
	/* every offset given (zero sizes too): no engine, the same plan */
	{ 600, 400, 60, 0, 5000, 3, true, 0, 1, 0 },
	{ 8400, 1500, 30, 0, 100000, 0, false, 4, 1, 1 },
};

/*
 * One input of shape @sh through the planner: ta_plan_solve() with
 * greedy-size (validated by plan_ok()), or ta_greedy_place() with the
 * offsets @fixed gives. Its plan into @off, its height into @h.
 */
static int ref_engine_plan(const struct ref_shape *sh, struct ta_buffer *b,
			   const u64 *fixed, u64 *off, u64 *h)
{
	struct ta_problem p = trace(b, sh->n);
	struct ta_result res;
	struct ta_work w;
	int ret;

	if (!sh->fixed_one_in) {
		ret = plan_ok(&p, TA_STRATEGY_GREEDY_SIZE, off, &res);
		*h = res.height;
		return ret;
	}
	ta_work_init(&w, 0);
	return ta_greedy_place(b, sh->n, fixed, off, h, &w);
}

static int t_greedy_vs_reference(void)
{
	const u32 n_shapes = sizeof(ref_shapes) / sizeof(ref_shapes[0]);
	u32 s, seed, ran = 0, ran_fixed = 0, want = 0, want_fixed = 0;
	u32 max_n = 0;
	u64 sweep_unions, cache_full, parts;
	struct ta_buffer *b;
	u64 *off, *ref, *fixed, sizes[16];
	int ret = 0;

	for (s = 0; s < n_shapes; s++) {
		if (ref_shapes[s].n > max_n)
			max_n = ref_shapes[s].n;
		want += ref_seeds(&ref_shapes[s]);
		if (ref_shapes[s].fixed_one_in)
			want_fixed += ref_seeds(&ref_shapes[s]);
	}
	b = calloc(max_n, sizeof(*b));
	off = calloc(max_n, sizeof(*off));
	ref = calloc(max_n, sizeof(*ref));
	fixed = calloc(max_n, sizeof(*fixed));
	TA_CHECK(b && off && ref && fixed, "memory");
	ta_runs_debug_sweep_unions = 0;
	ta_runs_debug_cache_full = 0;
	ta_greedy_debug_parts = 0;
	for (s = 0; s < n_shapes && !ret; s++) {
		const struct ref_shape *sh = &ref_shapes[s];
		const u64 *given = sh->fixed_one_in ? fixed : NULL;

		for (seed = 1; seed <= ref_seeds(sh) && !ret; seed++) {
			u64 h, want_h;

			lcg_state = 7000 + 100 * s + seed;
			ref_random(sh, b, fixed, sizes);
			want_h = ref_plan(b, sh->n, given, ref);
			if (want_h == U64_MAX) {
				ret = -1;
				break;
			}
			ret = ref_engine_plan(sh, b, given, off, &h);
			if (ret)
				break;
			if (h != want_h ||
			    memcmp(off, ref, sh->n * sizeof(*off))) {
				printf("# shape %u seed %u: height %llu, reference %llu\n",
				       s, seed, (unsigned long long)h,
				       (unsigned long long)want_h);
				ret = 1;
			}
			ran++;
			ran_fixed += !!given;
		}
	}
	sweep_unions = ta_runs_debug_sweep_unions;
	cache_full = ta_runs_debug_cache_full;
	parts = ta_greedy_debug_parts;
	printf("# sweep unions %llu, cache pool full %llu, parts apart %llu\n",
	       (unsigned long long)sweep_unions,
	       (unsigned long long)cache_full, (unsigned long long)parts);
	free(b);
	free(off);
	free(ref);
	free(fixed);
	TA_CHECK(!ret, "%d", ret);
	TA_CHECK(sweep_unions > 0, "no union made by sweeping");
	TA_CHECK(cache_full > 0, "the cached unions never filled their pool");
	TA_CHECK(parts > 0, "no input was planned in parts");
	TA_CHECK(ran == want, "ran %u of %u", ran, want);
	TA_CHECK(ran_fixed == want_fixed, "with offsets given: ran %u of %u",
		 ran_fixed, want_fixed);
	return 0;
}

/*
 * ta_radix_sort_in() against qsort() by (key, original place), at sizes on
 * both sides of each of its paths (insertion below 32, merge below 256,
 * 8-bit digits below 4,096, 11-bit above) and with keys that differ in
 * one low range, two ranges far apart (start << 32 | index, with and
 * without a flag in bit 31), all bits, or not at all; with and without
 * values. The keys made in index order are sorted by
 * ta_radix_sort_above() from bit 32 too, which must give the same.
 */
struct sort_ref {
	u64 key;
	u32 val;
};

static int sort_ref_cmp(const void *a, const void *b)
{
	const struct sort_ref *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static u64 sort_key(u32 shape, u32 i)
{
	switch (shape) {
	case 0:
		return lcg() % 7;
	case 1:
		return (u64)(lcg() % 300) << 32 | i;
	case 2:
		return (u64)lcg() << 40 ^ (u64)lcg() << 20 ^ lcg();
	case 3:
		return ~(u64)(lcg() % 5000);
	case 5:
		return (u64)(lcg() % 300) << 32 | BIT_ULL(31) | i;
	default:
		return 42;
	}
}

/*
 * Whether a sort's result matches the reference: 0, or 1 after printing
 * where it differs first.
 */
static int sort_check(const u64 *key, const u32 *val,
		      const struct sort_ref *ref, u32 n, const char *what,
		      u32 shape)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (key[i] != ref[i].key || (val && val[i] != ref[i].val))
			break;
	if (i == n)
		return 0;
	printf("# n %u shape %u values %u, %s: differs at %u\n", n, shape,
	       val != NULL, what, i);
	return 1;
}

static int t_radix_sort(void)
{
	static const u32 sizes[] = { 0, 1, 2, 31, 32, 33, 101, 255, 256, 257,
				     1000, 4095, 4096, 5000, 70000 };
	const u32 n_sizes = sizeof(sizes) / sizeof(sizes[0]), n_shapes = 6;
	u32 s, shape, i, with_val, ran = 0, ran_above = 0, max_n = 70000;
	struct sort_ref *ref = calloc(max_n, sizeof(*ref));
	u64 *key = calloc(max_n, sizeof(*key));
	u32 *val = calloc(max_n, sizeof(*val));
	u64 *key2 = calloc(max_n, sizeof(*key2));
	u32 *val2 = calloc(max_n, sizeof(*val2));
	u64 *scratch = calloc(ta_radix_scratch_words(max_n, true),
			      sizeof(*scratch));
	int ret = 0;

	TA_CHECK(ref && key && val && key2 && val2 && scratch, "memory");
	for (s = 0; s < n_sizes && !ret; s++) {
		for (shape = 0; shape < n_shapes && !ret; shape++) {
			for (with_val = 0; with_val < 2 && !ret; with_val++) {
				u32 n = sizes[s];

				lcg_state = 900 + 10 * s + shape;
				for (i = 0; i < n; i++) {
					key[i] = sort_key(shape, i);
					val[i] = i;
					key2[i] = key[i];
					val2[i] = i;
					ref[i].key = key[i];
					ref[i].val = i;
				}
				qsort(ref, n, sizeof(*ref), sort_ref_cmp);
				ta_radix_sort_in(key, with_val ? val : NULL, n,
						 scratch);
				ret = sort_check(key, with_val ? val : NULL,
						 ref, n, "all bits", shape);
				ran++;
				if (ret || (shape != 1 && shape != 5))
					continue;
				/* index order below bit 32: not sorted there */
				ta_radix_sort_above(key2, with_val ? val2 : NULL,
						    n, scratch, 32);
				ret = sort_check(key2, with_val ? val2 : NULL,
						 ref, n, "from bit 32", shape);
				ran_above++;
			}
		}
	}
	free(ref);
	free(key);
	free(val);
	free(key2);
	free(val2);
	free(scratch);
	TA_CHECK(!ret, "%d", ret);
	TA_CHECK(ran == n_sizes * n_shapes * 2, "ran %u of %u", ran,
		 n_sizes * n_shapes * 2);
	TA_CHECK(ran_above == n_sizes * 2 * 2, "from bit 32: ran %u of %u",
		 ran_above, n_sizes * 2 * 2);
	return 0;
}

const struct ta_test ta_greedy_ref_tests[] = {
	{ "greedy-size: plans equal an O(n^2) best fit, 148 random inputs",
	  t_greedy_vs_reference },
	{ "radix sort: as qsort by key then place, 180 inputs and 60 from bit 32",
	  t_radix_sort },
	{ NULL, NULL },
};
