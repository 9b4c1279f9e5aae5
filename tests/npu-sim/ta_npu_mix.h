/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_npu_mix.h - the function the reference NPU computes, shared by the
 * driver (which runs it on the planned tensors in the arena) and by the
 * userspace reference (which runs it with a separate buffer per tensor).
 *
 * Op i reads its inputs in order into a 64-bit digest keyed by the job's
 * key and i, then fills each output byte from that digest and the output's
 * position: every output byte depends on every input byte, so a tensor
 * overwritten while live changes every result downstream of it.
 *
 * An in-place op (TA_OP_INPLACE: RESHAPE, SQUEEZE, ...) is a view: its
 * first output is its first input's bytes (the identity), so the planner
 * may put both at one offset and the result is the same either way.
 *
 * Plain C: the same text compiles in the kernel and in userspace.
 */
#ifndef TA_NPU_MIX_H
#define TA_NPU_MIX_H

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <string.h>
#include <linux/types.h>
/* As the planner's userspace environment (module/planner/ta_env.h). */
typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;
#endif

#define TA_NPU_GOLDEN	0x9e3779b97f4a7c15ULL

/* The splitmix64 finaliser: a bijection that spreads every input bit. */
static inline u64 ta_npu_mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Up to 8 bytes, little-endian, zero-padded: the same on every CPU. */
static inline u64 ta_npu_load(const u8 *p, size_t n)
{
	u64 v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

static inline void ta_npu_store(u8 *p, size_t n, u64 v)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* The digest of op @op of a job with key @key, before its inputs. */
static inline u64 ta_npu_digest_begin(u64 key, u32 op)
{
	return ta_npu_mix64(key ^ ((u64)op + 1) * TA_NPU_GOLDEN);
}

/* Fold one input of @n bytes into the digest @h. */
static inline u64 ta_npu_digest_input(u64 h, const u8 *p, u64 n)
{
	u64 i;

	h = ta_npu_mix64(h ^ n);
	for (i = 0; i + 8 <= n; i += 8)
		h = ta_npu_mix64(h ^ ta_npu_load(p + i, 8));
	if (i < n)
		h = ta_npu_mix64(h ^ ta_npu_load(p + i, n - i));
	return h;
}

/* Write output number @k (0-based, of @n bytes) of an op with digest @h. */
static inline void ta_npu_fill_output(u64 h, u32 k, u8 *p, u64 n)
{
	u64 seed = ta_npu_mix64(h ^ ((u64)k + 1) * 0xd1b54a32d192ed03ULL);
	u64 i;

	for (i = 0; i + 8 <= n; i += 8)
		ta_npu_store(p + i, 8, ta_npu_mix64(seed + i * TA_NPU_GOLDEN));
	if (i < n)
		ta_npu_store(p + i, n - i, ta_npu_mix64(seed + i * TA_NPU_GOLDEN));
}

/* The initial contents of tensor @t (graph inputs, constants, state). */
static inline void ta_npu_fill_initial(u64 key, u32 t, u8 *p, u64 n)
{
	ta_npu_fill_output(ta_npu_mix64(~key), t, p, n);
}

/*
 * The first output of an in-place op: the first input's bytes (at the same
 * address when the plan aliased them), zero past the input's size.
 */
static inline void ta_npu_view_output(const u8 *in, u64 in_size, u8 *out,
				      u64 out_size)
{
	u64 n = in_size < out_size ? in_size : out_size;

	if (out != in && n)
		memmove(out, in, n);
	if (out_size > n)
		memset(out + n, 0, out_size - n);
}

#endif /* TA_NPU_MIX_H */
