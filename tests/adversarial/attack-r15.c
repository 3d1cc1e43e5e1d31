/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 15: a unix socket named by the kernel, not by a bind a rule saw
 * (r15-sockets.sh). With SO_PASSCRED set, a connect autobinds the
 * socket to an abstract name of five hex digits, even a connect that fails;
 * a bind of the family alone does the same. Either way the program may then
 * listen there and accept connections, past `deny bind`. And a raw socket
 * receives the datagrams of every port, those no bind may take. And a
 * rule on a socket's path did not follow the socket when its directory
 * was renamed. Not sockets: an overlayfs mount writes where no file call
 * does, past a file category without path= (r15-mounts.sh).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <limits.h>
#include <linux/fs.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "attack.h"

/* The abstract name fd has, "@" and its bytes, or "" when it has none. */
static void abstract_name(int fd, char *out, size_t size)
{
	struct sockaddr_un un = { 0 };
	socklen_t len = sizeof(un);
	size_t off = offsetof(struct sockaddr_un, sun_path);

	*out = '\0';
	if (getsockname(fd, (struct sockaddr *)&un, &len) < 0 || len <= off + 1 ||
	    un.sun_path[0] != '\0')
		return;
	snprintf(out, size, "@%.*s", (int)(len - off - 1), un.sun_path + 1);
}

/* The name fd was given, by a connect with SO_PASSCRED to a name nobody listens at. */
static int autobind_by_connect(int fd)
{
	struct sockaddr_un none = { .sun_family = AF_UNIX };
	int one = 1;

	snprintf(none.sun_path + 1, sizeof(none.sun_path) - 1, "unotify-nobody-%d", (int)getpid());
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0)
		return setup_failed("SO_PASSCRED", errno);
	if (connect(fd, (struct sockaddr *)&none,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
				strlen(none.sun_path + 1))) == 0)
		return setup_failed("connect", EISCONN);
	return 0;
}

/* A client connects to name and is accepted on fd: the program offers a service there. */
static int serves(int fd, const char *name)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	size_t n = strlen(name + 1);
	int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), conn;

	memcpy(un.sun_path + 1, name + 1, n);
	if (client < 0 ||
	    connect(client, (struct sockaddr *)&un,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) < 0)
		return setup_failed("client connect", errno);
	conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0)
		return blocked(errno);
	result("LISTENING %s accepted", name);
	close(conn);
	close(client);
	return 0;
}

struct race_arg {
	int fd;
	unsigned long delay;
};

/* The other thread: after a spin of its own length, the connect that autobinds. */
static void *race_autobind(void *p)
{
	const struct race_arg *a = p;

	for (volatile unsigned long i = 0; i < a->delay; i++)
		;
	autobind_by_connect(a->fd);
	return NULL;
}

/*
 * r15-listen-race TRIES: a listen on a unix socket never bound, while
 * another thread autobinds it (a failed connect with SO_PASSCRED), each
 * try with another delay: the listen must never run at a name no bind
 * rule decided. LISTENING (a connection accepted), or BLOCKED with the
 * last try's errno.
 */
static int cmd_r15_listen_race(int argc, char **argv)
{
	int tries = argc == 1 ? atoi(argv[0]) : 0, err = 0;

	if (tries <= 0)
		return 2;
	for (int i = 0; i < tries; i++) {
		struct race_arg a = { .delay = (unsigned long)(i * 7919) % 20000 };
		pthread_t th;
		char name[128];
		int one = 1;

		a.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (a.fd < 0 || setsockopt(a.fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0 ||
		    pthread_create(&th, NULL, race_autobind, &a) != 0)
			return setup_failed("socket", errno);
		err = listen(a.fd, 1) < 0 ? errno : 0;
		pthread_join(th, NULL);
		abstract_name(a.fd, name, sizeof(name));
		if (!err && *name)
			return serves(a.fd, name);
		close(a.fd);
	}
	return blocked(err);
}

/*
 * bind to the abstract name given, or with the family alone (the kernel's
 * autobind) when NULL: 0, or -1 when refused (BLOCKED printed).
 */
static int bind_abstract(int fd, const char *name)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	size_t n = name ? strnlen(name, sizeof(un.sun_path) - 1) : 0;

	if (name)
		memcpy(un.sun_path + 1, name, n);
	if (bind(fd, (struct sockaddr *)&un,
		 (socklen_t)(name ? offsetof(struct sockaddr_un, sun_path) + 1 + n
				  : sizeof(sa_family_t))) < 0) {
		blocked(errno);
		return -1;
	}
	return 0;
}

