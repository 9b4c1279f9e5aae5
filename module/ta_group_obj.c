// SPDX-License-Identifier: GPL-2.0
/*
 * ta_group_obj.c - groups: several plans (members) planned into one slice;
 * this file makes a group and its member plans, reads and frees them.
 *
 * A group is a plan with no tensors, in the plan table and ID space like
 * any other, that owns the slice (charged once to its creator: bytes, dmem
 * cgroup; every member and the group count as plans) and a &struct
 * ta_group: the members, the planner's problem (the members' requests,
 * copied and kept, so that a later add can plan around them), the
 * group-wide offsets and one reservation object per lane. Each member is a
 * plan with its own ID whose placements are offsets from the group's
 * slice, whose slice fields are the group's (it frees nothing: it holds a
 * reference on the group's plan, so the slice outlives every mapping and
 * dma-buf of any member) and whose reservation object is its lane's: the
 * implicit fences of jobs on members of one lane order them.
 *
 * Members are tied to the group's owner (file or socket) whoever adds them,
 * so the group and its members go away together.
 *
 * Locking: &ta_group.lock serialises what changes a group (add, destroy of
 * the group or of a member, a member's release) and its readers (GET); the
 * plan table's lock is taken inside it, never the other way round. Plan
 * references are never dropped under &ta_group.lock (a member's release
 * takes it).
 *
 * Members joining and leaving are ta_group_member.c; slices and the
 * re-plan's move to a new one are ta_group_slice.c (ta_group_core.h).
 */
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "include/ta_compat.h"
#include "ta_group_core.h"

static void *ta_group_dup(const void *src, size_t n, size_t size)
{
	void *dst = kvcalloc(max_t(size_t, n, 1), size, TA_GFP_USER);

	if (dst && n)
		memcpy(dst, src, n * size);
	return dst;
}

/**
 * ta_group_slot_clear() - free what a slot owns and zero it
 * @slot: a slot ta_group_slot_fill() filled, or a zeroed one
 */
void ta_group_slot_clear(struct ta_group_slot *slot)
{
	ta_request_free(&slot->req);
	kvfree(slot->derived);
	memset(slot, 0, sizeof(*slot));
}

/**
 * ta_group_slot_fill() - copy a transport's member into a slot
 * @slot: the slot, overwritten
 * @m: the member, checked by its transport
 *
 * Copies the member's arrays and derives its planner problem.
 *
 * Return: 0; -ENOMEM or ta_request_problem()'s error, @slot then empty.
 */
int ta_group_slot_fill(struct ta_group_slot *slot,
		       const struct ta_group_member_request *m)
{
	const struct ta_plan_request *r = &m->plan;
	struct ta_problem problem;
	int err = -ENOMEM;

	memset(slot, 0, sizeof(*slot));
	slot->lane = m->lane;
	slot->req.flags = r->flags & TA_CREATE_LIFETIMES;
	slot->req.strategy = r->strategy;
	slot->req.default_align = r->default_align;
	slot->req.n_tensors = r->n_tensors;
	slot->req.n_ops = r->n_ops;
	slot->req.n_refs = r->n_refs;
	if (r->flags & TA_CREATE_LIFETIMES) {
		slot->req.buffers = ta_group_dup(r->buffers, r->n_tensors,
						 sizeof(*r->buffers));
		if (!slot->req.buffers)
			goto clear_slot;
	} else {
		slot->req.tensors = ta_group_dup(r->tensors, r->n_tensors,
						 sizeof(*r->tensors));
		slot->req.ops = ta_group_dup(r->ops, r->n_ops,
					     sizeof(*r->ops));
		slot->req.refs = ta_group_dup(r->refs, r->n_refs,
					      sizeof(*r->refs));
		if (!slot->req.tensors || !slot->req.ops || !slot->req.refs)
			goto clear_slot;
	}
	err = ta_request_problem(&slot->req, &slot->graph, &problem,
				 &slot->derived);
	if (err)
		goto clear_slot;
	return 0;

clear_slot:
	ta_group_slot_clear(slot);
	return err;
}

/**
 * ta_group_problem() - the planner's view of a group's first slots
 * @group: the group, under its lock
 * @n: slots to take
 * @mp: room for @n member problems, filled
 * @gp: filled: @mp and the group's links and shared entries
 */
