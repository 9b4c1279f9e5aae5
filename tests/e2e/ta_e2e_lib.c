// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_lib.c - end-to-end tests of libtensorarena against the module,
 * inside the test VM: graphs built with the library, submitted over each
 * transport, compared with the offline plan of the same input, mapped and
 * exercised. With --bench, prints plans per second and mmap bandwidth.
 *
 * A fixture per transport ("ioctl", "netlink") opens a client for each
 * test and closes it after; the tests are the model, the export and the
 * traces over each, or with --bench only the benchmarks ("bench").
 *
 * usage: ta_e2e_lib [--bench] [TRACE.csv...] [-l] [-t TEST]...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tensorarena.h"
#include "ta_client.h"
#include "ta_files.h"
#include "ta_harness.h"
#include "ta_e2e_client.h"

/*
 * A MobileNet-v2-like graph of about 100 tensors: an input, then blocks of
 * expand -> depthwise -> project, with a residual add every other block,
 * and a classifier head. Lifetimes: [producer, last reader].
 */
#define MODEL_BLOCKS 28

struct model {
	struct ta_graph_builder *g;
	uint32_t n;
	uint32_t life[256][2];
};

static int model_tensor(struct model *m, uint64_t size, uint32_t flags,
			uint32_t born)
{
	int t = ta_graph_add_tensor(m->g, size, 64, flags);

	if (t >= 0) {
		m->life[t][0] = born;
		m->life[t][1] = born;
	}
	return t;
}

static void model_op(struct model *m, const uint32_t *in, uint32_t n_in,
		     uint32_t out)
{
	uint32_t i, step = ta_graph_op_count(m->g);

	ta_graph_add_op(m->g, in, n_in, &out, 1);
	for (i = 0; i < n_in; i++)
		m->life[in[i]][1] = step;
	m->life[out][0] = step;
	m->life[out][1] = step;
}

static void model_build(struct model *m)
{
	uint32_t x, e, d, p, a, weights, b, ops;
	uint64_t hw = 56 * 56, c = 16;

	memset(m, 0, sizeof(*m));
	m->g = ta_graph_new();
	x = model_tensor(m, hw * 3, TA_TENSOR_INPUT, 0);
	weights = model_tensor(m, 300000, TA_TENSOR_CONSTANT, 0);
	for (b = 0; b < MODEL_BLOCKS; b++) {
		uint32_t in2[2];

		if (b % 4 == 3 && hw > 49)
			hw /= 4;
		e = model_tensor(m, hw * c * 6, 0, 0);
		in2[0] = x;
		in2[1] = weights;
		model_op(m, in2, 2, e);
		d = model_tensor(m, hw * c * 6, 0, 0);
		model_op(m, &e, 1, d);
		p = model_tensor(m, hw * c, 0, 0);
		model_op(m, &d, 1, p);
		if (b % 2) {
			a = model_tensor(m, hw * c, 0, 0);
			in2[0] = p;
			in2[1] = x;
			model_op(m, in2, 2, a);
			x = a;
		} else {
			x = p;
		}
		c += 8;
	}
	p = model_tensor(m, 1000 * 4, TA_TENSOR_OUTPUT, 0);
	model_op(m, &x, 1, p);
	ops = ta_graph_op_count(m->g);
	m->life[p][1] = ops - 1;
	m->life[weights][1] = ops - 1;
	m->n = ta_graph_tensor_count(m->g);
}

/* Write each tensor's pattern at its birth; check every live tensor. */
static bool model_walk(const struct model *m, const struct ta_plan *p)
{
	uint32_t ops = ta_graph_op_count(m->g), step, t;
	uint64_t k;

	for (step = 0; step < ops; step++) {
		for (t = 0; t < m->n; t++)
			if (m->life[t][0] == step)
				memset(ta_plan_tensor(p, t), 1 + t % 251,
				       ta_plan_size(p, t));
		for (t = 0; t < m->n; t++) {
			const unsigned char *q = ta_plan_tensor(p, t);

			if (m->life[t][0] > step || m->life[t][1] < step)
				continue;
			for (k = 0; k < ta_plan_size(p, t); k++)
				if (q[k] != 1 + t % 251)
					return false;
		}
	}
	return true;
}

static bool same_offsets(const struct ta_plan *a, const struct ta_plan *b)
{
	uint32_t i;

	if (ta_plan_tensor_count(a) != ta_plan_tensor_count(b) ||
	    ta_plan_height(a) != ta_plan_height(b))
		return false;
	for (i = 0; i < ta_plan_tensor_count(a); i++)
		if (ta_plan_offset(a, i) != ta_plan_offset(b, i) ||
		    ta_plan_size(a, i) != ta_plan_size(b, i))
			return false;
	return true;
}

static int count_plan(const struct ta_plan_get *g, void *arg)
{
	(void)g;
	++*(int *)arg;
	return 0;
}

