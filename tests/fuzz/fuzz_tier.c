// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_tier.c - libFuzzer target for tiered plans: ta_tier_solve() on a
 * small trace decoded from the input (buffers, pins, capacity, the two
 * strategies), with ta_tier_check() as the oracle: a solved plan passes
 * it, serves at most ta_tier_bound(), and a plan whose tiers and offsets
 * the input then rewrites is accepted by the checker only when a brute
 * force of the same rules accepts it. Under FUZZ_REPRODUCIBLE (make
 * check) the budget is in steps alone, so that no verdict depends on the
 * clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_tier.h"

#define FUZZ_N	16

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_tier: %s\n", what);
	abort();
}

/* The rules, pair by pair: pins, tiers, alignment, heights, overlaps. */
static int brute(const struct ta_buffer *b, u32 n, const u8 *pins,
		 const u8 *tier, const u64 *off, u64 cap, u64 fh, u64 sh)
{
	u32 i, j;

	if (fh > cap)
		return -1;
	for (i = 0; i < n; i++) {
		u64 h = tier[i] == TA_TIER_FAST ? fh : sh;

		if (tier[i] != TA_TIER_FAST && tier[i] != TA_TIER_SLOW)
			return -1;
		if (pins[i] && pins[i] != tier[i])
			return -1;
		if (b[i].size && (off[i] % b[i].align ||
				  off[i] + b[i].size > h))
			return -1;
		for (j = 0; j < i; j++)
			if (b[i].size && b[j].size && tier[i] == tier[j] &&
			    b[i].start < b[j].end && b[j].start < b[i].end &&
			    off[i] < off[j] + b[j].size &&
			    off[j] < off[i] + b[i].size)
				return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *d, size_t len)
{
	struct ta_buffer b[FUZZ_N];
	u8 pins[FUZZ_N], tier[FUZZ_N];
	u64 off[FUZZ_N], served, bound;
	struct ta_tier_request rq = { 0 };
	struct ta_budget bud = { .time_ns = 2000000ULL, .steps = 200 };
	struct ta_problem p = { .buffers = b };
	struct ta_tier_result res;
	struct ta_tier_conflict c;
	u32 i, n;
	int ret;

	/* make check's bounded stage: the steps alone bound the search */
	if (getenv("FUZZ_REPRODUCIBLE"))
		bud.time_ns = 3600000000000ULL;
	if (len < 4)
		return 0;
	n = d[0] % FUZZ_N + 1;
	if (len < 4 + (size_t)n * 5)
		return 0;
	rq.capacity = (u64)d[1] << 6 | (d[2] & 63);
	rq.fast_strategy = (d[3] & 7) % TA_STRATEGY_COUNT;
	rq.slow_strategy = (d[3] >> 3) % TA_STRATEGY_COUNT;
	rq.pins = pins;
	for (i = 0; i < n; i++) {
		const u8 *e = d + 4 + i * 5;

		b[i].size = (u64)e[0] << 2 | (e[1] & 3);
		b[i].align = 1ULL << (e[1] >> 2 & 7);
		b[i].start = e[2] & 15;
		b[i].end = b[i].start + 1 + (e[3] & 7);
		pins[i] = e[4] % 3;
	}
	p.n_buffers = n;
	ret = ta_tier_solve(&p, &rq, &bud, tier, off, &res);
	if (ret == -ENOSPC) {
		if (res.fail.kind == TA_TIER_FAIL_NONE || res.fail.tensor >= n ||
		    !res.fail.shortfall)
			fuzz_fail("a refusal without its reason");
		return 0;
	}
	if (ret)
		fuzz_fail("ta_tier_solve failed");
	if (ta_tier_check(&p, &rq, tier, off, res.fast.height,
			  res.slow.height, &served, &c) ||
	    served != res.weight_fast)
		fuzz_fail("the checker refused a solved plan");
	if (brute(b, n, pins, tier, off, rq.capacity, res.fast.height,
		  res.slow.height))
		fuzz_fail("the brute force refused a solved plan");
	if (ta_tier_bound(&p, &rq, &bound) || served > bound)
		fuzz_fail("served above the bound");
	/* the rest of the input rewrites the plan */
	for (i = 0; 4 + n * 5 + 2 * i + 1 < len && i < n; i++) {
		const u8 *e = d + 4 + n * 5 + 2 * i;

		tier[i] = e[0] & 1 ? TA_TIER_FAST : TA_TIER_SLOW;
		/* zero-size buffers stay at 0 (ta_plan_check()'s own rule) */
		off[i] = b[i].size ? (u64)e[1] << 2 : 0;
	}
	ret = ta_tier_check(&p, &rq, tier, off, res.fast.height,
			    res.slow.height, &served, &c);
	if (!ret != !brute(b, n, pins, tier, off, rq.capacity,
			   res.fast.height, res.slow.height))
		fuzz_fail("the checker and the brute force disagree");
	return 0;
}
