/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_stress.h - what the files of ta_e2e_stress share: the operations
 * and the errnos each may give, the counters every process shares, a
 * process's tables and a thread's state. ta_e2e_stress.c holds the options
 * and the tests, ta_e2e_stress_ops.c the random choices, the fault
 * injection and the plan and mapping operations, ta_e2e_stress_proc.c the
 * other operations, the threads and the worker processes.
 */
#ifndef TA_E2E_STRESS_H
#define TA_E2E_STRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/tensorarena.h>

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


/*
 * What an operation returns when it found nothing to act on (no plan, no
 * descriptor, no mapping, no dma-buf; a plan of no memory to export): not
 * a failure, and no work either. Calls that did work are the calls less
 * these and the failed ones, and they are what the run must have enough of.
 */
#define NOOP (-1)

/* The options (ta_e2e_stress.c) and what the run found out. */
extern struct shared *sh;
extern unsigned long max_ops;
extern unsigned int n_procs, n_threads, seconds;
extern unsigned long long seed;
extern bool inject;
extern unsigned long long arena_size;
extern uint16_t nl_family;

/* ---- per process ---- */

struct plan_ent { __u32 id; __u64 slice; };
struct map_ent { unsigned char *addr; size_t len; };

struct proc {
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
};
/* This process's tables (ta_e2e_stress_ops.c). */
extern struct proc P;

struct thread {
	int index;
	uint64_t rng;
	int fail_nth;		/* /proc/thread-self/fail-nth */
	bool armed;
};

/* ta_e2e_stress_ops.c */
uint64_t splitmix(uint64_t x);
uint32_t rnd(struct thread *t, uint32_t n);
int fi_set(bool on);
void arm(struct thread *t);
bool disarm(struct thread *t);
void note(struct thread *t, int op, int err, bool injected,
	  unsigned long opno);
int pick_fd(struct thread *t, bool *rw);
bool pick_plan(struct thread *t, struct plan_ent *out, bool take);
int pick_map_locked(struct thread *t);
void add_map_locked(unsigned char *addr, size_t len);
int fd_ioctl(struct thread *t, unsigned long cmd, void *arg,
	     bool *injected);
int do_create(struct thread *t, bool *injected);
int do_destroy(struct thread *t, bool *injected);
int do_get(struct thread *t, bool *injected);
int do_mmap(struct thread *t, bool *injected);
int do_munmap(struct thread *t, bool *injected);
int do_mremap(struct thread *t, bool *injected);

/* ta_e2e_stress_proc.c: one worker process; its exit status. */
int proc_main(int index, int shared_fd);

#endif /* TA_E2E_STRESS_H */
