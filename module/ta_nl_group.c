// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_group.c - the group commands of the netlink family: group-create,
 * group-add, group-get, the twins of TA_IOCTL_GROUP_CREATE/ADD/GET
 * (ta_ioctl_group.c), with the same checks in the same order and the same
 * errors. Each member nest is parsed as plan-create's attributes are
 * (ta_nl_parse.c) into a &struct ta_group_member_request, checked with
 * ta_request_check(); links and shared nests are checked against the
 * members; then the core (ta_group_obj.c) plans. Every rejection carries
 * an extack message, naming the attribute at fault where there is one;
 * a failed request changes nothing. A group created here belongs to the
 * sending socket (ta_nl_owner.c), and so do the members added to it.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_group_obj.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

/* The core's message for a refused request, or one made from @err. */
static void ta_nl_group_error(struct netlink_ext_ack *extack, int err,
			      const char *msg)
{
	if (msg) {
		extack->_msg = msg;	/* a static string of the core */
		return;
	}
	switch (err) {
	case -EINVAL:
		NL_SET_ERR_MSG(extack,
			       "malformed group: a member's graph, a link or a shared tensor breaks a rule");
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG(extack,
			       "no room: the group does not fit its capacity or the arena");
		break;
	case -EDQUOT:
		NL_SET_ERR_MSG(extack,
			       "quota: max_user_plans, max_file_plans or max_user_bytes reached");
		break;
	case -ETIMEDOUT:
		NL_SET_ERR_MSG(extack,
			       "planning hit its time limit (netlink_max_plan_ms) without a plan");
		break;
	case -EINTR:
		NL_SET_ERR_MSG(extack, "planning interrupted by a signal");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG(extack, "out of memory");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the group could not be planned");
		break;
	}
}

/**
 * struct ta_nl_group_counts - the repeated nests of a group request
 * @n_members: member nests
 * @n_links: link nests
 * @n_shared: shared nests
 * @extra_member: the first member nest beyond the limit, or NULL
 * @extra_link: the first link nest beyond the limit, or NULL
 * @extra_shared: the first shared nest beyond the limit, or NULL
 */
struct ta_nl_group_counts {
	u32 n_members;
	u32 n_links;
	u32 n_shared;
	const struct nlattr *extra_member;
	const struct nlattr *extra_link;
	const struct nlattr *extra_shared;
};

static void ta_nl_group_count(const struct genl_info *info,
			      struct ta_nl_group_counts *c)
{
	const struct nlattr *attr;
	int rem;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		switch (nla_type(attr)) {
		case TA_NL_A_GROUP_MEMBER:
			if (++c->n_members == TA_GROUP_MAX_MEMBERS + 1)
				c->extra_member = attr;
			break;
		case TA_NL_A_GROUP_LINK:
			if (++c->n_links == TA_GROUP_MAX_LINKS + 1)
				c->extra_link = attr;
			break;
		case TA_NL_A_GROUP_SHARED:
			if (++c->n_shared == TA_GROUP_MAX_SHARED + 1)
				c->extra_shared = attr;
			break;
		}
	}
}

/* Links and shared tensors within their limits (-E2BIG, as the ioctl). */
static int ta_nl_group_check_refs(struct netlink_ext_ack *extack,
				  const struct ta_nl_group_counts *c)
{
	if (c->extra_link) {
		NL_SET_ERR_MSG_ATTR(extack, c->extra_link,
				    "more link nests than TA_GROUP_MAX_LINKS (256)");
		return -E2BIG;
	}
	if (c->extra_shared) {
		NL_SET_ERR_MSG_ATTR(extack, c->extra_shared,
				    "more shared nests than TA_GROUP_MAX_SHARED (256)");
		return -E2BIG;
	}
	return 0;
}

/* A group's strategy: one that plans a group, not pingpong (-EINVAL). */
static int ta_nl_group_strategy(struct netlink_ext_ack *extack,
				const struct nlattr *attr, u32 *strategy)
{
	*strategy = ta_nl_get_u32(attr, TA_STRATEGY_AUTO);
	if (*strategy == TA_STRATEGY_PINGPONG) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "strategy pingpong plans one graph, not a group");
		return -EINVAL;
	}
	return 0;
}

