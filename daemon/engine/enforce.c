/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decision engine. The policy decides; what it allows after reading
 * the target's memory (a path, openat2's flags, an address) is performed
 * here and its result given back, never CONTINUEd: between our read of the
 * target's memory and the kernel's own, another thread of the target could
 * change it. Each family of calls lives in its own file (enforce-call.h);
 * this one runs the policy, turns its decision into a verdict, and writes
 * the audit trail.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforce-call.h"
#include "enforce.h"
#include "lib/uapi.h"
#include "lib/util.h"

const struct enforce_family *enforce_family_find(int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	if (pc) {
		switch (pc->perform) {
		case POLICY_PERFORM_OPEN:
			return &enforce_open_family;
		case POLICY_PERFORM_STAT:
		case POLICY_PERFORM_READLINK:
		case POLICY_PERFORM_ACCESS:
			return &enforce_stat_family;
		case POLICY_PERFORM_MUTATE:
			return &enforce_mutate_family;
		case POLICY_PERFORM_XATTR:
			return &enforce_xattr_family;
		case POLICY_PERFORM_NONE:
			return &enforce_exec_family;
		}
		return NULL;
	}
	if (nr == SYS_connect || nr == SYS_bind || nr == SYS_sendto || nr == SYS_sendmsg)
		return &enforce_net_family;
	if (nr == SYS_listen)
		return &enforce_listen_family;
	return NULL;
}

/* Syscall numbers are below this on every architecture Linux has (x32's carry a bit: not native). */
#define ENFORCE_NR_MAX 1024

int enforce_works(unsigned int *ret, int *ret_nr)
{
	unsigned int works = 0;

	for (int nr = 0; nr < ENFORCE_NR_MAX; nr++) {
		const struct enforce_family *f = enforce_family_find(nr);

		if (f && f->works == 0) {
			*ret_nr = nr;
			return -EINVAL;
		}
		works |= f ? f->works : 0;
	}
	*ret = works;
	return 0;
}

/* ---- Helpers for the families ---- */

/* Is what was read without ID_VALID (enforce_read_path) the target's? -ENOENT: it is gone. */
static int enforce_prove_reads(struct enforce_call *c)
{
	if (!c->reads_unproven)
		return 0;
	if (!unotify_target_proves_reads(c->target) && unotify_id_valid(c->l, c->req->id) < 0)
		return -ENOENT;
	c->reads_unproven = false;
	return 0;
}

int enforce_target(struct enforce_call *c, unotify_target **ret)
{
	int r;

	if (!c->target) {
		r = c->kept_ok ? unotify_target_new_kept(c->l, c->req, c->view_fixed, &c->target)
			       : unotify_target_new(c->l, c->req, &c->target);
		if (r == -ENOTRECOVERABLE)
			c->broken = true;
		if (r < 0)
			return r;
		if (c->real_ids)
			unotify_target_use_real_ids(c->target);
	}
	if (enforce_prove_reads(c) < 0) {
		/* Not this call's thread: nothing may act with what was read of it. */
		unotify_target_free(c->target);
		c->target = NULL;
		return -ENOENT;
	}
	*ret = c->target;
	return 0;
}

/*
 * What one call needs in memory beyond its stack (two path buffers and the
 * open family's plan: some 26 KB) is kept per supervising thread and used
 * again, not allocated and zeroed for every call (0.5 us of an open here:
 * malloc's large chunks, their consolidation, the cache lines). A thread
 * decides one call at a time; a second one meanwhile (none today) would
 * allocate. Freed when the thread ends.
 */
