// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_netlink.c - libtensorarena's generic netlink transport (libnl-genl-3).
 *
 * Turns the uAPI structs into the attributes of the "tensorarena" family
 * (Documentation/netlink.md) and back, with the ioctls' semantics and
 * errors: the same local checks of pad, reserved and element sizes, and the
 * kernel's errno from its netlink error message (its extack text is kept in
 * the state for callers that want it: ta_client_last_error()).
 *
 * Plans created here belong to this client's netlink socket and die when it
 * is closed, as ioctl plans die with their file. The group commands are
 * ta_netlink_group.c's, over the exchange and helpers of ta_netlink.h.
 *
 * A request must fit the socket's send buffer (the kernel's wmem_max
 * bounds it: about 11,000 graph tensors with the default sysctls); bigger
 * graphs are submitted through the client's /dev/tensorarena file (the
 * same core in the kernel; the plan then belongs to that file, which the
 * client also closes), or fail with -EMSGSIZE when it has none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "ta_client.h"
#include "ta_netlink.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* What one exchange collects. */
struct ta_nl_xfer {
	struct ta_nl *nl;
	uint32_t seq;		/* the request's sequence number */
	int reply_ends;		/* a do request: its one reply ends it */
	int done;
	int err;
	ta_nl_parse_fn parse;
	void *arg;
};

/*
 * Messages of another sequence number are left over from an exchange that
 * stopped early (a reply that did not parse): they are skipped, not taken
 * for this request's.
 */
static int ta_nl_seq_cb(struct nl_msg *msg, void *arg)
{
	struct ta_nl_xfer *x = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == x->seq ? NL_OK : NL_SKIP;
}

static int ta_nl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct ta_nl_xfer *x = arg;
	struct nlattr *tb[TA_NL_TB_MAX + 1];
	int maxattr = sizeof(tb) / sizeof(tb[0]) - 1;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, maxattr, NULL) < 0) {
		x->err = -EPROTO;
		x->done = x->reply_ends;
		return NL_STOP;
	}
	if (x->parse && !x->err)
		x->err = x->parse(nlmsg_hdr(msg), tb, x->arg);
	if (x->reply_ends) {
		x->done = 1;
		return NL_STOP;
	}
	return NL_OK;
}

static int ta_nl_err_cb(struct sockaddr_nl *who, struct nlmsgerr *e,
			void *arg)
{
	struct nlmsghdr *hdr = (struct nlmsghdr *)e - 1;
	struct ta_nl_xfer *x = arg;
	size_t off = sizeof(*e);
	struct nlattr *a;
	int rem;

	(void)who;
	x->err = e->error;
	x->done = 1;
	if (!(hdr->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((hdr->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    NLMSG_HDRLEN + off < hdr->nlmsg_len) {
		rem = hdr->nlmsg_len - NLMSG_HDRLEN - off;
		nla_for_each_attr(a, (struct nlattr *)((char *)e + off), rem, rem)
			if (nla_type(a) == NLMSGERR_ATTR_MSG)
				snprintf(x->nl->extack, sizeof(x->nl->extack),
					 "%s", (char *)nla_data(a));
	}
	return NL_STOP;
}

/* ACK or DONE; a dump that failed carries its error (and extack) in DONE. */
static int ta_nl_done_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct ta_nl_xfer *x = arg;
	struct nlattr *a;
	int rem;

	x->done = 1;
	if (h->nlmsg_type != NLMSG_DONE ||
	    h->nlmsg_len < NLMSG_HDRLEN + sizeof(int) ||
	    *(int *)nlmsg_data(h) >= 0)
		return NL_STOP;
	x->err = *(int *)nlmsg_data(h);
	rem = h->nlmsg_len - NLMSG_HDRLEN - sizeof(int);
	if (h->nlmsg_flags & NLM_F_ACK_TLVS)
		nla_for_each_attr(a, (struct nlattr *)((char *)nlmsg_data(h) +
						       sizeof(int)), rem, rem)
			if (nla_type(a) == NLMSGERR_ATTR_MSG)
				snprintf(x->nl->extack, sizeof(x->nl->extack),
					 "%s", (char *)nla_data(a));
	return NL_STOP;
}

/**
 * ta_nl_xfer() - send a request, collect its replies
 * @nl: the transport's state; @nl->extack receives the kernel's message
 * @msg: the request, freed here
 * @parse: called for each reply message with its top-level attributes
 *	   (up to TA_NL_TB_MAX), or NULL; its first error is kept
 * @arg: @parse's
 *
 * Every command of the family that has a parser here answers a do request
 * with exactly one reply message or an error, so such a request asks for
 * no ACK: its reply ends the exchange (one message back instead of two).
 * A request without a parser (plan-destroy) asks for the ACK; a dump ends
 * with its DONE.
 *
 * Return: 0 once the reply, ACK or DONE came; the kernel's -errno;
 * -EMSGSIZE for a request beyond the socket's buffer; -ENOMEM; -EIO.
 */
int ta_nl_xfer(struct ta_nl *nl, struct nl_msg *msg, ta_nl_parse_fn parse,
	       void *arg)
{
	struct ta_nl_xfer x = { .nl = nl, .parse = parse, .arg = arg };
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct nl_cb *cb = nl->cb;
	int ret;

	nl->extack[0] = '\0';
	/* the client's callbacks, pointed at this exchange */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, ta_nl_seq_cb, &x);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, ta_nl_valid_cb, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ta_nl_done_cb, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, ta_nl_done_cb, &x);
	nl_cb_err(cb, NL_CB_CUSTOM, ta_nl_err_cb, &x);

	if ((hdr->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP) {
		if (parse)
			x.reply_ends = 1;
		else
			hdr->nlmsg_flags |= NLM_F_ACK;
	}
	ret = nl_send_auto(nl->sk, msg);
	x.seq = hdr->nlmsg_seq;	/* set by nl_send_auto() */
	nlmsg_free(msg);
	if (ret < 0)
		return ret == -NLE_MSGSIZE ? -EMSGSIZE : -EIO;
	while (!x.done) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !x.done) {
			if (!x.err)
				x.err = ret == -NLE_NOMEM ? -ENOMEM : -EIO;
			break;
		}
	}
	return x.err;
}

