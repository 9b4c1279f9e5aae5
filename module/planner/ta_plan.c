// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_plan.c - the planner's entry point: validate a problem, compute its
 * lower bound, run a strategy, check what it returns.
 *
 * Also the plan validator, which runs in O(n log n): buffers are ranked by
 * offset, then a sweep over time keeps the ranks of the live buffers in a
 * ta_bits set; since live buffers must be disjoint in address, a buffer
 * that starts only needs checking against its live neighbours in address
 * order (the previous and the next rank).
 */
#include "ta_contain.h"

static const char *const ta_strategy_names[TA_STRATEGY_FIXED + 1] = {
	[TA_STRATEGY_AUTO] = "auto",
	[TA_STRATEGY_PINGPONG] = "pingpong",
	[TA_STRATEGY_STACK] = "stack",
	[TA_STRATEGY_FREELIST] = "freelist",
	[TA_STRATEGY_GREEDY_SIZE] = "greedy-size",
	[TA_STRATEGY_FIXED] = "fixed",
};

/**
 * ta_strategy_name() - a strategy's name
 * @strategy: the strategy
 *
 * Return: "auto", "pingpong", "stack", "freelist", "greedy-size" or
 * "fixed"; NULL when @strategy is out of range.
 */
const char *ta_strategy_name(enum ta_strategy strategy)
{
	if ((unsigned int)strategy > TA_STRATEGY_FIXED)
		return NULL;
	return ta_strategy_names[strategy];
}

static bool ta_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/**
 * ta_strategy_from_name() - parse a strategy name
 * @name: NUL-terminated name, as ta_strategy_name() spells it
 *
 * Return: the strategy, or -EINVAL for NULL or an unknown name.
 */
int ta_strategy_from_name(const char *name)
{
	int s;

	if (!name)
		return -EINVAL;
	for (s = 0; s <= TA_STRATEGY_FIXED; s++)
		if (ta_streq(name, ta_strategy_names[s]))
			return s;
	return -EINVAL;
}

static int ta_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * A trace's alias classes (&ta_problem.alias): one root each, one size,
 * and no step missing between a class's first start and its last end, so
 * that the class is one memory over one span, as ta_plan() plans it and
 * the validator sees it. The members sorted by class, then start
 * (class << 44 | start << 20 | index: 20, 24 and 20 bits), each must start
 * by the time the ones before it end.
 */
static int ta_check_alias(const struct ta_problem *p, struct ta_work *w)
{
	u32 i, r, n = p->n_buffers, reach = 0;
	u64 *key;
	int ret;

	if (p->graph)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		r = p->alias[i];
		if (r >= n || p->alias[r] != r ||
		    p->buffers[r].size != p->buffers[i].size)
			return -EINVAL;
	}
	key = ta_env_alloc_array(n ? n : 1, sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		key[i] = (u64)p->alias[i] << 44 |
			 (u64)p->buffers[i].start << 20 | i;
	ta_env_sort(key, n, sizeof(*key), ta_cmp_u64);
	ret = ta_work_add(w, n);
	for (i = 0; !ret && i < n; i++) {
		const struct ta_buffer *b = &p->buffers[key[i] & 0xfffff];

		if (i && key[i] >> 44 == key[i - 1] >> 44 && b->start > reach)
			ret = -EINVAL;
		else if (!i || key[i] >> 44 != key[i - 1] >> 44 ||
			 b->end > reach)
			reach = b->end;
	}
	ta_env_free(key);
	return ret;
}

static int ta_check_buffers(const struct ta_problem *p, struct ta_work *w)
{
	int ret;

	u32 i;

	if (!p)
		return -EINVAL;
	if (p->n_buffers > TA_PLAN_MAX_BUFFERS)
		return -E2BIG;
	if (p->n_buffers && !p->buffers)
		return -EINVAL;
	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		if (!ta_is_pow2(b->align) || b->start >= b->end)
			return -EINVAL;
		if (b->align > TA_PLAN_MAX_ALIGN || b->size >= TA_PLAN_MAX_SIZE ||
		    b->end > TA_PLAN_MAX_STEPS)
			return -E2BIG;
	}
	return p->alias ? ta_check_alias(p, w) : 0;
}

