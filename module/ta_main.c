// SPDX-License-Identifier: GPL-2.0
/*
 * ta_main.c - tensorarena.ko: module entry points and the platform driver.
 *
 * The module registers a platform driver, which binds a device-tree node
 * "linux,tensorarena" (its arena comes from the node's memory-region, see
 * ta_of.c). On a board without such a node the module then adds a platform
 * device of its own, whose arena is arena_size bytes. Probe reserves the
 * arena and creates /dev/tensorarena; there is one arena device at a time,
 * the default device. When the probe of the module's own device, or of
 * every node, fails, insmod fails and leaves nothing behind.
 *
 * Order: module init exposes the device to userspace last. The arena is
 * reserved (probe), then the netlink family is registered, and only then is
 * /dev/tensorarena created, the one step after which init cannot fail: no
 * file can be open, and no netlink request in flight (unregistering the
 * family waits for them), when an earlier step fails and init unwinds.
 * Module exit undoes it in the reverse order.
 */
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

#define TA_DRIVER_NAME	"tensorarena"

/*
 * ta_default_lock protects ta_default_device: a probe holds it from
 * checking that no device is bound until it has published its device (or
 * failed), so two probes never both get past the check. Readers of
 * ta_default_device do not take it (see ta_internal.h).
 */
static DEFINE_MUTEX(ta_default_lock);
struct ta_device *ta_default_device;

/*
 * The probe error of the module's own device: probe runs synchronously
 * (PROBE_FORCE_SYNCHRONOUS) inside platform_device_add(), under the device
 * lock, and the module init reads it right afterwards; nothing else
 * touches it.
 */
static int ta_param_probe_err;
/* How the probe of the device tree's node ended, for module init. */
static int ta_of_probe_err;
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

	mutex_lock(&ta_default_lock);
	if (ta_default_device) {
		dev_err(dev, "%s already serves /dev/%s and there is one arena device at a time: disable this one\n",
			dev_name(ta_default_device->dev), TA_DEVICE_NAME);
		err = -EBUSY;
		goto unlock;
	}
	ta = devm_kzalloc(dev, sizeof(*ta), GFP_KERNEL);
	if (!ta) {
		err = -ENOMEM;
		goto unlock;
	}
	ta->dev = dev;
	ta_plan_tables_init(ta);

	if (dev->of_node)
		err = ta_of_arena_init(ta);
	else
		err = ta_arena_init(ta, ta_arena_size);
	if (err)
		goto unlock;
	/* The fast tier: the node's SRAM, else sram_size of emulated. */
	if (dev->of_node && of_find_property(dev->of_node, "sram", NULL))
		err = ta_fast_init_of(ta, dev->of_node);
	else
		err = ta_fast_init_emulated(ta, ta_sram_size);
	if (err)
		goto unlock;
	err = ta_dmem_register(ta);
	if (err)
		goto unlock;

	platform_set_drvdata(pdev, ta);
	ta_debugfs_register(ta);
	WRITE_ONCE(ta_default_device, ta);
unlock:
	mutex_unlock(&ta_default_lock);
	if (pdev == ta_param_pdev)
		ta_param_probe_err = err;
	else
		ta_of_probe_err = err;
	return err;
}

static void ta_remove_void(struct platform_device *pdev)
{
	struct ta_device *ta = platform_get_drvdata(pdev);

	/* Probe binds no device but the default one. */
	mutex_lock(&ta_default_lock);
	WRITE_ONCE(ta_default_device, NULL);
	ta_debugfs_unregister(ta);
	mutex_unlock(&ta_default_lock);
	/*
	 * No file is open and no kernel-API reference held (each holds a
	 * module reference), and ta_netlink_exit() destroyed the plans of
	 * netlink sockets, which hold none: nothing is left but what
	 * ta_plan_tables_destroy() checks.
	 */
	ta_plan_tables_destroy(ta);
	/* devres frees the arena, then gives back its memory-region. */
}

TA_PLATFORM_REMOVE(ta_remove)

static const struct of_device_id ta_of_match[] = {
	{ .compatible = "linux,tensorarena" },
	{}
};
MODULE_DEVICE_TABLE(of, ta_of_match);

