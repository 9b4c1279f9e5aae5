/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* tactl.h - the subcommands of tactl; each lives in its own cmd_*.c. */
#ifndef TACTL_H
#define TACTL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorarena.h"
#include "ta_tier.h"

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
 * An option "--dim NAME=SIZE" of command @cmd: the size of an ONNX model's
 * symbolic dimension NAME (a graph input's dim_param), appended to @dims
 * (*@n of them so far, at most TA_ONNX_MAX_DIMS; NAME is @s, its '='
 * overwritten with a NUL).
 * Otherwise prints why and returns -EINVAL: a usage error, exit 2.
 */
struct ta_onnx_dim;
int tactl_parse_dim(const char *cmd, char *s, struct ta_onnx_dim *dims,
		    uint32_t *n);

/*
 * After an ONNX model was read: when it took a graph input's symbolic
 * dimension as 1, say so on stderr ("FILE: N symbolic input dimensions
 * taken as 1 ('NAME'): ... --dim NAME=SIZE"), as a runtime fed a larger
 * input writes larger tensors than the plan holds.
 */
struct ta_onnx_info;
void tactl_print_unsized(const char *file, const struct ta_onnx_info *info);

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

/* Most --pin and --weight options of one tactl plan. */
#define TACTL_MAX_TIER_SPECS	256

/**
 * struct plan_tier - tactl plan --sram (cmd_plan_tier.c)
 * @sram: the fast tier's capacity, bytes; 0: one arena
 * @pin_specs: --pin arguments, TENSOR=fast|slow
 * @n_pin_specs: their number
 * @weight_specs: --weight arguments, TENSOR=WEIGHT
 * @n_weight_specs: their number
 * @pins: per row of the file, %TA_TIER_*
 * @weights: per row, its weight (the default unless --weight gave one)
 * @given: per row, 1 when --weight gave its weight
 * @tier: out, per row, the tier it was placed in
 * @res: out, the figures (in the module: the fast height, the weights)
 * @plain_height: out, the height of one arena alone (same strategy and
 *		  budget, planned in this process)
 * @reported: out, a pin failure was printed
 */
struct plan_tier {
	__u64 sram;
	const char *pin_specs[TACTL_MAX_TIER_SPECS];
	__u32 n_pin_specs;
	const char *weight_specs[TACTL_MAX_TIER_SPECS];
	__u32 n_weight_specs;
	__u8 *pins;
	__u64 *weights;
	__u8 *given;
	__u8 *tier;
	struct ta_tier_result res;
	__u64 plain_height;
	bool reported;
};

struct ta_input;
struct ta_budget;
struct ta_result;

/* --sram SIZE: bytes, or a number with K, M or G; -EINVAL (said). */
int tactl_tier_parse_size(const char *s, __u64 *v);
/* Resolve --pin and --weight against the file's tensors: 0, or the exit
 * status (2: a usage error, said).
 */
int tactl_tier_prepare(const struct ta_input *in, struct plan_tier *pt);
void tactl_tier_free(struct plan_tier *pt);
/* Plan across tiers in this process: offsets within each row's tier, the
 * arena's figures in @res; a pin failure is said of the tensor.
 */
int tactl_tier_offline(const char *file, const struct ta_input *in,
		       int strategy, const struct ta_budget *bp,
		       struct plan_tier *pt, __u64 *offsets,
		       struct ta_result *res);
/* Plan across tiers in the module: @g is @in (one unit per class of @cls,
 * or per row when NULL); @pp the plan.
 */
int tactl_tier_submit(const char *file, const struct ta_input *in,
		      const __u32 *cls, __u32 n_units, struct ta_client *c,
		      struct ta_graph_builder *g,
		      const struct ta_plan_options *opts, struct plan_tier *pt,
		      struct ta_plan **pp);
/* @pt->plain_height: one arena alone, planned in this process. */
void tactl_tier_plain(const struct ta_input *in, int strategy,
		      const struct ta_budget *bp, struct plan_tier *pt);
/* The tier figures: lines of text, or JSON members to add to an object. */
void tactl_tier_print(const struct plan_tier *pt, __u64 height, bool json);

/* Plan @pg's files as one group; the exit status (0, 1, 2). */
int tactl_plan_group(const struct plan_group *pg);

#endif /* TACTL_H */
