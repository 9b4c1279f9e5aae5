// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_input.c - which reader reads a file (ta_input_read()): a trace CSV
 * (ta_trace.c), a graph file (ta_graphfile.c), a TFLite (ta_tflite.c) or
 * ONNX (ta_onnx.c) model; and the offsets an input fixes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"

const u64 *ta_input_fixed_offsets(const struct ta_input *in)
{
	if (in->fixed_offsets)
		return in->fixed_offsets;
	return in->has_offset ? in->in_offsets : NULL;
}

/**
 * ta_input_read() - read a trace CSV, a graph file, a TFLite or ONNX model
 * @path: the file; a graph file's first line is "tensorarena-graph 1", a
 *	  TFLite model has "TFL3" at bytes 4..7 or a name ending in ".tflite"
 *	  (so that a broken one gets the TFLite reader's message); an ONNX
 *	  model (a protobuf, which has no magic number) is known by its name
 *	  ending in ".onnx"
 * @in: out; free with ta_input_free()
 * @err: out, a message on a format error
 * @errlen: bytes at @err
 *
 * Return: as ta_trace_read(), ta_graph_read(), ta_tflite_read() or
 * ta_onnx_read().
 */
int ta_input_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen)
{
	return ta_input_read_dims(path, NULL, 0, in, NULL, err, errlen);
}

/**
 * ta_input_read_dims() - ta_input_read() with sizes for symbolic dimensions
 * @path: the file, as for ta_input_read()
 * @dims: the sizes of an ONNX model's symbolic dimensions (struct ta_onnx_dim)
 * @n_dims: how many; 0 for none
 * @in: out; free with ta_input_free()
 * @onnx: out, what the ONNX reader saw (all zero for another form), or NULL
 * @err: out, a message on a format error
 * @errlen: bytes at @err
 *
 * Return: as ta_input_read(); -EINVAL when @n_dims is not 0 and @path is
 * not an ONNX model.
 */
int ta_input_read_dims(const char *path, const struct ta_onnx_dim *dims,
		       u32 n_dims, struct ta_input *in,
		       struct ta_onnx_info *onnx, char *err, size_t errlen)
{
	char head[32] = "";
	FILE *f;
	size_t got;
	bool tflite;

	if (onnx)
		memset(onnx, 0, sizeof(*onnx));
	f = fopen(path, "rb");
	if (!f) {
		memset(in, 0, sizeof(*in));
		ta_err(err, errlen, path, 0, "%s", strerror(errno));
		return -errno;
	}
	got = fread(head, 1, sizeof(head) - 1, f);
	head[got] = 0;
	fclose(f);
	tflite = (got >= 8 && !memcmp(head + 4, "TFL3", 4)) ||
		 ta_is_tflite_name(path);
	if (!tflite && ta_is_onnx_name(path))
		return ta_onnx_read_dims(path, dims, n_dims, in, onnx, err,
					 errlen);
	if (n_dims) {
		memset(in, 0, sizeof(*in));
		ta_err(err, errlen, path, 0,
		       "sizes of symbolic dimensions are for an ONNX model (a file named *.onnx) only");
		return -EINVAL;
	}
	if (tflite)
		return ta_tflite_read(path, in, NULL, err, errlen);
	if (!strncmp(head, "tensorarena-graph", 17))
		return ta_graph_read(path, in, err, errlen);
	return ta_trace_read(path, in, err, errlen);
}
