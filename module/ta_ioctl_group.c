// SPDX-License-Identifier: GPL-2.0
/*
 * ta_ioctl_group.c - the group ioctls of /dev/tensorarena: GROUP_CREATE,
 * GROUP_ADD, GROUP_GET (uapi/linux/tensorarena.h, &struct ta_group_create).
 *
 * Each handler checks every field of the caller's struct before it copies
 * an array in, copies the arrays in the caller's element sizes (as
 * PLAN_CREATE does: zero-extended, -E2BIG for unknown non-zero bytes),
 * checks every element, and hands a &struct ta_group_request to the core
 * (ta_group_obj.c). A failed call changes nothing.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "include/ta_compat.h"
#include "ta_group_obj.h"

/* The core's message for a refused request, once per few seconds. */
static void ta_ioctl_group_log(struct ta_device *ta, const char *msg)
{
	if (msg)
		dev_info_ratelimited(ta->dev, "%s\n", msg);
}

static bool ta_group_strategy_ok(u32 strategy)
{
	return strategy < TA_STRATEGY_COUNT &&
	       strategy != TA_STRATEGY_PINGPONG;
}

/* One member's struct into a checked request with its arrays copied. */
static int ta_ioctl_group_member(const struct ta_group_member *um,
				 u32 strategy, u64 default_align,
				 struct ta_group_member_request *m)
{
	struct ta_plan_create pc = {
		.tensors = um->tensors,
		.tensor_size = um->tensor_size,
		.ops = um->ops,
		.op_size = um->op_size,
		.refs = um->refs,
	};
	struct ta_plan_request *req = &m->plan;
	int err;

	if ((um->flags & ~TA_CREATE_LIFETIMES) || um->plan_id ||
	    ta_reserved_nonzero(um) || um->lane >= TA_GROUP_MAX_LANES)
		return -EINVAL;
	m->lane = um->lane;
	req->flags = um->flags;
	req->strategy = strategy;
	req->default_align = default_align;
	req->n_tensors = um->n_tensors;
	req->n_ops = um->n_ops;
	req->n_refs = um->n_refs;
	err = ta_request_check(req, 0, 0, READ_ONCE(ta_max_plan_ms));
	if (err)
		return err;
	if (req->flags & TA_CREATE_LIFETIMES)
		return ta_copy_lifetimes(&pc, req);
	return ta_copy_graph(&pc, req);
}

/* The members' structs (room for @n) into @req->members. */
static int ta_ioctl_group_members(u64 uptr, u32 n, u32 usize, u32 strategy,
				  u64 default_align,
				  struct ta_group_request *req)
{
	struct ta_group_member *um;
	int err = 0;
	u32 i;

	um = ta_copy_elems(uptr, n, usize, sizeof(*um),
			   offsetofend(struct ta_group_member, reserved));
	if (IS_ERR(um))
		return PTR_ERR(um);
	req->members = kvcalloc(n, sizeof(*req->members), TA_GFP_USER);
	if (!req->members) {
		err = -ENOMEM;
		goto free_um;
	}
	req->n_members = n;
	for (i = 0; i < n && !err; i++)
		err = ta_ioctl_group_member(&um[i], strategy, default_align,
					    &req->members[i]);
free_um:
	kvfree(um);
	return err;
}

/*
 * Copy the links and shared entries in, and check their member indices
 * against @n_members (the group's members and the request's) and every pad.
 */
static int ta_ioctl_group_refs(u64 links, u32 link_size, u64 shared,
			       u32 shared_size, u32 n_members,
			       struct ta_group_request *req)
{
	u32 i;

	if (req->n_links) {
		req->links = ta_copy_elems(links, req->n_links, link_size,
					   sizeof(*req->links),
					   sizeof(*req->links));
		if (IS_ERR(req->links)) {
			int err = PTR_ERR(req->links);

			req->links = NULL;
			return err;
		}
	}
	for (i = 0; i < req->n_links; i++) {
		const struct ta_group_link *l = &req->links[i];

		if (l->from_member >= n_members || l->to_member >= n_members ||
		    l->from_member == l->to_member)
			return -EINVAL;
	}
	if (req->n_shared) {
		req->shared = ta_copy_elems(shared, req->n_shared, shared_size,
					    sizeof(*req->shared),
					    sizeof(*req->shared));
		if (IS_ERR(req->shared)) {
			int err = PTR_ERR(req->shared);

			req->shared = NULL;
			return err;
		}
	}
	for (i = 0; i < req->n_shared; i++)
		if (req->shared[i].member >= n_members || req->shared[i].pad)
			return -EINVAL;
	return 0;
}

/*
 * Tensor indices of links and shared entries, for the members the request
 * has: member index @first and on is @req->members[0] and on (the old
 * members' tensors the core checks).
 */
