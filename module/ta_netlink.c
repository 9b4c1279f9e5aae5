// SPDX-License-Identifier: GPL-2.0
/*
 * ta_netlink.c - the generic netlink transport: family "tensorarena".
 *
 * A thin layer over the core API of ta_plan_obj.c, like ta_ioctl.c: the
 * commands parse their attributes into a &struct ta_plan_request, call
 * ta_request_check() and ta_plan_obj_create() / _lookup() / _next() /
 * _destroy() (plan-export: ta_dmabuf_create_by_id()), and put the results
 * into attributes. Every rejection carries an extack message (the policies'
 * own for type, range and mask errors).
 * Documentation/netlink.md describes the family; the YAML spec is
 * Documentation/netlink/specs/tensorarena.yaml, from which ta_nl_gen.[ch]
 * (policies, ops table) are generated (make netlink-gen).
 *
 * Access: the family exists in the initial network namespace only, and a
 * command or dump is served only when both the opener of the sending socket
 * and the sending task could use /dev/tensorarena (ta_nl_check_access()):
 * -EPERM otherwise.
 *
 * Ownership: a plan created over netlink belongs to the sending socket
 * (ta_nl_owner.c: the records, and the plans' release when the socket
 * closes or the family goes).
 *
 * Locking: the ops run in parallel (parallel_ops; planning may take the
 * whole budget and must not hold genl_mutex); the core has its own locking,
 * and so has ta_nl_owner.c.
 */
#include <linux/dma-buf.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl_gen.h"

static struct ta_device *ta_nl_dev;
static bool ta_nl_registered;

static struct genl_family ta_nl_family;

static u32 ta_nl_get_u32(const struct nlattr *attr, u32 def)
{
	return attr ? nla_get_u32(attr) : def;
}

static u64 ta_nl_get_u64(const struct nlattr *attr, u64 def)
{
	return attr ? nla_get_u64(attr) : def;
}

/*
 * The family's policy, for every command (pre_doit) and dump (its start):
 * the family exists only in the initial network namespace (netnsok is
 * false: elsewhere the controller finds no family), and both the opener of
 * the sending socket and the sending task must be allowed to use
 * /dev/tensorarena (ta_access_allowed(): the node's owner root, the
 * "group" and "mode" module parameters, or CAP_SYS_ADMIN in the initial
 * user namespace). A kernel socket has no opener; its sending task still
 * counts. Both requests and dumps are checked in the sender's sendmsg(),
 * where the socket and its file are alive.
 */
static int ta_nl_check_access(const struct sk_buff *skb,
			      struct netlink_ext_ack *extack)
{
	const struct sock *sk = NETLINK_CB(skb).sk;
	const struct file *file = sk && sk->sk_socket ? sk->sk_socket->file :
							NULL;

	if ((!file || ta_access_allowed(file->f_cred)) &&
	    ta_access_allowed(current_cred()))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "permission denied: the socket's opener and the sender must be allowed to use /dev/tensorarena (module parameters group and mode) or have CAP_SYS_ADMIN");
	return -EPERM;
}

static int ta_nl_pre_doit(const TA_GENL_DOIT_OPS *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	return ta_nl_check_access(skb, info->extack);
}

/*
 * The identity of a request: the effective uid of whoever opened the
 * sending socket (not of the task that sends on it), admin when both hold
 * CAP_SYS_ADMIN in the initial user namespace (netlink_capable()).
 */
static struct ta_owner ta_nl_caller(const struct sk_buff *skb)
{
	const struct sock *sk = NETLINK_CB(skb).sk;
	const struct cred *cred = current_cred();

	if (sk && sk->sk_socket && sk->sk_socket->file)
		cred = sk->sk_socket->file->f_cred;
	return (struct ta_owner){
		.uid = cred->euid,
		.admin = netlink_capable(skb, CAP_SYS_ADMIN),
	};
}

