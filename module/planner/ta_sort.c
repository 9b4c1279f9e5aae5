// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_sort.c - a stable least significant digit first radix sort of 64-bit
 * keys, each with an optional 32-bit value.
 *
 * ta_env_sort() calls a comparison per step (qsort's merge sort in
 * userspace, a merge sort of indices in the kernel): on the 2^20 buffers of
 * issue 30 the sorts of greedy-size and of the lower bound took a seventh
 * of the planning. A radix sort reads each key once per 11-bit digit (8
 * bits below 4,096 keys), and only over the bits in which the keys differ,
 * each pass starting at the lowest such bit it has not sorted: 2 to 4
 * passes on real traces (keys such as step << 32 | index skip the
 * index's unused high bits). Below 32 keys an insertion sort.
 */
#include "ta_plan_helpers.h"
#include "ta_sort.h"

#define TA_SORT_BITS	11
#define TA_SORT_SMALL	4096	/* fewer keys: 8-bit digits */
#define TA_SORT_TINY	32	/* fewer keys: an insertion sort */

/* Stable insertion sort, for a few keys. */
static void ta_sort_insertion(u64 *key, u32 *val, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		u64 k = key[i];
		u32 v = val ? val[i] : 0;

		for (j = i; j && key[j - 1] > k; j--) {
			key[j] = key[j - 1];
			if (val)
				val[j] = val[j - 1];
		}
		key[j] = k;
		if (val)
			val[j] = v;
	}
}

/*
 * The lowest bit at or above @shift in which the keys differ: a digit with
 * the same value in every key orders nothing and is not sorted (keys such
 * as start << 32 | index differ in two bit ranges). 64 when none is left.
 */
static u32 ta_sort_next_digit(u64 diff, u32 shift)
{
	if (shift >= 64 || !(diff >> shift))
		return 64;
	return __builtin_ctzll(diff >> shift << shift);
}

/**
 * ta_radix_sort() - sort keys ascending, stably, each with its value
 * @key: the keys
 * @val: a value per key, moved with it, or NULL
 * @n: how many
 *
 * Equal keys keep their order, so a sort by a second key after a first
 * one orders by the second, then the first.
 *
 * Return: 0 or -ENOMEM (@key and @val are then unchanged).
 */
int ta_radix_sort(u64 *key, u32 *val, u32 n)
{
	u64 any = 0, all = U64_MAX, diff, *scratch, *tk, *k = key, *xk;
	u32 *tv = NULL, *count, *v = val, *xv;
	u32 i, shift, bits = n < TA_SORT_SMALL ? 8 : TA_SORT_BITS;
	u32 radix = BIT(bits);

	for (i = 0; i < n; i++) {
		any |= key[i];
		all &= key[i];
	}
	diff = any ^ all;
	if (!diff)
		return 0;
	if (n < TA_SORT_TINY) {
		ta_sort_insertion(key, val, n);
		return 0;
	}
	/* one allocation: n scratch keys, the counters, n scratch values */
	scratch = ta_env_alloc_array(n + ((size_t)radix + (val ? n : 0) + 1) / 2,
				     sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	tk = scratch;
	count = (u32 *)(scratch + n);
	if (val)
		tv = count + radix;
	for (shift = __builtin_ctzll(diff); shift < 64 && diff >> shift;
	     shift = ta_sort_next_digit(diff, shift + bits)) {
		u32 sum = 0;

		for (i = 0; i < radix; i++)
			count[i] = 0;
		for (i = 0; i < n; i++)
			count[(k[i] >> shift) & (radix - 1)]++;
		for (i = 0; i < radix; i++) {
			u32 c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			u32 d = count[(k[i] >> shift) & (radix - 1)]++;

			tk[d] = k[i];
			if (v)
				tv[d] = v[i];
		}
		xk = k;
		k = tk;
		tk = xk;
		xv = v;
		v = tv;
		tv = xv;
	}
	if (k != key) {
		/* an odd number of passes: the result is in the scratch */
		for (i = 0; i < n; i++)
			key[i] = k[i];
		if (val)
			for (i = 0; i < n; i++)
				val[i] = v[i];
	}
	ta_env_free(scratch);
	return 0;
}
