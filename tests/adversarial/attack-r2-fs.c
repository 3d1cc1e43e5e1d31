/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 2, files. System calls newer than the tables the policy knows
 * (setxattrat and removexattrat of Linux 6.13, open_tree_attr of 6.15,
 * file_setattr of 6.17: libseccomp 2.5 has no name for them, so a policy
 * cannot name them and the implicit sets miss them), files the kernel
 * writes with no open(2) of the program (BSD process accounting, core
 * dumps), rename flags that create (RENAME_WHITEOUT), and the roads to a
 * protected inode that must stay closed (a link through /proc/self/fd or
 * AT_EMPTY_PATH, O_TMPFILE linked into place, a read-only descriptor
 * reopened for writing, execveat of an O_PATH descriptor), plus the
 * credentials checks a performed call must keep (O_NOATIME, chown).
 *
 * Numbers of the new system calls are those of x86_64 (and every
 * architecture of the generic table: 463 and up are the same everywhere).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "lib/uapi.h"

#define NR_SETXATTRAT     463
#define NR_REMOVEXATTRAT  466
#define NR_OPEN_TREE_ATTR 467
#define NR_FILE_GETATTR   468
#define NR_FILE_SETATTR   469

#define FS_XFLAG_IMMUTABLE 0x00000008
#define FS_XFLAG_APPEND    0x00000010

/* struct xattr_args (include/uapi/linux/xattr.h, 6.13). */
struct r2_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

/* struct file_attr (include/uapi/linux/fs.h, 6.17), FILE_ATTR_SIZE_VER0. */
struct r2_file_attr {
	uint64_t fa_xflags;
	uint32_t fa_extsize;
	uint32_t fa_nextents;
	uint32_t fa_projid;
	uint32_t fa_cowextsize;
};

/* What the program sees when the kernel has no such call: not a verdict of ours. */
static int r2_absent(const char *what, int err)
{
	if (err == ENOSYS)
		return setup_failed(what, err);
	return blocked(err);
}

/* setxattrat PATH NAME VALUE: an extended attribute by setxattrat(2) (6.13). */
static int cmd_setxattrat(int argc, char **argv)
{
	struct r2_xattr_args a;

	if (argc != 3)
		return 2;
	a = (struct r2_xattr_args){ .value = (uintptr_t)argv[2], .size = (uint32_t)strlen(argv[2]) };
	if (syscall(NR_SETXATTRAT, AT_FDCWD, argv[0], 0, argv[1], &a, sizeof(a)) < 0)
		return r2_absent("setxattrat", errno);
	result("CHANGED %s set on %s by setxattrat", argv[1], argv[0]);
	return 0;
}

/* removexattrat PATH NAME (6.13). */
static int cmd_removexattrat(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (syscall(NR_REMOVEXATTRAT, AT_FDCWD, argv[0], 0, argv[1]) < 0)
		return r2_absent("removexattrat", errno);
	result("CHANGED %s removed from %s by removexattrat", argv[1], argv[0]);
	return 0;
}

/* acl-grant-at PATH UID: a POSIX ACL giving UID rw, through setxattrat(2). */
static int cmd_acl_grant_at(int argc, char **argv)
{
	struct {
		uint32_t version;
		struct {
			uint16_t tag, perm;
			uint32_t id;
		} e[5];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, UINT32_MAX }, /* ACL_USER_OBJ rw */
			{ 0x02, 6, 0 },          /* ACL_USER UID rw */
			{ 0x04, 4, UINT32_MAX }, /* ACL_GROUP_OBJ r */
			{ 0x10, 6, UINT32_MAX }, /* ACL_MASK rw */
			{ 0x20, 4, UINT32_MAX }, /* ACL_OTHER r */
		},
	};
	struct r2_xattr_args a = { .value = (uintptr_t)&acl, .size = sizeof(acl) };

	if (argc != 2)
		return 2;
	acl.e[1].id = (uint32_t)parse_long(argv[1]);
	if (syscall(NR_SETXATTRAT, AT_FDCWD, argv[0], 0, "system.posix_acl_access", &a,
		    sizeof(a)) < 0)
		return r2_absent("setxattrat", errno);
	result("CHANGED acl of %s grants uid %s rw (setxattrat)", argv[0], argv[1]);
	return 0;
}

