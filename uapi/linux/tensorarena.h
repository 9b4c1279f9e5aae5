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

/*
 * Memory tiers (Documentation/uapi.md, "Memory tiers"): beside the arena
 * (DRAM, the slow tier) the module may own a small fast memory, an NPU's
 * SRAM (the device tree's sram phandle, or emulated by the module parameter
 * sram_size). A plan created with %TA_CREATE_TIERED has a slice in each
 * tier; the planner chooses which tensors live in the fast one, so that they
 * fit &ta_plan_create.fast_capacity at every step and the weight served from
 * it is as large as it can make it. Values of &ta_tensor_tier.pin and
 * &ta_placement.tier:
 */
#define TA_TIER_ANY		0	/* pin: the planner chooses */
#define TA_TIER_FAST		1	/* the fast tier (SRAM) */
#define TA_TIER_SLOW		2	/* the arena (DRAM) */

/**
 * struct ta_tensor_tier - what the caller asks of one tensor's tier
 * @weight: In. The value of serving the tensor from the fast tier, in any
 *	    unit (the planner maximises the sum over the fast set); 0 for the
 *	    default: the bytes the NPU moves, its size times one plus the op
 *	    inputs that name it (lifetime form: twice its size).
 * @pin: In. %TA_TIER_ANY, %TA_TIER_FAST or %TA_TIER_SLOW. Tensors of one
 *	 in-place chain (%TA_OP_INPLACE) share bytes and so a tier: their
 *	 pins must agree (-EINVAL).
 * @pad: Must be zero.
 */
struct ta_tensor_tier {
	__u64 weight;
	__u32 pin;
	__u32 pad;
};

/* &ta_plan_create.flags */
#define TA_CREATE_LIFETIMES	0x1	/* @tensors are &struct ta_lifetime */
#define TA_CREATE_DRY_RUN	0x2	/* plan only: no arena memory, no ID */
#define TA_CREATE_TIERED	0x4	/* plan across the fast tier too */

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
 * @fast_capacity: In. With %TA_CREATE_TIERED: the fast-tier bytes the plan
 *		   may take, at least 1 (0: -EINVAL) and at most the fast
 *		   tier's size (-EINVAL; a module without a fast tier fails
 *		   every tiered create with -ENODEV). The plan's fast slice
 *		   is @fast_height rounded up to a page; when the fast tier
 *		   has no free run that long, -ENOSPC. Must be 0 without
 *		   %TA_CREATE_TIERED.
 * @tiers: In. With %TA_CREATE_TIERED: user pointer to @n_tensors elements
 *	   of @tier_size bytes (&struct ta_tensor_tier), one per tensor (or
 *	   lifetime buffer), or 0 for every tensor %TA_TIER_ANY with the
 *	   default weight. Must be 0 without %TA_CREATE_TIERED.
 * @tier_size: In. sizeof(struct ta_tensor_tier) as userspace knows it when
 *	       @tiers is set, else 0.
 * @n_fast: Out. Tensors placed in the fast tier.
 * @fast_height: Out. Fast-tier bytes the plan needs, at most
 *		 @fast_capacity; @height is then the arena bytes.
 * @fast_mmap_offset: Out. Offset to pass to mmap() to map the plan's fast
 *		      slice, or 0 when the fast tier cannot be mapped
 *		      (&ta_info.fast_flags) or @fast_height is 0.
 * @weight_total: Out. The weight of every tensor.
 * @weight_fast: Out. The weight the fast tier serves.
 * @weight_bound: Out. No tiered plan of this graph within @fast_capacity
 *		  serves more.
 * @tier_fail_tensor: Out, when a tiered create fails because its pins
 *		      cannot be met (-ENOSPC: the tensors pinned fast do not
 *		      fit; -EINVAL: pins that contradict an in-place chain):
 *		      the tensor (see %TA_TIER_FAIL_*), else 0. The only
 *		      fields written on that failure.
 * @tier_fail_kind: Out. %TA_TIER_FAIL_*, or 0 (%TA_TIER_FAIL_NONE).
 * @tier_fail_shortfall: Out. Bytes the fast tier lacks for the pins.
 * @tier_fail_step: Out. %TA_TIER_FAIL_LIVE: the step at which they do not
 *		    fit.
 * @tier_reserved: Must be zero.
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
	__u64 fast_capacity;
	__u64 tiers;
	__u32 tier_size;
	__u32 n_fast;
	__u64 fast_height;
	__u64 fast_mmap_offset;
	__u64 weight_total;
	__u64 weight_fast;
	__u64 weight_bound;
	__u32 tier_fail_tensor;
	__u32 tier_fail_kind;
	__u64 tier_fail_shortfall;
	__u32 tier_fail_step;
	__u32 tier_reserved;
};