static void test_model(struct ta_client *c, const char *tname)
{
	struct model m;
	uint32_t s;

	model_build(&m);
	for (s = 0; s < 5; s++) {
		struct ta_plan_options o = { .strategy = s };
		struct ta_plan *kp = NULL, *op = NULL;
		const char *sname = ta_strategy_str(s);
		int err, listed = 0;
		bool same;

		err = ta_plan_submit(c, m.g, &o, &kp);
		CHECK(!err, "%s model %s: submit (%u tensors)", tname, sname,
		      m.n);
		if (err)
			continue;
		err = ta_plan_offline(m.g, &o, &op);
		/* auto searches under a time budget: offsets may differ, the
		 * height may not when both reached the lower bound.
		 */
		same = !err && (same_offsets(kp, op) ||
				(s == TA_STRATEGY_AUTO && ta_plan_optimal(kp) &&
				 ta_plan_optimal(op) &&
				 ta_plan_height(kp) == ta_plan_height(op)));
		CHECK(same,
		      "%s model %s: kernel plan identical to offline (height %llu, lower bound %llu)",
		      tname, sname, (unsigned long long)ta_plan_height(kp),
		      (unsigned long long)ta_plan_lower_bound(kp));
		ta_client_list(c, count_plan, &listed);
		CHECK(listed == 1, "%s model %s: listed", tname, sname);
		err = ta_plan_map(kp);
		CHECK(!err && model_walk(&m, kp),
		      "%s model %s: no live tensor overwritten through the library mapping",
		      tname, sname);
		CHECK(!ta_plan_destroy(kp), "%s model %s: destroy", tname,
		      sname);
		ta_plan_free(kp);
		ta_plan_free(op);
	}
	ta_graph_free(m.g);
}

static uint64_t bytes_in_use(struct ta_client *c)
{
	struct ta_info info;

	memset(&info, 0, sizeof(info));
	return ta_client_info(c, &info) ? ~0ULL : info.bytes_in_use;
}

/* ta_plan_export_dmabuf() over the client's transport. */
static void test_export(struct ta_client *c, const char *tname)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_plan *p = NULL, *again = NULL, *off = NULL;
	uint32_t in, mid, out;
	uint64_t use0, slice, page = sysconf(_SC_PAGESIZE);
	unsigned char *buf;
	int fd, err;

	in = ta_graph_add_tensor(g, 5000, 64, TA_TENSOR_INPUT);
	mid = ta_graph_add_tensor(g, 9000, 64, 0);
	out = ta_graph_add_tensor(g, 3000, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &mid, 1);
	ta_graph_add_op(g, &mid, 1, &out, 1);
	use0 = bytes_in_use(c);
	err = ta_plan_submit(c, g, &o, &p);
	if (!err)
		err = ta_plan_map(p);
	CHECK(!err, "%s export: a mapped plan", tname);
	if (err)
		goto out;
	slice = (ta_plan_height(p) + page - 1) & ~(page - 1);
	memset(ta_plan_tensor(p, mid), 0x5a, ta_plan_size(p, mid));

	fd = ta_plan_export_dmabuf(p, TA_EXPORT_CLOEXEC);
	CHECK(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	      "%s export: a descriptor with FD_CLOEXEC (got %d)", tname, fd);
	if (fd < 0)
		goto out;
	CHECK(lseek(fd, 0, SEEK_END) == (off_t)slice,
	      "%s export: the dma-buf is the plan's slice (%llu bytes)", tname,
	      (unsigned long long)slice);
	buf = mmap(NULL, slice, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(buf != MAP_FAILED &&
	      !memcmp(buf + ta_plan_offset(p, mid), ta_plan_tensor(p, mid),
	      ta_plan_size(p, mid)) &&
	      buf[ta_plan_offset(p, mid)] == 0x5a,
	      "%s export: its mapping shows the tensor written through ta_plan_tensor()",
	      tname);
	if (buf != MAP_FAILED)
		munmap(buf, slice);

	err = ta_plan_export_dmabuf(p, 0x2);
	CHECK(err == -EINVAL, "%s export: unknown flag -> -EINVAL (got %d)",
	      tname, err);
	if (err >= 0)
		close(err);
	/* A failed setup is a failure of its own, never the errno expected. */
	err = ta_plan_open(c, ta_plan_id(p), &again);
	CHECK(!err && again, "%s export: the plan opened again by its ID (%d)",
	      tname, err);
	if (!err && again) {
		err = ta_plan_export_dmabuf(again, 0);
		CHECK(err >= 0 && !(fcntl(err, F_GETFD) & FD_CLOEXEC),
		      "%s export: without flags, no FD_CLOEXEC (got %d)", tname,
		      err);
		if (err >= 0)
			close(err);
	}

	ta_plan_destroy(p);
	ta_plan_free(p);	/* unmaps */
	p = NULL;
	CHECK(bytes_in_use(c) == use0 + slice,
	      "%s export: the descriptor keeps the memory after ta_plan_destroy()",
	      tname);
	if (again) {
		err = ta_plan_export_dmabuf(again, 0);
		CHECK(err == -ENOENT,
		      "%s export: of a destroyed plan -> -ENOENT (got %d)",
		      tname, err);
		if (err >= 0)
			close(err);
	} else {
		CHECK(false,
		      "%s export: of a destroyed plan: no handle to try it with",
		      tname);
	}
	close(fd);
	CHECK(bytes_in_use(c) == use0,
	      "%s export: closing the descriptor returns the memory", tname);

	err = ta_plan_offline(g, &o, &off);
	if (err) {
		CHECK(false,
		      "%s export: of an offline plan: planning it offline failed (%d)",
		      tname, err);
	} else {
		err = ta_plan_export_dmabuf(off, 0);
		CHECK(err == -EINVAL,
		      "%s export: of an offline plan -> -EINVAL (got %d)",
		      tname, err);
		if (err >= 0)
			close(err);
	}
out:
	ta_plan_free(again);
	ta_plan_free(off);
	ta_plan_free(p);
	ta_graph_free(g);
}

