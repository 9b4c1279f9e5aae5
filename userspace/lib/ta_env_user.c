// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_env_user.c - the planner core's environment in userspace (libc).
 */
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ta_env.h"

#ifdef TA_ENV_TEST_HOOKS
/*
 * Test hooks, built only into the unit tests: every allocation counts in
 * ta_env_test_allocs; when ta_env_test_alloc_fail_nth is N > 0, the N-th
 * one from the moment it was set fails (as /proc/self/fail-nth does);
 * ta_env_test_live_bytes is what the planner holds (malloc_usable_size()
 * of each array), ta_env_test_peak_bytes the most it held since a test
 * set it.
 */
unsigned long ta_env_test_allocs;
unsigned long ta_env_test_alloc_fail_nth;
unsigned long long ta_env_test_live_bytes, ta_env_test_peak_bytes;
#endif

void *ta_env_alloc_array(size_t n, size_t size)
{
#ifdef TA_ENV_TEST_HOOKS
	if (++ta_env_test_allocs == ta_env_test_alloc_fail_nth)
		return NULL;
#endif
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = calloc(n ? n : 1, size ? size : 1);
#ifdef TA_ENV_TEST_HOOKS
	if (p) {
		ta_env_test_live_bytes += malloc_usable_size(p);
		if (ta_env_test_live_bytes > ta_env_test_peak_bytes)
			ta_env_test_peak_bytes = ta_env_test_live_bytes;
	}
#endif
	return p;
}

void ta_env_free(void *p)
{
#ifdef TA_ENV_TEST_HOOKS
	if (p)
		ta_env_test_live_bytes -= malloc_usable_size(p);
#endif
	free(p);
}

void ta_env_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b))
{
	qsort(base, n, size, cmp);
}

/*
 * The clock of the planner's budgets. A measuring aid for benchmarks on a
 * loaded machine: a build with -DTA_ENV_CLOCK=CLOCK_PROCESS_CPUTIME_ID
 * (planner.md, "Measuring on a loaded machine") counts the process's own
 * CPU time, so that a 1 s budget buys the same search whatever else runs.
 */
#ifndef TA_ENV_CLOCK
#define TA_ENV_CLOCK CLOCK_MONOTONIC
#endif

u64 ta_env_now_ns(void)
{
	struct timespec ts;

	clock_gettime(TA_ENV_CLOCK, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

u64 ta_env_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (u64)page : 4096;
}

#ifdef TA_ENV_TEST_HOOKS
/*
 * Test hooks, built only into the unit tests: every call counts in
 * ta_env_test_yields; when ta_env_test_fail_after is N > 0, the N-th call
 * from the moment it was set and every later one return -EINTR.
 */
unsigned long ta_env_test_yields;
unsigned long ta_env_test_fail_after;

int ta_env_yield(void)
{
	ta_env_test_yields++;
	if (ta_env_test_fail_after && ta_env_test_yields >= ta_env_test_fail_after)
		return -EINTR;
	return 0;
}
#else
int ta_env_yield(void)
{
	return 0;
}
#endif
