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
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

const struct attack_cmd attack_r6_cmds[] = {
	{ "r6-hold", "PROTO FD CMD...  (outside) a stream socket of PROTO at FD, then exec",
	  cmd_r6_hold },
	{ "r6-connect-fd", "FD ADDR PORT  connect an inherited socket", cmd_r6_connect_fd },
	{ "r6-fxattr", "PATH NAME|- fget|flist|at-empty  xattrs of a file opened for writing",
	  cmd_r6_fxattr },
	{ NULL, NULL, NULL },
};
