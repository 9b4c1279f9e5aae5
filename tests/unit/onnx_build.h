/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * onnx_build.h - what the ONNX unit tests share: a small protobuf encoder,
 * ModelProto builders (inputs, initializers, attributes, nodes) and the
 * checks on a parse (parse, parsed, has, fails). Included by test_onnx*.c
 * only; static inline, so each file takes what it uses.
 */
#ifndef TA_ONNX_BUILD_H
#define TA_ONNX_BUILD_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_test.h"

/* ---- a protobuf encoder ---- */

struct pbw {
	u8 *b;
	size_t n, cap;
};

static inline void pb_raw(struct pbw *w, const void *p, size_t n)
{
	if (w->n + n > w->cap) {
		w->cap = (w->n + n) * 2 + 64;
		w->b = realloc(w->b, w->cap);
		if (!w->b)
			abort();
	}
	if (n)
		memcpy(w->b + w->n, p, n);
	w->n += n;
}

static inline void pb_varint(struct pbw *w, u64 v)
{
	u8 c;

	do {
		c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		pb_raw(w, &c, 1);
	} while (v);
}

static inline void pb_key(struct pbw *w, u32 num, u32 wire)
{
	pb_varint(w, (u64)num << 3 | wire);
}

static inline void pb_int(struct pbw *w, u32 num, s64 v)
{
	pb_key(w, num, 0);
	pb_varint(w, (u64)v);
}

static inline void pb_bytes(struct pbw *w, u32 num, const void *p, size_t n)
{
	pb_key(w, num, 2);
	pb_varint(w, n);
	pb_raw(w, p, n);
}

static inline void pb_str(struct pbw *w, u32 num, const char *s)
{
	pb_bytes(w, num, s, strlen(s));
}

/* Embed @sub as field @num and free it. */
static inline void pb_msg(struct pbw *w, u32 num, struct pbw *sub)
{
	pb_bytes(w, num, sub->b, sub->n);
	free(sub->b);
	memset(sub, 0, sizeof(*sub));
}

static inline void pb_packed(struct pbw *w, u32 num, const s64 *v, u32 n)
{
	struct pbw p = { 0 };
	u32 i;

	for (i = 0; i < n; i++)
		pb_varint(&p, (u64)v[i]);
	pb_msg(w, num, &p);
}

/* ---- ONNX messages ---- */

#define ONNX_FLOAT	1
#define ONNX_INT64	7
#define SYM		(-1)	/* a dim_param dimension, "N" */
#define SYM_T		(-2)	/* another, "T" */
#define SYM_ANON	(-3)	/* a dimension with neither value nor name */

/* A ValueInfoProto: FLOAT or @dtype, @rank dims (SYM, SYM_T, SYM_ANON). */
static inline void vinfo(struct pbw *g, u32 field, const char *name, int dtype,
			 const s64 *dims, int rank)
{
	struct pbw vi = { 0 }, tp = { 0 }, tt = { 0 }, sh = { 0 }, d = { 0 };
	int i;

	pb_str(&vi, 1, name);
	pb_int(&tt, 1, dtype);
	for (i = 0; i < rank; i++) {
		if (dims[i] == SYM)
			pb_str(&d, 2, "N");
		else if (dims[i] == SYM_T)
			pb_str(&d, 2, "T");
		else if (dims[i] != SYM_ANON)
			pb_int(&d, 1, dims[i]);
		pb_msg(&sh, 1, &d);
	}
	if (rank >= 0)
		pb_msg(&tt, 2, &sh);
	pb_msg(&tp, 1, &tt);
	pb_msg(&vi, 2, &tp);
	pb_msg(g, field, &vi);
}

static inline void input(struct pbw *g, const char *name, const s64 *dims, int rank)
{
	vinfo(g, 11, name, ONNX_FLOAT, dims, rank);
}

static inline void output(struct pbw *g, const char *name)
{
	struct pbw vi = { 0 };

	pb_str(&vi, 1, name);
	pb_msg(g, 12, &vi);
}

/* A TensorProto's dims, data_type and name: its element count. */
static inline u64 tensor_head(struct pbw *t, const char *name, int dtype,
			      const s64 *dims, int rank)
{
	u64 elems = 1;
	int i;

	for (i = 0; i < rank; i++) {
		pb_int(t, 1, dims[i]);
		elems *= (u64)dims[i];
	}
	pb_int(t, 2, dtype);
	pb_str(t, 8, name);
	return elems;
}

/* An initializer: FLOAT zeros in raw_data, or INT64 @vals unpacked. */
static inline void init(struct pbw *g, const char *name, int dtype, const s64 *dims,
			int rank, const s64 *vals)
{
	struct pbw t = { 0 };
	u64 elems = tensor_head(&t, name, dtype, dims, rank);

	if (dtype == ONNX_INT64) {
		for (u64 k = 0; k < elems; k++)
			pb_int(&t, 7, vals[k]);
	} else {
		u8 *z = calloc(elems * 4 + 1, 1);

		pb_bytes(&t, 9, z, elems * 4);
		free(z);
	}
	pb_msg(g, 5, &t);
}

