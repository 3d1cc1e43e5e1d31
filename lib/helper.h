/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A call performed in a helper process that is the target: all of its
 * ids (real, effective, saved and file-system), groups, capabilities and
 * umask. For what the kernel checks, records or charges by credentials a
 * thread acting as the target does not take: a socket's peer credentials,
 * and what is counted against the real uid's user (a POSIX message queue's
 * bytes). Private to lib/.
 */
#ifndef UNOTIFY_HELPER_H
#define UNOTIFY_HELPER_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "emulate.h"

/*
 * What runs in the helper shares our memory and our thread's TLS: it makes
 * raw system calls only (no libc state, no interceptors), with every signal
 * blocked. Sanitizer instrumentation is off in it: its stack is not one the
 * runtime knows.
 */
#define HELPER_CHILD __attribute__((no_sanitize("address", "undefined", "thread")))

/* A raw system call's result as the helper returns it: the value or -errno. */
HELPER_CHILD static inline long helper_sys(long r)
{
	return r < 0 ? -(long)errno : r;
}

/*
 * The helper's descriptor table is a copy of ours (the listener among
 * them), and the program can be handed a pidfd of the helper (SCM_PIDFD,
 * SO_PEERPIDFD) and ask for its descriptors: run closes all but those of
 * the call first (keep: n descriptors, in any order; -1 ignored).
 */
long helper_close_others(int *keep, size_t n);

struct helper_call {
	long (*run)(void *arg); /* in the helper, once it is the target: a count, an fd or -errno */
	void *arg;
	/*
	 * A pool kills any helper once its call is gone (one can be stopped
	 * by the program's uid); may_block: it also gives RECV away at once,
	 * for a call that waits (a connect).
	 */
	bool may_block;
	bool sets_msgqueue;      /* its soft RLIMIT_MSGQUEUE becomes msgqueue_limit (the target's) */
	uint64_t msgqueue_limit; /* UINT64_MAX: unlimited */
};

/* Runs call in a helper that is t; its result, or -errno (-EIO: it died before it said). */
long helper_run(unotify_target *t, const struct helper_call *call);

#endif
