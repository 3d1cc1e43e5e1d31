/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by lib/, policy/ and daemon/ (not installed). */
#ifndef UNOTIFY_UTIL_H
#define UNOTIFY_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

/*
 * Every fd has one owner, and closing resets the owner's variable:
 * `fd = safe_close(fd);`, `_cleanup_close_`, and TAKE_FD() to hand it on.
 * A number left behind after close() may be reused at once by another
 * thread's open, accept or recvmsg; closing it again closes someone else's
 * listener (one sandbox's end tearing down another's supervision). EBADF
 * from close() therefore means a bug: builds configured with
 * --enable-debug (as CI does) abort on it.
 */
static inline void safe_close_ebadf(int fd)
{
#ifdef UNOTIFY_DEBUG_FDS
	char msg[80];
	int n = snprintf(msg, sizeof(msg), "BUG: close(%d): EBADF, a number closed twice\n", fd);

	(void)!write(STDERR_FILENO, msg, (size_t)n);
	abort();
#else
	(void)fd;
#endif
}

static inline int safe_close(int fd)
{
	if (fd >= 0) {
		int saved = errno;

		if (close(fd) < 0 && errno == EBADF)
			safe_close_ebadf(fd);
		errno = saved;
	}
	return -1;
}

/* The cleanup of _cleanup_close_. */
static inline void closep(int *fd)
{
	*fd = safe_close(*fd); /* -1: the variable never keeps a closed number */
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

/* The same for fds: `return TAKE_FD(fd);` hands fd on and leaves -1 behind. */
#define TAKE_FD(fd)                        \
	({                                 \
		int *_pfd = &(fd);         \
		int _fd = *_pfd;           \
		*_pfd = -1;                \
		_fd;                       \
	})

/* -errno of the last failed libc call, never 0. */
static inline int negative_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

/* CLOCK_MONOTONIC now plus ns: a deadline for a wait on that clock. */
static inline void monotonic_deadline(uint64_t ns, struct timespec *ret)
{
	clock_gettime(CLOCK_MONOTONIC, ret);
	ret->tv_sec += (time_t)(ns / 1000000000u);
	ret->tv_nsec += (long)(ns % 1000000000u);
	if (ret->tv_nsec >= 1000000000L) {
		ret->tv_sec++;
		ret->tv_nsec -= 1000000000L;
	}
}

#endif
