// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_draw.c - tactl draw PLAN.csv --svg OUT.svg: draw a plan that was
 * written with `tactl plan -o` (or any trace with an offset column), e.g.
 * one made in the module on another machine.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_files.h"
#include "tactl.h"

static const char draw_usage[] =
	"usage: tactl draw PLAN.csv --svg OUT.svg\n"
	"\n"
	"Draws a plan CSV (tactl plan -o, perhaps made on another machine, or\n"
	"any trace with an offset column) as SVG, after checking that it is a\n"
	"valid plan, and prints its height and lower bound.\n"
	"\n"
	"  --svg OUT.svg   the SVG file to write (required)\n";

int tactl_cmd_draw(int argc, char **argv)
{
	struct ta_svg_info info = { .strategy = "from file" };
	const char *file = NULL, *svg = NULL;
	struct ta_problem prob;
	struct ta_input in;
	char err[512] = "";
	u64 height = 0, lb = 0;
	u32 i;
	int ret;

	for (i = 1; i < (u32)argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(draw_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--svg") && i + 1 < (u32)argc) {
			svg = argv[++i];
		} else if (!file && argv[i][0] != '-') {
			file = argv[i];
		} else {
			file = NULL, i = argc;
		}
	}
	if (!file || !svg) {
		fputs(draw_usage, stderr);
		return 2;
	}
	if (tactl_check_output(svg))
		return 1;
	ret = ta_trace_read(file, &in, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tactl draw: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	if (!in.has_offset) {
		fprintf(stderr, "tactl draw: %s has no offset column\n", file);
		ta_input_free(&in);
		return 1;
	}
	for (i = 0; i < in.prob.n_buffers; i++)
		if (in.in_offsets[i] + in.bufs[i].size > height)
			height = in.in_offsets[i] + in.bufs[i].size;
	/* the CSV's offsets are fixed ones: tensors may nest (planner.md) */
	prob = in.prob;
	prob.fixed = in.in_offsets;
	ret = ta_plan_validate(&prob, in.in_offsets, height);
	if (!ret)
		ret = ta_problem_lower_bound(&prob, &lb);
	if (ret) {
		fprintf(stderr, "tactl draw: %s: not a valid plan (%s)\n", file,
			strerror(-ret));
		ta_input_free(&in);
		return 1;
	}
	info.title = file;
	info.height = height;
	info.lower_bound = lb;
	ret = ta_plan_write_svg(svg, &in, in.in_offsets, &info);
	if (ret)
		fprintf(stderr, "tactl draw: %s: %s\n", svg, strerror(-ret));
	else
		printf("%s: height %llu, lower bound %llu -> %s\n", file,
		       (unsigned long long)height, (unsigned long long)lb, svg);
	ta_input_free(&in);
	return ret ? 1 : 0;
}