/* The buffers of a graph-form problem must be what its graph says. */
static int ta_check_graph(const struct ta_problem *p, struct ta_work *w)
{
	struct ta_buffer *derived;
	u32 i;
	int ret;

	if (p->graph->n_tensors != p->n_buffers)
		return -EINVAL;
	derived = ta_env_alloc_array(p->n_buffers, sizeof(*derived));
	if (!derived)
		return -ENOMEM;
	ret = ta_graph_lifetimes_work(p->graph, derived, w);
	for (i = 0; !ret && i < p->n_buffers; i++) {
		const struct ta_buffer *a = &derived[i], *b = &p->buffers[i];

		if (a->size != b->size || a->align != b->align ||
		    a->start != b->start || a->end != b->end)
			ret = -EINVAL;
		else
			ret = ta_work_add(w, 1);
	}
	ta_env_free(derived);
	return ret;
}

static int ta_check_problem(const struct ta_problem *p, struct ta_work *w)
{
	int ret = ta_check_buffers(p, w);

	if (!ret && p->graph)
		ret = ta_check_graph(p, w);
	return ret;
}

/* Sweep events: step << 32 | kind << 31 | buffer, kind 0 = end, 1 = start. */

static u64 *ta_sweep_events(const struct ta_buffer *bufs, u32 n)
{
	u64 *ev = ta_env_alloc_array((size_t)n * 2, sizeof(*ev));
	u32 i;

	if (!ev)
		return NULL;
	for (i = 0; i < n; i++) {
		ev[2 * i] = (u64)bufs[i].start << 32 | 1ULL << 31 | i;
		ev[2 * i + 1] = (u64)bufs[i].end << 32 | i;
	}
	ta_env_sort(ev, (size_t)n * 2, sizeof(*ev), ta_cmp_u64);
	return ev;
}

/* log2 of TA_PLAN_MAX_ALIGN */
#define TA_ALIGN_LOG2_MAX	32

/*
 * The live set of the sweep: the non-empty buffers live at the current
 * step (@idx, with @pos the place of each in it), their sum @sum, how many
 * there are of each alignment (@n_align, by log2) and @rounded_sum[k], the
 * sum of their sizes each rounded up to 2^k, for k up to @max_align_log2
 * (the problem's largest alignment: no live set's smallest is above it).
 */
struct ta_live_set {
	u32 *idx;
	u32 *pos;
	u32 n;
	u64 sum;
	u32 n_align[TA_ALIGN_LOG2_MAX + 1];
	u32 max_align_log2;
	u64 rounded_sum[TA_ALIGN_LOG2_MAX + 1];
};

/* @size rounded up to 2^@k */
static u64 ta_round_up_pow2(u64 size, u32 k)
{
	return (size + BIT_ULL(k) - 1) & ~(BIT_ULL(k) - 1);
}

/*
 * A lower bound of the live set. Every live buffer's offset is a multiple
 * of the smallest live alignment 2^a, so a buffer below another one takes
 * its size rounded up to 2^a before the next can start: whichever buffer T
 * is highest in a plan starts at or above R - roundup(size(T), 2^a), R the
 * sum of the rounded sizes, rounded up to T's own alignment. The bound is
 * the least of these over T; with a = 0 it is the plain sum. Only worked
 * out when it can beat @best (it exceeds R by less than the largest
 * alignment live); otherwise the sum is given.
 */
static int ta_live_bound(const struct ta_live_set *ls,
			 const struct ta_buffer *bufs, u64 best, u64 *out,
			 struct ta_work *w)
{
	u64 lb = U64_MAX, top, rounded, below;
	u32 k, a = 0, a_max = ls->max_align_log2;
	int ret;

	*out = ls->sum;
	if (!ls->n || ls->n_align[0])
		return 0;
	while (!ls->n_align[a])
		a++;
	while (!ls->n_align[a_max])
		a_max--;
	rounded = ls->rounded_sum[a];
	if (rounded + (BIT_ULL(a_max) - 1) <= best)
		return 0;
	ret = ta_work_add(w, ls->n);
	if (ret)
		return ret;
	for (k = 0; k < ls->n; k++) {
		const struct ta_buffer *b = &bufs[ls->idx[k]];

		below = rounded - ta_round_up_pow2(b->size, a);
		/* below + ((size - below) mod align) + size: align | top */
		top = below + ((0 - below) & (b->align - 1)) + b->size;
		if (top < lb)
			lb = top;
	}
	*out = lb > ls->sum ? lb : ls->sum;
	return 0;
}

static void ta_live_add(struct ta_live_set *ls, const struct ta_buffer *bufs,
			u32 i)
{
	u32 k;

	ls->pos[i] = ls->n;
	ls->idx[ls->n++] = i;
	ls->sum += bufs[i].size;
	ls->n_align[__builtin_ctzll(bufs[i].align)]++;
	for (k = 0; k <= ls->max_align_log2; k++)
		ls->rounded_sum[k] += ta_round_up_pow2(bufs[i].size, k);
}

