// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_lib_group.c - libtensorarena's groups, offline, through the public
 * API (tensorarena.h): members, links by index and by name, shared keys,
 * ta_group_add() with and without a re-plan, the shared models' pipeline,
 * and the inputs the API refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_test.h"
#include "tensorarena.h"

const char *ta_test_shared_dir(void);

/* in (@a) -> op -> mid (@b) -> op -> out (@c), 64-aligned */
static struct ta_graph_builder *chain(uint64_t a, uint64_t b, uint64_t c)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t t0, t1, t2;

	if (!g)
		return NULL;
	t0 = ta_graph_add_tensor(g, a, 64, TA_TENSOR_INPUT);
	t1 = ta_graph_add_tensor(g, b, 64, 0);
	t2 = ta_graph_add_tensor(g, c, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &t0, 1, &t1, 1);
	ta_graph_add_op(g, &t1, 1, &t2, 1);
	return g;
}

/* No two tensors of one member overlap while both live (ops i, i+1). */
static int member_ok(const struct ta_plan *p, uint64_t height)
{
	uint32_t t;

	for (t = 0; t < ta_plan_tensor_count(p); t++)
		if (ta_plan_offset(p, t) + ta_plan_size(p, t) > height)
			return 0;
	return 1;
}

/*
 * Two chains in one lane share bytes (the group is the larger member, not
 * the sum); in two lanes they do not; a link makes A's output B's input,
 * at one offset.
 */
static int t_group_offline(void)
{
	struct ta_graph_builder *a = chain(1024, 2048, 512);
	struct ta_graph_builder *b = chain(512, 4096, 1024);
	struct ta_group_builder *gb = ta_group_new();
	struct ta_plan *pa, *pb;
	struct ta_group *grp;
	uint64_t ha, hb;

	TA_CHECK(a && b && gb, "alloc");
	TA_CHECK(!ta_plan_offline(a, NULL, &pa) && !ta_plan_offline(b, NULL, &pb),
		 "alone");
	ha = ta_plan_height(pa);
	hb = ta_plan_height(pb);
	ta_plan_free(pa);
	ta_plan_free(pb);
	TA_CHECK(ha == 3072 && hb == 5120, "%llu %llu",
		 (unsigned long long)ha, (unsigned long long)hb);
	TA_CHECK(ta_group_add_member(gb, a, 0) == 0, "member 0");
	TA_CHECK(ta_group_add_member(gb, b, 0) == 1, "member 1");
	TA_CHECK(!ta_group_offline(gb, NULL, &grp), "plan");
	TA_CHECK(ta_group_member_count(grp) == 2 && !ta_group_id(grp), "count");
	TA_CHECK(ta_group_height(grp) == 5120, "one lane: %llu",
		 (unsigned long long)ta_group_height(grp));
	TA_CHECK(ta_group_lower_bound(grp) <= ta_group_height(grp), "bound");
	TA_CHECK(member_ok(ta_group_member(grp, 0), ta_group_height(grp)) &&
		 member_ok(ta_group_member(grp, 1), ta_group_height(grp)),
		 "within");
	TA_CHECK(!ta_group_member(grp, 2), "member 2");
	TA_CHECK(ta_group_map(grp) == -EINVAL, "map offline");
	TA_CHECK(ta_group_export_dmabuf(grp, 0) == -EINVAL, "export offline");
	TA_CHECK(ta_group_destroy(grp) == -EINVAL, "destroy offline");
	ta_group_free(grp);
	ta_group_builder_free(gb);

	/* two lanes: never the same bytes */
	gb = ta_group_new();
	TA_CHECK(gb && ta_group_add_member(gb, a, 0) == 0 &&
		 ta_group_add_member(gb, b, 1) == 1, "lanes");
	TA_CHECK(!ta_group_offline(gb, NULL, &grp), "plan");
	TA_CHECK(ta_group_height(grp) == ha + hb, "two lanes: %llu",
		 (unsigned long long)ta_group_height(grp));
	TA_CHECK(ta_group_member_lane(grp, 1) == 1, "lane");
	ta_group_free(grp);
	ta_group_builder_free(gb);

	/* a link: A's output (2) is B's input (0), one offset */
	gb = ta_group_new();
	TA_CHECK(gb && ta_group_add_member(gb, a, 0) == 0 &&
		 ta_group_add_member(gb, b, 0) == 1, "link");
	TA_CHECK(ta_group_link(gb, 0, 2, 1, 0) == 0, "link");
	TA_CHECK(ta_group_link(gb, 0, 3, 1, 0) == -EINVAL, "tensor range");
	TA_CHECK(ta_group_link(gb, 0, 2, 2, 0) == -EINVAL, "member range");
	TA_CHECK(!ta_group_offline(gb, NULL, &grp), "plan");
	TA_CHECK(ta_plan_offset(ta_group_member(grp, 0), 2) ==
		 ta_plan_offset(ta_group_member(grp, 1), 0), "one offset: %llu %llu",
		 (unsigned long long)ta_plan_offset(ta_group_member(grp, 0), 2),
		 (unsigned long long)ta_plan_offset(ta_group_member(grp, 1), 0));
	ta_group_free(grp);
	ta_group_builder_free(gb);
	ta_graph_free(a);
	ta_graph_free(b);
	return 0;
}

