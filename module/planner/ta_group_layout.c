// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_group_layout.c - a group's tensors in the group's time (ta_group.h).
 *
 * Every member is validated as ta_plan_solve() validates a problem (its
 * lower bound is computed on the way, which checks the graph, its
 * lifetimes and a trace's alias array), then laid out in its lane's time:
 * lane L's members end to end, in member order. Links, shared keys and a
 * graph's in-place aliases join tensors into classes (a union-find whose
 * root is the class's smallest group-wide index); a class is one buffer
 * of the largest size and alignment of its tensors, over the hull of
 * their lifetimes, live for the whole run when any of them is.
 *
 * Its own file so that the solver (ta_group.c) and the validator
 * (ta_group_check.c) both call it without calling each other.
 */
#include "ta_group.h"
#include "ta_plan_helpers.h"

#define TA_GROUP_ALWAYS_FLAGS	(TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT | \
				 TA_TENSOR_EXPORTABLE)

/**
 * ta_group_tensor_count() - tensors of every member of a group
 * @gp: the group
 *
 * Return: the sum of the members' &ta_problem.n_buffers (saturated at
 * U32_MAX, which ta_group_layout() refuses).
 */
u32 ta_group_tensor_count(const struct ta_group_problem *gp)
{
	return ta_group_index(gp, gp->n_members, 0);
}

/**
 * ta_group_index() - group-wide index of a member's tensor
 * @gp: the group
 * @member: the member's index; @gp->n_members for the count of every
 *	    member's tensors
 * @tensor: the tensor's index in the member
 *
 * Return: the index (saturated at U32_MAX); O(@member).
 */
u32 ta_group_index(const struct ta_group_problem *gp, u32 member, u32 tensor)
{
	u64 sum = tensor;
	u32 m;

	for (m = 0; m < member && m < gp->n_members; m++)
		sum += gp->members[m].problem.n_buffers;
	return sum > U32_MAX ? U32_MAX : (u32)sum;
}

