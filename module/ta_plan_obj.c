// SPDX-License-Identifier: GPL-2.0
/*
 * ta_plan_obj.c - plans as kernel objects: the one core API both transports
 * (ioctl, netlink) call.
 *
 * A plan is created from a validated request: the planner core gives each
 * tensor an offset, the arena's genalloc pool gives the plan a slice of the
 * plan's height (zeroed before anyone sees it), and the plan is published in
 * the device's xarray under a small integer ID. IDs are never pointers.
 *
 * Lifetime: the table holds one reference; every lookup, mapping or kernel
 * user holds another (kref). Destroying a plan (by request, or when its
 * owner's file or socket goes away) removes it from the table and drops the
 * table's reference; the slice returns to the pool only when the last
 * reference goes, so memory is never freed under a mapping.
 *
 * Locking: the xarray's own lock serialises the table; a lookup takes its
 * reference under that lock, and a plan is erased under it before the
 * table's reference is dropped, so a lookup never meets a dying plan. A
 * plan's fields are written once before it is published and only read
 * afterwards.
 */
#include <linux/cred.h>
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/genalloc.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/xarray.h>

#include "include/ta_compat.h"
#include "ta_internal.h"
#include "planner/ta_planner.h"
#include "include/tensorarena_kapi.h"

#define TA_PLAN_NOTIFY_DESTROYED	TA_KAPI_PLAN_DESTROYED

static bool ta_owner_may_access(const struct ta_plan_obj *plan,
				const struct ta_owner *caller)
{
	return uid_eq(plan->uid, caller->uid) || caller->admin;
}

/*
 * Per-uid accounting (max_user_plans, max_user_bytes, max_user_creates). A
 * create holds one of its uid's create slots from before the transport
 * copies the request until it returns (ta_create_begin(), ta_create_end());
 * it reserves one plan of its uid before it plans, and the slice's bytes
 * before it allocates them; the plan gives both back when it is freed (so
 * a plan destroyed but still mapped still counts: it still holds its
 * memory).
 */

/* Under users_lock: @uid's account, added (from @fresh) if it has none. */
static struct ta_user *ta_user_find_locked(struct ta_device *ta, kuid_t uid,
					   struct ta_user **fresh)
{
	unsigned long index = __kuid_val(uid);
	struct ta_user *user = xa_load(&ta->users, index);

	if (user || !*fresh)
		return user;
	(*fresh)->uid = uid;
	if (xa_err(xa_store(&ta->users, index, *fresh, GFP_KERNEL_ACCOUNT)))
		return NULL;
	user = *fresh;
	*fresh = NULL;
	return user;
}

/* Under users_lock: free @user's account when it holds nothing. */
static void ta_user_put_locked(struct ta_device *ta, struct ta_user *user)
{
	if (user->n_plans || user->bytes || user->fast_bytes || user->n_creating)
		return;
	xa_erase(&ta->users, __kuid_val(user->uid));
	kfree(user);
}

/*
 * One more create running (@creating: the limit max_user_creates, EBUSY)
 * or plan reserved (the limit max_user_plans, EDQUOT) for @uid.
 */
static struct ta_user *ta_user_take(struct ta_device *ta, kuid_t uid,
				    bool creating)
{
	struct ta_user *user, *fresh = NULL;
	unsigned int *count;
	int err = -ENOMEM;

	mutex_lock(&ta->users_lock);
	user = ta_user_find_locked(ta, uid, &fresh);
	if (!user) {
		/* A new account: allocated unlocked, looked up again. */
		mutex_unlock(&ta->users_lock);
		fresh = kzalloc_obj(*fresh, GFP_KERNEL_ACCOUNT);
		mutex_lock(&ta->users_lock);
		user = ta_user_find_locked(ta, uid, &fresh);
	}
	if (!user)
		goto unlock;
	count = creating ? &user->n_creating : &user->n_plans;
	err = creating ? -EBUSY : -EDQUOT;
	if (*count >= (creating ? READ_ONCE(ta_max_user_creates) :
				  READ_ONCE(ta_max_user_plans)))
		goto unlock;
	(*count)++;
	err = 0;
unlock:
	mutex_unlock(&ta->users_lock);
	kfree(fresh);
	return err ? ERR_PTR(err) : user;
}

/**
 * ta_create_begin() - take one of the caller's uid's create slots
 * @ta: the device
 * @uid: the uid the plan will belong to
 *
 * Transports call it after ta_request_check() and before they copy the
 * request's arrays, and ta_create_end() when the create is over: what one
 * uid's creates hold at once (copies, planner scratch, search memory) is
 * bounded by max_user_creates of them.
 *
 * Return: 0; -EBUSY when max_user_creates creates of @uid are running;
 * -ENOMEM.
 */
int ta_create_begin(struct ta_device *ta, kuid_t uid)
{
	return PTR_ERR_OR_ZERO(ta_user_take(ta, uid, true));
}

/**
 * ta_create_end() - give back the create slot ta_create_begin() took
 * @ta: the device
 * @uid: the same uid
 */
void ta_create_end(struct ta_device *ta, kuid_t uid)
{
	struct ta_user *user;

	mutex_lock(&ta->users_lock);
	user = xa_load(&ta->users, __kuid_val(uid));
	if (!WARN_ON_ONCE(!user || !user->n_creating)) {
		user->n_creating--;
		ta_user_put_locked(ta, user);
	}
	mutex_unlock(&ta->users_lock);
}

