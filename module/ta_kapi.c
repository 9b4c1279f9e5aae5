// SPDX-License-Identifier: GPL-2.0
/*
 * ta_kapi.c - the kernel API for accelerator drivers (see
 * module/include/tensorarena_kapi.h).
 */
#include <linux/fs.h>
#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/module.h>

#include "ta_internal.h"
#include "include/tensorarena_kapi.h"

/**
 * ta_kapi_plan_get() - take a reference to a plan by ID
 * @id: the plan's ID, as userspace got it from PLAN_CREATE
 * @file: the file the driver acts for: its own device's open file through
 *	  which the ID came (a DRM driver passes &drm_file.filp). Called in
 *	  the context of that request.
 *
 * The rule of /dev/tensorarena, applied to @file as if it were a
 * descriptor of the device: its opener must be allowed by the module's
 * group and mode, @file must be open for writing (what the driver gets
 * writes into the plan), and the plan must be visible to the opener: the
 * same effective uid, or admin (CAP_SYS_ADMIN in the initial user
 * namespace, held by the opener and by the current task). The opener
 * counts, not the task that calls: a descriptor handed to a more
 * privileged process gains nothing.
 *
 * Every reference from the kernel API also holds tensorarena.ko, so the
 * module (and the arena) cannot be unloaded under a driver that forgot a
 * ta_kapi_plan_put(): rmmod fails with EBUSY instead.
 *
 * Return: the plan with a reference; ERR_PTR(-EACCES) when @file's opener
 * may not use tensorarena; ERR_PTR(-EBADF) when @file is not open for
 * writing; ERR_PTR(-ENOENT) for no such plan or one the opener may not see;
 * ERR_PTR(-ENODEV) when no arena is up or the module is going away.
 */
struct ta_plan_obj *ta_kapi_plan_get(u32 id, struct file *file)
{
	struct ta_device *ta = READ_ONCE(ta_default_device);
	struct ta_plan_obj *plan;
	struct ta_owner caller;
	int err;

	err = ta_owner_of_driver_file(file, &caller);
	if (err)
		return ERR_PTR(err);
	if (!ta || !try_module_get(THIS_MODULE))
		return ERR_PTR(-ENODEV);
	plan = ta_plan_obj_lookup(ta, id, &caller);
	if (IS_ERR(plan))
		module_put(THIS_MODULE);
	return plan;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_get);

/**
 * ta_kapi_plan_from_dmabuf() - take a reference to the plan of a dma-buf
 * @dmabuf: a dma-buf exported by tensorarena (PLAN_EXPORT)
 *
 * Return: the plan with a reference, or ERR_PTR(-EINVAL) when @dmabuf is
 * not tensorarena's.
 */
struct ta_plan_obj *ta_kapi_plan_from_dmabuf(struct dma_buf *dmabuf)
{
	struct ta_plan_obj *plan = ta_dmabuf_plan(dmabuf);

	if (!plan)
		return ERR_PTR(-EINVAL);
	/* The buffer pins the module; this reference pins it again. */
	__module_get(THIS_MODULE);
	ta_plan_obj_get(plan);
	return plan;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_from_dmabuf);

/**
 * ta_kapi_tensor_from_dmabuf() - take a reference to the plan of a tensor's
 * dma-buf
 * @dmabuf: a dma-buf of one tensor, exported by tensorarena (TENSOR_EXPORT,
 *	    or the tensor-export netlink command)
 * @index: out, the tensor's index in the plan, for ta_kapi_plan_tensor()
 *
 * For a driver handed a tensor's buffer (a camera's capture buffer, say)
 * that wants the plan it belongs to. A whole plan's dma-buf is refused:
 * ta_kapi_plan_from_dmabuf() takes those.
 *
 * Return: the plan with a reference (release it with ta_kapi_plan_put()),
 * or ERR_PTR(-EINVAL) when @dmabuf is not a tensor's dma-buf of
 * tensorarena (*@index is then untouched).
 */
struct ta_plan_obj *ta_kapi_tensor_from_dmabuf(struct dma_buf *dmabuf,
					       u32 *index)
{
	struct ta_plan_obj *plan;
	u32 i;

	plan = ta_dmabuf_tensor(dmabuf, &i);
	if (!plan)
		return ERR_PTR(-EINVAL);
	/* The buffer pins the module; this reference pins it again. */
	__module_get(THIS_MODULE);
	ta_plan_obj_get(plan);
	*index = i;
	return plan;
}
EXPORT_SYMBOL_GPL(ta_kapi_tensor_from_dmabuf);

