/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A pattern names a file by its path once resolved, with no symbolic link
 * in it (the supervisor resolves the program's path first): one spelt
 * through a link of this machine (/var/run/docker.sock, where /var/run is
 * a link to /run) never matches. For a rule that stops calls that is a
 * protection silently missing, so `policy check` says so, unless another
 * stopping pattern covers the name it resolves to (read-only-system.policy
 * names the trees of /bin and /usr both, for systems where /bin is a
 * directory).
 * The check reads the machine it runs on: a policy checked elsewhere may
 * differ, which the warning's "here" says.
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"
#include "policy/internal.h"

static bool links_stops(enum policy_action a)
{
	return a == POLICY_DENY || a == POLICY_KILL || a == POLICY_RETURN;
}

/*
 * The directory of the pattern's literal part (before its first glob
 * character), when one of its components is a symbolic link here: its
 * length, the link in ret_link, the directory with that link resolved in
 * ret_real; else 0.
 */
static size_t links_find(const char *pattern, char ret_link[PATH_MAX], char ret_real[PATH_MAX])
{
	size_t literal = strcspn(pattern, "*?[{\\"), dir = 0;
	char part[PATH_MAX];
	struct stat st;

	for (size_t i = 1; i < literal; i++)
		if (pattern[i] == '/')
			dir = i;
	if (pattern[0] != '/' || dir == 0 || dir >= PATH_MAX)
		return 0;
	for (size_t i = 1; i <= dir; i++) {
		if (pattern[i] != '/' && i != dir)
			continue;
		memcpy(part, pattern, i);
		part[i] = '\0';
		if (lstat(part, &st) < 0)
			return 0; /* not here: nothing to say */
		if (S_ISLNK(st.st_mode)) {
			/* The link resolved, and the rest of the directory as written (it may not exist). */
			if (!realpath(part, ret_real) || strlen(ret_real) + (dir - i) >= PATH_MAX)
				return 0;
			strncat(ret_real, pattern + i, dir - i);
			memcpy(ret_link, part, i + 1);
			return dir;
		}
	}
	return 0;
}

/* The resolved directory and the pattern's rest, each glob character as an 'x': a name it means. */
static void links_example(const char *real, const char *rest, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%s", real);

	for (; *rest && n + 1 < size; rest++)
		if (*rest != '*' || rest[1] != '*')
			out[n++] = (*rest == '*' || *rest == '?') ? 'x' : *rest;
	out[n] = '\0';
}

/* Does a stopping pattern of the same kind (path= or unix=) match name? */
static bool links_covered(const struct policy *p, bool unix_key, const char *name)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];

		if (r->implicit || !links_stops(r->action))
			continue;
		for (size_t k = 0; !unix_key && k < r->n_paths; k++)
			if (policy_glob_match(r->paths[k], name))
				return true;
		for (size_t k = 0; unix_key && k < r->net.n_unix; k++)
			if (policy_glob_match(r->net.unix_globs[k], name))
				return true;
	}
	return false;
}

static int links_check(const struct policy *p, const struct policy_rule *r, const char *key,
		       const char *pattern, struct policy_diags *diags)
{
	char link[PATH_MAX], real[PATH_MAX], example[PATH_MAX], hint[PATH_MAX + 64];
	size_t dir = links_find(pattern, link, real);

	if (!dir || strcspn(pattern + dir, "[{\\") != strlen(pattern + dir))
		return 0;
	links_example(real, pattern + dir, example, sizeof(example));
	if (links_covered(p, strcmp(key, "unix") == 0, example))
		return 0;
	snprintf(hint, sizeof(hint), "write %s=%s%s, the name resolved", key, real, pattern + dir);
	return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col, hint,
			"'%s' is a symbolic link here: a path is matched once resolved, so "
			"%s=%s never matches, and stops nothing",
			link, key, pattern);
}

int check_rule_links(const struct policy *p, const struct policy_rule *r,
		     struct policy_diags *diags)
{
	int e = 0;

	if (r->implicit || !links_stops(r->action))
		return 0;
	for (size_t k = 0; e == 0 && k < r->n_paths; k++)
		e = links_check(p, r, "path", r->paths[k], diags);
	for (size_t k = 0; e == 0 && k < r->net.n_unix; k++)
		if (r->net.unix_globs[k][0] == '/')
			e = links_check(p, r, "unix", r->net.unix_globs[k], diags);
	return e;
}
