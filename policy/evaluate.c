/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user-space layer: decides a call the kernel sent to the supervisor.
 * First match wins, in policy order, the default when none matches; the
 * kernel layer (compile.c) only settles calls whose outcome this gives.
 *
 * Within a rule the conditions are tried cheapest first, and memory is
 * read only when every earlier condition holds: registers (and open flags
 * in a register), then the paths, then openat2's flags, then the address.
 * Each piece of memory is fetched at most once per call.
 *
 * The rules of a syscall are not walked one by one: those without path=
 * are, but once a path is known, the rules with path= that need it come
 * from the prefix index (index.c, pathset.c) as candidates in rule order.
 * A rule left out can only be one whose path condition fails on a path
 * already read; evaluating it would have read nothing more (paths come
 * before any other memory, and in path order), so the walk decides
 * exactly what the plain walk would, memory reads included.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/fs.h> /* RENAME_EXCHANGE */

#include "lib/util.h"
#include "policy/internal.h"

struct eval_ctx {
	const struct policy *p;
	const struct policy_call *call;
	const struct policy_args_ops *ops;
	void *userdata;
	const struct policy_pathcall *pc;
	enum flags_source fsrc;
	int farg;
	uint64_t fconst;
	bool is_sendto;
	bool consulted;
	bool path_fetched[2];
	const char *path[2];
	bool flags_fetched;
	uint64_t flags;
	bool sa_fetched;
	const struct policy_sockaddr *sa;
	struct pathset_iter *iters[3];
	bool named;		      /* policy_evaluate_named: allows by exact names only */
	const struct policy_rule *by; /* the rule that decided (NULL: the default) */
};

/*
 * Exactly libseccomp's comparisons: the full 64-bit register, unsigned.
 * (libseccomp splits each into two 32-bit BPF comparisons, high word first;
 * the result is the 64-bit unsigned comparison, which the test suite checks
 * by running the generated BPF.)
 */
bool policy_cond_holds(const struct policy_cond *c, const uint64_t *args)
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
		/* As libseccomp builds it for the kernel: the value is masked too. */
		return (a & c->mask) == (c->value & c->mask);
	}
	return false;
}

/* ---- Memory, fetched once ---- */

static int evaluate_fetch_path(struct eval_ctx *x, int n)
{
	int e;

	if (x->path_fetched[n])
		return 0;
	x->consulted = true;
	e = x->ops && x->ops->path ? x->ops->path(x->userdata, n, &x->path[n]) : -ENOSYS;
	if (e >= 0 && !x->path[n])
		e = -EFAULT;
	if (e < 0)
		return e; /* the walk stops here: denied */
	x->path_fetched[n] = true;
	return 0;
}

static int evaluate_fetch_flags(struct eval_ctx *x)
{
	int e;

	if (x->flags_fetched)
		return 0;
	x->consulted = true;
	e = x->ops && x->ops->open_flags ? x->ops->open_flags(x->userdata, &x->flags) : -ENOSYS;
	if (e < 0)
		return e;
	x->flags_fetched = true;
	return 0;
}

static int evaluate_fetch_sockaddr(struct eval_ctx *x)
{
	int e;

	if (x->sa_fetched)
		return 0;
	x->consulted = true;
	e = x->ops && x->ops->sockaddr ? x->ops->sockaddr(x->userdata, &x->sa) : -ENOSYS;
	if (e >= 0 && !x->sa)
		e = -EFAULT;
	if (e < 0)
		return e;
	x->sa_fetched = true;
	return 0;
}

/*
 * bind through @file-create, or with path=: its path is the AF_UNIX path
 * it creates (resolved up to its parent, as the kernel does), path 0. 1:
 * such a path, 0: another address (not a member, path= cannot hold).
 */
static int evaluate_bind_path(struct eval_ctx *x)
{
	int e;

	if (x->path_fetched[0])
		return 1;
	e = evaluate_fetch_sockaddr(x);
	if (e < 0)
		return e;
	if (x->sa->family != AF_UNIX || x->sa->unix_abstract || !x->sa->unix_path[0])
		return 0;
	x->path[0] = x->sa->unix_path;
	x->path_fetched[0] = true;
	return 1;
}

