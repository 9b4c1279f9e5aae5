// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_onnx.c - libFuzzer target for the ONNX importer
 * (userspace/lib/ta_onnx.c, Documentation/onnx.md).
 *
 * The input is the model (a ModelProto). ta_onnx_parse() must return 0 or
 * a documented errno (-EINVAL, -E2BIG with a message "FILE: what", no
 * ":0:" line number; -ENOMEM) and never read outside the buffer (ASan: libFuzzer
 * hands it a heap copy of exactly @size bytes). An accepted model must
 * give figures consistent with its graph, in-place ops must join tensors
 * of one size, and the graph must pass the same checks as a graph file's
 * (fuzz_files.h), including ta_graph_write() and a read back. A model
 * with a named symbolic input dimension taken as 1 is read again with that
 * name sized 3 (ta_onnx_parse_dims()): accepted with it counted as sized
 * and the same checks, or refused with a message.
 */
#include "fuzz_files.h"

static struct fuzz_file scratch;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_open(&scratch, "fuzz-onnx-out");
	return 0;
}

/* The model again, its first symbolic dimension taken as 1 sized 3. */
static void fuzz_sized(const u8 *data, size_t size,
		       const struct ta_onnx_info *as_one)
{
	struct ta_onnx_dim dim = { as_one->unbound, 3 };
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	int ret;

	/* a name cut to fit or made printable is refused as no input's */
	ret = ta_onnx_parse_dims(data, size, "fuzz.onnx", &dim, 1, &in, &info,
				 err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -ENOMEM, "ta_onnx_parse_dims: %d", ret);
	if (ret) {
		FUZZ_CHECK(!strncmp(err, "fuzz.onnx: ", 11), "message '%s'",
			   err);
		return;
	}
	FUZZ_CHECK(info.n_bound >= 1 &&
		   info.n_bound + info.n_symbolic == as_one->n_symbolic,
		   "sized %u + as 1 %u, %u symbolic", info.n_bound,
		   info.n_symbolic, as_one->n_symbolic);
	FUZZ_CHECK(info.n_tensors == in.graph.n_tensors &&
		   info.n_nodes == in.graph.n_ops, "figures disagree with the graph");
	fuzz_check_graph_input(&in, &scratch);
	ta_input_free(&in);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ta_onnx_info info;
	struct ta_input in;
	char err[512] = "";
	u64 naive = 0, constant = 0;
	u32 i, nconst = 0, inplace = 0;
	int ret;

	ret = ta_onnx_parse(data, size, "fuzz.onnx", &in, &info, err,
			    sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -ENOMEM, "ta_onnx_parse: %d", ret);
	if (ret) {
		FUZZ_CHECK(err[0], "error %d without a message", ret);
		/* "FILE: what", never "FILE:0: what" */
		FUZZ_CHECK(!strncmp(err, "fuzz.onnx: ", 11), "message '%s'",
			   err);
		return 0;
	}
	FUZZ_CHECK(info.n_tensors == in.graph.n_tensors &&
		   info.n_nodes == in.graph.n_ops &&
		   info.n_folded <= info.n_nodes, "figures disagree with the graph");
	for (i = 0; i < in.graph.n_tensors; i++) {
		naive += in.tensors[i].size;
		if (in.tensors[i].flags & TA_TENSOR_CONSTANT) {
			nconst++;
			constant += in.tensors[i].size;
		}
		FUZZ_CHECK(in.ids[i] && in.ids[i][0] && in.notes && in.notes[i],
			   "tensor %u without id or note", i);
		FUZZ_CHECK(!strpbrk(in.ids[i], " \t\n\r#") &&
			   strcmp(in.ids[i], "->"), "id '%s' is not a token",
			   in.ids[i]);
	}
	for (i = 0; i < in.graph.n_ops; i++) {
		const struct ta_graph_op *op = &in.ops[i];

		FUZZ_CHECK(in.op_names[i], "op %u without a name", i);
		if (!op->flags)
			continue;
		FUZZ_CHECK(op->flags == TA_OP_INPLACE && op->n_inputs &&
			   op->n_outputs == 1, "op %u: flags %u", i, op->flags);
		FUZZ_CHECK(in.tensors[in.refs[op->first_ref]].size ==
			   in.tensors[in.refs[op->first_ref + op->n_inputs]].size,
			   "op %u in place between sizes that differ", i);
		FUZZ_CHECK(!(in.tensors[in.refs[op->first_ref]].flags &
			     TA_TENSOR_CONSTANT), "op %u in place on a constant", i);
		inplace++;
	}
	FUZZ_CHECK(inplace == info.n_inplace, "in-place count");
	FUZZ_CHECK(naive == info.naive_bytes && constant == info.constant_bytes &&
		   nconst == info.n_constants, "byte figures disagree");
	fuzz_check_graph_input(&in, &scratch);
	ta_input_free(&in);
	if (info.n_symbolic && info.unbound[0])
		fuzz_sized(data, size, &info);
	return 0;
}
