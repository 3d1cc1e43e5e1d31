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
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
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
#if !HAVE_DECL_SYS_PIDFD_SEND_SIGNAL
#define SYS_pidfd_send_signal 424
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000 /* <fcntl.h> with _GNU_SOURCE; 2.6.39 */
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1 /* open_tree(2), 5.2; <sys/mount.h> since glibc 2.36 */
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

/* Used by the adversarial programs; their headers first, so a definition there wins. */
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2) /* renameat2(2), 3.18; <stdio.h> since glibc 2.28 */
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000 /* TCP fast open by sendto(2), 3.7 */
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1 /* userfaultfd(2), 5.11 */
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00) /* /dev/userfaultfd, 6.1 */
#endif

#endif
