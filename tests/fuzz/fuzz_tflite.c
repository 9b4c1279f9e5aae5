// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_tflite.c - libFuzzer target for the TFLite importer
 * (userspace/lib/ta_tflite.c, Documentation/tflite.md).
 *
 * The input is the model. ta_tflite_parse() must return 0 or a documented
 * errno (-EINVAL, -E2BIG with a message; -ENOMEM) and never read outside
 * the buffer (ASan: libFuzzer hands it a heap copy of exactly @size bytes).
 * An accepted model must give figures consistent with its graph, and the
 * graph must pass the same checks as a graph file's (fuzz_files.h),
 * including ta_graph_write() and a read back.
 */
#include "fuzz_files.h"

static struct fuzz_file scratch;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_open(&scratch, "fuzz-tflite-out");
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ta_tflite_info info;
	struct ta_input in;
	char err[256] = "";
	u64 naive = 0, constant = 0;
	u32 i, nconst = 0;
	int ret;

	ret = ta_tflite_parse(data, size, "fuzz.tflite", &in, &info, err,
			      sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -ENOMEM, "ta_tflite_parse: %d", ret);
	if (ret) {
		FUZZ_CHECK(err[0], "error %d without a message", ret);
		return 0;
	}
	FUZZ_CHECK(info.n_used == in.graph.n_tensors &&
		   info.n_used <= info.n_tensors && info.n_ops == in.graph.n_ops &&
		   info.n_subgraphs >= 1, "figures disagree with the graph");
	for (i = 0; i < in.graph.n_tensors; i++) {
		naive += in.tensors[i].size;
		if (in.tensors[i].flags & TA_TENSOR_CONSTANT) {
			nconst++;
			constant += in.tensors[i].size;
		}
		FUZZ_CHECK(in.ids[i] && in.notes && in.notes[i],
			   "tensor %u without id or note", i);
	}
	for (i = 0; i < in.graph.n_ops; i++)
		FUZZ_CHECK(in.op_names[i], "op %u without a name", i);
	FUZZ_CHECK(naive == info.naive_bytes && constant == info.constant_bytes &&
		   nconst == info.n_constants, "byte figures disagree");
	fuzz_check_graph_input(&in, &scratch);
	ta_input_free(&in);
	return 0;
}
