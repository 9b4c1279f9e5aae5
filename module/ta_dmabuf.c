// SPDX-License-Identifier: GPL-2.0
/*
 * ta_dmabuf.c - export a plan's slice of the arena, or one exportable
 * tensor's range of it, as a dma-buf.
 *
 * The dma-buf holds a reference on the plan, so the slice outlives the
 * plan's ID and its owner for as long as any importer or mapping holds the
 * buffer. A buffer covers a page-aligned range of the slice: the whole
 * slice (PLAN_EXPORT), or a %TA_TENSOR_EXPORTABLE tensor's whole pages
 * (TENSOR_EXPORT); the same operations serve both, offset by the range.
 * Each attachment gets an sg_table of the range, cut from the arena's own
 * description (ta_arena_range_table(): its pages as the DMA API gave them
 * for the whole allocation), and maps it for the importing device; an
 * arena without struct pages (a no-map region outside the kernel's memory
 * map) is mapped as a resource, its table carrying DMA addresses only, as
 * the dma-buf rules let importers use. CPU access brackets sync every
 * mapped attachment, which is what a non-coherent SoC needs. Shaped after
 * the kernel's CMA heap exporter.
 *
 * A tiered plan also has a slice of the fast tier (ta_fast.c): its buffer
 * (PLAN_EXPORT with TA_EXPORT_FAST, ta_kapi_plan_fast_dmabuf()) and a fast
 * tensor's are served by the same operations on the fast tier: the
 * emulated tier's pages, or SRAM mapped as a resource (it has no struct
 * page).
 */
#include <linux/dma-buf.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/fcntl.h>
#include <linux/fdtable.h>
#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

MODULE_IMPORT_NS(TA_NS_DMA_BUF);

/* &ta_dmabuf.tensor of a buffer of the whole slice */
#define TA_DMABUF_WHOLE_PLAN	U32_MAX

/**
 * struct ta_dmabuf - what a tensorarena dma-buf points at
 * @plan: the plan, referenced for the buffer's whole life
 * @tensor: the exported tensor's index, or %TA_DMABUF_WHOLE_PLAN
 * @offset: where the buffer starts in the plan's slice (page-aligned)
 * @size: the buffer's bytes (whole pages)
 * @fast: the range is of the plan's fast slice (the fast tier), not of its
 *	  slice of the arena
 * @lock: protects @attachments and their &ta_dmabuf_attachment.mapped
 * @attachments: &struct ta_dmabuf_attachment of every importer
 */
struct ta_dmabuf {
	struct ta_plan_obj *plan;
	u32 tensor;
	u64 offset;
	size_t size;
	bool fast;
	struct mutex lock; /* protects attachments and their mapped flags */
	struct list_head attachments;
};

/**
 * struct ta_dmabuf_attachment - one importer's view
 * @dev: the importing device
 * @sgt: the range as a scatterlist (ta_arena_range_table()); for an arena
 *	 without struct pages, one entry that only has its DMA address
 * @node: in &ta_dmabuf.attachments
 * @mapped: @sgt is mapped for @dev
 */
struct ta_dmabuf_attachment {
	struct device *dev;
	struct sg_table sgt;
	struct list_head node;
	bool mapped;
};

static const struct dma_buf_ops ta_dmabuf_ops;

/* Where the buffer starts in its tier (the arena, or the fast tier). */
static u64 ta_dmabuf_arena_offset(struct ta_dmabuf *buf)
{
	struct ta_plan_obj *plan = buf->plan;

	if (buf->fast)
		return plan->fast_slice_dma - plan->ta->fast.dma_base +
		       buf->offset;
	return plan->slice_dma - plan->ta->dma_base + buf->offset;
}

/* The buffer's tier has no struct pages: it is mapped as a resource. */
static bool ta_dmabuf_pageless(struct ta_dmabuf *buf)
{
	struct ta_device *ta = buf->plan->ta;

	return buf->fast ? !ta->fast.pages.orig_nents : !ta->pages.orig_nents;
}

/* The physical address of a pageless tier's first byte. */
static phys_addr_t ta_dmabuf_pageless_phys(struct ta_dmabuf *buf)
{
	struct ta_device *ta = buf->plan->ta;

	return buf->fast ? ta->fast.phys : ta->pageless_phys;
}

