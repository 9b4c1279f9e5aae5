// SPDX-License-Identifier: GPL-2.0
/*
 * ta_env_kernel.c - the planner core's environment in the kernel.
 */
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "planner/ta_env.h"

/*
 * Planner scratch is the caller's: charged to its memory cgroup, and at
 * the cgroup's memory.max it fails (-ENOMEM) instead of invoking the
 * cgroup's OOM killer (__GFP_RETRY_MAYFAIL), without an allocation-failure
 * splat: the size is the caller's choice (TA_GFP_USER in ta_internal.h).
 */
void *ta_env_alloc_array(size_t n, size_t size)
{
	return kvcalloc(n, size,
			GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
}

void ta_env_free(void *p)
{
	kvfree(p);
}

/* A sort's scratch: as the planner's, but its failure is no error. */
#define TA_SORT_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NORETRY | __GFP_NOWARN)

/*
 * The merge sort's first pass sorts runs of this many by insertion; below
 * twice this many elements sort()'s heapsort, in place, needs no scratch.
 */
#define TA_SORT_RUN	8

/* @cmp on elements @i and @j of @base, @size bytes each. */
static inline int ta_sort_cmp(const char *base, size_t size,
			      int (*cmp)(const void *a, const void *b),
			      u32 i, u32 j)
{
	return cmp(base + (size_t)i * size, base + (size_t)j * size);
}

/* Sort @idx[@lo, @hi) by insertion: its runs are short. */
static void ta_sort_run(const char *base, size_t size,
			int (*cmp)(const void *a, const void *b), u32 *idx,
			u32 lo, u32 hi)
{
	u32 i, j, x;

	for (i = lo + 1; i < hi; i++) {
		x = idx[i];
		for (j = i; j > lo && ta_sort_cmp(base, size, cmp,
						  idx[j - 1], x) > 0; j--)
			idx[j] = idx[j - 1];
		idx[j] = x;
	}
}

/*
 * Bottom-up merge sort of the @n indices @from into order, using @to as
 * scratch. Return: the array (@from or @to) that holds the result.
 */
static u32 *ta_sort_merge(const char *base, size_t size,
			  int (*cmp)(const void *a, const void *b),
			  u32 *from, u32 *to, u32 n)
{
	u32 width, lo, mid, hi, i, j, k;
	u32 *swap;

	for (lo = 0; lo < n; lo += TA_SORT_RUN)
		ta_sort_run(base, size, cmp, from, lo,
			    min_t(u32, lo + TA_SORT_RUN, n));
	for (width = TA_SORT_RUN; width < n; width *= 2) {
		for (lo = 0; lo < n; lo = hi) {
			mid = min_t(u32, lo + width, n);
			hi = min_t(u32, mid + width, n);
			i = lo;
			j = mid;
			for (k = lo; k < hi; k++)
				to[k] = j >= hi || (i < mid &&
					ta_sort_cmp(base, size, cmp, from[i],
						    from[j]) <= 0) ?
					from[i++] : from[j++];
		}
		swap = from;
		from = to;
		to = swap;
		cond_resched();
	}
	return from;
}

/*
 * The planner sorts on every create (greedy-size's order, the fit
 * engine's, auto's portfolio): in the kernel, on the bench's 101-tensor
 * model, over a third of planning time went to sorting when it was
 * list_sort()'s (two indirect calls, each a retpoline, a comparison) and
 * heapsort sort() took longer still (more comparisons). So the indices
 * of the elements are merge-sorted here (one call a comparison, runs of
 * %TA_SORT_RUN by insertion), then the elements are copied in that order:
 * one scratch allocation of 8 + @size bytes an element for the time of
 * the call. Without it (out of memory, or 2^31 elements or more, which
 * the merge widths' u32 could not count), sort() orders in place; the
 * planner's comparisons are total orders, so both give the same result.
 */
void ta_env_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b))
{
	u32 *idx, *sorted;
	char *scratch, *out;
	size_t i;

	if (n < TA_SORT_RUN * 2 || n > U32_MAX / 2 ||
	    size > SIZE_MAX / n - 2 * sizeof(u32))
		goto in_place;
	scratch = kvmalloc_array(n, 2 * sizeof(u32) + size, TA_SORT_GFP);
	if (!scratch)
		goto in_place;
	idx = (u32 *)scratch;
	for (i = 0; i < n; i++)
		idx[i] = i;
	sorted = ta_sort_merge(base, size, cmp, idx, idx + n, n);
	out = scratch + 2 * n * sizeof(u32);
	for (i = 0; i < n; i++)
		memcpy(out + i * size, (char *)base + (size_t)sorted[i] * size,
		       size);
	memcpy(base, out, n * size);
	kvfree(scratch);
	return;

in_place:
	sort(base, n, size, cmp, NULL);
}

u64 ta_env_now_ns(void)
{
	return ktime_get_ns();
}

u64 ta_env_page_size(void)
{
	return PAGE_SIZE;
}

/*
 * Any pending signal stops planning, not only a fatal one: a process that
 * handles SIGINT gets -EINTR from its ioctl at once (the transports do not
 * restart the call; see Documentation/uapi.md).
 */
int ta_env_yield(void)
{
	cond_resched();
	return signal_pending(current) ? -EINTR : 0;
}
