/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execve, execveat: the one family the supervisor cannot perform. An exec
 * replaces the caller's own image; no fd or value injected from outside
 * does that. So a path= rule on them reads and resolves the path like any
 * other, a denial is final (safe), but an allowed exec is CONTINUEd and the
 * kernel reads the path again: a racing thread of the target can swap it
 * in between. `unotify policy check` warns about every rule that allows an
 * exec by path (POLICY_PERFORM_NONE in pathcalls.c); SECURITY.md says so.
 * The Landlock layer, which checks the execute right in the kernel, closes
 * that race where it takes the exec rules (policy/landlock.c).
 *
 * The kernel executes more than the program for the call: a script's
 * interpreter (#!, up to its depth) and the ELF interpreter (the dynamic
 * loader), read from files the program may have made (enforce-exec-file.c
 * reads them as the kernel does). An exec allowed on its path is refused
 * when an interpreter is a program the policy would not let run; the
 * dynamic loader, as the ELF interpreter, only by a refusal that names it
 * or a `kernel` rule (which refuses what the kernel's sandbox refuses:
 * EACCES).
 *
 * The dynamic loader run as a program maps and runs any file it may read
 * (`ld.so FILE`, `#!ld.so FILE`), and an exec allow-list must let it run
 * for every dynamic program: neither a path pattern nor Landlock's execute
 * right tells the two apart. So an exec whose program or #! interpreter is
 * a loader (read from the file: EXEC_LOADER) must be allowed by its exact
 * name (policy_evaluate_named), wherever an exec rule refuses something;
 * under the Landlock layer the execs come here too for that.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforce-call.h"
#include "enforce-exec.h"
#include "lib/util.h"

/* The audit trail shows what was run, as strace does, within these bounds. */
#define EXEC_AUDIT_ARGS    32
#define EXEC_AUDIT_ARG_LEN 256

struct exec_state {
	int dirfd;
	uint64_t path_addr;
	uint64_t argv_addr;
	bool nofollow;
	bool empty_path;
	int early;
	/* For the audit record only: read after the decision, never decided on. */
	char path[4096];
	char strings[EXEC_AUDIT_ARGS][EXEC_AUDIT_ARG_LEN];
	const char *args[EXEC_AUDIT_ARGS];
	bool cut[EXEC_AUDIT_ARGS];
	struct audit_argv argv;
};

static void exec_decode(struct enforce_call *c)
{
	struct exec_state *s = calloc(1, sizeof(*s));
	const uint64_t *a = c->args;

	c->state = s;
	c->has_path[0] = true;
	if (!s)
		return;
	if (c->req->data.nr == SYS_execveat) {
		s->dirfd = (int)a[0];
		s->path_addr = a[1];
		s->argv_addr = a[2];
		s->nofollow = a[4] & AT_SYMLINK_NOFOLLOW;
		s->empty_path = a[4] & AT_EMPTY_PATH;
		if (a[4] & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			s->early = EINVAL;
	} else {
		s->dirfd = AT_FDCWD;
		s->path_addr = a[0];
		s->argv_addr = a[1];
	}
}

static int exec_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct exec_state *s = c->state;
	struct unotify_path_how how;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	if (s->early)
		return enforce_fail(c, s->early);
	r = enforce_read_path(c, 0, s->path_addr);
	if (r < 0)
		return r;
	how = (struct unotify_path_how){
		.dirfd = s->dirfd,
		.walk = s->nofollow ? UNOTIFY_WALK_NOFOLLOW : UNOTIFY_WALK_FOLLOW,
		.empty_path = s->empty_path,
	};
	return enforce_resolve_path(c, 0, &how, ret_path);
}

struct exec_ask {
	const char *path;
	bool unnamed;
};

static int exec_ask_path(void *userdata, const char **ret_path)
{
	const struct exec_ask *ask = userdata;

	/* As for the program's own path (enforce_cb_path): no name, no match. */
	if (ask->unnamed)
		return -EACCES;
	*ret_path = ask->path;
	return 0;
}

/*
 * A loader run as a program (or as a script's #! interpreter) runs any
 * file it may read: a pattern that lets programs run does not cover it,
 * only its exact name does (policy_evaluate_named). 1 and the refusal in
 * ret, or 0: it may run.
 */
static int exec_check_loader(struct enforce_call *c, const struct policy_call *call,
			     const char *path, struct policy_decision *ret)
{
	struct exec_ask ask = { .path = path };
	struct policy_decision d;

	if (policy_evaluate_named(c->policy, call, exec_ask_path, &ask, &d) < 0)
		d = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM };
	if (d.action == POLICY_ALLOW || d.action == POLICY_LOG)
		return 0;
	d.path_consulted = true;
	*ret = d;
	return 1;
}

/*
 * The checks below could not be made (no descriptor left, no memory, the
 * target gone): what the kernel would run is unknown, so the exec is
 * refused. Once, a program that held all but two of the supervisor's
 * descriptors (in a performed sendmsg of many SCM_RIGHTS, blocked on a
 * full queue) had a #! loader line go unchecked.
 */
