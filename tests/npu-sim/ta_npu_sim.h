/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ta_npu_sim.h - userspace ABI of the reference NPU driver (ta_npu_sim.ko),
 * a DRM driver named "ta-npu": an accel node (/dev/accel/accelN) on kernels
 * with the compute accelerator framework, a render node (/dev/dri/renderDN)
 * elsewhere. A test device, not part of tensorarena's ABI: it stands in for
 * an accelerator driver built like the mainline ones (drivers/accel).
 *
 * A plan reaches it as mainline NPUs take foreign memory: userspace imports
 * the plan's dma-buf (%TA_IOCTL_PLAN_EXPORT of /dev/tensorarena) with
 * DRM_IOCTL_PRIME_FD_TO_HANDLE and names the handle in a job. Each job gets
 * a dma_fence, added to the reservation object of every buffer it names
 * (write usage for the plan and for outputs, read usage for inputs); the job
 * first waits for the fences already there (implicit sync), and its own
 * fence signals when its ops are done. poll() or DMA_BUF_IOCTL_EXPORT_SYNC_FILE
 * on the dma-buf waits for it.
 *
 * Conventions as uapi/linux/tensorarena.h: fixed-size fields, user pointers
 * as __u64, arrays as pointer + count (+ element size), pad, reserved fields
 * and unknown flags must be zero (-EINVAL).
 */
#ifndef _UAPI_TA_NPU_SIM_H
#define _UAPI_TA_NPU_SIM_H

#ifdef __KERNEL__
#include <uapi/drm/drm.h>
#else
#include "drm.h"	/* libdrm's copy: -I/usr/include/libdrm */
#endif

#define TA_NPU_DRIVER_NAME	"ta-npu"

/* &drm_ta_npu_submit.flags */
#define TA_NPU_SUBMIT_PLAN_ID	0x1	/* @plan_id names the plan, not @plan_handle */
#define TA_NPU_SUBMIT_WAIT	0x2	/* wait for the job; fill in its results */
#define TA_NPU_SUBMIT_CORE	0x4	/* @core names the core to run it on */

/* Most cores the accelerator may have (the n_cores module parameter). */
#define TA_NPU_MAX_CORES	8
/* Longest &drm_ta_npu_submit.hold_ms, in milliseconds. */
#define TA_NPU_MAX_HOLD_MS	2000

/* &drm_ta_npu_bo.flags: how the job uses the buffer (exactly one) */
#define TA_NPU_BO_READ		0x1	/* it reads the buffer: an input */
#define TA_NPU_BO_WRITE		0x2	/* it writes the buffer: an output */

/**
 * struct drm_ta_npu_bo - a further buffer a job synchronises with
 * @handle: In. GEM handle of an imported tensor dma-buf
 *	    (%TA_IOCTL_TENSOR_EXPORT) of the job's plan.
 * @flags: In. %TA_NPU_BO_READ or %TA_NPU_BO_WRITE.
 */
struct drm_ta_npu_bo {
	__u32 handle;
	__u32 flags;
};

/* Most further buffers one job may name. */
#define TA_NPU_MAX_BOS		64

