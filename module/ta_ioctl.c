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
#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ta_internal.h"

/*
 * PLAN_EXPORT's argument and, after it, what the handler leaves for
 * ta_ioctl_plan_export_commit() or _undo(): the descriptor number is
 * reserved but the buffer's file is installed only once the number has
 * reached userspace, so a failed copy never closes a number another thread
 * may already use.
 */
struct ta_ioctl_export {
	struct ta_plan_export args;
	struct dma_buf *dmabuf;
};

/*
 * Big enough for the argument of every ioctl in ta_ioctls[]; only the
 * uAPI struct at its start is copied in and out.
 */
/* TENSOR_EXPORT's argument and the buffer, as &struct ta_ioctl_export. */
struct ta_ioctl_tensor_export {
	struct ta_tensor_export args;
	struct dma_buf *dmabuf;
};

union ta_ioctl_arg {
	struct ta_info info;
	struct ta_plan_create create;
	struct ta_plan_get get;
	struct ta_plan_destroy destroy;
	struct ta_ioctl_export export;
	struct ta_ioctl_tensor_export tensor_export;
	struct ta_group_create group_create;
	struct ta_ioctl_group_add group_add;
	struct ta_group_get group_get;
};

/*
 * Element sizes of the arrays a call passes (tensor_size, op_size,
 * placement_size) may grow with the ABI, but not past this: bytes beyond
 * what this kernel knows must be checked for zero, and that walk must stay
 * cheap.
 */
#define TA_MAX_ELEM_SIZE	256

/**
 * ta_ioctl_info() - serve %TA_IOCTL_INFO
 * @ta: the device
 * @caller: who asks: the figures are public, the addresses for admins
 * @arg: a &struct ta_info
 *
 * Return: 0, or -EINVAL when flags or reserved are not zero.
 */
int ta_ioctl_info(struct ta_device *ta, const struct ta_owner *caller,
		  void *arg)
{
	struct ta_info *info = arg;

	if (info->flags || ta_reserved_nonzero(info))
		return -EINVAL;
	ta_arena_fill_info(ta, info, caller->admin);
	return 0;
}

/* A long copy in yields, and stops on a signal, every this many bytes. */
#define TA_COPY_YIELD_BYTES	SZ_256K

/*
 * ta_copy_graph() and ta_copy_lifetimes() copy their arrays in through a
 * buffer on the stack, this many bytes, and convert each chunk into the
 * request: no copy of the whole array to convert from.
 */
#define TA_COPY_BOUNCE_BYTES	512

union ta_copy_bounce {
	struct ta_tensor tensors[TA_COPY_BOUNCE_BYTES / sizeof(struct ta_tensor)];
	struct ta_op ops[TA_COPY_BOUNCE_BYTES / sizeof(struct ta_op)];
	struct ta_lifetime lifetimes[TA_COPY_BOUNCE_BYTES /
				     sizeof(struct ta_lifetime)];
};

/* An element size the caller gave: 0, or -EINVAL / -E2BIG as ta_copy_elems(). */
static int ta_copy_size_check(u32 usize, size_t min_size)
{
	if (usize < min_size)
		return -EINVAL;
	if (usize > TA_MAX_ELEM_SIZE)
		return -E2BIG;
	return 0;
}

/* Copy @n elements of @usize bytes at @src into @dst, @ksize bytes each. */
static int ta_copy_elems_in(void *dst, const u8 __user *src, u32 n,
			    u32 usize, size_t ksize)
{
	u32 i;
	int err;

	if (usize == ksize)	/* the layout this kernel knows: one copy */
		return copy_from_user(dst, src, (size_t)n * ksize) ? -EFAULT : 0;
	for (i = 0; i < n; i++) {
		err = copy_struct_from_user((u8 *)dst + (size_t)i * ksize,
					    ksize, src + (size_t)i * usize,
					    usize);
		if (err)
			return err;
	}
	return 0;
}

/* Between the chunks of a long copy: yield; -EINTR on a signal. */
static int ta_copy_yield(void)
{
	cond_resched();
	return signal_pending(current) ? -EINTR : 0;
}