/* The group's budget, checked as a member's (ta_request_check()). */
static int ta_nl_group_budget(struct netlink_ext_ack *extack,
			      const struct nlattr *ns_attr,
			      const struct nlattr *steps_attr,
			      struct ta_budget *budget)
{
	struct ta_plan_request probe = {};
	int err;

	err = ta_request_check(&probe, ta_nl_get_u64(ns_attr, 0),
			       ta_nl_get_u64(steps_attr, 0),
			       READ_ONCE(ta_netlink_max_plan_ms));
	if (err)
		NL_SET_ERR_MSG_ATTR(extack, ns_attr,
				    "budget-ns above the max_budget_ms module parameter");
	*budget = probe.budget;
	return err;
}

/* One member nest into a checked request with its arrays copied. */
static int ta_nl_group_member(struct netlink_ext_ack *extack,
			      const struct nlattr *nest, u32 strategy,
			      u64 default_align,
			      struct ta_group_member_request *m)
{
	struct nlattr *tb[ARRAY_SIZE(tensorarena_group_member_nl_policy)];
	struct ta_plan_request *req = &m->plan;
	const struct ta_nl_graph graph = {
		.head = nla_data(nest),
		.len = nla_len(nest),
		.tb = tb,
		.tensor = TA_NL_A_MEMBER_TENSOR,
		.op = TA_NL_A_MEMBER_OP,
		.buffer = TA_NL_A_MEMBER_BUFFER,
		.tensors_packed = TA_NL_A_MEMBER_TENSORS_PACKED,
		.ops_packed = TA_NL_A_MEMBER_OPS_PACKED,
		.refs_packed = TA_NL_A_MEMBER_REFS_PACKED,
		.buffers_packed = TA_NL_A_MEMBER_BUFFERS_PACKED,
	};
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       tensorarena_group_member_nl_policy, extack);
	if (err)
		return err;
	m->lane = ta_nl_get_u32(tb[TA_NL_A_MEMBER_LANE], 0);
	req->flags = ta_nl_get_u32(tb[TA_NL_A_MEMBER_FLAGS], 0);
	req->strategy = strategy;
	req->default_align = default_align;
	err = ta_nl_count(extack, &graph, req);
	if (err)
		return err;
	if (!(req->flags & TA_CREATE_LIFETIMES) && !req->n_ops) {
		NL_SET_ERR_ATTR_MISS(extack, nest, TA_NL_A_MEMBER_OP);
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a member in graph form needs at least one op");
		return -EINVAL;
	}
	err = ta_nl_check_shape(extack, req, 0, 0,
				READ_ONCE(ta_netlink_max_plan_ms), NULL, NULL);
	if (err)
		return err;
	err = ta_nl_parse_arrays(extack, &graph, req);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack, "out of memory");
	return err;
}

/* The member nests (@n of them) into @req->members. */
static int ta_nl_group_members(struct genl_info *info, u32 n, u32 strategy,
			       u64 default_align, struct ta_group_request *req)
{
	const struct nlattr *attr;
	int rem, err = 0;
	u32 i = 0;

	req->members = kvcalloc(n, sizeof(*req->members), TA_GFP_USER);
	if (!req->members) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	req->n_members = n;
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != TA_NL_A_GROUP_MEMBER)
			continue;
		err = ta_nl_group_member(info->extack, attr, strategy,
					 default_align, &req->members[i++]);
		if (err)
			return err;
	}
	return 0;
}

/* u32 attributes @types of a nest, each required. */
static int ta_nl_group_u32s(struct netlink_ext_ack *extack,
			    const struct nlattr *nest, struct nlattr **tb,
			    const int *types, unsigned int n, u32 *out)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!tb[types[i]]) {
			NL_SET_ERR_ATTR_MISS(extack, nest, types[i]);
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "link and shared nests need every attribute");
			return -EINVAL;
		}
		out[i] = nla_get_u32(tb[types[i]]);
	}
	return 0;
}

