/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_npu.h - what the files of ta_e2e_npu share: a model and its
 * userspace reference, a plan in the module imported into the reference
 * NPU, the runs that compare them (ta_e2e_npu_run.c), the program's options
 * and models (ta_e2e_npu.c), and the fixture of every test: its own arena
 * descriptor and its own descriptor of the NPU's DRM node.
 *
 * The tests, by area, in the order they run (link order): ta_e2e_npu.c
 * the descriptors, ta_e2e_npu_api.c the NPU's refusals, the plan's
 * lifetime and the kernel API's access rule, ta_e2e_npu_jobs.c fences, the
 * queue bound, concurrent processes, the watchdog and exported inputs,
 * ta_e2e_npu_group.c groups (serialised lanes, concurrent lanes on two
 * cores, links), ta_e2e_npu_tier.c tiered plans,
 * ta_e2e_npu_models.c the models on every strategy (or corrupted plans)
 * and the end: every model read, the arena empty.
 */
#ifndef TA_E2E_NPU_H
#define TA_E2E_NPU_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/tensorarena.h>

#include "ta_files.h"
#include "ta_npu_sim.h"
#include "ta_harness.h"

#define TA_DEV		"/dev/" TA_DEVICE_NAME
/* The test build's hook, in the debugfs directory of the arena device. */
#define HOOK		"/sys/kernel/debug/tensorarena/*/test_move_tensor"
#define JOB_KEY		0x7e57a12e4aULL

/* A model: its graph in the uAPI's form, lifetimes and the reference. */
struct model {
	const char *name;
	struct ta_input in;
	struct ta_tflite_info info;
	struct ta_tensor *tensors;
	struct ta_op *ops;
	uint32_t n_tensors, n_ops, n_refs;
	const uint32_t *refs;
	const struct ta_buffer *life;	/* [start, end) per tensor */
	uint64_t bytes_in, bytes_out;	/* what all ops read and write */
	uint8_t **ref;			/* reference: a buffer per tensor */
	uint8_t **final;		/* the reference after every op */
};

static inline bool is_initial(const struct model *m, uint32_t t)
{
	return m->tensors[t].flags &
	       (TA_TENSOR_INPUT | TA_TENSOR_CONSTANT | TA_TENSOR_PERSISTENT);
}

/* A plan in the module, mapped (a tiered plan's fast slice too). */
struct plan {
	struct ta_plan_create create;
	struct ta_placement *place;
	uint8_t *map;
	size_t map_len;
	uint8_t *fast_map;	/* the fast slice's mapping, NULL if none */
	size_t fast_map_len;
	int dmabuf;
	int npu;		/* the NPU's DRM fd the plan is imported in */
	uint32_t handle;	/* the plan's GEM handle there, 0 if none */
};

/* Where tensor @t's bytes are in the plan's mappings: its own tier's. */
static inline uint8_t *plan_tensor(const struct plan *p, uint32_t t)
{
	if (p->place[t].tier == TA_TIER_FAST)
		return p->fast_map + p->place[t].offset;
	return p->map + p->place[t].offset;
}

struct options {
	bool steps, corrupt, plan_id, bad_input, dma_heap, table, stress,
	     unreachable, sync, export_inputs, long_job, group, tiered;
};

static const uint32_t strategies[] = {
	TA_STRATEGY_PINGPONG, TA_STRATEGY_STACK, TA_STRATEGY_FREELIST,
	TA_STRATEGY_GREEDY_SIZE, TA_STRATEGY_AUTO,
};

static const char *const strategy_names[] = {
	[TA_STRATEGY_AUTO] = "auto", [TA_STRATEGY_PINGPONG] = "pingpong",
	[TA_STRATEGY_STACK] = "stack", [TA_STRATEGY_FREELIST] = "freelist",
	[TA_STRATEGY_GREEDY_SIZE] = "greedy-size",
};

/* ta_e2e_npu.c: the options given, the models loaded (in order). */
extern struct options opts;
extern struct model *models;
extern int n_models;
/* The number of models given; those that did not load (their paths). */
extern int n_given, n_not_loaded;
extern char **not_loaded;

/* The first model given that loaded: the one the single tests use. */
static inline struct model *first_model(void)
{
	return n_models ? &models[0] : NULL;
}

/* @m = the first model, or the test fails here: no model loaded. */
#define NPU_FIRST_MODEL(m)						\
	do {								\
		(m) = first_model();					\
		if (!(m)) {						\
			CHECK(false, "npu: a model loaded to test with");	\
			return;						\
		}							\
	} while (0)

/* ta_e2e_npu_run.c */
/* --no-constants: the models' constant tensors are left out. */
extern bool no_constants;
/* The NPU's DRM fd plans are imported in; -1: plan_create() does not. */
extern int import_npu;

void ref_reset(struct model *m, uint8_t **buf);
void ref_op(struct model *m, uint8_t **buf, uint32_t i);
int model_load(struct model *m, const char *path);
void model_free(struct model *m);
int plan_create(int ta, const struct model *m, uint32_t strategy,
		struct plan *p);
int plan_create_tiered(int ta, const struct model *m, uint32_t strategy,
		       uint64_t fast_capacity,
		       const struct ta_tensor_tier *tiers, struct plan *p);
void plan_destroy(int ta, struct plan *p);
void plan_write_initial(const struct model *m, struct plan *p);
void job_init(struct drm_ta_npu_submit *job, const struct model *m,
	      const struct plan *p, bool by_id);
int64_t compare_live(const struct model *m, const struct plan *p,
		     uint8_t **want, uint32_t step);
int run_whole(int npu, const struct model *m, struct plan *p, bool by_id,
	      int64_t *bad, double *secs);
int run_steps(int npu, struct model *m, struct plan *p, int64_t *bad,
	      uint32_t *bad_step);
bool pick_corruption(const struct model *m, const struct plan *p,
		     uint32_t *a, uint32_t *b);
int corrupt(const struct model *m, struct plan *p, int ta, uint32_t a,
	    uint32_t b);
bool pick_inplace(const struct model *m, const struct plan *p,
		  uint32_t *a_out, uint32_t *b_out, uint32_t *k_out);
uint64_t bytes_in_use(int ta);
int submit_by_id(int npu, const struct model *m, uint32_t id);
uint32_t npu_n_cores(void);

/*
 * The fixture of every test: the arena device and the reference NPU's DRM
 * node, opened for the test and closed after it; plans are imported into
 * this NPU descriptor. A test TU uses it through NPU_FIXTURE.
 */
FIXTURE(npu) {
	int ta, npu;
};

void npu_fixture_open(int *ta, int *npu);
void npu_fixture_close(int ta, int npu);

#define NPU_FIXTURE							\
	FIXTURE_SETUP(npu)						\
	{								\
		npu_fixture_open(&self->ta, &self->npu);		\
	}								\
	FIXTURE_TEARDOWN(npu)						\
	{								\
		npu_fixture_close(self->ta, self->npu);			\
	}

/* The checks this test failed so far: a child's exit status. */
static inline int npu_failed(void)
{
	return ta_current ? ta_current->failed : 0;
}

#endif /* TA_E2E_NPU_H */