/**
 * ta_user_reserve() - reserve one plan of @uid (max_user_plans)
 * @ta: the device
 * @uid: the uid
 *
 * Return: the uid's account; ERR_PTR(-EDQUOT) at the limit, or -ENOMEM.
 */
struct ta_user *ta_user_reserve(struct ta_device *ta, kuid_t uid)
{
	return ta_user_take(ta, uid, false);
}

/*
 * Add @bytes to an account's counter @held (&ta_user.bytes or
 * &ta_user.fast_bytes) unless that takes it above @limit (0: none).
 */
static int ta_user_charge(struct ta_device *ta, u64 *held, u64 limit,
			  u64 bytes)
{
	int err = 0;

	mutex_lock(&ta->users_lock);
	if (limit && (bytes > limit || *held > limit - bytes))
		err = -EDQUOT;
	else
		*held += bytes;
	mutex_unlock(&ta->users_lock);
	return err;
}

/**
 * ta_user_charge_bytes() - charge @bytes of arena to an account
 * @ta: the device
 * @user: the account
 * @bytes: the bytes
 *
 * Return: 0, or -EDQUOT above max_user_bytes.
 */
int ta_user_charge_bytes(struct ta_device *ta, struct ta_user *user, u64 bytes)
{
	return ta_user_charge(ta, &user->bytes, READ_ONCE(ta_max_user_bytes),
			      bytes);
}

/* Charge @bytes of the fast tier: 0, or -EDQUOT above max_user_fast_bytes. */
static int ta_user_charge_fast(struct ta_device *ta, struct ta_user *user,
			       u64 bytes)
{
	return ta_user_charge(ta, &user->fast_bytes,
			      READ_ONCE(ta_max_user_fast_bytes), bytes);
}

/* Give back @bytes ta_user_charge_fast() charged; the account holds a plan. */
static void ta_user_uncharge_fast(struct ta_device *ta, struct ta_user *user,
				  u64 bytes)
{
	mutex_lock(&ta->users_lock);
	user->fast_bytes -= bytes;
	mutex_unlock(&ta->users_lock);
}

/**
 * ta_user_uncharge_bytes() - give back @bytes ta_user_charge_bytes() charged
 * @ta: the device
 * @user: the account, which still holds a plan
 * @bytes: the bytes
 */
void ta_user_uncharge_bytes(struct ta_device *ta, struct ta_user *user,
			    u64 bytes)
{
	mutex_lock(&ta->users_lock);
	user->bytes -= bytes;
	mutex_unlock(&ta->users_lock);
}

/**
 * ta_user_release() - give back one plan of @bytes
 * @ta: the device
 * @user: the account; freed when it holds nothing
 * @bytes: the bytes charged with the plan
 */
void ta_user_release(struct ta_device *ta, struct ta_user *user, u64 bytes)
{
	mutex_lock(&ta->users_lock);
	user->bytes -= bytes;
	user->n_plans--;
	ta_user_put_locked(ta, user);
	mutex_unlock(&ta->users_lock);
}

/* Reserve a place among the plans of the caller's file or socket. */
static int ta_owner_reserve(struct ta_device *ta, const struct ta_owner *owner)
{
	int err = 0;

	if (!owner->n_plans)
		return 0;
	xa_lock(&ta->plans);
	if (*owner->n_plans >= READ_ONCE(ta_max_file_plans))
		err = -EDQUOT;
	else
		(*owner->n_plans)++;
	xa_unlock(&ta->plans);
	return err;
}

static void ta_owner_unreserve(struct ta_device *ta,
			       const struct ta_owner *owner)
{
	if (!owner->n_plans)
		return;
	xa_lock(&ta->plans);
	(*owner->n_plans)--;
	xa_unlock(&ta->plans);
}

/**
 * ta_plan_obj_erased() - count a plan out of its owner's plans
 * @plan: the plan, just erased from the table under the table's lock
 */
void ta_plan_obj_erased(struct ta_plan_obj *plan)
{
	if (plan->owner_plans)
		(*plan->owner_plans)--;
}

/**
 * ta_plan_obj_notify() - announce an event on &ta_device.events
 * @ta: the device
 * @type: the event
 * @plan: its plan, or NULL
 * @requested: see %TA_EVENT_PRESSURE
 */
void ta_plan_obj_notify(struct ta_device *ta, enum ta_event_type type,
			const struct ta_plan_obj *plan, u64 requested)
{
	struct ta_event event = {
		.ta = ta,
		.plan = plan,
		.requested = requested,
	};

	blocking_notifier_call_chain(&ta->events, type, &event);
}

