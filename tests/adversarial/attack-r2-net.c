/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 2, the network. The supervisor decides on the address a call
 * carries; the kernel may send elsewhere:
 *  - the any-address (0.0.0.0) is routed to the socket's own source
 *    address when it has one (ip_route_output_key_hash_rcu: daddr =
 *    saddr), set by bind(2) or by an IP_PKTINFO control message, not
 *    always to 127.0.0.1;
 *  - IPv4 source routing (IP_OPTIONS, or IP_RETOPTS in sendmsg's control
 *    data, no privilege needed): the packet goes to the first hop of the
 *    route, the decided address travels in the option.
 * sniff (outside the sandbox) is the evidence for what no listener sees:
 * it watches lo for packets to an address. The rest are the ways that
 * must stay decided (sendmmsg, TCP fast open, a connected UDP socket
 * sending elsewhere) and the capabilities a performed call must not lend
 * (a port below 1024, SO_MARK).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "attack.h"
#include "lib/uapi.h"

/* A socket of DST's family, bound to SRC port 0 when SRC is not "-". */
static int r2_socket_from(const char *src, const struct sockaddr_storage *dst, int type)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = socket(dst->ss_family, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (strcmp(src, "-") == 0)
		return fd;
	len = attack_addr(src, "0", &ss);
	if (!len || bind(fd, (struct sockaddr *)&ss, len) < 0) {
		int err = len ? errno : EINVAL;

		close(fd);
		return -err;
	}
	return fd;
}

/* connect-from SRC DST PORT: TCP, bound to SRC first. */
static int cmd_connect_from(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc != 3 || !(len = attack_addr(argv[1], argv[2], &ss)))
		return 2;
	fd = r2_socket_from(argv[0], &ss, SOCK_STREAM);
	if (fd < 0)
		return setup_failed("bind", -fd);
	if (connect(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("CONNECTED from %s to %s port %s", argv[0], argv[1], argv[2]);
	close(fd);
	return 0;
}

/* udp-from SRC DST PORT DATA: a datagram, bound to SRC first. */
static int cmd_udp_from(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc != 4 || !(len = attack_addr(argv[1], argv[2], &ss)))
		return 2;
	fd = r2_socket_from(argv[0], &ss, SOCK_DGRAM);
	if (fd < 0)
		return setup_failed("bind", -fd);
	if (sendto(fd, argv[3], strlen(argv[3]), 0, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("SENT udp from %s to %s port %s", argv[0], argv[1], argv[2]);
	close(fd);
	return 0;
}

/*
 * udp-pktinfo SPEC DST PORT DATA [short]: sendmsg to DST with IP_PKTINFO's
 * ipi_spec_dst = SPEC; "short": msg_controllen is CMSG_LEN, not CMSG_SPACE
 * (not a multiple of 8, as the kernel accepts it).
 */
static int cmd_udp_pktinfo(int argc, char **argv)
{
	char control[CMSG_SPACE(sizeof(struct in_pktinfo))] = { 0 };
	struct sockaddr_storage ss;
	struct iovec iov;
	struct msghdr m = { 0 };
	struct cmsghdr *c;
	struct in_pktinfo pi = { 0 };
	socklen_t len;
	int fd;

	if ((argc != 4 && (argc != 5 || strcmp(argv[4], "short") != 0)) ||
	    !(len = attack_addr(argv[1], argv[2], &ss)) ||
	    inet_pton(AF_INET, argv[0], &pi.ipi_spec_dst) != 1)
		return 2;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	iov = (struct iovec){ argv[3], strlen(argv[3]) };
	m = (struct msghdr){ .msg_name = &ss, .msg_namelen = len, .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control) };
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = IPPROTO_IP;
	c->cmsg_type = IP_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof(pi));
	memcpy(CMSG_DATA(c), &pi, sizeof(pi));
	if (argc == 5)
		m.msg_controllen = CMSG_LEN(sizeof(pi));
	if (sendmsg(fd, &m, 0) < 0)
		return blocked(errno);
	result("SENT udp to %s port %s, source %s", argv[1], argv[2], argv[0]);
	close(fd);
	return 0;
}

/* A loose source route through hop (IPOPT_LSRR, 7): NOP, type, length, pointer, one address. */
static void r2_lsrr(uint8_t opt[8], struct in_addr hop)
{
	opt[0] = IPOPT_NOP;
	opt[1] = IPOPT_LSRR;
	opt[2] = 7;
	opt[3] = 4;
	memcpy(opt + 4, &hop, 4);
}

/*
 * srr HOP DST PORT DATA udp|tcp|cmsg: DST is what the supervisor reads; the
 * route through HOP makes the kernel send to HOP (IP_OPTIONS before the
 * call, or IP_RETOPTS as a control message of sendmsg).
 */
