/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The parser: one rule a line,
 *
 *   ACTION SYSCALL|@GROUP... [CONDITION...] [ERRNO | VALUE]
 *   default ACTION [ERRNO | VALUE]
 *   include FILE                  (include.c; a .json file: oci.c)
 *   implicit NAME off             (implicit.c)
 *
 * Groups and categories (groups.c) add their syscalls to the rule, each
 * with how it entered (ENTRY_* in internal.h); conditions (condition.c,
 * flags.c, netcond.c) are then checked against those syscalls.
 * Every error is reported (a bad rule is dropped and parsing goes on with the
 * next word or line) so that `unotify policy check` shows them all at once.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <strings.h>

#include "lib/util.h"
#include "policy/internal.h"

/* 64 MiB: far above any real policy, low enough that a wrong path fails quickly. */
#define POLICY_FILE_MAX (64u << 20)

static void parser_report(struct parser *ps, enum policy_severity sev, int col, const char *hint,
			  const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void parser_report(struct parser *ps, enum policy_severity sev, int col, const char *hint,
			  const char *fmt, va_list ap)
{
	_cleanup_free_ char *msg = NULL;

	if (sev == POLICY_ERROR)
		ps->errors++;
	if (vasprintf(&msg, fmt, ap) < 0) {
		ps->oom = true;
		return;
	}
	if (diag_add(ps->diags, sev, ps->file, ps->line, col, hint, "%s", msg) < 0)
		ps->oom = true;
}

void parser_error(struct parser *ps, int col, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	parser_report(ps, POLICY_ERROR, col, hint, fmt, ap);
	va_end(ap);
}

void parser_warning(struct parser *ps, int col, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	parser_report(ps, POLICY_WARNING, col, hint, fmt, ap);
	va_end(ap);
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void rule_free(struct policy_rule *r)
{
	free(r->syscalls);
	free(r->syscall_cols);
	free(r->syscall_roles);
	strv_free(r->words, r->n_words);
	for (size_t i = 0; i < r->n_conds; i++)
		free(r->conds[i].text);
	free(r->conds);
	for (size_t i = 0; i < r->n_fconds; i++)
		free(r->fconds[i].terms);
	free(r->fconds);
	net_free(&r->net);
	strv_free(r->paths, r->n_paths);
	strv_free(r->cond_words, r->n_cond_words);
	*r = (struct policy_rule){ 0 };
}

/* ---- Words ---- */

static const char *const action_words[] = {
	[POLICY_ALLOW] = "allow",
	[POLICY_DENY] = "deny",
	[POLICY_KILL] = "kill",
	[POLICY_LOG] = "log",
	[POLICY_RETURN] = "return",
};

static int parse_action_word(const char *s, enum policy_action *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(action_words); i++)
		if (strcmp(s, action_words[i]) == 0) {
			*ret = (enum policy_action)i;
			return 0;
		}
	return -EINVAL;
}

static void parse_bad_action(struct parser *ps, const struct lexer_token *t, bool with_default)
{
	static const char *const words[] = { "allow",	"deny",	   "kill",     "log",	"return",
					     "default", "include", "implicit", "scope" };
	size_t n = with_default ? ARRAY_SIZE(words) : ARRAY_SIZE(words) - 4;
	const char *near = NULL;
	char hint[64];

	for (size_t i = 0; i < n && !near; i++)
		if (names_distance(t->text, words[i], 2) <= 2)
			near = words[i];
	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
	parser_error(ps, t->col, near ? hint : NULL, "unknown action '%s': expected %s", t->text,
		     with_default ? "allow, deny, kill, log, return, default, include, implicit or scope"
				  : "allow, deny, kill, log or return");
}

/* An errno after deny: a name (EACCES) or a number 1..4095. */
static void parse_errno(struct parser *ps, const struct lexer_token *t, int *ret)
{
	const char *near;
	char hint[64];
	uint64_t v;
	int e;

	e = policy_errno_parse(t->text);
	if (e > 0) {
		*ret = e;
		return;
	}
	if (t->text[0] == '-') {
		parser_error(ps, t->col, "errno numbers go from 1 to 4095",
			     "errno %s is out of range", t->text);
		return;
	}
	if (t->text[0] >= '0' && t->text[0] <= '9') {
		if (names_parse_u64(t->text, &v) == -EINVAL)
			parser_error(ps, t->col, "numbers are decimal, hex (0x1f) or octal (017)",
				     "invalid errno '%s'", t->text);
		else
			parser_error(ps, t->col, "errno numbers go from 1 to 4095",
				     "errno %s is out of range", t->text);
		return;
	}
	near = names_suggest_errno(t->text);
	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
	parser_error(ps, t->col, near ? hint : "errno names are those of errno(3), e.g. EACCES",
		     "unknown errno '%s'", t->text);
}

/* The value after return: what the call returns, signed 64-bit. */
static void parse_value(struct parser *ps, const struct lexer_token *t, int64_t *ret)
{
	char hint[96];
	int r;

	r = names_parse_i64(t->text, ret);
	if (r == -ERANGE) {
		parser_error(ps, t->col, "return takes a signed 64-bit number",
			     "value '%s' is out of range", t->text);
		return;
	}
	if (r < 0) {
		parser_error(ps, t->col,
			     "return takes a number: decimal, hex (0x1f) or octal (017)",
			     "invalid value '%s'", t->text);
		return;
	}
	/* The kernel hands the value back as is: -4095..-1 reads as a failure with errno -value. */
	if (*ret < 0 && *ret >= -4095) {
		const char *name = policy_errno_name((int)-*ret);

		snprintf(hint, sizeof(hint), "use 'deny SYSCALL %s' to fail a call",
			 name ? name : t->text + 1);
		parser_warning(ps, t->col, hint, "the program sees %s as a failure with errno %s",
			       t->text, name ? name : t->text + 1);
	}
}

/* ---- Syscalls ---- */

static bool parse_is_syscall_word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static int rule_grow(void *arr, size_t n, size_t sz)
{
	void **p = arr;
	void *a = reallocarray(*p, n + 1, sz);

	if (!a)
		return -ENOMEM;
	*p = a;
	return 0;
}

/*
 * A syscall named again in one rule: named by itself, it has no membership
 * condition (ENTRY_DIRECT wins); through several categories, it is a member
 * of any of them.
 */
static unsigned int rule_merge_roles(unsigned int a, unsigned int b)
{
	bool a_plain = !(a & ENTRY_CATEGORY), b_plain = !(b & ENTRY_CATEGORY);

	if (a_plain && b_plain)
		return a & b; /* ENTRY_GROUP stays only when no syscall word named it */
	if (a_plain || b_plain)
		return a_plain ? a : b;
	return a | b;
}

int rule_add_syscall(struct policy_rule *r, int nr, int col, unsigned int roles)
{
	for (size_t i = 0; i < r->n_syscalls; i++)
		if (r->syscalls[i] == nr) {
			/* Diagnostics point at the syscall's own word when it has one. */
			if (!(roles & (ENTRY_CATEGORY | ENTRY_GROUP)))
				r->syscall_cols[i] = col;
			r->syscall_roles[i] = rule_merge_roles(r->syscall_roles[i], roles);
			return 0;
		}
	if (rule_grow(&r->syscalls, r->n_syscalls, sizeof(int)) < 0 ||
	    rule_grow(&r->syscall_cols, r->n_syscalls, sizeof(int)) < 0 ||
	    rule_grow(&r->syscall_roles, r->n_syscalls, sizeof(unsigned int)) < 0)
		return -ENOMEM;
	r->syscalls[r->n_syscalls] = nr;
	r->syscall_cols[r->n_syscalls] = col;
	r->syscall_roles[r->n_syscalls++] = roles;
	return 0;
}

static void rule_keep_word(struct parser *ps, struct policy_rule *r, const char *text)
{
	if (rule_grow(&r->words, r->n_words, sizeof(char *)) < 0) {
		ps->oom = true;
		return;
	}
	r->words[r->n_words] = strdup(text);
	if (!r->words[r->n_words])
		ps->oom = true;
	else
		r->n_words++;
}

struct parse_group_ctx {
	struct policy_rule *r;
	int col;
};

static int parse_group_emit(void *userdata, int nr, unsigned int roles)
{
	struct parse_group_ctx *c = userdata;

	return rule_add_syscall(c->r, nr, c->col, roles);
}

static void parse_group(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	struct parse_group_ctx c = { .r = r, .col = t->col };
	const char *near;
	char hint[80];
	int e;

	for (size_t i = 0; i < r->n_words; i++)
		if (strcmp(r->words[i], t->text) == 0) {
			parser_warning(ps, t->col, NULL, "'%s' is listed twice in this rule",
				       t->text);
			return;
		}
	e = groups_expand(t->text, parse_group_emit, &c);
	if (e == -ENOENT) {
		near = groups_suggest(t->text);
		if (near)
			snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
		parser_error(ps, t->col, near ? hint : "the groups are listed in unotify.policy(5)",
			     "unknown group '%s'", t->text);
		return;
	}
	if (e < 0) {
		ps->oom = true;
		return;
	}
	rule_keep_word(ps, r, t->text);
}

static void parse_syscall(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	const char *near;
	char hint[80];
	int nr, e;

	if (t->text[0] == '@') {
		parse_group(ps, r, t);
		return;
	}
	if (!parse_is_syscall_word(t->text)) {
		parser_error(ps, t->col, "syscall names are lowercase letters, digits and '_'",
			     "invalid syscall name '%s'", t->text);
		return;
	}
	e = names_lookup_syscall(t->text, &nr);
	if (e == -ENOSYS) {
		parser_error(ps, t->col, NULL, "syscall '%s' does not exist on %s", t->text,
			     names_native_arch());
		return;
	}
	if (e < 0) {
		/* "deny read eacces": an errno in the wrong case reads as a syscall. */
		near = r->action == POLICY_DENY ? names_suggest_errno(t->text) : NULL;
		if (near && strcasecmp(near, t->text) == 0) {
			snprintf(hint, sizeof(hint), "errno names are in capitals: '%s'", near);
		} else {
			near = names_suggest_syscall(t->text);
			if (near)
				snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
		}
		parser_error(ps, t->col, near ? hint : NULL, "unknown syscall '%s'", t->text);
		return;
	}
	for (size_t i = 0; i < r->n_words; i++)
		if (strcmp(r->words[i], t->text) == 0) {
			parser_warning(ps, t->col, NULL,
				       "syscall '%s' is listed twice in this rule", t->text);
			return;
		}
	if (rule_add_syscall(r, nr, t->col, ENTRY_DIRECT) < 0)
		ps->oom = true;
	rule_keep_word(ps, r, t->text);
}

/* ---- Rules ---- */

enum word_kind {
	WORD_SYSCALL,
	WORD_COND,
	WORD_ERRNO,
	WORD_VALUE,
};

static enum word_kind parse_classify(const char *s)
{
	if ((s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9'))
		return WORD_VALUE;
	if (s[0] == 'E' && s[1] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == strlen(s))
		return WORD_ERRNO;
	if (strpbrk(s, "=<>!&") || strncmp(s, "path", 4) == 0 ||
	    (strncmp(s, "arg", 3) == 0 && s[3] >= '0' && s[3] <= '9'))
		return WORD_COND;
	return WORD_SYSCALL;
}

/* The errno of deny, the value of return; anything else there is misplaced. */
static void parse_trailer(struct parser *ps, struct policy_rule *r, const struct lexer_token *t,
			  enum word_kind kind)
{
	if (r->action == POLICY_DENY && strcmp(t->text, "kernel") == 0) {
		r->kernel_answer = true;
		r->error = EACCES;
	} else if (r->action == POLICY_DENY)
		parse_errno(ps, t, &r->error);
	else if (r->action == POLICY_RETURN && kind == WORD_VALUE)
		parse_value(ps, t, &r->value);
	else if (r->action == POLICY_RETURN)
		parser_error(ps, t->col, "to fail a call, write 'deny SYSCALL ERRNO'",
			     "expected a value after return, not '%s'", t->text);
	else if (kind == WORD_ERRNO)
		parser_error(ps, t->col, "write 'deny SYSCALL ERRNO'",
			     "unexpected '%s': an errno is only valid after deny", t->text);
	else
		parser_error(ps, t->col, "write 'return SYSCALL VALUE'",
			     "unexpected '%s': a value is only valid after return", t->text);
}

static void parse_rule_words(struct parser *ps, struct policy_rule *r,
			     const struct lexer_line *words, bool *ret_trailer)
{
	bool in_conds = false, trailer = false;

	for (size_t i = 1; i < words->count; i++) {
		const struct lexer_token *t = &words->tokens[i];
		enum word_kind kind = parse_classify(t->text);

		/* `deny ... kernel`: the kernel's own answer (no syscall has that name). */
		if (r->action == POLICY_DENY && strcmp(t->text, "kernel") == 0)
			kind = WORD_ERRNO;
		if (trailer) {
			parser_error(ps, t->col, "the errno or value comes last",
				     "unexpected '%s' after '%s'", t->text,
				     words->tokens[i - 1].text);
			continue;
		}
		if (kind == WORD_ERRNO || kind == WORD_VALUE) {
			parse_trailer(ps, r, t, kind);
			trailer = true;
		} else if (kind == WORD_COND) {
			condition_parse(ps, r, t);
			in_conds = true;
		} else if (in_conds) {
			parser_error(ps, t->col, "write the syscalls first, then the conditions",
				     "syscall '%s' after a condition", t->text);
		} else {
			parse_syscall(ps, r, t);
		}
	}
	*ret_trailer = trailer;
}

int policy_push_rule(struct policy *p, struct policy_rule *r)
{
	if (p->n_rules == p->cap_rules) {
		size_t cap = p->cap_rules ? p->cap_rules * 2 : 32;
		struct policy_rule *rules = reallocarray(p->rules, cap, sizeof(*rules));

		if (!rules)
			return -ENOMEM;
		p->rules = rules;
		p->cap_rules = cap;
	}
	p->rules[p->n_rules++] = *r;
	*r = (struct policy_rule){ 0 };
	return 0;
}

/*
 * `kernel` asks for the answer of the kernel's sandbox, Landlock, which
 * checks opens, exec, names made and removed and truncate, not the rest
 * (stat, chmod, chown, utimes, xattrs): each syscall of the rule must be
 * one it checks. One error per rule, at the first that is not.
 */
static void parse_check_kernel_answer(struct parser *ps, const struct policy_rule *r)
{
	for (size_t e = 0; e < r->n_syscalls; e++) {
		int nr = r->syscalls[e];

		/* bind of a Unix socket path, through @file-create: the answer is EACCES. */
		if (landlock_answers_syscall(nr) || (r->syscall_roles[e] & ENTRY_UNIX_BIND))
			continue;
		/* TCP ports: connect and bind (sends through @net-connect are refused EACCES). */
		if (net_syscall_has_address(nr) && !net_is_empty(&r->net)) {
			if (net_is_tcp_only(&r->net) && (nr == SYS_connect || nr == SYS_bind ||
							 (r->syscall_roles[e] & ENTRY_NET)))
				continue;
			parser_error(ps, r->net_col, "e.g. 'deny connect bind proto=tcp kernel'",
				     "the kernel's answer ('kernel') on %s is for TCP ports: its "
				     "network conditions must be proto=tcp, and port= if any",
				     policy_syscall_name(nr));
			return;
		}
		parser_error(ps, r->syscall_cols[e],
			     "write an errno for it, e.g. EACCES, in a rule of "
			     "its own",
			     "the kernel's answer ('kernel') is for the calls Landlock "
			     "checks (opens, exec, making and removing names, truncate; connect "
			     "and bind with proto=tcp), not %s",
			     policy_syscall_name(r->syscalls[e]));
		return;
	}
}

static void parse_rule(struct parser *ps, enum policy_action action, const struct lexer_line *words)
{
	const struct lexer_token *first = &words->tokens[0];
	struct policy_rule r = {
		.file = ps->file,
		.line = ps->line,
		.col = first->col,
		.action = action,
		.error = action == POLICY_DENY ? EPERM : 0,
	};
	size_t errors = ps->errors;
	bool trailer;

	parse_rule_words(ps, &r, words, &trailer);
	if (r.n_syscalls == 0 && errors == ps->errors)
		parser_error(ps, first->col, "e.g. 'allow read write'",
			     "expected a syscall name after '%s'", first->text);
	if (action == POLICY_RETURN && !trailer)
		parser_error(ps, first->col, "e.g. 'return getppid 42'", "return needs a value");
	condition_check_rule(ps, &r, words);
	if (r.kernel_answer)
		parse_check_kernel_answer(ps, &r);
	if (ps->errors == errors && !ps->oom && policy_push_rule(ps->p, &r) < 0)
		ps->oom = true;
	rule_free(&r);
}

static void parse_default(struct parser *ps, const struct lexer_line *words)
{
	const struct lexer_token *first = &words->tokens[0];
	struct policy *p = ps->p;
	struct policy_rule d = { .file = ps->file, .line = ps->line, .col = first->col };
	size_t errors = ps->errors;
	char hint[256];

	if (p->has_default) {
		if (p->def.line == 0)
			snprintf(hint, sizeof(hint), "%s sets one (defaultAction)", p->def.file);
		else if (strcmp(p->def.file, ps->file) == 0)
			snprintf(hint, sizeof(hint), "the first is at line %d", p->def.line);
		else
			snprintf(hint, sizeof(hint), "the first is at %s:%d", p->def.file,
				 p->def.line);
		parser_error(ps, first->col, hint, "a policy has one default");
		return;
	}
	if (words->count < 2) {
		parser_error(ps, first->col, "e.g. 'default deny EPERM'",
			     "default needs an action");
		return;
	}
	if (parse_action_word(words->tokens[1].text, &d.action) < 0) {
		parse_bad_action(ps, &words->tokens[1], false);
		return;
	}
	d.error = d.action == POLICY_DENY ? EPERM : 0;
	if (words->count > 2 && d.action == POLICY_DENY &&
	    strcmp(words->tokens[2].text, "kernel") == 0) {
		parser_error(ps, words->tokens[2].col, "write 'deny @file-write kernel' (and so on) "
			     "as a rule, and an errno here", "the default decides every syscall, and "
			     "the kernel's answer ('kernel') is only for the calls Landlock checks");
		return;
	}
	if (words->count > 2)
		parse_trailer(ps, &d, &words->tokens[2], parse_classify(words->tokens[2].text));
	if (d.action == POLICY_RETURN && words->count < 3)
		parser_error(ps, first->col, "e.g. 'default return 0'", "return needs a value");
	for (size_t i = 3; i < words->count; i++)
		parser_error(ps, words->tokens[i].col, "write 'default ACTION [ERRNO|VALUE]'",
			     "unexpected '%s' after the default action", words->tokens[i].text);
	if (ps->errors == errors) {
		p->def = d;
		p->has_default = true;
	}
}

static void parse_line(struct parser *ps, char *text, struct lexer_line *words)
{
	enum policy_action action;

	if (lexer_split(text, words) < 0) {
		ps->oom = true;
		return;
	}
	if (words->count == 0)
		return;
	if (strcmp(words->tokens[0].text, "include") == 0)
		include_parse(ps, words);
	else if (strcmp(words->tokens[0].text, "default") == 0)
		parse_default(ps, words);
	else if (strcmp(words->tokens[0].text, "implicit") == 0)
		implicit_parse(ps, words);
	else if (strcmp(words->tokens[0].text, "scope") == 0)
		scope_parse(ps, words);
	else if (parse_action_word(words->tokens[0].text, &action) == 0)
		parse_rule(ps, action, words);
	else
		parse_bad_action(ps, &words->tokens[0], true);
}

/* ---- Entry points ---- */

struct policy *policy_new(void)
{
	struct policy *p = calloc(1, sizeof(*p));

	if (p)
		p->def = (struct policy_rule){ .action = POLICY_DENY, .error = EPERM };
	return p;
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rules; i++)
		rule_free(&p->rules[i]);
	free(p->rules);
	strv_free(p->files, p->n_files);
	strv_free(p->include_stack, p->include_depth);
	strv_free(p->included, p->n_included);
	index_free(p);
	moves_free(p);
	free(p->by_nr);
	free(p->by_entry);
	free(p);
}

int policy_set_env(struct policy *p, const struct policy_env *env)
{
	if (!p || !env)
		return -EINVAL;
	p->env = *env;
	return 0;
}

int policy_add_file_name(struct policy *p, const char *name, const char **ret)
{
	char **files = reallocarray(p->files, p->n_files + 1, sizeof(char *));

	if (!files)
		return -ENOMEM;
	p->files = files;
	p->files[p->n_files] = strdup(name);
	if (!p->files[p->n_files])
		return -ENOMEM;
	*ret = p->files[p->n_files++];
	return 0;
}

/* The lines of one text into p; nested includes come back here. Returns the error count. */
int parse_text_in(struct policy *p, const char *name, const char *dir, const char *text,
		  struct policy_diags *diags, size_t *ret_errors)
{
	struct parser ps = { .p = p, .diags = diags, .dir = dir };
	struct lexer_line words = { 0 };
	const char *s = text;
	int r;

	r = policy_add_file_name(p, name, &ps.file);
	if (r < 0)
		return r;
	while (*s && !ps.oom) {
		const char *end = strchrnul(s, '\n');
		_cleanup_free_ char *line = strndup(s, (size_t)(end - s));

		if (!line) {
			ps.oom = true;
			break;
		}
		ps.line++;
		parse_line(&ps, line, &words);
		s = *end ? end + 1 : end;
	}
	lexer_line_free(&words);
	if (ps.oom)
		return -ENOMEM;
	*ret_errors = ps.errors;
	return 0;
}

/* The directory includes are relative to: the file's, or the working directory. */
static char *parse_dir_of(const char *name)
{
	const char *slash = strrchr(name, '/');

	if (!slash)
		return strdup(".");
	if (slash == name)
		return strdup("/");
	return strndup(name, (size_t)(slash - name));
}

int policy_parse_text(struct policy *p, const char *name, const char *text,
		      struct policy_diags *diags)
{
	_cleanup_free_ char *dir = NULL;
	size_t errors = 0;
	int r;

	if (!p || !name || !text)
		return -EINVAL;
	if (p->finished)
		return -EBUSY;
	dir = parse_dir_of(name);
	r = dir ? 0 : -ENOMEM;
	if (r == 0 && profile_is_json(name, text))
		r = profile_parse_text(p, name, text, strlen(text), diags, &errors);
	else if (r == 0)
		r = parse_text_in(p, name, dir, text, diags, &errors);
	if (r == 0 && errors == 0)
		return 0;
	p->failed = true;
	return r < 0 ? r : -EINVAL;
}

int policy_read_file(FILE *f, char **ret_text, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *b;

			if (cap >= POLICY_FILE_MAX)
				return -EFBIG;
			cap = cap ? cap * 2 : 8192;
			b = realloc(buf, cap + 1);
			if (!b)
				return -ENOMEM;
			buf = b;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		return -EIO;
	buf[len] = '\0';
	*ret_len = len;
	*ret_text = steal_pointer(&buf);
	return 0;
}

int policy_parse_file(struct policy *p, const char *path, struct policy_diags *diags)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	if (!p || !path)
		return -EINVAL;
	r = include_read(p, path, true, &text, &len);
	if (r >= 0 && memchr(text, '\0', len)) {
		(void)diag_add(diags, POLICY_ERROR, path, 0, 0, "a policy is text",
			       "contains a NUL byte");
		p->failed = true;
		include_pop(p);
		return -EINVAL;
	}
	if (r >= 0) {
		r = policy_parse_text(p, path, text, diags);
		include_pop(p);
		return r;
	}
	if (diag_add(diags, POLICY_ERROR, path, 0, 0,
		     r == -EISDIR ? "give a policy file; unotifyd --policy-dir takes a directory"
				  : NULL,
		     "cannot read: %s", strerror(-r)) < 0)
		r = -ENOMEM;
	p->failed = true;
	return r;
}
