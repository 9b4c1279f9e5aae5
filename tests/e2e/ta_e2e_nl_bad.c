// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_bad.c - ta_e2e_netlink's bad-input table: every malformed or
 * refused request of each command fails with its errno and extack, and
 * the table as a whole leaves arena use, the plan list and this process's
 * descriptors as they were.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_e2e_nl_fixture.h"

struct bad_row {
	const char *name;
	struct nl_msg *(*build)(void);
	int err;
	const char *extack;
};

static struct nl_msg *b_no_ops(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_no_size(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_ALIGN, 8);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_size_u32(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u32(m, TA_NL_A_TENSOR_SIZE, 64);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_flags_u64(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_CREATE, 0);

	nla_put_u64(m, TA_NL_A_PLAN_FLAGS, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_unknown_attr(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_MAX + 1, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_output_attr(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, 1);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_beyond_policy(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u64(m, TA_NL_A_PLAN_HEIGHT, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_not_nested(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_TENSOR, 64);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_strategy(void)
{
	struct nl_msg *m = create_msg(0, 99);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_flag(void)
{
	struct nl_msg *m = create_msg(0x80, 0);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_tensor_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0x100);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_align3(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 3, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_align_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 1ULL << 33, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_size_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 1ULL << 63, 0, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_too_many(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_chain(m, 9, 64);	/* max_tensors is set to 8 for this row */
	return m;
}

static struct nl_msg *b_ref_range(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0);
	put_op(m, -1, 5);
	return m;
}

static struct nl_msg *b_unreferenced(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_chain(m, 2, 64);
	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_order(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, TA_TENSOR_INPUT);
	put_tensor(m, 64, 0, 0);
	put_tensor(m, 64, 0, 0);
	put_op(m, 1, 2);	/* reads 1 before op 1 produces it */
	put_op(m, 0, 1);
	return m;
}

static struct nl_msg *b_twice(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, TA_TENSOR_INPUT);
	put_tensor(m, 64, 0, 0);
	put_op(m, 0, 1);
	put_op(m, 0, 1);
	return m;
}

static struct nl_msg *b_buffer_no_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_buffer(m, 64, 0, 1);
	return m;
}

static struct nl_msg *b_lifetime_tensor(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_mixed(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 64, 0, 1);
	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_start_end(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 64, 3, 3);
	return m;
}

static struct nl_msg *b_no_end(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_BUFFER);

	nla_put_u64(m, TA_NL_A_BUFFER_SIZE, 64);
	nla_put_u32(m, TA_NL_A_BUFFER_START, 0);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *b_budget(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u64(m, TA_NL_A_PLAN_BUDGET_NS, 1ULL << 62);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_nested_unknown(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_SIZE, 64);
	nla_put_u32(m, TA_NL_A_TENSOR_MAX + 1, 0);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_too_tall(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 1ULL << 40, 0, 1);
	return m;
}

static struct nl_msg *b_get_missing(void)
{
	return msg_new(TA_NL_CMD_PLAN_GET, 0);
}

static struct nl_msg *b_get_zero(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, 0, 0);
}

static struct nl_msg *b_get_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, 0, 77777);
}

static struct nl_msg *b_get_u8(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_GET, 0);

	nla_put_u8(m, TA_NL_A_PLAN_PLAN_ID, 1);
	return m;
}

static struct nl_msg *b_dump_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, 77777);
}

static struct nl_msg *b_destroy_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_DESTROY, 0, 77777);
}

static struct nl_msg *b_destroy_missing(void)
{
	return msg_new(TA_NL_CMD_PLAN_DESTROY, 0);
}

/* Plans the plan-export rows refer to, made before the table runs. */
static uint32_t export_id;	/* a plan with memory */
static uint32_t empty_id;	/* a plan of height 0: nothing to export */

static struct nl_msg *b_export_missing(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return m;
}

static struct nl_msg *b_export_none(void)
{
	return export_msg(77777, 0);
}

static struct nl_msg *b_export_zero(void)
{
	return export_msg(0, 0);
}

static struct nl_msg *b_export_flag(void)
{
	return export_msg(export_id, 0x4);
}

static struct nl_msg *b_export_fast_untiered(void)
{
	return export_msg(export_id, TA_EXPORT_FAST);
}

static struct nl_msg *b_export_flags_u64(void)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, export_id);

	nla_put_u64(m, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return m;
}

static struct nl_msg *b_export_fd_attr(void)
{
	struct nl_msg *m = export_msg(export_id, 0);

