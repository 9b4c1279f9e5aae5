// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_group.c - groups through the ioctls (issue 28): GROUP_CREATE,
 * GROUP_ADD, GROUP_GET, and what PLAN_GET, PLAN_DESTROY, mmap and INFO do
 * with a group and its members.
 *
 *  - three sequential members with links: the height is below the sum of
 *    the members planned alone, members share bytes, and the group's
 *    mapping shows a link written through member 0's mapping at the offset
 *    member 1 reads it;
 *  - two lanes: no byte of one lane's member is another's;
 *  - growth that fits (no offset moves) and growth that does not (ENOSPC,
 *    nothing changed);
 *  - destroy of a member (EBUSY while a later member reads its link) and
 *    of the group (its members go), INFO's plans and bytes before, during
 *    and after;
 *  - every field of every new struct, bad, with its errno and nothing
 *    changed (INFO before and after);
 *  - a result that cannot reach userspace (the struct or the member
 *    read-only: EFAULT), for GROUP_ADD in place and with a re-plan and for
 *    GROUP_CREATE: the group as it was (GROUP_GET, PLAN_GET, INFO).
 *
 * Runs as root in the test VM with tensorarena.ko loaded (no plan held).
 * One line per check: e2e: ok|not ok - group: ... (ta_harness.h).
 *
 * usage: ta_e2e_group [-l] [-t TEST]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_dev.h"

#define PAGE	4096ULL
/* A member: in -> op -> mid -> op -> out, each S bytes. */
#define NT	3

struct member {
	struct ta_tensor t[NT];
	struct ta_op ops[2];
	__u32 refs[4];
};

static void member_init(struct member *m, __u64 size, __u32 extra_flags)
{
	static const __u32 refs[4] = { 0, 1, 1, 2 };
	int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < NT; i++)
		m->t[i].size = size;
	m->t[0].flags = TA_TENSOR_INPUT;
	m->t[2].flags = TA_TENSOR_OUTPUT | extra_flags;
	m->ops[0] = (struct ta_op){ .first_ref = 0, .n_inputs = 1, .n_outputs = 1 };
	m->ops[1] = (struct ta_op){ .first_ref = 2, .n_inputs = 1, .n_outputs = 1 };
	memcpy(m->refs, refs, sizeof(refs));
}

static void gm_init(struct ta_group_member *gm, struct member *m, __u32 lane)
{
	memset(gm, 0, sizeof(*gm));
	gm->lane = lane;
	gm->tensors = (uintptr_t)m->t;
	gm->n_tensors = NT;
	gm->tensor_size = sizeof(struct ta_tensor);
	gm->ops = (uintptr_t)m->ops;
	gm->n_ops = 2;
	gm->op_size = sizeof(struct ta_op);
	gm->refs = (uintptr_t)m->refs;
	gm->n_refs = 4;
}

static void gc_init(struct ta_group_create *gc, struct ta_group_member *gm,
		    __u32 n, struct ta_group_link *l, __u32 nl)
{
	memset(gc, 0, sizeof(*gc));
	gc->strategy = TA_STRATEGY_AUTO;
	gc->members = (uintptr_t)gm;
	gc->n_members = n;
	gc->member_size = sizeof(*gm);
	gc->links = (uintptr_t)l;
	gc->n_links = nl;
	gc->link_size = sizeof(*l);
	gc->shared_size = sizeof(struct ta_group_shared);
}

/* Height of one member planned alone. */
static __u64 alone(int fd, struct member *m)
{
	struct ta_plan_create c = {
		.flags = TA_CREATE_DRY_RUN,
		.tensors = (uintptr_t)m->t, .n_tensors = NT,
		.tensor_size = sizeof(struct ta_tensor),
		.ops = (uintptr_t)m->ops, .n_ops = 2,
		.op_size = sizeof(struct ta_op),
		.refs = (uintptr_t)m->refs, .n_refs = 4,
	};

	return xioctl(fd, TA_IOCTL_PLAN_CREATE, &c) ? 0 : c.height;
}

static int placements(int fd, __u32 id, struct ta_placement *pl, __u32 n)
{
	struct ta_plan_get g = {
		.plan_id = id, .placements = (uintptr_t)pl, .n_placements = n,
		.placement_size = sizeof(*pl),
	};

	return xioctl(fd, TA_IOCTL_PLAN_GET, &g);
}

static bool overlap(const struct ta_placement *a, const struct ta_placement *b)
{
	return a->size && b->size && a->offset < b->offset + b->size &&
	       b->offset < a->offset + a->size;
}

static bool same_info(struct ta_info a, struct ta_info b)
{
	return a.n_plans == b.n_plans && a.bytes_in_use == b.bytes_in_use;
}

/* The pipeline: three members of lane 0, m0.out -> m1.in, m1.out -> m2.in. */
struct pipe {
	struct member m[3];
	struct ta_group_member gm[3];
	struct ta_group_link l[2];
	struct ta_group_create gc;
};

