// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_plan.c - tactl plan: plan a trace CSV or a graph file in the module
 * (through libtensorarena) or offline.
 *
 *	tactl plan FILE [--strategy NAME] [--budget-ms N] [-o PLAN.csv]
 *		   [--svg PLAN.svg] [--json] [--no-constants]
 *		   [--offline | --dry-run] [--hold SECONDS]
 *		   [--ioctl | --netlink] [--align N]
 *		   [--exportable NAME[,NAME...]] [--no-inplace]
 *		   [--write-metadata OUT.tflite]
 *		   [--sram SIZE [--pin T=fast|slow]... [--weight T=W]...]
 *		   (cmd_plan_tier.c)
 *	tactl plan A B [C...] [--lane N] [--lanes L,L,...] [--link ...]
 *		   [--shared ...] [--capacity BYTES]	(a group:
 *		   cmd_plan_group.c)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorarena.h"
#include "ta_files.h"
#include "tactl.h"

/**
 * struct plan_submit - how to hand the plan to the module
 * @offline: plan in this process instead
 * @dry_run: plan in the kernel without taking arena memory
 * @hold_s: keep the plan (and this process) this many seconds
 * @transport: which transport
 * @fixed: %TA_STRATEGY_FIXED: the file's own offsets, else NULL
 * @tier: --sram: the tier request and its outcome, else NULL
 */
struct plan_submit {
	bool offline;
	bool dry_run;
	unsigned int hold_s;
	enum ta_transport transport;
	const u64 *fixed;
	struct plan_tier *tier;
};

static void plan_usage(FILE *out)
{
	int s;

	fprintf(out,
		"usage: tactl plan FILE [--strategy NAME] [--budget-ms N] [-o PLAN.csv]\n"
		"                  [--svg PLAN.svg] [--json] [--no-constants]\n"
		"                  [--align N] [--exportable NAME[,NAME...]]\n"
		"                  [--dim NAME=SIZE]... [--no-inplace]\n"
		"                  [--write-metadata OUT.tflite]\n"
		"                  [--offline | --dry-run] [--hold SECONDS]\n"
		"                  [--ioctl | --netlink]\n"
		"                  [--sram SIZE [--pin T=fast|slow]... [--weight T=W]...]\n"
		"       tactl plan FILE FILE... [--lane N] [--lanes L,L,...]\n"
		"                  [--link M:TENSOR=M:TENSOR] [--shared KEY=M:TENSOR,...]\n"
		"                  [--capacity BYTES] [options as above]\n"
		"\n"
		"Plans a trace CSV (id,lower,upper,size[,alignment]), a graph file\n"
		"(Documentation/graph-format.md), a TFLite model (tflite.md) or an\n"
		"ONNX model (onnx.md) in the\n"
		"tensorarena module (or, with --offline, in this process with the same\n"
		"planner) and prints the\n"
		"height, the lower bound, their ratio, whether the plan is optimal and\n"
		"the planning time. A plan made in the module lives as long as tactl.\n"
		"\n"
		"  --strategy NAME  one of:");
	for (s = 0; s < TA_STRATEGY_COUNT; s++)
		fprintf(out, " %s", ta_strategy_name(s));
	fprintf(out, " (default auto), or fixed:\n"
		"                   the file's own offsets (a plan CSV's offset column, a\n"
		"                   TFLite model's OfflineMemoryAllocation metadata),\n"
		"                   checked; those of -1 are planned around the others\n"
		"  --budget-ms N    search budget for auto (default: the strategy's)\n"
		"  -o PLAN.csv      write the rows with an offset column ('-': stdout)\n"
		"  --svg PLAN.svg   draw the plan\n"
		"  --json           print the figures as one JSON object\n"
		"  --no-constants   graph or model: leave out the constant tensors\n"
		"  --align N        graph or model: align every tensor to N bytes (a\n"
		"                   TFLite model's default is 64, kDefaultTensorAlignment)\n"
		"  --exportable L   graph or model: plan the tensors named in L (graph\n"
		"                   names; a model's TFLite indices), comma-separated,\n"
		"                   exportable: whole pages, for tactl export\n"
		"  --dim NAME=SIZE  an ONNX model: the size of the graph inputs' symbolic\n"
		"                   dimension NAME (a dim_param, such as a batch N) at\n"
		"                   which it will run, or INPUT[AXIS] for one without a\n"
		"                   name (default 1; tactl import names them)\n"
		"  --no-inplace     do not let in-place ops (RESHAPE, ...) share memory\n"
		"  --write-metadata OUT.tflite  a TFLite model: write a copy of it with\n"
		"                   the plan as its OfflineMemoryAllocation metadata (what\n"
		"                   TFLite Micro reads; --strategy fixed reads it back)\n"
		"  --offline        plan here, without the module\n"
		"  --dry-run        plan in the module without taking arena memory\n"
		"  --hold SECONDS   keep the plan in the module that long before exiting\n"
		"  --ioctl, --netlink  the transport (default: netlink if available)\n"
		"  --sram SIZE      plan across two tiers: an NPU's SRAM of SIZE bytes (K,\n"
		"                   M, G: KiB, MiB, GiB) beside the arena (DRAM); the\n"
		"                   tensors that serve the most weight from it go there.\n"
		"                   Prints the share of the weight served from SRAM, the\n"
		"                   bound, the DRAM height with and without the tier; -o\n"
		"                   gains a tier column, --svg draws both tiers\n"
		"  --pin T=fast|slow  keep tensor T (a name, a TFLite index or an index)\n"
		"                   in that tier; a pin that cannot be met fails, naming\n"
		"                   the tensor and the bytes the SRAM lacks\n"
		"  --weight T=W     the value of serving tensor T from SRAM (default: the\n"
		"                   bytes the NPU moves for it, its size times one plus\n"
		"                   its readers)\n"
		"\n"
		"Several files are planned as one group (members 0, 1, ... in the order\n"
		"of the files): members of one lane run one after another and share\n"
		"bytes, members of different lanes may run at once and share none.\n"
		"  --lane N         the lane of the next file (default 0)\n"
		"  --lanes L,L,...  the lanes of the files, in order\n"
		"  --link M:T=M:T   member M's tensor T (a name, a TFLite index or an\n"
		"                   index) is the later member's input T: one tensor\n"
		"  --shared K=M:T,M:T...  tensors that are one persistent tensor, key K\n"
		"  --capacity BYTES hold a slice this big (members added later)\n"
		"It prints each member's height alone, the group's height and bound,\n"
		"the sum of the separate plans and the largest member.\n");
}