void ta_group_problem(struct ta_group *group, u32 n,
		      struct ta_group_member_problem *mp,
		      struct ta_group_problem *gp)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct ta_group_slot *slot = &group->slots[i];

		memset(&mp[i], 0, sizeof(mp[i]));
		mp[i].lane = slot->lane;
		mp[i].problem.n_buffers = slot->req.n_tensors;
		if (slot->derived) {
			mp[i].problem.buffers = slot->derived;
			mp[i].problem.graph = &slot->graph;
		} else {
			mp[i].problem.buffers = slot->req.buffers;
		}
	}
	gp->n_members = n;
	gp->members = mp;
	gp->n_links = group->n_links;
	gp->links = group->links;
	gp->n_shared = group->n_shared;
	gp->shared = group->shared;
}

static struct ta_group *ta_group_alloc(u32 strategy)
{
	struct ta_group *group = kvzalloc(sizeof(*group), TA_GFP_USER);
	u32 i;

	if (!group)
		return NULL;
	mutex_init(&group->lock);
	group->strategy = strategy;
	for (i = 0; i < TA_GROUP_MAX_LANES; i++)
		dma_resv_init(&group->lanes[i]);
	return group;
}

/**
 * ta_group_obj_free() - free a group (its plan's release)
 * @group: the group; no member plan is left
 */
void ta_group_obj_free(struct ta_group *group)
{
	u32 i;

	for (i = 0; i < group->n_members; i++)
		ta_group_slot_clear(&group->slots[i]);
	ta_group_undo_drop(group);
	for (i = 0; i < TA_GROUP_MAX_LANES; i++)
		dma_resv_fini(&group->lanes[i]);
	kvfree(group->offsets);
	mutex_destroy(&group->lock);
	kvfree(group);
}

/**
 * ta_group_obj_forget() - a member's plan is being freed: its slot lets go
 * @member: the member's plan (its group's plan is still referenced)
 */
void ta_group_obj_forget(struct ta_plan_obj *member)
{
	struct ta_group *group = member->group_plan->group;
	u32 i;

	mutex_lock(&group->lock);
	for (i = 0; i < group->n_members; i++)
		if (group->slots[i].plan == member)
			group->slots[i].plan = NULL;
	mutex_unlock(&group->lock);
}

/* A plan object of @n_tensors placements for @owner, not yet published. */
static struct ta_plan_obj *ta_group_plan_new(struct ta_device *ta,
					     const struct ta_owner *owner,
					     struct ta_user *user,
					     u32 strategy, u32 n_tensors)
{
	struct ta_plan_obj *plan;

	plan = kvzalloc(struct_size(plan, placements, n_tensors), TA_GFP_USER);
	if (!plan)
		return NULL;
	kref_init(&plan->ref);
	BLOCKING_INIT_NOTIFIER_HEAD(&plan->destroyed);
	dma_resv_init(&plan->own_resv);
	dma_resv_init(&plan->fast_resv);
	plan->resv = &plan->own_resv;
	plan->ta = ta;
	plan->uid = owner->uid;
	plan->owner_key = owner->key;
	plan->owner_plans = owner->n_plans;
	plan->user = user;
	plan->strategy = strategy;
	plan->n_tensors = n_tensors;
	return plan;
}

/**
 * ta_group_plan_discard() - free an unpublished plan and no more
 * @plan: a plan ta_group_plan_new() or ta_group_member_new() made
 */
void ta_group_plan_discard(struct ta_plan_obj *plan)
{
	kvfree(plan->exportable);
	dma_resv_fini(&plan->fast_resv);
	dma_resv_fini(&plan->own_resv);
	kvfree(plan);
}

/**
 * ta_group_member_new() - a slot as a member plan, not yet published
 * @gplan: the group's plan, its slice set
 * @owner: the member's owner (the group's)
 * @index: the slot
 * @offsets: the slot's tensors' offsets from the slice
 *
 * Return: the plan (placements, slice, lane's reservation object), or
 * NULL when out of memory.
 */
struct ta_plan_obj *ta_group_member_new(struct ta_plan_obj *gplan,
					const struct ta_owner *owner,
					u32 index, const u64 *offsets)
{
	struct ta_group *group = gplan->group;
	struct ta_group_slot *slot = &group->slots[index];
	struct ta_plan_obj *plan;
	u32 t;

	plan = ta_group_plan_new(gplan->ta, owner, gplan->user,
				 group->strategy, slot->req.n_tensors);
	if (!plan)
		return NULL;
	if (ta_plan_obj_mark_exportable(plan, &slot->req)) {
		ta_group_plan_discard(plan);
		return NULL;
	}
	for (t = 0; t < slot->req.n_tensors; t++) {
		plan->placements[t].offset = offsets[t];
		plan->placements[t].tier = TA_TIER_SLOW;
		plan->placements[t].size = slot->derived ?
			slot->derived[t].size : slot->req.buffers[t].size;
	}
	plan->height = gplan->height;
	plan->lower_bound = gplan->lower_bound;
	plan->time_ns = gplan->time_ns;
	plan->optimal = gplan->optimal;
	plan->slice_size = gplan->slice_size;
	plan->slice_vaddr = gplan->slice_vaddr;
	plan->slice_dma = gplan->slice_dma;
	plan->lane = slot->lane;
	plan->resv = &group->lanes[slot->lane];
	return plan;
}

