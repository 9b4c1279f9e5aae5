// SPDX-License-Identifier: GPL-2.0
/*
 * ta_fast.c - the fast tier: an NPU's SRAM beside the arena.
 *
 * Two sources. On a device-tree board, the linux,tensorarena node's
 * optional "sram" phandle points at a region of an "mmio-sram" node; the
 * kernel's sram driver (drivers/misc/sram.c) maps it and hands it out
 * through a genalloc pool, which of_gen_pool_get() finds, as
 * drivers/accel/ethosu does. The module takes all of that region at probe
 * and maps it for its device with dma_map_resource(): SRAM has no struct
 * page. Where there is no device tree, the module parameter sram_size gives
 * an emulated fast tier: that many bytes of system RAM from
 * dma_alloc_coherent(), for testing and planning; it is no faster, and the
 * log and &ta_info.fast_flags say so.
 *
 * Either way, plans take slices of the tier from a genalloc pool of its
 * own (genalloc serialises its own updates), page-granular so that slices
 * can be mapped and exported; a slice is zeroed before its new owner sees
 * it (ta_plan_obj.c). Everything here is device-managed and set at probe.
 */
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/scatterlist.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

/* The fast pool's name on the device (the arena's pool has none). */
#define TA_FAST_POOL_NAME	"tensorarena-fast"

static void ta_fast_pages_free(void *data)
{
	struct ta_fast *fast = data;

	sg_free_table(&fast->pages);
}

/* The slices' pool over [cpu_base, cpu_base + size). */
static int ta_fast_pool_init(struct ta_device *ta)
{
	struct ta_fast *fast = &ta->fast;
	struct gen_pool *pool;
	int err;

	pool = devm_gen_pool_create(ta->dev, PAGE_SHIFT, dev_to_node(ta->dev),
				    TA_FAST_POOL_NAME);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	err = gen_pool_add_virt(pool, (unsigned long)fast->cpu_base,
				fast->dma_base, fast->size,
				dev_to_node(ta->dev));
	if (err)
		return err;
	fast->pool = pool;
	return 0;
}

/**
 * ta_fast_init_emulated() - an emulated fast tier of system RAM
 * @ta: the device, its arena set up (the DMA mask is set)
 * @size: bytes (the module parameter sram_size, a whole number of pages),
 *	  0 for no fast tier
 *
 * Return: 0; -ENOMEM when the memory cannot be had (logged).
 */
int ta_fast_init_emulated(struct ta_device *ta, u64 size)
{
	struct ta_fast *fast = &ta->fast;
	struct device *dev = ta->dev;
	void *cpu_base;
	dma_addr_t dma;
	int err;

	if (!size)
		return 0;
	if (size > SIZE_MAX || !PAGE_ALIGNED(size))
		return -EINVAL;
	cpu_base = dmam_alloc_coherent(dev, size, &dma,
				       GFP_KERNEL | __GFP_NOWARN);
	if (!cpu_base) {
		dev_err(dev, "cannot allocate the emulated fast tier of %llu bytes (sram_size): lower it, or boot with a larger cma=\n",
			size);
		return -ENOMEM;
	}
	err = dma_get_sgtable(dev, &fast->pages, cpu_base, dma, size);
	if (err)
		return err;
	err = devm_add_action_or_reset(dev, ta_fast_pages_free, fast);
	if (err)
		return err;
	fast->size = size;
	fast->cpu_base = cpu_base;
	fast->dma_base = dma;
	fast->phys = sg_phys(fast->pages.sgl);
	fast->emulated = true;
	fast->flags = TA_FAST_EMULATED | TA_FAST_MAPPABLE | TA_FAST_EXPORTABLE;
	/* On failure probe fails: devres frees the memory and the table. */
	err = ta_fast_pool_init(ta);
	if (err)
		return err;
	dev_info(dev, "fast tier EMULATED: %llu bytes of system RAM stand in for SRAM (sram_size), at DMA address %pad; it is for testing and planning, it is no faster than the arena\n",
		 size, &dma);
	return 0;
}

/*
 * Whether the device reaches [@phys, @phys + @size) by direct DMA: the
 * dma-ranges of its bus translate both ends and its limit covers them.
 * dma_map_resource() refuses such a range too, but with a warning and a
 * backtrace; a device tree that puts the SRAM out of the device's reach is
 * a board's mistake to report, not a kernel bug. Behind an IOMMU the
 * mapping decides.
 */
