// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_stress_ops.c - ta_e2e_stress's threads' random choices, the
 * fault injection through /proc/thread-self/fail-nth, the bookkeeping of
 * each call's errno, the process's tables of descriptors, plans and
 * mappings, and the operations on plans and mappings: create, destroy,
 * get, mmap, munmap, mremap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_stress.h"
#include "ta_e2e_graph.h"

struct proc P;

uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint32_t rnd(struct thread *t, uint32_t n)
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

int fi_set(bool on)
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
void arm(struct thread *t)
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
bool disarm(struct thread *t)
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

void note(struct thread *t, int op, int err, bool injected,
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
int pick_fd(struct thread *t, bool *rw)
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

bool pick_plan(struct thread *t, struct plan_ent *out, bool take)
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
int pick_map_locked(struct thread *t)
{
	int i, k = rnd(t, NMAP);

	for (i = 0; i < NMAP; i++)
		if (P.maps[(k + i) % NMAP].addr)
			return (k + i) % NMAP;
	return -1;
}

/* Under P.lock: a free map slot for @addr, or unmap it again. */
void add_map_locked(unsigned char *addr, size_t len)
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
int fd_ioctl(struct thread *t, unsigned long cmd, void *arg,
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

int do_create(struct thread *t, bool *injected)
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

int do_destroy(struct thread *t, bool *injected)
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

int do_get(struct thread *t, bool *injected)
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

int do_mmap(struct thread *t, bool *injected)
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

int do_munmap(struct thread *t, bool *injected)
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

int do_mremap(struct thread *t, bool *injected)
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

