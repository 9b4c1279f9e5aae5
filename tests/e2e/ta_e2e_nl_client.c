// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_client.c - the raw libnl client of ta_e2e_netlink and the
 * ioctl, parameter and descriptor helpers its tests compare against
 * (ta_e2e_nl.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "ta_harness.h"
#include "ta_e2e_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

struct reply R;
int family;
struct ta_placement ioc_place[MAX_PLACEMENTS];

/* ---- replies -------------------------------------------------------- */

static uint64_t get64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint32_t get32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

int nl_valid_cb(struct nl_msg *msg, void *arg)
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
	if (g->cmd == TA_NL_CMD_GROUP_CREATE || g->cmd == TA_NL_CMD_GROUP_ADD ||
	    g->cmd == TA_NL_CMD_GROUP_GET) {
		struct nlattr *tg[TA_NL_A_GROUP_MAX + 1];

		genlmsg_parse(nlmsg_hdr(msg), 0, tg, TA_NL_A_GROUP_MAX, NULL);
		r->group_id = get32(tg[TA_NL_A_GROUP_GROUP_ID]);
		r->n_members = get32(tg[TA_NL_A_GROUP_N_MEMBERS]);
		r->n_lanes = get32(tg[TA_NL_A_GROUP_N_LANES]);
		r->height = get64(tg[TA_NL_A_GROUP_HEIGHT]);
		r->lower_bound = get64(tg[TA_NL_A_GROUP_LOWER_BOUND]);
		r->slice_size = get64(tg[TA_NL_A_GROUP_SLICE_SIZE]);
		r->mmap_offset = get64(tg[TA_NL_A_GROUP_MMAP_OFFSET]);
		r->optimal = tg[TA_NL_A_GROUP_OPTIMAL] ?
			nla_get_u8(tg[TA_NL_A_GROUP_OPTIMAL]) : -1;
		r->n_member_ids = 0;
		nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem)
			if (nla_type(a) == TA_NL_A_GROUP_MEMBER_PLAN_ID &&
			    r->n_member_ids < TA_GROUP_MAX_MEMBERS)
				r->member_ids[r->n_member_ids++] = nla_get_u32(a);
		return NL_OK;
	}
	genlmsg_parse(nlmsg_hdr(msg), 0, tb, TA_NL_A_PLAN_MAX, NULL);
	r->plan_id = get32(tb[TA_NL_A_PLAN_PLAN_ID]);
	r->n_tensors = get32(tb[TA_NL_A_PLAN_N_TENSORS]);
	r->strategy = get32(tb[TA_NL_A_PLAN_STRATEGY]);
	r->height = get64(tb[TA_NL_A_PLAN_HEIGHT]);
	r->lower_bound = get64(tb[TA_NL_A_PLAN_LOWER_BOUND]);
	r->mmap_offset = get64(tb[TA_NL_A_PLAN_MMAP_OFFSET]);
	r->n_fast = get32(tb[TA_NL_A_PLAN_N_FAST]);
	r->fast_capacity = get64(tb[TA_NL_A_PLAN_FAST_CAPACITY]);
	r->fast_height = get64(tb[TA_NL_A_PLAN_FAST_HEIGHT]);
	r->fast_mmap_offset = get64(tb[TA_NL_A_PLAN_FAST_MMAP_OFFSET]);
	r->weight_fast = get64(tb[TA_NL_A_PLAN_WEIGHT_FAST]);
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
				if (nla_type(pa) == TA_NL_A_PLACEMENT_TIER)
					r->place[i].tier = nla_get_u32(pa);
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

/* ---- requests ------------------------------------------------------- */

struct nl_sock *nl_open(void)
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

int nl_resolve(struct nl_sock *sk)
{
	family = genl_ctrl_resolve(sk, TA_NL_FAMILY_NAME);
	return family;
}

struct nl_msg *msg_new(uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc_size(1 << 20);

	genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
		    TA_NL_FAMILY_VERSION);
	return m;
}

