// SPDX-License-Identifier: GPL-2.0
/*
 * ta_group_obj.c - groups: several plans (members) planned into one slice.
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
 */
#include <linux/dma-resv.h>
#include <linux/genalloc.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "include/ta_compat.h"
#include "ta_group_obj.h"

/**
 * struct ta_group_slot - one member as the group keeps it
 * @id: the member's plan ID
 * @plan: the member's plan while it lives (not a reference: its release
 *	  clears it, ta_group_obj_forget()), or NULL
 * @lane: its lane
 * @req: its request, arrays copied and owned
 * @graph: its graph (graph form), over @req's arrays
 * @derived: the lifetimes derived from @graph, or NULL (lifetime form)
 */
struct ta_group_slot {
	u32 id;
	struct ta_plan_obj *plan;
	u32 lane;
	struct ta_plan_request req;
	struct ta_graph graph;
	struct ta_buffer *derived;
};

/**
 * struct ta_group - what a group's plan holds besides the slice
 * @lock: protects every field below but @lanes (which lock themselves)
 * @strategy: %TA_STRATEGY_* the group was planned with
 * @n_members: slots in use
 * @slots: the members, in member order
 * @n_links: entries in @links
 * @links: the links, member indices into @slots
 * @n_shared: entries in @shared
 * @shared: the shared tensors
 * @n_offsets: entries in @offsets: every member's tensors
 * @offsets: group-wide offsets from the slice (ta_group_index())
 * @lanes: one reservation object per lane, shared by its members' plans
 */
struct ta_group {
	struct mutex lock; /* every field but @lanes */
	u32 strategy;
	u32 n_members;
	struct ta_group_slot slots[TA_GROUP_MAX_MEMBERS];
	u32 n_links;
	struct ta_group_link links[TA_GROUP_MAX_LINKS];
	u32 n_shared;
	struct ta_group_shared shared[TA_GROUP_MAX_SHARED];
	u32 n_offsets;
	u64 *offsets;
	struct dma_resv lanes[TA_GROUP_MAX_LANES];
};

static void *ta_group_dup(const void *src, size_t n, size_t size)
{
	void *dst = kvcalloc(max_t(size_t, n, 1), size, TA_GFP_USER);

	if (dst && n)
		memcpy(dst, src, n * size);
	return dst;
}

static void ta_group_slot_clear(struct ta_group_slot *slot)
{
	ta_request_free(&slot->req);
	kvfree(slot->derived);
	memset(slot, 0, sizeof(*slot));
}