static void ta_live_del(struct ta_live_set *ls, const struct ta_buffer *bufs,
			u32 i)
{
	u32 last = ls->idx[--ls->n], k;

	ls->idx[ls->pos[i]] = last;
	ls->pos[last] = ls->pos[i];
	ls->sum -= bufs[i].size;
	ls->n_align[__builtin_ctzll(bufs[i].align)]--;
	for (k = 0; k <= ls->max_align_log2; k++)
		ls->rounded_sum[k] -= ta_round_up_pow2(bufs[i].size, k);
}

/**
 * ta_sweep_lower_bound() - a lower bound of every plan's height
 * @bufs: buffers, already validated
 * @n: how many
 * @lb: out
 * @w: work counter
 *
 * At every step, the non-empty buffers live there are disjoint in any
 * plan, and every offset is a multiple of the smallest live alignment A,
 * so each buffer below the highest one takes its size rounded up to A: the
 * highest, T, starts at or above R(T), the sum of the others' sizes so
 * rounded, rounded up to its own alignment. The height is at least min
 * over the live T of roundup(R(T), align(T)) + size(T), which is the plain
 * sum S when a live buffer has alignment 1 (and exact when all share one
 * alignment). The bound is the largest of these over the steps (it covers
 * each buffer alone, too). The minimum is only worked out at steps where
 * it could beat the best so far, so the cost is at most the sum over steps
 * of the buffers live there, and O(n log n) when most buffers are
 * byte-aligned.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW when the bound reaches 2^63, or what
 * ta_work_check() returns.
 */
int ta_sweep_lower_bound(const struct ta_buffer *bufs, u32 n, u64 *lb,
			 struct ta_work *w)
{
	struct ta_live_set ls = { 0 };
	u64 best = 0, here;
	u64 *ev;
	u32 k, i;
	int ret = 0;

	*lb = 0;
	if (!n)
		return 0;
	ev = ta_sweep_events(bufs, n);
	ls.idx = ta_env_alloc_array(n, sizeof(*ls.idx));
	ls.pos = ta_env_alloc_array(n, sizeof(*ls.pos));
	if (!ev || !ls.idx || !ls.pos) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		u32 log2 = (u32)__builtin_ctzll(bufs[i].align);

		if (bufs[i].size && log2 > ls.max_align_log2)
			ls.max_align_log2 = log2;
	}
	w->units += 8 * (u64)n;		/* the sort: check at the first event */
	for (k = 0; k < 2 * n; k++) {
		i = ev[k] & 0x7fffffffU;
		ret = ta_work_add(w, 1);
		if (ret)
			break;
		/* sizes and their sum stay below 2^63: no wrap */
		if (bufs[i].size && (ev[k] & (1ULL << 31)))
			ta_live_add(&ls, bufs, i);
		else if (bufs[i].size)
			ta_live_del(&ls, bufs, i);
		if (ls.sum > TA_PLAN_MAX_HEIGHT) {
			ret = -EOVERFLOW;
			break;
		}
		/* the live set of a step: after its last event */
		if (k + 1 < 2 * n && ev[k + 1] >> 32 == ev[k] >> 32)
			continue;
		ret = ta_live_bound(&ls, bufs, best, &here, w);
		if (ret)
			break;
		if (here > TA_PLAN_MAX_HEIGHT) {
			ret = -EOVERFLOW;
			break;
		}
		if (here > best)
			best = here;
	}
out:
	ta_env_free(ls.pos);
	ta_env_free(ls.idx);
	ta_env_free(ev);
	if (!ret)
		*lb = best;
	return ret;
}

struct ta_offset_rank {
	u64 offset;
	u32 index;
};

