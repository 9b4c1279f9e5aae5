/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_planner.h - the tensorarena offset planner: one API for every strategy.
 *
 * A problem is a list of buffers, each with a size, an alignment and a
 * half-open lifetime [start, end) in execution steps. A plan gives each
 * buffer an offset such that buffers whose lifetimes overlap share no byte
 * and every offset is a multiple of the buffer's alignment. The plan's
 * height is max(offset + size); the lower bound is, over the steps, the
 * least height the buffers live at one step can have given their sizes
 * and alignments (ta_problem_lower_bound()). Plain C: see ta_env.h.
 */
#ifndef TA_PLANNER_H
#define TA_PLANNER_H

#include "ta_env.h"
/*
 * Strategy numbers and tensor flags are the uAPI's (TA_STRATEGY_*,
 * TA_TENSOR_*): plain C, the same in every home.
 */
#include <linux/tensorarena.h>

/* Limits; exceeding one makes ta_plan_solve() fail with -E2BIG, never hang. */
#define TA_PLAN_MAX_BUFFERS	0x100000U
#define TA_PLAN_MAX_STEPS	0x1000000U
#define TA_PLAN_MAX_ALIGN	BIT_ULL(32)
/* Sizes, offsets and heights stay below 2^63 + headroom checks: */
#define TA_PLAN_MAX_SIZE	BIT_ULL(63)

/**
 * struct ta_buffer - one buffer of a problem (trace form)
 * @size: bytes, 0 allowed (such a buffer gets offset 0 and takes no room)
 * @align: offset alignment, a power of two from 1 to %TA_PLAN_MAX_ALIGN
 * @start: first step at which the buffer is live
 * @end: first step at which it is no longer live; @start < @end
 */
struct ta_buffer {
	u64 size;
	u64 align;
	u32 start;
	u32 end;
};

/* Graph form: tensor flags are TA_TENSOR_* of the uAPI. */
#define TA_TENSOR_FLAGS_ALL	0x1fU

/**
 * struct ta_graph_tensor - one tensor of a graph
 * @size: bytes
 * @align: power of two, 1 to %TA_PLAN_MAX_ALIGN
 * @flags: %TA_TENSOR_*
 */
struct ta_graph_tensor {
	u64 size;
	u64 align;
	u32 flags;
};

/* Op flags are TA_OP_* of the uAPI. */
#define TA_OP_FLAGS_ALL		0x1U

/**
 * struct ta_graph_op - one op, in execution order
 * @first_ref: index in &ta_graph.refs of its first input; its @n_inputs
 *	       inputs follow, then its @n_outputs outputs. The ranges are
 *	       consecutive: op 0's starts at 0, op i's where op i - 1's ends,
 *	       and the last one ends at &ta_graph.n_refs
 * @n_inputs: tensors it reads
 * @n_outputs: tensors it writes
 * @flags: %TA_OP_*; with %TA_OP_INPLACE its first output may share its
 *	   first input's memory (see ta_graph_aliases())
 */
struct ta_graph_op {
	u32 first_ref;
	u32 n_inputs;
	u32 n_outputs;
	u32 flags;
};

/**
 * struct ta_graph - a graph: ops in execution order over tensors
 * @n_tensors: entries in @tensors
 * @n_ops: entries in @ops
 * @n_refs: entries in @refs
 * @tensors: the tensors
 * @ops: the ops; op i runs at step i
 * @refs: tensor indices referenced by the ops
 */
struct ta_graph {
	u32 n_tensors;
	u32 n_ops;
	u32 n_refs;
	const struct ta_graph_tensor *tensors;
	const struct ta_graph_op *ops;
	const u32 *refs;
};

/**
 * ta_graph_lifetimes() - validate a graph and derive each tensor's lifetime
 * @g: the graph
 * @out: @g->n_tensors buffers, filled in tensor order
 *
 * A tensor lives from the op that produces it (step 0 for graph inputs) to
 * the last op that reads it, inclusive (the end for graph outputs; the whole
 * run for constants and persistent tensors); an output nobody reads lives
 * through the op that writes it. An exportable tensor
 * (%TA_TENSOR_EXPORTABLE) lives the whole run too (its pages are its own
 * dma-buf, which its holder may use at any time, so no other tensor may
 * have them), and gets its size rounded up to whole pages and its
 * alignment raised to a page (ta_env_page_size()) in @out, so the plan,
 * its lower bound, its placements and the validator count both.
 *
 * The ops' reference ranges must be consecutive and cover &ta_graph.refs
 * exactly (see &struct ta_graph_op), so validation reads every reference
 * once: O(n_tensors + n_ops + n_refs), calling ta_env_yield() every few
 * thousand units of work.
 *
 * Return: 0, or -EINVAL for a malformed graph (op reference ranges that
 * overlap, leave a gap, or do not end exactly at n_refs; a reference out of
 * range, a tensor produced twice or read before it is produced, a tensor no
 * op references, a bad alignment or flag), -E2BIG beyond the limits, -EINTR
 * when ta_env_yield() asked to stop.
 */
