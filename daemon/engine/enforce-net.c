/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * connect, bind, sendto and sendmsg: the address is copied out of the
 * target once (bounded by its length), shown to the policy as a struct
 * policy_sockaddr, and an allowed call is performed on the target's own
 * socket (pidfd_getfd) with that copy (emulate-net.c), its result given
 * back. A sendto without an address has nothing in memory to decide on:
 * the policy sees "no address" (AF_UNSPEC) from the register, and
 * CONTINUE is safe.
 *
 * What the policy sees is what the kernel will act on: an AF_UNIX path
 * resolved as the target (connect and datagram sends follow it, bind
 * creates it), AF_UNSPEC read as the kernel reads it for the socket
 * (IPv4 for bind and send on an IPv4 socket, "no address" otherwise), the
 * socket's protocol (proto=), and on a TCP socket no port in an address
 * the kernel's TCP sandbox refuses before its port (net_tcp_check), so
 * that the rules Landlock takes (policy/landlock-net.c) answer the same
 * from here.
 *
 * Data of sendto and sendmsg is copied too, at most NET_DATA_MAX bytes: a
 * stream socket then sends that much and returns the count (a short write,
 * as the kernel may do); a larger datagram fails with EMSGSIZE. Control
 * messages are copied (at most NET_CONTROL_MAX bytes, else ENOBUFS), with
 * SCM_RIGHTS translated: each fd taken from the target (pidfd_getfd).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "enforce-call.h"
#include "lib/util.h"

#define NET_DATA_MAX    (256 * 1024)
#define NET_CONTROL_MAX (64 * 1024)
#define NET_IOV_MAX     1024 /* UIO_MAXIOV */

struct net_state {
	int sockfd;            /* the target's */
	uint64_t addr_addr;    /* connect, bind, sendto */
	uint64_t addr_len;
	uint64_t buf, len;     /* sendto */
	uint64_t msg_addr;     /* sendmsg */
	int flags;             /* sendto, sendmsg */
	int sock;              /* our copy of the target's socket, -1 */
	int domain, type, protocol;
	bool fetched;
	struct msghdr msg;     /* sendmsg: the target's header */
	uint8_t addr[sizeof(struct sockaddr_storage)];
	size_t alen;           /* 0: no address */
	bool unix_resolved;    /* c->paths[0] is the AF_UNIX path, resolved */
	bool no_address;       /* sendto with a NULL address: decided on registers only */
	struct policy_sockaddr view;
	uint8_t *control;      /* sendmsg: the control data, copied once (decided and sent) */
	bool control_copied;
	char addr_text[4200];  /* the address for the audit trail (c->addr_text) */
};

static void net_decode(struct enforce_call *c)
{
	const uint64_t *a = c->args;
	struct net_state *s = calloc(1, sizeof(*s));
	int nr = c->req->data.nr;

	c->state = s;
	c->has_sockaddr = true;
	if (!s)
		return;
	s->sock = -1;
	s->sockfd = (int)a[0];
	if (nr == SYS_connect || nr == SYS_bind) {
		s->addr_addr = a[1];
		s->addr_len = a[2];
	} else if (nr == SYS_sendto) {
		s->buf = a[1];
		s->len = a[2];
		s->flags = (int)a[3];
		s->addr_addr = a[4];
		s->addr_len = a[5];
	} else {
		s->msg_addr = a[1];
		s->flags = (int)a[2];
	}
}

/* Our copy of the target's descriptor: EBADF as the kernel says it. */
static int net_getfd(struct enforce_call *c, struct net_state *s)
{
	unotify_target *t;
	int r;

	r = enforce_target(c, &t);
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : EPERM);
	s->sock = unotify_target_getfd(t, s->sockfd);
	if (s->sock < 0)
		return enforce_fail(c, s->sock == -EBADF || s->sock == -ENOENT ? -s->sock : EPERM);
	return 0;
}

int enforce_socket_kind(int sock, int *domain, int *type, int *protocol)
{
	socklen_t len = sizeof(int);
	struct stat st;

	if (fstat(sock, &st) < 0 || !S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, domain, &len) < 0 ||
	    getsockopt(sock, SOL_SOCKET, SO_TYPE, type, &len) < 0 ||
	    getsockopt(sock, SOL_SOCKET, SO_PROTOCOL, protocol, &len) < 0)
		return -EPERM;
	return 0;
}

