// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu.c - the end-to-end proof, inside the test VM: real models run
 * on the reference NPU (tests/npu-sim) give bit-for-bit the results of a
 * userspace reference that keeps every tensor in a buffer of its own.
 *
 * For each .tflite or .onnx model (read by libtensorarena's importers) and each
 * strategy: plan the graph in the module, write the graph's inputs,
 * constants and state through the plan's mapping, import the plan's dma-buf
 * into the NPU's DRM device (PRIME), run the graph's ops on the NPU (by the
 * handle, or by plan ID; it works at the tensors' DMA addresses), then
 * compare:
 *  - whole run: every tensor live at the end (outputs, constants, state);
 *  - op by op (--steps): after each op, every tensor live at that op.
 * With --corrupt (needs the test build of tensorarena.ko), one tensor of
 * each plan is first moved onto a live neighbour through the test hook,
 * and the comparison must fail.
 *
 * With --sync, the job's fence: a foreign (vgem) fence holds the job back,
 * poll() and a sync_file of the plan's dma-buf wait for it, and a reader
 * that waits sees only finished results; and the NPU's bound on what one
 * file may queue, its jobs charged to the submitter's memory cgroup.
 *
 * With --no-constants, the models' weights are left out of the graph (a
 * model whose weights do not fit the arena still has its activations
 * proven).
 *
 * With --export-inputs, only this: the models' inputs planned exportable
 * and exported, and their pages, after a whole run, holding the input
 * alone (no other tensor was planned on them). With --long-job, only a job
 * the watchdog must stop.
 *
 * usage: ta_e2e_npu [--steps] [--corrupt] [--plan-id] [--bad-input] [--unreachable]
 *		     [--dma-heap] [--table] [--stress] [--sync] [--no-constants]
 *		     [--export-inputs] [--long-job]
 *		     MODEL.tflite|.onnx...
 * Prints "e2e: ok - ..." / "e2e: not ok - ..." lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-heap.h>
#include <linux/tensorarena.h>

#include "ta_e2e_cgroup.h"
#include "ta_e2e_param.h"
#include "ta_files.h"
#include "ta_npu_mix.h"
#include "ta_npu_sim.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_report.h"

#define TA_DEV		"/dev/" TA_DEVICE_NAME
/* The test build's hook, in the debugfs directory of the arena device. */
#define HOOK		"/sys/kernel/debug/tensorarena/*/test_move_tensor"
#define JOB_KEY		0x7e57a12e4aULL

/* A model: its graph in the uAPI's form, lifetimes and the reference. */
struct model {
	const char *name;
	struct ta_input in;
	struct ta_tflite_info info;
	struct ta_tensor *tensors;
	struct ta_op *ops;
	uint32_t n_tensors, n_ops, n_refs;
	const uint32_t *refs;
	const struct ta_buffer *life;	/* [start, end) per tensor */
	uint64_t bytes_in, bytes_out;	/* what all ops read and write */
	uint8_t **ref;			/* reference: a buffer per tensor */
	uint8_t **final;		/* the reference after every op */
};

static bool is_initial(const struct model *m, uint32_t t)
{
	return m->tensors[t].flags &
	       (TA_TENSOR_INPUT | TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT);
}

/* The reference: op @i on separate buffers, as the NPU computes it. */
static void ref_op(struct model *m, uint8_t **buf, uint32_t i)
{
	const struct ta_op *op = &m->ops[i];
	const uint32_t *in = &m->refs[op->first_ref];
	const uint32_t *out = in + op->n_inputs;
	uint64_t h = ta_npu_digest_begin(JOB_KEY, i);
	uint32_t k;

	for (k = 0; k < op->n_inputs; k++)
		h = ta_npu_digest_input(h, buf[in[k]], m->tensors[in[k]].size);
	for (k = 0; k < op->n_outputs; k++) {
		if (!k && op->n_inputs && (op->flags & TA_OP_INPLACE))
			ta_npu_view_output(buf[in[0]], m->tensors[in[0]].size,
					   buf[out[0]],
					   m->tensors[out[0]].size);
		else
			ta_npu_fill_output(h, k, buf[out[k]],
					   m->tensors[out[k]].size);
	}
}

static void ref_reset(struct model *m, uint8_t **buf)
{
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++) {
		memset(buf[t], 0, m->tensors[t].size);
		if (is_initial(m, t))
			ta_npu_fill_initial(JOB_KEY, t, buf[t],
					    m->tensors[t].size);
	}
}

static void free_buffers(const struct model *m, uint8_t **buf)
{
	uint32_t t;

	for (t = 0; buf && t < m->n_tensors; t++)
		free(buf[t]);
	free(buf);
}

static uint8_t **alloc_buffers(const struct model *m)
{
	uint8_t **buf = calloc(m->n_tensors, sizeof(*buf));
	uint32_t t;

	for (t = 0; buf && t < m->n_tensors; t++) {
		buf[t] = malloc(m->tensors[t].size ? m->tensors[t].size : 1);
		if (!buf[t]) {
			free_buffers(m, buf);
			return NULL;
		}
	}
	return buf;
}

static void model_free(struct model *m)
{
	free_buffers(m, m->ref);
	free_buffers(m, m->final);
	free(m->tensors);
	free(m->ops);
	ta_input_free(&m->in);
}

/* --no-constants: the models' constant tensors are left out. */
static bool no_constants;

