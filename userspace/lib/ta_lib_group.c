// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_lib_group.c - libtensorarena: groups, several graphs planned into one
 * slice (tensorarena.h, Documentation/libtensorarena.md "Groups").
 *
 * A group planned in the kernel is GROUP_CREATE (then a plan per member,
 * read back with PLAN_GET); one planned offline is ta_group_solve() of the
 * planner the module runs, on copies of the members' graphs that the group
 * keeps for ta_group_add(). Either way a member is a struct ta_plan whose
 * offsets are from the group's slice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_client.h"
#include "ta_group.h"

struct ta_group_builder {
	uint32_t n_members;
	const struct ta_graph_builder *graphs[TA_GROUP_MAX_MEMBERS];
	uint32_t lanes[TA_GROUP_MAX_MEMBERS];
	uint32_t n_links;
	struct ta_group_link links[TA_GROUP_MAX_LINKS];
	uint32_t n_shared;
	struct ta_group_shared shared[TA_GROUP_MAX_SHARED];
};

struct ta_group {
	struct ta_client *client;	/* NULL offline */
	uint32_t id;			/* 0: offline or dry run */
	uint32_t strategy;
	bool optimal;
	uint64_t height, lower_bound, time_ns, capacity, slice_size;
	uint64_t mmap_offset;
	uint32_t n_members;
	uint32_t lanes[TA_GROUP_MAX_MEMBERS];
	struct ta_plan *members[TA_GROUP_MAX_MEMBERS];
	void *map;
	size_t map_len;
	/* offline: what ta_group_add() plans again */
	struct ta_graph_builder *graphs[TA_GROUP_MAX_MEMBERS];
	uint32_t n_links;
	struct ta_group_link links[TA_GROUP_MAX_LINKS];
	uint32_t n_shared;
	struct ta_group_shared shared[TA_GROUP_MAX_SHARED];
	u64 *offsets;			/* group-wide */
};

struct ta_group_builder *ta_group_new(void)
{
	return calloc(1, sizeof(struct ta_group_builder));
}

void ta_group_builder_free(struct ta_group_builder *gb)
{
	free(gb);
}

int ta_group_add_member(struct ta_group_builder *gb,
			const struct ta_graph_builder *g, uint32_t lane)
{
	if (!g || lane >= TA_GROUP_MAX_LANES)
		return -EINVAL;
	if (gb->n_members >= TA_GROUP_MAX_MEMBERS)
		return -E2BIG;
	gb->graphs[gb->n_members] = g;
	gb->lanes[gb->n_members] = lane;
	return (int)gb->n_members++;
}

static bool ta_group_tensor_ok(const struct ta_group_builder *gb, uint32_t m,
			       uint32_t t)
{
	return m < gb->n_members && t < gb->graphs[m]->n_tensors;
}

int ta_group_link(struct ta_group_builder *gb, uint32_t from_member,
		  uint32_t from_tensor, uint32_t to_member, uint32_t to_tensor)
{
	struct ta_group_link *l;

	if (!ta_group_tensor_ok(gb, from_member, from_tensor) ||
	    !ta_group_tensor_ok(gb, to_member, to_tensor))
		return -EINVAL;
	if (gb->n_links >= TA_GROUP_MAX_LINKS)
		return -E2BIG;
	l = &gb->links[gb->n_links++];
	l->from_member = from_member;
	l->from_tensor = from_tensor;
	l->to_member = to_member;
	l->to_tensor = to_tensor;
	return 0;
}

/* A tensor by name, else by decimal index; -ENOENT when neither. */
static int ta_group_tensor_named(const struct ta_graph_builder *g,
				 const char *name)
{
	unsigned long v;
	char *end;
	int t = ta_graph_tensor_find(g, name);

	if (t != -ENOENT)
		return t;
	if (name[0] < '0' || name[0] > '9')
		return -ENOENT;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (errno || *end || v >= g->n_tensors)
		return -ENOENT;
	return (int)v;
}

int ta_group_link_name(struct ta_group_builder *gb, uint32_t from_member,
		       const char *from, uint32_t to_member, const char *to)
{
	int a, b;

	if (!from || !to || from_member >= gb->n_members ||
	    to_member >= gb->n_members)
		return -EINVAL;
	a = ta_group_tensor_named(gb->graphs[from_member], from);
	if (a < 0)
		return a;
	b = ta_group_tensor_named(gb->graphs[to_member], to);
	if (b < 0)
		return b;
	return ta_group_link(gb, from_member, a, to_member, b);
}

