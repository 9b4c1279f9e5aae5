/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_internal.h - what the parts of tensorarena.ko share.
 */
#ifndef TA_INTERNAL_H
#define TA_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/dma-resv.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include <linux/tensorarena.h>

#include "planner/ta_planner.h"
#include "planner/ta_tier.h"

struct dentry;
struct device_node;
struct dmem_cgroup_pool_state;
struct dmem_cgroup_region;
struct gen_pool;
struct ta_group;
struct platform_driver;
struct reserved_mem;
struct vm_area_struct;

/**
 * struct ta_fast - the fast tier: an NPU's SRAM beside the arena (ta_fast.c)
 * @size: bytes of it; 0 when the module has none (every other field is
 *	  then zero, and a %TA_CREATE_TIERED create fails with -ENODEV)
 * @cpu_base: kernel address of its first byte (the sram driver's mapping,
 *	      or the emulated tier's allocation)
 * @dma_base: its first byte as &ta_device.dev's DMA address
 * @phys: its physical address (mmap and dma-bufs map it as a resource
 *	  when it has no struct page)
 * @pool: genalloc pool over it; fast slices come from it (genalloc
 *	  serialises its own updates, as &ta_device.pool)
 * @sram_pool: the sram driver's pool @cpu_base was taken from (the device
 *	       tree's sram phandle), or NULL for the emulated tier
 * @emulated: system RAM standing in for SRAM (the module parameter
 *	      sram_size): the log and &ta_info.fast_flags say so
 * @flags: %TA_FAST_* of &ta_info.fast_flags
 * @pages: the emulated tier's pages as the DMA API gave them
 *	   (dma_get_sgtable()), for dma-bufs; empty for SRAM, which has no
 *	   struct page and is mapped as a resource at @phys
 *
 * Set at probe and constant until remove, so read without a lock.
 */
struct ta_fast {
	size_t size;
	void *cpu_base;
	dma_addr_t dma_base;
	phys_addr_t phys;
	struct gen_pool *pool;
	struct gen_pool *sram_pool;
	bool emulated;
	u32 flags;
	struct sg_table pages;
};

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
 * @pages: the arena's pages, as the DMA API describes the whole
 *	   allocation (dma_get_sgtable(): one entry, or the scattered pages
 *	   behind an IOMMU), or, for a coherent pool, from its physical
 *	   address; empty (no entries) when the arena has no struct page
 * @pageless_phys: the arena's physical address when it has no struct page
 *		   (a no-map region outside the kernel's memory map): the
 *		   dma-bufs map it as a resource (ta_arena_range_table())
 * @pool: genalloc pool over the arena; slices for plans come from it.
 *	  genalloc serialises its own updates (see lib/genalloc.c), so the
 *	  pool needs no lock of ours.
 * @devt: device number of /dev/tensorarena
 * @cdev: /dev/tensorarena
 * @chardev: its &struct device (devtmpfs node, sysfs), or NULL
 * @debugfs: the device's debugfs directory
 * @plans: plan ID -> &struct ta_plan_obj; the xarray's lock protects it
 * @next_plan_id: cursor of xa_alloc_cyclic(), under the xarray's lock
 * @n_plans: plans in @plans
 * @events: &enum ta_event_type notifications, in process context (a
 *	    blocking chain: it has its own lock); the netlink layer listens
 * @users: kuid -> &struct ta_user, the per-uid accounting
 * @users_lock: protects @users and the counters of its entries
 * @dmem: the arena as a region of the dmem cgroup controller, or NULL on a
 *	  kernel without one (ta_dmem.c)
 * @fast: the fast tier (SRAM), size 0 when there is none
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
	struct sg_table pages;
	phys_addr_t pageless_phys;
	struct gen_pool *pool;
	dev_t devt;
	struct cdev cdev;
	struct device *chardev;
	struct dentry *debugfs;
	struct xarray plans;
	u32 next_plan_id;
	atomic_t n_plans;
	struct blocking_notifier_head events;
	struct xarray users;
	struct mutex users_lock; /* @users and its entries' counters */
	struct dmem_cgroup_region *dmem;
	struct ta_fast fast;
};