static void ta_plan_obj_release(struct kref *ref)
{
	struct ta_plan_obj *plan = container_of(ref, struct ta_plan_obj, ref);

	if (plan->group_plan) {
		/* A member: the group's plan holds the slice and its charge. */
		ta_group_obj_forget(plan);
		ta_user_release(plan->ta, plan->user, 0);
		kvfree(plan->exportable);
		dma_resv_fini(&plan->fast_resv);
		dma_resv_fini(&plan->own_resv);
		ta_plan_obj_put(plan->group_plan);
		kvfree(plan);
		return;
	}
	if (plan->group)
		ta_group_obj_free(plan->group);
	if (plan->slice_size)
		gen_pool_free(plan->ta->pool, plan->slice_vaddr,
			      plan->slice_size);
	if (plan->fast_slice_size) {
		ta_fast_free(plan->ta, plan->fast_slice_vaddr,
			     plan->fast_slice_size);
		ta_user_uncharge_fast(plan->ta, plan->user,
				      plan->fast_slice_size);
	}
	ta_dmem_uncharge(plan->dmem_pool, plan->slice_size);
	ta_user_release(plan->ta, plan->user, plan->slice_size);
	kvfree(plan->exportable);
	dma_resv_fini(&plan->fast_resv);
	dma_resv_fini(&plan->own_resv);
	kvfree(plan);
}

/**
 * ta_plan_obj_put() - drop a reference to a plan
 * @plan: the plan; its memory goes back to the arena with the last reference
 */
void ta_plan_obj_put(struct ta_plan_obj *plan)
{
	kref_put(&plan->ref, ta_plan_obj_release);
}

/**
 * ta_plan_obj_get() - take another reference to a plan already held
 * @plan: the plan
 */
void ta_plan_obj_get(struct ta_plan_obj *plan)
{
	kref_get(&plan->ref);
}

/**
 * ta_plan_obj_fast_mmap_offset() - the mmap offset of a plan's fast slice
 * @plan: a published plan
 *
 * Return: %TA_FAST_MMAP_BASE + the plan's ID << PAGE_SHIFT, or 0 when the
 * plan has no fast slice or the fast tier cannot be mapped.
 */
u64 ta_plan_obj_fast_mmap_offset(const struct ta_plan_obj *plan)
{
	if (!plan->fast_slice_size || !plan->id ||
	    !(plan->ta->fast.flags & TA_FAST_MAPPABLE))
		return 0;
	return TA_FAST_MMAP_BASE + ((u64)plan->id << PAGE_SHIFT);
}

/**
 * ta_request_check() - check a request's shape against the module's limits
 * @req: the request; flags, strategy and counts are set, arrays not yet
 * @budget_ns: the caller's time budget, 0 for the default
 * @budget_steps: the caller's step budget, 0 for none
 * @limit_ms: the transport's hard limit on planning time (max_plan_ms, or
 *	      less for netlink); a search budget above it is cut to it
 *
 * Transports call this before they copy any array in, so a request beyond
 * the limits costs the kernel nothing. Sets @req->budget.
 *
 * Return: 0; -EINVAL for unknown flags or strategy, a tiered request with
 * %TA_STRATEGY_FIXED, a lifetime-form request with ops or references, a
 * budget above max_budget_ms, or a default alignment (@req->default_align,
 * made 1 when 0) that is not a power of two up to 2^32; -E2BIG for counts
 * above max_tensors, max_ops or max_refs.
 */
int ta_request_check(struct ta_plan_request *req, u64 budget_ns,
		     u64 budget_steps, unsigned int limit_ms)
{
	u64 limit_ns = (u64)min(limit_ms, READ_ONCE(ta_max_plan_ms)) *
		       NSEC_PER_MSEC;

	if (req->flags & ~TA_CREATE_FLAGS_ALL)
		return -EINVAL;
	if (req->strategy >= TA_STRATEGY_COUNT &&
	    req->strategy != TA_STRATEGY_FIXED)
		return -EINVAL;
	/* Fixed offsets are of one tier; a tiered plan chooses the tiers. */
	if ((req->flags & TA_CREATE_TIERED) &&
	    req->strategy == TA_STRATEGY_FIXED)
		return -EINVAL;
	if ((req->flags & TA_CREATE_LIFETIMES) && (req->n_ops || req->n_refs))
		return -EINVAL;
	if (req->n_tensors > READ_ONCE(ta_max_tensors) ||
	    req->n_ops > READ_ONCE(ta_max_ops) ||
	    req->n_refs > READ_ONCE(ta_max_refs))
		return -E2BIG;
	if (budget_ns > (u64)READ_ONCE(ta_max_budget_ms) * NSEC_PER_MSEC)
		return -EINVAL;
	if (!req->default_align)
		req->default_align = 1;
	if (!is_power_of_2(req->default_align) ||
	    req->default_align > TA_PLAN_MAX_ALIGN)
		return -EINVAL;
	req->budget.time_ns = budget_ns ? budget_ns :
		(u64)READ_ONCE(ta_default_budget_ms) * NSEC_PER_MSEC;
	req->budget.time_ns = min(req->budget.time_ns, limit_ns);
	req->budget.limit_ns = limit_ns;
	req->budget.steps = budget_steps;
	return 0;
}

/**
 * ta_request_free() - free the arrays a transport copied into a request
 * @req: the request
 */
void ta_request_free(struct ta_plan_request *req)
{
	kvfree(req->fixed);
	req->fixed = NULL;
	kvfree(req->tensors);
	kvfree(req->ops);
	kvfree(req->refs);
	kvfree(req->buffers);
	kvfree(req->tier_weights);
	kvfree(req->tier_pins);
	req->tier_weights = NULL;
	req->tier_pins = NULL;
	req->tensors = NULL;
	req->ops = NULL;
	req->refs = NULL;
	req->buffers = NULL;
}

