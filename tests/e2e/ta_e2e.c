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
#include <sys/stat.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-buf.h>
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
	/* Run as root: the DMA addresses are filled in. */
	e2e_report("info: root sees the arena's DMA range under the device's limit",
		   info.dma_limit &&
		   info.dma_limit >= info.dma_base + info.arena_size - 1,
		   "dma_base 0x%llx, dma_limit 0x%llx",
		   (unsigned long long)info.dma_base,
		   (unsigned long long)info.dma_limit);
}

static void test_info_rejects_nonzero(void)
{
	struct ta_info info;
	int err;

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	err = e2e_ioctl(TA_IOCTL_INFO, &info);
	e2e_report("info: flags != 0 -> EINVAL", err == -EINVAL, "got %d", err);

	memset(&info, 0, sizeof(info));
	info.reserved = 1ULL << 63;
	err = e2e_ioctl(TA_IOCTL_INFO, &info);
	e2e_report("info: reserved != 0 -> EINVAL", err == -EINVAL && info.arena_size == 0,
		   "got %d, arena_size %llu", err,
		   (unsigned long long)info.arena_size);
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
#include "ta_e2e_graph.h"
#include "ta_e2e_param.h"
/* Lifetimes [start, end) the graph form implies (see ta_graph_lifetimes). */
static const __u32 g_life[G_TENSORS][2] = {
	{ 0, 1 }, { 0, 3 }, { 1, 3 }, { 2, 4 }, { 3, 4 }, { 0, 4 },
};

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

		c = ta_e2e_graph_request(s);
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		snprintf(name, sizeof(name), "plan %s: create", names[s]);
		e2e_report(name, !err && c.plan_id && c.height >= c.lower_bound &&
			   /*
			    * 6600 live at step 2, every offset a multiple
			    * of 16: the sizes below the top one round up
			    * to 16, at best 6612 (the constant on top)
			    */
			   c.lower_bound == 6612 &&
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

/* One row of the bad-input table: break a good request, expect an errno. */
struct bad_row {
	const char *name;
	int err;
	void (*breakit)(struct ta_plan_create *c);
};

static struct ta_tensor b_tensors[G_TENSORS];
static struct ta_op b_ops[4];
static __u32 b_refs[10];
static struct ta_lifetime b_life[3];
static unsigned char b_wide[G_TENSORS][sizeof(struct ta_tensor) + 8];

static void use_copies(struct ta_plan_create *c)
{
	memcpy(b_tensors, g_tensors, sizeof(g_tensors));
	memcpy(b_ops, g_ops, sizeof(g_ops));
	memcpy(b_refs, g_refs, sizeof(g_refs));
	c->tensors = (uintptr_t)b_tensors;
	c->ops = (uintptr_t)b_ops;
	c->refs = (uintptr_t)b_refs;
}

static void use_lifetimes(struct ta_plan_create *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 3; i++) {
		b_life[i].size = 4096;
		b_life[i].align = 64;
		b_life[i].start = i;
		b_life[i].end = i + 2;
	}
	c->flags = TA_CREATE_LIFETIMES;
	c->tensors = (uintptr_t)b_life;
	c->n_tensors = 3;
	c->tensor_size = sizeof(struct ta_lifetime);
}

static void bad_flags(struct ta_plan_create *c) { c->flags = 0x80; }
static void bad_strategy(struct ta_plan_create *c) { c->strategy = 5; }
static void bad_reserved(struct ta_plan_create *c) { c->reserved = 1; }
static void bad_pad(struct ta_plan_create *c) { c->pad = 1; }
static void bad_count(struct ta_plan_create *c) { c->n_tensors = 0x7fffffff; }
static void bad_ops_count(struct ta_plan_create *c) { c->n_ops = 0xffffffff; }
static void bad_refs_count(struct ta_plan_create *c) { c->n_refs = 0xffffffff; }
static void bad_tsize_small(struct ta_plan_create *c) { c->tensor_size = 8; }
static void bad_osize_small(struct ta_plan_create *c) { c->op_size = 4; }
static void bad_tensors_null(struct ta_plan_create *c) { c->tensors = 0; }
static void bad_ops_null(struct ta_plan_create *c) { c->ops = 0; }
static void bad_refs_unmapped(struct ta_plan_create *c) { c->refs = 0x10; }
static void bad_tensors_kernel(struct ta_plan_create *c)
{
	c->tensors = 0xffff888000000000ULL;
}

static void bad_wide_tail(struct ta_plan_create *c)
{
	unsigned int i;

	memset(b_wide, 0, sizeof(b_wide));
	for (i = 0; i < G_TENSORS; i++)
		memcpy(b_wide[i], &g_tensors[i], sizeof(g_tensors[i]));
	b_wide[2][sizeof(struct ta_tensor) + 3] = 1;
	c->tensors = (uintptr_t)b_wide;
	c->tensor_size = sizeof(b_wide[0]);
}

static void bad_ref_range(struct ta_plan_create *c)
{
	use_copies(c);
	b_refs[4] = G_TENSORS;
}

static void bad_unreferenced(struct ta_plan_create *c)
{
	use_copies(c);
	/* op1 now writes t3 instead of t2: t2 is referenced by nothing but
	 * op2's read of it, before anyone wrote it.
	 */
	b_refs[4] = 3;
}

static void bad_op_range(struct ta_plan_create *c)
{
	use_copies(c);
	b_ops[3].first_ref = 9;
}

static void bad_op_order(struct ta_plan_create *c)
{
	use_copies(c);
	/* op1 reads t2, which only op2... is never produced before. */
	b_refs[3] = 3;
}

static void bad_align(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].align = 48;
}

static void bad_huge_align(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].align = 1ULL << 40;
}

static void bad_tensor_flags(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].flags = 0x100;
}

static void bad_tensor_pad(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].pad = 1;
}

static void bad_op_pad(struct ta_plan_create *c)
{
	use_copies(c);
	b_ops[1].flags = 0x80;
}

static void bad_huge_sizes(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].size = 1ULL << 62;
	b_tensors[2].size = 1ULL << 62;
}

static void bad_size_2_63(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[1].size = 1ULL << 63;
}

static void bad_too_tall(struct ta_plan_create *c)
{
	use_copies(c);
	b_tensors[2].size = 1ULL << 40;
}