static int cmd_srr(int argc, char **argv)
{
	char control[CMSG_SPACE(8)] = { 0 };
	struct sockaddr_storage ss;
	struct in_addr hop;
	struct iovec iov;
	struct msghdr m;
	struct cmsghdr *c;
	uint8_t opt[8];
	socklen_t len;
	bool tcp, cmsg;
	int fd, r;

	if (argc != 5 || !(len = attack_addr(argv[1], argv[2], &ss)) || ss.ss_family != AF_INET ||
	    inet_pton(AF_INET, argv[0], &hop) != 1)
		return 2;
	tcp = strcmp(argv[4], "tcp") == 0;
	cmsg = strcmp(argv[4], "cmsg") == 0;
	r2_lsrr(opt, hop);
	fd = socket(AF_INET, (tcp ? SOCK_STREAM | SOCK_NONBLOCK : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (!cmsg && setsockopt(fd, IPPROTO_IP, IP_OPTIONS, opt, sizeof(opt)) < 0)
		return setup_failed("IP_OPTIONS", errno);
	if (tcp) {
		r = connect(fd, (struct sockaddr *)&ss, len);
		if (r < 0 && errno != EINPROGRESS)
			return blocked(errno);
		pause_ms(200); /* the SYN is on its way; no answer is expected */
		result("SENT a SYN for %s port %s routed through %s", argv[1], argv[2], argv[0]);
		close(fd);
		return 0;
	}
	iov = (struct iovec){ argv[3], strlen(argv[3]) };
	m = (struct msghdr){ .msg_name = &ss, .msg_namelen = len, .msg_iov = &iov,
			     .msg_iovlen = 1 };
	if (cmsg) {
		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = IPPROTO_IP;
		c->cmsg_type = IP_RETOPTS;
		c->cmsg_len = CMSG_LEN(sizeof(opt));
		memcpy(CMSG_DATA(c), opt, sizeof(opt));
	}
	if (sendmsg(fd, &m, 0) < 0)
		return blocked(errno);
	result("SENT udp for %s port %s routed through %s", argv[1], argv[2], argv[0]);
	close(fd);
	return 0;
}

static void r2_append(const char *file, const char *line)
{
	FILE *f = fopen(file, "ae");

	if (!f)
		return;
	fprintf(f, "%s\n", line);
	fclose(f);
}

/* The first printable bytes of the packet's payload (after its UDP or TCP header). */
static void r2_payload(const uint8_t *p, ssize_t n, size_t at, char *out, size_t size)
{
	size_t k = 0;

	for (; at < (size_t)n && k + 1 < size && k < 16; at++)
		out[k++] = p[at] >= 0x21 && p[at] < 0x7f ? (char)p[at] : '.';
	out[k] = '\0';
}

/* One IPv4 packet to daddr and port (UDP or TCP): a line for the log, else false. */
static bool r2_packet_matches(const uint8_t *p, ssize_t n, struct in_addr daddr, uint16_t port,
			      char *line, size_t size)
{
	const struct iphdr *ip = (const struct iphdr *)p;
	char src[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN], data[20];
	bool udp = ip->protocol == IPPROTO_UDP;
	size_t ihl;
	uint16_t dport;

	if (n < (ssize_t)sizeof(*ip) || ip->version != 4 || ip->daddr != daddr.s_addr)
		return false;
	ihl = ip->ihl * 4u;
	if ((!udp && ip->protocol != IPPROTO_TCP) || n < (ssize_t)ihl + (udp ? 8 : 20))
		return false;
	memcpy(&dport, p + ihl + 2, 2);
	if (ntohs(dport) != port)
		return false;
	r2_payload(p, n, ihl + (udp ? 8 : (p[ihl + 12] >> 4) * 4u), data, sizeof(data));
	inet_ntop(AF_INET, &ip->saddr, src, sizeof(src));
	inet_ntop(AF_INET, &ip->daddr, dst, sizeof(dst));
	snprintf(line, size, "SEEN %s %s -> %s port %u, %zu bytes of IP options, data '%s'",
		 udp ? "udp" : "tcp", src, dst, port, ihl - 20, data);
	return true;
}

/*
 * sniff DADDR PORT SECONDS FILE (outside, root): every IPv4 packet on lo
 * to DADDR:PORT appends a SEEN line to FILE; "READY" first.
 */
static int cmd_sniff(int argc, char **argv)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP),
				  .sll_ifindex = 1 };
	struct in_addr daddr;
	uint16_t port;
	time_t end;
	int fd;

	if (argc != 4 || inet_pton(AF_INET, argv[0], &daddr) != 1)
		return 2;
	port = (uint16_t)parse_long(argv[1]);
	fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_IP));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ll, sizeof(ll)) < 0)
		return setup_failed("AF_PACKET", errno);
	r2_append(argv[3], "READY");
	end = time(NULL) + parse_long(argv[2]);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint8_t buf[2048];
		char line[256];
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (r2_packet_matches(buf, n, daddr, port, line, sizeof(line)))
			r2_append(argv[3], line);
	}
	return 0;
}

