// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_fault_state.c - for ta_e2e_fault: the state a failed call must
 * leave unchanged, the requests the calls make (the graph of
 * ta_e2e_graph.h, its lifetime form, a chain of 600 tensors) and raw
 * netlink requests on one socket (ta_e2e_fault.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "ta_e2e_fault.h"
/* A skip connection and a constant. */
#include "ta_e2e_graph.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* ---- the state a failed call must leave unchanged ------------------ */


int ta_ioctl(int ta, unsigned long cmd, void *arg)
{
	return ioctl(ta, cmd, arg) < 0 ? -errno : 0;
}

void snapshot(int ta, struct snap *s)
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
	if (ta_ioctl(ta, TA_IOCTL_INFO, &info)) {
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
		if (ta_ioctl(ta, TA_IOCTL_PLAN_GET, &g))
			break;
		if (s->n_ids < MAX_IDS)
			s->ids[s->n_ids] = g.plan_id;
		s->n_ids++;
	}
}

const char *snap_diff(const struct snap *a, const struct snap *b)
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

bool has_id(const struct snap *s, __u32 id)
{
	unsigned int i;

	for (i = 0; i < s->n_ids && i < MAX_IDS; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

/* ---- the requests ---------------------------------------------------- */

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

struct ta_plan_create graph_request(bool big)
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

struct ta_plan_create lifetime_request(void)
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

int make_plan(int ta, __u32 *id, __u64 *height)
{
	struct ta_plan_create c = graph_request(false);
	int err = ta_ioctl(ta, TA_IOCTL_PLAN_CREATE, &c);

	*id = c.plan_id;
	if (height)
		*height = c.height;
	return err;
}

void destroy_plan(int ta, __u32 id)
{
	struct ta_plan_destroy d;

	memset(&d, 0, sizeof(d));
	d.plan_id = id;
	ta_ioctl(ta, TA_IOCTL_PLAN_DESTROY, &d);
}

/* ---- netlink: raw requests on one socket --------------------------- */

static int nl_family;
static uint32_t nl_seq = 1;
static char nl_rx[65536];

int nl_setup(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, fd;

	if (!sk || genl_connect(sk) < 0)
		return -ENOTCONN;
	nl_family = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	nl_socket_free(sk);
	if (nl_family < 0)
		return nl_family;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -errno;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return fd;
}

struct nl_msg *nl_request(uint8_t cmd)
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

struct nl_msg *nl_create_msg(bool lifetimes)
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

struct nl_msg *nl_id_msg(uint8_t cmd, __u32 id)
{
	struct nl_msg *m = nl_request(cmd);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, id);
	return m;
}

int nl_send_raw(int nl, struct nl_msg *m)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	return send(nl, h, h->nlmsg_len, 0) < 0 ? -errno : 0;
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

void nl_collect(int nl, struct nl_result *r)
{
	struct nlattr *tb[TA_NL_A_PLAN_MAX + 1];
	struct nlmsghdr *h;
	ssize_t len;
	int rem;

	for (;;) {
		len = recv(nl, nl_rx, sizeof(nl_rx), MSG_DONTWAIT);
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

void prefault(void)
{
	memset(nl_rx, 0, sizeof(nl_rx));
	big_graph_init();
}
