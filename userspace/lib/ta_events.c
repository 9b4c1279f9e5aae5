// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_events.c - libtensorarena: the tensorarena netlink family's events
 * (plan created, plan destroyed, arena pressure), one at a time.
 *
 * A subscription is a generic netlink socket of its own in the family's
 * "events" multicast group. A read from it may hold several messages:
 * they are parsed into a small queue that ta_events_next() hands out.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "tensorarena.h"

#define TA_EVENTS_QUEUE	64

struct ta_events {
	struct nl_sock *sk;
	unsigned int head, count;	/* the queue: a ring */
	int lost;			/* events dropped: queue or socket full */
	struct ta_event queue[TA_EVENTS_QUEUE];
};

static uint64_t ta_ev_u64(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u64(tb[a]) : 0;
}

static uint32_t ta_ev_u32(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : 0;
}

static int ta_events_parse(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[TA_NL_A_PLAN_MAX + TA_NL_A_INFO_MAX + 2];
	struct ta_events *ev = arg;
	struct ta_event e;
	int max = TA_NL_A_PLAN_MAX;

	memset(&e, 0, sizeof(e));
	switch (gh->cmd) {
	case TA_NL_CMD_PLAN_CREATED_NTF:
		e.type = TA_EVENT_PLAN_CREATED;
		break;
	case TA_NL_CMD_PLAN_DESTROYED_NTF:
		e.type = TA_EVENT_PLAN_DESTROYED;
		break;
	case TA_NL_CMD_PRESSURE_NTF:
		e.type = TA_EVENT_PRESSURE;
		max = TA_NL_A_INFO_MAX;
		break;
	default:
		return NL_SKIP;
	}
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, max, NULL))
		return NL_SKIP;
	if (e.type == TA_EVENT_PRESSURE) {
		e.requested = ta_ev_u64(tb, TA_NL_A_INFO_REQUESTED);
		e.bytes_in_use = ta_ev_u64(tb, TA_NL_A_INFO_BYTES_IN_USE);
		e.largest_free = ta_ev_u64(tb, TA_NL_A_INFO_LARGEST_FREE);
		e.arena_size = ta_ev_u64(tb, TA_NL_A_INFO_ARENA_SIZE);
	} else {
		e.plan_id = ta_ev_u32(tb, TA_NL_A_PLAN_PLAN_ID);
		e.uid = ta_ev_u32(tb, TA_NL_A_PLAN_UID);
		e.n_tensors = ta_ev_u32(tb, TA_NL_A_PLAN_N_TENSORS);
		e.height = ta_ev_u64(tb, TA_NL_A_PLAN_HEIGHT);
	}
	if (ev->count == TA_EVENTS_QUEUE) {
		ev->lost = 1;
		return NL_OK;
	}
	ev->queue[(ev->head + ev->count++) % TA_EVENTS_QUEUE] = e;
	return NL_OK;
}

int ta_events_open(struct ta_events **out)
{
	struct ta_events *ev;
	int grp, err;

	*out = NULL;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	err = -ENOMEM;
	ev->sk = nl_socket_alloc();
	if (!ev->sk)
		goto free_ev;
	err = -ECONNREFUSED;
	if (genl_connect(ev->sk))
		goto free_sock;
	grp = genl_ctrl_resolve_grp(ev->sk, TA_NL_FAMILY_NAME,
				    TA_NL_MCGRP_EVENTS);
	if (grp < 0) {
		err = -ENOENT;	/* no family: the module is not loaded */
		goto free_sock;
	}
	nl_socket_disable_seq_check(ev->sk);
	nl_socket_modify_cb(ev->sk, NL_CB_VALID, NL_CB_CUSTOM,
			    ta_events_parse, ev);
	err = -EPERM;
	if (nl_socket_add_membership(ev->sk, grp))
		goto free_sock;
	if (nl_socket_set_nonblocking(ev->sk)) {
		err = -EIO;
		goto free_sock;
	}
	*out = ev;
	return 0;

free_sock:
	nl_socket_free(ev->sk);
free_ev:
	free(ev);
	return err;
}

int ta_events_fd(const struct ta_events *ev)
{
	return nl_socket_get_fd(ev->sk);
}

static int64_t ta_events_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int ta_events_next(struct ta_events *ev, struct ta_event *e, int timeout_ms)
{
	int64_t end = ta_events_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);

	for (;;) {
		struct pollfd pfd = { .fd = ta_events_fd(ev), .events = POLLIN };
		int wait_ms = -1, n, err;

		if (ev->lost) {
			ev->lost = 0;
			return -ENOBUFS;
		}
		if (ev->count) {
			*e = ev->queue[ev->head];
			ev->head = (ev->head + 1) % TA_EVENTS_QUEUE;
			ev->count--;
			return 1;
		}
		if (timeout_ms >= 0) {
			int64_t left = end - ta_events_now_ms();

			wait_ms = left > 0 ? (int)left : 0;
		}
		n = poll(&pfd, 1, wait_ms);
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		err = nl_recvmsgs_default(ev->sk);
		/* the socket's buffer overflowed: say events were lost */
		if (err == -NLE_NOMEM || err == -NLE_MSG_OVERFLOW)
			ev->lost = 1;
		else if (err < 0 && err != -NLE_AGAIN)
			return -EIO;
	}
}

void ta_events_close(struct ta_events *ev)
{
	if (!ev)
		return;
	nl_socket_free(ev->sk);
	free(ev);
}
