/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls that read a file's extended attributes or inode flags by path
 * (getxattr, lgetxattr, getxattrat, listxattr, llistxattr, listxattrat,
 * file_getattr), performed on the file resolved as the target
 * (emulate-path.c), never by the path again; the caller writes the result
 * into the target's memory (unotify_mem_write).
 *
 * The resolved file is an O_PATH fd, which the kernel's fd forms refuse:
 * fgetxattr, flistxattr, getxattrat(fd, "", AT_EMPTY_PATH) and
 * file_getattr(fd, "", AT_EMPTY_PATH) take it with fdget(), which leaves
 * O_PATH files out (EBADF). So the file is named by its magic link in our
 * /proc, looked up with the target's credentials: the kernel jumps to the
 * very file (mount and dentry: the same idmap) and stops there, a symlink
 * itself for the l- calls, then checks the read (inode_permission for
 * user.*, CAP_SYS_ADMIN for trusted.*, the LSM's hook) with those
 * credentials, as the target's own call would.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "emulate.h"
#include "uapi.h"
#include "util.h"

enum xattr_op {
	XATTR_OP_GET,
	XATTR_OP_LIST,
	XATTR_OP_FILE_GETATTR,
};

/* The call on our magic link of fd, as this thread is now (the target): a count, or -errno. */
static long xattr_call(enum xattr_op op, int fd, const char *name, void *buf, size_t size)
{
	char link[64];
	long n;
	int r;

	if (op == XATTR_OP_FILE_GETATTR) {
		/* file_getattr has a dirfd: no cwd needed. */
		emulate_fd_link(fd, link, sizeof(link));
		n = syscall(SYS_file_getattr, target_proc_fd(), link, buf, size, 0);
		return n < 0 ? negative_errno() : n;
	}
	r = emulate_fd_cwd_link(fd, link, sizeof(link));
	if (r < 0)
		return r;
	n = op == XATTR_OP_GET ? getxattr(link, name, buf, size) : listxattr(link, buf, size);
	return n < 0 ? negative_errno() : n;
}

static int xattr_as(unotify_target *t, const struct unotify_path *p, enum xattr_op op,
		    const char *name, void *buf, size_t size)
{
	_cleanup_close_ int owned = -1;
	struct target_saved saved;
	int fd = emulate_path_fd(t, p, &owned), r;

	if (fd < 0)
		return fd;
	r = emulate_enter_as(t, 0, &saved);
	if (r < 0)
		return r;
	/* A count fits: the kernel's values and lists are 64 KiB at most. */
	return emulate_leave(&saved, (int)xattr_call(op, fd, name, buf, size));
}

int unotify_path_getxattr(unotify_target *t, const struct unotify_path *p, const char *name,
			  void *buf, size_t size)
{
	if (!name || (size && !buf))
		return -EINVAL;
	return xattr_as(t, p, XATTR_OP_GET, name, buf, size);
}

int unotify_path_listxattr(unotify_target *t, const struct unotify_path *p, char *buf, size_t size)
{
	if (size && !buf)
		return -EINVAL;
	return xattr_as(t, p, XATTR_OP_LIST, NULL, buf, size);
}

int unotify_path_file_getattr(unotify_target *t, const struct unotify_path *p, void *buf,
			      size_t size)
{
	if (!buf)
		return -EINVAL;
	return xattr_as(t, p, XATTR_OP_FILE_GETATTR, NULL, buf, size);
}
