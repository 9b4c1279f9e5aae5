// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_group.c - groups of graphs planned into one slice
 * (module/planner/ta_group*.c): sequential members share, lanes are
 * disjoint, links and shared keys are one offset, every bad input is
 * refused with its errno, extend moves nothing, and ta_group_check() is
 * the oracle of every plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "ta_group.h"
#include "ta_plan_helpers.h"

#define MB_MAX	16

/* One member graph: a chain x -> t1 -> ... -> y, maybe a constant. */
struct mb {
	struct ta_graph_tensor t[MB_MAX];
	struct ta_graph_op o[MB_MAX];
	u32 r[3 * MB_MAX];
	struct ta_graph g;
	struct ta_buffer b[MB_MAX];
};

/*
 * @n tensors of @sizes in a chain (n - 1 ops); with @konst, tensor n is a
 * constant of that size read by op 0. Return: 0 or ta_graph_lifetimes()'s
 * error.
 */
static int mb_chain(struct mb *m, const u64 *sizes, u32 n, u64 konst)
{
	u32 i, nr = 0, nt = n + !!konst;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < n; i++) {
		m->t[i].size = sizes[i];
		m->t[i].align = 1;
	}
	m->t[0].flags = TA_TENSOR_INPUT;
	m->t[n - 1].flags = TA_TENSOR_OUTPUT;
	if (konst) {
		m->t[n].size = konst;
		m->t[n].align = 1;
		m->t[n].flags = TA_TENSOR_CONSTANT;
	}
	for (i = 0; i + 1 < n; i++) {
		m->o[i].first_ref = nr;
		m->o[i].n_inputs = 1 + (konst && !i);
		m->o[i].n_outputs = 1;
		m->r[nr++] = i;
		if (konst && !i)
			m->r[nr++] = n;
		m->r[nr++] = i + 1;
	}
	m->g.n_tensors = nt;
	m->g.n_ops = n - 1;
	m->g.n_refs = nr;
	m->g.tensors = m->t;
	m->g.ops = m->o;
	m->g.refs = m->r;
	return ta_graph_lifetimes(&m->g, m->b);
}

static struct ta_group_member_problem mb_member(struct mb *m, u32 lane)
{
	struct ta_group_member_problem mp = { 0 };

	mp.problem.n_buffers = m->g.n_tensors;
	mp.problem.buffers = m->b;
	mp.problem.graph = &m->g;
	mp.lane = lane;
	return mp;
}

/* Solve, then check with the validator: 0, or solve's errno, or -1000. */
static int group_ok(const struct ta_group_problem *gp, u32 s, u64 *off,
		    struct ta_group_result *res)
{
	struct ta_conflict c;
	int ret = ta_group_solve(gp, s, NULL, off, res);

	if (ret)
		return ret;
	ret = ta_group_check(gp, off, res->height, &c);
	if (ret) {
		printf("# %s: group plan fails the check: %d kind %u (%u, %u)\n",
		       ta_strategy_name(s), ret, c.kind, c.a, c.b);
		return -1000;
	}
	if (res->height < res->lower_bound) {
		printf("# height %llu below bound %llu\n",
		       (unsigned long long)res->height,
		       (unsigned long long)res->lower_bound);
		return -1001;
	}
	return 0;
}

/* Height of one member planned alone. */
static u64 alone(struct mb *m, u32 s)
{
	struct ta_group_member_problem mp = mb_member(m, 0);
	struct ta_result r;
	u64 off[MB_MAX];

	if (ta_plan_solve(&mp.problem, s, NULL, off, &r))
		return 0;
	return r.height;
}

static const u64 sz_a[] = { 100, 300, 200, 50 };
static const u64 sz_b[] = { 50, 400, 400, 10 };
static const u64 sz_c[] = { 10, 20, 700 };