struct enforce_scratch {
	bool paths_busy;
	bool state_busy;
	struct enforce_path paths[2];
	union {
		max_align_t align;
		unsigned char bytes[ENFORCE_STATE_KEPT];
	} state;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static __thread struct enforce_scratch *scratch;

static void scratch_key_make(void)
{
	(void)pthread_key_create(&scratch_key, free);
}

static struct enforce_scratch *enforce_scratch(void)
{
	if (scratch)
		return scratch;
	pthread_once(&scratch_once, scratch_key_make);
	scratch = malloc(sizeof(*scratch));
	if (!scratch)
		return NULL;
	scratch->paths_busy = false;
	scratch->state_busy = false;
	if (pthread_setspecific(scratch_key, scratch) != 0) {
		free(scratch);
		scratch = NULL;
	}
	return scratch;
}

void *enforce_alloc_state(struct enforce_call *c, size_t size)
{
	struct enforce_scratch *s = size <= ENFORCE_STATE_KEPT ? enforce_scratch() : NULL;

	c->state_kept = s && !s->state_busy;
	if (c->state_kept) {
		s->state_busy = true;
		c->state = s->state.bytes;
	} else {
		c->state = malloc(size);
	}
	return c->state;
}

void enforce_free_state(struct enforce_call *c)
{
	if (c->state_kept)
		scratch->state_busy = false;
	else
		free(c->state);
	c->state_kept = false;
	c->state = NULL;
}

int enforce_fail(struct enforce_call *c, int err)
{
	if (!c->read_error)
		c->read_error = err;
	return -err;
}

struct enforce_path *enforce_paths(struct enforce_call *c)
{
	/* Not zeroed (two path buffers each): what is read of it is behind these flags. */
	if (!c->paths) {
		struct enforce_scratch *s = enforce_scratch();

		c->paths_kept = s && !s->paths_busy;
		if (c->paths_kept) {
			s->paths_busy = true;
			c->paths = s->paths;
		} else {
			c->paths = malloc(2 * sizeof(*c->paths));
		}
		for (int n = 0; c->paths && n < 2; n++) {
			c->paths[n].have_arg = false;
			c->paths[n].resolved = false;
		}
	}
	return c->paths;
}

int enforce_read_path(struct enforce_call *c, int n, uint64_t addr)
{
	struct enforce_path *p = enforce_paths(c);
	int r;

	if (!p)
		return enforce_fail(c, ENOMEM);
	p += n;
	if (p->have_arg)
		return 0;
	/*
	 * A call that may take a kept target reads first and gets its target
	 * next, which proves the read on a listener that watches credentials
	 * (lib/target-cache.c): no ID_VALID of its own.
	 */
	if (c->kept_ok && !c->target) {
		r = unotify_mem_read_string_unproven(c->l, c->req, addr, p->arg, sizeof(p->arg));
		c->reads_unproven |= r >= 0;
	} else {
		r = unotify_mem_read_string(c->l, c->req, addr, p->arg, sizeof(p->arg));
	}
	if (r < 0)
		/* EFAULT, ENAMETOOLONG: the target's own call fails so (ENOENT: it is gone). */
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	if (enforce_folds_dots(c, p->arg))
		enforce_fold_dots(p->arg);
	p->have_arg = true;
	return 0;
}

int enforce_resolve_path(struct enforce_call *c, int n, struct unotify_path_how *how,
			 const char **ret_path)
{
	struct enforce_path *p = enforce_paths(c);
	unotify_target *t;
	int r;

	if (!p)
		return enforce_fail(c, ENOMEM);
	p += n;
	if (!p->resolved) {
		r = enforce_target(c, &t);
		if (r == 0) {
			how->path = p->have_arg ? p->arg : NULL;
			how->guess = how->guess && !c->careful;
			r = unotify_path_resolve(t, how, &p->res);
		}
		if (r == 0 && p->res.guessed)
			c->guessed = true;
		if (r == -ENOTRECOVERABLE)
			c->broken = true;
		if (r < 0)
			return enforce_fail(c, r == -ENOENT ? ENOENT : EPERM);
		p->resolved = true;
	}
	*ret_path = p->res.path;
	return 0;
}

int enforce_target_first(struct enforce_call *c, int early)
{
	unotify_target *t;
	int r;

	if (early)
		return enforce_fail(c, early);
	r = enforce_target(c, &t);
	return r < 0 ? enforce_fail(c, r == -ENOENT ? ENOENT : EPERM) : 0;
}

int enforce_resolve_file(struct enforce_call *c, int dirfd, uint64_t addr, bool nofollow,
			 bool empty_path, const char **ret_path)
{
	struct unotify_path_how how = {
		.dirfd = dirfd,
		.walk = nofollow ? UNOTIFY_WALK_NOFOLLOW : UNOTIFY_WALK_FOLLOW,
		.empty_path = empty_path,
		.guess = true,
	};
	int r;

	/* A NULL path with AT_EMPTY_PATH is the dirfd's file (Linux 6.11); else EFAULT. */
	if (!(addr == 0 && empty_path)) {
		r = enforce_read_path(c, 0, addr);
		if (r < 0)
			return r;
	}
	return enforce_resolve_path(c, 0, &how, ret_path);
}

void enforce_verdict_errno(struct unotify_verdict *v, int err)
{
	*v = unotify_verdict_errno(err);
}

void enforce_result(struct enforce_call *c, struct unotify_verdict *v, int64_t r)
{
	if (r == -ENOTRECOVERABLE)
		c->broken = true;
	if (r < 0)
		enforce_verdict_errno(v, (int)-r);
	else
		*v = unotify_verdict_value(r);
}

const struct unotify_path *enforce_perform_path(struct enforce_call *c, struct unotify_verdict *v)
{
	const char *ignored;
	int r = c->family->path(c, 0, &ignored);

	if (r < 0) {
		enforce_verdict_errno(v, c->read_error ? c->read_error : -r);
		return NULL;
	}
	return &c->paths[0].res;
}

void enforce_result_file(struct enforce_call *c, struct unotify_verdict *v, int64_t r)
{
	if (r == -UNOTIFY_EGUESS) {
		c->guess_wrong = true; /* nothing done: decided again on the name (enforce_decide) */
		return;
	}
	enforce_result(c, v, r);
}

void enforce_verdict_signal(struct enforce_call *c, struct unotify_verdict *v, int sig, int err)
{
	switch (unotify_target_sig_disposition(c->target, sig)) {
	case UNOTIFY_SIG_DEFAULT:
		unotify_target_signal(c->target, sig);
		break;
	case UNOTIFY_SIG_CAUGHT:
		unotify_reply_errno(c->l, c->req->id, err);
		unotify_target_signal(c->target, sig);
		*v = unotify_verdict_replied();
		return;
	case UNOTIFY_SIG_IGNORED:
		break;
	}
	enforce_verdict_errno(v, err);
}

int enforce_write(struct enforce_call *c, uint64_t addr, const void *buf, size_t len)
{
	int r = c->target ? unotify_target_mem_write(c->target, addr, buf, len)
			  : unotify_mem_write(c->l, c->req, addr, buf, len);

	/* The target's buffer is not writable: the kernel answers EFAULT too. */
	return r == -EPERM || r == -EIO ? -EFAULT : r;
}

/* ---- The policy's callbacks ---- */

static int enforce_cb_path(void *userdata, int n, const char **ret_path)
{
	struct enforce_call *c = userdata;

	int r;

	if (n < 0 || n > 1 || !c->has_path[n])
		return -ENOSYS;
	r = c->family->path(c, n, ret_path);
	/*
	 * No name under the sandbox's root (another mount namespace, outside
	 * it, replaced meanwhile): a path rule must not take the text for a
	 * path. The rule can be neither applied nor skipped: EACCES.
	 */
	if (r == 0 && c->paths && c->paths[n].resolved && c->paths[n].res.unnamed)
		return enforce_fail(c, EACCES);
	return r;
}

static int enforce_cb_open_flags(void *userdata, uint64_t *ret_flags)
{
	struct enforce_call *c = userdata;

	return c->family->open_flags(c, ret_flags);
}

static int enforce_cb_sockaddr(void *userdata, const struct policy_sockaddr **ret)
{
	struct enforce_call *c = userdata;

	return c->family->sockaddr(c, ret);
}

/* Only the arguments the call has: the policy treats a missing one as "none". */
static void enforce_ops(const struct enforce_call *c, struct policy_args_ops *ops)
{
	*ops = (struct policy_args_ops){ 0 };
	if (!c->family)
		return;
	if (c->has_path[0] || c->has_path[1])
		ops->path = enforce_cb_path;
	if (c->has_open_flags)
		ops->open_flags = enforce_cb_open_flags;
	if (c->has_sockaddr)
		ops->sockaddr = enforce_cb_sockaddr;
}

/* ---- Verdicts ---- */

static bool enforce_always_performs(const struct enforce_call *c)
{
	return c->family && c->family->always_perform && c->family->always_perform(c);
}

/* Allowed: perform what was decided on memory, or let the kernel run the rest. */
static void enforce_allow(struct enforce_call *c, bool consulted, struct unotify_verdict *v)
{
	if (!c->family || (!consulted && !enforce_always_performs(c))) {
		/* Decided on registers only: nothing a racing thread can change. */
		*v = unotify_verdict_continue();
		return;
	}
	c->family->perform(c, v);
}

/*
 * A kill decided in user space: the kernel alone can raise the SIGSYS of
 * SECCOMP_RET_KILL_PROCESS, so the whole process is killed with SIGKILL
 * and the call is failed in case the signal races with our reply. The pid
 * is a thread id, possibly not the leader's (PIDFD_THREAD, 6.9+); checking
 * the notification after opening the pidfd proves it names our target.
 */
static void enforce_kill(unotify_listener *l, const struct seccomp_notif *req,
			 struct unotify_verdict *v)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, req->pid, 0);

	if (pidfd < 0)
		pidfd = (int)syscall(SYS_pidfd_open, req->pid, PIDFD_THREAD);
	if (pidfd >= 0 && unotify_id_valid(l, req->id) == 0)
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	enforce_verdict_errno(v, ENOSYS);
}

