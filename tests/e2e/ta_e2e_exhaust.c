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
 * usage: ta_e2e_exhaust
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
#include "ta_e2e_report.h"
#include "ta_e2e_rawnl.h"

#define PARAMS	"/sys/module/tensorarena/parameters/"
#define CG_TA	CG "/ta-exhaust"
#define UID_A	1000
#define UID_B	1001

static gid_t dev_gid;

/* The small graph every end-to-end program plans; one page of arena. */
#include "ta_e2e_graph.h"

/* Lifetime-form plans: @n buffers of @size bytes, all live at once. */
#define BIG_N	16384
/* what one create of the largest request may hold (test_create_peak()) */
#define PEAK_BOUND	(64 << 20)
static struct ta_lifetime big[BIG_N];

static int create_graph(int fd, __u32 *id)
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

static int create_lifetimes(int fd, unsigned int n, __u64 size, __u32 *id)
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

static int write_ll(const char *path, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	return write_str(path, s);
}

static void param_set(const char *name, long long v)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	if (write_ll(path, v))
		printf("# cannot set %s=%lld\n", name, v);
}

static long long param_get(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return read_ll(path, NULL);
}

/* Become @uid (and a member of the device's group), for good. */
static void become(uid_t uid)
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
static int klog_count(const char *what)
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

/*
 * A child that answers through a pipe: fork_child() runs @fn in the child
 * and returns its pid; the child writes its findings (up to 1 KiB) to
 * res[1] and may wait on go[0] before it exits.
 */
struct child {
	pid_t pid;
	int res[2];
	int go[2];
};

static void child_start(struct child *c, void (*fn)(struct child *, void *),
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

static void child_say(struct child *c, const void *buf, size_t n)
{
	if (write(c->res[1], buf, n) != (ssize_t)n)
		_exit(98);
}

static void child_wait_go(struct child *c)
{
	char b;

	if (read(c->go[0], &b, 1) < 0)
		_exit(97);
}

/* Read the child's findings; 0 bytes when it died first. */
static ssize_t child_hear(struct child *c, void *buf, size_t n)
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
static int child_end(struct child *c)
{
	int status = -1;

	close(c->go[1]);
	close(c->res[0]);
	waitpid(c->pid, &status, 0);
	return status;
}

static const char *errname(int err)
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
		report(false, "exhaust: uid %d opens /dev/tensorarena (group %u): %s",
		       UID_A, dev_gid, errname(r.open_err));
		child_end(&a);
		return;
	}
	printf("# uid %d: fd 1 made %d plans then %s; fd 2 %d then %s; fd 3 %s; netlink %s (max_file_plans %lld, max_user_plans %lld)\n",
	       UID_A, r.fd1_made, errname(r.fd1_err), r.fd2_made,
	       errname(r.fd2_err), errname(r.fd3_err), errname(r.nl_err),
	       max_file, max_user);
	report(r.fd1_made == max_file && r.fd1_err == -EDQUOT,
	       "exhaust: one fd holds max_file_plans (%lld) plans, then EDQUOT (made %d, then %s)",
	       max_file, r.fd1_made, errname(r.fd1_err));
	report(r.fd1_made + r.fd2_made == max_user && r.fd2_err == -EDQUOT,
	       "exhaust: uid %d holds max_user_plans (%lld) over two fds, then EDQUOT (made %d, then %s)",
	       UID_A, max_user, r.fd1_made + r.fd2_made, errname(r.fd2_err));
	report(r.fd3_err == -EDQUOT,
	       "exhaust: a fresh fd of the same uid is refused at once: EDQUOT (got %s)",
	       errname(r.fd3_err));
	report(r.nl_err == -EDQUOT,
	       "exhaust: netlink create by the same uid at its limit: EDQUOT (got %s)",
	       errname(r.nl_err));
	report(r.unchanged,
	       "exhaust: refused creates change neither n_plans nor bytes_in_use");

	/* While uid 1000 sits at its limit, uid 1001 is served. */
	child_start(&b, other_user, NULL);
	child_hear(&b, &o, sizeof(o));
	child_end(&b);
	report(!o.ioctl_err && !o.nl_err,
	       "exhaust: uid %d creates plans (ioctl %s, netlink %s) while uid %d is at its limit",
	       UID_B, errname(o.ioctl_err), errname(o.nl_err), UID_A);
	child_end(&a);
	i = info();
	report(i.n_plans == 0 && i.bytes_in_use == 0,
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
	report(r.made == 4 && r.err == -EDQUOT && r.in_use == 65536,
	       "exhaust: max_user_bytes=64K: uid %d holds 4 plans of 16K (%llu bytes), the 5th gets EDQUOT (made %d, then %s)",
	       UID_A, r.in_use, r.made, errname(r.err));
	report(!err, "exhaust: uid %d still gets 16K of the arena meanwhile (%s)",
	       UID_B, errname(err));
}

