// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_group.c - libFuzzer target for the group planner and its validator
 * (module/planner/ta_group*.c), with a brute-force pairwise check as the
 * oracle of ta_group_check().
 *
 * The input is decoded (fuzz_decode.h) into up to four members, each a
 * small chain-like graph (flags, in-place ops and an odd reference here
 * and there) or a small trace (sometimes with an alias array), in lanes
 * that are sometimes out of range, with links and shared entries whose
 * indices are sometimes out of range. Then:
 *
 *  - ta_group_layout(), ta_group_solve() and ta_group_check() never
 *    crash, and return 0 or a documented errno;
 *  - when ta_group_solve() succeeds: ta_group_check() accepts the plan at
 *    its height, and so does the brute force; the height is at least the
 *    lower bound;
 *  - the plan nudged by the input (a tensor moved, the height changed):
 *    ta_group_check() and the brute force agree;
 *  - the first members planned alone, then the rest added with
 *    ta_group_extend(): 0 with the old offsets unchanged and a plan that
 *    checks within the capacity, or -ENOSPC.
 *
 * Any violation aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_group.h"
#include "fuzz_decode.h"

#define FG_MEMBERS	4
#define FG_TENSORS	10
#define FG_ALL		(FG_MEMBERS * FG_TENSORS)
#define FG_LINKS	6
#define FG_SHARED	6

#define FG_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz_group: %s:%d: check failed: %s: ", \
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

struct fg_member {
	struct ta_graph_tensor t[FG_TENSORS];
	struct ta_graph_op o[FG_TENSORS];
	u32 r[3 * FG_TENSORS];
	struct ta_graph g;
	struct ta_buffer b[FG_TENSORS];
	u32 alias[FG_TENSORS];
};

struct fg {
	struct fg_member m[FG_MEMBERS];
	struct ta_group_member_problem mp[FG_MEMBERS];
	struct ta_group_link links[FG_LINKS];
	struct ta_group_shared shared[FG_SHARED];
	struct ta_group_problem gp;
};

static u64 fg_size(struct fuzz_in *f)
{
	u8 k = fuzz_u8(f);

	if (k < 0x20)
		return 0;
	if (k < 0xf8)
		return 1 + fuzz_u16(f) % 2048;
	return fuzz_u64(f) >> (k & 7);	/* huge */
}

static u64 fg_align(struct fuzz_in *f)
{
	u8 k = fuzz_u8(f);

	return k < 0xf8 ? 1ULL << (k % 7) : k;	/* sometimes no power of 2 */
}

/* A chain-like graph: op i reads tensor i (and sometimes an earlier one). */
static void fg_graph(struct fuzz_in *f, struct fg_member *m,
		     struct ta_problem *p)
{
	static const u32 flag_of[8] = { 0, 0, 0, TA_TENSOR_OUTPUT,
					TA_TENSOR_CONSTANT,
					TA_TENSOR_PERSISTENT,
					TA_TENSOR_EXPORTABLE, TA_TENSOR_INPUT };
	u32 n = 2 + fuzz_u8(f) % (FG_TENSORS - 1), i, nr = 0;

	for (i = 0; i < n; i++) {
		u8 k = fuzz_u8(f);

		m->t[i].size = fg_size(f);
		m->t[i].align = fg_align(f);
		m->t[i].flags = i ? flag_of[k & 7] : TA_TENSOR_INPUT |
			       (k & 1 ? TA_TENSOR_CONSTANT : 0);
		if (k == 0xff)
			m->t[i].flags = 0x20;	/* unknown */
	}
	m->t[n - 1].flags |= TA_TENSOR_OUTPUT;
	for (i = 0; i + 1 < n; i++) {
		u8 k = fuzz_u8(f);

		m->o[i].first_ref = nr;
		m->o[i].n_inputs = 1 + (k & 1 && i);
		m->o[i].n_outputs = 1;
		m->o[i].flags = k & 2 ? TA_OP_INPLACE : 0;
		m->r[nr++] = k == 0xfe ? 99 : i;
		if (k & 1 && i)
			m->r[nr++] = (k >> 2) % i;
		m->r[nr++] = i + 1;
		/* a constant or input written by an op: refused */
		if (m->t[i + 1].flags & (TA_TENSOR_CONSTANT | TA_TENSOR_INPUT) &&
		    !(k & 0x80))
			m->t[i + 1].flags &= ~(TA_TENSOR_CONSTANT |
					       TA_TENSOR_INPUT);
	}
	m->g.n_tensors = n;
	m->g.n_ops = n - 1;
	m->g.n_refs = nr;
	m->g.tensors = m->t;
	m->g.ops = m->o;
	m->g.refs = m->r;
	if (ta_graph_lifetimes(&m->g, m->b))
		memset(m->b, 0, sizeof(m->b));	/* ta_group_layout() refuses */
	p->n_buffers = n;
	p->buffers = m->b;
	p->graph = &m->g;
}

