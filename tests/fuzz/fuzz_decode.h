/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * fuzz_decode.h - read little-endian integers off a fuzz input; past its
 * end every read gives 0, so any input decodes to something.
 */
#ifndef FUZZ_DECODE_H
#define FUZZ_DECODE_H

#include <stddef.h>

#include "ta_env.h"

struct fuzz_in {
	const u8 *p;
	size_t n;
};

static inline u8 fuzz_u8(struct fuzz_in *f)
{
	u8 v;

	if (!f->n)
		return 0;
	v = *f->p++;
	f->n--;
	return v;
}

static inline u16 fuzz_u16(struct fuzz_in *f)
{
	u16 lo = fuzz_u8(f);

	return lo | (u16)fuzz_u8(f) << 8;
}

static inline u32 fuzz_u32(struct fuzz_in *f)
{
	u32 lo = fuzz_u16(f);

	return lo | (u32)fuzz_u16(f) << 16;
}

static inline u64 fuzz_u64(struct fuzz_in *f)
{
	u64 lo = fuzz_u32(f);

	return lo | (u64)fuzz_u32(f) << 32;
}

#endif /* FUZZ_DECODE_H */
