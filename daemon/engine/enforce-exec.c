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

struct exec_state {
	int dirfd;
	uint64_t path_addr;
	bool nofollow;
	bool empty_path;
	int early;
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
		*s = (struct exec_state){ .dirfd = (int)a[0], .path_addr = a[1],
					  .nofollow = a[4] & AT_SYMLINK_NOFOLLOW,
					  .empty_path = a[4] & AT_EMPTY_PATH };
		if (a[4] & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			s->early = EINVAL;
	} else {
		*s = (struct exec_state){ .dirfd = AT_FDCWD, .path_addr = a[0] };
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

const struct enforce_family enforce_exec_family = {
	.decode = exec_decode,
	.path = exec_path,
	.perform = exec_perform,
	.release = enforce_free_state,
	.works = 1U << UNOTIFY_WORK_SUPERVISE, /* resolves, performs nothing */
};
