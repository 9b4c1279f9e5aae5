// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_netlink - end-to-end tests of the tensorarena generic netlink
 * family, run in the test VM as root with the module loaded (group=1000).
 * Raw libnl messages, so malformed ones can be sent too. Children switch to
 * uid 1000 (in the device's group) and 2000 (outside it) and to a new
 * network namespace for the access policy.
 *
 *   ta_e2e_netlink            run the tests
 *   ta_e2e_netlink --hold     create one plan through the ioctl, print its
 *                             ID, hold it until stdin closes (ynl-tests.sh)
 *   ta_e2e_netlink --hold-netlink
 *                             create one plan over netlink, with no
 *                             descriptor of /dev/tensorarena (which would
 *                             pin the module), print its ID, hold the
 *                             socket until stdin closes, then ask for the
 *                             plan again and print "after: ERRNO"
 *                             (vm-tests.sh: rmmod meanwhile)
 *
 * One line per test: "e2e: ok - NAME" or "e2e: not ok - NAME: WHY".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <grp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dma-buf.h>

#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/tensorarena.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

static int failures;
static int family;
static int dev_fd = -1;

static void ok(const char *name)
{
	printf("e2e: ok - nl: %s\n", name);
}

static void not_ok(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("e2e: not ok - nl: %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

/* ---- a small netlink client --------------------------------------- */

#define MAX_PLACEMENTS 8192

struct reply {
	int err;
	char extack[256];
	int done;
	int n_msgs;
	/* from the last message */
	uint32_t plan_id, n_tensors, strategy, first;
	uint64_t height, lower_bound, bytes_in_use, arena_size, requested;
	uint64_t mmap_offset, plan_time_ns;
	int optimal;	/* TA_NL_A_PLAN_OPTIMAL, or -1 when not in the reply */
	int fd;		/* plan-export reply: the descriptor, or -1 */
	uint32_t tensor;		/* tensor-export reply */
	uint64_t export_size, export_offset;
	uint32_t n_plans;
	uint8_t cmd;
	/* placements, by index */
	uint32_t n_placed;
	struct ta_placement place[MAX_PLACEMENTS];
	/* plan IDs of a listing */
	uint32_t ids[64];
	uint32_t n_ids;
};

static struct reply R;

static uint64_t get64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint32_t get32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct reply *r = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[TA_NL_A_PLAN_MAX + 1], *a, *pa;
	int rem, prem;
	uint32_t i;

	r->n_msgs++;
	r->cmd = g->cmd;
	if (g->cmd == TA_NL_CMD_INFO || g->cmd == TA_NL_CMD_PRESSURE_NTF) {
		struct nlattr *ti[TA_NL_A_INFO_MAX + 1];

		genlmsg_parse(nlmsg_hdr(msg), 0, ti, TA_NL_A_INFO_MAX, NULL);
		r->bytes_in_use = get64(ti[TA_NL_A_INFO_BYTES_IN_USE]);
		r->arena_size = get64(ti[TA_NL_A_INFO_ARENA_SIZE]);
		r->n_plans = get32(ti[TA_NL_A_INFO_N_PLANS]);
		r->requested = get64(ti[TA_NL_A_INFO_REQUESTED]);
		return NL_OK;
	}
	if (g->cmd == TA_NL_CMD_TENSOR_EXPORT) {
		struct nlattr *tx[TA_NL_A_TENSOR_EXPORT_MAX + 1];

		genlmsg_parse(nlmsg_hdr(msg), 0, tx, TA_NL_A_TENSOR_EXPORT_MAX,
			      NULL);
		r->plan_id = get32(tx[TA_NL_A_TENSOR_EXPORT_PLAN_ID]);
		r->tensor = get32(tx[TA_NL_A_TENSOR_EXPORT_TENSOR]);
		r->fd = tx[TA_NL_A_TENSOR_EXPORT_FD] ?
			(int)nla_get_u32(tx[TA_NL_A_TENSOR_EXPORT_FD]) : -1;
		r->export_size = get64(tx[TA_NL_A_TENSOR_EXPORT_SIZE]);
		r->export_offset = get64(tx[TA_NL_A_TENSOR_EXPORT_OFFSET]);
		return NL_OK;
	}
	genlmsg_parse(nlmsg_hdr(msg), 0, tb, TA_NL_A_PLAN_MAX, NULL);
	r->plan_id = get32(tb[TA_NL_A_PLAN_PLAN_ID]);
	r->n_tensors = get32(tb[TA_NL_A_PLAN_N_TENSORS]);
	r->strategy = get32(tb[TA_NL_A_PLAN_STRATEGY]);
	r->height = get64(tb[TA_NL_A_PLAN_HEIGHT]);
	r->lower_bound = get64(tb[TA_NL_A_PLAN_LOWER_BOUND]);
	r->mmap_offset = get64(tb[TA_NL_A_PLAN_MMAP_OFFSET]);
	r->plan_time_ns = get64(tb[TA_NL_A_PLAN_PLAN_TIME_NS]);
	r->optimal = tb[TA_NL_A_PLAN_OPTIMAL] ?
		nla_get_u8(tb[TA_NL_A_PLAN_OPTIMAL]) : -1;
	r->fd = tb[TA_NL_A_PLAN_FD] ? (int)nla_get_u32(tb[TA_NL_A_PLAN_FD]) : -1;
	r->first = get32(tb[TA_NL_A_PLAN_FIRST_PLACEMENT]);
	if (r->n_ids < 64 && r->plan_id)
		r->ids[r->n_ids++] = r->plan_id;
	i = r->first;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) != TA_NL_A_PLAN_PLACEMENT)
			continue;
		if (i < MAX_PLACEMENTS) {
			nla_for_each_nested(pa, a, prem) {
				if (nla_type(pa) == TA_NL_A_PLACEMENT_OFFSET)
					r->place[i].offset = nla_get_u64(pa);
				if (nla_type(pa) == TA_NL_A_PLACEMENT_SIZE)
					r->place[i].size = nla_get_u64(pa);
			}
		}
		i++;
		r->n_placed++;
	}
	return NL_OK;
}

static int err_cb(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *hdr = (struct nlmsghdr *)e - 1;
	struct reply *r = arg;
	size_t off = sizeof(*e);
	struct nlattr *a;
	int rem;

	(void)who;
	r->err = e->error;
	r->done = 1;
	if (!(hdr->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((hdr->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    NLMSG_HDRLEN + off < hdr->nlmsg_len) {
		rem = hdr->nlmsg_len - NLMSG_HDRLEN - off;
		nla_for_each_attr(a, (struct nlattr *)((char *)e + off), rem, rem)
			if (nla_type(a) == NLMSGERR_ATTR_MSG)
				snprintf(r->extack, sizeof(r->extack), "%s",
					 (char *)nla_data(a));
	}
	return NL_STOP;
}

/* ACK or DONE; a dump that failed carries its error (and extack) in DONE. */
static int done_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct reply *r = arg;
	struct nlattr *a;
	int rem;

	r->done = 1;
	if (h->nlmsg_type != NLMSG_DONE ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(int) ||
	    *(int *)nlmsg_data(h) >= 0)
		return NL_STOP;
	r->err = *(int *)nlmsg_data(h);
	rem = h->nlmsg_len - NLMSG_HDRLEN - sizeof(int);
	if (h->nlmsg_flags & NLM_F_ACK_TLVS)
		nla_for_each_attr(a, (struct nlattr *)((char *)nlmsg_data(h) +
						       sizeof(int)), rem, rem)
			if (nla_type(a) == NLMSGERR_ATTR_MSG)
				snprintf(r->extack, sizeof(r->extack), "%s",
					 (char *)nla_data(a));
	return NL_STOP;
}

static int seq_ok(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static struct nl_sock *nl_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk || genl_connect(sk) < 0) {
		fprintf(stderr, "ta_e2e_netlink: cannot open a netlink socket\n");
		exit(1);
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
	nl_socket_set_buffer_size(sk, 4 << 20, 4 << 20);
	nl_socket_enable_msg_peek(sk);
	return sk;
}

static struct nl_msg *msg_new(uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc_size(1 << 20);

	genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
		    TA_NL_FAMILY_VERSION);
	return m;
}

/* Read until ACK/error/DONE; the result is in R. */
static int recv_all(struct nl_sock *sk)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	memset(&R, 0, sizeof(R));
	R.fd = -1;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &R);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, done_cb, &R);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, done_cb, &R);
	nl_cb_err(cb, NL_CB_CUSTOM, err_cb, &R);
	while (!R.done) {
		ret = nl_recvmsgs(sk, cb);
		if (ret < 0 && !R.done) {
			R.err = -EIO;
			break;
		}
	}
	nl_cb_put(cb);
	return R.err;
}

