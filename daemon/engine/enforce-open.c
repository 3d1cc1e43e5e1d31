/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * open, openat, openat2, creat: the path is resolved as the target
 * (unotify_open_prepare), and an allowed open is performed on what was
 * resolved and its fd injected (ADDFD with SEND). openat2's struct
 * open_how is read once, for the policy (its flags) and for the open alike.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "enforce-call.h"
#include "lib/util.h"

struct open_state {
	int dirfd;
	uint64_t path_addr;
	uint64_t flags;
	uint64_t mode;
	uint64_t how_addr; /* openat2: struct open_how */
	uint64_t how_size;
	bool have_how;
	uint64_t resolve;
	struct unotify_open_plan plan;
	bool planned;
	bool as_read;      /* the policy is asked about the read-only open performed instead */
};

static void open_decode(struct enforce_call *c)
{
	const uint64_t *a = c->args;
	struct open_state *s = enforce_alloc_state(c, sizeof(*s));

	if (!s)
		return;
	/* Field by field, the plan left as it is (4 KB, read only once planned). */
	memset(s, 0, offsetof(struct open_state, plan));
	s->planned = false;
	s->as_read = false;
	s->dirfd = AT_FDCWD;
	switch (c->req->data.nr) {
#ifdef SYS_open
	case SYS_open:
		s->path_addr = a[0];
		s->flags = a[1];
		s->mode = a[2];
		break;
#endif
#ifdef SYS_creat
	case SYS_creat:
		s->path_addr = a[0];
		s->flags = O_CREAT | O_WRONLY | O_TRUNC;
		s->mode = a[1];
		break;
#endif
	case SYS_openat:
		s->dirfd = (int)a[0];
		s->path_addr = a[1];
		s->flags = a[2];
		s->mode = a[3];
		break;
	case SYS_openat2:
		s->dirfd = (int)a[0];
		s->path_addr = a[1];
		s->how_addr = a[2];
		s->how_size = a[3];
		break;
	}
	c->has_path[0] = true;
	c->has_open_flags = true;
	/* A kept target has no umask: nothing created (openat2's flags are not read yet). */
	c->kept_ok = c->req->data.nr != SYS_openat2 &&
		     !(s->flags & (O_CREAT | (O_TMPFILE & ~(uint64_t)O_DIRECTORY)));
}

/* openat2's struct open_how, with the kernel's own size rules. */
static int open_read_how(struct enforce_call *c, struct open_state *s)
{
	struct open_how kh = { 0 };
	int r;

	if (s->have_how || c->req->data.nr != SYS_openat2)
		return 0;
	if (s->how_size < sizeof(kh))
		return enforce_fail(c, EINVAL);
	/* A larger struct from a newer ABI: we cannot know its extra fields. */
	if (s->how_size > sizeof(kh))
		return enforce_fail(c, E2BIG);
	r = unotify_mem_read(c->l, c->req, s->how_addr, &kh, sizeof(kh));
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	s->flags = kh.flags;
	s->mode = kh.mode;
	s->resolve = kh.resolve;
	s->have_how = true;
	return 0;
}

/* What an O_PATH open is performed as: a read-only open, with its lookup flags. */
static uint64_t open_as_read(uint64_t flags)
{
	return O_RDONLY | (flags & (uint64_t)(O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

static int open_plan(struct enforce_call *c, struct open_state *s)
{
	struct unotify_open_how how;
	unotify_target *t;
	int r;

	if (s->planned)
		return 0;
	/*
	 * The path first, then the target: the target proves the read (a kept
	 * one without ID_VALID, enforce_read_path), and openat2's struct is
	 * read after it, with ID_VALID, which proves both.
	 */
	r = enforce_read_path(c, 0, s->path_addr);
	if (r < 0)
		return r;
	r = enforce_target(c, &t);
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : EPERM);
	r = open_read_how(c, s);
	if (r < 0)
		return r;
	how = (struct unotify_open_how){
		.dirfd = s->dirfd,
		.path = c->paths[0].arg,
		.flags = s->flags,
		.mode = s->mode,
		.resolve = s->resolve,
		.guess = !c->careful,
	};
	r = unotify_open_resolve(t, &how, &s->plan);
	if (r == -ENOTRECOVERABLE)
		c->broken = true;
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : EPERM);
	s->planned = true;
	c->guessed = s->plan.guessed;
	/* What the audit trail shows, as for the other families (no fd of its own). */
	unotify_path_init(&c->paths[0].res);
	memcpy(c->paths[0].res.path, s->plan.path,
	       strnlen(s->plan.path, sizeof(s->plan.path) - 1) + 1);
	c->paths[0].res.unnamed = s->plan.unnamed;
	c->paths[0].resolved = true;
	return 0;
}

static int open_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct open_state *s = c->state;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	r = open_plan(c, s);
	if (r < 0)
		return r;
	*ret_path = s->plan.path;
	return 0;
}

