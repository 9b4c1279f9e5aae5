/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_files.h - internal to the userspace tools: reading trace CSV and graph
 * files, writing plans as CSV and SVG. Not the public libtensorarena API.
 */
#ifndef TA_FILES_H
#define TA_FILES_H

#include <stdio.h>

#include "ta_planner.h"
#include "ta_reader.h"

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
 * @op_names: graph form, optional: per op, its name (e.g. a TFLite
 *	      operator), or NULL
 * @notes: graph form, optional: per tensor, a comment (type, shape, name)
 *	   that ta_graph_write() puts after its line, or NULL
 * @fixed_offsets: optional: per buffer, the offset a plan made elsewhere
 *		   gave it (a TFLite model's OfflineMemoryAllocation
 *		   metadata) or %TA_OFFSET_UNFIXED to have it planned, for
 *		   %TA_STRATEGY_FIXED; NULL when the file has none. Its own
 *		   allocation: ta_input_free() frees it
 * @has_fixed_offsets: @fixed_offsets is set
 * @alias: trace form: the file's alias column (a plan of in-place ops:
 *	   per row, the row of its class's root), @prob.alias;
 *	   NULL when it has none
 * @in_tiers: trace form: the file's tier column (a tiered plan): per row,
 *	      %TA_TIER_FAST or %TA_TIER_SLOW; NULL when it has none
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
	char **op_names;
	char **notes;
	u64 *fixed_offsets;
	bool has_fixed_offsets;
	u32 *alias;
	u8 *in_tiers;
};

/*
 * Every reader returns 0 or a negative errno and, on a format error, writes
 * "FILE:LINE: what" into @err (of @errlen bytes); the binary readers
 * (TFLite, ONNX) "FILE: what", with the byte offset in "what" where known.
 */
int ta_trace_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
int ta_graph_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
/*
 * Any form: a graph file starts with the line "tensorarena-graph 1", a
 * TFLite model has "TFL3" at bytes 4..7 or a name ending in ".tflite", a
 * file whose name ends in ".onnx" is an ONNX model, anything else is a
 * trace.
 */
int ta_input_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen);
/*
 * As ta_input_read(), with sizes for an ONNX model's symbolic dimensions
 * (struct ta_onnx_dim): -EINVAL, with a message, when @n_dims is not 0 and
 * the file is not an ONNX model (no other form has named dimensions).
 * @onnx, when not NULL, gets what the ONNX reader saw (all zero for
 * another form).
 */
struct ta_onnx_dim;
struct ta_onnx_info;
int ta_input_read_dims(const char *path, const struct ta_onnx_dim *dims,
		       u32 n_dims, struct ta_input *in,
		       struct ta_onnx_info *onnx, char *err, size_t errlen);
void ta_input_free(struct ta_input *in);
/* libtensorarena's graph from an input, in the same form (ta_load.c). */
struct ta_graph_builder;
int ta_input_build(const struct ta_input *in, struct ta_graph_builder *g);
/*
 * The offsets a plan made elsewhere gave the input's buffers: the model's
 * (@in->fixed_offsets) or a plan CSV's offset column; NULL when none.
 */
const u64 *ta_input_fixed_offsets(const struct ta_input *in);
int ta_input_retune(struct ta_input *in, u64 align, const char *exportable,
		    char *err, size_t errlen);
/* Readers of graph forms end with this: lifetimes, @in->prob. */
int ta_input_finish_graph(struct ta_input *in, const char *path,
			  const char *hint, char *err, size_t errlen);

/**
 * struct ta_tflite_info - what ta_tflite_read() saw (Documentation/tflite.md)
 * @n_subgraphs: subgraphs in the model: subgraph 0 (the main graph), the
 *		 @n_called ones it calls, the @n_unreachable others
 * @n_tensors: tensors of subgraph 0
 * @n_ops: its operators
 * @n_used: tensors an op references (the graph's tensors, of every
 *	    inlined subgraph too)
 * @n_constants: of those, constant (their buffer holds data)
 * @n_variables: of those, variable (persistent)
 * @naive_bytes: sum of the sizes of the graph's tensors
 * @constant_bytes: of which constant
 * @variable_bytes: of which variable
 * @n_called: subgraphs other than 0 that subgraph 0 calls, directly or
 *	      not (IF, WHILE, CALL_ONCE): inlined, so planned
 * @n_inlined: copies of them in the graph, one per call (a subgraph called
 *	       from two ops is inlined twice)
 * @n_unreachable: subgraphs no call reaches from subgraph 0 (e.g. other
 *		   signatures' entry points): not planned
 * @n_inplace: ops marked %TA_OP_INPLACE (views such as RESHAPE)
 * @n_fixed: tensors with an offset in OfflineMemoryAllocation (not -1)
 * @n_dynamic: of the graph's tensors, those with a dimension the model
 *	       leaves open (-1 in shape_signature, e.g. a batch): planned at
 *	       the size shape records, which TFLite allocates unless the
 *	       application resizes an input
 * @n_shape_checked: ops, of every subgraph read, whose recorded output
 *		     shape was checked against the one TFLite's kernel
 *		     computes (ta_tflite_shape.c); the others' are taken as
 *		     recorded
 * @n_folded: tensors whose values (shapes, paddings...) ops compute from
 *	      constants and shapes, read by those checks as constants
 *	      (ta_tflite_fold.c)
 */
