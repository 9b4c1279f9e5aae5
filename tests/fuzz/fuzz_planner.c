// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_planner.c - libFuzzer target for the planner core: graph validation
 * and lifetimes (ta_graph_lifetimes()) and every strategy of ta_plan_solve(), with
 * ta_plan_validate() as the oracle.
 *
 * The input is decoded (fuzz_decode.h) into either a small graph (tensors
 * with size/align/flags, ops with ref ranges, consecutive most of the time,
 * arbitrary sometimes) or a small trace (buffers with size/align/start/end).
 * Then, for each strategy:
 *
 *  - ta_plan_solve() returns 0 or a documented errno (-EINVAL, -E2BIG,
 *    -EOVERFLOW, -ENOMEM); -EINVAL only when the problem is malformed
 *    (ta_graph_lifetimes() or ta_problem_lower_bound() said so), -EOVERFLOW
 *    only when the buffers stacked end to end with their alignment slack
 *    would come near 2^63;
 *  - on success: ta_plan_validate() accepts the plan at its height, and so
 *    does a brute-force check of the same rules; the height is at least
 *    the lower bound, the lower bound is ta_problem_lower_bound() and the
 *    brute-force one (alignment-aware: see fuzz_brute_lower_bound()); a plan that is claimed optimal is not beaten by any
 *    other strategy; the strategies that do not look at the clock plan
 *    the same again;
 *  - the plan nudged by the input (a buffer moved, the height changed):
 *    ta_plan_validate() and the brute force agree, and the fixed strategy
 *    given it serves it exactly when the brute force allows it with
 *    nesting (a fixed buffer inside another, ta_contain.c).
 *
 * Any violation aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_planner.h"
#include "fuzz_decode.h"

#define FUZZ_MAX_TENSORS	24
#define FUZZ_MAX_OPS		24
#define FUZZ_MAX_REFS		96

/*
 * Bounded budget: each input must run in milliseconds. With
 * FUZZ_REPRODUCIBLE=1 in the environment (make check's bounded stage) the
 * steps alone bound auto, so that what it plans, and so the coverage that
 * steers libFuzzer, never depends on the clock: a fixed -seed and -runs
 * then give the same run twice.
 */
#define FUZZ_STEPS		2000
#define FUZZ_TIME_NS		5000000ULL
#define FUZZ_NO_CLOCK_NS	3600000000000ULL

static u64 fuzz_time_ns = FUZZ_TIME_NS;

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz_planner: %s:%d: check failed: %s: ", \
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* An alignment: mostly small powers of two, sometimes anything. */
static u64 fuzz_align(struct fuzz_in *f)
{
	u8 k = fuzz_u8(f);

	if (k < 0xf0)
		return 1ULL << (k % 8);		/* 1 .. 128 */
	if (k < 0xfc)
		return 1ULL << (k % 34);		/* up to 2^33: too big */
	return fuzz_u64(f);			/* anything, pow2 or not */
}

/* A size: mostly small, sometimes 0, sometimes huge. */
static u64 fuzz_size(struct fuzz_in *f)
{
	u8 k = fuzz_u8(f);

	if (k < 0xe0)
		return (u64)fuzz_u16(f) * ((k & 3) + 1);
	if (k < 0xf0)
		return 0;
	if (k < 0xf8)
		return (u64)fuzz_u32(f) << (k & 31);
	return fuzz_u64(f);
}

struct fuzz_problem {
	struct ta_graph_tensor tensors[FUZZ_MAX_TENSORS];
	struct ta_graph_op ops[FUZZ_MAX_OPS];
	u32 refs[FUZZ_MAX_REFS];
	struct ta_graph graph;
	struct ta_buffer bufs[FUZZ_MAX_TENSORS];
	u32 alias[FUZZ_MAX_TENSORS];
	struct ta_problem prob;
	bool is_graph;
	bool consecutive;	/* graph form: op ref ranges back to back */
};

#define FUZZ_GIVEN	(TA_TENSOR_INPUT | TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT)

