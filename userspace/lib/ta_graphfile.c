// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_graphfile.c - read a graph file (Documentation/graph-format.md).
 *
 *	tensorarena-graph 1
 *	tensor NAME SIZE [align=N] [input] [output] [constant] [persistent]
 *		[exportable]
 *	op NAME [INPUT...] -> [OUTPUT...]
 *
 * Tensors are declared before the ops that use them; ops come in execution
 * order. SIZE is a decimal byte count with an optional K, M or G suffix
 * (powers of 1024). '#' starts a comment; blank lines are ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"

struct ta_gf {
	const char *path;
	char *err;
	size_t errlen;
	unsigned long lineno;
	struct ta_input *in;
	u32 cap_t, cap_o, cap_r;
	u32 *hash;		/* open addressing: tensor index + 1, 0 = empty */
	u32 hash_mask;
};

static u32 ta_gf_fnv(const char *s)
{
	u32 h = 2166136261U;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619U;
	return h;
}

static int ta_gf_rehash(struct ta_gf *gf, u32 cap)
{
	u32 *h = calloc(cap, sizeof(*h)), i;

	if (!h)
		return -ENOMEM;
	free(gf->hash);
	gf->hash = h;
	gf->hash_mask = cap - 1;
	for (i = 0; i < gf->in->graph.n_tensors; i++) {
		u32 k = ta_gf_fnv(gf->in->ids[i]) & gf->hash_mask;

		while (h[k])
			k = (k + 1) & gf->hash_mask;
		h[k] = i + 1;
	}
	return 0;
}

/* Index of tensor @name, or -1. */
static s64 ta_gf_find(const struct ta_gf *gf, const char *name)
{
	u32 k;

	if (!gf->hash)
		return -1;
	for (k = ta_gf_fnv(name) & gf->hash_mask; gf->hash[k];
	     k = (k + 1) & gf->hash_mask)
		if (!strcmp(gf->in->ids[gf->hash[k] - 1], name))
			return gf->hash[k] - 1;
	return -1;
}

static int ta_gf_size(const char *s, u64 *v)
{
	char tmp[32];
	size_t l = strlen(s);
	unsigned int shift = 0;

	if (!l || l >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, l + 1);
	switch (tmp[l - 1]) {
	case 'K': case 'k':
		shift = 10;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'G': case 'g':
		shift = 30;
		break;
	}
	if (shift)
		tmp[l - 1] = 0;
	if (ta_parse_u64(tmp, v))
		return -EINVAL;
	if (*v > (U64_MAX >> shift))
		return -ERANGE;
	*v <<= shift;
	return 0;
}

static int ta_gf_fail(struct ta_gf *gf, int ret, const char *what,
		      const char *tok)
{
	ta_err(gf->err, gf->errlen, gf->path, gf->lineno, "%s%s%s%s", what,
	       tok ? " '" : "", tok ? tok : "", tok ? "'" : "");
	return ret;
}

