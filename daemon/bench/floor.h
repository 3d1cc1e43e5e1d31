/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The safe-supervisor floor: a hand-written supervisor, no library, that
 * performs each decided path call the least way a safe supervisor can
 * (RECV; the path read with process_vm_readv; ID_VALID; one openat2 with
 * RESOLVE_NO_MAGICLINKS from the pinned root or the target's cwd; the call
 * done on that fd; ADDFD with SEND, or the result written back and SEND).
 * It is what `unotify bench` compares libunotify and unotifyd with on the
 * same calls, and what `unotify bench floor -- CMD` runs a whole program
 * tree under (contrib/bench/build.sh). It decides nothing: every call is
 * allowed. What it skips, and why that stays safe for the programs it runs,
 * is said at each step in floor.c.
 *
 * Variants (the design questions of issue 10's phase 2, measured):
 *  - FLOOR_WALK: the careful user-space walk (one openat(O_PATH|O_NOFOLLOW)
 *    and one fstat per component, symlinks read and followed by us)
 *    instead of one openat2: what the fast path saves;
 *  - FLOOR_CREDS: enter the target's fsuid, fsgid, groups and capabilities
 *    before the call and leave them after (raw, per-thread system calls),
 *    even though they are ours: what a credential switch costs.
 */
#ifndef UNOTIFY_BENCH_FLOOR_H
#define UNOTIFY_BENCH_FLOOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FLOOR_WALK  (1u << 0)
#define FLOOR_CREDS (1u << 1)

/* Counters, summed over every thread that serves (relaxed atomics). */
struct floor_counts {
	atomic_ullong calls;     /* notifications answered */
	atomic_ullong fallbacks; /* openat2 crossed a mount (EXDEV): resolved again, checked */
	atomic_ullong refused;   /* the result was on procfs: EACCES */
};

/* One listener, shared by every thread serving it; read-only once set up. */
struct floor {
	int listener;
	int root;              /* O_PATH fd of the root the programs started with */
	unsigned int flags;    /* FLOOR_WALK, FLOOR_CREDS */
	size_t req_size;
	size_t resp_size;
	struct floor_counts *counts;
};

/* The filter for a program tree (floor_exec) notifies these. */
#define FLOOR_REPLY_VALUE 42

/* Fills f for listener (not owned); counts may be NULL. */
int floor_init(struct floor *f, int listener, unsigned int flags, struct floor_counts *counts);
void floor_done(struct floor *f);
/* Turns the same-CPU hand-off on; -EOPNOTSUPP before Linux 6.6. */
int floor_set_sync(int listener);
/*
 * Serves notifications in the calling thread until no task uses the filter
 * (0) or an error (-errno). Each thread needs its own buffers: several may
 * call this on one floor (they all block in RECV on the listener).
 */
int floor_serve(const struct floor *f, const atomic_bool *stop);
/* One notification, already received: performed and answered. */
int floor_answer(const struct floor *f, void *req, void *resp);
/*
 * One receiver (the calling thread) handing each notification to one of
 * `workers` threads that perform and answer it: the receiver never waits
 * on a slow call, and the answer comes from the worker's CPU.
 */
int floor_serve_workers(const struct floor *f, unsigned int workers);

struct floor_exec_options {
	unsigned int flags;
	unsigned int receivers; /* threads blocking in RECV on the one listener (>= 1) */
	unsigned int workers;   /* > 0: one receiver handing calls to this many workers */
	bool sync;
	bool verbose;           /* counts on stderr at the end */
};

/*
 * `unotify bench floor -- CMD`: runs argv under a filter that notifies
 * open and openat for the whole tree, serves it, and returns the exit code
 * of CMD (as a shell would: 128 + signal).
 */
int floor_exec(const struct floor_exec_options *o, char *const *argv);

/*
 * `unotify bench landlock -- CMD` (landlock-exec.c): execs argv under a
 * Landlock ruleset doing the same file job (all allowed but /etc/shadow).
 * Returns only on failure, with the exit code to use.
 */
int landlock_exec(char *const *argv);

#endif