/**
 * ta_group_owner_reserve_locked() - count more plans against an owner
 * @owner: the owner (no count: nothing to do)
 * @n: plans to add
 *
 * Called under the plan table's lock.
 *
 * Return: 0, or -EDQUOT beyond max_file_plans (nothing counted).
 */
int ta_group_owner_reserve_locked(const struct ta_owner *owner, u32 n)
{
	if (!owner->n_plans)
		return 0;
	if (*owner->n_plans + n > READ_ONCE(ta_max_file_plans))
		return -EDQUOT;
	*owner->n_plans += n;
	return 0;
}

/* @n plans of @uid (max_user_plans): the account, or an ERR_PTR. */
static struct ta_user *ta_group_user_reserve(struct ta_device *ta, kuid_t uid,
					     u32 n)
{
	struct ta_user *user = NULL;
	u32 i;

	for (i = 0; i < n; i++) {
		struct ta_user *u = ta_user_reserve(ta, uid);

		if (IS_ERR(u)) {
			while (i--)
				ta_user_release(ta, user, 0);
			return u;
		}
		user = u;
	}
	return user;
}

static void ta_group_user_unreserve(struct ta_device *ta,
				    struct ta_user *user, u32 n, u64 bytes)
{
	while (n--) {
		ta_user_release(ta, user, bytes);
		bytes = 0;
	}
}

/**
 * ta_group_reserve_id() - reserve a plan ID
 * @ta: the device
 * @id: out, the ID; its entry is zero, so lookups do not see it
 *
 * Return: 0; -ENOSPC when every ID is taken; -ENOMEM.
 */
int ta_group_reserve_id(struct ta_device *ta, u32 *id)
{
	int err = xa_alloc_cyclic(&ta->plans, id, NULL,
				  XA_LIMIT(1, TA_PLAN_ID_MAX),
				  &ta->next_plan_id, GFP_KERNEL_ACCOUNT);

	if (err < 0)
		return err == -EBUSY ? -ENOSPC : err;
	return 0;
}

/**
 * ta_group_request_check() - a request's shape, before copies or planning
 * @req: the request
 * @n_before: members the group has (0 for a create)
 * @tensors_before: tensors those members have
 * @msg: out, the reason on failure
 *
 * Return: 0; -EINVAL for a bad strategy, no member or a bad lane; -E2BIG
 * beyond the group limits or max_tensors.
 */
int ta_group_request_check(const struct ta_group_request *req,
			   u32 n_before, u32 tensors_before,
			   const char **msg)
{
	u64 tensors = tensors_before;
	u32 i;

	if (req->strategy >= TA_STRATEGY_COUNT ||
	    req->strategy == TA_STRATEGY_PINGPONG) {
		*msg = "group: strategy must be one that plans a group (not fixed or pingpong)";
		return -EINVAL;
	}
	if (!req->n_members) {
		*msg = "group: no member";
		return -EINVAL;
	}
	if (req->n_members > TA_GROUP_MAX_MEMBERS - n_before) {
		*msg = "group: more than TA_GROUP_MAX_MEMBERS members";
		return -E2BIG;
	}
	if (req->n_links > TA_GROUP_MAX_LINKS) {
		*msg = "group: more than TA_GROUP_MAX_LINKS links";
		return -E2BIG;
	}
	if (req->n_shared > TA_GROUP_MAX_SHARED) {
		*msg = "group: more than TA_GROUP_MAX_SHARED shared tensors";
		return -E2BIG;
	}
	for (i = 0; i < req->n_members; i++) {
		if (req->members[i].lane >= TA_GROUP_MAX_LANES) {
			*msg = "group: a member's lane is not below TA_GROUP_MAX_LANES";
			return -EINVAL;
		}
		tensors += req->members[i].plan.n_tensors;
	}
	if (tensors > READ_ONCE(ta_max_tensors)) {
		*msg = "group: the members' tensors together are more than max_tensors";
		return -E2BIG;
	}
	return 0;
}

