// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_trace.c - libFuzzer target for the trace CSV reader
 * (userspace/lib/ta_trace.c) and its writer.
 *
 * The input is the file, read through ta_input_read(), the dispatcher
 * tactl uses (a file that starts like a graph file or a TFLite model goes
 * to those readers and gets fuzz_files.h's checks). ta_trace_read() must
 * return 0 or a documented
 * errno (-EINVAL, -E2BIG with a message; -ENOMEM). An accepted trace is
 * planned (freelist; the problem itself may still be malformed: -EINVAL,
 * -E2BIG), a plan must validate, and the plan written as CSV and read back
 * must give the same buffers, the same alias classes, the same tier column
 * (when the trace had one: a tiered plan's) and, in its offset column, the
 * plan.
 */
#include "fuzz_files.h"

static struct fuzz_file in_file, scratch;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_open(&in_file, "fuzz-trace");
	fuzz_file_open(&scratch, "fuzz-trace-out");
	return 0;
}

static void fuzz_round_trip(const struct ta_input *in, const u64 *offsets)
{
	struct ta_input back;
	char err[256] = "";
	u32 i;
	int ret;

	ret = ta_plan_write_csv_tiered(scratch.path, in, offsets, in->in_tiers);
	FUZZ_CHECK(ret == 0, "ta_plan_write_csv: %d", ret);
	ret = ta_trace_read(scratch.path, &back, err, sizeof(err));
	FUZZ_CHECK(ret == 0, "written plan not read back: %d %s", ret, err);
	FUZZ_CHECK(back.prob.n_buffers == in->prob.n_buffers && back.has_offset,
		   "%u buffers read back of %u", back.prob.n_buffers,
		   in->prob.n_buffers);
	for (i = 0; i < in->prob.n_buffers; i++) {
		FUZZ_CHECK(!memcmp(&back.bufs[i], &in->bufs[i],
				   sizeof(in->bufs[i])), "buffer %u differs", i);
		FUZZ_CHECK(!strcmp(back.ids[i], in->ids[i]),
			   "buffer %u: id '%s' read back as '%s'", i,
			   in->ids[i], back.ids[i]);
		FUZZ_CHECK(back.in_offsets[i] == offsets[i],
			   "buffer %u: offset differs", i);
		FUZZ_CHECK((back.alias ? back.alias[i] : i) ==
			   (in->alias ? in->alias[i] : i),
			   "buffer %u: alias class differs", i);
		FUZZ_CHECK(!in->in_tiers ||
			   (back.in_tiers && back.in_tiers[i] == in->in_tiers[i]),
			   "buffer %u: tier differs", i);
	}
	ta_input_free(&back);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ta_input in;
	struct ta_result res;
	char err[256] = "";
	u64 *offsets;
	u32 n;
	int ret;

	fuzz_file_set(&in_file, data, size);
	ret = ta_input_read(in_file.path, &in, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -ENOMEM, "ta_input_read: %d", ret);
	if (ret) {
		FUZZ_CHECK(err[0], "error %d without a message", ret);
		return 0;
	}
	if (in.is_graph) {
		fuzz_check_graph_input(&in, &scratch);
		ta_input_free(&in);
		return 0;
	}
	FUZZ_CHECK(!in.is_graph && !in.prob.graph && in.prob.buffers == in.bufs,
		   "not a trace-form input");
	n = in.prob.n_buffers;
	offsets = calloc(n ? n : 1, sizeof(*offsets));
	FUZZ_CHECK(offsets, "out of memory");
	ret = ta_plan_solve(&in.prob, TA_STRATEGY_FREELIST, NULL, offsets, &res);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG ||
		   ret == -EOVERFLOW, "freelist: %d", ret);
	if (!ret) {
		FUZZ_CHECK(!ta_plan_validate(&in.prob, offsets, res.height),
			   "freelist plan rejected");
		fuzz_round_trip(&in, offsets);
	}
	free(offsets);
	ta_input_free(&in);
	return 0;
}
