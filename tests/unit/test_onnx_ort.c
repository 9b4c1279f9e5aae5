// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_onnx_ort.c - host unit tests of the ONNX importer against the sizes
 * ONNX Runtime writes (issue 26): broadcasting, Flatten, Resize, pools,
 * data-dependent ops, empty reductions and constants, control flow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_test.h"
#include "onnx_build.h"

/*
 * ---- what ONNX Runtime writes (issue 26) ----
 *
 * Each model here was planned smaller than ONNX Runtime writes before its
 * fix: the figures are ONNX Runtime's.
 */

/* Broadcasting when the first operand has the lower rank. */
static int t_broadcast_lower_rank_first(void)
{
	static const s64 x[] = { 3 }, y[] = { 3, 1 }, a[] = { 2, 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	int ran = 0;

	input(&g, "x", x, 1);
	input(&g, "y", y, 2);
	input(&g, "a", a, 2);
	vinfo(&g, 11, "c", ONNX_BOOL, NULL, 0);
	init(&g, "one", ONNX_FLOAT, NULL, 0, NULL);
	node(&g, "Add", "add", "x,y", "z", NULL);		/* [3,3] */
	node(&g, "Sub", "sub", "one,a", "s", NULL);		/* 1 - a */
	node(&g, "Div", "div", "one,a", "d", NULL);		/* 1 / a */
	node(&g, "Where", "where", "c,a,s", "w", NULL);	/* scalar c */
	output(&g, "z");
	output(&g, "d");
	output(&g, "w");
	m = model(&g, 13);
	if (parsed(&m, &in))
		return 1;
	ran += !has(&in, "z", 36, "FLOAT [3,3]");
	ran += !has(&in, "s", 24, "FLOAT [2,3]");
	ran += !has(&in, "d", 24, "FLOAT [2,3]");
	ran += !has(&in, "w", 24, "FLOAT [2,3]");
	ta_input_free(&in);
	TA_CHECK(ran == 4, "%d of 4 shapes right", ran);
	/*
	 * PRelu's slope [2,3] does not broadcast to X [3] one way: ONNX
	 * Runtime writes [2,3], the operator X's [3] (make fuzz, seed
	 * 672976473, model 8322: a GlobalMaxPool after it wrote fewer bytes
	 * in ONNX Runtime than onnx's inference sizes); refused. A slope that
	 * does broadcast to X plans X's shape.
	 */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 1);
	input(&g, "a", a, 2);
	node(&g, "PRelu", "prelu", "x,a", "pr", NULL);
	output(&g, "pr");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (prelu, PRelu)",
		  "the slope [2,3] does not broadcast to X [3]",
		  "ONNX Runtime broadcasts both ways and writes [2,3]",
		  "no one shape is safe", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "a", a, 2);
	input(&g, "x", x, 1);
	node(&g, "PRelu", "prelu", "a,x", "pr", NULL);
	output(&g, "pr");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "pr", 24, "FLOAT [2,3]"))
		return 1;
	ta_input_free(&in);
	/* Max of [3], [3,1] and [2,3]: [3,1] and [2,3] do not broadcast */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 1);
	input(&g, "y", y, 2);
	input(&g, "a", a, 2);
	node(&g, "Max", "max", "x,y,a", "mx", NULL);
	output(&g, "mx");
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (max, Max)",
		     "shapes [3,3] and [2,3] do not broadcast", NULL);
}

/* Flatten's axis is one of [-r, r]; -1 names the last dimension. */
static int t_flatten_negative_axis(void)
{
	static const s64 x[] = { 2, 3, 4, 5 };
	static const struct { const char *axis, *note; u64 bytes; } c[] = {
		{ "axis=-1", "FLOAT [24,5]", 480 },
		{ "axis=-4", "FLOAT [1,120]", 480 },
		{ "axis=4", "FLOAT [120,1]", 480 },
		{ "axis=0", "FLOAT [1,120]", 480 },
	};
	struct pbw g, m;
	struct ta_input in;
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		node(&g, "Flatten", "f", "x", "y", c[i].axis, NULL);
		node(&g, "ReduceMax", "r", "y", "z", "axes=[0]", "keepdims=0",
		     NULL);
		output(&g, "z");
		m = model(&g, 13);
		if (parsed(&m, &in) || has(&in, "y", c[i].bytes, c[i].note))
			return 1;
		/* Flatten(-1) then ReduceMax(axes=[0]): [5], 20 bytes */
		if (!i && has(&in, "z", 20, "FLOAT [5]"))
			return 1;
		ta_input_free(&in);
		ran++;
	}
	for (i = 0; i < 2; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		node(&g, "Flatten", "f", "x", "y", i ? "axis=5" : "axis=-5",
		     NULL);
		output(&g, "y");
		m = model(&g, 13);
		if (fails(&m, -EINVAL, "node 0 (f, Flatten)",
			  i ? "axis 5 out of range for rank 4" :
			      "axis -5 out of range for rank 4", NULL))
			return 1;
		ran++;
	}
	TA_CHECK(ran == 6, "%u of 6 cases", ran);
	return 0;
}

