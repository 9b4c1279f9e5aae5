// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_export.c - ta_e2e_netlink's plan-export and tensor-export:
 * the dma-buf a reply installs (flags, size, bytes, the memory it keeps
 * after the plan dies), the exports that cannot complete (no descriptor
 * free, a reply that cannot be delivered), and plan-create's default-align.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/dma-buf.h>

#include "ta_e2e_nl_fixture.h"

static uint64_t page_up(uint64_t n)
{
	uint64_t page = sysconf(_SC_PAGESIZE);

	return (n + page - 1) & ~(page - 1);
}

/* Bytes of both mappings equal, writing through @w and reading via @r. */
static int same_bytes_through(unsigned char *w, const unsigned char *r,
			      uint64_t len, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < len; i++)
		w[i] = (unsigned char)(i * 7 + seed);
	return !memcmp(w, r, len);
}

/* The dma-buf @fd and the plan's mapping at @mmap_offset, both ways. */
static void check_export_mapping(int dev, int fd, uint64_t mmap_offset,
				 uint64_t slice)
{
	const char *name = "nl: export: mmap of the dma-buf shows the bytes of the plan's /dev/tensorarena mapping, both ways";
	unsigned char *via_buf, *via_plan;
	int good;

	via_buf = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	via_plan = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED,
			dev, mmap_offset);
	if (via_buf == MAP_FAILED || via_plan == MAP_FAILED) {
		printf("# mmap: %s\n", strerror(errno));
		CHECK(false, "%s", name);
	} else {
		good = !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ) &&
		       same_bytes_through(via_plan, via_buf, slice, 3) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE) &&
		       same_bytes_through(via_buf, via_plan, slice, 101) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
		if (!good)
			printf("# bytes differ or DMA_BUF_IOCTL_SYNC failed\n");
		CHECK(good, "%s", name);
	}
	if (via_buf != MAP_FAILED)
		munmap(via_buf, slice);
	if (via_plan != MAP_FAILED)
		munmap(via_plan, slice);
}

/*
 * A plan made over netlink, exported: a new close-on-exec descriptor of a
 * tensorarena dma-buf of the plan's slice, whose bytes are the plan's;
 * it keeps the memory after plan-destroy until it closes.
 */
