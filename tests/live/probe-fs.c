/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: file calls by path, each made with the raw system call named (so a
 * test knows which one the supervisor sees). DIR arguments: "-" for
 * AT_FDCWD, else a directory (or, with "empty", any file) opened first.
 *
 *   stat PATH | lstat PATH              ok dev=... (every field of struct stat)
 *   fstatat DIR PATH [nofollow] [empty] [null]   newfstatat
 *   statx DIR PATH [nofollow] [empty]   ok mask=... (every field of struct statx)
 *   readlink PATH [SIZE] | readlinkat DIR PATH [SIZE]   ok len=N text=T
 *   access PATH MODE | faccessat DIR PATH MODE   MODE: f or some of rwx
 *   faccessat2 DIR PATH MODE [eaccess] [nofollow] [empty]
 *   unlink PATH | rmdir PATH | unlinkat DIR PATH [removedir]
 *   mkdir PATH MODE | mkdirat DIR PATH MODE | mknod PATH fifo|reg MODE
 *   rename OLD NEW | renameat2 OLD NEW [noreplace] [exchange]
 *   link OLD NEW | linkat OLD NEW [follow] [empty]   empty: OLD opened, linked by fd
 *   symlink TEXT NEW | symlinkat TEXT DIR NEW
 *   chmod PATH MODE | fchmodat2 PATH MODE [nofollow]
 *   chown PATH UID GID | lchown PATH UID GID | fchownat PATH UID GID [nofollow]
 *   utimensat PATH SEC [nofollow] | utimensat-fd PATH SEC | utimes PATH SEC
 *   utime PATH SEC | truncate PATH LEN
 *   setxattr PATH NAME VALUE [l] | removexattr PATH NAME [l]   l: the l- variant
 *   fchmod PATH MODE | fsetxattr PATH NAME VALUE   on PATH opened O_RDONLY
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>
#include <linux/fs.h>

#include "probe.h"
#include "lib/uapi.h"


