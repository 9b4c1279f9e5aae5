// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_dmem.c - the arena in the dmem cgroup controller (6.14 and later,
 * CONFIG_CGROUP_DMEM), issue #24, evidence 3:
 *
 *  - dmem.capacity lists the arena's region, "tensorarena/<device>", with
 *    the arena's size;
 *  - a cgroup whose dmem.max is below two plans' slices creates one and is
 *    refused the second with EDQUOT, through the ioctl and through netlink
 *    (with an extack message naming dmem.max), arena and plan count
 *    unchanged; its sibling still creates;
 *  - dmem.current returns to 0 after destroy, after close and after SIGKILL
 *    of the owner, and stays charged while a dma-buf or a mapping of the
 *    plan is held, until that is gone too.
 *
 * Runs as root in the test VM with tensorarena.ko loaded (no plan held).
 * Charges go to the cgroup of the task that creates, so this program moves
 * itself between the cgroups it makes. The "cg" fixture makes the two
 * cgroups and sets dmem.max before each test, and removes them after; the
 * first test reports those steps as checks. One line per check:
 * e2e: ok|not ok - dmem: ..., a plan and a line per test (ta_harness.h).
 * Before 6.14 there is no controller: the tests skip (vm-tests.sh checks
 * the absence itself and does not run this program there); from 6.14 a
 * missing controller fails.
 *
 * usage: ta_e2e_dmem [-l] [-t TEST]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/tensorarena.h>

#include "ta_harness.h"
#include "ta_e2e_dev.h"
#include "ta_e2e_rawnl.h"

#define CG_A	CG "/ta-dmem-a"
#define CG_B	CG "/ta-dmem-b"
/* One plan: one buffer of SLICE bytes, a whole number of pages. */
#define SLICE	65536ULL

static char region[128];

static int create(int fd, __u32 *id)
{
	struct ta_lifetime b = { .size = SLICE, .align = 64, .start = 0, .end = 1 };
	struct ta_plan_create c = {
		.flags = TA_CREATE_LIFETIMES,
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.tensors = (uintptr_t)&b, .n_tensors = 1,
		.tensor_size = sizeof(b),
	};
	int err = xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);

	if (!err && id)
		*id = c.plan_id;
	return err;
}

/*
 * The value of the arena's region in a dmem file of @cg ("current",
 * "max", or the root's "capacity"): its line "REGION VALUE"; -1 if none.
 */
static long long dmem_value(const char *cg, const char *file)
{
	char path[256], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dmem.%s", cg, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(region);

		if (!strncmp(line, region, n) && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 0);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Move the calling task into @cg. */
static int enter(const char *cg)
{
	char path[256], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d\n", getpid());
	return write_str(path, pid);
}

static const char *errname(int err)
{
	switch (-err) {
	case 0: return "0";
	case EDQUOT: return "EDQUOT";
	case ENOSPC: return "ENOSPC";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	default: return strerror(-err);
	}
}

/* The region's name from dmem.capacity: the line starting "tensorarena/". */
static bool find_region(long long *size)
{
	char line[256];
	FILE *f = fopen(CG "/dmem.capacity", "r");

	*size = -1;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');

		if (strncmp(line, "tensorarena/", 12) || !sp)
			continue;
		snprintf(region, sizeof(region), "%.*s", (int)(sp - line), line);
		*size = strtoll(sp + 1, NULL, 0);
	}
	fclose(f);
	return region[0];
}

/* A check of the cgroups' setup: reported when @verbose, or when it fails. */
#define SETUP_CHECK(verbose, ok, ...)					\
	do {								\
		bool ok_ = (ok);					\
									\
		if ((verbose) || !ok_)					\
			CHECK(ok_, __VA_ARGS__);			\
		if (!ok_)						\
			return false;					\
	} while (0)

/*
 * cgroup2 mounted, the arena's region in dmem.capacity, the controller
 * enabled below the root, the two siblings made, CG_A's dmem.max at 1.5
 * slices: false (after a failed check) if not.
 */
