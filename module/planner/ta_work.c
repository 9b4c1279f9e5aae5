// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_work.c - the work budget (see ta_work.h): counting, yielding, the
 * hard deadline of a planning call and the soft limits of its engines.
 */
#include "ta_work.h"

void ta_work_init(struct ta_work *w, u64 limit_ns)
{
	u64 now = limit_ns ? ta_env_now_ns() : 0;

	*w = (struct ta_work){ 0 };
	if (limit_ns)
		w->limit_ns = now + limit_ns < now ? U64_MAX : now + limit_ns;
}

int ta_work_check(struct ta_work *w)
{
	int ret;

	if (!w)
		return ta_env_yield();
	if (w->root)
		w = w->root;
	w->units = 0;
	if (w->err)
		return w->err;
	ret = ta_env_yield();
	if (ret)
		w->err = -EINTR;
	else if (w->limit_ns && ta_env_now_ns() >= w->limit_ns)
		w->err = -ETIMEDOUT;
	return w->err;
}

struct ta_work ta_work_sub(struct ta_work *w, u64 deadline_ns, u64 max_steps)
{
	struct ta_work sub = {
		.deadline_ns = deadline_ns,
		.max_steps = max_steps,
		.root = w->root ? w->root : w,
	};

	return sub;
}

int ta_work_limit_hit(struct ta_work *w)
{
	int ret = ta_work_check(w);

	if (ret == -EINTR)
		return -EINTR;
	if (ret)
		w->timed_out = true;	/* the hard deadline */
	else if (w->max_steps && w->steps >= w->max_steps)
		w->timed_out = true;
	else if (w->deadline_ns && ta_env_now_ns() >= w->deadline_ns)
		w->timed_out = true;
	return w->timed_out ? 1 : 0;
}

struct ta_work ta_work_part(struct ta_work *w, u32 num, u32 den)
{
	struct ta_work part = *w;
	u64 now = ta_env_now_ns();

	if (!part.root)
		part.root = w;
	if (w->deadline_ns > now)
		part.deadline_ns = now + (w->deadline_ns - now) / den * num;
	if (w->max_steps > w->steps)
		part.max_steps = w->steps + (w->max_steps - w->steps) / den * num;
	return part;
}

struct ta_work ta_work_share(struct ta_work *w, u32 share)
{
	return ta_work_part(w, 1, share);
}

void ta_work_spent(struct ta_work *w, const struct ta_work *part)
{
	w->steps = part->steps;
	if (part->bytes > w->bytes)
		w->bytes = part->bytes;
}
