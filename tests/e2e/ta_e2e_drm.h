/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_drm.h - the DRM and dma-buf plumbing the end-to-end tests share:
 * find a DRM device by driver name, PRIME import and close, vgem's fences,
 * and the dma-buf sync-file calls. Plain ioctls on libdrm's drm.h.
 */
#ifndef TA_E2E_DRM_H
#define TA_E2E_DRM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Open the DRM node whose driver is @name: its accel or render node, or
 * with @card its primary node. Returns the fd or -1.
 */
int drm_open_driver(const char *name, bool card);
/* PRIME: a GEM handle for dma-buf @fd; 0 or -errno. */
int drm_prime_import(int drm, int fd, uint32_t *handle);
/* PRIME: a dma-buf for GEM handle @handle; the fd, or -errno. */
int drm_prime_export(int drm, uint32_t handle);
void drm_gem_close_handle(int drm, uint32_t handle);

/* vgem (on its primary node): a buffer of @size bytes; 0 or -errno. */
int vgem_create(int vgem, uint64_t size, uint32_t *handle);
/* An unsignalled vgem fence on the buffer (write usage); 0 or -errno. */
int vgem_fence_attach(int vgem, uint32_t handle, uint32_t *fence);
int vgem_fence_signal(int vgem, uint32_t fence);
/*
 * Hold back whatever is submitted on @dmabuf: an unsignalled vgem fence
 * (on a vgem buffer of its own) imported into it with write usage. Opens
 * vgem's primary node into *@vgem; vgem_fence_signal(*vgem, *fence)
 * releases it. 0 or -errno.
 */
int vgem_hold(int dmabuf, int *vgem, uint32_t *fence);
/* The same fence held over each of @n dma-bufs: one release for all. */
int vgem_hold_all(const int *dmabufs, int n, int *vgem, uint32_t *fence);

/* DMA_BUF_IOCTL_EXPORT_SYNC_FILE: the fd, or -errno. */
int dmabuf_export_sync_file(int dmabuf, bool write);
/* DMA_BUF_IOCTL_IMPORT_SYNC_FILE; 0 or -errno. */
int dmabuf_import_sync_file(int dmabuf, int sync_file, bool write);
/* SYNC_IOC_FILE_INFO status: 1 signalled, 0 active, <0 its error. */
int sync_file_status(int sync_file);
/* poll() one fd for @events for at most @ms: 1 ready, 0 not, -errno. */
int poll_fd(int fd, short events, int ms);

#endif /* TA_E2E_DRM_H */
