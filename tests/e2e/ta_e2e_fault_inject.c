// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault_inject.c - fault injection for ta_e2e_fault: fail-nth, the
 * fault-injection attributes, the kernel's log while faults are injected,
 * and kmemleak (ta_e2e_fault.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_fault.h"

/* ---- fail-nth ------------------------------------------------------ */


void arm(int nth, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth, buf, len, 0) != len) {
		perror("ta_e2e_fault: write fail-nth");
		exit(1);
	}
}

bool disarm(int nth)
{
	char buf[16] = "";
	bool fired;

	if (pread(nth, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("ta_e2e_fault: read fail-nth");
		exit(1);
	}
	fired = strtoul(buf, NULL, 10) == 0;
	if (pwrite(nth, "0", 1, 0) != 1) {
		perror("ta_e2e_fault: clear fail-nth");
		exit(1);
	}
	return fired;
}

unsigned long fail_nth_left(int nth)
{
	char buf[16] = "";

	if (pread(nth, buf, sizeof(buf) - 1, 0) <= 0)
		return 0;
	return strtoul(buf, NULL, 10);
}

int open_fail_nth(void)
{
	int nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth < 0) {
		CHECK(false, "fault: /proc/thread-self/fail-nth: %s",
		      strerror(errno));
		return -1;
	}
	return nth;
}

int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = 0;
	return 0;
}

/*
 * Only fail-nth may inject: probability 0 (the default). GFP_KERNEL
 * allocations count too (ignore-gfp-wait N), single pages too (min-order
 * 0), and no stack dump per injected failure (verbose 0). User pages
 * (GFP_HIGHUSER: ignore-gfp-highmem stays Y) do not count.
 */
static const struct { const char *file, *val, *restore; } fi_setup[] = {
	{ "failslab/probability", "0", "0" },
	{ "failslab/verbose", "0", "2" },
	{ "failslab/ignore-gfp-wait", "N", "Y" },
	{ "fail_page_alloc/probability", "0", "0" },
	{ "fail_page_alloc/verbose", "0", "2" },
	{ "fail_page_alloc/ignore-gfp-wait", "N", "Y" },
	{ "fail_page_alloc/min-order", "0", "1" },
};

int fi_configure(bool restore)
{
	char path[128];
	unsigned int i;
	int err;

	for (i = 0; i < sizeof(fi_setup) / sizeof(fi_setup[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s",
			 fi_setup[i].file);
		err = write_file(path, restore ? fi_setup[i].restore :
				 fi_setup[i].val);
		if (err) {
			CHECK(false, "fault: configure %s: %s", path,
			      strerror(-err));
			return err;
		}
	}
	return 0;
}

/* ---- the kernel log during a sweep ---------------------------------- */

/*
 * An injected failure of a vmalloc() without __GFP_NOWARN makes the kernel
 * print "vmalloc error: ..." with a stack dump ("Call Trace:"), which
 * tests/results.py takes for a report. The kernel's own module loader does
 * that (module_alloc(), the KASAN shadow of a module): expected here. So
 * during a sweep the console shows only emergencies; after each N the
 * records it logged are read from /dev/kmsg, and any report other than an
 * allocation-failure warning of the core kernel is printed on the console
 * as it was logged, with a "not ok" line. An allocation-failure warning
 * from a module's own allocation (a frame "[tensorarena]" or
 * "[ta_npu_sim]") is not ok too: user-sized allocations must not warn.
 */
static int kmsg_fd = -1;
static char saved_loglevel[16];
static char kmsg_batch[1 << 18];
static size_t kmsg_len;
unsigned int core_warnings, untrack_pfn_warnings;
char core_sites[512];

static const char *const report_words[] = {
	"BUG: ", "WARNING: ", "UBSAN: ", "KASAN", "Kernel panic", "Oops",
	"general protection fault", "unreferenced object 0x",
	"suspected memory leak", "possible circular locking",
	"possible recursive locking", "inconsistent lock state",
	"INFO: possible", "INFO: trying to register non-static key",
	"DEBUG_LOCKS_WARN_ON", "DMA-API: ", "Call Trace:",
	"lockdep is turned off",
};

static void console_restore(void)
{
	if (saved_loglevel[0])
		write_file("/proc/sys/kernel/printk", saved_loglevel);
}

static void on_fatal(int sig)
{
	console_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

int kmsg_begin(void)
{
	static bool handlers;
	char buf[64];

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0 || lseek(kmsg_fd, 0, SEEK_END) < 0 ||
	    read_file("/proc/sys/kernel/printk", buf, sizeof(buf))) {
		CHECK(false, "fault: /dev/kmsg: %s", strerror(errno));
		return -1;
	}
	snprintf(saved_loglevel, sizeof(saved_loglevel), "%d", atoi(buf));
	if (!handlers) {
		atexit(console_restore);
		signal(SIGSEGV, on_fatal);
		signal(SIGBUS, on_fatal);
		signal(SIGABRT, on_fatal);
		signal(SIGTERM, on_fatal);
		signal(SIGINT, on_fatal);
		handlers = true;
	}
	return write_file("/proc/sys/kernel/printk", "1");
}

void kmsg_end(void)
{
	console_restore();
	if (kmsg_fd >= 0)
		close(kmsg_fd);
	kmsg_fd = -1;
}

/* Append the records logged since the last call to kmsg_batch. */
static void kmsg_read(void)
{
	char rec[8192], *msg, *end;
	ssize_t n;

	kmsg_len = 0;
	kmsg_batch[0] = 0;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		if (end)
			*end = 0;
		if (kmsg_len + strlen(msg) + 2 < sizeof(kmsg_batch)) {
			memcpy(kmsg_batch + kmsg_len, msg, strlen(msg));
			kmsg_len += strlen(msg);
			kmsg_batch[kmsg_len++] = '\n';
			kmsg_batch[kmsg_len] = 0;
		}
	}
}