static int r2_file_xflags(const char *path, uint64_t set, uint64_t clear)
{
	struct r2_file_attr fa = { 0 };

	if (syscall(NR_FILE_GETATTR, AT_FDCWD, path, &fa, sizeof(fa), 0) < 0)
		return -errno;
	fa.fa_xflags = (fa.fa_xflags | set) & ~clear;
	if (syscall(NR_FILE_SETATTR, AT_FDCWD, path, &fa, sizeof(fa), 0) < 0)
		return -errno;
	return 0;
}

/* file-setattr PATH immutable|append|-append: FS_XFLAG_* by file_setattr(2) (6.17). */
static int cmd_file_setattr(int argc, char **argv)
{
	uint64_t set = 0, clear = 0;
	int r;

	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "immutable") == 0)
		set = FS_XFLAG_IMMUTABLE;
	else if (strcmp(argv[1], "append") == 0)
		set = FS_XFLAG_APPEND;
	else if (strcmp(argv[1], "-append") == 0)
		clear = FS_XFLAG_APPEND;
	else
		return 2;
	r = r2_file_xflags(argv[0], set, clear);
	if (r < 0)
		return r2_absent("file_setattr", -r);
	result("CHANGED %s of %s by file_setattr", argv[1], argv[0]);
	return 0;
}

/*
 * append-undo PATH DATA: the append-only inode flag (chattr +a, what
 * SECURITY.md offers against fcntl clearing O_APPEND) cleared by
 * file_setattr(2), then the log opened O_APPEND as the policy wants,
 * O_APPEND dropped, and DATA written at offset 0.
 */
static int cmd_append_undo(int argc, char **argv)
{
	int fd, r;

	if (argc != 2)
		return 2;
	r = r2_file_xflags(argv[0], 0, FS_XFLAG_APPEND);
	if (r < 0)
		return r2_absent("file_setattr", -r);
	fd = open(argv[0], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	if (fcntl(fd, F_SETFL, 0) < 0 || pwrite(fd, argv[1], strlen(argv[1]), 0) < 0)
		return blocked(errno);
	close(fd);
	result("REWROTE %s at offset 0 (append-only flag cleared by file_setattr)", argv[0]);
	return 0;
}

/* tree-attr-write DIR NAME DATA: a detached clone of DIR by open_tree_attr(2) (6.15), NAME rewritten in it. */
static int cmd_tree_attr_write(int argc, char **argv)
{
	int tree, fd;

	if (argc != 3)
		return 2;
	tree = (int)syscall(NR_OPEN_TREE_ATTR, AT_FDCWD, argv[0], OPEN_TREE_CLONE | O_CLOEXEC,
			    NULL, 0);
	if (tree < 0)
		return r2_absent("open_tree_attr", errno);
	note("open_tree_attr(%s, OPEN_TREE_CLONE) = %d", argv[0], tree);
	fd = openat(tree, argv[1], O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	if (write(fd, argv[2], strlen(argv[2])) < 0)
		return blocked(errno);
	close(fd);
	result("REWROTE %s/%s through a detached clone", argv[0], argv[1]);
	return 0;
}

/*
 * acct-append FILE: BSD process accounting into FILE (the kernel appends
 * one record per exiting process, no open(2) of ours), one child exits,
 * accounting is turned off again.
 */
static int cmd_acct_append(int argc, char **argv)
{
	pid_t pid;

	if (argc != 1)
		return 2;
	if (syscall(SYS_acct, argv[0]) < 0)
		return blocked(errno);
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	syscall(SYS_acct, NULL);
	result("DONE accounting records appended to %s", argv[0]);
	return 0;
}

/* acct-off (outside): accounting off, whatever a failed run left. */
static int cmd_acct_off(int argc, char **argv)
{
	(void)argv;
	if (argc != 0)
		return 2;
	if (syscall(SYS_acct, NULL) < 0 && errno != EINVAL)
		return blocked(errno);
	result("DONE accounting off");
	return 0;
}

/*
 * coredump DIR: a child in DIR dumps core (core_pattern "core": the kernel
 * creates DIR/core, unlinking what had the name, with no call of ours).
 */
static int cmd_coredump(int argc, char **argv)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	int status = 0;
	pid_t pid;

	if (argc != 1)
		return 2;
	if (chdir(argv[0]) < 0)
		return setup_failed("chdir", errno);
	if (setrlimit(RLIMIT_CORE, &rl) < 0) {
		rl.rlim_cur = rl.rlim_max = 0;
		getrlimit(RLIMIT_CORE, &rl);
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_CORE, &rl) < 0)
			return blocked(errno);
	}
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return blocked(errno);
	pid = fork();
	if (pid < 0)
		return setup_failed("fork", errno);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		_exit(1);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) && WCOREDUMP(status)) {
		result("CREATED %s/core (core dumped)", argv[0]);
		return 0;
	}
	note("child status 0x%x", status);
	return blocked(EPERM);
}

