/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy language: parse, check, compile, evaluate.
 *
 * Pure: no fork, no sockets, no kernel calls but libseccomp's filter
 * building, so every piece can be unit-tested and fuzzed.
 *
 * Semantics: rules are read top to bottom and the first that matches a call
 * decides it; `default` decides what no rule matches. The compiler splits the
 * rules into a kernel layer (a libseccomp filter that settles every call it
 * can exactly as the rule list would) and a user-space layer (calls the
 * kernel sends to the supervisor with SCMP_ACT_NOTIFY, decided by
 * policy_evaluate over the same rule list), so the result never depends on
 * the layer a rule lands in.
 */
#ifndef UNOTIFY_POLICY_H
#define UNOTIFY_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/filter.h>

#include "pathcalls.h"

enum policy_action {
	POLICY_ALLOW,
	POLICY_DENY,   /* fails the call with an errno (EPERM when none is written) */
	POLICY_KILL,   /* kills the process */
	POLICY_LOG,    /* allows it and records it in the audit trail */
	POLICY_RETURN, /* the supervisor completes the call with a value */
};

enum policy_severity {
	POLICY_ERROR,
	POLICY_WARNING,
};

/* One message about a policy: file:line:col: severity: message (hint). */
struct policy_diag {
	char *file;
	int line;
	int col;
	enum policy_severity severity;
	char *message;
	char *hint; /* NULL or "did you mean 'openat'?" */
};

struct policy_diags {
	struct policy_diag *items;
	size_t count;
	size_t errors;
	size_t warnings;
};

void policy_diags_free(struct policy_diags *d);
/* Prints every diagnostic as FILE:LINE:COL: error: MESSAGE (HINT). */
void policy_diags_print(const struct policy_diags *d, FILE *out);

struct policy;

struct policy *policy_new(void);
void policy_free(struct policy *p);

/*
 * The target the policy is for, as OCI seccomp profiles need it: their
 * rules may apply only with some capabilities (includes.caps), without some
 * (excludes.caps), or from some kernel version on (includes.minKernel). The
 * caller finds these out (daemon/: libcap for the target's effective set,
 * uname for the kernel); policy/ only reads them. Set it before parsing a
 * text that includes a profile. Without it: no capabilities, kernel
 * unknown (0.0: no minKernel rule applies), the most restrictive reading.
 */
struct policy_env {
	uint64_t caps;    /* bit 1 << CAP_*: the target's effective capabilities */
	int kernel_major; /* e.g. 6 for Linux 6.18 */
	int kernel_minor; /* e.g. 18 */
};

int policy_set_env(struct policy *p, const struct policy_env *env);

/*
 * Adds the rules of a policy text. name is what diagnostics call it (a file
 * name, or "--rule 1"). Every error is collected in diags, not just the
 * first; returns -EINVAL when there was at least one error, and the policy
 * must then not be used.
 */
int policy_parse_text(struct policy *p, const char *name, const char *text,
		      struct policy_diags *diags);
int policy_parse_file(struct policy *p, const char *path, struct policy_diags *diags);
/*
 * Checks the whole policy once every text is added (unreachable rules,
 * missing default, ...). Adds its findings to diags; -EINVAL on error.
 */
int policy_finish(struct policy *p, struct policy_diags *diags);

/* ---- Compile ---- */

struct policy_program {
	struct sock_fprog bpf;     /* the kernel layer, for the native arch; foreign arches killed */
	bool *notified;            /* indexed by native syscall number: sent to the supervisor */
	size_t nr_max;
};

/* Builds the kernel layer. */
int policy_compile(const struct policy *p, struct policy_program **ret);
/*
 * Does the kernel layer notify every credential change it lets run (with
 * the implicit set fixed-view on)? Then a supervisor of a filter built
 * from it may watch credentials (unotify_listener_watch_creds).
 */
bool policy_watches_creds(const struct policy *p);
void policy_program_free(struct policy_program *prog);
/* libseccomp's pseudo filter code of the kernel layer (for explain/debug). */
int policy_export_pfc(const struct policy *p, int fd);

/* ---- Evaluate (the user-space layer) ---- */

/* What the supervisor knows of one call. */
struct policy_call {
	int nr;              /* native syscall number */
	uint64_t args[6];
};

