// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_wire.c - the ONNX reader (ta_onnx.c): messages and the protobuf
 * wire format.
 */
#include "ta_onnx_internal.h"

/* ---- messages ---- */

static void ta_ox_vmsg(struct ta_ox *ox, const char *fmt, va_list ap)
{
	int n;

	if (!ox->err || !ox->errlen || ox->err[0])
		return;		/* the first error is the one reported */
	n = snprintf(ox->err, ox->errlen, "%s: ", ox->path);
	if (n < 0 || (size_t)n >= ox->errlen)
		return;
	vsnprintf(ox->err + n, ox->errlen - n, fmt, ap);
}

int __attribute__((format(printf, 3, 4)))
ta_ox_fail(struct ta_ox *ox, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ta_ox_vmsg(ox, fmt, ap);
	va_end(ap);
	return ret;
}

/* "corrupt ONNX file at byte N (in MSG): what" */
int ta_ox_bad(struct ta_ox *ox, const u8 *at, const char *msg,
	      const char *what)
{
	return ta_ox_fail(ox, -EINVAL, "corrupt ONNX file at byte %llu (in %s): %s",
			  (unsigned long long)(at - ox->base), msg, what);
}

/* A printable copy of @s for messages: at most @max - 1 bytes. */
const char *ta_ox_print(const struct ta_ox_span *s, char *buf,
			size_t max)
{
	size_t i, n = s->len < max - 1 ? s->len : max - 1;

	for (i = 0; i < n; i++)
		buf[i] = s->p[i] >= ' ' && s->p[i] < 0x7f ? (char)s->p[i] : '?';
	buf[n] = 0;
	return buf;
}

/* "node N (name, OpType): what" */
int __attribute__((format(printf, 3, 4)))
ta_ox_node_fail(struct ta_ox *ox, int ret, const char *fmt, ...)
{
	struct ta_ox_node *nd = &ox->nd;
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (nd->name.len)
		return ta_ox_fail(ox, ret, "node %u (%s, %s): %s", nd->index,
				  nd->name_str, nd->op_str, msg);
	return ta_ox_fail(ox, ret, "node %u (%s): %s", nd->index, nd->op_str,
			  msg);
}

const char *ta_ox_vname(struct ta_ox *ox, u32 v, char *buf,
			size_t max)
{
	return ta_ox_print(&ox->v[v].name, buf, max);
}

void ta_ox_shape_str(const struct ta_ox_shape *s, char *buf,
		     size_t max)
{
	size_t n = 0;
	u32 i;

	n += snprintf(buf + n, max - n, "[");
	for (i = 0; i < s->rank && n < max; i++)
		n += snprintf(buf + n, max - n, "%s%lld", i ? "," : "",
			      (long long)s->d[i]);
	if (n < max)
		snprintf(buf + n, max - n, "]");
}

/* ---- the wire format ---- */

struct ta_pb ta_pb_of(const struct ta_ox_span *s, const char *msg)
{
	static const u8 none;
	struct ta_pb m = { .p = s->p ? s->p : &none, .msg = msg };

	m.end = m.p + (s->p ? s->len : 0);
	return m;
}

static int ta_pb_varint(struct ta_ox *ox, struct ta_pb *m, u64 *v)
{
	const u8 *start = m->p;
	u64 x = 0;
	u32 i;

	for (i = 0; i < 10; i++) {
		u8 c;

		if (m->p == m->end)
			return ta_ox_bad(ox, start, m->msg,
					 "varint runs past the end of its message");
		c = *m->p++;
		if (i == 9 && (c & 0x80))
			return ta_ox_bad(ox, start, m->msg,
					 "varint longer than 10 bytes");
		if (i == 9 && c > 1)
			return ta_ox_bad(ox, start, m->msg,
					 "varint beyond 64 bits");
		x |= (u64)(c & 0x7f) << (7 * i);
		if (!(c & 0x80))
			break;
	}
	*v = x;
	return 0;
}

