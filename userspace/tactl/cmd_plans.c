// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_plans.c - tactl list | show ID | destroy ID: plans in the module.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorarena.h"
#include "tactl.h"

struct tactl_opts {
	bool json;
	enum ta_transport transport;
	const char *id;
};

static const char list_usage[] =
	"usage: tactl list [--json] [--ioctl | --netlink]\n"
	"\n"
	"Lists the plans in the module that you may see (your own; all of them\n"
	"for CAP_SYS_ADMIN): ID, tensors, height, lower bound, their ratio,\n"
	"strategy and whether the plan is optimal.\n"
	"\n"
	"  --json    print the plans as one JSON array\n"
	"  --ioctl, --netlink  the transport (default: netlink if available)\n";

static const char show_usage[] =
	"usage: tactl show ID [--json] [--ioctl | --netlink]\n"
	"\n"
	"Shows plan ID: its figures and each tensor's offset and size.\n"
	"\n"
	"  --json    print the plan as one JSON object\n"
	"  --ioctl, --netlink  the transport (default: netlink if available)\n";

static const char destroy_usage[] =
	"usage: tactl destroy ID [--ioctl | --netlink]\n"
	"\n"
	"Destroys plan ID (yours; any for CAP_SYS_ADMIN). Its memory is freed\n"
	"once no mapping or dma-buf holds it any more.\n"
	"\n"
	"  --ioctl, --netlink  the transport (default: netlink if available)\n";

/*
 * The options of list, show (@want_id) and destroy (@want_id, not
 * @want_json: it prints nothing). Return: 0; 1 when the usage was asked
 * for (printed); -EINVAL for a usage error (the usage on stderr).
 */
static int tactl_parse(int argc, char **argv, struct tactl_opts *o,
		       bool want_id, bool want_json, const char *usage)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 1;
		} else if (want_json && !strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--ioctl")) {
			o->transport = TA_TRANSPORT_IOCTL;
		} else if (!strcmp(argv[i], "--netlink")) {
			o->transport = TA_TRANSPORT_NETLINK;
		} else if (want_id && !o->id && argv[i][0] != '-') {
			o->id = argv[i];
		} else {
			goto usage;
		}
	}
	if (want_id && !o->id)
		goto usage;
	return 0;
usage:
	fputs(usage, stderr);
	return -EINVAL;
}

static int tactl_open(const struct tactl_opts *o, struct ta_client **c)
{
	int err = ta_client_open(o->transport, c);

	if (err)
		fprintf(stderr, "tactl: cannot reach tensorarena: %s\n",
			strerror(-err));
	return err;
}

static int tactl_parse_id(const char *cmd, const char *s, uint32_t *id)
{
	__u64 v;

	if (tactl_parse_num(cmd, "ID", s, 1, UINT32_MAX, &v))
		return -EINVAL;
	*id = v;
	return 0;
}

struct tactl_list_ctx {
	bool json;
	int n;
};

static int tactl_list_one(const struct ta_plan_get *g, void *arg)
{
	struct tactl_list_ctx *ctx = arg;
	char sbuf[TACTL_STRATEGY_LEN];
	const char *strategy = tactl_strategy_str(g->strategy, sbuf,
						  sizeof(sbuf));

	if (ctx->json) {
		printf("%s{\"id\": %u, \"tensors\": %u, \"height\": %llu, \"lower_bound\": %llu, \"strategy\": \"%s\", \"optimal\": %s, \"plan_time_ns\": %llu, \"mmap_offset\": %llu}",
		       ctx->n ? ", " : "", g->plan_id, g->n_placements,
		       (unsigned long long)g->height,
		       (unsigned long long)g->lower_bound,
		       strategy,
		       g->optimal ? "true" : "false",
		       (unsigned long long)g->plan_time_ns,
		       (unsigned long long)g->mmap_offset);
	} else {
		if (!ctx->n)
			printf("%6s %8s %14s %14s %7s %-12s %s\n", "ID",
			       "TENSORS", "HEIGHT", "LOWER BOUND", "RATIO",
			       "STRATEGY", "OPTIMAL");
		printf("%6u %8u %14llu %14llu %7.4f %-12s %s\n", g->plan_id,
		       g->n_placements, (unsigned long long)g->height,
		       (unsigned long long)g->lower_bound,
		       g->lower_bound ? (double)g->height / g->lower_bound : 1.0,
		       strategy,
		       g->optimal ? "yes" : "no");
	}
	ctx->n++;
	return 0;
}

int tactl_cmd_list(int argc, char **argv)
{
	struct tactl_list_ctx ctx = { 0 };
	struct tactl_opts o;
	struct ta_client *c;
	int err;

	err = tactl_parse(argc, argv, &o, false, true, list_usage);
	if (err)
		return err > 0 ? 0 : 2;
	if (tactl_open(&o, &c))
		return 1;
	ctx.json = o.json;
	if (o.json)
		printf("[");
	err = ta_client_list(c, tactl_list_one, &ctx);
	if (o.json)
		printf("]\n");
	else if (!ctx.n && !err)
		printf("no plans\n");
	ta_client_close(c);
	if (err)
		fprintf(stderr, "tactl: list: %s\n", strerror(-err));
	return err ? 1 : 0;
}

