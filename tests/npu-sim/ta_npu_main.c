// SPDX-License-Identifier: GPL-2.0
/*
 * ta_npu_main.c - the reference NPU driver: a platform driver for a
 * simulated accelerator, its own platform device, and its DRM device, built
 * like the mainline NPU drivers (drivers/accel): an accel node where the
 * kernel has the compute accelerator framework, a render node elsewhere,
 * PRIME import of a plan's dma-buf, one ioctl that queues a job (a graph's
 * ops) on one of its cores, fenced through the buffers' reservation
 * objects, and one that tells when and where a finished job ran.
 *
 * It stands in for a real NPU driver in tensorarena's end-to-end tests and
 * shows a driver author the hand-off (Documentation/npu-drivers.md).
 */
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include <ta_compat.h>

#include "ta_npu_internal.h"
#include "ta_npu_gem.h"

#if IS_ENABLED(CONFIG_DRM_ACCEL)
#include <drm/drm_accel.h>

/* An accelerator: /dev/accel/accelN, as ethosu, rocket and ivpu. */
#define TA_NPU_NODE_FEATURES	DRIVER_COMPUTE_ACCEL
#define TA_NPU_NODE_KIND	"an accel node"
DEFINE_DRM_ACCEL_FOPS(ta_npu_fops);
#else
/* Before the accel framework (6.1): a render node, /dev/dri/renderDN. */
#define TA_NPU_NODE_FEATURES	DRIVER_RENDER
#define TA_NPU_NODE_KIND	"a render node"
DEFINE_DRM_GEM_FOPS(ta_npu_fops);
#endif

static struct platform_device *ta_npu_pdev;

static const struct drm_ioctl_desc ta_npu_ioctls[] = {
	DRM_IOCTL_DEF_DRV(TA_NPU_SUBMIT, ta_npu_submit_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TA_NPU_JOB_INFO, ta_npu_job_info_ioctl,
			  DRM_RENDER_ALLOW),
};

static const struct drm_driver ta_npu_drm_driver = {
	.driver_features = DRIVER_GEM | TA_NPU_NODE_FEATURES,
	TA_NPU_GEM_DRIVER_OPS,
	.open = ta_npu_open,
	.postclose = ta_npu_postclose,
	.ioctls = ta_npu_ioctls,
	.num_ioctls = ARRAY_SIZE(ta_npu_ioctls),
	.fops = &ta_npu_fops,
	.name = TA_NPU_DRIVER_NAME,
	.desc = "tensorarena reference NPU",
	TA_DRM_DRIVER_DATE("20261130")
	.major = 1,
	.minor = 0,
};

static unsigned int ta_npu_dma_bits = 64;
module_param_named(dma_bits, ta_npu_dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits,
		 "address bits the simulated accelerator reaches (24 to 64, default 64): an arena beyond them cannot be imported");

static unsigned int ta_npu_n_cores = 2;
module_param_named(n_cores, ta_npu_n_cores, uint, 0444);
MODULE_PARM_DESC(n_cores,
		 "cores of the simulated accelerator, each a queue of its own running beside the others (1 to 8, default 2)");

/* Each core's queue: an ordered workqueue, one job at a time. */
static int ta_npu_cores_init(struct ta_npu_device *npu)
{
	u64 context = dma_fence_context_alloc(ta_npu_n_cores);
	u32 i;

	for (i = 0; i < ta_npu_n_cores; i++) {
		struct ta_npu_core *core = &npu->cores[i];

		core->queue = alloc_ordered_workqueue("ta-npu-core%u", 0, i);
		if (!core->queue)
			goto destroy_queues;
		core->fence_context = context + i;
		core->index = i;
		atomic_set(&core->queued, 0);
		npu->n_cores = i + 1;
	}
	return 0;

destroy_queues:
	while (i--)
		destroy_workqueue(npu->cores[i].queue);
	npu->n_cores = 0;
	return -ENOMEM;
}

/*
 * Queued jobs finish: each waits at most TA_NPU_DEP_TIMEOUT for a foreign
 * fence, and for another core's jobs, which run meanwhile.
 */
static void ta_npu_cores_destroy(struct ta_npu_device *npu)
{
	u32 i;

	for (i = 0; i < npu->n_cores; i++)
		destroy_workqueue(npu->cores[i].queue);
	npu->n_cores = 0;
}

static int ta_npu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ta_npu_device *npu;
	int err;

	npu = devm_drm_dev_alloc(dev, &ta_npu_drm_driver, struct ta_npu_device,
				 drm);
	if (IS_ERR(npu))
		return PTR_ERR(npu);
	err = drmm_mutex_init(&npu->drm, &npu->submit_lock);
	if (err)
		return err;
	spin_lock_init(&npu->fence_lock);
	atomic_set(&npu->queued, 0);
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
		return err;
	}
	err = ta_npu_cores_init(npu);
	if (err)
		return err;
	err = drm_dev_register(&npu->drm, 0);
	if (err) {
		dev_err(dev, "cannot register the DRM device: %d\n", err);
		goto destroy_cores;
	}
	platform_set_drvdata(pdev, npu);
	dev_info(dev, "reference NPU on %s, cores: %u, buffers by %s\n",
		 TA_NPU_NODE_KIND, npu->n_cores, TA_NPU_GEM_KIND);
	return 0;

destroy_cores:
	ta_npu_cores_destroy(npu);
	return err;
}

static void ta_npu_remove_void(struct platform_device *pdev)
{
	struct ta_npu_device *npu = platform_get_drvdata(pdev);

	drm_dev_unregister(&npu->drm);
	ta_npu_cores_destroy(npu);
}

TA_PLATFORM_REMOVE(ta_npu_remove)

static struct platform_driver ta_npu_driver = {
	.probe = ta_npu_probe,
	.remove = ta_npu_remove,
	.driver = {
		.name = "ta-npu-sim",
	},
};

static int __init ta_npu_init(void)
{
	int err;

	if (ta_npu_dma_bits < 24 || ta_npu_dma_bits > 64 ||
	    !ta_npu_n_cores || ta_npu_n_cores > TA_NPU_MAX_CORES)
		return -EINVAL;
	err = platform_driver_register(&ta_npu_driver);
	if (err)
		return err;
	ta_npu_pdev = platform_device_register_simple("ta-npu-sim",
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

MODULE_DESCRIPTION("tensorarena's reference NPU: a DRM driver that runs graph ops on planned tensors");
MODULE_IMPORT_NS(TA_NS_DMA_BUF);
MODULE_AUTHOR("The tensorarena developers");
MODULE_LICENSE("GPL");
