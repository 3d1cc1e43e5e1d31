/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live open test's fixture (a directory tree made afresh for every run)
 * and its target: a child set up as a case says, which makes the case's call
 * natively or under a filter that sends open, openat and openat2 to us, and
 * reports what it got. Part of the test-open program (see test-open.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/openat2.h>

#include "test-open.h"

char fixture[64];

/* ---- Fixture ---- */

void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fx_path(const char *rel, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", fixture, rel);
}

static void fx_dir(const char *rel, mode_t mode)
{
	char p[PATH_MAX];

	fx_path(rel, p, sizeof(p));
	if (mkdir(p, mode) < 0 || chmod(p, mode) < 0)
		die(p);
}

static void fx_file(const char *rel, const char *text, mode_t mode, uid_t uid, gid_t gid)
{
	char p[PATH_MAX];
	int fd;

	fx_path(rel, p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, text, strlen(text)) < 0 || fchown(fd, uid, gid) < 0 ||
	    fchmod(fd, mode) < 0)
		die(p);
	close(fd);
}

static void fx_link(const char *rel, const char *target)
{
	char p[PATH_MAX], t[PATH_MAX];

	fx_path(rel, p, sizeof(p));
	snprintf(t, sizeof(t), "%s", target);
	if (t[0] == '@')
		snprintf(t, sizeof(t), "%s%s", fixture, target + 1);
	if (symlink(t, p) < 0)
		die(p);
}

void fixture_reset(void)
{
	char cmd[128], p[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture);
	if (system(cmd) != 0 || mkdir(fixture, 0755) < 0)
		die("fixture");
	fx_dir("allowed", 0755);
	fx_dir("allowed/sub", 0755);
	fx_file("allowed/a.txt", "allowed\n", 0644, 0, 0);
	fx_file("allowed/trunc.txt", "some content\n", 0666, 0, 0);
	fx_link("allowed/link-in", "a.txt");
	fx_link("allowed/link-out", "../secret/s.txt");
	fx_link("allowed/link-abs", "@/secret/s.txt");
	fx_link("allowed/link-dir", "../secret");
	fx_link("allowed/dangling", "newfile");
	fx_link("allowed/loop1", "loop2");
	fx_link("allowed/loop2", "loop1");
	fx_link("allowed/self-fd", "/proc/self/fd");
	fx_dir("secret", 0755);
	fx_file("secret/s.txt", "secret\n", 0600, 0, 0);
	fx_file("secret/group.txt", "group\n", 0640, 0, GROUP);
	fx_file("secret/nobody.txt", "nobody\n", 0600, NOBODY, NOBODY);
	fx_dir("locked", 0700);
	fx_file("locked/x.txt", "x\n", 0644, 0, 0);
	fx_dir("world", 0777);
	fx_dir("root", 0755);
	fx_dir("root/etc", 0755);
	fx_file("root/etc/hostname", "chroot\n", 0644, 0, 0);
	fx_link("root/link-abs", "/etc/hostname");
	fx_dir("sticky", 01777);
	fx_link("sticky/lnk", "../allowed/a.txt");
	fx_path("sticky/lnk", p, sizeof(p));
	if (lchown(p, 1000, 1000) < 0)
		die(p);
	fx_file("sticky/reg", "reg\n", 0666, 1000, 1000);
	fx_dir("sgid", 02777);
	fx_path("sgid", p, sizeof(p));
	if (chown(p, 0, GROUP) < 0 || chmod(p, 02777) < 0)
		die(p);
	fx_path("fifo", p, sizeof(p));
	if (mkfifo(p, 0666) < 0)
		die(p);
}

pid_t supervisor_pid;

/* '@' becomes the fixture, "%p" the pid, "%t" the tid, "%s" the supervisor's pid. */
void expand_tid(const char *in, pid_t pid, pid_t tid, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		int w = 0;

		if (*in == '@')
			w = snprintf(out + n, size - n, "%s", fixture);
		else if (in[0] == '%' && in[1] == 'p')
			w = snprintf(out + n, size - n, "%d", (int)pid), in++;
		else if (in[0] == '%' && in[1] == 't')
			w = snprintf(out + n, size - n, "%d", (int)tid), in++;
		else if (in[0] == '%' && in[1] == 's')
			w = snprintf(out + n, size - n, "%d", (int)supervisor_pid), in++;
		else
			out[n] = *in, w = 1;
		n += (size_t)w < size - n ? (size_t)w : size - n - 1;
	}
	out[n] = '\0';
}

static void expand(const char *in, pid_t pid, char *out, size_t size)
{
	expand_tid(in, pid, pid, out, size);
}

/* ---- The target ---- */

static int send_msg(int sock, const void *buf, size_t len, int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *cm;

		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) < 0 ? -errno : 0;
}

ssize_t recv_msg(int sock, void *buf, size_t len, int *ret_fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);

	if (ret_fd)
		*ret_fd = -1;
	if (n < 0)
		return -errno;
	cm = CMSG_FIRSTHDR(&msg);
	if (ret_fd && cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(ret_fd, CMSG_DATA(cm), sizeof(int));
	return n;
}

static int child_drop_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	d[0].effective = d[1].effective = 0;
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/* A tmpfs over allowed/sub that only the target's mount namespace has. */
static int child_mountns(void)
{
	char p[PATH_MAX];
	int fd;

	fx_path("allowed/sub", p, sizeof(p));
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", p, "tmpfs", 0, "mode=0755") < 0)
		return -errno;
	fx_path("allowed/sub/m.txt", p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "mounted\n", 8) != 8)
		return -errno;
	close(fd);
	return 0;
}

