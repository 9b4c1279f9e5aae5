// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_scale.c - issue 30's promises that do not depend on time: on one
 * real trace (real/Y_1.csv, 62,185 buffers) replicated in time as
 * `ta_bench --scale` does it, at 10 to 65,536 buffers,
 *
 * - auto with its budget spent before it starts (1 ns) still returns a
 *   valid plan at most freelist's height, and reports no search memory
 *   beyond the fit engine's;
 * - greedy-size, freelist and that auto hold at most 256 bytes a buffer
 *   at their peak (the planner's own arrays, ta_plan_solve()'s included)
 *   from 8,192 buffers on, where fixed costs no longer count.
 *
 * - freelist on a trace that made its old size classes scan every block
 *   of a class for every buffer: the height of the plan, and its work
 *   (the yields ta_work_add() makes every 4,096 units: O(n log n), where
 *   the classes needed about n^2 / 9).
 *
 * How long they take is `ta_bench --scale`'s business (no timed
 * assertion here).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_test.h"

const char *ta_test_shared_dir(void);
extern unsigned long long ta_env_test_live_bytes, ta_env_test_peak_bytes;
extern unsigned long ta_env_test_yields;

#define TA_SCALE_MAX_BYTES_PER_BUFFER	256

static int scale_cmp_start(const void *a, const void *b)
{
	const struct ta_buffer *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/*
 * The first @n buffers by start of @src (@ns of them, sorted by start)
 * replicated in time: copy c is shifted past the end of copy c - 1.
 */
static void scale_make(const struct ta_buffer *src, u32 ns, u32 span,
		       struct ta_buffer *b, u32 n)
{
	u32 c, i, k = 0;

	for (c = 0; k < n; c++)
		for (i = 0; i < ns && k < n; i++) {
			b[k] = src[i];
			b[k].start += c * span;
			b[k].end += c * span;
			k++;
		}
}

/* Plan @p with @s; the height, the peak bytes the planner held. */
static int scale_plan(const struct ta_problem *p, int s,
		      const struct ta_budget *budget, u64 *off, u64 *height,
		      unsigned long long *peak, struct ta_result *res)
{
	unsigned long long before = ta_env_test_live_bytes;
	int ret;

	ta_env_test_peak_bytes = before;
	ret = ta_plan_solve(p, s, budget, off, res);
	*peak = ta_env_test_peak_bytes - before;
	TA_CHECK(!ret, "%s, %u buffers: %d", ta_strategy_name(s),
		 p->n_buffers, ret);
	TA_CHECK(!ta_plan_validate(p, off, res->height), "%s, %u buffers",
		 ta_strategy_name(s), p->n_buffers);
	*height = res->height;
	return 0;
}

static int t_scale(void)
{
	static const u32 sizes[] = { 10, 100, 1000, 8192, 65536 };
	static const int fast[] = { TA_STRATEGY_GREEDY_SIZE,
				    TA_STRATEGY_FREELIST };
	const struct ta_budget spent = { .time_ns = 1 };
	char path[1300], err[512] = "";
	struct ta_buffer *b = NULL;
	u64 *off = NULL, fl_h, h;
	unsigned long long peak;
	struct ta_result res;
	struct ta_input in;
	u32 span = 0, i, ran = 0, k, f;
	int fail = 1;

	snprintf(path, sizeof(path), "%s/../bench/traces/real/Y_1.csv",
		 ta_test_shared_dir());
	TA_CHECK(!ta_trace_read(path, &in, err, sizeof(err)), "%s", err);
	qsort(in.bufs, in.prob.n_buffers, sizeof(*in.bufs),
	      scale_cmp_start);
	for (i = 0; i < in.prob.n_buffers; i++)
		if (in.bufs[i].end > span)
			span = in.bufs[i].end;
	b = calloc(65536, sizeof(*b));
	off = calloc(65536, sizeof(*off));
	if (!b || !off)
		goto out;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct ta_problem p = { .n_buffers = sizes[k], .buffers = b };
		u64 most = (u64)sizes[k] * TA_SCALE_MAX_BYTES_PER_BUFFER;

		scale_make(in.bufs, in.prob.n_buffers, span, b, sizes[k]);
		for (f = 0; f < 2; f++) {
			if (scale_plan(&p, fast[f], NULL, off, &h, &peak, &res))
				goto out;
			printf("# %u buffers: %s %llu, peak %llu bytes a buffer\n",
			       sizes[k], ta_strategy_name(fast[f]),
			       (unsigned long long)h, peak / sizes[k]);
			if (sizes[k] >= 8192 && peak > most) {
				printf("# %s, %u buffers: %llu bytes\n",
				       ta_strategy_name(fast[f]), sizes[k], peak);
				goto out;
			}
			fl_h = h;	/* freelist is the second */
		}
		if (scale_plan(&p, TA_STRATEGY_AUTO, &spent, off, &h, &peak,
			       &res))
			goto out;
		printf("# %u buffers: auto in 1 ns %llu, peak %llu bytes a buffer, search %llu\n",
		       sizes[k], (unsigned long long)h, peak / sizes[k],
		       (unsigned long long)res.search_bytes);
		if (h > fl_h || (sizes[k] >= 8192 && peak > most) ||
		    res.search_bytes > peak) {
			printf("# auto, %u buffers: %llu above freelist's %llu, or %llu bytes\n",
			       sizes[k], (unsigned long long)h,
			       (unsigned long long)fl_h, peak);
			goto out;
		}
		ran++;
	}
	fail = 0;
out:
	free(b);
	free(off);
	ta_input_free(&in);
	TA_CHECK(!fail, "failed");
	TA_CHECK(ran == 5, "%u of 5 sizes", ran);
	return 0;
}

