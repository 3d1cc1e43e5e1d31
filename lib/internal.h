/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libunotify's private interfaces, shared by the files of lib/ (not installed,
 * not exported: the version script exports unotify_* only).
 */
#ifndef UNOTIFY_INTERNAL_H
#define UNOTIFY_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "uapi.h"
#include "unotify.h"

/* Where a directory is: the kernel compares (mount, dentry); we compare what statx tells. */
struct target_fid {
	dev_t dev;
	ino_t ino;
	uint64_t mnt;
};

/* Replies are built on the stack (thread-safe); the kernel's struct must fit. */
#define LISTENER_RESP_MAX 128

/*
 * One seccomp notification fd. unotify_listener_recv() uses the listener's
 * buffer; the pool's threads have their own (pool.c), and one receives at a
 * time, two while calls keep meeting (the kernel wakes every blocked
 * receiver, Linux 6.6+); replies, ID_VALID and memory access may come from
 * any thread.
 */
struct unotify_listener {
	int fd;                          /* the seccomp notify fd, owned (closed by _free) */
	struct seccomp_notif_sizes sizes; /* SECCOMP_GET_NOTIF_SIZES, never below our headers' */
	struct seccomp_notif *req;       /* receive buffer, sizes.seccomp_notif bytes, zeroed per RECV */
	bool sync;                       /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP currently set */
	bool sync_unsupported;           /* SET_FLAGS answered EINVAL/ENOTTY: never retried */
	/*
	 * The sandbox's root, O_PATH, owned: names are relative to it. Ours
	 * when the listener was made, until unotify_listener_set_root().
	 * Written before supervision starts, read by every deciding thread.
	 */
	int root_fd;
	struct target_fid root;
	/* What its targets were at their last call (target-cache.c), made on first use. */
	_Atomic(struct target_cache *) cache;
	/* Its filter notifies every credential change (unotify_listener_watch_creds). */
	bool creds_watched;
	/* No target may be in our pid namespace (unotify_listener_refuse_shared_pid). */
	bool refuse_shared_pid;
};


struct target_cache;
/* target-cache.c: frees what a listener kept of its targets. */
void target_cache_free(struct target_cache *c);

/*
 * memory.c: len bytes at addr in the address space of thread tid, through
 * its /proc/TID/mem opened and then proved by ID_VALID of notification id.
 */
int memory_write_proved(unotify_listener *l, uint64_t id, pid_t tid, uint64_t addr,
			const void *buf, size_t len);
/* maps-text.c: is [at, end) writable, by a /proc/PID/maps fd's text (before PROCMAP_QUERY)? */
int memory_writable_text(int maps, uint64_t at, uint64_t end);

/* listener.c: hands the fd back (the caller owns it) and frees the rest. */
int listener_release_fd(struct unotify_listener *l);
/*
 * listener.c: RECV into buf (sizes.seccomp_notif bytes), as
 * unotify_listener_recv() but -EINTR is returned, not retried.
 */
int listener_recv_into(struct unotify_listener *l, struct seccomp_notif *buf);

/* supervise.c: one call, in two steps (pool.c checks between them whether it still receives). */
uint64_t supervise_start(const struct unotify_loop_ops *ops);
/* The verdict in *ret, fail closed on error; returns what decide returned. */
int supervise_decide(unotify_listener *l, const struct unotify_loop_ops *ops,
		     const struct seccomp_notif *req, struct unotify_verdict *ret);
/*
 * check_pending: ID_VALID first (a worker's call may have gone meanwhile).
 * Returns when the reply was sent (CLOCK_MONOTONIC ns), read once for
 * ops->replied and the caller (want_done); 0 when neither wants it.
 */
uint64_t supervise_reply(unotify_listener *l, const struct unotify_loop_ops *ops,
			 const struct seccomp_notif *req, struct unotify_verdict *v,
			 uint64_t start, bool check_pending, bool want_done);

/* pool.c: unotify_supervise() with ops->threads > 1; *ret filled when not NULL. */
int pool_supervise(unotify_listener *l, const struct unotify_loop_ops *ops,
		   const volatile bool *stop, struct unotify_supervise_stats *ret);