/* Is our copy a socket (ENOTSOCK as the kernel says it), and of what kind. */
static int net_socket(struct enforce_call *c, struct net_state *s)
{
	int r = enforce_socket_kind(s->sock, &s->domain, &s->type, &s->protocol);

	return r < 0 ? enforce_fail(c, -r) : 0;
}

int enforce_socket_proto(int domain, int type, int protocol)
{
	if (domain != AF_INET && domain != AF_INET6)
		return POLICY_PROTO_NONE;
	if (type == SOCK_STREAM && protocol == IPPROTO_TCP)
		return POLICY_PROTO_TCP;
	if (type == SOCK_DGRAM && protocol == IPPROTO_UDP)
		return POLICY_PROTO_UDP;
	return POLICY_PROTO_NONE;
}

static int net_proto(const struct net_state *s)
{
	return enforce_socket_proto(s->domain, s->type, s->protocol);
}

/*
 * What the kernel's TCP sandbox (Landlock ABI 4, security/landlock/net.c)
 * does with a connect or bind on a TCP socket before it looks at the
 * port: -EINVAL or -EAFNOSUPPORT (refused, whatever the port), 0 (never
 * refused: a disconnect, an address of a family it does not check, which
 * the network stack then answers), 1 (it checks the port).
 */
static int net_tcp_check(const struct net_state *s, int nr)
{
	struct sockaddr_in sin;
	sa_family_t family;

	if (s->alen < sizeof(family))
		return -EINVAL;
	memcpy(&family, s->addr, sizeof(family));
	/* A disconnect is always allowed, whatever its length (as Linux 6.18 has it). */
	if (family == AF_UNSPEC && nr == SYS_connect)
		return 0;
	if ((family == AF_UNSPEC || family == AF_INET) && s->alen < sizeof(struct sockaddr_in))
		return -EINVAL;
	/* SIN6_LEN_RFC2133: an IPv6 address without its scope id will do. */
	if (family == AF_INET6 && s->alen < offsetof(struct sockaddr_in6, sin6_scope_id))
		return -EINVAL;
	if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6)
		return 0;
	if (family != AF_UNSPEC)
		return family == s->domain ? 1 : -EINVAL;
	/* bind: AF_UNSPEC is IPv4's any-address, on an IPv4 socket only. */
	memcpy(&sin, s->addr, sizeof(sin));
	if (s->domain != AF_INET)
		return -EINVAL;
	return sin.sin_addr.s_addr == htonl(INADDR_ANY) ? 1 : -EAFNOSUPPORT;
}

/*
 * `deny connect bind proto=tcp kernel`: Landlock's answer. Sends (through
 * @net-connect), which Landlock does not check, are refused EACCES.
 */
static int net_refuse(struct enforce_call *c)
{
	struct net_state *s = c->state;
	int nr = c->req->data.nr, k;

	if (!s || !s->fetched || (nr != SYS_connect && nr != SYS_bind) ||
	    net_proto(s) != POLICY_PROTO_TCP)
		return EACCES;
	k = net_tcp_check(s, nr);
	return k < 0 ? -k : k == 0 ? 0 : EACCES;
}

/* The address bytes (at most a sockaddr_storage, as move_addr_to_kernel takes them). */
static int net_read_addr(struct enforce_call *c, struct net_state *s, uint64_t addr, int len)
{
	int r;

	if (len < 0 || (size_t)len > sizeof(s->addr))
		return enforce_fail(c, EINVAL);
	if (len == 0)
		return 0;
	/* move_addr_to_kernel copies len bytes from it, NULL or not. */
	if (addr == 0)
		return enforce_fail(c, EFAULT);
	r = unotify_mem_read(c->l, c->req, addr, s->addr, (size_t)len);
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	s->alen = (size_t)len;
	return 0;
}

