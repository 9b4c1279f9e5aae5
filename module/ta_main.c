// SPDX-License-Identifier: GPL-2.0
/*
 * ta_main.c - tensorarena.ko: module entry points and the platform driver.
 *
 * The module registers a platform driver and, from its parameters, one
 * platform device of its own; the driver's probe reserves the arena and
 * creates /dev/tensorarena. When probe fails, insmod fails with its error
 * and leaves nothing behind.
 */
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "ta_internal.h"

#define TA_DRIVER_NAME	"tensorarena"

struct ta_device *ta_param_device;

/*
 * The probe error of the module's own device: probe runs synchronously
 * inside platform_device_register_simple(), under the device lock, and the
 * module init reads it right afterwards; nothing else touches it.
 */
static int ta_param_probe_err;
static struct platform_device *ta_param_pdev;

static ssize_t arena_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct ta_device *ta = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%zu\n", ta->size);
}
static DEVICE_ATTR_RO(arena_size);

static ssize_t bytes_in_use_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ta_device *ta = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%zu\n", ta_arena_in_use(ta));
}
static DEVICE_ATTR_RO(bytes_in_use);

static struct attribute *ta_attrs[] = {
	&dev_attr_arena_size.attr,
	&dev_attr_bytes_in_use.attr,
	NULL
};
ATTRIBUTE_GROUPS(ta);

static int ta_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ta_device *ta;
	int err;

	ta = devm_kzalloc(dev, sizeof(*ta), GFP_KERNEL);
	if (!ta) {
		err = -ENOMEM;
		goto out;
	}
	ta->dev = dev;
	xa_init_flags(&ta->plans, XA_FLAGS_ALLOC1);

	err = ta_arena_init(ta, ta_arena_size);
	if (err)
		goto out;

	platform_set_drvdata(pdev, ta);
	err = ta_chardev_register(ta);
	if (err) {
		dev_err(dev, "cannot register /dev/%s: %d\n", TA_DEVICE_NAME,
			err);
		goto out;
	}
	ta_debugfs_register(ta);
	if (pdev == ta_param_pdev)
		ta_param_device = ta;
out:
	if (pdev == ta_param_pdev)
		ta_param_probe_err = err;
	return err;
}

static int ta_remove(struct platform_device *pdev)
{
	struct ta_device *ta = platform_get_drvdata(pdev);

	if (ta == ta_param_device)
		ta_param_device = NULL;
	ta_debugfs_unregister(ta);
	ta_chardev_unregister(ta);
	/*
	 * No file is open (each holds a module reference), so every plan is
	 * already gone; this is for plans a future kernel user kept.
	 */
	ta_plan_obj_destroy_all(ta);
	xa_destroy(&ta->plans);
	return 0;
}

static struct platform_driver ta_platform_driver = {
	.probe = ta_probe,
	.remove = ta_remove,
	.driver = {
		.name = TA_DRIVER_NAME,
		.dev_groups = ta_groups,
	},
};

static int __init ta_init(void)
{
	int err;

	ta_debugfs_init();
	err = platform_driver_register(&ta_platform_driver);
	if (err)
		goto remove_debugfs;

	/*
	 * ta_probe() compares against ta_param_pdev, which is only known once
	 * registration returns: allocate and add in two steps so the pointer
	 * is set before probe runs.
	 */
	ta_param_pdev = platform_device_alloc(TA_DRIVER_NAME,
					      PLATFORM_DEVID_NONE);
	if (!ta_param_pdev) {
		err = -ENOMEM;
		goto unregister_driver;
	}
	ta_param_probe_err = -ENODEV;
	err = platform_device_add(ta_param_pdev);
	if (err)
		goto put_device;
	err = ta_param_probe_err;
	if (err)
		goto unregister_device;
	err = ta_netlink_init();
	if (err)
		goto unregister_device;
	return 0;

unregister_device:
	platform_device_unregister(ta_param_pdev);
	goto unregister_driver;
put_device:
	platform_device_put(ta_param_pdev);
unregister_driver:
	ta_param_pdev = NULL;
	platform_driver_unregister(&ta_platform_driver);
remove_debugfs:
	ta_debugfs_exit();
	return err;
}

static void __exit ta_exit(void)
{
	ta_netlink_exit();
	platform_device_unregister(ta_param_pdev);
	ta_param_pdev = NULL;
	platform_driver_unregister(&ta_platform_driver);
	ta_debugfs_exit();
}

module_init(ta_init);
module_exit(ta_exit);

MODULE_DESCRIPTION("tensorarena: plans NPU tensor memory in one contiguous DMA arena");
MODULE_AUTHOR("The tensorarena developers");
MODULE_LICENSE("GPL");
