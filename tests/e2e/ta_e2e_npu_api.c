// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_api.c - ta_e2e_npu's tests of the NPU's interface: a device
 * whose DMA mask cannot reach the arena (--unreachable), each bad job
 * refused with its errno and changing nothing, the kernel API's access rule
 * for a plan ID (--bad-input), and a plan destroyed while the NPU's user
 * holds its dma-buf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-heap.h>

#include "ta_e2e_param.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_npu.h"

NPU_FIXTURE


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
		CHECK(false, "npu unreachable: plan: %s", strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	ret = -drm_prime_import(npu, p.dmabuf, &handle);
	CHECK(ret == ERANGE,
	      "npu unreachable: PRIME import by a device whose DMA mask stops below the arena fails at attach -> %s (got %s)",
	      strerror(ERANGE), strerror(ret));
	if (!ret)
		drm_gem_close_handle(npu, handle);
	job_init(&job, m, &p, true);
	errno = 0;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(ret == ERANGE,
	      "npu unreachable: a job naming the plan by ID fails the same way -> %s (got %s)",
	      strerror(ERANGE), strerror(ret));
	plan_destroy(ta, &p);
}


#define KAPI_USER	1000
#define KAPI_CASES	7

/*
 * uid KAPI_USER's side of test_kapi_access(), in a child that keeps saved
 * uid 0 to switch its effective uid and group between the cases. Checks;
 * returns how many of its checks failed, 100 when it could not set up.
 */