/**
 * struct drm_ta_npu_submit - queue a job: a graph's ops on a plan's
 * tensors; argument of %DRM_IOCTL_TA_NPU_SUBMIT
 * @flags: In. %TA_NPU_SUBMIT_* bits; others must be zero.
 * @plan_handle: In. Without %TA_NPU_SUBMIT_PLAN_ID: GEM handle of the
 *		 plan's imported dma-buf (DRM_IOCTL_PRIME_FD_TO_HANDLE).
 * @plan_id: In. With %TA_NPU_SUBMIT_PLAN_ID: the plan's ID; the plan must
 *	     be visible to the caller, as for /dev/tensorarena.
 * @n_tensors: In. The graph's tensor count: must be the plan's.
 * @key: In. Key of the ops' function (see ta_npu_mix.h).
 * @ops: In. User pointer to @n_ops &struct ta_op (uapi/linux/tensorarena.h),
 *	 the graph's ops in execution order, as given to PLAN_CREATE.
 * @n_ops: In. Op count, 1 to 65536.
 * @op_size: In. sizeof(struct ta_op) as userspace knows it.
 * @refs: In. User pointer to @n_refs __u32 tensor indices.
 * @n_refs: In. Reference count, at most 262144.
 * @op_begin: In. First op to run.
 * @op_end: In. One past the last op to run; 0 means @n_ops. Running a
 *	    range lets a test check the tensors after every op.
 * @n_bos: In. Entries at @bos, at most %TA_NPU_MAX_BOS.
 * @bos: In. User pointer to @n_bos &struct drm_ta_npu_bo: tensor buffers
 *	 of the plan the job also synchronises with, each named once.
 * @seqno: Out. The job's fence sequence number.
 * @bytes_read: Out, with %TA_NPU_SUBMIT_WAIT. Tensor bytes the ops read.
 * @bytes_written: Out, with %TA_NPU_SUBMIT_WAIT. Tensor bytes they wrote.
 * @run_ns: Out, with %TA_NPU_SUBMIT_WAIT. Time the ops took.
 * @core: In. With %TA_NPU_SUBMIT_CORE: the core to run the job on, below
 *	  the n_cores module parameter; without it, zero (the driver picks
 *	  the core with the fewest jobs queued, the lowest on a tie).
 * @hold_ms: In. The job keeps its core at least this long after its ops
 *	     start (it idles after ops that finished sooner), at most
 *	     %TA_NPU_MAX_HOLD_MS; 0 for none. A test's knob: two jobs on two
 *	     cores that each hold their core are certain to overlap in time.
 *	     A job that fails lets go at once.
 * @reserved: Must be zero.
 * @bytes_read_fast: Out, with %TA_NPU_SUBMIT_WAIT. Of @bytes_read, those
 *		     read from the plan's fast slice (tensors a tiered plan
 *		     put in the fast tier, the NPU's SRAM).
 * @bytes_written_fast: Out, with %TA_NPU_SUBMIT_WAIT. Of @bytes_written,
 *			those written to the fast slice.
 *
 * A tiered plan (%TA_CREATE_TIERED) is run as planned: the driver takes
 * the plan's fast slice itself through tensorarena's kernel API, whichever
 * way the plan is named, and reaches each tensor in its own tier; the job's
 * fence goes on the fast slice's reservation object too, which every
 * dma-buf of the fast slice (%TA_EXPORT_FAST) shares. A plan wholly in the
 * fast tier has no dma-buf in the arena: name it by ID.
 *
 * With %TA_NPU_SUBMIT_WAIT the call returns the job's own error (EIO for a
 * bus fault, ETIMEDOUT when a fence it waited for did not signal within
 * 10 s or the job ran past the accelerator's 20 s watchdog); without it,
 * that error is the fence's (sync_file status).
 */
struct drm_ta_npu_submit {
	__u32 flags;
	__u32 plan_handle;
	__u32 plan_id;
	__u32 n_tensors;
	__u64 key;
	__u64 ops;
	__u32 n_ops;
	__u32 op_size;
	__u64 refs;
	__u32 n_refs;
	__u32 op_begin;
	__u32 op_end;
	__u32 n_bos;
	__u64 bos;
	__u64 seqno;
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 run_ns;
	__u32 core;
	__u32 hold_ms;
	__u64 reserved;
	__u64 bytes_read_fast;
	__u64 bytes_written_fast;
};

/* Finished jobs of a DRM file that DRM_IOCTL_TA_NPU_JOB_INFO still knows. */
#define TA_NPU_JOB_RECORDS	16

/**
 * struct drm_ta_npu_job_info - when and where a finished job ran;
 * argument of %DRM_IOCTL_TA_NPU_JOB_INFO
 * @seqno: In. The job's sequence number (&drm_ta_npu_submit.seqno): one
 *	   of the last %TA_NPU_JOB_RECORDS jobs submitted through this DRM
 *	   file to finish.
 * @flags: In. Must be zero.
 * @core: Out. The core that ran it.
 * @error: Out. Its error, as its fence's: 0 or a negative errno.
 * @pad: Must be zero.
 * @start_ns: Out. CLOCK_MONOTONIC time (clock_gettime()'s) its ops
 *	      started: after the fences it waited for. 0 when they never
 *	      started (a fence it waited for failed or timed out).
 * @end_ns: Out. CLOCK_MONOTONIC time it let go of its core: its ops done
 *	    and its hold over, before its fence signalled. 0 with @start_ns.
 * @reserved: Must be zero.
 *
 * Two jobs ran at the same moment exactly when each started before the
 * other ended: the recorded intervals say it, whatever the wall clock of
 * the caller did meanwhile.
 */
struct drm_ta_npu_job_info {
	__u64 seqno;
	__u32 flags;
	__u32 core;
	__s32 error;
	__u32 pad;
	__u64 start_ns;
	__u64 end_ns;
	__u64 reserved;
};

#define DRM_TA_NPU_SUBMIT	0x00
#define DRM_TA_NPU_JOB_INFO	0x01

#define DRM_IOCTL_TA_NPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TA_NPU_SUBMIT, struct drm_ta_npu_submit)
#define DRM_IOCTL_TA_NPU_JOB_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TA_NPU_JOB_INFO, \
		 struct drm_ta_npu_job_info)

#endif /* _UAPI_TA_NPU_SIM_H */
