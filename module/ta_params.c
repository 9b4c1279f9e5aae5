// SPDX-License-Identifier: GPL-2.0
/*
 * ta_params.c - module parameters.
 *
 * arena_size takes a byte count with an optional K, M or G suffix (powers of
 * 1024), like the kernel's memparse(), but strictly: no trailing garbage, no
 * overflow, no zero, and a whole number of pages, so that a typo fails insmod
 * with -EINVAL instead of reserving a surprising amount of memory.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "ta_internal.h"

#define TA_ARENA_SIZE_DEFAULT	(4ULL << 20)
#define TA_SIZE_STR_MAX		32

u64 ta_arena_size = TA_ARENA_SIZE_DEFAULT;

/**
 * ta_parse_size() - parse a byte count such as "16M" strictly
 * @str: decimal (or 0x-prefixed hex) number, an optional K/M/G suffix (either
 *	 case) and an optional trailing newline
 * @bytes: out, the count; unchanged on error
 *
 * Return: 0; -EINVAL for an empty, malformed, zero or not page-multiple
 * value; -ERANGE when it does not fit in 64 bits.
 */
int ta_parse_size(const char *str, u64 *bytes)
{
	char digits[TA_SIZE_STR_MAX];
	unsigned int shift = 0;
	size_t len;
	u64 value;
	int err;

	len = strlen(str);
	if (len && str[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, str, len);
	digits[len] = '\0';

	switch (digits[len - 1]) {
	case 'G': case 'g':
		shift += 10;
		fallthrough;
	case 'M': case 'm':
		shift += 10;
		fallthrough;
	case 'K': case 'k':
		shift += 10;
		digits[--len] = '\0';
		break;
	}
	if (!len)
		return -EINVAL;

	err = kstrtoull(digits, 0, &value);
	if (err)
		return err;
	if (check_shl_overflow(value, shift, &value))
		return -ERANGE;
	if (!value || !PAGE_ALIGNED(value))
		return -EINVAL;
	*bytes = value;
	return 0;
}

static int ta_arena_size_set(const char *val, const struct kernel_param *kp)
{
	return ta_parse_size(val, kp->arg);
}

static int ta_arena_size_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%llu\n", *(u64 *)kp->arg);
}

static const struct kernel_param_ops ta_arena_size_ops = {
	.set = ta_arena_size_set,
	.get = ta_arena_size_get,
};

module_param_cb(arena_size, &ta_arena_size_ops, &ta_arena_size, 0444);
MODULE_PARM_DESC(arena_size,
		 "bytes of DMA memory to reserve, with optional K/M/G suffix, a multiple of the page size (default 4M)");

/*
 * Limits on what one request may ask of the kernel. Each bounds the memory a
 * caller can make the kernel allocate (about 100 bytes per tensor while
 * planning) and the time a plan takes. Root may change them at run time.
 */
unsigned int ta_max_tensors = 65536;
module_param_named(max_tensors, ta_max_tensors, uint, 0644);
MODULE_PARM_DESC(max_tensors, "most tensors in one plan (default 65536)");

unsigned int ta_max_ops = 65536;
module_param_named(max_ops, ta_max_ops, uint, 0644);
MODULE_PARM_DESC(max_ops, "most ops in one graph (default 65536)");

unsigned int ta_max_refs = 262144;
module_param_named(max_refs, ta_max_refs, uint, 0644);
MODULE_PARM_DESC(max_refs,
		 "most op-to-tensor references in one graph (default 262144)");

unsigned int ta_default_budget_ms = 100;
module_param_named(default_budget_ms, ta_default_budget_ms, uint, 0644);
MODULE_PARM_DESC(default_budget_ms,
		 "planning time of searching strategies when the caller gives none (default 100)");

unsigned int ta_max_budget_ms = 10000;
module_param_named(max_budget_ms, ta_max_budget_ms, uint, 0644);
MODULE_PARM_DESC(max_budget_ms,
		 "most planning time a caller may ask for (default 10000)");
