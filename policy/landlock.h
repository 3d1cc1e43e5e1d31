/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Landlock layer of a policy: the rules the kernel's own sandbox
 * enforces exactly as the rule list says, as a ruleset description that
 * lib/landlock.c applies in the child, and the calls it decides, which the
 * seccomp filter then no longer sends to the supervisor. Pure, like the
 * rest of policy/: which rules move is a function of the policy and of the
 * Landlock ABI the caller probed. docs/LANDLOCK.md gives the reasoning.
 *
 * What moves (unotify.policy(5), LANDLOCK):
 *  - opens (open and openat without O_TMPFILE and O_PATH; with O_CREAT
 *    only when every grant holds read, write and create), when the open
 *    rules are allows of @file-read/-write/-create on directories (DIR/"**")
 *    and files, then `deny ... kernel`, then an allow: read-file, read-dir,
 *    write-file, truncate, make-reg;
 *  - execve and execveat, on the same shape of rules: the execute right
 *    (the filter still sends them to the supervisor, which refuses the
 *    dynamic loader run as a program: landlock-compile.c);
 *  - connect and bind, each on its own: allows of TCP ports, `deny ...
 *    proto=tcp kernel`, then an allow of the rest (landlock-net.c): the
 *    connect-tcp and bind-tcp rights, a rule per port granted.
 * Everything else stays with seccomp and the supervisor, which gives the
 * same answers (the supervisor works out `kernel` as the kernel would).
 */
#ifndef UNOTIFY_POLICY_LANDLOCK_H
#define UNOTIFY_POLICY_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy/policy.h"

/* The families of calls the layer can decide. */
enum policy_landlock_family {
	POLICY_LANDLOCK_OPEN,	 /* open, openat, openat2, creat (only non-creating opens move) */
	POLICY_LANDLOCK_EXEC,	 /* execve, execveat */
	POLICY_LANDLOCK_CONNECT, /* connect: TCP ports (ABI 4), landlock-net.c */
	POLICY_LANDLOCK_BIND,	 /* bind: TCP ports (ABI 4) */
	POLICY_LANDLOCK_FAMILIES,
};

/* The file families (opens, exec) come first; the net ones follow. */
#define POLICY_LANDLOCK_FILE_FAMILIES 2

/* A TCP port the layer grants connect or bind on (one Landlock rule each). */
struct policy_landlock_port {
	uint16_t port;
	uint64_t access;  /* LANDLOCK_ACCESS_NET_CONNECT_TCP, _BIND_TCP */
	const char *file; /* the first policy rule granting it */
	int line;
};

/* One Landlock rule: a directory and what is beneath it, or one file. */
struct policy_landlock_rule {
	char *path;	 /* absolute, as the policy wrote it (unescaped) */
	bool beneath;	 /* from DIR/"**": must be a directory; else whatever is there */
	uint64_t access; /* LANDLOCK_ACCESS_FS_* granted (file rights for a file) */
	/*
	 * A path without ** may turn out to be a directory, where Landlock
	 * grants beneath it: that is exact only for the rights the directory
	 * rules above it grant anyway (covered); the rest would leak.
	 */
	uint64_t covered;
	unsigned int families; /* bit per family that needs it */
	const char *file;      /* the first policy rule granting it */
	int line;
};

struct policy_landlock_state;

