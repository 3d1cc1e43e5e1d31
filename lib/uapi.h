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
#include <stdbool.h>
#include <stdint.h>
#include <linux/audit.h>
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
/* Extended attributes by dirfd (6.13), inode flags by path (6.17): one number everywhere. */
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_listxattrat
#define SYS_listxattrat 465
#endif
#ifndef SYS_file_getattr
#define SYS_file_getattr 468
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

/*
 * Landlock (5.13). Debian 12's headers stop at ABI 2 (REFER); what a newer
 * kernel has is probed at run time (unotify_features.landlock_abi), never
 * assumed from these numbers.
 */
#ifdef HAVE_LINUX_LANDLOCK_H
#include <linux/landlock.h>
#endif
#if !HAVE_DECL_SYS_LANDLOCK_CREATE_RULESET
#define SYS_landlock_create_ruleset 444
#endif
#if !HAVE_DECL_SYS_LANDLOCK_ADD_RULE
#define SYS_landlock_add_rule 445
#endif
#if !HAVE_DECL_SYS_LANDLOCK_RESTRICT_SELF
#define SYS_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef LANDLOCK_ACCESS_FS_EXECUTE
#define LANDLOCK_RULE_PATH_BENEATH      1
#define LANDLOCK_ACCESS_FS_EXECUTE      (1ULL << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE   (1ULL << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE    (1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR     (1ULL << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR   (1ULL << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE  (1ULL << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR    (1ULL << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR     (1ULL << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG     (1ULL << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK    (1ULL << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO    (1ULL << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK   (1ULL << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM     (1ULL << 12)
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER        (1ULL << 13) /* ABI 2 */
#endif
#if !HAVE_DECL_LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE     (1ULL << 14) /* ABI 3 */
#endif
#if !HAVE_DECL_LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_RULE_NET_PORT          2            /* ABI 4 */
#define LANDLOCK_ACCESS_NET_BIND_TCP    (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#if !HAVE_DECL_LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV    (1ULL << 15) /* ABI 5 */
#endif
#if !HAVE_DECL_LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LANDLOCK_SCOPE_SIGNAL           (1ULL << 1)
#endif

/*
 * The kernel's struct landlock_ruleset_attr grew with the ABI (net in 4,
 * scoped in 6); ours is the newest, passed with the size the running
 * kernel's ABI takes (lib/landlock.c).
 */
struct unotify_ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct unotify_ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct unotify_ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

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

/* PROCMAP_QUERY (6.11): the mapping at an address, from a /proc/PID/maps fd (memory.c). */
#ifndef PROCMAP_QUERY
#include <sys/ioctl.h>
struct procmap_query {
	__u64 size;
	__u64 query_flags;
	__u64 query_addr;
	__u64 vma_start;
	__u64 vma_end;
	__u64 vma_flags;
	__u64 vma_page_size;
	__u64 vma_offset;
	__u64 inode;
	__u32 dev_major;
	__u32 dev_minor;
	__u32 vma_name_size;
	__u32 build_id_size;
	__u64 vma_name_addr;
	__u64 build_id_addr;
};
#define PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define PROCMAP_QUERY_VMA_WRITABLE 0x02
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
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000 /* statfs(2) f_flags of a nosymfollow mount, 5.10 */
#endif

/* The AUDIT_ARCH_* of the ABI we are built for: the only one a filter lets through. */
#if defined(__x86_64__) && !defined(__ILP32__)
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__) && !defined(__ILP32__)
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__) && defined(__ARMEL__)
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define UNOTIFY_AUDIT_ARCH AUDIT_ARCH_S390X
#else
#error "unknown architecture: add its AUDIT_ARCH_* to lib/uapi.h"
#endif

/* x32's calls: x86_64's AUDIT_ARCH, their numbers with this bit (no native number has it). */
#define UNOTIFY_X32_SYSCALL_BIT 0x40000000

/*
 * A call through the ABI we are built for, the only numbering a policy
 * names. Our own filters kill the others in the kernel; a filter we did
 * not write (an OCI runtime's, from a profile that lists i386 and x32 as
 * x86_64's sub-architectures) may send them, numbered in their own table:
 * i386's 5 is open, x86_64's 5 is fstat.
 */
static inline bool unotify_call_is_native(const struct seccomp_data *d)
{
	return d->arch == UNOTIFY_AUDIT_ARCH && d->nr >= 0 && !(d->nr & UNOTIFY_X32_SYSCALL_BIT);
}

#endif
