/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_onnx_internal.h - what the files of the ONNX reader share: its limits,
 * the model as read, and the functions one file calls in another. See
 * ta_onnx.c for the reader as a whole.
 */
#ifndef TA_ONNX_INTERNAL_H
#define TA_ONNX_INTERNAL_H

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ta_files.h"
#include "ta_reader.h"

#define TA_OX_ALIGN		64
#define TA_OX_MAX_FILE		(1ULL << 31)	/* protobuf's own limit */
#define TA_OX_MAX_RANK		8
/* Elements of one tensor: 2^36 x 16 bytes = 1 TiB; sums stay below 2^61. */
#define TA_OX_MAX_ELEMS		(1ULL << 36)
/* Node inputs and outputs, all nodes together. */
#define TA_OX_MAX_REFS		(1U << 24)
/* Named values: initializers, inputs, node outputs, value_info entries. */
#define TA_OX_MAX_VALUES	(1U << 22)
/* Attributes of one node. */
#define TA_OX_MAX_ATTRS		1024
/* Elements of a small tensor whose values are kept (shapes, axes, pads). */
#define TA_OX_MAX_KEPT		64
/* Tensor names in the graph (ids) are cut to this many bytes. */
#define TA_OX_MAX_ID		200

/* Protobuf wire types. */
enum { TA_PB_VARINT = 0, TA_PB_I64 = 1, TA_PB_LEN = 2, TA_PB_I32 = 5 };

/* TensorProto.DataType values this reader knows. */
enum {
	TA_OX_FLOAT = 1, TA_OX_UINT8 = 2, TA_OX_INT8 = 3, TA_OX_UINT16 = 4,
	TA_OX_INT16 = 5, TA_OX_INT32 = 6, TA_OX_INT64 = 7, TA_OX_STRING = 8,
	TA_OX_BOOL = 9, TA_OX_FLOAT16 = 10, TA_OX_DOUBLE = 11,
	TA_OX_UINT32 = 12, TA_OX_UINT64 = 13, TA_OX_COMPLEX64 = 14,
	TA_OX_COMPLEX128 = 15, TA_OX_BFLOAT16 = 16, TA_OX_NTYPES = 24,
};

/* AttributeProto.AttributeType values. */
enum {
	TA_OX_AT_FLOAT = 1, TA_OX_AT_INT = 2, TA_OX_AT_STRING = 3,
	TA_OX_AT_TENSOR = 4, TA_OX_AT_GRAPH = 5, TA_OX_AT_FLOATS = 6,
	TA_OX_AT_INTS = 7,
};

/* ---- the model as read ---- */

/* A byte range of the file. */
struct ta_ox_span {
	const u8 *p;
	u64 len;
};

/* A shape: rank and dimensions. */
struct ta_ox_shape {
	u32 rank;
	s64 d[TA_OX_MAX_RANK];
};

enum ta_ox_state { TA_OX_DECLARED, TA_OX_GRAPH_INPUT, TA_OX_INITIALIZER,
		   TA_OX_PRODUCED };

/* A named value of the graph (a tensor). */
struct ta_ox_value {
	struct ta_ox_span name;
	enum ta_ox_state state;
	u32 dtype;
	struct ta_ox_shape shape;
	bool is_const;		/* initializer or output of a folded node */
	bool used;		/* referenced by an op that is not folded */
	bool is_output;		/* a graph output */
	/*
	 * its size comes from the data (NonZero, Compress...), planned at
	 * the largest, and may be 0 at run time: so may every output of a
	 * node that reads it
	 */
	bool may_empty;
	/*
	 * its values come from the model's input data: a graph input, or an
	 * output of a node that reads such values (not of Shape or Size,
	 * which read a shape, nor of a folded node)
	 */
	bool from_data;
	s32 producer;		/* node index, or -1 */
	/* a shape recorded in value_info or a graph output */
	bool rec;
	bool rec_shape;
	u32 rec_dtype;
	u32 rec_sym;		/* bit i: dimension i is symbolic */
	struct ta_ox_shape rec_dims;
	/* the values of a small tensor, when known: ints or floats */
	u32 n_kept;
	s64 *iv;
	double *fv;
	u32 index;		/* in the graph, or U32_MAX */
};

/* One node being read. */
struct ta_ox_node {
	u32 index;
	struct ta_ox_span name, op, domain;
	char op_str[64];
	char name_str[80];
	u32 n_in, n_out;
	s32 *in, *out;		/* value indices, -1 for an empty name */
	u32 n_attrs;
	struct ta_ox_span attrs[TA_OX_MAX_ATTRS];
	bool folded;
	bool inplace;
};