static bool ta_fast_reachable(struct device *dev, phys_addr_t phys,
			      size_t size)
{
	dma_addr_t first, last;

	if (device_iommu_mapped(dev))
		return true;
	first = phys_to_dma(dev, phys);
	last = phys_to_dma(dev, phys + size - 1);
	return first != DMA_MAPPING_ERROR && last != DMA_MAPPING_ERROR &&
	       last >= first && last <= ta_dma_limit(dev);
}

/* devres: give the SRAM back to the sram driver's pool, unmap it. */
static void ta_fast_sram_release(void *data)
{
	struct ta_device *ta = data;
	struct ta_fast *fast = &ta->fast;

	dma_unmap_resource(ta->dev, fast->dma_base, fast->size,
			   DMA_BIDIRECTIONAL, 0);
	gen_pool_free(fast->sram_pool, (unsigned long)fast->cpu_base,
		      fast->size);
}

/**
 * ta_fast_init_of() - the fast tier of a device-tree node's sram phandle
 * @ta: the device, its arena set up (the DMA mask is set)
 * @np: the linux,tensorarena node
 *
 * Without an "sram" property there is no fast tier (0). With one, the
 * region it points at must be an mmio-sram region the sram driver has
 * bound; the module takes the whole of what is free in it, a whole number
 * of pages.
 *
 * Return: 0; -ENODEV when the phandle's pool is not there (no sram driver,
 * or it did not bind the region); -ENOMEM when the region has less than a
 * page free; -ERANGE when the device cannot reach it. Each is logged.
 */
int ta_fast_init_of(struct ta_device *ta, struct device_node *np)
{
	struct ta_fast *fast = &ta->fast;
	struct device *dev = ta->dev;
	struct gen_pool *sram_pool;
	unsigned long vaddr;
	dma_addr_t dma;
	size_t size;
	int err;

	if (!of_find_property(np, "sram", NULL))
		return 0;
	sram_pool = of_gen_pool_get(np, "sram", 0);
	if (!sram_pool) {
		dev_err(dev, "%pOF: its sram phandle names no SRAM pool: point it at a region of an mmio-sram node, and build the kernel with CONFIG_SRAM (the sram driver must bind it before tensorarena loads)\n",
			np);
		return -ENODEV;
	}
	size = round_down(gen_pool_avail(sram_pool), PAGE_SIZE);
	vaddr = size ? gen_pool_alloc(sram_pool, size) : 0;
	if (!vaddr) {
		dev_err(dev, "%pOF: its SRAM region has no free run of a whole number of pages (%zu bytes free): give tensorarena a region of its own\n",
			np, gen_pool_avail(sram_pool));
		return -ENOMEM;
	}
	fast->phys = gen_pool_virt_to_phys(sram_pool, vaddr);
	dma = DMA_MAPPING_ERROR;
	if (ta_fast_reachable(dev, fast->phys, size))
		dma = dma_map_resource(dev, fast->phys, size,
				       DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(dev, dma)) {
		dev_err(dev, "%pOF: the device cannot reach its SRAM at %pa (%zu bytes): dma_bits, or the dma-ranges of its bus, exclude it\n",
			np, &fast->phys, size);
		gen_pool_free(sram_pool, vaddr, size);
		fast->phys = 0;
		return -ERANGE;
	}
	fast->sram_pool = sram_pool;
	fast->cpu_base = (void *)vaddr;
	fast->dma_base = dma;
	fast->size = size;
	/*
	 * From here devres gives the SRAM back (at once if adding the action
	 * fails), and on any failure probe fails: @fast is never read again
	 * but by that action.
	 */
	err = devm_add_action_or_reset(dev, ta_fast_sram_release, ta);
	if (err)
		return err;
	/* mmap and dma-bufs map it by pages: it must start on one. */
	if (PAGE_ALIGNED(fast->phys))
		fast->flags = TA_FAST_MAPPABLE | TA_FAST_EXPORTABLE;
	err = ta_fast_pool_init(ta);
	if (err)
		return err;
	dev_info(dev, "fast tier: %zu bytes of SRAM at %pa, DMA address %pad%s\n",
		 size, &fast->phys, &dma,
		 fast->flags ? "" : " (not page-aligned: it cannot be mapped or exported)");
	return 0;
}

/**
 * ta_fast_alloc() - a slice of the fast tier
 * @ta: the device
 * @size: bytes, a whole number of pages, not 0
 * @vaddr: out, its kernel address
 * @dma: out, its DMA address
 *
 * The slice is not zeroed here: the caller does it before anyone sees it.
 *
 * Return: 0; -ENODEV without a fast tier; -ENOSPC when it has no free run
 * of @size bytes.
 */
