// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy.c - a plan's strategy in words, also for a number this tactl
 * does not know (a newer module's strategy): ta_strategy_str() returns
 * NULL for one.
 */
#include <stdio.h>

#include "tensorarena.h"
#include "tactl.h"

const char *tactl_strategy_str(uint32_t strategy, char *buf, size_t len)
{
	const char *name = ta_strategy_str(strategy);

	if (name)
		return name;
	snprintf(buf, len, "strategy %u", strategy);
	return buf;
}
