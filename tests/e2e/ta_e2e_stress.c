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
 *                      [--seconds N] [--no-inject]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/tensorarena.h>

#include "ta_e2e_report.h"
#include "ta_e2e_rawnl.h"

#define PAGE		4096UL
#define MAX_PROCS	8
#define MAX_THREADS	8
#define NFD		6	/* device fds per process; slot 0 the shared one */
#define NPLAN		24
#define NMAP		32
#define NBUF		12
#define NUNEXPECTED	24

enum op {
	OP_CREATE, OP_DESTROY, OP_GET, OP_MMAP, OP_MUNMAP, OP_MREMAP,
	OP_TOUCH, OP_FORK, OP_EXPORT, OP_SYNC, OP_BUF_CLOSE, OP_DEV_CLOSE,
	OP_DEV_OPEN, OP_NETLINK, OP_INFO, N_OPS
};

static const char *const op_names[N_OPS] = {
	"create", "destroy", "get", "mmap", "munmap", "mremap", "touch",
	"fork", "export", "sync", "buf-close", "dev-close", "dev-open",
	"netlink", "info",
};

/* Relative weights of the operations. */
static const unsigned int op_weight[N_OPS] = {
	[OP_CREATE] = 18, [OP_DESTROY] = 9, [OP_GET] = 6, [OP_MMAP] = 10,
	[OP_MUNMAP] = 8, [OP_MREMAP] = 5, [OP_TOUCH] = 6, [OP_FORK] = 2,
	[OP_EXPORT] = 6, [OP_SYNC] = 6, [OP_BUF_CLOSE] = 4,
	[OP_DEV_CLOSE] = 2, [OP_DEV_OPEN] = 3, [OP_NETLINK] = 8, [OP_INFO] = 3,
};

/* Sets of errnos (all below 128). */
typedef unsigned __int128 errset;
#define E(x) ((errset)1 << (x))
/* Errnos each operation may give without injection (races, limits). */
static const errset op_allowed[N_OPS] = {
	[OP_CREATE] = E(EDQUOT) | E(ENOSPC) | E(EBADF) | E(EBUSY),
	[OP_DESTROY] = E(ENOENT) | E(EBADF),
	[OP_GET] = E(ENOENT),
	[OP_MMAP] = E(ENOENT) | E(EACCES),
	[OP_MUNMAP] = 0,
	[OP_MREMAP] = E(EFAULT),	/* growing a VM_DONTEXPAND mapping */
	[OP_TOUCH] = 0,
	[OP_FORK] = 0,
	[OP_EXPORT] = E(ENOENT) | E(EBADF),
	[OP_SYNC] = 0,
	[OP_BUF_CLOSE] = 0,
	[OP_DEV_CLOSE] = 0,
	[OP_DEV_OPEN] = 0,
	[OP_NETLINK] = E(ENOENT) | E(EDQUOT) | E(ENOSPC) | E(EBUSY),
	[OP_INFO] = 0,
};
/* And what an injected allocation failure may add to that. */
#define INJECTED_ALLOWED (E(ENOMEM) | E(ENOBUFS) | E(EFAULT) | E(EAGAIN) | \
			  E(ENOSPC) | E(EINTR))

struct unexpected {
	int op, err, proc, thread;
	bool injected;
	unsigned long opno;
};

/* Shared by every process (MAP_SHARED). */
struct shared {
	atomic_ulong ops;		/* operations started */
	atomic_ulong done[N_OPS];	/* per operation: calls */
	atomic_ulong failed[N_OPS];	/* ... that failed (any errno) */
	atomic_ulong noop[N_OPS];	/* ... that found nothing to act on */
	atomic_ulong injected[N_OPS];	/* ... where a fault was injected */
	atomic_ulong forks;
	atomic_uint n_unexpected;
	struct unexpected unexpected[NUNEXPECTED];
	double deadline;
};

static struct shared *sh;
static unsigned long max_ops = 3000;
static unsigned int n_procs = 3, n_threads = 2, seconds = 60;
static unsigned long long seed;
static bool inject = true;
static unsigned long long arena_size;
static uint16_t nl_family;

/* ---- the small graph of ta_e2e_graph.h, and lifetime-form requests ---- */

#include "ta_e2e_graph.h"

/* ---- per process ---- */

struct plan_ent { __u32 id; __u64 slice; };
struct map_ent { unsigned char *addr; size_t len; };