/* The next field of @m: 1, 0 at the end, or -EINVAL. */
int ta_pb_next(struct ta_ox *ox, struct ta_pb *m, struct ta_pbf *f)
{
	u64 key, len, left;
	char what[96];
	int ret;

	if (m->p == m->end)
		return 0;
	f->at = m->p;
	ret = ta_pb_varint(ox, m, &key);
	if (ret)
		return ret;
	f->num = (u32)(key >> 3);
	f->wire = key & 7;
	if (!f->num || key >> 32)
		return ta_ox_bad(ox, f->at, m->msg, "bad field number");
	f->s.p = m->p;
	f->s.len = 0;
	left = (u64)(m->end - m->p);
	switch (f->wire) {
	case TA_PB_VARINT:
		return ta_pb_varint(ox, m, &f->v) ?: 1;
	case TA_PB_I64:
	case TA_PB_I32:
		len = f->wire == TA_PB_I64 ? 8 : 4;
		if (left < len)
			return ta_ox_bad(ox, f->at, m->msg,
					 "fixed-size field runs past the end");
		f->v = 0;
		while (len--)
			f->v |= (u64)m->p[len] << (8 * len);
		m->p += f->wire == TA_PB_I64 ? 8 : 4;
		return 1;
	case TA_PB_LEN:
		ret = ta_pb_varint(ox, m, &len);
		if (ret)
			return ret;
		left = (u64)(m->end - m->p);
		if (len > left) {
			snprintf(what, sizeof(what),
				 "field %u: length %llu runs past the end (%llu bytes left)",
				 f->num, (unsigned long long)len,
				 (unsigned long long)left);
			return ta_ox_bad(ox, f->at, m->msg, what);
		}
		f->s.p = m->p;
		f->s.len = len;
		m->p += len;
		return 1;
	default:
		snprintf(what, sizeof(what), "field %u: wire type %u (%s)",
			 f->num, f->wire, f->wire == 3 || f->wire == 4 ?
			 "a group, which ONNX does not use" : "undefined");
		return ta_ox_bad(ox, f->at, m->msg, what);
	}
}

/* A field must have wire type @wire. */
int ta_pb_want(struct ta_ox *ox, const struct ta_pb *m,
	       const struct ta_pbf *f, u32 wire)
{
	char what[80];

	if (f->wire == wire)
		return 0;
	snprintf(what, sizeof(what), "field %u has wire type %u, want %u",
		 f->num, f->wire, wire);
	return ta_ox_bad(ox, f->at, m->msg, what);
}

/* One value of a repeated integer field, as ta_pb_ints() takes it. */
static void ta_pb_int_add(s64 v, s64 *out, u32 max, u64 *n, s64 *lo, s64 *hi)
{
	if (*n < max)
		out[*n] = v;
	if (lo && (!*n || v < *lo))
		*lo = v;
	if (hi && (!*n || v > *hi))
		*hi = v;
	(*n)++;
}

/*
 * A repeated integer field (packed or not), called once per occurrence:
 * appends to @out (at most @max; *@n counts all of them), and with @lo
 * and @hi (or NULL) the least and the largest of all of them.
 */
int ta_pb_ints(struct ta_ox *ox, const struct ta_pb *m,
	       const struct ta_pbf *f, s64 *out, u32 max, u64 *n,
	       s64 *lo, s64 *hi)
{
	struct ta_pb p;
	u64 x;
	int ret;

	if (f->wire == TA_PB_VARINT) {
		ta_pb_int_add((s64)f->v, out, max, n, lo, hi);
		return 0;
	}
	ret = ta_pb_want(ox, m, f, TA_PB_LEN);
	if (ret)
		return ret;
	p = ta_pb_of(&f->s, m->msg);
	while (p.p < p.end) {
		ret = ta_pb_varint(ox, &p, &x);
		if (ret)
			return ret;
		ta_pb_int_add((s64)x, out, max, n, lo, hi);
	}
	return 0;
}

/* A repeated fixed-size field (float, double): elements in one occurrence. */
int ta_pb_fixed_count(struct ta_ox *ox, const struct ta_pb *m,
		      const struct ta_pbf *f, u32 size, u64 *n)
{
	if (f->wire == (size == 4 ? TA_PB_I32 : TA_PB_I64)) {
		(*n)++;
		return 0;
	}
	if (f->wire != TA_PB_LEN || f->s.len % size)
		return ta_ox_bad(ox, f->at, m->msg,
				 "packed fixed-size field of a bad length");
	*n += f->s.len / size;
	return 0;
}

bool ta_span_is(const struct ta_ox_span *s, const char *str)
{
	size_t l = strlen(str);

	return s->len == l && !memcmp(s->p, str, l);
}
