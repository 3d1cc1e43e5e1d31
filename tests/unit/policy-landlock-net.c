/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Random policies on connect and bind, of the TCP port shape
 * (policy/landlock-net.c) and near it: where the layer takes a call, the
 * filter must let every such call run, and Landlock's port check (the
 * model in policy-landlock.c) must give what the evaluator gives, for TCP,
 * UDP and other sockets, IPv4, IPv6, disconnects, addresses refused before
 * their port, and a handful of ports.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "lib/util.h"
#include "policy/landlock.h"
#include "tests/unit/test-policy.h"

static uint64_t lln_state = 0x2545f4914f6cdd1dull;

static unsigned int lln_rnd(unsigned int n)
{
	lln_state ^= lln_state << 13;
	lln_state ^= lln_state >> 7;
	lln_state ^= lln_state << 17;
	return (unsigned int)(lln_state % n);
}

static const unsigned int lln_ports[] = {0, 22, 25, 80, 443, 8080, 65535};

/* One rule on call: mostly of the shape, sometimes not (an address, its own errno). */
static size_t lln_rule(char *out, size_t size, const char *call)
{
	static const char *const protos[] = {"", " proto=tcp", " proto=udp", " proto=tcp,udp"};
	unsigned int a = lln_ports[lln_rnd(ARRAY_SIZE(lln_ports))];
	unsigned int b = lln_ports[lln_rnd(ARRAY_SIZE(lln_ports))];
	char ports[64] = "";

	if (lln_rnd(3))
		snprintf(ports, sizeof(ports), " port=%u", a);
	else if (lln_rnd(2))
		snprintf(ports, sizeof(ports), " port=%u-%u", a < b ? a : b, a < b ? b : a);
	switch (lln_rnd(12)) {
	case 0:
		return (size_t)snprintf(out, size, "allow %s addr=127.0.0.1%s\n", call, ports);
	case 1:
		return (size_t)snprintf(out, size, "deny %s proto=tcp%s EACCES\n", call, ports);
	case 2:
	case 3:
	case 4:
		return (size_t)snprintf(out, size, "deny %s proto=tcp%s kernel\n", call, ports);
	default:
		return (size_t)snprintf(out, size, "allow %s%s%s\n", call,
					protos[lln_rnd(ARRAY_SIZE(protos))], ports);
	}
}

static void lln_text(char *text, size_t size)
{
	const char *calls[] = {"connect", "bind", "@net-connect"};
	size_t n = (size_t)snprintf(text, size, "default %s\n", lln_rnd(8) ? "allow" : "deny");

	for (int c = 0; c < 2; c++) {
		const char *call = c == 0 ? calls[lln_rnd(2) ? 0 : 2] : calls[1];

		for (unsigned int r = 0, k = lln_rnd(4); r < k; r++)
			n += lln_rule(text + n, size - n, call);
		if (lln_rnd(5))
			n += (size_t)snprintf(text + n, size - n, "deny %s proto=tcp kernel\n",
					      call);
		if (lln_rnd(5))
			n += (size_t)snprintf(text + n, size - n, "allow %s\n",
					      call[0] == '@' ? "connect" : call);
		else if (lln_rnd(2))
			n += (size_t)snprintf(text + n, size - n, "deny %s family=unix EPERM\n",
					      call);
	}
}

static int lln_sockaddr(void *userdata, const struct policy_sockaddr **ret)
{
	*ret = userdata;
	return 0;
}

static const struct policy_args_ops lln_ops = {.sockaddr = lln_sockaddr};

/* Every kind of address, on every kind of socket, to each port. */
static bool lln_calls(struct policy *p, const struct policy_landlock *ll,
		      const struct policy_program *prog, int nr, const char *text, size_t *decided)
{
	static const int protos[] = {POLICY_PROTO_TCP, POLICY_PROTO_UDP, POLICY_PROTO_NONE};
	static const int families[] = {AF_INET, AF_INET6, AF_UNSPEC, AF_UNIX};
	struct seccomp_data d = {.nr = nr, .arch = AUDIT_ARCH_X86_64};
	struct policy_call call = {.nr = nr};
	uint32_t ret;

	if (!policy_landlock_decides(ll, nr))
		return true;
	if (policy_bpf_run(&prog->bpf, &d, &ret) < 0 ||
	    (ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW) {
		printf("# the layer decides %s, yet the filter does not let it run\n%s",
		       policy_syscall_name(nr), text);
		return false;
	}
	for (size_t pr = 0; pr < ARRAY_SIZE(protos); pr++)
		for (size_t f = 0; f < ARRAY_SIZE(families); f++)
			for (size_t k = 0; k < ARRAY_SIZE(lln_ports); k++)
				for (int noport = 0; noport < 2; noport++) {
					struct policy_sockaddr sa = {
						.family = families[f],
						.port = (uint16_t)lln_ports[k],
						.proto = protos[pr],
						.no_port = noport && protos[pr] == POLICY_PROTO_TCP,
					};
					struct policy_decision dec;
					char bad[256];

					sa.addr[0] = 127;
					sa.addr[3] = 1;
					if (policy_evaluate_args(p, &call, &lln_ops, &sa, &dec) < 0)
						return false;
					(*decided)++;
					if (landlock_agrees_net(ll, &call, &sa, &dec, bad,
								sizeof(bad)) < 0) {
						printf("# %s (proto %d, family %d, no_port %d)\n# "
						       "policy:\n%s",
						       bad, sa.proto, sa.family, sa.no_port, text);
						return false;
					}
				}
	return true;
}

#define LLN_RANDOM_POLICIES 600

bool landlock_net_random_agree(void)
{
	size_t decided = 0, layers = 0, skipped = 0;
	int share = random_share(), policies = LLN_RANDOM_POLICIES / share;
	char text[2048];

#if !defined(__x86_64__)
	return true; /* the calls above are built for x86_64's arch */
#endif
	for (int k = 0; k < policies; k++) {
		struct policy_diags diags = {0};
		struct policy *p = policy_new();
		struct policy_landlock *ll = NULL;
		struct policy_program *prog = NULL;
		bool ok = true;

		lln_text(text, sizeof(text));
		/* A random list may have a rule no call reaches: an error, not a case. */
		if (!p || policy_parse_text(p, "r", text, &diags) < 0 ||
		    policy_finish(p, &diags) < 0) {
			skipped++;
		} else if (policy_landlock_build(p, 7, &ll) < 0 ||
			   policy_compile_landlock(p, ll, &prog) < 0) {
			printf("# random net policy %d was not built:\n%s", k, text);
			ok = false;
		} else {
			if (ll->decided[POLICY_LANDLOCK_CONNECT] ||
			    ll->decided[POLICY_LANDLOCK_BIND])
				layers++;
			ok = lln_calls(p, ll, prog, SYS_connect, text, &decided) &&
			     lln_calls(p, ll, prog, SYS_bind, text, &decided);
		}
		policy_program_free(prog);
		policy_landlock_free(ll);
		policy_diags_free(&diags);
		policy_free(p);
		if (!ok)
			return false;
	}
	printf("# %zu of %d random policies moved TCP ports to Landlock (%zu had an unreachable "
	       "rule), %zu calls decided by its model\n",
	       layers, policies, skipped, decided);
	return layers * share > 60 && decided * share > 5000;
}
