// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * tactl - command-line tool for tensorarena: inspect the arena, plan graphs.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_files.h"
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

int tactl_parse_num(const char *cmd, const char *what, const char *s,
		    __u64 min, __u64 max, __u64 *v)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	const char *digits = s;
	u64 x = 0;
	int err;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		digits = s + 2;
	if (!*digits || digits[strspn(digits, digits == s ? "0123456789" : hex)]) {
		err = -EINVAL;
	} else if (digits == s) {
		err = ta_parse_u64(s, &x);
	} else {
		errno = 0;
		x = strtoull(digits, NULL, 16);
		err = -errno;
	}
	if (!err && (x < min || x > max))
		err = -ERANGE;
	if (err) {
		fprintf(stderr, "tactl %s: bad %s '%s' (wants a number from %llu to %llu)\n",
			cmd, what, s, (unsigned long long)min,
			(unsigned long long)max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

int tactl_parse_dim(const char *cmd, char *s, struct ta_onnx_dim *dims,
		    uint32_t *n)
{
	char *eq = strchr(s, '=');
	u64 size;

	if (!eq || eq == s) {
		fprintf(stderr, "tactl %s: bad --dim '%s' (wants NAME=SIZE, NAME a graph input's symbolic dimension or INPUT[AXIS])\n",
			cmd, s);
		return -EINVAL;
	}
	if (*n >= TA_ONNX_MAX_DIMS) {
		fprintf(stderr, "tactl %s: more than %u --dim\n", cmd,
			TA_ONNX_MAX_DIMS);
		return -EINVAL;
	}
	if (tactl_parse_num(cmd, "--dim size", eq + 1, 0, 1ULL << 36, &size))
		return -EINVAL;
	*eq = 0;	/* the name, in place (as getsubopt() does) */
	dims[*n].name = s;
	dims[(*n)++].value = size;
	return 0;
}

void tactl_print_unsized(const char *file, const struct ta_onnx_info *info)
{
	fprintf(stderr, "%s: %u symbolic input dimension%s taken as 1", file,
		info->n_symbolic, info->n_symbolic == 1 ? "" : "s");
	if (info->unbound[0])
		fprintf(stderr, " ('%s'%s): the plan is for inputs of that size; give the size the model will run at with --dim %s%s=SIZE%s\n",
			info->unbound,
			info->unbound_others ? " and others" : "",
			strchr(info->unbound, '[') ? "'" : "", info->unbound,
			strchr(info->unbound, '[') ? "'" : "");
	else
		fprintf(stderr, ": the plan is for inputs of that size; give the size the model will run at with --dim NAME=SIZE, or --dim INPUT[AXIS]=SIZE for a dimension without a name\n");
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