/* ---- One rule ---- */

static size_t evaluate_entry(const struct policy_rule *r, int nr)
{
	size_t e = 0;

	while (e < r->n_syscalls && r->syscalls[e] != nr)
		e++;
	return e;
}

/*
 * 1: the paths meet the rule's path= (every path it applies to, or one for a
 * rule that stops the call: kform.c), 0: not, -errno. Paths are read in
 * order, and no further than the answer needs.
 */
static int evaluate_paths(struct eval_ctx *x, const struct policy_rule *r, size_t entry)
{
	unsigned int paths = kform_entry_paths(r, entry, x->pc);
	bool any_path = kform_any_path(r, entry);

	for (int n = 0; n < 2; n++) {
		bool any = false;
		int e;

		if (!(paths & (1u << n)))
			continue;
		e = evaluate_fetch_path(x, n);
		if (e < 0)
			return e;
		for (size_t i = 0; i < r->n_paths && !any; i++)
			any = (!x->named || !kform_permissive(r) || glob_is_literal(r->paths[i])) &&
			      policy_glob_match(r->paths[i], x->path[n]);
		if (any && any_path)
			return 1;
		if (!any && !any_path)
			return 0;
	}
	return paths != 0 && !any_path;
}

/*
 * A `kernel` rule refuses what the kernel's sandbox refuses, which never
 * refuses a file that has no path (a pipe, a socket, an anonymous inode
 * reopened through /proc/PID/fd: Landlock lets pseudo file systems through):
 * 1 when every path the rule applies to is absolute, 0 when one is not.
 */
static int evaluate_kernel_paths(struct eval_ctx *x, const struct policy_rule *r, size_t entry)
{
	unsigned int paths = kform_entry_paths(r, entry, x->pc);

	for (int n = 0; n < 2; n++) {
		int e;

		if (!(paths & (1u << n)))
			continue;
		e = evaluate_fetch_path(x, n);
		if (e < 0)
			return e;
		if (x->path[n][0] != '/')
			return 0;
	}
	return 1;
}

/* The conditions after the registers, in kform.c's order; 1, 0 or -errno. */
static int evaluate_memory(struct eval_ctx *x, const struct policy_rule *r, size_t entry)
{
	unsigned int roles = r->syscall_roles[entry];
	bool wants_flags = r->n_fconds || (roles & ENTRY_ROLES);
	bool addressed_mem = (roles & ENTRY_NET_ADDRESSED) && !x->is_sendto;
	int e;

	if (x->call->nr == SYS_bind &&
	    (r->n_paths || entry_unix_bind_only(roles))) {
		e = evaluate_bind_path(x);
		if (e <= 0)
			return e;
	}
	if (r->n_paths) {
		e = evaluate_paths(x, r, entry);
		if (e <= 0)
			return e;
	}
	if (r->kernel_answer) {
		e = evaluate_kernel_paths(x, r, entry);
		if (e <= 0)
			return e;
	}
	if (x->fsrc == FLAGS_MEM && wants_flags) {
		e = evaluate_fetch_flags(x);
		if (e < 0)
			return e;
		if (!flags_entry_holds(r, roles, x->pc, x->flags))
			return 0;
	}
	if (!net_is_empty(&r->net) && x->is_sendto && x->call->args[4] == 0)
		return 0; /* a NULL address: nothing to read, no address condition holds */
	if (addressed_mem || !net_is_empty(&r->net)) {
		e = evaluate_fetch_sockaddr(x);
		if (e < 0)
			return e;
		if (addressed_mem && x->sa->family == AF_UNSPEC)
			return 0;
		if (!net_is_empty(&r->net) &&
		    !net_holds_call(&r->net, x->sa, x->call->nr, kform_permissive(r)))
			return 0;
	}
	return 1;
}

