// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bench_tier_models.c - ta_bench --tier MODELS_DIR: every shared model
 * with a fast tier (SRAM) of 64 KiB, 256 KiB, 512 KiB and 1 MiB.
 *
 * Each .tflite and .onnx model of the directory is read without its
 * constants (as tactl plan --no-constants, and the other benches) with
 * the default weights (the bytes the NPU moves). Per SRAM size, the share of the
 * weight served from SRAM by ta_tier_solve() with auto, by a plain rule
 * (the smallest tensors first, each at the lowest offset free over its
 * lifetime below the capacity, skipped when there is none), and the bound
 * (ta_tier_bound()); the DRAM height without the tier (auto alone) and
 * with it; the plan time of both. Every tiered plan, the plain rule's
 * too (its fast set pinned, both tiers planned by ta_tier_solve()), is
 * checked with ta_tier_check(). Exit status 1 when one fails.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ta_files.h"
#include "ta_tier.h"

int ta_bench_tier_models(const char *dir, u64 budget_ns);

#define BTM_MAX_MODELS	64

static const u64 btm_sram[] = { 64 << 10, 256 << 10, 512 << 10, 1 << 20 };

/**
 * struct btm_unit - an alias class (in-place chain) of the graph: one
 * memory, so one tier
 * @size: its size
 * @align: its largest alignment
 * @start: its first step
 * @end: its end
 * @off: the plain rule's offset in SRAM, or U64_MAX when left in DRAM
 */
struct btm_unit {
	u64 size, align;
	u32 start, end;
	u64 off;
};

static int btm_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lowest aligned offset where @u fits beside the placed units, or U64_MAX. */
static u64 btm_first_fit(const struct btm_unit *units, const u32 *placed,
			 u32 n_placed, const struct btm_unit *u, u64 cap)
{
	u64 off = 0, a = u->align ? u->align : 1;
	bool moved = true;
	u32 k;

	while (moved) {
		moved = false;
		off = (off + a - 1) / a * a;
		if (off + u->size > cap)
			return U64_MAX;
		for (k = 0; k < n_placed; k++) {
			const struct btm_unit *v = &units[placed[k]];

			if (v->start >= u->end || u->start >= v->end ||
			    v->off >= off + u->size || off >= v->off + v->size)
				continue;
			off = v->off + v->size;
			moved = true;
			break;
		}
	}
	return off;
}

/*
 * The plain rule's fast set, as pins: units by size (smallest first), each
 * placed first-fit below @cap or left out. Return: 0, -ENOMEM.
 */
static int btm_plain_pins(const struct ta_input *in, u64 cap, u8 *pins)
{
	u32 i, n = in->prob.n_buffers, n_units = 0, n_placed = 0, *root;
	u32 *unit_of, *order, *placed;
	struct btm_unit *units;
	int ret = -ENOMEM;

	root = calloc(n + 1, sizeof(*root));
	unit_of = calloc(n + 1, sizeof(*unit_of));
	order = calloc(n + 1, sizeof(*order));
	placed = calloc(n + 1, sizeof(*placed));
	units = calloc(n + 1, sizeof(*units));
	if (!root || !unit_of || !order || !placed || !units)
		goto out;
	if (in->prob.graph)
		ta_graph_aliases(in->prob.graph, in->bufs, root);
	else
		for (i = 0; i < n; i++)
			root[i] = in->alias ? in->alias[i] : i;
	for (i = 0; i < n; i++) {
		const struct ta_buffer *b = &in->bufs[i];
		struct btm_unit *u;

		if (root[i] == i) {
			unit_of[i] = n_units;
			units[n_units].start = b->start;
			units[n_units].end = b->end;
			n_units++;
		} else {
			unit_of[i] = unit_of[root[i]];
		}
		u = &units[unit_of[i]];
		if (b->size > u->size)
			u->size = b->size;
		if (b->align > u->align)
			u->align = b->align;
		if (b->start < u->start)
			u->start = b->start;
		if (b->end > u->end)
			u->end = b->end;
	}
	for (i = 0; i < n_units; i++)
		order[i] = i;
	/* smallest first, in index order among equals (insertion sort) */
	for (i = 1; i < n_units; i++) {
		u32 j = i, t = order[i];

		while (j && units[order[j - 1]].size > units[t].size) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = t;
	}
	for (i = 0; i < n_units; i++) {
		struct btm_unit *u = &units[order[i]];

		u->off = btm_first_fit(units, placed, n_placed, u, cap);
		if (u->off != U64_MAX)
			placed[n_placed++] = order[i];
	}
	for (i = 0; i < n; i++)
		pins[i] = units[unit_of[i]].off != U64_MAX ? TA_TIER_FAST :
			  TA_TIER_SLOW;
	ret = 0;
out:
	free(root);
	free(unit_of);
	free(order);
	free(placed);
	free(units);
	return ret;
}