/**
 * ta_nl_msg() - a request of the family
 * @nl: the transport's state
 * @cmd: %TA_NL_CMD_*
 * @flags: netlink flags (%NLM_F_DUMP)
 * @size: room for the attributes, beyond a page
 *
 * Return: the message, or NULL when out of memory.
 */
struct nl_msg *ta_nl_msg(struct ta_nl *nl, uint8_t cmd, int flags,
			 size_t size)
{
	struct nl_msg *msg = nlmsg_alloc_size(size + 4096);

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				flags, cmd, TA_NL_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* An optional attribute's value, 0 when absent. */
uint64_t ta_nl_u64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

uint32_t ta_nl_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int ta_nl_info_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			    void *arg)
{
	struct ta_info *info = arg;

	(void)hdr;
	info->abi_version = ta_nl_u32(tb[TA_NL_A_INFO_ABI_VERSION]);
	info->arena_size = ta_nl_u64(tb[TA_NL_A_INFO_ARENA_SIZE]);
	info->bytes_in_use = ta_nl_u64(tb[TA_NL_A_INFO_BYTES_IN_USE]);
	info->alignment = ta_nl_u64(tb[TA_NL_A_INFO_ALIGNMENT]);
	info->page_size = ta_nl_u32(tb[TA_NL_A_INFO_PAGE_SIZE]);
	info->n_plans = ta_nl_u32(tb[TA_NL_A_INFO_N_PLANS]);
	info->largest_free = ta_nl_u64(tb[TA_NL_A_INFO_LARGEST_FREE]);
	info->dma_base = ta_nl_u64(tb[TA_NL_A_INFO_DMA_BASE]);
	info->dma_limit = ta_nl_u64(tb[TA_NL_A_INFO_DMA_LIMIT]);
	return 0;
}

/* Whether any of @n bytes at @p is not zero (reserved fields, pad). */
int ta_nl_nonzero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 1;
	return 0;
}

static int ta_nl_info(struct ta_client *c, struct ta_info *info)
{
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;

	if (info->flags || ta_nl_nonzero(&info->reserved,
					       sizeof(info->reserved)))
		return -EINVAL;
	msg = ta_nl_msg(nl, TA_NL_CMD_INFO, 0, 0);
	if (!msg)
		return -ENOMEM;
	return ta_nl_xfer(nl, msg, ta_nl_info_parse, info);
}

/*
 * Element @i of a user array of @usize-byte elements, as the @ksize bytes
 * this library knows: a shorter element is zero-extended, a longer one must
 * be zero past @ksize (-E2BIG), as copy_struct_from_user() does.
 */
int ta_nl_elem(const void *base, uint32_t i, uint32_t usize, void *dst,
	       size_t ksize)
{
	const unsigned char *src = (const unsigned char *)base +
				   (size_t)i * usize;

	memset(dst, 0, ksize);
	memcpy(dst, src, usize < ksize ? usize : ksize);
	if (usize > ksize && ta_nl_nonzero(src + ksize, usize - ksize))
		return -E2BIG;
	return 0;
}

/* plan-create's nests or packed arrays of a request's graph. */
const struct ta_nl_graph_attrs ta_nl_plan_graph_attrs = {
	.tensor = TA_NL_A_PLAN_TENSOR,
	.op = TA_NL_A_PLAN_OP,
	.buffer = TA_NL_A_PLAN_BUFFER,
	.tensors_packed = TA_NL_A_PLAN_TENSORS_PACKED,
	.ops_packed = TA_NL_A_PLAN_OPS_PACKED,
	.refs_packed = TA_NL_A_PLAN_REFS_PACKED,
	.buffers_packed = TA_NL_A_PLAN_BUFFERS_PACKED,
};

/*
 * The graph's nests are written straight into the message: their length
 * is counted first (each element checked on the way), room for all of
 * them is reserved at once, then each attribute is filled in place. One
 * libnl call per graph instead of five per tensor: building the message
 * was half of what netlink added to a create of a large graph.
 */
#define TA_NL_U32_LEN	(NLA_HDRLEN + 4)
#define TA_NL_MAX_OP_REFS	((0xffffU - 2 * NLA_HDRLEN - 4) / TA_NL_U32_LEN)
#define TA_NL_U64_LEN	(NLA_HDRLEN + 8)

