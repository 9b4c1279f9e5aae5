/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tile.h - the search for a perfect tiling of a packing with no slack.
 */
#ifndef TA_TILE_H
#define TA_TILE_H

#include "ta_planner.h"
#include "ta_work.h"

/**
 * ta_tile() - look for a plan at the lower bound of a packing with no slack
 * @p: the problem; its live bytes are @lower_bound at every moment
 *     (ta_contract_is_flat())
 * @lower_bound: the height of a perfect tiling
 * @lim: the budget: time, steps, and the search memory it records
 * @offsets: the plan; replaced by a tiling when one is found
 * @height: the plan's height; set to @lower_bound when a tiling is found
 *
 * Depth-first on the skyline with restarts, until a tiling is found or
 * the budget runs out.
 *
 * Return: 0 a tiling found, 1 none within the budget, -ENOMEM, -EINTR,
 * -ETIMEDOUT (the hard deadline), -E2BIG above %TA_SEARCH_MAX_BUFFERS.
 */
int ta_tile(const struct ta_problem *p, u64 lower_bound, struct ta_work *lim,
	    u64 *offsets, u64 *height);

#endif /* TA_TILE_H */
