// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_stress.c - issue #9, evidence 4: a seeded random mix of every
 * operation on /dev/tensorarena, its mappings, its dma-bufs and its netlink
 * family, from several processes with several threads each, sharing
 * descriptors (one open file inherited by every process, the fd tables by
 * the threads of a process), with allocation failures injected at random
 * through /proc/thread-self/fail-nth (failslab and fail_page_alloc).
 *
 * Operations: create (graph and lifetime forms, every strategy, dry runs),
 * get, destroy, mmap of plans and dma-bufs, partial munmap (head, tail,
 * middle), mremap (shrink, move, grow: refused), touching the mappings,
 * fork (the child works on what it inherited and exits without cleaning
 * up), export, DMA_BUF_IOCTL_SYNC brackets, close of dma-bufs and of device
 * fds (plans die with them), opens (read-write and read-only), netlink
 * info, plan dumps, creates and destroys on short-lived sockets, INFO.
 *
 * Bounded: --ops operations in all (default 3000) and --seconds (default
 * 60), whichever comes first. At the end, with every process gone and
 * every descriptor and mapping closed: bytes_in_use 0, n_plans 0, the plan
 * list empty (ioctl and netlink), and no call failed with an errno its
 * operation cannot give. The kernel's sanitizers watch the rest.
 *
 * The seed fixes each thread's sequence of operations and injections, not
 * the interleaving: replay a failure with --seed (and the same --procs,
 * --threads, --ops), perhaps a few times.
 *
 * usage: ta_e2e_stress [--seed N] [--ops N] [--procs N] [--threads N]
 *                      [--seconds N] [--no-inject] [--] [-l] [-t NAME]...
 *
 * Three tests, each with a descriptor of its own: stress.run (the run and
 * its verdicts), then stress.arena_empty and stress.netlink_empty (nothing
 * is left once everything is closed). Prints the harness's plan and lines
 * (tests/e2e/ta_harness.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_rawnl.h"
#include "ta_e2e_stress.h"

struct shared *sh;
unsigned long max_ops = 3000;
unsigned int n_procs = 3, n_threads = 2, seconds = 60;
unsigned long long seed;
bool inject = true;
unsigned long long arena_size;
uint16_t nl_family;

static long long sysfs_bytes_in_use(void)
{
	char b[32] = "";
	int fd = open("/sys/bus/platform/devices/tensorarena/bytes_in_use",
		      O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, b, sizeof(b) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? atoll(b) : -1;
}

/*
 * Each test's own descriptor of the device: in the run, the open file every
 * worker process inherits (slot 0 of its table), closed once they are done;
 * afterwards, a fresh one the checks read the arena through.
 */
FIXTURE(stress) {
	int fd;
};

FIXTURE_SETUP(stress)
{
	self->fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (self->fd >= 0)
		return;
	CHECK(false, "stress: /dev/tensorarena: %s", strerror(errno));
	/* The test ends here, failed. */
	longjmp(ta_current->skip_jmp, 1);
}

FIXTURE_TEARDOWN(stress)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The seeded run: workers, then what they did, against what they may. */
TEST_F(stress, run)
{
	pid_t pids[MAX_PROCS];
	struct ta_info info = { 0 };
	char first[96];
	int i, fd, nl, status, crashed = 0, hung = 0, fi = 0;
	unsigned long total = 0, inj = 0, fails = 0, noops = 0, worked = 0;
	double t0 = now_s(), waited;
	unsigned int k, idle = 0, lazy = 0;
	bool want_inject = inject;

	printf("e2e: stress seed=%llu procs=%u threads=%u ops=%lu seconds=%u inject=%s\n",
	       seed, n_procs, n_threads, max_ops, seconds,
	       inject ? "fail-nth" : "off");
	fd = self->fd;
	if (ioctl(fd, TA_IOCTL_INFO, &info)) {
		CHECK(false, "stress: /dev/tensorarena: %s", strerror(errno));
		return;
	}
	arena_size = info.arena_size;
	nl = rawnl_open();
	i = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	if (nl >= 0)
		close(nl);
	if (i <= 0) {
		CHECK(false, "stress: netlink family: %s", strerror(-i));
		return;
	}
	nl_family = (uint16_t)i;
	if (inject) {
		fi = fi_set(true);
		if (access("/proc/thread-self/fail-nth", W_OK)) {
			printf("# no /proc/thread-self/fail-nth: no injection\n");
			inject = false;
		}
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		CHECK(false, "stress: the shared counters: %s", strerror(errno));
		sh = NULL;
		return;
	}
	sh->deadline = t0 + seconds;
	fflush(stdout);
	for (k = 0; k < n_procs; k++) {
		pids[k] = fork();
		if (pids[k] == 0)
			_exit(proc_main(k, fd));
	}
	/* Bounded: past the deadline and a grace period, a worker is hung. */
	for (k = 0; k < n_procs; k++) {
		for (;;) {
			pid_t p = waitpid(pids[k], &status, WNOHANG);

			if (p == pids[k])
				break;
			if (now_s() > sh->deadline + 60) {
				kill(pids[k], SIGKILL);
				waitpid(pids[k], &status, 0);
				hung++;
				break;
			}
			usleep(20000);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# worker %u: status 0x%x\n", k, status);
			crashed++;
		}
	}
	if (inject)
		fi_set(false);
	waited = now_s() - t0;
	close(fd);	/* the workers' shared file: its plans die with it */
	self->fd = -1;

	for (k = 0; k < N_OPS; k++) {
		/* did work: neither failed nor found nothing to act on */
		unsigned long w = sh->done[k] - sh->failed[k] - sh->noop[k];

		printf("# %-9s %6lu calls, %5lu failed, %5lu injected, %5lu no-ops, %5lu did work\n",
		       op_names[k], (unsigned long)sh->done[k],
		       (unsigned long)sh->failed[k],
		       (unsigned long)sh->injected[k],
		       (unsigned long)sh->noop[k], w);
		total += sh->done[k];
		inj += sh->injected[k];
		fails += sh->failed[k];
		noops += sh->noop[k];
		worked += w;
		if (!sh->done[k])
			idle++;
		if (!w)
			lazy++;
	}
	printf("e2e: stress seed=%llu: %lu operations (%lu did work, %lu failed, %lu no-ops, %lu with an injected fault, %lu forks) by %u processes x %u threads in %.1f s%s\n",
	       seed, total, worked, fails, noops, inj, (unsigned long)sh->forks, n_procs,
	       n_threads, waited,
	       inject ? (fi ? "" : " (fault-injection debugfs missing)") : "");
	CHECK(!crashed && !hung,
	      "stress: every worker ran to its end (%d crashed, %d hung; seed=%llu)",
	      crashed, hung, seed);
	/*
	 * Not a pass with nothing done: every kind ran and did work (a
	 * create that made a plan, a destroy that destroyed one, ...), and
	 * the calls that did work are ten per kind at least and half of
	 * the operations run (refusals and no-ops do not count).
	 */
	CHECK(!idle && total >= 10 * N_OPS,
	      "stress: %lu operations, every one of the %u kinds (%u never ran)",
	      total, (unsigned int)N_OPS, idle);
	CHECK(!lazy && worked >= 10 * N_OPS && worked >= total / 2,
	      "stress: %lu operations did work (at least %lu wanted), every kind did some (%u did none)",
	      worked, total / 2 > 10 * N_OPS ? total / 2 : 10UL * N_OPS, lazy);
	if (want_inject)
		CHECK(inject && fi && inj > 0,
		      "stress: faults were injected (%lu operations met one%s)",
		      inj, !inject ? "; no /proc/thread-self/fail-nth" :
		      !fi ? "; the fault-injection debugfs is missing" : "");
	for (k = 0; k < sh->n_unexpected && k < NUNEXPECTED; k++) {
		const struct unexpected *u = &sh->unexpected[k];

		printf("# unexpected: %s -> %s (errno %d)%s, process %d thread %d, operation #%lu\n",
		       op_names[u->op], strerror(u->err), u->err,
		       u->injected ? " with a fault injected" : "", u->proc,
		       u->thread, u->opno);
	}
	/* The first one in the verdict, where a CI summary shows it. */
	first[0] = 0;
	if (sh->n_unexpected)
		snprintf(first, sizeof(first), ", first: %s -> %s",
			 op_names[sh->unexpected[0].op],
			 strerror(sh->unexpected[0].err));
	CHECK(!sh->n_unexpected,
	      "stress: every failure had an errno its operation may give (%u did not%s; seed=%llu)",
	      sh->n_unexpected, first, seed);
	munmap(sh, sizeof(*sh));
	sh = NULL;
	inject = want_inject;
}

/* Everything is closed: the arena must be whole again. */
TEST_F(stress, arena_empty)
{
	struct ta_info info = { 0 };
	struct ta_plan_get g = { 0 };
	int fd = self->fd, i, get_err;

	for (i = 0; i < 100; i++) {
		memset(&info, 0, sizeof(info));
		if (ioctl(fd, TA_IOCTL_INFO, &info) ||
		    (!info.n_plans && !info.bytes_in_use))
			break;
		usleep(20000);
	}
	if (i)
		printf("# the arena emptied %d ms after the last process\n", i * 20);
	CHECK(info.n_plans == 0 && info.bytes_in_use == 0 &&
	      info.largest_free == info.arena_size,
	      "stress: arena empty after every fd, mapping and dma-buf closed (plans %u, bytes_in_use %llu, largest free %llu of %llu; seed=%llu)",
	      info.n_plans, (unsigned long long)info.bytes_in_use,
	      (unsigned long long)info.largest_free,
	      (unsigned long long)info.arena_size, seed);
	CHECK(sysfs_bytes_in_use() == 0, "stress: sysfs bytes_in_use 0 (%lld)",
	      sysfs_bytes_in_use());
	g.flags = TA_GET_NEXT;
	get_err = ioctl(fd, TA_IOCTL_PLAN_GET, &g) ? errno : 0;
	CHECK(get_err == ENOENT,
	      "stress: no orphaned plan: the plan list is empty (first: %s, id %u)",
	      get_err ? strerror(get_err) : "a plan", g.plan_id);
}

/* ... and so must the netlink family's view of it. */
TEST_F(stress, netlink_empty)
{
	struct rawnl_result nr = { 0 };
	int nl, i;

	(void)self;
	nl = rawnl_open();
	i = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	if (i <= 0) {
		CHECK(false, "stress: netlink family: %s", strerror(-i));
		if (nl >= 0)
			close(nl);
		return;
	}
	nl_family = (uint16_t)i;
	i = rawnl_dump_plans(nl, nl_family, &nr);
	CHECK(!i && nr.msgs == 0,
	      "stress: no orphaned plan: the netlink dump is empty (%u plans, %s)",
	      nr.msgs, strerror(-i));
	i = nl < 0 ? nl : rawnl_info(nl, nl_family, &nr);
	CHECK(!i && nr.n_plans == 0 && nr.bytes_in_use == 0,
	      "stress: netlink info agrees (plans %llu, bytes_in_use %llu)",
	      (unsigned long long)nr.n_plans,
	      (unsigned long long)nr.bytes_in_use);
	if (nl >= 0)
		close(nl);
}

static void usage(void)
{
	fprintf(stderr, "usage: ta_e2e_stress [--seed N] [--ops N] [--procs N] [--threads N] [--seconds N] [--no-inject] [--] [-l] [-t NAME]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double t0 = now_s();
	int i, ret;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		/* The harness's own arguments. */
		if (!strcmp(argv[i], "--") || !strcmp(argv[i], "-l") ||
		    !strcmp(argv[i], "-t"))
			break;
		if (!strcmp(argv[i], "--no-inject")) {
			inject = false;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--ops"))
			max_ops = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--procs"))
			n_procs = atoi(v);
		else if (!strcmp(argv[i], "--threads"))
			n_threads = atoi(v);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atoi(v);
		else
			usage();
		i++;
	}
	if (!n_procs || n_procs > MAX_PROCS || !n_threads ||
	    n_threads > MAX_THREADS)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = ta_harness_main(argc - i, argv + i);
	printf("# stress: %.1f s in all\n", now_s() - t0);
	return ret ? 1 : 0;
}
