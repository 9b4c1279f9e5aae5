// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_plan_tier.c - tactl plan --sram SIZE [--pin T=fast|slow] [--weight
 * T=W]: a plan across two tiers, an NPU's SRAM beside the arena (DRAM),
 * offline (ta_tier_solve()) or in the module (libtensorarena's tiered
 * plans), its figures, and a pin failure said of the tensor.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorarena.h"
#include "ta_files.h"
#include "ta_tier.h"
#include "tactl.h"

int tactl_tier_parse_size(const char *s, u64 *v)
{
	static const char units[] = "KMG";
	char num[64];
	const char *u;
	size_t len = strlen(s);
	u64 x, mul = 1;

	u = len ? strchr(units, s[len - 1]) : NULL;
	if (u && *u) {
		mul = 1ULL << (10 * (u - units + 1));
		len--;
	}
	if (!len || len >= sizeof(num))
		goto bad;
	memcpy(num, s, len);
	num[len] = 0;
	if (tactl_parse_num("plan", "--sram", num, 1, U64_MAX / mul, &x))
		return -EINVAL;
	*v = x * mul;
	return 0;
bad:
	fprintf(stderr, "tactl plan: bad --sram '%s' (wants bytes, a number with K, M or G after it for KiB, MiB, GiB)\n",
		s);
	return -EINVAL;
}

/* A tensor named by id (a name, a TFLite index) or, failing that, index. */
static int tier_find(const struct ta_input *in, const char *name, size_t len,
		     u32 *row)
{
	u32 i, n = in->prob.n_buffers;
	char buf[32], *end;
	unsigned long v;

	for (i = 0; in->ids && i < n; i++)
		if (in->ids[i] && strlen(in->ids[i]) == len &&
		    !strncmp(in->ids[i], name, len)) {
			*row = i;
			return 0;
		}
	if (!len || len >= sizeof(buf) || name[0] < '0' || name[0] > '9')
		return -ENOENT;
	memcpy(buf, name, len);
	buf[len] = 0;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (*end || errno || v >= n)
		return -ENOENT;
	*row = (u32)v;
	return 0;
}

/* One --pin or --weight T=VALUE: its row, and the value after '='. */
static int tier_spec(const char *opt, const struct ta_input *in,
		     const char *spec, u32 *row, const char **value)
{
	const char *eq = strrchr(spec, '=');

	if (!eq || eq == spec) {
		fprintf(stderr, "tactl plan: bad %s '%s' (wants TENSOR=%s)\n",
			opt, spec, !strcmp(opt, "--pin") ? "fast|slow" :
			"WEIGHT");
		return -EINVAL;
	}
	if (tier_find(in, spec, eq - spec, row)) {
		fprintf(stderr, "tactl plan: %s '%s': no tensor '%.*s' (a name, a TFLite index or an index below %u)\n",
			opt, spec, (int)(eq - spec), spec, in->prob.n_buffers);
		return -EINVAL;
	}
	*value = eq + 1;
	return 0;
}

