// SPDX-License-Identifier: GPL-2.0
/*
 * ta_group_kunit.c - KUnit suite for the core of groups (ta_group_obj.c,
 * ta_group_member.c, ta_group_slice.c):
 * members share the group's slice and their lane's reservation object, a
 * member of another lane has another, the group is charged once, and
 * destroy in either order frees the slice with the last reference.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>

#include "../ta_group_obj.h"
#include "../include/tensorarena_kapi.h"

struct ta_group_fixture {
	struct platform_device *pdev;
	struct ta_device ta;
	struct ta_owner owner;
	struct ta_group_summary sum;
};

static const struct ta_buffer ta_group_kunit_buffers[] = {
	{ .size = 4096, .align = 64, .start = 0, .end = 2 },
	{ .size = 8192, .align = 64, .start = 1, .end = 3 },
};

/* A group of @n lifetime-form members in @lanes. */
static int ta_group_kunit_create(struct kunit *test,
				 struct ta_group_fixture *f,
				 const u32 *lanes, u32 n)
{
	struct ta_group_member_request *m;
	struct ta_group_request req = {
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.n_members = n,
	};
	u32 i;
	int err;

	m = kcalloc(n, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	req.members = m;
	for (i = 0; i < n; i++) {
		m[i].lane = lanes[i];
		m[i].plan.flags = TA_CREATE_LIFETIMES;
		m[i].plan.strategy = req.strategy;
		m[i].plan.n_tensors = ARRAY_SIZE(ta_group_kunit_buffers);
		m[i].plan.buffers = kmemdup(ta_group_kunit_buffers,
					    sizeof(ta_group_kunit_buffers),
					    GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, m[i].plan.buffers);
		KUNIT_ASSERT_EQ(test, ta_request_check(&m[i].plan, 0, 0, 1000),
				0);
	}
	req.budget = m[0].plan.budget;
	err = ta_group_obj_create(&f->ta, &f->owner, &req, &f->sum);
	ta_group_request_free(&req);
	return err;
}

static int ta_group_kunit_init(struct kunit *test)
{
	struct ta_group_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->pdev = platform_device_register_simple("tensorarena-kunit",
						  PLATFORM_DEVID_AUTO, NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->pdev));
	f->ta.dev = &f->pdev->dev;
	ta_plan_tables_init(&f->ta);
	KUNIT_ASSERT_EQ(test, ta_arena_init(&f->ta, SZ_1M), 0);
	f->owner.uid = current_euid();
	f->owner.key = 2;
	test->priv = f;
	return 0;
}

static void ta_group_kunit_exit(struct kunit *test)
{
	struct ta_group_fixture *f = test->priv;

	ta_plan_obj_destroy_all(&f->ta);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), (size_t)0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->ta.n_plans), 0);
	ta_plan_tables_destroy(&f->ta);
	platform_device_unregister(f->pdev);
}

static struct ta_plan_obj *ta_group_kunit_get(struct kunit *test,
					      struct ta_group_fixture *f,
					      u32 id)
{
	struct ta_plan_obj *plan = ta_plan_obj_lookup(&f->ta, id, &f->owner);

	KUNIT_ASSERT_FALSE(test, IS_ERR(plan));
	return plan;
}

/* Members share the group's slice; one lane, one reservation object. */
static void ta_group_shares_slice_and_resv_test(struct kunit *test)
{
	static const u32 lanes[] = { 0, 0, 1 };
	struct ta_group_fixture *f = test->priv;
	struct ta_plan_obj *g, *m[3], *back;
	struct dma_buf *dmabuf;
	u32 i;

	KUNIT_ASSERT_EQ(test, ta_group_kunit_create(test, f, lanes, 3), 0);
	g = ta_group_kunit_get(test, f, f->sum.group_id);
	for (i = 0; i < 3; i++) {
		m[i] = ta_group_kunit_get(test, f, f->sum.member_ids[i]);
		KUNIT_EXPECT_EQ(test, ta_kapi_plan_dma_base(m[i]),
				ta_kapi_plan_dma_base(g));
		KUNIT_EXPECT_EQ(test, ta_kapi_plan_size(m[i]),
				ta_kapi_plan_size(g));
		KUNIT_EXPECT_EQ(test, ta_kapi_plan_lane(m[i]), lanes[i]);
		KUNIT_EXPECT_PTR_NE(test, ta_kapi_plan_resv(m[i]),
				    ta_kapi_plan_resv(g));
	}
	KUNIT_EXPECT_PTR_EQ(test, ta_kapi_plan_resv(m[0]),
			    ta_kapi_plan_resv(m[1]));
	KUNIT_EXPECT_PTR_NE(test, ta_kapi_plan_resv(m[0]),
			    ta_kapi_plan_resv(m[2]));
	/* A member's whole-slice dma-buf carries its lane's fences. */
	dmabuf = ta_kapi_plan_dmabuf(m[1]);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dmabuf));
	KUNIT_EXPECT_PTR_EQ(test, dmabuf->resv, ta_kapi_plan_resv(m[0]));
	dma_buf_put(dmabuf);
	flush_delayed_fput();

	KUNIT_EXPECT_NULL(test, ta_kapi_plan_group(g));
	back = ta_kapi_plan_group(m[2]);
	KUNIT_EXPECT_PTR_EQ(test, back, g);
	if (back)
		ta_kapi_plan_put(back);
	KUNIT_EXPECT_EQ(test, ta_kapi_group_member_count(g), 3U);
	KUNIT_EXPECT_EQ(test, ta_kapi_group_member_count(m[0]), 0U);
	back = ta_kapi_group_member(g, 1);
	KUNIT_EXPECT_PTR_EQ(test, back, m[1]);
	if (back)
		ta_kapi_plan_put(back);
	KUNIT_EXPECT_NULL(test, ta_kapi_group_member(g, 3));
	for (i = 0; i < 3; i++)
		ta_plan_obj_put(m[i]);
	ta_plan_obj_put(g);
}

