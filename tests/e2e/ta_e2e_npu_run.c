// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_run.c - ta_e2e_npu's machinery, no checks of its own: a
 * model read by libtensorarena's importers and its userspace reference
 * (every tensor in a buffer of its own), a plan made in the module, mapped,
 * exported and imported into the reference NPU, the jobs that run it whole
 * or op by op and the comparisons with the reference, and the test hook's
 * corruptions (--corrupt).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_npu_mix.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_npu.h"

/* The NPU's DRM fd plans are imported in; -1: plan_create() does not. */
int import_npu = -1;


/* The reference: op @i on separate buffers, as the NPU computes it. */
void ref_op(struct model *m, uint8_t **buf, uint32_t i)
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

void ref_reset(struct model *m, uint8_t **buf)
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

void model_free(struct model *m)
{
	free_buffers(m, m->ref);
	free_buffers(m, m->final);
	free(m->tensors);
	free(m->ops);
	ta_input_free(&m->in);
}

/* --no-constants: the models' constant tensors are left out. */
bool no_constants;

int model_load(struct model *m, const char *path)
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

int plan_create(int ta, const struct model *m, uint32_t strategy,
		struct plan *p)
{
	return plan_create_tiered(ta, m, strategy, 0, NULL, p);
}

/*
 * A plan of @m, across the fast tier when @fast_capacity is not 0 (with
 * @tiers, or NULL: the planner chooses every tensor's tier), mapped in
 * both tiers, exported and imported into the NPU; a plan wholly in the
 * fast tier (height 0) is mapped there only, for jobs by plan ID.
 */
int plan_create_tiered(int ta, const struct model *m, uint32_t strategy,
		       uint64_t fast_capacity,
		       const struct ta_tensor_tier *tiers, struct plan *p)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ta_plan_export exp = { 0 };

	memset(p, 0, sizeof(*p));
	p->dmabuf = -1;
	if (fast_capacity) {
		p->create.flags = TA_CREATE_TIERED;
		p->create.fast_capacity = fast_capacity;
		p->create.tiers = (uintptr_t)tiers;
		p->create.tier_size = tiers ? sizeof(*tiers) : 0;
	}
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
	if (p->map_len) {
		p->map = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE,
			      MAP_SHARED, ta, p->create.mmap_offset);
		if (p->map == MAP_FAILED) {
			p->map = NULL;
			return -errno;
		}
	}
	if (p->create.fast_height) {
		p->fast_map_len = (p->create.fast_height + page - 1) / page *
				  page;
		p->fast_map = mmap(NULL, p->fast_map_len,
				   PROT_READ | PROT_WRITE, MAP_SHARED, ta,
				   p->create.fast_mmap_offset);
		if (p->fast_map == MAP_FAILED) {
			p->fast_map = NULL;
			return -errno;
		}
	}
	/* A plan wholly in the fast tier has no arena dma-buf: by ID only. */
	if (!p->map_len)
		return 0;
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

void plan_destroy(int ta, struct plan *p)
{
	struct ta_plan_destroy d = { .plan_id = p->create.plan_id };

	if (p->map)
		munmap(p->map, p->map_len);
	if (p->fast_map)
		munmap(p->fast_map, p->fast_map_len);
	if (p->handle)
		drm_gem_close_handle(p->npu, p->handle);
	if (p->dmabuf >= 0)
		close(p->dmabuf);
	if (p->create.plan_id)
		ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d);
	free(p->place);
	memset(p, 0, sizeof(*p));
}

/* Write the inputs, constants and state through the plan's mappings. */
void plan_write_initial(const struct model *m, struct plan *p)
{
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++) {
		if (is_initial(m, t) && m->tensors[t].size)
			ta_npu_fill_initial(JOB_KEY, t, plan_tensor(p, t),
					    m->tensors[t].size);
	}
}

/* A job on all of @m's ops that the ioctl waits for. */
void job_init(struct drm_ta_npu_submit *job, const struct model *m,
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
int64_t compare_live(const struct model *m, const struct plan *p,
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
		if (memcmp(plan_tensor(p, t), want[t],
			   m->tensors[t].size))
			return t;
	}
	return -1;
}

/* Run all ops as one job; compare what is live at the end. */
int run_whole(int npu, const struct model *m, struct plan *p,
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
int run_steps(int npu, struct model *m, struct plan *p, int64_t *bad,
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

bool pick_corruption(const struct model *m, const struct plan *p,
		     uint32_t *a, uint32_t *b)
{
	return pick_corruption_pass(m, p, true, a, b) ||
	       pick_corruption_pass(m, p, false, a, b);
}

/* Move tensor @a of the plan onto tensor @b through the test hook. */
int corrupt(const struct model *m, struct plan *p, int ta, uint32_t a,
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
bool pick_inplace(const struct model *m, const struct plan *p,
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

uint64_t bytes_in_use(int ta)
{
	struct ta_info info = { 0 };

	if (ioctl(ta, TA_IOCTL_INFO, &info))
		return UINT64_MAX;
	return info.bytes_in_use;
}

/* The NPU's cores (its n_cores parameter); 0 if it cannot be read. */
uint32_t npu_n_cores(void)
{
	FILE *f = fopen("/sys/module/ta_npu_sim/parameters/n_cores", "re");
	unsigned int n = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%u", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* A job by plan ID through @npu; 0 or the errno. */
int submit_by_id(int npu, const struct model *m, uint32_t id)
{
	struct drm_ta_npu_submit job;
	struct plan p = { .create.plan_id = id };

	job_init(&job, m, &p, true);
	return ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
}