static const char *enforce_verdict_from(struct enforce_call *c, const struct policy_decision *d,
					struct unotify_verdict *v)
{
	switch (d->action) {
	case POLICY_ALLOW:
		enforce_allow(c, d->path_consulted, v);
		return "allow";
	case POLICY_LOG:
		enforce_allow(c, d->path_consulted, v);
		return "log";
	case POLICY_RETURN:
		*v = unotify_verdict_value(d->value);
		return "return";
	case POLICY_KILL:
		enforce_kill(c->l, c->req, v);
		return "kill";
	case POLICY_DENY:
	default:
		/* `deny ... kernel`: what the kernel answers when its sandbox refuses. */
		if (d->kernel_answer) {
			int e = c->family && c->family->refuse ? c->family->refuse(c) : EACCES;

			/* 0: the kernel's sandbox never refuses this call (a TCP disconnect). */
			if (e == 0) {
				enforce_allow(c, true, v);
				return "allow";
			}
			enforce_verdict_errno(v, e);
		} else
			enforce_verdict_errno(v, d->error ? d->error : EPERM);
		return "deny";
	}
}

static void enforce_audit(struct enforcer *e, struct enforce_call *c, const char *verdict,
			  const struct policy_decision *d, const struct unotify_verdict *v)
{
	static const struct enforce_path none[2];
	const struct enforce_path *p = c->paths ? c->paths : none;
	bool wanted = e->audit && audit_wants(e->audit, verdict, d ? d->value : 0);

	if (e->audit && !wanted)
		atomic_fetch_add_explicit(&e->unaudited, 1, memory_order_relaxed);
	if (!wanted && !e->observe)
		return; /* the hot path of an allowed call: no record built */

	struct audit_record r = {
		.sandbox = e->sandbox,
		.pid = (pid_t)c->req->pid,
		.nr = c->req->data.nr,
		.arch = c->req->data.arch == UNOTIFY_AUDIT_ARCH ? 0 : c->req->data.arch,
		.args = (const uint64_t *)c->req->data.args,
		.path_arg = p[0].have_arg ? p[0].arg : NULL,
		.path = p[0].resolved ? p[0].res.path : NULL,
		.path_arg2 = p[1].have_arg ? p[1].arg : NULL,
		.path2 = p[1].resolved ? p[1].res.path : NULL,
		.addr = c->addr_text,
		.verdict = verdict,
		.error = v->kind == UNOTIFY_VERDICT_ERRNO ? v->error : 0,
		.value = d ? d->value : 0,
		.rule_file = d ? d->file : NULL,
		.rule_line = d ? d->line : 0,
	};

	if (c->family && c->family->audit)
		c->family->audit(c, &r);
	/* Held back by the budget: counted there (audit_limit.suppressed). */
	if (wanted && audit_write(e->audit, &e->audit_limit, &r))
		atomic_fetch_add_explicit(&e->audited, 1, memory_order_relaxed);
	if (e->observe)
		e->observe(e, &r);
}

