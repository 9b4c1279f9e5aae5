// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_npu.c - the end-to-end proof, inside the test VM: real models run
 * on the reference NPU (tests/npu-sim) give bit-for-bit the results of a
 * userspace reference that keeps every tensor in a buffer of its own.
 *
 * For each .tflite or .onnx model (read by libtensorarena's importers) and each
 * strategy: plan the graph in the module, write the graph's inputs,
 * constants and state through the plan's mapping, import the plan's dma-buf
 * into the NPU's DRM device (PRIME), run the graph's ops on the NPU (by the
 * handle, or by plan ID; it works at the tensors' DMA addresses), then
 * compare:
 *  - whole run: every tensor live at the end (outputs, constants, state);
 *  - op by op (--steps): after each op, every tensor live at that op.
 * With --corrupt (needs the test build of tensorarena.ko), one tensor of
 * each plan is first moved onto a live neighbour through the test hook,
 * and the comparison must fail.
 *
 * With --sync, the job's fence: a foreign (vgem) fence holds the job back,
 * poll() and a sync_file of the plan's dma-buf wait for it, and a reader
 * that waits sees only finished results; and the NPU's bound on what one
 * file may queue, its jobs charged to the submitter's memory cgroup.
 *
 * With --no-constants, the models' weights are left out of the graph (a
 * model whose weights do not fit the arena still has its activations
 * proven).
 *
 * With --export-inputs, only this: the models' inputs planned exportable
 * and exported, and their pages, after a whole run, holding the input
 * alone (no other tensor was planned on them). With --long-job, only a job
 * the watchdog must stop. With --group, only the groups' proof
 * (ta_e2e_npu_group.c): members of one lane serialised by their one
 * reservation object, even on two cores, other lanes not held back and
 * running at once on two cores, links with no copy. With --tiered, only
 * the proof on tiered plans (ta_e2e_npu_tier.c): the module has a fast
 * tier, each model is planned across it and run with its tensors in both
 * tiers, and the NPU's count of the bytes it moved from SRAM is checked.
 *
 * Each option above turns on its tests (-l lists them); -t NAME after
 * the models (or after "--") runs the tests named instead. Every test opens
 * its own arena and NPU descriptors; the models are read once, before.
 *
 * usage: ta_e2e_npu [--steps] [--corrupt] [--plan-id] [--bad-input] [--unreachable]
 *		     [--dma-heap] [--table] [--stress] [--sync] [--no-constants]
 *		     [--export-inputs] [--long-job] [--group] [--tiered]
 *		     MODEL.tflite|.onnx... [--] [-l] [-t NAME]...
 * Prints the harness's plan, "e2e: ok - ..." / "e2e: not ok - ..." per
 * check and "e2e: ok N - NAME" per test (tests/e2e/ta_harness.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_e2e_drm.h"
#include "ta_e2e_npu.h"

struct options opts;
struct model *models;
int n_models;
/* The models given, and those that did not load. */
static char **given;
char **not_loaded;
int n_given, n_not_loaded;

void npu_fixture_open(int *ta, int *npu)
{
	*ta = open(TA_DEV, O_RDWR | O_CLOEXEC);
	*npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	import_npu = *npu;
	if (*ta >= 0 && *npu >= 0)
		return;
	CHECK(false, "npu: open %s and the %s DRM device", TA_DEV,
	      TA_NPU_DRIVER_NAME);
	/* The test ends here, failed; the teardown closes what opened. */
	longjmp(ta_current->skip_jmp, 1);
}

void npu_fixture_close(int ta, int npu)
{
	import_npu = -1;
	if (npu >= 0)
		close(npu);
	if (ta >= 0)
		close(ta);
}

NPU_FIXTURE

TEST_F(npu, open)
{
	CHECK(self->ta >= 0 && self->npu >= 0,
	      "npu: open %s and the %s DRM device", TA_DEV, TA_NPU_DRIVER_NAME);
}

/* The models on every strategy, as planned (or, --corrupt, made wrong). */
static const struct {
	const char *opt;
	bool *flag;
} npu_opts[] = {
	{ "--steps", &opts.steps }, { "--corrupt", &opts.corrupt },
	{ "--plan-id", &opts.plan_id }, { "--bad-input", &opts.bad_input },
	{ "--dma-heap", &opts.dma_heap }, { "--table", &opts.table },
	{ "--stress", &opts.stress }, { "--unreachable", &opts.unreachable },
	{ "--sync", &opts.sync }, { "--no-constants", &no_constants },
	{ "--export-inputs", &opts.export_inputs },
	{ "--long-job", &opts.long_job }, { "--group", &opts.group },
	{ "--tiered", &opts.tiered },
};

/*
 * The tests the options ask for, in the harness's order: the single tests
 * on the first model, then one pass over the models (as before the
 * harness: --unreachable alone, --long-job and --export-inputs instead of
 * the runs on every strategy).
 */
static int npu_select(char **sel)
{
	int n = 0;

#define SEL(name) (sel[n++] = "-t", sel[n++] = "npu." name)
	SEL("open");
	if (opts.unreachable) {
		SEL("unreachable");
	} else {
		if (opts.bad_input) {
			SEL("bad_input");
			SEL("lifetime");
		}
		if (opts.stress)
			SEL("stress");
		if (opts.sync) {
			SEL("sync");
			SEL("sync_by_id");
			SEL("queue_bound");
		}
		if (opts.long_job) {
			SEL("long_job");
		} else if (opts.export_inputs) {
			SEL("exported_inputs");
		} else if (opts.group) {
			SEL("group_serial");
			SEL("group_hold");
			SEL("group_lanes");
			SEL("group_cores");
			SEL("group_link");
		} else if (opts.tiered) {
			SEL("tiered");
		} else if (opts.corrupt) {
			SEL("corrupt");
		} else {
			SEL("models");
		}
	}
	SEL("end");
#undef SEL
	return n;
}

int main(int argc, char **argv)
{
	char **hargv = calloc(argc + 32, sizeof(*hargv));
	int a = 1, i, n = 0;
	size_t k;

	if (!hargv)
		return 1;
	for (; a < argc && !strncmp(argv[a], "--", 2) && argv[a][2]; a++) {
		for (k = 0; k < sizeof(npu_opts) / sizeof(npu_opts[0]); k++)
			if (!strcmp(argv[a], npu_opts[k].opt))
				break;
		if (k == sizeof(npu_opts) / sizeof(npu_opts[0])) {
			fprintf(stderr, "unknown option %s\n", argv[a]);
			return 2;
		}
		*npu_opts[k].flag = true;
	}
	/* The models, up to the harness's own arguments. */
	given = &argv[a];
	for (; a < argc && strcmp(argv[a], "--") && strcmp(argv[a], "-l") &&
	       strcmp(argv[a], "-t"); a++)
		n_given++;
	/* Named tests (or -l) instead of those the options select. */
	if (a < argc) {
		for (i = a; i < argc; i++)
			hargv[n++] = argv[i];
	} else {
		n = npu_select(hargv);
	}
	models = calloc(n_given + 1, sizeof(*models));
	not_loaded = calloc(n_given + 1, sizeof(*not_loaded));
	if (!models || !not_loaded)
		return 1;
	for (i = 0; i < n_given && !(n && !strcmp(hargv[0], "-l")); i++) {
		if (model_load(&models[n_models], given[i])) {
			model_free(&models[n_models]);
			memset(&models[n_models], 0, sizeof(models[n_models]));
			not_loaded[n_not_loaded++] = given[i];
			continue;
		}
		n_models++;
	}
	i = ta_harness_main(n, hargv);
	for (a = 0; a < n_models; a++)
		model_free(&models[a]);
	free(models);
	free(not_loaded);
	free(hargv);
	return i ? 1 : 0;
}