/* sendmsg's header: msg_name as the kernel takes it (NULL or length 0: none, capped). */
static int net_read_msghdr(struct enforce_call *c, struct net_state *s)
{
	int r = unotify_mem_read(c->l, c->req, s->msg_addr, &s->msg, sizeof(s->msg));
	int len;

	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : -r);
	len = (int)s->msg.msg_namelen;
	if (len < 0)
		return enforce_fail(c, EINVAL);
	if ((size_t)len > sizeof(s->addr))
		len = sizeof(s->addr);
	return net_read_addr(c, s, (uint64_t)(uintptr_t)s->msg.msg_name, len);
}

/*
 * sendmsg's control data, copied once: what is decided on (IP_PKTINFO,
 * source routes) is what the helper sends.
 */
static int net_read_control(struct enforce_call *c, struct net_state *s)
{
	size_t len = s->msg.msg_controllen;
	int r;

	if (s->control_copied || len == 0)
		return 0;
	if (len > NET_CONTROL_MAX)
		return enforce_fail(c, ENOBUFS);
	s->control = malloc(len);
	if (!s->control)
		return enforce_fail(c, ENOMEM);
	r = unotify_mem_read(c->l, c->req, (uint64_t)(uintptr_t)s->msg.msg_control, s->control, len);
	if (r < 0)
		return enforce_fail(c, r == -ENOENT ? ENOENT : r == -EPERM || r == -EIO ? EFAULT : -r);
	s->control_copied = true;
	return 0;
}

/* ---- What the policy sees ---- */

static void net_view_inet(const struct net_state *s, struct policy_sockaddr *v)
{
	struct sockaddr_in sin = { 0 };

	memcpy(&sin, s->addr, s->alen < sizeof(sin) ? s->alen : sizeof(sin));
	v->family = AF_INET;
	memcpy(v->addr, &sin.sin_addr, 4);
	v->port = ntohs(sin.sin_port);
}

static void net_view_inet6(const struct net_state *s, struct policy_sockaddr *v)
{
	struct sockaddr_in6 sin6 = { 0 };

	memcpy(&sin6, s->addr, s->alen < sizeof(sin6) ? s->alen : sizeof(sin6));
	v->family = AF_INET6;
	memcpy(v->addr, &sin6.sin6_addr, 16);
	v->port = ntohs(sin6.sin6_port);
}

/*
 * An abstract name is every byte after the leading NUL. A NUL in it is
 * shown as \x01, which no pattern spells: only '*' or '?' match it. As
 * '@' (ss shows it so), `unix=@a@b` also named the other socket "a\0b".
 */
#define NET_ABSTRACT_NUL '\x01'

void enforce_view_abstract(const uint8_t *name, size_t len, struct policy_sockaddr *v)
{
	for (size_t i = 0; i < len && i + 1 < sizeof(v->unix_path); i++)
		v->unix_path[i] = name[i] ? (char)name[i] : NET_ABSTRACT_NUL;
	v->unix_abstract = true;
}

static void net_view_abstract(const struct net_state *s, struct policy_sockaddr *v)
{
	size_t off = offsetof(struct sockaddr_un, sun_path) + 1;

	enforce_view_abstract(s->addr + off, s->alen - off, v);
}

/*
 * bind(2) with the family alone: the kernel's autobind, an abstract name of
 * five hex digits it picks then. Unknown before, it is seen as five bytes
 * no pattern spells, so only a pattern that matches every such name (`@*`,
 * `@?????`) decides it: `deny bind unix=@*` refuses it, `allow bind
 * unix=@app*` does not let it through, and `deny bind unix=@0*` cannot see
 * it (unotify.policy(5) says so). A listen on it is decided by its name
 * (enforce-listen.c).
 */
static void net_view_autobind(struct policy_sockaddr *v)
{
	static const uint8_t unknown[5] = { 0 };

	enforce_view_abstract(unknown, sizeof(unknown), v);
}

/* A socket path: resolved as the target when the kernel will look it up. */
static int net_view_path(struct enforce_call *c, struct net_state *s, struct policy_sockaddr *v,
			 enum unotify_walk walk, bool resolve)
{
	size_t off = offsetof(struct sockaddr_un, sun_path);
	size_t len = strnlen((const char *)s->addr + off, s->alen - off);
	struct enforce_path *p = enforce_paths(c);
	struct unotify_path_how how = { .dirfd = AT_FDCWD, .walk = walk };
	const char *path;
	int r;