static int ta_gf_tensor(struct ta_gf *gf, char **tok, int n)
{
	struct ta_input *in = gf->in;
	u32 t = in->graph.n_tensors;
	struct ta_graph_tensor *gt;
	int i;

	if (n < 3)
		return ta_gf_fail(gf, -EINVAL, "want: tensor NAME SIZE [flags]",
				  NULL);
	if (ta_gf_find(gf, tok[1]) >= 0)
		return ta_gf_fail(gf, -EINVAL, "tensor declared twice:", tok[1]);
	if (!strcmp(tok[1], "->"))
		return ta_gf_fail(gf, -EINVAL, "bad tensor name", tok[1]);
	if (t >= TA_PLAN_MAX_BUFFERS)
		return ta_gf_fail(gf, -E2BIG, "too many tensors", NULL);
	if (ta_grow((void **)&in->tensors, &gf->cap_t, t + 1,
		       sizeof(*in->tensors)))
		return -ENOMEM;
	/* ids share the tensors' capacity */
	{
		char **ids = realloc(in->ids, sizeof(*ids) * gf->cap_t);

		if (!ids)
			return -ENOMEM;
		in->ids = ids;
	}
	gt = &in->tensors[t];
	memset(gt, 0, sizeof(*gt));
	gt->align = 1;
	if (ta_gf_size(tok[2], &gt->size))
		return ta_gf_fail(gf, -EINVAL, "bad size", tok[2]);
	for (i = 3; i < n; i++) {
		if (!strncmp(tok[i], "align=", 6)) {
			if (ta_gf_size(tok[i] + 6, &gt->align))
				return ta_gf_fail(gf, -EINVAL, "bad alignment",
						  tok[i]);
		} else if (!strcmp(tok[i], "input")) {
			gt->flags |= TA_TENSOR_INPUT;
		} else if (!strcmp(tok[i], "output")) {
			gt->flags |= TA_TENSOR_OUTPUT;
		} else if (!strcmp(tok[i], "constant")) {
			gt->flags |= TA_TENSOR_CONSTANT;
		} else if (!strcmp(tok[i], "persistent")) {
			gt->flags |= TA_TENSOR_PERSISTENT;
		} else if (!strcmp(tok[i], "exportable")) {
			gt->flags |= TA_TENSOR_EXPORTABLE;
		} else {
			return ta_gf_fail(gf, -EINVAL, "unknown tensor attribute",
					  tok[i]);
		}
	}
	in->ids[t] = strdup(tok[1]);
	if (!in->ids[t])
		return -ENOMEM;
	in->graph.n_tensors = t + 1;
	if ((u64)in->graph.n_tensors * 2 > gf->hash_mask)
		return ta_gf_rehash(gf, (gf->hash_mask + 1) * 4);
	{
		u32 k = ta_gf_fnv(tok[1]) & gf->hash_mask;

		while (gf->hash[k])
			k = (k + 1) & gf->hash_mask;
		gf->hash[k] = t + 1;
	}
	return 0;
}

static int ta_gf_op(struct ta_gf *gf, char **tok, int n, u32 flags)
{
	struct ta_input *in = gf->in;
	struct ta_graph_op *op;
	u32 o = in->graph.n_ops, r = in->graph.n_refs;
	int i, arrow = -1;

	if (n < 2)
		return ta_gf_fail(gf, -EINVAL, "want: op NAME INPUTS -> OUTPUTS",
				  NULL);
	for (i = 2; i < n; i++)
		if (!strcmp(tok[i], "->")) {
			if (arrow >= 0)
				return ta_gf_fail(gf, -EINVAL, "two '->'", NULL);
			arrow = i;
		}
	if (arrow < 0)
		return ta_gf_fail(gf, -EINVAL, "op without '->'", tok[1]);
	if (o >= TA_PLAN_MAX_STEPS)
		return ta_gf_fail(gf, -E2BIG, "too many ops", NULL);
	if ((u64)r + (u64)n > U32_MAX)
		return ta_gf_fail(gf, -E2BIG, "too many references", NULL);
	if (ta_grow((void **)&in->ops, &gf->cap_o, o + 1, sizeof(*in->ops)) ||
	    ta_grow((void **)&in->refs, &gf->cap_r, r + n, sizeof(*in->refs)))
		return -ENOMEM;
	op = &in->ops[o];
	op->first_ref = r;
	op->n_inputs = arrow - 2;
	op->n_outputs = n - arrow - 1;
	op->flags = flags;
	if ((flags & TA_OP_INPLACE) && (!op->n_inputs || !op->n_outputs))
		return ta_gf_fail(gf, -EINVAL,
				  "an inplace op needs an input and an output",
				  tok[1]);
	for (i = 2; i < n; i++) {
		s64 t;

		if (i == arrow)
			continue;
		t = ta_gf_find(gf, tok[i]);
		if (t < 0)
			return ta_gf_fail(gf, -EINVAL, "undeclared tensor",
					  tok[i]);
		in->refs[r++] = (u32)t;
	}
	in->graph.n_ops = o + 1;
	in->graph.n_refs = r;
	return 0;
}

