/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Conditions of a rule: registers (argN OP VALUE, argN&MASK==VALUE) and
 * paths (path=GLOB). Each problem is reported at the condition's column and
 * the condition dropped; the parser then drops the rule.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

static void condition_bad_number(struct parser *ps, const struct lexer_token *t, const char *num,
				 int r)
{
	if (r == -ERANGE)
		parser_error(ps, t->col, NULL, "number '%s' does not fit in 64 bits", num);
	else
		parser_error(ps, t->col, "numbers are decimal, hex (0x1f) or octal (017)",
			     "invalid number '%s' in '%s'", num, t->text);
}

/* A register value. Negative numbers are two's complement, and only meaningful for == and !=. */
static int condition_value(struct parser *ps, const struct lexer_token *t, const char *num,
			   const char *op, bool may_be_negative, uint64_t *ret)
{
	int64_t sv;
	int r;

	if (num[0] == '-') {
		if (!may_be_negative) {
			parser_error(ps, t->col,
				     "register comparisons are unsigned 64-bit: write the value "
				     "as an unsigned number",
				     "negative value with '%s'", op);
			return -EINVAL;
		}
		r = names_parse_i64(num, &sv);
		if (r < 0) {
			condition_bad_number(ps, t, num, r);
			return r;
		}
		*ret = (uint64_t)sv;
		return 0;
	}
	r = names_parse_u64(num, ret);
	if (r < 0)
		condition_bad_number(ps, t, num, r);
	return r;
}

static const struct {
	const char *op;
	enum policy_cmp cmp;
} condition_ops[] = {
	{ "==", POLICY_CMP_EQ }, { "!=", POLICY_CMP_NE }, { "<=", POLICY_CMP_LE },
	{ ">=", POLICY_CMP_GE }, { "<", POLICY_CMP_LT },  { ">", POLICY_CMP_GT },
};

#define ARG_SYNTAX "expected argN==V, argN!=V, argN<V, argN<=V, argN>V, argN>=V or argN&MASK==V"

/* argN OP VALUE or argN&MASK==VALUE, N in 0..5. */
static int condition_parse_arg(struct parser *ps, const struct lexer_token *t,
			       struct policy_cond *c)
{
	const char *s = t->text + 3;
	char *eq;
	size_t i;

	if (s[0] < '0' || s[0] > '9' || (s[1] >= '0' && s[1] <= '9') || s[0] > '5') {
		parser_error(ps, t->col, "syscalls have six arguments, arg0 to arg5",
			     "no such argument in '%s'", t->text);
		return -EINVAL;
	}
	c->arg = (unsigned int)(s[0] - '0');
	s++;
	if (*s == '&') {
		_cleanup_free_ char *mask = NULL;

		eq = strstr(s, "==");
		if (!eq || eq == s + 1) {
			parser_error(ps, t->col, ARG_SYNTAX, "invalid condition '%s'", t->text);
			return -EINVAL;
		}
		mask = strndup(s + 1, (size_t)(eq - s - 1));
		if (!mask)
			return -ENOMEM;
		c->op = POLICY_CMP_MASKED_EQ;
		if (condition_value(ps, t, mask, "&", false, &c->mask) < 0 ||
		    condition_value(ps, t, eq + 2, "==", true, &c->value) < 0)
			return -EINVAL;
		if (c->value & ~c->mask)
			parser_warning(ps, t->col, NULL,
				       "'%s' can never hold: the value has bits outside the mask",
				       t->text);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(condition_ops); i++)
		if (strncmp(s, condition_ops[i].op, strlen(condition_ops[i].op)) == 0)
			break;
	if (i == ARRAY_SIZE(condition_ops) || s[strlen(condition_ops[i].op)] == '\0') {
		bool single = s[0] == '=' && s[1] != '=';

		parser_error(ps, t->col, single ? "compare with '==': arg0==1" : ARG_SYNTAX,
			     "invalid condition '%s'", t->text);
		return -EINVAL;
	}
	c->op = condition_ops[i].cmp;
	return condition_value(ps, t, s + strlen(condition_ops[i].op), condition_ops[i].op,
			       c->op == POLICY_CMP_EQ || c->op == POLICY_CMP_NE, &c->value);
}

static void condition_add_arg(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	struct policy_cond c = { 0 };
	struct policy_cond *conds;
	int e;

	e = condition_parse_arg(ps, t, &c);
	if (e == -ENOMEM)
		ps->oom = true;
	if (e < 0)
		return;
	c.text = strdup(t->text);
	conds = reallocarray(r->conds, r->n_conds + 1, sizeof(*conds));
	if (!c.text || !conds) {
		free(c.text);
		if (conds)
			r->conds = conds;
		ps->oom = true;
		return;
	}
	r->conds = conds;
	r->conds[r->n_conds++] = c;
}

/* Resolved paths never contain these: a pattern that needs them is a mistake. */
static bool condition_never_matches(const char *pat)
{
	size_t len = strlen(pat);

	if (strstr(pat, "//") || strstr(pat, "/./") || strstr(pat, "/../"))
		return true;
	if (len > 1 && pat[len - 1] == '/')
		return true;
	return (len >= 2 && strcmp(pat + len - 2, "/.") == 0) ||
	       (len >= 3 && strcmp(pat + len - 3, "/..") == 0);
}

static void condition_add_path(struct parser *ps, struct policy_rule *r,
			       const struct lexer_token *t)
{
	const char *pat = t->text + strlen("path=");
	size_t len = strlen(pat), bs = 0;
	char **paths;

	if (pat[0] != '/') {
		parser_error(ps, t->col,
			     "paths are matched once resolved: start the pattern with '/'",
			     "path pattern '%s' is not absolute", pat);
		return;
	}
	if (len > POLICY_PATTERN_MAX) {
		parser_error(ps, t->col, NULL, "path pattern longer than %d bytes",
			     POLICY_PATTERN_MAX);
		return;
	}
	while (bs < len && pat[len - 1 - bs] == '\\')
		bs++;
	if (bs % 2) {
		parser_error(ps, t->col, "'\\' makes the next character literal",
			     "path pattern '%s' ends with a lone '\\'", pat);
		return;
	}
	if (condition_never_matches(pat))
		parser_warning(ps, t->col, "write the path as the kernel resolves it",
			       "path pattern '%s' can never match: resolved paths have no '.', "
			       "'..', empty or trailing components",
			       pat);
	if (r->n_paths == 0)
		r->path_col = t->col;
	paths = reallocarray(r->paths, r->n_paths + 1, sizeof(char *));
	if (!paths) {
		ps->oom = true;
		return;
	}
	r->paths = paths;
	r->paths[r->n_paths] = strdup(pat);
	if (!r->paths[r->n_paths]) {
		ps->oom = true;
		return;
	}
	r->n_paths++;
}

void condition_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text;

	if (strncmp(s, "path=", 5) == 0)
		condition_add_path(ps, r, t);
	else if (strncmp(s, "arg", 3) == 0 && s[3] >= '0' && s[3] <= '9')
		condition_add_arg(ps, r, t);
	else
		parser_error(ps, t->col, "expected path=GLOB or argN OP VALUE",
			     "unknown condition '%s'", s);
}
