// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_slab.c - a slab off the bottom, then the parts it frees.
 *
 * A slab is a set of buffers that keeps the same bytes live, c, at every
 * moment of the problem's span: packed on its own in c bytes, it can lie
 * under everything else, which then needs the rest of the height. When
 * a few thin layers span the whole time and a large block above them has
 * a moment no buffer of its own crosses, the thin layers are what keeps
 * the problem in one part: the block's two sides cannot be searched apart
 * (ta_search_parts.c), and the whole is too large for the search. Taking
 * the layers off as a slab frees the moment.
 *
 * The moment is one of the few that the fewest bytes cross; every buffer
 * crossing it goes in the slab, so c is those bytes. A depth-first search,
 * which remembers the states it saw fail (the needs of the moments still
 * ahead), over the buffers
 * in order of start picks the rest: at each moment, the buffers of the
 * slab that start then must make up exactly the bytes of those that end
 * then (c at the first moment), so that the slab's live bytes never
 * change; buffers crossing the moment are always in, and no moment may
 * need more than starts at it. It is a heuristic: a slab need not pack in
 * c bytes, nor the rest in what is left; the two are searched with part
 * of the budget and their plans, one above the other, are kept only when
 * lower than the plan in hand. Only where the live bytes are the same at
 * every moment, as in a zero-slack packing, is a slab tried: then the rest
 * is as flat, and the two can meet their bounds exactly; elsewhere (every
 * real trace) the search goes on as a whole at once (a slab cost resnet50
 * a third of a second). The two sides may take slabs of their own,
 * down to %TA_SEARCH_SLAB_DEPTH. On the perfect cuts of make bench, a
 * 400-buffer one with no plan at its bound in 5 s is solved in 70 ms: a
 * 56-buffer slab of 294 units in 1 ms, the 344 left in two parts.
 */
#include "ta_search_state.h"

/* The search for a slab gives up after this many nodes per buffer, */
#define TA_SLAB_NODES_PER_BUFFER	256
/* at each of this many moments (the ones fewest bytes cross) */
#define TA_SLAB_CUTS			4
/* states seen to fail, remembered: at most this many */
#define TA_SLAB_DEAD_MAX		BIT(15)
/* Strips: at most this many taken off, one by one, */
#define TA_SLAB_STRIPS			16
/* each found from one of this many seeds, */
#define TA_SLAB_SEEDS			16
/* in this many nodes per buffer each */
#define TA_SLAB_STRIP_NODES		64

/* A buffer as the slab search decides it. */
struct ta_slab_item {
	u64 size;
	u32 ev;		/* the moment it starts, an index into the times */
	u32 end_ev;	/* the moment it ends */
	u32 idx;	/* in the problem */
	u32 forced;	/* it crosses the chosen moment: in the slab */
};

/* What the slab search works on. */
struct ta_slab {
	u32 *times;		/* the distinct start and end times, sorted */
	u32 n_times;
	struct ta_slab_item *items;	/* by start, forced first, largest */
	u32 m;
	u64 *need;	/* per moment: bytes of slab buffers ending then */
	u64 *avail;	/* per moment: bytes of all buffers starting then */
	u64 *run;	/* per moment: bytes of slab buffers starting then */
	u64 *cross;	/* per moment: bytes of all buffers live across it */
	u64 *past;	/* per moment: signature of the needs before it */
	u64 *dead;	/* signatures of states seen to fail, dead_mask + 1 */
	u32 dead_mask;
	u64 sig;	/* sum of ta_slab_sig() over the moments */
	u64 *rest;	/* per item: bytes of the unforced after it, same start */
	u8 *in;		/* per item: 0 undecided, 1 in, 2 out */
	u64 c;		/* the slab's bytes */
};

static int ta_slab_cmp(const void *a, const void *b)
{
	const struct ta_slab_item *x = a, *y = b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->forced != y->forced)
		return x->forced ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void ta_slab_free(struct ta_slab *sl)
{
	ta_env_free(sl->times);
	ta_env_free(sl->items);
	ta_env_free(sl->need);
	ta_env_free(sl->avail);
	ta_env_free(sl->run);
	ta_env_free(sl->cross);
	ta_env_free(sl->past);
	ta_env_free(sl->dead);
	ta_env_free(sl->rest);
	ta_env_free(sl->in);
}

