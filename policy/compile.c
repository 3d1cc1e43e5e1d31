/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel layer: a libseccomp filter for the native architecture that
 * settles in the kernel every call whose outcome it can state exactly, and
 * sends the others to the supervisor (SCMP_ACT_NOTIFY), which evaluates the
 * whole rule list for them (evaluate.c).
 *
 * Why the split preserves first-match semantics, syscall by syscall. Let
 * R1..Rk be the rules naming syscall S in policy order, U the first
 * unconditional one (later rules never decide S: check.c rejects them), and
 * F the fallback: U's action, or the default when there is no U. The kernel
 * filter's own default action D is the policy default, mapped (allow ->
 * ALLOW, deny E -> ERRNO(E), kill -> KILL_PROCESS, log and return -> NOTIFY,
 * and deny 4095, which libseccomp refuses, -> NOTIFY).
 *
 * 1. R1 unconditional: it decides every call of S. Its kernel action (NOTIFY
 *    for log and return) becomes an unconditional kernel rule (none when it
 *    equals D: the filter default gives the same outcome).
 * 2. R1..Rj conditional, on registers only (no path=), and F's kernel action
 *    equal to D. A call either satisfies some Ri, and the first such Ri
 *    decides it, or satisfies none, and F decides it, which D does. If every
 *    Ri has the same kernel action A, "some Ri holds -> A, else D" is the
 *    exact outcome: the kernel gets one rule per Ri with action A (libseccomp
 *    ORs the rules of a syscall). If their actions differ, or A is NOTIFY,
 *    the rules get action NOTIFY instead: a call some Ri matches goes to the
 *    supervisor, which walks the same list and finds the first Ri; a call
 *    none matches is decided by D = F in the kernel. The comparisons are
 *    libseccomp's full 64-bit ones, which evaluate.c mirrors exactly.
 * 3. Otherwise (a path= rule, which needs the pointed-to memory, or a
 *    fallback the kernel filter cannot express for S alone next to
 *    conditional rules) every call of S goes to the supervisor: an
 *    unconditional NOTIFY rule.
 * Syscalls no rule names get D, which is what the default decides. When
 * libseccomp refuses a case-2 rule set (two comparisons on one argument in
 * one rule, for one), S falls back to case 3, which is always exact.
 *
 * Foreign architectures (i386 and x32 entry points on x86_64) hit the
 * bad-arch action and are killed: a policy written for native numbers says
 * nothing about them.
 */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/util.h"
#include "policy/internal.h"

static void compile_ctx_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

#define _cleanup_ctx_ _cleanup_(compile_ctx_releasep)

static uint32_t compile_kernel_action(const struct policy_rule *r)
{
	switch (r->action) {
	case POLICY_ALLOW:
		return SCMP_ACT_ALLOW;
	case POLICY_DENY:
		/* libseccomp 2.5 refuses ERRNO(4095), which the kernel takes: notify. */
		if (r->error >= 4095)
			break;
		return SCMP_ACT_ERRNO((uint32_t)r->error);
	case POLICY_KILL:
		return SCMP_ACT_KILL_PROCESS;
	case POLICY_LOG:
	case POLICY_RETURN:
		break;
	}
	return SCMP_ACT_NOTIFY;
}

/* What the filter holds for one syscall. */
struct compile_plan {
	enum {
		PLAN_DEFAULT, /* nothing: the filter default decides */
		PLAN_ALL,     /* one unconditional rule with .action */
		PLAN_COND,    /* .action for by_nr[first..end), all conditional on registers */
	} kind;
	uint32_t action;
	size_t first, end;
	bool notified; /* some call of the syscall may reach the supervisor */
};

static const struct policy_rule *compile_rule(const struct policy *p, size_t i)
{
	return &p->rules[p->by_nr[i]];
}

static void compile_plan_all(uint32_t action, uint32_t def, struct compile_plan *plan)
{
	plan->kind = action == def ? PLAN_DEFAULT : PLAN_ALL;
	plan->action = action;
	plan->notified = action == SCMP_ACT_NOTIFY;
}

