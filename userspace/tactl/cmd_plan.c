// SPDX-License-Identifier: GPL-2.0 OR MIT
/* cmd_plan.c - placeholder until the planner lands. */
#include <stdio.h>

#include "tactl.h"

int tactl_cmd_plan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "tactl plan: not implemented yet\n");
	return 1;
}