/* 1: the rule matches; 0: it does not; -errno: memory it needs could not be read. */
static int evaluate_rule(struct eval_ctx *x, const struct policy_rule *r)
{
	size_t entry = evaluate_entry(r, x->call->nr);
	unsigned int roles = r->syscall_roles[entry];
	const uint64_t *args = x->call->args;

	for (size_t i = 0; i < r->n_conds; i++)
		if (!policy_cond_holds(&r->conds[i], args))
			return 0;
	if ((x->fsrc == FLAGS_REG || x->fsrc == FLAGS_CONST) &&
	    (r->n_fconds || (roles & ENTRY_ROLES)) &&
	    !flags_entry_holds(r, roles, x->pc, x->fsrc == FLAGS_REG ? args[x->farg] : x->fconst))
		return 0;
	if ((roles & ENTRY_NET_ADDRESSED) && x->is_sendto && args[4] == 0)
		return 0;
	return evaluate_memory(x, r, entry);
}

/* ---- The walk ---- */

/* The first candidate at or after pos among the rules with path= of class c (index.c). */
static int evaluate_next_path_rule(struct eval_ctx *x, const struct policy_nr_index *ix, int c,
				   size_t *at, size_t pos, size_t *ret)
{
	int key = c; /* class 0 is filtered on path 0, class 1 on path 1, class 2 never */
	int e;

	if (c < 2 && x->path_fetched[key]) {
		if (!x->iters[c]) {
			e = pathset_query(ix->sets[c], x->path[key], &x->iters[c]);
			if (e < 0)
				return e;
		}
		*ret = pathset_iter_next(x->iters[c], pos);
		return 0;
	}
	while (*at < ix->n_cls[c] && ix->cls[c][*at] < pos)
		(*at)++;
	*ret = *at < ix->n_cls[c] ? ix->cls[c][*at] : SIZE_MAX;
	return 0;
}

void evaluate_decide(const struct policy_rule *r, bool is_default, bool consulted,
		     struct policy_decision *ret)
{
	*ret = (struct policy_decision){
		.action = r->action,
		.error = r->action == POLICY_DENY ? r->error : 0,
		.kernel_answer = r->action == POLICY_DENY && r->kernel_answer,
		.value = r->action == POLICY_RETURN ? r->value : 0,
		.line = is_default ? 0 : r->line,
		.file = is_default ? NULL : r->file,
		.path_consulted = consulted,
		.by_path_rule = !is_default && r->n_paths > 0,
	};
}

/*
 * The memory a rule needs could not be read (a bad pointer, a target gone,
 * a path too long): the rule can be neither applied nor skipped safely,
 * since skipping could let a later, wider rule allow what this one denies.
 * Fail closed: deny with EPERM, whatever the rule's own action, blamed on it.
 */
static void evaluate_fail_closed(const struct policy_rule *r, struct policy_decision *ret)
{
	*ret = (struct policy_decision){
		.action = POLICY_DENY,
		.error = EPERM,
		.line = r->line,
		.file = r->file,
		.path_consulted = true,
		.by_path_rule = r->n_paths > 0,
	};
}

static int evaluate_walk(struct eval_ctx *x, struct policy_decision *ret)
{
	const struct policy_nr_index *ix = &x->p->index[x->call->nr];
	size_t plain_at = 0, cls_at[3] = { 0 }, pos = 0;

	for (;;) {
		size_t best = SIZE_MAX, cand;
		int m;

		while (plain_at < ix->n_plain && ix->plain[plain_at] < pos)
			plain_at++;
		if (plain_at < ix->n_plain)
			best = ix->plain[plain_at];
		for (int c = 0; c < 3; c++) {
			if (!ix->n_cls[c])
				continue;
			m = evaluate_next_path_rule(x, ix, c, &cls_at[c], pos, &cand);
			if (m < 0)
				return m;
			if (cand < best)
				best = cand;
		}
		if (best == SIZE_MAX)
			break;
		m = evaluate_rule(x, &x->p->rules[best]);
		if (m < 0) {
			evaluate_fail_closed(&x->p->rules[best], ret);
			return 0;
		}
		if (m > 0) {
			x->by = &x->p->rules[best];
			evaluate_decide(x->by, false, x->consulted, ret);
			return 0;
		}
		pos = best + 1;
	}
	evaluate_decide(&x->p->def, true, x->consulted, ret);
	return 0;
}

