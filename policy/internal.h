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

/* (flags & mask) == value, on the open flags. */
struct policy_flagterm {
	uint64_t mask;
	uint64_t value;
};

/* access= or flags=: any term may hold. */
struct policy_flagcond {
	bool is_access; /* access= (else flags=) */
	struct policy_flagterm *terms;
	size_t n_terms;
};

/* An address prefix, IPv4 as its IPv4-mapped IPv6 form (::ffff:a.b.c.d/96+n). */
struct policy_cidr {
	uint8_t addr[16];
	unsigned int prefix;
};

struct policy_ports {
	uint16_t lo, hi; /* inclusive */
};

/* Network conditions: within a list any may hold; every non-empty list must hold. */
struct policy_net {
	int *families;
	size_t n_families;
	struct policy_cidr *cidrs;
	size_t n_cidrs;
	struct policy_ports *ports;
	size_t n_ports;
	char **unix_globs; /* "/path/glob" or "@abstract-glob" */
	size_t n_unix;
	int *protos; /* POLICY_PROTO_* (proto=) */
	size_t n_protos;
};

/*
 * How a syscall entered a rule (syscall_roles[i]): ENTRY_DIRECT when named
 * (or through a named group): no membership condition, path= covers all its
 * paths. Otherwise through categories: the POLICY_ROLE_* bits of the file
 * categories, ENTRY_NET for @net-*, ENTRY_NET_ADDRESSED when the call is a
 * member only when it carries an address (sendto, sendmsg, sendmmsg).
 */
#define ENTRY_DIRECT 0u
#define ENTRY_ROLES 0x7fu
#define ENTRY_NET (1u << 8)
#define ENTRY_NET_ADDRESSED (1u << 9)
#define ENTRY_GROUP (1u << 10) /* direct, but only through named groups (diagnostics) */
/* bind through @file-create: a member when it binds an AF_UNIX path, which it creates (path 0) */
#define ENTRY_UNIX_BIND (1u << 11)
#define ENTRY_CATEGORY (ENTRY_ROLES | ENTRY_NET)

/* Does an action keep the call from running as written (deny, kill, return)? */
static inline bool policy_action_stops(enum policy_action a)
{
	return a == POLICY_DENY || a == POLICY_KILL || a == POLICY_RETURN;
}

/* Did bind enter the rule through @file-create alone (a unix path it creates, no @net-*)? */
static inline bool entry_unix_bind_only(unsigned int roles)
{
	return (roles & (ENTRY_UNIX_BIND | ENTRY_NET)) == ENTRY_UNIX_BIND;
}

struct policy_rule {
	const char *file; /* owned by struct policy (files[]) */
	int line;
	int col; /* of the action word */
	enum policy_action action;
	int error;     /* POLICY_DENY */
	/*
	 * POLICY_DENY with the errno word `kernel`: the call fails as the
	 * kernel's sandbox (Landlock) fails it (error holds EACCES, its usual
	 * answer); the rule reads the path, and never matches one that is not
	 * absolute (a pipe or socket reopened through /proc/PID/fd).
	 */
	bool kernel_answer;
	int64_t value; /* POLICY_RETURN */
	int *syscalls;
	int *syscall_cols;           /* of the word that named it (a syscall or a @group) */
	unsigned int *syscall_roles; /* ENTRY_* */
	size_t n_syscalls;
	char **words; /* the syscalls and @groups as written, for descriptions */
	size_t n_words;
	struct policy_cond *conds; /* all must hold */
	size_t n_conds;
	struct policy_flagcond *fconds; /* access=, flags=: all must hold */
	size_t n_fconds;
	struct policy_net net;
	char **paths; /* any may match */
	size_t n_paths;
	int path_col; /* of the first path= */
	char **cond_words; /* every condition as written, in order, for descriptions */
	size_t n_cond_words;
	int flags_col; /* of the first access= or flags= */
	int net_col;   /* of the first family=, addr=, port=, unix= or proto= */
	bool generated; /* from an OCI profile or implicit: no shadowing diagnostics */
	bool implicit;  /* an implicit rule (implicit.c), before every rule of the author's */
};

/* The implicit rule sets (implicit.c) and where one was turned off. */
#define POLICY_IMPLICIT_SETS 19