/* A tiered plan of @in, checked; its figures in @res. 0 or -errno. */
static int btm_tiered(const struct ta_input *in, u64 cap, const u8 *pins,
		      const struct ta_budget *budget,
		      struct ta_tier_result *res)
{
	u32 n = in->prob.n_buffers;
	struct ta_tier_request rq = {
		.capacity = cap,
		.pins = pins,
		.fast_strategy = TA_STRATEGY_AUTO,
		.slow_strategy = TA_STRATEGY_AUTO,
	};
	struct ta_tier_conflict c;
	u64 *off = calloc(n + 1, sizeof(*off)), served;
	u8 *tier = calloc(n + 1, sizeof(*tier));
	int ret = -ENOMEM;

	if (!off || !tier)
		goto out;
	memset(res, 0, sizeof(*res));
	ret = ta_tier_solve(&in->prob, &rq, budget, tier, off, res);
	if (ret)
		goto out;
	ret = ta_tier_check(&in->prob, &rq, tier, off, res->fast.height,
			    res->slow.height, &served, &c);
	if (!ret && served != res->weight_fast)
		ret = -EINVAL;
out:
	free(off);
	free(tier);
	return ret;
}

static double btm_pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* One model: a row per SRAM size. Return: 0, or 1 when a plan failed. */
static int btm_model(const char *dir, const char *file,
		     const struct ta_budget *budget)
{
	struct ta_tier_result a, plain;
	struct ta_result r;
	char path[4096], err[256] = "", name[64];
	struct ta_input in;
	u64 *off = NULL;
	u8 *pins = NULL;
	size_t k;
	int ret, failed = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(name, sizeof(name), "%.*s",
		 (int)(strlen(file) - strlen(strrchr(file, '.'))), file);
	ret = ta_input_read(path, &in, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ta_bench --tier: %s: %s\n", path,
			err[0] ? err : strerror(-ret));
		return 1;
	}
	ret = ta_input_drop_constants(&in);
	off = calloc(in.prob.n_buffers + 1, sizeof(*off));
	pins = calloc(in.prob.n_buffers + 1, sizeof(*pins));
	if (ret || !off || !pins ||
	    ta_plan_solve(&in.prob, TA_STRATEGY_AUTO, budget, off, &r)) {
		fprintf(stderr, "ta_bench --tier: %s: cannot plan it alone\n",
			name);
		failed = 1;
		goto out;
	}
	for (k = 0; k < sizeof(btm_sram) / sizeof(btm_sram[0]); k++) {
		u64 cap = btm_sram[k];

		ret = btm_tiered(&in, cap, NULL, budget, &a);
		if (!ret)
			ret = btm_plain_pins(&in, cap, pins);
		if (!ret)
			ret = btm_tiered(&in, cap, pins, budget, &plain);
		if (ret) {
			printf("| %s | %llu KiB | plan failed or invalid: %s |\n",
			       name, (unsigned long long)(cap >> 10),
			       strerror(-ret));
			failed = 1;
			continue;
		}
		printf("| %s | %u | %llu KiB | %.1f %% | %.1f %% | %.1f %% | %llu | %llu | %.2f | %.2f |\n",
		       name, in.prob.n_buffers,
		       (unsigned long long)(cap >> 10),
		       btm_pct(a.weight_fast, a.weight_total),
		       btm_pct(plain.weight_fast, plain.weight_total),
		       btm_pct(a.weight_bound, a.weight_total),
		       (unsigned long long)r.height,
		       (unsigned long long)a.slow.height,
		       (double)r.time_ns / 1e6, (double)a.time_ns / 1e6);
	}
out:
	free(off);
	free(pins);
	ta_input_free(&in);
	return failed;
}

/**
 * ta_bench_tier_models() - the per-model table of ta_bench --tier
 * @dir: the models' directory
 * @budget_ns: auto's budget, with and without tiers; 0 for the defaults
 *
 * Return: 0, or 1 when a model could not be read or planned.
 */
int ta_bench_tier_models(const char *dir, u64 budget_ns)
{
	struct ta_budget budget = { .time_ns = budget_ns };
	char *files[BTM_MAX_MODELS];
	u32 n = 0, i;
	struct dirent *e;
	int failed = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		perror(dir);
		return 1;
	}
	while ((e = readdir(d)) && n < BTM_MAX_MODELS) {
		const char *dot = strrchr(e->d_name, '.');

		if (dot && dot != e->d_name &&
		    (!strcmp(dot, ".tflite") || !strcmp(dot, ".onnx")))
			files[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(files, n, sizeof(*files), btm_cmp_name);
	if (budget_ns)
		printf("\nShared models with SRAM (auto, --no-constants, %llu ms budget;\n",
		       (unsigned long long)(budget_ns / 1000000ULL));
	else
		printf("\nShared models with SRAM (auto, --no-constants, default budgets;\n");
	printf("share of the weight, the bytes the NPU moves, served from SRAM)\n\n");
	printf("| model | tensors | SRAM | auto | smallest first | bound |"
	       " DRAM height without | with | plan ms without | with |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < n; i++) {
		failed |= files[i] ? btm_model(dir, files[i], &budget) : 1;
		free(files[i]);
	}
	printf("\n%u models, %zu SRAM sizes each%s\n", n,
	       sizeof(btm_sram) / sizeof(btm_sram[0]),
	       failed ? "; some failed" : "");
	return failed || !n;
}