static int open_flags(struct enforce_call *c, uint64_t *ret_flags)
{
	struct open_state *s = c->state;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	r = open_read_how(c, s);
	if (r < 0)
		return r;
	*ret_flags = s->as_read ? open_as_read(s->flags) : s->flags;
	return 0;
}

/*
 * An O_PATH open is performed as a read-only one (unotify_open_perform:
 * ADDFD takes no O_PATH file), which gives more than O_PATH does: read(2),
 * getdents. The policy must allow that open as well, else the target gets
 * the denial of the rule that refuses it (exact, never an upgrade).
 */
static bool open_performed_as(struct enforce_call *c, struct policy_call *call)
{
	struct open_state *s = c->state;
	int arg = -1;

	if (!s || !(s->flags & O_PATH))
		return false;
	s->as_read = true;
#ifdef SYS_open
	if (c->req->data.nr == SYS_open)
		arg = 1;
#endif
	if (c->req->data.nr == SYS_openat)
		arg = 2;
	if (arg >= 0)
		call->args[arg] = open_as_read(s->flags);
	return true;
}

/* Allowed after a memory read: open it ourselves and inject the fd. */
static void open_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	struct open_state *s = c->state;
	int fd;

	/* Decided on the flags alone (openat2): the path is read and resolved now, once. */
	fd = s ? open_plan(c, s) : -ENOMEM;
	if (fd == 0)
		fd = unotify_open_perform(&s->plan);
	if (fd == -UNOTIFY_EGUESS) {
		c->guess_wrong = true; /* nothing opened: decided again on the name (enforce.c) */
		return;
	}
	if (fd == -ENOTRECOVERABLE)
		c->broken = true;
	if (fd < 0) {
		enforce_verdict_errno(v, c->read_error ? c->read_error : -fd);
		return;
	}
	*v = unotify_verdict_fd(fd, (s->plan.how.flags & O_CLOEXEC) ? O_CLOEXEC : 0);
}

static void open_forget(struct enforce_call *c)
{
	struct open_state *s = c->state;

	if (s && s->planned)
		unotify_open_plan_release(&s->plan);
	if (s)
		s->planned = false;
}

/* `deny ... kernel`: the path was read for the rule, the plan is there. */
static int open_refuse(struct enforce_call *c)
{
	struct open_state *s = c->state;

	if (!s || open_plan(c, s) < 0)
		return c->read_error ? c->read_error : EPERM;
	return unotify_open_refusal(&s->plan);
}

static void open_release(struct enforce_call *c)
{
	struct open_state *s = c->state;

	if (s && s->planned)
		unotify_open_plan_release(&s->plan);
	enforce_free_state(c);
}

_Static_assert(sizeof(struct open_state) <= ENFORCE_STATE_KEPT,
	       "the open family's state fits the thread's kept buffer");

const struct enforce_family enforce_open_family = {
	.decode = open_decode,
	.path = open_path,
	.open_flags = open_flags,
	.performed_as = open_performed_as,
	.perform = open_perform,
	.refuse = open_refuse,
	.release = open_release,
	.forget = open_forget,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_OPEN,
};