static struct proc {
	int index;
	/*
	 * fdlock: a call on a descriptor of the tables holds it for reading,
	 * a close for writing, so a number is never closed (and reused)
	 * under a call. lock: the tables' contents.
	 */
	pthread_rwlock_t fdlock;
	pthread_mutex_t lock;
	int fds[NFD];		/* -1: free */
	bool fd_rw[NFD];
	struct plan_ent plans[NPLAN];
	struct map_ent maps[NMAP];
	int bufs[NBUF];		/* dma-buf fds, -1: free */
	__u64 buf_len[NBUF];
} P;

struct thread {
	int index;
	uint64_t rng;
	int fail_nth;		/* /proc/thread-self/fail-nth */
	bool armed;
};

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint32_t rnd(struct thread *t, uint32_t n)
{
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return n ? (uint32_t)((t->rng >> 11) % n) : 0;
}

/* ---- fault injection ---- */

static const char *const fi_files[][2] = {
	{ "failslab/ignore-gfp-wait", "N" },
	{ "failslab/verbose", "0" },
	{ "fail_page_alloc/ignore-gfp-wait", "N" },
	{ "fail_page_alloc/min-order", "0" },
	{ "fail_page_alloc/verbose", "0" },
};
#define N_FI (sizeof(fi_files) / sizeof(fi_files[0]))
static char fi_saved[N_FI][16];

static int fi_set(bool on)
{
	char path[128];
	unsigned int i;
	int set = 0;

	for (i = 0; i < N_FI; i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "/sys/kernel/debug/%s",
			 fi_files[i][0]);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (on) {
			n = read(fd, fi_saved[i], sizeof(fi_saved[i]) - 1);
			fi_saved[i][n > 0 ? n : 0] = 0;
			n = write(fd, fi_files[i][1], strlen(fi_files[i][1]));
		} else if (fi_saved[i][0]) {
			n = write(fd, fi_saved[i], strlen(fi_saved[i]));
		} else {
			n = 0;
		}
		set += n > 0;
		close(fd);
	}
	return set;
}

/* Maybe make the Nth allocation of the next call fail. */
static void arm(struct thread *t)
{
	char b[12];
	int n;

	t->armed = false;
	if (!inject || t->fail_nth < 0 || rnd(t, 4))
		return;
	n = snprintf(b, sizeof(b), "%u", 1 + rnd(t, 12));
	t->armed = pwrite(t->fail_nth, b, n, 0) == n;
}

/* Disarm; true when a failure was injected. */
static bool disarm(struct thread *t)
{
	char b[12] = "";
	bool hit;

	if (!t->armed)
		return false;
	t->armed = false;
	hit = pread(t->fail_nth, b, sizeof(b) - 1, 0) > 0 && atoi(b) == 0;
	if (pwrite(t->fail_nth, "0", 1, 0) != 1)
		return hit;
	return hit;
}

/* ---- bookkeeping ---- */

/*
 * What an operation returns when it found nothing to act on (no plan, no
 * descriptor, no mapping, no dma-buf; a plan of no memory to export): not
 * a failure, and no work either. Calls that did work are the calls less
 * these and the failed ones, and they are what the run must have enough of.
 */
#define NOOP (-1)

static void note(struct thread *t, int op, int err, bool injected,
		 unsigned long opno)
{
	atomic_fetch_add(&sh->done[op], 1);
	if (injected)
		atomic_fetch_add(&sh->injected[op], 1);
	if (err == NOOP) {
		atomic_fetch_add(&sh->noop[op], 1);
		return;
	}
	if (!err)
		return;
	atomic_fetch_add(&sh->failed[op], 1);
	if (err > 0 && err < 128 &&
	    ((op_allowed[op] & E(err)) ||
	     (injected && (INJECTED_ALLOWED & E(err)))))
		return;
	{
		unsigned int k = atomic_fetch_add(&sh->n_unexpected, 1);

		if (k < NUNEXPECTED)
			sh->unexpected[k] = (struct unexpected){
				.op = op, .err = err, .proc = P.index,
				.thread = t->index, .injected = injected,
				.opno = opno,
			};
	}
}

/* A device fd of the tables, under fdlock (read); -1 when none. */
static int pick_fd(struct thread *t, bool *rw)
{
	int i, k = rnd(t, NFD);

	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NFD; i++) {
		int s = (k + i) % NFD;

		if (P.fds[s] >= 0) {
			*rw = P.fd_rw[s];
			pthread_mutex_unlock(&P.lock);
			return P.fds[s];
		}
	}
	pthread_mutex_unlock(&P.lock);
	return -1;
}

