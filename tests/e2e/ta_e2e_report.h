/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_report.h - the result lines of the end-to-end programs that report
 * one formatted line per check ("e2e: ok - ..." / "e2e: not ok - ...", read
 * by tests/results.py), and a clock. Included once per program.
 */
#ifndef TA_E2E_REPORT_H
#define TA_E2E_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

/* Checks that failed so far: the program's exit status. */
static int failures;

static void __attribute__((format(printf, 2, 3)))
report(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("e2e: %s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures += !ok;
}

/* Monotonic seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* TA_E2E_REPORT_H */
