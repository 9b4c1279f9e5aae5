/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_group_obj.h - groups of plans in one slice: the core both transports
 * (ta_ioctl.c, the netlink handlers) call. Transports copy and check the
 * caller's arrays into a &struct ta_group_request; everything after that
 * (limits, planning, the slice, the IDs, the reservation objects) is the
 * core's: ta_group_obj.c, ta_group_member.c and ta_group_slice.c, which
 * share ta_group_core.h.
 */
#ifndef TA_GROUP_OBJ_H
#define TA_GROUP_OBJ_H

#include "ta_internal.h"
#include "planner/ta_group.h"

struct netlink_ext_ack;

/**
 * struct ta_group_member_request - one member as a transport hands it in
 * @lane: &ta_group_member.lane
 * @plan: the member's graph or lifetimes, in the form ta_plan_obj_create()
 *	  takes (@plan.strategy, @plan.budget and @plan.fixed unused: the
 *	  group's count); checked by the transport with ta_request_check()
 */
struct ta_group_member_request {
	u32 lane;
	struct ta_plan_request plan;
};

/**
 * struct ta_group_request - a group create (or add) request
 * @flags: %TA_GROUP_* (create) or %TA_GROUP_ADD_* (add)
 * @strategy: %TA_STRATEGY_*
 * @budget: planning budget of the whole request
 * @capacity: &ta_group_create.capacity (create only)
 * @n_members: entries in @members (1 for add)
 * @members: the members, copied in
 * @n_links: entries in @links
 * @links: copied in; for add, member index "the group's member count" is
 *	   the new member
 * @n_shared: entries in @shared
 * @shared: copied in
 */
struct ta_group_request {
	u32 flags;
	u32 strategy;
	struct ta_budget budget;
	u64 capacity;
	u32 n_members;
	struct ta_group_member_request *members;
	u32 n_links;
	struct ta_group_link *links;
	u32 n_shared;
	struct ta_group_shared *shared;
};

/**
 * struct ta_group_summary - what a create or add reports back
 * @group_id: the group's plan ID (0 for a dry run)
 * @member_ids: per member of the request, its plan ID (room for
 *		%TA_GROUP_MAX_MEMBERS)
 * @height: the group's height
 * @lower_bound: its lower bound
 * @plan_time_ns: planning time
 * @mmap_offset: mmap offset of the slice
 * @slice_size: bytes of arena held
 * @optimal: proven optimal
 * @msg: on failure, a static message for the caller (netlink extack), or
 *	 NULL
 */
struct ta_group_summary {
	u32 group_id;
	u32 member_ids[TA_GROUP_MAX_MEMBERS];
	u64 height;
	u64 lower_bound;
	u64 plan_time_ns;
	u64 mmap_offset;
	u64 slice_size;
	bool optimal;
	const char *msg;
};

/**
 * struct ta_group_info - what GROUP_GET reports
 * @n_members: members of the group
 * @member_ids: their plan IDs, in member order
 * @n_lanes: highest lane used plus one (0 with no member)
 * @height: the group's height
 * @lower_bound: its lower bound
 * @slice_size: bytes of arena held
 * @mmap_offset: mmap offset of the slice
 */
struct ta_group_info {
	u32 n_members;
	u32 member_ids[TA_GROUP_MAX_MEMBERS];
	u32 n_lanes;
	u64 height;
	u64 lower_bound;
	u64 slice_size;
	u64 mmap_offset;
};

int ta_group_obj_create(struct ta_device *ta, const struct ta_owner *owner,
			const struct ta_group_request *req,
			struct ta_group_summary *out);
int ta_group_obj_add(struct ta_device *ta, const struct ta_owner *owner,
		     u32 group_id, const struct ta_group_request *req,
		     struct ta_group_summary *out);
void ta_group_obj_add_commit(struct ta_device *ta, const struct ta_owner *owner,
			     u32 group_id, u32 member_id);
void ta_group_obj_add_undo(struct ta_device *ta, const struct ta_owner *owner,
			   u32 group_id, u32 member_id);
int ta_group_obj_info(struct ta_device *ta, const struct ta_owner *caller,
		      u32 group_id, struct ta_group_info *out);
void ta_group_request_free(struct ta_group_request *req);

#endif /* TA_GROUP_OBJ_H */
