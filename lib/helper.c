/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A helper process that is the target, for one call (helper.h says when).
 * Its pid is its own (documented in unotify.h); nothing else differs.
 *
 * Why not the supervising thread with all of the target's ids: a thread
 * of the target's real or saved uid takes signals and prlimit from any
 * process of that uid, and a SIGKILL to one thread kills the supervisor.
 * A helper that is killed fails its one call.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "helper.h"
#include "internal.h"
#include "util.h"

/*
 * clone(CLONE_VM | CLONE_VFORK), as posix_spawn does: no copy of our
 * address space (fork's cost grows with it), and we wait anyway.
 */
#define HELPER_STACK (64 * 1024)

/*
 * ThreadSanitizer intercepts clone() and runs its fork bookkeeping in the
 * child, which with CLONE_VM is in our own memory: the supervisor would then
 * believe it had forked and die at its next pthread_create. glibc's
 * __clone is the same function, not intercepted.
 */
#if defined(__SANITIZE_THREAD__)
int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
#define HELPER_CLONE __clone
#else
#define HELPER_CLONE clone
#endif

struct helper {
	const struct target *target;
	const struct helper_call *call;
	struct rlimit msgqueue;  /* its RLIMIT_MSGQUEUE, when call->sets_msgqueue */
	bool groups_equal;       /* no setgroups needed (an unprivileged supervisor cannot) */
	long result;             /* written by the helper */
};

/* ---- In the helper ---- */

HELPER_CHILD static long helper_capset(const struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return helper_sys(syscall(SYS_capset, &h, data));
}

/* Sets the target's capabilities (within ours); eff_all: our whole permitted set for now. */
HELPER_CHILD static long helper_set_caps(const struct target *t,
					 const struct __user_cap_data_struct *ours, bool eff_all)
{
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];

	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		uint32_t prm = (uint32_t)(t->cap_prm >> (32 * i)) & ours[i].permitted;
		uint32_t eff = (uint32_t)(t->cap_eff >> (32 * i)) & ours[i].permitted;

		caps[i].permitted = eff_all ? ours[i].permitted : prm | eff;
		caps[i].effective = eff_all ? ours[i].permitted : eff;
		caps[i].inheritable = 0;
	}
	return helper_capset(caps);
}

HELPER_CHILD static long helper_set_ids(const struct helper *h)
{
	const struct target *t = h->target;
	long r = 0;

	if (!h->groups_equal)
		r = helper_sys(syscall(SYS_setgroups, t->ngroups, t->groups));
	if (r == 0)
		r = helper_sys(syscall(SYS_setresgid, t->gid, t->egid, t->sgid));
	/* Keep the permitted set across setresuid, to set the fs ids and the target's caps. */
	if (r == 0)
		r = helper_sys(syscall(SYS_prctl, PR_SET_KEEPCAPS, 1, 0, 0, 0));
	if (r == 0)
		r = helper_sys(syscall(SYS_setresuid, t->uid, t->euid, t->suid));
	/*
	 * The new euid made our memory as dumpable as fs.suid_dumpable says
	 * (commit_creds); at 1 ("debug") the target's uid could trace this
	 * process, whose memory and descriptors are the supervisor's.
	 */
	if (r == 0)
		r = helper_sys(syscall(SYS_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0));
	return r;
}

/* The target's RLIMIT_MSGQUEUE: a queue it creates is checked against it. */
HELPER_CHILD static long helper_set_limits(const struct helper *h)
{
	if (!h->call->sets_msgqueue)
		return 0;
	return helper_sys(syscall(SYS_prlimit64, 0, RLIMIT_MSGQUEUE, &h->msgqueue, NULL));
}