/*
 * Allocations whose size the caller chooses (request arrays, a plan's
 * placements, planner scratch): charged to the caller's memory cgroup; at
 * its memory.max they fail with -ENOMEM (__GFP_RETRY_MAYFAIL) rather than
 * invoke the cgroup's OOM killer, and without an allocation-failure splat
 * (__GFP_NOWARN). As kernel/bpf/syscall.c does for map areas.
 */
#define TA_GFP_USER	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* The smallest non-zero dma_bits: 16 MiB, ZONE_DMA of the oldest ISA. */
#define TA_DMA_BITS_MIN	24

/* Every &ta_plan_create.flags bit the core knows */
#define TA_CREATE_FLAGS_ALL \
	(TA_CREATE_LIFETIMES | TA_CREATE_DRY_RUN | TA_CREATE_TIERED)

/* Plan IDs run from 1 to this; the mmap offset of a plan is ID << PAGE_SHIFT. */
#define TA_PLAN_ID_MAX	0xfffffU

/**
 * struct ta_owner - who makes or asks for a plan
 * @uid: effective uid of the opener of the file or socket the request came
 *	 through (for the kernel API, of the driver's file); plans are visible to
 *	 their uid and to admins
 * @admin: CAP_SYS_ADMIN in the initial user namespace, both for the opener
 *	   of the file or socket and for the task that sends the request
 *	   (a capability of a child user namespace never counts)
 * @key: what the plans are tied to: the &struct file's address for
 *	 ioctl; for netlink, the odd number the sending socket's &struct
 *	 ta_nl_owner took from a counter, never an address and never reused,
 *	 so keys never collide. The
 *	 plans are destroyed when it goes away. 0 for a caller that creates
 *	 nothing (lookups, the kernel API).
 * @n_plans: plans in the table that belong to @key, in the object @key
 *	     names; read and written under the lock of &ta_device.plans (the
 *	     limit max_file_plans), or NULL for no such count
 */
struct ta_owner {
	kuid_t uid;
	bool admin;
	unsigned long key;
	unsigned int *n_plans;
};

/**
 * enum ta_event_type - what the core announces on &ta_device.events
 * @TA_EVENT_PLAN_CREATED: a plan was published; data: &struct ta_event
 *			   with @plan set
 * @TA_EVENT_PLAN_DESTROYED: a plan left the table; @plan set
 * @TA_EVENT_PRESSURE: a create found no room (@requested: its height), or
 *		       the arena is more than 7/8 used after one (@requested
 *		       0)
 */
enum ta_event_type {
	TA_EVENT_PLAN_CREATED,
	TA_EVENT_PLAN_DESTROYED,
	TA_EVENT_PRESSURE,
};

/**
 * struct ta_event - the data of a &ta_device.events notification
 * @ta: the device
 * @plan: the plan, referenced for the duration of the call, or NULL
 * @requested: see %TA_EVENT_PRESSURE
 */
struct ta_event {
	struct ta_device *ta;
	const struct ta_plan_obj *plan;
	u64 requested;
};

/**
 * struct ta_user - what one uid holds (max_user_plans, max_user_bytes,
 * max_user_creates)
 * @uid: the uid
 * @n_plans: plans not yet freed, and creates past their plan reservation
 * @bytes: arena bytes of those plans
 * @fast_bytes: fast-tier bytes of those plans (max_user_fast_bytes)
 * @n_creating: creates running (from before their request is copied in)
 *
 * In &ta_device.users; the counters are read and written under
 * &ta_device.users_lock, and the entry is freed when all three reach 0.
 */
struct ta_user {
	kuid_t uid;
	unsigned int n_plans;
	u64 bytes;
	u64 fast_bytes;
	unsigned int n_creating;
};

