// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e.c - end-to-end tests of /dev/tensorarena from userspace, run inside
 * the test VM with the module loaded. One line per test:
 *   e2e: ok - NAME            or            e2e: not ok - NAME: WHY
 *
 * usage: ta_e2e ARENA_SIZE_BYTES
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/tensorarena.h>

static int e2e_fd = -1;
static unsigned long long e2e_arena_size;
static int e2e_failures;

static void e2e_report(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("e2e: ok - %s\n", name);
	} else {
		printf("e2e: not ok - %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		e2e_failures++;
	}
	fflush(stdout);
}

/* ioctl returning -errno or 0. */
static int e2e_ioctl(unsigned long cmd, void *arg)
{
	return ioctl(e2e_fd, cmd, arg) < 0 ? -errno : 0;
}

static void test_info_fields(void)
{
	struct ta_info info;
	long page = sysconf(_SC_PAGESIZE);
	int err;

	memset(&info, 0, sizeof(info));
	err = e2e_ioctl(TA_IOCTL_INFO, &info);
	e2e_report("info: succeeds", !err, "errno %d", -err);
	e2e_report("info: abi version", info.abi_version == TA_ABI_VERSION,
		   "got %u", info.abi_version);
	e2e_report("info: arena size", info.arena_size == e2e_arena_size,
		   "got %llu, want %llu", (unsigned long long)info.arena_size,
		   e2e_arena_size);
	e2e_report("info: nothing in use", info.bytes_in_use == 0,
		   "got %llu", (unsigned long long)info.bytes_in_use);
	e2e_report("info: page size", info.page_size == (unsigned int)page,
		   "got %u, want %ld", info.page_size, page);
	e2e_report("info: alignment is a power of two >= page size",
		   info.alignment >= (unsigned long long)page &&
		   !(info.alignment & (info.alignment - 1)),
		   "got %llu", (unsigned long long)info.alignment);
}

static void test_info_rejects_nonzero(void)
{
	struct ta_info info;
	unsigned int i;
	int err;

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	err = e2e_ioctl(TA_IOCTL_INFO, &info);
	e2e_report("info: flags != 0 -> EINVAL", err == -EINVAL, "got %d", err);

	for (i = 0; i < sizeof(info.reserved) / sizeof(info.reserved[0]); i++) {
		char name[64];

		memset(&info, 0, sizeof(info));
		info.reserved[i] = 1ULL << 63;
		err = e2e_ioctl(TA_IOCTL_INFO, &info);
		snprintf(name, sizeof(name),
			 "info: reserved[%u] != 0 -> EINVAL", i);
		e2e_report(name, err == -EINVAL && info.arena_size == 0,
			   "got %d, arena_size %llu", err,
			   (unsigned long long)info.arena_size);
	}
}

static void test_ioctl_numbers(void)
{
	unsigned char buf[256];
	int err;

	memset(buf, 0, sizeof(buf));
	err = e2e_ioctl(_IOWR(TA_IOCTL_BASE, 0x7f, struct ta_info), buf);
	e2e_report("ioctl: unknown number -> ENOTTY", err == -ENOTTY,
		   "got %d", err);
	err = e2e_ioctl(_IOWR('x', 0x00, struct ta_info), buf);
	e2e_report("ioctl: foreign type -> ENOTTY", err == -ENOTTY,
		   "got %d", err);
	err = e2e_ioctl(_IOR(TA_IOCTL_BASE, 0x00, struct ta_info), buf);
	e2e_report("ioctl: wrong direction -> ENOTTY", err == -ENOTTY,
		   "got %d", err);
	err = e2e_ioctl(_IO(TA_IOCTL_BASE, 0x00), NULL);
	e2e_report("ioctl: no argument -> ENOTTY", err == -ENOTTY,
		   "got %d", err);
	err = e2e_ioctl(_IOWR(TA_IOCTL_BASE, 0x00, __u64), buf);
	e2e_report("ioctl: truncated struct -> EINVAL", err == -EINVAL,
		   "got %d", err);
}