	nla_put_u32(m, TA_NL_A_PLAN_FD, 3);
	return m;
}

static struct nl_msg *b_export_create_flags(void)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, export_id);

	nla_put_u32(m, TA_NL_A_PLAN_FLAGS, 0);
	return m;
}

static struct nl_msg *b_export_empty(void)
{
	return export_msg(empty_id, 0);
}

/* tensor-export rows: a plan of ioctl_create_exportable(). */
static uint32_t xport_id;

static struct nl_msg *b_tx_no_id(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_TENSOR, 0);
	return m;
}

static struct nl_msg *b_tx_no_tensor(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_PLAN_ID, xport_id);
	return m;
}

static struct nl_msg *b_tx_none(void)
{
	return tx_msg(77777, 0, 0);
}

static struct nl_msg *b_tx_zero(void)
{
	return tx_msg(0, 0, 0);
}

static struct nl_msg *b_tx_range(void)
{
	return tx_msg(xport_id, 3, 0);
}

static struct nl_msg *b_tx_range_max(void)
{
	return tx_msg(xport_id, 0xffffffff, 0);
}

static struct nl_msg *b_tx_not_exportable(void)
{
	return tx_msg(xport_id, 1, 0);
}

static struct nl_msg *b_tx_empty(void)
{
	return tx_msg(xport_id, 2, 0);
}

static struct nl_msg *b_tx_flag(void)
{
	return tx_msg(xport_id, 0, 0x2);
}

static struct nl_msg *b_tx_fd_attr(void)
{
	struct nl_msg *m = tx_msg(xport_id, 0, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_FD, 3);
	return m;
}

static struct nl_msg *b_default_align(uint64_t align)
{
	struct nl_msg *m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);

	nla_put_u64(m, TA_NL_A_PLAN_DEFAULT_ALIGN, align);
	put_chain(m, 3, 100);
	return m;
}

static struct nl_msg *b_default_align3(void)
{
	return b_default_align(3);
}

static struct nl_msg *b_default_align_huge(void)
{
	return b_default_align(1ULL << 33);
}

/*
 * Packed arrays (family version 2): @n struct ta_tensor of @size bytes,
 * each with @flags and @pad, in one tensors-packed attribute.
 */
static void put_tensors_packed(struct nl_msg *m, uint32_t n, uint64_t size,
			       uint64_t align, uint32_t flags, uint32_t pad)
{
	struct ta_tensor t[4];
	uint32_t i;

	for (i = 0; i < n && i < 4; i++) {
		t[i] = (struct ta_tensor){ .size = size, .align = align,
					   .flags = flags, .pad = pad };
		if (i == 0 && !flags)
			t[i].flags = TA_TENSOR_INPUT;
	}
	nla_put(m, TA_NL_A_PLAN_TENSORS_PACKED, (int)(i * sizeof(t[0])), t);
}

/* A packed op reading @in, writing @out, with @flags: refs 0 and 1. */
static void put_op_packed(struct nl_msg *m, uint32_t in, uint32_t out,
			  uint32_t flags, uint32_t n_refs_given)
{
	struct ta_op op = { .first_ref = 0, .n_inputs = 1, .n_outputs = 1,
			    .flags = flags };
	uint32_t refs[2] = { in, out };

	nla_put(m, TA_NL_A_PLAN_OPS_PACKED, sizeof(op), &op);
	nla_put(m, TA_NL_A_PLAN_REFS_PACKED,
		(int)(n_refs_given * sizeof(refs[0])), refs);
}

static void put_buffer_packed(struct nl_msg *m, uint64_t size,
			      uint64_t align, uint32_t start, uint32_t end)
{
	struct ta_lifetime l = { .size = size, .align = align,
				 .start = start, .end = end };

	nla_put(m, TA_NL_A_PLAN_BUFFERS_PACKED, sizeof(l), &l);
}

static struct nl_msg *b_pk_partial(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct ta_tensor t = { .size = 64, .flags = TA_TENSOR_INPUT };

	nla_put(m, TA_NL_A_PLAN_TENSORS_PACKED, sizeof(t) - 4, &t);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_mixed_nest(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 0);
	put_op(m, 0, 1);
	return m;
}

static struct nl_msg *b_pk_lifetime_tensor(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 0);
	return m;
}

static struct nl_msg *b_pk_buffer_no_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_buffer_packed(m, 64, 0, 0, 1);
	return m;
}

static struct nl_msg *b_pk_tensors_buffers(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer_packed(m, 64, 0, 0, 1);
	put_tensors_packed(m, 1, 64, 0, 0, 0);
	return m;
}

