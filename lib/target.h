/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Acting as the target: its credentials, root and umask put on the
 * supervising thread for the time of one path resolution or one open, and a
 * path walk that resolves exactly as the kernel would for the target.
 * Private to lib/ (target.c, resolve.c, open.c).
 */
#ifndef UNOTIFY_TARGET_H
#define UNOTIFY_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/capability.h>

#include "unotify.h"

/* Where a directory is: the kernel compares (mount, dentry); we compare what statx tells. */
struct target_fid {
	dev_t dev;
	ino_t ino;
	uint64_t mnt;
};

/* The target thread as read from /proc/TID (in the supervisor's pid namespace). */
struct target {
	pid_t tid;          /* the notification's pid: a thread id */
	pid_t tgid;
	/* The same two numbers in the target's own (innermost) pid namespace. */
	pid_t ns_tgid;
	pid_t ns_tid;
	uid_t fsuid;
	gid_t fsgid;
	uid_t uid, euid, suid; /* real, effective, saved (for access(2) and performed network calls) */
	gid_t gid, egid, sgid;
	gid_t *groups;      /* supplementary groups, sorted as the kernel keeps them */
	size_t ngroups;
	uint64_t cap_eff;   /* 0 when the target lives in another user namespace */
	uint64_t cap_prm;   /* idem */
	uint64_t sig_ignored; /* SigIgn, SigCgt: bit n-1 for signal n */
	uint64_t sig_caught;
	bool same_userns;   /* the target's user namespace is ours */
	mode_t umask;
	int rootfd;         /* O_PATH: /proc/TID/root */
	bool same_root;     /* rootfd is where the supervising thread's root is: no chroot */
};

/* What target_enter() changed, for target_leave() to put back. */
struct target_saved {
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	uid_t fsuid;
	gid_t fsgid;
	gid_t *groups;
	int ngroups;
	bool groups_set;
	bool ids_set;       /* fsuid or fsgid changed */
	bool caps_set;
	bool umask_set;
	mode_t umask;
	int rootfd;         /* our root and cwd, to come back from the target's root */
	int cwdfd;
	bool cwd_moved;
	bool chrooted;
	bool entered;
};

/* The supervisor's own /proc (O_PATH, opened once, before any chroot). */
int target_proc_fd(void);
/* Is dev the procfs instance the supervisor's /proc is (same pid numbers)? */
bool target_proc_is_ours(dev_t dev);

/*
 * Reads the thread's credentials, umask and root, then checks the
 * notification is still pending (the tid could have been reused).
 * Returns -ENOENT when it is not. Free with target_release().
 */
int target_read(unotify_listener *l, const struct seccomp_notif *req, struct target *ret);
void target_release(struct target *t);
/*
 * The directory a relative path starts from: the thread's cwd (dirfd ==
 * AT_FDCWD) or the file its dirfd refers to, as an O_PATH fd. -EBADF when
 * the target has no such fd (then ID_VALID tells a dead target apart).
 */
int target_open_dir(const struct target *t, int dirfd);

/*
 * Puts the target's root (chroot when it differs), umask, groups, fsgid,
 * fsuid and effective capabilities (its CapEff within our permitted set) on
 * the calling thread, which must have called unotify_thread_init().
 * Everything is per thread: raw setgroups/setfsuid/setfsgid/capset, never
 * glibc's broadcasting wrappers. On failure nothing stays changed.
 * Returns -ENOTRECOVERABLE when the thread could not be restored earlier.
 */
int target_enter(const struct target *t, struct target_saved *s);
/*
 * Undoes target_enter(). If any step fails the thread can no longer be
 * trusted to act as the supervisor: -ENOTRECOVERABLE is returned, now and
 * by every later target_enter() on this thread, and the caller must treat
 * it as fatal (stop supervising; the targets' calls then fail closed).
 */
int target_leave(struct target_saved *s);

/* statx: mode, owner, identity of an fd (AT_EMPTY_PATH). */
struct target_stat {
	mode_t mode;
	uid_t uid;
	gid_t gid;
	bool automount;     /* an automount trigger not yet triggered */
	struct target_fid fid;
};
int target_fstat(int fd, struct target_stat *ret);

/* ---- resolve.c: the path walk, run in the impersonated state ---- */

struct resolve_how {
	int start;          /* O_PATH dir a relative path starts from (and IN_ROOT/BENEATH scope) */
	const char *path;
	uint64_t flags;     /* open flags as the kernel keeps them after its checks */
	uint64_t resolve;   /* RESOLVE_* */
};

struct resolved {
	int fd;             /* O_PATH: the file, or its parent directory when creating; -1 */
	bool creates;
	mode_t type;        /* S_IFMT bits of the file (not of the parent when creating) */
	char base[256];     /* the name to create in fd */
	int error;          /* errno the target's own call would get, or 0 */
	char path[4096];    /* as the target sees it (a lexical guess when error != 0) */
	char link[48];      /* a final procfs self/thread-self not followed: its text for the target */
};

/*
 * Walks how->path one component at a time with the kernel doing each
 * lookup (so permissions, mounts and ".." at the root are the kernel's),
 * following symlinks here so that /proc/self and /proc/thread-self mean the
 * target, never the supervisor. ret->error carries the target's errno;
 * a negative return is the supervisor's own failure (fail closed).
 */
int resolve_walk(const struct target *t, const struct resolve_how *how, struct resolved *ret);
/*
 * path against base (when path is relative), with ".", ".." and repeated
 * slashes removed without looking at any file. -ENAMETOOLONG when it does
 * not fit in size.
 */
int resolve_lexical(const char *base, const char *path, char *out, size_t size);
/* The name of an fd of ours as seen from our current root (the target's, while acting as it). */
int resolve_fd_name(int fd, char *out, size_t size);

/* ---- refusal.c ---- */

/* The kernel's answer to a refused open of what was resolved (fd, type): a positive errno. */
int refusal_open(const struct target *t, int fd, mode_t type, uint64_t flags, bool creates);

#endif
