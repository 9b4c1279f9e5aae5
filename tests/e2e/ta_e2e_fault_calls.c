// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault_calls.c - ta_e2e_fault's sweep of the calls: one test per
 * call kind (create on both transports and in both forms, get, destroy,
 * export, mmap, the kernel API through the reference NPU driver), each
 * with its own descriptors, netlink socket and fault-injection setup
 * (fixture calls); for N = 1, 2, ... the N-th allocation of the call
 * fails, until the call succeeds without the fault firing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_npu_sim.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_fault.h"
#include "ta_e2e_graph.h"

/* ---- the call kinds ------------------------------------------------- */

struct ctx {
	const struct fault_fds *fd;
	__u32 plan_id;		/* prepared plan, or the one a create made */
	__u64 height;
	int dmabuf;		/* prepared dma-buf, or an exported one */
	void *map;
	struct ta_plan_create create;
	struct nl_msg *msg;
	struct nl_result nl;
	struct ta_placement pl[G_TENSORS];
	struct drm_ta_npu_submit job;
	uint32_t handle;	/* the plan imported into the NPU, or 0 */
};

struct kind {
	const char *name;
	bool netlink;		/* ENOBUFS is an out-of-memory error too */
	bool needs_npu;
	int (*prepare)(struct ctx *c);
	int (*call)(struct ctx *c);
	/* after a success: "" when it did what it does, else what not */
	const char *(*check)(struct ctx *c, const struct snap *pre,
			     const struct snap *post);
	void (*cleanup)(struct ctx *c, int err);
	/*
	 * The injection points the sweep must reach (about a third of what
	 * the 6.1 and 7.2 debug kernels gave), so that a sweep in which
	 * injection never fires fails; 0 for a call that allocates nothing
	 * of its own, where N=1 must not fire.
	 */
	unsigned int min_points;
};

static char why_buf[160];

static const char *check_created(struct ctx *c, const struct snap *pre,
				 const struct snap *post)
{
	if (!c->plan_id || post->n_plans != pre->n_plans + 1 ||
	    !has_id(post, c->plan_id) || post->bytes_in_use <= pre->bytes_in_use) {
		snprintf(why_buf, sizeof(why_buf),
			 "create succeeded (id %u) but n_plans %u -> %u, in use %llu -> %llu",
			 c->plan_id, pre->n_plans, post->n_plans,
			 (unsigned long long)pre->bytes_in_use,
			 (unsigned long long)post->bytes_in_use);
		return why_buf;
	}
	return "";
}

static const char *check_unchanged(struct ctx *c, const struct snap *pre,
				   const struct snap *post)
{
	(void)c;
	return snap_diff(pre, post);
}

static void cleanup_plan(struct ctx *c, int err)
{
	(void)err;
	if (c->plan_id)
		destroy_plan(c->fd->ta, c->plan_id);
}

/* create, ioctl */
static int prep_create_graph(struct ctx *c)
{
	c->create = graph_request(false);
	return 0;
}

static int prep_create_big(struct ctx *c)
{
	c->create = graph_request(true);
	return 0;
}

static int prep_create_life(struct ctx *c)
{
	c->create = lifetime_request();
	return 0;
}

static int call_create(struct ctx *c)
{
	int err = ta_ioctl(c->fd->ta, TA_IOCTL_PLAN_CREATE, &c->create);

	c->plan_id = err ? 0 : c->create.plan_id;
	return err;
}

/* create, netlink */
static int prep_nl_create_graph(struct ctx *c)
{
	c->msg = nl_create_msg(false);
	return 0;
}

static int prep_nl_create_life(struct ctx *c)
{
	c->msg = nl_create_msg(true);
	return 0;
}

/* A do that succeeded is its reply; a failed one is its error (or none). */
static int call_nl(struct ctx *c)
{
	int err = nl_send_raw(c->fd->nl, c->msg);

	c->nl.fd = -1;
	if (err)
		return err;
	nl_collect(c->fd->nl, &c->nl);
	if (c->nl.reply && !c->nl.err)
		return 0;
	return c->nl.err ? c->nl.err : -ENODATA;
}

