// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_limits.c - ta_e2e's limits: default_align, element sizes, the
 * writable limits' ranges, per-file, per-uid and byte quotas.
 */
#include "ta_e2e.h"

/*
 * ta_plan_create.default_align: the alignment of tensors whose align is 0,
 * not of the others; 0 keeps 1; not a power of two or above 2^32: EINVAL,
 * nothing created.
 */
TEST_F(dev, default_align)
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
	info_now(self->fd, &before);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
		c.tensors = (uintptr_t)t;
		c.default_align = bad[i];
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		info_now(self->fd, &after);
		CHECK_WHY(err == -EINVAL && c.plan_id == 0 &&
			  after.n_plans == before.n_plans &&
			  after.bytes_in_use == before.bytes_in_use,
			  "default align: not a power of two up to 2^32 -> EINVAL, nothing created",
			  "%llu: got %d", (unsigned long long)bad[i], err);
	}
	c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	c.tensors = (uintptr_t)t;
	c.default_align = 1024;
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	if (!err)
		err = get_placements(self->fd, c.plan_id, pl, G_TENSORS, &g);
	for (i = 0; !err && i < G_TENSORS; i++)
		if (i != 5 && pl[i].offset % 1024)
			aligned = false;
	CHECK_WHY(!err && aligned,
		  "default align: 1024 for the tensors of align 0", "err %d",
		  err);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	if (!err)
		xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);

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
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		CHECK_WHY(!err && c.height == 4196,
			  "default align: lifetime form, 4096 -> height 4196",
			  "err %d height %llu", err,
			  (unsigned long long)c.height);
		c.default_align = 1ULL << 32;
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		CHECK_WHY(!err &&
			  c.height == (1ULL << 32) + 100,
			  "default align: 2^32 accepted", "err %d", err);
		c.default_align = 0;
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		CHECK_WHY(!err &&
			  c.height == 200,
			  "default align: 0 keeps align 0 as 1",
			  "err %d height %llu", err,
			  (unsigned long long)c.height);
	}
	info_now(self->fd, &after);
	CHECK_WHY(after.n_plans == before.n_plans &&
		  after.bytes_in_use == before.bytes_in_use,
		  "default align: nothing left", "plans %u", after.n_plans);
}


/* Element sizes past what the kernel walks for zeroes are refused. */
TEST_F(dev, elem_sizes)
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
	info_now(self->fd, &before);
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	info_now(self->fd, &after);
	CHECK_WHY(err == -E2BIG && after.n_plans == before.n_plans,
		  "limits: tensor_size 4096 -> E2BIG, nothing changed",
		  "got %d", err);
	c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	if (!err) {
		struct ta_plan_destroy d;

		memset(&g, 0, sizeof(g));
		g.plan_id = c.plan_id;
		g.placements = (uintptr_t)pl;
		g.n_placements = 1;
		g.placement_size = 1u << 30;
		err = xioctl(self->fd, TA_IOCTL_PLAN_GET, &g);
		CHECK_WHY(err == -E2BIG,
			  "limits: placement_size 1 GiB -> E2BIG", "got %d",
			  err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
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
TEST(param_clamps)
{
	long long before = param_read("max_tensors");
	int err;

	CHECK_WHY(before > 0 && param_read("max_refs") > 0 && param_read("mode") > 0,
		  "limits: max_tensors, max_refs and mode are there",
		  "max_tensors %lld, max_refs %lld, mode %lld", before,
		  param_read("max_refs"), param_read("mode"));
	err = param_write_err("max_tensors", "0");
	CHECK_WHY(err == -EINVAL, "limits: max_tensors=0 refused (EINVAL)",
		  "got %d", err);
	err = param_write_err("max_tensors", "2147483648");
	CHECK_WHY(err == -EINVAL, "limits: max_tensors=2^31 refused (EINVAL)",
		  "got %d", err);
	err = param_write_err("max_refs", "4294967295");
	CHECK_WHY(err == -EINVAL, "limits: max_refs=2^32-1 refused (EINVAL)",
		  "got %d", err);
	CHECK_WHY(before > 0 && param_read("max_tensors") == before,
		  "limits: max_tensors unchanged by refused writes", "now %lld",
		  param_read("max_tensors"));
	/* 0444: the open for writing is refused, the file is there. */
	err = param_write_err("mode", "0666");
	CHECK_WHY(err == -EACCES,
		  "limits: mode is read-only once loaded (EACCES)", "got %d",
		  err);
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
TEST_F(dev, quotas)
{
	long long file0 = param_read("max_file_plans");
	long long user0 = param_read("max_user_plans");
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	struct ta_info before, after;
	char buf[32];
	int a, b, err;

	if (!param_write("max_file_plans", "3") ||
	    !param_write("max_user_plans", "5")) {
		CHECK_WHY(false, "quotas: set", "cannot write parameters");
		return;
	}
	a = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	b = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	err = quota_fd_creates(a, 3);
	info_now(self->fd, &before);
	err = err ?: (ioctl(a, TA_IOCTL_PLAN_CREATE, &c) ? -errno : 0);
	info_now(self->fd, &after);
	CHECK_WHY(err == -EDQUOT && after.n_plans == before.n_plans &&
		  after.bytes_in_use == before.bytes_in_use,
		  "quotas: max_file_plans+1st create on one fd -> EDQUOT",
		  "got %d, plans %u -> %u", err, before.n_plans, after.n_plans);
	err = quota_fd_creates(b, 2);
	CHECK_WHY(err == 0,
		  "quotas: another fd of the uid may create up to max_user_plans",
		  "got %d", err);
	err = quota_fd_creates(b, 1);
	CHECK_WHY(err == -EDQUOT,
		  "quotas: max_user_plans+1st create of the uid -> EDQUOT",
		  "got %d", err);
	CHECK_WHY(as_user(1001, 1000, quota_other_uid) == 0,
		  "quotas: another uid still creates", "refused");
	close(a);
	err = quota_fd_creates(b, 1);
	CHECK_WHY(err == 0,
		  "quotas: closing a file gives its plans back to the uid",
		  "got %d", err);
	close(b);

	/* Arena bytes: one page per uid. */
	if (param_write("max_user_bytes", "4K")) {
		g_tensors[0].size += 8192;
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		info_now(self->fd, &before);
		err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
		info_now(self->fd, &after);
		g_tensors[0].size -= 8192;
		CHECK_WHY(err == -EDQUOT && after.n_plans == before.n_plans &&
			  after.bytes_in_use == before.bytes_in_use,
			  "quotas: a plan above max_user_bytes -> EDQUOT, nothing changed",
			  "got %d", err);
		param_write("max_user_bytes", "0");
	} else {
		CHECK_WHY(false, "quotas: max_user_bytes writable", "no");
	}
	snprintf(buf, sizeof(buf), "%lld", file0);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%lld", user0);
	param_write("max_user_plans", buf);
	info_now(self->fd, &after);
	CHECK_WHY(after.n_plans == 0 &&
		  after.bytes_in_use == 0, "quotas: everything given back",
		  "plans %u in use %llu", after.n_plans,
		  (unsigned long long)after.bytes_in_use);
}