static void plan_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void plan_print(const char *file, const struct ta_input *in,
		       int strategy, const struct ta_result *res,
		       const struct plan_tier *pt, bool json)
{
	double ratio = res->lower_bound ?
		(double)res->height / (double)res->lower_bound : 1.0;

	if (json) {
		printf("{\"file\":");
		plan_json_string(file);
		printf(",\"form\":\"%s\",\"buffers\":%u,\"strategy\":\"%s\","
		       "\"height\":%llu,\"lower_bound\":%llu,\"ratio\":%.6f,"
		       "\"optimal\":%s,\"time_ns\":%llu,\"steps\":%llu,"
		       "\"search_bytes\":%llu,\"aliased\":%u",
		       in->is_graph ? "graph" : "trace", in->prob.n_buffers,
		       ta_strategy_name(strategy),
		       (unsigned long long)res->height,
		       (unsigned long long)res->lower_bound, ratio,
		       res->optimal ? "true" : "false",
		       (unsigned long long)res->time_ns,
		       (unsigned long long)res->steps,
		       (unsigned long long)res->search_bytes, res->n_aliased);
		if (pt)
			tactl_tier_print(pt, res->height, true);
		printf("}\n");
		return;
	}
	printf("file:        %s (%s, %u buffers)\n", file,
	       in->is_graph ? "graph" : "trace", in->prob.n_buffers);
	printf("strategy:    %s\n", ta_strategy_name(strategy));
	printf("height:      %llu%s\n", (unsigned long long)res->height,
	       pt ? " (DRAM)" : "");
	printf("lower bound: %llu\n", (unsigned long long)res->lower_bound);
	printf("ratio:       %.6f (+%.3f %%)\n", ratio, (ratio - 1.0) * 100.0);
	printf("optimal:     %s\n", res->optimal ? "yes" : "no");
	printf("time:        %.3f ms\n", (double)res->time_ns / 1e6);
	if (res->search_bytes)
		printf("search mem:  %llu KiB\n",
		       (unsigned long long)(res->search_bytes + 1023) / 1024);
	if (res->n_aliased)
		printf("in place:    %u tensors share their input's memory\n",
		       res->n_aliased);
	if (pt)
		tactl_tier_print(pt, res->height, false);
}

