// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_nl_plans.c - ta_e2e_netlink's plans across the transports and
 * their owners: a plan made over netlink reads the same through the ioctl
 * and back (a large one only through the dump), a socket's close destroys
 * its plans, and the events group tells of creates, destroys and pressure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "ta_e2e_nl_fixture.h"

/* netlink -> ioctl, and a destroy over netlink the ioctl sees. */
TEST_F(nl, parity)
{
	const char *name = "nl: parity: plan made over netlink reads the same through the ioctl";
	struct nl_sock *sk = self->sk;
	struct ta_plan_get g;
	struct nl_msg *m;
	uint32_t id;
	int err;

	m = create_msg(0, TA_STRATEGY_GREEDY_SIZE);
	put_chain(m, 40, 4096);
	if (xfer(sk, m) || !R.plan_id) {
		printf("# create: %d %s\n", R.err, R.extack);
		CHECK(false, "%s", name);
		return;
	}
	id = R.plan_id;
	if (xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id)) || R.n_placed != 40) {
		printf("# netlink get: %d %s, %u placements\n", R.err,
		       R.extack, R.n_placed);
		CHECK(false, "%s", name);
	} else if (ioctl_get(self->dev, id, &g)) {
		printf("# ioctl get: %s\n", strerror(errno));
		CHECK(false, "%s", name);
	} else if (g.n_placements != 40 || g.height != R.height ||
		   g.strategy != R.strategy || !same_placements(40)) {
		printf("# ioctl: %u placements, height %llu vs %llu\n",
		       g.n_placements, (unsigned long long)g.height,
		       (unsigned long long)R.height);
		CHECK(false, "%s", name);
	} else {
		CHECK(true, "%s", name);
	}
	err = xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));
	if (err || ioctl_get(self->dev, id, &g) != -ENOENT)
		printf("# destroy %d, ioctl get still works\n", err);
	CHECK(!err && ioctl_get(self->dev, id, &g) == -ENOENT,
	      "nl: plan-destroy over netlink: the ioctl no longer sees it");
}

/*
 * Issue 29: tiered creates over netlink. Without a fast tier, ENODEV with
 * the reason; with one (ta_e2e_netlink -t nl.tiered, run by
 * vm-tests.sh's run_tier_tests with sram_size=1M), a tiered plan whose
 * figures and placements (with their tiers) match the ioctl's, its fast
 * slice exported (plan-export's fast flag), and each refusal with its
 * errno and extack message.
 */
static struct nl_msg *tiered_msg(uint64_t capacity)
{
	struct nl_msg *m = create_msg(TA_CREATE_TIERED, TA_STRATEGY_AUTO);

	put_chain(m, 6, 4096);
	nla_put_u64(m, TA_NL_A_PLAN_FAST_CAPACITY, capacity);
	return m;
}