/*
 * pool.c, for the perform functions: the calling thread is about to wait in
 * a call that may not return soon (a FIFO's open, a connect); another
 * thread receives meanwhile. True when the calling thread supervises in a
 * pool, which interrupts the wait (UNOTIFY_INTERRUPT_SIGNAL) once the call
 * is gone; false: nothing would, the caller must not wait without bound.
 */
bool pool_may_block(void);
/*
 * The same announcement without giving RECV away (a wait that is rare: an
 * open that may meet a FIFO), so that the pool interrupts it once the call
 * is gone even on the receiver; pool_wait_end() when it returned. False
 * outside a pool. pool_may_block's wait ends with pool_wait_end() too, or
 * pool_helper_done().
 */
bool pool_wait_begin(void);
void pool_wait_end(void);
/*
 * pool-signal.c: has target thread pid (in our pid namespace) a signal it
 * would handle now, were the call we perform for it its own?
 */
bool pool_target_signalled(uint32_t pid);
/* Does the calling thread supervise in a pool (pool_may_block() would say true)? No side effect. */
bool pool_running(void);
/*
 * Where clone(CLONE_PARENT_SETTID) writes the pid of a helper the calling
 * thread waits for, so that the pool kills it when the call goes away; a
 * dummy outside a pool. pool_helper_done() once clone returned, before the
 * helper is reaped.
 */
int *pool_helper_slot(void);
void pool_helper_done(void);

/* listener.c: does a live listener own fd (unotify_listener_new took it)? */
bool listener_owns(int fd);

/* landlock.c: the Landlock ABI version of the running kernel, 0 without it. */
int landlock_probe_abi(void);
/*
 * In the child (spawn.c), before it gives up its user: binds the rules,
 * sets no_new_privs and restricts itself. Async-signal-safe, no malloc.
 */
int landlock_apply(const struct unotify_landlock *ll);

/* features.c: the probe, run once per process; NULL if it could not run (uname failed). */
const struct unotify_features *features_cached(void);

/*
 * gate.c: *ret = the gate prefix followed by in. The prefix sends the gate
 * call to the listener and falls through (with A reset to 0) otherwise, so
 * in's relative jumps still land. Free ret->filter with free().
 */
int gate_prepend(const struct sock_fprog *in, struct sock_fprog *ret);

/* caps.c: the capabilities kept, as a mask of CAP_* bits. */
int caps_parse(const char *list, uint64_t *ret_keep);
/*
 * In the child, while still privileged: drops every capability not in keep
 * from the bounding set. Without CAP_SETPCAP and with an empty permitted set
 * there is nothing to drop (no_new_privs keeps it so): that is not an error.
 */
int caps_limit_bounding(uint64_t keep);
/* In the child, after setuid: inheritable = ambient = keep (so they survive exec). */
int caps_set_inheritable(uint64_t keep);

/*
 * spawn-ns.c: the program's own pid namespace. Before fork: -EBADFD when
 * a descriptor the child would inherit reaches outside a pid namespace.
 */
int spawn_ns_check_fds(const int stdio_fds[3]);
/* fork(), the child pid 1 of a new pid namespace, where it runs child(arg) (never returning). */
int spawn_ns_fork(void (*child)(const void *arg), const void *arg, pid_t *ret);
/* What the sandbox's init needs to know before it forks the program's process. */
struct spawn_init {
	const char *exe;        /* NULL, or the image the init execs (unotify_spawn_attr.init_exe) */
	int ready;              /* the readiness pipe's write end: closed once the init is confined */
	bool set_user;          /* the program's uid and gid, for the init to take them too */
	uid_t uid;
	gid_t gid;
};
/*
 * In that pid 1: its own mount namespace, /proc and process group; forks
 * the program's process and returns 0 there; becomes the init (never
 * returns) in the first. -errno when the setup failed.
 */
int spawn_init_start(const struct spawn_init *in);
/* The terminal's foreground to pgrp if it is ours; *ret_fd: to give it back, or -1. */
int spawn_tty_give(pid_t pgrp, int *ret_fd);
void spawn_tty_take_back(int *fd);

#endif
