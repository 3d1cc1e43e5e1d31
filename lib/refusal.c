/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's answer to a call its sandbox refuses (policy `deny ...
 * kernel`), worked out by the supervisor when Landlock is not the layer
 * that refuses it: on a kernel without Landlock, with --no-landlock, and
 * for the calls the layer leaves to the supervisor (those that create or
 * remove a name, rename, link, truncate). The kernel checks its sandbox in
 * its LSM hooks; what it checks before, with its own errno, is reported
 * the same; then the refusal is EACCES. The checks, in the kernel's order
 * (fs/namei.c, fs/open.c), and how each is found without doing the call:
 *
 *  open, not creating  the lookup (resolve.c), EEXIST, EISDIR, ENOTDIR and
 *                      ELOOP (resolve.c's walk_final); O_TRUNC on a read-only
 *                      file system EROFS; the file's permissions, a read-only
 *                      file system, an immutable file (faccessat2 as the
 *                      target: EACCES, EROFS, EPERM); append-only and
 *                      O_NOATIME (EPERM); a program being run opened for
 *                      writing (ETXTBSY: some process runs that inode);
 *  open, creating      the lookup, then a read-only file system (EROFS);
 *  mkdir, mknod,       the parent's lookup, "." or ".." or an existing name
 *  symlink             (EEXIST), a trailing slash on a non-directory (ENOENT),
 *                      a read-only file system (EROFS);
 *  unlink, rmdir       the parent's lookup, "." and ".." (EISDIR; EINVAL and
 *                      ENOTEMPTY for rmdir), a read-only file system (EROFS),
 *                      a missing name (ENOENT), a trailing slash on a file
 *                      (ENOTDIR);
 *  rename, link        both lookups, two mounts (EXDEV), a read-only file
 *                      system (EROFS), a missing source (ENOENT), an existing
 *                      target where none may be (EEXIST);
 *  truncate            the lookup, a directory (EISDIR), not a regular file
 *                      (EINVAL), permissions and read-only file system and
 *                      immutable (faccessat2), append-only (EPERM), ETXTBSY;
 *  exec                the lookup.
 * A check the kernel makes after the sandbox's (ENOTEMPTY on a full
 * directory, EPERM on a sticky one...) never shows: the refusal comes first.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fs.h>

#include "emulate.h"
#include "internal.h"
#include "uapi.h"
#include "util.h"

static bool refusal_read_only(int fd)
{
	struct statvfs sv;

	return fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

/* Does some process run this inode (the kernel denies writing it: ETXTBSY)? */
static bool refusal_running(const struct stat *st)
{
	_cleanup_close_ int fd = openat(target_proc_fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd)))
		return false;
	fd = -1; /* the DIR owns it now */
	while (!found && (de = readdir(d))) {
		char link[300];
		struct stat ex;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(link, sizeof(link), "%s/exe", de->d_name);
		found = fstatat(dirfd(d), link, &ex, 0) == 0 && ex.st_dev == st->st_dev &&
			ex.st_ino == st->st_ino;
	}
	closedir(d);
	return found;
}

/*
 * may_open()'s checks on an existing file, then the write access the
 * kernel takes: acc is R_OK and W_OK as the open asks (O_TRUNC asks W_OK).
 * Runs as the target (faccessat2 with AT_EACCESS: its fsuid, groups, caps).
 */
static int refusal_file(const struct target *t, int fd, int acc, uint64_t flags)
{
	struct target_saved saved;
	struct statx stx;
	char link[64];
	struct stat st;
	int r, q;

	if (fstat(fd, &st) < 0)
		return errno;
	snprintf(link, sizeof(link), "self/fd/%d", fd);
	r = target_enter(t, &saved);
	if (r < 0)
		return EPERM; /* fail closed, as for any failure of ours */
	r = acc && syscall(SYS_faccessat2, target_proc_fd(), link, acc, AT_EACCESS) < 0 ? errno : 0;
	q = target_leave(&saved);
	if (q < 0)
		return EPERM;
	if (r)
		return r;
	if (statx(fd, "", AT_EMPTY_PATH, 0, &stx) == 0 &&
	    (stx.stx_attributes_mask & STATX_ATTR_APPEND) &&
	    (stx.stx_attributes & STATX_ATTR_APPEND) &&
	    (((acc & W_OK) && !(flags & O_APPEND)) || (flags & O_TRUNC)))
		return EPERM;
	if ((flags & O_NOATIME) && st.st_uid != t->fsuid && !(t->cap_eff & (1ULL << CAP_FOWNER)))
		return EPERM;
	/* FMODE_WRITE (the access mode, not O_TRUNC) on a regular file being run. */
	if (S_ISREG(st.st_mode) && (flags & O_ACCMODE) != O_RDONLY && refusal_running(&st))
		return ETXTBSY;
	return EACCES;
}

int refusal_open(const struct target *t, int fd, mode_t type, uint64_t flags, bool creates)
{
	int acc = 0;

	if (creates)
		return refusal_read_only(fd) ? EROFS : EACCES;
	if (flags & O_PATH)
		return EACCES;
	/* build_open_flags(): O_TRUNC asks for write access; the access mode 3 for both. */
	if ((flags & O_ACCMODE) != O_WRONLY)
		acc |= R_OK;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		acc |= W_OK;
	if (type == S_IFDIR && (acc & W_OK))
		return EISDIR;
	if (type == S_IFREG && (flags & O_TRUNC) && refusal_read_only(fd))
		return EROFS;
	return refusal_file(t, fd, acc, flags);
}

/* ---- Calls on a name: p comes from a parent walk ---- */

static bool refusal_dots(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "./") == 0 ||
	       strcmp(name, "../") == 0;
}

/* The name without its trailing slashes, and whether it had any. */
static bool refusal_name(const struct unotify_path *p, char *out, size_t size)
{
	size_t n = strlen(p->name);
	bool slash = n > 1 && p->name[n - 1] == '/';

	while (n > 1 && p->name[n - 1] == '/')
		n--;
	snprintf(out, size, "%.*s", (int)n, p->name);
	return slash;
}

/* The name's type, looked up as the target (0: none). */
static mode_t refusal_lookup(unotify_target *t, const struct unotify_path *p, const char *name)
{
	struct target_saved saved;
	struct stat st;
	int r;

	if (emulate_enter(t, &saved) < 0)
		return 0;
	r = fstatat(p->fd, name, &st, AT_SYMLINK_NOFOLLOW);
	if (emulate_leave(&saved, 0) < 0 || r < 0)
		return 0;
	return st.st_mode & S_IFMT;
}

static int refusal_create(unotify_target *t, const struct unotify_path *p, bool is_dir)
{
	char name[258];
	bool slash = refusal_name(p, name, sizeof(name));

	if (refusal_dots(p->name) || refusal_lookup(t, p, name))
		return EEXIST;
	if (slash && !is_dir)
		return ENOENT;
	return refusal_read_only(p->fd) ? EROFS : EACCES;
}

static int refusal_delete(unotify_target *t, const struct unotify_path *p, bool rmdir)
{
	char name[258];
	bool slash = refusal_name(p, name, sizeof(name));
	mode_t type;

	if (strcmp(name, ".") == 0)
		return rmdir ? EINVAL : EISDIR;
	if (strcmp(name, "..") == 0)
		return rmdir ? ENOTEMPTY : EISDIR;
	if (refusal_read_only(p->fd))
		return EROFS;
	type = refusal_lookup(t, p, name);
	if (!type)
		return ENOENT;
	if (slash && !rmdir)
		return type == S_IFDIR ? EISDIR : ENOTDIR;
	return EACCES;
}

static bool refusal_same_mount(int a, int b)
{
	struct statx sa, sb;

	if (statx(a, "", AT_EMPTY_PATH, STATX_MNT_ID, &sa) < 0 ||
	    statx(b, "", AT_EMPTY_PATH, STATX_MNT_ID, &sb) < 0 || !(sa.stx_mask & STATX_MNT_ID))
		return true;
	return sa.stx_mnt_id == sb.stx_mnt_id;
}

/* do_renameat2(): two mounts, read-only, the source, the target. */
static int refusal_rename(unotify_target *t, const struct unotify_path *a,
			  const struct unotify_path *b, unsigned int flags)
{
	char src[258], dst[258];

	refusal_name(a, src, sizeof(src));
	refusal_name(b, dst, sizeof(dst));
	if (!refusal_same_mount(a->fd, b->fd))
		return EXDEV;
	if (refusal_dots(a->name) || refusal_dots(b->name))
		return (flags & RENAME_NOREPLACE) && refusal_dots(b->name) ? EEXIST : EBUSY;
	if (refusal_read_only(b->fd))
		return EROFS;
	if (!refusal_lookup(t, a, src))
		return ENOENT;
	if ((flags & RENAME_NOREPLACE) && refusal_lookup(t, b, dst))
		return EEXIST;
	if ((flags & RENAME_EXCHANGE) && !refusal_lookup(t, b, dst))
		return ENOENT;
	return EACCES;
}

/* do_linkat(): the source (a name, or the file itself: a whole walk), then the new name. */
static int refusal_link(unotify_target *t, const struct unotify_path *a,
			const struct unotify_path *b)
{
	char src[258];
	int r;

	refusal_name(a, src, sizeof(src));
	if (a->name[0] && !refusal_lookup(t, a, src))
		return ENOENT;
	r = refusal_create(t, b, false);
	if (r != EACCES)
		return r;
	return refusal_same_mount(a->fd, b->fd) ? EACCES : EXDEV;
}

int unotify_path_refusal(unotify_target *t, int nr, const struct unotify_path *a,
			 const struct unotify_path *b, unsigned int flags)
{
	if (!t || !a)
		return EPERM;
	if (a->error)
		return a->error;
	if (b && b->error)
		return b->error;
	switch (nr) {
	case SYS_mkdirat:
#ifdef SYS_mkdir
	case SYS_mkdir:
#endif
		return refusal_create(t, a, true);
	case SYS_mknodat:
#ifdef SYS_mknod
	case SYS_mknod:
#endif
		return refusal_create(t, a, false);
	case SYS_symlinkat:
#ifdef SYS_symlink
	case SYS_symlink:
#endif
		return b ? refusal_create(t, b, false) : EPERM;
	case SYS_unlinkat:
		return refusal_delete(t, a, flags & AT_REMOVEDIR);
#ifdef SYS_unlink
	case SYS_unlink:
		return refusal_delete(t, a, false);
	case SYS_rmdir:
		return refusal_delete(t, a, true);
	case SYS_rename:
		return b ? refusal_rename(t, a, b, flags) : EPERM;
	case SYS_link:
#endif
	case SYS_linkat:
		return b ? refusal_link(t, a, b) : EPERM;
	case SYS_renameat:
	case SYS_renameat2:
		return b ? refusal_rename(t, a, b, flags) : EPERM;
	case SYS_truncate:
		if (a->type == S_IFDIR)
			return EISDIR;
		if (a->type != S_IFREG)
			return EINVAL;
		return refusal_file(&t->t, a->fd, W_OK, O_WRONLY | O_TRUNC);
	case SYS_execve:
	case SYS_execveat:
		return EACCES;
	}
	return EACCES;
}