/*
 * &ta_plan_create.tier_fail_kind: why the pins cannot be met.
 * %TA_TIER_FAIL_SIZE: the tensor, pinned fast, is larger than the capacity;
 * %TA_TIER_FAIL_LIVE: the tensors pinned fast live at tier_fail_step exceed
 * it, the tensor is the last to start; %TA_TIER_FAIL_PLAN: no plan of them
 * the planner found fits, the tensor ends highest; %TA_TIER_FAIL_CLASS: the
 * tensor shares bytes with one pinned to the other tier.
 */
#define TA_TIER_FAIL_NONE	0
#define TA_TIER_FAIL_SIZE	1
#define TA_TIER_FAIL_LIVE	2
#define TA_TIER_FAIL_PLAN	3
#define TA_TIER_FAIL_CLASS	4

/**
 * struct ta_placement - where one tensor of a plan lives
 * @offset: Out. Bytes from the start of the plan's slice in the tensor's
 *	    tier.
 * @size: Out. The tensor's size.
 * @tier: Out. %TA_TIER_SLOW (the arena) or %TA_TIER_FAST; %TA_TIER_SLOW in
 *	  every plan created without %TA_CREATE_TIERED. (An element of 16
 *	  bytes, before tiers, is still accepted and lacks it.)
 * @pad: Out. Zero.
 */