/**
 * ta_copy_elems() - copy an array of user structs of the caller's size
 * @uptr: user pointer
 * @n: elements
 * @usize: bytes of one element as userspace knows it
 * @ksize: bytes of one element as this kernel knows it
 * @min_size: the first ABI version's element size
 *
 * A shorter user element (older ABI) is zero-extended; a longer one must
 * be zero past @ksize.
 *
 * Return: a kvmalloc'd array or an ERR_PTR: -EINVAL when @usize is below
 * @min_size, -E2BIG for non-zero unknown bytes or @usize above
 * %TA_MAX_ELEM_SIZE, -EFAULT, -EINTR, -ENOMEM.
 */
void *ta_copy_elems(u64 uptr, u32 n, u32 usize, size_t ksize,
		    size_t min_size)
{
	const u8 __user *src = u64_to_user_ptr(uptr);
	u32 i, chunk, per_chunk;
	u8 *dst;
	int err;

	err = ta_copy_size_check(usize, min_size);
	if (err)
		return ERR_PTR(err);
	dst = kvcalloc(max_t(u32, n, 1), ksize, TA_GFP_USER);
	if (!dst)
		return ERR_PTR(-ENOMEM);
	per_chunk = TA_COPY_YIELD_BYTES / max_t(size_t, usize, ksize);
	for (i = 0; i < n; i += chunk) {
		chunk = min(n - i, per_chunk);
		err = ta_copy_elems_in(dst + (size_t)i * ksize,
				       src + (size_t)i * usize, chunk, usize,
				       ksize);
		if (!err)
			err = ta_copy_yield();
		if (err) {
			kvfree(dst);
			return ERR_PTR(err);
		}
	}
	return dst;
}

/*
 * ta_copy_elems_each() - copy an array of user structs in, chunk by chunk
 * @uptr, @n, @usize, @ksize, @min_size: as ta_copy_elems()
 * @bounce: room for @per_chunk elements of @ksize bytes
 * @take: given each chunk copied into @bounce (zero-extended as by
 *	  ta_copy_elems()): @ctx, the index of its first element, the
 *	  elements, their number; returns 0 or an errno that stops the copy
 * @ctx: @take's first argument
 *
 * Return: 0, an error of ta_copy_elems() but -ENOMEM, or @take's.
 */
static int ta_copy_elems_each(u64 uptr, u32 n, u32 usize, size_t ksize,
			      size_t min_size, void *bounce, u32 per_chunk,
			      int (*take)(void *ctx, u32 first,
					  const void *elems, u32 n),
			      void *ctx)
{
	const u8 __user *src = u64_to_user_ptr(uptr);
	size_t since_yield = 0;
	u32 i, chunk;
	int err;

	err = ta_copy_size_check(usize, min_size);
	if (err)
		return err;
	for (i = 0; i < n; i += chunk) {
		chunk = min(n - i, per_chunk);
		err = ta_copy_elems_in(bounce, src + (size_t)i * usize, chunk,
				       usize, ksize);
		if (!err)
			err = take(ctx, i, bounce, chunk);
		if (err)
			return err;
		since_yield += (size_t)chunk * usize;
		if (since_yield >= TA_COPY_YIELD_BYTES) {
			since_yield = 0;
			err = ta_copy_yield();
			if (err)
				return err;
		}
	}
	return 0;
}

/* Tensors into the request: each pad zero, its alignment defaulted. */
static int ta_take_tensors(void *ctx, u32 first, const void *elems, u32 n)
{
	struct ta_plan_request *req = ctx;
	struct ta_graph_tensor *out = req->tensors + first;
	const struct ta_tensor *in = elems;
	u32 i;

	for (i = 0; i < n; i++) {
		if (in[i].pad)
			return -EINVAL;
		out[i].size = in[i].size;
		out[i].align = in[i].align ?: req->default_align;
		out[i].flags = in[i].flags;
	}
	return 0;
}

