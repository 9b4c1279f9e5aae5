// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_tflite.c - read a TensorFlow Lite model (.tflite) as a graph.
 *
 * A .tflite file is a FlatBuffer with the file identifier "TFL3" at bytes
 * 4..7. It is read here directly, by hand, from the TFLite schema's field
 * numbers (no flatc, no generated code), and every read is checked against
 * the file size first: a root offset, a table's vtable, a field, an offset
 * to a vector or string, a vector's length and every index the model holds
 * (tensor, buffer, operator code, subgraph). A corrupt file is -EINVAL with
 * a message, never a read outside the file.
 *
 * What is read (see Documentation/tflite.md):
 *
 *	Model     1 operator_codes  2 subgraphs  4 buffers  6 metadata
 *	SubGraph  0 tensors  1 inputs  2 outputs  3 operators
 *	Tensor    0 shape  1 type  2 buffer  3 name  5 is_variable
 *	Operator  0 opcode_index  1 inputs  2 outputs   (-1 = optional input)
 *		  3, 4 builtin_options (IfOptions, WhileOptions, CallOnceOptions)
 *	OperatorCode  0 deprecated_builtin_code  1 custom_code  3 builtin_code
 *	Buffer    0 data  2 size  (data in the file, or beyond it)
 *	Metadata  0 name  1 buffer  ("OfflineMemoryAllocation" only)
 *
 * The graph is subgraph 0, the main graph, with every subgraph it calls
 * (IF, WHILE, CALL_ONCE, recursively) inlined at the calling op between a
 * begin and an end op that keep the call's tensors live as TFLite runs
 * them (ta_tfl_emit_call()). The graph has one tensor per TFLite tensor
 * that an op references, subgraph 0's first in TFLite index order with the
 * index as id, then those of each inlined copy, "S:I" (subgraph S, tensor
 * I; "S:I@K" for the K-th copy of a subgraph called from several places);
 * the ops in execution order. Flags: a tensor whose buffer holds data is
 * constant, an is_variable tensor persistent, subgraph 0's inputs and
 * outputs input and output. Sizes are the product of the shape times the
 * element size; every tensor is 64-byte aligned (TFLite's
 * kDefaultTensorAlignment, which its interpreter checks for the buffers it
 * is handed; TFLite Micro's arena aligns to 16). tactl --align changes it
 * (ta_input_retune()). RESHAPE, SQUEEZE, EXPAND_DIMS and BITCAST, views of
 * their first input, are marked TA_OP_INPLACE when their first input and
 * output have the same size.
 *
 * The reader's files: ta_tflite_fb.c, the checked FlatBuffer reads (shared
 * with the writer, ta_tflite_write.c); ta_tflite_sg.c, the schema's enums
 * and the subgraphs, each read once; ta_tflite_inline.c, the inlining of
 * control flow; and this one, the OfflineMemoryAllocation metadata, the
 * graph and the entry points. ta_tflite_internal.h is what they share.
 */
#include "ta_tflite_internal.h"

/* ---- OfflineMemoryAllocation ---- */

/*
 * As TFLite Micro reads it (micro_allocation_info.cc,
 * GetOfflinePlannedOffsets() and InitializeAllocationInfo()): the entry's
 * buffer holds int32s [version, subgraph, n, offsets...]; version and
 * subgraph are never read (Vela writes [0, 1, n]: its 1 is the number of
 * subgraphs); n must be the number of tensors of all subgraphs; an offset
 * is used only for a tensor TFLite Micro plans (not a constant, not of
 * size 0), -1 having it planned at runtime. Tensor i of subgraph S takes
 * entry base(S) + i, base(S) the tensors of the subgraphs before it: the
 * layout TFLite Micro documents and Vela writes. (TFLite Micro's code
 * gives tensor i of every subgraph entry i; ta_tflite_write.c writes
 * only metadata that both read the same way.) Documentation/tflite.md.
 */
