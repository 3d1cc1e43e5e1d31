/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cases of test-policy that tables cannot express: whole tables, files, failure paths. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/policy.h"
#include "tests/unit/test-policy.h"

#ifndef TESTDATA_DIR
#define TESTDATA_DIR "tests/policy"
#endif

/* Every errno number Linux defines has a name, and the name reads back. */
static bool builtin_errno_table(void)
{
	bool ok = true;

	for (int e = 1; e <= 133; e++) {
		const char *name = policy_errno_name(e);

		if (e == 41 || e == 58)
			continue; /* never assigned on Linux */
		if (!name || policy_errno_parse(name) != e) {
			printf("# errno %d: name %s\n", e, name ? name : "NULL");
			ok = false;
		}
	}
	return ok && policy_errno_name(4096) == NULL && policy_errno_parse("4096") == -EINVAL &&
	       policy_errno_parse("0") == -EINVAL && policy_errno_parse("eacces") == -EINVAL;
}

static bool builtin_syscall_names(void)
{
	int named = 0;

	for (int nr = 0; nr < 1024; nr++) {
		const char *name = policy_syscall_name(nr);

		if (!name)
			continue;
		named++;
		if (policy_syscall_resolve(name) != nr) {
			printf("# %d: %s resolves to %d\n", nr, name, policy_syscall_resolve(name));
			return false;
		}
	}
	return named > 300 && policy_syscall_name(-1) == NULL &&
	       policy_syscall_name(100000) == NULL && policy_syscall_resolve("nosuch") == -ENOENT &&
	       policy_syscall_has_path(policy_syscall_resolve("openat")) &&
	       !policy_syscall_has_path(policy_syscall_resolve("read"));
}

/* A backtracking matcher would not come back from these in a human lifetime. */
static bool builtin_glob_pathological(void)
{
	char pat[256] = "/", path[4097] = "/";

	for (int i = 0; i < 40; i++)
		strcat(pat, i % 2 ? "a*" : "a**");
	strcat(pat, "b");
	memset(path + 1, 'a', sizeof(path) - 2);
	path[sizeof(path) - 1] = '\0';
	if (policy_glob_match(pat, path))
		return false;
	path[sizeof(path) - 2] = 'b';
	return policy_glob_match(pat, path);
}

static struct policy *builtin_policy(const char *text, struct policy_diags *diags)
{
	struct policy *p = policy_new();

	if (!p)
		abort();
	if (policy_parse_text(p, "t", text, diags) < 0 || policy_finish(p, diags) < 0) {
		policy_free(p);
		return NULL;
	}
	return p;
}

static bool builtin_file_errors(void)
{
	struct policy_diags d = { 0 };
	struct policy *p = policy_new();
	_cleanup_free_ char *out = NULL;
	size_t size = 0;
	FILE *f;
	bool ok;

	ok = policy_parse_file(p, "/nonexistent/x.policy", &d) == -ENOENT;
	ok = ok && policy_finish(p, &d) == -EINVAL;
	f = open_memstream(&out, &size);
	if (!f)
		abort();
	policy_diags_print(&d, f);
	fclose(f);
	ok = ok && strcmp(out, "/nonexistent/x.policy: error: cannot read: "
			       "No such file or directory\n") == 0;
	/* A failed policy is never used, whatever the caller forgets to check. */
	{
		struct policy_program *prog = NULL;
		struct policy_decision dec;
		struct policy_call call = { .nr = 0 };

		ok = ok && policy_compile(p, &prog) == -EINVAL;
		ok = ok && policy_evaluate(p, &call, NULL, NULL, &dec) == -EINVAL;
		ok = ok && policy_parse_text(p, "late", "allow read\n", &d) == -EBUSY;
	}
	policy_diags_free(&d);
	policy_free(p);
	return ok;
}

/*
 * A fragment meant to be given with another policy (a profile) may leave
 * the default to it; and a policy with path rules on file changes has the
 * core dump gap no filter closes (tests/policy/contrib.table says which).
 */
static size_t builtin_diags_but_default(const struct policy_diags *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++)
		n += !(d->items[i].line == 0 && strstr(d->items[i].message, "no default")) &&
		     !strstr(d->items[i].message, "can dump core where");
	return n;
}

/*
 * Every contrib policy must pass `unotify policy check`: no error, no
 * warning but a missing default or the core dump gap.
 */
static bool builtin_contrib_policies(void)
{
	const char *dir = TESTDATA_DIR "/../../contrib/policies";
	struct dirent **list = NULL;
	int n = scandir(dir, &list, NULL, alphasort), checked = 0;
	bool ok = n > 0;

	for (int i = 0; i < n; i++) {
		struct policy_diags d = { 0 };
		struct policy *p = policy_new();
		char *path = NULL;

		if (fnmatch("*.policy", list[i]->d_name, 0) == 0 &&
		    asprintf(&path, "%s/%s", dir, list[i]->d_name) >= 0) {
			struct policy_program *prog = NULL;

			checked++;
			if (policy_parse_file(p, path, &d) < 0 || policy_finish(p, &d) < 0 ||
			    builtin_diags_but_default(&d) > 0 || policy_compile(p, &prog) < 0) {
				printf("# %s:\n", path);
				policy_diags_print(&d, stdout);
				ok = false;
			}
			policy_program_free(prog);
		}
		free(path);
		policy_diags_free(&d);
		policy_free(p);
		free(list[i]);
	}
	free(list);
	return ok && checked >= 4;
}

