/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel layer: a libseccomp filter for the native architecture that
 * settles in the kernel every call whose outcome it can state exactly, and
 * sends the others to the supervisor (SCMP_ACT_NOTIFY), which evaluates the
 * whole rule list for them (evaluate.c).
 *
 * Why the split preserves first-match semantics, syscall by syscall. Let
 * R1..Rk be the rules naming syscall S in policy order that can match a
 * call of S (kform.c: a rule that never can, say @file-write with access=r
 * on creat, is left out, as the evaluator leaves it out), U the first
 * unconditional one (KF_TRUE; later rules never decide S: check.c rejects
 * them), and
 * F the fallback: U's action, or the default when there is no U. The kernel
 * filter's own default action D is the policy default, mapped (allow ->
 * ALLOW, deny E -> ERRNO(E), kill -> KILL_PROCESS, log and return -> NOTIFY,
 * and deny 4095, which libseccomp refuses, -> NOTIFY).
 *
 * 1. R1 unconditional: it decides every call of S. Its kernel action (NOTIFY
 *    for log and return) becomes an unconditional kernel rule (none when it
 *    equals D: the filter default gives the same outcome).
 * 2. R1..Rj conditional (KF_REGS: argN conditions, and open flags in a
 *    register, membership of opens and sendto in their categories, access=,
 *    flags=, each as a few terms (flags & m) == v, one libseccomp rule per
 *    term; or KF_MEMORY, whose register part is a necessary condition:
 *    a call that fails it cannot match), and F's kernel action
 *    equal to D. A call either satisfies some Ri, and the first such Ri
 *    decides it, or satisfies none, and F decides it, which D does. If every
 *    Ri has the same kernel action A, "some Ri holds -> A, else D" is the
 *    exact outcome: the kernel gets one rule per Ri with action A (libseccomp
 *    ORs the rules of a syscall). If their actions differ, or A is NOTIFY,
 *    or some Ri needs memory, the rules get action NOTIFY instead (with
 *    only the register part of a memory rule): a call some Ri may match goes to the
 *    supervisor, which walks the same list and finds the first Ri; a call
 *    none matches is decided by D = F in the kernel. The comparisons are
 *    libseccomp's full 64-bit ones, which evaluate.c mirrors exactly.
 * 3. Otherwise (a
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

#include "lib/creds-calls.h"
#include "lib/util.h"
#include "policy/compile-verify.h"
#include "policy/internal.h"
#include "policy/landlock.h"

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
		if (r->error >= 4095 || r->kernel_answer)
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

static const struct policy_rule *compile_rule(const struct policy *p, size_t k)
{
	return &p->rules[p->by_nr[k]];
}

static void compile_kform(const struct policy *p, size_t k, struct kform *kf)
{
	kform_build(compile_rule(p, k), p->by_entry[k], kf);
}

static void compile_plan_all(uint32_t action, uint32_t def, struct compile_plan *plan)
{
	plan->kind = action == def ? PLAN_DEFAULT : PLAN_ALL;
	plan->action = action;
	plan->notified = action == SCMP_ACT_NOTIFY;
}

static bool compile_has_register_part(const struct policy_rule *r, const struct kform *kf)
{
	return r->n_conds || kf->n_terms || kf->addressed;
}

/*
 * The rules of nr that can match one of its calls (kform.c: rules that can
 * never match are skipped), against the three cases above; "unconditional"
 * is KF_TRUE, "registers only" KF_REGS.
 */
static void compile_plan_syscall(const struct policy *p, int nr, uint32_t def,
				 struct compile_plan *plan)
{
	size_t begin = p->by_nr_start[nr], end = p->by_nr_start[nr + 1], u, first = end;
	uint32_t fallback = def, action = 0;
	bool sends_all = false;
	struct kform kf;

	*plan = (struct compile_plan){ .first = begin, .notified = def == SCMP_ACT_NOTIFY };
	for (u = begin; u < end; u++) {
		compile_kform(p, u, &kf);
		if (kf.kind == KF_FALSE)
			continue;
		if (first == end) {
			first = u;
			action = compile_kernel_action(compile_rule(p, u));
		}
		if (kf.kind == KF_TRUE) {
			fallback = compile_kernel_action(compile_rule(p, u));
			break;
		}
		/* Memory is the supervisor's: the filter sends what meets the register part. */
		if (kf.kind == KF_MEMORY ||
		    compile_kernel_action(compile_rule(p, u)) != action)
			action = SCMP_ACT_NOTIFY;
		/* No register part at all: every call goes up (and libseccomp 2.5 leaks
		 * when an unconditional rule joins conditional ones). */
		sends_all |= kf.kind == KF_MEMORY && !compile_has_register_part(compile_rule(p, u), &kf);
	}
	if (first == end)
		return; /* no rule can match: the default decides, as the filter default does */
	if (u == first) {
		compile_plan_all(fallback, def, plan); /* case 1 */
		return;
	}
	if (fallback != def || sends_all) {
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan); /* case 3 */
		return;
	}
	compile_plan_all(action, def, plan); /* case 2 */
	if (plan->kind == PLAN_ALL)
		plan->kind = PLAN_COND;
	plan->first = first;
	plan->end = u;
	plan->notified = action == SCMP_ACT_NOTIFY || def == SCMP_ACT_NOTIFY;
}