/* Ops into the request: no unknown flag. */
static int ta_take_ops(void *ctx, u32 first, const void *elems, u32 n)
{
	struct ta_plan_request *req = ctx;
	struct ta_graph_op *out = req->ops + first;
	const struct ta_op *in = elems;
	u32 i;

	for (i = 0; i < n; i++) {
		if (in[i].flags & ~TA_OP_FLAGS_ALL)
			return -EINVAL;
		out[i].first_ref = in[i].first_ref;
		out[i].n_inputs = in[i].n_inputs;
		out[i].n_outputs = in[i].n_outputs;
		out[i].flags = in[i].flags;
	}
	return 0;
}

/* Lifetimes into the request's buffers, alignment defaulted. */
static int ta_take_lifetimes(void *ctx, u32 first, const void *elems, u32 n)
{
	struct ta_plan_request *req = ctx;
	struct ta_buffer *out = req->buffers + first;
	const struct ta_lifetime *in = elems;
	u32 i;

	for (i = 0; i < n; i++) {
		out[i].size = in[i].size;
		out[i].align = in[i].align ?: req->default_align;
		out[i].start = in[i].start;
		out[i].end = in[i].end;
	}
	return 0;
}

/**
 * ta_copy_graph() - copy a graph-form request's arrays in
 * @args: the caller's pointers and element sizes
 * @req: the checked request (counts, default alignment) to fill
 *
 * Return: 0, or an error of ta_copy_elems(); -EINVAL for a non-zero pad or
 * unknown op flags. On error, ta_request_free() frees what was copied.
 */
int ta_copy_graph(const struct ta_plan_create *args,
		  struct ta_plan_request *req)
{
	union ta_copy_bounce bounce;
	int err;

	req->tensors = kvcalloc(max_t(u32, req->n_tensors, 1),
				sizeof(*req->tensors), TA_GFP_USER);
	req->ops = kvcalloc(max_t(u32, req->n_ops, 1), sizeof(*req->ops),
			    TA_GFP_USER);
	if (!req->tensors || !req->ops)
		return -ENOMEM;
	err = ta_copy_elems_each(args->tensors, req->n_tensors,
				 args->tensor_size, sizeof(bounce.tensors[0]),
				 offsetofend(struct ta_tensor, pad),
				 bounce.tensors, ARRAY_SIZE(bounce.tensors),
				 ta_take_tensors, req);
	if (err)
		return err;
	err = ta_copy_elems_each(args->ops, req->n_ops, args->op_size,
				 sizeof(bounce.ops[0]),
				 offsetofend(struct ta_op, flags), bounce.ops,
				 ARRAY_SIZE(bounce.ops), ta_take_ops, req);
	if (err)
		return err;
	req->refs = ta_copy_elems(args->refs, req->n_refs, sizeof(u32),
				  sizeof(u32), sizeof(u32));
	if (IS_ERR(req->refs)) {
		err = PTR_ERR(req->refs);
		req->refs = NULL;
		return err;
	}
	return 0;
}

/**
 * ta_copy_lifetimes() - copy a lifetime-form request's buffers in
 * @args: the caller's pointer and element size
 * @req: the checked request to fill
 *
 * Return: 0, or an error of ta_copy_elems(). On error, ta_request_free()
 * frees what was copied.
 */
int ta_copy_lifetimes(const struct ta_plan_create *args,
		      struct ta_plan_request *req)
{
	union ta_copy_bounce bounce;

	req->buffers = kvcalloc(max_t(u32, req->n_tensors, 1),
				sizeof(*req->buffers), TA_GFP_USER);
	if (!req->buffers)
		return -ENOMEM;
	return ta_copy_elems_each(args->tensors, req->n_tensors,
				  args->tensor_size,
				  sizeof(bounce.lifetimes[0]),
				  offsetofend(struct ta_lifetime, end),
				  bounce.lifetimes, ARRAY_SIZE(bounce.lifetimes),
				  ta_take_lifetimes, req);
}

/* TA_STRATEGY_FIXED: the caller's offsets, one __u64 per tensor. */
static int ta_copy_fixed(const struct ta_plan_create *args,
			 struct ta_plan_request *req)
{
	u64 *fixed = ta_copy_elems(args->offsets, req->n_tensors, sizeof(u64),
				   sizeof(u64), sizeof(u64));

