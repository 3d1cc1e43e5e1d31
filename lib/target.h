/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Acting as the target: its credentials, root and umask put on the
 * supervising thread for the time of one path resolution or one open, and a
 * path walk that resolves exactly as the kernel would for the target.
 * Private to lib/ (target.c, resolve.c, open.c).
 */
#ifndef UNOTIFY_TARGET_H
#define UNOTIFY_TARGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/capability.h>

#include "internal.h"
#include "unotify.h"

/* Pid namespaces nest 32 deep at most (the kernel's MAX_PID_NS_LEVEL). */
#define TARGET_PID_LEVELS 32

/* The target thread as read from /proc/TID (in the supervisor's pid namespace). */
struct target {
	pid_t tid;          /* the notification's pid: a thread id */
	pid_t tgid;
	/* The same two numbers in the target's own (innermost) pid namespace. */
	pid_t ns_tgid;
	pid_t ns_tid;
	/*
	 * NStgid and NSpid as our /proc shows them: [0] in our pid namespace,
	 * [levels - 1] in the target's own, one entry per namespace between.
	 */
	pid_t nstgid[TARGET_PID_LEVELS];
	pid_t nspid[TARGET_PID_LEVELS];
	unsigned int levels;
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
	uint64_t raw_cap_eff; /* CapEff and CapPrm as the kernel has them (target-cache.c) */
	uint64_t raw_cap_prm;
	bool nnp;           /* no_new_privs: an exec grants it nothing */
	bool same_userns;   /* the target's user namespace is ours */
	bool same_netns;    /* its network namespace was ours when read (resolve-ns.c) */
	mode_t umask;
	int rootfd;         /* O_PATH: /proc/TID/root, the target's root now (owned unless borrowed) */
	bool rootfd_borrowed; /* a kept state: rootfd is the pinned root, which it is */
	struct target_fid root; /* where rootfd is: ".." stops there, as for the target */
	/*
	 * Borrowed from the listener: the sandbox's root, pinned when
	 * supervision started (unotify_listener_set_root). Every name the
	 * policy sees is relative to it, whatever root the target has now.
	 */
	int pinned_rootfd;
	struct target_fid pinned_root;
	bool same_root;     /* the pinned root is the supervising thread's root: no chroot */
	/*
	 * Getting this state proved the tid the notification's thread, after
	 * anything read of its memory before: a state read afresh ends with
	 * ID_VALID; a kept one, on a listener that watches credentials, with
	 * the poll of its thread's pidfd (target-cache.c says why that is
	 * proof). Not a kept state on other listeners.
	 */
	bool proves_reads;
	/*
	 * Its address space to write results into (memory.c), a reference,
	 * or NULL: then each write opens and proves one. Set for a state
	 * kept on a listener that watches credentials: opened before the
	 * proof that made the entry, and every exec drops the entry before
	 * it runs, so the address space is the thread's while the entry is.
	 */
	struct target_mem *mem;
};

/* /proc/TID/mem and /proc/TID/maps of one thread, shared by references. */
struct target_mem {
	atomic_uint refs;
	int mem;  /* O_WRONLY */
	int maps; /* PROCMAP_QUERY: is a page writable? */
};

/* memory.c. Opened, not proved: prove them (ID_VALID) before the first write. NULL, errno. */
struct target_mem *target_mem_open(pid_t tid);
struct target_mem *target_mem_ref(struct target_mem *m);
/* Drops a reference; returns NULL, for m = target_mem_unref(m). */
struct target_mem *target_mem_unref(struct target_mem *m);
/* len bytes at addr, where the program could write them: 0, -EFAULT, -ENOENT (gone), -errno. */
int target_mem_write(const struct target_mem *m, uint64_t addr, const void *buf, size_t len);