/* Members of one lane share: the group is as high as its highest member. */
static int t_group_sequential(void)
{
	struct mb m[3];
	struct ta_group_member_problem mp[3];
	struct ta_group_problem gp = { .n_members = 3, .members = mp };
	struct ta_group_result res;
	u64 off[3 * MB_MAX], hmax = 0, sum = 0, h;
	u32 s, i;

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0) &&
		 !mb_chain(&m[2], sz_c, 3, 0), "graphs");
	for (i = 0; i < 3; i++)
		mp[i] = mb_member(&m[i], 0);
	TA_CHECK(ta_group_tensor_count(&gp) == 11, "count %u",
		 ta_group_tensor_count(&gp));
	TA_CHECK(ta_group_index(&gp, 2, 1) == 9, "index");
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		if (s == TA_STRATEGY_PINGPONG) {
			TA_CHECK(ta_group_solve(&gp, s, NULL, off, &res) ==
				 -EINVAL, "pingpong refused");
			continue;
		}
		TA_CHECK(!group_ok(&gp, s, off, &res), "%s",
			 ta_strategy_name(s));
		hmax = 0;
		sum = 0;
		for (i = 0; i < 3; i++) {
			h = alone(&m[i], s);
			hmax = h > hmax ? h : hmax;
			sum += h;
		}
		if (s == TA_STRATEGY_AUTO)
			TA_CHECK(res.height == hmax && res.optimal,
				 "auto: %llu, largest member %llu",
				 (unsigned long long)res.height,
				 (unsigned long long)hmax);
		TA_CHECK(res.height < sum, "%s: %llu not below the sum %llu",
			 ta_strategy_name(s), (unsigned long long)res.height,
			 (unsigned long long)sum);
	}
	TA_CHECK(ta_group_solve(&gp, TA_STRATEGY_FIXED, NULL, off, &res) ==
		 -EINVAL, "fixed refused");
	return 0;
}

/* Lanes get disjoint bytes; the validator sees an overlap of two lanes. */
static int t_group_lanes(void)
{
	struct mb m[2];
	struct ta_group_member_problem mp[2];
	struct ta_group_problem gp = { .n_members = 2, .members = mp };
	struct ta_group_result res;
	struct ta_conflict c;
	u64 off[2 * MB_MAX];

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0),
		 "graphs");
	mp[0] = mb_member(&m[0], 0);
	mp[1] = mb_member(&m[1], 1);
	TA_CHECK(!group_ok(&gp, TA_STRATEGY_AUTO, off, &res), "solve");
	TA_CHECK(res.height == alone(&m[0], 0) + alone(&m[1], 0),
		 "height %llu", (unsigned long long)res.height);
	TA_CHECK(res.lower_bound == res.height && res.optimal, "bound %llu",
		 (unsigned long long)res.lower_bound);
	/* member 1's first tensor onto member 0's first */
	off[4] = off[0];
	TA_CHECK(ta_group_check(&gp, off, res.height, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP, "overlap: kind %u", c.kind);
	return 0;
}

/* A link is one offset; the reader's input is live until its last read. */
static int t_group_link(void)
{
	struct mb m[2];
	struct ta_group_member_problem mp[2];
	struct ta_group_link link = { 0, 3, 1, 0 };
	struct ta_group_problem gp = { .n_members = 2, .members = mp,
				       .n_links = 1, .links = &link };
	struct ta_group_buffer gb[2 * MB_MAX];
	struct ta_group_result res;
	struct ta_conflict c;
	u64 off[2 * MB_MAX];
	u32 s;

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0),
		 "graphs");
	mp[0] = mb_member(&m[0], 0);
	mp[1] = mb_member(&m[1], 0);
	TA_CHECK(!ta_group_layout(&gp, gb), "layout");
	TA_CHECK(gb[4].root == 3 && gb[3].root == 3 && !gb[3].always,
		 "root %u", gb[4].root);
	/* from a's producer (op 2, step 2) to b's last read (op 0, step 3) */
	TA_CHECK(gb[3].start == 2 && gb[3].end == 4 && gb[3].size == 50,
		 "root [%u, %u) size %llu", gb[3].start, gb[3].end,
		 (unsigned long long)gb[3].size);
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		if (s == TA_STRATEGY_PINGPONG)
			continue;
		TA_CHECK(!group_ok(&gp, s, off, &res), "%s",
			 ta_strategy_name(s));
		TA_CHECK(off[3] == off[4], "one offset");
	}
	/* b's first op writes its tensor 1 over the link: refused */
	off[5] = off[4];
	TA_CHECK(ta_group_check(&gp, off, U64_MAX >> 1, &c) == -EINVAL &&
		 c.kind == TA_CONFLICT_OVERLAP, "kind %u", c.kind);
	/* across lanes, the link is live for the whole run */
	mp[1].lane = 1;
	TA_CHECK(!ta_group_layout(&gp, gb) && gb[3].always && gb[4].always,
		 "always");
	TA_CHECK(!group_ok(&gp, TA_STRATEGY_AUTO, off, &res), "cross-lane");
	TA_CHECK(off[3] == off[4], "one offset across lanes");
	return 0;
}

