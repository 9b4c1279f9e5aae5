// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_plan.c - ta_e2e's plans: every strategy's plan from create to
 * destroy (placements, mmap, the bytes of live tensors), the bad-input
 * table, PLAN_GET and PLAN_DESTROY refusals, the mmap rules.
 */
#include "ta_e2e.h"

TEST_F(dev, plan_lifecycle)
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
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		snprintf(name, sizeof(name), "plan %s: create", names[s]);
		CHECK_WHY(!err && c.plan_id && c.height >= c.lower_bound &&
			  /*
			   * 6600 live at step 2, every offset a multiple
			   * of 16: the sizes below the top one round up
			   * to 16, at best 6612 (the constant on top)
			   */
			  c.lower_bound == 6612 &&
			  c.mmap_offset == (__u64)c.plan_id * getpagesize(),
			  name, "err %d id %u height %llu lb %llu", err,
			  c.plan_id, (unsigned long long)c.height,
			  (unsigned long long)c.lower_bound);
		if (err)
			continue;

		info_now(self->fd, &info);
		snprintf(name, sizeof(name), "plan %s: arena use and count", names[s]);
		CHECK_WHY(info.n_plans == 1 &&
			  info.bytes_in_use == ((c.height + getpagesize() - 1) &
			  ~(__u64)(getpagesize() - 1)), name,
			  "n_plans %u in use %llu", info.n_plans,
			  (unsigned long long)info.bytes_in_use);

		err = get_placements(self->fd, c.plan_id, pl, G_TENSORS, &g);
		snprintf(name, sizeof(name), "plan %s: placements valid", names[s]);
		CHECK_WHY(!err && g.n_placements == G_TENSORS &&
			  g.height == c.height && g.strategy == s &&
			  placements_valid(pl, c.height), name, "err %d n %u",
			  err, g.n_placements);

		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   self->fd, c.mmap_offset);
		snprintf(name, sizeof(name), "plan %s: mmap", names[s]);
		CHECK_WHY(map != MAP_FAILED, name, "%s", strerror(errno));
		if (map != MAP_FAILED) {
			for (i = 0; i < c.height; i++)
				zero &= !map[i];
			pattern = run_patterns(map, pl);
			munmap(map, c.height);
			snprintf(name, sizeof(name), "plan %s: new slice is zeroed", names[s]);
			CHECK_WHY(zero, name, "non-zero byte");
			snprintf(name, sizeof(name),
				 "plan %s: no live tensor overwritten (mmap)", names[s]);
			CHECK_WHY(pattern, name, "a live tensor lost its bytes");
		}

		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
		info_now(self->fd, &info);
		snprintf(name, sizeof(name), "plan %s: destroy returns the memory", names[s]);
		CHECK_WHY(!err && info.n_plans == 0 &&
			  info.bytes_in_use == 0 &&
			  info.largest_free == info.arena_size, name,
			  "err %d n_plans %u in use %llu", err, info.n_plans,
			  (unsigned long long)info.bytes_in_use);
		err = get_placements(self->fd, c.plan_id, pl, G_TENSORS, &g);
		snprintf(name, sizeof(name), "plan %s: gone after destroy", names[s]);
		CHECK_WHY(err == -ENOENT, name, "got %d", err);
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

