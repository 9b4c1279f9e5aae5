/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_npu_internal.h - what the parts of the reference NPU driver share.
 */
#ifndef TA_NPU_INTERNAL_H
#define TA_NPU_INTERNAL_H

#include <linux/iosys-map.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <linux/tensorarena.h>

#include "ta_npu_sim.h"

struct dma_buf;
struct dma_buf_attachment;
struct sg_table;
struct ta_plan_obj;

/* Limits of a job, as tensorarena's default module parameters. */
#define TA_NPU_MAX_OPS		65536U
#define TA_NPU_MAX_REFS		262144U

/**
 * struct ta_npu_device - the (simulated) accelerator
 * @dev: its platform device: the device the plan's dma-buf is mapped for
 * @misc: /dev/ta-npu-sim
 * @hw_lock: the accelerator runs one job at a time: held while it runs
 */
struct ta_npu_device {
	struct device *dev;
	struct miscdevice misc;
	struct mutex hw_lock; /* serialises jobs on the accelerator */
};

/**
 * struct ta_npu_segment - one DMA segment of the plan's slice, as mapped
 * for the accelerator
 * @dma: its DMA address for the accelerator's device
 * @len: its length in bytes
 * @offset: where it starts in the slice
 */
struct ta_npu_segment {
	dma_addr_t dma;
	u64 len;
	u64 offset;
};

/**
 * struct ta_npu_tensor - a tensor as the accelerator is told of it
 * @dma: its DMA address for the accelerator (unused when @size is 0)
 * @size: its size in bytes
 */
struct ta_npu_tensor {
	dma_addr_t dma;
	u64 size;
};

/**
 * struct ta_npu_run - one job: what the driver gives the accelerator
 * @key: the key of the ops' function
 * @ops: the graph's ops
 * @refs: the ops' tensor references
 * @op_begin: first op to run
 * @op_end: one past the last op to run
 * @tensors: per tensor, its DMA address and size
 * @segs: the slice's DMA segments, for the accelerator's bus emulation
 * @n_segs: entries in @segs
 * @map: the slice's kernel mapping: how the CPU emulation reaches the bytes
 *	 behind a DMA address
 * @slice_size: bytes of the slice
 * @bytes_read: out, tensor bytes read
 * @bytes_written: out, tensor bytes written
 */
struct ta_npu_run {
	u64 key;
	const struct ta_op *ops;
	const u32 *refs;
	u32 op_begin;
	u32 op_end;
	const struct ta_npu_tensor *tensors;
	const struct ta_npu_segment *segs;
	u32 n_segs;
	struct iosys_map map;
	u64 slice_size;
	u64 bytes_read;
	u64 bytes_written;
};

/* ta_npu_job.c */
int ta_npu_job_run(struct ta_npu_device *npu, struct ta_npu_job *job,
		   const struct ta_op *ops, const u32 *refs);

/* ta_npu_hw.c */
int ta_npu_hw_execute(struct ta_npu_run *run);

#endif /* TA_NPU_INTERNAL_H */
