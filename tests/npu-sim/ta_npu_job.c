// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_job.c - a job's life after its ioctl checked it: its fence, the
 * implicit synchronisation through the buffers' reservation objects, the
 * accelerator's queue, and the signal when it is done.
 *
 * Submit locks every buffer's reservation object, takes the fences the job
 * must wait for (a reader waits for writers, a writer for everyone), adds
 * the job's own fence (write usage for the plan and outputs, read usage for
 * inputs) and queues the job. The queue, one job at a time in submission
 * order, waits for those fences (each at most TA_NPU_DEP_TIMEOUT), runs the
 * ops and signals the fence, with the job's error if it failed.
 */
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include <ta_compat.h>
#include <tensorarena_kapi.h>

#include "ta_npu_internal.h"

static const char *ta_npu_fence_driver_name(struct dma_fence *fence)
{
	return TA_NPU_DRIVER_NAME;
}

static const char *ta_npu_fence_timeline_name(struct dma_fence *fence)
{
	return "queue";
}

/*
 * The last reference to the fence goes: free the job. The module stays
 * loaded while any of its fences exists (a dma-buf's reservation object
 * may hold one long after the job), since the fence's ops are its code.
 */
static void ta_npu_fence_release(struct dma_fence *fence)
{
	struct ta_npu_job *job = container_of(fence, struct ta_npu_job, fence);

	dma_fence_free(&job->fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops ta_npu_fence_ops = {
	.get_driver_name = ta_npu_fence_driver_name,
	.get_timeline_name = ta_npu_fence_timeline_name,
	.release = ta_npu_fence_release,
};

/* Everything the job holds but its fence. */
static void ta_npu_job_release_refs(struct ta_npu_job *job)
{
	struct dma_fence *fence;
	unsigned long index;
	u32 i;

	xa_for_each(&job->deps, index, fence)
		dma_fence_put(fence);
	xa_destroy(&job->deps);
	for (i = 0; i < job->n_objs; i++)
		if (job->objs[i])
			drm_gem_object_put(job->objs[i]);
	kfree(job->objs);
	job->objs = NULL;
	if (job->plan)
		ta_kapi_plan_put(job->plan);
	job->plan = NULL;
	kvfree(job->run.tensors);
	kvfree(job->run.refs);
	kvfree(job->run.ops);
	job->run.tensors = NULL;
	job->run.refs = NULL;
	job->run.ops = NULL;
	ta_npu_file_put(job->owner);
	job->owner = NULL;
}

static void ta_npu_job_work(struct work_struct *work)
{
	struct ta_npu_job *job = container_of(work, struct ta_npu_job, work);
	struct ta_npu_device *npu = job->npu;
	struct dma_fence *dep;
	unsigned long index;
	ktime_t start;
	long left;
	int err = 0;

	xa_for_each(&job->deps, index, dep) {
		left = dma_fence_wait_timeout(dep, false, TA_NPU_DEP_TIMEOUT);
		if (left == 0)
			err = -ETIMEDOUT;
		else if (left < 0)
			err = left;
		else
			err = dep->error;
		if (err)
			break;
	}
	if (!err) {
		start = ktime_get();
		err = ta_npu_hw_execute(&job->run);
		job->run_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	}
	if (err)
		dma_fence_set_error(&job->fence, err);
	/*
	 * Done means let go: the buffers and the plan are released before the
	 * fence signals, and so are the files whose last reference this
	 * worker dropped (a kernel thread's fput() is deferred), so a plan
	 * whose last holder was this job is back in the arena by then.
	 */
	atomic_dec(&job->owner->queued);
	ta_npu_job_release_refs(job);
	flush_delayed_fput();
	atomic_dec(&npu->queued);
	dma_fence_signal(&job->fence);
	dma_fence_put(&job->fence);
}

/**
 * ta_npu_job_alloc() - a new job with its fence, not yet submitted
 * @npu: the accelerator
 * @file: the DRM file the job comes through
 *
 * The job and everything it holds are charged to the submitter's memory
 * cgroup until it is done.
 *
 * Return: the job, or NULL without memory. Its fence holds a reference on
 * the module until it is released.
 */
struct ta_npu_job *ta_npu_job_alloc(struct ta_npu_device *npu,
				    struct drm_file *file)
{
	struct ta_npu_job *job;

	/* The fence is freed as the job's start (dma_fence_free()). */
	BUILD_BUG_ON(offsetof(struct ta_npu_job, fence));
	job = kzalloc_obj(*job, GFP_KERNEL_ACCOUNT);
	if (!job)
		return NULL;
	__module_get(THIS_MODULE);
	job->npu = npu;
	job->owner = ta_npu_file_get(file->driver_priv);
	xa_init_flags(&job->deps, XA_FLAGS_ALLOC);
	INIT_WORK(&job->work, ta_npu_job_work);
	return job;
}

/**
 * ta_npu_job_free_unsubmitted() - drop a job that was never queued
 * @job: the job, from ta_npu_job_alloc(); its fence was not initialised
 */
void ta_npu_job_free_unsubmitted(struct ta_npu_job *job)
{
	ta_npu_job_release_refs(job);
	kfree(job);
	module_put(THIS_MODULE);
}

/* Take the fences @resv holds that a reader (or writer) must wait for. */
static int ta_npu_job_add_deps(struct ta_npu_job *job, struct dma_resv *resv,
			       bool write)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	u32 id;
	int err;

	dma_resv_for_each_fence(&cursor, resv, dma_resv_usage_rw(write),
				fence) {
		if (fence->context == job->npu->fence_context)
			continue;	/* the queue runs in order anyway */
		err = xa_alloc(&job->deps, &id, fence, xa_limit_32b,
			       GFP_KERNEL_ACCOUNT);
		if (err)
			return err;
		dma_fence_get(fence);
	}
	return 0;
}

/**
 * ta_npu_job_queue() - synchronise a job with its buffers and queue it
 * @job: the job; @job->objs and @job->run are filled in
 * @writes: per entry of @job->objs, whether the job writes it
 *
 * On success the job belongs to the queue. On failure nothing was changed
 * on any buffer and the caller still owns the job.
 *
 * Return: 0; -EBUSY when the device has TA_NPU_MAX_QUEUED jobs queued, or
 * the job's file TA_NPU_MAX_FILE_QUEUED; -EINTR; -ENOMEM.
 */
int ta_npu_job_queue(struct ta_npu_job *job, const bool *writes)
{
	struct ta_npu_device *npu = job->npu;
	struct ww_acquire_ctx ctx;
	unsigned long flags;
	u32 i;
	int err;

	if (atomic_inc_return(&job->owner->queued) > TA_NPU_MAX_FILE_QUEUED) {
		err = -EBUSY;
		goto unqueue_file;
	}
	if (atomic_inc_return(&npu->queued) > TA_NPU_MAX_QUEUED) {
		err = -EBUSY;
		goto unqueue;
	}
	err = drm_gem_lock_reservations(job->objs, job->n_objs, &ctx);
	if (err)
		goto unqueue;
	for (i = 0; i < job->n_objs; i++) {
		err = dma_resv_reserve_fences(job->objs[i]->resv, 1);
		if (!err)
			err = ta_npu_job_add_deps(job, job->objs[i]->resv,
						  writes[i]);
		if (err)
			goto unlock;
	}
	spin_lock_irqsave(&npu->fence_lock, flags);
	dma_fence_init(&job->fence, &ta_npu_fence_ops, &npu->fence_lock,
		       npu->fence_context, ++npu->seqno);
	spin_unlock_irqrestore(&npu->fence_lock, flags);
	for (i = 0; i < job->n_objs; i++)
		dma_resv_add_fence(job->objs[i]->resv, &job->fence,
				   writes[i] ? DMA_RESV_USAGE_WRITE :
					       DMA_RESV_USAGE_READ);
	drm_gem_unlock_reservations(job->objs, job->n_objs, &ctx);
	/* One reference for the queue, one for the caller. */
	dma_fence_get(&job->fence);
	queue_work(npu->queue, &job->work);
	return 0;

unlock:
	drm_gem_unlock_reservations(job->objs, job->n_objs, &ctx);
unqueue:
	atomic_dec(&npu->queued);
unqueue_file:
	atomic_dec(&job->owner->queued);
	return err;
}
