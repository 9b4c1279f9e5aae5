// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_svg.c - draw a plan as an SVG picture for a browser.
 *
 * Time runs across (steps), addresses up (bytes). Every non-empty buffer is
 * one rectangle whose tooltip (<title>) gives its id, lifetime, size and
 * offset. A dashed line marks the lower bound, and the legend on top gives
 * the strategy, height, lower bound and planning time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_files.h"

#define SVG_W		1200.0
#define SVG_H		700.0
#define SVG_LEFT	110.0
#define SVG_TOP		70.0
#define SVG_BOTTOM	40.0
#define SVG_RIGHT	20.0

static void svg_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/**
 * ta_plan_write_svg() - draw a plan
 * @path: the file
 * @in: the problem
 * @offsets: the plan
 * @info: legend figures
 *
 * Return: 0 or -errno.
 */
int ta_plan_write_svg(const char *path, const struct ta_input *in,
		      const u64 *offsets, const struct ta_svg_info *info)
{
	FILE *f = fopen(path, "w");
	u32 i, steps = 1;
	double top, xs, ys, ylb, ratio;
	int ret = 0;

	if (!f)
		return -errno;
	for (i = 0; i < in->prob.n_buffers; i++)
		if (in->bufs[i].end > steps)
			steps = in->bufs[i].end;
	top = (double)(info->height > info->lower_bound ? info->height :
		       info->lower_bound);
	if (top <= 0)
		top = 1;
	xs = SVG_W / steps;
	ys = SVG_H / top;
	ratio = info->lower_bound ?
		(double)info->height / (double)info->lower_bound : 1.0;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"13\">\n",
		SVG_LEFT + SVG_W + SVG_RIGHT, SVG_TOP + SVG_H + SVG_BOTTOM);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">",
		SVG_LEFT);
	svg_text(f, info->title);
	fprintf(f, "</text>\n<text x=\"%.0f\" y=\"44\">strategy %s: height %llu, "
		"lower bound %llu (ratio %.4f, +%.2f %%), %u buffers, %.3f ms</text>\n",
		SVG_LEFT, info->strategy, (unsigned long long)info->height,
		(unsigned long long)info->lower_bound, ratio,
		(ratio - 1) * 100, in->prob.n_buffers,
		(double)info->time_ns / 1e6);
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#f6f6f6\" stroke=\"#999\"/>\n",
		SVG_LEFT, SVG_TOP, SVG_W, SVG_H);
	fprintf(f, "<g stroke=\"#333\" stroke-width=\"0.3\">\n");
	for (i = 0; i < in->prob.n_buffers; i++) {
		const struct ta_buffer *b = &in->bufs[i];
		double x = SVG_LEFT + b->start * xs;
		double w = (b->end - b->start) * xs;
		double h = (double)b->size * ys;
		double y = SVG_TOP + SVG_H - (double)(offsets[i] + b->size) * ys;

		if (!b->size)
			continue;
		fprintf(f, "<rect x=\"%.2f\" y=\"%.3f\" width=\"%.2f\" height=\"%.3f\" "
			"fill=\"hsl(%u,65%%,62%%)\"><title>",
			x, y, w, h, (i * 137U) % 360U);
		svg_text(f, in->ids[i]);
		fprintf(f, ": steps [%u, %u), size %llu, align %llu, offset %llu</title></rect>\n",
			b->start, b->end, (unsigned long long)b->size,
			(unsigned long long)b->align,
			(unsigned long long)offsets[i]);
	}
	fprintf(f, "</g>\n");
	ylb = SVG_TOP + SVG_H - (double)info->lower_bound * ys;
	fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"red\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n",
		SVG_LEFT, SVG_LEFT + SVG_W, ylb, ylb);
	fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\" fill=\"red\">"
		"lower bound</text>\n", SVG_LEFT - 6, ylb + 4);
	fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">%llu</text>\n",
		SVG_LEFT - 6, SVG_TOP + SVG_H - (double)info->height * ys - 8,
		(unsigned long long)info->height);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
		SVG_LEFT - 6, SVG_TOP + SVG_H);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">step 0</text>\n",
		SVG_LEFT, SVG_TOP + SVG_H + 18);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">step %u</text>\n",
		SVG_LEFT + SVG_W, SVG_TOP + SVG_H + 18, steps);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">time (steps) &#8594;"
		"   address (bytes) &#8593;</text>\n",
		SVG_LEFT + SVG_W / 2, SVG_TOP + SVG_H + 32);
	fprintf(f, "</svg>\n");
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}
