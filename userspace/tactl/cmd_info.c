// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_info.c - tactl info: the arena as /dev/tensorarena reports it.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tensorarena.h>

#include "tactl.h"

static const char info_usage[] =
	"usage: tactl info [--json]\n"
	"\n"
	"Shows the arena of /dev/" TA_DEVICE_NAME " (TA_IOCTL_INFO): ABI version,\n"
	"arena size, bytes in use, alignment and page size; for CAP_SYS_ADMIN\n"
	"also its DMA address range and the highest DMA address it reaches.\n"
	"\n"
	"  --json    print the figures as one JSON object\n";

int tactl_cmd_info(int argc, char **argv)
{
	struct ta_info info;
	bool json = false;
	int fd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(info_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			fputs(info_usage, stderr);
			return 2;
		}
	}
	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tactl: /dev/%s: %s (is tensorarena.ko loaded?)\n",
			TA_DEVICE_NAME, strerror(errno));
		return 1;
	}
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, TA_IOCTL_INFO, &info) < 0) {
		fprintf(stderr, "tactl: INFO: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	if (json) {
		printf("{\"abi_version\": %u, \"arena_size\": %llu, \"bytes_in_use\": %llu, \"alignment\": %llu, \"page_size\": %u, \"dma_base\": %llu, \"dma_limit\": %llu, \"fast_size\": %llu, \"fast_in_use\": %llu, \"fast_largest_free\": %llu, \"fast_flags\": %u}\n",
		       info.abi_version, (unsigned long long)info.arena_size,
		       (unsigned long long)info.bytes_in_use,
		       (unsigned long long)info.alignment, info.page_size,
		       (unsigned long long)info.dma_base,
		       (unsigned long long)info.dma_limit,
		       (unsigned long long)info.fast_size,
		       (unsigned long long)info.fast_in_use,
		       (unsigned long long)info.fast_largest_free,
		       info.fast_flags);
		return 0;
	}
	printf("tensorarena ABI %u\n", info.abi_version);
	printf("  arena size    %llu bytes (%.1f MiB)\n",
	       (unsigned long long)info.arena_size,
	       info.arena_size / 1048576.0);
	printf("  in use        %llu bytes\n",
	       (unsigned long long)info.bytes_in_use);
	printf("  alignment     %llu bytes\n",
	       (unsigned long long)info.alignment);
	printf("  page size     %u bytes\n", info.page_size);
	if (info.fast_size) {
		printf("  fast tier     %llu bytes (%.1f KiB)%s, %llu in use, largest free %llu\n",
		       (unsigned long long)info.fast_size,
		       info.fast_size / 1024.0,
		       info.fast_flags & TA_FAST_EMULATED ?
		       " of system RAM standing in for SRAM (emulated)" :
		       " of SRAM",
		       (unsigned long long)info.fast_in_use,
		       (unsigned long long)info.fast_largest_free);
		printf("  fast tier can %s\n",
		       (info.fast_flags & TA_FAST_EXPORTABLE) ?
		       "be mapped and exported (dma-buf)" :
		       (info.fast_flags & TA_FAST_MAPPABLE) ?
		       "be mapped, not exported" :
		       "be neither mapped nor exported");
	}
	/* The kernel gives addresses to an admin only. */
	if (info.dma_limit) {
		printf("  DMA address   0x%llx-0x%llx\n",
		       (unsigned long long)info.dma_base,
		       (unsigned long long)(info.dma_base + info.arena_size - 1));
		printf("  DMA limit     0x%llx\n",
		       (unsigned long long)info.dma_limit);
	}
	return 0;
}
