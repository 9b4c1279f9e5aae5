// SPDX-License-Identifier: GPL-2.0 OR MIT
/* test_files.c - host unit tests of the trace and graph file readers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
#include "ta_test.h"

static const char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ta_unit_%d.txt", (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

static int t_trace_crlf(void)
{
	const char *path = write_tmp("id,lower,upper,size,alignment\r\n"
				     "7,0,2,100,16\r\n\r\n9,1,3,50,1\r\n");
	struct ta_input in;
	char err[256];

	TA_CHECK(path, "tmp");
	TA_CHECK(!ta_input_read(path, &in, err, sizeof(err)), "%s", err);
	TA_CHECK(in.prob.n_buffers == 2 && !in.is_graph && in.has_align, "n");
	TA_CHECK(!strcmp(in.ids[0], "7") && !strcmp(in.ids[1], "9"), "ids");
	TA_CHECK(in.bufs[0].size == 100 && in.bufs[0].align == 16 &&
		 in.bufs[0].start == 0 && in.bufs[0].end == 2, "row 0");
	TA_CHECK(in.bufs[1].size == 50 && in.bufs[1].start == 1 &&
		 in.bufs[1].end == 3, "row 1");
	ta_input_free(&in);
	unlink(path);
	return 0;
}

static int t_trace_errors(void)
{
	static const char *const bad[] = {
		"id,lower,size\n1,0,4\n",			/* no upper */
		"id,lower,upper,size\n1,0,4\n",			/* short row */
		"id,lower,upper,size\n1,0,x,4\n",		/* not a number */
		"id,lower,upper,size,colour\n1,0,1,4,red\n",	/* column */
		"id,lower,upper,size\n1,0,99999999999,4\n",	/* > 2^32 */
		"",						/* empty */
		/* rows read before the bad one: their ids are freed (LSan) */
		"id,lower,upper,size\na,0,1,4\nb,0,2,4\nc,0,x,4\n",
		/* an id that would be a comment when written first */
		"lower,upper,size,id\n0,1,4,#a\n",
	};
	struct ta_input in;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *path = write_tmp(bad[i]);

		TA_CHECK(path, "tmp");
		err[0] = 0;
		TA_CHECK(ta_trace_read(path, &in, err, sizeof(err)) == -EINVAL,
			 "case %zu accepted", i);
		TA_CHECK(err[0], "case %zu: no message", i);
		unlink(path);
	}
	return 0;
}

static int t_graph_file(void)
{
	const char *path = write_tmp(
		"tensorarena-graph 1\n"
		"# comment\n"
		"tensor x 1K input align=64\n"
		"tensor w 16 constant\n"
		"tensor a 2k\n"
		"tensor y 3 output   # trailing comment\n"
		"op conv x w -> a\r\n"
		"op relu a -> y\n");
	struct ta_input in;
	struct ta_result res;
	char err[256];
	u64 off[4];

	TA_CHECK(path, "tmp");
	TA_CHECK(!ta_input_read(path, &in, err, sizeof(err)), "%s", err);
	TA_CHECK(in.is_graph && in.prob.graph && in.prob.n_buffers == 4, "n");
	TA_CHECK(in.bufs[0].size == 1024 && in.bufs[0].align == 64, "x");
	TA_CHECK(in.bufs[2].size == 2048, "a");
	TA_CHECK(in.bufs[1].start == 0 && in.bufs[1].end == 2, "w");
	TA_CHECK(in.bufs[3].start == 1 && in.bufs[3].end == 2, "y");
	TA_CHECK(!ta_plan_solve(&in.prob, TA_STRATEGY_PINGPONG, NULL, off, &res),
		 "plan");
	ta_input_free(&in);

	path = write_tmp("tensorarena-graph 1\ntensor x 1 input\nop a x -> z\n");
	TA_CHECK(ta_input_read(path, &in, err, sizeof(err)) == -EINVAL,
		 "undeclared");
	path = write_tmp("tensorarena-graph 1\ntensor x 1 input\ntensor x 2\n");
	TA_CHECK(ta_input_read(path, &in, err, sizeof(err)) == -EINVAL,
		 "twice");
	path = write_tmp("tensorarena-graph 1\ntensor x 1 input\n"
			 "tensor y 1\nop a y -> x\n");
	TA_CHECK(ta_input_read(path, &in, err, sizeof(err)) == -EINVAL,
		 "lifetimes rejected");
	TA_CHECK(strstr(err, "graph rejected"), "%s", err);
	unlink(path);
	return 0;
}

const struct ta_test ta_files_tests[] = {
	{ "trace CSV: CRLF, alignment column, blank line", t_trace_crlf },
	{ "trace CSV: errors", t_trace_errors },
	{ "graph file: parse, lifetimes, errors", t_graph_file },
	{ NULL, NULL },
};
