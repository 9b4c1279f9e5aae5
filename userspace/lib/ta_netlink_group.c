// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_netlink_group.c - libtensorarena's netlink transport: the group
 * commands group-create, group-add and group-get (Documentation/netlink/
 * specs/tensorarena.yaml), with the semantics and errors of
 * TA_IOCTL_GROUP_CREATE, _ADD and _GET.
 *
 * The uAPI structs are turned into attributes: each member struct into a
 * member nest holding plan-create's tensor, op or buffer nests, each link
 * and shared entry into its nest. What the kernel could not see in the
 * attributes (element sizes, pad, reserved words, a member's plan_id In
 * field) is checked here, as the ioctl checks it; everything else the
 * kernel judges, and its extack text becomes the client's last error
 * (ta_client_last_error()). Replies are one message each: a group has at
 * most TA_GROUP_MAX_MEMBERS member IDs.
 *
 * A group created here belongs to the client's netlink socket, and so do
 * the members added to it. A request beyond one netlink message goes
 * through the client's /dev/tensorarena file, as plan-create's does.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ta_netlink.h"

/* A member's graph goes in its own nests or packed arrays. */
static const struct ta_nl_graph_attrs ta_nl_member_graph_attrs = {
	.tensor = TA_NL_A_MEMBER_TENSOR,
	.op = TA_NL_A_MEMBER_OP,
	.buffer = TA_NL_A_MEMBER_BUFFER,
	.tensors_packed = TA_NL_A_MEMBER_TENSORS_PACKED,
	.ops_packed = TA_NL_A_MEMBER_OPS_PACKED,
	.refs_packed = TA_NL_A_MEMBER_REFS_PACKED,
	.buffers_packed = TA_NL_A_MEMBER_BUFFERS_PACKED,
};

/* Member @i of a user array of @usize-byte structs, checked as the ioctl. */
static int ta_nl_group_member_elem(uint64_t base, uint32_t i, uint32_t usize,
				   struct ta_group_member *m)
{
	int err;

	if (usize < sizeof(*m))
		return -EINVAL;
	if (!base)
		return -EFAULT;
	err = ta_nl_elem((const void *)(uintptr_t)base, i, usize, m,
			 sizeof(*m));
	if (err)
		return err;
	if ((m->flags & ~TA_CREATE_LIFETIMES) || m->plan_id ||
	    ta_nl_nonzero(m->reserved, sizeof(m->reserved)) ||
	    m->lane >= TA_GROUP_MAX_LANES)
		return -EINVAL;
	return 0;
}

/* One member struct as a member nest. */
static int ta_nl_group_put_member(struct nl_msg *msg,
				  const struct ta_group_member *m, int packed)
{
	struct ta_plan_create pc = {
		.tensors = m->tensors,
		.n_tensors = m->n_tensors,
		.tensor_size = m->tensor_size,
		.ops = m->ops,
		.n_ops = m->n_ops,
		.op_size = m->op_size,
		.refs = m->refs,
		.n_refs = m->n_refs,
	};
	struct nlattr *nest;
	int err;

	if (m->n_tensors > TA_NL_MAX_COUNT || m->n_ops > TA_NL_MAX_COUNT ||
	    m->n_refs > TA_NL_MAX_COUNT)
		return -E2BIG;
	nest = nla_nest_start(msg, TA_NL_A_GROUP_MEMBER | NLA_F_NESTED);
	if (!nest || (m->lane && nla_put_u32(msg, TA_NL_A_MEMBER_LANE, m->lane)) ||
	    (m->flags && nla_put_u32(msg, TA_NL_A_MEMBER_FLAGS, m->flags)))
		return -EMSGSIZE;
	if (m->flags & TA_CREATE_LIFETIMES)
		err = ta_nl_put_lifetimes(msg, &pc, &ta_nl_member_graph_attrs,
					  packed);
	else
		err = ta_nl_put_graph(msg, &pc, &ta_nl_member_graph_attrs,
				      packed);
	if (err)
		return err;
	nla_nest_end(msg, nest);
	return 0;
}

