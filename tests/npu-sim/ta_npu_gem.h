/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_npu_gem.h - the reference NPU's buffer objects in its &drm_driver:
 * imports only, no dumb buffers. The GEM DMA helpers where the kernel has
 * them (ta_npu_gem.c explains the other case).
 */
#ifndef TA_NPU_GEM_H
#define TA_NPU_GEM_H

#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#if IS_ENABLED(CONFIG_DRM_GEM_DMA_HELPER)
#include <drm/drm_gem_dma_helper.h>

#define TA_NPU_GEM_DRIVER_OPS \
	DRM_GEM_DMA_DRIVER_OPS_VMAP_WITH_DUMB_CREATE(NULL)
#define TA_NPU_GEM_KIND		"GEM DMA helpers"
#else
struct drm_gem_object *ta_npu_gem_import_sg_table(struct drm_device *drm,
						  struct dma_buf_attachment *attach,
						  struct sg_table *sgt);

#define TA_NPU_GEM_DRIVER_OPS \
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd, \
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle, \
	.gem_prime_import_sg_table = ta_npu_gem_import_sg_table
#define TA_NPU_GEM_KIND		"contiguous imports"
#endif

#endif /* TA_NPU_GEM_H */
