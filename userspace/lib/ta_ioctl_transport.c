// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * ta_ioctl_transport.c - libtensorarena's ioctl transport: the uAPI structs
 * go to /dev/tensorarena as they are.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ta_client.h"

static int ta_xioctl(struct ta_client *c, unsigned long cmd, void *arg)
{
	return ioctl(c->dev_fd, cmd, arg) < 0 ? -errno : 0;
}

static int ta_ioctl_info(struct ta_client *c, struct ta_info *info)
{
	memset(info, 0, sizeof(*info));
	return ta_xioctl(c, TA_IOCTL_INFO, info);
}

static int ta_ioctl_create(struct ta_client *c, struct ta_plan_create *args)
{
	return ta_xioctl(c, TA_IOCTL_PLAN_CREATE, args);
}

static int ta_ioctl_get(struct ta_client *c, struct ta_plan_get *args)
{
	return ta_xioctl(c, TA_IOCTL_PLAN_GET, args);
}

static int ta_ioctl_destroy(struct ta_client *c, uint32_t plan_id)
{
	struct ta_plan_destroy d;

	memset(&d, 0, sizeof(d));
	d.plan_id = plan_id;
	return ta_xioctl(c, TA_IOCTL_PLAN_DESTROY, &d);
}

static int ta_ioctl_export(struct ta_client *c, struct ta_plan_export *args)
{
	return ta_xioctl(c, TA_IOCTL_PLAN_EXPORT, args);
}

static int ta_ioctl_tensor_export(struct ta_client *c,
				  struct ta_tensor_export *args)
{
	return ta_xioctl(c, TA_IOCTL_TENSOR_EXPORT, args);
}

int ta_ioctl_group_create(struct ta_client *c, struct ta_group_create *args)
{
	return ta_xioctl(c, TA_IOCTL_GROUP_CREATE, args);
}

int ta_ioctl_group_add(struct ta_client *c, struct ta_group_add *args)
{
	return ta_xioctl(c, TA_IOCTL_GROUP_ADD, args);
}

int ta_ioctl_group_get(struct ta_client *c, struct ta_group_get *args)
{
	return ta_xioctl(c, TA_IOCTL_GROUP_GET, args);
}

static void ta_ioctl_close(struct ta_client *c)
{
	(void)c;
}

const struct ta_transport_ops ta_ioctl_ops = {
	.info = ta_ioctl_info,
	.create = ta_ioctl_create,
	.get = ta_ioctl_get,
	.destroy = ta_ioctl_destroy,
	.export_dmabuf = ta_ioctl_export,
	.export_tensor = ta_ioctl_tensor_export,
	.group_create = ta_ioctl_group_create,
	.group_add = ta_ioctl_group_add,
	.group_get = ta_ioctl_group_get,
	.close = ta_ioctl_close,
};
