/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_files.h - internal to the userspace tools: reading trace CSV and graph
 * files, writing plans as CSV and SVG. Not the public libtensorarena API.
 */
#ifndef TA_FILES_H
#define TA_FILES_H

#include <stdio.h>

#include "ta_planner.h"

/**
 * struct ta_input - a problem read from a file, in either form
 * @prob: the problem; @prob.graph is set for a graph file
 * @graph: the graph, when @prob.graph points here
 * @bufs: the buffers (@prob.buffers)
 * @ids: per buffer, its id column (trace) or its tensor name (graph)
 * @tensors: graph form: the tensors
 * @ops: graph form: the ops
 * @refs: graph form: the op references
 * @is_graph: read from a graph file
 * @has_align: trace form: the file had an alignment column
 * @has_offset: trace form: the file had an offset column
 * @in_offsets: trace form: that column's values
 */
struct ta_input {
	struct ta_problem prob;
	struct ta_graph graph;
	struct ta_buffer *bufs;
	char **ids;
	struct ta_graph_tensor *tensors;
	struct ta_graph_op *ops;
	u32 *refs;
	bool is_graph;
	bool has_align;
	bool has_offset;
	u64 *in_offsets;
};

/*
 * Every reader returns 0 or a negative errno and, on a format error, writes
 * "FILE:LINE: what" into @err (of @errlen bytes).
 */
int ta_trace_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
int ta_graph_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
/* Either form: a graph file starts with the line "tensorarena-graph 1". */
int ta_input_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
void ta_input_free(struct ta_input *in);

/* The input's rows plus an offset column (id,lower,upper,size,...,offset). */
int ta_plan_write_csv(const char *path, const struct ta_input *in,
		      const u64 *offsets);

/**
 * struct ta_svg_info - figures printed in the picture's legend
 * @title: a caption, e.g. the file name
 * @strategy: strategy name
 * @height: the plan's height
 * @lower_bound: the problem's lower bound
 * @time_ns: planning time
 */
struct ta_svg_info {
	const char *title;
	const char *strategy;
	u64 height;
	u64 lower_bound;
	u64 time_ns;
};

int ta_plan_write_svg(const char *path, const struct ta_input *in,
		      const u64 *offsets, const struct ta_svg_info *info);

/* Helpers shared by the readers. */
char *ta_slurp(const char *path, size_t *len);
int ta_parse_u64(const char *s, u64 *v);
char *ta_next_line(char **p);
void ta_err(char *err, size_t errlen, const char *path, unsigned long line,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* TA_FILES_H */
