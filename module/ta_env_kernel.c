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

void ta_env_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b))
{
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
