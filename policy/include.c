/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * include FILE: the rules of another policy, or of an OCI seccomp profile
 * (JSON), take effect where the include line is, as if written there.
 *
 * A relative FILE is relative to the directory of the including file (the
 * working directory for --rule texts). A file being read cannot be
 * included again from inside itself: that is a cycle, an error naming the
 * chain. A file included a second time elsewhere is read once: its rules
 * already took effect at the first include, above, so a second copy could
 * never decide anything (first match wins).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"
#include "policy/internal.h"

/* Far more than any real layering; a guard against runaway generated files. */
#define INCLUDE_DEPTH_MAX 32

static int include_strv_push(char ***v, size_t *n, const char *s)
{
	char **a = reallocarray(*v, *n + 1, sizeof(char *));

	if (!a)
		return -ENOMEM;
	*v = a;
	a[*n] = strdup(s);
	if (!a[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

void include_pop(struct policy *p)
{
	if (p->include_depth)
		free(p->include_stack[--p->include_depth]);
}

static int include_check(const struct policy *p, const char *canonical)
{
	for (size_t i = 0; i < p->include_depth; i++)
		if (strcmp(p->include_stack[i], canonical) == 0)
			return -EDEADLK;
	if (p->include_depth >= INCLUDE_DEPTH_MAX)
		return -EDEADLK;
	for (size_t i = 0; i < p->n_included; i++)
		if (strcmp(p->included[i], canonical) == 0)
			return -EALREADY;
	return 0;
}

int include_read(struct policy *p, const char *path, bool top, char **ret_text, size_t *ret_len)
{
	_cleanup_free_ char *canonical = realpath(path, NULL);
	_cleanup_fclose_ FILE *f = NULL;
	struct stat st;
	int r;

	if (!canonical)
		return negative_errno();
	r = include_check(p, canonical);
	/* At the top (policy_parse_file), the same file given twice is read twice, as asked. */
	if (r == -EALREADY && top)
		r = 0;
	if (r < 0)
		return r;
	f = fopen(canonical, "re");
	if (!f)
		return negative_errno();
	/* fopen opens a directory; reading it would fail as a bare EIO. */
	if (fstat(fileno(f), &st) < 0)
		return negative_errno();
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	r = policy_read_file(f, ret_text, ret_len);
	if (r < 0)
		return r;
	if (include_strv_push(&p->include_stack, &p->include_depth, canonical) < 0 ||
	    include_strv_push(&p->included, &p->n_included, canonical) < 0) {
		free(*ret_text);
		return -ENOMEM;
	}
	return 0;
}

static const char *include_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* "a.policy -> b.policy -> a.policy", from where the cycle starts. */
static void include_report_cycle(struct parser *ps, const struct lexer_token *t,
				 const char *path)
{
	_cleanup_free_ char *canonical = realpath(path, NULL);
	_cleanup_free_ char *chain = NULL;
	size_t size = 0, start = 0;
	FILE *f;

	for (size_t i = 0; canonical && i < ps->p->include_depth; i++)
		if (strcmp(ps->p->include_stack[i], canonical) == 0)
			start = i;
	f = open_memstream(&chain, &size);
	if (!f) {
		ps->oom = true;
		return;
	}
	/* Base names: the chain reads as the include lines wrote it. */
	for (size_t i = start; i < ps->p->include_depth; i++)
		fprintf(f, "%s -> ", include_base(ps->p->include_stack[i]));
	fprintf(f, "%s", include_base(canonical ? canonical : path));
	fclose(f);
	if (ps->p->include_depth >= INCLUDE_DEPTH_MAX)
		parser_error(ps, t->col, "flatten the includes", "includes nested deeper than %d",
			     INCLUDE_DEPTH_MAX);
	else
		parser_error(ps, t->col, "remove one of the includes", "include cycle: %s",
			     chain ? chain : path);
}

static char *include_resolve(const struct parser *ps, const char *name)
{
	char *path;

	if (name[0] == '/')
		return strdup(name);
	if (asprintf(&path, "%s/%s", ps->dir ? ps->dir : ".", name) < 0)
		return NULL;
	return path;
}

static char *include_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
}

/* The text of an included file into the policy: a nested policy, or a profile. */
static void include_parse_text(struct parser *ps, const char *path, const char *text,
			       size_t len)
{
	_cleanup_free_ char *dir = include_dir_of(path);
	size_t errors = 0;
	int r;

	if (!dir) {
		ps->oom = true;
		return;
	}
	if (profile_is_json(path, text))
		r = profile_parse_text(ps->p, path, text, len, ps->diags, &errors);
	else
		r = parse_text_in(ps->p, path, dir, text, ps->diags, &errors);
	if (r == -ENOMEM)
		ps->oom = true;
	/* The diagnostics name the included file; the count makes this text fail too. */
	ps->errors += errors;
}

void include_parse(struct parser *ps, const struct lexer_line *words)
{
	const struct lexer_token *t = &words->tokens[0];
	_cleanup_free_ char *path = NULL, *text = NULL;
	size_t len;
	int r;

	if (words->count != 2) {
		parser_error(ps, words->count > 2 ? words->tokens[2].col : t->col,
			     "e.g. include base.policy or include docker-default.json",
			     "include takes one file name");
		return;
	}
	path = include_resolve(ps, words->tokens[1].text);
	if (!path) {
		ps->oom = true;
		return;
	}
	r = include_read(ps->p, path, false, &text, &len);
	if (r == -EALREADY)
		return;
	if (r == -EDEADLK) {
		include_report_cycle(ps, &words->tokens[1], path);
		return;
	}
	if (r < 0) {
		parser_error(ps, words->tokens[1].col,
			     words->tokens[1].text[0] == '/'
				     ? NULL
				     : "relative names are relative to the including file",
			     "cannot include '%s': %s", path, strerror(-r));
		return;
	}
	if (memchr(text, '\0', len))
		parser_error(ps, words->tokens[1].col, "a policy is text",
			     "cannot include '%s': it contains a NUL byte", path);
	else
		include_parse_text(ps, path, text, len);
	include_pop(ps->p);
}