TEST_F(dev, bad_input_table)
{
	struct ta_info before, after;
	struct ta_plan_create c;
	unsigned int i;
	char name[128];
	int err;

	/* A plan that exists throughout: the table must not disturb it. */
	c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK_WHY(!err, "bad input: baseline plan", "errno %d", -err);
	info_now(self->fd, &before);

	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		struct ta_plan_create bad = ta_e2e_graph_request(TA_STRATEGY_AUTO);

		bad_rows[i].breakit(&bad);
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &bad);
		snprintf(name, sizeof(name), "bad input: %s -> %s",
			 bad_rows[i].name, strerror(-bad_rows[i].err));
		CHECK_WHY(err == bad_rows[i].err && bad.plan_id == 0, name,
			  "got %d (%s), plan_id %u", err, strerror(-err),
			  bad.plan_id);
	}
	{
		/* The good lifetime request the lifetime rows start from. */
		struct ta_plan_create life;

		use_lifetimes(&life);
		life.flags |= TA_CREATE_DRY_RUN;
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &life);
		CHECK_WHY(!err && life.plan_id == 0 && life.height == 8192 &&
			  life.lower_bound == 8192,
			  "lifetime form: dry run plans without memory",
			  "err %d height %llu", err,
			  (unsigned long long)life.height);
	}

	info_now(self->fd, &after);
	CHECK_WHY(after.n_plans == before.n_plans &&
		  after.bytes_in_use == before.bytes_in_use,
		  "bad input: arena use and plans unchanged after the table",
		  "plans %u -> %u, in use %llu -> %llu", before.n_plans,
		  after.n_plans, (unsigned long long)before.bytes_in_use,
		  (unsigned long long)after.bytes_in_use);

	{
		struct ta_plan_get g;
		struct ta_plan_destroy d;

		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.flags = 0x2;
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(err == -EINVAL, "get: unknown flag -> EINVAL",
			  "got %d", err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = (uintptr_t)&g;
		g.n_placements = 1;
		g.placement_size = 8;
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(err == -EINVAL,
			  "get: placement_size below v1 -> EINVAL", "got %d",
			  err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = 0x10;
		g.n_placements = 1;
		g.placement_size = sizeof(struct ta_placement);
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(err == -EFAULT, "get: unmapped placements -> EFAULT",
			  "got %d", err);
		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(!err && g.n_placements == G_TENSORS,
			  "get: count only", "err %d n %u", err, g.n_placements);
		memset(&g, 0, sizeof(g));
		g.plan_id = 999999;
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(err == -ENOENT, "get: unknown id -> ENOENT", "got %d",
			  err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		d.reserved[1] = 1;
		err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
		CHECK_WHY(err == -EINVAL, "destroy: reserved != 0 -> EINVAL",
			  "got %d", err);
		d.reserved[1] = 0;
		d.plan_id = 0;
		err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
		CHECK_WHY(err == -ENOENT, "destroy: id 0 -> ENOENT", "got %d",
			  err);
		d.plan_id = c.plan_id;
		err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
		CHECK_WHY(!err, "destroy: baseline plan", "got %d", err);
		err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
		CHECK_WHY(err == -ENOENT, "destroy: twice -> ENOENT", "got %d",
			  err);
	}
}

TEST_F(dev, mmap_rules)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_destroy d;
	struct ta_info info;
	long page = getpagesize();
	unsigned char *map;
	__u64 slice;
	int err, ro;

	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK_WHY(!err, "mmap: plan for the mmap tests", "errno %d", -err);
	if (err)
		return;

	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, self->fd,
		   c.mmap_offset);
	CHECK_WHY(map == MAP_FAILED && errno == EINVAL,
		  "mmap: private (COW) mapping -> EINVAL", "errno %d", errno);
	slice = (c.height + page - 1) & ~(__u64)(page - 1);
	map = mmap(NULL, slice + page, PROT_READ, MAP_SHARED, self->fd,
		   c.mmap_offset);
	CHECK_WHY(map == MAP_FAILED && errno == EINVAL,
		  "mmap: past the slice -> EINVAL", "errno %d", errno);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 4242 * page);
	CHECK_WHY(map == MAP_FAILED && errno == ENOENT,
		  "mmap: unknown plan -> ENOENT", "errno %d", errno);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 0);
	CHECK_WHY(map == MAP_FAILED && errno == ENOENT,
		  "mmap: offset 0 -> ENOENT", "errno %d", errno);

	/*
	 * Issue 25, row 5: a read-only descriptor maps read-only (do_mmap()
	 * leaves VM_MAYSHARE, not VM_SHARED, on a shared mapping of a file
	 * not open for writing), and can neither map for writing nor make
	 * the mapping writable.
	 */
	ro = open("/dev/tensorarena", O_RDONLY | O_CLOEXEC);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, ro, c.mmap_offset);
	CHECK_WHY(map != MAP_FAILED,
		  "mmap: a read-only descriptor maps the plan read-only",
		  "fd %d, errno %d", ro, errno);
	if (map != MAP_FAILED) {
		err = mprotect(map, page, PROT_READ | PROT_WRITE) ? errno : 0;
		CHECK_WHY(err == EACCES,
			  "mmap: the read-only mapping cannot become writable (mprotect: EACCES)",
			  "errno %d", err);
		munmap(map, page);
	}
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ro,
		   c.mmap_offset);
	CHECK_WHY(map == MAP_FAILED && errno == EACCES,
		  "mmap: a read-only descriptor mapping for writing -> EACCES",
		  "errno %d", errno);
	if (map != MAP_FAILED)
		munmap(map, page);
	close(ro);

	/* Unmap after destroy: the mapping keeps the memory until munmap. */
	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		   c.mmap_offset);
	CHECK_WHY(map != MAP_FAILED, "mmap: shared mapping of the slice",
		  "errno %d", errno);
	if (map == MAP_FAILED)
		return;
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
	info_now(self->fd, &info);
	CHECK_WHY(!err && info.n_plans == 0 && info.bytes_in_use == slice,
		  "mmap: destroy while mapped keeps the memory",
		  "err %d plans %u in use %llu", err, info.n_plans,
		  (unsigned long long)info.bytes_in_use);
	memset(map, 0x5a, page);
	CHECK_WHY(map[page - 1] == 0x5a,
		  "mmap: mapping still usable after destroy", "byte %x",
		  map[page - 1]);
	munmap(map, page);
	info_now(self->fd, &info);
	CHECK_WHY(info.bytes_in_use == 0,
		  "mmap: munmap after destroy returns the memory",
		  "in use %llu", (unsigned long long)info.bytes_in_use);
}