static void bad_budget(struct ta_plan_create *c)
{
	c->budget_ns = 1000ULL * 1000 * 1000 * 1000;
}

static void bad_life_order(struct ta_plan_create *c)
{
	use_lifetimes(c);
	b_life[1].end = b_life[1].start;
}

static void bad_life_with_ops(struct ta_plan_create *c)
{
	use_lifetimes(c);
	c->n_ops = 1;
	c->ops = (uintptr_t)g_ops;
	c->op_size = sizeof(struct ta_op);
}

static void bad_life_align(struct ta_plan_create *c)
{
	use_lifetimes(c);
	b_life[2].align = 3;
}

static const struct bad_row bad_rows[] = {
	{ "unknown create flag", -EINVAL, bad_flags },
	{ "unknown strategy", -EINVAL, bad_strategy },
	{ "reserved != 0", -EINVAL, bad_reserved },
	{ "pad != 0", -EINVAL, bad_pad },
	{ "tensor count over max_tensors", -E2BIG, bad_count },
	{ "op count over max_ops", -E2BIG, bad_ops_count },
	{ "ref count over max_refs", -E2BIG, bad_refs_count },
	{ "tensor_size below v1", -EINVAL, bad_tsize_small },
	{ "op_size below v1", -EINVAL, bad_osize_small },
	{ "tensors NULL", -EFAULT, bad_tensors_null },
	{ "ops NULL", -EFAULT, bad_ops_null },
	{ "refs unmapped", -EFAULT, bad_refs_unmapped },
	{ "tensors a kernel address", -EFAULT, bad_tensors_kernel },
	{ "wider tensor struct, non-zero tail", -E2BIG, bad_wide_tail },
	{ "reference to a nonexistent tensor", -EINVAL, bad_ref_range },
	{ "tensor produced twice", -EINVAL, bad_unreferenced },
	{ "op refs out of range", -EINVAL, bad_op_range },
	{ "tensor read before produced (ops out of order)", -EINVAL, bad_op_order },
	{ "alignment not a power of two", -EINVAL, bad_align },
	{ "alignment above 2^32", -E2BIG, bad_huge_align },
	{ "unknown tensor flag", -EINVAL, bad_tensor_flags },
	{ "tensor pad != 0", -EINVAL, bad_tensor_pad },
	{ "op pad != 0", -EINVAL, bad_op_pad },
	{ "live sizes overflow 63 bits", -EOVERFLOW, bad_huge_sizes },
	{ "size of 2^63", -E2BIG, bad_size_2_63 },
	{ "taller than the arena", -ENOSPC, bad_too_tall },
	{ "budget over max_budget_ms", -EINVAL, bad_budget },
	{ "lifetime end <= start", -EINVAL, bad_life_order },
	{ "lifetime form with ops", -EINVAL, bad_life_with_ops },
	{ "lifetime alignment 3", -EINVAL, bad_life_align },
};

static void test_bad_input_table(void)
{
	struct ta_info before, after;
	struct ta_plan_create c;
	unsigned int i;
	char name[128];
	int err;

	/* A plan that exists throughout: the table must not disturb it. */
	c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	e2e_report("bad input: baseline plan", !err, "errno %d", -err);
	info_now(&before);

	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		struct ta_plan_create bad = ta_e2e_graph_request(TA_STRATEGY_AUTO);

		bad_rows[i].breakit(&bad);
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &bad);
		snprintf(name, sizeof(name), "bad input: %s -> %s",
			 bad_rows[i].name, strerror(-bad_rows[i].err));
		e2e_report(name, err == bad_rows[i].err && bad.plan_id == 0,
			   "got %d (%s), plan_id %u", err, strerror(-err),
			   bad.plan_id);
	}
	{
		/* The good lifetime request the lifetime rows start from. */
		struct ta_plan_create life;

		use_lifetimes(&life);
		life.flags |= TA_CREATE_DRY_RUN;
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &life);
		e2e_report("lifetime form: dry run plans without memory",
			   !err && life.plan_id == 0 && life.height == 8192 &&
			   life.lower_bound == 8192, "err %d height %llu", err,
			   (unsigned long long)life.height);
	}

	info_now(&after);
	e2e_report("bad input: arena use and plans unchanged after the table",
		   after.n_plans == before.n_plans &&
		   after.bytes_in_use == before.bytes_in_use,
		   "plans %u -> %u, in use %llu -> %llu", before.n_plans,
		   after.n_plans, (unsigned long long)before.bytes_in_use,
		   (unsigned long long)after.bytes_in_use);

	{
		struct ta_plan_get g;
		struct ta_plan_destroy d;

		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.flags = 0x2;
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("get: unknown flag -> EINVAL", err == -EINVAL, "got %d", err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = (uintptr_t)&g;
		g.n_placements = 1;
		g.placement_size = 8;
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("get: placement_size below v1 -> EINVAL", err == -EINVAL,
			   "got %d", err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = 0x10;
		g.n_placements = 1;
		g.placement_size = sizeof(struct ta_placement);
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("get: unmapped placements -> EFAULT", err == -EFAULT,
			   "got %d", err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("get: count only", !err && g.n_placements == G_TENSORS,
			   "err %d n %u", err, g.n_placements);
		memset(&g, 0, sizeof(g));
		g.plan_id = 999999;
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("get: unknown id -> ENOENT", err == -ENOENT, "got %d", err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		d.reserved[1] = 1;
		err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
		e2e_report("destroy: reserved != 0 -> EINVAL", err == -EINVAL,
			   "got %d", err);
		d.reserved[1] = 0;
		d.plan_id = 0;
		err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
		e2e_report("destroy: id 0 -> ENOENT", err == -ENOENT, "got %d", err);
		d.plan_id = c.plan_id;
		err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
		e2e_report("destroy: baseline plan", !err, "got %d", err);
		err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
		e2e_report("destroy: twice -> ENOENT", err == -ENOENT, "got %d", err);
	}
}

static void test_mmap_rules(void)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_destroy d;
	struct ta_info info;
	long page = getpagesize();
	unsigned char *map;
	__u64 slice;
	int err, ro;

	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	e2e_report("mmap: plan for the mmap tests", !err, "errno %d", -err);
	if (err)
		return;

	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, e2e_fd,
		   c.mmap_offset);
	e2e_report("mmap: private (COW) mapping -> EINVAL",
		   map == MAP_FAILED && errno == EINVAL, "errno %d", errno);
	slice = (c.height + page - 1) & ~(__u64)(page - 1);
	map = mmap(NULL, slice + page, PROT_READ, MAP_SHARED, e2e_fd,
		   c.mmap_offset);
	e2e_report("mmap: past the slice -> EINVAL",
		   map == MAP_FAILED && errno == EINVAL, "errno %d", errno);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, e2e_fd, 4242 * page);
	e2e_report("mmap: unknown plan -> ENOENT",
		   map == MAP_FAILED && errno == ENOENT, "errno %d", errno);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, e2e_fd, 0);
	e2e_report("mmap: offset 0 -> ENOENT",
		   map == MAP_FAILED && errno == ENOENT, "errno %d", errno);

	/*
	 * Issue 25, row 5: a read-only descriptor maps read-only (do_mmap()
	 * leaves VM_MAYSHARE, not VM_SHARED, on a shared mapping of a file
	 * not open for writing), and can neither map for writing nor make
	 * the mapping writable.
	 */
	ro = open("/dev/tensorarena", O_RDONLY | O_CLOEXEC);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, ro, c.mmap_offset);
	e2e_report("mmap: a read-only descriptor maps the plan read-only",
		   map != MAP_FAILED, "fd %d, errno %d", ro, errno);
	if (map != MAP_FAILED) {
		err = mprotect(map, page, PROT_READ | PROT_WRITE) ? errno : 0;
		e2e_report("mmap: the read-only mapping cannot become writable (mprotect: EACCES)",
			   err == EACCES, "errno %d", err);
		munmap(map, page);
	}
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ro,
		   c.mmap_offset);
	e2e_report("mmap: a read-only descriptor mapping for writing -> EACCES",
		   map == MAP_FAILED && errno == EACCES, "errno %d", errno);
	if (map != MAP_FAILED)
		munmap(map, page);
	close(ro);

	/* Unmap after destroy: the mapping keeps the memory until munmap. */
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, e2e_fd,
		   c.mmap_offset);
	e2e_report("mmap: shared mapping of the slice", map != MAP_FAILED,
		   "errno %d", errno);
	if (map == MAP_FAILED)
		return;
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	info_now(&info);
	e2e_report("mmap: destroy while mapped keeps the memory",
		   !err && info.n_plans == 0 && info.bytes_in_use == slice,
		   "err %d plans %u in use %llu", err, info.n_plans,
		   (unsigned long long)info.bytes_in_use);
	memset(map, 0x5a, page);
	e2e_report("mmap: mapping still usable after destroy", map[page - 1] == 0x5a,
		   "byte %x", map[page - 1]);
	munmap(map, page);
	info_now(&info);
	e2e_report("mmap: munmap after destroy returns the memory",
		   info.bytes_in_use == 0, "in use %llu",
		   (unsigned long long)info.bytes_in_use);
}