/**
 * struct ta_plan_obj - a plan: placements and a slice of the arena
 * @ref: references: the table's, lookups', mappings', kernel users'
 * @ta: the device whose arena holds the slice
 * @reap_node: on a local list while being unpublished in bulk
 * @id: the plan's ID
 * @uid: the creator's effective uid
 * @owner_key: &ta_owner.key of the creator
 * @owner_plans: &ta_owner.n_plans of the creator, or NULL; decremented
 *		 under the table's lock when the plan leaves the table
 * @user: the creator's per-uid account, charged with the plan and its
 *	  slice until the plan is freed
 * @strategy: %TA_STRATEGY_* that made it
 * @optimal: proven optimal
 * @height: bytes the plan needs
 * @lower_bound: most bytes live at one step
 * @time_ns: planning time
 * @slice_size: bytes of arena held (@height rounded up to a page; 0 when
 *		@height is 0)
 * @slice_vaddr: kernel address of the slice
 * @slice_dma: DMA address of the slice
 * @dmem_pool: the creator's dmem cgroup pool charged with @slice_size, or
 *	       NULL (no dmem controller, or no slice)
 * @destroyed: kernel users to tell when the plan is destroyed
 * @resv: the reservation object of every dma-buf of the whole slice (each
 *	  PLAN_EXPORT and ta_kapi_plan_dmabuf() one): the fences of jobs on
 *	  the plan, whichever buffer or ID they came by, in one place; it
 *	  locks itself (&dma_resv.lock). @own_resv for a plain plan or a
 *	  group, the lane's (&ta_group.lanes) for a group's member, so jobs
 *	  of one lane's members are ordered by their implicit fences
 * @own_resv: the plan's own reservation object
 * @fast_resv: the reservation object of every dma-buf of the plan's whole
 *	       fast slice (each TA_EXPORT_FAST and ta_kapi_plan_fast_dmabuf()
 *	       one), apart from @resv so that a job can name both slices
 * @group_plan: for a group's member, the group's plan, referenced (it owns
 *		the slice the member's fields point at); NULL otherwise
 * @group: for a group's plan, the group (ta_group_obj.c); NULL otherwise
 * @lane: for a group's member, its lane
 * @exportable: bitmap of the tensors with %TA_TENSOR_EXPORTABLE (their
 *		placements are whole pages at page-aligned offsets), or NULL
 *		when the plan has none
 * @fast_capacity: a tiered plan's &ta_plan_create.fast_capacity, else 0
 * @fast_height: fast-tier bytes the plan needs (0 untiered)
 * @fast_slice_size: bytes of the fast tier held (@fast_height rounded up
 *		     to a page; 0 when @fast_height is 0)
 * @fast_slice_vaddr: kernel address of the fast slice (in &ta_fast.pool)
 * @fast_slice_dma: DMA address of the fast slice
 * @n_fast: tensors in the fast tier
 * @weight_total: &ta_plan_create.weight_total (0 untiered)
 * @weight_fast: &ta_plan_create.weight_fast
 * @weight_bound: &ta_plan_create.weight_bound
 * @n_tensors: entries in @placements
 * @placements: offset (from the slice of its tier), size and tier of each
 *		tensor
 *
 * Everything but @ref, @reap_node and @resv's fences is written before
 * the plan is published and never after.
 */
struct ta_plan_obj {
	struct kref ref;
	struct ta_device *ta;
	struct list_head reap_node;
	u32 id;
	kuid_t uid;
	unsigned long owner_key;
	unsigned int *owner_plans;
	struct ta_user *user;
	u32 strategy;
	bool optimal;
	u64 height;
	u64 lower_bound;
	u64 time_ns;
	size_t slice_size;
	unsigned long slice_vaddr;
	dma_addr_t slice_dma;
	struct dmem_cgroup_pool_state *dmem_pool;
	struct blocking_notifier_head destroyed;
	struct dma_resv *resv;
	struct dma_resv own_resv;
	struct dma_resv fast_resv;
	struct ta_plan_obj *group_plan;
	struct ta_group *group;
	u32 lane;
	unsigned long *exportable;
	u64 fast_capacity;
	u64 fast_height;
	size_t fast_slice_size;
	unsigned long fast_slice_vaddr;
	dma_addr_t fast_slice_dma;
	u32 n_fast;
	u64 weight_total;
	u64 weight_fast;
	u64 weight_bound;
	u32 n_tensors;
	struct ta_placement placements[];
};