/* The file's problem as a libtensorarena graph, in the same form. */
static struct ta_graph_builder *plan_builder(const struct ta_input *in)
{
	struct ta_graph_builder *g = ta_graph_new();

	if (g && ta_input_build(in, g)) {
		ta_graph_free(g);
		return NULL;
	}
	return g;
}

/*
 * struct plan_classes - a trace's alias classes as the module gets them
 * @bufs: one buffer per class, as ta_plan_solve() plans a class
 *	  (ta_alias_trace_merge())
 * @fixed: %TA_STRATEGY_FIXED: per class, its rows' one offset
 * @cls: per row of the file, its class
 * @n: classes
 * @joined: rows that share another's memory
 */
struct plan_classes {
	struct ta_buffer *bufs;
	u64 *fixed;
	u32 *cls;
	u32 n;
	u32 joined;
};

static void plan_classes_free(struct plan_classes *pc)
{
	free(pc->bufs);
	free(pc->fixed);
	free(pc->cls);
}

/*
 * The module's lifetime form has no aliases: a trace whose alias column
 * joins rows (a plan CSV of in-place ops) goes to it one buffer per class,
 * and each row gets its class's offset back. Rows of one class must share
 * their fixed offset.
 */
static int plan_classes_make(const char *file, const struct ta_input *in,
			     const u64 *fixed, struct plan_classes *pc)
{
	u32 i, n = in->prob.n_buffers, r;

	memset(pc, 0, sizeof(*pc));
	pc->bufs = calloc(n ? n : 1, sizeof(*pc->bufs));
	pc->fixed = calloc(n ? n : 1, sizeof(*pc->fixed));
	pc->cls = calloc(n ? n : 1, sizeof(*pc->cls));
	if (!pc->bufs || !pc->fixed || !pc->cls)
		return -ENOMEM;
	pc->n = ta_alias_trace_merge(in->bufs, n, in->alias, pc->bufs, pc->cls);
	for (i = 0; i < n; i++) {
		r = in->alias[i];
		pc->joined += r != i;
		if (!fixed)
			continue;
		if (fixed[i] != fixed[r]) {
			fprintf(stderr, "tactl plan: %s: rows %u (%s) and %u (%s) are one memory (alias column) at two offsets\n",
				file, r, in->ids[r], i, in->ids[i]);
			return -EINVAL;
		}
		pc->fixed[pc->cls[i]] = fixed[i];
	}
	return 0;
}

/* Plan in the module; fill @offsets and @res like ta_plan_solve() would. */
static int plan_in_module(const char *file, const struct ta_input *in,
			  int strategy, const struct ta_budget *bp,
			  const struct plan_submit *sub, u64 *offsets,
			  struct ta_result *res, struct ta_client **cp,
			  struct ta_plan **pp)
{
	struct ta_plan_options o = {
		.strategy = strategy,
		.flags = sub->dry_run ? TA_CREATE_DRY_RUN : 0,
		.budget_ns = bp ? bp->time_ns : 0,
	};
	struct plan_classes pc = { 0 };
	const u64 *fixed = sub->fixed;
	const struct ta_input *orig = in;
	struct ta_graph_builder *g;
	struct ta_input merged;
	u32 i, n_rows = in->prob.n_buffers;
	struct ta_info info;
	int err;

