// SPDX-License-Identifier: GPL-2.0
/*
 * ta_netlink_kunit.c - KUnit suite for the netlink transport's socket
 * owners: the records that tie plans to the socket that created them.
 *
 * Port-ID reuse: netlink_release() frees the port ID (netlink_remove())
 * before it runs the NETLINK_URELEASE notifiers, so another socket can bind
 * the same port ID and create plans before the released socket's notifier
 * runs. The suite replays that order with two real (kernel-created) netlink
 * sockets: A creates, A is released, B binds A's port ID and creates, and
 * only then does A's URELEASE arrive. B must not inherit A's record, and
 * A's release must destroy A's plans only.
 *
 * Built into the kernel (kunit.py), the driver's own notifier runs at each
 * sock_release() too: A's record may be freed before B's is made, at the
 * same address. The records are told apart by their keys, numbers each
 * record takes of its own, not by their addresses.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "../ta_internal.h"

/* A port ID no user socket of the test VM picks (autobind uses the pid). */
#define TA_NL_TEST_PORTID	0x7a5e0001

struct ta_nl_fixture {
	struct platform_device *pdev;
	struct ta_device ta;
};

static int ta_nl_init(struct kunit *test)
{
	struct ta_nl_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->pdev = platform_device_register_simple("tensorarena-kunit",
						  PLATFORM_DEVID_AUTO, NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->pdev));
	f->ta.dev = &f->pdev->dev;
	ta_plan_tables_init(&f->ta);
	KUNIT_ASSERT_EQ(test, ta_arena_init(&f->ta, SZ_1M), 0);
	test->priv = f;
	return 0;
}

static void ta_nl_exit(struct kunit *test)
{
	struct ta_nl_fixture *f = test->priv;

	ta_plan_obj_destroy_all(&f->ta);
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), (size_t)0);
	ta_plan_tables_destroy(&f->ta);
	platform_device_unregister(f->pdev);
}

/* A generic netlink socket bound to @portid, as a user's would be. */
static struct socket *ta_nl_socket(struct kunit *test, u32 portid)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_pid = portid,
	};
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW,
					       NETLINK_GENERIC, &sock), 0);
	/*
	 * kernel_bind() takes a struct sockaddr * up to 6.12 and a struct
	 * sockaddr_unsized * in 7.2: a void * converts to either.
	 */
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, (void *)&addr, sizeof(addr)),
			0);
	return sock;
}

/* A plan made as a create from @sock would make it; returns its ID. */
static u32 ta_nl_create(struct kunit *test, struct ta_device *ta,
			struct socket *sock, unsigned long *key)
{
	static const struct ta_buffer buffers[] = {
		{ .size = 4096, .align = 64, .start = 0, .end = 2 },
		{ .size = 4096, .align = 64, .start = 1, .end = 3 },
	};
	struct ta_plan_request req = {
		.flags = TA_CREATE_LIFETIMES,
		.strategy = TA_STRATEGY_GREEDY_SIZE,
		.n_tensors = ARRAY_SIZE(buffers),
	};
	struct ta_plan_summary sum;
	struct ta_owner owner;

	KUNIT_ASSERT_EQ(test, ta_nl_test_owner(ta, sock->sk, TA_NL_TEST_PORTID,
					       &owner), 0);
	*key = owner.key;
	req.buffers = kmemdup(buffers, sizeof(buffers), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req.buffers);
	KUNIT_ASSERT_EQ(test, ta_request_check(&req, 0, 0, 1000), 0);
	KUNIT_ASSERT_EQ(test, ta_plan_obj_create(ta, &owner, &req, &sum), 0);
	ta_request_free(&req);
	return sum.plan_id;
}

static bool ta_nl_plan_exists(struct ta_device *ta, u32 id)
{
	struct ta_owner admin = { .admin = true };
	struct ta_plan_obj *plan = ta_plan_obj_lookup(ta, id, &admin);

	if (IS_ERR(plan))
		return false;
	ta_plan_obj_put(plan);
	return true;
}

static void ta_nl_portid_reuse_test(struct kunit *test)
{
	struct ta_nl_fixture *f = test->priv;
	unsigned long key_a, key_b;
	struct socket *a, *b;
	u32 plan_a, plan_b;

	a = ta_nl_socket(test, TA_NL_TEST_PORTID);
	plan_a = ta_nl_create(test, &f->ta, a, &key_a);
	/* A closes: its port ID is free before its URELEASE is delivered. */
	sock_release(a);

	b = ta_nl_socket(test, TA_NL_TEST_PORTID);
	plan_b = ta_nl_create(test, &f->ta, b, &key_b);
	KUNIT_EXPECT_NE_MSG(test, key_a, key_b,
			    "the new socket inherited the released socket's owner record");
	/* Odd: never the address of a &struct file, the ioctl's keys. */
	KUNIT_EXPECT_TRUE(test, key_a & key_b & 1);

	/* A's NETLINK_URELEASE arrives late. */
	ta_nl_test_release(&f->ta, &init_net, TA_NL_TEST_PORTID);
	KUNIT_EXPECT_FALSE_MSG(test, ta_nl_plan_exists(&f->ta, plan_a),
			       "the released socket's plan survived its release");
	KUNIT_EXPECT_TRUE_MSG(test, ta_nl_plan_exists(&f->ta, plan_b),
			      "the released socket's URELEASE destroyed the live socket's plan");

	/* B's own release destroys B's plan. */
	sock_release(b);
	ta_nl_test_release(&f->ta, &init_net, TA_NL_TEST_PORTID);
	KUNIT_EXPECT_FALSE(test, ta_nl_plan_exists(&f->ta, plan_b));
	KUNIT_EXPECT_EQ(test, ta_arena_in_use(&f->ta), (size_t)0);
}

static struct kunit_case ta_nl_cases[] = {
	KUNIT_CASE(ta_nl_portid_reuse_test),
	{}
};

static struct kunit_suite ta_nl_suite = {
	.name = "tensorarena-netlink",
	.init = ta_nl_init,
	.exit = ta_nl_exit,
	.test_cases = ta_nl_cases,
};

kunit_test_suites(&ta_nl_suite);
