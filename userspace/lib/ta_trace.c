// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_trace.c - trace CSV files: read a problem, write a plan.
 *
 * A trace is a CSV file with a header line naming its columns and one
 * buffer per line: id,lower,upper,size[,alignment][,offset][,alias]. The
 * columns may come in any order; id, lower, upper and size are required;
 * alignment defaults to 1; an offset column is read and kept but not used
 * for planning (but by the fixed strategy). An alias column (a plan of a
 * graph whose in-place ops share memory) gives each row the row number,
 * from 0, of its alias class's root (the row whose bytes the in-place
 * chain starts from, whose alias is itself), its own when it shares with
 * nobody: the rows of a class are one memory (&ta_problem.alias). A tier
 * column (a tiered plan, tactl plan --sram) says "fast" or "slow" per row:
 * the offset is then within that tier's slice. Lifetimes
 * are half-open [lower, upper). Lines end in LF or CRLF; empty lines and
 * lines starting with '#' are skipped, so an id may not start with '#'.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_reader.h"
#include "ta_tier.h"

enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, COL_ALIGN, COL_OFFSET,
	COL_ALIAS, COL_TIER, COL_COUNT };

static const char *const ta_col_names[COL_COUNT] = {
	"id", "lower", "upper", "size", "alignment", "offset", "alias", "tier",
};

static int ta_split(char *line, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *c = strchr(line, ',');

		if (n == max)
			return -1;
		f[n++] = line;
		if (!c)
			break;
		*c = 0;
		line = c + 1;
	}
	return n;
}

static char *ta_trim(char *s)
{
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
		s[--l] = 0;
	return s;
}

static int ta_trace_header(char *line, int *col, int *ncols)
{
	char *f[16];
	int n = ta_split(line, f, 16), i, c;

	if (n < 0)
		return -EINVAL;
	for (c = 0; c < COL_COUNT; c++)
		col[c] = -1;
	for (i = 0; i < n; i++) {
		char *name = ta_trim(f[i]);

		if (!strcmp(name, "align"))
			name = "alignment";
		for (c = 0; c < COL_COUNT; c++)
			if (!strcmp(name, ta_col_names[c]))
				break;
		if (c == COL_COUNT || col[c] >= 0)
			return -EINVAL;
		col[c] = i;
	}
	for (c = 0; c <= COL_SIZE; c++)
		if (col[c] < 0)
			return -EINVAL;
	*ncols = n;
	return 0;
}

static int ta_trace_row(char *line, const int *col, int ncols,
			struct ta_input *in, u32 k, const char **what)
{
	char *f[16];
	u64 v[COL_COUNT] = { 0 };
	int n = ta_split(line, f, 16), c;

	*what = "wrong number of fields";
	if (n != ncols)
		return -EINVAL;
	for (c = COL_LOWER; c < COL_COUNT; c++) {
		if (col[c] < 0 || c == COL_TIER)
			continue;
		*what = "bad number";
		if (ta_parse_u64(f[col[c]], &v[c]))
			return -EINVAL;
	}
	*what = "lower or upper beyond 2^32";
	if (v[COL_LOWER] > U32_MAX || v[COL_UPPER] > U32_MAX)
		return -EINVAL;
	in->bufs[k].start = (u32)v[COL_LOWER];
	in->bufs[k].end = (u32)v[COL_UPPER];
	in->bufs[k].size = v[COL_SIZE];
	in->bufs[k].align = col[COL_ALIGN] >= 0 ? v[COL_ALIGN] : 1;
	if (in->in_offsets)
		in->in_offsets[k] = v[COL_OFFSET];
	*what = "alias beyond 2^32";
	if (v[COL_ALIAS] > U32_MAX)
		return -EINVAL;
	if (in->alias)
		in->alias[k] = (u32)v[COL_ALIAS];
	if (in->in_tiers) {
		const char *t = ta_trim(f[col[COL_TIER]]);

		*what = "tier is neither fast nor slow";
		if (strcmp(t, "fast") && strcmp(t, "slow"))
			return -EINVAL;
		in->in_tiers[k] = !strcmp(t, "fast") ? TA_TIER_FAST :
				  TA_TIER_SLOW;
	}
	/*
	 * Written back (ta_plan_write_csv(), id first), such a row would
	 * read as a comment.
	 */
	*what = "id starts with '#'";
	if (*ta_trim(f[col[COL_ID]]) == '#')
		return -EINVAL;
	in->ids[k] = strdup(ta_trim(f[col[COL_ID]]));
	*what = "out of memory";
	return in->ids[k] ? 0 : -ENOMEM;
}

