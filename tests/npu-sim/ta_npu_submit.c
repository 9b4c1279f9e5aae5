// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_submit.c - DRM_IOCTL_TA_NPU_SUBMIT: check a job, find its plan
 * (an imported dma-buf's GEM handle, or a plan ID through tensorarena's
 * kernel API), take a tiered plan's fast slice too, turn each tensor's
 * place in the plan into a DMA address inside the imported buffer of its
 * tier, and queue it (ta_npu_job.c).
 */
#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include <tensorarena_kapi.h>

#include "ta_npu_internal.h"

/* Everything a job says about itself, before anything is copied. */
static int ta_npu_check_submit(const struct ta_npu_device *npu,
			       struct drm_ta_npu_submit *args)
{
	if (args->flags & ~(TA_NPU_SUBMIT_PLAN_ID | TA_NPU_SUBMIT_WAIT |
			    TA_NPU_SUBMIT_CORE) ||
	    args->reserved)
		return -EINVAL;
	/* A core the accelerator has, named with the flag; else zero. */
	if (args->flags & TA_NPU_SUBMIT_CORE ? args->core >= npu->n_cores :
						args->core)
		return -EINVAL;
	if (args->hold_ms > TA_NPU_MAX_HOLD_MS)
		return -EINVAL;
	/* Name the plan one way; the other field stays zero. */
	if (args->flags & TA_NPU_SUBMIT_PLAN_ID ? args->plan_handle :
						   args->plan_id)
		return -EINVAL;
	if (!args->n_ops || args->n_ops > TA_NPU_MAX_OPS ||
	    args->n_refs > TA_NPU_MAX_REFS || !args->n_tensors ||
	    args->op_size != sizeof(struct ta_op) ||
	    args->n_bos > TA_NPU_MAX_BOS)
		return -EINVAL;
	if (!args->op_end)
		args->op_end = args->n_ops;
	if (args->op_begin >= args->op_end || args->op_end > args->n_ops)
		return -EINVAL;
	return 0;
}

/* Copy and check the ops and references of the job. */
static int ta_npu_copy_graph(const struct drm_ta_npu_submit *args,
			     struct ta_npu_run *run)
{
	struct ta_op *ops;
	u64 next = 0;
	u32 *refs;
	u32 i, k;

	ops = kvmalloc_array(args->n_ops, sizeof(*ops), GFP_KERNEL_ACCOUNT);
	run->ops = ops;
	refs = kvmalloc_array(args->n_refs ? args->n_refs : 1, sizeof(*refs),
			      GFP_KERNEL_ACCOUNT);
	run->refs = refs;
	if (!ops || !refs)
		return -ENOMEM;
	if (copy_from_user(ops, u64_to_user_ptr(args->ops),
			   array_size(args->n_ops, sizeof(*ops))) ||
	    copy_from_user(refs, u64_to_user_ptr(args->refs),
			   array_size(args->n_refs, sizeof(*refs))))
		return -EFAULT;
	/* as the planner wants them: consecutive runs covering the refs */
	for (i = 0; i < args->n_ops; i++) {
		if ((ops[i].flags & ~TA_OP_INPLACE) || ops[i].first_ref != next)
			return -EINVAL;
		next += (u64)ops[i].n_inputs + ops[i].n_outputs;
		if (next > args->n_refs)
			return -EINVAL;
	}
	if (next != args->n_refs)
		return -EINVAL;
	for (k = 0; k < args->n_refs; k++) {
		if (refs[k] >= args->n_tensors)
			return -EINVAL;
	}
	return 0;
}

/*
 * A dma-buf tensorarena made for a job (or its error), imported here: the
 * buffer object, referenced; the dma-buf's own reference is dropped.
 */
static struct drm_gem_object *ta_npu_import(struct drm_device *drm,
					    struct dma_buf *dmabuf)
{
	struct drm_gem_object *obj;

	if (IS_ERR(dmabuf))
		return ERR_CAST(dmabuf);
	obj = drm_gem_prime_import(drm, dmabuf);
	dma_buf_put(dmabuf);
	return obj;
}

/*
 * The plan's buffer object, referenced, and the plan: by handle, an
 * imported dma-buf that must be a tensorarena plan's; by ID, the plan the
 * caller may see, its dma-buf imported here for the job.
 */
static int ta_npu_find_plan(struct drm_device *drm, struct drm_file *file,
			    const struct drm_ta_npu_submit *args,
			    struct ta_npu_job *job)
{
	struct drm_gem_object *obj;

