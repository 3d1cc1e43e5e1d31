/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by lib/, policy/ and daemon/ (not installed). */
#ifndef UNOTIFY_UTIL_H
#define UNOTIFY_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Takes ownership: returns the pointer and leaves NULL behind (type-checked). */
#define steal_pointer(pp)                          \
	({                                         \
		__typeof__(*(pp)) _p = *(pp);      \
		*(pp) = NULL;                      \
		_p;                                \
	})

/* The same for fds: returns the fd and leaves -1 behind. */
static inline int steal_fd(int *fd)
{
	int r = *fd;
	*fd = -1;
	return r;
}

/* -errno of the last failed libc call, never 0. */
static inline int negative_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

#endif
