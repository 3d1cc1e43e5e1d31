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
		/*
		 * The kernel layer compares (arg & mask) with (value & mask):
		 * bits outside the mask would be silently dropped, and the rule
		 * would not mean what it says. An OCI profile's valueTwo keeps
		 * libseccomp's meaning (profile-rules.c).
		 */
		if (c->value & ~c->mask) {
			parser_error(ps, t->col, "write the value within the mask",
				     "'%s': the value has bits outside the mask", t->text);
			return -EINVAL;
		}
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

bool condition_check_pattern(struct parser *ps, const struct lexer_token *t, const char *pat)
{
	size_t len = strlen(pat), bs = 0;

	if (pat[0] != '/') {
		parser_error(ps, t->col,
			     "paths are matched once resolved: start the pattern with '/'",
			     "path pattern '%s' is not absolute", pat);
		return false;
	}
	if (len > POLICY_PATTERN_MAX) {
		parser_error(ps, t->col, NULL, "path pattern longer than %d bytes",
			     POLICY_PATTERN_MAX);
		return false;
	}
	while (bs < len && pat[len - 1 - bs] == '\\')
		bs++;
	if (bs % 2) {
		parser_error(ps, t->col, "'\\' makes the next character literal",
			     "path pattern '%s' ends with a lone '\\'", pat);
		return false;
	}
	if (condition_never_matches(pat))
		parser_warning(ps, t->col, "write the path as the kernel resolves it",
			       "path pattern '%s' can never match: resolved paths have no '.', "
			       "'..', empty or trailing components",
			       pat);
	return true;
}

static void condition_add_path(struct parser *ps, struct policy_rule *r,
			       const struct lexer_token *t)
{
	const char *pat = t->text + strlen("path=");
	char **paths;

	if (!condition_check_pattern(ps, t, pat))
		return;
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

static void condition_keep_word(struct parser *ps, struct policy_rule *r,
				const struct lexer_token *t)
{
	char **w = reallocarray(r->cond_words, r->n_cond_words + 1, sizeof(char *));

	if (!w) {
		ps->oom = true;
		return;
	}
	r->cond_words = w;
	w[r->n_cond_words] = strdup(t->text);
	if (!w[r->n_cond_words])
		ps->oom = true;
	else
		r->n_cond_words++;
}

void condition_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *s = t->text;
	size_t errors = ps->errors;

	if (strncmp(s, "path=", 5) == 0) {
		condition_add_path(ps, r, t);
	} else if (strncmp(s, "arg", 3) == 0 && s[3] >= '0' && s[3] <= '9') {
		condition_add_arg(ps, r, t);
	} else if (strncmp(s, "access=", 7) == 0 || strncmp(s, "flags=", 6) == 0) {
		if (!r->flags_col)
			r->flags_col = t->col;
		if (s[0] == 'a')
			flags_parse_access(ps, r, t);
		else
			flags_parse_flags(ps, r, t);
	} else if (net_parse(ps, r, t) == 0) {
		if (!r->net_col)
			r->net_col = t->col;
	} else {
		parser_error(ps, t->col,
			     "expected path=, access=, flags=, family=, addr=, port=, unix=, "
			     "proto= or argN OP VALUE",
			     "unknown condition '%s'", s);
	}
	if (ps->errors == errors)
		condition_keep_word(ps, r, t);
}

/* ---- Conditions against the syscalls of a rule ---- */

enum cond_kind {
	COND_PATH,
	COND_FLAGS,
	COND_NET,
};

static bool condition_usable(const struct policy_rule *r, size_t i, enum cond_kind k)
{
	const struct policy_pathcall *pc = policy_pathcall_find(r->syscalls[i]);
	uint64_t cst;
	int arg;

	switch (k) {
	case COND_PATH:
		return kform_entry_paths(r, i, pc) != 0;
	case COND_FLAGS:
		return flags_source_of(pc, &arg, &cst) != FLAGS_NONE;
	case COND_NET:
		return net_syscall_has_address(r->syscalls[i]);
	}
	return false;
}

static const char *condition_word_at(const struct lexer_line *words, int col)
{
	for (size_t i = 0; i < words->count; i++)
		if (words->tokens[i].col == col)
			return words->tokens[i].text;
	return "?";
}

static const char *const cond_names[] = { "path=", "access= and flags=", "an address condition" };
static const char *const cond_hints[] = {
	"path= applies to syscalls that take a path; the @file-* categories name them all",
	"access= and flags= apply to the opens: open, openat, openat2, creat",
	"family=, addr=, port=, unix= and proto= apply to connect, bind, sendto, sendmsg and "
	"sendmmsg",
};

/*
 * A syscall named by itself or through a group must be able to meet the
 * condition: anything else is a mistake. Through a category, a syscall
 * that cannot (fchmod has no path) just never matches such a rule; only a
 * category none of whose syscalls can is a mistake.
 */
static void condition_check_kind(struct parser *ps, const struct policy_rule *r,
				 const struct lexer_line *words, enum cond_kind k, int col)
{
	int last_col = 0;

	for (size_t i = 0; i < r->n_syscalls; i++) {
		const char *word = condition_word_at(words, r->syscall_cols[i]);
		bool category = r->syscall_roles[i] & ENTRY_CATEGORY, any = false;

		if (condition_usable(r, i, k) || r->syscall_cols[i] == last_col)
			continue;
		for (size_t j = 0; category && j < r->n_syscalls; j++)
			any |= r->syscall_cols[j] == r->syscall_cols[i] && condition_usable(r, j, k);
		if (any)
			continue;
		last_col = r->syscall_cols[i];
		if (category)
			parser_error(ps, col, cond_hints[k], "%s cannot apply to any syscall of '%s'",
				     cond_names[k], word);
		else if (word[0] == '@')
			parser_error(ps, col, cond_hints[k], "%s cannot apply to '%s' (in %s)",
				     cond_names[k], policy_syscall_name(r->syscalls[i]), word);
		else
			parser_error(ps, col, cond_hints[k], "%s cannot apply to '%s'",
				     cond_names[k], policy_syscall_name(r->syscalls[i]));
	}
}

void condition_check_rule(struct parser *ps, const struct policy_rule *r,
			  const struct lexer_line *words)
{
	if (r->n_paths)
		condition_check_kind(ps, r, words, COND_PATH, r->path_col);
	if (r->n_fconds)
		condition_check_kind(ps, r, words, COND_FLAGS, r->flags_col);
	if (!net_is_empty(&r->net))
		condition_check_kind(ps, r, words, COND_NET, r->net_col);
}