/* Send @m (freed) and read until ACK/error/DONE; the result is in R. */
static int xfer(struct nl_sock *sk, struct nl_msg *m)
{
	int ret = nl_send_auto(sk, m);

	nlmsg_free(m);
	if (ret < 0) {
		memset(&R, 0, sizeof(R));
		R.err = -EMSGSIZE;
		return R.err;
	}
	return recv_all(sk);
}

static struct nlattr *nest(struct nl_msg *m, int type)
{
	return nla_nest_start(m, type | NLA_F_NESTED);
}

static void put_tensor(struct nl_msg *m, uint64_t size, uint64_t align,
		       uint32_t flags)
{
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_SIZE, size);
	if (align)
		nla_put_u64(m, TA_NL_A_TENSOR_ALIGN, align);
	if (flags)
		nla_put_u32(m, TA_NL_A_TENSOR_FLAGS, flags);
	nla_nest_end(m, n);
}

static void put_op(struct nl_msg *m, int in, int out)
{
	struct nlattr *n = nest(m, TA_NL_A_PLAN_OP);

	if (in >= 0)
		nla_put_u32(m, TA_NL_A_OP_INPUT, in);
	if (out >= 0)
		nla_put_u32(m, TA_NL_A_OP_OUTPUT, out);
	nla_nest_end(m, n);
}

static void put_buffer(struct nl_msg *m, uint64_t size, uint32_t start,
		       uint32_t end)
{
	struct nlattr *n = nest(m, TA_NL_A_PLAN_BUFFER);

	nla_put_u64(m, TA_NL_A_BUFFER_SIZE, size);
	nla_put_u32(m, TA_NL_A_BUFFER_START, start);
	nla_put_u32(m, TA_NL_A_BUFFER_END, end);
	nla_nest_end(m, n);
}

/* A valid chain graph of @n tensors: op i reads tensor i, writes i + 1. */
static void put_chain(struct nl_msg *m, int n, uint64_t size)
{
	int i;

	for (i = 0; i < n; i++)
		put_tensor(m, size + 64 * (i % 5), 0,
			   i == 0 ? TA_TENSOR_INPUT :
			   i == n - 1 ? TA_TENSOR_OUTPUT : 0);
	for (i = 0; i + 1 < n; i++)
		put_op(m, i, i + 1);
}

static struct nl_msg *create_msg(uint32_t flags, uint32_t strategy)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_CREATE, 0);

	nla_put_u32(m, TA_NL_A_PLAN_FLAGS, flags);
	nla_put_u32(m, TA_NL_A_PLAN_STRATEGY, strategy);
	return m;
}

static struct nl_msg *id_msg(uint8_t cmd, int flags, uint32_t id)
{
	struct nl_msg *m = msg_new(cmd, flags);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, id);
	return m;
}

/* ---- the bad-input table ------------------------------------------ */

struct bad_row {
	const char *name;
	struct nl_msg *(*build)(void);
	int err;
	const char *extack;
};

static struct nl_msg *b_no_ops(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_no_size(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_ALIGN, 8);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_size_u32(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u32(m, TA_NL_A_TENSOR_SIZE, 64);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_flags_u64(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_CREATE, 0);

	nla_put_u64(m, TA_NL_A_PLAN_FLAGS, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_unknown_attr(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_MAX + 1, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_output_attr(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, 1);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_beyond_policy(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u64(m, TA_NL_A_PLAN_HEIGHT, 0);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_not_nested(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u32(m, TA_NL_A_PLAN_TENSOR, 64);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_strategy(void)
{
	struct nl_msg *m = create_msg(0, 99);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_flag(void)
{
	struct nl_msg *m = create_msg(0x80, 0);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_tensor_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0x100);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_align3(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 3, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_align_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 1ULL << 33, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_size_huge(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 1ULL << 63, 0, 0);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_too_many(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_chain(m, 9, 64);	/* max_tensors is set to 8 for this row */
	return m;
}

static struct nl_msg *b_ref_range(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, 0);
	put_op(m, -1, 5);
	return m;
}

static struct nl_msg *b_unreferenced(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_chain(m, 2, 64);
	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_order(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, TA_TENSOR_INPUT);
	put_tensor(m, 64, 0, 0);
	put_tensor(m, 64, 0, 0);
	put_op(m, 1, 2);	/* reads 1 before op 1 produces it */
	put_op(m, 0, 1);
	return m;
}

static struct nl_msg *b_twice(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_tensor(m, 64, 0, TA_TENSOR_INPUT);
	put_tensor(m, 64, 0, 0);
	put_op(m, 0, 1);
	put_op(m, 0, 1);
	return m;
}

static struct nl_msg *b_buffer_no_flag(void)
{
	struct nl_msg *m = create_msg(0, 0);

	put_buffer(m, 64, 0, 1);
	return m;
}

static struct nl_msg *b_lifetime_tensor(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_mixed(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 64, 0, 1);
	put_tensor(m, 64, 0, 0);
	return m;
}

static struct nl_msg *b_start_end(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 64, 3, 3);
	return m;
}

static struct nl_msg *b_no_end(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_BUFFER);

	nla_put_u64(m, TA_NL_A_BUFFER_SIZE, 64);
	nla_put_u32(m, TA_NL_A_BUFFER_START, 0);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *b_budget(void)
{
	struct nl_msg *m = create_msg(0, 0);

	nla_put_u64(m, TA_NL_A_PLAN_BUDGET_NS, 1ULL << 62);
	put_chain(m, 2, 64);
	return m;
}

static struct nl_msg *b_nested_unknown(void)
{
	struct nl_msg *m = create_msg(0, 0);
	struct nlattr *n = nest(m, TA_NL_A_PLAN_TENSOR);

	nla_put_u64(m, TA_NL_A_TENSOR_SIZE, 64);
	nla_put_u32(m, TA_NL_A_TENSOR_MAX + 1, 0);
	nla_nest_end(m, n);
	put_op(m, -1, 0);
	return m;
}

static struct nl_msg *b_too_tall(void)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES, 0);

	put_buffer(m, 1ULL << 40, 0, 1);
	return m;
}

static struct nl_msg *b_get_missing(void)
{
	return msg_new(TA_NL_CMD_PLAN_GET, 0);
}

static struct nl_msg *b_get_zero(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, 0, 0);
}

static struct nl_msg *b_get_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, 0, 77777);
}

static struct nl_msg *b_get_u8(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_GET, 0);

	nla_put_u8(m, TA_NL_A_PLAN_PLAN_ID, 1);
	return m;
}

static struct nl_msg *b_dump_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, 77777);
}

static struct nl_msg *b_destroy_none(void)
{
	return id_msg(TA_NL_CMD_PLAN_DESTROY, 0, 77777);
}

static struct nl_msg *b_destroy_missing(void)
{
	return msg_new(TA_NL_CMD_PLAN_DESTROY, 0);
}

/* Plans the plan-export rows refer to, made before the table runs. */
static uint32_t export_id;	/* a plan with memory */
static uint32_t empty_id;	/* a plan of height 0: nothing to export */

static struct nl_msg *export_msg(uint32_t id, uint32_t flags)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, id);

	nla_put_u32(m, TA_NL_A_PLAN_EXPORT_FLAGS, flags);
	return m;
}

static struct nl_msg *b_export_missing(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return m;
}

static struct nl_msg *b_export_none(void)
{
	return export_msg(77777, 0);
}

static struct nl_msg *b_export_zero(void)
{
	return export_msg(0, 0);
}

static struct nl_msg *b_export_flag(void)
{
	return export_msg(export_id, 0x2);
}

static struct nl_msg *b_export_flags_u64(void)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, export_id);

	nla_put_u64(m, TA_NL_A_PLAN_EXPORT_FLAGS, TA_EXPORT_CLOEXEC);
	return m;
}

