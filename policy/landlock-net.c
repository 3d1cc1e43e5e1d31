/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * connect and bind in the Landlock layer: TCP ports (ABI 4). The shape
 * that moves, for each of the two calls (rules naming it, in order):
 *
 *   allow connect proto=tcp port=N ...     grants, in any number (any proto=
 *                                          with tcp, or none; port=)
 *   deny  connect proto=tcp port=N kernel  refusals of some ports, if any
 *                                          (or EACCES: Landlock's answer there)
 *   deny  connect proto=tcp kernel         the refusal of every other port
 *   allow connect                          everything else (or default allow)
 *
 * Landlock then refuses a TCP socket's connect to a port no grant names
 * (EACCES), and lets every other call run. Exact because:
 *  - what decides a TCP port is the first rule that names it, as the policy
 *    reads it: the ports are worked out one by one, in rule order;
 *  - the seccomp filter cannot tell a TCP socket from another at connect
 *    (its type is not in the registers), so it lets every connect run: what
 *    is not TCP (UDP, Unix, MPTCP...) must be allowed by the rules, which the
 *    last line says, and Landlock does not look at it;
 *  - Landlock refuses, before the port, a TCP address of another family
 *    than the socket's or too short for its family (EINVAL; an AF_UNSPEC
 *    bind of another address than 0.0.0.0: EAFNOSUPPORT), and never refuses
 *    a disconnect (AF_UNSPEC connect). The supervisor gives the same
 *    answers: such an address meets no port= condition (policy_sockaddr's
 *    no_port), so it falls to the `kernel` refusal, whose answer the
 *    engine works out as Landlock does (daemon/engine/enforce-net.c).
 * Anything else keeps the call with the supervisor, and says why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/uapi.h"
#include "lib/util.h"
#include "policy/landlock-internal.h"

/* One Landlock rule per port: more than this many granted keeps the call with the supervisor. */
#define LL_NET_PORTS_MAX 1024
#define LL_NET_PORTS	 65536u

static const int ll_net_calls[2] = {SYS_connect, SYS_bind};
static const uint64_t ll_net_rights[2] = {LANDLOCK_ACCESS_NET_CONNECT_TCP,
					  LANDLOCK_ACCESS_NET_BIND_TCP};

bool ll_is_net_family(enum policy_landlock_family f)
{
	return f == POLICY_LANDLOCK_CONNECT || f == POLICY_LANDLOCK_BIND;
}

static bool ll_bit(const uint8_t *b, unsigned int port)
{
	return b[port / 8] & (1u << (port % 8));
}

static void ll_set(uint8_t *b, unsigned int port)
{
	b[port / 8] |= (uint8_t)(1u << (port % 8));
}

/* Can the rule hold for a TCP socket (proto= names tcp, or there is none)? */
static bool ll_net_tcp(const struct policy_net *n)
{
	for (size_t i = 0; i < n->n_protos; i++)
		if (n->protos[i] == POLICY_PROTO_TCP)
			return true;
	return n->n_protos == 0;
}

/* Why rule r cannot stand among the TCP rules Landlock takes, or NULL. */
static const char *ll_net_obstacle(const struct policy_rule *r, bool permissive)
{
	if (r->action == POLICY_LOG)
		return "log: a logged call goes to the supervisor";
	if (r->action == POLICY_KILL)
		return "kill: only the supervisor kills";
	if (r->action == POLICY_RETURN)
		return "return: only the supervisor answers with a value";
	if (r->n_conds || r->n_fconds)
		return "register conditions: Landlock looks at the TCP port alone";
	if (r->n_paths)
		return "a Unix socket's path: Landlock's rights on sockets are TCP ports";
	if (r->net.n_families || r->net.n_cidrs || r->net.n_unix)
		return "an address condition (family=, addr=, unix=): Landlock sees the TCP port "
		       "alone, of IPv4 and IPv6 alike";
	/*
	 * EACCES on some ports is Landlock's answer there: an address it
	 * refuses first (EINVAL) has no port, so it meets no port=.
	 */
	if (!permissive && !r->kernel_answer && !(r->error == EACCES && r->net.n_ports))
		return "a denial with its own errno: Landlock answers EACCES, and EINVAL for an "
		       "address of another family than the socket's or too short (write "
		       "'kernel' to ask for its answer)";
	if (!permissive && !net_is_tcp_only(&r->net))
		return "a refusal that is not of TCP alone (write proto=tcp): Landlock refuses "
		       "nothing else";
	return NULL;
}

