// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu_tier.c - ta_e2e_npu's proof on tiered plans (--tiered, issue
 * 29): the module loaded with a fast tier (the emulated sram_size, or the
 * board's SRAM), each model planned across it with every strategy at
 * several fast capacities, run on the reference NPU, which reaches each
 * tensor in its own tier (the plan's dma-buf for the arena, the fast
 * slice it takes through the kernel API for SRAM), bit for bit with the
 * reference: whole, op by op and by plan ID. The NPU's count of the bytes
 * it moved from SRAM must be what the placements say, and is reported as
 * the share of all it moved ("npu-tier:" lines). A model that fits the
 * tier whole runs wholly in SRAM, by plan ID (no arena dma-buf), and its
 * job's fence shows on the fast slice's dma-buf userspace exported.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "ta_e2e_npu.h"

NPU_FIXTURE

#define KIB	1024ULL

/* Capacities tried, below the tier's size; the tier's size is the last. */
static const uint64_t tier_capacities[] = { 64 * KIB, 256 * KIB };

/* Bytes the NPU reads from and writes to the fast tier on ops [0, n_ops). */
static void fast_traffic(const struct model *m, const struct plan *p,
			 uint64_t *read, uint64_t *written)
{
	uint32_t i, k;

	*read = 0;
	*written = 0;
	for (i = 0; i < m->n_ops; i++) {
		const struct ta_op *op = &m->ops[i];
		const uint32_t *ref = &m->refs[op->first_ref];

		for (k = 0; k < op->n_inputs + op->n_outputs; k++) {
			uint32_t t = ref[k];

			if (p->place[t].tier != TA_TIER_FAST)
				continue;
			if (k < op->n_inputs)
				*read += m->tensors[t].size;
			else
				*written += m->tensors[t].size;
		}
	}
}

/* The fast tier's size, from INFO; 0 without one. */
static uint64_t fast_tier_size(int ta)
{
	struct ta_info info = { 0 };

	if (ioctl(ta, TA_IOCTL_INFO, &info))
		return 0;
	return info.fast_size;
}

/* What one tiered plan gave, summed over a model's runs. */
struct tier_sum {
	uint64_t moved, moved_fast;
	unsigned int runs;
};

/*
 * One tiered plan of @m: planned, run whole by handle (and, for auto, op
 * by op and by plan ID), compared bit for bit, the fast traffic checked.
 */
static void test_tiered_plan(int ta, int npu, struct model *m,
			     uint32_t strategy, uint64_t capacity,
			     const struct ta_tensor_tier *tiers,
			     const char *how, struct tier_sum *sum)
{
	const char *sn = strategy_names[strategy];
	uint64_t want_read, want_written;
	struct drm_ta_npu_submit job;
	uint32_t step = 0;
	struct plan p;
	int64_t bad = -1;
	double secs = 0;
	int ret;

	ret = plan_create_tiered(ta, m, strategy, capacity, tiers, &p);
	if (ret) {
		CHECK(false, "npu-tier %s %s %lluK %s: plan: %s", m->name, sn,
		      (unsigned long long)(capacity / KIB), how,
		      strerror(-ret));
		plan_destroy(ta, &p);
		return;
	}
	CHECK(p.create.n_fast > 0 && p.create.fast_height > 0 &&
	      p.create.fast_height <= capacity && p.create.height > 0,
	      "npu-tier %s %s %lluK %s: the plan uses both tiers (%u tensors, %llu bytes fast; %llu in the arena)",
	      m->name, sn, (unsigned long long)(capacity / KIB), how,
	      p.create.n_fast, (unsigned long long)p.create.fast_height,
	      (unsigned long long)p.create.height);
	fast_traffic(m, &p, &want_read, &want_written);

	plan_write_initial(m, &p);
	job_init(&job, m, &p, false);
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? -errno : 0;
	if (!ret)
		bad = compare_live(m, &p, m->final, m->n_ops);
	CHECK(!ret && bad < 0 && job.bytes_read == m->bytes_in &&
	      job.bytes_written == m->bytes_out,
	      "npu-tier %s %s %lluK %s: bit for bit with the reference%s",
	      m->name, sn, (unsigned long long)(capacity / KIB), how,
	      ret ? ": run failed" : bad >= 0 ? ": a tensor differs" :
	      job.bytes_read != m->bytes_in ||
	      job.bytes_written != m->bytes_out ? ": byte counts" : "");
	if (ret)
		printf("# run: %s\n", strerror(-ret));
	if (bad >= 0)
		printf("# first difference: tensor %lld (tier %u)\n",
		       (long long)bad, p.place[bad].tier);
	CHECK(!ret && job.bytes_read_fast == want_read &&
	      job.bytes_written_fast == want_written && want_read > 0,
	      "npu-tier %s %s %lluK %s: the NPU read %llu and wrote %llu bytes in SRAM, as placed (%llu, %llu)",
	      m->name, sn, (unsigned long long)(capacity / KIB), how,
	      (unsigned long long)job.bytes_read_fast,
	      (unsigned long long)job.bytes_written_fast,
	      (unsigned long long)want_read, (unsigned long long)want_written);
	if (!ret) {
		uint64_t moved = job.bytes_read + job.bytes_written;
		uint64_t fast = job.bytes_read_fast + job.bytes_written_fast;

		/* model strategy capacity how n_fast fast_height height fast moved */
		printf("npu-tier: %s %s %llu %s %u %llu %llu %llu %llu %.1f%% (planner: %llu of %llu weight, bound %llu)\n",
		       m->name, sn, (unsigned long long)capacity, how,
		       p.create.n_fast, (unsigned long long)p.create.fast_height,
		       (unsigned long long)p.create.height,
		       (unsigned long long)fast, (unsigned long long)moved,
		       moved ? 100.0 * fast / moved : 0.0,
		       (unsigned long long)p.create.weight_fast,
		       (unsigned long long)p.create.weight_total,
		       (unsigned long long)p.create.weight_bound);
		sum->moved += moved;
		sum->moved_fast += fast;
		sum->runs++;
	}
	if (strategy == TA_STRATEGY_AUTO) {
		ret = run_steps(npu, m, &p, &bad, &step);
		CHECK(!ret && bad < 0,
		      "npu-tier %s %s %lluK %s op by op: every live tensor matches after each of %u ops%s",
		      m->name, sn, (unsigned long long)(capacity / KIB), how,
		      m->n_ops, ret ? ": run failed" :
		      bad < 0 ? "" : ": mismatch");
		ret = run_whole(npu, m, &p, true, &bad, &secs);
		CHECK(!ret && bad < 0,
		      "npu-tier %s %s %lluK %s by plan ID (kernel API): bit for bit%s",
		      m->name, sn, (unsigned long long)(capacity / KIB), how,
		      ret ? ": run failed" : bad < 0 ? "" : ": a tensor differs");
	}
	plan_destroy(ta, &p);
}

/*
 * @m across the fast tier: every strategy at each capacity, the planner
 * choosing every tensor's tier; then the whole tier with the weights
 * pinned to the arena (as an Ethos-U keeps them in DRAM or flash and its
 * activations in SRAM), which also keeps the arena part of a small model
 * that would otherwise fit the tier whole.
 */
static unsigned int test_tiered_model(int ta, int npu, struct model *m,
				      uint64_t tier_size)
{
	struct ta_tensor_tier *pins;
	struct tier_sum sum = { 0 };
	unsigned int want = 0;
	uint32_t t;
	size_t c, s;

	for (c = 0; c < sizeof(tier_capacities) / sizeof(tier_capacities[0]);
	     c++) {
		if (tier_capacities[c] >= tier_size)
			continue;
		for (s = 0; s < sizeof(strategies) / sizeof(strategies[0]);
		     s++) {
			test_tiered_plan(ta, npu, m, strategies[s],
					 tier_capacities[c], NULL, "chosen",
					 &sum);
			want++;
		}
	}
	pins = calloc(m->n_tensors, sizeof(*pins));
	if (!pins) {
		CHECK(false, "npu-tier %s: memory for the pins", m->name);
		return want;
	}
	for (t = 0; t < m->n_tensors; t++)
		if (m->tensors[t].flags & TA_TENSOR_CONSTANT)
			pins[t].pin = TA_TIER_SLOW;
	test_tiered_plan(ta, npu, m, TA_STRATEGY_AUTO, tier_size, pins,
			 "weights-slow", &sum);
	want++;
	free(pins);
	CHECK(sum.runs == want && sum.moved_fast > 0,
	      "npu-tier %s: %u of %u tiered runs done; %.1f%% of the %llu bytes the NPU moved came from SRAM",
	      m->name, sum.runs, want,
	      sum.moved ? 100.0 * sum.moved_fast / sum.moved : 0.0,
	      (unsigned long long)sum.moved);
	return want;
}

/* Bytes of @m's tensors: all of them fit a tier this large. */
static uint64_t model_bytes(const struct model *m)
{
	uint64_t sum = 0;
	uint32_t t;

	for (t = 0; t < m->n_tensors; t++)
		sum += (m->tensors[t].size + 63) / 64 * 64;
	return sum;
}

/*
 * @m planned on the whole tier with nothing pinned, when all its tensors
 * fit there: every tensor goes to SRAM, the plan has no arena bytes and
 * so no arena dma-buf, and the NPU runs it by plan ID, every byte it
 * moves from SRAM. With @fence, the job holds its core 2 s and the check
 * is the fence's: it is on the fast slice's reservation object, which a
 * TA_EXPORT_FAST descriptor userspace holds shares, so poll() on that
 * descriptor waits for the job, and the results read after it are the
 * job's. Returns whether it ran.
 */
static bool test_wholly_fast(int ta, int npu, struct model *m,
			     uint64_t tier_size, bool fence)
{
	struct ta_plan_export x = { .flags = TA_EXPORT_FAST |
					      TA_EXPORT_CLOEXEC };
	struct drm_ta_npu_submit job;
	struct pollfd pfd;
	struct plan p;
	int64_t bad = -1;
	int ret, busy;

	if (model_bytes(m) > tier_size)
		return false;
	ret = plan_create_tiered(ta, m, TA_STRATEGY_AUTO, tier_size, NULL,
				 &p);
	CHECK(!ret && p.create.height == 0 &&
	      p.create.n_fast > 0 && p.fast_map,
	      "npu-tier %s whole tier: every tensor in SRAM, no arena bytes (%u fast, height %llu; %s)",
	      m->name, p.create.n_fast, (unsigned long long)p.create.height,
	      strerror(-ret));
	if (ret || p.create.height) {
		plan_destroy(ta, &p);
		return true;
	}
	plan_write_initial(m, &p);
	job_init(&job, m, &p, true);
	if (fence) {
		x.plan_id = p.create.plan_id;
		ret = ioctl(ta, TA_IOCTL_PLAN_EXPORT, &x) ? -errno : 0;
		CHECK(!ret, "npu-tier %s whole tier: TA_EXPORT_FAST (%s)",
		      m->name, strerror(-ret));
		job.flags &= ~TA_NPU_SUBMIT_WAIT;
		job.hold_ms = 2000;
	}
	ret = ioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job) ? -errno : 0;
	if (fence && !ret && x.fd > 0) {
		pfd = (struct pollfd){ .fd = x.fd, .events = POLLOUT };
		busy = poll(&pfd, 1, 0);
		pfd.revents = 0;
		CHECK(busy == 0 && poll(&pfd, 1, 10000) == 1 &&
		      (pfd.revents & POLLOUT),
		      "npu-tier %s whole tier: poll() on the user's fast-slice dma-buf waits for the job (busy at first: %d)",
		      m->name, busy);
	}
	if (fence && x.fd > 0)
		close(x.fd);
	if (!ret)
		bad = compare_live(m, &p, m->final, m->n_ops);
	CHECK(!ret && bad < 0,
	      "npu-tier %s whole tier by plan ID%s: bit for bit%s", m->name,
	      fence ? ", read after poll()" : "",
	      ret ? ": run failed" : bad >= 0 ? ": a tensor differs" : "");
	if (!fence)
		CHECK(!ret && job.bytes_read_fast == job.bytes_read &&
		      job.bytes_written_fast == job.bytes_written &&
		      job.bytes_read == m->bytes_in,
		      "npu-tier %s whole tier: all %llu bytes the NPU moved came from SRAM",
		      m->name, (unsigned long long)(job.bytes_read +
						    job.bytes_written));
	plan_destroy(ta, &p);
	return true;
}

TEST_F(npu, tiered)
{
	uint64_t tier_size = fast_tier_size(self->ta);
	unsigned int plans = 0;
	int i, whole = 0;

	CHECK(tier_size > 0,
	      "npu-tier: the module has a fast tier (%llu bytes)",
	      (unsigned long long)tier_size);
	if (!tier_size)
		return;
	for (i = 0; i < n_models; i++)
		plans += test_tiered_model(self->ta, self->npu, &models[i],
					   tier_size);
	/* 2 capacities x 5 strategies + 1 pinned per model, on a 1 MiB tier */
	CHECK(n_models > 0 && plans >= 11U * n_models,
	      "npu-tier: %u tiered plans run on %d models", plans, n_models);
	/* the models vm-tests.sh gives fit a 1 MiB tier whole */
	for (i = 0; i < n_models; i++)
		whole += test_wholly_fast(self->ta, self->npu, &models[i],
					  tier_size, false);
	CHECK(whole > 0 && test_wholly_fast(self->ta, self->npu, &models[0],
					    tier_size, true),
	      "npu-tier: %d of %d models run wholly in SRAM, the first with its fence",
	      whole, n_models);
}