/*
 * Set up @sl for @p: the moments, the items, the bytes starting at and
 * crossing each moment. @taken: what the search holds already, *@bytes
 * included. Return: 0, 1 when the live bytes are not the same at every
 * moment, -ENOMEM, or -E2BIG (nothing taken) when it would take the
 * search past %TA_SEARCH_MAX_BYTES; what it took in *@bytes.
 */
static int ta_slab_init(struct ta_slab *sl, const struct ta_problem *p,
			u64 *bytes, u64 taken)
{
	u32 n = p->n_buffers, i, k;
	u64 run = 0, live = 0, most;
	bool flat = true;

	sl->dead_mask = 1023;
	while (sl->dead_mask < 8 * n && sl->dead_mask < TA_SLAB_DEAD_MAX - 1)
		sl->dead_mask = 2 * sl->dead_mask + 1;
	/* at most 2n + 1 moments: what it may take, asked before it takes */
	most = (2 * (u64)n + 1) * sizeof(*sl->times) +
	       (u64)(n + 1) * (sizeof(*sl->items) + sizeof(*sl->in) +
			       sizeof(*sl->rest)) +
	       5 * (2 * (u64)n + 2) * sizeof(*sl->need) +
	       (u64)(sl->dead_mask + 1) * sizeof(*sl->dead);
	if (!ta_search_mem_fits(taken, most))
		return -E2BIG;
	sl->times = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*sl->times));
	sl->items = ta_env_alloc_array(n + 1, sizeof(*sl->items));
	sl->in = ta_env_alloc_array(n + 1, sizeof(*sl->in));
	sl->rest = ta_env_alloc_array(n + 1, sizeof(*sl->rest));
	if (!sl->times || !sl->items || !sl->in || !sl->rest)
		return -ENOMEM;
	k = ta_search_moments(p, sl->times);
	sl->n_times = k;
	sl->need = ta_env_alloc_array(k + 1, sizeof(*sl->need));
	sl->avail = ta_env_alloc_array(k + 1, sizeof(*sl->avail));
	sl->run = ta_env_alloc_array(k + 1, sizeof(*sl->run));
	sl->cross = ta_env_alloc_array(k + 1, sizeof(*sl->cross));
	sl->past = ta_env_alloc_array(k + 1, sizeof(*sl->past));
	sl->dead = ta_env_alloc_array(sl->dead_mask + 1, sizeof(*sl->dead));
	if (!sl->need || !sl->avail || !sl->run || !sl->cross || !sl->past ||
	    !sl->dead)
		return -ENOMEM;
	*bytes += (2 * (u64)n + 1) * sizeof(*sl->times) +
		  (u64)(n + 1) * (sizeof(*sl->items) + sizeof(*sl->in) +
				  sizeof(*sl->rest)) +
		  5 * (u64)(k + 1) * sizeof(*sl->need) +
		  (u64)(sl->dead_mask + 1) * sizeof(*sl->dead);
	/* the bytes crossing each moment: +size after its start, -at end */
	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &p->buffers[i];
		struct ta_slab_item *it = &sl->items[sl->m];

		if (!b->size)
			continue;
		it->size = b->size;
		it->ev = ta_search_index(sl->times, k, b->start);
		it->end_ev = ta_search_index(sl->times, k, b->end);
		it->idx = i;
		sl->m++;
		if (it->ev + 1 < it->end_ev) {
			sl->cross[it->ev + 1] += b->size;
			sl->cross[it->end_ev] -= b->size;
		}
		sl->avail[it->ev] += b->size;
	}
	for (i = 0; i < k; i++) {
		run += sl->cross[i];
		sl->cross[i] = run;
	}
	/* the live bytes between moments, in need[] for now: all equal? */
	for (i = 0; i < sl->m; i++) {
		sl->need[sl->items[i].ev] += sl->items[i].size;
		sl->need[sl->items[i].end_ev] -= sl->items[i].size;
	}
	for (i = 0, run = 0; i + 1 < k; i++) {
		run += sl->need[i];
		if (i && run != live)
			flat = false;
		live = run;
	}
	for (i = 0; i < k; i++)
		sl->need[i] = 0;
	return flat ? 0 : 1;
}

