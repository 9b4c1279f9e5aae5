// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_export.c - the export commands of the netlink family: plan-export
 * (a plan's slice) and tensor-export (one tensor's pages) as dma-bufs, the
 * descriptor installed in the sender's file table (ta_nl_install_dmabuf()).
 */
#include <linux/dma-buf.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

static void ta_nl_export_error(struct genl_info *info, int err, bool fast)
{
	const struct nlattr *id = info->attrs[TA_NL_A_PLAN_PLAN_ID];

	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG_ATTR(info->extack, id, "no such plan");
		break;
	case -EINVAL:
		if (fast)
			NL_SET_ERR_MSG_ATTR(info->extack, id,
					    "the plan has no fast slice to export (not tiered, or nothing in the fast tier)");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, id,
					    "the plan has no memory to export (height 0)");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(info->extack,
			       "the fast tier cannot be exported (see info's fast-flags)");
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
 * plan-export: the plan's slice (with TA_EXPORT_FAST, its fast slice) as a
 * dma-buf, its descriptor installed in the sender's file table
 * (ta_nl_install_dmabuf()); a request from a kernel socket or a kernel
 * thread has no process to receive one.
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

	dmabuf = ta_dmabuf_create_by_id(ta_nl_dev, &caller, id,
					flags & TA_EXPORT_FAST);
	if (IS_ERR(dmabuf)) {
		err = PTR_ERR(dmabuf);
		ta_nl_export_error(info, err, flags & TA_EXPORT_FAST);
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