static bool pick_plan(struct thread *t, struct plan_ent *out, bool take)
{
	int i, k = rnd(t, NPLAN);
	bool found = false;

	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NPLAN && !found; i++) {
		int s = (k + i) % NPLAN;

		if (P.plans[s].id) {
			*out = P.plans[s];
			if (take)
				P.plans[s].id = 0;
			found = true;
		}
	}
	pthread_mutex_unlock(&P.lock);
	return found;
}

/* Under P.lock: a used map slot, or -1. */
static int pick_map_locked(struct thread *t)
{
	int i, k = rnd(t, NMAP);

	for (i = 0; i < NMAP; i++)
		if (P.maps[(k + i) % NMAP].addr)
			return (k + i) % NMAP;
	return -1;
}

/* Under P.lock: a free map slot for @addr, or unmap it again. */
static void add_map_locked(unsigned char *addr, size_t len)
{
	int i;

	for (i = 0; i < NMAP; i++)
		if (!P.maps[i].addr) {
			P.maps[i] = (struct map_ent){ addr, len };
			return;
		}
	munmap(addr, len);
}

/* ---- the operations ---- */

/*
 * One ioctl on a random shared descriptor, with fail-nth armed around it:
 * its errno (0 on success), or -1 when no descriptor is open.
 */
static int fd_ioctl(struct thread *t, unsigned long cmd, void *arg,
		    bool *injected)
{
	bool rw;
	int fd, err;

	pthread_rwlock_rdlock(&P.fdlock);
	fd = pick_fd(t, &rw);
	if (fd < 0) {
		pthread_rwlock_unlock(&P.fdlock);
		return -1;
	}
	arm(t);
	err = ioctl(fd, cmd, arg) ? errno : 0;
	*injected = disarm(t);
	pthread_rwlock_unlock(&P.fdlock);
	return err;
}

static int do_create(struct thread *t, bool *injected)
{
	static __thread struct ta_lifetime life[32];
	struct ta_plan_create c = { 0 };
	bool rw;
	int fd, err, i;

	c.strategy = rnd(t, 5);
	if (rnd(t, 2)) {
		c = ta_e2e_graph_request(c.strategy);
	} else {
		c.flags = TA_CREATE_LIFETIMES;
		c.n_tensors = 1 + rnd(t, 32);
		for (i = 0; i < (int)c.n_tensors; i++) {
			life[i].size = rnd(t, 8) ? 64 + rnd(t, 32768) : 0;
			life[i].align = 1u << rnd(t, 13);
			life[i].start = rnd(t, 8);
			life[i].end = life[i].start + 1 + rnd(t, 8);
		}
		c.tensors = (uintptr_t)life;
		c.tensor_size = sizeof(struct ta_lifetime);
	}
	if (!rnd(t, 10))
		c.flags |= TA_CREATE_DRY_RUN;
	err = fd_ioctl(t, TA_IOCTL_PLAN_CREATE, &c, injected);
	if (err < 0)
		return NOOP;
	if (!err && !(c.flags & TA_CREATE_DRY_RUN)) {
		struct plan_ent e = {
			.id = c.plan_id,
			.slice = (c.height + PAGE - 1) & ~(PAGE - 1),
		};

		pthread_mutex_lock(&P.lock);
		for (i = 0; i < NPLAN; i++)
			if (!P.plans[i].id) {
				P.plans[i] = e;
				e.id = 0;
				break;
			}
		pthread_mutex_unlock(&P.lock);
		if (e.id) {	/* table full: give it back */
			struct ta_plan_destroy d = { .plan_id = e.id };

			pthread_rwlock_rdlock(&P.fdlock);
			fd = pick_fd(t, &rw);
			if (fd >= 0)
				ioctl(fd, TA_IOCTL_PLAN_DESTROY, &d);
			pthread_rwlock_unlock(&P.fdlock);
		}
	}
	return err;
}

static int do_destroy(struct thread *t, bool *injected)
{
	struct ta_plan_destroy d = { 0 };
	struct plan_ent e;
	int err;

	if (!pick_plan(t, &e, true))
		return NOOP;
	d.plan_id = e.id;
	err = fd_ioctl(t, TA_IOCTL_PLAN_DESTROY, &d, injected);
	return err < 0 ? NOOP : err;
}

