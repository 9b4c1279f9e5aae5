// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_group.c - ta_e2e_netlink's groups (issue 28): group-create,
 * group-add and group-get over netlink, the group destroyed by
 * plan-destroy and by the socket's close, and a bad-input table of every
 * new attribute (errno and extack each), INFO unchanged after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_e2e_nl_fixture.h"

/* A member nest: in -> op -> mid -> op -> out, each @size bytes. */
static void put_member(struct nl_msg *m, uint32_t lane, uint64_t size)
{
	struct nlattr *mem = nest(m, TA_NL_A_GROUP_MEMBER);
	static const uint32_t flags[3] = { TA_TENSOR_INPUT, 0, TA_TENSOR_OUTPUT };
	struct nlattr *n;
	int i;

	if (lane)
		nla_put_u32(m, TA_NL_A_MEMBER_LANE, lane);
	for (i = 0; i < 3; i++) {
		n = nest(m, TA_NL_A_MEMBER_TENSOR);
		nla_put_u64(m, TA_NL_A_TENSOR_SIZE, size);
		if (flags[i])
			nla_put_u32(m, TA_NL_A_TENSOR_FLAGS, flags[i]);
		nla_nest_end(m, n);
	}
	for (i = 0; i < 2; i++) {
		n = nest(m, TA_NL_A_MEMBER_OP);
		nla_put_u32(m, TA_NL_A_OP_INPUT, i);
		nla_put_u32(m, TA_NL_A_OP_OUTPUT, i + 1);
		nla_nest_end(m, n);
	}
	nla_nest_end(m, mem);
}

static void put_link(struct nl_msg *m, uint32_t fm, uint32_t ft, uint32_t tm,
		     uint32_t tt)
{
	struct nlattr *n = nest(m, TA_NL_A_GROUP_LINK);

	nla_put_u32(m, TA_NL_A_LINK_FROM_MEMBER, fm);
	nla_put_u32(m, TA_NL_A_LINK_FROM_TENSOR, ft);
	nla_put_u32(m, TA_NL_A_LINK_TO_MEMBER, tm);
	nla_put_u32(m, TA_NL_A_LINK_TO_TENSOR, tt);
	nla_nest_end(m, n);
}

static void put_shared(struct nl_msg *m, uint32_t member, uint32_t tensor,
		       uint32_t key)
{
	struct nlattr *n = nest(m, TA_NL_A_GROUP_SHARED);

	nla_put_u32(m, TA_NL_A_SHARED_MEMBER, member);
	nla_put_u32(m, TA_NL_A_SHARED_TENSOR, tensor);
	nla_put_u32(m, TA_NL_A_SHARED_KEY, key);
	nla_nest_end(m, n);
}

static struct nl_msg *gc_msg(void)
{
	return msg_new(TA_NL_CMD_GROUP_CREATE, 0);
}

/* Two sequential members, member 0's output linked to member 1's input. */
static struct nl_msg *gc_pair(void)
{
	struct nl_msg *m = gc_msg();

	put_member(m, 0, 8192);
	put_member(m, 0, 8192);
	put_link(m, 0, 2, 1, 0);
	return m;
}

static struct nl_msg *group_id_msg(uint8_t cmd, uint32_t id)
{
	struct nl_msg *m = msg_new(cmd, 0);

	nla_put_u32(m, TA_NL_A_GROUP_GROUP_ID, id);
	return m;
}