/* Shared keys: one offset, live for the whole run, the largest size. */
static int t_group_shared(void)
{
	struct mb m[2];
	struct ta_group_member_problem mp[2];
	struct ta_group_shared sh[2] = { { 0, 1, 7, 0 }, { 1, 2, 7, 0 } };
	struct ta_group_problem gp = { .n_members = 2, .members = mp,
				       .n_shared = 2, .shared = sh };
	struct ta_group_buffer gb[2 * MB_MAX];
	struct ta_group_result res;
	u64 off[2 * MB_MAX];

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0),
		 "graphs");
	mp[0] = mb_member(&m[0], 0);
	mp[1] = mb_member(&m[1], 0);
	TA_CHECK(!ta_group_layout(&gp, gb), "layout");
	TA_CHECK(gb[6].root == 1 && gb[1].always && gb[1].size == 400,
		 "root %u size %llu", gb[6].root,
		 (unsigned long long)gb[1].size);
	TA_CHECK(!group_ok(&gp, TA_STRATEGY_AUTO, off, &res), "solve");
	TA_CHECK(off[1] == off[6], "one offset");
	return 0;
}

/* A group of two or three chain members for the refusal table. */
struct rg {
	struct mb m[3];
	struct ta_group_member_problem mp[3];
	struct ta_group_link links[TA_GROUP_MAX_LINKS + 1];
	struct ta_group_shared shared[TA_GROUP_MAX_SHARED + 1];
	struct ta_group_problem gp;
};

/* a, b in lane 0, c (a constant at 3) in lane 1; one link a.3 -> b.0 */
static int rg_init(struct rg *g)
{
	memset(g, 0, sizeof(*g));
	if (mb_chain(&g->m[0], sz_a, 4, 0) || mb_chain(&g->m[1], sz_b, 4, 0) ||
	    mb_chain(&g->m[2], sz_c, 3, 64))
		return -1;
	g->mp[0] = mb_member(&g->m[0], 0);
	g->mp[1] = mb_member(&g->m[1], 0);
	g->mp[2] = mb_member(&g->m[2], 1);
	g->links[0] = (struct ta_group_link){ 0, 3, 1, 0 };
	g->gp.n_members = 3;
	g->gp.members = g->mp;
	g->gp.n_links = 1;
	g->gp.links = g->links;
	g->gp.shared = g->shared;
	return 0;
}

/* The same errno from layout, solve and check. */
static int refused(struct rg *g, int want, const char *what)
{
	static struct ta_group_buffer gb[64];
	static u64 off[64];
	struct ta_group_result res;
	struct ta_conflict c;
	int a = ta_group_layout(&g->gp, gb);
	int b = ta_group_solve(&g->gp, TA_STRATEGY_AUTO, NULL, off, &res);
	int d = ta_group_check(&g->gp, off, 1 << 20, &c);

	if (a != want || b != want || d != want) {
		printf("# %s: layout %d solve %d check %d, want %d\n", what,
		       a, b, d, want);
		return 1;
	}
	return 0;
}

#define REFUSE(want, what, ...)						\
	do {								\
		const char *what_ = (what);				\
		TA_CHECK(!rg_init(&g), "graphs");			\
		__VA_ARGS__;						\
		TA_CHECK(!refused(&g, want, what_), "%s", what_);	\
	} while (0)

