/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * planner_build.h - what the planner unit tests share: a trace problem,
 * plan_ok() (plan, validate, check the figures), a small graph builder, a
 * first and best fit from their definition and a seeded generator. Included by test_planner*.c only; static inline, so
 * each file takes what it uses.
 */
#ifndef TA_PLANNER_BUILD_H
#define TA_PLANNER_BUILD_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "ta_plan_helpers.h"

#define NS TA_STRATEGY_COUNT

/* ---- helpers ---------------------------------------------------------- */

static inline struct ta_problem trace(struct ta_buffer *b, u32 n)
{
	struct ta_problem p = { .n_buffers = n, .buffers = b, .graph = NULL };

	return p;
}

/* Plan, then check validity and the figures; returns ta_plan_solve()'s result. */
static inline int plan_ok(const struct ta_problem *p, int s, u64 *off,
			  struct ta_result *res)
{
	u64 lb, top = 0;
	u32 i;
	int ret = ta_plan_solve(p, s, NULL, off, res);

	if (ret)
		return ret;
	if (ta_plan_validate(p, off, res->height)) {
		printf("# %s: plan does not validate\n", ta_strategy_name(s));
		return -1000;
	}
	if (ta_problem_lower_bound(p, &lb) || lb != res->lower_bound) {
		printf("# %s: lower bound mismatch\n", ta_strategy_name(s));
		return -1001;
	}
	for (i = 0; i < p->n_buffers; i++)
		if (p->buffers[i].size && off[i] + p->buffers[i].size > top)
			top = off[i] + p->buffers[i].size;
	if (top != res->height || res->height < res->lower_bound ||
	    (res->optimal && res->height == res->lower_bound) !=
	    (res->height == res->lower_bound)) {
		printf("# %s: height %llu lb %llu top %llu optimal %d\n",
		       ta_strategy_name(s), (unsigned long long)res->height,
		       (unsigned long long)res->lower_bound,
		       (unsigned long long)top, res->optimal);
		return -1002;
	}
	return 0;
}

/* A small graph builder. */
struct gb {
	struct ta_graph_tensor t[64];
	struct ta_graph_op o[64];
	u32 r[256];
	struct ta_graph g;
	struct ta_buffer b[64];
	struct ta_problem p;
};

static inline u32 gb_tensor(struct gb *gb, u64 size, u32 flags)
{
	u32 i = gb->g.n_tensors++;

	gb->t[i].size = size;
	gb->t[i].align = 1;
	gb->t[i].flags = flags;
	return i;
}

static inline void gb_op(struct gb *gb, int nin, const u32 *in, int nout,
			 const u32 *out)
{
	struct ta_graph_op *op = &gb->o[gb->g.n_ops++];
	int k;

	op->first_ref = gb->g.n_refs;
	op->n_inputs = nin;
	op->n_outputs = nout;
	for (k = 0; k < nin; k++)
		gb->r[gb->g.n_refs++] = in[k];
	for (k = 0; k < nout; k++)
		gb->r[gb->g.n_refs++] = out[k];
}

#define OP(gb, ins, outs) \
	gb_op(gb, sizeof(ins) / sizeof(u32), ins, sizeof(outs) / sizeof(u32), outs)

static inline int gb_finish(struct gb *gb)
{
	int ret;

	gb->g.tensors = gb->t;
	gb->g.ops = gb->o;
	gb->g.refs = gb->r;
	ret = ta_graph_lifetimes(&gb->g, gb->b);
	gb->p.n_buffers = gb->g.n_tensors;
	gb->p.buffers = gb->b;
	gb->p.graph = &gb->g;
	return ret;
}

static inline void gb_init(struct gb *gb)
{
	memset(gb, 0, sizeof(*gb));
}

/* chain: x(input) -> a -> b -> ... -> y(output), sizes given */
static inline int gb_chain(struct gb *gb, const u64 *sizes, int n)
{
	u32 prev, cur;
	int i;

	gb_init(gb);
	prev = gb_tensor(gb, sizes[0], TA_TENSOR_INPUT);
	for (i = 1; i < n; i++) {
		cur = gb_tensor(gb, sizes[i], i == n - 1 ? TA_TENSOR_OUTPUT : 0);
		gb_op(gb, 1, &prev, 1, &cur);
		prev = cur;
	}
	return gb_finish(gb);
}

