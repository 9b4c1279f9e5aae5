/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_exhaust.h - what the files of ta_e2e_exhaust share: the users,
 * the cgroup, the module's parameters, a child that answers through a pipe,
 * and the fixture of every test. ta_e2e_exhaust.c holds the helpers, the
 * plan and byte limits and the program; ta_e2e_exhaust_mem.c the memory
 * cgroup's charge and what one create holds; ta_e2e_exhaust_ns.c the user
 * and network namespaces.
 */
#ifndef TA_E2E_EXHAUST_H
#define TA_E2E_EXHAUST_H

#include <stdbool.h>
#include <sys/types.h>

#include <linux/tensorarena.h>

#include "ta_harness.h"

#define PARAMS	"/sys/module/tensorarena/parameters/"
#define CG_TA	CG "/ta-exhaust"
#define UID_A	1000
#define UID_B	1001

/* Lifetime-form plans: @n buffers of @size bytes, all live at once. */
#define BIG_N	16384
/* what one create of the largest request may hold (test_create_peak()) */
#define PEAK_BOUND	(64 << 20)

/* The device's group, which the test users join (the fixture reads it). */
extern gid_t dev_gid;
/* The buffers of create_lifetimes(), also cleared by the memcg worker. */
extern struct ta_lifetime big[BIG_N];

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

int create_graph(int fd, __u32 *id);
int create_lifetimes(int fd, unsigned int n, __u64 size, __u32 *id);
int write_ll(const char *path, long long v);
void param_set(const char *name, long long v);
long long param_get(const char *name);
void become(uid_t uid);
int klog_count(const char *what);
void child_start(struct child *c, void (*fn)(struct child *, void *),
		 void *arg);
void child_say(struct child *c, const void *buf, size_t n);
void child_wait_go(struct child *c);
ssize_t child_hear(struct child *c, void *buf, size_t n);
int child_end(struct child *c);
const char *errname(int err);
bool cgroup_setup(void);
void cgroup_join(void);

/*
 * The fixture of every test: the device's group read, the limits the tests
 * change saved and restored after the test, its memory cgroup removed.
 * Each child opens its own descriptors.
 */
FIXTURE(exhaust) {
	long long saved[4];
};

void exhaust_fixture_setup(long long *saved);
void exhaust_fixture_teardown(const long long *saved);

#define EXHAUST_FIXTURE							\
	FIXTURE_SETUP(exhaust)						\
	{								\
		exhaust_fixture_setup(self->saved);			\
	}								\
	FIXTURE_TEARDOWN(exhaust)					\
	{								\
		exhaust_fixture_teardown(self->saved);			\
	}

#endif /* TA_E2E_EXHAUST_H */
