/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* tactl.h - the subcommands of tactl; each lives in its own cmd_*.c. */
#ifndef TACTL_H
#define TACTL_H

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

#endif /* TACTL_H */
