// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_import.c - tactl import: read a model (TFLite, ONNX) or any file tactl
 * plan reads, and write it as a graph file (Documentation/graph-format.md).
 *
 *	tactl import MODEL.tflite|MODEL.onnx [-o GRAPH] [--no-constants] [--quiet]
 *		     [--align N] [--exportable L] [--dim NAME=SIZE]...
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_files.h"
#include "tactl.h"

static void import_usage(FILE *out)
{
	fprintf(out,
		"usage: tactl import MODEL.tflite|MODEL.onnx [-o GRAPH] [--no-constants]\n"
		"                    [--quiet] [--align N] [--exportable NAME[,NAME...]]\n"
		"                    [--dim NAME=SIZE]...\n"
		"\n"
		"Reads a TFLite model (subgraph 0 with the subgraphs its IF, WHILE\n"
		"and CALL_ONCE ops call inlined; Documentation/tflite.md), an ONNX\n"
		"model (a file named *.onnx; Documentation/onnx.md) or a graph file and\n"
		"writes it as a graph file (Documentation/graph-format.md): one tensor\n"
		"per TFLite tensor the operators use, named by its TFLite index, or per\n"
		"ONNX value a node uses, named by its ONNX name; 64-byte aligned\n"
		"(TFLite's kDefaultTensorAlignment; --align); the operators or nodes in\n"
		"execution order. A summary goes to stderr.\n"
		"\n"
		"  -o GRAPH        the graph file (default '-': stdout)\n"
		"  --no-constants  leave out the constant tensors (weights, biases)\n"
		"  --quiet         no summary\n"
		"  --align N       align every tensor to N bytes instead\n"
		"  --exportable L  mark the tensors named in L (comma-separated)\n"
		"                  exportable (tactl plan --exportable)\n"
		"  --dim NAME=SIZE an ONNX model: the size of the graph inputs'\n"
		"                  symbolic dimension NAME (a dim_param, such as a\n"
		"                  batch N) at which the model will run, or INPUT[AXIS]\n"
		"                  for one without a name; one not given is taken as\n"
		"                  1, and the summary names it\n");
}

/* What the TFLite reader planned, in words that cannot be misread. */
static void import_print_tflite(const char *file,
				const struct ta_tflite_info *info,
				const struct ta_input *in)
{
	fprintf(stderr, "%s: subgraphs: %u (", file, info->n_subgraphs);
	if (info->n_subgraphs == 1)
		fprintf(stderr, "planned: the main one");
	else
		fprintf(stderr, "%splanned: main + %u called, inlined as %u cop%s",
			info->n_unreachable ? "" : "all ", info->n_called,
			info->n_inlined, info->n_inlined == 1 ? "y" : "ies");
	if (info->n_unreachable)
		fprintf(stderr, "; %u not reachable from subgraph 0, not planned",
			info->n_unreachable);
	fprintf(stderr, ")\n");
	fprintf(stderr,
		"%s: subgraph 0: %u tensors, %u ops; graph: %u tensors (%u constant, %u variable), %u ops, %u in-place view%s\n",
		file, info->n_tensors, info->n_ops, info->n_used,
		info->n_constants, info->n_variables, in->graph.n_ops,
		info->n_inplace, info->n_inplace == 1 ? "" : "s");
	fprintf(stderr,
		"%s: output shapes checked against what TFLite's kernels compute: %u op%s (the others' taken as recorded)\n",
		file, info->n_shape_checked,
		info->n_shape_checked == 1 ? "" : "s");
	if (info->n_folded)
		fprintf(stderr,
			"%s: values ops compute from shapes and constants: %u tensor%s, read by those checks as constants\n",
			file, info->n_folded, info->n_folded == 1 ? "" : "s");
	if (in->has_fixed_offsets)
		fprintf(stderr,
			"%s: OfflineMemoryAllocation: %u tensors at fixed offsets, %u planned around them\n",
			file, info->n_fixed, info->n_used - info->n_fixed);
	if (info->n_dynamic)
		fprintf(stderr,
			"%s: %u tensor%s with a dimension left open (shape_signature -1), planned at the shape the model records (TFLite's default); an application that resizes an input makes them larger: convert the model at that size\n",
			file, info->n_dynamic, info->n_dynamic == 1 ? "" : "s");
}