struct ta_placement {
	__u64 offset;
	__u64 size;
	__u32 tier;
	__u32 pad;
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
 * @fast_height: Out. As &ta_plan_create.fast_height (0 for a plan created
 *		 without %TA_CREATE_TIERED).
 * @fast_mmap_offset: Out. As &ta_plan_create.fast_mmap_offset.
 * @weight_total: Out. As &ta_plan_create.weight_total (0 untiered).
 * @weight_fast: Out. As &ta_plan_create.weight_fast.
 * @weight_bound: Out. As &ta_plan_create.weight_bound.
 * @n_fast: Out. As &ta_plan_create.n_fast.
 * @fast_capacity_pad: Out. Zero.
 * @fast_capacity: Out. As the create's &ta_plan_create.fast_capacity.
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
	__u64 fast_height;
	__u64 fast_mmap_offset;
	__u64 weight_total;
	__u64 weight_fast;
	__u64 weight_bound;
	__u32 n_fast;
	__u32 fast_capacity_pad;
	__u64 fast_capacity;
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
#define TA_EXPORT_FAST		0x2	/* PLAN_EXPORT: the plan's fast slice */

/**
 * struct ta_plan_export - export a plan's slice as a dma-buf; argument of
 * %TA_IOCTL_PLAN_EXPORT
 * @plan_id: In. The plan; it must have memory (not a dry run, height > 0).
 * @flags: In. %TA_EXPORT_* bits; others must be zero.
 * @fd: Out. The dma-buf file descriptor (read-write). The buffer keeps the
 *	plan's memory alive until the last importer, mapping and descriptor
 *	let go, even after the plan is destroyed. With %TA_EXPORT_FAST it
 *	is the plan's fast slice: -EINVAL for a plan without one
 *	(fast_height 0), -EOPNOTSUPP when the fast tier cannot be exported
 *	(&ta_info.fast_flags lacks %TA_FAST_EXPORTABLE).
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
 * @offset: Out. The tensor's offset in the plan's slice of its tier.
 * @reserved: Must be zero.
 * @tier: Out. The tensor's tier (%TA_TIER_SLOW or %TA_TIER_FAST); a fast
 *	  tensor's dma-buf is of fast-tier memory (-EOPNOTSUPP when that
 *	  cannot be exported).
 * @pad: Out. Zero.
 */
struct ta_tensor_export {
	__u32 plan_id;
	__u32 tensor;
	__u32 flags;
	__s32 fd;
	__u64 size;
	__u64 offset;
	__u64 reserved[2];
	__u32 tier;
	__u32 pad;
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
 * @fast_size: Out. Bytes of the fast tier (SRAM); 0 when the module has
 *	       none.
 * @fast_in_use: Out. Bytes of it held by plans (counted apart from
 *		 @bytes_in_use).
 * @fast_largest_free: Out. Its largest free run: the largest fast slice a
 *		       create can get now.
 * @fast_dma_base: Out. Its first byte as the arena device's DMA address;
 *		   zero unless the caller has CAP_SYS_ADMIN.
 * @fast_flags: Out. %TA_FAST_* bits.
 * @fast_pad: Out. Zero.
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
	__u64 fast_size;
	__u64 fast_in_use;
	__u64 fast_largest_free;
	__u64 fast_dma_base;
	__u32 fast_flags;
	__u32 fast_pad;
};

/* &ta_info.fast_flags (EMULATED: system RAM stands in for SRAM, sram_size) */
#define TA_FAST_EMULATED	0x1	/* not SRAM: system RAM */
#define TA_FAST_MAPPABLE	0x2	/* fast slices can be mmap()ed */
#define TA_FAST_EXPORTABLE	0x4	/* and exported as dma-bufs */

/*
 * Groups: several graphs (members) planned together into one slice
 * (Documentation/uapi.md, "Groups"). Members of one lane run one after
 * another, in member order, and share bytes; members of different lanes may
 * run at the same time and share none. Every member is a plan with an ID of
 * its own (PLAN_GET, PLAN_EXPORT, TENSOR_EXPORT, mmap and the kernel API
 * take it, its offsets are from the group's slice); the group is a plan too,
 * with no tensors, whose ID maps and exports the whole slice and whose
 * PLAN_DESTROY destroys every member. PLAN_DESTROY of a member removes it.
 */
#define TA_GROUP_MAX_MEMBERS	64
#define TA_GROUP_MAX_LANES	8
#define TA_GROUP_MAX_LINKS	256
#define TA_GROUP_MAX_SHARED	256

/**
 * struct ta_group_member - one member graph of a group
 * @flags: In. %TA_CREATE_LIFETIMES for lifetime form; other bits zero.
 * @lane: In. Below %TA_GROUP_MAX_LANES. Members of one lane run one after
 *	  another in the order of the array (a member added later runs after
 *	  the lane's others) and share bytes: a member's tensors that are not
 *	  constant, persistent, exportable, linked or shared are dead once it
 *	  has run. Jobs on members of one lane are ordered by one reservation
 *	  object; members of different lanes never share a byte and their
 *	  jobs are not ordered against each other.
 * @tensors: In. As &ta_plan_create.tensors.
 * @n_tensors: In. As &ta_plan_create.n_tensors.
 * @tensor_size: In. As &ta_plan_create.tensor_size.
 * @ops: In. As &ta_plan_create.ops.
 * @n_ops: In. As &ta_plan_create.n_ops.
 * @op_size: In. As &ta_plan_create.op_size.
 * @refs: In. As &ta_plan_create.refs.
 * @n_refs: In. As &ta_plan_create.n_refs.
 * @plan_id: Out. The member's plan ID (0 for a dry run). Must be 0 in.
 * @reserved: Must be zero.
 */
struct ta_group_member {
	__u32 flags;
	__u32 lane;
	__u64 tensors;
	__u32 n_tensors;
	__u32 tensor_size;
	__u64 ops;
	__u32 n_ops;
	__u32 op_size;
	__u64 refs;
	__u32 n_refs;
	__u32 plan_id;
	__u64 reserved[2];
};

/**
 * struct ta_group_link - one tensor handed from a member to a later one
 * @from_member: In. Index of the member that writes it.
 * @from_tensor: In. Its tensor there: not constant, persistent or
 *		 exportable.
 * @to_member: In. Index of the member that reads it: later in the same
 *	       lane (the tensor then lives from its producer to its last
 *	       reader in @to_member), or in another lane (it then lives for
 *	       the whole run of the group).
 * @to_tensor: In. Its tensor there: a graph input (%TA_TENSOR_INPUT, no op
 *	       writes it), not constant, persistent or exportable, read by no
 *	       other link.
 *
 * The two are one tensor at one offset, of the larger of their sizes and
 * alignments: the reader reads what the writer wrote, with no copy.
 */
struct ta_group_link {
	__u32 from_member;
	__u32 from_tensor;
	__u32 to_member;
	__u32 to_tensor;
};

/**
 * struct ta_group_shared - a tensor that is one persistent tensor of the group
 * @member: In. Index of a member.
 * @tensor: In. Its tensor: not linked.
 * @key: In. Tensors with the same key, in any members, are one tensor at
 *	 one offset, of the largest of their sizes and alignments, live for
 *	 the whole run of the group (an RNN or KV state, weights two entry
 *	 points both use).
 * @pad: Must be zero.
 */
struct ta_group_shared {
	__u32 member;
	__u32 tensor;
	__u32 key;
	__u32 pad;
};

/* &ta_group_create.flags */
#define TA_GROUP_DRY_RUN	0x1	/* plan only: no arena memory, no IDs */

/**
 * struct ta_group_create - plan a group; argument of %TA_IOCTL_GROUP_CREATE
 * @flags: In. %TA_GROUP_* bits; others must be zero.
 * @strategy: In. %TA_STRATEGY_*, not %TA_STRATEGY_FIXED or
 *	      %TA_STRATEGY_PINGPONG (which plan one graph).
 * @budget_ns: In. As &ta_plan_create.budget_ns, for the whole group.
 * @budget_steps: In. As &ta_plan_create.budget_steps.
 * @default_align: In. As &ta_plan_create.default_align, for every member.
 * @capacity: In. Bytes of slice to hold, at least the group's height, so
 *	      that members added later fit without a re-plan; 0 for the
 *	      height (-ENOSPC when the height is more than a non-zero
 *	      @capacity).
 * @members: In. User pointer to @n_members elements of @member_size bytes
 *	     (&struct ta_group_member); the kernel writes each one's
 *	     &ta_group_member.plan_id back.
 * @n_members: In. 1 to %TA_GROUP_MAX_MEMBERS.
 * @member_size: In. sizeof(struct ta_group_member) as userspace knows it.
 * @links: In. User pointer to @n_links &struct ta_group_link.
 * @n_links: In. 0 to %TA_GROUP_MAX_LINKS.
 * @link_size: In. sizeof(struct ta_group_link) as userspace knows it.
 * @shared: In. User pointer to @n_shared &struct ta_group_shared.
 * @n_shared: In. 0 to %TA_GROUP_MAX_SHARED.
 * @shared_size: In. sizeof(struct ta_group_shared) as userspace knows it.
 * @group_id: Out. The group's plan ID (0 for a dry run).
 * @optimal: Out. 1 when the plan is proven optimal.
 * @height: Out. Bytes the group needs.
 * @lower_bound: Out. No plan of the group can be lower.
 * @plan_time_ns: Out. Time the planner took.
 * @mmap_offset: Out. mmap() offset of the group's slice.
 * @slice_size: Out. Bytes of arena the group holds (@capacity or
 *		@height, rounded up to a page).
 * @reserved: Must be zero.
 */
struct ta_group_create {
	__u32 flags;
	__u32 strategy;
	__u64 budget_ns;
	__u64 budget_steps;
	__u64 default_align;
	__u64 capacity;
	__u64 members;
	__u32 n_members;
	__u32 member_size;
	__u64 links;
	__u32 n_links;
	__u32 link_size;
	__u64 shared;
	__u32 n_shared;
	__u32 shared_size;
	__u32 group_id;
	__u32 optimal;
	__u64 height;
	__u64 lower_bound;
	__u64 plan_time_ns;
	__u64 mmap_offset;
	__u64 slice_size;
	__u64 reserved[4];
};

/* &ta_group_add.flags */
#define TA_GROUP_ADD_REPLAN	0x1	/* may move every tensor of the group */

/**
 * struct ta_group_add - add a member to a group; argument of
 * %TA_IOCTL_GROUP_ADD
 * @group_id: In. The group's plan ID.
 * @flags: In. %TA_GROUP_ADD_* bits; others must be zero. Without
 *	   %TA_GROUP_ADD_REPLAN no tensor of the group moves: the member is
 *	   placed in the slice around what may be live beside it, or the
 *	   call fails with -ENOSPC. With it the whole group is planned anew
 *	   (the slice may grow), which fails with -EBUSY while any member is
 *	   mapped, exported or has jobs in flight.
 * @strategy: In. As &ta_group_create.strategy, for the new member.
 * @member: In/Out. User pointer to one &struct ta_group_member of
 *	    @member_size bytes; its &ta_group_member.plan_id is written
 *	    back. It runs after every member of its lane.
 * @member_size: In. sizeof(struct ta_group_member) as userspace knows it.
 * @n_links: In. Links into (or out of) the new member, 0 to
 *	     %TA_GROUP_MAX_LINKS; member index @n_members of the group (as
 *	     &ta_group_get.n_members counts them) is the new member.
 * @links: In. User pointer to @n_links &struct ta_group_link.
 * @link_size: In. sizeof(struct ta_group_link) as userspace knows it.
 * @n_shared: In. The new member's shared tensors.
 * @shared: In. User pointer to @n_shared &struct ta_group_shared; a key
 *	    the group has already is the existing tensor.
 * @shared_size: In. sizeof(struct ta_group_shared) as userspace knows it.
 * @budget_ns: In. As &ta_plan_create.budget_ns.
 * @height: Out. The group's height after the call.
 * @reserved: Must be zero.
 */
struct ta_group_add {
	__u32 group_id;
	__u32 flags;
	__u32 strategy;
	__u32 member_size;
	__u64 member;
	__u32 n_links;
	__u32 link_size;
	__u64 links;
	__u32 n_shared;
	__u32 shared_size;
	__u64 shared;
	__u64 budget_ns;
	__u64 height;
	__u64 reserved[2];
};

/**
 * struct ta_group_get - read a group; argument of %TA_IOCTL_GROUP_GET
 * @group_id: In. The group's plan ID.
 * @flags: In. Must be zero.
 * @members: In. User pointer to room for @n_members __u32 member plan IDs,
 *	     in member order, or 0 to ask for the count only.
 * @n_members: In/Out. In: room at @members; out: the group's member count
 *	       (-ENOSPC with the count when the room is too small).
 * @n_lanes: Out. Highest lane used plus one.
 * @height: Out. Bytes the group needs.
 * @lower_bound: Out. As &ta_group_create.lower_bound.
 * @slice_size: Out. Bytes of arena it holds.
 * @mmap_offset: Out. mmap() offset of its slice.
 * @reserved: Must be zero.
 */
struct ta_group_get {
	__u32 group_id;
	__u32 flags;
	__u64 members;
	__u32 n_members;
	__u32 n_lanes;
	__u64 height;
	__u64 lower_bound;
	__u64 slice_size;
	__u64 mmap_offset;
	__u64 reserved[2];
};

#define TA_IOCTL_BASE		0xA7
#define TA_IOCTL_INFO		_IOWR(TA_IOCTL_BASE, 0x00, struct ta_info)
#define TA_IOCTL_PLAN_CREATE	_IOWR(TA_IOCTL_BASE, 0x01, struct ta_plan_create)
#define TA_IOCTL_PLAN_GET	_IOWR(TA_IOCTL_BASE, 0x02, struct ta_plan_get)
#define TA_IOCTL_PLAN_DESTROY	_IOW(TA_IOCTL_BASE, 0x03, struct ta_plan_destroy)
#define TA_IOCTL_PLAN_EXPORT	_IOWR(TA_IOCTL_BASE, 0x04, struct ta_plan_export)
#define TA_IOCTL_TENSOR_EXPORT _IOWR(TA_IOCTL_BASE, 0x05, struct ta_tensor_export)
#define TA_IOCTL_GROUP_CREATE	_IOWR(TA_IOCTL_BASE, 0x06, struct ta_group_create)
#define TA_IOCTL_GROUP_ADD	_IOWR(TA_IOCTL_BASE, 0x07, struct ta_group_add)
#define TA_IOCTL_GROUP_GET	_IOWR(TA_IOCTL_BASE, 0x08, struct ta_group_get)

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
