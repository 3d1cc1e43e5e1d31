/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calls that change the file system by path: unlink(at), rmdir,
 * mkdir(at), mknod(at), rename(at, at2), link(at), symlink(at), chmod,
 * fchmodat(2), chown, lchown, fchownat, utime, utimes, futimesat,
 * utimensat, truncate, setxattr, lsetxattr, removexattr, lremovexattr,
 * and on a descriptor fchmod, fchown, fsetxattr, fremovexattr (decided on
 * the file the descriptor refers to: they change it whatever it was opened
 * for). Each path is resolved as the target: calls on a name up to its
 * parent (the name itself is what they act on), calls on a file whole. An
 * allowed call is performed as the target by its *at variant on what was
 * resolved (emulate-mutate.c), with the arguments copied once (the
 * symlink's text, the times, an xattr's name and value).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <time.h>
#include <utime.h>
#include <linux/fs.h>

#include "enforce-call.h"
#include "lib/util.h"
#include "lib/uapi.h"


enum mutate_kind {
	MUTATE_UNLINK,
	MUTATE_MKDIR,
	MUTATE_MKNOD,
	MUTATE_RENAME,
	MUTATE_LINK,
	MUTATE_SYMLINK,
	MUTATE_CHMOD,
	MUTATE_CHOWN,
	MUTATE_UTIMENS,  /* struct timespec[2] */
	MUTATE_UTIMES,   /* struct timeval[2] */
	MUTATE_UTIME,    /* struct utimbuf */
	MUTATE_TRUNCATE,
	MUTATE_SETXATTR, /* name in text, value copied */
	MUTATE_REMOVEXATTR,
};

/* include/uapi/linux/limits.h: an xattr name, a value. */
#define MUTATE_XATTR_NAME_MAX 255
#define MUTATE_XATTR_SIZE_MAX 65536

struct mutate_state {
	enum mutate_kind kind;
	int dirfd[2];
	uint64_t path_addr[2];
	enum unotify_walk walk[2];
	bool empty_path[2];  /* AT_EMPTY_PATH: "" is the dirfd's file */
	bool null_is_fd[2];  /* utimensat, futimesat: a NULL path is the dirfd's file */
	uint64_t a0, a1, a2; /* flags, mode, dev, uid, gid, times, length: by kind */
	uint64_t text_addr;  /* symlink's target text, an xattr's name */
	char text[4096];
	bool have_text;
	bool on_fd;          /* fchmod, fchown, fsetxattr, fremovexattr: path 0 is dirfd[0]'s file */
	uint64_t value_addr; /* setxattr: the value, a2 bytes of it */
	uint8_t *value;
	int early;           /* the kernel refuses the arguments before any lookup */
};

#define MUTATE_ONE(k, d, p, w) \
	(struct mutate_state){ .kind = (k), .dirfd = { (d), AT_FDCWD }, \
			       .path_addr = { (p), 0 }, .walk = { (w), UNOTIFY_WALK_PARENT } }
#define MUTATE_TWO(k, d0, p0, w0, d1, p1) \
	(struct mutate_state){ .kind = (k), .dirfd = { (d0), (d1) }, \
			       .path_addr = { (p0), (p1) }, .walk = { (w0), UNOTIFY_WALK_PARENT } }
#define PARENT   UNOTIFY_WALK_PARENT
#define FOLLOW   UNOTIFY_WALK_FOLLOW
#define NOFOLLOW UNOTIFY_WALK_NOFOLLOW

/* The AT_* flags of the calls on a file: AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH. */
static void mutate_at_flags(struct mutate_state *s, uint64_t flags)
{
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		s->early = EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		s->walk[0] = NOFOLLOW;
	s->empty_path[0] = flags & AT_EMPTY_PATH;
}

