/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The system calls that take a path, as data: where their path and dirfd
 * arguments are, what each path is used for (its role), and how the
 * supervisor can perform the call safely. The language uses it to expand
 * file categories (@file-read...) and to know where path= is valid; the
 * supervisor uses it to read the arguments and to pick the way it performs
 * an allowed call. One table, so the two can never disagree.
 */
#ifndef UNOTIFY_POLICY_PATHCALLS_H
#define UNOTIFY_POLICY_PATHCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a call does to one of its paths. A category is a set of roles. */
enum policy_path_role {
	POLICY_ROLE_READ = 1 << 0,   /* opened for reading */
	POLICY_ROLE_WRITE = 1 << 1,  /* opened for writing, truncated */
	POLICY_ROLE_CREATE = 1 << 2, /* a new name appears: O_CREAT, mkdir, mknod, link/symlink/rename target */
	POLICY_ROLE_DELETE = 1 << 3, /* a name goes away: unlink, rmdir, rename source */
	POLICY_ROLE_EXEC = 1 << 4,   /* executed */
	POLICY_ROLE_STAT = 1 << 5,   /* metadata read: stat family, access, readlink */
	POLICY_ROLE_ATTR = 1 << 6,   /* metadata changed: chmod, chown, utimes */
};

/*
 * How the supervisor performs an allowed call decided on a path, so that
 * the kernel never reads the target's memory again (SECURITY.md).
 */
enum policy_perform {
	POLICY_PERFORM_OPEN,      /* open/openat/openat2/creat: reopen the resolved inode, ADDFD+SEND */
	POLICY_PERFORM_STAT,      /* do it on the resolved fd, write the result into the target */
	POLICY_PERFORM_READLINK,  /* idem, copying the link text */
	POLICY_PERFORM_ACCESS,    /* faccessat2 on the resolved fd as the target */
	POLICY_PERFORM_MUTATE,    /* the *at variant on the resolved parent fd(s) as the target */
	POLICY_PERFORM_XATTR,     /* xattr reads, file_getattr: on the resolved file's magic link
				   * as the target, the result written into it */
	POLICY_PERFORM_NONE,      /* no safe way (execve): decided on registers only; check warns */
};

/*
 * path_arg of a call on a descriptor (fchmod, fchown, fsetxattr,
 * fremovexattr): its path is the file the descriptor (dirfd_arg) refers
 * to, named as the target sees it. The call changes that file whatever
 * the descriptor was opened for, so it is decided on its name like chmod.
 */
#define POLICY_PATH_FD (-2)

/* Role of an open depends on its flags: read, write, create. */
#define POLICY_ROLE_BY_OPEN_FLAGS 0xff

struct policy_pathcall {
	int nr;                 /* native syscall number */
	const char *name;
	int8_t dirfd_arg[2];    /* argument index of path n's dirfd, -1: AT_FDCWD */
	int8_t path_arg[2];     /* argument index of path n, -1: no such path, POLICY_PATH_FD */
	uint8_t role[2];        /* POLICY_ROLE_* of path n (POLICY_ROLE_BY_OPEN_FLAGS for opens) */
	int8_t flags_arg;       /* argument holding open flags / AT_* flags, -1: none */
	bool nofollow;          /* the last component is not followed (lstat, lchown, unlink...) */
	enum policy_perform perform;
};

/* Does the call have path n (a string, or the file of a descriptor)? */
static inline bool policy_pathcall_has(const struct policy_pathcall *pc, int n)
{
	return pc && n >= 0 && n < 2 && (pc->path_arg[n] >= 0 || pc->path_arg[n] == POLICY_PATH_FD);
}

/* The entry for a native syscall number, or NULL when it takes no path. */
const struct policy_pathcall *policy_pathcall_find(int nr);
/* Iterates the table: NULL past the end. */
const struct policy_pathcall *policy_pathcall_at(size_t i);
/*
 * The roles of path n of this call, with the open flags resolved
 * (O_RDONLY: read; O_WRONLY/O_RDWR/O_TRUNC: write; O_CREAT: create;
 * O_PATH: read, whatever else is set).
 */
unsigned int policy_pathcall_roles(const struct policy_pathcall *pc, int n, uint64_t open_flags);

#endif