/**
 * ta_request_problem() - the planner's problem of a checked request
 * @req: the request
 * @graph: room for its graph (graph form)
 * @problem: out; &ta_problem.fixed untouched
 * @derived: out, the lifetimes derived from the graph (kvfree() them), or
 *	     NULL for the lifetime form
 *
 * Return: 0; -EINVAL for unknown tensor flags or a malformed graph;
 * -ENOMEM.
 */
int ta_request_problem(const struct ta_plan_request *req,
		       struct ta_graph *graph, struct ta_problem *problem,
		       struct ta_buffer **derived)
{
	u32 i;
	int err;

	*derived = NULL;
	problem->n_buffers = req->n_tensors;
	problem->graph = NULL;
	if (req->flags & TA_CREATE_LIFETIMES) {
		problem->buffers = req->buffers;
		return 0;
	}
	for (i = 0; i < req->n_tensors; i++)
		if (req->tensors[i].flags & ~TA_TENSOR_FLAGS_ALL)
			return -EINVAL;
	graph->n_tensors = req->n_tensors;
	graph->n_ops = req->n_ops;
	graph->n_refs = req->n_refs;
	graph->tensors = req->tensors;
	graph->ops = req->ops;
	graph->refs = req->refs;
	*derived = kvcalloc(max_t(u32, req->n_tensors, 1), sizeof(**derived),
			    TA_GFP_USER);
	if (!*derived)
		return -ENOMEM;
	err = ta_graph_lifetimes(graph, *derived);
	if (err) {
		kvfree(*derived);
		*derived = NULL;
		return err;
	}
	problem->buffers = *derived;
	problem->graph = graph;
	return 0;
}

/**
 * ta_plan_obj_mark_exportable() - note a request's exportable tensors
 * @plan: the plan being made
 * @req: its request (graph form: the tensors' %TA_TENSOR_EXPORTABLE)
 *
 * Return: 0, or -ENOMEM.
 */
int ta_plan_obj_mark_exportable(struct ta_plan_obj *plan,
				const struct ta_plan_request *req)
{
	u32 i;

	if (req->flags & TA_CREATE_LIFETIMES)
		return 0;
	for (i = 0; i < req->n_tensors; i++) {
		if (!(req->tensors[i].flags & TA_TENSOR_EXPORTABLE))
			continue;
		if (!plan->exportable) {
			plan->exportable = kvcalloc(BITS_TO_LONGS(req->n_tensors),
						    sizeof(unsigned long),
						    TA_GFP_USER);
			if (!plan->exportable)
				return -ENOMEM;
		}
		__set_bit(i, plan->exportable);
	}
	return 0;
}

/**
 * ta_plan_obj_tensor_exportable() - whether a plan's tensor may be exported
 * @plan: the plan
 * @index: the tensor's index
 *
 * Return: true when @index is a tensor of @plan marked
 * %TA_TENSOR_EXPORTABLE.
 */
bool ta_plan_obj_tensor_exportable(const struct ta_plan_obj *plan, u32 index)
{
	return index < plan->n_tensors && plan->exportable &&
	       test_bit(index, plan->exportable);
}

/**
 * ta_conflict_describe() - say what is wrong with a fixed plan
 * @c: the conflict ta_plan_solve() reported
 * @buf: room for the sentence
 * @len: its size
 *
 * Return: false when @c is %TA_CONFLICT_NONE (nothing written).
 */
bool ta_conflict_describe(const struct ta_conflict *c, char *buf, size_t len)
{
	switch (c->kind) {
	case TA_CONFLICT_OVERLAP:
		snprintf(buf, len,
			 "fixed plan: tensors %u and %u are both live at step %u and share bytes",
			 c->a, c->b, c->step);
		return true;
	case TA_CONFLICT_ALIGN:
		snprintf(buf, len,
			 "fixed plan: tensor %u's offset is not a multiple of its alignment",
			 c->a);
		return true;
	case TA_CONFLICT_HEIGHT:
		snprintf(buf, len,
			 "fixed plan: tensor %u does not end within the height",
			 c->a);
		return true;
	}
	return false;
}

/* One log line per refused fixed plan (rate-limited: callers are users). */
static void ta_conflict_log(struct ta_device *ta, const struct ta_conflict *c)
{
	char msg[TA_CONFLICT_MSG_LEN];

	if (ta_conflict_describe(c, msg, sizeof(msg)))
		dev_info_ratelimited(ta->dev, "%s\n", msg);
}

/**
 * ta_tier_fail_describe() - say which pin cannot be met, and by how much
 * @f: the failure ta_tier_solve() reported
 * @buf: room for the sentence
 * @len: its size
 *
 * Return: false when @f is %TA_TIER_FAIL_NONE (nothing written).
 */