/* ---- 2. memory cgroup: charged, and memory.max is ENOMEM ------------- */

static bool cgroup_setup(void)
{
	return cg_memory_make(CG_TA);
}

static void cgroup_join(void)
{
	if (cg_join(CG_TA)) {
		perror("cgroup.procs");
		_exit(96);
	}
}

struct memcg_result {
	int made, err;			/* phase 1: plans made (want K) */
	long long cur0, cur1, cur2;	/* memory.current: before, with, after */
	int limit_made, limit_err;	/* phase 2: under memory.max */
	long long limit, cur_at_limit;
	bool unchanged;			/* the refused create changed nothing */
	int after_err;			/* a create once the plans are gone */
};

#define MEMCG_K		16	/* plans of BIG_N zero-byte tensors */

/*
 * In the cgroup as uid 1000: K plans of BIG_N tensors, then, under a
 * memory.max the parent sets (@c->go), plans until the cgroup is full.
 */
static void memcg_worker(struct child *c, void *arg)
{
	struct memcg_result r = { 0 };
	__u32 ids[1024];
	struct ta_info before, after;
	int fd, fd2, k, n = 0;

	(void)arg;
	cgroup_join();
	become(UID_A);
	fd = devopen();
	fd2 = devopen();
	/* Our own pages are in the cgroup before the first reading. */
	memset(big, 0, sizeof(big));
	create_lifetimes(fd, 1, 0, NULL);
	r.cur0 = read_ll(CG_TA "/memory.current", NULL);
	for (k = 0; k < MEMCG_K; k++) {
		r.err = create_lifetimes(fd, BIG_N, 0, &ids[n]);
		if (r.err)
			break;
		n++;
	}
	r.made = n;
	r.cur1 = read_ll(CG_TA "/memory.current", NULL);
	while (n > 0)
		destroy(fd, ids[--n]);
	r.cur2 = read_ll(CG_TA "/memory.current", NULL);
	child_say(c, &r, sizeof(r));

	/* The parent sets memory.max, then lets us go on. */
	child_wait_go(c);
	r.limit = read_ll(CG_TA "/memory.max", NULL);
	for (;;) {
		int use = n < 64 ? fd : fd2;

		if (n >= 128)
			break;
		before = info();
		r.limit_err = create_lifetimes(use, BIG_N, 0, &ids[n]);
		if (r.limit_err) {
			after = info();
			r.unchanged = before.n_plans == after.n_plans &&
				      before.bytes_in_use == after.bytes_in_use;
			break;
		}
		n++;
	}
	r.limit_made = n;
	r.cur_at_limit = read_ll(CG_TA "/memory.current", NULL);
	while (n > 0) {
		n--;
		destroy(n < 64 ? fd : fd2, ids[n]);
	}
	r.after_err = create_lifetimes(fd, BIG_N, 0, NULL);
	child_say(c, &r, sizeof(r));
}

