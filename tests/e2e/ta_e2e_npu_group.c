// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_group.c - ta_e2e_npu's proof that groups are safe on the
 * reference NPU (--group, issue 28: "safety is the kernel's job"), with no
 * group code in the NPU driver: every member is a plan of its own ID whose
 * offsets are from the group's one slice, and the members of one lane share
 * the lane's reservation object, so the NPU's implicit fences order them.
 *
 *  - npu.group_serial: two members of one lane that share bytes (asserted:
 *    their placements overlap), a job on each submitted back to back
 *    without waiting, GROUP_ROUNDS rounds, both bit for bit with their
 *    references. (The NPU gives the second job its other, idle core, so
 *    the lane's fence orders them; npu.group_cores shows it on the
 *    recorded intervals, npu.group_hold with a foreign fence.)
 *  - npu.group_hold: a foreign (vgem) fence on member A's exported dma-buf
 *    holds back a job on member B submitted by plan ID: it has not finished
 *    and the slice is untouched until vgem signals; then it is bit for bit.
 *  - npu.group_lanes: with lane 0 held so, a job on a member of lane 1
 *    completes at once, bit for bit; the two lanes share no byte.
 *  - npu.group_cores: the NPU's cores (n_cores, 2 by default) run jobs at
 *    once. The same two jobs, on cores 0 and 1 then 1 and 0, each keeping
 *    its core CORE_HOLD_MS (hold_ms), released together by one vgem
 *    fence: members of two lanes overlap in the intervals the NPU records
 *    (DRM_IOCTL_TA_NPU_JOB_INFO); members of one lane that share bytes
 *    never do (the second starts after the first ended); all bit for bit.
 *  - npu.group_link: member A writes a linked output, member B reads it
 *    as its input on the NPU (its job names nothing but its plan), one
 *    place in the group's mapping, and B is bit for bit with its reference
 *    run on A's output.
 *
 * Members are the first two models given (the first twice when only one
 * is); the link test takes the first ordered pair of models where one's
 * graph output is as large as the other's graph input (an autoencoder
 * feeds itself).
 *
 * A member's tensors that are not constant, persistent or linked are live
 * in its own window only (Documentation/uapi.md, "Groups"), so a caller
 * writes a later member's inputs once the earlier ones have run, and an
 * earlier member's outputs are gone once a later one has. To submit back to
 * back and still check both, the tests declare member B's graph inputs and
 * the tensors of member A live at its end (its outputs and the last op's
 * inputs: what the comparison reads) persistent, live for the whole group:
 * what is compared survives, and every other activation of the two may
 * share bytes (the first run, with A's graph outputs alone kept, found
 * the last op's input overwritten by B, as the group's model allows).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ta_npu_mix.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_npu.h"

NPU_FIXTURE

#define GROUP_ROUNDS	4
#define GROUP_MAX	3
/* A held job "has not finished" if it has not within this. */
#define HOLD_MS		300
/* gmember_init(): not a tensor flag, the tensors live at the end */
#define TA_E2E_LIVE_AT_END	0x80000000U

/* One member: its model, its own copy of the tensors, its plan's view. */
struct gmember {
	struct model *m;
	struct ta_tensor *tensors;
	uint32_t lane;
	struct plan p;		/* p.map is the group's mapping */
};

struct group {
	struct ta_group_create c;
	uint8_t *map;
	size_t map_len;
	int n;
	struct gmember mem[GROUP_MAX];
};

/*
 * Member @i of @g: model @m in @lane, with @extra flags on the tensors
 * with a flag of @which (TA_E2E_LIVE_AT_END: those live at the model's
 * end, which compare_live() checks), constants but.
 */
static int gmember_init(struct group *g, int i, struct model *m,
			uint32_t lane, uint32_t which, uint32_t extra)
{
	struct gmember *gm = &g->mem[i];
	uint32_t t;

	gm->m = m;
	gm->lane = lane;
	gm->p.dmabuf = -1;
	gm->tensors = calloc(m->n_tensors, sizeof(*gm->tensors));
	if (!gm->tensors)
		return -ENOMEM;
	memcpy(gm->tensors, m->tensors, m->n_tensors * sizeof(*gm->tensors));
	for (t = 0; t < m->n_tensors; t++)
		if (((gm->tensors[t].flags & which) ||
		     (which & TA_E2E_LIVE_AT_END &&
		      m->life[t].end == m->n_ops)) &&
		    !(gm->tensors[t].flags & TA_TENSOR_CONSTANT))
			gm->tensors[t].flags |= extra;
	if (g->n < i + 1)
		g->n = i + 1;
	return 0;
}

/*
 * Plan the group's members (gmember_init() first), map the slice, read
 * each member's placements and export and import each member into @npu.
 */
