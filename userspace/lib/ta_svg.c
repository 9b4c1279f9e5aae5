// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_svg.c - draw a plan as an SVG picture for a browser.
 *
 * Time runs across (steps), addresses up (bytes). Every non-empty buffer is
 * one rectangle whose tooltip (<title>) gives its id, lifetime, size and
 * offset. A dashed line marks the lower bound, and the legend on top gives
 * the strategy, height, lower bound and planning time. A group's picture
 * (ta_group_write_svg()) has one colour per member, its always-live
 * tensors across the whole width, and a band per lane under the axis with
 * each member's window of time. A tiered plan's picture has two panels,
 * the fast tier (SRAM, up to its capacity) above the arena (DRAM).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ta_files.h"
#include "ta_group.h"
#include "ta_tier.h"

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
 * struct svg_panel - one tier's part of the picture
 * @tier: the tier whose buffers it draws (0: every buffer, one arena)
 * @y0: its top, in picture units
 * @h: its height
 * @top: the bytes its height stands for
 * @xs: picture units per step
 */
struct svg_panel {
	u32 tier;
	double y0, h, top, xs;
};

/* The buffers of @pp's tier as rectangles, each with its tooltip. */
static void svg_panel_buffers(FILE *f, const struct ta_input *in,
			      const u64 *offsets, const u8 *tiers,
			      const struct svg_panel *pp)
{
	double ys = pp->h / pp->top;
	u32 i;

	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#f6f6f6\" stroke=\"#999\"/>\n",
		SVG_LEFT, pp->y0, SVG_W, pp->h);
	fprintf(f, "<g stroke=\"#333\" stroke-width=\"0.3\">\n");
	for (i = 0; i < in->prob.n_buffers; i++) {
		const struct ta_buffer *b = &in->bufs[i];
		double x = SVG_LEFT + b->start * pp->xs;
		double w = (b->end - b->start) * pp->xs;
		double h = (double)b->size * ys;
		double y = pp->y0 + pp->h - (double)(offsets[i] + b->size) * ys;

		if (!b->size || (pp->tier && tiers[i] != pp->tier))
			continue;
		fprintf(f, "<rect x=\"%.2f\" y=\"%.3f\" width=\"%.2f\" height=\"%.3f\" "
			"fill=\"hsl(%u,65%%,62%%)\"><title>",
			x, y, w, h, (i * 137U) % 360U);
		svg_text(f, in->ids[i]);
		fprintf(f, ": steps [%u, %u), size %llu, align %llu, offset %llu%s</title></rect>\n",
			b->start, b->end, (unsigned long long)b->size,
			(unsigned long long)b->align,
			(unsigned long long)offsets[i],
			!pp->tier ? "" : pp->tier == TA_TIER_FAST ?
			" in SRAM" : " in DRAM");
	}
	fprintf(f, "</g>\n");
}

/* A dashed line at @bytes of panel @pp, labelled @what at the left. */
static void svg_panel_line(FILE *f, const struct svg_panel *pp, u64 bytes,
			   const char *colour, const char *what)
{
	double y = pp->y0 + pp->h - (double)bytes * pp->h / pp->top;

	fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n",
		SVG_LEFT, SVG_LEFT + SVG_W, y, y, colour);
	fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\" fill=\"%s\">"
		"%s</text>\n", SVG_LEFT - 6, y + 4, colour, what);
}

/* A panel's height figure at its top left, and 0 at its bottom. */
static void svg_panel_scale(FILE *f, const struct svg_panel *pp, u64 height)
{
	fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">%llu</text>\n",
		SVG_LEFT - 6,
		pp->y0 + pp->h - (double)height * pp->h / pp->top - 8,
		(unsigned long long)height);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n",
		SVG_LEFT - 6, pp->y0 + pp->h);
}

/**
 * ta_plan_write_svg() - draw a plan
 * @path: the file
 * @in: the problem
 * @offsets: the plan
 * @info: legend figures; with @info->tiers, a tiered plan: the fast tier
 *	  (SRAM) in a panel of its own above the arena's (DRAM)
 *
 * Return: 0 or -errno.
 */
