// SPDX-License-Identifier: GPL-2.0
/*
 * ta_group_member.c - members join a live group and leave it.
 *
 * An add plans one new member around what stays (ta_group_extend(): no
 * existing tensor moves) or, with %TA_GROUP_ADD_REPLAN, plans the whole
 * group anew into a new slice while nothing of it is in use
 * (ta_group_slice.c). A member destroyed leaves its slot, links and shared
 * entries; what only it used is free for members added later. Destroying
 * the group's plan takes every member with it.
 *
 * Locking as ta_group_obj.c says: &ta_group.lock, then the plan table's.
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "include/ta_compat.h"
#include "ta_group_core.h"

/* Members' owner: the group's file or socket, so they go away together. */
static struct ta_owner ta_group_owner(const struct ta_plan_obj *gplan)
{
	struct ta_owner owner = {
		.uid = gplan->uid,
		.key = gplan->owner_key,
		.n_plans = gplan->owner_plans,
	};

	return owner;
}

/*
 * Under @group->lock: the tensor indices of an add's links and shared
 * entries that name the group's members (the transport checks the new
 * member's).
 */
static int ta_group_old_refs_check(const struct ta_group *group,
				   const struct ta_group_request *req,
				   const char **msg)
{
	u32 n = group->n_members, i;

	*msg = "group add: a link or shared entry names a tensor its member does not have";
	for (i = 0; i < req->n_links; i++) {
		const struct ta_group_link *l = &req->links[i];

		if ((l->from_member < n &&
		     l->from_tensor >= group->slots[l->from_member].req.n_tensors) ||
		    (l->to_member < n &&
		     l->to_tensor >= group->slots[l->to_member].req.n_tensors))
			return -EINVAL;
	}
	for (i = 0; i < req->n_shared; i++) {
		const struct ta_group_shared *sh = &req->shared[i];

		if (sh->member < n &&
		    sh->tensor >= group->slots[sh->member].req.n_tensors)
			return -EINVAL;
	}
	*msg = NULL;
	return 0;
}

/**
 * ta_group_undo_drop() - forget what the last add changed
 * @group: the group; its lock held, or the group being freed
 *
 * Frees the offsets from before the add and a re-plan's old slice (arena,
 * dmem and byte charges).
 */
void ta_group_undo_drop(struct ta_group *group)
{
	struct ta_group_undo *u = &group->undo;
	size_t size = u->slice.size;

	kvfree(u->offsets);
	if (size) {
		ta_group_slice_free(u->ta, &u->slice);
		ta_user_uncharge_bytes(u->ta, u->user, size);
	}
	memset(u, 0, sizeof(*u));
}

/*
 * Under @gplan's group's lock, before an add changes it: keep the group's
 * figures, counts and offsets, and @slice (a re-plan's old one, or a
 * zeroed one), for ta_group_obj_add_undo(). @slice is zeroed.
 */
static void ta_group_undo_keep_locked(struct ta_plan_obj *gplan, u32 id,
				      struct ta_group_slice *slice)
{
	struct ta_group *group = gplan->group;
	struct ta_group_undo *u = &group->undo;

	ta_group_undo_drop(group);
	u->member_id = id;
	u->gen = ++group->gen;
	u->n_links = group->n_links;
	u->n_shared = group->n_shared;
	u->height = gplan->height;
	u->lower_bound = gplan->lower_bound;
	u->optimal = gplan->optimal;
	u->n_offsets = group->n_offsets;
	u->offsets = group->offsets;
	u->slice = *slice;
	u->ta = gplan->ta;
	u->user = gplan->user;
	memset(slice, 0, sizeof(*slice));
}

