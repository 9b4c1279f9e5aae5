// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_parse.c - a graph's netlink attributes into a &struct
 * ta_plan_request: the counts first (ta_nl_count()), checked against the
 * module's limits before anything is copied (ta_nl_check_shape()), then
 * the tensors, buffers, ops and references, nested or packed
 * (ta_nl_parse_arrays()) and
 * plan-create's fixed offsets (ta_nl_parse_fixed()). The graph's
 * attributes are a message's own (plan-create) or a nest's (a group
 * member): &struct ta_nl_graph says where. Every rejection carries an
 * extack message, naming the attribute at fault where there is one.
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

/*
 * The element size of a packed array attribute of @g, or 0 for another
 * type: the graph's tensors (struct ta_tensor), ops (struct ta_op), their
 * references (u32) or its buffers (struct ta_lifetime).
 */
static u32 ta_nl_packed_elem(const struct ta_nl_graph *g, int type)
{
	if (type == g->tensors_packed)
		return sizeof(struct ta_tensor);
	if (type == g->ops_packed)
		return sizeof(struct ta_op);
	if (type == g->refs_packed)
		return sizeof(u32);
	if (type == g->buffers_packed)
		return sizeof(struct ta_lifetime);
	return 0;
}

/**
 * ta_nl_count() - count a graph's tensors, ops and references
 * @extack: for the message
 * @g: where the graph's attributes are
 * @req: its flags set; gets the counts
 *
 * Also checks that the graph's form (@req->flags) matches its attributes,
 * that it is either nested or packed, and that each packed array holds
 * whole entries.
 *
 * Return: 0, or -EINVAL with an extack message.
 */
int ta_nl_count(struct netlink_ext_ack *extack, const struct ta_nl_graph *g,
		struct ta_plan_request *req)
{
	struct nlattr *const *tb = g->tb;
	const struct nlattr *attr, *ref, *tensors, *ops, *buffers, *nested;
	const struct nlattr *packed;
	u64 n_tensors = 0, n_ops = 0, n_refs = 0;
	int rem, rrem, type;
	u32 elem;

	nla_for_each_attr(attr, g->head, g->len, rem) {
		type = nla_type(attr);
		elem = ta_nl_packed_elem(g, type);
		if (elem && nla_len(attr) % elem) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "a packed array must hold whole entries");
			return -EINVAL;
		}
		if (type == g->tensors_packed || type == g->buffers_packed) {
			n_tensors += nla_len(attr) / elem;
		} else if (type == g->ops_packed) {
			n_ops += nla_len(attr) / elem;
		} else if (type == g->refs_packed) {
			n_refs += nla_len(attr) / elem;
		} else if (type == g->tensor || type == g->buffer) {
			n_tensors++;
		} else if (type == g->op) {
			n_ops++;
			nla_for_each_nested(ref, attr, rrem)
				n_refs += nla_type(ref) == TA_NL_A_OP_INPUT ||
					  nla_type(ref) == TA_NL_A_OP_OUTPUT;
		}
	}
	nested = tb[g->tensor] ?: tb[g->op] ?: tb[g->buffer];
	packed = tb[g->tensors_packed] ?: tb[g->ops_packed] ?:
		 tb[g->refs_packed] ?: tb[g->buffers_packed];
	if (nested && packed) {
		NL_SET_ERR_MSG_ATTR(extack, packed,
				    "a graph is nested or packed: packed arrays cannot come with tensor, op or buffer nests");
		return -EINVAL;
	}
	tensors = tb[g->tensor] ?: tb[g->tensors_packed];
	ops = tb[g->op] ?: tb[g->ops_packed] ?: tb[g->refs_packed];
	buffers = tb[g->buffer] ?: tb[g->buffers_packed];
	if (tensors && buffers) {
		NL_SET_ERR_MSG_ATTR(extack, buffers,
				    "tensor and buffer attributes cannot be mixed");
		return -EINVAL;
	}
	if (req->flags & TA_CREATE_LIFETIMES) {
		if (tensors || ops) {
			NL_SET_ERR_MSG_ATTR(extack, tensors ?: ops,
					    "lifetime form takes buffer attributes, not tensors or ops");
			return -EINVAL;
		}
	} else if (buffers) {
		NL_SET_ERR_MSG_ATTR(extack, buffers,
				    "buffer attributes need the lifetimes flag");
		return -EINVAL;
	}
	req->n_tensors = min_t(u64, n_tensors, U32_MAX);
	req->n_ops = min_t(u64, n_ops, U32_MAX);
	req->n_refs = min_t(u64, n_refs, U32_MAX);
	return 0;
}

