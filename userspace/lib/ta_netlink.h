/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * ta_netlink.h - inside libtensorarena: what the netlink transport's files
 * share. ta_netlink.c holds the socket, the exchange and the plan commands;
 * ta_netlink_group.c the group commands.
 */
#ifndef TA_NETLINK_H
#define TA_NETLINK_H

#include <stddef.h>
#include <stdint.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "ta_client.h"

/* The transport's state (ta_client.nl). */
struct ta_nl {
	struct nl_sock *sk;
	struct nl_cb *cb;	/* ta_nl_xfer()'s callbacks, set per exchange */
	int family;
	int packed;		/* the family takes packed graph arrays */
	char extack[256];	/* the last failure's extack text, or "" */
};

/* The family version that takes packed arrays (tensors-packed...). */
#define TA_NL_PACKED_VERSION	2

#define TA_NL_MAX2(a, b)	((int)(a) > (int)(b) ? (int)(a) : (int)(b))
/* The highest top-level attribute type of any reply. */
#define TA_NL_TB_MAX	TA_NL_MAX2(TA_NL_MAX2(TA_NL_A_PLAN_MAX, TA_NL_A_INFO_MAX), \
				   TA_NL_A_GROUP_MAX)

/*
 * Requests bigger than this do not fit one netlink message with the default
 * socket limits (wmem_max 208 KiB, doubled by SO_SNDBUF): they go through
 * the client's /dev/tensorarena file instead, so the plan is the client's
 * either way (it dies when the client closes).
 */
#define TA_NL_MAX_REQUEST	(400U << 10)

/*
 * The receive buffer, one message a recvmsg(): a dump's messages are at
 * most 32 KiB (the kernel's cap on a dump skb) and every do reply this
 * library asks for is one page (NLMSG_GOODSIZE); the error messages are
 * capped (NETLINK_CAP_ACK).
 */
#define TA_NL_RECV_BUF	(64U << 10)

/* Counts far beyond any module limit fail before a message is built. */
#define TA_NL_MAX_COUNT	(1U << 24)

/* A reply's parser: @tb indexed up to TA_NL_TB_MAX; 0 or -errno. */
typedef int (*ta_nl_parse_fn)(struct nlmsghdr *hdr, struct nlattr **tb,
			      void *arg);

/* The nest types a graph goes in: plan-create's, or a group member's. */
struct ta_nl_graph_attrs {
	int tensor;
	int op;
	int buffer;
	int tensors_packed;
	int ops_packed;
	int refs_packed;
	int buffers_packed;
};

extern const struct ta_nl_graph_attrs ta_nl_plan_graph_attrs;

int ta_nl_xfer(struct ta_nl *nl, struct nl_msg *msg, ta_nl_parse_fn parse,
	       void *arg);
struct nl_msg *ta_nl_msg(struct ta_nl *nl, uint8_t cmd, int flags,
			 size_t size);
uint64_t ta_nl_u64(struct nlattr *a);
uint32_t ta_nl_u32(struct nlattr *a);
int ta_nl_nonzero(const void *p, size_t n);
/*
 * Element @i of a user array of @usize-byte elements, as the @ksize bytes
 * this library knows: a shorter element is zero-extended, a longer one must
 * be zero past @ksize (-E2BIG), as copy_struct_from_user() does.
 */
int ta_nl_elem(const void *base, uint32_t i, uint32_t usize, void *dst,
	       size_t ksize);
int ta_nl_put_graph(struct nl_msg *msg, const struct ta_plan_create *a,
		    const struct ta_nl_graph_attrs *at, int packed);
int ta_nl_put_lifetimes(struct nl_msg *msg, const struct ta_plan_create *a,
			const struct ta_nl_graph_attrs *at, int packed);
uint64_t ta_nl_graph_size(const struct ta_plan_create *a, int packed);

/* ta_netlink_group.c: group-create, group-add, group-get. */
int ta_nl_group_create(struct ta_client *c, struct ta_group_create *args);
int ta_nl_group_add(struct ta_client *c, struct ta_group_add *args);
int ta_nl_group_get(struct ta_client *c, struct ta_group_get *args);

#endif /* TA_NETLINK_H */
