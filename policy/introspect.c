/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Introspection for tools (`unotify policy explain`, the fuzzers): which
 * rules a syscall meets in order, what each is, and in which layer the
 * syscall's calls end up. Read-only views of the parsed policy; what a
 * rule needs is policy_rule_needs()'s (needs.c), the layer is read from the
 * compiled program, never guessed, except for the kernel-or-supervisor
 * split of one syscall (see policy_syscall_layer).
 */
#include "config.h"

#include <errno.h>
#include <seccomp.h>

#include "policy/internal.h"

size_t policy_syscall_rule_count(const struct policy *p, int nr)
{
	if (!p || !p->finished || nr < 0 || nr >= POLICY_NR_MAX)
		return 0;
	return p->by_nr_start[nr + 1] - p->by_nr_start[nr];
}

int policy_syscall_rule_at(const struct policy *p, int nr, size_t k, size_t *ret_i)
{
	if (k >= policy_syscall_rule_count(p, nr))
		return -ENOENT;
	*ret_i = p->by_nr[p->by_nr_start[nr] + k];
	return 0;
}

int policy_rule_info(const struct policy *p, size_t i, struct policy_rule_info *ret)
{
	const struct policy_rule *r;

	if (!p || i > p->n_rules)
		return -ENOENT;
	r = i == p->n_rules ? &p->def : &p->rules[i];
	*ret = (struct policy_rule_info){
		.action = r->action,
		.error = r->action == POLICY_DENY ? r->error : 0,
		.kernel_answer = r->action == POLICY_DENY && r->kernel_answer,
		.value = r->action == POLICY_RETURN ? r->value : 0,
		.file = r->file,
		.line = r->line,
		.is_default = i == p->n_rules,
	};
	return 0;
}

/*
 * The evaluator checks registers (argN, and an open's flags for its
 * categories and access=/flags=) before it reads memory: only a rule with
 * none of those reads memory for every call that reaches it.
 */
bool policy_rule_memory_first(const struct policy *p, size_t i, int nr)
{
	enum policy_needs needs;
	const struct policy_rule *r;

	if (policy_rule_needs(p, i, nr, &needs, NULL) < 0 || needs != POLICY_NEEDS_MEMORY)
		return false;
	r = &p->rules[i];
	if (r->n_conds > 0 || r->n_fconds > 0)
		return false;
	for (size_t e = 0; e < r->n_syscalls; e++)
		if (r->syscalls[e] == nr && (r->syscall_roles[e] & ENTRY_CATEGORY))
			return false;
	return true;
}

/* The filter action of a verdict in the kernel layer: compile.c's mapping. */
static uint32_t introspect_kernel_action(const struct policy_rule_info *in)
{
	switch (in->action) {
	case POLICY_ALLOW:
		return SCMP_ACT_ALLOW;
	case POLICY_DENY:
		if (in->kernel_answer)
			return SCMP_ACT_NOTIFY; /* worked out by the supervisor, or Landlock */
		return in->error < 4095 ? SCMP_ACT_ERRNO((uint32_t)in->error) : SCMP_ACT_NOTIFY;
	case POLICY_KILL:
		return SCMP_ACT_KILL_PROCESS;
	default:
		return SCMP_ACT_NOTIFY;
	}
}

static uint32_t introspect_rule_action(const struct policy *p, size_t i)
{
	struct policy_rule_info in;

	policy_rule_info(p, i, &in);
	return introspect_kernel_action(&in);
}

/*
 * A notified syscall is "mixed" when the filter sends only the calls that
 * meet some rule's register conditions and settles the others with the
 * filter default (compile.c, case 2). That holds when the rules that can
 * match, up to the first that always does, all decide on registers, and
 * what decides the calls none of them matches (that rule, or the default)
 * has the filter default's action. libseccomp may refuse such a rule set,
 * and compile.c then sends every call: "mixed" reads "some or all calls".
 */
static bool introspect_is_mixed(const struct policy *p, int nr)
{
	uint32_t def = introspect_rule_action(p, p->n_rules), fallback = def;
	bool first = true;

	/*
	 * A move the policy may allow always goes up (compile.c, moves.c), and
	 * so does a rule set libseccomp would get wrong (compile-verify.c).
	 */
	if (def == SCMP_ACT_NOTIFY || moves_checked(p, nr) || compile_syscall_sends_all(p, nr))
		return false;
	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
		enum policy_needs needs;

		if (policy_rule_needs(p, p->by_nr[k], nr, &needs, NULL) < 0 ||
		    needs == POLICY_NEEDS_MEMORY)
			return false;
		if (needs == POLICY_NEEDS_NEVER)
			continue;
		if (needs == POLICY_NEEDS_NOTHING) {
			if (first)
				return false;
			fallback = introspect_rule_action(p, p->by_nr[k]);
			break;
		}
		first = false;
	}
	return fallback == def;
}

int policy_syscall_layer(const struct policy *p, const struct policy_program *prog, int nr,
			 enum policy_layer *ret)
{
	if (!p || !prog || !p->finished || nr < 0 || (size_t)nr >= prog->nr_max ||
	    nr >= POLICY_NR_MAX)
		return -EINVAL;
	if (!prog->notified[nr])
		*ret = POLICY_LAYER_KERNEL;
	else if (introspect_is_mixed(p, nr))
		*ret = POLICY_LAYER_MIXED;
	else
		*ret = POLICY_LAYER_SUPERVISOR;
	return 0;
}

bool policy_syscall_moves_checked(const struct policy *p, int nr)
{
	return p && p->finished && moves_checked(p, nr);
}
