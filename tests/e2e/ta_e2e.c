// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e.c - end-to-end tests of /dev/tensorarena from userspace, run inside
 * the test VM with the module loaded: the program's main, the device's open
 * and INFO. The other tests are in ta_e2e_plan.c (plans, the bad-input
 * table, mmap), ta_e2e_owner.c (owners, uids, stress, access),
 * ta_e2e_export.c (dma-bufs) and ta_e2e_limits.c (alignment, limits,
 * quotas); each test opens the device itself (the "dev" fixture,
 * ta_e2e.h). One line per check:
 *   e2e: ok - NAME            or            e2e: not ok - NAME: WHY
 * and a plan "e2e: 1..N" and a line per test (ta_harness.h).
 *
 * usage: ta_e2e ARENA_SIZE_BYTES [-l] [-t TEST]...
 */
#include "ta_e2e.h"

unsigned long long e2e_arena_size;

TEST(open)
{
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	CHECK_WHY(fd >= 0, "open /dev/tensorarena", "%s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

TEST_F(dev, info_fields)
{
	struct ta_info info;
	long page = sysconf(_SC_PAGESIZE);
	int err;

	memset(&info, 0, sizeof(info));
	err = xioctl(self->fd, TA_IOCTL_INFO, &info);
	CHECK_WHY(!err, "info: succeeds", "errno %d", -err);
	CHECK_WHY(info.abi_version == TA_ABI_VERSION, "info: abi version",
		  "got %u", info.abi_version);
	CHECK_WHY(info.arena_size == e2e_arena_size, "info: arena size",
		  "got %llu, want %llu", (unsigned long long)info.arena_size,
		  e2e_arena_size);
	CHECK_WHY(info.bytes_in_use == 0, "info: nothing in use", "got %llu",
		  (unsigned long long)info.bytes_in_use);
	CHECK_WHY(info.page_size == (unsigned int)page, "info: page size",
		  "got %u, want %ld", info.page_size, page);
	CHECK_WHY(info.alignment >= (unsigned long long)page &&
		  !(info.alignment & (info.alignment - 1)),
		  "info: alignment is a power of two >= page size", "got %llu",
		  (unsigned long long)info.alignment);
	/* Run as root: the DMA addresses are filled in. */
	CHECK_WHY(info.dma_limit &&
		  info.dma_limit >= info.dma_base + info.arena_size - 1,
		  "info: root sees the arena's DMA range under the device's limit",
		  "dma_base 0x%llx, dma_limit 0x%llx",
		  (unsigned long long)info.dma_base,
		  (unsigned long long)info.dma_limit);
}

TEST_F(dev, info_rejects_nonzero)
{
	struct ta_info info;
	int err;

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	err = xioctl(self->fd, TA_IOCTL_INFO, &info);
	CHECK_WHY(err == -EINVAL, "info: flags != 0 -> EINVAL", "got %d", err);

	memset(&info, 0, sizeof(info));
	info.reserved = 1ULL << 63;
	err = xioctl(self->fd, TA_IOCTL_INFO, &info);
	CHECK_WHY(err == -EINVAL && info.arena_size == 0,
		  "info: reserved != 0 -> EINVAL", "got %d, arena_size %llu",
		  err, (unsigned long long)info.arena_size);
}

TEST_F(dev, ioctl_numbers)
{
	unsigned char buf[256];
	int err;

	memset(buf, 0, sizeof(buf));
	err = xioctl(self->fd, _IOWR(TA_IOCTL_BASE, 0x7f, struct ta_info), buf);
	CHECK_WHY(err == -ENOTTY, "ioctl: unknown number -> ENOTTY", "got %d",
		  err);
	err = xioctl(self->fd, _IOWR('x', 0x00, struct ta_info), buf);
	CHECK_WHY(err == -ENOTTY, "ioctl: foreign type -> ENOTTY", "got %d",
		  err);
	err = xioctl(self->fd, _IOR(TA_IOCTL_BASE, 0x00, struct ta_info), buf);
	CHECK_WHY(err == -ENOTTY, "ioctl: wrong direction -> ENOTTY", "got %d",
		  err);
	err = xioctl(self->fd, _IO(TA_IOCTL_BASE, 0x00), NULL);
	CHECK_WHY(err == -ENOTTY, "ioctl: no argument -> ENOTTY", "got %d", err);
	err = xioctl(self->fd, _IOWR(TA_IOCTL_BASE, 0x00, __u64), buf);
	CHECK_WHY(err == -EINVAL, "ioctl: truncated struct -> EINVAL", "got %d",
		  err);
}

TEST_F(dev, info_sizes)
{
	unsigned char buf[sizeof(struct ta_info) + 64];
	struct ta_info *info = (struct ta_info *)buf;
	unsigned long bigger = _IOWR(TA_IOCTL_BASE, 0x00, buf);
	int err;

	memset(buf, 0, sizeof(buf));
	err = xioctl(self->fd, bigger, buf);
	CHECK_WHY(!err && info->arena_size == e2e_arena_size,
		  "info: larger struct with zero tail accepted", "got %d", err);

	memset(buf, 0, sizeof(buf));
	buf[sizeof(buf) - 1] = 1;
	err = xioctl(self->fd, bigger, buf);
	CHECK_WHY(err == -E2BIG && info->arena_size == 0,
		  "info: larger struct with non-zero tail -> E2BIG", "got %d",
		  err);
}

TEST_F(dev, info_bad_pointers)
{
	void *unmapped;
	int err;

	err = xioctl(self->fd, TA_IOCTL_INFO, NULL);
	CHECK_WHY(err == -EFAULT, "info: NULL pointer -> EFAULT", "got %d", err);

	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (unmapped == MAP_FAILED) {
		CHECK_WHY(false, "info: unmapped pointer -> EFAULT", "mmap: %s",
			  strerror(errno));
		return;
	}
	munmap(unmapped, 4096);
	err = xioctl(self->fd, TA_IOCTL_INFO, unmapped);
	CHECK_WHY(err == -EFAULT, "info: unmapped pointer -> EFAULT", "got %d",
		  err);

	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	err = xioctl(self->fd, TA_IOCTL_INFO, unmapped);
	CHECK_WHY(err == -EFAULT, "info: read-only buffer -> EFAULT", "got %d",
		  err);
	munmap(unmapped, 4096);
}



int main(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: ta_e2e ARENA_SIZE_BYTES [-l] [-t TEST]...\n");
		return 2;
	}
	e2e_arena_size = strtoull(argv[1], NULL, 0);
	return ta_harness_main(argc - 2, argv + 2) ? 1 : 0;
}
