// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_nl_encode.c - the netlink transport's packed encodings of a graph's
 * tensors (userspace/lib/ta_netlink.c, ta_nl_put_graph()), decoded back
 * here as the module reads them (module/ta_nl_parse.c): tensors-packed and
 * sizes-packed attributes make one stream of tensors in message order.
 * Each shape is encoded packed (family version 2) and packed with sizes
 * (version 3); both must give back every tensor, fill exactly the bytes
 * they reserved, and the sizes encoding must send each maximal run of
 * plain tensors (default alignment, no flags) as sizes, within an
 * attribute's 16-bit length.
 */
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "ta_test.h"
#include "ta_netlink.h"

/* A user's tensor struct of a later ABI: 8 bytes more, zero. */
struct nle_tensor_v2 {
	struct ta_tensor t;
	uint64_t more;
};

/* The tensors of a shape: @plain says which tensor is plain. */
static void nle_fill(struct ta_tensor *t, uint32_t n, int (*plain)(uint32_t))
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		t[i] = (struct ta_tensor){ .size = 64 + (uint64_t)i * 8 };
		if (!plain(i)) {
			t[i].flags = i % 2 ? TA_TENSOR_INPUT : 0;
			t[i].align = i % 2 ? 0 : 4096;
		}
	}
}

static int nle_all_plain(uint32_t i) { (void)i; return 1; }
static int nle_none_plain(uint32_t i) { (void)i; return 0; }
static int nle_alternate(uint32_t i) { return i % 2; }
/* the transport benchmark's model: input, constant, ..., output */
static int nle_model(uint32_t i) { return i > 1 && i != 100; }

/*
 * Decode @msg's attributes after its genetlink header into @out (room for
 * @n): the tensors in stream order. Return: how many, or -1 for an
 * attribute of another type, one that does not hold whole entries or a
 * stream longer than @n. @attrs and @sizes_attrs get the counts of
 * attributes and of sizes-packed ones.
 */
static long nle_decode(struct nl_msg *msg, struct ta_tensor *out, uint32_t n,
		       uint32_t *attrs, uint32_t *sizes_attrs)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *a;
	uint32_t got = 0, k, elem;
	int rem;

	*attrs = 0;
	*sizes_attrs = 0;
	nlmsg_for_each_attr(a, h, GENL_HDRLEN, rem) {
		int type = nla_type(a);

		elem = type == TA_NL_A_PLAN_SIZES_PACKED ? 8 :
		       type == TA_NL_A_PLAN_TENSORS_PACKED ?
		       sizeof(struct ta_tensor) : 0;
		if (!elem || nla_len(a) % elem)
			return -1;
		(*attrs)++;
		*sizes_attrs += elem == 8;
		for (k = 0; k < nla_len(a) / elem; k++, got++) {
			const char *d = (const char *)nla_data(a) + k * elem;

			if (got >= n)
				return -1;
			memset(&out[got], 0, sizeof(out[got]));
			memcpy(elem == 8 ? (void *)&out[got].size :
			       (void *)&out[got], d, elem);
		}
	}
	return rem ? -1 : (long)got;
}

/* The maximal runs of plain tensors, and their sizes attributes. */
static uint32_t nle_plain_attrs(const struct ta_tensor *t, uint32_t n)
{
	uint32_t i, run = 0, attrs = 0;

	for (i = 0; i <= n; i++) {
		if (i < n && !t[i].align && !t[i].flags) {
			run++;
			continue;
		}
		attrs += (run + 8190) / 8191;
		run = 0;
	}
	return attrs;
}

/*
 * One shape of @n tensors, in the library's struct and in a larger one,
 * encoded both ways and decoded back.
 */