/*
 * The moment inside the span crossed by the fewest bytes, more than
 * @above (or as many at a later moment than @after): the next one to try
 * a slab at. Return: its index, or 0 when there is none.
 */
static u32 ta_slab_next_cut(const struct ta_slab *sl, u64 above, u32 after)
{
	u64 least = U64_MAX;
	u32 i, cut = 0;

	for (i = 1; i + 1 < sl->n_times; i++) {
		u64 c = sl->cross[i];

		if (!c || c < above || (c == above && i <= after))
			continue;
		if (c < least) {
			least = c;
			cut = i;
		}
	}
	return cut;
}

/*
 * Ready the search for a slab of @c bytes that holds the forced items: the
 * items in order. Return: false when every buffer is forced (no slab to
 * take off).
 */
static bool ta_slab_ready(struct ta_slab *sl, u64 c)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < sl->m; i++) {
		total += sl->items[i].size;
		sl->in[i] = 0;
	}
	for (i = 0; i < sl->n_times; i++) {
		sl->need[i] = 0;
		sl->run[i] = 0;
	}
	for (i = 0; i <= sl->dead_mask; i++)
		sl->dead[i] = 0;
	sl->sig = 0;
	sl->c = c;
	if (sl->c >= total)
		return false;
	ta_env_sort(sl->items, sl->m, sizeof(*sl->items), ta_slab_cmp);
	for (i = sl->m; i-- > 0;) {
		const struct ta_slab_item *nx = &sl->items[i + 1];

		sl->rest[i] = 0;
		if (i + 1 < sl->m && nx->ev == sl->items[i].ev)
			sl->rest[i] = sl->rest[i + 1] +
				      (nx->forced ? 0 : nx->size);
	}
	return true;
}

/* A slab of the buffers crossing moment @cut: c is their bytes. */
static bool ta_slab_at(struct ta_slab *sl, u32 cut)
{
	u32 i;

	for (i = 0; i < sl->m; i++) {
		struct ta_slab_item *it = &sl->items[i];

		it->forced = it->ev < cut && cut < it->end_ev;
	}
	return ta_slab_ready(sl, sl->cross[cut]);
}

/* The bytes the slab's buffers starting at moment @ev must make up. */
static u64 ta_slab_target(const struct ta_slab *sl, u32 ev)
{
	return ev ? sl->need[ev] : sl->c;
}

/*
 * Moments (@from, @to) have no buffer starting: no slab buffer may end
 * there (its bytes could not be made up). @to is n_times for the end,
 * where what is still live ends at the last moment.
 */
static bool ta_slab_quiet(const struct ta_slab *sl, u32 from, u32 to)
{
	u32 e;

	for (e = from + 1; e < to && e + 1 < sl->n_times; e++)
		if (sl->need[e])
			return false;
	return to < sl->n_times || sl->need[sl->n_times - 1] == sl->c;
}

/* What moment @e needing @v bytes adds to the signature (0 for none). */
static u64 ta_slab_sig(u32 e, u64 v)
{
	return v ? ta_search_mix(ta_search_mix(e) ^ v) : 0;
}

/* Item @it goes in the slab (@d = 1) or back out (@d = -1). */
static void ta_slab_take(struct ta_slab *sl, const struct ta_slab_item *it,
			 int d)
{
	u64 *need = &sl->need[it->end_ev], v = *need;

	*need = d > 0 ? v + it->size : v - it->size;
	sl->run[it->ev] = d > 0 ? sl->run[it->ev] + it->size :
				  sl->run[it->ev] - it->size;
	sl->sig += ta_slab_sig(it->end_ev, *need) - ta_slab_sig(it->end_ev, v);
}

