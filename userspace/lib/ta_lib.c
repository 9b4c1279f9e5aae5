// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_lib.c - libtensorarena: graph builder, clients, plans.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_client.h"
#include "ta_planner.h"

/* Most tensors, ops and references a graph may hold; the kernel has its
 * own (lower, configurable) limits.
 */
#define TA_LIB_MAX_COUNT	TA_PLAN_MAX_BUFFERS

static int ta_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	if (need > TA_LIB_MAX_COUNT)
		return -E2BIG;
	ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, (size_t)ncap * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

struct ta_graph_builder *ta_graph_new(void)
{
	return calloc(1, sizeof(struct ta_graph_builder));
}

void ta_graph_free(struct ta_graph_builder *g)
{
	if (!g)
		return;
	free(g->tensors);
	free(g->lifetimes);
	free(g->ops);
	free(g->refs);
	free(g->model_offsets);
	free(g->tiers);
	if (g->names)
		for (uint32_t i = 0; i < g->n_tensors; i++)
			free(g->names[i]);
	free(g->names);
	free(g);
}

uint32_t ta_graph_tensor_count(const struct ta_graph_builder *g)
{
	return g->n_tensors;
}

int ta_graph_set_op_flags(struct ta_graph_builder *g, uint32_t op,
			  uint32_t flags)
{
	const struct ta_op *o;

	if (g->lifetime_form || op >= g->n_ops || (flags & ~TA_OP_INPLACE))
		return -EINVAL;
	o = &g->ops[op];
	if ((flags & TA_OP_INPLACE) && (!o->n_inputs || !o->n_outputs))
		return -EINVAL;
	g->ops[op].flags = flags;
	return 0;
}

const uint64_t *ta_graph_model_offsets(const struct ta_graph_builder *g)
{
	return g->model_offsets;
}

void ta_graph_take_model_offsets(struct ta_graph_builder *g,
				 uint64_t *offsets)
{
	free(g->model_offsets);
	g->model_offsets = offsets;
}

void ta_graph_take_names(struct ta_graph_builder *g, char **names)
{
	g->names = names;
}

int ta_graph_tensor_find(const struct ta_graph_builder *g, const char *name)
{
	uint32_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; g->names && i < g->n_tensors; i++)
		if (g->names[i] && !strcmp(g->names[i], name))
			return (int)i;
	return -ENOENT;
}

const char *ta_graph_tensor_name(const struct ta_graph_builder *g,
				 uint32_t tensor)
{
	return g->names && tensor < g->n_tensors ? g->names[tensor] : NULL;
}

uint32_t ta_graph_op_count(const struct ta_graph_builder *g)
{
	return g->n_ops;
}

static bool ta_align_ok(uint64_t align)
{
	return !(align & (align - 1)) && align <= TA_PLAN_MAX_ALIGN;
}

int ta_graph_add_tensor(struct ta_graph_builder *g, uint64_t size, uint64_t align,
			uint32_t flags)
{
	int err;

	if (g->lifetime_form || !ta_align_ok(align) ||
	    (flags & ~TA_TENSOR_FLAGS_ALL))
		return -EINVAL;
	err = ta_grow((void **)&g->tensors, &g->cap_tensors, g->n_tensors + 1,
		      sizeof(*g->tensors));
	if (err)
		return err;
	memset(&g->tensors[g->n_tensors], 0, sizeof(g->tensors[0]));
	g->tensors[g->n_tensors].size = size;
	g->tensors[g->n_tensors].align = align;
	g->tensors[g->n_tensors].flags = flags;
	return g->n_tensors++;
}

int ta_graph_add_op(struct ta_graph_builder *g, const uint32_t *inputs,
		    uint32_t n_inputs, const uint32_t *outputs,
		    uint32_t n_outputs)
{
	uint32_t i, need;
	struct ta_op *op;
	int err;

	if (g->lifetime_form || n_inputs > TA_LIB_MAX_COUNT ||
	    n_outputs > TA_LIB_MAX_COUNT)
		return -EINVAL;
	for (i = 0; i < n_inputs; i++)
		if (inputs[i] >= g->n_tensors)
			return -EINVAL;
	for (i = 0; i < n_outputs; i++)
		if (outputs[i] >= g->n_tensors)
			return -EINVAL;
	need = g->n_refs + n_inputs + n_outputs;
	if (need < g->n_refs)
		return -E2BIG;
	err = ta_grow((void **)&g->refs, &g->cap_refs, need, sizeof(*g->refs));
	if (!err)
		err = ta_grow((void **)&g->ops, &g->cap_ops, g->n_ops + 1,
			      sizeof(*g->ops));
	if (err)
		return err;
	op = &g->ops[g->n_ops];
	memset(op, 0, sizeof(*op));
	op->first_ref = g->n_refs;
	op->n_inputs = n_inputs;
	op->n_outputs = n_outputs;
	if (n_inputs)
		memcpy(g->refs + g->n_refs, inputs, n_inputs * sizeof(*inputs));
	if (n_outputs)
		memcpy(g->refs + g->n_refs + n_inputs, outputs,
		       n_outputs * sizeof(*outputs));
	g->n_refs = need;
	return g->n_ops++;
}

