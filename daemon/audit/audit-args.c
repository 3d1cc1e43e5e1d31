/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decodes a call's arguments for the audit trail. Only the registers the
 * call takes are printed (the others hold whatever the caller left there);
 * the path is the copy the supervisor read, never a second read of the
 * target's memory.
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>

#include "audit-args.h"
#include "audit-buf.h"
#include "lib/util.h"
#include "policy/policy.h"

/*
 * One letter an argument: d dirfd, p path, q second path, f open flags,
 * m mode (octal), i signed integer, v an exec's argv (["sh", "-c", ...],
 * as strace shows it, when it was read), x anything else (hex).
 */
static const struct {
	int nr;
	const char *kinds;
} audit_arg_kinds[] = {
#ifdef SYS_open
	{ SYS_open, "pfm" },
	{ SYS_creat, "pm" },
	{ SYS_stat, "px" },
	{ SYS_lstat, "px" },
	{ SYS_access, "pm" },
	{ SYS_readlink, "pxi" },
	{ SYS_unlink, "p" },
	{ SYS_rmdir, "p" },
	{ SYS_mkdir, "pm" },
	{ SYS_mknod, "pmx" },
	{ SYS_rename, "pq" },
	{ SYS_link, "pq" },
	{ SYS_symlink, "xq" },
	{ SYS_chmod, "pm" },
	{ SYS_chown, "pii" },
	{ SYS_lchown, "pii" },
	{ SYS_utime, "px" },
	{ SYS_utimes, "px" },
	{ SYS_futimesat, "dpx" },
#endif
	{ SYS_openat, "dpfm" },
	{ SYS_openat2, "dpxi" },
	{ SYS_newfstatat, "dpxx" },
	{ SYS_statx, "dpxxx" },
	{ SYS_faccessat, "dpm" },
	{ SYS_faccessat2, "dpmx" },
	{ SYS_readlinkat, "dpxi" },
	{ SYS_unlinkat, "dpx" },
	{ SYS_mkdirat, "dpm" },
	{ SYS_mknodat, "dpmx" },
	{ SYS_renameat, "dpdq" },
	{ SYS_renameat2, "dpdqx" },
	{ SYS_linkat, "dpdqx" },
	{ SYS_symlinkat, "xdq" },
	{ SYS_fchmodat, "dpm" },
	{ SYS_fchownat, "dpiix" },
	{ SYS_utimensat, "dpxx" },
	{ SYS_truncate, "pi" },
	{ SYS_setxattr, "pxxix" },
	{ SYS_lsetxattr, "pxxix" },
	{ SYS_removexattr, "px" },
	{ SYS_lremovexattr, "px" },
	{ SYS_fchmod, "im" },
	{ SYS_fchown, "iii" },
	{ SYS_fsetxattr, "ixxix" },
	{ SYS_fremovexattr, "ix" },
	{ SYS_read, "ixi" },
	{ SYS_write, "ixi" },
	{ SYS_close, "i" },
	{ SYS_getpid, "" },
	{ SYS_getppid, "" },
	{ SYS_gettid, "" },
	{ SYS_getuid, "" },
	{ SYS_exit, "i" },
	{ SYS_exit_group, "i" },
	{ SYS_execve, "pvx" },
	{ SYS_execveat, "dpvxx" },
	{ SYS_socket, "iii" },
	{ SYS_connect, "ixi" },
	{ SYS_bind, "ixi" },
	{ SYS_sendto, "ixixxi" },
	{ SYS_sendmsg, "ixx" },
	{ SYS_ioctl, "ixx" },
	{ SYS_kill, "ii" },
	{ SYS_ptrace, "iixx" },
	{ SYS_unshare, "x" },
	{ SYS_mount, "xxxxx" },
	{ SYS_uname, "x" },
	{ SYS_clone, "xxxxx" },
	{ SYS_clone3, "xi" },
};

/* An index by syscall number, built once: this runs for every audit record. */
#define AUDIT_NR_MAX 1024
static const char *audit_kinds_by_nr[AUDIT_NR_MAX];
static pthread_once_t audit_kinds_once = PTHREAD_ONCE_INIT;

static void audit_kinds_build(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(audit_arg_kinds); i++)
		if (audit_arg_kinds[i].nr >= 0 && audit_arg_kinds[i].nr < AUDIT_NR_MAX)
			audit_kinds_by_nr[audit_arg_kinds[i].nr] = audit_arg_kinds[i].kinds;
}

