/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * tensorarena.h - libtensorarena: plan NPU tensor memory with the
 * tensorarena kernel module, or offline with the same planner.
 *
 * Handles are opaque; functions return 0 or a negative errno (the kernel's,
 * when it refused). Link with -ltensorarena (pkg-config tensorarena).
 *
 * Typical use:
 *	struct ta_graph_builder *g = ta_graph_new();
 *	int in = ta_graph_add_tensor(g, 150528, 64, TA_TENSOR_INPUT);
 *	...
 *	ta_graph_add_op(g, inputs, 2, outputs, 1);
 *	ta_client_open(TA_TRANSPORT_AUTO, &c);
 *	ta_plan_submit(c, g, NULL, &p);
 *	ta_plan_map(p);
 *	memcpy(ta_plan_tensor(p, in), image, 150528);
 */
#ifndef TENSORARENA_H
#define TENSORARENA_H

#include <stddef.h>
#include <stdint.h>

#include <linux/tensorarena.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this header declares is the library's API: the one part of it with
 * default visibility (the library builds with -fvisibility=hidden).
 */
#pragma GCC visibility push(default)

struct ta_graph_builder;
struct ta_client;
struct ta_plan;

/* Graph builder: ops in execution order over tensors (graph form), or
 * buffers with explicit lifetimes (lifetime form); one form per graph.
 */
struct ta_graph_builder *ta_graph_new(void);
void ta_graph_free(struct ta_graph_builder *g);
/* Returns the tensor's index (>= 0) or -errno. @align 0 means the graph's
 * default alignment (ta_graph_set_default_align(), 1 unless set). @flags:
 * TA_TENSOR_*; TA_TENSOR_EXPORTABLE plans the tensor in whole pages at a
 * page-aligned offset, for ta_plan_export_tensor() (its ta_plan_size() is
 * then the size rounded up to whole pages).
 */
int ta_graph_add_tensor(struct ta_graph_builder *g, uint64_t size, uint64_t align,
			uint32_t flags);
/* Returns the op's index (>= 0) or -errno. */
int ta_graph_add_op(struct ta_graph_builder *g, const uint32_t *inputs,
		    uint32_t n_inputs, const uint32_t *outputs,
		    uint32_t n_outputs);
/* Lifetime form: live over steps [start, end). Returns the index or -errno. */
int ta_graph_add_buffer(struct ta_graph_builder *g, uint64_t size, uint64_t align,
			uint32_t start, uint32_t end);
uint32_t ta_graph_tensor_count(const struct ta_graph_builder *g);
/* The alignment of the graph's tensors (or buffers) added with align 0: a
 * power of two up to 2^32, or 0 for 1 (the default). Sent with the plan
 * (ta_plan_create.default_align) and used offline alike; -EINVAL otherwise.
 */
int ta_graph_set_default_align(struct ta_graph_builder *g, uint64_t align);
/* The graph's default alignment (1 unless set). */
uint64_t ta_graph_default_align(const struct ta_graph_builder *g);
uint32_t ta_graph_op_count(const struct ta_graph_builder *g);
/* Mark op @op (an index ta_graph_add_op() returned) with TA_OP_* flags:
 * TA_OP_INPLACE says it is a view of its first input (RESHAPE, SQUEEZE,
 * ...), whose first output may share that input's memory; the planner
 * shares them when the input dies at the op (see linux/tensorarena.h).
 * -EINVAL for the lifetime form, an unknown op or flag, or TA_OP_INPLACE
 * on an op without an input and an output.
 */
int ta_graph_set_op_flags(struct ta_graph_builder *g, uint32_t op,
			  uint32_t flags);

/**
 * struct ta_load_options - how ta_graph_load() reads a file (NULL: zero)
 * @align: when not 0, the alignment of every tensor (a power of two up to
 *	   2^32): a model importer's own (64) is replaced
 * @flags: TA_LOAD_* bits
 * @reserved: must be zero
 */
struct ta_load_options {
	uint64_t align;
	uint32_t flags;
	uint32_t reserved[2];
};

/* Leave the model's constant tensors (weights) out of the graph. */
#define TA_LOAD_NO_CONSTANTS	0x1

/* Build a graph from a file: a TFLite model (.tflite, every subgraph), an
 * ONNX model (.onnx), a graph file or a trace CSV (Documentation/), read as
 * tactl reads it, with in-place ops marked. On a format error -errno and,
 * when @err is not NULL, "FILE: what" in it (@errlen bytes). *out is a new
 * builder the caller frees with ta_graph_free().
 */