/**
 * ta_group_obj_add() - add a member to a group
 * @ta: the device
 * @owner: who asks (uid, admin); the member belongs to the group's owner
 * @group_id: the group's plan ID
 * @req: one member (@req->n_members 1), its links and shared tensors
 *	 (member index "the group's member count" is the new one);
 *	 %TA_GROUP_ADD_REPLAN in @req->flags to plan the whole group anew
 * @out: the group's figures after the call, the member's ID in
 *	 @out->member_ids[0]; @out->msg on failure
 *
 * Without %TA_GROUP_ADD_REPLAN nothing moves: the member is placed in the
 * slice around what may be live beside it (ta_group_extend()).
 *
 * The group keeps what the add changed (with a re-plan, the old slice too)
 * until the transport calls ta_group_obj_add_commit() once the result has
 * reached the caller, or ta_group_obj_add_undo() when it could not.
 *
 * Return: 0; -ENOENT for no such group; -EINVAL for a plan that is not a
 * group, bad flags, strategy or lane, or a malformed member, link or
 * shared entry; -E2BIG beyond %TA_GROUP_MAX_MEMBERS, _LINKS, _SHARED or
 * max_tensors over every member; -ENOSPC when the member does not fit in
 * the slice; -EBUSY (%TA_GROUP_ADD_REPLAN) while any member or the group
 * is mapped, exported, held by a driver or has jobs in flight; -EDQUOT;
 * -ENOMEM; -EINTR; -ETIMEDOUT. Nothing changed on failure.
 */
int ta_group_obj_add(struct ta_device *ta, const struct ta_owner *owner,
		     u32 group_id, const struct ta_group_request *req,
		     struct ta_group_summary *out)
{
	struct ta_group_member_problem *mp = NULL;
	struct ta_budget budget = req->budget;
	struct ta_group_result res = {};
	struct ta_plan_obj *gplan, *member;
	struct ta_owner gowner;
	bool replan = req->flags & TA_GROUP_ADD_REPLAN;
	struct ta_group_slice slice = {};
	struct ta_group_problem gp;
	struct ta_group_slot *slot;
	struct ta_group *group;
	struct ta_user *user;
	u32 n, base, total;
	u64 *offsets = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (req->flags & ~TA_GROUP_ADD_REPLAN) {
		out->msg = "group add: unknown flags";
		return -EINVAL;
	}
	if (req->n_members != 1) {
		out->msg = "group add: one member at a time";
		return -EINVAL;
	}
	gplan = ta_group_lookup(ta, group_id, owner, &out->msg);
	if (IS_ERR(gplan))
		return PTR_ERR(gplan);
	group = gplan->group;
	gowner = ta_group_owner(gplan);

	mutex_lock(&group->lock);
	n = group->n_members;
	err = ta_group_request_check(req, n, group->n_offsets, &out->msg);
	if (err)
		goto unlock;
	err = -E2BIG;
	if (req->n_links > TA_GROUP_MAX_LINKS - group->n_links) {
		out->msg = "group add: more than TA_GROUP_MAX_LINKS links";
		goto unlock;
	}
	if (req->n_shared > TA_GROUP_MAX_SHARED - group->n_shared) {
		out->msg = "group add: more than TA_GROUP_MAX_SHARED shared tensors";
		goto unlock;
	}
	err = ta_group_old_refs_check(group, req, &out->msg);
	if (err)
		goto unlock;
	user = ta_user_reserve(ta, gplan->uid);
	if (IS_ERR(user)) {
		err = PTR_ERR(user);
		goto unlock;
	}
	slot = &group->slots[n];
	err = ta_group_slot_fill(slot, &req->members[0]);
	if (err)
		goto unreserve_user;
	memcpy(group->links + group->n_links, req->links,
	       req->n_links * sizeof(*req->links));
	memcpy(group->shared + group->n_shared, req->shared,
	       req->n_shared * sizeof(*req->shared));

	err = -ENOMEM;
	mp = kvcalloc(n + 1, sizeof(*mp), TA_GFP_USER);
	if (!mp)
		goto clear_slot;
	ta_group_problem(group, n + 1, mp, &gp);
	gp.n_links += req->n_links;
	gp.n_shared += req->n_shared;
	total = ta_group_tensor_count(&gp);
	offsets = kvcalloc(max_t(u32, total, 1), sizeof(u64), TA_GFP_USER);
	if (!offsets)
		goto free_problem;
	if (replan)
		err = ta_group_solve(&gp, req->strategy, &budget, offsets,
				     &res);
	else
		err = ta_group_extend(&gp, n, group->offsets,
				      gplan->slice_size, req->strategy,
				      &budget, offsets, &res);
	if (err) {
		out->msg = err == -ENOSPC ?
			"group add: the member does not fit in the slice around what stays" :
			ta_group_solve_msg(err);
		goto free_problem;
	}

