/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: socket calls with an address. ADDRESS is one of
 *   inet A.B.C.D PORT | inet6 ADDR PORT | mapped A.B.C.D PORT (::ffff:A.B.C.D on
 *   an IPv6 socket) | unspec A.B.C.D PORT (family AF_UNSPEC on an IPv4
 *   socket) | unix PATH | unix @NAME (abstract) | unix - (unnamed)
 * and TYPE is stream or dgram.
 *
 *   connect TYPE ADDRESS                 ok (stream: and one line read back: got=...)
 *   bind TYPE ADDRESS                    ok name=<getsockname>
 *     both with [sock=inet|inet6] (a socket of that family, whatever the
 *     address's), [len=N] (the address's length passed), [mptcp] (an
 *     IPPROTO_MPTCP stream socket), [notsock] (on /dev/null instead),
 *     [badaddr] (an address pointer to nothing)
 *   sendto TYPE ADDRESS DATA [size=N] [connect] [noaddr] [repeat=N] [nosignal]
 *                                        [sigpipe=catch|ignore]
 *                                        ok n=N (DATA, or N bytes of 'x'; connected
 *                                        first; a NULL address; N times; MSG_NOSIGNAL)
 *   sendmsg TYPE ADDRESS DATA [rights=FILE] [creds]   with SCM_RIGHTS / SCM_CREDENTIALS
 *   serve TYPE ADDRESS COUNT [close]     prints "ready", then per connection
 *                                        "conn uid= gid= pid= read=N" (SO_PEERCRED;
 *                                        writes "hello", reads to EOF) or per datagram
 *                                        "msg data= uid= gid= pid= fds=<links>"
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "probe.h"

struct probe_addr {
	int domain;
	struct sockaddr_storage ss;
	socklen_t len;
	int used; /* arguments taken */
};

static int probe_addr_inet(int argc, char **argv, struct probe_addr *a, int family)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&a->ss;
	long port;

	if (argc < 3 || inet_pton(AF_INET, argv[1], &sin->sin_addr) != 1 ||
	    probe_parse_long(argv[2], &port) < 0)
		return -1;
	sin->sin_family = (sa_family_t)family;
	sin->sin_port = htons((uint16_t)port);
	a->domain = AF_INET;
	a->len = sizeof(*sin);
	a->used = 3;
	return 0;
}

static int probe_addr_inet6(int argc, char **argv, struct probe_addr *a, bool mapped)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a->ss;
	char text[64];
	long port;

	if (argc < 3 || probe_parse_long(argv[2], &port) < 0)
		return -1;
	snprintf(text, sizeof(text), "%s%s", mapped ? "::ffff:" : "", argv[1]);
	if (inet_pton(AF_INET6, text, &sin6->sin6_addr) != 1)
		return -1;
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons((uint16_t)port);
	a->domain = AF_INET6;
	a->len = sizeof(*sin6);
	a->used = 3;
	return 0;
}

static int probe_addr_unix(int argc, char **argv, struct probe_addr *a)
{
	struct sockaddr_un *sun = (struct sockaddr_un *)&a->ss;
	const char *name = argc > 1 ? argv[1] : NULL;
	size_t n;

	if (!name)
		return -1;
	sun->sun_family = AF_UNIX;
	a->domain = AF_UNIX;
	a->used = 2;
	if (strcmp(name, "-") == 0) {
		a->len = sizeof(sa_family_t);
		return 0;
	}
	n = strlen(name);
	if (n >= sizeof(sun->sun_path))
		return -1;
	memcpy(sun->sun_path, name, n);
	if (name[0] == '@') {
		sun->sun_path[0] = '\0'; /* abstract: exactly the name's bytes */
		a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	} else {
		a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	}
	return 0;
}

static int probe_parse_addr(int argc, char **argv, struct probe_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (argc < 1)
		return -1;
	if (strcmp(argv[0], "inet") == 0)
		return probe_addr_inet(argc, argv, a, AF_INET);
	if (strcmp(argv[0], "unspec") == 0)
		return probe_addr_inet(argc, argv, a, AF_UNSPEC);
	if (strcmp(argv[0], "inet6") == 0)
		return probe_addr_inet6(argc, argv, a, false);
	if (strcmp(argv[0], "mapped") == 0)
		return probe_addr_inet6(argc, argv, a, true);
	if (strcmp(argv[0], "unix") == 0)
		return probe_addr_unix(argc, argv, a);
	return -1;
}

