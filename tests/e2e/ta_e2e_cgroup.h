/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_cgroup.h - a memory cgroup of its own for an end-to-end test: made
 * fresh under the cgroup2 root (mounted if the VM has not), joined by a
 * child process, and its figures read (memory.current, memory.peak,
 * memory.events). Included once per program.
 */
#ifndef TA_E2E_CGROUP_H
#define TA_E2E_CGROUP_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CG	"/sys/fs/cgroup"

/* Write @s to @path (a cgroup or sysfs knob): 0 or -errno. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/*
 * The number in @path (@key NULL), or the one after "@key " on its line
 * (memory.events); -1 when there is none.
 */
static inline long long read_ll(const char *path, const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = strtoll(line, NULL, 0);
			break;
		}
		if (!strncmp(line, key, strlen(key)) &&
		    line[strlen(key)] == ' ') {
			v = strtoll(line + strlen(key) + 1, NULL, 0);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * A fresh memory cgroup @dir (a path under CG), without a limit. False,
 * with the reason printed as a comment, when the kernel cannot give one.
 */
static inline bool cg_memory_make(const char *dir)
{
	char path[256];

	mkdir(CG, 0755);
	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("none", CG, "cgroup2", 0, NULL)) {
		printf("# mount cgroup2: %s\n", strerror(errno));
		return false;
	}
	if (write_str(CG "/cgroup.subtree_control", "+memory")) {
		printf("# +memory: %s\n", strerror(errno));
		return false;
	}
	rmdir(dir);
	if (mkdir(dir, 0755)) {
		printf("# mkdir %s: %s\n", dir, strerror(errno));
		return false;
	}
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	return !write_str(path, "max");
}

/* Move the calling process into @dir: 0 or -errno. */
static inline int cg_join(const char *dir)
{
	char path[256], pid[16];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_str(path, pid);
}

/* @dir's @file (memory.current, memory.peak): the number, or -1. */
static inline long long cg_read(const char *dir, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return read_ll(path, NULL);
}

/*
 * What memory.current may be off by, in bytes: each CPU keeps up to a
 * charge batch of pages (MEMCG_CHARGE_BATCH, 64) charged to the cgroup
 * but not yet used, and less than a page of object charge beside them.
 * A charge may be taken from that stock without memory.current rising,
 * and an uncharge may go into it without memory.current falling.
 */
static inline long long cg_stock_slack(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	long page = sysconf(_SC_PAGESIZE);

	return (cpus > 0 ? cpus : 1) * (64LL + 1) * (page > 0 ? page : 4096);
}

/*
 * Wait up to @ms milliseconds for @dir's memory.current to fall to @below
 * or under (work that ends in a kernel worker uncharges after the fence
 * that announced its end): the last reading, or -1.
 */
static inline long long cg_wait_below(const char *dir, long long below,
				      int ms)
{
	struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	long long cur = cg_read(dir, "memory.current");

	for (; cur > below && ms > 0; ms -= 20) {
		nanosleep(&tick, NULL);
		cur = cg_read(dir, "memory.current");
	}
	return cur;
}

#endif /* TA_E2E_CGROUP_H */