static int do_get(struct thread *t, bool *injected)
{
	static __thread struct ta_placement pl[64];
	struct ta_plan_get g = { 0 };
	struct plan_ent e;
	int err;

	if (rnd(t, 4) && pick_plan(t, &e, false)) {
		g.plan_id = e.id;
	} else {
		g.plan_id = rnd(t, 3) ? 0 : rnd(t, 4096);
		g.flags = TA_GET_NEXT;
	}
	if (rnd(t, 2)) {
		g.placements = (uintptr_t)pl;
		g.n_placements = 64;
		g.placement_size = sizeof(pl[0]);
	}
	err = fd_ioctl(t, TA_IOCTL_PLAN_GET, &g, injected);
	return err < 0 ? NOOP : err;
}

static int do_mmap(struct thread *t, bool *injected)
{
	struct plan_ent e;
	unsigned char *m;
	size_t len;
	bool rw;
	int fd, err = 0;

	if (!pick_plan(t, &e, false) || !e.slice)
		return NOOP;
	/* The whole slice, or its first pages. */
	len = rnd(t, 3) ? e.slice : PAGE * (1 + rnd(t, e.slice / PAGE));
	pthread_rwlock_rdlock(&P.fdlock);
	fd = pick_fd(t, &rw);
	if (fd < 0) {
		pthread_rwlock_unlock(&P.fdlock);
		return NOOP;
	}
	arm(t);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)e.id * PAGE);
	if (m == MAP_FAILED)
		err = errno;
	*injected = disarm(t);
	pthread_rwlock_unlock(&P.fdlock);
	if (!err) {
		pthread_mutex_lock(&P.lock);
		add_map_locked(m, len);
		pthread_mutex_unlock(&P.lock);
	}
	return err;
}

static int do_munmap(struct thread *t, bool *injected)
{
	struct map_ent *me;
	int s, err = 0, how;
	size_t pages;

	pthread_mutex_lock(&P.lock);
	s = pick_map_locked(t);
	if (s < 0) {
		pthread_mutex_unlock(&P.lock);
		return NOOP;
	}
	me = &P.maps[s];
	pages = me->len / PAGE;
	how = pages < 2 ? 0 : rnd(t, pages < 3 ? 3 : 4);
	arm(t);
	switch (how) {
	case 0:		/* all of it */
		err = munmap(me->addr, me->len) ? errno : 0;
		if (!err)
			me->addr = NULL;
		break;
	case 1:		/* the head */
		err = munmap(me->addr, PAGE) ? errno : 0;
		if (!err) {
			me->addr += PAGE;
			me->len -= PAGE;
		}
		break;
	case 2:		/* the tail */
		err = munmap(me->addr + me->len - PAGE, PAGE) ? errno : 0;
		if (!err)
			me->len -= PAGE;
		break;
	default: {	/* a page in the middle: two mappings */
		size_t at = 1 + rnd(t, pages - 2);

		err = munmap(me->addr + at * PAGE, PAGE) ? errno : 0;
		if (!err) {
			unsigned char *rest = me->addr + (at + 1) * PAGE;
			size_t rest_len = me->len - (at + 1) * PAGE;

			me->len = at * PAGE;
			add_map_locked(rest, rest_len);
		}
	}
	}
	*injected = disarm(t);
	pthread_mutex_unlock(&P.lock);
	return err;
}