/* The class root of @i, halving the path on the way. */
static u32 ta_uf_find(u32 *parent, u32 i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* Join the classes of @a and @b; the smaller root stays the root. */
static void ta_uf_join(u32 *parent, u32 a, u32 b)
{
	a = ta_uf_find(parent, a);
	b = ta_uf_find(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

/* One member as ta_plan_solve() would take it; 0 or its errno. */
static int ta_group_check_member(const struct ta_group_member_problem *mp)
{
	const struct ta_problem *p = &mp->problem;
	u64 lb;
	int ret;

	if (mp->lane >= TA_GROUP_MAX_LANES || p->fixed || p->fixed_height)
		return -EINVAL;
	/* validates sizes, alignments, lifetimes, graph and aliases */
	ret = ta_problem_lower_bound(p, &lb);
	return ret == -EOVERFLOW ? -E2BIG : ret;
}

/* Flags of member @m's tensor @t: a trace's tensors have none. */
static u32 ta_group_flags(const struct ta_group_problem *gp, u32 m, u32 t)
{
	const struct ta_graph *g = gp->members[m].problem.graph;

	return g ? g->tensors[t].flags : 0;
}

static bool ta_group_tensor_ok(const struct ta_group_problem *gp, u32 m,
			       u32 t)
{
	return m < gp->n_members && t < gp->members[m].problem.n_buffers;
}

/* The link rules of &struct ta_group_link; @linked marks the readers. */
static int ta_group_check_link(const struct ta_group_problem *gp,
			       const struct ta_group_link *l, u8 *linked)
{
	const struct ta_group_member_problem *from, *to;
	u32 ft, tt;

	if (!ta_group_tensor_ok(gp, l->from_member, l->from_tensor) ||
	    !ta_group_tensor_ok(gp, l->to_member, l->to_tensor))
		return -EINVAL;
	from = &gp->members[l->from_member];
	to = &gp->members[l->to_member];
	if (from->lane == to->lane && l->to_member <= l->from_member)
		return -EINVAL;
	ft = ta_group_flags(gp, l->from_member, l->from_tensor);
	tt = ta_group_flags(gp, l->to_member, l->to_tensor);
	if ((ft | tt) & TA_GROUP_ALWAYS_FLAGS)
		return -EINVAL;
	/* the reader's tensor is an input: no op writes it */
	if (to->problem.graph ? !(tt & TA_TENSOR_INPUT) :
	    to->problem.buffers[l->to_tensor].start != 0)
		return -EINVAL;
	tt = ta_group_index(gp, l->to_member, l->to_tensor);
	ft = ta_group_index(gp, l->from_member, l->from_tensor);
	if (linked[tt] & 1)
		return -EINVAL;	/* two links into one tensor */
	linked[tt] |= 1;
	linked[ft] |= 2;
	return 0;
}

/* Lane L's members end to end: @base[m] is member m's first step. */
static int ta_group_lane_times(const struct ta_group_problem *gp, u32 *base,
			       u32 *lane_len)
{
	u32 m, i;

	memset(lane_len, 0, TA_GROUP_MAX_LANES * sizeof(*lane_len));
	for (m = 0; m < gp->n_members; m++) {
		const struct ta_problem *p = &gp->members[m].problem;
		u32 lane = gp->members[m].lane, len = 0;

		for (i = 0; i < p->n_buffers; i++)
			if (p->buffers[i].end > len)
				len = p->buffers[i].end;
		base[m] = lane_len[lane];
		if ((u64)lane_len[lane] + len > TA_PLAN_MAX_STEPS)
			return -E2BIG;
		lane_len[lane] += len;
	}
	return 0;
}

/* The members, one by one, and the group's counts. */
static int ta_group_check_members(const struct ta_group_problem *gp)
{
	u64 total = 0;
	u32 m;
	int ret;

	if (!gp || !gp->n_members || !gp->members ||
	    (gp->n_links && !gp->links) || (gp->n_shared && !gp->shared))
		return -EINVAL;
	if (gp->n_members > TA_GROUP_MAX_MEMBERS ||
	    gp->n_links > TA_GROUP_MAX_LINKS ||
	    gp->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	for (m = 0; m < gp->n_members; m++) {
		ret = ta_group_check_member(&gp->members[m]);
		if (ret)
			return ret;
		total += gp->members[m].problem.n_buffers;
	}
	return total > TA_PLAN_MAX_BUFFERS ? -E2BIG : 0;
}

static int ta_cmp_shared_key(const void *a, const void *b)
{
	const struct ta_group_shared *x = *(const struct ta_group_shared **)a;
	const struct ta_group_shared *y = *(const struct ta_group_shared **)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Shared entries: checked, marked always, one class per key. */
static int ta_group_join_shared(const struct ta_group_problem *gp,
				const u8 *linked, u32 *parent,
				struct ta_group_buffer *out)
{
	const struct ta_group_shared **by_key;
	u32 s, i, prev = 0;
	int ret = -EINVAL;

	if (!gp->n_shared)
		return 0;
	by_key = ta_env_alloc_array(gp->n_shared, sizeof(*by_key));
	if (!by_key)
		return -ENOMEM;
	for (s = 0; s < gp->n_shared; s++) {
		const struct ta_group_shared *sh = &gp->shared[s];

		if (sh->pad || !ta_group_tensor_ok(gp, sh->member, sh->tensor))
			goto free_keys;
		i = ta_group_index(gp, sh->member, sh->tensor);
		if (linked[i])
			goto free_keys;
		out[i].always = true;
		by_key[s] = sh;
	}
	ta_env_sort(by_key, gp->n_shared, sizeof(by_key[0]),
		    ta_cmp_shared_key);
	for (s = 0; s < gp->n_shared; s++) {
		i = ta_group_index(gp, by_key[s]->member, by_key[s]->tensor);
		if (s && by_key[s]->key == by_key[s - 1]->key)
			ta_uf_join(parent, prev, i);
		prev = i;
	}
	ret = 0;
free_keys:
	ta_env_free(by_key);
	return ret;
}

/* Each member's tensors in its lane's time, its aliases joined. */
static int ta_group_place_members(const struct ta_group_problem *gp,
				  const u32 *base, u32 *parent,
				  struct ta_group_buffer *out)
{
	u32 m, t, idx = 0;

	for (m = 0; m < gp->n_members; m++) {
		const struct ta_problem *p = &gp->members[m].problem;
		u32 lane = gp->members[m].lane;

		if (p->graph && p->n_buffers) {
			u32 *root = ta_env_alloc_array(p->n_buffers,
						       sizeof(*root));

			if (!root)
				return -ENOMEM;
			ta_graph_aliases(p->graph, p->buffers, root);
			for (t = 0; t < p->n_buffers; t++)
				parent[idx + t] = idx + root[t];
			ta_env_free(root);
		}
		for (t = 0; t < p->n_buffers; t++) {
			const struct ta_buffer *b = &p->buffers[t];
			struct ta_group_buffer *o = &out[idx + t];

			if (!p->graph && p->alias)
				parent[idx + t] = idx + p->alias[t];
			o->size = b->size;
			o->align = b->align;
			o->lane = lane;
			o->start = base[m] + b->start;
			o->end = base[m] + b->end;
			o->always = !!(ta_group_flags(gp, m, t) &
				       TA_GROUP_ALWAYS_FLAGS);
		}
		idx += p->n_buffers;
	}
	return 0;
}

/* Every class as one buffer at its root; every tensor names its root. */
static void ta_group_merge(u32 n, u32 *parent, const u32 *lane_len,
			   struct ta_group_buffer *out)
{
	u32 i, r;

	for (i = 0; i < n; i++) {
		struct ta_group_buffer *b = &out[i], *c;

		r = ta_uf_find(parent, i);
		b->root = r;
		if (r == i)
			continue;
		c = &out[r];
		if (b->size > c->size)
			c->size = b->size;
		if (b->align > c->align)
			c->align = b->align;
		if (b->lane != c->lane || b->always)
			c->always = true;
		if (b->lane == c->lane) {
			if (b->start < c->start)
				c->start = b->start;
			if (b->end > c->end)
				c->end = b->end;
		}
	}
	for (i = 0; i < n; i++) {
		struct ta_group_buffer *b = &out[i];

		b->always = out[b->root].always;
		if (b->always) {
			b->start = 0;
			b->end = lane_len[b->lane];
		}
	}
}

/**
 * ta_group_layout() - check a group and lay its tensors out in its time
 * @gp: the group
 * @out: ta_group_tensor_count() entries
 *
 * Validates every member as ta_plan_solve() would (graph, lifetimes,
 * aliases; no &ta_problem.fixed), then every link and shared entry against
 * the rules of the uAPI (&struct ta_group_link, &struct ta_group_shared).
 * A trace member has no flags: none of its tensors is always live by
 * itself, and a link may read one of its tensors that starts at step 0.
 * O(n log n) in the tensors (the members' lower bounds).
 *
 * Return: 0; -EINVAL for a bad member (also one with fixed offsets), lane
 * (%TA_GROUP_MAX_LANES or more), link (out of range, to an earlier or the
 * same member of its lane, to or from a constant, persistent or exportable
 * tensor, into a tensor an op writes or another link reads) or shared
 * entry (out of range, non-zero pad, a linked tensor); -E2BIG for more
 * than %TA_GROUP_MAX_MEMBERS members, %TA_GROUP_MAX_LINKS links or
 * %TA_GROUP_MAX_SHARED shared entries, more than %TA_PLAN_MAX_BUFFERS
 * tensors or %TA_PLAN_MAX_STEPS steps in a lane, or a member beyond
 * ta_plan_solve()'s limits; -ENOMEM; -EINTR.
 */
int ta_group_layout(const struct ta_group_problem *gp,
		    struct ta_group_buffer *out)
{
	u32 lane_len[TA_GROUP_MAX_LANES];
	u32 base[TA_GROUP_MAX_MEMBERS];
	u32 *parent = NULL;
	u8 *linked = NULL;
	u32 i, n;
	int ret;

	ret = ta_group_check_members(gp);
	if (ret)
		return ret;
	ret = ta_group_lane_times(gp, base, lane_len);
	if (ret)
		return ret;
	n = ta_group_tensor_count(gp);
	if (!n)
		return 0;
	if (!out)
		return -EINVAL;
	parent = ta_env_alloc_array(n, sizeof(*parent));
	linked = ta_env_alloc_array(n, sizeof(*linked));
	ret = -ENOMEM;
	if (!parent || !linked)
		goto free;
	for (i = 0; i < n; i++)
		parent[i] = i;
	ret = ta_group_place_members(gp, base, parent, out);
	for (i = 0; !ret && i < gp->n_links; i++)
		ret = ta_group_check_link(gp, &gp->links[i], linked);
	if (!ret)
		ret = ta_group_join_shared(gp, linked, parent, out);
	if (ret)
		goto free;
	for (i = 0; i < gp->n_links; i++) {
		const struct ta_group_link *l = &gp->links[i];

		ta_uf_join(parent, ta_group_index(gp, l->from_member,
						  l->from_tensor),
			   ta_group_index(gp, l->to_member, l->to_tensor));
	}
	ta_group_merge(n, parent, lane_len, out);
free:
	ta_env_free(linked);
	ta_env_free(parent);
	return ret;
}
