/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decision engine. The policy decides; what it allows after reading a
 * path is performed here and injected, never CONTINUEd: between our read of
 * the target's memory and the kernel's own, another thread of the target
 * could swap the path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "enforce.h"
#include "lib/uapi.h"
#include "lib/util.h"

/* What one open-family call asks for, decoded from its registers. */
struct enforce_open {
	int dirfd;
	uint64_t path_addr;
	uint64_t flags;
	uint64_t mode;
	uint64_t how_addr; /* openat2: struct open_how */
	uint64_t how_size;
};

/* State of one decision, shared with the lazy path callback. */
struct enforce_call {
	unotify_listener *l;
	const struct seccomp_notif *req;
	struct enforce_open open;
	struct unotify_open_plan plan;
	bool planned;
	int read_error;  /* the target's call fails with this before any file is touched */
	bool broken;     /* this thread could not be restored: stop supervising */
	char path_arg[4096];
	bool have_path_arg;
};

static bool enforce_decode_open(const struct seccomp_notif *req, struct enforce_open *ret)
{
	const __u64 *a = req->data.args;

	switch (req->data.nr) {
#ifdef SYS_open
	case SYS_open:
		*ret = (struct enforce_open){ AT_FDCWD, a[0], a[1], a[2], 0, 0 };
		return true;
#endif
#ifdef SYS_creat
	case SYS_creat:
		*ret = (struct enforce_open){ AT_FDCWD, a[0], O_CREAT | O_WRONLY | O_TRUNC, a[1], 0, 0 };
		return true;
#endif
	case SYS_openat:
		*ret = (struct enforce_open){ (int)a[0], a[1], a[2], a[3], 0, 0 };
		return true;
	case SYS_openat2:
		*ret = (struct enforce_open){ (int)a[0], a[1], 0, 0, a[2], a[3] };
		return true;
	default:
		return false;
	}
}

/* openat2's struct open_how, with the kernel's own size rules. */
static int enforce_read_how(struct enforce_call *c, struct unotify_open_how *how)
{
	struct open_how kh = { 0 };
	int r;

	if (c->open.how_size < sizeof(kh))
		return -EINVAL;
	/* A larger struct from a newer ABI: we cannot know its extra fields. */
	if (c->open.how_size > sizeof(kh))
		return -E2BIG;
	r = unotify_mem_read(c->l, c->req, c->open.how_addr, &kh, sizeof(kh));
	if (r < 0)
		return r;
	how->flags = kh.flags;
	how->mode = kh.mode;
	how->resolve = kh.resolve;
	return 0;
}

static int enforce_plan_open(struct enforce_call *c)
{
	struct unotify_open_how how = {
		.dirfd = c->open.dirfd,
		.flags = c->open.flags,
		.mode = c->open.mode,
	};
	int r;

	r = unotify_mem_read_string(c->l, c->req, c->open.path_addr, c->path_arg,
				    sizeof(c->path_arg));
	if (r < 0)
		return r;
	c->have_path_arg = true;
	if (c->req->data.nr == SYS_openat2) {
		r = enforce_read_how(c, &how);
		if (r < 0)
			return r;
	}
	how.path = c->path_arg;
	r = unotify_open_prepare(c->l, c->req, &how, &c->plan);
	if (r < 0)
		return r;
	c->planned = true;
	return 0;
}

static int enforce_get_path(void *userdata, const char **ret_path)
{
	struct enforce_call *c = userdata;
	int r;

	if (!c->planned) {
		r = enforce_plan_open(c);
		if (r == -ENOTRECOVERABLE)
			c->broken = true;
		if (r < 0) {
			/* EFAULT, ENAMETOOLONG...: the target's own call fails so. */
			c->read_error = r == -ENOENT ? ENOENT : -r;
			return r;
		}
	}
	*ret_path = c->plan.path;
	return 0;
}

static void enforce_verdict_errno(struct unotify_verdict *v, int err)
{
	*v = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_ERRNO, .error = err };
}

