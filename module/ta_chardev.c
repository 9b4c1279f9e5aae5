// SPDX-License-Identifier: GPL-2.0
/*
 * ta_chardev.c - /dev/tensorarena, a misc character device.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "ta_internal.h"

/* Plans die with the file that made them, unless mapped (see ta_mmap.c). */
static int ta_release(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct ta_device *ta = container_of(misc, struct ta_device, misc);

	ta_plan_obj_release_owner(ta, (unsigned long)file);
	return 0;
}

static const struct file_operations ta_fops = {
	.owner = THIS_MODULE,
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
 * Return: 0 or the error of misc_register() (-EBUSY when another arena
 * already serves the name).
 */
int ta_chardev_register(struct ta_device *ta)
{
	ta->misc.minor = MISC_DYNAMIC_MINOR;
	ta->misc.name = TA_DEVICE_NAME;
	ta->misc.fops = &ta_fops;
	ta->misc.parent = ta->dev;
	ta->misc.mode = 0666;
	return misc_register(&ta->misc);
}

/**
 * ta_chardev_unregister() - remove /dev/tensorarena of @ta
 * @ta: the device
 */
void ta_chardev_unregister(struct ta_device *ta)
{
	misc_deregister(&ta->misc);
}