/* Loaded graphs keep their names: a link by name, a bad name -ENOENT. */
static int t_group_names(void)
{
	static const char ga[] = "tensorarena-graph 1\n"
				 "tensor image 1000 input\n"
				 "tensor feat 3000\n"
				 "tensor box 100 output\n"
				 "op conv image -> feat\n"
				 "op head feat -> box\n";
	static const char gbf[] = "tensorarena-graph 1\n"
				  "tensor crop 100 input\n"
				  "tensor h 2000\n"
				  "tensor state 64 persistent\n"
				  "tensor y 10 output\n"
				  "op a crop state -> h\n"
				  "op b h -> y\n";
	char pa[] = "/tmp/ta_unit_grpXXXXXX", path_a[64], path_b[64], err[256];
	struct ta_graph_builder *a, *b;
	struct ta_group_builder *gb;
	struct ta_group *grp;
	FILE *f;

	TA_CHECK(mkdtemp(pa), "tmp");
	snprintf(path_a, sizeof(path_a), "%s/a.graph", pa);
	snprintf(path_b, sizeof(path_b), "%s/b.graph", pa);
	f = fopen(path_a, "w");
	TA_CHECK(f && fputs(ga, f) >= 0 && !fclose(f), "write");
	f = fopen(path_b, "w");
	TA_CHECK(f && fputs(gbf, f) >= 0 && !fclose(f), "write");
	TA_CHECK(!ta_graph_load(path_a, NULL, &a, err, sizeof(err)), "%s", err);
	TA_CHECK(!ta_graph_load(path_b, NULL, &b, err, sizeof(err)), "%s", err);
	unlink(path_a);
	unlink(path_b);
	rmdir(pa);
	TA_CHECK(ta_graph_tensor_find(a, "box") == 2, "find");
	TA_CHECK(ta_graph_tensor_find(a, "nope") == -ENOENT, "missing");
	TA_CHECK(ta_graph_tensor_find(a, NULL) == -EINVAL, "NULL");
	TA_CHECK(!strcmp(ta_graph_tensor_name(b, 2), "state"), "name");
	TA_CHECK(!ta_graph_tensor_name(b, 9), "name out of range");
	gb = ta_group_new();
	TA_CHECK(gb, "alloc");
	TA_CHECK(ta_group_add_member(gb, a, 0) == 0 &&
		 ta_group_add_member(gb, b, 0) == 1, "members");
	TA_CHECK(ta_group_link_name(gb, 0, "box", 1, "crop") == 0, "by name");
	TA_CHECK(ta_group_link_name(gb, 0, "nope", 1, "crop") == -ENOENT,
		 "bad name");
	TA_CHECK(ta_group_link_name(gb, 0, "7", 1, "crop") == -ENOENT,
		 "index out of range");
	TA_CHECK(ta_group_share(gb, 1, 2, 5) == 0, "share");
	TA_CHECK(!ta_group_offline(gb, NULL, &grp), "plan");
	TA_CHECK(ta_plan_offset(ta_group_member(grp, 0), 2) ==
		 ta_plan_offset(ta_group_member(grp, 1), 0), "linked");
	/* 3000 + 1000 (feat and image) vs. 2000 + 100 + 64 persistent */
	TA_CHECK(ta_group_height(grp) < 4000 + 2164, "shares: %llu",
		 (unsigned long long)ta_group_height(grp));
	ta_group_free(grp);
	ta_group_builder_free(gb);
	ta_graph_free(a);
	ta_graph_free(b);
	return 0;
}

