/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tflite_internal.h - what the files of the TFLite reader share (see
 * ta_tflite.c): its limits, the builtin operators and options it treats
 * specially, the model as read (struct ta_tfl), and the functions one file
 * calls in another. The FlatBuffer reads are in ta_tflite_fb.h.
 */
#ifndef TA_TFLITE_INTERNAL_H
#define TA_TFLITE_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"
#include "ta_tflite_fb.h"

#define TA_TFL_ALIGN		64
#define TA_TFL_MAX_FILE		BIT_ULL(31)	/* FlatBuffers' own limit */
#define TA_TFL_MAX_DIMS		16
/* Elements of one tensor: 2^36 x 16 bytes = 1 TiB; sums stay below 2^61. */
#define TA_TFL_MAX_ELEMS	BIT_ULL(36)
/* Op references; tables may share vectors, so bound them explicitly. */
#define TA_TFL_MAX_REFS		BIT(24)
/*
 * Control flow: subgraphs in a model, subgraphs nested in one call chain,
 * inlined copies and their tensors (a subgraph calling another twice, and
 * so on, doubles at each level: bound the total, not only the depth).
 */
#define TA_TFL_MAX_SUBGRAPHS	BIT(16)
#define TA_TFL_MAX_DEPTH	16
#define TA_TFL_MAX_COPIES	BIT(16)
#define TA_TFL_MAX_COPY_TENSORS	BIT(22)

/* BuiltinOperator values the reader names (schema.fbs). */
enum {
	TA_TFL_ADD = 0, TA_TFL_AVERAGE_POOL_2D = 1, TA_TFL_CONCATENATION = 2,
	TA_TFL_CONV_2D = 3, TA_TFL_DEPTHWISE_CONV_2D = 4,
	TA_TFL_DEQUANTIZE = 6, TA_TFL_EMBEDDING_LOOKUP = 7, TA_TFL_FLOOR = 8,
	TA_TFL_FULLY_CONNECTED = 9, TA_TFL_L2_POOL_2D = 12,
	TA_TFL_MAX_POOL_2D = 17, TA_TFL_MUL = 18, TA_TFL_RESHAPE = 22,
	TA_TFL_RESIZE_BILINEAR = 23, TA_TFL_CALL = 31, TA_TFL_CUSTOM = 32,
	TA_TFL_EMBEDDING_LOOKUP_SPARSE = 33, TA_TFL_PAD = 34,
	TA_TFL_GATHER = 36, TA_TFL_BATCH_TO_SPACE_ND = 37,
	TA_TFL_SPACE_TO_BATCH_ND = 38, TA_TFL_TRANSPOSE = 39,
	TA_TFL_MEAN = 40, TA_TFL_SUB = 41, TA_TFL_DIV = 42,
	TA_TFL_SQUEEZE = 43, TA_TFL_STRIDED_SLICE = 45, TA_TFL_EXP = 47,
	TA_TFL_TOPK_V2 = 48, TA_TFL_SPLIT = 49, TA_TFL_CAST = 53,
	TA_TFL_PRELU = 54, TA_TFL_MAXIMUM = 55, TA_TFL_ARG_MAX = 56,
	TA_TFL_MINIMUM = 57, TA_TFL_LESS = 58, TA_TFL_NEG = 59,
	TA_TFL_PADV2 = 60, TA_TFL_GREATER = 61, TA_TFL_GREATER_EQUAL = 62,
	TA_TFL_LESS_EQUAL = 63, TA_TFL_SELECT = 64, TA_TFL_SLICE = 65,
	TA_TFL_TRANSPOSE_CONV = 67, TA_TFL_SPARSE_TO_DENSE = 68,
	TA_TFL_TILE = 69, TA_TFL_EXPAND_DIMS = 70, TA_TFL_EQUAL = 71,
	TA_TFL_NOT_EQUAL = 72, TA_TFL_SUM = 74, TA_TFL_SHAPE = 77,
	TA_TFL_POW = 78, TA_TFL_ARG_MIN = 79, TA_TFL_FAKE_QUANT = 80,
	TA_TFL_REDUCE_PROD = 81, TA_TFL_REDUCE_MAX = 82, TA_TFL_PACK = 83,
	TA_TFL_LOGICAL_OR = 84, TA_TFL_ONE_HOT = 85, TA_TFL_LOGICAL_AND = 86,
	TA_TFL_REDUCE_MIN = 89, TA_TFL_FLOOR_DIV = 90, TA_TFL_REDUCE_ANY = 91,
	TA_TFL_ZEROS_LIKE = 93, TA_TFL_FILL = 94, TA_TFL_FLOOR_MOD = 95,
	TA_TFL_RANGE = 96, TA_TFL_RESIZE_NEAREST_NEIGHBOR = 97,
	TA_TFL_SQUARED_DIFFERENCE = 99, TA_TFL_MIRROR_PAD = 100,
	TA_TFL_SPLIT_V = 102, TA_TFL_UNIQUE = 103, TA_TFL_CEIL = 104,
	TA_TFL_ADD_N = 106, TA_TFL_GATHER_ND = 107, TA_TFL_WHERE = 109,
	TA_TFL_RANK = 110, TA_TFL_MATRIX_DIAG = 113,
	TA_TFL_MATRIX_SET_DIAG = 115, TA_TFL_ROUND = 116, TA_TFL_IF = 118,
	TA_TFL_WHILE = 119, TA_TFL_NON_MAX_SUPPRESSION_V4 = 120,
	TA_TFL_NON_MAX_SUPPRESSION_V5 = 121, TA_TFL_SCATTER_ND = 122,
	TA_TFL_SELECT_V2 = 123, TA_TFL_DENSIFY = 124,
	TA_TFL_SEGMENT_SUM = 125, TA_TFL_CUMSUM = 128, TA_TFL_CALL_ONCE = 129,
	TA_TFL_BROADCAST_TO = 130, TA_TFL_RFFT2D = 131, TA_TFL_CONV_3D = 132,
	TA_TFL_HASHTABLE = 136, TA_TFL_HASHTABLE_SIZE = 139,
	TA_TFL_REDUCE_ALL = 140, TA_TFL_CONV_3D_TRANSPOSE = 141,
	TA_TFL_VAR_HANDLE = 142, TA_TFL_READ_VARIABLE = 143,
	TA_TFL_RANDOM_STANDARD_NORMAL = 146, TA_TFL_BUCKETIZE = 147,
	TA_TFL_RANDOM_UNIFORM = 148, TA_TFL_MULTINOMIAL = 149,
	TA_TFL_DYNAMIC_UPDATE_SLICE = 151, TA_TFL_UNSORTED_SEGMENT_PROD = 153,
	TA_TFL_UNSORTED_SEGMENT_MAX = 154, TA_TFL_UNSORTED_SEGMENT_SUM = 155,
	TA_TFL_UNSORTED_SEGMENT_MIN = 157, TA_TFL_BITCAST = 159,
	TA_TFL_BITWISE_XOR = 160, TA_TFL_RIGHT_SHIFT = 161,
	TA_TFL_STABLEHLO_CUSTOM_CALL = 173, TA_TFL_STABLEHLO_REDUCE = 174,
	TA_TFL_STABLEHLO_SCATTER = 190, TA_TFL_STABLEHLO_REDUCE_WINDOW = 198,
	TA_TFL_STABLEHLO_SORT = 199, TA_TFL_STABLEHLO_WHILE = 200,
};

