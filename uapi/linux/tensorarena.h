/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tensorarena.h - userspace ABI of the tensorarena module (/dev/tensorarena).
 *
 * Conventions (Documentation/driver-api/ioctl.rst): fixed-size fields,
 * explicit padding, user pointers as __u64. Every ioctl struct may grow at
 * its end: the kernel accepts the size userspace was built with (encoded in
 * the ioctl number), zero-fills fields an older caller does not know and
 * rejects a newer caller's unknown trailing bytes with -E2BIG unless they are
 * zero. Pad, reserved fields and unknown flags must be zero (-EINVAL).
 * Unknown ioctls fail with -ENOTTY.
 */
#ifndef _UAPI_LINUX_TENSORARENA_H
#define _UAPI_LINUX_TENSORARENA_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Bumped on every incompatible change; additions keep it. */
#define TA_ABI_VERSION		1

#define TA_DEVICE_NAME		"tensorarena"

/* Strategies (&ta_plan_create.strategy). */
#define TA_STRATEGY_AUTO	0	/* portfolio + bounded search (default) */
#define TA_STRATEGY_PINGPONG	1	/* per-branch ping-pong of two regions */
#define TA_STRATEGY_STACK	2	/* rectangle stacking with look-ahead */
#define TA_STRATEGY_FREELIST	3	/* execution-order free list */
#define TA_STRATEGY_GREEDY_SIZE	4	/* largest first, best-fitting gap */

/* Tensor flags (&ta_tensor.flags). */
#define TA_TENSOR_INPUT		0x1	/* graph input: live from the start */
#define TA_TENSOR_OUTPUT	0x2	/* graph output: live to the end */
#define TA_TENSOR_CONSTANT	0x4	/* live for the whole run */
#define TA_TENSOR_PERSISTENT	0x8	/* live for the whole run */

/**
 * struct ta_tensor - one tensor of a graph (graph form)
 * @size: In. Bytes; 0 is allowed and takes no room.
 * @align: In. Offset alignment in bytes, a power of two up to 2^32; 0
 *	   means 1.
 * @flags: In. %TA_TENSOR_* bits; others must be zero.
 * @pad: Must be zero.
 */
struct ta_tensor {
	__u64 size;
	__u64 align;
	__u32 flags;
	__u32 pad;
};

/**
 * struct ta_op - one op of a graph, in execution order (op i runs at step i)
 * @first_ref: In. Index in the refs array of its first input tensor; its
 *	       @n_inputs inputs follow, then its @n_outputs outputs.
 * @n_inputs: In. Tensors it reads.
 * @n_outputs: In. Tensors it writes.
 * @pad: Must be zero.
 */
struct ta_op {
	__u32 first_ref;
	__u32 n_inputs;
	__u32 n_outputs;
	__u32 pad;
};

/**
 * struct ta_lifetime - one buffer with an explicit lifetime (lifetime form)
 * @size: In. Bytes.
 * @align: In. As &ta_tensor.align.
 * @start: In. First step at which the buffer is live.
 * @end: In. First step at which it no longer is; @start < @end.
 */
struct ta_lifetime {
	__u64 size;
	__u64 align;
	__u32 start;
	__u32 end;
};

/* &ta_plan_create.flags */
#define TA_CREATE_LIFETIMES	0x1	/* @tensors are &struct ta_lifetime */
#define TA_CREATE_DRY_RUN	0x2	/* plan only: no arena memory, no ID */

