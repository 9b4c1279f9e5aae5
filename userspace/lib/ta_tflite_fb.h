/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_tflite_fb.h - internal to the TFLite importer (ta_tflite*.c) and its
 * OfflineMemoryAllocation writer (ta_tflite_write.c): the checked
 * FlatBuffer reads (ta_tflite_fb.c) and the TFLite schema numbers both
 * use. Every read is checked against the file size before it happens; a
 * failed check is -EINVAL with "corrupt TFLite file at byte N: what" in
 * the message.
 */
#ifndef TA_TFLITE_FB_H
#define TA_TFLITE_FB_H

#include "ta_files.h"

/* TFLite schema field numbers (vtable slots), schema.fbs of TensorFlow. */
enum {
	TA_MODEL_VERSION = 0, TA_MODEL_OPCODES = 1, TA_MODEL_SUBGRAPHS = 2,
	TA_MODEL_DESCRIPTION = 3, TA_MODEL_BUFFERS = 4,
	TA_MODEL_METADATA_BUFFER = 5, TA_MODEL_METADATA = 6,
	TA_MODEL_SIGNATURES = 7, TA_MODEL_FIELDS = 8,
	TA_SG_TENSORS = 0, TA_SG_INPUTS = 1, TA_SG_OUTPUTS = 2, TA_SG_OPS = 3,
	TA_T_SHAPE = 0, TA_T_TYPE = 1, TA_T_BUFFER = 2, TA_T_NAME = 3,
	TA_T_VARIABLE = 5, TA_T_SIGNATURE = 7,
	TA_OP_OPCODE = 0, TA_OP_INPUTS = 1, TA_OP_OUTPUTS = 2,
	TA_OP_OPTIONS_TYPE = 3, TA_OP_OPTIONS = 4,
	TA_OC_DEPRECATED = 0, TA_OC_CUSTOM = 1, TA_OC_BUILTIN = 3,
	TA_BUF_DATA = 0, TA_BUF_OFFSET = 1, TA_BUF_SIZE = 2,
	TA_META_NAME = 0, TA_META_BUFFER = 1,
};

/* TFLite Micro's metadata entry of an offline memory plan. */
#define TA_TFL_OFFLINE_NAME	"OfflineMemoryAllocation"
/* Its int32 header: version, subgraph, number of offsets. */
#define TA_TFL_OFFLINE_HEADER	3
#define TA_TFL_OFFLINE_VERSION	1

/* struct ta_fb - the file and where to report */
struct ta_fb {
	const u8 *p;
	u64 n;
	const char *path;
	char *err;
	size_t errlen;
};

/* A table: its position, its vtable and the sizes both declare. */
struct ta_fbt {
	u64 pos;
	u64 vt;
	u32 vtsize;
	u32 tsize;
};

/* A vector: its element count and where element 0 starts. */
struct ta_fbv {
	u64 len;
	u64 data;
};

int ta_fb_bad(struct ta_fb *fb, u64 at, const char *what);
u32 ta_fb_u32(const struct ta_fb *fb, u64 pos);
int ta_fb_deref(struct ta_fb *fb, u64 pos, u64 *to);
int ta_fb_table(struct ta_fb *fb, u64 pos, struct ta_fbt *t);
int ta_fb_field(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		u64 *at);
int ta_fb_scalar(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		 u64 def, u64 *v);
int ta_fb_vector(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 esize,
		 struct ta_fbv *v);
int ta_fb_vtable(struct ta_fb *fb, const struct ta_fbv *v, u64 i,
		 struct ta_fbt *t);
/* The model's root table, after checking the "TFL3" identifier. */
int ta_fb_root(struct ta_fb *fb, struct ta_fbt *root);

#endif /* TA_TFLITE_FB_H */
