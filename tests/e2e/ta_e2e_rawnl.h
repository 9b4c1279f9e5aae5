/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_rawnl.h - just enough generic netlink for the exhaustion and
 * stress programs, on a raw socket (no libnl: no allocation, no global
 * state, safe in threads and after fork): resolve the family, send one
 * request, read its answer or its dump to the end. Included once per
 * program.
 */
#ifndef TA_E2E_RAWNL_H
#define TA_E2E_RAWNL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/tensorarena.h>

#define RAWNL_BUF	8192

/* A request being built: header, then attributes; nests on a stack. */
struct rawnl_msg {
	union {
		struct nlmsghdr nlh;
		char buf[RAWNL_BUF];
	};
	unsigned int nest[4];
	int depth;
};

/* What an answer carried: error, plans seen in a dump, a few figures. */
struct rawnl_result {
	int err;		/* 0 or -errno of the NLMSG_ERROR */
	unsigned int msgs;	/* data messages (one per plan in a dump) */
	uint32_t plan_id;	/* TA_NL_A_PLAN_PLAN_ID of the last one */
	uint64_t n_plans;	/* TA_NL_A_INFO_N_PLANS, if an INFO reply */
	uint64_t bytes_in_use;	/* TA_NL_A_INFO_BYTES_IN_USE, likewise */
	char msg[256];		/* the error's extack message, or "" */
};

static inline int rawnl_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int one = 1;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static inline void rawnl_init(struct rawnl_msg *m, uint16_t family,
			      uint8_t cmd, uint16_t flags, uint8_t version)
{
	struct genlmsghdr *g;

	memset(&m->nlh, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = family;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = version;
	m->depth = 0;
}

static inline void rawnl_put(struct rawnl_msg *m, uint16_t type,
			     const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->nlh.nlmsg_len);

	if (m->nlh.nlmsg_len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->buf))
		return;	/* the callers' messages are far smaller */
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->nlh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static inline void rawnl_u32(struct rawnl_msg *m, uint16_t type, uint32_t v)
{
	rawnl_put(m, type, &v, sizeof(v));
}

static inline void rawnl_u64(struct rawnl_msg *m, uint16_t type, uint64_t v)
{
	rawnl_put(m, type, &v, sizeof(v));
}

static inline void rawnl_nest(struct rawnl_msg *m, uint16_t type)
{
	m->nest[m->depth++] = m->nlh.nlmsg_len;
	rawnl_put(m, type | NLA_F_NESTED, NULL, 0);
}

static inline void rawnl_nest_end(struct rawnl_msg *m)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->nest[--m->depth]);

	a->nla_len = m->nlh.nlmsg_len - m->nest[m->depth];
}