static void test_owner_lifetime(void)
{
	struct ta_plan_create c;
	struct ta_info info;
	int fd, saved = e2e_fd, status, i;
	void *map;
	pid_t pid;

	/* Closing the fd destroys its plans. */
	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	e2e_fd = fd;
	for (i = 0; i < 3; i++) {
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	}
	info_now(&info);
	e2e_fd = saved;
	e2e_report("owner: three plans on a second fd", info.n_plans == 3,
		   "plans %u", info.n_plans);
	close(fd);
	info_now(&info);
	e2e_report("owner: close destroys the fd's plans",
		   info.n_plans == 0 && info.bytes_in_use == 0,
		   "plans %u in use %llu", info.n_plans,
		   (unsigned long long)info.bytes_in_use);

	/* kill -9 of a process holding plans and a mapping. */
	pid = fork();
	if (pid == 0) {
		int cfd = open("/dev/" TA_DEVICE_NAME, O_RDWR);

		e2e_fd = cfd;
		c = ta_e2e_graph_request(TA_STRATEGY_AUTO);
		if (e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c))
			_exit(1);
		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   cfd, c.mmap_offset);
		if (map == MAP_FAILED)
			_exit(1);
		c = ta_e2e_graph_request(TA_STRATEGY_STACK);
		e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		kill(getpid(), SIGSTOP);
		for (;;)
			pause();
	}
	waitpid(pid, &status, WUNTRACED);
	info_now(&info);
	e2e_report("owner: child holds two plans and a mapping",
		   WIFSTOPPED(status) && info.n_plans == 2, "plans %u",
		   info.n_plans);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	info_now(&info);
	e2e_report("owner: kill -9 returns every byte",
		   info.n_plans == 0 && info.bytes_in_use == 0,
		   "plans %u in use %llu", info.n_plans,
		   (unsigned long long)info.bytes_in_use);
}

/* A second uid cannot see, map or destroy the first's plans. */
static void test_isolation(void)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_destroy d;
	struct ta_info info;
	int err, status;
	pid_t pid;

	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	e2e_report("isolation: root's plan", !err, "errno %d", -err);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct ta_placement pl[G_TENSORS];
		struct ta_plan_get g;
		void *map;
		int fails = 0;

		if (setgid(1000) || setuid(1000))
			_exit(100);
		/*
		 * root's descriptor keeps root's identity (its opener's), as
		 * any file does when handed on; a fresh one of uid 1000 does
		 * not show root's plan.
		 */
		if (get_placements(c.plan_id, pl, G_TENSORS, &g) != 0)
			fails |= 1;
		map = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, e2e_fd,
			   c.mmap_offset);
		if (map == MAP_FAILED)
			fails |= 2;
		else
			munmap(map, getpagesize());
		close(e2e_fd);
		e2e_fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);
		if (e2e_fd < 0)
			printf("# uid 1000: open: %s\n", strerror(errno));
		err = get_placements(c.plan_id, pl, G_TENSORS, &g);
		if (err != -ENOENT) {
			printf("# uid 1000: get on a fresh fd: %d\n", err);
			fails |= 8;
		}
		map = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, e2e_fd,
			   c.mmap_offset);
		if (map != MAP_FAILED || errno != ENOENT)
			fails |= 32;
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		if (e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d) != -ENOENT)
			fails |= 4;
		/* Its own plans work. */
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		if (err || get_placements(c.plan_id, pl, G_TENSORS, &g)) {
			printf("# uid 1000: own plan: %d\n", err);
			fails |= 16;
		}
		_exit(fails);
	}
	waitpid(pid, &status, 0);
	e2e_report("isolation: uid 1000 cannot get, map or destroy root's plan on its own fd; root's fd is root's",
		   WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "child status 0x%x", status);
	info_now(&info);
	e2e_report("isolation: root's plan intact, the child's gone with it",
		   info.n_plans == 1, "plans %u", info.n_plans);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
}

