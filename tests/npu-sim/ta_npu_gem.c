// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_gem.c - the accelerator's buffer objects: imported dma-bufs only
 * (an NPU driver of this kind allocates nothing itself).
 *
 * Where the kernel has the GEM DMA helpers (every ARM board kernel does, and
 * tensorarena's debug kernel), the driver uses them as ethosu does:
 * drm_gem_dma_prime_import_sg_table_vmap() takes a contiguous sg_table and
 * keeps a kernel mapping. Debian's x86 kernels do not build the helpers; on
 * those the same contract is kept by the few lines below the #else: one
 * contiguous DMA range per buffer, mapped for the CPU emulation.
 */
#include <linux/dma-buf.h>
#include <linux/iosys-map.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include <ta_compat.h>

#include "ta_npu_internal.h"
#include "ta_npu_gem.h"

MODULE_IMPORT_NS(TA_NS_DMA_BUF);

#if IS_ENABLED(CONFIG_DRM_GEM_DMA_HELPER)

/**
 * ta_npu_gem_view() - an imported buffer as the accelerator reaches it
 * @obj: one of this device's buffer objects
 * @view: its DMA address, kernel mapping and size
 *
 * Return: 0; -EINVAL for an object that is not an imported, mapped buffer.
 */
int ta_npu_gem_view(struct drm_gem_object *obj, struct ta_npu_bo_view *view)
{
	struct drm_gem_dma_object *dma_obj = to_drm_gem_dma_obj(obj);

	if (!obj->import_attach || !dma_obj->vaddr)
		return -EINVAL;
	view->dma = dma_obj->dma_addr;
	view->vaddr = dma_obj->vaddr;
	view->size = obj->size;
	return 0;
}

#else /* !CONFIG_DRM_GEM_DMA_HELPER */

/**
 * struct ta_npu_bo - an imported buffer, where there are no GEM DMA helpers
 * @base: the GEM object
 * @sgt: the attachment's mapping (the importer's sg_table)
 * @map: the buffer's kernel mapping
 */
struct ta_npu_bo {
	struct drm_gem_object base;
	struct sg_table *sgt;
	struct iosys_map map;
};

static struct ta_npu_bo *to_ta_npu_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct ta_npu_bo, base);
}

static void ta_npu_bo_free(struct drm_gem_object *obj)
{
	struct ta_npu_bo *bo = to_ta_npu_bo(obj);

	ta_dma_buf_vunmap(obj->import_attach->dmabuf, &bo->map);
	drm_prime_gem_destroy(obj, bo->sgt);
	drm_gem_object_release(obj);
	kfree(bo);
}

static const struct drm_gem_object_funcs ta_npu_bo_funcs = {
	.free = ta_npu_bo_free,
};

/**
 * ta_npu_gem_import_sg_table() - &drm_driver.gem_prime_import_sg_table
 * @drm: the accelerator's DRM device
 * @attach: the dma-buf's attachment to it
 * @sgt: the attachment's mapping
 *
 * Return: the new object; ERR_PTR(-EINVAL) when the buffer is not one
 * contiguous DMA range or cannot be mapped for the CPU; ERR_PTR(-ENOMEM).
 */
struct drm_gem_object *ta_npu_gem_import_sg_table(struct drm_device *drm,
						  struct dma_buf_attachment *attach,
						  struct sg_table *sgt)
{
	size_t size = attach->dmabuf->size;
	struct ta_npu_bo *bo;
	int err;

	if (drm_prime_get_contiguous_size(sgt) < size)
		return ERR_PTR(-EINVAL);
	bo = kzalloc_obj(*bo, GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	err = ta_dma_buf_vmap(attach->dmabuf, &bo->map);
	if (err)
		goto free_bo;
	if (bo->map.is_iomem) {
		err = -EINVAL;
		goto vunmap;
	}
	bo->base.funcs = &ta_npu_bo_funcs;
	drm_gem_private_object_init(drm, &bo->base, size);
	bo->sgt = sgt;
	return &bo->base;

vunmap:
	ta_dma_buf_vunmap(attach->dmabuf, &bo->map);
free_bo:
	kfree(bo);
	return ERR_PTR(err);
}

int ta_npu_gem_view(struct drm_gem_object *obj, struct ta_npu_bo_view *view)
{
	struct ta_npu_bo *bo = to_ta_npu_bo(obj);

	if (!obj->import_attach)
		return -EINVAL;
	view->dma = sg_dma_address(bo->sgt->sgl);
	view->vaddr = bo->map.vaddr;
	view->size = obj->size;
	return 0;
}

#endif /* CONFIG_DRM_GEM_DMA_HELPER */
