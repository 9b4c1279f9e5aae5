// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_access.c - ta_e2e_netlink's access policy and limits (issue
 * #9): who may use the family (the device's group and mode, the opener's
 * and the sender's credentials, network namespaces), max_file_plans per
 * socket, the netlink planning cap, and a dump another process continues.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ta_e2e_nl_fixture.h"

/* ---- the family's policy -------------------------------------------- */

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

/* A child's exit status 0 passes. */
static void check_child(int status, const char *name)
{
	if (status)
		printf("# child status %d\n", status);
	CHECK(status == 0, "nl: %s", name);
}

TEST_F(nl, policy)
{
	uint64_t use0, use1;
	uint32_t plans0, plans1;

	info(self->sk, &use0, &plans0);
	check_child(in_child(OUTSIDER, OUTSIDER, outsider_requests),
		    "policy: uid 2000 (outside the group) -> EPERM for info, create, get, dump, destroy, export, extack names group and mode");
	check_child(in_child(MEMBER, MEMBER, member_requests),
		    "policy: uid 1000 (in the group) may use the family");
	check_child(in_child(0, 0, outsider_opened),
		    "policy: a socket opened by uid 2000 and used by root -> EPERM (the opener counts)");
	check_child(in_child(0, 0, outsider_sends),
		    "policy: a socket opened by root and used by uid 2000 -> EPERM (the sender counts)");
	check_child(in_child(0, 0, child_netns),
		    "policy: from a child network namespace the family does not exist -> ENOENT");
	info(self->sk, &use1, &plans1);
	if (use0 != use1 || plans0 != plans1)
		printf("# use %llu -> %llu, plans %u -> %u\n",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1);
	CHECK(use0 == use1 && plans0 == plans1,
	      "nl: policy: refused requests change nothing; the member's plan died with its socket");
}

/* ---- quotas and limits ---------------------------------------------- */

/* max_file_plans creates on one socket, then EDQUOT; another socket may. */
TEST_F(nl, quota)
{
	const char *name = "nl: quota: max_file_plans (3) creates on one socket, the 4th -> EDQUOT with extack, nothing changed";
	struct nl_sock *sk = self->sk, *a = nl_open(), *b = nl_open();
	uint64_t use0, use1, use2;
	uint32_t plans0, plans1, plans2;
	char saved[32];
	int i, err = 0;

	info(sk, &use0, &plans0);
	read_param("max_file_plans", saved, sizeof(saved));
	if (write_param("max_file_plans", "3")) {
		printf("# cannot set max_file_plans\n");
		CHECK(false, "%s", name);
	}
	for (i = 0; i < 3 && !err; i++)
		err = nl_create_small(a);
	info(sk, &use1, &plans1);
	if (err) {
		printf("# create %d: %d '%s'\n", i, err, R.extack);
		CHECK(false, "%s", name);
	} else if (nl_create_small(a) != -EDQUOT ||
		   !strstr(R.extack, "max_file_plans")) {
		printf("# 4th create: %d '%s'\n", R.err, R.extack);
		CHECK(false, "%s", name);
	} else {
		info(sk, &use2, &plans2);
		if (use2 != use1 || plans2 != plans1)
			printf("# use %llu -> %llu, plans %u -> %u\n",
			       (unsigned long long)use1,
			       (unsigned long long)use2, plans1, plans2);
		CHECK(use2 == use1 && plans2 == plans1, "%s", name);
	}
	err = nl_create_small(b);
	if (err)
		printf("# %d '%s'\n", R.err, R.extack);
	CHECK(!err, "nl: quota: another socket of the same uid still creates");
	write_param("max_file_plans", saved);
	nl_socket_free(a);
	nl_socket_free(b);
	info(sk, &use1, &plans1);
	if (use1 != use0 || plans1 != plans0)
		printf("# use %llu -> %llu, plans %u -> %u\n",
		       (unsigned long long)use0, (unsigned long long)use1,
		       plans0, plans1);
	CHECK(use1 == use0 && plans1 == plans0,
	      "nl: quota: closing the sockets gives every plan back");
}

/*
 * A netlink create runs inside the genetlink handler: its planning time is
 * cut to netlink_max_plan_ms whatever budget-ns asks (here 5 s, cut to
 * 100 ms); either a plan in about that time or ETIMEDOUT naming the
 * parameter. A plan must show the cut: not proven optimal (the search did
 * not end by itself) and planned for at least half the cap. Nearly every
 * run plans for the whole cap (100.1 to 126 ms); auto returns at half of
 * it when its first pass (freelist's) took that long, since the fit
 * engine's setup, about one more such pass, would not fit in the rest
 * (ta_plan_auto()): a 400-buffer pass takes microseconds natively, but
 * once, on the emulated arm64 board beside the rest of make check, the
 * plan came after 52.9 ms. Under 5 s either stop would come later, so
 * both show the cap; a search that ended sooner than half the cap never
 * met it and tested nothing.
 */
TEST_F(nl, budget_cut)
{
	const char *name = "nl: limit: budget-ns of 5 s is cut to netlink_max_plan_ms (100 ms)";
	struct nl_msg *m;
	char saved[32];
	uint32_t i, x = 12345;
	int err;

	read_param("netlink_max_plan_ms", saved, sizeof(saved));
	if (write_param("netlink_max_plan_ms", "100")) {
		printf("# cannot set netlink_max_plan_ms\n");
		CHECK(false, "%s", name);
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
	err = xfer(self->sk, m);
	write_param("netlink_max_plan_ms", saved);
	printf("# budget cut: error %d, plan time %llu ns, optimal %d\n", err,
	       (unsigned long long)R.plan_time_ns, R.optimal);
	if (err == -ETIMEDOUT && strstr(R.extack, "netlink_max_plan_ms")) {
		CHECK(true, "%s", name);
	} else if (err) {
		printf("# error %d '%s'\n", err, R.extack);
		CHECK(false, "%s", name);
	/* TCG and the debug kernel overshoot a deadline; 5 s would not fit. */
	} else if (R.plan_time_ns > 1000000000ULL) {
		printf("# planned for %llu ns\n",
		       (unsigned long long)R.plan_time_ns);
		CHECK(false, "%s", name);
	} else if (R.optimal != 0 || R.plan_time_ns < 50000000ULL) {
		printf("# the cap did not cut: optimal %d, planned for %llu ns\n",
		       R.optimal, (unsigned long long)R.plan_time_ns);
		CHECK(false, "%s", name);
	} else {
		CHECK(true, "%s", name);
	}
}

/* ---- a dump continued by another reader ------------------------------ */

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
TEST_F(nl, dump_identity)
{
	const char *name = "dump continued by another reader (uid 1000) keeps the requester's (root's) identity";
	struct nl_msg *m;
	uint32_t id;

	id = ioctl_create_lifetimes(self->dev, 3000, 0);
	if (!id) {
		printf("# ioctl create: %s\n", strerror(errno));
		CHECK(false, "nl: %s", name);
		return;
	}
	identity_sock = nl_open();
	m = id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, id);
	if (nl_send_auto(identity_sock, m) < 0) {
		printf("# send failed\n");
		CHECK(false, "nl: %s", name);
	} else {
		check_child(in_child(MEMBER, MEMBER, read_dump_as_member), name);
	}
	nlmsg_free(m);
	nl_socket_free(identity_sock);
	ioctl_destroy(self->dev, id);
}