static int group_create(int ta, int npu, struct group *g,
			const struct ta_group_link *links, uint32_t n_links)
{
	struct ta_group_member desc[GROUP_MAX];
	int i;

	memset(desc, 0, sizeof(desc));
	for (i = 0; i < g->n; i++) {
		const struct model *m = g->mem[i].m;

		desc[i].lane = g->mem[i].lane;
		desc[i].tensors = (uintptr_t)g->mem[i].tensors;
		desc[i].n_tensors = m->n_tensors;
		desc[i].tensor_size = sizeof(struct ta_tensor);
		desc[i].ops = (uintptr_t)m->ops;
		desc[i].n_ops = m->n_ops;
		desc[i].op_size = sizeof(struct ta_op);
		desc[i].refs = (uintptr_t)m->refs;
		desc[i].n_refs = m->n_refs;
	}
	g->c.strategy = TA_STRATEGY_AUTO;
	g->c.members = (uintptr_t)desc;
	g->c.n_members = g->n;
	g->c.member_size = sizeof(desc[0]);
	g->c.links = (uintptr_t)links;
	g->c.n_links = n_links;
	g->c.link_size = sizeof(struct ta_group_link);
	g->c.shared_size = sizeof(struct ta_group_shared);
	if (ioctl(ta, TA_IOCTL_GROUP_CREATE, &g->c))
		return -errno;
	g->map_len = g->c.slice_size;
	g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      ta, g->c.mmap_offset);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		return -errno;
	}
	for (i = 0; i < g->n; i++) {
		struct gmember *gm = &g->mem[i];
		struct ta_plan_export exp = {
			.plan_id = desc[i].plan_id, .flags = TA_EXPORT_CLOEXEC,
		};
		struct ta_plan_get get = {
			.plan_id = desc[i].plan_id,
			.n_placements = gm->m->n_tensors,
			.placement_size = sizeof(struct ta_placement),
		};
		uint32_t t;

		gm->p.create.plan_id = desc[i].plan_id;
		gm->p.create.height = g->c.height;
		gm->p.map = g->map;
		gm->p.map_len = g->map_len;
		gm->p.place = calloc(gm->m->n_tensors, sizeof(*gm->p.place));
		if (!gm->p.place || !desc[i].plan_id)
			return -EPROTO;
		get.placements = (uintptr_t)gm->p.place;
		if (ioctl(ta, TA_IOCTL_PLAN_GET, &get))
			return -errno;
		if (get.n_placements != gm->m->n_tensors)
			return -EPROTO;
		/* every tensor inside the group's slice */
		for (t = 0; t < gm->m->n_tensors; t++)
			if (gm->p.place[t].offset + gm->m->tensors[t].size >
			    g->map_len)
				return -ERANGE;
		if (ioctl(ta, TA_IOCTL_PLAN_EXPORT, &exp))
			return -errno;
		gm->p.dmabuf = exp.fd;
		gm->p.npu = npu;
		if (drm_prime_import(npu, gm->p.dmabuf, &gm->p.handle))
			return -errno;
	}
	return 0;
}

static void group_destroy(int ta, struct group *g)
{
	struct ta_plan_destroy d = { .plan_id = g->c.group_id };
	int i;

	for (i = 0; i < g->n; i++) {
		struct plan *p = &g->mem[i].p;

		if (p->handle)
			drm_gem_close_handle(p->npu, p->handle);
		if (p->dmabuf >= 0)
			close(p->dmabuf);
		free(p->place);
		free(g->mem[i].tensors);
	}
	if (g->map)
		munmap(g->map, g->map_len);
	if (g->c.group_id)
		ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d);
	memset(g, 0, sizeof(*g));
}

/* Live only in its member's window: what members of a lane may share. */
static bool windowed(const struct gmember *gm, uint32_t t)
{
	return gm->m->tensors[t].size &&
	       !(gm->tensors[t].flags & (TA_TENSOR_CONSTANT |
					 TA_TENSOR_PERSISTENT |
					 TA_TENSOR_EXPORTABLE));
}

static bool placed_overlap(const struct gmember *a, uint32_t sa,
			   const struct gmember *b, uint32_t sb)
{
	uint64_t a0 = a->p.place[sa].offset, b0 = b->p.place[sb].offset;

	return a0 < b0 + b->m->tensors[sb].size &&
	       b0 < a0 + a->m->tensors[sa].size;
}

/* Pairs of tensors of @a and @b that share bytes; @all: any, else windowed. */
static uint64_t count_overlaps(const struct gmember *a, const struct gmember *b,
			       bool all, uint64_t *pairs)
{
	uint64_t n = 0;
	uint32_t s, t;

	*pairs = 0;
	for (s = 0; s < a->m->n_tensors; s++) {
		if (!a->m->tensors[s].size || (!all && !windowed(a, s)))
			continue;
		for (t = 0; t < b->m->n_tensors; t++) {
			if (!b->m->tensors[t].size || (!all && !windowed(b, t)))
				continue;
			++*pairs;
			n += placed_overlap(a, s, b, t);
		}
	}
	return n;
}