static int ta_nl_group_link(struct netlink_ext_ack *extack,
			    const struct nlattr *nest, u32 n_members,
			    struct ta_group_link *l)
{
	static const int types[] = {
		TA_NL_A_LINK_FROM_MEMBER, TA_NL_A_LINK_FROM_TENSOR,
		TA_NL_A_LINK_TO_MEMBER, TA_NL_A_LINK_TO_TENSOR,
	};
	struct nlattr *tb[ARRAY_SIZE(tensorarena_group_link_nl_policy)];
	u32 v[ARRAY_SIZE(types)];
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       tensorarena_group_link_nl_policy, extack);
	if (!err)
		err = ta_nl_group_u32s(extack, nest, tb, types,
				       ARRAY_SIZE(types), v);
	if (err)
		return err;
	l->from_member = v[0];
	l->from_tensor = v[1];
	l->to_member = v[2];
	l->to_tensor = v[3];
	if (l->from_member >= n_members) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_LINK_FROM_MEMBER],
				    "link from-member beyond the group's members");
		return -EINVAL;
	}
	if (l->to_member >= n_members) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_LINK_TO_MEMBER],
				    "link to-member beyond the group's members");
		return -EINVAL;
	}
	if (l->from_member == l->to_member) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_LINK_TO_MEMBER],
				    "a link joins two different members");
		return -EINVAL;
	}
	return 0;
}

static int ta_nl_group_shared(struct netlink_ext_ack *extack,
			      const struct nlattr *nest, u32 n_members,
			      struct ta_group_shared *sh)
{
	static const int types[] = {
		TA_NL_A_SHARED_MEMBER, TA_NL_A_SHARED_TENSOR, TA_NL_A_SHARED_KEY,
	};
	struct nlattr *tb[ARRAY_SIZE(tensorarena_group_shared_nl_policy)];
	u32 v[ARRAY_SIZE(types)];
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       tensorarena_group_shared_nl_policy, extack);
	if (!err)
		err = ta_nl_group_u32s(extack, nest, tb, types,
				       ARRAY_SIZE(types), v);
	if (err)
		return err;
	sh->member = v[0];
	sh->tensor = v[1];
	sh->key = v[2];
	sh->pad = 0;
	if (sh->member >= n_members) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_SHARED_MEMBER],
				    "shared member beyond the group's members");
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether @member has tensor @tensor, for the request's members (index
 * @first and on); the group's older members the core checks.
 */
static bool ta_nl_group_has(const struct ta_group_request *req, u32 first,
			    u32 member, u32 tensor)
{
	return member < first ||
	       tensor < req->members[member - first].plan.n_tensors;
}

/*
 * The link and shared nests into @req, their member indices below
 * @n_members (the group's members and the request's), and their tensor
 * indices within the request's members: member index @first and on is
 * @req->members[0] and on (the old members' tensors the core checks).
 */
static int ta_nl_group_refs(struct genl_info *info, u32 n_members, u32 first,
			    struct ta_group_request *req)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *attr;
	u32 nl = 0, ns = 0;
	int rem, err = 0;

	req->links = kvcalloc(max_t(u32, req->n_links, 1),
			      sizeof(*req->links), TA_GFP_USER);
	req->shared = kvcalloc(max_t(u32, req->n_shared, 1),
			       sizeof(*req->shared), TA_GFP_USER);
	if (!req->links || !req->shared) {
		NL_SET_ERR_MSG(extack, "out of memory");
		return -ENOMEM;
	}
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		const struct ta_group_link *l = &req->links[nl];
		const struct ta_group_shared *sh = &req->shared[ns];

		if (nla_type(attr) == TA_NL_A_GROUP_LINK) {
			err = ta_nl_group_link(extack, attr, n_members,
					       &req->links[nl++]);
			if (!err &&
			    (!ta_nl_group_has(req, first, l->from_member,
					      l->from_tensor) ||
			     !ta_nl_group_has(req, first, l->to_member,
					      l->to_tensor))) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "link names a tensor its member does not have");
				err = -EINVAL;
			}
		} else if (nla_type(attr) == TA_NL_A_GROUP_SHARED) {
			err = ta_nl_group_shared(extack, attr, n_members,
						 &req->shared[ns++]);
			if (!err && !ta_nl_group_has(req, first, sh->member,
						     sh->tensor)) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "shared names a tensor its member does not have");
				err = -EINVAL;
			}
		}
		if (err)
			return err;
	}
	return 0;
}

