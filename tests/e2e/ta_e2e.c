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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

	close(e2e_fd);
	return e2e_failures ? 1 : 0;
}