/*
 * Supplies the call's resolved path when a rule needs it. Called at most once
 * per evaluation, and only when a rule with path= is reached. Returns 0 and
 * the path, or -errno: the call is then denied with EPERM, blamed on the rule
 * that needed the path (fail closed); the caller may report the errno the
 * kernel itself would give instead.
 */
typedef int (*policy_path_fn)(void *userdata, const char **ret_path);

struct policy_decision {
	enum policy_action action;
	int error;               /* POLICY_DENY: the errno */
	/*
	 * POLICY_DENY by a rule whose errno is `kernel`: the errno is the
	 * kernel's answer to a refused access, which the caller works out for
	 * the call at hand (EACCES, or the error of a check the kernel makes
	 * first, unotify.policy(5)); error holds EACCES.
	 */
	bool kernel_answer;
	int64_t value;           /* POLICY_RETURN: the value */
	int line;                /* the rule that decided (0: default) */
	const char *file;        /* its file */
	bool path_consulted;     /* a path was read to decide: never CONTINUE */
	bool by_path_rule;       /* the rule that decided has path= (never the default) */
};

int policy_evaluate(const struct policy *p, const struct policy_call *call,
		    policy_path_fn get_path, void *userdata, struct policy_decision *ret);

/*
 * policy_evaluate for a file that runs other files (exec: the dynamic
 * loader run as a program): a rule that lets the call run matches it only
 * by a pattern without '*' or '?' (its exact name); rules that stop it
 * match as always. When that lets the call run by a rule without path=,
 * or by the default, the call is refused as the first rule of its syscall
 * that refuses (deny, kill, return) says, or the default when it refuses;
 * when none does, the decision stands. path_consulted is then true.
 */
int policy_evaluate_named(const struct policy *p, const struct policy_call *call,
			  policy_path_fn get_path, void *userdata, struct policy_decision *ret);

/* The protocol of a socket, for proto= (POLICY_PROTO_NONE: another, or unknown). */
#define POLICY_PROTO_NONE 0
#define POLICY_PROTO_TCP  1 /* IPv4 or IPv6, SOCK_STREAM, IPPROTO_TCP (not MPTCP, SCTP) */
#define POLICY_PROTO_UDP  2 /* IPv4 or IPv6, SOCK_DGRAM, IPPROTO_UDP */

/* A socket address copied out of the target, for network rules (issue 3). */
struct policy_sockaddr {
	int family;             /* AF_INET, AF_INET6, AF_UNIX, or another AF_* */
	uint8_t addr[16];       /* network byte order; IPv4 in the first 4 bytes */
	uint16_t port;          /* host byte order */
	int proto;		/* POLICY_PROTO_*: the socket's, as the caller found it */
	/*
	 * A TCP socket's address that the kernel refuses before it looks at
	 * the port (shorter than its family's, or of another family than the
	 * socket's, AF_UNSPEC aside): it meets no port= condition, as the
	 * kernel's TCP sandbox (Landlock) never sees a port in it.
	 */
	bool no_port;
	/*
	 * A destination of the any-address (0.0.0.0, ::ffff:0.0.0.0, ::)
	 * reaches a local address: for IPv4 the socket's source (the address
	 * it is bound to, an IP_PKTINFO source), else 127.0.0.1; for IPv6 ::1
	 * or, connecting a socket bound to a v4-mapped address,
	 * ::ffff:127.0.0.1. The caller that knows it sets it (in addr's
	 * family); when unset, the loopback is assumed.
	 */
	bool any_reaches_set;
	uint8_t any_reaches[16];
	bool unix_abstract;     /* AF_UNIX: an abstract name (shown without its NUL) */
	/* AF_UNIX: the path once resolved (may exceed sun_path), or the abstract name */
	char unix_path[4096];
};

/*
 * Everything the evaluator may need from the target's memory, each fetched
 * lazily, at most once, and only when a rule that needs it is reached.
 * Each returns 0, or -errno (the call is then denied: fail closed; the
 * caller may report the kernel's own errno instead). Any member may be NULL
 * when the call has no such argument.
 */
struct policy_args_ops {
	/* Path n (0 or 1, see pathcalls.h) after resolution, absolute. */
	int (*path)(void *userdata, int n, const char **ret_path);
	/* The open flags of an open-family call (openat2 keeps them in memory). */
	int (*open_flags)(void *userdata, uint64_t *ret_flags);
	/*
	 * The address of connect, bind, sendto, sendmsg (sendmmsg: none is
	 * read, leave it NULL). Family AF_UNSPEC: the call carries no address
	 * (sendmsg without msg_name); it then meets no address condition and
	 * is not in @net-connect. A sendto with a NULL address is known from
	 * its registers and never asks.
	 */
	int (*sockaddr)(void *userdata, const struct policy_sockaddr **ret);
};

