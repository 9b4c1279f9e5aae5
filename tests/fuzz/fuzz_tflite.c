// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_tflite.c - libFuzzer target for the TFLite importer
 * (userspace/lib/ta_tflite.c, Documentation/tflite.md).
 *
 * The input is the model. ta_tflite_parse() must return 0 or a documented
 * errno (-EINVAL, -E2BIG with a message; -ENOMEM) and never read outside
 * the buffer (ASan: libFuzzer hands it a heap copy of exactly @size bytes).
 * An accepted model must give figures consistent with its graph (inlined
 * subgraphs, in-place views, OfflineMemoryAllocation offsets), its fixed
 * offsets must go through the fixed strategy, kept as they are in a plan
 * valid for the problem with them (where a fixed tensor may lie within
 * another: ta_contain.c), or be refused with -EINVAL,
 * a model rewritten with an OfflineMemoryAllocation
 * (ta_tflite_offline_image()) must read back as the same graph with
 * exactly the offsets written (or, with inlined subgraphs, none where
 * TFLite Micro would read two), and the graph must pass the same checks as
 * a graph file's (fuzz_files.h), including ta_graph_write() and a read
 * back.
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

/* OfflineMemoryAllocation: fixed offsets consistent, planned or refused. */
static void fuzz_fixed(struct ta_input *in, const struct ta_tflite_info *info)
{
	struct ta_problem p = in->prob;
	struct ta_result res;
	u64 *off;
	u32 i, n = 0;
	int ret;

	if (!in->has_fixed_offsets) {
		FUZZ_CHECK(!in->fixed_offsets && !info->n_fixed,
			   "fixed offsets without the flag");
		return;
	}
	FUZZ_CHECK(in->fixed_offsets, "has_fixed_offsets, no array");
	for (i = 0; i < in->graph.n_tensors; i++) {
		if (in->fixed_offsets[i] == TA_OFFSET_UNFIXED)
			continue;
		n++;
		/* as TFLite Micro: only for the tensors it plans */
		FUZZ_CHECK(in->fixed_offsets[i] <= INT32_MAX &&
			   in->tensors[i].size &&
			   !(in->tensors[i].flags & TA_TENSOR_CONSTANT),
			   "tensor %s: fixed offset %llu", in->ids[i],
			   (unsigned long long)in->fixed_offsets[i]);
	}
	FUZZ_CHECK(n == info->n_fixed, "%u fixed, info says %u", n,
		   info->n_fixed);
	off = calloc(in->graph.n_tensors + 1, sizeof(*off));
	FUZZ_CHECK(off, "out of memory");
	p.fixed = in->fixed_offsets;
	ret = ta_plan_solve(&p, TA_STRATEGY_FIXED, NULL, off, &res);
	FUZZ_CHECK(!ret || ret == -EINVAL || ret == -EOVERFLOW,
		   "fixed strategy: %d", ret);
	if (!ret) {
		/* p, not in->prob: containment is allowed with fixed offsets */
		FUZZ_CHECK(!ta_plan_validate(&p, off, res.height),
			   "fixed plan rejected");
		for (i = 0; i < in->graph.n_tensors; i++)
			FUZZ_CHECK(in->fixed_offsets[i] == TA_OFFSET_UNFIXED ||
				   off[i] == in->fixed_offsets[i],
				   "tensor %s: fixed at %llu, planned at %llu",
				   in->ids[i],
				   (unsigned long long)in->fixed_offsets[i],
				   (unsigned long long)off[i]);
	}
	free(off);
}

/*
 * Rewrite a model with offsets; it reads back the same graph with the
 * offsets of the tensors TFLite Micro plans (not constant, variable or of
 * size 0). With inlined subgraphs, an offset may come back
 * TA_OFFSET_UNFIXED: the writer writes -1 where TFLite Micro's two
 * readings of the entry would differ (ta_tflite_write.c).
 */
