/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to policy/: the parsed form of a policy and the helpers the
 * parser, checker, compiler and evaluator share.
 */
#ifndef UNOTIFY_POLICY_INTERNAL_H
#define UNOTIFY_POLICY_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/policy.h"

/*
 * Native syscall numbers are below this on every architecture libseccomp
 * 2.5 knows (x86_64 ends at 456). A number at or above it is never named by
 * a rule, so the default decides it.
 */
#define POLICY_NR_MAX 1024
/* The parser refuses longer path patterns; see policy_glob_match(). */
#define POLICY_PATTERN_MAX 4096

/* Register comparisons, exactly libseccomp's (full 64-bit, unsigned). */
enum policy_cmp {
	POLICY_CMP_EQ,
	POLICY_CMP_NE,
	POLICY_CMP_LT,
	POLICY_CMP_LE,
	POLICY_CMP_GT,
	POLICY_CMP_GE,
	POLICY_CMP_MASKED_EQ, /* (arg & mask) == value */
};

struct policy_cond {
	unsigned int arg; /* 0..5 */
	enum policy_cmp op;
	uint64_t mask; /* POLICY_CMP_MASKED_EQ only */
	uint64_t value;
	char *text; /* as written, for descriptions */
};

struct policy_rule {
	const char *file; /* owned by struct policy (files[]) */
	int line;
	int col; /* of the action word */
	enum policy_action action;
	int error;     /* POLICY_DENY */
	int64_t value; /* POLICY_RETURN */
	int *syscalls;
	int *syscall_cols;
	size_t n_syscalls;
	struct policy_cond *conds; /* all must hold */
	size_t n_conds;
	char **paths; /* any may match */
	size_t n_paths;
	int path_col; /* of the first path= */
};

struct policy {
	struct policy_rule *rules;
	size_t n_rules;
	size_t cap_rules;
	char **files; /* every name given to policy_parse_text, in order */
	size_t n_files;
	bool has_default;
	struct policy_rule def; /* no syscalls, no conditions */
	bool failed; /* a text had errors: the policy must not be used */
	bool finished;
	/*
	 * Rules by syscall, in policy order: the rules naming syscall nr are
	 * rules[by_nr[by_nr_start[nr]]] .. rules[by_nr[by_nr_start[nr + 1] - 1]].
	 */
	size_t *by_nr;
	size_t by_nr_start[POLICY_NR_MAX + 1];
};

static inline bool policy_rule_is_unconditional(const struct policy_rule *r)
{
	return r->n_conds == 0 && r->n_paths == 0;
}

/* diag.c */
int diag_add(struct policy_diags *d, enum policy_severity sev, const char *file, int line, int col,
	     const char *hint, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* names.c */
/* Edit distance (optimal string alignment), capped at limit + 1. */
size_t names_distance(const char *a, const char *b, size_t limit);
/* Native syscall closest to name within a small distance; NULL when none is close. */
const char *names_suggest_syscall(const char *name);
const char *names_suggest_errno(const char *name);
/* -ENOENT: no such syscall anywhere; -ENOSYS: a syscall of another architecture. */
int names_lookup_syscall(const char *name, int *ret_nr);
const char *names_native_arch(void);
/* Unsigned number in decimal, hex (0x) or octal (0); -EINVAL or -ERANGE. */
int names_parse_u64(const char *s, uint64_t *ret);
/* Signed: an optional '-' then names_parse_u64; the result fits int64_t. */
int names_parse_i64(const char *s, int64_t *ret);

/* lexer.c */
struct lexer_token {
	char *text; /* NUL-terminated, inside the line buffer */
	int col;    /* 1-based byte column */
};

struct lexer_line {
	struct lexer_token *tokens;
	size_t count;
	size_t cap;
};

/* Splits line in place into tokens, up to a '#' that starts a token. -ENOMEM. */
int lexer_split(char *line, struct lexer_line *ret);
void lexer_line_free(struct lexer_line *l);

/* check.c */
int check_policy(struct policy *p, struct policy_diags *diags);
int check_index(struct policy *p);

/* parse.c */
/* One policy text being parsed. */
struct parser {
	struct policy *p;
	struct policy_diags *diags;
	const char *file;
	int line;
	size_t errors;
	bool oom;
};

void parser_error(struct parser *ps, int col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void parser_warning(struct parser *ps, int col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void rule_free(struct policy_rule *r);

/* condition.c: a word with '=', '<', '>', '!' or '&', or starting with "path" or "argN". */
void condition_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t);

#endif
