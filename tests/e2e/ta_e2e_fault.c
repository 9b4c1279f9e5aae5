// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault - the fault-injection sweep of issue #9 (evidence item 1),
 * run in the debug VM as root (FAILSLAB, FAIL_PAGE_ALLOC,
 * FAULT_INJECTION_DEBUG_FS).
 *
 *   ta_e2e_fault                  tensorarena and ta_npu_sim loaded: sweep
 *                                 every call kind
 *   ta_e2e_fault --insmod KO ARGS tensorarena not loaded: load KO with ARGS
 *                                 under fault injection while another
 *                                 process keeps opening and mapping the
 *                                 device; leaves the module unloaded
 *   --stride N (first)            insmod: every N-th allocation of the
 *                                 loader's (default 10; see run_insmod())
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
 * One line per kind: "e2e: ok - fault: NAME: N points" or
 * "e2e: not ok - fault: NAME: WHY", and a total.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/tensorarena.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "ta_npu_sim.h"
#include "ta_e2e_drm.h"
#include "ta_e2e_report.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* A sweep that has not ended by then is reported as not converging. */
#define MAX_N		20000
#define MAX_IDS		256

static int ta_fd = -1, npu_fd = -1, nth_fd = -1;
static long page_size;

/* ---- fail-nth ------------------------------------------------------ */

static void arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth_fd, buf, len, 0) != len) {
		perror("ta_e2e_fault: write fail-nth");
		exit(1);
	}
}

/* Disarm; true when the armed fault fired. */
static bool disarm(void)
{
	char buf[16] = "";
	bool fired;

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("ta_e2e_fault: read fail-nth");
		exit(1);
	}
	fired = strtoul(buf, NULL, 10) == 0;
	if (pwrite(nth_fd, "0", 1, 0) != 1) {
		perror("ta_e2e_fault: clear fail-nth");
		exit(1);
	}
	return fired;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

static int read_file(const char *path, char *buf, size_t size)
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

static int fi_configure(bool restore)
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
			report(false, "fault: configure %s: %s", path,
			       strerror(-err));
			return err;
		}
	}
	return 0;
}