static bool cg_setup(bool verbose)
{
	char max[192];
	long long size;
	struct ta_info i = info();
	bool found;

	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL)) {
		CHECK(false, "dmem: cgroup2 mounted (%s)", strerror(errno));
		return false;
	}
	found = find_region(&size);
	SETUP_CHECK(verbose, found && size == (long long)i.arena_size,
		    "dmem: dmem.capacity lists the arena's region '%s' with its %llu bytes (%lld)",
		    region, (unsigned long long)i.arena_size, size);
	SETUP_CHECK(verbose, !write_str(CG "/cgroup.subtree_control", "+dmem"),
		    "dmem: the controller is enabled below the root cgroup");
	rmdir(CG_A);
	rmdir(CG_B);
	SETUP_CHECK(verbose, !mkdir(CG_A, 0755) && !mkdir(CG_B, 0755),
		    "dmem: two sibling cgroups made");
	/* Below two slices: one fits, a second does not. */
	snprintf(max, sizeof(max), "%s %llu\n", region, SLICE * 3 / 2);
	SETUP_CHECK(verbose, !write_str(CG_A "/dmem.max", max) &&
		    dmem_value(CG_A, "max") == (long long)(SLICE * 3 / 2),
		    "dmem: %s's dmem.max is 1.5 slices (%llu bytes)", CG_A,
		    SLICE * 3 / 2);
	return true;
}

/* Back in the root cgroup, the two siblings removed. */
static void cg_teardown(bool verbose)
{
	bool ok;

	enter(CG);
	if (access(CG_A, F_OK) && access(CG_B, F_OK))
		return;	/* a setup that failed before mkdir */
	ok = !rmdir(CG_A) && !rmdir(CG_B);
	if (verbose || !ok)
		CHECK(ok, "dmem: the cgroups are removed");
}

/* The dmem controller is there (cgroup2 mounted first if need be). */
static bool dmem_there(void)
{
	char line[512] = "";
	FILE *f;

	if (access(CG "/cgroup.controllers", F_OK))
		mount("none", CG, "cgroup2", 0, NULL);
	f = fopen(CG "/cgroup.controllers", "r");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	return strstr(line, "dmem") != NULL;
}

/* The kernel is 6.14 or later: the dmem controller must be there. */
static bool kernel_has_dmem(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return true;
	return major > 6 || (major == 6 && minor >= 14);
}

/* The cgroups' setup and removal, reported. */
TEST(cgroups)
{
	if (!dmem_there())
		SKIP("no dmem controller");
	if (cg_setup(true))
		cg_teardown(true);
	else
		enter(CG);
}

/* The cgroups made for a test, a descriptor of the device. */
FIXTURE(cg) {
	int fd;
};

FIXTURE_SETUP(cg)
{
	self->fd = -1;
	if (!dmem_there())
		SKIP("no dmem controller");
	if (!cg_setup(false))
		SKIP("the cgroups could not be set up");
	self->fd = devopen();
	if (self->fd < 0) {
		CHECK(false, "dmem: open /dev/" TA_DEVICE_NAME " (%s)",
		      strerror(-self->fd));
		SKIP("no /dev/" TA_DEVICE_NAME);
	}
}

FIXTURE_TEARDOWN(cg)
{
	if (self->fd >= 0)
		close(self->fd);
	cg_teardown(false);
}