static int exec_check_failed(struct policy_decision *ret)
{
	*ret = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM,
					 .path_consulted = true };
	return 1;
}

/* An error of the lookup or access check that the kernel's exec meets as well. */
static bool exec_kernel_refuses(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ELOOP || err == EACCES ||
	       err == ENAMETOOLONG || err == EPERM;
}

/*
 * Is the ELF interpreter at file a dynamic loader the program may see (a
 * newfstatat of its name allowed)? Only such a file is spared the exec
 * rules that name no path: an allow-list need not name the loader, but a
 * refused program named as an ELF interpreter, or a name in a hidden
 * directory, is no loader the list forgot.
 */
static bool exec_visible_loader(struct enforce_call *c, const struct unotify_path *file)
{
	struct policy_call call = { .nr = SYS_newfstatat, .args = { (uint64_t)AT_FDCWD } };
	struct exec_ask ask = { .path = file->path, .unnamed = file->unnamed };
	struct policy_decision d;
	struct exec_file f;

	if (file->error || file->fd < 0)
		return false;
	exec_file_read(file->fd, &f);
	return f.kind == EXEC_LOADER &&
	       policy_evaluate(c->policy, &call, exec_ask_path, &ask, &d) == 0 &&
	       (d.action == POLICY_ALLOW || d.action == POLICY_LOG);
}

/*
 * May an interpreter the kernel runs for the call run? A #! interpreter is
 * a program, run with the script as its argument: decided as an exec of
 * it, by every rule and the default. So is the ELF interpreter, unless it
 * is a loader the program may see (exec_visible_loader): then only a
 * refusal that names it (a rule with path=) or the kernel's sandbox (a
 * `kernel` rule: EACCES, blamed on it) stops it. 1 and the refusal in
 * ret, or 0.
 */
static int exec_check_interpreter(struct enforce_call *c, const struct unotify_path *file,
				  bool elf, struct policy_decision *ret)
{
	struct policy_call call = { .nr = SYS_execve };
	struct exec_ask ask = { .path = file->path, .unnamed = file->unnamed };
	struct policy_decision d;

	if (policy_evaluate(c->policy, &call, exec_ask_path, &ask, &d) < 0)
		return exec_check_failed(ret);
	if (d.action == POLICY_ALLOW || d.action == POLICY_LOG)
		return 0;
	if (elf && !d.kernel_answer && !d.by_path_rule && exec_visible_loader(c, file))
		return 0;
	d.path_consulted = true;
	*ret = d;
	return 1;
}

/*
 * The next file the kernel runs, named by f (a #! line, a PT_INTERP): the
 * directories its ".." leave (enforce_climb_text), its lookup as the
 * target's, its decision, a missing one's too (the refusal's answer, not
 * the kernel's, is what a hidden name gets). 0 and the file in ret (to
 * release), 1 and the refusal in refusal, or 2: the kernel's own lookup
 * fails there, and runs nothing further.
 */
static int exec_next(struct enforce_call *c, unotify_target *t, const struct exec_file *f,
		     struct unotify_path *ret, struct policy_decision *refusal)
{
	struct unotify_path_how how = { .dirfd = AT_FDCWD, .walk = UNOTIFY_WALK_FOLLOW,
					.path = f->next };
	int r;

	if (enforce_climb_text(c, f->next, AT_FDCWD, refusal))
		return 1;
	if (unotify_path_resolve(t, &how, ret) < 0)
		return exec_check_failed(refusal);
	r = exec_check_interpreter(c, ret, f->kind != EXEC_SCRIPT, refusal);
	if (r == 0 && ret->error)
		r = exec_kernel_refuses(ret->error) ? 2 : exec_check_failed(refusal);
	if (r != 0)
		unotify_path_release(ret);
	return r;
}

/*
 * Every file the kernel executes for the call, as it does: the program, a
 * script's interpreter (#!, up to its depth), the ELF interpreter of an
 * ELF file at any depth. A program or #! interpreter that is a loader
 * (EXEC_LOADER) must be named (exec_check_loader); every interpreter must
 * pass exec_check_interpreter. 1 and the refusal in ret, or 0.
 */