int ta_graph_add_buffer(struct ta_graph_builder *g, uint64_t size, uint64_t align,
			uint32_t start, uint32_t end)
{
	int err;

	if ((g->n_tensors && !g->lifetime_form) || !ta_align_ok(align) ||
	    start >= end)
		return -EINVAL;
	err = ta_grow((void **)&g->lifetimes, &g->cap_tensors,
		      g->n_tensors + 1, sizeof(*g->lifetimes));
	if (err)
		return err;
	g->lifetime_form = true;
	g->lifetimes[g->n_tensors].size = size;
	g->lifetimes[g->n_tensors].align = align;
	g->lifetimes[g->n_tensors].start = start;
	g->lifetimes[g->n_tensors].end = end;
	return g->n_tensors++;
}

int ta_graph_set_default_align(struct ta_graph_builder *g, uint64_t align)
{
	if (!ta_align_ok(align))
		return -EINVAL;
	g->default_align = align;
	return 0;
}

uint64_t ta_graph_default_align(const struct ta_graph_builder *g)
{
	return g->default_align ? g->default_align : 1;
}

void ta_graph_member_request(const struct ta_graph_builder *g, uint32_t lane,
			     struct ta_group_member *m)
{
	memset(m, 0, sizeof(*m));
	m->lane = lane;
	m->n_tensors = g->n_tensors;
	if (g->lifetime_form) {
		m->flags = TA_CREATE_LIFETIMES;
		m->tensors = (uintptr_t)g->lifetimes;
		m->tensor_size = sizeof(struct ta_lifetime);
	} else {
		m->tensors = (uintptr_t)g->tensors;
		m->tensor_size = sizeof(struct ta_tensor);
	}
	m->ops = (uintptr_t)g->ops;
	m->n_ops = g->n_ops;
	m->op_size = sizeof(struct ta_op);
	m->refs = (uintptr_t)g->refs;
	m->n_refs = g->n_refs;
}

/* The graph as a PLAN_CREATE request (pointers into @g). */
static void ta_graph_request(const struct ta_graph_builder *g,
			     const struct ta_plan_options *opts,
			     struct ta_plan_create *args)
{
	memset(args, 0, sizeof(*args));
	if (opts) {
		args->strategy = opts->strategy;
		args->flags = opts->flags;
		args->budget_ns = opts->budget_ns;
		args->budget_steps = opts->budget_steps;
	}
	args->n_tensors = g->n_tensors;
	args->default_align = g->default_align;
	if (g->lifetime_form) {
		args->flags |= TA_CREATE_LIFETIMES;
		args->tensors = (uintptr_t)g->lifetimes;
		args->tensor_size = sizeof(struct ta_lifetime);
	} else {
		args->tensors = (uintptr_t)g->tensors;
		args->tensor_size = sizeof(struct ta_tensor);
	}
	args->ops = (uintptr_t)g->ops;
	args->n_ops = g->n_ops;
	args->op_size = sizeof(struct ta_op);
	args->refs = (uintptr_t)g->refs;
	args->n_refs = g->n_refs;
}

int ta_client_open(enum ta_transport transport, struct ta_client **out)
{
	struct ta_client *c;
	int err;

	if (transport > TA_TRANSPORT_NETLINK)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->dev_fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (c->dev_fd < 0) {
		err = -errno;
		free(c);
		return err;
	}
	c->transport = TA_TRANSPORT_IOCTL;
	c->ops = &ta_ioctl_ops;
	if (transport != TA_TRANSPORT_IOCTL) {
		err = ta_netlink_open(c);
		if (!err) {
			c->transport = TA_TRANSPORT_NETLINK;
			c->ops = &ta_netlink_ops;
		} else if (transport == TA_TRANSPORT_NETLINK) {
			close(c->dev_fd);
			free(c);
			return err;
		}
	}
	*out = c;
	return 0;
}