/* Create, get, add (re-plan), get, destroy: the figures agree throughout. */
TEST_F(nl, group_life)
{
	struct nl_sock *sk = self->sk;
	uint32_t plans0, plans1, gid, ids[3];
	uint64_t use0, use1;
	struct ta_plan_get g;
	struct nl_msg *m;
	int good, err;

	info(sk, &use0, &plans0);
	err = xfer(sk, gc_pair());
	good = !err && R.group_id && R.n_member_ids == 2 && R.height &&
	       R.slice_size >= R.height && R.height >= R.lower_bound;
	if (!good)
		printf("# create: %d %s, group %u, %u ids\n", err, R.extack,
		       R.group_id, R.n_member_ids);
	CHECK(good, "nl: group-create of two linked members: group and member IDs, height, slice");
	if (!good)
		return;
	gid = R.group_id;
	memcpy(ids, R.member_ids, 2 * sizeof(ids[0]));
	good = ioctl_get(self->dev, ids[0], &g) == 0 &&
	       ioctl_get(self->dev, ids[1], &g) == 0;
	CHECK(good, "nl: group-create: the members are plans the ioctl sees");

	err = xfer(sk, group_id_msg(TA_NL_CMD_GROUP_GET, gid));
	good = !err && R.group_id == gid && R.n_members == 2 &&
	       R.n_member_ids == 2 && R.member_ids[0] == ids[0] &&
	       R.member_ids[1] == ids[1] && R.n_lanes == 1;
	if (!good)
		printf("# get: %d %s, %u members, %u lanes\n", err, R.extack,
		       R.n_members, R.n_lanes);
	CHECK(good, "nl: group-get: members in order, one lane");

	m = group_id_msg(TA_NL_CMD_GROUP_ADD, gid);
	nla_put_u32(m, TA_NL_A_GROUP_ADD_FLAGS, TA_GROUP_ADD_REPLAN);
	put_member(m, 1, 4096);
	err = xfer(sk, m);
	good = !err && R.group_id == gid && R.n_member_ids == 1 &&
	       R.member_ids[0] && R.height;
	if (!good)
		printf("# add: %d %s\n", err, R.extack);
	CHECK(good, "nl: group-add with replan, lane 1: a member ID and the height");
	ids[2] = good ? R.member_ids[0] : 0;
	err = xfer(sk, group_id_msg(TA_NL_CMD_GROUP_GET, gid));
	good = !err && R.n_members == 3 && R.member_ids[2] == ids[2] &&
	       R.n_lanes == 2;
	if (!good)
		printf("# get: %d %s, %u members, %u lanes\n", err, R.extack,
		       R.n_members, R.n_lanes);
	CHECK(good, "nl: group-get after add: three members, two lanes");

	err = xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, gid));
	info(sk, &use1, &plans1);
	good = !err && ioctl_get(self->dev, ids[0], &g) == -ENOENT &&
	       ioctl_get(self->dev, ids[1], &g) == -ENOENT &&
	       use1 == use0 && plans1 == plans0;
	if (!good)
		printf("# destroy %d, use %llu -> %llu, plans %u -> %u\n", err,
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1);
	CHECK(good, "nl: plan-destroy of the group: its members go, INFO as before");
}

/* A group made over netlink belongs to the socket: its close destroys it. */
TEST_F(nl, group_owner)
{
	struct nl_sock *a = nl_open();
	uint32_t plans0, plans1, gid = 0, mid = 0;
	uint64_t use0, use1;
	struct ta_plan_get g;
	int good;

	nl_resolve(a);
	info(self->sk, &use0, &plans0);
	if (!xfer(a, gc_pair())) {
		gid = R.group_id;
		mid = R.member_ids[0];
	}
	CHECK(gid && mid, "nl: group-create on a second socket");
	nl_socket_free(a);
	info(self->sk, &use1, &plans1);
	good = gid && ioctl_get(self->dev, gid, &g) == -ENOENT &&
	       ioctl_get(self->dev, mid, &g) == -ENOENT && use1 == use0 &&
	       plans1 == plans0;
	if (!good)
		printf("# group %u member %u, use %llu -> %llu, plans %u -> %u\n",
		       gid, mid, (unsigned long long)use0,
		       (unsigned long long)use1, plans0, plans1);
	CHECK(good, "nl: the socket's close destroys its group and members");
}

/* ---- the bad-input table ---------------------------------------------- */

static uint32_t plain_id;	/* a plain plan, not a group */

static struct nl_msg *g_no_member(void)
{
	return gc_msg();
}

static struct nl_msg *g_too_many_members(void)
{
	struct nl_msg *m = gc_msg();
	int i;

	for (i = 0; i <= TA_GROUP_MAX_MEMBERS; i++)
		put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_too_many_links(void)
{
	struct nl_msg *m = gc_pair();
	int i;

	for (i = 0; i < TA_GROUP_MAX_LINKS; i++)
		put_link(m, 0, 2, 1, 0);
	return m;
}

static struct nl_msg *g_too_many_shared(void)
{
	struct nl_msg *m = gc_pair();
	int i;