/* sock=, len=, mptcp after the address (connect, bind): -1 when malformed. */
static int probe_socket_opts(int argc, char **argv, struct probe_addr *a, int *ret_proto)
{
	long len;

	*ret_proto = probe_has(argc, argv, "mptcp") ? 262 /* IPPROTO_MPTCP */ : 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "sock=inet") == 0)
			a->domain = AF_INET;
		else if (strcmp(argv[i], "sock=inet6") == 0)
			a->domain = AF_INET6;
		else if (strncmp(argv[i], "len=", 4) == 0) {
			/* Longer than the buffer: the kernel refuses it (EINVAL) before reading. */
			if (probe_parse_long(argv[i] + 4, &len) < 0 || len < 0 || len > 4096)
				return -1;
			a->len = (socklen_t)len;
		}
	}
	return 0;
}

/* The address as connect and bind get it: badaddr, a pointer to nothing. */
static struct sockaddr *probe_addr_ptr(int argc, char **argv, struct probe_addr *a)
{
	return probe_has(argc, argv, "badaddr") ? (struct sockaddr *)8 : (struct sockaddr *)&a->ss;
}

/* TYPE ADDRESS...: a new socket of that type for that address; -1 (printed) on failure. */
static int probe_socket_for(int argc, char **argv, struct probe_addr *a)
{
	int type, fd, proto;

	if (argc < 2 || probe_parse_addr(argc - 1, argv + 1, a) < 0 ||
	    probe_socket_opts(argc, argv, a, &proto) < 0)
		return -2;
	type = strcmp(argv[0], "dgram") == 0 ? SOCK_DGRAM : SOCK_STREAM;
	fd = probe_has(argc, argv, "notsock") ? open("/dev/null", O_RDWR | O_CLOEXEC)
					      : socket(a->domain, type | SOCK_CLOEXEC, proto);
	if (fd < 0) {
		printf("socket ");
		probe_print_err(errno);
	}
	return fd;
}

static void probe_print_name(const struct sockaddr_storage *ss, socklen_t len)
{
	char text[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ss;

		inet_ntop(AF_INET, &sin->sin_addr, text, sizeof(text));
		printf("%s:%u", text, ntohs(sin->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, text, sizeof(text));
		printf("[%s]:%u", text, ntohs(sin6->sin6_port));
	} else if (ss->ss_family == AF_UNIX) {
		const struct sockaddr_un *sun = (const void *)ss;
		size_t n = len > offsetof(struct sockaddr_un, sun_path)
				   ? len - offsetof(struct sockaddr_un, sun_path)
				   : 0;

		if (n > 0 && sun->sun_path[0] == '\0')
			printf("@%.*s", (int)n - 1, sun->sun_path + 1);
		else
			printf("%.*s", (int)strnlen(sun->sun_path, n), sun->sun_path);
	} else {
		printf("family:%d", ss->ss_family);
	}
}

static int probe_cmd_connect(int argc, char **argv)
{
	struct timeval timeout = { .tv_sec = 10 };
	struct probe_addr a;
	char buf[64];
	int fd = probe_socket_for(argc, argv, &a);
	ssize_t n;

	if (fd == -2)
		return 2;
	if (fd < 0)
		return 0;
	if (connect(fd, probe_addr_ptr(argc, argv, &a), a.len) < 0) {
		probe_print_err(errno);
		return 0;
	}
	if (strcmp(argv[0], "stream") != 0) {
		printf("ok\n");
		return 0;
	}
	/* The server (serve) greets: proves the connection reached it. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	n = read(fd, buf, sizeof(buf) - 1);
	printf("ok got=%.*s\n", n > 0 ? (int)n : 0, buf);
	return 0;
}

static int probe_cmd_bind(int argc, char **argv)
{
	struct sockaddr_storage name;
	socklen_t len = sizeof(name);
	struct probe_addr a;
	int fd = probe_socket_for(argc, argv, &a);

	if (fd == -2)
		return 2;
	if (fd < 0)
		return 0;
	if (bind(fd, probe_addr_ptr(argc, argv, &a), a.len) < 0) {
		probe_print_err(errno);
		return 0;
	}
	memset(&name, 0, sizeof(name));
	getsockname(fd, (struct sockaddr *)&name, &len);
	printf("ok name=");
	probe_print_name(&name, len);
	printf("\n");
	return 0;
}

/* DATA [size=N]: the bytes to send (N of them: 'x' repeated). */
static char *probe_data(int argc, char **argv, size_t *ret_len)
{
	char *data;
	long size = -1;

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "size=", 5) == 0 && probe_parse_long(argv[i] + 5, &size) < 0)
			return NULL;
	if (size < 0) {
		*ret_len = strlen(argv[0]);
		return strdup(argv[0]);
	}
	data = malloc((size_t)size + 1);
	if (data)
		memset(data, 'x', (size_t)size);
	*ret_len = (size_t)size;
	return data;
}