/* A trace's first @max buffers (all with 0) as a graph in lifetime form. */
static struct ta_graph_builder *trace_graph_first(const char *path,
						  uint32_t max)
{
	struct ta_graph_builder *g;
	struct ta_input in;
	char err[256];
	uint32_t i, n;

	memset(&in, 0, sizeof(in));
	if (ta_input_read(path, &in, err, sizeof(err)))
		return NULL;
	n = max && max < in.prob.n_buffers ? max : in.prob.n_buffers;
	g = ta_graph_new();
	for (i = 0; g && i < n; i++)
		ta_graph_add_buffer(g, in.bufs[i].size, in.bufs[i].align,
				    in.bufs[i].start, in.bufs[i].end);
	ta_input_free(&in);
	return g;
}

static struct ta_graph_builder *trace_graph(const char *path)
{
	return trace_graph_first(path, 0);
}

static void test_trace(struct ta_client *c, const char *tname, const char *path)
{
	static const uint32_t strategies[] = {
		TA_STRATEGY_GREEDY_SIZE, TA_STRATEGY_FREELIST,
	};
	struct ta_graph_builder *g = trace_graph(path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	unsigned int i;

	CHECK(g != NULL, "%s trace %s: read", tname, base);
	if (!g)
		return;
	for (i = 0; i < 2; i++) {
		struct ta_plan_options o = {
			.strategy = strategies[i], .flags = TA_CREATE_DRY_RUN,
		};
		struct ta_plan *kp = NULL, *op = NULL;
		int err;

		/* The arena is small; a dry run plans without memory. */
		err = ta_plan_submit(c, g, &o, &kp);
		if (!err)
			err = ta_plan_offline(g, &o, &op);
		CHECK(!err && ta_plan_height(kp) == ta_plan_height(op),
		      "%s trace %s %s: kernel height %llu == offline", tname,
		      base, ta_strategy_str(strategies[i]),
		      err ? 0ULL : (unsigned long long)ta_plan_height(kp));
		ta_plan_free(kp);
		ta_plan_free(op);
	}
	ta_graph_free(g);
}

/*
 * Plans per second through a transport and offline, same input, same
 * strategy and same budget (given explicitly to both: the kernel's default
 * and the library's differ). The two alternate round by round, each going
 * first every other round, so that the machine's load (a shared host under
 * TCG) weighs on both alike; rounds continue past @rounds until both sides
 * have run for BENCH_MIN_S. Each kernel round is a whole create: the
 * request built and sent, copied, validated, planned and answered; a dry
 * run (the plan's figures, no arena slice) where @rounds > 1 or the graph
 * is large, else a plan with placements fetched and then destroyed.
 *
 * Printed: module/offline, the ratio of the two paths; kernel planning /
 * offline planning, the same planner call (ta_plan_solve()) timed on each
 * side, so what the kernel path adds is the rest: its overhead in
 * microseconds a plan. The heights must match (same work).
 */
#define BENCH_MIN_S	2.0
#define BENCH_BUDGET_NS	(100ULL * 1000 * 1000)

struct bench_side {
	double path;		/* seconds, whole calls */
	double planning;	/* seconds, ta_plan_solve() as reported */
	uint64_t height;
	double *round_path;	/* each round's, for the medians */
	double *round_planning;
	int n_rounds, cap;
};

/* Keep one round's figures; 0 or -ENOMEM. */
static int bench_keep(struct bench_side *b, double path, double planning)
{
	if (b->n_rounds == b->cap) {
		int cap = b->cap ? 2 * b->cap : 1024;
		double *p = realloc(b->round_path, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->round_path = p;
		p = realloc(b->round_planning, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->round_planning = p;
		b->cap = cap;
	}
	b->round_path[b->n_rounds] = path;
	b->round_planning[b->n_rounds++] = planning;
	b->path += path;
	b->planning += planning;
	return 0;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n values (sorted in place). */
static double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int bench_kernel_round(struct ta_client *c, struct ta_graph_builder *g,
			      const struct ta_plan_options *o,
			      struct bench_side *k)
{
	double t0 = now_s();
	struct ta_plan *p;
	int err;

	err = ta_plan_submit(c, g, o, &p);
	if (err)
		return err;
	if (!(o->flags & TA_CREATE_DRY_RUN))
		err = ta_plan_destroy(p);
	if (!err)
		err = bench_keep(k, now_s() - t0, ta_plan_time_ns(p) / 1e9);
	k->height = ta_plan_height(p);
	ta_plan_free(p);
	return err;
}

static int bench_offline_round(struct ta_graph_builder *g,
			       const struct ta_plan_options *o,
			       struct bench_side *u)
{
	double t0 = now_s();
	struct ta_plan *p;
	int err;

	err = ta_plan_offline(g, o, &p);
	if (err)
		return err;
	err = bench_keep(u, now_s() - t0, ta_plan_time_ns(p) / 1e9);
	u->height = ta_plan_height(p);
	ta_plan_free(p);
	return err;
}

static void bench_plans(struct ta_client *c, const char *tname,
			struct ta_graph_builder *g, const char *what,
			uint32_t strategy, int rounds)
{
	struct ta_plan_options o = {
		.strategy = strategy, .budget_ns = BENCH_BUDGET_NS,
	};
	struct bench_side k = { 0 }, u = { 0 };
	int i, err = 0;

	if (rounds > 1 || ta_graph_tensor_count(g) > 1000)
		o.flags = TA_CREATE_DRY_RUN;
	for (i = 0; !err && (i < rounds || k.path < BENCH_MIN_S ||
			     u.path < BENCH_MIN_S); i++) {
		if (i & 1) {
			err = bench_offline_round(g, &o, &u);
			if (!err)
				err = bench_kernel_round(c, g, &o, &k);
		} else {
			err = bench_kernel_round(c, g, &o, &k);
			if (!err)
				err = bench_offline_round(g, &o, &u);
		}
	}
	if (err) {
		printf("# bench %s %s: error %d\n", tname, what, err);
		goto out;
	}
	printf("# bench %-7s %-22s %-11s %8.1f plans/s via module, %8.1f offline (module/offline %.2fx); kernel planning / offline planning %.2fx; kernel path adds %.0f us a plan%s (%d rounds, %s)\n",
	       tname, what, ta_strategy_str(strategy), i / k.path, i / u.path,
	       k.path / u.path, k.planning / u.planning,
	       (k.path - k.planning) / i * 1e6,
	       k.height == u.height ? "" : "; HEIGHTS DIFFER", i,
	       o.flags & TA_CREATE_DRY_RUN ? "dry run" : "placements");
	/*
	 * The medians of the rounds: a round the host preempted the VM in
	 * (this machine is shared) moves a sum, not a median.
	 */
	printf("# bench %-7s %-22s %-11s median round: module/offline %.2fx; kernel planning / offline planning %.2fx\n",
	       tname, what, ta_strategy_str(strategy),
	       bench_median(k.round_path, k.n_rounds) /
	       bench_median(u.round_path, u.n_rounds),
	       bench_median(k.round_planning, k.n_rounds) /
	       bench_median(u.round_planning, u.n_rounds));
out:
	free(k.round_path);
	free(k.round_planning);
	free(u.round_path);
	free(u.round_planning);
}

static void bench_mmap(struct ta_client *c)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_info info;
	struct ta_plan *p;
	uint64_t size;
	double t0, arena, anon;
	char *buf;
	int i;

	ta_client_info(c, &info);
	size = info.largest_free / 2;
	ta_graph_add_buffer(g, size, 64, 0, 1);
	if (ta_plan_submit(c, g, &o, &p) || ta_plan_map(p)) {
		printf("# bench mmap: cannot plan %llu bytes\n",
		       (unsigned long long)size);
		return;
	}
	t0 = now_s();
	for (i = 0; i < 20; i++)
		memset(ta_plan_tensor(p, 0), i, size);
	arena = now_s() - t0;
	buf = malloc(size);
	memset(buf, 1, size);
	t0 = now_s();
	for (i = 0; i < 20; i++)
		memset(buf, i, size);
	anon = now_s() - t0;
	printf("# bench mmap write: arena %.0f MB/s, anonymous memory %.0f MB/s (%llu bytes x 20)\n",
	       20 * size / arena / 1e6, 20 * size / anon / 1e6,
	       (unsigned long long)size);
	free(buf);
	ta_plan_destroy(p);
	ta_plan_free(p);
	ta_graph_free(g);
}

/* The traces the program was given. */
static char **traces;
static int n_traces;

static void test_traces(struct ta_client *c, const char *tname)
{
	int i;

	for (i = 0; i < n_traces; i++)
		test_trace(c, tname, traces[i]);
}

/*
 * What a request that plans nothing (ta_client_info(): the arena's
 * figures) costs over this client: the floor under every create's
 * "kernel path adds". Under TCG it takes most of goal 5's allowance on the model
 * (Documentation/testing.md, "Under TCG, a request that does nothing").
 */
static void bench_null(struct ta_client *c, const char *tname)
{
	double t0 = now_s(), t;
	struct ta_info info;
	long k = 0;
	int err;

	do {
		/* flags and reserved are the caller's: zero */
		memset(&info, 0, sizeof(info));
		err = ta_client_info(c, &info);
		if (err) {
			printf("# bench %s null request: error %d\n", tname,
			       err);
			return;
		}
		k++;
		t = now_s() - t0;
	} while (t < BENCH_MIN_S);
	printf("# bench %-7s null request (info)          %8.2f us a request (%ld requests)\n",
	       tname, t / k * 1e6, k);
}

static void bench(struct ta_client *c, const char *tname, bool mmap_too)
{
	struct model m;
	int i;

	bench_null(c, tname);
	model_build(&m);
	bench_plans(c, tname, m.g, "model (101 tensors)",
		    TA_STRATEGY_GREEDY_SIZE, 200);
	bench_plans(c, tname, m.g, "model (101 tensors)", TA_STRATEGY_AUTO, 20);
	/* a plan a runtime keeps: placements fetched, then destroyed */
	bench_plans(c, tname, m.g, "model (101 tensors)",
		    TA_STRATEGY_GREEDY_SIZE, 1);
	ta_graph_free(m.g);
	for (i = 0; i < n_traces; i++) {
		const char *base = strrchr(traces[i], '/') ?
				   strrchr(traces[i], '/') + 1 : traces[i];
		struct ta_graph_builder *g = trace_graph_first(traces[i], 8000);
		char what[64];

		/* 8,000 buffers: within one netlink message */
		if (g && ta_graph_tensor_count(g) == 8000) {
			snprintf(what, sizeof(what), "%.12s first 8000", base);
			bench_plans(c, tname, g, what,
				    TA_STRATEGY_GREEDY_SIZE, 5);
		}
		ta_graph_free(g);
		/*
		 * Over the netlink client, a trace beyond one netlink message
		 * (about 9,000 buffers) goes through its ioctl file.
		 */
		g = trace_graph(traces[i]);
		if (g)
			bench_plans(c, tname, g, base,
				    TA_STRATEGY_GREEDY_SIZE, 5);
		ta_graph_free(g);
	}
	if (mmap_too)
		bench_mmap(c);
}

/*
 * Groups over each transport (issue 28): the same scenario through an
 * ioctl client and a netlink client, whose results must be identical.
 * Members: in -> op -> mid -> op -> out, with a constant weight read by
 * the first op where @weight is not 0.
 */
#define GPAGE		4096ULL
#define G_MEMBERS	5	/* three created, two added */
#define G_TENSORS	4

static struct ta_graph_builder *group_chain(uint64_t in, uint64_t mid,
					    uint64_t out, uint64_t weight)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t x, w, m, y, in2[2];

	x = ta_graph_add_tensor(g, in * GPAGE, 64, TA_TENSOR_INPUT);
	m = ta_graph_add_tensor(g, mid * GPAGE, 64, 0);
	y = ta_graph_add_tensor(g, out * GPAGE, 64, TA_TENSOR_OUTPUT);
	in2[0] = x;
	if (weight) {
		w = ta_graph_add_tensor(g, weight * GPAGE, 64,
					TA_TENSOR_CONSTANT);
		in2[1] = w;
	}
	ta_graph_add_op(g, in2, weight ? 2 : 1, &m, 1);
	ta_graph_add_op(g, &m, 1, &y, 1);
	return g;
}

/* What one transport's run of the scenario gave. */
struct group_run {
	int create_err;
	uint32_t n_members;
	uint64_t height, lower_bound, slice;
	int optimal;
	/* per member: its tensors' offsets and sizes, after each step */
	uint64_t created[G_MEMBERS][G_TENSORS][2];
	int add_idx;
	uint64_t add_height;
	uint64_t added[G_MEMBERS][G_TENSORS][2];
	int nofit_err;
	char nofit_msg[256];
	int replan_idx;
	uint64_t replan_height, replan_slice;
	uint64_t replanned[G_MEMBERS][G_TENSORS][2];
	int bad_link_err;
	char bad_link_msg[256];
	int bad_add_link_err;
	char bad_add_link_msg[256];
	uint32_t get_n_members;
	uint64_t get_height, get_slice;
	int get_short_err;
	uint32_t get_short_n;
	bool get_ids_match;
	int destroy_err;
};

/* Every member's offsets and sizes into @out; the count of tensors read. */
static uint32_t group_offsets(const struct ta_group *grp,
			      uint64_t out[G_MEMBERS][G_TENSORS][2])
{
	uint32_t m, t, n = 0;

	memset(out, 0, sizeof(uint64_t) * G_MEMBERS * G_TENSORS * 2);
	for (m = 0; m < ta_group_member_count(grp) && m < G_MEMBERS; m++) {
		const struct ta_plan *p = ta_group_member(grp, m);

		for (t = 0; p && t < ta_plan_tensor_count(p) && t < G_TENSORS;
		     t++, n++) {
			out[m][t][0] = ta_plan_offset(p, t);
			out[m][t][1] = ta_plan_size(p, t);
		}
	}
	return n;
}

static void group_msg(struct ta_client *c, char *dst)
{
	snprintf(dst, 256, "%s", ta_client_last_error(c));
}

/* GROUP_GET through the client's transport: the figures after the run. */
static void group_get(struct ta_client *c, const struct ta_group *grp,
		      struct group_run *r)
{
	uint32_t ids[TA_GROUP_MAX_MEMBERS], m;
	struct ta_group_get g;

	memset(&g, 0, sizeof(g));
	g.group_id = ta_group_id(grp);
	g.members = (uintptr_t)ids;
	g.n_members = 1;
	r->get_short_err = c->ops->group_get(c, &g);
	r->get_short_n = g.n_members;
	memset(&g, 0, sizeof(g));
	g.group_id = ta_group_id(grp);
	g.members = (uintptr_t)ids;
	g.n_members = TA_GROUP_MAX_MEMBERS;
	if (c->ops->group_get(c, &g))
		return;
	r->get_n_members = g.n_members;
	r->get_height = g.height;
	r->get_slice = g.slice_size;
	r->get_ids_match = g.n_members == ta_group_member_count(grp);
	for (m = 0; m < g.n_members && r->get_ids_match; m++)
		r->get_ids_match = ta_group_member(grp, m) &&
				   ids[m] == ta_plan_id(ta_group_member(grp, m));
}

static void group_scenario(struct ta_client *c, const char *tname,
			   struct group_run *r)
{
	struct ta_graph_builder *g[G_MEMBERS + 2];
	struct ta_group_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_group_add_options ao = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_group_builder *gb = ta_group_new(), *bad = ta_group_new();
	struct ta_group_link l;
	struct ta_group *grp = NULL, *none = NULL;
	uint32_t i, n;

	memset(r, 0, sizeof(*r));
	g[0] = group_chain(3, 5, 2, 2);
	g[1] = group_chain(2, 6, 3, 0);
	g[2] = group_chain(1, 4, 1, 2);
	g[3] = group_chain(1, 1, 1, 0);		/* fits around the others */
	g[4] = group_chain(1, 64, 1, 0);	/* needs a bigger slice */
	g[5] = group_chain(1, 2, 1, 0);
	g[6] = group_chain(1, 2, 1, 0);
	ta_group_add_member(gb, g[0], 0);
	ta_group_add_member(gb, g[1], 0);
	ta_group_add_member(gb, g[2], 1);
	ta_group_link(gb, 0, 2, 1, 0);		/* m0's output is m1's input */
	ta_group_share(gb, 0, 3, 7);		/* m0's and m2's weight: one */
	ta_group_share(gb, 2, 3, 7);
	r->create_err = ta_group_submit(c, gb, &o, &grp);
	CHECK(!r->create_err && ta_group_id(grp),
	      "%s group: created (%d)", tname, r->create_err);
	if (r->create_err)
		goto out;
	r->n_members = ta_group_member_count(grp);
	r->height = ta_group_height(grp);
	r->lower_bound = ta_group_lower_bound(grp);
	r->slice = ta_group_slice_size(grp);
	r->optimal = ta_group_optimal(grp);
	n = group_offsets(grp, r->created);
	CHECK(n == 11, "%s group: 11 tensors of 3 members read (%u)", tname, n);
	CHECK(r->created[0][2][0] == r->created[1][0][0] &&
	      r->created[0][3][0] == r->created[2][3][0],
	      "%s group: the link and the shared weight are one offset each",
	      tname);

	r->add_idx = ta_group_add(grp, g[3], &ao);
	CHECK(r->add_idx == 3, "%s group: a small member added in place (%d)",
	      tname, r->add_idx);
	r->add_height = ta_group_height(grp);
	n = group_offsets(grp, r->added);
	CHECK(n == 14 && !memcmp(r->created, r->added,
				 sizeof(r->created[0]) * 3),
	      "%s group: the add moved no tensor (%u tensors read)", tname, n);

	r->nofit_err = ta_group_add(grp, g[4], &ao);
	group_msg(c, r->nofit_msg);
	CHECK(r->nofit_err == -ENOSPC,
	      "%s group: a member beyond the slice -> -ENOSPC (%d)", tname,
	      r->nofit_err);

	ao.flags = TA_GROUP_ADD_REPLAN;
	r->replan_idx = ta_group_add(grp, g[4], &ao);
	ao.flags = 0;
	CHECK(r->replan_idx == 4, "%s group: the same member with a re-plan (%d)",
	      tname, r->replan_idx);
	r->replan_height = ta_group_height(grp);
	r->replan_slice = ta_group_slice_size(grp);
	n = group_offsets(grp, r->replanned);
	CHECK(n == 17, "%s group: 17 tensors of 5 members read (%u)", tname, n);

	/* A link from a member to itself: only the kernel checks that. */
	ta_group_add_member(bad, g[5], 0);
	ta_group_add_member(bad, g[6], 0);
	ta_group_link(bad, 0, 2, 0, 0);
	r->bad_link_err = ta_group_submit(c, bad, &o, &none);
	group_msg(c, r->bad_link_msg);
	CHECK(r->bad_link_err == -EINVAL && !none,
	      "%s group: a link within one member -> -EINVAL (%d)", tname,
	      r->bad_link_err);
	/* An add's link to a tensor the new member does not have. */
	l = (struct ta_group_link){ 1, 2, 5, 9 };
	ao.links = &l;
	ao.n_links = 1;
	r->bad_add_link_err = ta_group_add(grp, g[5], &ao);
	group_msg(c, r->bad_add_link_msg);
	CHECK(r->bad_add_link_err == -EINVAL,
	      "%s group: an add's link to no such tensor -> -EINVAL (%d)",
	      tname, r->bad_add_link_err);

	group_get(c, grp, r);
	CHECK(r->get_short_err == -ENOSPC && r->get_short_n == 5,
	      "%s group: GROUP_GET with room for 1 -> -ENOSPC and the count, 5 (%d, %u)",
	      tname, r->get_short_err, r->get_short_n);
	CHECK(r->get_n_members == 5 && r->get_ids_match &&
	      r->get_height == r->replan_height &&
	      r->get_slice == r->replan_slice,
	      "%s group: GROUP_GET after the refused calls: 5 members, their IDs, the re-plan's height and slice",
	      tname);
	r->destroy_err = ta_group_destroy(grp);
	CHECK(!r->destroy_err, "%s group: destroyed (%d)", tname,
	      r->destroy_err);
out:
	ta_group_free(grp);
	ta_group_free(none);
	ta_group_builder_free(gb);
	ta_group_builder_free(bad);
	for (i = 0; i < G_MEMBERS + 2; i++)
		ta_graph_free(g[i]);
}

/* Issue 28: one scenario, both transports, identical results. */
TEST(group_transports)
{
	struct ta_client *ioc = NULL, *nlc = NULL;
	struct group_run a, b;
	int err;

	err = ta_client_open(TA_TRANSPORT_IOCTL, &ioc);
	CHECK(!err, "group transports: ioctl client opens (%d)", err);
	err = ta_client_open(TA_TRANSPORT_NETLINK, &nlc);
	CHECK(!err, "group transports: netlink client opens (%d)", err);
	if (!ioc || !nlc)
		goto out;
	group_scenario(ioc, "ioctl", &a);
	group_scenario(nlc, "netlink", &b);
	CHECK(a.create_err == b.create_err && a.n_members == b.n_members &&
	      a.height == b.height && a.lower_bound == b.lower_bound &&
	      a.slice == b.slice && a.optimal == b.optimal,
	      "group transports: create: the same figures (height %llu / %llu, lower bound %llu / %llu, slice %llu / %llu)",
	      (unsigned long long)a.height, (unsigned long long)b.height,
	      (unsigned long long)a.lower_bound,
	      (unsigned long long)b.lower_bound,
	      (unsigned long long)a.slice, (unsigned long long)b.slice);
	CHECK(!memcmp(a.created, b.created, sizeof(a.created)),
	      "group transports: create: the same offsets and sizes");
	CHECK(a.add_idx == b.add_idx && a.add_height == b.add_height &&
	      !memcmp(a.added, b.added, sizeof(a.added)),
	      "group transports: add in place: the same index, height (%llu) and offsets",
	      (unsigned long long)b.add_height);
	CHECK(a.nofit_err == b.nofit_err,
	      "group transports: add beyond the slice: the same errno (%d)",
	      b.nofit_err);
	CHECK(a.replan_idx == b.replan_idx &&
	      a.replan_height == b.replan_height &&
	      a.replan_slice == b.replan_slice &&
	      !memcmp(a.replanned, b.replanned, sizeof(a.replanned)),
	      "group transports: re-plan: the same height (%llu), slice and offsets",
	      (unsigned long long)b.replan_height);
	CHECK(a.bad_link_err == b.bad_link_err &&
	      a.bad_add_link_err == b.bad_add_link_err,
	      "group transports: bad links: the same errnos (%d, %d)",
	      b.bad_link_err, b.bad_add_link_err);
	CHECK(a.get_short_err == b.get_short_err &&
	      a.get_short_n == b.get_short_n &&
	      a.get_n_members == b.get_n_members &&
	      a.get_height == b.get_height && a.get_slice == b.get_slice,
	      "group transports: GROUP_GET: the same figures");
	/* The kernel's reasons reach the library over netlink only. */
	CHECK(!a.nofit_msg[0] && !a.bad_link_msg[0] && !a.bad_add_link_msg[0],
	      "group transports: ioctl: no extack text");
	CHECK(strstr(b.nofit_msg, "does not fit in the slice"),
	      "group transports: netlink: add beyond the slice says why (\"%s\")",
	      b.nofit_msg);
	CHECK(strstr(b.bad_link_msg, "a link joins two different members"),
	      "group transports: netlink: a link within one member says why (\"%s\")",
	      b.bad_link_msg);
	CHECK(strstr(b.bad_add_link_msg, "link names a tensor its member does not have"),
	      "group transports: netlink: an add's bad link says why (\"%s\")",
	      b.bad_add_link_msg);
out:
	if (ioc)
		ta_client_close(ioc);
	if (nlc)
		ta_client_close(nlc);
}

TEST_F(ioctl, model) { test_model(self->c, "ioctl"); }
TEST_F(ioctl, export) { test_export(self->c, "ioctl"); }
TEST_F(ioctl, traces) { test_traces(self->c, "ioctl"); }
TEST_F(netlink, model) { test_model(self->c, "netlink"); }
TEST_F(netlink, export) { test_export(self->c, "netlink"); }
TEST_F(netlink, traces) { test_traces(self->c, "netlink"); }
/*
 * The netlink client sends the module (family version 2) packed arrays,
 * in several attributes where one would pass 64 KiB, and an older module
 * nests: both encodings of the same graphs plan as offline does. Graphs:
 * the model; a chain of 5,000 tensors (two tensor and two op attributes
 * packed); 3,000 buffers with lifetimes (two buffer attributes).
 */
static struct ta_graph_builder *packed_chain(uint32_t n)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t i, in, out;

	ta_graph_add_tensor(g, 256, 0, TA_TENSOR_INPUT);
	for (i = 1; i < n; i++) {
		ta_graph_add_tensor(g, 64 + (i % 7) * 64, 0,
				    i == n - 1 ? TA_TENSOR_OUTPUT : 0);
		in = i - 1;
		out = i;
		ta_graph_add_op(g, &in, 1, &out, 1);
	}
	return g;
}

static struct ta_graph_builder *packed_lifetimes(uint32_t n)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t i, seed = 7, start;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245 + 12345;
		start = i / 4;
		ta_graph_add_buffer(g, 64 << (seed >> 28 & 3), 0, start,
				    start + 1 + (seed >> 20 & 15));
	}
	return g;
}