static int ta_nl_group_put_ids(struct sk_buff *msg, const u32 *ids, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (nla_put_u32(msg, TA_NL_A_GROUP_MEMBER_PLAN_ID, ids[i]))
			return -EMSGSIZE;
	return 0;
}

static int ta_nl_group_put_summary(struct sk_buff *msg,
				   const struct ta_group_summary *sum,
				   u32 n_members)
{
	if (nla_put_u32(msg, TA_NL_A_GROUP_GROUP_ID, sum->group_id) ||
	    ta_nl_group_put_ids(msg, sum->member_ids, n_members) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_HEIGHT, sum->height,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_LOWER_BOUND, sum->lower_bound,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_PLAN_TIME_NS,
			      sum->plan_time_ns, TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_MMAP_OFFSET, sum->mmap_offset,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_SLICE_SIZE, sum->slice_size,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u8(msg, TA_NL_A_GROUP_OPTIMAL, sum->optimal))
		return -EMSGSIZE;
	return 0;
}

static int ta_nl_group_put_add(struct sk_buff *msg, u32 group_id,
			       const struct ta_group_summary *sum)
{
	if (nla_put_u32(msg, TA_NL_A_GROUP_GROUP_ID, group_id) ||
	    ta_nl_group_put_ids(msg, sum->member_ids, 1) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_HEIGHT, sum->height,
			      TA_NL_A_GROUP_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * Reply to a create (@add false) or an add. A reply that cannot be sent
 * takes back what the request made: the group, or the new member.
 */
static int ta_nl_group_reply(struct genl_info *info, const struct ta_owner *caller,
			     bool add, u32 group_id,
			     const struct ta_group_summary *sum, u32 n_members)
{
	struct sk_buff *msg;
	void *hdr;
	int err = -ENOMEM;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto undo;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0,
				add ? TA_NL_CMD_GROUP_ADD :
				      TA_NL_CMD_GROUP_CREATE);
	err = -EMSGSIZE;
	if (!hdr || (add ? ta_nl_group_put_add(msg, group_id, sum) :
			   ta_nl_group_put_summary(msg, sum, n_members))) {
		nlmsg_free(msg);
		goto undo;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
	if (!err) {
		if (add)
			ta_group_obj_add_commit(ta_nl_dev, caller, group_id,
						sum->member_ids[0]);
		return 0;
	}
undo:
	if (add)
		ta_group_obj_add_undo(ta_nl_dev, caller, group_id,
				      sum->member_ids[0]);
	else if (sum->group_id)
		ta_plan_obj_destroy(ta_nl_dev, sum->group_id, caller);
	NL_SET_ERR_MSG(info->extack, "the reply could not be sent");
	return err;
}

/* One of the uid's create slots (ta_create_begin()), with a message. */
static int ta_nl_group_begin(struct netlink_ext_ack *extack, kuid_t uid)
{
	int err = ta_create_begin(ta_nl_dev, uid);

	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "as many creates of this uid are running as max_user_creates allows");
	else if (err)
		NL_SET_ERR_MSG(extack, "out of memory");
	return err;
}

/* group-create's fields before anything is copied, as the ioctl's. */
static int ta_nl_group_create_check(struct genl_info *info,
				    const struct ta_nl_group_counts *c,
				    u64 default_align, u64 capacity)
{
	struct nlattr **attrs = info->attrs;

	if (!c->n_members) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, TA_NL_A_GROUP_MEMBER);
		NL_SET_ERR_MSG(info->extack,
			       "group-create needs at least one member nest");
		return -EINVAL;
	}
	if (c->extra_member) {
		NL_SET_ERR_MSG_ATTR(info->extack, c->extra_member,
				    "more member nests than TA_GROUP_MAX_MEMBERS (64)");
		return -E2BIG;
	}
	if (ta_nl_group_check_refs(info->extack, c))
		return -E2BIG;
	if (default_align > TA_PLAN_MAX_ALIGN ||
	    (default_align && !is_power_of_2(default_align))) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    attrs[TA_NL_A_GROUP_DEFAULT_ALIGN],
				    "default-align is not a power of two up to 2^32");
		return -EINVAL;
	}
	if (capacity > ta_nl_dev->size) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TA_NL_A_GROUP_CAPACITY],
				    "capacity above the arena's size");
		return -ENOSPC;
	}
	return 0;
}

