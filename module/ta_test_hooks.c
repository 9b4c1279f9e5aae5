// SPDX-License-Identifier: GPL-2.0
/*
 * ta_test_hooks.c - hooks for tests only, built into the test build of the
 * module (TA_KUNIT=1), never into the one users load.
 *
 * <debugfs>/tensorarena/<device>/test_move_tensor: write "PLAN TENSOR ONTO"
 * and tensor TENSOR of plan PLAN is moved to the offset of tensor ONTO: a
 * deliberately wrong plan, for the end-to-end test that must catch it.
 *
 * test_fail_load_ms=N (module parameter): the load fails on purpose N ms
 * after the netlink family is up, as if /dev/tensorarena could not be
 * registered, so that a test can plan over netlink meanwhile and the
 * unwind meets a plan a socket owns (issue 25).
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>

#include "ta_internal.h"

static unsigned int test_fail_load_ms;
module_param(test_fail_load_ms, uint, 0400);
MODULE_PARM_DESC(test_fail_load_ms,
		 "test build only: fail the load this many ms after netlink is up (0: never)");

static int ta_test_move_tensor(struct ta_device *ta, u32 plan_id, u32 tensor,
			       u32 onto)
{
	struct ta_owner caller = { .admin = true };
	struct ta_plan_obj *plan;
	struct ta_placement *moved;
	u64 offset;
	int err = -EINVAL;

	plan = ta_plan_obj_lookup(ta, plan_id, &caller);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	if (tensor >= plan->n_tensors || onto >= plan->n_tensors ||
	    tensor == onto)
		goto put_plan;
	moved = &plan->placements[tensor];
	offset = plan->placements[onto].offset;
	if (offset > plan->slice_size ||
	    moved->size > plan->slice_size - offset)
		goto put_plan;
	/* Plans are read without a lock: the test makes no other call meanwhile. */
	WRITE_ONCE(moved->offset, offset);
	dev_warn(ta->dev, "test hook: plan %u: tensor %u moved onto tensor %u (offset %llu)\n",
		 plan_id, tensor, onto, offset);
	err = 0;
put_plan:
	ta_plan_obj_put(plan);
	return err;
}

static ssize_t ta_test_move_tensor_write(struct file *file,
					 const char __user *ubuf, size_t len,
					 loff_t *pos)
{
	struct ta_device *ta = file->private_data;
	u32 plan_id, tensor, onto;
	char buf[48];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%u %u %u", &plan_id, &tensor, &onto) != 3)
		return -EINVAL;
	err = ta_test_move_tensor(ta, plan_id, tensor, onto);
	return err ? err : len;
}

static const struct file_operations ta_test_move_tensor_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ta_test_move_tensor_write,
};

/**
 * ta_test_hooks_register() - create the test hooks' debugfs files of @ta
 * @ta: the device; its debugfs directory exists
 */
void ta_test_hooks_register(struct ta_device *ta)
{
	debugfs_create_file("test_move_tensor", 0200, ta->debugfs, ta,
			    &ta_test_move_tensor_fops);
}

/**
 * ta_test_hooks_fail_load() - fail the load on purpose, netlink up
 *
 * With test_fail_load_ms set, wait that long (a test plans over netlink
 * meanwhile), then fail as a /dev/tensorarena that cannot be registered
 * would, so that ta_init() unwinds with the family's plans alive.
 *
 * Return: 0, or -ECANCELED when test_fail_load_ms is set.
 */
int ta_test_hooks_fail_load(void)
{
	if (!test_fail_load_ms)
		return 0;
	pr_info("tensorarena: test hook: the load fails in %u ms, its netlink family registered\n",
		test_fail_load_ms);
	msleep(test_fail_load_ms);
	return -ECANCELED;
}
