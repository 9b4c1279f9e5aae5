/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * ta_client.h - inside libtensorarena: the transport interface.
 *
 * A transport moves the uAPI structs to the kernel and back: ioctl passes
 * them as they are, netlink turns them into attributes and back. Each
 * operation has the ioctl's semantics and errors.
 */
#ifndef TA_CLIENT_H
#define TA_CLIENT_H

#include "tensorarena.h"

struct ta_transport_ops {
	int (*info)(struct ta_client *c, struct ta_info *info);
	/* In: the request with user pointers; Out: its Out fields. */
	int (*create)(struct ta_client *c, struct ta_plan_create *args);
	/* As TA_IOCTL_PLAN_GET, including TA_GET_NEXT. */
	int (*get)(struct ta_client *c, struct ta_plan_get *args);
	int (*destroy)(struct ta_client *c, uint32_t plan_id);
	/* As TA_IOCTL_PLAN_EXPORT: Out: args->fd, open in this process. */
	int (*export_dmabuf)(struct ta_client *c, struct ta_plan_export *args);
	/* As TA_IOCTL_TENSOR_EXPORT: Out: args->fd (in this process), size, offset. */
	int (*export_tensor)(struct ta_client *c, struct ta_tensor_export *args);
	void (*close)(struct ta_client *c);
};

struct ta_client {
	enum ta_transport transport;
	const struct ta_transport_ops *ops;
	int dev_fd;		/* /dev/tensorarena: ioctl, and mmap for all */
	void *nl;		/* the netlink transport's state */
};

extern const struct ta_transport_ops ta_ioctl_ops;
extern const struct ta_transport_ops ta_netlink_ops;
/* Open the netlink transport's state into c->nl; -errno when the family
 * is missing (-ENOENT) or libnl fails.
 */
int ta_netlink_open(struct ta_client *c);

/* ta_graph_load(): hand the model's fixed offsets to the builder. */
void ta_graph_take_model_offsets(struct ta_graph_builder *g,
				 uint64_t *offsets);

#endif /* TA_CLIENT_H */