int ta_graph_load(const char *path, const struct ta_load_options *opts,
		  struct ta_graph_builder **out, char *err, size_t errlen);
/**
 * struct ta_load_dim - the size of an ONNX model's symbolic dimension
 * @name: the name a graph input gives a dimension it leaves open (its
 *	  dim_param, such as a batch "N"), or "INPUT[AXIS]" for dimension
 *	  AXIS of graph input INPUT (one without a name, too)
 * @size: the size the model will run at
 */
struct ta_load_dim {
	const char *name;
	uint64_t size;
};

/* ta_graph_load() for a model whose inputs leave dimensions open: every
 * graph input's dimension named @dims[i].name is @dims[i].size (@n_dims
 * of them, at most 64); one given no size is taken as 1, and a runtime
 * fed a larger input writes larger tensors than that plan holds. -EINVAL,
 * with a message, for a name no graph input has (a misspelt name would
 * leave it at 1), a name given twice, the position of a static dimension,
 * a dimension given both by name and by position, a size above 2^36, or
 * sizes for a file that is not an ONNX model.
 */
int ta_graph_load_dims(const char *path, const struct ta_load_options *opts,
		       const struct ta_load_dim *dims, uint32_t n_dims,
		       struct ta_graph_builder **out, char *err, size_t errlen);
/* The offsets a plan made elsewhere gave the loaded graph's tensors (a
 * TFLite model's OfflineMemoryAllocation metadata, a plan CSV's offset
 * column; TA_OFFSET_UNFIXED for those it leaves to the planner), ready for
 * ta_plan_submit_fixed(); NULL when the file had none.
 */
const uint64_t *ta_graph_model_offsets(const struct ta_graph_builder *g);

enum ta_transport {
	TA_TRANSPORT_AUTO = 0,	/* netlink when the family is there, else ioctl */
	TA_TRANSPORT_IOCTL,
	TA_TRANSPORT_NETLINK,
};

int ta_client_open(enum ta_transport transport, struct ta_client **out);
void ta_client_close(struct ta_client *c);
/* Which transport the client ended up with. */
enum ta_transport ta_client_transport(const struct ta_client *c);
int ta_client_info(struct ta_client *c, struct ta_info *info);
/* The kernel's message (netlink extack) for the last request of @c that
 * failed, e.g. which two tensors of a fixed plan conflict; "" when it gave
 * none or @c uses the ioctl transport.
 */
const char *ta_client_last_error(const struct ta_client *c);

/**
 * struct ta_plan_options - how to plan (NULL means all zero)
 * @strategy: TA_STRATEGY_* (0: auto)
 * @flags: TA_CREATE_DRY_RUN or 0
 * @budget_ns: planning time for searching strategies, 0: default
 * @budget_steps: search-step limit, 0: none
 * @fast_capacity: with a fast tier (TENSORARENA_0.7): the fast-tier (SRAM)
 *		   bytes the plan may take; not 0 plans across both tiers
 *		   (TA_CREATE_TIERED is then implied), with each tensor's
 *		   ta_graph_set_tensor_tier() request. 0: one tier, as
 *		   before (TA_CREATE_TIERED in @flags with 0: -EINVAL)
 * @reserved: must be zero (-EINVAL otherwise): room for options to come,
 *	      which will mean "as before" when zero, so a program that
 *	      zero-initialises the struct keeps working unchanged
 *
 * Programs built before @reserved existed (the 24-byte struct of
 * TENSORARENA_0.1) keep calling ta_plan_submit@TENSORARENA_0.1 and
 * ta_plan_offline@TENSORARENA_0.1, which read only those 24 bytes.
 */
struct ta_plan_options {
	uint32_t strategy;
	uint32_t flags;
	uint64_t budget_ns;
	uint64_t budget_steps;
	uint64_t fast_capacity;
	uint64_t reserved[3];
};

/* Plan @g in the kernel; *out holds the plan and its placements. */
int ta_plan_submit(struct ta_client *c, const struct ta_graph_builder *g,
		   const struct ta_plan_options *opts, struct ta_plan **out);
/* Plan @g in this process with the same planner (no module needed). */
int ta_plan_offline(const struct ta_graph_builder *g,
		    const struct ta_plan_options *opts, struct ta_plan **out);
