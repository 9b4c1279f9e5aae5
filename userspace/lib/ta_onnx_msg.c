// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_onnx_msg.c - the ONNX reader (ta_onnx.c): data types, values and the
 * message readers.
 */
#include "ta_onnx_internal.h"

/* ---- data types ---- */

u32 ta_ox_type_bits(u32 t, const char **name)
{
	static const struct { const char *name; u32 bits; } types[] = {
		[0] = { "UNDEFINED", 0 },	[1] = { "FLOAT", 32 },
		[2] = { "UINT8", 8 },		[3] = { "INT8", 8 },
		[4] = { "UINT16", 16 },		[5] = { "INT16", 16 },
		[6] = { "INT32", 32 },		[7] = { "INT64", 64 },
		[8] = { "STRING", 0 },		[9] = { "BOOL", 8 },
		[10] = { "FLOAT16", 16 },	[11] = { "DOUBLE", 64 },
		[12] = { "UINT32", 32 },	[13] = { "UINT64", 64 },
		[14] = { "COMPLEX64", 64 },	[15] = { "COMPLEX128", 128 },
		[16] = { "BFLOAT16", 16 },	[17] = { "FLOAT8E4M3FN", 8 },
		[18] = { "FLOAT8E4M3FNUZ", 8 },	[19] = { "FLOAT8E5M2", 8 },
		[20] = { "FLOAT8E5M2FNUZ", 8 },	[21] = { "UINT4", 4 },
		[22] = { "INT4", 4 },		[23] = { "FLOAT4E2M1", 4 },
	};

	if (t >= TA_OX_NTYPES) {
		if (name)
			*name = "unknown";
		return 0;
	}
	if (name)
		*name = types[t].name;
	return types[t].bits;
}

bool ta_ox_is_int(u32 t)
{
	return t == TA_OX_INT64 || t == TA_OX_INT32 || t == TA_OX_INT16 ||
	       t == TA_OX_INT8 || t == TA_OX_UINT8 || t == TA_OX_UINT16 ||
	       t == TA_OX_UINT32 || t == TA_OX_UINT64 || t == TA_OX_BOOL;
}

u64 ta_ox_elems(const struct ta_ox_shape *s)
{
	u64 e = 1;
	u32 i;

	/* every shape stored was checked: the product is at most 2^36 */
	for (i = 0; i < s->rank; i++)
		e *= (u64)s->d[i];
	return e;
}

/* Whether two shapes are the same: rank and every dimension. */
bool ta_ox_shape_eq(const struct ta_ox_shape *a, const struct ta_ox_shape *b)
{
	return a->rank == b->rank &&
	       !memcmp(a->d, b->d, a->rank * sizeof(a->d[0]));
}

/* A shape's dimensions are >= 0 and its elements at most 2^36. */
bool ta_ox_shape_ok(const struct ta_ox_shape *s)
{
	u64 e = 1;
	u32 i;

	if (s->rank > TA_OX_MAX_RANK)
		return false;
	for (i = 0; i < s->rank; i++) {
		if (s->d[i] < 0 || (u64)s->d[i] > TA_OX_MAX_ELEMS)
			return false;
		/* non-zero dims too: a zero one must not hide a huge rest */
		if (!s->d[i])
			continue;
		if (e > TA_OX_MAX_ELEMS / (u64)s->d[i])
			return false;
		e *= (u64)s->d[i];
	}
	return true;
}

/* ---- values (named tensors) ---- */

u32 ta_ox_fnv(const struct ta_ox_span *s)
{
	u32 h = 2166136261u;
	u64 i;

	for (i = 0; i < s->len; i++)
		h = (h ^ s->p[i]) * 16777619u;
	return h;
}