int tensorarena_nl_group_create_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	u64 default_align = ta_nl_get_u64(attrs[TA_NL_A_GROUP_DEFAULT_ALIGN], 0);
	struct ta_group_request req = {
		.flags = ta_nl_get_u32(attrs[TA_NL_A_GROUP_FLAGS], 0),
		.capacity = ta_nl_get_u64(attrs[TA_NL_A_GROUP_CAPACITY], 0),
	};
	struct ta_nl_group_counts c = {};
	struct ta_group_summary *sum;
	struct ta_owner caller;
	int err;

	err = ta_nl_group_strategy(info->extack, attrs[TA_NL_A_GROUP_STRATEGY],
				   &req.strategy);
	if (err)
		return err;
	ta_nl_group_count(info, &c);
	err = ta_nl_group_create_check(info, &c, default_align, req.capacity);
	if (err)
		return err;
	req.n_links = c.n_links;
	req.n_shared = c.n_shared;
	err = ta_nl_group_budget(info->extack, attrs[TA_NL_A_GROUP_BUDGET_NS],
				 attrs[TA_NL_A_GROUP_BUDGET_STEPS], &req.budget);
	if (err)
		return err;
	caller = ta_nl_caller(skb);
	err = ta_nl_owner_attach(NETLINK_CB(skb).sk, info->snd_portid,
				 &caller);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return err;
	}
	sum = kzalloc_obj(*sum, GFP_KERNEL);
	if (!sum) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	/* One of the uid's create slots, before anything is copied. */
	err = ta_nl_group_begin(info->extack, caller.uid);
	if (err)
		goto free_sum;
	err = ta_nl_group_members(info, c.n_members, req.strategy,
				  default_align, &req);
	if (!err)
		err = ta_nl_group_refs(info, c.n_members, 0, &req);
	if (!err) {
		err = ta_group_obj_create(ta_nl_dev, &caller, &req, sum);
		if (err)
			ta_nl_group_error(info->extack, err, sum->msg);
	}
	ta_group_request_free(&req);
	ta_create_end(ta_nl_dev, caller.uid);
	if (!err)
		err = ta_nl_group_reply(info, &caller, false, sum->group_id,
					sum, c.n_members);
free_sum:
	kfree(sum);
	return err;
}

/* The group of a group-add or group-get: -ENOENT, or -EINVAL for a plan. */
static int ta_nl_group_info(struct genl_info *info,
			    const struct ta_owner *caller,
			    struct ta_group_info *gi)
{
	const struct nlattr *id = info->attrs[TA_NL_A_GROUP_GROUP_ID];
	int err;

	err = ta_group_obj_info(ta_nl_dev, caller, nla_get_u32(id), gi);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, id, "no such group");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "the plan is not a group (a plain plan or a member)");
	else if (err)
		NL_SET_ERR_MSG(info->extack, "out of memory");
	return err;
}

/* group-add's fields before anything is copied, as the ioctl's. */
static int ta_nl_group_add_check(struct genl_info *info,
				 const struct ta_nl_group_counts *c)
{
	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_GROUP_GROUP_ID)) {
		NL_SET_ERR_MSG(info->extack, "group-id attribute missing");
		return -EINVAL;
	}
	if (!c->n_members) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, TA_NL_A_GROUP_MEMBER);
		NL_SET_ERR_MSG(info->extack, "group-add needs one member nest");
		return -EINVAL;
	}
	if (c->n_members > 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TA_NL_A_GROUP_MEMBER],
				    "group-add takes one member nest at a time");
		return -EINVAL;
	}
	return ta_nl_group_check_refs(info->extack, c);
}

