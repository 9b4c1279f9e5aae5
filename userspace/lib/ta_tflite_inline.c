// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_inline.c - the TFLite reader (ta_tflite.c): control flow. The
 * graph's ops are those of subgraph 0 with every subgraph that IF, WHILE
 * and CALL_ONCE call (recursively) inlined at the calling op, as a copy
 * of its tensors, between a begin and an end op that keep the call's
 * tensors live as TFLite runs them. ta_tfl_emit_copy() and
 * ta_tfl_emit_call() recurse into each other once per call level: the
 * depth is bounded by TA_TFL_MAX_DEPTH, and a subgraph already on the
 * call chain is refused.
 */
#include "ta_tflite_internal.h"

/* ---- inlining: the graph's ops ---- */

static int ta_tfl_too_big(struct ta_tfl *m, const char *what, u32 limit)
{
	ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
	       "control flow inlined to more than %u %s", limit, what);
	return -E2BIG;
}

/* Add a copy of subgraph @s (already read) to the graph. */
int ta_tfl_new_copy(struct ta_tfl *m, u32 s, u32 *copy)
{
	struct ta_tfl_sg *sg = &m->sg[s];
	struct ta_tfl_copy *c;
	int ret;

	if (m->n_copies >= TA_TFL_MAX_COPIES)
		return ta_tfl_too_big(m, "subgraph copies",
				      (u32)TA_TFL_MAX_COPIES);
	if (sg->n_tensors > TA_TFL_MAX_COPY_TENSORS - m->n_keys)
		return ta_tfl_too_big(m, "tensors",
				      (u32)TA_TFL_MAX_COPY_TENSORS);
	ret = ta_grow((void **)&m->copies, &m->cap_copies,
			  m->n_copies + 1, sizeof(*m->copies));
	if (!ret)
		ret = ta_grow((void **)&m->keys, &m->cap_keys,
				  m->n_keys + sg->n_tensors, sizeof(*m->keys));
	if (ret)
		return ret;
	c = &m->copies[m->n_copies];
	c->sg = s;
	c->base = m->n_keys;
	c->ordinal = ++sg->n_copies;
	m->n_keys += sg->n_tensors;
	*copy = m->n_copies++;
	if (s)
		m->info->n_inlined++;
	return 0;
}

/* Start a graph op named @name @suffix; its refs follow. */
static int ta_tfl_op_start(struct ta_tfl *m, const char *name,
			   const char *suffix)
{
	char *n;

	if (m->n_ops >= TA_PLAN_MAX_STEPS)
		return ta_tfl_too_big(m, "operators", TA_PLAN_MAX_STEPS);
	if (m->n_ops == m->cap_ops) {
		u32 cap = m->cap_ops ? 2 * m->cap_ops : 64;
		struct ta_graph_op *ops = realloc(m->ops, sizeof(*ops) * cap);
		char **names;

		if (!ops)
			return -ENOMEM;
		m->ops = ops;
		names = realloc(m->op_names, sizeof(*names) * cap);
		if (!names)
			return -ENOMEM;
		m->op_names = names;
		m->cap_ops = cap;
	}
	n = malloc(strlen(name) + strlen(suffix) + 1);
	if (!n)
		return -ENOMEM;
	sprintf(n, "%s%s", name, suffix);
	m->op_names[m->n_ops] = n;
	memset(&m->ops[m->n_ops], 0, sizeof(m->ops[0]));
	m->ops[m->n_ops].first_ref = m->refs.n;
	m->n_ops++;
	m->stamp++;
	return 0;
}

/* Add tensor @key to the op being built; @once: unless it is there. */
static int ta_tfl_push(struct ta_tfl *m, u32 key, bool once)
{
	if (once) {
		if (m->keys[key].seen == m->stamp)
			return 0;
		m->keys[key].seen = m->stamp;
	}
	return ta_tfl_ref(&m->refs, key);
}

/* The refs pushed so far are the op's inputs; outputs follow. */
static void ta_tfl_op_inputs_done(struct ta_tfl *m)
{
	struct ta_graph_op *op = &m->ops[m->n_ops - 1];

	op->n_inputs = m->refs.n - op->first_ref;
	m->stamp++;
}

static void ta_tfl_op_done(struct ta_tfl *m)
{
	struct ta_graph_op *op = &m->ops[m->n_ops - 1];
	u32 k;

	op->n_outputs = m->refs.n - op->first_ref - op->n_inputs;
	for (k = op->first_ref + op->n_inputs; k < m->refs.n; k++)
		m->keys[m->refs.v[k]].written = true;
}

/* Push @n TFLite indices @idx of the copy at @base, once each. */
static int ta_tfl_push_list(struct ta_tfl *m, u32 base, const u32 *idx,
			    u32 n, bool carried_only, bool skip_carried)
{
	u32 k;
	int ret = 0;

	for (k = 0; !ret && k < n; k++) {
		bool carried = m->keys[base + idx[k]].carried;

		if ((carried_only && !carried) || (skip_carried && carried))
			continue;
		ret = ta_tfl_push(m, base + idx[k], true);
	}
	return ret;
}