	err = -ENOMEM;
	base = group->n_offsets;
	member = ta_group_member_new(gplan, &gowner, n, offsets + base);
	if (!member)
		goto free_problem;
	member->height = res.height;
	err = ta_group_reserve_id(ta, &member->id);
	if (err)
		goto free_member;
	if (replan) {
		err = ta_group_slice_new(gplan, max_t(size_t, gplan->slice_size,
						      PAGE_ALIGN(res.height)),
					 res.height, &slice);
		if (err) {
			out->msg = "group add: no room for the re-planned slice";
			goto erase_id;
		}
	}
	member->group_plan = gplan;
	ta_plan_obj_get(member);
	ta_plan_obj_get(gplan);
	if (replan)
		err = ta_group_replan_publish(ta, gplan, &gowner, member,
					      &slice, offsets);
	else
		err = ta_group_publish(ta, gplan, &gowner, 1, &member, 1);
	if (err) {
		if (replan)
			ta_group_slice_put(gplan, &slice);	/* the unused new one */
		if (err == -EBUSY)
			out->msg = "group add: re-plan of a group in use (mapped, exported, jobs)";
		else
			out->msg = err == -ENOENT ? "group: no such group" :
				   "group add: max_file_plans";
		ta_plan_obj_put(gplan);
		member->group_plan = NULL;
		goto erase_id;
	}
	/* What the add changes, kept until the transport has reported it. */
	ta_group_undo_keep_locked(gplan, member->id, &slice);
	slot->id = member->id;
	slot->plan = member;
	group->n_members = n + 1;
	group->n_links += req->n_links;
	group->n_shared += req->n_shared;
	group->offsets = offsets;
	group->n_offsets = total;
	WRITE_ONCE(gplan->height, res.height);
	if (replan) {
		gplan->lower_bound = res.lower_bound;
		gplan->optimal = res.optimal;
	}
	out->group_id = gplan->id;
	out->member_ids[0] = member->id;
	out->height = res.height;
	out->lower_bound = gplan->lower_bound;
	out->plan_time_ns = res.time_ns;
	out->optimal = res.optimal;
	out->mmap_offset = (u64)gplan->id << PAGE_SHIFT;
	out->slice_size = gplan->slice_size;
	mutex_unlock(&group->lock);
	kvfree(mp);
	ta_plan_obj_put(member);
	ta_plan_obj_put(gplan);
	return 0;

erase_id:
	xa_erase(&ta->plans, member->id);
free_member:
	ta_group_plan_discard(member);
free_problem:
	kvfree(offsets);
	kvfree(mp);
clear_slot:
	ta_group_slot_clear(slot);
unreserve_user:
	ta_user_release(ta, user, 0);
unlock:
	mutex_unlock(&group->lock);
	ta_plan_obj_put(gplan);
	return err;
}

/**
 * ta_group_obj_add_commit() - an add's result reached its caller
 * @ta: the device
 * @owner: who added
 * @group_id: the group's plan ID
 * @member_id: the member ta_group_obj_add() reported
 *
 * Frees what the group kept to take the add back (a re-plan's old slice).
 */
void ta_group_obj_add_commit(struct ta_device *ta, const struct ta_owner *owner,
			     u32 group_id, u32 member_id)
{
	struct ta_plan_obj *gplan;
	const char *msg;

	gplan = ta_group_lookup(ta, group_id, owner, &msg);
	if (IS_ERR(gplan))
		return;
	mutex_lock(&gplan->group->lock);
	if (gplan->group->undo.member_id == member_id)
		ta_group_undo_drop(gplan->group);
	mutex_unlock(&gplan->group->lock);
	ta_plan_obj_put(gplan);
}

/*
 * Under @group->lock: whether the group is as the add of @member_id left
 * it (nothing added, removed or re-planned since), so that the kept state
 * is what it was before.
 */