/* What a set guards: it is added when the policy has such rules. */
#define GUARDS_PATHS   (1u << 0) /* path= or unix=/path */
#define GUARDS_NET     (1u << 1) /* @net-* categories, family=, addr=, port=, unix= */
#define GUARDS_ADDRESS (1u << 2) /* addr=, port=, family=, or a network refusal */
#define GUARDS_FILES   (1u << 3) /* a file category (@file-*), with or without path= */
#define GUARDS_ANY     (1u << 4) /* every policy: what it guards is the supervisor itself */
#define GUARDS_PROTO   (1u << 5) /* proto= */
#define GUARDS_URING   (1u << 6) /* a refusal of a call io_uring performs */
#define GUARDS_AIO     (1u << 7) /* a refusal of a call io_submit performs */
/* What r has of the above (implicit-guards.c); GUARDS_ANY never. */
unsigned int implicit_rule_guards(const struct policy_rule *r);
/*
 * GUARDS_URING and GUARDS_AIO where the default refuses some call io_uring
 * or io_submit performs, GUARDS_ADDRESS where it refuses a connect, send or
 * bind: one no rule of the author's lets run whatever its arguments
 * (implicit-guards.c).
 */
unsigned int implicit_default_guards(const struct policy *p);
/* Warnings on calls made another way, which no filter sees (check-calls.c): 0 or -ENOMEM. */
int check_rule_vdso(const struct policy_rule *r, struct policy_diags *diags);
int check_rule_fastopen(const struct policy_rule *r, struct policy_diags *diags);
/* A stopping pattern spelt through a symbolic link of this machine (check-links.c). */
int check_rule_links(const struct policy *p, const struct policy_rule *r,
		     struct policy_diags *diags);

struct policy_implicit_off {
	const char *file; /* NULL: not turned off */
	int line;
	int col;
};

/* A path pattern a move must not cross (moves.c), with the first rule that has it. */
struct policy_move_pattern {
	const char *pattern; /* owned by the rule */
	size_t rule;
	bool is_unix;        /* unix=/path: a socket's name */
};

/* The evaluation index of one syscall (index.c). */
struct policy_nr_index {
	size_t *plain; /* rules without path=, in policy order */
	size_t n_plain;
	/* Rules with path=, by the path that rules them out: 0, 1, either (see index.c). */
	size_t *cls[3];
	size_t n_cls[3];
	struct pathset *sets[3];
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
	struct policy_env env;
	/*
	 * Rules by syscall, in policy order: the rules naming syscall nr are
	 * rules[by_nr[by_nr_start[nr]]] .. rules[by_nr[by_nr_start[nr + 1] - 1]];
	 * by_entry[k] is the position of nr in the syscalls of rule by_nr[k].
	 */
	size_t *by_nr;
	size_t *by_entry;
	size_t by_nr_start[POLICY_NR_MAX + 1];
	struct policy_nr_index *index; /* POLICY_NR_MAX entries, after policy_finish */
	/*
	 * The decision of every call of nr when no argument can change it
	 * (index.c): fixed[nr], valid when bit nr of fixed_bits is set. Set
	 * only once policy_finish succeeded.
	 */
	uint64_t fixed_bits[POLICY_NR_MAX / 64];
	struct policy_decision *fixed;
	/* Files being read through include, innermost last: cycles are errors. */
	char **include_stack;
	size_t include_depth;
	char **included; /* every file read so far (canonical), read once */
	size_t n_included;
	struct policy_implicit_off implicit_off[POLICY_IMPLICIT_SETS];
	bool implicit_on[POLICY_IMPLICIT_SETS]; /* added: the policy has what the set guards */
	size_t n_implicit;                      /* rules[0..n_implicit) are implicit */
	struct policy_move_pattern *moves;      /* the stopping rules' patterns, once (moves.c) */
	size_t n_moves;
	unsigned int scope;                     /* `scope` (scope.c): POLICY_SCOPE_* asked */
	const char *scope_file;                 /* where it was first asked */
	int scope_line;
};

static inline bool policy_rule_is_unconditional(const struct policy_rule *r)
{
	return r->n_conds == 0 && r->n_paths == 0 && r->n_fconds == 0 && r->n_cond_words == 0;
}

/* Which kind of evaluation a rule needs for one of its syscalls (kform.c). */
enum kform_kind {
	KF_FALSE,  /* never matches a call of it */
	KF_TRUE,   /* matches every call of it */
	KF_REGS,   /* decided on registers: r->conds, and any of terms on the flags argument */
	KF_MEMORY, /* needs the target's memory (path=, addresses, openat2 flags); the
		    * register part (conds, terms, addressed) still holds for a match */
};

struct kform {
	enum kform_kind kind;
	int flags_arg;                    /* KF_REGS: -1 when no term applies */
	struct policy_flagterm terms[32]; /* KF_REGS: any holds (n_terms 0: no flag condition) */
	size_t n_terms;
	bool addressed; /* KF_REGS: also arg4 != 0 (sendto carries an address) */
};

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
/* What a syscall's register argument is (argkinds.c): for policy check's warnings. */
enum argkind { ARGKIND_OTHER, ARGKIND_POINTER, ARGKIND_INT };
enum argkind argkinds_of(int nr, unsigned int arg);

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
	const char *dir; /* of the file, for include; NULL: the working directory */
};