struct ta_tflite_info {
	u32 n_subgraphs;
	u32 n_tensors;
	u32 n_ops;
	u32 n_used;
	u32 n_constants;
	u32 n_variables;
	u64 naive_bytes;
	u64 constant_bytes;
	u64 variable_bytes;
	u32 n_called;
	u32 n_inlined;
	u32 n_unreachable;
	u32 n_inplace;
	u32 n_fixed;
	u32 n_dynamic;
	u32 n_shape_checked;
	u32 n_folded;
};

/*
 * A TFLite model as a graph (ta_tflite.c): subgraph 0 with the subgraphs
 * its IF, WHILE and CALL_ONCE ops call inlined; ids are TFLite tensor
 * indices, "S:I" for tensor I of an inlined subgraph S.
 */
int ta_tflite_read(const char *path, struct ta_input *in,
		   struct ta_tflite_info *info, char *err, size_t errlen);
int ta_tflite_parse(const void *data, size_t len, const char *name,
		    struct ta_input *in, struct ta_tflite_info *info,
		    char *err, size_t errlen);
const char *ta_tflite_op_name(u32 code);

/**
 * struct ta_onnx_info - what ta_onnx_read() saw (Documentation/onnx.md)
 * @ir_version: ModelProto.ir_version
 * @opset: the version of the default ONNX domain's operator set
 * @n_nodes: nodes of the graph (the graph's ops, one per node)
 * @n_initializers: initializers
 * @n_value_info: value_info entries (recorded intermediate shapes)
 * @n_graph_inputs: graph inputs that are not initializers
 * @n_graph_outputs: graph outputs
 * @n_symbolic: symbolic dimensions of graph inputs given no size, taken as 1
 * @n_bound: symbolic dimensions of graph inputs given a size (@dims of
 *	     ta_onnx_parse_dims())
 * @unbound: the name of the first symbolic dimension taken as 1, or
 *	     "INPUT[AXIS]" for one without a name ("" when none was), cut to
 *	     fit and printable
 * @unbound_others: a symbolic dimension of another name, or of none, was
 *		    taken as 1 too
 * @n_folded: nodes folded at load time (all inputs constant): their op
 *	      reads and writes nothing, their outputs are constants
 * @n_inplace: ops marked %TA_OP_INPLACE
 * @n_recorded: nodes whose output shapes came from value_info because
 *		this reader cannot infer their op
 * @n_tensors: tensors of the graph (those a node that is not folded uses)
 * @n_constants: of those, constant (initializers and folded outputs)
 * @naive_bytes: sum of the sizes of the graph's tensors
 * @constant_bytes: of which constant
 */
struct ta_onnx_info {
	u64 ir_version;
	u32 opset;
	u32 n_nodes;
	u32 n_initializers;
	u32 n_value_info;
	u32 n_graph_inputs;
	u32 n_graph_outputs;
	u32 n_symbolic;
	u32 n_bound;
	char unbound[64];
	bool unbound_others;
	u32 n_folded;
	u32 n_inplace;
	u32 n_recorded;
	u32 n_tensors;
	u32 n_constants;
	u64 naive_bytes;
	u64 constant_bytes;
};

/*
 * An ONNX model as a graph (ta_onnx.c); ids are the ONNX value names.
 * Errors read "FILE: node N (name, OpType): what" (no line number).
 */
int ta_onnx_read(const char *path, struct ta_input *in,
		 struct ta_onnx_info *info, char *err, size_t errlen);
int ta_onnx_parse(const void *data, size_t len, const char *name,
		  struct ta_input *in, struct ta_onnx_info *info,
		  char *err, size_t errlen);

/*
 * The size of a graph input's symbolic dimension (a dim_param such as a
 * batch "N"), which the model leaves to the runtime: every dimension of
 * that name in every graph input takes it. At most TA_ONNX_MAX_DIMS.
 */
struct ta_onnx_dim {
	const char *name;
	u64 value;
};

