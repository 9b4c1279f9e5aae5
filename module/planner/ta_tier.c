// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tier.c - tiered plans: choose the buffers of the fast tier, then plan
 * each tier with its strategy (ta_tier_solve()).
 *
 * The choice works on units (alias classes, ta_tier_unit.c) and keeps a
 * placement of the chosen ones: each at an offset below the capacity that
 * no chosen unit live at the same time overlaps, so the chosen set always
 * fits, offsets included, not just its bytes per step. A unit joins at the
 * lowest such offset (first fit over its lifetime). Pinned units join
 * first (largest first; if that fails, auto plans them, and if auto's plan
 * is too high the pins fail with -ENOSPC). Then a portfolio of greedy
 * orders, each followed by repacks (auto replans the chosen set, the
 * remaining units try again in the room that made), and a local search
 * that drops one to three chosen units at random and refills in density
 * order, keeping the change unless it lost weight, until the budget runs
 * out or the weight reaches the bound (ta_tier_bound.c).
 */
#include "ta_tier_unit.h"
#include "ta_bound.h"
#include "ta_plan_helpers.h"

#define TA_TIER_OUT		U64_MAX
/* Local search budget when the caller gives none. */
#define TA_TIER_DEFAULT_NS	20000000ULL
#define TA_TIER_NS_PER_UNIT	20000ULL
/* auto's budget for one repack, and repacks per greedy order. */
#define TA_TIER_REPACK_NS	2000000ULL
#define TA_TIER_REPACKS		3
#define TA_TIER_ORDERS		4

struct ta_tier_state {
	const struct ta_tier_units *tu;
	u64 cap;
	u64 *off;		/* per unit: offset, or TA_TIER_OUT */
	u32 *placed;		/* the chosen units */
	u32 *pos;		/* per unit, its index in @placed */
	u32 n_placed;
	struct ta_span *span;	/* scratch */
	u64 weight;
	struct ta_work *w;
};

