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
 * sram_size: an emulated fast tier (ta_fast.c) of that many bytes of system
 * RAM, for boards without SRAM in their device tree; 0 (the default) for
 * none. The same strict syntax as arena_size, and 0.
 */
u64 ta_sram_size;

static int ta_sram_size_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "0")) {
		*(u64 *)kp->arg = 0;
		return 0;
	}
	return ta_parse_size(val, kp->arg);
}

static const struct kernel_param_ops ta_sram_size_ops = {
	.set = ta_sram_size_set,
	.get = ta_arena_size_get,
};

module_param_cb(sram_size, &ta_sram_size_ops, &ta_sram_size, 0444);
MODULE_PARM_DESC(sram_size,
		 "bytes of system RAM to stand in for an NPU's SRAM (an EMULATED fast tier, for testing and planning), K/M/G suffix, whole pages; a device tree's sram phandle takes precedence (default 0: none)");

/*
 * Limits on what one request may ask of the kernel. Each bounds the memory a
 * caller can make the kernel allocate (about 100 bytes per tensor while
 * planning, charged to the caller's memory cgroup) or the time a plan
 * takes. Root may change them at run time, within a range each: a value
 * outside it is refused with -EINVAL, so no write can lift a limit past
 * what the code is sized for. Documentation/security.md.
 */
unsigned int ta_dma_bits;

static int ta_dma_bits_set(const char *val, const struct kernel_param *kp)
{
	unsigned int bits;
	int err;

	err = kstrtouint(val, 0, &bits);
	if (err)
		return err;
	if (bits && (bits < TA_DMA_BITS_MIN || bits > 64))
		return -EINVAL;
	*(unsigned int *)kp->arg = bits;
	return 0;
}

static const struct kernel_param_ops ta_dma_bits_ops = {
	.set = ta_dma_bits_set,
	.get = param_get_uint,
};

module_param_cb(dma_bits, &ta_dma_bits_ops, &ta_dma_bits, 0444);
MODULE_PARM_DESC(dma_bits,
		 "address bits the accelerators reach (24 to 64): the arena is placed below 2^dma_bits, or the load fails (default 0: 64, or what the device tree's dma-ranges allow)");

unsigned int ta_max_tensors = 65536;
unsigned int ta_max_ops = 65536;
unsigned int ta_max_refs = 262144;
unsigned int ta_default_budget_ms = 100;
unsigned int ta_max_budget_ms = 10000;
unsigned int ta_max_plan_ms = 10000;
unsigned int ta_netlink_max_plan_ms = 1000;
unsigned int ta_max_user_plans = 128;
unsigned int ta_max_file_plans = 64;
unsigned int ta_max_user_creates = 4;

/**
 * struct ta_uint_limit - the range of one writable limit
 * @value: the parameter's variable
 * @min: smallest value accepted
 * @max: largest value accepted
 */
struct ta_uint_limit {
	unsigned int *value;
	unsigned int min;
	unsigned int max;
};

static const struct ta_uint_limit ta_uint_limits[] = {
	{ &ta_max_tensors, 1, 1048576 },
	{ &ta_max_ops, 1, 1048576 },
	{ &ta_max_refs, 1, 4194304 },
	{ &ta_default_budget_ms, 1, 60000 },
	{ &ta_max_budget_ms, 1, 60000 },
	{ &ta_max_plan_ms, 1, 60000 },
	{ &ta_netlink_max_plan_ms, 1, 10000 },
	{ &ta_max_user_plans, 1, 1048575 },
	{ &ta_max_file_plans, 1, 1048575 },
	{ &ta_max_user_creates, 1, 1024 },
};

static int ta_uint_limit_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ta_uint_limits); i++)
		if (ta_uint_limits[i].value == kp->arg)
			return param_set_uint_minmax(val, kp,
						     ta_uint_limits[i].min,
						     ta_uint_limits[i].max);
	return -EINVAL;
}

static const struct kernel_param_ops ta_uint_limit_ops = {
	.set = ta_uint_limit_set,
	.get = param_get_uint,
};

module_param_cb(max_tensors, &ta_uint_limit_ops, &ta_max_tensors, 0644);
MODULE_PARM_DESC(max_tensors,
		 "most tensors in one plan (default 65536, 1 to 1048576)");

module_param_cb(max_ops, &ta_uint_limit_ops, &ta_max_ops, 0644);
MODULE_PARM_DESC(max_ops,
		 "most ops in one graph (default 65536, 1 to 1048576)");