static int ta_gf_tokens(char *line, char **tok, int max)
{
	int n = 0;
	char *c = strchr(line, '#');

	if (c)
		*c = 0;
	for (;;) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			return n;
		if (n == max)
			return -1;
		tok[n++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
		if (*line)
			*line++ = 0;
	}
}

static int ta_gf_parse(struct ta_gf *gf, char *data)
{
	static char *tok[65536];
	char *p = data, *line;
	bool magic = false;
	int n, ret;

	for (; (line = ta_next_line(&p)); ) {
		gf->lineno++;
		n = ta_gf_tokens(line, tok, 65536);
		if (n < 0)
			return ta_gf_fail(gf, -E2BIG, "line too long", NULL);
		if (!n)
			continue;
		if (!magic) {
			if (n != 2 || strcmp(tok[0], "tensorarena-graph") ||
			    strcmp(tok[1], "1"))
				return ta_gf_fail(gf, -EINVAL,
						  "want first line 'tensorarena-graph 1'",
						  NULL);
			magic = true;
			continue;
		}
		if (!strcmp(tok[0], "tensor"))
			ret = ta_gf_tensor(gf, tok, n);
		else if (!strcmp(tok[0], "op"))
			ret = ta_gf_op(gf, tok, n, 0);
		else if (!strcmp(tok[0], "inplace"))
			ret = ta_gf_op(gf, tok, n, TA_OP_INPLACE);
		else
			ret = ta_gf_fail(gf, -EINVAL, "unknown keyword", tok[0]);
		if (ret)
			return ret == -ENOMEM ?
				ta_gf_fail(gf, ret, "out of memory", NULL) : ret;
	}
	if (!magic)
		return ta_gf_fail(gf, -EINVAL, "empty file", NULL);
	return 0;
}


/**
 * ta_input_finish_graph() - derive the lifetimes of a graph just read
 * @in: the input; its tensors, ops and refs arrays and graph counts are set
 * @path: the file, for messages
 * @hint: what to tell the user when the graph is rejected
 * @err: message buffer
 * @errlen: its size
 *
 * Points @in->graph at the arrays, fills @in->bufs and @in->prob.
 *
 * Return: 0, -ENOMEM, or ta_graph_lifetimes()'s error (with a message).
 */
int ta_input_finish_graph(struct ta_input *in, const char *path,
			  const char *hint, char *err, size_t errlen)
{
	int ret;

	in->graph.tensors = in->tensors;
	in->graph.ops = in->ops;
	in->graph.refs = in->refs;
	in->bufs = calloc(in->graph.n_tensors ? in->graph.n_tensors : 1,
			  sizeof(*in->bufs));
	if (!in->bufs)
		return -ENOMEM;
	ret = ta_graph_lifetimes(&in->graph, in->bufs);
	if (ret) {
		ta_err(err, errlen, path, 0, "graph rejected: %s (%s)",
		       strerror(-ret), hint);
		return ret;
	}
	in->prob.n_buffers = in->graph.n_tensors;
	in->prob.buffers = in->bufs;
	in->prob.graph = &in->graph;
	return 0;
}

/**
 * ta_input_retune() - change a graph-form input's alignment or exportable set
 * @in: a graph-form input (ta_graph_read(), ta_tflite_read())
 * @align: when not 0, the new alignment of every tensor (a power of two up
 *	   to 2^32)
 * @exportable: when not NULL, comma-separated tensor names (&ta_input.ids)
 *		to mark %TA_TENSOR_EXPORTABLE
 * @err: message buffer
 * @errlen: its size
 *
 * The buffers (@in->bufs) are derived again, so exportable tensors get
 * their whole pages.
 *
 * Return: 0; -EINVAL (with a message) for a trace, a bad alignment or an
 * unknown name; ta_graph_lifetimes()'s error.
 */