void ta_client_close(struct ta_client *c)
{
	if (!c)
		return;
	c->ops->close(c);
	close(c->dev_fd);
	free(c);
}

enum ta_transport ta_client_transport(const struct ta_client *c)
{
	return c->transport;
}

int ta_client_info(struct ta_client *c, struct ta_info *info)
{
	return c->ops->info(c, info);
}

struct ta_plan *ta_plan_alloc(uint32_t n_tensors)
{
	struct ta_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->n_tensors = n_tensors;
	p->placements = calloc(n_tensors ? n_tensors : 1,
			       sizeof(*p->placements));
	if (!p->placements) {
		free(p);
		return NULL;
	}
	return p;
}

/* Read plan @id's figures and placements into a new handle. */
int ta_plan_fetch(struct ta_client *c, uint32_t id, struct ta_plan **out)
{
	int (*get)(struct ta_client *c, struct ta_plan_get *args) = c->ops->get;
	struct ta_plan_get g;
	struct ta_plan *p;
	int err;

	memset(&g, 0, sizeof(g));
	g.plan_id = id;
	err = get(c, &g);
	if (err)
		return err;
	p = ta_plan_alloc(g.n_placements);
	if (!p)
		return -ENOMEM;
	g.placements = (uintptr_t)p->placements;
	g.placement_size = sizeof(*p->placements);
	err = get(c, &g);
	if (!err && g.n_placements != p->n_tensors)
		err = -ESTALE;
	if (err) {
		ta_plan_free(p);
		return err;
	}
	p->client = c;
	p->id = id;
	p->strategy = g.strategy;
	p->optimal = g.optimal;
	p->height = g.height;
	p->lower_bound = g.lower_bound;
	p->time_ns = g.plan_time_ns;
	p->mmap_offset = g.mmap_offset;
	ta_plan_tiers_from_get(p, &g);
	*out = p;
	return 0;
}

int ta_plan_open(struct ta_client *c, uint32_t id, struct ta_plan **out)
{
	return ta_plan_fetch(c, id, out);
}

static int ta_plan_submit_args(struct ta_client *c,
			       const struct ta_graph_builder *g,
			       const struct ta_plan_options *opts,
			       const uint64_t *fixed, uint64_t fixed_height,
			       struct ta_tier_failure *fail,
			       struct ta_plan **out)
{
	struct ta_tensor_tier *tiers;
	struct ta_plan_create args;
	struct ta_plan *p;
	int err;

	ta_graph_request(g, opts, &args);
	args.offsets = (uintptr_t)fixed;
	args.fixed_height = fixed_height;
	err = ta_graph_tier_request(g, opts, &args, &tiers);
	if (err)
		return err;
	err = c->ops->create(c, &args);
	free(tiers);
	ta_tier_failure_from_create(&args, fail);
	if (err)
		return err;
	if (!args.plan_id) {
		/* A dry run: figures only. */
		p = ta_plan_alloc(0);
		if (!p)
			return -ENOMEM;
		p->strategy = args.strategy;
		p->height = args.height;
		p->lower_bound = args.lower_bound;
		p->time_ns = args.plan_time_ns;
		p->optimal = args.optimal;
		ta_plan_tiers_from_create(p, &args);
		*out = p;
		return 0;
	}
	err = ta_plan_fetch(c, args.plan_id, out);
	if (err)
		c->ops->destroy(c, args.plan_id);
	return err;
}

/*
 * ta_plan_submit() and ta_plan_offline() take the current struct
 * ta_plan_options. In the shared library they are defined under these
 * names and bound to name@@TENSORARENA_0.5 (see the end of this file),
 * beside name@TENSORARENA_0.1 for programs built with the 24-byte struct.
 */
#ifdef TA_SHARED
#define ta_plan_submit ta_plan_submit_v05
#define ta_plan_offline ta_plan_offline_v05
int ta_plan_submit(struct ta_client *c, const struct ta_graph_builder *g,
		   const struct ta_plan_options *opts, struct ta_plan **out)
	__attribute__((visibility("default")));
int ta_plan_offline(const struct ta_graph_builder *g,
		    const struct ta_plan_options *opts, struct ta_plan **out)
	__attribute__((visibility("default")));
#endif