/**
 * ta_nl_check_shape() - ta_request_check(), with an extack message
 * @extack: for the message
 * @req: as ta_request_check() takes it
 * @budget_ns: as ta_request_check() takes it
 * @budget_steps: as ta_request_check() takes it
 * @limit_ms: as ta_request_check() takes it
 * @budget_attr: the attribute that gave @budget_ns, or NULL
 * @align_attr: the attribute that gave @req->default_align, or NULL
 *
 * Return: what ta_request_check() returns.
 */
int ta_nl_check_shape(struct netlink_ext_ack *extack,
		      struct ta_plan_request *req, u64 budget_ns,
		      u64 budget_steps, unsigned int limit_ms,
		      const struct nlattr *budget_attr,
		      const struct nlattr *align_attr)
{
	int err = ta_request_check(req, budget_ns, budget_steps, limit_ms);

	if (err == -E2BIG) {
		if (req->n_tensors > READ_ONCE(ta_max_tensors))
			NL_SET_ERR_MSG(extack,
				       "more tensors than the max_tensors module parameter allows");
		else if (req->n_ops > READ_ONCE(ta_max_ops))
			NL_SET_ERR_MSG(extack,
				       "more ops than the max_ops module parameter allows");
		else
			NL_SET_ERR_MSG(extack,
				       "more op references than the max_refs module parameter allows");
	} else if (err && budget_ns > (u64)READ_ONCE(ta_max_budget_ms) *
				      NSEC_PER_MSEC) {
		NL_SET_ERR_MSG_ATTR(extack, budget_attr,
				    "budget-ns above the max_budget_ms module parameter");
	} else if (err) {
		NL_SET_ERR_MSG_ATTR(extack, align_attr,
				    "default-align is not a power of two up to 2^32");
	}
	return err;
}

/*
 * An extack message that is not a literal (a rule's reason), and the
 * attribute at fault.
 */
static void ta_nl_blame(struct netlink_ext_ack *extack,
			const struct nlattr *attr, const char *why)
{
	ta_nl_set_err_msg_str(extack, why, why);
	NL_SET_BAD_ATTR(extack, attr);
}

/*
 * The planner's size and alignment rules for @size and @align (0: the
 * default, set in @align): NULL, or why they are broken, with the errno
 * in @err.
 */
static const char *ta_nl_size_align_error(u64 size, u64 *align,
					  u64 default_align, int *err)
{
	*align = *align ?: default_align;
	*err = -EINVAL;
	if (*align & (*align - 1))
		return "align is not a power of two";
	*err = -E2BIG;
	if (*align > TA_PLAN_MAX_ALIGN)
		return "align above 2^32";
	if (size >= TA_PLAN_MAX_SIZE)
		return "size beyond the planner's limit";
	*err = 0;
	return NULL;
}

/* The size and alignment rules of the planner, with the attribute to blame. */
static int ta_nl_check_size_align(struct netlink_ext_ack *extack,
				  struct nlattr **tb, int size_type,
				  int align_type, const struct nlattr *nest,
				  u64 default_align, u64 *size, u64 *align)
{
	const char *why;
	int err;

	if (!tb[size_type]) {
		NL_SET_ERR_ATTR_MISS(extack, nest, size_type);
		NL_SET_ERR_MSG_ATTR(extack, nest, "size attribute missing");
		return -EINVAL;
	}
	*size = nla_get_u64(tb[size_type]);
	*align = ta_nl_get_u64(tb[align_type], 0);
	why = ta_nl_size_align_error(*size, align, default_align, &err);
	if (why)
		ta_nl_blame(extack, *align & (*align - 1) ||
			    *align > TA_PLAN_MAX_ALIGN ? tb[align_type] :
			    tb[size_type], why);
	return err;
}

