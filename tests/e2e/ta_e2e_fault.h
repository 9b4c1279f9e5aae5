/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_fault.h - what the files of ta_e2e_fault share: fault injection
 * through fail-nth and the kernel's log while it runs
 * (ta_e2e_fault_inject.c), the state a failed call must leave unchanged,
 * the requests the calls make and a raw netlink client
 * (ta_e2e_fault_state.c).
 */
#ifndef TA_E2E_FAULT_H
#define TA_E2E_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/tensorarena.h>
#include <netlink/msg.h>

/* A sweep that has not ended by then is reported as not converging. */
#define MAX_N		20000
#define MAX_IDS		256

/* The descriptors of one test: its fixture opens and closes them. */
struct fault_fds {
	int ta;		/* /dev/tensorarena */
	int npu;	/* the reference NPU's DRM node, or -1 */
	int nth;	/* /proc/thread-self/fail-nth */
	int nl;		/* a netlink socket of the family */
};

/* The options of the program (ta_e2e_fault.c). */
extern bool with_kmemleak;
extern unsigned int stride, tail;
extern const char *insmod_ko, *insmod_params;

/*
 * After the tests of the calls (ta_e2e_fault_calls.c): the points per kind
 * and the sweep's total check; @failed: the tests that failed. True when
 * every kind that ran behaved.
 */
bool fault_calls_summary(int failed);

/* ---- fault injection (ta_e2e_fault_inject.c) ------------------------ */

/* The @n-th allocation of this task fails (fail-nth); exits on error. */
void arm(int nth, unsigned int n);
/* Disarm; true when the armed fault fired. */
bool disarm(int nth);
/* fail-nth's value (what is left of an armed count). */
unsigned long fail_nth_left(int nth);
/* The fail-nth file of this thread, or -1 (a failed check). */
int open_fail_nth(void);
/* Only fail-nth injects (@restore: the defaults again); 0 or -errno. */
int fi_configure(bool restore);
int write_file(const char *path, const char *val);
int read_file(const char *path, char *buf, size_t size);

/*
 * The console shows only emergencies between kmsg_begin() and kmsg_end();
 * kmsg_check() reads what the kernel logged since its last call: "" when
 * nothing but the core kernel's allocation-failure warnings, else what
 * (the records are printed).
 */
int kmsg_begin(void);
void kmsg_end(void);
const char *kmsg_check(void);
/* What kmsg_check() let pass, over the whole run. */
extern unsigned int core_warnings, untrack_pfn_warnings;
extern char core_sites[512];

/* kmemleak's reports ("unreferenced object" lines) after a scan, or -1. */
int kmemleak_count(bool print);
/*
 * The check after a sweep (@sweep names it): kmemleak, which reports only
 * objects older than 5 s, finds nothing new since @before reports. Prints
 * what it found; returns whether the check passed.
 */
bool kmemleak_nothing_new(int before, const char *sweep);

/* ---- the state a failed call must leave unchanged (ta_e2e_fault_state.c) */

struct snap {
	__u32 n_plans;
	__u64 bytes_in_use;
	unsigned int n_ids;
	__u32 ids[MAX_IDS];
	long refcnt;		/* /sys/module/tensorarena/refcnt */
	uint64_t fds;		/* this process's open descriptors 0..63 */
};

int ta_ioctl(int ta, unsigned long cmd, void *arg);
void snapshot(int ta, struct snap *s);
/* "" when equal, else what differs. */
const char *snap_diff(const struct snap *a, const struct snap *b);
bool has_id(const struct snap *s, __u32 id);

/* ---- the requests ----------------------------------------------------- */

/* The graph of ta_e2e_graph.h, or (@big) a chain of 600 tensors. */
struct ta_plan_create graph_request(bool big);
struct ta_plan_create lifetime_request(void);
/* Touch what the calls write, now rather than under injection. */
void prefault(void);
/* A plan of the graph, made outside injection; 0 or -errno. */
int make_plan(int ta, __u32 *id, __u64 *height);
void destroy_plan(int ta, __u32 id);

/* ---- netlink: raw requests on one socket ----------------------------- */

struct nl_result {
	int err;		/* 0, the error message's, or recv()'s */
	bool reply;		/* a message of the family arrived */
	__u32 plan_id;
	int fd;
	char extack[128];
};

/* A socket of the family (resolved into nl_family): the fd or -errno. */
int nl_setup(void);
/* A request of @cmd; without NLM_F_ACK, so success is the reply alone. */
struct nl_msg *nl_request(uint8_t cmd);
/* A create of the graph, or of its lifetime form. */
struct nl_msg *nl_create_msg(bool lifetimes);
struct nl_msg *nl_id_msg(uint8_t cmd, __u32 id);
/* Send the prepared request; the result is all queued when send returns. */
int nl_send_raw(int nl, struct nl_msg *m);
/* Everything queued on the socket (nothing blocks: see nl_send_raw()). */
void nl_collect(int nl, struct nl_result *r);

#endif /* TA_E2E_FAULT_H */
