/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy-escape: a supervised program that tries to do what its policy
 * forbids by a call the policy's rules do not name (tests/adversarial/
 * policy-*.sh). Each command makes its attempt step by step, printing one
 * line per step, "STEP ok" or "STEP err ENAME", and at the end what it got:
 * "read: TEXT" (the first line of a file it read), "mode: 0NNN", "exists",
 * "connected", or nothing when a step failed. The tests assert on the
 * forbidden effect (the secret's text never printed, the file unchanged),
 * not only on the errno.
 *
 *   chroot DIR FILE                 chroot(DIR), read FILE (from the new root)
 *   userns-chroot DIR FILE          unshare(CLONE_NEWUSER), chroot(DIR), read FILE
 *   userns-bind SRC DST FILE        unshare(NEWUSER|NEWNS), bind SRC over DST, read DST/FILE
 *   setns NSFILE                    setns(open(NSFILE), 0)
 *   clone3                          clone3(), the child exits at once
 *   rename-edit DIR FILE TEXT       rename DIR away, write TEXT to its FILE, rename it back
 *   rename-read DIR FILE            rename DIR away, read its FILE
 *   exchange A B                    renameat2(A, B, RENAME_EXCHANGE)
 *   opath-read FILE                 open(FILE, O_PATH), read(2) it
 *   handle-read FILE                name_to_handle_at + open_by_handle_at, read it
 *   setxattr PATH NAME VALUE | lsetxattr ... | fsetxattr PATH NAME VALUE (on an O_RDONLY fd)
 *   acl PATH                        a POSIX ACL giving others rw-, then the mode
 *   fchmod PATH MODE                fchmod on an O_RDONLY fd, then the mode
 *   bind-unix PATH                  bind an AF_UNIX socket to PATH, then whether it exists
 *   mknod-blk PATH MAJOR MINOR      mknod a block device, then whether it exists
 *   setflags FILE                   ioctl(FS_IOC_SETFLAGS, FS_APPEND_FL) on an O_RDONLY fd
 *   io-uring                        io_uring_setup
 *   raw                             socket(AF_INET, SOCK_RAW, IPPROTO_RAW), socket(AF_PACKET)
 *   connect-any PORT                listen on 127.0.0.1:PORT, connect to 0.0.0.0 and [::]
 *   append-rewrite FILE             open O_WRONLY|O_APPEND, clear O_APPEND, pwrite at 0
 *   denials N FILE                  fill stderr non-blocking, then N denied opens of FILE
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/fs.h>

static int step(const char *what, long r)
{
	if (r < 0)
		printf("%s err %s\n", what, strerrorname_np(errno) ? strerrorname_np(errno) : "E?");
	else
		printf("%s ok\n", what);
	fflush(stdout);
	return r < 0 ? -1 : 0;
}

/* Prints "read: LINE" with the first line of fd; nothing when nothing can be read. */
static void show_fd(int fd)
{
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (step("read", n) < 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("read: %s\n", buf);
}

static void show_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (step("open", fd) == 0) {
		show_fd(fd);
		close(fd);
	}
}

static void show_mode(const char *path)
{
	struct stat st;

	if (step("stat", stat(path, &st)) == 0)
		printf("mode: 0%o\n", st.st_mode & 07777);
}

static void show_exists(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0)
		printf("exists\n");
}

static int cmd_chroot(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (step("chroot", syscall(SYS_chroot, argv[0])) == 0 && step("chdir", chdir("/")) == 0)
		show_file(argv[1]);
	return 0;
}

static int cmd_userns_chroot(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (step("unshare", syscall(SYS_unshare, CLONE_NEWUSER)) == 0)
		cmd_chroot(argc, argv);
	return 0;
}

static int cmd_userns_bind(int argc, char **argv)
{
	char path[4096];

	if (argc != 3)
		return 2;
	if (step("unshare", syscall(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS)) < 0 ||
	    step("mount", syscall(SYS_mount, argv[0], argv[1], NULL, MS_BIND, NULL)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", argv[1], argv[2]);
	show_file(path);
	return 0;
}

static int cmd_setns(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (step("open", fd) == 0)
		step("setns", syscall(SYS_setns, fd, 0));
	return 0;
}

static int cmd_clone3(int argc, char **argv)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	} args = { .exit_signal = SIGCHLD };
	long pid;

	(void)argv;
	if (argc != 0)
		return 2;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(0);
	if (step("clone3", pid) == 0)
		waitpid((pid_t)pid, NULL, 0);
	return 0;
}

