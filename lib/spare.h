/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef UNOTIFY_SPARE_H
#define UNOTIFY_SPARE_H

#include <stddef.h>

/*
 * The fixed-size blocks every decided call allocates and frees, kept by
 * the thread that freed one and given to its next call of the same kind.
 */
enum spare_kind {
	SPARE_TARGET,       /* unotify_target */
	SPARE_OPEN_CONTEXT, /* open.c's plan context */
	SPARE_KINDS,
};

/* A block of at least size bytes, not zeroed; NULL: no memory. */
void *spare_take(enum spare_kind kind, size_t size);
/* p (size bytes) kept for this thread's next spare_take(kind), or freed. p may be NULL. */
void spare_give(enum spare_kind kind, void *p, size_t size);

#endif
