/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls that read metadata, performed on the file resolved as the target
 * (emulate-path.c): stat, statx, readlink, access. The result is the
 * kernel's, taken through the resolved O_PATH fd, never by the path again;
 * the caller writes it into the target's memory (unotify_mem_write).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulate.h"
#include "util.h"
#include "uapi.h"


/*
 * The kernel's checks of the arguments, before any lookup: what the
 * target's own call fails with (EINVAL) whatever its path names.
 */
#define STAT_VALID_AT (AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE)

int unotify_path_stat_check(bool statx_call, uint64_t flags, uint64_t mask)
{
	if (flags & ~(uint64_t)STAT_VALID_AT)
		return -EINVAL;
	if (statx_call && (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (statx_call && (mask & STATX__RESERVED))
		return -EINVAL;
	return 0;
}

int unotify_path_access_check(uint64_t mode, uint64_t flags)
{
	if (mode & ~(uint64_t)(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(uint64_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	return 0;
}

int unotify_path_readlink_check(uint64_t size)
{
	/* do_readlinkat(): bufsiz is an int, and must be positive. */
	return (int)size <= 0 ? -EINVAL : 0;
}

/* Every call here needs a resolved file: an unresolved one fails as its lookup did. */
static int stat_check(const struct unotify_path *p)
{
	if (!p)
		return -EINVAL;
	if (p->error)
		return -p->error;
	return p->fd >= 0 || (p->guessed && p->text) ? 0 : -EINVAL;
}

/*
 * A guessed path (unotify_path_how.guess): its one lookup, as the target
 * (its ids: search permission is the target's), which proves the name.
 * An O_PATH fd, the target's -errno, or -UNOTIFY_EGUESS.
 */
static int stat_guess_open(unotify_target *t, const struct unotify_path *p)
{
	struct target_saved saved;
	int fd, r;

	r = emulate_enter_as(t, 0, &saved);
	if (r < 0)
		return r;
	fd = emulate_guess_openat2(t, p->text, O_PATH | (p->nofollow ? O_NOFOLLOW : 0));
	r = emulate_leave(&saved, fd);
	if (r < 0 && fd >= 0)
		fd = safe_close(fd);
	return r;
}

/* The resolved file's O_PATH fd: p's own, or a guessed one's (*owned, to close). */
int emulate_path_fd(unotify_target *t, const struct unotify_path *p, int *owned)
{
	int r = stat_check(p);

	*owned = -1;
	if (r < 0)
		return r;
	if (!p->guessed)
		return p->fd;
	*owned = stat_guess_open(t, p);
	return *owned;
}

int unotify_path_stat(unotify_target *t, const struct unotify_path *p, struct stat *ret)
{
	_cleanup_close_ int owned = -1;
	struct stat st;
	int fd = emulate_path_fd(t, p, &owned), r;

	if (fd < 0)
		return fd;
	/*
	 * Without acting as the target: fstat needs no permission on the file,
	 * only the lookup did, and that was done as the target.
	 */
#ifdef SYS_newfstatat
	r = syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH) < 0 ? negative_errno() : 0;
#else
	r = fstatat(fd, "", &st, AT_EMPTY_PATH) < 0 ? negative_errno() : 0;
#endif
	if (r < 0)
		return r;
	*ret = st;
	return 0;
}

int unotify_path_statx(unotify_target *t, const struct unotify_path *p, unsigned int flags,
		       unsigned int mask, struct statx *ret)
{
	_cleanup_close_ int owned = -1;
	struct statx stx;
	int fd = emulate_path_fd(t, p, &owned), r;

	if (fd < 0)
		return fd;
	memset(&stx, 0, sizeof(stx));
	r = statx(fd, "", AT_EMPTY_PATH | (int)(flags & AT_STATX_SYNC_TYPE), mask, &stx);
	if (r < 0)
		return negative_errno();
	*ret = stx;
	return 0;
}

/*
 * A guessed path is never on procfs (no mount crossed from the pinned
 * root): the link's text is the same for any reader, read without acting.
 * "" of a file that is no symlink: ENOENT; the path named one: EINVAL.
 */
static int stat_readlink_guessed(unotify_target *t, const struct unotify_path *p, char *buf,
				 size_t size)
{
	_cleanup_close_ int fd = stat_guess_open(t, p);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = readlinkat(fd, "", buf, size);
	if (n < 0)
		return errno == ENOENT ? -EINVAL : negative_errno();
	return (int)n;
}

int unotify_path_readlink(unotify_target *t, const struct unotify_path *p, char *buf, size_t size)
{
	struct target_saved saved;
	ssize_t n;
	int r = stat_check(p);

	if (r < 0)
		return r;
	if (size == 0 || size > INT32_MAX)
		return -EINVAL;
	if (p->guessed)
		return stat_readlink_guessed(t, p, buf, size);
	if (p->type != S_IFLNK)
		return -EINVAL;
	if (p->link[0]) {
		/* /proc/self, /proc/thread-self: the kernel would name its reader, us. */
		n = (ssize_t)strnlen(p->link, sizeof(p->link));
		if ((size_t)n > size)
			n = (ssize_t)size;
		memcpy(buf, p->link, (size_t)n);
		return (int)n;
	}
	/*
	 * As the target, in its root: a procfs link (/proc/PID/exe, cwd, fd/N)
	 * is read by the kernel with a ptrace check of the reader, and its text
	 * is a path relative to the reader's root.
	 */
	r = emulate_enter_as(t, TARGET_ENTER_ROOT, &saved);
	if (r < 0)
		return r;
	n = readlinkat(p->fd, "", buf, size);
	return emulate_leave(&saved, n < 0 ? negative_errno() : (int)n);
}

int unotify_path_access(unotify_target *t, const struct unotify_path *p, int mode)
{
	struct target_saved saved;
	long n;
	int r = stat_check(p);

	if (r < 0)
		return r;
	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	/*
	 * AT_EACCESS: the check uses this thread's credentials, which are now
	 * the ids the target's call checks with (unotify_target_use_real_ids
	 * chose them), not the supervisor's real uid.
	 */
	r = emulate_enter_as(t, 0, &saved);
	if (r < 0)
		return r;
	if (p->guessed) {
		/* Looked up and checked with the same ids (the real ones when the call says so). */
		int fd = emulate_guess_openat2(t, p->text, O_PATH);

		r = fd;
		if (fd >= 0) {
			n = syscall(SYS_faccessat2, fd, "", mode, AT_EMPTY_PATH | AT_EACCESS);
			r = n < 0 ? negative_errno() : 0;
			fd = safe_close(fd);
		}
		return emulate_leave(&saved, r);
	}
	n = syscall(SYS_faccessat2, p->fd, "", mode, AT_EMPTY_PATH | AT_EACCESS);
	/* Before 5.8 there is no faccessat2: no way to check as the target. Fail closed. */
	return emulate_leave(&saved, n < 0 ? negative_errno() : 0);
}
