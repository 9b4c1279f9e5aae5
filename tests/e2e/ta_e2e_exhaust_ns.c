// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_exhaust_ns.c - ta_e2e_exhaust's namespace tests: inside unshare
 * -Urn, root of its own namespaces is still uid 1000 (same quota, no access
 * to another uid's plans through the device or the reference NPU's
 * kernel-API path), and a network namespace of its own has no tensorarena
 * netlink family.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/tensorarena.h>

#include "ta_npu_sim.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_dev.h"
#include "ta_e2e_cgroup.h"
#include "ta_e2e_rawnl.h"
#include "ta_e2e_exhaust.h"

/* The small graph every end-to-end program plans; one page of arena. */
#include "ta_e2e_graph.h"

EXHAUST_FIXTURE

/* ---- 3. unshare -Urn: root of its own namespaces, still uid 1000 ----- */

/* unshare(@flags) with a user namespace where @outer is root. */
static int enter_userns(int flags, uid_t outer, gid_t outer_gid)
{
	char map[64];

	if (unshare(CLONE_NEWUSER | flags))
		return -errno;
	snprintf(map, sizeof(map), "0 %u 1", outer);
	if (write_str("/proc/self/uid_map", map))
		return -errno;
	if (write_str("/proc/self/setgroups", "deny") && errno != ENOENT)
		return -errno;
	snprintf(map, sizeof(map), "0 %u 1", outer_gid);
	if (write_str("/proc/self/gid_map", map))
		return -errno;
	return 0;
}

static bool has_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[0].effective & (1u << CAP_SYS_ADMIN);
}

/* A job for the reference NPU on the small graph's plan @id. */
static int npu_run_by_id(int npu, __u32 id)
{
	struct drm_ta_npu_submit job = {
		.flags = TA_NPU_SUBMIT_PLAN_ID | TA_NPU_SUBMIT_WAIT,
		.plan_id = id,
		.n_tensors = G_TENSORS,
		.key = 0x1234,
		.ops = (uintptr_t)g_ops, .n_ops = G_OPS,
		.op_size = sizeof(struct ta_op),
		.refs = (uintptr_t)g_refs,
		.n_refs = sizeof(g_refs) / sizeof(g_refs[0]),
	};

	return xioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job);
}

struct ns_args {
	__u32 victim;		/* uid 1001's plan */
	int npu;		/* the reference NPU's DRM node, opened by root */
	char npu_path[256];	/* its path, for uid 1000 to open its own */
	uid_t outer;		/* who enters the namespace */
};

struct ns_result {
	int enter_err;
	bool ns_root, cap;
	int nl_resolve;		/* in the child netns */
	int open_err;
	int get, destroy, export, mmap_err, npu_victim, npu_own;
	int listed;		/* plans GET_NEXT shows */
	int made, limit_err;	/* creates until the uid's limit */
	long long cur0, cur1;	/* memory.current around them */
};

