/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* tactl.h - the subcommands of tactl; each lives in its own cmd_*.c. */
#ifndef TACTL_H
#define TACTL_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

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

#endif /* TACTL_H */