int ta_ox_rehash(struct ta_ox *ox, u32 size)
{
	u32 *h = calloc(size, sizeof(*h)), i, k;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < ox->n_v; i++) {
		for (k = ta_ox_fnv(&ox->v[i].name) & (size - 1); h[k];
		     k = (k + 1) & (size - 1))
			;
		h[k] = i + 1;
	}
	free(ox->hash);
	ox->hash = h;
	ox->hash_mask = size - 1;
	return 0;
}

static s32 ta_ox_find(const struct ta_ox *ox, const struct ta_ox_span *name)
{
	u32 k;

	for (k = ta_ox_fnv(name) & ox->hash_mask; ox->hash[k];
	     k = (k + 1) & ox->hash_mask) {
		const struct ta_ox_span *s = &ox->v[ox->hash[k] - 1].name;

		if (s->len == name->len && !memcmp(s->p, name->p, s->len))
			return (s32)(ox->hash[k] - 1);
	}
	return -1;
}

/* The value named @name, created (declared) when new. */
int ta_ox_value(struct ta_ox *ox, const struct ta_ox_span *name,
		u32 *idx)
{
	s32 f = ta_ox_find(ox, name);
	struct ta_ox_value *v;
	int ret;

	if (f >= 0) {
		*idx = (u32)f;
		return 0;
	}
	if (ox->n_v >= TA_OX_MAX_VALUES)
		return ta_ox_fail(ox, -E2BIG, "more than %u named values",
				  TA_OX_MAX_VALUES);
	if (ox->n_v == ox->cap_v) {
		u32 c = ox->cap_v ? ox->cap_v * 2 : 256;

		v = realloc(ox->v, (size_t)c * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ox->v = v;
		ox->cap_v = c;
	}
	if ((ox->n_v + 1) * 2 > ox->hash_mask + 1) {
		ret = ta_ox_rehash(ox, (ox->hash_mask + 1) * 2);
		if (ret)
			return ret;
	}
	v = &ox->v[ox->n_v];
	memset(v, 0, sizeof(*v));
	v->name = *name;
	v->producer = -1;
	v->index = U32_MAX;
	*idx = ox->n_v++;
	{
		u32 k;

		for (k = ta_ox_fnv(name) & ox->hash_mask; ox->hash[k];
		     k = (k + 1) & ox->hash_mask)
			;
		ox->hash[k] = ox->n_v;
	}
	return 0;
}

/* Keep the values of a small tensor: ints (@iv) or floats (@fv). */
int ta_ox_keep(struct ta_ox_value *v, const s64 *iv, const double *fv,
	       u32 n)
{
	free(v->iv);
	free(v->fv);
	v->iv = NULL;
	v->fv = NULL;
	v->n_kept = 0;
	if (n > TA_OX_MAX_KEPT || n != ta_ox_elems(&v->shape))
		return 0;
	if (iv) {
		v->iv = malloc(sizeof(*iv) * (n ? n : 1));
		if (!v->iv)
			return -ENOMEM;
		memcpy(v->iv, iv, sizeof(*iv) * n);
	} else {
		v->fv = malloc(sizeof(*fv) * (n ? n : 1));
		if (!v->fv)
			return -ENOMEM;
		memcpy(v->fv, fv, sizeof(*fv) * n);
	}
	v->n_kept = n;
	return 0;
}

/* ---- TensorProto ---- */

static u64 ta_le(const u8 *p, u32 size)
{
	u64 x = 0;

	while (size--)
		x |= (u64)p[size] << (8 * size);
	return x;
}

static s64 ta_ox_sext(u64 x, u32 t)
{
	switch (t) {
	case TA_OX_INT8:
		return (s64)(int8_t)x;
	case TA_OX_INT16:
		return (s64)(int16_t)x;
	case TA_OX_INT32:
		return (s64)(int32_t)x;
	case TA_OX_UINT8:
		return (s64)(uint8_t)x;
	case TA_OX_UINT16:
		return (s64)(uint16_t)x;
	case TA_OX_UINT32:
		return (s64)(uint32_t)x;
	case TA_OX_BOOL:
		return x != 0;
	default:
		return (s64)x;
	}
}

static double ta_ox_f32(u64 bits)
{
	union { u32 u; float f; } c = { .u = (u32)bits };

	return c.f;
}

static double ta_ox_f64(u64 bits)
{
	union { u64 u; double f; } c = { .u = bits };

	return c.f;
}

/*
 * A TensorProto: name, type, shape; its data checked against the shape
 * and, for a small int or float tensor, decoded. @what names it for
 * messages ("initializer", "attribute 'value'").
 */
int ta_ox_tensor(struct ta_ox *ox, const struct ta_ox_span *s,
		 const char *what, struct ta_ox_tensor *t)
{
	struct ta_pb m = ta_pb_of(s, "TensorProto");
	struct ta_ox_span raw = { 0 };
	struct ta_pbf f;
	u64 ndims = 0, typed = 0, elems, bytes, x;
	bool has_raw = false, external = false;
	u32 bits, typed_field = 0, per_elem = 1, i;
	const char *tname;
	char nm[80];
	int ret;

	memset(t, 0, sizeof(*t));
	/* pass 1: everything but the typed data */
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		switch (f.num) {
		case 1:
			ret = ta_pb_ints(ox, &m, &f, t->shape.d, TA_OX_MAX_RANK,
					 &ndims, NULL, NULL);
			break;
		case 2:
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			t->dtype = (u32)f.v;
			if (!ret && f.v >= TA_OX_NTYPES)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"unknown data_type");
			break;
		case 3:
			return ta_ox_fail(ox, -EINVAL,
					  "%s '%s': segmented tensors are not supported",
					  what, ta_ox_print(&t->name, nm, sizeof(nm)));
		case 8:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			t->name = f.s;
			break;
		case 9:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			raw = f.s;
			has_raw = true;
			break;
		case 13:
			external = true;
			break;
		case 14:
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			external |= f.v == 1;
			break;
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (external)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': its data is stored outside the model (data_location EXTERNAL, external_data), which is not supported: save the model with its data inside",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	if (ndims > TA_OX_MAX_RANK)
		return ta_ox_fail(ox, -EINVAL, "%s '%s': %llu dimensions, more than %u",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)ndims, TA_OX_MAX_RANK);
	t->shape.rank = (u32)ndims;
	if (!ta_ox_shape_ok(&t->shape))
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': negative dimension or more than 2^36 elements",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	bits = ta_ox_type_bits(t->dtype, &tname);
	if (!bits)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': element type %s (%u) has no fixed size",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  tname, t->dtype);
	elems = ta_ox_elems(&t->shape);
	bytes = (elems * bits + 7) / 8;
	switch (t->dtype) {
	case TA_OX_FLOAT:
	case TA_OX_COMPLEX64:
		typed_field = 4;
		per_elem = t->dtype == TA_OX_COMPLEX64 ? 2 : 1;
		break;
	case TA_OX_INT64:
		typed_field = 7;
		break;
	case TA_OX_DOUBLE:
	case TA_OX_COMPLEX128:
		typed_field = 10;
		per_elem = t->dtype == TA_OX_COMPLEX128 ? 2 : 1;
		break;
	case TA_OX_UINT32:
	case TA_OX_UINT64:
		typed_field = 11;
		break;
	default:
		typed_field = 5;	/* int32_data: the small types */
		break;
	}
	/* pass 2: count the typed data, decode it when small */
	m = ta_pb_of(s, "TensorProto");
	t->is_float = t->dtype == TA_OX_FLOAT || t->dtype == TA_OX_DOUBLE;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		u64 before = typed;

		if (f.num != typed_field && (f.num == 4 || f.num == 5 ||
					     f.num == 7 || f.num == 10 ||
					     f.num == 11))
			return ta_ox_bad(ox, f.at, m.msg,
					 "data field that does not match data_type");
		if (f.num != typed_field)
			continue;
		if (typed_field == 4 || typed_field == 10) {
			u32 size = typed_field == 4 ? 4 : 8;

			ret = ta_pb_fixed_count(ox, &m, &f, size, &typed);
			for (x = before; !ret && x < typed &&
			     x < TA_OX_MAX_KEPT; x++) {
				const u8 *p = f.wire == TA_PB_LEN ?
					f.s.p + (x - before) * size : NULL;
				u64 b = p ? ta_le(p, size) : f.v;

				t->fv[x] = size == 4 ? ta_ox_f32(b) :
					   ta_ox_f64(b);
			}
		} else {
			ret = ta_pb_ints(ox, &m, &f, t->iv, TA_OX_MAX_KEPT,
					 &typed, NULL, NULL);
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (has_raw && typed)
		return ta_ox_fail(ox, -EINVAL, "%s '%s': both raw_data and typed data",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)));
	if (has_raw && raw.len != bytes)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': raw_data holds %llu bytes, its shape says %llu",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)raw.len,
				  (unsigned long long)bytes);
	if (!has_raw && bits >= 8 && typed != elems * per_elem)
		return ta_ox_fail(ox, -EINVAL,
				  "%s '%s': holds %llu values, its shape says %llu",
				  what, ta_ox_print(&t->name, nm, sizeof(nm)),
				  (unsigned long long)typed,
				  (unsigned long long)(elems * per_elem));
	if (elems > TA_OX_MAX_KEPT || per_elem != 1 || bits < 8)
		return 0;
	if (ta_ox_is_int(t->dtype)) {
		for (i = 0; i < elems; i++)
			t->iv[i] = has_raw ?
				ta_ox_sext(ta_le(raw.p + i * (bits / 8), bits / 8),
					   t->dtype) :
				ta_ox_sext((u64)t->iv[i], t->dtype);
		t->n_kept = (u32)elems;
	} else if (t->is_float) {
		for (i = 0; has_raw && i < elems; i++) {
			u64 b = ta_le(raw.p + i * (bits / 8), bits / 8);

			t->fv[i] = bits == 32 ? ta_ox_f32(b) : ta_ox_f64(b);
		}
		t->n_kept = (u32)elems;
	}
	return 0;
}

