// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_exhaust.c - issue #9, evidence 3: an unprivileged user (uid 1000,
 * a member of the device's group) exhausts what it may, in a memory-limited
 * cgroup and in a user + network namespace of its own (unshare -Urn), and
 * the machine and the other users do not notice:
 *
 *  - the per-file and per-uid plan limits and the per-uid byte limit
 *    refuse with EDQUOT (ioctl and netlink), and a refused create changes
 *    nothing; uid 1001 creates plans meanwhile;
 *  - the plans' kernel memory is charged to the creator's memory cgroup
 *    (memory.current grows by ~16 bytes per tensor per plan), and
 *    memory.max turns into ENOMEM for the creator, not an OOM kill;
 *  - inside unshare -Urn, root of its own namespace (CAP_SYS_ADMIN there)
 *    is still uid 1000: same quota, no access to uid 1001's plans through
 *    the device or through the reference NPU driver's kernel-API path
 *    (ENOENT), and no tensorarena netlink family in its network namespace.
 *
 * Runs as root in the test VM with tensorarena.ko (group=GID) and
 * ta_npu_sim.ko loaded. One line per check: e2e: ok|not ok - exhaust: ...
 *
 * Tests: plan_limits, byte_limit, memcg, create_peak, userns, netns and
 * left_behind, each with the module's limits saved and restored around it.
 * Prints the harness's plan and lines (tests/e2e/ta_harness.h).
 *
 * usage: ta_e2e_exhaust [-l] [-t NAME]...
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

gid_t dev_gid;

/* The small graph every end-to-end program plans; one page of arena. */
#include "ta_e2e_graph.h"

struct ta_lifetime big[BIG_N];

int create_graph(int fd, __u32 *id)
{
	struct ta_plan_create c = {
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.tensors = (uintptr_t)g_tensors, .n_tensors = G_TENSORS,
		.tensor_size = sizeof(struct ta_tensor),
		.ops = (uintptr_t)g_ops, .n_ops = G_OPS,
		.op_size = sizeof(struct ta_op),
		.refs = (uintptr_t)g_refs,
		.n_refs = sizeof(g_refs) / sizeof(g_refs[0]),
	};
	int err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);

	if (!err && id)
		*id = c.plan_id;
	return err;
}

int create_lifetimes(int fd, unsigned int n, __u64 size, __u32 *id)
{
	struct ta_plan_create c = {
		.flags = TA_CREATE_LIFETIMES,
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.tensors = (uintptr_t)big, .n_tensors = n,
		.tensor_size = sizeof(struct ta_lifetime),
	};
	unsigned int i;
	int err;

	for (i = 0; i < n; i++)
		big[i] = (struct ta_lifetime){ .size = size, .align = 64,
					       .start = 0, .end = 1 };
	err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	if (!err && id)
		*id = c.plan_id;
	return err;
}

int write_ll(const char *path, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	return write_str(path, s);
}

void param_set(const char *name, long long v)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	if (write_ll(path, v))
		printf("# cannot set %s=%lld\n", name, v);
}

long long param_get(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return read_ll(path, NULL);
}