static void ns_worker(struct child *c, void *arg)
{
	const struct ns_args *a = arg;
	struct ns_result r = { 0 };
	struct ta_plan_get g = { 0 };
	struct ta_plan_export x = { 0 };
	int fd, fd2, nl, npu = a->npu;
	__u32 own = 0;
	void *map;

	if (a->outer != 0) {
		cgroup_join();
		become(a->outer);
		/*
		 * The kernel API acts for the opener of the driver's file: a
		 * node root opened would look for root's plans. uid 1000
		 * opens its own, before it enters the namespace.
		 */
		npu = open(a->npu_path, O_RDWR | O_CLOEXEC);
	}
	r.enter_err = enter_userns(CLONE_NEWNET, a->outer, a->outer);
	if (r.enter_err) {
		child_say(c, &r, sizeof(r));
		return;
	}
	r.ns_root = getuid() == 0 && geteuid() == 0;
	r.cap = has_sys_admin();
	nl = rawnl_open();
	r.nl_resolve = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	fd = devopen();
	fd2 = devopen();
	if (fd < 0 || fd2 < 0) {
		r.open_err = fd < 0 ? fd : fd2;
		child_say(c, &r, sizeof(r));
		return;
	}
	g.plan_id = a->victim;
	r.get = xioctl(fd, TA_IOCTL_PLAN_GET, &g);
	r.destroy = destroy(fd, a->victim);
	x.plan_id = a->victim;
	r.export = xioctl(fd, TA_IOCTL_PLAN_EXPORT, &x);
	if (!r.export)
		close(x.fd);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		   (off_t)a->victim << 12);
	r.mmap_err = map == MAP_FAILED ? -errno : 0;
	if (map != MAP_FAILED)
		munmap(map, 4096);
	r.npu_victim = npu_run_by_id(npu, a->victim);
	r.npu_own = create_graph(fd, &own);
	if (!r.npu_own)
		r.npu_own = npu_run_by_id(npu, own);
	memset(&g, 0, sizeof(g));
	g.flags = TA_GET_NEXT;
	while (!xioctl(fd, TA_IOCTL_PLAN_GET, &g)) {
		r.listed++;
		g.flags = TA_GET_NEXT;
	}
	if (a->outer != 0) {
		/* Its own plans count against uid 1000's limit. */
		r.made = own ? 1 : 0;
		r.cur0 = read_ll(CG_TA "/memory.current", NULL);
		while (r.made < 10000) {
			r.limit_err = r.made < 64 ?
				create_lifetimes(fd, 1024, 0, NULL) :
				create_lifetimes(fd2, 1024, 0, NULL);
			if (r.limit_err)
				break;
			r.made++;
		}
		r.cur1 = read_ll(CG_TA "/memory.current", NULL);
	}
	child_say(c, &r, sizeof(r));
}

static void victim_holder(struct child *c, void *arg)
{
	__u32 id = 0;
	int fd, err;

	(void)arg;
	become(UID_B);
	fd = devopen();
	err = fd < 0 ? fd : create_graph(fd, &id);
	if (err)
		id = 0;
	child_say(c, &id, sizeof(id));
	child_wait_go(c);
}