static volatile sig_atomic_t probe_sigpipes;

static void probe_on_sigpipe(int sig)
{
	probe_sigpipes++;
}

static long probe_repeat(int argc, char **argv)
{
	long n = 1;

	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], "repeat=", 7) == 0 && probe_parse_long(argv[i] + 7, &n) < 0)
			return 1;
	return n;
}

static int probe_cmd_sendto(int argc, char **argv)
{
	struct probe_addr a;
	int fd = probe_socket_for(argc, argv, &a);
	size_t len;
	char *data;
	ssize_t n = 0;

	if (fd == -2 || 1 + a.used >= argc)
		return 2;
	if (fd < 0)
		return 0;
	data = probe_data(argc - 1 - a.used, argv + 1 + a.used, &len);
	if (!data)
		return 2;
	/* connect: connected first (the address then changes nothing); noaddr: NULL address. */
	if (probe_has(argc, argv, "connect") && connect(fd, (struct sockaddr *)&a.ss, a.len) < 0) {
		printf("connect ");
		probe_print_err(errno);
		free(data);
		return 0;
	}
	/* sigpipe=catch (counted, printed at the end) or sigpipe=ignore. */
	if (probe_has(argc, argv, "sigpipe=catch"))
		signal(SIGPIPE, probe_on_sigpipe);
	if (probe_has(argc, argv, "sigpipe=ignore"))
		signal(SIGPIPE, SIG_IGN);
	/* repeat=N: N sends 50 ms apart (the first to a closed peer still succeeds). */
	for (long i = 0; i < probe_repeat(argc, argv); i++) {
		int flags = probe_has(argc, argv, "nosignal") ? MSG_NOSIGNAL : 0;

		if (i)
			usleep(50000);
		if (probe_has(argc, argv, "noaddr"))
			n = sendto(fd, data, len, flags, NULL, 0);
		else
			n = sendto(fd, data, len, flags, (struct sockaddr *)&a.ss, a.len);
		/* A reset is reported once (ECONNRESET); EPIPE (and SIGPIPE) follows. */
		if (n < 0 && errno != ECONNRESET)
			break;
	}
	free(data);
	if (n < 0)
		probe_print_err(errno);
	else
		printf("ok n=%zd\n", n);
	if (probe_has(argc, argv, "sigpipe=catch")) {
		usleep(200000); /* a signal raised after the reply is asynchronous */
		printf("sigpipes=%d\n", (int)probe_sigpipes);
	}
	/*
	 * A stream: half-close and read what the server sent, so that our close
	 * is a FIN, not the RST (which discards what the server has not read
	 * yet) of a close with unread data.
	 */
	if (probe_has(argc, argv, "connect") && strcmp(argv[0], "stream") == 0) {
		char buf[256];

		shutdown(fd, SHUT_WR);
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	}
	return 0;
}

/* Control: SCM_RIGHTS with an fd on FILE, SCM_CREDENTIALS with our own ids. */
static size_t probe_control(int argc, char **argv, char *buf, size_t size)
{
	struct msghdr m = { .msg_control = buf, .msg_controllen = size };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	size_t used = 0;

	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "rights=", 7) == 0) {
			int fd = open(argv[i] + 7, O_RDONLY | O_CLOEXEC);

			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(c), &fd, sizeof(fd));
		} else if (strcmp(argv[i], "creds") == 0) {
			struct ucred u = { getpid(), getuid(), getgid() };

			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_CREDENTIALS;
			c->cmsg_len = CMSG_LEN(sizeof(u));
			memcpy(CMSG_DATA(c), &u, sizeof(u));
		} else {
			continue;
		}
		used += CMSG_SPACE(c->cmsg_len - CMSG_LEN(0));
		m.msg_controllen = used;
		c = CMSG_NXTHDR(&m, c);
		m.msg_controllen = size;
	}
	return used;
}

