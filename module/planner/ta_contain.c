// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_contain.c - fixed plans whose tensors nest: a tensor inside another.
 *
 * A compiler for an NPU may place a tensor inside another one: Vela puts
 * the input and output of its ethos-u op, and scratch_fast, inside the
 * scratch tensor, whose command stream addresses them there. A fixed plan
 * (&ta_problem.fixed) may do so: tensor A is *contained* in tensor B when
 * both have offsets the caller fixed, A's bytes lie within B's and A's
 * lifetime within B's (equal ones: the lower index contains the higher).
 * Such a pair may share bytes; every other pair of tensors live at one
 * step must not, so the tensors form a forest: a tensor's parent is its
 * least container, and tensors of one parent (or of none) are apart while
 * both are live. An exportable tensor (%TA_TENSOR_EXPORTABLE: its pages are
 * its own dma-buf) is neither contained nor a container. Nothing is
 * declared: containment follows from the offsets, and the caller's plan
 * gains no byte it could not already reach (a plan's slice is its owner's
 * alone), so inferring it is safe. The planner's own placements (the
 * unfixed tensors, every other strategy) never nest.
 *
 * The check is a sweep over time, as ta_plan.c's validator, over the
 * tensors ranked by (first byte, last byte descending, start, end
 * descending, index): a container ranks before what it contains, and at one step
 * starts come in rank order, so a container is live before its contents.
 * Invariant: two live tensors that share bytes are ancestor and
 * descendant in the forest. A tensor that starts checks its next live
 * neighbour in rank (which must lie above it) and walks up from its
 * previous one through the parents, past those below its first byte, to
 * the first that reaches into it: that one must contain it and becomes its
 * parent. O(n log n) plus, per tensor, the parents the walk passes (none
 * when nothing nests), each counted as work.
 */
#include "ta_bits.h"
#include "ta_bound.h"
#include "ta_contain.h"
#include "ta_greedy.h"
#include "ta_sort.h"

/* The sort key: a container ranks before its contents. */
struct ta_contain_key {
	u64 lo;
	u64 hi;
	u32 start;
	u32 end;
	u32 index;
};

static int ta_contain_cmp(const void *pa, const void *pb)
{
	const struct ta_contain_key *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/**
 * ta_contain_applies() - whether a problem's fixed tensors may nest
 * @p: a validated problem
 * @root: its alias classes (in-place ops), NULL when none
 *
 * Only a fixed plan (&ta_problem.fixed) nests, and not together with
 * alias classes: the two are not combined, such a plan is checked as
 * before (every live overlap refused but an alias pair's).
 *
 * Return: true when ta_contain_check() is the plan's overlap check.
 */
bool ta_contain_applies(const struct ta_problem *p, const u32 *root)
{
	return p->fixed && !root;
}

/* Tensor @i may contain or be contained: fixed there, not exportable. */
static bool ta_contain_may(const struct ta_problem *p, const u64 *offsets,
			   u32 i)
{
	if (p->fixed[i] == TA_OFFSET_UNFIXED || offsets[i] != p->fixed[i])
		return false;
	return !p->graph ||
	       !(p->graph->tensors[i].flags & TA_TENSOR_EXPORTABLE);
}

static void ta_contain_conflict(struct ta_conflict *c, u32 kind, u32 a,
				u32 b, u32 step)
{
	c->kind = kind;
	c->a = a < b ? a : b;
	c->b = a < b ? b : a;
	c->step = step;
}

/* The scratch of ta_contain_rank(), in u64 words: keys, sort, indices. */
static size_t ta_contain_scratch_words(u32 n)
{
	return n + ta_radix_scratch_words(n, true) + (n + 1) / 2;
}

/*
 * The selected tensors (with bytes; with @only, fixed there) ranked:
 * @key[r] is rank r's. @lo is scratch of ta_contain_scratch_words(n): the
 * first bytes, sorted by a radix sort (stable, made in index order), so
 * that only the tensors of one first byte need the comparison sort.
 * Return: how many, or -EINVAL (and @c) for an offset whose end passes
 * %TA_PLAN_MAX_HEIGHT.
 */
static s64 ta_contain_rank(const struct ta_problem *p, const u64 *offsets,
			   const u64 *only, struct ta_contain_key *key,
			   u64 *lo, struct ta_conflict *c)
{
	u32 i, j, m = 0, n = p->n_buffers;
	u64 *scratch = lo + n;
	u32 *idx = (u32 *)(scratch + ta_radix_scratch_words(n, true));

	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[i];

		if (!b->size || (only && only[i] == TA_OFFSET_UNFIXED))
			continue;
		if (offsets[i] > TA_PLAN_MAX_HEIGHT ||
		    b->size > TA_PLAN_MAX_HEIGHT - offsets[i]) {
			ta_contain_conflict(c, TA_CONFLICT_HEIGHT, i, i, 0);
			return -EINVAL;
		}
		lo[m] = offsets[i];
		idx[m] = i;
		m++;
	}
	ta_radix_sort_in(lo, idx, m, scratch);
	for (j = 0; j < m; j++) {
		const struct ta_buffer *b = &p->buffers[idx[j]];

		i = idx[j];
		key[j].lo = offsets[i];
		key[j].hi = offsets[i] + b->size;
		key[j].start = b->start;
		key[j].end = b->end;
		key[j].index = i;
	}
	/* ties in the first byte: the rest of the order */
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && key[j].lo == key[i].lo; j++)
			;
		if (j - i > 1)
			ta_env_sort(key + i, j - i, sizeof(*key),
				    ta_contain_cmp);
	}
	return m;
}