static int ta_tfl_offline_bad(struct ta_tfl *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int ta_tfl_offline_bad(struct ta_tfl *m, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ta_err(m->fb.err, m->fb.errlen, m->fb.path, 0,
	       "%s metadata: %s", TA_TFL_OFFLINE_NAME, what);
	return -EINVAL;
}

static s32 ta_tfl_offline_at(const struct ta_tfl *m, u64 k)
{
	return (s32)ta_fb_u32(&m->fb, m->offline.data +
			      4 * (TA_TFL_OFFLINE_HEADER + k));
}

/* Whether TFLite Micro plans tensor @i of subgraph @s (uses its entry). */
static bool ta_tfl_offline_used(const struct ta_tfl *m, u32 s, u32 i)
{
	const struct ta_tfl_tensor *t = &m->sg[s].t[i];

	return t->size && !(t->flags & TA_TENSOR_CONSTANT);
}

/*
 * Find the model's OfflineMemoryAllocation entries (the last one counts,
 * as in TFLite Micro; each must be well-formed) and check the data: the
 * count, the length, and every entry a planned tensor takes.
 */
static int ta_tfl_find_offline(struct ta_tfl *m)
{
	struct ta_fb *fb = &m->fb;
	const size_t nlen = strlen(TA_TFL_OFFLINE_NAME);
	struct ta_fbt md, b;
	struct ta_fbv name, data;
	u64 i, buf, extsize, total = 0, n;
	u32 s, c;
	int ret;

	m->sg_base = calloc(m->n_subgraphs, sizeof(*m->sg_base));
	if (!m->sg_base)
		return -ENOMEM;
	for (s = 0; s < m->n_subgraphs; s++) {
		struct ta_fbt t;
		struct ta_fbv tv;

		ret = ta_fb_vtable(fb, &m->subgraphs, s, &t);
		if (!ret)
			ret = ta_fb_vector(fb, &t, TA_SG_TENSORS, 4, &tv);
		if (ret)
			return ret;
		m->sg_base[s] = total;
		total += tv.len;	/* each < 2^29: no wrap */
	}
	for (i = 0; i < m->metadata.len; i++) {
		ret = ta_fb_vtable(fb, &m->metadata, i, &md);
		if (!ret)
			ret = ta_fb_vector(fb, &md, TA_META_NAME, 1, &name);
		if (ret)
			return ret;
		if (name.len != nlen ||
		    memcmp(fb->p + name.data, TA_TFL_OFFLINE_NAME, nlen))
			continue;
		ret = ta_fb_scalar(fb, &md, TA_META_BUFFER, 4, 0, &buf);
		if (ret)
			return ret;
		if (buf >= m->buffers.len)
			return ta_tfl_offline_bad(m, "buffer %llu out of range (%llu buffers)",
						  (unsigned long long)buf,
						  (unsigned long long)m->buffers.len);
		ret = ta_fb_vtable(fb, &m->buffers, buf, &b);
		if (!ret)
			ret = ta_fb_vector(fb, &b, TA_BUF_DATA, 1, &data);
		if (!ret)
			ret = ta_fb_scalar(fb, &b, TA_BUF_SIZE, 8, 0, &extsize);
		if (ret)
			return ret;
		if (!data.len && extsize)
			return ta_tfl_offline_bad(m,
						  "buffer %llu is stored outside the FlatBuffer (%llu bytes)",
						  (unsigned long long)buf,
						  (unsigned long long)extsize);
		if (data.len < 4 * TA_TFL_OFFLINE_HEADER)
			return ta_tfl_offline_bad(m, "%llu bytes, less than its %d-byte header",
						  (unsigned long long)data.len,
						  4 * TA_TFL_OFFLINE_HEADER);
		/* TFLite Micro reads n as unsigned: -1 is 4294967295 */
		n = ta_fb_u32(fb, data.data + 8);
		if (n != total)
			return ta_tfl_offline_bad(m, "%llu offsets for the %llu tensors of the model's %u subgraph%s (TFLite Micro wants one per tensor of every subgraph, in order)",
						  (unsigned long long)n,
						  (unsigned long long)total,
						  m->n_subgraphs,
						  m->n_subgraphs == 1 ? "" : "s");
		if ((data.len - 4 * TA_TFL_OFFLINE_HEADER) / 4 < n)
			return ta_tfl_offline_bad(m, "%llu offsets announced, its buffer holds %llu",
						  (unsigned long long)n,
						  (unsigned long long)(data.len / 4 -
							      TA_TFL_OFFLINE_HEADER));
		m->offline = data;
		m->has_offline = true;
	}
	if (!m->has_offline)
		return 0;
	/* every entry a tensor of the graph takes */
	for (c = 0; c < m->n_copies; c++) {
		struct ta_tfl_sg *sg;

		s = m->copies[c].sg;
		sg = &m->sg[s];
		if (m->copies[c].ordinal != 1)
			continue;	/* the same entries as the first copy */
		for (i = 0; i < sg->n_tensors; i++) {
			s32 v = ta_tfl_offline_at(m, m->sg_base[s] + i);

			if (!ta_tfl_offline_used(m, s, (u32)i))
				continue;
			if (v < -1 && !s)
				return ta_tfl_offline_bad(m,
							  "tensor %llu: offset %d (an offset is >= 0, or -1 to plan it online)",
							  (unsigned long long)i, v);
			if (v < -1)
				return ta_tfl_offline_bad(m,
							  "subgraph %u, tensor %llu: offset %d (an offset is >= 0, or -1 to plan it online)",
							  s, (unsigned long long)i, v);
		}
	}
	return 0;
}
/*
 * The offsets, per graph tensor: tensor I of subgraph S (of each of its
 * inlined copies) takes entry base(S) + I when TFLite Micro plans it;
 * -1, a constant and a tensor of size 0 are TA_OFFSET_UNFIXED.
 */
static void ta_tfl_fixed_offsets(struct ta_tfl *m, struct ta_input *in)
{
	u32 c, i, g;

	for (g = 0; g < in->graph.n_tensors; g++)
		in->fixed_offsets[g] = TA_OFFSET_UNFIXED;
	for (c = 0; c < m->n_copies; c++) {
		const struct ta_tfl_copy *cp = &m->copies[c];

		for (i = 0; i < m->sg[cp->sg].n_tensors; i++) {
			s32 v = ta_tfl_offline_at(m, m->sg_base[cp->sg] + i);

			g = m->keys[cp->base + i].seen;
			if (g == U32_MAX || v < 0 ||
			    !ta_tfl_offline_used(m, cp->sg, i))
				continue;
			in->fixed_offsets[g] = (u64)v;
			m->info->n_fixed++;
		}
	}
	in->has_fixed_offsets = true;
}

/* ---- the graph ---- */

static int ta_tfl_build(struct ta_tfl *m, struct ta_input *in)
{
	struct ta_fb *fb = &m->fb;
	struct ta_fbt root;
	u32 nt = 0, n_used = 0, c, i, copy0;
	size_t tsize;
	int ret;

	ret = ta_fb_root(fb, &root);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_OPCODES, 4, &m->opcodes);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_SUBGRAPHS, 4,
				   &m->subgraphs);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_BUFFERS, 4, &m->buffers);
	if (!ret)
		ret = ta_fb_vector(fb, &root, TA_MODEL_METADATA, 4,
				   &m->metadata);
	if (ret)
		return ret;
	if (!m->subgraphs.len)
		return ta_fb_bad(fb, root.pos, "model without a subgraph");
	if (m->subgraphs.len > TA_TFL_MAX_SUBGRAPHS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%llu subgraphs: more than %u",
		       (unsigned long long)m->subgraphs.len,
		       (u32)TA_TFL_MAX_SUBGRAPHS);
		return -E2BIG;
	}
	m->n_subgraphs = (u32)m->subgraphs.len;
	m->info->n_subgraphs = m->n_subgraphs;
	m->sg = calloc(m->n_subgraphs, sizeof(*m->sg));
	if (!m->sg)
		return -ENOMEM;
	ret = ta_tfl_parse_subgraph(m, 0);
	if (ret)
		return ret;
	m->info->n_tensors = m->sg[0].n_tensors;
	m->info->n_ops = m->sg[0].n_ops;
	ret = ta_tfl_new_copy(m, 0, &copy0);
	if (!ret)
		ret = ta_tfl_emit_copy(m, copy0);
	if (!ret)
		ret = ta_tfl_find_offline(m);
	if (ret)
		return ret;
	for (i = 1; i < m->n_subgraphs; i++)
		m->info->n_called += m->sg[i].n_copies > 0;
	m->info->n_unreachable = m->n_subgraphs - 1 - m->info->n_called;

	/* the ops */
	in->ops = m->ops;
	in->op_names = m->op_names;
	in->graph.n_ops = m->n_ops;		/* ta_input_free() frees names */
	m->ops = NULL;
	m->op_names = NULL;
	m->n_ops = 0;

	/* keep the tensors the ops reference: copy 0's first */
	for (i = 0; i < m->n_keys; i++)
		m->keys[i].seen = U32_MAX;
	for (i = 0; i < m->refs.n; i++) {
		n_used += m->keys[m->refs.v[i]].seen == U32_MAX;
		m->keys[m->refs.v[i]].seen = 0;
	}
	if (n_used > TA_PLAN_MAX_BUFFERS) {
		ta_err(fb->err, fb->errlen, fb->path, 0,
		       "%u tensors: beyond the planner's limits", n_used);
		return -E2BIG;
	}
	tsize = sizeof(*in->tensors) * (n_used ? n_used : 1);
	in->tensors = calloc(1, tsize);
	if (m->has_offline) {
		in->fixed_offsets = calloc(n_used ? n_used : 1, sizeof(u64));
		if (!in->fixed_offsets)
			return -ENOMEM;
	}
	in->ids = calloc(n_used ? n_used : 1, sizeof(*in->ids));
	in->notes = calloc(n_used ? n_used : 1, sizeof(*in->notes));
	if (!in->tensors || !in->ids || !in->notes)
		return -ENOMEM;
	for (c = 0; c < m->n_copies; c++) {
		const struct ta_tfl_copy *cp = &m->copies[c];
		struct ta_tfl_sg *sg = &m->sg[cp->sg];

		for (i = 0; i < sg->n_tensors; i++) {
			struct ta_tfl_key *key = &m->keys[cp->base + i];
			const struct ta_tfl_tensor *tt = &sg->t[i];
			char id[40];

			if (key->seen == U32_MAX)
				continue;
			key->seen = nt;
			in->tensors[nt].size = tt->size;
			in->tensors[nt].align = TA_TFL_ALIGN;
			in->tensors[nt].flags = tt->flags;
			if (!c)
				snprintf(id, sizeof(id), "%u", i);
			else if (cp->ordinal == 1)
				snprintf(id, sizeof(id), "%u:%u", cp->sg, i);
			else
				snprintf(id, sizeof(id), "%u:%u@%u", cp->sg, i,
					 cp->ordinal);
			in->ids[nt] = strdup(id);
			in->notes[nt] = strdup(tt->note);
			in->graph.n_tensors = ++nt;
			if (!in->ids[nt - 1] || !in->notes[nt - 1])
				return -ENOMEM;
			m->info->naive_bytes += tt->size;
			if (tt->flags & TA_TENSOR_CONSTANT) {
				m->info->n_constants++;
				m->info->constant_bytes += tt->size;
			}
			if (tt->flags & TA_TENSOR_PERSISTENT) {
				m->info->n_variables++;
				m->info->variable_bytes += tt->size;
			}
			m->info->n_dynamic += tt->dynamic;
		}
	}
	for (i = 0; i < m->refs.n; i++)
		m->refs.v[i] = m->keys[m->refs.v[i]].seen;
	in->refs = m->refs.v;
	in->graph.n_refs = m->refs.n;
	m->refs.v = NULL;
	m->info->n_used = nt;
	if (m->has_offline)
		ta_tfl_fixed_offsets(m, in);
	return 0;
}

