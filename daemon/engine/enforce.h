/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decision engine shared by `unotify run` and unotifyd: turns a
 * notification into a verdict by the policy, performs what must be performed
 * in the supervisor (every call allowed after a decision on its memory:
 * opens, the stat family, calls that change files, connect, bind, sendto,
 * sendmsg; see enforce-call.h), writes the audit trail and keeps
 * per-syscall statistics.
 */
#ifndef UNOTIFY_ENFORCE_H
#define UNOTIFY_ENFORCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/unotify.h"
#include "policy/policy.h"
#include "audit/audit.h"

struct enforcer {
	const struct policy *policy;   /* NULL: fail closed, every call gets EPERM */
	const char *fail_reason;       /* why policy is NULL (logged once) */
	struct audit *audit;           /* NULL: no audit trail */
	/* This sandbox's use of the trail's budget: audit_limit_init, then audit_limit_end. */
	struct audit_limit audit_limit;
	const char *sandbox;           /* name in the audit trail, NULL for run */
	void *user;                    /* the caller's own data */
	/* Also gets every audit record, trail or not (run --record); NULL: none. */
	void (*observe)(struct enforcer *e, const struct audit_record *r);
	/*
	 * The sandbox's filter is the kernel layer of policy (unotify run
	 * loaded it): when that has the implicit set fixed-view, no target
	 * can change its root or user namespace, and what a thread is may be
	 * kept between its calls (unotify_target_new_kept). false: read anew.
	 */
	bool filter_is_policy;
	atomic_int view_fixed;         /* 0: not asked yet, 1: fixed, 2: not */
	atomic_ullong notifications;
	atomic_ullong denials;
	atomic_ullong audited;         /* decisions the audit trail recorded */
	atomic_ullong unaudited;       /* and those its --log-level left out */
};

/*
 * unotify_decide_fn for the loop: userdata is a struct enforcer. Never
 * fails open: an internal error denies the call.
 */
int enforce_decide(unotify_listener *l, const struct seccomp_notif *req,
		   struct unotify_verdict *ret, void *userdata);

/*
 * The library works (a mask of 1 << UNOTIFY_WORK_*) the engine may use
 * deciding and performing any call of any family: what a supervisor that
 * confines itself must allow (unotify_work_syscalls). -EINVAL when a family
 * declares none (*ret_nr is one of its calls): a bug, never started with.
 */
int enforce_works(unsigned int *ret, int *ret_nr);

#endif