int tactl_cmd_import(int argc, char **argv)
{
	const char *file = NULL, *out = "-";
	struct ta_tflite_info info;
	struct ta_onnx_info oinfo;
	bool no_const = false, quiet = false, tfl = false, onnx = false;
	const char *exportable = NULL;
	struct ta_onnx_dim dims[TA_ONNX_MAX_DIMS];
	u32 n_dims = 0;
	u64 align = 0;
	struct ta_input in;
	char err[512] = "";
	u64 lb = 0;
	int i, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			import_usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(a, "--no-constants")) {
			no_const = true;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--align") && i + 1 < argc) {
			if (tactl_parse_num("import", a, argv[++i], 1, U64_MAX,
					    &align))
				return 2;
		} else if (!strcmp(a, "--exportable") && i + 1 < argc) {
			exportable = argv[++i];
		} else if (!strcmp(a, "--dim") && i + 1 < argc) {
			if (tactl_parse_dim("import", argv[++i], dims, &n_dims))
				return 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tactl import: bad option '%s'\n", a);
			import_usage(stderr);
			return 2;
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "tactl import: one MODEL only\n");
			return 2;
		}
	}
	if (!file) {
		import_usage(stderr);
		return 2;
	}
	if (tactl_check_output(out))
		return 1;
	{
		FILE *f = fopen(file, "rb");
		char head[8];

		if (f) {
			tfl = fread(head, 1, 8, f) == 8 &&
			      !memcmp(head + 4, "TFL3", 4);
			fclose(f);
		}
	}
	tfl = tfl || ta_is_tflite_name(file);
	onnx = !tfl && ta_is_onnx_name(file);
	if (tfl && n_dims) {
		fprintf(stderr, "tactl import: %s: --dim is for an ONNX model: a TFLite model's dimensions have no names (convert it at the size it will run)\n",
			file);
		return 2;
	}
	if (tfl)
		ret = ta_tflite_read(file, &in, &info, err, sizeof(err));
	else if (onnx)
		ret = ta_onnx_read_dims(file, dims, n_dims, &in, &oinfo, err,
					sizeof(err));
	else
		ret = ta_input_read_dims(file, dims, n_dims, &in, NULL, err,
					 sizeof(err));
	if (ret) {
		fprintf(stderr, "tactl import: %s\n",
			err[0] ? err : strerror(-ret));
		return 1;
	}
	if (!in.is_graph) {
		fprintf(stderr, "tactl import: %s: a trace has no graph to write\n",
			file);
		ta_input_free(&in);
		return 1;
	}
	if (no_const && (ret = ta_input_drop_constants(&in))) {
		fprintf(stderr, "tactl import: %s: %s\n", file, strerror(-ret));
		ta_input_free(&in);
		return 1;
	}
	if ((align || exportable) &&
	    (ret = ta_input_retune(&in, align, exportable, err, sizeof(err)))) {
		fprintf(stderr, "tactl import: %s: %s\n", file,
			err[0] ? err : strerror(-ret));
		ta_input_free(&in);
		return 2;
	}
	ret = ta_graph_write(out, &in);
	if (ret) {
		fprintf(stderr, "tactl import: %s: %s\n", out, strerror(-ret));
		ta_input_free(&in);
		return 1;
	}
	if (!quiet) {
		ta_problem_lower_bound(&in.prob, &lb);
		if (tfl)
			import_print_tflite(file, &info, &in);
		if (onnx)
			fprintf(stderr,
				"%s: ONNX IR %llu, opset %u: %u nodes (%u folded as constant, %u in place), %u initializers, %u graph inputs, %u outputs, %u value_info; %u tensors used (%u constant)%s\n",
				file, (unsigned long long)oinfo.ir_version,
				oinfo.opset, oinfo.n_nodes, oinfo.n_folded,
				oinfo.n_inplace, oinfo.n_initializers,
				oinfo.n_graph_inputs, oinfo.n_graph_outputs,
				oinfo.n_value_info, oinfo.n_tensors,
				oinfo.n_constants,
				oinfo.n_bound ?
				"; symbolic input dimensions sized by --dim" :
				"");
		if (onnx && oinfo.n_symbolic)
			tactl_print_unsized(file, &oinfo);
		fprintf(stderr, "%s: wrote %u tensors, %u ops; lower bound %llu bytes\n",
			out, in.graph.n_tensors, in.graph.n_ops,
			(unsigned long long)lb);
	}
	ta_input_free(&in);
	return 0;
}