	if (IS_ERR(fixed))
		return PTR_ERR(fixed);
	req->fixed = fixed;
	return 0;
}

/*
 * TA_CREATE_TIERED: the capacity, and the caller's weights and pins, one
 * &struct ta_tensor_tier per tensor (each pin a known tier, its pad zero).
 */
static int ta_copy_tiers(const struct ta_plan_create *args,
			 struct ta_plan_request *req)
{
	struct ta_tensor_tier *tiers;
	u32 i, n = max_t(u32, req->n_tensors, 1);
	int err = 0;

	req->fast_capacity = args->fast_capacity;
	if (!args->tiers)
		return 0;
	tiers = ta_copy_elems(args->tiers, req->n_tensors, args->tier_size,
			      sizeof(*tiers), offsetofend(struct ta_tensor_tier,
							  pad));
	if (IS_ERR(tiers))
		return PTR_ERR(tiers);
	req->tier_weights = kvcalloc(n, sizeof(*req->tier_weights),
				     TA_GFP_USER);
	req->tier_pins = kvcalloc(n, sizeof(*req->tier_pins), TA_GFP_USER);
	if (!req->tier_weights || !req->tier_pins) {
		err = -ENOMEM;
		goto free_tiers;
	}
	for (i = 0; i < req->n_tensors; i++) {
		if (tiers[i].pad || tiers[i].pin > TA_TIER_SLOW) {
			err = -EINVAL;
			goto free_tiers;
		}
		req->tier_weights[i] = tiers[i].weight;
		req->tier_pins[i] = tiers[i].pin;
	}
free_tiers:
	kvfree(tiers);
	return err;
}

/* The tier fields of a create: only with TA_CREATE_TIERED, and whole. */
static bool ta_tier_args_valid(const struct ta_plan_create *args)
{
	if (args->tier_reserved)
		return false;
	if (!(args->flags & TA_CREATE_TIERED))
		return !args->fast_capacity && !args->tiers && !args->tier_size;
	return !args->tiers == !args->tier_size;
}

static int ta_ioctl_plan_create(struct ta_device *ta,
				const struct ta_owner *caller, void *arg)
{
	struct ta_plan_create *args = arg;
	struct ta_plan_request req = {
		.flags = args->flags,
		.strategy = args->strategy,
		.default_align = args->default_align,
		.n_tensors = args->n_tensors,
		.n_ops = args->n_ops,
		.n_refs = args->n_refs,
		.fixed_height = args->fixed_height,
	};
	struct ta_plan_summary sum;
	bool is_fixed;
	int err;

	if (args->pad || ta_reserved_nonzero(args) ||
	    !ta_tier_args_valid(args))
		return -EINVAL;
	/* offsets with the fixed strategy, and only with it */
	is_fixed = args->strategy == TA_STRATEGY_FIXED;
	if (is_fixed != !!args->offsets ||
	    (args->fixed_height && !args->offsets))
		return -EINVAL;
	err = ta_request_check(&req, args->budget_ns, args->budget_steps,
			       READ_ONCE(ta_max_plan_ms));
	if (err)
		return err;
	/* One of the uid's create slots, before anything is copied. */
	err = ta_create_begin(ta, caller->uid);
	if (err)
		return err;
	if (req.flags & TA_CREATE_LIFETIMES)
		err = ta_copy_lifetimes(args, &req);
	else
		err = ta_copy_graph(args, &req);
	if (!err && args->offsets)
		err = ta_copy_fixed(args, &req);
	if (!err && (req.flags & TA_CREATE_TIERED))
		err = ta_copy_tiers(args, &req);
	sum.tier_fail.kind = TA_TIER_FAIL_NONE;
	if (!err)
		err = ta_plan_obj_create(ta, caller, &req, &sum);
	ta_request_free(&req);
	ta_create_end(ta, caller->uid);
	if (err && sum.tier_fail.kind != TA_TIER_FAIL_NONE) {
		/* Which pin cannot be met: the only fields written. */
		args->tier_fail_tensor = sum.tier_fail.tensor;
		args->tier_fail_kind = sum.tier_fail.kind;
		args->tier_fail_shortfall = sum.tier_fail.shortfall;
		args->tier_fail_step = sum.tier_fail.step;
	}
	if (err)
		return err;

	args->plan_id = sum.plan_id;
	args->height = sum.height;
	args->lower_bound = sum.lower_bound;
	args->plan_time_ns = sum.plan_time_ns;
	args->mmap_offset = sum.mmap_offset;
	args->optimal = sum.optimal;
	args->n_fast = sum.n_fast;
	args->fast_height = sum.fast_height;
	args->fast_mmap_offset = sum.fast_mmap_offset;
	args->weight_total = sum.weight_total;
	args->weight_fast = sum.weight_fast;
	args->weight_bound = sum.weight_bound;
	args->tier_fail_tensor = 0;
	args->tier_fail_kind = TA_TIER_FAIL_NONE;
	args->tier_fail_shortfall = 0;
	args->tier_fail_step = 0;
	return 0;
}