/* ---- ValueInfoProto ---- */

static int ta_ox_dim(struct ta_ox *ox, const struct ta_ox_span *s,
		     struct ta_ox_vinfo *vi, u32 i)
{
	struct ta_pb m = ta_pb_of(s, "TensorShapeProto.Dimension");
	struct ta_pbf f;
	bool value = false;
	int ret;

	vi->shape.d[i] = 0;
	vi->sym_name[i] = (struct ta_ox_span){ NULL, 0 };
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			if (ret)
				return ret;
			vi->shape.d[i] = (s64)f.v;
			value = true;
		} else if (f.num == 2 && f.wire == TA_PB_LEN) {
			vi->sym_name[i] = f.s;	/* dim_param */
		}
	}
	if (ret)
		return ret;
	if (!value)
		vi->sym |= 1U << i;	/* dim_param, or nothing */
	else if (vi->shape.d[i] < 0 ||
		 (u64)vi->shape.d[i] > TA_OX_MAX_ELEMS)
		return ta_ox_bad(ox, s->p, m.msg, "dim_value out of range");
	return 0;
}

/* TensorShapeProto: its dimensions. */
static int ta_ox_tshape(struct ta_ox *ox, const struct ta_ox_span *s,
			struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "TensorShapeProto");
	struct ta_pbf f;
	int ret;

	vi->has_shape = true;
	vi->shape.rank = 0;
	vi->sym = 0;
	vi->n_dims = 0;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		if (f.num != 1)
			continue;
		ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		/* past the limit, only counted: ta_ox_vinfo() names it */
		if (!ret && vi->n_dims++ < TA_OX_MAX_RANK)
			ret = ta_ox_dim(ox, &f.s, vi, vi->shape.rank++);
		if (ret)
			return ret;
	}
	return ret;
}