static void compile_plan_syscall(const struct policy *p, int nr, uint32_t def,
				 struct compile_plan *plan)
{
	size_t begin = p->by_nr_start[nr], end = p->by_nr_start[nr + 1], u;
	uint32_t first_action = compile_kernel_action(compile_rule(p, begin));
	uint32_t fallback = def, action = first_action;
	bool registers_only = true;

	*plan = (struct compile_plan){ .first = begin };
	if (policy_rule_is_unconditional(compile_rule(p, begin))) {
		compile_plan_all(first_action, def, plan); /* case 1 */
		return;
	}
	for (u = begin; u < end; u++)
		if (policy_rule_is_unconditional(compile_rule(p, u))) {
			fallback = compile_kernel_action(compile_rule(p, u));
			break;
		}
	for (size_t i = begin; i < u; i++) {
		if (compile_rule(p, i)->n_paths > 0)
			registers_only = false;
		if (compile_kernel_action(compile_rule(p, i)) != first_action)
			action = SCMP_ACT_NOTIFY;
	}
	if (!registers_only || fallback != def) {
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan); /* case 3 */
		return;
	}
	compile_plan_all(action, def, plan); /* case 2 */
	if (plan->kind == PLAN_ALL)
		plan->kind = PLAN_COND;
	plan->end = u;
	plan->notified = action == SCMP_ACT_NOTIFY || def == SCMP_ACT_NOTIFY;
}

