// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_auto.c - the default strategy: a portfolio of fast orderings, then a
 * bounded search toward the lower bound.
 *
 * 1. freelist, then greedy-size's pass through auto's fit engine, cut at
 *    the budget (freelist's plan stands when it is), so that auto is never
 *    worse than either and returns within its budget plus freelist's one
 *    O(n log n) pass; the fit engine is built only when the time left
 *    covers about one more such pass;
 * 2. the fit engine (ta_fit.c) with several static orders (largest,
 *    largest area, longest, most crowded, ...), each with first and best
 *    fit, keeping the lowest plan;
 * 3. every other strategy (pingpong's regions, stack), so that
 *    none of them beats auto; up to %TA_STACK_EXHAUSTIVE buffers stack
 *    enumerates every order, which proves its plan optimal;
 * 4. up to %TA_SEARCH_MAX_BUFFERS buffers, on a packing with no slack:
 *    an eighth of the time to the branch and bound, then half of what
 *    is left to the problem with its blocks merged (ta_contract.c);
 *    from %TA_AUTO_FLAT_LARGE buffers, 7/8 to the merged problem at once;
 *    then the skyline branch and bound (ta_search.c) from the best plan,
 *    which stops at the lower bound or when it has proven its plan
 *    optimal (5/8 of what is left on a packing with no slack, else all),
 *    and the improving search (ta_climb.c) from the best plan in what the
 *    branch and bound leaves;
 * 5. larger problems: iterated greedy - buffers that end up high move
 *    forward in the order (most crowded first, then largest) and the fit
 *    runs again - while time is left. On pangu_2.6B (18,692 buffers, 547
 *    of them live at its one most crowded moment) the first such pass
 *    meets the lower bound, where passes from the largest first stayed
 *    0.76 % above it.
 *
 * Every phase stops at the lower bound and within the budget: time_ns
 * (default %TA_AUTO_DEFAULT_NS plus %TA_AUTO_NS_PER_BUFFER per buffer, so
 * that a large trace gets a few portfolio passes: 1 s for 300 buffers, 5 s
 * for 62,000) and steps (default unlimited).
 */
#include "ta_strategy.h"
#include "ta_fit.h"
#include "ta_search.h"
#include "ta_climb.h"
#include "ta_contract.h"

#define TA_AUTO_DEFAULT_NS	1000000000ULL
#define TA_AUTO_NS_PER_BUFFER	64000ULL
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The passes of the portfolio, best first on the real traces: order number
 * (see ta_auto_order()) and fit. Problems too large to search run only the
 * first %TA_AUTO_LARGE_PASSES (the others, cut short once above the best
 * plan, won nothing on the real traces and took a quarter of a second
 * from the iterated passes on pangu_2.6B, on a loaded machine).
 */
static const u8 ta_auto_passes[][2] = {
	{ 1, TA_FIT_BEST }, { 6, TA_FIT_BEST }, { 0, TA_FIT_FIRST },
	{ 0, TA_FIT_BEST }, { 1, TA_FIT_FIRST }, { 2, TA_FIT_FIRST },
	{ 3, TA_FIT_BEST }, { 4, TA_FIT_BEST }, { 5, TA_FIT_FIRST },
	{ 5, TA_FIT_BEST }, { 3, TA_FIT_FIRST }, { 4, TA_FIT_FIRST },
};

#define TA_AUTO_LARGE_PASSES	4
/*
 * Up to this many buffers greedy-size's pass runs even past the deadline:
 * it is shorter than the fit engine's interval between deadline checks
 * (256 placements), and auto stays as good as greedy-size there.
 */
#define TA_AUTO_ALWAYS_GREEDY	256
/* the order the iterated passes start from */
#define TA_AUTO_ITERATE_ORDER	6
/*
 * From this many buffers a packing with no slack goes to the merged
 * problem (ta_contract.c) at once, with 7/8 of the time left: at 2,000
 * buffers the branch and bound's first eighth never reached the bound,
 * and the merged search found its plans only when it had more time.
 */
#define TA_AUTO_FLAT_LARGE	1024

struct ta_auto_key {
	u64 k1;
	u64 k2;
	u32 idx;
};

static int ta_auto_cmp(const void *a, const void *b)
{
	const struct ta_auto_key *x = a, *y = b;

	if (x->k1 != y->k1)
		return x->k1 > y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 > y->k2 ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static u64 ta_auto_mul(u64 a, u64 b)
{
	u64 r;

	if (__builtin_mul_overflow(a, b, &r))
		return U64_MAX;
	return r;
}

static int ta_auto_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * For every buffer, the most bytes live at one step of its lifetime (its
 * most crowded moment): live bytes per section from a difference array,
 * then a range-maximum tree over the sections. O(n log n).
 */
static int ta_auto_crowding(const struct ta_problem *p, u64 *crowd)
{
	u32 n = p->n_buffers, nt = 0, t = 0, i, m = 1, ns;
	u32 *times;
	u64 *tree;
	u64 live = 0;

	times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*times));
	if (!times)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		times[nt++] = p->buffers[i].start;
		times[nt++] = p->buffers[i].end;
	}
	ta_env_sort(times, nt, sizeof(*times), ta_auto_cmp_u32);
	for (i = 0; i < nt; i++)
		if (!t || times[t - 1] != times[i])
			times[t++] = times[i];
	ns = t ? t - 1 : 0;
	while (m < ns)
		m <<= 1;
	tree = ta_env_alloc_array(2 * (size_t)m + 2, sizeof(*tree));
	if (!tree) {
		ta_env_free(times);
		return -ENOMEM;
	}
	/* difference array in the leaves (wrapping u64 arithmetic) */
	for (i = 0; i < n; i++) {
		tree[m + ta_search_index(times, t, p->buffers[i].start)] +=
			p->buffers[i].size;
		tree[m + ta_search_index(times, t, p->buffers[i].end)] -=
			p->buffers[i].size;
	}
	for (i = 0; i < m; i++) {
		live += tree[m + i];
		tree[m + i] = i < ns ? live : 0;
	}
	for (i = m; i-- > 1;)
		tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] :
			  tree[2 * i + 1];
	for (i = 0; i < n; i++) {
		u32 lo = m + ta_search_index(times, t, p->buffers[i].start);
		u32 hi = m + ta_search_index(times, t, p->buffers[i].end);
		u64 best = 0;

		while (lo < hi) {
			if (lo & 1 && tree[lo++] > best)
				best = tree[lo - 1];
			if (hi & 1 && tree[--hi] > best)
				best = tree[hi];
			lo >>= 1;
			hi >>= 1;
		}
		crowd[i] = best;
	}
	ta_env_free(tree);
	ta_env_free(times);
	return 0;
}

