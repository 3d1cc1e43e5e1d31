/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The system calls that change the calling thread's credentials as a
 * supervisor acting for it uses them: its eight ids, its groups, its
 * effective and permitted capabilities. A filter that notifies each of
 * them (policy/compile.c, with the implicit set fixed-view) lets the
 * supervisor keep what a thread is between its calls and drop it when one
 * comes (lib/target-cache.c), instead of proving it afresh every call.
 *
 * Why these are all, on a filter that also holds fixed-view: credentials
 * are per thread, and only the thread itself commits new ones (the
 * kernel's commit_creds() acts on current). Its ids change by the set*id
 * family and setfsuid/setfsgid, its groups by setgroups, its effective
 * and permitted sets by capset, those calls and execve/execveat (set-id and
 * file-capability programs). prctl's PR_CAPBSET_DROP, PR_CAP_AMBIENT and
 * securebits change nothing of these until the next setuid or exec, which
 * come here. A new user namespace (unshare, clone, setns) is refused by
 * fixed-view; keyctl's session keyrings and Landlock's domain are not
 * credentials the supervisor acts with. The 32-bit calls (setuid32, ...)
 * exist only for the ABIs the filter kills.
 *
 * Shared by the library and the policy compiler, for the native ABI.
 */
#ifndef UNOTIFY_CREDS_CALLS_H
#define UNOTIFY_CREDS_CALLS_H

#include <stdbool.h>
#include <sys/syscall.h>

/* How many cases creds_call() has: a filter written by hand lists as many. */
#define CREDS_CALLS_COUNT 12

static inline bool creds_call(long nr)
{
	switch (nr) {
	case SYS_setuid:
	case SYS_setgid:
	case SYS_setreuid:
	case SYS_setregid:
	case SYS_setresuid:
	case SYS_setresgid:
	case SYS_setfsuid:
	case SYS_setfsgid:
	case SYS_setgroups:
	case SYS_capset:
	case SYS_execve:
	case SYS_execveat:
		return true;
	default:
		return false;
	}
}

/* The exec calls: the thread that makes one may take its leader's thread id. */
static inline bool creds_call_is_exec(long nr)
{
	return nr == SYS_execve || nr == SYS_execveat;
}

#endif
