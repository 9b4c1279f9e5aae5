/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tensorarena.h - userspace ABI of the tensorarena module (/dev/tensorarena).
 *
 * Conventions (Documentation/driver-api/ioctl.rst): fixed-size fields,
 * explicit padding, user pointers as __u64. Every ioctl struct may grow at
 * its end: the kernel accepts the size userspace was built with (encoded in
 * the ioctl number), zero-fills fields an older caller does not know and
 * rejects a newer caller's unknown trailing bytes with -E2BIG unless they are
 * zero. Pad, reserved fields and unknown flags must be zero (-EINVAL).
 * Unknown ioctls fail with -ENOTTY.
 */
#ifndef _UAPI_LINUX_TENSORARENA_H
#define _UAPI_LINUX_TENSORARENA_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Bumped on every incompatible change; additions keep it. */
#define TA_ABI_VERSION		1

#define TA_DEVICE_NAME		"tensorarena"

/**
 * struct ta_info - arena information, argument of %TA_IOCTL_INFO
 * @abi_version: Out. %TA_ABI_VERSION of the running module.
 * @flags: In. Must be zero.
 * @arena_size: Out. Bytes in the arena.
 * @bytes_in_use: Out. Bytes of the arena held by plans.
 * @alignment: Out. Alignment in bytes of the arena base and of every slice
 *	       handed to a plan (a power of two, at least the page size).
 * @page_size: Out. The kernel's page size; mmap offsets are multiples of it.
 * @pad: Must be zero.
 * @reserved: Must be zero.
 */
struct ta_info {
	__u32 abi_version;
	__u32 flags;
	__u64 arena_size;
	__u64 bytes_in_use;
	__u64 alignment;
	__u32 page_size;
	__u32 pad;
	__u64 reserved[4];
};

#define TA_IOCTL_BASE		0xA7
#define TA_IOCTL_INFO		_IOWR(TA_IOCTL_BASE, 0x00, struct ta_info)

#endif /* _UAPI_LINUX_TENSORARENA_H */