static int probe_cmd_sendmsg(int argc, char **argv)
{
	char control[256] __attribute__((aligned(8))) = { 0 };
	struct probe_addr a;
	struct msghdr m = { 0 };
	struct iovec iov;
	int fd = probe_socket_for(argc, argv, &a);
	ssize_t n;

	if (fd == -2 || 1 + a.used >= argc)
		return 2;
	if (fd < 0)
		return 0;
	iov = (struct iovec){ .iov_base = argv[1 + a.used], .iov_len = strlen(argv[1 + a.used]) };
	m = (struct msghdr){ .msg_name = &a.ss, .msg_namelen = a.len, .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = control };
	m.msg_controllen = probe_control(argc - 2 - a.used, argv + 2 + a.used, control,
					 sizeof(control));
	if (!m.msg_controllen)
		m.msg_control = NULL;
	n = sendmsg(fd, &m, 0);
	if (n < 0)
		probe_print_err(errno);
	else
		printf("ok n=%zd\n", n);
	return 0;
}

/* ---- serve: the other end, unsupervised ---- */

static void probe_serve_conn(int lfd, bool close_at_once)
{
	struct timeval timeout = { .tv_sec = 10 };
	ssize_t total = 0;
	struct ucred u = { 0 };
	socklen_t len = sizeof(u);
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0) {
		probe_print_err(errno);
		return;
	}
	getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &u, &len);
	if (close_at_once) {
		printf("conn closed\n");
		close(fd);
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	if (write(fd, "hello", 5) < 0)
		printf("write failed\n");
	/* Whatever the client sends, until it closes. */
	for (char buf[4096];;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		total += n;
	}
	printf("conn uid=%u gid=%u pid=%d read=%zd\n", u.uid, u.gid, (int)u.pid, total);
	close(fd);
}

static void probe_serve_fds(struct cmsghdr *c)
{
	size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

	for (size_t i = 0; i < n; i++) {
		char link[64], target[256];
		ssize_t k;
		int fd;

		memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		k = readlink(link, target, sizeof(target) - 1);
		printf("%s%.*s", i ? "," : "", k > 0 ? (int)k : 0, target);
		close(fd);
	}
}

static void probe_serve_msg(int fd)
{
	char data[512], control[512] __attribute__((aligned(8)));
	struct iovec iov = { data, sizeof(data) - 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			    .msg_controllen = sizeof(control) };
	struct ucred u = { 0, (uid_t)-1, (gid_t)-1 };
	ssize_t n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);

	if (n < 0) {
		probe_print_err(errno);
		return;
	}
	printf("msg len=%zd data=%.*s", n, n > 64 ? 64 : (int)n, data);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
			memcpy(&u, CMSG_DATA(c), sizeof(u));
	printf(" uid=%d gid=%d pid=%d fds=", (int)u.uid, (int)u.gid, (int)u.pid);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			probe_serve_fds(c);
	printf("\n");
}

static int probe_cmd_serve(int argc, char **argv)
{
	/* Long enough for a suite on a loaded machine to reach its last client
	 * (two 30 s waits ran out once, and a late connect was refused); the
	 * tests kill their servers at exit. */
	struct timeval timeout = { .tv_sec = 300 };
	struct probe_addr a;
	int one = 1, fd = probe_socket_for(argc, argv, &a);
	long count;

	if (fd == -2 || 1 + a.used >= argc || probe_parse_long(argv[1 + a.used], &count) < 0)
		return 2;
	if (fd < 0)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a.ss, a.len) < 0 ||
	    (strcmp(argv[0], "stream") == 0 && listen(fd, 64) < 0)) {
		probe_print_err(errno);
		return 1;
	}
	printf("ready\n");
	for (long i = 0; i < count; i++) {
		if (strcmp(argv[0], "stream") == 0)
			probe_serve_conn(fd, probe_has(argc, argv, "close"));
		else
			probe_serve_msg(fd);
	}
	printf("done\n");
	return 0;
}

const struct probe_cmd probe_net_cmds[] = {
	{ "connect", probe_cmd_connect },
	{ "bind", probe_cmd_bind },
	{ "sendto", probe_cmd_sendto },
	{ "sendmsg", probe_cmd_sendmsg },
	{ "serve", probe_cmd_serve },
	{ NULL, NULL },
};
