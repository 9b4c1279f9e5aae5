// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_load.c - libtensorarena: a graph from a file (a TFLite or ONNX model,
 * a graph file, a trace CSV), read by the same readers as tactl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_client.h"
#include "ta_files.h"

/**
 * ta_input_build() - copy what a reader produced into a builder
 * @in: the input, in either form
 * @g: an empty builder; gets the same form, tensors, ops and op flags
 *
 * Return: 0 or what the builder's calls return (-EINVAL, -E2BIG, -ENOMEM).
 */
int ta_input_build(const struct ta_input *in, struct ta_graph_builder *g)
{
	const struct ta_graph *gr = &in->graph;
	u32 i;
	int r = 0;

	if (!in->is_graph) {
		for (i = 0; i < in->prob.n_buffers && r >= 0; i++)
			r = ta_graph_add_buffer(g, in->bufs[i].size,
						in->bufs[i].align,
						in->bufs[i].start,
						in->bufs[i].end);
		return r < 0 ? r : 0;
	}
	for (i = 0; i < gr->n_tensors && r >= 0; i++)
		r = ta_graph_add_tensor(g, gr->tensors[i].size,
					gr->tensors[i].align,
					gr->tensors[i].flags);
	for (i = 0; i < gr->n_ops && r >= 0; i++) {
		const struct ta_graph_op *op = &gr->ops[i];
		const u32 *refs = gr->refs + op->first_ref;

		r = ta_graph_add_op(g, refs, op->n_inputs, refs + op->n_inputs,
				    op->n_outputs);
		if (r >= 0 && op->flags)
			r = ta_graph_set_op_flags(g, (uint32_t)r, op->flags);
	}
	return r < 0 ? r : 0;
}

/* The file's own offsets (model metadata, a plan CSV), copied. */
static int ta_load_offsets(const struct ta_input *in,
			   struct ta_graph_builder *g)
{
	const u64 *fixed = ta_input_fixed_offsets(in);
	uint64_t *copy;
	u32 n = in->prob.n_buffers;

	if (!fixed)
		return 0;
	copy = malloc(sizeof(*copy) * (n ? n : 1));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, fixed, sizeof(*copy) * n);
	ta_graph_take_model_offsets(g, copy);
	return 0;
}

int ta_graph_load(const char *path, const struct ta_load_options *opts,
		  struct ta_graph_builder **out, char *err, size_t errlen)
{
	return ta_graph_load_dims(path, opts, NULL, 0, out, err, errlen);
}

int ta_graph_load_dims(const char *path, const struct ta_load_options *opts,
		       const struct ta_load_dim *dims, uint32_t n_dims,
		       struct ta_graph_builder **out, char *err, size_t errlen)
{
	static const struct ta_load_options defaults;
	struct ta_onnx_dim sizes[TA_ONNX_MAX_DIMS];
	struct ta_graph_builder *g;
	struct ta_input in;
	char msg[512] = "";
	u32 i;
	int ret;

	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (!path || (opts->flags & ~TA_LOAD_NO_CONSTANTS) ||
	    opts->reserved[0] || opts->reserved[1] ||
	    n_dims > TA_ONNX_MAX_DIMS || (n_dims && !dims))
		return -EINVAL;
	for (i = 0; i < n_dims; i++) {
		sizes[i].name = dims[i].name;
		sizes[i].value = dims[i].size;
	}
	ret = ta_input_read_dims(path, sizes, n_dims, &in, NULL, msg,
				 sizeof(msg));
	if (ret)
		goto report;
	if (opts->flags & TA_LOAD_NO_CONSTANTS) {
		ret = ta_input_drop_constants(&in);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s: no constants to drop: not a graph or model",
				 path);
			goto free_input;
		}
	}
	if (opts->align) {
		ret = ta_input_retune(&in, opts->align, NULL, msg, sizeof(msg));
		if (ret)
			goto free_input;
	}
	g = ta_graph_new();
	if (!g) {
		ret = -ENOMEM;
		goto free_input;
	}
	ret = ta_input_build(&in, g);
	if (!ret)
		ret = ta_load_offsets(&in, g);
	if (ret) {
		ta_graph_free(g);
		goto free_input;
	}
	/* the names, for ta_graph_tensor_find(): the builder takes them */
	if (in.ids && in.prob.n_buffers == ta_graph_tensor_count(g)) {
		ta_graph_take_names(g, in.ids);
		in.ids = NULL;
	}
	*out = g;
free_input:
	ta_input_free(&in);
report:
	if (ret && err && errlen)
		snprintf(err, errlen, "%s", msg[0] ? msg : strerror(-ret));
	return ret;
}
