/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libunotify's private interfaces, shared by the files of lib/ (not installed,
 * not exported: the version script exports unotify_* only).
 */
#ifndef UNOTIFY_INTERNAL_H
#define UNOTIFY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "unotify.h"

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
#error "unknown architecture: add its AUDIT_ARCH_* to lib/internal.h"
#endif

/* Replies are built on the stack (thread-safe); the kernel's struct must fit. */
#define LISTENER_RESP_MAX 128

/*
 * One seccomp notification fd. Receiving uses the listener's buffer, so one
 * thread receives per listener (the kernel wakes every blocked receiver
 * anyway, Linux 6.6+); replies, ID_VALID and memory access may come from
 * any thread.
 */
struct unotify_listener {
	int fd;                          /* the seccomp notify fd, owned (closed by _free) */
	struct seccomp_notif_sizes sizes; /* SECCOMP_GET_NOTIF_SIZES, never below our headers' */
	struct seccomp_notif *req;       /* receive buffer, sizes.seccomp_notif bytes, zeroed per RECV */
	bool sync;                       /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP currently set */
	bool sync_unsupported;           /* SET_FLAGS answered EINVAL/ENOTTY: never retried */
};

/* listener.c: hands the fd back (the caller owns it) and frees the rest. */
int listener_release_fd(struct unotify_listener *l);
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

#endif
