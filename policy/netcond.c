/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Network conditions on the address of connect, bind, sendto, sendmsg and
 * sendmmsg: family=, addr=CIDR, port=N or N-M, unix=GLOB, and on the
 * socket it is for: proto=tcp|udp. Several words of one kind: any may
 * hold; every kind written must hold.
 *
 * IPv4 lives inside IPv6 here: an IPv4 prefix a.b.c.d/n is kept as
 * ::ffff:a.b.c.d/(96+n) and an IPv4 address as ::ffff:a.b.c.d, so an IPv6
 * socket connecting to an IPv4-mapped address (which the kernel sends as
 * IPv4) meets the IPv4 rules, and family=inet covers it too. Otherwise a
 * rule on 10.0.0.0/8 could be dodged with ::ffff:10.0.0.1.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

static const uint8_t net_v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* ---- Matching ---- */

static bool net_is_v4_mapped(const uint8_t addr[16])
{
	return memcmp(addr, net_v4_mapped, sizeof(net_v4_mapped)) == 0;
}

/*
 * An IPv4-mapped IPv6 address is sent as IPv4: it is family=inet's, and
 * never family=inet6's, or `allow ... family=inet6` (an IPv6-only list)
 * would let IPv4 through by its mapped form.
 */
static bool net_family_holds(const struct policy_net *n, const struct policy_sockaddr *sa)
{
	bool mapped = sa->family == AF_INET6 && net_is_v4_mapped(sa->addr);
	int family = mapped ? AF_INET : sa->family;

	for (size_t i = 0; i < n->n_families; i++)
		if (n->families[i] == family)
			return true;
	return false;
}

/* The address as 16 bytes, IPv4 mapped; false for a family without one. */
static bool net_addr16(const struct policy_sockaddr *sa, uint8_t out[16])
{
	if (sa->family == AF_INET6) {
		memcpy(out, sa->addr, 16);
		return true;
	}
	if (sa->family == AF_INET) {
		memcpy(out, net_v4_mapped, 12);
		memcpy(out + 12, sa->addr, 4);
		return true;
	}
	return false;
}