/* The arena's figures; its DMA addresses too when @addresses (an admin). */
static int ta_nl_put_info(struct sk_buff *skb, struct ta_device *ta,
			  bool addresses)
{
	struct ta_info info = {};

	ta_arena_fill_info(ta, &info, addresses);
	if (addresses &&
	    (nla_put_u64_64bit(skb, TA_NL_A_INFO_DMA_BASE, info.dma_base,
			       TA_NL_A_INFO_PAD) ||
	     nla_put_u64_64bit(skb, TA_NL_A_INFO_DMA_LIMIT, info.dma_limit,
			       TA_NL_A_INFO_PAD)))
		return -EMSGSIZE;
	if (nla_put_u32(skb, TA_NL_A_INFO_ABI_VERSION, info.abi_version) ||
	    nla_put_u64_64bit(skb, TA_NL_A_INFO_ARENA_SIZE, info.arena_size,
			      TA_NL_A_INFO_PAD) ||
	    nla_put_u64_64bit(skb, TA_NL_A_INFO_BYTES_IN_USE,
			      info.bytes_in_use, TA_NL_A_INFO_PAD) ||
	    nla_put_u64_64bit(skb, TA_NL_A_INFO_ALIGNMENT, info.alignment,
			      TA_NL_A_INFO_PAD) ||
	    nla_put_u32(skb, TA_NL_A_INFO_PAGE_SIZE, info.page_size) ||
	    nla_put_u32(skb, TA_NL_A_INFO_N_PLANS, info.n_plans) ||
	    nla_put_u64_64bit(skb, TA_NL_A_INFO_LARGEST_FREE,
			      info.largest_free, TA_NL_A_INFO_PAD))
		return -EMSGSIZE;
	return 0;
}

int tensorarena_nl_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0, TA_NL_CMD_INFO);
	if (!hdr || ta_nl_put_info(msg, ta_nl_dev, ta_nl_caller(skb).admin)) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "info does not fit a message");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Count the repeated top-level attributes of a create request. */
static int ta_nl_count(struct genl_info *info, struct ta_plan_request *req)
{
	const struct nlattr *attr, *ref;
	int rem, rrem;
	u64 n_refs = 0;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		switch (nla_type(attr)) {
		case TA_NL_A_PLAN_TENSOR:
		case TA_NL_A_PLAN_BUFFER:
			req->n_tensors++;
			break;
		case TA_NL_A_PLAN_OP:
			req->n_ops++;
			nla_for_each_nested(ref, attr, rrem)
				n_refs += nla_type(ref) == TA_NL_A_OP_INPUT ||
					  nla_type(ref) == TA_NL_A_OP_OUTPUT;
			break;
		}
	}
	if (info->attrs[TA_NL_A_PLAN_TENSOR] && info->attrs[TA_NL_A_PLAN_BUFFER]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TA_NL_A_PLAN_BUFFER],
				    "tensor and buffer attributes cannot be mixed");
		return -EINVAL;
	}
	if (req->flags & TA_CREATE_LIFETIMES) {
		if (info->attrs[TA_NL_A_PLAN_TENSOR] || info->attrs[TA_NL_A_PLAN_OP]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[TA_NL_A_PLAN_TENSOR] ?:
					    info->attrs[TA_NL_A_PLAN_OP],
					    "lifetime form takes buffer attributes, not tensors or ops");
			return -EINVAL;
		}
	} else if (info->attrs[TA_NL_A_PLAN_BUFFER]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TA_NL_A_PLAN_BUFFER],
				    "buffer attributes need the lifetimes flag");
		return -EINVAL;
	}
	req->n_refs = min_t(u64, n_refs, U32_MAX);
	return 0;
}

static int ta_nl_check_shape(struct genl_info *info, struct ta_plan_request *req,
			     u64 budget_ns, u64 budget_steps, unsigned int limit_ms)
{
	int err = ta_request_check(req, budget_ns, budget_steps, limit_ms);

	if (err == -E2BIG) {
		if (req->n_tensors > READ_ONCE(ta_max_tensors))
			NL_SET_ERR_MSG(info->extack,
				       "more tensors than the max_tensors module parameter allows");
		else if (req->n_ops > READ_ONCE(ta_max_ops))
			NL_SET_ERR_MSG(info->extack,
				       "more ops than the max_ops module parameter allows");
		else
			NL_SET_ERR_MSG(info->extack,
				       "more op references than the max_refs module parameter allows");
	} else if (err && budget_ns > (u64)READ_ONCE(ta_max_budget_ms) *
				      NSEC_PER_MSEC) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[TA_NL_A_PLAN_BUDGET_NS],
				    "budget-ns above the max_budget_ms module parameter");
	} else if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[TA_NL_A_PLAN_DEFAULT_ALIGN],
				    "default-align is not a power of two up to 2^32");
	}
	return err;
}

