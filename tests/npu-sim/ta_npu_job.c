// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_job.c - take a plan from tensorarena and run a job on it, the way
 * an NPU driver does: import the plan's dma-buf (or take the plan by ID and
 * get a dma-buf of it from the kernel API), attach it to the accelerator's
 * device and map the attachment, turn each tensor's place in the plan into
 * a DMA address inside that mapping, run the accelerator, and let go.
 */
#include <linux/cred.h>
#include <linux/dma-buf.h>
#include <linux/dma-direction.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <ta_compat.h>
#include <tensorarena_kapi.h>

#include "ta_npu_internal.h"

MODULE_IMPORT_NS(DMA_BUF);

/**
 * struct ta_npu_import - a plan as the driver holds it during a job
 * @plan: the plan, referenced
 * @dmabuf: its dma-buf, referenced
 */
struct ta_npu_import {
	struct ta_plan_obj *plan;
	struct dma_buf *dmabuf;
};

static int ta_npu_import(const struct ta_npu_job *job,
			 struct ta_npu_import *imp)
{
	int err;

	if (job->flags & TA_NPU_JOB_PLAN_ID) {
		/* Visible to the caller as to /dev/tensorarena, or ENOENT. */
		imp->plan = ta_kapi_plan_get(job->plan_id, current_cred());
		if (IS_ERR(imp->plan))
			return PTR_ERR(imp->plan);
		imp->dmabuf = ta_kapi_plan_dmabuf(imp->plan);
		if (IS_ERR(imp->dmabuf)) {
			err = PTR_ERR(imp->dmabuf);
			goto put_plan;
		}
		return 0;
	}

	imp->dmabuf = dma_buf_get(job->dmabuf_fd);
	if (IS_ERR(imp->dmabuf))
		return PTR_ERR(imp->dmabuf);
	/* Another exporter's buffer is no plan: EINVAL. */
	imp->plan = ta_kapi_plan_from_dmabuf(imp->dmabuf);
	if (IS_ERR(imp->plan)) {
		err = PTR_ERR(imp->plan);
		goto put_dmabuf;
	}
	return 0;

put_plan:
	ta_kapi_plan_put(imp->plan);
	return err;
put_dmabuf:
	dma_buf_put(imp->dmabuf);
	return err;
}

static void ta_npu_unimport(struct ta_npu_import *imp)
{
	dma_buf_put(imp->dmabuf);
	ta_kapi_plan_put(imp->plan);
}

/* The DMA segments of the attachment, in slice order. */
static int ta_npu_segments(struct sg_table *sgt, struct ta_npu_segment **out,
			   u32 *n_out)
{
	struct ta_npu_segment *segs;
	struct scatterlist *sg;
	u64 offset = 0;
	int i;

	if (!sgt->nents)
		return -EINVAL;
	segs = kcalloc(sgt->nents, sizeof(*segs), GFP_KERNEL);
	if (!segs)
		return -ENOMEM;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		segs[i].dma = sg_dma_address(sg);
		segs[i].len = sg_dma_len(sg);
		segs[i].offset = offset;
		offset += sg_dma_len(sg);
	}
	*out = segs;
	*n_out = sgt->nents;
	return 0;
}

/*
 * The accelerator's view of each tensor: the plan gives its offset in the
 * slice (its tensorarena DMA address minus the slice's); the segment that
 * holds all of it gives its DMA address for the accelerator. This NPU, like
 * most, needs each tensor contiguous in its address space.
 */
