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

/**
 * struct ta_plan_options - how to plan (NULL means all zero)
 * @strategy: TA_STRATEGY_* (0: auto)
 * @flags: TA_CREATE_DRY_RUN or 0
 * @budget_ns: planning time for searching strategies, 0: default
 * @budget_steps: search-step limit, 0: none
 */
struct ta_plan_options {
	uint32_t strategy;
	uint32_t flags;
	uint64_t budget_ns;
	uint64_t budget_steps;
};

/* Plan @g in the kernel; *out holds the plan and its placements. */
int ta_plan_submit(struct ta_client *c, const struct ta_graph_builder *g,
		   const struct ta_plan_options *opts, struct ta_plan **out);
/* Plan @g in this process with the same planner (no module needed). */
int ta_plan_offline(const struct ta_graph_builder *g,
		    const struct ta_plan_options *opts, struct ta_plan **out);
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

const char *ta_strategy_str(uint32_t strategy);
int ta_strategy_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* TENSORARENA_H */