/* The size and alignment rules of the planner, with the attribute to blame. */
static int ta_nl_check_size_align(struct netlink_ext_ack *extack,
				  struct nlattr **tb, int size_type,
				  int align_type, const struct nlattr *nest,
				  u64 default_align, u64 *size, u64 *align)
{
	if (!tb[size_type]) {
		NL_SET_ERR_ATTR_MISS(extack, nest, size_type);
		NL_SET_ERR_MSG_ATTR(extack, nest, "size attribute missing");
		return -EINVAL;
	}
	*size = nla_get_u64(tb[size_type]);
	*align = ta_nl_get_u64(tb[align_type], 0) ?: default_align;
	if (*align & (*align - 1)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[align_type],
				    "align is not a power of two");
		return -EINVAL;
	}
	if (*align > TA_PLAN_MAX_ALIGN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[align_type],
				    "align above 2^32");
		return -E2BIG;
	}
	if (*size >= TA_PLAN_MAX_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[size_type],
				    "size beyond the planner's limit");
		return -E2BIG;
	}
	return 0;
}

static int ta_nl_parse_tensor(struct netlink_ext_ack *extack,
			      const struct nlattr *nest, u64 default_align,
			      struct ta_graph_tensor *t)
{
	struct nlattr *tb[ARRAY_SIZE(tensorarena_tensor_nl_policy)];
	u64 size, align;
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       tensorarena_tensor_nl_policy, extack);
	if (err)
		return err;
	err = ta_nl_check_size_align(extack, tb, TA_NL_A_TENSOR_SIZE,
				     TA_NL_A_TENSOR_ALIGN, nest, default_align,
				     &size, &align);
	if (err)
		return err;
	t->size = size;
	t->align = align;
	t->flags = ta_nl_get_u32(tb[TA_NL_A_TENSOR_FLAGS], 0);
	return 0;
}

static int ta_nl_parse_buffer(struct netlink_ext_ack *extack,
			      const struct nlattr *nest, u64 default_align,
			      struct ta_buffer *b)
{
	struct nlattr *tb[ARRAY_SIZE(tensorarena_buffer_nl_policy)];
	u64 size, align;
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       tensorarena_buffer_nl_policy, extack);
	if (err)
		return err;
	err = ta_nl_check_size_align(extack, tb, TA_NL_A_BUFFER_SIZE,
				     TA_NL_A_BUFFER_ALIGN, nest, default_align,
				     &size, &align);
	if (err)
		return err;
	if (!tb[TA_NL_A_BUFFER_START] || !tb[TA_NL_A_BUFFER_END]) {
		NL_SET_ERR_ATTR_MISS(extack, nest, tb[TA_NL_A_BUFFER_START] ?
				     TA_NL_A_BUFFER_END : TA_NL_A_BUFFER_START);
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "buffer needs start and end attributes");
		return -EINVAL;
	}
	b->size = size;
	b->align = align;
	b->start = nla_get_u32(tb[TA_NL_A_BUFFER_START]);
	b->end = nla_get_u32(tb[TA_NL_A_BUFFER_END]);
	if (b->start >= b->end) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_BUFFER_END],
				    "buffer end must be after its start");
		return -EINVAL;
	}
	if (b->end > TA_PLAN_MAX_STEPS) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TA_NL_A_BUFFER_END],
				    "buffer end beyond the planner's step limit");
		return -E2BIG;
	}
	return 0;
}

/* An op's inputs then its outputs, each in attribute order, from @*ref. */
static void ta_nl_parse_op(const struct nlattr *nest, struct ta_graph_op *op,
			   u32 *refs, u32 *ref)
{
	const struct nlattr *attr;
	int rem;

	op->first_ref = *ref;
	op->n_inputs = 0;
	op->n_outputs = 0;
	op->flags = 0;
	nla_for_each_nested(attr, nest, rem)
		if (nla_type(attr) == TA_NL_A_OP_FLAGS)
			op->flags = nla_get_u32(attr);	/* policy: known bits */
	nla_for_each_nested(attr, nest, rem)
		if (nla_type(attr) == TA_NL_A_OP_INPUT) {
			refs[(*ref)++] = nla_get_u32(attr);
			op->n_inputs++;
		}
	nla_for_each_nested(attr, nest, rem)
		if (nla_type(attr) == TA_NL_A_OP_OUTPUT) {
			refs[(*ref)++] = nla_get_u32(attr);
			op->n_outputs++;
		}
}

