// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_stress_proc.c - ta_e2e_stress's other operations (touching the
 * mappings, export, DMA_BUF_IOCTL_SYNC, closes and opens, netlink, INFO,
 * fork), a thread's loop of random operations and a worker process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>

#include "ta_harness.h"
#include "ta_e2e_rawnl.h"
#include "ta_e2e_stress.h"
#include "ta_e2e_graph.h"

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
int proc_main(int index, int shared_fd)
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