static int open_fail_nth(void)
{
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		report(false, "fault: /proc/thread-self/fail-nth: %s",
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the state a failed call must leave unchanged ------------------ */

struct snap {
	__u32 n_plans;
	__u64 bytes_in_use;
	unsigned int n_ids;
	__u32 ids[MAX_IDS];
	long refcnt;		/* /sys/module/tensorarena/refcnt */
	uint64_t fds;		/* this process's open descriptors 0..63 */
};

static int ta_ioctl(unsigned long cmd, void *arg)
{
	return ioctl(ta_fd, cmd, arg) < 0 ? -errno : 0;
}

static void snapshot(struct snap *s)
{
	struct ta_plan_get g;
	struct ta_info info;
	char buf[32];
	int fd;

	memset(s, 0, sizeof(*s));
	s->refcnt = -1;
	if (!read_file("/sys/module/tensorarena/refcnt", buf, sizeof(buf)))
		s->refcnt = strtol(buf, NULL, 10);
	for (fd = 0; fd < 64; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			s->fds |= 1ULL << fd;
	memset(&info, 0, sizeof(info));
	if (ta_ioctl(TA_IOCTL_INFO, &info)) {
		s->n_plans = ~0U;
		return;
	}
	s->n_plans = info.n_plans;
	s->bytes_in_use = info.bytes_in_use;
	memset(&g, 0, sizeof(g));
	for (;;) {
		g.flags = TA_GET_NEXT;
		g.placements = 0;
		g.n_placements = 0;
		memset(g.reserved, 0, sizeof(g.reserved));
		if (ta_ioctl(TA_IOCTL_PLAN_GET, &g))
			break;
		if (s->n_ids < MAX_IDS)
			s->ids[s->n_ids] = g.plan_id;
		s->n_ids++;
	}
}

/* "" when equal, else what differs. */
static const char *snap_diff(const struct snap *a, const struct snap *b)
{
	static char why[160];

	if (a->n_plans != b->n_plans)
		snprintf(why, sizeof(why), "n_plans %u -> %u", a->n_plans,
			 b->n_plans);
	else if (a->bytes_in_use != b->bytes_in_use)
		snprintf(why, sizeof(why), "bytes_in_use %llu -> %llu",
			 (unsigned long long)a->bytes_in_use,
			 (unsigned long long)b->bytes_in_use);
	else if (a->n_ids != b->n_ids ||
		 memcmp(a->ids, b->ids, sizeof(a->ids[0]) *
			(a->n_ids < MAX_IDS ? a->n_ids : MAX_IDS)))
		snprintf(why, sizeof(why), "plan list changed (%u -> %u plans)",
			 a->n_ids, b->n_ids);
	else if (a->refcnt != b->refcnt)
		snprintf(why, sizeof(why), "module refcnt %ld -> %ld",
			 a->refcnt, b->refcnt);
	else if (a->fds != b->fds)
		snprintf(why, sizeof(why), "open fds %#llx -> %#llx",
			 (unsigned long long)a->fds,
			 (unsigned long long)b->fds);
	else
		why[0] = 0;
	return why;
}

static bool has_id(const struct snap *s, __u32 id)
{
	unsigned int i;

	for (i = 0; i < s->n_ids && i < MAX_IDS; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

/* ---- the graph every kind uses ------------------------------------- */

/* A skip connection and a constant (ta_e2e_graph.h). */
#include "ta_e2e_graph.h"

static struct ta_lifetime g_life[] = {
	{ .size = 4096, .align = 64, .start = 0, .end = 2 },
	{ .size = 8192, .align = 64, .start = 1, .end = 3 },
	{ .size = 1000, .align = 16, .start = 2, .end = 4 },
	{ .size = 3000, .align = 64, .start = 0, .end = 4 },
};
#define G_LIFE (sizeof(g_life) / sizeof(g_life[0]))

/*
 * A chain of BIG_TENSORS tensors: the module's per-tensor arrays (the
 * copied-in request, the plan with its placements, the planner's arrays)
 * are more than a page, so kvmalloc() falls back to vmalloc() and its
 * failures are swept too.
 */
#define BIG_TENSORS	600
static struct ta_tensor big_tensors[BIG_TENSORS];
static struct ta_op big_ops[BIG_TENSORS - 1];
static __u32 big_refs[2 * (BIG_TENSORS - 1)];

static void big_graph_init(void)
{
	unsigned int i;

	for (i = 0; i < BIG_TENSORS; i++) {
		big_tensors[i].size = 64 + 64 * (i % 7);
		big_tensors[i].align = 64;
		big_tensors[i].flags = i == 0 ? TA_TENSOR_INPUT :
				       i == BIG_TENSORS - 1 ? TA_TENSOR_OUTPUT : 0;
	}
	for (i = 0; i + 1 < BIG_TENSORS; i++) {
		big_ops[i].first_ref = 2 * i;
		big_ops[i].n_inputs = 1;
		big_ops[i].n_outputs = 1;
		big_refs[2 * i] = i;
		big_refs[2 * i + 1] = i + 1;
	}
}

static struct ta_plan_create graph_request(bool big)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_AUTO);

	if (big) {
		c.strategy = TA_STRATEGY_GREEDY_SIZE;
		c.tensors = (uintptr_t)big_tensors;
		c.n_tensors = BIG_TENSORS;
		c.ops = (uintptr_t)big_ops;
		c.n_ops = BIG_TENSORS - 1;
		c.refs = (uintptr_t)big_refs;
		c.n_refs = 2 * (BIG_TENSORS - 1);
	}
	return c;
}

static struct ta_plan_create lifetime_request(void)
{
	struct ta_plan_create c;

	memset(&c, 0, sizeof(c));
	c.flags = TA_CREATE_LIFETIMES;
	c.strategy = TA_STRATEGY_AUTO;
	c.tensors = (uintptr_t)g_life;
	c.n_tensors = G_LIFE;
	c.tensor_size = sizeof(struct ta_lifetime);
	return c;
}

/* A plan for the kinds that need one (made outside injection). */
static int make_plan(__u32 *id, __u64 *height)
{
	struct ta_plan_create c = graph_request(false);
	int err = ta_ioctl(TA_IOCTL_PLAN_CREATE, &c);

	*id = c.plan_id;
	if (height)
		*height = c.height;
	return err;
}

static void destroy_plan(__u32 id)
{
	struct ta_plan_destroy d;

	memset(&d, 0, sizeof(d));
	d.plan_id = id;
	ta_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
}

/* ---- netlink: raw requests on one socket --------------------------- */

static int nl_fd = -1, nl_family;
static uint32_t nl_seq = 1;
static char nl_rx[65536];

struct nl_result {
	int err;		/* 0, the error message's, or recv()'s */
	bool reply;		/* a message of the family arrived */
	__u32 plan_id;
	int fd;
	char extack[128];
};

static int nl_setup(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	if (!sk || genl_connect(sk) < 0)
		return -ENOTCONN;
	nl_family = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	nl_socket_free(sk);
	if (nl_family < 0)
		return nl_family;
	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl_fd < 0 || bind(nl_fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	setsockopt(nl_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	memset(nl_rx, 0, sizeof(nl_rx));
	return 0;
}

/* A request of @cmd; without NLM_F_ACK, so success is the reply alone. */
static struct nl_msg *nl_request(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc_size(1 << 16);

	genlmsg_put(m, 0, nl_seq++, nl_family, 0, 0, cmd,
		    TA_NL_FAMILY_VERSION);
	nlmsg_hdr(m)->nlmsg_flags = NLM_F_REQUEST;
	return m;
}

static struct nlattr *nest(struct nl_msg *m, int type)
{
	return nla_nest_start(m, type | NLA_F_NESTED);
}

static struct nl_msg *nl_create_msg(bool lifetimes)
{
	struct nl_msg *m = nl_request(TA_NL_CMD_PLAN_CREATE);
	unsigned int i, k;
	struct nlattr *n;

	nla_put_u32(m, TA_NL_A_PLAN_FLAGS, lifetimes ? TA_CREATE_LIFETIMES : 0);
	nla_put_u32(m, TA_NL_A_PLAN_STRATEGY, TA_STRATEGY_AUTO);
	if (lifetimes) {
		for (i = 0; i < G_LIFE; i++) {
			n = nest(m, TA_NL_A_PLAN_BUFFER);
			nla_put_u64(m, TA_NL_A_BUFFER_SIZE, g_life[i].size);
			nla_put_u64(m, TA_NL_A_BUFFER_ALIGN, g_life[i].align);
			nla_put_u32(m, TA_NL_A_BUFFER_START, g_life[i].start);
			nla_put_u32(m, TA_NL_A_BUFFER_END, g_life[i].end);
			nla_nest_end(m, n);
		}
		return m;
	}
	for (i = 0; i < G_TENSORS; i++) {
		n = nest(m, TA_NL_A_PLAN_TENSOR);
		nla_put_u64(m, TA_NL_A_TENSOR_SIZE, g_tensors[i].size);
		nla_put_u64(m, TA_NL_A_TENSOR_ALIGN, g_tensors[i].align);
		if (g_tensors[i].flags)
			nla_put_u32(m, TA_NL_A_TENSOR_FLAGS, g_tensors[i].flags);
		nla_nest_end(m, n);
	}
	for (i = 0; i < G_OPS; i++) {
		const struct ta_op *op = &g_ops[i];

		n = nest(m, TA_NL_A_PLAN_OP);
		for (k = 0; k < op->n_inputs; k++)
			nla_put_u32(m, TA_NL_A_OP_INPUT, g_refs[op->first_ref + k]);
		for (k = 0; k < op->n_outputs; k++)
			nla_put_u32(m, TA_NL_A_OP_OUTPUT,
				    g_refs[op->first_ref + op->n_inputs + k]);
		nla_nest_end(m, n);
	}
	return m;
}

static struct nl_msg *nl_id_msg(uint8_t cmd, __u32 id)
{
	struct nl_msg *m = nl_request(cmd);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, id);
	return m;
}

/* Send the prepared request; the result is all queued when send returns. */
static int nl_send_raw(struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	return send(nl_fd, h, h->nlmsg_len, 0) < 0 ? -errno : 0;
}

static void nl_parse_error(struct nlmsghdr *h, struct nl_result *r)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = sizeof(*e);
	struct nlattr *a;
	int rem;

	r->err = e->error;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || NLMSG_HDRLEN + off >= h->nlmsg_len)
		return;
	rem = h->nlmsg_len - NLMSG_HDRLEN - off;
	nla_for_each_attr(a, (struct nlattr *)((char *)e + off), rem, rem)
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(r->extack, sizeof(r->extack), "%s",
				 (char *)nla_data(a));
}

/* Everything queued on the socket (nothing blocks: see nl_send_raw()). */
static void nl_collect(struct nl_result *r)
{
	struct nlattr *tb[TA_NL_A_PLAN_MAX + 1];
	struct nlmsghdr *h;
	ssize_t len;
	int rem;

	for (;;) {
		len = recv(nl_fd, nl_rx, sizeof(nl_rx), MSG_DONTWAIT);
		if (len < 0) {
			if (errno != EAGAIN && !r->err)
				r->err = -errno;
			if (errno == EAGAIN)
				return;
			continue;
		}
		rem = len;
		for (h = (struct nlmsghdr *)nl_rx; NLMSG_OK(h, rem);
		     h = NLMSG_NEXT(h, rem)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				nl_parse_error(h, r);
				continue;
			}
			if (h->nlmsg_type != nl_family)
				continue;
			r->reply = true;
			if (nlmsg_parse(h, GENL_HDRLEN, tb, TA_NL_A_PLAN_MAX,
					NULL))
				continue;
			if (tb[TA_NL_A_PLAN_PLAN_ID])
				r->plan_id = nla_get_u32(tb[TA_NL_A_PLAN_PLAN_ID]);
			if (tb[TA_NL_A_PLAN_FD])
				r->fd = nla_get_u32(tb[TA_NL_A_PLAN_FD]);
		}
	}
}

/* ---- the call kinds ------------------------------------------------- */

struct ctx {
	__u32 plan_id;		/* prepared plan, or the one a create made */
	__u64 height;
	int dmabuf;		/* prepared dma-buf, or an exported one */
	void *map;
	struct ta_plan_create create;
	struct nl_msg *msg;
	struct nl_result nl;
	struct ta_placement pl[G_TENSORS];
	struct drm_ta_npu_submit job;
	uint32_t handle;	/* the plan imported into the NPU, or 0 */
};

struct kind {
	const char *name;
	bool netlink;		/* ENOBUFS is an out-of-memory error too */
	bool needs_npu;
	int (*prepare)(struct ctx *c);
	int (*call)(struct ctx *c);
	/* after a success: "" when it did what it does, else what not */
	const char *(*check)(struct ctx *c, const struct snap *pre,
			     const struct snap *post);
	void (*cleanup)(struct ctx *c, int err);
	/*
	 * The injection points the sweep must reach (about a third of what
	 * the 6.1 and 7.2 debug kernels gave), so that a sweep in which
	 * injection never fires fails; 0 for a call that allocates nothing
	 * of its own, where N=1 must not fire.
	 */
	unsigned int min_points;
};

static char why_buf[160];

static const char *check_created(struct ctx *c, const struct snap *pre,
				 const struct snap *post)
{
	if (!c->plan_id || post->n_plans != pre->n_plans + 1 ||
	    !has_id(post, c->plan_id) || post->bytes_in_use <= pre->bytes_in_use) {
		snprintf(why_buf, sizeof(why_buf),
			 "create succeeded (id %u) but n_plans %u -> %u, in use %llu -> %llu",
			 c->plan_id, pre->n_plans, post->n_plans,
			 (unsigned long long)pre->bytes_in_use,
			 (unsigned long long)post->bytes_in_use);
		return why_buf;
	}
	return "";
}

static const char *check_unchanged(struct ctx *c, const struct snap *pre,
				   const struct snap *post)
{
	(void)c;
	return snap_diff(pre, post);
}

static void cleanup_plan(struct ctx *c, int err)
{
	(void)err;
	if (c->plan_id)
		destroy_plan(c->plan_id);
}

/* create, ioctl */
static int prep_create_graph(struct ctx *c)
{
	c->create = graph_request(false);
	return 0;
}

static int prep_create_big(struct ctx *c)
{
	c->create = graph_request(true);
	return 0;
}

static int prep_create_life(struct ctx *c)
{
	c->create = lifetime_request();
	return 0;
}

static int call_create(struct ctx *c)
{
	int err = ta_ioctl(TA_IOCTL_PLAN_CREATE, &c->create);

	c->plan_id = err ? 0 : c->create.plan_id;
	return err;
}

/* create, netlink */
static int prep_nl_create_graph(struct ctx *c)
{
	c->msg = nl_create_msg(false);
	return 0;
}

static int prep_nl_create_life(struct ctx *c)
{
	c->msg = nl_create_msg(true);
	return 0;
}

/* A do that succeeded is its reply; a failed one is its error (or none). */
static int call_nl(struct ctx *c)
{
	int err = nl_send_raw(c->msg);

	c->nl.fd = -1;
	if (err)
		return err;
	nl_collect(&c->nl);
	if (c->nl.reply && !c->nl.err)
		return 0;
	return c->nl.err ? c->nl.err : -ENODATA;
}

static int call_nl_create(struct ctx *c)
{
	int err = call_nl(c);

	c->plan_id = c->nl.reply ? c->nl.plan_id : 0;
	return err;
}

static void cleanup_nl(struct ctx *c, int err)
{
	(void)err;
	nlmsg_free(c->msg);
	/* A reply whose error message got lost would still hold a plan. */
	if (c->nl.reply && c->nl.plan_id && !c->plan_id)
		c->plan_id = c->nl.plan_id;
	if (c->nl.fd >= 0)
		close(c->nl.fd);
	cleanup_plan(c, err);
}

/* get */
static int prep_plan(struct ctx *c)
{
	return make_plan(&c->plan_id, &c->height);
}

static int call_get(struct ctx *c)
{
	struct ta_plan_get g;
	int err;

	memset(&g, 0, sizeof(g));
	g.plan_id = c->plan_id;
	g.placements = (uintptr_t)c->pl;
	g.n_placements = G_TENSORS;
	g.placement_size = sizeof(c->pl[0]);
	err = ta_ioctl(TA_IOCTL_PLAN_GET, &g);
	if (!err && (g.n_placements != G_TENSORS || g.height != c->height))
		return -EPROTO;
	return err;
}

static int prep_nl_get(struct ctx *c)
{
	int err = prep_plan(c);

	c->msg = nl_id_msg(TA_NL_CMD_PLAN_GET, c->plan_id);
	return err;
}

/* destroy */
static int call_destroy(struct ctx *c)
{
	struct ta_plan_destroy d;

	memset(&d, 0, sizeof(d));
	d.plan_id = c->plan_id;
	return ta_ioctl(TA_IOCTL_PLAN_DESTROY, &d);
}

static const char *check_destroyed(struct ctx *c, const struct snap *pre,
				   const struct snap *post)
{
	if (post->n_plans + 1 != pre->n_plans || has_id(post, c->plan_id)) {
		snprintf(why_buf, sizeof(why_buf),
			 "destroy succeeded but n_plans %u -> %u", pre->n_plans,
			 post->n_plans);
		return why_buf;
	}
	return "";
}

static void cleanup_destroy(struct ctx *c, int err)
{
	if (err)
		destroy_plan(c->plan_id);
}

static int prep_nl_destroy(struct ctx *c)
{
	int err = prep_plan(c);

	c->msg = nl_id_msg(TA_NL_CMD_PLAN_DESTROY, c->plan_id);
	return err;
}

/* A destroy do has no reply: success is the absence of an error. */
static int call_nl_destroy(struct ctx *c)
{
	int err = nl_send_raw(c->msg);

	if (err)
		return err;
	nl_collect(&c->nl);
	return c->nl.err;
}

static void cleanup_nl_destroy(struct ctx *c, int err)
{
	nlmsg_free(c->msg);
	cleanup_destroy(c, err);
}

/* export */
static int call_export(struct ctx *c)
{
	struct ta_plan_export e;
	int err;

	memset(&e, 0, sizeof(e));
	e.plan_id = c->plan_id;
	e.flags = TA_EXPORT_CLOEXEC;
	err = ta_ioctl(TA_IOCTL_PLAN_EXPORT, &e);
	c->dmabuf = err ? -1 : e.fd;
	return err;
}

static const char *check_exported(struct ctx *c, const struct snap *pre,
				  const struct snap *post)
{
	int fd = c->dmabuf >= 0 ? c->dmabuf : c->nl.fd;

	if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
		snprintf(why_buf, sizeof(why_buf),
			 "export succeeded but fd %d is not open", fd);
		return why_buf;
	}
	if (post->n_plans != pre->n_plans || post->bytes_in_use != pre->bytes_in_use) {
		snprintf(why_buf, sizeof(why_buf),
			 "export changed the plans: %s", snap_diff(pre, post));
		return why_buf;
	}
	return "";
}