/*
 * Stress: several processes create, read, map, write and destroy plans at
 * once while another lists them and one closes its fd with plans still
 * open; at the end every byte is back. Under the debug kernel this is what
 * lockdep, KASAN and kmemleak watch.
 */
#define STRESS_PROCS	4
#define STRESS_ROUNDS	150

static int stress_worker(unsigned int seed)
{
	struct ta_placement pl[G_TENSORS];
	struct ta_plan_destroy d;
	struct ta_plan_create c;
	struct ta_plan_get g;
	unsigned int r;
	int fd, bad = 0;

	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	if (fd < 0)
		return 1;
	e2e_fd = fd;
	for (r = 0; r < STRESS_ROUNDS; r++) {
		unsigned char *map;

		seed = seed * 1103515245 + 12345;
		c = ta_e2e_graph_request((seed >> 16) % 5);
		if (e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c)) {
			bad |= 1;
			continue;
		}
		if (get_placements(c.plan_id, pl, G_TENSORS, &g) ||
		    !placements_valid(pl, c.height))
			bad |= 2;
		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   fd, c.mmap_offset);
		if (map == MAP_FAILED) {
			bad |= 4;
		} else {
			if (!run_patterns(map, pl))
				bad |= 8;
			if (seed & 0x100000)
				munmap(map, c.height);
		}
		/* Leave some plans for the close to reap. */
		if (seed & 0x200000) {
			memset(&d, 0, sizeof(d));
			d.plan_id = c.plan_id;
			if (e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d))
				bad |= 16;
		}
	}
	close(fd);
	return bad;
}

static long long param_read(const char *name);
static bool param_write(const char *name, const char *value);

static void test_stress(void)
{
	long long file0 = param_read("max_file_plans");
	long long user0 = param_read("max_user_plans");
	pid_t pids[STRESS_PROCS];
	struct ta_plan_get g;
	struct ta_info info;
	int i, status, bad = 0, lists = 0;
	char buf[32];

	/*
	 * The workers keep up to STRESS_ROUNDS plans each (as root, one
	 * uid): more than the default quotas allow one file and one uid, so
	 * raise them for the run, as an administrator would.
	 */
	snprintf(buf, sizeof(buf), "%d", STRESS_ROUNDS);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%d", STRESS_PROCS * STRESS_ROUNDS);
	param_write("max_user_plans", buf);

	for (i = 0; i < STRESS_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(stress_worker(i + 1));
	}
	/* List while they work: every plan listed must be readable or gone. */
	for (;;) {
		int running = 0;

		memset(&g, 0, sizeof(g));
		g.flags = TA_GET_NEXT;
		while (!e2e_ioctl(TA_IOCTL_PLAN_GET, &g)) {
			g.flags = TA_GET_NEXT;
			g.placements = 0;
		}
		lists++;
		for (i = 0; i < STRESS_PROCS; i++)
			if (pids[i] && waitpid(pids[i], &status, WNOHANG) == pids[i]) {
				bad |= !WIFEXITED(status) || WEXITSTATUS(status);
				pids[i] = 0;
			}
		for (i = 0; i < STRESS_PROCS; i++)
			running |= pids[i] != 0;
		if (!running)
			break;
	}
	e2e_report("stress: 4 processes x 150 create/map/walk/destroy", !bad,
		   "a worker failed (status 0x%x)", status);
	info_now(&info);
	e2e_report("stress: every byte back after the workers exit",
		   info.n_plans == 0 && info.bytes_in_use == 0 &&
		   info.largest_free == info.arena_size && lists > 0,
		   "plans %u in use %llu", info.n_plans,
		   (unsigned long long)info.bytes_in_use);
	snprintf(buf, sizeof(buf), "%lld", file0);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%lld", user0);
	param_write("max_user_plans", buf);
}

static int export_plan(__u32 id, __u32 flags, int *fd)
{
	struct ta_plan_export x;
	int err;

	memset(&x, 0, sizeof(x));
	x.plan_id = id;
	x.flags = flags;
	err = e2e_ioctl(TA_IOCTL_PLAN_EXPORT, &x);
	*fd = x.fd;
	return err;
}