/* A create that failed on its pins tells which (ta_ioctl_plan_create()). */
static bool ta_ioctl_plan_create_failed_out(int err, const void *arg)
{
	const struct ta_plan_create *args = arg;

	return (err == -ENOSPC || err == -EINVAL) &&
	       args->tier_fail_kind != TA_TIER_FAIL_NONE;
}

/* The created plan's ID could not reach userspace: take the plan back. */
static void ta_ioctl_plan_create_undo(struct ta_device *ta,
				      const struct ta_owner *caller, void *arg)
{
	struct ta_plan_create *args = arg;

	if (args->plan_id)
		ta_plan_obj_destroy(ta, args->plan_id, caller);
}

static int ta_put_placements(const struct ta_plan_obj *plan,
			     struct ta_plan_get *args)
{
	u8 __user *dst = u64_to_user_ptr(args->placements);
	size_t usize = args->placement_size;
	size_t ksize = min(usize, sizeof(struct ta_placement));
	u32 i, n = min(args->n_placements, plan->n_tensors);

	/* Before tiers an element was offset and size: 16 bytes. */
	if (usize < TA_PLACEMENT_SIZE_V1)
		return -EINVAL;
	if (usize > TA_MAX_ELEM_SIZE)
		return -E2BIG;
	for (i = 0; i < n; i++, dst += usize) {
		if (copy_to_user(dst, &plan->placements[i], ksize))
			return -EFAULT;
		if (usize > ksize && clear_user(dst + ksize, usize - ksize))
			return -EFAULT;
		if (!(i & 1023))
			cond_resched();
	}
	return 0;
}

static int ta_ioctl_plan_get(struct ta_device *ta,
			     const struct ta_owner *caller, void *arg)
{
	struct ta_plan_get *args = arg;
	struct ta_plan_obj *plan;
	int err = 0;

	if ((args->flags & ~TA_GET_NEXT) || ta_reserved_nonzero(args))
		return -EINVAL;
	if (args->flags & TA_GET_NEXT) {
		plan = ta_plan_obj_next(ta, args->plan_id, caller);
		if (!plan)
			return -ENOENT;
	} else {
		plan = ta_plan_obj_lookup(ta, args->plan_id, caller);
		if (IS_ERR(plan))
			return PTR_ERR(plan);
	}
	if (args->placements)
		err = ta_put_placements(plan, args);
	if (!err) {
		args->plan_id = plan->id;
		args->n_placements = plan->n_tensors;
		args->height = plan->height;
		args->lower_bound = plan->lower_bound;
		args->plan_time_ns = plan->time_ns;
		args->mmap_offset = (u64)plan->id << PAGE_SHIFT;
		args->strategy = plan->strategy;
		args->optimal = plan->optimal;
		args->fast_height = plan->fast_height;
		args->fast_mmap_offset = ta_plan_obj_fast_mmap_offset(plan);
		args->weight_total = plan->weight_total;
		args->weight_fast = plan->weight_fast;
		args->weight_bound = plan->weight_bound;
		args->n_fast = plan->n_fast;
		args->fast_capacity_pad = 0;
		args->fast_capacity = plan->fast_capacity;
	}
	ta_plan_obj_put(plan);
	return err;
}