int ta_fast_alloc(struct ta_device *ta, size_t size, unsigned long *vaddr,
		  dma_addr_t *dma)
{
	struct ta_fast *fast = &ta->fast;
	unsigned long addr;

	if (!fast->size)
		return -ENODEV;
	if (!size || size > fast->size)
		return -ENOSPC;
	addr = gen_pool_alloc(fast->pool, size);
	if (!addr)
		return -ENOSPC;
	*vaddr = addr;
	*dma = gen_pool_virt_to_phys(fast->pool, addr);
	return 0;
}

/**
 * ta_fast_free() - give a slice back
 * @ta: the device
 * @vaddr: what ta_fast_alloc() gave
 * @size: the same size
 */
void ta_fast_free(struct ta_device *ta, unsigned long vaddr, size_t size)
{
	gen_pool_free(ta->fast.pool, vaddr, size);
}

/**
 * ta_fast_in_use() - bytes of the fast tier held by plans
 * @ta: the device
 *
 * Return: the byte count (0 without a fast tier).
 */
size_t ta_fast_in_use(struct ta_device *ta)
{
	if (!ta->fast.size)
		return 0;
	return gen_pool_size(ta->fast.pool) - gen_pool_avail(ta->fast.pool);
}

/**
 * ta_fast_largest_free() - bytes of the fast tier's largest free run
 * @ta: the device
 *
 * Return: the byte count (0 without a fast tier); a snapshot.
 */
size_t ta_fast_largest_free(struct ta_device *ta)
{
	if (!ta->fast.size)
		return 0;
	return ta_pool_largest_free(ta->fast.pool);
}

/**
 * ta_fast_fill_info() - the fast tier's Out fields of an INFO request
 * @ta: the device
 * @info: the request
 * @addresses: fill the DMA address too (an admin caller)
 */
void ta_fast_fill_info(struct ta_device *ta, struct ta_info *info,
		       bool addresses)
{
	info->fast_size = ta->fast.size;
	info->fast_in_use = ta_fast_in_use(ta);
	info->fast_largest_free = ta_fast_largest_free(ta);
	info->fast_dma_base = addresses ? ta->fast.dma_base : 0;
	info->fast_flags = ta->fast.flags;
	info->fast_pad = 0;
}

/**
 * ta_fast_range_table() - a scatterlist of a range of the fast tier
 * @ta: the device
 * @offset: where the range starts in the tier (page-aligned)
 * @size: its bytes
 * @sgt: out, allocated here (free it with sg_free_table())
 *
 * The emulated tier's pages; SRAM has none: one entry without a page, for
 * the caller to map with dma_map_resource() at &ta_fast.phys + @offset.
 *
 * Return: 0; -EINVAL for a range outside the tier; -ENOMEM.
 */
int ta_fast_range_table(struct ta_device *ta, u64 offset, size_t size,
			struct sg_table *sgt)
{
	struct ta_fast *fast = &ta->fast;

	if (!size || offset > fast->size || size > fast->size - offset)
		return -EINVAL;
	if (!fast->pages.orig_nents)
		return sg_alloc_table(sgt, 1, GFP_KERNEL_ACCOUNT);
	return ta_pages_range_table(&fast->pages, offset, size, sgt);
}

/**
 * ta_fast_mmap() - map a range of the fast tier into a vma
 * @ta: the device
 * @vma: the mapping, as long as the range; its vm_pgoff is overwritten
 * @offset: where the range starts in the tier (page-aligned)
 *
 * Return: 0; -EINVAL for a range outside the tier; -EOPNOTSUPP when the
 * tier cannot be mapped; the error of the mapping.
 */
int ta_fast_mmap(struct ta_device *ta, struct vm_area_struct *vma, u64 offset)
{
	struct ta_fast *fast = &ta->fast;
	unsigned long len = vma->vm_end - vma->vm_start;

	if (!(fast->flags & TA_FAST_MAPPABLE))
		return -EOPNOTSUPP;
	if (!PAGE_ALIGNED(offset) || offset > fast->size ||
	    len > fast->size - offset)
		return -EINVAL;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	if (fast->emulated) {
		vma->vm_pgoff = offset >> PAGE_SHIFT;
		return dma_mmap_coherent(ta->dev, vma, fast->cpu_base,
					 fast->dma_base, fast->size);
	}
	/* SRAM: device memory, as the sram driver maps it (write-combined). */
	vma->vm_pgoff = 0;
	vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	return vm_iomap_memory(vma, fast->phys + offset, len);
}