HELPER_CHILD static long helper_become(const struct helper *h)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct ours[_LINUX_CAPABILITY_U32S_3];
	const struct target *t = h->target;
	long r = helper_sys(syscall(SYS_capget, &hdr, ours));

	if (r == 0)
		r = helper_sys(syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0));
	if (r == 0)
		r = helper_set_limits(h);
	if (r == 0)
		r = helper_set_ids(h);
	if (r == 0)
		r = helper_set_caps(t, ours, true);
	if (r < 0)
		return r;
	syscall(SYS_setfsgid, t->fsgid);
	syscall(SYS_setfsuid, t->fsuid);
	if ((gid_t)syscall(SYS_setfsgid, (gid_t)-1) != t->fsgid ||
	    (uid_t)syscall(SYS_setfsuid, (uid_t)-1) != t->fsuid)
		return -EPERM;
	r = helper_set_caps(t, ours, false);
	syscall(SYS_umask, t->umask);
	return r;
}

HELPER_CHILD long helper_close_others(int *keep, size_t n)
{
	unsigned int from = 0;

	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < from)
			continue;
		if ((unsigned int)keep[i] > from &&
		    syscall(SYS_close_range, from, (unsigned int)keep[i] - 1, 0) < 0)
			return -errno;
		from = (unsigned int)keep[i] + 1;
	}
	return helper_sys(syscall(SYS_close_range, from, ~0U, 0));
}

HELPER_CHILD static int helper_main(void *arg)
{
	struct helper *h = arg;
	long r = helper_become(h);

	if (r == 0)
		r = h->call->run(h->call->arg);
	h->result = r;
	syscall(SYS_exit, 0);
	return 0;
}

/* ---- In the supervisor ---- */

static bool helper_groups_equal(const struct target *t)
{
	_cleanup_free_ gid_t *ours = NULL;
	int n = getgroups(0, NULL);

	if (n < 0 || (size_t)n != t->ngroups)
		return false;
	ours = calloc((size_t)n + 1, sizeof(gid_t));
	if (!ours || getgroups(n, ours) != n)
		return false;
	return n == 0 || memcmp(ours, t->groups, (size_t)n * sizeof(gid_t)) == 0;
}

/* Ours is the hard limit: a helper cannot raise past it without CAP_SYS_RESOURCE. */
static int helper_msgqueue(const struct helper_call *call, struct rlimit *ret)
{
	rlim_t want;

	if (!call->sets_msgqueue)
		return 0;
	if (getrlimit(RLIMIT_MSGQUEUE, ret) < 0)
		return negative_errno();
	want = call->msgqueue_limit == UINT64_MAX ? RLIM_INFINITY : (rlim_t)call->msgqueue_limit;
	if (ret->rlim_max != RLIM_INFINITY && (want == RLIM_INFINITY || want > ret->rlim_max))
		want = ret->rlim_max;
	ret->rlim_cur = want;
	return 0;
}

long helper_run(unotify_target *t, const struct helper_call *call)
{
	struct helper h = { .target = &t->t, .call = call, .result = -EIO };
	int flags = CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | SIGCHLD;
	sigset_t all, saved;
	void *stack;
	int status, r;
	pid_t pid;

	r = helper_msgqueue(call, &h.msgqueue);
	if (r < 0)
		return r;
	h.groups_equal = helper_groups_equal(&t->t);
	stack = mmap(NULL, HELPER_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return negative_errno();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	/*
	 * CLONE_PARENT_SETTID: the helper's pid is known (to a supervising
	 * pool, which kills it if the call goes away) while clone still waits
	 * for it: a connect that is never accepted would otherwise hold us,
	 * and so would any helper stopped by a process of the program's uid.
	 */
	if (call->may_block)
		pool_may_block();
	else
		pool_wait_begin();
	pid = HELPER_CLONE(helper_main, (char *)stack + HELPER_STACK, flags, &h,
			   pool_helper_slot());
	pool_helper_done();
	if (pid < 0)
		h.result = negative_errno();
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	/* CLONE_VFORK: the helper has exited by now; reap it. */
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	munmap(stack, HELPER_STACK);
	return h.result;
}