/*
 * Consecutive form: op i's refs start where op i-1's end. Each ref byte
 * below 0xf0 picks what a valid graph would hold there (an input: a tensor
 * that already exists; an output: the next tensor not yet produced), the
 * rest any tensor, or any u32 (0xff). When @tidy, tensors left
 * unreferenced are appended to the last op, so most inputs decode to a
 * valid graph and the strategies, not only validation, get exercised
 * (@tidy is 3 times in 4).
 */
static u32 fuzz_decode_consecutive(struct fuzz_in *f, struct fuzz_problem *fp,
				   bool tidy)
{
	struct ta_graph *g = &fp->graph;
	bool seen[FUZZ_MAX_TENSORS] = { false }, made[FUZZ_MAX_TENSORS] = { false };
	u32 i, k, r = 0, fresh = 0;

	for (i = 0; i < g->n_ops; i++) {
		struct ta_graph_op *op = &fp->ops[i];

		op->first_ref = r;
		op->n_inputs = fuzz_u8(f) % 4;
		op->n_outputs = fuzz_u8(f) % 3;
		if (r + op->n_inputs + op->n_outputs > FUZZ_MAX_REFS - FUZZ_MAX_TENSORS) {
			op->n_inputs = op->n_outputs = 0;
			continue;
		}
		for (k = 0; k < op->n_inputs + op->n_outputs; k++) {
			u8 b = fuzz_u8(f);
			u32 t;

			if (b == 0xff) {
				t = fuzz_u32(f);
			} else if (b >= 0xf0) {
				t = b % g->n_tensors;
			} else if (k < op->n_inputs) {
				u32 avail[FUZZ_MAX_TENSORS], na = 0, j;

				for (j = 0; j < g->n_tensors; j++)
					if (made[j] || (fp->tensors[j].flags & FUZZ_GIVEN))
						avail[na++] = j;
				t = na ? avail[b % na] : b % g->n_tensors;
			} else {
				while (fresh < g->n_tensors &&
				       (fp->tensors[fresh].flags &
					(TA_TENSOR_INPUT | TA_TENSOR_CONSTANT)))
					fresh++;
				t = fresh < g->n_tensors ? fresh++ : b % g->n_tensors;
			}
			fp->refs[r++] = t;
			if (t < g->n_tensors) {
				seen[t] = true;
				if (k >= op->n_inputs)
					made[t] = true;
			}
		}
	}
	if (tidy) {
		struct ta_graph_op *last = &fp->ops[g->n_ops - 1];

		/* appended inputs must precede its outputs: rebuild last op */
		u32 outs[4], no = last->n_outputs;

		for (k = 0; k < no; k++)
			outs[k] = fp->refs[last->first_ref + last->n_inputs + k];
		r = last->first_ref + last->n_inputs;
		for (i = 0; i < g->n_tensors; i++) {
			bool out = !(fp->tensors[i].flags & FUZZ_GIVEN);

			if (seen[i] || out)
				continue;
			fp->refs[r++] = i;	/* an input nobody read */
			last->n_inputs++;
			seen[i] = true;
		}
		for (k = 0; k < no; k++)
			fp->refs[r++] = outs[k];
		for (i = 0; i < g->n_tensors; i++) {
			if (seen[i])
				continue;
			fp->refs[r++] = i;	/* produced by the last op */
			last->n_outputs++;
		}
	}
	return r;
}

/*
 * In-place ops, from a last mask byte (0 once the input ran out, so older
 * seeds decode as before): op i is a view when bit i % 8 is set, and then
 * its first output takes its first input's size, so that the pair may
 * alias; bit 7 of the mask also sets an unknown op flag on op 0.
 */