/**
 * struct ta_plan_request - a create request, as both transports hand it in
 * @flags: %TA_CREATE_*
 * @strategy: %TA_STRATEGY_*
 * @budget: planning budget
 * @default_align: alignment of tensors and buffers whose align is 0; the
 *		   transport sets the caller's value (0 for none) and
 *		   ta_request_check() checks it and makes 0 into 1
 * @n_tensors: tensors (graph form) or buffers (lifetime form)
 * @n_ops: ops (graph form)
 * @n_refs: op references (graph form)
 * @tensors: graph form tensors, or NULL
 * @ops: graph form ops, or NULL
 * @refs: graph form references, or NULL
 * @buffers: lifetime form buffers, or NULL
 * @fixed: %TA_STRATEGY_FIXED: the caller's offsets, one per tensor (the
 *	   transport copies them and checks they come with that strategy
 *	   only), else NULL
 * @fixed_height: %TA_STRATEGY_FIXED: the caller's height, or 0
 * @fast_capacity: %TA_CREATE_TIERED: &ta_plan_create.fast_capacity
 *		   (the transport copies it, ta_plan_obj_create() checks
 *		   it against the fast tier)
 * @tier_weights: %TA_CREATE_TIERED: per tensor, its weight as the caller
 *		  gave it (0: the default, which ta_plan_obj_create() fills
 *		  in), or NULL for every weight the default
 * @tier_pins: %TA_CREATE_TIERED: per tensor, %TA_TIER_*, or NULL for every
 *	       tensor %TA_TIER_ANY (the transport checks each is a known
 *	       value)
 */
struct ta_plan_request {
	u32 flags;
	u32 strategy;
	struct ta_budget budget;
	u64 default_align;
	u32 n_tensors;
	u32 n_ops;
	u32 n_refs;
	struct ta_graph_tensor *tensors;
	struct ta_graph_op *ops;
	u32 *refs;
	struct ta_buffer *buffers;
	u64 *fixed;
	u64 fixed_height;
	u64 fast_capacity;
	u64 *tier_weights;
	u8 *tier_pins;
};

/**
 * struct ta_plan_summary - the figures of a created plan
 * @plan_id: its ID, 0 for a dry run
 * @height: bytes it needs
 * @lower_bound: most bytes live at one step
 * @plan_time_ns: planning time
 * @mmap_offset: mmap offset of its slice
 * @optimal: proven optimal
 * @conflict: when creating failed with -EINVAL because the caller's fixed
 *	      offsets break a rule, which rule and which tensors
 * @fast_height: a tiered plan's fast-tier bytes (&ta_plan_obj.fast_height)
 * @fast_mmap_offset: mmap offset of its fast slice, or 0
 * @n_fast: tensors in the fast tier
 * @weight_total: &ta_plan_obj.weight_total
 * @weight_fast: &ta_plan_obj.weight_fast
 * @weight_bound: &ta_plan_obj.weight_bound
 * @tier_fail: when a tiered create failed because its pins cannot be met
 *	       (-ENOSPC, or -EINVAL for contradictory pins): which tensor and
 *	       the shortfall; kind %TA_TIER_FAIL_NONE otherwise
 */
struct ta_plan_summary {
	u32 plan_id;
	u64 height;
	u64 lower_bound;
	u64 plan_time_ns;
	u64 mmap_offset;
	bool optimal;
	struct ta_conflict conflict;
	u64 fast_height;
	u64 fast_mmap_offset;
	u32 n_fast;
	u64 weight_total;
	u64 weight_fast;
	u64 weight_bound;
	struct ta_tier_fail tier_fail;
};

/**
 * struct ta_file - an open /dev/tensorarena
 * @ta: the device
 * @n_plans: plans made through this file still in the table
 *	     (&ta_owner.n_plans)
 */
struct ta_file {
	struct ta_device *ta;
	unsigned int n_plans;
};

/* ta_dmem.c: the arena's bytes in the dmem cgroup controller */
int ta_dmem_register(struct ta_device *ta);
int ta_dmem_charge(struct ta_device *ta, u64 bytes,
		   struct dmem_cgroup_pool_state **pool);