/*
 * policy_evaluate with every kind of pointer argument. path_consulted in
 * the decision is true when any callback was used. For a call with two
 * paths (rename, link...) a rule that lets it run needs both to match, one
 * that stops it one (unotify.policy(5), CATEGORIES); each is asked for only
 * when needed, path 0 first. -ENOMEM when the index could not be queried
 * (deny the call).
 */
int policy_evaluate_args(const struct policy *p, const struct policy_call *call,
			 const struct policy_args_ops *ops, void *userdata,
			 struct policy_decision *ret);

/*
 * The decision of every call of syscall nr when no argument can change it
 * (the first rule that can match one has no condition, or none can and the
 * default decides), as policy_evaluate_args would take it; NULL when an
 * argument may matter, before policy_finish succeeded, and for every call
 * that takes a path or an address. Points into the policy.
 */
const struct policy_decision *policy_fixed_decision(const struct policy *p, int nr);

/*
 * Can some call of syscall nr be refused (a rule naming it that does not
 * let it run, or a default that does not)? false means every call of it
 * runs, whatever its arguments.
 */
bool policy_can_refuse(const struct policy *p, int nr);

/*
 * Does the policy decide binds (a rule on bind with a condition or that
 * refuses, or a default that refuses)? A listen(2) on a socket never bound
 * binds it (the kernel's autobind: the any-address, or the address bound
 * without a port, and a port of the kernel's choosing), so such a policy
 * takes listen to the supervisor, which decides that bind as one of port 0.
 */
bool policy_listen_binds(const struct policy *p);

/* ---- Names ---- */

/* Native syscall number of name, or -ENOENT. */
int policy_syscall_resolve(const char *name);
/* Name of a native syscall number; NULL when unknown. Static storage. */
const char *policy_syscall_name(int nr);
/* Does this syscall take a path that path= can match (see pathcalls.h)? */
bool policy_syscall_has_path(int nr);
/* Errno by name ("EACCES") or number ("13"); -EINVAL when neither. */
int policy_errno_parse(const char *s);
/* "EACCES" for 13; NULL when unknown. */
const char *policy_errno_name(int err);
const char *policy_action_name(enum policy_action a);

/* Glob match: '*' and '?' within one path component, '**' across. */
bool policy_glob_match(const char *pattern, const char *path);
/*
 * Could the pattern tell name a from name b, or a/x from b/x for some x
 * (what a rename or link of a to b would change)? May say yes for patterns
 * that cannot (never no for one that can).
 */
bool policy_glob_tells_apart(const char *pattern, const char *a, const char *b);

/* ---- Introspection (explain, check) ---- */

size_t policy_rule_count(const struct policy *p);
/* Writes a human description of rule i ("openat path=/etc/shadow -> deny EACCES"). */
int policy_rule_describe(const struct policy *p, size_t i, char *buf, size_t size);
/*
 * Added: where rule i was written. For both functions, i == policy_rule_count(p)
 * means the default ("default -> deny EPERM"; file NULL and line 0 when no
 * default line was written). policy_rule_describe returns the length, or
 * -ERANGE when buf was too small (the text is then truncated).
 */
int policy_rule_source(const struct policy *p, size_t i, const char **ret_file, int *ret_line);

/* What rule i needs to decide a call of syscall nr. */
enum policy_needs {
	POLICY_NEEDS_NEVER,     /* it can never match a call of nr (or does not name nr) */
	POLICY_NEEDS_NOTHING,   /* it matches every call of nr */
	POLICY_NEEDS_REGISTERS, /* decided on the registers (the kernel filter can) */
	POLICY_NEEDS_MEMORY,    /* needs a path, an address or openat2 flags from memory */
};

/* How a verdict decided by rule i for syscall nr is carried out. */
enum policy_enforcement {
	POLICY_ENFORCED_KERNEL,    /* settled by the kernel filter, or could be */
	POLICY_ENFORCED_REGISTERS, /* by the supervisor on registers: CONTINUE is safe */
	POLICY_ENFORCED_PERFORMED, /* memory read, the call performed by the supervisor */
	POLICY_ENFORCED_UNSAFE,    /* memory read, then CONTINUE: a racing thread can bypass it */
};