/*
 * The slot of the state at the first item of moment @e: the needs of the
 * moments from @e on (those before are met), and @e.
 */
static u64 *ta_slab_dead_slot(struct ta_slab *sl, u32 e, u64 *key)
{
	*key = ta_search_mix((sl->sig - sl->past[e]) ^ ((u64)e << 40)) | 1;
	return &sl->dead[*key & sl->dead_mask];
}

/*
 * Depth-first over the items in order: each in the slab or out. Arriving
 * at the first item of a later moment (or past the last) checks that the
 * slab's buffers starting at the moment left made up its enders, and that
 * none ends where nothing starts. Return: 1 found (sl->in), 0 not within
 * @limit nodes, -EINTR.
 */
static int ta_slab_find(struct ta_slab *sl, u64 limit,
			struct ta_work *lim)
{
	u64 nodes = 0;
	u32 j = 0;
	int ret;

	for (;;) {
		struct ta_slab_item *it;
		u64 target, key;

		if (++nodes > limit)
			return 0;
		/* a node here is a few instructions: a step every 16 */
		if (!(nodes & 15) &&
		    !(++lim->steps & (TA_SEARCH_CHECK_EVERY - 1))) {
			ret = ta_work_limit_hit(lim);
			if (ret)
				return ret < 0 ? ret : 0;
		}
		if (j == sl->m || (j && sl->items[j].ev != sl->items[j - 1].ev)) {
			u32 prev = sl->items[j - 1].ev;
			u32 to = j < sl->m ? sl->items[j].ev : sl->n_times;

			/* the needs before it are met: the state is the rest */
			if (j < sl->m)
				sl->past[to] = sl->past[prev] +
					       ta_slab_sig(prev, sl->need[prev]);
			if (sl->run[prev] != ta_slab_target(sl, prev) ||
			    !ta_slab_quiet(sl, prev, to))
				goto retreat;
			if (j == sl->m)
				return 1;
			if (*ta_slab_dead_slot(sl, to, &key) == key)
				goto retreat;
		}
		it = &sl->items[j];
		target = ta_slab_target(sl, it->ev);
		if (sl->run[it->ev] + it->size <= target &&
		    sl->need[it->end_ev] + it->size <=
		    (it->end_ev + 1 == sl->n_times ? sl->c :
						     sl->avail[it->end_ev])) {
			sl->in[j++] = 1;
			ta_slab_take(sl, it, 1);
			continue;
		}
		if (it->forced || sl->run[it->ev] + sl->rest[j] < target)
			goto retreat;
		sl->in[j++] = 2;
		continue;
retreat:
		/* back to the last item in the slab that may go out */
		for (;;) {
			if (!j)
				return 0;
			/* every way on from a moment's first item failed */
			if (j < sl->m && sl->items[j].ev != sl->items[j - 1].ev &&
			    sl->in[j - 1]) {
				u64 *slot = ta_slab_dead_slot(sl, sl->items[j].ev,
							      &key);

				*slot = key;
			}
			it = &sl->items[--j];
			if (sl->in[j] == 1) {
				ta_slab_take(sl, it, -1);
				if (!it->forced &&
				    sl->run[it->ev] + sl->rest[j] >=
				    ta_slab_target(sl, it->ev)) {
					sl->in[j++] = 2;
					break;
				}
			}
			sl->in[j] = 0;
		}
	}
}

/*
 * Search @m buffers of @job's problem, listed in @idx, as a problem of
 * their own with its lower bound @lower_bound, from @job's plan restricted
 * to them, in @share of the time left, slabs one less deep: their plan in
 * @sub_off, its height in *@h. Return: as ta_search_skyline().
 */
