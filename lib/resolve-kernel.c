/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel resolving for the target where its lookup is exact (the
 * path walk of resolve.c stays for what it cannot settle): one openat2,
 * confined to the pinned root's mount, named by the kernel's text and
 * proved by name.c. Run on a thread acting as the target (its ids).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"
#include "uapi.h"
#include "util.h"

/*
 * The kernel's own lookup, where it is exact for the target: one openat2
 * from the pinned root (an absolute path, RESOLVE_IN_ROOT: the target's
 * root is the pinned root) or from a start on the pinned root's mount,
 * with RESOLVE_NO_MAGICLINKS and RESOLVE_NO_XDEV: it follows symlinks as
 * the kernel does for the target (protected_symlinks included: the thread
 * has its ids), never leaves that mount, so never reaches procfs (whose
 * "self" would be ours). Its result is named by the kernel's text, proved
 * by name_check. Any failure, a symlink to be refused (ELOOP), a mount
 * crossed, O_CREAT or O_TMPFILE: 0, and the walk settles it (with the
 * target's errno and the name of where it failed).
 */
int resolve_kernel(const struct target *t, const struct resolve_how *how, struct resolved *ret)
{
	struct open_how oh = {
		.flags = O_PATH | O_CLOEXEC | (how->flags & (O_NOFOLLOW | O_DIRECTORY)),
		.resolve = how->resolve | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	_cleanup_close_ int fd = -1;
	struct target_stat st;
	bool unnamed;
	int start, r;

	if ((how->flags & (O_CREAT | (O_TMPFILE & ~O_DIRECTORY))) ||
	    !target_fid_equal(&t->root, &t->pinned_root))
		return 0;
	if (how->path[0] == '/' && !(how->resolve & (RESOLVE_IN_ROOT | RESOLVE_BENEATH))) {
		start = t->pinned_rootfd;
		oh.resolve |= RESOLVE_IN_ROOT;
	} else {
		start = how->start;
		if (start < 0 || target_fstat(start, &st) < 0 || st.fid.mnt != t->pinned_root.mnt)
			return 0;
	}
	fd = (int)syscall(SYS_openat2, start, how->path, &oh, sizeof(oh));
	if (fd < 0 || target_fstat(fd, &st) < 0 || st.automount)
		return 0;
	if (S_ISLNK(st.mode) && !(how->flags & O_PATH))
		return 0;
	/* A device node anywhere (CAP_MKNOD) opening into our network namespace: the walk refuses. */
	if (!(how->flags & O_PATH) && resolve_ns_dev_foreign(t, &st, true) != 0)
		return 0;
	r = resolve_fd_name(t, fd, ret->path, sizeof(ret->path), &unnamed);
	if (r < 0 || unnamed)
		return r < 0 ? r : 0;
	ret->fd = TAKE_FD(fd);
	ret->type = st.mode & S_IFMT;
	ret->error = 0;
	ret->creates = false;
	ret->link[0] = '\0';
	ret->unnamed = false;
	return 1;
}
