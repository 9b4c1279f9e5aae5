// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault - the fault-injection sweep of issue #9 (evidence item 1),
 * run in the debug VM as root (FAILSLAB, FAIL_PAGE_ALLOC,
 * FAULT_INJECTION_DEBUG_FS).
 *
 *   ta_e2e_fault [-l] [-t NAME]...
 *                                 tensorarena and ta_npu_sim loaded: sweep
 *                                 every call kind (the tests calls.*,
 *                                 ta_e2e_fault_calls.c)
 *   ta_e2e_fault --insmod KO ARGS tensorarena not loaded: load KO with ARGS
 *                                 under fault injection while another
 *                                 process keeps opening and mapping the
 *                                 device; leaves the module unloaded
 *                                 (the test insmod.load_sweep,
 *                                 ta_e2e_fault_insmod.c)
 *   --stride N (first)            insmod: every N-th allocation of the
 *                                 loader's (default 10; see
 *                                 ta_e2e_fault_insmod.c)
 *   --tail N (first)              insmod: every N of the last N (200)
 *   --kmemleak (first)            also scan for leaks before and after
 *                                 (~50 s a scan under TCG; the VM's /init
 *                                 scans at the end anyway)
 *
 * For each call kind and N = 1, 2, ...: write N to
 * /proc/thread-self/fail-nth (the N-th allocation of this task fails,
 * slab or page), make the call, read fail-nth back (0: the fault fired).
 * A call that failed must have failed because of the fault, with ENOMEM
 * (ENOBUFS on netlink), and left INFO's n_plans and bytes_in_use, the plan
 * list (PLAN_GET with TA_GET_NEXT), the module's reference count and this
 * process's open descriptors as they were; a call that succeeded must have
 * done what it does. The sweep of a kind ends at the first N where the call
 * succeeds without the fault firing: N - 1 injection points covered.
 *
 * Only allocations of this task during the call count (fail-nth is per
 * task and the generic netlink handlers run in the sender's context), and
 * all of them do: the module's, the reference NPU driver's, and the core
 * kernel's on the way (syscall entry, netlink skbs, files of dma-bufs,
 * VMAs and page tables), and kmemleak's and KASAN's own bookkeeping.
 *
 * One test per kind (ta_harness.h), each with its own descriptors, socket
 * and fault-injection setup, and one check line each: "e2e: ok - fault:
 * NAME: N points" or "e2e: not ok - fault: NAME: WHY"; after the tests, a
 * total. Fault injection and the kernel's log: ta_e2e_fault_inject.c; the
 * state, requests and netlink client: ta_e2e_fault_state.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_fault.h"

bool with_kmemleak;
/*
 * insmod: every N of the last @tail allocations of a load and every
 * @stride-th before them (see ta_e2e_fault_insmod.c).
 */
unsigned int stride = 10, tail = 200;
const char *insmod_ko, *insmod_params = "";

/* The harness's arguments: @args when given, else the tests of @prefix. */
static char **selection(int nargs, char **args, const char *prefix, int *n)
{
	struct ta_test *t;
	char **sel;
	int tests = 0;

	for (t = ta_tests; t; t = t->next)
		tests++;
	sel = calloc(nargs + 2 * tests + 1, sizeof(*sel));
	if (!sel)
		exit(2);
	memcpy(sel, args, nargs * sizeof(*sel));
	*n = nargs;
	for (t = ta_tests; t && !nargs; t = t->next) {
		if (strncmp(t->name, prefix, strlen(prefix)))
			continue;
		sel[(*n)++] = "-t";
		sel[(*n)++] = (char *)t->name;
	}
	return sel;
}

int main(int argc, char **argv)
{
	int failed, leaks0 = -1, n;
	char **sel;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		if (argc >= 2 && !strcmp(argv[1], "--kmemleak")) {
			with_kmemleak = true;
			argv++;
			argc--;
		} else if (argc >= 3 && !strcmp(argv[1], "--tail")) {
			tail = strtoul(argv[2], NULL, 0);
			argv += 2;
			argc -= 2;
		} else if (argc >= 3 && !strcmp(argv[1], "--stride")) {
			stride = strtoul(argv[2], NULL, 0) ?: 1;
			argv += 2;
			argc -= 2;
		} else {
			break;
		}
	}
	if (argc >= 3 && !strcmp(argv[1], "--insmod")) {
		insmod_ko = argv[2];
		argv += 2;
		argc -= 2;
		if (argc >= 2 && argv[1][0] != '-') {
			insmod_params = argv[1];
			argv++;
			argc--;
		}
		sel = selection(argc - 1, argv + 1, "insmod.", &n);
		failed = ta_harness_main(n, sel);
		free(sel);
		return failed ? 1 : 0;
	}
	if (argc >= 2 && argv[1][0] == '-' && strcmp(argv[1], "-l") &&
	    strcmp(argv[1], "-t") && strcmp(argv[1], "--")) {
		fprintf(stderr, "usage: ta_e2e_fault [--kmemleak] [--stride N] [--tail N] [--insmod MODULE.ko [PARAMS]] [-l] [-t TEST]...\n");
		return 2;
	}
	sel = selection(argc - 1, argv + 1, "calls.", &n);
	if (with_kmemleak)
		leaks0 = kmemleak_count(false);
	failed = ta_harness_main(n, sel);
	free(sel);
	if (argc >= 2 && !strcmp(argv[1], "-l"))
		return 0;
	failed += !fault_calls_summary(failed);
	if (leaks0 >= 0)
		failed += !kmemleak_nothing_new(leaks0, "the sweep");
	return failed ? 1 : 0;
}