static void test_dmabuf(void)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_export x;
	struct dma_buf_sync sync;
	struct ta_plan_destroy d;
	long page = getpagesize();
	unsigned char *via_buf, *via_plan;
	struct ta_info info;
	int err, fd, fd2, saved;
	__u64 slice;

	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	e2e_report("dma-buf: plan to export", !err, "errno %d", -err);
	if (err)
		return;
	slice = (c.height + page - 1) & ~(__u64)(page - 1);

	err = export_plan(c.plan_id, TA_EXPORT_CLOEXEC, &fd);
	e2e_report("dma-buf: export", !err && fd >= 0 &&
		   (fcntl(fd, F_GETFD) & FD_CLOEXEC), "err %d fd %d", err, fd);
	if (err)
		return;
	err = export_plan(c.plan_id, 0x2, &fd2);
	e2e_report("dma-buf: unknown export flag -> EINVAL", err == -EINVAL,
		   "got %d", err);
	err = export_plan(777777, 0, &fd2);
	e2e_report("dma-buf: export of an unknown plan -> ENOENT",
		   err == -ENOENT, "got %d", err);
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	x.pad = 1;
	err = e2e_ioctl(TA_IOCTL_PLAN_EXPORT, &x);
	e2e_report("dma-buf: export pad != 0 -> EINVAL", err == -EINVAL,
		   "got %d", err);
	e2e_report("dma-buf: size is the plan's slice",
		   lseek(fd, 0, SEEK_END) == (off_t)slice, "size %lld",
		   (long long)lseek(fd, 0, SEEK_END));

	via_buf = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	via_plan = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, e2e_fd,
			c.mmap_offset);
	e2e_report("dma-buf: mmap of the dma-buf and of the plan",
		   via_buf != MAP_FAILED && via_plan != MAP_FAILED,
		   "errno %d", errno);
	if (via_buf != MAP_FAILED && via_plan != MAP_FAILED) {
		memset(&sync, 0, sizeof(sync));
		sync.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW;
		err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		memset(via_buf, 0x3c, slice);
		via_buf[slice - 1] = 0x7e;
		sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
		if (!err)
			err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		e2e_report("dma-buf: DMA_BUF_IOCTL_SYNC start/end", !err,
			   "got %d", err);
		e2e_report("dma-buf: same memory as the plan's mapping",
			   via_plan[0] == 0x3c && via_plan[slice - 1] == 0x7e,
			   "bytes %x %x", via_plan[0], via_plan[slice - 1]);
		munmap(via_plan, slice);
		munmap(via_buf, slice);
	}
	via_buf = mmap(NULL, slice, PROT_READ, MAP_PRIVATE, fd, 0);
	e2e_report("dma-buf: private mapping -> EINVAL",
		   via_buf == MAP_FAILED && errno == EINVAL, "errno %d", errno);
	via_buf = mmap(NULL, slice + page, PROT_READ, MAP_SHARED, fd, 0);
	e2e_report("dma-buf: mapping past the buffer fails",
		   via_buf == MAP_FAILED, "mapped");

	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	info_now(&info);
	e2e_report("dma-buf: keeps the memory after the plan is destroyed",
		   info.n_plans == 0 && info.bytes_in_use == slice,
		   "plans %u in use %llu", info.n_plans,
		   (unsigned long long)info.bytes_in_use);
	close(fd);
	info_now(&info);
	e2e_report("dma-buf: closing it returns the memory",
		   info.bytes_in_use == 0, "in use %llu",
		   (unsigned long long)info.bytes_in_use);

	/* Exported plans outlive their owner's file. */
	saved = e2e_fd;
	e2e_fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	if (!err)
		err = export_plan(c.plan_id, 0, &fd);
	close(e2e_fd);
	e2e_fd = saved;
	info_now(&info);
	e2e_report("dma-buf: the owner's close leaves the exported memory",
		   !err && info.n_plans == 0 && info.bytes_in_use > 0,
		   "err %d plans %u in use %llu", err, info.n_plans,
		   (unsigned long long)info.bytes_in_use);
	if (!err)
		close(fd);
	info_now(&info);
	e2e_report("dma-buf: last close returns it", info.bytes_in_use == 0,
		   "in use %llu", (unsigned long long)info.bytes_in_use);
}

/* The lowest descriptor number free now: a call that leaked one moves it. */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static int tensor_export(__u32 id, __u32 tensor, __u32 flags,
			 struct ta_tensor_export *x)
{
	memset(x, 0, sizeof(*x));
	x->plan_id = id;
	x->tensor = tensor;
	x->flags = flags;
	x->fd = -1;
	return e2e_ioctl(TA_IOCTL_TENSOR_EXPORT, x);
}

/* The graph with tensors 0 (input) and 3 exportable, from @t. */
static struct ta_plan_create export_request(struct ta_tensor *t)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);

	memcpy(t, g_tensors, sizeof(g_tensors));
	t[0].flags |= TA_TENSOR_EXPORTABLE;
	t[3].flags |= TA_TENSOR_EXPORTABLE;
	c.tensors = (uintptr_t)t;
	return c;
}

/*
 * TENSOR_EXPORT: an exportable tensor's whole pages as a dma-buf of their
 * own: its size (lseek), its offset, the plan's bytes at that offset both
 * ways, the memory kept after the plan is destroyed; every refusal with its
 * errno, leaving plans, arena use and descriptors as they were.
 */