/*
 * Where two runtimes, or a runtime and the spec, size an output
 * differently, no one shape is safe for the nodes after it (a Slice with
 * negative starts keeps less of the larger): refused, naming both sizes.
 * Resize and Upsample by 0.7 of 10 (7 in float, as ONNX Runtime
 * multiplies, 6 in double), tf_crop_and_resize by scales with a roi of
 * half the input (the spec's 10, ONNX Runtime's 20) or with roi computed
 * at run time, a float Range of 0 to 0.3 by 0.1 (4 as ONNX Runtime
 * divides, 3 in float), a SAME ConvTranspose with a kernel shorter than
 * its stride (the spec's in x stride, 18, ONNX Runtime's unpadded 16);
 * and where they agree, planned: 0.5 of 10, a roi of the whole input, a
 * Range of 0 to 1 by 0.1.
 */
static int t_runtimes_differ(void)
{
	static const s64 x[] = { 1, 1, 10, 10 }, four[] = { 4 }, none[] = { 0 };
	static const s64 eight[] = { 8 }, xt[] = { 1, 2, 6 };
	static const s64 wt[] = { 2, 3, 1 };
	static const float sc7[] = { 1, 1, 0.7f, 0.7f };
	static const float sc5[] = { 1, 1, 0.5f, 0.5f };
	static const float sc2[] = { 1, 1, 2, 2 };
	static const float half[] = { 0, 0, 0, 0, 1, 1, 0.5f, 0.5f };
	static const float whole[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const float zero[] = { 0 }, f03[] = { 0.3f }, f01[] = { 0.1f };
	static const float f1[] = { 1 };
	struct pbw g, m;
	struct ta_input in;
	u32 pass, ran = 0;

	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		init_f(&g, "roi", none, 1, NULL);
		init_f(&g, "scales", four, 1, sc7);
		if (pass)
			node(&g, "Upsample", "u", "x,scales", "y", NULL);
		else
			node(&g, "Resize", "r", "x,roi,scales", "y", NULL);
		output(&g, "y");
		m = model(&g, pass ? 9 : 13);
		if (fails(&m, -EINVAL, pass ? "node 0 (u, Upsample)" :
			  "node 0 (r, Resize)",
			  "dimension 2: 10 x scale 0.699999988 is 7 in float (ONNX Runtime), 6 in double",
			  "no one shape is safe", NULL))
			return 1;
		ran++;
	}
	/* roi of half the input, roi from the data */
	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		if (pass)
			input(&g, "roi", eight, 1);
		else
			init_f(&g, "roi", eight, 1, half);
		init_f(&g, "scales", four, 1, sc2);
		node(&g, "Resize", "r", "x,roi,scales", "y",
		     "coordinate_transformation_mode:tf_crop_and_resize",
		     NULL);
		output(&g, "y");
		m = model(&g, 13);
		if (fails(&m, -EINVAL, "node 0 (r, Resize)",
			  pass ? "tf_crop_and_resize with scales and roi computed at run time" :
				 "is 20 in float (ONNX Runtime), 20 in double, 10 by the spec's formula with roi",
			  "no one shape is safe", NULL))
			return 1;
		ran++;
	}
	memset(&g, 0, sizeof(g));
	init_f(&g, "s0", NULL, 0, zero);
	init_f(&g, "l03", NULL, 0, f03);
	init_f(&g, "d01", NULL, 0, f01);
	node(&g, "Range", "rg", "s0,l03,d01", "r", NULL);
	output(&g, "r");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (rg, Range)",
		  "is 4 in double, 3 in float, 4 as ONNX Runtime computes it",
		  "no one length is safe", NULL))
		return 1;
	ran++;
	memset(&g, 0, sizeof(g));
	input(&g, "xt", xt, 3);
	init(&g, "wt", ONNX_FLOAT, wt, 3, NULL);
	node(&g, "ConvTranspose", "ct", "xt,wt", "y", "strides=[3]",
	     "auto_pad:SAME_LOWER", NULL);
	output(&g, "y");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 0 (ct, ConvTranspose)",
		  "spatial dimension 0: auto_pad SAME with a window (1 with output_padding) shorter than the stride (3)",
		  "in x stride, 18, ONNX Runtime writes the unpadded 16",
		  "no one shape is safe", NULL))
		return 1;
	ran++;
	/* where they agree */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 4);
	init_f(&g, "roi", eight, 1, whole);
	init_f(&g, "none", none, 1, NULL);
	init_f(&g, "s5", four, 1, sc5);
	init_f(&g, "s2", four, 1, sc2);
	node(&g, "Resize", "", "x,none,s5", "y5", NULL);
	node(&g, "Resize", "", "x,roi,s2", "y2",
	     "coordinate_transformation_mode:tf_crop_and_resize", NULL);
	init_f(&g, "s0", NULL, 0, zero);
	init_f(&g, "l1", NULL, 0, f1);
	init_f(&g, "d01", NULL, 0, f01);
	node(&g, "Range", "", "s0,l1,d01", "r", NULL);
	output(&g, "y5");
	output(&g, "y2");
	output(&g, "r");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "y5", 100, "FLOAT [1,1,5,5]") ||
	    has(&in, "y2", 1600, "FLOAT [1,1,20,20]") ||
	    has(&in, "r", 40, "FLOAT [10]"))
		return 1;
	ta_input_free(&in);
	ran++;
	TA_CHECK(ran == 7, "%u of 7 cases", ran);
	return 0;
}