/* One slice, charged once: bytes once, every member and the group plans. */
static void ta_group_charged_once_test(struct kunit *test)
{
	static const u32 lanes[] = { 0, 0 };
	struct ta_group_fixture *f = test->priv;
	struct ta_user *user;

	KUNIT_ASSERT_EQ(test, ta_group_kunit_create(test, f, lanes, 2), 0);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta),
			(size_t)f->sum.slice_size);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->ta.n_plans), 3);
	mutex_lock(&f->ta.users_lock);
	user = xa_load(&f->ta.users, __kuid_val(f->owner.uid));
	KUNIT_EXPECT_NOT_NULL(test, user);
	if (user) {
		KUNIT_EXPECT_EQ(test, user->bytes, f->sum.slice_size);
		KUNIT_EXPECT_EQ(test, user->n_plans, 3U);
	}
	mutex_unlock(&f->ta.users_lock);
	/* Two sequential members need less than two slices. */
	KUNIT_EXPECT_LT(test, f->sum.height, (u64)2 * (4096 + 8192));
}

/* The group first, a member held: the slice stays until the member goes. */
static void ta_group_destroy_group_first_test(struct kunit *test)
{
	static const u32 lanes[] = { 0, 1 };
	struct ta_group_fixture *f = test->priv;
	struct ta_plan_obj *m, *gone;

	KUNIT_ASSERT_EQ(test, ta_group_kunit_create(test, f, lanes, 2), 0);
	m = ta_group_kunit_get(test, f, f->sum.member_ids[1]);
	KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(&f->ta, f->sum.group_id,
						  &f->owner), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->ta.n_plans), 0);
	gone = ta_plan_obj_lookup(&f->ta, f->sum.member_ids[0], &f->owner);
	KUNIT_EXPECT_TRUE(test, IS_ERR(gone));
	if (!IS_ERR(gone))
		ta_plan_obj_put(gone);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta),
			(size_t)f->sum.slice_size);
	ta_plan_obj_put(m);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), (size_t)0);
}

/* Members first: the group keeps the slice until it goes itself. */
static void ta_group_destroy_members_first_test(struct kunit *test)
{
	static const u32 lanes[] = { 0, 0 };
	struct ta_group_fixture *f = test->priv;
	struct ta_group_info *info;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_EQ(test, ta_group_kunit_create(test, f, lanes, 2), 0);
	KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(&f->ta, f->sum.member_ids[0],
						  &f->owner), 0);
	KUNIT_EXPECT_EQ(test, ta_group_obj_info(&f->ta, &f->owner,
						f->sum.group_id, info), 0);
	KUNIT_EXPECT_EQ(test, info->n_members, 1U);
	KUNIT_EXPECT_EQ(test, info->member_ids[0], f->sum.member_ids[1]);
	KUNIT_EXPECT_EQ(test, ta_group_obj_info(&f->ta, &f->owner,
						f->sum.member_ids[1], info),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(&f->ta, f->sum.member_ids[1],
						  &f->owner), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->ta.n_plans), 1);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta),
			(size_t)f->sum.slice_size);
	KUNIT_EXPECT_EQ(test, ta_plan_obj_destroy(&f->ta, f->sum.group_id,
						  &f->owner), 0);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), (size_t)0);
}

/* Add one lifetime-form member of buffer @b to the fixture's group. */
static int ta_group_kunit_add(struct kunit *test, struct ta_group_fixture *f,
			      const struct ta_buffer *b, u32 flags,
			      struct ta_group_summary *sum)
{
	struct ta_group_member_request *m;
	struct ta_group_request req = {
		.flags = flags,
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.n_members = 1,
	};
	int err;