static void fg_trace(struct fuzz_in *f, struct fg_member *m,
		     struct ta_problem *p)
{
	u32 n = fuzz_u8(f) % (FG_TENSORS + 1), i;
	bool alias = fuzz_u8(f) > 0xc0;

	for (i = 0; i < n; i++) {
		u8 k = fuzz_u8(f);

		m->b[i].size = fg_size(f);
		m->b[i].align = fg_align(f);
		m->b[i].start = k % 8;
		m->b[i].end = k % 8 + 1 + (k >> 3) % 6;
		m->alias[i] = alias && i && (k & 1) ? i - 1 : i;
		if (m->alias[i] != i) {
			/* one memory: the root's size, an adjacent lifetime */
			m->alias[i] = m->alias[i - 1];
			m->b[i].size = m->b[m->alias[i]].size;
			m->b[i].start = m->b[i - 1].end - 1;
			if (m->b[i].end <= m->b[i].start)
				m->b[i].end = m->b[i].start + 1;
		}
	}
	p->n_buffers = n;
	p->buffers = m->b;
	p->alias = alias ? m->alias : NULL;
}

static void fg_decode(struct fuzz_in *f, struct fg *g)
{
	u32 n = 1 + fuzz_u8(f) % FG_MEMBERS, i;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < n; i++) {
		u8 k = fuzz_u8(f);
		struct ta_problem *p = &g->mp[i].problem;

		g->mp[i].lane = k < 0xf0 ? (k >> 1) % 3 : k & 0xf;
		if (k & 1)
			fg_trace(f, &g->m[i], p);
		else
			fg_graph(f, &g->m[i], p);
	}
	g->gp.n_members = n;
	g->gp.members = g->mp;
	g->gp.n_links = fuzz_u8(f) % (FG_LINKS + 1);
	for (i = 0; i < g->gp.n_links; i++) {
		struct ta_group_link *l = &g->links[i];

		l->from_member = fuzz_u8(f) % (n + 1);
		l->from_tensor = fuzz_u8(f) % (FG_TENSORS + 1);
		l->to_member = fuzz_u8(f) % (n + 1);
		l->to_tensor = fuzz_u8(f) % 3;
	}
	g->gp.links = g->links;
	g->gp.n_shared = fuzz_u8(f) % (FG_SHARED + 1);
	for (i = 0; i < g->gp.n_shared; i++) {
		struct ta_group_shared *s = &g->shared[i];

		s->member = fuzz_u8(f) % (n + 1);
		s->tensor = fuzz_u8(f) % (FG_TENSORS + 1);
		s->key = fuzz_u8(f) % 3;
		s->pad = fuzz_u8(f) == 0xff;
	}
	g->gp.shared = g->shared;
}

/* The rules of ta_group_check(), pair by pair. */
static bool fg_brute(const struct ta_group_buffer *gb, u32 n,
		     const u64 *off, u64 height)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (off[i] != off[gb[i].root] || off[i] % gb[i].align)
			return false;
		if (gb[i].size && (off[i] >= (1ULL << 63) ||
				   gb[i].size > height ||
				   off[i] > height - gb[i].size))
			return false;
	}
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			const struct ta_group_buffer *a = &gb[i], *b = &gb[j];
			bool live;

			if (a->root != i || b->root != j || !a->size || !b->size)
				continue;
			live = a->always || b->always || a->lane != b->lane ||
			       (a->start < b->end && b->start < a->end);
			if (live && off[i] < off[j] + b->size &&
			    off[j] < off[i] + a->size)
				return false;
		}
	}
	return true;
}

static bool fg_errno_ok(int ret)
{
	return ret == -EINVAL || ret == -E2BIG || ret == -ENOMEM ||
	       ret == -EOVERFLOW;
}

/* The first @n_old members with their own links and shared entries. */
static struct ta_group_problem fg_old(const struct fg *g, u32 n_old)
{
	struct ta_group_problem old = g->gp;
	static struct ta_group_link links[FG_LINKS];
	static struct ta_group_shared shared[FG_SHARED];
	u32 i;

	old.n_members = n_old;
	old.n_links = 0;
	old.n_shared = 0;
	old.links = links;
	old.shared = shared;
	for (i = 0; i < g->gp.n_links; i++)
		if (g->links[i].from_member < n_old &&
		    g->links[i].to_member < n_old)
			links[old.n_links++] = g->links[i];
	for (i = 0; i < g->gp.n_shared; i++)
		if (g->shared[i].member < n_old)
			shared[old.n_shared++] = g->shared[i];
	return old;
}

