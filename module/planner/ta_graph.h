/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_graph.h - graph lifetimes (ta_graph.c) inside the planner;
 * ta_graph_lifetimes() itself is in ta_planner.h.
 */
#ifndef TA_GRAPH_H
#define TA_GRAPH_H

#include "ta_planner.h"
#include "ta_work.h"

/* ta_graph_lifetimes() counting its work in @w (ta_graph.c). */
int ta_graph_lifetimes_work(const struct ta_graph *g, struct ta_buffer *out,
			    struct ta_work *w);

#endif /* TA_GRAPH_H */