/* The link and shared arrays of a create or add, as nests. */
static int ta_nl_group_put_refs(struct nl_msg *msg, uint64_t links,
				uint32_t n_links, uint32_t link_size,
				uint64_t shared, uint32_t n_shared,
				uint32_t shared_size)
{
	struct ta_group_shared sh;
	struct ta_group_link l;
	struct nlattr *nest;
	uint32_t i;
	int err;

	if ((n_links && link_size < sizeof(l)) ||
	    (n_shared && shared_size < sizeof(sh)))
		return -EINVAL;
	if ((n_links && !links) || (n_shared && !shared))
		return -EFAULT;
	for (i = 0; i < n_links; i++) {
		err = ta_nl_elem((const void *)(uintptr_t)links, i, link_size,
				 &l, sizeof(l));
		if (err)
			return err;
		nest = nla_nest_start(msg, TA_NL_A_GROUP_LINK | NLA_F_NESTED);
		if (!nest ||
		    nla_put_u32(msg, TA_NL_A_LINK_FROM_MEMBER, l.from_member) ||
		    nla_put_u32(msg, TA_NL_A_LINK_FROM_TENSOR, l.from_tensor) ||
		    nla_put_u32(msg, TA_NL_A_LINK_TO_MEMBER, l.to_member) ||
		    nla_put_u32(msg, TA_NL_A_LINK_TO_TENSOR, l.to_tensor))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	for (i = 0; i < n_shared; i++) {
		err = ta_nl_elem((const void *)(uintptr_t)shared, i,
				 shared_size, &sh, sizeof(sh));
		if (err)
			return err;
		if (sh.pad)
			return -EINVAL;
		nest = nla_nest_start(msg, TA_NL_A_GROUP_SHARED | NLA_F_NESTED);
		if (!nest || nla_put_u32(msg, TA_NL_A_SHARED_MEMBER, sh.member) ||
		    nla_put_u32(msg, TA_NL_A_SHARED_TENSOR, sh.tensor) ||
		    nla_put_u32(msg, TA_NL_A_SHARED_KEY, sh.key))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* A reply's member-plan-id attributes, in order, into @ids (room @n). */
static uint32_t ta_nl_group_ids(struct nlmsghdr *hdr, uint32_t *ids,
				uint32_t n)
{
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct nlattr *a;
	uint32_t k = 0;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem)
		if (nla_type(a) == TA_NL_A_GROUP_MEMBER_PLAN_ID) {
			if (k < n)
				ids[k] = nla_get_u32(a);
			k++;
		}
	return k;
}

/* Each member's ID into its struct's plan_id, as the ioctl writes it. */
static void ta_nl_group_put_ids(uint64_t members, uint32_t usize,
				const uint32_t *ids, uint32_t n)
{
	unsigned char *dst = (unsigned char *)(uintptr_t)members;
	uint32_t i;

	for (i = 0; i < n; i++)
		memcpy(dst + (size_t)i * usize +
		       offsetof(struct ta_group_member, plan_id),
		       &ids[i], sizeof(ids[i]));
}

/* What a create's reply fills. */
struct ta_nl_group_reply {
	struct ta_group_create *args;
	uint32_t ids[TA_GROUP_MAX_MEMBERS];
	uint32_t n_ids;
};

static int ta_nl_group_create_parse(struct nlmsghdr *hdr, struct nlattr **tb,
				    void *arg)
{
	struct ta_nl_group_reply *r = arg;
	struct ta_group_create *a = r->args;

	a->group_id = ta_nl_u32(tb[TA_NL_A_GROUP_GROUP_ID]);
	a->height = ta_nl_u64(tb[TA_NL_A_GROUP_HEIGHT]);
	a->lower_bound = ta_nl_u64(tb[TA_NL_A_GROUP_LOWER_BOUND]);
	a->plan_time_ns = ta_nl_u64(tb[TA_NL_A_GROUP_PLAN_TIME_NS]);
	a->mmap_offset = ta_nl_u64(tb[TA_NL_A_GROUP_MMAP_OFFSET]);
	a->slice_size = ta_nl_u64(tb[TA_NL_A_GROUP_SLICE_SIZE]);
	a->optimal = tb[TA_NL_A_GROUP_OPTIMAL] ?
		     nla_get_u8(tb[TA_NL_A_GROUP_OPTIMAL]) : 0;
	r->n_ids = ta_nl_group_ids(hdr, r->ids, TA_GROUP_MAX_MEMBERS);
	return 0;
}

/* Room for the attributes of @m's graph (as plan-create sizes its own). */
static size_t ta_nl_group_member_room(const struct ta_group_member *m)
{
	return (size_t)m->n_tensors * 56 + (size_t)m->n_ops * 12 +
	       (size_t)m->n_refs * 8 + 64;
}

/* The members, links and shared entries of a create as attributes. */
static int ta_nl_group_create_attrs(struct nl_msg *msg,
				    const struct ta_group_create *a,
				    int packed)
{
	struct ta_group_member m;
	uint32_t i;
	int err;

	if (nla_put_u32(msg, TA_NL_A_GROUP_FLAGS, a->flags) ||
	    nla_put_u32(msg, TA_NL_A_GROUP_STRATEGY, a->strategy) ||
	    nla_put_u64(msg, TA_NL_A_GROUP_BUDGET_NS, a->budget_ns) ||
	    nla_put_u64(msg, TA_NL_A_GROUP_BUDGET_STEPS, a->budget_steps) ||
	    (a->default_align &&
	     nla_put_u64(msg, TA_NL_A_GROUP_DEFAULT_ALIGN, a->default_align)) ||
	    (a->capacity &&
	     nla_put_u64(msg, TA_NL_A_GROUP_CAPACITY, a->capacity)))
		return -EMSGSIZE;
	for (i = 0; i < a->n_members; i++) {
		err = ta_nl_group_member_elem(a->members, i, a->member_size,
					      &m);
		if (!err)
			err = ta_nl_group_put_member(msg, &m, packed);
		if (err)
			return err;
	}
	return ta_nl_group_put_refs(msg, a->links, a->n_links, a->link_size,
				    a->shared, a->n_shared, a->shared_size);
}

/**
 * ta_nl_group_create() - group-create, as TA_IOCTL_GROUP_CREATE
 * @c: a netlink client
 * @a: the request; Out: its Out fields and each member's plan_id
 *
 * Return: 0 or the ioctl's -errno (the kernel's message in the client's
 * last error).
 */
int ta_nl_group_create(struct ta_client *c, struct ta_group_create *a)
{
	struct ta_nl_group_reply r = { .args = a };
	struct ta_group_member m;
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	size_t size = 0;
	uint32_t i;
	int err;

	if ((a->flags & ~TA_GROUP_DRY_RUN) ||
	    ta_nl_nonzero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->n_members > TA_GROUP_MAX_MEMBERS ||
	    a->n_links > TA_GROUP_MAX_LINKS ||
	    a->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	for (i = 0; i < a->n_members; i++) {
		err = ta_nl_group_member_elem(a->members, i, a->member_size,
					      &m);
		if (err)
			return err;
		size += ta_nl_group_member_room(&m);
	}
	msg = ta_nl_msg(nl, TA_NL_CMD_GROUP_CREATE, 0,
			size + ((size_t)a->n_links + a->n_shared) * 40);
	if (!msg)
		return -ENOMEM;
	err = ta_nl_group_create_attrs(msg, a, nl->packed);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	if (nlmsg_hdr(msg)->nlmsg_len > TA_NL_MAX_REQUEST && c->dev_fd >= 0) {
		/* Beyond one netlink message: the client's ioctl file takes it. */
		nlmsg_free(msg);
		return ta_ioctl_group_create(c, a);
	}
	err = ta_nl_xfer(nl, msg, ta_nl_group_create_parse, &r);
	if (err == -EMSGSIZE && c->dev_fd >= 0)
		return ta_ioctl_group_create(c, a);
	/* The policy's range checks (strategy, lane) say ERANGE, the ioctl EINVAL. */
	if (err)
		return err == -ERANGE ? -EINVAL : err;
	if (a->group_id && r.n_ids != a->n_members)
		return -EPROTO;
	if (a->group_id)
		ta_nl_group_put_ids(a->members, a->member_size, r.ids,
				    r.n_ids);
	return 0;
}

/* What an add's reply fills. */
struct ta_nl_group_add_reply {
	struct ta_group_add *args;
	uint32_t id;
	uint32_t n_ids;
};

static int ta_nl_group_add_parse(struct nlmsghdr *hdr, struct nlattr **tb,
				 void *arg)
{
	struct ta_nl_group_add_reply *r = arg;

	r->args->height = ta_nl_u64(tb[TA_NL_A_GROUP_HEIGHT]);
	r->n_ids = ta_nl_group_ids(hdr, &r->id, 1);
	return 0;
}

/**
 * ta_nl_group_add() - group-add, as TA_IOCTL_GROUP_ADD
 * @c: a netlink client
 * @a: the request; Out: @a->height and the member's plan_id
 *
 * Return: 0 or the ioctl's -errno (the kernel's message in the client's
 * last error).
 */
int ta_nl_group_add(struct ta_client *c, struct ta_group_add *a)
{
	struct ta_nl_group_add_reply r = { .args = a };
	struct ta_group_member m;
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	int err;

	if ((a->flags & ~TA_GROUP_ADD_REPLAN) ||
	    ta_nl_nonzero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->n_links > TA_GROUP_MAX_LINKS ||
	    a->n_shared > TA_GROUP_MAX_SHARED)
		return -E2BIG;
	/* group-id's policy says ERANGE for 0; the ioctl finds no such group. */
	if (!a->group_id)
		return -ENOENT;
	err = ta_nl_group_member_elem(a->member, 0, a->member_size, &m);
	if (err)
		return err;
	msg = ta_nl_msg(nl, TA_NL_CMD_GROUP_ADD, 0,
			ta_nl_group_member_room(&m) +
			((size_t)a->n_links + a->n_shared) * 40);
	if (!msg)
		return -ENOMEM;
	err = -EMSGSIZE;
	if (nla_put_u32(msg, TA_NL_A_GROUP_GROUP_ID, a->group_id) ||
	    nla_put_u32(msg, TA_NL_A_GROUP_ADD_FLAGS, a->flags) ||
	    nla_put_u32(msg, TA_NL_A_GROUP_STRATEGY, a->strategy) ||
	    nla_put_u64(msg, TA_NL_A_GROUP_BUDGET_NS, a->budget_ns))
		goto free_msg;
	err = ta_nl_group_put_member(msg, &m, nl->packed);
	if (!err)
		err = ta_nl_group_put_refs(msg, a->links, a->n_links,
					   a->link_size, a->shared,
					   a->n_shared, a->shared_size);
	if (err)
		goto free_msg;
	if (nlmsg_hdr(msg)->nlmsg_len > TA_NL_MAX_REQUEST && c->dev_fd >= 0) {
		nlmsg_free(msg);
		return ta_ioctl_group_add(c, a);
	}
	err = ta_nl_xfer(nl, msg, ta_nl_group_add_parse, &r);
	if (err == -EMSGSIZE && c->dev_fd >= 0)
		return ta_ioctl_group_add(c, a);
	if (err)
		return err == -ERANGE ? -EINVAL : err;
	if (r.n_ids != 1)
		return -EPROTO;
	ta_nl_group_put_ids(a->member, a->member_size, &r.id, 1);
	return 0;

free_msg:
	nlmsg_free(msg);
	return err;
}

/* What a get's reply fills. */
struct ta_nl_group_get_reply {
	struct ta_group_get *args;
	uint32_t ids[TA_GROUP_MAX_MEMBERS];
	uint32_t n_ids;
};

static int ta_nl_group_get_parse(struct nlmsghdr *hdr, struct nlattr **tb,
				 void *arg)
{
	struct ta_nl_group_get_reply *r = arg;
	struct ta_group_get *g = r->args;

	g->n_members = ta_nl_u32(tb[TA_NL_A_GROUP_N_MEMBERS]);
	g->n_lanes = ta_nl_u32(tb[TA_NL_A_GROUP_N_LANES]);
	g->height = ta_nl_u64(tb[TA_NL_A_GROUP_HEIGHT]);
	g->lower_bound = ta_nl_u64(tb[TA_NL_A_GROUP_LOWER_BOUND]);
	g->slice_size = ta_nl_u64(tb[TA_NL_A_GROUP_SLICE_SIZE]);
	g->mmap_offset = ta_nl_u64(tb[TA_NL_A_GROUP_MMAP_OFFSET]);
	r->n_ids = ta_nl_group_ids(hdr, r->ids, TA_GROUP_MAX_MEMBERS);
	return 0;
}

/**
 * ta_nl_group_get() - group-get, as TA_IOCTL_GROUP_GET
 * @c: a netlink client
 * @g: the request; In: @g->n_members is the room at @g->members; Out: the
 *     figures, and the member IDs when @g->members is set
 *
 * Return: 0; -ENOSPC (the figures filled) when the room is short; the
 * ioctl's other -errno (the kernel's message in the client's last error).
 */
int ta_nl_group_get(struct ta_client *c, struct ta_group_get *g)
{
	struct ta_group_get out = *g;
	struct ta_nl_group_get_reply r = { .args = &out };
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	int err;

	if (g->flags || ta_nl_nonzero(g->reserved, sizeof(g->reserved)))
		return -EINVAL;
	if (!g->group_id)
		return -ENOENT;
	msg = ta_nl_msg(nl, TA_NL_CMD_GROUP_GET, 0, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_GROUP_GROUP_ID, g->group_id)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = ta_nl_xfer(nl, msg, ta_nl_group_get_parse, &r);
	if (err)
		return err;
	if (r.n_ids != out.n_members || r.n_ids > TA_GROUP_MAX_MEMBERS)
		return -EPROTO;
	if (g->members && g->n_members < out.n_members) {
		*g = out;
		return -ENOSPC;
	}
	if (g->members)
		memcpy((void *)(uintptr_t)g->members, r.ids,
		       (size_t)r.n_ids * sizeof(r.ids[0]));
	*g = out;
	return 0;
}