static int ta_ioctl_plan_destroy(struct ta_device *ta,
				 const struct ta_owner *caller, void *arg)
{
	struct ta_plan_destroy *args = arg;

	if (args->flags || ta_reserved_nonzero(args))
		return -EINVAL;
	return ta_plan_obj_destroy(ta, args->plan_id, caller);
}

/*
 * A descriptor for a new buffer: reserved here, installed by the commit
 * once its number reached userspace (as PLAN_EXPORT).
 */
static int ta_ioctl_reserve_fd(struct dma_buf *dmabuf, u32 flags, s32 *fd)
{
	int nr = get_unused_fd_flags(O_RDWR | (flags & TA_EXPORT_CLOEXEC ?
					       O_CLOEXEC : 0));

	if (nr < 0) {
		dma_buf_put(dmabuf);
		return nr;
	}
	*fd = nr;
	return 0;
}

static int ta_ioctl_plan_export(struct ta_device *ta,
				const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_export *exp = arg;
	struct ta_plan_export *args = &exp->args;
	struct dma_buf *dmabuf;
	int err;

	if ((args->flags & ~(TA_EXPORT_CLOEXEC | TA_EXPORT_FAST)) ||
	    args->pad || ta_reserved_nonzero(args))
		return -EINVAL;
	dmabuf = ta_dmabuf_create_by_id(ta, caller, args->plan_id,
					args->flags & TA_EXPORT_FAST);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);
	err = ta_ioctl_reserve_fd(dmabuf, args->flags, &args->fd);
	if (err)
		return err;
	exp->dmabuf = dmabuf;
	return 0;
}

/* The number reached userspace: the descriptor takes the buffer. */
static void ta_ioctl_plan_export_commit(struct ta_device *ta,
					const struct ta_owner *caller,
					void *arg)
{
	struct ta_ioctl_export *exp = arg;

	fd_install(exp->args.fd, exp->dmabuf->file);
}

/* It did not: nothing was installed; give the number and buffer back. */
static void ta_ioctl_plan_export_undo(struct ta_device *ta,
				      const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_export *exp = arg;

	put_unused_fd(exp->args.fd);
	dma_buf_put(exp->dmabuf);
}

static int ta_ioctl_tensor_export(struct ta_device *ta,
				  const struct ta_owner *caller, void *arg)
{
	struct ta_ioctl_tensor_export *exp = arg;
	struct ta_tensor_export *args = &exp->args;
	struct dma_buf *dmabuf;
	u64 offset, size;
	u32 tier;
	int err;

	if ((args->flags & ~TA_EXPORT_CLOEXEC) || ta_reserved_nonzero(args))
		return -EINVAL;
	dmabuf = ta_dmabuf_create_tensor_by_id(ta, caller, args->plan_id,
					       args->tensor, &offset, &size,
					       &tier);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);
	err = ta_ioctl_reserve_fd(dmabuf, args->flags, &args->fd);
	if (err)
		return err;
	args->offset = offset;
	args->size = size;
	args->tier = tier;
	args->pad = 0;
	exp->dmabuf = dmabuf;
	return 0;
}

static void ta_ioctl_tensor_export_commit(struct ta_device *ta,
					  const struct ta_owner *caller,
					  void *arg)
{
	struct ta_ioctl_tensor_export *exp = arg;

	fd_install(exp->args.fd, exp->dmabuf->file);
}

static void ta_ioctl_tensor_export_undo(struct ta_device *ta,
					const struct ta_owner *caller,
					void *arg)
{
	struct ta_ioctl_tensor_export *exp = arg;

	put_unused_fd(exp->args.fd);
	dma_buf_put(exp->dmabuf);
}

