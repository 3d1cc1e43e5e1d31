/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Implicit rules: what a policy with path or network rules needs so that
 * those rules cannot be walked around with calls they do not name. A path
 * rule names files by where they are; a program that changes its root or
 * its mounts, opens files by handle or makes a device node of a disk,
 * reaches the same files under names no rule knows. An address rule reads
 * the address of connect and sendto; a raw or packet socket writes its own
 * headers, and io_uring performs opens and connects no filter ever sees.
 *
 * Each set (implicit-sets.c) is policy text, parsed as a file of its own named
 * "implicit:NAME" and put before every rule of the policy (first match
 * wins: nothing the author wrote undoes it by accident), when the policy
 * has the rules the set guards. So the rules are ordinary rules: the
 * kernel layer settles them (register conditions only), `policy explain`
 * lists them, the audit trail names them (rule=implicit:fixed-view:2).
 * `implicit NAME off` turns a set off; `policy check` then warns that the
 * rules it guarded can be walked around, naming the first of them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/implicit-sets.h"
#include "policy/internal.h"

static int implicit_find(const char *name)
{
	for (size_t i = 0; i < (size_t)POLICY_IMPLICIT_SETS; i++)
		if (strcmp(implicit_sets[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

/* `implicit NAME off`. */
void implicit_parse(struct parser *ps, const struct lexer_line *words)
{
	const struct lexer_token *t = &words->tokens[0];
	struct policy_implicit_off *off;
	char hint[512];
	bool near = false;
	size_t len = 0;
	int i;

	if (words->count != 3 || strcmp(words->tokens[2].text, "off") != 0) {
		parser_error(ps, words->count > 2 ? words->tokens[2].col : t->col,
			     "e.g. 'implicit fixed-view off'", "expected 'implicit NAME off'");
		return;
	}
	t = &words->tokens[1];
	i = implicit_find(t->text);
	if (i < 0) {
		for (size_t k = 0; k < (size_t)POLICY_IMPLICIT_SETS; k++)
			if (names_distance(t->text, implicit_sets[k].name, 2) <= 2) {
				snprintf(hint, sizeof(hint), "did you mean '%s'?",
					 implicit_sets[k].name);
				near = true;
				break;
			}
		/* snprintf's count may pass the end: the loop stops there, never writing past it. */
		for (size_t k = 0; !near && k < (size_t)POLICY_IMPLICIT_SETS && len < sizeof(hint); k++)
			len += (size_t)snprintf(hint + len, sizeof(hint) - len, "%s%s",
						k ? ", " : "the sets are ", implicit_sets[k].name);
		parser_error(ps, t->col, hint, "unknown implicit rule set '%s'", t->text);
		return;
	}
	off = &ps->p->implicit_off[i];
	if (off->file) {
		parser_warning(ps, t->col, NULL, "implicit rule set '%s' is turned off twice",
			       t->text);
		return;
	}
	*off = (struct policy_implicit_off){ .file = ps->file, .line = ps->line, .col = t->col };
}

/* ---- What the policy has that the sets guard ---- */

/* The first rule (of the author's) with what the set guards, or NULL. */
static const struct policy_rule *implicit_guarded(const struct policy *p,
						  const struct implicit_set *s)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];

		if (r->implicit)
			continue;
		if ((s->guards & GUARDS_ANY) || (s->guards & implicit_rule_guards(r)))
			return r;
	}
	if (implicit_default_guards(p) & s->guards)
		return &p->def;
	/* Any policy at all: a sandbox with no rule still reaches unotifyd's listeners. */
	return (s->guards & GUARDS_ANY) ? &p->def : NULL;
}

/* ---- Adding them ---- */

/* One rule as a policy line, without the syscalls this architecture lacks; "" when none is left. */
static void implicit_line(const struct implicit_rule *ir, FILE *f)
{
	_cleanup_free_ char *names = strdup(ir->syscalls);
	char *save = NULL;
	size_t n = 0;
	int nr;

	if (!names)
		return;
	for (char *w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (names_lookup_syscall(w, &nr) == 0)
			fprintf(f, "%s %s", n++ ? "" : "deny", w);
	if (n)
		fprintf(f, " %s", ir->rest);
	fputc('\n', f);
}

static int implicit_text(const struct implicit_set *s, char **ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(s->rules) && s->rules[i].syscalls; i++)
		implicit_line(&s->rules[i], f);
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	*ret = text;
	return 0;
}

/* Parses set s at the end of the rules; its text is ours, so any diagnostic is a bug here. */
static int implicit_parse_set(struct policy *p, const struct implicit_set *s)
{
	struct policy_diags diags = { 0 };
	_cleanup_free_ char *text = NULL, *name = NULL;
	size_t errors = 0, first = p->n_rules;
	int r;

	if (asprintf(&name, "implicit:%s", s->name) < 0)
		return -ENOMEM;
	r = implicit_text(s, &text);
	if (r == 0)
		r = parse_text_in(p, name, NULL, text, &diags, &errors);
	if (r == 0 && (errors || diags.count))
		r = -EINVAL;
	policy_diags_free(&diags);
	for (size_t i = first; i < p->n_rules; i++)
		p->rules[i].implicit = p->rules[i].generated = true;
	return r;
}

/* Moves the last n rules before the others: first match wins, theirs first. */
static int implicit_rotate(struct policy *p, size_t n)
{
	_cleanup_free_ struct policy_rule *tmp = NULL;
	size_t keep = p->n_rules - n;

	if (!n || !keep)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, p->rules + keep, n * sizeof(*tmp));
	memmove(p->rules + n, p->rules, keep * sizeof(*tmp));
	memcpy(p->rules, tmp, n * sizeof(*tmp));
	return 0;
}