	if (!in->is_graph && in->alias) {
		err = plan_classes_make(file, in, fixed, &pc);
		if (err) {
			plan_classes_free(&pc);
			return err;
		}
		memset(&merged, 0, sizeof(merged));
		merged.bufs = pc.bufs;
		merged.prob.n_buffers = pc.n;
		merged.prob.buffers = pc.bufs;
		fixed = fixed ? pc.fixed : NULL;
		in = &merged;
	}
	g = plan_builder(in);
	if (!g) {
		plan_classes_free(&pc);
		return -ENOMEM;
	}
	err = ta_client_open(sub->transport, cp);
	if (err) {
		fprintf(stderr, "tactl plan: cannot reach the tensorarena module (%s); use --offline to plan without it\n",
			strerror(-err));
		ta_graph_free(g);
		plan_classes_free(&pc);
		return err;
	}
	if (fixed)
		err = ta_plan_submit_fixed(*cp, g, (const uint64_t *)fixed,
					   0, o.flags, pp);
	else if (sub->tier)
		err = tactl_tier_submit(file, orig, pc.cls, in->prob.n_buffers,
					*cp, g, &o, sub->tier, pp);
	else
		err = ta_plan_submit(*cp, g, &o, pp);
	ta_graph_free(g);
	if (err && sub->tier && sub->tier->reported)
		;	/* the pin failure, said of the tensor */
	else if (err == -ENODEV && sub->tier)
		fprintf(stderr, "tactl plan: %s: the module has no fast tier (no sram phandle, no sram_size); use --offline to plan one\n",
			file);
	else if (err == -ENOSPC && sub->tier && !ta_client_info(*cp, &info))
		fprintf(stderr, "tactl plan: %s: no free slice is tall enough (arena: largest free %llu of %llu bytes; SRAM: largest free %llu of %llu); try --dry-run or --offline\n",
			file, (unsigned long long)info.largest_free,
			(unsigned long long)info.arena_size,
			(unsigned long long)info.fast_largest_free,
			(unsigned long long)info.fast_size);
	else if (err == -EINVAL && sub->fixed)
		fprintf(stderr, "tactl plan: %s: the module refused the file's offsets: %s\n",
			file, ta_client_last_error(*cp)[0] ?
			ta_client_last_error(*cp) :
			"two tensors live at one step share bytes, or an offset is misaligned (see the kernel log)");
	else if (err == -ENOSPC && !ta_client_info(*cp, &info))
		fprintf(stderr, "tactl plan: %s: no free slice of the arena is tall enough (largest free %llu of %llu bytes); try --dry-run or --offline\n",
			file, (unsigned long long)info.largest_free,
			(unsigned long long)info.arena_size);
	else if (err)
		fprintf(stderr, "tactl plan: %s: the module refused: %s\n",
			file, strerror(-err));
	if (!err) {
		memset(res, 0, sizeof(*res));
		res->height = ta_plan_height(*pp);
		res->lower_bound = ta_plan_lower_bound(*pp);
		res->time_ns = ta_plan_time_ns(*pp);
		res->optimal = ta_plan_optimal(*pp);
		res->n_aliased = pc.joined;
		/* a merged trace: each row its class's offset */
		for (i = 0; i < n_rows; i++)
			offsets[i] = ta_plan_offset(*pp, pc.cls ? pc.cls[i] : i);
	}
	if (!err && sub->tier)
		tactl_tier_plain(orig, strategy, bp, sub->tier);
	plan_classes_free(&pc);
	return err;
}

/* Say what is wrong with a file's own offsets (planned here). */
static void plan_conflict(const char *file, const struct ta_input *in,
			  const struct ta_conflict *c)
{
	const char *a = in->ids ? in->ids[c->a] : "?";
	const char *b = in->ids ? in->ids[c->b] : "?";

	switch (c->kind) {
	case TA_CONFLICT_OVERLAP:
		fprintf(stderr, "tactl plan: %s: fixed offsets: tensors %u (%s) and %u (%s) are both live at step %u and share bytes\n",
			file, c->a, a, c->b, b, c->step);
		break;
	case TA_CONFLICT_ALIGN:
		fprintf(stderr, "tactl plan: %s: fixed offsets: tensor %u (%s) is not at a multiple of its alignment\n",
			file, c->a, a);
		break;
	case TA_CONFLICT_HEIGHT:
		fprintf(stderr, "tactl plan: %s: fixed offsets: tensor %u (%s) ends beyond the height\n",
			file, c->a, a);
		break;
	}
}

/* --lanes L,L,...: how many it gave */
static u32 plan_lanes_count;