/*
 * A move (rename, link) the policy lets run is checked against its path
 * patterns in the supervisor (moves.c): no call of it may be allowed in the
 * kernel. A plan that could (an allow, or a default allow for the calls
 * the rules leave) sends every call up instead, which case 3 always may.
 */
static void compile_plan_moves(const struct policy *p, int nr, uint32_t def,
			       struct compile_plan *plan)
{
	bool allows;

	if (!moves_checked(p, nr))
		return;
	switch (plan->kind) {
	case PLAN_DEFAULT:
		allows = def == SCMP_ACT_ALLOW;
		break;
	case PLAN_ALL:
		allows = plan->action == SCMP_ACT_ALLOW;
		break;
	default:
		allows = plan->action == SCMP_ACT_ALLOW || def == SCMP_ACT_ALLOW;
		break;
	}
	if (allows)
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
}

static const enum scmp_compare compile_ops[] = {
	[POLICY_CMP_EQ] = SCMP_CMP_EQ,	       [POLICY_CMP_NE] = SCMP_CMP_NE,
	[POLICY_CMP_LT] = SCMP_CMP_LT,	       [POLICY_CMP_LE] = SCMP_CMP_LE,
	[POLICY_CMP_GT] = SCMP_CMP_GT,	       [POLICY_CMP_GE] = SCMP_CMP_GE,
	[POLICY_CMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
};

static int compile_chains_push(struct compile_chains *ch, const struct compile_chain *c)
{
	struct compile_chain *items = reallocarray(ch->items, ch->n + 1, sizeof(*items));

	if (!items)
		return -ENOMEM;
	ch->items = items;
	ch->items[ch->n++] = *c;
	return 0;
}

/* The chains of one rule: its register part, once per flags term. -EINVAL: too many. */
static int compile_rule_chains(const struct policy_rule *r, const struct kform *kf,
			       struct compile_chains *out)
{
	size_t terms = kf->n_terms ? kf->n_terms : 1;
	struct compile_chain base = { .n = 0 };

	/* More than six comparisons means two on one argument: libseccomp 2.5 refuses those. */
	if (r->n_conds + (kf->addressed ? 1 : 0) + (kf->n_terms ? 1 : 0) > 6)
		return -EINVAL;
	for (size_t i = 0; i < r->n_conds; i++) {
		const struct policy_cond *c = &r->conds[i];

		base.cmp[base.n++] = (struct scmp_arg_cmp){
			.arg = c->arg,
			.op = compile_ops[c->op],
			.datum_a = c->op == POLICY_CMP_MASKED_EQ ? c->mask : c->value,
			.datum_b = c->op == POLICY_CMP_MASKED_EQ ? c->value : 0,
		};
	}
	if (kf->addressed)
		base.cmp[base.n++] = (struct scmp_arg_cmp){ .arg = 4, .op = SCMP_CMP_NE };
	for (size_t t = 0; t < terms; t++) {
		struct compile_chain *c = reallocarray(out->items, out->n + 1, sizeof(*c));

		if (!c)
			return -ENOMEM;
		out->items = c;
		c[out->n] = base;
		if (kf->n_terms)
			c[out->n].cmp[c[out->n].n++] = (struct scmp_arg_cmp){
				.arg = (unsigned int)kf->flags_arg,
				.op = SCMP_CMP_MASKED_EQ,
				.datum_a = kf->terms[t].mask,
				.datum_b = kf->terms[t].value,
			};
		out->n++;
	}
	return 0;
}

/* Does a hold whenever b does (every comparison of a is one of b's)? */
static bool compile_chain_covers(const struct compile_chain *a, const struct compile_chain *b)
{
	for (unsigned int i = 0; i < a->n; i++) {
		bool found = false;

		for (unsigned int j = 0; j < b->n && !found; j++)
			found = memcmp(&a->cmp[i], &b->cmp[j], sizeof(a->cmp[i])) == 0;
		if (!found)
			return false;
	}
	return true;
}

/* Is chain i left out because another holds whenever it does? */
static bool compile_chain_redundant(const struct compile_chains *ch, size_t i)
{
	for (size_t j = 0; j < ch->n; j++)
		if (j != i && compile_chain_covers(&ch->items[j], &ch->items[i]) &&
		    (!compile_chain_covers(&ch->items[i], &ch->items[j]) || j < i))
			return true;
	return false;
}

/* Adds the chains (compile_plan_chains), all with one action. */
static int compile_add_chains(scmp_filter_ctx ctx, uint32_t action, int nr,
			      const struct compile_chains *ch)
{
	int r = 0;

	for (size_t i = 0; i < ch->n && r == 0; i++)
		r = seccomp_rule_add_exact_array(ctx, action, nr, ch->items[i].n, ch->items[i].cmp);
	return r;
}

/*
 * The chains of a PLAN_COND plan, leaving out those another covers: the
 * same calls, a smaller filter, and libseccomp 2.5 leaks memory when a
 * wider chain joins a narrower one of the same syscall. ret empty: none.
 */
static int compile_plan_chains(const struct policy *p, const struct compile_plan *plan,
			       struct compile_chains *ret)
{
	struct compile_chains all = { 0 };
	int r = 0;

	*ret = (struct compile_chains){ 0 };
	for (size_t k = plan->first; plan->kind == PLAN_COND && k < plan->end && r == 0; k++) {
		struct kform kf;

		compile_kform(p, k, &kf);
		if (kf.kind == KF_REGS || kf.kind == KF_MEMORY)
			r = compile_rule_chains(compile_rule(p, k), &kf, &all);
	}
	for (size_t i = 0; i < all.n && r == 0; i++)
		if (!compile_chain_redundant(&all, i))
			r = compile_chains_push(ret, &all.items[i]);
	free(all.items);
	if (r < 0) {
		free(ret->items);
		*ret = (struct compile_chains){ 0 };
	}
	return r;
}

static int compile_add_plan(scmp_filter_ctx ctx, const struct policy *p, int nr,
			    const struct compile_plan *plan)
{
	struct compile_chains ch;
	int r;

	if (plan->kind == PLAN_ALL)
		return seccomp_rule_add_exact(ctx, plan->action, nr, 0);
	r = compile_plan_chains(p, plan, &ch);
	if (r == 0 && ch.n)
		r = compile_add_chains(ctx, plan->action, nr, &ch);
	free(ch.items);
	return r;
}

static int compile_export(scmp_filter_ctx ctx, struct sock_fprog *ret);

/*
 * Does libseccomp compile the plan's chains as they say? Sets it may get
 * wrong are compiled and checked, or not given to it at all
 * (compile-verify.c). 0 when it does; ENOMEM aside, the plan must change.
 */
static int compile_check_plan(const struct policy *p, int nr, uint32_t def,
			      const struct compile_plan *plan)
{
	_cleanup_ctx_ scmp_filter_ctx scratch = NULL;
	struct sock_fprog prog = { 0 };
	struct compile_chains ch;
	enum compile_chains_trust trust = CHAINS_REFUSE;
	int r = compile_plan_chains(p, plan, &ch);

	if (r == 0)
		trust = compile_chains_trust(&ch);
	if (r == 0 && trust == CHAINS_REFUSE)
		r = -EDOM;
	if (r == 0) {
		scratch = seccomp_init(def);
		r = scratch ? compile_add_chains(scratch, plan->action, nr, &ch) : -ENOMEM;
	}
	if (r == 0 && trust == CHAINS_CHECK) {
		r = compile_export(scratch, &prog);
		if (r == 0)
			r = compile_chains_check(&ch, &prog, nr, plan->action, def);
	}
	free(prog.filter);
	free(ch.items);
	return r;
}

/*
 * Case 2 is tried on a scratch filter first: libseccomp cannot take back
 * half a rule set. A set it refuses, or would compile otherwise than the
 * rules say, sends every call of the syscall to the supervisor (case 3).
 */
static int compile_try_plan(const struct policy *p, int nr, uint32_t def, struct compile_plan *plan)
{
	if (plan->kind == PLAN_COND && compile_check_plan(p, nr, def, plan) < 0)
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
	return 0;
}

/* May the plan let some call of its syscall run in the kernel, unseen? */
static bool compile_plan_may_run(const struct compile_plan *plan, uint32_t def)
{
	return plan->kind == PLAN_DEFAULT ? def == SCMP_ACT_ALLOW
	       : plan->action == SCMP_ACT_ALLOW ||
			 (plan->kind == PLAN_COND && def == SCMP_ACT_ALLOW);
}

/*
 * A listen on a socket never bound binds it: where the policy decides
 * binds, a listen it lets run goes to the supervisor, which decides that
 * bind (policy_listen_binds).
 */
static void compile_plan_listen(const struct policy *p, int nr, uint32_t def,
				struct compile_plan *plan)
{
	if (nr == SYS_listen && compile_plan_may_run(plan, def) && policy_listen_binds(p))
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
}

/* The plan for nr, whether rules name it or not. */
static int compile_plan_of(const struct policy *p, int nr, uint32_t def, struct compile_plan *plan)
{
	int r = 0;

	*plan = (struct compile_plan){ .notified = def == SCMP_ACT_NOTIFY };
	if (p->by_nr_start[nr] < p->by_nr_start[nr + 1]) {
		compile_plan_syscall(p, nr, def, plan);
		r = compile_try_plan(p, nr, def, plan);
	}
	compile_plan_moves(p, nr, def, plan);
	compile_plan_listen(p, nr, def, plan);
	return r;
}

bool compile_syscall_sends_all(const struct policy *p, int nr)
{
	uint32_t def = compile_kernel_action(&p->def);
	struct compile_plan plan;

	if (compile_plan_of(p, nr, def, &plan) < 0)
		return true;
	if (plan.kind == PLAN_DEFAULT)
		return def == SCMP_ACT_NOTIFY;
	return plan.kind == PLAN_ALL && plan.action == SCMP_ACT_NOTIFY;
}

bool compile_syscall_in_kernel(const struct policy *p, int nr)
{
	uint32_t def = compile_kernel_action(&p->def);
	struct compile_plan plan;

	if (compile_plan_of(p, nr, def, &plan) < 0)
		return false;
	return plan.kind == PLAN_DEFAULT ? def != SCMP_ACT_NOTIFY : plan.action != SCMP_ACT_NOTIFY;
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

/*
 * With the Landlock layer (landlock-compile.c): a call the program's kernel
 * would check against the ruleset, which the policy may let run, must reach
 * the supervisor, which performs it outside the sandbox.
 */
static void compile_plan_landlock(const struct policy_landlock *ll, int nr, uint32_t def,
				  struct compile_plan *plan)
{
	if (ll && compile_plan_may_run(plan, def) && landlock_forces_notify(ll, nr))
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
}

bool policy_watches_creds(const struct policy *p)
{
	return p && implicit_is_on(p, "fixed-view");
}

/*
 * With fixed-view, the filter also notifies every call that changes a
 * thread's credentials wherever the policy lets it run (lib/creds-calls.h):
 * the supervisor keeps what a thread is between its calls and must see
 * what makes that stale. It lets them run as the policy says (the
 * supervisor evaluates the same rules); one round trip per change.
 */
static bool compile_watches(const struct policy *p, int nr)
{
	return creds_call(nr) && policy_watches_creds(p);
}

static void compile_plan_watch(const struct policy *p, int nr, uint32_t def,
			       struct compile_plan *plan)
{
	if (compile_watches(p, nr) && compile_plan_may_run(plan, def))
		compile_plan_all(SCMP_ACT_NOTIFY, def, plan);
}

/* Builds the filter; notified (POLICY_NR_MAX entries) may be NULL; ll too. */
static int compile_build(const struct policy *p, const struct policy_landlock *ll, bool *notified,
			 scmp_filter_ctx *ret)
{
	_cleanup_ctx_ scmp_filter_ctx ctx = NULL;
	uint32_t def = compile_kernel_action(&p->def);
	int r;

	r = compile_new_ctx(def, &ctx);
	if (r < 0)
		return r;
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		struct compile_plan plan;

		/* A watched call Landlock would decide is the supervisor's, by the same rules. */
		if (ll && policy_landlock_decides(ll, nr) && !compile_watches(p, nr)) {
			r = landlock_compile_syscall(ctx, ll, nr, def, &plan.notified);
		} else {
			r = compile_plan_of(p, nr, def, &plan);
			compile_plan_landlock(ll, nr, def, &plan);
			compile_plan_watch(p, nr, def, &plan);
			if (r == 0 && plan.kind != PLAN_DEFAULT)
				r = compile_add_plan(ctx, p, nr, &plan);
		}
		if (r < 0)
			return r;
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
	return policy_compile_landlock(p, NULL, ret);
}

int policy_compile_landlock(const struct policy *p, const struct policy_landlock *ll,
			    struct policy_program **ret)
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
	r = prog->notified ? compile_build(p, ll, prog->notified, &ctx) : -ENOMEM;
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
	return policy_export_pfc_landlock(p, NULL, fd);
}

int policy_export_pfc_landlock(const struct policy *p, const struct policy_landlock *ll, int fd)
{
	_cleanup_ctx_ scmp_filter_ctx ctx = NULL;
	int r;

	if (!p || fd < 0 || !p->finished || p->failed)
		return -EINVAL;
	r = compile_build(p, ll, NULL, &ctx);
	if (r < 0)
		return r;
	return seccomp_export_pfc(ctx, fd);
}