struct policy_landlock {
	int abi;	     /* the ABI it was built for (0: none) */
	uint64_t handled_fs; /* LANDLOCK_ACCESS_FS_* the ruleset handles (0: no ruleset) */
	struct policy_landlock_rule *rules;
	size_t n_rules;
	bool decided[POLICY_LANDLOCK_FAMILIES];
	/* Why a family stays with the supervisor ("FILE:LINE: ...": NULL when decided). */
	char *why_not[POLICY_LANDLOCK_FAMILIES];
	/*
	 * The opens: the roles refused (POLICY_ROLE_*), and whether those that
	 * create (O_CREAT) are Landlock's too (else create_why: why not).
	 * landlock_open_notified() says which opens still go to the supervisor.
	 */
	unsigned int open_refused;
	bool open_create;
	char *create_why;
	/* O_RDWR and O_RDONLY|O_TRUNC opens go to the supervisor: a rule grants read or write
	 * alone. */
	bool open_notify_rdwr;
	/*
	 * The policy's `scope` (policy_scope): the LANDLOCK_SCOPE_* the domain
	 * gets, and, when this ABI lacks one asked (below 6, or the layer
	 * off), why ("FILE:LINE: ..."): the program must then not start, as
	 * nothing else enforces it. NULL otherwise.
	 */
	uint64_t scoped;
	char *scope_why;
	/*
	 * connect and bind, when decided: the TCP rights the ruleset handles
	 * (LANDLOCK_ACCESS_NET_*) and the ports it grants; every other TCP
	 * port is refused by the kernel (EACCES), and the filter lets every
	 * connect (bind) run, since the rules allow whatever is not TCP.
	 */
	uint64_t handled_net;
	struct policy_landlock_port *ports;
	size_t n_ports;
	struct policy_landlock_state *state; /* private */
};

/*
 * The layer for a kernel with Landlock ABI abi (0: none, which moves
 * nothing and says so). Never fails on a policy it cannot move: each
 * family then has its why_not. -ENOMEM, -EINVAL (unfinished policy).
 */
int policy_landlock_build(const struct policy *p, int abi, struct policy_landlock **ret);
void policy_landlock_free(struct policy_landlock *ll);
/*
 * Leaves a family with the supervisor after all (the caller found that a
 * rule of it cannot be bound here: lib's unotify_landlock_check). The
 * rules, rights and the other families are worked out again (reads
 * restricted need exec in the layer too). why is copied.
 */
int policy_landlock_disable(struct policy_landlock *ll, enum policy_landlock_family f,
			    const char *why);

/* The family of a syscall, or -1. */
int policy_landlock_family_of(int nr);
const char *policy_landlock_family_name(enum policy_landlock_family f);
/* What the layer does with rule i (policy_rule_count(p): the default) in family f; NULL: nothing.
 */
const char *policy_landlock_rule_note(const struct policy_landlock *ll,
				      enum policy_landlock_family f, size_t i);
/* Does the layer decide (some) calls of nr in the kernel? */
bool policy_landlock_decides(const struct policy_landlock *ll, int nr);
/*
 * Why calls of nr are not decided by Landlock (its family's why_not, or
 * why the layer never takes such calls: the sends); NULL when they are, or
 * when nr takes no path and no address at all.
 */
const char *policy_landlock_why_not(const struct policy_landlock *ll, int nr);
/*
 * Does an open or openat with these flags go to the supervisor, when the
 * layer decides the opens? (O_PATH, O_TMPFILE; O_CREAT unless the
 * creating opens are Landlock's, or when the open's access is not refused;
 * O_TRUNC below ABI 3; the two-role opens with open_notify_rdwr.)
 */
bool landlock_open_notified(const struct policy_landlock *ll, uint64_t flags);
/* "O_PATH, O_TMPFILE, O_CREAT": what landlock_open_notified() sends up, as text. */
int landlock_open_notified_text(const struct policy_landlock *ll, char *buf, size_t size);
/* "read-file read-dir write-file": the names of the rights in access. */
int policy_landlock_access_names(uint64_t access, char *buf, size_t size);

/*
 * The kernel layer with the Landlock layer under it: the calls Landlock
 * decides are allowed by the filter (open, openat: unless they create or
 * are O_PATH); rename, link and (with the truncate right handled) truncate
 * are sent to the supervisor whenever the policy may allow them, because
 * the supervisor must perform them outside the sandbox (Landlock would
 * refuse cross-directory renames, EXDEV). ll NULL: policy_compile().
 */
int policy_compile_landlock(const struct policy *p, const struct policy_landlock *ll,
			    struct policy_program **ret);
int policy_export_pfc_landlock(const struct policy *p, const struct policy_landlock *ll, int fd);

/* The layer in a readable form (`unotify policy compile --landlock`). */
int policy_landlock_write(const struct policy *p, const struct policy_landlock *ll, FILE *out);

#endif
