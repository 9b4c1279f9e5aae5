/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_group_core.h - what the three files of the group core share, and no
 * transport sees: the group as its plan holds it, its members' slots, a
 * slice, and the helpers each file lends the others.
 *
 * ta_group_obj.c	a group's objects: create, read, free, member plans
 * ta_group_member.c	members join (add) and leave (destroy)
 * ta_group_slice.c	slices of the arena, and the re-plan that moves a
 *			group to a new one
 */
#ifndef TA_GROUP_CORE_H
#define TA_GROUP_CORE_H

#include <linux/dma-resv.h>
#include <linux/mutex.h>

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

/**
 * struct ta_group_undo - what the last add changed, kept until its
 * transport has reported the add (ta_group_obj_add_commit()) or takes it
 * back (ta_group_obj_add_undo()) because the report could not reach the
 * caller
 * @member_id: the added member's plan ID; 0: nothing kept
 * @gen: &ta_group.gen right after the add; any later change voids this
 * @n_links: the group's links before the add
 * @n_shared: its shared entries before
 * @height: its height before
 * @lower_bound: its lower bound before
 * @optimal: whether it was proven optimal before
 * @n_offsets: entries in @offsets
 * @offsets: the group-wide offsets before (owned)
 * @slice: a re-plan's old slice, still allocated and charged; or zeroed
 * @ta: the device of @slice
 * @user: the account @slice is charged to
 */
struct ta_group_undo {
	u32 member_id;
	u64 gen;
	u32 n_links;
	u32 n_shared;
	u64 height;
	u64 lower_bound;
	bool optimal;
	u32 n_offsets;
	u64 *offsets;
	struct ta_group_slice slice;
	struct ta_device *ta;
	struct ta_user *user;
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
 * @gen: bumped by every change of the members, links or offsets
 * @undo: what the last add changed, while its transport may take it back
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
	u64 gen;
	struct ta_group_undo undo;
	struct dma_resv lanes[TA_GROUP_MAX_LANES];
};

/* ta_group_obj.c */
void ta_group_slot_clear(struct ta_group_slot *slot);
int ta_group_slot_fill(struct ta_group_slot *slot,
		       const struct ta_group_member_request *m);
void ta_group_problem(struct ta_group *group, u32 n,
		      struct ta_group_member_problem *mp,
		      struct ta_group_problem *gp);
void ta_group_plan_discard(struct ta_plan_obj *plan);
struct ta_plan_obj *ta_group_member_new(struct ta_plan_obj *gplan,
					const struct ta_owner *owner,
					u32 index, const u64 *offsets);
int ta_group_owner_reserve_locked(const struct ta_owner *owner, u32 n);
int ta_group_reserve_id(struct ta_device *ta, u32 *id);
int ta_group_request_check(const struct ta_group_request *req,
			   u32 n_before, u32 tensors_before,
			   const char **msg);
const char *ta_group_solve_msg(int err);
int ta_group_publish(struct ta_device *ta, struct ta_plan_obj *gplan,
		     const struct ta_owner *owner, u32 n_owner,
		     struct ta_plan_obj **plans, u32 n);
struct ta_plan_obj *ta_group_lookup(struct ta_device *ta, u32 id,
				    const struct ta_owner *caller,
				    const char **msg);

/* ta_group_member.c */
void ta_group_undo_drop(struct ta_group *group);

/* ta_group_slice.c */
void ta_group_slice_free(struct ta_device *ta,
			 struct ta_group_slice *slice);
int ta_group_slice_alloc(struct ta_device *ta, size_t size,
			 u64 height, struct ta_group_slice *slice);
void ta_group_slice_move_locked(struct ta_plan_obj *gplan,
				struct ta_group_slice *slice,
				const u64 *offsets, u32 n);
bool ta_group_idle_locked(struct ta_group *group, struct ta_plan_obj *gplan,
			  unsigned int held);
int ta_group_replan_publish(struct ta_device *ta,
			    struct ta_plan_obj *gplan,
			    const struct ta_owner *owner,
			    struct ta_plan_obj *member,
			    struct ta_group_slice *slice,
			    const u64 *offsets);
int ta_group_slice_new(struct ta_plan_obj *gplan, size_t size,
		       u64 height, struct ta_group_slice *slice);
void ta_group_slice_put(struct ta_plan_obj *gplan,
			struct ta_group_slice *slice);

#endif /* TA_GROUP_CORE_H */
