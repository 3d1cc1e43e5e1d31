/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execve, execveat: the one family the supervisor cannot perform. An exec
 * replaces the caller's own image; no fd or value injected from outside
 * does that. So a path= rule on them reads and resolves the path like any
 * other, a denial is final (safe), but an allowed exec is CONTINUEd and the
 * kernel reads the path again: a racing thread of the target can swap it
 * in between. `unotify policy check` warns about every rule that allows an
 * exec by path (POLICY_PERFORM_NONE in pathcalls.c); SECURITY.md says so.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "enforce-call.h"

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

/* No safe way: the kernel runs it (see above). */
static void exec_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	*v = unotify_verdict_continue();
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
	.perform = exec_perform,
	.release = enforce_free_state,
	.audit = exec_audit,
	.works = 1U << UNOTIFY_WORK_SUPERVISE, /* resolves, performs nothing */
};