static int t_group_refusals(void)
{
	static struct rg g;
	struct ta_group_result res;
	u64 off[64], fix[MB_MAX] = { 0 };
	u32 i;

	TA_CHECK(!rg_init(&g), "graphs");
	TA_CHECK(!refused(&g, 0, "the good group"), "good");
	REFUSE(-EINVAL, "no member", g.gp.n_members = 0);
	REFUSE(-EINVAL, "no member array", g.gp.members = NULL);
	REFUSE(-E2BIG, "members over the limit",
	       g.gp.n_members = TA_GROUP_MAX_MEMBERS + 1);
	REFUSE(-E2BIG, "links over the limit",
	       g.gp.n_links = TA_GROUP_MAX_LINKS + 1);
	REFUSE(-E2BIG, "shared over the limit",
	       g.gp.n_shared = TA_GROUP_MAX_SHARED + 1);
	REFUSE(-EINVAL, "lane 8", g.mp[2].lane = TA_GROUP_MAX_LANES);
	REFUSE(-EINVAL, "fixed offsets", g.mp[1].problem.fixed = fix);
	REFUSE(-EINVAL, "a bad graph", g.m[1].r[1] = 99);
	REFUSE(-EINVAL, "link from member 3", g.links[0].from_member = 3);
	REFUSE(-EINVAL, "link from tensor 4", g.links[0].from_tensor = 4);
	REFUSE(-EINVAL, "link to member 3", g.links[0].to_member = 3);
	REFUSE(-EINVAL, "link to tensor 4", g.links[0].to_tensor = 4);
	REFUSE(-EINVAL, "link to an earlier member",
	       g.links[0] = (struct ta_group_link){ 1, 3, 0, 0 });
	REFUSE(-EINVAL, "link to the same member",
	       g.links[0] = (struct ta_group_link){ 0, 3, 0, 0 });
	REFUSE(-EINVAL, "link to a tensor an op writes",
	       g.links[0].to_tensor = 1);
	REFUSE(-EINVAL, "link from a constant",
	       g.links[0] = (struct ta_group_link){ 2, 3, 0, 0 });
	REFUSE(-EINVAL, "link to a persistent input",
	       g.m[1].t[0].flags |= TA_TENSOR_PERSISTENT;
	       ta_graph_lifetimes(&g.m[1].g, g.m[1].b));
	REFUSE(-EINVAL, "link from an exportable",
	       g.m[0].t[3].flags |= TA_TENSOR_EXPORTABLE;
	       ta_graph_lifetimes(&g.m[0].g, g.m[0].b));
	REFUSE(-EINVAL, "two links into one tensor",
	       g.links[1] = (struct ta_group_link){ 0, 2, 1, 0 };
	       g.gp.n_links = 2);
	REFUSE(-EINVAL, "shared on a linked reader",
	       g.shared[0] = (struct ta_group_shared){ 1, 0, 1, 0 };
	       g.gp.n_shared = 1);
	REFUSE(-EINVAL, "shared on a linked writer",
	       g.shared[0] = (struct ta_group_shared){ 0, 3, 1, 0 };
	       g.gp.n_shared = 1);
	REFUSE(-EINVAL, "shared pad",
	       g.shared[0] = (struct ta_group_shared){ 0, 1, 1, 1 };
	       g.gp.n_shared = 1);
	REFUSE(-EINVAL, "shared member 3",
	       g.shared[0] = (struct ta_group_shared){ 3, 1, 1, 0 };
	       g.gp.n_shared = 1);
	REFUSE(-EINVAL, "shared tensor 9",
	       g.shared[0] = (struct ta_group_shared){ 0, 9, 1, 0 };
	       g.gp.n_shared = 1);
	/* a cross-lane link may go to a lower member index */
	REFUSE(0, "cross-lane link back in index",
	       g.links[0] = (struct ta_group_link){ 2, 1, 0, 0 });
	TA_CHECK(!rg_init(&g), "graphs");
	TA_CHECK(ta_group_solve(&g.gp, TA_STRATEGY_FIXED, NULL, off, &res) ==
		 -EINVAL, "fixed");
	TA_CHECK(ta_group_solve(&g.gp, TA_STRATEGY_PINGPONG, NULL, off, &res) ==
		 -EINVAL, "pingpong");
	TA_CHECK(ta_group_solve(&g.gp, 99, NULL, off, &res) == -EINVAL, "99");
	TA_CHECK(ta_group_solve(&g.gp, TA_STRATEGY_AUTO, NULL, NULL, &res) ==
		 -EINVAL, "no offsets");
	TA_CHECK(ta_group_solve(&g.gp, TA_STRATEGY_AUTO, NULL, off, NULL) ==
		 -EINVAL, "no result");
	/* the validator's own rules, on a good plan made bad */
	TA_CHECK(!group_ok(&g.gp, TA_STRATEGY_AUTO, off, &res), "solve");
	for (i = 0; i < 3; i++) {
		struct ta_conflict c;
		u64 bad[64];

		memcpy(bad, off, sizeof(bad));
		if (i == 0)
			bad[4] += 1;	/* the link's reader off its root */
		else if (i == 1)
			bad[11] = 1;	/* c's constant, 64 bytes, align 1 */
		else
			bad[0] = res.height;
		TA_CHECK(ta_group_check(&g.gp, bad, res.height, &c) == -EINVAL,
			 "bad plan %u", i);
		TA_CHECK(c.kind == (i == 2 ? TA_CONFLICT_HEIGHT :
				    TA_CONFLICT_OVERLAP), "kind %u", c.kind);
	}
	return 0;
}