static int kapi_access_child(const char *node, const struct model *m,
			     uint32_t root_plan, gid_t group)
{
	int ta, npu_in = -1, npu_ro = -1, npu_out = -1, ret, cases = 0;
	int f0 = npu_failed();
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
	CHECK(!ret && bad < 0,
	      "npu kernel API: uid %d in the device's group runs its own plan by ID through its own render file, bit for bit (%s)",
	      KAPI_USER, strerror(ret < 0 ? -ret : ret));
	cases++;
	ret = submit_by_id(npu_in, m, root_plan);
	CHECK(ret == ENOENT,
	      "npu kernel API: uid %d runs root's plan by ID -> ENOENT (got %s)",
	      KAPI_USER, strerror(ret));
	cases++;

	/* A render file not open for writing: as a read-only descriptor. */
	npu_ro = open(node, O_RDONLY | O_CLOEXEC);
	ret = npu_ro < 0 ? -1 : submit_by_id(npu_ro, m, mine.create.plan_id);
	CHECK(ret == EBADF,
	      "npu kernel API: its own plan by ID through a read-only render file -> EBADF (got %s)",
	      strerror(ret));
	cases++;

	/* The same uid outside the group: as open() of the device would. */
	if (seteuid(0) || setegid(group + 1) || seteuid(KAPI_USER))
		return 100;
	npu_out = open(node, O_RDWR | O_CLOEXEC);
	ret = npu_out < 0 ? -1 : submit_by_id(npu_out, m, mine.create.plan_id);
	CHECK(ret == EACCES,
	      "npu kernel API: the same uid outside the device's group runs its plan by ID -> EACCES (got %s)",
	      strerror(ret));
	cases++;
	/* A dma-buf is a capability: whoever holds it may run the plan. */
	mine.npu = npu_out;
	ret = npu_out < 0 ? -EBADF : drm_prime_import(npu_out, mine.dmabuf,
						      &mine.handle);
	ret = ret ? ret : run_whole(npu_out, m, &mine, false, &bad, &secs);
	CHECK(!ret && bad < 0,
	      "npu kernel API: ... but runs it through the plan's dma-buf, bit for bit (%s)",
	      strerror(-ret));
	cases++;

	/* Root acting on files others opened gains nothing (the deputy). */
	if (seteuid(0))
		return 100;
	ret = submit_by_id(npu_out, m, mine.create.plan_id);
	CHECK(ret == EACCES,
	      "npu kernel API: root submitting through a render file opened outside the group -> EACCES (got %s)",
	      strerror(ret));
	cases++;
	ret = submit_by_id(npu_in, m, root_plan);
	CHECK(ret == ENOENT,
	      "npu kernel API: root submitting its own plan through uid %d's render file -> ENOENT (got %s)",
	      KAPI_USER, strerror(ret));
	cases++;

	CHECK(cases == KAPI_CASES, "npu kernel API: %d of %d cases ran",
	      cases, KAPI_CASES);
	plan_destroy(ta, &mine);
	close(npu_out);
	close(npu_ro);
	close(npu_in);
	close(ta);
	return npu_failed() - f0;
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
		CHECK(false, "npu kernel API: the render node and the device's group (group %lld)",
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
	CHECK(ret == 0, "npu kernel API: uid %d's checks (%s, group %lld) passed (exit %d)",
	      KAPI_USER, node, group, ret);
}

/*
 * DRM_IOCTL_TA_NPU_JOB_INFO: a finished job of the caller's file is told
 * (its core, no error, start before end, its hold kept); each bad query
 * fails with its errno, and a job of another DRM file is not found.
 */
static void test_job_info(int npu, const struct model *m,
			  const struct plan *p)
{
	enum { MINE, THEIRS, NONE, NEVER };
	static const struct {
		const char *what;
		int job;		/* whose sequence number is asked */
		uint32_t flags, pad;
		uint64_t reserved;
		bool ours;		/* through this file, else the other */
		int want;
	} cases[] = {
		{ "flags not zero", MINE, 1, 0, 0, true, EINVAL },
		{ "pad not zero", MINE, 0, 1, 0, true, EINVAL },
		{ "reserved not zero", MINE, 0, 0, 1, true, EINVAL },
		{ "sequence number 0", NONE, 0, 0, 0, true, EINVAL },
		{ "a sequence number never given", NEVER, 0, 0, 0, true, ENOENT },
		{ "another file's job", THEIRS, 0, 0, 0, true, ENOENT },
		{ "that job, through its own file", THEIRS, 0, 0, 0, false, 0 },
	};
	const int n_cases = sizeof(cases) / sizeof(cases[0]);
	uint64_t seqnos[] = { [NONE] = 0, [NEVER] = UINT64_MAX };
	struct drm_ta_npu_job_info info;
	struct drm_ta_npu_submit job;
	uint32_t n_cores = npu_n_cores(), handle = 0;
	int other, ret, i, n = 0;

	/* One job on the last core, held 20 ms; then one of another file. */
	job_init(&job, m, p, false);
	job.flags |= TA_NPU_SUBMIT_CORE;
	job.core = n_cores ? n_cores - 1 : 0;
	job.hold_ms = 20;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	seqnos[MINE] = job.seqno;
	memset(&info, 0, sizeof(info));
	info.seqno = job.seqno;
	if (!ret)
		ret = ioctl(npu, DRM_IOCTL_TA_NPU_JOB_INFO, &info) ? errno : 0;
	CHECK(!ret && n_cores && info.core == n_cores - 1 && !info.error &&
	      info.start_ns && info.end_ns - info.start_ns >= 20000000ULL,
	      "npu job info: a finished job of this file: core %u of %u, error %d, %llu us from start to end (held 20 ms) (%s)",
	      info.core, n_cores, info.error,
	      (unsigned long long)(info.end_ns - info.start_ns) / 1000,
	      ret ? strerror(ret) : "told");
	other = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	ret = other >= 0 ? drm_prime_import(other, p->dmabuf, &handle) : -ENODEV;
	if (!ret) {
		job_init(&job, m, p, false);
		job.plan_handle = handle;
		ret = ioctl(other, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? -errno : 0;
		seqnos[THEIRS] = job.seqno;
	}
	CHECK(!ret && seqnos[THEIRS],
	      "npu job info: a job through another DRM file (%s)",
	      ret ? strerror(-ret) : "done");

	for (i = 0; i < n_cases; i++) {
		memset(&info, 0, sizeof(info));
		info.seqno = seqnos[cases[i].job];
		info.flags = cases[i].flags;
		info.pad = cases[i].pad;
		info.reserved = cases[i].reserved;
		errno = 0;
		ret = ioctl(cases[i].ours ? npu : other,
			    DRM_IOCTL_TA_NPU_JOB_INFO, &info) ? errno : 0;
		CHECK(ret == cases[i].want, "npu job info: %s -> %s (got %s)",
		      cases[i].what,
		      cases[i].want ? strerror(cases[i].want) : "told",
		      ret ? strerror(ret) : "told");
		n++;
	}
	CHECK(n == n_cases && n_cases == 7, "npu job info: %d of 7 queries made",
	      n);
	if (handle)
		drm_gem_close_handle(other, handle);
	if (other >= 0)
		close(other);
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
		CHECK(false, "npu bad input: plan: %s", strerror(-ret));
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
		CHECK(ret == (want), "npu bad input: %s -> %s (got %s)", \
		      what, strerror(want), strerror(ret));            \
	} while (0)

	BAD("unknown flag", EINVAL, job.flags |= 0x80);
	BAD("reserved not zero", EINVAL, job.reserved = 1);
	BAD("a core named, one past the accelerator's", EINVAL,
	    job.flags |= TA_NPU_SUBMIT_CORE; job.core = npu_n_cores());
	BAD("a core named, past the most cores there can be", EINVAL,
	    job.flags |= TA_NPU_SUBMIT_CORE; job.core = TA_NPU_MAX_CORES);
	BAD("a core given without TA_NPU_SUBMIT_CORE", EINVAL, job.core = 1);
	BAD("a hold over the limit", EINVAL,
	    job.hold_ms = TA_NPU_MAX_HOLD_MS + 1);
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
	CHECK(ret == EBADF, "npu bad input: PRIME import of an fd not open -> %s (got %s)",
	      strerror(EBADF), strerror(ret));
	ret = -drm_prime_import(npu, ta, &handle);
	CHECK(ret == EINVAL, "npu bad input: PRIME import of an fd not a dma-buf -> %s (got %s)",
	      strerror(EINVAL), strerror(ret));
	if (dma_heap) {
		struct dma_heap_allocation_data alloc = {
			.len = 65536, .fd_flags = O_RDWR | O_CLOEXEC,
		};
		int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

		ret = heap >= 0 ? ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &alloc) : -1;
		CHECK(ret == 0, "npu bad input: a system-heap dma-buf to test with");
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
			CHECK(ret == EINVAL,
			      "npu bad input: another exporter's dma-buf is no plan -> %s (got %s)",
			      strerror(EINVAL), strerror(ret));
			close(alloc.fd);
		}
		if (heap >= 0)
			close(heap);
	}
	errno = 0;
	ret = ioctl(npu, DRM_IOWR(DRM_COMMAND_BASE + 2, struct drm_ta_npu_submit),
		    &job) ? errno : 0;
	CHECK(ret == EINVAL,
	      "npu bad input: unknown driver ioctl -> EINVAL, as the DRM core answers (got %s)",
	      strerror(ret));
