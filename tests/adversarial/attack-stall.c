/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor stalled or blinded. `unotify run` decides every call of
 * the program on one thread: a call it performs that blocks (a FIFO opened
 * for writing with no reader, a connect to a listener that never accepts)
 * holds every other thread's calls. Its audit trail goes, by default, to
 * the stderr it shares with the program, whose flags the program can
 * change; a record too long for the line buffer loses its end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "attack.h"

struct staller {
	const char *path;
	int kind;          /* 0: open a FIFO for writing, 1: connect to a unix socket */
	atomic_int tid;
	int go[2];
};

static void *staller_main(void *arg)
{
	struct staller *s = arg;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char byte;
	int fd;

	atomic_store(&s->tid, (int)syscall(SYS_gettid));
	if (read(s->go[0], &byte, 1) != 1)
		return NULL;
	if (s->kind == 0) {
		open(s->path, O_WRONLY | O_CLOEXEC);
		return NULL;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", s->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	return NULL;
}

/* Waits until the thread whose syscall file is fd is inside system call nr. */
static bool wait_in_syscall(int fd, long nr)
{
	char buf[128];

	for (int i = 0; i < 1000; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n > 0) {
			buf[n] = '\0';
			if (strtol(buf, NULL, 10) == nr)
				return true;
		}
		pause_ms(5);
	}
	return false;
}

/* A first connection fills the backlog (0) of the listener that never accepts. */
static int fill_backlog(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return fd;
}

/*
 * One thread blocks in a call the supervisor performs; once it is inside
 * that call, the main thread makes an allowed intercepted call (getppid,
 * answered by the policy). A stalled supervisor never answers it: the test's
 * time limit ends the run. The program exits at once when answered.
 */
static int stall(const char *path, int kind)
{
	static struct staller s;
	char name[64];
	pthread_t t;
	long v;
	int fd;

	s.path = path;
	s.kind = kind;
	if (kind == 1 && fill_backlog(path) < 0)
		return setup_failed("first-connect", errno);
	if (pipe(s.go) < 0 || pthread_create(&t, NULL, staller_main, &s) != 0)
		return setup_failed("thread", errno);
	while (atomic_load(&s.tid) == 0)
		pause_ms(1);
	snprintf(name, sizeof(name), "/proc/self/task/%d/syscall", atomic_load(&s.tid));
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || write(s.go[1], "g", 1) != 1)
		return setup_failed("syscall-file", errno);
	if (!wait_in_syscall(fd, kind == 0 ? SYS_openat : SYS_connect))
		return setup_failed("staller-not-in-call", 0);
	note("the other thread is inside its %s", kind == 0 ? "openat" : "connect");
	v = syscall(SYS_getppid);
	result("ANSWERED getppid=%ld", v);
	_exit(0);
}

static int cmd_fifo_stall(int argc, char **argv)
{
	return argc == 1 ? stall(argv[0], 0) : 2;
}

static int cmd_unix_stall(int argc, char **argv)
{
	return argc == 1 ? stall(argv[0], 1) : 2;
}

/*
 * audit-nonblock DENIED N GOFILE: fd 2 (the supervisor's audit trail too)
 * made non-blocking and its pipe filled, then N denied opens, then GOFILE
 * created: the test's reader starts reading only then.
 */
static int cmd_audit_nonblock(int argc, char **argv)
{
	static char chunk[4096];
	long n, denied = 0, filled = 0;
	int fd;

	if (argc != 3)
		return 2;
	n = parse_long(argv[1]);
	memset(chunk, 'x', sizeof(chunk));
	chunk[sizeof(chunk) - 1] = '\n';
	if (fcntl(2, F_SETFL, fcntl(2, F_GETFL) | O_NONBLOCK) < 0)
		return setup_failed("fcntl", errno);
	for (;;) {
		ssize_t w = write(2, chunk, sizeof(chunk));

		if (w <= 0)
			break;
		filled += w;
	}
	if (errno != EAGAIN)
		return setup_failed("stderr-not-a-pipe", errno);
	for (long i = 0; i < n; i++)
		if (open(argv[0], O_RDONLY | O_CLOEXEC) < 0)
			denied++;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	result("FILLED %ld DENIED %ld", filled, denied);
	return 0;
}

/* A path of about len bytes under dir, its components made of byte c (escaped 4x in the trail). */
static void long_path(char *out, size_t size, const char *dir, char c, size_t len, char last)
{
	size_t n = (size_t)snprintf(out, size, "%s", dir);

	while (n + 202 < len && n + 202 < size) {
		out[n++] = '/';
		memset(out + n, c, 200);
		n += 200;
	}
	out[n++] = '/';
	out[n++] = last;
	out[n] = '\0';
}

/*
 * audit-huge FROM TO rename|link|symlink: one call with two 4 KiB paths of
 * unprintable bytes, the first under FROM, the second under TO (the denied
 * one, so that a rule reads both): each path appears twice, escaped.
 */
static int cmd_audit_huge(int argc, char **argv)
{
	static char a[4096], b[4096];
	int r;

	if (argc != 3)
		return 2;
	long_path(a, sizeof(a), argv[0], '\x01', 4000, 'a');
	long_path(b, sizeof(b), argv[1], '\x01', 4000, 'b');
	if (strcmp(argv[2], "rename") == 0)
		r = rename(a, b);
	else if (strcmp(argv[2], "link") == 0)
		r = link(a, b);
	else
		r = symlink(a, b);
	if (r == 0) {
		result("DONE %s", argv[2]);
		return 0;
	}
	return blocked(errno);
}

const struct attack_cmd attack_stall_cmds[] = {
	{ "fifo-stall", "FIFO           a thread opens FIFO for writing; another calls getppid",
	  cmd_fifo_stall },
	{ "unix-stall", "SOCKET         a thread connects to a full listener; another calls getppid",
	  cmd_unix_stall },
	{ "audit-nonblock", "DENIED N GO  O_NONBLOCK on the shared stderr, pipe full, N denials",
	  cmd_audit_nonblock },
	{ "audit-huge", "FROM TO rename|link|symlink  an audit line over 40 KiB",
	  cmd_audit_huge },
	{ NULL, NULL, NULL },
};