	if (!p)
		return enforce_fail(c, ENOMEM);
	memcpy(p[0].arg, s->addr + off, len);
	p[0].arg[len] = '\0';
	/* As enforce_read_path does: a socket's name climbs out of a directory as a file's would. */
	if (enforce_folds_dots(c, p[0].arg))
		enforce_fold_dots(p[0].arg);
	p[0].have_arg = true;
	if (!resolve) {
		memcpy(v->unix_path, p[0].arg, strlen(p[0].arg) + 1);
		return 0;
	}
	r = enforce_resolve_path(c, 0, &how, &path);
	if (r < 0)
		return r;
	/* As for path rules (enforce_cb_path): no name, no match. */
	if (p[0].res.unnamed)
		return enforce_fail(c, EACCES);
	s->unix_resolved = true;
	/* Deeper than a socket name can be: cannot be shown, so it is denied (fail closed). */
	if (strlen(path) >= sizeof(v->unix_path))
		return -ENAMETOOLONG;
	strcpy(v->unix_path, path);
	return 0;
}

static int net_view_unix(struct enforce_call *c, struct net_state *s, struct policy_sockaddr *v)
{
	int nr = c->req->data.nr;
	bool send = nr == SYS_sendto || nr == SYS_sendmsg;
	size_t off = offsetof(struct sockaddr_un, sun_path);

	v->family = AF_UNIX;
	if (s->alen == off && nr == SYS_bind && s->domain == AF_UNIX)
		net_view_autobind(v);
	if (s->alen <= off)
		return 0; /* the kernel's autobind, or an address too short (EINVAL) */
	if (s->addr[off] == '\0') {
		net_view_abstract(s, v);
		return 0;
	}
	/* Only datagram sends look the address up; stream sockets refuse or ignore it. */
	return net_view_path(c, s, v, nr == SYS_bind ? UNOTIFY_WALK_PARENT : UNOTIFY_WALK_FOLLOW,
			     s->domain == AF_UNIX && (!send || s->type == SOCK_DGRAM));
}

/*
 * The control messages the kernel will read (ip_cmsg_send,
 * ip6_datagram_send_ctl, on our copy, as for_each_cmsghdr walks it): a
 * source route (IP_RETOPTS, IPV6_RTHDR, IPV6_2292RTHDR) sends the packet
 * first to an address no rule reads: EPERM, as setsockopt's is refused
 * (implicit set source-routes). The last IP_PKTINFO (or IPV6_PKTINFO of a
 * v4-mapped address) source in *ret_src, *ret_has set: a datagram to the
 * any-address goes there.
 */
static int net_scan_control(struct enforce_call *c, const struct net_state *s, uint8_t ret_src[4],
			    bool *ret_has)
{
	size_t len = s->control_copied ? s->msg.msg_controllen : 0, off = 0;

	while (off < len && len - off >= sizeof(struct cmsghdr)) {
		struct cmsghdr h;
		const uint8_t *data = s->control + off + CMSG_LEN(0);

		memcpy(&h, s->control + off, sizeof(h));
		if (h.cmsg_len < sizeof(h) || h.cmsg_len > len - off)
			return enforce_fail(c, EINVAL);
		if ((h.cmsg_level == IPPROTO_IP && h.cmsg_type == IP_RETOPTS) ||
		    (h.cmsg_level == IPPROTO_IPV6 &&
		     (h.cmsg_type == IPV6_RTHDR || h.cmsg_type == IPV6_2292RTHDR)))
			return enforce_fail(c, EPERM);
		if (h.cmsg_level == IPPROTO_IP && h.cmsg_type == IP_PKTINFO &&
		    h.cmsg_len >= CMSG_LEN(sizeof(struct in_pktinfo))) {
			memcpy(ret_src, data + offsetof(struct in_pktinfo, ipi_spec_dst), 4);
			*ret_has = true;
		}
		if (h.cmsg_level == IPPROTO_IPV6 && h.cmsg_type == IPV6_PKTINFO &&
		    h.cmsg_len >= CMSG_LEN(sizeof(struct in6_pktinfo))) {
			memcpy(ret_src, data + offsetof(struct in6_pktinfo, ipi6_addr) + 12, 4);
			*ret_has = true;
		}
		off += CMSG_ALIGN(h.cmsg_len);
	}
	return 0;
}