/*
 * r15-unix-autobind connect|bind|name NAME: a stream socket named by the
 * kernel (a failed connect with SO_PASSCRED, or a bind of the family
 * alone), or bound to the abstract NAME, then a listen on it and an accept
 * of a connection to that name.
 */
static int cmd_r15_unix_autobind(int argc, char **argv)
{
	bool by_connect = argc == 1 && strcmp(argv[0], "connect") == 0;
	bool by_bind = argc == 1 && strcmp(argv[0], "bind") == 0;
	bool by_name = argc == 2 && strcmp(argv[0], "name") == 0;
	char name[128];
	int fd, r;

	if (!by_connect && !by_bind && !by_name)
		return 2;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	r = by_connect ? autobind_by_connect(fd) : bind_abstract(fd, by_name ? argv[1] : NULL);
	if (r)
		return r < 0 ? 0 : r;
	abstract_name(fd, name, sizeof(name));
	if (!*name)
		return setup_failed("autobind", ENOENT);
	if (listen(fd, 1) < 0)
		return blocked(errno);
	return serves(fd, name);
}

/* A UDP datagram to 127.0.0.1 port, from an unbound socket; 0 or an errno. */
static int udp_to_loopback(uint16_t port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return errno;
	if (sendto(fd, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * r15-raw-recv PORT: a raw socket of UDP reads a datagram sent to 127.0.0.1
 * PORT, a port no socket of the program was let bind: RECEIVED port PORT.
 */
static int cmd_r15_raw_recv(int argc, char **argv)
{
	struct timeval limit = { .tv_sec = 2 };
	uint8_t pkt[256];
	int fd, err;
	uint16_t port;

	if (argc != 1)
		return 2;
	port = (uint16_t)atoi(argv[0]);
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0)
		return blocked(errno);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit)) < 0)
		return setup_failed("SO_RCVTIMEO", errno);
	err = udp_to_loopback(port);
	if (err)
		return setup_failed("sendto", err);
	for (;;) {
		ssize_t n = recv(fd, pkt, sizeof(pkt), 0);
		size_t ihl;

		if (n < 0)
			return setup_failed("recv", errno);
		ihl = (size_t)(pkt[0] & 0xf) * 4;
		if ((size_t)n >= ihl + 8 && (pkt[ihl + 2] << 8 | pkt[ihl + 3]) == port) {
			result("RECEIVED port %u", port);
			return 0;
		}
	}
}

/*
 * r15-unix-move DIR|- ASIDE NAME: renames DIR to ASIDE (not with -), then
 * connects to ASIDE/NAME, the socket DIR/NAME under its new name: REACHED (connected,
 * or refused by the socket itself: ECONNREFUSED, nobody listens), or
 * BLOCKED errno (the rename, or the connect).
 */
static int cmd_r15_unix_move(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (argc != 3 || (size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", argv[1],
					  argv[2]) >= sizeof(sa.sun_path))
		return 2;
	if (strcmp(argv[0], "-") != 0 && rename(argv[0], argv[1]) < 0)
		return blocked(errno);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == ECONNREFUSED) {
		result("REACHED %s", sa.sun_path);
		return 0;
	}
	return blocked(errno);
}

/*
 * r15-overlay DIR: in a mount namespace of its own, mounts overlayfs from
 * DIR/lower, DIR/upper and DIR/work on DIR/m. The kernel then empties
 * DIR/work/work, a write no file call made: MOUNTED, or BLOCKED errno.
 */
