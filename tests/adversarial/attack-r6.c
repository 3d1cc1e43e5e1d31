/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 6: TCP port rules against sockets that are TCP on the wire but not
 * TCP sockets, made where the tcp-variants set does not look; xattr reads
 * by descriptor.
 *  - hand-sockets PATH SECS 262 (attack-tcp.c) hands MPTCP sockets in from
 *    outside; connect-handed takes one.
 *  - r6-hold runs OUTSIDE too: makes such a socket at a descriptor number,
 *    then execs the rest (unotify run ...): a socket made before the sandbox.
 *  - r6-connect-fd, in the sandbox, connects that inherited descriptor.
 *  - r6-fxattr opens a file for writing (the policy refuses its reads only)
 *    and reads its xattrs by the descriptor: fgetxattr, flistxattr,
 *    getxattrat(fd, "", AT_EMPTY_PATH).
 *  - r6-tfo-mmsg: sendmmsg(MSG_FASTOPEN) with msg_name on a TCP socket:
 *    connects without connect, one message of a vector;
 *  - r6-tfo-connect: TCP_FASTOPEN_CONNECT, then connect (no SYN yet) and a
 *    write that sends it;
 *  - r6-xattr-ro: getxattr of an allowed file into a read-only private
 *    mapping of it: the kernel says EFAULT; a supervisor writing through
 *    /proc/PID/mem (FOLL_FORCE) would change the page.
 *  - r6-xattr-swap: a thread exchanges (RENAME_EXCHANGE) an allowed file
 *    and a symlink to a refused one under two names while another reads
 *    getxattr of one name: the refused file's value must never come back
 *    (a guessed name decided by its text, then looked up again).
 *  - r6-cwd-flip: a thread flips the process's cwd between an allowed and a
 *    refused directory while another opens a relative name found in both
 *    (perf3 names a relative path's start by statx then readlink of the
 *    /proc/TID/cwd magic link: two lookups a chdir can fall between).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "attack.h"
#include "lib/uapi.h"

/* r6-hold PROTO FD CMD...: outside; a socket at FD, kept across the exec. */
static int cmd_r6_hold(int argc, char **argv)
{
	int s, fd;

	if (argc < 3)
		return 2;
	fd = (int)parse_long(argv[1]);
	s = socket(AF_INET, SOCK_STREAM, (int)parse_long(argv[0]));
	if (s < 0)
		return setup_failed("socket", errno);
	if (s != fd && (dup2(s, fd) < 0 || close(s) < 0))
		return setup_failed("dup2", errno);
	execvp(argv[2], argv + 2);
	return setup_failed("exec", errno);
}

/* r6-connect-fd FD ADDR PORT */
static int cmd_r6_connect_fd(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, proto = -1;
	socklen_t plen = sizeof(proto);

	if (argc != 3 || !(len = attack_addr(argv[1], argv[2], &ss)))
		return 2;
	fd = (int)parse_long(argv[0]);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &plen) < 0)
		return setup_failed("inherited-socket", errno);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("CONNECTED %s port %s on an inherited socket (protocol %d)", argv[1], argv[2],
	       proto);
	return 0;
}

/* r6-fxattr PATH NAME|- HOW: HOW is fget, flist, at-empty (getxattrat of the fd). */
static int cmd_r6_fxattr(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[0], O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open-for-writing", errno);
	if (strcmp(argv[2], "fget") == 0) {
		n = fgetxattr(fd, argv[1], buf, sizeof(buf) - 1);
	} else if (strcmp(argv[2], "flist") == 0) {
		n = flistxattr(fd, buf, sizeof(buf) - 1);
		for (ssize_t i = 0; i + 1 < n; i++)
			if (!buf[i])
				buf[i] = ',';
	} else if (strcmp(argv[2], "at-empty") == 0) {
		struct {
			uint64_t value;
			uint32_t size, flags;
		} args = { (uint64_t)(uintptr_t)buf, sizeof(buf) - 1, 0 };
		n = syscall(SYS_getxattrat, fd, "", AT_EMPTY_PATH, argv[1], &args, sizeof(args));
	} else {
		return 2;
	}
	if (n < 0)
		return blocked(errno);
	buf[n] = 0;
	result("LEAK %zd %s", n, buf);
	return 0;
}

/* r6-tfo-mmsg ADDR PORT */
static int cmd_r6_tfo_mmsg(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct mmsghdr mm[2];
	struct iovec iov = { .iov_base = "TFO", .iov_len = 3 };
	socklen_t len;
	int fd, n;

	if (argc != 2 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	memset(mm, 0, sizeof(mm));
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_name = &ss;
		mm[i].msg_hdr.msg_namelen = len;
		mm[i].msg_hdr.msg_iov = &iov;
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	n = sendmmsg(fd, mm, 2, MSG_FASTOPEN);
	if (n < 0 && errno != EINPROGRESS)
		return blocked(errno);
	result("CONNECTED to %s port %s by sendmmsg(MSG_FASTOPEN) (%d sent)", argv[0], argv[1], n);
	return 0;
}

/* r6-tfo-connect ADDR PORT */
static int cmd_r6_tfo_connect(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (argc != 2 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, &one, sizeof(one)) < 0)
		return setup_failed("tcp-fastopen-connect", errno);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0 && errno != EINPROGRESS)
		return blocked(errno);
	if (write(fd, "TFO", 3) < 0)
		return blocked(errno);
	result("CONNECTED to %s port %s by TCP_FASTOPEN_CONNECT", argv[0], argv[1]);
	return 0;
}

