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
	uint64_t reserved[4];
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

/* Map the plan's slice (kernel plans only); then ta_plan_tensor() gives
 * each tensor's address. The mapping keeps the memory alive even after
 * ta_plan_destroy().
 */
int ta_plan_map(struct ta_plan *p);
void *ta_plan_tensor(const struct ta_plan *p, uint32_t tensor);
/* Export the plan's slice as a dma-buf, for an NPU driver or another
 * process: returns a new read-write file descriptor in this process (over
 * either transport), with FD_CLOEXEC when @flags has TA_EXPORT_CLOEXEC, or
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

const char *ta_strategy_str(uint32_t strategy);
int ta_strategy_parse(const char *name);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* TENSORARENA_H */