/* BuiltinOptions union members the reader reads (0 is NONE). */
enum {
	TA_TFL_CONV_OPTIONS = 1, TA_TFL_DEPTHWISE_OPTIONS = 2,
	TA_TFL_POOL_OPTIONS = 5, TA_TFL_SVDF_OPTIONS = 6,
	TA_TFL_FC_OPTIONS = 8, TA_TFL_CONCAT_OPTIONS = 10,
	TA_TFL_ADD_OPTIONS = 11, TA_TFL_RESHAPE_OPTIONS = 17,
	TA_TFL_SPACE_TO_DEPTH_OPTIONS = 19, TA_TFL_MUL_OPTIONS = 21,
	TA_TFL_GATHER_OPTIONS = 23, TA_TFL_REDUCER_OPTIONS = 27,
	TA_TFL_SUB_OPTIONS = 28, TA_TFL_SQUEEZE_OPTIONS = 30,
	TA_TFL_STRIDED_SLICE_OPTIONS = 32, TA_TFL_SPLIT_OPTIONS = 35,
	TA_TFL_ARG_MAX_OPTIONS = 40, TA_TFL_SHAPE_OPTIONS = 55,
	TA_TFL_ARG_MIN_OPTIONS = 57, TA_TFL_PACK_OPTIONS = 59,
	TA_TFL_ONE_HOT_OPTIONS = 61, TA_TFL_UNPACK_OPTIONS = 64,
	TA_TFL_SPLIT_V_OPTIONS = 79, TA_TFL_IF_OPTIONS = 92,
	TA_TFL_WHILE_OPTIONS = 93, TA_TFL_DEPTH_TO_SPACE_OPTIONS = 94,
	TA_TFL_BATCH_MATMUL_OPTIONS = 101, TA_TFL_CALL_ONCE_OPTIONS = 103,
	TA_TFL_CONV_3D_OPTIONS = 106,
};

/* ---- the model: each subgraph read once ---- */

struct ta_tfl_tensor {
	u64 size;
	u32 flags;
	bool dynamic;	/* its shape_signature has a -1: planned at its shape */
	/* for ta_tfl_check_shape(): its recorded shape, type and data */
	u32 rank;
	u32 dims[TA_TFL_MAX_DIMS];
	u32 type;
	struct ta_fbv data;
	/* values an op computes from known ones (ta_tflite_fold.c), or NULL */
	s64 *value;
	u32 n_value;
	/* its values come from constants and shapes, not data (ta_tflite_data.c) */
	bool from_shapes;
	char *note;
};

