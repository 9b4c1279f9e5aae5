// SPDX-License-Identifier: GPL-2.0
/*
 * ta_netlink.c - the generic netlink transport (placeholder until it lands).
 */
#include "ta_internal.h"

/**
 * ta_netlink_init() - register the "tensorarena" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int ta_netlink_init(void)
{
	return 0;
}

/**
 * ta_netlink_exit() - unregister the family
 */
void ta_netlink_exit(void)
{
}