/*
 * Resize of opset 18 and later: scales and sizes for the axes the axes
 * attribute names (negative ones counted from the end), and sizes under
 * keep_aspect_ratio_policy: one scale, the least (not_larger) or largest
 * (not_smaller) of size / input over those axes, each of them
 * round(scale x input). Every size is ONNX Runtime 1.23's for [1,3,10,7]
 * (but axes [-1], which crashes it). Refused: an axis twice, a count that
 * is not the axes', an unknown policy.
 */
static int t_resize_axes_policy(void)
{
	static const s64 x[] = { 1, 3, 10, 7 }, two[] = { 2 }, one[] = { 1 };
	static const s64 four[] = { 4 }, s5[] = { 5 }, s20[] = { 20, 20 };
	static const s64 all20[] = { 1, 3, 20, 20 }, s94[] = { 9, 4 };
	static const float sc[] = { 2.0f, 0.5f };
	static const struct {
		const char *a1, *a2, *out;
		int sizes;	/* 0: scales sc; else which sizes */
		u64 bytes;
	} ok[] = {
		{ "axes=[2,3]", NULL, "FLOAT [1,3,20,3]", 0, 720 },
		{ "axes=[-1]", NULL, "FLOAT [1,3,10,5]", 1, 600 },
		{ "keep_aspect_ratio_policy:not_larger", NULL,
		  "FLOAT [1,3,10,7]", 2, 840 },
		{ "keep_aspect_ratio_policy:not_smaller", NULL,
		  "FLOAT [3,9,29,20]", 2, 62640 },
		{ "keep_aspect_ratio_policy:not_larger", "axes=[2,3]",
		  "FLOAT [1,3,20,14]", 3, 3360 },
		{ "keep_aspect_ratio_policy:not_smaller", "axes=[3,2]",
		  "FLOAT [1,3,13,9]", 4, 1404 },
	};
	struct pbw g, m;
	struct ta_input in;
	u32 i, ran = 0;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		init_f(&g, "sc", two, 1, sc);
		init(&g, "z1", ONNX_INT64, one, 1, s5);
		init(&g, "z2", ONNX_INT64, four, 1, all20);
		init(&g, "z3", ONNX_INT64, two, 1, s20);
		init(&g, "z4", ONNX_INT64, two, 1, s94);
		node(&g, "Resize", "r", ok[i].sizes == 0 ? "x,-,sc" :
		     ok[i].sizes == 1 ? "x,-,-,z1" : ok[i].sizes == 2 ?
		     "x,-,-,z2" : ok[i].sizes == 3 ? "x,-,-,z3" : "x,-,-,z4",
		     "y", ok[i].a1, ok[i].a2, NULL);
		output(&g, "y");
		m = model(&g, 19);
		if (parsed(&m, &in) || has(&in, "y", ok[i].bytes, ok[i].out))
			return 1;
		ta_input_free(&in);
		ran++;
	}
	for (i = 0; i < 3; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 4);
		init(&g, "z3", ONNX_INT64, two, 1, s20);
		init(&g, "z1", ONNX_INT64, one, 1, s5);
		node(&g, "Resize", "r", i == 1 ? "x,-,-,z1" : "x,-,-,z3", "y",
		     i == 2 ? "keep_aspect_ratio_policy:fit" :
		     i == 1 ? "axes=[2,3]" : "axes=[2,-2]", NULL);
		output(&g, "y");
		m = model(&g, 19);
		if (fails(&m, -EINVAL, "node 0 (r, Resize)",
			  i == 0 ? "axis 2 given twice" :
			  i == 1 ? "1 sizes for 2 axes" :
			  "unknown keep_aspect_ratio_policy 'fit'", NULL))
			return 1;
		ran++;
	}
	TA_CHECK(ran == 9, "%u of 9 cases", ran);
	return 0;
}

/*
 * A ceil_mode pool whose last window starts in the end padding: ONNX
 * Runtime 1.23 drops it, older runtimes keep it, so refused. Slice to
 * INT64_MAX (or INT32_MAX) with a negative step runs down to element 0.
 */