static int cmd_r15_overlay(int argc, char **argv)
{
	char opts[3 * PATH_MAX], target[PATH_MAX];

	if (argc != 1 ||
	    (size_t)snprintf(opts, sizeof(opts), "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work",
			     argv[0], argv[0], argv[0]) >= sizeof(opts) ||
	    (size_t)snprintf(target, sizeof(target), "%s/m", argv[0]) >= sizeof(target))
		return 2;
	if (unshare(CLONE_NEWNS) < 0)
		return setup_failed("unshare", errno);
	/* Our mounts stay ours: none propagates to the namespace we left. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("overlay", target, "overlay", 0, opts) < 0)
		return blocked(errno);
	result("MOUNTED %s", target);
	return 0;
}

/*
 * r15-listen-errno udp|opath|unix|netlink: a listen the kernel refuses (a
 * datagram socket, an O_PATH descriptor, a unix socket never bound, a
 * netlink socket): ERRNO E..., its answer, or LISTENING.
 */
static int cmd_r15_listen_errno(int argc, char **argv)
{
	int fd = -1;

	if (argc != 1)
		return 2;
	if (strcmp(argv[0], "udp") == 0)
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	else if (strcmp(argv[0], "opath") == 0)
		fd = open("/", O_PATH | O_CLOEXEC);
	else if (strcmp(argv[0], "unix") == 0)
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	else if (strcmp(argv[0], "netlink") == 0)
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	else
		return 2;
	if (fd < 0)
		return setup_failed(argv[0], errno);
	if (listen(fd, 1) == 0)
		result("LISTENING");
	else
		result("ERRNO %s", errname(errno));
	return 0;
}

/*
 * r15-hand-over NAME CMD...: (outside) a unix socket listening at the
 * abstract NAME as descriptor 3, then exec CMD: a socket handed over as
 * socket activation hands it.
 */
static int cmd_r15_hand_over(int argc, char **argv)
{
	int fd;

	if (argc < 2)
		return 2;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind_abstract(fd, argv[0]) < 0 || listen(fd, 1) < 0)
		return setup_failed("listening socket", errno);
	if (fd != 3 && (dup2(fd, 3) < 0 || close(fd) < 0))
		return setup_failed("dup2", errno);
	execvp(argv[1], argv + 1);
	return setup_failed("exec", errno);
}

/* r15-relisten FD: listen again on FD (a new backlog): RELISTENED, or BLOCKED errno. */
static int cmd_r15_relisten(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	if (listen(atoi(argv[0]), 16) < 0)
		return blocked(errno);
	result("RELISTENED");
	return 0;
}

/*
 * r15-fs-ioctl label|freeze FILE: through FILE opened for reading, its file
 * system relabelled (FS_IOC_SETFSLABEL "r15-label"), or frozen and thawed
 * at once (FIFREEZE, FITHAW): LABELLED or FROZEN, or BLOCKED errno.
 */
static int cmd_r15_fs_ioctl(int argc, char **argv)
{
	char label[FSLABEL_MAX] = "r15-label";
	int fd, how = 0;

	if (argc != 2 || (strcmp(argv[0], "label") && strcmp(argv[0], "freeze")))
		return 2;
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	if (strcmp(argv[0], "label") == 0) {
		if (ioctl(fd, FS_IOC_SETFSLABEL, label) < 0)
			return blocked(errno);
		result("LABELLED %s", label);
		return 0;
	}
	if (ioctl(fd, FIFREEZE, &how) < 0)
		return blocked(errno);
	if (ioctl(fd, FITHAW, &how) < 0)
		return setup_failed("FITHAW", errno);
	result("FROZEN and thawed");
	return 0;
}

const struct attack_cmd attack_r15_cmds[] = {
	{ "r15-fs-ioctl", "label|freeze FILE  a file system's ioctl through a read-only fd",
	  cmd_r15_fs_ioctl },
	{ "r15-hand-over", "NAME CMD...  (outside) exec CMD with fd 3 listening at @NAME",
	  cmd_r15_hand_over },
	{ "r15-relisten", "FD  listen again on FD", cmd_r15_relisten },
	{ "r15-listen-errno", "udp|opath|unix|netlink  a listen the kernel refuses: its errno",
	  cmd_r15_listen_errno },
	{ "r15-listen-race", "TRIES  listen on a unix socket while a thread autobinds it",
	  cmd_r15_listen_race },
	{ "r15-overlay", "DIR  mount overlayfs of DIR/{lower,upper,work} on DIR/m", cmd_r15_overlay },
	{ "r15-unix-move", "DIR ASIDE NAME  connect to DIR/NAME once DIR is renamed ASIDE",
	  cmd_r15_unix_move },
	{ "r15-raw-recv", "PORT  a raw socket reads a datagram for PORT", cmd_r15_raw_recv },
	{ "r15-unix-autobind", "connect|bind|name NAME  listen at a unix name the kernel picked",
	  cmd_r15_unix_autobind },
	{ NULL, NULL, NULL },
};