struct ta_ox {
	const u8 *base;
	u64 n;
	const char *path;
	char *err;
	size_t errlen;
	struct ta_onnx_info *info;
	/* sizes given to symbolic dimensions; bit k: dims[k] was used */
	const struct ta_onnx_dim *dims;
	u32 n_dims;
	u64 dims_used;
	s64 opset;
	/* the graph's repeated fields, as spans */
	struct ta_ox_span *nodes, *inits, *inputs, *outputs, *vinfos;
	u32 n_nodes, n_inits, n_inputs, n_outputs, n_vinfos;
	u32 cap_nodes, cap_inits, cap_inputs, cap_outputs, cap_vinfos;
	/* values and their name hash (index + 1, 0 = empty) */
	struct ta_ox_value *v;
	u32 n_v, cap_v;
	u32 *hash;
	u32 hash_mask;
	/* per node: folded, its refs (value indices) */
	bool *folded;
	bool *inplace;
	char **op_names;
	u32 *node_ref_start;
	s32 *node_refs;
	u32 *node_n_in, *node_n_out;
	u32 n_node_refs, cap_node_refs;
	char why[200];		/* why an op's shapes were not inferred */
	/* the input whose values an op needs and lacks (why), or -1 */
	s32 why_input;
	struct ta_ox_node nd;
};

/* A message being read: its bytes and its name for messages. */
struct ta_pb {
	const u8 *p, *end;
	const char *msg;
};

/* One field: number, wire type, and its value or bytes. */
struct ta_pbf {
	u32 num;
	u32 wire;
	u64 v;			/* a varint, or the bits of a fixed field */
	struct ta_ox_span s;	/* a length-delimited field's bytes */
	const u8 *at;		/* where the field starts, for messages */
};

/* A TensorProto as read. */
struct ta_ox_tensor {
	struct ta_ox_span name;
	u32 dtype;
	struct ta_ox_shape shape;
	u32 n_kept;			/* values decoded, when small */
	s64 iv[TA_OX_MAX_KEPT];
	double fv[TA_OX_MAX_KEPT];
	bool is_float;
};

/* A ValueInfoProto as read. */
struct ta_ox_vinfo {
	struct ta_ox_span name;
	bool has_type;		/* a tensor_type with an elem_type */
	u32 dtype;
	bool has_shape;
	struct ta_ox_shape shape;
	u32 sym;		/* bit i: dim i is symbolic or absent */
	struct ta_ox_span sym_name[TA_OX_MAX_RANK];	/* its dim_param */
	u64 n_dims;		/* dims in the file: more than rank if over */
};

/* An AttributeProto as read. */
struct ta_ox_attr {
	u32 type;
	bool has_f, has_i, has_s, has_t;
	double f;
	s64 i;
	struct ta_ox_span s, t;
	u64 n_ints, n_floats;	/* all of them */
	s64 ints[TA_OX_MAX_KEPT];	/* the first ones */
	s64 ints_lo, ints_hi;		/* the least and largest of all */
	double floats[TA_OX_MAX_KEPT];
	const u8 *at;
};

/* ta_onnx_wire.c: messages and the protobuf wire format */
int __attribute__((format(printf, 3, 4)))
ta_ox_fail(struct ta_ox *ox, int ret, const char *fmt, ...);
int ta_ox_bad(struct ta_ox *ox, const u8 *at, const char *msg,
	      const char *what);
const char *ta_ox_print(const struct ta_ox_span *s, char *buf,
			size_t max);
int __attribute__((format(printf, 3, 4)))
ta_ox_node_fail(struct ta_ox *ox, int ret, const char *fmt, ...);
const char *ta_ox_vname(struct ta_ox *ox, u32 v, char *buf,
			size_t max);
void ta_ox_shape_str(const struct ta_ox_shape *s, char *buf,
		     size_t max);
struct ta_pb ta_pb_of(const struct ta_ox_span *s, const char *msg);
int ta_pb_next(struct ta_ox *ox, struct ta_pb *m, struct ta_pbf *f);
int ta_pb_want(struct ta_ox *ox, const struct ta_pb *m,
	       const struct ta_pbf *f, u32 wire);
int ta_pb_ints(struct ta_ox *ox, const struct ta_pb *m,
	       const struct ta_pbf *f, s64 *out, u32 max, u64 *n,
	       s64 *lo, s64 *hi);
int ta_pb_fixed_count(struct ta_ox *ox, const struct ta_pb *m,
		      const struct ta_pbf *f, u32 size, u64 *n);