static void ta_tfl_free(struct ta_tfl *m)
{
	u32 s, i;

	for (s = 0; m->sg && s < m->n_subgraphs; s++) {
		struct ta_tfl_sg *sg = &m->sg[s];

		for (i = 0; sg->t && i < sg->n_tensors; i++) {
			free(sg->t[i].note);
			free(sg->t[i].value);
		}
		for (i = 0; sg->ops && i < sg->n_ops; i++)
			free(sg->ops[i].name);
		free(sg->t);
		free(sg->ops);
		free(sg->refs.v);
		free(sg->inputs);
		free(sg->outputs);
	}
	free(m->sg);
	free(m->sg_base);
	free(m->copies);
	free(m->keys);
	for (i = 0; i < m->n_ops; i++)
		free(m->op_names[i]);
	free(m->ops);
	free(m->op_names);
	free(m->refs.v);
}

/**
 * ta_tflite_parse() - read a TFLite model held in memory
 * @data: the file's bytes
 * @len: how many
 * @name: the file's name, for messages
 * @in: out; a graph-form problem; free with ta_input_free()
 * @info: out, figures about the model, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Subgraph 0 with every subgraph it calls inlined (Documentation/tflite.md);
 * @in->fixed_offsets when the model has an OfflineMemoryAllocation entry.
 *
 * Return: 0; -EINVAL for a corrupt file or one this reader cannot plan
 * (dynamic shapes, a type without a fixed size, recursive control flow, a
 * subgraph-calling op it cannot inline, malformed OfflineMemoryAllocation
 * metadata, a graph that ta_graph_lifetimes() rejects); -E2BIG beyond the
 * limits; -ENOMEM.
 */