static void fuzz_decode_inplace(struct fuzz_in *f, struct fuzz_problem *fp)
{
	struct ta_graph *g = &fp->graph;
	u8 mask = fuzz_u8(f);
	u32 i;

	for (i = 0; i < g->n_ops; i++) {
		struct ta_graph_op *op = &fp->ops[i];
		u64 end = (u64)op->first_ref + op->n_inputs + op->n_outputs;
		u32 in, out;

		if (!(mask & (1U << (i % 8))))
			continue;
		op->flags = TA_OP_INPLACE;
		if (!op->n_inputs || !op->n_outputs || end > g->n_refs)
			continue;
		in = fp->refs[op->first_ref];
		out = fp->refs[op->first_ref + op->n_inputs];
		if (in < g->n_tensors && out < g->n_tensors)
			fp->tensors[out].size = fp->tensors[in].size;
	}
	if (mask == 0x80 && g->n_ops)
		fp->ops[0].flags |= 0x40;	/* must be refused */
}

static void fuzz_decode_graph(struct fuzz_in *f, struct fuzz_problem *fp)
{
	struct ta_graph *g = &fp->graph;
	u8 shape = fuzz_u8(f);
	u32 i, r = 0;

	g->n_tensors = 1 + fuzz_u8(f) % FUZZ_MAX_TENSORS;
	g->n_ops = 1 + fuzz_u8(f) % FUZZ_MAX_OPS;
	for (i = 0; i < g->n_tensors; i++) {
		struct ta_graph_tensor *t = &fp->tensors[i];
		u8 fl = fuzz_u8(f);

		t->size = fuzz_size(f);
		t->align = fuzz_align(f);
		/* mostly plain or one flag; sometimes any bits at all */
		if (fl < 0xa0)
			t->flags = 0;
		else if (fl < 0xf8)
			t->flags = 1U << (fl & 3);
		else
			t->flags = fuzz_u32(f) & (fl & 1 ? ~0U : TA_TENSOR_FLAGS_ALL);
	}
	/* 7 in 8: consecutive ranges from 0, as validation will demand */
	fp->consecutive = (shape & 7) != 0;
	if (fp->consecutive) {
		r = fuzz_decode_consecutive(f, fp, (shape & 0x18) != 0x18);
	} else {
		for (i = 0; i < g->n_ops; i++) {
			struct ta_graph_op *op = &fp->ops[i];
			u8 k = fuzz_u8(f);

			op->n_inputs = fuzz_u8(f) % 4;
			op->n_outputs = fuzz_u8(f) % 3;
			op->first_ref = k < 0xf0 ? k % FUZZ_MAX_REFS : fuzz_u32(f);
			if (k >= 0xf8)
				op->n_inputs = fuzz_u32(f);
		}
		r = fuzz_u8(f) % (FUZZ_MAX_REFS + 1);
		for (i = 0; i < r; i++) {
			u8 k = fuzz_u8(f);

			fp->refs[i] = k == 0xff ? fuzz_u32(f) : k % g->n_tensors;
		}
	}
	g->n_refs = r;
	g->tensors = fp->tensors;
	g->ops = fp->ops;
	g->refs = fp->refs;
	fuzz_decode_inplace(f, fp);
}

static void fuzz_decode_trace(struct fuzz_in *f, struct fuzz_problem *fp)
{
	u32 n = 1 + fuzz_u8(f) % FUZZ_MAX_TENSORS, i;

	for (i = 0; i < n; i++) {
		struct ta_buffer *b = &fp->bufs[i];
		u8 k = fuzz_u8(f);

		b->size = fuzz_size(f);
		b->align = fuzz_align(f);
		if (k < 0xf0) {
			b->start = fuzz_u8(f) % 32;
			b->end = b->start + 1 + fuzz_u8(f) % 16;
		} else {	/* anything: empty, reversed, beyond the limits */
			b->start = fuzz_u32(f);
			b->end = k & 1 ? fuzz_u32(f) : b->start;
		}
	}
	fp->prob.n_buffers = n;
	fp->prob.buffers = fp->bufs;
	fp->prob.graph = NULL;
	/*
	 * 1 in 4: alias classes (a plan CSV's alias column), most of them as
	 * the rule wants (an earlier buffer's root, its size, live from where
	 * the root's span ends or before), some anything.
	 */
	if (fuzz_u8(f) & 3)
		return;
	for (i = 0; i < n; i++) {
		u8 k = fuzz_u8(f);
		u32 r;

		fp->alias[i] = i;
		if (!i || k >= 0xc0)
			continue;
		if (k >= 0xb8) {
			fp->alias[i] = fuzz_u8(f);
			continue;
		}
		r = fp->alias[k % i];
		if (r >= i)		/* that one's alias was anything */
			r = k % i;
		fp->alias[i] = r;
		if (k & 0x40)
			continue;
		fp->bufs[i].size = fp->bufs[r].size;
		/* meeting the root's own span: the class stays one span */
		if (fp->bufs[i].start > fp->bufs[r].end)
			fp->bufs[i].start = fp->bufs[r].end;
		if (fp->bufs[i].end < fp->bufs[r].start)
			fp->bufs[i].end = fp->bufs[r].start;
		if (fp->bufs[i].end <= fp->bufs[i].start)
			fp->bufs[i].end = fp->bufs[i].start + 1;
	}
	fp->prob.alias = fp->alias;
}