TEST_F(nl, tiered)
{
	struct nl_sock *sk = self->sk;
	struct ta_info inf = { 0 };
	uint32_t pins[6] = { TA_TIER_FAST }, bad_pins[6] = { 0, 3 };
	struct ta_plan_get g;
	struct nl_msg *m;
	unsigned int i, n_fast = 0, ran = 0;
	off_t size;
	uint32_t id;
	int fd;

	ioctl(self->dev, TA_IOCTL_INFO, &inf);
	if (!inf.fast_size) {
		xfer(sk, tiered_msg(16384));
		CHECK(R.err == -ENODEV && strstr(R.extack, "no fast tier"),
		      "nl: tiered create without a fast tier: ENODEV, '%s' (%d)",
		      R.extack, R.err);
		m = create_msg(0, TA_STRATEGY_AUTO);
		put_chain(m, 6, 4096);
		nla_put_u64(m, TA_NL_A_PLAN_FAST_CAPACITY, 16384);
		xfer(sk, m);
		CHECK(R.err == -EINVAL && strstr(R.extack, "need the tiered flag"),
		      "nl: fast-capacity without the tiered flag: EINVAL, '%s'",
		      R.extack);
		return;
	}
	xfer(sk, tiered_msg(16384));
	id = R.plan_id;
	CHECK(!R.err && id && R.fast_capacity == 16384 && R.n_fast > 0 &&
	      R.fast_height > 0 && R.fast_height <= 16384 &&
	      R.fast_mmap_offset && R.weight_fast > 0,
	      "nl: tiered create: %u tensors fast, fast height %llu (%d %s)",
	      R.n_fast, (unsigned long long)R.fast_height, R.err, R.extack);
	if (!id)
		return;
	xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id));
	for (i = 0; i < 6 && i < R.n_placed; i++)
		n_fast += R.place[i].tier == TA_TIER_FAST;
	CHECK(!R.err && R.n_placed == 6 && n_fast == R.n_fast &&
	      R.fast_capacity == 16384 && !ioctl_get(self->dev, id, &g) &&
	      g.fast_height == R.fast_height && g.n_fast == R.n_fast &&
	      same_placements(6),
	      "nl: plan-get of the tiered plan: its figures and placements (tiers too) are the ioctl's");
	fd = nl_export(sk, id, TA_EXPORT_FAST | TA_EXPORT_CLOEXEC);
	size = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	CHECK(fd >= 0 && size > 0 && (uint64_t)size >= g.fast_height &&
	      size % sysconf(_SC_PAGESIZE) == 0 &&
	      (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	      "nl: plan-export with the fast flag: a close-on-exec dma-buf of the fast slice (%lld bytes for a fast height of %llu; %d)",
	      (long long)size, (unsigned long long)g.fast_height, fd);
	if (fd >= 0)
		close(fd);
	xfer(sk, id_msg(TA_NL_CMD_PLAN_DESTROY, 0, id));

	for (i = 0; i < 5; i++) {
		const char *what = "", *says = "";
		int want = -EINVAL;

		m = tiered_msg(i == 0 ? 0 : i == 1 ? inf.fast_size + 4096 : 4000);
		switch (i) {
		case 0:
			what = "fast-capacity 0";
			says = "fast-capacity must be";
			break;
		case 1:
			what = "fast-capacity above the fast tier";
			says = "fast-capacity must be";
			break;
		case 2:
			what = "tensor 0 (4096 bytes) pinned fast, capacity 4000";
			nla_put(m, TA_NL_A_PLAN_TIER_PINS, sizeof(pins), pins);
			want = -ENOSPC;
			says = "tensor 0";
			break;
		case 3:
			what = "tier-pins of the wrong length";
			nla_put(m, TA_NL_A_PLAN_TIER_PINS, 8, pins);
			says = "one u32 per tensor";
			break;
		case 4:
			what = "an unknown pin";
			nla_put(m, TA_NL_A_PLAN_TIER_PINS, sizeof(bad_pins),
				bad_pins);
			says = "a pin is not";
			break;
		}
		xfer(sk, m);
		/* 6.1 cannot format an extack message: a fixed sentence */
		if (i == 2 && strstr(R.extack, "pins cannot be met"))
			says = "pins cannot be met";
		/* the extack text is not in the name: it differs on 6.1 */
		printf("# extack: '%s', expected '%s'\n", R.extack, says);
		CHECK(R.err == want && strstr(R.extack, says) && !R.plan_id,
		      "nl: tiered create, %s: %s and its extack (got %d)", what,
		      strerror(-want), R.err);
		ran++;
	}
	CHECK(ran == 5, "nl: the tiered refusal table ran %u cases", ran);
}