int ta_group_share(struct ta_group_builder *gb, uint32_t member,
		   uint32_t tensor, uint32_t key)
{
	struct ta_group_shared *s;

	if (!ta_group_tensor_ok(gb, member, tensor))
		return -EINVAL;
	if (gb->n_shared >= TA_GROUP_MAX_SHARED)
		return -E2BIG;
	s = &gb->shared[gb->n_shared++];
	memset(s, 0, sizeof(*s));
	s->member = member;
	s->tensor = tensor;
	s->key = key;
	return 0;
}

static bool ta_group_options_valid(const struct ta_group_options *o)
{
	size_t i;

	if (!o)
		return true;
	if (o->strategy == TA_STRATEGY_FIXED ||
	    o->strategy == TA_STRATEGY_PINGPONG ||
	    (o->flags & ~TA_GROUP_DRY_RUN))
		return false;
	for (i = 0; i < sizeof(o->reserved) / sizeof(o->reserved[0]); i++)
		if (o->reserved[i])
			return false;
	return true;
}

static struct ta_group *ta_group_alloc(void)
{
	return calloc(1, sizeof(struct ta_group));
}

/* A copy of @g's tensors, ops and references (not its names). */
static struct ta_graph_builder *ta_graph_clone(const struct ta_graph_builder *g)
{
	struct ta_graph_builder *c = ta_graph_new();
	size_t nt = g->n_tensors ? g->n_tensors : 1;

	if (!c)
		return NULL;
	c->lifetime_form = g->lifetime_form;
	c->default_align = g->default_align;
	c->n_tensors = c->cap_tensors = g->n_tensors;
	c->n_ops = c->cap_ops = g->n_ops;
	c->n_refs = c->cap_refs = g->n_refs;
	if (g->lifetime_form) {
		c->lifetimes = malloc(nt * sizeof(*c->lifetimes));
		if (!c->lifetimes)
			goto free_clone;
		memcpy(c->lifetimes, g->lifetimes,
		       g->n_tensors * sizeof(*c->lifetimes));
	} else {
		c->tensors = malloc(nt * sizeof(*c->tensors));
		c->ops = malloc((g->n_ops ? g->n_ops : 1) * sizeof(*c->ops));
		c->refs = malloc((g->n_refs ? g->n_refs : 1) * sizeof(*c->refs));
		if (!c->tensors || !c->ops || !c->refs)
			goto free_clone;
		memcpy(c->tensors, g->tensors, g->n_tensors * sizeof(*c->tensors));
		if (g->n_ops)
			memcpy(c->ops, g->ops, g->n_ops * sizeof(*c->ops));
		if (g->n_refs)
			memcpy(c->refs, g->refs, g->n_refs * sizeof(*c->refs));
	}
	return c;
free_clone:
	ta_graph_free(c);
	return NULL;
}

void ta_group_free(struct ta_group *grp)
{
	uint32_t m;

	if (!grp)
		return;
	if (grp->map)
		munmap(grp->map, grp->map_len);
	for (m = 0; m < grp->n_members; m++) {
		ta_plan_free(grp->members[m]);
		ta_graph_free(grp->graphs[m]);
	}
	free(grp->offsets);
	free(grp);
}

/*
 * Offline: plan the group's graphs (grp->graphs, lanes, links, shared)
 * with ta_group_solve(), or, when @n_old is not 0, place the members from
 * @n_old on around the first @n_old with ta_group_extend(); then build
 * the member handles anew.
 */