/**
 * struct ta_plan_create - plan a graph; argument of %TA_IOCTL_PLAN_CREATE
 * @flags: In. %TA_CREATE_* bits; others must be zero.
 * @strategy: In. %TA_STRATEGY_*.
 * @budget_ns: In. Planning time limit for searching strategies; 0: the
 *	       module's default.
 * @budget_steps: In. Search-step limit; 0: no limit but time.
 * @tensors: In. User pointer to @n_tensors elements of @tensor_size bytes:
 *	     &struct ta_tensor, or &struct ta_lifetime with
 *	     %TA_CREATE_LIFETIMES.
 * @n_tensors: In. Tensor count, at most the max_tensors parameter.
 * @tensor_size: In. sizeof(the element) as userspace knows it; at least
 *		 the first ABI version's.
 * @ops: In. User pointer to @n_ops &struct ta_op (graph form only).
 * @n_ops: In. Op count; at least 1 in graph form, 0 in lifetime form.
 * @op_size: In. sizeof(struct ta_op) as userspace knows it.
 * @refs: In. User pointer to @n_refs __u32 tensor indices (graph form).
 * @n_refs: In. Reference count; 0 in lifetime form.
 * @plan_id: Out. The new plan's ID (0 for a dry run).
 * @height: Out. Arena bytes the plan needs.
 * @lower_bound: Out. Most bytes live at one step: no plan can be lower.
 * @plan_time_ns: Out. Time the planner took.
 * @mmap_offset: Out. Offset to pass to mmap() to map the plan's slice.
 * @optimal: Out. 1 when the plan is proven optimal.
 * @pad: Must be zero.
 * @reserved: Must be zero.
 */
struct ta_plan_create {
	__u32 flags;
	__u32 strategy;
	__u64 budget_ns;
	__u64 budget_steps;
	__u64 tensors;
	__u32 n_tensors;
	__u32 tensor_size;
	__u64 ops;
	__u32 n_ops;
	__u32 op_size;
	__u64 refs;
	__u32 n_refs;
	__u32 plan_id;
	__u64 height;
	__u64 lower_bound;
	__u64 plan_time_ns;
	__u64 mmap_offset;
	__u32 optimal;
	__u32 pad;
	__u64 reserved[4];
};

/**
 * struct ta_placement - where one tensor of a plan lives
 * @offset: Out. Bytes from the start of the plan's slice.
 * @size: Out. The tensor's size.
 */
struct ta_placement {
	__u64 offset;
	__u64 size;
};

/* &ta_plan_get.flags */
#define TA_GET_NEXT	0x1	/* read the first plan after @plan_id instead */

/**
 * struct ta_plan_get - read a plan; argument of %TA_IOCTL_PLAN_GET
 * @plan_id: In: the plan; with %TA_GET_NEXT, start after this ID (0 for
 *	     the first). Out: the plan read.
 * @flags: In. %TA_GET_* bits; others must be zero.
 * @placements: In. User pointer to room for @n_placements elements of
 *		@placement_size bytes (&struct ta_placement), or 0 to ask
 *		for the count only.
 * @n_placements: In: room in @placements. Out: the plan's tensor count;
 *		  when it exceeds the room, only the first room placements
 *		  were written.
 * @placement_size: In. sizeof(struct ta_placement) as userspace knows it.
 * @height: Out. As &ta_plan_create.height.
 * @lower_bound: Out.
 * @plan_time_ns: Out.
 * @mmap_offset: Out. As &ta_plan_create.mmap_offset.
 * @strategy: Out. The strategy that made the plan.
 * @optimal: Out.
 * @reserved: Must be zero.
 */
struct ta_plan_get {
	__u32 plan_id;
	__u32 flags;
	__u64 placements;
	__u32 n_placements;
	__u32 placement_size;
	__u64 height;
	__u64 lower_bound;
	__u64 plan_time_ns;
	__u64 mmap_offset;
	__u32 strategy;
	__u32 optimal;
	__u64 reserved[4];
};

/**
 * struct ta_plan_destroy - destroy a plan; argument of %TA_IOCTL_PLAN_DESTROY
 * @plan_id: In. The plan. Its memory is returned to the arena once no
 *	     mapping or kernel user holds it.
 * @flags: In. Must be zero.
 * @reserved: Must be zero.
 */
struct ta_plan_destroy {
	__u32 plan_id;
	__u32 flags;
	__u64 reserved[2];
};

/* &ta_plan_export.flags */
#define TA_EXPORT_CLOEXEC	0x1	/* the dma-buf fd gets O_CLOEXEC */

/**
 * struct ta_plan_export - export a plan's slice as a dma-buf; argument of
 * %TA_IOCTL_PLAN_EXPORT
 * @plan_id: In. The plan; it must have memory (not a dry run, height > 0).
 * @flags: In. %TA_EXPORT_* bits; others must be zero.
 * @fd: Out. The dma-buf file descriptor (read-write). The buffer keeps the
 *	plan's memory alive until the last importer, mapping and descriptor
 *	let go, even after the plan is destroyed.
 * @pad: Must be zero.
 * @reserved: Must be zero.
 */
