// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_export.c - ta_e2e's dma-bufs: a plan's (PLAN_EXPORT) and a
 * tensor's (TENSOR_EXPORT), their sizes, bytes, syncs and refusals, the
 * memory they keep after destroy and close.
 */
#include <linux/dma-buf.h>

#include "ta_e2e.h"

static int export_plan(int dev, __u32 id, __u32 flags, int *fd)
{
	struct ta_plan_export x;
	int err;

	memset(&x, 0, sizeof(x));
	x.plan_id = id;
	x.flags = flags;
	err = xioctl(dev, TA_IOCTL_PLAN_EXPORT, &x);
	*fd = x.fd;
	return err;
}

TEST_F(dev, dmabuf)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_export x;
	struct dma_buf_sync sync;
	struct ta_plan_destroy d;
	long page = getpagesize();
	unsigned char *via_buf, *via_plan;
	struct ta_info info;
	int err, fd, fd2, owner;
	__u64 slice;

	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK_WHY(!err, "dma-buf: plan to export", "errno %d", -err);
	if (err)
		return;
	slice = (c.height + page - 1) & ~(__u64)(page - 1);

	err = export_plan(self->fd, c.plan_id, TA_EXPORT_CLOEXEC, &fd);
	CHECK_WHY(!err && fd >= 0 &&
		  (fcntl(fd, F_GETFD) & FD_CLOEXEC), "dma-buf: export",
		  "err %d fd %d", err, fd);
	if (err)
		return;
	err = export_plan(self->fd, c.plan_id, 0x2, &fd2);
	CHECK_WHY(err == -EINVAL, "dma-buf: unknown export flag -> EINVAL",
		  "got %d", err);
	err = export_plan(self->fd, 777777, 0, &fd2);
	CHECK_WHY(err == -ENOENT,
		  "dma-buf: export of an unknown plan -> ENOENT", "got %d", err);
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	x.pad = 1;
	err = xioctl(self->fd, TA_IOCTL_PLAN_EXPORT, &x);
	CHECK_WHY(err == -EINVAL, "dma-buf: export pad != 0 -> EINVAL",
		  "got %d", err);
	CHECK_WHY(lseek(fd, 0, SEEK_END) == (off_t)slice,
		  "dma-buf: size is the plan's slice", "size %lld",
		  (long long)lseek(fd, 0, SEEK_END));

	via_buf = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	via_plan = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
			c.mmap_offset);
	CHECK_WHY(via_buf != MAP_FAILED && via_plan != MAP_FAILED,
		  "dma-buf: mmap of the dma-buf and of the plan", "errno %d",
		  errno);
	if (via_buf != MAP_FAILED && via_plan != MAP_FAILED) {
		memset(&sync, 0, sizeof(sync));
		sync.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW;
		err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		memset(via_buf, 0x3c, slice);
		via_buf[slice - 1] = 0x7e;
		sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
		if (!err)
			err = ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) ? -errno : 0;
		CHECK_WHY(!err, "dma-buf: DMA_BUF_IOCTL_SYNC start/end",
			  "got %d", err);
		CHECK_WHY(via_plan[0] == 0x3c && via_plan[slice - 1] == 0x7e,
			  "dma-buf: same memory as the plan's mapping",
			  "bytes %x %x", via_plan[0], via_plan[slice - 1]);
		munmap(via_plan, slice);
		munmap(via_buf, slice);
	}
	via_buf = mmap(NULL, slice, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK_WHY(via_buf == MAP_FAILED && errno == EINVAL,
		  "dma-buf: private mapping -> EINVAL", "errno %d", errno);
	via_buf = mmap(NULL, slice + page, PROT_READ, MAP_SHARED, fd, 0);
	CHECK_WHY(via_buf == MAP_FAILED,
		  "dma-buf: mapping past the buffer fails", "mapped");

	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
	info_now(self->fd, &info);
	CHECK_WHY(info.n_plans == 0 && info.bytes_in_use == slice,
		  "dma-buf: keeps the memory after the plan is destroyed",
		  "plans %u in use %llu", info.n_plans,
		  (unsigned long long)info.bytes_in_use);
	close(fd);
	info_now(self->fd, &info);
	CHECK_WHY(info.bytes_in_use == 0,
		  "dma-buf: closing it returns the memory", "in use %llu",
		  (unsigned long long)info.bytes_in_use);

	/* Exported plans outlive their owner's file. */
	owner = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	err = xioctl(owner, TA_IOCTL_PLAN_CREATE, &c);
	if (!err)
		err = export_plan(owner, c.plan_id, 0, &fd);
	close(owner);
	info_now(self->fd, &info);
	CHECK_WHY(!err && info.n_plans == 0 && info.bytes_in_use > 0,
		  "dma-buf: the owner's close leaves the exported memory",
		  "err %d plans %u in use %llu", err, info.n_plans,
		  (unsigned long long)info.bytes_in_use);
	if (!err)
		close(fd);
	info_now(self->fd, &info);
	CHECK_WHY(info.bytes_in_use == 0, "dma-buf: last close returns it",
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

static int tensor_export(int dev, __u32 id, __u32 tensor, __u32 flags,
			 struct ta_tensor_export *x)
{
	memset(x, 0, sizeof(*x));
	x->plan_id = id;
	x->tensor = tensor;
	x->flags = flags;
	x->fd = -1;
	return xioctl(dev, TA_IOCTL_TENSOR_EXPORT, x);
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
TEST_F(dev, tensor_export)
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

	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK_WHY(!err, "tensor export: plan with exportable tensors",
		  "errno %d", -err);
	if (err)
		return;
	slice = (c.height + page - 1) & ~(__u64)(page - 1);
	err = get_placements(self->fd, c.plan_id, pl, G_TENSORS, &g);
	CHECK_WHY(!err && pl[0].offset % page == 0 && pl[3].offset % page == 0 &&
		  pl[0].size == (__u64)page && pl[3].size == (__u64)page &&
		  pl[1].size == g_tensors[1].size,
		  "tensor export: exportable tensors get whole pages at page-aligned offsets",
		  "err %d offsets %llu %llu sizes %llu %llu", err,
		  (unsigned long long)pl[0].offset,
		  (unsigned long long)pl[3].offset,
		  (unsigned long long)pl[0].size,
		  (unsigned long long)pl[3].size);
	CHECK_WHY(c.lower_bound >= 2 * (__u64)page && c.height >= c.lower_bound,
		  "tensor export: the lower bound counts the padding",
		  "bound %llu height %llu", (unsigned long long)c.lower_bound,
		  (unsigned long long)c.height);

	plan_map = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
			c.mmap_offset);
	CHECK_WHY(plan_map != MAP_FAILED, "tensor export: map the plan",
		  "errno %d", errno);
	if (plan_map == MAP_FAILED)
		return;
	for (i = 0; i < slice; i++)
		plan_map[i] = (unsigned char)(i * 7 + 3);

	/* Refusals first: each changes nothing. */
	info_now(self->fd, &before);
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
		err = xioctl(self->fd, TA_IOCTL_TENSOR_EXPORT, &x);
		info_now(self->fd, &after);
		CHECK_WHY(err == bad[i].err && x.fd == -1 &&
			  lowest_free_fd() == free_fd &&
			  after.n_plans == before.n_plans &&
			  after.bytes_in_use == before.bytes_in_use,
			  bad[i].name, "got %d fd %d", err, x.fd);
	}
	ro = open("/dev/" TA_DEVICE_NAME, O_RDONLY | O_CLOEXEC);
	free_fd = lowest_free_fd();
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	x.fd = -1;
	err = ro < 0 ? -errno : ioctl(ro, TA_IOCTL_TENSOR_EXPORT, &x) ? -errno : 0;
	CHECK_WHY(err == -EBADF && lowest_free_fd() == free_fd,
		  "tensor export: a read-only descriptor -> EBADF", "got %d",
		  err);
	if (ro >= 0)
		close(ro);
	/* A plan whose exportable tensor has no bytes: nothing to export. */
	c0 = export_request(t0);
	t0[5].size = 0;
	t0[5].flags |= TA_TENSOR_EXPORTABLE;
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c0);
	if (!err) {
		info_now(self->fd, &before);
		free_fd = lowest_free_fd();
		err = tensor_export(self->fd, c0.plan_id, 5, 0, &x);
		info_now(self->fd, &after);
		CHECK_WHY(err == -EINVAL && lowest_free_fd() == free_fd &&
			  after.bytes_in_use == before.bytes_in_use,
			  "tensor export: an exportable tensor of size 0 -> EINVAL",
			  "got %d", err);
		memset(&d, 0, sizeof(d));
		d.plan_id = c0.plan_id;
		xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
	} else {
		CHECK_WHY(false,
			  "tensor export: an exportable tensor of size 0 -> EINVAL",
			  "create: %d", err);
	}

	err = tensor_export(self->fd, c.plan_id, 3, TA_EXPORT_CLOEXEC, &x);
	fd = x.fd;
	CHECK_WHY(!err && fd >= 0 &&
		  (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
		  x.offset == pl[3].offset && x.size == pl[3].size,
		  "tensor export: export tensor 3",
		  "err %d fd %d offset %llu size %llu", err, fd,
		  (unsigned long long)x.offset, (unsigned long long)x.size);
	if (err) {
		munmap(plan_map, slice);
		return;
	}
	CHECK_WHY(lseek(fd, 0, SEEK_END) == (off_t)x.size,
		  "tensor export: lseek(SEEK_END) is the size in whole pages",
		  "size %lld", (long long)lseek(fd, 0, SEEK_END));
	buf_map = mmap(NULL, x.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK_WHY(buf_map != MAP_FAILED,
		  "tensor export: mmap of the tensor's dma-buf", "errno %d",
		  errno);
	if (buf_map != MAP_FAILED) {
		CHECK_WHY(!memcmp(buf_map, plan_map + x.offset, x.size),
			  "tensor export: its bytes are the plan's at the tensor's offset",
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
		CHECK_WHY(!err && same,
			  "tensor export: writes through it land at the tensor's pages only",
			  "sync %d", err);
		buf_map[0] = 0x42;
	}
	CHECK_WHY(mmap(NULL, x.size + page, PROT_READ, MAP_SHARED, fd, 0) ==
		  MAP_FAILED, "tensor export: mapping past the buffer fails",
		  "mapped");

	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	munmap(plan_map, slice);
	err = xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
	info_now(self->fd, &after);
	CHECK_WHY(!err && after.n_plans == 0 && after.bytes_in_use == slice,
		  "tensor export: keeps the plan's memory after destroy",
		  "err %d plans %u in use %llu", err, after.n_plans,
		  (unsigned long long)after.bytes_in_use);
	if (buf_map != MAP_FAILED) {
		CHECK_WHY(buf_map[0] == 0x42 && buf_map[x.size - 1] == 0xa5,
			  "tensor export: still readable after destroy",
			  "bytes %x %x", buf_map[0], buf_map[x.size - 1]);
		munmap(buf_map, x.size);
	}
	info_now(self->fd, &after);
	CHECK_WHY(after.bytes_in_use == slice,
		  "tensor export: the descriptor alone still holds it",
		  "in use %llu", (unsigned long long)after.bytes_in_use);
	close(fd);
	info_now(self->fd, &after);
	CHECK_WHY(after.bytes_in_use == 0,
		  "tensor export: closing it returns the memory", "in use %llu",
		  (unsigned long long)after.bytes_in_use);
}

/* An export whose result cannot be copied out installs no descriptor. */
TEST_F(dev, export_efault)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	long page = getpagesize();
	struct ta_plan_export *x;
	struct ta_plan_destroy d;
	struct ta_info info;
	int err, probe, next;

	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	x = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (err || x == MAP_FAILED) {
		CHECK_WHY(false, "export: EFAULT setup", "err %d", err);
		return;
	}
	memset(x, 0, sizeof(*x));
	x->plan_id = c.plan_id;
	mprotect(x, page, PROT_READ);
	probe = dup(0);
	close(probe);
	err = xioctl(self->fd, TA_IOCTL_PLAN_EXPORT, x);
	next = dup(0);
	close(next);
	info_now(self->fd, &info);
	CHECK_WHY(err == -EFAULT && next == probe && info.bytes_in_use ==
		  (unsigned long long)((c.height + page - 1) & ~(page - 1)),
		  "export: unwritable argument -> EFAULT, no descriptor left behind",
		  "err %d lowest free fd %d then %d", err, probe, next);
	munmap(x, page);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
}

