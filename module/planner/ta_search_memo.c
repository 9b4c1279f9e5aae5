// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_search_memo.c - the skyline engine's memo of dead states.
 *
 * What a node of the skyline engine can still reach depends only on its
 * state: the floors, which buffers are placed (identical buffers alike)
 * and where it decides (level, section, pending closed run); the lowest
 * offsets it also carries are sound consequences of that state. When every
 * branch below a node failed, no plan at or under the cap of that moment
 * extends the state; a node met later in the same state - the same
 * placements in another order, two blocks of a packing swapped, or the
 * same state in a later run of the same search - fails at that cap or any
 * lower one, and is cut at once. On zero-slack packings the engine met the
 * same dead states again and again: the blocks of a finished lower part
 * can be stacked in many orders, and each one was tried under the part
 * above that could not be finished.
 *
 * A state is known by two 64-bit signatures, sums of a strong mix per
 * section floor and per placed buffer, that the state keeps up to date as
 * it changes (ta_search_set_floor(), ta_search_mark_placed() and their
 * undoing). The memo is a table of %TA_SEARCH_MEMO_MAX entries at most,
 * one per slot, the newest kept. A state is taken for another only when
 * both signatures and the place of the decision agree: a false cut, which
 * could hide a plan or prove a height wrongly, needs two 64-bit sums of
 * random-like values to collide at once.
 */
#include "ta_search_state.h"

/**
 * ta_search_memo_entries() - how many entries the memo of @s takes
 * @s: the state, its buffers and sections set up
 *
 * Two entries per buffer and section, a power of two between 1,024 and
 * %TA_SEARCH_MEMO_MAX. ta_search_state_init() takes them (counted in
 * @s->bytes) with the buffers' signatures, then calls
 * ta_search_memo_init().
 *
 * Return: the number of entries.
 */
u32 ta_search_memo_entries(const struct ta_search_state *s)
{
	u64 want = 2 * ((u64)s->n_buffers + s->n_sections);
	u32 entries = 1024;

	while (entries < want && entries < TA_SEARCH_MEMO_MAX)
		entries <<= 1;
	return entries;
}

/**
 * ta_search_memo_init() - the buffers' signatures and an empty memo
 * @s: the state, @s->buffer_sig and @s->memo taken, zeroed
 * @entries: the memo's entries, as ta_search_memo_entries() gives them
 */
void ta_search_memo_init(struct ta_search_state *s, u32 entries)
{
	u32 i;

	s->memo_mask = entries - 1;
	for (i = 0; i < s->n_buffers; i++) {
		u64 x = ta_search_mix(((u64)s->sec_first[i] << 32) |
				      s->sec_end[i]);

		x = ta_search_mix(x ^ s->size[i]);
		s->buffer_sig[i] = ta_search_mix(x ^ s->align[i]);
	}
}

/* The signature of where frame @f decides, with the floors. */
static u64 ta_search_memo_where(const struct ta_search_state *s,
				const struct ta_skyline_frame *f)
{
	u64 x = ta_search_mix(((u64)f->sec << 32) | f->pending);

	return s->floor_sig ^ ta_search_mix(x ^ f->level);
}

static struct ta_search_memo_entry *
ta_search_memo_slot(const struct ta_search_state *s, u64 where)
{
	u64 k = where ^ (s->placed_sig * 0x9e3779b97f4a7c15ULL);

	return &s->memo[(k ^ (k >> 32)) & s->memo_mask];
}

/**
 * ta_search_memo_dead() - is the state of a new frame known to be dead?
 * @s: the state, as frame @f found it
 * @f: the frame, set up by the skyline engine
 *
 * Return: true when every branch below the same state failed at a cap at
 * or above the current one.
 */
bool ta_search_memo_dead(struct ta_search_state *s,
			 const struct ta_skyline_frame *f)
{
	u64 where = ta_search_memo_where(s, f);
	const struct ta_search_memo_entry *e = ta_search_memo_slot(s, where);

	return e->cap_1 > s->cap && e->where == where &&
	       e->placed == s->placed_sig;
}

/**
 * ta_search_memo_store() - remember that every branch below @f failed
 * @s: the state, back as frame @f found it
 * @f: the frame, its choices all tried at the current cap
 *
 * Nothing is kept after a trail or the depth ran out in this run: a branch
 * cut short then does not prove its state dead.
 */
void ta_search_memo_store(struct ta_search_state *s,
			  const struct ta_skyline_frame *f)
{
	u64 where = ta_search_memo_where(s, f);
	struct ta_search_memo_entry *e = ta_search_memo_slot(s, where);

	if (s->overflowed)
		return;
	e->where = where;
	e->placed = s->placed_sig;
	e->cap_1 = s->cap + 1;
}
