// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_file.c - what the reference NPU driver keeps per open DRM file:
 * the count of its jobs not yet done, which bounds what one file may have
 * queued (TA_NPU_MAX_FILE_QUEUED), so that one opener cannot fill the
 * device's queues, and when and where its last TA_NPU_JOB_RECORDS jobs to
 * finish ran, which DRM_IOCTL_TA_NPU_JOB_INFO tells. A job holds a
 * reference, so both outlive a file closed while its jobs run.
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
	spin_lock_init(&tfile->lock);
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

/**
 * ta_npu_file_record() - keep when and where a finished job ran
 * @tfile: the state of the job's file
 * @record: the job's record; it replaces the file's oldest
 */
void ta_npu_file_record(struct ta_npu_file *tfile,
			const struct ta_npu_record *record)
{
	spin_lock(&tfile->lock);
	tfile->records[tfile->n_records++ % TA_NPU_JOB_RECORDS] = *record;
	spin_unlock(&tfile->lock);
}

/**
 * ta_npu_job_info_ioctl() - DRM_IOCTL_TA_NPU_JOB_INFO
 * @drm: the accelerator's DRM device
 * @data: the &struct drm_ta_npu_job_info, copied in by the DRM core
 * @file: the caller's DRM file
 *
 * Return: 0; -EINVAL for non-zero flags, pad or reserved fields, or a
 * sequence number of 0; -ENOENT when the job is not one of the last
 * TA_NPU_JOB_RECORDS of this file to finish (not finished yet, older, or
 * another file's).
 */
int ta_npu_job_info_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_ta_npu_job_info *args = data;
	struct ta_npu_file *tfile = file->driver_priv;
	struct ta_npu_record found = { 0 };
	u32 i;

	if (args->flags || args->pad || args->reserved || !args->seqno)
		return -EINVAL;
	spin_lock(&tfile->lock);
	for (i = 0; i < TA_NPU_JOB_RECORDS; i++)
		if (tfile->records[i].seqno == args->seqno)
			found = tfile->records[i];
	spin_unlock(&tfile->lock);
	if (!found.seqno)
		return -ENOENT;
	args->core = found.core;
	args->error = found.error;
	args->start_ns = found.start_ns;
	args->end_ns = found.end_ns;
	return 0;
}