/*
 * Rank @r starts: find its parent among the live ranks (@live; @par is by
 * rank). Return: 0; 1 when it shares bytes with rank *@hit, which does not
 * contain it; or what ta_work_add() returns.
 */
static int ta_contain_start(const struct ta_problem *p, const u64 *offsets,
			    const struct ta_contain_key *key,
			    const struct ta_bits *live, u32 *par, u32 r,
			    u32 *hit, struct ta_work *w)
{
	const struct ta_contain_key *a = &key[r];
	s64 q = ta_bits_prev(live, r);
	int ret;

	while (q >= 0) {
		const struct ta_contain_key *b = &key[q];

		ret = ta_work_add(w, 1);
		if (ret)
			return ret;
		if (b->hi <= a->lo) {
			/* below it: its container may reach in */
			q = par[q] == TA_CONTAIN_NONE ? -1 : (s64)par[q];
			continue;
		}
		*hit = (u32)q;
		if (b->hi < a->hi || b->end < a->end ||
		    !ta_contain_may(p, offsets, a->index) ||
		    !ta_contain_may(p, offsets, b->index))
			return 1;
		par[r] = (u32)q;
		break;
	}
	q = ta_bits_next(live, r);
	*hit = (u32)q;
	return q >= 0 && key[q].lo < a->hi;
}

/**
 * ta_contain_check() - the overlap check of a fixed plan whose tensors nest
 * @p: a validated problem with &ta_problem.fixed and no alias classes
 * @offsets: the plan (the fixed offsets, or a plan ta_plan_solve() returned)
 * @only: NULL to check every tensor with bytes, or @p->fixed to check
 *	  only the fixed ones
 * @parent: NULL, or out, per tensor: its least container, or
 *	    %TA_CONTAIN_NONE (also for the tensors not checked)
 * @c: out: the first overlap found (a pair neither of which contains the
 *     other), or an offset whose end passes %TA_PLAN_MAX_HEIGHT
 * @w: work counter
 *
 * Alignment and height are ta_plan.c's to check. See the top of this file.
 *
 * Return: 0, -EINVAL (@c set), -ENOMEM, or what ta_work_add() returns.
 */
int ta_contain_check(const struct ta_problem *p, const u64 *offsets,
		     const u64 *only, u32 *parent, struct ta_conflict *c,
		     struct ta_work *w)
{
	u32 n = p->n_buffers, m, k, r, i, hit = 0;
	struct ta_contain_key *key;
	u64 *lo, *ev = NULL, *bits = NULL;
	u32 *par = NULL;
	struct ta_bits live;
	s64 got;
	int ret = -ENOMEM;

	if (parent)
		for (i = 0; i < n; i++)
			parent[i] = TA_CONTAIN_NONE;
	key = ta_env_alloc_array(n ? n : 1, sizeof(*key));
	if (!key)
		return -ENOMEM;
	lo = ta_env_alloc_array(ta_contain_scratch_words(n), sizeof(*lo));
	if (!lo)
		goto out;
	got = ta_contain_rank(p, offsets, only, key, lo, c);
	ta_env_free(lo);
	if (got < 0) {
		ret = (int)got;
		goto out;
	}
	m = (u32)got;
	/* the sort: O(n log n), check after it */
	ret = ta_work_add(w, 8 * (u64)n);
	if (ret || !m)
		goto out;
	ret = -ENOMEM;
	ev = ta_env_alloc_array((size_t)m * 2 +
				ta_radix_scratch_words(m * 2, false),
				sizeof(*ev));
	par = ta_env_alloc_array(m, sizeof(*par));
	bits = ta_env_alloc_array(ta_bits_words(m), sizeof(*bits));
	if (!ev || !par || !bits)
		goto out;
	/* step << 32 | start << 31 | rank: ends first, starts in rank order */
	for (r = 0; r < m; r++) {
		ev[2 * r] = (u64)key[r].start << 32 | 1ULL << 31 | r;
		ev[2 * r + 1] = (u64)key[r].end << 32 | r;
		par[r] = TA_CONTAIN_NONE;
	}
	/* every key differs: any sort gives the one order */
	ta_radix_sort_in(ev, NULL, m * 2, ev + (size_t)m * 2);
	ta_bits_init(&live, m, bits);
	ret = 0;
	for (k = 0; k < 2 * m && !ret; k++) {
		r = ev[k] & 0x7fffffffU;
		ret = ta_work_add(w, 4);
		if (ret)
			break;
		if (!(ev[k] & (1ULL << 31))) {
			ta_bits_clear(&live, r);
			continue;
		}
		ret = ta_contain_start(p, offsets, key, &live, par, r, &hit,
				       w);
		if (ret == 1) {
			ta_contain_conflict(c, TA_CONFLICT_OVERLAP,
					    key[r].index, key[hit].index,
					    (u32)(ev[k] >> 32));
			ret = -EINVAL;
		} else if (!ret) {
			ta_bits_set(&live, r);
		}
	}
	if (!ret && parent)
		for (r = 0; r < m; r++)
			if (par[r] != TA_CONTAIN_NONE)
				parent[key[r].index] = key[par[r]].index;
out:
	ta_env_free(bits);
	ta_env_free(par);
	ta_env_free(ev);
	ta_env_free(key);
	return ret;
}