static int exec_check_files(struct enforce_call *c, struct policy_decision *ret)
{
	struct policy_call call = { .nr = c->req->data.nr };
	struct unotify_path res[EXEC_DEPTH_MAX + 1];
	const struct unotify_path *file = &c->paths[0].res;
	int fd = file->fd, n_res = 0, r = 0;
	const char *path = file->path;
	struct exec_file f;

	memcpy(call.args, c->req->data.args, sizeof(call.args));
	if (fd < 0)
		return exec_check_failed(ret);
	for (int depth = 0; depth <= EXEC_DEPTH_MAX && r == 0; depth++) {
		unotify_target *t;

		if (enforce_target(c, &t) < 0) {
			r = exec_check_failed(ret);
			break;
		}
		/*
		 * A file the target may not execute, the kernel refuses itself
		 * (EACCES): its contents, read as the supervisor, must not
		 * decide anything, or the answer tells the target what a file
		 * it cannot read holds.
		 */
		r = unotify_path_access(t, file, X_OK);
		if (r < 0) {
			r = exec_kernel_refuses(-r) ? 0 : exec_check_failed(ret);
			break;
		}
		exec_file_read(fd, &f);
		if ((f.kind == EXEC_LOADER || f.kind == EXEC_UNREADABLE) &&
		    (r = exec_check_loader(c, &call, path, ret)))
			break;
		/* A #! at the last depth is the kernel's ELOOP; an ELF there still loads its interpreter. */
		if (!f.has_next || (f.kind == EXEC_SCRIPT && depth == EXEC_DEPTH_MAX))
			break;
		r = exec_next(c, t, &f, &res[n_res], ret);
		if (r != 0) {
			r = r == 1;
			break;
		}
		file = &res[n_res];
		path = res[n_res].path;
		fd = res[n_res++].fd;
		call = (struct policy_call){ .nr = SYS_execve };
		/* The ELF interpreter is loaded by the ELF handler, not run through another. */
		if (f.kind != EXEC_SCRIPT)
			break;
	}
	while (n_res > 0)
		unotify_path_release(&res[--n_res]);
	return r;
}

/*
 * The policy let the exec run on its path: what else the kernel would run
 * for it may still refuse it (above). Only where some exec rule refuses:
 * without one, no exec is refused, a loader's neither.
 */
static void exec_recheck(struct enforce_call *c, struct policy_decision *d)
{
	struct policy_decision refusal;

	if (!c->policy || !c->paths || !c->paths[0].resolved || c->paths[0].res.error)
		return;
	if (exec_check_files(c, &refusal) > 0)
		*d = refusal;
}

/* No safe way: the kernel runs it (see above). */
static void exec_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	(void)c;
	*v = unotify_verdict_continue();
}

/* `deny ... kernel`: the lookup's error, else the refusal. */
static int exec_refuse(struct enforce_call *c)
{
	const char *ignored;

	if (exec_path(c, 0, &ignored) < 0)
		return c->read_error ? c->read_error : EPERM;
	return c->paths[0].res.error ? c->paths[0].res.error : EACCES;
}

/* One string of argv into s->strings[i]; a string too long is cut, and said so. */
static int exec_read_arg(struct enforce_call *c, struct exec_state *s, size_t i, uint64_t addr)
{
	char *buf = s->strings[i];
	int r = unotify_mem_read_string(c->l, c->req, addr, buf, EXEC_AUDIT_ARG_LEN);

	if (r == -ENAMETOOLONG) {
		/* No NUL in the first EXEC_AUDIT_ARG_LEN bytes, which were readable. */
		r = unotify_mem_read(c->l, c->req, addr, buf, EXEC_AUDIT_ARG_LEN - 1);
		buf[EXEC_AUDIT_ARG_LEN - 1] = '\0';
		s->cut[i] = true;
	}
	return r < 0 ? r : 0;
}

/*
 * The program and its arguments for the trail, as strace shows them: the
 * path when no rule read it, and argv up to EXEC_AUDIT_ARGS strings. What
 * cannot be read (a bad pointer) stays a raw value; the call's fate is the
 * kernel's, the decision was taken before.
 */
static void exec_audit(struct enforce_call *c, struct audit_record *r)
{
	struct exec_state *s = c->state;
	size_t n = 0;

	if (!s)
		return;
	if (!r->path_arg && unotify_mem_read_string(c->l, c->req, s->path_addr, s->path,
						    sizeof(s->path)) >= 0)
		r->path_arg = s->path;
	for (; n < EXEC_AUDIT_ARGS; n++) {
		uint64_t addr;

		if (unotify_mem_read(c->l, c->req, s->argv_addr + n * sizeof(addr), &addr,
				     sizeof(addr)) < 0)
			return; /* argv itself unreadable: leave the pointer */
		if (!addr)
			break;
		if (exec_read_arg(c, s, n, addr) < 0)
			return;
		s->args[n] = s->strings[n];
	}
	s->argv = (struct audit_argv){ .args = s->args, .cut = s->cut, .n = n,
				       .more = n == EXEC_AUDIT_ARGS };
	if (s->argv.more) {
		uint64_t addr;

		/* Exactly EXEC_AUDIT_ARGS strings: nothing more to show. */
		if (unotify_mem_read(c->l, c->req, s->argv_addr + n * sizeof(addr), &addr,
				     sizeof(addr)) == 0 && !addr)
			s->argv.more = false;
	}
	r->argv = &s->argv;
}

const struct enforce_family enforce_exec_family = {
	.decode = exec_decode,
	.path = exec_path,
	.recheck = exec_recheck,
	.perform = exec_perform,
	.refuse = exec_refuse,
	.release = enforce_free_state,
	.audit = exec_audit,
	.works = 1U << UNOTIFY_WORK_SUPERVISE, /* resolves, performs nothing */
};