/* One attribute at @p (room reserved): its header, then @len bytes. */
static char *ta_nl_fill(char *p, int type, const void *data, uint16_t len)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	memcpy(p, &a, sizeof(a));
	memcpy(p + NLA_HDRLEN, data, len);
	return p + NLA_HDRLEN + NLA_ALIGN(len);
}

static char *ta_nl_fill_u32(char *p, int type, uint32_t v)
{
	return ta_nl_fill(p, type, &v, sizeof(v));
}

static char *ta_nl_fill_u64(char *p, int type, uint64_t v)
{
	return ta_nl_fill(p, type, &v, sizeof(v));
}

/* A nest's header at @p for @len bytes of attributes; returns where they go. */
static char *ta_nl_fill_nest(char *p, int type, uint32_t len)
{
	struct nlattr a = {
		.nla_len = NLA_HDRLEN + len, .nla_type = type | NLA_F_NESTED,
	};

	memcpy(p, &a, sizeof(a));
	return p + NLA_HDRLEN;
}

static uint32_t ta_nl_tensor_len(const struct ta_tensor *t)
{
	return NLA_HDRLEN + TA_NL_U64_LEN + (t->align ? TA_NL_U64_LEN : 0) +
	       (t->flags ? TA_NL_U32_LEN : 0);
}

static uint32_t ta_nl_op_len(const struct ta_op *op)
{
	return NLA_HDRLEN + (op->flags ? TA_NL_U32_LEN : 0) +
	       (op->n_inputs + op->n_outputs) * TA_NL_U32_LEN;
}

static uint32_t ta_nl_lifetime_len(const struct ta_lifetime *l)
{
	return NLA_HDRLEN + TA_NL_U64_LEN + (l->align ? TA_NL_U64_LEN : 0) +
	       2 * TA_NL_U32_LEN;
}

/* Room for @len bytes of attributes at the message's end, or NULL. */
static char *ta_nl_room(struct nl_msg *msg, uint64_t len)
{
	if (len > nlmsg_get_max_size(msg))
		return NULL;
	return nlmsg_reserve(msg, (size_t)len, NLA_ALIGNTO);
}

/*
 * A packed array is the uAPI struct's entries back to back, in attributes
 * of whole entries of at most this many bytes (an attribute's length is
 * 16 bits): 2,730 tensors or buffers, 4,095 ops, 16,382 references each.
 */
#define TA_NL_PACKED_MAX	(0xffffU - NLA_HDRLEN)

/* The bytes of @n entries of @elem bytes in packed attributes. */
static uint64_t ta_nl_packed_len(uint32_t n, uint32_t elem)
{
	uint32_t per = TA_NL_PACKED_MAX / elem;

	return (uint64_t)n * elem + (uint64_t)(n + per - 1) / per * NLA_HDRLEN;
}

/*
 * Entry @i of @n in packed attributes of @type at @p: a new attribute's
 * header first where one begins; returns where the entry goes.
 */
static char *ta_nl_packed_entry(char *p, int type, uint32_t i, uint32_t n,
				uint32_t elem)
{
	uint32_t per = TA_NL_PACKED_MAX / elem;
	uint32_t in_attr = n - i < per ? n - i : per;
	struct nlattr a = {
		.nla_len = NLA_HDRLEN + in_attr * elem, .nla_type = type,
	};

	if (i % per)
		return p;
	memcpy(p, &a, sizeof(a));
	return p + NLA_HDRLEN;
}

/*
 * @n entries of @elem bytes at @src, already in the uAPI's layout, in
 * packed attributes of @type at @p: one copy per attribute. Returns the
 * end.
 */
static char *ta_nl_put_packed(char *p, int type, const void *src,
			      uint32_t n, uint32_t elem)
{
	uint32_t per = TA_NL_PACKED_MAX / elem, i, in_attr;

	for (i = 0; i < n; i += in_attr) {
		in_attr = n - i < per ? n - i : per;
		p = ta_nl_packed_entry(p, type, i, n, elem);
		memcpy(p, (const char *)src + (size_t)i * elem,
		       (size_t)in_attr * elem);
		p += (size_t)in_attr * elem;
	}
	return p;
}

/*
 * Element @i of a user array into @dst: a fixed-size copy when the
 * caller's element is the library's own (the usual case), else
 * ta_nl_elem()'s zero-extension and check.
 */
static int ta_nl_elem_at(const void *base, uint32_t i, uint32_t usize,
			 void *dst, size_t ksize)
{
	if (usize != ksize)
		return ta_nl_elem(base, i, usize, dst, ksize);
	memcpy(dst, (const char *)base + (size_t)i * ksize, ksize);
	return 0;
}

/**
 * ta_nl_graph_size() - the fewest bytes a request's graph can take
 * @a: the graph as plan-create's struct holds it
 * @packed: in packed arrays, else in nests
 *
 * In nests: a nest header and a size per tensor, start and end per
 * buffer, a header per op, one attribute per reference. Packed: exact.
 *
 * Return: the bytes.
 */
uint64_t ta_nl_graph_size(const struct ta_plan_create *a, int packed)
{
	if (!packed)
		return (uint64_t)a->n_tensors *
		       (a->flags & TA_CREATE_LIFETIMES ? 32 : 16) +
		       (uint64_t)a->n_ops * 4 + (uint64_t)a->n_refs * 8;
	if (a->flags & TA_CREATE_LIFETIMES)
		return ta_nl_packed_len(a->n_tensors,
					sizeof(struct ta_lifetime));
	return ta_nl_packed_len(a->n_tensors, sizeof(struct ta_tensor)) +
	       ta_nl_packed_len(a->n_ops, sizeof(struct ta_op)) +
	       ta_nl_packed_len(a->n_refs, sizeof(uint32_t));
}

