/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_npu_internal.h - what the parts of the reference NPU driver share.
 */
#ifndef TA_NPU_INTERNAL_H
#define TA_NPU_INTERNAL_H

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>

#include <linux/tensorarena.h>

#include "ta_npu_sim.h"

struct drm_file;
struct drm_gem_object;
struct ta_plan_obj;

/* Limits of a job, as tensorarena's default module parameters. */
#define TA_NPU_MAX_OPS		65536U
#define TA_NPU_MAX_REFS		262144U
/* Jobs queued and not yet done, per device: more wait with -EBUSY. */
#define TA_NPU_MAX_QUEUED	64
/* Of those, what one DRM file may have: more wait with -EBUSY. */
#define TA_NPU_MAX_FILE_QUEUED	8
/* How long a job waits for a fence it depends on. */
#define TA_NPU_DEP_TIMEOUT	(10 * HZ)
/* How long a job may run, by default: the accelerator's watchdog. */
#define TA_NPU_JOB_TIMEOUT_MS	20000U

/**
 * struct ta_npu_core - one core of the accelerator: a hardware queue
 * @queue: its jobs, one at a time, in the order of their sequence numbers
 * @fence_context: its timeline: its jobs' fences signal in order
 * @queued: its jobs submitted and not yet done
 * @index: its number, 0 to n_cores - 1
 */
struct ta_npu_core {
	struct workqueue_struct *queue;
	u64 fence_context;
	atomic_t queued;
	u32 index;
};

/**
 * struct ta_npu_device - the (simulated) accelerator
 * @drm: its DRM device (accel or render node), on the platform device
 * @submit_lock: protects @seqno and the order of the cores' queues: a
 *	job's sequence number is given, its fence added to its buffers and
 *	the job queued on its core under it, so each core runs its jobs in
 *	the order of their numbers and a job is queued after every job it
 *	waits for on its core
 * @fence_lock: protects the signalling of the jobs' fences
 * @seqno: last sequence number given out, one count for all cores
 * @queued: jobs submitted and not yet done
 * @n_cores: entries of @cores in use
 * @cores: its cores
 */
struct ta_npu_device {
	struct drm_device drm;
	struct mutex submit_lock; /* protects @seqno and the queues' order */
	spinlock_t fence_lock; /* protects the signalling of the jobs' fences */
	u64 seqno;
	atomic_t queued;
	u32 n_cores;
	struct ta_npu_core cores[TA_NPU_MAX_CORES];
};

/**
 * struct ta_npu_record - when and where a finished job ran
 * @seqno: its sequence number; 0 for a free entry
 * @core: the core that ran it
 * @error: its error (0 or a negative errno)
 * @start_ns: when its ops started (CLOCK_MONOTONIC), 0 if they never did
 * @end_ns: when it let go of its core, 0 with @start_ns
 */
struct ta_npu_record {
	u64 seqno;
	u32 core;
	int error;
	u64 start_ns;
	u64 end_ns;
};

/**
 * struct ta_npu_file - what the driver keeps per open DRM file
 * @ref: held by the file and by each of its jobs not yet done
 * @queued: its jobs submitted and not yet done (at most
 *	TA_NPU_MAX_FILE_QUEUED)
 * @lock: protects @records and @n_records
 * @records: its last TA_NPU_JOB_RECORDS jobs to finish, in a ring
 * @n_records: jobs recorded so far; the next goes to this modulo the ring
 */
struct ta_npu_file {
	struct kref ref;
	atomic_t queued;
	spinlock_t lock; /* protects @records and @n_records */
	struct ta_npu_record records[TA_NPU_JOB_RECORDS];
	u32 n_records;
};

/**
 * struct ta_npu_bo_view - an imported buffer as the accelerator sees it
 * @dma: its DMA address (it is contiguous for the accelerator)
 * @vaddr: its kernel mapping: how the CPU emulation reaches the bytes
 * @size: its size in bytes
 */