int tactl_cmd_show(int argc, char **argv)
{
	struct tactl_opts o;
	struct ta_client *c;
	struct ta_plan *p;
	char sbuf[TACTL_STRATEGY_LEN];
	struct ta_plan_tiers t;
	const char *strategy;
	uint32_t id, i;
	int err;

	err = tactl_parse(argc, argv, &o, true, true, show_usage);
	if (err)
		return err > 0 ? 0 : 2;
	if (tactl_parse_id(argv[0], o.id, &id))
		return 2;
	if (tactl_open(&o, &c))
		return 1;
	err = ta_plan_open(c, id, &p);
	if (err) {
		fprintf(stderr, "tactl: plan %u: %s\n", id, strerror(-err));
		ta_client_close(c);
		return 1;
	}
	strategy = tactl_strategy_str(ta_plan_strategy(p), sbuf, sizeof(sbuf));
	ta_plan_tiers(p, &t);
	if (o.json) {
		printf("{\"id\": %u, \"height\": %llu, \"lower_bound\": %llu, \"strategy\": \"%s\", \"optimal\": %s, \"tensors\": [",
		       id, (unsigned long long)ta_plan_height(p),
		       (unsigned long long)ta_plan_lower_bound(p),
		       strategy,
		       ta_plan_optimal(p) ? "true" : "false");
		for (i = 0; i < ta_plan_tensor_count(p); i++)
			printf("%s{\"offset\": %llu, \"size\": %llu, \"tier\": \"%s\"}",
			       i ? ", " : "",
			       (unsigned long long)ta_plan_offset(p, i),
			       (unsigned long long)ta_plan_size(p, i),
			       ta_plan_tensor_tier(p, i) == TA_TIER_FAST ?
			       "fast" : "slow");
		printf("]");
		if (t.fast_capacity)
			printf(", \"sram\": %llu, \"fast_height\": %llu, \"n_fast\": %u, \"weight_total\": %llu, \"weight_fast\": %llu, \"weight_bound\": %llu",
			       (unsigned long long)t.fast_capacity,
			       (unsigned long long)t.fast_height, t.n_fast,
			       (unsigned long long)t.weight_total,
			       (unsigned long long)t.weight_fast,
			       (unsigned long long)t.weight_bound);
		printf("}\n");
	} else {
		printf("plan %u: %u tensors, height %llu, lower bound %llu, %s%s\n",
		       id, ta_plan_tensor_count(p),
		       (unsigned long long)ta_plan_height(p),
		       (unsigned long long)ta_plan_lower_bound(p),
		       strategy,
		       ta_plan_optimal(p) ? ", optimal" : "");
		/* a tiered plan: its SRAM figures and each tensor's tier */
		if (t.fast_capacity)
			printf("sram %llu bytes, %llu used by %u tensors, serving %llu of %llu weight (bound %llu)\n",
			       (unsigned long long)t.fast_capacity,
			       (unsigned long long)t.fast_height, t.n_fast,
			       (unsigned long long)t.weight_fast,
			       (unsigned long long)t.weight_total,
			       (unsigned long long)t.weight_bound);
		printf("%8s %14s %14s%s\n", "TENSOR", "OFFSET", "SIZE",
		       t.fast_capacity ? "  TIER" : "");
		for (i = 0; i < ta_plan_tensor_count(p); i++)
			printf("%8u %14llu %14llu%s\n", i,
			       (unsigned long long)ta_plan_offset(p, i),
			       (unsigned long long)ta_plan_size(p, i),
			       !t.fast_capacity ? "" :
			       ta_plan_tensor_tier(p, i) == TA_TIER_FAST ?
			       "  fast" : "  slow");
	}
	ta_plan_free(p);
	ta_client_close(c);
	return 0;
}

int tactl_cmd_destroy(int argc, char **argv)
{
	struct tactl_opts o;
	struct ta_client *c;
	struct ta_plan *p;
	uint32_t id;
	int err;

	err = tactl_parse(argc, argv, &o, true, false, destroy_usage);
	if (err)
		return err > 0 ? 0 : 2;
	if (tactl_parse_id(argv[0], o.id, &id))
		return 2;
	if (tactl_open(&o, &c))
		return 1;
	err = ta_plan_open(c, id, &p);
	if (!err) {
		err = ta_plan_destroy(p);
		ta_plan_free(p);
	}
	ta_client_close(c);
	if (err) {
		fprintf(stderr, "tactl: destroy %u: %s\n", id, strerror(-err));
		return 1;
	}
	return 0;
}