/* "443, 8000-8999" (every port: "every"), the ports of a rule. */
static void ll_net_ports_text(const struct policy_net *n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (!n->n_ports) {
		snprintf(buf, size, "every");
		return;
	}
	for (size_t i = 0; i < n->n_ports && len < size; i++) {
		int k = n->ports[i].lo == n->ports[i].hi
				? snprintf(buf + len, size - len, "%s%u", i ? ", " : "",
					   n->ports[i].lo)
				: snprintf(buf + len, size - len, "%s%u-%u", i ? ", " : "",
					   n->ports[i].lo, n->ports[i].hi);

		if (k < 0)
			return;
		len += (size_t)k;
	}
}

static void ll_net_note(struct policy_landlock_state *st, enum policy_landlock_family f, size_t i,
			char *text)
{
	ll_text_free(st->notes[f][i]);
	st->notes[f][i] = text;
}

/* A grant or refusal of the TCP part: its ports, decided in rule order; the count decided. */
static size_t ll_net_take(struct ll_net_scan *ns, const struct policy_rule *r, size_t i,
			  bool permissive, size_t n_decided)
{
	struct policy_ports every = {0, 65535};
	const struct policy_ports *pr = r->net.n_ports ? r->net.ports : &every;
	size_t n = r->net.n_ports ? r->net.n_ports : 1;

	for (size_t k = 0; k < n; k++)
		for (unsigned int port = pr[k].lo; port <= pr[k].hi; port++) {
			if (ll_bit(ns->decided, port))
				continue;
			ll_set(ns->decided, port);
			n_decided++;
			if (permissive) {
				ll_set(ns->allowed, port);
				ns->by[port] = (uint32_t)i;
			} else {
				ns->refuses = true;
			}
		}
	return n_decided;
}

/* After the TCP part: what follows must let every other call run. */
static void ll_net_tail(struct policy_landlock_state *st, enum policy_landlock_family f, size_t i,
			struct ll_scan *s)
{
	const struct policy *p = st->p;
	const struct policy_rule *r = i == p->n_rules ? &p->def : &p->rules[i];

	if (r->action == POLICY_ALLOW) {
		ll_net_note(st, f, i,
			    ll_printf("Landlock: lets the rest run (a socket other than TCP's it "
				      "does not check)"));
		return;
	}
	s->fail = ll_blame(p, i,
			   "what is not TCP comes here, and this does not allow it: the seccomp "
			   "filter cannot tell a TCP socket from another at connect and bind, so "
			   "with Landlock deciding TCP ports every other call runs (allow it "
			   "without conditions after the TCP rules)");
}

static size_t ll_net_count(const struct ll_net_scan *ns)
{
	size_t n = 0;

	for (unsigned int port = 0; port < LL_NET_PORTS; port++)
		n += ll_bit(ns->allowed, port);
	return n;
}

/* What the rules of f's call say, as far as it is the shape above. */
static int ll_net_scan_rules(struct policy_landlock_state *st, enum policy_landlock_family f,
			     struct ll_net_scan *ns, struct ll_scan *s)
{
	const struct policy *p = st->p;
	int nr = ll_net_calls[f - POLICY_LANDLOCK_CONNECT];
	size_t n_decided = 0;
	char ports[256];

	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
		size_t i = p->by_nr[k];
		const struct policy_rule *r = &p->rules[i];
		bool permissive = kform_permissive(r);
		const char *obstacle;
		struct kform kf;

		kform_build(r, p->by_entry[k], &kf);
		if (kf.kind == KF_FALSE)
			continue;
		if (n_decided == LL_NET_PORTS) {
			if (kf.kind == KF_TRUE)
				ll_net_tail(st, f, i, s);
			else
				s->fail =
					ll_blame(p, i,
						 "after the TCP rules, a rule with conditions: the "
						 "seccomp filter lets every other call run (allow "
						 "them without conditions)");
			return 0;
		}
		obstacle = ll_net_obstacle(r, permissive);
		if (obstacle) {
			s->fail = ll_blame(p, i, obstacle);
			return 0;
		}
		/*
		 * An address Landlock refuses before its port (EINVAL) meets no
		 * port=, so it gets what the first rule without port= says: that
		 * must be the refusal, whose answer is Landlock's.
		 */
		if (permissive && !r->net.n_ports && ll_net_tcp(&r->net)) {
			s->fail = ll_blame(p, i,
					   "a grant of every TCP port left: Landlock refuses an "
					   "address it reads no port from (EINVAL: of another "
					   "family than the socket's, too short), which this "
					   "rule allows (end the TCP rules with 'deny ... "
					   "proto=tcp kernel')");
			return 0;
		}
		if (!ll_net_tcp(&r->net)) {
			ll_net_note(
				st, f, i,
				ll_printf("Landlock: not TCP, which it does not check: runs, as "
					  "the rule allows"));
			continue;
		}
		n_decided = ll_net_take(ns, r, i, permissive, n_decided);
		ll_net_ports_text(&r->net, ports, sizeof(ports));
		ll_net_note(st, f, i,
			    !r->net.n_ports
				    ? ll_printf("Landlock: refuses every other TCP port (EACCES; "
						"EINVAL for an address it refuses first)")
			    : permissive ? ll_printf("Landlock: grants TCP port(s) %s", ports)
					 : ll_printf("Landlock: refuses TCP port(s) %s (EACCES)",
						     ports));
	}
	/* The default would decide the ports left, and the addresses with no port: allowed. */
	if (n_decided != LL_NET_PORTS) {
		s->fail = ll_blame(p, p->n_rules,
				   "the TCP rules do not end with a refusal of every port left "
				   "('deny ... proto=tcp kernel'), so the default decides the "
				   "rest, and an address Landlock reads no port from (EINVAL)");
		return 0;
	}
	ll_net_tail(st, f, p->n_rules, s);
	return 0;
}

