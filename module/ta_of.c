// SPDX-License-Identifier: GPL-2.0
/*
 * ta_of.c - the arena of a device-tree node: the node's memory-region
 * points at a "shared-dma-pool" reserved-memory node (the binding is
 * Documentation/devicetree/bindings/misc/linux,tensorarena.yaml).
 *
 * of_reserved_mem_device_init() assigns the region to the device; from then
 * on dma_alloc_coherent() for the device takes memory from it: from the
 * region's CMA area when it is "reusable", from the region's coherent pool
 * (a bitmap of pages, see kernel/dma/coherent.c) otherwise. The region is
 * the arena's own, so the arena is as large as the region can give in one
 * allocation; arena_size does not apply.
 */
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>

#include "ta_internal.h"

/**
 * ta_of_arena_bytes() - the largest arena a reserved region can give
 * @region_bytes: size of the region
 * @reusable: the region is a CMA area ("reusable"); otherwise it is a
 *	      coherent pool
 *
 * A CMA area gives one allocation as large as itself. A coherent pool
 * hands out naturally aligned power-of-two runs of pages
 * (bitmap_find_free_region()), so the largest allocation is the largest
 * power-of-two number of pages it holds.
 *
 * Return: bytes, a whole number of pages; 0 when the region is smaller
 * than a page.
 */
u64 ta_of_arena_bytes(u64 region_bytes, bool reusable)
{
	u64 pages = region_bytes >> PAGE_SHIFT;

	if (!pages)
		return 0;
	if (reusable)
		return pages << PAGE_SHIFT;
	return (u64)PAGE_SIZE << ilog2(pages);
}

/**
 * ta_of_region_check() - check the node a memory-region points at
 * @dev: the device, for the messages
 * @region: the reserved-memory node
 * @rmem: what the kernel reserved for @region at boot
 *	  (of_reserved_mem_lookup()), or NULL
 * @bytes: out, the arena's size; unchanged on error
 *
 * Return: 0; -EINVAL when @region is not a shared-dma-pool, is the kernel's
 * default CMA area or is smaller than a page; -ENODEV when it is disabled or
 * the kernel set up no pool for it at boot.
 */
int ta_of_region_check(struct device *dev, struct device_node *region,
		       const struct reserved_mem *rmem, u64 *bytes)
{
	bool reusable = of_property_read_bool(region, "reusable");
	u64 size;

	if (!of_device_is_compatible(region, "shared-dma-pool")) {
		dev_err(dev, "memory-region %pOF is not a shared-dma-pool: give it compatible = \"shared-dma-pool\"\n",
			region);
		return -EINVAL;
	}
	if (!of_device_is_available(region)) {
		dev_err(dev, "memory-region %pOF is disabled: remove its status property\n",
			region);
		return -ENODEV;
	}
	if (of_property_read_bool(region, "linux,cma-default")) {
		dev_err(dev, "memory-region %pOF is the kernel's default CMA area, which other drivers need: give tensorarena a region of its own, or remove the tensorarena node and load with arena_size\n",
			region);
		return -EINVAL;
	}
	if (!rmem) {
		dev_err(dev, "memory-region %pOF was not reserved at boot: %s\n",
			region, IS_ENABLED(CONFIG_OF_RESERVED_MEM) ?
			"see the 'Reserved memory' lines of the boot log" :
			"this kernel has no CONFIG_OF_RESERVED_MEM");
		return -ENODEV;
	}
	if (!rmem->ops) {
		dev_err(dev, "memory-region %pOF has no DMA pool: the kernel refused it at boot (a reusable region needs CONFIG_DMA_CMA and a pageblock-aligned base and size; see the 'Reserved memory' lines of the boot log)\n",
			region);
		return -ENODEV;
	}
	size = ta_of_arena_bytes(rmem->size, reusable);
	if (!size) {
		dev_err(dev, "memory-region %pOF has %pa bytes, less than a page: make it larger\n",
			region, &rmem->size);
		return -EINVAL;
	}
	if (size < rmem->size)
		dev_warn(dev, "memory-region %pOF: the arena uses %llu of its %pa bytes (a region that is not reusable gives power-of-two blocks: make its size a power of two)\n",
			 region, size, &rmem->size);
	*bytes = size;
	return 0;
}

static void ta_of_release_region(void *dev)
{
	of_reserved_mem_device_release(dev);
}

/**
 * ta_of_arena_init() - reserve the arena of @ta from its memory-region
 * @ta: the device; @ta->dev has a device-tree node
 *
 * Like ta_arena_init(), everything is device-managed. The region is
 * released by devres too, right after the arena is freed: releasing it in
 * remove() would run before devres frees the arena, and
 * dma_free_coherent() would no longer find the region's pool.
 *
 * Return: 0; -EINVAL when the node has no usable memory-region (missing,
 * not exactly one entry, pointing at no node, or see ta_of_region_check());
 * -ENODEV when the region is not there (see ta_of_region_check());
 * otherwise the error of of_reserved_mem_device_init() or ta_arena_init().
 */
int ta_of_arena_init(struct ta_device *ta)
{
	struct device *dev = ta->dev;
	struct device_node *np = dev->of_node;
	const struct reserved_mem *rmem;
	struct device_node *region;
	u64 bytes;
	int n, err;

	n = of_count_phandle_with_args(np, "memory-region", NULL);
	if (n == -ENOENT) {
		dev_err(dev, "%pOF has no memory-region: point it at a shared-dma-pool reserved-memory node, or remove the node and load with arena_size\n",
			np);
		return -EINVAL;
	}
	if (n != 1) {
		dev_err(dev, "memory-region of %pOF has %d entries: give it exactly one\n",
			np, n);
		return -EINVAL;
	}
	region = of_parse_phandle(np, "memory-region", 0);
	if (!region) {
		dev_err(dev, "memory-region of %pOF points at no node: fix its phandle\n",
			np);
		return -EINVAL;
	}
	rmem = of_reserved_mem_lookup(region);
	err = ta_of_region_check(dev, region, rmem, &bytes);
	ta->region_cma = of_property_read_bool(region, "reusable");
	ta->region_nomap = of_property_read_bool(region, "no-map");
	of_node_put(region);
	if (err)
		return err;

	err = of_reserved_mem_device_init(dev);
	if (err) {
		dev_err(dev, "cannot assign memory-region %s to the device: %d\n",
			rmem->name, err);
		return err;
	}
	err = devm_add_action_or_reset(dev, ta_of_release_region, dev);
	if (err)
		return err;
	ta->region = rmem;
	return ta_arena_init(ta, bytes);
}