/*
 * Whether @dev reaches the bus addresses [@addr, @addr + @size) directly:
 * they lie under its DMA mask and bus limit (ta_dma_limit()). This is what
 * the kernel's dma_capable() asks for a 64-bit dma_addr_t; from 7.3 on
 * that inline calls force_dma_unencrypted(), which is not exported, so a
 * module cannot use it.
 */
static bool ta_dmabuf_reaches(struct device *dev, dma_addr_t addr,
			      size_t size)
{
	if (addr == DMA_MAPPING_ERROR)
		return false;
	return addr + size - 1 <= ta_dma_limit(dev);
}

/*
 * An importer reaches the buffer when an IOMMU maps it for the importer,
 * or when each piece's bus address as the importer sees it lies under the
 * importer's DMA mask and bus limit and, for pages (dma_map_sgtable()), it
 * does not bounce every mapping through swiotlb (swiotlb=force; a
 * confidential guest's devices, which 7.3's dma_capable() refuses too). A
 * pageless tier is mapped with dma_map_resource(), which never bounces.
 * Otherwise dma_map_sgtable() would bounce it through swiotlb (and with
 * DMA_ATTR_SKIP_CPU_SYNC never copy it back): the accelerator would work
 * on a copy. Refuse at attach.
 */
static int ta_dmabuf_check_reach(struct ta_dmabuf *buf, struct device *dev,
				 struct sg_table *sgt)
{
	struct ta_plan_obj *plan = buf->plan;
	struct ta_device *ta = plan->ta;
	struct scatterlist *sg;
	dma_addr_t limit;
	unsigned int i;

	if (!dev->dma_mask || device_iommu_mapped(dev))
		return 0;
	if (ta_dmabuf_pageless(buf)) {
		phys_addr_t phys = ta_dmabuf_pageless_phys(buf) +
				   ta_dmabuf_arena_offset(buf);

		if (ta_dmabuf_reaches(dev, phys_to_dma(dev, phys), buf->size))
			return 0;
		goto refuse;
	}
	if (is_swiotlb_force_bounce(dev)) {
		dev_err_ratelimited(ta->dev, "%s %s maps all its DMA through swiotlb bounce buffers (swiotlb=force, or a confidential guest): it would work on a copy of plan %u, not on the plan\n",
				    dev_driver_string(dev), dev_name(dev),
				    plan->id);
		return -ERANGE;
	}
	for_each_sgtable_sg(sgt, sg, i)
		if (!ta_dmabuf_reaches(dev, phys_to_dma(dev, sg_phys(sg)),
				       sg->length))
			goto refuse;
	return 0;

refuse:
	limit = ta_dma_limit(dev);
	/*
	 * Not the slice's address: INFO shows the arena's addresses to
	 * admins only, and any user may ask an importer to attach.
	 */
	dev_err_ratelimited(ta->dev, "%s %s cannot reach plan %u (%zu bytes): the device reaches bus addresses up to %pad, the slice lies above; load tensorarena with dma_bits (or a lower memory-region) that the device reaches\n",
			    dev_driver_string(dev), dev_name(dev), plan->id,
			    buf->size, &limit);
	return -ERANGE;
}

static int ta_dmabuf_attach(struct dma_buf *dmabuf,
			    struct dma_buf_attachment *attachment)
{
	struct ta_dmabuf *buf = dmabuf->priv;
	struct ta_plan_obj *plan = buf->plan;
	struct ta_dmabuf_attachment *a;
	int err;

	a = kzalloc_obj(*a, GFP_KERNEL_ACCOUNT);
	if (!a)
		return -ENOMEM;
	if (buf->fast)
		err = ta_fast_range_table(plan->ta, ta_dmabuf_arena_offset(buf),
					  buf->size, &a->sgt);
	else
		err = ta_arena_range_table(plan->ta,
					   ta_dmabuf_arena_offset(buf),
					   buf->size, &a->sgt);
	if (err)
		goto free_attachment;
	err = ta_dmabuf_check_reach(buf, attachment->dev, &a->sgt);
	if (err)
		goto free_table;
	a->dev = attachment->dev;
	attachment->priv = a;
	mutex_lock(&buf->lock);
	list_add(&a->node, &buf->attachments);
	mutex_unlock(&buf->lock);
	return 0;

free_table:
	sg_free_table(&a->sgt);
free_attachment:
	kfree(a);
	return err;
}

