// SPDX-License-Identifier: GPL-2.0
/*
 * ta_e2e_netlink - end-to-end tests of the tensorarena generic netlink
 * family, run in the test VM as root with the module loaded (group=1000).
 * Raw libnl messages, so malformed ones can be sent too. Children switch to
 * uid 1000 (in the device's group) and 2000 (outside it) and to a new
 * network namespace for the access policy.
 *
 *   ta_e2e_netlink [-l] [-t NAME]...
 *                             run the tests (ta_harness.h), each with its
 *                             own descriptor and socket (ta_e2e_nl_fixture.h)
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
 * The tests, by area: the bad-input table (ta_e2e_nl_bad.c), plans across
 * the transports and their owners (ta_e2e_nl_plans.c), plan-export and
 * tensor-export (ta_e2e_nl_export.c), the access policy and limits
 * (ta_e2e_nl_access.c); the client they share is ta_e2e_nl_client.c.
 * One line per check: "e2e: ok - nl: NAME" or "e2e: not ok - nl: NAME",
 * after "# WHY" lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_nl.h"

/* The first test: the controller knows the family (from a socket of its own). */
TEST(family)
{
	struct nl_sock *sk = nl_open();
	int id = nl_resolve(sk);

	if (id < 0)
		printf("# %s\n", nl_geterror(id));
	CHECK(id >= 0, "nl: family tensorarena registered");
	nl_socket_free(sk);
}

static int hold(void)
{
	int dev = open("/dev/tensorarena", O_RDWR);
	uint32_t id;
	char c;

	if (dev < 0) {
		printf("e2e: not ok - nl: open /dev/tensorarena: %s\n",
		       strerror(errno));
		return 1;
	}
	id = ioctl_create_lifetimes(dev, 16, 0);
	if (!id)
		return 1;
	printf("%u\n", id);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	close(dev);
	return 0;
}

static int hold_netlink(void)
{
	struct nl_sock *sk = nl_open();
	struct nl_msg *m;
	uint32_t id;
	char c;

	if (nl_resolve(sk) < 0)
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
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--hold-netlink"))
		return hold_netlink();
	if (argc > 1 && !strcmp(argv[1], "--hold"))
		return hold();
	return ta_harness_main(argc - 1, argv + 1) ? 1 : 0;
}