static int model_load(struct model *m, const char *path)
{
	char err[256];
	uint32_t t, i;
	int ret;

	m->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (ta_is_onnx_name(path)) {
		struct ta_onnx_info oinfo;

		memset(&m->info, 0, sizeof(m->info));
		ret = ta_onnx_read(path, &m->in, &oinfo, err, sizeof(err));
		m->info.naive_bytes = oinfo.naive_bytes;
	} else {
		ret = ta_tflite_read(path, &m->in, &m->info, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return ret;
	}
	/* weights kept outside the arena (as TFLite Micro keeps them in flash) */
	if (no_constants && ta_input_drop_constants(&m->in))
		return -ENOMEM;
	m->n_tensors = m->in.graph.n_tensors;
	m->n_ops = m->in.graph.n_ops;
	m->n_refs = m->in.graph.n_refs;
	m->refs = m->in.graph.refs;
	m->life = m->in.prob.buffers;
	m->tensors = calloc(m->n_tensors, sizeof(*m->tensors));
	m->ops = calloc(m->n_ops, sizeof(*m->ops));
	if (!m->tensors || !m->ops)
		return -ENOMEM;
	for (t = 0; t < m->n_tensors; t++) {
		m->tensors[t].size = m->in.graph.tensors[t].size;
		m->tensors[t].align = m->in.graph.tensors[t].align;
		m->tensors[t].flags = m->in.graph.tensors[t].flags;
	}
	for (i = 0; i < m->n_ops; i++) {
		const struct ta_op *op = &m->ops[i];

		m->ops[i].first_ref = m->in.graph.ops[i].first_ref;
		m->ops[i].n_inputs = m->in.graph.ops[i].n_inputs;
		m->ops[i].n_outputs = m->in.graph.ops[i].n_outputs;
		m->ops[i].flags = m->in.graph.ops[i].flags;
		for (t = 0; t < op->n_inputs + op->n_outputs; t++) {
			uint64_t size = m->tensors[m->refs[op->first_ref + t]].size;

			if (t < op->n_inputs)
				m->bytes_in += size;
			else
				m->bytes_out += size;
		}
	}
	m->ref = alloc_buffers(m);
	m->final = alloc_buffers(m);
	if (!m->ref || !m->final)
		return -ENOMEM;
	ref_reset(m, m->final);
	for (i = 0; i < m->n_ops; i++)
		ref_op(m, m->final, i);
	return 0;
}

/* A plan in the module, mapped. */
struct plan {
	struct ta_plan_create create;
	struct ta_placement *place;
	uint8_t *map;
	size_t map_len;
	int dmabuf;
	int npu;		/* the NPU's DRM fd the plan is imported in */
	uint32_t handle;	/* the plan's GEM handle there, 0 if none */
};

/* The NPU's DRM fd plans are imported in; -1: plan_create() does not. */
static int import_npu = -1;

static int plan_read(int ta, struct plan *p, uint32_t n_tensors)
{
	struct ta_plan_get get = {
		.plan_id = p->create.plan_id,
		.placements = (uintptr_t)p->place,
		.n_placements = n_tensors,
		.placement_size = sizeof(struct ta_placement),
	};

	if (ioctl(ta, TA_IOCTL_PLAN_GET, &get))
		return -errno;
	return get.n_placements == n_tensors ? 0 : -EPROTO;
}

static int plan_create(int ta, const struct model *m, uint32_t strategy,
		       struct plan *p)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ta_plan_export exp = { 0 };

	memset(p, 0, sizeof(*p));
	p->dmabuf = -1;
	p->create.strategy = strategy;
	p->create.tensors = (uintptr_t)m->tensors;
	p->create.n_tensors = m->n_tensors;
	p->create.tensor_size = sizeof(struct ta_tensor);
	p->create.ops = (uintptr_t)m->ops;
	p->create.n_ops = m->n_ops;
	p->create.op_size = sizeof(struct ta_op);
	p->create.refs = (uintptr_t)m->refs;
	p->create.n_refs = m->n_refs;
	if (ioctl(ta, TA_IOCTL_PLAN_CREATE, &p->create))
		return -errno;
	p->place = calloc(m->n_tensors, sizeof(*p->place));
	if (!p->place)
		return -ENOMEM;
	if (plan_read(ta, p, m->n_tensors))
		return -EPROTO;
	p->map_len = (p->create.height + page - 1) / page * page;
	p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      ta, p->create.mmap_offset);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		return -errno;
	}
	exp.plan_id = p->create.plan_id;
	exp.flags = TA_EXPORT_CLOEXEC;
	if (ioctl(ta, TA_IOCTL_PLAN_EXPORT, &exp))
		return -errno;
	p->dmabuf = exp.fd;
	if (import_npu < 0)
		return 0;
	p->npu = import_npu;
	return drm_prime_import(p->npu, p->dmabuf, &p->handle);
}

static void plan_destroy(int ta, struct plan *p)
{
	struct ta_plan_destroy d = { .plan_id = p->create.plan_id };

	if (p->map)
		munmap(p->map, p->map_len);
	if (p->handle)
		drm_gem_close_handle(p->npu, p->handle);
	if (p->dmabuf >= 0)
		close(p->dmabuf);
	if (p->create.plan_id)
		ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d);
	free(p->place);
	memset(p, 0, sizeof(*p));
}

/* Write the inputs, constants and state through the plan's mapping. */
static void plan_write_initial(const struct model *m, struct plan *p)
{
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++) {
		if (is_initial(m, t) && m->tensors[t].size)
			ta_npu_fill_initial(JOB_KEY, t,
					    p->map + p->place[t].offset,
					    m->tensors[t].size);
	}
}

/* A job on all of @m's ops that the ioctl waits for. */
static void job_init(struct drm_ta_npu_submit *job, const struct model *m,
		     const struct plan *p, bool by_id)
{
	memset(job, 0, sizeof(*job));
	job->flags = TA_NPU_SUBMIT_WAIT;
	if (by_id) {
		job->flags |= TA_NPU_SUBMIT_PLAN_ID;
		job->plan_id = p->create.plan_id;
	} else {
		job->plan_handle = p->handle;
	}
	job->n_tensors = m->n_tensors;
	job->key = JOB_KEY;
	job->ops = (uintptr_t)m->ops;
	job->n_ops = m->n_ops;
	job->op_size = sizeof(struct ta_op);
	job->refs = (uintptr_t)m->refs;
	job->n_refs = m->n_refs;
}

/*
 * The first tensor, among those live at @step (or at the end when @step is
 * n_ops), whose bytes in the plan differ from @want; -1 when all match.
 */
static int64_t compare_live(const struct model *m, const struct plan *p,
			    uint8_t **want, uint32_t step)
{
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++) {
		const struct ta_buffer *l = &m->life[t];
		bool live = step < m->n_ops ?
			    l->start <= step && step < l->end :
			    l->end == m->n_ops;

		if (!live || !m->tensors[t].size)
			continue;
		if (memcmp(p->map + p->place[t].offset, want[t],
			   m->tensors[t].size))
			return t;
	}
	return -1;
}

/* Run all ops as one job; compare what is live at the end. */
static int run_whole(int npu, const struct model *m, struct plan *p,
		     bool by_id, int64_t *bad, double *secs)
{
	struct drm_ta_npu_submit job;
	double t0 = now_s();

	plan_write_initial(m, p);
	job_init(&job, m, p, by_id);
	if (ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job))
		return -errno;
	*secs = now_s() - t0;
	/* The NPU says what it moved: every op's inputs and outputs. */
	if (job.bytes_read != m->bytes_in || job.bytes_written != m->bytes_out ||
	    job.op_end != 0)
		return -EPROTO;
	*bad = compare_live(m, p, m->final, m->n_ops);
	return 0;
}

/* Run op by op; after each, compare every tensor live at it. */
static int run_steps(int npu, struct model *m, struct plan *p, int64_t *bad,
		     uint32_t *bad_step)
{
	struct drm_ta_npu_submit job;
	uint32_t i;

	plan_write_initial(m, p);
	ref_reset(m, m->ref);
	*bad = -1;
	for (i = 0; i < m->n_ops; i++) {
		job_init(&job, m, p, false);
		job.op_begin = i;
		job.op_end = i + 1;
		if (ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job))
			return -errno;
		ref_op(m, m->ref, i);
		*bad = compare_live(m, p, m->ref, i);
		if (*bad >= 0) {
			*bad_step = i;
			return 0;
		}
	}
	return 0;
}

/*
 * A tensor to move onto a live neighbour: an output A of an op k and a
 * tensor B live before and after k (read later, or kept to the end), B's
 * offset leaving room for A. Searched from the middle of the graph, first
 * for a B that is an activation (so only the ops' function can reveal the
 * damage, no constant compared at the end), then for any B.
 */
static bool pick_corruption_pass(const struct model *m, const struct plan *p,
				 bool activation, uint32_t *a_out,
				 uint32_t *b_out)
{
	uint32_t d, k, j, b;

	for (d = 0; d < m->n_ops; d++) {
		const struct ta_op *op;

		k = (m->n_ops / 2 + d) % m->n_ops;
		op = &m->ops[k];
		for (j = 0; j < op->n_outputs; j++) {
			uint32_t a = m->refs[op->first_ref + op->n_inputs + j];

			if (!m->tensors[a].size)
				continue;
			for (b = 0; b < m->n_tensors; b++) {
				const struct ta_buffer *l = &m->life[b];

				if (b == a || !m->tensors[b].size ||
				    l->start >= k || l->end <= k + 1 ||
				    (activation && is_initial(m, b)) ||
				    p->place[b].offset + m->tensors[a].size >
				    p->map_len)
					continue;
				*a_out = a;
				*b_out = b;
				return true;
			}
		}
	}
	return false;
}