	if (args->flags & TA_NPU_SUBMIT_PLAN_ID) {
		/*
		 * The device's rule, applied to the render file the job came
		 * through and its opener (not to current: a file handed to a
		 * more privileged process gains nothing): EACCES, EBADF for a
		 * file not open for writing, ENOENT for a plan not visible.
		 */
		job->plan = ta_kapi_plan_get(args->plan_id, file->filp);
		if (IS_ERR(job->plan)) {
			int err = PTR_ERR(job->plan);

			job->plan = NULL;
			return err;
		}
		/*
		 * A tiered plan wholly in the fast tier has no bytes in the
		 * arena: its fast slice is the job's first buffer.
		 */
		job->fast_only = !ta_kapi_plan_size(job->plan) &&
				 ta_kapi_plan_fast_size(job->plan);
		obj = ta_npu_import(drm, job->fast_only ?
				   ta_kapi_plan_fast_dmabuf(job->plan) :
				   ta_kapi_plan_dmabuf(job->plan));
		if (IS_ERR(obj))
			return PTR_ERR(obj);
		job->objs[0] = obj;
		return 0;
	}

	obj = drm_gem_object_lookup(file, args->plan_handle);
	if (!obj)
		return -ENOENT;
	job->objs[0] = obj;
	if (!obj->import_attach)
		return -EINVAL;
	/* Another exporter's buffer, or one tensor's, is no plan: EINVAL. */
	job->plan = ta_kapi_plan_from_dmabuf(obj->import_attach->dmabuf);
	if (IS_ERR(job->plan)) {
		int err = PTR_ERR(job->plan);

		job->plan = NULL;
		return err;
	}
	return 0;
}

/*
 * The further buffers: tensor dma-bufs of the job's plan, each named once,
 * each read or written.
 */
static int ta_npu_find_bos(struct drm_file *file,
			   const struct drm_ta_npu_submit *args,
			   struct ta_npu_job *job, bool *writes)
{
	struct drm_ta_npu_bo bo;
	struct ta_plan_obj *plan;
	u32 i, j, tensor;

	for (i = 0; i < args->n_bos; i++) {
		struct drm_gem_object *obj;

		if (copy_from_user(&bo, u64_to_user_ptr(args->bos) +
				   i * sizeof(bo), sizeof(bo)))
			return -EFAULT;
		if (bo.flags != TA_NPU_BO_READ && bo.flags != TA_NPU_BO_WRITE)
			return -EINVAL;
		obj = drm_gem_object_lookup(file, bo.handle);
		if (!obj)
			return -ENOENT;
		job->objs[job->n_objs++] = obj;
		writes[i + 1] = bo.flags == TA_NPU_BO_WRITE;
		for (j = 0; j + 1 < job->n_objs; j++)
			if (job->objs[j] == obj)
				return -EINVAL;
		if (!obj->import_attach)
			return -EINVAL;
		plan = ta_kapi_tensor_from_dmabuf(obj->import_attach->dmabuf,
						  &tensor);
		if (IS_ERR(plan))
			return PTR_ERR(plan);
		ta_kapi_plan_put(plan);
		if (plan != job->plan)
			return -EINVAL;
	}
	return 0;
}

/*
 * A tiered plan's fast slice (the tensors it put in the NPU's SRAM): the
 * driver takes it itself through the kernel API, whichever way the plan
 * was named, and imports it beside the plan's buffer as a buffer the job
 * writes (the fast slice's reservation object, which every dma-buf of it
 * shares, is fenced too). A plan without one leaves @job->run.fast empty;
 * a plan wholly in the fast tier has it already as its first buffer.
 */
static int ta_npu_find_fast(struct drm_device *drm, struct ta_npu_job *job,
			    bool *writes)
{
	struct drm_gem_object *obj;

	if (job->fast_only || !ta_kapi_plan_fast_size(job->plan))
		return 0;
	obj = ta_npu_import(drm, ta_kapi_plan_fast_dmabuf(job->plan));
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	writes[job->n_objs] = true;
	job->objs[job->n_objs++] = obj;
	return ta_npu_gem_view(obj, &job->run.fast);
}

/*
 * The accelerator's view of each tensor: its offset in the slice of its
 * tier (its tensorarena DMA address minus the slice's) inside that slice's
 * imported buffer, which this NPU, like most, reaches as one contiguous
 * DMA range.
 */
static int ta_npu_tensors(struct ta_npu_job *job, u32 n_tensors)
{
	dma_addr_t base = ta_kapi_plan_dma_base(job->plan);
	dma_addr_t fast_base = ta_kapi_plan_fast_dma_base(job->plan);
	struct ta_npu_tensor *tensors;
	u32 t;
	int err;

	err = ta_npu_gem_view(job->objs[0], job->fast_only ? &job->run.fast :
							      &job->run.bus);
	if (err)
		return err;
	tensors = kvcalloc(n_tensors, sizeof(*tensors), GFP_KERNEL_ACCOUNT);
	job->run.tensors = tensors;
	if (!tensors)
		return -ENOMEM;
	for (t = 0; t < n_tensors; t++) {
		const struct ta_npu_bo_view *window = &job->run.bus;
		dma_addr_t dma;
		u64 size, offset;
		u32 tier;

		err = ta_kapi_plan_tensor(job->plan, t, &dma, &size) ?:
		      ta_kapi_plan_tensor_tier(job->plan, t, &tier);
		if (err)
			return err;
		tensors[t].size = size;
		if (!size)
			continue;
		offset = dma - base;
		if (tier == TA_TIER_FAST) {
			window = &job->run.fast;
			offset = dma - fast_base;
		}
		/* A fast tensor without a fast slice has an empty window. */
		if (offset > window->size || size > window->size - offset)
			return -EINVAL;
		tensors[t].dma = window->dma + offset;
	}
	return 0;
}

