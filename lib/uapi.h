/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel ABI newer than the build host's headers. Debian 12 ships the 6.1
 * uapi, which lacks SET_FLAGS and SYNC_WAKE_UP (6.6); configure probes each
 * constant (AC_CHECK_DECLS) and we define what is missing here, once.
 */
#ifndef UNOTIFY_UAPI_H
#define UNOTIFY_UAPI_H

#include "config.h"
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#if !HAVE_DECL_SECCOMP_IOCTL_NOTIF_SET_FLAGS
/* SECCOMP_IOW(4, __u64); the flag itself is passed by value, not by pointer. */
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS _IOW(SECCOMP_IOC_MAGIC, 4, __u64)
#endif
#if !HAVE_DECL_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif
#if !HAVE_DECL_SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#if !HAVE_DECL_SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif
#if !HAVE_DECL_SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif
#if !HAVE_DECL_SYS_PIDFD_OPEN
#define SYS_pidfd_open 434
#endif
#if !HAVE_DECL_SYS_PIDFD_GETFD
#define SYS_pidfd_getfd 438
#endif
#if !HAVE_DECL_SYS_OPENAT2
#define SYS_openat2 437
#endif

/* System calls newer than the oldest headers we build with. */
#ifndef SYS_renameat2
#define SYS_renameat2 316
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif
#ifndef STATX__RESERVED
#define STATX__RESERVED 0x80000000U
#endif
/* pidfd_open(2) of a thread (6.9); shares O_EXCL's bit. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

#ifndef KCMP_FILES
#define KCMP_FILES 2
#endif
#ifndef KCMP_VM
#define KCMP_VM 1
#endif

/* nsfs ioctl (4.9): the parent of a pid namespace; EPERM above the caller's own. */
#include <linux/nsfs.h>
#ifndef NS_GET_PARENT
#define NS_GET_PARENT _IO(0xb7, 0x2)
#endif
#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* openat2(2) (5.6): its header is missing from older build hosts. */
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#endif
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV       0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS   0x04
#define RESOLVE_BENEATH       0x08
#define RESOLVE_IN_ROOT       0x10
#endif
#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED 0x20
#endif

/* PIDFD_GET_INFO (6.13): a task's ids read through its pidfd (target-cache.c). */
#ifndef PIDFD_GET_INFO
#include <sys/ioctl.h>
struct pidfd_info {
	__u64 mask;
	__u64 cgroupid;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 ruid;
	__u32 rgid;
	__u32 euid;
	__u32 egid;
	__u32 suid;
	__u32 sgid;
	__u32 fsuid;
	__u32 fsgid;
	__s32 exit_code;
};
#define PIDFD_GET_INFO _IOWR(0xFF, 11, struct pidfd_info)
#define PIDFD_INFO_PID   (1UL << 0)
#define PIDFD_INFO_CREDS (1UL << 1)
#endif

#endif
