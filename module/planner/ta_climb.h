/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_climb.h - auto's improving search (ta_climb.c): skyline constructions
 * with a look-ahead, each replaying part of the best one so far.
 */
#ifndef TA_CLIMB_H
#define TA_CLIMB_H

#include "ta_planner.h"
#include "ta_work.h"

/**
 * ta_climb() - improve a plan by skyline constructions near the best one
 * @p: the problem (validated)
 * @lower_bound: its lower bound: the climb stops there
 * @lim: the work budget (its deadline and step limit end the climb; a
 *	 step is one placement or lift)
 * @offsets: in, a valid plan; out, the lowest plan found (unchanged when
 *	     none is lower)
 * @height: in, the height of @offsets; out, of the plan returned
 *
 * Return: 0 (also when out of budget), -ENOMEM, -EINTR; -E2BIG above
 * %TA_SEARCH_MAX_BUFFERS buffers (nothing changed).
 */
int ta_climb(const struct ta_problem *p, u64 lower_bound, struct ta_work *lim,
	     u64 *offsets, u64 *height);

#endif /* TA_CLIMB_H */