static void ta_dmabuf_detach(struct dma_buf *dmabuf,
			     struct dma_buf_attachment *attachment)
{
	struct ta_dmabuf *buf = dmabuf->priv;
	struct ta_dmabuf_attachment *a = attachment->priv;

	mutex_lock(&buf->lock);
	list_del(&a->node);
	mutex_unlock(&buf->lock);
	sg_free_table(&a->sgt);
	kfree(a);
}

/*
 * The arena is coherent memory (dma_alloc_coherent()): every CPU view of it
 * (the kernel's, the mmaps') is a coherent mapping, so mapping it for an
 * importer has no CPU cache to write back or invalidate, hence
 * DMA_ATTR_SKIP_CPU_SYNC. That also tells DMA-API debugging that the
 * overlap of this streaming mapping with the arena's own coherent one is
 * deliberate (dma_get_sgtable() exists for exactly this). For the same
 * reason any number of importers may map the same bytes at once (a plan
 * run by several queued jobs, a camera and an NPU): nothing dirties a CPU
 * cache line of it, as DMA_ATTR_DEBUGGING_IGNORE_CACHELINES tells 7.x.
 */
#define TA_DMABUF_MAP_ATTRS \
	(DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_DEBUGGING_IGNORE_CACHELINES)

/*
 * An arena without struct pages is memory the kernel does not manage, as
 * a device's is: dma_map_resource() gives the importer its address, and
 * the table carries only that (sg_page() is NULL: importers use the DMA
 * addresses, which is all the dma-buf rules let them use).
 */
static int ta_dmabuf_map_resource(struct ta_dmabuf *buf,
				  struct ta_dmabuf_attachment *a,
				  enum dma_data_direction dir)
{
	phys_addr_t phys = ta_dmabuf_pageless_phys(buf) +
			   ta_dmabuf_arena_offset(buf);
	dma_addr_t addr;

	addr = dma_map_resource(a->dev, phys, buf->size, dir,
				TA_DMABUF_MAP_ATTRS);
	if (dma_mapping_error(a->dev, addr))
		return -ENOMEM;
	sg_dma_address(a->sgt.sgl) = addr;
	sg_dma_len(a->sgt.sgl) = buf->size;
	a->sgt.nents = 1;
	return 0;
}

static struct sg_table *ta_dmabuf_map(struct dma_buf_attachment *attachment,
				      enum dma_data_direction dir)
{
	struct ta_dmabuf *buf = attachment->dmabuf->priv;
	struct ta_dmabuf_attachment *a = attachment->priv;
	int err;

	if (ta_dmabuf_pageless(buf)) {
		err = ta_dmabuf_map_resource(buf, a, dir);
		if (err)
			return ERR_PTR(err);
		goto mapped;
	}
	err = dma_map_sgtable(attachment->dev, &a->sgt, dir,
			      TA_DMABUF_MAP_ATTRS);
	if (err)
		return ERR_PTR(err);
mapped:
	mutex_lock(&buf->lock);
	a->mapped = true;
	mutex_unlock(&buf->lock);
	return &a->sgt;
}

static void ta_dmabuf_unmap(struct dma_buf_attachment *attachment,
			    struct sg_table *sgt, enum dma_data_direction dir)
{
	struct ta_dmabuf *buf = attachment->dmabuf->priv;
	struct ta_dmabuf_attachment *a = attachment->priv;

	mutex_lock(&buf->lock);
	a->mapped = false;
	mutex_unlock(&buf->lock);
	if (ta_dmabuf_pageless(buf))
		dma_unmap_resource(attachment->dev, sg_dma_address(sgt->sgl),
				   buf->size, dir, TA_DMABUF_MAP_ATTRS);
	else
		dma_unmap_sgtable(attachment->dev, sgt, dir,
				  TA_DMABUF_MAP_ATTRS);
}

/*
 * The CPU-access brackets sync every mapped attachment for the CPU and back.
 * The arena's CPU views are coherent mappings, so on it this amounts to
 * ordering; it is skipped for an arena in a "no-map" region, which has no
 * linear-map alias for the architecture's cache maintenance to work on
 * (arm64 would fault on it).
 */