static int call_nl_create(struct ctx *c)
{
	int err = call_nl(c);

	c->plan_id = c->nl.reply ? c->nl.plan_id : 0;
	return err;
}

static void cleanup_nl(struct ctx *c, int err)
{
	(void)err;
	nlmsg_free(c->msg);
	/* A reply whose error message got lost would still hold a plan. */
	if (c->nl.reply && c->nl.plan_id && !c->plan_id)
		c->plan_id = c->nl.plan_id;
	if (c->nl.fd >= 0)
		close(c->nl.fd);
	cleanup_plan(c, err);
}

/* get */
static int prep_plan(struct ctx *c)
{
	return make_plan(c->fd->ta, &c->plan_id, &c->height);
}

static int call_get(struct ctx *c)
{
	struct ta_plan_get g;
	int err;

	memset(&g, 0, sizeof(g));
	g.plan_id = c->plan_id;
	g.placements = (uintptr_t)c->pl;
	g.n_placements = G_TENSORS;
	g.placement_size = sizeof(c->pl[0]);
	err = ta_ioctl(c->fd->ta, TA_IOCTL_PLAN_GET, &g);
	if (!err && (g.n_placements != G_TENSORS || g.height != c->height))
		return -EPROTO;
	return err;
}

static int prep_nl_get(struct ctx *c)
{
	int err = prep_plan(c);

	c->msg = nl_id_msg(TA_NL_CMD_PLAN_GET, c->plan_id);
	return err;
}

/* destroy */
static int call_destroy(struct ctx *c)
{
	struct ta_plan_destroy d;

	memset(&d, 0, sizeof(d));
	d.plan_id = c->plan_id;
	return ta_ioctl(c->fd->ta, TA_IOCTL_PLAN_DESTROY, &d);
}

static const char *check_destroyed(struct ctx *c, const struct snap *pre,
				   const struct snap *post)
{
	if (post->n_plans + 1 != pre->n_plans || has_id(post, c->plan_id)) {
		snprintf(why_buf, sizeof(why_buf),
			 "destroy succeeded but n_plans %u -> %u", pre->n_plans,
			 post->n_plans);
		return why_buf;
	}
	return "";
}

static void cleanup_destroy(struct ctx *c, int err)
{
	if (err)
		destroy_plan(c->fd->ta, c->plan_id);
}

static int prep_nl_destroy(struct ctx *c)
{
	int err = prep_plan(c);

	c->msg = nl_id_msg(TA_NL_CMD_PLAN_DESTROY, c->plan_id);
	return err;
}

/* A destroy do has no reply: success is the absence of an error. */
static int call_nl_destroy(struct ctx *c)
{
	int err = nl_send_raw(c->fd->nl, c->msg);

	if (err)
		return err;
	nl_collect(c->fd->nl, &c->nl);
	return c->nl.err;
}

static void cleanup_nl_destroy(struct ctx *c, int err)
{
	nlmsg_free(c->msg);
	cleanup_destroy(c, err);
}

/* export */
static int call_export(struct ctx *c)
{
	struct ta_plan_export e;
	int err;

	memset(&e, 0, sizeof(e));
	e.plan_id = c->plan_id;
	e.flags = TA_EXPORT_CLOEXEC;
	err = ta_ioctl(c->fd->ta, TA_IOCTL_PLAN_EXPORT, &e);
	c->dmabuf = err ? -1 : e.fd;
	return err;
}

static const char *check_exported(struct ctx *c, const struct snap *pre,
				  const struct snap *post)
{
	int fd = c->dmabuf >= 0 ? c->dmabuf : c->nl.fd;

	if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
		snprintf(why_buf, sizeof(why_buf),
			 "export succeeded but fd %d is not open", fd);
		return why_buf;
	}
	if (post->n_plans != pre->n_plans || post->bytes_in_use != pre->bytes_in_use) {
		snprintf(why_buf, sizeof(why_buf),
			 "export changed the plans: %s", snap_diff(pre, post));
		return why_buf;
	}
	return "";
}