static int ta_nl_parse_arrays(struct genl_info *info,
			      struct ta_plan_request *req)
{
	bool lifetimes = req->flags & TA_CREATE_LIFETIMES;
	u32 n = max_t(u32, req->n_tensors, 1);
	u32 t = 0, o = 0, r = 0;
	const struct nlattr *attr;
	int rem, err = 0;

	if (lifetimes) {
		req->buffers = kvcalloc(n, sizeof(*req->buffers), TA_GFP_USER);
		if (!req->buffers)
			return -ENOMEM;
	} else {
		req->tensors = kvcalloc(n, sizeof(*req->tensors), TA_GFP_USER);
		req->ops = kvcalloc(max_t(u32, req->n_ops, 1),
				    sizeof(*req->ops), TA_GFP_USER);
		req->refs = kvcalloc(max_t(u32, req->n_refs, 1),
				     sizeof(*req->refs), TA_GFP_USER);
		if (!req->tensors || !req->ops || !req->refs)
			return -ENOMEM;
	}
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		switch (nla_type(attr)) {
		case TA_NL_A_PLAN_TENSOR:
			err = ta_nl_parse_tensor(info->extack, attr,
						 req->default_align,
						 &req->tensors[t++]);
			break;
		case TA_NL_A_PLAN_BUFFER:
			err = ta_nl_parse_buffer(info->extack, attr,
						 req->default_align,
						 &req->buffers[t++]);
			break;
		case TA_NL_A_PLAN_OP:
			ta_nl_parse_op(attr, &req->ops[o++], req->refs, &r);
			break;
		}
		if (err)
			return err;
		if (!((t + o) & 1023))
			cond_resched();
	}
	return 0;
}

/*
 * TA_STRATEGY_FIXED: the offsets attribute, one u64 per tensor, comes with
 * that strategy and only with it (fixed-height too).
 */
static int ta_nl_parse_fixed(struct genl_info *info,
			     struct ta_plan_request *req)
{
	const struct nlattr *attr = info->attrs[TA_NL_A_PLAN_OFFSETS];
	bool fixed = req->strategy == TA_STRATEGY_FIXED;

	if (!fixed && (attr || info->attrs[TA_NL_A_PLAN_FIXED_HEIGHT])) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr ?:
				    info->attrs[TA_NL_A_PLAN_FIXED_HEIGHT],
				    "offsets and fixed-height need strategy fixed");
		return -EINVAL;
	}
	if (!fixed)
		return 0;
	if (!attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, TA_NL_A_PLAN_OFFSETS);
		NL_SET_ERR_MSG(info->extack, "strategy fixed needs offsets");
		return -EINVAL;
	}
	if (nla_len(attr) != (u64)req->n_tensors * sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "offsets must hold one u64 per tensor");
		return -EINVAL;
	}
	req->fixed = kvcalloc(max_t(u32, req->n_tensors, 1), sizeof(u64),
			      TA_GFP_USER);
	if (!req->fixed) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	memcpy(req->fixed, nla_data(attr), nla_len(attr));
	req->fixed_height = ta_nl_get_u64(info->attrs[TA_NL_A_PLAN_FIXED_HEIGHT],
					  0);
	return 0;
}

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
			       "quota: the caller's uid or socket holds as many plans (max_user_plans, max_file_plans) or arena bytes (max_user_bytes) as it may, or its cgroup's dmem.max is reached");
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