void ta_dmem_uncharge(struct dmem_cgroup_pool_state *pool, u64 bytes);

/* ta_access.c: who may use the device, and as whom */
bool ta_cred_is_admin(const struct cred *cred);
bool ta_access_allowed(const struct cred *cred);
struct ta_owner ta_owner_of_file(struct file *file);
int ta_owner_of_driver_file(struct file *file, struct ta_owner *owner);

/* ta_plan_obj.c */
int ta_create_begin(struct ta_device *ta, kuid_t uid);
void ta_create_end(struct ta_device *ta, kuid_t uid);
int ta_plan_obj_create(struct ta_device *ta, const struct ta_owner *owner,
		       const struct ta_plan_request *req,
		       struct ta_plan_summary *out);
struct ta_plan_obj *ta_plan_obj_lookup(struct ta_device *ta, u32 id,
				       const struct ta_owner *caller);
struct ta_plan_obj *ta_plan_obj_next(struct ta_device *ta, u32 id,
				     const struct ta_owner *caller);
void ta_plan_obj_get(struct ta_plan_obj *plan);
bool ta_plan_obj_tensor_exportable(const struct ta_plan_obj *plan, u32 index);
void ta_plan_obj_put(struct ta_plan_obj *plan);
int ta_plan_obj_destroy(struct ta_device *ta, u32 id,
			const struct ta_owner *caller);
void ta_plan_obj_release_owner(struct ta_device *ta, unsigned long key,
			       const unsigned int *n_plans);
void ta_plan_obj_destroy_all(struct ta_device *ta);
void ta_plan_tables_init(struct ta_device *ta);
void ta_plan_tables_destroy(struct ta_device *ta);

/* ta_netlink.c: the generic netlink family */
int ta_netlink_init(struct ta_device *ta);
void ta_netlink_exit(struct ta_device *ta);

/* ta_nl_owner.c: the netlink sockets that own plans */
struct sock;
int ta_nl_owner_attach(struct sock *sk, u32 portid, struct ta_owner *caller);
int ta_nl_owners_init(struct ta_device *ta);
void ta_nl_owners_stop(void);
void ta_nl_owners_destroy(struct ta_device *ta);

/* ta_dmabuf.c */
struct dma_buf;
struct ta_plan_obj *ta_dmabuf_plan(struct dma_buf *dmabuf);
struct dma_buf *ta_dmabuf_create(struct ta_plan_obj *plan);
struct dma_buf *ta_dmabuf_create_fast(struct ta_plan_obj *plan);
struct dma_buf *ta_dmabuf_create_by_id(struct ta_device *ta,
				       const struct ta_owner *caller,
				       u32 plan_id, bool fast);
struct ta_plan_obj *ta_dmabuf_tensor(struct dma_buf *dmabuf, u32 *index);
struct dma_buf *ta_dmabuf_create_tensor(struct ta_plan_obj *plan, u32 index);
struct dma_buf *ta_dmabuf_create_tensor_by_id(struct ta_device *ta,
					      const struct ta_owner *caller,
					      u32 plan_id, u32 index,
					      u64 *offset, u64 *size, u32 *tier);

/* ta_test_hooks.c: only with CONFIG_TENSORARENA_KUNIT_TEST (TA_KUNIT=1) */
#ifdef TA_TEST_HOOKS
void ta_test_hooks_register(struct ta_device *ta);
int ta_test_hooks_fail_load(void);
/* ta_nl_owner.c, for tests/ta_netlink_kunit.c */
struct net;
int ta_nl_test_owner(struct ta_device *ta, struct sock *sk, u32 portid,
		     struct ta_owner *owner);
void ta_nl_test_release(struct ta_device *ta, struct net *net, u32 portid);
#else
static inline void ta_test_hooks_register(struct ta_device *ta) { }
static inline int ta_test_hooks_fail_load(void) { return 0; }
#endif

/* ta_mmap.c */
int ta_mmap(struct file *file, struct vm_area_struct *vma);