static void pipe_init(struct pipe *p, __u64 size)
{
	int i;

	for (i = 0; i < 3; i++) {
		member_init(&p->m[i], size, 0);
		gm_init(&p->gm[i], &p->m[i], 0);
	}
	p->l[0] = (struct ta_group_link){ 0, 2, 1, 0 };
	p->l[1] = (struct ta_group_link){ 1, 2, 2, 0 };
	gc_init(&p->gc, p->gm, 3, p->l, 2);
}

TEST(pipeline)
{
	struct ta_placement pl[3][NT];
	struct ta_info before = info(), during;
	__u64 sum = 0;
	struct pipe p;
	__u32 ids[3] = { 0 };
	struct ta_group_get gg = { 0 };
	struct ta_plan_get pg = { 0 };
	unsigned char *g, *m0;
	bool shared = false;
	int fd = devopen(), i, a, b, err;

	CHECK(fd >= 0, "group: open /dev/tensorarena");
	pipe_init(&p, 3 * PAGE);
	for (i = 0; i < 3; i++)
		sum += alone(fd, &p.m[i]);
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &p.gc);
	CHECK(!err, "group: GROUP_CREATE of 3 members (%d)", err);
	if (err)
		return;
	CHECK(p.gc.group_id && p.gm[0].plan_id && p.gm[1].plan_id &&
	      p.gm[2].plan_id && p.gm[0].plan_id != p.gm[1].plan_id,
	      "group: the group and its members have IDs (%u: %u %u %u)",
	      p.gc.group_id, p.gm[0].plan_id, p.gm[1].plan_id, p.gm[2].plan_id);
	CHECK(p.gc.height && p.gc.height < sum,
	      "group: height %llu below the sum of the members alone, %llu",
	      (unsigned long long)p.gc.height, (unsigned long long)sum);
	CHECK(p.gc.slice_size >= p.gc.height && p.gc.slice_size % PAGE == 0,
	      "group: slice of %llu bytes, whole pages",
	      (unsigned long long)p.gc.slice_size);
	during = info();
	CHECK(during.n_plans == before.n_plans + 4,
	      "group: INFO counts the group and its 3 members (%u -> %u)",
	      before.n_plans, during.n_plans);
	CHECK(during.bytes_in_use == before.bytes_in_use + p.gc.slice_size,
	      "group: INFO's bytes in use grow by the slice, once");
	for (i = 0; i < 3; i++)
		CHECK(!placements(fd, p.gm[i].plan_id, pl[i], NT),
		      "group: PLAN_GET of member %d", i);
	CHECK(pl[0][2].offset == pl[1][0].offset &&
	      pl[1][2].offset == pl[2][0].offset,
	      "group: each link is one offset in the writer and the reader");
	for (a = 0; a < NT; a++)
		for (b = 0; b < NT; b++)
			shared |= overlap(&pl[0][a], &pl[2][b]);
	CHECK(shared, "group: members 0 and 2 share bytes");
	pg.plan_id = p.gc.group_id;
	CHECK(!xioctl(fd, TA_IOCTL_PLAN_GET, &pg) && pg.n_placements == 0 &&
	      pg.height == p.gc.height,
	      "group: PLAN_GET of the group: its height, no placements");
	gg.group_id = p.gc.group_id;
	gg.members = (uintptr_t)ids;
	gg.n_members = 3;
	CHECK(!xioctl(fd, TA_IOCTL_GROUP_GET, &gg) && gg.n_members == 3 &&
	      gg.n_lanes == 1 && ids[0] == p.gm[0].plan_id &&
	      ids[2] == p.gm[2].plan_id && gg.height == p.gc.height &&
	      gg.slice_size == p.gc.slice_size &&
	      gg.mmap_offset == p.gc.mmap_offset,
	      "group: GROUP_GET gives the members in order and the figures");
	gg.n_members = 1;
	err = xioctl(fd, TA_IOCTL_GROUP_GET, &gg);
	CHECK(err == -ENOSPC && gg.n_members == 3,
	      "group: GROUP_GET with room for 1 of 3: ENOSPC and the count");

	g = mmap(NULL, p.gc.slice_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 p.gc.mmap_offset);
	m0 = mmap(NULL, p.gc.slice_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		  fd, (off_t)p.gm[0].plan_id * PAGE);
	CHECK(g != MAP_FAILED && m0 != MAP_FAILED,
	      "group: mmap of the group and of member 0");
	if (g != MAP_FAILED && m0 != MAP_FAILED) {
		memset(m0 + pl[0][2].offset, 0x5a, pl[0][2].size);
		CHECK(g[pl[1][0].offset] == 0x5a &&
		      g[pl[1][0].offset + pl[1][0].size - 1] == 0x5a,
		      "group: what member 0 wrote to its output is member 1's input in the group's mapping");
	}
	if (g != MAP_FAILED)
		munmap(g, p.gc.slice_size);
	if (m0 != MAP_FAILED)
		munmap(m0, p.gc.slice_size);
	CHECK(!destroy(fd, p.gc.group_id), "group: destroy the group");
	CHECK(destroy(fd, p.gm[1].plan_id) == -ENOENT,
	      "group: its members went with it");
	CHECK(same_info(info(), before), "group: INFO back to before");
	close(fd);
}