/* Serve a plan a compiler or runtime already made (TA_STRATEGY_FIXED):
 * @offsets has one offset per tensor, each a multiple of its alignment, or
 * TA_OFFSET_UNFIXED to have it placed around the others; @height is the
 * arena height it was made for, or 0 for max(offset + size). The kernel
 * (or, with @c NULL, this process) checks that no two tensors live at one
 * step share a byte (an in-place pair may, at one offset; a tensor whose
 * bytes and lifetime lie within another fixed one's may share with it,
 * unless either is exportable) and fails with
 * -EINVAL otherwise; over netlink, ta_client_last_error() then names the
 * two tensors (on kernels from 6.2; before, the kernel log does). @flags:
 * TA_CREATE_DRY_RUN or 0 (0 only when offline).
 */
int ta_plan_submit_fixed(struct ta_client *c, const struct ta_graph_builder *g,
			 const uint64_t *offsets, uint64_t height,
			 uint32_t flags, struct ta_plan **out);
/* A plan that exists in the kernel (e.g. listed), by ID. */
int ta_plan_open(struct ta_client *c, uint32_t id, struct ta_plan **out);

uint32_t ta_plan_id(const struct ta_plan *p);		/* 0: offline or dry run */
uint32_t ta_plan_tensor_count(const struct ta_plan *p);
uint64_t ta_plan_height(const struct ta_plan *p);
uint64_t ta_plan_lower_bound(const struct ta_plan *p);
uint64_t ta_plan_time_ns(const struct ta_plan *p);
uint32_t ta_plan_strategy(const struct ta_plan *p);
int ta_plan_optimal(const struct ta_plan *p);
uint64_t ta_plan_offset(const struct ta_plan *p, uint32_t tensor);
uint64_t ta_plan_size(const struct ta_plan *p, uint32_t tensor);

/* Map the plan's slice (kernel plans only), and its fast slice when it
 * has one that the fast tier lets be mapped; then ta_plan_tensor() gives
 * each tensor's address in its tier. The mappings keep the memory alive
 * even after ta_plan_destroy(). -EINVAL for an offline or dry-run plan, or
 * one with no bytes in either tier.
 */
int ta_plan_map(struct ta_plan *p);
void *ta_plan_tensor(const struct ta_plan *p, uint32_t tensor);
/* Export the plan's slice as a dma-buf, for an NPU driver or another
 * process: returns a new read-write file descriptor in this process (over
 * either transport), with FD_CLOEXEC when @flags has TA_EXPORT_CLOEXEC
 * (with TA_EXPORT_FAST: the plan's fast slice; -EOPNOTSUPP when the fast
 * tier cannot be exported, -EINVAL for a plan without a fast slice), or
 * -errno: -EINVAL for an offline or dry-run plan, a destroyed handle, a
 * plan of height 0 or an unknown flag; -ENOENT when the plan is gone;
 * -EMFILE. The buffer keeps the memory alive until every descriptor,
 * mapping and importer lets go, even after ta_plan_destroy() and
 * ta_client_close(); the caller closes the descriptor.
 */
int ta_plan_export_dmabuf(struct ta_plan *p, uint32_t flags);
/* Export one tensor, added with TA_TENSOR_EXPORTABLE, as a dma-buf of its
 * own (a camera capturing into an input tensor, say): returns a new
 * read-write descriptor in this process (either transport), FD_CLOEXEC with
 * TA_EXPORT_CLOEXEC, or -errno: -EINVAL for an offline or dry-run plan, a
 * destroyed handle, an index out of range, a tensor not exportable or of
 * size 0, an unknown flag; -ENOENT when the plan is gone; -EMFILE. The
 * buffer's size is ta_plan_size(p, tensor) (lseek(fd, 0, SEEK_END)), its
 * first byte the tensor's (ta_plan_offset()); it keeps the plan's memory
 * alive as ta_plan_export_dmabuf()'s does.
 */
int ta_plan_export_tensor(struct ta_plan *p, uint32_t tensor, uint32_t flags);
/* Destroy the kernel plan (its ID); the handle stays readable. */
int ta_plan_destroy(struct ta_plan *p);
/* Unmap and free the handle (does not destroy the kernel plan). */
void ta_plan_free(struct ta_plan *p);

/* Call @fn for every plan the caller may see; stops at a non-zero return. */
int ta_client_list(struct ta_client *c,
		   int (*fn)(const struct ta_plan_get *plan, void *arg),
		   void *arg);

