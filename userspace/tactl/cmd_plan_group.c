// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_plan_group.c - tactl plan with several files: plan the models as one
 * group (libtensorarena's ta_group_*), in the module or --offline.
 *
 *	tactl plan A B [C...] [--lane N] [--lanes L,L,...]
 *		   [--link M:TENSOR=M:TENSOR] [--shared KEY=M:TENSOR,...]
 *		   [--capacity BYTES] [--strategy NAME] [--budget-ms N]
 *		   [--no-constants] [--align N] [-o PLAN.csv] [--svg PLAN.svg]
 *		   [--json] [--offline | --dry-run] [--hold SECONDS]
 *		   [--ioctl | --netlink]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorarena.h"
#include "ta_files.h"
#include "ta_group.h"
#include "tactl.h"

/* One member's file, read as a single plan reads it. */
struct grp_member {
	const char *file;
	struct ta_input in;
	struct ta_graph_builder *g;
	u64 alone;		/* its height planned by itself */
	bool read;
};

static void grp_free(struct grp_member *mb, u32 n)
{
	u32 m;

	for (m = 0; m < n; m++) {
		ta_graph_free(mb[m].g);
		if (mb[m].read)
			ta_input_free(&mb[m].in);
	}
}

/* A tensor of member @m by its id (graph name, TFLite index), else index. */
static int grp_tensor(const struct grp_member *mb, u32 m, const char *name)
{
	const struct ta_input *in = &mb[m].in;
	unsigned long v;
	char *end;
	u32 i;

	for (i = 0; in->ids && i < in->prob.n_buffers; i++)
		if (in->ids[i] && !strcmp(in->ids[i], name))
			return (int)i;
	if (name[0] < '0' || name[0] > '9')
		return -ENOENT;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (errno || *end || v >= in->prob.n_buffers)
		return -ENOENT;
	return (int)v;
}

/*
 * "M:TENSOR" of @spec (up to @stop, or the end) into *@m and *@t. Prints
 * what is wrong. Return: 0 or -EINVAL.
 */
static int grp_ref(const char *opt, const char *spec, size_t len,
		   const struct grp_member *mb, u32 n, u32 *m, u32 *t)
{
	char buf[256], *colon, *end;
	unsigned long v;
	int ti;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, spec, len);
	buf[len] = 0;
	colon = strchr(buf, ':');
	if (!colon || colon == buf || !colon[1]) {
		fprintf(stderr, "tactl plan: %s: '%s' is not MEMBER:TENSOR\n",
			opt, buf);
		return -EINVAL;
	}
	*colon = 0;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || buf[0] < '0' || buf[0] > '9' || v >= n) {
		fprintf(stderr, "tactl plan: %s: no member %s (members are 0 to %u, in the order of the files)\n",
			opt, buf, n - 1);
		return -EINVAL;
	}
	ti = grp_tensor(mb, v, colon + 1);
	if (ti < 0) {
		fprintf(stderr, "tactl plan: %s: member %lu (%s) has no tensor '%s' (a name or an index below %u)\n",
			opt, v, mb[v].file, colon + 1, mb[v].in.prob.n_buffers);
		return -EINVAL;
	}
	*m = v;
	*t = ti;
	return 0;
}

/* --link FROM=TO */
static int grp_link(struct ta_group_builder *gb, const char *spec,
		    const struct grp_member *mb, u32 n,
		    struct ta_group_link *l)
{
	const char *eq = strchr(spec, '=');
	u32 fm, ft, tm, tt;

	if (!eq) {
		fprintf(stderr, "tactl plan: --link: '%s' is not M:TENSOR=M:TENSOR\n",
			spec);
		return -EINVAL;
	}
	if (grp_ref("--link", spec, eq - spec, mb, n, &fm, &ft) ||
	    grp_ref("--link", eq + 1, strlen(eq + 1), mb, n, &tm, &tt))
		return -EINVAL;
	l->from_member = fm;
	l->from_tensor = ft;
	l->to_member = tm;
	l->to_tensor = tt;
	return ta_group_link(gb, fm, ft, tm, tt);
}

/* --shared KEY=M:TENSOR,M:TENSOR... */
static int grp_shared(struct ta_group_builder *gb, const char *spec,
		      const struct grp_member *mb, u32 n,
		      struct ta_group_shared *sh, u32 *n_sh)
{
	const char *eq = strchr(spec, '='), *p, *comma;
	unsigned long key;
	char *end;
	u32 m, t;
	int err;