static void test_memcg(void)
{
	long long per_plan = 16LL * BIG_N, oom0, oom1, kills0, kills1;
	struct memcg_result r = { 0 };
	struct child c;
	ssize_t got;
	int status;

	if (!cgroup_setup()) {
		report(false, "exhaust: memory cgroup set up (cgroup2, +memory, %s)",
		       CG_TA);
		return;
	}
	/* A global OOM kill says "Out of memory: Killed", a memcg one
	 * "Memory cgroup out of memory: Killed". */
	oom0 = klog_count("Out of memory: Killed");
	kills0 = read_ll(CG_TA "/memory.events", "oom_kill");
	child_start(&c, memcg_worker, NULL);
	got = child_hear(&c, &r, sizeof(r));
	if (got != sizeof(r)) {
		report(false, "exhaust: memcg worker answered (status 0x%x)",
		       child_end(&c));
		return;
	}
	printf("# memcg: %d plans of %d tensors: memory.current %lld -> %lld (+%lld, %lld per plan; placements 16*%d = %lld); after destroy %lld\n",
	       r.made, BIG_N, r.cur0, r.cur1, r.cur1 - r.cur0,
	       r.made ? (r.cur1 - r.cur0) / r.made : 0, BIG_N, per_plan,
	       r.cur2);
	report(r.made == MEMCG_K && !r.err,
	       "exhaust: uid %d in the cgroup makes %d plans of %d tensors (%s)",
	       UID_A, MEMCG_K, BIG_N, errname(r.err));
	report(r.cur1 - r.cur0 >= MEMCG_K * per_plan * 9 / 10 &&
	       r.cur1 - r.cur0 <= MEMCG_K * per_plan * 2 + (4 << 20),
	       "exhaust: the plans are charged to the creator's cgroup: memory.current +%lld KiB for %d plans (%lld KiB of placements)",
	       (r.cur1 - r.cur0) >> 10, MEMCG_K, (MEMCG_K * per_plan) >> 10);
	report(r.cur1 - r.cur2 >= MEMCG_K * per_plan * 9 / 10,
	       "exhaust: destroying them uncharges the cgroup: memory.current -%lld KiB",
	       (r.cur1 - r.cur2) >> 10);

	/*
	 * Room for 32 more plans' placements; planning one takes several
	 * times that while it runs.
	 */
	write_ll(CG_TA "/memory.max",
		 (r.cur2 + 32 * per_plan + 4095) & ~4095LL);
	close(c.go[1]);
	c.go[1] = open("/dev/null", O_WRONLY);
	got = child_hear(&c, &r, sizeof(r));
	status = child_end(&c);
	oom1 = klog_count("Out of memory: Killed");
	kills1 = read_ll(CG_TA "/memory.events", "oom_kill");
	write_str(CG_TA "/memory.max", "max");
	printf("# memcg: memory.max %lld: %d plans, then %s at memory.current %lld; oom_kill: cgroup %lld -> %lld, machine %lld -> %lld; worker status 0x%x\n",
	       r.limit, r.limit_made, errname(r.limit_err), r.cur_at_limit,
	       kills0, kills1, oom0, oom1, status);
	report(got == sizeof(r) && r.limit_err == -ENOMEM && r.limit_made > 0 &&
	       r.limit_made < 128,
	       "exhaust: at memory.max the creator gets ENOMEM (after %d plans: %s)",
	       r.limit_made, errname(r.limit_err));
	report(got == sizeof(r) && WIFEXITED(status) && kills1 == kills0 &&
	       oom1 == oom0,
	       "exhaust: no OOM kill, in the cgroup or the machine (cgroup %lld, machine %lld, worker status 0x%x)",
	       kills1 - kills0, oom1 - oom0, status);
	report(got == sizeof(r) && r.unchanged,
	       "exhaust: the create refused for memory changed neither n_plans nor bytes_in_use");
	report(got == sizeof(r) && !r.after_err,
	       "exhaust: once its plans are gone the cgroup's user creates again (%s)",
	       errname(r.after_err));
}

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

	a.npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a.npu);
	if (a.npu >= 0)
		len = readlink(link, a.npu_path, sizeof(a.npu_path) - 1);
	a.npu_path[len > 0 ? len : 0] = 0;
	printf("# the %s node: %s\n", TA_NPU_DRIVER_NAME, a.npu_path);
	report(a.npu >= 0 && len > 0 && !stat(a.npu_path, &st),
	       "exhaust: the %s DRM node open (root, handed to the namespaced child)",
	       TA_NPU_DRIVER_NAME);
	/* open to all while uid 1000 opens its own: tensorarena's rule is tested */
	chmod(a.npu_path, 0666);
	child_start(&v, victim_holder, NULL);
	child_hear(&v, &a.victim, sizeof(a.victim));
	report(a.victim != 0, "exhaust: uid %d holds a plan (id %u)", UID_B,
	       a.victim);
	if (a.npu < 0 || !a.victim) {
		if (len > 0)
			chmod(a.npu_path, st.st_mode & 07777);
		child_end(&v);
		return;
	}
	report(npu_run_by_id(a.npu, a.victim) == 0,
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
			report(false, "exhaust: %s: namespaces entered, device opened (%s, %s, status 0x%x)",
			       who, errname(r.enter_err), errname(r.open_err),
			       child_end(&w));
			continue;
		}
		child_end(&w);
		report(r.ns_root && r.cap,
		       "exhaust: %s: uid 0 with CAP_SYS_ADMIN in its namespace (uid0 %d, cap %d)",
		       who, r.ns_root, r.cap);
		report(r.get == -ENOENT && r.destroy == -ENOENT &&
		       r.export == -ENOENT && r.mmap_err == -ENOENT,
		       "exhaust: %s: uid %d's plan is ENOENT to get, destroy, export, mmap (%s %s %s %s)",
		       who, UID_B, errname(r.get), errname(r.destroy),
		       errname(r.export), errname(r.mmap_err));
		report(r.npu_victim == -ENOENT,
		       "exhaust: %s: the NPU driver's kernel-API lookup of uid %d's plan by ID -> ENOENT (got %s)",
		       who, UID_B, errname(r.npu_victim));
		report(r.npu_own == 0,
		       "exhaust: %s: control: its own plan runs on the NPU by ID (%s)",
		       who, errname(r.npu_own));
		report(r.listed == 1,
		       "exhaust: %s: the plan list shows only its own plan (%d listed)",
		       who, r.listed);
		/*
		 * Documented policy (module/ta_access.c): the family exists
		 * only in the initial network namespace.
		 */
		report(r.nl_resolve == -ENOENT,
		       "exhaust: %s: no tensorarena netlink family in the child network namespace (resolve: %s)",
		       who, r.nl_resolve > 0 ? "found it" : errname(r.nl_resolve));
		if (round == 0) {
			long long max_user = param_get("max_user_plans");

			printf("# userns: %d plans of 1024 tensors as uid %d, then %s; memory.current %lld -> %lld\n",
			       r.made, UID_A, errname(r.limit_err), r.cur0, r.cur1);
			report(r.made == max_user && r.limit_err == -EDQUOT,
			       "exhaust: %s: max_user_plans (%lld) still counts uid %d: EDQUOT after %d",
			       who, max_user, UID_A, r.made);
			report(r.cur1 - r.cur0 >= (r.made - 1) * 16LL * 1024 * 9 / 10,
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
	report(r[0] > 0, "exhaust: the family resolves in the initial network namespace (%s)",
	       r[0] > 0 ? "found" : errname(r[0]));
	report(r[1] == -ENOENT,
	       "exhaust: root in unshare -n: no tensorarena netlink family (resolve: %s)",
	       r[1] > 0 ? "found it" : errname(r[1]));
}

/* ---- 2b. what one create holds while it plans, measured -------------- */

/*
 * The largest request the default limits take: max_tensors (65,536)
 * tensors, 65,535 ops and about max_refs (262,144) references; op i reads
 * tensors i, i - 1 and i / 2 and writes i + 1, so lifetimes are long and
 * uneven and the search has work to do.
 */
#define PEAK_T		65536
static struct ta_tensor peak_tensors[PEAK_T];
static struct ta_op peak_ops[PEAK_T - 1];
static __u32 peak_refs[4 * PEAK_T];

static __u32 peak_graph(__u32 n_tensors)
{
	__u32 i, n = 0, in[3], k, j;

	for (i = 0; i < n_tensors; i++)
		peak_tensors[i] = (struct ta_tensor){
			.size = (((i * 2654435761u) >> 7) % 61 + 1) * 256,
			.align = 64,
			.flags = !i ? TA_TENSOR_INPUT :
				 i == n_tensors - 1 ? TA_TENSOR_OUTPUT : 0,
		};
	for (i = 0; i < n_tensors - 1; i++) {
		k = 0;
		in[k++] = i;
		if (i)
			in[k++] = i - 1;
		if (i / 2 != i && (!i || i / 2 != i - 1))
			in[k++] = i / 2;
		peak_ops[i] = (struct ta_op){ .first_ref = n, .n_inputs = k,
					      .n_outputs = 1 };
		for (j = 0; j < k; j++)
			peak_refs[n++] = in[j];
		peak_refs[n++] = i + 1;
	}
	return n;
}

struct peak_result {
	int err;
	long long before, peak;
	unsigned long long height, plan_ns;
};

struct peak_case {
	__u32 strategy, n_tensors;
	const char *name;
};

/* In the fresh cgroup as uid 1000: one dry-run create of the graph. */
static void peak_worker(struct child *c, void *arg)
{
	const struct peak_case *pk = arg;
	struct peak_result r = { 0 };
	struct ta_plan_create pc = {
		.flags = TA_CREATE_DRY_RUN,
		.strategy = pk->strategy,
		.tensors = (uintptr_t)peak_tensors, .n_tensors = pk->n_tensors,
		.tensor_size = sizeof(struct ta_tensor),
		.ops = (uintptr_t)peak_ops, .n_ops = pk->n_tensors - 1,
		.op_size = sizeof(struct ta_op),
		.refs = (uintptr_t)peak_refs,
	};
	int fd;

	cgroup_join();
	become(UID_A);
	fd = devopen();
	/* our own pages are in the cgroup before the first reading */
	pc.n_refs = peak_graph(pk->n_tensors);
	r.before = read_ll(CG_TA "/memory.current", NULL);
	r.err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &pc);
	r.peak = read_ll(CG_TA "/memory.peak", NULL);
	r.height = pc.height;
	r.plan_ns = pc.plan_time_ns;
	child_say(c, &r, sizeof(r));
}