static int child_setup(const struct tcase *c)
{
	char p[PATH_MAX];

	if (c->mountns && child_mountns() < 0)
		return -errno;
	if (c->dirfd && strcmp(c->dirfd, "-") == 0) {
		close(BAD_DIRFD);
	} else if (c->dirfd) {
		int fd;

		expand(c->dirfd, 0, p, sizeof(p));
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, DIRFD_SLOT) < 0)
			return -errno;
	}
	expand(c->cwd && !c->thread ? c->cwd : "@", 0, p, sizeof(p));
	if (chdir(p) < 0)
		return -errno;
	if (c->root) {
		expand(c->root, 0, p, sizeof(p));
		if (chroot(p) < 0 || chdir("/") < 0)
			return -errno;
	}
	umask(c->umask ? c->umask : 022);
	if (setgroups((size_t)c->ngroups, c->groups) < 0)
		return -errno;
	if (!c->thread && c->uid &&
	    (setresgid(c->uid, c->uid, c->uid) < 0 || setresuid(c->uid, c->uid, c->uid) < 0))
		return -errno;
	/* An unprivileged supervisor needs ptrace access, as after exec. */
	if (prctl(PR_SET_DUMPABLE, c->nodump ? 0 : 1) < 0)
		return -errno;
	return c->nocaps ? child_drop_caps() : 0;
}

static int child_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int fd;

	if (!ctx)
		return -ENOMEM;
	if (seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat), 0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(open), 0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat2), 0) < 0 ||
	    seccomp_load(ctx) < 0) {
		seccomp_release(ctx);
		return -EPERM;
	}
	fd = seccomp_notify_fd(ctx);
	seccomp_release(ctx);
	return fd;
}

static long child_call(const struct tcase *c, const char *path)
{
	int dirfd = !c->dirfd ? AT_FDCWD : strcmp(c->dirfd, "-") == 0 ? BAD_DIRFD : DIRFD_SLOT;
	struct open_how how = { .flags = (uint64_t)c->flags, .mode = c->mode,
				.resolve = c->resolve };

	switch (c->nr) {
	case SYS_open:
		return syscall(SYS_open, path, c->flags, c->mode);
	case SYS_openat2:
		return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	default:
		return syscall(SYS_openat, dirfd, path, c->flags, c->mode);
	}
}

static void child_report(long fd, struct report *rep)
{
	rep->err = fd < 0 ? errno : 0;
	rep->pid = getpid();
	rep->tid = gettid();
	if (fd < 0)
		return;
	fstat((int)fd, &rep->st);
	rep->fl = fcntl((int)fd, F_GETFL);
	rep->fdfl = fcntl((int)fd, F_GETFD);
	if (pread((int)fd, rep->head, sizeof(rep->head) - 1, 0) < 0)
		rep->head[0] = '\0';
}

struct child_thread {
	const struct tcase *c;
	const char *path;
	struct report *rep;
};

/* A second thread with its own cwd (CLONE_FS) and its own user (raw, per-thread setresuid). */
static void *child_thread(void *arg)
{
	struct child_thread *a = arg;
	const struct tcase *c = a->c;
	char cwd[PATH_MAX];
	long r;

	expand(c->cwd ? c->cwd : "@", 0, cwd, sizeof(cwd));
	if (unshare(CLONE_FS) < 0 || chdir(cwd) < 0 ||
	    (c->uid && (syscall(SYS_setresgid, c->uid, c->uid, c->uid) < 0 ||
			syscall(SYS_setresuid, c->uid, c->uid, c->uid) < 0))) {
		a->rep->setup_error = errno;
		return NULL;
	}
	r = child_call(c, a->path);
	child_report(r, a->rep);
	return NULL;
}

static long child_call_maybe_thread(const struct tcase *c, const char *path, struct report *rep)
{
	struct child_thread a = { c, path, rep };
	pthread_t t;
	long r;

	if (!c->thread) {
		r = child_call(c, path);
		child_report(r, rep);
		return 0;
	}
	if (pthread_create(&t, NULL, child_thread, &a) != 0 || pthread_join(t, NULL) != 0)
		return -1;
	return 0;
}

/* Own pid and mount namespaces, a fresh /proc: we go on as their pid 1. */
static int child_pidns(void)
{
	pid_t p;
	int status;

	if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0)
		return -errno;
	p = fork();
	if (p < 0)
		return -errno;
	if (p > 0) {
		waitpid(p, &status, 0);
		_exit(0);
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", 0, NULL) < 0)
		return -errno;
	return 0;
}

void child_main(const struct tcase *c, int sock, bool supervised)
{
	struct report rep = { 0 };
	char path[PATH_MAX];
	int fd = -1;

	expand(c->path, 0, path, sizeof(path));
	rep.setup_error = c->pidns ? -child_pidns() : 0;
	if (!rep.setup_error)
		rep.setup_error = -child_setup(c);
	if (!rep.setup_error && supervised) {
		fd = child_filter();
		if (fd < 0)
			rep.setup_error = -fd;
	}
	send_msg(sock, &rep, sizeof(rep), fd);
	if (rep.setup_error)
		_exit(1);
	if (fd >= 0)
		close(fd);
	if (child_call_maybe_thread(c, path, &rep) < 0)
		rep.setup_error = EAGAIN;
	send_msg(sock, &rep, sizeof(rep), -1);
	_exit(0);
}