/* Options a caller may pass to ta_plan_submit() and ta_plan_offline(). */
static bool ta_plan_options_valid(const struct ta_plan_options *opts)
{
	size_t i;

	if (!opts)
		return true;
	if (opts->strategy == TA_STRATEGY_FIXED)
		return false;	/* ta_plan_submit_fixed() gives the offsets */
	for (i = 0; i < sizeof(opts->reserved) / sizeof(opts->reserved[0]); i++)
		if (opts->reserved[i])
			return false;
	/* the tier flag without a capacity: a capacity of 0 */
	return !(opts->flags & TA_CREATE_TIERED) || opts->fast_capacity;
}

int ta_plan_submit(struct ta_client *c, const struct ta_graph_builder *g,
		   const struct ta_plan_options *opts, struct ta_plan **out)
{
	if (!ta_plan_options_valid(opts))
		return -EINVAL;
	return ta_plan_submit_args(c, g, opts, NULL, 0, NULL, out);
}

void ta_lib_problem_free(struct ta_lib_problem *lp)
{
	free(lp->buffers);
	free(lp->gt);
	free(lp->gops);
	memset(lp, 0, sizeof(*lp));
}

int ta_lib_problem(const struct ta_graph_builder *g, struct ta_lib_problem *lp)
{
	uint32_t i, n = g->n_tensors;
	struct ta_buffer *buffers;

	memset(lp, 0, sizeof(*lp));
	lp->buffers = calloc(n ? n : 1, sizeof(*lp->buffers));
	if (!lp->buffers)
		return -ENOMEM;
	buffers = lp->buffers;
	lp->prob.n_buffers = n;
	lp->prob.buffers = buffers;
	if (g->lifetime_form) {
		for (i = 0; i < n; i++) {
			buffers[i].size = g->lifetimes[i].size;
			buffers[i].align = g->lifetimes[i].align ?:
					   ta_graph_default_align(g);
			buffers[i].start = g->lifetimes[i].start;
			buffers[i].end = g->lifetimes[i].end;
		}
		return 0;
	}
	lp->gt = calloc(n ? n : 1, sizeof(*lp->gt));
	lp->gops = calloc(g->n_ops ? g->n_ops : 1, sizeof(*lp->gops));
	if (!lp->gt || !lp->gops)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		lp->gt[i].size = g->tensors[i].size;
		lp->gt[i].align = g->tensors[i].align ?:
				  ta_graph_default_align(g);
		lp->gt[i].flags = g->tensors[i].flags;
	}
	for (i = 0; i < g->n_ops; i++) {
		lp->gops[i].first_ref = g->ops[i].first_ref;
		lp->gops[i].n_inputs = g->ops[i].n_inputs;
		lp->gops[i].n_outputs = g->ops[i].n_outputs;
		lp->gops[i].flags = g->ops[i].flags;
	}
	lp->graph.n_tensors = n;
	lp->graph.n_ops = g->n_ops;
	lp->graph.n_refs = g->n_refs;
	lp->graph.tensors = lp->gt;
	lp->graph.ops = lp->gops;
	lp->graph.refs = g->refs;
	lp->prob.graph = &lp->graph;
	return ta_graph_lifetimes(&lp->graph, buffers);
}

static int ta_plan_offline_run(const struct ta_graph_builder *g,
			       const struct ta_plan_options *opts,
			       const uint64_t *fixed, uint64_t fixed_height,
			       struct ta_plan **out)
{
	static const struct ta_plan_options defaults;
	uint32_t i, n = g->n_tensors;
	struct ta_lib_problem lp;
	struct ta_budget budget = { 0 };
	u64 *offsets = NULL;
	struct ta_result res;
	struct ta_plan *p;
	int err = -ENOMEM;

	if (!opts)
		opts = &defaults;
	if (opts->flags & ~TA_CREATE_DRY_RUN)
		return -EINVAL;
	budget.time_ns = opts->budget_ns;
	budget.steps = opts->budget_steps;
	p = ta_plan_alloc(n);
	offsets = calloc(n ? n : 1, sizeof(*offsets));
	memset(&lp, 0, sizeof(lp));
	if (!p || !offsets)
		goto out;
	err = ta_lib_problem(g, &lp);
	if (err)
		goto out;
	lp.prob.fixed = (const u64 *)fixed;
	lp.prob.fixed_height = fixed_height;
	err = ta_plan_solve(&lp.prob, opts->strategy, &budget, offsets, &res);
	if (err)
		goto out;
	for (i = 0; i < n; i++) {
		p->placements[i].offset = offsets[i];
		p->placements[i].size = lp.buffers[i].size;
	}
	p->strategy = opts->strategy;
	p->optimal = res.optimal;
	p->height = res.height;
	p->lower_bound = res.lower_bound;
	p->time_ns = res.time_ns;
	*out = p;
	p = NULL;
	err = 0;
out:
	ta_plan_free(p);
	ta_lib_problem_free(&lp);
	free(offsets);
	return err;
}