/*
 * What the largest request holds while it plans, charged to the caller's
 * cgroup (memory.peak of a fresh cgroup, less what it held before): the
 * figure Documentation/security.md gives, per create and per uid
 * (max_user_creates of them), with a bound asserted. Every allocation of a
 * create is GFP_KERNEL_ACCOUNT, so this is all of it.
 */
static void test_create_peak(void)
{
	/*
	 * The debug VM plans 65,536 tensors with freelist in seconds; auto and
	 * greedy-size (quadratic, issue 30) past max_plan_ms there, so they
	 * are measured on a quarter of it: what a create takes is linear in
	 * its counts, the search's part capped (TA_SEARCH_MAX_BYTES).
	 */
	static const struct peak_case s[] = {
		{ TA_STRATEGY_FREELIST, PEAK_T, "freelist" },
		{ TA_STRATEGY_AUTO, PEAK_T / 4, "auto" },
		{ TA_STRATEGY_GREEDY_SIZE, PEAK_T / 4, "greedy-size" },
	};
	long long creates = param_get("max_user_creates"), held;
	struct peak_result r;
	struct child c;
	unsigned int i, ran = 0;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		if (!cgroup_setup()) {
			report(false, "exhaust: create peak: a fresh memory cgroup");
			return;
		}
		memset(&r, 0, sizeof(r));
		child_start(&c, peak_worker, (void *)&s[i]);
		if (child_hear(&c, &r, sizeof(r)) != sizeof(r)) {
			report(false, "exhaust: create peak %s: the worker answered (status 0x%x)",
			       s[i].name, child_end(&c));
			continue;
		}
		child_end(&c);
		held = r.peak - r.before;
		printf("bench: create-peak %s tensors %u kib %lld bytes-per-tensor %lld height %llu ms %.0f\n",
		       s[i].name, s[i].n_tensors, held >> 10,
		       held / s[i].n_tensors, r.height, r.plan_ns / 1e6);
		report(!r.err && r.before > 0 && held > 0 &&
		       held <= PEAK_BOUND / (PEAK_T / s[i].n_tensors),
		       "exhaust: create peak %s: %u tensors hold %lld KiB while they are planned, at most %d KiB (%s)",
		       s[i].name, s[i].n_tensors, held >> 10,
		       (PEAK_BOUND / (PEAK_T / s[i].n_tensors)) >> 10,
		       errname(r.err));
		ran++;
	}
	printf("# create peak: max_user_creates %lld\n", creates);
	report(ran == sizeof(s) / sizeof(s[0]), "exhaust: create peak: %u of %zu strategies measured",
	       ran, sizeof(s) / sizeof(s[0]));
}

int main(int argc, char **argv)
{
	long long saved[3];
	struct ta_info i;
	double t0 = now_s();

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: ta_e2e_exhaust\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	dev_gid = (gid_t)param_get("group");
	saved[0] = param_get("max_user_plans");
	saved[1] = param_get("max_file_plans");
	saved[2] = param_get("max_user_bytes");
	printf("# exhaust: device group %u, max_user_plans %lld, max_file_plans %lld, max_user_bytes %lld\n",
	       dev_gid, saved[0], saved[1], saved[2]);

	test_plan_limits();
	test_byte_limit();
	test_memcg();
	test_create_peak();
	test_userns();
	test_netns();

	param_set("max_user_plans", saved[0]);
	param_set("max_file_plans", saved[1]);
	param_set("max_user_bytes", saved[2]);
	rmdir(CG_TA);
	i = info();
	report(i.n_plans == 0 && i.bytes_in_use == 0,
	       "exhaust: nothing left behind (plans %u, bytes %llu)", i.n_plans,
	       (unsigned long long)i.bytes_in_use);
	printf("# exhaust: %.1f s\n", now_s() - t0);
	return failures ? 1 : 0;
}