/* Events of the tensorarena netlink family, as they come. */
struct ta_events;

enum ta_event_type {
	TA_EVENT_PLAN_CREATED = 1,
	TA_EVENT_PLAN_DESTROYED,
	TA_EVENT_PRESSURE,	/* a plan did not fit: the arena is short */
};

/**
 * struct ta_event - one event
 * @type: enum ta_event_type
 * @plan_id: created, destroyed: the plan
 * @uid: created, destroyed: its owner's uid
 * @n_tensors: created: its tensor count
 * @height: created: its height
 * @requested: pressure: the height that did not fit
 * @bytes_in_use: pressure: arena bytes in use then
 * @largest_free: pressure: the largest free slice then
 * @arena_size: pressure: the arena's size
 */
struct ta_event {
	uint32_t type;
	uint32_t plan_id;
	uint32_t uid;
	uint32_t n_tensors;
	uint64_t height;
	uint64_t requested;
	uint64_t bytes_in_use;
	uint64_t largest_free;
	uint64_t arena_size;
};

/* Subscribe (a netlink socket of its own): 0, -ENOENT when the module is
 * not loaded, -ENOMEM, -errno. Events sent before this returns are not seen.
 */
int ta_events_open(struct ta_events **out);
/* A descriptor that polls readable when events may be waiting. */
int ta_events_fd(const struct ta_events *ev);
/* The next event into *e: 1; 0 when none came within @timeout_ms (-1:
 * wait for ever, 0: do not wait); -ENOBUFS once when events were lost (the
 * subscriber read too slowly); -errno.
 */
int ta_events_next(struct ta_events *ev, struct ta_event *e, int timeout_ms);
void ta_events_close(struct ta_events *ev);

/* Groups (TENSORARENA_0.6): several graphs planned into one slice. */
struct ta_group_builder;
struct ta_group;

/**
 * ta_graph_tensor_find() - a loaded graph's tensor by name
 * @g: a graph from ta_graph_load()
 * @name: a tensor's name as the file gives it (a graph file's or ONNX
 *	  model's name, a TFLite model's tensor index, a trace's id)
 *
 * Return: the tensor's index; -ENOENT when no tensor has that name (or
 * @g was built by hand, without names); -EINVAL for a NULL @name.
 */
int ta_graph_tensor_find(const struct ta_graph_builder *g, const char *name);

/**
 * ta_graph_tensor_name() - a loaded graph's name of a tensor
 * @g: the graph
 * @tensor: its index
 *
 * Return: the name, owned by @g; NULL for a graph built by hand or an
 * index out of range.
 */
const char *ta_graph_tensor_name(const struct ta_graph_builder *g,
				 uint32_t tensor);

/**
 * ta_group_new() - an empty group description
 *
 * Members, links and shared tensors are added to it, then it is planned
 * with ta_group_submit() or ta_group_offline(), which copy what they need:
 * the builder and its graphs may be freed afterwards.
 *
 * Return: the builder, or NULL when out of memory.
 */
struct ta_group_builder *ta_group_new(void);

/**
 * ta_group_builder_free() - free a group description
 * @gb: the builder, or NULL
 */
void ta_group_builder_free(struct ta_group_builder *gb);

/**
 * ta_group_add_member() - add a graph as the group's next member
 * @gb: the group
 * @g: the graph (either form); it must live until @gb is planned
 * @lane: below %TA_GROUP_MAX_LANES. Members of one lane run one after
 *	  another in the order they were added and share bytes; members of
 *	  different lanes may run at once and share none
 *
 * Return: the member's index (>= 0); -EINVAL for a bad lane or a NULL
 * graph; -E2BIG past %TA_GROUP_MAX_MEMBERS; -ENOMEM.
 */
int ta_group_add_member(struct ta_group_builder *gb,
			const struct ta_graph_builder *g, uint32_t lane);

/**
 * ta_group_link() - hand a tensor of a member to a later one, with no copy
 * @gb: the group
 * @from_member: the member that writes it
 * @from_tensor: its tensor there
 * @to_member: the member that reads it
 * @to_tensor: its tensor there (a graph input)
 *
 * The two become one tensor at one offset (&struct ta_group_link gives the
 * rules, which the planner checks).
 *
 * Return: 0; -EINVAL for a member or tensor out of range; -E2BIG past
 * %TA_GROUP_MAX_LINKS; -ENOMEM.
 */