#undef BAD

	test_job_info(npu, m, &p);
	test_kapi_access(npu, m, p.create.plan_id);

	CHECK(bytes_in_use(ta) == use,
	      "npu bad input: arena use unchanged by the bad jobs");
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	CHECK(!ret && bad < 0,
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
		CHECK(false, "npu lifetime: plan: %s", strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	d.plan_id = p.create.plan_id;
	CHECK(ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d) == 0,
	      "npu lifetime: the owner destroys the plan while its dma-buf is held");
	job_init(&job, m, &p, true);
	errno = 0;
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	CHECK(ret == ENOENT, "npu lifetime: its ID is gone for the NPU -> ENOENT (got %s)",
	      strerror(ret));
	CHECK(bytes_in_use(ta) >= p.create.height,
	      "npu lifetime: its memory stays while the dma-buf and mapping live");
	ret = run_whole(npu, m, &p, false, &bad, &secs);
	CHECK(!ret && bad < 0,
	      "npu lifetime: a job on the held dma-buf still runs bit for bit");
	p.create.plan_id = 0;	/* already destroyed */
	plan_destroy(ta, &p);
	CHECK(bytes_in_use(ta) == 0,
	      "npu lifetime: the memory returns with the last holder");
}

/* --unreachable: every model given. */
TEST_F(npu, unreachable)
{
	int i;

	for (i = 0; i < n_models; i++)
		test_unreachable(self->ta, self->npu, &models[i]);
}

/* --bad-input: the first model. */
TEST_F(npu, bad_input)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_bad_input(self->ta, self->npu, m, opts.dma_heap);
}

TEST_F(npu, lifetime)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_lifetime(self->ta, self->npu, m);
}
