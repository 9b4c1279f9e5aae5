// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_draw.c - tactl draw PLAN.csv --svg OUT.svg: draw a plan that was
 * written with `tactl plan -o` (or any trace with an offset column), e.g.
 * one made in the module on another machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "tactl.h"

static const char draw_usage[] =
	"usage: tactl draw PLAN.csv --svg OUT.svg\n"
	"\n"
	"Draws a plan CSV (tactl plan -o, perhaps made on another machine, or\n"
	"any trace with an offset column) as SVG, after checking that it is a\n"
	"valid plan, and prints its height and lower bound. A tiered plan (tactl\n"
	"plan --sram: a tier column) is drawn as two panels, SRAM above DRAM.\n"
	"\n"
	"  --svg OUT.svg   the SVG file to write (required)\n";

/*
 * A tiered plan (a tier column): each tier's height, every tier checked
 * (ta_tier_check(), the fast tier's capacity its height) and the arena's
 * lower bound (of the rows in it). 0 or -errno.
 */
static int draw_tiered(struct ta_input *in, u64 *slow_h, u64 *fast_h,
		       u64 *lb)
{
	u32 i, k = 0, n = in->prob.n_buffers;
	struct ta_tier_request rq = { 0 };
	struct ta_tier_conflict c;
	struct ta_problem sub = { 0 };
	struct ta_buffer *b;
	u32 *map, *alias;
	int ret;

	*slow_h = *fast_h = 0;
	for (i = 0; i < n; i++) {
		u64 end = in->in_offsets[i] + in->bufs[i].size;
		u64 *h = in->in_tiers[i] == TA_TIER_FAST ? fast_h : slow_h;

		if (end > *h)
			*h = end;
	}
	rq.capacity = *fast_h;
	ret = ta_tier_check(&in->prob, &rq, in->in_tiers, in->in_offsets,
			    *fast_h, *slow_h, NULL, &c);
	if (ret)
		return ret;
	b = calloc(n + 1, sizeof(*b));
	map = calloc(n + 1, sizeof(*map));
	alias = calloc(n + 1, sizeof(*alias));
	if (!b || !map || !alias) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (in->in_tiers[i] == TA_TIER_SLOW) {
			map[i] = k;
			b[k++] = in->bufs[i];
		}
	/* a class lives in one tier (checked): its root is in this one */
	for (i = 0; in->alias && i < n; i++)
		if (in->in_tiers[i] == TA_TIER_SLOW)
			alias[map[i]] = map[in->alias[i]];
	sub.n_buffers = k;
	sub.buffers = b;
	sub.alias = in->alias ? alias : NULL;
	ret = ta_problem_lower_bound(&sub, lb);
out:
	free(b);
	free(map);
	free(alias);
	return ret;
}

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
	if (in.in_tiers) {
		ret = draw_tiered(&in, &height, &info.fast_height, &lb);
		info.tiers = in.in_tiers;
		info.fast_capacity = info.fast_height;
	} else {
		ret = ta_plan_validate(&prob, in.in_offsets, height);
		if (!ret)
			ret = ta_problem_lower_bound(&prob, &lb);
	}
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
		printf("%s: height %llu, lower bound %llu", file,
		       (unsigned long long)height, (unsigned long long)lb);
	if (!ret && in.in_tiers)
		printf(", SRAM height %llu",
		       (unsigned long long)info.fast_height);
	if (!ret)
		printf(" -> %s\n", svg);
	ta_input_free(&in);
	return ret ? 1 : 0;
}