static int ta_ioctl_group_tensors(const struct ta_group_request *req,
				  u32 first)
{
	u32 i;

#define TA_TENSORS_OF(m) (req->members[(m) - first].plan.n_tensors)
	for (i = 0; i < req->n_links; i++) {
		const struct ta_group_link *l = &req->links[i];

		if ((l->from_member >= first &&
		     l->from_tensor >= TA_TENSORS_OF(l->from_member)) ||
		    (l->to_member >= first &&
		     l->to_tensor >= TA_TENSORS_OF(l->to_member)))
			return -EINVAL;
	}
	for (i = 0; i < req->n_shared; i++) {
		const struct ta_group_shared *sh = &req->shared[i];

		if (sh->member >= first && sh->tensor >= TA_TENSORS_OF(sh->member))
			return -EINVAL;
	}
#undef TA_TENSORS_OF
	return 0;
}

/* The IDs of the new members into the caller's member structs. */
static int ta_ioctl_group_put_ids(u64 uptr, u32 usize, const u32 *ids, u32 n)
{
	u8 __user *dst = u64_to_user_ptr(uptr);
	u32 i;

	for (i = 0; i < n; i++, dst += usize)
		if (put_user(ids[i], (u32 __user *)(dst +
			     offsetof(struct ta_group_member, plan_id))))
			return -EFAULT;
	return 0;
}

/* Group budget: as a member's (ta_request_check()). */
static int ta_ioctl_group_budget(u64 budget_ns, u64 budget_steps,
				 struct ta_budget *budget)
{
	struct ta_plan_request probe = {};
	int err;

	err = ta_request_check(&probe, budget_ns, budget_steps,
			       READ_ONCE(ta_max_plan_ms));
	*budget = probe.budget;
	return err;
}