/**
 * ta_nl_put_graph() - a graph's tensors and ops, in nests or packed
 * @msg: the request
 * @a: the graph as plan-create's struct holds it (tensors, ops, refs and
 *     their element sizes)
 * @at: the attribute types to use (plan-create's, or a group member's)
 * @packed: packed arrays (the family's version 2), else nests
 *
 * Packed, the refs array goes as it is (as the ioctl's); nested, each op
 * carries its own references.
 *
 * Return: 0; -EINVAL or -E2BIG for a bad element (as the ioctl's checks);
 * -EFAULT for a missing array; -EMSGSIZE when @msg is full.
 */
int ta_nl_put_graph(struct nl_msg *msg, const struct ta_plan_create *a,
		    const struct ta_nl_graph_attrs *at, int packed)
{
	const uint32_t *refs = (const uint32_t *)(uintptr_t)a->refs;
	const void *tensors = (const void *)(uintptr_t)a->tensors;
	const void *ops = (const void *)(uintptr_t)a->ops;
	uint64_t len = 0;
	struct ta_tensor t;
	struct ta_op op;
	uint32_t i, k;
	int err, own;
	char *p;

	if (a->tensor_size < sizeof(struct ta_tensor) ||
	    a->op_size < sizeof(struct ta_op))
		return -EINVAL;
	if ((a->n_tensors && !a->tensors) || (a->n_ops && !a->ops) ||
	    (a->n_refs && !a->refs))
		return -EFAULT;
	/*
	 * The library's own layout, packed: the arrays go as they are, and
	 * the module checks every entry with the same errors as below (a pad
	 * or an op flag: EINVAL; references past refs: EINVAL), so they are
	 * not read here first. A longer struct is checked here: its tail
	 * never reaches the module.
	 */
	own = packed && a->tensor_size == sizeof(t) && a->op_size == sizeof(op);
	for (i = 0; !own && i < a->n_tensors; i++) {
		err = ta_nl_elem_at(tensors, i, a->tensor_size, &t, sizeof(t));
		if (err)
			return err;
		if (t.pad)
			return -EINVAL;
		if (!packed)
			len += ta_nl_tensor_len(&t);
	}
	for (i = 0; !own && i < a->n_ops; i++) {
		err = ta_nl_elem_at(ops, i, a->op_size, &op, sizeof(op));
		if (err)
			return err;
		if (op.flags & ~TA_OP_INPLACE)
			return -EINVAL;
		if ((uint64_t)op.first_ref + op.n_inputs + op.n_outputs >
		    a->n_refs)
			return -EINVAL;
		/* an attribute's length is 16 bits: 16,381 references */
		if (packed)
			continue;
		if ((uint64_t)op.n_inputs + op.n_outputs > TA_NL_MAX_OP_REFS)
			return -EMSGSIZE;
		len += ta_nl_op_len(&op);
	}
	if (packed)
		len = ta_nl_graph_size(a, 1);
	p = ta_nl_room(msg, len);
	if (!p)
		return -EMSGSIZE;
	/* checked above (or by the module): copied, not checked again */
	if (own) {
		p = ta_nl_put_packed(p, at->tensors_packed, tensors,
				     a->n_tensors, sizeof(t));
		p = ta_nl_put_packed(p, at->ops_packed, ops, a->n_ops,
				     sizeof(op));
		ta_nl_put_packed(p, at->refs_packed, refs, a->n_refs,
				 sizeof(*refs));
		return 0;
	}
	for (i = 0; i < a->n_tensors; i++) {
		ta_nl_elem(tensors, i, a->tensor_size, &t, sizeof(t));
		if (packed) {
			p = ta_nl_packed_entry(p, at->tensors_packed, i,
					       a->n_tensors, sizeof(t));
			memcpy(p, &t, sizeof(t));
			p += sizeof(t);
			continue;
		}
		p = ta_nl_fill_nest(p, at->tensor, ta_nl_tensor_len(&t) -
				    NLA_HDRLEN);
		p = ta_nl_fill_u64(p, TA_NL_A_TENSOR_SIZE, t.size);
		if (t.align)
			p = ta_nl_fill_u64(p, TA_NL_A_TENSOR_ALIGN, t.align);
		if (t.flags)
			p = ta_nl_fill_u32(p, TA_NL_A_TENSOR_FLAGS, t.flags);
	}
	for (i = 0; i < a->n_ops; i++) {
		ta_nl_elem(ops, i, a->op_size, &op, sizeof(op));
		if (packed) {
			p = ta_nl_packed_entry(p, at->ops_packed, i, a->n_ops,
					       sizeof(op));
			memcpy(p, &op, sizeof(op));
			p += sizeof(op);
			continue;
		}
		p = ta_nl_fill_nest(p, at->op, ta_nl_op_len(&op) - NLA_HDRLEN);
		if (op.flags)
			p = ta_nl_fill_u32(p, TA_NL_A_OP_FLAGS, op.flags);
		for (k = 0; k < op.n_inputs + op.n_outputs; k++)
			p = ta_nl_fill_u32(p, k < op.n_inputs ?
					   TA_NL_A_OP_INPUT : TA_NL_A_OP_OUTPUT,
					   refs[op.first_ref + k]);
	}
	for (i = 0; packed && i < a->n_refs; i++) {
		p = ta_nl_packed_entry(p, at->refs_packed, i, a->n_refs,
				       sizeof(*refs));
		memcpy(p, &refs[i], sizeof(*refs));
		p += sizeof(*refs);
	}
	return 0;
}

