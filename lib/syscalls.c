/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every system call libunotify makes in a supervising process, by the work
 * that makes it (unotify.h, enum unotify_work): the one list a supervisor
 * that confines itself with a seccomp allowlist builds it from (unotifyd:
 * daemon/unotifyd/harden.c, which adds its own calls and those of the
 * works its engine performs).
 *
 * Keep it whole: a call added to lib/ goes into the table of the work that
 * makes it, in the same change; through a libc wrapper, the call the
 * wrapper makes (open(3) is openat, waitpid(3) wait4, stat(3) newfstatat).
 * The allocator's and the thread library's own calls (brk, mmap, futex,
 * ...) are the supervisor's to allow. tests/live/daemon/families.sh runs
 * every work through unotifyd with a filter that kills on a missing call.
 */
#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "uapi.h"
#include "unotify.h"
#include "util.h"

#define ANY(name) { SYS_##name, -1, 0, 0 }
#define ARG_EQ(name, n, v) { SYS_##name, (n), UINT64_MAX, (uint64_t)(v) }

/* Every sandbox: the listener, target memory, the target's identity, resolution, acting as it. */
static const struct unotify_syscall_rule work_supervise[] = {
	/* the listener (listener.c, gate.c) */
	ARG_EQ(ioctl, 1, SECCOMP_IOCTL_NOTIF_RECV),
	ARG_EQ(ioctl, 1, SECCOMP_IOCTL_NOTIF_SEND),
	ARG_EQ(ioctl, 1, SECCOMP_IOCTL_NOTIF_ID_VALID),
	ARG_EQ(ioctl, 1, _IOR(SECCOMP_IOC_MAGIC, 2, __u64)), /* ID_VALID as Linux < 5.17 spells it */
	ARG_EQ(ioctl, 1, SECCOMP_IOCTL_NOTIF_ADDFD),
	ARG_EQ(ioctl, 1, SECCOMP_IOCTL_NOTIF_SET_FLAGS),
	ARG_EQ(seccomp, 0, SECCOMP_GET_NOTIF_SIZES),
	/* the listener; a kept target's thread still alive (target-cache.c) */
#ifdef SYS_poll
	ANY(poll),
#endif
	ANY(ppoll),
	/*
	 * target memory (memory.c): read by process_vm_readv or /proc/PID/mem;
	 * written through /proc/PID/mem, its pages checked writable first
	 * (PROCMAP_QUERY on /proc/PID/maps, or its text before Linux 6.11)
	 */
	ANY(process_vm_readv),
	ANY(pread64),
	ANY(pwrite64),
	ARG_EQ(ioctl, 1, PROCMAP_QUERY),
	/* the target: /proc, pidfds (target.c, emulate-path.c) */
	ANY(openat),
#ifdef SYS_open
	ANY(open),
#endif
	ANY(read),
	ANY(close),
	ANY(statx),
	ANY(newfstatat),
	ANY(readlinkat),
	ANY(fcntl),
	ANY(pidfd_open),
	ARG_EQ(ioctl, 1, PIDFD_GET_INFO), /* a kept target's ids, per call (target-cache.c) */
	ANY(pidfd_getfd),
	ANY(pidfd_send_signal),
	ANY(kcmp),
	ANY(getpid),
	ANY(gettid),
	/* resolution (resolve.c); names (name.c); procfs owners (procfs.c) */
	ANY(openat2),
	ANY(fstatfs),
	ARG_EQ(ioctl, 1, NS_GET_PARENT), /* where the target is in a /proc of another pid namespace */
	/*
	 * several supervising threads (pool.c): the interrupt signal's handler
	 * (and its return), sent to one thread, and taken if still pending when
	 * the wait it was for has ended; the threads themselves are the thread
	 * library's (clone, futex, mmap)
	 */
	ANY(rt_sigaction),
	ANY(rt_sigreturn),
	ANY(rt_sigprocmask),
	ANY(rt_sigtimedwait),
	ANY(getdents64), /* the other threads of a target with a signal pending (pool.c) */
	ANY(tgkill),
	ANY(clock_gettime),
	ANY(sched_getaffinity),
	/* a listener makes its process non-dumpable (listener.c) */
	ARG_EQ(prctl, 0, PR_SET_DUMPABLE),
	/* acting as the target in this thread (target.c): its gids, effective uid, fs ids */
	ARG_EQ(unshare, 0, CLONE_FS),
	ANY(capget),
	ANY(capset),
	ANY(geteuid),
	ANY(getresgid),
	ANY(setresuid),
	ANY(setresgid),
	ANY(setfsuid),
	ANY(setfsgid),
	ANY(setgroups),
	ANY(getgroups),
	ANY(umask),
	ANY(fchdir),
	ANY(chroot),
};