static int ta_group_plan_here(struct ta_group *grp, uint32_t n_old,
			      uint32_t strategy, const struct ta_budget *budget)
{
	struct ta_group_member_problem mp[TA_GROUP_MAX_MEMBERS];
	struct ta_lib_problem lp[TA_GROUP_MAX_MEMBERS];
	struct ta_group_problem gp = { 0 };
	struct ta_group_result res;
	uint32_t m, t, n_all;
	u64 *offsets = NULL;
	int err = 0;

	memset(lp, 0, sizeof(lp));
	for (m = 0; m < grp->n_members && !err; m++) {
		err = ta_lib_problem(grp->graphs[m], &lp[m]);
		mp[m].problem = lp[m].prob;
		mp[m].lane = grp->lanes[m];
	}
	if (err)
		goto free_problems;
	gp.n_members = grp->n_members;
	gp.members = mp;
	gp.n_links = grp->n_links;
	gp.links = grp->links;
	gp.n_shared = grp->n_shared;
	gp.shared = grp->shared;
	n_all = ta_group_tensor_count(&gp);
	offsets = calloc(n_all ? n_all : 1, sizeof(*offsets));
	if (!offsets) {
		err = -ENOMEM;
		goto free_problems;
	}
	memset(&res, 0, sizeof(res));
	if (n_old)
		err = ta_group_extend(&gp, n_old, grp->offsets, grp->capacity,
				      strategy, budget, offsets, &res);
	else
		err = ta_group_solve(&gp, strategy, budget, offsets, &res);
	if (err)
		goto free_problems;
	for (m = 0; m < grp->n_members; m++) {
		struct ta_plan *p = ta_plan_alloc(lp[m].prob.n_buffers);

		if (!p) {
			err = -ENOMEM;
			goto free_problems;
		}
		p->strategy = strategy;
		for (t = 0; t < lp[m].prob.n_buffers; t++) {
			u64 off = offsets[ta_group_index(&gp, m, t)];
			u64 size = lp[m].buffers[t].size;

			p->placements[t].offset = off;
			p->placements[t].size = size;
			if (size && off + size > p->height)
				p->height = off + size;
		}
		ta_plan_free(grp->members[m]);
		grp->members[m] = p;
	}
	free(grp->offsets);
	grp->offsets = offsets;
	offsets = NULL;
	grp->strategy = strategy;
	grp->height = res.height;
	grp->lower_bound = res.lower_bound;
	grp->time_ns = res.time_ns;
	grp->optimal = res.optimal;
	if (grp->capacity < grp->height)
		grp->capacity = grp->height;
	grp->slice_size = grp->capacity;
free_problems:
	free(offsets);
	for (m = 0; m < grp->n_members; m++)
		ta_lib_problem_free(&lp[m]);
	return err;
}

int ta_group_offline(const struct ta_group_builder *gb,
		     const struct ta_group_options *opts,
		     struct ta_group **out)
{
	static const struct ta_group_options defaults;
	struct ta_budget budget = { 0 };
	struct ta_group *grp;
	uint32_t m;
	int err;

	if (!opts)
		opts = &defaults;
	if (!gb || !gb->n_members || !ta_group_options_valid(opts) ||
	    opts->flags)
		return -EINVAL;
	grp = ta_group_alloc();
	if (!grp)
		return -ENOMEM;
	grp->n_members = gb->n_members;
	for (m = 0; m < gb->n_members; m++) {
		grp->lanes[m] = gb->lanes[m];
		grp->graphs[m] = ta_graph_clone(gb->graphs[m]);
		if (!grp->graphs[m]) {
			ta_group_free(grp);
			return -ENOMEM;
		}
	}
	grp->n_links = gb->n_links;
	memcpy(grp->links, gb->links, sizeof(grp->links));
	grp->n_shared = gb->n_shared;
	memcpy(grp->shared, gb->shared, sizeof(grp->shared));
	grp->capacity = opts->capacity;
	budget.time_ns = opts->budget_ns;
	budget.steps = opts->budget_steps;
	err = ta_group_plan_here(grp, 0, opts->strategy, &budget);
	if (!err && opts->capacity && grp->height > opts->capacity)
		err = -ENOSPC;
	if (err) {
		ta_group_free(grp);
		return err;
	}
	*out = grp;
	return 0;
}

/* Kernel: the group's figures (GROUP_GET) and its members' plans anew. */
static int ta_group_refresh(struct ta_group *grp)
{
	uint32_t ids[TA_GROUP_MAX_MEMBERS], m;
	struct ta_group_get g;
	struct ta_plan *p;
	int err;

	memset(&g, 0, sizeof(g));
	g.group_id = grp->id;
	g.members = (uintptr_t)ids;
	g.n_members = TA_GROUP_MAX_MEMBERS;
	err = grp->client->ops->group_get(grp->client, &g);
	if (err)
		return err;
	if (g.n_members < grp->n_members)
		return -ESTALE;
	for (m = 0; m < g.n_members; m++) {
		err = ta_plan_fetch(grp->client, ids[m], &p);
		if (err)
			return err;
		if (grp->map) {
			p->map = grp->map;	/* the group's: map_len 0 */
			p->map_len = 0;
		}
		ta_plan_free(grp->members[m]);
		grp->members[m] = p;
	}
	grp->n_members = g.n_members;
	grp->height = g.height;
	grp->lower_bound = g.lower_bound;
	grp->slice_size = g.slice_size;
	grp->mmap_offset = g.mmap_offset;
	return 0;
}

