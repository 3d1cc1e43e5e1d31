/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user-space layer: decides a call the kernel sent to the supervisor by
 * walking the rules that name its syscall, in policy order, first match
 * wins, the default when none matches. The kernel layer (compile.c) only
 * settles calls whose outcome this walk would give, so both layers agree.
 */
#include "config.h"

#include <errno.h>

#include "policy/internal.h"

/* The call's path, read at most once per evaluation and only when a rule needs it. */
struct evaluate_path {
	policy_path_fn get;
	void *userdata;
	bool fetched;
	int error;
	const char *path;
};

/*
 * Exactly libseccomp's comparisons: the full 64-bit register, unsigned.
 * (libseccomp splits each into two 32-bit BPF comparisons, high word first;
 * the result is the 64-bit unsigned comparison, which the test suite checks
 * by running the generated BPF.)
 */
static bool evaluate_cond(const struct policy_cond *c, const uint64_t *args)
{
	uint64_t a = args[c->arg];

	switch (c->op) {
	case POLICY_CMP_EQ:
		return a == c->value;
	case POLICY_CMP_NE:
		return a != c->value;
	case POLICY_CMP_LT:
		return a < c->value;
	case POLICY_CMP_LE:
		return a <= c->value;
	case POLICY_CMP_GT:
		return a > c->value;
	case POLICY_CMP_GE:
		return a >= c->value;
	case POLICY_CMP_MASKED_EQ:
		return (a & c->mask) == c->value;
	}
	return false;
}

static int evaluate_get_path(struct evaluate_path *ep, bool *consulted)
{
	if (!ep->fetched) {
		ep->fetched = true;
		*consulted = true;
		ep->error = ep->get ? ep->get(ep->userdata, &ep->path) : -ENOSYS;
		if (ep->error >= 0 && !ep->path)
			ep->error = -EFAULT;
		if (ep->error > 0)
			ep->error = 0;
	}
	return ep->error;
}

/* 1: the rule matches; 0: it does not; -errno: its path could not be read. */
static int evaluate_rule(const struct policy_rule *r, const struct policy_call *call,
			 struct evaluate_path *ep, bool *consulted)
{
	int e;

	/* Registers first: they cost nothing, and a failed one spares reading memory. */
	for (size_t i = 0; i < r->n_conds; i++)
		if (!evaluate_cond(&r->conds[i], call->args))
			return 0;
	if (r->n_paths == 0)
		return 1;
	e = evaluate_get_path(ep, consulted);
	if (e < 0)
		return e;
	for (size_t i = 0; i < r->n_paths; i++)
		if (policy_glob_match(r->paths[i], ep->path))
			return 1;
	return 0;
}

static void evaluate_decide(const struct policy_rule *r, bool is_default, bool consulted,
			    struct policy_decision *ret)
{
	*ret = (struct policy_decision){
		.action = r->action,
		.error = r->action == POLICY_DENY ? r->error : 0,
		.value = r->action == POLICY_RETURN ? r->value : 0,
		.line = is_default ? 0 : r->line,
		.file = is_default ? NULL : r->file,
		.path_consulted = consulted,
	};
}

int policy_evaluate(const struct policy *p, const struct policy_call *call, policy_path_fn get_path,
		    void *userdata, struct policy_decision *ret)
{
	struct evaluate_path ep = { .get = get_path, .userdata = userdata };
	bool consulted = false;

	if (!p || !call || !ret || !p->finished || p->failed)
		return -EINVAL;
	if (call->nr < 0 || call->nr >= POLICY_NR_MAX) {
		evaluate_decide(&p->def, true, false, ret);
		return 0;
	}
	for (size_t i = p->by_nr_start[call->nr]; i < p->by_nr_start[call->nr + 1]; i++) {
		const struct policy_rule *r = &p->rules[p->by_nr[i]];
		int m = evaluate_rule(r, call, &ep, &consulted);

		if (m < 0) {
			/*
			 * The path this rule needs could not be read (a bad pointer, a
			 * target gone, a path too long): the rule can be neither applied
			 * nor skipped safely, since skipping could let a later, wider
			 * rule allow what this one denies. Fail closed: deny with
			 * EPERM, whatever the rule's own action, blamed on this rule.
			 */
			*ret = (struct policy_decision){
				.action = POLICY_DENY,
				.error = EPERM,
				.line = r->line,
				.file = r->file,
				.path_consulted = true,
			};
			return 0;
		}
		if (m > 0) {
			evaluate_decide(r, false, consulted, ret);
			return 0;
		}
	}
	evaluate_decide(&p->def, true, consulted, ret);
	return 0;
}
