// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_freelist_ref.c - freelist against the same walk written from its
 * definition, on random inputs: the plans must be identical, offset for
 * offset.
 *
 * The reference keeps the blocks below the arena's top in one array in
 * address order and searches it whole: buffers in order of start, then
 * largest first, then index; before each, the buffers whose lifetime
 * ended by its start are released (by end, then index), each merged with
 * a free neighbour on either side, or given back to the top when it is the
 * highest block; then the buffer takes the shortest free block it fits in
 * at its alignment (the lowest on a tie), the padding before it and the
 * rest after it staying free, or goes on top. Nothing of the planner's
 * free tree (a treap) or its address list is shared.
 */
#include <stdlib.h>
#include <string.h>

#include "ta_test.h"
#include "planner_build.h"

struct fl_ref_block {
	u64 off, len;
	u32 owner;	/* the buffer in it, or FL_REF_FREE */
};

#define FL_REF_FREE	U32_MAX

static const struct ta_buffer *fl_ref_bufs;

static int fl_ref_cmp_alloc(const void *a, const void *b)
{
	const struct ta_buffer *x = &fl_ref_bufs[*(const u32 *)a];
	const struct ta_buffer *y = &fl_ref_bufs[*(const u32 *)b];
	u32 i = *(const u32 *)a, j = *(const u32 *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int fl_ref_cmp_release(const void *a, const void *b)
{
	const struct ta_buffer *x = &fl_ref_bufs[*(const u32 *)a];
	const struct ta_buffer *y = &fl_ref_bufs[*(const u32 *)b];
	u32 i = *(const u32 *)a, j = *(const u32 *)b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return i < j ? -1 : i > j;
}

static u64 fl_ref_align(u64 x, u64 align)
{
	return (x + align - 1) & ~(align - 1);
}

/* Block @k's buffer ended: free it, merged with its free neighbours. */
static void fl_ref_release(struct fl_ref_block *v, u32 *nv, u32 k,
			   u64 *top_free)
{
	v[k].owner = FL_REF_FREE;
	if (k && v[k - 1].owner == FL_REF_FREE) {
		v[k - 1].len += v[k].len;
		memmove(v + k, v + k + 1, (*nv - k - 1) * sizeof(*v));
		(*nv)--;
		k--;
	}
	if (k == *nv - 1) {
		/* the highest block: the free space above starts here now */
		*top_free = v[k].off;
		(*nv)--;
		return;
	}
	if (v[k + 1].owner == FL_REF_FREE) {
		v[k].len += v[k + 1].len;
		memmove(v + k + 1, v + k + 2, (*nv - k - 2) * sizeof(*v));
		(*nv)--;
	}
}

/* Buffer @i into the free block @k at @off: padding and rest stay free. */
static void fl_ref_carve(struct fl_ref_block *v, u32 *nv, u32 k, u64 off,
			 u64 size, u32 i)
{
	struct fl_ref_block in[3];
	u64 pad = off - v[k].off, rest = v[k].len - pad - size;
	u32 m = 0;

	if (pad)
		in[m++] = (struct fl_ref_block){ v[k].off, pad, FL_REF_FREE };
	in[m++] = (struct fl_ref_block){ off, size, i };
	if (rest)
		in[m++] = (struct fl_ref_block){ off + size, rest,
						 FL_REF_FREE };
	memmove(v + k + m, v + k + 1, (*nv - k - 1) * sizeof(*v));
	memcpy(v + k, in, m * sizeof(*v));
	*nv += m - 1;
}

/* The reference plan into @off; returns its height, U64_MAX on no memory */
static u64 fl_ref_plan(const struct ta_buffer *b, u32 n, u64 *off)
{
	struct fl_ref_block *v = calloc(2 * (size_t)n + 2, sizeof(*v));
	u32 *alloc = calloc(n, sizeof(*alloc));
	u32 *rel = calloc(n, sizeof(*rel));
	u64 top_free = 0, height = 0;
	u32 nv = 0, r = 0, t, k;

	if (!v || !alloc || !rel) {
		height = U64_MAX;
		goto free_all;
	}
	for (t = 0; t < n; t++) {
		alloc[t] = t;
		rel[t] = t;
	}
	fl_ref_bufs = b;
	qsort(alloc, n, sizeof(*alloc), fl_ref_cmp_alloc);
	qsort(rel, n, sizeof(*rel), fl_ref_cmp_release);
	for (t = 0; t < n; t++) {
		u32 i = alloc[t], best = U32_MAX;
		u64 o;

		for (; r < n && b[rel[r]].end <= b[i].start; r++) {
			for (k = 0; k < nv && v[k].owner != rel[r]; k++)
				;
			if (k < nv)
				fl_ref_release(v, &nv, k, &top_free);
		}
		off[i] = 0;
		if (!b[i].size)
			continue;
		for (k = 0; k < nv; k++) {
			if (v[k].owner != FL_REF_FREE ||
			    fl_ref_align(v[k].off, b[i].align) + b[i].size >
			    v[k].off + v[k].len)
				continue;
			if (best == U32_MAX || v[k].len < v[best].len ||
			    (v[k].len == v[best].len && v[k].off < v[best].off))
				best = k;
		}
		if (best == U32_MAX) {
			/* on top: the padding below it is a free block */
			o = fl_ref_align(top_free, b[i].align);
			v[nv++] = (struct fl_ref_block){ top_free,
							 o - top_free + b[i].size,
							 FL_REF_FREE };
			fl_ref_carve(v, &nv, nv - 1, o, b[i].size, i);
			top_free = o + b[i].size;
		} else {
			o = fl_ref_align(v[best].off, b[i].align);
			fl_ref_carve(v, &nv, best, o, b[i].size, i);
		}
		off[i] = o;
		if (o + b[i].size > height)
			height = o + b[i].size;
	}
free_all:
	free(v);
	free(alloc);
	free(rel);
	return height;
}

#define FL_REF_SEEDS	10

/*
 * Short or long lifetimes, few or many distinct sizes (exact fits, ties),
 * alignments (a block long enough but not at the alignment), zero sizes,
 * many buffers starting at one step (planner_build.h's shapes).
 */
static const struct ref_shape fl_ref_shapes[] = {
	{ 500, 400, 8, 0, 100000, 0, true, 0, 0, FL_REF_SEEDS },
	{ 500, 300, 300, 0, 5000, 0, true, 0, 0, FL_REF_SEEDS },
	{ 800, 600, 40, 4, 4096, 0, true, 0, 0, FL_REF_SEEDS },
	{ 800, 500, 60, 0, 1000, 6, true, 0, 0, FL_REF_SEEDS },
	{ 600, 20, 10, 7, 512, 3, true, 0, 0, FL_REF_SEEDS },
	{ 3000, 2500, 100, 12, 1U << 20, 2, false, 0, 0, FL_REF_SEEDS },
};

static int t_freelist_vs_reference(void)
{
	const u32 n_shapes = sizeof(fl_ref_shapes) / sizeof(fl_ref_shapes[0]);
	u32 s, seed, ran = 0, max_n = 0;
	u64 sizes[16], *off, *ref;
	struct ta_buffer *b;
	struct ta_result res;
	int ret = 0;

	for (s = 0; s < n_shapes; s++)
		if (fl_ref_shapes[s].n > max_n)
			max_n = fl_ref_shapes[s].n;
	b = calloc(max_n, sizeof(*b));
	off = calloc(max_n, sizeof(*off));
	ref = calloc(max_n, sizeof(*ref));
	if (!b || !off || !ref) {
		ret = -ENOMEM;
		goto free_all;
	}
	for (s = 0; s < n_shapes && !ret; s++) {
		const struct ref_shape *sh = &fl_ref_shapes[s];
		struct ta_problem p = trace(b, sh->n);

		for (seed = 1; seed <= FL_REF_SEEDS && !ret; seed++) {
			u64 h;

			lcg_state = 52000 + 100 * s + seed;
			ref_random(sh, b, NULL, sizes);
			h = fl_ref_plan(b, sh->n, ref);
			if (h == U64_MAX) {
				ret = -ENOMEM;
				break;
			}
			ret = plan_ok(&p, TA_STRATEGY_FREELIST, off, &res);
			if (ret)
				break;
			if (res.height != h ||
			    memcmp(off, ref, sh->n * sizeof(*off))) {
				printf("# shape %u seed %u: height %llu, reference %llu\n",
				       s, seed, (unsigned long long)res.height,
				       (unsigned long long)h);
				ret = 1;
			}
			ran++;
		}
	}
free_all:
	free(b);
	free(off);
	free(ref);
	TA_CHECK(!ret, "%d", ret);
	TA_CHECK(ran == n_shapes * FL_REF_SEEDS, "ran %u of %u", ran,
		 n_shapes * FL_REF_SEEDS);
	return 0;
}

const struct ta_test ta_freelist_ref_tests[] = {
	{ "freelist: plans equal the walk from its definition, 60 random inputs",
	  t_freelist_vs_reference },
	{ NULL, NULL },
};