int ta_group_link(struct ta_group_builder *gb, uint32_t from_member,
		  uint32_t from_tensor, uint32_t to_member, uint32_t to_tensor);

/**
 * ta_group_link_name() - ta_group_link() with tensors named
 * @gb: the group
 * @from_member: the member that writes it
 * @from: its tensor's name (ta_graph_tensor_find()) or, when no tensor
 *	  has that name, its decimal index
 * @to_member: the member that reads it
 * @to: its tensor's name or index there
 *
 * Return: as ta_group_link(); -ENOENT when a name is neither.
 */
int ta_group_link_name(struct ta_group_builder *gb, uint32_t from_member,
		       const char *from, uint32_t to_member, const char *to);

/**
 * ta_group_share() - make a tensor one persistent tensor of the group
 * @gb: the group
 * @member: the member
 * @tensor: its tensor
 * @key: tensors given the same key, in any members, are one tensor at one
 *	 offset for the whole run of the group (&struct ta_group_shared)
 *
 * Return: 0; -EINVAL for a member or tensor out of range; -E2BIG past
 * %TA_GROUP_MAX_SHARED; -ENOMEM.
 */
int ta_group_share(struct ta_group_builder *gb, uint32_t member,
		   uint32_t tensor, uint32_t key);

/**
 * struct ta_group_options - how to plan a group (NULL means all zero)
 * @strategy: %TA_STRATEGY_* (0: auto; not FIXED or PINGPONG)
 * @flags: %TA_GROUP_DRY_RUN or 0 (0 only offline)
 * @budget_ns: planning time for the whole group, 0: the default
 * @budget_steps: search-step limit, 0: none
 * @capacity: bytes of slice to hold, at least the group's height, so that
 *	      members added later fit without a re-plan; 0: the height
 * @reserved: must be zero (-EINVAL otherwise): room for options to come,
 *	      which will mean "as before" when zero
 */
struct ta_group_options {
	uint32_t strategy;
	uint32_t flags;
	uint64_t budget_ns;
	uint64_t budget_steps;
	uint64_t capacity;
	uint64_t reserved[4];
};

/**
 * ta_group_submit() - plan a group in the kernel
 * @c: the client
 * @gb: the group
 * @opts: options, or NULL
 * @out: the group; its members are plans of their own
 *	 (ta_group_member()), whose offsets are from the group's slice
 *
 * Return: 0, or the kernel's errno (-EINVAL for a bad member, lane, link
 * or shared entry, -ENOSPC when the arena or @opts->capacity is short).
 */
int ta_group_submit(struct ta_client *c, const struct ta_group_builder *gb,
		    const struct ta_group_options *opts, struct ta_group **out);

/**
 * ta_group_offline() - plan a group in this process, with the same planner
 * @gb: the group
 * @opts: options, or NULL
 * @out: the group
 *
 * Return: 0; -EINVAL for a bad member, lane, link or shared entry or bad
 * options; -E2BIG; -ENOMEM.
 */
int ta_group_offline(const struct ta_group_builder *gb,
		     const struct ta_group_options *opts,
		     struct ta_group **out);

/* The group's figures: its plan ID (0 offline or for a dry run), members,
 * the bytes it needs, its lower bound, planning time, whether proven
 * optimal, the bytes of slice it holds (its capacity or height), and one
 * member's lane.
 */
uint32_t ta_group_id(const struct ta_group *grp);
uint32_t ta_group_member_count(const struct ta_group *grp);
uint64_t ta_group_height(const struct ta_group *grp);
uint64_t ta_group_lower_bound(const struct ta_group *grp);
uint64_t ta_group_time_ns(const struct ta_group *grp);
int ta_group_optimal(const struct ta_group *grp);
uint64_t ta_group_slice_size(const struct ta_group *grp);
uint32_t ta_group_member_lane(const struct ta_group *grp, uint32_t member);

/**
 * ta_group_member() - a member, as a plan
 * @grp: the group
 * @member: its index
 *
 * ta_plan_id(), ta_plan_offset() (from the group's slice), ta_plan_size(),
 * ta_plan_tensor() (after ta_group_map()), ta_plan_export_dmabuf() and
 * ta_plan_export_tensor() take it; ta_plan_height() is the end of its
 * highest tensor. The group owns it: never ta_plan_free() it.
 *
 * Return: the member; NULL out of range or for a dry run.
 */