int ta_plan_offline(const struct ta_graph_builder *g,
		    const struct ta_plan_options *opts, struct ta_plan **out)
{
	if (!ta_plan_options_valid(opts))
		return -EINVAL;
	if (ta_plan_options_tiered(opts))
		return ta_plan_offline_tiered(g, opts, NULL, out);
	return ta_plan_offline_run(g, opts, NULL, 0, out);
}

int ta_plan_submit_tiered(struct ta_client *c, const struct ta_graph_builder *g,
			  const struct ta_plan_options *opts,
			  struct ta_tier_failure *fail, struct ta_plan **out)
{
	if (fail)
		memset(fail, 0, sizeof(*fail));
	if (!opts || !opts->fast_capacity || !ta_plan_options_valid(opts))
		return -EINVAL;
	if (!c)
		return ta_plan_offline_tiered(g, opts, fail, out);
	return ta_plan_submit_args(c, g, opts, NULL, 0, fail, out);
}

#ifdef TA_SHARED
/* The current struct: the default version of both names. */
__asm__(".symver ta_plan_submit_v05, ta_plan_submit@@TENSORARENA_0.5");
__asm__(".symver ta_plan_offline_v05, ta_plan_offline@@TENSORARENA_0.5");

/*
 * TENSORARENA_0.1's struct ta_plan_options, before it had room to grow:
 * what programs linked against that version pass (24 bytes). Only the
 * shared library carries these; a static link always gets the current
 * struct.
 */
struct ta_plan_options_v01 {
	uint32_t strategy;
	uint32_t flags;
	uint64_t budget_ns;
	uint64_t budget_steps;
};

static const struct ta_plan_options *
ta_plan_options_from_v01(const struct ta_plan_options_v01 *old,
			 struct ta_plan_options *o)
{
	if (!old)
		return NULL;
	memset(o, 0, sizeof(*o));
	o->strategy = old->strategy;
	o->flags = old->flags;
	o->budget_ns = old->budget_ns;
	o->budget_steps = old->budget_steps;
	return o;
}

__asm__(".symver ta_plan_submit_v01, ta_plan_submit@TENSORARENA_0.1");
__attribute__((visibility("default")))
int ta_plan_submit_v01(struct ta_client *c, const struct ta_graph_builder *g,
		       const struct ta_plan_options_v01 *opts,
		       struct ta_plan **out);
int ta_plan_submit_v01(struct ta_client *c, const struct ta_graph_builder *g,
		       const struct ta_plan_options_v01 *opts,
		       struct ta_plan **out)
{
	struct ta_plan_options o;

	return ta_plan_submit(c, g, ta_plan_options_from_v01(opts, &o), out);
}

__asm__(".symver ta_plan_offline_v01, ta_plan_offline@TENSORARENA_0.1");
__attribute__((visibility("default")))
int ta_plan_offline_v01(const struct ta_graph_builder *g,
			const struct ta_plan_options_v01 *opts,
			struct ta_plan **out);
int ta_plan_offline_v01(const struct ta_graph_builder *g,
			const struct ta_plan_options_v01 *opts,
			struct ta_plan **out)
{
	struct ta_plan_options o;

	return ta_plan_offline(g, ta_plan_options_from_v01(opts, &o), out);
}
#endif

int ta_plan_submit_fixed(struct ta_client *c, const struct ta_graph_builder *g,
			 const uint64_t *offsets, uint64_t height,
			 uint32_t flags, struct ta_plan **out)
{
	struct ta_plan_options o = {
		.strategy = TA_STRATEGY_FIXED,
		.flags = flags,
	};

	if (!offsets || (flags & ~TA_CREATE_DRY_RUN))
		return -EINVAL;
	if (!c)
		return flags ? -EINVAL :
		       ta_plan_offline_run(g, &o, offsets, height, out);
	return ta_plan_submit_args(c, g, &o, offsets, height, NULL, out);
}

uint32_t ta_plan_id(const struct ta_plan *p)
{
	return p->id;
}