/* Appends a rule (taken over: *r is emptied). */
int policy_push_rule(struct policy *p, struct policy_rule *r);
/* Adds a syscall to a rule as it entered it (ENTRY_*), merging with an earlier entry. */
int rule_add_syscall(struct policy_rule *r, int nr, int col, unsigned int roles);
int policy_add_file_name(struct policy *p, const char *name, const char **ret);
int policy_read_file(FILE *f, char **ret_text, size_t *ret_len);

void parser_error(struct parser *ps, int col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void parser_warning(struct parser *ps, int col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void rule_free(struct policy_rule *r);

/* condition.c: a word with '=', '<', '>', '!' or '&', or starting with "path" or "argN". */
void condition_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t);
/* Are the rule's conditions valid for the syscalls it names? Reports each misfit. */
void condition_check_rule(struct parser *ps, const struct policy_rule *r,
			  const struct lexer_line *words);
/* Does the pattern fit path=/unix= rules (absolute, sane)? Reports and returns false if not. */
bool condition_check_pattern(struct parser *ps, const struct lexer_token *t, const char *pat);

/* groups.c */
typedef int (*group_emit_fn)(void *userdata, int nr, unsigned int roles);
/* Calls emit for each native syscall of the group (roles: ENTRY_*); -ENOENT when unknown. */
int groups_expand(const char *name, group_emit_fn emit, void *userdata);
const char *groups_suggest(const char *name);
bool groups_is_category(const char *name);

/* flags.c */
enum flags_source {
	FLAGS_NONE,  /* not an open */
	FLAGS_REG,   /* in a register (open, openat) */
	FLAGS_CONST, /* implied (creat) */
	FLAGS_MEM,   /* in memory (openat2) */
};
enum flags_source flags_source_of(const struct policy_pathcall *pc, int *ret_arg,
				  uint64_t *ret_const);
bool flags_terms_hold(const struct policy_flagterm *t, size_t n, uint64_t flags);
bool flags_entry_holds(const struct policy_rule *r, unsigned int roles,
		       const struct policy_pathcall *pc, uint64_t flags);
int flags_terms_and(const struct policy_flagterm *a, size_t na, const struct policy_flagterm *b,
		    size_t nb, struct policy_flagterm *out, size_t max);
bool flags_roles_fit(unsigned int have, unsigned int want, bool permissive);
size_t flags_role_terms(const struct policy_pathcall *pc, unsigned int roles, bool permissive,
			struct policy_flagterm *out, size_t max);
void flags_parse_access(struct parser *ps, struct policy_rule *r, const struct lexer_token *t);
void flags_parse_flags(struct parser *ps, struct policy_rule *r, const struct lexer_token *t);

/* netcond.c */
int net_parse(struct parser *ps, struct policy_rule *r, const struct lexer_token *t);
bool net_holds(const struct policy_net *n, const struct policy_sockaddr *sa);
/* net_holds for a call of nr: a destination of the any-address also as the loopback it reaches. */
bool net_holds_call(const struct policy_net *n, const struct policy_sockaddr *sa, int nr,
		    bool permissive);
bool net_is_empty(const struct policy_net *n);
/* Are the rule's network conditions proto=tcp and port= at most (`kernel` on connect, bind)? */
bool net_is_tcp_only(const struct policy_net *n);
void net_free(struct policy_net *n);
/* Does the syscall carry a socket address (connect, bind, sendto, sendmsg, sendmmsg)? */
bool net_syscall_has_address(int nr);

/* kform.c */
/* Does the rule let the call run (allow, log)? Such a rule must cover every path. */
bool kform_permissive(const struct policy_rule *r);
/* Which paths (bit n: path n) of a call of r's entry its path= conditions apply to. */
unsigned int kform_entry_paths(const struct policy_rule *r, size_t entry,
			       const struct policy_pathcall *pc);
/* Must one of those paths match (a restrictive rule), or every one? */
bool kform_any_path(const struct policy_rule *r, size_t entry);
void kform_build(const struct policy_rule *r, size_t entry, struct kform *ret);
/* evaluate.c: does a register condition hold for these arguments (as the filter compares)? */
bool policy_cond_holds(const struct policy_cond *c, const uint64_t *args);
/* kform_build's kind only, for rule index i and syscall nr (KF_FALSE when i does not name nr). */
enum kform_kind kform_kind_of(const struct policy *p, size_t i, int nr);

/* landlock.c: does Landlock check calls of nr (opens, exec, names made and removed, truncate)? */
bool landlock_answers_syscall(int nr);
/* landlock-compile.c, for compile.c */
struct policy_landlock;
/* The filter's rules for a syscall the Landlock layer decides. */
int landlock_compile_syscall(void *ctx, const struct policy_landlock *ll, int nr, uint32_t def,
			     bool *ret_notified);
/* Must every call of nr the policy may let run reach the supervisor (landlock.h)? */
bool landlock_forces_notify(const struct policy_landlock *ll, int nr);

/* bpf-run.c: runs a seccomp filter on d; 0 and its return value, -EINVAL when malformed. */
struct sock_fprog;
struct seccomp_data;
int policy_bpf_run(const struct sock_fprog *prog, const struct seccomp_data *d, uint32_t *ret);

/*
 * compile.c: does the filter send every call of nr to the supervisor (a
 * rule set libseccomp would compile otherwise than it says, among others)?
 */
bool compile_syscall_sends_all(const struct policy *p, int nr);
/* compile.c: does the filter settle the calls of nr that no rule sends up? */
bool compile_syscall_in_kernel(const struct policy *p, int nr);

/* needs.c */
/* How a memory-decided verdict on syscall nr is carried out. */
enum policy_enforcement policy_enforcement_of(int nr);

/* evaluate.c: the walk without the index (the test suite's reference). */
int evaluate_linear(const struct policy *p, const struct policy_call *call,
		    const struct policy_args_ops *ops, void *userdata, struct policy_decision *ret);

/* groups.c: the first member name no libseccomp architecture knows, NULL when none. */
const char *groups_unknown_member(size_t *ret_count);

/* index.c */
int index_build(struct policy *p);
/* The decision of rule r (the default: is_default), as the walk takes it (evaluate.c). */
void evaluate_decide(const struct policy_rule *r, bool is_default, bool consulted,
		     struct policy_decision *ret);
/* After moves_build: the decisions no argument changes (policy_fixed_decision). */
int index_fixed_build(struct policy *p);
void index_free(struct policy *p);

/* pathset.c: rules by the literal prefix of their path patterns. */
struct pathset;
int pathset_new(struct pathset **ret);
void pathset_free(struct pathset *s);
/* Adds pattern of rule position pos (added in increasing pos order). */
int pathset_add(struct pathset *s, const char *pattern, size_t pos);
int pathset_finish(struct pathset *s);
/* Rules, by position, whose patterns may match path: a sorted iterator. */
struct pathset_iter;
int pathset_query(const struct pathset *s, const char *path, struct pathset_iter **ret);
/* The smallest position >= from in the result, or SIZE_MAX. */
size_t pathset_iter_next(struct pathset_iter *it, size_t from);
void pathset_iter_free(struct pathset_iter *it);

int parse_text_in(struct policy *p, const char *name, const char *dir, const char *text,
		  struct policy_diags *diags, size_t *ret_errors);

/* moves.c */
/* Does nr give an existing file a new name (rename, renameat(2), link, linkat)? */
bool moves_syscall(int nr);
/* Is an allowed call of nr checked against the patterns (a move, and the policy has some)? */
bool moves_checked(const struct policy *p, int nr);
int moves_build(struct policy *p);
void moves_free(struct policy *p);
/*
 * 1 when moving from to to (and back, with both) would take a file out of a
 * stopping rule (the move is refused): *ret_by's file and line name it. 0,
 * or -errno.
 */
int moves_check(const struct policy *p, const char *from, const char *to, bool both,
		struct policy_decision *ret_by);
/* glob.c: does pattern hold no '*' or '?' (it matches one path, its unescaped text)? */
bool glob_is_literal(const char *pattern);
/* glob.c: does pattern tell a/x from b/x for some x (the names beneath)? */
bool glob_tells_apart_beneath(const char *pattern, const char *a, const char *b);

/* implicit.c */
/* `implicit NAME off`. */
void implicit_parse(struct parser *ps, const struct lexer_line *words);
void scope_parse(struct parser *ps, const struct lexer_line *words);
/* At policy_finish: puts the sets the policy needs before its rules; warns about those off. */
int implicit_add(struct policy *p, struct policy_diags *diags);
/* Whether implicit set NAME was added to p (it has what the set guards, and it is not off). */
bool implicit_is_on(const struct policy *p, const char *name);

/* include.c */
/* include FILE: a policy or an OCI profile, relative to the including file. */
void include_parse(struct parser *ps, const struct lexer_line *words);
/*
 * Reads a file for parsing and pushes it on the include stack (pop it when
 * done): -EDEADLK when it is already being read (a cycle) or nested too
 * deep, -EALREADY when an include already read it, -errno otherwise.
 */
int include_read(struct policy *p, const char *path, bool top, char **ret_text, size_t *ret_len);
void include_pop(struct policy *p);

/* profile.c: OCI / Docker seccomp profiles imported as rules */
/* Is this text an OCI seccomp profile (a .json name, or a leading '{')? */
bool profile_is_json(const char *name, const char *text);
/* Adds the rules of an OCI seccomp profile where it is included. */
int profile_parse_text(struct policy *p, const char *name, const char *text, size_t len,
		   struct policy_diags *diags, size_t *ret_errors);

#endif