/*
 * Both for rule i (i == policy_rule_count(p): the default, which needs
 * nothing) and syscall nr, once policy_finish() ran. ret_how may be NULL.
 * A denial, kill or return is always safe: only what lets a call run after
 * a memory read depends on how the supervisor performs it; ret_how says
 * how an allow or log would be (the worst case of the rule).
 */
int policy_rule_needs(const struct policy *p, size_t i, int nr, enum policy_needs *ret_needs,
		      enum policy_enforcement *ret_how);
/* Why a syscall's memory-decided verdicts are enforced the way they are (static text). */
const char *policy_enforcement_reason(int nr);

/*
 * Implicit rule sets (unotify.policy(5), IMPLICIT RULES): rules added before
 * a policy's own when it has path or network rules, so that those cannot be
 * walked around (chroot and mounts, file handles, device nodes, io_uring,
 * raw sockets). They are ordinary rules of files named "implicit:NAME".
 * i from 0; -ENOENT past the last set. p may be NULL (names only).
 */
struct policy_implicit_info {
	const char *name;     /* "fixed-view" */
	const char *gap;      /* what a program can do without the set */
	bool on;              /* added to this policy (after policy_finish) */
	const char *off_file; /* where `implicit NAME off` turned it off, or NULL */
	int off_line;
};

int policy_implicit_info(const struct policy *p, size_t i, struct policy_implicit_info *ret);

/*
 * `scope abstract-unix signal` (unotify.policy(5), SCOPE): the program may
 * not reach an abstract Unix socket bound, or a process, outside its
 * sandbox. Only Landlock (ABI 6) enforces it: without, the program must
 * not start. The POLICY_SCOPE_* asked (0: none), and where first.
 */
#define POLICY_SCOPE_ABSTRACT_UNIX (1u << 0)
#define POLICY_SCOPE_SIGNAL        (1u << 1)
unsigned int policy_scope(const struct policy *p, const char **ret_file, int *ret_line);
/* "abstract-unix", "signal": the name of one POLICY_SCOPE_* bit, or NULL. */
const char *policy_scope_name(unsigned int bit);

/* Named groups (@file-read, @network-io...): 0 and the sorted numbers, -ENOENT when unknown. */
int policy_group_expand(const char *name, int *nrs, size_t size, size_t *ret_n);
/* The i-th group name (with '@'), NULL past the end. */
const char *policy_group_at(size_t i);

/* ---- Introspection for tools (policy/introspect.c, owned by the "tools" helper) ---- */

/* Rule i of a policy as data; i == policy_rule_count(p) is the default. */
struct policy_rule_info {
	enum policy_action action;
	int error;            /* POLICY_DENY */
	bool kernel_answer;   /* POLICY_DENY with the errno word `kernel` */
	int64_t value;        /* POLICY_RETURN */
	const char *file;     /* NULL for a default that was not written */
	int line;
	bool is_default;
};

int policy_rule_info(const struct policy *p, size_t i, struct policy_rule_info *ret);
/* How many rules name syscall nr (0 before policy_finish). */
size_t policy_syscall_rule_count(const struct policy *p, int nr);
/* The k-th rule naming nr, in policy order, as an index for the functions above. */
int policy_syscall_rule_at(const struct policy *p, int nr, size_t k, size_t *ret_i);
/*
 * Does rule i read the target's memory for every call of nr that reaches it
 * (POLICY_NEEDS_MEMORY with no register condition that could rule the call
 * out first)? False when it may not, or needs no memory.
 */
bool policy_rule_memory_first(const struct policy *p, size_t i, int nr);

enum policy_layer {
	POLICY_LAYER_KERNEL,     /* every call settled by the filter */
	POLICY_LAYER_MIXED,      /* calls meeting some rule's register conditions go to the
				  * supervisor, the filter settles the others (or all go) */
	POLICY_LAYER_SUPERVISOR, /* every call goes to the supervisor */
};

/*
 * Is an allowed call of nr checked against every path pattern (a rename or
 * link in a policy with path rules: unotify.policy(5), MOVES)? Its paths
 * are then read and the call performed, whatever rule allows it.
 */
bool policy_syscall_moves_checked(const struct policy *p, int nr);

/* Where calls of nr are decided, from prog = policy_compile(p). */
int policy_syscall_layer(const struct policy *p, const struct policy_program *prog, int nr,
			 enum policy_layer *ret);

#endif