	for (i = 0; i <= TA_GROUP_MAX_SHARED; i++)
		put_shared(m, 0, 1, i);
	return m;
}

static struct nl_msg *g_flags_bad(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u32(m, TA_NL_A_GROUP_FLAGS, 0x8);
	return m;
}

static struct nl_msg *g_flags_u64(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u64(m, TA_NL_A_GROUP_FLAGS, 0);
	return m;
}

static struct nl_msg *g_strategy_range(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u32(m, TA_NL_A_GROUP_STRATEGY, 99);
	return m;
}

static struct nl_msg *g_strategy_pingpong(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u32(m, TA_NL_A_GROUP_STRATEGY, TA_STRATEGY_PINGPONG);
	return m;
}

static struct nl_msg *g_align3(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u64(m, TA_NL_A_GROUP_DEFAULT_ALIGN, 3);
	return m;
}

static struct nl_msg *g_capacity(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u64(m, TA_NL_A_GROUP_CAPACITY, 1ULL << 50);
	return m;
}

static struct nl_msg *g_budget(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u64(m, TA_NL_A_GROUP_BUDGET_NS, 1ULL << 62);
	return m;
}

static struct nl_msg *g_lane_range(void)
{
	struct nl_msg *m = gc_msg();

	put_member(m, TA_GROUP_MAX_LANES, 64);
	return m;
}

static struct nl_msg *g_member_flag(void)
{
	struct nl_msg *m = gc_msg();
	struct nlattr *n = nest(m, TA_NL_A_GROUP_MEMBER);

	nla_put_u32(m, TA_NL_A_MEMBER_FLAGS, TA_CREATE_DRY_RUN);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *g_member_no_ops(void)
{
	struct nl_msg *m = gc_msg();
	struct nlattr *mem = nest(m, TA_NL_A_GROUP_MEMBER);
	struct nlattr *n = nest(m, TA_NL_A_MEMBER_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_SIZE, 64);
	nla_nest_end(m, n);
	nla_nest_end(m, mem);
	return m;
}

static struct nl_msg *g_member_not_nested(void)
{
	struct nl_msg *m = gc_msg();

	nla_put_u32(m, TA_NL_A_GROUP_MEMBER, 1);
	return m;
}

static struct nl_msg *g_member_tensor_no_size(void)
{
	struct nl_msg *m = gc_msg();
	struct nlattr *mem = nest(m, TA_NL_A_GROUP_MEMBER);
	struct nlattr *n = nest(m, TA_NL_A_MEMBER_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_ALIGN, 8);
	nla_nest_end(m, n);
	n = nest(m, TA_NL_A_MEMBER_OP);
	nla_put_u32(m, TA_NL_A_OP_OUTPUT, 0);
	nla_nest_end(m, n);
	nla_nest_end(m, mem);
	return m;
}

static struct nl_msg *g_member_unknown(void)
{
	struct nl_msg *m = gc_msg();
	struct nlattr *n = nest(m, TA_NL_A_GROUP_MEMBER);