	m = kcalloc(1, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	req.members = m;
	m->plan.flags = TA_CREATE_LIFETIMES;
	m->plan.strategy = req.strategy;
	m->plan.n_tensors = 1;
	m->plan.buffers = kmemdup(b, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->plan.buffers);
	KUNIT_ASSERT_EQ(test, ta_request_check(&m->plan, 0, 0, 1000), 0);
	req.budget = m->plan.budget;
	err = ta_group_obj_add(&f->ta, &f->owner, f->sum.group_id, &req, sum);
	ta_group_request_free(&req);
	return err;
}

/* The group's slice address, without holding the group (re-plans need it idle). */
static unsigned long ta_group_kunit_slice(struct kunit *test,
					  struct ta_group_fixture *f)
{
	struct ta_plan_obj *g = ta_group_kunit_get(test, f, f->sum.group_id);
	unsigned long vaddr = g->slice_vaddr;

	ta_plan_obj_put(g);
	return vaddr;
}

/*
 * An add taken back because its result could not reach the caller (in
 * place, then re-planned into a bigger slice): the group, the arena and
 * the plan count as before, the old slice back. Committed, it stays.
 */
static void ta_group_add_undo_test(struct kunit *test)
{
	static const u32 lanes[] = { 0, 1 };
	static const struct ta_buffer big = {
		.size = SZ_64K, .align = 64, .start = 0, .end = 2,
	};
	struct ta_group_fixture *f = test->priv;
	struct ta_group_info *before, *after;
	struct ta_group_summary *sum;
	struct ta_plan_obj *gone;
	unsigned long vaddr;
	size_t in_use;
	u32 pass;

	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	after = kunit_kzalloc(test, sizeof(*after), GFP_KERNEL);
	sum = kunit_kzalloc(test, sizeof(*sum), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, before && after && sum);
	KUNIT_ASSERT_EQ(test, ta_group_kunit_create(test, f, lanes, 2), 0);
	KUNIT_ASSERT_EQ(test, ta_group_obj_info(&f->ta, &f->owner,
						f->sum.group_id, before), 0);
	vaddr = ta_group_kunit_slice(test, f);
	in_use = ta_arena_in_use(&f->ta);

	for (pass = 0; pass < 2; pass++) {
		KUNIT_ASSERT_EQ(test, ta_group_kunit_add(test, f, pass ? &big :
							 &ta_group_kunit_buffers[0],
							 pass ? TA_GROUP_ADD_REPLAN : 0,
							 sum), 0);
		/* A re-plan holds both slices until commit or undo. */
		if (pass)
			KUNIT_EXPECT_GT(test, ta_arena_in_use(&f->ta), in_use);
		ta_group_obj_add_undo(&f->ta, &f->owner, f->sum.group_id,
				      sum->member_ids[0]);
		KUNIT_ASSERT_EQ(test, ta_group_obj_info(&f->ta, &f->owner,
							f->sum.group_id, after), 0);
		KUNIT_EXPECT_EQ(test, after->n_members, before->n_members);
		KUNIT_EXPECT_EQ(test, after->n_lanes, before->n_lanes);
		KUNIT_EXPECT_EQ(test, after->member_ids[0], before->member_ids[0]);
		KUNIT_EXPECT_EQ(test, after->member_ids[1], before->member_ids[1]);
		KUNIT_EXPECT_EQ(test, after->height, before->height);
		KUNIT_EXPECT_EQ(test, after->lower_bound, before->lower_bound);
		KUNIT_EXPECT_EQ(test, after->slice_size, before->slice_size);
		KUNIT_EXPECT_EQ(test, ta_group_kunit_slice(test, f), vaddr);
		KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), in_use);
		KUNIT_EXPECT_EQ(test, atomic_read(&f->ta.n_plans), 3);
		gone = ta_plan_obj_lookup(&f->ta, sum->member_ids[0], &f->owner);
		KUNIT_EXPECT_TRUE(test, IS_ERR(gone));
		if (!IS_ERR(gone))
			ta_plan_obj_put(gone);
	}
	KUNIT_EXPECT_EQ(test, pass, 2U);

	/* Committed: the member stays, the re-plan's old slice is given back. */
	KUNIT_ASSERT_EQ(test, ta_group_kunit_add(test, f, &big,
						 TA_GROUP_ADD_REPLAN, sum), 0);
	ta_group_obj_add_commit(&f->ta, &f->owner, f->sum.group_id,
				sum->member_ids[0]);
	KUNIT_ASSERT_EQ(test, ta_group_obj_info(&f->ta, &f->owner,
						f->sum.group_id, after), 0);
	KUNIT_EXPECT_EQ(test, after->n_members, 3U);
	KUNIT_EXPECT_GT(test, after->slice_size, before->slice_size);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta),
			(size_t)after->slice_size);
}

static struct kunit_case ta_group_cases[] = {
	KUNIT_CASE(ta_group_shares_slice_and_resv_test),
	KUNIT_CASE(ta_group_charged_once_test),
	KUNIT_CASE(ta_group_destroy_group_first_test),
	KUNIT_CASE(ta_group_destroy_members_first_test),
	KUNIT_CASE(ta_group_add_undo_test),
	{}
};

static struct kunit_suite ta_group_suite = {
	.name = "tensorarena-group",
	.init = ta_group_kunit_init,
	.exit = ta_group_kunit_exit,
	.test_cases = ta_group_cases,
};

kunit_test_suites(&ta_group_suite);
