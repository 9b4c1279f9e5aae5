/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* tactl.h - the subcommands of tactl; each lives in its own cmd_*.c. */
#ifndef TACTL_H
#define TACTL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorarena.h"

int tactl_cmd_info(int argc, char **argv);
int tactl_cmd_plan(int argc, char **argv);
int tactl_cmd_list(int argc, char **argv);
int tactl_cmd_show(int argc, char **argv);
int tactl_cmd_destroy(int argc, char **argv);
int tactl_cmd_export(int argc, char **argv);
int tactl_cmd_draw(int argc, char **argv);
int tactl_cmd_watch(int argc, char **argv);
int tactl_cmd_import(int argc, char **argv);

/*
 * Before any work: can @path (an output file; NULL or "-" is stdout) be
 * written? Prints "tactl: cannot write PATH: why" when not. Return: 0 or -1.
 */
int tactl_check_output(const char *path);

/*
 * A number argument @s of option (or operand) @what of command @cmd:
 * decimal digits, or hexadecimal ones after 0x, nothing else (no sign, no
 * blanks), from @min to @max, into *@v. Otherwise prints "tactl CMD: bad
 * WHAT 'S' (wants a number from MIN to MAX)" and returns -EINVAL: a usage
 * error, exit 2.
 */
int tactl_parse_num(const char *cmd, const char *what, const char *s,
		    __u64 min, __u64 max, __u64 *v);

/*
 * A strategy's name (ta_strategy_str()), or "strategy N" in @buf (of @len
 * bytes, TACTL_STRATEGY_LEN will do) for a number without one. Return: the
 * name or @buf, never NULL.
 */
#define TACTL_STRATEGY_LEN 24
const char *tactl_strategy_str(uint32_t strategy, char *buf, size_t len);

/**
 * struct plan_group - tactl plan with several files (cmd_plan_group.c)
 * @files: the models, members in this order
 * @n_files: 2 to %TA_GROUP_MAX_MEMBERS
 * @lanes: per member, its lane
 * @link_specs: --link arguments, M:TENSOR=M:TENSOR
 * @n_link_specs: their number
 * @shared_specs: --shared arguments, KEY=M:TENSOR[,M:TENSOR...]
 * @n_shared_specs: their number
 * @strategy: %TA_STRATEGY_*
 * @budget_ns: budget, 0: default
 * @capacity: --capacity, 0: the height
 * @align: --align, 0: the file's
 * @no_const: --no-constants
 * @json: --json
 * @offline: --offline
 * @dry_run: --dry-run
 * @hold_s: --hold
 * @transport: --ioctl, --netlink
 * @out_csv: -o
 * @out_svg: --svg
 */
struct plan_group {
	const char *files[TA_GROUP_MAX_MEMBERS];
	__u32 n_files;
	__u32 lanes[TA_GROUP_MAX_MEMBERS];
	const char *link_specs[TA_GROUP_MAX_LINKS];
	__u32 n_link_specs;
	const char *shared_specs[TA_GROUP_MAX_SHARED];
	__u32 n_shared_specs;
	int strategy;
	__u64 budget_ns;
	__u64 capacity;
	__u64 align;
	bool no_const;
	bool json;
	bool offline;
	bool dry_run;
	unsigned int hold_s;
	enum ta_transport transport;
	const char *out_csv;
	const char *out_svg;
};

/* Plan @pg's files as one group; the exit status (0, 1, 2). */
int tactl_plan_group(const struct plan_group *pg);

#endif /* TACTL_H */
