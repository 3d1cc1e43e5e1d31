/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every decided call makes a target (and an open a plan context) and frees
 * it when replied. A freed one is kept by the thread that freed it and
 * given to its next call, not allocated again: malloc's bins for the
 * target alone cost 2 % of a decided open's supervisor time here (perf),
 * more than the policy's walk. Whichever thread frees a block keeps it (or
 * frees it when it keeps one of that kind already), so a block may end on
 * another thread than it began. A thread's kept blocks are freed when the
 * thread ends (spare_key holds the address of its slots).
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "spare.h"

static pthread_key_t spare_key;
static bool spare_key_made;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;
static __thread void *spare_slots[SPARE_KINDS]; /* free, this thread's */
static __thread size_t spare_sizes[SPARE_KINDS]; /* their sizes */
static __thread bool spare_held; /* spare_key frees them when the thread ends */

/*
 * The key's destructor, run by the ending thread itself: a block given by
 * a destructor that runs after it registers the slots again, and the
 * thread library calls this once more (PTHREAD_DESTRUCTOR_ITERATIONS).
 */
static void spare_free(void *slots)
{
	void **slot = slots;

	for (int kind = 0; kind < SPARE_KINDS; kind++) {
		free(slot[kind]);
		slot[kind] = NULL;
	}
	spare_held = false;
}

static void spare_key_make(void)
{
	spare_key_made = pthread_key_create(&spare_key, spare_free) == 0;
}

void *spare_take(enum spare_kind kind, size_t size)
{
	void *p = spare_slots[kind];

	/* A kind has one size; a smaller block kept (a caller's mistake) is never handed out. */
	if (!p || spare_sizes[kind] < size)
		return malloc(size);
	spare_slots[kind] = NULL;
	return p;
}

void spare_give(enum spare_kind kind, void *p, size_t size)
{
	if (!p)
		return;
	if (!spare_held) {
		pthread_once(&spare_once, spare_key_make);
		spare_held = spare_key_made && pthread_setspecific(spare_key, spare_slots) == 0;
	}
	if (spare_slots[kind] || !spare_held) {
		free(p);
		return;
	}
	spare_slots[kind] = p;
	spare_sizes[kind] = size;
}