	errno = 0;
	key = strtoul(spec, &end, 10);
	if (!eq || end != eq || spec[0] < '0' || spec[0] > '9' || errno ||
	    key > UINT32_MAX || !eq[1]) {
		fprintf(stderr, "tactl plan: --shared: '%s' is not KEY=M:TENSOR[,M:TENSOR...] (KEY a number)\n",
			spec);
		return -EINVAL;
	}
	for (p = eq + 1; *p; p = *comma ? comma + 1 : comma) {
		comma = strchr(p, ',');
		if (!comma)
			comma = p + strlen(p);
		if (grp_ref("--shared", p, comma - p, mb, n, &m, &t))
			return -EINVAL;
		if (*n_sh >= TA_GROUP_MAX_SHARED) {
			fprintf(stderr, "tactl plan: --shared: more than %u shared tensors\n",
				TA_GROUP_MAX_SHARED);
			return -E2BIG;
		}
		memset(&sh[*n_sh], 0, sizeof(sh[0]));
		sh[*n_sh].member = m;
		sh[*n_sh].tensor = t;
		sh[*n_sh].key = key;
		(*n_sh)++;
		err = ta_group_share(gb, m, t, key);
		if (err)
			return err;
	}
	return 0;
}

/* The group's picture: ta_group_layout()'s time, one colour per member. */
static int grp_svg(const char *path, const struct grp_member *mb, u32 n,
		   const u32 *lanes, struct ta_group *grp,
		   const struct ta_group_link *links, u32 n_links,
		   const struct ta_group_shared *shared, u32 n_shared,
		   const char *strategy)
{
	struct ta_group_member_problem mp[TA_GROUP_MAX_MEMBERS];
	struct ta_group_problem gp = { 0 };
	struct ta_group_svg_member sm[TA_GROUP_MAX_MEMBERS];
	struct ta_group_buffer *buf;
	u64 *offsets;
	u32 m, t, k, total;
	int err;

	for (m = 0; m < n; m++) {
		mp[m].problem = mb[m].in.prob;
		mp[m].problem.fixed = NULL;
		mp[m].lane = lanes[m];
	}
	gp.n_members = n;
	gp.members = mp;
	gp.n_links = n_links;
	gp.links = links;
	gp.n_shared = n_shared;
	gp.shared = shared;
	total = ta_group_tensor_count(&gp);
	buf = calloc(total ? total : 1, sizeof(*buf));
	offsets = calloc(total ? total : 1, sizeof(*offsets));
	if (!buf || !offsets) {
		err = -ENOMEM;
		goto out;
	}
	err = ta_group_layout(&gp, buf);
	if (err)
		goto out;
	for (m = 0, k = 0; m < n; m++) {
		const struct ta_plan *p = ta_group_member(grp, m);

		sm[m].file = mb[m].file;
		sm[m].lane = lanes[m];
		sm[m].first = k;
		sm[m].ids = mb[m].in.ids;
		for (t = 0; t < mb[m].in.prob.n_buffers; t++, k++)
			offsets[k] = ta_plan_offset(p, t);
	}
	{
		struct ta_svg_info info = {
			.title = "group",
			.strategy = strategy,
			.height = ta_group_height(grp),
			.lower_bound = ta_group_lower_bound(grp),
			.time_ns = ta_group_time_ns(grp),
		};

		err = ta_group_write_svg(path, sm, n, buf, offsets, total,
					 &info);
	}
out:
	free(buf);
	free(offsets);
	return err;
}

static void grp_json_string(const char *s)
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

static void grp_usage_error(const char *what)
{
	fprintf(stderr, "tactl plan: %s\n", what);
}

