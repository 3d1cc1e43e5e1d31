/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls performed on a target's behalf: the target object shared by
 * emulate-path.c (the target, resolution), open.c, emulate-stat.c,
 * emulate-mutate.c, emulate-net.c and emulate-queue.c. Private to lib/.
 */
#ifndef UNOTIFY_EMULATE_H
#define UNOTIFY_EMULATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "target.h"
#include "unotify.h"

struct unotify_target {
	unotify_listener *l;
	uint64_t id;        /* the notification: what we read is the target's while it is pending */
	int nr;             /* its system call (open.c: openat2 checks its flags otherwise) */
	struct target t;
	int pidfd;          /* -1 until a fd of the target is needed */
};

/*
 * Acting as the target for one call: emulate_enter() puts its credentials,
 * root and umask on this thread; emulate_leave() restores ours and returns
 * r, or -ENOTRECOVERABLE when the thread could not be restored.
 */
int emulate_enter(unotify_target *t, struct target_saved *s);
/* Only what `what` says besides the ids (TARGET_ENTER_ROOT, _UMASK). */
int emulate_enter_as(unotify_target *t, unsigned int what, struct target_saved *s);
int emulate_leave(struct target_saved *s, int r);

/*
 * A guessed name (unotify_path_how.guess): the text that names path for t,
 * looked up from the pinned root. For a target whose root is the pinned
 * root: an absolute path is its own (1, *ret NULL; shorter than PATH_MAX);
 * a relative one is the proved name of its start (the cwd or dirfd)
 * followed by it (1, *ret the caller's to free; its start proved the
 * target's by ID_VALID). 0: none (the walk names it); -errno: ours, or
 * -ENOENT (the target is gone).
 */
int emulate_guess_text(unotify_target *t, int dirfd, const char *path, char **ret);
/*
 * The one lookup that proves a guess, on a thread already acting as t:
 * openat2 from the pinned root with RESOLVE_IN_ROOT, NO_SYMLINKS,
 * NO_MAGICLINKS and NO_XDEV. An fd, the -errno the target's own call gets,
 * or -UNOTIFY_EGUESS when the text is not the name (nothing was opened).
 */
int emulate_guess_openat2(const unotify_target *t, const char *path, uint64_t flags);

/* "self/fd/N" for one of our fds, to be looked up relative to target_proc_fd(). */
void emulate_fd_link(int fd, char *buf, size_t size);
/*
 * The same for the calls with no *at form (setxattr, getxattr...): our
 * /proc is made this thread's cwd (its own: unshare(CLONE_FS)), so that the
 * relative link names fd; the kernel follows the magic link to the very
 * file fd holds and stops there (a symlink itself, for the l- calls).
 */
int emulate_fd_cwd_link(int fd, char *buf, size_t size);

/*
 * The O_PATH fd of a file resolved for a call on it (emulate-stat.c,
 * emulate-xattr.c): p's own, or for a guessed name one looked up once as
 * the target into *owned (the caller closes it). -errno: the lookup's own
 * (an unresolved file fails as it did), or -UNOTIFY_EGUESS (the text is
 * not the name; nothing was done).
 */
int emulate_path_fd(unotify_target *t, const struct unotify_path *p, int *owned);

/*
 * A POSIX message queue created by name (open with O_CREAT, or mknod of a
 * regular file, on an mqueue mount) is charged to its creator's real uid
 * and checked against its RLIMIT_MSGQUEUE: created by a thread acting as
 * the target, it would be root's. Such a create is performed in a helper
 * (emulate-queue.c).
 */
struct emulate_queue {
	int dirfd;        /* the pinned parent */
	int sock;         /* set by emulate_queue_create: where the helper sends the queue */
	const char *name; /* the last component, created there (no symlink followed) */
	bool by_mknod;
	int flags;        /* open's */
	mode_t mode;
	unsigned int dev; /* mknod's, in the kernel's encoding */
};

/* Is dirfd a directory of an mqueue mount, where a create makes a queue? */
bool emulate_is_queue_dir(int dirfd);
/* Performs q in a helper that is t, with its RLIMIT_MSGQUEUE: an fd (open), 0 (mknod) or -errno. */
int emulate_queue_create(unotify_target *t, struct emulate_queue *q);

#endif