static bool builtin_describe_and_pfc(void)
{
	/* No refusal of a call io_uring performs: io-uring is not among the sets. */
	struct policy *p = builtin_policy("default allow\nkill getppid\n", NULL);
	_cleanup_free_ char *out = NULL;
	size_t size = 0;
	char small[8];
	const char *file;
	int line;
	FILE *f;
	bool ok;

	if (!p)
		return false;
	/* Rules 0 to 2 are the implicit sets every policy gets (borrowed-fds, terminal-input). */
	ok = policy_rule_count(p) == 4 &&
	     policy_rule_source(p, 0, &file, &line) == 0 &&
	     strcmp(file, "implicit:borrowed-fds") == 0 &&
	     policy_rule_source(p, 2, &file, &line) == 0 &&
	     strcmp(file, "implicit:terminal-input") == 0 && line == 2 &&
	     policy_rule_describe(p, 3, small, sizeof(small)) == -ERANGE &&
	     strcmp(small, "getppid") == 0 && policy_rule_describe(p, 5, small, 8) == -ENOENT &&
	     policy_rule_source(p, 3, &file, &line) == 0 && strcmp(file, "t") == 0 && line == 2 &&
	     policy_rule_source(p, 4, &file, &line) == 0 && line == 1;
	f = tmpfile();
	ok = ok && f && policy_export_pfc(p, fileno(f)) == 0;
	if (f) {
		fseek(f, 0, SEEK_SET);
		ok = ok && getdelim(&out, &size, '\0', f) > 0 &&
		     strstr(out, "action KILL_PROCESS") && strstr(out, "action ALLOW");
		fclose(f);
	}
	policy_free(p);
	return ok;
}

static int builtin_named_path(void *userdata, const char **ret_path)
{
	*ret_path = userdata;
	return 0;
}

/* policy_evaluate_named of one execve of path: 0 and the action and errno, or -1. */
static int builtin_named(const char *text, const char *path, enum policy_action *ret_action,
			 int *ret_error)
{
	struct policy_diags diags = { 0 };
	struct policy *p = builtin_policy(text, &diags);
	struct policy_call call = { .nr = policy_syscall_resolve("execve") };
	struct policy_decision d;
	int r = -1;

	if (p && policy_evaluate_named(p, &call, builtin_named_path, (void *)path, &d) == 0) {
		*ret_action = d.action;
		*ret_error = d.error;
		r = d.path_consulted ? 0 : -1;
	}
	policy_free(p);
	policy_diags_free(&diags);
	return r;
}

/* The loader run as a program: only an exact name lets it run; else the exec refusal. */
static bool builtin_evaluate_named(void)
{
	static const struct {
		const char *text;
		enum policy_action action;
		int error;
	} cases[] = {
		/* A glob does not cover it: the refusal after it decides. */
		{ "default allow\nallow execve path=/usr/**\ndeny execve EACCES\n", POLICY_DENY,
		  EACCES },
		/* Its exact name does, before or after a glob. */
		{ "default allow\nallow execve path=/usr/** path=/usr/lib/ld.so\ndeny execve\n",
		  POLICY_ALLOW, 0 },
		{ "default allow\nallow execve path=/usr/lib/ld\\.so\ndeny execve EACCES\n",
		  POLICY_ALLOW, 0 },
		/* A refusal by glob still matches. */
		{ "default allow\ndeny execve path=/usr/lib/* ENOENT\n"
		  "allow execve path=/usr/lib/ld.so\n",
		  POLICY_DENY, ENOENT },
		/* A deny-list: the default lets it run, not its name: the first refusal. */
		{ "default allow\ndeny execve path=/tmp/** EROFS\n", POLICY_DENY, EROFS },
		/* The default refuses. */
		{ "default deny EPERM\nallow execve path=/usr/**\n", POLICY_DENY, EPERM },
		/* Nothing refuses an exec: nothing to refuse the loader by. */
		{ "default allow\nallow execve path=/usr/**\n", POLICY_ALLOW, 0 },
		/* A log rule lets it run like an allow, by glob not. */
		{ "default allow\nlog execve path=/usr/**\ndeny execve EACCES\n", POLICY_DENY,
		  EACCES },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		enum policy_action action = POLICY_ALLOW;
		int error = -1;

		if (builtin_named(cases[i].text, "/usr/lib/ld.so", &action, &error) < 0 ||
		    action != cases[i].action || error != cases[i].error) {
			printf("# case %zu: got %s %d\n", i, policy_action_name(action), error);
			return false;
		}
	}
	return true;
}

void builtin_run_all(void (*report)(const char *name, bool ok))
{
	static const struct {
		const char *name;
		bool (*fn)(void);
	} cases[] = {
		{ "builtin: every errno has a name that reads back", builtin_errno_table },
		{ "builtin: syscall names round-trip", builtin_syscall_names },
		{ "builtin: globs are not exponential", builtin_glob_pathological },
		{ "builtin: unreadable file, failed policy unusable", builtin_file_errors },
		{ "builtin: contrib policies check clean", builtin_contrib_policies },
		{ "builtin: describe, source, PFC export", builtin_describe_and_pfc },
		{ "builtin: the loader run as a program needs its exact name",
		  builtin_evaluate_named },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		report(cases[i].name, cases[i].fn());
	random_run_all(report);
}