static int cmd_rename_edit(int argc, char **argv)
{
	char away[4096], file[8200];
	int fd;

	if (argc != 3)
		return 2;
	snprintf(away, sizeof(away), "%s.away", argv[0]);
	snprintf(file, sizeof(file), "%s/%s", away, argv[1]);
	if (step("rename", syscall(SYS_rename, argv[0], away)) < 0)
		return 0;
	fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (step("open", fd) == 0) {
		step("write", write(fd, argv[2], strlen(argv[2])));
		close(fd);
	}
	step("rename-back", syscall(SYS_rename, away, argv[0]));
	return 0;
}

static int cmd_rename_read(int argc, char **argv)
{
	char away[4096], file[8200];

	if (argc != 2)
		return 2;
	snprintf(away, sizeof(away), "%s.away", argv[0]);
	snprintf(file, sizeof(file), "%s/%s", away, argv[1]);
	if (step("rename", syscall(SYS_rename, argv[0], away)) == 0) {
		show_file(file);
		step("rename-back", syscall(SYS_rename, away, argv[0]));
	}
	return 0;
}

static int cmd_exchange(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	step("exchange", syscall(SYS_renameat2, AT_FDCWD, argv[0], AT_FDCWD, argv[1],
				 RENAME_EXCHANGE));
	return 0;
}

static int cmd_opath_read(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = (int)syscall(SYS_openat, AT_FDCWD, argv[0], O_PATH | O_CLOEXEC);
	if (step("open", fd) == 0)
		show_fd(fd);
	return 0;
}

static int cmd_handle_read(int argc, char **argv)
{
	struct {
		struct file_handle h;
		unsigned char bytes[MAX_HANDLE_SZ];
	} fh = { .h.handle_bytes = MAX_HANDLE_SZ };
	int mount_id, mfd, fd;

	if (argc != 1)
		return 2;
	if (step("name_to_handle_at", syscall(SYS_name_to_handle_at, AT_FDCWD, argv[0], &fh.h,
					      &mount_id, 0)) < 0)
		return 0;
	mfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = (int)syscall(SYS_open_by_handle_at, mfd, &fh.h, O_RDONLY);
	if (step("open_by_handle_at", fd) == 0)
		show_fd(fd);
	return 0;
}

static int cmd_setxattr(int argc, char **argv, int how)
{
	int fd;
	long r;

	if (argc != 3)
		return 2;
	if (how == 'f') {
		fd = open(argv[0], O_RDONLY | O_CLOEXEC);
		if (step("open", fd) < 0)
			return 0;
		r = syscall(SYS_fsetxattr, fd, argv[1], argv[2], strlen(argv[2]), 0);
	} else {
		r = syscall(how == 'l' ? SYS_lsetxattr : SYS_setxattr, argv[0], argv[1], argv[2],
			    strlen(argv[2]), 0);
	}
	step("setxattr", r);
	return 0;
}

static int cmd_set(int argc, char **argv)
{
	return cmd_setxattr(argc, argv, 's');
}

static int cmd_lset(int argc, char **argv)
{
	return cmd_setxattr(argc, argv, 'l');
}

static int cmd_fset(int argc, char **argv)
{
	return cmd_setxattr(argc, argv, 'f');
}

/* system.posix_acl_access: user::rw-, group::r--, other::rw- (version 2, no mask). */
static int cmd_acl(int argc, char **argv)
{
	struct {
		uint32_t version;
		struct {
			uint16_t tag, perm;
			uint32_t id;
		} e[3];
	} acl = { 2, { { 0x01, 6, UINT32_MAX }, { 0x04, 4, UINT32_MAX }, { 0x20, 6, UINT32_MAX } } };

	if (argc != 1)
		return 2;
	if (step("setxattr", syscall(SYS_setxattr, argv[0], "system.posix_acl_access", &acl,
				     sizeof(acl), 0)) == 0)
		show_mode(argv[0]);
	return 0;
}

static int cmd_fchmod(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (step("open", fd) == 0 &&
	    step("fchmod", syscall(SYS_fchmod, fd, strtol(argv[1], NULL, 8))) == 0)
		show_mode(argv[0]);
	return 0;
}

static int cmd_bind_unix(int argc, char **argv)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int s;

	if (argc != 1 || strlen(argv[0]) >= sizeof(sun.sun_path))
		return 2;
	strcpy(sun.sun_path, argv[0]);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (step("socket", s) == 0)
		step("bind", bind(s, (struct sockaddr *)&sun, sizeof(sun)));
	show_exists(argv[0]);
	return 0;
}