static int do_mremap(struct thread *t, bool *injected)
{
	struct map_ent *me;
	void *m, *dst;
	int s, err = 0, how;

	pthread_mutex_lock(&P.lock);
	s = pick_map_locked(t);
	if (s < 0) {
		pthread_mutex_unlock(&P.lock);
		return NOOP;
	}
	me = &P.maps[s];
	how = rnd(t, 3);
	if (how == 0 && me->len < 2 * PAGE)
		how = 1;
	arm(t);
	switch (how) {
	case 0:		/* shrink in place */
		m = mremap(me->addr, me->len, me->len - PAGE, 0);
		if (m == MAP_FAILED)
			err = errno;
		else
			me->len -= PAGE;
		break;
	case 1:		/* move to a place of our choosing */
		dst = mmap(NULL, me->len, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (dst == MAP_FAILED) {
			err = errno;
			break;
		}
		m = mremap(me->addr, me->len, me->len,
			   MREMAP_MAYMOVE | MREMAP_FIXED, dst);
		if (m == MAP_FAILED) {
			err = errno;
			munmap(dst, me->len);
		} else {
			me->addr = m;
		}
		break;
	default:	/* grow: never past the plan's slice */
		m = mremap(me->addr, me->len, me->len + PAGE, MREMAP_MAYMOVE);
		if (m == MAP_FAILED) {
			err = errno;
		} else {
			/* It must not have grown; keep it unmapped. */
			me->addr = m;
			me->len += PAGE;
			err = EOVERFLOW;
		}
	}
	*injected = disarm(t);
	pthread_mutex_unlock(&P.lock);
	return err;
}

static int do_touch(struct thread *t)
{
	volatile unsigned char *p;
	struct map_ent *me;
	int s, err = 0;
	unsigned char v = (unsigned char)rnd(t, 256);
	size_t at;

	pthread_mutex_lock(&P.lock);
	s = pick_map_locked(t);
	if (s < 0)
		err = NOOP;
	if (s >= 0) {
		me = &P.maps[s];
		p = me->addr;
		at = rnd(t, me->len);
		p[0] = v;
		p[at] = v;
		p[me->len - 1] = v;
		if (p[0] != v || p[at] != v || p[me->len - 1] != v)
			err = EIO;
	}
	pthread_mutex_unlock(&P.lock);
	return err;
}

static int do_export(struct thread *t, bool *injected)
{
	struct ta_plan_export x = { 0 };
	struct plan_ent e;
	unsigned char *m;
	int err, i;

	if (!pick_plan(t, &e, false))
		return NOOP;
	x.plan_id = e.id;
	x.flags = rnd(t, 2) ? TA_EXPORT_CLOEXEC : 0;
	err = fd_ioctl(t, TA_IOCTL_PLAN_EXPORT, &x, injected);
	if (err < 0)
		return NOOP;
	/* A plan of height 0 holds no memory: there is nothing to export. */
	if (err == EINVAL && !e.slice)
		return NOOP;
	if (err)
		return err;
	/* Sometimes map the buffer too; it lives on after its fd closes. */
	if (e.slice && rnd(t, 2)) {
		m = mmap(NULL, e.slice, PROT_READ | PROT_WRITE, MAP_SHARED,
			 x.fd, 0);
		if (m != MAP_FAILED) {
			pthread_mutex_lock(&P.lock);
			add_map_locked(m, e.slice);
			pthread_mutex_unlock(&P.lock);
		} else {
			err = errno;
		}
	}
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NBUF; i++)
		if (P.bufs[i] < 0) {
			P.bufs[i] = x.fd;
			P.buf_len[i] = e.slice;
			x.fd = -1;
			break;
		}
	pthread_mutex_unlock(&P.lock);
	if (x.fd >= 0)
		close(x.fd);	/* never in the tables: nobody else uses it */
	return err;
}

static int do_sync(struct thread *t, bool *injected)
{
	static const __u64 dir[] = {
		DMA_BUF_SYNC_READ, DMA_BUF_SYNC_WRITE, DMA_BUF_SYNC_RW,
	};
	struct dma_buf_sync s = { 0 };
	int i, k = rnd(t, NBUF), fd = -1, err;
	__u64 d = dir[rnd(t, 3)];

	pthread_rwlock_rdlock(&P.fdlock);
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NBUF && fd < 0; i++)
		fd = P.bufs[(k + i) % NBUF];
	pthread_mutex_unlock(&P.lock);
	if (fd < 0) {
		pthread_rwlock_unlock(&P.fdlock);
		return NOOP;
	}
	s.flags = DMA_BUF_SYNC_START | d;
	arm(t);
	err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &s) ? errno : 0;
	*injected = disarm(t);
	s.flags = DMA_BUF_SYNC_END | d;
	if (!err)
		err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &s) ? errno : 0;
	pthread_rwlock_unlock(&P.fdlock);
	return err;
}

static int do_buf_close(struct thread *t)
{
	int i, k = rnd(t, NBUF), fd = -1, err;

	pthread_rwlock_wrlock(&P.fdlock);
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NBUF && fd < 0; i++) {
		fd = P.bufs[(k + i) % NBUF];
		P.bufs[(k + i) % NBUF] = -1;
	}
	pthread_mutex_unlock(&P.lock);
	if (fd < 0) {
		pthread_rwlock_unlock(&P.fdlock);
		return NOOP;
	}
	err = close(fd) ? errno : 0;
	pthread_rwlock_unlock(&P.fdlock);
	return err;
}

