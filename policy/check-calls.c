/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Warnings about rules on calls the program can make happen another way,
 * which no filter sees: the clock calls the vDSO answers in the program's
 * own memory, and a connect a TCP Fast Open send makes, or a datagram
 * needs none of.
 */
#include "config.h"

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

/* The calls the vDSO answers in user space (arch/x86/entry/vdso, arm64's vdso). */
static const int check_vdso_calls[] = {
	SYS_clock_gettime, SYS_gettimeofday, SYS_clock_getres,
#ifdef __x86_64__
	SYS_time, SYS_getcpu,
#endif
};

static bool check_is_vdso(int nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(check_vdso_calls); i++)
		if (check_vdso_calls[i] == nr)
			return true;
	return false;
}

/* A refusal, `return` or `log` of a clock call holds for a raw syscall(2) only. */
int check_rule_vdso(const struct policy_rule *r, struct policy_diags *diags)
{
	if (r->action == POLICY_ALLOW)
		return 0;
	for (size_t i = 0; i < r->n_syscalls; i++) {
		if (!check_is_vdso(r->syscalls[i]) || (r->syscall_roles[i] & (ENTRY_CATEGORY | ENTRY_GROUP)))
			continue;
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->syscall_cols[i],
				"no filter can keep a program from reading the clock",
				"'%s' is answered by the vDSO in the program's own memory, with "
				"no system call: this rule holds only for a program that makes "
				"the call itself (syscall(2)), not for libc's",
				policy_syscall_name(r->syscalls[i]));
	}
	return 0;
}

static bool check_names(const struct policy_rule *r, int nr)
{
	for (size_t i = 0; i < r->n_syscalls; i++)
		if (r->syscalls[i] == nr)
			return true;
	return false;
}

/* Can the rule's network conditions hold for a TCP socket's connect? */
static bool check_may_be_tcp(const struct policy_net *n)
{
	bool tcp = !n->n_protos, ip = !n->n_families;

	for (size_t i = 0; i < n->n_protos; i++)
		tcp = tcp || n->protos[i] == POLICY_PROTO_TCP;
	for (size_t i = 0; i < n->n_families; i++)
		ip = ip || n->families[i] == AF_INET || n->families[i] == AF_INET6;
	return tcp && ip && !n->n_unix;
}

/* Can the rule's network conditions hold for a unix socket's address? */
static bool check_may_be_unix(const struct policy_net *n)
{
	bool unix_family = !n->n_families;

	for (size_t i = 0; i < n->n_families; i++)
		unix_family = unix_family || n->families[i] == AF_UNIX;
	return n->n_unix || (unix_family && !n->n_cidrs && !n->n_ports && !n->n_protos);
}

/*
 * A refusal of connect that leaves out the sends: sendto, sendmsg and
 * sendmmsg with MSG_FASTOPEN connect a TCP socket with no connect, and a
 * datagram sent with an address reaches a unix datagram socket (or a UDP
 * one, which the Fast Open case covers) with none.
 */
int check_rule_fastopen(const struct policy_rule *r, struct policy_diags *diags)
{
	bool tcp = check_may_be_tcp(&r->net);

	if (r->action == POLICY_ALLOW || r->action == POLICY_LOG || !check_names(r, SYS_connect) ||
	    (!tcp && !check_may_be_unix(&r->net)) ||
	    (check_names(r, SYS_sendto) && check_names(r, SYS_sendmsg) &&
	     check_names(r, SYS_sendmmsg)))
		return 0;
	for (size_t i = 0; i < r->n_syscalls; i++) {
		if (r->syscalls[i] != SYS_connect)
			continue;
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->syscall_cols[i],
				"name the sends too (connect sendto sendmsg sendmmsg), or write "
				"@net-connect",
				tcp ? "a TCP Fast Open send (sendto, sendmsg or sendmmsg with "
				      "MSG_FASTOPEN) connects with no connect: this rule does not "
				      "hold for it"
				    : "a datagram sent with an address (sendto, sendmsg or "
				      "sendmmsg) reaches a unix datagram socket with no connect: "
				      "this rule does not hold for it");
	}
	return 0;
}
