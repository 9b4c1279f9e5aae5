/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_group.h - planning several graphs (a group's members) into one slice.
 *
 * The model (uAPI: &struct ta_group_create):
 *  - members of one lane run one after another in member order: lane L's
 *    time is its members' runs laid end to end, and a member's tensors are
 *    live in its own window only;
 *  - members of different lanes may run at the same time: no tensor of one
 *    lane may share a byte with a tensor of another;
 *  - a member's constant, persistent and exportable tensors, shared tensors
 *    (&struct ta_group_shared) and links across lanes live for the whole
 *    run of the group ("always"): they share a byte with nothing;
 *  - a link within a lane is one tensor from its producer in the first
 *    member to its last reader in the second.
 *
 * Group-wide tensor index: member m's tensor t is ta_group_index(gp, m, t),
 * the tensors of every member before m, plus t.
 *
 * Plain C: see ta_env.h.
 */
#ifndef TA_GROUP_H
#define TA_GROUP_H

#include "ta_planner.h"

/**
 * struct ta_group_member_problem - one member, as ta_plan_solve() takes a graph
 * @problem: the member (graph or trace form; &ta_problem.fixed NULL)
 * @lane: below %TA_GROUP_MAX_LANES
 */
struct ta_group_member_problem {
	struct ta_problem problem;
	u32 lane;
};

/**
 * struct ta_group_problem - what to plan
 * @n_members: 1 to %TA_GROUP_MAX_MEMBERS
 * @members: the members, in run order within each lane
 * @n_links: 0 to %TA_GROUP_MAX_LINKS
 * @links: the uAPI's links, member indices into @members
 * @n_shared: 0 to %TA_GROUP_MAX_SHARED
 * @shared: the uAPI's shared tensors
 */
struct ta_group_problem {
	u32 n_members;
	const struct ta_group_member_problem *members;
	u32 n_links;
	const struct ta_group_link *links;
	u32 n_shared;
	const struct ta_group_shared *shared;
};

/**
 * struct ta_group_buffer - one tensor in the group's time
 * @size: bytes (the largest of its class's sizes for a root)
 * @align: alignment
 * @lane: its member's lane
 * @start: first step in its lane's time at which it is live
 * @end: first step at which it no longer is
 * @always: live for the whole run of the group: overlaps every buffer
 * @root: group-wide index of the buffer whose bytes it is (links, shared
 *	  keys and in-place aliases make several tensors one; its own index
 *	  otherwise); only roots are planned, the others take their offset
 *
 * Two roots a and b conflict (may be live at once, must share no byte)
 * when either is @always, or their lanes differ, or their lanes are the
 * same and [start, end) overlap.
 */
struct ta_group_buffer {
	u64 size;
	u64 align;
	u32 lane;
	u32 start;
	u32 end;
	bool always;
	u32 root;
};

/**
 * struct ta_group_result - what ta_group_solve() and ta_group_extend() found
 * @height: bytes the group needs
 * @lower_bound: no plan of the group is lower
 * @time_ns: planning time
 * @optimal: proven optimal
 * @conflict: on -EINVAL from ta_group_check(), the first broken rule, with
 *	      group-wide indices
 */
struct ta_group_result {
	u64 height;
	u64 lower_bound;
	u64 time_ns;
	bool optimal;
	struct ta_conflict conflict;
};

/**
 * ta_group_tensor_count() - tensors of every member of a group
 * @gp: the group
 *
 * Return: the sum of the members' &ta_problem.n_buffers.
 */
u32 ta_group_tensor_count(const struct ta_group_problem *gp);

/**
 * ta_group_index() - group-wide index of a member's tensor
 * @gp: the group
 * @member: the member's index
 * @tensor: the tensor's index in the member
 *
 * Return: the index; O(@member).
 */
u32 ta_group_index(const struct ta_group_problem *gp, u32 member, u32 tensor);

/**
 * ta_group_layout() - check a group and lay its tensors out in its time
 * @gp: the group
 * @out: ta_group_tensor_count() entries
 *
 * Validates every member as ta_plan_solve() would (graph, lifetimes,
 * aliases), then every link and shared entry against the rules of the
 * uAPI (&struct ta_group_link, &struct ta_group_shared).
 *
 * Return: 0; -EINVAL for a bad member, lane, link or shared entry; -E2BIG
 * beyond the limits; -ENOMEM; -EINTR.
 */
int ta_group_layout(const struct ta_group_problem *gp,
		    struct ta_group_buffer *out);

/**
 * ta_group_solve() - plan a group
 * @gp: the group
 * @strategy: %TA_STRATEGY_* (not FIXED or PINGPONG: -EINVAL)
 * @budget: the whole group's budget
 * @offsets: out, ta_group_tensor_count() offsets from the group's slice,
 *	     group-wide indices
 * @res: out
 *
 * Every lane is planned with @strategy and the lanes and the always-live
 * tensors get disjoint bytes. The plan passes ta_group_check().
 *
 * Return: 0, or an error of ta_group_layout() or ta_plan_solve().
 */
int ta_group_solve(const struct ta_group_problem *gp, u32 strategy,
		   const struct ta_budget *budget, u64 *offsets,
		   struct ta_group_result *res);

/**
 * ta_group_extend() - place new members in a planned group, moving nothing
 * @gp: the group with its new members last
 * @n_old: members of @gp already planned (the first @n_old)
 * @old_offsets: their tensors' offsets (group-wide indices, which the
 *		 first @n_old members keep)
 * @capacity: bytes of the slice: every tensor must end within it
 * @strategy: how to place the new members' tensors
 * @budget: budget
 * @offsets: out, ta_group_tensor_count() offsets: @old_offsets unchanged,
 *	     then the new members'
 * @res: out; @res->height is the group's new height
 *
 * Return: 0; -ENOSPC when the new members do not fit within @capacity
 * around what may be live beside them; errors of ta_group_layout().
 */
int ta_group_extend(const struct ta_group_problem *gp, u32 n_old,
		    const u64 *old_offsets, u64 capacity, u32 strategy,
		    const struct ta_budget *budget, u64 *offsets,
		    struct ta_group_result *res);

/**
 * ta_group_check() - the validator: does a group plan hold?
 * @gp: the group
 * @offsets: ta_group_tensor_count() offsets
 * @height: every tensor must end within it
 * @conflict: out, the first broken rule (group-wide indices)
 *
 * Independent of the strategies: from ta_group_layout() alone, checks
 * alignment, the height, that the tensors of one root share its offset,
 * and that no two conflicting roots (&struct ta_group_buffer) share a
 * byte. O(n log n) in the tensors.
 *
 * Return: 0; -EINVAL with @conflict filled in; errors of ta_group_layout().
 */
int ta_group_check(const struct ta_group_problem *gp, const u64 *offsets,
		   u64 height, struct ta_conflict *conflict);

#endif /* TA_GROUP_H */