bool ta_span_is(const struct ta_ox_span *s, const char *str);

/* ta_onnx_msg.c: data types, values and the message readers */
u32 ta_ox_type_bits(u32 t, const char **name);
bool ta_ox_is_int(u32 t);
u64 ta_ox_elems(const struct ta_ox_shape *s);
bool ta_ox_shape_ok(const struct ta_ox_shape *s);
bool ta_ox_shape_eq(const struct ta_ox_shape *a, const struct ta_ox_shape *b);
u32 ta_ox_fnv(const struct ta_ox_span *s);
int ta_ox_rehash(struct ta_ox *ox, u32 size);
int ta_ox_value(struct ta_ox *ox, const struct ta_ox_span *name,
		u32 *idx);
int ta_ox_keep(struct ta_ox_value *v, const s64 *iv, const double *fv,
	       u32 n);
int ta_ox_tensor(struct ta_ox *ox, const struct ta_ox_span *s,
		 const char *what, struct ta_ox_tensor *t);
int ta_ox_vinfo(struct ta_ox *ox, const struct ta_ox_span *s,
		struct ta_ox_vinfo *vi);
int ta_ox_graph_fields(struct ta_ox *ox, const struct ta_ox_span *g);
int ta_ox_model(struct ta_ox *ox, struct ta_ox_span *graph);
void ta_ox_token(const struct ta_ox_span *s, char *buf, size_t max);
int ta_ox_node_read(struct ta_ox *ox, u32 i);
int ta_ox_attr(struct ta_ox *ox, const char *name,
	       struct ta_ox_attr *a);
int ta_ox_attr_type(struct ta_ox *ox, const char *name,
		    const struct ta_ox_attr *a, u32 want, bool present);
int ta_ox_attr_int(struct ta_ox *ox, const char *name, s64 def,
		   s64 *v);
int ta_ox_attr_ints(struct ta_ox *ox, const char *name, s64 *v,
		    u32 max, s32 *n);
int ta_ox_attr_str(struct ta_ox *ox, const char *name,
		   const char *def, char *buf, size_t max);

/*
 * ta_onnx_infer.c: shape inference: common helpers, elementwise and
 * broadcasting ops
 */
int __attribute__((format(printf, 2, 3)))
ta_ox_cannot(struct ta_ox *ox, const char *fmt, ...);
int ta_ox_runtime_input(struct ta_ox *ox, u32 k, const char *what);
struct ta_ox_value *ta_ox_in(struct ta_ox *ox, u32 k);
int ta_ox_need(struct ta_ox *ox, u32 k, struct ta_ox_value **v);
int ta_ox_need_rank(struct ta_ox *ox, u32 k, struct ta_ox_value **v,
		    u32 min, u32 max);
int ta_ox_set(struct ta_ox *ox, u32 k, u32 dtype,
	      const struct ta_ox_shape *s);
int ta_ox_set_ivals(struct ta_ox *ox, u32 k, const s64 *iv, u32 n);
bool ta_ox_ints(const struct ta_ox_value *v, const s64 **iv, u32 *n);
int ta_ox_axis(struct ta_ox *ox, s64 axis, u32 r, bool incl, u32 *out);
int ta_ox_axes_arg(struct ta_ox *ox, const char *attr, u32 k,
		   s64 since, s64 *axes, s32 *n);
int ta_ox_same(struct ta_ox *ox);
int ta_ox_keep_out(struct ta_ox *ox, u32 k, const s64 *iv,
		   const double *fv, u32 n);
int ta_ox_one_output(struct ta_ox *ox);
int ta_ox_outputs_at_most(struct ta_ox *ox, u32 max);
int ta_ox_unary(struct ta_ox *ox);
int ta_ox_identity(struct ta_ox *ox);
int ta_ox_dropout(struct ta_ox *ox);
int ta_ox_batchnorm(struct ta_ox *ox);
int ta_ox_known_type(struct ta_ox *ox, const char *what, s64 t);
int ta_ox_cast(struct ta_ox *ox);
int ta_ox_broadcast(struct ta_ox *ox, const struct ta_ox_shape *a,
		    const struct ta_ox_shape *b,
		    struct ta_ox_shape *out);
int ta_ox_binary(struct ta_ox *ox);

/*
 * ta_onnx_conv.c: shape inference: convolutions (also integer, quantized,
 * transposed), pools, matrix products, resize
 */
