// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_file.c - what the reference NPU driver keeps per open DRM file:
 * the count of its jobs not yet done, which bounds what one file may have
 * queued (TA_NPU_MAX_FILE_QUEUED), so that one opener cannot fill the
 * device's queue. A job holds a reference, so the count outlives a file
 * closed while its jobs run.
 */
#include <linux/kref.h>
#include <linux/slab.h>
#include <drm/drm_file.h>

#include <ta_compat.h>

#include "ta_npu_internal.h"

/**
 * ta_npu_open() - &drm_driver.open: the file's state
 * @drm: the accelerator's DRM device
 * @file: the DRM file being opened
 *
 * The state is charged to the opener's memory cgroup.
 *
 * Return: 0; -ENOMEM.
 */
int ta_npu_open(struct drm_device *drm, struct drm_file *file)
{
	struct ta_npu_file *tfile;

	tfile = kzalloc_obj(*tfile, GFP_KERNEL_ACCOUNT);
	if (!tfile)
		return -ENOMEM;
	kref_init(&tfile->ref);
	atomic_set(&tfile->queued, 0);
	file->driver_priv = tfile;
	return 0;
}

static void ta_npu_file_release(struct kref *ref)
{
	kfree(container_of(ref, struct ta_npu_file, ref));
}

/**
 * ta_npu_file_get() - a reference for a job of the file
 * @tfile: the file's state, from &drm_file.driver_priv
 *
 * Return: @tfile.
 */
struct ta_npu_file *ta_npu_file_get(struct ta_npu_file *tfile)
{
	kref_get(&tfile->ref);
	return tfile;
}

/**
 * ta_npu_file_put() - drop a reference from ta_npu_file_get()
 * @tfile: the file's state; may be NULL
 */
void ta_npu_file_put(struct ta_npu_file *tfile)
{
	if (tfile)
		kref_put(&tfile->ref, ta_npu_file_release);
}

/**
 * ta_npu_postclose() - &drm_driver.postclose: the file's reference goes
 * @drm: the accelerator's DRM device
 * @file: the DRM file being closed
 *
 * Its queued jobs keep the state until they are done.
 */
void ta_npu_postclose(struct drm_device *drm, struct drm_file *file)
{
	ta_npu_file_put(file->driver_priv);
	file->driver_priv = NULL;
}
