/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Path resolution as the kernel does it for the target, run on a thread
 * that already acts as the target (target_enter): its root is our root, its
 * fsuid, groups and capabilities are ours.
 *
 * Why not one openat2()? Because "/proc/self" and "/proc/thread-self" would
 * then name the supervisor: a target allowed everything under /proc could
 * read our memory map or environment, or open our listener through
 * /proc/self/fd. So the walk is ours, one component at a time, and the kernel still does every
 * lookup (search permission, mounts, ".." at the root, NAME_MAX): each step
 * is openat(dir, name, O_PATH | O_NOFOLLOW). Symlinks are read and followed
 * here, with the kernel's rules: 40 at most, protected_symlinks, trailing
 * slashes, O_NOFOLLOW, O_CREAT|O_EXCL, RESOLVE_*. Two kinds are special:
 *  - the procfs root's "self" and "thread-self" become the target's own
 *    numbers (its innermost pid namespace's when that /proc is not ours);
 *  - procfs "magic" links (/proc/PID/fd/N, cwd, root, exe, ns/...), whose
 *    text is no path, are followed by the kernel itself (openat without
 *    O_NOFOLLOW), which checks ptrace access with the target's credentials.
 *    A procfs link is magic unless its text is relative and its first
 *    component has no ':' (the kernel's plain procfs links are relative:
 *    "self/mounts", "self/net"; magic ones read as absolute paths or as
 *    "pipe:[N]", "net:[N]", "anon_inode:...").
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "target.h"
#include "uapi.h"
#include "util.h"


#define RESOLVE_MAX_LINKS 40 /* MAXSYMLINKS */
#define PROC_ROOT_INO     1

struct walk {
	const struct target *t;
	uint64_t flags;
	uint64_t resolve;
	int scope;                 /* borrowed: the dirfd of RESOLVE_BENEATH/IN_ROOT, or -1 */
	struct target_fid scope_id;
	uint64_t mnt;              /* RESOLVE_NO_XDEV: the mount every step must stay on */
	int cur;                   /* owned: the directory the next component is looked up in */
	struct target_stat cur_st;
	char *buf;                 /* owned: what is left of the path */
	char *p;                   /* the next component in buf */
	int links;
};

static bool fid_equal(const struct target_fid *a, const struct target_fid *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->mnt == b->mnt;
}

/* Takes fd: it becomes the directory we are in. */
static void walk_enter_dir(struct walk *w, int fd, const struct target_stat *st)
{
	if (w->cur >= 0)
		w->cur = safe_close(w->cur);
	w->cur = fd;
	w->cur_st = *st;
}

/* A kernel tunable of fs/; unreadable ones count as on (stricter). */
static int walk_sysctl(const char *name)
{
	_cleanup_close_ int fd = -1;
	char path[64], buf[16];
	ssize_t n;

	snprintf(path, sizeof(path), "sys/fs/%s", name);
	fd = openat(target_proc_fd(), path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 2;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 2;
	buf[n] = '\0';
	return atoi(buf);
}

/* Our name for an fd, relative to our root (the target's, while we act as it). */
static int walk_fd_name(int fd, char *out, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "self/fd/%d", fd);
	n = readlinkat(target_proc_fd(), link, out, size);
	if (n < 0)
		return negative_errno();
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}

int resolve_fd_name(int fd, char *out, size_t size)
{
	return walk_fd_name(fd, out, size);
}

int resolve_lexical(const char *base, const char *path, char *out, size_t size)
{
	const char *parts[2] = { path[0] == '/' ? "" : base, path };
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		for (const char *s = parts[i]; *s;) {
			size_t n = strcspn(s, "/");

			if (n == 2 && s[0] == '.' && s[1] == '.') {
				while (len > 0 && out[len - 1] != '/')
					len--;
				if (len > 0)
					len--;
			} else if (n > 0 && !(n == 1 && s[0] == '.')) {
				if (len + 1 + n + 1 > size)
					return -ENAMETOOLONG;
				out[len++] = '/';
				memcpy(out + len, s, n);
				len += n;
			}
			s += n;
			while (*s == '/')
				s++;
		}
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return 0;
}

/* The target fails with err here: name what it would have reached, as well as we can. */
static int walk_fail(struct walk *w, int err, struct resolved *ret)
{
	char dir[PATH_MAX] = "/";

	ret->error = err;
	if (w->cur >= 0 && walk_fd_name(w->cur, dir, sizeof(dir)) < 0)
		strcpy(dir, "/");
	return resolve_lexical(dir, w->p, ret->path, sizeof(ret->path));
}

/* The target fails with err on a file that exists: name it (and close fd). */
static int walk_fail_at(int fd, int err, struct resolved *ret)
{
	int r;

	ret->error = err;
	r = walk_fd_name(fd, ret->path, sizeof(ret->path));
	fd = safe_close(fd);
	return r;
}

static int walk_open(struct walk *w, const char *name, int flags, struct target_stat *ret_st)
{
	_cleanup_close_ int fd = openat(w->cur, name, flags | O_PATH | O_CLOEXEC);
	int r;

	if (fd < 0)
		return negative_errno();
	r = target_fstat(fd, ret_st);
	if (r < 0)
		return r;
	if (ret_st->automount) {
		/* O_PATH|O_NOFOLLOW does not trigger an automount; the target's walk would. */
		fd = safe_close(fd);
		fd = openat(w->cur, name, flags | O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return negative_errno();
		r = target_fstat(fd, ret_st);
		if (r < 0)
			return r;
	}
	if ((w->resolve & RESOLVE_NO_XDEV) && ret_st->fid.mnt != w->mnt)
		return -EXDEV;
	return TAKE_FD(fd);
}

static int walk_start(struct walk *w, int start, const char *path, struct resolved *ret)
{
	struct target_stat st;
	int fd;
	int r;

	if (path[0] == '/' && !(w->resolve & RESOLVE_IN_ROOT)) {
		if (w->resolve & RESOLVE_BENEATH)
			return walk_fail(w, EXDEV, ret);
		start = w->t->rootfd;
	}
	fd = fcntl(start, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return walk_fail(w, errno, ret);
	r = target_fstat(fd, &st);
	if (r < 0) {
		fd = safe_close(fd);
		return walk_fail(w, -r, ret);
	}
	walk_enter_dir(w, fd, &st);
	w->mnt = st.fid.mnt;
	if (!S_ISDIR(st.mode))
		return walk_fail(w, ENOTDIR, ret);
	if (w->resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) {
		w->scope = start;
		w->scope_id = st.fid;
	}
	return 1;
}

/*
 * The kernel checks search permission on a directory before it looks at the
 * name: errors that come from the name alone come after it.
 */
static int walk_fail_searchable(struct walk *w, int err, struct resolved *ret)
{
	struct target_stat st;
	int fd = walk_open(w, ".", 0, &st);

	if (fd < 0)
		return walk_fail(w, -fd, ret);
	fd = safe_close(fd);
	return err ? walk_fail(w, err, ret) : 1;
}

/* "." and "..": the kernel's own handling, but ".." stops at (or fails at) a dirfd scope. */
static int walk_dots(struct walk *w, bool dotdot, struct resolved *ret)
{
	struct target_stat st;
	int fd;

	if (dotdot && w->scope >= 0 && fid_equal(&w->cur_st.fid, &w->scope_id))
		return walk_fail_searchable(w, (w->resolve & RESOLVE_BENEATH) ? EXDEV : 0, ret);
	fd = walk_open(w, dotdot ? ".." : ".", 0, &st);
	if (fd < 0)
		return walk_fail(w, -fd, ret);
	walk_enter_dir(w, fd, &st);
	return 1;
}

/* fs.protected_symlinks: no following other users' links in sticky world-writable dirs. */
static int walk_may_follow(const struct walk *w, const struct target_stat *link)
{
	const struct target_stat *dir = &w->cur_st;

	if (link->uid == w->t->fsuid)
		return 0;
	if ((dir->mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	if (dir->uid == link->uid)
		return 0;
	return walk_sysctl("protected_symlinks") ? -EACCES : 0;
}

/* fs.protected_regular/fifos: O_CREAT on someone else's file in a sticky dir. */
static int walk_may_create_in_sticky(const struct walk *w, const struct target_stat *st)
{
	const struct target_stat *dir = &w->cur_st;
	int regular = 0, fifos = 0;

	if (!(dir->mode & S_ISVTX))
		return 0;
	if (S_ISREG(st->mode) && !(regular = walk_sysctl("protected_regular")))
		return 0;
	if (S_ISFIFO(st->mode) && !(fifos = walk_sysctl("protected_fifos")))
		return 0;
	if (st->uid == dir->uid || st->uid == w->t->fsuid)
		return 0;
	if (dir->mode & S_IWOTH)
		return -EACCES;
	if ((dir->mode & S_IWGRP) && (fifos >= 2 || regular >= 2))
		return -EACCES;
	return 0;
}

/* The procfs root's "self" and "thread-self", as the target reads them. */
static bool walk_proc_self(const struct walk *w, const char *name, char *text, size_t size)
{
	const struct target *t = w->t;
	bool ours = target_proc_is_ours(w->cur_st.fid.dev);
	pid_t tgid = ours ? t->tgid : t->ns_tgid;
	pid_t tid = ours ? t->tid : t->ns_tid;
	struct statfs sfs;

	if (w->cur_st.fid.ino != PROC_ROOT_INO)
		return false;
	if (strcmp(name, "self") != 0 && strcmp(name, "thread-self") != 0)
		return false;
	if (fstatfs(w->cur, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return false;
	if (strcmp(name, "self") == 0)
		snprintf(text, size, "%d", (int)tgid);
	else
		snprintf(text, size, "%d/task/%d", (int)tgid, (int)tid);
	return true;
}

static bool walk_is_magic(int linkfd, const char *text)
{
	struct statfs sfs;

	if (fstatfs(linkfd, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return false;
	return text[0] == '/' || memchr(text, ':', strcspn(text, "/")) != NULL;
}

/*
 * A magic link: the kernel jumps to the object. Scoped lookups refuse it
 * (EXDEV), RESOLVE_NO_MAGICLINKS too (ELOOP), as in nd_jump_link().
 */
static int walk_jump(struct walk *w, const char *name, char *next, bool last, bool trailing,
		     struct resolved *ret);

/* Replaces the component at w->p (ending at next) by the symlink's text. */
static int walk_splice(struct walk *w, const char *text, const char *next, struct resolved *ret)
{
	struct target_stat st;
	char *buf;
	int fd;

	if (!*text)
		return walk_fail(w, ENOENT, ret);
	buf = malloc(strlen(text) + strlen(next) + 1);
	if (!buf)
		return walk_fail(w, ENOMEM, ret);
	strcpy(stpcpy(buf, text), next);
	free(w->buf);
	w->buf = w->p = buf;
	if (text[0] != '/')
		return 1;
	if (w->resolve & RESOLVE_BENEATH)
		return walk_fail(w, EXDEV, ret);
	fd = fcntl(w->scope >= 0 ? w->scope : w->t->rootfd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || target_fstat(fd, &st) < 0) {
		int err = errno;

		if (fd >= 0)
			fd = safe_close(fd);
		return walk_fail(w, err, ret);
	}
	if ((w->resolve & RESOLVE_NO_XDEV) && st.fid.mnt != w->mnt) {
		fd = safe_close(fd);
		return walk_fail(w, EXDEV, ret);
	}
	walk_enter_dir(w, fd, &st);
	return 1;
}

static int walk_follow(struct walk *w, int linkfd, const struct target_stat *link,
		       const char *name, char *next, bool last, bool trailing,
		       struct resolved *ret)
{
	char text[PATH_MAX];
	ssize_t n;
	int r;

	if (w->resolve & RESOLVE_NO_SYMLINKS)
		return walk_fail(w, ELOOP, ret);
	if (w->links++ >= RESOLVE_MAX_LINKS)
		return walk_fail(w, ELOOP, ret);
	r = walk_may_follow(w, link);
	if (r < 0)
		return walk_fail(w, -r, ret);
	if (!walk_proc_self(w, name, text, sizeof(text))) {
		n = readlinkat(linkfd, "", text, sizeof(text));
		if (n < 0)
			return walk_fail(w, errno, ret);
		if ((size_t)n >= sizeof(text))
			return walk_fail(w, ENAMETOOLONG, ret);
		text[n] = '\0';
		if (walk_is_magic(linkfd, text))
			return walk_jump(w, name, next, last, trailing, ret);
	}
	return walk_splice(w, text, next, ret);
}

/* Where the path ends: checks of do_open() that come before any permission check. */
static int walk_final(struct walk *w, int fd, const struct target_stat *st, bool trailing,
		      bool dots, struct resolved *ret)
{
	int r;

	if (w->flags & O_CREAT) {
		if (w->flags & O_EXCL)
			return walk_fail_at(fd, EEXIST, ret);
		if (S_ISDIR(st->mode))
			return walk_fail_at(fd, EISDIR, ret);
		r = dots ? 0 : walk_may_create_in_sticky(w, st);
		if (r < 0)
			return walk_fail_at(fd, -r, ret);
	}
	if (((w->flags & O_DIRECTORY) || trailing) && !S_ISDIR(st->mode))
		return walk_fail_at(fd, ENOTDIR, ret);
	if (S_ISLNK(st->mode) && !(w->flags & O_PATH))
		return walk_fail_at(fd, ELOOP, ret);
	ret->fd = fd;
	ret->type = st->mode & S_IFMT;
	r = walk_fd_name(fd, ret->path, sizeof(ret->path));
	return r < 0 ? r : 0;
}

/* The path ends on the directory we are in ("/", ".", "..", "dir/."). */
static int walk_final_dir(struct walk *w, struct resolved *ret)
{
	int fd = w->cur;

	w->cur = -1;
	return walk_final(w, fd, &w->cur_st, false, true, ret);
}

static int walk_jump(struct walk *w, const char *name, char *next, bool last, bool trailing,
		     struct resolved *ret)
{
	struct target_stat st;
	int fd;

	if (w->resolve & RESOLVE_NO_MAGICLINKS)
		return walk_fail(w, ELOOP, ret);
	if (w->resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT))
		return walk_fail(w, EXDEV, ret);
	fd = walk_open(w, name, 0, &st);
	if (fd < 0)
		return walk_fail(w, -fd, ret);
	if (last)
		return walk_final(w, fd, &st, trailing, false, ret);
	if (!S_ISDIR(st.mode)) {
		fd = safe_close(fd);
		return walk_fail(w, ENOTDIR, ret);
	}
	walk_enter_dir(w, fd, &st);
	w->p = next;
	return 1;
}

/* O_CREAT and the name is free: the plan is to create it in the directory we are in. */
static int walk_create(struct walk *w, const char *name, struct resolved *ret)
{
	char dir[PATH_MAX];
	int r;

	r = walk_fd_name(w->cur, dir, sizeof(dir));
	if (r < 0)
		return r;
	if (snprintf(ret->path, sizeof(ret->path), "%s/%s", strcmp(dir, "/") ? dir : "", name) >=
	    (int)sizeof(ret->path))
		return -ENAMETOOLONG;
	strcpy(ret->base, name);
	ret->creates = true;
	ret->fd = TAKE_FD(w->cur);
	return 0;
}

static int walk_component(struct walk *w, size_t len, bool last, bool trailing,
			  struct resolved *ret)
{
	char name[NAME_MAX + 1];
	char *next = w->p + len;
	struct target_stat st;
	bool follow;
	int fd;

	if (len > NAME_MAX)
		return walk_fail_searchable(w, ENAMETOOLONG, ret);
	memcpy(name, w->p, len);
	name[len] = '\0';
	if (last && (w->flags & O_CREAT) && trailing)
		return walk_fail_searchable(w, EISDIR, ret);
	fd = walk_open(w, name, O_NOFOLLOW, &st);
	if (fd == -ENOENT && last && (w->flags & O_CREAT))
		return walk_create(w, name, ret);
	if (fd < 0)
		return walk_fail(w, -fd, ret);
	/* O_CREAT|O_EXCL never follows; a trailing slash always does. */
	follow = !last || trailing ||
		 !((w->flags & O_NOFOLLOW) || ((w->flags & O_CREAT) && (w->flags & O_EXCL)));
	if (S_ISLNK(st.mode) && follow) {
		_cleanup_close_ int linkfd = fd;

		return walk_follow(w, linkfd, &st, name, next, last, trailing, ret);
	}
	/* The kernel reads /proc/self as its reader: what the target would read, for readlink. */
	if (last && S_ISLNK(st.mode))
		walk_proc_self(w, name, ret->link, sizeof(ret->link));
	if (last)
		return walk_final(w, fd, &st, trailing, false, ret);
	if (!S_ISDIR(st.mode)) {
		fd = safe_close(fd);
		return walk_fail(w, ENOTDIR, ret);
	}
	walk_enter_dir(w, fd, &st);
	w->p = next;
	return 1;
}

static int walk_step(struct walk *w, struct resolved *ret)
{
	size_t len;
	bool last, trailing;
	const char *q;

	while (*w->p == '/')
		w->p++;
	if (*w->p == '\0')
		return walk_final_dir(w, ret);
	len = strcspn(w->p, "/");
	trailing = w->p[len] == '/';
	for (q = w->p + len; *q == '/'; q++)
		;
	last = *q == '\0';
	if ((len == 1 && w->p[0] == '.') || (len == 2 && w->p[0] == '.' && w->p[1] == '.')) {
		int r = walk_dots(w, len == 2, ret);

		if (r <= 0)
			return r;
		w->p += len;
		return 1;
	}
	return walk_component(w, len, last, trailing, ret);
}

int resolve_walk(const struct target *t, const struct resolve_how *how, struct resolved *ret)
{
	struct walk w = {
		.t = t,
		.flags = how->flags,
		.resolve = how->resolve,
		.scope = -1,
		.cur = -1,
	};
	int r;

	ret->fd = -1;
	ret->error = 0;
	ret->creates = false;
	ret->type = 0;
	ret->link[0] = '\0';
	w.buf = strdup(how->path);
	if (!w.buf)
		return -ENOMEM;
	w.p = w.buf;
	r = walk_start(&w, how->start, how->path, ret);
	while (r > 0)
		r = walk_step(&w, ret);
	if (w.cur >= 0)
		w.cur = safe_close(w.cur);
	free(w.buf);
	if (r < 0 && ret->fd >= 0) {
		ret->fd = safe_close(ret->fd);
		ret->fd = -1;
	}
	return r;
}
