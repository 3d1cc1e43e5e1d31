/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Built-in cases of test-policy that check properties over many inputs:
 * the categories cover the whole path table; the kernel layer and the
 * evaluator agree on every combination of open flags; the indexed walk
 * decides exactly as the plain walk over random policies, memory reads
 * included, and so do the decisions taken once for calls decided on
 * registers alone. Randomness is seeded: every run checks the same cases.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <seccomp.h>

#include "lib/util.h"
#include "policy/internal.h"
#include "tests/unit/test-policy.h"

uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	return xorshift64(&rnd_state);
}

static struct policy *random_build(const char *text, bool quiet)
{
	struct policy_diags d = { 0 };
	struct policy *p = policy_new();

	if (!p)
		abort();
	if (policy_parse_text(p, "r", text, &d) < 0 || policy_finish(p, &d) < 0) {
		if (!quiet) {
			printf("# policy failed:\n%s", text);
			policy_diags_print(&d, stdout);
		}
		policy_free(p);
		p = NULL;
	}
	policy_diags_free(&d);
	return p;
}

/* Every role of every path of every syscall of the table is in its category. */
static bool builtin_categories_cover_table(void)
{
	static const struct {
		const char *name;
		unsigned int role;
	} cats[] = {
		{ "@file-read", POLICY_ROLE_READ },     { "@file-write", POLICY_ROLE_WRITE },
		{ "@file-create", POLICY_ROLE_CREATE }, { "@file-delete", POLICY_ROLE_DELETE },
		{ "@file-exec", POLICY_ROLE_EXEC },     { "@file-stat", POLICY_ROLE_STAT },
		{ "@file-attr", POLICY_ROLE_ATTR },
	};
	const struct policy_pathcall *pc;
	bool ok = true;

	for (size_t c = 0; c < ARRAY_SIZE(cats); c++) {
		int nrs[1024];
		size_t n = 0;

		if (policy_group_expand(cats[c].name, nrs, ARRAY_SIZE(nrs), &n) < 0)
			return false;
		for (size_t i = 0; (pc = policy_pathcall_at(i)); i++) {
			bool want = false, has = false;

			for (int k = 0; k < 2; k++) {
				unsigned int roles = pc->role[k];

				if (!policy_pathcall_has(pc, k))
					continue;
				if (roles == POLICY_ROLE_BY_OPEN_FLAGS) {
					roles = 0;
					for (uint64_t f = 0; f < 0x1000000; f += 0x1001)
						roles |= policy_pathcall_roles(pc, k, f) |
							 policy_pathcall_roles(pc, k, f | 3);
				}
				want |= (roles & cats[c].role) != 0;
			}
			for (size_t j = 0; j < n; j++)
				has |= nrs[j] == pc->nr;
			if (want != has) {
				printf("# %s %s %s\n", cats[c].name, has ? "has" : "lacks", pc->name);
				ok = false;
			}
		}
	}
	return ok;
}

