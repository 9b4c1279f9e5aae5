// SPDX-License-Identifier: GPL-2.0
/*
 * ta_nl_owner.c - the netlink sockets that own plans.
 *
 * A plan created over netlink belongs to the sending socket. Each socket
 * that created a plan gets a &struct ta_nl_owner, found by the socket
 * itself (its &struct sock, referenced by the record), never by its port
 * ID: netlink_release() frees the port ID before NETLINK_URELEASE is
 * delivered, so another socket may bind the same port ID and create plans
 * before the released socket's notifier runs. Each record takes a key of
 * its own, the plans' owner key: an odd number from a counter, so it is
 * never the key of another record, even one that had the same address
 * before it was freed, and never a &struct file (the ioctl transport's
 * keys, aligned addresses). The URELEASE notifier gives only
 * (netns, port ID): it frees the records of that port ID whose socket is
 * dead (SOCK_DEAD, set by netlink_release() before the notifier runs), and
 * destroys their plans; a live socket's record with the same port ID is
 * left alone.
 *
 * Netlink sockets hold no module reference, so records may be left when
 * the family goes: ta_nl_owners_destroy() destroys their plans, then frees
 * them (a plan points at its record's count, &ta_owner.n_plans).
 *
 * Locking: ta_nl_owners_lock guards the record list; the plans are the
 * core's (ta_plan_obj.c), with its own locking.
 */
#include <linux/cred.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

/**
 * struct ta_nl_owner - a netlink socket that owns plans
 * @node: in ta_nl_owners
 * @sk: the socket, referenced (sock_hold()) while the record exists, so
 *	its address cannot be reused by another socket meanwhile
 * @net: the socket's network namespace
 * @portid: the socket's port ID when it created its first plan
 * @ta: the device whose table holds its plans
 * @key: its plans' owner key (&ta_owner.key), odd and its own
 * @n_plans: its plans in the table (&ta_owner.n_plans)
 */
struct ta_nl_owner {
	struct list_head node;
	struct sock *sk;
	possible_net_t net;
	u32 portid;
	struct ta_device *ta;
	unsigned long key;
	unsigned int n_plans;
};

static LIST_HEAD(ta_nl_owners);
static DEFINE_MUTEX(ta_nl_owners_lock);
/* The keys given so far, under ta_nl_owners_lock. */
static unsigned long ta_nl_owners_keys;
/* The device whose plans the records own (the family's). */
static struct ta_device *ta_nl_owners_dev;

/*
 * The record of @sk (the sending socket, bound to @portid), made on its
 * first create of a plan in @ta. The sender is alive: the request runs in
 * its sendmsg(), which holds the socket's file.
 */
static struct ta_nl_owner *ta_nl_owner_get(struct ta_device *ta,
					   struct sock *sk, u32 portid)
{
	struct ta_nl_owner *owner;

	mutex_lock(&ta_nl_owners_lock);
	list_for_each_entry(owner, &ta_nl_owners, node)
		if (owner->sk == sk)
			goto out;
	owner = kzalloc_obj(*owner, GFP_KERNEL_ACCOUNT);
	if (owner) {
		sock_hold(sk);
		owner->sk = sk;
		write_pnet(&owner->net, sock_net(sk));
		owner->portid = portid;
		owner->ta = ta;
		/* Odd: never an aligned address, a &struct file's key. */
		owner->key = ++ta_nl_owners_keys << 1 | 1;
		list_add(&owner->node, &ta_nl_owners);
	}
out:
	mutex_unlock(&ta_nl_owners_lock);
	return owner;
}

static void ta_nl_owner_free(struct ta_nl_owner *owner)
{
	sock_put(owner->sk);
	kfree(owner);
}

/**
 * ta_nl_owner_attach() - make the sending socket the owner of a create
 * @sk: the sending socket (NETLINK_CB(skb).sk), alive for the request
 * @portid: its port ID (&genl_info.snd_portid)
 * @caller: the request's identity; its key and plan count are set to the
 *	    socket's record, made on the socket's first create
 *
 * Return: 0, or -ENOMEM when the record could not be made.
 */
int ta_nl_owner_attach(struct sock *sk, u32 portid, struct ta_owner *caller)
{
	struct ta_nl_owner *owner = ta_nl_owner_get(ta_nl_owners_dev, sk,
						    portid);

	if (!owner)
		return -ENOMEM;
	caller->key = owner->key;
	caller->n_plans = &owner->n_plans;
	return 0;
}