/* What target_enter() changed, for target_leave() to put back. */
struct target_saved {
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	uid_t euid;
	gid_t gid, egid, sgid;
	uid_t fsuid;
	gid_t fsgid;
	gid_t *groups;
	int ngroups;
	bool groups_set;
	bool euid_set;      /* the effective uid changed (real and saved stay ours) */
	bool resgid_set;    /* real, effective and saved gids changed (setresgid) */
	bool ids_set;       /* fsuid or fsgid set apart from those */
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
/*
 * The same, from the state kept for the thread when it still holds
 * (target-cache.c), else read and kept when view_fixed says the sandbox
 * cannot change its root or user namespace. A kept state has no umask nor
 * signal dispositions: only for calls that use neither. No ID_VALID when
 * the kept state is used: unless proves_reads says it proved the thread
 * the notification's, the caller proves that after it (a memory read
 * does) and before acting.
 */
int target_read_kept(unotify_listener *l, const struct seccomp_notif *req, bool view_fixed,
		     struct target *ret);
void target_release(struct target *t);
/* The whole of a /proc file (dirfd, name), NUL-terminated; free() it. */
int target_read_file(int dirfd, const char *name, char **ret);
/*
 * t's soft limit named as /proc/PID/limits names it ("Max file size"),
 * readable by anyone where prlimit(2) of another process needs its uid or
 * CAP_SYS_RESOURCE; UINT64_MAX: unlimited.
 */
int target_read_limit(const struct target *t, const char *name, uint64_t *ret);
/*
 * The numbers after "key:" at the start of a line of a /proc status text
 * (up to max of them into vals, which may be NULL); returns how many.
 */
int target_status_numbers(const char *text, const char *key, int base, unsigned long long *vals,
			  size_t max);
/*
 * The directory a relative path starts from: the thread's cwd (dirfd ==
 * AT_FDCWD) or the file its dirfd refers to, as an O_PATH fd. -EBADF when
 * the target has no such fd (then ID_VALID tells a dead target apart).
 */
int target_open_dir(const struct target *t, int dirfd);
/* Its name under our /proc ("TID/cwd", "TID/fd/N"), or -EBADF. */
int target_dir_link(const struct target *t, int dirfd, char *ret, size_t size);

/*
 * Puts the target's root (chroot when it differs), umask, groups, fsgid,
 * fsuid and effective capabilities (its CapEff within our permitted set) on
 * the calling thread, which must have called unotify_thread_init().
 * Everything is per thread: raw setgroups/setfsuid/setfsgid/capset, never
 * glibc's broadcasting wrappers. On failure nothing stays changed.
 * Returns -ENOTRECOVERABLE when the thread could not be restored earlier.
 */
int target_enter(const struct target *t, struct target_saved *s);
/* What target_enter_as() puts on the thread besides the ids and capabilities. */
#define TARGET_ENTER_ROOT  (1u << 0) /* its root (a walk, or a name read from /proc/self/fd) */
#define TARGET_ENTER_UMASK (1u << 1) /* its umask (a call that creates) */
int target_enter_as(const struct target *t, unsigned int what, struct target_saved *s);
/*
 * Between target_enter() and target_leave(): the supervisor's own
 * credentials (fsuid, fsgid, groups, capabilities; not the root or umask)
 * back on the thread for a moment, then the target's again. Only for what
 * the target is owed (its own /proc entries, whose links the kernel lets it
 * follow whatever its credentials) and for looking at procfs owners; never
 * around anything whose result the target receives as its own access.
 * Outside target_enter() both do nothing. -ENOTRECOVERABLE as for leave.
 */
int target_suspend(void);
int target_resume(void);
/*
 * Undoes target_enter(). If any step fails the thread can no longer be
 * trusted to act as the supervisor: -ENOTRECOVERABLE is returned, now and
 * by every later target_enter() on this thread, and the caller must treat
 * it as fatal (stop supervising; the targets' calls then fail closed).
 */
int target_leave(struct target_saved *s);

/* Do two statx identities name the same directory or file (on the same mount)? */
static inline bool target_fid_equal(const struct target_fid *a, const struct target_fid *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->mnt == b->mnt;
}

/* The same file, through whatever mount (two mount namespaces each have their own). */
static inline bool target_fid_same_file(const struct target_fid *a, const struct target_fid *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/* statx: mode, owner, identity of an fd (AT_EMPTY_PATH). */
struct target_stat {
	mode_t mode;
	uid_t uid;
	gid_t gid;
	bool automount;     /* an automount trigger not yet triggered */
	dev_t rdev;         /* the device a device node stands for */
	struct target_fid fid;
};
int target_fstat(int fd, struct target_stat *ret);
/* statx of that directory, as target_fstat of target_open_dir's fd would say (2 calls fewer). */
int target_stat_dir(const struct target *t, int dirfd, struct target_stat *ret);

/* ---- procfs.c: whose a procfs directory is (run in the impersonated state) ---- */

enum procfs_owner {
	PROCFS_NONE,       /* not procfs, or no task's (/proc/sys) */
	PROCFS_ROOT,       /* the root of a procfs instance */
	PROCFS_TARGET,     /* of the target's own thread group: walked with our credentials */
	PROCFS_OTHER,      /* another task's: the kernel checks the target's credentials */
	PROCFS_SUPERVISOR, /* ours (a thread, a helper sharing our memory): never reached */
	PROCFS_UNKNOWN,    /* a task's we cannot tell: never reached */
};

/* One procfs instance as the target and we are numbered there. */
struct procfs_view {
	dev_t dev;               /* the instance described */
	int rootfd;              /* owned: its root, or -1 (nothing described yet) */
	pid_t sup_tgid;          /* our tgid there; 0: we are not visible there */
	unsigned int sup_depth;  /* how many levels its pid namespace is above ours */
	bool target_known;       /* target_tgid and target_tid are the target's numbers there */
	bool target_absent;      /* the target is not visible there ("self" is ENOENT for it) */
	pid_t target_tgid;
	pid_t target_tid;
};

bool procfs_is(int fd);
void procfs_view_release(struct procfs_view *v);
/* Describes the instance whose root is rootfd (on dev); kept in v until another is asked. */
int procfs_view_get(struct procfs_view *v, const struct target *t, int rootfd, dev_t dev);
/* The text of "self" (thread: "thread-self") for the target there; -ENOENT, or -EACCES. */
int procfs_self_text(const struct procfs_view *v, bool thread, char *text, size_t size);
/* topfd: a directory just below the instance's root rootfd. */
int procfs_owner_of_top(struct procfs_view *v, const struct target *t, int rootfd, dev_t dev,
			int topfd, enum procfs_owner *ret);
/* Any procfs directory: climbs to the instance's root to find the task it belongs to. */
int procfs_owner_of_dir(struct procfs_view *v, const struct target *t, int dirfd,
			const struct target_stat *st, enum procfs_owner *ret);

/* ---- target-cache.c ---- */

/*
 * 1 and a copy of the kept state of req's thread when it still holds; 0:
 * none, and *ret_epoch says when, for target_cache_put of what is read next.
 */
int target_cache_get(unotify_listener *l, const struct seccomp_notif *req, struct target *ret,
		     uint64_t *ret_epoch);
/*
 * Keeps a copy of t (read by target_read after target_cache_get gave
 * epoch), with pidfd, the thread's (taken), proved its by ID_VALID of
 * notification id after pidfd_open; not when a credential change was seen
 * since.
 */
void target_cache_put(unotify_listener *l, const struct target *t, int pidfd, uint64_t id,
		      uint64_t epoch);
/*
 * On a listener that watches credentials, before req is decided: a call
 * that changes its thread's credentials drops what was kept of the thread;
 * an exec by a thread that is not its process's leader ends all keeping.
 * -ENOMEM when that could not be recorded: the call must fail.
 */
int target_cache_watch(unotify_listener *l, const struct seccomp_notif *req);
/*
 * The name a directory (fid) had under the pinned root when last proved:
 * 1 and its text, or 0. A hint only: the caller proves it again.
 */
int target_cache_dir_get(unotify_listener *l, const struct target_fid *fid, char *ret,
			 size_t size);
void target_cache_dir_put(unotify_listener *l, const struct target_fid *fid, const char *name);

/* ---- name.c ---- */

/*
 * Is name (readlink of a /proc/self/fd link, relative to the pinned root)
 * a name of the file whose identity is fid, looked up from the pinned root
 * rootfd with no symlink followed? 1 yes, 0 no, or our -errno. A text that
 * is no path (pipe:[N]) counts as its name: no pattern can match it.
 */
int name_check(int rootfd, const char *name, const struct target_fid *fid);

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
	bool unnamed;       /* path is no name of the file under the pinned root (name.c) */
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
 * One openat2 where the kernel's lookup is exact for the target (resolve.c):
 * 1 settled (ret->fd, type, path), 0 the walk must settle it, -errno ours.
 * On a thread acting as t with its ids; no chroot needed.
 */
int resolve_kernel(const struct target *t, const struct resolve_how *how, struct resolved *ret);
/*
 * path against base (when path is relative), with ".", ".." and repeated
 * slashes removed without looking at any file. -ENAMETOOLONG when it does
 * not fit in size.
 */
int resolve_lexical(const char *base, const char *path, char *out, size_t size);
/*
 * The name of an fd of ours under the pinned root (the thread's root while
 * acting as t); *ret_unnamed when that text names another file or none.
 */
int resolve_fd_name(const struct target *t, int fd, char *out, size_t size, bool *ret_unnamed);

/* ---- resolve-ns.c: files the kernel binds to the namespaces of their opener ---- */

/*
 * Do the namespace links a and b (names under dirfd, /proc/...) name two
 * namespaces? 1 yes, 0 no, -errno.
 */
int resolve_ns_differs(int dirfd, const char *a, const char *b);
/*
 * Is the procfs directory fd (of no task: walk_owner's PROCFS_NONE), or
 * the name looked up in it when name is not NULL, bound to a namespace of
 * the target's that differs from ours? Lookups there and opens of it would
 * reach our namespace, not the target's: 1 (the caller refuses with
 * EACCES), 0, or -errno. *kinds: -1 at first, then which of the target's
 * namespaces differ (read once, kept by the caller for one walk).
 */
int resolve_ns_proc_foreign(const struct target *t, int *kinds, int fd, const char *name);
/*
 * Is st a device node whose open binds the opener's network namespace,
 * the target's being another? fresh: read it now; else as target_read
 * found it (t->same_netns). 1, 0 or -errno.
 */
int resolve_ns_dev_foreign(const struct target *t, const struct target_stat *st, bool fresh);

/* ---- refusal.c ---- */

/* The kernel's answer to a refused open of what was resolved (fd, type): a positive errno. */
int refusal_open(const struct target *t, int fd, mode_t type, uint64_t flags, bool creates);

#endif