/* Extend: a member that fits moves nothing; one that does not, -ENOSPC. */
static int t_group_extend(void)
{
	struct mb m[4];
	struct ta_group_member_problem mp[4];
	struct ta_group_link link = { 1, 3, 2, 0 };
	struct ta_group_problem gp = { .n_members = 2, .members = mp };
	struct ta_group_result res, ext;
	static const u64 small[] = { 50, 60, 70 };
	struct ta_conflict c;
	u64 off[4 * MB_MAX], noff[4 * MB_MAX], cap;
	u32 i, n2;

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0) &&
		 !mb_chain(&m[2], small, 3, 0) && !mb_chain(&m[3], small, 3, 0),
		 "graphs");
	for (i = 0; i < 4; i++)
		mp[i] = mb_member(&m[i], 0);
	TA_CHECK(!group_ok(&gp, TA_STRATEGY_AUTO, off, &res), "solve");
	n2 = ta_group_tensor_count(&gp);
	cap = res.height;
	/* c, in lane 0 after b, reading b's output: fits, nothing moves */
	gp.n_members = 3;
	gp.n_links = 1;
	gp.links = &link;
	TA_CHECK(!ta_group_extend(&gp, 2, off, cap, TA_STRATEGY_AUTO, NULL,
				  noff, &ext), "extend in lane 0");
	TA_CHECK(!memcmp(off, noff, n2 * sizeof(*off)), "old moved");
	TA_CHECK(noff[ta_group_index(&gp, 2, 0)] == noff[ta_group_index(&gp, 1, 3)],
		 "link offset");
	TA_CHECK(ext.height <= cap, "height %llu",
		 (unsigned long long)ext.height);
	TA_CHECK(!ta_group_check(&gp, noff, cap, &c), "check: %u", c.kind);
	/* d, concurrent in lane 1, with no byte left: -ENOSPC */
	gp.n_members = 4;
	mp[3].lane = 1;
	TA_CHECK(ta_group_extend(&gp, 3, noff, cap, TA_STRATEGY_AUTO, NULL,
				 off, &ext) == -ENOSPC, "no room");
	/* with room above: fits, above everything */
	TA_CHECK(!ta_group_extend(&gp, 3, noff, cap + 130, TA_STRATEGY_AUTO,
				  NULL, off, &ext), "room");
	TA_CHECK(!memcmp(off, noff, ta_group_index(&gp, 3, 0) * sizeof(*off)),
		 "old moved");
	TA_CHECK(off[ta_group_index(&gp, 3, 1)] >= cap, "d below the top");
	TA_CHECK(!ta_group_check(&gp, off, cap + 130, &c), "check: %u", c.kind);
	TA_CHECK(ext.height <= cap + 130 && ext.height >= ext.lower_bound,
		 "height %llu", (unsigned long long)ext.height);
	/* a constant in the new member: always live, room above everything */
	TA_CHECK(!mb_chain(&m[3], small, 3, 40), "graph");
	mp[3] = mb_member(&m[3], 0);
	TA_CHECK(ta_group_extend(&gp, 3, noff, cap, TA_STRATEGY_AUTO, NULL,
				 off, &ext) == -ENOSPC, "no room for a constant");
	TA_CHECK(!ta_group_extend(&gp, 3, noff, cap + 40, TA_STRATEGY_AUTO,
				  NULL, off, &ext), "room for a constant");
	TA_CHECK(!ta_group_check(&gp, off, cap + 40, &c), "check: %u", c.kind);
	/* bad old offsets and arguments */
	noff[0] = cap;
	TA_CHECK(ta_group_extend(&gp, 3, noff, cap, TA_STRATEGY_AUTO, NULL,
				 off, &ext) == -EINVAL, "old above capacity");
	TA_CHECK(ta_group_extend(&gp, 5, noff, cap, TA_STRATEGY_AUTO, NULL,
				 off, &ext) == -EINVAL, "n_old");
	TA_CHECK(ta_group_extend(&gp, 3, noff, cap, TA_STRATEGY_FIXED, NULL,
				 off, &ext) == -EINVAL, "fixed");
	return 0;
}

