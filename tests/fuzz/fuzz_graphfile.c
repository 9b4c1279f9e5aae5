// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_graphfile.c - libFuzzer target for the graph-file reader
 * (userspace/lib/ta_graphfile.c, Documentation/graph-format.md).
 *
 * The input is the file. ta_graph_read() must return 0 or a documented
 * errno (-EINVAL, -E2BIG with a message; -ENOMEM); an accepted graph must
 * plan validly, survive ta_graph_write() and a second read unchanged, and
 * ta_input_drop_constants().
 */
#include "fuzz_files.h"

static struct fuzz_file in_file, scratch;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_open(&in_file, "fuzz-graph");
	fuzz_file_open(&scratch, "fuzz-graph-out");
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ta_input in;
	char err[256] = "";
	int ret;

	fuzz_file_set(&in_file, data, size);
	ret = ta_graph_read(in_file.path, &in, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -ENOMEM, "ta_graph_read: %d", ret);
	if (ret) {
		FUZZ_CHECK(err[0], "error %d without a message", ret);
		return 0;
	}
	fuzz_check_graph_input(&in, &scratch);
	ta_input_free(&in);
	return 0;
}