/*
 * The address the socket is bound to as an IPv4 address (its own, or
 * v4-mapped; 0.0.0.0 when none), and whether it is a v4-mapped one.
 */
static void net_bound_v4(const struct net_state *s, uint8_t ret[4], bool *ret_mapped)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len = sizeof(ss);
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&ss;

	memset(ret, 0, 4);
	*ret_mapped = false;
	if (getsockname(s->sock, (struct sockaddr *)&ss, &len) < 0)
		return;
	if (ss.ss_family == AF_INET) {
		memcpy(ret, &((const struct sockaddr_in *)&ss)->sin_addr, 4);
	} else if (ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
		memcpy(ret, sin6->sin6_addr.s6_addr + 12, 4);
		*ret_mapped = true;
	}
}

/*
 * IPv6's :: is the loopback, ::1, but for a connect (or a stream socket's
 * send, which connects) of a socket bound to a v4-mapped address:
 * ::ffff:127.0.0.1 (tcp_v6_connect, __ip6_datagram_connect).
 */
static void net_v6_any_reaches(struct enforce_call *c, const struct net_state *s, uint8_t ret[16])
{
	static const uint8_t mapped_lo[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 };
	uint8_t bound[4];
	bool mapped;

	memset(ret, 0, 16);
	ret[15] = 1;
	if (c->req->data.nr != SYS_connect && s->type != SOCK_STREAM)
		return;
	net_bound_v4(s, bound, &mapped);
	if (mapped)
		memcpy(ret, mapped_lo, 16);
}

/*
 * A destination of the any-address reaches a local address: for IPv4 (and
 * v4-mapped) the socket's source address (IP_PKTINFO's for a datagram,
 * else the one bound), or 127.0.0.1; for IPv6 net_v6_any_reaches. That
 * address is decided on (next to the any-address itself:
 * net_any_as_loopback in policy/netcond.c), and put in place of the
 * any-address in the address the call is performed with: a thread binding
 * the socket in between changes nothing.
 */
static int net_view_any(struct enforce_call *c, struct net_state *s, struct policy_sockaddr *v)
{
	static const uint8_t zero[16], loopback[4] = { 127, 0, 0, 1 };
	bool mapped = v->family == AF_INET6 && IN6_IS_ADDR_V4MAPPED((struct in6_addr *)v->addr);
	uint8_t *a = v->addr + (mapped ? 12 : 0), src[4] = { 0 };
	bool has_src = false, ignored;
	int r;

	if (c->req->data.nr == SYS_bind)
		return 0;
	if (v->family == AF_INET6 && !mapped && memcmp(v->addr, zero, 16) == 0) {
		net_v6_any_reaches(c, s, v->any_reaches);
		v->any_reaches_set = true;
		memcpy(&((struct sockaddr_in6 *)s->addr)->sin6_addr, v->any_reaches, 16);
		return 0;
	}
	if ((v->family != AF_INET && !mapped) || memcmp(a, zero, 4) != 0)
		return 0;
	if (s->type == SOCK_DGRAM) {
		r = net_scan_control(c, s, src, &has_src);
		if (r < 0)
			return r;
	}
	if (!has_src)
		net_bound_v4(s, src, &ignored);
	if (memcmp(src, zero, 4) == 0)
		memcpy(src, loopback, 4);
	memcpy(v->any_reaches, v->addr, sizeof(v->any_reaches));
	memcpy(v->any_reaches + (mapped ? 12 : 0), src, 4);
	v->any_reaches_set = true;
	if (mapped)
		memcpy(((struct sockaddr_in6 *)s->addr)->sin6_addr.s6_addr + 12, src, 4);
	else
		memcpy(&((struct sockaddr_in *)s->addr)->sin_addr, src, 4);
	return 0;
}

