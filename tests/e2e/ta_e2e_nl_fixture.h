/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_e2e_nl_fixture.h - the fixture of every ta_e2e_netlink test: its own
 * descriptor of /dev/tensorarena and its own netlink socket, the family
 * resolved on it; both closed after the test.
 */
#ifndef TA_E2E_NL_FIXTURE_H
#define TA_E2E_NL_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ta_harness.h"
#include "ta_e2e_nl.h"

FIXTURE(nl) {
	int dev;		/* /dev/tensorarena */
	struct nl_sock *sk;	/* the family resolved on it */
};

FIXTURE_SETUP(nl)
{
	int id;

	self->dev = open("/dev/tensorarena", O_RDWR);
	if (self->dev < 0) {
		CHECK(false, "nl: open /dev/tensorarena: %s", strerror(errno));
		SKIP("no /dev/tensorarena");
	}
	self->sk = nl_open();
	id = nl_resolve(self->sk);
	if (id < 0) {
		CHECK(false, "nl: resolve the family: %s", nl_geterror(id));
		SKIP("no family " TA_NL_FAMILY_NAME);
	}
}

FIXTURE_TEARDOWN(nl)
{
	if (self->sk)
		nl_socket_free(self->sk);
	if (self->dev >= 0)
		close(self->dev);
}

#endif /* TA_E2E_NL_FIXTURE_H */