static void test_info_sizes(void)
{
	unsigned char buf[sizeof(struct ta_info) + 64];
	struct ta_info *info = (struct ta_info *)buf;
	unsigned long bigger = _IOWR(TA_IOCTL_BASE, 0x00, buf);
	int err;

	memset(buf, 0, sizeof(buf));
	err = e2e_ioctl(bigger, buf);
	e2e_report("info: larger struct with zero tail accepted",
		   !err && info->arena_size == e2e_arena_size,
		   "got %d", err);

	memset(buf, 0, sizeof(buf));
	buf[sizeof(buf) - 1] = 1;
	err = e2e_ioctl(bigger, buf);
	e2e_report("info: larger struct with non-zero tail -> E2BIG",
		   err == -E2BIG && info->arena_size == 0, "got %d", err);
}

static void test_info_bad_pointers(void)
{
	void *unmapped;
	int err;

	err = e2e_ioctl(TA_IOCTL_INFO, NULL);
	e2e_report("info: NULL pointer -> EFAULT", err == -EFAULT,
		   "got %d", err);

	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (unmapped == MAP_FAILED) {
		e2e_report("info: unmapped pointer -> EFAULT", false,
			   "mmap: %s", strerror(errno));
		return;
	}
	munmap(unmapped, 4096);
	err = e2e_ioctl(TA_IOCTL_INFO, unmapped);
	e2e_report("info: unmapped pointer -> EFAULT", err == -EFAULT,
		   "got %d", err);

	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	err = e2e_ioctl(TA_IOCTL_INFO, unmapped);
	e2e_report("info: read-only buffer -> EFAULT", err == -EFAULT,
		   "got %d", err);
	munmap(unmapped, 4096);
}


/* A small graph with a skip connection and a constant:
 *   op0: t0(in), c5(const) -> t1
 *   op1: t1 -> t2
 *   op2: t2, t1 -> t3
 *   op3: t3 -> t4(out)
 */
static struct ta_tensor g_tensors[] = {
	{ .size = 1000, .align = 64, .flags = TA_TENSOR_INPUT },
	{ .size = 2000, .align = 64 },
	{ .size = 3000, .align = 64 },
	{ .size = 1500, .align = 64 },
	{ .size = 500, .align = 64, .flags = TA_TENSOR_OUTPUT },
	{ .size = 100, .align = 16, .flags = TA_TENSOR_CONSTANT },
};
static struct ta_op g_ops[] = {
	{ .first_ref = 0, .n_inputs = 2, .n_outputs = 1 },
	{ .first_ref = 3, .n_inputs = 1, .n_outputs = 1 },
	{ .first_ref = 5, .n_inputs = 2, .n_outputs = 1 },
	{ .first_ref = 8, .n_inputs = 1, .n_outputs = 1 },
};
static __u32 g_refs[] = { 0, 5, 1, 1, 2, 2, 1, 3, 3, 4 };
#define G_TENSORS (sizeof(g_tensors) / sizeof(g_tensors[0]))
/* Lifetimes [start, end) the graph form implies (see ta_graph_lifetimes). */
static const __u32 g_life[G_TENSORS][2] = {
	{ 0, 1 }, { 0, 3 }, { 1, 3 }, { 2, 4 }, { 3, 4 }, { 0, 4 },
};

static struct ta_plan_create graph_request(__u32 strategy)
{
	struct ta_plan_create c;

	memset(&c, 0, sizeof(c));
	c.strategy = strategy;
	c.tensors = (uintptr_t)g_tensors;
	c.n_tensors = G_TENSORS;
	c.tensor_size = sizeof(struct ta_tensor);
	c.ops = (uintptr_t)g_ops;
	c.n_ops = sizeof(g_ops) / sizeof(g_ops[0]);
	c.op_size = sizeof(struct ta_op);
	c.refs = (uintptr_t)g_refs;
	c.n_refs = sizeof(g_refs) / sizeof(g_refs[0]);
	return c;
}

static int info_now(struct ta_info *info)
{
	memset(info, 0, sizeof(*info));
	return e2e_ioctl(TA_IOCTL_INFO, info);
}