/* The submit itself; @args->op_end may be rewritten (0 means n_ops). */
static int ta_npu_submit(struct drm_device *drm,
			 struct drm_ta_npu_submit *args, struct drm_file *file)
{
	struct ta_npu_device *npu = to_ta_npu(drm);
	struct ta_npu_job *job;
	bool *writes;
	int err;

	err = ta_npu_check_submit(npu, args);
	if (err)
		return err;
	job = ta_npu_job_alloc(npu, file);
	if (!job)
		return -ENOMEM;
	if (args->flags & TA_NPU_SUBMIT_CORE)
		job->core = &npu->cores[args->core];
	job->hold_ms = args->hold_ms;
	/* the plan's buffer, the further ones, a tiered plan's fast slice */
	job->objs = kcalloc(args->n_bos + 2, sizeof(*job->objs),
			    GFP_KERNEL_ACCOUNT);
	writes = kcalloc(args->n_bos + 2, sizeof(*writes), GFP_KERNEL_ACCOUNT);
	if (!job->objs || !writes) {
		err = -ENOMEM;
		goto free_job;
	}
	job->run.key = args->key;
	job->run.op_begin = args->op_begin;
	job->run.op_end = args->op_end;
	err = ta_npu_copy_graph(args, &job->run);
	if (err)
		goto free_job;
	job->n_objs = 1;
	writes[0] = true;	/* the plan holds the outputs */
	err = ta_npu_find_plan(drm, file, args, job);
	if (err)
		goto free_job;
	if (ta_kapi_plan_tensor_count(job->plan) != args->n_tensors) {
		err = -EINVAL;
		goto free_job;
	}
	err = ta_npu_find_bos(file, args, job, writes);
	if (err)
		goto free_job;
	err = ta_npu_find_fast(drm, job, writes);
	if (err)
		goto free_job;
	err = ta_npu_tensors(job, args->n_tensors);
	if (err)
		goto free_job;
	err = ta_npu_job_queue(job, writes);
	if (err)
		goto free_job;
	kfree(writes);

	args->seqno = job->fence.seqno;
	if (args->flags & TA_NPU_SUBMIT_WAIT) {
		err = dma_fence_wait(&job->fence, true);
		/* Not -ERESTARTSYS: a restarted call would queue it again. */
		if (err == -ERESTARTSYS)
			err = -EINTR;
		if (!err)
			err = job->fence.error;
		args->bytes_read = job->run.bytes_read;
		args->bytes_written = job->run.bytes_written;
		args->bytes_read_fast = job->run.bytes_read_fast;
		args->bytes_written_fast = job->run.bytes_written_fast;
		args->run_ns = job->run_ns;
	}
	dma_fence_put(&job->fence);
	return err;

free_job:
	kfree(writes);
	ta_npu_job_free_unsubmitted(job);
	return err;
}

/**
 * ta_npu_submit_ioctl() - DRM_IOCTL_TA_NPU_SUBMIT
 * @drm: the accelerator's DRM device
 * @data: the &struct drm_ta_npu_submit, copied in by the DRM core
 * @file: the caller's DRM file
 *
 * Return: 0; -ENOENT for an unknown handle or a plan ID the caller may not
 * see; -EINVAL for a bad field (a core the accelerator does not have, a
 * hold over TA_NPU_MAX_HOLD_MS), a buffer that is not a tensorarena plan's
 * (or a tensor's of the same plan), a tensor count that is not the plan's,
 * a plan with no memory (a dry run's height 0); -EOPNOTSUPP for a tiered plan
 * whose fast tier cannot be exported (&ta_info.fast_flags);
 * -EFAULT; -EBUSY with too many jobs queued (the device's, or the file's
 * TA_NPU_MAX_FILE_QUEUED); -ENOMEM; with
 * %TA_NPU_SUBMIT_WAIT, the job's own error, or -EINTR when a signal ended
 * the wait (the job goes on).
 */
int ta_npu_submit_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct drm_ta_npu_submit *args = data;
	u32 op_end = args->op_end;	/* given back as it came */
	int err;

	err = ta_npu_submit(drm, args, file);
	args->op_end = op_end;
	return err;
}