int ta_graph_lifetimes(const struct ta_graph *g, struct ta_buffer *out);

/**
 * ta_graph_aliases() - which tensors share memory through in-place ops
 * @g: a graph that ta_graph_lifetimes() accepted
 * @bufs: its lifetimes, as ta_graph_lifetimes() gave them
 * @root: out, @g->n_tensors entries: per tensor, the first tensor of its
 *	  alias class (itself when it shares with nobody)
 *
 * Op k with %TA_OP_INPLACE joins its first output to its first input's
 * class when that input is last read at step k, both have the same size
 * in @bufs, the input is neither a graph output, constant, persistent nor
 * exportable, and the output is neither a graph input, constant,
 * persistent nor exportable. A class's tensors are planned as one buffer,
 * so they get the same offset. O(n_tensors + n_ops).
 *
 * Return: the number of tensors that joined another's class.
 */
u32 ta_graph_aliases(const struct ta_graph *g, const struct ta_buffer *bufs,
		     u32 *root);

/**
 * ta_alias_trace_merge() - a trace's alias classes, one buffer each
 * @bufs: the trace's buffers
 * @n: how many
 * @root: per buffer, its class's root (&ta_problem.alias, checked)
 * @merged: out, one buffer per class (room for @n): from its members'
 *	    first start to their last end, their size, their largest
 *	    alignment; the classes in the order of their roots
 * @cls: out, per buffer, its class's index in @merged
 *
 * How ta_plan_solve() plans a trace with aliases, and what a caller hands a
 * planner that takes no aliases (the module's lifetime form). O(n).
 *
 * Return: the number of classes.
 */
u32 ta_alias_trace_merge(const struct ta_buffer *bufs, u32 n, const u32 *root,
			 struct ta_buffer *merged, u32 *cls);

/**
 * enum ta_strategy - planning strategies, each in its own file
 * @TA_STRATEGY_COUNT: number of strategies that plan by themselves (the
 *		       loops "every strategy" run over 0 to this, minus one);
 *		       TA_STRATEGY_FIXED is past them
 *
 * The values are the uAPI's TA_STRATEGY_AUTO (portfolio + bounded search),
 * TA_STRATEGY_PINGPONG (per-branch ping-pong of two regions),
 * TA_STRATEGY_STACK (rectangle stacking with look-ahead, exhaustive if
 * small), TA_STRATEGY_FREELIST (execution-order free list with merging) and
 * TA_STRATEGY_GREEDY_SIZE (largest first, best-fitting gap), 0 to 4.
 * TA_STRATEGY_FIXED, 5, takes the caller's offsets from &ta_problem.fixed,
 * checks them and places the unfixed ones greedily around them.
 */
enum ta_strategy {
	TA_STRATEGY_COUNT = TA_STRATEGY_GREEDY_SIZE + 1
};

/**
 * struct ta_problem - what to plan
 * @n_buffers: entries in @buffers
 * @buffers: the buffers (trace form, or ta_graph_lifetimes() of @graph)
 * @graph: the graph the buffers came from (buffer i is tensor i), or NULL
 *	   for trace form; strategies that need connections (pingpong) use it,
 *	   and its %TA_OP_INPLACE ops let pairs of buffers share memory
 * @fixed: %TA_STRATEGY_FIXED only (NULL otherwise): per buffer, its offset
 *	   or %TA_OFFSET_UNFIXED to have it placed around the others. A
 *	   fixed buffer whose bytes and lifetime lie within another fixed
 *	   one's is contained in it and may share its bytes (neither
 *	   exportable, no alias classes; see ta_plan_check())
 * @fixed_height: %TA_STRATEGY_FIXED only: the height the offsets were
 *		  planned for (every buffer must end within it; it becomes
 *		  the plan's height), or 0 for max(offset + size)
 * @alias: trace form only (NULL with @graph, where in-place ops say it),
 *	   may be NULL: per buffer, the root buffer of its alias class
 *	   (itself when it shares with nobody), as ta_graph_aliases() gives
 *	   a graph's. Members of a class are one memory: each names a root
 *	   that names itself and has its size, and their lifetimes leave no
 *	   step uncovered between the first start and the last end; they get
 *	   one offset and may be live at once. How a plan of a graph with
 *	   in-place ops reads back from its CSV.
 */
struct ta_problem {
	u32 n_buffers;
	const struct ta_buffer *buffers;
	const struct ta_graph *graph;
	const u64 *fixed;
	u64 fixed_height;
	const u32 *alias;
};

/**
 * struct ta_budget - how much effort a search may spend (0 = default)
 * @time_ns: wall-clock budget of the searches (auto's portfolio and bounded
 *	     search); when it runs out they return their best plan
 * @steps: search-step limit (reproducible, unlike time)
 * @limit_ns: hard wall-clock cap on the whole ta_plan_solve() call (validation,
 *	      lifetimes, lower bound and strategy), 0 for none. Checked
 *	      every few thousand units of work: anytime strategies (auto,
 *	      stack's exhaustive enumeration) then return the best complete
 *	      plan they have; a strategy without one fails with -ETIMEDOUT.
 */