/* The kernel layer and the evaluator agree on open flags, whatever their bits. */
static bool builtin_open_flags_agree(void)
{
	struct policy *p = random_build("default allow\n"
					"log @file-read access=rw flags=O_NOFOLLOW\n"
					"deny @file-create flags=!O_EXCL EEXIST\n"
					"allow @file-read\n"
					"deny @file-write EROFS\n"
					"deny openat flags=O_PATH|O_CLOEXEC EPERM\n",
					false);
	struct policy_program *prog = NULL;
	bool ok = p && policy_compile(p, &prog) == 0;

	for (int i = 0; ok && i < 20000; i++) {
		struct seccomp_data d = { .nr = SYS_openat, .arch = seccomp_arch_native() };
		struct policy_call call = { .nr = SYS_openat };
		struct policy_decision dec = { 0 };
		uint32_t k = 0; /* printed below even when policy_bpf_run failed */

		call.args[2] = i < 4096 ? (uint64_t)i * 0x1041 : rnd();
		if (i % 3 == 0)
			call.args[2] &= 0xffffffffull;
		memcpy(d.args, call.args, sizeof(d.args));
		if (policy_evaluate_args(p, &call, NULL, NULL, &dec) < 0 ||
		    policy_bpf_run(&prog->bpf, &d, &k) < 0)
			ok = false;
		else if ((k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW)
			ok = dec.action == POLICY_ALLOW;
		else if ((k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO)
			ok = dec.action == POLICY_DENY && dec.error == (int)(k & SECCOMP_RET_DATA);
		if (!ok)
			printf("# flags %#llx: kernel %#x, evaluator %s %d\n",
			       (unsigned long long)call.args[2], k, policy_action_name(dec.action),
			       dec.error);
	}
	policy_program_free(prog);
	policy_free(p);
	return ok;
}

static bool builtin_group_names(void)
{
	size_t n;
	const char *bad = groups_unknown_member(&n);

	if (bad)
		printf("# %zu unknown names in the groups, the first: %s\n", n, bad);
	return !bad;
}

/* ---- The index against the plain walk ---- */

static const char *const rnd_patterns[] = {
	"/a/**", "/a/b", "/a/*/c", "/b/**", "/a/b*", "/**", "/c", "/a/b/c", "/b/x?", "/a/\\*",
};
static const char *const rnd_paths[] = {
	"/a/b", "/a/b/c", "/a/x/c", "/b/xy", "/b/x", "/c", "/a/bz", "/d", "/a/*", "/a",
};
static const char *const rnd_targets[] = {
	"openat", "rename", "unlink", "openat2", "@file-read", "@file-write", "@file-create",
	"@file-delete", "renameat2 link", "@file-create @file-delete",
};
static const char *const rnd_actions[] = { "allow", "deny EACCES", "log", "kill", "deny EROFS" };

static void random_rule(FILE *f)
{
	const char *act = rnd_actions[rnd() % ARRAY_SIZE(rnd_actions)];
	char verb[8];

	sscanf(act, "%7s", verb);
	fprintf(f, "%s %s", verb, rnd_targets[rnd() % ARRAY_SIZE(rnd_targets)]);
	if (rnd() % 3 == 0)
		fprintf(f, " arg0==%d", (int)(rnd() % 2));
	if (rnd() % 5 == 0)
		fprintf(f, " access=%s", rnd() % 2 ? "w,rw" : "r");
	for (int k = rnd() % 4 ? (int)(1 + rnd() % 3) : 0; k > 0; k--)
		fprintf(f, " path=%s", rnd_patterns[rnd() % ARRAY_SIZE(rnd_patterns)]);
	fprintf(f, "%s\n", strchr(act, ' ') ? strchr(act, ' ') : "");
}

static void random_call(struct policy_call *call, struct targs *a)
{
	static const int nrs[] = { SYS_openat, SYS_rename, SYS_unlink, SYS_openat2, SYS_renameat2,
				   SYS_link };

	*call = (struct policy_call){ .nr = nrs[rnd() % ARRAY_SIZE(nrs)] };
	*a = (struct targs){ 0 };
	call->args[0] = rnd() % 2;
	call->args[2] = rnd() % 3 ? rnd() % 4 : 0x241;
	for (int n = 0; n < 2; n++) {
		a->has_path[n] = true;
		if (rnd() % 16 == 0)
			a->path_error[n] = EFAULT;
		a->path[n] = rnd_paths[rnd() % ARRAY_SIZE(rnd_paths)];
	}
	a->has_flags = true;
	a->flags = rnd() % 4;
}

bool random_kernel_agrees(const struct policy_program *prog, const struct policy_call *call,
			  const struct policy_decision *d, bool *ret_settled)
{
	struct seccomp_data sd = { .nr = call->nr, .arch = seccomp_arch_native() };
	uint32_t k;

	memcpy(sd.args, call->args, sizeof(sd.args));
	if (policy_bpf_run(&prog->bpf, &sd, &k) < 0)
		return false;
	if (ret_settled)
		*ret_settled = (k & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF;
	switch (k & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		return d->action == POLICY_ALLOW;
	case SECCOMP_RET_KILL_PROCESS:
		return d->action == POLICY_KILL;
	case SECCOMP_RET_ERRNO:
		return d->action == POLICY_DENY && d->error == (int)(k & SECCOMP_RET_DATA);
	case SECCOMP_RET_USER_NOTIF:
		return prog->notified[call->nr];
	}
	return false;
}

static bool random_compare(const struct policy *p, const char *text)
{
	struct policy_program *prog = NULL;
	bool ok = policy_compile(p, &prog) == 0;

	for (int i = 0; ok && i < 300; i++) {
		struct policy_decision d1, d2;
		struct policy_call call;
		struct targs a1, a2;

		random_call(&call, &a1);
		a2 = a1;
		if (policy_evaluate_args(p, &call, &targs_ops, &a1, &d1) < 0 ||
		    evaluate_linear(p, &call, &targs_ops, &a2, &d2) < 0)
			ok = false;
		else if (!random_kernel_agrees(prog, &call, &d1, NULL)) {
			printf("# %s arg0=%llu arg2=%#llx: the kernel layer disagrees with %s\n%s",
			       policy_syscall_name(call.nr), (unsigned long long)call.args[0],
			       (unsigned long long)call.args[2], policy_action_name(d1.action), text);
			ok = false;
		}
		else if (d1.action != d2.action || d1.error != d2.error || d1.line != d2.line ||
		    d1.path_consulted != d2.path_consulted ||
		    memcmp(a1.path_calls, a2.path_calls, sizeof(a1.path_calls)) != 0 ||
		    a1.flags_calls != a2.flags_calls) {
			printf("# %s %s %s: index %s line %d, plain %s line %d\n%s",
			       policy_syscall_name(call.nr), a1.path[0], a1.path[1],
			       policy_action_name(d1.action), d1.line,
			       policy_action_name(d2.action), d2.line, text);
			ok = false;
		}
	}
	policy_program_free(prog);
	return ok;
}

static bool builtin_index_equals_plain_walk(void)
{
	int compared = 0;

	for (int round = 0; round < 1000; round++) {
		_cleanup_free_ char *text = NULL;
		size_t size = 0;
		struct policy *p;
		FILE *f = open_memstream(&text, &size);
		bool ok;

		if (!f)
			abort();
		fprintf(f, "default %s\n", round % 2 ? "allow" : "deny EPERM");
		for (int k = 2 + (int)(rnd() % 30); k > 0; k--)
			random_rule(f);
		fclose(f);
		p = random_build(text, true);
		if (!p)
			continue; /* unreachable rules are errors: draw another */
		ok = random_compare(p, text);
		policy_free(p);
		if (!ok)
			return false;
		compared++;
	}
	printf("# %d random policies compared\n", compared);
	return compared >= 100;
}

/* Rules on calls decided on registers alone, which may take a decision once per policy. */
static const char *const fixed_targets[] = {
	"getppid", "kill", "setuid", "getppid kill", "socket", "connect", "openat", "ioctl",
};
static const char *const fixed_actions[] = { "allow", "deny EACCES", "log", "kill", "return 7",
					     "deny EROFS", "return -13" };
static const int fixed_nrs[] = { SYS_getppid, SYS_kill, SYS_setuid, SYS_socket, SYS_connect,
				 SYS_openat, SYS_ioctl, SYS_getpid };

static void fixed_random_rule(FILE *f)
{
	const char *act = fixed_actions[rnd() % ARRAY_SIZE(fixed_actions)];
	char verb[8];

	sscanf(act, "%7s", verb);
	fprintf(f, "%s %s", verb, fixed_targets[rnd() % ARRAY_SIZE(fixed_targets)]);
	if (rnd() % 3 == 0)
		fprintf(f, " arg0==%d", (int)(rnd() % 2));
	if (rnd() % 4 == 0)
		fprintf(f, " arg1!=%d", (int)(rnd() % 2));
	fprintf(f, "%s\n", strchr(act, ' ') ? strchr(act, ' ') : "");
}

static bool fixed_same(const struct policy_decision *a, const struct policy_decision *b)
{
	return a->action == b->action && a->error == b->error && a->value == b->value &&
	       a->line == b->line && a->kernel_answer == b->kernel_answer &&
	       a->path_consulted == b->path_consulted;
}

/* Each call of nr, with every arg0 and arg1, decides as the plain walk, and as fixed says. */
static bool fixed_compare(const struct policy *p, int nr, const char *text, int *ret_fixed)
{
	const struct policy_decision *fixed = policy_fixed_decision(p, nr);

	if (fixed && (policy_pathcall_find(nr) || net_syscall_has_address(nr))) {
		printf("# %s: a decision taken once for a call with memory\n%s",
		       policy_syscall_name(nr), text);
		return false;
	}
	*ret_fixed += fixed != NULL;
	for (int a = 0; a < 4; a++) {
		struct policy_call call = { .nr = nr, .args = { a & 1, a >> 1 } };
		struct policy_decision d1, d2;
		struct targs a1 = { 0 }, a2 = { 0 };

		if (policy_evaluate_args(p, &call, &targs_ops, &a1, &d1) < 0 ||
		    evaluate_linear(p, &call, &targs_ops, &a2, &d2) < 0)
			return false;
		if (!fixed_same(&d1, &d2) || (fixed && !fixed_same(fixed, &d2))) {
			printf("# %s arg0=%d arg1=%d: %s line %d, plain %s line %d, fixed %s\n%s",
			       policy_syscall_name(nr), a & 1, a >> 1, policy_action_name(d1.action),
			       d1.line, policy_action_name(d2.action), d2.line,
			       fixed ? policy_action_name(fixed->action) : "none", text);
			return false;
		}
	}
	return true;
}

/* Which calls take their decision once, on a policy written for it. */
static bool builtin_fixed_cases(void)
{
	struct policy *p = random_build("return getppid 42\nallow kill arg0==1\ndeny kill EROFS\n"
					"deny setuid arg0==0\nallow openat\ndefault deny EACCES\n",
					false);
	struct policy *open = policy_new();
	const struct policy_decision *d;
	bool ok;

	if (!p || !open)
		abort();
	d = policy_fixed_decision(p, SYS_getppid);
	ok = d && d->action == POLICY_RETURN && d->value == 42 && d->line == 1;
	d = policy_fixed_decision(p, SYS_getpid); /* no rule: the default */
	ok = ok && d && d->action == POLICY_DENY && d->error == EACCES && d->line == 0;
	/* A condition first: every call is walked, even the ones it does not match. */
	ok = ok && !policy_fixed_decision(p, SYS_kill) && !policy_fixed_decision(p, SYS_setuid);
	/* Memory: walked whatever the rules say. */
	ok = ok && !policy_fixed_decision(p, SYS_openat) && !policy_fixed_decision(p, SYS_connect);
	ok = ok && !policy_fixed_decision(p, -1) && !policy_fixed_decision(p, POLICY_NR_MAX);
	/* Not before the policy is finished. */
	ok = ok && policy_parse_text(open, "o", "return getppid 1\n", NULL) == 0 &&
	     !policy_fixed_decision(open, SYS_getppid);
	policy_free(p);
	policy_free(open);
	return ok;
}

static bool builtin_fixed_equals_plain_walk(void)
{
	int compared = 0, fixed = 0;

	for (int round = 0; round < 500; round++) {
		_cleanup_free_ char *text = NULL;
		size_t size = 0;
		struct policy *p;
		FILE *f = open_memstream(&text, &size);
		bool ok = true;

		if (!f)
			abort();
		fprintf(f, "default %s\n", round % 3 == 0 ? "allow" : round % 3 == 1 ? "deny EPERM"
									   : "return 3");
		for (int k = (int)(rnd() % 8); k > 0; k--)
			fixed_random_rule(f);
		fclose(f);
		p = random_build(text, true);
		if (!p)
			continue; /* unreachable rules are errors: draw another */
		for (size_t i = 0; ok && i < ARRAY_SIZE(fixed_nrs); i++)
			ok = fixed_compare(p, fixed_nrs[i], text, &fixed);
		policy_free(p);
		if (!ok)
			return false;
		compared++;
	}
	printf("# %d random policies compared, %d decisions taken once\n", compared, fixed);
	return compared >= 100 && fixed >= 500;
}

void random_run_all(void (*report)(const char *name, bool ok))
{
	report("builtin: the categories cover the path table", builtin_categories_cover_table());
	report("builtin: kernel and evaluator agree on open flags", builtin_open_flags_agree());
	report("builtin: group members are real syscall names", builtin_group_names());
	report("builtin: the path index and the kernel layer decide as the plain walk",
	       builtin_index_equals_plain_walk());
	report("builtin: a decision is taken once only when no argument can change it",
	       builtin_fixed_cases());
	report("builtin: decisions taken once per syscall decide as the plain walk",
	       builtin_fixed_equals_plain_walk());
	report("builtin: the kernel layer decides several register rules of every comparison as "
	       "the evaluator",
	       registers_random_agree());
	report("builtin: Landlock decides as the policy says, on random policies",
	       landlock_random_agree());
	report("builtin: Landlock's TCP ports decide as the policy says, on random policies",
	       landlock_net_random_agree());
}