#define TA_ONNX_MAX_DIMS	64

/* As ta_onnx_read() and ta_onnx_parse(), with sizes for symbolic dimensions. */
int ta_onnx_read_dims(const char *path, const struct ta_onnx_dim *dims,
		      u32 n_dims, struct ta_input *in,
		      struct ta_onnx_info *info, char *err, size_t errlen);
int ta_onnx_parse_dims(const void *data, size_t len, const char *name,
		       const struct ta_onnx_dim *dims, u32 n_dims,
		       struct ta_input *in, struct ta_onnx_info *info,
		       char *err, size_t errlen);
/* The file name ends in ".onnx" (protobuf has no magic number). */
bool ta_is_onnx_name(const char *path);
/* Does a file name end in ".tflite" (any case)? */
bool ta_is_tflite_name(const char *path);

/*
 * A copy of a TFLite model with TFLite Micro's OfflineMemoryAllocation
 * metadata added or replaced (Documentation/tflite.md): an entry per
 * tensor of every subgraph, @offsets (per graph tensor of @in, read from
 * the same model) for the tensors TFLite Micro plans (not constant, not
 * variable, not of size 0) where both of TFLite Micro's readings of the
 * entry agree, -1 for the others. ta_tflite_offline_image() builds it in
 * memory (*@out, free it), ta_tflite_write_offline() reads @in_path and
 * writes @out_path. 0; -EINVAL (with a message) for a model or input it
 * cannot rewrite, -ERANGE for an offset beyond 2^31 - 1, -E2BIG for a
 * result over 2 GiB, -ENOMEM, -errno.
 */
int ta_tflite_offline_image(const void *data, size_t len, const char *name,
			    const u64 *offsets, const struct ta_input *in,
			    u8 **out, size_t *out_len, char *err,
			    size_t errlen);
int ta_tflite_write_offline(const char *in_path, const char *out_path,
			    const u64 *offsets, const struct ta_input *in,
			    char *err, size_t errlen);

/*
 * Graph form: drop the constant tensors (and their references) and derive
 * the lifetimes again; for comparing with runtimes that keep weights
 * outside the arena. 0, -EINVAL (not graph form), -ENOMEM.
 */
int ta_input_drop_constants(struct ta_input *in);

/* Graph form: write it as a graph file (Documentation/graph-format.md). */
int ta_graph_write(const char *path, const struct ta_input *in);

/* The input's rows plus an offset column (id,lower,upper,size,...,offset). */
int ta_plan_write_csv(const char *path, const struct ta_input *in,
		      const u64 *offsets);
/* The same with a tier column (fast, slow) when @tiers is not NULL. */
int ta_plan_write_csv_tiered(const char *path, const struct ta_input *in,
			     const u64 *offsets, const u8 *tiers);

/**
 * struct ta_svg_info - figures printed in the picture's legend
 * @title: a caption, e.g. the file name
 * @strategy: strategy name
 * @height: the plan's height
 * @lower_bound: the problem's lower bound
 * @time_ns: planning time
 * @tiers: a tiered plan: per buffer, %TA_TIER_FAST or %TA_TIER_SLOW (its
 *	   offset is within that tier), drawn as two panels, the fast tier
 *	   on top; NULL for one arena
 * @fast_capacity: a tiered plan: the fast tier's capacity
 * @fast_height: a tiered plan: the fast tier's height
 */
struct ta_svg_info {
	const char *title;
	const char *strategy;
	u64 height;
	u64 lower_bound;
	u64 time_ns;
	const u8 *tiers;
	u64 fast_capacity;
	u64 fast_height;
};

int ta_plan_write_svg(const char *path, const struct ta_input *in,
		      const u64 *offsets, const struct ta_svg_info *info);

/**
 * struct ta_group_svg_member - one member of a group's picture
 * @file: its caption (the file name)
 * @lane: its lane
 * @first: group-wide index of its first tensor
 * @ids: per tensor, its id, or NULL
 */
struct ta_group_svg_member {
	const char *file;
	u32 lane;
	u32 first;
	char **ids;
};

struct ta_group_buffer;
/*
 * A group's plan (ta_svg.c): @n tensors laid out in the group's time by
 * ta_group_layout() (@bufs), at @offsets (group-wide), one colour per
 * member, always-live tensors across the whole width, a band per lane
 * below the time axis. 0 or -errno.
 */
int ta_group_write_svg(const char *path,
		       const struct ta_group_svg_member *members, u32 n_members,
		       const struct ta_group_buffer *bufs, const u64 *offsets,
		       u32 n, const struct ta_svg_info *info);

#endif /* TA_FILES_H */