/**
 * ta_group_solve_msg() - the caller's message for a planner error
 * @err: ta_group_solve()'s or ta_group_extend()'s error
 *
 * Return: a static message, or NULL for an error that needs none.
 */
const char *ta_group_solve_msg(int err)
{
	switch (err) {
	case -EINVAL:
		return "group: a member, lane, link or shared entry is malformed";
	case -E2BIG:
		return "group: beyond the planner's limits";
	case -ETIMEDOUT:
		return "group: planning hit the time limit without a plan";
	}
	return NULL;
}

/**
 * ta_group_publish() - publish reserved plans at once
 * @ta: the device
 * @gplan: the group's plan, which must still be in the table; NULL for a
 *	   new group (then the first of @plans)
 * @owner: the owner the plans count against
 * @n_owner: plans to count against @owner
 * @plans: the plans, their IDs reserved
 * @n: entries in @plans
 *
 * Return: 0 (each plan announced); -ENOENT when @gplan left the table;
 * -EDQUOT at max_file_plans. Nothing published on failure.
 */
int ta_group_publish(struct ta_device *ta, struct ta_plan_obj *gplan,
		     const struct ta_owner *owner, u32 n_owner,
		     struct ta_plan_obj **plans, u32 n)
{
	int err;
	u32 i;

	xa_lock(&ta->plans);
	if (gplan && xa_load(&ta->plans, gplan->id) != gplan) {
		err = -ENOENT;
		goto unlock;
	}
	err = ta_group_owner_reserve_locked(owner, n_owner);
	if (err)
		goto unlock;
	for (i = 0; i < n; i++)
		__xa_store(&ta->plans, plans[i]->id, plans[i], GFP_NOWAIT);
unlock:
	xa_unlock(&ta->plans);
	if (err)
		return err;
	atomic_add(n, &ta->n_plans);
	for (i = 0; i < n; i++)
		ta_plan_obj_notify(ta, TA_EVENT_PLAN_CREATED, plans[i], 0);
	return 0;
}

/**
 * ta_group_obj_create() - plan a group and, unless a dry run, publish it
 * @ta: the device
 * @owner: who asks; the group and its members belong to @owner->key
 * @req: the request, arrays copied in and each member checked by the
 *	 transport (ta_request_check())
 * @out: the figures, the group's and members' IDs; @out->msg on failure
 *
 * Return: 0; -EINVAL for bad flags, strategy, lane or a malformed member,
 * link or shared entry; -E2BIG beyond the limits (the members' tensors
 * together above max_tensors); -ENOSPC when the height is above a
 * non-zero capacity, or the arena has no room; -EDQUOT at max_user_plans,
 * max_file_plans (each member and the group count), max_user_bytes or the
 * dmem cgroup's limit; -ENOMEM; -EINTR; -ETIMEDOUT. Nothing changed on
 * failure.
 */
int ta_group_obj_create(struct ta_device *ta, const struct ta_owner *owner,
			const struct ta_group_request *req,
			struct ta_group_summary *out)
{
	struct ta_plan_obj *plans[TA_GROUP_MAX_MEMBERS + 1] = { NULL };
	struct ta_group_member_problem *mp = NULL;
	struct ta_budget budget = req->budget;
	bool dry = req->flags & TA_GROUP_DRY_RUN;
	struct ta_group_result res = {};
	struct ta_group_slice slice = {};
	struct ta_plan_obj *gplan = NULL;
	struct ta_group_problem gp;
	struct ta_user *user = NULL;
	struct ta_group *group;
	u32 n_plans, i, base;
	u64 charged = 0;
	size_t size;
	int err;

	memset(out, 0, sizeof(*out));
	if (req->flags & ~TA_GROUP_DRY_RUN) {
		out->msg = "group: unknown flags";
		return -EINVAL;
	}
	err = ta_group_request_check(req, 0, 0, &out->msg);
	if (err)
		return err;
	n_plans = req->n_members + 1;
	if (!dry) {
		user = ta_group_user_reserve(ta, owner->uid, n_plans);
		if (IS_ERR(user))
			return PTR_ERR(user);
	}

	err = -ENOMEM;
	group = ta_group_alloc(req->strategy);
	if (!group)
		goto unreserve_user;
	for (i = 0; i < req->n_members; i++) {
		err = ta_group_slot_fill(&group->slots[i], &req->members[i]);
		if (err)
			goto free_group;
		group->n_members++;
	}
	memcpy(group->links, req->links, req->n_links * sizeof(*req->links));
	group->n_links = req->n_links;
	memcpy(group->shared, req->shared,
	       req->n_shared * sizeof(*req->shared));
	group->n_shared = req->n_shared;