/*
 * A helper process that is the target (helper.c), for a network call or a
 * queue's create. Our side: its stack, clone(CLONE_VM | CLONE_VFORK),
 * reaping; a pool kills the helper of a call that went away (pool.c). The
 * helper: becoming the target (its RLIMIT_MSGQUEUE for a create), closing
 * the descriptors the call does not use, then the work's call.
 */
#define WORK_HELPER                                                                      \
	ANY(mmap), ANY(munmap), ANY(rt_sigprocmask), ANY(getgroups), ANY(wait4),         \
	ARG_EQ(clone, 0, CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | SIGCHLD),       \
	ARG_EQ(kill, 1, SIGKILL),                                                        \
	ARG_EQ(prlimit64, 0, 0),                                                         \
	ANY(capget), ANY(capset),                                                        \
	ARG_EQ(prctl, 0, PR_SET_PDEATHSIG), ARG_EQ(prctl, 0, PR_SET_KEEPCAPS),          \
	ARG_EQ(prctl, 0, PR_SET_DUMPABLE),                                               \
	ANY(setgroups), ANY(setresgid), ANY(setresuid), ANY(setfsgid), ANY(setfsuid),    \
	ANY(umask), ANY(close_range), ANY(exit)

/*
 * unotify_open_perform (open.c): the open as the target; a FIFO writer
 * waits, retrying; a queue on an mqueue mount is created by a helper.
 */
static const struct unotify_syscall_rule work_open[] = {
	ANY(openat),
	ANY(fcntl),
	ANY(nanosleep),
	ANY(clock_nanosleep),
	ANY(fstatfs),
	WORK_HELPER,
	/* the queue the helper opened comes back over a socket pair (emulate-queue.c) */
	ANY(socketpair),
	ANY(sendmsg),
	ANY(recvmsg),
};

/*
 * unotify_path_stat, _statx, _readlink, _access (emulate-stat.c); _getxattr,
 * _listxattr, _file_getattr (emulate-xattr.c: by the magic link, cwd /proc).
 */
static const struct unotify_syscall_rule work_stat[] = {
	ANY(newfstatat),
	ANY(statx),
	ANY(readlinkat),
	ANY(faccessat2),
	ANY(getxattr),
	ANY(listxattr),
	ANY(file_getattr),
};

/*
 * unotify_path_unlink ... _truncate (emulate-mutate.c): the *at calls on
 * what was resolved; a queue made by mknod on an mqueue mount, by a helper.
 */
static const struct unotify_syscall_rule work_mutate[] = {
	ANY(unlinkat),
	ANY(mkdirat),
	ANY(mknodat),
	ANY(renameat2),
	ANY(linkat),
	ANY(symlinkat),
	ANY(fchmodat),
	ANY(fchmodat2),
	ANY(fchownat),
	ANY(utimensat),
	ANY(openat),
	ANY(ftruncate),
	ANY(setxattr), /* unotify_path_setxattr, _removexattr: by the magic link, cwd /proc */
	ANY(removexattr),
	ANY(fstatfs),
	WORK_HELPER,
};

/* unotify_net_* (emulate-net.c): a helper process with the target's credentials makes the call. */
static const struct unotify_syscall_rule work_net[] = {
	/* the engine's any-address: the address the target's socket is bound to (enforce-net.c) */
	ANY(getsockname),
	WORK_HELPER,
	ANY(fchdir), /* the helper's cwd, for a relative unix path */
	ANY(connect),
	ANY(bind),
	ANY(sendmsg),
	/* a listen, performed on the target's socket; undone by shutdown (enforce-listen.c) */
	ANY(listen),
	ANY(shutdown),
	ANY(getpid),
};

static const struct {
	const struct unotify_syscall_rule *rules;
	size_t n;
} works[] = {
	[UNOTIFY_WORK_SUPERVISE] = { work_supervise, ARRAY_SIZE(work_supervise) },
	[UNOTIFY_WORK_OPEN] = { work_open, ARRAY_SIZE(work_open) },
	[UNOTIFY_WORK_STAT] = { work_stat, ARRAY_SIZE(work_stat) },
	[UNOTIFY_WORK_MUTATE] = { work_mutate, ARRAY_SIZE(work_mutate) },
	[UNOTIFY_WORK_NET] = { work_net, ARRAY_SIZE(work_net) },
};

_Static_assert(ARRAY_SIZE(works) == UNOTIFY_WORK_COUNT, "a work without its table");

size_t unotify_work_syscalls(enum unotify_work work, const struct unotify_syscall_rule **ret)
{
	if ((unsigned int)work >= ARRAY_SIZE(works)) {
		*ret = NULL;
		return 0;
	}
	*ret = works[work].rules;
	return works[work].n;
}
