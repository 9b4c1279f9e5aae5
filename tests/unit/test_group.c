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

const struct ta_test ta_group_tests[] = {
	{ "group: sequential members share", t_group_sequential },
	{ "group: lanes are disjoint", t_group_lanes },
	{ "group: a link is one tensor", t_group_link },
	{ "group: shared keys are one tensor", t_group_shared },
	{ NULL, NULL },
};
