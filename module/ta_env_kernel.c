// SPDX-License-Identifier: GPL-2.0
/*
 * ta_env_kernel.c - the planner core's environment in the kernel.
 */
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/list_sort.h>
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
 * Below this many elements sort()'s heapsort, in place, is as quick as
 * building the list.
 */
#define TA_SORT_MERGE_MIN	16

/* One element of a ta_env_sort(), as list_sort() orders it. */
struct ta_sort_node {
	struct list_head link;
	const void *elem;
};

static int ta_sort_node_cmp(void *priv, const struct list_head *a,
			    const struct list_head *b)
{
	int (*const *cmp)(const void *, const void *) = priv;

	return (*cmp)(list_entry(a, struct ta_sort_node, link)->elem,
		      list_entry(b, struct ta_sort_node, link)->elem);
}

/*
 * The planner sorts on every create (greedy-size's order, auto's
 * portfolio), up to a third of its time. sort() is a heapsort: about 1.5
 * times the comparisons of a merge sort, each an indirect call, and
 * planning took 1.2-1.4 times as long in the kernel as in userspace,
 * whose qsort() merges. So the kernel's merge sort, list_sort(), orders a
 * list of the elements, which are then copied in that order: two arrays
 * of @n entries for the time of the call. Without them (out of memory),
 * sort() orders in place; the planner's comparisons are total orders, so
 * both give the same result.
 */
void ta_env_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b))
{
	struct ta_sort_node *nodes, *node;
	char *sorted, *out;
	LIST_HEAD(list);
	size_t i;

	if (n < TA_SORT_MERGE_MIN)
		goto in_place;
	nodes = kvmalloc_array(n, sizeof(*nodes), TA_SORT_GFP);
	if (!nodes)
		goto in_place;
	sorted = kvmalloc_array(n, size, TA_SORT_GFP);
	if (!sorted)
		goto free_nodes;
	for (i = 0; i < n; i++) {
		nodes[i].elem = (const char *)base + i * size;
		list_add_tail(&nodes[i].link, &list);
	}
	list_sort(&cmp, &list, ta_sort_node_cmp);
	out = sorted;
	list_for_each_entry(node, &list, link) {
		memcpy(out, node->elem, size);
		out += size;
	}
	memcpy(base, sorted, n * size);
	kvfree(sorted);
	kvfree(nodes);
	return;

free_nodes:
	kvfree(nodes);
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