static void cleanup_export(struct ctx *c, int err)
{
	if (c->dmabuf >= 0)
		close(c->dmabuf);
	cleanup_plan(c, err);
}

static int prep_nl_export(struct ctx *c)
{
	int err = prep_plan(c);

	c->dmabuf = -1;
	c->msg = nl_request(TA_NL_CMD_PLAN_EXPORT);
	nla_put_u32(c->msg, TA_NL_A_PLAN_PLAN_ID, c->plan_id);
	nla_put_u32(c->msg, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return err;
}

/* mmap */
static int call_mmap(struct ctx *c)
{
	c->map = mmap(NULL, c->height, PROT_READ | PROT_WRITE, MAP_SHARED,
		      ta_fd, (off_t)c->plan_id * page_size);
	return c->map == MAP_FAILED ? -errno : 0;
}

static const char *check_mapped(struct ctx *c, const struct snap *pre,
				const struct snap *post)
{
	volatile unsigned char *p = c->map;

	p[0] = 0x5a;
	p[c->height - 1] = 0xa5;
	return snap_diff(pre, post);
}

static void cleanup_mmap(struct ctx *c, int err)
{
	if (!err)
		munmap(c->map, c->height);
	cleanup_plan(c, err);
}

/* the kernel API and PRIME, through the reference NPU driver */
static void job_init(struct drm_ta_npu_submit *job)
{
	memset(job, 0, sizeof(*job));
	job->flags = TA_NPU_SUBMIT_WAIT;
	job->n_tensors = G_TENSORS;
	job->key = 0x7e57a12e4aULL;
	job->ops = (uintptr_t)g_ops;
	job->n_ops = G_OPS;
	job->op_size = sizeof(struct ta_op);
	job->refs = (uintptr_t)g_refs;
	job->n_refs = G_REFS;
}

static int prep_npu_id(struct ctx *c)
{
	int err = prep_plan(c);

	job_init(&c->job);
	c->job.flags |= TA_NPU_SUBMIT_PLAN_ID;
	c->job.plan_id = c->plan_id;
	return err;
}

static int prep_npu_dmabuf(struct ctx *c)
{
	int err = prep_plan(c);

	c->handle = 0;
	if (!err)
		err = call_export(c);
	job_init(&c->job);
	return err;
}

static int call_npu(struct ctx *c)
{
	int err = ioctl(npu_fd, DRM_IOCTL_TA_NPU_SUBMIT, &c->job) < 0 ?
		  -errno : 0;

	if (!err && (c->job.bytes_read == 0 || c->job.bytes_written == 0))
		return -EPROTO;
	return err;
}

/* PRIME import of the plan's dma-buf, then a job on the handle. */
static int call_npu_dmabuf(struct ctx *c)
{
	int err = drm_prime_import(npu_fd, c->dmabuf, &c->handle);

	if (err)
		return err;
	c->job.plan_handle = c->handle;
	return call_npu(c);
}

static void cleanup_npu_dmabuf(struct ctx *c, int err)
{
	if (c->handle)
		drm_gem_close_handle(npu_fd, c->handle);
	c->handle = 0;
	cleanup_export(c, err);
}

static const struct kind kinds[] = {
	{ "create ioctl graph", false, false, prep_create_graph, call_create,
	  check_created, cleanup_plan,
	  .min_points = 50 },
	{ "create ioctl lifetimes", false, false, prep_create_life, call_create,
	  check_created, cleanup_plan,
	  .min_points = 15 },
	{ "create ioctl graph of 600 tensors (vmalloc-sized arrays)", false,
	  false, prep_create_big, call_create, check_created, cleanup_plan,
	  .min_points = 20 },
	{ "create netlink graph", true, false, prep_nl_create_graph,
	  call_nl_create, check_created, cleanup_nl,
	  .min_points = 50 },
	{ "create netlink lifetimes", true, false, prep_nl_create_life,
	  call_nl_create, check_created, cleanup_nl,
	  .min_points = 20 },
	{ "get ioctl", false, false, prep_plan, call_get, check_unchanged,
	  cleanup_plan, .min_points = 0 },
	{ "get netlink", true, false, prep_nl_get, call_nl, check_unchanged,
	  cleanup_nl,
	  .min_points = 4 },
	{ "destroy ioctl", false, false, prep_plan, call_destroy,
	  check_destroyed, cleanup_destroy, .min_points = 0 },
	{ "destroy netlink", true, false, prep_nl_destroy, call_nl_destroy,
	  check_destroyed, cleanup_nl_destroy,
	  .min_points = 2 },
	{ "export ioctl", false, false, prep_plan, call_export, check_exported,
	  cleanup_export,
	  .min_points = 3 },
	{ "export netlink", true, false, prep_nl_export, call_nl,
	  check_exported, cleanup_nl,
	  .min_points = 7 },
	{ "mmap", false, false, prep_plan, call_mmap, check_mapped,
	  cleanup_mmap,
	  .min_points = 5 },
	{ "kernel API: NPU job by plan ID", false, true, prep_npu_id, call_npu,
	  check_unchanged, cleanup_plan,
	  .min_points = 10 },
	{ "PRIME import and NPU job on the handle", false, true,
	  prep_npu_dmabuf, call_npu_dmabuf, check_unchanged,
	  cleanup_npu_dmabuf,
	  .min_points = 9 },
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

struct tally {
	unsigned int points;	/* N at which the fault fired */
	unsigned int failed;	/* ... and the call failed */
	unsigned int survived;	/* ... and the call succeeded anyway */
	double secs;
};

static bool errno_ok(const struct kind *k, int err)
{
	return err == -ENOMEM || (k->netlink && err == -ENOBUFS);
}

static const char *kmsg_check(void);

/* Sweep one kind; true when every N behaved. */
static bool sweep(const struct kind *k, struct tally *t)
{
	struct snap base, pre, post, after;
	char why[320] = "", warn[320] = "";
	unsigned int n;
	double t0 = now_s();

	memset(t, 0, sizeof(*t));
	snapshot(&base);
	for (n = 1; n <= MAX_N && !why[0]; n++) {
		struct ctx c;
		const char *d;
		bool fired;
		int err;

		if (n % 250 == 0)
			printf("fault: %s: N=%u, %.0f s\n", k->name, n,
			       now_s() - t0);
		memset(&c, 0, sizeof(c));
		c.dmabuf = -1;
		c.nl.fd = -1;
		if (k->prepare(&c)) {
			snprintf(why, sizeof(why), "N=%u: setting up failed", n);
			k->cleanup(&c, -1);
			break;
		}
		snapshot(&pre);
		arm(n);
		err = k->call(&c);
		fired = disarm();
		snapshot(&post);

		if (fired) {
			t->points++;
			if (err)
				t->failed++;
			else
				t->survived++;
		}
		if (err && !fired)
			snprintf(why, sizeof(why),
				 "N=%u: failed without an injected fault: %s%s%s",
				 n, strerror(-err), c.nl.extack[0] ? ": " : "",
				 c.nl.extack);
		else if (err && !errno_ok(k, err))
			snprintf(why, sizeof(why),
				 "N=%u: failed with %s (%d)%s%s, not ENOMEM", n,
				 strerror(-err), err, c.nl.extack[0] ? ": " : "",
				 c.nl.extack);
		else if (err && (d = snap_diff(&pre, &post))[0])
			snprintf(why, sizeof(why),
				 "N=%u: failed with %s but changed the state: %s",
				 n, strerror(-err), d);
		else if (!err && (d = k->check(&c, &pre, &post))[0])
			snprintf(why, sizeof(why), "N=%u: %s%s", n, d,
				 fired ? " (the fault fired)" : "");
		k->cleanup(&c, err);
		snapshot(&after);
		if (!why[0] && (d = snap_diff(&base, &after))[0])
			snprintf(why, sizeof(why),
				 "N=%u (%s): not back to the start after clean-up: %s",
				 n, err ? strerror(-err) : "succeeded", d);
		/* A warning is reported, but the sweep goes on. */
		d = kmsg_check();
		if (!warn[0] && d[0])
			snprintf(warn, sizeof(warn), "N=%u (%s): %s", n,
				 err ? strerror(-err) : "succeeded", d);
		if (!err && !fired)
			break;
	}
	if (!why[0] && n > MAX_N)
		snprintf(why, sizeof(why), "still failing at N=%u", MAX_N);
	t->secs = now_s() - t0;
	if (!why[0] && t->points < k->min_points)
		snprintf(why, sizeof(why),
			 "%u injection points, fewer than the %u it must reach (is fault injection working?)",
			 t->points, k->min_points);
	if (!why[0] && !k->min_points && t->points)
		snprintf(why, sizeof(why),
			 "%u injection points in a call that allocates nothing of its own",
			 t->points);
	if (why[0])
		report(false, "fault: %s: %s", k->name, why);
	else if (!k->min_points)
		report(true, "fault: %s: allocates nothing of its own (N=1 did not fire), %.1f s",
		       k->name, t->secs);
	else if (warn[0])
		report(false, "fault: %s: %u points, but %s", k->name,
		       t->points, warn);
	else
		report(true, "fault: %s: %u points (%u failed cleanly, %u absorbed), %.1f s",
		       k->name, t->points, t->failed, t->survived, t->secs);
	return !why[0] && !warn[0];
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
static unsigned int core_warnings, untrack_pfn_warnings;
static char core_sites[512];

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

static int kmsg_begin(void)
{
	char buf[64];

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0 || lseek(kmsg_fd, 0, SEEK_END) < 0 ||
	    read_file("/proc/sys/kernel/printk", buf, sizeof(buf))) {
		report(false, "fault: /dev/kmsg: %s", strerror(errno));
		return -1;
	}
	snprintf(saved_loglevel, sizeof(saved_loglevel), "%d", atoi(buf));
	atexit(console_restore);
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGINT, on_fatal);
	return write_file("/proc/sys/kernel/printk", "1");
}

static void kmsg_end(void)
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

/*
 * Check what the kernel logged during one N: "" when nothing but core
 * allocation-failure warnings, else what (the records are printed).
 */
static const char *kmsg_check(void)
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

/* Reports kmemleak has now ("unreferenced object" lines), -1 without it. */
static int kmemleak_count(bool print)
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

/* ---- the sweep of the calls ----------------------------------------- */

static void prefault(void)
{
	/* Buffers the calls write are touched now, not under injection. */
	memset(nl_rx, 0, sizeof(nl_rx));
	big_graph_init();
}

static bool with_kmemleak;

static int run_calls(void)
{
	struct tally t[N_KINDS];
	unsigned int i, total = 0, total_failed = 0;
	int leaks0, leaks1;
	bool all = true;

	page_size = sysconf(_SC_PAGESIZE);
	ta_fd = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
	if (ta_fd < 0) {
		report(false, "fault: open /dev/tensorarena: %s", strerror(errno));
		return 1;
	}
	npu_fd = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	if (nl_setup()) {
		report(false, "fault: netlink socket for the tensorarena family");
		return 1;
	}
	prefault();
	{
		/*
		 * The socket's owner record is made by its first create and
		 * kept until it closes: make it now, so every N of the
		 * netlink sweeps meets the same allocations.
		 */
		struct ctx c;

		memset(&c, 0, sizeof(c));
		c.nl.fd = -1;
		c.msg = nl_create_msg(true);
		if (call_nl_create(&c))
			report(false, "fault: a netlink create without injection: %s",
			       strerror(-c.nl.err));
		cleanup_nl(&c, 0);
	}
	leaks0 = with_kmemleak ? kmemleak_count(false) : -1;
	if (fi_configure(false) || open_fail_nth() || kmsg_begin())
		return 1;

	for (i = 0; i < N_KINDS; i++) {
		if (kinds[i].needs_npu && npu_fd < 0) {
			report(false, "fault: %s: the %s DRM device: %s",
			       kinds[i].name, TA_NPU_DRIVER_NAME,
			       strerror(ENOENT));
			all = false;
			memset(&t[i], 0, sizeof(t[i]));
			continue;
		}
		all &= sweep(&kinds[i], &t[i]);
		total += t[i].points;
		total_failed += t[i].failed;
	}
	fi_configure(true);
	kmsg_end();
	if (core_warnings)
		printf("fault-injection sweep: %u allocation-failure warnings of the core kernel (%s)\n",
		       core_warnings, core_sites);
	if (untrack_pfn_warnings)
		printf("fault-injection sweep: the core kernel's untrack_pfn() warned %u time(s) on remap_pfn_range()'s error path (a failed page-table allocation under dma_mmap_coherent()); not printed\n",
		       untrack_pfn_warnings);

	printf("fault-injection sweep: points per call kind (N at which the allocation failed)\n");
	for (i = 0; i < N_KINDS; i++)
		printf("  %-58s %5u  (%u failed, %u absorbed, %.1f s)\n",
		       kinds[i].name, t[i].points, t[i].failed, t[i].survived,
		       t[i].secs);
	printf("  %-58s %5u\n", "total", total);
	report(all, "fault: injection sweep: %u points covered over %u call kinds, %u failed calls, each clean",
	       total, (unsigned int)N_KINDS, total_failed);

	close(nl_fd);
	if (npu_fd >= 0)
		close(npu_fd);
	close(ta_fd);

	/* kmemleak only reports objects older than 5 s. */
	if (leaks0 >= 0) {
		sleep(6);
		leaks1 = kmemleak_count(false);
		if (leaks1 > leaks0)
			kmemleak_count(true);
		report(leaks1 <= leaks0,
		       "fault: kmemleak finds nothing new after the sweep (%d before, %d after)",
		       leaks0, leaks1);
	}
	return failures ? 1 : 0;
}

/* ---- insmod under fault injection ------------------------------------ */

struct hammer {
	volatile int stop, pause, paused;
	volatile unsigned long opens, creates, maps, nl_creates, nl_held;
};

/*
 * A plan over netlink on a new socket, kept open until the next socket has
 * its plan: a socket holds no module reference, so unloads, and the unwind
 * of a load that fails after the family is registered, meet plans that
 * netlink sockets own (issue 25: their owner records were freed first).
 * Returns whether the socket now open owns a plan.
 */
static bool hammer_netlink(struct hammer *h)
{
	struct nl_result r = { .fd = -1 };
	int old = nl_fd;
	struct nl_msg *m;

	nl_fd = -1;
	if (nl_setup()) {
		if (nl_fd >= 0)
			close(nl_fd);
		nl_fd = old;
		return false;
	}
	m = nl_create_msg(false);
	if (!nl_send_raw(m))
		nl_collect(&r);
	nlmsg_free(m);
	if (!r.reply || r.err || !r.plan_id) {
		close(nl_fd);
		nl_fd = old;
		return false;
	}
	h->nl_creates++;
	if (old >= 0)
		close(old);
	return true;
}

/*
 * Keep opening, planning on and mapping the device, and planning over
 * netlink, whatever fails.
 */
static void hammer(struct hammer *h)
{
	struct ta_plan_create c;
	struct ta_info info;
	bool nl_owns = false;
	void *map;
	int fd;

	while (!h->stop) {
		if (h->pause) {
			/* The unload to come meets the socket's plan. */
			if (nl_owns)
				h->nl_held++;
			nl_owns = false;
			h->paused = 1;
			while (h->pause && !h->stop)
				usleep(1000);
			h->paused = 0;
			continue;
		}
		fd = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			usleep(200);
			continue;
		}
		h->opens++;
		memset(&info, 0, sizeof(info));
		ioctl(fd, TA_IOCTL_INFO, &info);
		c = graph_request(false);
		if (!ioctl(fd, TA_IOCTL_PLAN_CREATE, &c)) {
			h->creates++;
			map = mmap(NULL, c.height, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, c.mmap_offset);
			if (map != MAP_FAILED) {
				h->maps++;
				((volatile char *)map)[0] = 1;
				munmap(map, c.height);
			}
		}
		close(fd);
		nl_owns = hammer_netlink(h) || nl_owns;
	}
	_exit(0);
}