static int ta_slab_side(const struct ta_search_job *job, const u32 *idx,
			u32 m, u64 lower_bound, u32 share,
			struct ta_buffer *sub, u64 *sub_off, u64 *h,
			u64 reserved)
{
	struct ta_problem sp = { .n_buffers = m, .buffers = sub };
	struct ta_work part = ta_work_share(job->lim, share);
	bool proven;
	struct ta_search_job side = {
		.p = &sp, .lower_bound = lower_bound, .lim = &part,
		.offsets = sub_off, .height = h, .proven = &proven,
		.reserved = reserved, .slabs = job->slabs - 1,
	};
	u32 i;
	int ret;

	*h = 0;
	for (i = 0; i < m; i++) {
		sub[i] = job->p->buffers[idx[i]];
		sub_off[i] = job->offsets[idx[i]];
		if (sub_off[i] + sub[i].size > *h)
			*h = sub_off[i] + sub[i].size;
	}
	ret = ta_search_split(&side);
	ta_work_spent(job->lim, &part);
	return ret;
}

/*
 * Layer @idx[0..@m) of @job's problem, @c bytes live at every moment:
 * searched alone in an eighth of the time left, put in @plan from *@base
 * up; *@base becomes its top, rounded up to @align. Return: 0, 1 when the
 * top overflows (keep the plan in hand), or as ta_search_skyline().
 */
static int ta_slab_layer(const struct ta_search_job *job, const u32 *idx,
			 u32 m, u64 c, u64 align, struct ta_buffer *sub,
			 u64 *sub_off, u64 *plan, u64 *base, u64 reserved)
{
	u64 h, top;
	u32 i;
	int ret;

	ret = ta_slab_side(job, idx, m, c, 8, sub, sub_off, &h, reserved);
	if (ret)
		return ret;
	top = *base + h + align - 1;
	if (top < *base + h || *base + h < *base)
		return 1;
	for (i = 0; i < m; i++)
		plan[idx[i]] = *base + sub_off[i];
	*base = top & ~(align - 1);
	return 0;
}

/*
 * The rest, @idx[0..@m) of @job's problem, above the layers' @base bytes:
 * searched in a quarter of the time left, put in @plan; @plan becomes
 * @job's plan when lower than the plan in hand. Return: as
 * ta_search_skyline().
 */
static int ta_slab_rest(const struct ta_search_job *job, const u32 *idx,
			u32 m, u64 base, struct ta_buffer *sub, u64 *sub_off,
			u64 *plan, u64 reserved)
{
	u64 lower_bound = job->lower_bound > base ? job->lower_bound - base : 0;
	u64 h;
	u32 i;
	int ret;

	ret = ta_slab_side(job, idx, m, lower_bound, 4, sub, sub_off, &h,
			   reserved);
	if (ret || base + h < base || base + h >= *job->height)
		return ret;	/* no better: keep the plan in hand */
	for (i = 0; i < m; i++)
		plan[idx[i]] = base + sub_off[i];
	for (i = 0; i < job->p->n_buffers; i++)
		job->offsets[i] = plan[i];
	*job->height = base + h;
	*job->proven = *job->height <= job->lower_bound;
	return 0;
}

/*
 * Is there a moment inside the span that no buffer crosses (the problem
 * comes apart there)?
 */
static bool ta_slab_gap(const struct ta_slab *sl)
{
	u32 i;

	for (i = 1; i + 1 < sl->n_times; i++)
		if (!sl->cross[i])
			return true;
	return false;
}

/*
 * The largest item after the one of size @size, problem index @idx, in the
 * order of decreasing size, then index. Return: its problem index, or
 * U32_MAX when there is none.
 */
static u32 ta_slab_next_seed(const struct ta_slab *sl, u64 size, u32 idx)
{
	u32 i, best = U32_MAX;
	u64 best_size = 0;

	for (i = 0; i < sl->m; i++) {
		const struct ta_slab_item *it = &sl->items[i];

		if (it->size > size || (it->size == size && it->idx <= idx))
			continue;
		if (it->size > best_size ||
		    (it->size == best_size && it->idx < best)) {
			best_size = it->size;
			best = it->idx;
		}
	}
	return best;
}