/* A FLOAT initializer with the values @vals, in raw_data. */
static inline void init_f(struct pbw *g, const char *name, const s64 *dims,
			  int rank, const float *vals)
{
	struct pbw t = { 0 };
	u64 elems = tensor_head(&t, name, ONNX_FLOAT, dims, rank);

	pb_bytes(&t, 9, vals, elems * 4);
	pb_msg(g, 5, &t);
}

/* Attributes: "name=i", "name=[a,b]" (ints), "name:s" (string). */
static inline void attr(struct pbw *nd, const char *spec)
{
	struct pbw a = { 0 };
	char name[64];
	const char *eq = strpbrk(spec, "=:");
	size_t l = (size_t)(eq - spec);

	memcpy(name, spec, l);
	name[l] = 0;
	pb_str(&a, 1, name);
	if (*eq == ':') {
		pb_str(&a, 4, eq + 1);
		pb_int(&a, 20, 3);
	} else if (eq[1] == '[') {
		s64 v[512];
		u32 n = 0;
		char *p = (char *)eq + 2;

		while (*p && *p != ']' && n < 512) {
			v[n++] = strtoll(p, &p, 10);
			if (*p == ',')
				p++;
		}
		pb_packed(&a, 8, v, n);
		pb_int(&a, 20, 7);
	} else {
		pb_int(&a, 3, strtoll(eq + 1, NULL, 10));
		pb_int(&a, 20, 2);
	}
	pb_msg(nd, 5, &a);
}

/*
 * A node: "Op name in1,in2 -> out1 | attr attr"; "-" is an empty input,
 * a name of "" leaves the node unnamed.
 */
static inline void node(struct pbw *g, const char *op, const char *name,
			const char *ins, const char *outs, ...)
{
	struct pbw nd = { 0 };
	const char *a;
	char buf[256], *tok, *save;
	va_list ap;

	snprintf(buf, sizeof(buf), "%s", ins);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pb_str(&nd, 1, strcmp(tok, "-") ? tok : "");
	snprintf(buf, sizeof(buf), "%s", outs);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		pb_str(&nd, 2, strcmp(tok, "-") ? tok : "");
	if (*name)
		pb_str(&nd, 3, name);
	pb_str(&nd, 4, op);
	va_start(ap, outs);
	while ((a = va_arg(ap, const char *)))
		attr(&nd, a);
	va_end(ap);
	pb_msg(g, 1, &nd);
}

/* The ModelProto around @g (freed): IR 7, default opset @opset. */
static inline struct pbw model(struct pbw *g, int opset)
{
	struct pbw m = { 0 }, o = { 0 };

	pb_int(&m, 1, 7);
	pb_str(&o, 1, "");
	pb_int(&o, 2, opset);
	pb_msg(&m, 8, &o);
	pb_msg(&m, 7, g);
	return m;
}

static inline int parse(const struct pbw *m, struct ta_input *in,
			struct ta_onnx_info *info, char *err, size_t errlen)
{
	return ta_onnx_parse(m->b, m->n, "t.onnx", in, info, err, errlen);
}

/* Tensor named @name in @in: its index, or -1. */
static inline int tensor(const struct ta_input *in, const char *name)
{
	u32 i;

	for (i = 0; i < in->graph.n_tensors; i++)
		if (!strcmp(in->ids[i], name))
			return (int)i;
	return -1;
}

/* The graph's tensor @name has size @size and a note starting @note. */
static inline int has(const struct ta_input *in, const char *name, u64 size,
		      const char *note)
{
	int t = tensor(in, name);

	TA_CHECK(t >= 0, "no tensor %s", name);
	TA_CHECK(in->tensors[t].size == size, "%s: size %llu, want %llu", name,
		 (unsigned long long)in->tensors[t].size,
		 (unsigned long long)size);
	TA_CHECK(!strncmp(in->notes[t], note, strlen(note)),
		 "%s: note '%s', want '%s'", name, in->notes[t], note);
	return 0;
}

/* Parsing @m fails with @want and a message holding every string given. */
static inline int fails(struct pbw *m, int want, ...)
{
	struct ta_input in;
	char err[512] = "";
	const char *s;
	va_list ap;
	int ret = parse(m, &in, NULL, err, sizeof(err));

	free(m->b);
	if (!ret)
		ta_input_free(&in);
	TA_CHECK(ret == want, "ret %d, want %d (%s)", ret, want, err);
	TA_CHECK(!strncmp(err, "t.onnx: ", 8) && !strstr(err, ":0:"),
		 "message '%s'", err);
	va_start(ap, want);
	while ((s = va_arg(ap, const char *))) {
		if (!strstr(err, s)) {
			va_end(ap);
			TA_CHECK(0, "message '%s' lacks '%s'", err, s);
		}
	}
	va_end(ap);
	return 0;
}

/* Parse @m (freed) into @in; 0, or 1 with the error printed. */
static inline int parsed(struct pbw *m, struct ta_input *in)
{
	char err[512] = "";
	int ret = parse(m, in, NULL, err, sizeof(err));

	free(m->b);
	TA_CHECK(!ret, "%s", err);
	return 0;
}

#define ONNX_BOOL	9

#endif /* TA_ONNX_BUILD_H */
