/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a rule needs to decide a call, and how its verdict is carried out:
 * for `unotify policy check` (the warnings about rules a racing thread can
 * bypass), `explain`, and the SECURITY section of unotify.policy(5), which
 * lists the same per syscall.
 */
#include "config.h"

#include <errno.h>
#include <sys/syscall.h>

#include "policy/internal.h"

enum policy_enforcement policy_enforcement_of(int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	if (pc)
		return pc->perform == POLICY_PERFORM_NONE ? POLICY_ENFORCED_UNSAFE
							  : POLICY_ENFORCED_PERFORMED;
	/* The supervisor performs these on the target's own socket (pidfd_getfd). */
	if (net_syscall_has_address(nr))
		return POLICY_ENFORCED_PERFORMED;
	return POLICY_ENFORCED_REGISTERS;
}

const char *policy_enforcement_reason(int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	if (net_syscall_has_address(nr))
		return "address copied once; the supervisor performs the call on the target's "
		       "socket (pidfd_getfd) with that copy";
	if (!pc)
		return "no memory is read: decided on the registers, CONTINUE is safe";
	switch (pc->perform) {
	case POLICY_PERFORM_OPEN:
		return "path resolved once; the supervisor opens that file as the target and "
		       "injects the descriptor (ADDFD with SEND)";
	case POLICY_PERFORM_STAT:
	case POLICY_PERFORM_READLINK:
		return "path resolved once; the supervisor does the call on that file as the "
		       "target and writes the result into its memory";
	case POLICY_PERFORM_ACCESS:
		return "path resolved once; the supervisor checks that file as the target "
		       "(faccessat2) and returns the result";
	case POLICY_PERFORM_MUTATE:
		return "path resolved once; the supervisor does the *at variant on the resolved "
		       "directory as the target";
	case POLICY_PERFORM_XATTR:
		return "path resolved once; the supervisor reads that file's attributes as the "
		       "target and writes them into its memory";
	case POLICY_PERFORM_NONE:
		break;
	}
	return "path is read again by the kernel after the decision; a racing thread can swap it";
}

static bool needs_kernel_action(const struct policy_rule *r)
{
	return r->action == POLICY_ALLOW || r->action == POLICY_KILL ||
	       (r->action == POLICY_DENY && r->error < 4095 && !r->kernel_answer);
}

/* Does the filter settle the calls this rule decides (compile.c's plan for nr)? */
static bool needs_in_kernel(const struct policy *p, size_t i, int nr)
{
	return needs_kernel_action(&p->rules[i]) && compile_syscall_in_kernel(p, nr);
}

int policy_rule_needs(const struct policy *p, size_t i, int nr, enum policy_needs *ret_needs,
		      enum policy_enforcement *ret_how)
{
	enum policy_enforcement how = POLICY_ENFORCED_KERNEL;
	enum policy_needs needs;

	if (!p || !p->finished || i > p->n_rules || nr < 0 || nr >= POLICY_NR_MAX || !ret_needs)
		return -EINVAL;
	if (i == p->n_rules) {
		needs = POLICY_NEEDS_NOTHING;
		how = needs_kernel_action(&p->def) ? POLICY_ENFORCED_KERNEL
						   : POLICY_ENFORCED_REGISTERS;
		goto done;
	}
	switch (kform_kind_of(p, i, nr)) {
	case KF_FALSE:
		needs = POLICY_NEEDS_NEVER;
		break;
	case KF_TRUE:
		needs = POLICY_NEEDS_NOTHING;
		break;
	case KF_REGS:
		needs = POLICY_NEEDS_REGISTERS;
		break;
	default:
		needs = POLICY_NEEDS_MEMORY;
		break;
	}
	if (needs == POLICY_NEEDS_MEMORY)
		how = policy_enforcement_of(nr);
	else if (!needs_in_kernel(p, i, nr))
		how = POLICY_ENFORCED_REGISTERS;
done:
	*ret_needs = needs;
	if (ret_how)
		*ret_how = how;
	return 0;
}
