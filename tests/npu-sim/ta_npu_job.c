// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_job.c - a job's life after its ioctl checked it: its fence, the
 * implicit synchronisation through the buffers' reservation objects, its
 * core's queue, and the signal when it is done.
 *
 * Submit locks every buffer's reservation object and, under the device's
 * submit_lock, picks the job's core (unless the caller named it), takes the
 * fences the job must wait for (a reader waits for writers, a writer for
 * everyone; not its own core's, whose queue runs in order), numbers the
 * job, adds its fence (write usage for the plan and outputs, read usage for
 * inputs) and queues it on its core. The core, one job at a time in the
 * order of their numbers, waits for those fences (a foreign one at most
 * TA_NPU_DEP_TIMEOUT, another core's until it signals), runs the ops,
 * keeps the core for the job's hold, records when it ran and signals the
 * fence, with the job's error if it failed.
 *
 * Cores never wait for each other in a circle: a job waits only for jobs
 * numbered before it, and each core runs its jobs in the order of their
 * numbers, so the lowest-numbered job not done always can run.
 */
#include <linux/dma-resv.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
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
	static const char *const names[TA_NPU_MAX_CORES] = {
		"core0", "core1", "core2", "core3",
		"core4", "core5", "core6", "core7",
	};
	struct ta_npu_job *job = container_of(fence, struct ta_npu_job, fence);

	return names[job->core->index];
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

/* Whether @fence is a job's of this accelerator (of any of its cores). */
static bool ta_npu_fence_is_own(const struct ta_npu_device *npu,
				const struct dma_fence *fence)
{
	u64 first = npu->cores[0].fence_context;

	return fence->context >= first && fence->context - first < npu->n_cores;
}

/*
 * Wait for a fence the job depends on. A foreign one: at most
 * TA_NPU_DEP_TIMEOUT, and its error is the job's. Another core's job:
 * until it is done, which it will be (its waits and its run are bounded,
 * and it waits for no job numbered after it); its error is its own, as a
 * job queued before on the same core does not fail the next.
 */
static int ta_npu_job_wait(struct ta_npu_job *job, struct dma_fence *dep)
{
	long left;

	if (ta_npu_fence_is_own(job->npu, dep)) {
		while (!dma_fence_wait_timeout(dep, false, TA_NPU_DEP_TIMEOUT))
			cond_resched();
		return 0;
	}
	left = dma_fence_wait_timeout(dep, false, TA_NPU_DEP_TIMEOUT);
	if (left == 0)
		return -ETIMEDOUT;
	if (left < 0)
		return left;
	return dep->error;
}

/*
 * Keep the core until the job's hold after @start is over, by the clock the
 * record uses: a sleep counted in jiffies can end early by it (seen under
 * TCG), so sleep again for what is left.
 */
static void ta_npu_job_hold(const struct ta_npu_job *job, ktime_t start)
{
	s64 hold_us = (s64)job->hold_ms * USEC_PER_MSEC;
	s64 left_us;

	while ((left_us = hold_us - ktime_us_delta(ktime_get(), start)) > 0)
		fsleep(left_us);
}

static void ta_npu_job_work(struct work_struct *work)
{
	struct ta_npu_job *job = container_of(work, struct ta_npu_job, work);
	struct ta_npu_device *npu = job->npu;
	struct ta_npu_core *core = job->core;
	struct dma_fence *dep;
	unsigned long index;
	ktime_t start;
	int err = 0;

	xa_for_each(&job->deps, index, dep) {
		err = ta_npu_job_wait(job, dep);
		if (err)
			break;
	}
	if (!err) {
		start = ktime_get();
		err = ta_npu_hw_execute(&job->run);
		job->run_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
		if (!err)
			ta_npu_job_hold(job, start);
		job->record.start_ns = ktime_to_ns(start);
		job->record.end_ns = ktime_get_ns();
	}
	if (err)
		dma_fence_set_error(&job->fence, err);
	job->record.error = err;
	ta_npu_file_record(job->owner, &job->record);
	/*
	 * Done means let go: the buffers and the plan are released before the
	 * fence signals, and so are the files whose last reference this
	 * worker dropped (a kernel thread's fput() is deferred), so a plan
	 * whose last holder was this job is back in the arena by then.
	 */
	atomic_dec(&job->owner->queued);
	ta_npu_job_release_refs(job);
	flush_delayed_fput();
	atomic_dec(&core->queued);
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
		if (fence->context == job->core->fence_context)
			continue;	/* its core runs in order anyway */
		err = xa_alloc(&job->deps, &id, fence, xa_limit_32b,
			       GFP_KERNEL_ACCOUNT);
		if (err)
			return err;
		dma_fence_get(fence);
	}
	return 0;
}

/* The core with the fewest jobs queued, the lowest on a tie. */
static struct ta_npu_core *ta_npu_pick_core(struct ta_npu_device *npu)
{
	struct ta_npu_core *best = &npu->cores[0];
	u32 i;

	for (i = 1; i < npu->n_cores; i++)
		if (atomic_read(&npu->cores[i].queued) <
		    atomic_read(&best->queued))
			best = &npu->cores[i];
	return best;
}

/**
 * ta_npu_job_queue() - synchronise a job with its buffers and queue it
 * @job: the job; @job->objs and @job->run are filled in, @job->core too
 *	 when the caller named the core
 * @writes: per entry of @job->objs, whether the job writes it
 *
 * On success the job belongs to its core's queue. On failure nothing was
 * changed on any buffer and the caller still owns the job.
 *
 * Return: 0; -EBUSY when the device has TA_NPU_MAX_QUEUED jobs queued, or
 * the job's file TA_NPU_MAX_FILE_QUEUED; -EINTR; -ENOMEM.
 */
int ta_npu_job_queue(struct ta_npu_job *job, const bool *writes)
{
	struct ta_npu_device *npu = job->npu;
	struct ww_acquire_ctx ctx;
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
		if (err)
			goto unlock;
	}
	mutex_lock(&npu->submit_lock);
	if (!job->core)
		job->core = ta_npu_pick_core(npu);
	for (i = 0; i < job->n_objs; i++) {
		err = ta_npu_job_add_deps(job, job->objs[i]->resv, writes[i]);
		if (err)
			goto unlock_submit;
	}
	dma_fence_init(&job->fence, &ta_npu_fence_ops, &npu->fence_lock,
		       job->core->fence_context, ++npu->seqno);
	job->record.seqno = job->fence.seqno;
	job->record.core = job->core->index;
	for (i = 0; i < job->n_objs; i++)
		dma_resv_add_fence(job->objs[i]->resv, &job->fence,
				   writes[i] ? DMA_RESV_USAGE_WRITE :
					       DMA_RESV_USAGE_READ);
	drm_gem_unlock_reservations(job->objs, job->n_objs, &ctx);
	/* One reference for the queue, one for the caller. */
	dma_fence_get(&job->fence);
	atomic_inc(&job->core->queued);
	/* Queued in the order of the numbers: under submit_lock. */
	queue_work(job->core->queue, &job->work);
	mutex_unlock(&npu->submit_lock);
	return 0;

unlock_submit:
	mutex_unlock(&npu->submit_lock);
unlock:
	drm_gem_unlock_reservations(job->objs, job->n_objs, &ctx);
unqueue:
	atomic_dec(&npu->queued);
unqueue_file:
	atomic_dec(&job->owner->queued);
	return err;
}