static bool net_cidr_holds(const struct policy_cidr *c, const uint8_t addr[16])
{
	unsigned int full = c->prefix / 8, rest = c->prefix % 8;

	if (memcmp(c->addr, addr, full) != 0)
		return false;
	if (rest == 0)
		return true;
	return ((c->addr[full] ^ addr[full]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

static bool net_unix_holds(const struct policy_net *n, const struct policy_sockaddr *sa)
{
	for (size_t i = 0; i < n->n_unix; i++) {
		const char *g = n->unix_globs[i];

		if (g[0] == '@' && sa->unix_abstract && policy_glob_match(g + 1, sa->unix_path))
			return true;
		if (g[0] == '/' && !sa->unix_abstract && sa->unix_path[0] &&
		    policy_glob_match(g, sa->unix_path))
			return true;
	}
	return false;
}

static bool net_proto_holds(const struct policy_net *n, const struct policy_sockaddr *sa)
{
	for (size_t i = 0; i < n->n_protos; i++)
		if (sa->proto != POLICY_PROTO_NONE && n->protos[i] == sa->proto)
			return true;
	return false;
}

/* Is the port in one of the rule's ranges (never for an address the kernel takes no port of)? */
static bool net_ports_hold(const struct policy_net *n, const struct policy_sockaddr *sa)
{
	for (size_t i = 0; !sa->no_port && i < n->n_ports; i++)
		if (sa->port >= n->ports[i].lo && sa->port <= n->ports[i].hi)
			return true;
	return false;
}

/* Is sa an any-address: IPv4's 0.0.0.0 (*v4), its mapped form (*mapped), IPv6's :: (*v6)? */
static bool net_any_kind(const struct policy_sockaddr *sa, bool *v4, bool *mapped, bool *v6)
{
	static const uint8_t zero[16];

	*v4 = sa->family == AF_INET && memcmp(sa->addr, zero, 4) == 0;
	*mapped = sa->family == AF_INET6 && net_is_v4_mapped(sa->addr) &&
		  memcmp(sa->addr + 12, zero, 4) == 0;
	*v6 = sa->family == AF_INET6 && memcmp(sa->addr, zero, 16) == 0;
	return *v4 || *mapped || *v6;
}

static bool net_has_address_kind(const struct policy_net *n)
{
	return n->n_families || n->n_cidrs || n->n_ports || n->n_unix;
}

/*
 * Every kind the rule writes holds for this address. AF_UNSPEC: the call
 * has none, and meets no address condition; proto= still holds on its
 * socket (a connect with AF_UNSPEC, which disconnects: the kernel's TCP
 * sandbox checks it too).
 */
bool net_holds(const struct policy_net *n, const struct policy_sockaddr *sa)
{
	uint8_t addr[16];
	bool have = net_addr16(sa, addr);

	if (n->n_protos && !net_proto_holds(n, sa))
		return false;
	if (sa->family == AF_UNSPEC)
		return !net_has_address_kind(n);
	if (n->n_families && !net_family_holds(n, sa))
		return false;
	if (n->n_cidrs) {
		bool any = false;

		for (size_t i = 0; have && i < n->n_cidrs && !any; i++)
			any = net_cidr_holds(&n->cidrs[i], addr);
		if (!any)
			return false;
	}
	if (n->n_ports && (!have || !net_ports_hold(n, sa)))
		return false;
	if (n->n_unix && (sa->family != AF_UNIX || !net_unix_holds(n, sa)))
		return false;
	return true;
}

bool net_is_empty(const struct policy_net *n)
{
	return !net_has_address_kind(n) && !n->n_protos;
}

bool net_is_tcp_only(const struct policy_net *n)
{
	return !n->n_families && !n->n_cidrs && !n->n_unix && n->n_protos == 1 &&
	       n->protos[0] == POLICY_PROTO_TCP;
}

void net_free(struct policy_net *n)
{
	free(n->families);
	free(n->cidrs);
	free(n->ports);
	for (size_t i = 0; i < n->n_unix; i++)
		free(n->unix_globs[i]);
	free(n->unix_globs);
	free(n->protos);
	*n = (struct policy_net){ 0 };
}

/* ---- Parsing ---- */

/* Appends one element of size sz to *arr (count *n). */
static int net_push(void *arr, size_t *n, size_t sz, const void *elem)
{
	void **p = arr;
	char *a = reallocarray(*p, *n + 1, sz);

	if (!a)
		return -ENOMEM;
	memcpy(a + *n * sz, elem, sz);
	*p = a;
	(*n)++;
	return 0;
}

/* A name of a comma-separated list (family=, proto=) and its value. */
struct net_name {
	const char *name;
	int value;
};

/*
 * The words after the '=' of t, each one of names, appended to *arr; an
 * unknown one (or none) is an error: "unknown WHAT 'w'" with the hint.
 */
static void net_parse_list(struct parser *ps, const struct lexer_token *t,
			   const struct net_name *names, size_t n, const char *what,
			   const char *hint, int **arr, size_t *count)
{
	_cleanup_free_ char *copy = strdup(strchr(t->text, '=') + 1);
	char *save = NULL;
	bool any = false;

	if (!copy) {
		ps->oom = true;
		return;
	}
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < n && strcmp(w, names[i].name) != 0; i++)
			;
		if (i == n) {
			parser_error(ps, t->col, hint, "unknown %s '%s'", what, w);
			return;
		}
		any = true;
		if (net_push(arr, count, sizeof(int), &names[i].value) < 0)
			ps->oom = true;
	}
	if (!any)
		parser_error(ps, t->col, hint, "%.*s names no %s",
			     (int)(strchr(t->text, '=') - t->text + 1), t->text, what);
}

static void net_parse_family(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	static const struct net_name fams[] = {
		{"inet", AF_INET}, {"inet6", AF_INET6}, {"unix", AF_UNIX}};

	net_parse_list(ps, t, fams, ARRAY_SIZE(fams), "address family",
		       "family= takes inet, inet6 or unix", &r->net.families, &r->net.n_families);
}

static int net_parse_cidr(const char *s, struct policy_cidr *ret)
{
	_cleanup_free_ char *host = strdup(s);
	char *slash;
	uint64_t len = 0;
	bool v4;

	if (!host)
		return -ENOMEM;
	slash = strchr(host, '/');
	if (slash) {
		*slash = '\0';
		if (names_parse_u64(slash + 1, &len) < 0 || (slash[1] == '0' && slash[2]))
			return -EINVAL;
	}
	v4 = inet_pton(AF_INET, host, ret->addr + 12) == 1;
	if (v4)
		memcpy(ret->addr, net_v4_mapped, 12);
	else if (inet_pton(AF_INET6, host, ret->addr) != 1)
		return -EINVAL;
	if (!slash)
		len = v4 ? 32 : 128;
	if (len > (v4 ? 32u : 128u))
		return -ERANGE;
	ret->prefix = (unsigned int)len + (v4 ? 96 : 0);
	return 0;
}

static void net_parse_addr(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text + strlen("addr=");
	struct policy_cidr c = { 0 };
	unsigned int full, rest;
	int e;

	e = net_parse_cidr(s, &c);
	if (e == -ENOMEM) {
		ps->oom = true;
		return;
	}
	if (e < 0) {
		parser_error(ps, t->col,
			     e == -ERANGE ? "the prefix length is up to 32 for IPv4, 128 for IPv6"
					  : "e.g. addr=10.0.0.0/8, addr=127.0.0.1 or addr=fd00::/8",
			     "invalid address '%s'", s);
		return;
	}
	full = c.prefix / 8;
	rest = c.prefix % 8;
	for (unsigned int i = full; i < 16; i++)
		if (c.addr[i] & (i == full && rest ? (uint8_t)~(0xff << (8 - rest)) : 0xff)) {
			parser_warning(ps, t->col, "write the network address, e.g. 10.0.0.0/8",
				       "'%s' has bits set past its prefix length: they are ignored",
				       s);
			break;
		}
	if (net_push(&r->net.cidrs, &r->net.n_cidrs, sizeof(c), &c) < 0)
		ps->oom = true;
}

static void net_parse_port(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text + strlen("port=");
	_cleanup_free_ char *copy = strdup(s);
	struct policy_ports pr;
	uint64_t lo, hi;
	char *dash;

	if (!copy) {
		ps->oom = true;
		return;
	}
	dash = strchr(copy, '-');
	if (dash)
		*dash = '\0';
	if (names_parse_u64(copy, &lo) < 0 || (dash && names_parse_u64(dash + 1, &hi) < 0)) {
		parser_error(ps, t->col, "e.g. port=443 or port=8000-8999", "invalid port '%s'", s);
		return;
	}
	if (!dash)
		hi = lo;
	if (lo > 65535 || hi > 65535 || lo > hi) {
		parser_error(ps, t->col, "ports go from 0 to 65535, the lower first",
			     "invalid port range '%s'", s);
		return;
	}
	pr = (struct policy_ports){ (uint16_t)lo, (uint16_t)hi };
	if (net_push(&r->net.ports, &r->net.n_ports, sizeof(pr), &pr) < 0)
		ps->oom = true;
}

static void net_parse_unix(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text + strlen("unix=");
	char *copy;

	if (s[0] != '/' && s[0] != '@') {
		parser_error(ps, t->col,
			     "socket paths are absolute (/run/x.sock); abstract names start "
			     "with '@' (@name)",
			     "invalid socket name '%s'", s);
		return;
	}
	if (strlen(s) > 108) {
		parser_error(ps, t->col, NULL, "socket name longer than 108 bytes");
		return;
	}
	copy = strdup(s);
	if (!copy || net_push(&r->net.unix_globs, &r->net.n_unix, sizeof(char *), &copy) < 0) {
		free(copy);
		ps->oom = true;
	}
}

static void net_parse_proto(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	static const struct net_name protos[] = {{"tcp", POLICY_PROTO_TCP},
						 {"udp", POLICY_PROTO_UDP}};

	net_parse_list(ps, t, protos, ARRAY_SIZE(protos), "protocol",
		       "proto= takes tcp or udp, e.g. proto=tcp or proto=tcp,udp", &r->net.protos,
		       &r->net.n_protos);
}

/* family=, addr=, port=, unix= or proto=: 0, or -ENOENT when the word is none of them. */
int net_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text;

	if (strncmp(s, "proto=", 6) == 0)
		net_parse_proto(ps, r, t);
	else if (strncmp(s, "family=", 7) == 0)
		net_parse_family(ps, r, t);
	else if (strncmp(s, "addr=", 5) == 0)
		net_parse_addr(ps, r, t);
	else if (strncmp(s, "port=", 5) == 0)
		net_parse_port(ps, r, t);
	else if (strncmp(s, "unix=", 5) == 0)
		net_parse_unix(ps, r, t);
	else
		return -ENOENT;
	return 0;
}