/* A subgraph's inputs and outputs, constants left out: @fn each. */
static int ta_tfl_for_io(struct ta_tfl *m, u32 s, u32 base, bool inputs,
			 bool outputs, int (*fn)(struct ta_tfl *m, u32 key))
{
	const struct ta_tfl_sg *sg = &m->sg[s];
	u32 k;
	int ret = 0;

	for (k = 0; !ret && inputs && k < sg->n_inputs; k++)
		if (!(sg->t[sg->inputs[k]].flags & TA_TENSOR_CONSTANT))
			ret = fn(m, base + sg->inputs[k]);
	for (k = 0; !ret && outputs && k < sg->n_outputs; k++)
		if (!(sg->t[sg->outputs[k]].flags & TA_TENSOR_CONSTANT))
			ret = fn(m, base + sg->outputs[k]);
	return ret;
}

static int ta_tfl_carry(struct ta_tfl *m, u32 key)
{
	m->keys[key].carried = true;
	return 0;
}

static int ta_tfl_push_once(struct ta_tfl *m, u32 key)
{
	return ta_tfl_push(m, key, true);
}

/*
 * An input no op has written yet that is neither constant, variable nor a
 * graph input: memory the op works in, as Vela's scratch tensors that its
 * ethos-u op reads (TFLite Micro plans such a tensor from the start of the
 * run, unwritten). It is recorded as written by this op, its first reader.
 */
static bool ta_tfl_op_only(const struct ta_tfl *m, u32 s, u32 base, u32 i)
{
	return !m->keys[base + i].written && !m->keys[base + i].carried &&
	       !(m->sg[s].t[i].flags & (TA_TENSOR_CONSTANT |
					TA_TENSOR_PERSISTENT |
					TA_TENSOR_INPUT));
}

/* A plain op of the copy at @base. */
static int ta_tfl_emit_op(struct ta_tfl *m, u32 s, u32 base,
			  const struct ta_tfl_op *op)
{
	const u32 *r = &m->sg[s].refs.v[op->first_ref];
	const u32 *out = r + op->n_inputs;
	bool moved = false;
	u32 k;
	int ret = ta_tfl_op_start(m, op->name, "");

	for (k = 0; !ret && k < op->n_inputs; k++) {
		if (ta_tfl_op_only(m, s, base, r[k]))
			moved = true;
		else
			ret = ta_tfl_push(m, base + r[k], false);
	}
	/* writes of loop state are reads here: the WHILE's begin wrote it */
	for (k = 0; !ret && k < op->n_outputs; k++)
		if (m->keys[base + out[k]].carried)
			ret = ta_tfl_push(m, base + out[k], false);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	for (k = 0; !ret && k < op->n_outputs; k++)
		if (!m->keys[base + out[k]].carried)
			ret = ta_tfl_push(m, base + out[k], false);
	for (k = 0; !ret && k < op->n_inputs; k++)
		if (ta_tfl_op_only(m, s, base, r[k]))
			ret = ta_tfl_push(m, base + r[k], true);
	if (ret)
		return ret;
	ta_tfl_op_done(m);
	/* a view of an input nobody wrote is no view: its input moved */
	if (op->view && op->n_outputs && !moved &&
	    !m->keys[base + out[0]].carried) {
		m->ops[m->n_ops - 1].flags |= TA_OP_INPLACE;
		m->info->n_inplace++;
	}
	return 0;
}

/* "0 > 2 > 5" */
static void ta_tfl_chain(const struct ta_tfl *m, u32 last, char *buf,
			 size_t len)
{
	size_t n = 0;
	u32 k;

	buf[0] = 0;
	for (k = 0; k < m->depth && n < len; k++)
		n += snprintf(buf + n, len - n, "%u > ", m->chain[k]);
	if (n < len)
		snprintf(buf + n, len - n, "%u", last);
}

/*
 * Op @i of subgraph @s, in the copy @copy, calls subgraphs: inline them.
 *
 *   IF, CALL_ONCE:  OP.begin    reads the op's inputs, writes its outputs
 *                   OP.B.begin  reads the op's inputs, writes B's inputs
 *                   B's ops                           (B = then, else, init)
 *                   OP.B.end    reads B's outputs
 *                   ... the next branch ...
 *                   OP.end      reads the op's inputs and outputs
 *
 *   WHILE:          OP.begin    reads the op's inputs, writes its outputs
 *                               and the loop state: cond's and body's
 *                               inputs and outputs
 *                   cond's ops, body's ops (a write of loop state is
 *                               recorded as a read: it is live already)
 *                   OP.end      reads the op's inputs, outputs, loop state
 *
 * So the op's inputs and outputs are live across the whole call, the loop
 * state across the whole loop, the subgraphs' other tensors only within
 * their own ops, and IF's branches, one after the other, may share memory.
 */