TEST(lanes)
{
	struct ta_placement pl[2][NT];
	struct ta_group_member gm[2];
	struct ta_group_create gc;
	struct ta_group_get gg = { 0 };
	struct member m[2];
	bool disjoint = true;
	int fd = devopen(), a, b, err;

	member_init(&m[0], 2 * PAGE, 0);
	member_init(&m[1], 2 * PAGE, 0);
	gm_init(&gm[0], &m[0], 0);
	gm_init(&gm[1], &m[1], 1);
	gc_init(&gc, gm, 2, NULL, 0);
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &gc);
	CHECK(!err, "group: GROUP_CREATE of 2 lanes (%d)", err);
	if (err)
		return;
	CHECK(!placements(fd, gm[0].plan_id, pl[0], NT) &&
	      !placements(fd, gm[1].plan_id, pl[1], NT),
	      "group: PLAN_GET of both lanes' members");
	for (a = 0; a < NT; a++)
		for (b = 0; b < NT; b++)
			disjoint &= !overlap(&pl[0][a], &pl[1][b]);
	CHECK(disjoint, "group: the lanes share no byte");
	gg.group_id = gc.group_id;
	CHECK(!xioctl(fd, TA_IOCTL_GROUP_GET, &gg) && gg.n_lanes == 2 &&
	      gg.n_members == 2, "group: GROUP_GET: 2 lanes, count only");
	CHECK(!destroy(fd, gc.group_id), "group: destroy the 2-lane group");
	close(fd);
}

TEST(growth)
{
	struct ta_placement before_pl[NT], after_pl[NT];
	struct ta_group_member gm[1], add_m;
	struct ta_group_create gc;
	struct ta_group_add ga;
	struct ta_group_get gg = { 0 };
	struct member m[1], more, big;
	struct ta_info before, mid;
	int fd = devopen(), err;

	member_init(&m[0], PAGE, 0);
	gm_init(&gm[0], &m[0], 0);
	gc_init(&gc, gm, 1, NULL, 0);
	gc.capacity = 16 * PAGE;
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &gc);
	CHECK(!err && gc.slice_size == 16 * PAGE,
	      "group: GROUP_CREATE with a capacity of 16 pages (%d)", err);
	if (err)
		return;
	CHECK(!placements(fd, gm[0].plan_id, before_pl, NT),
	      "group: member 0's placements");
	before = info();

	member_init(&more, 2 * PAGE, 0);
	gm_init(&add_m, &more, 0);
	memset(&ga, 0, sizeof(ga));
	ga.group_id = gc.group_id;
	ga.strategy = TA_STRATEGY_AUTO;
	ga.member = (uintptr_t)&add_m;
	ga.member_size = sizeof(add_m);
	ga.link_size = sizeof(struct ta_group_link);
	ga.shared_size = sizeof(struct ta_group_shared);
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(!err && add_m.plan_id, "group: GROUP_ADD that fits (%d, id %u)",
	      err, add_m.plan_id);
	CHECK(ga.height <= 16 * PAGE, "group: the height after it, %llu, within the slice",
	      (unsigned long long)ga.height);
	CHECK(!placements(fd, gm[0].plan_id, after_pl, NT) &&
	      !memcmp(before_pl, after_pl, sizeof(before_pl)),
	      "group: no offset of member 0 moved");
	mid = info();
	CHECK(mid.n_plans == before.n_plans + 1 &&
	      mid.bytes_in_use == before.bytes_in_use,
	      "group: the new member counts as a plan, no new bytes");

	member_init(&big, 64 * PAGE, 0);
	gm_init(&add_m, &big, 0);
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(err == -ENOSPC, "group: GROUP_ADD that does not fit: ENOSPC (%d)",
	      err);
	CHECK(same_info(info(), mid), "group: nothing changed");
	gg.group_id = gc.group_id;
	CHECK(!xioctl(fd, TA_IOCTL_GROUP_GET, &gg) && gg.n_members == 2,
	      "group: still 2 members");
	CHECK(!destroy(fd, gc.group_id), "group: destroy the grown group");
	close(fd);
}