/*
 * The any-address (0.0.0.0, ::, ::ffff:0.0.0.0) as a destination: the
 * kernel connects and sends to the local host instead. IPv6's :: is ::1
 * (::ffff:127.0.0.1 for a connect of a socket bound to a v4-mapped
 * address: tcp_v6_connect); IPv4's is the socket's source address when it
 * has one (ip_route_output_key_hash_rcu: daddr = saddr, the address bound
 * or given by IP_PKTINFO), else 127.0.0.1: sa->any_reaches when the
 * caller knows it. The address reached, for the rules; false
 * when sa is not one.
 */
static bool net_any_as_loopback(const struct policy_sockaddr *sa, struct policy_sockaddr *ret)
{
	bool v4, mapped, v6, any = net_any_kind(sa, &v4, &mapped, &v6);

	*ret = *sa;
	if (any && sa->any_reaches_set) {
		memcpy(ret->addr, sa->any_reaches, sizeof(ret->addr));
		return true;
	}
	if (v4 || mapped) {
		ret->addr[v4 ? 0 : 12] = 127;
		ret->addr[v4 ? 3 : 15] = 1;
		return true;
	}
	if (v6) {
		ret->addr[15] = 1;
		return true;
	}
	return false;
}

/*
 * A bind to the any-address listens on every local address of its family:
 * 0.0.0.0 (or ::ffff:0.0.0.0) on each IPv4 one (*v4), :: on each IPv6 one
 * (*v6) and, unless IPV6_V6ONLY is set, on each IPv4 one too. Another
 * thread of the program may clear that option until the bind is done (it
 * is fixed only once the socket is bound), so :: is taken as both. False
 * when sa is no any-address.
 */