	nla_put_u32(m, TA_NL_A_MEMBER_MAX + 1, 0);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *g_link_missing(void)
{
	struct nl_msg *m = gc_pair();
	struct nlattr *n = nest(m, TA_NL_A_GROUP_LINK);

	nla_put_u32(m, TA_NL_A_LINK_FROM_MEMBER, 0);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *g_link_u64(void)
{
	struct nl_msg *m = gc_pair();
	struct nlattr *n = nest(m, TA_NL_A_GROUP_LINK);

	nla_put_u64(m, TA_NL_A_LINK_FROM_MEMBER, 0);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *g_link_from_range(void)
{
	struct nl_msg *m = gc_pair();

	put_link(m, 2, 2, 1, 0);
	return m;
}

static struct nl_msg *g_link_to_range(void)
{
	struct nl_msg *m = gc_pair();

	put_link(m, 0, 2, 5, 0);
	return m;
}

static struct nl_msg *g_link_self(void)
{
	struct nl_msg *m = gc_pair();

	put_link(m, 1, 2, 1, 0);
	return m;
}

static struct nl_msg *g_link_tensor(void)
{
	struct nl_msg *m = gc_pair();

	put_link(m, 0, 3, 1, 0);
	return m;
}

static struct nl_msg *g_shared_missing(void)
{
	struct nl_msg *m = gc_pair();
	struct nlattr *n = nest(m, TA_NL_A_GROUP_SHARED);

	nla_put_u32(m, TA_NL_A_SHARED_MEMBER, 0);
	nla_put_u32(m, TA_NL_A_SHARED_TENSOR, 1);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *g_shared_member(void)
{
	struct nl_msg *m = gc_pair();

	put_shared(m, 2, 1, 7);
	return m;
}

static struct nl_msg *g_shared_tensor(void)
{
	struct nl_msg *m = gc_pair();

	put_shared(m, 0, 3, 7);
	return m;
}

static struct nl_msg *g_create_group_id(void)
{
	struct nl_msg *m = gc_pair();

	nla_put_u32(m, TA_NL_A_GROUP_GROUP_ID, 1);
	return m;
}

static struct nl_msg *g_get_missing(void)
{
	return msg_new(TA_NL_CMD_GROUP_GET, 0);
}

static struct nl_msg *g_get_zero(void)
{
	return group_id_msg(TA_NL_CMD_GROUP_GET, 0);
}

static struct nl_msg *g_get_none(void)
{
	return group_id_msg(TA_NL_CMD_GROUP_GET, 0xfffff);
}

static struct nl_msg *g_get_plain(void)
{
	return group_id_msg(TA_NL_CMD_GROUP_GET, plain_id);
}

static struct nl_msg *g_add_missing(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_GROUP_ADD, 0);

	put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_add_no_member(void)
{
	return group_id_msg(TA_NL_CMD_GROUP_ADD, 0xfffff);
}

static struct nl_msg *g_add_two(void)
{
	struct nl_msg *m = group_id_msg(TA_NL_CMD_GROUP_ADD, 0xfffff);

	put_member(m, 0, 64);
	put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_add_none(void)
{
	struct nl_msg *m = group_id_msg(TA_NL_CMD_GROUP_ADD, 0xfffff);

	put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_add_plain(void)
{
	struct nl_msg *m = group_id_msg(TA_NL_CMD_GROUP_ADD, plain_id);

	put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_add_flag(void)
{
	struct nl_msg *m = group_id_msg(TA_NL_CMD_GROUP_ADD, 0xfffff);

	nla_put_u32(m, TA_NL_A_GROUP_ADD_FLAGS, 0x4);
	put_member(m, 0, 64);
	return m;
}

static struct nl_msg *g_add_capacity(void)
{
	struct nl_msg *m = group_id_msg(TA_NL_CMD_GROUP_ADD, 0xfffff);

	nla_put_u64(m, TA_NL_A_GROUP_CAPACITY, 0);
	put_member(m, 0, 64);
	return m;
}

struct group_row {
	const char *name;
	struct nl_msg *(*build)(void);
	int err;
	const char *extack;
};

static const struct group_row group_rows[] = {
	{ "group-create: no member -> EINVAL", g_no_member, -EINVAL, "at least one member" },
	{ "group-create: 65 members -> E2BIG", g_too_many_members, -E2BIG, "TA_GROUP_MAX_MEMBERS" },
	{ "group-create: 257 links -> E2BIG", g_too_many_links, -E2BIG, "TA_GROUP_MAX_LINKS" },
	{ "group-create: 257 shared -> E2BIG", g_too_many_shared, -E2BIG, "TA_GROUP_MAX_SHARED" },
	{ "group-create: unknown flag -> EINVAL", g_flags_bad, -EINVAL, "reserved bit set" },
	{ "group-create: flags as u64 -> EINVAL", g_flags_u64, -EINVAL, "invalid attribute length" },
	{ "group-create: strategy 99 -> ERANGE", g_strategy_range, -ERANGE, "integer out of range" },
	{ "group-create: strategy pingpong -> EINVAL", g_strategy_pingpong, -EINVAL, "pingpong plans one graph" },
	{ "group-create: default-align 3 -> EINVAL", g_align3, -EINVAL, "default-align is not a power of two" },
	{ "group-create: capacity above the arena -> ENOSPC", g_capacity, -ENOSPC, "capacity above the arena" },
	{ "group-create: budget above max_budget_ms -> EINVAL", g_budget, -EINVAL, "max_budget_ms" },
	{ "group-create: group-id in a create -> EINVAL", g_create_group_id, -EINVAL, "Unsupported attribute" },
	{ "group-create: lane 8 -> ERANGE", g_lane_range, -ERANGE, "integer out of range" },
	{ "group-create: member flag dry-run -> EINVAL", g_member_flag, -EINVAL, "reserved bit set" },
	{ "group-create: member without ops -> EINVAL", g_member_no_ops, -EINVAL, "needs at least one op" },
	{ "group-create: member not nested -> EINVAL", g_member_not_nested, -EINVAL, "NLA_F_NESTED is missing" },
	{ "group-create: member tensor without size -> EINVAL", g_member_tensor_no_size, -EINVAL, "size attribute missing" },
	{ "group-create: unknown attribute in a member -> EINVAL", g_member_unknown, -EINVAL, "Unknown attribute type" },
	{ "group-create: link without to-member -> EINVAL", g_link_missing, -EINVAL, "need every attribute" },
	{ "group-create: link from-member as u64 -> EINVAL", g_link_u64, -EINVAL, "invalid attribute length" },
	{ "group-create: link from-member 2 of 2 -> EINVAL", g_link_from_range, -EINVAL, "from-member beyond" },
	{ "group-create: link to-member 5 of 2 -> EINVAL", g_link_to_range, -EINVAL, "to-member beyond" },
	{ "group-create: link to its own member -> EINVAL", g_link_self, -EINVAL, "two different members" },
	{ "group-create: link from-tensor 3 of 3 -> EINVAL", g_link_tensor, -EINVAL, "link names a tensor" },
	{ "group-create: shared without key -> EINVAL", g_shared_missing, -EINVAL, "need every attribute" },
	{ "group-create: shared member 2 of 2 -> EINVAL", g_shared_member, -EINVAL, "shared member beyond" },
	{ "group-create: shared tensor 3 of 3 -> EINVAL", g_shared_tensor, -EINVAL, "shared names a tensor" },
	{ "group-get: no group-id -> EINVAL", g_get_missing, -EINVAL, "group-id attribute missing" },
	{ "group-get: group-id 0 -> ERANGE", g_get_zero, -ERANGE, "integer out of range" },
	{ "group-get: no such group -> ENOENT", g_get_none, -ENOENT, "no such group" },
	{ "group-get: a plain plan -> EINVAL", g_get_plain, -EINVAL, "not a group" },
	{ "group-add: no group-id -> EINVAL", g_add_missing, -EINVAL, "group-id attribute missing" },
	{ "group-add: no member -> EINVAL", g_add_no_member, -EINVAL, "needs one member" },
	{ "group-add: two members -> EINVAL", g_add_two, -EINVAL, "one member nest at a time" },
	{ "group-add: no such group -> ENOENT", g_add_none, -ENOENT, "no such group" },
	{ "group-add: a plain plan -> EINVAL", g_add_plain, -EINVAL, "not a group" },
	{ "group-add: unknown add flag -> EINVAL", g_add_flag, -EINVAL, "reserved bit set" },
	{ "group-add: capacity (create only) -> EINVAL", g_add_capacity, -EINVAL, "Unsupported attribute" },
};

#define N_GROUP_ROWS (sizeof(group_rows) / sizeof(group_rows[0]))

TEST_F(nl, group_bad_input)
{
	struct nl_sock *sk = self->sk;
	uint32_t plans0, plans1, list0, list1;
	uint64_t use0, use1;
	size_t i, ran = 0;

	plain_id = ioctl_create_one(self->dev, 4096);
	CHECK(plain_id, "nl: group rows: a plain plan to name");
	info(sk, &use0, &plans0);
	list0 = list_count(sk);
	for (i = 0; i < N_GROUP_ROWS; i++) {
		const struct group_row *row = &group_rows[i];
		int err = xfer(sk, row->build());

		if (err != row->err)
			printf("# error %d (%s), expected %d\n", err, R.extack,
			       row->err);
		else if (!strstr(R.extack, row->extack))
			printf("# extack '%s', expected '%s'\n", R.extack,
			       row->extack);
		CHECK(err == row->err && strstr(R.extack, row->extack),
		      "nl: %s", row->name);
		ran++;
	}
	CHECK(ran == N_GROUP_ROWS && ran == 38,
	      "nl: group bad-input table ran %zu rows of 38", ran);
	info(sk, &use1, &plans1);
	list1 = list_count(sk);
	if (use0 != use1 || plans0 != plans1 || list0 != list1)
		printf("# use %llu -> %llu, plans %u -> %u, listed %u -> %u\n",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1, list0, list1);
	CHECK(use0 == use1 && plans0 == plans1 && list0 == list1,
	      "nl: group bad-input table leaves INFO and the plan list unchanged");
	ioctl_destroy(self->dev, plain_id);
}
