// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_fb.c - the checked FlatBuffer reads that ta_tflite_fb.h
 * declares, shared by the TFLite reader (ta_tflite.c) and the
 * OfflineMemoryAllocation writer (ta_tflite_write.c).
 */
#include <errno.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"
#include "ta_tflite_fb.h"

int ta_fb_bad(struct ta_fb *fb, u64 at, const char *what)
{
	ta_err(fb->err, fb->errlen, fb->path, 0,
	       "corrupt TFLite file at byte %llu: %s",
	       (unsigned long long)at, what);
	return -EINVAL;
}

static bool ta_fb_in(const struct ta_fb *fb, u64 pos, u64 len)
{
	return pos <= fb->n && len <= fb->n - pos;
}

u32 ta_fb_u32(const struct ta_fb *fb, u64 pos)
{
	const u8 *b = fb->p + pos;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static u16 ta_fb_u16(const struct ta_fb *fb, u64 pos)
{
	return (u16)(fb->p[pos] | fb->p[pos + 1] << 8);
}

static u64 ta_fb_u64(const struct ta_fb *fb, u64 pos)
{
	return (u64)ta_fb_u32(fb, pos) | (u64)ta_fb_u32(fb, pos + 4) << 32;
}

/* Follow the uoffset stored at @pos. */
int ta_fb_deref(struct ta_fb *fb, u64 pos, u64 *to)
{
	if (!ta_fb_in(fb, pos, 4))
		return ta_fb_bad(fb, pos, "offset beyond the end");
	*to = pos + ta_fb_u32(fb, pos);
	if (!ta_fb_in(fb, *to, 4))
		return ta_fb_bad(fb, pos, "offset points beyond the end");
	return 0;
}

/* The table at @pos: check its vtable and its extent. */
int ta_fb_table(struct ta_fb *fb, u64 pos, struct ta_fbt *t)
{
	s64 vt;

	if (!ta_fb_in(fb, pos, 4))
		return ta_fb_bad(fb, pos, "table beyond the end");
	vt = (s64)pos - (s64)(s32)ta_fb_u32(fb, pos);
	if (vt < 0 || !ta_fb_in(fb, (u64)vt, 4))
		return ta_fb_bad(fb, pos, "vtable outside the file");
	t->pos = pos;
	t->vt = (u64)vt;
	t->vtsize = ta_fb_u16(fb, t->vt);
	t->tsize = ta_fb_u16(fb, t->vt + 2);
	if (t->vtsize < 4 || (t->vtsize & 1) || !ta_fb_in(fb, t->vt, t->vtsize))
		return ta_fb_bad(fb, t->vt, "bad vtable size");
	if (t->tsize < 4 || !ta_fb_in(fb, pos, t->tsize))
		return ta_fb_bad(fb, pos, "table runs past the end");
	return 0;
}

/*
 * Field @id of table @t, @size bytes: its position in *@at, or 0 when the
 * field is absent (default value). -EINVAL when it does not fit the table.
 */
int ta_fb_field(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		u64 *at)
{
	u32 slot = 4 + 2 * id, fo;

	*at = 0;
	if (slot + 2 > t->vtsize)
		return 0;
	fo = ta_fb_u16(fb, t->vt + slot);
	if (!fo)
		return 0;
	if (fo < 4 || (u64)fo + size > t->tsize)
		return ta_fb_bad(fb, t->vt + slot, "field outside its table");
	*at = t->pos + fo;
	return 0;
}

int ta_fb_scalar(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 size,
		 u64 def, u64 *v)
{
	u64 at;
	int ret = ta_fb_field(fb, t, id, size, &at);

	if (ret)
		return ret;
	if (!at)
		*v = def;
	else if (size == 1)
		*v = fb->p[at];
	else if (size == 4)
		*v = ta_fb_u32(fb, at);
	else
		*v = ta_fb_u64(fb, at);
	return 0;
}

/* Vector field @id of @t with @esize-byte elements; absent = empty. */
int ta_fb_vector(struct ta_fb *fb, const struct ta_fbt *t, u32 id, u32 esize,
		 struct ta_fbv *v)
{
	u64 at, pos;
	int ret = ta_fb_field(fb, t, id, 4, &at);

	v->len = 0;
	v->data = 0;
	if (ret || !at)
		return ret;
	ret = ta_fb_deref(fb, at, &pos);
	if (ret)
		return ret;
	v->len = ta_fb_u32(fb, pos);
	v->data = pos + 4;
	if (!ta_fb_in(fb, v->data, v->len * esize))
		return ta_fb_bad(fb, pos, "vector runs past the end");
	return 0;
}

/* Element @i of a vector of tables. */
int ta_fb_vtable(struct ta_fb *fb, const struct ta_fbv *v, u64 i,
		 struct ta_fbt *t)
{
	u64 pos;
	int ret = ta_fb_deref(fb, v->data + 4 * i, &pos);

	return ret ? ret : ta_fb_table(fb, pos, t);
}

int ta_fb_root(struct ta_fb *fb, struct ta_fbt *root)
{
	u64 pos;
	int ret;

	if (fb->n < 8) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "too short to be a TFLite model (%llu bytes)",
		       (unsigned long long)fb->n);
		return -EINVAL;
	}
	if (memcmp(fb->p + 4, "TFL3", 4))
		return ta_fb_bad(fb, 4, "no TFL3 identifier at bytes 4..7");
	ret = ta_fb_deref(fb, 0, &pos);
	return ret ? ret : ta_fb_table(fb, pos, root);
}