/*
 * A tensor's or buffer's nest was validated with the op's policy before
 * the handler ran (strict: the nest policy of every command that carries
 * a graph, plan-create's and a group member's, names the tensor and
 * buffer policies), so it is parsed here without validating it again: a
 * policy pass per tensor is a large part of what a big graph costs.
 */
static int ta_nl_parse_tensor(struct netlink_ext_ack *extack,
			      const struct nlattr *nest, u64 default_align,
			      struct ta_graph_tensor *t)
{
	struct nlattr *tb[ARRAY_SIZE(tensorarena_tensor_nl_policy)];
	u64 size, align;
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest, NULL, extack);
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

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest, NULL, extack);
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

/* Where the next tensor, op and reference of a graph go. */
struct ta_nl_cursor {
	u32 tensor;
	u32 op;
	u32 ref;
};

/*
 * A packed entry at fault: "tensor 7: align is not a power of two" where
 * extack messages can be formatted (6.2), @why alone before; the packed
 * attribute is the one to blame.
 */
static int ta_nl_packed_error(struct netlink_ext_ack *extack,
			      const struct nlattr *attr, const char *kind,
			      u32 index, const char *why, int err)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "%s %u: %s", kind, index, why);
	ta_nl_set_err_msg_str(extack, why, msg);
	NL_SET_BAD_ATTR(extack, attr);
	return err;
}

static int ta_nl_packed_tensor(struct netlink_ext_ack *extack,
			       const struct nlattr *attr, const void *data,
			       u32 index, struct ta_plan_request *req)
{
	struct ta_graph_tensor *t = &req->tensors[index];
	struct ta_tensor in;
	const char *why;
	int err;

	memcpy(&in, data, sizeof(in));	/* 4-byte aligned in the message */
	if (in.pad)
		return ta_nl_packed_error(extack, attr, "tensor", index,
					  "pad is not zero", -EINVAL);
	if (in.flags & ~TA_TENSOR_FLAGS_ALL)
		return ta_nl_packed_error(extack, attr, "tensor", index,
					  "unknown tensor flags", -EINVAL);
	why = ta_nl_size_align_error(in.size, &in.align, req->default_align,
				     &err);
	if (why)
		return ta_nl_packed_error(extack, attr, "tensor", index, why,
					  err);
	t->size = in.size;
	t->align = in.align;
	t->flags = in.flags;
	return 0;
}

static int ta_nl_packed_buffer(struct netlink_ext_ack *extack,
			       const struct nlattr *attr, const void *data,
			       u32 index, struct ta_plan_request *req)
{
	struct ta_buffer *b = &req->buffers[index];
	struct ta_lifetime in;
	const char *why;
	int err;

	memcpy(&in, data, sizeof(in));
	why = ta_nl_size_align_error(in.size, &in.align, req->default_align,
				     &err);
	if (why)
		return ta_nl_packed_error(extack, attr, "buffer", index, why,
					  err);
	if (in.start >= in.end)
		return ta_nl_packed_error(extack, attr, "buffer", index,
					  "end must be after start", -EINVAL);
	if (in.end > TA_PLAN_MAX_STEPS)
		return ta_nl_packed_error(extack, attr, "buffer", index,
					  "end beyond the planner's step limit",
					  -E2BIG);
	b->size = in.size;
	b->align = in.align;
	b->start = in.start;
	b->end = in.end;
	return 0;
}

static int ta_nl_packed_op(struct netlink_ext_ack *extack,
			   const struct nlattr *attr, const void *data,
			   u32 index, struct ta_plan_request *req)
{
	struct ta_graph_op *op = &req->ops[index];
	struct ta_op in;

	memcpy(&in, data, sizeof(in));
	if (in.flags & ~TA_OP_FLAGS_ALL)
		return ta_nl_packed_error(extack, attr, "op", index,
					  "unknown op flags", -EINVAL);
	if ((u64)in.first_ref + in.n_inputs + in.n_outputs > req->n_refs)
		return ta_nl_packed_error(extack, attr, "op", index,
					  "its references run past refs-packed",
					  -EINVAL);
	op->first_ref = in.first_ref;
	op->n_inputs = in.n_inputs;
	op->n_outputs = in.n_outputs;
	op->flags = in.flags;
	return 0;
}