int ta_ox_conv(struct ta_ox *ox);
int ta_ox_pool(struct ta_ox *ox);
int ta_ox_global_pool(struct ta_ox *ox);
int ta_ox_max_unpool(struct ta_ox *ox);
int ta_ox_gemm(struct ta_ox *ox);
int ta_ox_matmul(struct ta_ox *ox);
int ta_ox_matmul_integer(struct ta_ox *ox);
int ta_ox_qlinear_matmul(struct ta_ox *ox);
int ta_ox_conv_integer(struct ta_ox *ox);
int ta_ox_qlinear_conv(struct ta_ox *ox);
int ta_ox_conv_transpose(struct ta_ox *ox);
int ta_ox_det(struct ta_ox *ox);
int ta_ox_recurrent(struct ta_ox *ox);
int ta_ox_einsum(struct ta_ox *ox);
int ta_ox_resize(struct ta_ox *ox);

/* ta_onnx_shape.c: shape inference: ops that rearrange shapes */
int ta_ox_concat(struct ta_ox *ox);
int ta_ox_reshape(struct ta_ox *ox);
int ta_ox_flatten(struct ta_ox *ox);
int ta_ox_transpose(struct ta_ox *ox);
int ta_ox_slice(struct ta_ox *ox);
int ta_ox_squeeze(struct ta_ox *ox);
int ta_ox_unsqueeze(struct ta_ox *ox);
int ta_ox_shape_op(struct ta_ox *ox);
int ta_ox_size_op(struct ta_ox *ox);
int ta_ox_gather_args(struct ta_ox *ox, struct ta_ox_value **x,
		      struct ta_ox_value **ind, u32 *ax);
int ta_ox_gather(struct ta_ox *ox);
int ta_ox_constant_of_shape(struct ta_ox *ox);
int ta_ox_constant(struct ta_ox *ox);
int ta_ox_pad(struct ta_ox *ox);
int ta_ox_expand(struct ta_ox *ox);
int ta_ox_split(struct ta_ox *ox);
int ta_ox_tile(struct ta_ox *ox);

/*
 * ta_onnx_quant.c: shape inference: quantization, layer normalization,
 * element-wise ops of another output type
 */
int ta_ox_quantize(struct ta_ox *ox);
int ta_ox_dequantize(struct ta_ox *ox);
int ta_ox_dynamic_quantize(struct ta_ox *ox);
int ta_ox_layer_norm(struct ta_ox *ox);
int ta_ox_is_class(struct ta_ox *ox);
int ta_ox_cast_like(struct ta_ox *ox);
int ta_ox_eye_like(struct ta_ox *ox);
/* ta_onnx_random.c */
int ta_ox_random(struct ta_ox *ox);
int ta_ox_random_like(struct ta_ox *ox);
int ta_ox_multinomial(struct ta_ox *ox);

/*
 * ta_onnx_index.c: shape inference: gathers by index or coordinates, depth
 * and space, n-gram counts
 */
int ta_ox_gather_elements(struct ta_ox *ox);
int ta_ox_gather_nd(struct ta_ox *ox);
int ta_ox_one_hot(struct ta_ox *ox);
int ta_ox_depth_space(struct ta_ox *ox);
int ta_ox_grid_sample(struct ta_ox *ox);
int ta_ox_roi_align(struct ta_ox *ox);
int ta_ox_max_roi_pool(struct ta_ox *ox);
int ta_ox_tfidf(struct ta_ox *ox);

/*
 * ta_onnx_signal.c: shape inference: the signal ops (DFT, STFT, windows,
 * MelWeightMatrix)
 */
int ta_ox_dft(struct ta_ox *ox);
int ta_ox_stft(struct ta_ox *ox);
int ta_ox_window(struct ta_ox *ox);
int ta_ox_mel_weight_matrix(struct ta_ox *ox);

/*
 * ta_onnx_reduce.c: shape inference: reductions (and losses) and
 * data-dependent ops
 */
void ta_ox_may_empty(struct ta_ox *ox);
int ta_ox_reduce(struct ta_ox *ox);
int ta_ox_argmax(struct ta_ox *ox);
int ta_ox_loss(struct ta_ox *ox);
int ta_ox_nonzero(struct ta_ox *ox);
int ta_ox_unique(struct ta_ox *ox);
int ta_ox_compress(struct ta_ox *ox);
int ta_ox_nms(struct ta_ox *ox);
int ta_ox_topk(struct ta_ox *ox);
int ta_ox_range(struct ta_ox *ox);
int ta_ox_control_flow(struct ta_ox *ox);
int ta_ox_sequence(struct ta_ox *ox);

#endif /* TA_ONNX_INTERNAL_H */