/* TypeProto.Tensor: elem_type and shape. */
static int ta_ox_tensor_type(struct ta_ox *ox, const struct ta_ox_span *s,
			     struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "TypeProto.Tensor");
	struct ta_pbf f;
	int ret;

	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			if (!ret && f.v >= TA_OX_NTYPES)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"unknown elem_type");
			vi->dtype = (u32)f.v;
			vi->has_type = true;
		} else if (f.num == 2) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_tshape(ox, &f.s, vi);
		}
		if (ret)
			return ret;
	}
	return ret;
}

/* ValueInfoProto: a name and, for a tensor, its type and shape. */
int ta_ox_vinfo(struct ta_ox *ox, const struct ta_ox_span *s,
		struct ta_ox_vinfo *vi)
{
	struct ta_pb m = ta_pb_of(s, "ValueInfoProto"), tp;
	struct ta_pbf f, g;
	int ret;

	memset(vi, 0, sizeof(*vi));
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		if (f.num != 1 && f.num != 2)
			continue;
		ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		if (ret)
			return ret;
		if (f.num == 1) {
			vi->name = f.s;
			continue;
		}
		tp = ta_pb_of(&f.s, "TypeProto");
		while ((ret = ta_pb_next(ox, &tp, &g)) > 0) {
			if (g.num != 1)
				continue;	/* sequence, map, ...: no tensor */
			ret = ta_pb_want(ox, &tp, &g, TA_PB_LEN) ?:
			      ta_ox_tensor_type(ox, &g.s, vi);
			if (ret)
				return ret;
		}
		if (ret)
			return ret;
	}
	if (!ret && vi->n_dims > TA_OX_MAX_RANK) {
		char nm[80];

		return ta_ox_fail(ox, -EINVAL,
				  "value '%s': %llu dimensions, more than %u (the most this importer plans)",
				  ta_ox_print(&vi->name, nm, sizeof(nm)),
				  (unsigned long long)vi->n_dims, TA_OX_MAX_RANK);
	}
	return ret;
}

