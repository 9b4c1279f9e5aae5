// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite_write.c - write a plan into a TFLite model as TFLite Micro's
 * OfflineMemoryAllocation metadata (Documentation/tflite.md).
 *
 * The model is not re-serialised. FlatBuffers offsets are relative and
 * point forward only, so the old file is kept whole, shifted behind a new
 * front part, and the new front part holds what changes:
 *
 *	0   root offset -> the new Model table
 *	4   "TFL3"
 *	8   the new Model's vtable and table: every field of the old root
 *	    (its offsets re-aimed into the shifted old file), but
 *	      buffers  -> a new vector: the old buffers, then one more
 *	      metadata -> a new vector: the old entries but any old
 *			  OfflineMemoryAllocation, then the new entry
 *	    the new Buffer and Metadata tables, the entry's name, and the
 *	    int32 data [version 1, subgraph 0, n, offset 0 .. offset n-1],
 *	    n the tensors of all subgraphs (ta_tflw_values())
 *	P   the old file, byte for byte (P is a multiple of 16, so every
 *	    alignment in it still holds; its own root offset and identifier
 *	    are dead bytes now)
 *
 * An old OfflineMemoryAllocation buffer stays in the buffers vector,
 * unreferenced. Refused: a model whose buffers live outside the
 * FlatBuffer (Buffer.offset: positions from the file's start, which the
 * shift would break), and a root table with fields this writer does not
 * know (it could not tell offsets from scalars).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"
#include "ta_tflite_fb.h"

#define TA_TFLW_MAX_FILE	BIT_ULL(31)

/* Which Model fields hold an offset (the others are scalars). */
static bool ta_tflw_is_offset(u32 id)
{
	return id != TA_MODEL_VERSION;
}

/* struct ta_tflw - the new front part being laid out, then filled */
struct ta_tflw {
	u8 *p;
	u64 n;
};

static void ta_tflw_u16(struct ta_tflw *w, u64 at, u32 v)
{
	w->p[at] = (u8)v;
	w->p[at + 1] = (u8)(v >> 8);
}

static void ta_tflw_u32(struct ta_tflw *w, u64 at, u32 v)
{
	ta_tflw_u16(w, at, v & 0xffff);
	ta_tflw_u16(w, at + 2, v >> 16);
}

/* Store at @at the uoffset that reaches @target (after @at). */
static void ta_tflw_ref(struct ta_tflw *w, u64 at, u64 target)
{
	ta_tflw_u32(w, at, (u32)(target - at));
}

/* Reserve @size bytes aligned to @align; so that @size+@skew is aligned. */
static u64 ta_tflw_take(u64 *n, u64 size, u64 align, u64 skew)
{
	u64 at = (*n + skew + align - 1) / align * align - skew;

	*n = at + size;
	return at;
}

