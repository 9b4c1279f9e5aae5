// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_reader.c - helpers shared by the readers (ta_trace.c, ta_graphfile.c,
 * ta_tflite*.c, ta_onnx*.c): messages, reading a file, parsing numbers and
 * lines, freeing what a reader allocated. It calls no reader; which reader
 * reads a file is ta_input.c's job.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"

void ta_err(char *err, size_t errlen, const char *path, unsigned long line,
	    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return;
	/* line 0: a binary file, or the file as a whole: no line to name */
	if (line)
		n = snprintf(err, errlen, "%s:%lu: ", path, line);
	else
		n = snprintf(err, errlen, "%s: ", path);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
}

/* Read a whole file, NUL-terminated. */
char *ta_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf, *nb;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n < cap - 1)
			break;
		cap *= 2;
		nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			errno = ENOMEM;
		}
		buf = nb;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

/* Parse a decimal u64; the whole string must be digits. */
int ta_parse_u64(const char *s, u64 *v)
{
	u64 x = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (U64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		x = x * 10 + (u64)(*s - '0');
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s)
		return -EINVAL;
	*v = x;
	return 0;
}

/* Cut the next line out of *p: NUL-terminate it, drop a trailing CR. */
char *ta_next_line(char **p)
{
	char *s = *p, *e;
	size_t l;

	if (!*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = 0;
		*p = e + 1;
	} else {
		*p = s + strlen(s);
	}
	l = strlen(s);
	if (l && s[l - 1] == '\r')
		s[l - 1] = 0;
	return s;
}

/**
 * ta_input_free() - free what a reader allocated
 * @in: the input; zeroed afterwards
 */
void ta_input_free(struct ta_input *in)
{
	u32 i;

	if (in->ids)
		for (i = 0; i < (in->is_graph ? in->graph.n_tensors :
				 in->prob.n_buffers); i++)
			free(in->ids[i]);
	free(in->ids);
	free(in->bufs);
	free(in->tensors);
	free(in->ops);
	free(in->refs);
	free(in->in_offsets);
	free(in->in_tiers);
	if (in->op_names)
		for (i = 0; i < in->graph.n_ops; i++)
			free(in->op_names[i]);
	free(in->op_names);
	if (in->notes)
		for (i = 0; i < in->graph.n_tensors; i++)
			free(in->notes[i]);
	free(in->notes);
	free(in->fixed_offsets);
	free(in->alias);
	memset(in, 0, sizeof(*in));
}

int ta_grow(void **p, u32 *cap, u32 need, size_t size)
{
	u64 c = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	np = realloc(*p, (size_t)c * size);
	if (!np)
		return -ENOMEM;
	memset((char *)np + (size_t)*cap * size, 0,
	       (size_t)(c - *cap) * size);
	*p = np;
	*cap = (u32)c;
	return 0;
}