/*
 * Find a strip: a slab as thick as one of its buffers (the seed), which
 * then lives alone over a stretch of time, as in a stack of layers each cut
 * in time somewhere else. The largest buffers are tried first, each with
 * a few nodes per buffer, in @fwd or in its mirror in time @mir, whichever
 * meets the seed sooner (the search goes forward in time: a seed near the
 * end is found by the mirror, one near the start by @fwd). Return: 1 found
 * (in *@found), 0 none, -EINTR.
 */
static int ta_slab_find_strip(struct ta_slab *fwd, struct ta_slab *mir,
			      struct ta_work *lim,
			      struct ta_slab **found)
{
	u64 size = U64_MAX;
	u32 seed = 0, tries, i, last = fwd->n_times - 1;
	struct ta_slab *sl;
	int ret;

	for (tries = 0; tries < TA_SLAB_SEEDS; tries++) {
		seed = ta_slab_next_seed(fwd, size, tries ? seed : 0);
		if (seed == U32_MAX)
			return 0;
		sl = fwd;
		for (i = 0; i < fwd->m; i++) {
			const struct ta_slab_item *it = &fwd->items[i];

			if (it->idx != seed)
				continue;
			size = it->size;
			if (it->ev > last - it->end_ev)
				sl = mir;
		}
		for (i = 0; i < sl->m; i++)
			sl->items[i].forced = sl->items[i].idx == seed;
		if (!ta_slab_ready(sl, size))
			return 0;
		ret = ta_slab_find(sl, (u64)TA_SLAB_STRIP_NODES * sl->m + 4096,
				   lim);
		*found = sl;
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * ta_search_strips() - take strips off the bottom one by one, then the rest
 * @job: a problem in one part; @job->slabs at least 1 (the strips and the
 *	 rest get one less); each strip gets an eighth of the time left, the
 *	 rest above them a quarter; *@job->proven is true only at
 *	 @job->lower_bound
 *
 * Strips (ta_slab_find_strip()) are taken off until what is left has a
 * moment no buffer crosses, or no strip is found, or %TA_SLAB_STRIPS are
 * off; each is searched on its own, stacked in the order found.
 *
 * Return: 1 when no strip was found (nothing changed), else as
 * ta_search_skyline().
 */
int ta_search_strips(const struct ta_search_job *job)
{
	const struct ta_problem *p = job->p;
	struct ta_work *lim = job->lim;
	u64 reserved = job->reserved;
	struct ta_slab *fwd, *mir, *sl = NULL;
	struct ta_problem rp, rm;
	struct ta_buffer *sub, *rest, *rest_mir;
	u64 *sub_off, *plan, bytes = 0, slab_bytes = 0, base = 0;
	u64 align = 1;
	u32 *idx, *order, *moved, i, j, n = p->n_buffers, ns = 0, nr = 0, k;
	u32 last;
	int ret = -ENOMEM;

	*job->proven = false;
	bytes = 2 * sizeof(*fwd) +
		(u64)(n + 1) * (3 * sizeof(*idx) + 3 * sizeof(*sub) +
				2 * sizeof(*sub_off));
	if (!ta_search_mem_fits(reserved, bytes))
		return 1;	/* past the search's memory: nothing changed */
	/* the two searches on the heap: the frame nests (slabs deep) */
	fwd = ta_env_alloc_array(2, sizeof(*fwd));
	if (!fwd)
		return -ENOMEM;
	mir = fwd + 1;
	*fwd = (struct ta_slab){ 0 };
	*mir = (struct ta_slab){ 0 };
	idx = ta_env_alloc_array(n + 1, sizeof(*idx));
	order = ta_env_alloc_array(n + 1, sizeof(*order));
	moved = ta_env_alloc_array(n + 1, sizeof(*moved));
	sub = ta_env_alloc_array(n + 1, sizeof(*sub));
	rest = ta_env_alloc_array(n + 1, sizeof(*rest));
	rest_mir = ta_env_alloc_array(n + 1, sizeof(*rest_mir));
	sub_off = ta_env_alloc_array(n + 1, sizeof(*sub_off));
	plan = ta_env_alloc_array(n + 1, sizeof(*plan));
	if (!idx || !order || !moved || !sub || !rest || !rest_mir ||
	    !sub_off || !plan)
		goto free_arrays;
	for (i = 0; i < n; i++) {
		plan[i] = job->offsets[i];
		if (!p->buffers[i].size)
			continue;
		idx[nr++] = i;
		if (p->buffers[i].align > align)
			align = p->buffers[i].align;
	}
	for (k = 0; k < TA_SLAB_STRIPS; k++) {
		/* what is left, as a problem of its own, and its mirror */
		last = 0;
		for (i = 0; i < nr; i++) {
			rest[i] = p->buffers[idx[ns + i]];
			if (rest[i].end > last)
				last = rest[i].end;
		}
		for (i = 0; i < nr; i++) {
			rest_mir[i] = rest[i];
			rest_mir[i].start = last - rest[i].end;
			rest_mir[i].end = last - rest[i].start;
		}
		rp = (struct ta_problem){ .n_buffers = nr, .buffers = rest };
		rm = (struct ta_problem){ .n_buffers = nr, .buffers = rest_mir };
		slab_bytes = 0;
		ret = ta_slab_init(fwd, &rp, &slab_bytes, reserved + bytes);
		if (ret == -E2BIG)
			break;	/* no more strips: search what is left */
		if (ret < 0)
			goto free_slab;
		if (ret || ta_slab_gap(fwd))
			break;
		ret = ta_slab_init(mir, &rm, &slab_bytes,
				   reserved + bytes + slab_bytes);
		if (ret == -E2BIG)
			break;
		if (ret < 0)
			goto free_slab;
		ret = ta_slab_find_strip(fwd, mir, lim, &sl);
		if (ret < 0)
			goto free_slab;
		if (!ret)
			break;
		/* the strip to the front of what is left, both in order */
		for (i = 0; i < nr; i++)
			moved[i] = 0;
		for (i = 0; i < sl->m; i++)
			if (sl->in[i] == 1)
				moved[sl->items[i].idx] = 1;
		for (i = 0, j = 0; i < nr; i++)
			if (moved[i])
				order[j++] = idx[ns + i];
		for (i = 0; i < nr; i++)
			if (!moved[i])
				order[j++] = idx[ns + i];
		for (i = 0, j = 0; i < nr; i++) {
			idx[ns + i] = order[i];
			j += moved[i];
		}
		ret = ta_slab_layer(job, idx + ns, j, sl->c, align, sub, sub_off,
				    plan, &base, reserved + bytes + slab_bytes);
		if (ret) {
			ret = ret > 0 ? 0 : ret;
			goto free_slab;
		}
		ns += j;
		nr -= j;
		ta_slab_free(fwd);
		ta_slab_free(mir);
		*fwd = (struct ta_slab){ 0 };
		*mir = (struct ta_slab){ 0 };
	}
	ret = 1;
	if (!ns)
		goto free_slab;
	ret = ta_slab_rest(job, idx + ns, nr, base, sub, sub_off, plan,
			   reserved + bytes);
free_slab:
	ta_slab_free(fwd);
	ta_slab_free(mir);
free_arrays:
	ta_env_free(idx);
	ta_env_free(order);
	ta_env_free(moved);
	ta_env_free(sub);
	ta_env_free(rest);
	ta_env_free(rest_mir);
	ta_env_free(sub_off);
	ta_env_free(plan);
	ta_env_free(fwd);
	if (lim->bytes < reserved + bytes + slab_bytes)
		lim->bytes = reserved + bytes + slab_bytes;
	return ret;
}

/*
 * A slab of the buffers crossing one of the moments fewest bytes cross,
 * then the rest above it. Return: as ta_search_slab().
 */
static int ta_slab_cut(const struct ta_search_job *job)
{
	const struct ta_problem *p = job->p;
	struct ta_work *lim = job->lim;
	u64 reserved = job->reserved;
	struct ta_slab sl = { 0 };
	struct ta_buffer *sub = NULL;
	u64 *sub_off = NULL, *plan = NULL, bytes = 0, base = 0, arrays;
	u64 align = 1;
	u32 *idx = NULL, i, ns = 0, nr, tries, cut = 0;
	int ret;

	*job->proven = false;
	ret = ta_slab_init(&sl, p, &bytes, reserved);
	if (ret) {
		ret = ret == -E2BIG ? 1 : ret;	/* nothing changed */
		goto free_slab;
	}
	/* the moments fewest bytes cross, a few of them in turn */
	for (tries = 0; tries < TA_SLAB_CUTS; tries++) {
		cut = ta_slab_next_cut(&sl, sl.c, cut);
		ret = 1;
		if (!cut)
			goto free_slab;
		if (!ta_slab_at(&sl, cut))
			continue;
		ret = ta_slab_find(&sl, (u64)TA_SLAB_NODES_PER_BUFFER * sl.m +
				   4096, lim);
		if (ret)
			break;
	}
	if (ret <= 0) {
		ret = ret < 0 ? ret : 1;
		goto free_slab;
	}
	ret = 1;
	arrays = (u64)(sl.m + 1) * (sizeof(*idx) + sizeof(*sub) +
				    sizeof(*sub_off)) +
		 (u64)(p->n_buffers + 1) * sizeof(*plan);
	if (!ta_search_mem_fits(reserved + bytes, arrays))
		goto free_slab;
	ret = -ENOMEM;
	idx = ta_env_alloc_array(sl.m + 1, sizeof(*idx));
	sub = ta_env_alloc_array(sl.m + 1, sizeof(*sub));
	sub_off = ta_env_alloc_array(sl.m + 1, sizeof(*sub_off));
	plan = ta_env_alloc_array(p->n_buffers + 1, sizeof(*plan));
	if (!idx || !sub || !sub_off || !plan)
		goto free_arrays;
	bytes += (u64)(sl.m + 1) * (sizeof(*idx) + sizeof(*sub) +
				    sizeof(*sub_off)) +
		 (u64)(p->n_buffers + 1) * sizeof(*plan);
	/* the slab first in idx, the rest after it */
	for (i = 0; i < sl.m; i++)
		if (sl.in[i] == 1)
			idx[ns++] = sl.items[i].idx;
	nr = ns;
	for (i = 0; i < sl.m; i++)
		if (sl.in[i] != 1) {
			idx[nr++] = sl.items[i].idx;
			if (sl.items[i].size &&
			    p->buffers[sl.items[i].idx].align > align)
				align = p->buffers[sl.items[i].idx].align;
		}
	for (i = 0; i < p->n_buffers; i++)
		plan[i] = job->offsets[i];
	/* the slab, then the rest above it */
	ret = ta_slab_layer(job, idx, ns, sl.c, align, sub, sub_off, plan,
			    &base, reserved + bytes);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto free_arrays;
	}
	ret = ta_slab_rest(job, idx + ns, nr - ns, base, sub, sub_off, plan,
			   reserved + bytes);
free_arrays:
	ta_env_free(idx);
	ta_env_free(sub);
	ta_env_free(sub_off);
	ta_env_free(plan);
free_slab:
	ta_slab_free(&sl);
	if (lim->bytes < reserved + bytes)
		lim->bytes = reserved + bytes;
	return ret;
}

/**
 * ta_search_slab() - take a slab off the bottom, search it and the rest
 * @job: a problem in one part; @job->slabs at least 1 (the sides get one
 *	 less); the slab gets an eighth of the time left, the rest above it
 *	 a quarter; *@job->proven is true only at @job->lower_bound
 *
 * Where no slab holds just what crosses one of the moments fewest bytes
 * cross, or its plan is not proven, strips (ta_search_strips()).
 *
 * Return: 1 when no slab was found (nothing changed), else as
 * ta_search_skyline().
 */
int ta_search_slab(const struct ta_search_job *job)
{
	int ret = ta_slab_cut(job), strips;

	if (ret < 0 || (!ret && (*job->proven || job->lim->timed_out)))
		return ret;
	strips = ta_search_strips(job);
	return strips == 1 ? ret : strips;
}
