// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_drm.c - DRM and dma-buf plumbing of the end-to-end tests
 * (ta_e2e_drm.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>

#include "drm.h"
#include "ta_e2e_drm.h"

/* vgem's uAPI (include/uapi/drm/vgem_drm.h; libdrm does not ship it). */
struct ta_vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
	uint32_t out_fence;
	uint32_t pad;
};

struct ta_vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define TA_VGEM_FENCE_WRITE		0x1
#define TA_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct ta_vgem_fence_attach)
#define TA_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct ta_vgem_fence_signal)

static bool drm_is_driver(int fd, const char *name)
{
	char buf[64] = "";
	struct drm_version v = {
		.name = buf,
		.name_len = sizeof(buf) - 1,
	};

	return !ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(buf, name);
}

int drm_open_driver(const char *name, bool card)
{
	static const char *const patterns[] = {
		"/dev/accel/accel*", "/dev/dri/renderD*", "/dev/dri/card*",
	};
	size_t p, i;
	int fd = -1;

	for (p = card ? 2 : 0; p < (card ? 3 : 2) && fd < 0; p++) {
		glob_t g;

		if (glob(patterns[p], 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc && fd < 0; i++) {
			fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);
			if (fd >= 0 && !drm_is_driver(fd, name)) {
				close(fd);
				fd = -1;
			}
		}
		globfree(&g);
	}
	return fd;
}

int drm_prime_import(int drm, int fd, uint32_t *handle)
{
	struct drm_prime_handle h = { .fd = fd };

	if (ioctl(drm, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h))
		return -errno;
	*handle = h.handle;
	return 0;
}

int drm_prime_export(int drm, uint32_t handle)
{
	struct drm_prime_handle h = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
	};

	if (ioctl(drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h))
		return -errno;
	return h.fd;
}

void drm_gem_close_handle(int drm, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	ioctl(drm, DRM_IOCTL_GEM_CLOSE, &c);
}

int vgem_create(int vgem, uint64_t size, uint32_t *handle)
{
	struct drm_mode_create_dumb d = {
		.width = 1024,
		.bpp = 32,
		.height = (size + 4095) / 4096,
	};

	if (ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &d))
		return -errno;
	*handle = d.handle;
	return 0;
}

int vgem_fence_attach(int vgem, uint32_t handle, uint32_t *fence)
{
	struct ta_vgem_fence_attach a = {
		.handle = handle,
		.flags = TA_VGEM_FENCE_WRITE,
	};

	if (ioctl(vgem, TA_IOCTL_VGEM_FENCE_ATTACH, &a))
		return -errno;
	*fence = a.out_fence;
	return 0;
}

int vgem_fence_signal(int vgem, uint32_t fence)
{
	struct ta_vgem_fence_signal s = { .fence = fence };

	return ioctl(vgem, TA_IOCTL_VGEM_FENCE_SIGNAL, &s) ? -errno : 0;
}

int dmabuf_export_sync_file(int dmabuf, bool write)
{
	struct dma_buf_export_sync_file e = {
		.flags = write ? DMA_BUF_SYNC_WRITE : DMA_BUF_SYNC_READ,
		.fd = -1,
	};

	if (ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e))
		return -errno;
	return e.fd;
}

int dmabuf_import_sync_file(int dmabuf, int sync_file, bool write)
{
	struct dma_buf_import_sync_file i = {
		.flags = write ? DMA_BUF_SYNC_WRITE : DMA_BUF_SYNC_READ,
		.fd = sync_file,
	};

	return ioctl(dmabuf, DMA_BUF_IOCTL_IMPORT_SYNC_FILE, &i) ? -errno : 0;
}

int sync_file_status(int sync_file)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(sync_file, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.status;
}

int poll_fd(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n = poll(&p, 1, ms);

	if (n < 0)
		return -errno;
	return n > 0 && (p.revents & events) ? 1 : 0;
}

/*
 * An unsignalled vgem fence imported into each of the @n dma-bufs at
 * @dmabufs (write usage): whatever is submitted on any of them waits until
 * vgem_fence_signal(*vgem, *fence).
 */
int vgem_hold_all(const int *dmabufs, int n, int *vgem, uint32_t *fence)
{
	int buf = -1, sync = -1, err, i;
	uint32_t handle = 0;

	*vgem = drm_open_driver("vgem", true);
	if (*vgem < 0)
		return -ENODEV;
	err = vgem_create(*vgem, 4096, &handle);
	if (!err)
		err = vgem_fence_attach(*vgem, handle, fence);
	if (!err) {
		buf = drm_prime_export(*vgem, handle);
		err = buf < 0 ? buf : 0;
	}
	if (!err) {
		sync = dmabuf_export_sync_file(buf, true);
		err = sync < 0 ? sync : 0;
	}
	for (i = 0; i < n && !err; i++)
		err = dmabuf_import_sync_file(dmabufs[i], sync, true);
	if (sync >= 0)
		close(sync);
	if (buf >= 0)
		close(buf);
	if (handle)
		drm_gem_close_handle(*vgem, handle);
	return err;
}

/* vgem_hold_all() of one dma-buf. */
int vgem_hold(int dmabuf, int *vgem, uint32_t *fence)
{
	return vgem_hold_all(&dmabuf, 1, vgem, fence);
}
