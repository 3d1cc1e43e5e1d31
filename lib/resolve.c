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
 * here, with the kernel's rules: 40 at most, protected_symlinks, nosymfollow mounts, trailing
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

/* How the walk reached a directory: what its procfs owner can be inherited from. */
enum walk_via {
	WALK_LOOKUP, /* a name looked up in w->cur */
	WALK_DOTDOT, /* "." or ".." of w->cur */
	WALK_JUMP,   /* anything else: the start, a magic link, an absolute symlink's root */
};

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
	bool cur_proc;             /* cur is on a procfs */
	enum procfs_owner owner;   /* whose cur is, on procfs (procfs.c) */
	struct procfs_view view;   /* the last procfs instance met (the target's numbers there) */
	bool unnamed;              /* a name given to the target's result is none (name.c) */
	int ns_kinds;              /* the target's namespaces that differ from ours, -1 unread */
};

static bool fid_equal(const struct target_fid *a, const struct target_fid *b)
{
	return target_fid_equal(a, b);
}

static bool walk_name_is_pid(const char *name)
{
	return name && name[0] >= '1' && name[0] <= '9' &&
	       strspn(name, "0123456789") == strlen(name);
}

/*
 * Whose the procfs file or directory fd (reached from w->cur as via says)
 * is: inherited from cur when it is below it in the same instance, found
 * from the task directory otherwise. Sets *ret_proc.
 */
static int walk_owner(struct walk *w, int fd, const struct target_stat *st, enum walk_via via,
		      const char *name, bool *ret_proc, enum procfs_owner *ret)
{
	bool same = w->cur >= 0 && via != WALK_JUMP && st->fid.dev == w->cur_st.fid.dev;

	*ret_proc = same ? w->cur_proc : procfs_is(fd);
	if (!*ret_proc) {
		*ret = PROCFS_NONE;
		return 0;
	}
	if (S_ISDIR(st->mode) && st->fid.ino == 1) {
		*ret = PROCFS_ROOT;
		return 0;
	}
	if (!same)
		/* A magic link or a dirfd into procfs: a file's task cannot be told from it. */
		return S_ISDIR(st->mode) ? procfs_owner_of_dir(&w->view, w->t, fd, st, ret)
					 : (*ret = PROCFS_UNKNOWN, 0);
	if (via == WALK_LOOKUP && w->owner == PROCFS_ROOT) {
		if (!S_ISDIR(st->mode) || !walk_name_is_pid(name)) {
			*ret = PROCFS_NONE; /* /proc/meminfo, /proc/sys */
			return 0;
		}
		return procfs_owner_of_top(&w->view, w->t, w->cur, st->fid.dev, fd, ret);
	}
	/* map_files: the kernel wants CAP_CHECKPOINT_RESTORE of the caller, target or not. */
	if (via == WALK_LOOKUP && w->owner == PROCFS_TARGET && strcmp(name, "map_files") == 0)
		*ret = PROCFS_OTHER;
	else
		*ret = w->owner;
	return 0;
}

static bool walk_owner_denied(enum procfs_owner o)
{
	return o == PROCFS_SUPERVISOR || o == PROCFS_UNKNOWN;
}

/*
 * A procfs directory of no task (/proc/sys...), or the name looked up in
 * it: what the kernel would find in our namespaces, not the target's, when
 * it is a per-namespace sysctl and the target's differs (resolve-ns.c).
 */
static int walk_ns_check(struct walk *w, bool proc, enum procfs_owner owner, int dirfd,
			 const char *name)
{
	int r;

	if (!proc || owner != PROCFS_NONE)
		return 0;
	r = resolve_ns_proc_foreign(w->t, &w->ns_kinds, dirfd, name);
	return r > 0 ? -EACCES : r;
}