/* ta_params.c */
int ta_parse_size(const char *str, u64 *bytes);
extern u64 ta_arena_size;
extern unsigned int ta_dma_bits;
extern unsigned int ta_max_tensors;
extern unsigned int ta_max_ops;
extern unsigned int ta_max_refs;
extern unsigned int ta_default_budget_ms;
extern unsigned int ta_max_budget_ms;
extern unsigned int ta_max_plan_ms;
extern unsigned int ta_netlink_max_plan_ms;
extern unsigned int ta_max_user_plans;
extern unsigned int ta_max_file_plans;
extern unsigned int ta_max_user_creates;
extern u64 ta_max_user_bytes;
extern u64 ta_max_user_fast_bytes;
extern unsigned int ta_dev_mode;
extern unsigned int ta_dev_gid;

/* ta_arena.c: the arena, its pool and what it holds */
int ta_arena_init(struct ta_device *ta, u64 size);
size_t ta_arena_in_use(struct ta_device *ta);
size_t ta_arena_largest_free(struct ta_device *ta);
size_t ta_pool_largest_free(struct gen_pool *pool);
int ta_pages_range_table(const struct sg_table *pages, u64 offset,
			 size_t size, struct sg_table *sgt);
void ta_arena_fill_info(struct ta_device *ta, struct ta_info *info,
			bool addresses);
dma_addr_t ta_dma_limit(struct device *dev);
int ta_arena_check_region(struct ta_device *ta);
int ta_arena_range_table(struct ta_device *ta, u64 offset, size_t size,
			 struct sg_table *sgt);
int ta_arena_check_reach(struct ta_device *ta);

/*
 * ta_fast.c: the fast tier. Fast slices are mmap()ed at
 * TA_FAST_MMAP_BASE + the plan's ID << PAGE_SHIFT (above every plan's
 * slice offset, which is ID << PAGE_SHIFT with ID at most TA_PLAN_ID_MAX).
 */
#define TA_FAST_MMAP_BASE	((u64)(TA_PLAN_ID_MAX + 1) << PAGE_SHIFT)
extern u64 ta_sram_size;
int ta_fast_init_emulated(struct ta_device *ta, u64 size);
int ta_fast_init_of(struct ta_device *ta, struct device_node *np);
int ta_fast_alloc(struct ta_device *ta, size_t size, unsigned long *vaddr,
		  dma_addr_t *dma);
void ta_fast_free(struct ta_device *ta, unsigned long vaddr, size_t size);
size_t ta_fast_in_use(struct ta_device *ta);
size_t ta_fast_largest_free(struct ta_device *ta);
void ta_fast_fill_info(struct ta_device *ta, struct ta_info *info,
		       bool addresses);
int ta_fast_range_table(struct ta_device *ta, u64 offset, size_t size,
			struct sg_table *sgt);
int ta_fast_mmap(struct ta_device *ta, struct vm_area_struct *vma, u64 offset);

/* sizeof(struct ta_placement) before it had a tier */
#define TA_PLACEMENT_SIZE_V1	16

/* ta_of.c: the arena from a device-tree node's memory-region */
u64 ta_of_arena_bytes(u64 region_bytes, bool reusable);
int ta_of_region_check(struct device *dev, struct device_node *region,
		       const struct reserved_mem *rmem, u64 *bytes);
int ta_of_arena_init(struct ta_device *ta);

/* ta_ioctl.c */
long ta_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/**
 * struct ta_ioctl_desc - how one ioctl is decoded and served
 * @cmd: the ioctl number as defined by the uAPI header
 * @min_size: the smallest struct size accepted (the first ABI version's)
 * @needs_write: the call changes plans: the file must be open for writing
 * @handler: serves the call on a kernel copy of the argument, for @caller
 * @commit: after the result reached userspace, makes visible what must not
 *	    be visible before (a descriptor); may be NULL
 * @undo: when the result cannot be copied back to userspace, undoes what
 *	  @handler did (so a failed call changes nothing); may be NULL
 * @copy_on_enospc: when @handler fails with -ENOSPC, the argument is
 *		    copied back all the same (a count to retry with)
 * @failed_out: when @handler fails with the error it is given and this
 *		returns true, the argument is copied back all the same (the
 *		Out fields that say why); may be NULL
 */