static bool pick_corruption(const struct model *m, const struct plan *p,
			    uint32_t *a, uint32_t *b)
{
	return pick_corruption_pass(m, p, true, a, b) ||
	       pick_corruption_pass(m, p, false, a, b);
}

/* Move tensor @a of the plan onto tensor @b through the test hook. */
static int corrupt(const struct model *m, struct plan *p, int ta, uint32_t a,
		   uint32_t b)
{
	char line[64];
	int fd, n, ret = 0;
	glob_t g;

	if (glob(HOOK, 0, NULL, &g) || g.gl_pathc != 1) {
		globfree(&g);
		return -ENOENT;
	}
	fd = open(g.gl_pathv[0], O_WRONLY);
	globfree(&g);
	if (fd < 0)
		return -errno;
	n = snprintf(line, sizeof(line), "%u %u %u\n", p->create.plan_id, a, b);
	if (write(fd, line, n) != n)
		ret = -errno;
	close(fd);
	if (!ret)
		ret = plan_read(ta, p, m->n_tensors);
	if (!ret && p->place[a].offset != p->place[b].offset)
		ret = -EPROTO;
	return ret;
}

/*
 * An op k with an output A and an input B that is an activation: A written
 * over B breaks the plan at op k. The whole run cannot see it (the NPU reads
 * every input before it writes), the op-by-op check must, at op k.
 */
static bool pick_inplace(const struct model *m, const struct plan *p,
			 uint32_t *a_out, uint32_t *b_out, uint32_t *k_out)
{
	uint32_t d, k, i, j;

	for (d = 0; d < m->n_ops; d++) {
		const struct ta_op *op;
		const uint32_t *in;

		k = (m->n_ops / 2 + d) % m->n_ops;
		op = &m->ops[k];
		in = &m->refs[op->first_ref];
		for (j = 0; j < op->n_outputs; j++) {
			uint32_t a = in[op->n_inputs + j];

			for (i = 0; i < op->n_inputs && m->tensors[a].size; i++) {
				uint32_t b = in[i];

				if (b == a || !m->tensors[b].size ||
				    is_initial(m, b) ||
				    p->place[b].offset + m->tensors[a].size >
				    p->map_len)
					continue;
				*a_out = a;
				*b_out = b;
				*k_out = k;
				return true;
			}
		}
	}
	return false;
}

static const uint32_t strategies[] = {
	TA_STRATEGY_PINGPONG, TA_STRATEGY_STACK, TA_STRATEGY_FREELIST,
	TA_STRATEGY_GREEDY_SIZE, TA_STRATEGY_AUTO,
};

static const char *const strategy_names[] = {
	[TA_STRATEGY_AUTO] = "auto", [TA_STRATEGY_PINGPONG] = "pingpong",
	[TA_STRATEGY_STACK] = "stack", [TA_STRATEGY_FREELIST] = "freelist",
	[TA_STRATEGY_GREEDY_SIZE] = "greedy-size",
};

struct options {
	bool steps, corrupt, plan_id, bad_input, dma_heap, table, stress,
	     unreachable, sync, export_inputs, long_job;
};

/* One plan of @strategy, run as planned: every check must pass. */
static uint64_t test_plan(int ta, int npu, struct model *m, uint32_t strategy,
			  const struct options *o, uint64_t *lb)
{
	const char *sn = strategy_names[strategy];
	uint64_t height;
	struct plan p;
	uint32_t step = 0;
	int64_t bad = -1;
	double secs = 0;
	int ret;

	ret = plan_create(ta, m, strategy, &p);
	if (ret) {
		report(false, "npu %s %s: plan: %s", m->name, sn,
		       strerror(-ret));
		plan_destroy(ta, &p);
		return 0;
	}
	height = p.create.height;
	*lb = p.create.lower_bound;
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	report(!ret && bad < 0,
	       "npu %s %s: bit for bit with the reference (height %llu, %u tensors, %u ops, %.2f s)%s",
	       m->name, sn, (unsigned long long)height, m->n_tensors,
	       m->n_ops, secs, ret ? ": run failed" :
	       bad < 0 ? "" : ": a tensor differs");
	if (bad >= 0)
		printf("# first difference: tensor %lld\n", (long long)bad);
	if (o->steps) {
		ret = run_steps(npu, m, &p, &bad, &step);
		report(!ret && bad < 0,
		       "npu %s %s op by op: every live tensor matches after each of %u ops%s",
		       m->name, sn, m->n_ops, ret ? ": run failed" :
		       bad < 0 ? "" : ": mismatch");
	}
	if (o->plan_id && strategy == TA_STRATEGY_AUTO) {
		ret = run_whole(npu, m, &p, true, &bad, &secs);
		report(!ret && bad < 0,
		       "npu %s %s by plan ID (kernel API): bit for bit%s",
		       m->name, sn, ret ? ": run failed" : "");
	}
	plan_destroy(ta, &p);
	return height;
}

/*
 * Plans of @strategy made wrong through the test hook: the comparison must
 * fail. Whole run: a tensor moved onto one still needed after the op that
 * writes it. Op by op (--steps): an op's output moved onto its own input.
 */
static void test_corrupt_plan(int ta, int npu, struct model *m,
			      uint32_t strategy, const struct options *o)
{
	const char *sn = strategy_names[strategy];
	uint32_t a, b, k, step = 0;
	struct plan p;
	int64_t bad = -1;
	double secs;
	int ret;

	ret = plan_create(ta, m, strategy, &p);
	if (!ret)
		ret = pick_corruption(m, &p, &a, &b) ? 0 : -ESRCH;
	if (!ret)
		ret = corrupt(m, &p, ta, a, b);
	if (!ret)
		ret = run_whole(npu, m, &p, false, &bad, &secs);
	if (ret)
		report(false, "npu %s %s: corrupted plan: %s", m->name, sn,
		       strerror(-ret));
	else
		report(bad >= 0,
		       "npu %s %s: tensor %u moved onto live %s %u: the comparison fails (first at tensor %lld)",
		       m->name, sn, a,
		       is_initial(m, b) ? "input/constant" : "activation", b,
		       (long long)bad);
	plan_destroy(ta, &p);
	if (!o->steps)
		return;

	ret = plan_create(ta, m, strategy, &p);
	if (!ret)
		ret = pick_inplace(m, &p, &a, &b, &k) ? 0 : -ESRCH;
	if (!ret)
		ret = corrupt(m, &p, ta, a, b);
	if (!ret)
		ret = run_steps(npu, m, &p, &bad, &step);
	if (ret)
		report(false, "npu %s %s op by op: corrupted plan: %s", m->name,
		       sn, strerror(-ret));
	else
		report(bad >= 0 && step == k,
		       "npu %s %s op by op: output %u of op %u moved onto its input %u is caught at op %u (tensor %lld)",
		       m->name, sn, a, k, b, step, (long long)bad);
	plan_destroy(ta, &p);
}