/* Read until ACK/error/DONE; the result is in R. */
int recv_all(struct nl_sock *sk)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	memset(&R, 0, sizeof(R));
	R.fd = -1;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, nl_valid_cb, &R);
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
int xfer(struct nl_sock *sk, struct nl_msg *m)
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

struct nlattr *nest(struct nl_msg *m, int type)
{
	return nla_nest_start(m, type | NLA_F_NESTED);
}

void put_tensor(struct nl_msg *m, uint64_t size, uint64_t align,
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

void put_op(struct nl_msg *m, int in, int out)
{
	struct nlattr *n = nest(m, TA_NL_A_PLAN_OP);

	if (in >= 0)
		nla_put_u32(m, TA_NL_A_OP_INPUT, in);
	if (out >= 0)
		nla_put_u32(m, TA_NL_A_OP_OUTPUT, out);
	nla_nest_end(m, n);
}

void put_buffer(struct nl_msg *m, uint64_t size, uint32_t start,
		uint32_t end)
{
	struct nlattr *n = nest(m, TA_NL_A_PLAN_BUFFER);

	nla_put_u64(m, TA_NL_A_BUFFER_SIZE, size);
	nla_put_u32(m, TA_NL_A_BUFFER_START, start);
	nla_put_u32(m, TA_NL_A_BUFFER_END, end);
	nla_nest_end(m, n);
}

/* A valid chain graph of @n tensors: op i reads tensor i, writes i + 1. */
void put_chain(struct nl_msg *m, int n, uint64_t size)
{
	int i;

	for (i = 0; i < n; i++)
		put_tensor(m, size + 64 * (i % 5), 0,
			   i == 0 ? TA_TENSOR_INPUT :
			   i == n - 1 ? TA_TENSOR_OUTPUT : 0);
	for (i = 0; i + 1 < n; i++)
		put_op(m, i, i + 1);
}

struct nl_msg *create_msg(uint32_t flags, uint32_t strategy)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_PLAN_CREATE, 0);

	nla_put_u32(m, TA_NL_A_PLAN_FLAGS, flags);
	nla_put_u32(m, TA_NL_A_PLAN_STRATEGY, strategy);
	return m;
}

struct nl_msg *id_msg(uint8_t cmd, int flags, uint32_t id)
{
	struct nl_msg *m = msg_new(cmd, flags);

	nla_put_u32(m, TA_NL_A_PLAN_PLAN_ID, id);
	return m;
}

struct nl_msg *export_msg(uint32_t id, uint32_t flags)
{
	struct nl_msg *m = id_msg(TA_NL_CMD_PLAN_EXPORT, 0, id);

	nla_put_u32(m, TA_NL_A_PLAN_EXPORT_FLAGS, flags);
	return m;
}

struct nl_msg *tx_msg(uint32_t id, uint32_t tensor, uint32_t flags)
{
	struct nl_msg *m = msg_new(TA_NL_CMD_TENSOR_EXPORT, 0);

	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_PLAN_ID, id);
	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_TENSOR, tensor);
	nla_put_u32(m, TA_NL_A_TENSOR_EXPORT_FLAGS, flags);
	return m;
}

/* Export @id over @sk with @flags; the descriptor or -errno. */
int nl_export(struct nl_sock *sk, uint32_t id, uint32_t flags)
{
	xfer(sk, export_msg(id, flags));
	if (R.err)
		return R.err;
	return R.plan_id == id && R.fd >= 0 ? R.fd : -EPROTO;
}

int nl_create_small(struct nl_sock *sk)
{
	struct nl_msg *m = create_msg(TA_CREATE_LIFETIMES,
				      TA_STRATEGY_GREEDY_SIZE);

	put_buffer(m, 4096, 0, 1);
	return xfer(sk, m);
}

/* ---- readings ------------------------------------------------------- */

/*
 * The arena's use and plan count through INFO. A failed GET would read as
 * zeros (and two failed ones as "nothing changed"): it is a failure of its
 * own, and the values are ones no comparison takes for a real reading.
 */