	err = -ENOMEM;
	mp = kvcalloc(req->n_members, sizeof(*mp), TA_GFP_USER);
	if (!mp)
		goto free_group;
	ta_group_problem(group, req->n_members, mp, &gp);
	group->n_offsets = ta_group_tensor_count(&gp);
	group->offsets = kvcalloc(max_t(u32, group->n_offsets, 1),
				  sizeof(u64), TA_GFP_USER);
	if (!group->offsets)
		goto free_problem;
	err = ta_group_solve(&gp, req->strategy, &budget, group->offsets,
			     &res);
	if (err) {
		out->msg = ta_group_solve_msg(err);
		goto free_problem;
	}
	if (req->capacity && res.height > req->capacity) {
		out->msg = "group: its height is above the capacity asked for";
		err = -ENOSPC;
		goto free_problem;
	}
	out->height = res.height;
	out->lower_bound = res.lower_bound;
	out->plan_time_ns = res.time_ns;
	out->optimal = res.optimal;
	size = PAGE_ALIGN(max(req->capacity, res.height));
	out->slice_size = size;
	if (dry) {
		err = 0;
		goto free_problem;
	}

	err = -ENOMEM;
	gplan = ta_group_plan_new(ta, owner, user, req->strategy, 0);
	if (!gplan)
		goto free_problem;
	gplan->height = res.height;
	gplan->lower_bound = res.lower_bound;
	gplan->time_ns = res.time_ns;
	gplan->optimal = res.optimal;
	if (size) {
		err = ta_user_charge_bytes(ta, user, size);
		if (err) {
			out->msg = "group: max_user_bytes";
			goto free_gplan;
		}
		charged = size;
		err = ta_group_slice_alloc(ta, size, res.height, &slice);
		if (err) {
			out->msg = "group: the arena has no room for the slice";
			goto free_gplan;
		}
		gplan->slice_vaddr = slice.vaddr;
		gplan->slice_dma = slice.dma;
		gplan->slice_size = slice.size;
		gplan->dmem_pool = slice.pool;
	}
	gplan->group = group;
	plans[0] = gplan;
	for (i = 0, base = 0; i < req->n_members; i++) {
		plans[i + 1] = ta_group_member_new(gplan, owner, i,
						   group->offsets + base);
		if (!plans[i + 1]) {
			err = -ENOMEM;
			goto free_plans;
		}
		base += group->slots[i].req.n_tensors;
	}
	for (i = 0; i < n_plans; i++) {
		err = ta_group_reserve_id(ta, &plans[i]->id);
		if (err)
			goto free_plans;
	}
	for (i = 0; i < req->n_members; i++) {
		group->slots[i].id = plans[i + 1]->id;
		group->slots[i].plan = plans[i + 1];
		plans[i + 1]->group_plan = gplan;
	}
	/*
	 * References before the table's: each member's on the group's plan,
	 * and ours on every plan until reported, so a racing destroy by ID
	 * frees nothing under us.
	 */
	for (i = 0; i < n_plans; i++)
		ta_plan_obj_get(plans[i]);
	for (i = 0; i < req->n_members; i++) {
		ta_plan_obj_get(gplan);
		out->member_ids[i] = plans[i + 1]->id;
	}
	out->group_id = gplan->id;
	out->mmap_offset = (u64)gplan->id << PAGE_SHIFT;
	err = ta_group_publish(ta, NULL, owner, n_plans, plans, n_plans);
	if (err) {
		/* Never published: nobody else holds any of them. */
		for (i = 0; i < n_plans; i++)
			kref_init(&plans[i]->ref);
		for (i = 0; i < req->n_members; i++)
			plans[i + 1]->group_plan = NULL;
		out->msg = "group: max_file_plans";
		out->group_id = 0;
		out->mmap_offset = 0;
		memset(out->member_ids, 0, sizeof(out->member_ids));
		goto free_plans;
	}
	kvfree(mp);
	for (i = 0; i < n_plans; i++)
		ta_plan_obj_put(plans[i]);
	return 0;

free_plans:
	for (i = 0; i < n_plans; i++) {
		if (!plans[i])
			continue;
		if (plans[i]->id)
			xa_erase(&ta->plans, plans[i]->id);
		if (i)
			ta_group_plan_discard(plans[i]);
	}
	gplan->group = NULL;
	ta_group_slice_free(ta, &slice);
free_gplan:
	ta_group_plan_discard(gplan);
free_problem:
	kvfree(mp);
free_group:
	ta_group_obj_free(group);
unreserve_user:
	if (!dry)
		ta_group_user_unreserve(ta, user, n_plans, charged);
	return err;
}

