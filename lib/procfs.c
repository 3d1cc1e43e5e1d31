/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whose is a procfs directory? The path walk (resolve.c) asks whenever it
 * enters one, because the kernel's checks on /proc/PID are ptrace checks,
 * and one of them cannot be lent safely:
 *  - the supervisor's own entries (any thread, or a helper sharing its
 *    memory) pass every check for the supervising thread, whatever
 *    credentials it borrowed (same thread group): its memory, its fds (the
 *    listener), its cwd. They are never reached for a target: EACCES.
 *  - the target's own entries (its thread group) pass every check for the
 *    target itself, but not for us acting as it when it is not dumpable
 *    (runc's init opening its exec fifo through /proc/self/fd/N): they are
 *    walked with our own credentials, and the final open is still the
 *    target's (open.c reopens as the target).
 *  - any other task's: the kernel checks the target's credentials, which
 *    the thread holds. Nothing to add.
 * A procfs instance may belong to another pid namespace than ours: its
 * numbers are that namespace's. We find ours there by reading its "self"
 * (the kernel answers for the reader), and the target's by comparing that
 * namespace (the one of its pid 1) with the target's namespace and each of
 * its parents (NS_GET_PARENT). What cannot be told fails closed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "target.h"
#include "uapi.h"
#include "util.h"

#define PROCFS_ROOT_INO  1
#define PROCFS_MAX_DEPTH 16 /* /proc/PID/task/TID/net/dev_snmp6 is 6 deep */

bool procfs_is(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

void procfs_view_release(struct procfs_view *v)
{
	if (v->rootfd >= 0)
		v->rootfd = safe_close(v->rootfd);
	*v = (struct procfs_view){ .rootfd = -1 };
}

/* How many numbers a status line has, and the first max of them. */
static int procfs_numbers(const char *status, const char *key, pid_t *vals, size_t max)
{
	unsigned long long v[TARGET_PID_LEVELS];
	int n = target_status_numbers(status, key, 10, v, ARRAY_SIZE(v));

	if (n <= 0 || n > TARGET_PID_LEVELS)
		return n < 0 ? n : -EBADMSG;
	for (size_t i = 0; i < max && i < (size_t)n; i++)
		vals[i] = (pid_t)v[i];
	return n;
}

/* We are visible in the instance: how far its namespace is above ours. */
static int procfs_view_ours(struct procfs_view *v, const struct target *t, pid_t tgid)
{
	_cleanup_free_ char *status = NULL;
	pid_t levels[TARGET_PID_LEVELS];
	char name[32];
	int n, r;

	snprintf(name, sizeof(name), "%d/status", (int)tgid);
	r = target_read_file(v->rootfd, name, &status);
	if (r < 0)
		return r;
	n = procfs_numbers(status, "NStgid", levels, ARRAY_SIZE(levels));
	if (n < 0)
		return n;
	v->sup_tgid = tgid;
	v->sup_depth = (unsigned int)n - 1;
	/*
	 * Our own namespace: the target's numbers are ours. An ancestor of
	 * ours (someone's /proc we were given): we cannot tell the target's
	 * numbers there (NS_GET_PARENT stops at our namespace); its entries
	 * are then checked as another task's, and its "self" fails closed.
	 */
	if (v->sup_depth == 0) {
		v->target_known = true;
		v->target_tgid = t->nstgid[0];
		v->target_tid = t->nspid[0];
	}
	return 0;
}

static int procfs_ns_id(int fd, struct target_fid *ret)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return negative_errno();
	*ret = (struct target_fid){ .dev = st.st_dev, .ino = st.st_ino };
	return 0;
}

/*
 * We are not visible in the instance: its namespace is below ours or
 * beside it. It is the namespace of its pid 1; the target is there if
 * that is its own or one of its parents, k levels up.
 */
static int procfs_view_below(struct procfs_view *v, const struct target *t)
{
	_cleanup_close_ int ns = openat(v->rootfd, "1/ns/pid", O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int cur = -1;
	struct target_fid want, id;
	char name[64];
	int r;

	/* No pid 1: a dying namespace, where the target cannot be told. */
	if (ns < 0)
		return errno == ENOENT || errno == ESRCH ? 0 : negative_errno();
	r = procfs_ns_id(ns, &want);
	if (r < 0)
		return r;
	snprintf(name, sizeof(name), "%d/ns/pid", (int)t->tid);
	cur = openat(target_proc_fd(), name, O_RDONLY | O_CLOEXEC);
	if (cur < 0)
		return negative_errno();
	for (unsigned int k = 0; k < t->levels; k++) {
		int parent;

		r = procfs_ns_id(cur, &id);
		if (r < 0)
			return r;
		if (id.dev == want.dev && id.ino == want.ino) {
			v->target_known = true;
			v->target_tgid = t->nstgid[t->levels - 1 - k];
			v->target_tid = t->nspid[t->levels - 1 - k];
			return 0;
		}
		parent = ioctl(cur, NS_GET_PARENT);
		if (parent < 0)
			break; /* EPERM: above ours */
		cur = safe_close(cur);
		cur = parent;
	}
	v->target_absent = true;
	return 0;
}

static int procfs_view_fill(struct procfs_view *v, const struct target *t)
{
	char text[32];
	ssize_t n;

	if (target_proc_is_ours(v->dev)) {
		v->sup_tgid = getpid();
		v->target_known = true;
		v->target_tgid = t->tgid;
		v->target_tid = t->tid;
		return 0;
	}
	/* The kernel answers "self" for the reader: us, in that namespace's numbers. */
	n = readlinkat(v->rootfd, "self", text, sizeof(text) - 1);
	if (n > 0) {
		text[n] = '\0';
		return procfs_view_ours(v, t, (pid_t)atoi(text));
	}
	if (n < 0 && errno != ENOENT)
		return negative_errno();
	return procfs_view_below(v, t);
}

int procfs_view_get(struct procfs_view *v, const struct target *t, int rootfd, dev_t dev)
{
	int r, q;

	if (v->rootfd >= 0 && v->dev == dev)
		return 0;
	procfs_view_release(v);
	v->rootfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	if (v->rootfd < 0)
		return negative_errno();
	v->dev = dev;
	/* Pid 1's namespace, the target's: ptrace checks we pass, the target may not. */
	r = target_suspend();
	if (r == 0)
		r = procfs_view_fill(v, t);
	q = target_resume();
	if (r < 0 || q < 0) {
		procfs_view_release(v);
		return q < 0 ? q : r;
	}
	return 0;
}

int procfs_self_text(const struct procfs_view *v, bool thread, char *text, size_t size)
{
	if (v->target_absent)
		return -ENOENT; /* what the kernel answers a reader it cannot see */
	if (!v->target_known)
		return -EACCES;
	if (thread)
		snprintf(text, size, "%d/task/%d", (int)v->target_tgid, (int)v->target_tid);
	else
		snprintf(text, size, "%d", (int)v->target_tgid);
	return 0;
}

/* A child of ours that is not the target: the network helper shares our memory. */
static enum procfs_owner procfs_owner_child(const struct procfs_view *v, const pid_t *nstgid,
					    int levels)
{
	pid_t ours;

	if ((unsigned int)levels <= v->sup_depth)
		return PROCFS_OTHER; /* above our namespace: not ours */
	ours = nstgid[v->sup_depth];
	if (syscall(SYS_kcmp, getpid(), ours, KCMP_VM, 0, 0) == 0)
		return PROCFS_SUPERVISOR;
	/* 1 or 2: another memory. An error: we cannot tell, so never. */
	return errno == ESRCH ? PROCFS_OTHER : PROCFS_UNKNOWN;
}

/* A directory just below the instance's root: a task's, by its status, or not a task's. */
static int procfs_owner_top(const struct procfs_view *v, int topfd, enum procfs_owner *ret)
{
	_cleanup_free_ char *status = NULL;
	pid_t tgid, ppid, nstgid[TARGET_PID_LEVELS];
	int levels, r;

	r = target_read_file(topfd, "status", &status);
	if (r == -ENOENT || r == -ESRCH) {
		/* /proc/sys, /proc/fs...: no task. A task gone meanwhile: nothing left in it. */
		*ret = PROCFS_NONE;
		return 0;
	}
	if (r < 0)
		return r;
	if (procfs_numbers(status, "Tgid", &tgid, 1) != 1 ||
	    procfs_numbers(status, "PPid", &ppid, 1) != 1)
		return -EBADMSG;
	levels = procfs_numbers(status, "NStgid", nstgid, ARRAY_SIZE(nstgid));
	if (levels < 0)
		return levels;
	if (v->sup_tgid && tgid == v->sup_tgid)
		*ret = PROCFS_SUPERVISOR;
	else if (v->target_known && tgid == v->target_tgid)
		*ret = PROCFS_TARGET;
	else if (v->sup_tgid && ppid == v->sup_tgid)
		*ret = procfs_owner_child(v, nstgid, levels);
	else
		*ret = PROCFS_OTHER;
	return 0;
}

int procfs_owner_of_top(struct procfs_view *v, const struct target *t, int rootfd, dev_t dev,
			int topfd, enum procfs_owner *ret)
{
	int r, q;

	r = procfs_view_get(v, t, rootfd, dev);
	if (r < 0)
		return r;
	r = target_suspend();
	if (r == 0)
		r = procfs_owner_top(v, topfd, ret);
	q = target_resume();
	if (q < 0)
		return q;
	if (r < 0 && r != -ENOTRECOVERABLE) {
		/* An owner we cannot read is never lent anything. */
		*ret = PROCFS_UNKNOWN;
		return 0;
	}
	return r;
}

/*
 * From any procfs directory, up with ".." to the instance's root: the
 * directory just below it is the task's (or no task's). A climb that
 * leaves the instance (a subdirectory bind-mounted elsewhere) cannot tell.
 */
static int procfs_climb(int dirfd, dev_t dev, int *ret_rootfd, int *ret_topfd)
{
	_cleanup_close_ int cur = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);

	if (cur < 0)
		return negative_errno();
	for (int depth = 0; depth < PROCFS_MAX_DEPTH; depth++) {
		_cleanup_close_ int parent = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		struct target_stat st;
		int r;

		if (parent < 0)
			return negative_errno();
		r = target_fstat(parent, &st);
		if (r < 0)
			return r;
		if (st.fid.dev != dev)
			return -EXDEV;
		if (st.fid.ino == PROCFS_ROOT_INO) {
			*ret_rootfd = TAKE_FD(parent);
			*ret_topfd = TAKE_FD(cur);
			return 0;
		}
		cur = safe_close(cur);
		cur = TAKE_FD(parent);
	}
	return -ELOOP;
}

int procfs_owner_of_dir(struct procfs_view *v, const struct target *t, int dirfd,
			const struct target_stat *st, enum procfs_owner *ret)
{
	_cleanup_close_ int rootfd = -1, topfd = -1;
	int r, q;

	if (st->fid.ino == PROCFS_ROOT_INO) {
		*ret = PROCFS_ROOT;
		return 0;
	}
	/* Climbed with our credentials: a directory the target may not search is still its. */
	r = target_suspend();
	if (r == 0)
		r = procfs_climb(dirfd, st->fid.dev, &rootfd, &topfd);
	q = target_resume();
	if (q < 0)
		return q;
	if (r < 0) {
		*ret = PROCFS_UNKNOWN;
		return 0;
	}
	return procfs_owner_of_top(v, t, rootfd, st->fid.dev, topfd, ret);
}