/* r6-xattr-ro PATH NAME */
static int cmd_r6_xattr_ro(int argc, char **argv)
{
	char before[64];
	char *page;
	ssize_t n;
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (page == MAP_FAILED)
		return setup_failed("mmap", errno);
	memcpy(before, page, sizeof(before));
	n = getxattr(argv[0], argv[1], page, sizeof(before));
	if (memcmp(before, page, sizeof(before)) != 0)
		return result("CHANGED a read-only page (getxattr said %zd)", n), 0;
	if (n >= 0)
		return result("WROTE %zd bytes into a read-only page, unchanged?", n), 0;
	return blocked(errno);
}

struct r6_swap {
	const char *a, *b;
	atomic_bool stop;
};

static void *r6_swapper(void *arg)
{
	struct r6_swap *w = arg;

	while (!atomic_load(&w->stop))
		if (syscall(SYS_renameat2, AT_FDCWD, w->a, AT_FDCWD, w->b, 2 /* EXCHANGE */) < 0)
			return NULL;
	return NULL;
}

/* r6-xattr-swap NAME OTHER XNAME TOKEN N */
static int cmd_r6_xattr_swap(int argc, char **argv)
{
	struct r6_swap w = { .a = NULL };
	long n, got_ok = 0, refused = 0;
	char buf[256];
	pthread_t th;

	if (argc != 5)
		return 2;
	w.a = argv[0];
	w.b = argv[1];
	n = parse_long(argv[4]);
	if (pthread_create(&th, NULL, r6_swapper, &w) != 0)
		return setup_failed("swapper", errno);
	for (long i = 0; i < n; i++) {
		ssize_t got = getxattr(argv[0], argv[2], buf, sizeof(buf) - 1);

		if (got < 0) {
			refused += errno == EACCES;
			continue;
		}
		got_ok++;
		buf[got] = 0;
		if (strstr(buf, argv[3])) {
			atomic_store(&w.stop, true);
			pthread_join(th, NULL);
			result("LEAK %zd %s (try %ld)", got, buf, i);
			return 0;
		}
	}
	atomic_store(&w.stop, true);
	pthread_join(th, NULL);
	note("%ld read (allowed file), %ld refused", got_ok, refused);
	if (!got_ok || !refused)
		return setup_failed("race-never-both", 0);
	return blocked(EACCES);
}

struct r6_flip {
	const char *dirs[2];
	atomic_bool stop;
};

static void *r6_flipper(void *arg)
{
	struct r6_flip *f = arg;

	while (!atomic_load(&f->stop))
		for (int i = 0; i < 2; i++)
			if (chdir(f->dirs[i]) < 0)
				return NULL;
	return NULL;
}

/* r6-cwd-flip ALLOWED DENIED NAME TOKEN N: LEAK when a read of NAME holds TOKEN. */
static int cmd_r6_cwd_flip(int argc, char **argv)
{
	struct r6_flip f = { .dirs = { NULL, NULL } };
	long n, opened = 0, refused = 0;
	pthread_t th;
	char buf[256];

	if (argc != 5)
		return 2;
	f.dirs[0] = argv[0];
	f.dirs[1] = argv[1];
	n = parse_long(argv[4]);
	if (chdir(argv[0]) < 0 || pthread_create(&th, NULL, r6_flipper, &f) != 0)
		return setup_failed("flipper", errno);
	for (long i = 0; i < n; i++) {
		int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
		ssize_t got;

		if (fd < 0) {
			refused += errno == EACCES;
			continue;
		}
		opened++;
		got = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (got > 0) {
			buf[got] = 0;
			if (strstr(buf, argv[3])) {
				atomic_store(&f.stop, true);
				pthread_join(th, NULL);
				result("LEAK %zd %s (try %ld)", got, buf, i);
				return 0;
			}
		}
	}
	atomic_store(&f.stop, true);
	pthread_join(th, NULL);
	note("%ld opened (allowed copy), %ld refused", opened, refused);
	if (!opened || !refused)
		return setup_failed("race-never-both", 0);
	return blocked(EACCES);
}

const struct attack_cmd attack_r6_cmds[] = {
	{ "r6-hold", "PROTO FD CMD...  (outside) a stream socket of PROTO at FD, then exec",
	  cmd_r6_hold },
	{ "r6-connect-fd", "FD ADDR PORT  connect an inherited socket", cmd_r6_connect_fd },
	{ "r6-fxattr", "PATH NAME|- fget|flist|at-empty  xattrs of a file opened for writing",
	  cmd_r6_fxattr },
	{ "r6-tfo-mmsg", "ADDR PORT  sendmmsg(MSG_FASTOPEN) on a TCP socket", cmd_r6_tfo_mmsg },
	{ "r6-tfo-connect", "ADDR PORT  TCP_FASTOPEN_CONNECT, connect, write", cmd_r6_tfo_connect },
	{ "r6-xattr-ro", "PATH NAME  getxattr into a read-only mapping", cmd_r6_xattr_ro },
	{ "r6-xattr-swap", "NAME OTHER XNAME TOKEN N  getxattr while a symlink swaps in",
	  cmd_r6_xattr_swap },
	{ "r6-cwd-flip", "ALLOWED DENIED NAME TOKEN N  relative opens while the cwd flips",
	  cmd_r6_cwd_flip },
	{ NULL, NULL, NULL },
};
