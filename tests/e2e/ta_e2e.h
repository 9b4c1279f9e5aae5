/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e.h - what the files of ta_e2e (ta_e2e.c and ta_e2e_plan.c, _owner.c,
 * _export.c, _limits.c) share: the harness, the "dev" fixture (a descriptor
 * of /dev/tensorarena of its own per test, opened read-write), the small
 * graph and the helpers around it, the module's parameters, a uid switch.
 */
#ifndef TA_E2E_H
#define TA_E2E_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/tensorarena.h>

#include "ta_harness.h"
#include "ta_e2e_dev.h"		/* xioctl() */
#include "ta_e2e_graph.h"
#include "ta_e2e_param.h"

/* The arena's size, the program's argument (ta_e2e.c). */
extern unsigned long long e2e_arena_size;

/*
 * CHECK() of a named check: "NAME" when @ok, "NAME: WHY" when not (WHY
 * from the format). The name is the same either way: tests/results.py
 * --same compares the names of passed checks across kernels.
 */
static inline void __attribute__((format(printf, 3, 4)))
ta_e2e_check_why(bool ok, const char *name, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	if (ok) {
		CHECK(true, "%s", name);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	CHECK(false, "%s: %s", name, why);
}

#define CHECK_WHY(ok, name, ...) ta_e2e_check_why(!!(ok), name, __VA_ARGS__)

/* Each test's own read-write descriptor of the device. */
FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (self->fd < 0) {
		CHECK(false, "open /dev/tensorarena: %s", strerror(errno));
		SKIP("no /dev/" TA_DEVICE_NAME);
	}
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Lifetimes [start, end) the graph form implies (see ta_graph_lifetimes). */
static const __u32 g_life[G_TENSORS][2] = {
	{ 0, 1 }, { 0, 3 }, { 1, 3 }, { 2, 4 }, { 3, 4 }, { 0, 4 },
};

/* The arena's figures through @fd. */
static inline int info_now(int fd, struct ta_info *info)
{
	memset(info, 0, sizeof(*info));
	return xioctl(fd, TA_IOCTL_INFO, info);
}

/* PLAN_GET of plan @id's first @n placements into @pl. */
static inline int get_placements(int fd, __u32 id, struct ta_placement *pl,
				 __u32 n, struct ta_plan_get *g)
{
	memset(g, 0, sizeof(*g));
	g->plan_id = id;
	g->placements = (uintptr_t)pl;
	g->n_placements = n;
	g->placement_size = sizeof(*pl);
	return xioctl(fd, TA_IOCTL_PLAN_GET, g);
}

static inline bool placements_valid(const struct ta_placement *pl, __u64 height)
{
	unsigned int i, j;

	for (i = 0; i < G_TENSORS; i++) {
		if (pl[i].size != g_tensors[i].size ||
		    pl[i].offset % g_tensors[i].align ||
		    pl[i].offset + pl[i].size > height)
			return false;
		for (j = 0; j < i; j++) {
			bool live = g_life[i][0] < g_life[j][1] &&
				    g_life[j][0] < g_life[i][1];
			bool apart = pl[i].offset + pl[i].size <= pl[j].offset ||
				     pl[j].offset + pl[j].size <= pl[i].offset;

			if (live && !apart)
				return false;
		}
	}
	return true;
}

/*
 * Walk the graph's steps through the mapping: at each step write a pattern
 * into every tensor born there, then check every tensor live at that step
 * still holds its own. Any overlap of two live tensors breaks one.
 */
static inline bool run_patterns(unsigned char *map, const struct ta_placement *pl)
{
	unsigned int step, i, k;

	for (step = 0; step < 4; step++) {
		for (i = 0; i < G_TENSORS; i++)
			if (g_life[i][0] == step)
				memset(map + pl[i].offset, 0xA0 + i, pl[i].size);
		for (i = 0; i < G_TENSORS; i++) {
			if (g_life[i][0] > step || g_life[i][1] <= step)
				continue;
			for (k = 0; k < pl[i].size; k++)
				if (map[pl[i].offset + k] != (unsigned char)(0xA0 + i))
					return false;
		}
	}
	return true;
}

/* Read or write one of the module's parameters; -1 / false on failure. */
static inline long long param_read(const char *name)
{
	return ta_e2e_param_read(name);
}

static inline bool param_write(const char *name, const char *value)
{
	char path[128];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	f = fopen(path, "w");
	if (!f)
		return false;
	ok = fputs(value, f) >= 0;
	ok = (fclose(f) == 0) && ok;
	return ok;
}

/* Run @fn in a child as @uid with group @gid only; its exit status. */
static inline int as_user(uid_t uid, gid_t gid, int (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(gid) || setuid(uid))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 200;
}

#endif /* TA_E2E_H */
