/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table of path-taking system calls (see pathcalls.h). */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "pathcalls.h"
#include "lib/uapi.h"

#define R POLICY_ROLE_READ
#define W POLICY_ROLE_WRITE
#define C POLICY_ROLE_CREATE
#define D POLICY_ROLE_DELETE
#define X POLICY_ROLE_EXEC
#define S POLICY_ROLE_STAT
#define A POLICY_ROLE_ATTR
#define O POLICY_ROLE_BY_OPEN_FLAGS

/* fchmodat2 (Linux 6.6) has the same number on every architecture; older headers lack it. */

/* name, dirfd args, path args, roles, flags arg, nofollow, how it is performed */
#define CALL(n, d0, p0, r0, d1, p1, r1, fl, nf, how) \
	{ SYS_##n, #n, { d0, d1 }, { p0, p1 }, { r0, r1 }, fl, nf, POLICY_PERFORM_##how }

static const struct policy_pathcall policy_pathcalls[] = {
#ifdef SYS_open
	CALL(open, -1, 0, O, -1, -1, 0, 1, false, OPEN),
#endif
#ifdef SYS_creat
	CALL(creat, -1, 0, C | W, -1, -1, 0, -1, false, OPEN),
#endif
	CALL(openat, 0, 1, O, -1, -1, 0, 2, false, OPEN),
	CALL(openat2, 0, 1, O, -1, -1, 0, -1, false, OPEN),
#ifdef SYS_stat
	CALL(stat, -1, 0, S, -1, -1, 0, -1, false, STAT),
	CALL(lstat, -1, 0, S, -1, -1, 0, -1, true, STAT),
#endif
	CALL(newfstatat, 0, 1, S, -1, -1, 0, 3, false, STAT),
	CALL(statx, 0, 1, S, -1, -1, 0, 2, false, STAT),
#ifdef SYS_access
	CALL(access, -1, 0, S, -1, -1, 0, -1, false, ACCESS),
#endif
	CALL(faccessat, 0, 1, S, -1, -1, 0, -1, false, ACCESS),
	CALL(faccessat2, 0, 1, S, -1, -1, 0, 3, false, ACCESS),
#ifdef SYS_readlink
	CALL(readlink, -1, 0, S, -1, -1, 0, -1, true, READLINK),
#endif
	CALL(readlinkat, 0, 1, S, -1, -1, 0, -1, true, READLINK),
#ifdef SYS_unlink
	CALL(unlink, -1, 0, D, -1, -1, 0, -1, true, MUTATE),
	CALL(rmdir, -1, 0, D, -1, -1, 0, -1, true, MUTATE),
	CALL(mkdir, -1, 0, C, -1, -1, 0, -1, true, MUTATE),
	CALL(mknod, -1, 0, C, -1, -1, 0, -1, true, MUTATE),
	CALL(rename, -1, 0, D, -1, 1, C | D, -1, true, MUTATE),
	CALL(link, -1, 0, R, -1, 1, C, -1, false, MUTATE),
	CALL(symlink, -1, -1, 0, -1, 1, C, -1, true, MUTATE),
	CALL(chmod, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(chown, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(lchown, -1, 0, A, -1, -1, 0, -1, true, MUTATE),
	CALL(utimes, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(utime, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(futimesat, 0, 1, A, -1, -1, 0, -1, false, MUTATE),
#endif
	CALL(unlinkat, 0, 1, D, -1, -1, 0, 2, true, MUTATE),
	CALL(mkdirat, 0, 1, C, -1, -1, 0, -1, true, MUTATE),
	CALL(mknodat, 0, 1, C, -1, -1, 0, -1, true, MUTATE),
	/*
	 * A rename's target is created, and deleted when it exists (renamed
	 * onto); RENAME_EXCHANGE also creates the source's name anew. What a
	 * move does to the files beneath and to the rules of their names is
	 * the move check's (policy/moves.c).
	 */
	CALL(renameat, 0, 1, D, 2, 3, C | D, -1, true, MUTATE),
	CALL(renameat2, 0, 1, D, 2, 3, C | D, 4, true, MUTATE),
	CALL(linkat, 0, 1, R, 2, 3, C, 4, true, MUTATE),
	/* symlinkat(target, newdirfd, linkpath): the target is stored text, never resolved. */
	CALL(symlinkat, -1, -1, 0, 1, 2, C, -1, true, MUTATE),
	CALL(fchmodat, 0, 1, A, -1, -1, 0, -1, false, MUTATE),
	CALL(fchmodat2, 0, 1, A, -1, -1, 0, 3, false, MUTATE),
	CALL(fchownat, 0, 1, A, -1, -1, 0, 4, false, MUTATE),
	CALL(utimensat, 0, 1, A, -1, -1, 0, 3, false, MUTATE),
	CALL(truncate, -1, 0, W, -1, -1, 0, -1, false, MUTATE),
	/* Extended attributes: a POSIX ACL is a chmod, a security.* label no less. */
	CALL(setxattr, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(lsetxattr, -1, 0, A, -1, -1, 0, -1, true, MUTATE),
	CALL(removexattr, -1, 0, A, -1, -1, 0, -1, false, MUTATE),
	CALL(lremovexattr, -1, 0, A, -1, -1, 0, -1, true, MUTATE),
	/*
	 * Reading them reads the file's data (user.* values, ACLs; as root
	 * trusted.*, security.*): the read role, as an open for reading. The
	 * f- forms decide nothing by path: the descriptor was opened already.
	 */
	CALL(getxattr, -1, 0, R, -1, -1, 0, -1, false, XATTR),
	CALL(lgetxattr, -1, 0, R, -1, -1, 0, -1, true, XATTR),
	CALL(listxattr, -1, 0, R, -1, -1, 0, -1, false, XATTR),
	CALL(llistxattr, -1, 0, R, -1, -1, 0, -1, true, XATTR),
	CALL(getxattrat, 0, 1, R, -1, -1, 0, 2, false, XATTR),
	CALL(listxattrat, 0, 1, R, -1, -1, 0, 2, false, XATTR),
	/* file_getattr (6.17): the inode flags and project id, a stat. */
	CALL(file_getattr, 0, 1, S, -1, -1, 0, 4, false, XATTR),
	/* On a descriptor: the file it refers to, whatever it was opened for. */
	CALL(fchmod, 0, POLICY_PATH_FD, A, -1, -1, 0, -1, false, MUTATE),
	CALL(fchown, 0, POLICY_PATH_FD, A, -1, -1, 0, -1, false, MUTATE),
	CALL(fsetxattr, 0, POLICY_PATH_FD, A, -1, -1, 0, -1, false, MUTATE),
	CALL(fremovexattr, 0, POLICY_PATH_FD, A, -1, -1, 0, -1, false, MUTATE),
	/* A descriptor opened for writing reads the attributes too: a read of its file. */
	CALL(fgetxattr, 0, POLICY_PATH_FD, R, -1, -1, 0, -1, false, XATTR),
	CALL(flistxattr, 0, POLICY_PATH_FD, R, -1, -1, 0, -1, false, XATTR),
	CALL(execve, -1, 0, X, -1, -1, 0, -1, false, NONE),
	CALL(execveat, 0, 1, X, -1, -1, 0, 4, false, NONE),
};

/*
 * Looked up for every supervised call (the round trip): an index by
 * syscall number, built once, instead of a walk over the table.
 */
#define PATHCALL_NR_MAX 1024
static uint8_t pathcall_index[PATHCALL_NR_MAX]; /* 1 + position in the table, 0: none */
static pthread_once_t pathcall_index_once = PTHREAD_ONCE_INIT;

static void pathcall_index_build(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(policy_pathcalls); i++)
		if (policy_pathcalls[i].nr >= 0 && policy_pathcalls[i].nr < PATHCALL_NR_MAX)
			pathcall_index[policy_pathcalls[i].nr] = (uint8_t)(i + 1);
}

const struct policy_pathcall *policy_pathcall_find(int nr)
{
	if (nr < 0 || nr >= PATHCALL_NR_MAX)
		return NULL;
	pthread_once(&pathcall_index_once, pathcall_index_build);
	return pathcall_index[nr] ? &policy_pathcalls[pathcall_index[nr] - 1] : NULL;
}

_Static_assert(ARRAY_SIZE(policy_pathcalls) < 255, "pathcall_index holds positions in a byte");

const struct policy_pathcall *policy_pathcall_at(size_t i)
{
	return i < ARRAY_SIZE(policy_pathcalls) ? &policy_pathcalls[i] : NULL;
}

unsigned int policy_pathcall_roles(const struct policy_pathcall *pc, int n, uint64_t open_flags)
{
	unsigned int roles;

	if (!policy_pathcall_has(pc, n))
		return 0;
	if (pc->role[n] != POLICY_ROLE_BY_OPEN_FLAGS)
		return pc->role[n];
	/*
	 * O_PATH ignores the access mode, O_CREAT and O_TRUNC; ADDFD cannot
	 * inject an O_PATH file, so the supervisor opens it read-only: a read
	 * (and only when a read-only open is allowed too: the engine checks).
	 */
	if (open_flags & O_PATH)
		return POLICY_ROLE_READ;
	/*
	 * Access mode 3 (O_RDONLY|O_WRONLY|O_RDWR's spare value) opens with
	 * neither read nor write, for ioctls, after the kernel checked both
	 * permissions (ACC_MODE): a read and a write, else no rule would
	 * meet it and it would run by the default (a device's ioctls).
	 */
	roles = (open_flags & O_ACCMODE) == O_RDONLY ? POLICY_ROLE_READ : 0;
	if ((open_flags & O_ACCMODE) != O_RDONLY || (open_flags & O_TRUNC))
		roles |= POLICY_ROLE_WRITE;
	if ((open_flags & O_ACCMODE) == O_RDWR || (open_flags & O_ACCMODE) == O_ACCMODE)
		roles |= POLICY_ROLE_READ;
	/* __O_TMPFILE includes O_DIRECTORY: an opendir() creates nothing. */
	if ((open_flags & O_CREAT) || (open_flags & __O_TMPFILE) == __O_TMPFILE)
		roles |= POLICY_ROLE_CREATE;
	return roles;
}
