/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_harness.h - the one test harness of the end-to-end programs, in the
 * manner of the kernel's kselftest_harness.h (own code).
 *
 *   TEST(name) { ... }                     a named test, run in definition order
 *   FIXTURE(dev) { int fd; };              a fixture's data
 *   FIXTURE_SETUP(dev) { self->fd = open(...); }
 *   FIXTURE_TEARDOWN(dev) { close(self->fd); }
 *   TEST_F(dev, name) { ... self->fd ... } a test with its own fixture
 *   CHECK(ok, fmt, ...)                    one line "e2e: ok - ..." or
 *                                          "e2e: not ok - ...": the check
 *                                          lines tests/results.py counts
 *   SKIP(reason_fmt, ...)                  skip the rest of the test; the run
 *                                          fails unless ta_allow_skip(true)
 *                                          was called (by the program: that
 *                                          kernel / that feature)
 *   ta_harness_main(argc, argv)            -l lists, -t NAME (repeatable)
 *                                          selects; prints "e2e: 1..N" and
 *                                          "e2e: ok N - NAME" per test;
 *                                          returns the number of failures
 *
 * A program parses its own options first (stopping at "--" or at -l/-t)
 * and hands the rest to ta_harness_main(). A test that made no check fails.
 *
 * A program may define its tests in several files, each including this
 * header: the harness's state and functions are weak definitions (TA_SHARED),
 * which the linker makes one.
 */
#ifndef TA_HARNESS_H
#define TA_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ta_test {
	const char *name;
	void (*run)(struct ta_test *t);
	struct ta_test *next;
	/* State of one run. */
	int checks, failed;
	bool skipped;
	char skip_reason[256];
	jmp_buf skip_jmp;
};

/* One definition for all the files of a program. */
#define TA_SHARED __attribute__((weak))

TA_SHARED struct ta_test *ta_tests;
TA_SHARED struct ta_test **ta_tests_tail = &ta_tests;
TA_SHARED struct ta_test *ta_current;
TA_SHARED bool ta_skip_allowed;

/* The program allows skips (e.g. a feature absent on this kernel). */
TA_SHARED void ta_allow_skip(bool allowed)
{
	ta_skip_allowed = allowed;
}

TA_SHARED void ta_register(struct ta_test *t)
{
	*ta_tests_tail = t;
	ta_tests_tail = &t->next;
}

TA_SHARED void __attribute__((format(printf, 2, 3)))
ta_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("e2e: %s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ta_current) {
		ta_current->checks++;
		ta_current->failed += !ok;
	}
}

#define CHECK(ok, ...) ta_check(!!(ok), __VA_ARGS__)

#define SKIP(...)							\
	do {								\
		snprintf(ta_current->skip_reason,			\
			 sizeof(ta_current->skip_reason), __VA_ARGS__);	\
		ta_current->skipped = true;				\
		longjmp(ta_current->skip_jmp, 1);			\
	} while (0)

#define TEST(tn)							\
	static void ta_test_##tn(struct ta_test *ta_t);		\
	static struct ta_test ta_desc_##tn = {			\
		.name = #tn, .run = ta_test_##tn,			\
	};								\
	static void __attribute__((constructor)) ta_reg_##tn(void)	\
	{								\
		ta_register(&ta_desc_##tn);				\
	}								\
	static void ta_test_##tn(struct ta_test *ta_t __attribute__((unused)))

#define FIXTURE(f) struct ta_fixture_##f
#define FIXTURE_SETUP(f)						\
	static void ta_setup_##f(struct ta_fixture_##f *self)
#define FIXTURE_TEARDOWN(f)						\
	static void ta_teardown_##f(struct ta_fixture_##f *self)

/* Setup, body, teardown; a skip in setup or body still tears down. */
#define TEST_F(f, tn)							\
	static void ta_body_##f##_##tn(struct ta_fixture_##f *self);	\
	static void ta_test_##f##_##tn(struct ta_test *ta_t)		\
	{								\
		struct ta_fixture_##f self;				\
									\
		memset(&self, 0, sizeof(self));				\
		if (!setjmp(ta_t->skip_jmp)) {				\
			ta_setup_##f(&self);				\
			ta_body_##f##_##tn(&self);			\
		}							\
		ta_teardown_##f(&self);					\
	}								\
	static struct ta_test ta_desc_##f##_##tn = {			\
		.name = #f "." #tn, .run = ta_test_##f##_##tn,	\
	};								\
	static void __attribute__((constructor))			\
	ta_reg_##f##_##tn(void)					\
	{								\
		ta_register(&ta_desc_##f##_##tn);			\
	}								\
	static void ta_body_##f##_##tn(struct ta_fixture_##f *self)

TA_SHARED bool ta_selected(struct ta_test *t, int nsel, char **sel)
{
	int i;

	if (!nsel)
		return true;
	for (i = 0; i < nsel; i++)
		if (!strcmp(sel[i], t->name))
			return true;
	return false;
}

/* setjmp here, not in ta_harness_main(): its locals stay unclobbered. */
TA_SHARED void ta_run_one(struct ta_test *t)
{
	ta_current = t;
	if (!setjmp(t->skip_jmp))
		t->run(t);
	ta_current = NULL;
}

TA_SHARED int ta_harness_main(int argc, char **argv)
{
	char **sel = calloc(argc + 1, sizeof(*sel));
	int nsel = 0, n = 0, i = 0, failures = 0, a;
	struct ta_test *t;

	for (a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "-l")) {
			for (t = ta_tests; t; t = t->next)
				printf("%s\n", t->name);
			free(sel);
			return 0;
		} else if (!strcmp(argv[a], "-t") && a + 1 < argc) {
			sel[nsel++] = argv[++a];
		} else if (strcmp(argv[a], "--")) {
			fprintf(stderr, "usage: ... [-l] [-t NAME]...\n");
			free(sel);
			return 1;
		}
	}
	for (a = 0; a < nsel; a++) {
		for (t = ta_tests; t && strcmp(t->name, sel[a]); t = t->next)
			;
		if (!t) {
			fprintf(stderr, "no test named %s\n", sel[a]);
			free(sel);
			return 1;
		}
	}
	for (t = ta_tests; t; t = t->next)
		n += ta_selected(t, nsel, sel);
	printf("e2e: 1..%d\n", n);
	fflush(stdout);
	for (t = ta_tests; t; t = t->next) {
		bool ok;

		if (!ta_selected(t, nsel, sel))
			continue;
		i++;
		ta_run_one(t);
		if (t->skipped) {
			ok = ta_skip_allowed && !t->failed;
			printf("e2e: %s %d - %s # SKIP %s%s\n", ok ? "ok" : "not ok",
			       i, t->name, t->skip_reason,
			       ta_skip_allowed ? "" : " (skip not allowed)");
		} else if (!t->checks) {
			ok = false;
			printf("e2e: not ok %d - %s: made no check\n", i, t->name);
		} else {
			ok = !t->failed;
			printf("e2e: %s %d - %s\n", ok ? "ok" : "not ok", i, t->name);
		}
		fflush(stdout);
		failures += !ok;
	}
	free(sel);
	return failures;
}

/* Monotonic seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* TA_HARNESS_H */