/*
 * ta_group_add(): within the capacity nothing moves; past it -ENOSPC and
 * nothing changed; with TA_GROUP_ADD_REPLAN the group is planned anew.
 */
static int t_group_add(void)
{
	struct ta_graph_builder *a = chain(1024, 2048, 512);
	struct ta_graph_builder *b = chain(512, 4096, 1024);
	struct ta_group_options o = { .capacity = 8192 };
	struct ta_group_add_options ao = { .lane = 1 };
	struct ta_group_builder *gb = ta_group_new();
	struct ta_group *grp;
	uint64_t before[3];
	uint32_t t;
	int m;

	TA_CHECK(a && b && gb && ta_group_add_member(gb, a, 0) == 0, "alloc");
	TA_CHECK(!ta_group_offline(gb, &o, &grp), "plan");
	TA_CHECK(ta_group_height(grp) == 3072 &&
		 ta_group_slice_size(grp) == 8192, "%llu %llu",
		 (unsigned long long)ta_group_height(grp),
		 (unsigned long long)ta_group_slice_size(grp));
	for (t = 0; t < 3; t++)
		before[t] = ta_plan_offset(ta_group_member(grp, 0), t);
	m = ta_group_add(grp, b, &ao);		/* lane 1: 5120 beside 3072 */
	TA_CHECK(m == 1, "add: %d", m);
	for (t = 0; t < 3; t++)
		TA_CHECK(ta_plan_offset(ta_group_member(grp, 0), t) == before[t],
			 "moved %u", t);
	TA_CHECK(ta_group_height(grp) == 8192, "%llu",
		 (unsigned long long)ta_group_height(grp));
	m = ta_group_add(grp, a, &ao);		/* lane 1 after b: fits */
	TA_CHECK(m == 2, "add after: %d", m);
	ao.lane = 2;				/* a third lane: no room */
	m = ta_group_add(grp, b, &ao);
	TA_CHECK(m == -ENOSPC, "full: %d", m);
	TA_CHECK(ta_group_member_count(grp) == 3, "unchanged");
	ao.flags = TA_GROUP_ADD_REPLAN;
	m = ta_group_add(grp, b, &ao);
	TA_CHECK(m == 3, "replan: %d", m);
	TA_CHECK(ta_group_height(grp) == 3072 + 5120 + 5120, "%llu",
		 (unsigned long long)ta_group_height(grp));
	ao.flags = 0x80;
	TA_CHECK(ta_group_add(grp, b, &ao) == -EINVAL, "flag");
	ao.flags = 0;
	ao.lane = TA_GROUP_MAX_LANES;
	TA_CHECK(ta_group_add(grp, b, &ao) == -EINVAL, "lane");
	ao.lane = 0;
	ao.reserved[3] = 1;
	TA_CHECK(ta_group_add(grp, b, &ao) == -EINVAL, "reserved");
	ta_group_free(grp);
	ta_group_builder_free(gb);
	ta_graph_free(a);
	ta_graph_free(b);
	return 0;
}

