/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One decision of the enforcer (enforce.c), shared with the families of
 * calls that read pointer arguments, one file each: enforce-open.c (open,
 * openat, openat2, creat), enforce-stat.c (stat family, readlink, access),
 * enforce-xattr.c (xattr reads, file_getattr),
 * enforce-mutate.c (unlink... truncate), enforce-net.c (connect, bind,
 * sendto, sendmsg), enforce-listen.c (listen, which may bind). A family
 * copies an argument out of the target's memory only when the policy asks
 * for it, and when the policy then lets the call run, performs it on that
 * copy: never CONTINUE after a memory read.
 */
#ifndef UNOTIFY_ENFORCE_CALL_H
#define UNOTIFY_ENFORCE_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "audit/audit.h"
#include "lib/unotify.h"
#include "policy/policy.h"

struct enforce_call;

struct enforce_family {
	/* Fills c from the registers: which arguments the call has. */
	void (*decode)(struct enforce_call *c);
	int (*path)(struct enforce_call *c, int n, const char **ret_path);
	int (*open_flags)(struct enforce_call *c, uint64_t *ret_flags);
	int (*sockaddr)(struct enforce_call *c, const struct policy_sockaddr **ret);
	/*
	 * The call the supervisor performs when it differs from the one the
	 * target made (an O_PATH open is performed read-only: ADDFD takes no
	 * O_PATH file): rewrites call (and what the family's callbacks answer
	 * from now on) to it and returns true; the policy must allow that one
	 * too. NULL, or false: the same call.
	 */
	bool (*performed_as)(struct enforce_call *c, struct policy_call *call);
	/*
	 * Optional: the policy let the call run after reading memory, and the
	 * family may find more the call does, which the policy refuses (exec:
	 * the interpreters the kernel runs for it): d then becomes that refusal.
	 */
	void (*recheck)(struct enforce_call *c, struct policy_decision *d);
	/* The policy let the call run after reading memory: perform it. */
	void (*perform)(struct enforce_call *c, struct unotify_verdict *v);
	/*
	 * The policy refused it with `deny ... kernel`: the kernel's answer, a
	 * positive errno (NULL: EACCES), or 0 when the kernel's sandbox lets
	 * this call through (it is then performed). See lib/refusal.c.
	 */
	int (*refuse)(struct enforce_call *c);
	/*
	 * Perform an allowed call even when it was decided on registers alone:
	 * under a Landlock ruleset the program's own kernel may answer it
	 * otherwise (a rename to another directory: EXDEV). NULL: never.
	 */
	bool (*always_perform)(const struct enforce_call *c);
	void (*release)(struct enforce_call *c);
	/* Optional: forgets what was planned on guessed names (the decision is taken again). */
	void (*forget)(struct enforce_call *c);
	/* Optional: what the audit record shows beyond the decision's own reads. */
	void (*audit)(struct enforce_call *c, struct audit_record *r);
	/*
	 * The library's works (1 << UNOTIFY_WORK_*) deciding and performing
	 * the family takes: a supervisor that confines itself (unotifyd)
	 * allows their system calls (unotify_work_syscalls). Never 0.
	 */
	unsigned int works;
};

/* Path argument n of a call, as copied and as resolved. */
struct enforce_path {
	char arg[4096];
	bool have_arg;
	struct unotify_path res;
	bool resolved;
};

struct enforce_call {
	const struct policy *policy;      /* what decides (exec's interpreters are asked too) */
	unotify_listener *l;
	const struct seccomp_notif *req;
	const uint64_t *args;
	const struct enforce_family *family;
	const struct policy_pathcall *pc; /* NULL for calls that take no path */
	bool has_path[2];                 /* set by decode: path n exists (NULL pointers too) */
	bool has_open_flags;
	bool has_sockaddr;
	unotify_target *target;           /* lazily, by enforce_target() */
	bool kept_ok;                     /* set by decode: the call creates and signals nothing */
	/*
	 * A path was read without its ID_VALID (a kept_ok call, before its
	 * target): proved by the target got next, else before the decision
	 * is told (enforce_prove_reads).
	 */
	bool reads_unproven;
	bool view_fixed;                  /* the filter keeps roots and user namespaces fixed */
	/*
	 * Names guessed from the path's text (unotify_path_how.guess): a
	 * decision that does not let the call run, or a perform that finds a
	 * guess wrong (guess_wrong, nothing done), is taken again carefully.
	 */
	bool careful;
	bool guessed;
	bool guess_wrong;
	bool real_ids;                    /* access(2): the target's real ids check */
	struct enforce_path *paths;       /* 2 of them, when a path is first needed */
	void *state;                      /* the family's own (freed by its release) */
	bool paths_kept;                  /* paths and state are the thread's (enforce_scratch) */
	bool state_kept;
	/*
	 * The address for the audit trail, or NULL; it points into the net
	 * family's state. (No buffer here: this struct is zeroed on every
	 * round trip, so it stays small.)
	 */
	const char *addr_text;
	int read_error;                   /* the call fails so, as the kernel would, before acting */
	bool broken;                      /* this thread could not be restored: stop */
};