/**
 * ta_kapi_plan_dmabuf() - a dma-buf of a plan the driver holds
 * @plan: a plan the caller holds a reference to (e.g. from
 *	  ta_kapi_plan_get())
 *
 * For a driver given a plan ID that needs the slice mapped for its own
 * device (behind an IOMMU, or for its own sg_table): attach the buffer and
 * map the attachment as for one userspace exported. The buffer holds its
 * own reference to the plan. Every buffer of a plan's whole slice, this
 * one and those userspace exported, shares the plan's reservation object
 * (ta_kapi_plan_resv()): a job's fence added through one is seen through
 * all, so jobs by ID and by buffer are ordered alike. One job must
 * therefore name a plan's slice once: two such buffers in one
 * drm_gem_lock_reservations() call fail with -EALREADY.
 *
 * Return: the dma-buf, to be released with dma_buf_put(); ERR_PTR(-EINVAL)
 * for a plan without memory (height 0), ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_kapi_plan_dmabuf(struct ta_plan_obj *plan)
{
	return ta_dmabuf_create(plan);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_dmabuf);

/**
 * ta_kapi_plan_resv() - the reservation object of a plan's slice
 * @plan: a plan the caller holds a reference to
 *
 * For a driver that takes a plan by ID and reaches the slice without a
 * dma-buf (ta_kapi_plan_dma_base(), no IOMMU): the implicit fences of
 * every dma-buf of the whole slice live here, so such a driver waits for
 * them and adds its job's fence here, under dma_resv_lock(), as it would
 * through an imported buffer. It lives as long as the plan.
 *
 * Return: the plan's reservation object.
 */
struct dma_resv *ta_kapi_plan_resv(struct ta_plan_obj *plan)
{
	return plan->resv;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_resv);

/**
 * ta_kapi_plan_ref() - take another reference to a plan already held
 * @plan: the plan
 */
void ta_kapi_plan_ref(struct ta_plan_obj *plan)
{
	__module_get(THIS_MODULE);
	ta_plan_obj_get(plan);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_ref);

/**
 * ta_kapi_plan_put() - drop a reference; the last one frees the memory
 * @plan: the plan
 */
void ta_kapi_plan_put(struct ta_plan_obj *plan)
{
	ta_plan_obj_put(plan);
	module_put(THIS_MODULE);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_put);

/**
 * ta_kapi_plan_device() - the device the plan's DMA addresses are for
 * @plan: the plan
 *
 * Return: tensorarena's device.
 */
struct device *ta_kapi_plan_device(const struct ta_plan_obj *plan)
{
	return plan->ta->dev;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_device);

/**
 * ta_kapi_plan_dma_base() - DMA address of the plan's slice
 * @plan: the plan
 *
 * Return: the address; tensor i is at this plus its offset.
 */
dma_addr_t ta_kapi_plan_dma_base(const struct ta_plan_obj *plan)
{
	return plan->slice_dma;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_dma_base);

/**
 * ta_kapi_plan_size() - bytes of the plan's slice
 * @plan: the plan
 *
 * Return: the height rounded up to a page; 0 for a plan with no memory.
 */
size_t ta_kapi_plan_size(const struct ta_plan_obj *plan)
{
	return plan->slice_size;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_size);

/**
 * ta_kapi_plan_tensor_count() - tensors in the plan
 * @plan: the plan
 *
 * Return: the count.
 */
u32 ta_kapi_plan_tensor_count(const struct ta_plan_obj *plan)
{
	return plan->n_tensors;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_tensor_count);

/**
 * ta_kapi_plan_tensor() - where one tensor lives
 * @plan: the plan
 * @index: the tensor's index in the graph
 * @dma: out, its DMA address in its own tier: in the plan's slice of the
 *	 arena, or of the fast tier for a tensor ta_kapi_plan_tensor_tier()
 *	 says is %TA_TIER_FAST
 * @size: out, its size in bytes
 *
 * Return: 0, or -EINVAL for an index out of range or a plan without memory
 * in the tensor's tier.
 */
int ta_kapi_plan_tensor(const struct ta_plan_obj *plan, u32 index,
			dma_addr_t *dma, u64 *size)
{
	const struct ta_placement *pl;

	if (index >= plan->n_tensors)
		return -EINVAL;
	pl = &plan->placements[index];
	if (pl->tier == TA_TIER_FAST) {
		if (!plan->fast_slice_size)
			return -EINVAL;
		*dma = plan->fast_slice_dma + pl->offset;
	} else {
		if (!plan->slice_size)
			return -EINVAL;
		*dma = plan->slice_dma + pl->offset;
	}
	*size = pl->size;
	return 0;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_tensor);

/**
 * ta_kapi_plan_tensor_tier() - which tier one tensor lives in
 * @plan: the plan
 * @index: the tensor's index in the graph
 * @tier: out, %TA_TIER_SLOW (the arena) or %TA_TIER_FAST (the fast tier,
 *	  an NPU's SRAM); %TA_TIER_SLOW for every tensor of a plan created
 *	  without %TA_CREATE_TIERED
 *
 * Return: 0, or -EINVAL for an index out of range.
 */
int ta_kapi_plan_tensor_tier(const struct ta_plan_obj *plan, u32 index,
			     u32 *tier)
{
	if (index >= plan->n_tensors)
		return -EINVAL;
	*tier = plan->placements[index].tier;
	return 0;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_tensor_tier);