TEST(replan)
{
	struct ta_group_member gm[1], add_m;
	struct ta_group_create gc;
	struct ta_group_add ga;
	struct ta_group_get gg = { 0 };
	struct member m[1], big;
	struct ta_placement pl[NT];
	struct ta_info before;
	__u32 ids[2] = { 0 };
	void *map;
	int fd = devopen(), err;

	member_init(&m[0], PAGE, 0);
	gm_init(&gm[0], &m[0], 0);
	gc_init(&gc, gm, 1, NULL, 0);
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &gc);
	CHECK(!err, "group: GROUP_CREATE to re-plan (%d)", err);
	if (err)
		return;
	member_init(&big, 8 * PAGE, 0);
	gm_init(&add_m, &big, 0);
	memset(&ga, 0, sizeof(ga));
	ga.group_id = gc.group_id;
	ga.strategy = TA_STRATEGY_AUTO;
	ga.member = (uintptr_t)&add_m;
	ga.member_size = sizeof(add_m);
	ga.link_size = sizeof(struct ta_group_link);
	ga.shared_size = sizeof(struct ta_group_shared);
	before = info();
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(err == -ENOSPC, "group: a member larger than the slice, no REPLAN: ENOSPC (%d)",
	      err);
	map = mmap(NULL, gc.slice_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   gc.mmap_offset);
	CHECK(map != MAP_FAILED, "group: map the group");
	ga.flags = TA_GROUP_ADD_REPLAN;
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(err == -EBUSY && !add_m.plan_id && same_info(info(), before),
	      "group: REPLAN while the group is mapped: EBUSY, nothing changed (%d)",
	      err);
	if (map != MAP_FAILED)
		munmap(map, gc.slice_size);
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(!err && add_m.plan_id && ga.height > gc.slice_size,
	      "group: REPLAN once unmapped: the group grows to %llu (%d)",
	      (unsigned long long)ga.height, err);
	gg.group_id = gc.group_id;
	gg.members = (uintptr_t)ids;
	gg.n_members = 2;
	CHECK(!xioctl(fd, TA_IOCTL_GROUP_GET, &gg) && gg.n_members == 2 &&
	      ids[0] == gm[0].plan_id && ids[1] == add_m.plan_id &&
	      gg.slice_size >= gg.height && gg.height == ga.height,
	      "group: same member IDs, a slice of the new height");
	CHECK(info().bytes_in_use == before.bytes_in_use - gc.slice_size +
	      gg.slice_size, "group: INFO: the old slice given back, the new one held");
	CHECK(!placements(fd, gm[0].plan_id, pl, NT) &&
	      pl[2].offset + pl[2].size <= gg.height,
	      "group: member 0's placements within the new height");
	CHECK(!destroy(fd, gc.group_id), "group: destroy the re-planned group");
	close(fd);
}

TEST(destroy)
{
	struct ta_info before = info(), held;
	struct ta_group_get gg = { 0 };
	struct pipe p;
	void *map;
	int fd = devopen(), err;

	pipe_init(&p, PAGE);
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &p.gc);
	CHECK(!err, "group: GROUP_CREATE for destroy (%d)", err);
	if (err)
		return;
	CHECK(destroy(fd, p.gm[1].plan_id) == -EBUSY,
	      "group: destroying member 1, whose output member 2 reads: EBUSY");
	CHECK(!destroy(fd, p.gm[2].plan_id), "group: destroy member 2");
	CHECK(!destroy(fd, p.gm[1].plan_id),
	      "group: then member 1 (no later reader left)");
	gg.group_id = p.gc.group_id;
	CHECK(!xioctl(fd, TA_IOCTL_GROUP_GET, &gg) && gg.n_members == 1,
	      "group: 1 member left");
	CHECK(info().n_plans == before.n_plans + 2,
	      "group: INFO: the group and its last member");
	map = mmap(NULL, p.gc.slice_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, (off_t)p.gm[0].plan_id * PAGE);
	CHECK(map != MAP_FAILED, "group: map member 0");
	CHECK(!destroy(fd, p.gc.group_id), "group: destroy the group");
	held = info();
	CHECK(held.n_plans == before.n_plans &&
	      held.bytes_in_use == before.bytes_in_use + p.gc.slice_size,
	      "group: destroyed, the slice stays while member 0 is mapped");
	if (map != MAP_FAILED) {
		memset(map, 1, p.gc.slice_size);
		munmap(map, p.gc.slice_size);
	}
	CHECK(same_info(info(), before), "group: unmapped: INFO back to before");
	close(fd);
}

/* The bad-input table of GROUP_CREATE. */
struct bad_create {
	const char *what;
	int err;
	void (*spoil)(struct pipe *p);
};

