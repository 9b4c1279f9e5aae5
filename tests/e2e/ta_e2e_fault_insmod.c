// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault_insmod.c - ta_e2e_fault's insmod under fault injection: the
 * module loaded with its 1st, 2nd, ... allocation failed while another
 * process keeps opening, planning on and mapping the device, and planning
 * over netlink; a failed load must leave nothing behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_fault.h"


struct hammer {
	volatile int stop, pause, paused;
	volatile unsigned long opens, creates, maps, nl_creates, nl_held;
};

/*
 * A plan over netlink on a new socket, kept open (in *@held) until the
 * next socket has its plan: a socket holds no module reference, so
 * unloads, and the unwind of a load that fails after the family is
 * registered, meet plans that netlink sockets own (issue 25: their owner
 * records were freed first). Returns whether the socket now open owns a
 * plan.
 */
static bool hammer_netlink(struct hammer *h, int *held)
{
	struct nl_result r = { .fd = -1 };
	struct nl_msg *m;
	int nl = nl_setup();

	if (nl < 0)
		return false;
	m = nl_create_msg(false);
	if (!nl_send_raw(nl, m))
		nl_collect(nl, &r);
	nlmsg_free(m);
	if (!r.reply || r.err || !r.plan_id) {
		close(nl);
		return false;
	}
	h->nl_creates++;
	if (*held >= 0)
		close(*held);
	*held = nl;
	return true;
}

/*
 * Keep opening, planning on and mapping the device, and planning over
 * netlink, whatever fails.
 */
static void hammer(struct hammer *h)
{
	struct ta_plan_create c;
	struct ta_info info;
	bool nl_owns = false;
	int fd, held = -1;
	void *map;

	while (!h->stop) {
		if (h->pause) {
			/* The unload to come meets the socket's plan. */
			if (nl_owns)
				h->nl_held++;
			nl_owns = false;
			h->paused = 1;
			while (h->pause && !h->stop)
				usleep(1000);
			h->paused = 0;
			continue;
		}
		fd = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			usleep(200);
			continue;
		}
		h->opens++;
		memset(&info, 0, sizeof(info));
		ioctl(fd, TA_IOCTL_INFO, &info);
		c = graph_request(false);
		if (!ioctl(fd, TA_IOCTL_PLAN_CREATE, &c)) {
			h->creates++;
			map = mmap(NULL, c.height, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, c.mmap_offset);
			if (map != MAP_FAILED) {
				h->maps++;
				((volatile char *)map)[0] = 1;
				munmap(map, c.height);
			}
		}
		close(fd);
		nl_owns = hammer_netlink(h, &held) || nl_owns;
	}
	_exit(0);
}

static const char *leftovers(void)
{
	static const char *const paths[] = {
		"/dev/tensorarena", "/sys/module/tensorarena",
		"/sys/bus/platform/devices/tensorarena",
		"/sys/bus/platform/drivers/tensorarena",
		"/sys/kernel/debug/tensorarena",
	};
	unsigned int i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], F_OK))
			return paths[i];
	return NULL;
}

static int unload(struct hammer *h)
{
	int i, err = 0;

	h->pause = 1;
	while (!h->paused && !h->stop)
		usleep(1000);
	for (i = 0; i < 100; i++) {
		err = syscall(SYS_delete_module, "tensorarena", O_NONBLOCK) ?
		      -errno : 0;
		if (err != -EAGAIN && err != -EBUSY)
			break;
		usleep(20000);
	}
	h->pause = 0;
	return err;
}

/*
 * The module file, and injection by fail-nth alone with the console quiet;
 * the module must not be loaded.
 */
FIXTURE(insmod) {
	int ko, nth, leaks0;
	bool configured, quiet;
};

FIXTURE_SETUP(insmod)
{
	const char *left;

	self->nth = -1;
	self->ko = open(insmod_ko, O_RDONLY | O_CLOEXEC);
	if (self->ko < 0) {
		CHECK(false, "fault: insmod: %s: %s", insmod_ko, strerror(errno));
		SKIP("no module file");
	}
	left = leftovers();
	if (left) {
		CHECK(false, "fault: insmod: %s exists before the sweep", left);
		SKIP("the module is loaded");
	}
	self->leaks0 = with_kmemleak ? kmemleak_count(false) : -1;
	self->configured = true;
	if (fi_configure(false))
		SKIP("fault injection cannot be configured");
	self->nth = open_fail_nth();
	if (self->nth < 0)
		SKIP("no fail-nth");
	self->quiet = true;
	if (kmsg_begin())
		SKIP("no /dev/kmsg");
}

FIXTURE_TEARDOWN(insmod)
{
	if (self->configured)
		fi_configure(true);
	if (self->quiet)
		kmsg_end();
	if (self->nth >= 0)
		close(self->nth);
	if (self->ko >= 0)
		close(self->ko);
}

/*
 * A load makes ~600 allocations, most of them the module loader's (the
 * file, sections, sysfs, kallsyms) before the module's init runs, and each
 * load takes about a second under TCG: the sweep tries every N of the last
 * @tail allocations (the module's init and its unwinding) and every
 * @stride-th N before them (--stride 1 for all).
 */