/**
 * ta_contain_outer() - the buffers that take room, nesting known
 * @p: a validated problem
 * @parent: from ta_contain_parents()
 *
 * Return: a new array (ta_env_free()) of @p's buffers with the contained
 * ones' sizes 0 (they lie within their containers), or NULL when memory
 * is short. The lower bound and the placement of a fixed plan take it.
 */
struct ta_buffer *ta_contain_outer(const struct ta_problem *p,
				   const u32 *parent)
{
	struct ta_buffer *b;
	u32 i;

	b = ta_env_alloc_array(p->n_buffers, sizeof(*b));
	if (!b)
		return NULL;
	for (i = 0; i < p->n_buffers; i++) {
		b[i] = p->buffers[i];
		if (parent[i] != TA_CONTAIN_NONE)
			b[i].size = 0;
	}
	return b;
}

/**
 * ta_contain_parents() - the nesting of a fixed plan
 * @p: a validated problem with &ta_problem.fixed and at least one buffer
 * @parent: out: a new array (ta_env_free()), per tensor its least
 *	    container or %TA_CONTAIN_NONE; NULL on any error
 * @c: out, when the fixed offsets are refused: the conflict
 * @w: work counter
 *
 * ta_contain_check() of @p->fixed, once for the fixed strategy's lower
 * bound, check and placement.
 *
 * Return: as ta_contain_check() (-EINVAL: the offsets refused).
 */
int ta_contain_parents(const struct ta_problem *p, u32 **parent,
		       struct ta_conflict *c, struct ta_work *w)
{
	int ret;

	*parent = ta_env_alloc_array(p->n_buffers, sizeof(**parent));
	if (!*parent)
		return -ENOMEM;
	ret = ta_contain_check(p, p->fixed, p->fixed, *parent, c, w);
	if (ret) {
		ta_env_free(*parent);
		*parent = NULL;
	}
	return ret;
}

/**
 * ta_contain_lower_bound() - the lower bound of a problem, nesting known
 * @p: a validated problem without alias classes
 * @lb: out
 * @w: work counter
 *
 * ta_sweep_lower_bound() of @p's buffers, leaving out the contained ones
 * of a fixed plan: they lie within their containers, so a plan with the
 * same nesting needs no byte for them. A fixed plan ta_contain_check()
 * refuses (or none) gets the plain bound.
 *
 * Return: as ta_sweep_lower_bound().
 */
int ta_contain_lower_bound(const struct ta_problem *p, u64 *lb,
			   struct ta_work *w)
{
	struct ta_buffer *outer;
	struct ta_conflict c;
	u32 *parent = NULL;
	int ret;

	if (p->fixed && p->n_buffers) {
		ret = ta_contain_parents(p, &parent, &c, w);
		if (ret && ret != -EINVAL)
			return ret;
	}
	if (!parent)
		return ta_sweep_lower_bound(p->buffers, p->n_buffers, lb, w);
	outer = ta_contain_outer(p, parent);
	ret = outer ? ta_sweep_lower_bound(outer, p->n_buffers, lb, w) :
		      -ENOMEM;
	ta_env_free(outer);
	ta_env_free(parent);
	return ret;
}

/**
 * ta_contain_place() - the fixed strategy's placement, nesting known
 * @p: a validated problem with &ta_problem.fixed and no alias classes,
 *     whose fixed offsets ta_contain_check() accepted
 * @parent: the fixed tensors' parents, from ta_contain_parents()
 * @outer: ta_contain_outer() of @parent
 * @offsets: out, one per buffer
 * @height: out, max(offset + size)
 * @w: work counter
 *
 * ta_greedy_place() around the fixed tensors that no other contains (the
 * placement engine takes placed buffers that do not nest); the contained
 * ones keep their offsets, inside their containers.
 *
 * Return: as ta_greedy_place().
 */
int ta_contain_place(const struct ta_problem *p, const u32 *parent,
		     const struct ta_buffer *outer, u64 *offsets, u64 *height,
		     struct ta_work *w)
{
	u32 i;
	int ret;

	ret = ta_greedy_place(outer, p->n_buffers, p->fixed, offsets, height,
			      w);
	for (i = 0; !ret && i < p->n_buffers; i++)
		if (parent[i] != TA_CONTAIN_NONE)
			offsets[i] = p->fixed[i];
	return ret;
}