static int net_view(struct enforce_call *c, struct net_state *s)
{
	struct policy_sockaddr *v = &s->view;
	sa_family_t family = AF_UNSPEC;
	int nr = c->req->data.nr;

	*v = (struct policy_sockaddr){.family = AF_UNSPEC, .proto = net_proto(s)};
	if (v->proto == POLICY_PROTO_TCP && (nr == SYS_connect || nr == SYS_bind))
		v->no_port = net_tcp_check(s, nr) != 1;
	if (s->alen >= sizeof(family))
		memcpy(&family, s->addr, sizeof(family));
	else if (s->alen == 0)
		return 0; /* no address: the connected peer */
	/*
	 * An IPv4 socket takes AF_UNSPEC as IPv4 for bind (INADDR_ANY) and
	 * send (udp_sendmsg, raw_sendmsg); connect takes it as "disconnect".
	 */
	if (family == AF_UNSPEC && s->domain == AF_INET && nr != SYS_connect)
		family = AF_INET;
	switch (family) {
	case AF_UNSPEC:
		return 0;
	case AF_INET:
		net_view_inet(s, v);
		return net_view_any(c, s, v);
	case AF_INET6:
		net_view_inet6(s, v);
		return net_view_any(c, s, v);
	case AF_UNIX:
		return net_view_unix(c, s, v);
	default:
		v->family = family;
		return 0;
	}
}

void enforce_sockaddr_text(const struct policy_sockaddr *v, char *text, size_t size)
{
	char a[INET6_ADDRSTRLEN] = "?";

	switch (v->family) {
	case AF_UNSPEC:
		snprintf(text, size, "none");
		break;
	case AF_INET:
		inet_ntop(AF_INET, v->addr, a, sizeof(a));
		snprintf(text, size, "inet:%s:%u", a, v->port);
		break;
	case AF_INET6:
		inet_ntop(AF_INET6, v->addr, a, sizeof(a));
		snprintf(text, size, "inet6:[%s]:%u", a, v->port);
		break;
	case AF_UNIX:
		snprintf(text, size, "unix:%s%s", v->unix_abstract ? "@" : "", v->unix_path);
		break;
	default:
		snprintf(text, size, "family:%d", v->family);
	}
}

static void net_audit_text(struct enforce_call *c, const struct policy_sockaddr *v)
{
	struct net_state *s = c->state;

	enforce_sockaddr_text(v, s->addr_text, sizeof(s->addr_text));
	c->addr_text = s->addr_text;
}

static int net_sockaddr(struct enforce_call *c, const struct policy_sockaddr **ret)
{
	struct net_state *s = c->state;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	if (c->req->data.nr == SYS_sendto && s->addr_addr == 0) {
		/* Nothing in memory: "no address" (AF_UNSPEC), from the register alone. */
		s->no_address = true;
		s->view = (struct policy_sockaddr){ .family = AF_UNSPEC };
		*ret = &s->view;
		return 0;
	}
	if (!s->fetched) {
		r = s->sock >= 0 ? 0 : net_getfd(c, s);
		/* connect copies its address before it looks for a socket (__sys_connect). */
		if (r == 0 && c->req->data.nr == SYS_connect)
			r = net_read_addr(c, s, s->addr_addr, (int)s->addr_len);
		if (r == 0)
			r = net_socket(c, s);
		if (r == 0 && c->req->data.nr == SYS_sendmsg) {
			r = net_read_msghdr(c, s);
			if (r == 0)
				r = net_read_control(c, s);
			if (r == 0)
				r = net_scan_control(c, s, (uint8_t[4]){ 0 }, &(bool){ false });
		} else if (r == 0 && c->req->data.nr != SYS_connect)
			r = net_read_addr(c, s, s->addr_addr, (int)s->addr_len);
		if (r == 0)
			r = net_view(c, s);
		if (r < 0)
			return r;
		net_audit_text(c, &s->view);
		s->fetched = true;
	}
	*ret = &s->view;
	return 0;
}

/* ---- Performing ---- */

/* How much of total to send: all, NET_DATA_MAX of a stream, or EMSGSIZE. */
static int net_cap(const struct net_state *s, uint64_t total, size_t *ret)
{
	if (total <= NET_DATA_MAX) {
		*ret = (size_t)total;
		return 0;
	}
	if (s->type != SOCK_STREAM)
		return -EMSGSIZE;
	*ret = NET_DATA_MAX;
	return 0;
}

static int net_copy(struct enforce_call *c, uint64_t addr, uint8_t *to, size_t len)
{
	int r = len ? unotify_mem_read(c->l, c->req, addr, to, len) : 0;

	return r == -EPERM || r == -EIO ? -EFAULT : r;
}