/* ---- first and best fit from their definition ------------------------ */

struct ref_span {
	u64 lo, hi;
};

static inline int ref_span_cmp(const void *a, const void *b)
{
	const struct ref_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * Where buffer @i (of @n, @b) goes among the @placed buffers (at @off)
 * that overlap it in time, and @extra (or NULL): the lowest gap it fits
 * at its alignment (@first), or the tightest gap measured from the top of
 * the run below it, the lowest on a tie; above them all when none fits.
 * Lists the neighbours by scanning every buffer and sorts them with
 * qsort(), nothing of the fit engine. @nb: room for @n + 1 spans.
 */
static inline u64 ref_fit_answer(const struct ta_buffer *b, u32 n, u32 i,
				 const bool *placed, const u64 *off,
				 const struct ta_span *extra, bool first,
				 struct ref_span *nb)
{
	u64 y = 0, best = U64_MAX, best_gap = U64_MAX, mask = b[i].align - 1;
	u32 j, k = 0;

	for (j = 0; j < n; j++) {
		if (j == i || !placed[j] || !b[j].size ||
		    b[j].start >= b[i].end || b[i].start >= b[j].end)
			continue;
		nb[k].lo = off[j];
		nb[k].hi = off[j] + b[j].size;
		k++;
	}
	if (extra) {
		nb[k].lo = extra->lo;
		nb[k].hi = extra->hi;
		k++;
	}
	qsort(nb, k, sizeof(*nb), ref_span_cmp);
	for (j = 0; j < k; j++) {
		u64 o = (y + mask) & ~mask;

		if (nb[j].lo > o && nb[j].lo - o >= b[i].size) {
			if (first)
				return o;
			if (nb[j].lo - y < best_gap) {
				best_gap = nb[j].lo - y;
				best = o;
			}
		}
		if (nb[j].hi > y)
			y = nb[j].hi;
	}
	return best != U64_MAX ? best : (y + mask) & ~mask;
}

static u64 lcg_state;

static inline u32 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(lcg_state >> 33);
}

/*
 * Shapes of random input for the reference tests: @n buffers starting in
 * @steps steps, living 1 to @max_len; @n_sizes distinct sizes (0: any)
 * up to @max_size; alignments up to 2^@max_align_log2; one buffer in 9 of
 * size 0 with @zeros; @groups time-disjoint groups of lifetimes (each
 * over its own @steps); one buffer in @fixed_one_in given an offset (0:
 * none). @seeds inputs of the shape (0: %REF_SEEDS).
 */
struct ref_shape {
	u32 n, steps, max_len, n_sizes, max_size, max_align_log2;
	bool zeros;
	u32 groups, fixed_one_in, seeds;
};

#define REF_SEEDS	12

static inline u32 ref_seeds(const struct ref_shape *sh)
{
	return sh->seeds ? sh->seeds : REF_SEEDS;
}

/* A random input of shape @sh into @b, and into @fixed when it has offsets */
static inline void ref_random(const struct ref_shape *sh,
			      struct ta_buffer *b, u64 *fixed, u64 *sizes)
{
	u32 i;

	for (i = 0; i < sh->n_sizes; i++)
		sizes[i] = 1 + lcg() % sh->max_size;
	for (i = 0; i < sh->n; i++) {
		u32 base = 0;

		/* a group's lifetimes end before the next group's start */
		if (sh->groups > 1)
			base = lcg() % sh->groups * (sh->steps + sh->max_len);
		b[i].start = base + lcg() % sh->steps;
		b[i].end = b[i].start + 1 + lcg() % sh->max_len;
		b[i].size = sh->n_sizes ? sizes[lcg() % sh->n_sizes] :
					  1 + lcg() % sh->max_size;
		if (sh->zeros && !(lcg() % 9))
			b[i].size = 0;
		b[i].align = sh->max_align_log2 ?
			     1ULL << (lcg() % (sh->max_align_log2 + 1)) : 1;
		if (!sh->fixed_one_in)
			continue;
		fixed[i] = TA_OFFSET_UNFIXED;
		if (!(lcg() % sh->fixed_one_in))
			fixed[i] = (lcg() % (4ULL * sh->max_size)) &
				   ~(b[i].align - 1);
	}
}

#endif /* TA_PLANNER_BUILD_H */