static struct ta_plan_obj *
ta_group_undo_member_locked(struct ta_group *group, u32 member_id)
{
	u32 n = group->n_members;

	if (!n || !group->undo.member_id ||
	    group->undo.member_id != member_id ||
	    group->undo.gen != group->gen ||
	    group->slots[n - 1].id != member_id)
		return NULL;
	return group->slots[n - 1].plan;
}

/*
 * Under @gplan's group's lock and the table's: erase @member from the
 * table and, for a re-plan, move the group back to its old slice and
 * offsets, if the group is idle. False, changing nothing, otherwise.
 */
static bool ta_group_undo_erase_locked(struct ta_device *ta,
				       struct ta_plan_obj *gplan,
				       struct ta_plan_obj *member)
{
	struct ta_group *group = gplan->group;
	struct ta_group_undo *u = &group->undo;

	if (xa_load(&ta->plans, gplan->id) != gplan ||
	    xa_load(&ta->plans, member->id) != member)
		return false;
	/* The table's and our lookup's beyond the live members' (the new one's). */
	if (u->slice.size && !ta_group_idle_locked(group, gplan, 2))
		return false;
	__xa_erase(&ta->plans, member->id);
	ta_plan_obj_erased(member);
	if (u->slice.size)
		ta_group_slice_move_locked(gplan, &u->slice, u->offsets,
					   group->n_members - 1);
	return true;
}

/**
 * ta_group_obj_add_undo() - take back an add whose result did not reach
 * its caller
 * @ta: the device
 * @owner: who added
 * @group_id: the group's plan ID
 * @member_id: the member ta_group_obj_add() reported
 *
 * If nothing changed the group since the add (and, for a re-plan, nothing
 * uses it), the group is exactly as before: the member, its links and
 * shared entries gone, the old offsets, height and lower bound and, for a
 * re-plan, the old slice back. Otherwise the member leaves the group as
 * ta_plan_obj_destroy() of it would.
 */
void ta_group_obj_add_undo(struct ta_device *ta, const struct ta_owner *owner,
			   u32 group_id, u32 member_id)
{
	struct ta_plan_obj *gplan, *member;
	struct ta_group_undo *u;
	struct ta_group *group;
	bool exact = false;
	const char *msg;
	u32 n;

	gplan = ta_group_lookup(ta, group_id, owner, &msg);
	if (IS_ERR(gplan))
		goto destroy;
	group = gplan->group;
	u = &group->undo;
	mutex_lock(&group->lock);
	member = ta_group_undo_member_locked(group, member_id);
	if (member) {
		xa_lock(&ta->plans);
		exact = ta_group_undo_erase_locked(ta, gplan, member);
		xa_unlock(&ta->plans);
	}
	if (exact) {
		n = --group->n_members;
		ta_group_slot_clear(&group->slots[n]);
		group->n_links = u->n_links;
		group->n_shared = u->n_shared;
		kvfree(group->offsets);
		group->offsets = u->offsets;
		group->n_offsets = u->n_offsets;
		u->offsets = NULL;
		WRITE_ONCE(gplan->height, u->height);
		gplan->lower_bound = u->lower_bound;
		gplan->optimal = u->optimal;
		group->gen++;
	}
	/* A re-plan's new slice (swapped into @u), or this add's kept state. */
	if (u->member_id == member_id)
		ta_group_undo_drop(group);
	mutex_unlock(&group->lock);
	if (exact)
		ta_plan_obj_unpublish(ta, member);
	ta_plan_obj_put(gplan);
	if (exact)
		return;
destroy:
	ta_plan_obj_destroy(ta, member_id, owner);
}

/* Under @group->lock: erase every member and the group from the table. */
static int ta_group_unlink_all_locked(struct ta_device *ta,
				      struct ta_group *group,
				      struct ta_plan_obj *gplan,
				      struct list_head *gone)
{
	u32 i;

