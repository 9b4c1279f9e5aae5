// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_plan.c - the plan commands of the netlink family: plan-create
 * (parsed by ta_nl_parse.c into a &struct ta_plan_request, then
 * ta_plan_obj_create(); the plan belongs to the sending socket,
 * ta_nl_owner.c), plan-get (a do, or a dump of every plan or of one plan's
 * placements) and plan-destroy. Every rejection carries an extack message.
 */
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

/* A fixed plan that breaks a rule: name the tensors (see ta_compat.h). */
static void ta_nl_conflict_error(struct genl_info *info,
				 const struct ta_conflict *c)
{
	char msg[TA_CONFLICT_MSG_LEN];

	if (!ta_conflict_describe(c, msg, sizeof(msg)))
		return;
	ta_nl_set_err_msg_str(info->extack,
			      "fixed plan: two tensors live at one step share bytes, or an offset is misaligned or beyond the height (the kernel log names the tensors)",
			      msg);
}

/*
 * A tiered create's refusals: no fast tier, a capacity out of range, pins
 * that cannot be met (the tensor and the shortfall, as the ioctl's
 * tier_fail fields say them).
 */
static bool ta_nl_tier_error(struct genl_info *info,
			     const struct ta_plan_request *req,
			     const struct ta_plan_summary *sum, int err)
{
	char msg[TA_TIER_FAIL_MSG_LEN];

	if (!(req->flags & TA_CREATE_TIERED))
		return false;
	if (ta_tier_fail_describe(&sum->tier_fail, msg, sizeof(msg))) {
		ta_nl_set_err_msg_str(info->extack,
				      "tiers: the pins cannot be met (the kernel log names the tensor and the shortfall)",
				      msg);
		return true;
	}
	if (err == -ENODEV) {
		NL_SET_ERR_MSG(info->extack,
			       "the module has no fast tier (load it with sram_size, or give its device-tree node an sram phandle)");
		return true;
	}
	if (err == -EINVAL && (!req->fast_capacity ||
			       req->fast_capacity > ta_nl_dev->fast.size)) {
		NL_SET_ERR_MSG(info->extack,
			       "fast-capacity must be 1 to the fast tier's size");
		return true;
	}
	if (err == -EINVAL && req->strategy == TA_STRATEGY_FIXED) {
		NL_SET_ERR_MSG(info->extack,
			       "the tiered flag does not go with strategy fixed");
		return true;
	}
	return false;
}

static void ta_nl_create_error(struct genl_info *info, int err)
{
	switch (err) {
	case -EINVAL:
		NL_SET_ERR_MSG(info->extack,
			       "malformed graph: a reference beyond the tensors, a tensor read before it is produced or produced twice, an input or constant written, or a tensor no op references");
		break;
	case -E2BIG:
		NL_SET_ERR_MSG(info->extack, "graph beyond the planner's limits");
		break;
	case -EOVERFLOW:
		NL_SET_ERR_MSG(info->extack, "plan height beyond 63 bits");
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG(info->extack,
			       "no free slice of the arena for the plan's height, or the plan table is full");
		break;
	case -EDQUOT:
		NL_SET_ERR_MSG(info->extack,
			       "quota: the caller's uid or socket holds as many plans (max_user_plans, max_file_plans), arena bytes (max_user_bytes) or fast-tier bytes (max_user_fast_bytes) as it may, or its cgroup's dmem.max is reached");
		break;
	case -ETIMEDOUT:
		NL_SET_ERR_MSG(info->extack,
			       "planning hit its time limit (netlink_max_plan_ms) without a plan: use a faster strategy or the ioctl");
		break;
	case -EINTR:
		NL_SET_ERR_MSG(info->extack, "planning interrupted by a signal");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG(info->extack, "out of memory");
		break;
	}
}

/*
 * The room ta_nl_put_summary() and ta_nl_put_tiers() take (with
 * @capacity: a tiered plan's): a reply is allocated to its size, since
 * every byte of an skb's data is zeroed when it is allocated on kernels
 * with init_on_alloc, and a page-sized reply for 100 bytes cost more than
 * its copy.
 */
static size_t ta_nl_summary_size(u64 capacity)
{
	size_t size = nla_total_size(sizeof(u32)) +
		      4 * nla_total_size_64bit(sizeof(u64)) +
		      nla_total_size(sizeof(u8));

	if (capacity)
		size += 6 * nla_total_size_64bit(sizeof(u64)) +
			nla_total_size(sizeof(u32));
	return size;
}

static int ta_nl_put_summary(struct sk_buff *msg,
			     const struct ta_plan_summary *sum)
{
	if (nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, sum->plan_id) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_HEIGHT, sum->height,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_LOWER_BOUND, sum->lower_bound,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_PLAN_TIME_NS,
			      sum->plan_time_ns, TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_MMAP_OFFSET, sum->mmap_offset,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u8(msg, TA_NL_A_PLAN_OPTIMAL, sum->optimal))
		return -EMSGSIZE;
	return 0;
}

