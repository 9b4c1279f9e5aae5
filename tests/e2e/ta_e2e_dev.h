/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_dev.h - the device calls and the file writes the end-to-end
 * programs that drive /dev/tensorarena through raw ioctls share: errno as a
 * return value, open, destroy, INFO (and, from ta_e2e_cgroup.h, one string
 * written to a file). Included once per program.
 */
#ifndef TA_E2E_DEV_H
#define TA_E2E_DEV_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tensorarena.h>

#include "ta_e2e_cgroup.h"	/* write_str() */

/* ioctl(), returning 0 or -errno. */
static inline int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

/* /dev/tensorarena opened read-write: the descriptor, or -errno. */
static inline int devopen(void)
{
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static inline int destroy(int fd, __u32 id)
{
	struct ta_plan_destroy d = { .plan_id = id };

	return xioctl(fd, TA_IOCTL_PLAN_DESTROY, &d);
}

/* The arena's figures, through a descriptor of its own (zeroes if none). */
static inline struct ta_info info(void)
{
	struct ta_info i = { 0 };
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		xioctl(fd, TA_IOCTL_INFO, &i);
		close(fd);
	}
	return i;
}

#endif /* TA_E2E_DEV_H */
