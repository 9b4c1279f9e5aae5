// SPDX-License-Identifier: GPL-2.0
/*
 * ta_chardev.c - /dev/tensorarena, a character device.
 *
 * Not a misc device: devtmpfs creates the node with the owner, group and
 * mode our device type's devnode() gives, so a board without udev (mdev,
 * plain devtmpfs) still gets the access policy of the "group" and "mode"
 * module parameters (ta_access.c). The device is in a class of its own,
 * "tensorarena", so udev sees it (SUBSYSTEM=="tensorarena") and the shipped
 * rule can tag it for logged-in users (userspace/udev/,
 * Documentation/security.md).
 *
 * Each open file has a &struct ta_file: its device and the count of plans
 * it holds (max_file_plans).
 */
#include <linux/cdev.h>
#include <linux/compat.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

static char *ta_chardev_devnode(TA_DEVNODE_CONST struct device *dev,
				umode_t *mode, kuid_t *uid, kgid_t *gid)
{
	kgid_t group = make_kgid(&init_user_ns, ta_dev_gid);

	if (mode)
		*mode = ta_dev_mode;
	if (gid && gid_valid(group))
		*gid = group;
	return NULL;
}

static const struct device_type ta_chardev_type = {
	.name = "tensorarena",
	.devnode = ta_chardev_devnode,
};

static struct class ta_chardev_class = {
	.name = TA_DEVICE_NAME,
};

static void ta_chardev_dev_release(struct device *dev)
{
	kfree(dev);
}

static int ta_open(struct inode *inode, struct file *file)
{
	struct ta_device *ta = container_of(inode->i_cdev, struct ta_device,
					    cdev);
	struct ta_file *tf;

	tf = kzalloc_obj(*tf, GFP_KERNEL_ACCOUNT);
	if (!tf)
		return -ENOMEM;
	tf->ta = ta;
	file->private_data = tf;
	return 0;
}

/* Plans die with the file that made them, unless mapped (see ta_mmap.c). */
static int ta_release(struct inode *inode, struct file *file)
{
	struct ta_file *tf = file->private_data;

	ta_plan_obj_release_owner(tf->ta, (unsigned long)file, &tf->n_plans);
	kfree(tf);
	return 0;
}

static const struct file_operations ta_fops = {
	.owner = THIS_MODULE,
	.open = ta_open,
	.release = ta_release,
	.mmap = ta_mmap,
	.unlocked_ioctl = ta_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * ta_chardev_register() - create /dev/tensorarena for @ta
 * @ta: the device, its arena already reserved
 *
 * Return: 0 or a negative errno.
 */
int ta_chardev_register(struct ta_device *ta)
{
	struct device *dev;
	int err;

	err = class_register(&ta_chardev_class);
	if (err)
		return err;
	err = alloc_chrdev_region(&ta->devt, 0, 1, TA_DEVICE_NAME);
	if (err)
		goto unregister_class;
	dev = kzalloc_obj(*dev, GFP_KERNEL);
	if (!dev) {
		err = -ENOMEM;
		goto unregister_region;
	}
	device_initialize(dev);
	dev->devt = ta->devt;
	dev->type = &ta_chardev_type;
	dev->class = &ta_chardev_class;
	dev->parent = ta->dev;
	dev->release = ta_chardev_dev_release;
	err = dev_set_name(dev, TA_DEVICE_NAME);
	if (err)
		goto put_device;
	cdev_init(&ta->cdev, &ta_fops);
	ta->cdev.owner = THIS_MODULE;
	err = cdev_device_add(&ta->cdev, dev);
	if (err)
		goto put_device;
	ta->chardev = dev;
	return 0;

put_device:
	put_device(dev);
unregister_region:
	unregister_chrdev_region(ta->devt, 1);
unregister_class:
	class_unregister(&ta_chardev_class);
	return err;
}

/**
 * ta_chardev_unregister() - remove /dev/tensorarena of @ta
 * @ta: the device
 *
 * Called with no file open (each holds a module reference).
 */
void ta_chardev_unregister(struct ta_device *ta)
{
	cdev_device_del(&ta->cdev, ta->chardev);
	put_device(ta->chardev);
	ta->chardev = NULL;
	unregister_chrdev_region(ta->devt, 1);
	class_unregister(&ta_chardev_class);
}