struct ta_ioctl_desc {
	unsigned int cmd;
	size_t min_size;
	bool needs_write;
	int (*handler)(struct ta_device *ta, const struct ta_owner *caller,
		       void *arg);
	void (*commit)(struct ta_device *ta, const struct ta_owner *caller,
		       void *arg);
	void (*undo)(struct ta_device *ta, const struct ta_owner *caller,
		     void *arg);
	bool copy_on_enospc;
	bool (*failed_out)(int err, const void *arg);
};

const struct ta_ioctl_desc *ta_ioctl_lookup(unsigned int cmd);
int ta_ioctl_info(struct ta_device *ta, const struct ta_owner *caller,
		  void *arg);
void *ta_copy_elems(u64 uptr, u32 n, u32 usize, size_t ksize,
		    size_t min_size);
int ta_copy_graph(const struct ta_plan_create *args,
		  struct ta_plan_request *req);
int ta_copy_lifetimes(const struct ta_plan_create *args,
		      struct ta_plan_request *req);

/* Whether an ioctl argument's reserved words are not all zero. */
#define ta_reserved_nonzero(s) memchr_inv(&(s)->reserved, 0, sizeof((s)->reserved))

/* ta_ioctl_group.c: GROUP_CREATE, GROUP_ADD, GROUP_GET */
#define TA_IOCTL_GROUP_DESCS	3

/*
 * GROUP_ADD's argument and, after it, the member the handler added, for
 * its commit (the result reached userspace) or undo (it did not).
 */
struct ta_ioctl_group_add {
	struct ta_group_add args;
	u32 member_id;
};

extern const struct ta_ioctl_desc ta_ioctl_group_descs[TA_IOCTL_GROUP_DESCS];

/* ta_plan_obj.c: for groups (ta_group_obj.c) */
struct ta_user *ta_user_reserve(struct ta_device *ta, kuid_t uid);
int ta_user_charge_bytes(struct ta_device *ta, struct ta_user *user, u64 bytes);
void ta_user_release(struct ta_device *ta, struct ta_user *user, u64 bytes);
void ta_user_uncharge_bytes(struct ta_device *ta, struct ta_user *user,
			    u64 bytes);
void ta_plan_obj_erased(struct ta_plan_obj *plan);
void ta_plan_obj_notify(struct ta_device *ta, enum ta_event_type type,
			const struct ta_plan_obj *plan, u64 requested);
void ta_plan_obj_unpublish(struct ta_device *ta, struct ta_plan_obj *plan);
int ta_request_problem(const struct ta_plan_request *req,
		       struct ta_graph *graph, struct ta_problem *problem,
		       struct ta_buffer **derived);
int ta_plan_obj_mark_exportable(struct ta_plan_obj *plan,
				const struct ta_plan_request *req);

/* ta_group_obj.c, ta_group_member.c: what the plan objects call */
int ta_group_obj_destroy(struct ta_device *ta, struct ta_plan_obj *plan);
void ta_group_obj_forget(struct ta_plan_obj *member);
void ta_group_obj_free(struct ta_group *group);
u32 ta_group_obj_member_count(struct ta_plan_obj *gplan);
struct ta_plan_obj *ta_group_obj_member(struct ta_plan_obj *gplan, u32 index);

/* ta_plan_obj.c: request checks shared by ioctl and netlink */
int ta_request_check(struct ta_plan_request *req, u64 budget_ns,
		     u64 budget_steps, unsigned int limit_ms);
void ta_request_free(struct ta_plan_request *req);
/* Room for a ta_conflict_describe() sentence. */
#define TA_CONFLICT_MSG_LEN	96
bool ta_conflict_describe(const struct ta_conflict *c, char *buf, size_t len);
/* Room for a ta_tier_fail_describe() sentence. */
#define TA_TIER_FAIL_MSG_LEN	160
bool ta_tier_fail_describe(const struct ta_tier_fail *f, char *buf,
			   size_t len);
u64 ta_plan_obj_fast_mmap_offset(const struct ta_plan_obj *plan);

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