static void cleanup_export(struct ctx *c, int err)
{
	if (c->dmabuf >= 0)
		close(c->dmabuf);
	cleanup_plan(c, err);
}

static int prep_nl_export(struct ctx *c)
{
	int err = prep_plan(c);

	c->dmabuf = -1;
	c->msg = nl_request(TA_NL_CMD_PLAN_EXPORT);
	nla_put_u32(c->msg, TA_NL_A_PLAN_PLAN_ID, c->plan_id);
	nla_put_u32(c->msg, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return err;
}

/* mmap */
static int call_mmap(struct ctx *c)
{
	c->map = mmap(NULL, c->height, PROT_READ | PROT_WRITE, MAP_SHARED,
		      c->fd->ta, (off_t)c->plan_id * sysconf(_SC_PAGESIZE));
	return c->map == MAP_FAILED ? -errno : 0;
}

static const char *check_mapped(struct ctx *c, const struct snap *pre,
				const struct snap *post)
{
	volatile unsigned char *p = c->map;

	p[0] = 0x5a;
	p[c->height - 1] = 0xa5;
	return snap_diff(pre, post);
}

static void cleanup_mmap(struct ctx *c, int err)
{
	if (!err)
		munmap(c->map, c->height);
	cleanup_plan(c, err);
}

/* the kernel API and PRIME, through the reference NPU driver */
static void job_init(struct drm_ta_npu_submit *job)
{
	memset(job, 0, sizeof(*job));
	job->flags = TA_NPU_SUBMIT_WAIT;
	job->n_tensors = G_TENSORS;
	job->key = 0x7e57a12e4aULL;
	job->ops = (uintptr_t)g_ops;
	job->n_ops = G_OPS;
	job->op_size = sizeof(struct ta_op);
	job->refs = (uintptr_t)g_refs;
	job->n_refs = G_REFS;
}

static int prep_npu_id(struct ctx *c)
{
	int err = prep_plan(c);

	job_init(&c->job);
	c->job.flags |= TA_NPU_SUBMIT_PLAN_ID;
	c->job.plan_id = c->plan_id;
	return err;
}

static int prep_npu_dmabuf(struct ctx *c)
{
	int err = prep_plan(c);

	c->handle = 0;
	if (!err)
		err = call_export(c);
	job_init(&c->job);
	return err;
}

static int call_npu(struct ctx *c)
{
	int err = ioctl(c->fd->npu, DRM_IOCTL_TA_NPU_SUBMIT, &c->job) < 0 ?
		  -errno : 0;

	if (!err && (c->job.bytes_read == 0 || c->job.bytes_written == 0))
		return -EPROTO;
	return err;
}

/* PRIME import of the plan's dma-buf, then a job on the handle. */
static int call_npu_dmabuf(struct ctx *c)
{
	int err = drm_prime_import(c->fd->npu, c->dmabuf, &c->handle);

	if (err)
		return err;
	c->job.plan_handle = c->handle;
	return call_npu(c);
}

static void cleanup_npu_dmabuf(struct ctx *c, int err)
{
	if (c->handle)
		drm_gem_close_handle(c->fd->npu, c->handle);
	c->handle = 0;
	cleanup_export(c, err);
}

/* The call kinds, in the order they are swept. */
enum {
	K_CREATE_IOCTL_GRAPH,
	K_CREATE_IOCTL_LIFETIMES,
	K_CREATE_IOCTL_BIG,
	K_CREATE_NL_GRAPH,
	K_CREATE_NL_LIFETIMES,
	K_GET_IOCTL,
	K_GET_NL,
	K_DESTROY_IOCTL,
	K_DESTROY_NL,
	K_EXPORT_IOCTL,
	K_EXPORT_NL,
	K_MMAP,
	K_NPU_PLAN_ID,
	K_NPU_PRIME,
	N_KINDS
};

static const struct kind kinds[N_KINDS] = {
	[K_CREATE_IOCTL_GRAPH] = { "create ioctl graph", false, false,
		prep_create_graph, call_create, check_created, cleanup_plan,
		.min_points = 50 },
	[K_CREATE_IOCTL_LIFETIMES] = { "create ioctl lifetimes", false, false,
		prep_create_life, call_create, check_created, cleanup_plan,
		.min_points = 15 },
	[K_CREATE_IOCTL_BIG] = {
		"create ioctl graph of 600 tensors (vmalloc-sized arrays)",
		false, false, prep_create_big, call_create, check_created,
		cleanup_plan, .min_points = 20 },
	[K_CREATE_NL_GRAPH] = { "create netlink graph", true, false,
		prep_nl_create_graph, call_nl_create, check_created, cleanup_nl,
		.min_points = 50 },
	[K_CREATE_NL_LIFETIMES] = { "create netlink lifetimes", true, false,
		prep_nl_create_life, call_nl_create, check_created, cleanup_nl,
		.min_points = 20 },
	[K_GET_IOCTL] = { "get ioctl", false, false,
		prep_plan, call_get, check_unchanged, cleanup_plan,
		.min_points = 0 },
	[K_GET_NL] = { "get netlink", true, false,
		prep_nl_get, call_nl, check_unchanged, cleanup_nl,
		.min_points = 4 },
	[K_DESTROY_IOCTL] = { "destroy ioctl", false, false,
		prep_plan, call_destroy, check_destroyed, cleanup_destroy,
		.min_points = 0 },
	[K_DESTROY_NL] = { "destroy netlink", true, false,
		prep_nl_destroy, call_nl_destroy, check_destroyed,
		cleanup_nl_destroy, .min_points = 2 },
	[K_EXPORT_IOCTL] = { "export ioctl", false, false,
		prep_plan, call_export, check_exported, cleanup_export,
		.min_points = 3 },
	[K_EXPORT_NL] = { "export netlink", true, false,
		prep_nl_export, call_nl, check_exported, cleanup_nl,
		.min_points = 7 },
	[K_MMAP] = { "mmap", false, false,
		prep_plan, call_mmap, check_mapped, cleanup_mmap,
		.min_points = 5 },
	[K_NPU_PLAN_ID] = { "kernel API: NPU job by plan ID", false, true,
		prep_npu_id, call_npu, check_unchanged, cleanup_plan,
		.min_points = 10 },
	[K_NPU_PRIME] = { "PRIME import and NPU job on the handle", false, true,
		prep_npu_dmabuf, call_npu_dmabuf, check_unchanged,
		cleanup_npu_dmabuf, .min_points = 9 },
};

struct tally {
	unsigned int points;	/* N at which the fault fired */
	unsigned int failed;	/* ... and the call failed */
	unsigned int survived;	/* ... and the call succeeded anyway */
	double secs;
	bool ran, clean;	/* its test swept it; every N behaved */
};

/* The kinds' sweeps, for fault_calls_summary(). */
static struct tally tallies[N_KINDS];

static bool errno_ok(const struct kind *k, int err)
{
	return err == -ENOMEM || (k->netlink && err == -ENOBUFS);
}

/* Sweep one kind; true when every N behaved. */
static bool sweep(const struct fault_fds *fd, const struct kind *k,
		  struct tally *t)
{
	struct snap base, pre, post, after;
	char why[320] = "", warn[320] = "";
	unsigned int n;
	double t0 = now_s();

	memset(t, 0, sizeof(*t));
	snapshot(fd->ta, &base);
	for (n = 1; n <= MAX_N && !why[0]; n++) {
		struct ctx c;
		const char *d;
		bool fired;
		int err;

		if (n % 250 == 0)
			printf("fault: %s: N=%u, %.0f s\n", k->name, n,
			       now_s() - t0);
		memset(&c, 0, sizeof(c));
		c.fd = fd;
		c.dmabuf = -1;
		c.nl.fd = -1;
		if (k->prepare(&c)) {
			snprintf(why, sizeof(why), "N=%u: setting up failed", n);
			k->cleanup(&c, -1);
			break;
		}
		snapshot(fd->ta, &pre);
		arm(fd->nth, n);
		err = k->call(&c);
		fired = disarm(fd->nth);
		snapshot(fd->ta, &post);

		if (fired) {
			t->points++;
			if (err)
				t->failed++;
			else
				t->survived++;
		}
		if (err && !fired)
			snprintf(why, sizeof(why),
				 "N=%u: failed without an injected fault: %s%s%s",
				 n, strerror(-err), c.nl.extack[0] ? ": " : "",
				 c.nl.extack);
		else if (err && !errno_ok(k, err))
			snprintf(why, sizeof(why),
				 "N=%u: failed with %s (%d)%s%s, not ENOMEM", n,
				 strerror(-err), err, c.nl.extack[0] ? ": " : "",
				 c.nl.extack);
		else if (err && (d = snap_diff(&pre, &post))[0])
			snprintf(why, sizeof(why),
				 "N=%u: failed with %s but changed the state: %s",
				 n, strerror(-err), d);
		else if (!err && (d = k->check(&c, &pre, &post))[0])
			snprintf(why, sizeof(why), "N=%u: %s%s", n, d,
				 fired ? " (the fault fired)" : "");
		k->cleanup(&c, err);
		snapshot(fd->ta, &after);
		if (!why[0] && (d = snap_diff(&base, &after))[0])
			snprintf(why, sizeof(why),
				 "N=%u (%s): not back to the start after clean-up: %s",
				 n, err ? strerror(-err) : "succeeded", d);
		/* A warning is reported, but the sweep goes on. */
		d = kmsg_check();
		if (!warn[0] && d[0])
			snprintf(warn, sizeof(warn), "N=%u (%s): %s", n,
				 err ? strerror(-err) : "succeeded", d);
		if (!err && !fired)
			break;
	}
	if (!why[0] && n > MAX_N)
		snprintf(why, sizeof(why), "still failing at N=%u", MAX_N);
	t->secs = now_s() - t0;
	if (!why[0] && t->points < k->min_points)
		snprintf(why, sizeof(why),
			 "%u injection points, fewer than the %u it must reach (is fault injection working?)",
			 t->points, k->min_points);
	if (!why[0] && !k->min_points && t->points)
		snprintf(why, sizeof(why),
			 "%u injection points in a call that allocates nothing of its own",
			 t->points);
	if (why[0])
		CHECK(false, "fault: %s: %s", k->name, why);
	else if (!k->min_points)
		CHECK(true, "fault: %s: allocates nothing of its own (N=1 did not fire), %.1f s",
		      k->name, t->secs);
	else if (warn[0])
		CHECK(false, "fault: %s: %u points, but %s", k->name,
		      t->points, warn);
	else
		CHECK(true, "fault: %s: %u points (%u failed cleanly, %u absorbed), %.1f s",
		      k->name, t->points, t->failed, t->survived, t->secs);
	return !why[0] && !warn[0];
}

/* ---- the tests -------------------------------------------------------- */

/*
 * The descriptors of a sweep, and injection by fail-nth alone with the
 * console quiet. The socket's owner record is made by its first create
 * and kept until it closes: it is made here, so that every N of the
 * netlink sweeps meets the same allocations.
 */
FIXTURE(calls) {
	struct fault_fds fd;
	bool configured, quiet;
};

FIXTURE_SETUP(calls)
{
	struct ctx c;

	self->fd.ta = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
	self->fd.npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	self->fd.nl = nl_setup();
	self->fd.nth = -1;
	if (self->fd.ta < 0) {
		CHECK(false, "fault: open /dev/tensorarena: %s", strerror(errno));
		SKIP("no /dev/tensorarena");
	}
	if (self->fd.nl < 0) {
		CHECK(false, "fault: netlink socket for the tensorarena family");
		SKIP("no netlink socket");
	}
	prefault();
	memset(&c, 0, sizeof(c));
	c.fd = &self->fd;
	c.nl.fd = -1;
	c.msg = nl_create_msg(true);
	if (call_nl_create(&c))
		CHECK(false, "fault: a netlink create without injection: %s",
		      strerror(-c.nl.err));
	cleanup_nl(&c, 0);
	self->configured = true;
	if (fi_configure(false))
		SKIP("fault injection cannot be configured");
	self->fd.nth = open_fail_nth();
	if (self->fd.nth < 0)
		SKIP("no fail-nth");
	self->quiet = true;
	if (kmsg_begin())
		SKIP("no /dev/kmsg");
}

FIXTURE_TEARDOWN(calls)
{
	if (self->configured)
		fi_configure(true);
	if (self->quiet)
		kmsg_end();
	if (self->fd.nth >= 0)
		close(self->fd.nth);
	if (self->fd.nl >= 0)
		close(self->fd.nl);
	if (self->fd.npu >= 0)
		close(self->fd.npu);
	if (self->fd.ta >= 0)
		close(self->fd.ta);
}

static void sweep_kind(struct ta_fixture_calls *self, unsigned int i)
{
	const struct kind *k = &kinds[i];

	memset(&tallies[i], 0, sizeof(tallies[i]));
	if (k->needs_npu && self->fd.npu < 0)
		CHECK(false, "fault: %s: the %s DRM device: %s", k->name,
		      TA_NPU_DRIVER_NAME, strerror(ENOENT));
	else
		tallies[i].clean = sweep(&self->fd, k, &tallies[i]);
	tallies[i].ran = true;
}

TEST_F(calls, create_ioctl_graph)
{
	sweep_kind(self, K_CREATE_IOCTL_GRAPH);
}

TEST_F(calls, create_ioctl_lifetimes)
{
	sweep_kind(self, K_CREATE_IOCTL_LIFETIMES);
}

TEST_F(calls, create_ioctl_big)
{
	sweep_kind(self, K_CREATE_IOCTL_BIG);
}

TEST_F(calls, create_netlink_graph)
{
	sweep_kind(self, K_CREATE_NL_GRAPH);
}

TEST_F(calls, create_netlink_lifetimes)
{
	sweep_kind(self, K_CREATE_NL_LIFETIMES);
}

TEST_F(calls, get_ioctl)
{
	sweep_kind(self, K_GET_IOCTL);
}

TEST_F(calls, get_netlink)
{
	sweep_kind(self, K_GET_NL);
}

TEST_F(calls, destroy_ioctl)
{
	sweep_kind(self, K_DESTROY_IOCTL);
}

TEST_F(calls, destroy_netlink)
{
	sweep_kind(self, K_DESTROY_NL);
}

TEST_F(calls, export_ioctl)
{
	sweep_kind(self, K_EXPORT_IOCTL);
}

TEST_F(calls, export_netlink)
{
	sweep_kind(self, K_EXPORT_NL);
}

TEST_F(calls, mmap)
{
	sweep_kind(self, K_MMAP);
}

TEST_F(calls, npu_plan_id)
{
	sweep_kind(self, K_NPU_PLAN_ID);
}

TEST_F(calls, npu_prime)
{
	sweep_kind(self, K_NPU_PRIME);
}

/* The sweep as a whole, after the tests (ta_e2e_fault.h). */
bool fault_calls_summary(int failed)
{
	unsigned int i, ran = 0, total = 0, total_failed = 0;
	bool all = !failed;

	if (core_warnings)
		printf("fault-injection sweep: %u allocation-failure warnings of the core kernel (%s)\n",
		       core_warnings, core_sites);
	if (untrack_pfn_warnings)
		printf("fault-injection sweep: the core kernel's untrack_pfn() warned %u time(s) on remap_pfn_range()'s error path (a failed page-table allocation under dma_mmap_coherent()); not printed\n",
		       untrack_pfn_warnings);
	printf("fault-injection sweep: points per call kind (N at which the allocation failed)\n");
	for (i = 0; i < N_KINDS; i++) {
		const struct tally *t = &tallies[i];

		printf("  %-58s %5u  (%u failed, %u absorbed, %.1f s)\n",
		       kinds[i].name, t->points, t->failed, t->survived,
		       t->secs);
		total += t->points;
		total_failed += t->failed;
		ran += t->ran;
		all &= !t->ran || t->clean;
	}
	printf("  %-58s %5u\n", "total", total);
	CHECK(all && ran, "fault: injection sweep: %u points covered over %u call kinds, %u failed calls, each clean",
	      total, ran, total_failed);
	return all && ran;
}