static struct nl_msg *b_export_fd_attr(void)
{
	struct nl_msg *m = export_msg(export_id, 0);

	nla_put_u32(m, TA_NL_A_PLAN_FD, 3);
	return m;
}

static struct nl_msg *b_export_create_flags(void)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, export_id);

	nla_put_u32(m, TA_NL_A_PLAN_FLAGS, 0);
	return m;
}

static struct nl_msg *b_export_empty(void)
{
	return export_msg(empty_id, 0);
}

/*
 * tensor-export rows: a graph plan (through the ioctl) whose tensor 0
 * (5000 bytes) is exportable, tensor 1 is not, and tensor 2, exportable,
 * has no bytes.
 */
static uint32_t xport_id;

static uint32_t ioctl_create_exportable(void)
{
	struct ta_tensor t[3] = {
		{ .size = 5000, .flags = TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE },
		{ .size = 100, .flags = TA_TENSOR_OUTPUT },
		{ .size = 0, .flags = TA_TENSOR_OUTPUT | TA_TENSOR_EXPORTABLE },
	};
	struct ta_op op = { .first_ref = 0, .n_inputs = 1, .n_outputs = 2 };
	uint32_t refs[] = { 0, 1, 2 };
	struct ta_plan_create c = { 0 };

	c.strategy = TA_STRATEGY_GREEDY_SIZE;
	c.tensors = (uintptr_t)t;
	c.n_tensors = 3;
	c.tensor_size = sizeof(t[0]);
	c.ops = (uintptr_t)&op;
	c.n_ops = 1;
	c.op_size = sizeof(op);
	c.refs = (uintptr_t)refs;
	c.n_refs = 3;
	if (ioctl(dev_fd, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

static struct nl_msg *tx_msg(uint32_t id, uint32_t tensor, uint32_t flags)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_PLAN_ID, id);
	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_TENSOR, tensor);
	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_FLAGS, flags);
	return m;
}

static struct nl_msg *b_tx_no_id(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_TENSOR, 0);
	return m;
}

static struct nl_msg *b_tx_no_tensor(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_PLAN_ID, xport_id);
	return m;
}

static struct nl_msg *b_tx_none(void)
{
	return tx_msg(77777, 0, 0);
}

static struct nl_msg *b_tx_zero(void)
{
	return tx_msg(0, 0, 0);
}

static struct nl_msg *b_tx_range(void)
{
	return tx_msg(xport_id, 3, 0);
}

static struct nl_msg *b_tx_range_max(void)
{
	return tx_msg(xport_id, 0xffffffff, 0);
}

static struct nl_msg *b_tx_not_exportable(void)
{
	return tx_msg(xport_id, 1, 0);
}

static struct nl_msg *b_tx_empty(void)
{
	return tx_msg(xport_id, 2, 0);
}

static struct nl_msg *b_tx_flag(void)
{
	return tx_msg(xport_id, 0, 0x2);
}

static struct nl_msg *b_tx_fd_attr(void)
{
	struct nl_msg *m = tx_msg(xport_id, 0, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_FD, 3);
	return m;
}

static struct nl_msg *b_default_align(uint64_t align)
{
	struct nl_msg *m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);

	nla_put_u64(m, TA_NL_A_PLAN_DEFAULT_ALIGN, align);
	put_chain(m, 3, 100);
	return m;
}

static struct nl_msg *b_default_align3(void)
{
	return b_default_align(3);
}

static struct nl_msg *b_default_align_huge(void)
{
	return b_default_align(1ULL << 33);
}

static struct nl_msg *b_info_attr(void)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_INFO, 0);

	nla_put_u32(m, 1, 0);
	return m;
}

static const struct bad_row bad_rows[] = {
	{ "create: graph form without ops -> EINVAL", b_no_ops, -EINVAL, "graph form needs at least one op" },
	{ "create: tensor without size -> EINVAL", b_no_size, -EINVAL, "size attribute missing" },
	{ "create: size as u32 (short) -> EINVAL", b_size_u32, -EINVAL, "invalid attribute length" },
	{ "create: flags as u64 (oversized) -> EINVAL", b_flags_u64, -EINVAL, "invalid attribute length" },
	{ "create: unknown attribute type -> EINVAL", b_unknown_attr, -EINVAL, "Unknown attribute type" },
	{ "create: reply-only attribute in request -> EINVAL", b_output_attr, -EINVAL, "Unsupported attribute" },
	/* height lies below default-align, the create policy's last attribute */
	{ "create: reply-only attribute (height) in request -> EINVAL", b_beyond_policy, -EINVAL, "Unsupported attribute" },
	{ "create: tensor not nested -> EINVAL", b_not_nested, -EINVAL, "NLA_F_NESTED is missing" },
	{ "create: unknown attribute in a tensor -> EINVAL", b_nested_unknown, -EINVAL, "Unknown attribute type" },
	{ "create: unknown strategy -> ERANGE", b_strategy, -ERANGE, "integer out of range" },
	{ "create: unknown create flag -> EINVAL", b_flag, -EINVAL, "reserved bit set" },
	{ "create: unknown tensor flag -> EINVAL", b_tensor_flag, -EINVAL, "reserved bit set" },
	{ "create: align 3 -> EINVAL", b_align3, -EINVAL, "align is not a power of two" },
	{ "create: align 2^33 -> E2BIG", b_align_huge, -E2BIG, "align above 2^32" },
	{ "create: size 2^63 -> E2BIG", b_size_huge, -E2BIG, "size beyond the planner's limit" },
	{ "create: tensors beyond max_tensors -> E2BIG", b_too_many, -E2BIG, "max_tensors" },
	{ "create: reference beyond the tensors -> EINVAL", b_ref_range, -EINVAL, "malformed graph" },
	{ "create: tensor no op references -> EINVAL", b_unreferenced, -EINVAL, "malformed graph" },
	{ "create: ops out of order -> EINVAL", b_order, -EINVAL, "malformed graph" },
	{ "create: tensor produced twice -> EINVAL", b_twice, -EINVAL, "malformed graph" },
	{ "create: buffer without lifetimes flag -> EINVAL", b_buffer_no_flag, -EINVAL, "need the lifetimes flag" },
	{ "create: lifetimes flag with tensors -> EINVAL", b_lifetime_tensor, -EINVAL, "lifetime form takes buffer" },
	{ "create: tensors and buffers mixed -> EINVAL", b_mixed, -EINVAL, "cannot be mixed" },
	{ "create: buffer start == end -> EINVAL", b_start_end, -EINVAL, "end must be after its start" },
	{ "create: buffer without end -> EINVAL", b_no_end, -EINVAL, "needs start and end" },
	{ "create: budget above max_budget_ms -> EINVAL", b_budget, -EINVAL, "max_budget_ms" },
	{ "create: taller than the arena -> ENOSPC", b_too_tall, -ENOSPC, "no free slice" },
	{ "get: no plan-id -> EINVAL", b_get_missing, -EINVAL, "plan-id attribute missing" },
	{ "get: plan-id 0 -> ERANGE", b_get_zero, -ERANGE, "integer out of range" },
	{ "get: plan-id as u8 -> EINVAL", b_get_u8, -EINVAL, "invalid attribute length" },
	{ "get: no such plan -> ENOENT", b_get_none, -ENOENT, "no such plan" },
	{ "get dump: no such plan -> ENOENT", b_dump_none, -ENOENT, "no such plan" },
	{ "destroy: no such plan -> ENOENT", b_destroy_none, -ENOENT, "no such plan" },
	{ "destroy: no plan-id -> EINVAL", b_destroy_missing, -EINVAL, "plan-id attribute missing" },
	{ "info: an attribute other than abi-version -> EINVAL", b_info_attr, -EINVAL, "Unsupported attribute" },
	{ "export: no plan-id -> EINVAL", b_export_missing, -EINVAL, "plan-id attribute missing" },
	{ "export: no such plan -> ENOENT", b_export_none, -ENOENT, "no such plan" },
	{ "export: plan-id 0 -> ERANGE", b_export_zero, -ERANGE, "integer out of range" },
	{ "export: unknown export flag -> EINVAL", b_export_flag, -EINVAL, "reserved bit set" },
	{ "export: export-flags as u64 -> EINVAL", b_export_flags_u64, -EINVAL, "invalid attribute length" },
	{ "export: reply-only fd attribute in request -> EINVAL", b_export_fd_attr, -EINVAL, "Unknown attribute type" },
	{ "export: create's flags attribute -> EINVAL", b_export_create_flags, -EINVAL, "Unsupported attribute" },
	{ "export: plan of height 0 (no memory) -> EINVAL", b_export_empty, -EINVAL, "no memory to export" },
	{ "tensor-export: no plan-id -> EINVAL", b_tx_no_id, -EINVAL, "plan-id attribute missing" },
	{ "tensor-export: no tensor -> EINVAL", b_tx_no_tensor, -EINVAL, "tensor attribute missing" },
	{ "tensor-export: no such plan -> ENOENT", b_tx_none, -ENOENT, "no such plan" },
	{ "tensor-export: plan-id 0 -> ERANGE", b_tx_zero, -ERANGE, "integer out of range" },
	{ "tensor-export: index = tensor count -> EINVAL", b_tx_range, -EINVAL, "no such tensor" },
	{ "tensor-export: index 2^32-1 -> EINVAL", b_tx_range_max, -EINVAL, "no such tensor" },
	{ "tensor-export: tensor not exportable -> EINVAL", b_tx_not_exportable, -EINVAL, "not exportable" },
	{ "tensor-export: exportable tensor of size 0 -> EINVAL", b_tx_empty, -EINVAL, "no memory to export" },
	{ "tensor-export: unknown flag -> EINVAL", b_tx_flag, -EINVAL, "reserved bit set" },
	{ "tensor-export: reply-only fd attribute in request -> EINVAL", b_tx_fd_attr, -EINVAL, "Unknown attribute type" },
	{ "create: default-align 3 -> EINVAL", b_default_align3, -EINVAL, "default-align is not a power of two" },
	{ "create: default-align 2^33 -> EINVAL", b_default_align_huge, -EINVAL, "default-align is not a power of two" },
};