static const struct ta_ioctl_desc ta_ioctls[] = {
	{
		.cmd = TA_IOCTL_INFO,
		.min_size = offsetofend(struct ta_info, reserved),
		.handler = ta_ioctl_info,
	},
	{
		.cmd = TA_IOCTL_PLAN_CREATE,
		.min_size = offsetofend(struct ta_plan_create, reserved),
		.needs_write = true,
		.handler = ta_ioctl_plan_create,
		.undo = ta_ioctl_plan_create_undo,
		.failed_out = ta_ioctl_plan_create_failed_out,
	},
	{
		.cmd = TA_IOCTL_PLAN_GET,
		.min_size = offsetofend(struct ta_plan_get, reserved),
		.handler = ta_ioctl_plan_get,
	},
	{
		.cmd = TA_IOCTL_PLAN_DESTROY,
		.min_size = offsetofend(struct ta_plan_destroy, reserved),
		.needs_write = true,
		.handler = ta_ioctl_plan_destroy,
	},
	{
		.cmd = TA_IOCTL_PLAN_EXPORT,
		.min_size = offsetofend(struct ta_plan_export, reserved),
		.needs_write = true,
		.handler = ta_ioctl_plan_export,
		.commit = ta_ioctl_plan_export_commit,
		.undo = ta_ioctl_plan_export_undo,
	},
	{
		.cmd = TA_IOCTL_TENSOR_EXPORT,
		.min_size = offsetofend(struct ta_tensor_export, reserved),
		.needs_write = true,
		.handler = ta_ioctl_tensor_export,
		.commit = ta_ioctl_tensor_export_commit,
		.undo = ta_ioctl_tensor_export_undo,
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

	for (i = 0; i < ARRAY_SIZE(ta_ioctls) + TA_IOCTL_GROUP_DESCS; i++) {
		const struct ta_ioctl_desc *desc = i < ARRAY_SIZE(ta_ioctls) ?
			&ta_ioctls[i] :
			&ta_ioctl_group_descs[i - ARRAY_SIZE(ta_ioctls)];

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
 * @file: the open file; its private_data is the &struct ta_file
 * @cmd: ioctl number
 * @arg: user pointer to the argument
 *
 * Return: 0 or a negative errno: -ENOTTY for a number that is not ours,
 * -EINVAL for a struct shorter than the first ABI version's, -EFAULT for
 * an unreadable or unwritable argument, -E2BIG for unknown non-zero trailing
 * bytes, -EBADF for a call that changes plans on a file not open for
 * writing, or the handler's error (with the argument copied back for an
 * entry's -ENOSPC when &ta_ioctl_desc.copy_on_enospc says so).
 */
long ta_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ta_file *tf = file->private_data;
	struct ta_device *ta = tf->ta;
	struct ta_owner caller = ta_owner_of_file(file);
	void __user *uarg = (void __user *)arg;
	const struct ta_ioctl_desc *desc;
	size_t usize = _IOC_SIZE(cmd);
	union ta_ioctl_arg karg;
	size_t ksize;
	int err;

	desc = ta_ioctl_lookup(cmd);
	if (IS_ERR(desc))
		return PTR_ERR(desc);
	if (desc->needs_write && !(file->f_mode & FMODE_WRITE))
		return -EBADF;

	ksize = _IOC_SIZE(desc->cmd);
	BUILD_BUG_ON(sizeof(karg) > 1024);
	err = copy_struct_from_user(&karg, ksize, uarg, usize);
	if (err)
		return err;
	err = desc->handler(ta, &caller, &karg);
	/* A count the caller needs to retry with, as the entry says. */
	if (err && ((err == -ENOSPC && desc->copy_on_enospc) ||
		    (desc->failed_out && desc->failed_out(err, &karg))) &&
	    copy_to_user(uarg, &karg, min(usize, ksize)))
		return -EFAULT;
	if (err)
		return err;
	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, &karg, min(usize, ksize))) {
		if (desc->undo)
			desc->undo(ta, &caller, &karg);
		return -EFAULT;
	}
	if (desc->commit)
		desc->commit(ta, &caller, &karg);
	return 0;
}