/**
 * ta_kapi_plan_fast_dma_base() - DMA address of the plan's fast slice
 * @plan: the plan
 *
 * Return: the address (a fast tensor is at this plus its offset), or 0
 * for a plan without a fast slice.
 */
dma_addr_t ta_kapi_plan_fast_dma_base(const struct ta_plan_obj *plan)
{
	return plan->fast_slice_size ? plan->fast_slice_dma : 0;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_fast_dma_base);

/**
 * ta_kapi_plan_fast_size() - bytes of the plan's fast slice
 * @plan: the plan
 *
 * Return: its fast height rounded up to a page; 0 for a plan without one
 * (untiered, or nothing in the fast tier takes room).
 */
size_t ta_kapi_plan_fast_size(const struct ta_plan_obj *plan)
{
	return plan->fast_slice_size;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_fast_size);

/**
 * ta_kapi_plan_fast_dmabuf() - a dma-buf of a plan's fast slice
 * @plan: a plan the caller holds a reference to
 *
 * As ta_kapi_plan_dmabuf(), for the fast slice; every buffer of the whole
 * fast slice shares one reservation object, apart from the arena slice's
 * (a job names it beside the plan's slice of the arena).
 *
 * Return: the dma-buf (drop it with dma_buf_put()); ERR_PTR(-EINVAL) for a
 * plan without a fast slice; ERR_PTR(-EOPNOTSUPP) when the fast tier cannot
 * be exported (&ta_info.fast_flags); ERR_PTR(-ENOMEM).
 */
struct dma_buf *ta_kapi_plan_fast_dmabuf(struct ta_plan_obj *plan)
{
	return ta_dmabuf_create_fast(plan);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_fast_dmabuf);

/**
 * ta_kapi_plan_notifier_register() - be told when the plan is destroyed
 * @plan: a plan the caller holds a reference to
 * @nb: called with %TA_KAPI_PLAN_DESTROYED and the plan, in process
 *	context, when the plan's ID goes away (its memory stays while the
 *	caller holds its reference)
 *
 * Return: 0.
 */
int ta_kapi_plan_notifier_register(struct ta_plan_obj *plan,
				   struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&plan->destroyed, nb);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_notifier_register);

/**
 * ta_kapi_plan_notifier_unregister() - stop being told
 * @plan: the plan
 * @nb: the notifier block given to ta_kapi_plan_notifier_register()
 *
 * Return: 0, or -ENOENT when @nb was not registered.
 */
int ta_kapi_plan_notifier_unregister(struct ta_plan_obj *plan,
				     struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&plan->destroyed, nb);
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_notifier_unregister);

/**
 * ta_kapi_plan_group() - the group a plan is a member of
 * @plan: a plan the caller holds a reference to
 *
 * A group's members share its slice (ta_kapi_plan_dma_base() and
 * ta_kapi_plan_size() of a member are the group's) and the members of one
 * lane share one reservation object (ta_kapi_plan_resv()), so their jobs
 * are ordered by the implicit fences with nothing for the driver to do.
 *
 * Return: the group's plan with a reference (drop it with
 * ta_kapi_plan_put()), or NULL when @plan is not a member (a plain plan,
 * or a group's plan itself).
 */
struct ta_plan_obj *ta_kapi_plan_group(struct ta_plan_obj *plan)
{
	if (!plan->group_plan)
		return NULL;
	ta_kapi_plan_ref(plan->group_plan);
	return plan->group_plan;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_group);

/**
 * ta_kapi_group_member_count() - members of a group
 * @group: a group's plan the caller holds a reference to
 *
 * Return: the count now (members may be added or destroyed meanwhile); 0
 * for a plan that is not a group.
 */
u32 ta_kapi_group_member_count(struct ta_plan_obj *group)
{
	return ta_group_obj_member_count(group);
}
EXPORT_SYMBOL_GPL(ta_kapi_group_member_count);

/**
 * ta_kapi_group_member() - one member of a group
 * @group: a group's plan the caller holds a reference to
 * @index: below ta_kapi_group_member_count(), in member order
 *
 * Return: the member's plan with a reference (drop it with
 * ta_kapi_plan_put()), or NULL for an index out of range, a plan that is
 * not a group, or a member going away.
 */
struct ta_plan_obj *ta_kapi_group_member(struct ta_plan_obj *group, u32 index)
{
	struct ta_plan_obj *m = ta_group_obj_member(group, index);

	if (m)
		__module_get(THIS_MODULE);
	return m;
}
EXPORT_SYMBOL_GPL(ta_kapi_group_member);

/**
 * ta_kapi_plan_lane() - a member's lane
 * @plan: a plan
 *
 * Members of one lane run one after another and share a reservation
 * object; members of different lanes may run at once and share no byte.
 *
 * Return: the lane; 0 for a plan that is not a member.
 */
u32 ta_kapi_plan_lane(const struct ta_plan_obj *plan)
{
	return plan->lane;
}
EXPORT_SYMBOL_GPL(ta_kapi_plan_lane);