/* As ta_nl_put_graph(), for a graph in lifetime form (buffers). */
int ta_nl_put_lifetimes(struct nl_msg *msg, const struct ta_plan_create *a,
			const struct ta_nl_graph_attrs *at, int packed)
{
	const void *tensors = (const void *)(uintptr_t)a->tensors;
	struct ta_lifetime l;
	uint64_t len = 0;
	int err, own_layout;
	uint32_t i;
	char *p;

	if (a->n_ops || a->n_refs)
		return -EINVAL;
	if (a->tensor_size < sizeof(struct ta_lifetime))
		return -EINVAL;
	if (a->n_tensors && !a->tensors)
		return -EFAULT;
	/* the library's own layout, packed: nothing to check or count */
	own_layout = packed && a->tensor_size == sizeof(l);
	for (i = 0; !own_layout && i < a->n_tensors; i++) {
		err = ta_nl_elem(tensors, i, a->tensor_size, &l, sizeof(l));
		if (err)
			return err;
		if (!packed)
			len += ta_nl_lifetime_len(&l);
	}
	if (packed)
		len = ta_nl_graph_size(a, 1);
	p = ta_nl_room(msg, len);
	if (!p)
		return -EMSGSIZE;
	if (own_layout) {
		ta_nl_put_packed(p, at->buffers_packed, tensors, a->n_tensors,
				 sizeof(l));
		return 0;
	}
	for (i = 0; i < a->n_tensors; i++) {
		ta_nl_elem(tensors, i, a->tensor_size, &l, sizeof(l));
		if (packed) {
			p = ta_nl_packed_entry(p, at->buffers_packed, i,
					       a->n_tensors, sizeof(l));
			memcpy(p, &l, sizeof(l));
			p += sizeof(l);
			continue;
		}
		p = ta_nl_fill_nest(p, at->buffer, ta_nl_lifetime_len(&l) -
				    NLA_HDRLEN);
		p = ta_nl_fill_u64(p, TA_NL_A_BUFFER_SIZE, l.size);
		if (l.align)
			p = ta_nl_fill_u64(p, TA_NL_A_BUFFER_ALIGN, l.align);
		p = ta_nl_fill_u32(p, TA_NL_A_BUFFER_START, l.start);
		p = ta_nl_fill_u32(p, TA_NL_A_BUFFER_END, l.end);
	}
	return 0;
}

static int ta_nl_create_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			      void *arg)
{
	struct ta_plan_create *a = arg;

	(void)hdr;
	a->plan_id = ta_nl_u32(tb[TA_NL_A_PLAN_PLAN_ID]);
	a->height = ta_nl_u64(tb[TA_NL_A_PLAN_HEIGHT]);
	a->lower_bound = ta_nl_u64(tb[TA_NL_A_PLAN_LOWER_BOUND]);
	a->plan_time_ns = ta_nl_u64(tb[TA_NL_A_PLAN_PLAN_TIME_NS]);
	a->mmap_offset = ta_nl_u64(tb[TA_NL_A_PLAN_MMAP_OFFSET]);
	a->optimal = tb[TA_NL_A_PLAN_OPTIMAL] ?
		     nla_get_u8(tb[TA_NL_A_PLAN_OPTIMAL]) : 0;
	return 0;
}

#define TA_NL_MAX_OFFSETS_LEN	(0xffffU - 4U)