static int write_param(const char *name, const char *val)
{
	char path[128];
	int fd, ret;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static char saved_max[32];

static void read_param(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, len, f))
		snprintf(buf, len, "65536");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The arena's use and plan count through INFO. A failed GET would read as
 * zeros (and two failed ones as "nothing changed"): it is a failure of its
 * own, and the values are ones no comparison takes for a real reading.
 */
static void info(struct nl_sock *sk, uint64_t *in_use, uint32_t *n_plans)
{
	static unsigned int calls;
	int err = xfer(sk, msg_new(TA_NL_CMD_INFO, 0));

	calls++;
	if (err || R.cmd != TA_NL_CMD_INFO || !R.arena_size) {
		not_ok("info: INFO request", "call %u: error %d '%s', cmd %u, arena_size %llu",
		       calls, err, R.extack, R.cmd,
		       (unsigned long long)R.arena_size);
		*in_use = UINT64_MAX - calls;
		*n_plans = UINT32_MAX - calls;
		return;
	}
	*in_use = R.bytes_in_use;
	*n_plans = R.n_plans;
}

/* The number of plans a dump lists; a failed dump fails and reads as none. */
static uint32_t list_count(struct nl_sock *sk)
{
	int err = xfer(sk, msg_new(TA_NL_CMD_PLAN_GET, NLM_F_DUMP));

	if (err) {
		not_ok("list: PLAN_GET dump", "error %d '%s'", err, R.extack);
		return UINT32_MAX;
	}
	return R.n_ids;
}

/* A plan of one buffer of @size bytes through the ioctl (0 on failure). */
static uint32_t ioctl_create_one(uint64_t size)
{
	struct ta_lifetime lt = { .size = size, .start = 0, .end = 1 };
	struct ta_plan_create c = { 0 };

	c.flags = TA_CREATE_LIFETIMES;
	c.strategy = TA_STRATEGY_GREEDY_SIZE;
	c.tensors = (uintptr_t)&lt;
	c.n_tensors = 1;
	c.tensor_size = sizeof(lt);
	if (ioctl(dev_fd, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

static void ioctl_destroy(uint32_t id)
{
	struct ta_plan_destroy d = { .plan_id = id };

	ioctl(dev_fd, TA_IOCTL_PLAN_DESTROY, &d);
}

/* Descriptors open in this process. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

static void run_bad_table(struct nl_sock *sk)
{
	uint64_t use0, use1;
	uint32_t plans0, plans1, list0, list1;
	uint64_t use_base;
	int fds0, fds1;
	size_t i;

	info(sk, &use_base, &plans0);
	export_id = ioctl_create_one(3 * 4096);
	empty_id = ioctl_create_one(0);
	xport_id = ioctl_create_exportable();
	if (!export_id || !empty_id || !xport_id)
		not_ok("plans for the export rows", "ioctl create: %s",
		       strerror(errno));
	info(sk, &use0, &plans0);
	list0 = list_count(sk);
	fds0 = count_fds();
	read_param("max_tensors", saved_max, sizeof(saved_max));
	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *row = &bad_rows[i];
		int err;

		if (row->build == b_too_many)
			write_param("max_tensors", "8");
		err = xfer(sk, row->build());
		if (row->build == b_too_many)
			write_param("max_tensors", saved_max);
		if (err != row->err)
			not_ok(row->name, "error %d (%s), expected %d",
			       err, R.extack, row->err);
		else if (!strstr(R.extack, row->extack))
			not_ok(row->name, "extack '%s', expected '%s'",
			       R.extack, row->extack);
		else
			ok(row->name);
	}
	info(sk, &use1, &plans1);
	list1 = list_count(sk);
	fds1 = count_fds();
	if (use0 != use1 || plans0 != plans1 || list0 != list1 || fds0 != fds1)
		not_ok("bad-input table leaves arena use, plan list and descriptors unchanged",
		       "use %llu -> %llu, plans %u -> %u, listed %u -> %u, fds %d -> %d",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1, list0, list1, fds0, fds1);
	else
		ok("bad-input table leaves arena use, plan list and descriptors unchanged");
	ioctl_destroy(export_id);
	ioctl_destroy(empty_id);
	ioctl_destroy(xport_id);
	info(sk, &use1, &plans1);
	if (use1 != use_base)
		not_ok("failed exports hold no memory: all back after destroy",
		       "use %llu -> %llu", (unsigned long long)use_base,
		       (unsigned long long)use1);
	else
		ok("failed exports hold no memory: all back after destroy");
}

/* ---- plan-export ---------------------------------------------------- */

/* /proc/self/fdinfo/@fd has a line starting with @line. */
static int fdinfo_has(int fd, const char *line)
{
	char path[64], buf[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		found |= !strncmp(buf, line, strlen(line));
	fclose(f);
	return found;
}

static int dmabuf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync s = { .flags = flags };

	return ioctl(fd, DMA_BUF_IOCTL_SYNC, &s) ? -errno : 0;
}

static uint32_t sock_drops(struct nl_sock *sk)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mem);

	getsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_MEMINFO, mem, &len);
	return mem[SK_MEMINFO_DROPS];
}

/* Bytes of both mappings equal, writing through @w and reading via @r. */
static int same_bytes_through(unsigned char *w, const unsigned char *r,
			      uint64_t len, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < len; i++)
		w[i] = (unsigned char)(i * 7 + seed);
	return !memcmp(w, r, len);
}

/* Export @id over @sk with @flags; the descriptor or -errno. */
static int nl_export(struct nl_sock *sk, uint32_t id, uint32_t flags)
{
	xfer(sk, export_msg(id, flags));
	if (R.err)
		return R.err;
	return R.plan_id == id && R.fd >= 0 ? R.fd : -EPROTO;
}

