/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several rules of one syscall on registers, with every comparison: the
 * kernel layer must decide each call as the evaluator does (or send it up).
 * libseccomp 2.5 ORs such rules into one tree and got some wrong (round
 * 16's review: `deny socket arg0==2` next to `deny socket arg0!=16
 * arg1==3` let socket(AF_INET, SOCK_STREAM) run); compile-verify.c checks
 * what it made, or keeps such sets from it. Random sets of 2 to 4 rules
 * with one action, conditions on three arguments, constants at the edges
 * of 32 and 64 bits, and calls at, around and between them. Seeded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"
#include "tests/unit/test-policy.h"

static uint64_t regs_state = 0x9e3779b97f4a7c15ull;

static uint64_t regs_rnd(void)
{
	return xorshift64(&regs_state);
}

static const uint64_t regs_values[] = {
	0, 1, 2, 3, 10, 16, 0x7fffffff, 0xffffffff, 0x100000000ull, 0x100000005ull,
	0xffffffff00000000ull, ~0ull,
};

static const char *const regs_ops[] = { "==", "!=", "<", "<=", ">", ">=" };

static uint64_t regs_value(void)
{
	return regs_values[regs_rnd() % ARRAY_SIZE(regs_values)];
}

/*
 * One rule: 1 or 2 conditions on distinct arguments among 0 to 2; with
 * one_arg, one condition on argument 0, no mask (the sets compile-verify.c
 * checks rather than keeps from libseccomp).
 */
static void regs_rule(FILE *f, const char *verb, const char *ending, bool one_arg)
{
	unsigned int first = one_arg ? 0 : (unsigned int)(regs_rnd() % 3);
	unsigned int n = one_arg ? 1 : 1 + (unsigned int)(regs_rnd() % 2);

	fprintf(f, "%s getpriority", verb);
	for (unsigned int k = 0; k < n; k++) {
		unsigned int arg = (first + k) % 3;

		if (!one_arg && regs_rnd() % 6 == 0)
			fprintf(f, " arg%u&0x%llx==0x%llx", arg, (unsigned long long)regs_value(),
				(unsigned long long)(regs_value() & 0xff));
		else
			fprintf(f, " arg%u%s0x%llx", arg, regs_ops[regs_rnd() % ARRAY_SIZE(regs_ops)],
				(unsigned long long)regs_value());
	}
	fprintf(f, "%s\n", ending);
}

/* A call's argument: a constant of the set, or one next to it. */
static uint64_t regs_arg(void)
{
	uint64_t v = regs_value();

	switch (regs_rnd() % 3) {
	case 0:
		return v - 1;
	case 1:
		return v + 1;
	}
	return v;
}

/* One random set; false on a disagreement (printed). built[verb] counts those that built. */
static bool regs_one(char *text, size_t size, size_t *settled, size_t built[3])
{
	static const char *const verbs[] = { "deny", "kill", "allow" };
	bool deny_default = regs_rnd() % 3 == 0, one_arg = regs_rnd() % 2, ok = true;
	size_t verb = deny_default ? 2 : regs_rnd() % 2;
	struct policy_program *prog = NULL;
	struct policy_diags diags = { 0 };
	struct policy *p = policy_new();
	FILE *f = fmemopen(text, size, "w");
	unsigned int rules = 2 + regs_rnd() % 3;

	if (!f || !p)
		abort();
	fprintf(f, "default %s\n", deny_default ? "deny EPERM" : "allow");
	for (unsigned int i = 0; i < rules; i++)
		regs_rule(f, verbs[verb], verb == 0 ? " EACCES" : "", one_arg);
	fclose(f);
	/* A rule no call can reach is an error: not a case. */
	if (policy_parse_text(p, "r", text, &diags) < 0 || policy_finish(p, &diags) < 0 ||
	    policy_compile(p, &prog) < 0)
		goto out;
	built[verb]++;
	for (int i = 0; ok && i < 400; i++) {
		struct policy_call call = { .nr = SYS_getpriority };
		struct policy_decision d = { 0 };
		struct targs a = { 0 };
		bool in_kernel;

		for (int k = 0; k < 3; k++)
			call.args[k] = regs_arg();
		if (policy_evaluate_args(p, &call, &targs_ops, &a, &d) < 0 ||
		    !random_kernel_agrees(prog, &call, &d, &in_kernel)) {
			printf("# getpriority(%#llx, %#llx, %#llx): the kernel layer disagrees with "
			       "%s\n%s",
			       (unsigned long long)call.args[0], (unsigned long long)call.args[1],
			       (unsigned long long)call.args[2], policy_action_name(d.action), text);
			ok = false;
		}
		*settled += in_kernel;
	}
out:
	policy_program_free(prog);
	policy_diags_free(&diags);
	policy_free(p);
	return ok;
}

bool registers_random_agree(void)
{
	int share = random_share(), policies = 3000 / share;
	size_t settled = 0, built[3] = { 0 };
	char text[1024];

	for (int k = 0; k < policies; k++)
		if (!regs_one(text, sizeof(text), &settled, built))
			return false;
	printf("# of %d random register rule sets, built: %zu of deny rules, %zu of kill, %zu of "
	       "allow; %zu calls settled in the kernel\n",
	       policies, built[0], built[1], built[2], settled);
	/* Each action's sets are built (a rule spelt wrong would leave them all out). */
	for (size_t v = 0; v < 3; v++)
		if (built[v] * (size_t)share < 200)
			return false;
	return settled * (size_t)share > 100000;
}
