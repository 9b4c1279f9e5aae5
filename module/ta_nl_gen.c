// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tensorarena.yaml */
/* YNL-GEN kernel source */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "ta_nl_gen.h"

#include <uapi/linux/tensorarena_netlink.h>
#include <linux/tensorarena.h>

/* Common nested types */
const struct nla_policy tensorarena_buffer_nl_policy[TA_NL_A_BUFFER_END + 1] = {
	[TA_NL_A_BUFFER_SIZE] = { .type = NLA_U64, },
	[TA_NL_A_BUFFER_ALIGN] = { .type = NLA_U64, },
	[TA_NL_A_BUFFER_START] = { .type = NLA_U32, },
	[TA_NL_A_BUFFER_END] = { .type = NLA_U32, },
};

const struct nla_policy tensorarena_group_link_nl_policy[TA_NL_A_LINK_TO_TENSOR + 1] = {
	[TA_NL_A_LINK_FROM_MEMBER] = { .type = NLA_U32, },
	[TA_NL_A_LINK_FROM_TENSOR] = { .type = NLA_U32, },
	[TA_NL_A_LINK_TO_MEMBER] = { .type = NLA_U32, },
	[TA_NL_A_LINK_TO_TENSOR] = { .type = NLA_U32, },
};

const struct nla_policy tensorarena_group_member_nl_policy[TA_NL_A_MEMBER_REFS_PACKED + 1] = {
	[TA_NL_A_MEMBER_LANE] = NLA_POLICY_MAX(NLA_U32, 7),
	[TA_NL_A_MEMBER_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
	[TA_NL_A_MEMBER_TENSOR] = NLA_POLICY_NESTED(tensorarena_tensor_nl_policy),
	[TA_NL_A_MEMBER_OP] = NLA_POLICY_NESTED(tensorarena_op_nl_policy),
	[TA_NL_A_MEMBER_BUFFER] = NLA_POLICY_NESTED(tensorarena_buffer_nl_policy),
	[TA_NL_A_MEMBER_TENSORS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_MEMBER_OPS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_MEMBER_BUFFERS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_MEMBER_REFS_PACKED] = { .type = NLA_BINARY, },
};

const struct nla_policy tensorarena_group_shared_nl_policy[TA_NL_A_SHARED_KEY + 1] = {
	[TA_NL_A_SHARED_MEMBER] = { .type = NLA_U32, },
	[TA_NL_A_SHARED_TENSOR] = { .type = NLA_U32, },
	[TA_NL_A_SHARED_KEY] = { .type = NLA_U32, },
};

const struct nla_policy tensorarena_op_nl_policy[TA_NL_A_OP_FLAGS + 1] = {
	[TA_NL_A_OP_INPUT] = { .type = NLA_U32, },
	[TA_NL_A_OP_OUTPUT] = { .type = NLA_U32, },
	[TA_NL_A_OP_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
};

const struct nla_policy tensorarena_tensor_nl_policy[TA_NL_A_TENSOR_FLAGS + 1] = {
	[TA_NL_A_TENSOR_SIZE] = { .type = NLA_U64, },
	[TA_NL_A_TENSOR_ALIGN] = { .type = NLA_U64, },
	[TA_NL_A_TENSOR_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1f),
};

/* TA_NL_CMD_INFO - do */
const struct nla_policy tensorarena_info_nl_policy[TA_NL_A_INFO_ABI_VERSION + 1] = {
	[TA_NL_A_INFO_ABI_VERSION] = { .type = NLA_U32, },
};

/* TA_NL_CMD_PLAN_CREATE - do */
const struct nla_policy tensorarena_plan_create_nl_policy[TA_NL_A_PLAN_BUFFERS_PACKED + 1] = {
	[TA_NL_A_PLAN_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[TA_NL_A_PLAN_STRATEGY] = NLA_POLICY_MAX(NLA_U32, 5),
	[TA_NL_A_PLAN_BUDGET_NS] = { .type = NLA_U64, },
	[TA_NL_A_PLAN_BUDGET_STEPS] = { .type = NLA_U64, },
	[TA_NL_A_PLAN_TENSOR] = NLA_POLICY_NESTED(tensorarena_tensor_nl_policy),
	[TA_NL_A_PLAN_OP] = NLA_POLICY_NESTED(tensorarena_op_nl_policy),
	[TA_NL_A_PLAN_BUFFER] = NLA_POLICY_NESTED(tensorarena_buffer_nl_policy),
	[TA_NL_A_PLAN_DEFAULT_ALIGN] = { .type = NLA_U64, },
	[TA_NL_A_PLAN_OFFSETS] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_FIXED_HEIGHT] = { .type = NLA_U64, },
	[TA_NL_A_PLAN_FAST_CAPACITY] = { .type = NLA_U64, },
	[TA_NL_A_PLAN_TIER_PINS] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_TIER_WEIGHTS] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_TENSORS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_OPS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_REFS_PACKED] = { .type = NLA_BINARY, },
	[TA_NL_A_PLAN_BUFFERS_PACKED] = { .type = NLA_BINARY, },
};