static bool net_bind_any(const struct policy_sockaddr *sa, bool *v4, bool *v6)
{
	bool plain, mapped;

	if (!net_any_kind(sa, &plain, &mapped, v6))
		return false;
	*v4 = true;
	return true;
}

/* Does the prefix hold some IPv4 address (v4), some IPv6 one that maps none (v6)? */
static bool net_cidr_meets(const struct policy_cidr *c, bool v4, bool v6)
{
	struct policy_cidr mapped = { .prefix = c->prefix < 96 ? c->prefix : 96 };
	bool in_mapped_space;

	/* Within ::ffff:0:0/96 up to the shorter of the two prefixes: they overlap. */
	memcpy(mapped.addr, net_v4_mapped, sizeof(net_v4_mapped));
	in_mapped_space = net_cidr_holds(&mapped, c->addr);
	if (v4 && in_mapped_space)
		return true;
	/* IPv6 beyond the mapped space: any prefix but one inside it. */
	return v6 && !(in_mapped_space && c->prefix >= 96);
}

/* Does the rule's family= (if any) take IPv4 when v4, and IPv6 when v6? */
static bool net_families_cover(const struct policy_net *n, bool v4, bool v6)
{
	bool inet = false, inet6 = false;

	if (!n->n_families)
		return true;
	for (size_t i = 0; i < n->n_families; i++) {
		inet = inet || n->families[i] == AF_INET;
		inet6 = inet6 || n->families[i] == AF_INET6;
	}
	return (!v4 || inet) && (!v6 || inet6);
}

/*
 * Would the rule stop some address a bind to the any-address listens on
 * (net_bind_any)? Its family and address conditions are read against
 * those addresses; port= and proto= as the call has them.
 */
static bool net_holds_bind_any(const struct policy_net *n, const struct policy_sockaddr *sa,
			       bool v4, bool v6)
{
	bool any = !n->n_families;

	if (n->n_protos && !net_proto_holds(n, sa))
		return false;
	if (n->n_unix)
		return false;
	for (size_t i = 0; i < n->n_families && !any; i++)
		any = (n->families[i] == AF_INET && v4) || (n->families[i] == AF_INET6 && v6);
	if (!any)
		return false;
	any = !n->n_cidrs;
	for (size_t i = 0; i < n->n_cidrs && !any; i++)
		any = net_cidr_meets(&n->cidrs[i], v4, v6);
	if (!any)
		return false;
	return !n->n_ports || net_ports_hold(n, sa);
}

bool net_holds_call(const struct policy_net *n, const struct policy_sockaddr *sa, int nr,
		    bool permissive)
{
	bool v4, v6;
	struct policy_sockaddr lo;
	bool literal;

	/* A send without an address (a connected socket's) meets none, proto= included. */
	if (sa->family == AF_UNSPEC && nr != SYS_connect && nr != SYS_bind)
		return false;
	literal = net_holds(n, sa);

	/*
	 * A bind to the any-address is what was written, which an allowing
	 * rule must hold for (`allow bind addr=0.0.0.0`), with a family= that
	 * takes each family it listens on (`allow bind family=inet6` is not
	 * a dual-stack ::); and it is every address it listens on, any of
	 * which a stopping rule holds for: `deny bind addr=127.0.0.1` stops
	 * a bind to 0.0.0.0, or to a dual-stack ::.
	 */
	if (nr == SYS_bind && permissive)
		return literal && (!net_bind_any(sa, &v4, &v6) || net_families_cover(n, v4, v6));
	if (nr == SYS_bind)
		return literal || (net_bind_any(sa, &v4, &v6) && net_holds_bind_any(n, sa, v4, v6));
	/*
	 * A destination of the any-address is both what was written and the
	 * local host it reaches: a rule that lets the call run must hold for
	 * both, one that stops it for either (deny addr=127.0.0.0/8 stops it,
	 * so does deny addr=0.0.0.0/32).
	 */
	if (!n->n_cidrs || !net_any_as_loopback(sa, &lo))
		return literal;
	return permissive ? literal && net_holds(n, &lo) : literal || net_holds(n, &lo);
}

bool net_syscall_has_address(int nr)
{
	return nr == SYS_connect || nr == SYS_bind || nr == SYS_sendto || nr == SYS_sendmsg ||
	       nr == SYS_sendmmsg;
}
