/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every fuzz target checks once a policy was accepted (fuzz-common.h).
 *
 * A policy that checks must compile, and then both layers must agree: for
 * a set of calls, the compiled BPF (run in the interpreter of
 * policy/bpf-run.c) either sends the call to the supervisor or gives
 * exactly what policy_evaluate_args decides, without reading memory; the
 * program's notified[] table and policy_syscall_layer() say the same; every
 * rule can be described and introspected. A disagreement aborts, which
 * libFuzzer reports as a crash with the input saved.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "tests/fuzz/fuzz-common.h"
#include "tests/unit/test-policy.h"

static const uint64_t fuzz_values[] = {
	0, 1, 2, 3, 0x40, 0x241, 0xffffffffULL, 0x100000000ULL, ~0ULL, 0x7fffffff,
};

static const char *const fuzz_paths[] = {
	"/etc/shadow", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/", "/tmp/a b", "/proc/1/mem",
};

struct fuzz_call {
	unsigned int seed;
	struct policy_sockaddr sa;
};

static int fuzz_path(void *userdata, int n, const char **ret_path)
{
	const struct fuzz_call *c = userdata;

	*ret_path = fuzz_paths[(c->seed + (unsigned int)n) % (sizeof(fuzz_paths) / sizeof(char *))];
	return 0;
}

static int fuzz_open_flags(void *userdata, uint64_t *ret_flags)
{
	const struct fuzz_call *c = userdata;

	*ret_flags = fuzz_values[c->seed % (sizeof(fuzz_values) / sizeof(uint64_t))];
	return 0;
}

static int fuzz_sockaddr(void *userdata, const struct policy_sockaddr **ret)
{
	const struct fuzz_call *c = userdata;

	*ret = &c->sa;
	return 0;
}

/* What the kernel layer must return for a decision it settles itself. */
static uint32_t fuzz_expected_ret(const struct policy_decision *d)
{
	switch (d->action) {
	case POLICY_ALLOW:
		return SECCOMP_RET_ALLOW;
	case POLICY_DENY:
		return SECCOMP_RET_ERRNO | ((uint32_t)d->error & SECCOMP_RET_DATA);
	case POLICY_KILL:
		return SECCOMP_RET_KILL_PROCESS;
	default:
		return SECCOMP_RET_USER_NOTIF; /* log and return are never settled in the kernel */
	}
}