static void ta_dmabuf_sync(struct dma_buf *dmabuf, enum dma_data_direction dir,
			   bool for_cpu)
{
	struct ta_dmabuf *buf = dmabuf->priv;
	struct ta_dmabuf_attachment *a;

	if ((!buf->fast && buf->plan->ta->region_nomap) ||
	    ta_dmabuf_pageless(buf))
		return;
	mutex_lock(&buf->lock);
	list_for_each_entry(a, &buf->attachments, node) {
		if (!a->mapped)
			continue;
		if (for_cpu)
			dma_sync_sgtable_for_cpu(a->dev, &a->sgt, dir);
		else
			dma_sync_sgtable_for_device(a->dev, &a->sgt, dir);
	}
	mutex_unlock(&buf->lock);
}

static int ta_dmabuf_begin_cpu_access(struct dma_buf *dmabuf,
				      enum dma_data_direction dir)
{
	ta_dmabuf_sync(dmabuf, dir, true);
	return 0;
}

static int ta_dmabuf_end_cpu_access(struct dma_buf *dmabuf,
				    enum dma_data_direction dir)
{
	ta_dmabuf_sync(dmabuf, dir, false);
	return 0;
}

static int ta_dmabuf_mmap(struct dma_buf *dmabuf, struct vm_area_struct *vma)
{
	struct ta_dmabuf *buf = dmabuf->priv;
	struct ta_plan_obj *plan = buf->plan;
	struct ta_device *ta = plan->ta;

	/* A shared mapping: VM_MAYSHARE, as in ta_mmap(). */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (buf->fast)
		return ta_fast_mmap(ta, vma, ta_dmabuf_arena_offset(buf) +
				    ((u64)vma->vm_pgoff << PAGE_SHIFT));
	/* The core checked the range against the buffer; make the page
	 * offset the arena's, as dma_mmap_coherent() wants it.
	 */
	vma->vm_pgoff += (plan->slice_vaddr + buf->offset -
			  (unsigned long)ta->cpu_base) >> PAGE_SHIFT;
	return dma_mmap_coherent(ta->dev, vma, ta->cpu_base, ta->dma_base,
				 ta->size);
}

static int ta_dmabuf_vmap(struct dma_buf *dmabuf, struct iosys_map *map)
{
	struct ta_dmabuf *buf = dmabuf->priv;

	unsigned long base = buf->fast ? buf->plan->fast_slice_vaddr :
					 buf->plan->slice_vaddr;

	iosys_map_set_vaddr(map, (void *)(base + buf->offset));
	return 0;
}

static void ta_dmabuf_release(struct dma_buf *dmabuf)
{
	struct ta_dmabuf *buf = dmabuf->priv;

	ta_plan_obj_put(buf->plan);
	mutex_destroy(&buf->lock);
	kfree(buf);
}

static const struct dma_buf_ops ta_dmabuf_ops = {
	.attach = ta_dmabuf_attach,
	.detach = ta_dmabuf_detach,
	.map_dma_buf = ta_dmabuf_map,
	.unmap_dma_buf = ta_dmabuf_unmap,
	.begin_cpu_access = ta_dmabuf_begin_cpu_access,
	.end_cpu_access = ta_dmabuf_end_cpu_access,
	.mmap = ta_dmabuf_mmap,
	.vmap = ta_dmabuf_vmap,
	.release = ta_dmabuf_release,
};

/**
 * ta_dmabuf_plan() - the plan behind a whole plan's dma-buf
 * @dmabuf: any dma-buf
 *
 * Return: the plan (no reference taken) when tensorarena exported @dmabuf
 * as a whole plan (PLAN_EXPORT), or NULL (another exporter's buffer, or a
 * tensor's: ta_dmabuf_tensor()).
 */
struct ta_plan_obj *ta_dmabuf_plan(struct dma_buf *dmabuf)
{
	struct ta_dmabuf *buf;

	if (dmabuf->ops != &ta_dmabuf_ops)
		return NULL;
	buf = dmabuf->priv;
	return buf->tensor == TA_DMABUF_WHOLE_PLAN && !buf->fast ? buf->plan :
								    NULL;
}