int ta_input_retune(struct ta_input *in, u64 align, const char *exportable,
		    char *err, size_t errlen)
{
	const char *p = exportable;
	u32 t;

	if (!in->is_graph) {
		snprintf(err, errlen, "a trace has no tensors to retune (graph files and models only)");
		return -EINVAL;
	}
	if (align && ((align & (align - 1)) || align > TA_PLAN_MAX_ALIGN)) {
		snprintf(err, errlen, "alignment %llu is not a power of two up to 2^32",
			 (unsigned long long)align);
		return -EINVAL;
	}
	for (t = 0; align && t < in->graph.n_tensors; t++)
		in->tensors[t].align = align;
	while (p && *p) {
		size_t len = strcspn(p, ",");

		for (t = 0; t < in->graph.n_tensors; t++)
			if (strlen(in->ids[t]) == len &&
			    !strncmp(in->ids[t], p, len))
				break;
		if (t == in->graph.n_tensors) {
			snprintf(err, errlen, "no tensor named '%.*s'", (int)len, p);
			return -EINVAL;
		}
		in->tensors[t].flags |= TA_TENSOR_EXPORTABLE;
		p += len + (p[len] == ',');
	}
	return ta_graph_lifetimes(&in->graph, in->bufs);
}

/**
 * ta_graph_read() - read a graph file and derive its lifetimes
 * @path: the file
 * @in: out; @in->prob is a graph-form problem; free with ta_input_free()
 * @err: out, a message on an error
 * @errlen: bytes at @err
 *
 * Return: 0, -errno from the file system, -ENOMEM, -EINVAL or -E2BIG with
 * @err set (also for a graph ta_graph_lifetimes() rejects).
 */
int ta_graph_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen)
{
	struct ta_gf gf = { .path = path, .err = err, .errlen = errlen,
			    .in = in };
	char *data;
	int ret;

	memset(in, 0, sizeof(*in));
	in->is_graph = true;
	data = ta_slurp(path, NULL);
	if (!data) {
		ret = -errno;
		ta_err(err, errlen, path, 0, "%s", strerror(errno));
		return ret;
	}
	ret = ta_gf_rehash(&gf, 1024);
	if (!ret)
		ret = ta_gf_parse(&gf, data);
	free(data);
	free(gf.hash);
	if (ret)
		goto fail;
	ret = ta_input_finish_graph(in, path,
				    "see Documentation/graph-format.md", err,
				    errlen);
	if (!ret)
		return 0;
fail:
	ta_input_free(in);
	return ret;
}

/**
 * ta_input_drop_constants() - leave the constant tensors out of a graph
 * @in: a graph-form input (ta_graph_read(), ta_tflite_read())
 *
 * Constants live over the whole run, so leaving them out changes no other
 * tensor's lifetime; the figures then compare with runtimes that keep
 * weights outside the arena (TFLite Micro keeps them in flash).
 *
 * Return: 0, -EINVAL when @in is not graph form, -ENOMEM.
 */