/*
 * A move (rename, link) the rules let run must not carry a file across a
 * path pattern (moves.c): refused with EXDEV, blamed on the rule the
 * pattern belongs to. Both paths are read for it; one that cannot be read
 * fails the call closed, as for any rule.
 */
static void evaluate_moves(struct eval_ctx *x, struct policy_decision *ret)
{
	struct policy_decision by;
	bool both;
	int r;

	if ((ret->action != POLICY_ALLOW && ret->action != POLICY_LOG) ||
	    !moves_checked(x->p, x->call->nr))
		return;
	for (int n = 0; n < 2; n++)
		if (evaluate_fetch_path(x, n) < 0) {
			*ret = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM,
							 .line = ret->line, .file = ret->file,
							 .path_consulted = true };
			return;
		}
	ret->path_consulted = true;
	/* RENAME_EXCHANGE moves both names. */
	both = x->pc->flags_arg >= 0 && x->call->nr == SYS_renameat2 &&
	       (x->call->args[x->pc->flags_arg] & RENAME_EXCHANGE);
	r = moves_check(x->p, x->path[0], x->path[1], both, &by);
	if (r == 0)
		return;
	*ret = (struct policy_decision){ .action = POLICY_DENY, .error = r < 0 ? EPERM : EXDEV,
					 .line = r < 0 ? ret->line : by.line,
					 .file = r < 0 ? ret->file : by.file, .path_consulted = true };
}

int policy_evaluate_args(const struct policy *p, const struct policy_call *call,
			 const struct policy_args_ops *ops, void *userdata,
			 struct policy_decision *ret)
{
	struct eval_ctx x = { .p = p, .call = call, .ops = ops, .userdata = userdata, .farg = -1 };
	const struct policy_decision *fixed;
	int r;

	if (!p || !call || !ret || !p->finished || p->failed || !p->index)
		return -EINVAL;
	if (call->nr < 0 || call->nr >= POLICY_NR_MAX) {
		evaluate_decide(&p->def, true, false, ret);
		return 0;
	}
	fixed = policy_fixed_decision(p, call->nr);
	if (fixed) {
		*ret = *fixed;
		return 0;
	}
	x.pc = policy_pathcall_find(call->nr);
	x.fsrc = flags_source_of(x.pc, &x.farg, &x.fconst);
	x.is_sendto = call->nr == SYS_sendto;
	r = evaluate_walk(&x, ret);
	if (r == 0)
		evaluate_moves(&x, ret);
	for (int c = 0; c < 3; c++)
		pathset_iter_free(x.iters[c]);
	return r;
}

const struct policy_decision *policy_fixed_decision(const struct policy *p, int nr)
{
	if (!p || nr < 0 || nr >= POLICY_NR_MAX ||
	    !(p->fixed_bits[nr / 64] & (UINT64_C(1) << (nr % 64))))
		return NULL;
	return &p->fixed[nr];
}

static bool evaluate_lets_run(enum policy_action a)
{
	return a == POLICY_ALLOW || a == POLICY_LOG;
}

bool policy_can_refuse(const struct policy *p, int nr)
{
	if (!p || nr < 0 || nr >= POLICY_NR_MAX || (nr == SYS_listen && policy_listen_binds(p)))
		return true;
	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++)
		if (!evaluate_lets_run(p->rules[p->by_nr[k]].action))
			return true;
	return !p->has_default || !evaluate_lets_run(p->def.action);
}

/*
 * The same decision by the plain walk over every rule naming the syscall,
 * no index: the reference the test suite holds the indexed walk to.
 */