static void run_export_mapping(int fd, uint64_t mmap_offset, uint64_t slice)
{
	const char *name = "export: mmap of the dma-buf shows the bytes of the plan's /dev/tensorarena mapping, both ways";
	unsigned char *via_buf, *via_plan;
	int good;

	via_buf = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	via_plan = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED,
			dev_fd, mmap_offset);
	if (via_buf == MAP_FAILED || via_plan == MAP_FAILED) {
		not_ok(name, "mmap: %s", strerror(errno));
	} else {
		good = !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ) &&
		       same_bytes_through(via_plan, via_buf, slice, 3) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE) &&
		       same_bytes_through(via_buf, via_plan, slice, 101) &&
		       !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
		if (good)
			ok(name);
		else
			not_ok(name, "bytes differ or DMA_BUF_IOCTL_SYNC failed");
	}
	if (via_buf != MAP_FAILED)
		munmap(via_buf, slice);
	if (via_plan != MAP_FAILED)
		munmap(via_plan, slice);
}

static void check(const char *name, int good, const char *fmt, ...)
{
	va_list ap;

	if (good) {
		ok(name);
		return;
	}
	printf("e2e: not ok - nl: %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

/*
 * tensor-export: the tensor's dma-buf, its size (lseek and the reply), its
 * offset, the plan's bytes at that offset, the memory kept after destroy;
 * and default-align on plan-create.
 */
static void run_tensor_export(struct nl_sock *sk)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ta_placement pl[3];
	struct ta_plan_get g = { 0 };
	struct ta_plan_destroy d = { 0 };
	uint64_t use0, use1, slice, i, size, offset;
	uint32_t plans0, plans1, id;
	unsigned char *plan_map, *buf_map;
	struct nl_msg *m;
	int fd, aligned;

	info(sk, &use0, &plans0);
	id = ioctl_create_exportable();
	g.plan_id = id;
	g.placements = (uintptr_t)pl;
	g.n_placements = 3;
	g.placement_size = sizeof(pl[0]);
	if (!id || ioctl(dev_fd, TA_IOCTL_PLAN_GET, &g)) {
		not_ok("tensor-export: a plan to export from", "%s",
		       strerror(errno));
		return;
	}
	slice = (g.height + page - 1) & ~(uint64_t)(page - 1);
	xfer(sk, tx_msg(id, 0, TA_EXPORT_CLOEXEC));
	fd = R.err ? R.err : R.fd;
	check("tensor-export: reply gives plan, tensor, fd, size in whole pages, offset",
	      !R.err && fd >= 0 && R.plan_id == id && R.tensor == 0 &&
	      R.export_size == (uint64_t)((5000 + page - 1) & ~(page - 1)) &&
	      R.export_size == pl[0].size && R.export_offset == pl[0].offset &&
	      R.export_offset % page == 0,
	      "err %d (%s) fd %d size %llu offset %llu", R.err, R.extack, fd,
	      (unsigned long long)R.export_size,
	      (unsigned long long)R.export_offset);
	if (fd < 0) {
		ioctl_destroy(id);
		return;
	}
	size = R.export_size;
	offset = R.export_offset;
	check("tensor-export: the descriptor is in this process, close-on-exec",
	      (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	      fdinfo_has(fd, "exp_name:\ttensorarena"), "fd %d", fd);
	check("tensor-export: lseek(SEEK_END) is the size",
	      lseek(fd, 0, SEEK_END) == (off_t)size, "%lld",
	      (long long)lseek(fd, 0, SEEK_END));
	plan_map = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, dev_fd,
			g.mmap_offset);
	buf_map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);
	if (plan_map == MAP_FAILED || buf_map == MAP_FAILED) {
		not_ok("tensor-export: mmap of the plan and the tensor's dma-buf",
		       "%s", strerror(errno));
	} else {
		for (i = 0; i < slice; i++)
			plan_map[i] = (unsigned char)(i * 13 + 5);
		check("tensor-export: the dma-buf's bytes are the plan's at the tensor's offset",
		      !dmabuf_sync(fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ) &&
		      !memcmp(buf_map, plan_map + offset,
			      size) &&
		      !dmabuf_sync(fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ),
		      "differ");
	}
	if (plan_map != MAP_FAILED)
		munmap(plan_map, slice);
	ioctl_destroy(id);
	info(sk, &use1, &plans1);
	check("tensor-export: the dma-buf keeps the plan's memory after destroy",
	      plans1 == plans0 && use1 == use0 + slice,
	      "plans %u -> %u, use %llu -> %llu", plans0, plans1,
	      (unsigned long long)use0, (unsigned long long)use1);
	if (buf_map != MAP_FAILED) {
		check("tensor-export: still the tensor's bytes after destroy",
		      buf_map[0] == (unsigned char)(offset * 13 + 5),
		      "byte %x", buf_map[0]);
		munmap(buf_map, size);
	}
	close(fd);
	info(sk, &use1, &plans1);
	check("tensor-export: closing it returns the memory", use1 == use0,
	      "use %llu -> %llu", (unsigned long long)use0,
	      (unsigned long long)use1);

	/* default-align: 2048 for tensors without align, kept by the rest */
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	nla_put_u64(m, TA_NL_A_PLAN_DEFAULT_ALIGN, 2048);
	put_chain(m, 4, 100);
	if (xfer(sk, m) || !R.plan_id) {
		not_ok("create: default-align 2048", "%d %s", R.err, R.extack);
		return;
	}
	d.plan_id = R.plan_id;
	g.plan_id = R.plan_id;
	g.n_placements = 3;
	aligned = !ioctl(dev_fd, TA_IOCTL_PLAN_GET, &g);
	for (i = 0; aligned && i < 3; i++)
		aligned = pl[i].offset % 2048 == 0;
	check("create: default-align 2048 aligns the tensors without align",
	      aligned, "offsets %llu %llu %llu",
	      (unsigned long long)pl[0].offset,
	      (unsigned long long)pl[1].offset,
	      (unsigned long long)pl[2].offset);
	xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, d.plan_id));
}