/* What shares bytes with tensor @t of @a, among @b's tensors. */
static void print_sharers(const struct gmember *a, uint32_t t,
			  const struct gmember *b)
{
	uint32_t s;

	printf("# %s tensor %u (flags %#x) at %llu, %llu bytes; shares bytes with:",
	       a->m->name, t, a->tensors[t].flags,
	       (unsigned long long)a->p.place[t].offset,
	       (unsigned long long)a->m->tensors[t].size);
	for (s = 0; s < b->m->n_tensors; s++)
		if (b->m->tensors[s].size && placed_overlap(a, t, b, s))
			printf(" %s %u (flags %#x, at %llu, %llu bytes)",
			       b->m->name, s, b->tensors[s].flags,
			       (unsigned long long)b->p.place[s].offset,
			       (unsigned long long)b->m->tensors[s].size);
	printf("\n");
}

/* A whole-model job on member @gm, by handle or by ID, not waited for. */
static int submit_nowait(int npu, struct gmember *gm, bool by_id)
{
	struct drm_ta_npu_submit job;

	job_init(&job, gm->m, &gm->p, by_id);
	job.flags &= ~TA_NPU_SUBMIT_WAIT;
	return ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? -errno : 0;
}

/* Two members of lane 0 (B's inputs and A's outputs kept: see the top). */
static int serial_group(int ta, int npu, struct group *g, struct model *ma,
			struct model *mb)
{
	int ret;

	ret = gmember_init(g, 0, ma, 0, TA_E2E_LIVE_AT_END,
			   TA_TENSOR_PERSISTENT);
	if (!ret)
		ret = gmember_init(g, 1, mb, 0, TA_TENSOR_INPUT,
				   TA_TENSOR_PERSISTENT);
	if (!ret)
		ret = group_create(ta, npu, g, NULL, 0);
	return ret;
}

static struct model *second_model(void)
{
	return n_models > 1 ? &models[1] : first_model();
}

/*
 * Back to back: GROUP_ROUNDS rounds of a job on A and a job on B, neither
 * waited for, then both compared with their references. Figures (no
 * assertion): a round of the two against each member alone.
 */
static void test_group_serial(int ta, int npu, struct model *ma,
			      struct model *mb)
{
	struct group g = { 0 };
	struct gmember *a = &g.mem[0], *b = &g.mem[1];
	double pair = 0, alone_a = 0, alone_b = 0, t0;
	uint64_t over, pairs;
	int r, ok = 0, ret;

	ret = serial_group(ta, npu, &g, ma, mb);
	CHECK(!ret,
	      "npu group serial: %s then %s in lane 0, one slice (height %llu, slice %llu, members %u and %u)%s%s",
	      ma->name, mb->name, (unsigned long long)g.c.height,
	      (unsigned long long)g.c.slice_size, a->p.create.plan_id,
	      b->p.create.plan_id, ret ? ": " : "", ret ? strerror(-ret) : "");
	if (ret)
		goto out;
	over = count_overlaps(a, b, false, &pairs);
	CHECK(over > 0,
	      "npu group serial: the members share bytes: %llu of %llu pairs of their activations overlap",
	      (unsigned long long)over, (unsigned long long)pairs);

	for (r = 0; r < GROUP_ROUNDS; r++) {
		int64_t bad_a, bad_b;
		int ra, rb, done;

		memset(g.map, 0, g.map_len);
		plan_write_initial(a->m, &a->p);
		plan_write_initial(b->m, &b->p);
		t0 = now_s();
		ra = submit_nowait(npu, a, false);
		rb = submit_nowait(npu, b, false);
		/* the lane's one reservation object: B's buffer waits for both */
		done = poll_fd(b->p.dmabuf, POLLIN, 120 * 1000) == 1 &&
		       poll_fd(a->p.dmabuf, POLLIN, 120 * 1000) == 1;
		pair += now_s() - t0;
		bad_a = compare_live(a->m, &a->p, a->m->final, a->m->n_ops);
		bad_b = compare_live(b->m, &b->p, b->m->final, b->m->n_ops);
		CHECK(!ra && !rb && done && bad_a < 0 && bad_b < 0,
		      "npu group serial round %d: jobs on %s and %s back to back, unwaited: both bit for bit (%s, %s, first bad tensor %lld / %lld)",
		      r + 1, a->m->name, b->m->name,
		      ra ? strerror(-ra) : "queued",
		      rb ? strerror(-rb) : "queued", (long long)bad_a,
		      (long long)bad_b);
		ok += !ra && !rb && done && bad_a < 0 && bad_b < 0;
		if (bad_a >= 0)
			print_sharers(a, bad_a, b);
		if (bad_b >= 0)
			print_sharers(b, bad_b, a);
	}
	CHECK(ok == GROUP_ROUNDS, "npu group serial: %d of %d rounds bit for bit",
	      ok, GROUP_ROUNDS);

