// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_skyline.c - the sections of a problem and its empty skyline
 * (ta_skyline.h). Memory: about 20 bytes a buffer and 28 a section, taken
 * at once; time O(n log n).
 */
#include "ta_search.h"
#include "ta_search_state.h"
#include "ta_skyline.h"

int ta_skyline_init(struct ta_skyline *sk, const struct ta_problem *p)
{
	u32 n = p->n_buffers, k, i;
	u32 *fill;

	sk->time = ta_env_alloc_array(2 * (size_t)n + 1, sizeof(*sk->time));
	if (!sk->time)
		return -ENOMEM;
	k = ta_search_moments(p, sk->time);
	sk->n_sections = k ? k - 1 : 0;
	sk->m = 1;
	while (sk->m < sk->n_sections)
		sk->m <<= 1;
	sk->bs = ta_env_alloc_array(n + 1, sizeof(*sk->bs));
	sk->be = ta_env_alloc_array(n + 1, sizeof(*sk->be));
	sk->first = ta_env_alloc_array(sk->n_sections + 2, sizeof(*sk->first));
	sk->by_start = ta_env_alloc_array(n + 1, sizeof(*sk->by_start));
	sk->top = ta_env_alloc_array(sk->m + 1, sizeof(*sk->top));
	sk->tree = ta_env_alloc_array(2 * (size_t)sk->m, sizeof(*sk->tree));
	fill = ta_env_alloc_array(sk->n_sections + 1, sizeof(*fill));
	sk->bytes = (u64)(2 * n + 1) * sizeof(u32) +
		    3 * (u64)(n + 1) * sizeof(u32) +
		    (u64)(2 * sk->n_sections + 3) * sizeof(u32) +
		    (u64)(3 * sk->m + 1) * sizeof(u64);
	if (!sk->bs || !sk->be || !sk->first || !sk->by_start || !sk->top ||
	    !sk->tree || !fill) {
		ta_env_free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!p->buffers[i].size)
			continue;
		sk->bs[i] = ta_search_index(sk->time, k, p->buffers[i].start);
		sk->be[i] = ta_search_index(sk->time, k, p->buffers[i].end);
		sk->first[sk->bs[i] + 1]++;
		sk->n_items++;
	}
	for (i = 0; i < sk->n_sections; i++)
		sk->first[i + 1] += sk->first[i];
	for (i = 0; i < n; i++)
		if (p->buffers[i].size)
			sk->by_start[sk->first[sk->bs[i]] + fill[sk->bs[i]]++] = i;
	ta_env_free(fill);
	/* tops 0 (zeroed), the leaves past the sections out of reach */
	for (i = sk->n_sections; i < sk->m; i++)
		sk->tree[sk->m + i] = U64_MAX;
	for (i = sk->m - 1; i; i--)
		sk->tree[i] = sk->tree[2 * i] < sk->tree[2 * i + 1] ?
			      sk->tree[2 * i] : sk->tree[2 * i + 1];
	return 0;
}

void ta_skyline_free(struct ta_skyline *sk)
{
	ta_env_free(sk->time);
	ta_env_free(sk->bs);
	ta_env_free(sk->be);
	ta_env_free(sk->first);
	ta_env_free(sk->by_start);
	ta_env_free(sk->top);
	ta_env_free(sk->tree);
}