static int ta_nl_create_reply(struct genl_info *info,
			      const struct ta_plan_summary *sum)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0,
				TA_NL_CMD_PLAN_CREATE);
	if (!hdr || ta_nl_put_summary(msg, sum)) {
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
	struct ta_plan_summary sum;
	struct ta_owner caller;
	int err;

	err = ta_nl_count(info, &req);
	if (err)
		return err;
	if (!(req.flags & TA_CREATE_LIFETIMES) && !req.n_ops) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, TA_NL_A_PLAN_OP);
		NL_SET_ERR_MSG(info->extack, "graph form needs at least one op");
		return -EINVAL;
	}
	err = ta_nl_check_shape(info, &req,
				ta_nl_get_u64(attrs[TA_NL_A_PLAN_BUDGET_NS], 0),
				ta_nl_get_u64(attrs[TA_NL_A_PLAN_BUDGET_STEPS], 0),
				READ_ONCE(ta_netlink_max_plan_ms));
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
	err = ta_nl_parse_arrays(info, &req);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(info->extack, "out of memory");
	if (!err)
		err = ta_nl_parse_fixed(info, &req);
	if (!err) {
		err = ta_plan_obj_create(ta_nl_dev, &caller, &req, &sum);
		if (err)
			ta_nl_create_error(info, err);
		if (err == -EINVAL)
			ta_nl_conflict_error(info, &sum.conflict);
	}
	ta_request_free(&req);
	ta_create_end(ta_nl_dev, caller.uid);
	if (err)
		return err;

	err = ta_nl_create_reply(info, &sum);
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
	return nla_total_size(0) + 2 * nla_total_size_64bit(sizeof(u64));
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
	};

	if (ta_nl_put_summary(msg, &sum) ||
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
				      TA_NL_A_PLACEMENT_PAD)) {
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
	msg = genlmsg_new(NLMSG_GOODSIZE +
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

static void ta_nl_export_error(struct genl_info *info, int err)
{
	const struct nlattr *id = info->attrs[TA_NL_A_PLAN_PLAN_ID];

	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG_ATTR(info->extack, id, "no such plan");
		break;
	case -EINVAL:
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "the plan has no memory to export (height 0)");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG(info->extack, "out of memory");
		break;
	default:
		NL_SET_ERR_MSG(info->extack, "the dma-buf could not be made");
		break;
	}
}

/* Whether the sender is a user process, with files to receive a descriptor. */
static bool ta_nl_sender_has_files(const struct sk_buff *skb,
				   struct genl_info *info)
{
	const struct sock *ssk = NETLINK_CB(skb).sk;

	if ((current->flags & PF_KTHREAD) || !ssk || ssk->sk_kern_sock) {
		NL_SET_ERR_MSG(info->extack,
			       "an export needs a request from a user process: the descriptor goes to the sender's file table");
		return false;
	}
	return true;
}

/**
 * struct ta_nl_fd_reply - the reply that carries an exported descriptor
 * @cmd: the command replied to
 * @put: puts the reply's attributes, @fd among them, into @msg
 * @ctx: what @put reads
 */
struct ta_nl_fd_reply {
	u8 cmd;
	int (*put)(struct sk_buff *msg, const void *ctx, u32 fd);
	const void *ctx;
};

/*
 * Give @dmabuf (the caller's reference) a descriptor in the sender's file
 * table and reply with its number. A generic netlink do runs in the task
 * that sent the request (netlink_unicast() to a kernel socket calls the
 * family's input synchronously), so current's file table is the sender's.
 *
 * Nothing may fail once the descriptor is visible: its number is reserved
 * first, the reply carrying it is built and queued, and only then is the
 * file installed (as ioctls do it after copy_to_user()). A failure before
 * that frees the number and the buffer, so no descriptor leaks. A thread
 * of the sender that reads the reply before fd_install() would find the
 * number not yet open (EBADF), the same window an ioctl's copy_to_user()
 * leaves.
 */
static int ta_nl_install_dmabuf(struct genl_info *info, struct dma_buf *dmabuf,
				u32 flags, const struct ta_nl_fd_reply *reply)
{
	struct sk_buff *msg;
	int fd, err;
	void *hdr;

	fd = get_unused_fd_flags(flags & TA_EXPORT_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0) {
		err = fd;
		NL_SET_ERR_MSG(info->extack,
			       "no free file descriptor in the sending process");
		goto put_buf;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		NL_SET_ERR_MSG(info->extack, "out of memory");
		goto put_fd;
	}
	hdr = genlmsg_put_reply(msg, info, &ta_nl_family, 0, reply->cmd);
	if (!hdr || reply->put(msg, reply->ctx, fd)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		NL_SET_ERR_MSG(info->extack, "the reply could not be built");
		goto put_fd;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
	if (err) {
		NL_SET_ERR_MSG(info->extack, "the reply could not be sent");
		goto put_fd;
	}
	/* The descriptor takes the buffer's reference. */
	fd_install(fd, dmabuf->file);
	return 0;

put_fd:
	put_unused_fd(fd);
put_buf:
	dma_buf_put(dmabuf);
	return err;
}

static int ta_nl_put_plan_export(struct sk_buff *msg, const void *ctx, u32 fd)
{
	const u32 *id = ctx;

	return nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, *id) ?:
	       nla_put_u32(msg, TA_NL_A_PLAN_FD, fd);
}