static void enforce_release(struct enforce_call *c)
{
	if (c->family && c->family->release)
		c->family->release(c);
	for (int n = 0; c->paths && n < 2; n++)
		if (c->paths[n].resolved)
			unotify_path_release(&c->paths[n].res);
	if (c->paths_kept)
		scratch->paths_busy = false;
	else
		free(c->paths);
	unotify_target_free(c->target);
}

/* Does the filter keep every target's root and user namespace (implicit fixed-view)? */
static bool enforce_view_fixed(struct enforcer *e)
{
	int v = atomic_load_explicit(&e->view_fixed, memory_order_relaxed);
	struct policy_implicit_info info;

	if (v == 0) {
		v = 2;
		for (size_t i = 0; e->filter_is_policy && policy_implicit_info(e->policy, i, &info) == 0;
		     i++)
			if (strcmp(info.name, "fixed-view") == 0 && info.on)
				v = 1;
		atomic_store_explicit(&e->view_fixed, v, memory_order_relaxed);
	}
	return v == 1;
}

/* What was resolved or planned on guessed names goes; the copied arguments stay. */
static void enforce_forget_guess(struct enforce_call *c)
{
	c->careful = true;
	c->guessed = false;
	c->guess_wrong = false;
	c->read_error = 0;
	if (c->family && c->family->forget)
		c->family->forget(c);
	for (int n = 0; c->paths && n < 2; n++) {
		if (c->paths[n].resolved)
			unotify_path_release(&c->paths[n].res);
		c->paths[n].resolved = false;
	}
}