static struct nl_msg *b_pk_pad(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 1);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_tensor_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0x100, 0);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_align3(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 3, 0, 0);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_align_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 1ULL << 33, 0, 0);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_size_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 1ULL << 63, 0, 0, 0);
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_op_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 0);
	put_op_packed(m, 0, 1, 0x80, 2);
	return m;
}

static struct nl_msg *b_pk_refs_past(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 0);
	put_op_packed(m, 0, 1, 0, 1);	/* two references, one given */
	return m;
}

static struct nl_msg *b_pk_ref_range(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 2, 64, 0, 0, 0);
	put_op_packed(m, 0, 5, 0, 2);
	return m;
}

static struct nl_msg *b_pk_malformed(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensors_packed(m, 3, 64, 0, 0, 0);	/* tensor 2: no op */
	put_op_packed(m, 0, 1, 0, 2);
	return m;
}

static struct nl_msg *b_pk_start_end(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer_packed(m, 64, 0, 3, 3);
	return m;
}

static struct nl_msg *b_pk_end_limit(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer_packed(m, 64, 0, 0, 0xffffffffU);
	return m;
}

static struct nl_msg *b_pk_buffer_align3(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer_packed(m, 64, 3, 0, 1);
	return m;
}

static struct nl_msg *b_pk_too_many(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);
	struct ta_lifetime l[9];
	uint32_t i;

	for (i = 0; i < 9; i++)	/* max_tensors is set to 8 for this row */
		l[i] = (struct ta_lifetime){ .size = 64, .start = i,
					     .end = i + 1 };
	nla_put(m, TA_NL_A_PLAN_BUFFERS_PACKED, sizeof(l), l);
	return m;
}

static struct nl_msg *b_info_attr(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_INFO, 0);

	nla_put_u32(m, 1, 0);
	return m;
}