static int ta_cmp_span(const void *a, const void *b)
{
	const struct ta_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static void ta_tier_put(struct ta_tier_state *s, u32 k, u64 off)
{
	s->off[k] = off;
	s->pos[k] = s->n_placed;
	s->placed[s->n_placed++] = k;
	s->weight = ta_tier_add(s->weight, s->tu->u[k].weight);
}

static void ta_tier_take(struct ta_tier_state *s, u32 k)
{
	u32 last = s->placed[--s->n_placed];

	s->placed[s->pos[k]] = last;
	s->pos[last] = s->pos[k];
	s->off[k] = TA_TIER_OUT;
	s->weight -= s->tu->u[k].weight;
}

/*
 * Place unit @k at the lowest offset free over its lifetime below the
 * capacity: 0 placed, 1 no room, or a negative errno.
 */
static int ta_tier_place(struct ta_tier_state *s, u32 k)
{
	const struct ta_tier_unit *u = &s->tu->u[k];
	u32 i, m = 0;
	u64 o;
	int ret;

	if (!u->size) {
		ta_tier_put(s, k, 0);
		return 0;
	}
	if (u->size > s->cap)
		return 1;
	for (i = 0; i < s->n_placed; i++) {
		const struct ta_tier_unit *v = &s->tu->u[s->placed[i]];

		if (v->size && v->start < u->end && u->start < v->end) {
			s->span[m].lo = s->off[s->placed[i]];
			s->span[m].hi = s->span[m].lo + v->size;
			m++;
		}
	}
	ret = ta_work_add(s->w, s->n_placed + m + 1);
	if (ret)
		return ret;
	ta_env_sort(s->span, m, sizeof(*s->span), ta_cmp_span);
	o = 0;
	for (i = 0; i < m; i++) {
		if (o + u->size <= s->span[i].lo)
			break;
		if (s->span[i].hi > o)
			o = ta_align_up(s->span[i].hi, u->align);
		if (o > s->cap)
			return 1;
	}
	if (o + u->size > s->cap)
		return 1;
	ta_tier_put(s, k, o);
	return 0;
}

/* Units in @order that are free to choose and not chosen yet, placed. */
static int ta_tier_fill(struct ta_tier_state *s, const u32 *order, u32 n)
{
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		u32 k = order[i];

		if (s->off[k] != TA_TIER_OUT)
			continue;
		ret = ta_tier_place(s, k);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Plan the chosen units with auto (a short budget); when that plan fits,
 * take its offsets. 1 when it did, 0 when not, or a negative errno.
 */
static int ta_tier_repack(struct ta_tier_state *s, struct ta_buffer *bufs,
			  u64 *boff)
{
	struct ta_budget b = { .time_ns = TA_TIER_REPACK_NS };
	struct ta_problem q = { 0 };
	struct ta_result r;
	u32 i;
	int ret;

	for (i = 0; i < s->n_placed; i++) {
		const struct ta_tier_unit *u = &s->tu->u[s->placed[i]];

		bufs[i] = (struct ta_buffer){ .size = u->size, .align = u->align,
					      .start = u->start, .end = u->end };
	}
	q.n_buffers = s->n_placed;
	q.buffers = bufs;
	ret = ta_plan_solve(&q, TA_STRATEGY_AUTO, &b, boff, &r);
	if (ret)
		return ret;
	if (r.height > s->cap)
		return 0;
	for (i = 0; i < s->n_placed; i++)
		s->off[s->placed[i]] = boff[i];
	return 1;
}

/* The orders' keys: a before b when the sign is negative. */
struct ta_tier_sort {
	u32 k;
	u32 key;	/* which order */
	const struct ta_tier_unit *u;
};

static u64 ta_tier_area(const struct ta_tier_unit *u)
{
	return ta_tier_mul(u->size ? u->size : 1, u->end - u->start);
}

static int ta_tier_cmp_units(const void *a, const void *b)
{
	const struct ta_tier_sort *x = a, *y = b;
	const struct ta_tier_unit *p = &x->u[x->k], *q = &y->u[y->k];
	int c = 0;

	switch (x->key) {
	case 0:		/* weight per byte, descending */
		c = -ta_tier_mul_cmp(p->weight, q->size ? q->size : 1,
				     q->weight, p->size ? p->size : 1);
		break;
	case 1:		/* weight per byte and step, descending */
		c = -ta_tier_mul_cmp(p->weight, ta_tier_area(q), q->weight,
				     ta_tier_area(p));
		break;
	case 2:		/* weight, descending */
		c = p->weight < q->weight ? 1 : p->weight > q->weight ? -1 : 0;
		break;
	default:	/* smallest first */
		break;
	}
	if (!c && p->size != q->size)
		c = p->size < q->size ? -1 : 1;
	if (!c)
		c = x->k < y->k ? -1 : x->k > y->k;
	return c;
}

/* @order: the free units, sorted by order @key; returns their count. */
static u32 ta_tier_order(const struct ta_tier_units *tu, u64 cap, u32 key,
			 struct ta_tier_sort *tmp, u32 *order)
{
	u32 i, m = 0;

	for (i = 0; i < tu->n; i++) {
		const struct ta_tier_unit *u = &tu->u[i];

		if (u->pin == TA_TIER_ANY && u->size && u->size <= cap &&
		    u->weight)
			tmp[m++] = (struct ta_tier_sort){ .k = i, .key = key,
							  .u = tu->u };
	}
	ta_env_sort(tmp, m, sizeof(*tmp), ta_tier_cmp_units);
	for (i = 0; i < m; i++)
		order[i] = tmp[i].k;
	return m;
}

static void ta_tier_restore(struct ta_tier_state *s, const u64 *snap)
{
	u32 i;

	s->n_placed = 0;
	s->weight = 0;
	for (i = 0; i < s->tu->n; i++) {
		s->off[i] = TA_TIER_OUT;
		if (snap[i] != TA_TIER_OUT)
			ta_tier_put(s, i, snap[i]);
	}
}

struct ta_tier_choice {
	struct ta_tier_state s;
	u64 *best;		/* per unit, the best choice's offsets */
	u64 best_weight;
	u64 *base;		/* the pinned units alone */
	u32 *order;
	u32 n_order;
	struct ta_tier_sort *tmp;
	struct ta_buffer *bufs;
	u64 *boff;
	u64 bound;
	u64 moves;
};

static void ta_tier_keep(struct ta_tier_choice *ch)
{
	if (ch->s.weight > ch->best_weight) {
		ch->best_weight = ch->s.weight;
		memcpy(ch->best, ch->s.off, ch->s.tu->n * sizeof(*ch->best));
	}
}

/* One greedy order, then its repacks. */
static int ta_tier_greedy(struct ta_tier_choice *ch)
{
	struct ta_tier_state *s = &ch->s;
	int ret, round;

	ret = ta_tier_fill(s, ch->order, ch->n_order);
	for (round = 0; !ret && round < TA_TIER_REPACKS; round++) {
		u32 before = s->n_placed;

		if (s->weight >= ch->bound)
			break;
		ret = ta_tier_repack(s, ch->bufs, ch->boff);
		if (ret <= 0)
			break;
		ret = ta_tier_fill(s, ch->order, ch->n_order);
		if (!ret && s->n_placed == before)
			break;
	}
	if (ret < 0)
		return ret;
	ta_tier_keep(ch);
	return 0;
}

/* Drop one to three chosen free units, refill; keep unless worse. */
static int ta_tier_move(struct ta_tier_choice *ch, u64 *rng, u64 *snap,
			u32 *dropped)
{
	struct ta_tier_state *s = &ch->s;
	u32 i, nd = 0, want = 1 + ta_xorshift64(rng) % 3, tries = 0;
	u64 before = s->weight;
	int ret;

	memcpy(snap, s->off, s->tu->n * sizeof(*snap));
	while (nd < want && s->n_placed && tries++ < 8) {
		u32 k = s->placed[ta_xorshift64(rng) % s->n_placed];

		if (s->tu->u[k].pin != TA_TIER_ANY)
			continue;
		ta_tier_take(s, k);
		dropped[nd++] = k;
	}
	if (!nd)
		return 0;
	/* the others first, in order; the dropped ones last */
	for (i = 0; i < nd; i++)
		s->off[dropped[i]] = 0;
	ret = ta_tier_fill(s, ch->order, ch->n_order);
	for (i = 0; i < nd; i++)
		s->off[dropped[i]] = TA_TIER_OUT;
	if (!ret)
		ret = ta_tier_fill(s, dropped, nd);
	if (ret < 0)
		return ret;
	if (s->weight < before)
		ta_tier_restore(s, snap);
	else
		ta_tier_keep(ch);
	return 0;
}

static int ta_tier_search(struct ta_tier_choice *ch,
			  const struct ta_budget *budget)
{
	u64 ns = budget && budget->time_ns ? budget->time_ns :
		 TA_TIER_DEFAULT_NS + TA_TIER_NS_PER_UNIT * ch->s.tu->n;
	struct ta_work sub = ta_work_sub(ch->s.w, ta_env_now_ns() + ns,
					 budget ? budget->steps : 0);
	u64 rng = 0x9e3779b97f4a7c15ULL ^ ch->s.tu->n, *snap;
	u32 dropped[3];
	int ret = 0;

	if (!ch->n_order || ch->best_weight >= ch->bound)
		return 0;
	snap = ch->boff;
	ta_tier_restore(&ch->s, ch->best);
	/* the first free order again: the refill's */
	ch->n_order = ta_tier_order(ch->s.tu, ch->s.cap, 0, ch->tmp,
				    ch->order);
	while (ch->best_weight < ch->bound) {
		ret = ta_work_limit_hit(&sub);
		if (ret)
			break;
		ret = ta_tier_move(ch, &rng, snap, dropped);
		if (ret)
			break;
		sub.steps++;
		ch->moves++;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Place the pinned units: largest first by first fit, else auto's plan of
 * them; -ENOSPC with @fail when even that is too high.
 */
static int ta_tier_pinned(struct ta_tier_choice *ch, struct ta_tier_fail *f)
{
	struct ta_tier_state *s = &ch->s;
	const struct ta_tier_units *tu = s->tu;
	struct ta_problem q = { 0 };
	struct ta_result r;
	u32 i, m = 0;
	int ret = 0;

	for (i = 0; i < tu->n; i++)
		if (tu->u[i].pin == TA_TIER_FAST)
			ch->tmp[m++] = (struct ta_tier_sort){ .k = i, .key = 3,
							      .u = tu->u };
	ta_env_sort(ch->tmp, m, sizeof(*ch->tmp), ta_tier_cmp_units);
	for (i = m; !ret && i-- > 0; )
		ret = ta_tier_place(s, ch->tmp[i].k);
	if (ret <= 0)
		goto keep;
	ta_tier_restore(s, ch->base);	/* all out */
	for (i = 0; i < m; i++) {
		const struct ta_tier_unit *u = &tu->u[ch->tmp[i].k];

		ch->bufs[i] = (struct ta_buffer){ .size = u->size,
						  .align = u->align,
						  .start = u->start,
						  .end = u->end };
	}
	q.n_buffers = m;
	q.buffers = ch->bufs;
	ret = ta_plan_solve(&q, TA_STRATEGY_AUTO, NULL, ch->boff, &r);
	if (ret)
		return ret;
	if (r.height > s->cap) {
		u64 top = 0;

		f->kind = TA_TIER_FAIL_PLAN;
		f->shortfall = r.height - s->cap;
		for (i = 0; i < m; i++) {
			if (ch->bufs[i].size &&
			    ch->boff[i] + ch->bufs[i].size >= top) {
				top = ch->boff[i] + ch->bufs[i].size;
				f->tensor = tu->u[ch->tmp[i].k].first;
			}
		}
		return -ENOSPC;
	}
	for (i = 0; i < m; i++)
		ta_tier_put(s, ch->tmp[i].k, ch->boff[i]);
keep:
	memcpy(ch->base, s->off, tu->n * sizeof(*ch->base));
	return ret;
}

/*
 * The pins' cheap refusals: a unit larger than the capacity, or more
 * bytes pinned fast live at one step than it holds.
 */
static int ta_tier_pins_fit(const struct ta_tier_units *tu, u64 cap,
			    struct ta_tier_fail *f, struct ta_work *w)
{
	u64 *ev, live = 0;
	u32 i, m = 0;
	int ret = 0;

	for (i = 0; i < tu->n; i++) {
		const struct ta_tier_unit *u = &tu->u[i];

		if (u->pin == TA_TIER_FAST && u->size > cap) {
			f->kind = TA_TIER_FAIL_SIZE;
			f->tensor = u->first;
			f->shortfall = u->size - cap;
			return -ENOSPC;
		}
	}
	ev = ta_env_alloc_array(2 * (size_t)tu->n + 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	/* step << 32 | kind << 31 | unit; ends (0) before starts (1) */
	for (i = 0; i < tu->n; i++) {
		if (tu->u[i].pin != TA_TIER_FAST || !tu->u[i].size)
			continue;
		ev[m++] = (u64)tu->u[i].start << 32 | BIT_ULL(31) | i;
		ev[m++] = (u64)tu->u[i].end << 32 | i;
	}
	ta_env_sort(ev, m, sizeof(*ev), ta_cmp_u64);
	for (i = 0; i < m && !ret; i++) {
		const struct ta_tier_unit *u = &tu->u[ev[i] & 0x7fffffffU];

		if (!(ev[i] & BIT_ULL(31))) {
			live -= u->size;
			continue;
		}
		live += u->size;
		if (live > cap) {
			f->kind = TA_TIER_FAIL_LIVE;
			f->tensor = u->first;
			f->step = u->start;
			f->shortfall = live - cap;
			ret = -ENOSPC;
		}
		if (!ret)
			ret = ta_work_add(w, 1);
	}
	ta_env_free(ev);
	return ret;
}

static void ta_tier_choice_free(struct ta_tier_choice *ch)
{
	ta_env_free(ch->s.off);
	ta_env_free(ch->s.placed);
	ta_env_free(ch->s.pos);
	ta_env_free(ch->s.span);
	ta_env_free(ch->best);
	ta_env_free(ch->base);
	ta_env_free(ch->order);
	ta_env_free(ch->tmp);
	ta_env_free(ch->bufs);
	ta_env_free(ch->boff);
}

static int ta_tier_choice_alloc(struct ta_tier_choice *ch,
				const struct ta_tier_units *tu, u64 cap,
				struct ta_work *w)
{
	size_t n = tu->n ? tu->n : 1;
	u32 i;

	*ch = (struct ta_tier_choice){ 0 };
	ch->s.tu = tu;
	ch->s.cap = cap;
	ch->s.w = w;
	ch->s.off = ta_env_alloc_array(n, sizeof(u64));
	ch->s.placed = ta_env_alloc_array(n, sizeof(u32));
	ch->s.pos = ta_env_alloc_array(n, sizeof(u32));
	ch->s.span = ta_env_alloc_array(n, sizeof(struct ta_span));
	ch->best = ta_env_alloc_array(n, sizeof(u64));
	ch->base = ta_env_alloc_array(n, sizeof(u64));
	ch->order = ta_env_alloc_array(n, sizeof(u32));
	ch->tmp = ta_env_alloc_array(n, sizeof(*ch->tmp));
	ch->bufs = ta_env_alloc_array(n, sizeof(*ch->bufs));
	ch->boff = ta_env_alloc_array(n, sizeof(u64));
	if (!ch->s.off || !ch->s.placed || !ch->s.pos || !ch->s.span ||
	    !ch->best || !ch->base || !ch->order || !ch->tmp || !ch->bufs ||
	    !ch->boff) {
		ta_tier_choice_free(ch);
		return -ENOMEM;
	}
	for (i = 0; i < tu->n; i++) {
		ch->s.off[i] = TA_TIER_OUT;
		ch->base[i] = TA_TIER_OUT;
	}
	return 0;
}

/* Whether unit @k is in the fast tier: pinned there, chosen, or empty. */
static bool ta_tier_is_fast(const struct ta_tier_units *tu, const u64 *best,
			    u32 k)
{
	const struct ta_tier_unit *u = &tu->u[k];

	if (u->pin != TA_TIER_ANY)
		return u->pin == TA_TIER_FAST;
	return !u->size || best[k] != TA_TIER_OUT;
}

/* The choice: pins, the greedy portfolio, the local search. */
static int ta_tier_choose(struct ta_tier_choice *ch,
			  const struct ta_budget *budget,
			  struct ta_tier_fail *f)
{
	u32 key;
	int ret;

	ret = ta_tier_pinned(ch, f);
	if (ret)
		return ret;
	memcpy(ch->best, ch->base, ch->s.tu->n * sizeof(*ch->best));
	ch->best_weight = ch->s.weight;
	for (key = 0; key < TA_TIER_ORDERS; key++) {
		if (ch->best_weight >= ch->bound)
			break;
		ta_tier_restore(&ch->s, ch->base);
		ch->n_order = ta_tier_order(ch->s.tu, ch->s.cap, key, ch->tmp,
					    ch->order);
		if (!ch->n_order)
			break;
		ret = ta_tier_greedy(ch);
		if (ret)
			return ret;
	}
	return ta_tier_search(ch, budget);
}

/* The buffers of one tier as a problem of their own. */
struct ta_tier_sub {
	struct ta_problem q;
	struct ta_graph g;
	struct ta_graph_tensor *tensors;
	struct ta_graph_op *ops;
	u32 *refs;
	struct ta_buffer *bufs;
	u32 *alias;
	u32 *idx;	/* sub buffer -> buffer */
	u32 *map;	/* buffer -> sub buffer, or U32_MAX */
	u64 *off;
};

static void ta_tier_sub_free(struct ta_tier_sub *sb)
{
	ta_env_free(sb->tensors);
	ta_env_free(sb->ops);
	ta_env_free(sb->refs);
	ta_env_free(sb->bufs);
	ta_env_free(sb->alias);
	ta_env_free(sb->idx);
	ta_env_free(sb->map);
	ta_env_free(sb->off);
	*sb = (struct ta_tier_sub){ 0 };
}

/*
 * Graph form: every op, with the references to this tier's tensors only,
 * so each tensor keeps its lifetime; an in-place op stays in place when
 * its first input and first output are both here (its alias is then what
 * it was, both being in the one tier of their class).
 */
static int ta_tier_sub_graph(const struct ta_graph *g, struct ta_tier_sub *sb)
{
	u32 o, k, r = 0;

	sb->ops = ta_env_alloc_array(g->n_ops ? g->n_ops : 1, sizeof(*sb->ops));
	sb->refs = ta_env_alloc_array(g->n_refs ? g->n_refs : 1,
				      sizeof(*sb->refs));
	sb->tensors = ta_env_alloc_array(sb->q.n_buffers ? sb->q.n_buffers : 1,
					 sizeof(*sb->tensors));
	if (!sb->ops || !sb->refs || !sb->tensors)
		return -ENOMEM;
	for (k = 0; k < sb->q.n_buffers; k++)
		sb->tensors[k] = g->tensors[sb->idx[k]];
	for (o = 0; o < g->n_ops; o++) {
		const struct ta_graph_op *op = &g->ops[o];
		struct ta_graph_op *no = &sb->ops[o];
		bool in_first = false, out_first = false;

		no->first_ref = r;
		no->flags = op->flags;
		for (k = 0; k < op->n_inputs + op->n_outputs; k++) {
			u32 t = sb->map[g->refs[op->first_ref + k]];

			if (t == U32_MAX)
				continue;
			if (k == 0 && op->n_inputs)
				in_first = true;
			if (k == op->n_inputs)
				out_first = true;
			sb->refs[r++] = t;
			if (k < op->n_inputs)
				no->n_inputs++;
			else
				no->n_outputs++;
		}
		if (!in_first || !out_first)
			no->flags &= ~TA_OP_INPLACE;
	}
	sb->g = (struct ta_graph){ .n_tensors = sb->q.n_buffers,
				   .n_ops = g->n_ops, .n_refs = r,
				   .tensors = sb->tensors, .ops = sb->ops,
				   .refs = sb->refs };
	sb->q.graph = &sb->g;
	return 0;
}

static int ta_tier_sub_build(const struct ta_problem *p, const u8 *tier,
			     u8 which, struct ta_tier_sub *sb)
{
	u32 i, m = 0, n = p->n_buffers;

	*sb = (struct ta_tier_sub){ 0 };
	sb->idx = ta_env_alloc_array(n ? n : 1, sizeof(*sb->idx));
	sb->map = ta_env_alloc_array(n ? n : 1, sizeof(*sb->map));
	sb->bufs = ta_env_alloc_array(n ? n : 1, sizeof(*sb->bufs));
	sb->off = ta_env_alloc_array(n ? n : 1, sizeof(*sb->off));
	if (!sb->idx || !sb->map || !sb->bufs || !sb->off)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		sb->map[i] = U32_MAX;
		if (tier[i] != which)
			continue;
		sb->map[i] = m;
		sb->idx[m] = i;
		sb->bufs[m++] = p->buffers[i];
	}
	sb->q.n_buffers = m;
	sb->q.buffers = sb->bufs;
	if (p->graph)
		return ta_tier_sub_graph(p->graph, sb);
	if (p->alias) {
		sb->alias = ta_env_alloc_array(m ? m : 1, sizeof(*sb->alias));
		if (!sb->alias)
			return -ENOMEM;
		for (i = 0; i < m; i++)
			sb->alias[i] = sb->map[p->alias[sb->idx[i]]];
		sb->q.alias = sb->alias;
	}
	return 0;
}

/* Plan one tier with @strategy; its offsets into @offsets. */
static int ta_tier_plan(const struct ta_problem *p, const u8 *tier, u8 which,
			u32 strategy, const struct ta_budget *budget,
			u64 *offsets, struct ta_result *r)
{
	struct ta_tier_sub sb;
	u32 i;
	int ret;

	ret = ta_tier_sub_build(p, tier, which, &sb);
	if (!ret)
		ret = ta_plan_solve(&sb.q, strategy, budget, sb.off, r);
	for (i = 0; !ret && i < sb.q.n_buffers; i++)
		offsets[sb.idx[i]] = sb.off[i];
	ta_tier_sub_free(&sb);
	return ret;
}

/* The choice's own placement as the fast plan (auto's fallback). */
static int ta_tier_own(const struct ta_problem *p, const struct ta_tier_units *tu,
		       const u64 *uoff, const u8 *tier, u64 *offsets,
		       struct ta_result *r)
{
	struct ta_tier_sub sb;
	u64 top = 0;
	u32 i;
	int ret;

	for (i = 0; i < p->n_buffers; i++) {
		if (tier[i] != TA_TIER_FAST)
			continue;
		offsets[i] = p->buffers[i].size ? uoff[tu->of[i]] : 0;
		if (p->buffers[i].size && offsets[i] + p->buffers[i].size > top)
			top = offsets[i] + p->buffers[i].size;
	}
	*r = (struct ta_result){ .height = top };
	ret = ta_tier_sub_build(p, tier, TA_TIER_FAST, &sb);
	if (!ret)
		ret = ta_problem_lower_bound(&sb.q, &r->lower_bound);
	r->optimal = !ret && r->lower_bound == top;
	ta_tier_sub_free(&sb);
	return ret;
}

/*
 * Plan the fast tier; above the capacity, auto falls back on the choice's
 * placement, the others drop the chosen free unit of least weight per
 * byte, and plan again, until it fits.
 */
static int ta_tier_plan_fast(const struct ta_problem *p,
			     const struct ta_tier_request *rq,
			     const struct ta_budget *budget,
			     struct ta_tier_choice *ch, u8 *tier, u64 *offsets,
			     struct ta_result *r)
{
	const struct ta_tier_units *tu = ch->s.tu;
	u32 i, n_order, drop = 0;
	int ret;

	n_order = ta_tier_order(tu, rq->capacity, 0, ch->tmp, ch->order);
	for (;;) {
		ret = ta_tier_plan(p, tier, TA_TIER_FAST, rq->fast_strategy,
				   budget, offsets, r);
		if (ret || r->height <= rq->capacity)
			return ret;
		if (rq->fast_strategy == TA_STRATEGY_AUTO)
			return ta_tier_own(p, tu, ch->best, tier, offsets, r);
		while (drop < n_order && ch->best[ch->order[n_order - 1 - drop]] ==
		       TA_TIER_OUT)
			drop++;
		/*
		 * The pins alone, and the strategy still plans them too high
		 * (the pin check's auto plan fit): take the search's own
		 * placement, which fits.
		 */
		if (drop == n_order)
			return ta_tier_own(p, tu, ch->best, tier, offsets, r);
		ch->best[ch->order[n_order - 1 - drop]] = TA_TIER_OUT;
		for (i = 0; i < p->n_buffers; i++)
			if (!ta_tier_is_fast(tu, ch->best, tu->of[i]))
				tier[i] = TA_TIER_SLOW;
	}
}

/**
 * ta_tier_solve() - choose the fast set and plan both tiers
 * @p: the problem (graph or trace form, no &ta_problem.fixed)
 * @rq: capacity, weights, pins and the two strategies
 * @budget: effort, or NULL for the defaults
 * @tier: out, per buffer %TA_TIER_FAST or %TA_TIER_SLOW
 * @offsets: out, per buffer, its offset within its tier
 * @res: out, the figures; res->fail on a pin that cannot be met
 *
 * See ta_tier.h.
 *
 * Return: 0; -EINVAL for a malformed problem or request or contradictory
 * pins; -ENOSPC when the fast pins cannot fit; as ta_plan_solve() else.
 */
int ta_tier_solve(const struct ta_problem *p, const struct ta_tier_request *rq,
		  const struct ta_budget *budget, u8 *tier, u64 *offsets,
		  struct ta_tier_result *res)
{
	u64 t0 = ta_env_now_ns();
	struct ta_tier_choice ch;
	struct ta_tier_units tu;
	struct ta_work w;
	u32 i;
	int ret;

	if (!res)
		return -EINVAL;
	*res = (struct ta_tier_result){ 0 };
	if (p && p->n_buffers && (!tier || !offsets))
		return -EINVAL;
	ta_work_init(&w, budget ? budget->limit_ns : 0);
	ret = ta_tier_units_build(p, rq, &tu, &res->fail, &w);
	if (ret)
		return ret;
	res->weight_total = tu.weight_total;
	ret = ta_tier_pins_fit(&tu, rq->capacity, &res->fail, &w);
	if (!ret)
		ret = ta_tier_bound_units(&tu, rq->capacity, &res->weight_bound,
					  &w);
	if (ret)
		goto free_units;
	ret = ta_tier_choice_alloc(&ch, &tu, rq->capacity, &w);
	if (ret)
		goto free_units;
	ch.bound = res->weight_bound;
	ret = ta_tier_choose(&ch, budget, &res->fail);
	if (ret)
		goto free_choice;
	res->moves = ch.moves;
	for (i = 0; i < p->n_buffers; i++)
		tier[i] = ta_tier_is_fast(&tu, ch.best, tu.of[i]) ?
			  TA_TIER_FAST : TA_TIER_SLOW;
	ret = ta_tier_plan_fast(p, rq, budget, &ch, tier, offsets, &res->fast);
	if (!ret)
		ret = ta_tier_plan(p, tier, TA_TIER_SLOW, rq->slow_strategy,
				   budget, offsets, &res->slow);
	for (i = 0; !ret && i < tu.n; i++) {
		if (ta_tier_is_fast(&tu, ch.best, i))
			res->weight_fast = ta_tier_add(res->weight_fast,
						       tu.u[i].weight);
	}
	for (i = 0; !ret && i < p->n_buffers; i++)
		res->n_fast += tier[i] == TA_TIER_FAST;
	res->time_ns = ta_env_now_ns() - t0;
free_choice:
	ta_tier_choice_free(&ch);
free_units:
	ta_tier_units_free(&tu);
	return ret;
}