static int t_pool_ceil_slice_end(void)
{
	static const s64 x[] = { 1, 1, 5, 5 }, v[] = { 5 }, one[] = { 1 };
	static const s64 below[] = { -10 }, four[] = { 4 }, zero[] = { 0 };
	static const s64 imax[] = { INT64_MAX }, i32[] = { INT32_MAX };
	static const s64 back[] = { -1 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 4);
	/* (5 + 1 - 2) / 3 rounded up + 1 = 3; the third starts at 6 */
	node(&g, "MaxPool", "p", "x", "y", "kernel_shape=[2,2]",
	     "strides=[3,3]", "pads=[0,0,1,1]", "ceil_mode=1", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 0 (p, MaxPool)",
		  "spatial dimension 0: with ceil_mode the last window starts at 6, in the end padding (input 5, head pad 0): ONNX Runtime 1.23 drops it and writes 2, older runtimes and the operator's formula keep it and write 3",
		  "no one shape is safe", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "v", v, 1);
	init(&g, "below", ONNX_INT64, one, 1, below);
	init(&g, "four", ONNX_INT64, one, 1, four);
	init(&g, "imax", ONNX_INT64, one, 1, imax);
	init(&g, "i32", ONNX_INT64, one, 1, i32);
	init(&g, "zero", ONNX_INT64, one, 1, zero);
	init(&g, "back", ONNX_INT64, one, 1, back);
	node(&g, "Slice", "s1", "v,below,imax,zero,back", "s1", NULL);
	node(&g, "Slice", "s2", "v,four,imax,zero,back", "s2", NULL);
	node(&g, "Slice", "s3", "v,four,i32,zero,back", "s3", NULL);
	output(&g, "s1");
	output(&g, "s2");
	output(&g, "s3");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "s1", 4, "FLOAT [1]") || has(&in, "s2", 20, "FLOAT [5]") ||
	    has(&in, "s3", 20, "FLOAT [5]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * Reductions of an input without elements: where ONNX Runtime writes the
 * operator's shape (every axis given as a number >= 0) that shape; where
 * it does not (it ignores axes given as negative numbers, and reduces
 * everything for noop_with_empty_axes), refused, whatever shape the model
 * records. A SAME pool is ceil(in / stride), ONNX Runtime's size, with
 * ceil_mode too and over a dimension of 0 (python3-onnx 1.12's inference
 * gives one more window, and one window over 0: no runtime writes those).
 */
static int t_empty_reduce_same_ceil(void)
{
	static const s64 x[] = { 0, 1, 9 }, p[] = { 1, 1, 3 };
	static const s64 e[] = { 6, 1, 0, 2 };
	/* the operator's shape, which a model may record */
	static const struct {
		const char *op, *a1, *a2;
		int dtype;
		s64 spec[3];
		u32 rank;
		const char *msg;
	} refused[] = {
		{ "ReduceL2", "axes=[-1,0]", NULL, ONNX_FLOAT, { 1, 1, 1 }, 3,
		  "ONNX Runtime writes [1,1,9], the operator [1,1,1]" },
		{ "ReduceMax", "axes=[-1,0]", "keepdims=0", ONNX_FLOAT, { 1 }, 1,
		  "ONNX Runtime writes [1,9], the operator [1]" },
		{ "ReduceSum", "noop_with_empty_axes=1", NULL, ONNX_FLOAT,
		  { 0, 1, 9 }, 3,
		  "ONNX Runtime writes [1,1,1], the operator [0,1,9]" },
		{ "ArgMin", "axis=-1", "keepdims=0", ONNX_INT64, { 0, 1 }, 2,
		  "ONNX Runtime writes [0,1,9], the operator [0,1]" },
	};
	struct pbw g = { 0 }, m;
	struct ta_input in;
	u32 i, pass, n = 0;

	input(&g, "x", x, 3);
	node(&g, "ReduceMean", "", "x", "rn", "axes=[1]", NULL);
	node(&g, "ReduceMax", "", "x", "rs", "axes=[0]", "keepdims=0", NULL);
	input(&g, "p", p, 3);
	node(&g, "MaxPool", "", "p", "mp", "kernel_shape=[1]", "strides=[3]",
	     "auto_pad:SAME_UPPER", "ceil_mode=1", NULL);
	input(&g, "e", e, 4);
	node(&g, "LpPool", "", "e", "lp", "kernel_shape=[2,2]", "strides=[3,2]",
	     "auto_pad:SAME_LOWER", NULL);
	output(&g, "rn");
	output(&g, "rs");
	output(&g, "mp");
	output(&g, "lp");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "rn", 0, "FLOAT [0,1,9]") ||
	    has(&in, "rs", 36, "FLOAT [1,9]") ||
	    has(&in, "mp", 4, "FLOAT [1,1,1]") ||
	    has(&in, "lp", 0, "FLOAT [6,1,0,1]"))
		return 1;
	ta_input_free(&in);
	/* each refused with and without the operator's shape recorded */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		for (pass = 0; pass < 2; pass++) {
			memset(&g, 0, sizeof(g));
			input(&g, "x", x, 3);
			node(&g, refused[i].op, "r", "x", "y", refused[i].a1,
			     refused[i].a2, NULL);
			if (pass)
				vinfo(&g, 12, "y", refused[i].dtype,
				      refused[i].spec, refused[i].rank);
			else
				output(&g, "y");
			m = model(&g, 13);
			if (fails(&m, -EINVAL, "node 0 (r, ", refused[i].op,
				  refused[i].msg, "no one shape is safe", NULL))
				return 1;
			n++;
		}
	}
	TA_CHECK(n == 8, "%u of 8 refusals checked (4 ops, each without and with its shape recorded)", n);
	return 0;
}