static const char *leftovers(void)
{
	static const char *const paths[] = {
		"/dev/tensorarena", "/sys/module/tensorarena",
		"/sys/bus/platform/devices/tensorarena",
		"/sys/bus/platform/drivers/tensorarena",
		"/sys/kernel/debug/tensorarena",
	};
	unsigned int i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], F_OK))
			return paths[i];
	return NULL;
}

static int unload(struct hammer *h)
{
	int i, err = 0;

	h->pause = 1;
	while (!h->paused && !h->stop)
		usleep(1000);
	for (i = 0; i < 100; i++) {
		err = syscall(SYS_delete_module, "tensorarena", O_NONBLOCK) ?
		      -errno : 0;
		if (err != -EAGAIN && err != -EBUSY)
			break;
		usleep(20000);
	}
	h->pause = 0;
	return err;
}

/*
 * A load makes ~600 allocations, most of them the module loader's (the
 * file, sections, sysfs, kallsyms) before the module's init runs, and each
 * load takes about a second under TCG: the sweep tries every N of the last
 * @tail allocations (the module's init and its unwinding) and every
 * @stride-th N before them (--stride 1 for all).
 */
static unsigned int stride = 10, tail = 200;

static int run_insmod(const char *ko, const char *params)
{
	struct hammer *h;
	unsigned int n, points = 0, failed = 0, survived = 0, enomem = 0;
	unsigned int total = 0;
	int ko_fd, err, other_errno = 0, leaks0, leaks1, status;
	char why[256] = "", warn[256] = "";
	const char *left, *d;
	double t0 = now_s();
	bool fired;
	pid_t pid;

	ko_fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (ko_fd < 0) {
		report(false, "fault: insmod: %s: %s", ko, strerror(errno));
		return 1;
	}
	if ((left = leftovers())) {
		report(false, "fault: insmod: %s exists before the sweep", left);
		return 1;
	}
	leaks0 = with_kmemleak ? kmemleak_count(false) : -1;
	if (fi_configure(false) || open_fail_nth() || kmsg_begin())
		return 1;
	h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED)
		return 1;
	memset(h, 0, sizeof(*h));
	pid = fork();
	if (pid == 0)
		hammer(h);

	/* How many allocations one load makes: the sweep's length. */
	arm(1000000);
	err = syscall(SYS_finit_module, ko_fd, params, 0) ? -errno : 0;
	if (pread(nth_fd, why, sizeof(why) - 1, 0) > 0)
		total = 1000000 - strtoul(why, NULL, 10);
	disarm();
	printf("insmod under fault injection: one load makes %u allocations (%s), %.1f s; every %u%s below N=%u, every N above\n",
	       total, err ? strerror(-err) : "loaded", now_s() - t0, stride,
	       stride == 1 ? "" : "th", total > tail ? total - tail : 0);
	why[0] = 0;
	if (!err && unload(h))
		snprintf(why, sizeof(why), "rmmod after the first load failed");
	kmsg_check();

	for (n = 1; n <= MAX_N && !why[0]; n++) {
		if (n + tail <= total && (n - 1) % stride)
			continue;
		if (n % 50 == 0)
			printf("insmod under fault injection: N=%u, %.0f s\n", n,
			       now_s() - t0);
		arm(n);
		err = syscall(SYS_finit_module, ko_fd, params, 0) ? -errno : 0;
		fired = disarm();
		if (fired)
			points++;
		d = kmsg_check();
		if (d[0] && !warn[0])
			snprintf(warn, sizeof(warn), "N=%u (%s): %s", n,
				 err ? strerror(-err) : "loaded", d);
		if (err) {
			if (!fired) {
				snprintf(why, sizeof(why),
					 "N=%u: insmod failed without an injected fault: %s",
					 n, strerror(-err));
				break;
			}
			failed++;
			if (err == -ENOMEM)
				enomem++;
			else if (!other_errno)
				other_errno = err;
			if ((left = leftovers())) {
				snprintf(why, sizeof(why),
					 "N=%u: insmod failed (%s) but %s exists",
					 n, strerror(-err), left);
				break;
			}
			continue;
		}
		if (fired)
			survived++;
		err = unload(h);
		if (err) {
			snprintf(why, sizeof(why), "N=%u: rmmod: %s", n,
				 strerror(-err));
			break;
		}
		if ((left = leftovers())) {
			snprintf(why, sizeof(why), "N=%u: %s exists after rmmod",
				 n, left);
			break;
		}
		if (!fired)
			break;
	}
	if (!why[0] && n > MAX_N)
		snprintf(why, sizeof(why), "still failing at N=%u", MAX_N);
	/* Every N of the tail is tried: most of them must fire. */
	if (!why[0] && points < tail / 2)
		snprintf(why, sizeof(why),
			 "%u injection points, fewer than %u (is fault injection working?)",
			 points, tail / 2);
	h->stop = 1;
	waitpid(pid, &status, 0);
	fi_configure(true);
	if (leftovers())
		unload(h);
	d = kmsg_check();
	if (d[0] && !warn[0])
		snprintf(warn, sizeof(warn), "after the sweep: %s", d);
	kmsg_end();
	if (core_warnings)
		printf("insmod under fault injection: %u allocation-failure warnings of the core kernel (%s)\n",
		       core_warnings, core_sites);

	printf("insmod under fault injection: %u points (%u failed: %u ENOMEM%s%s; %u absorbed); the other process opened the device %lu times, created %lu plans, mapped %lu; %.1f s\n",
	       points, failed, enomem, other_errno ? ", first other errno " : "",
	       other_errno ? strerror(-other_errno) : "", survived, h->opens,
	       h->creates, h->maps, now_s() - t0);
	if (why[0])
		report(false, "fault: insmod under fault injection: %s", why);
	else if (warn[0])
		report(false, "fault: insmod under fault injection: %u points, but %s",
		       points, warn);
	else
		report(true, "fault: insmod under fault injection: %u points, every failed load left nothing behind",
		       points);
	report(h->opens > 0,
	       "fault: insmod under fault injection: the device was opened and used during the sweep (%lu opens, %lu maps)",
	       h->opens, h->maps);
	report(h->nl_held > 0,
	       "fault: insmod under fault injection: unloads met plans that netlink sockets owned (%lu unloads; %lu netlink plans made)",
	       h->nl_held, h->nl_creates);
	if (leaks0 >= 0) {
		sleep(6);
		leaks1 = kmemleak_count(false);
		if (leaks1 > leaks0)
			kmemleak_count(true);
		report(leaks1 <= leaks0,
		       "fault: kmemleak finds nothing new after the insmod sweep (%d before, %d after)",
		       leaks0, leaks1);
	}
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
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
	if (argc >= 3 && !strcmp(argv[1], "--insmod"))
		return run_insmod(argv[2], argc > 3 ? argv[3] : "");
	if (argc != 1) {
		fprintf(stderr, "usage: ta_e2e_fault [--kmemleak] [--stride N] [--tail N] [--insmod MODULE.ko [PARAMS]]\n");
		return 2;
	}
	return run_calls();
}