static int ta_nl_create(struct ta_client *c, struct ta_plan_create *a)
{
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	size_t size;
	int err;

	if (a->pad || ta_nl_nonzero(&a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	/*
	 * A tiered create goes through the client's /dev/tensorarena file
	 * (the plan is the client's all the same), so that its pin failure
	 * comes back in the ioctl's fields; plan-get reads it over netlink.
	 */
	if ((a->flags & TA_CREATE_TIERED) && c->dev_fd >= 0)
		return ta_ioctl_ops.create(c, a);
	if (a->flags & ~(TA_CREATE_LIFETIMES | TA_CREATE_DRY_RUN))
		return -EINVAL;
	if (a->n_tensors > TA_NL_MAX_COUNT || a->n_ops > TA_NL_MAX_COUNT ||
	    a->n_refs > TA_NL_MAX_COUNT)
		return -E2BIG;
	/* an attribute holds at most 65,531 bytes: 8,191 offsets */
	if (a->offsets && (size_t)a->n_tensors * 8 > TA_NL_MAX_OFFSETS_LEN)
		return c->dev_fd >= 0 ? ta_ioctl_ops.create(c, a) : -E2BIG;
	/*
	 * Beyond one message, the client's ioctl file takes the graph before
	 * any attribute is built.
	 */
	if (ta_nl_graph_size(a, nl->packed) > TA_NL_MAX_REQUEST &&
	    c->dev_fd >= 0)
		return ta_ioctl_ops.create(c, a);
	size = nl->packed ? (size_t)ta_nl_graph_size(a, 1) :
	       (size_t)a->n_tensors * 56 + (size_t)a->n_ops * 12 +
	       (size_t)a->n_refs * 8;
	/* the fixed strategy's offsets: beyond the page ta_nl_msg() adds */
	if (a->offsets)
		size += NLA_HDRLEN + (size_t)a->n_tensors * 8;
	msg = ta_nl_msg(nl, TA_NL_CMD_PLAN_CREATE, 0, size);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_PLAN_FLAGS, a->flags) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_STRATEGY, a->strategy) ||
	    nla_put_u64(msg, TA_NL_A_PLAN_BUDGET_NS, a->budget_ns) ||
	    nla_put_u64(msg, TA_NL_A_PLAN_BUDGET_STEPS, a->budget_steps) ||
	    (a->default_align &&
	     nla_put_u64(msg, TA_NL_A_PLAN_DEFAULT_ALIGN, a->default_align))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	if (a->flags & TA_CREATE_LIFETIMES)
		err = ta_nl_put_lifetimes(msg, a, &ta_nl_plan_graph_attrs,
					  nl->packed);
	else
		err = ta_nl_put_graph(msg, a, &ta_nl_plan_graph_attrs,
				      nl->packed);
	/* the fixed strategy's offsets: one u64 per tensor, as the ioctl's */
	if (!err && a->offsets &&
	    nla_put(msg, TA_NL_A_PLAN_OFFSETS, (int)(a->n_tensors * 8),
		    (const void *)(uintptr_t)a->offsets))
		err = -EMSGSIZE;
	if (!err && a->fixed_height &&
	    nla_put_u64(msg, TA_NL_A_PLAN_FIXED_HEIGHT, a->fixed_height))
		err = -EMSGSIZE;
	if (err) {
		nlmsg_free(msg);
		/* an op too big for one nest: the ioctl takes any */
		if (err == -EMSGSIZE && c->dev_fd >= 0)
			return ta_ioctl_ops.create(c, a);
		return err;
	}
	if (nlmsg_hdr(msg)->nlmsg_len > TA_NL_MAX_REQUEST && c->dev_fd >= 0) {
		/* Beyond one netlink message: the client's ioctl file takes it. */
		nlmsg_free(msg);
		return ta_ioctl_ops.create(c, a);
	}
	err = ta_nl_xfer(nl, msg, ta_nl_create_parse, a);
	if (err == -EMSGSIZE && c->dev_fd >= 0)
		return ta_ioctl_ops.create(c, a);
	/* The policy's range check (strategy) says ERANGE, the ioctl EINVAL. */
	return err == -ERANGE ? -EINVAL : err;
}

/* One plan-get dump: the first plan after an ID, or one plan's placements. */
struct ta_nl_get {
	struct ta_plan_get *args;
	uint32_t after;		/* listing: the first plan with a higher ID */
	uint32_t room;		/* placements the caller has room for */
	int found;
};

static void ta_nl_get_figures(struct nlattr **tb, struct ta_plan_get *g)
{
	g->plan_id = ta_nl_u32(tb[TA_NL_A_PLAN_PLAN_ID]);
	g->height = ta_nl_u64(tb[TA_NL_A_PLAN_HEIGHT]);
	g->lower_bound = ta_nl_u64(tb[TA_NL_A_PLAN_LOWER_BOUND]);
	g->plan_time_ns = ta_nl_u64(tb[TA_NL_A_PLAN_PLAN_TIME_NS]);
	g->mmap_offset = ta_nl_u64(tb[TA_NL_A_PLAN_MMAP_OFFSET]);
	g->strategy = ta_nl_u32(tb[TA_NL_A_PLAN_STRATEGY]);
	g->optimal = tb[TA_NL_A_PLAN_OPTIMAL] ?
		     nla_get_u8(tb[TA_NL_A_PLAN_OPTIMAL]) : 0;
	/* a tiered plan's figures; absent (0) for an untiered one */
	g->fast_capacity = ta_nl_u64(tb[TA_NL_A_PLAN_FAST_CAPACITY]);
	g->n_fast = ta_nl_u32(tb[TA_NL_A_PLAN_N_FAST]);
	g->fast_height = ta_nl_u64(tb[TA_NL_A_PLAN_FAST_HEIGHT]);
	g->fast_mmap_offset = ta_nl_u64(tb[TA_NL_A_PLAN_FAST_MMAP_OFFSET]);
	g->weight_total = ta_nl_u64(tb[TA_NL_A_PLAN_WEIGHT_TOTAL]);
	g->weight_fast = ta_nl_u64(tb[TA_NL_A_PLAN_WEIGHT_FAST]);
	g->weight_bound = ta_nl_u64(tb[TA_NL_A_PLAN_WEIGHT_BOUND]);
}

static int ta_nl_list_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			    void *arg)
{
	struct ta_nl_get *st = arg;
	uint32_t id = ta_nl_u32(tb[TA_NL_A_PLAN_PLAN_ID]);

	(void)hdr;
	/* The dump is in ID order: keep the first one after st->after. */
	if (!st->found && id > st->after) {
		st->found = 1;
		st->args->plan_id = id;
	}
	return 0;
}