/*
 * Probe is synchronous so that module init sees its outcome, and there is
 * no bind/unbind in sysfs: the default device stays bound from module init
 * to module exit, as netlink and the kernel API expect. (A device-tree
 * device whose node is removed at run time, by an overlay, would break
 * that: remove such a node only with the module unloaded.)
 */
struct platform_driver ta_platform_driver = {
	.probe = ta_probe,
	.remove = ta_remove,
	.driver = {
		.name = TA_DRIVER_NAME,
		.of_match_table = ta_of_match,
		.dev_groups = ta_groups,
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
		.suppress_bind_attrs = true,
	},
};

/* An enabled device-tree node the driver binds, with a reference, or NULL. */
static struct device_node *ta_of_find_node(void)
{
	struct device_node *np;

	for_each_matching_node(np, ta_of_match)
		if (of_device_is_available(np))
			return np;
	return NULL;
}

/* Add the module's own device, whose arena is arena_size bytes. */
static int ta_param_device_add(void)
{
	int err;

	/*
	 * ta_probe() compares against ta_param_pdev, which is only known once
	 * registration returns: allocate and add in two steps so the pointer
	 * is set before probe runs.
	 */
	ta_param_pdev = platform_device_alloc(TA_DRIVER_NAME,
					      PLATFORM_DEVID_NONE);
	if (!ta_param_pdev)
		return -ENOMEM;
	ta_param_probe_err = -ENODEV;
	err = platform_device_add(ta_param_pdev);
	if (err)
		goto put_device;
	err = ta_param_probe_err;
	/*
	 * A probe that succeeded can still be undone by the driver core when
	 * a later step of binding fails (adding the driver's dev_groups):
	 * ta_remove() has run then, and no device serves the module.
	 */
	if (!err && !READ_ONCE(ta_default_device))
		err = -ENODEV;
	if (err)
		goto unregister_device;
	return 0;

unregister_device:
	platform_device_unregister(ta_param_pdev);
	ta_param_pdev = NULL;
	return err;
put_device:
	platform_device_put(ta_param_pdev);
	ta_param_pdev = NULL;
	return err;
}

static int __init ta_init(void)
{
	struct device_node *np;
	int err;

	ta_debugfs_init();
	ta_of_probe_err = 0;
	err = platform_driver_register(&ta_platform_driver);
	if (err)
		goto remove_debugfs;

	/*
	 * The devices of the device tree, if the board has a node, have been
	 * probed by now (synchronously). Without a node, the module adds its
	 * own device.
	 */
	np = ta_of_find_node();
	if (np) {
		if (!READ_ONCE(ta_default_device)) {
			pr_err("%s: %pOF did not probe (see its error above): fix it, or disable it to load with arena_size\n",
			       TA_DRIVER_NAME, np);
			/* The probe's own errno when it ran and failed. */
			err = ta_of_probe_err ?: -ENODEV;
		}
		of_node_put(np);
	} else {
		err = ta_param_device_add();
	}
	if (err)
		goto unregister_driver;

	err = ta_netlink_init(ta_default_device);
	if (err)
		goto unregister_param_device;
	/* The test build fails here on purpose with test_fail_load_ms. */
	err = ta_test_hooks_fail_load();
	if (err)
		goto unregister_netlink;
	err = ta_chardev_register(ta_default_device);
	if (err) {
		pr_err("%s: cannot register /dev/%s: %d\n", TA_DRIVER_NAME,
		       TA_DEVICE_NAME, err);
		goto unregister_netlink;
	}
	return 0;

unregister_netlink:
	ta_netlink_exit(ta_default_device);
unregister_param_device:
	platform_device_unregister(ta_param_pdev);
	ta_param_pdev = NULL;
unregister_driver:
	platform_driver_unregister(&ta_platform_driver);
remove_debugfs:
	ta_debugfs_exit();
	return err;
}

static void __exit ta_exit(void)
{
	ta_chardev_unregister(ta_default_device);
	ta_netlink_exit(ta_default_device);
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