int ta_group_submit(struct ta_client *c, const struct ta_group_builder *gb,
		    const struct ta_group_options *opts, struct ta_group **out)
{
	static const struct ta_group_options defaults;
	struct ta_group_member mem[TA_GROUP_MAX_MEMBERS];
	struct ta_group_create args;
	struct ta_group *grp;
	uint32_t m;
	int err;

	if (!opts)
		opts = &defaults;
	if (!c || !gb || !gb->n_members || !ta_group_options_valid(opts))
		return -EINVAL;
	memset(&args, 0, sizeof(args));
	for (m = 0; m < gb->n_members; m++)
		ta_graph_member_request(gb->graphs[m], gb->lanes[m], &mem[m]);
	args.flags = opts->flags;
	args.strategy = opts->strategy;
	args.budget_ns = opts->budget_ns;
	args.budget_steps = opts->budget_steps;
	args.default_align = gb->graphs[0]->default_align;
	args.capacity = opts->capacity;
	args.members = (uintptr_t)mem;
	args.n_members = gb->n_members;
	args.member_size = sizeof(mem[0]);
	args.links = (uintptr_t)gb->links;
	args.n_links = gb->n_links;
	args.link_size = sizeof(gb->links[0]);
	args.shared = (uintptr_t)gb->shared;
	args.n_shared = gb->n_shared;
	args.shared_size = sizeof(gb->shared[0]);
	err = c->ops->group_create(c, &args);
	if (err)
		return err;
	grp = ta_group_alloc();
	if (!grp) {
		err = -ENOMEM;
		goto destroy_group;
	}
	grp->client = c;
	grp->id = args.group_id;
	grp->strategy = args.strategy;
	grp->optimal = args.optimal;
	grp->height = args.height;
	grp->lower_bound = args.lower_bound;
	grp->time_ns = args.plan_time_ns;
	grp->slice_size = args.slice_size;
	grp->mmap_offset = args.mmap_offset;
	grp->n_members = gb->n_members;
	memcpy(grp->lanes, gb->lanes, sizeof(grp->lanes));
	if (grp->id) {
		err = ta_group_refresh(grp);
		if (err)
			goto free_group;
	}
	*out = grp;
	return 0;
free_group:
	ta_group_free(grp);
destroy_group:
	if (args.group_id)
		c->ops->destroy(c, args.group_id);
	return err;
}

uint32_t ta_group_id(const struct ta_group *grp)
{
	return grp->id;
}

uint32_t ta_group_member_count(const struct ta_group *grp)
{
	return grp->n_members;
}

uint64_t ta_group_height(const struct ta_group *grp)
{
	return grp->height;
}

uint64_t ta_group_lower_bound(const struct ta_group *grp)
{
	return grp->lower_bound;
}

uint64_t ta_group_time_ns(const struct ta_group *grp)
{
	return grp->time_ns;
}

int ta_group_optimal(const struct ta_group *grp)
{
	return grp->optimal;
}

uint64_t ta_group_slice_size(const struct ta_group *grp)
{
	return grp->slice_size;
}

uint32_t ta_group_member_lane(const struct ta_group *grp, uint32_t member)
{
	return member < grp->n_members ? grp->lanes[member] : 0;
}

struct ta_plan *ta_group_member(const struct ta_group *grp, uint32_t member)
{
	return member < grp->n_members ? grp->members[member] : NULL;
}

int ta_group_map(struct ta_group *grp)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t m;
	size_t len;
	void *map;

	if (grp->map)
		return 0;
	if (!grp->client || !grp->id)
		return -EINVAL;
	len = (grp->slice_size + page - 1) & ~(uint64_t)(page - 1);
	if (!len)
		return -EINVAL;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   grp->client->dev_fd, grp->mmap_offset);
	if (map == MAP_FAILED)
		return -errno;
	grp->map = map;
	grp->map_len = len;
	for (m = 0; m < grp->n_members; m++) {
		if (grp->members[m]->map && grp->members[m]->map_len)
			munmap(grp->members[m]->map, grp->members[m]->map_len);
		grp->members[m]->map = map;
		grp->members[m]->map_len = 0;
	}
	return 0;
}