int tactl_plan_group(const struct plan_group *pg)
{
	struct grp_member mb[TA_GROUP_MAX_MEMBERS];
	struct ta_group_options go = { 0 };
	struct ta_plan_options po = { 0 };
	struct ta_group_builder *gb = NULL;
	struct ta_client *client = NULL;
	struct ta_group *grp = NULL;
	static struct ta_group_link links[TA_GROUP_MAX_LINKS];
	static struct ta_group_shared shared[TA_GROUP_MAX_SHARED];
	u32 n_shared = 0;
	u64 sum = 0, largest = 0;
	u32 m, t, n = pg->n_files, n_lanes = 0;
	char err[512];
	int ret = 1, r;

	memset(mb, 0, sizeof(mb));
	if (pg->strategy == TA_STRATEGY_FIXED ||
	    pg->strategy == TA_STRATEGY_PINGPONG) {
		grp_usage_error("a group is planned by auto, stack, freelist or greedy-size: not fixed or pingpong (which plan one graph)");
		return 2;
	}
	for (m = 0; m < n; m++) {
		mb[m].file = pg->files[m];
		err[0] = 0;
		r = ta_input_read(mb[m].file, &mb[m].in, err, sizeof(err));
		if (r) {
			fprintf(stderr, "tactl plan: %s\n",
				err[0] ? err : strerror(-r));
			goto out;
		}
		mb[m].read = true;
		if (pg->no_const && (r = ta_input_drop_constants(&mb[m].in))) {
			fprintf(stderr, "tactl plan: %s: --no-constants: %s\n",
				mb[m].file, r == -EINVAL ?
				"not a graph or model" : strerror(-r));
			ret = 2;
			goto out;
		}
		if (pg->align && (r = ta_input_retune(&mb[m].in, pg->align,
						      NULL, err, sizeof(err)))) {
			fprintf(stderr, "tactl plan: %s: %s\n", mb[m].file,
				err[0] ? err : strerror(-r));
			ret = 2;
			goto out;
		}
		if (!mb[m].in.is_graph && mb[m].in.alias) {
			fprintf(stderr, "tactl plan: %s: a trace with an alias column cannot be a group member\n",
				mb[m].file);
			ret = 2;
			goto out;
		}
		mb[m].g = ta_graph_new();
		if (!mb[m].g || ta_input_build(&mb[m].in, mb[m].g)) {
			fprintf(stderr, "tactl plan: %s: %s\n", mb[m].file,
				strerror(ENOMEM));
			goto out;
		}
		if (pg->lanes[m] + 1 > n_lanes)
			n_lanes = pg->lanes[m] + 1;
	}
	gb = ta_group_new();
	if (!gb)
		goto out;
	for (m = 0; m < n; m++)
		if (ta_group_add_member(gb, mb[m].g, pg->lanes[m]) < 0)
			goto out;
	for (m = 0; m < pg->n_link_specs; m++)
		if (grp_link(gb, pg->link_specs[m], mb, n, &links[m])) {
			ret = 2;
			goto out;
		}
	for (m = 0; m < pg->n_shared_specs; m++)
		if (grp_shared(gb, pg->shared_specs[m], mb, n, shared,
			       &n_shared)) {
			ret = 2;
			goto out;
		}
	go.strategy = pg->strategy;
	go.budget_ns = pg->budget_ns;
	go.capacity = pg->capacity;
	go.flags = pg->dry_run ? TA_GROUP_DRY_RUN : 0;
	if (pg->offline) {
		r = ta_group_offline(gb, &go, &grp);
	} else {
		r = ta_client_open(pg->transport, &client);
		if (r) {
			fprintf(stderr, "tactl plan: cannot reach the tensorarena module (%s); use --offline to plan without it\n",
				strerror(-r));
			goto out;
		}
		r = ta_group_submit(client, gb, &go, &grp);
	}
	if (r) {
		fprintf(stderr, "tactl plan: the group was refused: %s%s%s\n",
			strerror(-r), client && ta_client_last_error(client)[0] ?
			": " : "", client ? ta_client_last_error(client) : "");
		if (r == -EINVAL)
			fprintf(stderr, "tactl plan: (a link reads a graph input of a later member from a tensor that is not constant, persistent or exportable; a shared tensor is not linked; lanes are below %u)\n",
				TA_GROUP_MAX_LANES);
		if (r == -ENOSPC && pg->capacity)
			fprintf(stderr, "tactl plan: the group needs more than --capacity %llu bytes\n",
				(unsigned long long)pg->capacity);
		goto out;
	}
	/* each member alone, offline with the same strategy: the baseline */
	po.strategy = pg->strategy;
	po.budget_ns = pg->budget_ns;
	for (m = 0; m < n; m++) {
		struct ta_plan *p;

		r = ta_plan_offline(mb[m].g, &po, &p);
		if (r) {
			fprintf(stderr, "tactl plan: %s: planning it alone failed: %s\n",
				mb[m].file, strerror(-r));
			goto out;
		}
		mb[m].alone = ta_plan_height(p);
		sum += mb[m].alone;
		if (mb[m].alone > largest)
			largest = mb[m].alone;
		ta_plan_free(p);
	}
	if (pg->json) {
		printf("{\"members\":[");
		for (m = 0; m < n; m++) {
			printf("%s{\"file\":", m ? "," : "");
			grp_json_string(mb[m].file);
			printf(",\"lane\":%u,\"tensors\":%u,\"alone\":%llu,\"plan_id\":%u}",
			       pg->lanes[m],
			       mb[m].in.prob.n_buffers,
			       (unsigned long long)mb[m].alone,
			       ta_group_member(grp, m) ?
			       ta_plan_id(ta_group_member(grp, m)) : 0);
		}
		printf("],\"strategy\":\"%s\",\"height\":%llu,\"lower_bound\":%llu,\"sum_alone\":%llu,\"largest\":%llu,\"slice\":%llu,\"optimal\":%s,\"time_ns\":%llu,\"group_id\":%u}\n",
		       ta_strategy_name(pg->strategy),
		       (unsigned long long)ta_group_height(grp),
		       (unsigned long long)ta_group_lower_bound(grp),
		       (unsigned long long)sum, (unsigned long long)largest,
		       (unsigned long long)ta_group_slice_size(grp),
		       ta_group_optimal(grp) ? "true" : "false",
		       (unsigned long long)ta_group_time_ns(grp),
		       ta_group_id(grp));
	} else {
		printf("group:       %u members, %u lane%s, %u link%s, %u shared\n",
		       n, n_lanes, n_lanes == 1 ? "" : "s", pg->n_link_specs,
		       pg->n_link_specs == 1 ? "" : "s", n_shared);
		printf("member  lane  tensors        alone  plan  file\n");
		for (m = 0; m < n; m++) {
			const struct ta_plan *p = ta_group_member(grp, m);

			printf("%6u  %4u  %7u  %11llu  %4u  %s\n", m,
			       pg->lanes[m], mb[m].in.prob.n_buffers,
			       (unsigned long long)mb[m].alone,
			       p ? ta_plan_id(p) : 0, mb[m].file);
		}
		printf("strategy:    %s\n", ta_strategy_name(pg->strategy));
		printf("height:      %llu\n",
		       (unsigned long long)ta_group_height(grp));
		printf("lower bound: %llu\n",
		       (unsigned long long)ta_group_lower_bound(grp));
		printf("sum alone:   %llu (the members planned separately)\n",
		       (unsigned long long)sum);
		printf("largest:     %llu\n", (unsigned long long)largest);
		if (sum)
			printf("saved:       %lld bytes (%.1f %% of the sum)\n",
			       (long long)(sum - ta_group_height(grp)),
			       100.0 * ((double)sum -
					(double)ta_group_height(grp)) /
			       (double)sum);
		if (ta_group_slice_size(grp) != ta_group_height(grp))
			printf("slice:       %llu\n",
			       (unsigned long long)ta_group_slice_size(grp));
		printf("optimal:     %s\n", ta_group_optimal(grp) ? "yes" : "no");
		printf("time:        %.3f ms\n",
		       (double)ta_group_time_ns(grp) / 1e6);
		if (client)
			printf("where:       %s\n", ta_group_id(grp) ?
			       "in the module" :
			       "in the module (dry run: no memory)");
		if (ta_group_id(grp))
			printf("group id:    %u (via %s)\n", ta_group_id(grp),
			       ta_client_transport(client) ==
			       TA_TRANSPORT_NETLINK ? "netlink" : "ioctl");
	}
	if (pg->out_csv) {
		FILE *f = strcmp(pg->out_csv, "-") ? fopen(pg->out_csv, "w") :
			  stdout;

		if (!f) {
			fprintf(stderr, "tactl plan: %s: %s\n", pg->out_csv,
				strerror(errno));
			goto out;
		}
		fprintf(f, "member,id,lower,upper,size,offset\n");
		for (m = 0; m < n; m++) {
			const struct ta_plan *p = ta_group_member(grp, m);
			const struct ta_input *in = &mb[m].in;

			for (t = 0; t < in->prob.n_buffers; t++)
				fprintf(f, "%u,%s,%u,%u,%llu,%llu\n", m,
					in->ids ? in->ids[t] : "?",
					in->bufs[t].start, in->bufs[t].end,
					(unsigned long long)in->bufs[t].size,
					(unsigned long long)ta_plan_offset(p, t));
		}
		if (f != stdout && fclose(f)) {
			fprintf(stderr, "tactl plan: %s: %s\n", pg->out_csv,
				strerror(errno));
			goto out;
		}
	}
	if (pg->out_svg) {
		r = grp_svg(pg->out_svg, mb, n, pg->lanes, grp, links,
			    pg->n_link_specs, shared, n_shared,
			    ta_strategy_name(pg->strategy));
		if (r) {
			fprintf(stderr, "tactl plan: %s: %s\n", pg->out_svg,
				strerror(-r));
			goto out;
		}
	}
	if (ta_group_id(grp) && pg->hold_s) {
		fflush(stdout);
		sleep(pg->hold_s);
	}
	ret = 0;
out:
	ta_group_free(grp);
	ta_group_builder_free(gb);
	ta_client_close(client);
	grp_free(mb, n);
	return ret;
}