static void test_tensor_export(void)
{
	struct ta_tensor t[G_TENSORS], t0[G_TENSORS];
	struct ta_plan_create c = export_request(t), c0;
	struct ta_placement pl[G_TENSORS];
	struct ta_info before, after;
	struct ta_tensor_export x;
	struct dma_buf_sync sync;
	struct ta_plan_destroy d;
	struct ta_plan_get g;
	long page = getpagesize();
	unsigned char *plan_map, *buf_map;
	int err, fd, ro, free_fd;
	__u64 slice, i;
	bool same;
	static const struct {
		const char *name;
		__u32 plan;	/* 0: the plan; 1: unknown; 2: ID 0 */
		__u32 tensor, flags;
		int reserved;
		int err;
	} bad[] = {
		{ "tensor export: unknown plan -> ENOENT", 1, 0, 0, 0, -ENOENT },
		{ "tensor export: plan ID 0 (a dry run has none) -> ENOENT", 2, 0, 0, 0, -ENOENT },
		{ "tensor export: index = tensor count -> EINVAL", 0, G_TENSORS, 0, 0, -EINVAL },
		{ "tensor export: index 2^32-1 -> EINVAL", 0, 0xffffffff, 0, 0, -EINVAL },
		{ "tensor export: non-exportable tensor -> EINVAL", 0, 1, 0, 0, -EINVAL },
		{ "tensor export: unknown flag -> EINVAL", 0, 0, 0x2, 0, -EINVAL },
		{ "tensor export: reserved != 0 -> EINVAL", 0, 0, 0, 1, -EINVAL },
	};

	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	e2e_report("tensor export: plan with exportable tensors", !err,
		   "errno %d", -err);
	if (err)
		return;
	slice = (c.height + page - 1) & ~(__u64)(page - 1);
	err = get_placements(c.plan_id, pl, G_TENSORS, &g);
	e2e_report("tensor export: exportable tensors get whole pages at page-aligned offsets",
		   !err && pl[0].offset % page == 0 && pl[3].offset % page == 0 &&
		   pl[0].size == (__u64)page && pl[3].size == (__u64)page &&
		   pl[1].size == g_tensors[1].size,
		   "err %d offsets %llu %llu sizes %llu %llu", err,
		   (unsigned long long)pl[0].offset,
		   (unsigned long long)pl[3].offset,
		   (unsigned long long)pl[0].size,
		   (unsigned long long)pl[3].size);
	e2e_report("tensor export: the lower bound counts the padding",
		   c.lower_bound >= 2 * (__u64)page && c.height >= c.lower_bound,
		   "bound %llu height %llu", (unsigned long long)c.lower_bound,
		   (unsigned long long)c.height);

	plan_map = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, e2e_fd,
			c.mmap_offset);
	e2e_report("tensor export: map the plan", plan_map != MAP_FAILED,
		   "errno %d", errno);
	if (plan_map == MAP_FAILED)
		return;
	for (i = 0; i < slice; i++)
		plan_map[i] = (unsigned char)(i * 7 + 3);

	/* Refusals first: each changes nothing. */
	info_now(&before);
	free_fd = lowest_free_fd();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		__u32 id = bad[i].plan == 1 ? 777777 : bad[i].plan == 2 ? 0 :
			   c.plan_id;

		memset(&x, 0, sizeof(x));
		x.plan_id = id;
		x.tensor = bad[i].tensor;
		x.flags = bad[i].flags;
		x.reserved[1] = bad[i].reserved;
		x.fd = -1;
		err = e2e_ioctl(TA_IOCTL_TENSOR_EXPORT, &x);
		info_now(&after);
		e2e_report(bad[i].name, err == bad[i].err && x.fd == -1 &&
			   lowest_free_fd() == free_fd &&
			   after.n_plans == before.n_plans &&
			   after.bytes_in_use == before.bytes_in_use,
			   "got %d fd %d", err, x.fd);
	}
	ro = open("/dev/" TA_DEVICE_NAME, O_RDONLY | O_CLOEXEC);
	free_fd = lowest_free_fd();
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	x.fd = -1;
	err = ro < 0 ? -errno : ioctl(ro, TA_IOCTL_TENSOR_EXPORT, &x) ? -errno : 0;
	e2e_report("tensor export: a read-only descriptor -> EBADF",
		   err == -EBADF && lowest_free_fd() == free_fd, "got %d", err);
	if (ro >= 0)
		close(ro);
	/* A plan whose exportable tensor has no bytes: nothing to export. */
	c0 = export_request(t0);
	t0[5].size = 0;
	t0[5].flags |= TA_TENSOR_EXPORTABLE;
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c0);
	if (!err) {
		info_now(&before);
		free_fd = lowest_free_fd();
		err = tensor_export(c0.plan_id, 5, 0, &x);
		info_now(&after);
		e2e_report("tensor export: an exportable tensor of size 0 -> EINVAL",
			   err == -EINVAL && lowest_free_fd() == free_fd &&
			   after.bytes_in_use == before.bytes_in_use,
			   "got %d", err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c0.plan_id;
		e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	} else {
		e2e_report("tensor export: an exportable tensor of size 0 -> EINVAL",
			   false, "create: %d", err);
	}

	err = tensor_export(c.plan_id, 3, TA_EXPORT_CLOEXEC, &x);
	fd = x.fd;
	e2e_report("tensor export: export tensor 3", !err && fd >= 0 &&
		   (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
		   x.offset == pl[3].offset && x.size == pl[3].size,
		   "err %d fd %d offset %llu size %llu", err, fd,
		   (unsigned long long)x.offset, (unsigned long long)x.size);
	if (err) {
		munmap(plan_map, slice);
		return;
	}
	e2e_report("tensor export: lseek(SEEK_END) is the size in whole pages",
		   lseek(fd, 0, SEEK_END) == (off_t)x.size, "size %lld",
		   (long long)lseek(fd, 0, SEEK_END));
	buf_map = mmap(NULL, x.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e2e_report("tensor export: mmap of the tensor's dma-buf",
		   buf_map != MAP_FAILED, "errno %d", errno);
	if (buf_map != MAP_FAILED) {
		e2e_report("tensor export: its bytes are the plan's at the tensor's offset",
			   !memcmp(buf_map, plan_map + x.offset, x.size),
			   "differ");
		memset(&sync, 0, sizeof(sync));
		sync.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE;
		err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		memset(buf_map, 0xa5, x.size);
		sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
		if (!err)
			err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		same = plan_map[x.offset] == 0xa5 &&
		       plan_map[x.offset + x.size - 1] == 0xa5 &&
		       (x.offset == 0 || plan_map[x.offset - 1] != 0xa5) &&
		       (x.offset + x.size == slice ||
			plan_map[x.offset + x.size] != 0xa5);
		e2e_report("tensor export: writes through it land at the tensor's pages only",
			   !err && same, "sync %d", err);
		buf_map[0] = 0x42;
	}
	e2e_report("tensor export: mapping past the buffer fails",
		   mmap(NULL, x.size + page, PROT_READ, MAP_SHARED, fd, 0) ==
		   MAP_FAILED, "mapped");

	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	munmap(plan_map, slice);
	err = e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	info_now(&after);
	e2e_report("tensor export: keeps the plan's memory after destroy",
		   !err && after.n_plans == 0 && after.bytes_in_use == slice,
		   "err %d plans %u in use %llu", err, after.n_plans,
		   (unsigned long long)after.bytes_in_use);
	if (buf_map != MAP_FAILED) {
		e2e_report("tensor export: still readable after destroy",
			   buf_map[0] == 0x42 && buf_map[x.size - 1] == 0xa5,
			   "bytes %x %x", buf_map[0], buf_map[x.size - 1]);
		munmap(buf_map, x.size);
	}
	info_now(&after);
	e2e_report("tensor export: the descriptor alone still holds it",
		   after.bytes_in_use == slice, "in use %llu",
		   (unsigned long long)after.bytes_in_use);
	close(fd);
	info_now(&after);
	e2e_report("tensor export: closing it returns the memory",
		   after.bytes_in_use == 0, "in use %llu",
		   (unsigned long long)after.bytes_in_use);
}

/*
 * ta_plan_create.default_align: the alignment of tensors whose align is 0,
 * not of the others; 0 keeps 1; not a power of two or above 2^32: EINVAL,
 * nothing created.
 */
static void test_default_align(void)
{
	static const __u64 bad[] = { 3, 96, 1ULL << 33, ~0ULL };
	struct ta_tensor t[G_TENSORS];
	struct ta_plan_create c;
	struct ta_placement pl[G_TENSORS];
	struct ta_info before, after;
	struct ta_plan_destroy d;
	struct ta_plan_get g;
	bool aligned = true;
	unsigned int i;
	int err;

	memcpy(t, g_tensors, sizeof(t));
	for (i = 0; i < G_TENSORS; i++)
		t[i].align = i == 5 ? 16 : 0;
	info_now(&before);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
		c.tensors = (uintptr_t)t;
		c.default_align = bad[i];
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		info_now(&after);
		e2e_report("default align: not a power of two up to 2^32 -> EINVAL, nothing created",
			   err == -EINVAL && c.plan_id == 0 &&
			   after.n_plans == before.n_plans &&
			   after.bytes_in_use == before.bytes_in_use,
			   "%llu: got %d", (unsigned long long)bad[i], err);
	}
	c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	c.tensors = (uintptr_t)t;
	c.default_align = 1024;
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	if (!err)
		err = get_placements(c.plan_id, pl, G_TENSORS, &g);
	for (i = 0; !err && i < G_TENSORS; i++)
		if (i != 5 && pl[i].offset % 1024)
			aligned = false;
	e2e_report("default align: 1024 for the tensors of align 0",
		   !err && aligned, "err %d", err);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	if (!err)
		e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);

	/* The lifetime form too; 2^32 is the largest allowed. */
	{
		struct ta_lifetime lt[2] = {
			{ .size = 100, .start = 0, .end = 2 },
			{ .size = 100, .start = 1, .end = 3 },
		};

		memset(&c, 0, sizeof(c));
		c.flags = TA_CREATE_LIFETIMES | TA_CREATE_DRY_RUN;
		c.tensors = (uintptr_t)lt;
		c.n_tensors = 2;
		c.tensor_size = sizeof(lt[0]);
		c.default_align = 4096;
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		e2e_report("default align: lifetime form, 4096 -> height 4196",
			   !err && c.height == 4196, "err %d height %llu", err,
			   (unsigned long long)c.height);
		c.default_align = 1ULL << 32;
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		e2e_report("default align: 2^32 accepted", !err &&
			   c.height == (1ULL << 32) + 100, "err %d", err);
		c.default_align = 0;
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		e2e_report("default align: 0 keeps align 0 as 1", !err &&
			   c.height == 200, "err %d height %llu", err,
			   (unsigned long long)c.height);
	}
	info_now(&after);
	e2e_report("default align: nothing left", after.n_plans == before.n_plans &&
		   after.bytes_in_use == before.bytes_in_use, "plans %u",
		   after.n_plans);
}

