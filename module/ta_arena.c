// SPDX-License-Identifier: GPL-2.0
/*
 * ta_arena.c - the arena: one physically contiguous, DMA-capable block,
 * reserved once at probe and carved into slices by a genalloc pool.
 */
#include <linux/bitops.h>
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/of_reserved_mem.h>
#include <linux/scatterlist.h>

#include "ta_internal.h"

static void ta_arena_pages_free(void *data)
{
	struct ta_device *ta = data;

	sg_free_table(&ta->pages);
}

/* Every page of [@phys, @phys + @size) has a struct page. */
static bool ta_arena_has_pages(phys_addr_t phys, size_t size)
{
	unsigned long pfn, last = PHYS_PFN(phys + size - 1);

	for (pfn = PHYS_PFN(phys); pfn <= last; pfn++)
		if (!pfn_valid(pfn))
			return false;
	return true;
}

/*
 * A coherent pool's arena (a shared-dma-pool that is not reusable): its
 * device addresses are its physical ones (rmem_dma_device_init() gives the
 * pool its base as both), and it may lie outside the kernel's memory map,
 * where there is no struct page: then the dma-bufs map it as a resource.
 */
static int ta_arena_describe_pool(struct ta_device *ta)
{
	phys_addr_t phys = ta->dma_base;
	struct scatterlist *sg;
	size_t done = 0;
	unsigned int n;
	int err;

	if (!ta_arena_has_pages(phys, ta->size)) {
		ta->pageless_phys = phys;
		dev_info(ta->dev, "the arena has no struct page (memory-region %s lies outside the kernel's memory map): its dma-bufs are mapped as a resource\n",
			 ta->region->name);
		return 0;
	}
	/* an entry's length is an unsigned int: 1 GiB each */
	n = DIV_ROUND_UP(ta->size, SZ_1G);
	err = sg_alloc_table(&ta->pages, n, GFP_KERNEL);
	if (err)
		return err;
	for_each_sgtable_sg(&ta->pages, sg, n) {
		size_t len = min_t(size_t, ta->size - done, SZ_1G);

		sg_set_page(sg, pfn_to_page(PHYS_PFN(phys + done)), len, 0);
		done += len;
	}
	return 0;
}

/*
 * What the arena is, once, for the dma-bufs' tables (ta_arena_range_table()):
 * the DMA API promises dma_get_sgtable() for a whole allocation only, and
 * the pages behind an interior address are its business (behind an IOMMU
 * they are not the first page plus an offset).
 */
static int ta_arena_describe(struct ta_device *ta)
{
	int err;

	if (ta->region && !ta->region_cma)
		err = ta_arena_describe_pool(ta);
	else
		err = dma_get_sgtable(ta->dev, &ta->pages, ta->cpu_base,
				      ta->dma_base, ta->size);
	if (err)
		return err;
	return devm_add_action_or_reset(ta->dev, ta_arena_pages_free, ta);
}

/**
 * ta_pages_range_table() - a scatterlist of a range of a described block
 * @pages: the block's pages, in order (the arena's, the emulated fast
 *	   tier's: as the DMA API gave them for the whole allocation)
 * @offset: where the range starts in the block
 * @size: its bytes, not 0, within the block
 * @sgt: out, allocated here (free it with sg_free_table())
 *
 * Return: 0, or -ENOMEM.
 */
int ta_pages_range_table(const struct sg_table *pages, u64 offset,
			 size_t size, struct sg_table *sgt)
{
	u64 pos = 0, end = offset + size;
	struct scatterlist *sg, *out;
	unsigned int i, n = 0;
	int err;

	for_each_sgtable_sg(pages, sg, i) {
		n += pos < end && pos + sg->length > offset;
		pos += sg->length;
	}
	err = sg_alloc_table(sgt, n, GFP_KERNEL_ACCOUNT);
	if (err)
		return err;
	out = sgt->sgl;
	pos = 0;
	for_each_sgtable_sg(pages, sg, i) {
		u64 from = max(pos, offset), to = min(pos + sg->length, end);

		if (from < to) {
			u64 skip = from - pos + sg->offset;

			sg_set_page(out, pfn_to_page(page_to_pfn(sg_page(sg)) +
						     (skip >> PAGE_SHIFT)),
				    to - from, offset_in_page(skip));
			out = sg_next(out);
		}
		pos += sg->length;
	}
	return 0;
}