bool ta_tier_fail_describe(const struct ta_tier_fail *f, char *buf,
			   size_t len)
{
	switch (f->kind) {
	case TA_TIER_FAIL_SIZE:
		snprintf(buf, len,
			 "tiers: tensor %u, pinned fast, is %llu bytes larger than fast_capacity",
			 f->tensor, f->shortfall);
		return true;
	case TA_TIER_FAIL_LIVE:
		snprintf(buf, len,
			 "tiers: the tensors pinned fast live at step %u need %llu bytes more than fast_capacity (tensor %u starts last)",
			 f->step, f->shortfall, f->tensor);
		return true;
	case TA_TIER_FAIL_PLAN:
		snprintf(buf, len,
			 "tiers: no plan of the tensors pinned fast fits fast_capacity: the best is %llu bytes too high (tensor %u ends highest)",
			 f->shortfall, f->tensor);
		return true;
	case TA_TIER_FAIL_CLASS:
		snprintf(buf, len,
			 "tiers: tensor %u shares bytes (an in-place chain) with a tensor pinned to the other tier",
			 f->tensor);
		return true;
	}
	return false;
}

/*
 * A tiered request's weights for ta_tier_solve(): the caller's, with the
 * default (ta_tier_weights()) where it gave 0; NULL in @weights when it
 * gave none.
 */
static int ta_tier_request_weights(const struct ta_plan_request *req,
				   const struct ta_problem *problem,
				   u64 **weights)
{
	u64 *w;
	u32 i;
	int err;

	*weights = NULL;
	if (!req->tier_weights)
		return 0;
	w = kvcalloc(max_t(u32, req->n_tensors, 1), sizeof(*w), TA_GFP_USER);
	if (!w)
		return -ENOMEM;
	err = ta_tier_weights(problem, w);
	if (err) {
		kvfree(w);
		return err;
	}
	for (i = 0; i < req->n_tensors; i++)
		if (req->tier_weights[i])
			w[i] = req->tier_weights[i];
	*weights = w;
	return 0;
}

/*
 * Plan a request across both tiers (ta_tier_solve()): @offsets and the
 * placements' tiers, the plan's fast-tier figures, @res the arena's
 * figures. @out->tier_fail says which pin cannot be met.
 */
static int ta_plan_obj_solve_tiered(struct ta_device *ta,
				    const struct ta_plan_request *req,
				    const struct ta_problem *problem,
				    struct ta_budget *budget,
				    struct ta_plan_obj *plan, u64 *offsets,
				    struct ta_result *res,
				    struct ta_plan_summary *out)
{
	struct ta_tier_request rq = {
		.capacity = req->fast_capacity,
		.pins = req->tier_pins,
		.fast_strategy = req->strategy,
		.slow_strategy = req->strategy,
	};
	struct ta_tier_result tres = {};
	char msg[TA_TIER_FAIL_MSG_LEN];
	u64 *weights;
	u8 *tier;
	u32 i;
	int err;

	err = ta_tier_request_weights(req, problem, &weights);
	if (err)
		return err;
	rq.weights = weights;
	tier = kvcalloc(max_t(u32, req->n_tensors, 1), sizeof(*tier),
			TA_GFP_USER);
	if (!tier) {
		err = -ENOMEM;
		goto free_weights;
	}
	err = ta_tier_solve(problem, &rq, budget, tier, offsets, &tres);
	if (err) {
		out->tier_fail = tres.fail;
		if (ta_tier_fail_describe(&tres.fail, msg, sizeof(msg)))
			dev_info_ratelimited(ta->dev, "%s\n", msg);
		goto free_tier;
	}
	for (i = 0; i < req->n_tensors; i++)
		plan->placements[i].tier = tier[i];
	*res = tres.slow;
	res->time_ns = tres.time_ns;
	plan->fast_capacity = req->fast_capacity;
	plan->fast_height = tres.fast.height;
	plan->n_fast = tres.n_fast;
	plan->weight_total = tres.weight_total;
	plan->weight_fast = tres.weight_fast;
	plan->weight_bound = tres.weight_bound;
free_tier:
	kvfree(tier);
free_weights:
	kvfree(weights);
	return err;
}

/*
 * A tiered plan's slice of the fast tier, zeroed and charged to its uid
 * (max_user_fast_bytes); on failure it has none and nothing is charged.
 */
static int ta_plan_obj_fast_slice(struct ta_device *ta,
				  struct ta_plan_obj *plan)
{
	size_t size = PAGE_ALIGN(plan->fast_height);
	int err;

	if (!size)
		return 0;
	err = ta_user_charge_fast(ta, plan->user, size);
	if (err)
		return err;
	err = ta_fast_alloc(ta, size, &plan->fast_slice_vaddr,
			    &plan->fast_slice_dma);
	if (err) {
		ta_user_uncharge_fast(ta, plan->user, size);
		return err;
	}
	plan->fast_slice_size = size;
	/* A new owner never sees what a previous one wrote. */
	memset((void *)plan->fast_slice_vaddr, 0, plan->fast_slice_size);
	return 0;
}

