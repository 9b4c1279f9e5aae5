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
 * index's unused high bits; made in index order, ta_radix_sort_above()
 * skips the index too). Below 32 keys an insertion sort. The caller
 * gives the scratch (ta_radix_scratch_words()), so that it and the
 * caller's keys take one allocation: in the kernel each is an accounted
 * kvcalloc(), on a 100-tensor model a good part of planning.
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

static u32 ta_sort_bits(u32 n)
{
	return n < TA_SORT_SMALL ? 8 : TA_SORT_BITS;
}

/**
 * ta_radix_scratch_words() - the scratch ta_radix_sort_in() takes
 * @n: how many keys
 * @with_val: whether they carry values
 *
 * Return: its size in u64 words: @n keys, the counters, @n values.
 */
size_t ta_radix_scratch_words(u32 n, bool with_val)
{
	return n + ((size_t)BIT(ta_sort_bits(n)) + (with_val ? n : 0) + 1) / 2;
}

/**
 * ta_radix_sort_above() - ta_radix_sort_in() by the bits from @low up
 * @key: the keys, their bits below @low already ascending among the keys
 *	 equal above them (such as step << 32 | index, made in index order)
 * @val: a value per key, moved with it, or NULL
 * @n: how many
 * @scratch: ta_radix_scratch_words(@n, @val != NULL) words
 * @low: the lowest bit that orders, below 64 (0: every bit)
 *
 * The same order as ta_radix_sort_in() gives those keys, in fewer passes:
 * the sort is stable, so the bits below @low, which the keys' order
 * already has, need no pass of their own (an index of 2^20 buffers takes
 * two).
 */
void ta_radix_sort_above(u64 *key, u32 *val, u32 n, u64 *scratch, u32 low)
{
	u64 any = 0, all = U64_MAX, diff, *tk = scratch, *k = key, *xk;
	u32 *tv = NULL, *count, *v = val, *xv;
	u32 i, shift, bits = ta_sort_bits(n);
	u32 radix = BIT(bits);

	for (i = 0; i < n; i++) {
		any |= key[i];
		all &= key[i];
	}
	diff = (any ^ all) & ~(BIT_ULL(low) - 1);
	if (!diff)
		return;
	if (n < TA_SORT_TINY) {
		ta_sort_insertion(key, val, n);
		return;
	}
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
}

/**
 * ta_radix_sort_in() - sort keys ascending, stably, each with its value,
 *			in the caller's scratch
 * @key: the keys
 * @val: a value per key, moved with it, or NULL
 * @n: how many
 * @scratch: ta_radix_scratch_words(@n, @val != NULL) words
 *
 * Equal keys keep their order, so a sort by a second key after a first
 * one orders by the second, then the first.
 */
void ta_radix_sort_in(u64 *key, u32 *val, u32 n, u64 *scratch)
{
	ta_radix_sort_above(key, val, n, scratch, 0);
}