/* Over dmem.max: EDQUOT through both transports, and nothing changed. */
TEST_F(cg, limit)
{
	struct ta_info before, after;
	struct rawnl_result nr;
	__u32 id1 = 0, id2 = 0, idb = 0;
	int fd = self->fd, fdb = devopen(), err, nl, fam;

	enter(CG_A);
	err = create(fd, &id1);
	CHECK(!err && dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: a plan in %s: its slice is charged (create %s, dmem.current %lld)",
	      CG_A, errname(err), dmem_value(CG_A, "current"));
	before = info();
	err = create(fd, &id2);
	after = info();
	CHECK(err == -EDQUOT, "dmem: a second plan over dmem.max: EDQUOT (got %s)",
	      errname(err));
	CHECK(after.n_plans == before.n_plans &&
	      after.bytes_in_use == before.bytes_in_use &&
	      dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: the refused create changed nothing (plans %u -> %u, in use %llu -> %llu, dmem.current %lld)",
	      before.n_plans, after.n_plans,
	      (unsigned long long)before.bytes_in_use,
	      (unsigned long long)after.bytes_in_use,
	      dmem_value(CG_A, "current"));
	nl = rawnl_open();
	fam = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	err = fam < 0 ? fam : rawnl_create(nl, fam, TA_STRATEGY_GREEDY_SIZE, 1,
					   SLICE, &nr);
	CHECK(err == -EDQUOT && strstr(nr.msg, "dmem.max"),
	      "dmem: over dmem.max through netlink: EDQUOT, extack '%s' (got %s)",
	      fam < 0 ? "" : nr.msg, errname(err));
	if (nl >= 0)
		close(nl);
	CHECK(info().n_plans == before.n_plans,
	      "dmem: the refused netlink create changed nothing (plans %u)",
	      info().n_plans);

	enter(CG_B);
	err = create(fdb, &idb);
	CHECK(!err && dmem_value(CG_B, "current") == (long long)SLICE &&
	      dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: the sibling %s still creates (%s), charged to itself (%lld; %s stays at %lld)",
	      CG_B, errname(err), dmem_value(CG_B, "current"), CG_A,
	      dmem_value(CG_A, "current"));
	enter(CG);

	err = destroy(fd, id1);
	CHECK(!err && dmem_value(CG_A, "current") == 0,
	      "dmem: after destroy, %s's dmem.current is 0 (%lld)", CG_A,
	      dmem_value(CG_A, "current"));
	close(fdb);
	CHECK(dmem_value(CG_B, "current") == 0,
	      "dmem: after close, %s's dmem.current is 0 (%lld)", CG_B,
	      dmem_value(CG_B, "current"));
}

/* A dma-buf and a mapping keep the slice, and its charge, alive. */
TEST_F(cg, hold)
{
	struct ta_plan_export e = { 0 };
	int fd = self->fd, err;
	__u32 id = 0;
	void *map;

	enter(CG_A);
	err = create(fd, &id);
	enter(CG);
	e.plan_id = id;
	err = err ? err : xioctl(fd, TA_IOCTL_PLAN_EXPORT, &e);
	map = mmap(NULL, SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)id * sysconf(_SC_PAGESIZE));
	CHECK(!err && map != MAP_FAILED,
	      "dmem: a plan exported as a dma-buf and mapped (%s)", errname(err));
	destroy(fd, id);
	close(fd);
	self->fd = -1;
	CHECK(dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: destroyed and closed, the plan's dma-buf and mapping keep it charged (%lld)",
	      dmem_value(CG_A, "current"));
	if (map != MAP_FAILED)
		munmap(map, SLICE);
	CHECK(dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: the mapping gone, the dma-buf still keeps it charged (%lld)",
	      dmem_value(CG_A, "current"));
	if (e.fd > 0)
		close(e.fd);
	CHECK(dmem_value(CG_A, "current") == 0,
	      "dmem: the dma-buf gone, dmem.current is 0 (%lld)",
	      dmem_value(CG_A, "current"));
}

/* The owner killed with SIGKILL: its plan and its charge go with it. */
TEST_F(cg, kill)
{
	int ready[2];
	pid_t pid;
	char c = 0;
	int status;

	if (pipe(ready)) {
		CHECK(false, "dmem: pipe (%s)", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd;

		close(ready[0]);
		enter(CG_A);
		fd = devopen();
		c = fd >= 0 && !create(fd, NULL);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		c = 0;
	close(ready[0]);
	CHECK(c && dmem_value(CG_A, "current") == (long long)SLICE,
	      "dmem: a child in %s holds a plan (dmem.current %lld)", CG_A,
	      dmem_value(CG_A, "current"));
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && dmem_value(CG_A, "current") == 0 &&
	      info().n_plans == 0,
	      "dmem: after SIGKILL of the owner, dmem.current is 0 (%lld) and no plan is left (%u)",
	      dmem_value(CG_A, "current"), info().n_plans);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Before 6.14 no dmem controller: a skip, not a failure. */
	ta_allow_skip(!kernel_has_dmem());
	return ta_harness_main(argc - 1, argv + 1) ? 1 : 0;
}