static int do_dev_close(struct thread *t)
{
	int i, open = 0, s = rnd(t, NFD), fd = -1, err;

	pthread_rwlock_wrlock(&P.fdlock);
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NFD; i++)
		open += P.fds[i] >= 0;
	if (open > 1 && P.fds[s] >= 0) {	/* keep one */
		fd = P.fds[s];
		P.fds[s] = -1;
	}
	pthread_mutex_unlock(&P.lock);
	if (fd < 0) {	/* one left, or the slot picked was empty */
		pthread_rwlock_unlock(&P.fdlock);
		return NOOP;
	}
	err = close(fd) ? errno : 0;
	pthread_rwlock_unlock(&P.fdlock);
	return err;
}

static int do_dev_open(struct thread *t, bool *injected)
{
	bool rw = rnd(t, 6) != 0;
	int i, fd;

	arm(t);
	fd = open("/dev/" TA_DEVICE_NAME, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	*injected = disarm(t);
	if (fd < 0)
		return errno;
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < NFD; i++)
		if (P.fds[i] < 0) {
			P.fds[i] = fd;
			P.fd_rw[i] = rw;
			fd = -1;
			break;
		}
	pthread_mutex_unlock(&P.lock);
	if (fd >= 0)
		close(fd);
	return 0;
}

/* A short-lived socket: info, a dump, or a plan that dies with it. */
static int do_netlink(struct thread *t, bool *injected)
{
	struct timeval tv = { .tv_sec = 10 };
	struct rawnl_result r;
	int nl, err, what = rnd(t, 4);

	nl = rawnl_open();
	if (nl < 0)
		return -nl;
	setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	arm(t);
	switch (what) {
	case 0:
		err = rawnl_info(nl, nl_family, &r);
		break;
	case 1:
		err = rawnl_dump_plans(nl, nl_family, &r);
		break;
	default:
		err = rawnl_create(nl, nl_family, rnd(t, 5), 1 + rnd(t, 8),
				   64 + rnd(t, 16384), &r);
		if (!err && what == 3) {
			*injected = disarm(t);
			arm(t);
			err = rawnl_destroy(nl, nl_family, r.plan_id, &r);
		}
	}
	*injected |= disarm(t);
	close(nl);
	return -err;
}

static int do_info(struct thread *t)
{
	struct ta_info i = { 0 };
	bool rw;
	int fd, err;

	pthread_rwlock_rdlock(&P.fdlock);
	fd = pick_fd(t, &rw);
	err = fd < 0 ? NOOP : ioctl(fd, TA_IOCTL_INFO, &i) ? errno : 0;
	pthread_rwlock_unlock(&P.fdlock);
	if (!err && fd >= 0 &&
	    (i.bytes_in_use > i.arena_size || i.arena_size != arena_size))
		err = ERANGE;
	return err;
}

/*
 * The child of a fork: one thread, tables as they were (the forking thread
 * held the lock). It touches an inherited mapping, destroys a plan,
 * exports one and creates one on an inherited descriptor, then exits
 * without cleaning up. Raw system calls only.
 */
static void fork_child(struct thread *t)
{
	struct ta_plan_destroy d = { 0 };
	struct ta_plan_export x = { 0 };
	int i, fd = -1;

	for (i = 0; i < NFD && fd < 0; i++)
		if (P.fds[i] >= 0 && P.fd_rw[i])
			fd = P.fds[i];
	i = pick_map_locked(t);
	if (i >= 0)
		((volatile unsigned char *)P.maps[i].addr)[0] ^= 1;
	if (fd < 0)
		_exit(0);
	i = rnd(t, NPLAN);
	if (P.plans[i].id && rnd(t, 2)) {
		d.plan_id = P.plans[i].id;
		ioctl(fd, TA_IOCTL_PLAN_DESTROY, &d);
	}
	i = rnd(t, NPLAN);
	if (P.plans[i].id) {
		x.plan_id = P.plans[i].id;
		ioctl(fd, TA_IOCTL_PLAN_EXPORT, &x);	/* left open */
	}
	if (rnd(t, 2)) {
		struct ta_plan_create c = {
			.strategy = rnd(t, 5),
			.tensors = (uintptr_t)g_tensors,
			.n_tensors = G_TENSORS,
			.tensor_size = sizeof(struct ta_tensor),
			.ops = (uintptr_t)g_ops,
			.n_ops = sizeof(g_ops) / sizeof(g_ops[0]),
			.op_size = sizeof(struct ta_op),
			.refs = (uintptr_t)g_refs,
			.n_refs = sizeof(g_refs) / sizeof(g_refs[0]),
		};

		ioctl(fd, TA_IOCTL_PLAN_CREATE, &c);	/* left to the fd */
	}
	_exit(0);
}