/* Allowed: perform what was decided on a path, or let the kernel run the rest. */
static void enforce_allow(struct enforce_call *c, bool path_consulted, struct unotify_verdict *v)
{
	int fd;

	if (!path_consulted) {
		/* Decided on registers only: nothing a racing thread can change. */
		*v = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_CONTINUE };
		return;
	}
	fd = unotify_open_perform(&c->plan);
	if (fd == -ENOTRECOVERABLE)
		c->broken = true;
	if (fd < 0) {
		enforce_verdict_errno(v, -fd);
		return;
	}
	*v = (struct unotify_verdict){
		.kind = UNOTIFY_VERDICT_FD,
		.fd = fd,
		.fd_flags = (c->plan.how.flags & O_CLOEXEC) ? O_CLOEXEC : 0,
	};
}

/*
 * A kill decided in user space: the kernel alone can raise the SIGSYS of
 * SECCOMP_RET_KILL_PROCESS, so the whole process is killed with SIGKILL
 * and the call is failed in case the signal races with our reply. The pid
 * is a thread id, possibly not the leader's (PIDFD_THREAD, 6.9+); checking
 * the notification after opening the pidfd proves it names our target.
 */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
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
		*v = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_VALUE, .value = d->value };
		return "return";
	case POLICY_KILL:
		enforce_kill(c->l, c->req, v);
		return "kill";
	case POLICY_DENY:
	default:
		enforce_verdict_errno(v, d->error ? d->error : EPERM);
		return "deny";
	}
}

static void enforce_audit(struct enforcer *e, struct enforce_call *c, const char *verdict,
			  const struct policy_decision *d, const struct unotify_verdict *v)
{
	struct audit_record r = {
		.sandbox = e->sandbox,
		.pid = (pid_t)c->req->pid,
		.nr = c->req->data.nr,
		.args = (const uint64_t *)c->req->data.args,
		.path_arg = c->have_path_arg ? c->path_arg : NULL,
		.path = c->planned ? c->plan.path : NULL,
		.verdict = verdict,
		.error = v->kind == UNOTIFY_VERDICT_ERRNO ? v->error : 0,
		.value = d ? d->value : 0,
		.rule_file = d ? d->file : NULL,
		.rule_line = d ? d->line : 0,
	};

	if (e->audit)
		audit_write(e->audit, &r);
}

int enforce_decide(unotify_listener *l, const struct seccomp_notif *req,
		   struct unotify_verdict *ret, void *userdata)
{
	struct enforcer *e = userdata;
	struct enforce_call c = { .l = l, .req = req };
	struct policy_call call = { .nr = req->data.nr };
	struct policy_decision d;
	const char *verdict;
	int r;

	atomic_fetch_add(&e->notifications, 1);
	if (!e->policy) {
		/* No valid policy for this sandbox: fail closed. */
		enforce_verdict_errno(ret, EPERM);
		enforce_audit(e, &c, "deny", NULL, ret);
		atomic_fetch_add(&e->denials, 1);
		return 0;
	}
	memcpy(call.args, req->data.args, sizeof(call.args));
	enforce_decode_open(req, &c.open);
	r = policy_evaluate(e->policy, &call, enforce_get_path, &c, &d);
	if (r < 0)
		d = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM };
	if (c.read_error)
		/*
		 * The path could not be read (EFAULT, ENAMETOOLONG...): the
		 * evaluator stopped at the rule that needed it, and the call
		 * fails as the kernel itself would fail it. Nothing was opened.
		 */
		d = (struct policy_decision){ .action = POLICY_DENY, .error = c.read_error,
					      .line = d.line, .file = d.file };
	verdict = enforce_verdict_from(&c, &d, ret);
	if (ret->kind == UNOTIFY_VERDICT_ERRNO)
		atomic_fetch_add(&e->denials, 1);
	enforce_audit(e, &c, verdict, &d, ret);
	if (c.planned)
		unotify_open_plan_release(&c.plan);
	/*
	 * The thread kept some of a target's credentials or root: nothing it
	 * does can be trusted any more. The loop fails this call and stops,
	 * and every later call fails closed.
	 */
	return c.broken ? -ENOTRECOVERABLE : 0;
}
