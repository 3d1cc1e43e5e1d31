/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls that change the file system, performed as the target on what was
 * resolved as the target (emulate-path.c):
 *  - calls on a name (unlink, rmdir, mkdir, mknod, rename, link, symlink)
 *    by their *at variant on the pinned parent directory and the last
 *    component, exactly as the target gave it (with its trailing slash, so
 *    the kernel applies its own rules for "name/", "." and "..");
 *  - calls on a file (chmod, chown, utimes, truncate) on the resolved file
 *    itself: through /proc/self/fd/N (looked up from our /proc, the kernel
 *    following the magic link to that very inode), or with AT_EMPTY_PATH.
 * The kernel checks each with the target's credentials, umask and root,
 * which emulate_enter() put on this thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulate.h"
#include "util.h"

#ifndef SYS_renameat2
#define SYS_renameat2 316
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

/* parent: the path must come from an UNOTIFY_WALK_PARENT walk, else from a whole one. */
static int mutate_check(const struct unotify_path *p, bool parent)
{
	if (!p)
		return -EINVAL;
	if (p->error)
		return -p->error;
	if (p->fd < 0 || parent != (p->name[0] != '\0'))
		return -EINVAL;
	return 0;
}

/* The result of a raw system call as 0 or -errno. */
static int mutate_result(long n)
{
	return n < 0 ? negative_errno() : 0;
}

int unotify_path_unlink(unotify_target *t, const struct unotify_path *p, int flags)
{
	struct target_saved saved;
	int r = mutate_check(p, true);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_result(unlinkat(p->fd, p->name, flags));
	return emulate_leave(&saved, r);
}

int unotify_path_mkdir(unotify_target *t, const struct unotify_path *p, mode_t mode)
{
	struct target_saved saved;
	int r = mutate_check(p, true);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_result(mkdirat(p->fd, p->name, mode));
	return emulate_leave(&saved, r);
}

int unotify_path_mknod(unotify_target *t, const struct unotify_path *p, mode_t mode,
		       unsigned int dev)
{
	struct target_saved saved;
	int r = mutate_check(p, true);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	/* The raw call: dev goes to the kernel in its own encoding, as the target gave it. */
	r = mutate_result(syscall(SYS_mknodat, p->fd, p->name, mode, dev));
	return emulate_leave(&saved, r);
}

int unotify_path_rename(unotify_target *t, const struct unotify_path *from,
			const struct unotify_path *to, unsigned int flags)
{
	struct target_saved saved;
	int r = mutate_check(from, true);

	if (r == 0)
		r = mutate_check(to, true);
	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_result(syscall(SYS_renameat2, from->fd, from->name, to->fd, to->name, flags));
	return emulate_leave(&saved, r);
}

/*
 * linkat of a file resolved whole: through its magic link. AT_EMPTY_PATH on
 * our fd would need CAP_DAC_READ_SEARCH (the fd is not the target's own),
 * which the target does not need for the same link by /proc/self/fd/N.
 */
static int mutate_link_file(const struct unotify_path *from, const struct unotify_path *to)
{
	char link[64];

	emulate_fd_link(from->fd, link, sizeof(link));
	return mutate_result(linkat(target_proc_fd(), link, to->fd, to->name, AT_SYMLINK_FOLLOW));
}

int unotify_path_link(unotify_target *t, const struct unotify_path *from,
		      const struct unotify_path *to)
{
	bool by_name = from && from->name[0] != '\0';
	struct target_saved saved;
	int r = mutate_check(from, by_name);

	if (r == 0)
		r = mutate_check(to, true);
	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	if (by_name)
		r = mutate_result(linkat(from->fd, from->name, to->fd, to->name, 0));
	else
		r = mutate_link_file(from, to);
	return emulate_leave(&saved, r);
}

int unotify_path_symlink(unotify_target *t, const char *text, const struct unotify_path *to)
{
	struct target_saved saved;
	int r = mutate_check(to, true);

	if (r < 0)
		return r;
	if (!text)
		return -EINVAL;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_result(symlinkat(text, to->fd, to->name));
	return emulate_leave(&saved, r);
}

/* ---- Calls on the file itself ---- */

static int mutate_chmod_as(const struct unotify_path *p, mode_t mode)
{
	char link[64];
	long n;

	if (p->type != S_IFLNK) {
		emulate_fd_link(p->fd, link, sizeof(link));
		return mutate_result(fchmodat(target_proc_fd(), link, mode, 0));
	}
	/* Only fchmodat2 (6.6) reaches a symlink itself; most file systems then say EOPNOTSUPP. */
	n = syscall(SYS_fchmodat2, p->fd, "", mode, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (n < 0 && errno == ENOSYS)
		return -EOPNOTSUPP;
	return mutate_result(n);
}

int unotify_path_chmod(unotify_target *t, const struct unotify_path *p, mode_t mode)
{
	struct target_saved saved;
	int r = mutate_check(p, false);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_chmod_as(p, mode);
	return emulate_leave(&saved, r);
}

int unotify_path_chown(unotify_target *t, const struct unotify_path *p, uid_t uid, gid_t gid)
{
	struct target_saved saved;
	int r = mutate_check(p, false);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	/* An empty path is the fd's file itself, a symlink included (lchown). */
	r = mutate_result(syscall(SYS_fchownat, p->fd, "", uid, gid, AT_EMPTY_PATH));
	return emulate_leave(&saved, r);
}

int unotify_path_utimens(unotify_target *t, const struct unotify_path *p,
			 const struct timespec *times)
{
	struct target_saved saved;
	char link[64];
	int r = mutate_check(p, false);

	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	if (p->type == S_IFLNK) {
		r = mutate_result(utimensat(p->fd, "", times, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
	} else {
		emulate_fd_link(p->fd, link, sizeof(link));
		r = mutate_result(utimensat(target_proc_fd(), link, times, 0));
	}
	return emulate_leave(&saved, r);
}

/*
 * truncate(2) has no *at variant: the file is opened for writing as the
 * target (the same checks: write permission, read-only mount, append-only,
 * a running executable) and cut with ftruncate. Resource limits are the
 * supervisor's, not the target's (RLIMIT_FSIZE).
 */
static int mutate_truncate_as(const struct unotify_path *p, int64_t length)
{
	_cleanup_close_ int fd = -1;
	char link[64];

	emulate_fd_link(p->fd, link, sizeof(link));
	fd = openat(target_proc_fd(), link, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	return mutate_result(ftruncate(fd, (off_t)length));
}

int unotify_path_truncate(unotify_target *t, const struct unotify_path *p, int64_t length)
{
	struct target_saved saved;
	int r = mutate_check(p, false);

	if (length < 0)
		return -EINVAL;
	if (r < 0)
		return r;
	if (p->type == S_IFDIR)
		return -EISDIR;
	if (p->type != S_IFREG)
		return -EINVAL;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	r = mutate_truncate_as(p, length);
	return emulate_leave(&saved, r);
}