/* ---- the graph's fields ---- */

static int ta_ox_push(struct ta_ox *ox, struct ta_ox_span **a, u32 *n,
		      u32 *cap, const struct ta_ox_span *s, u32 max,
		      const char *what)
{
	if (*n >= max)
		return ta_ox_fail(ox, -E2BIG, "more than %u %s: beyond the planner's limits",
				  max, what);
	if (*n == *cap) {
		u32 c = *cap ? *cap * 2 : 64;
		struct ta_ox_span *na = realloc(*a, sizeof(**a) * c);

		if (!na)
			return -ENOMEM;
		*a = na;
		*cap = c;
	}
	(*a)[(*n)++] = *s;
	return 0;
}

int ta_ox_graph_fields(struct ta_ox *ox, const struct ta_ox_span *g)
{
	struct ta_pb m = ta_pb_of(g, "GraphProto");
	struct ta_pbf f;
	int ret;

	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		switch (f.num) {
		case 1:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->nodes, &ox->n_nodes,
					 &ox->cap_nodes, &f.s,
					 TA_PLAN_MAX_STEPS, "nodes");
			break;
		case 5:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->inits, &ox->n_inits,
					 &ox->cap_inits, &f.s,
					 TA_PLAN_MAX_BUFFERS, "initializers");
			break;
		case 11:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->inputs, &ox->n_inputs,
					 &ox->cap_inputs, &f.s,
					 TA_PLAN_MAX_BUFFERS, "graph inputs");
			break;
		case 12:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->outputs, &ox->n_outputs,
					 &ox->cap_outputs, &f.s,
					 TA_PLAN_MAX_BUFFERS, "graph outputs");
			break;
		case 13:
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN) ?:
			      ta_ox_push(ox, &ox->vinfos, &ox->n_vinfos,
					 &ox->cap_vinfos, &f.s,
					 TA_OX_MAX_VALUES, "value_info entries");
			break;
		case 15:
			return ta_ox_fail(ox, -EINVAL,
					  "the graph has sparse initializers, which are not supported");
		}
		if (ret)
			return ret;
	}
	return ret;
}

