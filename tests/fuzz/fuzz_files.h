/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * fuzz_files.h - helpers of the file-reader fuzzers: the input as a file
 * (a memfd, read back through /proc/self/fd/N, so nothing is left on
 * disk), a check macro, and a graph comparison for round trips.
 */
#ifndef FUZZ_FILES_H
#define FUZZ_FILES_H

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_files.h"

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

struct fuzz_file {
	int fd;
	char path[64];
};

static inline void fuzz_file_open(struct fuzz_file *ff, const char *name)
{
	ff->fd = memfd_create(name, 0);
	if (ff->fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(ff->path, sizeof(ff->path), "/proc/self/fd/%d", ff->fd);
}

/* Make the file hold exactly @data. */
static inline void fuzz_file_set(struct fuzz_file *ff, const void *data,
				 size_t size)
{
	const char *p = data;
	size_t done = 0;

	if (ftruncate(ff->fd, 0)) {
		perror("ftruncate");
		abort();
	}
	while (done < size) {
		ssize_t w = pwrite(ff->fd, p + done, size - done, done);

		if (w <= 0) {
			perror("pwrite");
			abort();
		}
		done += w;
	}
}

/* Two graph-form inputs hold the same graph and tensor names. */
static inline void fuzz_same_graph(const struct ta_input *a,
				   const struct ta_input *b)
{
	const struct ta_graph *x = &a->graph, *y = &b->graph;
	u32 i;

	FUZZ_CHECK(x->n_tensors == y->n_tensors && x->n_ops == y->n_ops &&
		   x->n_refs == y->n_refs, "counts %u/%u/%u vs %u/%u/%u",
		   x->n_tensors, x->n_ops, x->n_refs,
		   y->n_tensors, y->n_ops, y->n_refs);
	for (i = 0; i < x->n_tensors; i++) {
		FUZZ_CHECK(x->tensors[i].size == y->tensors[i].size &&
			   x->tensors[i].align == y->tensors[i].align &&
			   x->tensors[i].flags == y->tensors[i].flags,
			   "tensor %u differs", i);
		FUZZ_CHECK(!strcmp(a->ids[i], b->ids[i]),
			   "tensor %u: name '%s' vs '%s'", i, a->ids[i],
			   b->ids[i]);
		FUZZ_CHECK(!memcmp(&a->bufs[i], &b->bufs[i],
				   sizeof(a->bufs[i])),
			   "tensor %u: lifetime differs", i);
	}
	for (i = 0; i < x->n_ops; i++)
		FUZZ_CHECK(x->ops[i].first_ref == y->ops[i].first_ref &&
			   x->ops[i].n_inputs == y->ops[i].n_inputs &&
			   x->ops[i].n_outputs == y->ops[i].n_outputs,
			   "op %u differs", i);
	FUZZ_CHECK(!x->n_refs ||
		   !memcmp(x->refs, y->refs, sizeof(*x->refs) * x->n_refs),
		   "refs differ");
}

/*
 * A graph-form input a reader accepted: a well-formed problem that a
 * cheap strategy plans validly; written as a graph file and read back, the
 * same graph; without its constants, still a valid graph.
 */
static inline void fuzz_check_graph_input(struct ta_input *in,
					  struct fuzz_file *scratch)
{
	struct ta_input back;
	struct ta_result res;
	char err[256];
	u64 *offsets;
	u32 i, n;
	int ret;

	FUZZ_CHECK(in->is_graph && in->prob.graph == &in->graph &&
		   in->prob.n_buffers == in->graph.n_tensors &&
		   in->prob.buffers == in->bufs, "input not in graph form");
	n = in->prob.n_buffers;
	offsets = calloc(n ? n : 1, sizeof(*offsets));
	FUZZ_CHECK(offsets, "out of memory");
	ret = ta_plan_solve(&in->prob, TA_STRATEGY_FREELIST, NULL, offsets, &res);
	FUZZ_CHECK(ret == 0 || ret == -EOVERFLOW, "freelist: %d", ret);
	if (!ret)
		FUZZ_CHECK(!ta_plan_validate(&in->prob, offsets, res.height),
			   "freelist plan rejected");
	free(offsets);

	if (ftruncate(scratch->fd, 0))
		abort();
	ret = ta_graph_write(scratch->path, in);
	FUZZ_CHECK(ret == 0, "ta_graph_write: %d", ret);
	ret = ta_graph_read(scratch->path, &back, err, sizeof(err));
	FUZZ_CHECK(ret == 0, "written graph not read back: %d %s", ret, err);
	fuzz_same_graph(in, &back);
	ta_input_free(&back);

	ret = ta_input_drop_constants(in);
	FUZZ_CHECK(ret == 0, "ta_input_drop_constants: %d", ret);
	for (i = 0; i < in->graph.n_tensors; i++)
		FUZZ_CHECK(!(in->tensors[i].flags & TA_TENSOR_CONSTANT),
			   "a constant left after dropping them");
}

#endif /* FUZZ_FILES_H */
