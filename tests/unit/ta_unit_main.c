// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_unit_main.c - run every host unit test, print TAP.
 *
 * ta_unit [WORD]: only the tests whose name contains WORD (for a developer
 * at work; make check runs them all).
 */
#include <stdio.h>
#include <string.h>

#include "ta_test.h"

static const struct ta_test *const ta_tables[] = {
	ta_planner_tests,
	ta_planner_graph_tests,
	ta_planner_check_tests,
	ta_contain_tests,
	ta_group_tests,
	ta_tier_tests,
	ta_auto_tests,
	ta_scale_tests,
	ta_greedy_ref_tests,
	ta_fit_ref_tests,
	ta_freelist_ref_tests,
	ta_files_tests,
	ta_tflite_tests,
	ta_onnx_infer_tests,
	ta_onnx_ort_tests,
	ta_onnx_tests,
	ta_bounded_tests,
	ta_runtime_tests,
	ta_tactl_tests,
	ta_lib_group_tests,
	ta_lib_tier_tests,
	ta_tactl_tier_tests,
};

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int total = 0, failed = 0, n = 0;
	size_t t;

	for (t = 0; t < sizeof(ta_tables) / sizeof(ta_tables[0]); t++)
		for (const struct ta_test *c = ta_tables[t]; c->name; c++)
			total += !only || strstr(c->name, only);
	printf("TAP version 13\n1..%d\n", total);
	for (t = 0; t < sizeof(ta_tables) / sizeof(ta_tables[0]); t++) {
		for (const struct ta_test *c = ta_tables[t]; c->name; c++) {
			int r;

			if (only && !strstr(c->name, only))
				continue;
			r = c->fn();

			n++;
			printf("%sok %d - %s\n", r ? "not " : "", n, c->name);
			fflush(stdout);
			failed += !!r;
		}
	}
	if (failed)
		printf("# %d of %d tests failed\n", failed, total);
	return failed ? 1 : 0;
}