	xa_lock(&ta->plans);
	if (xa_load(&ta->plans, gplan->id) != gplan) {
		xa_unlock(&ta->plans);
		return -ENOENT;
	}
	for (i = 0; i < group->n_members; i++) {
		struct ta_plan_obj *m = group->slots[i].plan;

		if (!m || __xa_cmpxchg(&ta->plans, m->id, m, NULL,
				       GFP_NOWAIT) != m)
			continue;
		ta_plan_obj_erased(m);
		list_add_tail(&m->reap_node, gone);
	}
	__xa_erase(&ta->plans, gplan->id);
	ta_plan_obj_erased(gplan);
	list_add_tail(&gplan->reap_node, gone);
	xa_unlock(&ta->plans);
	return 0;
}

/* Under @group->lock: slot @idx leaves the group's problem and offsets. */
static void ta_group_drop_slot_locked(struct ta_group *group, u32 idx)
{
	u32 i, j, base = 0, n = group->slots[idx].req.n_tensors;

	/* The last add can no longer be taken back as it was. */
	ta_group_undo_drop(group);
	group->gen++;

	for (i = 0; i < idx; i++)
		base += group->slots[i].req.n_tensors;
	memmove(group->offsets + base, group->offsets + base + n,
		(group->n_offsets - base - n) * sizeof(u64));
	group->n_offsets -= n;

	for (i = 0, j = 0; i < group->n_links; i++) {
		struct ta_group_link l = group->links[i];

		if (l.from_member == idx || l.to_member == idx)
			continue;
		l.from_member -= l.from_member > idx;
		l.to_member -= l.to_member > idx;
		group->links[j++] = l;
	}
	group->n_links = j;
	for (i = 0, j = 0; i < group->n_shared; i++) {
		struct ta_group_shared sh = group->shared[i];

		if (sh.member == idx)
			continue;
		sh.member -= sh.member > idx;
		group->shared[j++] = sh;
	}
	group->n_shared = j;

	ta_group_slot_clear(&group->slots[idx]);
	memmove(&group->slots[idx], &group->slots[idx + 1],
		(group->n_members - idx - 1) * sizeof(group->slots[0]));
	group->n_members--;
	memset(&group->slots[group->n_members], 0, sizeof(group->slots[0]));
}

/* Under @group->lock: erase @member and take it out of the group. */
static int ta_group_remove_locked(struct ta_device *ta, struct ta_group *group,
				  struct ta_plan_obj *member,
				  struct list_head *gone)
{
	struct ta_plan_obj *erased;
	u32 idx, i;

	for (idx = 0; idx < group->n_members; idx++)
		if (group->slots[idx].plan == member)
			break;
	if (idx == group->n_members)
		return -ENOENT;
	for (i = 0; i < group->n_links; i++)
		if (group->links[i].from_member == idx &&
		    group->links[i].to_member != idx)
			return -EBUSY;
	xa_lock(&ta->plans);
	erased = __xa_cmpxchg(&ta->plans, member->id, member, NULL, GFP_NOWAIT);
	if (erased == member)
		ta_plan_obj_erased(member);
	xa_unlock(&ta->plans);
	if (erased != member)
		return -ENOENT;
	list_add_tail(&member->reap_node, gone);
	ta_group_drop_slot_locked(group, idx);
	return 0;
}

/**
 * ta_group_obj_destroy() - destroy a group's plan or a member's
 * @ta: the device
 * @plan: a group's plan (its members go with it) or a member's (it leaves
 *	  the group, and what only it used is free for members added later);
 *	  the caller holds a reference
 *
 * Return: 0; -ENOENT when it is no longer in the table; -EBUSY for a
 * member that writes a link a later member reads.
 */
int ta_group_obj_destroy(struct ta_device *ta, struct ta_plan_obj *plan)
{
	struct ta_plan_obj *gplan = plan->group ? plan : plan->group_plan;
	struct ta_group *group = gplan->group;
	struct ta_plan_obj *p, *next;
	LIST_HEAD(gone);
	int err;

	mutex_lock(&group->lock);
	if (plan == gplan)
		err = ta_group_unlink_all_locked(ta, group, gplan, &gone);
	else
		err = ta_group_remove_locked(ta, group, plan, &gone);
	mutex_unlock(&group->lock);
	/* Outside the group's lock: a member's release takes it. */
	list_for_each_entry_safe(p, next, &gone, reap_node) {
		list_del(&p->reap_node);
		ta_plan_obj_unpublish(ta, p);
	}
	return err;
}

