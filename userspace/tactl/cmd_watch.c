// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_watch.c - tactl watch: print the tensorarena netlink family's events
 * (plan created, plan destroyed, arena pressure) as they come.
 *
 *	tactl watch [--json] [--count N] [--timeout SECONDS]
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include <linux/tensorarena.h>

#include "tactl.h"

struct watch_ctx {
	bool json;
	long seen;
};

static unsigned long long watch_u64(struct nlattr **tb, int a)
{
	return tb[a] ? (unsigned long long)nla_get_u64(tb[a]) : 0;
}

static unsigned int watch_u32(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : 0;
}

static int watch_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[TA_NL_A_PLAN_MAX + TA_NL_A_INFO_MAX + 2];
	struct watch_ctx *ctx = arg;
	const char *what;
	int max;

	switch (gh->cmd) {
	case TA_NL_CMD_PLAN_CREATED_NTF:
		what = "created";
		max = TA_NL_A_PLAN_MAX;
		break;
	case TA_NL_CMD_PLAN_DESTROYED_NTF:
		what = "destroyed";
		max = TA_NL_A_PLAN_MAX;
		break;
	case TA_NL_CMD_PRESSURE_NTF:
		what = "pressure";
		max = TA_NL_A_INFO_MAX;
		break;
	default:
		return NL_SKIP;
	}
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, max, NULL))
		return NL_SKIP;
	ctx->seen++;
	if (gh->cmd == TA_NL_CMD_PRESSURE_NTF) {
		if (ctx->json)
			printf("{\"event\": \"pressure\", \"requested\": %llu, \"bytes_in_use\": %llu, \"largest_free\": %llu, \"arena_size\": %llu}\n",
			       watch_u64(tb, TA_NL_A_INFO_REQUESTED),
			       watch_u64(tb, TA_NL_A_INFO_BYTES_IN_USE),
			       watch_u64(tb, TA_NL_A_INFO_LARGEST_FREE),
			       watch_u64(tb, TA_NL_A_INFO_ARENA_SIZE));
		else
			printf("pressure   requested %llu, in use %llu of %llu, largest free %llu\n",
			       watch_u64(tb, TA_NL_A_INFO_REQUESTED),
			       watch_u64(tb, TA_NL_A_INFO_BYTES_IN_USE),
			       watch_u64(tb, TA_NL_A_INFO_ARENA_SIZE),
			       watch_u64(tb, TA_NL_A_INFO_LARGEST_FREE));
	} else if (ctx->json) {
		printf("{\"event\": \"%s\", \"id\": %u, \"uid\": %u, \"tensors\": %u, \"height\": %llu}\n",
		       what, watch_u32(tb, TA_NL_A_PLAN_PLAN_ID),
		       watch_u32(tb, TA_NL_A_PLAN_UID),
		       watch_u32(tb, TA_NL_A_PLAN_N_TENSORS),
		       watch_u64(tb, TA_NL_A_PLAN_HEIGHT));
	} else {
		printf("%-10s plan %u (uid %u)", what,
		       watch_u32(tb, TA_NL_A_PLAN_PLAN_ID),
		       watch_u32(tb, TA_NL_A_PLAN_UID));
		if (gh->cmd == TA_NL_CMD_PLAN_CREATED_NTF)
			printf(": %u tensors, height %llu",
			       watch_u32(tb, TA_NL_A_PLAN_N_TENSORS),
			       watch_u64(tb, TA_NL_A_PLAN_HEIGHT));
		printf("\n");
	}
	fflush(stdout);
	return NL_OK;
}

int tactl_cmd_watch(int argc, char **argv)
{
	struct watch_ctx ctx = { 0 };
	long count = -1, timeout_s = -1;
	struct nl_sock *sk;
	time_t end = 0;
	int i, grp, err;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			ctx.json = true;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			count = strtol(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			timeout_s = strtol(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: tactl watch [--json] [--count N] [--timeout SECONDS]\n");
			return 2;
		}
	}
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "tactl watch: cannot open a generic netlink socket\n");
		return 1;
	}
	grp = genl_ctrl_resolve_grp(sk, TA_NL_FAMILY_NAME, TA_NL_MCGRP_EVENTS);
	if (grp < 0) {
		fprintf(stderr, "tactl watch: no %s family (is tensorarena.ko loaded?): %s\n",
			TA_NL_FAMILY_NAME, nl_geterror(grp));
		nl_socket_free(sk);
		return 1;
	}
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, watch_event, &ctx);
	err = nl_socket_add_membership(sk, grp);
	if (err) {
		fprintf(stderr, "tactl watch: join events: %s\n", nl_geterror(err));
		nl_socket_free(sk);
		return 1;
	}
	if (timeout_s >= 0)
		end = time(NULL) + timeout_s;
	/* Tell a script that the subscription is in place. */
	fprintf(stderr, "tactl watch: listening\n");
	while (count < 0 || ctx.seen < count) {
		struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
		int wait_ms = -1;

		if (timeout_s >= 0) {
			long left = end - time(NULL);

			if (left <= 0)
				break;
			wait_ms = left * 1000;
		}
		err = poll(&pfd, 1, wait_ms);
		if (err < 0 && errno != EINTR)
			break;
		if (err > 0)
			nl_recvmsgs_default(sk);
	}
	nl_socket_free(sk);
	return count >= 0 && ctx.seen < count ? 1 : 0;
}