/**
 * ta_plan_obj_create() - plan a request and, unless a dry run, publish it
 * @ta: the device
 * @owner: who asks; the plan belongs to @owner->key
 * @req: the request, its arrays already copied in and checked against the
 *	 limits by the transport
 * @out: the figures of the plan (height, bound, time, optimal; the ID and
 *	 mmap offset unless a dry run)
 *
 * Return: 0; -EINVAL for a malformed graph or unknown strategy or flag;
 * -E2BIG beyond the planner's limits; -EOVERFLOW for a height beyond 63
 * bits; -EDQUOT when the caller's uid or file/socket holds as many plans
 * (max_user_plans, max_file_plans), arena bytes (max_user_bytes) or
 * fast-tier bytes (max_user_fast_bytes) as it may, or the slice would
 * take the caller's dmem cgroup over its dmem.max;
 * -ENOSPC when the arena has no free slice of the plan's height, or the
 * plan table is full; -ENOMEM; -EINTR on a signal while planning;
 * -ETIMEDOUT when planning hit the request's time limit without a plan.
 * %TA_CREATE_TIERED: -ENODEV without a fast tier; -EINVAL for a
 * fast_capacity of 0 or above the fast tier, with the fixed strategy, or
 * for pins that contradict an in-place chain (@out->tier_fail says which);
 * -ENOSPC when the tensors pinned fast do not fit (@out->tier_fail) or the
 * fast tier has no free run as long as the plan's fast slice. Tier fields
 * without %TA_CREATE_TIERED: -EINVAL.
 * On error nothing changed.
 */
int ta_plan_obj_create(struct ta_device *ta, const struct ta_owner *owner,
		       const struct ta_plan_request *req,
		       struct ta_plan_summary *out)
{
	struct ta_budget budget = req->budget;
	struct ta_buffer *derived = NULL;
	struct ta_problem problem = { 0 };
	struct ta_plan_obj *plan = NULL;
	struct ta_result res = {};
	struct ta_user *user;
	struct ta_graph graph;
	u64 *offsets = NULL;
	u64 charged = 0;
	bool is_fixed;
	u32 i;
	int err;

	out->conflict.kind = TA_CONFLICT_NONE;
	out->tier_fail.kind = TA_TIER_FAIL_NONE;
	if (req->flags & ~TA_CREATE_FLAGS_ALL)
		return -EINVAL;
	is_fixed = req->strategy == TA_STRATEGY_FIXED;
	if ((req->strategy >= TA_STRATEGY_COUNT && !is_fixed) ||
	    is_fixed != !!req->fixed)
		return -EINVAL;
	if (req->flags & TA_CREATE_TIERED) {
		/* Refused before anything is reserved or planned. */
		if (!ta->fast.size)
			return -ENODEV;
		if (is_fixed || !req->fast_capacity ||
		    req->fast_capacity > ta->fast.size)
			return -EINVAL;
	} else if (req->fast_capacity || req->tier_weights || req->tier_pins) {
		return -EINVAL;
	}

	/* Refuse over-quota callers before they cost anything. */
	err = ta_owner_reserve(ta, owner);
	if (err)
		return err;
	user = ta_user_reserve(ta, owner->uid);
	if (IS_ERR(user)) {
		err = PTR_ERR(user);
		goto unreserve_owner;
	}

	err = ta_request_problem(req, &graph, &problem, &derived);
	if (err)
		goto unreserve_user;

	plan = kvzalloc(struct_size(plan, placements, req->n_tensors),
			TA_GFP_USER);
	if (!plan) {
		err = -ENOMEM;
		goto free_derived;
	}
	dma_resv_init(&plan->own_resv);
	dma_resv_init(&plan->fast_resv);
	plan->resv = &plan->own_resv;
	offsets = kvcalloc(max_t(u32, req->n_tensors, 1), sizeof(*offsets),
			   TA_GFP_USER);
	if (!offsets) {
		err = -ENOMEM;
		goto free_plan;
	}

	err = ta_plan_obj_mark_exportable(plan, req);
	if (err)
		goto free_plan;
	problem.fixed = req->fixed;
	problem.fixed_height = req->fixed_height;
	for (i = 0; i < req->n_tensors; i++)
		plan->placements[i].tier = TA_TIER_SLOW;
	if (req->flags & TA_CREATE_TIERED) {
		err = ta_plan_obj_solve_tiered(ta, req, &problem, &budget, plan,
					       offsets, &res, out);
		if (err)
			goto free_plan;
	} else {
		err = ta_plan_solve(&problem, req->strategy, &budget,
				    offsets, &res);
		if (err) {
			out->conflict = res.conflict;
			ta_conflict_log(ta, &res.conflict);
			goto free_plan;
		}
	}

	kref_init(&plan->ref);
	BLOCKING_INIT_NOTIFIER_HEAD(&plan->destroyed);
	plan->ta = ta;
	plan->uid = owner->uid;
	plan->owner_key = owner->key;
	plan->owner_plans = owner->n_plans;
	plan->user = user;
	plan->strategy = req->strategy;
	plan->height = res.height;
	plan->lower_bound = res.lower_bound;
	plan->time_ns = res.time_ns;
	plan->optimal = res.optimal;
	plan->n_tensors = req->n_tensors;
	for (i = 0; i < req->n_tensors; i++) {
		plan->placements[i].offset = offsets[i];
		plan->placements[i].size = problem.buffers[i].size;
	}

	out->plan_id = 0;
	out->height = res.height;
	out->lower_bound = res.lower_bound;
	out->plan_time_ns = res.time_ns;
	out->optimal = res.optimal;
	out->mmap_offset = 0;
	out->fast_height = plan->fast_height;
	out->fast_mmap_offset = 0;
	out->n_fast = plan->n_fast;
	out->weight_total = plan->weight_total;
	out->weight_fast = plan->weight_fast;
	out->weight_bound = plan->weight_bound;
	if (req->flags & TA_CREATE_DRY_RUN) {
		err = 0;
		goto free_plan;
	}