/* A member removed: the others keep their offsets and still check. */
static int t_group_remove(void)
{
	struct mb m[3];
	struct ta_group_member_problem mp[3];
	struct ta_group_link link = { 0, 3, 2, 0 };
	struct ta_group_problem gp = { .n_members = 3, .members = mp,
				       .n_links = 1, .links = &link };
	struct ta_group_result res;
	struct ta_conflict c;
	u64 off[3 * MB_MAX], rest[3 * MB_MAX];
	u32 na, nb, nc;

	TA_CHECK(!mb_chain(&m[0], sz_a, 4, 0) && !mb_chain(&m[1], sz_b, 4, 0) &&
		 !mb_chain(&m[2], sz_c, 3, 0), "graphs");
	mp[0] = mb_member(&m[0], 0);
	mp[1] = mb_member(&m[1], 1);
	mp[2] = mb_member(&m[2], 0);
	TA_CHECK(!group_ok(&gp, TA_STRATEGY_AUTO, off, &res), "solve");
	na = m[0].g.n_tensors;
	nb = m[1].g.n_tensors;
	nc = m[2].g.n_tensors;
	/* without b (lane 1): a and c, the link now from member 0 to 1 */
	memcpy(rest, off, na * sizeof(*off));
	memcpy(rest + na, off + na + nb, nc * sizeof(*off));
	mp[1] = mp[2];
	link.to_member = 1;
	gp.n_members = 2;
	TA_CHECK(!ta_group_check(&gp, rest, res.height, &c), "without b: %u",
		 c.kind);
	/* without a: the link goes too */
	gp.members = mp + 1;
	gp.n_members = 1;
	gp.n_links = 0;
	TA_CHECK(!ta_group_check(&gp, rest + na, res.height, &c),
		 "without a: %u", c.kind);
	return 0;
}

/* A random number generator with a fixed seed: reproducible cases. */
static u32 rnd_state = 12345;

static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 1103515245U + 12345U;
	return (rnd_state >> 8) % n;
}

struct rgroup {
	struct mb m[6];
	struct ta_group_member_problem mp[6];
	struct ta_group_link links[6];
	struct ta_group_shared shared[6];
	struct ta_group_problem gp;
};

/* Random members, lanes, links (outputs to later inputs), shared keys. */
static int rgroup_make(struct rgroup *r)
{
	static const u64 aligns[] = { 1, 4, 16, 64 };
	u32 i, k, n = 1 + rnd(6), nl = 0, ns = 0;
	u8 to_used[6] = { 0 };

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		u64 sizes[MB_MAX];
		u32 len = 2 + rnd(8);

		for (k = 0; k < len; k++)
			sizes[k] = rnd(5) ? 1 + rnd(1000) : 0;
		if (mb_chain(&r->m[i], sizes, len, rnd(4) ? 0 : 1 + rnd(300)))
			return -1;
		for (k = 0; k < r->m[i].g.n_tensors; k++)
			r->m[i].t[k].align = aligns[rnd(4)];
		if (ta_graph_lifetimes(&r->m[i].g, r->m[i].b))
			return -1;
		r->mp[i] = mb_member(&r->m[i], rnd(3) ? 0 : 1 + rnd(2));
	}
	for (i = 1; i < n; i++) {
		u32 from = rnd(i), last;

		if (rnd(2) || to_used[i])
			continue;
		last = r->m[from].g.n_tensors - 1 -
		       !!(r->m[from].t[r->m[from].g.n_tensors - 1].flags &
			  TA_TENSOR_CONSTANT);
		r->links[nl++] = (struct ta_group_link){ from, last, i, 0 };
		to_used[i] = 1;
	}
	for (i = 0; i < n; i++) {
		/* an intermediate tensor, never a link's end */
		if (rnd(3) || r->m[i].g.n_ops < 3)
			continue;
		r->shared[ns++] = (struct ta_group_shared){ i, 1, rnd(2), 0 };
	}
	r->gp.n_members = n;
	r->gp.members = r->mp;
	r->gp.n_links = nl;
	r->gp.links = r->links;
	r->gp.n_shared = ns;
	r->gp.shared = r->shared;
	return 0;
}