static bool is_report(const char *line, size_t len)
{
	unsigned int i;

	for (i = 0; i < sizeof(report_words) / sizeof(report_words[0]); i++)
		if (memmem(line, len, report_words[i], strlen(report_words[i])))
			return true;
	return false;
}

/* Frames of allocation internals, skipped to find who allocated. */
static bool alloc_frame(const char *f)
{
	static const char *const internal[] = {
		"dump_stack", "warn_alloc", "__vmalloc", "vmalloc", "vzalloc",
		"kvmalloc", "__kvmalloc", "kvcalloc", "kvzalloc", "show_stack",
		"? ",
	};
	unsigned int i;

	for (i = 0; i < sizeof(internal) / sizeof(internal[0]); i++)
		if (!strncmp(f, internal[i], strlen(internal[i])))
			return true;
	return false;
}

/* What the kernel logged during one N (ta_e2e_fault.h). */
const char *kmsg_check(void)
{
	static char why[200];
	bool warn_alloc = false, other = false, in_trace = false;
	char site[96] = "", *line, *nl;

	kmsg_read();
	for (line = kmsg_batch; *line; line = nl + 1) {
		size_t len;

		nl = strchr(line, '\n');
		len = nl - line;
		if (memmem(line, len, "vmalloc error: ", 15) ||
		    memmem(line, len, "page allocation failure: ", 25))
			warn_alloc = true;
		if (memmem(line, len, "Call Trace:", 11)) {
			in_trace = true;
			continue;
		}
		if (memmem(line, len, "</TASK>", 7))
			in_trace = false;
		if (in_trace && !site[0]) {
			const char *f = line;

			while (*f == ' ')
				f++;
			if (*f != '<' && !alloc_frame(f))
				snprintf(site, sizeof(site), "%.*s",
					 (int)(nl - f), f);
		}
		if (is_report(line, len))
			other = true;
	}
	/*
	 * Linux 6.1's remap_pfn_range() undoes a partial mapping after a
	 * failed page-table allocation through zap_page_range_single(),
	 * whose untrack_pfn() then warns once (arch/x86/mm/pat/memtype.c)
	 * that it finds no PFN at the start of the VMA: the core kernel's,
	 * reached from dma_mmap_coherent() in the module's mmap.
	 */
	if (strstr(kmsg_batch, "at arch/x86/mm/pat/memtype.c") &&
	    strstr(kmsg_batch, " untrack_pfn+") &&
	    strstr(kmsg_batch, " remap_pfn_range_notrack+")) {
		other = false;
		for (line = kmsg_batch; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (is_report(line, nl - line) &&
			    !memmem(line, nl - line, "Call Trace:", 11) &&
			    !memmem(line, nl - line, "pat/memtype.c", 13))
				other = true;
		}
		if (!other) {
			untrack_pfn_warnings++;
			return "";
		}
	}
	/* The stack dump of an allocation failure: its "Call Trace:" only. */
	if (warn_alloc) {
		other = false;
		for (line = kmsg_batch; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (is_report(line, nl - line) &&
			    !memmem(line, nl - line, "Call Trace:", 11))
				other = true;
		}
	}
	if (warn_alloc && !other && !strchr(site, '[')) {
		char *plus = strchr(site, '+');

		if (plus)
			*plus = 0;
		core_warnings++;
		if (!strstr(core_sites, site) &&
		    strlen(core_sites) + strlen(site) + 3 < sizeof(core_sites))
			snprintf(core_sites + strlen(core_sites),
				 sizeof(core_sites) - strlen(core_sites),
				 "%s%s", core_sites[0] ? ", " : "", site);
		return "";
	}
	if (!warn_alloc && !other)
		return "";
	fputs(kmsg_batch, stdout);
	if (warn_alloc && !other)
		snprintf(why, sizeof(why),
			 "a failed allocation of a module warns with a stack dump (no __GFP_NOWARN): %s",
			 site);
	else
		snprintf(why, sizeof(why), "kernel report (printed above)");
	return why;
}

/* ---- kmemleak -------------------------------------------------------- */

static const char kmemleak_path[] = "/sys/kernel/debug/kmemleak";

int kmemleak_count(bool print)
{
	static char buf[1 << 16];
	int fd, count = 0;
	ssize_t n;
	char *p;

	double t0 = now_s();

	if (write_file(kmemleak_path, "scan"))
		return -1;
	printf("fault: kmemleak scan took %.1f s\n", now_s() - t0);
	fd = open(kmemleak_path, O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = 0;
		for (p = buf; (p = strstr(p, "unreferenced object")); p++)
			count++;
		if (print)
			fputs(buf, stdout);
	}
	close(fd);
	return count;
}

bool kmemleak_nothing_new(int before, const char *sweep)
{
	int after;

	sleep(6);
	after = kmemleak_count(false);
	if (after > before)
		kmemleak_count(true);
	CHECK(after <= before,
	      "fault: kmemleak finds nothing new after %s (%d before, %d after)",
	      sweep, before, after);
	return after <= before;
}