int ta_plan_write_svg(const char *path, const struct ta_input *in,
		      const u64 *offsets, const struct ta_svg_info *info)
{
	struct svg_panel slow = { 0 }, fast = { 0 };
	FILE *f = fopen(path, "w");
	double ratio, top;
	u32 i, steps = 1;
	int ret = 0;

	if (!f)
		return -errno;
	for (i = 0; i < in->prob.n_buffers; i++)
		if (in->bufs[i].end > steps)
			steps = in->bufs[i].end;
	top = (double)(info->height > info->lower_bound ? info->height :
		       info->lower_bound);
	ratio = info->lower_bound ?
		(double)info->height / (double)info->lower_bound : 1.0;
	slow.xs = SVG_W / steps;
	slow.y0 = SVG_TOP;
	slow.h = SVG_H;
	slow.top = top > 0 ? top : 1;
	if (info->tiers) {
		fast = slow;
		fast.tier = TA_TIER_FAST;
		fast.h = SVG_H * 0.3;
		fast.top = (double)(info->fast_capacity > info->fast_height ?
				    info->fast_capacity : info->fast_height);
		if (fast.top <= 0)
			fast.top = 1;
		slow.tier = TA_TIER_SLOW;
		slow.y0 = SVG_TOP + fast.h + 36;
		slow.h = SVG_H - fast.h - 36;
	}

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"13\">\n",
		SVG_LEFT + SVG_W + SVG_RIGHT, SVG_TOP + SVG_H + SVG_BOTTOM);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">",
		SVG_LEFT);
	svg_text(f, info->title);
	fprintf(f, "</text>\n<text x=\"%.0f\" y=\"44\">strategy %s: height %llu, "
		"lower bound %llu (ratio %.4f, +%.2f %%), %u buffers, %.3f ms",
		SVG_LEFT, info->strategy, (unsigned long long)info->height,
		(unsigned long long)info->lower_bound, ratio,
		(ratio - 1) * 100, in->prob.n_buffers,
		(double)info->time_ns / 1e6);
	if (info->tiers)
		fprintf(f, "; SRAM %llu of %llu bytes",
			(unsigned long long)info->fast_height,
			(unsigned long long)info->fast_capacity);
	fprintf(f, "</text>\n");
	if (info->tiers) {
		svg_panel_buffers(f, in, offsets, info->tiers, &fast);
		svg_panel_line(f, &fast, info->fast_capacity, "blue",
			       "SRAM size");
		svg_panel_scale(f, &fast, info->fast_height);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">fast tier (SRAM)</text>\n",
			SVG_LEFT + 4, fast.y0 - 4);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">arena (DRAM)</text>\n",
			SVG_LEFT + 4, slow.y0 - 4);
	}
	svg_panel_buffers(f, in, offsets, info->tiers, &slow);
	svg_panel_line(f, &slow, info->lower_bound, "red", "lower bound");
	svg_panel_scale(f, &slow, info->height);
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

/* Member of group-wide tensor @i (members in order of their first). */
static u32 svg_member_of(const struct ta_group_svg_member *mb, u32 n, u32 i)
{
	u32 m = 0;

	while (m + 1 < n && mb[m + 1].first <= i)
		m++;
	return m;
}

/**
 * ta_group_write_svg() - draw a group's plan
 * @path: the file
 * @mb: the members
 * @n_members: their number
 * @bufs: ta_group_layout() of the group
 * @offsets: the plan, group-wide
 * @n: tensors
 * @info: legend figures
 *
 * Return: 0 or -errno.
 */