static void fuzz_rewrite(const u8 *data, size_t size, struct ta_input *in,
			 const struct ta_tflite_info *info)
{
	struct ta_input back;
	char err[256] = "";
	size_t len = 0;
	u8 *image = NULL;
	bool inlined = info->n_inlined > 0;
	u64 *off;
	u32 g;
	int ret;

	off = calloc(in->graph.n_tensors + 1, sizeof(*off));
	FUZZ_CHECK(off, "out of memory");
	for (g = 0; g < in->graph.n_tensors; g++)
		off[g] = g % 3 ? 16ULL * g : TA_OFFSET_UNFIXED;
	ret = ta_tflite_offline_image(data, size, "fuzz.tflite", off, in,
				      &image, &len, err, sizeof(err));
	/* refused: root fields it does not know, buffers past the file */
	FUZZ_CHECK(!ret || ret == -EINVAL || ret == -E2BIG,
		   "ta_tflite_offline_image: %d %s", ret, err);
	if (ret) {
		FUZZ_CHECK(err[0], "error %d without a message", ret);
		free(off);
		return;
	}
	ret = ta_tflite_parse(image, len, "rewritten.tflite", &back, NULL, err,
			      sizeof(err));
	FUZZ_CHECK(!ret, "rewritten model not read: %d %s", ret, err);
	FUZZ_CHECK(back.has_fixed_offsets &&
		   back.graph.n_tensors == in->graph.n_tensors &&
		   back.graph.n_ops == in->graph.n_ops &&
		   back.graph.n_refs == in->graph.n_refs &&
		   (!in->graph.n_refs ||
		    !memcmp(back.refs, in->refs,
			    sizeof(*in->refs) * in->graph.n_refs)) &&
		   (!in->graph.n_tensors ||
		    !memcmp(back.bufs, in->bufs,
			    sizeof(*in->bufs) * in->graph.n_tensors)),
		   "rewritten model is another graph");
	for (g = 0; g < in->graph.n_tensors; g++) {
		bool tflm = in->tensors[g].size &&
			    !(in->tensors[g].flags &
			      (TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT));
		u64 want = tflm ? off[g] : TA_OFFSET_UNFIXED;

		FUZZ_CHECK(back.fixed_offsets[g] == want ||
			   (inlined &&
			    back.fixed_offsets[g] == TA_OFFSET_UNFIXED),
			   "tensor %u: wrote %llu, read %llu", g,
			   (unsigned long long)off[g],
			   (unsigned long long)back.fixed_offsets[g]);
	}
	ta_input_free(&back);
	free(image);
	free(off);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ta_tflite_info info;
	struct ta_input in;
	char err[256] = "";
	u64 naive = 0, constant = 0;
	u32 i, nconst = 0, ninplace = 0;
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
		   info.n_ops <= in.graph.n_ops && info.n_subgraphs >= 1 &&
		   info.n_subgraphs == 1 + info.n_called + info.n_unreachable &&
		   info.n_inlined >= info.n_called &&
		   (info.n_inlined || info.n_used <= info.n_tensors),
		   "figures disagree with the graph");
	for (i = 0; i < in.graph.n_ops; i++) {
		const struct ta_graph_op *op = &in.graph.ops[i];

		if (!(op->flags & TA_OP_INPLACE))
			continue;
		ninplace++;
		FUZZ_CHECK(op->n_inputs && op->n_outputs &&
			   in.tensors[in.refs[op->first_ref]].size ==
			   in.tensors[in.refs[op->first_ref +
					      op->n_inputs]].size,
			   "op %u in place without a same-size input and output",
			   i);
	}
	FUZZ_CHECK(ninplace == info.n_inplace, "in-place ops disagree");
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
	fuzz_fixed(&in, &info);
	fuzz_rewrite(data, size, &in, &info);
	fuzz_check_graph_input(&in, &scratch);
	ta_input_free(&in);
	return 0;
}