	if (res.height > ta->size) {
		ta_plan_obj_notify(ta, TA_EVENT_PRESSURE, NULL, res.height);
		err = -ENOSPC;
		goto free_plan;
	}
	plan->slice_size = PAGE_ALIGN(res.height);
	if (plan->slice_size) {
		err = ta_user_charge_bytes(ta, user, plan->slice_size);
		if (err)
			goto free_plan;
		charged = plan->slice_size;
		err = ta_dmem_charge(ta, plan->slice_size, &plan->dmem_pool);
		if (err)
			goto free_plan;
		plan->slice_vaddr = gen_pool_alloc(ta->pool, plan->slice_size);
		if (!plan->slice_vaddr) {
			ta_plan_obj_notify(ta, TA_EVENT_PRESSURE, NULL,
					   res.height);
			err = -ENOSPC;
			goto free_plan;
		}
		plan->slice_dma = gen_pool_virt_to_phys(ta->pool,
							plan->slice_vaddr);
		/* A new owner never sees what a previous one wrote. */
		memset((void *)plan->slice_vaddr, 0, plan->slice_size);
	}
	err = ta_plan_obj_fast_slice(ta, plan);
	if (err)
		goto free_slice;

	/* Ours until reported: a racing destroy by ID cannot free it. */
	ta_plan_obj_get(plan);
	err = xa_alloc_cyclic(&ta->plans, &plan->id, plan,
			      XA_LIMIT(1, TA_PLAN_ID_MAX), &ta->next_plan_id,
			      GFP_KERNEL_ACCOUNT);
	if (err < 0) {
		err = err == -EBUSY ? -ENOSPC : err;
		goto free_slice;
	}
	/* From here the plan's release gives back what it holds. */
	atomic_inc(&ta->n_plans);
	out->plan_id = plan->id;
	out->mmap_offset = (u64)plan->id << PAGE_SHIFT;
	out->fast_mmap_offset = ta_plan_obj_fast_mmap_offset(plan);
	ta_plan_obj_notify(ta, TA_EVENT_PLAN_CREATED, plan, 0);
	ta_plan_obj_put(plan);
	kvfree(offsets);
	kvfree(derived);
	return 0;

free_slice:
	if (plan->fast_slice_size) {
		ta_fast_free(ta, plan->fast_slice_vaddr, plan->fast_slice_size);
		ta_user_uncharge_fast(ta, plan->user, plan->fast_slice_size);
	}
	if (plan->slice_vaddr)
		gen_pool_free(ta->pool, plan->slice_vaddr, plan->slice_size);
free_plan:
	kvfree(offsets);
	ta_dmem_uncharge(plan->dmem_pool, plan->slice_size);
	kvfree(plan->exportable);
	dma_resv_fini(&plan->fast_resv);
	dma_resv_fini(&plan->own_resv);
	kvfree(plan);
free_derived:
	kvfree(derived);
unreserve_user:
	ta_user_release(ta, user, charged);
unreserve_owner:
	ta_owner_unreserve(ta, owner);
	return err;
}

/**
 * ta_plan_obj_lookup() - find a plan the caller may see, with a reference
 * @ta: the device
 * @id: the plan's ID
 * @caller: who asks: the plan's user (same effective uid) or an admin
 *
 * Return: the plan, holding a reference the caller drops with
 * ta_plan_obj_put(); ERR_PTR(-ENOENT) when there is no such plan or the
 * caller may not see it (the two are not told apart, so IDs leak nothing).
 */
struct ta_plan_obj *ta_plan_obj_lookup(struct ta_device *ta, u32 id,
				       const struct ta_owner *caller)
{
	struct ta_plan_obj *plan;

	xa_lock(&ta->plans);
	plan = xa_load(&ta->plans, id);
	if (plan)
		kref_get(&plan->ref);
	xa_unlock(&ta->plans);
	if (!plan)
		return ERR_PTR(-ENOENT);
	if (!ta_owner_may_access(plan, caller)) {
		ta_plan_obj_put(plan);
		return ERR_PTR(-ENOENT);
	}
	return plan;
}

/**
 * ta_plan_obj_next() - the next plan after @id that the caller may see
 * @ta: the device
 * @id: start after this ID (0 for the first)
 * @caller: who asks
 *
 * For listings (the ioctl's %TA_GET_NEXT, the netlink dump): plans made or
 * destroyed meanwhile may or may not show, but none shows twice.
 *
 * Return: the plan with a reference, or NULL when there is none.
 */
struct ta_plan_obj *ta_plan_obj_next(struct ta_device *ta, u32 id,
				     const struct ta_owner *caller)
{
	unsigned long index = id;
	struct ta_plan_obj *plan;

	/*
	 * A plan in the table always holds the table's reference (it is
	 * erased under the lock before that reference is dropped), so the
	 * kref_get() under the lock cannot meet a dying plan.
	 */
	for (;;) {
		xa_lock(&ta->plans);
		plan = xa_find_after(&ta->plans, &index, TA_PLAN_ID_MAX,
				     XA_PRESENT);
		if (plan)
			kref_get(&plan->ref);
		xa_unlock(&ta->plans);
		if (!plan || ta_owner_may_access(plan, caller))
			return plan;
		ta_plan_obj_put(plan);
	}
}