/* A set turned off while the policy has what it guards: say what can now be walked around. */
static int implicit_warn_off(const struct implicit_set *s, const struct policy_implicit_off *off,
			     const struct policy_rule *by, struct policy_diags *diags)
{
	if (!by)
		return diag_add(diags, POLICY_WARNING, off->file, off->line, off->col,
				"remove this line", "implicit rule set '%s' is not in effect anyway: "
				"the policy has no %s rules", s->name,
				s->guards & GUARDS_AIO ? "io_submit-reachable"
				: s->guards & GUARDS_URING ? "path, network or io_uring-reachable"
				: s->guards & GUARDS_PATHS ? "path" : "network");
	if (s->guards & GUARDS_ANY)
		return diag_add(diags, POLICY_WARNING, off->file, off->line, off->col,
				"remove this line unless the program must; see IMPLICIT RULES in "
				"unotify.policy(5)",
				"implicit rule set '%s' turned off: %s", s->name, s->gap);
	return diag_add(diags, POLICY_WARNING, off->file, off->line, off->col,
			"remove this line unless the program must; see IMPLICIT RULES in "
			"unotify.policy(5)",
			"implicit rule set '%s' turned off: %s, so the rule at %s:%d (and any like "
			"it) can be walked around", s->name, s->gap, by->file, by->line);
}

int implicit_add(struct policy *p, struct policy_diags *diags)
{
	size_t before = p->n_rules;
	int r;

	for (size_t i = 0; i < (size_t)POLICY_IMPLICIT_SETS; i++) {
		const struct implicit_set *s = &implicit_sets[i];
		const struct policy_rule *by = implicit_guarded(p, s);

		if (p->implicit_off[i].file) {
			r = implicit_warn_off(s, &p->implicit_off[i], by, diags);
			if (r < 0)
				return r;
			continue;
		}
		/* A policy that failed to parse is never used: nothing to add. */
		p->implicit_on[i] = by != NULL && !p->failed;
		if (!p->implicit_on[i])
			continue;
		r = implicit_parse_set(p, s);
		if (r < 0)
			return r;
	}
	p->n_implicit = p->n_rules - before;
	return implicit_rotate(p, p->n_implicit);
}

bool implicit_is_on(const struct policy *p, const char *name)
{
	int i = implicit_find(name);

	return i >= 0 && p->implicit_on[i];
}

int policy_implicit_info(const struct policy *p, size_t i, struct policy_implicit_info *ret)
{
	if (i >= (size_t)POLICY_IMPLICIT_SETS)
		return -ENOENT;
	*ret = (struct policy_implicit_info){
		.name = implicit_sets[i].name,
		.gap = implicit_sets[i].gap,
	};
	if (p) {
		ret->on = p->implicit_on[i];
		ret->off_file = p->implicit_off[i].file;
		ret->off_line = p->implicit_off[i].line;
	}
	return 0;
}