int tensorarena_nl_group_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct ta_owner caller = ta_nl_caller(skb);
	struct ta_group_request req = {
		.flags = ta_nl_get_u32(attrs[TA_NL_A_GROUP_ADD_FLAGS], 0),
	};
	struct ta_nl_group_counts c = {};
	struct ta_group_summary *sum = NULL;
	struct ta_group_info *gi;
	u32 group_id;
	int err;

	err = ta_nl_group_strategy(info->extack, attrs[TA_NL_A_GROUP_STRATEGY],
				   &req.strategy);
	if (err)
		return err;
	ta_nl_group_count(info, &c);
	err = ta_nl_group_add_check(info, &c);
	if (err)
		return err;
	group_id = nla_get_u32(attrs[TA_NL_A_GROUP_GROUP_ID]);
	req.n_links = c.n_links;
	req.n_shared = c.n_shared;
	err = ta_nl_group_budget(info->extack, attrs[TA_NL_A_GROUP_BUDGET_NS],
				 NULL, &req.budget);
	if (err)
		return err;
	gi = kzalloc_obj(*gi, GFP_KERNEL);
	sum = kzalloc_obj(*sum, GFP_KERNEL);
	err = -ENOMEM;
	if (!gi || !sum) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		goto free;
	}
	err = ta_nl_group_info(info, &caller, gi);
	if (err)
		goto free;
	err = ta_nl_group_begin(info->extack, caller.uid);
	if (err)
		goto free;
	err = ta_nl_group_members(info, 1, req.strategy, 0, &req);
	if (!err)
		err = ta_nl_group_refs(info, gi->n_members + 1, gi->n_members,
				       &req);
	if (!err) {
		err = ta_group_obj_add(ta_nl_dev, &caller, group_id, &req, sum);
		if (err)
			ta_nl_group_error(info->extack, err, sum->msg);
	}
	ta_group_request_free(&req);
	ta_create_end(ta_nl_dev, caller.uid);
	if (!err)
		err = ta_nl_group_reply(info, &caller, true, group_id, sum, 1);
free:
	kfree(sum);
	kfree(gi);
	return err;
}

static int ta_nl_group_put_info(struct sk_buff *msg, u32 group_id,
				const struct ta_group_info *gi)
{
	if (nla_put_u32(msg, TA_NL_A_GROUP_GROUP_ID, group_id) ||
	    nla_put_u32(msg, TA_NL_A_GROUP_N_MEMBERS, gi->n_members) ||
	    nla_put_u32(msg, TA_NL_A_GROUP_N_LANES, gi->n_lanes) ||
	    ta_nl_group_put_ids(msg, gi->member_ids, gi->n_members) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_HEIGHT, gi->height,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_LOWER_BOUND, gi->lower_bound,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_SLICE_SIZE, gi->slice_size,
			      TA_NL_A_GROUP_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_GROUP_MMAP_OFFSET, gi->mmap_offset,
			      TA_NL_A_GROUP_PAD))
		return -EMSGSIZE;
	return 0;
}

int tensorarena_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ta_owner caller = ta_nl_caller(skb);
	struct ta_group_info *gi;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_GROUP_GROUP_ID)) {
		NL_SET_ERR_MSG(info->extack, "group-id attribute missing");
		return -EINVAL;
	}
	gi = kzalloc_obj(*gi, GFP_KERNEL);
	if (!gi) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	err = ta_nl_group_info(info, &caller, gi);
	if (err)
		goto free;
	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto reply_failed;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0,
				TA_NL_CMD_GROUP_GET);
	err = -EMSGSIZE;
	if (!hdr ||
	    ta_nl_group_put_info(msg,
				 nla_get_u32(info->attrs[TA_NL_A_GROUP_GROUP_ID]),
				 gi)) {
		nlmsg_free(msg);
		goto reply_failed;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
	if (!err)
		goto free;
reply_failed:
	NL_SET_ERR_MSG(info->extack, "the reply could not be built");
free:
	kfree(gi);
	return err;
}