static void mutate_decode_rename(struct mutate_state *s, uint64_t flags)
{
	if (flags & ~(uint64_t)(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		s->early = EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		s->early = EINVAL;
	s->a0 = flags;
}

static void mutate_decode_link(struct mutate_state *s, uint64_t flags)
{
	if (flags & ~(uint64_t)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		s->early = EINVAL;
	/* By default the name itself is linked (a symlink too): resolved up to its parent. */
	s->walk[0] = (flags & AT_SYMLINK_FOLLOW) ? FOLLOW : PARENT;
	s->empty_path[0] = flags & AT_EMPTY_PATH;
}

/* utimensat and futimesat on a NULL path act on the dirfd's file (do_utimes). */
static void mutate_decode_utimes(struct mutate_state *s, enum mutate_kind kind, uint64_t times,
				 uint64_t flags)
{
	s->kind = kind;
	s->a0 = times;
	s->null_is_fd[0] = s->dirfd[0] != AT_FDCWD;
	if (kind == MUTATE_UTIMENS)
		mutate_at_flags(s, flags);
	if (s->path_addr[0] == 0 && s->null_is_fd[0] && flags)
		s->early = EINVAL;
}

#ifdef SYS_unlink
/* The system calls x86_64 keeps from before the *at family. */
static bool mutate_decode_legacy(struct mutate_state *s, int nr, const uint64_t *a)
{
	switch (nr) {
	case SYS_unlink:
		*s = MUTATE_ONE(MUTATE_UNLINK, AT_FDCWD, a[0], PARENT);
		return true;
	case SYS_rmdir:
		*s = MUTATE_ONE(MUTATE_UNLINK, AT_FDCWD, a[0], PARENT);
		s->a0 = AT_REMOVEDIR;
		return true;
	case SYS_mkdir:
		*s = MUTATE_ONE(MUTATE_MKDIR, AT_FDCWD, a[0], PARENT);
		s->a1 = a[1];
		return true;
	case SYS_mknod:
		*s = MUTATE_ONE(MUTATE_MKNOD, AT_FDCWD, a[0], PARENT);
		s->a1 = a[1];
		s->a2 = a[2];
		return true;
	case SYS_rename:
		*s = MUTATE_TWO(MUTATE_RENAME, AT_FDCWD, a[0], PARENT, AT_FDCWD, a[1]);
		return true;
	case SYS_link:
		*s = MUTATE_TWO(MUTATE_LINK, AT_FDCWD, a[0], PARENT, AT_FDCWD, a[1]);
		return true;
	case SYS_symlink:
		*s = MUTATE_TWO(MUTATE_SYMLINK, AT_FDCWD, 0, PARENT, AT_FDCWD, a[1]);
		s->text_addr = a[0];
		return true;
	case SYS_chmod:
		*s = MUTATE_ONE(MUTATE_CHMOD, AT_FDCWD, a[0], FOLLOW);
		s->a1 = a[1];
		return true;
	case SYS_chown:
	case SYS_lchown:
		*s = MUTATE_ONE(MUTATE_CHOWN, AT_FDCWD, a[0], nr == SYS_lchown ? NOFOLLOW : FOLLOW);
		s->a1 = a[1];
		s->a2 = a[2];
		return true;
	case SYS_utime:
		*s = MUTATE_ONE(MUTATE_UTIME, AT_FDCWD, a[0], FOLLOW);
		s->a0 = a[1];
		return true;
	case SYS_utimes:
		*s = MUTATE_ONE(MUTATE_UTIMES, AT_FDCWD, a[0], FOLLOW);
		s->a0 = a[1];
		return true;
	case SYS_futimesat:
		*s = MUTATE_ONE(MUTATE_UTIMES, (int)a[0], a[1], FOLLOW);
		mutate_decode_utimes(s, MUTATE_UTIMES, a[2], 0);
		return true;
	}
	return false;
}
#else
static bool mutate_decode_legacy(struct mutate_state *s, int nr, const uint64_t *a)
{
	return false;
}
#endif

/* A call on a descriptor: the file it refers to is path 0 (no path in memory). */
static void mutate_decode_fd(struct mutate_state *s, uint64_t fd)
{
	s->on_fd = true;
	s->null_is_fd[0] = true;
	if ((int)fd < 0)
		s->early = EBADF;
}

/* setxattr_copy(): the flags are checked before the name, the value, the lookup. */
static void mutate_decode_setxattr(struct mutate_state *s, const uint64_t *a)
{
	s->text_addr = a[1];
	s->value_addr = a[2];
	s->a1 = a[3];
	s->a0 = (uint64_t)(int)a[4];
	if (!s->early && ((int)a[4] & ~(XATTR_CREATE | XATTR_REPLACE)))
		s->early = EINVAL;
}

static bool mutate_decode_xattrs(struct mutate_state *s, int nr, const uint64_t *a)
{
	switch (nr) {
	case SYS_setxattr:
	case SYS_lsetxattr:
		*s = MUTATE_ONE(MUTATE_SETXATTR, AT_FDCWD, a[0], nr == SYS_setxattr ? FOLLOW : NOFOLLOW);
		mutate_decode_setxattr(s, a);
		return true;
	case SYS_fsetxattr:
		*s = MUTATE_ONE(MUTATE_SETXATTR, (int)a[0], 0, FOLLOW);
		mutate_decode_fd(s, a[0]);
		mutate_decode_setxattr(s, a);
		return true;
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
		*s = MUTATE_ONE(MUTATE_REMOVEXATTR, nr == SYS_fremovexattr ? (int)a[0] : AT_FDCWD,
				nr == SYS_fremovexattr ? 0 : a[0],
				nr == SYS_lremovexattr ? NOFOLLOW : FOLLOW);
		if (nr == SYS_fremovexattr)
			mutate_decode_fd(s, a[0]);
		s->text_addr = a[1];
		return true;
	case SYS_fchmod:
		*s = MUTATE_ONE(MUTATE_CHMOD, (int)a[0], 0, FOLLOW);
		mutate_decode_fd(s, a[0]);
		s->a1 = a[1];
		return true;
	case SYS_fchown:
		*s = MUTATE_ONE(MUTATE_CHOWN, (int)a[0], 0, FOLLOW);
		mutate_decode_fd(s, a[0]);
		s->a1 = a[1];
		s->a2 = a[2];
		return true;
	}
	return false;
}

static bool mutate_decode_names(struct mutate_state *s, int nr, const uint64_t *a)
{
	switch (nr) {
	case SYS_unlinkat:
		*s = MUTATE_ONE(MUTATE_UNLINK, (int)a[0], a[1], PARENT);
		s->a0 = a[2];
		if (a[2] & ~(uint64_t)AT_REMOVEDIR)
			s->early = EINVAL;
		return true;
	case SYS_mkdirat:
		*s = MUTATE_ONE(MUTATE_MKDIR, (int)a[0], a[1], PARENT);
		s->a1 = a[2];
		return true;
	case SYS_mknodat:
		*s = MUTATE_ONE(MUTATE_MKNOD, (int)a[0], a[1], PARENT);
		s->a1 = a[2];
		s->a2 = a[3];
		return true;
	case SYS_renameat:
	case SYS_renameat2:
		*s = MUTATE_TWO(MUTATE_RENAME, (int)a[0], a[1], PARENT, (int)a[2], a[3]);
		mutate_decode_rename(s, nr == SYS_renameat2 ? a[4] : 0);
		return true;
	case SYS_linkat:
		*s = MUTATE_TWO(MUTATE_LINK, (int)a[0], a[1], PARENT, (int)a[2], a[3]);
		mutate_decode_link(s, a[4]);
		return true;
	case SYS_symlinkat:
		*s = MUTATE_TWO(MUTATE_SYMLINK, AT_FDCWD, 0, PARENT, (int)a[1], a[2]);
		s->text_addr = a[0];
		return true;
	}
	return false;
}

static bool mutate_decode_files(struct mutate_state *s, int nr, const uint64_t *a)
{
	switch (nr) {
	case SYS_fchmodat:
	case SYS_fchmodat2:
		*s = MUTATE_ONE(MUTATE_CHMOD, (int)a[0], a[1], FOLLOW);
		s->a1 = a[2];
		if (nr == SYS_fchmodat2)
			mutate_at_flags(s, a[3]);
		return true;
	case SYS_fchownat:
		*s = MUTATE_ONE(MUTATE_CHOWN, (int)a[0], a[1], FOLLOW);
		s->a1 = a[2];
		s->a2 = a[3];
		mutate_at_flags(s, a[4]);
		return true;
	case SYS_utimensat:
		*s = MUTATE_ONE(MUTATE_UTIMENS, (int)a[0], a[1], FOLLOW);
		mutate_decode_utimes(s, MUTATE_UTIMENS, a[2], a[3]);
		return true;
	case SYS_truncate:
		*s = MUTATE_ONE(MUTATE_TRUNCATE, AT_FDCWD, a[0], FOLLOW);
		s->a0 = a[1];
		if ((int64_t)a[1] < 0)
			s->early = EINVAL; /* checked before the lookup */
		return true;
	}
	return false;
}

static void mutate_decode(struct enforce_call *c)
{
	struct mutate_state *s = calloc(1, sizeof(*s));
	int nr = c->req->data.nr;

	c->state = s;
	for (int n = 0; n < 2; n++)
		c->has_path[n] = policy_pathcall_has(c->pc, n);
	if (!s)
		return;
	if (!mutate_decode_legacy(s, nr, c->args) && !mutate_decode_names(s, nr, c->args) &&
	    !mutate_decode_files(s, nr, c->args) && !mutate_decode_xattrs(s, nr, c->args))
		s->early = ENOSYS; /* a table entry without a decoder: fail closed */
}

/* symlink's text: read before the link's path, as the kernel does; "" is ENOENT. */
static int mutate_read_text(struct enforce_call *c, struct mutate_state *s)
{
	int r;

	if (s->kind != MUTATE_SYMLINK || s->have_text)
		return 0;
	r = unotify_mem_read_string(c->l, c->req, s->text_addr, s->text, sizeof(s->text));
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	if (r == 0)
		return enforce_fail(c, ENOENT);
	s->have_text = true;
	return 0;
}

/* An xattr's name (and value): copied before the lookup, with the kernel's errors. */
static int mutate_read_xattr(struct enforce_call *c, struct mutate_state *s)
{
	size_t size = (size_t)s->a1;
	int r;

	if ((s->kind != MUTATE_SETXATTR && s->kind != MUTATE_REMOVEXATTR) || s->have_text)
		return 0;
	r = unotify_mem_read_string(c->l, c->req, s->text_addr, s->text, MUTATE_XATTR_NAME_MAX + 1);
	if (r == 0 || r == -ENAMETOOLONG)
		return enforce_fail(c, ERANGE);
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	if (s->kind == MUTATE_SETXATTR && size > MUTATE_XATTR_SIZE_MAX)
		return enforce_fail(c, E2BIG);
	if (s->kind == MUTATE_SETXATTR && size) {
		s->value = malloc(size);
		if (!s->value)
			return enforce_fail(c, ENOMEM);
		r = unotify_mem_read(c->l, c->req, s->value_addr, s->value, size);
		if (r < 0)
			return enforce_fail(c, r == -ENOENT ? ENOENT : EFAULT);
	}
	s->have_text = true;
	return 0;
}

static int mutate_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct mutate_state *s = c->state;
	struct unotify_path_how how;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	if (s->early)
		return enforce_fail(c, s->early);
	r = mutate_read_text(c, s);
	if (r == 0)
		r = mutate_read_xattr(c, s);
	if (r < 0)
		return r;
	if (!(s->path_addr[n] == 0 && s->null_is_fd[n])) {
		r = enforce_read_path(c, n, s->path_addr[n]);
		if (r < 0)
			return r;
	}
	how = (struct unotify_path_how){
		.dirfd = s->dirfd[n],
		.walk = s->walk[n],
		.empty_path = s->empty_path[n] || s->null_is_fd[n],
	};
	/* linkat(fd, "", ..., AT_EMPTY_PATH): the file fd refers to, not a name in it. */
	if (how.empty_path && how.walk == PARENT && c->paths[n].have_arg && !c->paths[n].arg[0])
		how.walk = FOLLOW;
	return enforce_resolve_path(c, n, &how, ret_path);
}

/* ---- Performing ---- */

static int mutate_timespec_ok(const struct timespec *t)
{
	return t->tv_nsec == UTIME_NOW || t->tv_nsec == UTIME_OMIT ||
	       (t->tv_nsec >= 0 && t->tv_nsec < 1000000000L);
}

/* The times, copied once, as utimensat takes them; *ret_now when NULL (now). */
static int mutate_read_times(struct enforce_call *c, struct mutate_state *s,
			     struct timespec ts[2], bool *ret_now)
{
	struct timeval tv[2];
	struct utimbuf ub;
	int r;

	*ret_now = s->a0 == 0;
	if (*ret_now)
		return 0;
	switch (s->kind) {
	case MUTATE_UTIMENS:
		r = unotify_mem_read(c->l, c->req, s->a0, ts, 2 * sizeof(*ts));
		if (r == 0 && (!mutate_timespec_ok(&ts[0]) || !mutate_timespec_ok(&ts[1])))
			r = -EINVAL;
		return r;
	case MUTATE_UTIMES:
		r = unotify_mem_read(c->l, c->req, s->a0, tv, sizeof(tv));
		for (int i = 0; r == 0 && i < 2; i++) {
			if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
				return -EINVAL;
			ts[i] = (struct timespec){ tv[i].tv_sec, tv[i].tv_usec * 1000 };
		}
		return r;
	default:
		r = unotify_mem_read(c->l, c->req, s->a0, &ub, sizeof(ub));
		ts[0] = (struct timespec){ r == 0 ? ub.actime : 0, 0 };
		ts[1] = (struct timespec){ r == 0 ? ub.modtime : 0, 0 };
		return r;
	}
}

static int mutate_times(struct enforce_call *c, struct mutate_state *s,
			const struct unotify_path *p)
{
	struct timespec ts[2];
	bool now;
	int r = mutate_read_times(c, s, ts, &now);

	if (r < 0)
		return r;
	/* Nothing to change: the kernel returns at once, without a lookup. */
	if (!now && ts[0].tv_nsec == UTIME_OMIT && ts[1].tv_nsec == UTIME_OMIT)
		return 0;
	return unotify_path_utimens(c->target, p, now ? NULL : ts);
}

/*
 * A call on a descriptor fails with EBADF when it is an O_PATH one, as the
 * kernel's fdget() does: pidfd_getfd refuses those alike. (The file itself
 * was resolved through the descriptor already.)
 */
static int mutate_check_fd(struct enforce_call *c, const struct mutate_state *s)
{
	int copy;

	if (!s->on_fd)
		return 0;
	copy = unotify_target_getfd(c->target, s->dirfd[0]);
	if (copy < 0)
		return copy;
	copy = safe_close(copy);
	return 0;
}

static int mutate_call(struct enforce_call *c, struct mutate_state *s,
		       const struct unotify_path *p0, const struct unotify_path *p1)
{
	unotify_target *t = c->target;
	int r = mutate_check_fd(c, s);

	if (r < 0)
		return r;
	switch (s->kind) {
	case MUTATE_UNLINK:
		return unotify_path_unlink(t, p0, (int)s->a0);
	case MUTATE_MKDIR:
		return unotify_path_mkdir(t, p0, (mode_t)s->a1);
	case MUTATE_MKNOD:
		return unotify_path_mknod(t, p0, (mode_t)s->a1, (unsigned int)s->a2);
	case MUTATE_RENAME:
		return unotify_path_rename(t, p0, p1, (unsigned int)s->a0);
	case MUTATE_LINK:
		return unotify_path_link(t, p0, p1);
	case MUTATE_SYMLINK:
		return unotify_path_symlink(t, s->text, p1);
	case MUTATE_CHMOD:
		return unotify_path_chmod(t, p0, (mode_t)s->a1);
	case MUTATE_CHOWN:
		return unotify_path_chown(t, p0, (uid_t)s->a1, (gid_t)s->a2);
	case MUTATE_UTIMENS:
	case MUTATE_UTIMES:
	case MUTATE_UTIME:
		return mutate_times(c, s, p0);
	case MUTATE_TRUNCATE:
		return unotify_path_truncate(t, p0, (int64_t)s->a0);
	case MUTATE_SETXATTR:
		return unotify_path_setxattr(t, p0, s->text, s->value, (size_t)s->a1, (int)s->a0);
	case MUTATE_REMOVEXATTR:
		return unotify_path_removexattr(t, p0, s->text);
	}
	return -ENOSYS;
}

/*
 * Every path the call takes, resolved (those the policy read already are
 * kept): 0, or the positive errno the call fails with.
 */
static int mutate_resolve_all(struct enforce_call *c, const struct unotify_path *p[2])
{
	const char *ignored;
	int r;

	for (int n = 0; n < 2; n++) {
		p[n] = NULL;
		if (!c->has_path[n])
			continue;
		r = mutate_path(c, n, &ignored);
		if (r < 0)
			return c->read_error ? c->read_error : -r;
		p[n] = &c->paths[n].res;
	}
	return 0;
}

static void mutate_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	const struct unotify_path *p[2];
	int err = mutate_resolve_all(c, p);
	int r;

	if (err) {
		enforce_verdict_errno(v, err);
		return;
	}
	r = mutate_call(c, c->state, p[0], p[1]);
	/* Past the program's RLIMIT_FSIZE the kernel raises SIGXFSZ too (inode_newsize_ok). */
	if (r == -EFBIG && ((struct mutate_state *)c->state)->kind == MUTATE_TRUNCATE) {
		enforce_verdict_signal(c, v, SIGXFSZ, EFBIG);
		return;
	}
	enforce_result(c, v, r);
}

static void mutate_release(struct enforce_call *c)
{
	struct mutate_state *s = c->state;

	if (s)
		free(s->value);
	enforce_free_state(c);
}

/* `deny ... kernel`: every path resolved, then the kernel's checks before its sandbox's. */
static int mutate_refuse(struct enforce_call *c)
{
	struct mutate_state *s = c->state;
	const struct unotify_path *p[2];
	unotify_target *t;
	int r = mutate_resolve_all(c, p);

	if (r)
		return r;
	r = enforce_target(c, &t);
	if (r < 0)
		return r == -ENOENT ? ENOENT : EPERM;
	/* symlink has one path, the new name. */
	if (!p[0])
		p[0] = p[1];
	return unotify_path_refusal(t, c->req->data.nr, p[0], p[1], (unsigned int)s->a0);
}

/*
 * Under a Landlock ruleset the program's own kernel refuses a rename or a
 * link into another directory (EXDEV: no refer right), a truncate where it
 * has no truncate right, a regular file made by mknod where it has no
 * make-reg right: the supervisor, outside the sandbox, performs them,
 * whatever decided them.
 */
static bool mutate_always_perform(const struct enforce_call *c)
{
	const struct mutate_state *s = c->state;

	return s && (s->kind == MUTATE_RENAME || s->kind == MUTATE_LINK ||
		     s->kind == MUTATE_TRUNCATE || s->kind == MUTATE_MKNOD);
}

const struct enforce_family enforce_mutate_family = {
	.decode = mutate_decode,
	.path = mutate_path,
	.perform = mutate_perform,
	.refuse = mutate_refuse,
	.always_perform = mutate_always_perform,
	.release = mutate_release,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_MUTATE,
};