int ta_ox_model(struct ta_ox *ox, struct ta_ox_span *graph)
{
	struct ta_ox_span all = { ox->base, ox->n };
	struct ta_pb m = ta_pb_of(&all, "ModelProto"), o;
	struct ta_pbf f, g;
	bool has_graph = false;
	int ret;

	ox->opset = -1;
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if (f.num == 1) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
			ox->info->ir_version = f.v;
		} else if (f.num == 7) {
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (!ret && has_graph)
				ret = ta_ox_bad(ox, f.at, m.msg,
						"a second graph field");
			*graph = f.s;
			has_graph = true;
		} else if (f.num == 8) {
			struct ta_ox_span dom = { (const u8 *)"", 0 };
			s64 version = -1;

			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (ret)
				return ret;
			o = ta_pb_of(&f.s, "OperatorSetIdProto");
			while ((ret = ta_pb_next(ox, &o, &g)) > 0) {
				ret = 0;
				if (g.num == 1)
					ret = ta_pb_want(ox, &o, &g, TA_PB_LEN);
				if (g.num == 1)
					dom = g.s;
				if (!ret && g.num == 2) {
					ret = ta_pb_want(ox, &o, &g,
							 TA_PB_VARINT);
					version = (s64)g.v;
				}
				if (ret)
					return ret;
			}
			if (!ret && (!dom.len || ta_span_is(&dom, "ai.onnx")))
				ox->opset = version;
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!has_graph)
		return ta_ox_fail(ox, -EINVAL,
				  "not an ONNX model: no ModelProto.graph (field 7)");
	if (ox->opset < 1 || ox->opset > 1000)
		return ta_ox_fail(ox, -EINVAL,
				  "no opset_import for the default ONNX domain (or a bad version): the op semantics are unknown");
	ox->info->opset = (u32)ox->opset;
	return 0;
}

/* ---- nodes: reading ---- */

void ta_ox_token(const struct ta_ox_span *s, char *buf, size_t max)
{
	size_t i, n = s->len < max - 1 ? s->len : max - 1;

	for (i = 0; i < n; i++) {
		u8 c = s->p[i];

		buf[i] = c <= ' ' || c >= 0x7f || c == '#' ? '_' : (char)c;
	}
	buf[n] = 0;
}

static int ta_ox_ref_push(struct ta_ox *ox, s32 v)
{
	if (ox->n_node_refs >= TA_OX_MAX_REFS)
		return ta_ox_fail(ox, -E2BIG,
				  "more than %u node inputs and outputs",
				  TA_OX_MAX_REFS);
	if (ox->n_node_refs == ox->cap_node_refs) {
		u32 c = ox->cap_node_refs ? ox->cap_node_refs * 2 : 1024;
		s32 *n = realloc(ox->node_refs, sizeof(*n) * c);

		if (!n)
			return -ENOMEM;
		ox->node_refs = n;
		ox->cap_node_refs = c;
	}
	ox->node_refs[ox->n_node_refs++] = v;
	return 0;
}

/* A node's input @name: an existing value, or -1 when empty. */
static int ta_ox_node_input(struct ta_ox *ox, const struct ta_ox_span *name)
{
	char nm[80];
	s32 v;

	if (!name->len)
		return ta_ox_ref_push(ox, -1);
	v = ta_ox_find(ox, name);
	if (v < 0 || ox->v[v].state == TA_OX_DECLARED)
		return ta_ox_node_fail(ox, -EINVAL,
				       "reads '%s', which no earlier node produces and which is not a graph input or initializer (nodes must be in topological order)",
				       ta_ox_print(name, nm, sizeof(nm)));
	return ta_ox_ref_push(ox, v);
}