static void run_export(struct nl_sock *sk)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t use0, use1, slice, mmap_offset;
	uint32_t plans0, plans1, id, drops0, drops1;
	struct nl_sock *a;
	struct rlimit rl, low;
	char line[64], extack[256];
	const char *name;
	int fd, fds0, err, i, small = 1;
	struct stat st;
	struct nl_msg *m;

	info(sk, &use0, &plans0);
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 6, 5000);
	if (xfer(sk, m) || !R.plan_id) {
		not_ok("export: a plan to export", "create: %d %s", R.err,
		       R.extack);
		return;
	}
	id = R.plan_id;
	slice = (R.height + page - 1) & ~(uint64_t)(page - 1);
	mmap_offset = R.mmap_offset;

	fds0 = count_fds();
	fd = nl_export(sk, id, TA_EXPORT_CLOEXEC);
	name = "export: the reply's fd is a new descriptor of this process";
	if (fd < 0 || fcntl(fd, F_GETFD) < 0 || count_fds() != fds0 + 1) {
		not_ok(name, "fd %d (%s), descriptors %d -> %d", fd, R.extack,
		       fds0, count_fds());
		xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
		return;
	}
	ok(name);
	name = "export: TA_EXPORT_CLOEXEC sets FD_CLOEXEC";
	if (fcntl(fd, F_GETFD) & FD_CLOEXEC)
		ok(name);
	else
		not_ok(name, "F_GETFD 0x%x", fcntl(fd, F_GETFD));
	name = "export: a dma-buf exported by tensorarena (fdinfo exp_name)";
	if (fdinfo_has(fd, "exp_name:\ttensorarena"))
		ok(name);
	else
		not_ok(name, "no exp_name tensorarena in /proc/self/fdinfo/%d",
		       fd);
	name = "export: its size is the plan's slice (lseek SEEK_END, fstat, fdinfo)";
	snprintf(line, sizeof(line), "size:\t%llu\n", (unsigned long long)slice);
	if (lseek(fd, 0, SEEK_END) == (off_t)slice && !fstat(fd, &st) &&
	    st.st_size == (off_t)slice && fdinfo_has(fd, line))
		ok(name);
	else
		not_ok(name, "lseek %lld, st_size %lld, slice %llu",
		       (long long)lseek(fd, 0, SEEK_END), (long long)st.st_size,
		       (unsigned long long)slice);
	run_export_mapping(fd, mmap_offset, slice);

	xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
	err = R.err;
	info(sk, &use1, &plans1);
	name = "export: the descriptor keeps the memory after plan-destroy (bytes-in-use)";
	if (!err && plans1 == plans0 && use1 == use0 + slice)
		ok(name);
	else
		not_ok(name, "destroy %d, plans %u -> %u, use %llu -> %llu", err,
		       plans0, plans1, (unsigned long long)use0,
		       (unsigned long long)use1);
	close(fd);
	info(sk, &use1, &plans1);
	name = "export: closing the descriptor returns the memory";
	if (use1 == use0)
		ok(name);
	else
		not_ok(name, "use %llu -> %llu", (unsigned long long)use0,
		       (unsigned long long)use1);

	/* A plan made through the ioctl, no flags. */
	id = ioctl_create_one(2 * page);
	fd = id ? nl_export(sk, id, 0) : -ENOENT;
	name = "export: of an ioctl plan, without flags: no FD_CLOEXEC";
	if (fd >= 0 && !(fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	    lseek(fd, 0, SEEK_END) == 2 * page)
		ok(name);
	else
		not_ok(name, "fd %d (%s)", fd, R.extack);
	if (fd >= 0)
		close(fd);

	/* No descriptor free: EMFILE, and the dma-buf made first is freed. */
	fds0 = count_fds();
	fd = dup(dev_fd);
	close(fd);
	getrlimit(RLIMIT_NOFILE, &rl);
	low = rl;
	low.rlim_cur = fd;	/* the lowest free number: none is left */
	setrlimit(RLIMIT_NOFILE, &low);
	fd = nl_export(sk, id, 0);
	snprintf(extack, sizeof(extack), "%s", R.extack);
	setrlimit(RLIMIT_NOFILE, &rl);
	name = "export: no free descriptor -> EMFILE, nothing installed";
	if (fd == -EMFILE && strstr(extack, "no free file descriptor") &&
	    count_fds() == fds0)
		ok(name);
	else
		not_ok(name, "got %d '%s', descriptors %d -> %d", fd, extack,
		       fds0, count_fds());
	if (fd >= 0)
		close(fd);

	/*
	 * A reply that cannot be delivered: a socket whose receive queue is
	 * full. The kernel builds the dma-buf and reserves a number, the
	 * reply and then the error are dropped (2 drops), and no descriptor
	 * may appear.
	 */
	a = nl_open();
	setsockopt(nl_socket_get_fd(a), SOL_SOCKET, SO_RCVBUF, &small,
		   sizeof(small));
	for (i = 0; i < 16; i++) {
		m = msg_new(TA_NL_CMD_INFO, 0);
		nl_send_auto(a, m);
		nlmsg_free(m);
	}
	drops0 = sock_drops(a);
	fds0 = count_fds();
	m = export_msg(id, 0);
	nl_send_auto(a, m);
	nlmsg_free(m);
	drops1 = sock_drops(a);
	name = "export: a reply that cannot be delivered leaves no descriptor";
	if (drops1 - drops0 >= 2 && count_fds() == fds0)
		ok(name);
	else
		not_ok(name, "drops %u -> %u, descriptors %d -> %d", drops0,
		       drops1, fds0, count_fds());
	nl_socket_free(a);
	ioctl_destroy(id);
	info(sk, &use1, &plans1);
	name = "export: failed exports hold no memory (EMFILE, undeliverable reply)";
	if (use1 == use0 && plans1 == plans0)
		ok(name);
	else
		not_ok(name, "use %llu -> %llu", (unsigned long long)use0,
		       (unsigned long long)use1);

	/* The exporting socket closes: its plan dies, the buffer stays. */
	a = nl_open();
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 4, 3000);
	fd = -1;
	if (!xfer(a, m) && R.plan_id) {
		id = R.plan_id;
		slice = (R.height + page - 1) & ~(uint64_t)(page - 1);
		fd = nl_export(a, id, TA_EXPORT_CLOEXEC);
	}
	nl_socket_free(a);
	info(sk, &use1, &plans1);
	name = "export: the owner socket's close destroys the plan, the descriptor keeps the memory";
	if (fd >= 0 && plans1 == plans0 && use1 == use0 + slice)
		ok(name);
	else
		not_ok(name, "fd %d, plans %u -> %u, use %llu -> %llu", fd,
		       plans0, plans1, (unsigned long long)use0,
		       (unsigned long long)use1);
	if (fd >= 0)
		close(fd);
	info(sk, &use1, &plans1);
	name = "export: last close returns it";
	if (use1 == use0)
		ok(name);
	else
		not_ok(name, "use %llu -> %llu", (unsigned long long)use0,
		       (unsigned long long)use1);
}

/* ---- parity with the ioctl transport ------------------------------ */

static struct ta_placement ioc_place[MAX_PLACEMENTS];

static int ioctl_get(uint32_t id, struct ta_plan_get *g)
{
	memset(g, 0, sizeof(*g));
	g->plan_id = id;
	g->placements = (uintptr_t)ioc_place;
	g->n_placements = MAX_PLACEMENTS;
	g->placement_size = sizeof(struct ta_placement);
	return ioctl(dev_fd, TA_IOCTL_PLAN_GET, g) ? -errno : 0;
}

static int same_placements(uint32_t n)
{
	return n <= MAX_PLACEMENTS &&
	       !memcmp(R.place, ioc_place, n * sizeof(ioc_place[0]));
}

static uint32_t ioctl_create_lifetimes(uint32_t n, int dry)
{
	static struct ta_lifetime lt[MAX_PLACEMENTS];
	struct ta_plan_create c = { 0 };
	uint32_t i;

	for (i = 0; i < n; i++) {
		lt[i].size = 64 + 8 * (i % 7);
		lt[i].align = 0;
		lt[i].start = i / 4;
		lt[i].end = i / 4 + 1 + i % 3;
	}
	c.flags = TA_CREATE_LIFETIMES | (dry ? TA_CREATE_DRY_RUN : 0);
	c.strategy = TA_STRATEGY_GREEDY_SIZE;
	c.tensors = (uintptr_t)lt;
	c.n_tensors = n;
	c.tensor_size = sizeof(lt[0]);
	if (ioctl(dev_fd, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

static void run_parity(struct nl_sock *sk)
{
	const char *name;
	struct ta_plan_get g;
	struct nl_msg *m;
	uint32_t id, n;

	/* netlink -> ioctl */
	name = "parity: plan made over netlink reads the same through the ioctl";
	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 40, 4096);
	if (xfer(sk, m) || !R.plan_id) {
		not_ok(name, "create: %d %s", R.err, R.extack);
		return;
	}
	id = R.plan_id;
	if (xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id)) || R.n_placed != 40) {
		not_ok(name, "netlink get: %d %s, %u placements", R.err,
		       R.extack, R.n_placed);
	} else if (ioctl_get(id, &g)) {
		not_ok(name, "ioctl get: %s", strerror(errno));
	} else if (g.n_placements != 40 || g.height != R.height ||
		   g.strategy != R.strategy || !same_placements(40)) {
		not_ok(name, "ioctl: %u placements, height %llu vs %llu",
		       g.n_placements, (unsigned long long)g.height,
		       (unsigned long long)R.height);
	} else {
		ok(name);
	}
	xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
	name = "plan-destroy over netlink: the ioctl no longer sees it";
	if (R.err || ioctl_get(id, &g) != -ENOENT)
		not_ok(name, "destroy %d, ioctl get still works", R.err);
	else
		ok(name);

	/* ioctl -> netlink, large: the do refuses, the dump delivers */
	n = 3000;
	id = ioctl_create_lifetimes(n, 0);
	name = "parity: 3000-tensor ioctl plan, netlink dump with plan-id";
	if (!id) {
		not_ok(name, "ioctl create: %s", strerror(errno));
		return;
	}
	ioctl_get(id, &g);
	xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, id));
	if (R.err || R.n_placed != n || !same_placements(n))
		not_ok(name, "err %d %s, %u placements in %d messages", R.err,
		       R.extack, R.n_placed, R.n_msgs);
	else if (R.n_msgs < 2)
		not_ok(name, "one message only");
	else
		ok(name);
	name = "plan-get do of a 3000-tensor plan -> EMSGSIZE with advice";
	xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id));
	if (R.err != -EMSGSIZE || !strstr(R.extack, "dump plan-get"))
		not_ok(name, "err %d '%s'", R.err, R.extack);
	else
		ok(name);
	name = "plan dump lists the ioctl plan";
	xfer(sk, msg_new(TA_NL_CMD_PLAN_GET, NLM_F_DUMP));
	if (R.err || R.n_ids < 1 || R.ids[R.n_ids - 1] != id)
		not_ok(name, "err %d, %u listed", R.err, R.n_ids);
	else
		ok(name);
	ioctl(dev_fd, TA_IOCTL_PLAN_DESTROY,
	      &(struct ta_plan_destroy){ .plan_id = id });
}

