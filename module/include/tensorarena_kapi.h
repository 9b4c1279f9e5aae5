/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tensorarena_kapi.h - tensorarena's kernel API for accelerator drivers.
 *
 * An NPU driver takes a plan made by userspace (by ID, with the caller's
 * credentials, or from a dma-buf the runtime handed it), holds a reference
 * while the NPU uses it, and reads the DMA address and size of each tensor.
 * A reference keeps the plan's memory alive even after its owner destroyed
 * it or exited; a notifier tells the driver when that happens.
 *
 * The DMA addresses are those of tensorarena's own device: valid for a
 * device that shares its DMA view (same bus, no IOMMU in between). A
 * device behind an IOMMU must import the plan's dma-buf (the one userspace
 * passed, or ta_kapi_plan_dmabuf() of a plan taken by ID) and map the
 * attachment for itself (dma_buf_attach(), dma_buf_map_attachment()).
 *
 * Build against it with KBUILD_EXTRA_SYMBOLS=<tensorarena>/Module.symvers.
 * Documentation/npu-drivers.md explains the hand-off, cache coherence and
 * lifetime rules; tests/npu-sim/ is a complete driver that uses it.
 */
#ifndef TENSORARENA_KAPI_H
#define TENSORARENA_KAPI_H

#include <linux/cred.h>
#include <linux/dma-buf.h>
#include <linux/notifier.h>
#include <linux/types.h>

struct ta_plan_obj;

struct ta_plan_obj *ta_kapi_plan_get(u32 id, struct file *file);
struct ta_plan_obj *ta_kapi_plan_from_dmabuf(struct dma_buf *dmabuf);
struct ta_plan_obj *ta_kapi_tensor_from_dmabuf(struct dma_buf *dmabuf, u32 *index);
struct dma_buf *ta_kapi_plan_dmabuf(struct ta_plan_obj *plan);
struct dma_resv *ta_kapi_plan_resv(struct ta_plan_obj *plan);
void ta_kapi_plan_ref(struct ta_plan_obj *plan);
void ta_kapi_plan_put(struct ta_plan_obj *plan);
struct device *ta_kapi_plan_device(const struct ta_plan_obj *plan);
dma_addr_t ta_kapi_plan_dma_base(const struct ta_plan_obj *plan);
size_t ta_kapi_plan_size(const struct ta_plan_obj *plan);
u32 ta_kapi_plan_tensor_count(const struct ta_plan_obj *plan);
int ta_kapi_plan_tensor(const struct ta_plan_obj *plan, u32 index,
			dma_addr_t *dma, u64 *size);
int ta_kapi_plan_notifier_register(struct ta_plan_obj *plan,
				   struct notifier_block *nb);
int ta_kapi_plan_notifier_unregister(struct ta_plan_obj *plan,
				     struct notifier_block *nb);

/* The notifier's action when the plan is destroyed (its ID is gone). */
struct ta_plan_obj *ta_kapi_plan_group(struct ta_plan_obj *plan);
u32 ta_kapi_group_member_count(struct ta_plan_obj *group);
struct ta_plan_obj *ta_kapi_group_member(struct ta_plan_obj *group, u32 index);
u32 ta_kapi_plan_lane(const struct ta_plan_obj *plan);

/*
 * Memory tiers: a tiered plan also has a slice in the fast tier (SRAM).
 * ta_kapi_plan_tensor() gives each tensor's DMA address in its own tier.
 */
int ta_kapi_plan_tensor_tier(const struct ta_plan_obj *plan, u32 index,
			     u32 *tier);
dma_addr_t ta_kapi_plan_fast_dma_base(const struct ta_plan_obj *plan);
size_t ta_kapi_plan_fast_size(const struct ta_plan_obj *plan);
struct dma_buf *ta_kapi_plan_fast_dmabuf(struct ta_plan_obj *plan);

#define TA_KAPI_PLAN_DESTROYED	1

#endif /* TENSORARENA_KAPI_H */
