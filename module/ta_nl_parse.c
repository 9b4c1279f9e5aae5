// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_parse.c - a graph's netlink attributes into a &struct
 * ta_plan_request: the counts first (ta_nl_count()), checked against the
 * module's limits before anything is copied (ta_nl_check_shape()), then
 * the tensors, buffers, ops and references (ta_nl_parse_arrays()) and
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

/**
 * ta_nl_count() - count a graph's tensors, ops and references
 * @extack: for the message
 * @g: where the graph's attributes are
 * @req: its flags set; gets the counts
 *
 * Also checks that the graph's form (@req->flags) matches its attributes.
 *
 * Return: 0, or -EINVAL with an extack message.
 */
int ta_nl_count(struct netlink_ext_ack *extack, const struct ta_nl_graph *g,
		struct ta_plan_request *req)
{
	struct nlattr *const *tb = g->tb;
	const struct nlattr *attr, *ref;
	int rem, rrem;
	u64 n_refs = 0;

	nla_for_each_attr(attr, g->head, g->len, rem) {
		if (nla_type(attr) == g->tensor ||
		    nla_type(attr) == g->buffer) {
			req->n_tensors++;
		} else if (nla_type(attr) == g->op) {
			req->n_ops++;
			nla_for_each_nested(ref, attr, rrem)
				n_refs += nla_type(ref) == TA_NL_A_OP_INPUT ||
					  nla_type(ref) == TA_NL_A_OP_OUTPUT;
		}
	}
	if (tb[g->tensor] && tb[g->buffer]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[g->buffer],
				    "tensor and buffer attributes cannot be mixed");
		return -EINVAL;
	}
	if (req->flags & TA_CREATE_LIFETIMES) {
		if (tb[g->tensor] || tb[g->op]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[g->tensor] ?: tb[g->op],
					    "lifetime form takes buffer attributes, not tensors or ops");
			return -EINVAL;
		}
	} else if (tb[g->buffer]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[g->buffer],
				    "buffer attributes need the lifetimes flag");
		return -EINVAL;
	}
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
	nla_for_each_attr(attr, g->head, g->len, rem) {
		if (nla_type(attr) == g->tensor)
			err = ta_nl_parse_tensor(extack, attr,
						 req->default_align,
						 &req->tensors[t++]);
		else if (nla_type(attr) == g->buffer)
			err = ta_nl_parse_buffer(extack, attr,
						 req->default_align,
						 &req->buffers[t++]);
		else if (nla_type(attr) == g->op)
			ta_nl_parse_op(attr, &req->ops[o++], req->refs, &r);
		if (err)
			return err;
		if (!((t + o) & 1023))
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