	/* Figures: each member alone, as many rounds. */
	for (r = 0; r < GROUP_ROUNDS; r++) {
		plan_write_initial(a->m, &a->p);
		plan_write_initial(b->m, &b->p);
		t0 = now_s();
		if (!submit_nowait(npu, a, false))
			poll_fd(a->p.dmabuf, POLLIN, 120 * 1000);
		alone_a += now_s() - t0;
		t0 = now_s();
		if (!submit_nowait(npu, b, false))
			poll_fd(b->p.dmabuf, POLLIN, 120 * 1000);
		alone_b += now_s() - t0;
	}
	printf("# figure: group serial, %d rounds: A+B back to back %.2f ms a round, A alone %.2f ms, B alone %.2f ms (%s, %s)\n",
	       GROUP_ROUNDS, pair * 1e3 / GROUP_ROUNDS,
	       alone_a * 1e3 / GROUP_ROUNDS, alone_b * 1e3 / GROUP_ROUNDS,
	       a->m->name, b->m->name);
out:
	group_destroy(ta, &g);
}

/* What a child that submitted with TA_NPU_SUBMIT_WAIT reports back. */
struct held_result {
	int err;
	uint64_t bytes_read, bytes_written;
};

/*
 * Fork a child that submits a whole-model job on @gm by plan ID and waits
 * for it (TA_NPU_SUBMIT_WAIT): the pipe it returns becomes readable when
 * the job's own fence has signalled. -1 on failure.
 */