#define SPOIL(name, body) static void spoil_##name(struct pipe *p) { body; }
SPOIL(flags, p->gc.flags = 0x100)
SPOIL(fixed, p->gc.strategy = TA_STRATEGY_FIXED)
SPOIL(pingpong, p->gc.strategy = TA_STRATEGY_PINGPONG)
SPOIL(strategy, p->gc.strategy = 99)
SPOIL(no_members, p->gc.n_members = 0)
SPOIL(many_members, p->gc.n_members = TA_GROUP_MAX_MEMBERS + 1)
SPOIL(many_links, p->gc.n_links = TA_GROUP_MAX_LINKS + 1)
SPOIL(many_shared, p->gc.n_shared = TA_GROUP_MAX_SHARED + 1)
SPOIL(member_size, p->gc.member_size = 8)
SPOIL(member_size_big, p->gc.member_size = 4096)
SPOIL(link_size, p->gc.link_size = 4)
SPOIL(reserved, p->gc.reserved[3] = 1)
static struct ta_group_shared bad_shared = { .member = 0, .tensor = 1, .key = 1, .pad = 1 };
SPOIL(shared_pad, p->gc.shared = (uintptr_t)&bad_shared; p->gc.n_shared = 1)
SPOIL(align, p->gc.default_align = 3)
SPOIL(budget, p->gc.budget_ns = ~0ULL)
SPOIL(capacity_small, p->gc.capacity = 1)
SPOIL(capacity_arena, p->gc.capacity = 1ULL << 62)
SPOIL(lane, p->gm[1].lane = TA_GROUP_MAX_LANES)
SPOIL(m_flags, p->gm[1].flags = TA_CREATE_DRY_RUN)
SPOIL(m_plan_id, p->gm[1].plan_id = 5)
SPOIL(m_reserved, p->gm[2].reserved[1] = 1)
SPOIL(m_tensors, p->gm[0].n_tensors = 1u << 30)
SPOIL(m_tensor_size, p->gm[0].tensor_size = 2)
SPOIL(m_lifetimes_ops, p->gm[0].flags = TA_CREATE_LIFETIMES)
SPOIL(m_pad, p->m[1].t[1].pad = 1)
SPOIL(m_graph, p->m[1].refs[3] = 9)
SPOIL(l_member, p->l[0].to_member = 3)
SPOIL(l_self, p->l[0].to_member = 0)
SPOIL(l_tensor, p->l[0].from_tensor = NT)
SPOIL(l_to_tensor, p->l[1].to_tensor = NT + 5)
SPOIL(l_backward, p->l[1] = ((struct ta_group_link){ 2, 2, 1, 0 }))
SPOIL(l_not_input, p->l[0].to_tensor = 2)

static const struct bad_create bad_creates[] = {
	{ "unknown flags", -EINVAL, spoil_flags },
	{ "strategy FIXED", -EINVAL, spoil_fixed },
	{ "strategy PINGPONG", -EINVAL, spoil_pingpong },
	{ "unknown strategy", -EINVAL, spoil_strategy },
	{ "no members", -EINVAL, spoil_no_members },
	{ "members over TA_GROUP_MAX_MEMBERS", -E2BIG, spoil_many_members },
	{ "links over TA_GROUP_MAX_LINKS", -E2BIG, spoil_many_links },
	{ "shared over TA_GROUP_MAX_SHARED", -E2BIG, spoil_many_shared },
	{ "member_size below the first ABI's", -EINVAL, spoil_member_size },
	{ "member_size over 256", -E2BIG, spoil_member_size_big },
	{ "link_size below the first ABI's", -EINVAL, spoil_link_size },
	{ "reserved non-zero", -EINVAL, spoil_reserved },
	{ "shared pad non-zero", -EINVAL, spoil_shared_pad },
	{ "default_align not a power of two", -EINVAL, spoil_align },
	{ "budget over max_budget_ms", -EINVAL, spoil_budget },
	{ "capacity below the height", -ENOSPC, spoil_capacity_small },
	{ "capacity over the arena", -ENOSPC, spoil_capacity_arena },
	{ "lane TA_GROUP_MAX_LANES", -EINVAL, spoil_lane },
	{ "member flags DRY_RUN", -EINVAL, spoil_m_flags },
	{ "member plan_id non-zero in", -EINVAL, spoil_m_plan_id },
	{ "member reserved non-zero", -EINVAL, spoil_m_reserved },
	{ "member tensors over max_tensors", -E2BIG, spoil_m_tensors },
	{ "member tensor_size below the first ABI's", -EINVAL, spoil_m_tensor_size },
	{ "member lifetime form with ops", -EINVAL, spoil_m_lifetimes_ops },
	{ "member tensor pad non-zero", -EINVAL, spoil_m_pad },
	{ "member graph reference out of range", -EINVAL, spoil_m_graph },
	{ "link to_member out of range", -EINVAL, spoil_l_member },
	{ "link to its own member", -EINVAL, spoil_l_self },
	{ "link from_tensor out of range", -EINVAL, spoil_l_tensor },
	{ "link to_tensor out of range", -EINVAL, spoil_l_to_tensor },
	{ "link backwards in its lane", -EINVAL, spoil_l_backward },
	{ "link into a tensor that is no graph input", -EINVAL, spoil_l_not_input },
};

