// SPDX-License-Identifier: GPL-2.0
/*
 * ta_netlink.c - the generic netlink transport: family "tensorarena",
 * its access policy, the identity of a request, the info command, and the
 * family's registration.
 *
 * A thin layer over the core API of ta_plan_obj.c, like ta_ioctl.c: the
 * commands parse their attributes into a &struct ta_plan_request
 * (ta_nl_parse.c), call ta_request_check() and ta_plan_obj_create() /
 * _lookup() / _next() / _destroy() (ta_nl_plan.c; the exports:
 * ta_nl_export.c), and put the results into attributes. Every rejection
 * carries an extack message (the policies' own for type, range and mask
 * errors). The core's events become notifications in ta_nl_events.c.
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
#include <linux/cred.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

/* The device the family serves, from ta_netlink_init() on. */
struct ta_device *ta_nl_dev;

/**
 * ta_nl_check_access() - may the sender of @skb use the family
 * @skb: the request
 * @extack: for the message
 *
 * The family's policy, for every command (pre_doit) and dump (its start):
 * the family exists only in the initial network namespace (netnsok is
 * false: elsewhere the controller finds no family), and both the opener of
 * the sending socket and the sending task must be allowed to use
 * /dev/tensorarena (ta_access_allowed(): the node's owner root, the
 * "group" and "mode" module parameters, or CAP_SYS_ADMIN in the initial
 * user namespace). A kernel socket has no opener; its sending task still
 * counts. Both requests and dumps are checked in the sender's sendmsg(),
 * where the socket and its file are alive.
 *
 * Return: 0, or -EPERM with an extack message.
 */
int ta_nl_check_access(const struct sk_buff *skb,
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

/**
 * ta_nl_caller() - the identity of a request
 * @skb: the request
 *
 * The effective uid of whoever opened the
 * sending socket (not of the task that sends on it), admin when both hold
 * CAP_SYS_ADMIN in the initial user namespace (netlink_capable()).
 *
 * Return: the owner the request's plans get.
 */
struct ta_owner ta_nl_caller(const struct sk_buff *skb)
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

/**
 * ta_nl_put_info() - put the arena's figures into a message
 * @skb: the message
 * @ta: the device
 * @addresses: put its DMA addresses too (for an admin)
 *
 * Return: 0 or -EMSGSIZE.
 */
int ta_nl_put_info(struct sk_buff *skb, struct ta_device *ta, bool addresses)
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

/*
 * The family and its group are kept here, not generated. ynl-gen-c.py (of
 * 7.2 and 7.3, tools/net/ynl/pyynl/ynl_gen_c.py) emits a struct
 * genl_family only for a spec of protocol genetlink
 * (kernel_can_gen_family_struct()), and that one could not be this family:
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
struct genl_family ta_nl_family __ro_after_init = {
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
	err = ta_nl_events_start(ta);
	if (err)
		goto unregister_family;
	return 0;

unregister_family:
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
	ta_nl_events_stop(ta);
	ta_nl_owners_stop();
	genl_unregister_family(&ta_nl_family);
	ta_nl_owners_destroy(ta);
}
