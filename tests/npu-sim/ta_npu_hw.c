// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_hw.c - the accelerator itself, emulated by the CPU.
 *
 * A real NPU is given DMA addresses and reaches memory over its bus; this
 * one is given the same DMA addresses and reaches the bytes behind them
 * through the bus emulation below: the address must lie inside one of the
 * job's imported buffers, the plan's or its fast slice's (else the access
 * faults, as behind an IOMMU), and its place in the buffer gives the CPU
 * address in the buffer's kernel mapping.
 * Op i reads its inputs, then writes its outputs, with the function of
 * ta_npu_mix.h (an in-place op's first output is its first input).
 */
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>

#include "ta_npu_internal.h"
#include "ta_npu_mix.h"

/* The CPU address of [dma, dma + len) in one imported buffer, or NULL. */
static u8 *ta_npu_hw_window(const struct ta_npu_bo_view *window,
			    dma_addr_t dma, u64 len)
{
	if (!window->size || dma < window->dma ||
	    dma - window->dma > window->size ||
	    len > window->size - (dma - window->dma))
		return NULL;
	return (u8 *)window->vaddr + (dma - window->dma);
}

/*
 * The bus: the CPU address of [dma, dma + len), or NULL for a fault. It
 * reaches the plan's buffer and, for a tiered plan, its fast slice (the
 * SRAM); @fast says which one served the access.
 */
static u8 *ta_npu_hw_access(const struct ta_npu_run *run, dma_addr_t dma,
			    u64 len, bool *fast)
{
	u8 *p = ta_npu_hw_window(&run->bus, dma, len);

	*fast = false;
	if (p)
		return p;
	p = ta_npu_hw_window(&run->fast, dma, len);
	*fast = !!p;
	return p;
}

/* An in-place op's first output: its first input, through the bus. */
static void ta_npu_hw_view(struct ta_npu_run *run,
			   const struct ta_npu_tensor *src, u8 *dst, u64 size)
{
	bool fast;
	const u8 *from = src->size ? ta_npu_hw_access(run, src->dma,
						      src->size, &fast) : NULL;

	/* the input was read through the bus just before: it is mapped */
	ta_npu_view_output(from, from ? src->size : 0, dst, size);
}

static unsigned int ta_npu_job_timeout_ms = TA_NPU_JOB_TIMEOUT_MS;
module_param_named(job_timeout_ms, ta_npu_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "the watchdog: a job still running this long after it started stops with ETIMEDOUT (1 to 600000, default 20000)");

/* The watchdog's limit: job_timeout_ms, clamped to 1 ms .. 10 min. */
static unsigned long ta_npu_job_timeout(void)
{
	return msecs_to_jiffies(clamp(READ_ONCE(ta_npu_job_timeout_ms), 1U,
				      600000U));
}

/*
 * One tensor of an op done: the watchdog, and a chance for others to run.
 * An op may name up to TA_NPU_MAX_REFS tensors, each as large as the plan
 * (the same one many times, say): checked per tensor, not per op, so that
 * no op holds the worker past the watchdog or the CPU past a resched.
 */
static int ta_npu_hw_tick(unsigned long deadline)
{
	if (time_after(jiffies, deadline))
		return -ETIMEDOUT;
	cond_resched();
	return 0;
}

static int ta_npu_hw_op(struct ta_npu_run *run, u32 index,
			unsigned long deadline)
{
	const struct ta_op *op = &run->ops[index];
	const u32 *in = &run->refs[op->first_ref];
	const u32 *out = in + op->n_inputs;
	u64 digest = ta_npu_digest_begin(run->key, index);
	u32 k;

	for (k = 0; k < op->n_inputs; k++) {
		const struct ta_npu_tensor *t = &run->tensors[in[k]];
		const u8 *p = NULL;
		bool fast = false;

		if (t->size) {
			p = ta_npu_hw_access(run, t->dma, t->size, &fast);
			if (!p)
				return -EIO;
		}
		digest = ta_npu_digest_input(digest, p, t->size);
		run->bytes_read += t->size;
		if (fast)
			run->bytes_read_fast += t->size;
		if (ta_npu_hw_tick(deadline))
			return -ETIMEDOUT;
	}
	for (k = 0; k < op->n_outputs; k++) {
		const struct ta_npu_tensor *t = &run->tensors[out[k]];
		bool fast;
		u8 *p;

		if (!t->size)
			continue;
		p = ta_npu_hw_access(run, t->dma, t->size, &fast);
		if (!p)
			return -EIO;
		if (!k && op->n_inputs && (op->flags & TA_OP_INPLACE))
			ta_npu_hw_view(run, &run->tensors[in[0]], p, t->size);
		else
			ta_npu_fill_output(digest, k, p, t->size);
		run->bytes_written += t->size;
		if (fast)
			run->bytes_written_fast += t->size;
		if (ta_npu_hw_tick(deadline))
			return -ETIMEDOUT;
	}
	return 0;
}

/**
 * ta_npu_hw_execute() - run a job's ops on the accelerator
 * @run: the job; its ops, references and tensors are validated
 *
 * It runs on the accelerator's queue, not in the submitter's context, so
 * no signal stops it: a watchdog does, as on hardware. A job still running
 * job_timeout_ms (20 s) after it started is stopped between two tensors of
 * an op (ta_npu_hw_tick()).
 *
 * Return: 0; -EIO when an op reaches outside the imported buffer (a bus
 * fault); -ETIMEDOUT when the watchdog stopped it.
 */
int ta_npu_hw_execute(struct ta_npu_run *run)
{
	unsigned long deadline = jiffies + ta_npu_job_timeout();
	u32 i;
	int err;

	for (i = run->op_begin; i < run->op_end; i++) {
		err = ta_npu_hw_op(run, i, deadline);
		if (err)
			return err;
		err = ta_npu_hw_tick(deadline);
		if (err)
			return err;
	}
	return 0;
}