#define N_BAD_CREATES (sizeof(bad_creates) / sizeof(bad_creates[0]))

TEST(bad_create)
{
	struct ta_info before = info();
	unsigned int i, ran = 0;
	int fd = devopen();

	for (i = 0; i < N_BAD_CREATES; i++) {
		struct pipe p;
		int err;

		pipe_init(&p, PAGE);
		bad_creates[i].spoil(&p);
		err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &p.gc);
		CHECK(err == bad_creates[i].err && !p.gc.height &&
		      !p.gm[0].plan_id && same_info(info(), before),
		      "group: GROUP_CREATE, %s: %s (got %d), nothing changed",
		      bad_creates[i].what, strerror(-bad_creates[i].err), err);
		if (!err && p.gc.group_id)
			destroy(fd, p.gc.group_id);
		ran++;
	}
	CHECK(ran == N_BAD_CREATES && ran == 32,
	      "group: the GROUP_CREATE table ran %u cases", ran);
	close(fd);
}

/* The bad-input table of GROUP_ADD and GROUP_GET, on one live group. */
TEST(bad_add_get)
{
	struct ta_group_member gm[1], add_m;
	struct ta_group_link l = { 0, 2, 1, 0 };
	struct ta_group_shared sh = { .member = 5, .tensor = 0, .key = 1 };
	struct ta_group_create gc;
	struct ta_group_add ga, good;
	struct ta_group_get gg;
	struct ta_info before;
	struct member m[1], more;
	unsigned int ran = 0;
	__u32 plain_id;
	int fd = devopen(), err, i;
	struct ta_plan_create pc = {
		.flags = TA_CREATE_LIFETIMES, .n_tensors = 0,
		.tensor_size = sizeof(struct ta_lifetime),
	};

	member_init(&m[0], PAGE, 0);
	gm_init(&gm[0], &m[0], 0);
	gc_init(&gc, gm, 1, NULL, 0);
	gc.capacity = 8 * PAGE;
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &gc);
	CHECK(!err, "group: GROUP_CREATE for the ADD table (%d)", err);
	if (err)
		return;
	CHECK(!xioctl(fd, TA_IOCTL_PLAN_CREATE, &pc), "group: a plain plan");
	plain_id = pc.plan_id;
	member_init(&more, PAGE, 0);
	memset(&good, 0, sizeof(good));
	good.group_id = gc.group_id;
	good.strategy = TA_STRATEGY_AUTO;
	good.member = (uintptr_t)&add_m;
	good.member_size = sizeof(add_m);
	good.links = (uintptr_t)&l;
	good.link_size = sizeof(l);
	good.shared_size = sizeof(struct ta_group_shared);
	before = info();

	for (i = 0; i < 16; i++) {
		int want = -EINVAL;
		const char *what = "";

		ga = good;
		gm_init(&add_m, &more, 0);
		l = (struct ta_group_link){ 0, 2, 1, 0 };
		switch (i) {
		case 0: ga.flags = 0x80; what = "unknown flags"; break;
		case 1: ga.strategy = TA_STRATEGY_FIXED; what = "strategy FIXED"; break;
		case 2: ga.strategy = TA_STRATEGY_PINGPONG; what = "strategy PINGPONG"; break;
		case 3: ga.group_id = 0xfffff; want = -ENOENT; what = "unknown group ID"; break;
		case 4: ga.group_id = gm[0].plan_id; what = "a member's ID as group ID"; break;
		case 5: ga.group_id = plain_id; what = "a plain plan's ID as group ID"; break;
		case 6: ga.reserved[0] = 1; what = "reserved non-zero"; break;
		case 7: add_m.lane = TA_GROUP_MAX_LANES; what = "lane TA_GROUP_MAX_LANES"; break;
		case 8: add_m.plan_id = 3; what = "member plan_id non-zero in"; break;
		case 9: ga.member_size = 4; what = "member_size below the first ABI's"; break;
		case 10: ga.n_links = 1; l.to_member = 2; what = "link to a member the group does not have"; break;
		case 11: ga.n_links = 1; l.from_tensor = 7; what = "link from a tensor out of range"; break;
		case 12: ga.n_links = TA_GROUP_MAX_LINKS + 1; want = -E2BIG; what = "links over TA_GROUP_MAX_LINKS"; break;
		case 13: ga.n_shared = TA_GROUP_MAX_SHARED + 1; want = -E2BIG; what = "shared over TA_GROUP_MAX_SHARED"; break;
		case 14: add_m.n_tensors = 1u << 30; want = -E2BIG; what = "member tensors over max_tensors"; break;
		case 15: ga.n_shared = 1; ga.shared = (uintptr_t)&sh; what = "shared entry of a member the group does not have"; break;
		}
		err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
		CHECK(err == want && add_m.plan_id == (i == 8 ? 3 : 0) &&
		      same_info(info(), before),
		      "group: GROUP_ADD, %s: %s (got %d), nothing changed", what,
		      strerror(-want), err);
		ran++;
	}
	for (i = 0; i < 5; i++) {
		int want = -EINVAL;
		const char *what = "";

		memset(&gg, 0, sizeof(gg));
		gg.group_id = gc.group_id;
		switch (i) {
		case 0: gg.flags = 1; what = "flags"; break;
		case 1: gg.reserved[1] = 1; what = "reserved non-zero"; break;
		case 2: gg.group_id = 0xfffff; want = -ENOENT; what = "unknown group ID"; break;
		case 3: gg.group_id = gm[0].plan_id; what = "a member's ID"; break;
		case 4: gg.group_id = plain_id; what = "a plain plan's ID"; break;
		}
		err = xioctl(fd, TA_IOCTL_GROUP_GET, &gg);
		CHECK(err == want, "group: GROUP_GET, %s: %s (got %d)", what,
		      strerror(-want), err);
		ran++;
	}
	CHECK(ran == 21, "group: the GROUP_ADD and GROUP_GET tables ran %u cases",
	      ran);
	CHECK(same_info(info(), before), "group: INFO as before the tables");
	destroy(fd, plain_id);
	CHECK(!destroy(fd, gc.group_id), "group: destroy the table's group");
	close(fd);
}