int ta_group_export_dmabuf(struct ta_group *grp, uint32_t flags)
{
	struct ta_plan_export x;
	int err;

	if (!grp->client || !grp->id)
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.plan_id = grp->id;
	x.flags = flags;
	err = grp->client->ops->export_dmabuf(grp->client, &x);
	return err ? err : x.fd;
}

static bool ta_group_add_options_valid(const struct ta_group_add_options *o)
{
	size_t i;

	if (o->flags & ~TA_GROUP_ADD_REPLAN || o->lane >= TA_GROUP_MAX_LANES ||
	    o->strategy == TA_STRATEGY_FIXED ||
	    o->strategy == TA_STRATEGY_PINGPONG || o->pad ||
	    o->n_links > TA_GROUP_MAX_LINKS ||
	    o->n_shared > TA_GROUP_MAX_SHARED ||
	    (o->n_links && !o->links) || (o->n_shared && !o->shared))
		return false;
	for (i = 0; i < sizeof(o->reserved) / sizeof(o->reserved[0]); i++)
		if (o->reserved[i])
			return false;
	return true;
}

/* Offline: the member joins the copies, and the group is planned again. */
static int ta_group_add_here(struct ta_group *grp,
			     const struct ta_graph_builder *g,
			     const struct ta_group_add_options *o)
{
	struct ta_budget budget = { .time_ns = o->budget_ns };
	uint32_t n_old = grp->n_members, n_links = grp->n_links;
	uint32_t n_shared = grp->n_shared;
	int err;

	if (n_links + o->n_links > TA_GROUP_MAX_LINKS ||
	    n_shared + o->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	grp->graphs[n_old] = ta_graph_clone(g);
	if (!grp->graphs[n_old])
		return -ENOMEM;
	grp->lanes[n_old] = o->lane;
	if (o->n_links)
		memcpy(grp->links + n_links, o->links,
		       o->n_links * sizeof(*o->links));
	if (o->n_shared)
		memcpy(grp->shared + n_shared, o->shared,
		       o->n_shared * sizeof(*o->shared));
	grp->n_links += o->n_links;
	grp->n_shared += o->n_shared;
	grp->n_members++;
	err = ta_group_plan_here(grp, o->flags & TA_GROUP_ADD_REPLAN ? 0 : n_old,
				 o->strategy, &budget);
	if (!err)
		return (int)n_old;
	/* nothing changed on failure */
	grp->n_members = n_old;
	grp->n_links = n_links;
	grp->n_shared = n_shared;
	ta_graph_free(grp->graphs[n_old]);
	grp->graphs[n_old] = NULL;
	ta_plan_free(grp->members[n_old]);
	grp->members[n_old] = NULL;
	return err;
}

int ta_group_add(struct ta_group *grp, const struct ta_graph_builder *g,
		 const struct ta_group_add_options *opts)
{
	static const struct ta_group_add_options defaults;
	struct ta_group_member mem;
	struct ta_group_add args;
	int err;

	if (!opts)
		opts = &defaults;
	if (!g || !ta_group_add_options_valid(opts))
		return -EINVAL;
	if (grp->n_members >= TA_GROUP_MAX_MEMBERS)
		return -E2BIG;
	if (!grp->client)
		return ta_group_add_here(grp, g, opts);
	if (!grp->id)
		return -EINVAL;
	ta_graph_member_request(g, opts->lane, &mem);
	memset(&args, 0, sizeof(args));
	args.group_id = grp->id;
	args.flags = opts->flags;
	args.strategy = opts->strategy;
	args.member = (uintptr_t)&mem;
	args.member_size = sizeof(mem);
	args.n_links = opts->n_links;
	args.links = (uintptr_t)opts->links;
	args.link_size = sizeof(struct ta_group_link);
	args.n_shared = opts->n_shared;
	args.shared = (uintptr_t)opts->shared;
	args.shared_size = sizeof(struct ta_group_shared);
	args.budget_ns = opts->budget_ns;
	err = grp->client->ops->group_add(grp->client, &args);
	if (err)
		return err;
	grp->lanes[grp->n_members] = opts->lane;
	err = ta_group_refresh(grp);
	return err ? err : (int)grp->n_members - 1;
}

int ta_group_destroy(struct ta_group *grp)
{
	uint32_t m;
	int err;

	if (!grp->client || !grp->id)
		return -EINVAL;
	err = grp->client->ops->destroy(grp->client, grp->id);
	if (err)
		return err;
	grp->id = 0;
	for (m = 0; m < grp->n_members; m++)
		grp->members[m]->id = 0;
	return 0;
}