static int ta_npu_tensors(struct ta_plan_obj *plan,
			  const struct ta_npu_segment *segs, u32 n_segs,
			  u32 n_tensors, struct ta_npu_tensor **out)
{
	dma_addr_t base = ta_kapi_plan_dma_base(plan);
	struct ta_npu_tensor *tensors;
	u32 t, s;
	int err;

	tensors = kvcalloc(n_tensors, sizeof(*tensors), GFP_KERNEL);
	if (!tensors)
		return -ENOMEM;
	for (t = 0; t < n_tensors; t++) {
		dma_addr_t dma;
		u64 size, offset;

		err = ta_kapi_plan_tensor(plan, t, &dma, &size);
		if (err)
			goto free_tensors;
		tensors[t].size = size;
		if (!size)
			continue;
		offset = dma - base;
		for (s = 0; s < n_segs; s++) {
			if (offset >= segs[s].offset &&
			    offset - segs[s].offset <= segs[s].len &&
			    size <= segs[s].len - (offset - segs[s].offset))
				break;
		}
		if (s == n_segs) {
			err = -EINVAL;
			goto free_tensors;
		}
		tensors[t].dma = segs[s].dma + (offset - segs[s].offset);
	}
	*out = tensors;
	return 0;

free_tensors:
	kvfree(tensors);
	return err;
}

/**
 * ta_npu_job_run() - run a validated job on the accelerator
 * @npu: the accelerator
 * @job: the job; its op range is already checked against its ops; the
 *	 outputs (bytes read and written, time) are filled in
 * @ops: the job's ops, validated against @job->n_refs
 * @refs: the ops' references, each below @job->n_tensors
 *
 * Return: 0; -EBADF for a bad dma-buf descriptor; -EINVAL for a dma-buf
 * that is not a tensorarena plan's, a tensor count that is not the plan's,
 * or a tensor that straddles two DMA segments; -ENOENT for a plan ID the
 * caller may not see; -EIO for a bus fault; -EINTR; -ENOMEM.
 */
int ta_npu_job_run(struct ta_npu_device *npu, struct ta_npu_job *job,
		   const struct ta_op *ops, const u32 *refs)
{
	struct dma_buf_attachment *attach;
	struct ta_npu_tensor *tensors;
	struct ta_npu_segment *segs;
	struct ta_npu_import imp;
	struct ta_npu_run run = {
		.key = job->key,
		.ops = ops,
		.refs = refs,
		.op_begin = job->op_begin,
		.op_end = job->op_end,
	};
	struct sg_table *sgt;
	ktime_t start;
	int err;

	err = ta_npu_import(job, &imp);
	if (err)
		return err;
	if (ta_kapi_plan_tensor_count(imp.plan) != job->n_tensors) {
		err = -EINVAL;
		goto unimport;
	}

	attach = dma_buf_attach(imp.dmabuf, npu->dev);
	if (IS_ERR(attach)) {
		err = PTR_ERR(attach);
		goto unimport;
	}
	sgt = ta_dma_buf_map_attachment(attach, DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt)) {
		err = PTR_ERR(sgt);
		goto detach;
	}
	err = ta_npu_segments(sgt, &segs, &run.n_segs);
	if (err)
		goto unmap_attachment;
	err = ta_npu_tensors(imp.plan, segs, run.n_segs, job->n_tensors,
			     &tensors);
	if (err)
		goto free_segments;
	err = ta_dma_buf_vmap(imp.dmabuf, &run.map);
	if (err)
		goto free_tensors;
	if (run.map.is_iomem) {
		err = -EINVAL;
		goto vunmap;
	}

	run.segs = segs;
	run.tensors = tensors;
	run.slice_size = imp.dmabuf->size;
	err = mutex_lock_interruptible(&npu->hw_lock);
	if (err)
		goto vunmap;
	start = ktime_get();
	err = ta_npu_hw_execute(&run);
	job->run_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	mutex_unlock(&npu->hw_lock);
	job->bytes_read = run.bytes_read;
	job->bytes_written = run.bytes_written;

vunmap:
	ta_dma_buf_vunmap(imp.dmabuf, &run.map);
free_tensors:
	kvfree(tensors);
free_segments:
	kfree(segs);
unmap_attachment:
	ta_dma_buf_unmap_attachment(attach, sgt, DMA_BIDIRECTIONAL);
detach:
	dma_buf_detach(imp.dmabuf, attach);
unimport:
	ta_npu_unimport(&imp);
	return err;
}
