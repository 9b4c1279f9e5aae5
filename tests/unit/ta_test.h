/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_test.h - a minimal TAP harness for the host unit tests.
 *
 * Each test is a function returning 0 on success; TA_CHECK() prints a
 * diagnostic ("# file:line: ...") and fails the test. ta_unit prints
 * "1..N", then "ok N - name" or "not ok N - name" per test, and exits 1
 * when any failed.
 */
#ifndef TA_TEST_H
#define TA_TEST_H

#include <stdio.h>

#include "ta_planner.h"

#define TA_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: check failed: %s: ", __FILE__,	\
			       __LINE__, #cond);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			return 1;					\
		}							\
	} while (0)

struct ta_test {
	const char *name;
	int (*fn)(void);
};

/* Each test file exports a NULL-terminated table. */
extern const struct ta_test ta_planner_tests[];
extern const struct ta_test ta_planner_graph_tests[];
extern const struct ta_test ta_planner_check_tests[];
extern const struct ta_test ta_files_tests[];
extern const struct ta_test ta_tflite_tests[];
extern const struct ta_test ta_onnx_infer_tests[];
extern const struct ta_test ta_onnx_ort_tests[];
extern const struct ta_test ta_onnx_tests[];
extern const struct ta_test ta_bounded_tests[];
extern const struct ta_test ta_runtime_tests[];
extern const struct ta_test ta_tactl_tests[];
extern const struct ta_test ta_lib_group_tests[];
extern const struct ta_test ta_auto_tests[];
extern const struct ta_test ta_scale_tests[];
extern const struct ta_test ta_greedy_ref_tests[];
extern const struct ta_test ta_fit_ref_tests[];
extern const struct ta_test ta_freelist_ref_tests[];
extern const struct ta_test ta_contain_tests[];
extern const struct ta_test ta_group_tests[];
extern const struct ta_test ta_tier_tests[];
extern const struct ta_test ta_lib_tier_tests[];
extern const struct ta_test ta_tactl_tier_tests[];

#endif /* TA_TEST_H */