static int do_fork(struct thread *t, bool *injected)
{
	int status, err = 0;
	pid_t pid;

	pthread_rwlock_rdlock(&P.fdlock);
	pthread_mutex_lock(&P.lock);
	arm(t);
	pid = fork();
	if (pid == 0)
		fork_child(t);
	if (pid < 0)
		err = errno;
	*injected = disarm(t);
	pthread_mutex_unlock(&P.lock);
	pthread_rwlock_unlock(&P.fdlock);
	if (pid > 0) {
		atomic_fetch_add(&sh->forks, 1);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			err = ECHILD;
	}
	return err;
}

static unsigned int pick_op(struct thread *t)
{
	static unsigned int total;
	unsigned int i, r;

	if (!total)
		for (i = 0; i < N_OPS; i++)
			total += op_weight[i];
	r = rnd(t, total);
	for (i = 0; i < N_OPS; i++) {
		if (r < op_weight[i])
			return i;
		r -= op_weight[i];
	}
	return OP_INFO;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;

	t->fail_nth = inject ? open("/proc/thread-self/fail-nth",
				    O_RDWR | O_CLOEXEC) : -1;
	for (;;) {
		unsigned long opno = atomic_fetch_add(&sh->ops, 1);
		bool injected = false;
		int op, err;

		if (opno >= max_ops || now_s() > sh->deadline)
			break;
		op = pick_op(t);
		switch (op) {
		case OP_CREATE: err = do_create(t, &injected); break;
		case OP_DESTROY: err = do_destroy(t, &injected); break;
		case OP_GET: err = do_get(t, &injected); break;
		case OP_MMAP: err = do_mmap(t, &injected); break;
		case OP_MUNMAP: err = do_munmap(t, &injected); break;
		case OP_MREMAP: err = do_mremap(t, &injected); break;
		case OP_TOUCH: err = do_touch(t); break;
		case OP_FORK: err = do_fork(t, &injected); break;
		case OP_EXPORT: err = do_export(t, &injected); break;
		case OP_SYNC: err = do_sync(t, &injected); break;
		case OP_BUF_CLOSE: err = do_buf_close(t); break;
		case OP_DEV_CLOSE: err = do_dev_close(t); break;
		case OP_DEV_OPEN: err = do_dev_open(t, &injected); break;
		case OP_NETLINK: err = do_netlink(t, &injected); break;
		default: err = do_info(t); break;
		}
		note(t, op, err, injected, opno);
	}
	if (t->fail_nth >= 0)
		close(t->fail_nth);
	return NULL;
}