int evaluate_linear(const struct policy *p, const struct policy_call *call,
		    const struct policy_args_ops *ops, void *userdata, struct policy_decision *ret)
{
	struct eval_ctx x = { .p = p, .call = call, .ops = ops, .userdata = userdata, .farg = -1 };

	if (!p || !call || !ret || !p->finished || p->failed)
		return -EINVAL;
	if (call->nr < 0 || call->nr >= POLICY_NR_MAX) {
		evaluate_decide(&p->def, true, false, ret);
		return 0;
	}
	x.pc = policy_pathcall_find(call->nr);
	x.fsrc = flags_source_of(x.pc, &x.farg, &x.fconst);
	x.is_sendto = call->nr == SYS_sendto;
	for (size_t k = p->by_nr_start[call->nr]; k < p->by_nr_start[call->nr + 1]; k++) {
		const struct policy_rule *r = &p->rules[p->by_nr[k]];
		struct kform kf;
		int m;

		kform_build(r, p->by_entry[k], &kf);
		if (kf.kind == KF_FALSE)
			continue;
		m = evaluate_rule(&x, r);
		if (m < 0) {
			evaluate_fail_closed(r, ret);
			return 0;
		}
		if (m > 0) {
			evaluate_decide(r, false, x.consulted, ret);
			evaluate_moves(&x, ret);
			return 0;
		}
	}
	evaluate_decide(&p->def, true, x.consulted, ret);
	evaluate_moves(&x, ret);
	return 0;
}

/* The v1 entry point: one path, through a callback without an index. */
struct evaluate_legacy {
	policy_path_fn get_path;
	void *userdata;
};

static int evaluate_legacy_path(void *userdata, int n, const char **ret_path)
{
	struct evaluate_legacy *l = userdata;

	if (n != 0 || !l->get_path)
		return -ENOSYS;
	return l->get_path(l->userdata, ret_path);
}

int policy_evaluate(const struct policy *p, const struct policy_call *call, policy_path_fn get_path,
		    void *userdata, struct policy_decision *ret)
{
	static const struct policy_args_ops ops = { .path = evaluate_legacy_path };
	struct evaluate_legacy l = { .get_path = get_path, .userdata = userdata };

	return policy_evaluate_args(p, call, &ops, &l, ret);
}

/*
 * The first rule naming the call's syscall that refuses it (deny, kill,
 * return), else the default when it refuses: what stands for "the exec
 * rules refuse something". NULL when nothing refuses.
 */
static const struct policy_rule *evaluate_first_refusal(const struct policy *p, int nr,
							bool *ret_default)
{
	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
		const struct policy_rule *r = &p->rules[p->by_nr[k]];

		if (!r->implicit && !kform_permissive(r) &&
		    kform_kind_of(p, p->by_nr[k], nr) != KF_FALSE) {
			*ret_default = false;
			return r;
		}
	}
	*ret_default = true;
	return kform_permissive(&p->def) ? NULL : &p->def;
}

int policy_evaluate_named(const struct policy *p, const struct policy_call *call,
			  policy_path_fn get_path, void *userdata, struct policy_decision *ret)
{
	struct eval_ctx x = { .p = p, .call = call, .farg = -1, .named = true };
	static const struct policy_args_ops ops = { .path = evaluate_legacy_path };
	struct evaluate_legacy l = { .get_path = get_path, .userdata = userdata };
	const struct policy_rule *refusal;
	bool is_default;
	int r;

	if (!p || !call || !ret || !p->finished || p->failed || !p->index || call->nr < 0 ||
	    call->nr >= POLICY_NR_MAX)
		return -EINVAL;
	x.ops = &ops;
	x.userdata = &l;
	x.pc = policy_pathcall_find(call->nr);
	x.fsrc = flags_source_of(x.pc, &x.farg, &x.fconst);
	r = evaluate_walk(&x, ret);
	for (int c = 0; c < 3; c++)
		pathset_iter_free(x.iters[c]);
	if (r < 0 || (ret->action != POLICY_ALLOW && ret->action != POLICY_LOG) ||
	    (x.by && x.by->n_paths))
		return r;
	/* Let run by a rule that names no path, or the default: not by name. */
	refusal = evaluate_first_refusal(p, call->nr, &is_default);
	if (refusal)
		evaluate_decide(refusal, is_default, true, ret);
	return 0;
}