/* A tiered plan's figures (as the ioctl's Out fields); none untiered. */
static int ta_nl_put_tiers(struct sk_buff *msg,
			   const struct ta_plan_summary *sum, u64 capacity)
{
	if (!capacity)
		return 0;
	if (nla_put_u64_64bit(msg, TA_NL_A_PLAN_FAST_CAPACITY, capacity,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_N_FAST, sum->n_fast) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_FAST_HEIGHT, sum->fast_height,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_FAST_MMAP_OFFSET,
			      sum->fast_mmap_offset, TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_WEIGHT_TOTAL,
			      sum->weight_total, TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_WEIGHT_FAST, sum->weight_fast,
			      TA_NL_A_PLAN_PAD) ||
	    nla_put_u64_64bit(msg, TA_NL_A_PLAN_WEIGHT_BOUND,
			      sum->weight_bound, TA_NL_A_PLAN_PAD))
		return -EMSGSIZE;
	return 0;
}

static int ta_nl_create_reply(struct genl_info *info,
			      const struct ta_plan_summary *sum, u64 capacity)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(ta_nl_summary_size(capacity), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0,
				TA_NL_CMD_PLAN_CREATE);
	if (!hdr || ta_nl_put_summary(msg, sum) ||
	    ta_nl_put_tiers(msg, sum, capacity)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int tensorarena_nl_plan_create_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct ta_plan_request req = {
		.flags = ta_nl_get_u32(attrs[TA_NL_A_PLAN_FLAGS], 0),
		.strategy = ta_nl_get_u32(attrs[TA_NL_A_PLAN_STRATEGY],
					  TA_STRATEGY_AUTO),
		.default_align = ta_nl_get_u64(attrs[TA_NL_A_PLAN_DEFAULT_ALIGN],
					       0),
	};
	const struct ta_nl_graph graph = {
		.head = nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
		.len = nlmsg_attrlen(info->nlhdr, GENL_HDRLEN),
		.tb = attrs,
		.tensor = TA_NL_A_PLAN_TENSOR,
		.op = TA_NL_A_PLAN_OP,
		.buffer = TA_NL_A_PLAN_BUFFER,
		.tensors_packed = TA_NL_A_PLAN_TENSORS_PACKED,
		.ops_packed = TA_NL_A_PLAN_OPS_PACKED,
		.refs_packed = TA_NL_A_PLAN_REFS_PACKED,
		.buffers_packed = TA_NL_A_PLAN_BUFFERS_PACKED,
	};
	struct ta_plan_summary sum;
	struct ta_owner caller;
	int err;

	err = ta_nl_count(info->extack, &graph, &req);
	if (err)
		return err;
	if (!(req.flags & TA_CREATE_LIFETIMES) && !req.n_ops) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, TA_NL_A_PLAN_OP);
		NL_SET_ERR_MSG(info->extack, "graph form needs at least one op");
		return -EINVAL;
	}
	err = ta_nl_check_shape(info->extack, &req,
				ta_nl_get_u64(attrs[TA_NL_A_PLAN_BUDGET_NS], 0),
				ta_nl_get_u64(attrs[TA_NL_A_PLAN_BUDGET_STEPS], 0),
				READ_ONCE(ta_netlink_max_plan_ms),
				attrs[TA_NL_A_PLAN_BUDGET_NS],
				attrs[TA_NL_A_PLAN_DEFAULT_ALIGN]);
	if (err)
		return err;
	caller = ta_nl_caller(skb);
	err = ta_nl_owner_attach(NETLINK_CB(skb).sk, info->snd_portid,
				 &caller);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return err;
	}

	/* One of the uid's create slots, before anything is copied. */
	err = ta_create_begin(ta_nl_dev, caller.uid);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(info->extack,
			       "as many creates of this uid are running as max_user_creates allows");
		return err;
	}
	if (err) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return err;
	}
	err = ta_nl_parse_arrays(info->extack, &graph, &req);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(info->extack, "out of memory");
	if (!err)
		err = ta_nl_parse_fixed(info, &req);
	if (!err)
		err = ta_nl_parse_tiers(info, &req);
	if (!err) {
		err = ta_plan_obj_create(ta_nl_dev, &caller, &req, &sum);
		if (err && !ta_nl_tier_error(info, &req, &sum, err))
			ta_nl_create_error(info, err);
		if (err == -EINVAL)
			ta_nl_conflict_error(info, &sum.conflict);
	}
	ta_request_free(&req);
	ta_create_end(ta_nl_dev, caller.uid);
	if (err)
		return err;

	err = ta_nl_create_reply(info, &sum, req.fast_capacity);
	if (err) {
		/* The ID could not reach the caller: take the plan back. */
		if (sum.plan_id)
			ta_plan_obj_destroy(ta_nl_dev, sum.plan_id, &caller);
		NL_SET_ERR_MSG(info->extack, "the reply could not be sent");
	}
	return err;
}