/* Fill @order with static order number @which. */
static void ta_auto_order(const struct ta_problem *p, u32 which,
			  const u64 *crowd, struct ta_auto_key *keys,
			  u32 *order)
{
	u32 i, n = p->n_buffers;

	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[i];
		u64 len = b->end - b->start;

		keys[i].idx = i;
		switch (which) {
		case 0:		/* largest first, earliest among equals */
			keys[i].k1 = b->size;
			keys[i].k2 = U32_MAX - b->start;
			break;
		case 1:		/* most crowded, then longest, then largest */
			keys[i].k1 = crowd[i];
			keys[i].k2 = (len << 32) | (U32_MAX - b->start);
			break;
		case 2:		/* largest first, longest among equals */
			keys[i].k1 = b->size;
			keys[i].k2 = len;
			break;
		case 3:		/* largest area first */
			keys[i].k1 = ta_auto_mul(b->size, len);
			keys[i].k2 = b->size;
			break;
		case 4:		/* longest first */
			keys[i].k1 = len;
			keys[i].k2 = b->size;
			break;
		case 5:		/* largest size class, then most crowded */
			keys[i].k1 = b->size ? 64 - __builtin_clzll(b->size) : 0;
			keys[i].k2 = crowd[i];
			break;
		default:	/* most crowded, then largest */
			keys[i].k1 = crowd[i];
			keys[i].k2 = b->size;
			break;
		}
	}
	ta_env_sort(keys, n, sizeof(*keys), ta_auto_cmp);
	for (i = 0; i < n; i++)
		order[i] = keys[i].idx;
}

