/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pattern names a file by its path once resolved, with no symbolic link
 * in it (the supervisor resolves the program's path first): one spelt
 * through a link of this machine (/var/run/docker.sock, where /var/run is
 * a link to /run) never matches, and a literal one naming a link matches
 * the link's own calls (lstat, unlink), not those that follow it. For a
 * rule that stops calls that is a protection silently missing, so `policy
 * check` says so, unless a stopping rule on the same calls covers the name
 * resolved (read-only-system.policy names the trees of /bin and /usr both,
 * for systems where /bin is a directory). What is checked is the literal
 * part of the pattern, before its first glob character, on the machine
 * the check runs on: a policy checked elsewhere may differ ("here").
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

#define LINKS_GLOB "*?[{\\"

/*
 * The first symbolic link among the components of the pattern's literal
 * part (its last one too when the whole pattern is literal): the length
 * of the pattern it ends, the link in ret_link and, when it resolves, the
 * pattern up to there resolved in ret_real (else ""); 0 when none.
 */
static size_t links_find(const char *pattern, char ret_link[PATH_MAX], char ret_real[PATH_MAX])
{
	size_t literal = strcspn(pattern, LINKS_GLOB), end = pattern[literal] ? 0 : literal;
	char part[PATH_MAX];
	struct stat st;

	for (size_t i = 1; i < literal; i++)
		if (pattern[i] == '/')
			end = end > i ? end : i;
	if (pattern[0] != '/' || end == 0 || end >= PATH_MAX)
		return 0;
	for (size_t i = 1; i <= end; i++) {
		if (pattern[i] != '/' && i != end)
			continue;
		memcpy(part, pattern, i);
		part[i] = '\0';
		if (lstat(part, &st) < 0)
			return 0; /* not here: nothing to say */
		if (!S_ISLNK(st.st_mode))
			continue;
		memcpy(ret_link, part, i + 1);
		if (!realpath(part, ret_real))
			ret_real[0] = '\0'; /* dangling here */
		return i;
	}
	return 0;
}

/* The resolved start and the pattern's rest, each glob character as an 'x': a name it means. */
static void links_example(const char *real, const char *rest, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%s", real);

	for (; *rest && n + 1 < size; rest++)
		if (*rest != '*' || rest[1] != '*')
			out[n++] = (*rest == '*' || *rest == '?') ? 'x' : *rest;
	out[n] = '\0';
}

/* Does c stop every call r names? */
static bool links_same_calls(const struct policy_rule *c, const struct policy_rule *r)
{
	for (size_t i = 0; i < r->n_syscalls; i++) {
		bool named = false;

		for (size_t k = 0; k < c->n_syscalls && !named; k++)
			named = c->syscalls[k] == r->syscalls[i];
		if (!named)
			return false;
	}
	return true;
}

/* Does a stopping pattern of the same kind (path= or unix=), on r's calls, match name? */
static bool links_covered(const struct policy *p, const struct policy_rule *r, bool unix_key,
			  const char *name)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *c = &p->rules[i];

		if (c->implicit || !policy_action_stops(c->action) || !links_same_calls(c, r))
			continue;
		for (size_t k = 0; !unix_key && k < c->n_paths; k++)
			if (policy_glob_match(c->paths[k], name))
				return true;
		for (size_t k = 0; unix_key && k < c->net.n_unix; k++)
			if (policy_glob_match(c->net.unix_globs[k], name))
				return true;
	}
	return false;
}

/* Does r name a call that follows a final link (an open, an exec, a connect)? */
static bool links_follows(const struct policy_rule *r)
{
	for (size_t i = 0; i < r->n_syscalls; i++)
		switch (r->syscalls[i]) {
#ifdef SYS_open
		case SYS_open:
#endif
		case SYS_openat:
		case SYS_openat2:
		case SYS_execve:
		case SYS_execveat:
		case SYS_connect:
			return true;
		}
	return false;
}

static int links_check(const struct policy *p, const struct policy_rule *r, const char *key,
		       const char *pattern, struct policy_diags *diags)
{
	char link[PATH_MAX], real[PATH_MAX], example[PATH_MAX], hint[2 * PATH_MAX + 64];
	size_t at = links_find(pattern, link, real);
	const char *rest = pattern + at;

	if (!at || (!*rest && !links_follows(r)))
		return 0; /* none, or a link named for its own calls (unlink, lstat) */
	if (!*real) {
		snprintf(hint, sizeof(hint), "write the name it resolves to");
	} else {
		/* A class or alternatives in the rest: no one name to try, no cover assumed. */
		links_example(real, rest, example, sizeof(example));
		if (strcspn(rest, "[{\\") == strlen(rest) &&
		    links_covered(p, r, strcmp(key, "unix") == 0, example))
			return 0;
		snprintf(hint, sizeof(hint), "write %s=%s%s, the name resolved", key, real, rest);
	}
	if (!*rest)
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col, hint,
				"'%s' is a symbolic link here: a path is matched once resolved, so "
				"%s=%s matches the link's own calls only, not those that follow it",
				link, key, pattern);
	return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col, hint,
			"'%s' is a symbolic link here: a path is matched once resolved, so "
			"%s=%s never matches, and stops nothing",
			link, key, pattern);
}

int check_rule_links(const struct policy *p, const struct policy_rule *r,
		     struct policy_diags *diags)
{
	int e = 0;

	if (r->implicit || !policy_action_stops(r->action))
		return 0;
	for (size_t k = 0; e == 0 && k < r->n_paths; k++)
		e = links_check(p, r, "path", r->paths[k], diags);
	for (size_t k = 0; e == 0 && k < r->net.n_unix; k++)
		if (r->net.unix_globs[k][0] == '/')
			e = links_check(p, r, "unix", r->net.unix_globs[k], diags);
	return e;
}