TEST_F(nl, export)
{
	struct nl_sock *sk = self->sk;
	uint64_t use0, use1, slice, mmap_offset;
	uint32_t plans0, plans1, id;
	char line[64];
	int fd, fds0, err, good;
	struct stat st;
	struct nl_msg *m;

	info(sk, &use0, &plans0);
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 6, 5000);
	if (xfer(sk, m) || !R.plan_id) {
		printf("# create: %d %s\n", R.err, R.extack);
		CHECK(false, "nl: export: a plan to export");
		return;
	}
	id = R.plan_id;
	slice = page_up(R.height);
	mmap_offset = R.mmap_offset;

	fds0 = count_fds();
	fd = nl_export(sk, id, TA_EXPORT_CLOEXEC);
	good = fd >= 0 && fcntl(fd, F_GETFD) >= 0 && count_fds() == fds0 + 1;
	if (!good)
		printf("# fd %d (%s), descriptors %d -> %d\n", fd, R.extack,
		       fds0, count_fds());
	CHECK(good, "nl: export: the reply's fd is a new descriptor of this process");
	if (!good) {
		xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
		return;
	}
	if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
		printf("# F_GETFD 0x%x\n", fcntl(fd, F_GETFD));
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC,
	      "nl: export: TA_EXPORT_CLOEXEC sets FD_CLOEXEC");
	if (!fdinfo_has(fd, "exp_name:\ttensorarena"))
		printf("# no exp_name tensorarena in /proc/self/fdinfo/%d\n", fd);
	CHECK(fdinfo_has(fd, "exp_name:\ttensorarena"),
	      "nl: export: a dma-buf exported by tensorarena (fdinfo exp_name)");
	snprintf(line, sizeof(line), "size:\t%llu\n", (unsigned long long)slice);
	good = lseek(fd, 0, SEEK_END) == (off_t)slice && !fstat(fd, &st) &&
	       st.st_size == (off_t)slice && fdinfo_has(fd, line);
	if (!good)
		printf("# lseek %lld, st_size %lld, slice %llu\n",
		       (long long)lseek(fd, 0, SEEK_END), (long long)st.st_size,
		       (unsigned long long)slice);
	CHECK(good, "nl: export: its size is the plan's slice (lseek SEEK_END, fstat, fdinfo)");
	check_export_mapping(self->dev, fd, mmap_offset, slice);

	xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
	err = R.err;
	info(sk, &use1, &plans1);
	good = !err && plans1 == plans0 && use1 == use0 + slice;
	if (!good)
		printf("# destroy %d, plans %u -> %u, use %llu -> %llu\n", err,
		       plans0, plans1, (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(good, "nl: export: the descriptor keeps the memory after plan-destroy (bytes-in-use)");
	close(fd);
	info(sk, &use1, &plans1);
	if (use1 != use0)
		printf("# use %llu -> %llu\n", (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(use1 == use0, "nl: export: closing the descriptor returns the memory");
}

/*
 * Exports of an ioctl plan: without flags; with no descriptor free
 * (EMFILE, the dma-buf made first is freed); to a socket whose receive
 * queue is full (the kernel builds the dma-buf and reserves a number, the
 * reply and then the error are dropped: 2 drops, and no descriptor may
 * appear). None of the failed ones holds memory.
 */
TEST_F(nl, export_failures)
{
	long page = sysconf(_SC_PAGESIZE);
	struct nl_sock *sk = self->sk, *a;
	uint64_t use0, use1;
	uint32_t plans0, plans1, id, drops0, drops1;
	struct rlimit rl, low;
	char extack[256];
	int fd, fds0, i, small = 1, good;
	struct nl_msg *m;

	info(sk, &use0, &plans0);
	id = ioctl_create_one(self->dev, 2 * page);
	fd = id ? nl_export(sk, id, 0) : -ENOENT;
	good = fd >= 0 && !(fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	       lseek(fd, 0, SEEK_END) == 2 * page;
	if (!good)
		printf("# fd %d (%s)\n", fd, R.extack);
	CHECK(good, "nl: export: of an ioctl plan, without flags: no FD_CLOEXEC");
	if (fd >= 0)
		close(fd);

	fds0 = count_fds();
	fd = dup(self->dev);
	close(fd);
	getrlimit(RLIMIT_NOFILE, &rl);
	low = rl;
	low.rlim_cur = fd;	/* the lowest free number: none is left */
	setrlimit(RLIMIT_NOFILE, &low);
	fd = nl_export(sk, id, 0);
	snprintf(extack, sizeof(extack), "%s", R.extack);
	setrlimit(RLIMIT_NOFILE, &rl);
	good = fd == -EMFILE && strstr(extack, "no free file descriptor") &&
	       count_fds() == fds0;
	if (!good)
		printf("# got %d '%s', descriptors %d -> %d\n", fd, extack,
		       fds0, count_fds());
	CHECK(good, "nl: export: no free descriptor -> EMFILE, nothing installed");
	if (fd >= 0)
		close(fd);

	a = nl_open();
	setsockopt(nl_socket_get_fd(a), SOL_SOCKET, SO_RCVBUF, &small,
		   sizeof(small));
	for (i = 0; i < 16; i++) {
		m = msg_new(TA_NL_CMD_INFO, 0);
		nl_send_auto(a, m);
		nlmsg_free(m);
	}
	drops0 = sock_drops(a);
	fds0 = count_fds();
	m = export_msg(id, 0);
	nl_send_auto(a, m);
	nlmsg_free(m);
	drops1 = sock_drops(a);
	good = drops1 - drops0 >= 2 && count_fds() == fds0;
	if (!good)
		printf("# drops %u -> %u, descriptors %d -> %d\n", drops0,
		       drops1, fds0, count_fds());
	CHECK(good, "nl: export: a reply that cannot be delivered leaves no descriptor");
	nl_socket_free(a);
	ioctl_destroy(self->dev, id);
	info(sk, &use1, &plans1);
	if (use1 != use0 || plans1 != plans0)
		printf("# use %llu -> %llu\n", (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(use1 == use0 && plans1 == plans0,
	      "nl: export: failed exports hold no memory (EMFILE, undeliverable reply)");
}

/* The exporting socket closes: its plan dies, the buffer stays. */
TEST_F(nl, export_owner_close)
{
	struct nl_sock *sk = self->sk, *a;
	uint64_t use0, use1, slice = 0;
	uint32_t plans0, plans1, id;
	struct nl_msg *m;
	int fd = -1, good;

	info(sk, &use0, &plans0);
	a = nl_open();
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 4, 3000);
	if (!xfer(a, m) && R.plan_id) {
		id = R.plan_id;
		slice = page_up(R.height);
		fd = nl_export(a, id, TA_EXPORT_CLOEXEC);
	}
	nl_socket_free(a);
	info(sk, &use1, &plans1);
	good = fd >= 0 && plans1 == plans0 && use1 == use0 + slice;
	if (!good)
		printf("# fd %d, plans %u -> %u, use %llu -> %llu\n", fd,
		       plans0, plans1, (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(good, "nl: export: the owner socket's close destroys the plan, the descriptor keeps the memory");
	if (fd >= 0)
		close(fd);
	info(sk, &use1, &plans1);
	if (use1 != use0)
		printf("# use %llu -> %llu\n", (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(use1 == use0, "nl: export: last close returns it");
}

/*
 * tensor-export: the tensor's dma-buf, its size (lseek and the reply), its
 * offset, the plan's bytes at that offset, the memory kept after destroy.
 */
TEST_F(nl, tensor_export)
{
	long page = sysconf(_SC_PAGESIZE);
	struct nl_sock *sk = self->sk;
	struct ta_placement pl[3];
	struct ta_plan_get g = { 0 };
	uint64_t use0, use1, slice, i, size, offset;
	uint32_t plans0, plans1, id;
	unsigned char *plan_map, *buf_map;
	int fd, good;

	info(sk, &use0, &plans0);
	id = ioctl_create_exportable(self->dev);
	g.plan_id = id;
	g.placements = (uintptr_t)pl;
	g.n_placements = 3;
	g.placement_size = sizeof(pl[0]);
	if (!id || ioctl(self->dev, TA_IOCTL_PLAN_GET, &g)) {
		printf("# %s\n", strerror(errno));
		CHECK(false, "nl: tensor-export: a plan to export from");
		return;
	}
	slice = page_up(g.height);
	xfer(sk, tx_msg(id, 0, TA_EXPORT_CLOEXEC));
	fd = R.err ? R.err : R.fd;
	good = !R.err && fd >= 0 && R.plan_id == id && R.tensor == 0 &&
	       R.export_size == page_up(5000) &&
	       R.export_size == pl[0].size && R.export_offset == pl[0].offset &&
	       R.export_offset % page == 0;
	if (!good)
		printf("# err %d (%s) fd %d size %llu offset %llu\n", R.err,
		       R.extack, fd, (unsigned long long)R.export_size,
		       (unsigned long long)R.export_offset);
	CHECK(good, "nl: tensor-export: reply gives plan, tensor, fd, size in whole pages, offset");
	if (fd < 0) {
		ioctl_destroy(self->dev, id);
		return;
	}
	size = R.export_size;
	offset = R.export_offset;
	if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC) ||
	    !fdinfo_has(fd, "exp_name:\ttensorarena"))
		printf("# fd %d\n", fd);
	CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	      fdinfo_has(fd, "exp_name:\ttensorarena"),
	      "nl: tensor-export: the descriptor is in this process, close-on-exec");
	if (lseek(fd, 0, SEEK_END) != (off_t)size)
		printf("# %lld\n", (long long)lseek(fd, 0, SEEK_END));
	CHECK(lseek(fd, 0, SEEK_END) == (off_t)size,
	      "nl: tensor-export: lseek(SEEK_END) is the size");
	plan_map = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED,
			self->dev, g.mmap_offset);
	buf_map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (plan_map == MAP_FAILED || buf_map == MAP_FAILED) {
		printf("# %s\n", strerror(errno));
		CHECK(false, "nl: tensor-export: mmap of the plan and the tensor's dma-buf");
	} else {
		for (i = 0; i < slice; i++)
			plan_map[i] = (unsigned char)(i * 13 + 5);
		good = !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ) &&
		       !memcmp(buf_map, plan_map + offset, size) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
		if (!good)
			printf("# differ\n");
		CHECK(good, "nl: tensor-export: the dma-buf's bytes are the plan's at the tensor's offset");
	}
	if (plan_map != MAP_FAILED)
		munmap(plan_map, slice);
	ioctl_destroy(self->dev, id);
	info(sk, &use1, &plans1);
	good = plans1 == plans0 && use1 == use0 + slice;
	if (!good)
		printf("# plans %u -> %u, use %llu -> %llu\n", plans0, plans1,
		       (unsigned long long)use0, (unsigned long long)use1);
	CHECK(good, "nl: tensor-export: the dma-buf keeps the plan's memory after destroy");
	if (buf_map != MAP_FAILED) {
		good = buf_map[0] == (unsigned char)(offset * 13 + 5);
		if (!good)
			printf("# byte %x\n", buf_map[0]);
		CHECK(good, "nl: tensor-export: still the tensor's bytes after destroy");
		munmap(buf_map, size);
	}
	close(fd);
	info(sk, &use1, &plans1);
	if (use1 != use0)
		printf("# use %llu -> %llu\n", (unsigned long long)use0,
		       (unsigned long long)use1);
	CHECK(use1 == use0, "nl: tensor-export: closing it returns the memory");
}

/* default-align: 2048 for tensors without align, kept by the rest. */
TEST_F(nl, default_align)
{
	struct ta_placement pl[3];
	struct ta_plan_get g = { 0 };
	struct nl_msg *m;
	uint32_t id;
	int aligned, i;

	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	nla_put_u64(m, TA_NL_A_PLAN_DEFAULT_ALIGN, 2048);
	put_chain(m, 4, 100);
	if (xfer(self->sk, m) || !R.plan_id) {
		printf("# %d %s\n", R.err, R.extack);
		CHECK(false, "nl: create: default-align 2048");
		return;
	}
	id = R.plan_id;
	g.plan_id = id;
	g.placements = (uintptr_t)pl;
	g.n_placements = 3;
	g.placement_size = sizeof(pl[0]);
	aligned = !ioctl(self->dev, TA_IOCTL_PLAN_GET, &g);
	for (i = 0; aligned && i < 3; i++)
		aligned = pl[i].offset % 2048 == 0;
	if (!aligned)
		printf("# offsets %llu %llu %llu\n",
		       (unsigned long long)pl[0].offset,
		       (unsigned long long)pl[1].offset,
		       (unsigned long long)pl[2].offset);
	CHECK(aligned, "nl: create: default-align 2048 aligns the tensors without align");
	xfer(self->sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
}
