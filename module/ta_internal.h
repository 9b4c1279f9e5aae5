/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_internal.h - what the parts of tensorarena.ko share.
 */
#ifndef TA_INTERNAL_H
#define TA_INTERNAL_H

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/notifier.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include <linux/tensorarena.h>

#include "planner/ta_planner.h"

struct dentry;
struct device_node;
struct gen_pool;
struct platform_driver;
struct reserved_mem;

/**
 * struct ta_device - one arena and the character device that serves it
 * @dev: the platform device that owns the DMA memory
 * @cpu_base: kernel virtual address of the arena
 * @dma_base: DMA address of the arena
 * @size: bytes in the arena
 * @region: the device tree's reserved memory the arena was allocated from
 *	    (the node's memory-region), or NULL for an arena of arena_size
 * @region_cma: @region is a CMA area ("reusable"), not a coherent pool
 * @region_nomap: @region is "no-map": the arena has no kernel linear-map
 *		  alias, so no CPU cache maintenance may be done on it
 * @pool: genalloc pool over the arena; slices for plans come from it.
 *	  genalloc serialises its own updates (see lib/genalloc.c), so the
 *	  pool needs no lock of ours.
 * @misc: /dev/tensorarena
 * @debugfs: the device's debugfs directory
 * @plans: plan ID -> &struct ta_plan_obj; the xarray's lock protects it
 * @next_plan_id: cursor of xa_alloc_cyclic(), under the xarray's lock
 * @n_plans: plans in @plans
 *
 * The other fields are set at probe and constant until remove, so they are
 * read without a lock.
 */
struct ta_device {
	struct device *dev;
	void *cpu_base;
	dma_addr_t dma_base;
	size_t size;
	const struct reserved_mem *region;
	bool region_cma;
	bool region_nomap;
	struct gen_pool *pool;
	struct miscdevice misc;
	struct dentry *debugfs;
	struct xarray plans;
	u32 next_plan_id;
	atomic_t n_plans;
};

/* Plan IDs run from 1 to this; the mmap offset of a plan is ID << PAGE_SHIFT. */
#define TA_PLAN_ID_MAX	0xfffffU

/**
 * struct ta_owner - who makes or asks for a plan
 * @uid: effective uid; plans are visible to their uid and to CAP_SYS_ADMIN
 * @cred: whose rights count, or NULL for the current task's (the kernel
 *	  API passes the credentials of the request it serves)
 * @key: what the plans are tied to: the &struct file for ioctl, the
 *	 netlink transport's &struct ta_nl_owner of the sending socket; both
 *	 are addresses of live kernel objects, so keys never collide. The
 *	 plans are destroyed when it goes away.
 */
struct ta_owner {
	kuid_t uid;
	unsigned long key;
	const struct cred *cred;
};

/**
 * struct ta_plan_obj - a plan: placements and a slice of the arena
 * @ref: references: the table's, lookups', mappings', kernel users'
 * @ta: the device whose arena holds the slice
 * @reap_node: on a local list while being unpublished in bulk
 * @id: the plan's ID
 * @uid: the creator's effective uid
 * @owner_key: &ta_owner.key of the creator
 * @strategy: %TA_STRATEGY_* that made it
 * @optimal: proven optimal
 * @height: bytes the plan needs
 * @lower_bound: most bytes live at one step
 * @time_ns: planning time
 * @slice_size: bytes of arena held (@height rounded up to a page; 0 when
 *		@height is 0)
 * @slice_vaddr: kernel address of the slice
 * @slice_dma: DMA address of the slice
 * @destroyed: kernel users to tell when the plan is destroyed
 * @n_tensors: entries in @placements
 * @placements: offset (from the slice) and size of each tensor
 *
 * Everything but @ref and @reap_node is written before the plan is
 * published and never after.
 */
struct ta_plan_obj {
	struct kref ref;
	struct ta_device *ta;
	struct list_head reap_node;
	u32 id;
	kuid_t uid;
	unsigned long owner_key;
	u32 strategy;
	bool optimal;
	u64 height;
	u64 lower_bound;
	u64 time_ns;
	size_t slice_size;
	unsigned long slice_vaddr;
	dma_addr_t slice_dma;
	struct blocking_notifier_head destroyed;
	u32 n_tensors;
	struct ta_placement placements[];
};

/**
 * struct ta_plan_request - a create request, as both transports hand it in
 * @flags: %TA_CREATE_*
 * @strategy: %TA_STRATEGY_*
 * @budget: planning budget
 * @n_tensors: tensors (graph form) or buffers (lifetime form)
 * @n_ops: ops (graph form)
 * @n_refs: op references (graph form)
 * @tensors: graph form tensors, or NULL
 * @ops: graph form ops, or NULL
 * @refs: graph form references, or NULL
 * @buffers: lifetime form buffers, or NULL
 */
struct ta_plan_request {
	u32 flags;
	u32 strategy;
	struct ta_budget budget;
	u32 n_tensors;
	u32 n_ops;
	u32 n_refs;
	struct ta_graph_tensor *tensors;
	struct ta_graph_op *ops;
	u32 *refs;
	struct ta_buffer *buffers;
};

/**
 * struct ta_plan_summary - the figures of a created plan
 * @plan_id: its ID, 0 for a dry run
 * @height: bytes it needs
 * @lower_bound: most bytes live at one step
 * @plan_time_ns: planning time
 * @mmap_offset: mmap offset of its slice
 * @optimal: proven optimal
 */