static int ta_cmp_offset_rank(const void *a, const void *b)
{
	const struct ta_offset_rank *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void ta_conflict_set(struct ta_conflict *c, u32 kind, u32 a, u32 b,
			    u32 step)
{
	c->kind = kind;
	c->a = a;
	c->b = b;
	c->step = step;
}

/*
 * Whether buffer @i takes part in a check: it has bytes and, when @only is
 * set, a fixed offset there.
 */
static bool ta_checked(const struct ta_problem *p, const u64 *only, u32 i)
{
	return p->buffers[i].size && (!only || only[i] != TA_OFFSET_UNFIXED);
}

/*
 * Alignment and height of every buffer (with @only, of the fixed ones);
 * *@top gets max(offset + size) of those with bytes.
 */
static int ta_check_offsets(const struct ta_problem *p, const u64 *offsets,
			    const u64 *only, u64 height, u64 *top,
			    struct ta_conflict *c, struct ta_work *w)
{
	u32 i;
	int ret;

	*top = 0;
	for (i = 0; i < p->n_buffers; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		/*
		 * The validator checks zero-size buffers too; a fixed plan's
		 * are put at 0 whatever it says (ta_plan_finish()).
		 */
		if (only && (only[i] == TA_OFFSET_UNFIXED || !b->size))
			continue;
		if (offsets[i] & (b->align - 1)) {
			ta_conflict_set(c, TA_CONFLICT_ALIGN, i, i, 0);
			return -EINVAL;
		}
		if (offsets[i] > TA_PLAN_MAX_HEIGHT ||
		    b->size > TA_PLAN_MAX_HEIGHT - offsets[i] ||
		    offsets[i] + b->size > height) {
			ta_conflict_set(c, TA_CONFLICT_HEIGHT, i, i, 0);
			return -EINVAL;
		}
		if (b->size && offsets[i] + b->size > *top)
			*top = offsets[i] + b->size;
	}
	return 0;
}

/* Ranks in address order of the non-empty buffers; by_rank is the inverse. */
static u32 ta_rank_by_offset(const struct ta_problem *p, const u64 *offsets,
			     const u64 *only, struct ta_offset_rank *tmp,
			     u32 *rank, u32 *by_rank)
{
	u32 i, m = 0;

	for (i = 0; i < p->n_buffers; i++) {
		if (!ta_checked(p, only, i))
			continue;
		tmp[m].offset = offsets[i];
		tmp[m].index = i;
		m++;
	}
	ta_env_sort(tmp, m, sizeof(*tmp), ta_cmp_offset_rank);
	for (i = 0; i < m; i++) {
		rank[tmp[i].index] = i;
		by_rank[i] = tmp[i].index;
	}
	return m;
}

/*
 * Two live buffers may share bytes only when they are one alias class
 * (@root, NULL when none) at the same offset; such a pair has one span, so
 * checking address neighbours still finds every overlap.
 */
static bool ta_may_share(const u32 *root, const u64 *offsets, u32 i, u32 j)
{
	return root && root[i] == root[j] && offsets[i] == offsets[j];
}

static int ta_check_overlaps(const struct ta_problem *p, const u64 *offsets,
			     const u64 *only, const u32 *root, const u64 *ev,
			     const u32 *rank,
			     const u32 *by_rank, struct ta_bits *live,
			     struct ta_conflict *c, struct ta_work *w)
{
	u32 i, j, k, n = p->n_buffers;
	int ret;

	for (k = 0; k < 2 * n; k++) {
		u64 lo, hi;
		s64 nb;

		i = ev[k] & 0x7fffffffU;
		lo = offsets[i];
		hi = lo + p->buffers[i].size;

		/* a few ta_bits queries of at most eight words each */
		ret = ta_work_add(w, 4);
		if (ret)
			return ret;
		if (!ta_checked(p, only, i))
			continue;
		if (!(ev[k] & (1ULL << 31))) {
			ta_bits_clear(live, rank[i]);
			continue;
		}
		nb = ta_bits_prev(live, rank[i]);
		if (nb >= 0) {
			j = by_rank[nb];
			if (offsets[j] + p->buffers[j].size > lo &&
			    !ta_may_share(root, offsets, i, j))
				goto conflict;
		}
		nb = ta_bits_next(live, rank[i]);
		if (nb >= 0) {
			j = by_rank[nb];
			if (offsets[j] < hi && !ta_may_share(root, offsets, i, j))
				goto conflict;
		}
		ta_bits_set(live, rank[i]);
	}
	return 0;
conflict:
	/* both are live at the step where @i starts */
	ta_conflict_set(c, TA_CONFLICT_OVERLAP, i < j ? i : j, i < j ? j : i,
			(u32)(ev[k] >> 32));
	return -EINVAL;
}

/*
 * The alias classes of a problem (a graph's in-place ops, or a trace's
 * &ta_problem.alias), or NULL when there are none; *@joined (may be NULL)
 * as ta_graph_aliases() returns it.
 */
static int ta_problem_roots(const struct ta_problem *p, u32 **root,
			    u32 *joined)
{
	u32 i, n = 0;

	*root = NULL;
	if (joined)
		*joined = 0;
	if ((!p->graph && !p->alias) || !p->n_buffers)
		return 0;
	*root = ta_env_alloc_array(p->n_buffers, sizeof(**root));
	if (!*root)
		return -ENOMEM;
	if (p->graph) {
		n = ta_graph_aliases(p->graph, p->buffers, *root);
	} else {
		for (i = 0; i < p->n_buffers; i++) {
			(*root)[i] = p->alias[i];
			n += p->alias[i] != i;
		}
	}
	if (joined)
		*joined = n;
	if (!n) {
		ta_env_free(*root);
		*root = NULL;
	}
	return 0;
}

/*
 * The plan check of a validated problem, over the buffers ta_checked()
 * selects; @root as ta_problem_roots() gives it.
 */
static int ta_check_plan(const struct ta_problem *p, const u64 *offsets,
			 const u64 *only, const u32 *root, u64 height,
			 struct ta_conflict *conflict, struct ta_work *w)
{
	struct ta_offset_rank *tmp = NULL;
	u32 *rank = NULL, *by_rank = NULL;
	u64 *ev = NULL, *bits = NULL;
	struct ta_bits live;
	u32 n = p->n_buffers;
	u64 top;
	int ret;

	ret = ta_check_offsets(p, offsets, only, height, &top, conflict, w);
	if (ret)
		return ret;
	/* a fixed plan's tensors may nest (ta_contain.c) */
	if (ta_contain_applies(p, root))
		return ta_contain_check(p, offsets, only, NULL, conflict, w);
	ret = -ENOMEM;
	tmp = ta_env_alloc_array(n, sizeof(*tmp));
	rank = ta_env_alloc_array(n, sizeof(*rank));
	by_rank = ta_env_alloc_array(n, sizeof(*by_rank));
	bits = ta_env_alloc_array(ta_bits_words(n), sizeof(*bits));
	if (!tmp || !rank || !by_rank || !bits)
		goto out;
	ta_rank_by_offset(p, offsets, only, tmp, rank, by_rank);
	ta_env_free(tmp);
	tmp = NULL;
	ev = ta_sweep_events(p->buffers, n);
	if (!ev)
		goto out;
	ta_bits_init(&live, n, bits);
	ret = ta_check_overlaps(p, offsets, only, root, ev, rank, by_rank,
				&live, conflict, w);
out:
	ta_env_free(ev);
	ta_env_free(bits);
	ta_env_free(by_rank);
	ta_env_free(rank);
	ta_env_free(tmp);
	return ret;
}

/**
 * ta_plan_check() - ta_plan_validate() that says what is wrong
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims; at least max(offset + size) over
 *	    the non-empty buffers
 * @conflict: out: the first problem found (%TA_CONFLICT_NONE when the
 *	      plan is valid or the problem itself is malformed)
 *
 * Every offset must be a multiple of its buffer's alignment and end within
 * @height and at or below %TA_PLAN_MAX_HEIGHT (no plan is taller), and two
 * buffers whose lifetimes overlap must not share a byte, unless they are
 * one alias class (a graph's in-place ops, see ta_graph_aliases(), or a
 * trace's &ta_problem.alias) at the same offset, or, in a problem with
 * &ta_problem.fixed and no alias classes, one is contained in the other:
 * both at their fixed offsets, neither exportable, its bytes and lifetime
 * within the other's (ta_contain.c). O(n log n) time (plus the nesting's
 * walks), O(n) memory.
 *
 * Return: 0 when valid; -EINVAL otherwise (also for a malformed problem);
 * -ENOMEM; -EINTR when ta_env_yield() asked to stop.
 */
int ta_plan_check(const struct ta_problem *p, const u64 *offsets,
		  u64 height, struct ta_conflict *conflict)
{
	struct ta_work w;
	u32 *root;
	int ret;

	ta_conflict_set(conflict, TA_CONFLICT_NONE, 0, 0, 0);
	ta_work_init(&w, 0);
	ret = ta_check_problem(p, &w);
	if (ret)
		return ret == -ENOMEM || ret == -EINTR ? ret : -EINVAL;
	if (!p->n_buffers)
		return 0;
	if (!offsets)
		return -EINVAL;
	ret = ta_problem_roots(p, &root, NULL);
	if (ret)
		return ret;
	ret = ta_check_plan(p, offsets, NULL, root, height, conflict, &w);
	ta_env_free(root);
	return ret;
}

/**
 * ta_plan_validate() - check a plan: no live overlap, alignment, height
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims; must equal max(offset + size) over
 *	    the non-empty buffers (0 when there are none)
 *
 * As ta_plan_check(), which also says what is wrong, plus the exact height.
 *
 * Return: 0 when valid; -EINVAL otherwise (also for a malformed problem);
 * -ENOMEM; -EINTR when ta_env_yield() asked to stop.
 */
int ta_plan_validate(const struct ta_problem *p, const u64 *offsets,
		     u64 height)
{
	struct ta_conflict c;
	struct ta_work w;
	u64 top = 0;
	int ret;

	ret = ta_plan_check(p, offsets, height, &c);
	if (ret || !p->n_buffers)
		return ret ? ret : (height ? -EINVAL : 0);
	ta_work_init(&w, 0);
	ret = ta_check_offsets(p, offsets, NULL, height, &top, &c, &w);
	if (ret)
		return ret;
	return top == height ? 0 : -EINVAL;
}

typedef int (*ta_strategy_fn)(const struct ta_problem *p,
			      const struct ta_budget *budget, u64 *offsets,
			      struct ta_result *res, struct ta_work *w);

static const ta_strategy_fn ta_strategies[TA_STRATEGY_COUNT] = {
	[TA_STRATEGY_AUTO] = ta_plan_auto,
	[TA_STRATEGY_PINGPONG] = ta_plan_pingpong,
	[TA_STRATEGY_STACK] = ta_plan_stack,
	[TA_STRATEGY_FREELIST] = ta_plan_freelist,
	[TA_STRATEGY_GREEDY_SIZE] = ta_plan_greedy_size,
};

/* Zero-size buffers sit at 0; the height is recomputed, never trusted. */
static int ta_plan_finish(const struct ta_problem *p, u64 *offsets,
			  struct ta_result *res)
{
	u64 top = 0;
	u32 i;

	for (i = 0; i < p->n_buffers; i++) {
		u64 size = p->buffers[i].size;

		if (!size) {
			offsets[i] = 0;
			continue;
		}
		if (offsets[i] > TA_PLAN_MAX_HEIGHT ||
		    offsets[i] + size > TA_PLAN_MAX_HEIGHT)
			return -EOVERFLOW;
		if (offsets[i] + size > top)
			top = offsets[i] + size;
	}
	res->height = top;
	if (top == res->lower_bound)
		res->optimal = true;
	return 0;
}

/* Lower bound, strategy, height: a validated problem without aliases. */
static int ta_plan_run(const struct ta_problem *p, enum ta_strategy strategy,
		       const struct ta_budget *budget, u64 *offsets,
		       struct ta_result *res, struct ta_work *w)
{
	int ret;

	ret = ta_sweep_lower_bound(p->buffers, p->n_buffers,
				   &res->lower_bound, w);
	if (ret)
		return ret;
	if (p->n_buffers) {
		ret = ta_strategies[strategy](p, budget, offsets, res, w);
		if (ret)
			return ret;
	}
	return ta_plan_finish(p, offsets, res);
}

/*
 * struct ta_merged - a problem with aliases, each alias class one buffer
 * @g: graph form: the merged graph as ta_alias_merge() makes it; trace
 *     form: only @g.n_tensors is set, the number of classes
 * @bufs: the merged buffers (graph form: the merged graph's lifetimes)
 * @cls: per buffer of the original problem, its class's buffer in @bufs
 * @graph: @g for graph form, NULL for trace form
 */
struct ta_merged {
	struct ta_graph g;
	struct ta_buffer *bufs;
	u32 *cls;
	const struct ta_graph *graph;
};

static void ta_merged_free(struct ta_merged *mg)
{
	ta_env_free(mg->bufs);
	if (mg->graph)
		ta_alias_free(&mg->g);
	ta_env_free(mg->cls);
}

/* Merge @p's alias classes (@root) and derive the merged lifetimes. */
static int ta_merged_build(const struct ta_problem *p, const u32 *root,
			   struct ta_merged *mg, struct ta_work *w)
{
	int ret;

	memset(mg, 0, sizeof(*mg));
	mg->cls = ta_env_alloc_array(p->n_buffers, sizeof(*mg->cls));
	if (!mg->cls)
		return -ENOMEM;
	if (!p->graph) {
		mg->bufs = ta_env_alloc_array(p->n_buffers, sizeof(*mg->bufs));
		if (!mg->bufs) {
			ta_merged_free(mg);
			return -ENOMEM;
		}
		mg->g.n_tensors = ta_alias_trace_merge(p->buffers, p->n_buffers,
						       root, mg->bufs, mg->cls);
		return 0;
	}
	mg->graph = &mg->g;
	ret = ta_alias_merge(p->graph, p->buffers, root, &mg->g, mg->cls);
	if (ret) {
		ta_env_free(mg->cls);
		return ret;
	}
	mg->bufs = ta_env_alloc_array(mg->g.n_tensors, sizeof(*mg->bufs));
	ret = mg->bufs ? ta_graph_lifetimes_work(&mg->g, mg->bufs, w) :
			 -ENOMEM;
	if (ret)
		ta_merged_free(mg);
	return ret;
}

/*
 * A graph whose in-place ops alias tensors (@root, @joined of them): plan
 * the merged graph (ta_alias_merge()), then give each member its class's
 * offset.
 */
static int ta_plan_aliased(const struct ta_problem *p,
			   enum ta_strategy strategy,
			   const struct ta_budget *budget, u64 *offsets,
			   struct ta_result *res, const u32 *root, u32 joined,
			   struct ta_work *w)
{
	struct ta_problem mp = { 0 };
	struct ta_merged mg;
	u64 *moff;
	u32 i;
	int ret;

	ret = ta_merged_build(p, root, &mg, w);
	if (ret)
		return ret;
	moff = ta_env_alloc_array(mg.g.n_tensors, sizeof(*moff));
	if (!moff) {
		ret = -ENOMEM;
		goto free_merged;
	}
	mp.n_buffers = mg.g.n_tensors;
	mp.buffers = mg.bufs;
	mp.graph = mg.graph;
	ret = ta_plan_run(&mp, strategy, budget, moff, res, w);
	if (!ret) {
		for (i = 0; i < p->n_buffers; i++)
			offsets[i] = p->buffers[i].size ? moff[mg.cls[i]] : 0;
		res->n_aliased = joined;
	}
	ta_env_free(moff);
free_merged:
	ta_merged_free(&mg);
	return ret;
}

/* The lower bound of a graph with aliases: that of its merged graph. */
static int ta_alias_lower_bound(const struct ta_problem *p, const u32 *root,
				u64 *lb, struct ta_work *w)
{
	struct ta_merged mg;
	int ret;

	ret = ta_merged_build(p, root, &mg, w);
	if (ret)
		return ret;
	ret = ta_sweep_lower_bound(mg.bufs, mg.g.n_tensors, lb, w);
	ta_merged_free(&mg);
	return ret;
}

/*
 * TA_STRATEGY_FIXED: the caller's offsets (@p->fixed) must be aligned,
 * within the height and free of live overlaps (aliases may share at one
 * offset); the unfixed buffers are placed greedily around them and must
 * fit under &ta_problem.fixed_height when one is given.
 */
static int ta_plan_fixed(const struct ta_problem *p, u64 *offsets,
			 struct ta_result *res, const u32 *root,
			 struct ta_work *w)
{
	u64 limit = p->fixed_height ? p->fixed_height : TA_PLAN_MAX_HEIGHT;
	u32 i, high = 0;
	int ret;

	if (root)
		ret = ta_alias_lower_bound(p, root, &res->lower_bound, w);
	else
		ret = ta_contain_lower_bound(p, &res->lower_bound, w);
	if (ret || !p->n_buffers)
		return ret;
	ret = ta_check_plan(p, p->fixed, p->fixed, root, limit, &res->conflict,
			    w);
	if (ret)
		return ret;
	if (ta_contain_applies(p, root))
		ret = ta_contain_place(p, offsets, &res->height, w);
	else
		ret = ta_greedy_place(p->buffers, p->n_buffers, p->fixed,
				      offsets, &res->height, w);
	if (ret)
		return ret;
	res->steps = p->n_buffers;
	ret = ta_plan_finish(p, offsets, res);
	if (ret || !p->fixed_height)
		return ret;
	if (res->height > p->fixed_height) {
		/* an unfixed buffer did not fit: name the highest */
		for (i = 0; i < p->n_buffers; i++)
			if (offsets[i] + p->buffers[i].size >
			    offsets[high] + p->buffers[high].size)
				high = i;
		ta_conflict_set(&res->conflict, TA_CONFLICT_HEIGHT, high, high,
				0);
		return -EINVAL;
	}
	res->height = p->fixed_height;
	res->optimal = res->height == res->lower_bound;
	return 0;
}

/**
 * ta_plan() - plan a problem with one strategy
 * @p: the problem (validated here: sizes, alignments, lifetimes, limits;
 *     for graph form, the buffers must be ta_graph_lifetimes() of the graph)
 * @strategy: which strategy
 * @budget: effort limits passed to the strategy, or NULL for its defaults
 * @offsets: out, @p->n_buffers offsets (may be NULL when there are none)
 * @res: out, the figures
 *
 * Zero-size buffers get offset 0. res->optimal is set when the height
 * equals the lower bound or the strategy proved its plan optimal. A graph
 * whose %TA_OP_INPLACE ops alias tensors (ta_graph_aliases()) is planned
 * with each alias class as one buffer: its members get one offset, the
 * lower bound is that of the aliased graph and res->n_aliased counts the
 * members that share. %TA_STRATEGY_FIXED takes @p->fixed (which must be
 * set with it and only with it) and fails with -EINVAL and res->conflict
 * set when those offsets break a rule. Built with TA_PLAN_DEBUG, every
 * plan is checked with ta_plan_check() and a plan that fails (a planner
 * bug) makes ta_plan() return -EINVAL.
 *
 * Return: 0; -EINVAL for a malformed problem or unknown strategy; -E2BIG
 * beyond the limits; -EOVERFLOW when the lower bound or the strategy's
 * height would not fit in 63 bits; -ENOMEM; -EINTR when ta_env_yield()
 * asked to stop (in the kernel: a signal is pending); -ETIMEDOUT when
 * @budget->limit_ns ran out before the strategy had a complete plan (an
 * anytime strategy that has one returns it instead, with 0).
 *
 * Every loop counts its work and calls ta_env_yield() every few thousand
 * units; @budget->limit_ns, when set, bounds the whole call, validation
 * included, checked at the same points.
 */
int ta_plan(const struct ta_problem *p, enum ta_strategy strategy,
	    const struct ta_budget *budget, u64 *offsets,
	    struct ta_result *res)
{
	u64 t0 = ta_env_now_ns();
	u32 *root, joined = 0;
	struct ta_work w;
	bool is_fixed;
	int ret;

	if (!res)
		return -EINVAL;
	res->height = 0;
	res->lower_bound = 0;
	res->time_ns = 0;
	res->steps = 0;
	res->search_bytes = 0;
	res->optimal = false;
	res->n_aliased = 0;
	res->conflict.kind = TA_CONFLICT_NONE;
	if (strategy != TA_STRATEGY_FIXED &&
	    (unsigned int)strategy >= TA_STRATEGY_COUNT)
		return -EINVAL;
	ta_work_init(&w, budget ? budget->limit_ns : 0);
	ret = ta_check_problem(p, &w);
	if (ret)
		return ret;
	is_fixed = strategy == TA_STRATEGY_FIXED;
	if ((p->n_buffers && !offsets) || is_fixed != !!p->fixed ||
	    (p->fixed_height && !p->fixed) ||
	    p->fixed_height > TA_PLAN_MAX_HEIGHT)
		return -EINVAL;
	ret = ta_problem_roots(p, &root, &joined);
	if (ret)
		return ret;
	if (strategy == TA_STRATEGY_FIXED)
		ret = ta_plan_fixed(p, offsets, res, root, &w);
	else if (root)
		ret = ta_plan_aliased(p, strategy, budget, offsets, res, root,
				      joined, &w);
	else
		ret = ta_plan_run(p, strategy, budget, offsets, res, &w);
	ta_env_free(root);
	if (ret)
		return ret;
#ifdef TA_PLAN_DEBUG
	{
		struct ta_conflict c;

		ret = ta_plan_check(p, offsets, res->height, &c);
		if (ret)
			return ret == -ENOMEM || ret == -EINTR ? ret : -EINVAL;
	}
#endif
	res->time_ns = ta_env_now_ns() - t0;
	return 0;
}

/**
 * ta_problem_lower_bound() - a height no plan can go below
 * @p: the problem
 * @lower_bound: out
 *
 * The alignment-aware bound of ta_sweep_lower_bound(). For a graph whose
 * in-place ops alias tensors, an alias class counts once, with the largest
 * alignment of its members (see ta_graph_aliases()): the bound ta_plan()
 * reports, and a plan at it is optimal. With &ta_problem.fixed (and no
 * alias classes), the fixed tensors contained in others are left out: they
 * take no byte of their own (ta_contain_lower_bound()).
 *
 * Return: 0; -EINVAL or -E2BIG for a bad problem (as ta_plan()); -ENOMEM;
 * -EOVERFLOW when the bound would not fit in 63 bits; -EINTR when
 * ta_env_yield() asked to stop.
 */
int ta_problem_lower_bound(const struct ta_problem *p, u64 *lower_bound)
{
	struct ta_work w;
	u32 *root;
	int ret;

	if (!lower_bound)
		return -EINVAL;
	*lower_bound = 0;
	ta_work_init(&w, 0);
	ret = p && p->graph ? ta_check_problem(p, &w) : ta_check_buffers(p, &w);
	if (ret)
		return ret;
	ret = ta_problem_roots(p, &root, NULL);
	if (ret)
		return ret;
	if (root)
		ret = ta_alias_lower_bound(p, root, lower_bound, &w);
	else
		ret = ta_contain_lower_bound(p, lower_bound, &w);
	ta_env_free(root);
	return ret;
}