/* One worker process: its threads, then (half the time) a tidy end. */
static int proc_main(int index, int shared_fd)
{
	struct thread th[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	struct thread tidy = { 0 };
	unsigned int i;

	P.index = index;
	pthread_rwlock_init(&P.fdlock, NULL);
	pthread_mutex_init(&P.lock, NULL);
	for (i = 0; i < NFD; i++)
		P.fds[i] = -1;
	for (i = 0; i < NBUF; i++)
		P.bufs[i] = -1;
	P.fds[0] = shared_fd;
	P.fd_rw[0] = true;
	P.fds[1] = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	P.fd_rw[1] = true;
	for (i = 0; i < n_threads; i++) {
		th[i] = (struct thread){
			.index = i,
			.rng = splitmix(seed ^ ((uint64_t)index << 32) ^ i) | 1,
		};
		if (pthread_create(&tid[i], NULL, thread_main, &th[i]))
			return 1;
	}
	for (i = 0; i < n_threads; i++)
		pthread_join(tid[i], NULL);
	tidy.rng = splitmix(seed ^ 0x7157) | 1;
	if (rnd(&tidy, 2))
		return 0;	/* exit with everything open and mapped */
	for (i = 0; i < NMAP; i++)
		if (P.maps[i].addr)
			munmap(P.maps[i].addr, P.maps[i].len);
	for (i = 0; i < NBUF; i++)
		if (P.bufs[i] >= 0)
			close(P.bufs[i]);
	for (i = 0; i < NFD; i++)
		if (P.fds[i] >= 0)
			close(P.fds[i]);
	return 0;
}

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

static void usage(void)
{
	fprintf(stderr, "usage: ta_e2e_stress [--seed N] [--ops N] [--procs N] [--threads N] [--seconds N] [--no-inject]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_PROCS];
	struct ta_info info = { 0 };
	struct ta_plan_get g = { 0 };
	struct rawnl_result nr = { 0 };
	char first[96];
	int i, fd, nl, status, crashed = 0, hung = 0, get_err, fi = 0;
	unsigned long total = 0, inj = 0, fails = 0, noops = 0, worked = 0;
	double t0 = now_s(), waited;
	unsigned int k, idle = 0, lazy = 0;
	bool want_inject;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

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
	want_inject = inject;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("e2e: stress seed=%llu procs=%u threads=%u ops=%lu seconds=%u inject=%s\n",
	       seed, n_procs, n_threads, max_ops, seconds,
	       inject ? "fail-nth" : "off");

	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, TA_IOCTL_INFO, &info)) {
		report(false, "stress: /dev/tensorarena: %s", strerror(errno));
		return 1;
	}
	arena_size = info.arena_size;
	nl = rawnl_open();
	i = nl < 0 ? nl : rawnl_resolve(nl, TA_NL_FAMILY_NAME);
	if (nl >= 0)
		close(nl);
	if (i <= 0) {
		report(false, "stress: netlink family: %s", strerror(-i));
		return 1;
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
	if (sh == MAP_FAILED)
		return 1;
	sh->deadline = t0 + seconds;
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
	close(fd);

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
	report(!crashed && !hung,
	       "stress: every worker ran to its end (%d crashed, %d hung; seed=%llu)",
	       crashed, hung, seed);
	/*
	 * Not a pass with nothing done: every kind ran and did work (a
	 * create that made a plan, a destroy that destroyed one, ...), and
	 * the calls that did work are ten per kind at least and half of
	 * the operations run (refusals and no-ops do not count).
	 */
	report(!idle && total >= 10 * N_OPS,
	       "stress: %lu operations, every one of the %u kinds (%u never ran)",
	       total, (unsigned int)N_OPS, idle);
	report(!lazy && worked >= 10 * N_OPS && worked >= total / 2,
	       "stress: %lu operations did work (at least %lu wanted), every kind did some (%u did none)",
	       worked, total / 2 > 10 * N_OPS ? total / 2 : 10UL * N_OPS, lazy);
	if (want_inject)
		report(inject && fi && inj > 0,
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
	report(!sh->n_unexpected,
	       "stress: every failure had an errno its operation may give (%u did not%s; seed=%llu)",
	       sh->n_unexpected, first, seed);

	/* Everything is closed: the arena must be whole again. */
	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	for (i = 0; i < 100; i++) {
		memset(&info, 0, sizeof(info));
		if (ioctl(fd, TA_IOCTL_INFO, &info) ||
		    (!info.n_plans && !info.bytes_in_use))
			break;
		usleep(20000);
	}
	if (i)
		printf("# the arena emptied %d ms after the last process\n", i * 20);
	report(info.n_plans == 0 && info.bytes_in_use == 0 &&
	       info.largest_free == info.arena_size,
	       "stress: arena empty after every fd, mapping and dma-buf closed (plans %u, bytes_in_use %llu, largest free %llu of %llu; seed=%llu)",
	       info.n_plans, (unsigned long long)info.bytes_in_use,
	       (unsigned long long)info.largest_free,
	       (unsigned long long)info.arena_size, seed);
	report(sysfs_bytes_in_use() == 0, "stress: sysfs bytes_in_use 0 (%lld)",
	       sysfs_bytes_in_use());
	g.flags = TA_GET_NEXT;
	get_err = ioctl(fd, TA_IOCTL_PLAN_GET, &g) ? errno : 0;
	report(get_err == ENOENT,
	       "stress: no orphaned plan: the plan list is empty (first: %s, id %u)",
	       get_err ? strerror(get_err) : "a plan", g.plan_id);
	close(fd);
	nl = rawnl_open();
	i = nl < 0 ? nl : rawnl_dump_plans(nl, nl_family, &nr);
	report(!i && nr.msgs == 0,
	       "stress: no orphaned plan: the netlink dump is empty (%u plans, %s)",
	       nr.msgs, strerror(-i));
	i = nl < 0 ? nl : rawnl_info(nl, nl_family, &nr);
	report(!i && nr.n_plans == 0 && nr.bytes_in_use == 0,
	       "stress: netlink info agrees (plans %llu, bytes_in_use %llu)",
	       (unsigned long long)nr.n_plans,
	       (unsigned long long)nr.bytes_in_use);
	if (nl >= 0)
		close(nl);
	printf("# stress: %.1f s in all\n", now_s() - t0);
	return failures ? 1 : 0;
}
