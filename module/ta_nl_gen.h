/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tensorarena.yaml */
/* YNL-GEN kernel header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _LINUX_TENSORARENA_GEN_H
#define _LINUX_TENSORARENA_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/tensorarena_netlink.h>
#include <linux/tensorarena.h>

/* Common nested types */
extern const struct nla_policy tensorarena_buffer_nl_policy[TA_NL_A_BUFFER_END + 1];
extern const struct nla_policy tensorarena_group_link_nl_policy[TA_NL_A_LINK_TO_TENSOR + 1];
extern const struct nla_policy tensorarena_group_member_nl_policy[TA_NL_A_MEMBER_REFS_PACKED + 1];
extern const struct nla_policy tensorarena_group_shared_nl_policy[TA_NL_A_SHARED_KEY + 1];
extern const struct nla_policy tensorarena_op_nl_policy[TA_NL_A_OP_FLAGS + 1];
extern const struct nla_policy tensorarena_tensor_nl_policy[TA_NL_A_TENSOR_FLAGS + 1];

extern const struct nla_policy tensorarena_info_nl_policy[TA_NL_A_INFO_ABI_VERSION + 1];

extern const struct nla_policy tensorarena_plan_create_nl_policy[TA_NL_A_PLAN_BUFFERS_PACKED + 1];

extern const struct nla_policy tensorarena_plan_get_nl_policy[TA_NL_A_PLAN_PLAN_ID + 1];

extern const struct nla_policy tensorarena_plan_destroy_nl_policy[TA_NL_A_PLAN_PLAN_ID + 1];

extern const struct nla_policy tensorarena_plan_export_nl_policy[TA_NL_A_PLAN_EXPORT_FLAGS + 1];

extern const struct nla_policy tensorarena_tensor_export_nl_policy[TA_NL_A_TENSOR_EXPORT_FLAGS + 1];

extern const struct nla_policy tensorarena_group_create_nl_policy[TA_NL_A_GROUP_SHARED + 1];

extern const struct nla_policy tensorarena_group_add_nl_policy[TA_NL_A_GROUP_SHARED + 1];

extern const struct nla_policy tensorarena_group_get_nl_policy[TA_NL_A_GROUP_GROUP_ID + 1];

/* Ops table for tensorarena */
extern const struct genl_ops tensorarena_nl_ops[9];

int tensorarena_nl_info_doit(struct sk_buff *skb, struct genl_info *info);
int tensorarena_nl_plan_create_doit(struct sk_buff *skb,
				    struct genl_info *info);
int tensorarena_nl_plan_get_doit(struct sk_buff *skb, struct genl_info *info);
int tensorarena_nl_plan_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb);
int tensorarena_nl_plan_destroy_doit(struct sk_buff *skb,
				     struct genl_info *info);
int tensorarena_nl_plan_export_doit(struct sk_buff *skb,
				    struct genl_info *info);
int tensorarena_nl_tensor_export_doit(struct sk_buff *skb,
				      struct genl_info *info);
int tensorarena_nl_group_create_doit(struct sk_buff *skb,
				     struct genl_info *info);
int tensorarena_nl_group_add_doit(struct sk_buff *skb, struct genl_info *info);
int tensorarena_nl_group_get_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	TENSORARENA_NLGRP_EVENTS,
};

#endif /* _LINUX_TENSORARENA_GEN_H */