static int submit_in_child(int npu, struct gmember *gm, pid_t *pid)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (*pid == 0) {
		struct drm_ta_npu_submit job;
		struct held_result res = { 0 };

		close(fds[0]);
		job_init(&job, gm->m, &gm->p, true);
		res.err = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
		res.bytes_read = job.bytes_read;
		res.bytes_written = job.bytes_written;
		_exit(write(fds[1], &res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(fds[1]);
	return fds[0];
}

/*
 * The proof: a foreign fence on A's exported dma-buf holds back a job on
 * B named by plan ID (the NPU makes its own dma-buf of B through the
 * kernel API: ta_kapi_plan_dmabuf()). On a kernel that gave the members
 * separate reservation objects, B's job would run at once.
 */
static void test_group_hold(int ta, int npu, struct model *ma,
			    struct model *mb)
{
	struct group g = { 0 };
	struct gmember *a = &g.mem[0], *b = &g.mem[1];
	int vgem = -1, sync = -1, rfd = -1, status, ret, cases = 0;
	struct held_result res = { .err = -1 };
	uint8_t *before = NULL;
	uint32_t fence = 0;
	pid_t pid = -1;
	int64_t bad;

	ret = serial_group(ta, npu, &g, ma, mb);
	if (!ret) {
		memset(g.map, 0, g.map_len);
		plan_write_initial(a->m, &a->p);
		plan_write_initial(b->m, &b->p);
		ret = vgem_hold(a->p.dmabuf, &vgem, &fence);
	}
	CHECK(!ret,
	      "npu group hold: %s then %s in lane 0; an unsignalled vgem fence imported into member A's (%u) exported dma-buf%s%s",
	      ma->name, mb->name, a->p.create.plan_id, ret ? ": " : "",
	      ret ? strerror(-ret) : "");
	before = ret ? NULL : malloc(g.map_len);
	if (!before)
		goto out;
	memcpy(before, g.map, g.map_len);
	rfd = submit_in_child(npu, b, &pid);
	CHECK(rfd >= 0, "npu group hold: a job on member B (%u) submitted by plan ID",
	      b->p.create.plan_id);
	if (rfd < 0)
		goto out;
	usleep(HOLD_MS * 1000);
	ret = poll_fd(rfd, POLLIN, 0);
	CHECK(ret == 0,
	      "npu group hold: B's job has not finished (its fence unsignalled) %d ms after submit, while the foreign fence on A holds the lane",
	      HOLD_MS);
	cases += ret == 0;
	ret = !memcmp(before, g.map, g.map_len);
	CHECK(ret,
	      "npu group hold: the NPU has not touched the group's slice (B's outputs untouched, %zu bytes)",
	      g.map_len);
	cases += ret;
	sync = dmabuf_export_sync_file(b->p.dmabuf, false);
	ret = sync >= 0 && sync_file_status(sync) == 0;
	CHECK(ret,
	      "npu group hold: EXPORT_SYNC_FILE of member B's dma-buf is not signalled: the lane's one reservation object holds A's foreign fence");
	cases += ret;
	CHECK(!vgem_fence_signal(vgem, fence), "npu group hold: vgem signals its fence");
	ret = poll_fd(rfd, POLLIN, 120 * 1000) == 1 &&
	      read(rfd, &res, sizeof(res)) == sizeof(res);
	CHECK(ret && !res.err && res.bytes_read == b->m->bytes_in &&
	      res.bytes_written == b->m->bytes_out,
	      "npu group hold: then B's job completes (%s; %llu bytes read, %llu written)",
	      !ret ? "no result" : res.err ? strerror(res.err) : "done",
	      (unsigned long long)res.bytes_read,
	      (unsigned long long)res.bytes_written);
	cases += ret && !res.err;
	CHECK(sync >= 0 && poll_fd(sync, POLLIN, 120 * 1000) == 1,
	      "npu group hold: and B's sync_file signals");
	bad = compare_live(b->m, &b->p, b->m->final, b->m->n_ops);
	CHECK(bad < 0, "npu group hold: B's results are bit for bit the reference (first bad tensor %lld)",
	      (long long)bad);
	cases += bad < 0;
	CHECK(cases == 5, "npu group hold: %d of 5 cases held", cases);
out:
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (rfd >= 0)
		close(rfd);
	free(before);
	if (sync >= 0)
		close(sync);
	if (vgem >= 0)
		close(vgem);
	group_destroy(ta, &g);
}

/*
 * Lanes: A in lane 0 held by a foreign fence, C in lane 1: C's job
 * completes at once, bit for bit, while lane 0 stays held; no byte of the
 * two is shared. Then lane 0 is released and A runs bit for bit.
 */
static void test_group_lanes(int ta, int npu, struct model *ma,
			     struct model *mc)
{
	struct group g = { 0 };
	struct gmember *a = &g.mem[0], *c = &g.mem[1];
	struct drm_ta_npu_submit job;
	int vgem = -1, sync = -1, ret, cases = 0;
	uint64_t over, pairs;
	uint32_t fence = 0;
	double t0, secs;
	int64_t bad;

	ret = gmember_init(&g, 0, ma, 0, 0, 0);
	if (!ret)
		ret = gmember_init(&g, 1, mc, 1, 0, 0);
	if (!ret)
		ret = group_create(ta, npu, &g, NULL, 0);
	CHECK(!ret,
	      "npu group lanes: %s in lane 0, %s in lane 1 (height %llu, members %u and %u)%s%s",
	      ma->name, mc->name, (unsigned long long)g.c.height,
	      a->p.create.plan_id, c->p.create.plan_id, ret ? ": " : "",
	      ret ? strerror(-ret) : "");
	if (ret)
		goto out;
	over = count_overlaps(a, c, true, &pairs);
	CHECK(!over,
	      "npu group lanes: the lanes' placements are disjoint: %llu of %llu pairs of tensors overlap",
	      (unsigned long long)over, (unsigned long long)pairs);
	cases += !over;
	memset(g.map, 0, g.map_len);
	plan_write_initial(a->m, &a->p);
	plan_write_initial(c->m, &c->p);
	ret = vgem_hold(a->p.dmabuf, &vgem, &fence);
	CHECK(!ret, "npu group lanes: a vgem fence holds lane 0 (member A's dma-buf)%s%s",
	      ret ? ": " : "", ret ? strerror(-ret) : "");
	if (ret)
		goto out;

	job_init(&job, c->m, &c->p, true);
	t0 = now_s();
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	secs = now_s() - t0;
	bad = compare_live(c->m, &c->p, c->m->final, c->m->n_ops);
	CHECK(!ret && bad < 0 && job.bytes_read == c->m->bytes_in,
	      "npu group lanes: a job on lane 1's member (by plan ID) completes while lane 0 is held, bit for bit (%s, %.1f ms, first bad tensor %lld)",
	      ret ? strerror(ret) : "done", secs * 1e3, (long long)bad);
	cases += !ret && bad < 0;
	sync = dmabuf_export_sync_file(a->p.dmabuf, false);
	ret = sync >= 0 && sync_file_status(sync) == 0;
	CHECK(ret, "npu group lanes: lane 0 is still held meanwhile (A's sync_file unsignalled)");
	cases += ret;
	CHECK(!vgem_fence_signal(vgem, fence), "npu group lanes: vgem signals its fence");
	job_init(&job, a->m, &a->p, false);
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	bad = compare_live(a->m, &a->p, a->m->final, a->m->n_ops);
	CHECK(!ret && bad < 0,
	      "npu group lanes: then lane 0's member runs, bit for bit (%s, first bad tensor %lld)",
	      ret ? strerror(ret) : "done", (long long)bad);
	cases += !ret && bad < 0;
	bad = compare_live(c->m, &c->p, c->m->final, c->m->n_ops);
	CHECK(bad < 0, "npu group lanes: and lane 1's results are still intact");
	cases += bad < 0;
	CHECK(cases == 5, "npu group lanes: %d of 5 cases held", cases);
out:
	if (sync >= 0)
		close(sync);
	if (vgem >= 0)
		close(vgem);
	group_destroy(ta, &g);
}

/* Each job of npu.group_cores keeps its core at least this long. */
#define CORE_HOLD_MS	500
#define CORE_ROUNDS	2

/* A job of npu.group_cores: its member, its core, what the NPU recorded. */
struct core_job {
	struct gmember *gm;
	uint32_t core;
	int err;			/* of the submit, or of the query */
	struct drm_ta_npu_job_info info;
};

/* Submit @j's whole-model job on its core, held CORE_HOLD_MS, unwaited. */
static void core_submit(int npu, struct core_job *j)
{
	struct drm_ta_npu_submit job;

	job_init(&job, j->gm->m, &j->gm->p, false);
	job.flags = (job.flags & ~TA_NPU_SUBMIT_WAIT) | TA_NPU_SUBMIT_CORE;
	job.core = j->core;
	job.hold_ms = CORE_HOLD_MS;
	memset(&j->info, 0, sizeof(j->info));
	j->err = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	j->info.seqno = job.seqno;
}

/* Once its fence signalled: when and where it ran (JOB_INFO). */
static void core_query(int npu, struct core_job *j)
{
	if (!j->err && poll_fd(j->gm->p.dmabuf, POLLIN, 120 * 1000) != 1)
		j->err = ETIMEDOUT;
	if (!j->err)
		j->err = ioctl(npu, DRM_IOCTL_TA_NPU_JOB_INFO, &j->info) ?
			 errno : 0;
	if (!j->err)
		j->err = -j->info.error;
}

/* Ran as asked: no error, on its core, its hold kept (recorded). */
static bool core_ran(const struct core_job *j)
{
	return !j->err && j->info.core == j->core && j->info.start_ns &&
	       j->info.end_ns - j->info.start_ns >=
	       (uint64_t)CORE_HOLD_MS * 1000000;
}

/* Time both recorded intervals share (ns); <= 0: the gap between them. */
static int64_t core_overlap(const struct core_job *x, const struct core_job *y)
{
	uint64_t start = x->info.start_ns > y->info.start_ns ?
			 x->info.start_ns : y->info.start_ns;
	uint64_t end = x->info.end_ns < y->info.end_ns ?
		       x->info.end_ns : y->info.end_ns;

	return (int64_t)(end - start);
}

/*
 * One round: @x on core @cx and @y on core @cy, each held CORE_HOLD_MS,
 * both held back by one foreign (vgem) fence on @x's and @y's dma-bufs
 * until both are queued, then released at once; both run, and are
 * compared with their references. 0, or the number of failed cases.
 */
static int core_round(int npu, struct gmember *x, uint32_t cx,
		      struct gmember *y, uint32_t cy, struct core_job *jx,
		      struct core_job *jy, int64_t *bad_x, int64_t *bad_y)
{
	int bufs[2] = { x->p.dmabuf, y->p.dmabuf }, vgem = -1, ret;
	uint32_t fence = 0;

	*jx = (struct core_job){ .gm = x, .core = cx, .err = ENODEV };
	*jy = (struct core_job){ .gm = y, .core = cy, .err = ENODEV };
	*bad_x = *bad_y = 0;
	memset(x->p.map, 0, x->p.map_len);
	plan_write_initial(x->m, &x->p);
	plan_write_initial(y->m, &y->p);
	ret = vgem_hold_all(bufs, 2, &vgem, &fence);
	if (!ret) {
		core_submit(npu, jx);
		core_submit(npu, jy);
		ret = vgem_fence_signal(vgem, fence);
	}
	if (vgem >= 0)
		close(vgem);
	if (ret)
		return 1;
	core_query(npu, jx);
	core_query(npu, jy);
	*bad_x = compare_live(x->m, &x->p, x->m->final, x->m->n_ops);
	*bad_y = compare_live(y->m, &y->p, y->m->final, y->m->n_ops);
	return !core_ran(jx) + !core_ran(jy) + (*bad_x >= 0) + (*bad_y >= 0);
}

/*
 * Cores: the same pair of jobs, on two cores, each keeping its core
 * CORE_HOLD_MS, released together by one foreign fence. Members of two
 * lanes run at once: their recorded intervals overlap. Members of one
 * lane, which share bytes, never do, even on two cores: the second starts
 * after the first ended (the lane's reservation object orders them). Both
 * bit for bit every time; CORE_ROUNDS rounds of each, cores swapped.
 */
static void test_group_cores(int ta, int npu, struct model *ma,
			     struct model *mb)
{
	struct group lanes = { 0 }, lane = { 0 };
	struct core_job jx, jy;
	int64_t bad_x, bad_y, gap;
	uint32_t n_cores = npu_n_cores();
	int r, ret, failed, cases = 0;
	uint64_t over, pairs;

	CHECK(n_cores >= 2, "npu group cores: the NPU has %u cores (n_cores)",
	      n_cores);
	if (n_cores < 2)
		return;

	/* Two lanes: A in lane 0, B in lane 1, no byte shared. */
	ret = gmember_init(&lanes, 0, ma, 0, 0, 0);
	if (!ret)
		ret = gmember_init(&lanes, 1, mb, 1, 0, 0);
	if (!ret)
		ret = group_create(ta, npu, &lanes, NULL, 0);
	over = ret ? 1 : count_overlaps(&lanes.mem[0], &lanes.mem[1], true,
					&pairs);
	CHECK(!ret && !over,
	      "npu group cores: %s in lane 0, %s in lane 1, no byte shared%s%s",
	      ma->name, mb->name, ret ? ": " : "", ret ? strerror(-ret) : "");
	for (r = 0; !ret && !over && r < CORE_ROUNDS; r++) {
		failed = core_round(npu, &lanes.mem[0], r, &lanes.mem[1], 1 - r,
				    &jx, &jy, &bad_x, &bad_y);
		gap = core_overlap(&jx, &jy);
		CHECK(!failed && gap > 0,
		      "npu group cores: lanes, round %d: A on core %u and B on core %u ran at once, their recorded intervals overlap by %.1f ms (A %.1f ms from its start, B %.1f ms, their starts %.1f ms apart), both bit for bit (%s, %s, first bad tensor %lld / %lld)",
		      r + 1, jx.core, jy.core, gap / 1e6,
		      (jx.info.end_ns - jx.info.start_ns) / 1e6,
		      (jy.info.end_ns - jy.info.start_ns) / 1e6,
		      llabs((int64_t)jy.info.start_ns -
			    (int64_t)jx.info.start_ns) / 1e6,
		      jx.err ? strerror(jx.err) : "ran",
		      jy.err ? strerror(jy.err) : "ran", (long long)bad_x,
		      (long long)bad_y);
		cases += !failed && gap > 0;
		printf("# figure: group cores, lanes round %d: overlap %.1f ms of a %d ms hold\n",
		       r + 1, gap / 1e6, CORE_HOLD_MS);
	}
	group_destroy(ta, &lanes);

	/* One lane: A then B, sharing bytes. */
	ret = serial_group(ta, npu, &lane, ma, mb);
	over = ret ? 0 : count_overlaps(&lane.mem[0], &lane.mem[1], false,
					&pairs);
	CHECK(!ret && over,
	      "npu group cores: %s then %s in lane 0, %llu pairs of their activations sharing bytes%s%s",
	      ma->name, mb->name, (unsigned long long)over, ret ? ": " : "",
	      ret ? strerror(-ret) : "");
	for (r = 0; !ret && over && r < CORE_ROUNDS; r++) {
		failed = core_round(npu, &lane.mem[0], r, &lane.mem[1], 1 - r,
				    &jx, &jy, &bad_x, &bad_y);
		gap = core_overlap(&jx, &jy);
		CHECK(!failed && gap <= 0 && jy.info.start_ns >= jx.info.end_ns,
		      "npu group cores: one lane, round %d: A on core %u and B on core %u never ran at once: B started %.1f ms after A ended (A %.1f ms from its start, B %.1f ms), both bit for bit (%s, %s, first bad tensor %lld / %lld)",
		      r + 1, jx.core, jy.core,
		      ((int64_t)jy.info.start_ns - (int64_t)jx.info.end_ns) / 1e6,
		      (jx.info.end_ns - jx.info.start_ns) / 1e6,
		      (jy.info.end_ns - jy.info.start_ns) / 1e6,
		      jx.err ? strerror(jx.err) : "ran",
		      jy.err ? strerror(jy.err) : "ran", (long long)bad_x,
		      (long long)bad_y);
		cases += !failed && gap <= 0 && jy.info.start_ns >= jx.info.end_ns;
		printf("# figure: group cores, one lane round %d: B started %.1f ms after A ended\n",
		       r + 1, -gap / 1e6);
	}
	group_destroy(ta, &lane);
	CHECK(cases == 2 * CORE_ROUNDS, "npu group cores: %d of %d rounds held",
	      cases, 2 * CORE_ROUNDS);
}

/*
 * A graph output of @a written by an op, and a graph input of @b of the
 * same size (a link is one tensor of the larger size: equal sizes keep
 * B's reference on A's output exact).
 */
static bool pick_link(const struct model *a, const struct model *b,
		      uint32_t *from, uint32_t *to)
{
	uint64_t best = 0;
	uint32_t s, t, i;
	bool found = false;

	for (s = 0; s < a->n_tensors; s++) {
		bool written = false;

		if (!(a->tensors[s].flags & TA_TENSOR_OUTPUT) ||
		    a->tensors[s].flags & (TA_TENSOR_CONSTANT |
					   TA_TENSOR_PERSISTENT |
					   TA_TENSOR_EXPORTABLE | TA_TENSOR_INPUT) ||
		    !a->tensors[s].size)
			continue;
		for (i = 0; i < a->n_ops && !written; i++) {
			const struct ta_op *op = &a->ops[i];
			uint32_t k;

			for (k = 0; k < op->n_outputs; k++)
				written |= a->refs[op->first_ref + op->n_inputs + k] == s;
		}
		if (!written)
			continue;
		for (t = 0; t < b->n_tensors; t++) {
			uint64_t size = b->tensors[t].size;

			if (!(b->tensors[t].flags & TA_TENSOR_INPUT) ||
			    b->tensors[t].flags & (TA_TENSOR_CONSTANT |
						   TA_TENSOR_PERSISTENT |
						   TA_TENSOR_EXPORTABLE) ||
			    !size || size != a->tensors[s].size || size <= best)
				continue;
			best = size;
			*from = s;
			*to = t;
			found = true;
		}
	}
	return found;
}

/* B's initial tensors but @skip, through the mapping. */
static void write_initial_but(const struct gmember *gm, uint32_t skip)
{
	const struct model *m = gm->m;
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++)
		if (t != skip && is_initial(m, t) && m->tensors[t].size)
			ta_npu_fill_initial(JOB_KEY, t,
					    gm->p.map + gm->p.place[t].offset,
					    m->tensors[t].size);
}

/*
 * Links: A's output is B's input, one place in the slice. A runs; the link's
 * bytes in the group's mapping, at B's input, are A's reference output;
 * B runs on the NPU with nothing but its plan and matches its reference
 * run on those bytes (and not its reference on its usual input).
 */
static void test_group_link(int ta, int npu)
{
	struct model *ma = NULL, *mb = NULL;
	struct drm_ta_npu_submit job;
	struct ta_group_link link = { .from_member = 0, .to_member = 1 };
	struct group g = { 0 };
	struct gmember *a = &g.mem[0], *b = &g.mem[1];
	uint32_t from = 0, to = 0, t;
	int i, j, ret, cases = 0;
	uint64_t size, off_a, off_b;
	int64_t bad;

	for (i = 0; i < n_models && !ma; i++)
		for (j = 0; j < n_models && !ma; j++)
			if (pick_link(&models[i], &models[j], &from, &to)) {
				ma = &models[i];
				mb = &models[j];
			}
	if (!ma) {
		CHECK(false, "npu group link: a model whose graph output can be another's input (none of the %d given)",
		      n_models);
		return;
	}
	link.from_tensor = from;
	link.to_tensor = to;
	size = mb->tensors[to].size;
	ret = gmember_init(&g, 0, ma, 0, 0, 0);
	if (!ret)
		ret = gmember_init(&g, 1, mb, 0, 0, 0);
	if (!ret)
		ret = group_create(ta, npu, &g, &link, 1);
	CHECK(!ret,
	      "npu group link: %s's output %u (%llu bytes) linked to %s's input %u (%llu bytes), lane 0 (height %llu)%s%s",
	      ma->name, from, (unsigned long long)ma->tensors[from].size,
	      mb->name, to, (unsigned long long)size,
	      (unsigned long long)g.c.height, ret ? ": " : "",
	      ret ? strerror(-ret) : "");
	if (ret)
		goto out;
	off_a = a->p.place[from].offset;
	off_b = b->p.place[to].offset;
	CHECK(off_a == off_b,
	      "npu group link: one tensor at one offset of the group's slice (A's output at %llu, B's input at %llu)",
	      (unsigned long long)off_a, (unsigned long long)off_b);
	cases += off_a == off_b;

	memset(g.map, 0, g.map_len);
	plan_write_initial(a->m, &a->p);
	job_init(&job, a->m, &a->p, false);
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	bad = compare_live(a->m, &a->p, a->m->final, a->m->n_ops);
	CHECK(!ret && bad < 0, "npu group link: A runs bit for bit (%s, first bad tensor %lld)",
	      ret ? strerror(ret) : "done", (long long)bad);
	cases += !ret && bad < 0;
	ret = !memcmp(g.map + off_b, ma->final[from], size);
	CHECK(ret,
	      "npu group link: through the group's mapping, B's input holds A's output as the NPU wrote it (%llu bytes)",
	      (unsigned long long)size);
	cases += ret;

	/* B: its other initial tensors now; its input is the link. */
	write_initial_but(b, to);
	ref_reset(mb, mb->ref);
	memcpy(mb->ref[to], ma->final[from], size);
	for (t = 0; t < mb->n_ops; t++)
		ref_op(mb, mb->ref, t);
	job_init(&job, b->m, &b->p, true);
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? errno : 0;
	bad = compare_live(b->m, &b->p, mb->ref, b->m->n_ops);
	CHECK(!ret && bad < 0 && job.n_bos == 0,
	      "npu group link: B's job by plan ID, given nothing but its plan, is bit for bit its reference run on A's output (%s, first bad tensor %lld)",
	      ret ? strerror(ret) : "done", (long long)bad);
	cases += !ret && bad < 0;
	bad = compare_live(b->m, &b->p, mb->final, b->m->n_ops);
	CHECK(bad >= 0,
	      "npu group link: and differs from B's reference on its usual input (tensor %lld): it read the link",
	      (long long)bad);
	cases += bad >= 0;
	CHECK(cases == 5, "npu group link: %d of 5 cases held", cases);
out:
	group_destroy(ta, &g);
}

/* --group: the first two models (the first twice when one is given). */
TEST_F(npu, group_serial)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_group_serial(self->ta, self->npu, m, second_model());
}

TEST_F(npu, group_hold)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_group_hold(self->ta, self->npu, m, second_model());
}

TEST_F(npu, group_lanes)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_group_lanes(self->ta, self->npu, m, second_model());
}

TEST_F(npu, group_cores)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_group_cores(self->ta, self->npu, m, second_model());
}

TEST_F(npu, group_link)
{
	struct model *m;

	NPU_FIRST_MODEL(m);
	test_group_link(self->ta, self->npu);
}