/**
 * ta_arena_range_table() - a scatterlist of a range of the arena
 * @ta: the device
 * @offset: where the range starts in the arena (page-aligned)
 * @size: its bytes
 * @sgt: out, allocated here (free it with sg_free_table())
 *
 * The range's pages, from the arena's own description, in as many entries
 * as they take. An arena without struct pages gets one entry without a
 * page, for the caller to map with dma_map_resource() (at
 * @ta->pageless_phys + @offset).
 *
 * Return: 0, -ENOMEM, or -EINVAL for a range outside the arena.
 */
int ta_arena_range_table(struct ta_device *ta, u64 offset, size_t size,
			 struct sg_table *sgt)
{
	if (!size || offset > ta->size || size > ta->size - offset)
		return -EINVAL;
	if (!ta->pages.orig_nents)
		return sg_alloc_table(sgt, 1, GFP_KERNEL_ACCOUNT);
	return ta_pages_range_table(&ta->pages, offset, size, sgt);
}

/**
 * ta_arena_check_region() - check that a CMA region's arena lies in it
 * @ta: the device, its arena allocated and described
 *
 * When a CMA area cannot give the arena, dma_alloc_coherent() falls back to
 * the page allocator (__dma_direct_alloc_pages()), which can hand out an
 * arena of a few MiB from anywhere. An arena of a memory-region must lie in
 * the region: check where its pages are. A coherent pool (a region that is
 * not reusable) never falls back, and its memory may have no struct page.
 *
 * Return: 0, or -ENOMEM (logged) when the arena is outside the region.
 */
int ta_arena_check_region(struct ta_device *ta)
{
	const struct reserved_mem *rmem = ta->region;
	phys_addr_t phys;

	if (!rmem || !ta->region_cma)
		return 0;
	phys = sg_phys(ta->pages.sgl);
	if (phys >= rmem->base && phys - rmem->base <= rmem->size - ta->size)
		return 0;
	dev_err(ta->dev, "the arena is not in memory-region %s: its CMA area could not give %zu bytes (another device holds part of it, or its pages could not be migrated)\n",
		rmem->name, ta->size);
	return -ENOMEM;
}

/**
 * ta_dma_limit() - the highest DMA address @dev reaches
 * @dev: a device
 *
 * Its DMA mask, lowered by the limit of its bus (dma-ranges).
 *
 * Return: the address, or 0 for a device that does no DMA.
 */
dma_addr_t ta_dma_limit(struct device *dev)
{
	if (!dev->dma_mask)
		return 0;
	return min_not_zero(*dev->dma_mask, dev->bus_dma_limit);
}

/**
 * ta_arena_check_reach() - check that the arena's device reaches all of it
 * @ta: the device, its arena allocated
 *
 * The page allocator and CMA honour the device's DMA mask and bus limit,
 * but a coherent pool (a no-map memory-region) hands out its memory
 * wherever the region is: refuse an arena the device cannot reach.
 *
 * Return: 0, or -ERANGE (logged).
 */
int ta_arena_check_reach(struct ta_device *ta)
{
	dma_addr_t last = ta->dma_base + ta->size - 1;
	dma_addr_t limit = ta_dma_limit(ta->dev);

	if (last <= limit && last >= ta->dma_base)
		return 0;
	dev_err(ta->dev, "the arena at DMA address %pad (%zu bytes) lies beyond what the device reaches (%pad: dma_bits, or the dma-ranges of its bus): move the memory-region lower, or raise the limit\n",
		&ta->dma_base, ta->size, &limit);
	return -ERANGE;
}

/**
 * ta_arena_init() - reserve the arena of @ta and set up its pool
 * @ta: the device; @ta->dev must be set
 * @size: bytes, a whole number of pages
 *
 * The memory and the pool are device-managed: they go away when the device
 * is unbound, after the character device is gone.
 *
 * When @ta->region is set (a device-tree device), dma_alloc_coherent()
 * takes the memory from that region, assigned to the device beforehand.
 *
 * The device's DMA mask is dma_bits (module parameter) when set, else 64
 * bits (32 when the platform cannot); the bus's dma-ranges lower it.
 *
 * Return: 0, -EIO when the device cannot take that mask, -ENOMEM when the
 * memory cannot be had, -ERANGE when a memory-region lies beyond the
 * device's reach.
 */
