/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_client.h - the fixtures of the end-to-end programs on
 * libtensorarena: "ioctl" and "netlink", a client of that transport opened
 * for each test (the check "TRANSPORT: client opens") and closed after.
 * self->c is the client. Included once per program, after ta_harness.h
 * and tensorarena.h.
 */
#ifndef TA_E2E_CLIENT_H
#define TA_E2E_CLIENT_H

static inline void ta_e2e_client_open(struct ta_client **c,
				      enum ta_transport transport,
				      const char *tname)
{
	int err = ta_client_open(transport, c);

	CHECK(!err, "%s: client opens", tname);
	if (err) {
		*c = NULL;
		SKIP("no %s client (%d)", tname, err);
	}
}

static inline void ta_e2e_client_close(struct ta_client *c)
{
	if (c)
		ta_client_close(c);
}

FIXTURE(ioctl) {
	struct ta_client *c;
};

FIXTURE_SETUP(ioctl)
{
	ta_e2e_client_open(&self->c, TA_TRANSPORT_IOCTL, "ioctl");
}

FIXTURE_TEARDOWN(ioctl)
{
	ta_e2e_client_close(self->c);
}

FIXTURE(netlink) {
	struct ta_client *c;
};

FIXTURE_SETUP(netlink)
{
	ta_e2e_client_open(&self->c, TA_TRANSPORT_NETLINK, "netlink");
}

FIXTURE_TEARDOWN(netlink)
{
	ta_e2e_client_close(self->c);
}

#endif /* TA_E2E_CLIENT_H */