/*
 * FUZZ_PLANNER_STATS=1 in the environment: at exit, how many inputs were
 * valid graphs, malformed graphs, traces, and the time and outcome of each
 * strategy; for tuning the decoder and the budget.
 */
static struct {
	bool on;
	u64 graphs_ok, graphs_bad, traces, consecutive;
	u64 ns[TA_STRATEGY_COUNT], planned[TA_STRATEGY_COUNT],
	    failed[TA_STRATEGY_COUNT], optimal[TA_STRATEGY_COUNT];
} fuzz_stats;

static void fuzz_stats_print(void)
{
	int s;

	fprintf(stderr, "fuzz_planner: graphs %llu valid, %llu malformed (%llu consecutive), %llu traces\n",
		(unsigned long long)fuzz_stats.graphs_ok,
		(unsigned long long)fuzz_stats.graphs_bad,
		(unsigned long long)fuzz_stats.consecutive,
		(unsigned long long)fuzz_stats.traces);
	for (s = 0; s < TA_STRATEGY_COUNT; s++)
		fprintf(stderr, "fuzz_planner: %-12s %8llu planned (%llu optimal), %8llu errors, %.3f s\n",
			ta_strategy_name(s),
			(unsigned long long)fuzz_stats.planned[s],
			(unsigned long long)fuzz_stats.optimal[s],
			(unsigned long long)fuzz_stats.failed[s],
			fuzz_stats.ns[s] / 1e9);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (getenv("FUZZ_REPRODUCIBLE"))
		fuzz_time_ns = FUZZ_NO_CLOCK_NS;
	if (getenv("FUZZ_PLANNER_STATS")) {
		fuzz_stats.on = true;
		atexit(fuzz_stats_print);
	}
	return 0;
}

static bool fuzz_errno_documented(int ret)
{
	return ret == 0 || ret == -EINVAL || ret == -E2BIG ||
	       ret == -EOVERFLOW || ret == -ENOMEM;
}

/* Sum over buffers of size + align - 1, saturating at 2^64 - 1. */
static u64 fuzz_naive_height(const struct ta_problem *p)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < p->n_buffers; i++) {
		u64 add = p->buffers[i].size + p->buffers[i].align - 1;

		if (add < p->buffers[i].size || sum + add < sum)
			return U64_MAX;
		sum += add;
	}
	return sum;
}

/*
 * The validator's rules, the slow obvious way (n is small): every offset
 * aligned and at most @height, @height the top of the non-empty buffers,
 * no two non-empty buffers live at once sharing a byte. Cross-checks
 * ta_plan_validate(), the oracle everything else relies on.
 */
/*
 * The alias classes the planner uses (ta_graph_aliases() or a trace's
 * &ta_problem.alias, trusted here; their rules have their own unit tests);
 * each buffer its own class without.
 */