/* Read or write one of the module's parameters; -1 / false on failure. */
static long long param_read(const char *name)
{
	return ta_e2e_param_read(name);
}

static bool param_write(const char *name, const char *value)
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
static int as_user(uid_t uid, gid_t gid, int (*fn)(void))
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

static int open_as_outsider(void)
{
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);

	return fd < 0 && errno == EACCES ? 0 : 1;
}

/* The device node and a read-only descriptor follow the access policy. */
static void test_access(void)
{
	long long group = param_read("group");
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	struct ta_plan_destroy d;
	struct ta_plan_export x;
	struct ta_info info;
	struct stat st;
	int ro, err;

	err = stat("/dev/" TA_DEVICE_NAME, &st);
	e2e_report("access: /dev/tensorarena is root:<group> 0660",
		   !err && (st.st_mode & 07777) == 0660 && st.st_uid == 0 &&
		   (long long)st.st_gid == group,
		   "mode %o uid %u gid %u (group parameter %lld)",
		   st.st_mode & 07777, st.st_uid, st.st_gid, group);
	e2e_report("access: a uid outside the group cannot open it (EACCES)",
		   as_user(2000, 2000, open_as_outsider) == 0, "opened");

	ro = open("/dev/" TA_DEVICE_NAME, O_RDONLY);
	e2e_report("access: root opens it read-only", ro >= 0, "%s",
		   strerror(errno));
	if (ro < 0)
		return;
	memset(&info, 0, sizeof(info));
	e2e_report("access: INFO on a read-only fd",
		   ioctl(ro, TA_IOCTL_INFO, &info) == 0, "%s", strerror(errno));
	err = ioctl(ro, TA_IOCTL_PLAN_CREATE, &c) ? errno : 0;
	e2e_report("access: CREATE on a read-only fd -> EBADF", err == EBADF,
		   "got %d", err);
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	err = err ?: (ioctl(ro, TA_IOCTL_PLAN_DESTROY, &d) ? errno : 0);
	e2e_report("access: DESTROY on a read-only fd -> EBADF", err == EBADF,
		   "got %d", err);
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	err = ioctl(ro, TA_IOCTL_PLAN_EXPORT, &x) ? errno : 0;
	e2e_report("access: EXPORT on a read-only fd -> EBADF", err == EBADF,
		   "got %d", err);
	e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	close(ro);
}

/* An export whose result cannot be copied out installs no descriptor. */
static void test_export_efault(void)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	long page = getpagesize();
	struct ta_plan_export *x;
	struct ta_plan_destroy d;
	struct ta_info info;
	int err, probe, next;

	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	x = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (err || x == MAP_FAILED) {
		e2e_report("export: EFAULT setup", false, "err %d", err);
		return;
	}
	memset(x, 0, sizeof(*x));
	x->plan_id = c.plan_id;
	mprotect(x, page, PROT_READ);
	probe = dup(0);
	close(probe);
	err = e2e_ioctl(TA_IOCTL_PLAN_EXPORT, x);
	next = dup(0);
	close(next);
	info_now(&info);
	e2e_report("export: unwritable argument -> EFAULT, no descriptor left behind",
		   err == -EFAULT && next == probe && info.bytes_in_use ==
		   (unsigned long long)((c.height + page - 1) & ~(page - 1)),
		   "err %d lowest free fd %d then %d", err, probe, next);
	munmap(x, page);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
}