/*
 * plan-export: the plan's slice as a dma-buf, its descriptor installed in
 * the sender's file table (ta_nl_install_dmabuf()); a request from a
 * kernel socket or a kernel thread has no process to receive one.
 */
int tensorarena_nl_plan_export_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	struct ta_owner caller = ta_nl_caller(skb);
	struct ta_nl_fd_reply reply = {
		.cmd = TA_NL_CMD_PLAN_EXPORT,
		.put = ta_nl_put_plan_export,
	};
	struct dma_buf *dmabuf;
	u32 id, flags;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_PLAN_PLAN_ID)) {
		NL_SET_ERR_MSG(info->extack, "plan-id attribute missing");
		return -EINVAL;
	}
	if (!ta_nl_sender_has_files(skb, info))
		return -EOPNOTSUPP;
	id = nla_get_u32(info->attrs[TA_NL_A_PLAN_PLAN_ID]);
	flags = ta_nl_get_u32(info->attrs[TA_NL_A_PLAN_EXPORT_FLAGS], 0);

	dmabuf = ta_dmabuf_create_by_id(ta_nl_dev, &caller, id);
	if (IS_ERR(dmabuf)) {
		err = PTR_ERR(dmabuf);
		ta_nl_export_error(info, err);
		return err;
	}
	reply.ctx = &id;
	return ta_nl_install_dmabuf(info, dmabuf, flags, &reply);
}

/* What a tensor-export reply says. */
struct ta_nl_tensor_export {
	u32 plan_id;
	u32 tensor;
	u64 offset;
	u64 size;
};

static int ta_nl_put_tensor_export(struct sk_buff *msg, const void *ctx,
				   u32 fd)
{
	const struct ta_nl_tensor_export *x = ctx;

	return nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_PLAN_ID, x->plan_id) ?:
	       nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_TENSOR, x->tensor) ?:
	       nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_FD, fd) ?:
	       nla_put_u64_64bit(msg, TA_NL_A_TENSOR_EXPORT_SIZE, x->size,
				 TA_NL_A_TENSOR_EXPORT_PAD) ?:
	       nla_put_u64_64bit(msg, TA_NL_A_TENSOR_EXPORT_OFFSET, x->offset,
				 TA_NL_A_TENSOR_EXPORT_PAD);
}

/*
 * tensor-export: one exportable tensor's pages as a dma-buf of their own
 * (as TA_IOCTL_TENSOR_EXPORT), the descriptor installed as by plan-export.
 */
int tensorarena_nl_tensor_export_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	struct ta_owner caller = ta_nl_caller(skb);
	const struct nlattr *id_attr, *tensor_attr;
	struct ta_nl_tensor_export x;
	struct ta_nl_fd_reply reply = {
		.cmd = TA_NL_CMD_TENSOR_EXPORT,
		.put = ta_nl_put_tensor_export,
		.ctx = &x,
	};
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;
	u32 flags;

	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_TENSOR_EXPORT_PLAN_ID)) {
		NL_SET_ERR_MSG(info->extack, "plan-id attribute missing");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, TA_NL_A_TENSOR_EXPORT_TENSOR)) {
		NL_SET_ERR_MSG(info->extack, "tensor attribute missing");
		return -EINVAL;
	}
	if (!ta_nl_sender_has_files(skb, info))
		return -EOPNOTSUPP;
	id_attr = info->attrs[TA_NL_A_TENSOR_EXPORT_PLAN_ID];
	tensor_attr = info->attrs[TA_NL_A_TENSOR_EXPORT_TENSOR];
	x.plan_id = nla_get_u32(id_attr);
	x.tensor = nla_get_u32(tensor_attr);
	flags = ta_nl_get_u32(info->attrs[TA_NL_A_TENSOR_EXPORT_FLAGS], 0);

	plan = ta_plan_obj_lookup(ta_nl_dev, x.plan_id, &caller);
	if (IS_ERR(plan)) {
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr, "no such plan");
		return PTR_ERR(plan);
	}
	if (x.tensor >= plan->n_tensors) {
		NL_SET_ERR_MSG_ATTR(info->extack, tensor_attr,
				    "no such tensor in the plan");
		ta_plan_obj_put(plan);
		return -EINVAL;
	}
	if (!ta_plan_obj_tensor_exportable(plan, x.tensor)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tensor_attr,
				    "the tensor is not exportable (plan it with the exportable flag)");
		ta_plan_obj_put(plan);
		return -EINVAL;
	}
	dmabuf = ta_dmabuf_create_tensor(plan, x.tensor);
	if (IS_ERR(dmabuf)) {
		if (PTR_ERR(dmabuf) == -ENOMEM)
			NL_SET_ERR_MSG(info->extack, "out of memory");
		else if (PTR_ERR(dmabuf) == -EINVAL)
			NL_SET_ERR_MSG_ATTR(info->extack, tensor_attr,
					    "the tensor has no memory to export (size 0)");
		else
			NL_SET_ERR_MSG(info->extack,
				       "the dma-buf could not be made");
		ta_plan_obj_put(plan);
		return PTR_ERR(dmabuf);
	}
	x.offset = plan->placements[x.tensor].offset;
	x.size = plan->placements[x.tensor].size;
	ta_plan_obj_put(plan);
	return ta_nl_install_dmabuf(info, dmabuf, flags, &reply);
}

