/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_env.h - the planner core's whole view of its environment.
 *
 * The planner (module/planner/) is plain C that builds unchanged into
 * tensorarena.ko and into the userspace library and tools. Its sources
 * include no kernel or libc header; everything they need from the outside
 * comes through this file, which maps it to the kernel (kvmalloc, sort(),
 * cond_resched(), fatal signals, ktime) or to libc.
 */
#ifndef TA_ENV_H
#define TA_ENV_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/prefetch.h>
#include <linux/string.h>
#define ta_prefetch(p)	prefetch(p)
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n) (1ULL << (n))
#endif
#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
/* a hint: the cache line at p will be read soon */
#define ta_prefetch(p)	__builtin_prefetch(p)
#endif /* __KERNEL__ */

/**
 * ta_env_alloc_array() - allocate a zeroed array of @n elements of @size
 * @n: element count
 * @size: bytes per element
 *
 * Return: the array, or NULL when @n * @size overflows or memory is short.
 * Free with ta_env_free(). May sleep in the kernel (kvcalloc).
 */
void *ta_env_alloc_array(size_t n, size_t size);

/**
 * ta_env_free() - free memory from ta_env_alloc_array(); NULL is a no-op
 * @p: the memory
 */
void ta_env_free(void *p);

/**
 * ta_env_sort() - sort an array (a merge sort of indices in the kernel,
 *		   sort()'s heapsort when short of memory; qsort in libc)
 * @base: first element
 * @n: element count
 * @size: bytes per element
 * @cmp: comparison, like qsort's; must be a total order for reproducible
 *	 plans (break ties on an index), since neither sort is stable
 */
void ta_env_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b));

/**
 * ta_env_now_ns() - a monotonic clock in nanoseconds
 *
 * Return: nanoseconds since an arbitrary fixed point.
 */
u64 ta_env_now_ns(void);

/**
 * ta_env_yield() - let others run during a long loop; ask whether to stop
 *
 * Called every few thousand units of work (see struct ta_work in
 * ta_strategy.h) by every loop that can be long. In the kernel it calls
 * cond_resched() and reports any pending signal; in userspace it returns 0.
 *
 * Return: 0 to go on, -EINTR when the caller must abandon planning.
 */
int ta_env_yield(void);

/**
 * ta_env_page_size() - the page size of the memory plans are mapped with
 *
 * Exportable tensors (%TA_TENSOR_EXPORTABLE) are planned in whole pages at
 * page-aligned offsets: PAGE_SIZE in the kernel, sysconf(_SC_PAGESIZE) in
 * userspace (the same figure on the machine that runs the module).
 *
 * Return: the page size in bytes, a power of two.
 */
u64 ta_env_page_size(void);

#endif /* TA_ENV_H */
