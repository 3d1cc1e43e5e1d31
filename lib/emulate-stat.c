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


/* Every call here needs a resolved file: an unresolved one fails as its lookup did. */
static int stat_check(const struct unotify_path *p)
{
	if (!p)
		return -EINVAL;
	if (p->error)
		return -p->error;
	return p->fd >= 0 ? 0 : -EINVAL;
}

int unotify_path_stat(unotify_target *t, const struct unotify_path *p, struct stat *ret)
{
	struct stat st;
	int r = stat_check(p);

	if (r < 0)
		return r;
	/*
	 * Without acting as the target: fstat needs no permission on the file,
	 * only the lookup did, and that was done as the target.
	 */
#ifdef SYS_newfstatat
	r = syscall(SYS_newfstatat, p->fd, "", &st, AT_EMPTY_PATH) < 0 ? negative_errno() : 0;
#else
	r = fstatat(p->fd, "", &st, AT_EMPTY_PATH) < 0 ? negative_errno() : 0;
#endif
	(void)t;
	if (r < 0)
		return r;
	*ret = st;
	return 0;
}

int unotify_path_statx(unotify_target *t, const struct unotify_path *p, unsigned int flags,
		       unsigned int mask, struct statx *ret)
{
	struct statx stx;
	int r = stat_check(p);

	if (r < 0)
		return r;
	(void)t;
	memset(&stx, 0, sizeof(stx));
	r = statx(p->fd, "", AT_EMPTY_PATH | (int)(flags & AT_STATX_SYNC_TYPE), mask, &stx);
	if (r < 0)
		return negative_errno();
	*ret = stx;
	return 0;
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
	r = emulate_enter(t, &saved);
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
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	n = syscall(SYS_faccessat2, p->fd, "", mode, AT_EMPTY_PATH | AT_EACCESS);
	/* Before 5.8 there is no faccessat2: no way to check as the target. Fail closed. */
	return emulate_leave(&saved, n < 0 ? negative_errno() : 0);
}