static void ta_auto_copy(u64 *dst, const u64 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

/*
 * Iterated greedy for large problems: buffers whose top lies above the
 * lower bound move to the front of the order, and the pass runs again.
 */
static int ta_auto_iterate(const struct ta_problem *p, struct ta_fit *fit,
			   u32 *order, u32 *tmpo, u64 *cur, u64 *offsets,
			   u64 *best, u64 lb, struct ta_work *lim)
{
	u32 n = p->n_buffers, i, k, round;
	u64 h, ref = *best;
	int ret;

	ta_auto_copy(cur, offsets, n);
	for (round = 0; *best > lb; round++) {
		u64 thr = lb;

		/* a pass checks the limits only every few hundred buffers */
		ret = ta_work_limit_hit(lim);
		if (ret)
			return ret < 0 ? ret : 0;

		/* the buffers above the lower bound in the reference plan */
		k = 0;
		for (i = 0; i < n; i++) {
			u32 b = order[i];

			if (cur[b] + p->buffers[b].size > thr)
				tmpo[k++] = b;
		}
		if (!k)
			break;
		for (i = 0; i < n; i++) {
			u32 b = order[i];

			if (cur[b] + p->buffers[b].size <= thr)
				tmpo[k++] = b;
		}
		for (i = 0; i < n; i++)
			order[i] = tmpo[i];
		ret = ta_fit_run(fit, order, round & 1 ? TA_FIT_FIRST : TA_FIT_BEST,
				 U64_MAX, cur, &h, lim);
		if (ret == -EAGAIN)
			return 0;
		if (ret)
			return ret;
		if (h < *best) {
			*best = h;
			ta_auto_copy(offsets, cur, n);
		}
		if (h > ref + (ref >> 4))
			break;
	}
	return 0;
}

#define TA_AUTO_RIVALS	3

/*
 * Rival @which: 1, pingpong's regions (auto has greedy-size's and
 * freelist's plans already, see ta_auto_first()), 2, stack (greedy-size
 * itself above %TA_STACK_MAX_GREEDY).
 * res->height is U64_MAX when the rival has nothing new to offer.
 */
static int ta_auto_rival(const struct ta_problem *p, u32 which,
			 const struct ta_budget *budget, u64 *offsets,
			 struct ta_result *res, struct ta_work *w)
{
	res->optimal = false;
	switch (which) {
	case 1:
		return ta_pingpong_regions(p, offsets, res, w);
	default:
		if (p->n_buffers > TA_STACK_MAX_GREEDY) {
			res->height = U64_MAX;
			return 0;
		}
		return ta_plan_stack(p, budget, offsets, res, w);
	}
}

/*
 * Run rival @which under auto's deadline too: the call's hard deadline is
 * brought in to @deadline for it, and a stop on that deadline alone is
 * forgotten afterwards (-EAGAIN: the rival has nothing to offer).
 */
static int ta_auto_rival_by(const struct ta_problem *p, u32 which,
			    const struct ta_budget *budget, u64 deadline,
			    u64 *offsets, struct ta_result *res,
			    struct ta_work *w)
{
	struct ta_work *root = w->root ? w->root : w;
	u64 saved = root->limit_ns;
	int ret;

	if (root->err)
		return root->err;
	if (!saved || saved > deadline)
		root->limit_ns = deadline;
	ret = ta_auto_rival(p, which, budget, offsets, res, w);
	root->limit_ns = saved;
	if (ret == -ETIMEDOUT && (!saved || ta_env_now_ns() < saved)) {
		root->err = 0;
		ret = -EAGAIN;
	}
	return ret;
}

/*
 * freelist's pass (fast, O(n log n)) into @flo; *@fl_h is its height,
 * U64_MAX when it overflowed. Return: 0 or a negative errno.
 */
static int ta_auto_freelist(const struct ta_problem *p,
			    const struct ta_budget *budget, u64 *flo,
			    u64 *fl_h, struct ta_result *res,
			    struct ta_work *w)
{
	struct ta_result fres = *res;
	int ret;

	ret = ta_plan_freelist(p, budget, flo, &fres, w);
	if (ret && ret != -EOVERFLOW)
		return ret;
	*fl_h = ret ? U64_MAX : fres.height;
	res->steps = p->n_buffers;
	return 0;
}

/*
 * The first plan past freelist's (@flo, height @fl_h), within the budget:
 * greedy-size's pass through auto's fit engine, cut at the deadline; when
 * it is cut, freelist's plan is the plan. *@best is the plan's height.
 * Return: 0, 1 when out of time (the plan in @offsets is freelist's), or
 * a negative errno.
 */
static int ta_auto_first(const struct ta_problem *p,
			 const struct ta_budget *budget, struct ta_fit *fit,
			 u32 *order, const u64 *flo, u64 fl_h, u64 *offsets,
			 u64 *best, struct ta_result *res, struct ta_work *w,
			 struct ta_work *lim)
{
	u32 n = p->n_buffers;
	int ret;

	ret = ta_greedy_order(p->buffers, n, order);
	if (!ret)
		ret = ta_work_add(w, 16 * (u64)n);
	if (!ret && fl_h > res->lower_bound)
		ret = ta_fit_run(fit, order, TA_FIT_BEST, U64_MAX, offsets,
				 best, lim);
	else if (!ret)
		ret = -EAGAIN;	/* freelist met the lower bound */
	if (!ret) {
		lim->steps -= n;	/* greedy-size's steps are res->steps */
		return 0;
	}
	if (ret != -EAGAIN && ret != -ETIMEDOUT)
		return ret;
	if (fl_h == U64_MAX) {
		/* nothing to fall back on: greedy-size, to the end */
		ret = ta_plan_greedy_size(p, budget, offsets, res, w);
		*best = res->height;
		return ret ? ret : 1;
	}
	ta_auto_copy(offsets, flo, n);
	*best = fl_h;
	return 1;
}

/*
 * Anytime past its first plan: the budget (time_ns) bounds every phase,
 * the rivals too, and the hard deadline in @w (limit_ns) stops them like
 * the budget does; the best plan so far is returned. Only freelist's first
 * pass (or greedy-size's, when freelist's overflowed) can end with
 * -ETIMEDOUT.
 */
int ta_plan_auto(const struct ta_problem *p, const struct ta_budget *budget,
		 u64 *offsets, struct ta_result *res, struct ta_work *w)
{
	struct ta_work lim;
	struct ta_auto_key *keys = NULL;
	struct ta_fit *fit = NULL;
	u32 *order = NULL, *tmpo = NULL;
	u64 *cur = NULL, *crowd = NULL, *flo = NULL, best = U64_MAX;
	u64 lb = res->lower_bound, h, t0, deadline, fl_h = U64_MAX;
	u32 n = p->n_buffers, pass, passes;
	bool proven = false;
	int ret;

	t0 = ta_env_now_ns();
	deadline = t0 + (budget && budget->time_ns ? budget->time_ns :
			 TA_AUTO_DEFAULT_NS + TA_AUTO_NS_PER_BUFFER * n);
	lim = ta_work_sub(w, deadline, budget ? budget->steps : 0);

	/* freelist's plan, in @offsets: the plan when auto stops here */
	ret = ta_auto_freelist(p, budget, offsets, &fl_h, res, w);
	if (ret)
		return ret;
	/*
	 * What comes next starts with sorts and the fit engine's index,
	 * which cannot stop half way: about one more freelist pass (both
	 * O(n log n) over the same buffers). When that does not fit in the
	 * time left, or freelist met the lower bound, freelist's plan is the
	 * plan: auto returns within its budget plus that one pass (and
	 * nothing more: no copy, no array of its own).
	 */
	h = ta_env_now_ns();
	if (fl_h <= lb || (fl_h != U64_MAX && n > TA_AUTO_ALWAYS_GREEDY &&
			   h + (h - t0) >= deadline)) {
		best = fl_h;
		goto searched;
	}
	/* kept apart: the search writes its plans into @offsets */
	flo = ta_env_alloc_array(n, sizeof(*flo));
	if (!flo)
		return -ENOMEM;
	ta_auto_copy(flo, offsets, n);
	fit = ta_fit_create(p->buffers, n, TA_FIT_RUNS, w);
	keys = ta_env_alloc_array(n, sizeof(*keys));
	order = ta_env_alloc_array(n, sizeof(*order));
	tmpo = ta_env_alloc_array(n, sizeof(*tmpo));
	cur = ta_env_alloc_array(n, sizeof(*cur));
	crowd = ta_env_alloc_array(n, sizeof(*crowd));
	if (!fit || !keys || !order || !tmpo || !cur || !crowd) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ta_auto_first(p, budget, fit, order, flo, fl_h, offsets, &best,
			    res, w, &lim);
	res->lower_bound = lb;
	if (ret < 0)
		goto out;
	if (ret || best <= lb || n < 2)
		goto searched;
	ret = ta_auto_crowding(p, crowd);
	if (!ret)
		ret = ta_work_add(w, 8 * (u64)n);
	if (ret == -ETIMEDOUT)
		goto searched;
	if (ret)
		goto out;
	passes = n > TA_SEARCH_MAX_BUFFERS ? TA_AUTO_LARGE_PASSES :
					     ARRAY_SIZE(ta_auto_passes);
	for (pass = 0; pass < passes && best > lb; pass++) {
		ret = ta_work_limit_hit(&lim);
		if (ret < 0)
			goto out;
		if (ret)
			break;	/* the rivals still run */
		ta_auto_order(p, ta_auto_passes[pass][0], crowd, keys, order);
		ret = ta_work_add(w, 4 * (u64)n);
		if (ret == -ETIMEDOUT)
			goto searched;
		if (ret)
			goto out;
		ret = ta_fit_run(fit, order, ta_auto_passes[pass][1], best, cur,
				 &h, &lim);
		if (ret == -EAGAIN) {
			if (lim.timed_out)
				break;	/* the rivals still run */
			continue;
		}
		if (ret)
			goto out;
		if (h < best) {
			best = h;
			ta_auto_copy(offsets, cur, n);
		}
	}
	/*
	 * The other strategies, so that none of them ever beats auto:
	 * freelist's plan from the first pass, then the others, each cut at
	 * auto's deadline (a rival cut short offers nothing). Up to
	 * %TA_STACK_EXHAUSTIVE buffers stack enumerates every order, exact
	 * with any alignment: the search's canonical placements are complete
	 * only when no alignment exceeds the size granule.
	 */
	if (fl_h < best) {
		best = fl_h;
		ta_auto_copy(offsets, flo, n);
	}
	for (pass = 1; pass < TA_AUTO_RIVALS && best > lb && !proven; pass++) {
		struct ta_result rres = *res;

		ret = ta_auto_rival_by(p, pass, budget, deadline, cur, &rres,
				       w);
		if (ret == -ETIMEDOUT)
			goto searched;
		if (ret == -EOVERFLOW || ret == -EAGAIN)
			continue;
		if (ret)
			goto out;
		if (rres.height < best) {
			best = rres.height;
			ta_auto_copy(offsets, cur, n);
		}
		/* an exhaustive stack proves the height auto holds now */
		proven = rres.optimal && rres.height <= best;
	}
	ret = lim.timed_out ? 1 : ta_work_limit_hit(&lim);
	if (ret < 0)
		goto out;
	if (ret)
		goto searched;
	ret = -E2BIG;
	if (best > lb && !proven && n <= TA_SEARCH_MAX_BUFFERS) {
		struct ta_work clim, slim;
		int flat = ta_contract_is_flat(p);

		if (flat < 0) {
			ret = flat;
			goto out;
		}
		/*
		 * A packing with no slack: an eighth of the time to the
		 * search (most it solves, it solves at once), then half of
		 * what is left to the problem with its blocks merged; from
		 * %TA_AUTO_FLAT_LARGE buffers, 7/8 to the merged problem.
		 */
		if (flat && n < TA_AUTO_FLAT_LARGE) {
			slim = ta_work_share(&lim, 8);
			ret = ta_search_skyline(p, lb, &slim, offsets, &best,
						&proven);
			ta_work_spent(&lim, &slim);
			if (ret && ret != -E2BIG)
				goto out;
		}
		if (flat && best > lb && !proven) {
			clim = ta_work_part(&lim, n < TA_AUTO_FLAT_LARGE ?
						  4 : 7, 8);
			ret = ta_contract_search(p, lb, &clim, offsets, &best,
						 &proven);
			ta_work_spent(&lim, &clim);
			if (ret < 0 && ret != -ETIMEDOUT)
				goto out;
		}
		/*
		 * The branch and bound gets 5/8 of what is left on a packing
		 * with no slack: it finds its plans early or not at all (the
		 * cuts it solves take at most 0.4 s of 1 s); the rest goes to
		 * the improving search (ta_climb.c), which starts from the
		 * best plan the search left. A packing with slack (every real
		 * trace): the search's own time, as before; the climb gets
		 * what it leaves.
		 */
		slim = flat ? ta_work_part(&lim, 5, 8) : lim;
		ret = 0;
		if (best > lb && !proven) {
			ret = ta_search_skyline(p, lb, &slim, offsets, &best,
						&proven);
			ta_work_spent(&lim, &slim);
		}
		if (!ret && best > lb && !proven && !lim.timed_out) {
			/* -EINTR stops auto; a limit reached, only the climb */
			ret = ta_work_limit_hit(&lim);
			if (!ret)
				ret = ta_climb(p, lb, &lim, offsets, &best);
			else if (ret > 0)
				ret = 0;
		}
	}
	if (ret == -E2BIG && best > lb && !proven) {
		/* too large to search: iterated passes instead */
		ta_auto_order(p, TA_AUTO_ITERATE_ORDER, crowd, keys, order);
		ret = ta_auto_iterate(p, fit, order, tmpo, cur, offsets,
				      &best, lb, &lim);
	}
	if (ret && ret != -E2BIG)
		goto out;
searched:
	ret = 0;
	res->search_bytes = (fit ? ta_fit_bytes(fit) : 0) + lim.bytes;
out:
	ta_fit_destroy(fit);
	ta_env_free(keys);
	ta_env_free(order);
	ta_env_free(tmpo);
	ta_env_free(cur);
	ta_env_free(crowd);
	ta_env_free(flo);
	if (ret)
		return ret;
	res->height = best;
	res->steps += lim.steps;
	res->optimal = best <= lb || proven;
	return 0;
}
