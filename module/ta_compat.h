/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_compat.h - what differs between the kernels tensorarena supports.
 *
 * One source builds against every supported kernel; each difference of the
 * kernel's API is bridged here, once, and nowhere else.
 */
#ifndef TA_COMPAT_H
#define TA_COMPAT_H

#include <linux/version.h>

/* 6.2 made the device argument of devnode() callbacks const. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define TA_DEVNODE_CONST const
#else
#define TA_DEVNODE_CONST
#endif

#endif /* TA_COMPAT_H */