/*
 * --long-job (issue 25): a job whose one op names the model's largest
 * tensor as its input 262,143 times (TA_NPU_MAX_REFS - 1; the job need not
 * match the plan's graph): hours of hashing. The watchdog, checked per
 * tensor, stops it with ETIMEDOUT (job_timeout_ms of ta_npu_sim, which
 * vm-tests.sh sets to 2 s for it) and the worker yields between tensors (a
 * soft lockup report fails the run); before, both came only between ops.
 */
static void test_long_job(int ta, int npu, struct model *m)
{
	const uint32_t n_refs = 262144;
	struct drm_ta_npu_submit job;
	struct ta_op op = { .first_ref = 0, .n_inputs = n_refs - 1,
			    .n_outputs = 1 };
	uint32_t *refs = calloc(n_refs, sizeof(*refs));
	uint32_t t, big = 0, k;
	double t0, secs;
	struct plan p;
	int ret;

	for (t = 1; t < m->n_tensors; t++)
		if (m->tensors[t].size > m->tensors[big].size)
			big = t;
	ret = refs ? plan_create(ta, m, TA_STRATEGY_AUTO, &p) : -ENOMEM;
	if (!ret) {
		for (k = 0; k < n_refs; k++)
			refs[k] = big;
		refs[n_refs - 1] = big ? 0 : 1;	/* the output: another */
		job_init(&job, m, &p, false);
		job.ops = (uintptr_t)&op;
		job.n_ops = 1;
		job.refs = (uintptr_t)refs;
		job.n_refs = n_refs;
		t0 = now_s();
		ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? -errno : 0;
		secs = now_s() - t0;
		report(ret == -ETIMEDOUT,
		       "npu %s: a job of one op reading a %llu-byte tensor %u times is stopped by the watchdog (%s after %.0f s, %llu bytes read)",
		       m->name, (unsigned long long)m->tensors[big].size,
		       n_refs - 1, ret ? strerror(-ret) : "finished", secs,
		       (unsigned long long)job.bytes_read);
	} else {
		report(false, "npu %s: the long job's plan: %s", m->name,
		       strerror(-ret));
	}
	if (refs)
		plan_destroy(ta, &p);
	free(refs);
}

/* One exported input: its dma-buf mapped. */
struct exported {
	uint32_t t;
	int fd;
	uint8_t *map;
	size_t len;
};

/*
 * An exported input's pages after the run: the input, as written, then the
 * canary over the rest of its last page. NULL when they hold that, else
 * what differs.
 */
static const char *exported_intact(const struct model *m,
				   const struct exported *x)
{
	uint64_t size = m->tensors[x->t].size, i;
	uint8_t *want = malloc(size ? size : 1);
	bool same;

	if (!want)
		return "out of memory";
	ta_npu_fill_initial(JOB_KEY, x->t, want, size);
	same = !memcmp(x->map, want, size);
	free(want);
	if (!same)
		return "the input's bytes changed";
	for (i = size; i < x->len; i++)
		if (x->map[i] != 0xa5)
			return "its page's padding was written";
	return NULL;
}

/*
 * --export-inputs (issue 25, row 2): the model's graph inputs planned
 * exportable, each exported as its own dma-buf, written through it and the
 * rest of its last page filled with a canary. After a whole run on the
 * reference NPU, with every strategy, the input's pages hold exactly that:
 * no other tensor was planned on them, though the input's last reader runs
 * first (before the fix, later tensors were placed there, and a camera
 * holding the buffer would see, and overwrite, activations).
 */
static void test_exported_inputs(int ta, int npu, struct model *m)
{
	struct exported *x = calloc(m->n_tensors, sizeof(*x));
	uint32_t t, n_in = 0, ran = 0, k;
	size_t s;

	for (t = 0; x && t < m->n_tensors; t++)
		if (m->tensors[t].flags & TA_TENSOR_INPUT && m->tensors[t].size) {
			m->tensors[t].flags |= TA_TENSOR_EXPORTABLE;
			x[n_in++].t = t;
		}
	if (!x || !n_in) {
		report(false, "npu %s, inputs exported: %s", m->name,
		       x ? "the model has no graph input" : "out of memory");
		free(x);
		return;
	}
	for (s = 0; s < sizeof(strategies) / sizeof(strategies[0]); s++) {
		const char *sn = strategy_names[strategies[s]];
		const char *why = NULL;
		struct plan p;
		int ret;

		for (k = 0; k < n_in; k++) {
			x[k].fd = -1;
			x[k].map = NULL;
		}
		ret = plan_create(ta, m, strategies[s], &p);
		for (k = 0; !ret && k < n_in; k++) {
			struct ta_tensor_export e = {
				.plan_id = p.create.plan_id, .tensor = x[k].t,
				.flags = TA_EXPORT_CLOEXEC, .fd = -1,
			};
			uint64_t size = m->tensors[x[k].t].size;

			if (ioctl(ta, TA_IOCTL_TENSOR_EXPORT, &e)) {
				ret = -errno;
				break;
			}
			x[k].fd = e.fd;
			x[k].len = e.size;
			x[k].map = mmap(NULL, e.size, PROT_READ | PROT_WRITE,
					MAP_SHARED, e.fd, 0);
			if (x[k].map == MAP_FAILED) {
				x[k].map = NULL;
				ret = -errno;
				break;
			}
			ta_npu_fill_initial(JOB_KEY, x[k].t, x[k].map, size);
			memset(x[k].map + size, 0xa5, e.size - size);
		}
		/*
		 * The whole model as one job. Not run_whole(): the NPU reads
		 * an exportable tensor in whole pages (its placement), canary
		 * included, so its byte counts and digests are not the
		 * reference's; what counts here is where it writes.
		 */
		if (!ret) {
			struct drm_ta_npu_submit job;

			plan_write_initial(m, &p);
			job_init(&job, m, &p, false);
			if (ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job))
				ret = -errno;
		}
		for (k = 0; !ret && !why && k < n_in; k++)
			why = exported_intact(m, &x[k]);
		report(!ret && !why,
		       "npu %s %s, inputs exported: after the run each of its %u inputs' pages holds the input alone%s%s",
		       m->name, sn, n_in, ret || why ? ": " : "",
		       ret ? strerror(-ret) : why ? why : "");
		ran += !ret;
		for (k = 0; k < n_in; k++) {
			if (x[k].map)
				munmap(x[k].map, x[k].len);
			if (x[k].fd >= 0)
				close(x[k].fd);
			x[k].map = NULL;
			x[k].fd = -1;
		}
		plan_destroy(ta, &p);
	}
	report(ran == sizeof(strategies) / sizeof(strategies[0]),
	       "npu %s, inputs exported: every strategy ran (%u)", m->name, ran);
	for (k = 0; k < n_in; k++)
		m->tensors[x[k].t].flags &= ~TA_TENSOR_EXPORTABLE;
	free(x);
}