static int ta_ioctl_group_create(struct ta_device *ta,
				 const struct ta_owner *caller, void *arg)
{
	struct ta_group_create *args = arg;
	struct ta_group_request req = {
		.flags = args->flags,
		.strategy = args->strategy,
		.capacity = args->capacity,
		.n_links = args->n_links,
		.n_shared = args->n_shared,
	};
	struct ta_group_summary *sum;
	int err;

	if ((args->flags & ~TA_GROUP_DRY_RUN) || ta_reserved_nonzero(args) ||
	    !ta_group_strategy_ok(args->strategy))
		return -EINVAL;
	if (!args->n_members)
		return -EINVAL;
	if (args->n_members > TA_GROUP_MAX_MEMBERS ||
	    args->n_links > TA_GROUP_MAX_LINKS ||
	    args->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	if (args->default_align > TA_PLAN_MAX_ALIGN ||
	    (args->default_align && !is_power_of_2(args->default_align)))
		return -EINVAL;
	if (args->capacity > ta->size)
		return -ENOSPC;
	err = ta_ioctl_group_budget(args->budget_ns, args->budget_steps,
				    &req.budget);
	if (err)
		return err;
	sum = kzalloc_obj(*sum, GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	/* One of the uid's create slots, before anything is copied. */
	err = ta_create_begin(ta, caller->uid);
	if (err)
		goto free_sum;
	err = ta_ioctl_group_members(args->members, args->n_members,
				     args->member_size, args->strategy,
				     args->default_align, &req);
	if (!err)
		err = ta_ioctl_group_refs(args->links, args->link_size,
					  args->shared, args->shared_size,
					  args->n_members, &req);
	if (!err)
		err = ta_ioctl_group_tensors(&req, 0);
	if (!err)
		err = ta_group_obj_create(ta, caller, &req, sum);
	if (err)
		ta_ioctl_group_log(ta, sum->msg);
	if (!err && sum->group_id) {
		err = ta_ioctl_group_put_ids(args->members, args->member_size,
					     sum->member_ids, args->n_members);
		if (err)
			ta_plan_obj_destroy(ta, sum->group_id, caller);
	}
	ta_group_request_free(&req);
	ta_create_end(ta, caller->uid);
	if (err)
		goto free_sum;
	args->group_id = sum->group_id;
	args->optimal = sum->optimal;
	args->height = sum->height;
	args->lower_bound = sum->lower_bound;
	args->plan_time_ns = sum->plan_time_ns;
	args->mmap_offset = sum->mmap_offset;
	args->slice_size = sum->slice_size;
free_sum:
	kfree(sum);
	return err;
}

/* The group's ID could not reach userspace: take the group back. */
static void ta_ioctl_group_create_undo(struct ta_device *ta,
				       const struct ta_owner *caller, void *arg)
{
	struct ta_group_create *args = arg;

	if (args->group_id)
		ta_plan_obj_destroy(ta, args->group_id, caller);
}

static int ta_ioctl_group_add(struct ta_device *ta,
			      const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_group_add *ga = arg;
	struct ta_group_add *args = &ga->args;
	struct ta_group_request req = {
		.flags = args->flags,
		.strategy = args->strategy,
		.n_links = args->n_links,
		.n_shared = args->n_shared,
	};
	struct ta_group_summary *sum = NULL;
	struct ta_group_info *info;
	int err;

	if ((args->flags & ~TA_GROUP_ADD_REPLAN) || ta_reserved_nonzero(args) ||
	    !ta_group_strategy_ok(args->strategy))
		return -EINVAL;
	if (args->n_links > TA_GROUP_MAX_LINKS ||
	    args->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	err = ta_ioctl_group_budget(args->budget_ns, 0, &req.budget);
	if (err)
		return err;
	info = kzalloc_obj(*info, GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	err = ta_group_obj_info(ta, caller, args->group_id, info);
	if (err)
		goto free_info;
	err = -ENOMEM;
	sum = kzalloc_obj(*sum, GFP_KERNEL);
	if (!sum)
		goto free_info;
	err = ta_create_begin(ta, caller->uid);
	if (err)
		goto free_info;
	err = ta_ioctl_group_members(args->member, 1, args->member_size,
				     args->strategy, 0, &req);
	if (!err)
		err = ta_ioctl_group_refs(args->links, args->link_size,
					  args->shared, args->shared_size,
					  info->n_members + 1, &req);
	if (!err)
		err = ta_ioctl_group_tensors(&req, info->n_members);
	if (!err)
		err = ta_group_obj_add(ta, caller, args->group_id, &req, sum);
	if (err)
		ta_ioctl_group_log(ta, sum->msg);
	if (!err) {
		err = ta_ioctl_group_put_ids(args->member, args->member_size,
					     sum->member_ids, 1);
		if (err)
			ta_group_obj_add_undo(ta, caller, args->group_id,
					      sum->member_ids[0]);
	}
	ta_group_request_free(&req);
	ta_create_end(ta, caller->uid);
	if (!err) {
		args->height = sum->height;
		ga->member_id = sum->member_ids[0];
	}
free_info:
	kfree(sum);
	kfree(info);
	return err;
}

/* The result reached userspace: the group forgets how to take it back. */
static void ta_ioctl_group_add_commit(struct ta_device *ta,
				      const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_group_add *ga = arg;

	ta_group_obj_add_commit(ta, caller, ga->args.group_id, ga->member_id);
}

/* The height could not reach userspace: the group is as before the add. */
static void ta_ioctl_group_add_undo(struct ta_device *ta,
				    const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_group_add *ga = arg;

	ta_group_obj_add_undo(ta, caller, ga->args.group_id, ga->member_id);
}

static int ta_ioctl_group_get(struct ta_device *ta,
			      const struct ta_owner *caller, void *arg)
{
	struct ta_group_get *args = arg;
	struct ta_group_info *info;
	u32 room = args->n_members;
	int err;

	if (args->flags || ta_reserved_nonzero(args))
		return -EINVAL;
	info = kzalloc_obj(*info, GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	err = ta_group_obj_info(ta, caller, args->group_id, info);
	if (err)
		goto free_info;
	args->n_members = info->n_members;
	args->n_lanes = info->n_lanes;
	args->height = info->height;
	args->lower_bound = info->lower_bound;
	args->slice_size = info->slice_size;
	args->mmap_offset = info->mmap_offset;
	if (!args->members)
		goto free_info;
	if (room < info->n_members) {
		err = -ENOSPC;
		goto free_info;
	}
	if (copy_to_user(u64_to_user_ptr(args->members), info->member_ids,
			 info->n_members * sizeof(u32)))
		err = -EFAULT;
free_info:
	kfree(info);
	return err;
}

const struct ta_ioctl_desc ta_ioctl_group_descs[TA_IOCTL_GROUP_DESCS] = {
	{
		.cmd = TA_IOCTL_GROUP_CREATE,
		.min_size = offsetofend(struct ta_group_create, reserved),
		.needs_write = true,
		.handler = ta_ioctl_group_create,
		.undo = ta_ioctl_group_create_undo,
	},
	{
		.cmd = TA_IOCTL_GROUP_ADD,
		.min_size = offsetofend(struct ta_group_add, reserved),
		.needs_write = true,
		.handler = ta_ioctl_group_add,
		.commit = ta_ioctl_group_add_commit,
		.undo = ta_ioctl_group_add_undo,
	},
	{
		.cmd = TA_IOCTL_GROUP_GET,
		.min_size = offsetofend(struct ta_group_get, reserved),
		.handler = ta_ioctl_group_get,
		.copy_on_enospc = true,
	},
};