/* Become @uid (and a member of the device's group), for good. */
void become(uid_t uid)
{
	if (setgroups(1, &dev_gid) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("become");
		_exit(99);
	}
	/* Changing credentials made us undumpable: /proc/self root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* How often the kernel log says @what (-1: log unreadable). */
int klog_count(const char *what)
{
	static char buf[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	int count = 0;
	char *p;

	if (n < 0)
		return -1;
	buf[n] = 0;
	for (p = strstr(buf, what); p; p = strstr(p + 1, what))
		count++;
	return count;
}

void child_start(struct child *c, void (*fn)(struct child *, void *),
		 void *arg)
{
	fflush(stdout);
	if (pipe(c->res) || pipe(c->go)) {
		perror("pipe");
		exit(1);
	}
	c->pid = fork();
	if (c->pid == 0) {
		close(c->res[0]);
		close(c->go[1]);
		fn(c, arg);
		fflush(stdout);
		_exit(0);
	}
	close(c->res[1]);
	close(c->go[0]);
}

void child_say(struct child *c, const void *buf, size_t n)
{
	if (write(c->res[1], buf, n) != (ssize_t)n)
		_exit(98);
}

void child_wait_go(struct child *c)
{
	char b;

	if (read(c->go[0], &b, 1) < 0)
		_exit(97);
}

/* Read the child's findings; 0 bytes when it died first. */
ssize_t child_hear(struct child *c, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(c->res[0], (char *)buf + got, n - got);

		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

/* Let it go and reap it; returns the wait status. */
int child_end(struct child *c)
{
	int status = -1;

	close(c->go[1]);
	close(c->res[0]);
	waitpid(c->pid, &status, 0);
	return status;
}

const char *errname(int err)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ % 8];

	switch (-err) {
	case 0: return "0";
	case EDQUOT: return "EDQUOT";
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case ENOSPC: return "ENOSPC";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	}
	snprintf(b, 32, "errno %d", -err);
	return b;
}

bool cgroup_setup(void)
{
	return cg_memory_make(CG_TA);
}

void cgroup_join(void)
{
	if (cg_join(CG_TA)) {
		perror("cgroup.procs");
		_exit(96);
	}
}

static const char *const saved_params[4] = {
	"max_user_plans", "max_file_plans", "max_user_bytes", "max_plan_ms",
};

void exhaust_fixture_setup(long long *saved)
{
	int k;

	dev_gid = (gid_t)param_get("group");
	for (k = 0; k < 4; k++)
		saved[k] = param_get(saved_params[k]);
}

void exhaust_fixture_teardown(const long long *saved)
{
	int k;

	for (k = 0; k < 4; k++)
		param_set(saved_params[k], saved[k]);
	rmdir(CG_TA);
}

EXHAUST_FIXTURE

/* ---- 1. plan and byte limits, both transports, and another uid ------ */

struct limit_result {
	int fd1_made, fd1_err;		/* plans on the first fd, then why not */
	int fd2_made, fd2_err;		/* on the second, until the uid's limit */
	int fd3_err;			/* a third fd: refused at once */
	int nl_err;			/* netlink create at the limit */
	int nl_resolve;			/* family id, or -errno */
	bool unchanged;			/* refused creates changed nothing */
	int open_err;
};

static void limit_holder(struct child *c, void *arg)
{
	struct limit_result r = { 0 };
	struct rawnl_result nr;
	struct ta_info before, after;
	int fd1, fd2, fd3, nl;

	(void)arg;
	become(UID_A);
	fd1 = devopen();
	fd2 = devopen();
	fd3 = devopen();
	if (fd1 < 0 || fd2 < 0 || fd3 < 0) {
		r.open_err = fd1 < 0 ? fd1 : fd2 < 0 ? fd2 : fd3;
		child_say(c, &r, sizeof(r));
		return;
	}
	while (!(r.fd1_err = create_graph(fd1, NULL)) && r.fd1_made < 10000)
		r.fd1_made++;
	while (!(r.fd2_err = create_graph(fd2, NULL)) && r.fd2_made < 10000)
		r.fd2_made++;
	before = info();
	r.fd3_err = create_graph(fd3, NULL);
	nl = rawnl_open();
	r.nl_resolve = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	r.nl_err = r.nl_resolve < 0 ? r.nl_resolve :
		rawnl_create(nl, r.nl_resolve, TA_STRATEGY_GREEDY_SIZE, 4,
			     4096, &nr);
	after = info();
	r.unchanged = before.n_plans == after.n_plans &&
		      before.bytes_in_use == after.bytes_in_use;
	child_say(c, &r, sizeof(r));
	child_wait_go(c);	/* hold the plans until the parent is done */
}

struct other_result {
	int ioctl_err, nl_err;
};

static void other_user(struct child *c, void *arg)
{
	struct other_result r;
	struct rawnl_result nr;
	int fd, nl, fam;

	(void)arg;
	become(UID_B);
	fd = devopen();
	r.ioctl_err = fd < 0 ? fd : create_graph(fd, NULL);
	nl = rawnl_open();
	fam = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	r.nl_err = fam < 0 ? fam :
		rawnl_create(nl, fam, TA_STRATEGY_GREEDY_SIZE, 4, 4096, &nr);
	child_say(c, &r, sizeof(r));
}

static void test_plan_limits(void)
{
	long long max_user = param_get("max_user_plans");
	long long max_file = param_get("max_file_plans");
	struct limit_result r = { 0 };
	struct other_result o = { -1, -1 };
	struct child a, b;
	struct ta_info i;

	child_start(&a, limit_holder, NULL);
	if (child_hear(&a, &r, sizeof(r)) != sizeof(r) || r.open_err) {
		CHECK(false, "exhaust: uid %d opens /dev/tensorarena (group %u): %s",
		      UID_A, dev_gid, errname(r.open_err));
		child_end(&a);
		return;
	}
	printf("# uid %d: fd 1 made %d plans then %s; fd 2 %d then %s; fd 3 %s; netlink %s (max_file_plans %lld, max_user_plans %lld)\n",
	       UID_A, r.fd1_made, errname(r.fd1_err), r.fd2_made,
	       errname(r.fd2_err), errname(r.fd3_err), errname(r.nl_err),
	       max_file, max_user);
	CHECK(r.fd1_made == max_file && r.fd1_err == -EDQUOT,
	      "exhaust: one fd holds max_file_plans (%lld) plans, then EDQUOT (made %d, then %s)",
	      max_file, r.fd1_made, errname(r.fd1_err));
	CHECK(r.fd1_made + r.fd2_made == max_user && r.fd2_err == -EDQUOT,
	      "exhaust: uid %d holds max_user_plans (%lld) over two fds, then EDQUOT (made %d, then %s)",
	      UID_A, max_user, r.fd1_made + r.fd2_made, errname(r.fd2_err));
	CHECK(r.fd3_err == -EDQUOT,
	      "exhaust: a fresh fd of the same uid is refused at once: EDQUOT (got %s)",
	      errname(r.fd3_err));
	CHECK(r.nl_err == -EDQUOT,
	      "exhaust: netlink create by the same uid at its limit: EDQUOT (got %s)",
	      errname(r.nl_err));
	CHECK(r.unchanged,
	      "exhaust: refused creates change neither n_plans nor bytes_in_use");

	/* While uid 1000 sits at its limit, uid 1001 is served. */
	child_start(&b, other_user, NULL);
	child_hear(&b, &o, sizeof(o));
	child_end(&b);
	CHECK(!o.ioctl_err && !o.nl_err,
	      "exhaust: uid %d creates plans (ioctl %s, netlink %s) while uid %d is at its limit",
	      UID_B, errname(o.ioctl_err), errname(o.nl_err), UID_A);
	child_end(&a);
	i = info();
	CHECK(i.n_plans == 0 && i.bytes_in_use == 0,
	      "exhaust: everything back when the holders exit (plans %u, bytes %llu)",
	      i.n_plans, (unsigned long long)i.bytes_in_use);
}

struct bytes_result {
	int made, err, other_err;
	unsigned long long in_use;
};

static void bytes_holder(struct child *c, void *arg)
{
	struct bytes_result r = { 0 };
	int fd;

	(void)arg;
	become(UID_A);
	fd = devopen();
	while (fd >= 0 && !(r.err = create_lifetimes(fd, 1, 16384, NULL)) &&
	       r.made < 1000)
		r.made++;
	r.in_use = info().bytes_in_use;
	child_say(c, &r, sizeof(r));
	child_wait_go(c);
}

static void bytes_other(struct child *c, void *arg)
{
	int fd, err;

	(void)arg;
	become(UID_B);
	fd = devopen();
	err = fd < 0 ? fd : create_lifetimes(fd, 1, 16384, NULL);
	child_say(c, &err, sizeof(err));
}

static void test_byte_limit(void)
{
	struct bytes_result r = { 0, -1, -1, 0 };
	struct child a, b;
	int err = -1;

	param_set("max_user_bytes", 65536);
	child_start(&a, bytes_holder, NULL);
	child_hear(&a, &r, sizeof(r));
	child_start(&b, bytes_other, NULL);
	child_hear(&b, &err, sizeof(err));
	child_end(&b);
	child_end(&a);
	param_set("max_user_bytes", 0);
	CHECK(r.made == 4 && r.err == -EDQUOT && r.in_use == 65536,
	      "exhaust: max_user_bytes=64K: uid %d holds 4 plans of 16K (%llu bytes), the 5th gets EDQUOT (made %d, then %s)",
	      UID_A, r.in_use, r.made, errname(r.err));
	CHECK(!err, "exhaust: uid %d still gets 16K of the arena meanwhile (%s)",
	      UID_B, errname(err));
}

TEST_F(exhaust, plan_limits)
{
	(void)self;
	test_plan_limits();
}

TEST_F(exhaust, byte_limit)
{
	(void)self;
	test_byte_limit();
}

int main(int argc, char **argv)
{
	double t0 = now_s();
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# exhaust: device group %lld, max_user_plans %lld, max_file_plans %lld, max_user_bytes %lld\n",
	       param_get("group"), param_get("max_user_plans"),
	       param_get("max_file_plans"), param_get("max_user_bytes"));
	ret = ta_harness_main(argc - 1, argv + 1);
	printf("# exhaust: %.1f s\n", now_s() - t0);
	return ret ? 1 : 0;
}