static void fuzz_one_call(const struct policy *p, const struct policy_program *prog, int nr,
			  unsigned int seed)
{
	static const struct policy_args_ops ops = {
		.path = fuzz_path,
		.open_flags = fuzz_open_flags,
		.sockaddr = fuzz_sockaddr,
	};
	struct fuzz_call c = { .seed = seed, .sa = { .family = 2, .port = 80 } };
	struct policy_call call = { .nr = nr };
	struct seccomp_data sd = { .nr = nr, .arch = seccomp_arch_native() };
	struct policy_decision d;
	uint32_t ret;

	for (int i = 0; i < 6; i++) {
		call.args[i] = fuzz_values[(seed >> (2 * i)) % (sizeof(fuzz_values) / sizeof(uint64_t))];
		sd.args[i] = call.args[i];
	}
	FUZZ_CHECK(policy_evaluate_args(p, &call, &ops, &c, &d) == 0);
	FUZZ_CHECK(policy_bpf_run(&prog->bpf, &sd, &ret) == 0);
	if ((ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF) {
		FUZZ_CHECK(prog->notified[nr]);
		return;
	}
	/* Settled in the kernel: exactly the evaluator's outcome, and no memory needed for it. */
	FUZZ_CHECK(ret == fuzz_expected_ret(&d));
	FUZZ_CHECK(!d.path_consulted);
}

/* Foreign entry points are killed whatever the policy says. */
static void fuzz_foreign(const struct policy_program *prog)
{
	struct seccomp_data sd = { .nr = SYS_getppid, .arch = SCMP_ARCH_X86 };
	uint32_t ret;

	FUZZ_CHECK(policy_bpf_run(&prog->bpf, &sd, &ret) == 0);
	FUZZ_CHECK(ret == SECCOMP_RET_KILL_PROCESS);
	sd = (struct seccomp_data){ .nr = 0x40000000 | SYS_getppid, .arch = seccomp_arch_native() };
	FUZZ_CHECK(policy_bpf_run(&prog->bpf, &sd, &ret) == 0);
	FUZZ_CHECK(ret == SECCOMP_RET_KILL_PROCESS);
}

static void fuzz_introspect(const struct policy *p, const struct policy_program *prog, int nr)
{
	struct policy_rule_info info;
	enum policy_enforcement how;
	enum policy_needs needs;
	enum policy_layer layer;
	char small[8], big[4096];
	bool reached = true; /* no earlier rule matches every call of nr */
	size_t i;
	int r;

	FUZZ_CHECK(policy_syscall_layer(p, prog, nr, &layer) == 0);
	FUZZ_CHECK((layer == POLICY_LAYER_KERNEL) == !prog->notified[nr]);
	for (size_t k = 0; k < policy_syscall_rule_count(p, nr); k++) {
		FUZZ_CHECK(policy_syscall_rule_at(p, nr, k, &i) == 0);
		FUZZ_CHECK(policy_rule_info(p, i, &info) == 0);
		FUZZ_CHECK(!info.is_default && info.line > 0);
		FUZZ_CHECK(policy_rule_needs(p, i, nr, &needs, &how) == 0);
		/*
		 * A rule that needs memory only ever reaches the supervisor, if a
		 * call reaches it at all: one after a rule that matches every
		 * call (`policy check` warns of it) never does.
		 */
		if (reached && needs == POLICY_NEEDS_MEMORY && policy_rule_memory_first(p, i, nr))
			FUZZ_CHECK(prog->notified[nr]);
		if (needs == POLICY_NEEDS_NOTHING)
			reached = false;
		r = policy_rule_describe(p, i, big, sizeof(big));
		FUZZ_CHECK((r >= 0 && (size_t)r == strlen(big)) || r == -ERANGE);
		r = policy_rule_describe(p, i, small, sizeof(small));
		FUZZ_CHECK((r >= 0 || r == -ERANGE) && strlen(small) < sizeof(small));
	}
}

void fuzz_compiled(const struct policy *p)
{
	struct policy_program *prog = NULL;
	int fd;

	/* A checked policy may still be too big for one filter; nothing else may fail. */
	if (policy_compile(p, &prog) < 0)
		return;
	FUZZ_CHECK(prog->bpf.len > 0 && prog->bpf.filter);
	fuzz_foreign(prog);
	for (size_t nr = 0; nr < prog->nr_max; nr++) {
		bool named = policy_syscall_rule_count(p, (int)nr) > 0;

		/* Every named syscall, and a sample of the others (the default). */
		if (!named && nr % 61 != 0)
			continue;
		if (!policy_syscall_name((int)nr))
			continue;
		fuzz_introspect(p, prog, (int)nr);
		for (unsigned int seed = 0; seed < (named ? 24u : 2u); seed++)
			fuzz_one_call(p, prog, (int)nr, seed * 2654435761u);
	}
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		FUZZ_CHECK(policy_export_pfc(p, fd) == 0);
		close(fd);
	}
	policy_program_free(prog);
}


void fuzz_policy_text(const char *name, const char *text, const struct policy_env *env)
{
	struct policy_diags diags = { 0 };
	struct policy *p = policy_new();
	int r;

	if (!p)
		abort();
	if (env)
		FUZZ_CHECK(policy_set_env(p, env) == 0);
	r = policy_parse_text(p, name, text, &diags);
	if (policy_finish(p, &diags) == 0 && r == 0 && diags.errors == 0)
		fuzz_compiled(p);
	else
		FUZZ_CHECK(diags.errors > 0 || r == -ENOMEM);
	policy_diags_free(&diags);
	policy_free(p);
}