static int nle_shape(const char *name, uint32_t n, int (*plain)(uint32_t))
{
	struct ta_tensor *t = calloc(n + 1, sizeof(*t));
	struct ta_tensor *back = calloc(n + 1, sizeof(*back));
	struct nle_tensor_v2 *t2 = calloc(n + 1, sizeof(*t2));
	uint64_t packed_len = 0;
	int enc, wide, cases = 0;
	uint32_t i;

	TA_CHECK(t && back && t2, "%s: memory", name);
	nle_fill(t, n, plain);
	for (i = 0; i < n; i++)
		t2[i].t = t[i];
	for (wide = 0; wide <= 1; wide++) {
		for (enc = TA_NL_PACKED; enc <= TA_NL_PACKED_SIZES; enc++) {
			struct ta_plan_create a = {
				.tensors = (uintptr_t)(wide ? (void *)t2 :
						       (void *)t),
				.n_tensors = n,
				.tensor_size = wide ? sizeof(*t2) : sizeof(*t),
				.op_size = sizeof(struct ta_op),
			};
			struct nl_msg *msg = nlmsg_alloc_size(1 << 20);
			uint32_t attrs, sizes_attrs, len;
			long got;

			TA_CHECK(msg && genlmsg_put(msg, 0, 0, 1, 0, 0, 1, 1),
				 "%s: message", name);
			TA_CHECK(!ta_nl_put_graph(msg, &a,
						  &ta_nl_plan_graph_attrs, enc),
				 "%s, encoding %d, wide %d: put", name, enc,
				 wide);
			len = nlmsg_hdr(msg)->nlmsg_len - NLMSG_HDRLEN -
			      GENL_HDRLEN;
			got = nle_decode(msg, back, n, &attrs, &sizes_attrs);
			TA_CHECK(got == (long)n,
				 "%s, encoding %d: %ld tensors decoded of %u",
				 name, enc, got, n);
			TA_CHECK(!memcmp(back, t, n * sizeof(*t)),
				 "%s, encoding %d: the tensors decode unchanged",
				 name, enc);
			if (enc == TA_NL_PACKED) {
				TA_CHECK(!sizes_attrs && len ==
					 ta_nl_graph_size(&a, enc),
					 "%s: packed, %u bytes, no sizes",
					 name, len);
				packed_len = len;
			} else {
				TA_CHECK(sizes_attrs == nle_plain_attrs(t, n),
					 "%s: %u sizes attributes, expected %u",
					 name, sizes_attrs,
					 nle_plain_attrs(t, n));
				TA_CHECK(len <= packed_len &&
					 len <= ta_nl_graph_size(&a, enc),
					 "%s: sizes %u bytes against packed %llu",
					 name, len,
					 (unsigned long long)packed_len);
			}
			nlmsg_free(msg);
			cases++;
		}
	}
	free(t);
	free(back);
	free(t2);
	TA_CHECK(cases == 4, "%s: %d encodings checked", name, cases);
	return 0;
}

static int t_nl_encode_shapes(void)
{
	int shapes = 0;

	shapes += !nle_shape("no tensors", 0, nle_all_plain);
	shapes += !nle_shape("one plain tensor", 1, nle_all_plain);
	shapes += !nle_shape("the model's 101", 101, nle_model);
	shapes += !nle_shape("20,000 plain (3 sizes attributes)", 20000,
			     nle_all_plain);
	shapes += !nle_shape("6,000 flagged (3 tensor attributes)", 6000,
			     nle_none_plain);
	shapes += !nle_shape("1,001 alternating", 1001, nle_alternate);
	TA_CHECK(shapes == 6, "%d of 6 shapes encoded and decoded", shapes);
	return 0;
}

/* The model's request: under a page with sizes, over it without. */
static int t_nl_encode_model_size(void)
{
	struct ta_tensor t[101];
	struct ta_plan_create a = {
		.tensors = (uintptr_t)t, .n_tensors = 101,
		.tensor_size = sizeof(t[0]), .op_size = sizeof(struct ta_op),
	};
	struct nl_msg *msg[2];
	uint32_t len[2];
	int enc;

	nle_fill(t, 101, nle_model);
	for (enc = 0; enc < 2; enc++) {
		msg[enc] = nlmsg_alloc_size(1 << 16);
		TA_CHECK(msg[enc] &&
			 !ta_nl_put_graph(msg[enc], &a, &ta_nl_plan_graph_attrs,
					  enc ? TA_NL_PACKED_SIZES :
					  TA_NL_PACKED),
			 "encoding %d", enc);
		len[enc] = nlmsg_hdr(msg[enc])->nlmsg_len;
		nlmsg_free(msg[enc]);
	}
	/* 101 x 24 + 4, against 3 x 24 + 98 x 8 and three headers */
	TA_CHECK(len[0] - len[1] == 2428 - 868,
		 "tensors: %u bytes packed, %u with sizes", len[0], len[1]);
	return 0;
}

const struct ta_test ta_nl_encode_tests[] = {
	{ "netlink encoding: packed and sizes-packed tensors decode back, runs of plain tensors as sizes",
	  t_nl_encode_shapes },
	{ "netlink encoding: the model's tensors take 1,560 bytes fewer with sizes",
	  t_nl_encode_model_size },
	{ NULL, NULL },
};