struct ta_plan_summary {
	u32 plan_id;
	u64 height;
	u64 lower_bound;
	u64 plan_time_ns;
	u64 mmap_offset;
	bool optimal;
};

/* ta_plan_obj.c */
struct ta_owner ta_owner_current(unsigned long key);
int ta_plan_obj_create(struct ta_device *ta, const struct ta_owner *owner,
		       const struct ta_plan_request *req,
		       struct ta_plan_summary *out);
struct ta_plan_obj *ta_plan_obj_lookup(struct ta_device *ta, u32 id,
				       const struct ta_owner *caller);
struct ta_plan_obj *ta_plan_obj_next(struct ta_device *ta, u32 id,
				     const struct ta_owner *caller);
void ta_plan_obj_get(struct ta_plan_obj *plan);
void ta_plan_obj_put(struct ta_plan_obj *plan);
int ta_plan_obj_destroy(struct ta_device *ta, u32 id,
			const struct ta_owner *caller);
void ta_plan_obj_release_owner(struct ta_device *ta, unsigned long key);
void ta_plan_obj_destroy_all(struct ta_device *ta);

/* ta_netlink.c */
int ta_netlink_init(void);
void ta_netlink_exit(void);
void ta_netlink_notify_created(const struct ta_plan_obj *plan);
void ta_netlink_notify_destroyed(const struct ta_plan_obj *plan);
void ta_netlink_notify_pressure(struct ta_device *ta, u64 requested);

/* ta_dmabuf.c */
struct dma_buf;
struct ta_plan_obj *ta_dmabuf_plan(struct dma_buf *dmabuf);
struct dma_buf *ta_dmabuf_create(struct ta_plan_obj *plan);
struct dma_buf *ta_dmabuf_create_by_id(struct ta_device *ta,
				       const struct ta_owner *caller,
				       u32 plan_id);
int ta_dmabuf_export(struct ta_device *ta, const struct ta_owner *caller,
		     u32 plan_id, bool cloexec);

/* ta_test_hooks.c: only in the test build (TA_KUNIT=1) */
#ifdef TA_TEST_HOOKS
void ta_test_hooks_register(struct ta_device *ta);
#else
static inline void ta_test_hooks_register(struct ta_device *ta) { }
#endif

/* ta_mmap.c */
int ta_mmap(struct file *file, struct vm_area_struct *vma);

/* ta_params.c */
int ta_parse_size(const char *str, u64 *bytes);
extern u64 ta_arena_size;
extern unsigned int ta_max_tensors;
extern unsigned int ta_max_ops;
extern unsigned int ta_max_refs;
extern unsigned int ta_default_budget_ms;
extern unsigned int ta_max_budget_ms;

/* ta_arena.c */
int ta_arena_init(struct ta_device *ta, u64 size);

/* ta_of.c: the arena from a device-tree node's memory-region */
u64 ta_of_arena_bytes(u64 region_bytes, bool reusable);
int ta_of_region_check(struct device *dev, struct device_node *region,
		       const struct reserved_mem *rmem, u64 *bytes);
int ta_of_arena_init(struct ta_device *ta);
size_t ta_arena_in_use(struct ta_device *ta);
size_t ta_arena_largest_free(struct ta_device *ta);
void ta_arena_fill_info(struct ta_device *ta, struct ta_info *info);

/* ta_ioctl.c */
long ta_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/**
 * struct ta_ioctl_desc - how one ioctl is decoded and served
 * @cmd: the ioctl number as defined by the uAPI header
 * @min_size: the smallest struct size accepted (the first ABI version's)
 * @handler: serves the call on a kernel copy of the argument, for @caller
 * @undo: when the result cannot be copied back to userspace, undoes what
 *	  @handler did (so a failed call changes nothing); may be NULL
 */
struct ta_ioctl_desc {
	unsigned int cmd;
	size_t min_size;
	int (*handler)(struct ta_device *ta, const struct ta_owner *caller,
		       void *arg);
	void (*undo)(struct ta_device *ta, const struct ta_owner *caller,
		     void *arg);
};

const struct ta_ioctl_desc *ta_ioctl_lookup(unsigned int cmd);
int ta_ioctl_info(struct ta_device *ta, const struct ta_owner *caller,
		  void *arg);

/* ta_plan_obj.c: request checks shared by ioctl and netlink */
int ta_request_check(struct ta_plan_request *req, u64 budget_ns,
		     u64 budget_steps);
void ta_request_free(struct ta_plan_request *req);

/* ta_chardev.c */
int ta_chardev_register(struct ta_device *ta);
void ta_chardev_unregister(struct ta_device *ta);

/* ta_debugfs.c */
void ta_debugfs_register(struct ta_device *ta);
void ta_debugfs_unregister(struct ta_device *ta);
void ta_debugfs_init(void);
void ta_debugfs_exit(void);

/*
 * ta_main.c: the default device, or NULL. It is the one device bound to the
 * driver (probe refuses a second: there is one /dev/tensorarena): the node
 * of the device tree when the board has one, otherwise the module's own
 * device sized by arena_size. It owns /dev/tensorarena and serves the
 * kernel API and netlink. Probe and remove write it under a mutex of
 * ta_main.c; readers use READ_ONCE() and rely on it staying bound while
 * the module is loaded (the driver has no sysfs bind/unbind; see ta_main.c).
 */
extern struct ta_device *ta_default_device;
extern struct platform_driver ta_platform_driver;

#endif /* TA_INTERNAL_H */