TEST_F(netlink, packed_and_nested)
{
	struct ta_plan_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_graph_builder *g[3];
	const char *names[3] = { "model", "chain of 5000", "3000 buffers" };
	int i, enc, cases = 0, was;
	struct model m;

	model_build(&m);
	g[0] = m.g;
	g[1] = packed_chain(5000);
	g[2] = packed_lifetimes(3000);
	was = ta_netlink_packed(self->c, -1);
	CHECK(was == 1, "netlink: the module's family takes packed arrays");
	for (i = 0; i < 3; i++) {
		for (enc = 1; enc >= 0; enc--) {
			struct ta_plan *kp = NULL, *op = NULL;
			int err;

			ta_netlink_packed(self->c, enc);
			err = ta_plan_submit(self->c, g[i], &o, &kp);
			if (!err)
				err = ta_plan_offline(g[i], &o, &op);
			CHECK(!err && same_offsets(kp, op),
			      "netlink %s %s: kernel plan identical to offline (error %d)",
			      enc ? "packed" : "nested", names[i], err);
			if (kp)
				CHECK(!ta_plan_destroy(kp),
				      "netlink %s %s: destroy",
				      enc ? "packed" : "nested", names[i]);
			ta_plan_free(kp);
			ta_plan_free(op);
			cases++;
		}
		ta_graph_free(g[i]);
	}
	ta_netlink_packed(self->c, was);
	CHECK(cases == 6, "netlink: both encodings of 3 graphs planned (%d)",
	      cases);
}

/* --bench: the figures, and the client's open as their one check. */
TEST_F(ioctl, bench) { bench(self->c, "ioctl", true); }
TEST_F(netlink, bench) { bench(self->c, "netlink", false); }

int main(int argc, char **argv)
{
	bool bench_mode = argc > 1 && !strcmp(argv[1], "--bench");
	int a = 1 + bench_mode, n = 0, n_tests = 0, rc;
	struct ta_test *t;
	char **args;

	for (t = ta_tests; t; t = t->next)
		n_tests++;
	args = calloc(2 * n_tests + argc + 1, sizeof(*args));
	if (!args)
		return 1;
	traces = argv + a;
	while (a < argc && argv[a][0] != '-')
		a++;
	n_traces = argv + a - traces;
	/*
	 * Without -t, the tests of the mode: the benchmarks with --bench,
	 * every other test without.
	 */
	if (a == argc || strcmp(argv[a], "-t"))
		for (t = ta_tests; t; t = t->next)
			if (!!strstr(t->name, ".bench") == bench_mode) {
				args[n++] = "-t";
				args[n++] = (char *)t->name;
			}
	while (a < argc)
		args[n++] = argv[a++];
	rc = ta_harness_main(n, args);
	free(args);
	return rc ? 1 : 0;
}