static void probe_print_stat(const struct stat *st)
{
	printf("ok dev=%ju ino=%ju mode=0%o nlink=%ju uid=%u gid=%u rdev=%ju size=%jd "
	       "blksize=%jd blocks=%jd atime=%jd.%09ld mtime=%jd.%09ld ctime=%jd.%09ld\n",
	       (uintmax_t)st->st_dev, (uintmax_t)st->st_ino, st->st_mode, (uintmax_t)st->st_nlink,
	       st->st_uid, st->st_gid, (uintmax_t)st->st_rdev, (intmax_t)st->st_size,
	       (intmax_t)st->st_blksize, (intmax_t)st->st_blocks, (intmax_t)st->st_atim.tv_sec,
	       st->st_atim.tv_nsec, (intmax_t)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
	       (intmax_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

/* stat and lstat through their own (legacy) numbers where the ABI has them. */
static int probe_cmd_stat_nr(int argc, char **argv, long nr)
{
	struct stat st;
	long r;

	if (argc != 1)
		return 2;
	memset(&st, 0x5a, sizeof(st));
	r = syscall(nr, argv[0], &st);
	if (r < 0)
		probe_print_err(errno);
	else
		probe_print_stat(&st);
	return 0;
}

static int probe_cmd_stat(int argc, char **argv)
{
#ifdef SYS_stat
	return probe_cmd_stat_nr(argc, argv, SYS_stat);
#else
	printf("unsupported\n");
	return 0;
#endif
}

static int probe_cmd_lstat(int argc, char **argv)
{
#ifdef SYS_lstat
	return probe_cmd_stat_nr(argc, argv, SYS_lstat);
#else
	printf("unsupported\n");
	return 0;
#endif
}

static int probe_at_flags(int argc, char **argv)
{
	return (probe_has(argc, argv, "nofollow") ? AT_SYMLINK_NOFOLLOW : 0) |
	       (probe_has(argc, argv, "empty") ? AT_EMPTY_PATH : 0) |
	       (probe_has(argc, argv, "eaccess") ? AT_EACCESS : 0) |
	       (probe_has(argc, argv, "follow") ? AT_SYMLINK_FOLLOW : 0) |
	       (probe_has(argc, argv, "removedir") ? AT_REMOVEDIR : 0);
}

/* badbuf: an unmapped out-parameter; robuf: a read-only one (both EFAULT in the kernel). */
static void *probe_out_buffer(int argc, char **argv, void *buf)
{
	static const char rodata[256] = "read-only";

	if (probe_has(argc, argv, "badbuf"))
		return (void *)8;
	if (probe_has(argc, argv, "robuf"))
		return (void *)rodata;
	return buf;
}

static int probe_cmd_fstatat(int argc, char **argv)
{
	struct stat st;
	int dirfd;
	long r;

	if (argc < 2)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	memset(&st, 0x5a, sizeof(st));
	r = syscall(SYS_newfstatat, dirfd, probe_has(argc, argv, "null") ? NULL : argv[1],
		    probe_out_buffer(argc, argv, &st), probe_at_flags(argc - 2, argv + 2));
	if (r < 0)
		probe_print_err(errno);
	else
		probe_print_stat(&st);
	return 0;
}

static void probe_print_statx(const struct statx *s)
{
	printf("ok mask=0x%x blksize=%u attributes=0x%" PRIx64 " nlink=%u uid=%u gid=%u mode=0%o "
	       "ino=%" PRIu64 " size=%" PRIu64 " blocks=%" PRIu64 " attributes_mask=0x%" PRIx64,
	       s->stx_mask, s->stx_blksize, (uint64_t)s->stx_attributes, s->stx_nlink, s->stx_uid,
	       s->stx_gid, s->stx_mode, (uint64_t)s->stx_ino, (uint64_t)s->stx_size,
	       (uint64_t)s->stx_blocks, (uint64_t)s->stx_attributes_mask);
	printf(" atime=%" PRId64 ".%u btime=%" PRId64 ".%u ctime=%" PRId64 ".%u mtime=%" PRId64
	       ".%u rdev=%u:%u dev=%u:%u\n",
	       (int64_t)s->stx_atime.tv_sec, s->stx_atime.tv_nsec, (int64_t)s->stx_btime.tv_sec,
	       s->stx_btime.tv_nsec, (int64_t)s->stx_ctime.tv_sec, s->stx_ctime.tv_nsec,
	       (int64_t)s->stx_mtime.tv_sec, s->stx_mtime.tv_nsec, s->stx_rdev_major,
	       s->stx_rdev_minor, s->stx_dev_major, s->stx_dev_minor);
}

static int probe_cmd_statx(int argc, char **argv)
{
	struct statx stx;
	int dirfd;
	long r;

	if (argc < 2)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	memset(&stx, 0x5a, sizeof(stx));
	r = syscall(SYS_statx, dirfd, argv[1], probe_at_flags(argc - 2, argv + 2),
		    STATX_BASIC_STATS | STATX_BTIME, &stx);
	if (r < 0)
		probe_print_err(errno);
	else
		probe_print_statx(&stx);
	return 0;
}

static void probe_print_link(long n, const char *buf)
{
	if (n < 0) {
		probe_print_err(errno);
		return;
	}
	printf("ok len=%ld text=%.*s\n", n, (int)n, buf);
}

static int probe_cmd_readlink(int argc, char **argv)
{
	char buf[8192];
	long size = sizeof(buf);

	if (argc < 1 || (argc > 1 && probe_parse_long(argv[1], &size) < 0) || size > 8192)
		return 2;
#ifdef SYS_readlink
	probe_print_link(syscall(SYS_readlink, argv[0], buf, size), buf);
#else
	probe_print_link(syscall(SYS_readlinkat, AT_FDCWD, argv[0], buf, size), buf);
#endif
	return 0;
}

static int probe_cmd_readlinkat(int argc, char **argv)
{
	char buf[8192];
	long size = sizeof(buf);
	int dirfd;

	if (argc < 2 || (argc > 2 && probe_parse_long(argv[2], &size) < 0) || size > 8192)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	probe_print_link(syscall(SYS_readlinkat, dirfd, argv[1], buf, size), buf);
	return 0;
}

static int probe_access_mode(const char *s)
{
	int mode = 0;

	for (; *s; s++)
		mode |= *s == 'r' ? R_OK : *s == 'w' ? W_OK : *s == 'x' ? X_OK : 0;
	return mode;
}

static int probe_cmd_access(int argc, char **argv)
{
	if (argc != 2)
		return 2;
#ifdef SYS_access
	probe_report_ok(syscall(SYS_access, argv[0], probe_access_mode(argv[1])));
#else
	probe_report_ok(syscall(SYS_faccessat, AT_FDCWD, argv[0], probe_access_mode(argv[1])));
#endif
	return 0;
}

static int probe_cmd_faccessat(int argc, char **argv)
{
	int dirfd;

	if (argc != 3)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd != -1)
		probe_report_ok(syscall(SYS_faccessat, dirfd, argv[1], probe_access_mode(argv[2])));
	return 0;
}

static int probe_cmd_faccessat2(int argc, char **argv)
{
	int dirfd;

	if (argc < 3)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd != -1)
		probe_report_ok(syscall(SYS_faccessat2, dirfd, argv[1], probe_access_mode(argv[2]),
					probe_at_flags(argc - 3, argv + 3)));
	return 0;
}

/* ---- Mutations ---- */

static long probe_octal(const char *s)
{
	return strtol(s, NULL, 8);
}

static int probe_cmd_unlink(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	probe_report_ok(syscall(SYS_unlink, argv[0]));
	return 0;
}

static int probe_cmd_rmdir(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	probe_report_ok(syscall(SYS_rmdir, argv[0]));
	return 0;
}

static int probe_cmd_unlinkat(int argc, char **argv)
{
	int dirfd;

	if (argc < 2)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd != -1)
		probe_report_ok(syscall(SYS_unlinkat, dirfd, argv[1],
					probe_at_flags(argc - 2, argv + 2)));
	return 0;
}

