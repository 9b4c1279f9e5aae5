// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_main.c - the reference NPU driver: a platform driver for a
 * simulated accelerator, its own platform device, and /dev/ta-npu-sim,
 * whose one ioctl runs a job (a graph's ops) on a tensorarena plan.
 *
 * It stands in for a real NPU driver in tensorarena's end-to-end tests and
 * shows a driver author the hand-off (Documentation/npu-drivers.md).
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <ta_compat.h>

#include "ta_npu_internal.h"

#define TA_NPU_DRIVER_NAME	"ta-npu-sim"

static struct platform_device *ta_npu_pdev;

/* Copy and check the ops and references of @job. */
static int ta_npu_copy_graph(const struct ta_npu_job *job, struct ta_op **ops,
			     u32 **refs)
{
	u64 next = 0;
	u32 i, k;
	int err;

	*ops = kvmalloc_array(job->n_ops, sizeof(**ops), GFP_KERNEL);
	*refs = kvmalloc_array(job->n_refs ? job->n_refs : 1, sizeof(**refs),
			       GFP_KERNEL);
	if (!*ops || !*refs) {
		err = -ENOMEM;
		goto free_graph;
	}
	if (copy_from_user(*ops, u64_to_user_ptr(job->ops),
			   array_size(job->n_ops, sizeof(**ops))) ||
	    copy_from_user(*refs, u64_to_user_ptr(job->refs),
			   array_size(job->n_refs, sizeof(**refs)))) {
		err = -EFAULT;
		goto free_graph;
	}
	err = -EINVAL;
	/* as the planner wants them: consecutive runs covering the refs */
	for (i = 0; i < job->n_ops; i++) {
		const struct ta_op *op = &(*ops)[i];

		if (op->pad || op->first_ref != next)
			goto free_graph;
		next += (u64)op->n_inputs + op->n_outputs;
		if (next > job->n_refs)
			goto free_graph;
	}
	if (next != job->n_refs)
		goto free_graph;
	for (k = 0; k < job->n_refs; k++) {
		if ((*refs)[k] >= job->n_tensors)
			goto free_graph;
	}
	return 0;

free_graph:
	kvfree(*refs);
	kvfree(*ops);
	return err;
}

/* Everything a job says about itself, before anything is copied. */
static int ta_npu_check_job(struct ta_npu_job *job)
{
	if (job->flags & ~TA_NPU_JOB_PLAN_ID || job->pad ||
	    job->reserved[0] || job->reserved[1])
		return -EINVAL;
	/* Name the plan one way; the other field stays zero. */
	if (job->flags & TA_NPU_JOB_PLAN_ID ? job->dmabuf_fd : job->plan_id)
		return -EINVAL;
	if (!job->n_ops || job->n_ops > TA_NPU_MAX_OPS ||
	    job->n_refs > TA_NPU_MAX_REFS || !job->n_tensors ||
	    job->op_size != sizeof(struct ta_op))
		return -EINVAL;
	if (!job->op_end)
		job->op_end = job->n_ops;
	if (job->op_begin >= job->op_end || job->op_end > job->n_ops)
		return -EINVAL;
	return 0;
}

static long ta_npu_run_ioctl(struct ta_npu_device *npu, void __user *arg)
{
	struct ta_npu_job job;
	struct ta_op *ops;
	u32 *refs, op_end;
	int err;

	if (copy_from_user(&job, arg, sizeof(job)))
		return -EFAULT;
	op_end = job.op_end;	/* given back as it came */
	err = ta_npu_check_job(&job);
	if (err)
		return err;
	err = ta_npu_copy_graph(&job, &ops, &refs);
	if (err)
		return err;
	err = ta_npu_job_run(npu, &job, ops, refs);
	kvfree(refs);
	kvfree(ops);
	if (err)
		return err;
	job.op_end = op_end;
	if (copy_to_user(arg, &job, sizeof(job)))
		return -EFAULT;
	return 0;
}

static long ta_npu_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct ta_npu_device *npu = container_of(file->private_data,
						 struct ta_npu_device, misc);

	if (cmd != TA_NPU_IOCTL_RUN)
		return -ENOTTY;
	return ta_npu_run_ioctl(npu, (void __user *)arg);
}

static const struct file_operations ta_npu_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = ta_npu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static unsigned int ta_npu_dma_bits = 64;
module_param_named(dma_bits, ta_npu_dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits,
		 "address bits the simulated accelerator reaches (24 to 64, default 64): an arena beyond them cannot be imported");

static int ta_npu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ta_npu_device *npu;
	int err;

	npu = devm_kzalloc(dev, sizeof(*npu), GFP_KERNEL);
	if (!npu)
		return -ENOMEM;
	npu->dev = dev;
	mutex_init(&npu->hw_lock);
	/*
	 * The accelerator it stands for reaches dma_bits address bits and
	 * takes segments of any length: a tensor is one contiguous DMA range.
	 */
	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(ta_npu_dma_bits));
	if (!err)
		err = ta_dma_set_max_seg_size(dev, UINT_MAX);
	if (err) {
		dev_err(dev, "cannot set the DMA mask and segment size: %d\n",
			err);
		goto destroy_lock;
	}
	npu->misc.minor = MISC_DYNAMIC_MINOR;
	npu->misc.name = TA_NPU_DEVICE_NAME;
	npu->misc.fops = &ta_npu_fops;
	npu->misc.parent = dev;
	npu->misc.mode = 0600;
	err = misc_register(&npu->misc);
	if (err) {
		dev_err(dev, "cannot register /dev/%s: %d\n",
			TA_NPU_DEVICE_NAME, err);
		goto destroy_lock;
	}
	platform_set_drvdata(pdev, npu);
	return 0;

destroy_lock:
	mutex_destroy(&npu->hw_lock);
	return err;
}

static void ta_npu_remove_void(struct platform_device *pdev)
{
	struct ta_npu_device *npu = platform_get_drvdata(pdev);

	misc_deregister(&npu->misc);
	mutex_destroy(&npu->hw_lock);
}

TA_PLATFORM_REMOVE(ta_npu_remove)

static struct platform_driver ta_npu_driver = {
	.probe = ta_npu_probe,
	.remove = ta_npu_remove,
	.driver = {
		.name = TA_NPU_DRIVER_NAME,
	},
};

static int __init ta_npu_init(void)
{
	int err;

	if (ta_npu_dma_bits < 24 || ta_npu_dma_bits > 64)
		return -EINVAL;
	err = platform_driver_register(&ta_npu_driver);
	if (err)
		return err;
	ta_npu_pdev = platform_device_register_simple(TA_NPU_DRIVER_NAME,
						      PLATFORM_DEVID_NONE,
						      NULL, 0);
	if (IS_ERR(ta_npu_pdev)) {
		err = PTR_ERR(ta_npu_pdev);
		goto unregister_driver;
	}
	if (!platform_get_drvdata(ta_npu_pdev)) {
		err = -ENODEV;	/* probe failed; its error is in the log */
		goto unregister_device;
	}
	return 0;

unregister_device:
	platform_device_unregister(ta_npu_pdev);
unregister_driver:
	platform_driver_unregister(&ta_npu_driver);
	return err;
}

static void __exit ta_npu_exit(void)
{
	platform_device_unregister(ta_npu_pdev);
	platform_driver_unregister(&ta_npu_driver);
}

module_init(ta_npu_init);
module_exit(ta_npu_exit);

MODULE_DESCRIPTION("tensorarena's reference NPU: runs graph ops on planned tensors");
MODULE_AUTHOR("The tensorarena developers");
MODULE_LICENSE("GPL");