/* How an op calls subgraphs. */
enum ta_tfl_call {
	TA_TFL_CALLS_NONE,
	TA_TFL_CALLS_IF,	/* then, else: one of them runs */
	TA_TFL_CALLS_WHILE,	/* cond, body: in a loop */
	TA_TFL_CALLS_ONCE,	/* init, once per interpreter */
};

/*
 * struct ta_tfl_op - an operator as read
 * @first_ref: in its subgraph's refs: its inputs (without -1), then outputs
 * @code: BuiltinOperator (CUSTOM for a custom op)
 * @name: what tactl shows: the builtin's name or the custom code
 * @call: &enum ta_tfl_call
 * @callee: the subgraphs it calls (@n_callees of them)
 * @view: a view of its first input (RESHAPE...) of the same byte size
 */
struct ta_tfl_op {
	u32 first_ref;
	u32 n_inputs;
	u32 n_outputs;
	u32 code;
	char *name;
	u32 call;
	u32 n_callees;
	u32 callee[2];
	bool view;
};

/* A growing array of tensor references. */
struct ta_tfl_refs {
	u32 *v;
	u32 n, cap;
};

/*
 * struct ta_tfl_sg - a subgraph, read when first reached
 * @on_chain: its ops are being inlined now (a call to it is recursion)
 * @n_copies: how often it is in the graph
 * @refs: the ops' references, TFLite tensor indices of this subgraph
 */
struct ta_tfl_sg {
	bool parsed;
	bool on_chain;
	u32 n_tensors;
	u32 n_ops;
	u32 n_inputs;
	u32 n_outputs;
	u32 n_copies;
	struct ta_tfl_tensor *t;
	struct ta_tfl_op *ops;
	struct ta_tfl_refs refs;
	u32 *inputs;
	u32 *outputs;
};

/*
 * struct ta_tfl_copy - one subgraph's ops and tensors in the graph: copy 0
 * is subgraph 0, each call adds one of the called subgraph
 * @base: key of its tensor 0 (its tensor i has key @base + i)
 * @ordinal: 1 for the first copy of its subgraph, 2 for the second...
 */
struct ta_tfl_copy {
	u32 sg;
	u32 base;
	u32 ordinal;
};

/*
 * struct ta_tfl_key - per tensor of every copy
 * @seen: de-duplication stamp while ops are built; then its graph index
 * @carried: a WHILE's loop state: written by the WHILE's begin op, so an
 *	     op of the loop that writes it is recorded as reading it
 * @written: an op emitted so far writes it
 */
struct ta_tfl_key {
	u32 seen;
	bool carried;
	bool written;
};

struct ta_tfl {
	struct ta_fb fb;
	struct ta_fbv opcodes, buffers, subgraphs, metadata;
	struct ta_tflite_info *info;
	u32 n_subgraphs;
	struct ta_tfl_sg *sg;
	u32 parsed_refs;
	/* the graph as it is built */
	struct ta_tfl_copy *copies;
	u32 n_copies, cap_copies;
	struct ta_tfl_key *keys;
	u32 n_keys, cap_keys;
	u32 stamp;
	struct ta_graph_op *ops;
	char **op_names;
	u32 n_ops, cap_ops;
	struct ta_tfl_refs refs;
	/* the subgraphs being inlined, outermost first */
	u32 chain[TA_TFL_MAX_DEPTH];
	u32 depth;
	/* OfflineMemoryAllocation: its data, when the model has one */
	bool has_offline;
	struct ta_fbv offline;
	/* per subgraph, the entry of its tensor 0: tensors before it */
	u64 *sg_base;
};

/* ta_tflite_sg.c (the schema's enums, the subgraphs) */
u32 ta_tfl_type_bits(u64 type, const char **name);
int ta_tfl_ref(struct ta_tfl_refs *r, u32 t);
int ta_tfl_parse_subgraph(struct ta_tfl *m, u32 s);

/* ta_tflite_shape.c (what the kernels compute against what is recorded) */
int ta_tfl_check_shape(struct ta_tfl *m, u32 s, u32 i,
		       const struct ta_fbt *o);
int ta_tfl_check_call_shapes(struct ta_tfl *m, u32 s, u32 i);
/* ta_tflite_fold.c (values computed from shapes and constants) */
int ta_tfl_fold(struct ta_tfl *m, u32 s, u32 i, const struct ta_fbt *o);
/* ta_tflite_data.c (output shapes from values that come from data) */
int ta_tfl_check_data_shape(struct ta_tfl *m, u32 s, u32 i,
			    const struct ta_fbt *o);
void ta_tfl_mark_data(struct ta_tfl *m, u32 s, u32 i);
/* ta_tflite_type.c (output types the kernels assign) */
int ta_tfl_check_type(struct ta_tfl *m, u32 s, u32 i, const struct ta_fbt *o);

/* ta_tflite_inline.c (inlining) */
int ta_tfl_new_copy(struct ta_tfl *m, u32 s, u32 *copy);
int ta_tfl_emit_copy(struct ta_tfl *m, u32 copy);

#endif /* TA_TFLITE_INTERNAL_H */