/* The families, by syscall number: NULL when nothing of the call is in memory. */
const struct enforce_family *enforce_family_find(int nr);
extern const struct enforce_family enforce_open_family;
extern const struct enforce_family enforce_stat_family;
extern const struct enforce_family enforce_xattr_family;
extern const struct enforce_family enforce_mutate_family;
extern const struct enforce_family enforce_net_family;
extern const struct enforce_family enforce_listen_family;
extern const struct enforce_family enforce_exec_family;

/* ---- Helpers for the families (enforce.c) ---- */

/*
 * A family's state of size bytes, not zeroed: the thread's kept buffer when
 * it fits (ENFORCE_STATE_KEPT: the open family's, with its plan), else
 * malloc'd. Sets c->state; NULL when out of memory.
 */
#define ENFORCE_STATE_KEPT (9 * 1024)
void *enforce_alloc_state(struct enforce_call *c, size_t size);
/* A family's release when its state is one allocation (calloc, or enforce_alloc_state). */
void enforce_free_state(struct enforce_call *c);

/* The target, read once per call. -ENOENT: it is gone. */
int enforce_target(struct enforce_call *c, unotify_target **ret);
/*
 * Every directory a ".." of the call's path texts leaves (an exec's, left
 * unfolded; a socket's) must be one the target may stat (enforce-climb.c):
 * 0, or 1 and the refusal in ret.
 */
int enforce_climb_refusal(struct enforce_call *c, struct policy_decision *ret);
/* The same for one text the kernel will walk relative to dirfd (an exec's interpreter). */
int enforce_climb_text(struct enforce_call *c, const char *text, int dirfd,
		       struct policy_decision *ret);
/* Takes the ".." of text lexically, in place (enforce-climb.c). */
void enforce_fold_dots(char *text);
/* Is path text, just read, to have its ".." taken lexically (enforce-climb.c)? */
bool enforce_folds_dots(const struct enforce_call *c, const char *text);
/*
 * The call fails with err before any file is touched (bad flags, a bad
 * pointer): remembered for the verdict, returned as -err for the policy.
 */
int enforce_fail(struct enforce_call *c, int err);
/* c->paths, on first use (the thread's kept pair, not zeroed); NULL when out of memory. */
struct enforce_path *enforce_paths(struct enforce_call *c);
/* Copies path n (at addr) out of the target into c->paths[n].arg. */
int enforce_read_path(struct enforce_call *c, int n, uint64_t addr);
/* Resolves path n (already copied, how->path is set here) and returns what the policy sees. */
int enforce_resolve_path(struct enforce_call *c, int n, struct unotify_path_how *how,
			 const char **ret_path);
/*
 * For a family whose call has one file (the stat family, xattr reads):
 * early, the errno the kernel refuses its arguments with before anything
 * (0: none), else the target, read first so that the memory read next is
 * proved the target's (ID_VALID). 0, or -errno as enforce_fail().
 */
int enforce_target_first(struct enforce_call *c, int early);
/*
 * Then its path at addr, from dirfd, the last symlink followed or not,
 * AT_EMPTY_PATH ("" or NULL: dirfd's file), named by its text where it
 * can be (unotify_path_how.guess): what the policy sees.
 */
int enforce_resolve_file(struct enforce_call *c, int dirfd, uint64_t addr, bool nofollow,
			 bool empty_path, const char **ret_path);
/* The verdict for a performed call's result: a value, or its errno. */
void enforce_result(struct enforce_call *c, struct unotify_verdict *v, int64_t r);
/*
 * Path 0 of an allowed call about to be performed (the policy asked for it
 * before it allowed: resolved already), or NULL with *v the call's errno.
 */
const struct unotify_path *enforce_perform_path(struct enforce_call *c, struct unotify_verdict *v);
/* The same for a call performed on a file named by its text: -UNOTIFY_EGUESS decides it again. */
void enforce_result_file(struct enforce_call *c, struct unotify_verdict *v, int64_t r);
void enforce_verdict_errno(struct unotify_verdict *v, int err);
/*
 * err, with the signal the kernel raises in the thread along with it
 * (SIGPIPE with EPIPE, SIGXFSZ with EFBIG): a default action before the
 * reply, a handler after it (unotify_target_sig_disposition).
 */
void enforce_verdict_signal(struct enforce_call *c, struct unotify_verdict *v, int sig, int err);
/* ---- Sockets (enforce-net.c) ---- */

/* Is sock a socket (-ENOTSOCK), and of what kind (-EPERM when it cannot be read)? */
int enforce_socket_kind(int sock, int *domain, int *type, int *protocol);
/* proto=: what Landlock calls a TCP socket (sk_is_tcp), and its UDP peer, or POLICY_PROTO_NONE. */
int enforce_socket_proto(int domain, int type, int protocol);
/* An address as the audit trail shows it (inet:ADDR:PORT, inet6:[ADDR]:PORT, unix:...). */
void enforce_sockaddr_text(const struct policy_sockaddr *v, char *text, size_t size);
/* An abstract unix name of len bytes (without its leading NUL), as rules read it. */
void enforce_view_abstract(const uint8_t *name, size_t len, struct policy_sockaddr *v);

/* Writes an out-parameter into the target's memory; -EFAULT as the kernel would. */
int enforce_write(struct enforce_call *c, uint64_t addr, const void *buf, size_t len);

#endif