static int get_placements(__u32 id, struct ta_placement *pl, __u32 n,
			  struct ta_plan_get *g)
{
	memset(g, 0, sizeof(*g));
	g->plan_id = id;
	g->placements = (uintptr_t)pl;
	g->n_placements = n;
	g->placement_size = sizeof(*pl);
	return e2e_ioctl(TA_IOCTL_PLAN_GET, g);
}

static bool placements_valid(const struct ta_placement *pl, __u64 height)
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
static bool run_patterns(unsigned char *map, const struct ta_placement *pl)
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

static void test_plan_lifecycle(void)
{
	static const char *const names[] = {
		"auto", "pingpong", "stack", "freelist", "greedy-size",
	};
	struct ta_placement pl[G_TENSORS];
	struct ta_plan_create c;
	struct ta_plan_destroy d;
	struct ta_plan_get g;
	struct ta_info info;
	unsigned int s, i;
	char name[96];
	int err;

	for (s = 0; s < 5; s++) {
		unsigned char *map;
		bool zero = true, pattern = false;

		c = graph_request(s);
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		snprintf(name, sizeof(name), "plan %s: create", names[s]);
		e2e_report(name, !err && c.plan_id && c.height >= c.lower_bound &&
			   c.lower_bound == 6600 &&
			   c.mmap_offset == (__u64)c.plan_id * getpagesize(),
			   "err %d id %u height %llu lb %llu", err, c.plan_id,
			   (unsigned long long)c.height,
			   (unsigned long long)c.lower_bound);
		if (err)
			continue;

		info_now(&info);
		snprintf(name, sizeof(name), "plan %s: arena use and count", names[s]);
		e2e_report(name, info.n_plans == 1 &&
			   info.bytes_in_use == ((c.height + getpagesize() - 1) &
						 ~(__u64)(getpagesize() - 1)),
			   "n_plans %u in use %llu", info.n_plans,
			   (unsigned long long)info.bytes_in_use);

		err = get_placements(c.plan_id, pl, G_TENSORS, &g);
		snprintf(name, sizeof(name), "plan %s: placements valid", names[s]);
		e2e_report(name, !err && g.n_placements == G_TENSORS &&
			   g.height == c.height && g.strategy == s &&
			   placements_valid(pl, c.height),
			   "err %d n %u", err, g.n_placements);

		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   e2e_fd, c.mmap_offset);
		snprintf(name, sizeof(name), "plan %s: mmap", names[s]);
		e2e_report(name, map != MAP_FAILED, "%s", strerror(errno));
		if (map != MAP_FAILED) {
			for (i = 0; i < c.height; i++)
				zero &= !map[i];
			pattern = run_patterns(map, pl);
			munmap(map, c.height);
			snprintf(name, sizeof(name), "plan %s: new slice is zeroed", names[s]);
			e2e_report(name, zero, "non-zero byte");
			snprintf(name, sizeof(name),
				 "plan %s: no live tensor overwritten (mmap)", names[s]);
			e2e_report(name, pattern, "a live tensor lost its bytes");
		}

		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
		info_now(&info);
		snprintf(name, sizeof(name), "plan %s: destroy returns the memory", names[s]);
		e2e_report(name, !err && info.n_plans == 0 &&
			   info.bytes_in_use == 0 &&
			   info.largest_free == info.arena_size,
			   "err %d n_plans %u in use %llu", err, info.n_plans,
			   (unsigned long long)info.bytes_in_use);
		err = get_placements(c.plan_id, pl, G_TENSORS, &g);
		snprintf(name, sizeof(name), "plan %s: gone after destroy", names[s]);
		e2e_report(name, err == -ENOENT, "got %d", err);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ta_e2e ARENA_SIZE_BYTES\n");
		return 2;
	}
	e2e_arena_size = strtoull(argv[1], NULL, 0);
	e2e_fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	e2e_report("open /dev/tensorarena", e2e_fd >= 0, "%s",
		   strerror(errno));
	if (e2e_fd < 0)
		return 1;

	test_info_fields();
	test_info_rejects_nonzero();
	test_ioctl_numbers();
	test_info_sizes();
	test_info_bad_pointers();
	test_plan_lifecycle();

	close(e2e_fd);
	return e2e_failures ? 1 : 0;
}
