/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 14: a listen on a socket never bound, which the kernel binds to
 * the any-address (or to the address bound with IP_BIND_ADDRESS_NO_PORT)
 * with a port of its choosing, past a bind rule (r14-listen.sh).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "attack.h"

/* LISTENING ADDR port P, the address fd listens at; 0. */
static int listening_at(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char a[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return setup_failed("getsockname", errno);
	if (ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, a, sizeof(a));
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	} else if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, a, sizeof(a));
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	result("LISTENING %s port %u", a, port);
	return 0;
}

/* r14-listen inet|inet6: listen on a TCP socket never bound. */
static int cmd_r14_listen(int argc, char **argv)
{
	int family, fd;

	if (argc != 1 || (strcmp(argv[0], "inet") && strcmp(argv[0], "inet6")))
		return 2;
	family = strcmp(argv[0], "inet") == 0 ? AF_INET : AF_INET6;
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (listen(fd, 1) < 0)
		return blocked(errno);
	return listening_at(fd);
}

/*
 * r14-listen-at ADDR PORT: bind to ADDR PORT, then listen; with PORT 0
 * the bind takes no port (IP_BIND_ADDRESS_NO_PORT), and the listen one.
 */
static int cmd_r14_listen_at(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (argc != 2 || (fd = attack_tcp_socket(argv[0], argv[1], &ss, &len)) == -2)
		return 2;
	if (fd < 0)
		return setup_failed("socket", errno);
	if (strcmp(argv[1], "0") == 0 &&
	    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one)) < 0)
		return setup_failed("IP_BIND_ADDRESS_NO_PORT", errno);
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return setup_failed("bind", errno);
	if (listen(fd, 1) < 0)
		return blocked(errno);
	return listening_at(fd);
}

const struct attack_cmd attack_r14_cmds[] = {
	{ "r14-listen", "inet|inet6  listen on a socket never bound", cmd_r14_listen },
	{ "r14-listen-at", "ADDR PORT  bind (port 0: IP_BIND_ADDRESS_NO_PORT), then listen",
	  cmd_r14_listen_at },
	{ NULL, NULL, NULL },
};