/* Takes fd: it becomes the directory we are in, if the target may be there. */
static int walk_enter_dir(struct walk *w, int fd, const struct target_stat *st, enum walk_via via,
			  const char *name)
{
	enum procfs_owner owner;
	bool proc;
	int r;

	r = walk_owner(w, fd, st, via, name, &proc, &owner);
	if (r == 0 && walk_owner_denied(owner))
		r = -EACCES;
	if (r == 0)
		r = walk_ns_check(w, proc, owner, fd, NULL);
	if (r < 0) {
		fd = safe_close(fd);
		return r;
	}
	if (w->cur >= 0)
		w->cur = safe_close(w->cur);
	w->cur = fd;
	w->cur_st = *st;
	w->cur_proc = proc;
	w->owner = owner;
	return 0;
}

/*
 * In the target's own /proc entries the kernel lets the target itself
 * through (same thread group), but not us in its credentials when it is
 * not dumpable: such lookups and links are ours to make.
 */
static int walk_lend_begin(const struct walk *w)
{
	return w->owner == PROCFS_TARGET ? target_suspend() : 0;
}

static int walk_lend_end(const struct walk *w)
{
	return w->owner == PROCFS_TARGET ? target_resume() : 0;
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

/* The kernel's text for an fd of ours, relative to our root (the pinned root, while acting). */
static int walk_fd_text(int fd, char *out, size_t size)
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

int resolve_fd_name(const struct target *t, int fd, char *out, size_t size, bool *ret_unnamed)
{
	struct target_stat st;
	int r;

	r = walk_fd_text(fd, out, size);
	if (r == 0)
		r = target_fstat(fd, &st);
	if (r == 0)
		r = name_check(t->pinned_rootfd, out, &st.fid);
	if (r < 0)
		return r;
	*ret_unnamed = r == 0;
	return 0;
}

/* The name the policy sees for fd: remembered as none when it is not one (name.c). */
static int walk_fd_name(struct walk *w, int fd, char *out, size_t size)
{
	bool unnamed;
	int r = resolve_fd_name(w->t, fd, out, size, &unnamed);

	if (r < 0)
		return r;
	if (unnamed)
		w->unnamed = true;
	return 0;
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

	if (err == ENOTRECOVERABLE)
		return -ENOTRECOVERABLE; /* ours, not the target's */
	ret->error = err;
	/* No directory yet (RESOLVE_BENEATH and an absolute path): the call fails anyway. */
	if (w->cur >= 0 && walk_fd_name(w, w->cur, dir, sizeof(dir)) < 0) {
		strcpy(dir, "/");
		w->unnamed = true;
	}
	return resolve_lexical(dir, w->p, ret->path, sizeof(ret->path));
}

/* The target fails with err on a file that exists: name it (and close fd). */
static int walk_fail_at(struct walk *w, int fd, int err, struct resolved *ret)
{
	int r;

	ret->error = err;
	r = walk_fd_name(w, fd, ret->path, sizeof(ret->path));
	fd = safe_close(fd);
	return r;
}

static int walk_openat(struct walk *w, const char *name, int flags)
{
	int fd, r, q;

	r = walk_lend_begin(w);
	fd = r < 0 ? -1 : openat(w->cur, name, flags | O_PATH | O_CLOEXEC);
	if (r == 0 && fd < 0)
		r = negative_errno();
	q = walk_lend_end(w);
	if (q < 0) {
		if (fd >= 0)
			fd = safe_close(fd);
		return q;
	}
	return fd >= 0 ? fd : r;
}

static int walk_open(struct walk *w, const char *name, int flags, struct target_stat *ret_st)
{
	_cleanup_close_ int fd = walk_openat(w, name, flags);
	int r;

	if (fd < 0)
		return fd;
	r = target_fstat(fd, ret_st);
	if (r < 0)
		return r;
	if (ret_st->automount) {
		/* O_PATH|O_NOFOLLOW does not trigger an automount; the target's walk would. */
		fd = safe_close(fd);
		fd = walk_openat(w, name, flags | O_DIRECTORY);
		if (fd < 0)
			return fd;
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
	w->mnt = st.fid.mnt;
	w->cur = fd; /* named in a failure */
	w->cur_st = st;
	if (!S_ISDIR(st.mode))
		return walk_fail(w, ENOTDIR, ret);
	/* A cwd or dirfd in /proc/PID of ours is refused like any path to it. */
	r = walk_owner(w, fd, &st, WALK_JUMP, NULL, &w->cur_proc, &w->owner);
	if (r == 0 && walk_owner_denied(w->owner))
		r = -EACCES;
	if (r == 0)
		r = walk_ns_check(w, w->cur_proc, w->owner, fd, NULL);
	if (r < 0)
		return walk_fail(w, -r, ret);
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

/*
 * "." and "..": the kernel's own handling, but ".." stops at (or fails at)
 * a dirfd scope, and stops at the target's root. (The thread is chrooted
 * in the sandbox's pinned root, which the target may have left for one
 * below it: the kernel would stop the target's ".." there.)
 */
static int walk_dots(struct walk *w, bool dotdot, struct resolved *ret)
{
	struct target_stat st;
	int fd, r;

	if (dotdot && w->scope >= 0 && fid_equal(&w->cur_st.fid, &w->scope_id))
		return walk_fail_searchable(w, (w->resolve & RESOLVE_BENEATH) ? EXDEV : 0, ret);
	if (dotdot && fid_equal(&w->cur_st.fid, &w->t->root))
		return walk_fail_searchable(w, 0, ret);
	fd = walk_open(w, dotdot ? ".." : ".", 0, &st);
	if (fd < 0)
		return walk_fail(w, -fd, ret);
	r = walk_enter_dir(w, fd, &st, WALK_DOTDOT, NULL);
	return r < 0 ? walk_fail(w, -r, ret) : 1;
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

/*
 * The procfs root's "self" and "thread-self", as the target reads them:
 * its numbers in that instance's pid namespace (procfs.c). 1: text is
 * set; 0: not such a link; -errno: what the target's lookup gets.
 */
static int walk_proc_self(struct walk *w, const char *name, char *text, size_t size)
{
	bool thread = strcmp(name, "thread-self") == 0;
	int r;

	if (w->owner != PROCFS_ROOT || (!thread && strcmp(name, "self") != 0))
		return 0;
	r = procfs_view_get(&w->view, w->t, w->cur, w->cur_st.fid.dev);
	if (r == 0)
		r = procfs_self_text(&w->view, thread, text, size);
	return r < 0 ? r : 1;
}

static bool walk_is_magic(const struct statfs *link_fs, const char *text)
{
	if (link_fs->f_type != PROC_SUPER_MAGIC)
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
	int fd, r;

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
	r = walk_enter_dir(w, fd, &st, WALK_JUMP, NULL);
	return r < 0 ? walk_fail(w, -r, ret) : 1;
}

/* readlink of a link in w->cur (ours to read in the target's own /proc entries). */
static int walk_readlink(struct walk *w, int linkfd, char *text, size_t size)
{
	ssize_t n;
	int r, q;

	r = walk_lend_begin(w);
	n = r < 0 ? -1 : readlinkat(linkfd, "", text, size);
	if (r == 0 && n < 0)
		r = negative_errno();
	q = walk_lend_end(w);
	if (q < 0 || r < 0)
		return q < 0 ? q : r;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	text[n] = '\0';
	return 0;
}

static int walk_follow(struct walk *w, int linkfd, const struct target_stat *link,
		       const char *name, char *next, bool last, bool trailing,
		       struct resolved *ret)
{
	char text[PATH_MAX];
	struct statfs link_fs;
	int r;

	if (w->resolve & RESOLVE_NO_SYMLINKS)
		return walk_fail(w, ELOOP, ret);
	if (w->links++ >= RESOLVE_MAX_LINKS)
		return walk_fail(w, ELOOP, ret);
	/* Its mount's flags: the kernel follows no link of a nosymfollow mount (ELOOP). */
	if (fstatfs(linkfd, &link_fs) < 0)
		return walk_fail(w, errno, ret);
	if (link_fs.f_flags & ST_NOSYMFOLLOW)
		return walk_fail(w, ELOOP, ret);
	r = walk_may_follow(w, link);
	if (r < 0)
		return walk_fail(w, -r, ret);
	r = walk_proc_self(w, name, text, sizeof(text));
	if (r < 0)
		return walk_fail(w, -r, ret);
	if (r == 0) {
		r = walk_readlink(w, linkfd, text, sizeof(text));
		if (r < 0)
			return walk_fail(w, -r, ret);
		if (walk_is_magic(&link_fs, text))
			return walk_jump(w, name, next, last, trailing, ret);
	}
	return walk_splice(w, text, next, ret);
}

/*
 * The name of the final file. What a magic link leads to may have no name
 * under the pinned root and still be the target's own to reopen: runc's
 * exec fifo outside the container, a deleted or memfd file it holds. It is
 * then named by the link the target followed, /proc/PID/fd/N, which is a
 * path under that root (a policy can rule on it). Anything reached by name
 * with no name of its own stays unnamed.
 */
static int walk_final_name(struct walk *w, int fd, enum walk_via via, const char *name,
			   char *out, size_t size)
{
	char dir[PATH_MAX];
	bool unnamed;
	int r;

	r = resolve_fd_name(w->t, fd, out, size, &unnamed);
	if (r == 0 && unnamed && via == WALK_JUMP && name && w->cur >= 0) {
		r = resolve_fd_name(w->t, w->cur, dir, sizeof(dir), &unnamed);
		if (r == 0 && !unnamed &&
		    snprintf(out, size, "%s/%s", strcmp(dir, "/") ? dir : "", name) >= (int)size)
			r = -ENAMETOOLONG;
	}
	if (r < 0)
		return r;
	if (unnamed)
		w->unnamed = true;
	return 0;
}

/*
 * Where the path ends: checks of do_open() that come before any permission
 * check. via and name say how fd was reached (whose it is on procfs);
 * checked false: fd is w->cur, whose owner is known already.
 */
static int walk_final(struct walk *w, int fd, const struct target_stat *st, bool trailing,
		      bool dots, enum walk_via via, const char *name, struct resolved *ret)
{
	enum procfs_owner owner;
	bool proc;
	int r;

	if (!dots) {
		r = walk_owner(w, fd, st, via, name, &proc, &owner);
		if (r < 0) {
			fd = safe_close(fd);
			return r;
		}
		if (walk_owner_denied(owner))
			return walk_fail_at(w, fd, EACCES, ret);
		/* A file reached by a magic link is the target's own open file: no lookup binds it. */
		if (S_ISDIR(st->mode))
			r = walk_ns_check(w, proc, owner, fd, NULL);
		else if (via == WALK_LOOKUP)
			r = walk_ns_check(w, proc, owner, w->cur, name);
		/* In doubt (the namespace unreadable), refused too. */
		if (r == 0 && !(w->flags & O_PATH) && resolve_ns_dev_foreign(w->t, st, true) != 0)
			r = -EACCES;
		if (r == -EACCES)
			return walk_fail_at(w, fd, EACCES, ret);
		if (r < 0) {
			fd = safe_close(fd);
			return r;
		}
	}
	if (w->flags & O_CREAT) {
		if (w->flags & O_EXCL)
			return walk_fail_at(w, fd, EEXIST, ret);
		if (S_ISDIR(st->mode))
			return walk_fail_at(w, fd, EISDIR, ret);
		r = dots ? 0 : walk_may_create_in_sticky(w, st);
		if (r < 0)
			return walk_fail_at(w, fd, -r, ret);
	}
	if (((w->flags & O_DIRECTORY) || trailing) && !S_ISDIR(st->mode))
		return walk_fail_at(w, fd, ENOTDIR, ret);
	if (S_ISLNK(st->mode) && !(w->flags & O_PATH))
		return walk_fail_at(w, fd, ELOOP, ret);
	ret->fd = fd;
	ret->type = st->mode & S_IFMT;
	r = walk_final_name(w, fd, via, name, ret->path, sizeof(ret->path));
	return r < 0 ? r : 0;
}

/* The path ends on the directory we are in ("/", ".", "..", "dir/."). */
static int walk_final_dir(struct walk *w, struct resolved *ret)
{
	int fd = w->cur;

	w->cur = -1;
	return walk_final(w, fd, &w->cur_st, false, true, WALK_DOTDOT, NULL, ret);
}

static int walk_jump(struct walk *w, const char *name, char *next, bool last, bool trailing,
		     struct resolved *ret)
{
	struct target_stat st;
	int fd, r;

	if (w->resolve & RESOLVE_NO_MAGICLINKS)
		return walk_fail(w, ELOOP, ret);
	if (w->resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT))
		return walk_fail(w, EXDEV, ret);
	fd = walk_open(w, name, 0, &st);
	if (fd < 0)
		return walk_fail(w, -fd, ret);
	if (last)
		return walk_final(w, fd, &st, trailing, false, WALK_JUMP, name, ret);
	if (!S_ISDIR(st.mode)) {
		fd = safe_close(fd);
		return walk_fail(w, ENOTDIR, ret);
	}
	r = walk_enter_dir(w, fd, &st, WALK_JUMP, NULL);
	if (r < 0)
		return walk_fail(w, -r, ret);
	w->p = next;
	return 1;
}

/* O_CREAT and the name is free: the plan is to create it in the directory we are in. */
static int walk_create(struct walk *w, const char *name, struct resolved *ret)
{
	char dir[PATH_MAX];
	int r;

	r = walk_fd_name(w, w->cur, dir, sizeof(dir));
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

/* A final "self" not followed (readlink, lstat): the text the target reads, or its error. */
static int walk_final_link(struct walk *w, int fd, const char *name, struct resolved *ret)
{
	int r = walk_proc_self(w, name, ret->link, sizeof(ret->link));

	if (r < 0)
		return walk_fail_at(w, fd, -r, ret);
	return 1;
}

static int walk_component(struct walk *w, size_t len, bool last, bool trailing,
			  struct resolved *ret)
{
	char name[NAME_MAX + 1];
	char *next = w->p + len;
	struct target_stat st;
	bool follow;
	int fd, r;

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
	if (last && S_ISLNK(st.mode) && (r = walk_final_link(w, fd, name, ret)) <= 0)
		return r;
	if (last)
		return walk_final(w, fd, &st, trailing, false, WALK_LOOKUP, name, ret);
	if (!S_ISDIR(st.mode)) {
		fd = safe_close(fd);
		return walk_fail(w, ENOTDIR, ret);
	}
	r = walk_enter_dir(w, fd, &st, WALK_LOOKUP, name);
	if (r < 0)
		return walk_fail(w, -r, ret);
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

static int walk_once(const struct target *t, const struct resolve_how *how, struct resolved *ret)
{
	struct walk w = {
		.t = t,
		.flags = how->flags,
		.resolve = how->resolve,
		.scope = -1,
		.cur = -1,
		.view = { .rootfd = -1 },
		.ns_kinds = -1,
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
	procfs_view_release(&w.view);
	free(w.buf);
	ret->unnamed = w.unnamed;
	if (r < 0 && ret->fd >= 0) {
		ret->fd = safe_close(ret->fd);
		ret->fd = -1;
	}
	return r;
}

/*
 * A result that has no name is walked again: a file replaced by rename
 * between the walk and its naming (passwd, editors, log rotation) is found
 * anew. One that still has none after that is in another mount namespace
 * or outside the pinned root: unnamed.
 */
#define RESOLVE_NAME_TRIES 3

int resolve_walk(const struct target *t, const struct resolve_how *how, struct resolved *ret)
{
	int r = 0;

	for (int i = 0; i < RESOLVE_NAME_TRIES; i++) {
		if (i > 0 && ret->fd >= 0)
			ret->fd = safe_close(ret->fd);
		r = walk_once(t, how, ret);
		if (r < 0 || !ret->unnamed)
			break;
	}
	return r;
}