static const struct bad_row bad_rows[] = {
	{ "create: graph form without ops -> EINVAL", b_no_ops, -EINVAL, "graph form needs at least one op" },
	{ "create: tensor without size -> EINVAL", b_no_size, -EINVAL, "size attribute missing" },
	{ "create: size as u32 (short) -> EINVAL", b_size_u32, -EINVAL, "invalid attribute length" },
	{ "create: flags as u64 (oversized) -> EINVAL", b_flags_u64, -EINVAL, "invalid attribute length" },
	{ "create: unknown attribute type -> EINVAL", b_unknown_attr, -EINVAL, "Unknown attribute type" },
	{ "create: reply-only attribute in request -> EINVAL", b_output_attr, -EINVAL, "Unsupported attribute" },
	/* height lies below default-align, the create policy's last attribute */
	{ "create: reply-only attribute (height) in request -> EINVAL", b_beyond_policy, -EINVAL, "Unsupported attribute" },
	{ "create: tensor not nested -> EINVAL", b_not_nested, -EINVAL, "NLA_F_NESTED is missing" },
	{ "create: unknown attribute in a tensor -> EINVAL", b_nested_unknown, -EINVAL, "Unknown attribute type" },
	{ "create: unknown strategy -> ERANGE", b_strategy, -ERANGE, "integer out of range" },
	{ "create: unknown create flag -> EINVAL", b_flag, -EINVAL, "reserved bit set" },
	{ "create: unknown tensor flag -> EINVAL", b_tensor_flag, -EINVAL, "reserved bit set" },
	{ "create: align 3 -> EINVAL", b_align3, -EINVAL, "align is not a power of two" },
	{ "create: align 2^33 -> E2BIG", b_align_huge, -E2BIG, "align above 2^32" },
	{ "create: size 2^63 -> E2BIG", b_size_huge, -E2BIG, "size beyond the planner's limit" },
	{ "create: tensors beyond max_tensors -> E2BIG", b_too_many, -E2BIG, "max_tensors" },
	{ "create: reference beyond the tensors -> EINVAL", b_ref_range, -EINVAL, "malformed graph" },
	{ "create: tensor no op references -> EINVAL", b_unreferenced, -EINVAL, "malformed graph" },
	{ "create: ops out of order -> EINVAL", b_order, -EINVAL, "malformed graph" },
	{ "create: tensor produced twice -> EINVAL", b_twice, -EINVAL, "malformed graph" },
	{ "create: buffer without lifetimes flag -> EINVAL", b_buffer_no_flag, -EINVAL, "need the lifetimes flag" },
	{ "create: lifetimes flag with tensors -> EINVAL", b_lifetime_tensor, -EINVAL, "lifetime form takes buffer" },
	{ "create: tensors and buffers mixed -> EINVAL", b_mixed, -EINVAL, "cannot be mixed" },
	{ "create: buffer start == end -> EINVAL", b_start_end, -EINVAL, "end must be after its start" },
	{ "create: buffer without end -> EINVAL", b_no_end, -EINVAL, "needs start and end" },
	{ "create: budget above max_budget_ms -> EINVAL", b_budget, -EINVAL, "max_budget_ms" },
	{ "create: taller than the arena -> ENOSPC", b_too_tall, -ENOSPC, "no free slice" },
	{ "create: packed array of part of an entry -> EINVAL", b_pk_partial, -EINVAL, "must hold whole entries" },
	{ "create: packed tensors with an op nest -> EINVAL", b_pk_mixed_nest, -EINVAL, "nested or packed" },
	{ "create: lifetimes flag with packed tensors -> EINVAL", b_pk_lifetime_tensor, -EINVAL, "lifetime form takes buffer" },
	{ "create: packed buffers without lifetimes flag -> EINVAL", b_pk_buffer_no_flag, -EINVAL, "need the lifetimes flag" },
	{ "create: packed buffers and tensors -> EINVAL", b_pk_tensors_buffers, -EINVAL, "cannot be mixed" },
	{ "create: packed tensor pad not zero -> EINVAL", b_pk_pad, -EINVAL, "pad is not zero" },
	{ "create: packed tensor unknown flag -> EINVAL", b_pk_tensor_flag, -EINVAL, "unknown tensor flags" },
	{ "create: packed tensor align 3 -> EINVAL", b_pk_align3, -EINVAL, "align is not a power of two" },
	{ "create: packed tensor align 2^33 -> E2BIG", b_pk_align_huge, -E2BIG, "align above 2^32" },
	{ "create: packed tensor size 2^63 -> E2BIG", b_pk_size_huge, -E2BIG, "size beyond the planner's limit" },
	{ "create: packed op unknown flag -> EINVAL", b_pk_op_flag, -EINVAL, "unknown op flags" },
	{ "create: packed op references past refs-packed -> EINVAL", b_pk_refs_past, -EINVAL, "run past refs-packed" },
	{ "create: packed reference beyond the tensors -> EINVAL", b_pk_ref_range, -EINVAL, "names no tensor" },
	{ "create: packed graph, tensor no op references -> EINVAL", b_pk_malformed, -EINVAL, "malformed graph" },
	{ "create: packed buffer start == end -> EINVAL", b_pk_start_end, -EINVAL, "end must be after start" },
	{ "create: packed buffer end past the step limit -> E2BIG", b_pk_end_limit, -E2BIG, "step limit" },
	{ "create: packed buffer align 3 -> EINVAL", b_pk_buffer_align3, -EINVAL, "align is not a power of two" },
	{ "create: packed buffers beyond max_tensors -> E2BIG", b_pk_too_many, -E2BIG, "max_tensors" },
	{ "get: no plan-id -> EINVAL", b_get_missing, -EINVAL, "plan-id attribute missing" },
	{ "get: plan-id 0 -> ERANGE", b_get_zero, -ERANGE, "integer out of range" },
	{ "get: plan-id as u8 -> EINVAL", b_get_u8, -EINVAL, "invalid attribute length" },
	{ "get: no such plan -> ENOENT", b_get_none, -ENOENT, "no such plan" },
	{ "get dump: no such plan -> ENOENT", b_dump_none, -ENOENT, "no such plan" },
	{ "destroy: no such plan -> ENOENT", b_destroy_none, -ENOENT, "no such plan" },
	{ "destroy: no plan-id -> EINVAL", b_destroy_missing, -EINVAL, "plan-id attribute missing" },
	{ "info: an attribute other than abi-version -> EINVAL", b_info_attr, -EINVAL, "Unsupported attribute" },
	{ "export: no plan-id -> EINVAL", b_export_missing, -EINVAL, "plan-id attribute missing" },
	{ "export: no such plan -> ENOENT", b_export_none, -ENOENT, "no such plan" },
	{ "export: plan-id 0 -> ERANGE", b_export_zero, -ERANGE, "integer out of range" },
	{ "export: unknown export flag -> EINVAL", b_export_flag, -EINVAL, "reserved bit set" },
	{ "export: export-flags as u64 -> EINVAL", b_export_flags_u64, -EINVAL, "invalid attribute length" },
	{ "export: reply-only fd attribute in request -> EINVAL", b_export_fd_attr, -EINVAL, "Unknown attribute type" },
	{ "export: create's flags attribute -> EINVAL", b_export_create_flags, -EINVAL, "Unsupported attribute" },
	{ "export: plan of height 0 (no memory) -> EINVAL", b_export_empty, -EINVAL, "no memory to export" },
	{ "export: fast slice of an untiered plan -> EINVAL", b_export_fast_untiered, -EINVAL, "no fast slice" },
	{ "tensor-export: no plan-id -> EINVAL", b_tx_no_id, -EINVAL, "plan-id attribute missing" },
	{ "tensor-export: no tensor -> EINVAL", b_tx_no_tensor, -EINVAL, "tensor attribute missing" },
	{ "tensor-export: no such plan -> ENOENT", b_tx_none, -ENOENT, "no such plan" },
	{ "tensor-export: plan-id 0 -> ERANGE", b_tx_zero, -ERANGE, "integer out of range" },
	{ "tensor-export: index = tensor count -> EINVAL", b_tx_range, -EINVAL, "no such tensor" },
	{ "tensor-export: index 2^32-1 -> EINVAL", b_tx_range_max, -EINVAL, "no such tensor" },
	{ "tensor-export: tensor not exportable -> EINVAL", b_tx_not_exportable, -EINVAL, "not exportable" },
	{ "tensor-export: exportable tensor of size 0 -> EINVAL", b_tx_empty, -EINVAL, "no memory to export" },
	{ "tensor-export: unknown flag -> EINVAL", b_tx_flag, -EINVAL, "reserved bit set" },
	{ "tensor-export: reply-only fd attribute in request -> EINVAL", b_tx_fd_attr, -EINVAL, "Unknown attribute type" },
	{ "create: default-align 3 -> EINVAL", b_default_align3, -EINVAL, "default-align is not a power of two" },
	{ "create: default-align 2^33 -> EINVAL", b_default_align_huge, -EINVAL, "default-align is not a power of two" },
};