/*
 * A result that cannot reach userspace (EFAULT) takes the call back: the
 * group as GROUP_GET, PLAN_GET and INFO showed it before.
 */
struct snap {
	struct ta_group_get gg;
	__u32 ids[4];
	struct ta_placement pl[2][NT];
	struct ta_info info;
};

static bool snap_take(int fd, __u32 group_id, struct snap *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->gg.group_id = group_id;
	s->gg.members = (uintptr_t)s->ids;
	s->gg.n_members = 4;
	if (xioctl(fd, TA_IOCTL_GROUP_GET, &s->gg))
		return false;
	for (i = 0; i < 2 && i < (int)s->gg.n_members; i++)
		if (placements(fd, s->ids[i], s->pl[i], NT))
			return false;
	s->info = info();
	return true;
}

static bool snap_same(const struct snap *a, const struct snap *b)
{
	return a->gg.n_members == b->gg.n_members &&
	       a->gg.n_lanes == b->gg.n_lanes &&
	       a->gg.height == b->gg.height &&
	       a->gg.lower_bound == b->gg.lower_bound &&
	       a->gg.slice_size == b->gg.slice_size &&
	       a->gg.mmap_offset == b->gg.mmap_offset &&
	       !memcmp(a->ids, b->ids, sizeof(a->ids)) &&
	       !memcmp(a->pl, b->pl, sizeof(a->pl)) &&
	       same_info(a->info, b->info);
}

struct efault_case {
	const char *what;
	bool replan;
	bool ro_args;	/* the ioctl's struct read-only: its copy back fails */
	bool ro_member;	/* the member read-only: its plan_id's copy fails */
};

static const struct efault_case efault_adds[] = {
	{ "GROUP_ADD, its struct read-only", false, true, false },
	{ "GROUP_ADD, the member read-only", false, false, true },
	{ "GROUP_ADD re-plan, its struct read-only", true, true, false },
	{ "GROUP_ADD re-plan, the member read-only", true, false, true },
};

#define N_EFAULT_ADDS (sizeof(efault_adds) / sizeof(efault_adds[0]))