/* sendmsg's data: the iovecs gathered into one buffer (the bytes sent are the same). */
static int net_copy_iov(struct enforce_call *c, struct net_state *s, uint8_t **ret,
			size_t *ret_len)
{
	size_t n = s->msg.msg_iovlen, want, done = 0;
	_cleanup_free_ struct iovec *iov = NULL;
	uint64_t total = 0;
	int r;

	if (n > NET_IOV_MAX)
		return -EMSGSIZE;
	iov = calloc(n + 1, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	r = net_copy(c, (uint64_t)(uintptr_t)s->msg.msg_iov, (uint8_t *)iov, n * sizeof(*iov));
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (iov[i].iov_len > SSIZE_MAX || total + iov[i].iov_len > SSIZE_MAX)
			return -EINVAL;
		total += iov[i].iov_len;
	}
	r = net_cap(s, total, &want);
	if (r < 0)
		return r;
	*ret = malloc(want + 1);
	if (!*ret)
		return -ENOMEM;
	for (size_t i = 0; i < n && done < want && r == 0; i++) {
		size_t take = iov[i].iov_len < want - done ? iov[i].iov_len : want - done;

		r = net_copy(c, (uint64_t)(uintptr_t)iov[i].iov_base, *ret + done, take);
		done += take;
	}
	*ret_len = want;
	return r;
}

static int net_send(struct enforce_call *c, struct net_state *s,
		    const struct unotify_path *unix_file)
{
	_cleanup_free_ uint8_t *data = NULL;
	struct msghdr m = { .msg_name = s->alen ? s->addr : NULL, .msg_namelen = s->alen };
	struct iovec iov;
	size_t len = 0;
	int r;

	if (c->req->data.nr == SYS_sendto) {
		r = net_cap(s, s->len > INT_MAX ? INT_MAX : s->len, &len);
		data = r == 0 ? malloc(len + 1) : NULL;
		if (r == 0 && !data)
			r = -ENOMEM;
		if (r == 0)
			r = net_copy(c, s->buf, data, len);
	} else {
		r = net_copy_iov(c, s, &data, &len);
		m.msg_control = s->control;
		m.msg_controllen = s->control_copied ? s->msg.msg_controllen : 0;
	}
	if (r < 0)
		return r;
	iov = (struct iovec){ .iov_base = data, .iov_len = len };
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	return unotify_net_sendmsg(c->target, s->sock, &m, s->flags, unix_file);
}

static void net_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	struct net_state *s = c->state;
	const struct policy_sockaddr *ignored;
	const struct unotify_path *unix_file;
	int nr = c->req->data.nr;
	int r = net_sockaddr(c, &ignored);

	if (r == 0 && s->no_address) {
		/* Decided on registers only: nothing a racing thread can change. */
		*v = unotify_verdict_continue();
		return;
	}
	if (r < 0) {
		enforce_verdict_errno(v, c->read_error ? c->read_error : -r);
		return;
	}
	unix_file = s->unix_resolved ? &c->paths[0].res : NULL;
	if (nr == SYS_connect)
		r = unotify_net_connect(c->target, s->sock, s->addr, s->alen, unix_file);
	else if (nr == SYS_bind)
		r = unotify_net_bind(c->target, s->sock, s->addr, s->alen, unix_file);
	else
		r = net_send(c, s, unix_file);
	if (r == -EPIPE && nr != SYS_connect && nr != SYS_bind && !(s->flags & MSG_NOSIGNAL)) {
		/* The helper sent with MSG_NOSIGNAL: the kernel's SIGPIPE is ours to raise. */
		enforce_verdict_signal(c, v, SIGPIPE, EPIPE);
		return;
	}
	enforce_result(c, v, r);
}

static void net_release(struct enforce_call *c)
{
	struct net_state *s = c->state;

	if (s && s->sock >= 0)
		s->sock = safe_close(s->sock);
	if (s)
		free(s->control);
	free(s);
	c->state = NULL;
}

const struct enforce_family enforce_net_family = {
	.decode = net_decode,
	.sockaddr = net_sockaddr,
	.perform = net_perform,
	.refuse = net_refuse,
	.release = net_release,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_NET,
};