static size_t ta_nl_placement_size(void)
{
	return nla_total_size(0) + 2 * nla_total_size_64bit(sizeof(u64)) +
	       nla_total_size(sizeof(u32));
}

/* The room ta_nl_put_plan() takes for @plan. */
static size_t ta_nl_plan_size(const struct ta_plan_obj *plan)
{
	return ta_nl_summary_size(plan->fast_capacity) +
	       3 * nla_total_size(sizeof(u32));
}

/* The figures of @plan: everything but the placements. */
static int ta_nl_put_plan(struct sk_buff *msg, const struct ta_plan_obj *plan)
{
	struct ta_plan_summary sum = {
		.plan_id = plan->id,
		.height = plan->height,
		.lower_bound = plan->lower_bound,
		.plan_time_ns = plan->time_ns,
		.mmap_offset = (u64)plan->id << PAGE_SHIFT,
		.optimal = plan->optimal,
		.fast_height = plan->fast_height,
		.fast_mmap_offset = ta_plan_obj_fast_mmap_offset(plan),
		.n_fast = plan->n_fast,
		.weight_total = plan->weight_total,
		.weight_fast = plan->weight_fast,
		.weight_bound = plan->weight_bound,
	};

	if (ta_nl_put_summary(msg, &sum) ||
	    ta_nl_put_tiers(msg, &sum, plan->fast_capacity) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_STRATEGY, plan->strategy) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_N_TENSORS, plan->n_tensors) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_UID,
			from_kuid_munged(current_user_ns(), plan->uid)))
		return -EMSGSIZE;
	return 0;
}

/*
 * Put placements from @*next on as long as they fit; @*next is advanced.
 * Returns -EMSGSIZE when not even one fits.
 */
static int ta_nl_put_placements(struct sk_buff *msg,
				const struct ta_plan_obj *plan, u32 *next)
{
	u32 first = *next;

	if (nla_put_u32(msg, TA_NL_A_PLAN_FIRST_PLACEMENT, first))
		return -EMSGSIZE;
	for (; *next < plan->n_tensors; (*next)++) {
		const struct ta_placement *p = &plan->placements[*next];
		struct nlattr *nest;

		nest = nla_nest_start(msg, TA_NL_A_PLAN_PLACEMENT);
		if (!nest)
			break;
		if (nla_put_u64_64bit(msg, TA_NL_A_PLACEMENT_OFFSET, p->offset,
				      TA_NL_A_PLACEMENT_PAD) ||
		    nla_put_u64_64bit(msg, TA_NL_A_PLACEMENT_SIZE, p->size,
				      TA_NL_A_PLACEMENT_PAD) ||
		    nla_put_u32(msg, TA_NL_A_PLACEMENT_TIER, p->tier)) {
			nla_nest_cancel(msg, nest);
			break;
		}
		nla_nest_end(msg, nest);
	}
	return *next == first && first < plan->n_tensors ? -EMSGSIZE : 0;
}

static struct ta_plan_obj *ta_nl_lookup(const struct sk_buff *skb,
					struct netlink_ext_ack *extack,
					struct nlattr **attrs)
{
	struct ta_owner caller = ta_nl_caller(skb);
	struct ta_plan_obj *plan;

	plan = ta_plan_obj_lookup(ta_nl_dev,
				  nla_get_u32(attrs[TA_NL_A_PLAN_PLAN_ID]),
				  &caller);
	if (IS_ERR(plan))
		NL_SET_ERR_MSG_ATTR(extack, attrs[TA_NL_A_PLAN_PLAN_ID],
				    "no such plan");
	return plan;
}

int tensorarena_nl_plan_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ta_plan_obj *plan;
	struct sk_buff *msg;
	u32 next = 0;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_PLAN_PLAN_ID)) {
		NL_SET_ERR_MSG(info->extack, "plan-id attribute missing");
		return -EINVAL;
	}
	plan = ta_nl_lookup(skb, info->extack, info->attrs);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	if (plan->n_tensors > TA_NL_GET_DO_MAX_PLACEMENTS) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[TA_NL_A_PLAN_PLAN_ID],
				    "plan too large for one reply: dump plan-get with plan-id");
		err = -EMSGSIZE;
		goto put;
	}
	msg = genlmsg_new(ta_nl_plan_size(plan) + nla_total_size(sizeof(u32)) +
			  plan->n_tensors * ta_nl_placement_size(), GFP_KERNEL);
	err = -ENOMEM;
	if (!msg)
		goto put;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0,
				TA_NL_CMD_PLAN_GET);
	err = -EMSGSIZE;
	if (!hdr || ta_nl_put_plan(msg, plan) ||
	    ta_nl_put_placements(msg, plan, &next) ||
	    next != plan->n_tensors) {
		nlmsg_free(msg);
		goto put;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
put:
	if (err && err != -ENOENT && !info->extack->_msg)
		NL_SET_ERR_MSG(info->extack, "the reply could not be built");
	ta_plan_obj_put(plan);
	return err;
}