static int probe_cmd_mkdir(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	probe_report_ok(syscall(SYS_mkdir, argv[0], probe_octal(argv[1])));
	return 0;
}

static int probe_cmd_mkdirat(int argc, char **argv)
{
	int dirfd;

	if (argc != 3)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd != -1)
		probe_report_ok(syscall(SYS_mkdirat, dirfd, argv[1], probe_octal(argv[2])));
	return 0;
}

static int probe_cmd_mknod(int argc, char **argv)
{
	long type;

	if (argc != 3)
		return 2;
	type = strcmp(argv[1], "fifo") == 0 ? S_IFIFO : strcmp(argv[1], "reg") == 0 ? S_IFREG : -1;
	if (type < 0)
		return 2;
	probe_report_ok(syscall(SYS_mknod, argv[0], type | probe_octal(argv[2]), 0));
	return 0;
}

static int probe_cmd_rename(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	probe_report_ok(syscall(SYS_rename, argv[0], argv[1]));
	return 0;
}

static int probe_cmd_renameat2(int argc, char **argv)
{
	unsigned int flags = 0;

	if (argc < 2)
		return 2;
	flags |= probe_has(argc, argv, "noreplace") ? RENAME_NOREPLACE : 0;
	flags |= probe_has(argc, argv, "exchange") ? RENAME_EXCHANGE : 0;
	probe_report_ok(syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags));
	return 0;
}

static int probe_cmd_link(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	probe_report_ok(syscall(SYS_link, argv[0], argv[1]));
	return 0;
}

static int probe_cmd_linkat(int argc, char **argv)
{
	int flags = probe_at_flags(argc - 2, argv + 2);
	int olddir = AT_FDCWD;
	const char *old = argv[0];

	if (argc < 2)
		return 2;
	if (flags & AT_EMPTY_PATH) {
		olddir = open(argv[0], O_RDONLY | O_CLOEXEC);
		if (olddir < 0) {
			probe_print_err(errno);
			return 0;
		}
		old = "";
	}
	probe_report_ok(syscall(SYS_linkat, olddir, old, AT_FDCWD, argv[1], flags));
	return 0;
}

static int probe_cmd_symlink(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	probe_report_ok(syscall(SYS_symlink, argv[0], argv[1]));
	return 0;
}

static int probe_cmd_symlinkat(int argc, char **argv)
{
	int dirfd;

	if (argc != 3)
		return 2;
	dirfd = probe_open_dir(argv[1]);
	if (dirfd != -1)
		probe_report_ok(syscall(SYS_symlinkat, argv[0], dirfd, argv[2]));
	return 0;
}

static int probe_cmd_chmod(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	probe_report_ok(syscall(SYS_chmod, argv[0], probe_octal(argv[1])));
	return 0;
}

static int probe_cmd_setxattr(int argc, char **argv)
{
	bool l = argc == 4 && strcmp(argv[3], "l") == 0;

	if (argc != 3 && !l)
		return 2;
	probe_report_ok(syscall(l ? SYS_lsetxattr : SYS_setxattr, argv[0], argv[1], argv[2],
				strlen(argv[2]), 0));
	return 0;
}

static int probe_cmd_removexattr(int argc, char **argv)
{
	bool l = argc == 3 && strcmp(argv[2], "l") == 0;

	if (argc != 2 && !l)
		return 2;
	probe_report_ok(syscall(l ? SYS_lremovexattr : SYS_removexattr, argv[0], argv[1]));
	return 0;
}

/* The f- calls on a descriptor opened read-only: they change the file all the same. */
static int probe_cmd_fchmod(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	probe_report_ok(syscall(SYS_fchmod, fd, probe_octal(argv[1])));
	close(fd);
	return 0;
}

static int probe_cmd_fsetxattr(int argc, char **argv)
{
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	probe_report_ok(syscall(SYS_fsetxattr, fd, argv[1], argv[2], strlen(argv[2]), 0));
	close(fd);
	return 0;
}

static int probe_cmd_fchmodat2(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	probe_report_ok(syscall(SYS_fchmodat2, AT_FDCWD, argv[0], probe_octal(argv[1]),
				probe_at_flags(argc - 2, argv + 2)));
	return 0;
}

