/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calls that read metadata by path: stat, lstat, newfstatat, statx,
 * readlink, readlinkat, access, faccessat, faccessat2. The path is resolved
 * as the target; an allowed call is done on the resolved file and its
 * result written into the target's buffer (unotify_target_mem_write:
 * never by its thread's number) before the reply, where and as the kernel
 * would have written it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforce-call.h"
#include "lib/util.h"
#include "lib/uapi.h"

enum stat_kind {
	STAT_STAT,
	STAT_STATX,
	STAT_READLINK,
	STAT_ACCESS,
};

struct stat_state {
	enum stat_kind kind;
	int dirfd;
	uint64_t path_addr;
	bool nofollow;
	bool empty_path;
	uint64_t out;       /* the target's buffer */
	uint64_t size;      /* readlink's bufsiz */
	unsigned int flags; /* statx */
	unsigned int mask;
	int mode;           /* access */
	int early;          /* the kernel refuses the arguments before any lookup */
};

/* The AT_* flags of newfstatat and statx. */
static void stat_decode_at(struct stat_state *s, uint64_t flags, bool statx)
{
	s->early = -unotify_path_stat_check(statx, flags, s->mask);
	s->nofollow = flags & AT_SYMLINK_NOFOLLOW;
	s->empty_path = flags & AT_EMPTY_PATH;
	s->flags = (unsigned int)flags;
}

static void stat_decode_access(struct enforce_call *c, struct stat_state *s, uint64_t mode,
			       uint64_t flags)
{
	s->kind = STAT_ACCESS;
	s->mode = (int)mode;
	s->early = -unotify_path_access_check(mode, flags);
	s->nofollow = flags & AT_SYMLINK_NOFOLLOW;
	s->empty_path = flags & AT_EMPTY_PATH;
	/* access() checks with the real ids; only AT_EACCESS with the effective ones. */
	c->real_ids = !(flags & AT_EACCESS);
}

static void stat_decode_readlink(struct stat_state *s, uint64_t size)
{
	s->kind = STAT_READLINK;
	s->size = size;
	s->nofollow = true;
	/* do_readlinkat() looks up with LOOKUP_EMPTY: "" is the file dirfd refers to. */
	s->empty_path = true;
	s->early = -unotify_path_readlink_check(size);
}

static void stat_decode_nr(struct enforce_call *c, struct stat_state *s, const uint64_t *a)
{
	s->dirfd = AT_FDCWD;
	switch (c->req->data.nr) {
#ifdef SYS_stat
	case SYS_stat:
	case SYS_lstat:
		*s = (struct stat_state){ .kind = STAT_STAT, .dirfd = AT_FDCWD, .path_addr = a[0],
					  .out = a[1], .nofollow = c->req->data.nr == SYS_lstat };
		break;
#endif
	case SYS_newfstatat:
		*s = (struct stat_state){ .kind = STAT_STAT, .dirfd = (int)a[0], .path_addr = a[1],
					  .out = a[2] };
		stat_decode_at(s, a[3], false);
		break;
	case SYS_statx:
		*s = (struct stat_state){ .kind = STAT_STATX, .dirfd = (int)a[0], .path_addr = a[1],
					  .mask = (unsigned int)a[3], .out = a[4] };
		stat_decode_at(s, a[2], true);
		break;
#ifdef SYS_readlink
	case SYS_readlink:
		*s = (struct stat_state){ .dirfd = AT_FDCWD, .path_addr = a[0], .out = a[1] };
		stat_decode_readlink(s, a[2]);
		break;
	case SYS_access:
		*s = (struct stat_state){ .dirfd = AT_FDCWD, .path_addr = a[0] };
		stat_decode_access(c, s, a[1], 0);
		break;
#endif
	case SYS_readlinkat:
		*s = (struct stat_state){ .dirfd = (int)a[0], .path_addr = a[1], .out = a[2] };
		stat_decode_readlink(s, a[3]);
		break;
	case SYS_faccessat:
		*s = (struct stat_state){ .dirfd = (int)a[0], .path_addr = a[1] };
		stat_decode_access(c, s, a[2], 0);
		break;
	case SYS_faccessat2:
		*s = (struct stat_state){ .dirfd = (int)a[0], .path_addr = a[1] };
		stat_decode_access(c, s, a[2], a[3]);
		break;
	}
}

static void stat_decode(struct enforce_call *c)
{
	/* The thread's kept state (enforce.c), not a calloc and free per call. */
	struct stat_state *s = enforce_alloc_state(c, sizeof(*s));

	if (s) {
		memset(s, 0, sizeof(*s));
		stat_decode_nr(c, s, c->args);
	}
	c->has_path[0] = true;
	c->kept_ok = true; /* nothing created, nothing signalled */
}

static int stat_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct stat_state *s = c->state;

	if (!s)
		return enforce_fail(c, ENOMEM);
	if (s->early)
		return enforce_fail(c, s->early);
	/* The path before the target, which proves the read (enforce_read_path). */
	return enforce_resolve_file(c, s->dirfd, s->path_addr, s->nofollow, s->empty_path,
				    ret_path);
}

static int stat_perform_stat(struct enforce_call *c, struct stat_state *s,
			     const struct unotify_path *p)
{
	struct statx stx;
	struct stat st;
	int r;

	if (s->kind == STAT_STATX) {
		r = unotify_path_statx(c->target, p, s->flags, s->mask, &stx);
		return r < 0 ? r : enforce_write(c, s->out, &stx, sizeof(stx));
	}
	r = unotify_path_stat(c->target, p, &st);
	return r < 0 ? r : enforce_write(c, s->out, &st, sizeof(st));
}

/* readlink returns the length written, the text truncated to bufsiz, never NUL-terminated. */
static int stat_perform_readlink(struct enforce_call *c, struct stat_state *s,
				 const struct unotify_path *p)
{
	size_t size = s->size < PATH_MAX ? (size_t)s->size : PATH_MAX;
	_cleanup_free_ char *buf = malloc(size);
	int n, r;

	if (!buf)
		return -ENOMEM;
	/* An empty path names the dirfd's file: not a link is ENOENT there, EINVAL otherwise. */
	if (p->error == 0 && !p->guessed && p->type != S_IFLNK)
		return c->paths[0].have_arg && c->paths[0].arg[0] ? -EINVAL : -ENOENT;
	n = unotify_path_readlink(c->target, p, buf, size);
	if (n < 0)
		return n;
	r = enforce_write(c, s->out, buf, (size_t)n);
	return r < 0 ? r : n;
}

static void stat_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	struct stat_state *s = c->state;
	const struct unotify_path *p = enforce_perform_path(c, v);
	int r = -EINVAL;

	if (!p)
		return;
	switch (s->kind) {
	case STAT_STAT:
	case STAT_STATX:
		r = stat_perform_stat(c, s, p);
		break;
	case STAT_READLINK:
		r = stat_perform_readlink(c, s, p);
		break;
	case STAT_ACCESS:
		r = unotify_path_access(c->target, p, s->mode);
		break;
	}
	enforce_result_file(c, v, r);
}

const struct enforce_family enforce_stat_family = {
	.decode = stat_decode,
	.path = stat_path,
	.perform = stat_perform,
	.release = enforce_free_state,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_STAT,
};
