/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tier_unit.h - the units a tiered plan chooses among (ta_tier_unit.c):
 * one per alias class, with its members' summed weight and agreed pin;
 * shared by the choice (ta_tier.c) and the bound (ta_tier_bound.c). The
 * checker (ta_tier_check.c) does not use them.
 */
#ifndef TA_TIER_UNIT_H
#define TA_TIER_UNIT_H

#include "ta_tier.h"
#include "ta_work.h"

/*
 * struct ta_tier_unit - one alias class: its members' size, their largest
 * alignment, their span of steps, their summed weight, their pin.
 */
struct ta_tier_unit {
	u64 size;
	u64 align;
	u64 weight;
	u32 start;
	u32 end;
	u32 first;	/* its first buffer */
	u8 pin;
};

/*
 * struct ta_tier_units - the units of a problem: @of maps each buffer to
 * its unit; @fast_weight sums the units pinned fast.
 */
struct ta_tier_units {
	u32 n;
	struct ta_tier_unit *u;
	u32 *of;
	u64 weight_total;
	u64 fast_weight;
};

/* Saturating u64 arithmetic. */
static inline u64 ta_tier_add(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

static inline u64 ta_tier_mul(u64 a, u64 b)
{
	if (a && b > U64_MAX / a)
		return U64_MAX;
	return a * b;
}

/* Sign of a * b - c * d, exactly (128-bit products from 32-bit halves). */
int ta_tier_mul_cmp(u64 a, u64 b, u64 c, u64 d);

/*
 * Validate @p and @rq and build the units (alias classes), with weights
 * and pins; a class whose pins disagree fails with -EINVAL and @fail set.
 */
int ta_tier_units_build(const struct ta_problem *p,
			const struct ta_tier_request *rq,
			struct ta_tier_units *tu, struct ta_tier_fail *fail,
			struct ta_work *w);
void ta_tier_units_free(struct ta_tier_units *tu);

/*
 * The bound of ta_tier_bound() over built units (ta_tier_bound.c): the
 * pinned units' weight plus the relaxations' least bound on the others.
 */
int ta_tier_bound_units(const struct ta_tier_units *tu, u64 cap, u64 *bound,
			struct ta_work *w);

/* Whether unit @u can be in a fast tier of @cap bytes on its own. */
static inline bool ta_tier_unit_fits(const struct ta_tier_unit *u, u64 cap)
{
	return u->size <= cap;
}

#endif /* TA_TIER_UNIT_H */
