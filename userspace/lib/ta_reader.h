/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_reader.h - helpers shared by the readers (ta_reader.c): the trace CSV,
 * graph file, TFLite and ONNX readers call these; these call no reader.
 */
#ifndef TA_READER_H
#define TA_READER_H

#include <stddef.h>

#include "ta_env.h"

/* Helpers shared by the readers. */
char *ta_slurp(const char *path, size_t *len);
int ta_parse_u64(const char *s, u64 *v);
char *ta_next_line(char **p);
/*
 * Make room for @need elements of @size bytes at *@p, whose capacity *@cap
 * doubles (from 64); the new elements are zeroed. 0 or -ENOMEM (*@p kept).
 */
int ta_grow(void **p, u32 *cap, u32 need, size_t size);
/*
 * "PATH:LINE: what" for the text readers; with @line 0 (a binary file such
 * as a TFLite model, which names a byte offset in the message where it
 * knows one, or the file as a whole) "PATH: what".
 */
void ta_err(char *err, size_t errlen, const char *path, unsigned long line,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* TA_READER_H */