/* rename-whiteout FROM TO: renameat2(RENAME_WHITEOUT) leaves a whiteout node at FROM. */
static int cmd_rename_whiteout(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1], RENAME_WHITEOUT) < 0)
		return blocked(errno);
	result("CREATED a whiteout at %s", argv[0]);
	return 0;
}

static int r2_write_path(const char *path, const char *data, int extra)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | extra);

	if (fd < 0)
		return -errno;
	if (write(fd, data, strlen(data)) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

/*
 * link-fd-write FILE NEW DATA procfd|empty: FILE (readable, not writable
 * by the policy) opened read-only, linked to NEW by its descriptor
 * (linkat of /proc/self/fd/N with AT_SYMLINK_FOLLOW, or AT_EMPTY_PATH),
 * then NEW written.
 */
static int cmd_link_fd_write(int argc, char **argv)
{
	char proc[64];
	int fd, r;

	if (argc != 4)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (strcmp(argv[3], "procfd") == 0)
		r = linkat(AT_FDCWD, proc, AT_FDCWD, argv[1], AT_SYMLINK_FOLLOW);
	else
		r = linkat(fd, "", AT_FDCWD, argv[1], AT_EMPTY_PATH);
	if (r < 0)
		return blocked(errno);
	note("linked %s to %s", argv[0], argv[1]);
	r = r2_write_path(argv[1], argv[2], O_TRUNC);
	if (r < 0)
		return blocked(-r);
	result("REWROTE %s through its new link %s", argv[0], argv[1]);
	return 0;
}

/* tmpfile-link DIR NEW DATA: an O_TMPFILE in DIR, written, then linked as NEW. */
static int cmd_tmpfile_link(int argc, char **argv)
{
	char proc[64];
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[0], O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return setup_failed("O_TMPFILE", errno);
	if (write(fd, argv[2], strlen(argv[2])) < 0)
		return setup_failed("write", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, argv[1], AT_SYMLINK_FOLLOW) < 0 &&
	    linkat(fd, "", AT_FDCWD, argv[1], AT_EMPTY_PATH) < 0)
		return blocked(errno);
	result("CREATED %s from an O_TMPFILE", argv[1]);
	return 0;
}

/* reopen-upgrade FILE DATA: read-only descriptor, reopened O_RDWR through /proc/self/fd. */
static int cmd_reopen_upgrade(int argc, char **argv)
{
	char proc[64];
	int fd, r;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	r = r2_write_path(proc, argv[1], O_TRUNC);
	if (r < 0) {
		snprintf(proc, sizeof(proc), "/dev/fd/%d", fd);
		r = r2_write_path(proc, argv[1], O_TRUNC);
	}
	if (r < 0)
		return blocked(-r);
	result("REWROTE %s through its read-only descriptor's magic link", argv[0]);
	return 0;
}

/* execveat-empty PROG ARG: PROG opened O_PATH, run by execveat(fd, "", AT_EMPTY_PATH). */
static int cmd_execveat_empty(int argc, char **argv)
{
	char *args[] = { argv[0], argc > 1 ? argv[1] : NULL, NULL };
	char *env[] = { NULL };
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_PATH);
	if (fd < 0)
		return setup_failed("open", errno);
	syscall(SYS_execveat, fd, "", args, env, AT_EMPTY_PATH);
	return blocked(errno);
}