/*
 * MaxPool with auto_pad SAME and dilations: ONNX Runtime pads for the
 * window without its dilation and writes fewer windows than the operator
 * (none, for [2,1,2] and a window of 3 dilated by 2), so a node after it
 * sees another shape (a ReduceSum of its empty output keeps 2 elements
 * where the operator's gives 1): refused where the two differ; accepted
 * where they agree (a window of 1) or where ONNX Runtime refuses the node
 * itself (an input of 1).
 */
static int t_same_pool_dilations(void)
{
	static const s64 x[] = { 2, 1, 2 }, one[] = { 2, 1, 1 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	int pass;

	/* refused, and so with the operator's [2,1,2] recorded */
	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 3);
		node(&g, "MaxPool", "mp", "x", "y", "kernel_shape=[3]",
		     "dilations=[2]", "auto_pad:SAME_UPPER", NULL);
		if (pass)
			vinfo(&g, 12, "y", ONNX_FLOAT, x, 3);
		else
			output(&g, "y");
		m = model(&g, 17);
		if (fails(&m, -EINVAL, "node 0 (mp, MaxPool)",
			  "spatial dimension 0: auto_pad SAME with dilation 2",
			  "it writes 0, the operator 2", "no one shape is safe",
			  NULL))
			return 1;
	}
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 3);
	input(&g, "o", one, 3);
	node(&g, "MaxPool", "", "x", "k1", "kernel_shape=[1]", "dilations=[3]",
	     "auto_pad:SAME_LOWER", NULL);
	node(&g, "MaxPool", "", "o", "o1", "kernel_shape=[3]", "dilations=[2]",
	     "auto_pad:SAME_UPPER", NULL);
	output(&g, "k1");
	output(&g, "o1");
	m = model(&g, 17);
	if (parsed(&m, &in) || has(&in, "k1", 16, "FLOAT [2,1,2]") ||
	    has(&in, "o1", 8, "FLOAT [2,1,1]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * ceil_mode with a window longer than the padded input: ceil(span / stride)
 * of a negative span is its truncation (ONNX Runtime 1.23 and ONNX's
 * inference: -2 / 2 + 1 is no window), where (span + stride - 1) / stride
 * gave one window, and a reduction after it took the input for one with
 * elements (make fuzz, seed 1598766137, model 3040: the Shape after it was
 * planned 8 bytes, ONNX Runtime wrote 24). Then each case of the sweep of
 * 1,242 pools against ONNX Runtime that the formula decides.
 */
static int t_ceil_pool_past_input(void)
{
	static const s64 x[] = { 2, 2, 5, 3, 1 }, one[] = { 1, 1, 1 };
	static const s64 two[] = { 1, 1, 2 }, four[] = { 1, 1, 4 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 5);
	node(&g, "MaxPool", "mp", "x", "y", "kernel_shape=[3,3,3]",
	     "strides=[3,1,2]", "auto_pad:VALID", "ceil_mode=1", NULL);
	node(&g, "ReduceProd", "rp", "y", "r", "axes=[-5,-1,3,1]",
	     "keepdims=0", NULL);
	output(&g, "r");
	m = model(&g, 17);
	if (fails(&m, -EINVAL, "node 1 (rp, ReduceProd)",
		  "ONNX Runtime writes [2,2,0], the operator [2]",
		  "no one shape is safe", NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "a", one, 3);
	input(&g, "b", one, 3);
	input(&g, "c", two, 3);
	input(&g, "d", four, 3);
	/* window 3 over 1, stride 2: span -2, no window */
	node(&g, "MaxPool", "", "a", "ya", "kernel_shape=[3]", "strides=[2]",
	     "ceil_mode=1", NULL);
	/* window 3 over 1, stride 3: span -2, one window (-2 / 3 is 0) */
	node(&g, "MaxPool", "", "b", "yb", "kernel_shape=[3]", "strides=[3]",
	     "ceil_mode=1", NULL);
	/* window 4 over 2, stride 2: span -2, no window */
	node(&g, "AveragePool", "", "c", "yc", "kernel_shape=[4]",
	     "strides=[2]", "ceil_mode=1", NULL);
	output(&g, "ya");
	output(&g, "yb");
	output(&g, "yc");
	m = model(&g, 17);
	if (parsed(&m, &in) || has(&in, "ya", 0, "FLOAT [1,1,0]") ||
	    has(&in, "yb", 4, "FLOAT [1,1,1]") ||
	    has(&in, "yc", 0, "FLOAT [1,1,0]"))
		return 1;
	ta_input_free(&in);
	/* window 1 over 4, stride 2: ONNX Runtime 2, older runtimes 3 */
	memset(&g, 0, sizeof(g));
	input(&g, "d", four, 3);
	node(&g, "MaxPool", "mp", "d", "yd", "kernel_shape=[1]", "strides=[2]",
	     "ceil_mode=1", NULL);
	output(&g, "yd");
	m = model(&g, 17);
	return fails(&m, -EINVAL, "node 0 (mp, MaxPool)",
		     "the last window starts at 4, in the end padding (input 4, head pad 0)",
		     "writes 2, older runtimes", "write 3", NULL);
}

/*
 * A reduction downstream of a data-dependent op: at run time its input may
 * have no element (NonZero of zeros is [2,0]), and ONNX Runtime then
 * reduces only the axes given as numbers >= 0. NonZero, ReduceSum over
 * axis -1 and Shape: ONNX Runtime writes [2,0] and a Shape of 16 bytes
 * where the plan had [2] and 8. Refused where the axes differ, through
 * the nodes between too; accepted where they do not.
 */
static int t_may_empty_reduce(void)
{
	static const s64 x[] = { 2, 3 }, one[] = { 1 }, four[] = { 4 };
	static const s64 tx[] = { 2, 8 }, neg1[] = { -1 }, pos1[] = { 1 };
	static const s64 m3[] = { 3 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 2);
	init(&g, "ax", ONNX_INT64, one, 1, neg1);
	node(&g, "NonZero", "", "x", "nz", NULL);
	node(&g, "ReduceSum", "rs", "nz,ax", "r", "keepdims=0", NULL);
	node(&g, "Shape", "", "r", "s", NULL);
	output(&g, "s");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 1 (rs, ReduceSum)",
		  "its input's size comes from the data and may be 0",
		  "no one shape is safe", NULL))
		return 1;
	/* the same axis as a number >= 0: what the operator reduces */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	init(&g, "ax", ONNX_INT64, one, 1, pos1);
	node(&g, "NonZero", "", "x", "nz", NULL);
	node(&g, "ReduceSum", "rs", "nz,ax", "r", "keepdims=0", NULL);
	output(&g, "r");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "r", 16, "INT64 [2]"))
		return 1;
	ta_input_free(&in);
	/* through a node between: Compress, Relu, ReduceMax over axis -1 */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	vinfo(&g, 11, "c", ONNX_BOOL, four, 1);
	node(&g, "Compress", "", "x,c", "cf", NULL);
	node(&g, "Relu", "", "cf", "rl", NULL);
	node(&g, "ReduceMax", "rm", "rl", "r", "axes=[-1]", NULL);
	output(&g, "r");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 2 (rm, ReduceMax)",
		  "may be 0 at run time", NULL))
		return 1;
	/* TopK: k computed at run time may be 0; a constant k is exact */
	memset(&g, 0, sizeof(g));
	input(&g, "t", tx, 2);
	vinfo(&g, 11, "k", ONNX_INT64, one, 1);
	node(&g, "TopK", "", "t,k", "tv,ti", NULL);
	node(&g, "ArgMax", "am", "tv", "a", "axis=-1", NULL);
	output(&g, "a");
	m = model(&g, 13);
	if (fails(&m, -EINVAL, "node 1 (am, ArgMax)", "may be 0 at run time",
		  NULL))
		return 1;
	memset(&g, 0, sizeof(g));
	input(&g, "t", tx, 2);
	init(&g, "k", ONNX_INT64, one, 1, m3);
	node(&g, "TopK", "", "t,k", "tv,ti", NULL);
	node(&g, "ArgMax", "am", "tv", "a", "axis=-1", NULL);
	output(&g, "a");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "a", 16, "INT64 [2,1]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * Ops whose output shape depends on the data are planned at the largest
 * they can produce; a recorded shape may be smaller, never larger.
 */
