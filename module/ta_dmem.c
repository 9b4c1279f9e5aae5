// SPDX-License-Identifier: GPL-2.0
/*
 * ta_dmem.c - the arena's bytes in the dmem cgroup controller.
 *
 * The arena is device memory, and since 6.14 the kernel has a cgroup
 * controller for exactly that. The arena is registered as a dmem region
 * named "tensorarena/<device>" (dmem.capacity lists it), and each plan's
 * slice is charged to its creator's dmem cgroup when the slice is taken and
 * uncharged when it is freed: with the plan's last reference (destroy,
 * close, the owner's exit, the last mapping or dma-buf gone). A create
 * over dmem.max fails with -EDQUOT, like the per-uid limits, which hold on
 * every kernel. On a kernel without CONFIG_CGROUP_DMEM (6.1, 6.12) every
 * call here does nothing (include/ta_compat.h).
 */

#include <linux/device.h>
#include <linux/err.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

static void ta_dmem_unregister(void *region)
{
	dmem_cgroup_unregister_region(region);
}

/**
 * ta_dmem_register() - register the arena of @ta as a dmem region
 * @ta: the device, its arena allocated (@ta->size set)
 *
 * Device-managed: the region is unregistered when the device is unbound,
 * after its plans are gone. Sets @ta->dmem (NULL without a dmem
 * controller).
 *
 * Return: 0, or -ENOMEM.
 */
int ta_dmem_register(struct ta_device *ta)
{
	struct dmem_cgroup_region *region;

	region = ta_dmem_cgroup_register_region(ta->size, "tensorarena/%s",
						dev_name(ta->dev));
	if (IS_ERR(region)) {
		dev_err(ta->dev, "cannot register the arena with the dmem cgroup controller: %ld\n",
			PTR_ERR(region));
		return PTR_ERR(region);
	}
	if (!region)
		return 0;
	ta->dmem = region;
	return devm_add_action_or_reset(ta->dev, ta_dmem_unregister, region);
}

/**
 * ta_dmem_charge() - charge a slice to the calling task's dmem cgroup
 * @ta: the device
 * @bytes: the slice's size
 * @pool: set to the pool charged, which ta_dmem_uncharge() takes back;
 *	  NULL when nothing was charged (no dmem region)
 *
 * Return: 0; -EDQUOT when the charge would take the cgroup, or one of its
 * ancestors, over its dmem.max; -ENOMEM.
 */
int ta_dmem_charge(struct ta_device *ta, u64 bytes,
		   struct dmem_cgroup_pool_state **pool)
{
	int err;

	*pool = NULL;
	if (!ta->dmem)
		return 0;
	err = dmem_cgroup_try_charge(ta->dmem, bytes, pool, NULL);
	return err == -EAGAIN ? -EDQUOT : err;
}

/**
 * ta_dmem_uncharge() - give back what ta_dmem_charge() charged
 * @pool: the pool it set, or NULL
 * @bytes: the size it was given
 */
void ta_dmem_uncharge(struct dmem_cgroup_pool_state *pool, u64 bytes)
{
	dmem_cgroup_uncharge(pool, bytes);
}