void info(struct nl_sock *sk, uint64_t *in_use, uint32_t *n_plans)
{
	static unsigned int calls;
	int err = xfer(sk, msg_new(TA_NL_CMD_INFO, 0));

	calls++;
	if (err || R.cmd != TA_NL_CMD_INFO || !R.arena_size) {
		printf("# call %u: error %d '%s', cmd %u, arena_size %llu\n",
		       calls, err, R.extack, R.cmd,
		       (unsigned long long)R.arena_size);
		CHECK(false, "nl: info: INFO request");
		*in_use = UINT64_MAX - calls;
		*n_plans = UINT32_MAX - calls;
		return;
	}
	*in_use = R.bytes_in_use;
	*n_plans = R.n_plans;
}

/* The number of plans a dump lists; a failed dump fails and reads as none. */
uint32_t list_count(struct nl_sock *sk)
{
	int err = xfer(sk, msg_new(TA_NL_CMD_PLAN_GET, NLM_F_DUMP));

	if (err) {
		printf("# error %d '%s'\n", err, R.extack);
		CHECK(false, "nl: list: PLAN_GET dump");
		return UINT32_MAX;
	}
	return R.n_ids;
}

uint32_t sock_drops(struct nl_sock *sk)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mem);

	getsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_MEMINFO, mem, &len);
	return mem[SK_MEMINFO_DROPS];
}

/* ---- the ioctl transport ------------------------------------------- */

/* A plan of one buffer of @size bytes through the ioctl (0 on failure). */
uint32_t ioctl_create_one(int dev, uint64_t size)
{
	struct ta_lifetime lt = { .size = size, .start = 0, .end = 1 };
	struct ta_plan_create c = { 0 };

	c.flags = TA_CREATE_LIFETIMES;
	c.strategy = TA_STRATEGY_GREEDY_SIZE;
	c.tensors = (uintptr_t)&lt;
	c.n_tensors = 1;
	c.tensor_size = sizeof(lt);
	if (ioctl(dev, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

uint32_t ioctl_create_exportable(int dev)
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
	if (ioctl(dev, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

uint32_t ioctl_create_lifetimes(int dev, uint32_t n, int dry)
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
	if (ioctl(dev, TA_IOCTL_PLAN_CREATE, &c))
		return 0;
	return c.plan_id;
}

void ioctl_destroy(int dev, uint32_t id)
{
	struct ta_plan_destroy d = { .plan_id = id };

	ioctl(dev, TA_IOCTL_PLAN_DESTROY, &d);
}

int ioctl_get(int dev, uint32_t id, struct ta_plan_get *g)
{
	memset(g, 0, sizeof(*g));
	g->plan_id = id;
	g->placements = (uintptr_t)ioc_place;
	g->n_placements = MAX_PLACEMENTS;
	g->placement_size = sizeof(struct ta_placement);
	return ioctl(dev, TA_IOCTL_PLAN_GET, g) ? -errno : 0;
}

/* The placements of both transports: offset, size and tier. */
int same_placements(uint32_t n)
{
	uint32_t i;

	if (n > MAX_PLACEMENTS)
		return 0;
	for (i = 0; i < n; i++)
		if (R.place[i].offset != ioc_place[i].offset ||
		    R.place[i].size != ioc_place[i].size ||
		    R.place[i].tier != ioc_place[i].tier)
			return 0;
	return 1;
}

/* ---- parameters and descriptors ------------------------------------ */

int write_param(const char *name, const char *val)
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

void read_param(const char *name, char *buf, size_t len)
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

/* Descriptors open in this process. */
int count_fds(void)
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

/* /proc/self/fdinfo/@fd has a line starting with @line. */
int fdinfo_has(int fd, const char *line)
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

int dmabuf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync s = { .flags = flags };

	return ioctl(fd, DMA_BUF_IOCTL_SYNC, &s) ? -errno : 0;
}