/*
 * The family and its group are kept here, not generated. ynl-gen-c.py (of
 * 7.2, tools/net/ynl/pyynl/ynl_gen_c.py) emits a struct genl_family only
 * for a spec of protocol genetlink (kernel_can_gen_family_struct()), and
 * that one could not be this family:
 *  - the plain genetlink schema has no kernel-policy, so its ops are split
 *    ops (struct genl_split_ops, genl_family.split_ops), which 6.1 does not
 *    have (6.2 added them); nor c-family-name, c-version-name or a group's
 *    c-define-name, which give the uAPI its TA_NL_* names;
 *  - the generated family has .netnsok = true, where this one exists in
 *    the initial network namespace only (ta_nl_check_access());
 *  - it has no pre_doit (ynl-gen-c.py renders pre/post only per split op),
 *    where this family checks access before every command;
 *  - its group table has no flags, where the events group announces every
 *    user's plans, so joining it needs CAP_SYS_ADMIN.
 * (A generated family could have sock_priv, which 6.1 lacks and 6.12 has;
 * the owner records do not need it: ta_nl_owner.c.) So the spec is
 * genetlink-legacy with per-op policies, as mptcp_pm.yaml is for a family
 * kept by hand. The group's index, its name and the ops table with the
 * policies are the generated ones; ta_nl_gen.c's own group table, which
 * ynl-gen-c.py renders for every protocol, stays unused (module/Makefile).
 */
static const struct genl_multicast_group ta_nl_mcgrps[] = {
	[TENSORARENA_NLGRP_EVENTS] = {
		.name = TA_NL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_SYS_ADMIN,
	},
};

/*
 * The ops table and the attribute policies are generated from the spec
 * (ta_nl_gen.c); the handlers are the tensorarena_nl_*_doit/_dumpit
 * functions of this file. parallel_ops: planning may take the whole budget
 * and must not hold genl_mutex. netnsok false and pre_doit: the policy of
 * ta_nl_check_access(). Why it is not generated: above.
 */
static struct genl_family ta_nl_family __ro_after_init = {
	.name = TA_NL_FAMILY_NAME,
	.version = TA_NL_FAMILY_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.pre_doit = ta_nl_pre_doit,
	.module = THIS_MODULE,
	.ops = tensorarena_nl_ops,
	.n_ops = ARRAY_SIZE(tensorarena_nl_ops),
	.mcgrps = ta_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ta_nl_mcgrps),
};

