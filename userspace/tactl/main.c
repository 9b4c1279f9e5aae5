// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * tactl - command-line tool for tensorarena: inspect the arena, plan graphs.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tactl.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} tactl_commands[] = {
	{ "info", tactl_cmd_info, "show the arena of /dev/tensorarena" },
	{ "plan", tactl_cmd_plan, "plan a trace or graph file (module or --offline)" },
	{ "list", tactl_cmd_list, "list the plans you may see in the module" },
	{ "show", tactl_cmd_show, "show a plan's placements" },
	{ "destroy", tactl_cmd_destroy, "destroy a plan" },
	{ "export", tactl_cmd_export, "export an exportable tensor of a plan as a dma-buf" },
	{ "watch", tactl_cmd_watch, "print plan and arena events (netlink)" },
	{ "draw", tactl_cmd_draw, "draw a plan CSV (tactl plan -o) as SVG" },
	{ "import", tactl_cmd_import, "write a TFLite or ONNX model as a graph file" },
};

static void tactl_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: tactl COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(tactl_commands) / sizeof(tactl_commands[0]); i++)
		fprintf(out, "  %-8s %s\n", tactl_commands[i].name,
			tactl_commands[i].help);
}

int tactl_check_output(const char *path)
{
	char copy[PATH_MAX];

	if (!path || !strcmp(path, "-") || !access(path, W_OK))
		return 0;
	/* a new file: its directory must exist and be writable */
	if (errno == ENOENT && strlen(path) < sizeof(copy)) {
		strcpy(copy, path);
		if (!access(dirname(copy), W_OK | X_OK))
			return 0;
	}
	fprintf(stderr, "tactl: cannot write %s: %s\n", path, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		tactl_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof(tactl_commands) / sizeof(tactl_commands[0]); i++)
		if (!strcmp(argv[1], tactl_commands[i].name))
			return tactl_commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tactl: unknown command '%s'\n", argv[1]);
	tactl_usage(stderr);
	return 2;
}