static int t_data_dependent(void)
{
	static const s64 x[] = { 2, 3 }, rec[] = { 2, 3 }, big[] = { 2, 7 };
	static const s64 six[] = { 6 }, three[] = { 3 }, four[] = { 4 };
	static const s64 bx[] = { 1, 5, 4 }, sc[] = { 1, 2, 5 }, one[] = { 1 };
	static const s64 m3[] = { 3 }, tx[] = { 2, 8 };
	struct pbw g = { 0 }, m;
	struct ta_input in;
	int pass;

	/* NonZero: the model records one run's [2,3]; all-true gives [2,6] */
	for (pass = 0; pass < 2; pass++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		node(&g, "NonZero", "nz", "x", "y", NULL);
		vinfo(&g, 12, "y", ONNX_INT64, pass ? big : rec, 2);
		m = model(&g, 13);
		if (pass) {
			if (fails(&m, -EINVAL, "node 0 (nz, NonZero)",
				  "inferred INT64 at most [2,6], but the model records INT64 [2,7]",
				  NULL))
				return 1;
			continue;
		}
		if (parsed(&m, &in) || has(&in, "y", 96, "INT64 [2,6]"))
			return 1;
		ta_input_free(&in);
	}
	/* Unique, Compress, NonMaxSuppression, TopK */
	memset(&g, 0, sizeof(g));
	input(&g, "u", six, 1);
	input(&g, "x", x, 2);
	vinfo(&g, 11, "c3", ONNX_BOOL, three, 1);
	vinfo(&g, 11, "c4", ONNX_BOOL, four, 1);
	input(&g, "boxes", bx, 3);
	input(&g, "scores", sc, 3);
	init(&g, "m3", ONNX_INT64, one, 1, m3);
	input(&g, "t", tx, 2);
	vinfo(&g, 11, "k", ONNX_INT64, one, 1);
	node(&g, "Unique", "", "u", "uy,ui,uv,uc", NULL);
	node(&g, "Compress", "", "x,c3", "ca", "axis=1", NULL);
	node(&g, "Compress", "", "x,c4", "cf", NULL);
	node(&g, "NonMaxSuppression", "", "boxes,scores,m3", "n3", NULL);
	node(&g, "NonMaxSuppression", "", "boxes,scores", "na", NULL);
	node(&g, "TopK", "", "t,m3", "tv,ti", NULL);
	node(&g, "TopK", "", "t,k", "rv,ri", NULL);
	output(&g, "uy");
	output(&g, "ui");
	output(&g, "uv");
	output(&g, "uc");
	output(&g, "ca");
	output(&g, "cf");
	output(&g, "n3");
	output(&g, "na");
	output(&g, "tv");
	output(&g, "ti");
	output(&g, "rv");
	output(&g, "ri");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "uy", 24, "FLOAT [6]") ||
	    has(&in, "ui", 48, "INT64 [6]") || has(&in, "uv", 48, "INT64 [6]") ||
	    has(&in, "uc", 48, "INT64 [6]") ||
	    has(&in, "ca", 24, "FLOAT [2,3]") || has(&in, "cf", 16, "FLOAT [4]") ||
	    has(&in, "n3", 6 * 3 * 8, "INT64 [6,3]") ||
	    has(&in, "na", 10 * 3 * 8, "INT64 [10,3]") ||
	    has(&in, "tv", 24, "FLOAT [2,3]") || has(&in, "ti", 48, "INT64 [2,3]") ||
	    has(&in, "rv", 64, "FLOAT [2,8]") || has(&in, "ri", 128, "INT64 [2,8]"))
		return 1;
	ta_input_free(&in);
	/* Range of run-time inputs: nothing bounds it */
	memset(&g, 0, sizeof(g));
	vinfo(&g, 11, "n", ONNX_INT64, NULL, 0);
	init(&g, "z", ONNX_INT64, NULL, 0, m3);
	node(&g, "Range", "rg", "z,n,z", "r", NULL);
	vinfo(&g, 12, "r", ONNX_INT64, three, 1);
	m = model(&g, 13);
	return fails(&m, -EINVAL, "node 0 (rg, Range)",
		     "input 1 is computed at run time", "nothing bounds it",
		     NULL);
}