int ta_input_drop_constants(struct ta_input *in)
{
	struct ta_graph *g = &in->graph;
	u32 *map, t, n = 0, i, k, r = 0;
	int ret;

	if (!in->is_graph)
		return -EINVAL;
	map = malloc(sizeof(*map) * (g->n_tensors ? g->n_tensors : 1));
	if (!map)
		return -ENOMEM;
	for (t = 0; t < g->n_tensors; t++) {
		if (in->tensors[t].flags & TA_TENSOR_CONSTANT) {
			map[t] = U32_MAX;
			free(in->ids[t]);
			if (in->notes)
				free(in->notes[t]);
			continue;
		}
		map[t] = n;
		if (in->fixed_offsets)
			in->fixed_offsets[n] = in->fixed_offsets[t];
		in->tensors[n] = in->tensors[t];
		in->ids[n] = in->ids[t];
		if (in->notes)
			in->notes[n] = in->notes[t];
		in->bufs[n] = in->bufs[t];
		n++;
	}
	for (i = 0; i < g->n_ops; i++) {
		struct ta_graph_op *op = &in->ops[i];
		u32 first = r, nin = 0, nout = 0;

		/* a view whose first input is dropped is no view of it */
		if (op->n_inputs && map[in->refs[op->first_ref]] == U32_MAX)
			op->flags &= ~TA_OP_INPLACE;
		for (k = 0; k < op->n_inputs + op->n_outputs; k++) {
			u32 m = map[in->refs[op->first_ref + k]];

			if (m == U32_MAX)
				continue;
			in->refs[r++] = m;
			if (k < op->n_inputs)
				nin++;
			else
				nout++;
		}
		op->first_ref = first;
		op->n_inputs = nin;
		op->n_outputs = nout;
	}
	free(map);
	g->n_tensors = n;
	g->n_refs = r;
	in->prob.n_buffers = n;
	ret = ta_graph_lifetimes(g, in->bufs);
	return ret;
}

static void ta_gw_size(FILE *f, u64 v)
{
	fprintf(f, "%llu", (unsigned long long)v);
}

/**
 * ta_graph_write() - write a graph-form input as a graph file
 * @path: the file, or "-" for stdout
 * @in: the input; its ids must be tokens without whitespace (a graph
 *	file's or a TFLite model's are); @in->op_names and @in->notes are used
 *	when set
 *
 * Return: 0, -EINVAL when @in is not graph form, -errno.
 */
int ta_graph_write(const char *path, const struct ta_input *in)
{
	const struct ta_graph *g = &in->graph;
	FILE *f;
	u32 t, i, k;
	int ret = 0;

	if (!in->is_graph)
		return -EINVAL;
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return -errno;
	fprintf(f, "tensorarena-graph 1\n");
	for (t = 0; t < g->n_tensors; t++) {
		const struct ta_graph_tensor *gt = &g->tensors[t];

		fprintf(f, "tensor %s ", in->ids[t]);
		ta_gw_size(f, gt->size);
		if (gt->align != 1) {
			fprintf(f, " align=");
			ta_gw_size(f, gt->align);
		}
		if (gt->flags & TA_TENSOR_INPUT)
			fprintf(f, " input");
		if (gt->flags & TA_TENSOR_OUTPUT)
			fprintf(f, " output");
		if (gt->flags & TA_TENSOR_CONSTANT)
			fprintf(f, " constant");
		if (gt->flags & TA_TENSOR_PERSISTENT)
			fprintf(f, " persistent");
		if (gt->flags & TA_TENSOR_EXPORTABLE)
			fprintf(f, " exportable");
		if (in->notes && in->notes[t])
			fprintf(f, "  # %s", in->notes[t]);
		fputc('\n', f);
	}
	for (i = 0; i < g->n_ops; i++) {
		const struct ta_graph_op *op = &g->ops[i];

		const char *kw = op->flags & TA_OP_INPLACE ? "inplace" : "op";

		if (in->op_names && in->op_names[i])
			fprintf(f, "%s %s", kw, in->op_names[i]);
		else
			fprintf(f, "%s op%u", kw, i);
		for (k = 0; k < op->n_inputs + op->n_outputs; k++)
			fprintf(f, "%s %s", k == op->n_inputs ? " ->" : "",
				in->ids[g->refs[op->first_ref + k]]);
		if (op->n_inputs == op->n_inputs + op->n_outputs)
			fprintf(f, " ->");
		fputc('\n', f);
	}
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (f != stdout && fclose(f))
		ret = -EIO;
	return ret;
}
