// SPDX-License-Identifier: GPL-2.0
/*
 * ta_group_slice.c - a group's slice of the arena: allocation (charged to
 * the group's account and the dmem cgroup, zeroed before a new owner sees
 * it), release, and the re-plan's move of an idle group and all its
 * members to a new slice at once.
 *
 * Locking as ta_group_obj.c says: &ta_group.lock, then the plan table's.
 */
#include <linux/dma-resv.h>
#include <linux/genalloc.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "include/ta_compat.h"
#include "ta_group_core.h"

/**
 * ta_group_slice_free() - give back a slice's arena bytes and dmem charge
 * @ta: the device
 * @slice: a slice ta_group_slice_alloc() made, or a zeroed one; zeroed
 */
void ta_group_slice_free(struct ta_device *ta,
			 struct ta_group_slice *slice)
{
	if (slice->vaddr)
		gen_pool_free(ta->pool, slice->vaddr, slice->size);
	ta_dmem_uncharge(slice->pool, slice->size);
	memset(slice, 0, sizeof(*slice));
}

/**
 * ta_group_slice_alloc() - a zeroed slice of the arena
 * @ta: the device
 * @size: bytes, page aligned
 * @height: the height the slice is for (reported with pressure events)
 * @slice: out, the slice
 *
 * Return: 0; -ENOSPC when the arena has no room (a pressure event sent);
 * the dmem cgroup's error (-EDQUOT, ...). @slice is zeroed on failure.
 */
int ta_group_slice_alloc(struct ta_device *ta, size_t size,
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

static void ta_group_slice_swap(struct ta_plan_obj *plan,
				struct ta_group_slice *s)
{
	swap(plan->slice_vaddr, s->vaddr);
	swap(plan->slice_dma, s->dma);
	swap(plan->slice_size, s->size);
}

/**
 * ta_group_idle_locked() - whether a group is in no use but the caller's
 * @group: the group; its lock and the plan table's held
 * @gplan: its plan
 * @held: references on @gplan besides its live members' (the table's, the
 *	  caller's lookup, a new member's not yet in a slot)
 *
 * Return: true when nobody but the table holds any live member (no
 * mapping, dma-buf, lookup or kernel user; no member destroyed but still
 * held), nobody but those @held holds @gplan, and no lane and not the
 * group's own reservation object has a fence not yet signalled.
 */
bool ta_group_idle_locked(struct ta_group *group, struct ta_plan_obj *gplan,
			  unsigned int held)
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
	if (kref_read(&gplan->ref) != live + held)
		return false;
	for (i = 0; i < TA_GROUP_MAX_LANES; i++)
		if (!dma_resv_test_signaled(&group->lanes[i],
					    DMA_RESV_USAGE_BOOKKEEP))
			return false;
	return dma_resv_test_signaled(&gplan->own_resv,
				      DMA_RESV_USAGE_BOOKKEEP);
}

/**
 * ta_group_slice_move_locked() - move an idle group to another slice
 * @gplan: the group's plan; its group's lock and the table's held, the
 *	   group idle (ta_group_idle_locked())
 * @slice: the slice to move to (and its dmem charge); it then holds the
 *	   group's former one
 * @offsets: group-wide offsets in @slice of the first @n members' tensors
 * @n: members that move (a member being added or taken back: not)
 */
void ta_group_slice_move_locked(struct ta_plan_obj *gplan,
				struct ta_group_slice *slice,
				const u64 *offsets, u32 n)
{
	struct ta_group *group = gplan->group;
	u32 i, t, base = 0;

	ta_group_slice_swap(gplan, slice);
	swap(gplan->dmem_pool, slice->pool);
	for (i = 0; i < n; i++) {
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
}

/**
 * ta_group_replan_publish() - move an idle group to a new slice and publish
 * @ta: the device
 * @gplan: the group's plan; its group's lock held
 * @owner: the owner the new member counts against
 * @member: the new member, its ID reserved
 * @slice: the new slice; on success it holds the old one
 * @offsets: every member's new offsets, the new member's last
 *
 * If nothing but the table and this call holds the group or any member
 * and no lane has a fence pending, every old member moves to @slice and
 * @offsets and @member is published, at once under the table's lock.
 *
 * Return: 0; -ENOENT when the group left the table; -EBUSY when it is in
 * use; -EDQUOT at max_file_plans. Nothing changed on failure.
 */
int ta_group_replan_publish(struct ta_device *ta,
			    struct ta_plan_obj *gplan,
			    const struct ta_owner *owner,
			    struct ta_plan_obj *member,
			    struct ta_group_slice *slice,
			    const u64 *offsets)
{
	struct ta_group *group = gplan->group;
	int err;

	xa_lock(&ta->plans);
	if (xa_load(&ta->plans, gplan->id) != gplan) {
		err = -ENOENT;
		goto unlock;
	}
	/* The table's, our lookup's, the new member's: 3 beyond the live. */
	if (!ta_group_idle_locked(group, gplan, 3)) {
		err = -EBUSY;
		goto unlock;
	}
	err = ta_group_owner_reserve_locked(owner, 1);
	if (err)
		goto unlock;
	ta_group_slice_move_locked(gplan, slice, offsets, group->n_members);
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

/**
 * ta_group_slice_new() - a slice charged to a group's account
 * @gplan: the group's plan; its user is charged @size bytes
 * @size: bytes, page aligned
 * @height: the height the slice is for
 * @slice: out, the slice
 *
 * Return: 0; -EDQUOT at max_user_bytes; ta_group_slice_alloc()'s error.
 */
int ta_group_slice_new(struct ta_plan_obj *gplan, size_t size,
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

/**
 * ta_group_slice_put() - give back a slice ta_group_slice_new() made
 * @gplan: the group's plan whose user was charged
 * @slice: the slice (one made or one swapped out of @gplan); zeroed
 */
void ta_group_slice_put(struct ta_plan_obj *gplan,
			struct ta_group_slice *slice)
{
	size_t size = slice->size;

	ta_group_slice_free(gplan->ta, slice);
	ta_user_uncharge_bytes(gplan->ta, gplan->user, size);
}