/*
 * @k blocks of 1,000 bytes kept apart by 1-byte buffers that live on,
 * then @k buffers of 1,001 bytes one after the other: none fits a block,
 * each goes on top. The old size classes scanned all @k blocks for each
 * (about 25 million units at @k 5,000); the free tree walks past them.
 */
static int t_freelist_short_blocks(void)
{
	static const u32 ks[] = { 1000, 5000 };
	struct ta_buffer *b = calloc(3 * 5000, sizeof(*b));
	u64 *off = calloc(3 * 5000, sizeof(*off));
	struct ta_result res = { 0 };
	u32 i, k, t, n, ran = 0;
	unsigned long yields = 0;
	int ret = -ENOMEM;

	for (t = 0; b && off && t < 2; t++) {
		struct ta_problem p = { .buffers = b };

		k = ks[t];
		n = 0;
		for (i = 0; i < k; i++) {
			b[n++] = (struct ta_buffer){ .start = i, .end = k + 1,
						     .size = 1000, .align = 1 };
			b[n++] = (struct ta_buffer){ .start = i,
						     .end = 3 * k + 10,
						     .size = 1, .align = 1 };
		}
		for (i = 0; i < k; i++)
			b[n++] = (struct ta_buffer){ .start = k + 1 + i,
						     .end = k + 2 + i,
						     .size = 1001, .align = 1 };
		p.n_buffers = n;
		ta_env_test_yields = 0;
		ret = ta_plan_solve(&p, TA_STRATEGY_FREELIST, NULL, off, &res);
		yields = ta_env_test_yields;
		if (ret || ta_plan_validate(&p, off, res.height) ||
		    res.height != (u64)k * 1001 + 1001 ||
		    yields > (u64)n * 200 / 4096)
			break;
		printf("# %u buffers: height %llu, %lu yields\n", n,
		       (unsigned long long)res.height, yields);
		ran++;
	}
	free(b);
	free(off);
	TA_CHECK(ran == 2, "%u of 2 cases, ret %d, height %llu, %lu yields",
		 ran, ret, (unsigned long long)res.height, yields);
	return 0;
}

const struct ta_test ta_scale_tests[] = {
	{ "scale: Y_1 in time, 10 to 65,536 buffers: auto in 1 ns at most freelist, <= 256 B a buffer",
	  t_scale },
	{ "scale: freelist past many blocks too short, O(n log n) work",
	  t_freelist_short_blocks },
	{ NULL, NULL },
};