struct ta_plan *ta_group_member(const struct ta_group *grp, uint32_t member);

/**
 * ta_group_map() - map the group's slice (kernel groups only)
 * @grp: the group
 *
 * Then ta_plan_tensor() of every member gives its tensors' addresses. The
 * mapping keeps the memory alive even after ta_group_destroy().
 *
 * Return: 0; -EINVAL for an offline or dry-run group; -errno of mmap().
 */
int ta_group_map(struct ta_group *grp);

/**
 * ta_group_export_dmabuf() - export the group's whole slice as a dma-buf
 * @grp: the group
 * @flags: %TA_EXPORT_CLOEXEC or 0
 *
 * As ta_plan_export_dmabuf() of a plan; a member's own is
 * ta_plan_export_dmabuf(ta_group_member(grp, m), flags).
 *
 * Return: a new descriptor, or -errno (-EINVAL offline).
 */
int ta_group_export_dmabuf(struct ta_group *grp, uint32_t flags);

/**
 * struct ta_group_add_options - how ta_group_add() adds a member
 * @flags: %TA_GROUP_ADD_REPLAN to plan the whole group anew (the slice may
 *	   grow; the kernel refuses with -EBUSY while a member is in use), 0
 *	   to place the member around every tensor already there
 * @lane: the new member's lane: it runs after the lane's other members
 * @strategy: how to place it (0: auto)
 * @n_links: entries of @links
 * @links: links into or out of it; member index ta_group_member_count()
 *	   (before the call) is the new member
 * @n_shared: entries of @shared
 * @shared: its shared tensors; a key the group has already is that tensor
 * @budget_ns: planning time, 0: the default
 * @reserved: must be zero
 */
struct ta_group_add_options {
	uint32_t flags;
	uint32_t lane;
	uint32_t strategy;
	uint32_t n_links;
	const struct ta_group_link *links;
	uint32_t n_shared;
	uint32_t pad;
	const struct ta_group_shared *shared;
	uint64_t budget_ns;
	uint64_t reserved[4];
};

/**
 * ta_group_add() - add a member to a planned group
 * @grp: the group (kernel or offline)
 * @g: the new member's graph (copied: it may be freed afterwards)
 * @opts: options, or NULL (lane 0, no links, no re-plan)
 *
 * Without %TA_GROUP_ADD_REPLAN no tensor of the group moves.
 *
 * Return: the new member's index; -ENOSPC when it does not fit in the
 * slice around what may be live beside it; -EBUSY (kernel, re-plan) while
 * the group is in use; -EINVAL; -E2BIG; -ENOMEM.
 */
int ta_group_add(struct ta_group *grp, const struct ta_graph_builder *g,
		 const struct ta_group_add_options *opts);

/**
 * ta_group_destroy() - destroy a kernel group and every member
 * @grp: the group; the handle stays readable
 *
 * Return: 0; -EINVAL for an offline or dry-run group; the kernel's errno.
 */
int ta_group_destroy(struct ta_group *grp);

/**
 * ta_group_free() - unmap and free the handle and its members' handles
 * @grp: the group, or NULL (the kernel group lives on)
 */
void ta_group_free(struct ta_group *grp);

/*
 * Memory tiers (TENSORARENA_0.7): an NPU's fast memory (SRAM) beside the
 * arena (DRAM). A plan with &ta_plan_options.fast_capacity places each
 * tensor in one tier, the fast set chosen so that it fits the capacity at
 * every step and the weight it serves is as large as the planner can make
 * it (Documentation/libtensorarena.md, "Memory tiers").
 */

/**
 * ta_graph_set_tensor_tier() - what a tiered plan should do with a tensor
 * @g: the graph (either form)
 * @tensor: the tensor's (or lifetime buffer's) index
 * @weight: the value of serving it from the fast tier, in any unit; 0 for
 *	    the default, the bytes the NPU moves for it (its size times one
 *	    plus its readers; lifetime form: twice its size)
 * @pin: %TA_TIER_ANY (the planner chooses), %TA_TIER_FAST or %TA_TIER_SLOW.
 *	 The tensors of one in-place chain share bytes, so one tier: a plan
 *	 whose pins disagree there fails (%TA_TIER_FAIL_CLASS)
 *
 * Read only by tiered plans; a tensor never set is %TA_TIER_ANY with the
 * default weight.
 *
 * Return: 0; -EINVAL for a tensor out of range or an unknown pin; -ENOMEM.
 */