TEST_F(nl, bad_input)
{
	uint64_t use0, use1, use_base;
	uint32_t plans0, plans1, list0, list1;
	struct nl_sock *sk = self->sk;
	char saved_max[32];
	int fds0, fds1;
	size_t i;

	info(sk, &use_base, &plans0);
	export_id = ioctl_create_one(self->dev, 3 * 4096);
	empty_id = ioctl_create_one(self->dev, 0);
	xport_id = ioctl_create_exportable(self->dev);
	if (!export_id || !empty_id || !xport_id) {
		printf("# ioctl create: %s\n", strerror(errno));
		CHECK(false, "nl: plans for the export rows");
	}
	info(sk, &use0, &plans0);
	list0 = list_count(sk);
	fds0 = count_fds();
	read_param("max_tensors", saved_max, sizeof(saved_max));
	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *row = &bad_rows[i];
		int err;

		bool few = row->build == b_too_many ||
			   row->build == b_pk_too_many;

		if (few)
			write_param("max_tensors", "8");
		err = xfer(sk, row->build());
		if (few)
			write_param("max_tensors", saved_max);
		if (err != row->err)
			printf("# error %d (%s), expected %d\n", err, R.extack,
			       row->err);
		else if (!strstr(R.extack, row->extack))
			printf("# extack '%s', expected '%s'\n", R.extack,
			       row->extack);
		CHECK(err == row->err && strstr(R.extack, row->extack),
		      "nl: %s", row->name);
	}
	info(sk, &use1, &plans1);
	list1 = list_count(sk);
	fds1 = count_fds();
	if (use0 != use1 || plans0 != plans1 || list0 != list1 || fds0 != fds1)
		printf("# use %llu -> %llu, plans %u -> %u, listed %u -> %u, fds %d -> %d\n",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1, list0, list1, fds0, fds1);
	CHECK(use0 == use1 && plans0 == plans1 && list0 == list1 && fds0 == fds1,
	      "nl: bad-input table leaves arena use, plan list and descriptors unchanged");
	ioctl_destroy(self->dev, export_id);
	ioctl_destroy(self->dev, empty_id);
	ioctl_destroy(self->dev, xport_id);
	info(sk, &use1, &plans1);
	if (use1 != use_base)
		printf("# use %llu -> %llu\n", (unsigned long long)use_base,
		       (unsigned long long)use1);
	CHECK(use1 == use_base,
	      "nl: failed exports hold no memory: all back after destroy");
}
