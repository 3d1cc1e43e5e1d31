/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `scope abstract-unix signal`: what the program may reach outside its
 * sandbox, beyond what rules say. Landlock (ABI 6) scopes a domain: a
 * process in it may not connect or send to an abstract Unix socket bound
 * by a process outside it, nor signal one (EPERM). No rule can say it:
 * "outside the sandbox" is not a property of a call's registers or of
 * the address it reads (an abstract name says nothing of who bound it),
 * so the supervisor cannot give the same answers, and a kernel without
 * the scope cannot run such a policy: the program is not started (fail
 * closed). The statement only records what is asked; policy/landlock.c
 * sets the scope for the ABI, daemon/cli/run-landlock.c refuses without.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

static const char *const scope_names[] = {
	[0] = "abstract-unix", /* POLICY_SCOPE_ABSTRACT_UNIX */
	[1] = "signal",	       /* POLICY_SCOPE_SIGNAL */
};

void scope_parse(struct parser *ps, const struct lexer_line *words)
{
	if (words->count < 2) {
		parser_error(ps, words->tokens[0].col, "e.g. 'scope abstract-unix signal'",
			     "expected 'scope' and what to scope: abstract-unix, signal");
		return;
	}
	for (size_t i = 1; i < words->count; i++) {
		const struct lexer_token *t = &words->tokens[i];
		unsigned int bit = 0;
		char hint[64];

		for (size_t k = 0; k < ARRAY_SIZE(scope_names); k++)
			if (strcmp(t->text, scope_names[k]) == 0)
				bit = 1u << k;
		if (!bit) {
			const char *near = NULL;

			for (size_t k = 0; k < ARRAY_SIZE(scope_names) && !near; k++)
				if (names_distance(t->text, scope_names[k], 2) <= 2)
					near = scope_names[k];
			snprintf(hint, sizeof(hint), "did you mean '%s'?", near ? near : "");
			parser_error(ps, t->col,
				     near ? hint : "the scopes are abstract-unix, signal",
				     "unknown scope '%s'", t->text);
			continue;
		}
		if (ps->p->scope & bit) {
			parser_warning(ps, t->col, NULL, "scope '%s' is asked twice", t->text);
			continue;
		}
		ps->p->scope |= bit;
		if (!ps->p->scope_file) {
			ps->p->scope_file = ps->file;
			ps->p->scope_line = ps->line;
		}
	}
}

unsigned int policy_scope(const struct policy *p, const char **ret_file, int *ret_line)
{
	if (!p)
		return 0;
	if (ret_file)
		*ret_file = p->scope_file;
	if (ret_line)
		*ret_line = p->scope_line;
	return p->scope;
}

const char *policy_scope_name(unsigned int bit)
{
	for (size_t k = 0; k < ARRAY_SIZE(scope_names); k++)
		if (bit == 1u << k)
			return scope_names[k];
	return NULL;
}