static int ta_tflw_fail(struct ta_fb *fb, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ta_tflw_fail(struct ta_fb *fb, int ret, const char *fmt, ...)
{
	char what[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ta_err(fb->err, fb->errlen, fb->path, 0,
	       "cannot write %s: %s", TA_TFL_OFFLINE_NAME, what);
	return ret;
}

/* The subgraph and tensor a graph id names: "I", "S:I" or "S:I@K". */
static bool ta_tflw_id(const char *id, u64 *s, u64 *i)
{
	const char *colon = strchr(id, ':');
	char tmp[48];
	size_t l;

	*s = 0;
	if (!colon)
		return !ta_parse_u64(id, i);
	l = (size_t)(colon - id);
	if (l >= sizeof(tmp))
		return false;
	memcpy(tmp, id, l);
	tmp[l] = 0;
	if (ta_parse_u64(tmp, s))
		return false;
	l = strcspn(colon + 1, "@");
	if (l >= sizeof(tmp))
		return false;
	memcpy(tmp, colon + 1, l);
	tmp[l] = 0;
	return !ta_parse_u64(tmp, i);
}

static u32 ta_tflw_find(u32 *parent, u32 p)
{
	while (parent[p] != p) {
		parent[p] = parent[parent[p]];
		p = parent[p];
	}
	return p;
}

#define TA_TFLW_UNSET	((s64)INT64_MIN)

/*
 * The int32 values to write: the header, then one entry per tensor of
 * every subgraph in order (tensor I of subgraph S at base[S] + I, as
 * TFLite Micro checks the count and documents the layout; Vela writes
 * it so): the plan's offset for a tensor TFLite Micro plans (not a
 * constant, a variable or of size 0) that the plan holds, one offset for
 * all copies of an inlined subgraph; -1 otherwise. TFLite Micro's code
 * gives tensor I of *every* subgraph entry I, not base[S] + I: so the
 * entries that the two readings join (base[S] + I and I for each tensor
 * of the plan) must hold one value, and get -1 where the plan's offsets
 * for them differ. Either way TFLite Micro reads the same offsets.
 */
static int ta_tflw_values(struct ta_fb *fb, u32 n_sg, const u64 *base,
			  u64 total, const u64 *offsets,
			  const struct ta_input *in, s32 *v)
{
	s64 *want = NULL, *cls = NULL;
	u32 *parent = NULL, g, p, r;
	int ret = -ENOMEM;

	v[0] = TA_TFL_OFFLINE_VERSION;
	v[1] = 0;
	v[2] = (s32)total;
	want = malloc(sizeof(*want) * (total ? total : 1));
	cls = malloc(sizeof(*cls) * (total ? total : 1));
	parent = malloc(sizeof(*parent) * (total ? total : 1));
	if (!want || !cls || !parent)
		goto out;
	for (p = 0; p < total; p++) {
		want[p] = TA_TFLW_UNSET;
		cls[p] = TA_TFLW_UNSET;
		parent[p] = p;
	}
	/* each tensor of the plan: what it wants, and the entries joined */
	for (g = 0; g < in->graph.n_tensors; g++) {
		const struct ta_graph_tensor *t = &in->tensors[g];
		u64 s = 0, i = 0;
		s64 w = -1;

		if (!ta_tflw_id(in->ids[g], &s, &i) || s >= n_sg ||
		    i >= (s + 1 < n_sg ? base[s + 1] : total) - base[s]) {
			ret = ta_tflw_fail(fb, -EINVAL,
					   "the plan's tensor %s is no tensor of this model (a plan of another model?)",
					   in->ids[g]);
			goto out;
		}
		if (!t->size || (t->flags & TA_TENSOR_CONSTANT))
			continue;	/* TFLite Micro does not plan it */
		if (!(t->flags & TA_TENSOR_PERSISTENT) &&
		    offsets[g] != TA_OFFSET_UNFIXED) {
			if (offsets[g] > INT32_MAX) {
				ret = ta_tflw_fail(fb, -ERANGE,
						   "tensor %s: offset %llu does not fit the format's int32",
						   in->ids[g],
						   (unsigned long long)offsets[g]);
				goto out;
			}
			w = (s64)offsets[g];
		}
		p = (u32)(base[s] + i);
		/* copies of one subgraph: one entry, one offset or none */
		want[p] = want[p] == TA_TFLW_UNSET || want[p] == w ? w : -1;
		r = ta_tflw_find(parent, p);
		parent[r] = ta_tflw_find(parent, (u32)i);
	}
	for (p = 0; p < total; p++) {
		if (want[p] == TA_TFLW_UNSET)
			continue;
		r = ta_tflw_find(parent, p);
		cls[r] = cls[r] == TA_TFLW_UNSET || cls[r] == want[p] ?
			 want[p] : -1;
	}
	for (p = 0; p < total; p++) {
		s64 c = cls[ta_tflw_find(parent, p)];

		v[TA_TFL_OFFLINE_HEADER + p] = c == TA_TFLW_UNSET ? -1 : (s32)c;
	}
	ret = 0;
out:
	free(want);
	free(cls);
	free(parent);
	return ret;
}

/**
 * ta_tflite_offline_image() - a model with a plan as OfflineMemoryAllocation
 * @data: the model's bytes
 * @len: how many
 * @name: the model's name, for messages
 * @offsets: per graph tensor of @in, its offset (%TA_OFFSET_UNFIXED: none)
 * @in: the model as ta_tflite_parse() read it (constants may be dropped)
 * @out: out: the new model, malloc()ed
 * @out_len: out: its size
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: 0, -EINVAL, -ERANGE (with a message), -E2BIG, -ENOMEM.
 */
int ta_tflite_offline_image(const void *data, size_t len, const char *name,
			    const u64 *offsets, const struct ta_input *in,
			    u8 **out, size_t *out_len, char *err,
			    size_t errlen)
{
	static const char oname[] = TA_TFL_OFFLINE_NAME;
	struct ta_fb fb = { .p = data, .n = len, .path = name, .err = err,
			    .errlen = errlen };
	struct ta_fbt root, sg, meta, buf;
	struct ta_fbv subgraphs, tensors, buffers, metadata, mname;
	u64 *sg_base = NULL, total = 0;
	u64 n = 8, model_vt, model, bufvec, metavec, buf_vt, buf_t,
	    meta_vt, meta_t, name_at, data_at, base, at, ext, i;
	u32 n_values, n_meta = 0, n_bufs, new_buf, id, k;
	struct ta_tflw w;
	s32 *values = NULL;
	int ret;

	*out = NULL;
	*out_len = 0;
	if (err && errlen)
		err[0] = 0;
	if (!in->is_graph)
		return ta_tflw_fail(&fb, -EINVAL, "no graph");
	ret = ta_fb_root(&fb, &root);
	if (!ret)
		ret = ta_fb_vector(&fb, &root, TA_MODEL_SUBGRAPHS, 4,
				   &subgraphs);
	if (!ret)
		ret = ta_fb_vector(&fb, &root, TA_MODEL_BUFFERS, 4, &buffers);
	if (!ret)
		ret = ta_fb_vector(&fb, &root, TA_MODEL_METADATA, 4, &metadata);
	if (ret)
		return ret;
	if (!buffers.len)
		return ta_tflw_fail(&fb, -EINVAL,
				    "the model has no buffers, not even the empty buffer 0");
	if (!subgraphs.len || subgraphs.len > (1U << 16))
		return ta_tflw_fail(&fb, -EINVAL, "%llu subgraphs",
				    (unsigned long long)subgraphs.len);
	for (id = TA_MODEL_FIELDS; 4 + 2 * id + 2 <= root.vtsize; id++) {
		ret = ta_fb_field(&fb, &root, id, 1, &at);
		if (ret)
			return ret;
		if (at)
			return ta_tflw_fail(&fb, -EINVAL,
					    "the model's root has field %u, which this writer does not know",
					    id);
	}
	/* one entry per tensor of every subgraph, in order */
	sg_base = malloc(sizeof(*sg_base) * subgraphs.len);
	if (!sg_base)
		return -ENOMEM;
	for (i = 0; i < subgraphs.len; i++) {
		ret = ta_fb_vtable(&fb, &subgraphs, i, &sg);
		if (!ret)
			ret = ta_fb_vector(&fb, &sg, TA_SG_TENSORS, 4, &tensors);
		if (ret)
			goto out;
		sg_base[i] = total;
		total += tensors.len;
	}
	for (i = 0; i < buffers.len; i++) {
		ret = ta_fb_vtable(&fb, &buffers, i, &buf);
		if (!ret)
			ret = ta_fb_scalar(&fb, &buf, TA_BUF_OFFSET, 8, 0, &ext);
		if (!ret && ext > 1)
			ret = ta_tflw_fail(&fb, -EINVAL,
					   "buffer %llu is stored after the FlatBuffer (a model over 2 GiB)",
					   (unsigned long long)i);
		if (ret)
			goto out;
	}
	/* which metadata entries stay: all but OfflineMemoryAllocation */
	for (i = 0; i < metadata.len; i++) {
		ret = ta_fb_vtable(&fb, &metadata, i, &meta);
		if (!ret)
			ret = ta_fb_vector(&fb, &meta, TA_META_NAME, 1, &mname);
		if (ret)
			goto out;
		n_meta += !(mname.len == sizeof(oname) - 1 &&
			    !memcmp(fb.p + mname.data, oname, mname.len));
	}
	if (total > TA_PLAN_MAX_BUFFERS || buffers.len > (1U << 28)) {
		ret = ta_tflw_fail(&fb, -E2BIG, "%llu tensors: too many",
				   (unsigned long long)total);
		goto out;
	}
	n_values = TA_TFL_OFFLINE_HEADER + (u32)total;
	values = malloc(sizeof(*values) * n_values);
	if (!values) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ta_tflw_values(&fb, (u32)subgraphs.len, sg_base, total, offsets,
			     in, values);
	if (ret)
		goto out;

	/* lay the front part out: every offset in it points forward */
	n_bufs = (u32)buffers.len + 1;
	new_buf = n_bufs - 1;
	model_vt = ta_tflw_take(&n, 4 + 2 * TA_MODEL_FIELDS, 2, 0);
	model = ta_tflw_take(&n, 4 + 4 * TA_MODEL_FIELDS, 4, 0);
	bufvec = ta_tflw_take(&n, 4 + 4ULL * n_bufs, 4, 0);
	metavec = ta_tflw_take(&n, 4 + 4ULL * (n_meta + 1), 4, 0);
	buf_vt = ta_tflw_take(&n, 6, 2, 0);	/* Buffer: data only */
	buf_t = ta_tflw_take(&n, 8, 4, 0);
	meta_vt = ta_tflw_take(&n, 8, 2, 0);	/* Metadata: name, buffer */
	meta_t = ta_tflw_take(&n, 12, 4, 0);
	name_at = ta_tflw_take(&n, 4 + sizeof(oname), 4, 0);
	/* Buffer.data is force_align 16: its bytes, after the length */
	data_at = ta_tflw_take(&n, 4 + 4ULL * n_values, 16, 4);
	base = ta_tflw_take(&n, 0, 16, 0);	/* the old file from here */
	if (base + len >= TA_TFLW_MAX_FILE) {
		ret = ta_tflw_fail(&fb, -E2BIG, "%llu bytes: over 2 GiB",
				   (unsigned long long)(base + len));
		goto out;
	}
	w.n = base + len;
	w.p = calloc(1, w.n);
	if (!w.p) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(w.p + base, data, len);
	ta_tflw_ref(&w, 0, model);
	memcpy(w.p + 4, "TFL3", 4);

	/* Model: the old fields, buffers and metadata new */
	ta_tflw_u16(&w, model_vt, 4 + 2 * TA_MODEL_FIELDS);
	ta_tflw_u16(&w, model_vt + 2, 4 + 4 * TA_MODEL_FIELDS);
	ta_tflw_u32(&w, model, (u32)(model - model_vt));
	for (id = 0; id < TA_MODEL_FIELDS; id++) {
		u64 field = model + 4 + 4 * id;

		if (id == TA_MODEL_BUFFERS || id == TA_MODEL_METADATA) {
			ta_tflw_ref(&w, field, id == TA_MODEL_BUFFERS ?
				    bufvec : metavec);
		} else {
			ret = ta_fb_field(&fb, &root, id, 4, &at);
			if (ret)
				goto out_free;
			if (!at)
				continue;
			if (ta_tflw_is_offset(id))
				ta_tflw_ref(&w, field,
					    base + at + ta_fb_u32(&fb, at));
			else
				ta_tflw_u32(&w, field, ta_fb_u32(&fb, at));
		}
		ta_tflw_u16(&w, model_vt + 4 + 2 * id, (u32)(field - model));
	}

	/* buffers: the old ones, then the new one */
	ta_tflw_u32(&w, bufvec, n_bufs);
	for (i = 0; i < buffers.len; i++) {
		u64 old = buffers.data + 4 * i;

		ta_tflw_ref(&w, bufvec + 4 + 4 * i,
			    base + old + ta_fb_u32(&fb, old));
	}
	ta_tflw_ref(&w, bufvec + 4 + 4ULL * new_buf, buf_t);

	/* metadata: the old entries but OfflineMemoryAllocation, then it */
	ta_tflw_u32(&w, metavec, n_meta + 1);
	for (i = 0, k = 0; i < metadata.len; i++) {
		u64 old = metadata.data + 4 * i;

		ret = ta_fb_vtable(&fb, &metadata, i, &meta);
		if (!ret)
			ret = ta_fb_vector(&fb, &meta, TA_META_NAME, 1, &mname);
		if (ret)
			goto out_free;
		if (mname.len == sizeof(oname) - 1 &&
		    !memcmp(fb.p + mname.data, oname, mname.len))
			continue;
		ta_tflw_ref(&w, metavec + 4 + 4ULL * k++,
			    base + old + ta_fb_u32(&fb, old));
	}
	ta_tflw_ref(&w, metavec + 4 + 4ULL * k, meta_t);

	/* the new Buffer */
	ta_tflw_u16(&w, buf_vt, 6);
	ta_tflw_u16(&w, buf_vt + 2, 8);
	ta_tflw_u16(&w, buf_vt + 4, 4);
	ta_tflw_u32(&w, buf_t, (u32)(buf_t - buf_vt));
	ta_tflw_ref(&w, buf_t + 4, data_at);

	/* the new Metadata */
	ta_tflw_u16(&w, meta_vt, 8);
	ta_tflw_u16(&w, meta_vt + 2, 12);
	ta_tflw_u16(&w, meta_vt + 4, 4);
	ta_tflw_u16(&w, meta_vt + 6, 8);
	ta_tflw_u32(&w, meta_t, (u32)(meta_t - meta_vt));
	ta_tflw_ref(&w, meta_t + 4, name_at);
	ta_tflw_u32(&w, meta_t + 8, new_buf);
	ta_tflw_u32(&w, name_at, sizeof(oname) - 1);
	memcpy(w.p + name_at + 4, oname, sizeof(oname));	/* and NUL */

	/* the data: int32 little-endian */
	ta_tflw_u32(&w, data_at, 4 * n_values);
	for (k = 0; k < n_values; k++)
		ta_tflw_u32(&w, data_at + 4 + 4ULL * k, (u32)values[k]);

	*out = w.p;
	*out_len = w.n;
	free(values);
	free(sg_base);
	return 0;
out_free:
	free(w.p);
out:
	free(values);
	free(sg_base);
	return ret;
}

/**
 * ta_tflite_write_offline() - write a copy of a model with a plan in it
 * @in_path: the model
 * @out_path: the copy to write (may be @in_path)
 * @offsets: per graph tensor of @in, its offset
 * @in: the model as ta_tflite_read() read it
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * See ta_tflite_offline_image().
 *
 * Return: as ta_tflite_offline_image(), or -errno.
 */
int ta_tflite_write_offline(const char *in_path, const char *out_path,
			    const u64 *offsets, const struct ta_input *in,
			    char *err, size_t errlen)
{
	size_t len, out_len = 0;
	char *data = ta_slurp(in_path, &len);
	u8 *image = NULL;
	FILE *f;
	int ret;

	if (!data) {
		ret = -errno;
		ta_err(err, errlen, in_path, 0, "%s", strerror(errno));
		return ret;
	}
	ret = ta_tflite_offline_image(data, len, in_path, offsets, in, &image,
				      &out_len, err, errlen);
	free(data);
	if (ret)
		return ret;
	f = fopen(out_path, "wb");
	if (!f) {
		ret = -errno;
		ta_err(err, errlen, out_path, 0, "%s", strerror(errno));
		free(image);
		return ret;
	}
	if (fwrite(image, 1, out_len, f) != out_len)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		ta_err(err, errlen, out_path, 0, "write error");
	free(image);
	return ret;
}
