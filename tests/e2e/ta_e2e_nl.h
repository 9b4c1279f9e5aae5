/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_e2e_nl.h - the raw libnl client the files of ta_e2e_netlink share
 * (ta_e2e_nl_client.c): requests built attribute by attribute, so that
 * malformed ones can be sent too, their replies parsed into one struct,
 * and the ioctl, sysfs and /proc helpers the tests compare against.
 */
#ifndef TA_E2E_NL_H
#define TA_E2E_NL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/tensorarena.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#define MAX_PLACEMENTS 8192

/* What one request got back: recv_all() fills it. */
struct reply {
	int err;
	char extack[256];
	int done;
	int n_msgs;
	/* from the last message */
	uint32_t plan_id, n_tensors, strategy, first;
	uint64_t height, lower_bound, bytes_in_use, arena_size, requested;
	uint64_t mmap_offset, plan_time_ns;
	int optimal;	/* TA_NL_A_PLAN_OPTIMAL, or -1 when not in the reply */
	int fd;		/* plan-export reply: the descriptor, or -1 */
	uint32_t tensor;		/* tensor-export reply */
	uint64_t export_size, export_offset;
	uint32_t n_plans;
	/* a tiered plan's figures (plan-create, plan-get) */
	uint32_t n_fast;
	uint64_t fast_capacity, fast_height, fast_mmap_offset, weight_fast;
	uint8_t cmd;
	/* placements, by index */
	uint32_t n_placed;
	struct ta_placement place[MAX_PLACEMENTS];
	/* group-create/add/get replies */
	uint32_t group_id, n_members, n_lanes, n_member_ids;
	uint32_t member_ids[TA_GROUP_MAX_MEMBERS];
	uint64_t slice_size;
	/* plan IDs of a listing */
	uint32_t ids[64];
	uint32_t n_ids;
};

/* The last reply, and the family's ID (nl_resolve()). */
extern struct reply R;
extern int family;

/* ---- the client ---------------------------------------------------- */

/* A socket with extended ACKs and 4 MiB buffers; exits when none opens. */
struct nl_sock *nl_open(void);
/* The family's ID into @family; the ID or a libnl error. */
int nl_resolve(struct nl_sock *sk);
struct nl_msg *msg_new(uint8_t cmd, int flags);
/* Read until ACK/error/DONE; the result is in R. */
int recv_all(struct nl_sock *sk);
/* Send @m (freed) and read until ACK/error/DONE; the result is in R. */
int xfer(struct nl_sock *sk, struct nl_msg *m);
/* R's parser of one message, for a reader of multicast events. */
int nl_valid_cb(struct nl_msg *msg, void *arg);
struct nlattr *nest(struct nl_msg *m, int type);
void put_tensor(struct nl_msg *m, uint64_t size, uint64_t align,
		uint32_t flags);
/* An op reading tensor @in, writing @out (either -1: none). */
void put_op(struct nl_msg *m, int in, int out);
void put_buffer(struct nl_msg *m, uint64_t size, uint32_t start,
		uint32_t end);
/* A valid chain graph of @n tensors: op i reads tensor i, writes i + 1. */
void put_chain(struct nl_msg *m, int n, uint64_t size);
struct nl_msg *create_msg(uint32_t flags, uint32_t strategy);
struct nl_msg *id_msg(uint8_t cmd, int flags, uint32_t id);
struct nl_msg *export_msg(uint32_t id, uint32_t flags);
struct nl_msg *tx_msg(uint32_t id, uint32_t tensor, uint32_t flags);
/* Export @id over @sk with @flags; the descriptor or -errno. */
int nl_export(struct nl_sock *sk, uint32_t id, uint32_t flags);
/* A 4096-byte lifetime-form plan; the request's error. */
int nl_create_small(struct nl_sock *sk);

/*
 * The arena's use and plan count through INFO; a failed request is a
 * failed check, and reads as values no comparison takes for a reading.
 */
void info(struct nl_sock *sk, uint64_t *in_use, uint32_t *n_plans);
/* The number of plans a dump lists; a failed dump fails and reads as none. */
uint32_t list_count(struct nl_sock *sk);
uint32_t sock_drops(struct nl_sock *sk);

/* ---- the ioctl transport on @dev (/dev/tensorarena) ----------------- */

/* A plan of one buffer of @size bytes (0 on failure). */
uint32_t ioctl_create_one(int dev, uint64_t size);
/*
 * A graph plan whose tensor 0 (5000 bytes) is exportable, tensor 1 is not,
 * and tensor 2, exportable, has no bytes (0 on failure).
 */
uint32_t ioctl_create_exportable(int dev);
/* A lifetime-form plan of @n buffers, @dry: a dry run (0 on failure). */
uint32_t ioctl_create_lifetimes(int dev, uint32_t n, int dry);
void ioctl_destroy(int dev, uint32_t id);
/* PLAN_GET of @id's placements into ioc_place; 0 or -errno. */
extern struct ta_placement ioc_place[MAX_PLACEMENTS];
int ioctl_get(int dev, uint32_t id, struct ta_plan_get *g);
/* R's first @n placements are ioc_place's: offset, size and tier. */
int same_placements(uint32_t n);

/* ---- the module's parameters, this process's descriptors ------------ */

int write_param(const char *name, const char *val);
void read_param(const char *name, char *buf, size_t len);
/* Descriptors open in this process. */
int count_fds(void);
/* /proc/self/fdinfo/@fd has a line starting with @line. */
int fdinfo_has(int fd, const char *line);
int dmabuf_sync(int fd, uint64_t flags);

#endif /* TA_E2E_NL_H */