static int compile_add_rule(scmp_filter_ctx ctx, uint32_t action, int nr,
			    const struct policy_rule *r)
{
	static const enum scmp_compare ops[] = {
		[POLICY_CMP_EQ] = SCMP_CMP_EQ,
		[POLICY_CMP_NE] = SCMP_CMP_NE,
		[POLICY_CMP_LT] = SCMP_CMP_LT,
		[POLICY_CMP_LE] = SCMP_CMP_LE,
		[POLICY_CMP_GT] = SCMP_CMP_GT,
		[POLICY_CMP_GE] = SCMP_CMP_GE,
		[POLICY_CMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
	};
	struct scmp_arg_cmp cmp[6];

	/* More than six comparisons means two on one argument: libseccomp 2.5 refuses those. */
	if (r->n_conds > ARRAY_SIZE(cmp))
		return -EINVAL;
	for (size_t i = 0; i < r->n_conds; i++) {
		const struct policy_cond *c = &r->conds[i];

		cmp[i] = (struct scmp_arg_cmp){
			.arg = c->arg,
			.op = ops[c->op],
			.datum_a = c->op == POLICY_CMP_MASKED_EQ ? c->mask : c->value,
			.datum_b = c->op == POLICY_CMP_MASKED_EQ ? c->value : 0,
		};
	}
	return seccomp_rule_add_exact_array(ctx, action, nr, (unsigned int)r->n_conds, cmp);
}

static int compile_add_plan(scmp_filter_ctx ctx, const struct policy *p, int nr,
			    const struct compile_plan *plan)
{
	int r = 0;

	if (plan->kind == PLAN_ALL)
		return seccomp_rule_add_exact(ctx, plan->action, nr, 0);
	for (size_t i = plan->first; plan->kind == PLAN_COND && i < plan->end && r == 0; i++)
		r = compile_add_rule(ctx, plan->action, nr, compile_rule(p, i));
	return r;
}

/* Case 2 is tried on a scratch filter first: libseccomp cannot take back half a rule set. */
static int compile_try_plan(const struct policy *p, int nr, uint32_t def, struct compile_plan *plan)
{
	_cleanup_ctx_ scmp_filter_ctx scratch = NULL;

	if (plan->kind != PLAN_COND)
		return 0;
	scratch = seccomp_init(def);
	if (!scratch)
		return -ENOMEM;
	if (compile_add_plan(scratch, p, nr, plan) < 0)
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
	return 0;
}

static int compile_new_ctx(uint32_t def, scmp_filter_ctx *ret)
{
	scmp_filter_ctx ctx;
	int r;

	ctx = seccomp_init(def);
	if (!ctx)
		/* NOTIFY needs API level 5; libseccomp says so only by failing. */
		return seccomp_api_get() < 5 ? -EOPNOTSUPP : -ENOMEM;
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	/* The spawner sets no_new_privs itself, right before loading. */
	if (r == 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (r < 0) {
		seccomp_release(ctx);
		return r;
	}
	*ret = ctx;
	return 0;
}

/* Builds the filter; notified (POLICY_NR_MAX entries) may be NULL. */
static int compile_build(const struct policy *p, bool *notified, scmp_filter_ctx *ret)
{
	_cleanup_ctx_ scmp_filter_ctx ctx = NULL;
	uint32_t def = compile_kernel_action(&p->def);
	int r;

	r = compile_new_ctx(def, &ctx);
	if (r < 0)
		return r;
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		struct compile_plan plan = { .notified = def == SCMP_ACT_NOTIFY };

		if (p->by_nr_start[nr] < p->by_nr_start[nr + 1]) {
			compile_plan_syscall(p, nr, def, &plan);
			r = compile_try_plan(p, nr, def, &plan);
			if (r == 0)
				r = compile_add_plan(ctx, p, nr, &plan);
			if (r < 0)
				return r;
		}
		if (notified)
			notified[nr] = plan.notified;
	}
	*ret = steal_pointer(&ctx);
	return 0;
}

static int compile_export(scmp_filter_ctx ctx, struct sock_fprog *ret)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ struct sock_filter *insns = NULL;
	off_t size;
	size_t done = 0;
	int r;

	/* libseccomp 2.5 exports to an fd only; a memfd never blocks like a pipe could. */
	fd = memfd_create("unotify-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	r = seccomp_export_bpf(ctx, fd);
	if (r < 0)
		return r;
	size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		return negative_errno();
	if (size == 0 || size % (off_t)sizeof(struct sock_filter))
		return -EIO;
	if (size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS)
		return -E2BIG; /* the kernel refuses longer programs */
	insns = malloc((size_t)size);
	if (!insns)
		return -ENOMEM;
	while (done < (size_t)size) {
		ssize_t n = pread(fd, (char *)insns + done, (size_t)size - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? negative_errno() : -EIO;
		done += (size_t)n;
	}
	ret->len = (unsigned short)(size / (off_t)sizeof(struct sock_filter));
	ret->filter = steal_pointer(&insns);
	return 0;
}

int policy_compile(const struct policy *p, struct policy_program **ret)
{
	_cleanup_ctx_ scmp_filter_ctx ctx = NULL;
	struct policy_program *prog;
	int r;

	if (!p || !ret || !p->finished || p->failed)
		return -EINVAL;
	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return -ENOMEM;
	prog->nr_max = POLICY_NR_MAX;
	prog->notified = calloc(POLICY_NR_MAX, sizeof(bool));
	r = prog->notified ? compile_build(p, prog->notified, &ctx) : -ENOMEM;
	if (r == 0)
		r = compile_export(ctx, &prog->bpf);
	if (r < 0) {
		policy_program_free(prog);
		return r;
	}
	*ret = prog;
	return 0;
}

void policy_program_free(struct policy_program *prog)
{
	if (!prog)
		return;
	free(prog->bpf.filter);
	free(prog->notified);
	free(prog);
}

int policy_export_pfc(const struct policy *p, int fd)
{
	_cleanup_ctx_ scmp_filter_ctx ctx = NULL;
	int r;

	if (!p || fd < 0 || !p->finished || p->failed)
		return -EINVAL;
	r = compile_build(p, NULL, &ctx);
	if (r < 0)
		return r;
	return seccomp_export_pfc(ctx, fd);
}