int ta_arena_init(struct ta_device *ta, u64 size)
{
	struct device *dev = ta->dev;
	int err;

	if (ta_dma_bits) {
		err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(ta_dma_bits));
	} else {
		err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
		if (err)
			err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	}
	if (err) {
		dev_err(dev, "no usable DMA mask (dma_bits %u): %d\n",
			ta_dma_bits, err);
		return -EIO;
	}

	if (size > SIZE_MAX) {
		dev_err(dev, "arena_size %llu does not fit in this kernel's address space\n",
			size);
		return -ENOMEM;
	}
	ta->size = size;
	ta->cpu_base = dmam_alloc_coherent(dev, ta->size, &ta->dma_base,
					   GFP_KERNEL | __GFP_NOWARN);
	if (!ta->cpu_base && ta->region) {
		dev_err(dev, "cannot allocate the %llu-byte arena from memory-region %s: another device holds part of it, or (reusable) pages in it could not be migrated\n",
			size, ta->region->name);
		return -ENOMEM;
	}
	if (!ta->cpu_base) {
		dev_err(dev,
			"cannot reserve a contiguous %llu-byte arena: the kernel's CMA area (or largest free block, without CMA) is smaller; lower arena_size, boot with cma=<size>, or give the device a memory-region\n",
			size);
		return -ENOMEM;
	}
	err = ta_arena_describe(ta);
	if (err)
		return err;
	err = ta_arena_check_region(ta);
	if (err)
		return err;
	err = ta_arena_check_reach(ta);
	if (err)
		return err;

	ta->pool = devm_gen_pool_create(dev, PAGE_SHIFT, dev_to_node(dev), NULL);
	if (IS_ERR(ta->pool))
		return PTR_ERR(ta->pool);
	err = gen_pool_add_virt(ta->pool, (unsigned long)ta->cpu_base,
				ta->dma_base, ta->size, dev_to_node(dev));
	if (err)
		return err;

	dev_info(dev, "arena of %zu bytes at DMA address %pad\n", ta->size,
		 &ta->dma_base);
	return 0;
}

/**
 * ta_arena_in_use() - bytes of the arena currently held by plans
 * @ta: the device
 *
 * Return: the byte count.
 */
size_t ta_arena_in_use(struct ta_device *ta)
{
	return gen_pool_size(ta->pool) - gen_pool_avail(ta->pool);
}

static void ta_chunk_largest_free(struct gen_pool *pool,
				  struct gen_pool_chunk *chunk, void *data)
{
	unsigned long bits = (chunk->end_addr - chunk->start_addr + 1) >>
			     pool->min_alloc_order;
	unsigned long *largest = data;
	unsigned long start = 0, end;

	/* Bits set in chunk->bits are allocated units; find the longest run
	 * of clear ones.
	 */
	while (start < bits) {
		start = find_next_zero_bit(chunk->bits, bits, start);
		if (start >= bits)
			break;
		end = find_next_bit(chunk->bits, bits, start);
		*largest = max(*largest, end - start);
		start = end;
	}
}

/**
 * ta_pool_largest_free() - bytes of a genalloc pool's largest free run
 * @pool: the pool (the arena's, the fast tier's)
 *
 * A snapshot: plans made or destroyed meanwhile may change it at once.
 *
 * Return: the byte count.
 */
size_t ta_pool_largest_free(struct gen_pool *pool)
{
	unsigned long largest = 0;

	gen_pool_for_each_chunk(pool, ta_chunk_largest_free, &largest);
	return largest << pool->min_alloc_order;
}

/**
 * ta_arena_largest_free() - bytes of the largest free slice
 * @ta: the device
 *
 * A snapshot: plans made or destroyed meanwhile may change it at once.
 *
 * Return: the byte count.
 */
size_t ta_arena_largest_free(struct ta_device *ta)
{
	return ta_pool_largest_free(ta->pool);
}

/**
 * ta_arena_fill_info() - fill the Out fields of an INFO request
 * @ta: the device
 * @info: the request; only Out fields are written
 * @addresses: fill the DMA addresses too (for an admin caller)
 */
void ta_arena_fill_info(struct ta_device *ta, struct ta_info *info,
			bool addresses)
{
	info->abi_version = TA_ABI_VERSION;
	info->arena_size = ta->size;
	info->bytes_in_use = ta_arena_in_use(ta);
	info->alignment = PAGE_SIZE;
	info->page_size = PAGE_SIZE;
	info->n_plans = atomic_read(&ta->n_plans);
	info->largest_free = ta_arena_largest_free(ta);
	if (addresses) {
		info->dma_base = ta->dma_base;
		info->dma_limit = ta_dma_limit(ta->dev);
	}
	ta_fast_fill_info(ta, info, addresses);
}
