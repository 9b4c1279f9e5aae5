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

const struct ta_test ta_scale_tests[] = {
	{ "scale: Y_1 in time, 10 to 65,536 buffers: auto in 1 ns at most freelist, <= 256 B a buffer",
	  t_scale },
	{ NULL, NULL },
};