static void fuzz_roots(const struct ta_problem *p, u32 *root)
{
	u32 i;

	for (i = 0; i < p->n_buffers; i++)
		root[i] = p->alias ? p->alias[i] : i;
	if (p->graph)
		ta_graph_aliases(p->graph, p->buffers, root);
}

/*
 * A fixed plan's buffer @a lies within @c, bytes and lifetime, both at
 * their fixed offsets and neither exportable: it may share @c's bytes
 * (ta_contain.c), when the problem has no alias classes.
 */
static bool fuzz_inside(const struct ta_problem *p, const u64 *off,
			const u64 *fixed, u32 a, u32 c)
{
	const struct ta_buffer *x = &p->buffers[a], *y = &p->buffers[c];
	u32 k;

	for (k = 0; k < 2; k++) {
		u32 t = k ? c : a;

		if (fixed[t] == TA_OFFSET_UNFIXED || off[t] != fixed[t] ||
		    (p->graph &&
		     (p->graph->tensors[t].flags & TA_TENSOR_EXPORTABLE)))
			return false;
	}
	return off[c] <= off[a] && off[a] + x->size <= off[c] + y->size &&
	       y->start <= x->start && x->end <= y->end;
}

static int fuzz_brute_check(const struct ta_problem *p, const u64 *off,
			    u64 height, const u64 *fixed)
{
	u32 root[FUZZ_MAX_TENSORS];
	bool classes = false;
	u64 top = 0;
	u32 i, j;

	fuzz_roots(p, root);
	for (i = 0; i < p->n_buffers; i++)
		classes |= root[i] != i;
	if (classes)
		fixed = NULL;	/* nesting and aliases are not combined */

	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *a = &p->buffers[i];

		if (off[i] & (a->align - 1) || off[i] >= TA_PLAN_MAX_SIZE ||
		    off[i] + a->size >= TA_PLAN_MAX_SIZE ||
		    off[i] + a->size > height)
			return -EINVAL;
		if (a->size && off[i] + a->size > top)
			top = off[i] + a->size;
		for (j = 0; j < i; j++) {
			const struct ta_buffer *b = &p->buffers[j];

			if (!a->size || !b->size || a->start >= b->end ||
			    b->start >= a->end)
				continue;
			if (root[i] == root[j] && off[i] == off[j])
				continue;	/* aliases share, at one offset */
			if (fixed && (fuzz_inside(p, off, fixed, i, j) ||
				      fuzz_inside(p, off, fixed, j, i)))
				continue;	/* one inside the other */
			if (off[i] < off[j] + b->size && off[j] < off[i] + a->size)
				return -EINVAL;
		}
	}
	return top == height ? 0 : -EINVAL;
}

/* The rules of a plan with no fixed offsets: no buffer nests. */
static int fuzz_brute_validate(const struct ta_problem *p, const u64 *off,
			       u64 height)
{
	return fuzz_brute_check(p, off, height, NULL);
}

/*
 * The lower bound, by its definition: at every step, take the live
 * classes (an alias class counts once, with the largest alignment of its
 * members) and A, the smallest of their alignments; each size rounded up
 * to A sums to R. The class placed highest starts at or above R less its
 * own rounded size, rounded up to its alignment. The least such top over
 * the live classes, the largest over the steps (a live set changes only
 * at a start or an end).
 */