static int ta_tfl_emit_call(struct ta_tfl *m, u32 s, u32 copy, u32 i)
{
	static const char *const branch[][2] = {
		[TA_TFL_CALLS_IF] = { ".then", ".else" },
		[TA_TFL_CALLS_ONCE] = { ".init", "" },
	};
	const struct ta_tfl_op *op = &m->sg[s].ops[i];
	const u32 *r = &m->sg[s].refs.v[op->first_ref];
	u32 base = m->copies[copy].base, callee_copy[2], callee_base[2], k;
	char name[96], chain[TA_TFL_MAX_DEPTH * 14 + 16];
	int ret;

	for (k = 0; k < op->n_callees; k++) {
		u32 t = op->callee[k];

		if (m->sg[t].on_chain) {
			ta_tfl_chain(m, t, chain, sizeof(chain));
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s) calls subgraph %u, which is already being inlined (call chain %s): recursion cannot be planned",
			       s, i, op->name, t, chain);
			return -EINVAL;
		}
		if (m->depth >= TA_TFL_MAX_DEPTH) {
			ta_tfl_chain(m, t, chain, sizeof(chain));
			ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
			       "subgraph %u, op %u (%s): control flow nested more than %u subgraphs deep (call chain %s)",
			       s, i, op->name, TA_TFL_MAX_DEPTH, chain);
			return -E2BIG;
		}
		ret = ta_tfl_parse_subgraph(m, t);
		if (!ret)
			ret = ta_tfl_new_copy(m, t, &callee_copy[k]);
		if (ret)
			return ret;
		callee_base[k] = m->copies[callee_copy[k]].base;
	}
	/* the callees are read: their outputs against the op's (once) */
	ret = m->copies[copy].ordinal == 1 ?
	      ta_tfl_check_call_shapes(m, s, i) : 0;
	if (ret)
		return ret;
	if (op->call == TA_TFL_CALLS_WHILE)
		for (k = 0; k < 2; k++)
			ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				      true, ta_tfl_carry);

	/* OP.begin */
	ret = ta_tfl_op_start(m, op->name, ".begin");
	if (!ret)
		ret = ta_tfl_push_list(m, base, r, op->n_inputs, false, false);
	if (!ret)
		ret = ta_tfl_push_list(m, base, r + op->n_inputs,
				       op->n_outputs, true, false);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	ret = ta_tfl_push_list(m, base, r + op->n_inputs, op->n_outputs,
			       false, true);
	for (k = 0; !ret && op->call == TA_TFL_CALLS_WHILE && k < 2; k++)
		ret = ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				    true, ta_tfl_push_once);
	if (ret)
		return ret;
	ta_tfl_op_done(m);

	for (k = 0; k < op->n_callees; k++) {
		u32 t = op->callee[k];

		if (op->call == TA_TFL_CALLS_WHILE) {
			ret = ta_tfl_emit_copy(m, callee_copy[k]);
			if (ret)
				return ret;
			continue;
		}
		/* OP.B.begin, B's ops, OP.B.end */
		snprintf(name, sizeof(name), "%s%s", op->name,
			 branch[op->call][k]);
		ret = ta_tfl_op_start(m, name, ".begin");
		if (!ret)
			ret = ta_tfl_push_list(m, base, r, op->n_inputs, false,
					       false);
		if (ret)
			return ret;
		ta_tfl_op_inputs_done(m);
		ret = ta_tfl_for_io(m, t, callee_base[k], true, false,
				    ta_tfl_push_once);
		if (ret)
			return ret;
		ta_tfl_op_done(m);
		ret = ta_tfl_emit_copy(m, callee_copy[k]);
		if (!ret)
			ret = ta_tfl_op_start(m, name, ".end");
		if (!ret)
			ret = ta_tfl_for_io(m, t, callee_base[k], false, true,
					    ta_tfl_push_once);
		if (ret)
			return ret;
		ta_tfl_op_inputs_done(m);
		ta_tfl_op_done(m);
	}

	/* OP.end */
	ret = ta_tfl_op_start(m, op->name, ".end");
	if (!ret)
		ret = ta_tfl_push_list(m, base, r,
				       op->n_inputs + op->n_outputs, false,
				       false);
	for (k = 0; !ret && op->call == TA_TFL_CALLS_WHILE && k < 2; k++)
		ret = ta_tfl_for_io(m, op->callee[k], callee_base[k], true,
				    true, ta_tfl_push_once);
	if (ret)
		return ret;
	ta_tfl_op_inputs_done(m);
	ta_tfl_op_done(m);
	return 0;
}

/* The ops of copy @copy, calls inlined. */
int ta_tfl_emit_copy(struct ta_tfl *m, u32 copy)
{
	u32 s = m->copies[copy].sg, base = m->copies[copy].base, i;
	struct ta_tfl_sg *sg = &m->sg[s];
	int ret = 0;

	sg->on_chain = true;
	m->chain[m->depth++] = s;
	for (i = 0; !ret && i < sg->n_ops; i++) {
		const struct ta_tfl_op *op = &sg->ops[i];

		ret = op->call ? ta_tfl_emit_call(m, s, copy, i) :
			ta_tfl_emit_op(m, s, base, op);
	}
	m->depth--;
	sg->on_chain = false;
	return ret;
}