static int ta_nl_one_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			   void *arg)
{
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct ta_nl_get *st = arg;
	struct ta_plan_get *g = st->args;
	uint32_t i = ta_nl_u32(tb[TA_NL_A_PLAN_FIRST_PLACEMENT]);
	unsigned char *dst = (unsigned char *)(uintptr_t)g->placements;
	struct nlattr *a, *pa;
	int rem, prem;

	if (!st->found) {
		ta_nl_get_figures(tb, g);
		g->n_placements = ta_nl_u32(tb[TA_NL_A_PLAN_N_TENSORS]);
		st->found = 1;
	}
	if (!dst)
		return 0;
	nla_for_each_attr(a, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		struct ta_placement p = { .tier = TA_TIER_SLOW };

		if (nla_type(a) != TA_NL_A_PLAN_PLACEMENT)
			continue;
		if (i >= st->room) {
			i++;
			continue;
		}
		nla_for_each_nested(pa, a, prem) {
			if (nla_type(pa) == TA_NL_A_PLACEMENT_OFFSET)
				p.offset = nla_get_u64(pa);
			else if (nla_type(pa) == TA_NL_A_PLACEMENT_SIZE)
				p.size = nla_get_u64(pa);
			else if (nla_type(pa) == TA_NL_A_PLACEMENT_TIER)
				p.tier = nla_get_u32(pa);
		}
		memset(dst + (size_t)i * g->placement_size, 0,
		       g->placement_size);
		memcpy(dst + (size_t)i * g->placement_size, &p, sizeof(p));
		i++;
	}
	return 0;
}

/* Dump plan-get for one plan (@id) into @g, placements included. */
static int ta_nl_get_one(struct ta_nl *nl, uint32_t id, struct ta_plan_get *g)
{
	struct ta_nl_get st = { .args = g, .room = g->n_placements };
	struct nl_msg *msg;
	int err;

	msg = ta_nl_msg(nl, TA_NL_CMD_PLAN_GET, NLM_F_DUMP, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, id)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = ta_nl_xfer(nl, msg, ta_nl_one_parse, &st);
	if (!err && !st.found)
		err = -ENOENT;
	return err;
}

static int ta_nl_get(struct ta_client *c, struct ta_plan_get *g)
{
	struct ta_nl *nl = c->nl;
	struct ta_plan_get copy;
	struct nl_msg *msg;
	uint32_t id = g->plan_id;
	int err;

	if ((g->flags & ~TA_GET_NEXT) ||
	    ta_nl_nonzero(g->reserved, sizeof(g->reserved)))
		return -EINVAL;
	if (g->placements && g->placement_size < sizeof(struct ta_placement))
		return -EINVAL;
	for (;;) {
		if (g->flags & TA_GET_NEXT) {
			struct ta_nl_get st = { .args = &copy, .after = id };

			msg = ta_nl_msg(nl, TA_NL_CMD_PLAN_GET, NLM_F_DUMP, 0);
			if (!msg)
				return -ENOMEM;
			err = ta_nl_xfer(nl, msg, ta_nl_list_parse, &st);
			if (err)
				return err;
			if (!st.found)
				return -ENOENT;
			id = copy.plan_id;
		}
		copy = *g;
		err = ta_nl_get_one(nl, id, &copy);
		/* Listing: a plan destroyed meanwhile is skipped. */
		if (err == -ENOENT && (g->flags & TA_GET_NEXT))
			continue;
		if (err)
			return err;
		*g = copy;
		return 0;
	}
}

static int ta_nl_destroy(struct ta_client *c, uint32_t plan_id)
{
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;

	msg = ta_nl_msg(nl, TA_NL_CMD_PLAN_DESTROY, 0, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, plan_id)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return ta_nl_xfer(nl, msg, NULL, NULL);
}

static int ta_nl_export_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			      void *arg)
{
	struct ta_plan_export *a = arg;

	(void)hdr;
	if (!tb[TA_NL_A_PLAN_FD])
		return -EPROTO;
	a->fd = (int32_t)nla_get_u32(tb[TA_NL_A_PLAN_FD]);
	return 0;
}

/*
 * The kernel installs the descriptor in the table of the process that sent
 * the request, this one, before the reply reaches us; the reply gives its
 * number.
 */