static u64 fuzz_brute_lower_bound(const struct ta_problem *p)
{
	u32 root[FUZZ_MAX_TENSORS], live[FUZZ_MAX_TENSORS];
	u64 best = 0, align[FUZZ_MAX_TENSORS];
	u32 i, j, k, e, n;

	fuzz_roots(p, root);
	for (j = 0; j < p->n_buffers; j++)
		align[j] = 1;
	for (j = 0; j < p->n_buffers; j++)
		if (p->buffers[j].align > align[root[j]])
			align[root[j]] = p->buffers[j].align;
	for (e = 0; e < 2 * p->n_buffers; e++) {
		u32 s = e & 1 ? p->buffers[e / 2].end : p->buffers[e / 2].start;
		u64 sum = 0, low = ~0ULL, least = ~0ULL;

		/* a class (equal sizes) counts once: at its first live member */
		for (n = 0, j = 0; j < p->n_buffers; j++) {
			bool first = true;

			if (!(p->buffers[j].start <= s && s < p->buffers[j].end) ||
			    !p->buffers[j].size)
				continue;
			for (k = 0; k < j && first; k++)
				first = root[k] != root[j] ||
					!(p->buffers[k].start <= s &&
					  s < p->buffers[k].end);
			if (first) {
				live[n++] = j;
				if (align[root[j]] < least)
					least = align[root[j]];
			}
		}
		for (i = 0; i < n; i++)
			sum += (p->buffers[live[i]].size + least - 1) / least *
			       least;
		for (i = 0; i < n; i++) {
			u64 size = p->buffers[live[i]].size;
			u64 a = align[root[live[i]]];
			u64 below = sum - (size + least - 1) / least * least;
			u64 under = (below + a - 1) / a * a;

			if (under + size < low)
				low = under + size;
		}
		if (n && low > best)
			best = low;
	}
	return best;
}

/*
 * The fixed strategy given @off: it must serve them exactly when the brute
 * force finds them valid (at their own height), and otherwise refuse with
 * -EINVAL and a conflict that names buffers of the problem.
 */
static void fuzz_fixed(const struct ta_problem *p, const u64 *off)
{
	struct ta_problem q = *p;
	u64 got[FUZZ_MAX_TENSORS], at[FUZZ_MAX_TENSORS], top = 0;
	struct ta_result res;
	int want, ret;
	u32 j;

	/* a zero-size buffer's offset means nothing: the plan puts it at 0 */
	for (j = 0; j < p->n_buffers; j++) {
		at[j] = p->buffers[j].size ? off[j] : 0;
		if (p->buffers[j].size && off[j] < TA_PLAN_MAX_SIZE &&
		    off[j] + p->buffers[j].size > top)
			top = off[j] + p->buffers[j].size;
	}
	q.fixed = off;
	ret = ta_plan_solve(&q, TA_STRATEGY_FIXED, NULL, got, &res);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -EOVERFLOW,
		   "fixed: errno %d", ret);
	for (j = 0; j < p->n_buffers; j++)
		if (p->buffers[j].size && off[j] == TA_OFFSET_UNFIXED)
			break;
	if (j < p->n_buffers) {
		/* some to place: a valid plan that kept the fixed ones */
		if (ret)
			return;
		FUZZ_CHECK(!fuzz_brute_check(p, got, res.height, off),
			   "fixed: placed around the fixed ones, not valid");
		for (j = 0; j < p->n_buffers; j++)
			FUZZ_CHECK(off[j] == TA_OFFSET_UNFIXED ||
				   got[j] == at[j], "fixed: buffer %u moved", j);
		return;
	}
	want = fuzz_brute_check(p, at, top, off);
	FUZZ_CHECK(!ret == !want, "fixed says %d, brute force %d", ret, want);
	if (ret) {
		FUZZ_CHECK(res.conflict.kind != TA_CONFLICT_NONE &&
			   res.conflict.a < p->n_buffers &&
			   res.conflict.b < p->n_buffers,
			   "fixed: refused without a conflict (%u %u %u)",
			   res.conflict.kind, res.conflict.a, res.conflict.b);
		return;
	}
	FUZZ_CHECK(res.height == top, "fixed: height %llu, top %llu",
		   (unsigned long long)res.height, (unsigned long long)top);
	for (j = 0; j < p->n_buffers; j++)
		FUZZ_CHECK(got[j] == at[j], "fixed: buffer %u moved", j);
}

/*
 * A plan nudged by the input: one buffer moved (or the height changed);
 * ta_plan_validate() and the brute force must agree on it.
 */