/*
 * NETLINK_URELEASE: a socket of @n->portid was released. Its records are
 * the ones of that port ID whose socket is dead; a socket that bound the
 * same port ID since is alive, and keeps its record and its plans.
 */
static int ta_nl_release(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct netlink_notify *n = ptr;
	struct ta_nl_owner *owner, *next;
	LIST_HEAD(released);

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC)
		return NOTIFY_DONE;
	mutex_lock(&ta_nl_owners_lock);
	list_for_each_entry_safe(owner, next, &ta_nl_owners, node)
		if (owner->portid == n->portid &&
		    net_eq(read_pnet(&owner->net), n->net) &&
		    sock_flag(owner->sk, SOCK_DEAD))
			list_move(&owner->node, &released);
	mutex_unlock(&ta_nl_owners_lock);
	list_for_each_entry_safe(owner, next, &released, node) {
		ta_plan_obj_release_owner(owner->ta, owner->key,
					  &owner->n_plans);
		ta_nl_owner_free(owner);
	}
	return NOTIFY_DONE;
}

static struct notifier_block ta_nl_notifier = {
	.notifier_call = ta_nl_release,
};

/**
 * ta_nl_owners_init() - watch the release of the sockets that own plans
 * @ta: the device whose plans the sockets create
 *
 * Called before the family is registered, so that no socket can own a
 * plan whose release goes unseen.
 *
 * Return: 0 or a negative errno.
 */
int ta_nl_owners_init(struct ta_device *ta)
{
	ta_nl_owners_dev = ta;
	return netlink_register_notifier(&ta_nl_notifier);
}

/**
 * ta_nl_owners_stop() - stop watching the sockets' release
 *
 * Called before the family is unregistered (ta_netlink_exit()); the
 * records left are destroyed by ta_nl_owners_destroy() once it is.
 */
void ta_nl_owners_stop(void)
{
	netlink_unregister_notifier(&ta_nl_notifier);
}

/**
 * ta_nl_owners_destroy() - destroy the records left and their plans
 * @ta: the device given to ta_nl_owners_init(); each record's plans are
 *	destroyed in the device it recorded, which is @ta for the family's
 *
 * Called once the family and the release notifier are unregistered, so no
 * op is in flight and none can start, and no release can run. Each plan
 * points at its owner record (&ta_owner.n_plans), so the plans are
 * destroyed before the record is freed, as the socket's own release would.
 */
void ta_nl_owners_destroy(struct ta_device *ta)
{
	struct ta_nl_owner *owner, *next;
	LIST_HEAD(owners);

	mutex_lock(&ta_nl_owners_lock);
	list_splice_init(&ta_nl_owners, &owners);
	mutex_unlock(&ta_nl_owners_lock);
	list_for_each_entry_safe(owner, next, &owners, node) {
		list_del(&owner->node);
		ta_plan_obj_release_owner(owner->ta, owner->key,
					  &owner->n_plans);
		ta_nl_owner_free(owner);
	}
}

#ifdef TA_TEST_HOOKS
/*
 * The owner record a create from @sk (bound to @portid) of a plan in @ta
 * gets, as @owner. The record remembers @ta: the driver's own notifier,
 * when it runs the release (built in, it is registered), destroys the
 * plans in @ta, not in the family's device.
 */
int ta_nl_test_owner(struct ta_device *ta, struct sock *sk, u32 portid,
		     struct ta_owner *owner)
{
	struct ta_nl_owner *rec = ta_nl_owner_get(ta, sk, portid);

	if (!rec)
		return -ENOMEM;
	*owner = (struct ta_owner){
		.uid = current_euid(),
		.key = rec->key,
		.n_plans = &rec->n_plans,
	};
	return 0;
}

/*
 * NETLINK_URELEASE of the generic netlink socket (@net, @portid); each
 * released record's plans are destroyed in its own device (@ta for the
 * records ta_nl_test_owner() made).
 */
void ta_nl_test_release(struct ta_device *ta, struct net *net, u32 portid)
{
	struct netlink_notify n = {
		.net = net,
		.protocol = NETLINK_GENERIC,
		.portid = portid,
	};

	ta_nl_release(&ta_nl_notifier, NETLINK_URELEASE, &n);
}
#endif