static int probe_chown_nr(int argc, char **argv, long nr)
{
	long uid, gid;

	if (argc < 3 || probe_parse_long(argv[1], &uid) < 0 || probe_parse_long(argv[2], &gid) < 0)
		return 2;
	if (nr == SYS_fchownat)
		probe_report_ok(syscall(nr, AT_FDCWD, argv[0], (uid_t)uid, (gid_t)gid,
					probe_at_flags(argc - 3, argv + 3)));
	else
		probe_report_ok(syscall(nr, argv[0], (uid_t)uid, (gid_t)gid));
	return 0;
}

static int probe_cmd_chown(int argc, char **argv)
{
	return probe_chown_nr(argc, argv, SYS_chown);
}

static int probe_cmd_lchown(int argc, char **argv)
{
	return probe_chown_nr(argc, argv, SYS_lchown);
}

static int probe_cmd_fchownat(int argc, char **argv)
{
	return probe_chown_nr(argc, argv, SYS_fchownat);
}

static int probe_cmd_utimensat(int argc, char **argv)
{
	struct timespec ts[2];
	long sec;

	if (argc < 2 || probe_parse_long(argv[1], &sec) < 0)
		return 2;
	ts[0] = ts[1] = (struct timespec){ .tv_sec = sec, .tv_nsec = 123456789 };
	probe_report_ok(syscall(SYS_utimensat, AT_FDCWD, argv[0], ts,
				probe_at_flags(argc - 2, argv + 2)));
	return 0;
}

/* utimensat(fd, NULL, ...): futimens, the path the kernel resolves is the fd's. */
static int probe_cmd_utimensat_fd(int argc, char **argv)
{
	struct timespec ts[2];
	long sec;
	int fd;

	if (argc != 2 || probe_parse_long(argv[1], &sec) < 0)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	ts[0] = ts[1] = (struct timespec){ .tv_sec = sec, .tv_nsec = 0 };
	probe_report_ok(syscall(SYS_utimensat, fd, NULL, ts, 0));
	return 0;
}

static int probe_cmd_utimes(int argc, char **argv)
{
	struct timeval tv[2];
	long sec;

	if (argc != 2 || probe_parse_long(argv[1], &sec) < 0)
		return 2;
	tv[0] = tv[1] = (struct timeval){ .tv_sec = sec, .tv_usec = 654321 };
	probe_report_ok(syscall(SYS_utimes, argv[0], tv));
	return 0;
}

static int probe_cmd_utime(int argc, char **argv)
{
	struct utimbuf ub;
	long sec;

	if (argc != 2 || probe_parse_long(argv[1], &sec) < 0)
		return 2;
	ub = (struct utimbuf){ .actime = sec, .modtime = sec };
	probe_report_ok(syscall(SYS_utime, argv[0], &ub));
	return 0;
}

static int probe_cmd_truncate(int argc, char **argv)
{
	long len;

	if (argc != 2 || probe_parse_long(argv[1], &len) < 0)
		return 2;
	probe_report_ok(syscall(SYS_truncate, argv[0], len));
	return 0;
}

const struct probe_cmd probe_fs_cmds[] = {
	{ "stat", probe_cmd_stat },
	{ "lstat", probe_cmd_lstat },
	{ "fstatat", probe_cmd_fstatat },
	{ "statx", probe_cmd_statx },
	{ "readlink", probe_cmd_readlink },
	{ "readlinkat", probe_cmd_readlinkat },
	{ "access", probe_cmd_access },
	{ "faccessat", probe_cmd_faccessat },
	{ "faccessat2", probe_cmd_faccessat2 },
	{ "unlink", probe_cmd_unlink },
	{ "rmdir", probe_cmd_rmdir },
	{ "unlinkat", probe_cmd_unlinkat },
	{ "mkdir", probe_cmd_mkdir },
	{ "mkdirat", probe_cmd_mkdirat },
	{ "mknod", probe_cmd_mknod },
	{ "rename", probe_cmd_rename },
	{ "renameat2", probe_cmd_renameat2 },
	{ "link", probe_cmd_link },
	{ "linkat", probe_cmd_linkat },
	{ "symlink", probe_cmd_symlink },
	{ "symlinkat", probe_cmd_symlinkat },
	{ "chmod", probe_cmd_chmod },
	{ "fchmod", probe_cmd_fchmod },
	{ "setxattr", probe_cmd_setxattr },
	{ "removexattr", probe_cmd_removexattr },
	{ "fsetxattr", probe_cmd_fsetxattr },
	{ "fchmodat2", probe_cmd_fchmodat2 },
	{ "chown", probe_cmd_chown },
	{ "lchown", probe_cmd_lchown },
	{ "fchownat", probe_cmd_fchownat },
	{ "utimensat", probe_cmd_utimensat },
	{ "utimensat-fd", probe_cmd_utimensat_fd },
	{ "utimes", probe_cmd_utimes },
	{ "utime", probe_cmd_utime },
	{ "truncate", probe_cmd_truncate },
	{ NULL, NULL },
};