static int ta_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * A class of the alias column is one memory over one span: sorted by class
 * and start (class << 44 | start << 20 | row), a row that starts after the
 * rows before it in its class have all ended leaves a step uncovered.
 */
static int ta_trace_alias_spans(const struct ta_input *in, u32 n, char *err,
				size_t errlen, const char *path)
{
	u64 *key = calloc(n ? n : 1, sizeof(*key));
	u32 i, row, reach = 0;
	int ret = 0;

	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* beyond the planner's limits: ta_plan_solve() says -E2BIG */
		if (in->bufs[i].start >= TA_PLAN_MAX_STEPS) {
			free(key);
			return 0;
		}
		key[i] = (u64)in->alias[i] << 44 | (u64)in->bufs[i].start << 20 | i;
	}
	qsort(key, n, sizeof(*key), ta_cmp_u64);
	for (i = 0; i < n; i++) {
		bool same = i && key[i] >> 44 == key[i - 1] >> 44;

		row = (u32)(key[i] & 0xfffff);
		if (same && in->bufs[row].start > reach) {
			ta_err(err, errlen, path, 0,
			       "row %u (%s): its class (alias %u) is not live from step %u to %u: one memory has one span",
			       row, in->ids[row], in->alias[row], reach,
			       in->bufs[row].start);
			ret = -EINVAL;
			break;
		}
		if (!same || in->bufs[row].end > reach)
			reach = in->bufs[row].end;
	}
	free(key);
	return ret;
}

/* The alias column's rule (&ta_problem.alias), said of the row it breaks. */
static int ta_trace_check_alias(const struct ta_input *in, u32 n, char *err,
				size_t errlen, const char *path)
{
	u32 i, r;

	for (i = 0; in->alias && i < n; i++) {
		r = in->alias[i];
		if (r >= n || in->alias[r] != r) {
			ta_err(err, errlen, path, 0,
			       "row %u (%s): alias %u is not a class's root (a row whose alias is itself)",
			       i, in->ids[i], r);
			return -EINVAL;
		}
		if (in->bufs[r].size != in->bufs[i].size) {
			ta_err(err, errlen, path, 0,
			       "row %u (%s): %llu bytes, but its alias %u (%s) has %llu: one memory has one size",
			       i, in->ids[i],
			       (unsigned long long)in->bufs[i].size, r,
			       in->ids[r], (unsigned long long)in->bufs[r].size);
			return -EINVAL;
		}
	}
	return in->alias ? ta_trace_alias_spans(in, n, err, errlen, path) : 0;
}

/**
 * ta_trace_read() - read a trace CSV file
 * @path: the file
 * @in: out; free with ta_input_free()
 * @err: out, a message on a format error
 * @errlen: bytes at @err
 *
 * Return: 0, -errno from the file system, -ENOMEM, or -EINVAL with @err set.
 */
int ta_trace_read(const char *path, struct ta_input *in, char *err,
		  size_t errlen)
{
	int col[COL_COUNT], ncols = 0, ret = -EINVAL;
	unsigned long lineno = 0;
	char *data, *p, *line;
	const char *what;
	bool header = false;
	size_t rows = 0;
	u32 k = 0;

	memset(in, 0, sizeof(*in));
	data = ta_slurp(path, NULL);
	if (!data) {
		ta_err(err, errlen, path, 0, "%s", strerror(errno));
		return -errno;
	}
	for (p = data; *p; p++)
		rows += *p == '\n';
	rows++;
	if (rows > TA_PLAN_MAX_BUFFERS + 16ULL)
		rows = TA_PLAN_MAX_BUFFERS + 16ULL;
	in->bufs = calloc(rows, sizeof(*in->bufs));
	in->ids = calloc(rows, sizeof(*in->ids));
	if (!in->bufs || !in->ids) {
		ret = -ENOMEM;
		goto fail;
	}
	for (p = data; (line = ta_next_line(&p)); ) {
		lineno++;
		if (!*ta_trim(line) || *ta_trim(line) == '#')
			continue;
		if (!header) {
			if (ta_trace_header(line, col, &ncols)) {
				ta_err(err, errlen, path, lineno,
				       "bad header (want id,lower,upper,size[,alignment][,offset][,alias][,tier])");
				goto fail;
			}
			header = true;
			in->has_align = col[COL_ALIGN] >= 0;
			in->has_offset = col[COL_OFFSET] >= 0;
			if (in->has_offset) {
				in->in_offsets = calloc(rows, sizeof(u64));
				if (!in->in_offsets) {
					ret = -ENOMEM;
					goto fail;
				}
			}
			if (col[COL_TIER] >= 0) {
				in->in_tiers = calloc(rows, sizeof(u8));
				if (!in->in_tiers) {
					ret = -ENOMEM;
					goto fail;
				}
			}
			if (col[COL_ALIAS] >= 0) {
				in->alias = calloc(rows, sizeof(u32));
				if (!in->alias) {
					ret = -ENOMEM;
					goto fail;
				}
			}
			continue;
		}
		if (k >= TA_PLAN_MAX_BUFFERS) {
			ta_err(err, errlen, path, lineno,
			       "more than %u buffers", TA_PLAN_MAX_BUFFERS);
			ret = -E2BIG;
			goto fail;
		}
		ret = ta_trace_row(line, col, ncols, in, k, &what);
		if (ret) {
			ta_err(err, errlen, path, lineno, "%s", what);
			goto fail;
		}
		k++;
	}
	if (!header) {
		ta_err(err, errlen, path, lineno, "no header line");
		ret = -EINVAL;
		goto fail;
	}
	ret = ta_trace_check_alias(in, k, err, errlen, path);
	if (ret)
		goto fail;
	free(data);
	in->prob.n_buffers = k;
	in->prob.buffers = in->bufs;
	in->prob.graph = NULL;
	in->prob.alias = in->alias;
	return 0;
fail:
	free(data);
	in->prob.n_buffers = k;		/* so that the ids read are freed */
	ta_input_free(in);
	return ret;
}