TEST_F(insmod, load_sweep)
{
	struct hammer *h;
	unsigned int n, points = 0, failed = 0, survived = 0, enomem = 0;
	unsigned int total = 0;
	int nth = self->nth, err, other_errno = 0, leaks0, status;
	char why[256] = "", warn[256] = "";
	const char *left, *d;
	double t0 = now_s();
	bool fired;
	pid_t pid;

	leaks0 = self->leaks0;
	h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED) {
		CHECK(false, "fault: insmod: mmap: %s", strerror(errno));
		return;
	}
	memset(h, 0, sizeof(*h));
	pid = fork();
	if (pid == 0)
		hammer(h);

	/* How many allocations one load makes: the sweep's length. */
	arm(nth, 1000000);
	err = syscall(SYS_finit_module, self->ko, insmod_params, 0) ? -errno : 0;
	total = 1000000 - fail_nth_left(nth);
	disarm(nth);
	printf("insmod under fault injection: one load makes %u allocations (%s), %.1f s; every %u%s below N=%u, every N above\n",
	       total, err ? strerror(-err) : "loaded", now_s() - t0, stride,
	       stride == 1 ? "" : "th", total > tail ? total - tail : 0);
	if (!err && unload(h))
		snprintf(why, sizeof(why), "rmmod after the first load failed");
	kmsg_check();

	for (n = 1; n <= MAX_N && !why[0]; n++) {
		if (n + tail <= total && (n - 1) % stride)
			continue;
		if (n % 50 == 0)
			printf("insmod under fault injection: N=%u, %.0f s\n", n,
			       now_s() - t0);
		arm(nth, n);
		err = syscall(SYS_finit_module, self->ko, insmod_params, 0) ? -errno : 0;
		fired = disarm(nth);
		if (fired)
			points++;
		d = kmsg_check();
		if (d[0] && !warn[0])
			snprintf(warn, sizeof(warn), "N=%u (%s): %s", n,
				 err ? strerror(-err) : "loaded", d);
		if (err) {
			if (!fired) {
				snprintf(why, sizeof(why),
					 "N=%u: insmod failed without an injected fault: %s",
					 n, strerror(-err));
				break;
			}
			failed++;
			if (err == -ENOMEM)
				enomem++;
			else if (!other_errno)
				other_errno = err;
			if ((left = leftovers())) {
				snprintf(why, sizeof(why),
					 "N=%u: insmod failed (%s) but %s exists",
					 n, strerror(-err), left);
				break;
			}
			continue;
		}
		if (fired)
			survived++;
		err = unload(h);
		if (err) {
			snprintf(why, sizeof(why), "N=%u: rmmod: %s", n,
				 strerror(-err));
			break;
		}
		if ((left = leftovers())) {
			snprintf(why, sizeof(why), "N=%u: %s exists after rmmod",
				 n, left);
			break;
		}
		if (!fired)
			break;
	}
	if (!why[0] && n > MAX_N)
		snprintf(why, sizeof(why), "still failing at N=%u", MAX_N);
	/* Every N of the tail is tried: most of them must fire. */
	if (!why[0] && points < tail / 2)
		snprintf(why, sizeof(why),
			 "%u injection points, fewer than %u (is fault injection working?)",
			 points, tail / 2);
	h->stop = 1;
	waitpid(pid, &status, 0);
	fi_configure(true);
	if (leftovers())
		unload(h);
	d = kmsg_check();
	if (d[0] && !warn[0])
		snprintf(warn, sizeof(warn), "after the sweep: %s", d);
	if (core_warnings)
		printf("insmod under fault injection: %u allocation-failure warnings of the core kernel (%s)\n",
		       core_warnings, core_sites);

	printf("insmod under fault injection: %u points (%u failed: %u ENOMEM%s%s; %u absorbed); the other process opened the device %lu times, created %lu plans, mapped %lu; %.1f s\n",
	       points, failed, enomem, other_errno ? ", first other errno " : "",
	       other_errno ? strerror(-other_errno) : "", survived, h->opens,
	       h->creates, h->maps, now_s() - t0);
	if (why[0])
		CHECK(false, "fault: insmod under fault injection: %s", why);
	else if (warn[0])
		CHECK(false, "fault: insmod under fault injection: %u points, but %s",
		      points, warn);
	else
		CHECK(true, "fault: insmod under fault injection: %u points, every failed load left nothing behind",
		      points);
	CHECK(h->opens > 0,
	      "fault: insmod under fault injection: the device was opened and used during the sweep (%lu opens, %lu maps)",
	      h->opens, h->maps);
	CHECK(h->nl_held > 0,
	      "fault: insmod under fault injection: unloads met plans that netlink sockets owned (%lu unloads; %lu netlink plans made)",
	      h->nl_held, h->nl_creates);
	if (leaks0 >= 0)
		kmemleak_nothing_new(leaks0, "the insmod sweep");
	munmap(h, sizeof(*h));
}