/**
 * ta_dmabuf_tensor() - the plan and tensor behind a tensor dma-buf
 * @dmabuf: any dma-buf
 * @index: out, the tensor's index in the plan
 *
 * Return: the plan (no reference taken) when @dmabuf is a tensor's buffer
 * of tensorarena (TENSOR_EXPORT), or NULL (another exporter's buffer, or a
 * whole plan's).
 */
struct ta_plan_obj *ta_dmabuf_tensor(struct dma_buf *dmabuf, u32 *index)
{
	struct ta_dmabuf *buf;

	if (dmabuf->ops != &ta_dmabuf_ops)
		return NULL;
	buf = dmabuf->priv;
	if (buf->tensor == TA_DMABUF_WHOLE_PLAN)
		return NULL;
	*index = buf->tensor;
	return buf->plan;
}

/*
 * A new dma-buf of @size bytes at @offset in @plan's slice (@fast: its fast
 * slice; both whole pages, inside the slice); @tensor as &ta_dmabuf.tensor.
 * The buffer takes its own reference on the plan; the caller holds the
 * buffer's one.
 */
static struct dma_buf *ta_dmabuf_create_range(struct ta_plan_obj *plan,
					      u32 tensor, bool fast,
					      u64 offset, size_t size)
{
	size_t slice = fast ? plan->fast_slice_size : plan->slice_size;
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct dma_buf *dmabuf;
	struct ta_dmabuf *buf;

	if (!size)
		return ERR_PTR(-EINVAL);
	if (fast && !(plan->ta->fast.flags & TA_FAST_EXPORTABLE))
		return ERR_PTR(-EOPNOTSUPP);
	if (WARN_ON(!PAGE_ALIGNED(offset) || !PAGE_ALIGNED(size) ||
		    offset > slice || size > slice - offset))
		return ERR_PTR(-EINVAL);
	buf = kzalloc_obj(*buf, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	ta_plan_obj_get(plan);
	buf->plan = plan;
	buf->tensor = tensor;
	buf->offset = offset;
	buf->size = size;
	buf->fast = fast;
	mutex_init(&buf->lock);
	INIT_LIST_HEAD(&buf->attachments);

	info.ops = &ta_dmabuf_ops;
	info.size = size;
	info.flags = O_RDWR;
	info.priv = buf;
	/*
	 * Every buffer of the whole slice shares the plan's reservation
	 * object, so a job that takes the plan by ID (a buffer made for it)
	 * and one through a buffer userspace exported see each other's
	 * fences; every buffer of the whole fast slice shares the plan's
	 * second one, for the same reason (a job names both slices, and one
	 * reservation object named twice cannot be locked). A tensor's
	 * buffer keeps its own: a job names it beside the plan's.
	 */
	if (tensor == TA_DMABUF_WHOLE_PLAN)
		info.resv = fast ? &plan->fast_resv : plan->resv;
	dmabuf = dma_buf_export(&info);
	if (IS_ERR(dmabuf))
		goto free_buf;
	/* From here the buffer owns buf and the plan reference. */
	return dmabuf;

free_buf:
	mutex_destroy(&buf->lock);
	kfree(buf);
	ta_plan_obj_put(plan);
	return dmabuf;
}

/**
 * ta_dmabuf_create() - a new dma-buf of a plan's slice
 * @plan: the plan; the buffer takes its own reference
 *
 * Return: the dma-buf (the caller holds its one reference), or
 * ERR_PTR(-EINVAL) for a plan without memory (height 0), ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_dmabuf_create(struct ta_plan_obj *plan)
{
	return ta_dmabuf_create_range(plan, TA_DMABUF_WHOLE_PLAN, false, 0,
				      plan->slice_size);
}

/**
 * ta_dmabuf_create_fast() - a new dma-buf of a plan's fast slice
 * @plan: the plan; the buffer takes its own reference
 *
 * The buffer shares the reservation object of every buffer of the plan's
 * whole fast slice (&ta_plan_obj.fast_resv), apart from the arena slice's
 * (a job names it beside the plan's slice in the arena).
 *
 * Return: the dma-buf (the caller holds its one reference), or
 * ERR_PTR(-EINVAL) for a plan without a fast slice (untiered, or
 * fast_height 0), ERR_PTR(-EOPNOTSUPP) when the fast tier cannot be
 * exported, ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_dmabuf_create_fast(struct ta_plan_obj *plan)
{
	return ta_dmabuf_create_range(plan, TA_DMABUF_WHOLE_PLAN, true, 0,
				      plan->fast_slice_size);
}

/**
 * ta_dmabuf_create_tensor() - a new dma-buf of one exportable tensor
 * @plan: the plan; the buffer takes its own reference
 * @index: the tensor's index in the plan
 *
 * The buffer covers the tensor's placement: whole pages at a page-aligned
 * offset of the slice of its tier, as the planner gave an exportable
 * tensor.
 *
 * Return: the dma-buf (the caller holds its one reference), or
 * ERR_PTR(-EINVAL) for an index out of range, a tensor not marked
 * %TA_TENSOR_EXPORTABLE, a plan without memory (a dry run has no plan to
 * export; height 0) or a tensor of size 0; ERR_PTR(-EOPNOTSUPP) for a
 * tensor of a fast tier that cannot be exported; ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_dmabuf_create_tensor(struct ta_plan_obj *plan, u32 index)
{
	const struct ta_placement *pl;
	bool fast;

	if (!ta_plan_obj_tensor_exportable(plan, index))
		return ERR_PTR(-EINVAL);
	pl = &plan->placements[index];
	fast = pl->tier == TA_TIER_FAST;
	if (!(fast ? plan->fast_slice_size : plan->slice_size))
		return ERR_PTR(-EINVAL);
	return ta_dmabuf_create_range(plan, index, fast, pl->offset, pl->size);
}

/**
 * ta_dmabuf_create_tensor_by_id() - a new dma-buf of a tensor the caller names
 * @ta: the device
 * @caller: who asks; the plan must be visible to it
 * @plan_id: the plan
 * @index: the tensor's index in the plan
 * @offset: out, the tensor's offset in the plan's slice of its tier
 * @size: out, the buffer's size (the tensor's size in whole pages)
 * @tier: out, the tensor's tier
 *
 * As ta_dmabuf_create_by_id(), for one tensor (ta_dmabuf_create_tensor()).
 *
 * Return: the dma-buf; ERR_PTR(-ENOENT) for no such (visible) plan;
 * ERR_PTR(-EINVAL) as ta_dmabuf_create_tensor(); ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_dmabuf_create_tensor_by_id(struct ta_device *ta,
					      const struct ta_owner *caller,
					      u32 plan_id, u32 index,
					      u64 *offset, u64 *size, u32 *tier)
{
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;

	plan = ta_plan_obj_lookup(ta, plan_id, caller);
	if (IS_ERR(plan))
		return ERR_CAST(plan);
	dmabuf = ta_dmabuf_create_tensor(plan, index);
	if (!IS_ERR(dmabuf)) {
		*offset = plan->placements[index].offset;
		*size = plan->placements[index].size;
		*tier = plan->placements[index].tier;
	}
	ta_plan_obj_put(plan);
	return dmabuf;
}

/**
 * ta_dmabuf_create_by_id() - a new dma-buf of a plan the caller names
 * @ta: the device
 * @caller: who asks; the plan must be visible to it
 * @plan_id: the plan
 * @fast: the plan's fast slice (ta_dmabuf_create_fast()), not its slice of
 *	  the arena
 *
 * The buffer holds a reference on the plan. The caller owns the one
 * reference to the buffer: dma_buf_fd() (or get_unused_fd_flags() and
 * fd_install() of &dma_buf.file) hands it to a descriptor, dma_buf_put()
 * drops it.
 *
 * Return: the dma-buf; ERR_PTR(-ENOENT) for no such (visible) plan;
 * ERR_PTR(-EINVAL) for a plan without memory (height 0; @fast: no fast
 * slice); ERR_PTR(-EOPNOTSUPP) as ta_dmabuf_create_fast(); ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_dmabuf_create_by_id(struct ta_device *ta,
				       const struct ta_owner *caller,
				       u32 plan_id, bool fast)
{
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;

	plan = ta_plan_obj_lookup(ta, plan_id, caller);
	if (IS_ERR(plan))
		return ERR_CAST(plan);
	dmabuf = fast ? ta_dmabuf_create_fast(plan) : ta_dmabuf_create(plan);
	ta_plan_obj_put(plan);
	return dmabuf;
}