int tactl_tier_prepare(const struct ta_input *in, struct plan_tier *pt)
{
	u32 i, n = in->prob.n_buffers, row;
	const char *v;
	u64 w;

	pt->pins = calloc(n ? n : 1, sizeof(*pt->pins));
	pt->weights = calloc(n ? n : 1, sizeof(*pt->weights));
	pt->given = calloc(n ? n : 1, sizeof(*pt->given));
	pt->tier = calloc(n ? n : 1, sizeof(*pt->tier));
	if (!pt->pins || !pt->weights || !pt->given || !pt->tier) {
		fprintf(stderr, "tactl plan: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (ta_tier_weights(&in->prob, pt->weights)) {
		fprintf(stderr, "tactl plan: --sram: the file's problem is malformed\n");
		return 1;
	}
	for (i = 0; i < pt->n_pin_specs; i++) {
		if (tier_spec("--pin", in, pt->pin_specs[i], &row, &v))
			return 2;
		if (strcmp(v, "fast") && strcmp(v, "slow")) {
			fprintf(stderr, "tactl plan: bad --pin '%s' (wants TENSOR=fast|slow)\n",
				pt->pin_specs[i]);
			return 2;
		}
		pt->pins[row] = !strcmp(v, "fast") ? TA_TIER_FAST :
				TA_TIER_SLOW;
	}
	for (i = 0; i < pt->n_weight_specs; i++) {
		if (tier_spec("--weight", in, pt->weight_specs[i], &row, &v) ||
		    tactl_parse_num("plan", "--weight", v, 1, U64_MAX, &w))
			return 2;
		pt->weights[row] = w;
		pt->given[row] = 1;
	}
	return 0;
}

void tactl_tier_free(struct plan_tier *pt)
{
	free(pt->pins);
	free(pt->weights);
	free(pt->given);
	free(pt->tier);
	pt->pins = NULL;
	pt->weights = NULL;
	pt->given = NULL;
	pt->tier = NULL;
}

static const char *tier_id(const struct ta_input *in, u32 row)
{
	return in->ids && row < in->prob.n_buffers && in->ids[row] ?
	       in->ids[row] : "?";
}

/* Why the pins cannot be met, said of the tensor (a row of @in). */
static void tier_fail_print(const char *file, const struct ta_input *in,
			    const struct plan_tier *pt, u32 kind, u32 row,
			    u32 step, u64 shortfall)
{
	const char *id = tier_id(in, row);
	unsigned long long sram = pt->sram, miss = shortfall;

	switch (kind) {
	case TA_TIER_FAIL_SIZE:
		fprintf(stderr, "tactl plan: %s: tensor %u (%s), pinned fast, does not fit the SRAM: it is %llu bytes larger than its %llu\n",
			file, row, id, miss, sram);
		break;
	case TA_TIER_FAIL_LIVE:
		fprintf(stderr, "tactl plan: %s: the tensors pinned fast live at step %u need %llu bytes more than the SRAM's %llu; tensor %u (%s) is the last of them to start\n",
			file, step, miss, sram, row, id);
		break;
	case TA_TIER_FAIL_PLAN:
		fprintf(stderr, "tactl plan: %s: the tensors pinned fast fit the SRAM (%llu bytes) at every step, but no plan of them found does: the best is %llu bytes too high, tensor %u (%s) ends highest\n",
			file, sram, miss, row, id);
		break;
	case TA_TIER_FAIL_CLASS:
		fprintf(stderr, "tactl plan: %s: tensor %u (%s) shares its bytes (an in-place chain) with a tensor pinned to the other tier\n",
			file, row, id);
		break;
	default:
		fprintf(stderr, "tactl plan: %s: the pins cannot be met\n",
			file);
	}
}

/* The height of one arena alone, for the figure "without the tier". */
static void tier_plain_height(const struct ta_input *in, int strategy,
			      const struct ta_budget *bp, struct plan_tier *pt)
{
	u64 *off = calloc(in->prob.n_buffers + 1, sizeof(*off));
	struct ta_result r;

	pt->plain_height = 0;
	if (off && !ta_plan_solve(&in->prob, strategy, bp, off, &r))
		pt->plain_height = r.height;
	free(off);
}

int tactl_tier_offline(const char *file, const struct ta_input *in,
		       int strategy, const struct ta_budget *bp,
		       struct plan_tier *pt, u64 *offsets, struct ta_result *res)
{
	struct ta_tier_request rq = {
		.capacity = pt->sram,
		.weights = pt->weights,
		.pins = pt->pins,
		.fast_strategy = strategy,
		.slow_strategy = strategy,
	};
	int ret;

	memset(&pt->res, 0, sizeof(pt->res));
	ret = ta_tier_solve(&in->prob, &rq, bp, pt->tier, offsets, &pt->res);
	if (ret && pt->res.fail.kind) {
		tier_fail_print(file, in, pt, pt->res.fail.kind,
				pt->res.fail.tensor, pt->res.fail.step,
				pt->res.fail.shortfall);
		return ret;
	}
	if (ret) {
		fprintf(stderr, "tactl plan: %s: planning failed: %s\n", file,
			strerror(-ret));
		return ret;
	}
	*res = pt->res.slow;
	res->time_ns = pt->res.time_ns;
	tier_plain_height(in, strategy, bp, pt);
	return 0;
}

int tactl_tier_submit(const char *file, const struct ta_input *in,
		      const u32 *cls, u32 n_units, struct ta_client *c,
		      struct ta_graph_builder *g,
		      const struct ta_plan_options *opts, struct plan_tier *pt,
		      struct ta_plan **pp)
{
	struct ta_plan_options o = *opts;
	struct ta_tier_failure fail;
	struct ta_plan_tiers t;
	u32 i, k, n = in->prob.n_buffers, *first;
	u64 *w;
	u8 *pin;
	int err = -ENOMEM;

	pt->reported = false;
	w = calloc(n_units ? n_units : 1, sizeof(*w));
	pin = calloc(n_units ? n_units : 1, sizeof(*pin));
	first = calloc(n_units ? n_units : 1, sizeof(*first));
	if (!w || !pin || !first)
		goto out;
	/* a class of a merged trace: the sum of its rows' weights, one pin */
	for (i = n; i--; ) {
		k = cls ? cls[i] : i;
		first[k] = i;
		w[k] += pt->weights[i];
		if (pt->pins[i] && pin[k] && pin[k] != pt->pins[i]) {
			tier_fail_print(file, in, pt, TA_TIER_FAIL_CLASS, i,
					0, 0);
			pt->reported = true;
			err = -EINVAL;
			goto out;
		}
		if (pt->pins[i])
			pin[k] = pt->pins[i];
	}
	for (k = 0; k < n_units; k++) {
		/* the default weight is the kernel's own unless merged */
		err = ta_graph_set_tensor_tier(g, k, cls || pt->given[k] ?
					       w[k] : 0, pin[k]);
		if (err)
			goto out;
	}
	o.fast_capacity = pt->sram;
	err = ta_plan_submit_tiered(c, g, &o, &fail, pp);
	if (err && fail.kind) {
		tier_fail_print(file, in, pt, fail.kind,
				fail.tensor < n_units ? first[fail.tensor] :
				fail.tensor, fail.step, fail.shortfall);
		pt->reported = true;
		goto out;
	}
	if (err)
		goto out;
	ta_plan_tiers(*pp, &t);
	memset(&pt->res, 0, sizeof(pt->res));
	pt->res.fast.height = t.fast_height;
	pt->res.n_fast = t.n_fast;
	pt->res.weight_total = t.weight_total;
	pt->res.weight_fast = t.weight_fast;
	pt->res.weight_bound = t.weight_bound;
	for (i = 0; i < n && ta_plan_id(*pp); i++)
		pt->tier[i] = ta_plan_tensor_tier(*pp, cls ? cls[i] : i);
	err = 0;
out:
	free(w);
	free(pin);
	free(first);
	return err;
}

void tactl_tier_plain(const struct ta_input *in, int strategy,
		      const struct ta_budget *bp, struct plan_tier *pt)
{
	tier_plain_height(in, strategy, bp, pt);
}

static double tier_pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

void tactl_tier_print(const struct plan_tier *pt, u64 height, bool json)
{
	const struct ta_tier_result *r = &pt->res;

	if (json) {
		printf(",\"sram\":%llu,\"fast_height\":%llu,\"n_fast\":%u,"
		       "\"weight_total\":%llu,\"weight_fast\":%llu,"
		       "\"weight_bound\":%llu,\"height_without_tier\":%llu",
		       (unsigned long long)pt->sram,
		       (unsigned long long)r->fast.height, r->n_fast,
		       (unsigned long long)r->weight_total,
		       (unsigned long long)r->weight_fast,
		       (unsigned long long)r->weight_bound,
		       (unsigned long long)pt->plain_height);
		return;
	}
	printf("sram:        %llu bytes, %llu used by %u tensors\n",
	       (unsigned long long)pt->sram,
	       (unsigned long long)r->fast.height, r->n_fast);
	printf("from sram:   %.2f %% of the weight (%llu of %llu)\n",
	       tier_pct(r->weight_fast, r->weight_total),
	       (unsigned long long)r->weight_fast,
	       (unsigned long long)r->weight_total);
	printf("sram bound:  %.2f %% (%llu): this plan serves %.2f %% of it\n",
	       tier_pct(r->weight_bound, r->weight_total),
	       (unsigned long long)r->weight_bound,
	       tier_pct(r->weight_fast, r->weight_bound));
	printf("dram height: %llu, without the tier %llu (%+.2f %%)\n",
	       (unsigned long long)height,
	       (unsigned long long)pt->plain_height,
	       pt->plain_height ? tier_pct(height, pt->plain_height) - 100.0 :
	       0.0);
}