int ta_graph_set_tensor_tier(struct ta_graph_builder *g, uint32_t tensor,
			     uint64_t weight, uint32_t pin);

/**
 * struct ta_tier_failure - why a tiered plan's pins cannot be met
 * @kind: %TA_TIER_FAIL_NONE when they can (the plan failed for another
 *	  reason, or succeeded); %TA_TIER_FAIL_SIZE: @tensor, pinned fast,
 *	  is larger than the capacity; %TA_TIER_FAIL_LIVE: the tensors pinned
 *	  fast live at @step need more than it (@tensor the last of them to
 *	  start); %TA_TIER_FAIL_PLAN: they fit at every step, but no plan of
 *	  them the planner found fits (@tensor ends highest);
 *	  %TA_TIER_FAIL_CLASS: @tensor shares bytes (an in-place chain) with
 *	  one pinned to the other tier
 * @tensor: the tensor's index
 * @step: %TA_TIER_FAIL_LIVE: the step
 * @shortfall: the bytes the fast tier lacks
 */
struct ta_tier_failure {
	uint32_t kind;
	uint32_t tensor;
	uint32_t step;
	uint32_t pad;
	uint64_t shortfall;
};

/**
 * ta_plan_submit_tiered() - plan across tiers, saying which pin failed
 * @c: the client, or NULL to plan in this process (as ta_plan_offline())
 * @g: the graph, with its ta_graph_set_tensor_tier() requests
 * @opts: options; @opts->fast_capacity must not be 0
 * @fail: out (may be NULL): on a pin that cannot be met, which tensor,
 *	  why and by how much; kind %TA_TIER_FAIL_NONE otherwise
 * @out: the plan
 *
 * ta_plan_submit() and ta_plan_offline() with a fast capacity make the
 * same plan; this one also reads back the pin failure.
 *
 * Return: 0; -EINVAL for bad options (a capacity of 0, the fixed strategy)
 * or pins that contradict an in-place chain (@fail says which); -ENOSPC
 * when the tensors pinned fast cannot fit (@fail says which), or, in the
 * kernel, when a tier has no free slice that long; -ENODEV when the module
 * has no fast tier; what ta_plan_submit() returns.
 */
int ta_plan_submit_tiered(struct ta_client *c, const struct ta_graph_builder *g,
			  const struct ta_plan_options *opts,
			  struct ta_tier_failure *fail, struct ta_plan **out);

/**
 * struct ta_plan_tiers - a tiered plan's figures
 * @fast_capacity: the capacity it was planned for (0: an untiered plan,
 *		   and every other field is 0)
 * @fast_height: fast-tier bytes it takes, at most @fast_capacity;
 *		 ta_plan_height() is then the arena's (DRAM) height
 * @n_fast: tensors in the fast tier
 * @pad: zero
 * @weight_total: the weight of every tensor
 * @weight_fast: the weight the fast tier serves
 * @weight_bound: no plan within @fast_capacity serves more
 * @reserved: zero
 */
struct ta_plan_tiers {
	uint64_t fast_capacity;
	uint64_t fast_height;
	uint32_t n_fast;
	uint32_t pad;
	uint64_t weight_total;
	uint64_t weight_fast;
	uint64_t weight_bound;
	uint64_t reserved[2];
};

/**
 * ta_plan_tiers() - a plan's tier figures
 * @p: the plan
 * @t: out: all zero for an untiered plan
 */
void ta_plan_tiers(const struct ta_plan *p, struct ta_plan_tiers *t);

/**
 * ta_plan_tensor_tier() - the tier a tensor lives in
 * @p: the plan
 * @tensor: its index
 *
 * ta_plan_offset() is then from the start of the plan's slice of that
 * tier, and ta_plan_tensor(), after ta_plan_map(), the tensor's address
 * there (NULL for a fast tensor when the fast tier cannot be mapped:
 * &ta_info.fast_flags lacks %TA_FAST_MAPPABLE).
 *
 * Return: %TA_TIER_SLOW (every tensor of an untiered plan) or
 * %TA_TIER_FAST; 0 for an index out of range.
 */
uint32_t ta_plan_tensor_tier(const struct ta_plan *p, uint32_t tensor);

const char *ta_strategy_str(uint32_t strategy);
int ta_strategy_parse(const char *name);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* TENSORARENA_H */