static int cmd_mknod_blk(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	step("mknod", syscall(SYS_mknodat, AT_FDCWD, argv[0], S_IFBLK | 0600,
			      makedev(atoi(argv[1]), atoi(argv[2]))));
	show_exists(argv[0]);
	return 0;
}

static int cmd_setflags(int argc, char **argv)
{
	int fd, flags = FS_APPEND_FL;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (step("open", fd) == 0)
		step("ioctl", ioctl(fd, FS_IOC_SETFLAGS, &flags));
	return 0;
}

static int cmd_io_uring(int argc, char **argv)
{
	unsigned char params[120] = { 0 };

	(void)argv;
	if (argc != 0)
		return 2;
	step("io_uring_setup", syscall(SYS_io_uring_setup, 4, params));
	return 0;
}

static int cmd_raw(int argc, char **argv)
{
	(void)argv;
	if (argc != 0)
		return 2;
	step("raw", socket(AF_INET, SOCK_RAW, IPPROTO_RAW));
	step("packet", socket(AF_PACKET, SOCK_RAW, 0));
	step("sctp", socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP));
	return 0;
}

static int connect_to(int family, const void *addr, socklen_t len)
{
	int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int r;

	if (s < 0)
		return -1;
	r = connect(s, addr, len);
	close(s);
	return r;
}

static int cmd_connect_any(int argc, char **argv)
{
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 };
	int l;

	if (argc != 1)
		return 2;
	lo.sin_port = any.sin_port = any6.sin6_port = htons((uint16_t)atoi(argv[0]));
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (step("listen", l < 0 ? -1 : bind(l, (struct sockaddr *)&lo, sizeof(lo))) < 0 ||
	    step("listen", listen(l, 8)) < 0)
		return 0;
	if (step("connect-0.0.0.0", connect_to(AF_INET, &any, sizeof(any))) == 0)
		printf("connected\n");
	if (step("connect-::", connect_to(AF_INET6, &any6, sizeof(any6))) == 0)
		printf("connected\n");
	return 0;
}

static int cmd_append_rewrite(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (step("open", fd) < 0)
		return 0;
	if (step("fcntl", fcntl(fd, F_SETFL, 0)) == 0)
		step("pwrite", pwrite(fd, "X", 1, 0));
	return 0;
}

/* Makes stderr non-blocking and fills it, then asks for denied opens: their records must not vanish. */
static int cmd_denials(int argc, char **argv)
{
	char junk[4096];
	int n, denied = 0;

	if (argc != 2)
		return 2;
	n = atoi(argv[0]);
	memset(junk, 'x', sizeof(junk));
	fcntl(2, F_SETFL, fcntl(2, F_GETFL) | O_NONBLOCK);
	while (write(2, junk, sizeof(junk)) > 0)
		;
	for (int i = 0; i < n; i++)
		denied += syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY) < 0;
	printf("denied=%d\n", denied);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} cmds[] = {
	{ "chroot", cmd_chroot },
	{ "userns-chroot", cmd_userns_chroot },
	{ "userns-bind", cmd_userns_bind },
	{ "setns", cmd_setns },
	{ "clone3", cmd_clone3 },
	{ "rename-edit", cmd_rename_edit },
	{ "rename-read", cmd_rename_read },
	{ "exchange", cmd_exchange },
	{ "opath-read", cmd_opath_read },
	{ "handle-read", cmd_handle_read },
	{ "setxattr", cmd_set },
	{ "lsetxattr", cmd_lset },
	{ "fsetxattr", cmd_fset },
	{ "acl", cmd_acl },
	{ "fchmod", cmd_fchmod },
	{ "bind-unix", cmd_bind_unix },
	{ "mknod-blk", cmd_mknod_blk },
	{ "setflags", cmd_setflags },
	{ "io-uring", cmd_io_uring },
	{ "raw", cmd_raw },
	{ "connect-any", cmd_connect_any },
	{ "append-rewrite", cmd_append_rewrite },
	{ "denials", cmd_denials },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; argc >= 2 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			int r = cmds[i].run(argc - 2, argv + 2);

			if (r == 2)
				fprintf(stderr, "policy-escape: bad arguments for %s\n", argv[1]);
			return r;
		}
	fprintf(stderr, "usage: policy-escape COMMAND ARGS... (see the source)\n");
	return 2;
}