/* Fold one data message's attributes into @r. */
static inline void rawnl_parse(const struct nlmsghdr *h, struct rawnl_result *r,
			       uint16_t *family_id)
{
	const char *p = (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
	const char *end = (const char *)h + h->nlmsg_len;
	const struct genlmsghdr *g = NLMSG_DATA(h);

	r->msgs++;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;
		const void *d = p + NLA_HDRLEN;
		uint16_t type = a->nla_type & NLA_TYPE_MASK;
		uint64_t v64 = 0;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if (a->nla_len - NLA_HDRLEN == 8)
			memcpy(&v64, d, 8);
		else if (a->nla_len - NLA_HDRLEN == 4)
			v64 = *(const uint32_t *)d;
		if (family_id) {
			if (type == CTRL_ATTR_FAMILY_ID)
				*family_id = *(const uint16_t *)d;
		} else if (g->cmd == TA_NL_CMD_INFO) {
			if (type == TA_NL_A_INFO_N_PLANS)
				r->n_plans = v64;
			if (type == TA_NL_A_INFO_BYTES_IN_USE)
				r->bytes_in_use = v64;
		} else if (type == TA_NL_A_PLAN_PLAN_ID) {
			r->plan_id = (uint32_t)v64;
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/*
 * The extack message of an NLMSG_ERROR into @r->msg. With NETLINK_CAP_ACK
 * the error carries only the request's header, then the TLVs.
 */
static inline void rawnl_extack(const struct nlmsghdr *h, struct rawnl_result *r)
{
	const char *p = (const char *)NLMSG_DATA(h) + sizeof(struct nlmsgerr);
	const char *end = (const char *)h + h->nlmsg_len;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(r->msg, sizeof(r->msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN), p + NLA_HDRLEN);
		p += NLA_ALIGN(a->nla_len);
	}
}

/*
 * Send @m and read until its ACK, error or NLMSG_DONE. Returns 0 or
 * -errno (of the socket, or the kernel's answer, also in @r->err).
 */
static inline int rawnl_xfer_family(int fd, struct rawnl_msg *m,
				    struct rawnl_result *r, uint16_t *family_id)
{
	static __thread char rbuf[32768];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static __thread uint32_t seq;
	bool done = false;

	memset(r, 0, sizeof(*r));
	m->nlh.nlmsg_seq = ++seq;
	if (sendto(fd, m->buf, m->nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return r->err = -errno;
	while (!done) {
		ssize_t n = recv(fd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return r->err = -errno;
		}
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != m->nlh.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				r->err = e->error;
				rawnl_extack(h, r);
				/* A dump's error ends it; an ACK ends a do. */
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				const int *e = NLMSG_DATA(h);

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					r->err = *e;
				done = true;
				break;
			}
			rawnl_parse(h, r, family_id);
		}
	}
	return r->err;
}

static inline int rawnl_xfer(int fd, struct rawnl_msg *m,
			     struct rawnl_result *r)
{
	return rawnl_xfer_family(fd, m, r, NULL);
}

/* The family's ID in the socket's network namespace, or -errno (ENOENT). */
static inline int rawnl_resolve(int fd, const char *name)
{
	struct rawnl_result r;
	struct rawnl_msg m;
	uint16_t id = 0;
	int err;

	rawnl_init(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 1);
	rawnl_put(&m, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	err = rawnl_xfer_family(fd, &m, &r, &id);
	if (err)
		return err;
	return id ? id : -ENOENT;
}

/*
 * A lifetime-form plan of @n buffers of @size bytes, buffer i live over
 * [i, i + 2), created through netlink; the plan dies with the socket.
 * Returns 0 (@r->plan_id set) or -errno.
 */
static inline int rawnl_create(int fd, uint16_t family, uint32_t strategy,
			       unsigned int n, uint64_t size,
			       struct rawnl_result *r)
{
	struct rawnl_msg m;
	unsigned int i;

	rawnl_init(&m, family, TA_NL_CMD_PLAN_CREATE, 0, TA_NL_FAMILY_VERSION);
	rawnl_u32(&m, TA_NL_A_PLAN_FLAGS, TA_CREATE_LIFETIMES);
	rawnl_u32(&m, TA_NL_A_PLAN_STRATEGY, strategy);
	for (i = 0; i < n; i++) {
		rawnl_nest(&m, TA_NL_A_PLAN_BUFFER);
		rawnl_u64(&m, TA_NL_A_BUFFER_SIZE, size);
		rawnl_u32(&m, TA_NL_A_BUFFER_START, i);
		rawnl_u32(&m, TA_NL_A_BUFFER_END, i + 2);
		rawnl_nest_end(&m);
	}
	return rawnl_xfer(fd, &m, r);
}

/* Dump every plan the socket's opener may see: @r->msgs plans. */
static inline int rawnl_dump_plans(int fd, uint16_t family,
				   struct rawnl_result *r)
{
	struct rawnl_msg m;

	rawnl_init(&m, family, TA_NL_CMD_PLAN_GET, NLM_F_DUMP,
		   TA_NL_FAMILY_VERSION);
	return rawnl_xfer(fd, &m, r);
}

static inline int rawnl_info(int fd, uint16_t family, struct rawnl_result *r)
{
	struct rawnl_msg m;

	rawnl_init(&m, family, TA_NL_CMD_INFO, 0, TA_NL_FAMILY_VERSION);
	return rawnl_xfer(fd, &m, r);
}

static inline int rawnl_destroy(int fd, uint16_t family, uint32_t id,
				struct rawnl_result *r)
{
	struct rawnl_msg m;

	rawnl_init(&m, family, TA_NL_CMD_PLAN_DESTROY, 0, TA_NL_FAMILY_VERSION);
	rawnl_u32(&m, TA_NL_A_PLAN_PLAN_ID, id);
	return rawnl_xfer(fd, &m, r);
}

#endif /* TA_E2E_RAWNL_H */