int ta_group_write_svg(const char *path,
		       const struct ta_group_svg_member *mb, u32 n_members,
		       const struct ta_group_buffer *bufs, const u64 *offsets,
		       u32 n, const struct ta_svg_info *info)
{
	u32 i, m, steps = 1, lanes = 1;
	double top, xs, ys, ylb, band = 14.0, bottom;
	FILE *f;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (!bufs[i].always && bufs[i].end > steps)
			steps = bufs[i].end;
	for (m = 0; m < n_members; m++)
		if (mb[m].lane + 1 > lanes)
			lanes = mb[m].lane + 1;
	top = (double)(info->height > info->lower_bound ? info->height :
		       info->lower_bound);
	if (top <= 0)
		top = 1;
	xs = SVG_W / steps;
	ys = SVG_H / top;
	bottom = SVG_BOTTOM + lanes * band + 20.0 * n_members;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"13\">\n",
		SVG_LEFT + SVG_W + SVG_RIGHT, SVG_TOP + SVG_H + bottom);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">",
		SVG_LEFT);
	svg_text(f, info->title);
	fprintf(f, "</text>\n<text x=\"%.0f\" y=\"44\">strategy %s: height %llu, "
		"lower bound %llu, %u members, %u lanes, %u tensors, %.3f ms</text>\n",
		SVG_LEFT, info->strategy, (unsigned long long)info->height,
		(unsigned long long)info->lower_bound, n_members, lanes, n,
		(double)info->time_ns / 1e6);
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"#f6f6f6\" stroke=\"#999\"/>\n",
		SVG_LEFT, SVG_TOP, SVG_W, SVG_H);
	fprintf(f, "<g stroke=\"#333\" stroke-width=\"0.3\">\n");
	for (i = 0; i < n; i++) {
		const struct ta_group_buffer *b = &bufs[i];
		double x = SVG_LEFT + (b->always ? 0 : b->start * xs);
		double w = b->always ? SVG_W : (b->end - b->start) * xs;
		double h = (double)b->size * ys;
		double y = SVG_TOP + SVG_H - (double)(offsets[i] + b->size) * ys;

		if (!b->size || b->root != i)
			continue;
		m = svg_member_of(mb, n_members, i);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.3f\" width=\"%.2f\" height=\"%.3f\" "
			"fill=\"hsl(%u,65%%,%u%%)\"%s><title>member %u (",
			x, y, w, h, m * 360U / (n_members ? n_members : 1),
			b->always ? 45U : 62U,
			b->always ? " fill-opacity=\"0.6\"" : "", m);
		svg_text(f, mb[m].file);
		fprintf(f, ", lane %u) tensor ", mb[m].lane);
		svg_text(f, mb[m].ids ? mb[m].ids[i - mb[m].first] : "?");
		if (b->always)
			fprintf(f, ": always live");
		else
			fprintf(f, ": steps [%u, %u)", b->start, b->end);
		fprintf(f, ", size %llu, offset %llu</title></rect>\n",
			(unsigned long long)b->size,
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
	/* a band per lane: each member's window of time, in its colour */
	for (m = 0; m < n_members; m++) {
		u32 end = mb[m].first + (m + 1 < n_members ? mb[m + 1].first -
					 mb[m].first : n - mb[m].first);
		u32 lo = steps, hi = 0;
		double y = SVG_TOP + SVG_H + 6 + mb[m].lane * band;

		for (i = mb[m].first; i < end; i++) {
			if (bufs[i].always)
				continue;
			if (bufs[i].start < lo)
				lo = bufs[i].start;
			if (bufs[i].end > hi)
				hi = bufs[i].end;
		}
		if (hi > lo)
			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				"fill=\"hsl(%u,65%%,62%%)\"><title>member %u, lane %u: steps [%u, %u)</title></rect>\n",
				SVG_LEFT + lo * xs, y, (hi - lo) * xs,
				band - 3, m * 360U / n_members, m, mb[m].lane,
				lo, hi);
	}
	for (i = 0; i < lanes; i++)
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">lane %u</text>\n",
			SVG_LEFT - 6, SVG_TOP + SVG_H + 6 + i * band + 10, i);
	for (m = 0; m < n_members; m++) {
		double y = SVG_TOP + SVG_H + 14 + lanes * band + m * 20.0;

		fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"14\" height=\"14\" "
			"fill=\"hsl(%u,65%%,62%%)\"/>\n<text x=\"%.0f\" y=\"%.1f\">member %u, lane %u: ",
			SVG_LEFT, y, m * 360U / n_members, SVG_LEFT + 20,
			y + 12, m, mb[m].lane);
		svg_text(f, mb[m].file);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}