static int ta_nl_export(struct ta_client *c, struct ta_plan_export *a)
{
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	int err;

	if (a->pad || ta_nl_nonzero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	msg = ta_nl_msg(nl, TA_NL_CMD_PLAN_EXPORT, 0, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_PLAN_PLAN_ID, a->plan_id) ||
	    nla_put_u32(msg, TA_NL_A_PLAN_EXPORT_FLAGS, a->flags)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	a->fd = -1;
	err = ta_nl_xfer(nl, msg, ta_nl_export_parse, a);
	if (err && a->fd >= 0) {
		/* The kernel gave a descriptor, the exchange failed after. */
		close(a->fd);
		a->fd = -1;
	}
	/* The policy's range check (plan-id 0) says ERANGE, the ioctl ENOENT. */
	return err == -ERANGE ? -ENOENT : err;
}

static int ta_nl_tensor_export_parse(struct nlmsghdr *hdr, struct nlattr **tb,
				     void *arg)
{
	struct ta_tensor_export *a = arg;

	(void)hdr;
	if (!tb[TA_NL_A_TENSOR_EXPORT_FD] || !tb[TA_NL_A_TENSOR_EXPORT_SIZE] ||
	    !tb[TA_NL_A_TENSOR_EXPORT_OFFSET])
		return -EPROTO;
	a->fd = (int32_t)nla_get_u32(tb[TA_NL_A_TENSOR_EXPORT_FD]);
	a->size = nla_get_u64(tb[TA_NL_A_TENSOR_EXPORT_SIZE]);
	a->offset = nla_get_u64(tb[TA_NL_A_TENSOR_EXPORT_OFFSET]);
	return 0;
}

/* As ta_nl_export(), for one tensor (tensor-export). */
static int ta_nl_tensor_export(struct ta_client *c, struct ta_tensor_export *a)
{
	struct ta_nl *nl = c->nl;
	struct nl_msg *msg;
	int err;

	if (ta_nl_nonzero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	msg = ta_nl_msg(nl, TA_NL_CMD_TENSOR_EXPORT, 0, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_PLAN_ID, a->plan_id) ||
	    nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_TENSOR, a->tensor) ||
	    nla_put_u32(msg, TA_NL_A_TENSOR_EXPORT_FLAGS, a->flags)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	a->fd = -1;
	err = ta_nl_xfer(nl, msg, ta_nl_tensor_export_parse, a);
	if (err && a->fd >= 0) {
		close(a->fd);
		a->fd = -1;
	}
	return err == -ERANGE ? -ENOENT : err;
}

static void ta_nl_close(struct ta_client *c)
{
	struct ta_nl *nl = c->nl;

	if (!nl)
		return;
	nl_cb_put(nl->cb);
	nl_socket_free(nl->sk);
	free(nl);
	c->nl = NULL;
}

static int ta_nl_family_parse(struct nlmsghdr *hdr, struct nlattr **tb,
			      void *arg)
{
	struct ta_nl *nl = arg;

	(void)hdr;
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return -EPROTO;
	nl->family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	nl->packed = tb[CTRL_ATTR_VERSION] &&
		     nla_get_u32(tb[CTRL_ATTR_VERSION]) >= TA_NL_PACKED_VERSION;
	return 0;
}

/*
 * The family's ID and version, in one request to the controller (as
 * genl_ctrl_resolve() asks, which returns the ID alone): a module of
 * version 2 or later is sent packed graph arrays, an older one nests.
 * Return: 0; -ENOENT when the family is not registered; -ENOMEM; -EIO.
 */
static int ta_nl_resolve(struct ta_nl *nl)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
			 CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, TA_NL_FAMILY_NAME)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = ta_nl_xfer(nl, msg, ta_nl_family_parse, nl);
	if (err == -ENOENT || err == -ENOMEM)
		return err;
	return err ? -EIO : 0;
}

/**
 * ta_netlink_open() - connect to the tensorarena family
 * @c: the client; its nl member receives the state
 *
 * Return: 0; -ENOENT when the family is not registered (module not
 * loaded); -ENOMEM; -EIO when libnl fails otherwise.
 */
int ta_netlink_open(struct ta_client *c)
{
	struct ta_nl *nl = calloc(1, sizeof(*nl));
	int one = 1, err = -EIO;

	if (!nl)
		return -ENOMEM;
	nl->sk = nl_socket_alloc();
	nl->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nl->sk || !nl->cb) {
		err = -ENOMEM;
		goto fail;
	}
	if (genl_connect(nl->sk) < 0)
		goto fail;
	/* Error messages with extack text, without the echoed request. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl_socket_set_buffer_size(nl->sk, 4 << 20, 4 << 20);
	/*
	 * One recvmsg() a message, into a buffer that holds the largest
	 * the family sends this client (not a MSG_PEEK of its size first).
	 */
	nl_socket_disable_msg_peek(nl->sk);
	nl_socket_set_msg_buf_size(nl->sk, TA_NL_RECV_BUF);
	/* ta_nl_xfer() asks for an ACK where no reply comes. */
	nl_socket_disable_auto_ack(nl->sk);
	err = ta_nl_resolve(nl);
	if (err)
		goto fail;
	c->nl = nl;
	return 0;
fail:
	nl_cb_put(nl->cb);
	nl_socket_free(nl->sk);
	free(nl);
	return err;
}

int ta_netlink_packed(struct ta_client *c, int packed)
{
	struct ta_nl *nl = c->transport == TA_TRANSPORT_NETLINK ? c->nl : NULL;
	int was;

	if (!nl)
		return -EINVAL;
	was = nl->packed;
	if (packed >= 0)
		nl->packed = !!packed;
	return was;
}

/**
 * ta_client_last_error() - the kernel's extack text of the last failure
 * @c: a client
 *
 * Return: the text of the last request that failed over netlink, empty
 * when the kernel gave none or the client uses the ioctl transport.
 */
const char *ta_client_last_error(const struct ta_client *c)
{
	const struct ta_nl *nl = c->transport == TA_TRANSPORT_NETLINK ?
				 c->nl : NULL;

	return nl ? nl->extack : "";
}

const struct ta_transport_ops ta_netlink_ops = {
	.info = ta_nl_info,
	.create = ta_nl_create,
	.get = ta_nl_get,
	.destroy = ta_nl_destroy,
	.export_dmabuf = ta_nl_export,
	.export_tensor = ta_nl_tensor_export,
	/* ta_netlink_group.c */
	.group_create = ta_nl_group_create,
	.group_add = ta_nl_group_add,
	.group_get = ta_nl_group_get,
	.close = ta_nl_close,
};