struct ta_budget {
	u64 time_ns;
	u64 steps;
	u64 limit_ns;
};

/**
 * enum ta_conflict_kind - why a fixed plan (or ta_plan_check()) failed
 * @TA_CONFLICT_NONE: no conflict
 * @TA_CONFLICT_OVERLAP: buffers @a and @b are live at @step and share bytes
 * @TA_CONFLICT_ALIGN: buffer @a's offset is not a multiple of its alignment
 * @TA_CONFLICT_HEIGHT: buffer @a ends above the height
 */
enum ta_conflict_kind {
	TA_CONFLICT_NONE,
	TA_CONFLICT_OVERLAP,
	TA_CONFLICT_ALIGN,
	TA_CONFLICT_HEIGHT,
};

/**
 * struct ta_conflict - the first thing wrong with a plan
 * @kind: &enum ta_conflict_kind
 * @a: a buffer (tensor) index
 * @b: the other one, for %TA_CONFLICT_OVERLAP
 * @step: a step at which both are live, for %TA_CONFLICT_OVERLAP
 */
struct ta_conflict {
	u32 kind;
	u32 a;
	u32 b;
	u32 step;
};

/**
 * struct ta_result - what a plan achieved
 * @height: bytes of arena the plan needs: max(offset + size)
 * @lower_bound: no plan is lower: the bytes live at one step, plus the
 *		 alignment padding any plan of them needs (see
 *		 ta_problem_lower_bound())
 * @time_ns: planning time
 * @steps: search steps spent
 * @optimal: the plan is proven optimal (@height == @lower_bound, or an
 *	     exhaustive search finished)
 * @search_bytes: memory auto's search held at its peak: the fit engine's
 *		  and the branch and bound's state, each bounded (see
 *		  Documentation/planner.md); 0 for the other strategies
 * @n_aliased: tensors that share an in-place op's input memory
 * @conflict: %TA_STRATEGY_FIXED: when ta_plan_solve() fails with -EINVAL because
 *	      of the caller's offsets, what is wrong
 */
struct ta_result {
	u64 height;
	u64 lower_bound;
	u64 time_ns;
	u64 steps;
	u64 search_bytes;
	bool optimal;
	u32 n_aliased;
	struct ta_conflict conflict;
};

/**
 * ta_plan_solve() - plan a problem with one strategy
 * @p: the problem (validated here: sizes, alignments, lifetimes, limits)
 * @strategy: which strategy
 * @budget: effort limits, or NULL for the defaults
 * @offsets: out, @p->n_buffers offsets
 * @res: out, the figures
 *
 * Return: 0; -EINVAL for a malformed problem or unknown strategy; -E2BIG
 * beyond the limits; -EOVERFLOW when the height would not fit in 63 bits;
 * -ENOMEM; -EINTR when ta_env_yield() asked to stop (a pending signal in
 * the kernel); -ETIMEDOUT when @budget->limit_ns ran out before the
 * strategy had a complete plan.
 */
int ta_plan_solve(const struct ta_problem *p, enum ta_strategy strategy,
		  const struct ta_budget *budget, u64 *offsets,
		  struct ta_result *res);

/**
 * ta_plan_validate() - check a plan: no live overlap, alignment, height
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims
 *
 * Return: 0 when valid, -EINVAL otherwise.
 */
int ta_plan_validate(const struct ta_problem *p, const u64 *offsets,
		     u64 height);

/**
 * ta_plan_check() - ta_plan_validate() that says what is wrong
 * @p: the problem
 * @offsets: the plan
 * @height: the height the plan claims
 * @conflict: out: the first problem found, or %TA_CONFLICT_NONE
 *
 * Return: as ta_plan_validate().
 */
int ta_plan_check(const struct ta_problem *p, const u64 *offsets,
		  u64 height, struct ta_conflict *conflict);

/**
 * ta_problem_lower_bound() - a height no plan can go below
 * @p: the problem
 * @lower_bound: out
 *
 * At every step, with S the bytes live there (an alias class of in-place
 * ops counted once), the live buffer placed highest starts at or above
 * S - its size rounded up to its alignment: the least such top over the
 * live buffers; the largest over the steps. It is S at a step where a
 * byte-aligned buffer is live.
 *
 * Return: 0, -ENOMEM, -EOVERFLOW.
 */
int ta_problem_lower_bound(const struct ta_problem *p, u64 *lower_bound);

/**
 * ta_strategy_name() - a strategy's name ("auto", "pingpong", "stack",
 * "freelist", "greedy-size")
 * @strategy: the strategy
 *
 * Return: the name, or NULL when out of range.
 */
const char *ta_strategy_name(enum ta_strategy strategy);

/**
 * ta_strategy_from_name() - parse a strategy name
 * @name: NUL-terminated name
 *
 * Return: the strategy, or -EINVAL.
 */
int ta_strategy_from_name(const char *name);

#endif /* TA_PLANNER_H */