static void fuzz_nudge(struct fuzz_in *f, const struct ta_problem *p,
		       const u64 *offsets, u64 height)
{
	u64 off[FUZZ_MAX_TENSORS];
	u8 k = fuzz_u8(f);
	u32 i = fuzz_u8(f) % p->n_buffers;
	int want, got;

	memcpy(off, offsets, sizeof(*off) * p->n_buffers);
	switch (k & 3) {
	case 0:
		off[i] = off[fuzz_u8(f) % p->n_buffers];	/* on another */
		break;
	case 1:
		off[i] += (int8_t)fuzz_u8(f);			/* a little */
		break;
	case 2:
		off[i] = fuzz_u64(f);				/* anywhere */
		break;
	case 3:
		height += (int8_t)fuzz_u8(f);
		break;
	}
	if (k & 4) {	/* the height the nudged plan really has */
		u32 j;

		height = 0;
		for (j = 0; j < p->n_buffers; j++)
			if (p->buffers[j].size && off[j] + p->buffers[j].size > height)
				height = off[j] + p->buffers[j].size;
	}
	want = fuzz_brute_validate(p, off, height);
	got = ta_plan_validate(p, off, height);
	FUZZ_CHECK(got == want, "ta_plan_validate says %d, brute force %d",
		   got, want);
	fuzz_fixed(p, off);
}

