/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tflite_shape.h - what the TFLite reader's two files of shape rules
 * share: ta_tflite_shape.c (the checker and most rules) and
 * ta_tflite_shape_index.c (the ops that slice, split and rearrange by
 * index constants, and those whose output shape is a constant).
 */
#ifndef TA_TFLITE_SHAPE_H
#define TA_TFLITE_SHAPE_H

#include "ta_tflite_internal.h"

/* Outputs of one op checked (SPLIT_V's, UNPACK's...) at most. */
#define TA_TFL_SHAPE_MAX_OUTPUTS	64

/* Elements of a value ta_tflite_fold.c computes, at most. */
#define TA_TFL_FOLD_MAX		32

/*
 * TensorType values named by the shape checks (the constants they read:
 * axes, paddings, sizes...) and the types kernels assign (ta_tflite_type.c).
 */
enum {
	TA_TFL_FLOAT32 = 0, TA_TFL_INT32 = 2, TA_TFL_INT64 = 4,
	TA_TFL_BOOL = 6, TA_TFL_COMPLEX64 = 8,
};

/* A shape as computed: up to TA_TFL_MAX_DIMS dimensions. */
struct ta_tfl_shape {
	u32 rank;
	s64 d[TA_TFL_MAX_DIMS];
};

void ta_tfl_shape_of(const struct ta_tfl_tensor *t, struct ta_tfl_shape *s);
u64 ta_tfl_elems(const struct ta_tfl_tensor *t);
bool ta_tfl_const(struct ta_tfl *m, const struct ta_tfl_tensor *t, s64 *v,
		  u32 max, u32 *n);
bool ta_tfl_axis(s64 *axis, u32 rank);
int ta_tfl_option(struct ta_tfl *m, const struct ta_fbt *o, u64 type,
		  u32 id, s32 def, s64 *v, bool *have);
int ta_tfl_option_byte(struct ta_tfl *m, const struct ta_fbt *o, u64 type,
		       u32 id, s64 *v, bool *have);
int ta_tfl_option_bool(struct ta_tfl *m, const struct ta_fbt *o, u64 type,
		       u32 id, s64 *v);

/* ta_tflite_shape_index.c */
bool ta_tfl_index_rule(u32 code);
bool ta_tfl_index_all_outputs(u32 code);
bool ta_tfl_range(struct ta_tfl *m, const struct ta_tfl_tensor *t,
		  const s32 *in, u32 n_in, s64 *start, s64 *delta, s64 *count);
int ta_tfl_slice_vector(struct ta_tfl *m, const struct ta_fbt *o,
			const struct ta_tfl_tensor *t, const s32 *in, u32 n_in,
			s64 *first, s64 *step, u32 *count);
int ta_tfl_index_shape(struct ta_tfl *m, const struct ta_fbt *o, u32 code,
		       u32 k, const struct ta_tfl_tensor *t, const s32 *in,
		       u32 n_in, struct ta_tfl_shape *out);

#endif /* TA_TFLITE_SHAPE_H */