static void fg_extend(struct fuzz_in *f, const struct fg *g, u32 strategy,
		      const struct ta_budget *budget)
{
	static u64 off[FG_ALL], noff[FG_ALL];
	struct ta_group_problem old;
	struct ta_group_result res, ext;
	struct ta_conflict c;
	u32 n_old, n_tensors_old;
	u64 cap;
	int ret;

	if (g->gp.n_members < 2)
		return;
	n_old = 1 + fuzz_u8(f) % (g->gp.n_members - 1);
	old = fg_old(g, n_old);
	if (ta_group_solve(&old, strategy, budget, off, &res))
		return;
	cap = res.height + fuzz_u16(f);
	ret = ta_group_extend(&g->gp, n_old, off, cap, strategy, budget, noff,
			      &ext);
	FG_CHECK(!ret || ret == -ENOSPC, "extend: %d", ret);
	if (ret)
		return;
	n_tensors_old = ta_group_index(&g->gp, n_old, 0);
	FG_CHECK(!memcmp(off, noff, n_tensors_old * sizeof(*off)), "old moved");
	FG_CHECK(!ta_group_check(&g->gp, noff, cap, &c),
		 "extended plan: kind %u (%u, %u)", c.kind, c.a, c.b);
	FG_CHECK(ext.height <= cap, "height %llu over %llu",
		 (unsigned long long)ext.height, (unsigned long long)cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 strategies[] = { TA_STRATEGY_AUTO, TA_STRATEGY_STACK,
					  TA_STRATEGY_FREELIST,
					  TA_STRATEGY_GREEDY_SIZE,
					  TA_STRATEGY_PINGPONG,
					  TA_STRATEGY_FIXED, 77 };
	struct ta_budget budget = { .time_ns = 3000000, .steps = 500 };
	static struct ta_group_buffer gb[FG_ALL];
	static u64 off[FG_ALL];
	static struct fg g;
	struct fuzz_in f = { data, size };
	struct ta_group_result res;
	struct ta_conflict c;
	u32 strategy, n, k;
	u64 height;
	int lay, ret;

	if (getenv("FUZZ_REPRODUCIBLE"))
		budget.time_ns = 3600000000000ULL;
	fg_decode(&f, &g);
	strategy = strategies[fuzz_u8(&f) % 7];
	lay = ta_group_layout(&g.gp, gb);
	FG_CHECK(!lay || fg_errno_ok(lay), "layout: %d", lay);
	ret = ta_group_solve(&g.gp, strategy, &budget, off, &res);
	if (strategy == TA_STRATEGY_PINGPONG || strategy >= TA_STRATEGY_FIXED)
		FG_CHECK(ret == -EINVAL, "strategy %u: %d", strategy, ret);
	else if (lay)
		FG_CHECK(ret == lay, "solve %d, layout %d", ret, lay);
	if (ret) {
		FG_CHECK(fg_errno_ok(ret), "solve: %d", ret);
		memset(off, 0, sizeof(off));
		ret = ta_group_check(&g.gp, off, 0, &c);
		FG_CHECK(!ret || fg_errno_ok(ret), "check: %d", ret);
		return 0;
	}
	n = ta_group_tensor_count(&g.gp);
	FG_CHECK(!ta_group_check(&g.gp, off, res.height, &c),
		 "solved plan: kind %u (%u, %u)", c.kind, c.a, c.b);
	FG_CHECK(fg_brute(gb, n, off, res.height), "brute force refuses");
	FG_CHECK(res.height >= res.lower_bound, "height %llu < bound %llu",
		 (unsigned long long)res.height,
		 (unsigned long long)res.lower_bound);
	/* nudge the plan: validator and brute force agree */
	height = res.height;
	if (n) {
		k = fuzz_u8(&f) % n;
		switch (fuzz_u8(&f) & 3) {
		case 0:
			off[k] = fuzz_u16(&f);
			break;
		case 1:
			off[k] = off[(k + 1) % n];
			break;
		case 2:
			height -= height ? 1 : 0;
			break;
		default:
			off[k] += 1ULL << (fuzz_u8(&f) % 12);
			break;
		}
		ret = ta_group_check(&g.gp, off, height, &c);
		FG_CHECK(!ret || ret == -EINVAL, "nudged check: %d", ret);
		FG_CHECK(!ret == fg_brute(gb, n, off, height),
			 "check %d, brute force %d", ret,
			 fg_brute(gb, n, off, height));
		FG_CHECK(ret ? c.kind != TA_CONFLICT_NONE :
			 c.kind == TA_CONFLICT_NONE, "kind %u", c.kind);
	}
	fg_extend(&f, &g, strategy, &budget);
	return 0;
}