/* Is a rule on nr about TCP (proto=tcp, or the kernel's answer)? Else there is nothing to move. */
static bool ll_net_asks(const struct policy *p, int nr)
{
	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
		const struct policy_rule *r = &p->rules[p->by_nr[k]];

		if (r->kernel_answer || (r->net.n_protos && ll_net_tcp(&r->net)))
			return true;
	}
	return false;
}

int ll_net_scan_family(struct policy_landlock_state *st, enum policy_landlock_family f, int abi)
{
	struct ll_net_scan *ns = &st->net[f - POLICY_LANDLOCK_CONNECT];
	struct ll_scan *s = &st->fam[f];
	int nr = ll_net_calls[f - POLICY_LANDLOCK_CONNECT];
	size_t n;

	if (!ll_net_asks(st->p, nr)) {
		s->fail = ll_printf("no rule is on TCP ports (proto=tcp), nor asks for the "
				    "kernel's answer ('deny %s proto=tcp kernel')",
				    policy_syscall_name(nr));
		return 0;
	}
	if (abi < 4) {
		s->fail = ll_printf("Landlock's TCP port rights come with ABI 4 (here: %d; 0: "
				    "none, or the layer is off)",
				    abi);
		return 0;
	}
	free(ns->by);
	*ns = (struct ll_net_scan){0};
	ns->by = calloc(LL_NET_PORTS, sizeof(*ns->by));
	if (!ns->by)
		return -ENOMEM;
	ll_net_scan_rules(st, f, ns, s);
	if (s->fail)
		return 0;
	if (!ns->refuses) {
		s->fail = ll_printf("no TCP port is left to the refusal ('deny %s proto=tcp "
				    "kernel'): nothing for Landlock to refuse",
				    policy_syscall_name(nr));
		return 0;
	}
	n = ll_net_count(ns);
	if (n > LL_NET_PORTS_MAX)
		s->fail = ll_printf("%zu TCP ports granted: Landlock takes a rule per port, and "
				    "the layer takes at most %d (refuse the rest, or grant fewer)",
				    n, LL_NET_PORTS_MAX);
	return 0;
}

int ll_net_finish(struct policy_landlock *ll, struct policy_landlock_state *st)
{
	free(ll->ports);
	ll->ports = NULL;
	ll->n_ports = 0;
	ll->handled_net = 0;
	for (int k = 0; k < 2; k++)
		if (ll->decided[POLICY_LANDLOCK_CONNECT + k])
			ll->handled_net |= ll_net_rights[k];
	for (unsigned int port = 0; ll->handled_net && port < LL_NET_PORTS; port++) {
		struct policy_landlock_port pp = {.port = (uint16_t)port};
		struct policy_landlock_port *a;

		for (int k = 0; k < 2; k++) {
			const struct ll_net_scan *ns = &st->net[k];
			size_t i;

			if (!ll->decided[POLICY_LANDLOCK_CONNECT + k] || !ll_bit(ns->allowed, port))
				continue;
			pp.access |= ll_net_rights[k];
			i = ns->by[port];
			if (!pp.file && i < st->p->n_rules) {
				pp.file = st->p->rules[i].file;
				pp.line = st->p->rules[i].line;
			}
		}
		if (!pp.access)
			continue;
		a = reallocarray(ll->ports, ll->n_ports + 1, sizeof(*a));
		if (!a)
			return -ENOMEM;
		ll->ports = a;
		ll->ports[ll->n_ports++] = pp;
	}
	return 0;
}

void ll_net_free(struct policy_landlock *ll, struct policy_landlock_state *st)
{
	free(ll->ports);
	ll->ports = NULL;
	ll->n_ports = 0;
	for (int k = 0; st && k < 2; k++) {
		free(st->net[k].by);
		st->net[k].by = NULL;
	}
}