/* A message for the events group, or NULL when nobody listens. */
static struct sk_buff *ta_nl_event_new(u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	if (!READ_ONCE(ta_nl_registered) ||
	    !genl_has_listeners(&ta_nl_family, &init_net,
				TENSORARENA_NLGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &ta_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void ta_nl_event_send(struct sk_buff *msg, void *hdr, int err)
{
	if (err) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&ta_nl_family, msg, 0, TENSORARENA_NLGRP_EVENTS,
			  GFP_KERNEL);
}

static void ta_nl_plan_event(const struct ta_plan_obj *plan, u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = ta_nl_event_new(cmd, &hdr);
	if (!msg)
		return;
	err = nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, plan->id) ||
	      nla_put_u32(msg, TA_NL_A_PLAN_UID,
			  from_kuid_munged(&init_user_ns, plan->uid));
	if (!err && cmd == TA_NL_CMD_PLAN_CREATED_NTF)
		err = nla_put_u32(msg, TA_NL_A_PLAN_N_TENSORS, plan->n_tensors) ||
		      nla_put_u32(msg, TA_NL_A_PLAN_STRATEGY, plan->strategy) ||
		      nla_put_u64_64bit(msg, TA_NL_A_PLAN_HEIGHT, plan->height,
					TA_NL_A_PLAN_PAD);
	ta_nl_event_send(msg, hdr, err);
}

static void ta_nl_pressure_event(struct ta_device *ta, u64 requested)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!requested && ta_arena_in_use(ta) <= ta->size / 8 * 7)
		return;
	msg = ta_nl_event_new(TA_NL_CMD_PRESSURE_NTF, &hdr);
	if (!msg)
		return;
	err = ta_nl_put_info(msg, ta, false);
	if (!err && requested)
		err = nla_put_u64_64bit(msg, TA_NL_A_INFO_REQUESTED, requested,
					TA_NL_A_INFO_PAD);
	ta_nl_event_send(msg, hdr, err);
}

/*
 * The core's events (&ta_device.events), as multicast notifications: a
 * created plan (then pressure too, when the arena's use is above 7/8), a
 * destroyed one, a create that found no room. Process context.
 */
static int ta_nl_core_event(struct notifier_block *nb, unsigned long type,
			    void *data)
{
	const struct ta_event *event = data;

	switch (type) {
	case TA_EVENT_PLAN_CREATED:
		ta_nl_plan_event(event->plan, TA_NL_CMD_PLAN_CREATED_NTF);
		ta_nl_pressure_event(event->ta, 0);
		break;
	case TA_EVENT_PLAN_DESTROYED:
		ta_nl_plan_event(event->plan, TA_NL_CMD_PLAN_DESTROYED_NTF);
		break;
	case TA_EVENT_PRESSURE:
		ta_nl_pressure_event(event->ta, event->requested);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block ta_nl_core_notifier = {
	.notifier_call = ta_nl_core_event,
};

/**
 * ta_netlink_init() - register the "tensorarena" generic netlink family
 * @ta: the device it serves (the default device), bound until
 *	ta_netlink_exit(); its events become notifications
 *
 * Module init registers the family once the default device is bound, and
 * module exit unregisters it before the device goes (see ta_main.c).
 *
 * Return: 0 or a negative errno.
 */
int ta_netlink_init(struct ta_device *ta)
{
	int err;

	ta_nl_dev = ta;
	err = ta_nl_owners_init(ta);
	if (err)
		return err;
	err = genl_register_family(&ta_nl_family);
	if (err)
		goto stop_owners;
	WRITE_ONCE(ta_nl_registered, true);
	err = blocking_notifier_chain_register(&ta->events,
					       &ta_nl_core_notifier);
	if (err)
		goto unregister_family;
	return 0;

unregister_family:
	WRITE_ONCE(ta_nl_registered, false);
	genl_unregister_family(&ta_nl_family);
stop_owners:
	ta_nl_owners_stop();
	return err;
}

/**
 * ta_netlink_exit() - unregister the family, destroy the sockets' plans
 * @ta: the device given to ta_netlink_init()
 *
 * Netlink sockets hold no module reference, so a socket may still own
 * plans here (at rmmod, or in the insmod unwind after a create landed):
 * ta_nl_owners_destroy() destroys them, then their owner records, as the
 * socket's own release would. By then no op is in flight and none can
 * start: the family is unregistered (genl_unregister_family() waits for
 * running ops), and so is the release notifier (ta_nl_owners_stop()).
 */
void ta_netlink_exit(struct ta_device *ta)
{
	blocking_notifier_chain_unregister(&ta->events, &ta_nl_core_notifier);
	WRITE_ONCE(ta_nl_registered, false);
	ta_nl_owners_stop();
	genl_unregister_family(&ta_nl_family);
	ta_nl_owners_destroy(ta);
}