static const char *audit_kinds(int nr)
{
	pthread_once(&audit_kinds_once, audit_kinds_build);
	if (nr >= 0 && nr < AUDIT_NR_MAX && audit_kinds_by_nr[nr])
		return audit_kinds_by_nr[nr];
	return "xxxxxx";
}

static void audit_put_open_flags(struct audit_buf *b, uint64_t flags)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		/* Multi-bit flags first: O_TMPFILE contains O_DIRECTORY, O_SYNC O_DSYNC. */
		{ O_TMPFILE, "O_TMPFILE" },
		{ O_CREAT, "O_CREAT" },         { O_EXCL, "O_EXCL" },
		{ O_NOCTTY, "O_NOCTTY" },       { O_TRUNC, "O_TRUNC" },
		{ O_APPEND, "O_APPEND" },       { O_NONBLOCK, "O_NONBLOCK" },
		{ O_SYNC, "O_SYNC" },           { O_DSYNC, "O_DSYNC" },
		{ O_DIRECT, "O_DIRECT" },
		{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_NOATIME, "O_NOATIME" },     { O_CLOEXEC, "O_CLOEXEC" },
		{ O_PATH, "O_PATH" },
	};
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

	abuf_put(b, modes[flags & O_ACCMODE]);
	flags &= ~(uint64_t)O_ACCMODE;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if ((flags & bits[i].bit) == bits[i].bit && bits[i].bit) {
			abuf_putc(b, '|');
			abuf_put(b, bits[i].name);
			flags &= ~bits[i].bit;
		}
	if (flags) {
		abuf_putc(b, '|');
		abuf_put_hex(b, flags);
	}
}

/* ["sh", "-c", "echo hi"]: each string escaped; "..." after what was cut. */
static void audit_put_argv(struct audit_buf *b, const struct audit_argv *argv)
{
	abuf_putc(b, '[');
	for (size_t i = 0; i < argv->n; i++) {
		if (i)
			abuf_put(b, ", ");
		abuf_put_quoted(b, argv->args[i]);
		if (argv->cut[i])
			abuf_put(b, "...");
	}
	if (argv->more)
		abuf_put(b, argv->n ? ", ..." : "...");
	abuf_putc(b, ']');
}

static void audit_put_arg(struct audit_buf *b, char kind, uint64_t v, const char *path_arg,
			  const char *path_arg2, const struct audit_argv *argv)
{
	if (kind == 'q') {
		kind = 'p';
		path_arg = path_arg2;
	}
	switch (kind) {
	case 'd':
		if ((int)v == AT_FDCWD)
			abuf_put(b, "AT_FDCWD");
		else
			abuf_put_i64(b, (int)v);
		break;
	case 'p':
		if (path_arg)
			abuf_put_quoted(b, path_arg);
		else
			abuf_put_hex(b, v);
		break;
	case 'f':
		audit_put_open_flags(b, v);
		break;
	case 'v':
		if (argv)
			audit_put_argv(b, argv);
		else
			abuf_put_hex(b, v);
		break;
	case 'm':
		abuf_put_oct(b, v & 07777);
		break;
	case 'i':
		abuf_put_i64(b, (int64_t)v);
		break;
	default:
		abuf_put_hex(b, v);
	}
}

void audit_args_format(struct audit_buf *b, int nr, const uint64_t *args, const char *path_arg,
		       const char *path_arg2, const struct audit_argv *argv)
{
	const char *kinds = audit_kinds(nr);

	uint64_t flags = 0;

	abuf_putc(b, '(');
	for (size_t i = 0; kinds[i] && i < 6; i++) {
		/* As strace: an open's mode means something only when it creates. */
		if (kinds[i] == 'm' && i > 0 && kinds[i - 1] == 'f' && !(flags & O_CREAT) &&
		    (flags & O_TMPFILE) != O_TMPFILE) /* O_TMPFILE contains O_DIRECTORY */
			break;
		if (kinds[i] == 'f')
			flags = args[i];
		if (i)
			abuf_put(b, ", ");
		audit_put_arg(b, kinds[i], args[i], path_arg, path_arg2, argv);
	}
	abuf_putc(b, ')');
}

const char *audit_errno_name(int err)
{
	const char *name = policy_errno_name(err);

	return name ? name : "EUNKNOWN";
}