static int plan_parse_lanes(const char *s, u32 *lanes)
{
	const char *p = s;
	unsigned long v;
	char *end;

	plan_lanes_count = 0;
	for (;;) {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (p[0] < '0' || p[0] > '9' || errno ||
		    v >= TA_GROUP_MAX_LANES || (*end && *end != ',') ||
		    plan_lanes_count >= TA_GROUP_MAX_MEMBERS) {
			fprintf(stderr, "tactl plan: bad --lanes '%s' (wants lanes from 0 to %u, comma-separated, one per file)\n",
				s, TA_GROUP_MAX_LANES - 1);
			return -EINVAL;
		}
		lanes[plan_lanes_count++] = v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* Graph form: forget the in-place marks (to measure what they save). */
static void plan_no_inplace(struct ta_input *in)
{
	u32 i;

	for (i = 0; in->is_graph && i < in->graph.n_ops; i++)
		in->ops[i].flags &= ~TA_OP_INPLACE;
}

int tactl_cmd_plan(int argc, char **argv)
{
	struct plan_submit sub = { .transport = TA_TRANSPORT_AUTO };
	static struct plan_tier pt;
	struct ta_client *client = NULL;
	struct ta_plan *kplan = NULL;
	const char *file = NULL, *out_csv = NULL, *out_svg = NULL;
	const char *out_model = NULL;
	struct ta_budget budget = { 0 }, *bp = NULL;
	int strategy = TA_STRATEGY_AUTO, i, ret;
	struct ta_result res;
	struct ta_input in;
	bool json = false, no_const = false, no_inplace = false;
	const char *exportable = NULL;
	u64 align = 0, n;
	char err[512] = "";
	u64 *offsets;
	static struct plan_group pg;
	bool group_flags = false, lanes_list = false;
	u32 next_lane = 0;
	struct ta_onnx_dim dims[TA_ONNX_MAX_DIMS];
	struct ta_onnx_info oinfo;
	u32 n_dims = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			plan_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--strategy") && more) {
			strategy = ta_strategy_from_name(argv[++i]);
			if (strategy < 0) {
				fprintf(stderr, "tactl plan: unknown strategy '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--budget-ms") && more) {
			if (tactl_parse_num("plan", a, argv[++i], 0,
					    U64_MAX / 1000000, &n))
				return 2;
			budget.time_ns = n * 1000000;
			bp = &budget;
		} else if (!strcmp(a, "-o") && more) {
			out_csv = argv[++i];
		} else if (!strcmp(a, "--svg") && more) {
			out_svg = argv[++i];
		} else if (!strcmp(a, "--write-metadata") && more) {
			out_model = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--no-constants")) {
			no_const = true;
		} else if (!strcmp(a, "--no-inplace")) {
			no_inplace = true;
		} else if (!strcmp(a, "--offline")) {
			sub.offline = true;
		} else if (!strcmp(a, "--dry-run")) {
			sub.dry_run = true;
		} else if (!strcmp(a, "--ioctl")) {
			sub.transport = TA_TRANSPORT_IOCTL;
		} else if (!strcmp(a, "--netlink")) {
			sub.transport = TA_TRANSPORT_NETLINK;
		} else if (!strcmp(a, "--dim") && more) {
			if (tactl_parse_dim("plan", argv[++i], dims, &n_dims))
				return 2;
		} else if (!strcmp(a, "--align") && more) {
			if (tactl_parse_num("plan", a, argv[++i], 1, U64_MAX,
					    &align))
				return 2;
		} else if (!strcmp(a, "--exportable") && more) {
			exportable = argv[++i];
		} else if (!strcmp(a, "--hold") && more) {
			if (tactl_parse_num("plan", a, argv[++i], 0, UINT_MAX,
					    &n))
				return 2;
			sub.hold_s = n;
		} else if (!strcmp(a, "--sram") && more) {
			if (tactl_tier_parse_size(argv[++i], &pt.sram))
				return 2;
		} else if (!strcmp(a, "--pin") && more) {
			if (pt.n_pin_specs >= TACTL_MAX_TIER_SPECS) {
				fprintf(stderr, "tactl plan: more than %u --pin\n",
					TACTL_MAX_TIER_SPECS);
				return 2;
			}
			pt.pin_specs[pt.n_pin_specs++] = argv[++i];
		} else if (!strcmp(a, "--weight") && more) {
			if (pt.n_weight_specs >= TACTL_MAX_TIER_SPECS) {
				fprintf(stderr, "tactl plan: more than %u --weight\n",
					TACTL_MAX_TIER_SPECS);
				return 2;
			}
			pt.weight_specs[pt.n_weight_specs++] = argv[++i];
		} else if (!strcmp(a, "--lane") && more) {
			if (tactl_parse_num("plan", a, argv[++i], 0,
					    TA_GROUP_MAX_LANES - 1, &n))
				return 2;
			next_lane = n;
			group_flags = true;
		} else if (!strcmp(a, "--lanes") && more) {
			if (plan_parse_lanes(argv[++i], pg.lanes))
				return 2;
			lanes_list = group_flags = true;
		} else if (!strcmp(a, "--link") && more) {
			if (pg.n_link_specs >= TA_GROUP_MAX_LINKS) {
				fprintf(stderr, "tactl plan: more than %u --link\n",
					TA_GROUP_MAX_LINKS);
				return 2;
			}
			pg.link_specs[pg.n_link_specs++] = argv[++i];
			group_flags = true;
		} else if (!strcmp(a, "--shared") && more) {
			if (pg.n_shared_specs >= TA_GROUP_MAX_SHARED) {
				fprintf(stderr, "tactl plan: more than %u --shared\n",
					TA_GROUP_MAX_SHARED);
				return 2;
			}
			pg.shared_specs[pg.n_shared_specs++] = argv[++i];
			group_flags = true;
		} else if (!strcmp(a, "--capacity") && more) {
			if (tactl_parse_num("plan", a, argv[++i], 1, U64_MAX,
					    &pg.capacity))
				return 2;
			group_flags = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tactl plan: bad option '%s'\n", a);
			plan_usage(stderr);
			return 2;
		} else if (pg.n_files >= TA_GROUP_MAX_MEMBERS) {
			fprintf(stderr, "tactl plan: a group has at most %u members\n",
				TA_GROUP_MAX_MEMBERS);
			return 2;
		} else {
			if (!lanes_list)
				pg.lanes[pg.n_files] = next_lane;
			next_lane = 0;
			pg.files[pg.n_files++] = a;
			if (!file)
				file = a;
		}
	}
	if ((pt.n_pin_specs || pt.n_weight_specs) && !pt.sram) {
		fprintf(stderr, "tactl plan: --pin and --weight are for a plan across tiers: give --sram SIZE\n");
		return 2;
	}
	if (pt.sram && (pg.n_files > 1 || strategy == TA_STRATEGY_FIXED ||
			out_model)) {
		fprintf(stderr, "tactl plan: --sram plans one file with a strategy (not fixed) and no --write-metadata (OfflineMemoryAllocation has one arena)\n");
		return 2;
	}
	if (pg.n_files > 1) {
		if (lanes_list && plan_lanes_count != pg.n_files) {
			fprintf(stderr, "tactl plan: --lanes gives %u lanes for %u files\n",
				plan_lanes_count, pg.n_files);
			return 2;
		}
		if (out_model || exportable || no_inplace || n_dims ||
		    strategy == TA_STRATEGY_FIXED) {
			fprintf(stderr, "tactl plan: a group of files takes no --write-metadata, --exportable, --no-inplace, --dim or --strategy fixed\n");
			return 2;
		}
		if (sub.dry_run && (out_csv || out_svg)) {
			fprintf(stderr, "tactl plan: a dry run returns figures, not placements: drop -o/--svg or --dry-run\n");
			return 2;
		}
		if (sub.offline && (sub.dry_run || sub.hold_s)) {
			fprintf(stderr, "tactl plan: --dry-run and --hold are for plans in the module\n");
			return 2;
		}
		if (tactl_check_output(out_csv) || tactl_check_output(out_svg))
			return 1;
		pg.strategy = strategy;
		pg.budget_ns = bp ? bp->time_ns : 0;
		pg.align = align;
		pg.no_const = no_const;
		pg.json = json;
		pg.offline = sub.offline;
		pg.dry_run = sub.dry_run;
		pg.hold_s = sub.hold_s;
		pg.transport = sub.transport;
		pg.out_csv = out_csv;
		pg.out_svg = out_svg;
		return tactl_plan_group(&pg);
	}
	if (group_flags) {
		fprintf(stderr, "tactl plan: --lane, --lanes, --link, --shared and --capacity plan a group: give two files or more\n");
		return 2;
	}
	if (!file) {
		plan_usage(stderr);
		return 2;
	}
	if (sub.dry_run && (out_csv || out_svg || out_model)) {
		fprintf(stderr, "tactl plan: a dry run returns figures, not placements: drop -o/--svg/--write-metadata or --dry-run\n");
		return 2;
	}
	if (sub.offline && (sub.dry_run || sub.hold_s)) {
		fprintf(stderr, "tactl plan: --dry-run and --hold are for plans in the module\n");
		return 2;
	}
	/* a bad output fails before anything is planned or printed */
	if (tactl_check_output(out_csv) || tactl_check_output(out_svg) ||
	    tactl_check_output(out_model))
		return 1;

	ret = ta_input_read_dims(file, dims, n_dims, &in, &oinfo, err,
				 sizeof(err));
	if (ret) {
		fprintf(stderr, "tactl plan: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	if (oinfo.n_symbolic)
		tactl_print_unsized(file, &oinfo);
	if (no_const && (ret = ta_input_drop_constants(&in))) {
		fprintf(stderr, "tactl plan: %s: --no-constants: %s\n", file,
			ret == -EINVAL ? "not a graph or model" : strerror(-ret));
		ta_input_free(&in);
		return 2;
	}
	if ((align || exportable) &&
	    (ret = ta_input_retune(&in, align, exportable, err, sizeof(err)))) {
		fprintf(stderr, "tactl plan: %s: %s\n", file,
			err[0] ? err : strerror(-ret));
		ta_input_free(&in);
		return 2;
	}
	if (no_inplace)
		plan_no_inplace(&in);
	if (strategy == TA_STRATEGY_FIXED) {
		sub.fixed = ta_input_fixed_offsets(&in);
		if (!sub.fixed) {
			fprintf(stderr, "tactl plan: %s: strategy fixed needs the file's own offsets: a plan CSV's offset column or a TFLite model's OfflineMemoryAllocation metadata\n",
				file);
			ta_input_free(&in);
			return 2;
		}
		in.prob.fixed = sub.fixed;
	}
	if (pt.sram) {
		ret = tactl_tier_prepare(&in, &pt);
		if (ret) {
			tactl_tier_free(&pt);
			ta_input_free(&in);
			return ret;
		}
		sub.tier = &pt;
	}
	offsets = calloc(in.prob.n_buffers ? in.prob.n_buffers : 1,
			 sizeof(*offsets));
	if (!offsets) {
		ta_input_free(&in);
		fprintf(stderr, "tactl plan: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (sub.offline && sub.tier) {
		ret = tactl_tier_offline(file, &in, strategy, bp, &pt, offsets,
					 &res);
	} else if (sub.offline) {
		ret = ta_plan_solve(&in.prob, strategy, bp, offsets, &res);
		if (ret == -EINVAL && res.conflict.kind)
			plan_conflict(file, &in, &res.conflict);
		else if (ret)
			fprintf(stderr, "tactl plan: %s: planning failed: %s\n",
				file, strerror(-ret));
	} else {
		ret = plan_in_module(file, &in, strategy, bp, &sub, offsets,
				     &res, &client, &kplan);
	}
	if (ret)
		goto out;
	plan_print(file, &in, strategy, &res, sub.tier, json);
	if (kplan && !json)
		printf("where:       %s\n", ta_plan_id(kplan) ?
		       "in the module" : "in the module (dry run: no memory)");
	if (kplan && ta_plan_id(kplan) && !json)
		printf("plan id:     %u (via %s)\n", ta_plan_id(kplan),
		       ta_client_transport(client) == TA_TRANSPORT_NETLINK ?
		       "netlink" : "ioctl");
	if (out_csv) {
		ret = ta_plan_write_csv_tiered(out_csv, &in, offsets,
					       sub.tier ? pt.tier : NULL);
		if (ret) {
			fprintf(stderr, "tactl plan: %s: %s\n", out_csv,
				strerror(-ret));
			goto out;
		}
	}
	if (out_model) {
		ret = ta_tflite_write_offline(file, out_model, offsets, &in, err,
					      sizeof(err));
		if (ret) {
			fprintf(stderr, "tactl plan: --write-metadata: %s\n",
				err[0] ? err : strerror(-ret));
			goto out;
		}
		if (!json)
			printf("metadata:    %s (OfflineMemoryAllocation)\n",
			       out_model);
	}
	if (out_svg) {
		struct ta_svg_info info = {
			.title = file,
			.strategy = ta_strategy_name(strategy),
			.height = res.height,
			.lower_bound = res.lower_bound,
			.time_ns = res.time_ns,
			.tiers = sub.tier ? pt.tier : NULL,
			.fast_capacity = pt.sram,
			.fast_height = pt.res.fast.height,
		};

		ret = ta_plan_write_svg(out_svg, &in, offsets, &info);
		if (ret)
			fprintf(stderr, "tactl plan: %s: %s\n", out_svg,
				strerror(-ret));
	}
	if (kplan && ta_plan_id(kplan) && sub.hold_s) {
		fflush(stdout);
		sleep(sub.hold_s);
	}
out:
	tactl_tier_free(&pt);
	ta_plan_free(kplan);
	ta_client_close(client);
	free(offsets);
	ta_input_free(&in);
	return ret ? 1 : 0;
}