static void fuzz_plan_all(struct fuzz_in *f, const struct ta_problem *p,
			  bool valid)
{
	struct ta_budget budget = { .time_ns = fuzz_time_ns,
				    .steps = FUZZ_STEPS };
	u64 offsets[FUZZ_MAX_TENSORS], lb = 0, naive, proven = 0;
	u64 heights[TA_STRATEGY_COUNT];
	bool ok[TA_STRATEGY_COUNT] = { false };
	int lbret, s, ret;

	lbret = ta_problem_lower_bound(p, &lb);
	FUZZ_CHECK(lbret == 0 || lbret == -EINVAL || lbret == -E2BIG ||
		   lbret == -EOVERFLOW, "lower bound: %d", lbret);
	if (lbret == -EINVAL)
		valid = false;
	naive = fuzz_naive_height(p);

	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		struct ta_result res;

		u64 t0 = ta_env_now_ns();

		memset(offsets, 0xa5, sizeof(offsets));
		ret = ta_plan_solve(p, (enum ta_strategy)s, &budget, offsets, &res);
		if (fuzz_stats.on) {
			fuzz_stats.ns[s] += ta_env_now_ns() - t0;
			fuzz_stats.planned[s] += !ret;
			fuzz_stats.failed[s] += !!ret;
			fuzz_stats.optimal[s] += !ret && res.optimal;
		}
		FUZZ_CHECK(fuzz_errno_documented(ret), "%s: errno %d",
			   ta_strategy_name(s), ret);
		if (ret == -EINVAL)
			FUZZ_CHECK(!valid, "%s: -EINVAL for a valid problem",
				   ta_strategy_name(s));
		if (ret == -EOVERFLOW)
			FUZZ_CHECK(lbret == -EOVERFLOW ||
				   naive > (1ULL << 62),
				   "%s: -EOVERFLOW, but stacking every buffer takes %llu",
				   ta_strategy_name(s),
				   (unsigned long long)naive);
		if (ret)
			continue;
		FUZZ_CHECK(valid, "%s: planned a malformed problem",
			   ta_strategy_name(s));
		FUZZ_CHECK(lbret == 0, "%s: planned, but lower bound said %d",
			   ta_strategy_name(s), lbret);
		ret = ta_plan_validate(p, offsets, res.height);
		FUZZ_CHECK(ret == 0, "%s: plan of height %llu rejected: %d",
			   ta_strategy_name(s),
			   (unsigned long long)res.height, ret);
		FUZZ_CHECK(!fuzz_brute_validate(p, offsets, res.height),
			   "%s: plan accepted by ta_plan_validate is not valid",
			   ta_strategy_name(s));
		FUZZ_CHECK(lb == fuzz_brute_lower_bound(p),
			   "lower bound %llu, brute force %llu",
			   (unsigned long long)lb,
			   (unsigned long long)fuzz_brute_lower_bound(p));
		/*
		 * The same plan again: the strategies but auto never look at
		 * the clock (stack's exhaustive search, up to 8 buffers, is
		 * too slow to run twice).
		 */
		if (s != TA_STRATEGY_AUTO &&
		    (s != TA_STRATEGY_STACK || p->n_buffers > 8)) {
			u64 again[FUZZ_MAX_TENSORS];
			struct ta_result res2;

			memset(again, 0x5a, sizeof(again));
			ret = ta_plan_solve(p, (enum ta_strategy)s, &budget, again,
					    &res2);
			FUZZ_CHECK(!ret && res2.height == res.height &&
				   !memcmp(again, offsets,
					   sizeof(*offsets) * p->n_buffers),
				   "%s: a second run planned differently",
				   ta_strategy_name(s));
		}
		fuzz_nudge(f, p, offsets, res.height);
		FUZZ_CHECK(res.lower_bound == lb,
			   "%s: lower bound %llu, ta_problem_lower_bound %llu",
			   ta_strategy_name(s),
			   (unsigned long long)res.lower_bound,
			   (unsigned long long)lb);
		FUZZ_CHECK(res.height >= lb, "%s: height %llu < lower bound %llu",
			   ta_strategy_name(s), (unsigned long long)res.height,
			   (unsigned long long)lb);
		FUZZ_CHECK(!(res.height == lb) || res.optimal,
			   "%s: height is the lower bound but not optimal",
			   ta_strategy_name(s));
		heights[s] = res.height;
		ok[s] = true;
		/* optimal at H: no strategy may go below H */
		if (res.optimal && res.height > proven)
			proven = res.height;
	}
	for (s = 0; s < TA_STRATEGY_COUNT; s++)
		FUZZ_CHECK(!ok[s] || heights[s] >= proven,
			   "%s: height %llu beats a plan proven optimal at %llu",
			   ta_strategy_name(s), (unsigned long long)heights[s],
			   (unsigned long long)proven);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_in f = { .p = data, .n = size };
	struct fuzz_problem fp;
	u8 mode = fuzz_u8(&f);
	bool valid = true;
	int ret;

	memset(&fp, 0, sizeof(fp));
	if ((mode & 3) == 3) {	/* 1 in 4: a trace */
		fuzz_decode_trace(&f, &fp);
		fuzz_stats.traces++;
	} else {
		fuzz_decode_graph(&f, &fp);
		ret = ta_graph_lifetimes(&fp.graph, fp.bufs);
		FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG,
			   "ta_graph_lifetimes: %d", ret);
		if (ret == 0) {
			u32 i;

			for (i = 0; i < fp.graph.n_tensors; i++)
				FUZZ_CHECK(fp.bufs[i].start < fp.bufs[i].end &&
					   fp.bufs[i].end <= fp.graph.n_ops,
					   "tensor %u lives [%u, %u) of %u ops",
					   i, fp.bufs[i].start, fp.bufs[i].end,
					   fp.graph.n_ops);
		}
		if (ret)
			valid = false;
		fuzz_stats.graphs_ok += !ret;
		fuzz_stats.graphs_bad += !!ret;
		fuzz_stats.consecutive += fp.consecutive;
		/*
		 * A rejected graph still goes to ta_plan_solve(): it must say
		 * -EINVAL (or -E2BIG) too, whatever the buffers hold.
		 */
		fp.prob.n_buffers = fp.graph.n_tensors;
		fp.prob.buffers = fp.bufs;
		/* 1 in 4 valid graphs is also planned in trace form */
		fp.prob.graph = ret || (mode & 6) ? &fp.graph : NULL;
		if (ret) {
			u32 i;

			for (i = 0; i < fp.graph.n_tensors; i++) {
				fp.bufs[i].size = fp.tensors[i].size;
				fp.bufs[i].align = 1;
				fp.bufs[i].start = 0;
				fp.bufs[i].end = 1;
			}
		}
	}
	fuzz_plan_all(&f, &fp.prob, valid);
	return 0;
}