/*
 * The input's alias classes as ta_plan_solve() plans them (a graph's in-place
 * ops, a trace's alias column): *@root gets a copy, or NULL when no row
 * shares another's memory.
 */
static int ta_input_roots(const struct ta_input *in, u32 **root)
{
	u32 i, n = in->prob.n_buffers, joined = 0;

	*root = NULL;
	if ((!in->prob.graph && !in->prob.alias) || !n)
		return 0;
	*root = calloc(n, sizeof(**root));
	if (!*root)
		return -ENOMEM;
	if (in->prob.graph) {
		joined = ta_graph_aliases(in->prob.graph, in->prob.buffers,
					  *root);
	} else {
		for (i = 0; i < n; i++) {
			(*root)[i] = in->prob.alias[i];
			joined += in->prob.alias[i] != i;
		}
	}
	if (!joined) {
		free(*root);
		*root = NULL;
	}
	return 0;
}

/**
 * ta_plan_write_csv() - write the input's rows with an offset column
 * @path: the file, or "-" for stdout
 * @in: the input
 * @offsets: the plan
 *
 * When rows share memory (a graph's in-place ops, or a trace that had an
 * alias column), an alias column says which, so that the plan reads back
 * (ta_trace_read()) as one that ta_plan_validate() accepts.
 *
 * Return: 0 or -errno.
 */
int ta_plan_write_csv(const char *path, const struct ta_input *in,
		      const u64 *offsets)
{
	return ta_plan_write_csv_tiered(path, in, offsets, NULL);
}

/**
 * ta_plan_write_csv_tiered() - ta_plan_write_csv() of a tiered plan
 * @path: the file, or "-" for stdout
 * @in: the input
 * @offsets: the plan: per row, its offset within its tier
 * @tiers: per row, %TA_TIER_FAST or %TA_TIER_SLOW; NULL: no tier column
 *
 * Return: 0 or -errno.
 */
int ta_plan_write_csv_tiered(const char *path, const struct ta_input *in,
			     const u64 *offsets, const u8 *tiers)
{
	bool align = in->has_align || in->is_graph;
	u32 i, *root;
	FILE *f;
	int ret;

	ret = ta_input_roots(in, &root);
	if (ret)
		return ret;
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f) {
		ret = -errno;
		free(root);
		return ret;
	}
	fprintf(f, "id,lower,upper,size%s,offset%s%s\n",
		align ? ",alignment" : "", root ? ",alias" : "",
		tiers ? ",tier" : "");
	for (i = 0; i < in->prob.n_buffers; i++) {
		const struct ta_buffer *b = &in->bufs[i];

		fprintf(f, "%s,%u,%u,%llu", in->ids[i], b->start, b->end,
			(unsigned long long)b->size);
		if (align)
			fprintf(f, ",%llu", (unsigned long long)b->align);
		fprintf(f, ",%llu", (unsigned long long)offsets[i]);
		if (root)
			fprintf(f, ",%u", root[i]);
		if (tiers)
			fprintf(f, ",%s", tiers[i] == TA_TIER_FAST ? "fast" :
				"slow");
		fputc('\n', f);
	}
	free(root);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	if (f != stdout && fclose(f))
		ret = -EIO;
	return ret;
}