/* ---- ownership and events ----------------------------------------- */

static void run_owner_events(void)
{
	struct nl_sock *a = nl_open(), *ev = nl_open();
	const char *name = "events: created and destroyed delivered";
	int grp = genl_ctrl_resolve_grp(a, TA_NL_FAMILY_NAME,
					TA_NL_MCGRP_EVENTS);
	uint64_t use0, use1;
	uint32_t plans0, plans1, id, created = 0, destroyed = 0;
	struct ta_plan_get g;
	struct nl_cb *cb;
	struct nl_msg *m;
	int i;

	info(a, &use0, &plans0);
	if (grp < 0 || nl_socket_add_membership(ev, grp) < 0) {
		not_ok(name, "cannot join the events group (%d)", grp);
		grp = -1;
	}
	m = create_msg(0, TA_STRATEGY_AUTO);
	put_chain(m, 10, 8192);
	if (xfer(a, m) || !R.plan_id) {
		not_ok("socket close destroys its plans", "create: %d %s",
		       R.err, R.extack);
		return;
	}
	id = R.plan_id;
	nl_socket_free(a);	/* closing the socket destroys the plan */
	a = nl_open();
	info(a, &use1, &plans1);
	name = "socket close destroys its plans";
	if (ioctl_get(id, &g) != -ENOENT || use1 != use0 || plans1 != plans0)
		not_ok(name, "plan %u still there (use %llu -> %llu)", id,
		       (unsigned long long)use0, (unsigned long long)use1);
	else
		ok(name);

	/* a plan taller than the arena: ENOSPC and a pressure event */
	m = create_msg(TA_CREATE_LIFETIMES, 0);
	put_buffer(m, 1ULL << 40, 0, 1);
	xfer(a, m);

	if (grp >= 0) {
		int pressure = 0;

		name = "events: created and destroyed delivered";
		cb = nl_cb_alloc(NL_CB_DEFAULT);
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &R);
		nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_ok, NULL);
		nl_socket_set_nonblocking(ev);
		for (i = 0; i < 3; i++) {
			memset(&R, 0, sizeof(R));
			if (nl_recvmsgs(ev, cb) < 0 && !R.n_msgs)
				break;
			if (R.cmd == TA_NL_CMD_PLAN_CREATED_NTF && R.plan_id == id)
				created = 1;
			if (R.cmd == TA_NL_CMD_PLAN_DESTROYED_NTF && R.plan_id == id)
				destroyed = 1;
			if (R.cmd == TA_NL_CMD_PRESSURE_NTF &&
			    R.requested == 1ULL << 40)
				pressure = 1;
		}
		nl_cb_put(cb);
		if (created && destroyed)
			ok(name);
		else
			not_ok(name, "created %d destroyed %d", created,
			       destroyed);
		name = "events: pressure on ENOSPC carries the requested height";
		if (pressure)
			ok(name);
		else
			not_ok(name, "no pressure event");
	}
	nl_socket_free(a);
	nl_socket_free(ev);
}

/* ---- the family's policy, quotas, limits (issue #9) ---------------- */

/*
 * The VM loads the module with group=1000 (vm-tests.sh), mode 0660: uid
 * 1000 with gid 1000 may use it, uid 2000 (gid 2000) may not.
 */
#define OUTSIDER	2000
#define MEMBER		1000
#define POLICY_TEXT	"group and mode"

/* Run @fn in a child with no supplementary groups, as @uid:@gid when @uid
 * is not 0; its exit status (100: could not switch), or -1.
 */
static int in_child(uid_t uid, gid_t gid, int (*fn)(void))
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) ||
		    (uid && (setgid(gid) || setuid(uid))))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int nl_create_small(struct nl_sock *sk)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES,
				      TA_STRATEGY_GREEDY_SIZE);

	put_buffer(m, 4096, 0, 1);
	return xfer(sk, m);
}

/* 0 when @err is EPERM with the policy's extack; else prints why. */
static int is_eperm(const char *what, int err)
{
	if (err == -EPERM && strstr(R.extack, POLICY_TEXT))
		return 0;
	printf("# %s: error %d, extack '%s'\n", what, err, R.extack);
	return 1;
}

/* Every command and the dump, from a socket opened and used by uid 2000. */
static int outsider_requests(void)
{
	struct nl_sock *sk = nl_open();
	int bad = 0;

	bad |= is_eperm("info", xfer(sk, msg_new(TA_NL_CMD_INFO, 0)));
	bad |= is_eperm("create", nl_create_small(sk)) << 1;
	bad |= is_eperm("get", xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, 1))) << 2;
	bad |= is_eperm("dump", xfer(sk, msg_new(TA_NL_CMD_PLAN_GET,
						 NLM_F_DUMP))) << 3;
	bad |= is_eperm("destroy",
			xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, 1))) << 4;
	bad |= is_eperm("export", xfer(sk, id_msg(TA_NL_CMD_PLAN_EXPORT, 0,
						   1))) << 5;
	nl_socket_free(sk);
	return bad;
}

static int member_requests(void)
{
	struct nl_sock *sk = nl_open();
	int bad = 0;

	if (xfer(sk, msg_new(TA_NL_CMD_INFO, 0)) || !R.arena_size) {
		printf("# info: %d '%s'\n", R.err, R.extack);
		bad = 1;
	}
	if (nl_create_small(sk) || !R.plan_id) {
		printf("# create: %d '%s'\n", R.err, R.extack);
		bad |= 2;
	}
	nl_socket_free(sk);
	return bad;
}

/*
 * A socket opened by uid 2000, used by root (who has CAP_SYS_ADMIN): the
 * opener's credentials count (the CVE-2014-0181 pattern).
 */
static int outsider_opened(void)
{
	struct nl_sock *sk;
	int bad;

	if (setegid(OUTSIDER) || seteuid(OUTSIDER))
		return 100;
	sk = nl_open();
	if (seteuid(0) || setegid(0))
		return 100;
	bad = is_eperm("info on uid 2000's socket, sent by root",
		       xfer(sk, msg_new(TA_NL_CMD_INFO, 0)));
	bad |= is_eperm("dump on uid 2000's socket, sent by root",
			xfer(sk, msg_new(TA_NL_CMD_PLAN_GET, NLM_F_DUMP))) << 1;
	nl_socket_free(sk);
	return bad;
}

/* A socket opened by root, used by uid 2000: the sender counts too. */
static int outsider_sends(void)
{
	struct nl_sock *sk = nl_open();
	int bad;

	if (setgid(OUTSIDER) || setuid(OUTSIDER))
		return 100;
	bad = is_eperm("info on root's socket, sent by uid 2000",
		       xfer(sk, msg_new(TA_NL_CMD_INFO, 0)));
	nl_socket_free(sk);
	return bad;
}

/* In a new network namespace the family does not exist. */
static int child_netns(void)
{
	struct nl_sock *sk;
	int id, bad = 0;

	if (unshare(CLONE_NEWNET)) {
		printf("# unshare(CLONE_NEWNET): %s\n", strerror(errno));
		return 100;
	}
	sk = nl_open();
	id = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	if (id != -NLE_OBJ_NOTFOUND) {
		printf("# the controller resolved the family: %d\n", id);
		bad = 1;
	}
	/* The family's ID, as the initial namespace knows it. */
	if (xfer(sk, msg_new(TA_NL_CMD_INFO, 0)) != -ENOENT) {
		printf("# info by ID: %d '%s'\n", R.err, R.extack);
		bad |= 2;
	}
	nl_socket_free(sk);
	return bad;
}

static void report(const char *name, int status)
{
	if (status == 0)
		ok(name);
	else
		not_ok(name, "child status %d", status);
}