/*
 * A packed reference array into @req->refs at @at: copied whole, then
 * each checked to name a tensor (the rest of an op's graph rules are the
 * planner's, ta_graph.c, as for the ioctl).
 */
static int ta_nl_packed_refs(struct netlink_ext_ack *extack,
			     const struct nlattr *attr,
			     struct ta_plan_request *req,
			     struct ta_nl_cursor *at)
{
	u32 n = nla_len(attr) / sizeof(u32), k;
	u32 *refs = &req->refs[at->ref];

	memcpy(refs, nla_data(attr), n * sizeof(u32));
	for (k = 0; k < n; k++)
		if (refs[k] >= req->n_tensors)
			return ta_nl_packed_error(extack, attr, "reference",
						  at->ref + k,
						  "names no tensor", -EINVAL);
	at->ref += n;
	return 0;
}

/*
 * One packed array attribute of @g, its entries checked and copied at
 * @at: the one walker of the four kinds (ta_nl_packed_elem()), each kind
 * in a loop of its own (a reference array in one copy).
 */
static int ta_nl_parse_packed(struct netlink_ext_ack *extack,
			      const struct ta_nl_graph *g,
			      const struct nlattr *attr,
			      struct ta_plan_request *req,
			      struct ta_nl_cursor *at)
{
	int type = nla_type(attr);
	u32 elem = ta_nl_packed_elem(g, type);
	u32 n = nla_len(attr) / elem, k;
	const u8 *data = nla_data(attr);
	int err = 0;

	if (type == g->refs_packed) {
		err = ta_nl_packed_refs(extack, attr, req, at);
	} else if (type == g->tensors_packed) {
		for (k = 0; k < n && !err; k++, data += elem)
			err = ta_nl_packed_tensor(extack, attr, data,
						  at->tensor++, req);
	} else if (type == g->buffers_packed) {
		for (k = 0; k < n && !err; k++, data += elem)
			err = ta_nl_packed_buffer(extack, attr, data,
						  at->tensor++, req);
	} else {
		for (k = 0; k < n && !err; k++, data += elem)
			err = ta_nl_packed_op(extack, attr, data, at->op++,
					      req);
	}
	cond_resched();
	return err;
}

/**
 * ta_nl_parse_arrays() - copy a graph's tensors, ops and references
 * @extack: for the message
 * @g: where the graph's attributes are
 * @req: counted by ta_nl_count() and checked; gets the arrays (freed by
 *	 ta_request_free(), also on failure)
 *
 * Return: 0; -ENOMEM; -EINVAL or -E2BIG for a tensor or buffer at fault,
 * with an extack message.
 */
int ta_nl_parse_arrays(struct netlink_ext_ack *extack,
		       const struct ta_nl_graph *g,
		       struct ta_plan_request *req)
{
	bool lifetimes = req->flags & TA_CREATE_LIFETIMES;
	u32 n = max_t(u32, req->n_tensors, 1);
	struct ta_nl_cursor at = {};
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
	nla_for_each_attr(attr, g->head, g->len, rem) {
		if (nla_type(attr) == g->tensor)
			err = ta_nl_parse_tensor(extack, attr,
						 req->default_align,
						 &req->tensors[at.tensor++]);
		else if (nla_type(attr) == g->buffer)
			err = ta_nl_parse_buffer(extack, attr,
						 req->default_align,
						 &req->buffers[at.tensor++]);
		else if (nla_type(attr) == g->op)
			ta_nl_parse_op(attr, &req->ops[at.op++], req->refs,
				       &at.ref);
		else if (ta_nl_packed_elem(g, nla_type(attr)))
			err = ta_nl_parse_packed(extack, g, attr, req, &at);
		if (err)
			return err;
		if (!((at.tensor + at.op) & 1023))
			cond_resched();
	}
	return 0;
}