int ta_tflite_parse(const void *data, size_t len, const char *name,
		    struct ta_input *in, struct ta_tflite_info *info,
		    char *err, size_t errlen)
{
	struct ta_tflite_info dummy;
	struct ta_tfl m = {
		.fb = { .p = data, .n = len, .path = name, .err = err,
			.errlen = errlen },
		.info = info ? info : &dummy,
	};
	int ret;

	memset(in, 0, sizeof(*in));
	memset(m.info, 0, sizeof(*m.info));
	if (err && errlen)
		err[0] = 0;
	in->is_graph = true;
	if ((u64)len >= TA_TFL_MAX_FILE) {
		ta_err(err, errlen, name, 0, "file larger than 2 GiB");
		return -E2BIG;
	}
	ret = ta_tfl_build(&m, in);
	ta_tfl_free(&m);
	if (ret == -ENOMEM)
		ta_err(err, errlen, name, 0, "out of memory");
	else if (ret == -E2BIG && !(err && errlen && err[0]))
		ta_err(err, errlen, name, 0,
		       "more than %u operator references", (u32)TA_TFL_MAX_REFS);
	if (ret)
		goto fail;
	ret = ta_input_finish_graph(in, name,
				    "a tensor written twice, read before written, or a written input/constant; S:I is tensor I of subgraph S",
				    err, errlen);
	if (!ret)
		return 0;
fail:
	ta_input_free(in);
	return ret;
}

/**
 * ta_tflite_read() - read a TFLite model file
 * @path: the file
 * @in: out; free with ta_input_free()
 * @info: out, or NULL
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: as ta_tflite_parse(), or -errno from the file system.
 */
/**
 * ta_is_tflite_name() - does a file name end in ".tflite" (any case)?
 * @path: the file name
 *
 * A file so named goes to the TFLite reader even without the "TFL3"
 * identifier, whose message then says what is wrong with it.
 */
bool ta_is_tflite_name(const char *path)
{
	size_t l = strlen(path);

	return l >= 7 && !strcasecmp(path + l - 7, ".tflite");
}

int ta_tflite_read(const char *path, struct ta_input *in,
		   struct ta_tflite_info *info, char *err, size_t errlen)
{
	size_t len;
	char *data = ta_slurp(path, &len);
	int ret;

	if (!data) {
		ret = -errno;
		memset(in, 0, sizeof(*in));
		ta_err(err, errlen, path, 0, "%s", strerror(errno));
		return ret;
	}
	ret = ta_tflite_parse(data, len, path, in, info, err, errlen);
	free(data);
	return ret;
}
