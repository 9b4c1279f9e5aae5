// SPDX-License-Identifier: GPL-2.0
/*
 * ta_ioctl.c - the ioctl transport of /dev/tensorarena.
 *
 * Every ioctl is described by a table entry; the dispatcher decodes the
 * number, copies the argument in with copy_struct_from_user() (an older,
 * shorter struct is zero-extended; a newer, longer one must have zeroes in
 * the bytes this kernel does not know), calls the handler on the kernel copy
 * and copies the result back in the caller's size.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ta_internal.h"

/* Big enough for the argument of every ioctl in ta_ioctls[]. */
union ta_ioctl_arg {
	struct ta_info info;
};

/**
 * ta_ioctl_info() - serve %TA_IOCTL_INFO
 * @ta: the device
 * @arg: a &struct ta_info
 *
 * Return: 0, or -EINVAL when flags, pad or reserved are not zero.
 */
int ta_ioctl_info(struct ta_device *ta, void *arg)
{
	struct ta_info *info = arg;

	if (info->flags || info->pad ||
	    memchr_inv(info->reserved, 0, sizeof(info->reserved)))
		return -EINVAL;
	ta_arena_fill_info(ta, info);
	return 0;
}

static const struct ta_ioctl_desc ta_ioctls[] = {
	{
		.cmd = TA_IOCTL_INFO,
		.min_size = offsetofend(struct ta_info, reserved),
		.handler = ta_ioctl_info,
	},
};

/**
 * ta_ioctl_lookup() - find the table entry serving an ioctl number
 * @cmd: the number userspace passed
 *
 * The number's type, sequence number and direction must match an entry; its
 * size may differ (the struct grows across ABI versions) but not fall below
 * the entry's minimum.
 *
 * Return: the entry; ERR_PTR(-ENOTTY) when the number is not ours,
 * ERR_PTR(-EINVAL) when it is but its size is below the minimum.
 */
const struct ta_ioctl_desc *ta_ioctl_lookup(unsigned int cmd)
{
	size_t size = _IOC_SIZE(cmd);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ta_ioctls); i++) {
		const struct ta_ioctl_desc *desc = &ta_ioctls[i];

		if (_IOC_TYPE(cmd) != _IOC_TYPE(desc->cmd) ||
		    _IOC_NR(cmd) != _IOC_NR(desc->cmd) ||
		    _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
			continue;
		if (size < desc->min_size)
			return ERR_PTR(-EINVAL);
		return desc;
	}
	return ERR_PTR(-ENOTTY);
}

/**
 * ta_ioctl() - the unlocked_ioctl of /dev/tensorarena
 * @file: the open file; its private_data is the &struct miscdevice
 * @cmd: ioctl number
 * @arg: user pointer to the argument
 *
 * Return: 0 or a negative errno: -ENOTTY for a number that is not ours,
 * -EINVAL for a struct shorter than the first ABI version's, -EFAULT for
 * an unreadable or unwritable argument, -E2BIG for unknown non-zero trailing
 * bytes, or the handler's error.
 */
long ta_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct miscdevice *misc = file->private_data;
	struct ta_device *ta = container_of(misc, struct ta_device, misc);
	void __user *uarg = (void __user *)arg;
	const struct ta_ioctl_desc *desc;
	size_t usize = _IOC_SIZE(cmd);
	union ta_ioctl_arg karg;
	size_t ksize;
	int err;

	desc = ta_ioctl_lookup(cmd);
	if (IS_ERR(desc))
		return PTR_ERR(desc);

	ksize = _IOC_SIZE(desc->cmd);
	BUILD_BUG_ON(sizeof(karg) > 1024);
	err = copy_struct_from_user(&karg, ksize, uarg, usize);
	if (err)
		return err;
	err = desc->handler(ta, &karg);
	if (err)
		return err;
	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, &karg, min(usize, ksize)))
		return -EFAULT;
	return 0;
}