/* TA_NL_CMD_PLAN_GET - do */
const struct nla_policy tensorarena_plan_get_nl_policy[TA_NL_A_PLAN_PLAN_ID + 1] = {
	[TA_NL_A_PLAN_PLAN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* TA_NL_CMD_PLAN_DESTROY - do */
const struct nla_policy tensorarena_plan_destroy_nl_policy[TA_NL_A_PLAN_PLAN_ID + 1] = {
	[TA_NL_A_PLAN_PLAN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* TA_NL_CMD_PLAN_EXPORT - do */
const struct nla_policy tensorarena_plan_export_nl_policy[TA_NL_A_PLAN_EXPORT_FLAGS + 1] = {
	[TA_NL_A_PLAN_PLAN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[TA_NL_A_PLAN_EXPORT_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x3),
};

/* TA_NL_CMD_TENSOR_EXPORT - do */
const struct nla_policy tensorarena_tensor_export_nl_policy[TA_NL_A_TENSOR_EXPORT_FLAGS + 1] = {
	[TA_NL_A_TENSOR_EXPORT_PLAN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[TA_NL_A_TENSOR_EXPORT_TENSOR] = { .type = NLA_U32, },
	[TA_NL_A_TENSOR_EXPORT_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
};

/* TA_NL_CMD_GROUP_CREATE - do */
const struct nla_policy tensorarena_group_create_nl_policy[TA_NL_A_GROUP_SHARED + 1] = {
	[TA_NL_A_GROUP_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
	[TA_NL_A_GROUP_STRATEGY] = NLA_POLICY_MAX(NLA_U32, 5),
	[TA_NL_A_GROUP_BUDGET_NS] = { .type = NLA_U64, },
	[TA_NL_A_GROUP_BUDGET_STEPS] = { .type = NLA_U64, },
	[TA_NL_A_GROUP_DEFAULT_ALIGN] = { .type = NLA_U64, },
	[TA_NL_A_GROUP_CAPACITY] = { .type = NLA_U64, },
	[TA_NL_A_GROUP_MEMBER] = NLA_POLICY_NESTED(tensorarena_group_member_nl_policy),
	[TA_NL_A_GROUP_LINK] = NLA_POLICY_NESTED(tensorarena_group_link_nl_policy),
	[TA_NL_A_GROUP_SHARED] = NLA_POLICY_NESTED(tensorarena_group_shared_nl_policy),
};

/* TA_NL_CMD_GROUP_ADD - do */
const struct nla_policy tensorarena_group_add_nl_policy[TA_NL_A_GROUP_SHARED + 1] = {
	[TA_NL_A_GROUP_GROUP_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[TA_NL_A_GROUP_ADD_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
	[TA_NL_A_GROUP_STRATEGY] = NLA_POLICY_MAX(NLA_U32, 5),
	[TA_NL_A_GROUP_BUDGET_NS] = { .type = NLA_U64, },
	[TA_NL_A_GROUP_MEMBER] = NLA_POLICY_NESTED(tensorarena_group_member_nl_policy),
	[TA_NL_A_GROUP_LINK] = NLA_POLICY_NESTED(tensorarena_group_link_nl_policy),
	[TA_NL_A_GROUP_SHARED] = NLA_POLICY_NESTED(tensorarena_group_shared_nl_policy),
};

/* TA_NL_CMD_GROUP_GET - do */
const struct nla_policy tensorarena_group_get_nl_policy[TA_NL_A_GROUP_GROUP_ID + 1] = {
	[TA_NL_A_GROUP_GROUP_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* Ops table for tensorarena */
const struct genl_ops tensorarena_nl_ops[9] = {
	{
		.cmd		= TA_NL_CMD_INFO,
		.doit		= tensorarena_nl_info_doit,
		.policy		= tensorarena_info_nl_policy,
		.maxattr	= TA_NL_A_INFO_ABI_VERSION,
	},
	{
		.cmd		= TA_NL_CMD_PLAN_CREATE,
		.doit		= tensorarena_nl_plan_create_doit,
		.policy		= tensorarena_plan_create_nl_policy,
		.maxattr	= TA_NL_A_PLAN_BUFFERS_PACKED,
	},
	{
		.cmd		= TA_NL_CMD_PLAN_GET,
		.doit		= tensorarena_nl_plan_get_doit,
		.dumpit		= tensorarena_nl_plan_get_dumpit,
		.policy		= tensorarena_plan_get_nl_policy,
		.maxattr	= TA_NL_A_PLAN_PLAN_ID,
	},
	{
		.cmd		= TA_NL_CMD_PLAN_DESTROY,
		.doit		= tensorarena_nl_plan_destroy_doit,
		.policy		= tensorarena_plan_destroy_nl_policy,
		.maxattr	= TA_NL_A_PLAN_PLAN_ID,
	},
	{
		.cmd		= TA_NL_CMD_PLAN_EXPORT,
		.doit		= tensorarena_nl_plan_export_doit,
		.policy		= tensorarena_plan_export_nl_policy,
		.maxattr	= TA_NL_A_PLAN_EXPORT_FLAGS,
	},
	{
		.cmd		= TA_NL_CMD_TENSOR_EXPORT,
		.doit		= tensorarena_nl_tensor_export_doit,
		.policy		= tensorarena_tensor_export_nl_policy,
		.maxattr	= TA_NL_A_TENSOR_EXPORT_FLAGS,
	},
	{
		.cmd		= TA_NL_CMD_GROUP_CREATE,
		.doit		= tensorarena_nl_group_create_doit,
		.policy		= tensorarena_group_create_nl_policy,
		.maxattr	= TA_NL_A_GROUP_SHARED,
	},
	{
		.cmd		= TA_NL_CMD_GROUP_ADD,
		.doit		= tensorarena_nl_group_add_doit,
		.policy		= tensorarena_group_add_nl_policy,
		.maxattr	= TA_NL_A_GROUP_SHARED,
	},
	{
		.cmd		= TA_NL_CMD_GROUP_GET,
		.doit		= tensorarena_nl_group_get_doit,
		.policy		= tensorarena_group_get_nl_policy,
		.maxattr	= TA_NL_A_GROUP_GROUP_ID,
	},
};

static const struct genl_multicast_group tensorarena_nl_mcgrps[] = {
	[TENSORARENA_NLGRP_EVENTS] = { "events", },
};