/* The decision of the policy on call, with what the call's own memory said. */
static void enforce_evaluate(struct enforcer *e, struct enforce_call *c,
			     const struct policy_call *call, struct policy_decision *d)
{
	struct policy_args_ops ops;
	int r;

	enforce_ops(c, &ops);
	r = policy_evaluate_args(e->policy, call, &ops, c, d);
	if (r < 0)
		*d = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM };
	if (c->read_error)
		/*
		 * What a rule needed could not be read (EFAULT, ENAMETOOLONG,
		 * bad flags...): the evaluator stopped at that rule, and the
		 * call fails as the kernel itself would fail it. Nothing was done.
		 */
		*d = (struct policy_decision){ .action = POLICY_DENY, .error = c->read_error,
					       .line = d->line, .file = d->file,
					       .path_consulted = true };
}

static bool enforce_lets_run(const struct policy_decision *d)
{
	return d->action == POLICY_ALLOW || d->action == POLICY_LOG;
}

/*
 * Decides the call, and when the supervisor would perform another one
 * (performed_as: an O_PATH open becomes a read-only open), that one too:
 * never hand the target more than the policy allows. A verdict against
 * the performed call wins, blamed on its own rule.
 */
static void enforce_evaluate_all(struct enforcer *e, struct enforce_call *c,
				 struct policy_decision *d)
{
	struct policy_call call = { .nr = c->req->data.nr };
	struct policy_decision as;

	memcpy(call.args, c->req->data.args, sizeof(call.args));
	enforce_evaluate(e, c, &call, d);
	if (d->path_consulted && enforce_climb_refusal(c, &as)) {
		*d = as;
		return;
	}
	if (!enforce_lets_run(d) || !c->family)
		return;
	/* A call performed even when decided on registers (a listen) may be rechecked too. */
	if (c->family->recheck && (d->path_consulted || enforce_always_performs(c)))
		c->family->recheck(c, d);
	if (!enforce_lets_run(d) || !d->path_consulted || !c->family->performed_as ||
	    !c->family->performed_as(c, &call))
		return;
	enforce_evaluate(e, c, &call, &as);
	if (!enforce_lets_run(&as))
		*d = as;
}

