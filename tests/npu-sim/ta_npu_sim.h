/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ta_npu_sim.h - userspace ABI of the reference NPU driver (ta_npu_sim.ko),
 * /dev/ta-npu-sim. A test device, not part of tensorarena's ABI: it stands
 * in for an accelerator driver that takes planned tensors from tensorarena.
 *
 * Conventions as uapi/linux/tensorarena.h: fixed-size fields, user pointers
 * as __u64, arrays as pointer + count + element size, pad, reserved fields
 * and unknown flags must be zero (-EINVAL).
 */
#ifndef _UAPI_TA_NPU_SIM_H
#define _UAPI_TA_NPU_SIM_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define TA_NPU_DEVICE_NAME	"ta-npu-sim"

/* &ta_npu_job.flags */
#define TA_NPU_JOB_PLAN_ID	0x1	/* @plan_id names the plan, not @dmabuf_fd */

/**
 * struct ta_npu_job - run a graph's ops on the plan's tensors; argument of
 * %TA_NPU_IOCTL_RUN
 * @flags: In. %TA_NPU_JOB_* bits; others must be zero.
 * @dmabuf_fd: In. Without %TA_NPU_JOB_PLAN_ID: the plan's dma-buf
 *	       (%TA_IOCTL_PLAN_EXPORT of /dev/tensorarena).
 * @plan_id: In. With %TA_NPU_JOB_PLAN_ID: the plan's ID; the plan must be
 *	     visible to the caller, as for /dev/tensorarena.
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
 * @pad: Must be zero.
 * @bytes_read: Out. Tensor bytes the ops read.
 * @bytes_written: Out. Tensor bytes the ops wrote.
 * @run_ns: Out. Time the ops took.
 * @reserved: Must be zero.
 */
struct ta_npu_job {
	__u32 flags;
	__s32 dmabuf_fd;
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
	__u32 pad;
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 run_ns;
	__u64 reserved[2];
};

/* tensorarena's ioctl type; numbers from 0x80 are the reference NPU's. */
#define TA_NPU_IOCTL_RUN	_IOWR(0xA7, 0x80, struct ta_npu_job)

#endif /* _UAPI_TA_NPU_SIM_H */
