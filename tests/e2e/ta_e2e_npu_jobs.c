// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_jobs.c - ta_e2e_npu's tests of jobs beyond one run: a job
 * the watchdog stops (--long-job), exported inputs whose pages no other
 * tensor shares (--export-inputs), the job's fence against a foreign one
 * and the NPU's bound per file with its memory-cgroup charge (--sync), and
 * several processes planning and running at once (--stress).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ta_e2e_cgroup.h"
#include "ta_npu_mix.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_npu.h"

NPU_FIXTURE


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
		CHECK(ret == -ETIMEDOUT,
		      "npu %s: a job of one op reading a %llu-byte tensor %u times is stopped by the watchdog (%s after %.0f s, %llu bytes read)",
		      m->name, (unsigned long long)m->tensors[big].size,
		      n_refs - 1, ret ? strerror(-ret) : "finished", secs,
		      (unsigned long long)job.bytes_read);
	} else {
		CHECK(false, "npu %s: the long job's plan: %s", m->name,
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
		CHECK(false, "npu %s, inputs exported: %s", m->name,
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
		CHECK(!ret && !why,
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
	CHECK(ran == sizeof(strategies) / sizeof(strategies[0]),
	      "npu %s, inputs exported: every strategy ran (%u)", m->name, ran);
	for (k = 0; k < n_in; k++)
		m->tensors[x[k].t].flags &= ~TA_TENSOR_EXPORTABLE;
	free(x);
}


/*
 * The job's fence (--sync), for a job that names the plan by its GEM handle
 * and for one that names it by ID (the driver makes its own dma-buf of the
 * plan, which shares the exported one's reservation object: issue 25). An
 * unsignalled vgem fence imported into the plan's exported dma-buf holds
 * the job back: poll() and a sync_file of the dma-buf
 * show it busy, and the NPU has not touched the plan; once vgem signals,
 * both see the job done and the results are bit for bit. Then, with nothing
 * in the way, a reader that waits with poll() right after submit sees only
 * finished results.
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
		CHECK(false, "%s: plan: %s", how, strerror(-ret));
		goto out;
	}
	plan_write_initial(m, &p);
	ret = vgem_hold(p.dmabuf, &vgem, &fence);
	CHECK(!ret,
	      "%s: an unsignalled vgem fence imported into the plan's dma-buf (IMPORT_SYNC_FILE)%s%s",
	      how,
	      ret ? ": " : "", ret ? strerror(-ret) : "");
	before = malloc(p.create.height);
	if (ret || !before)
		goto out;
	memcpy(before, p.map, p.create.height);

	job_init(&job, m, &p, by_id);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(!ret, "%s: the job is queued behind the foreign fence (seqno %llu)%s%s",
	      how,
	      (unsigned long long)job.seqno, ret ? ": " : "",
	      ret ? strerror(ret) : "");
	usleep(300 * 1000);
	CHECK(poll_fd(p.dmabuf, POLLIN, 200) == 0,
	      "%s: poll() on the plan's dma-buf: busy while the job waits", how);
	sync = dmabuf_export_sync_file(p.dmabuf, false);
	CHECK(sync >= 0 && sync_file_status(sync) == 0,
	      "%s: EXPORT_SYNC_FILE of the plan's dma-buf: a sync_file not yet signalled", how);
	CHECK(!memcmp(before, p.map, p.create.height),
	      "%s: the NPU has not touched the plan while the foreign fence holds it", how);
	CHECK(!vgem_fence_signal(vgem, fence), "%s: vgem signals its fence", how);
	CHECK(sync >= 0 && poll_fd(sync, POLLIN, 120 * 1000) == 1 &&
	      sync_file_status(sync) == 1,
	      "%s: the sync_file signals once the job is done", how);
	CHECK(poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	      "%s: poll() on the plan's dma-buf returns once the job is done", how);
	bad = compare_live(m, &p, m->final, m->n_ops);
	CHECK(bad < 0, "%s: what the waiting reader sees is bit for bit the reference", how);

	/* Nothing in the way: poll() right after submit, then read. */
	memset(p.map, 0, p.create.height);
	plan_write_initial(m, &p);
	job_init(&job, m, &p, by_id);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(!ret && poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	      "%s: a reader polls the plan's dma-buf right after submit", how);
	bad = compare_live(m, &p, m->final, m->n_ops);
	CHECK(bad < 0, "%s: and sees only finished results: bit for bit", how);

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
	int f0 = npu_failed();

	if (cg_join(CG_NPU)) {
		CHECK(false, "npu queue: join %s", CG_NPU);
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
	CHECK(!ret, "npu queue: two files of the NPU, a plan of %s held by a foreign fence%s%s",
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
	CHECK(queued == QUEUE_PER_FILE,
	      "npu queue: one file queues %d jobs behind the fence (queued %d)",
	      QUEUE_PER_FILE, queued);
	/* the per-CPU charge stock may hide up to slack either way */
	slack = cg_stock_slack();
	CHECK(cur0 >= 0 && cur1 - cur0 >= want - slack,
	      "npu queue: the queued jobs are charged to the submitter's cgroup: memory.current +%lld KiB for %d jobs of %lld KiB of references (stock slack %lld KiB)",
	      (cur1 - cur0) / 1024, queued, want / QUEUE_PER_FILE / 1024,
	      slack / 1024);
	ret = ioctl(a, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(ret == EBUSY, "npu queue: the file's job %d -> EBUSY (got %s)",
	      QUEUE_PER_FILE + 1, ret ? strerror(ret) : "queued");
	queued += !ret;
	job.plan_handle = handle_b;
	ret = ioctl(b, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(!ret, "npu queue: another file still queues its job (%s)",
	      ret ? strerror(ret) : "queued");
	queued += !ret;
	close(a);	/* its jobs keep what they need of it */
	a = -1;
	CHECK(!vgem_fence_signal(vgem, fence), "npu queue: vgem signals its fence");
	CHECK(poll_fd(p.dmabuf, POLLIN, 120 * 1000) == 1,
	      "npu queue: all %d jobs end, the first file closed meanwhile",
	      queued);
	cur2 = cg_wait_below(CG_NPU, cur1 - want + slack, 10 * 1000);
	CHECK(cur2 >= 0 && cur1 - cur2 >= want - slack,
	      "npu queue: the jobs' charge goes when they end: memory.current -%lld KiB (%lld KiB charged, stock slack %lld KiB)",
	      (cur1 - cur2) / 1024, want / 1024, slack / 1024);
	job.flags |= TA_NPU_SUBMIT_WAIT;
	ret = ioctl(b, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(!ret, "npu queue: with its jobs done, the file runs another (%s)",
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
	CHECK(queued == QUEUE_PER_FILE,
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
	return npu_failed() - f0;
}

static void test_queue_bound(int ta, struct model *m)
{
	int status, ret = -1;
	pid_t pid;

	if (!cg_memory_make(CG_NPU)) {
		CHECK(false, "npu queue: a memory cgroup of its own (%s)", CG_NPU);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(queue_bound_child(ta, m));
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	rmdir(CG_NPU);
	CHECK(ret == 0, "npu queue: the bound and the charge, in a child (exit %d)",
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
	CHECK(!bad,
	      "npu stress: %d processes x %d plans of %s made, run and destroyed at once, all bit for bit (%d workers failed)",
	      STRESS_WORKERS, STRESS_JOBS, m->name, bad);
	CHECK(bytes_in_use(ta) == 0, "npu stress: every plan's memory returned");
}

/* --long-job: every model given. */
TEST_F(npu, long_job)
{
	int i;

	for (i = 0; i < n_models; i++)
		test_long_job(self->ta, self->npu, &models[i]);
}

/* --export-inputs: every model given. */
TEST_F(npu, exported_inputs)
{
	int i;

	for (i = 0; i < n_models; i++)
		test_exported_inputs(self->ta, self->npu, &models[i]);
}

/* --sync: the first model. */
TEST_F(npu, sync)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_sync(self->ta, self->npu, m, false);
}

TEST_F(npu, sync_by_id)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_sync(self->ta, self->npu, m, true);
}

TEST_F(npu, queue_bound)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_queue_bound(self->ta, m);
}

/* --stress: the first model. */
TEST_F(npu, stress)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_stress(self->ta, m);
}