/**
 * ta_group_lookup() - a group's plan by ID, referenced
 * @ta: the device
 * @id: the group's plan ID
 * @caller: who asks; the plan must be visible to it
 * @msg: out, the reason on failure
 *
 * Return: the plan, or ERR_PTR(-ENOENT) for no such visible plan,
 * ERR_PTR(-EINVAL) for a plan that is not a group.
 */
struct ta_plan_obj *ta_group_lookup(struct ta_device *ta, u32 id,
				    const struct ta_owner *caller,
				    const char **msg)
{
	struct ta_plan_obj *plan = ta_plan_obj_lookup(ta, id, caller);

	if (IS_ERR(plan)) {
		*msg = "group: no such group";
		return plan;
	}
	if (!plan->group) {
		*msg = plan->group_plan ? "group: the ID is a member's, not the group's" :
					  "group: the ID is a plan's, not a group's";
		ta_plan_obj_put(plan);
		return ERR_PTR(-EINVAL);
	}
	return plan;
}

/**
 * ta_group_obj_info() - read a group
 * @ta: the device
 * @caller: who asks; the group must be visible to it
 * @group_id: the group's plan ID
 * @out: the figures and member IDs
 *
 * Return: 0; -ENOENT for no such (visible) plan; -EINVAL for a plan that
 * is not a group (a plain plan, or a member).
 */
int ta_group_obj_info(struct ta_device *ta, const struct ta_owner *caller,
		      u32 group_id, struct ta_group_info *out)
{
	struct ta_plan_obj *gplan;
	struct ta_group *group;
	const char *msg;
	u32 i;

	memset(out, 0, sizeof(*out));
	gplan = ta_group_lookup(ta, group_id, caller, &msg);
	if (IS_ERR(gplan))
		return PTR_ERR(gplan);
	group = gplan->group;
	mutex_lock(&group->lock);
	out->n_members = group->n_members;
	for (i = 0; i < group->n_members; i++) {
		out->member_ids[i] = group->slots[i].id;
		out->n_lanes = max(out->n_lanes, group->slots[i].lane + 1);
	}
	out->height = gplan->height;
	out->lower_bound = gplan->lower_bound;
	out->slice_size = gplan->slice_size;
	out->mmap_offset = (u64)gplan->id << PAGE_SHIFT;
	mutex_unlock(&group->lock);
	ta_plan_obj_put(gplan);
	return 0;
}

/**
 * ta_group_obj_member_count() - members of a group
 * @gplan: a group's plan, or any plan (0)
 *
 * Return: the count.
 */
u32 ta_group_obj_member_count(struct ta_plan_obj *gplan)
{
	u32 n;

	if (!gplan->group)
		return 0;
	mutex_lock(&gplan->group->lock);
	n = gplan->group->n_members;
	mutex_unlock(&gplan->group->lock);
	return n;
}

/**
 * ta_group_obj_member() - a group's member plan, referenced
 * @gplan: a group's plan the caller holds
 * @index: the member's index
 *
 * Return: the member's plan with a new reference, or NULL for an index out
 * of range, a plan that is no group, or a member being freed.
 */
struct ta_plan_obj *ta_group_obj_member(struct ta_plan_obj *gplan, u32 index)
{
	struct ta_plan_obj *m = NULL;
	struct ta_group *group = gplan->group;

	if (!group)
		return NULL;
	mutex_lock(&group->lock);
	if (index < group->n_members) {
		m = group->slots[index].plan;
		if (m && !kref_get_unless_zero(&m->ref))
			m = NULL;
	}
	mutex_unlock(&group->lock);
	return m;
}

/**
 * ta_group_request_free() - free what a transport copied into a request
 * @req: the request; its members' arrays and the arrays of links, shared
 *	 and members
 */
void ta_group_request_free(struct ta_group_request *req)
{
	u32 i;

	if (req->members)
		for (i = 0; i < req->n_members; i++)
			ta_request_free(&req->members[i].plan);
	kvfree(req->members);
	kvfree(req->links);
	kvfree(req->shared);
	req->members = NULL;
	req->links = NULL;
	req->shared = NULL;
}