/* What the API refuses before planning. */
static int t_group_refused(void)
{
	struct ta_graph_builder *a = chain(64, 64, 64);
	struct ta_group_builder *gb = ta_group_new();
	struct ta_group_options o = { 0 };
	struct ta_group *grp = NULL;
	int i;

	TA_CHECK(a && gb, "alloc");
	TA_CHECK(ta_group_offline(gb, NULL, &grp) == -EINVAL, "no members");
	TA_CHECK(ta_group_add_member(gb, a, TA_GROUP_MAX_LANES) == -EINVAL,
		 "lane");
	TA_CHECK(ta_group_add_member(gb, NULL, 0) == -EINVAL, "NULL graph");
	for (i = 0; i < TA_GROUP_MAX_MEMBERS; i++)
		TA_CHECK(ta_group_add_member(gb, a, 0) == i, "member %d", i);
	TA_CHECK(ta_group_add_member(gb, a, 0) == -E2BIG, "too many");
	TA_CHECK(ta_group_share(gb, 0, 3, 1) == -EINVAL, "share range");
	o.strategy = TA_STRATEGY_FIXED;
	TA_CHECK(ta_group_offline(gb, &o, &grp) == -EINVAL, "fixed");
	o.strategy = TA_STRATEGY_PINGPONG;
	TA_CHECK(ta_group_offline(gb, &o, &grp) == -EINVAL, "pingpong");
	o.strategy = 0;
	o.flags = TA_GROUP_DRY_RUN;
	TA_CHECK(ta_group_offline(gb, &o, &grp) == -EINVAL, "dry run offline");
	o.flags = 0;
	o.reserved[0] = 1;
	TA_CHECK(ta_group_offline(gb, &o, &grp) == -EINVAL, "reserved");
	o.reserved[0] = 0;
	o.capacity = 64;
	TA_CHECK(ta_group_offline(gb, &o, &grp) == -ENOSPC, "capacity");
	o.capacity = 0;
	/* 64 members of one lane: the largest, 128 */
	TA_CHECK(!ta_group_offline(gb, &o, &grp), "plan 64");
	TA_CHECK(ta_group_height(grp) == 128, "%llu",
		 (unsigned long long)ta_group_height(grp));
	ta_group_free(grp);
	ta_group_builder_free(gb);
	ta_graph_free(a);
	return 0;
}

/*
 * The pipeline from the shared models, --no-constants, auto:
 * person_detect + movenet + mobilenet_v2 separately 2,666,496 bytes; as
 * one lane the largest, 1,505,280.
 */
static int t_group_pipeline(void)
{
	static const char *const files[] = {
		"person_detect_mobilenetv1_i8.tflite",
		"movenet_lightning_i8.tflite",
		"mobilenet_v2_1.0_224_u8.tflite",
	};
	static const uint64_t alone[] = { 55296, 1105920, 1505280 };
	struct ta_load_options lo = { .flags = TA_LOAD_NO_CONSTANTS };
	struct ta_graph_builder *g[3] = { NULL };
	struct ta_group_builder *gb = ta_group_new();
	char path[1200], err[512];
	struct ta_group *grp;
	struct ta_plan *p;
	uint64_t sum = 0;
	int i;

	TA_CHECK(gb, "alloc");
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", ta_test_shared_dir(),
			 files[i]);
		if (access(path, R_OK)) {
			printf("# skip: no %s\n", path);
			ta_group_builder_free(gb);
			for (i--; i >= 0; i--)
				ta_graph_free(g[i]);
			return 0;
		}
		TA_CHECK(!ta_graph_load(path, &lo, &g[i], err, sizeof(err)),
			 "%s", err);
		TA_CHECK(!ta_plan_offline(g[i], NULL, &p), "alone");
		TA_CHECK(ta_plan_height(p) == alone[i], "%s: %llu", files[i],
			 (unsigned long long)ta_plan_height(p));
		sum += ta_plan_height(p);
		ta_plan_free(p);
		TA_CHECK(ta_group_add_member(gb, g[i], 0) == i, "member");
	}
	TA_CHECK(sum == 2666496, "sum");
	TA_CHECK(!ta_group_offline(gb, NULL, &grp), "plan");
	TA_CHECK(ta_group_height(grp) == 1505280 &&
		 ta_group_lower_bound(grp) == 1505280, "%llu %llu",
		 (unsigned long long)ta_group_height(grp),
		 (unsigned long long)ta_group_lower_bound(grp));
	ta_group_free(grp);
	ta_group_builder_free(gb);
	for (i = 0; i < 3; i++)
		ta_graph_free(g[i]);
	return 0;
}

const struct ta_test ta_lib_group_tests[] = {
	{ "libtensorarena groups: one lane shares, two lanes do not, a link is one offset",
	  t_group_offline },
	{ "libtensorarena groups: loaded graphs' names, links by name, shared keys",
	  t_group_names },
	{ "libtensorarena groups: ta_group_add within the capacity, -ENOSPC past it, re-plan",
	  t_group_add },
	{ "libtensorarena groups: bad members, options and capacity refused",
	  t_group_refused },
	{ "libtensorarena groups: person_detect -> movenet -> mobilenet_v2 is the largest",
	  t_group_pipeline },
	{ NULL, NULL },
};