struct ta_npu_bo_view {
	dma_addr_t dma;
	void *vaddr;
	size_t size;
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
 * struct ta_npu_run - what the driver gives the accelerator for one job
 * @key: the key of the ops' function
 * @ops: the graph's ops
 * @refs: the ops' tensor references
 * @op_begin: first op to run
 * @op_end: one past the last op to run
 * @tensors: per tensor, its DMA address and size
 * @bus: the plan's buffer: a DMA range the job may reach
 * @fast: the plan's fast slice, the other range it may reach (size 0 for
 *	  a plan without one)
 * @bytes_read: out, tensor bytes read
 * @bytes_written: out, tensor bytes written
 * @bytes_read_fast: out, those of @bytes_read read from @fast
 * @bytes_written_fast: out, those of @bytes_written written to @fast
 */
struct ta_npu_run {
	u64 key;
	const struct ta_op *ops;
	const u32 *refs;
	u32 op_begin;
	u32 op_end;
	const struct ta_npu_tensor *tensors;
	struct ta_npu_bo_view bus;
	struct ta_npu_bo_view fast;
	u64 bytes_read;
	u64 bytes_written;
	u64 bytes_read_fast;
	u64 bytes_written_fast;
};

/**
 * struct ta_npu_job - a submitted job, from submit until its fence goes
 * @fence: its fence (first: the job is freed with it); holds a reference
 *	   on the module while it exists, as its ops are this module's
 * @npu: the accelerator
 * @owner: the state of the DRM file it came through, referenced until the
 *	   job is done (its jobs count against TA_NPU_MAX_FILE_QUEUED)
 * @core: the core it runs on; NULL until queued, unless the caller named it
 * @hold_ms: the least time it keeps its core once its ops started
 * @record: when and where it ran, for its file's records
 * @work: runs it on @core's queue
 * @run: what it runs; @run.ops, @run.refs and @run.tensors are its own
 * @plan: the plan, referenced until the job is done
 * @objs: the buffers it names (the plan's first, its fast slice's last),
 *	  referenced until done
 * @fast_only: the plan is wholly in the fast tier: @objs[0] is its fast
 *	       slice, and @run.bus is empty
 * @n_objs: entries in @objs
 * @deps: the fences it waits for before it runs, referenced
 * @run_ns: out, time the ops took
 */
struct ta_npu_job {
	struct dma_fence fence;
	struct ta_npu_device *npu;
	struct ta_npu_file *owner;
	struct ta_npu_core *core;
	u32 hold_ms;
	struct ta_npu_record record;
	struct work_struct work;
	struct ta_npu_run run;
	struct ta_plan_obj *plan;
	struct drm_gem_object **objs;
	bool fast_only;
	u32 n_objs;
	struct xarray deps;
	u64 run_ns;
};

static inline struct ta_npu_device *to_ta_npu(struct drm_device *drm)
{
	return container_of(drm, struct ta_npu_device, drm);
}

/* ta_npu_gem.c */
int ta_npu_gem_view(struct drm_gem_object *obj, struct ta_npu_bo_view *view);

/* ta_npu_submit.c */
int ta_npu_submit_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file);

/* ta_npu_file.c */
int ta_npu_open(struct drm_device *drm, struct drm_file *file);
void ta_npu_postclose(struct drm_device *drm, struct drm_file *file);
struct ta_npu_file *ta_npu_file_get(struct ta_npu_file *tfile);
void ta_npu_file_put(struct ta_npu_file *tfile);
void ta_npu_file_record(struct ta_npu_file *tfile,
			const struct ta_npu_record *record);
int ta_npu_job_info_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* ta_npu_job.c */
struct ta_npu_job *ta_npu_job_alloc(struct ta_npu_device *npu,
				    struct drm_file *file);
void ta_npu_job_free_unsubmitted(struct ta_npu_job *job);
int ta_npu_job_queue(struct ta_npu_job *job, const bool *writes);

/* ta_npu_hw.c */
int ta_npu_hw_execute(struct ta_npu_run *run);

#endif /* TA_NPU_INTERNAL_H */