/**
 * ta_plan_obj_unpublish() - tell the world a plan left the table, and drop
 * the table's reference
 * @ta: the device
 * @plan: the plan, erased from the table
 */
void ta_plan_obj_unpublish(struct ta_device *ta, struct ta_plan_obj *plan)
{
	atomic_dec(&ta->n_plans);
	blocking_notifier_call_chain(&plan->destroyed, TA_PLAN_NOTIFY_DESTROYED,
				     plan);
	ta_plan_obj_notify(ta, TA_EVENT_PLAN_DESTROYED, plan, 0);
	ta_plan_obj_put(plan);
}

/**
 * ta_plan_obj_destroy() - remove a plan from the table
 * @ta: the device
 * @id: the plan's ID
 * @caller: who asks; as for ta_plan_obj_lookup()
 *
 * The ID is gone at once; the memory goes back to the arena when the last
 * mapping or kernel user lets go. A group's plan takes its members with
 * it; a member leaves its group (ta_group_obj_destroy()).
 *
 * Return: 0, or -ENOENT (no such plan, not visible, or already destroyed);
 * -EBUSY for a member that writes a link a later member reads.
 */
int ta_plan_obj_destroy(struct ta_device *ta, u32 id,
			const struct ta_owner *caller)
{
	struct ta_plan_obj *plan, *erased;

	int err;

	plan = ta_plan_obj_lookup(ta, id, caller);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	if (plan->group || plan->group_plan) {
		err = ta_group_obj_destroy(ta, plan);
		ta_plan_obj_put(plan);
		return err;
	}
	xa_lock(&ta->plans);
	erased = __xa_cmpxchg(&ta->plans, id, plan, NULL, GFP_NOWAIT);
	if (erased == plan)
		ta_plan_obj_erased(plan);
	xa_unlock(&ta->plans);
	if (erased == plan)
		ta_plan_obj_unpublish(ta, plan);
	ta_plan_obj_put(plan);
	return erased == plan ? 0 : -ENOENT;
}

/*
 * Unpublish every plan (@all), or every plan of the owner @key, whose
 * count @n_plans is (NULL: an owner without one): the walk ends when that
 * count reaches zero. The table is walked under its lock (so no plan can
 * be freed under the walk); the references are dropped after the lock is
 * released, since freeing may sleep.
 */
static void ta_plan_obj_reap(struct ta_device *ta, bool all,
			     unsigned long key, const unsigned int *n_plans)
{
	struct ta_plan_obj *plan, *next;
	LIST_HEAD(reaped);
	unsigned long id;

	xa_lock(&ta->plans);
	xa_for_each(&ta->plans, id, plan) {
		if (!all && n_plans && !*n_plans)
			break;
		if (!all && plan->owner_key != key)
			continue;
		__xa_erase(&ta->plans, id);
		ta_plan_obj_erased(plan);
		list_add(&plan->reap_node, &reaped);
	}
	xa_unlock(&ta->plans);

	list_for_each_entry_safe(plan, next, &reaped, reap_node) {
		list_del(&plan->reap_node);
		ta_plan_obj_unpublish(ta, plan);
	}
}

/**
 * ta_plan_obj_release_owner() - destroy every plan tied to @key
 * @ta: the device
 * @key: the owner key (a closing file, a released netlink socket)
 * @n_plans: that owner's plan count (&ta_owner.n_plans, NULL for an owner
 *	without one); nothing can add to it any more (its file or socket is
 *	going away)
 *
 * An owner without plans costs nothing: most descriptors make none, and
 * the walk holds the table's lock, which every lookup, create and destroy
 * takes. Otherwise the walk ends at the owner's last plan.
 */
void ta_plan_obj_release_owner(struct ta_device *ta, unsigned long key,
			       const unsigned int *n_plans)
{
	if (n_plans && !READ_ONCE(*n_plans))
		return;
	ta_plan_obj_reap(ta, false, key, n_plans);
}

/**
 * ta_plan_tables_init() - set up a device's plan table, accounts, events
 * @ta: the device, before anyone can reach it
 */
void ta_plan_tables_init(struct ta_device *ta)
{
	xa_init_flags(&ta->plans, XA_FLAGS_ALLOC1);
	xa_init(&ta->users);
	mutex_init(&ta->users_lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&ta->events);
}

/**
 * ta_plan_tables_destroy() - destroy every plan and tear the tables down
 * @ta: the device, which nobody can reach any more and no plan reference
 *	outlives (files, mappings, dma-bufs and kernel-API users each hold
 *	the module)
 */
void ta_plan_tables_destroy(struct ta_device *ta)
{
	ta_plan_obj_destroy_all(ta);
	xa_destroy(&ta->plans);
	WARN_ON(!xa_empty(&ta->users));
	xa_destroy(&ta->users);
	mutex_destroy(&ta->users_lock);
}

/**
 * ta_plan_obj_destroy_all() - destroy every plan (device going away)
 * @ta: the device
 */
void ta_plan_obj_destroy_all(struct ta_device *ta)
{
	ta_plan_obj_reap(ta, true, 0, NULL);
}
