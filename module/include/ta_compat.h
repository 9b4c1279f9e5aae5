/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_compat.h - what differs between the kernels tensorarena supports.
 *
 * One source builds against every supported kernel; each difference of the
 * kernel's API is bridged here, once, and nowhere else.
 */
#ifndef TA_COMPAT_H
#define TA_COMPAT_H

#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <net/genetlink.h>

/* 6.2 made the device argument of devnode() callbacks const. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define TA_DEVNODE_CONST const
#else
#define TA_DEVNODE_CONST
#endif

/*
 * 6.11 made a platform driver's .remove return void. Drivers write
 * void NAME_void(struct platform_device *) and declare .remove through
 * TA_PLATFORM_REMOVE(NAME), which defines NAME with the kernel's type.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define TA_PLATFORM_REMOVE(name)					\
static void name(struct platform_device *pdev)				\
{									\
	name##_void(pdev);						\
}
#else
#define TA_PLATFORM_REMOVE(name)					\
static int name(struct platform_device *pdev)				\
{									\
	name##_void(pdev);						\
	return 0;							\
}
#endif

/*
 * 6.3 made vma->vm_flags read-only: flags are set with vm_flags_set(), which
 * takes the mmap lock's writer assertion. (An mmap handler holds it.)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * 6.2 gave a family's pre_doit/post_doit the split form of the operation,
 * struct genl_split_ops, instead of struct genl_ops: the type of their
 * first argument.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define TA_GENL_DOIT_OPS struct genl_split_ops
#else
#define TA_GENL_DOIT_OPS struct genl_ops
#endif

/*
 * 6.2 moved a dump's parsed attributes into a struct genl_info inside
 * struct genl_dumpit_info: the attributes of a dump request.
 */
static inline struct nlattr **ta_dumpit_attrs(const struct genl_dumpit_info *di)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return di->info.attrs;
#else
	return di->attrs;
#endif
}

/*
 * 6.2 changed dma-buf's locking convention: the importer calls that take
 * the reservation lock themselves are the *_unlocked ones (6.1's stable
 * series has some of them, but 6.1's plain calls lock for themselves).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ta_dma_buf_map_attachment	dma_buf_map_attachment_unlocked
#define ta_dma_buf_unmap_attachment	dma_buf_unmap_attachment_unlocked
#define ta_dma_buf_vmap			dma_buf_vmap_unlocked
#define ta_dma_buf_vunmap		dma_buf_vunmap_unlocked
#else
#define ta_dma_buf_map_attachment	dma_buf_map_attachment
#define ta_dma_buf_unmap_attachment	dma_buf_unmap_attachment
#define ta_dma_buf_vmap			dma_buf_vmap
#define ta_dma_buf_vunmap		dma_buf_vunmap
#endif

/* 6.12: dma_set_max_seg_size() cannot fail and returns nothing. */
static inline int ta_dma_set_max_seg_size(struct device *dev,
					  unsigned int size)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	dma_set_max_seg_size(dev, size);
	return 0;
#else
	return dma_set_max_seg_size(dev, size);
#endif
}

/**
 * ta_nl_set_err_msg_str() - an extack message made at run time
 * @extack: the request's extack, or NULL
 * @fallback: a string literal, for kernels that cannot format one
 * @str: the message (copied)
 *
 * Formatted extack messages came in 6.2 (NL_SET_ERR_MSG_FMT). Before, an
 * extack message must be a string that outlives the request: @fallback,
 * with the details in the kernel log.
 */
static inline void ta_nl_set_err_msg_str(struct netlink_ext_ack *extack,
					 const char *fallback, const char *str)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	NL_SET_ERR_MSG_FMT(extack, "%s", str);
#else
	if (extack)
		extack->_msg = fallback;
#endif
}

/*
 * 6.13 made a symbol namespace a string literal: MODULE_IMPORT_NS("DMA_BUF")
 * where 6.12 and earlier stringify a bare name. MODULE_IMPORT_NS(TA_NS_DMA_BUF)
 * is right on both (the older macro expands its argument first).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define TA_NS_DMA_BUF "DMA_BUF"
#else
#define TA_NS_DMA_BUF DMA_BUF
#endif

/*
 * 6.14 removed struct drm_driver's date. A DRM driver's initializer says
 * TA_DRM_DRIVER_DATE("YYYYMMDD") where it gave .date.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define TA_DRM_DRIVER_DATE(yyyymmdd)
#else
#define TA_DRM_DRIVER_DATE(yyyymmdd) .date = (yyyymmdd),
#endif

/*
 * 6.14 added the dmem cgroup controller (linux/cgroup_dmem.h), whose stubs
 * make every call a no-op without CONFIG_CGROUP_DMEM. Before 6.14 the same
 * stubs are here.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#include <linux/cgroup_dmem.h>
#else
struct dmem_cgroup_pool_state;
struct dmem_cgroup_region;

static inline __printf(2, 3) struct dmem_cgroup_region *
dmem_cgroup_register_region(u64 size, const char *name_fmt, ...)
{
	return NULL;
}

static inline void
dmem_cgroup_unregister_region(struct dmem_cgroup_region *region)
{
}

static inline int
dmem_cgroup_try_charge(struct dmem_cgroup_region *region, u64 size,
		       struct dmem_cgroup_pool_state **ret_pool,
		       struct dmem_cgroup_pool_state **ret_limit_pool)
{
	*ret_pool = NULL;
	if (ret_limit_pool)
		*ret_limit_pool = NULL;
	return 0;
}

static inline void dmem_cgroup_uncharge(struct dmem_cgroup_pool_state *pool,
					u64 size)
{
}
#endif

/*
 * 7.3 gave dmem_cgroup_register_region() the region's parameters as a
 * struct dmem_cgroup_init (its size, and a reclaim callback this module
 * does not set) where it took the size; it copies them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 3, 0)
#define ta_dmem_cgroup_register_region(region_size, name_fmt, ...)	\
	dmem_cgroup_register_region(&(const struct dmem_cgroup_init){	\
					    .size = (region_size) },	\
				    name_fmt, ##__VA_ARGS__)
#else
#define ta_dmem_cgroup_register_region(region_size, name_fmt, ...)	\
	dmem_cgroup_register_region(region_size, name_fmt, ##__VA_ARGS__)
#endif

/*
 * 7.x's DMA-API debugging counts a cache line mapped by more than seven
 * streaming mappings at once as a leak unless each says the overlap is
 * safe; older kernels have no such attribute (nor the check).
 */
#ifndef DMA_ATTR_DEBUGGING_IGNORE_CACHELINES
#define DMA_ATTR_DEBUGGING_IGNORE_CACHELINES 0
#endif

/*
 * 7.2 has kzalloc_obj(), which its checkpatch asks for where
 * kzalloc(sizeof(*p), gfp) was; 6.12 does not. Where the kernel lacks it,
 * it is that allocation spelled out.
 */
#ifndef kzalloc_obj
#define kzalloc_obj(obj, gfp) kzalloc(sizeof(obj), gfp)
#endif

#endif /* TA_COMPAT_H */