/* sendmmsg DST PORT DATA: two datagrams to DST in one call. */
static int cmd_sendmmsg(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct mmsghdr mm[2];
	struct iovec iov;
	socklen_t len;
	int fd, n;

	if (argc != 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	iov = (struct iovec){ argv[2], strlen(argv[2]) };
	for (int i = 0; i < 2; i++)
		mm[i] = (struct mmsghdr){ .msg_hdr = { .msg_name = &ss, .msg_namelen = len,
						       .msg_iov = &iov, .msg_iovlen = 1 } };
	n = (int)sendmmsg(fd, mm, 2, 0);
	if (n <= 0)
		return blocked(n < 0 ? errno : EIO);
	result("SENT %d datagrams to %s port %s by sendmmsg", n, argv[0], argv[1]);
	close(fd);
	return 0;
}

/* fastopen DST PORT DATA: sendto(MSG_FASTOPEN) connects and sends in one call. */
static int cmd_fastopen(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc != 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (sendto(fd, argv[2], strlen(argv[2]), MSG_FASTOPEN, (struct sockaddr *)&ss, len) < 0 &&
	    errno != EINPROGRESS)
		return blocked(errno);
	result("CONNECTED to %s port %s by sendto(MSG_FASTOPEN)", argv[0], argv[1]);
	close(fd);
	return 0;
}

/* udp-elsewhere CONN CPORT DST PORT DATA: connected to CONN, a sendto names DST. */
static int cmd_udp_elsewhere(int argc, char **argv)
{
	struct sockaddr_storage conn, dst;
	socklen_t clen, dlen;
	int fd;

	if (argc != 5 || !(clen = attack_addr(argv[0], argv[1], &conn)) ||
	    !(dlen = attack_addr(argv[2], argv[3], &dst)))
		return 2;
	fd = socket(conn.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&conn, clen) < 0)
		return setup_failed("connect", errno);
	if (sendto(fd, argv[4], strlen(argv[4]), 0, (struct sockaddr *)&dst, dlen) < 0)
		return blocked(errno);
	result("SENT udp to %s port %s on a socket connected to %s", argv[2], argv[3], argv[0]);
	close(fd);
	return 0;
}

/* bind-port ADDR PORT: a port below 1024 needs CAP_NET_BIND_SERVICE. */
static int cmd_bind_port(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	if (argc != 2 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return blocked(errno);
	result("BOUND %s port %s", argv[0], argv[1]);
	close(fd);
	return 0;
}

/* somark DST PORT DATA: a datagram with an SO_MARK control message (CAP_NET_RAW or NET_ADMIN). */
static int cmd_somark(int argc, char **argv)
{
	char control[CMSG_SPACE(sizeof(uint32_t))] = { 0 };
	struct sockaddr_storage ss;
	uint32_t mark = 0x2a;
	struct iovec iov;
	struct msghdr m;
	struct cmsghdr *c;
	socklen_t len;
	int fd;

	if (argc != 3 || !(len = attack_addr(argv[0], argv[1], &ss)))
		return 2;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	iov = (struct iovec){ argv[2], strlen(argv[2]) };
	m = (struct msghdr){ .msg_name = &ss, .msg_namelen = len, .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control) };
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SO_MARK;
	c->cmsg_len = CMSG_LEN(sizeof(mark));
	memcpy(CMSG_DATA(c), &mark, sizeof(mark));
	if (sendmsg(fd, &m, 0) < 0)
		return blocked(errno);
	result("SENT udp with SO_MARK 0x2a to %s port %s", argv[0], argv[1]);
	close(fd);
	return 0;
}

const struct attack_cmd attack_r2_net_cmds[] = {
	{ "connect-from", "SRC DST PORT     TCP bound to SRC", cmd_connect_from },
	{ "udp-from", "SRC DST PORT DATA    UDP bound to SRC", cmd_udp_from },
	{ "udp-pktinfo", "SPEC DST PORT DATA [short]  UDP with IP_PKTINFO spec_dst",
	  cmd_udp_pktinfo },
	{ "srr", "HOP DST PORT DATA udp|tcp|cmsg  IPv4 loose source route", cmd_srr },
	{ "sniff", "DADDR PORT SECS FILE  (outside) packets on lo to DADDR:PORT", cmd_sniff },
	{ "sendmmsg", "DST PORT DATA        two datagrams by sendmmsg", cmd_sendmmsg },
	{ "fastopen", "DST PORT DATA        sendto(MSG_FASTOPEN)", cmd_fastopen },
	{ "udp-elsewhere", "CONN CPORT DST PORT DATA  sendto on a connected socket",
	  cmd_udp_elsewhere },
	{ "bind-port", "ADDR PORT           bind", cmd_bind_port },
	{ "somark", "DST PORT DATA          sendmsg with SO_MARK", cmd_somark },
	{ NULL, NULL, NULL },
};