/* noatime-open FILE: O_NOATIME needs ownership or CAP_FOWNER. */
static int cmd_noatime_open(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_NOATIME | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	result("OPENED %s with O_NOATIME", argv[0]);
	return 0;
}

/* chown PATH UID GID: needs CAP_CHOWN to give a file away. */
static int cmd_chown(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	if (fchownat(AT_FDCWD, argv[0], (uid_t)parse_long(argv[1]), (gid_t)parse_long(argv[2]),
		     0) < 0)
		return blocked(errno);
	result("CHANGED owner of %s to %s:%s", argv[0], argv[1], argv[2]);
	return 0;
}

/* utimens-fd FILE: FILE opened read-only, its times set to 1970 on the descriptor (NULL path). */
static int cmd_utimens_fd(int argc, char **argv)
{
	struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	if (syscall(SYS_utimensat, fd, NULL, ts, 0) < 0)
		return blocked(errno);
	result("CHANGED times of %s through its descriptor", argv[0]);
	return 0;
}

/*
 * truncate-limited FILE SIZE LIMIT: RLIMIT_FSIZE set to LIMIT, then FILE
 * extended to SIZE by truncate(2): EFBIG for us (SIGXFSZ ignored).
 */
static int cmd_truncate_limited(int argc, char **argv)
{
	struct rlimit rl;

	if (argc != 3)
		return 2;
	rl.rlim_cur = rl.rlim_max = (rlim_t)parse_long(argv[2]);
	if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
		return setup_failed("setrlimit", errno);
	signal(SIGXFSZ, SIG_IGN);
	if (truncate(argv[0], (off_t)parse_long(argv[1])) < 0)
		return blocked(errno);
	result("CHANGED %s extended to %s bytes past RLIMIT_FSIZE %s", argv[0], argv[1], argv[2]);
	return 0;
}

const struct attack_cmd attack_r2_fs_cmds[] = {
	{ "setxattrat", "PATH NAME VALUE  setxattrat(2)", cmd_setxattrat },
	{ "removexattrat", "PATH NAME     removexattrat(2)", cmd_removexattrat },
	{ "acl-grant-at", "PATH UID       POSIX ACL by setxattrat(2)", cmd_acl_grant_at },
	{ "file-setattr", "PATH immutable|append|-append  file_setattr(2)", cmd_file_setattr },
	{ "append-undo", "PATH DATA       clear +a by file_setattr, rewrite at 0", cmd_append_undo },
	{ "tree-attr-write", "DIR NAME DATA  open_tree_attr clone, rewrite NAME",
	  cmd_tree_attr_write },
	{ "acct-append", "FILE            BSD accounting into FILE", cmd_acct_append },
	{ "acct-off", "                 (outside) accounting off", cmd_acct_off },
	{ "coredump", "DIR              a child dumps core in DIR", cmd_coredump },
	{ "rename-whiteout", "FROM TO    renameat2 RENAME_WHITEOUT", cmd_rename_whiteout },
	{ "link-fd-write", "FILE NEW DATA procfd|empty  link by descriptor, write",
	  cmd_link_fd_write },
	{ "tmpfile-link", "DIR NEW DATA  O_TMPFILE linked as NEW", cmd_tmpfile_link },
	{ "reopen-upgrade", "FILE DATA    /proc/self/fd/N reopened O_RDWR", cmd_reopen_upgrade },
	{ "execveat-empty", "PROG ARG     execveat of an O_PATH fd", cmd_execveat_empty },
	{ "noatime-open", "FILE          open O_NOATIME", cmd_noatime_open },
	{ "chown", "PATH UID GID           fchownat", cmd_chown },
	{ "utimens-fd", "FILE            utimensat(fd, NULL)", cmd_utimens_fd },
	{ "truncate-limited", "FILE SIZE LIMIT  truncate past RLIMIT_FSIZE", cmd_truncate_limited },
	{ NULL, NULL, NULL },
};
