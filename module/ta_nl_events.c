// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_events.c - the core's events (&ta_device.events) as notifications
 * of the family's events group: plan-created, plan-destroyed, pressure.
 * Nothing is built while nobody listens.
 */
#include <linux/notifier.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "ta_nl.h"
#include "ta_nl_gen.h"

/* Set while the family is registered and the notifier may run. */
static bool ta_nl_registered;

/* A message for the events group, or NULL when nobody listens. */
static struct sk_buff *ta_nl_event_new(u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	if (!READ_ONCE(ta_nl_registered) ||
	    !genl_has_listeners(&ta_nl_family, &init_net,
				TENSORARENA_NLGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &ta_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void ta_nl_event_send(struct sk_buff *msg, void *hdr, int err)
{
	if (err) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&ta_nl_family, msg, 0, TENSORARENA_NLGRP_EVENTS,
			  GFP_KERNEL);
}

static void ta_nl_plan_event(const struct ta_plan_obj *plan, u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = ta_nl_event_new(cmd, &hdr);
	if (!msg)
		return;
	err = nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, plan->id) ||
	      nla_put_u32(msg, TA_NL_A_PLAN_UID,
			  from_kuid_munged(&init_user_ns, plan->uid));
	if (!err && cmd == TA_NL_CMD_PLAN_CREATED_NTF)
		err = nla_put_u32(msg, TA_NL_A_PLAN_N_TENSORS, plan->n_tensors) ||
		      nla_put_u32(msg, TA_NL_A_PLAN_STRATEGY, plan->strategy) ||
		      nla_put_u64_64bit(msg, TA_NL_A_PLAN_HEIGHT, plan->height,
					TA_NL_A_PLAN_PAD);
	ta_nl_event_send(msg, hdr, err);
}

static void ta_nl_pressure_event(struct ta_device *ta, u64 requested)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!requested && ta_arena_in_use(ta) <= ta->size / 8 * 7)
		return;
	msg = ta_nl_event_new(TA_NL_CMD_PRESSURE_NTF, &hdr);
	if (!msg)
		return;
	err = ta_nl_put_info(msg, ta, false);
	if (!err && requested)
		err = nla_put_u64_64bit(msg, TA_NL_A_INFO_REQUESTED, requested,
					TA_NL_A_INFO_PAD);
	ta_nl_event_send(msg, hdr, err);
}

/*
 * The core's events (&ta_device.events), as multicast notifications: a
 * created plan (then pressure too, when the arena's use is above 7/8), a
 * destroyed one, a create that found no room. Process context.
 */
static int ta_nl_core_event(struct notifier_block *nb, unsigned long type,
			    void *data)
{
	const struct ta_event *event = data;

	switch (type) {
	case TA_EVENT_PLAN_CREATED:
		ta_nl_plan_event(event->plan, TA_NL_CMD_PLAN_CREATED_NTF);
		ta_nl_pressure_event(event->ta, 0);
		break;
	case TA_EVENT_PLAN_DESTROYED:
		ta_nl_plan_event(event->plan, TA_NL_CMD_PLAN_DESTROYED_NTF);
		break;
	case TA_EVENT_PRESSURE:
		ta_nl_pressure_event(event->ta, event->requested);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block ta_nl_core_notifier = {
	.notifier_call = ta_nl_core_event,
};

/**
 * ta_nl_events_start() - send the core's events to the events group
 * @ta: the device whose events they are; the family is registered
 *
 * Return: 0 or a negative errno.
 */
int ta_nl_events_start(struct ta_device *ta)
{
	int err;

	WRITE_ONCE(ta_nl_registered, true);
	err = blocking_notifier_chain_register(&ta->events,
					       &ta_nl_core_notifier);
	if (err)
		WRITE_ONCE(ta_nl_registered, false);
	return err;
}

/**
 * ta_nl_events_stop() - stop sending them, before the family goes
 * @ta: the device given to ta_nl_events_start()
 */
void ta_nl_events_stop(struct ta_device *ta)
{
	blocking_notifier_chain_unregister(&ta->events, &ta_nl_core_notifier);
	WRITE_ONCE(ta_nl_registered, false);
}