uint32_t ta_plan_tensor_count(const struct ta_plan *p)
{
	return p->n_tensors;
}

uint64_t ta_plan_height(const struct ta_plan *p)
{
	return p->height;
}

uint64_t ta_plan_lower_bound(const struct ta_plan *p)
{
	return p->lower_bound;
}

uint64_t ta_plan_time_ns(const struct ta_plan *p)
{
	return p->time_ns;
}

uint32_t ta_plan_strategy(const struct ta_plan *p)
{
	return p->strategy;
}

int ta_plan_optimal(const struct ta_plan *p)
{
	return p->optimal;
}

uint64_t ta_plan_offset(const struct ta_plan *p, uint32_t tensor)
{
	return tensor < p->n_tensors ? p->placements[tensor].offset : 0;
}

uint64_t ta_plan_size(const struct ta_plan *p, uint32_t tensor)
{
	return tensor < p->n_tensors ? p->placements[tensor].size : 0;
}

/* Map @height bytes (rounded up to a page) at @offset: 0 or -errno. */
static int ta_plan_map_slice(struct ta_plan *p, uint64_t height,
			     uint64_t offset, void **map, size_t *map_len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (height + page - 1) & ~(uint64_t)(page - 1);
	void *m;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 p->client->dev_fd, offset);
	if (m == MAP_FAILED)
		return -errno;
	*map = m;
	*map_len = len;
	return 0;
}

int ta_plan_map(struct ta_plan *p)
{
	bool fast = p->tiers.fast_height && p->fast_mmap_offset;
	int err;

	if (p->map || p->fast_map)
		return 0;
	if (!p->client || !p->id || (!p->height && !fast))
		return -EINVAL;
	if (p->height) {
		err = ta_plan_map_slice(p, p->height, p->mmap_offset, &p->map,
					&p->map_len);
		if (err)
			return err;
	}
	if (fast) {
		err = ta_plan_map_slice(p, p->tiers.fast_height,
					p->fast_mmap_offset, &p->fast_map,
					&p->fast_map_len);
		if (err && p->map) {
			munmap(p->map, p->map_len);
			p->map = NULL;
			p->map_len = 0;
		}
		return err;
	}
	return 0;
}

void *ta_plan_tensor(const struct ta_plan *p, uint32_t tensor)
{
	void *base;

	if (tensor >= p->n_tensors)
		return NULL;
	base = p->placements[tensor].tier == TA_TIER_FAST ? p->fast_map :
	       p->map;
	return base ? (char *)base + p->placements[tensor].offset : NULL;
}

int ta_plan_destroy(struct ta_plan *p)
{
	int err;

	if (!p->client || !p->id)
		return -EINVAL;
	err = p->client->ops->destroy(p->client, p->id);
	if (!err)
		p->id = 0;
	return err;
}

int ta_plan_export_dmabuf(struct ta_plan *p, uint32_t flags)
{
	struct ta_plan_export x;
	int err;

	if (!p->client || !p->id)
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.plan_id = p->id;
	x.flags = flags;
	err = p->client->ops->export_dmabuf(p->client, &x);
	return err ? err : x.fd;
}

int ta_plan_export_tensor(struct ta_plan *p, uint32_t tensor, uint32_t flags)
{
	struct ta_tensor_export x;
	int err;

	if (!p->client || !p->id)
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.plan_id = p->id;
	x.tensor = tensor;
	x.flags = flags;
	err = p->client->ops->export_tensor(p->client, &x);
	return err ? err : x.fd;
}

void ta_plan_free(struct ta_plan *p)
{
	if (!p)
		return;
	if (p->map && p->map_len)
		munmap(p->map, p->map_len);
	if (p->fast_map)
		munmap(p->fast_map, p->fast_map_len);
	free(p->placements);
	free(p);
}

int ta_client_list(struct ta_client *c,
		   int (*fn)(const struct ta_plan_get *plan, void *arg),
		   void *arg)
{
	struct ta_plan_get g;
	uint32_t after = 0;
	int err;

	for (;;) {
		memset(&g, 0, sizeof(g));
		g.plan_id = after;
		g.flags = TA_GET_NEXT;
		err = c->ops->get(c, &g);
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
		err = fn(&g, arg);
		if (err)
			return err;
		after = g.plan_id;
	}
}

const char *ta_strategy_str(uint32_t strategy)
{
	return ta_strategy_name(strategy);
}

int ta_strategy_parse(const char *name)
{
	return ta_strategy_from_name(name);
}
