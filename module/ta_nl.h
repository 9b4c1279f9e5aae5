/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_nl.h - what the files of the netlink transport share: the family and
 * its device (ta_netlink.c), the request parsers (ta_nl_parse.c), the
 * events (ta_nl_events.c). The handlers are declared by the generated
 * ta_nl_gen.h; ta_internal.h declares ta_netlink_init()/_exit() and the
 * socket owners (ta_nl_owner.c).
 */
#ifndef TA_NL_H
#define TA_NL_H

#include <net/genetlink.h>
#include <net/netlink.h>

#include "ta_internal.h"

/* ta_netlink.c: the family, the device it serves, access and identity */
extern struct genl_family ta_nl_family;
extern struct ta_device *ta_nl_dev;

int ta_nl_check_access(const struct sk_buff *skb,
		       struct netlink_ext_ack *extack);
struct ta_owner ta_nl_caller(const struct sk_buff *skb);
int ta_nl_put_info(struct sk_buff *skb, struct ta_device *ta, bool addresses);

static inline u32 ta_nl_get_u32(const struct nlattr *attr, u32 def)
{
	return attr ? nla_get_u32(attr) : def;
}

static inline u64 ta_nl_get_u64(const struct nlattr *attr, u64 def)
{
	return attr ? nla_get_u64(attr) : def;
}

/**
 * struct ta_nl_graph - where the attributes of one graph are
 * @head: the first attribute of the stream that holds them: a message's
 *	  own attributes (plan-create), or a nest's (a group member)
 * @len: bytes of that stream
 * @tb: the stream parsed by type, to name an attribute at fault
 * @tensor: the type of the stream's tensor nests
 * @op: the type of its op nests
 * @buffer: the type of its buffer nests
 * @tensors_packed: the type of its packed tensor arrays (struct ta_tensor)
 * @ops_packed: of its packed op arrays (struct ta_op)
 * @refs_packed: of its packed reference arrays (u32)
 * @buffers_packed: of its packed buffer arrays (struct ta_lifetime)
 */
struct ta_nl_graph {
	const struct nlattr *head;
	int len;
	struct nlattr *const *tb;
	int tensor;
	int op;
	int buffer;
	int tensors_packed;
	int ops_packed;
	int refs_packed;
	int buffers_packed;
};

/* ta_nl_parse.c: a graph's attributes into a &struct ta_plan_request */
int ta_nl_count(struct netlink_ext_ack *extack, const struct ta_nl_graph *g,
		struct ta_plan_request *req);
int ta_nl_check_shape(struct netlink_ext_ack *extack,
		      struct ta_plan_request *req, u64 budget_ns,
		      u64 budget_steps, unsigned int limit_ms,
		      const struct nlattr *budget_attr,
		      const struct nlattr *align_attr);
int ta_nl_parse_arrays(struct netlink_ext_ack *extack,
		       const struct ta_nl_graph *g,
		       struct ta_plan_request *req);
int ta_nl_parse_fixed(struct genl_info *info, struct ta_plan_request *req);
int ta_nl_parse_tiers(struct genl_info *info, struct ta_plan_request *req);

/* ta_nl_events.c: the core's events as multicast notifications */
int ta_nl_events_start(struct ta_device *ta);
void ta_nl_events_stop(struct ta_device *ta);

#endif /* TA_NL_H */
