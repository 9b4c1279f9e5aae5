/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tier.h - memory tiers: which buffers of a problem live in a small fast
 * memory (an NPU's SRAM) beside the arena (DRAM), and a plan of each tier.
 *
 * A tiered plan gives every buffer a tier and an offset within it. The
 * buffers of each tier form a plan of their own (the rules of
 * ta_plan_check()), and the fast tier's height is at most its capacity.
 * The value of a tiered plan is the weight it serves from the fast tier:
 * the sum of the weights of the buffers there. ta_tier_solve() chooses the
 * fast set to make it large, ta_tier_bound() says how large it can be at
 * most, and ta_tier_check() checks a tiered plan without trusting the
 * algorithm (ta_tier.c, ta_tier_bound.c, ta_tier_check.c). Plain C: see
 * ta_env.h.
 */
#ifndef TA_TIER_H
#define TA_TIER_H

#include "ta_planner.h"

/*
 * A buffer's tier, and a pin (what the caller asks for). The uAPI may
 * define the same names with the same values; then these are its.
 */
#ifndef TA_TIER_ANY
#define TA_TIER_ANY	0	/* pin: the planner chooses */
#define TA_TIER_FAST	1	/* the fast tier (SRAM) */
#define TA_TIER_SLOW	2	/* the arena (DRAM) */
#endif

/**
 * struct ta_tier_request - what to plan across tiers
 * @capacity: bytes of the fast tier; 0 for none (every buffer with bytes
 *	      then lives in the arena, and a fast pin of one fails)
 * @weights: per buffer, the value of serving it from the fast tier, or
 *	     NULL for ta_tier_weights()
 * @pins: per buffer, %TA_TIER_ANY, %TA_TIER_FAST or %TA_TIER_SLOW, or NULL
 *	  for every buffer %TA_TIER_ANY. The buffers of one alias class (a
 *	  graph's in-place ops, a trace's &ta_problem.alias) share memory,
 *	  so they share a tier: their pins must agree
 * @fast_strategy: the strategy that plans the fast tier
 *		   (%TA_STRATEGY_FIXED is refused)
 * @slow_strategy: the strategy that plans the arena
 */
struct ta_tier_request {
	u64 capacity;
	const u64 *weights;
	const u8 *pins;
	u32 fast_strategy;
	u32 slow_strategy;
};

#ifndef TA_TIER_FAIL_NONE	/* else the uAPI's, with these values */
/**
 * enum ta_tier_fail_kind - why the pins cannot be met
 * @TA_TIER_FAIL_NONE: they can
 * @TA_TIER_FAIL_SIZE: buffer @tensor, pinned fast, is larger than the
 *		       capacity by @shortfall bytes (with its alignment)
 * @TA_TIER_FAIL_LIVE: the buffers pinned fast live at @step need
 *		       @shortfall bytes more than the capacity; @tensor is
 *		       the last of them to start
 * @TA_TIER_FAIL_PLAN: the buffers pinned fast fit at every step, but no
 *		       plan of them the planner found fits: its best is
 *		       @shortfall bytes too high, @tensor the buffer that
 *		       ends highest in it
 * @TA_TIER_FAIL_CLASS: buffer @tensor shares memory (one alias class) with
 *			a buffer pinned to the other tier
 */
enum ta_tier_fail_kind {
	TA_TIER_FAIL_NONE,
	TA_TIER_FAIL_SIZE,
	TA_TIER_FAIL_LIVE,
	TA_TIER_FAIL_PLAN,
	TA_TIER_FAIL_CLASS,
};
#endif

/**
 * struct ta_tier_fail - which pin cannot be met, and by how much
 * @kind: &enum ta_tier_fail_kind
 * @tensor: a buffer (tensor) index
 * @step: %TA_TIER_FAIL_LIVE: the step
 * @shortfall: bytes missing in the fast tier
 */
struct ta_tier_fail {
	u32 kind;
	u32 tensor;
	u32 step;
	u64 shortfall;
};

/**
 * struct ta_tier_result - what a tiered plan achieved
 * @fast: the fast tier's plan figures (height at most the capacity)
 * @slow: the arena's
 * @weight_total: the weight of every buffer (saturating at U64_MAX)
 * @weight_fast: the weight the fast tier serves
 * @weight_bound: no tiered plan serves more (ta_tier_bound())
 * @n_fast: buffers in the fast tier
 * @moves: local-search moves tried after the greedy portfolio
 * @time_ns: the whole call
 * @fail: when ta_tier_solve() fails with -ENOSPC or for contradictory pins,
 *	  which buffer and the shortfall
 */
struct ta_tier_result {
	struct ta_result fast;
	struct ta_result slow;
	u64 weight_total;
	u64 weight_fast;
	u64 weight_bound;
	u32 n_fast;
	u64 moves;
	u64 time_ns;
	struct ta_tier_fail fail;
};

/**
 * ta_tier_weights() - the default weights: the bytes the NPU moves
 * @p: a problem that ta_plan_solve() accepts
 * @weights: out, @p->n_buffers entries
 *
 * Graph form: a tensor is written once and read once per reader, so its
 * weight is its size times one plus the op inputs that name it. Trace form
 * knows no readers: twice the size. Saturates at U64_MAX.
 *
 * Return: 0, or -EINVAL for a malformed problem.
 */
int ta_tier_weights(const struct ta_problem *p, u64 *weights);

/**
 * ta_tier_solve() - choose the fast set and plan both tiers
 * @p: the problem (graph or trace form, no &ta_problem.fixed)
 * @rq: capacity, weights, pins and the two strategies
 * @budget: effort: &ta_budget.time_ns bounds the choice's local search
 *	    (and is passed to each tier's strategy), NULL for the defaults
 * @tier: out, per buffer %TA_TIER_FAST or %TA_TIER_SLOW
 * @offsets: out, per buffer, its offset within its tier
 * @res: out, the figures; res->fail on a pin that cannot be met
 *
 * Alias classes are chosen as one. Pinned buffers go where they are
 * pinned; then a portfolio of greedy orders (by weight per byte, per byte
 * and step, by weight, smallest first) places buffers one at a time at the
 * lowest offset free over their lifetime below the capacity, replans the
 * chosen set with auto to make room and fills it again; a local search
 * (drop some, refill) improves the best within the budget, stopping early
 * at the bound. Each tier is then planned with its strategy; a fast plan
 * above the capacity is repaired (auto: the search's own placement; others:
 * dropping the buffer of least weight per byte until it fits). Zero-size
 * buffers not pinned slow live in the fast tier: they take no room.
 *
 * Return: 0; -EINVAL for a malformed problem or request (and for pins that
 * contradict an alias class, with res->fail set); -ENOSPC when the buffers
 * pinned fast cannot fit, with res->fail set; -E2BIG, -EOVERFLOW, -ENOMEM,
 * -EINTR, -ETIMEDOUT as ta_plan_solve().
 */
int ta_tier_solve(const struct ta_problem *p, const struct ta_tier_request *rq,
		  const struct ta_budget *budget, u8 *tier, u64 *offsets,
		  struct ta_tier_result *res);

/**
 * ta_tier_bound() - a weight no tiered plan can serve more than
 * @p: the problem
 * @rq: capacity, weights and pins (the strategies are not read)
 * @bound: out
 *
 * Relaxes the offsets: at every step the bytes of the fast set live there
 * fit the capacity. A split of each buffer's weight over the steps it
 * lives at gives a bound per step, a fractional knapsack; their sum bounds
 * the total. Two splits are tried (evenly over its steps; all of it at its
 * most crowded step) and the least bound kept, and never more than the
 * weight of every buffer that fits alone. Integer arithmetic, rounding up.
 * O(n log n) for the second split; the first walks the live buffers of
 * each step by weight per byte until it is full, and is left out when
 * that is more than a few million units of work.
 *
 * Return: 0; -EINVAL for a malformed problem or request; -ENOMEM; -EINTR.
 */
int ta_tier_bound(const struct ta_problem *p, const struct ta_tier_request *rq,
		  u64 *bound);

/**
 * enum ta_tier_conflict_kind - what ta_tier_check() found wrong
 * @TA_TIER_OK: nothing
 * @TA_TIER_BAD_TIER: buffer @tensor has a tier that is neither fast nor slow
 * @TA_TIER_BAD_PIN: buffer @tensor is not in the tier it is pinned to
 * @TA_TIER_BAD_CLASS: buffer @tensor is not in its alias class's tier
 * @TA_TIER_BAD_HEIGHT: the fast tier's height is above the capacity
 *			(@tensor ends highest)
 * @TA_TIER_BAD_PLAN: tier @tier's plan breaks a rule of ta_plan_check(),
 *		      @plan says which, with buffer indices of the problem
 */
enum ta_tier_conflict_kind {
	TA_TIER_OK,
	TA_TIER_BAD_TIER,
	TA_TIER_BAD_PIN,
	TA_TIER_BAD_CLASS,
	TA_TIER_BAD_HEIGHT,
	TA_TIER_BAD_PLAN,
};

/**
 * struct ta_tier_conflict - the first thing wrong with a tiered plan
 * @kind: &enum ta_tier_conflict_kind
 * @tensor: a buffer index
 * @tier: the tier concerned
 * @plan: %TA_TIER_BAD_PLAN: the plan conflict
 */
struct ta_tier_conflict {
	u32 kind;
	u32 tensor;
	u32 tier;
	struct ta_conflict plan;
};

/**
 * ta_tier_check() - check a tiered plan, independently of ta_tier_solve()
 * @p: the problem
 * @rq: capacity, weights (may be NULL: the default) and pins
 * @tier: per buffer, its tier
 * @offsets: per buffer, its offset within its tier
 * @fast_height: the fast tier's claimed height
 * @slow_height: the arena's claimed height
 * @served: out (may be NULL): the weight the fast tier serves
 * @c: out: the first problem found, %TA_TIER_OK when none
 *
 * Every tier is fast or slow, every pin met, every alias class in one
 * tier, each tier's buffers a valid plan of their own (ta_plan_check() of
 * the trace of that tier's buffers, with their alias classes) within its
 * claimed height, and the fast height at most the capacity.
 *
 * Return: 0 when valid; -EINVAL otherwise (also for a malformed problem or
 * request); -ENOMEM; -EINTR.
 */
int ta_tier_check(const struct ta_problem *p, const struct ta_tier_request *rq,
		  const u8 *tier, const u64 *offsets, u64 fast_height,
		  u64 slow_height, u64 *served, struct ta_tier_conflict *c);

#endif /* TA_TIER_H */
