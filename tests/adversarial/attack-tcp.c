/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TCP port rules (proto=tcp port=, in the Landlock layer or the
 * supervisor): ways to reach a refused TCP port without a connect the
 * rules see as one.
 *
 *   hand-sockets PATH SECS    (outside) a Unix listener at PATH that hands
 *                             each client a fresh, unconnected TCP socket
 *   connect-handed PATH ADDR PORT  takes such a socket (made outside the
 *                             sandbox, by a process under no policy) and
 *                             connects it
 *   race-proto ADDR PORT N    N connects on one descriptor number that a
 *                             second thread keeps flipping between a UDP
 *                             and a TCP socket (dup2): a check of the
 *                             socket's protocol followed by the kernel's
 *                             own connect on the number would be raced
 *   fastopen-msg ADDR PORT    sendmsg(MSG_FASTOPEN) with msg_name: connects
 *                             without connect, as fastopen does by sendto
 *   connect-mptcp ADDR PORT   an MPTCP socket (TCP on the wire, not a TCP
 *                             socket to proto=tcp nor to Landlock)
 *
 * The listener of attack-net.c (listen-count) counts what reaches the port.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"
#include "lib/uapi.h"

static int tcp_unix_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -1;
	strcpy(sa->sun_path, path);
	return 0;
}

/* hand-sockets PATH SECS: runs outside the sandbox. */
static int cmd_hand_sockets(int argc, char **argv)
{
	struct sockaddr_un sa;
	time_t end;
	int fd;

	if (argc != 2 || tcp_unix_addr(argv[0], &sa) < 0)
		return 2;
	unlink(argv[0]);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 16) < 0)
		return setup_failed("unix-listen", errno);
	result("READY");
	end = time(NULL) + parse_long(argv[1]);
	while (time(NULL) < end) {
		int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		int tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (conn >= 0 && tcp >= 0)
			(void)send_fd(conn, tcp);
		if (tcp >= 0)
			close(tcp);
		if (conn >= 0)
			close(conn);
	}
	return 0;
}

/* connect-handed PATH ADDR PORT */
static int cmd_connect_handed(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct sockaddr_un sa;
	socklen_t len;
	int conn, fd;

	if (argc != 3 || tcp_unix_addr(argv[0], &sa) < 0 ||
	    !(len = attack_addr(argv[1], argv[2], &ss)))
		return 2;
	conn = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (conn < 0 || connect(conn, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return setup_failed("unix-connect", errno);
	fd = recv_fd(conn);
	if (fd < 0)
		return setup_failed("recvmsg", -fd);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("CONNECTED %s port %s on a socket made outside", argv[1], argv[2]);
	return 0;
}

struct tcp_race {
	int target, udp, tcp;
	atomic_bool stop;
	atomic_long flips;
};

static void *tcp_flip(void *arg)
{
	struct tcp_race *r = arg;

	while (!atomic_load(&r->stop)) {
		dup2(r->udp, r->target);
		dup2(r->tcp, r->target);
		atomic_fetch_add(&r->flips, 1);
	}
	return NULL;
}

static bool tcp_connected(int fd)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);

	return getpeername(fd, (struct sockaddr *)&peer, &len) == 0;
}

/* race-proto ADDR PORT N */
static int cmd_race_proto(int argc, char **argv)
{
	struct tcp_race r = { .target = 100 };
	struct sockaddr_storage ss;
	long n, connected = 0, refused = 0, other = 0;
	pthread_t th;
	socklen_t len;

	if (argc != 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	n = parse_long(argv[2]);
	for (long i = 0; i < n; i++) {
		r.udp = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		r.tcp = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (r.udp < 0 || r.tcp < 0 || dup2(r.udp, r.target) < 0)
			return setup_failed("socket", errno);
		atomic_store(&r.stop, false);
		atomic_store(&r.flips, 0);
		if (pthread_create(&th, NULL, tcp_flip, &r) != 0)
			return setup_failed("pthread_create", EAGAIN);
		while (atomic_load(&r.flips) == 0)
			;
		/* Until the TCP socket is connected, or enough tries: both sockets were met. */
		for (int k = 0; k < 200 && !tcp_connected(r.tcp); k++) {
			int e = connect(r.target, (struct sockaddr *)&ss, len) < 0 ? errno : 0;

			/* A UDP connect succeeds: only the TCP socket's state says what happened. */
			if (e == EACCES)
				refused++;
			else if (e && e != EISCONN && e != EBADF && e != EALREADY)
				other++;
		}
		atomic_store(&r.stop, true);
		pthread_join(th, NULL);
		connected += tcp_connected(r.tcp);
		close(r.udp);
		close(r.tcp);
		close(r.target);
	}
	note("refused=%ld other=%ld", refused, other);
	if (connected)
		result("CONNECTED %ld TCP sockets of %ld to %s port %s", connected, n, argv[0],
		       argv[1]);
	else
		result("BLOCKED EACCES (%ld TCP connects refused, none connected)", refused);
	return 0;
}

/* fastopen-msg ADDR PORT */
static int cmd_fastopen_msg(int argc, char **argv)
{
	struct sockaddr_storage ss;
	char data = 'x';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr m = { .msg_name = &ss, .msg_iov = &iov, .msg_iovlen = 1 };
	int fd;

	if (argc != 2 || !(m.msg_namelen = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (sendmsg(fd, &m, MSG_FASTOPEN | MSG_NOSIGNAL) < 0 && errno != EINPROGRESS)
		return blocked(errno);
	result("CONNECTED to %s port %s by sendmsg(MSG_FASTOPEN)", argv[0], argv[1]);
	return 0;
}

/* connect-mptcp ADDR PORT */
static int cmd_connect_mptcp(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc != 2 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 262 /* IPPROTO_MPTCP */);
	if (fd < 0)
		return blocked(errno);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("CONNECTED %s port %s by MPTCP", argv[0], argv[1]);
	return 0;
}

const struct attack_cmd attack_tcp_cmds[] = {
	{ "hand-sockets", "PATH SECS      (outside) hand out unconnected TCP sockets",
	  cmd_hand_sockets },
	{ "connect-handed", "PATH ADDR PORT  connect a TCP socket made outside",
	  cmd_connect_handed },
	{ "race-proto", "ADDR PORT N       connect while a thread flips UDP/TCP under the fd",
	  cmd_race_proto },
	{ "fastopen-msg", "ADDR PORT       sendmsg(MSG_FASTOPEN)", cmd_fastopen_msg },
	{ "connect-mptcp", "ADDR PORT      an MPTCP connect", cmd_connect_mptcp },
	{ NULL, NULL, NULL },
};