/* ioctl -> netlink, large: the do refuses, the dump delivers. */
TEST_F(nl, parity_large)
{
	const char *name = "nl: parity: 3000-tensor ioctl plan, netlink dump with plan-id";
	struct nl_sock *sk = self->sk;
	struct ta_plan_get g;
	uint32_t id, n = 3000;
	int good;

	id = ioctl_create_lifetimes(self->dev, n, 0);
	if (!id) {
		printf("# ioctl create: %s\n", strerror(errno));
		CHECK(false, "%s", name);
		return;
	}
	ioctl_get(self->dev, id, &g);
	xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, NLM_F_DUMP, id));
	good = !R.err && R.n_placed == n && same_placements(n) && R.n_msgs >= 2;
	if (!good)
		printf("# err %d %s, %u placements in %d messages\n", R.err,
		       R.extack, R.n_placed, R.n_msgs);
	CHECK(good, "%s", name);
	xfer(sk, id_msg(TA_NL_CMD_PLAN_GET, 0, id));
	good = R.err == -EMSGSIZE && strstr(R.extack, "dump plan-get");
	if (!good)
		printf("# err %d '%s'\n", R.err, R.extack);
	CHECK(good, "nl: plan-get do of a 3000-tensor plan -> EMSGSIZE with advice");
	xfer(sk, msg_new(TA_NL_CMD_PLAN_GET, NLM_F_DUMP));
	good = !R.err && R.n_ids >= 1 && R.ids[R.n_ids - 1] == id;
	if (!good)
		printf("# err %d, %u listed\n", R.err, R.n_ids);
	CHECK(good, "nl: plan dump lists the ioctl plan");
	ioctl_destroy(self->dev, id);
}

static int seq_ok(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/*
 * A socket's close destroys its plans; a listener of the events group
 * hears of the create and the destroy, and of the pressure of a plan
 * taller than the arena (ENOSPC), with the height it asked for.
 */
TEST_F(nl, owner_events)
{
	struct nl_sock *a = nl_open(), *ev = nl_open();
	int grp = genl_ctrl_resolve_grp(a, TA_NL_FAMILY_NAME,
					TA_NL_MCGRP_EVENTS);
	uint64_t use0, use1;
	uint32_t plans0, plans1, id, created = 0, destroyed = 0;
	int i, pressure = 0, good;
	struct ta_plan_get g;
	struct nl_cb *cb;
	struct nl_msg *m;

	info(a, &use0, &plans0);
	if (grp < 0 || nl_socket_add_membership(ev, grp) < 0) {
		printf("# cannot join the events group (%d)\n", grp);
		CHECK(false, "nl: events: created and destroyed delivered");
		grp = -1;
	}
	m = create_msg(0, TA_STRATEGY_AUTO);
	put_chain(m, 10, 8192);
	if (xfer(a, m) || !R.plan_id) {
		printf("# create: %d %s\n", R.err, R.extack);
		CHECK(false, "nl: socket close destroys its plans");
		nl_socket_free(a);
		nl_socket_free(ev);
		return;
	}
	id = R.plan_id;
	nl_socket_free(a);	/* closing the socket destroys the plan */
	a = nl_open();
	info(a, &use1, &plans1);
	good = ioctl_get(self->dev, id, &g) == -ENOENT && use1 == use0 &&
	       plans1 == plans0;
	if (!good)
		printf("# plan %u still there (use %llu -> %llu)\n", id,
		       (unsigned long long)use0, (unsigned long long)use1);
	CHECK(good, "nl: socket close destroys its plans");

	/* a plan taller than the arena: ENOSPC and a pressure event */
	m = create_msg(TA_CREATE_LIFETIMES, 0);
	put_buffer(m, 1ULL << 40, 0, 1);
	xfer(a, m);

	if (grp >= 0) {
		cb = nl_cb_alloc(NL_CB_DEFAULT);
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, nl_valid_cb, &R);
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
		if (!created || !destroyed)
			printf("# created %d destroyed %d\n", created, destroyed);
		CHECK(created && destroyed,
		      "nl: events: created and destroyed delivered");
		if (!pressure)
			printf("# no pressure event\n");
		CHECK(pressure,
		      "nl: events: pressure on ENOSPC carries the requested height");
	}
	nl_socket_free(a);
	nl_socket_free(ev);
}
