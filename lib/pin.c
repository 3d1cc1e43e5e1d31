/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a sandbox is pinned to when its supervision starts: its root (the
 * names a policy sees are relative to it, whatever root the program moves
 * to later) and whether it shares our pid namespace (then it can name us).
 * Both are read through a pidfd: a pid may be reused by another process
 * between the moment it was given to us and the moment we look, a pidfd
 * may not. Whatever we opened by its number is the process's only if the
 * pidfd still says it is alive afterwards (a pid is not reused before its
 * process is reaped).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"
#include "uapi.h"
#include "util.h"

/* The pid of a pidfd in our pid namespace (its fdinfo, 5.10+). */
static int pin_pidfd_pid(int pidfd, pid_t *ret)
{
	_cleanup_free_ char *info = NULL;
	unsigned long long pid;
	char name[64];
	int r;

	snprintf(name, sizeof(name), "self/fdinfo/%d", pidfd);
	r = target_read_file(target_proc_fd(), name, &info);
	if (r < 0)
		return r;
	r = target_status_numbers(info, "Pid", 10, &pid, 1);
	if (r != 1)
		return r < 0 ? r : -EBADF; /* not a pidfd */
	/* -1: it exited; 0: it is not in our pid namespace. */
	if ((long long)pid <= 0)
		return (long long)pid == 0 ? -EXDEV : -ESRCH;
	*ret = (pid_t)pid;
	return 0;
}

static int pin_alive(int pidfd)
{
	if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) < 0)
		return negative_errno();
	return 0;
}

/* Opens /proc/PID/what (O_PATH, or flags) for the process of pidfd, and proves it is its. */
static int pin_open(int pidfd, const char *what, int flags, int *ret)
{
	_cleanup_close_ int fd = -1;
	char name[64];
	pid_t pid;
	int r;

	r = pin_pidfd_pid(pidfd, &pid);
	if (r < 0)
		return r;
	snprintf(name, sizeof(name), "%d/%s", (int)pid, what);
	fd = openat(target_proc_fd(), name, flags | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : negative_errno();
	r = pin_alive(pidfd);
	if (r < 0)
		return r;
	*ret = TAKE_FD(fd);
	return 0;
}

int unotify_root_open(int pidfd, int *ret_rootfd)
{
	if (pidfd < 0 || !ret_rootfd)
		return -EINVAL;
	return pin_open(pidfd, "root", O_PATH | O_DIRECTORY, ret_rootfd);
}

int unotify_pidns_shared(int pidfd)
{
	_cleanup_close_ int theirs = -1;
	struct stat a, b;
	int r;

	if (pidfd < 0)
		return -EINVAL;
	r = pin_open(pidfd, "ns/pid", O_RDONLY, &theirs);
	if (r < 0)
		return r;
	if (fstat(theirs, &a) < 0 || fstatat(target_proc_fd(), "self/ns/pid", &b, 0) < 0)
		return negative_errno();
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
