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
#define TA_STRATEGY_FIXED	5	/* the caller's offsets, validated */

/* &ta_plan_create.offsets: plan this tensor around the fixed ones. */
#define TA_OFFSET_UNFIXED	(~0ULL)

/* Tensor flags (&ta_tensor.flags). */
#define TA_TENSOR_INPUT		0x1	/* graph input: live from the start */
#define TA_TENSOR_OUTPUT	0x2	/* graph output: live to the end */
#define TA_TENSOR_CONSTANT	0x4	/* live for the whole run */
#define TA_TENSOR_PERSISTENT	0x8	/* live for the whole run */
#define TA_TENSOR_EXPORTABLE	0x10	/* own dma-buf; live for the whole run */

/*
 * Op flags (&ta_op.flags). %TA_OP_INPLACE: the op is a view of its first
 * input (RESHAPE, SQUEEZE, ...): its first output may share that input's
 * memory. The planner shares them when the input is last read by this op,
 * both have the same size, the input is not a graph output and neither is
 * a constant, persistent or exportable tensor (nor the output a graph
 * input); the op must then compute the identity.
 */
#define TA_OP_INPLACE		0x1

/**
 * struct ta_tensor - one tensor of a graph (graph form)
 * @size: In. Bytes; 0 is allowed and takes no room.
 * @align: In. Offset alignment in bytes, a power of two up to 2^32; 0
 *	   means the plan's &ta_plan_create.default_align (1 unless set).
 * @flags: In. %TA_TENSOR_* bits; others must be zero. A tensor with
 *	   %TA_TENSOR_EXPORTABLE is planned at a page-aligned offset with its
 *	   size rounded up to whole pages (its placement's size is that
 *	   rounded size), so that %TA_IOCTL_TENSOR_EXPORT can hand it out as
 *	   a dma-buf of its own.
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
 * @flags: In. %TA_OP_* bits; others must be zero. (Was a zero pad before
 *	   %TA_OP_INPLACE existed: old callers keep working.)
 */
struct ta_op {
	__u32 first_ref;
	__u32 n_inputs;
	__u32 n_outputs;
	__u32 flags;
};

/**
 * struct ta_lifetime - one buffer with an explicit lifetime (lifetime form)
 * @size: In. Bytes.
 * @align: In. As &ta_tensor.align. (The lifetime form has no flags: its
 *	   buffers cannot be exportable.)
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
 * @lower_bound: Out. No plan can be lower: the bytes live at one step plus
 *		 the alignment padding any plan of them needs.
 * @plan_time_ns: Out. Time the planner took.
 * @mmap_offset: Out. Offset to pass to mmap() to map the plan's slice.
 * @optimal: Out. 1 when the plan is proven optimal.
 * @pad: Must be zero.
 * @default_align: In. The alignment of tensors (or lifetime buffers) whose
 *		   align is 0: a power of two up to 2^32, or 0 for 1 (the
 *		   behaviour before this field existed); -EINVAL otherwise.
 * @offsets: In. With %TA_STRATEGY_FIXED: user pointer to @n_tensors
 *	     __u64 offsets, one per tensor (or lifetime buffer), each a
 *	     multiple of its alignment, or %TA_OFFSET_UNFIXED to have it
 *	     planned around the others (greedy by size). The kernel checks
 *	     that no two tensors live at the same step share a byte (an
 *	     in-place pair, see %TA_OP_INPLACE, may share when at the same
 *	     offset; a tensor whose bytes and lifetime lie within another
 *	     fixed one's may share with it, unless either is
 *	     %TA_TENSOR_EXPORTABLE), and fails with -EINVAL and a message
 *	     naming the two tensors otherwise. Must be 0 with any other
 *	     strategy.
 * @fixed_height: In. With %TA_STRATEGY_FIXED: the arena height the
 *		  offsets were planned for, or 0 for max(offset + size).
 *		  Every tensor must end within it (-EINVAL otherwise); the
 *		  plan's &ta_plan_create.height is then this value. Must be 0
 *		  with any other strategy.
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
	__u64 default_align;
	__u64 offsets;
	__u64 fixed_height;
	__u64 reserved;
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
 * struct ta_tensor_export - export one tensor of a plan as its own dma-buf;
 * argument of %TA_IOCTL_TENSOR_EXPORT
 * @plan_id: In. The plan (visible to the caller as for PLAN_EXPORT).
 * @tensor: In. Index of the tensor in the plan's graph; it must be exportable.
 * @flags: In. %TA_EXPORT_* bits (%TA_EXPORT_CLOEXEC); others must be zero.
 * @fd: Out. The dma-buf descriptor, read-write. It keeps the plan's memory alive.
 * @size: Out. The dma-buf's size: the tensor's size rounded up to whole pages
 *        (lseek(fd, 0, SEEK_END) gives it).
 * @offset: Out. The tensor's offset in the plan's slice.
 * @reserved: Must be zero.
 */
struct ta_tensor_export {
	__u32 plan_id;
	__u32 tensor;
	__u32 flags;
	__s32 fd;
	__u64 size;
	__u64 offset;
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
 * @dma_base: Out. The arena's first byte as the arena device's DMA (bus)
 *	      address, which is its physical address on boards without an
 *	      IOMMU or a &dma-ranges offset. Zero unless the caller has
 *	      CAP_SYS_ADMIN: like /proc/iomem, addresses are for the admin.
 * @dma_limit: Out. The highest DMA address the arena device reaches, from
 *	       the module parameter dma_bits or the device tree's dma-ranges;
 *	       the arena lies below it, and an importer must reach the arena
 *	       too. Zero unless the caller has CAP_SYS_ADMIN.
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
	__u64 dma_base;
	__u64 dma_limit;
	__u64 reserved;
};

#define TA_IOCTL_BASE		0xA7
#define TA_IOCTL_INFO		_IOWR(TA_IOCTL_BASE, 0x00, struct ta_info)
#define TA_IOCTL_PLAN_CREATE	_IOWR(TA_IOCTL_BASE, 0x01, struct ta_plan_create)
#define TA_IOCTL_PLAN_GET	_IOWR(TA_IOCTL_BASE, 0x02, struct ta_plan_get)
#define TA_IOCTL_PLAN_DESTROY	_IOW(TA_IOCTL_BASE, 0x03, struct ta_plan_destroy)
#define TA_IOCTL_PLAN_EXPORT	_IOWR(TA_IOCTL_BASE, 0x04, struct ta_plan_export)
#define TA_IOCTL_TENSOR_EXPORT _IOWR(TA_IOCTL_BASE, 0x05, struct ta_tensor_export)

/*
 * Generic netlink family "tensorarena" (Documentation/netlink.md, spec in
 * Documentation/netlink/specs/tensorarena.yaml). The same operations as the
 * ioctls, with the same semantics and errors, as commands with attributes;
 * attribute values use the ioctl constants (%TA_STRATEGY_*, %TA_CREATE_*,
 * %TA_TENSOR_*, %TA_EXPORT_*). Its names (family, group, commands,
 * attributes) are in linux/tensorarena_netlink.h, generated from the spec.
 */
#include <linux/tensorarena_netlink.h>

/*
 * A plan-get do reply carries the placements of plans with at most this
 * many tensors; larger plans fail with -EMSGSIZE: dump plan-get with
 * %TA_NL_A_PLAN_PLAN_ID to read them over several messages.
 */
#define TA_NL_GET_DO_MAX_PLACEMENTS	2048

#endif /* _UAPI_LINUX_TENSORARENA_H */