/* Element sizes past what the kernel walks for zeroes are refused. */
static void test_elem_sizes(void)
{
	static unsigned char wide[G_TENSORS][4096];
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	struct ta_placement pl[G_TENSORS];
	struct ta_plan_get g;
	struct ta_info before, after;
	unsigned int i;
	int err;

	for (i = 0; i < G_TENSORS; i++)
		memcpy(wide[i], &g_tensors[i], sizeof(g_tensors[i]));
	c.tensors = (uintptr_t)wide;
	c.tensor_size = sizeof(wide[0]);
	info_now(&before);
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	info_now(&after);
	e2e_report("limits: tensor_size 4096 -> E2BIG, nothing changed",
		   err == -E2BIG && after.n_plans == before.n_plans,
		   "got %d", err);
	c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
	if (!err) {
		struct ta_plan_destroy d;

		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = (uintptr_t)pl;
		g.n_placements = 1;
		g.placement_size = 1u << 30;
		err = e2e_ioctl(TA_IOCTL_PLAN_GET, &g);
		e2e_report("limits: placement_size 1 GiB -> E2BIG",
			   err == -E2BIG, "got %d", err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		e2e_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
	}
}

/*
 * Write @value to the parameter: 0, or -errno of the open (a parameter
 * that is not there: ENOENT; read-only: EACCES) or of the write (a value
 * the parameter refuses: EINVAL).
 */
static int param_write_err(const char *name, const char *value)
{
	char path[128];
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(value))
		err = -EIO;
	close(fd);
	return err;
}

/*
 * Writable limits refuse values outside their range, with EINVAL from the
 * parameter's own check: a parameter that is missing (the open fails) is a
 * failure, not a refusal.
 */
static void test_param_clamps(void)
{
	long long before = param_read("max_tensors");
	int err;

	e2e_report("limits: max_tensors, max_refs and mode are there",
		   before > 0 && param_read("max_refs") > 0 && param_read("mode") > 0,
		   "max_tensors %lld, max_refs %lld, mode %lld", before,
		   param_read("max_refs"), param_read("mode"));
	err = param_write_err("max_tensors", "0");
	e2e_report("limits: max_tensors=0 refused (EINVAL)", err == -EINVAL,
		   "got %d", err);
	err = param_write_err("max_tensors", "2147483648");
	e2e_report("limits: max_tensors=2^31 refused (EINVAL)", err == -EINVAL,
		   "got %d", err);
	err = param_write_err("max_refs", "4294967295");
	e2e_report("limits: max_refs=2^32-1 refused (EINVAL)", err == -EINVAL,
		   "got %d", err);
	e2e_report("limits: max_tensors unchanged by refused writes",
		   before > 0 && param_read("max_tensors") == before, "now %lld",
		   param_read("max_tensors"));
	/* 0444: the open for writing is refused, the file is there. */
	err = param_write_err("mode", "0666");
	e2e_report("limits: mode is read-only once loaded (EACCES)",
		   err == -EACCES, "got %d", err);
}

static int quota_fd_creates(int fd, int n)
{
	struct ta_plan_create c;
	int i;

	for (i = 0; i < n; i++) {
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		if (ioctl(fd, TA_IOCTL_PLAN_CREATE, &c))
			return -errno;
	}
	return 0;
}

static int quota_other_uid(void)
{
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);

	return fd >= 0 && quota_fd_creates(fd, 2) == 0 ? 0 : 1;
}

/* Per-file and per-uid quotas refuse with EDQUOT and change nothing. */
static void test_quotas(void)
{
	long long file0 = param_read("max_file_plans");
	long long user0 = param_read("max_user_plans");
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	struct ta_info before, after;
	char buf[32];
	int a, b, err;

	if (!param_write("max_file_plans", "3") ||
	    !param_write("max_user_plans", "5")) {
		e2e_report("quotas: set", false, "cannot write parameters");
		return;
	}
	a = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	b = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	err = quota_fd_creates(a, 3);
	info_now(&before);
	err = err ?: (ioctl(a, TA_IOCTL_PLAN_CREATE, &c) ? -errno : 0);
	info_now(&after);
	e2e_report("quotas: max_file_plans+1st create on one fd -> EDQUOT",
		   err == -EDQUOT && after.n_plans == before.n_plans &&
		   after.bytes_in_use == before.bytes_in_use,
		   "got %d, plans %u -> %u", err, before.n_plans,
		   after.n_plans);
	err = quota_fd_creates(b, 2);
	e2e_report("quotas: another fd of the uid may create up to max_user_plans",
		   err == 0, "got %d", err);
	err = quota_fd_creates(b, 1);
	e2e_report("quotas: max_user_plans+1st create of the uid -> EDQUOT",
		   err == -EDQUOT, "got %d", err);
	e2e_report("quotas: another uid still creates",
		   as_user(1001, 1000, quota_other_uid) == 0, "refused");
	close(a);
	err = quota_fd_creates(b, 1);
	e2e_report("quotas: closing a file gives its plans back to the uid",
		   err == 0, "got %d", err);
	close(b);

	/* Arena bytes: one page per uid. */
	if (param_write("max_user_bytes", "4K")) {
		g_tensors[0].size += 8192;
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		info_now(&before);
		err = e2e_ioctl(TA_IOCTL_PLAN_CREATE, &c);
		info_now(&after);
		g_tensors[0].size -= 8192;
		e2e_report("quotas: a plan above max_user_bytes -> EDQUOT, nothing changed",
			   err == -EDQUOT && after.n_plans == before.n_plans &&
			   after.bytes_in_use == before.bytes_in_use,
			   "got %d", err);
		param_write("max_user_bytes", "0");
	} else {
		e2e_report("quotas: max_user_bytes writable", false, "no");
	}
	snprintf(buf, sizeof(buf), "%lld", file0);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%lld", user0);
	param_write("max_user_plans", buf);
	info_now(&after);
	e2e_report("quotas: everything given back", after.n_plans == 0 &&
		   after.bytes_in_use == 0, "plans %u in use %llu",
		   after.n_plans, (unsigned long long)after.bytes_in_use);
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
	test_bad_input_table();
	test_mmap_rules();
	test_owner_lifetime();
	test_isolation();
	test_stress();
	test_dmabuf();
	test_tensor_export();
	test_default_align();
	test_access();
	test_export_efault();
	test_elem_sizes();
	test_param_clamps();
	test_quotas();

	close(e2e_fd);
	return e2e_failures ? 1 : 0;
}
