// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_netlink.c - libtensorarena's generic netlink transport (placeholder
 * until it lands: reports the family missing, so AUTO falls back to ioctl).
 */
#include <errno.h>

#include "ta_client.h"

int ta_netlink_open(struct ta_client *c)
{
	(void)c;
	return -ENOENT;
}

const struct ta_transport_ops ta_netlink_ops;