/* Random groups: every plan checks, never below its bound; extend too. */
static int t_group_random(void)
{
	static const u32 strategies[] = { TA_STRATEGY_AUTO, TA_STRATEGY_STACK,
					  TA_STRATEGY_FREELIST,
					  TA_STRATEGY_GREEDY_SIZE };
	struct ta_budget budget = { .time_ns = 2000000, .steps = 2000 };
	static struct rgroup r;
	struct ta_group_result res, ext;
	struct ta_conflict c;
	u64 off[6 * MB_MAX + 8], noff[6 * MB_MAX + 8];
	u32 cases = 0, extended = 0, full = 0, i, s, n_old;
	int ret;

	for (i = 0; i < 300; i++) {
		struct ta_group_problem old;

		TA_CHECK(!rgroup_make(&r), "case %u: graphs", i);
		s = strategies[i % 4];
		ret = ta_group_solve(&r.gp, s, &budget, off, &res);
		TA_CHECK(!ret, "case %u (%s): %d", i, ta_strategy_name(s), ret);
		TA_CHECK(!ta_group_check(&r.gp, off, res.height, &c),
			 "case %u: kind %u (%u, %u)", i, c.kind, c.a, c.b);
		TA_CHECK(res.height >= res.lower_bound, "case %u: %llu < %llu",
			 i, (unsigned long long)res.height,
			 (unsigned long long)res.lower_bound);
		cases++;
		/* plan the first members, extend with the rest */
		n_old = 1 + rnd(r.gp.n_members);
		if (n_old >= r.gp.n_members)
			continue;
		old = r.gp;
		old.n_members = n_old;
		/* links and shared entries of the old members only */
		old.n_links = 0;
		while (old.n_links < r.gp.n_links &&
		       r.links[old.n_links].to_member < n_old)
			old.n_links++;
		old.n_shared = 0;
		while (old.n_shared < r.gp.n_shared &&
		       r.shared[old.n_shared].member < n_old)
			old.n_shared++;
		TA_CHECK(!ta_group_solve(&old, s, &budget, off, &res),
			 "case %u: old", i);
		ret = ta_group_extend(&r.gp, n_old, off, res.height * 2 + 4096,
				      s, &budget, noff, &ext);
		TA_CHECK(!ret || ret == -ENOSPC, "case %u: extend %d", i, ret);
		if (ret) {
			full++;
			continue;
		}
		TA_CHECK(!memcmp(off, noff, ta_group_index(&r.gp, n_old, 0) *
				 sizeof(*off)), "case %u: old moved", i);
		TA_CHECK(!ta_group_check(&r.gp, noff, res.height * 2 + 4096, &c),
			 "case %u: extended: kind %u (%u, %u)", i, c.kind, c.a,
			 c.b);
		extended++;
	}
	TA_CHECK(cases == 300, "%u cases", cases);
	/* most that do not fit have a new link or key that an old tensor
	 * would have to live longer or larger for
	 */
	printf("# 300 random groups, %u extended, %u did not fit\n", extended,
	       full);
	TA_CHECK(extended > 50, "only %u extended", extended);
	return 0;
}

const struct ta_test ta_group_tests[] = {
	{ "group: sequential members share", t_group_sequential },
	{ "group: lanes are disjoint", t_group_lanes },
	{ "group: a link is one tensor", t_group_link },
	{ "group: shared keys are one tensor", t_group_shared },
	{ "group: every bad input refused with its errno", t_group_refusals },
	{ "group: extend that fits moves nothing, -ENOSPC", t_group_extend },
	{ "group: a member removed, the rest still check", t_group_remove },
	{ "group: 300 random groups check, extend", t_group_random },
	{ NULL, NULL },
};