TEST(efault)
{
	struct ta_group_member gm[2], add_m, *gm_p, *add_p;
	struct ta_group_create gc, *gc_p;
	struct ta_group_add ga, *ga_p;
	struct member m[2], small, big;
	struct snap before, after;
	struct ta_info i0;
	unsigned int ran = 0, i;
	unsigned char *page;
	int fd = devopen(), err;

	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(fd >= 0 && page != MAP_FAILED, "group: a page to make read-only");
	if (fd < 0 || page == MAP_FAILED)
		return;
	/* A group of two lanes, room for one more small member in place. */
	member_init(&m[0], PAGE, 0);
	member_init(&m[1], 2 * PAGE, 0);
	gm_init(&gm[0], &m[0], 0);
	gm_init(&gm[1], &m[1], 1);
	gc_init(&gc, gm, 2, NULL, 0);
	gc.strategy = TA_STRATEGY_GREEDY_SIZE;
	gc.capacity = 16 * PAGE;
	err = xioctl(fd, TA_IOCTL_GROUP_CREATE, &gc);
	CHECK(!err, "group: GROUP_CREATE for the EFAULT table (%d)", err);
	if (err)
		goto unmap;
	member_init(&small, PAGE, 0);
	member_init(&big, 32 * PAGE, 0);	/* a re-plan grows the slice */

	for (i = 0; i < N_EFAULT_ADDS; i++) {
		const struct efault_case *c = &efault_adds[i];

		CHECK(snap_take(fd, gc.group_id, &before),
		      "group: %s: the group before", c->what);
		mprotect(page, PAGE, PROT_READ | PROT_WRITE);
		memset(page, 0, PAGE);
		ga_p = c->ro_args ? (struct ta_group_add *)page : &ga;
		add_p = c->ro_member ? (struct ta_group_member *)(page + 2048) :
				       &add_m;
		gm_init(add_p, c->replan ? &big : &small, 0);
		memset(ga_p, 0, sizeof(*ga_p));
		ga_p->group_id = gc.group_id;
		ga_p->flags = c->replan ? TA_GROUP_ADD_REPLAN : 0;
		ga_p->strategy = TA_STRATEGY_GREEDY_SIZE;
		ga_p->member = (uintptr_t)add_p;
		ga_p->member_size = sizeof(*add_p);
		ga_p->link_size = sizeof(struct ta_group_link);
		ga_p->shared_size = sizeof(struct ta_group_shared);
		mprotect(page, PAGE, PROT_READ);
		err = xioctl(fd, TA_IOCTL_GROUP_ADD, ga_p);
		CHECK(err == -EFAULT, "group: %s: EFAULT (%d)", c->what, err);
		CHECK(snap_take(fd, gc.group_id, &after) &&
		      snap_same(&before, &after),
		      "group: %s: the group unchanged (%u members, height %llu -> %llu, slice %llu -> %llu, plans %u -> %u, bytes %llu -> %llu)",
		      c->what, after.gg.n_members,
		      (unsigned long long)before.gg.height,
		      (unsigned long long)after.gg.height,
		      (unsigned long long)before.gg.slice_size,
		      (unsigned long long)after.gg.slice_size,
		      before.info.n_plans, after.info.n_plans,
		      (unsigned long long)before.info.bytes_in_use,
		      (unsigned long long)after.info.bytes_in_use);
		ran++;
	}
	CHECK(ran == N_EFAULT_ADDS && ran == 4,
	      "group: the GROUP_ADD EFAULT table ran %u cases", ran);

	/* The same adds, readable and writable, work after the undos. */
	gm_init(&add_m, &small, 0);
	memset(&ga, 0, sizeof(ga));
	ga.group_id = gc.group_id;
	ga.strategy = TA_STRATEGY_GREEDY_SIZE;
	ga.member = (uintptr_t)&add_m;
	ga.member_size = sizeof(add_m);
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(!err && add_m.plan_id && snap_take(fd, gc.group_id, &after) &&
	      after.gg.n_members == 3 && after.gg.slice_size == 16 * PAGE &&
	      !memcmp(before.pl, after.pl, sizeof(before.pl)),
	      "group: GROUP_ADD in place after the undos: 3 members, nothing moved (%d)",
	      err);
	gm_init(&add_m, &big, 0);
	ga.flags = TA_GROUP_ADD_REPLAN;
	err = xioctl(fd, TA_IOCTL_GROUP_ADD, &ga);
	CHECK(!err && snap_take(fd, gc.group_id, &after) &&
	      after.gg.n_members == 4 && after.gg.slice_size > 16 * PAGE,
	      "group: GROUP_ADD re-plan after the undos: 4 members, a bigger slice (%d, %llu)",
	      err, (unsigned long long)after.gg.slice_size);
	CHECK(!destroy(fd, gc.group_id), "group: destroy the EFAULT group");

	/* GROUP_CREATE: a group whose IDs cannot reach userspace is gone. */
	for (i = 0; i < 2; i++) {
		const char *what = i ? "GROUP_CREATE, the members read-only" :
				       "GROUP_CREATE, its struct read-only";

		i0 = info();
		mprotect(page, PAGE, PROT_READ | PROT_WRITE);
		memset(page, 0, PAGE);
		gc_p = i ? &gc : (struct ta_group_create *)page;
		gm_p = i ? (struct ta_group_member *)(page + 1024) : gm;
		gm_init(&gm_p[0], &m[0], 0);
		gm_init(&gm_p[1], &m[1], 1);
		gc_init(gc_p, gm_p, 2, NULL, 0);
		mprotect(page, PAGE, PROT_READ);
		err = xioctl(fd, TA_IOCTL_GROUP_CREATE, gc_p);
		CHECK(err == -EFAULT && same_info(info(), i0),
		      "group: %s: EFAULT (%d), INFO's plans and bytes as before",
		      what, err);
		ran++;
	}
	CHECK(ran == N_EFAULT_ADDS + 2, "group: the EFAULT tables ran %u cases",
	      ran);
unmap:
	munmap(page, PAGE);
	close(fd);
}

int main(int argc, char **argv)
{
	return ta_harness_main(argc - 1, argv + 1) ? 1 : 0;
}