/* A node's output @name: a new value, or -1 when empty. */
static int ta_ox_node_output(struct ta_ox *ox, const struct ta_ox_span *name)
{
	static const char *const already[] = {
		[TA_OX_GRAPH_INPUT] = "a graph input",
		[TA_OX_INITIALIZER] = "an initializer",
		[TA_OX_PRODUCED] =
			"written by an earlier node (or twice by this one)",
	};
	struct ta_ox_value *v;
	char nm[80];
	u32 idx;
	int ret;

	if (!name->len)
		return ta_ox_ref_push(ox, -1);
	ret = ta_ox_value(ox, name, &idx);
	if (ret)
		return ret;
	v = &ox->v[idx];
	if (v->state != TA_OX_DECLARED)
		return ta_ox_node_fail(ox, -EINVAL, "writes '%s', which is already %s",
				       ta_ox_print(name, nm, sizeof(nm)),
				       already[v->state]);
	v->state = TA_OX_PRODUCED;
	v->producer = (s32)ox->nd.index;
	return ta_ox_ref_push(ox, (s32)idx);
}

/*
 * Node @i: its fields; inputs resolved to values (each must exist),
 * outputs created. Refs go to ox->node_refs.
 */
int ta_ox_node_read(struct ta_ox *ox, u32 i)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_pb m = ta_pb_of(&ox->nodes[i], "NodeProto");
	struct ta_pbf f;
	u32 start = ox->n_node_refs, k;
	int ret;

	memset(nd, 0, offsetof(struct ta_ox_node, attrs));
	nd->index = i;
	nd->folded = false;
	nd->inplace = false;
	/* names first, for messages; inputs before outputs in the refs */
	while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
		ret = 0;
		if ((f.num >= 1 && f.num <= 5) || f.num == 7)
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
		if (ret)
			return ret;
		if (f.num == 3) {
			nd->name = f.s;
		} else if (f.num == 4) {
			nd->op = f.s;
		} else if (f.num == 7) {
			nd->domain = f.s;
		} else if (f.num == 5) {
			if (nd->n_attrs >= TA_OX_MAX_ATTRS)
				return ta_ox_bad(ox, f.at, m.msg,
						 "more than 1024 attributes");
			nd->attrs[nd->n_attrs++] = f.s;
		}
	}
	if (ret)
		return ret;
	ta_ox_token(&nd->op, nd->op_str, sizeof(nd->op_str));
	if (!nd->op_str[0])
		snprintf(nd->op_str, sizeof(nd->op_str), "no_op_type");
	ta_ox_print(&nd->name, nd->name_str, sizeof(nd->name_str));
	for (k = 1; k <= 2; k++) {
		m = ta_pb_of(&ox->nodes[i], "NodeProto");
		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			if (f.num != k)
				continue;
			ret = k == 1 ? ta_ox_node_input(ox, &f.s) :
			      ta_ox_node_output(ox, &f.s);
			if (ret)
				return ret;
			if (k == 1)
				nd->n_in++;
			else
				nd->n_out++;
		}
		if (ret)
			return ret;
	}
	ox->node_ref_start[i] = start;
	ox->node_n_in[i] = nd->n_in;
	ox->node_n_out[i] = nd->n_out;
	/* no node has named a value yet: node_refs is not allocated */
	nd->in = ox->node_refs ? ox->node_refs + start : NULL;
	nd->out = nd->in ? nd->in + nd->n_in : NULL;
	return 0;
}

/* ---- attributes ---- */

/* Attribute @name of the node: 1 found, 0 absent, or an error. */
int ta_ox_attr(struct ta_ox *ox, const char *name,
	       struct ta_ox_attr *a)
{
	struct ta_ox_node *nd = &ox->nd;
	struct ta_pbf f;
	u32 k;
	int ret;

