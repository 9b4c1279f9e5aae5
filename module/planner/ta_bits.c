// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_bits.c - an integer set with fast predecessor and successor queries.
 *
 * A bitmap of the members plus summary levels: bit j of a level-(l + 1)
 * word says whether word j of level l is non-zero. With 64 children per
 * word, four levels cover 2^24 members and every query reads at most eight
 * words. The validator and the strategies use it to keep "which ranks are
 * live" sorted without a balanced tree.
 */
#include "ta_bits.h"

static inline u32 ta_ctz64(u64 x)
{
	return (u32)__builtin_ctzll(x);
}

static inline u32 ta_msb64(u64 x)
{
	return 63U - (u32)__builtin_clzll(x);
}

/**
 * ta_bits_words() - words of memory a set of @n members needs
 * @n: members 0 to @n - 1, at most 2^24
 *
 * Return: the number of u64 words to pass to ta_bits_init().
 */
size_t ta_bits_words(u32 n)
{
	size_t total = 0;
	u32 words = n ? n : 1;
	int l;

	for (l = 0; l < TA_BITS_LEVELS; l++) {
		words = (words + 63) >> 6;
		total += words;
		if (words == 1)
			break;
	}
	return total;
}

/**
 * ta_bits_init() - set up an empty set over @mem
 * @b: the set
 * @n: members 0 to @n - 1, at most 2^24
 * @mem: ta_bits_words(@n) zeroed words
 */
void ta_bits_init(struct ta_bits *b, u32 n, u64 *mem)
{
	u32 words = n ? n : 1;
	u32 l;

	b->levels = 0;
	for (l = 0; l < TA_BITS_LEVELS; l++) {
		words = (words + 63) >> 6;
		b->word[l] = mem;
		b->nwords[l] = words;
		mem += words;
		b->levels = l + 1;
		if (words == 1)
			break;
	}
}

/**
 * ta_bits_set() - add @i to the set
 * @b: the set
 * @i: member
 */
void ta_bits_set(struct ta_bits *b, u32 i)
{
	u32 l;

	for (l = 0; l < b->levels; l++) {
		u64 old = b->word[l][i >> 6];

		b->word[l][i >> 6] = old | (1ULL << (i & 63));
		if (old)
			break;
		i >>= 6;
	}
}

/**
 * ta_bits_clear() - remove @i from the set
 * @b: the set
 * @i: member
 */
void ta_bits_clear(struct ta_bits *b, u32 i)
{
	u32 l;

	for (l = 0; l < b->levels; l++) {
		u64 w = b->word[l][i >> 6] & ~(1ULL << (i & 63));

		b->word[l][i >> 6] = w;
		if (w)
			break;
		i >>= 6;
	}
}

/**
 * ta_bits_next() - the smallest member not below @i
 * @b: the set
 * @i: where to start
 *
 * Return: the member, or -1 when there is none.
 */
s64 ta_bits_next(const struct ta_bits *b, u32 i)
{
	u64 idx = i;
	u32 l;

	for (l = 0; l < b->levels; l++) {
		u64 w = idx >> 6;
		u64 m;

		if (w >= b->nwords[l])
			return -1;
		m = b->word[l][w] & (~0ULL << (idx & 63));
		if (m) {
			idx = (w << 6) | ta_ctz64(m);
			while (l > 0) {
				l--;
				idx = (idx << 6) | ta_ctz64(b->word[l][idx]);
			}
			return (s64)idx;
		}
		idx = w + 1;
	}
	return -1;
}

/**
 * ta_bits_prev() - the largest member not above @i
 * @b: the set
 * @i: where to start
 *
 * Return: the member, or -1 when there is none.
 */
s64 ta_bits_prev(const struct ta_bits *b, u32 i)
{
	u64 idx = i;
	u32 l;

	for (l = 0; l < b->levels; l++) {
		u64 w = idx >> 6;
		u64 mask = ~0ULL;
		u64 m;

		if (w >= b->nwords[l])
			w = b->nwords[l] - 1;
		else if ((idx & 63) != 63)
			mask = (2ULL << (idx & 63)) - 1;
		m = b->word[l][w] & mask;
		if (m) {
			idx = (w << 6) | ta_msb64(m);
			while (l > 0) {
				l--;
				idx = (idx << 6) | ta_msb64(b->word[l][idx]);
			}
			return (s64)idx;
		}
		if (!w)
			return -1;
		idx = w - 1;
	}
	return -1;
}