/**
 * ta_nl_parse_fixed() - plan-create's offsets, for %TA_STRATEGY_FIXED
 * @info: the request
 * @req: its strategy and counts set; gets @req->fixed and @req->fixed_height
 *
 * The offsets attribute, one u64 per tensor, comes with that strategy and
 * only with it (fixed-height too).
 *
 * Return: 0; -EINVAL or -ENOMEM, with an extack message.
 */
int ta_nl_parse_fixed(struct genl_info *info, struct ta_plan_request *req)
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

/*
 * A binary attribute of one @elem-byte value per tensor, copied into a new
 * array: ERR_PTR(-EINVAL) (the caller says why) when its length is not
 * that, ERR_PTR(-ENOMEM) (said here).
 */
static void *ta_nl_tier_array(struct genl_info *info,
			      const struct nlattr *attr, u32 n, size_t elem)
{
	void *out;

	if (nla_len(attr) != (u64)n * elem)
		return ERR_PTR(-EINVAL);
	out = kvcalloc(max_t(u32, n, 1), elem, TA_GFP_USER);
	if (!out) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return ERR_PTR(-ENOMEM);
	}
	memcpy(out, nla_data(attr), nla_len(attr));
	return out;
}

/**
 * ta_nl_parse_tiers() - plan-create's tier attributes, for the tiered flag
 * @info: the request
 * @req: its flags and counts set; gets the fast capacity, pins and weights
 *
 * fast-capacity is required with the tiered flag; it, tier-pins and
 * tier-weights come with that flag only. tier-pins holds one u32 per
 * tensor (each TA_TIER_ANY, _FAST or _SLOW), tier-weights one u64.
 *
 * Return: 0; -EINVAL or -ENOMEM, with an extack message.
 */
int ta_nl_parse_tiers(struct genl_info *info, struct ta_plan_request *req)
{
	const struct nlattr *cap = info->attrs[TA_NL_A_PLAN_FAST_CAPACITY];
	const struct nlattr *pins = info->attrs[TA_NL_A_PLAN_TIER_PINS];
	const struct nlattr *weights = info->attrs[TA_NL_A_PLAN_TIER_WEIGHTS];
	u32 *pin32;
	u32 i;

	if (!(req->flags & TA_CREATE_TIERED)) {
		if (cap || pins || weights) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    cap ?: pins ?: weights,
					    "fast-capacity, tier-pins and tier-weights need the tiered flag");
			return -EINVAL;
		}
		return 0;
	}
	if (!cap) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL,
				     TA_NL_A_PLAN_FAST_CAPACITY);
		NL_SET_ERR_MSG(info->extack, "the tiered flag needs fast-capacity");
		return -EINVAL;
	}
	req->fast_capacity = nla_get_u64(cap);
	if (weights) {
		req->tier_weights = ta_nl_tier_array(info, weights,
						     req->n_tensors, sizeof(u64));
		if (IS_ERR(req->tier_weights)) {
			int err = PTR_ERR(req->tier_weights);

			req->tier_weights = NULL;
			if (err == -EINVAL)
				NL_SET_ERR_MSG_ATTR(info->extack, weights,
						    "tier-weights must hold one u64 per tensor");
			return err;
		}
	}
	if (!pins)
		return 0;
	pin32 = ta_nl_tier_array(info, pins, req->n_tensors, sizeof(u32));
	if (PTR_ERR_OR_ZERO(pin32) == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, pins,
				    "tier-pins must hold one u32 per tensor");
	if (IS_ERR(pin32))
		return PTR_ERR(pin32);
	req->tier_pins = kvcalloc(max_t(u32, req->n_tensors, 1),
				  sizeof(*req->tier_pins), TA_GFP_USER);
	if (!req->tier_pins) {
		kvfree(pin32);
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < req->n_tensors; i++) {
		if (pin32[i] > TA_TIER_SLOW) {
			kvfree(pin32);
			NL_SET_ERR_MSG_ATTR(info->extack, pins,
					    "a pin is not TA_TIER_ANY, TA_TIER_FAST or TA_TIER_SLOW");
			return -EINVAL;
		}
		req->tier_pins[i] = pin32[i];
	}
	kvfree(pin32);
	return 0;
}
