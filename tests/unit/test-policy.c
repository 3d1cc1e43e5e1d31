/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Data-table tests of the policy language: every .table file of tests/policy
 * (or the files given as arguments). No kernel needed: the kernel layer is
 * run in a classic-BPF interpreter below, on the struct seccomp_data the
 * kernel would build, and must agree with the evaluator on every call it
 * settles. That is the proof that a rule means the same in either layer.
 *
 * Table format, one case per block:
 *
 *   === name of the case
 *   policy:                    (or "policy: NAME", default name test.policy)
 *     default deny EPERM       (policy lines: indented by two blanks)
 *     return getppid 42
 *   file: contrib/policies/demo.policy    (a policy read from the source tree)
 *   check: 2:8: error: ...     (the exact diagnostics, in order, without "test.policy:")
 *   check: none                (no diagnostic at all, not even a warning)
 *   check: ~ 2:1: warning: *   (fnmatch(3) pattern: text that varies with libseccomp)
 *   call: openat arg2=0x41 path=/etc/shadow     (or path=!ENOENT: get_path fails)
 *   call: rename path0=/a path1=/b        (memory: see policy-args.c)
 *   call: connect family=inet addr=10.1.2.3 port=443
 *   call: getppid arch=i386    (arch=i386|x32: only the kernel layer sees it)
 *   env: caps=cap_sys_admin,cap_net_raw kernel=6.18   (policy_set_env, before parsing)
 *   needs: RULE SYSCALL never|nothing|registers|memory [kernel|registers|performed|unsafe]
 *                              (RULE: the author's, from 0; iN: index N, implicit rules first)
 *   group: @NAME has SYSCALL...   group: @NAME lacks SYSCALL...
 *   expect: deny EACCES        (allow | deny ERRNO | kill | log | return N)
 *   layer: kernel              (kernel: the BPF settles it; user: it notifies)
 *   rule: 3                    (the deciding line, 0 for the default)
 *   consulted: yes             (path_consulted)
 *   notified: yes              (program->notified[nr])
 *   describe: 0 openat path=/etc/shadow -> deny EACCES
 *   glob: PATTERN PATH yes|no
 *   apart: PATTERN A B yes|no  (policy_glob_tells_apart, both ways round)
 *   errno: NAME NUMBER [CANONICAL]   (or "errno: NAME invalid"; CANONICAL for aliases)
 *   landlock: ABI              (the Landlock layer for that ABI; the calls after it run
 *                               through the filter built with it, and those the filter
 *                               lets run to Landlock are held to a model of Landlock:
 *                               policy-landlock.c; call word type=dir: the path is one)
 *   decides: opens|exec yes|no   why-not: opens|exec PATTERN (fnmatch)
 *   ruleset: beneath|path PATH RIGHTS...   rules: N   handled: RIGHTS|nothing
 *   notify-rdwr: yes|no
 *
 * In policy lines, names and paths, @DATA@ is the suite's data directory
 * (tests/data: real-world inputs, kept as they are) and @TESTDATA@ this
 * directory (tests/policy).
 * Without check: lines a case must have no error (warnings are allowed).
 * Output is TAP; exit 1 on any failure.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>

#include "lib/util.h"
#include "policy/policy.h"
#include "policy/landlock.h"
#include "tests/unit/test-policy.h"

#ifndef TESTDATA_DIR
#define TESTDATA_DIR "tests/policy"
#endif
#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif
#define X32_SYSCALL_BIT 0x40000000

static int tap_count;
static int tap_failed;

/* ---- A case under test ---- */

struct tcase {
	const char *table;
	int lineno;
	char *name;
	char *texts[8];
	char *text_names[8];
	size_t n_texts;
	char **lines; /* every directive but policy:, in order */
	size_t n_lines;
	bool failed;
	char *skip; /* why the case is skipped */
	struct policy_env env;
	bool has_env;
	/* state while running */
	struct policy *policy;
	struct policy_program *prog;
	struct policy_landlock *ll;
	struct tcall *call;
};

struct tcall {
	struct policy_call call;
	uint32_t arch;
	bool foreign;
	struct targs args;
	uint32_t kernel_ret;
	bool dir;     /* type=dir: the path is a directory (for the Landlock model) */
	bool missing; /* type=new: nothing is there yet (O_CREAT creates it) */
	bool notify; /* the kernel layer sends it to the supervisor */
	struct policy_decision decision;
};

static void fail(struct tcase *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct tcase *c, const char *fmt, ...)
{
	va_list ap;

	c->failed = true;
	printf("# %s:%d: %s: ", c->table, c->lineno, c->name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void tcase_free(struct tcase *c)
{
	free(c->name);
	free(c->skip);
	for (size_t i = 0; i < c->n_texts; i++) {
		free(c->texts[i]);
		free(c->text_names[i]);
	}
	for (size_t i = 0; i < c->n_lines; i++)
		free(c->lines[i]);
	free(c->lines);
	free(c->call);
	policy_program_free(c->prog);
	policy_landlock_free(c->ll);
	policy_free(c->policy);
	*c = (struct tcase){ 0 };
}

static void tap_result(const char *name, bool ok)
{
	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", tap_count, name);
	fflush(stdout);
}

/* ---- Parsing the table ---- */

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static bool parse_num(const char *s, uint64_t *ret)
{
	char *end;

	errno = 0;
	if (s[0] == '-')
		*ret = (uint64_t)strtoll(s, &end, 0);
	else
		*ret = strtoull(s, &end, 0);
	return errno == 0 && end != s && *end == '\0';
}

static int parse_syscall_word(const char *s, int *ret)
{
	uint64_t v;

	if (s[0] >= '0' && s[0] <= '9') {
		if (!parse_num(s, &v))
			return -EINVAL;
		*ret = (int)v;
		return 0;
	}
	*ret = policy_syscall_resolve(s);
	return *ret < 0 ? -EINVAL : 0;
}

static int tcall_parse_word(struct tcase *c, struct tcall *t, char *w)
{
	uint64_t v;

	if (strncmp(w, "arg", 3) == 0 && w[3] >= '0' && w[3] <= '5' && w[4] == '=') {
		if (!parse_num(w + 5, &v))
			return -EINVAL;
		t->call.args[w[3] - '0'] = v;
	} else if (strcmp(w, "arch=i386") == 0) {
		t->arch = AUDIT_ARCH_I386;
		t->foreign = true;
	} else if (strcmp(w, "type=dir") == 0) {
		t->dir = true;
	} else if (strcmp(w, "type=new") == 0) {
		t->missing = true;
	} else if (strcmp(w, "arch=x32") == 0) {
		t->call.nr |= X32_SYSCALL_BIT;
		t->foreign = true;
	} else if (targs_parse_word(&t->args, w) < 0) {
		fail(c, "call: cannot read '%s'", w);
		return -EINVAL;
	}
	return 0;
}

/* ---- Running a call through both layers ---- */

static const char *kernel_ret_name(uint32_t ret, char *buf, size_t size)
{
	uint32_t data = ret & SECCOMP_RET_DATA;

	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		return "allow";
	case SECCOMP_RET_KILL_PROCESS:
		return "kill";
	case SECCOMP_RET_KILL_THREAD:
		return "kill-thread";
	case SECCOMP_RET_USER_NOTIF:
		return "notify";
	case SECCOMP_RET_ERRNO:
		snprintf(buf, size, "deny %s", policy_errno_name((int)data) ?: "?");
		return buf;
	}
	snprintf(buf, size, "0x%08x", ret);
	return buf;
}

static bool kernel_agrees(uint32_t ret, const struct policy_decision *d)
{
	switch (ret & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_ALLOW:
		return d->action == POLICY_ALLOW;
	case SECCOMP_RET_KILL_PROCESS:
		return d->action == POLICY_KILL;
	case SECCOMP_RET_ERRNO:
		return d->action == POLICY_DENY && d->error == (int)(ret & SECCOMP_RET_DATA);
	case SECCOMP_RET_USER_NOTIF:
		return true; /* the supervisor evaluates: the decision is the evaluator's */
	}
	return false;
}

static void tcall_run_kernel(struct tcase *c, struct tcall *t)
{
	struct seccomp_data d = {
		.nr = t->call.nr,
		.arch = t->arch,
		.instruction_pointer = 0x7f0000001000,
	};
	char buf[512];

	memcpy(d.args, t->call.args, sizeof(d.args));
	if (policy_bpf_run(&c->prog->bpf, &d, &t->kernel_ret) < 0) {
		fail(c, "the BPF program is malformed or does not return");
		return;
	}
	t->notify = (t->kernel_ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF;
	if (t->foreign)
		return;
	if (t->notify && (t->call.nr >= (int)c->prog->nr_max || !c->prog->notified[t->call.nr]))
		fail(c, "the kernel notifies %s but notified[] says it never does",
		     policy_syscall_name(t->call.nr));
	/*
	 * Let run to the Landlock layer: Landlock decides, as the policy says.
	 * Execs go to the supervisor first (the loader run as a program), then
	 * to Landlock: both must agree.
	 */
	if (c->ll && policy_landlock_decides(c->ll, t->call.nr) &&
	    ((t->kernel_ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW ||
	     policy_landlock_family_of(t->call.nr) == POLICY_LANDLOCK_EXEC)) {
		int f = policy_landlock_family_of(t->call.nr);

		if (f == POLICY_LANDLOCK_CONNECT || f == POLICY_LANDLOCK_BIND) {
			if (!t->args.has_sa)
				fail(c, "a connect or bind Landlock decides needs an address");
			else if (landlock_agrees_net(c->ll, &t->call, &t->args.sa, &t->decision,
						     buf, sizeof(buf)) < 0)
				fail(c, "%s", buf);
			return;
		}
		if (!t->args.has_path[0])
			fail(c, "a call Landlock decides needs a path=");
		else if (landlock_agrees(c->ll, &t->call, t->args.path[0], t->dir, t->missing,
					 &t->decision, buf, sizeof(buf)) < 0)
			fail(c, "%s", buf);
		return;
	}
	if (!kernel_agrees(t->kernel_ret, &t->decision))
		fail(c, "layers disagree: kernel %s, evaluator %s",
		     kernel_ret_name(t->kernel_ret, buf, sizeof(buf)),
		     policy_action_name(t->decision.action));
}

static void tcase_call(struct tcase *c, char *args)
{
	struct tcall *t;
	char *w, *save = NULL;
	int r;

	free(c->call);
	c->call = t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->arch = seccomp_arch_native();
	w = strtok_r(args, " \t", &save);
	if (!w || parse_syscall_word(w, &t->call.nr) < 0) {
		fail(c, "call: unknown syscall '%s'", w ? w : "");
		return;
	}
	while ((w = strtok_r(NULL, " \t", &save)))
		if (tcall_parse_word(c, t, w) < 0)
			return;
	if (!c->prog) {
		fail(c, "call: no compiled policy");
		return;
	}
	if (!t->foreign) {
		const char *misuse;

		r = policy_evaluate_args(c->policy, &t->call, &targs_ops, &t->args, &t->decision);
		if (r < 0)
			fail(c, "policy_evaluate_args: %s", strerror(-r));
		misuse = targs_misuse(&t->args);
		if (misuse)
			fail(c, "%s", misuse);
	}
	tcall_run_kernel(c, t);
}

/* The outcome, as "deny EACCES", "return 42"...; foreign calls: the kernel's. */
static void tcall_outcome(const struct tcall *t, char *buf, size_t size)
{
	const struct policy_decision *d = &t->decision;
	const char *name;
	char tmp[64];

	if (t->foreign) {
		snprintf(buf, size, "%s", kernel_ret_name(t->kernel_ret, tmp, sizeof(tmp)));
		return;
	}
	name = policy_errno_name(d->error);
	if (d->action == POLICY_DENY && name)
		snprintf(buf, size, "deny %s", name);
	else if (d->action == POLICY_DENY)
		snprintf(buf, size, "deny %d", d->error);
	else if (d->action == POLICY_RETURN)
		snprintf(buf, size, "return %" PRId64, d->value);
	else
		snprintf(buf, size, "%s", policy_action_name(d->action));
}

static bool yes_no(struct tcase *c, const char *s, bool *ret)
{
	if (strcmp(s, "yes") == 0 || strcmp(s, "no") == 0) {
		*ret = s[0] == 'y';
		return true;
	}
	fail(c, "expected yes or no, not '%s'", s);
	return false;
}

static void tcase_expect_call(struct tcase *c, const char *key, const char *val)
{
	struct tcall *t = c->call;
	char got[64];
	bool want;

	if (!t) {
		fail(c, "%s: before any call:", key);
		return;
	}
	if (strcmp(key, "expect") == 0) {
		tcall_outcome(t, got, sizeof(got));
		if (strcmp(got, val) != 0)
			fail(c, "expected '%s', got '%s'", val, got);
	} else if (strcmp(key, "layer") == 0) {
		const char *layer = t->notify ? "user" : "kernel";

		if (strcmp(layer, val) != 0)
			fail(c, "expected layer %s, got %s", val, layer);
	} else if (strcmp(key, "rule") == 0) {
		if (atoi(val) != t->decision.line)
			fail(c, "expected rule %s, got %d", val, t->decision.line);
	} else if (strcmp(key, "consulted") == 0) {
		if (yes_no(c, val, &want) && want != t->decision.path_consulted)
			fail(c, "path_consulted is %d", t->decision.path_consulted);
	} else if (strcmp(key, "notified") == 0) {
		bool is = t->call.nr >= 0 && (size_t)t->call.nr < c->prog->nr_max &&
			  c->prog->notified[t->call.nr];

		if (yes_no(c, val, &want) && want != is)
			fail(c, "notified[%d] is %d", t->call.nr, is);
	}
}

static void tcase_describe(struct tcase *c, char *val)
{
	char buf[512], *text = val + strcspn(val, " \t");
	unsigned long i;
	int r;

	if (!c->policy) {
		fail(c, "describe: no policy");
		return;
	}
	i = directive_rule_index(c->policy, val);
	text = trim(text);
	r = policy_rule_describe(c->policy, i, buf, sizeof(buf));
	if (r < 0)
		fail(c, "policy_rule_describe(%lu): %s", i, strerror(-r));
	else if (strcmp(buf, text) != 0 || (size_t)r != strlen(text))
		fail(c, "rule %lu described as '%s', expected '%s'", i, buf, text);
}

static void tcase_glob(struct tcase *c, char *val)
{
	char *save = NULL, *pat = strtok_r(val, " \t", &save);
	char *path = strtok_r(NULL, " \t", &save), *want = strtok_r(NULL, " \t", &save);
	bool w;

	if (!pat || !path || !want || !yes_no(c, want, &w)) {
		fail(c, "glob: expected PATTERN PATH yes|no");
		return;
	}
	if (policy_glob_match(pat, path) != w)
		fail(c, "glob '%s' on '%s': expected %s", pat, path, want);
}

static void tcase_apart(struct tcase *c, char *val)
{
	char *save = NULL, *pat = strtok_r(val, " \t", &save);
	char *a = strtok_r(NULL, " \t", &save), *b = strtok_r(NULL, " \t", &save);
	char *want = strtok_r(NULL, " \t", &save);
	bool w;

	if (!pat || !a || !b || !want || !yes_no(c, want, &w)) {
		fail(c, "apart: expected PATTERN A B yes|no");
		return;
	}
	if (policy_glob_tells_apart(pat, a, b) != w)
		fail(c, "'%s' tells '%s' from '%s': expected %s", pat, a, b, want);
	if (policy_glob_tells_apart(pat, b, a) != w)
		fail(c, "'%s' tells '%s' from '%s' (swapped): expected %s", pat, b, a, want);
}

static void tcase_errno(struct tcase *c, char *val)
{
	char *save = NULL, *name = strtok_r(val, " \t", &save), *num = strtok_r(NULL, " \t", &save);
	const char *canonical = strtok_r(NULL, " \t", &save);
	int got, want;

	if (!name || !num) {
		fail(c, "errno: expected NAME NUMBER");
		return;
	}
	got = policy_errno_parse(name);
	want = strcmp(num, "invalid") == 0 ? -EINVAL : atoi(num);
	if (got != want)
		fail(c, "policy_errno_parse(%s) = %d, expected %s", name, got, num);
	if (!canonical)
		canonical = name;
	if (want > 0 && name[0] == 'E' && strcmp(policy_errno_name(want) ?: "", canonical) != 0)
		fail(c, "policy_errno_name(%d) = %s", want, policy_errno_name(want) ?: "NULL");
}

/* ---- Building the policy and comparing diagnostics ---- */

static int diags_lines(const struct policy_diags *d, const char *strip, char ***ret, size_t *ret_n)
{
	_cleanup_free_ char *buf = NULL;
	size_t size = 0, n = 0, plen = strlen(strip);
	char **lines = NULL, *line, *save = NULL;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return -ENOMEM;
	policy_diags_print(d, f);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char **l = reallocarray(lines, n + 1, sizeof(char *));

		if (!l)
			abort();
		lines = l;
		if (strncmp(line, strip, plen) == 0 && line[plen] == ':')
			line += plen + 1 + (line[plen + 1] == ' ');
		lines[n++] = strdup(line);
	}
	*ret = lines;
	*ret_n = n;
	return 0;
}

/* "check: ~ PATTERN" matches with fnmatch (for text that depends on the libseccomp version). */
static bool check_line_matches(const char *want, const char *got)
{
	if (strncmp(want, "~ ", 2) == 0)
		return fnmatch(want + 2, got, 0) == 0;
	return strcmp(want, got) == 0;
}

static void tcase_check_diags(struct tcase *c, const struct policy_diags *d)
{
	char **got = NULL;
	size_t n_got = 0, n_want = 0, k = 0;
	bool none = false;

	diags_lines(d, c->n_texts ? c->text_names[0] : "", &got, &n_got);
	for (size_t i = 0; i < c->n_lines; i++) {
		if (strncmp(c->lines[i], "check:", 6) != 0)
			continue;
		n_want++;
		if (strcmp(trim(c->lines[i] + 6), "none") == 0) {
			none = true;
			continue;
		}
		if (k >= n_got || !check_line_matches(trim(c->lines[i] + 6), got[k]))
			fail(c, "diagnostic %zu: expected '%s', got '%s'", k + 1,
			     trim(c->lines[i] + 6), k < n_got ? got[k] : "(nothing)");
		k++;
	}
	if (none && n_got > 0)
		fail(c, "expected no diagnostics, got '%s'", got[0]);
	if (n_want == 0 && d->errors > 0)
		fail(c, "unexpected errors, the first: '%s'", got[0]);
	for (; n_want && !none && k < n_got; k++)
		fail(c, "unexpected diagnostic '%s'", got[k]);
	for (size_t i = 0; i < n_got; i++)
		free(got[i]);
	free(got);
}

static void tcase_build(struct tcase *c)
{
	struct policy_diags diags = { 0 };
	int r;

	c->policy = policy_new();
	if (!c->policy)
		abort();
	if (c->has_env)
		policy_set_env(c->policy, &c->env);
	for (size_t i = 0; i < c->n_texts; i++)
		(void)policy_parse_text(c->policy, c->text_names[i], c->texts[i], &diags);
	r = policy_finish(c->policy, &diags);
	if ((r < 0) != (diags.errors > 0))
		fail(c, "policy_finish returned %d with %zu errors", r, diags.errors);
	tcase_check_diags(c, &diags);
	if (r == 0) {
		r = policy_compile(c->policy, &c->prog);
		if (r < 0)
			fail(c, "policy_compile: %s", strerror(-r));
	}
	policy_diags_free(&diags);
}

static void tcase_env(struct tcase *c, char *val)
{
	char bad[128];

	c->has_env = true;
	if (directive_env(val, &c->env, bad, sizeof(bad)) < 0)
		fail(c, "env: %s", bad);
}

/* env: acts before the policy is built. */
static void tcase_prepare(struct tcase *c)
{
	for (size_t i = 0; i < c->n_lines; i++) {
		char *line = c->lines[i];

		if (strncmp(line, "env:", 4) == 0) {
			_cleanup_free_ char *val = strdup(line + 4);

			tcase_env(c, trim(val));
		}
	}
}

static void tcase_needs(struct tcase *c, char *val)
{
	char bad[160];

	if (!c->policy)
		fail(c, "needs: no policy");
	else if (directive_needs(c->policy, val, bad, sizeof(bad)) < 0)
		fail(c, "%s", bad);
}

static void tcase_group(struct tcase *c, char *val)
{
	char bad[160];

	if (directive_group(val, bad, sizeof(bad)) < 0)
		fail(c, "%s", bad);
}

/* landlock: ABI: the layer, and the filter built with it for the calls after. */
static void tcase_landlock(struct tcase *c, char *val)
{
	int r;

	if (!c->policy || !c->prog) {
		fail(c, "landlock: no compiled policy");
		return;
	}
	policy_landlock_free(steal_pointer(&c->ll));
	r = policy_landlock_build(c->policy, atoi(val), &c->ll);
	if (r == 0) {
		policy_program_free(steal_pointer(&c->prog));
		r = policy_compile_landlock(c->policy, c->ll, &c->prog);
	}
	if (r < 0)
		fail(c, "the Landlock layer: %s", strerror(-r));
}

static bool tcase_is_landlock_key(const char *key)
{
	static const char *const keys[] = {"decides", "why-not", "ruleset",    "rules",
					   "handled", "ports",	 "notify-rdwr"};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

static void tcase_directive(struct tcase *c, const char *key, char *val)
{
	char bad[512];

	if (strcmp(key, "check") == 0 || strcmp(key, "env") == 0)
		;
	else if (strcmp(key, "landlock") == 0)
		tcase_landlock(c, val);
	else if (tcase_is_landlock_key(key)) {
		if (directive_landlock(c->ll, key, val, bad, sizeof(bad)) < 0)
			fail(c, "%s", bad);
	}
	else if (strcmp(key, "call") == 0)
		tcase_call(c, val);
	else if (strcmp(key, "describe") == 0)
		tcase_describe(c, val);
	else if (strcmp(key, "glob") == 0)
		tcase_glob(c, val);
	else if (strcmp(key, "apart") == 0)
		tcase_apart(c, val);
	else if (strcmp(key, "errno") == 0)
		tcase_errno(c, val);
	else if (strcmp(key, "needs") == 0)
		tcase_needs(c, val);
	else if (strcmp(key, "group") == 0)
		tcase_group(c, val);
	else if (strcmp(key, "expect") == 0 || strcmp(key, "layer") == 0 ||
		 strcmp(key, "rule") == 0 || strcmp(key, "consulted") == 0 ||
		 strcmp(key, "notified") == 0)
		tcase_expect_call(c, key, val);
	else
		fail(c, "unknown directive '%s'", key);
}

static void tcase_run(struct tcase *c)
{
	tcase_prepare(c);
	if (c->skip) {
		tap_count++;
		printf("ok %d - %s # SKIP %s\n", tap_count, c->name, c->skip);
		return;
	}
	if (c->n_texts)
		tcase_build(c);
	for (size_t i = 0; i < c->n_lines && !c->failed; i++) {
		char *line = c->lines[i], *colon = strchr(line, ':');

		if (!colon) {
			fail(c, "cannot read '%s'", line);
			break;
		}
		*colon = '\0';
		tcase_directive(c, line, trim(colon + 1));
		*colon = ':';
	}
	tap_result(c->name, !c->failed);
}

/* ---- Reading table files ---- */

/* @SHARED@ and @TESTDATA@ replaced by the directories. */
static char *subst(const char *in)
{
	static const struct {
		const char *key;
		const char *val;
	} vars[] = { { "@DATA@", DATA_DIR }, { "@TESTDATA@", TESTDATA_DIR } };
	char *out = strdup(in);

	for (size_t v = 0; out && v < ARRAY_SIZE(vars); v++) {
		char *at;

		while ((at = strstr(out, vars[v].key))) {
			char *n;

			*at = '\0';
			if (asprintf(&n, "%s%s%s", out, vars[v].val, at + strlen(vars[v].key)) < 0)
				abort();
			free(out);
			out = n;
		}
	}
	if (!out)
		abort();
	return out;
}

static void table_add_text(struct tcase *c, const char *name)
{
	if (c->n_texts == ARRAY_SIZE(c->texts)) {
		fail(c, "too many policy: blocks");
		return;
	}
	c->text_names[c->n_texts] = subst(*name ? name : "test.policy");
	c->texts[c->n_texts++] = strdup("");
}

static void table_add_policy_line(struct tcase *c, const char *raw)
{
	char *t = c->texts[c->n_texts - 1], *n;
	_cleanup_free_ char *line = subst(raw);

	if (asprintf(&n, "%s%s\n", t, line) < 0)
		abort();
	free(t);
	c->texts[c->n_texts - 1] = n;
}

static void table_add_line(struct tcase *c, const char *line)
{
	char **l = reallocarray(c->lines, c->n_lines + 1, sizeof(char *));

	if (!l)
		abort();
	c->lines = l;
	c->lines[c->n_lines++] = subst(line);
}

/* file: PATH, relative to the top of the source tree: a policy text read from a file. */
static void table_add_file(struct tcase *c, const char *rel)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	size_t size = 0;

	if (asprintf(&path, "%s/../../%s", TESTDATA_DIR, rel) < 0)
		abort();
	f = fopen(path, "re");
	if (!f || getdelim(&text, &size, '\0', f) < 0) {
		fail(c, "file: cannot read %s", path);
		return;
	}
	table_add_text(c, strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);
	free(c->texts[c->n_texts - 1]);
	c->texts[c->n_texts - 1] = steal_pointer(&text);
}

/* One line of a table; in_policy says whether indented lines belong to a policy: block. */
static void table_line(struct tcase *c, char *raw, bool *in_policy)
{
	char *line = trim(raw);

	if (*in_policy && strncmp(raw, "  ", 2) == 0) {
		table_add_policy_line(c, raw + 2);
		return;
	}
	*in_policy = false;
	if (*line == '\0' || *line == '#')
		return;
	if (strncmp(line, "file:", 5) == 0) {
		table_add_file(c, trim(line + 5));
		return;
	}
	if (strncmp(line, "policy:", 7) == 0) {
		table_add_text(c, trim(line + 7));
		*in_policy = true;
		return;
	}
	table_add_line(c, line);
}

static void table_run(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *raw = NULL;
	struct tcase c = { 0 };
	bool in_policy = false;
	size_t size = 0;
	int lineno = 0;

	if (!f) {
		printf("# %s: %s\n", path, strerror(errno));
		tap_result(path, false);
		return;
	}
	while (getline(&raw, &size, f) > 0) {
		lineno++;
		raw[strcspn(raw, "\n")] = '\0';
		if (strncmp(raw, "===", 3) == 0) {
			if (c.name)
				tcase_run(&c);
			tcase_free(&c);
			c.table = path;
			c.lineno = lineno;
			c.name = strdup(trim(raw + 3));
			in_policy = false;
		} else if (c.name) {
			table_line(&c, raw, &in_policy);
		}
	}
	if (c.name)
		tcase_run(&c);
	tcase_free(&c);
}

static int table_filter(const struct dirent *e)
{
	return fnmatch("*.table", e->d_name, 0) == 0;
}

static void tables_run_dir(const char *dir)
{
	struct dirent **list = NULL;
	int n = scandir(dir, &list, table_filter, alphasort);

	if (n <= 0) {
		printf("# no tables in %s\n", dir);
		tap_result("tables found", false);
		return;
	}
	for (int i = 0; i < n; i++) {
		char *path;

		if (asprintf(&path, "%s/%s", dir, list[i]->d_name) < 0)
			abort();
		printf("# %s\n", path);
		table_run(path);
		free(path);
		free(list[i]);
	}
	free(list);
}

int random_share(void)
{
	const char *s = getenv("UNOTIFY_TEST_RANDOM_SHARE");
	int n = s ? atoi(s) : 1;

	return n >= 1 && n <= 100 ? n : 1;
}

int main(int argc, char **argv)
{
	/*
	 * valgrind does not know seccomp(2): libseccomp then believes the
	 * kernel lacks NOTIFY and KILL_PROCESS (API level 1). Nothing is loaded
	 * here, so tell it the level of the kernels unotify needs.
	 */
	if (seccomp_api_get() < 5) {
		printf("# libseccomp API level %u (seccomp(2) unavailable, valgrind?): using 6\n",
		       seccomp_api_get());
		seccomp_api_set(6);
	}
	if (argc > 1)
		for (int i = 1; i < argc; i++)
			table_run(argv[i]);
	else
		tables_run_dir(TESTDATA_DIR);
	builtin_run_all(tap_result);
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