/*
 * A call whose decision no argument changes (policy_fixed_decision): the
 * policy took it once. Such a call takes no path or address, so it has no
 * family: nothing is read, performed or released, and the round trip of a
 * `return getppid 42` touches little beyond this.
 */
static int enforce_decide_fixed(struct enforcer *e, struct enforce_call *c,
				const struct policy_decision *d, struct unotify_verdict *ret)
{
	const char *verdict = enforce_verdict_from(c, d, ret);

	if (ret->kind == UNOTIFY_VERDICT_ERRNO)
		atomic_fetch_add(&e->denials, 1);
	enforce_audit(e, c, verdict, d, ret);
	return 0;
}

/*
 * A decision taken on a path read without ID_VALID and no target since
 * (a refusal): proved before it is told. When the thread is gone, what
 * was read may be another process's: the call fails as any whose memory
 * could not be read, and the trail shows no text of it.
 */
static const char *enforce_told_unproven(struct enforce_call *c, struct policy_decision *d,
					 struct unotify_verdict *v, const char *verdict)
{
	if (enforce_prove_reads(c) == 0)
		return verdict;
	for (int n = 0; c->paths && n < 2; n++)
		c->paths[n].have_arg = false;
	*d = (struct policy_decision){ .action = POLICY_DENY, .error = ENOENT };
	enforce_verdict_errno(v, ENOENT);
	return "deny";
}

int enforce_decide(unotify_listener *l, const struct seccomp_notif *req,
		   struct unotify_verdict *ret, void *userdata)
{
	struct enforcer *e = userdata;
	struct enforce_call call = { .policy = e->policy, .l = l, .req = req,
				     .args = (const uint64_t *)req->data.args };
	struct enforce_call *c = &call;
	const struct policy_decision *fixed;
	struct policy_decision d;
	const char *verdict;

	atomic_fetch_add(&e->notifications, 1);
	/*
	 * No valid policy for this sandbox, or a call through another ABI
	 * (unotify_call_is_native), which the policy, written in native
	 * names, cannot name: fail closed.
	 */
	if (!e->policy || !unotify_call_is_native(&req->data)) {
		enforce_verdict_errno(ret, EPERM);
		enforce_audit(e, c, "deny", NULL, ret);
		atomic_fetch_add(&e->denials, 1);
		return 0;
	}
	fixed = policy_fixed_decision(e->policy, req->data.nr);
	if (fixed)
		return enforce_decide_fixed(e, c, fixed, ret);
	c->pc = policy_pathcall_find(req->data.nr);
	c->family = enforce_family_find(req->data.nr);
	if (c->family)
		c->family->decode(c);
	c->view_fixed = enforce_view_fixed(e);
	enforce_evaluate_all(e, c, &d);
	if (c->guessed && !enforce_lets_run(&d)) {
		/* Denied (killed, returned) on a name the text only guessed: not before proving it. */
		enforce_forget_guess(c);
		enforce_evaluate_all(e, c, &d);
	}
	verdict = enforce_verdict_from(c, &d, ret);
	if (c->guess_wrong) {
		/* The lookup found the text is not the name; nothing was done: decide on the name. */
		enforce_forget_guess(c);
		enforce_evaluate_all(e, c, &d);
		verdict = enforce_verdict_from(c, &d, ret);
	}
	if (c->reads_unproven)
		verdict = enforce_told_unproven(c, &d, ret, verdict);
	if (ret->kind == UNOTIFY_VERDICT_ERRNO)
		atomic_fetch_add(&e->denials, 1);
	enforce_audit(e, c, verdict, &d, ret);
	enforce_release(c);
	/*
	 * The thread kept some of a target's credentials or root: nothing it
	 * does can be trusted any more. The loop fails this call and stops,
	 * and every later call fails closed.
	 */
	return c->broken ? -ENOTRECOVERABLE : 0;
}