/* If, Loop, Scan and sequences are refused, even with shapes recorded. */
static int t_control_flow_refused(void)
{
	static const char *const ops[] = { "If", "Loop", "Scan",
					   "SequenceConstruct" };
	static const s64 x[] = { 2, 3 };
	struct pbw g, m;
	char nm[64];
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		node(&g, ops[i], "cf", "x", "y", NULL);
		vinfo(&g, 12, "y", ONNX_FLOAT, x, 2);
		m = model(&g, 13);
		snprintf(nm, sizeof(nm), "node 0 (cf, %s)", ops[i]);
		if (fails(&m, -EINVAL, nm, i < 3 ? "control flow" :
			  "a sequence or optional value", NULL))
			return 1;
		ran++;
	}
	TA_CHECK(ran == 4, "%u of 4 ops", ran);
	return 0;
}

/* An empty constant is known: Reshape to [] is a scalar, Expand to [] a copy. */
static int t_empty_constant(void)
{
	static const s64 x[] = { 1, 1 }, y[] = { 2, 3 }, none[] = { 0 };
	struct pbw g = { 0 }, m;
	struct ta_input in;

	input(&g, "x", x, 2);
	input(&g, "y", y, 2);
	init(&g, "e", ONNX_INT64, none, 1, NULL);
	node(&g, "Reshape", "", "x,e", "r", NULL);
	node(&g, "Expand", "", "y,e", "ex", NULL);
	node(&g, "ReduceSum", "", "y,e", "rs", NULL);
	output(&g, "r");
	output(&g, "ex");
	output(&g, "rs");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "r", 4, "FLOAT []") ||
	    has(&in, "ex", 24, "FLOAT [2,3]") || has(&in, "rs", 4, "FLOAT [1,1]"))
		return 1;
	ta_input_free(&in);
	return 0;
}

/*
 * A recorded shape for a shape input computed at run time, but not from the
 * data (a Max of a Shape with itself, which the reader does not fold; an
 * Abs until stop 62), is checked where it can be.
 */
static int t_recorded_checked(void)
{
	static const s64 x[] = { 3, 4 }, w[] = { 2, 6 }, ok[] = { 2, 6 };
	static const s64 bad[] = { 2, 7 }, nb[] = { 2, 3 };
	static const struct { const char *op; const s64 *rec; const char *why; } c[] = {
		{ "Reshape", ok, NULL },
		{ "Reshape", bad, "not the input's element count" },
		{ "Expand", nb, "not a broadcast of the input" },
		{ "Tile", nb, "a dimension no multiple of the input's" },
	};
	struct pbw g, m;
	struct ta_input in;
	u32 i, ran = 0;

	for (i = 0; i < 4; i++) {
		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		input(&g, "w", w, 2);
		node(&g, "Shape", "", "w", "sw", NULL);
		node(&g, "Max", "", "sw,sw", "s", NULL);
		node(&g, c[i].op, "n", "x,s", "y", NULL);
		vinfo(&g, 12, "y", ONNX_FLOAT, c[i].rec, 2);
		m = model(&g, 13);
		if (!c[i].why) {
			if (parsed(&m, &in) || has(&in, "y", 48, "FLOAT [2,6]"))
				return 1;
			ta_input_free(&in);
		} else if (fails(&m, -EINVAL, "node 2 (n, ", c[i].why,
				 "computed at run time", NULL)) {
			return 1;
		}
		ran++;
	}
	TA_CHECK(ran == 4, "%u of 4 cases", ran);
	return 0;
}