	for (k = 0; k < nd->n_attrs; k++) {
		struct ta_pb m = ta_pb_of(&nd->attrs[k], "AttributeProto");
		bool match = false;

		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			ret = 0;
			if (f.num != 1)
				continue;
			ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
			if (ret)
				return ret;
			match = ta_span_is(&f.s, name);
		}
		if (ret)
			return ret;
		if (!match)
			continue;
		memset(a, 0, sizeof(*a));
		a->at = nd->attrs[k].p;
		m = ta_pb_of(&nd->attrs[k], "AttributeProto");
		while ((ret = ta_pb_next(ox, &m, &f)) > 0) {
			ret = 0;
			switch (f.num) {
			case 2:
				ret = ta_pb_want(ox, &m, &f, TA_PB_I32);
				a->f = ta_ox_f32(f.v);
				a->has_f = true;
				break;
			case 3:
				ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
				a->i = (s64)f.v;
				a->has_i = true;
				break;
			case 4:
				ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
				a->s = f.s;
				a->has_s = true;
				break;
			case 5:
				ret = ta_pb_want(ox, &m, &f, TA_PB_LEN);
				a->t = f.s;
				a->has_t = true;
				break;
			case 7: {
				u64 before = a->n_floats, x;

				ret = ta_pb_fixed_count(ox, &m, &f, 4,
							&a->n_floats);
				for (x = before; !ret && x < a->n_floats &&
				     x < TA_OX_MAX_KEPT; x++)
					a->floats[x] = ta_ox_f32(f.wire == TA_PB_LEN ?
						ta_le(f.s.p + 4 * (x - before), 4) :
						f.v);
				break;
			}
			case 8:
				ret = ta_pb_ints(ox, &m, &f, a->ints,
						 TA_OX_MAX_KEPT, &a->n_ints,
						 &a->ints_lo, &a->ints_hi);
				break;
			case 20:
				ret = ta_pb_want(ox, &m, &f, TA_PB_VARINT);
				a->type = (u32)f.v;
				break;
			}
			if (ret)
				return ret;
		}
		/*
		 * of a longer list only the first TA_OX_MAX_KEPT values are
		 * kept (and the range of the ints): its users check n_ints
		 * and n_floats
		 */
		if (ret)
			return ret;
		return 1;
	}
	return 0;
}

int ta_ox_attr_type(struct ta_ox *ox, const char *name,
		    const struct ta_ox_attr *a, u32 want, bool present)
{
	static const char *const names[] = {
		"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH",
		"FLOATS", "INTS",
	};

	if (a->type && a->type != want)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' is of type %s, want %s",
				       name, a->type < 8 ? names[a->type] :
				       "other", names[want]);
	if (!present)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' has no %s value", name,
				       names[want]);
	return 0;
}

int ta_ox_attr_int(struct ta_ox *ox, const char *name, s64 def,
		   s64 *v)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*v = def;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_INT, a.has_i);
	if (!ret)
		*v = a.i;
	return ret;
}

/* An INTS attribute: *@n = -1 when absent. */
int ta_ox_attr_ints(struct ta_ox *ox, const char *name, s64 *v,
		    u32 max, s32 *n)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	*n = -1;
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_INTS, true);
	if (ret)
		return ret;
	if (a.n_ints > max)
		return ta_ox_node_fail(ox, -EINVAL,
				       "attribute '%s' has %llu values, at most %u here",
				       name, (unsigned long long)a.n_ints, max);
	memcpy(v, a.ints, sizeof(*v) * a.n_ints);
	*n = (s32)a.n_ints;
	return 0;
}

int ta_ox_attr_str(struct ta_ox *ox, const char *name,
		   const char *def, char *buf, size_t max)
{
	struct ta_ox_attr a;
	int ret = ta_ox_attr(ox, name, &a);

	snprintf(buf, max, "%s", def);
	if (ret <= 0)
		return ret;
	ret = ta_ox_attr_type(ox, name, &a, TA_OX_AT_STRING, a.has_s);
	if (!ret)
		ta_ox_token(&a.s, buf, max);
	return ret;
}
