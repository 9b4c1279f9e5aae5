/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_skyline.h - the section skyline that the bottom-up constructions
 * (ta_climb.c, ta_tile.c) build plans on.
 *
 * Time is cut into sections at every start and end of a buffer with
 * bytes; each section has a top, the highest byte placed there so far,
 * and a min-tree over the tops finds the lowest section (the leftmost
 * among equals) in O(log sections). The buffers are listed by start
 * section, in index order within one, so that a construction that starts
 * again meets them in the same order.
 */
#ifndef TA_SKYLINE_H
#define TA_SKYLINE_H

#include "ta_planner.h"

/* The sections of a problem, its buffers by section, and the tops. */
struct ta_skyline {
	u32 n_sections;	/* between consecutive distinct moments */
	u32 m;		/* leaves of @tree: a power of two >= @n_sections */
	u32 n_items;	/* buffers with bytes */
	u32 *time;	/* per boundary (@n_sections + 1): its moment */
	u32 *bs, *be;	/* per buffer with bytes: start section, end boundary */
	u32 *first;	/* per section: its buffers' start in @by_start */
	u32 *by_start;	/* the buffers with bytes by start section */
	u64 *top;	/* per section: its top */
	u64 *tree;	/* min-tree over @top, 2 * @m; U64_MAX off the sections */
	u64 bytes;	/* what ta_skyline_init() took */
};

/**
 * ta_skyline_init() - the sections of a problem and an empty skyline
 * @sk: out, the skyline (zeroed by the caller)
 * @p: the problem (validated)
 *
 * Every section's top is 0; the leaves past the sections hold U64_MAX, so
 * ta_skyline_lowest() never returns one. Free with ta_skyline_free(),
 * also after a failure.
 *
 * Return: 0 or -ENOMEM.
 */
int ta_skyline_init(struct ta_skyline *sk, const struct ta_problem *p);

/**
 * ta_skyline_free() - free what ta_skyline_init() took
 * @sk: the skyline (not itself)
 */
void ta_skyline_free(struct ta_skyline *sk);

/**
 * ta_skyline_set() - set the top of one section
 * @sk: the skyline
 * @s: the section, below @sk->n_sections
 * @v: its new top (U64_MAX: no buffer rests on it any more)
 *
 * O(log sections); the caller counts the work.
 */
static inline void ta_skyline_set(struct ta_skyline *sk, u32 s, u64 v)
{
	u32 i = sk->m + s;

	sk->top[s] = v;
	sk->tree[i] = v;
	for (i >>= 1; i; i >>= 1) {
		u64 a = sk->tree[2 * i], b = sk->tree[2 * i + 1];

		sk->tree[i] = a < b ? a : b;
	}
}

/**
 * ta_skyline_lowest() - the lowest section, the leftmost among equals
 * @sk: the skyline, with at least one section
 *
 * Return: the section.
 */
static inline u32 ta_skyline_lowest(const struct ta_skyline *sk)
{
	u32 i = 1;

	while (i < sk->m)
		i = sk->tree[2 * i] <= sk->tree[2 * i + 1] ? 2 * i : 2 * i + 1;
	return i - sk->m;
}

#endif /* TA_SKYLINE_H */