/*
 * A shape input whose values come from the model's input data (a graph
 * input, or an Add of one): ONNX Runtime sizes the output from what it is
 * fed, so the recorded shape is refused, naming the input. The shape of
 * an activation is no data: a Reshape to it is inferred.
 */
static int t_data_shape_refused(void)
{
	static const s64 x[] = { 3, 4 }, two[] = { 2 }, one[] = { 1 };
	static const s64 four[] = { 4 }, rec[] = { 2, 6 }, zeros[] = { 0, 0 };
	static const struct { const char *op, *ins; int k; } c[] = {
		{ "Reshape", "x,s", 1 },
		{ "Expand", "x,s", 1 },
		{ "Tile", "x,s", 1 },
		{ "ConstantOfShape", "s", 0 },
		{ "Pad", "x,p", 1 },
		{ "ReduceSum", "x,a", 1 },
	};
	const u32 nc = sizeof(c) / sizeof(c[0]);
	struct pbw g, m;
	struct ta_input in;
	char want[64];
	u32 i, ran = 0;

	for (i = 0; i < 2 * nc; i++) {
		bool via_add = i >= nc;
		u32 j = i % nc;

		memset(&g, 0, sizeof(g));
		input(&g, "x", x, 2);
		vinfo(&g, 11, via_add ? "d" : "s", ONNX_INT64, two, 1);
		vinfo(&g, 11, "p", ONNX_INT64, four, 1);
		vinfo(&g, 11, "a", ONNX_INT64, one, 1);
		if (via_add) {
			init(&g, "z", ONNX_INT64, two, 1, zeros);
			node(&g, "Add", "", "d,z", "s", NULL);
		}
		node(&g, c[j].op, "n", c[j].ins, "y", NULL);
		vinfo(&g, 12, "y", ONNX_FLOAT, rec, 2);
		m = model(&g, 13);
		snprintf(want, sizeof(want), "node %u (n, %s)", via_add,
			 c[j].op);
		if (fails(&m, -EINVAL, want, "comes from the values of input",
			  "which the model computes from its input data", NULL))
			return 1;
		ran++;
	}
	/* Reshape to the Shape of an activation: inferred, not refused */
	memset(&g, 0, sizeof(g));
	input(&g, "x", x, 2);
	vinfo(&g, 11, "d", ONNX_FLOAT, x, 2);
	node(&g, "Relu", "", "d", "r", NULL);
	node(&g, "Shape", "", "r", "s", NULL);
	node(&g, "Reshape", "n", "x,s", "y", NULL);
	output(&g, "y");
	m = model(&g, 13);
	if (parsed(&m, &in) || has(&in, "y", 48, "FLOAT [3,4]"))
		return 1;
	ta_input_free(&in);
	ran++;
	TA_CHECK(ran == 2 * nc + 1, "%u of %u cases", ran, 2 * nc + 1);
	return 0;
}

const struct ta_test ta_onnx_ort_tests[] = {
	{ "onnx: broadcasting with a lower-rank first operand (ONNX Runtime's sizes)",
	  t_broadcast_lower_rank_first },
	{ "onnx: Flatten with a negative axis", t_flatten_negative_axis },
	{ "onnx: Resize, Range, ConvTranspose refused where runtimes size them differently",
	  t_runtimes_differ },
	{ "onnx: Resize with axes and keep_aspect_ratio_policy (opset 18)",
	  t_resize_axes_policy },
	{ "onnx: ceil_mode pool into the end padding refused, Slice to INT64_MAX backwards",
	  t_pool_ceil_slice_end },
	{ "onnx: NonZero/Unique/Compress/NonMaxSuppression/TopK at their largest, Range bounded or refused",
	  t_data_dependent },
	{ "onnx: reductions of an input without elements, SAME pools",
	  t_empty_reduce_same_ceil },
	{ "onnx: SAME pools with dilations refused where ONNX Runtime differs",
	  t_same_pool_dilations },
	{ "onnx: ceil_mode with the window longer than the padded input",
	  t_ceil_pool_past_input },
	{ "onnx: reductions of what may be empty at run time (NonZero...)",
	  t_may_empty_reduce },
	{ "onnx: If/Loop/Scan and sequences refused", t_control_flow_refused },
	{ "onnx: an empty constant shape, axes input", t_empty_constant },
	{ "onnx: shape inputs from the model's data refused",
	  t_data_shape_refused },
	{ "onnx: recorded shapes of run-time shape inputs checked",
	  t_recorded_checked },
	{ NULL, NULL },
};