static void run_policy(struct nl_sock *sk)
{
	uint64_t use0, use1;
	uint32_t plans0, plans1;

	info(sk, &use0, &plans0);
	report("policy: uid 2000 (outside the group) -> EPERM for info, create, get, dump, destroy, export, extack names group and mode",
	       in_child(OUTSIDER, OUTSIDER, outsider_requests));
	report("policy: uid 1000 (in the group) may use the family",
	       in_child(MEMBER, MEMBER, member_requests));
	report("policy: a socket opened by uid 2000 and used by root -> EPERM (the opener counts)",
	       in_child(0, 0, outsider_opened));
	report("policy: a socket opened by root and used by uid 2000 -> EPERM (the sender counts)",
	       in_child(0, 0, outsider_sends));
	report("policy: from a child network namespace the family does not exist -> ENOENT",
	       in_child(0, 0, child_netns));
	info(sk, &use1, &plans1);
	if (use0 != use1 || plans0 != plans1)
		not_ok("policy: refused requests change nothing; the member's plan died with its socket",
		       "use %llu -> %llu, plans %u -> %u",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1);
	else
		ok("policy: refused requests change nothing; the member's plan died with its socket");
}

/* max_file_plans creates on one socket, then EDQUOT; another socket may. */
static void run_quota(struct nl_sock *sk)
{
	const char *name = "quota: max_file_plans (3) creates on one socket, the 4th -> EDQUOT with extack, nothing changed";
	struct nl_sock *a = nl_open(), *b = nl_open();
	uint64_t use0, use1, use2;
	uint32_t plans0, plans1, plans2;
	char saved[32];
	int i, err = 0;

	info(sk, &use0, &plans0);
	read_param("max_file_plans", saved, sizeof(saved));
	if (write_param("max_file_plans", "3"))
		not_ok(name, "cannot set max_file_plans");
	for (i = 0; i < 3 && !err; i++)
		err = nl_create_small(a);
	info(sk, &use1, &plans1);
	if (err) {
		not_ok(name, "create %d: %d '%s'", i, err, R.extack);
	} else if (nl_create_small(a) != -EDQUOT ||
		   !strstr(R.extack, "max_file_plans")) {
		not_ok(name, "4th create: %d '%s'", R.err, R.extack);
	} else {
		info(sk, &use2, &plans2);
		if (use2 != use1 || plans2 != plans1)
			not_ok(name, "use %llu -> %llu, plans %u -> %u",
			       (unsigned long long)use1,
			       (unsigned long long)use2, plans1, plans2);
		else
			ok(name);
	}
	name = "quota: another socket of the same uid still creates";
	if (nl_create_small(b))
		not_ok(name, "%d '%s'", R.err, R.extack);
	else
		ok(name);
	write_param("max_file_plans", saved);
	nl_socket_free(a);
	nl_socket_free(b);
	info(sk, &use1, &plans1);
	name = "quota: closing the sockets gives every plan back";
	if (use1 != use0 || plans1 != plans0)
		not_ok(name, "use %llu -> %llu, plans %u -> %u",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1);
	else
		ok(name);
}

/*
 * A netlink create runs inside the genetlink handler: its planning time is
 * cut to netlink_max_plan_ms whatever budget-ns asks (here 5 s, cut to
 * 100 ms); either a plan in about that time or ETIMEDOUT naming the
 * parameter. A plan must show the cut: not proven optimal (the search did
 * not end by itself) and planned for the cap's 100 ms at least (every good
 * run: 100.1 to 115 ms); a search that ended sooner never met the cap and
 * tested nothing.
 */
static void run_budget_cut(struct nl_sock *sk)
{
	const char *name = "limit: budget-ns of 5 s is cut to netlink_max_plan_ms (100 ms)";
	struct nl_msg *m;
	char saved[32];
	uint32_t i, x = 12345;
	int err;

	read_param("netlink_max_plan_ms", saved, sizeof(saved));
	if (write_param("netlink_max_plan_ms", "100")) {
		not_ok(name, "cannot set netlink_max_plan_ms");
		return;
	}
	m = create_msg(TA_CREATE_LIFETIMES | TA_CREATE_DRY_RUN,
		       TA_STRATEGY_AUTO);
	nla_put_u64(m, TA_NL_A_PLAN_BUDGET_NS, 5000000000ULL);
	for (i = 0; i < 400; i++) {
		x = x * 1103515245 + 12345;
		put_buffer(m, 64 * (1 + (x >> 16) % 97), i / 3,
			   i / 3 + 1 + (x >> 8) % 40);
	}
	err = xfer(sk, m);
	write_param("netlink_max_plan_ms", saved);
	if (err == -ETIMEDOUT && strstr(R.extack, "netlink_max_plan_ms"))
		ok(name);
	else if (err)
		not_ok(name, "error %d '%s'", err, R.extack);
	/* TCG and the debug kernel overshoot a deadline; 5 s would not fit. */
	else if (R.plan_time_ns > 1000000000ULL)
		not_ok(name, "planned for %llu ns",
		       (unsigned long long)R.plan_time_ns);
	else if (R.optimal != 0 || R.plan_time_ns < 100000000ULL)
		not_ok(name, "the cap did not cut: optimal %d, planned for %llu ns",
		       R.optimal, (unsigned long long)R.plan_time_ns);
	else
		ok(name);
	printf("# budget cut: error %d, plan time %llu ns, optimal %d\n", err,
	       (unsigned long long)R.plan_time_ns, R.optimal);
}

static struct nl_sock *identity_sock;

/* Read the rest of a dump root asked for, as uid 1000. */
static int read_dump_as_member(void)
{
	struct nl_sock *sk = identity_sock;

	if (recv_all(sk) || R.n_placed != 3000 || R.n_msgs < 2) {
		printf("# reader: err %d '%s', %u placements in %d messages\n",
		       R.err, R.extack, R.n_placed, R.n_msgs);
		return 1;
	}
	return 0;
}

/*
 * Root asks for the placement dump of its 3000-tensor plan (three or more
 * messages); only the first is made in root's sendmsg(). Another process,
 * uid 1000, which may not see root's plans, reads the socket: the rest of
 * the dump is made in its recvmsg() and must keep root's identity.
 */
static void run_dump_identity(void)
{
	const char *name = "dump continued by another reader (uid 1000) keeps the requester's (root's) identity";
	struct nl_msg *m;
	uint32_t id;

	id = ioctl_create_lifetimes(3000, 0);
	if (!id) {
		not_ok(name, "ioctl create: %s", strerror(errno));
		return;
	}
	identity_sock = nl_open();
	m = id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, id);
	if (nl_send_auto(identity_sock, m) < 0)
		not_ok(name, "send failed");
	else
		report(name, in_child(MEMBER, MEMBER, read_dump_as_member));
	nlmsg_free(m);
	nl_socket_free(identity_sock);
	ioctl_destroy(id);
}

static int hold(void)
{
	uint32_t id;
	char c;

	id = ioctl_create_lifetimes(16, 0);
	if (!id)
		return 1;
	printf("%u\n", id);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static int hold_netlink(void)
{
	struct nl_sock *sk = nl_open();
	struct nl_msg *m;
	uint32_t id;
	char c;

	family = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	if (family < 0)
		return 1;
	m = create_msg(0, TA_STRATEGY_AUTO);
	put_chain(m, 8, 4096);
	if (xfer(sk, m) || !R.plan_id)
		return 1;
	id = R.plan_id;
	printf("%u\n", id);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	printf("after: %d\n", xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id)));
	nl_socket_free(sk);
	return 0;
}

int main(int argc, char **argv)
{
	struct nl_sock *sk;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--hold-netlink"))
		return hold_netlink();
	dev_fd = open("/dev/tensorarena", O_RDWR);
	if (dev_fd < 0) {
		printf("e2e: not ok - nl: open /dev/tensorarena: %s\n",
		       strerror(errno));
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--hold"))
		return hold();
	sk = nl_open();
	family = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	if (family < 0) {
		not_ok("family tensorarena registered", "%s",
		       nl_geterror(family));
		return 1;
	}
	ok("family tensorarena registered");
	run_bad_table(sk);
	run_parity(sk);
	run_export(sk);
	run_tensor_export(sk);
	run_owner_events();
	run_policy(sk);
	run_quota(sk);
	run_budget_cut(sk);
	run_dump_identity();
	nl_socket_free(sk);
	close(dev_fd);
	return failures ? 1 : 0;
}