module_param_cb(max_refs, &ta_uint_limit_ops, &ta_max_refs, 0644);
MODULE_PARM_DESC(max_refs,
		 "most op-to-tensor references in one graph (default 262144, 1 to 4194304)");

module_param_cb(default_budget_ms, &ta_uint_limit_ops, &ta_default_budget_ms, 0644);
MODULE_PARM_DESC(default_budget_ms,
		 "planning time of searching strategies when the caller gives none (default 100, 1 to 60000)");

module_param_cb(max_budget_ms, &ta_uint_limit_ops, &ta_max_budget_ms, 0644);
MODULE_PARM_DESC(max_budget_ms,
		 "most planning time a caller may ask for (default 10000, 1 to 60000)");

module_param_cb(max_plan_ms, &ta_uint_limit_ops, &ta_max_plan_ms, 0644);
MODULE_PARM_DESC(max_plan_ms,
		 "hard limit on the time one create may plan, any strategy (ETIMEDOUT) (default 10000, 1 to 60000)");

module_param_cb(netlink_max_plan_ms, &ta_uint_limit_ops, &ta_netlink_max_plan_ms, 0644);
MODULE_PARM_DESC(netlink_max_plan_ms,
		 "hard limit on the time one netlink create may plan (it holds generic netlink's lock) (default 1000, 1 to 10000)");

module_param_cb(max_user_plans, &ta_uint_limit_ops, &ta_max_user_plans, 0644);
MODULE_PARM_DESC(max_user_plans,
		 "most plans one uid may hold (EDQUOT) (default 128, 1 to 1048575)");

module_param_cb(max_file_plans, &ta_uint_limit_ops, &ta_max_file_plans, 0644);
MODULE_PARM_DESC(max_file_plans,
		 "most plans one open file or netlink socket may hold (EDQUOT) (default 64, 1 to 1048575)");

module_param_cb(max_user_creates, &ta_uint_limit_ops, &ta_max_user_creates, 0644);
MODULE_PARM_DESC(max_user_creates,
		 "most creates one uid may have running at once, each with its copies and planning memory (EBUSY) (default 4, 1 to 1024)");

u64 ta_max_user_bytes;
u64 ta_max_user_fast_bytes;

/* A per-uid byte limit (its u64 at kp->arg): 0 for none, or a size. */
static int ta_byte_limit_set(const char *val, const struct kernel_param *kp)
{
	u64 bytes;
	int err;

	if (sysfs_streq(val, "0")) {
		WRITE_ONCE(*(u64 *)kp->arg, 0);
		return 0;
	}
	err = ta_parse_size(val, &bytes);
	if (!err)
		WRITE_ONCE(*(u64 *)kp->arg, bytes);
	return err;
}

static const struct kernel_param_ops ta_byte_limit_ops = {
	.set = ta_byte_limit_set,
	.get = ta_arena_size_get,
};

module_param_cb(max_user_bytes, &ta_byte_limit_ops, &ta_max_user_bytes,
		0644);
MODULE_PARM_DESC(max_user_bytes,
		 "most arena bytes one uid may hold, K/M/G suffix (default 0: the whole arena) (EDQUOT)");

module_param_cb(max_user_fast_bytes, &ta_byte_limit_ops,
		&ta_max_user_fast_bytes, 0644);
MODULE_PARM_DESC(max_user_fast_bytes,
		 "most fast-tier (SRAM) bytes one uid may hold, K/M/G suffix (default 0: the whole tier) (EDQUOT)");

/*
 * The device node: devtmpfs creates /dev/tensorarena owned by root with this
 * group and mode, and the netlink family follows the same rule
 * (ta_access.c). Fixed at load: the node exists from then on.
 */
unsigned int ta_dev_gid;
module_param_named(group, ta_dev_gid, uint, 0444);
MODULE_PARM_DESC(group,
		 "group (gid) of /dev/tensorarena; its members may use the device and the netlink family (default 0)");

unsigned int ta_dev_mode = 0660;

static int ta_dev_mode_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode;
	int err;

	err = kstrtouint(val, 8, &mode);
	if (err)
		return err;
	if (mode & ~0666)
		return -EINVAL;
	*(unsigned int *)kp->arg = mode;
	return 0;
}

static int ta_dev_mode_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%04o\n", *(unsigned int *)kp->arg);
}

static const struct kernel_param_ops ta_dev_mode_ops = {
	.set = ta_dev_mode_set,
	.get = ta_dev_mode_get,
};

module_param_cb(mode, &ta_dev_mode_ops, &ta_dev_mode, 0444);
MODULE_PARM_DESC(mode,
		 "permissions of /dev/tensorarena, octal, read/write bits only (default 0660)");