/*
 * Dump state in cb->args: [0] the plan ID to dump (0: list every plan),
 * [1] the last plan listed or the next placement, [2] whether the dump of
 * one plan has sent its figures, [3] and [4] the requester's uid and admin
 * flag, [5] set once the dump has started. Later parts of a dump run in
 * whichever task reads the socket, so the access check and the identity
 * are done once, at the start, from the request.
 *
 * The generated per-op ops table has no start() (6.1's genl_ops would
 * take one, but ynl-gen-c.py renders start()/done() only for split ops),
 * so the start is the first dumpit() call, which netlink_dump_start()
 * makes in the requester's sendmsg(), like a do; its error and extack
 * message end the dump.
 */
static int ta_nl_get_start(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *id = ta_dumpit_attrs(di)[TA_NL_A_PLAN_PLAN_ID];
	struct ta_owner caller;
	int err;

	err = ta_nl_check_access(cb->skb, cb->extack);
	if (err)
		return err;
	caller = ta_nl_caller(cb->skb);

	cb->args[0] = id ? nla_get_u32(id) : 0;
	cb->args[1] = 0;
	cb->args[2] = 0;
	cb->args[3] = __kuid_val(caller.uid);
	cb->args[4] = caller.admin;
	cb->args[5] = 1;
	return 0;
}

static struct ta_owner ta_nl_dump_caller(const struct netlink_callback *cb)
{
	return (struct ta_owner){
		.uid = KUIDT_INIT((uid_t)cb->args[3]),
		.admin = cb->args[4],
	};
}

static int ta_nl_dump_list(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ta_owner caller = ta_nl_dump_caller(cb);
	struct ta_plan_obj *plan;
	void *hdr;

	for (;;) {
		plan = ta_plan_obj_next(ta_nl_dev, cb->args[1], &caller);
		if (!plan)
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ta_nl_family,
				  NLM_F_MULTI, TA_NL_CMD_PLAN_GET);
		if (!hdr)
			goto full;
		if (ta_nl_put_plan(skb, plan)) {
			genlmsg_cancel(skb, hdr);
			goto full;
		}
		genlmsg_end(skb, hdr);
		cb->args[1] = plan->id;
		ta_plan_obj_put(plan);
	}
	return skb->len;
full:
	ta_plan_obj_put(plan);
	return skb->len;
}

static int ta_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ta_owner caller = ta_nl_dump_caller(cb);
	struct ta_plan_obj *plan;
	u32 next = cb->args[1];
	void *hdr;
	int err;

	plan = ta_plan_obj_lookup(ta_nl_dev, cb->args[0], &caller);
	if (IS_ERR(plan)) {
		if (cb->args[2])
			NL_SET_ERR_MSG(cb->extack,
				       "the plan was destroyed during the dump");
		else
			NL_SET_ERR_MSG(cb->extack, "no such plan");
		return PTR_ERR(plan);
	}
	err = 0;
	while (!cb->args[2] || next < plan->n_tensors) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ta_nl_family,
				  NLM_F_MULTI, TA_NL_CMD_PLAN_GET);
		if (!hdr)
			break;
		if (ta_nl_put_plan(skb, plan) ||
		    ta_nl_put_placements(skb, plan, &next)) {
			genlmsg_cancel(skb, hdr);
			/* Not even one placement fits an empty message. */
			if (!skb->len)
				err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[1] = next;
		cb->args[2] = 1;
	}
	ta_plan_obj_put(plan);
	return err ?: skb->len;
}

int tensorarena_nl_plan_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	int err;

	if (!cb->args[5]) {
		err = ta_nl_get_start(cb);
		if (err)
			return err;
	}
	return cb->args[0] ? ta_nl_dump_one(skb, cb) : ta_nl_dump_list(skb, cb);
}

int tensorarena_nl_plan_destroy_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct ta_owner caller = ta_nl_caller(skb);
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_PLAN_PLAN_ID)) {
		NL_SET_ERR_MSG(info->extack, "plan-id attribute missing");
		return -EINVAL;
	}
	err = ta_plan_obj_destroy(ta_nl_dev,
				  nla_get_u32(info->attrs[TA_NL_A_PLAN_PLAN_ID]),
				  &caller);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[TA_NL_A_PLAN_PLAN_ID],
				    "no such plan");
	return err;
}