/* Copy a transport's member into @slot and derive its problem. */
static int ta_group_slot_fill(struct ta_group_slot *slot,
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

/* The planner's view of the first @n slots (@mp: room for @n). */
static void ta_group_problem(struct ta_group *group, u32 n,
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

/* An unpublished plan ta_group_plan_new() made, and no more. */
static void ta_group_plan_discard(struct ta_plan_obj *plan)
{
	kvfree(plan->exportable);
	dma_resv_fini(&plan->own_resv);
	kvfree(plan);
}

/* Slot @index of @gplan's group as a member plan, not yet published. */
static struct ta_plan_obj *ta_group_member_new(struct ta_plan_obj *gplan,
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

/* @n more plans among @owner's (max_file_plans), under the table's lock. */
static int ta_group_owner_reserve_locked(const struct ta_owner *owner, u32 n)
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

/* Reserve a plan ID (a zero entry: lookups do not see it). */
static int ta_group_reserve_id(struct ta_device *ta, u32 *id)
{
	int err = xa_alloc_cyclic(&ta->plans, id, NULL,
				  XA_LIMIT(1, TA_PLAN_ID_MAX),
				  &ta->next_plan_id, GFP_KERNEL_ACCOUNT);

	if (err < 0)
		return err == -EBUSY ? -ENOSPC : err;
	return 0;
}

/* The request's shape: what needs no copy and no planner. */
static int ta_group_request_check(const struct ta_group_request *req,
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

static const char *ta_group_solve_msg(int err)
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

/*
 * Publish the reserved IDs @ids of @plans (@n of them) at once, after
 * checking, under the table's lock, that @gplan is still in the table
 * (@gplan NULL: a new group, first of @plans) and that @owner may hold
 * @n_owner more plans.
 */
static int ta_group_publish(struct ta_device *ta, struct ta_plan_obj *gplan,
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
 * struct ta_group_slice - a slice of the arena and its charges
 * @vaddr: kernel address
 * @dma: DMA address
 * @size: bytes
 * @pool: the dmem cgroup pool charged with @size, or NULL
 */
struct ta_group_slice {
	unsigned long vaddr;
	dma_addr_t dma;
	size_t size;
	struct dmem_cgroup_pool_state *pool;
};

/* Give back a slice ta_group_slice_alloc() made: arena and dmem. */
static void ta_group_slice_free(struct ta_device *ta,
				struct ta_group_slice *slice)
{
	if (slice->vaddr)
		gen_pool_free(ta->pool, slice->vaddr, slice->size);
	ta_dmem_uncharge(slice->pool, slice->size);
	memset(slice, 0, sizeof(*slice));
}

/* @size bytes of arena, charged to the dmem cgroup, zeroed. */
static int ta_group_slice_alloc(struct ta_device *ta, size_t size,
				u64 height, struct ta_group_slice *slice)
{
	int err;

	memset(slice, 0, sizeof(*slice));
	if (height > ta->size || size > ta->size) {
		ta_plan_obj_notify(ta, TA_EVENT_PRESSURE, NULL, height);
		return -ENOSPC;
	}
	err = ta_dmem_charge(ta, size, &slice->pool);
	if (err)
		return err;
	slice->size = size;
	slice->vaddr = gen_pool_alloc(ta->pool, size);
	if (!slice->vaddr) {
		ta_plan_obj_notify(ta, TA_EVENT_PRESSURE, NULL, height);
		ta_group_slice_free(ta, slice);
		return -ENOSPC;
	}
	slice->dma = gen_pool_virt_to_phys(ta->pool, slice->vaddr);
	/* A new owner never sees what a previous one wrote. */
	memset((void *)slice->vaddr, 0, size);
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

/* A group's plan by ID, referenced; -EINVAL for a plan that is no group. */
static struct ta_plan_obj *ta_group_lookup(struct ta_device *ta, u32 id,
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

static void ta_group_slice_swap(struct ta_plan_obj *plan,
				struct ta_group_slice *s)
{
	swap(plan->slice_vaddr, s->vaddr);
	swap(plan->slice_dma, s->dma);
	swap(plan->slice_size, s->size);
}

/*
 * Under @group->lock and the table's lock: nobody but the table and this
 * call holds the group's plan or any member's (no mapping, dma-buf,
 * lookup or kernel user; no member destroyed but still held), and no lane
 * has a fence not yet signalled.
 */
static bool ta_group_idle_locked(struct ta_group *group,
				 struct ta_plan_obj *gplan)
{
	unsigned int live = 0;
	u32 i;

	for (i = 0; i < group->n_members; i++) {
		struct ta_plan_obj *m = group->slots[i].plan;

		if (!m)
			continue;
		if (kref_read(&m->ref) != 1)
			return false;
		live++;
	}
	/* The table's, each live member's, our lookup's, the new member's. */
	if (kref_read(&gplan->ref) != live + 3)
		return false;
	for (i = 0; i < TA_GROUP_MAX_LANES; i++)
		if (!dma_resv_test_signaled(&group->lanes[i],
					    DMA_RESV_USAGE_BOOKKEEP))
			return false;
	return dma_resv_test_signaled(&gplan->own_resv,
				      DMA_RESV_USAGE_BOOKKEEP);
}

/*
 * Under @group->lock: if the group is idle, move it to @slice with
 * @offsets (every old member's placements too) and publish @member, at
 * once under the table's lock; @slice then holds the old slice.
 */
static int ta_group_replan_publish(struct ta_device *ta,
				   struct ta_plan_obj *gplan,
				   const struct ta_owner *owner,
				   struct ta_plan_obj *member,
				   struct ta_group_slice *slice,
				   const u64 *offsets)
{
	struct ta_group *group = gplan->group;
	u32 i, t, base = 0;
	int err;

	xa_lock(&ta->plans);
	if (xa_load(&ta->plans, gplan->id) != gplan) {
		err = -ENOENT;
		goto unlock;
	}
	if (!ta_group_idle_locked(group, gplan)) {
		err = -EBUSY;
		goto unlock;
	}
	err = ta_group_owner_reserve_locked(owner, 1);
	if (err)
		goto unlock;
	ta_group_slice_swap(gplan, slice);
	swap(gplan->dmem_pool, slice->pool);
	for (i = 0; i < group->n_members; i++) {
		struct ta_group_slot *slot = &group->slots[i];
		struct ta_plan_obj *m = slot->plan;

		if (m) {
			m->slice_vaddr = gplan->slice_vaddr;
			m->slice_dma = gplan->slice_dma;
			m->slice_size = gplan->slice_size;
			for (t = 0; t < slot->req.n_tensors; t++)
				m->placements[t].offset = offsets[base + t];
		}
		base += slot->req.n_tensors;
	}
	member->slice_vaddr = gplan->slice_vaddr;
	member->slice_dma = gplan->slice_dma;
	member->slice_size = gplan->slice_size;
	__xa_store(&ta->plans, member->id, member, GFP_NOWAIT);
unlock:
	xa_unlock(&ta->plans);
	if (err)
		return err;
	atomic_inc(&ta->n_plans);
	ta_plan_obj_notify(ta, TA_EVENT_PLAN_CREATED, member, 0);
	return 0;
}

/* A new slice of @size bytes, charged to @gplan's account. */
static int ta_group_slice_new(struct ta_plan_obj *gplan, size_t size,
			      u64 height, struct ta_group_slice *slice)
{
	int err;

	err = ta_user_charge_bytes(gplan->ta, gplan->user, size);
	if (err)
		return err;
	err = ta_group_slice_alloc(gplan->ta, size, height, slice);
	if (err)
		ta_user_uncharge_bytes(gplan->ta, gplan->user, size);
	return err;
}

/* Give back a slice ta_group_slice_new() made (or one swapped out). */
static void ta_group_slice_put(struct ta_plan_obj *gplan,
			       struct ta_group_slice *slice)
{
	size_t size = slice->size;

	ta_group_slice_free(gplan->ta, slice);
	ta_user_uncharge_bytes(gplan->ta, gplan->user, size);
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
	if (replan)
		/* The old slice on success, the unused new one on failure. */
		ta_group_slice_put(gplan, &slice);
	if (err) {
		if (err == -EBUSY)
			out->msg = "group add: re-plan of a group in use (mapped, exported, jobs)";
		else
			out->msg = err == -ENOENT ? "group: no such group" :
				   "group add: max_file_plans";
		ta_plan_obj_put(gplan);
		member->group_plan = NULL;
		goto erase_id;
	}
	slot->id = member->id;
	slot->plan = member;
	group->n_members = n + 1;
	group->n_links += req->n_links;
	group->n_shared += req->n_shared;
	kvfree(group->offsets);
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
