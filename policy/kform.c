/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a rule needs to decide a call of one of its syscalls: nothing, the
 * registers (then exactly which comparisons), or the target's memory. The
 * compiler puts register forms in the kernel filter; the checker finds
 * unreachable rules with it; the evaluator walks the same conditions in
 * the same order (evaluate.c), so both layers agree.
 *
 * A rule matches a call of syscall S (its entry) when all of these hold:
 *  - its register conditions (argN ...);
 *  - S's membership in the rule's categories, by the roles of its paths (an
 *    open's come from its flags: read, write, create): for a rule that lets
 *    the call run (allow, log), every role of every path must be in the
 *    categories (an O_RDWR open is not only a read, a rename's source is a
 *    delete); for one that stops it (deny, kill, return), one role of one
 *    path is enough; sendto, sendmsg and sendmmsg are in @net-connect only
 *    when they carry an address;
 *  - access= and flags= on an open's flags (never on another syscall);
 *  - path=: for a rule that lets the call run, every path of the call
 *    matches one of the patterns; for one that stops it, one of the paths
 *    whose roles meet its categories (any path when S is named directly)
 *    does; no such path: no match;
 *  - family=, addr=, port=, unix= on the call's address (none: no match);
 *  - bind through @file-create: its address is an AF_UNIX path, which is
 *    the path path= matches (bind creates the socket file).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

bool kform_permissive(const struct policy_rule *r)
{
	return r->action == POLICY_ALLOW || r->action == POLICY_LOG;
}

bool kform_any_path(const struct policy_rule *r, size_t entry)
{
	(void)entry;
	return !kform_permissive(r);
}

unsigned int kform_entry_paths(const struct policy_rule *r, size_t entry,
			       const struct policy_pathcall *pc)
{
	unsigned int roles = r->syscall_roles[entry] & ENTRY_ROLES, paths = 0;
	bool all = !(r->syscall_roles[entry] & ENTRY_CATEGORY) || kform_permissive(r);

	if (!pc)
		/* bind through @file-create: its AF_UNIX path is path 0. */
		return (r->syscall_roles[entry] & ENTRY_UNIX_BIND) ? 1u : 0u;
	for (int n = 0; n < 2; n++) {
		if (!policy_pathcall_has(pc, n))
			continue;
		if (all || pc->role[n] == POLICY_ROLE_BY_OPEN_FLAGS || (pc->role[n] & roles))
			paths |= 1u << n;
	}
	return paths;
}

/*
 * Is the syscall a member of the rule's file categories, as far as its
 * fixed roles tell (an open's depends on its flags: kform_flags)? A rule
 * that lets the call run needs every path's roles within its categories
 * (rename's source is a delete: @file-create alone does not allow a
 * rename); one that stops it needs one path with a role in them.
 */
static bool kform_static_member(const struct policy_rule *r, size_t entry,
				const struct policy_pathcall *pc)
{
	unsigned int roles = r->syscall_roles[entry] & ENTRY_ROLES;
	bool permissive = kform_permissive(r), any = false;

	if (!roles || !pc)
		return true; /* not through a file category, or @file-attr's fchmod and kin */
	for (int n = 0; n < 2; n++) {
		if (!policy_pathcall_has(pc, n))
			continue;
		if (pc->role[n] == POLICY_ROLE_BY_OPEN_FLAGS)
			return true;
		if (permissive && !flags_roles_fit(pc->role[n], roles, true))
			return false;
		any |= flags_roles_fit(pc->role[n], roles, false);
	}
	return any;
}

/* The terms on the flags register for membership and access=/flags=; false: never holds. */
static bool kform_flag_terms(const struct policy_rule *r, unsigned int roles,
			     const struct policy_pathcall *pc, struct kform *kf)
{
	struct policy_flagterm tmp[ARRAY_SIZE(kf->terms)];
	int n;

	kf->terms[0] = (struct policy_flagterm){ 0, 0 }; /* true */
	kf->n_terms = 1;
	if (roles & ENTRY_ROLES) {
		kf->n_terms = flags_role_terms(pc, roles & ENTRY_ROLES, kform_permissive(r),
					       kf->terms, ARRAY_SIZE(kf->terms));
		if (!kf->n_terms)
			return false;
	}
	for (size_t i = 0; i < r->n_fconds; i++) {
		n = flags_terms_and(kf->terms, kf->n_terms, r->fconds[i].terms,
				    r->fconds[i].n_terms, tmp, ARRAY_SIZE(tmp));
		if (n == -E2BIG) {
			/* Too many to spell out: the evaluator is exact; the register part
			 * keeps only the argN conditions, a weaker necessary condition. */
			kf->kind = KF_MEMORY;
			kf->n_terms = 0;
			kf->flags_arg = -1;
			return true;
		}
		if (n <= 0)
			return false;
		memcpy(kf->terms, tmp, (size_t)n * sizeof(*tmp));
		kf->n_terms = (size_t)n;
	}
	/* One term with an empty mask always holds: no flag condition at all. */
	if (kf->n_terms == 1 && kf->terms[0].mask == 0)
		kf->n_terms = 0;
	return true;
}

/* The open-flags part: sets kf and returns false when the rule can never match. */
static bool kform_flags(const struct policy_rule *r, unsigned int roles,
			const struct policy_pathcall *pc, struct kform *kf)
{
	bool wants = r->n_fconds || (roles & ENTRY_ROLES);
	uint64_t cst = 0;
	int arg = -1;

	switch (flags_source_of(pc, &arg, &cst)) {
	case FLAGS_NONE:
		return r->n_fconds == 0;
	case FLAGS_CONST:
		return flags_entry_holds(r, roles, pc, cst);
	case FLAGS_MEM:
		if (wants)
			kf->kind = KF_MEMORY;
		return true;
	case FLAGS_REG:
		break;
	}
	if (!wants)
		return true;
	kf->flags_arg = arg;
	return kform_flag_terms(r, roles, pc, kf);
}

void kform_build(const struct policy_rule *r, size_t entry, struct kform *kf)
{
	int nr = r->syscalls[entry];
	unsigned int roles = r->syscall_roles[entry];
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	*kf = (struct kform){ .kind = KF_REGS, .flags_arg = -1 };
	if (!kform_static_member(r, entry, pc) || !kform_flags(r, roles, pc, kf))
		goto never;
	if (r->n_paths) {
		if (!kform_entry_paths(r, entry, pc))
			goto never;
		kf->kind = KF_MEMORY;
	}
	if (!net_is_empty(&r->net)) {
		if (!net_syscall_has_address(nr))
			goto never;
		kf->kind = KF_MEMORY;
	}
	/* bind is in @file-create when its address is an AF_UNIX path: in memory. */
	if (entry_unix_bind_only(roles))
		kf->kind = KF_MEMORY;
	/* The kernel's answer depends on what the path resolves to (and if it is one). */
	if (r->kernel_answer) {
		/* On TCP ports (proto=tcp): decided on the socket and address, read above. */
		if (!kform_entry_paths(r, entry, pc) && net_is_empty(&r->net))
			goto never;
		kf->kind = KF_MEMORY;
	}
	if (roles & ENTRY_NET_ADDRESSED) {
		/* sendto's address pointer is a register; sendmsg's is in struct msghdr. */
		if (nr == SYS_sendto)
			kf->addressed = true;
		else
			kf->kind = KF_MEMORY;
	}
	if (kf->kind == KF_REGS && r->n_conds == 0 && kf->n_terms == 0 && !kf->addressed)
		kf->kind = KF_TRUE;
	return;
never:
	*kf = (struct kform){ .kind = KF_FALSE, .flags_arg = -1 };
}

enum kform_kind kform_kind_of(const struct policy *p, size_t i, int nr)
{
	const struct policy_rule *r;
	struct kform kf;

	if (i >= p->n_rules)
		return KF_FALSE;
	r = &p->rules[i];
	for (size_t e = 0; e < r->n_syscalls; e++)
		if (r->syscalls[e] == nr) {
			kform_build(r, e, &kf);
			return kf.kind;
		}
	return KF_FALSE;
}