static void test_userns(void)
{
	struct ns_args a = { 0 };
	struct ns_result r;
	struct child v, w;
	struct stat st = { 0 };
	const char *who;
	ssize_t len = -1;
	char link[64];
	int round;

	/* uid 1000's round runs in a memory cgroup of its own: this test's */
	if (!cgroup_setup()) {
		CHECK(false, "exhaust: userns: a fresh memory cgroup (%s)", CG_TA);
		return;
	}
	a.npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a.npu);
	if (a.npu >= 0)
		len = readlink(link, a.npu_path, sizeof(a.npu_path) - 1);
	a.npu_path[len > 0 ? len : 0] = 0;
	printf("# the %s node: %s\n", TA_NPU_DRIVER_NAME, a.npu_path);
	CHECK(a.npu >= 0 && len > 0 && !stat(a.npu_path, &st),
	      "exhaust: the %s DRM node open (root, handed to the namespaced child)",
	      TA_NPU_DRIVER_NAME);
	/* open to all while uid 1000 opens its own: tensorarena's rule is tested */
	chmod(a.npu_path, 0666);
	child_start(&v, victim_holder, NULL);
	child_hear(&v, &a.victim, sizeof(a.victim));
	CHECK(a.victim != 0, "exhaust: uid %d holds a plan (id %u)", UID_B,
	      a.victim);
	if (a.npu < 0 || !a.victim) {
		if (len > 0)
			chmod(a.npu_path, st.st_mode & 07777);
		child_end(&v);
		return;
	}
	CHECK(npu_run_by_id(a.npu, a.victim) == 0,
	      "exhaust: control: root runs uid %d's plan on the NPU by ID",
	      UID_B);

	/* uid 1000 in unshare -Urn (and the cgroup); root in unshare -Ur. */
	for (round = 0; round < 2; round++) {
		a.outer = round == 0 ? UID_A : 0;
		who = round == 0 ? "uid 1000 as root of unshare -Urn" :
				   "root as root of unshare -Urn (uid_map 0 0 1)";
		memset(&r, 0, sizeof(r));
		child_start(&w, ns_worker, &a);
		if (child_hear(&w, &r, sizeof(r)) != sizeof(r) || r.enter_err ||
		    r.open_err) {
			CHECK(false, "exhaust: %s: namespaces entered, device opened (%s, %s, status 0x%x)",
			      who, errname(r.enter_err), errname(r.open_err),
			      child_end(&w));
			continue;
		}
		child_end(&w);
		CHECK(r.ns_root && r.cap,
		      "exhaust: %s: uid 0 with CAP_SYS_ADMIN in its namespace (uid0 %d, cap %d)",
		      who, r.ns_root, r.cap);
		CHECK(r.get == -ENOENT && r.destroy == -ENOENT &&
		      r.export == -ENOENT && r.mmap_err == -ENOENT,
		      "exhaust: %s: uid %d's plan is ENOENT to get, destroy, export, mmap (%s %s %s %s)",
		      who, UID_B, errname(r.get), errname(r.destroy),
		      errname(r.export), errname(r.mmap_err));
		CHECK(r.npu_victim == -ENOENT,
		      "exhaust: %s: the NPU driver's kernel-API lookup of uid %d's plan by ID -> ENOENT (got %s)",
		      who, UID_B, errname(r.npu_victim));
		CHECK(r.npu_own == 0,
		      "exhaust: %s: control: its own plan runs on the NPU by ID (%s)",
		      who, errname(r.npu_own));
		CHECK(r.listed == 1,
		      "exhaust: %s: the plan list shows only its own plan (%d listed)",
		      who, r.listed);
		/*
		 * Documented policy (module/ta_access.c): the family exists
		 * only in the initial network namespace.
		 */
		CHECK(r.nl_resolve == -ENOENT,
		      "exhaust: %s: no tensorarena netlink family in the child network namespace (resolve: %s)",
		      who, r.nl_resolve > 0 ? "found it" : errname(r.nl_resolve));
		if (round == 0) {
			long long max_user = param_get("max_user_plans");

			printf("# userns: %d plans of 1024 tensors as uid %d, then %s; memory.current %lld -> %lld\n",
			       r.made, UID_A, errname(r.limit_err), r.cur0, r.cur1);
			CHECK(r.made == max_user && r.limit_err == -EDQUOT,
			      "exhaust: %s: max_user_plans (%lld) still counts uid %d: EDQUOT after %d",
			      who, max_user, UID_A, r.made);
			CHECK(r.cur1 - r.cur0 >= (r.made - 1) * 16LL * 1024 * 9 / 10,
			      "exhaust: %s: its plans are charged to its cgroup (+%lld KiB for %d plans of 1024 tensors)",
			      who, (r.cur1 - r.cur0) >> 10, r.made - 1);
		}
	}
	child_end(&v);
	chmod(a.npu_path, st.st_mode & 07777);
	close(a.npu);
}

/* ---- 4. unshare -n as root: the family stays in the initial netns ---- */

static void netns_worker(struct child *c, void *arg)
{
	int r[2], nl;

	(void)arg;
	nl = rawnl_open();
	r[0] = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	if (nl >= 0)
		close(nl);
	if (unshare(CLONE_NEWNET)) {
		r[1] = -errno;
	} else {
		nl = rawnl_open();
		r[1] = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	}
	child_say(c, r, sizeof(r));
}

static void test_netns(void)
{
	int r[2] = { -1, -1 };
	struct child c;

	child_start(&c, netns_worker, NULL);
	child_hear(&c, r, sizeof(r));
	child_end(&c);
	CHECK(r[0] > 0, "exhaust: the family resolves in the initial network namespace (%s)",
	      r[0] > 0 ? "found" : errname(r[0]));
	CHECK(r[1] == -ENOENT,
	      "exhaust: root in unshare -n: no tensorarena netlink family (resolve: %s)",
	      r[1] > 0 ? "found it" : errname(r[1]));
}

TEST_F(exhaust, userns)
{
	(void)self;
	test_userns();
}

TEST_F(exhaust, netns)
{
	(void)self;
	test_netns();
}

/*
 * Last (this file is linked last): whatever the tests did, nothing stays
 * in the arena.
 */
TEST_F(exhaust, left_behind)
{
	struct ta_info i = info();

	(void)self;
	CHECK(i.n_plans == 0 && i.bytes_in_use == 0,
	      "exhaust: nothing left behind (plans %u, bytes %llu)", i.n_plans,
	      (unsigned long long)i.bytes_in_use);
}