static void test_model(int ta, int npu, struct model *m,
		       const struct options *o)
{
	uint64_t heights[5] = { 0 }, lb = 0;
	size_t s;

	for (s = 0; s < sizeof(strategies) / sizeof(strategies[0]); s++) {
		if (o->corrupt)
			test_corrupt_plan(ta, npu, m, strategies[s], o);
		else
			heights[s] = test_plan(ta, npu, m, strategies[s], o,
					       &lb);
	}
	if (o->table && !o->corrupt) {
		/* model tensors ops naive lower-bound pingpong stack freelist greedy auto */
		printf("npu-table: %s %u %u %llu %llu", m->name, m->n_tensors,
		       m->n_ops, (unsigned long long)m->info.naive_bytes,
		       (unsigned long long)lb);
		for (s = 0; s < 5; s++)
			printf(" %llu", (unsigned long long)heights[s]);
		printf("\n");
	}
}

/*
 * Loaded with a dma_bits that stops below the arena, the driver cannot
 * import a plan: PRIME import fails at attach, with ERANGE; so does a job
 * that names the plan by ID; neither changes anything.
 */
static void test_unreachable(int ta, int npu, struct model *m)
{
	struct drm_ta_npu_submit job;
	uint32_t handle = 0;
	struct plan p;
	int ret;

	import_npu = -1;
	ret = plan_create(ta, m, TA_STRATEGY_GREEDY_SIZE, &p);
	if (ret) {
		report(false, "npu unreachable: plan: %s", strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	ret = -drm_prime_import(npu, p.dmabuf, &handle);
	report(ret == ERANGE,
	       "npu unreachable: PRIME import by a device whose DMA mask stops below the arena fails at attach -> %s (got %s)",
	       strerror(ERANGE), strerror(ret));
	if (!ret)
		drm_gem_close_handle(npu, handle);
	job_init(&job, m, &p, true);
	errno = 0;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(ret == ERANGE,
	       "npu unreachable: a job naming the plan by ID fails the same way -> %s (got %s)",
	       strerror(ERANGE), strerror(ret));
	plan_destroy(ta, &p);
}

static uint64_t bytes_in_use(int ta)
{
	struct ta_info info = { 0 };

	if (ioctl(ta, TA_IOCTL_INFO, &info))
		return UINT64_MAX;
	return info.bytes_in_use;
}

/* A job by plan ID through @npu; 0 or the errno. */
static int submit_by_id(int npu, const struct model *m, uint32_t id)
{
	struct drm_ta_npu_submit job;
	struct plan p = { .create.plan_id = id };

	job_init(&job, m, &p, true);
	return ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
}

#define KAPI_USER	1000
#define KAPI_CASES	7

/*
 * uid KAPI_USER's side of test_kapi_access(), in a child that keeps saved
 * uid 0 to switch its effective uid and group between the cases. Reports
 * its checks; returns how many failed, 100 when it could not set up.
 */
static int kapi_access_child(const char *node, const struct model *m,
			     uint32_t root_plan, gid_t group)
{
	int ta, npu_in = -1, npu_ro = -1, npu_out = -1, ret, cases = 0;
	struct plan mine;
	int64_t bad = 0;
	double secs;

	if (setgroups(0, NULL) || setresgid(group, group, 0) ||
	    setresuid(KAPI_USER, KAPI_USER, 0))
		return 100;
	import_npu = -1;
	ta = open(TA_DEV, O_RDWR | O_CLOEXEC);
	if (ta < 0 || plan_create(ta, m, TA_STRATEGY_GREEDY_SIZE, &mine))
		return 100;

	/* In the device's group, its own render file, its own plan: runs. */
	npu_in = open(node, O_RDWR | O_CLOEXEC);
	ret = npu_in < 0 ? errno : run_whole(npu_in, m, &mine, true, &bad, &secs);
	report(!ret && bad < 0,
	       "npu kernel API: uid %d in the device's group runs its own plan by ID through its own render file, bit for bit (%s)",
	       KAPI_USER, strerror(ret < 0 ? -ret : ret));
	cases++;
	ret = submit_by_id(npu_in, m, root_plan);
	report(ret == ENOENT,
	       "npu kernel API: uid %d runs root's plan by ID -> ENOENT (got %s)",
	       KAPI_USER, strerror(ret));
	cases++;

	/* A render file not open for writing: as a read-only descriptor. */
	npu_ro = open(node, O_RDONLY | O_CLOEXEC);
	ret = npu_ro < 0 ? -1 : submit_by_id(npu_ro, m, mine.create.plan_id);
	report(ret == EBADF,
	       "npu kernel API: its own plan by ID through a read-only render file -> EBADF (got %s)",
	       strerror(ret));
	cases++;

	/* The same uid outside the group: as open() of the device would. */
	if (seteuid(0) || setegid(group + 1) || seteuid(KAPI_USER))
		return 100;
	npu_out = open(node, O_RDWR | O_CLOEXEC);
	ret = npu_out < 0 ? -1 : submit_by_id(npu_out, m, mine.create.plan_id);
	report(ret == EACCES,
	       "npu kernel API: the same uid outside the device's group runs its plan by ID -> EACCES (got %s)",
	       strerror(ret));
	cases++;
	/* A dma-buf is a capability: whoever holds it may run the plan. */
	mine.npu = npu_out;
	ret = npu_out < 0 ? -EBADF : drm_prime_import(npu_out, mine.dmabuf,
						      &mine.handle);
	ret = ret ? ret : run_whole(npu_out, m, &mine, false, &bad, &secs);
	report(!ret && bad < 0,
	       "npu kernel API: ... but runs it through the plan's dma-buf, bit for bit (%s)",
	       strerror(-ret));
	cases++;

	/* Root acting on files others opened gains nothing (the deputy). */
	if (seteuid(0))
		return 100;
	ret = submit_by_id(npu_out, m, mine.create.plan_id);
	report(ret == EACCES,
	       "npu kernel API: root submitting through a render file opened outside the group -> EACCES (got %s)",
	       strerror(ret));
	cases++;
	ret = submit_by_id(npu_in, m, root_plan);
	report(ret == ENOENT,
	       "npu kernel API: root submitting its own plan through uid %d's render file -> ENOENT (got %s)",
	       KAPI_USER, strerror(ret));
	cases++;

	report(cases == KAPI_CASES, "npu kernel API: %d of %d cases ran",
	       cases, KAPI_CASES);
	plan_destroy(ta, &mine);
	close(npu_out);
	close(npu_ro);
	close(npu_in);
	close(ta);
	return failures;
}

/*
 * The kernel API's access rule (issue 25): a plan ID passed to the NPU
 * driver is checked as /dev/tensorarena would check a descriptor: the
 * render file's opener must be in the device's group, the file open for
 * writing, and the plan the opener's; the task that submits counts for
 * nothing. The render node is opened to all for the test (its mode is
 * restored): the rule under test is tensorarena's, not the node's.
 */
static void test_kapi_access(int npu, const struct model *m,
			     uint32_t root_plan)
{
	long long group = ta_e2e_param_read("group");
	char link[64], node[256];
	struct stat st;
	int status, ret = -1;
	ssize_t len;
	pid_t pid;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", npu);
	len = readlink(link, node, sizeof(node) - 1);
	node[len > 0 ? len : 0] = 0;
	if (len <= 0 || group <= 0 || stat(node, &st)) {
		report(false, "npu kernel API: the render node and the device's group (group %lld)",
		       group);
		return;
	}
	chmod(node, 0666);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(kapi_access_child(node, m, root_plan, (gid_t)group));
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	chmod(node, st.st_mode & 07777);
	report(ret == 0, "npu kernel API: uid %d's checks (%s, group %lld) passed (exit %d)",
	       KAPI_USER, node, group, ret);
}

/* Each bad job fails with its errno and changes nothing. */
static void test_bad_input(int ta, int npu, struct model *m, bool dma_heap)
{
	struct ta_op bad_ops[2] = { { 0 } };
	struct drm_ta_npu_bo bos[1] = { { 0 } };
	uint32_t bad_ref = m->n_tensors, handle;
	struct drm_ta_npu_submit job;
	struct plan p;
	uint64_t use;
	int64_t bad;
	double secs;
	int ret;

	ret = plan_create(ta, m, TA_STRATEGY_GREEDY_SIZE, &p);
	if (ret) {
		report(false, "npu bad input: plan: %s", strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	plan_write_initial(m, &p);
	use = bytes_in_use(ta);

#define BAD(what, want, ...) do {					\
		job_init(&job, m, &p, false);				\
		__VA_ARGS__;						\
		errno = 0;						\
		ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;	\
		report(ret == (want), "npu bad input: %s -> %s (got %s)", \
		       what, strerror(want), strerror(ret));		\
	} while (0)

	BAD("unknown flag", EINVAL, job.flags |= 0x80);
	BAD("reserved not zero", EINVAL, job.reserved[1] = 1);
	BAD("plan ID set beside a handle", EINVAL, job.plan_id = 1);
	BAD("handle set beside a plan ID", EINVAL,
	    job.flags |= TA_NPU_SUBMIT_PLAN_ID; job.plan_id = p.create.plan_id);
	BAD("no ops", EINVAL, job.n_ops = 0);
	BAD("more ops than the limit", EINVAL, job.n_ops = 65537);
	BAD("more refs than the limit", EINVAL, job.n_refs = 262145);
	BAD("op size unknown", EINVAL, job.op_size = 8);
	BAD("op range empty", EINVAL, job.op_begin = 1; job.op_end = 1);
	BAD("op range past the ops", EINVAL, job.op_end = m->n_ops + 1);
	BAD("no tensors", EINVAL, job.n_tensors = 0);
	BAD("tensor count not the plan's", EINVAL,
	    job.n_tensors = m->n_tensors + 1);
	BAD("ops pointer unmapped", EFAULT, job.ops = 8);
	BAD("refs pointer unmapped", EFAULT, job.refs = 8);
	bad_ops[0].n_inputs = 1;
	bad_ops[0].first_ref = m->n_refs;
	BAD("op references past the refs", EINVAL,
	    job.ops = (uintptr_t)bad_ops; job.n_ops = 1);
	bad_ops[1].flags = 0x80;
	BAD("op pad not zero", EINVAL,
	    job.ops = (uintptr_t)&bad_ops[1]; job.n_ops = 1);
	BAD("reference to a tensor out of range", EINVAL,
	    job.refs = (uintptr_t)&bad_ref; job.n_refs = 1);
	BAD("unknown GEM handle", ENOENT, job.plan_handle = 0xffff);
	BAD("unknown plan ID", ENOENT,
	    job.flags |= TA_NPU_SUBMIT_PLAN_ID; job.plan_handle = 0;
	    job.plan_id = 0xfffff);
	BAD("more buffers than the limit", EINVAL,
	    job.n_bos = TA_NPU_MAX_BOS + 1);
	BAD("buffers pointer unmapped", EFAULT, job.n_bos = 1; job.bos = 8);
	bos[0].handle = p.handle;
	bos[0].flags = TA_NPU_BO_READ | TA_NPU_BO_WRITE;
	BAD("buffer both read and written", EINVAL,
	    job.n_bos = 1; job.bos = (uintptr_t)bos);
	bos[0].flags = TA_NPU_BO_READ;
	BAD("the plan's own buffer named as a tensor's", EINVAL,
	    job.n_bos = 1; job.bos = (uintptr_t)bos);
	bos[0].handle = 0xffff;
	BAD("unknown buffer handle", ENOENT,
	    job.n_bos = 1; job.bos = (uintptr_t)bos);
	ret = -drm_prime_import(npu, 1000, &handle);
	report(ret == EBADF, "npu bad input: PRIME import of an fd not open -> %s (got %s)",
	       strerror(EBADF), strerror(ret));
	ret = -drm_prime_import(npu, ta, &handle);
	report(ret == EINVAL, "npu bad input: PRIME import of an fd not a dma-buf -> %s (got %s)",
	       strerror(EINVAL), strerror(ret));
	if (dma_heap) {
		struct dma_heap_allocation_data alloc = {
			.len = 65536, .fd_flags = O_RDWR | O_CLOEXEC,
		};
		int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

		ret = heap >= 0 ? ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &alloc) : -1;
		report(ret == 0, "npu bad input: a system-heap dma-buf to test with");
		if (!ret) {
			/* Refused at import (not contiguous) or at submit. */
			handle = 0;
			ret = -drm_prime_import(npu, alloc.fd, &handle);
			if (!ret) {
				job_init(&job, m, &p, false);
				job.plan_handle = handle;
				ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ?
				      errno : 0;
				drm_gem_close_handle(npu, handle);
			}
			report(ret == EINVAL,
			       "npu bad input: another exporter's dma-buf is no plan -> %s (got %s)",
			       strerror(EINVAL), strerror(ret));
			close(alloc.fd);
		}
		if (heap >= 0)
			close(heap);
	}
	errno = 0;
	ret = ioctl(npu, DRM_IOWR(DRM_COMMAND_BASE + 1, struct drm_ta_npu_submit),
		    &job) ? errno : 0;
	report(ret == EINVAL,
	       "npu bad input: unknown driver ioctl -> EINVAL, as the DRM core answers (got %s)",
	       strerror(ret));
#undef BAD

	test_kapi_access(npu, m, p.create.plan_id);

	report(bytes_in_use(ta) == use,
	       "npu bad input: arena use unchanged by the bad jobs");
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	report(!ret && bad < 0,
	       "npu bad input: the plan still runs bit for bit afterwards");
	plan_destroy(ta, &p);
}

/*
 * The owner destroys the plan while the NPU's user still holds its dma-buf
 * (and mapping): the ID is gone, the memory is not, and jobs on the dma-buf
 * still run bit for bit.
 */
static void test_lifetime(int ta, int npu, struct model *m)
{
	struct ta_plan_destroy d = { 0 };
	struct drm_ta_npu_submit job;
	struct plan p;
	int64_t bad;
	double secs;
	int ret;

	ret = plan_create(ta, m, TA_STRATEGY_AUTO, &p);
	if (ret) {
		report(false, "npu lifetime: plan: %s", strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	d.plan_id = p.create.plan_id;
	report(ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d) == 0,
	       "npu lifetime: the owner destroys the plan while its dma-buf is held");
	job_init(&job, m, &p, true);
	errno = 0;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(ret == ENOENT, "npu lifetime: its ID is gone for the NPU -> ENOENT (got %s)",
	       strerror(ret));
	report(bytes_in_use(ta) >= p.create.height,
	       "npu lifetime: its memory stays while the dma-buf and mapping live");
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	report(!ret && bad < 0,
	       "npu lifetime: a job on the held dma-buf still runs bit for bit");
	p.create.plan_id = 0;	/* already destroyed */
	plan_destroy(ta, &p);
	report(bytes_in_use(ta) == 0,
	       "npu lifetime: the memory returns with the last holder");
}

/*
 * The job's fence (--sync), for a job that names the plan by its GEM handle
 * and for one that names it by ID (the driver makes its own dma-buf of the
 * plan: issue 25, both share the plan's reservation object). An unsignalled
 * vgem fence imported into the plan's exported dma-buf holds the job back:
 * poll() and a sync_file of the dma-buf show it busy, and the NPU has not
 * touched the plan; once vgem signals, both see the job done and the
 * results are bit for bit. Then, with nothing in the way, a reader that
 * waits with poll() right after submit sees only finished results.
 */
static void test_sync(int ta, int npu, struct model *m, bool by_id)
{
	const char *how = by_id ? "npu sync by ID" : "npu sync";
	struct drm_ta_npu_submit job;
	int vgem = -1, sync = -1;
	uint8_t *before = NULL;
	uint32_t fence = 0;
	struct plan p;
	int64_t bad;
	int ret;

	ret = plan_create(ta, m, TA_STRATEGY_AUTO, &p);
	if (ret) {
		report(false, "%s: plan: %s", how, strerror(-ret));
		goto out;
	}
	plan_write_initial(m, &p);
	ret = vgem_hold(p.dmabuf, &vgem, &fence);
	report(!ret,
	       "%s: an unsignalled vgem fence imported into the plan's dma-buf (IMPORT_SYNC_FILE)%s%s",
	       how, ret ? ": " : "", ret ? strerror(-ret) : "");
	before = malloc(p.create.height);
	if (ret || !before)
		goto out;
	memcpy(before, p.map, p.create.height);

	job_init(&job, m, &p, by_id);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(!ret, "%s: the job is queued behind the foreign fence (seqno %llu)%s%s",
	       how, (unsigned long long)job.seqno, ret ? ": " : "",
	       ret ? strerror(ret) : "");
	usleep(300 * 1000);
	report(poll_fd(p.dmabuf, POLLIN, 200) == 0,
	       "%s: poll() on the plan's dma-buf: busy while the job waits", how);
	sync = dmabuf_export_sync_file(p.dmabuf, false);
	report(sync >= 0 && sync_file_status(sync) == 0,
	       "%s: EXPORT_SYNC_FILE of the plan's dma-buf: a sync_file not yet signalled",
	       how);
	report(!memcmp(before, p.map, p.create.height),
	       "%s: the NPU has not touched the plan while the foreign fence holds it",
	       how);
	report(!vgem_fence_signal(vgem, fence), "%s: vgem signals its fence", how);
	report(sync >= 0 && poll_fd(sync, POLLIN, 120 * 1000) == 1 &&
	       sync_file_status(sync) == 1,
	       "%s: the sync_file signals once the job is done", how);
	report(poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	       "%s: poll() on the plan's dma-buf returns once the job is done",
	       how);
	bad = compare_live(m, &p, m->final, m->n_ops);
	report(bad < 0, "%s: what the waiting reader sees is bit for bit the reference",
	       how);

	/* Nothing in the way: poll() right after submit, then read. */
	memset(p.map, 0, p.create.height);
	plan_write_initial(m, &p);
	job_init(&job, m, &p, by_id);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(!ret && poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	       "%s: a reader polls the plan's dma-buf right after submit", how);
	bad = compare_live(m, &p, m->final, m->n_ops);
	report(bad < 0, "%s: and sees only finished results: bit for bit", how);

out:
	free(before);
	if (sync >= 0)
		close(sync);
	if (vgem >= 0)
		close(vgem);
	plan_destroy(ta, &p);
}

/*
 * The NPU's bound per file and its charge (--sync, issue 25): in a memory
 * cgroup of its own, one DRM file queues QUEUE_PER_FILE jobs behind a
 * foreign fence, each holding a megabyte of references; they are charged
 * to the cgroup, the file's next job gets EBUSY while another file's is
 * queued, and once the fence signals every job ends (the first file closed
 * meanwhile) and the charge goes.
 */
#define CG_NPU		CG "/ta-npu-queue"
#define QUEUE_PER_FILE	8	/* TA_NPU_MAX_FILE_QUEUED */
#define QUEUE_REFS	262144U

static int queue_bound_child(int ta, struct model *m)
{
	struct ta_op op = { .first_ref = 0, .n_inputs = QUEUE_REFS - 1,
			    .n_outputs = 1 };
	long long want = QUEUE_PER_FILE * 4LL * QUEUE_REFS, slack;
	long long cur0, cur1, cur2;
	int a = -1, b = -1, vgem = -1, queued = 0, ret;
	uint32_t *refs = NULL, fence = 0, t, in = 0, out = 0, k;
	uint32_t handle_a = 0, handle_b = 0;
	struct drm_ta_npu_submit job;
	struct plan p = { .dmabuf = -1 };

	if (cg_join(CG_NPU)) {
		report(false, "npu queue: join %s", CG_NPU);
		return 1;
	}
	/* the smallest tensor read QUEUE_REFS - 1 times, another written */
	for (t = 0; t < m->n_tensors; t++) {
		if (!m->tensors[t].size)
			continue;
		if (!in || m->tensors[t].size < m->tensors[in - 1].size)
			in = t + 1;
	}
	for (t = 0; t < m->n_tensors && !out; t++)
		if (m->tensors[t].size && t + 1 != in)
			out = t + 1;
	refs = calloc(QUEUE_REFS, sizeof(*refs));
	a = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	b = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	/*
	 * Both files import the plan's dma-buf: their jobs are fenced
	 * through its reservation object, as the foreign fence is.
	 */
	import_npu = -1;
	ret = refs && a >= 0 && b >= 0 && in && out ?
		plan_create(ta, m, TA_STRATEGY_AUTO, &p) : -ENOMEM;
	if (!ret)
		ret = drm_prime_import(a, p.dmabuf, &handle_a);
	if (!ret)
		ret = drm_prime_import(b, p.dmabuf, &handle_b);
	if (!ret)
		ret = vgem_hold(p.dmabuf, &vgem, &fence);
	report(!ret, "npu queue: two files of the NPU, a plan of %s held by a foreign fence%s%s",
	       m->name, ret ? ": " : "", ret ? strerror(-ret) : "");
	if (ret)
		goto out;
	for (k = 0; k < QUEUE_REFS; k++)
		refs[k] = in - 1;
	refs[QUEUE_REFS - 1] = out - 1;
	job_init(&job, m, &p, false);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	job.plan_handle = handle_a;
	job.ops = (uintptr_t)&op;
	job.n_ops = 1;
	job.refs = (uintptr_t)refs;
	job.n_refs = QUEUE_REFS;

	cur0 = cg_read(CG_NPU, "memory.current");
	while (queued < QUEUE_PER_FILE && !ioctl(a, DRM_IOCTL_TA_NPU_SUBMIT, &job))
		queued++;
	cur1 = cg_read(CG_NPU, "memory.current");
	report(queued == QUEUE_PER_FILE,
	       "npu queue: one file queues %d jobs behind the fence (queued %d)",
	       QUEUE_PER_FILE, queued);
	/* the per-CPU charge stock may hide up to slack either way */
	slack = cg_stock_slack();
	report(cur0 >= 0 && cur1 - cur0 >= want - slack,
	       "npu queue: the queued jobs are charged to the submitter's cgroup: memory.current +%lld KiB for %d jobs of %lld KiB of references (stock slack %lld KiB)",
	       (cur1 - cur0) / 1024, queued, want / QUEUE_PER_FILE / 1024,
	       slack / 1024);
	ret = ioctl(a, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(ret == EBUSY, "npu queue: the file's job %d -> EBUSY (got %s)",
	       QUEUE_PER_FILE + 1, ret ? strerror(ret) : "queued");
	queued += !ret;
	job.plan_handle = handle_b;
	ret = ioctl(b, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(!ret, "npu queue: another file still queues its job (%s)",
	       ret ? strerror(ret) : "queued");
	queued += !ret;
	close(a);	/* its jobs keep what they need of it */
	a = -1;
	report(!vgem_fence_signal(vgem, fence), "npu queue: vgem signals its fence");
	report(poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	       "npu queue: all %d jobs end, the first file closed meanwhile",
	       queued);
	cur2 = cg_wait_below(CG_NPU, cur1 - want + slack, 10 * 1000);
	report(cur2 >= 0 && cur1 - cur2 >= want - slack,
	       "npu queue: the jobs' charge goes when they end: memory.current -%lld KiB (%lld KiB charged, stock slack %lld KiB)",
	       (cur1 - cur2) / 1024, want / 1024, slack / 1024);
	job.flags |= TA_NPU_SUBMIT_WAIT;
	ret = ioctl(b, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	report(!ret, "npu queue: with its jobs done, the file runs another (%s)",
	       ret ? strerror(ret) : "done");
	/*
	 * By plan ID each job maps the plan for itself: eight mappings of
	 * the same bytes at once, which DMA-API debugging takes for a leak
	 * unless the exporter says the overlap is safe.
	 */
	job.flags = TA_NPU_SUBMIT_PLAN_ID;
	job.plan_handle = 0;
	job.plan_id = p.create.plan_id;
	for (queued = 0; queued < QUEUE_PER_FILE; queued++) {
		if (queued == QUEUE_PER_FILE - 1)
			job.flags |= TA_NPU_SUBMIT_WAIT;
		ret = ioctl(b, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
		if (ret)
			break;
	}
	report(queued == QUEUE_PER_FILE,
	       "npu queue: %d jobs by plan ID at once, each with its own mapping of the plan, all done (%d; %s)",
	       QUEUE_PER_FILE, queued, ret ? strerror(ret) : "ok");
out:
	if (vgem >= 0)
		close(vgem);
	plan_destroy(ta, &p);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	free(refs);
	return failures;
}

static void test_queue_bound(int ta, struct model *m)
{
	int status, ret = -1;
	pid_t pid;

	if (!cg_memory_make(CG_NPU)) {
		report(false, "npu queue: a memory cgroup of its own (%s)", CG_NPU);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(queue_bound_child(ta, m));
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	rmdir(CG_NPU);
	report(ret == 0, "npu queue: the bound and the charge, in a child (exit %d)",
	       ret);
}

#define STRESS_WORKERS	4
#define STRESS_JOBS	15

/* One stress worker: its own descriptors, plans made, run and destroyed. */
static int stress_worker(struct model *m, unsigned int seed)
{
	int ta = open(TA_DEV, O_RDWR | O_CLOEXEC);
	int npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	int i, bad_runs = 0;

	if (ta < 0 || npu < 0)
		return 100;
	import_npu = npu;
	for (i = 0; i < STRESS_JOBS; i++) {
		uint32_t strategy = strategies[(seed + i) % 5];
		struct plan p;
		int64_t bad = -1;
		double secs;

		if (plan_create(ta, m, strategy, &p) ||
		    run_whole(npu, m, &p, (seed + i) & 1, &bad, &secs) ||
		    bad >= 0)
			bad_runs++;
		plan_destroy(ta, &p);
	}
	close(npu);
	close(ta);
	return bad_runs;
}

/*
 * Several processes plan, run on the NPU (by dma-buf and by ID) and destroy
 * at once: every run stays bit for bit, and everything is given back.
 */
static void test_stress(int ta, struct model *m)
{
	pid_t pids[STRESS_WORKERS];
	int i, status, bad = 0;

	fflush(stdout);
	for (i = 0; i < STRESS_WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(stress_worker(m, i));
	}
	for (i = 0; i < STRESS_WORKERS; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	}
	report(!bad,
	       "npu stress: %d processes x %d plans of %s made, run and destroyed at once, all bit for bit (%d workers failed)",
	       STRESS_WORKERS, STRESS_JOBS, m->name, bad);
	report(bytes_in_use(ta) == 0, "npu stress: every plan's memory returned");
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int ta, npu, i, first = 1, ran = 0;

	for (; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "--steps"))
			o.steps = true;
		else if (!strcmp(argv[first], "--corrupt"))
			o.corrupt = true;
		else if (!strcmp(argv[first], "--plan-id"))
			o.plan_id = true;
		else if (!strcmp(argv[first], "--bad-input"))
			o.bad_input = true;
		else if (!strcmp(argv[first], "--dma-heap"))
			o.dma_heap = true;
		else if (!strcmp(argv[first], "--table"))
			o.table = true;
		else if (!strcmp(argv[first], "--stress"))
			o.stress = true;
		else if (!strcmp(argv[first], "--unreachable"))
			o.unreachable = true;
		else if (!strcmp(argv[first], "--sync"))
			o.sync = true;
		else if (!strcmp(argv[first], "--no-constants"))
			no_constants = true;
		else if (!strcmp(argv[first], "--export-inputs"))
			o.export_inputs = true;
		else if (!strcmp(argv[first], "--long-job"))
			o.long_job = true;
		else {
			fprintf(stderr, "unknown option %s\n", argv[first]);
			return 2;
		}
	}
	ta = open(TA_DEV, O_RDWR | O_CLOEXEC);
	npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	report(ta >= 0 && npu >= 0, "npu: open %s and the %s DRM device",
	       TA_DEV, TA_NPU_DRIVER_NAME);
	if (ta < 0 || npu < 0)
		return 1;
	import_npu = npu;
	for (i = first; i < argc; i++) {
		struct model m = { 0 };

		if (model_load(&m, argv[i])) {
			report(false, "npu: import %s", argv[i]);
			model_free(&m);
			continue;
		}
		ran++;
		if (o.unreachable) {
			test_unreachable(ta, npu, &m);
			model_free(&m);
			continue;
		}
		if (o.bad_input && i == first) {
			test_bad_input(ta, npu, &m, o.dma_heap);
			test_lifetime(ta, npu, &m);
		}
		if (o.stress && i == first)
			test_stress(ta, &m);
		if (o.sync && i == first) {
			test_sync(ta, npu, &m, false);
			test_sync(ta, npu, &m, true);
			test_queue_bound(ta, &m);
		}
		if (o.long_job) {
			test_long_job(ta, npu, &m);
			model_free(&m);
			continue;
		}
		if (o.export_inputs) {
			test_exported_inputs(ta, npu, &m);
			model_free(&m);
			continue;
		}
		test_model(ta, npu, &m, &o);
		model_free(&m);
	}
	/*
	 * Every model given was run, and there was one at least: an empty
	 * list (a glob or a filter that matched nothing) tested nothing.
	 */
	report(ran > 0 && ran == argc - first, "npu: %d of the %d models given ran",
	       ran, argc - first);
	report(bytes_in_use(ta) == 0, "npu: every plan's memory returned");
	close(npu);
	close(ta);
	return failures ? 1 : 0;
}
