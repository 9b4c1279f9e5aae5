// SPDX-License-Identifier: GPL-2.0
/*
 * ta_mmap.c - map a plan's slice of the arena into userspace.
 *
 * The mmap offset selects the plan: ID << PAGE_SHIFT (what PLAN_CREATE and
 * PLAN_GET return as mmap_offset), or TA_FAST_MMAP_BASE + ID << PAGE_SHIFT
 * for its slice of the fast tier (fast_mmap_offset). Only shared mappings are allowed (a
 * private, copy-on-write view of DMA memory would silently stop being the
 * memory the NPU sees), at most the plan's slice long. A mapping holds a
 * reference on the plan, so the slice outlives a destroy or the owner's
 * exit until the last mapping is gone.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/mm.h>

#include "include/ta_compat.h"
#include "ta_internal.h"

static void ta_vma_open(struct vm_area_struct *vma)
{
	ta_plan_obj_get(vma->vm_private_data);
}

static void ta_vma_close(struct vm_area_struct *vma)
{
	ta_plan_obj_put(vma->vm_private_data);
}

static const struct vm_operations_struct ta_vm_ops = {
	.open = ta_vma_open,
	.close = ta_vma_close,
};

/* Map @plan's slice of the arena into @vma. */
static int ta_mmap_arena(struct ta_device *ta, struct vm_area_struct *vma,
			 const struct ta_plan_obj *plan)
{
	/* dma_mmap_coherent() takes vm_pgoff as the page offset in the arena. */
	vma->vm_pgoff = (plan->slice_vaddr - (unsigned long)ta->cpu_base) >>
			PAGE_SHIFT;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return dma_mmap_coherent(ta->dev, vma, ta->cpu_base, ta->dma_base,
				 ta->size);
}

/**
 * ta_mmap() - the mmap of /dev/tensorarena
 * @file: the open device
 * @vma: the new mapping; vm_pgoff is the plan ID, or for the plan's fast
 *	 slice %TA_FAST_MMAP_BASE >> PAGE_SHIFT plus the ID
 *
 * A shared mapping is what is asked for (VM_MAYSHARE: do_mmap() clears
 * VM_SHARED for a shared mapping of a file not open for writing, and such a
 * descriptor maps plans read-only; VM_MAYWRITE is clear then, so mprotect()
 * cannot make it writable).
 *
 * Return: 0; -ENOENT for a plan that does not exist or is not the caller's;
 * -EINVAL for a private mapping, or one longer than the plan's slice (or of
 * a plan without a slice: a dry run or height 0); -EOPNOTSUPP for a fast
 * slice of a fast tier that cannot be mapped; the error of
 * dma_mmap_coherent().
 */
int ta_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ta_file *tf = file->private_data;
	struct ta_device *ta = tf->ta;
	struct ta_owner caller = ta_owner_of_file(file);
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long fast_pgoff = TA_FAST_MMAP_BASE >> PAGE_SHIFT;
	unsigned long id = vma->vm_pgoff;
	struct ta_plan_obj *plan;
	bool fast = false;
	int err;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (id >= fast_pgoff) {
		id -= fast_pgoff;
		fast = true;
	}
	if (id > TA_PLAN_ID_MAX)
		return -ENOENT;
	plan = ta_plan_obj_lookup(ta, id, &caller);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	if (len > (fast ? plan->fast_slice_size : plan->slice_size)) {
		err = -EINVAL;
		goto put_plan;
	}
	if (fast)
		err = ta_fast_mmap(ta, vma, plan->fast_slice_vaddr -
				   (unsigned long)ta->fast.cpu_base);
	else
		err = ta_mmap_arena(ta, vma, plan);
	if (err)
		goto put_plan;
	vma->vm_private_data = plan;
	vma->vm_ops = &ta_vm_ops;
	return 0;

put_plan:
	ta_plan_obj_put(plan);
	return err;
}
