/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * ta_client.h - inside libtensorarena: the transport interface.
 *
 * A transport moves the uAPI structs to the kernel and back: ioctl passes
 * them as they are, netlink turns them into attributes and back. Each
 * operation has the ioctl's semantics and errors.
 */
#ifndef TA_CLIENT_H
#define TA_CLIENT_H

#include <stdbool.h>

#include "tensorarena.h"
#include "ta_planner.h"

struct ta_transport_ops {
	int (*info)(struct ta_client *c, struct ta_info *info);
	/* In: the request with user pointers; Out: its Out fields. */
	int (*create)(struct ta_client *c, struct ta_plan_create *args);
	/* As TA_IOCTL_PLAN_GET, including TA_GET_NEXT. */
	int (*get)(struct ta_client *c, struct ta_plan_get *args);
	int (*destroy)(struct ta_client *c, uint32_t plan_id);
	/* As TA_IOCTL_PLAN_EXPORT: Out: args->fd, open in this process. */
	int (*export_dmabuf)(struct ta_client *c, struct ta_plan_export *args);
	/* As TA_IOCTL_TENSOR_EXPORT: Out: args->fd (in this process), size, offset. */
	int (*export_tensor)(struct ta_client *c, struct ta_tensor_export *args);
	/* As TA_IOCTL_GROUP_CREATE, _ADD and _GET. */
	int (*group_create)(struct ta_client *c, struct ta_group_create *args);
	int (*group_add)(struct ta_client *c, struct ta_group_add *args);
	int (*group_get)(struct ta_client *c, struct ta_group_get *args);
	void (*close)(struct ta_client *c);
};

/* What a builder holds (ta_lib.c); ta_group_lib.c reads it too. */
struct ta_graph_builder {
	bool lifetime_form;
	uint64_t default_align;		/* for align 0; 0: 1 */
	uint32_t n_tensors, n_ops, n_refs;
	uint32_t cap_tensors, cap_ops, cap_refs;
	struct ta_tensor *tensors;	/* graph form */
	struct ta_lifetime *lifetimes;	/* lifetime form */
	struct ta_op *ops;
	uint32_t *refs;
	uint64_t *model_offsets;	/* ta_graph_load(): the model's, or NULL */
	char **names;			/* ta_graph_load(): per tensor, or NULL */
	struct ta_tensor_tier *tiers;	/* ta_graph_set_tensor_tier(): the
					 * first @n_tiers tensors' requests
					 * (those after: TA_TIER_ANY, default
					 * weight), or NULL */
	uint32_t n_tiers, cap_tiers;
};

struct ta_plan {
	struct ta_client *client;	/* NULL for offline plans */
	uint32_t id;
	uint32_t strategy;
	uint32_t n_tensors;
	bool optimal;
	uint64_t height, lower_bound, time_ns, mmap_offset;
	struct ta_placement *placements;
	void *map;
	size_t map_len;			/* 0: a group's mapping, not its own */
	struct ta_plan_tiers tiers;	/* all zero: untiered */
	uint64_t fast_mmap_offset;	/* 0: the fast slice cannot be mapped */
	void *fast_map;			/* the fast slice's mapping, or NULL */
	size_t fast_map_len;
};

struct ta_client {
	enum ta_transport transport;
	const struct ta_transport_ops *ops;
	int dev_fd;		/* /dev/tensorarena: ioctl, and mmap for all */
	void *nl;		/* the netlink transport's state */
};

extern const struct ta_transport_ops ta_ioctl_ops;
extern const struct ta_transport_ops ta_netlink_ops;
/* The ioctl transport's group calls; the netlink transport's
 * (ta_netlink_group.c) send a request beyond one message through them.
 */
int ta_ioctl_group_create(struct ta_client *c, struct ta_group_create *args);
int ta_ioctl_group_add(struct ta_client *c, struct ta_group_add *args);
int ta_ioctl_group_get(struct ta_client *c, struct ta_group_get *args);
/* Open the netlink transport's state into c->nl; -errno when the family
 * is missing (-ENOENT) or libnl fails.
 */
int ta_netlink_open(struct ta_client *c);
/*
 * For tests: whether the netlink client @c sends graphs in packed arrays
 * (1) or nests (0); @packed 0 or 1 sets it, -1 only reads it. Returns the
 * setting before, or -EINVAL for a client of another transport.
 */
int ta_netlink_packed(struct ta_client *c, int packed);

/* ta_graph_load(): hand the model's fixed offsets to the builder. */
void ta_graph_take_model_offsets(struct ta_graph_builder *g,
				 uint64_t *offsets);

/* ta_graph_load(): hand the tensors' names (@n of them) to the builder. */
void ta_graph_take_names(struct ta_graph_builder *g, char **names);

/* A plan handle of @n_tensors placements, all zero. */
struct ta_plan *ta_plan_alloc(uint32_t n_tensors);
/* Read plan @id's figures and placements into a new handle. */
int ta_plan_fetch(struct ta_client *c, uint32_t id, struct ta_plan **out);

/**
 * struct ta_lib_problem - a builder as the planner takes it
 * @prob: the problem (@prob.graph NULL for the lifetime form)
 * @graph: the graph form's graph
 * @buffers: per tensor, its lifetime
 * @gt: the graph form's tensors
 * @gops: its ops
 */
struct ta_lib_problem {
	struct ta_problem prob;
	struct ta_graph graph;
	struct ta_buffer *buffers;
	struct ta_graph_tensor *gt;
	struct ta_graph_op *gops;
};

/* @g as a planner problem (pointers into @g and @lp); 0, -ENOMEM, or what
 * ta_graph_lifetimes() finds wrong. ta_lib_problem_free() in any case.
 */
int ta_lib_problem(const struct ta_graph_builder *g, struct ta_lib_problem *lp);
void ta_lib_problem_free(struct ta_lib_problem *lp);

/* ta_lib_tier.c: tiered plans. */
/* Options that ask for a tiered plan (a fast capacity, or the flag). */
bool ta_plan_options_tiered(const struct ta_plan_options *opts);
/*
 * The tier fields of a PLAN_CREATE request for @g: TA_CREATE_TIERED, the
 * capacity and, when @g has requests, *@tiers (one per tensor, the
 * caller frees it once the request is sent). 0, -EINVAL, -ENOMEM.
 */
int ta_graph_tier_request(const struct ta_graph_builder *g,
			  const struct ta_plan_options *opts,
			  struct ta_plan_create *args,
			  struct ta_tensor_tier **tiers);
/* A failed create's pin failure into @fail (may be NULL). */
void ta_tier_failure_from_create(const struct ta_plan_create *args,
				 struct ta_tier_failure *fail);
/* A tiered create's (or dry run's) figures into @p. */
void ta_plan_tiers_from_create(struct ta_plan *p,
			       const struct ta_plan_create *args);
/* PLAN_GET's tier figures into @p. */
void ta_plan_tiers_from_get(struct ta_plan *p, const struct ta_plan_get *g);
/* Plan @g across tiers in this process (ta_tier_solve()). */
int ta_plan_offline_tiered(const struct ta_graph_builder *g,
			   const struct ta_plan_options *opts,
			   struct ta_tier_failure *fail, struct ta_plan **out);

/* @g as one member of a GROUP_CREATE or GROUP_ADD request. */
void ta_graph_member_request(const struct ta_graph_builder *g, uint32_t lane,
			     struct ta_group_member *m);

#endif /* TA_CLIENT_H */