struct ta_plan_export {
	__u32 plan_id;
	__u32 flags;
	__s32 fd;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct ta_info - arena information, argument of %TA_IOCTL_INFO
 * @abi_version: Out. %TA_ABI_VERSION of the running module.
 * @flags: In. Must be zero.
 * @arena_size: Out. Bytes in the arena.
 * @bytes_in_use: Out. Bytes of the arena held by plans.
 * @alignment: Out. Alignment in bytes of the arena base and of every slice
 *	       handed to a plan (a power of two, at least the page size).
 * @page_size: Out. The kernel's page size; mmap offsets are multiples of it.
 * @n_plans: Out. Plans that exist (all users').
 * @largest_free: Out. Bytes of the largest free slice: the tallest plan
 *		  that can be created now.
 * @reserved: Must be zero.
 */
struct ta_info {
	__u32 abi_version;
	__u32 flags;
	__u64 arena_size;
	__u64 bytes_in_use;
	__u64 alignment;
	__u32 page_size;
	__u32 n_plans;
	__u64 largest_free;
	__u64 reserved[3];
};

#define TA_IOCTL_BASE		0xA7
#define TA_IOCTL_INFO		_IOWR(TA_IOCTL_BASE, 0x00, struct ta_info)
#define TA_IOCTL_PLAN_CREATE	_IOWR(TA_IOCTL_BASE, 0x01, struct ta_plan_create)
#define TA_IOCTL_PLAN_GET	_IOWR(TA_IOCTL_BASE, 0x02, struct ta_plan_get)
#define TA_IOCTL_PLAN_DESTROY	_IOW(TA_IOCTL_BASE, 0x03, struct ta_plan_destroy)
#define TA_IOCTL_PLAN_EXPORT	_IOWR(TA_IOCTL_BASE, 0x04, struct ta_plan_export)

/*
 * Generic netlink family "tensorarena" (Documentation/netlink.md, spec in
 * Documentation/netlink/specs/tensorarena.yaml). The same operations as the
 * ioctls, with the same semantics and errors, as commands with attributes;
 * attribute values use the ioctl constants (%TA_STRATEGY_*, %TA_CREATE_*,
 * %TA_TENSOR_*, %TA_EXPORT_*).
 */
#define TA_NL_FAMILY_NAME	"tensorarena"
#define TA_NL_FAMILY_VERSION	1
#define TA_NL_MCGRP_EVENTS	"events"

/*
 * A plan-get do reply carries the placements of plans with at most this
 * many tensors; larger plans fail with -EMSGSIZE: dump plan-get with
 * %TA_NL_A_PLAN_PLAN_ID to read them over several messages.
 */
#define TA_NL_GET_DO_MAX_PLACEMENTS	2048

/**
 * enum ta_nl_cmd - commands of the tensorarena family
 * @TA_NL_CMD_UNSPEC: unused
 * @TA_NL_CMD_INFO: do: arena figures (&enum ta_nl_info_attrs), as
 *	%TA_IOCTL_INFO.
 * @TA_NL_CMD_PLAN_CREATE: do: plan a graph (%TA_NL_A_PLAN_TENSOR and
 *	%TA_NL_A_PLAN_OP) or lifetimes (%TA_NL_A_PLAN_BUFFER with
 *	%TA_CREATE_LIFETIMES); reply: ID and figures. The plan belongs to
 *	the sending socket and is destroyed when it closes.
 * @TA_NL_CMD_PLAN_GET: do: one plan by %TA_NL_A_PLAN_PLAN_ID with its
 *	placements (up to %TA_NL_GET_DO_MAX_PLACEMENTS). dump: one message
 *	per plan the caller may see (figures only); with
 *	%TA_NL_A_PLAN_PLAN_ID, that plan's figures and all its placements,
 *	spread over as many messages as needed, each starting at
 *	%TA_NL_A_PLAN_FIRST_PLACEMENT.
 * @TA_NL_CMD_PLAN_DESTROY: do: destroy the plan %TA_NL_A_PLAN_PLAN_ID.
 * @TA_NL_CMD_PLAN_CREATED_NTF: event (group "events"): a plan was created
 *	(plan-id, uid, n-tensors, height, strategy).
 * @TA_NL_CMD_PLAN_DESTROYED_NTF: event: a plan was destroyed (plan-id, uid).
 * @TA_NL_CMD_PRESSURE_NTF: event: a create failed for want of arena
 *	(%TA_NL_A_INFO_REQUESTED set) or the use crossed 7/8 of the arena;
 *	carries the info figures.
 * @TA_NL_CMD_PLAN_EXPORT: do: export the slice of the plan
 *	%TA_NL_A_PLAN_PLAN_ID as a dma-buf, as %TA_IOCTL_PLAN_EXPORT, with
 *	%TA_NL_A_PLAN_EXPORT_FLAGS; reply: %TA_NL_A_PLAN_PLAN_ID and
 *	%TA_NL_A_PLAN_FD. The new descriptor is installed in the file table of
 *	the process that sent the request: a generic netlink do runs in the
 *	context of the task that called sendmsg() on the socket. The number in
 *	%TA_NL_A_PLAN_FD is valid in that process only; a process that relays
 *	requests for another gets the descriptor itself (and must pass it on,
 *	e.g. with SCM_RIGHTS), and a process that reads the reply from a
 *	socket it shares with the sender reads a number of the sender's
 *	table. A failed request installs no descriptor.
 * @__TA_NL_CMD_MAX: internal
 * @TA_NL_CMD_MAX: highest command
 */
enum ta_nl_cmd {
	TA_NL_CMD_UNSPEC,
	TA_NL_CMD_INFO,
	TA_NL_CMD_PLAN_CREATE,
	TA_NL_CMD_PLAN_GET,
	TA_NL_CMD_PLAN_DESTROY,
	TA_NL_CMD_PLAN_CREATED_NTF,
	TA_NL_CMD_PLAN_DESTROYED_NTF,
	TA_NL_CMD_PRESSURE_NTF,
	TA_NL_CMD_PLAN_EXPORT,

	__TA_NL_CMD_MAX,
	TA_NL_CMD_MAX = __TA_NL_CMD_MAX - 1
};

/**
 * enum ta_nl_info_attrs - attributes of info and of pressure events
 * @TA_NL_A_INFO_UNSPEC: unused
 * @TA_NL_A_INFO_PAD: padding for 64-bit attributes
 * @TA_NL_A_INFO_ABI_VERSION: u32, %TA_ABI_VERSION
 * @TA_NL_A_INFO_ARENA_SIZE: u64, bytes in the arena
 * @TA_NL_A_INFO_BYTES_IN_USE: u64, bytes held by plans
 * @TA_NL_A_INFO_ALIGNMENT: u64, alignment of every slice
 * @TA_NL_A_INFO_PAGE_SIZE: u32, the kernel's page size
 * @TA_NL_A_INFO_N_PLANS: u32, plans that exist (all users')
 * @TA_NL_A_INFO_LARGEST_FREE: u64, the largest free slice
 * @TA_NL_A_INFO_REQUESTED: u64, pressure events only: the height a create
 *	wanted and did not get
 * @__TA_NL_A_INFO_MAX: internal
 * @TA_NL_A_INFO_MAX: highest attribute
 */
enum ta_nl_info_attrs {
	TA_NL_A_INFO_UNSPEC,
	TA_NL_A_INFO_PAD,
	TA_NL_A_INFO_ABI_VERSION,
	TA_NL_A_INFO_ARENA_SIZE,
	TA_NL_A_INFO_BYTES_IN_USE,
	TA_NL_A_INFO_ALIGNMENT,
	TA_NL_A_INFO_PAGE_SIZE,
	TA_NL_A_INFO_N_PLANS,
	TA_NL_A_INFO_LARGEST_FREE,
	TA_NL_A_INFO_REQUESTED,

	__TA_NL_A_INFO_MAX,
	TA_NL_A_INFO_MAX = __TA_NL_A_INFO_MAX - 1
};

/**
 * enum ta_nl_plan_attrs - attributes of the plan commands and events
 * @TA_NL_A_PLAN_UNSPEC: unused
 * @TA_NL_A_PLAN_PAD: padding for 64-bit attributes
 * @TA_NL_A_PLAN_PLAN_ID: u32, a plan's ID (1..0xfffff)
 * @TA_NL_A_PLAN_FLAGS: u32, %TA_CREATE_* (create)
 * @TA_NL_A_PLAN_STRATEGY: u32, %TA_STRATEGY_* (create; reported by get)
 * @TA_NL_A_PLAN_BUDGET_NS: u64, planning time limit, 0 or absent: default
 * @TA_NL_A_PLAN_BUDGET_STEPS: u64, search-step limit, 0 or absent: none
 * @TA_NL_A_PLAN_TENSOR: nest (&enum ta_nl_tensor_attrs), repeated: the
 *	graph's tensors in index order
 * @TA_NL_A_PLAN_OP: nest (&enum ta_nl_op_attrs), repeated: the graph's
 *	ops in execution order
 * @TA_NL_A_PLAN_BUFFER: nest (&enum ta_nl_buffer_attrs), repeated: the
 *	buffers of a lifetime-form request
 * @TA_NL_A_PLAN_HEIGHT: u64, arena bytes the plan needs
 * @TA_NL_A_PLAN_LOWER_BOUND: u64, most bytes live at one step
 * @TA_NL_A_PLAN_PLAN_TIME_NS: u64, planning time
 * @TA_NL_A_PLAN_MMAP_OFFSET: u64, mmap() offset of the plan's slice on
 *	/dev/tensorarena
 * @TA_NL_A_PLAN_OPTIMAL: u8, 1 when proven optimal
 * @TA_NL_A_PLAN_N_TENSORS: u32, the plan's tensor count
 * @TA_NL_A_PLAN_PLACEMENT: nest (&enum ta_nl_placement_attrs), repeated:
 *	placements in tensor order
 * @TA_NL_A_PLAN_FIRST_PLACEMENT: u32, tensor index of the first
 *	%TA_NL_A_PLAN_PLACEMENT in this message
 * @TA_NL_A_PLAN_UID: u32, the creator's uid (in the receiver's user
 *	namespace)
 * @TA_NL_A_PLAN_EXPORT_FLAGS: u32, %TA_EXPORT_* bits (export); others:
 *	-EINVAL
 * @TA_NL_A_PLAN_FD: u32, export reply: the dma-buf file descriptor, a
 *	number in the file table of the process that sent the request
 * @__TA_NL_A_PLAN_MAX: internal
 * @TA_NL_A_PLAN_MAX: highest attribute
 */
enum ta_nl_plan_attrs {
	TA_NL_A_PLAN_UNSPEC,
	TA_NL_A_PLAN_PAD,
	TA_NL_A_PLAN_PLAN_ID,
	TA_NL_A_PLAN_FLAGS,
	TA_NL_A_PLAN_STRATEGY,
	TA_NL_A_PLAN_BUDGET_NS,
	TA_NL_A_PLAN_BUDGET_STEPS,
	TA_NL_A_PLAN_TENSOR,
	TA_NL_A_PLAN_OP,
	TA_NL_A_PLAN_BUFFER,
	TA_NL_A_PLAN_HEIGHT,
	TA_NL_A_PLAN_LOWER_BOUND,
	TA_NL_A_PLAN_PLAN_TIME_NS,
	TA_NL_A_PLAN_MMAP_OFFSET,
	TA_NL_A_PLAN_OPTIMAL,
	TA_NL_A_PLAN_N_TENSORS,
	TA_NL_A_PLAN_PLACEMENT,
	TA_NL_A_PLAN_FIRST_PLACEMENT,
	TA_NL_A_PLAN_UID,
	TA_NL_A_PLAN_EXPORT_FLAGS,
	TA_NL_A_PLAN_FD,

	__TA_NL_A_PLAN_MAX,
	TA_NL_A_PLAN_MAX = __TA_NL_A_PLAN_MAX - 1
};

/**
 * enum ta_nl_tensor_attrs - one tensor of a graph (&struct ta_tensor)
 * @TA_NL_A_TENSOR_UNSPEC: unused
 * @TA_NL_A_TENSOR_PAD: padding
 * @TA_NL_A_TENSOR_SIZE: u64, bytes; required
 * @TA_NL_A_TENSOR_ALIGN: u64, a power of two up to 2^32; absent or 0: 1
 * @TA_NL_A_TENSOR_FLAGS: u32, %TA_TENSOR_* bits
 * @__TA_NL_A_TENSOR_MAX: internal
 * @TA_NL_A_TENSOR_MAX: highest attribute
 */
enum ta_nl_tensor_attrs {
	TA_NL_A_TENSOR_UNSPEC,
	TA_NL_A_TENSOR_PAD,
	TA_NL_A_TENSOR_SIZE,
	TA_NL_A_TENSOR_ALIGN,
	TA_NL_A_TENSOR_FLAGS,

	__TA_NL_A_TENSOR_MAX,
	TA_NL_A_TENSOR_MAX = __TA_NL_A_TENSOR_MAX - 1
};

/**
 * enum ta_nl_op_attrs - one op of a graph (&struct ta_op)
 * @TA_NL_A_OP_UNSPEC: unused
 * @TA_NL_A_OP_INPUT: u32, repeated: index of a tensor the op reads
 * @TA_NL_A_OP_OUTPUT: u32, repeated: index of a tensor the op writes
 * @__TA_NL_A_OP_MAX: internal
 * @TA_NL_A_OP_MAX: highest attribute
 *
 * Inputs and outputs keep their order; an op nest may not hold more than
 * fits in a netlink attribute (64 KiB: about 8000 references).
 */
enum ta_nl_op_attrs {
	TA_NL_A_OP_UNSPEC,
	TA_NL_A_OP_INPUT,
	TA_NL_A_OP_OUTPUT,

	__TA_NL_A_OP_MAX,
	TA_NL_A_OP_MAX = __TA_NL_A_OP_MAX - 1
};

/**
 * enum ta_nl_buffer_attrs - one buffer of a lifetime-form request
 *	(&struct ta_lifetime)
 * @TA_NL_A_BUFFER_UNSPEC: unused
 * @TA_NL_A_BUFFER_PAD: padding
 * @TA_NL_A_BUFFER_SIZE: u64, bytes; required
 * @TA_NL_A_BUFFER_ALIGN: u64, as %TA_NL_A_TENSOR_ALIGN
 * @TA_NL_A_BUFFER_START: u32, first live step; required
 * @TA_NL_A_BUFFER_END: u32, first step no longer live, > start; required
 * @__TA_NL_A_BUFFER_MAX: internal
 * @TA_NL_A_BUFFER_MAX: highest attribute
 */
enum ta_nl_buffer_attrs {
	TA_NL_A_BUFFER_UNSPEC,
	TA_NL_A_BUFFER_PAD,
	TA_NL_A_BUFFER_SIZE,
	TA_NL_A_BUFFER_ALIGN,
	TA_NL_A_BUFFER_START,
	TA_NL_A_BUFFER_END,

	__TA_NL_A_BUFFER_MAX,
	TA_NL_A_BUFFER_MAX = __TA_NL_A_BUFFER_MAX - 1
};

/**
 * enum ta_nl_placement_attrs - where one tensor of a plan lives
 *	(&struct ta_placement)
 * @TA_NL_A_PLACEMENT_UNSPEC: unused
 * @TA_NL_A_PLACEMENT_PAD: padding
 * @TA_NL_A_PLACEMENT_OFFSET: u64, bytes from the start of the slice
 * @TA_NL_A_PLACEMENT_SIZE: u64, the tensor's size
 * @__TA_NL_A_PLACEMENT_MAX: internal
 * @TA_NL_A_PLACEMENT_MAX: highest attribute
 */
enum ta_nl_placement_attrs {
	TA_NL_A_PLACEMENT_UNSPEC,
	TA_NL_A_PLACEMENT_PAD,
	TA_NL_A_PLACEMENT_OFFSET,
	TA_NL_A_PLACEMENT_SIZE,

	__TA_NL_A_PLACEMENT_MAX,
	TA_NL_A_PLACEMENT_MAX = __TA_NL_A_PLACEMENT_MAX - 1
};

#endif /* _UAPI_LINUX_TENSORARENA_H */
