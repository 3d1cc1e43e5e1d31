/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail: one record per decision taken in user space.
 * Sinks: a stream (stderr or --log FILE) as text or JSON lines, or the
 * journal with structured fields (SANDBOX, PID, SYSCALL, PATH, VERDICT).
 * Records that cannot be written are counted (audit_lost), never dropped
 * silently.
 */
#ifndef UNOTIFY_AUDIT_H
#define UNOTIFY_AUDIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "audit-limit.h"

enum audit_format {
	AUDIT_TEXT,
	AUDIT_JSON,
	AUDIT_JOURNAL,
};

/*
 * An exec's argument vector as read from the target for the trail: bounded
 * (the caller reads at most a few dozen strings of a few hundred bytes),
 * cut[i] when args[i] was cut short, more when args stop before argv did.
 */
struct audit_argv {
	const char *const *args;
	const bool *cut;
	size_t n;
	bool more;
};

/*
 * Which decisions reach the trail (--log-level). The default keeps what a
 * reader of the trail looks for: denials (a `return` of an error value,
 * -4095 to -1, is one), kills, `log` rules and fail-closed answers. It
 * leaves out the calls the policy answers as planned, allowed or given
 * their `return` value, which are most of a program's calls: a build
 * under a policy that fakes chown would write a line per file. They are
 * still counted (unotify run --stats, unotifyd's status).
 */
enum audit_level {
	AUDIT_LEVEL_DENY, /* the default: denials, kills, `log` rules, fail-closed answers */
	AUDIT_LEVEL_ALL,  /* every decision */
	AUDIT_LEVEL_NONE, /* nothing */
};

struct audit_record {
	const char *sandbox;   /* NULL for `unotify run` */
	pid_t pid;
	int nr;                /* syscall number, native unless arch says */
	uint32_t arch;         /* 0, or the AUDIT_ARCH_* of a call through another ABI */
	const uint64_t *args;  /* the 6 raw arguments */
	const char *path_arg;  /* the path argument as read from the target, or NULL */
	const char *path;      /* the path it resolved to, or NULL */
	const char *path_arg2; /* a second path (rename, link...) as read, or NULL */
	const char *path2;     /* the second path as resolved, or NULL */
	const char *addr;      /* the address (connect...): "inet:10.0.0.1:443", or NULL */
	const struct audit_argv *argv; /* execve, execveat: argv as read, or NULL */
	const char *verdict;   /* "allow", "deny", "kill", "log", "return" */
	int error;             /* deny: errno */
	int64_t value;         /* return: value */
	const char *rule_file; /* the deciding rule, or NULL for default */
	int rule_line;
};

struct audit;

/* path NULL or "-": stderr. Returns -errno when the file cannot be opened. */
int audit_open(const char *path, enum audit_format format, struct audit **ret);
/*
 * From now on records are written by a thread of their own, off the round
 * trip (audit-queue.h): they reach the file within a few milliseconds.
 */
int audit_set_async(struct audit *a);
/*
 * Writes out every record still queued, then frees a; returns the records
 * lost in all, and the last write error in *ret_error (may be NULL).
 */
uint64_t audit_close(struct audit *a, int *ret_error);
/* Parses "text", "json" or "journal"; -EINVAL otherwise. */
int audit_format_parse(const char *s, enum audit_format *ret);
/* "deny", "all" or "none"; -EINVAL otherwise. */
int audit_level_parse(const char *s, enum audit_level *ret);
const char *audit_level_name(enum audit_level level);
/* Before the first record (AUDIT_LEVEL_DENY until then). */
void audit_set_level(struct audit *a, enum audit_level level);
/*
 * Whether a decision with this verdict ("allow", "deny", ...) is to be
 * recorded; value is a `return`'s (the level tells a denial from a value).
 */
bool audit_wants(const struct audit *a, const char *verdict, int64_t value);
/*
 * (audit-limit.c) The most bytes the record's line, or journal entry, can
 * take in that format: what it weighs against the budget.
 */
uint64_t audit_record_cost(const struct audit_record *r, enum audit_format format);
/* Before the first record (AUDIT_BUDGET_DEFAULT until then). */
void audit_set_budget(struct audit *a, const struct audit_budget *b);
const struct audit_budget *audit_get_budget(const struct audit *a);
/*
 * Thread-safe: one whole line per record. limit is the sandbox's use of the
 * trail's budget (NULL: none). Returns false when the record was held back
 * by it (counted there, summed up later in the trail).
 */
bool audit_write(struct audit *a, struct audit_limit *limit, const struct audit_record *r);
/*
 * The sandbox (sandbox: its id, NULL for `unotify run`) ends: a record
 * sums up what its limit still holds back. Then limit is destroyed.
 */
void audit_limit_end(struct audit *a, struct audit_limit *limit, const char *sandbox);
/* The same, limit left in use: the process is about to exit with the sandbox running. */
void audit_limit_flush(struct audit *a, struct audit_limit *limit, const char *sandbox);
/*
 * unotifyd stops with sandboxes running, their threads deciding until the
 * exit: from now on every record is written at once, whatever the budget
 * (no summary would come). Then audit_limit_flush of each budget, then
 * audit_sync: every record so far written out.
 */
void audit_stopping(struct audit *a);
void audit_sync(struct audit *a);
/*
 * How many records could not be written (whole or in part) so far, and the
 * last error (errno) in *ret_error (may be NULL). Queued records count once
 * their write failed: after audit_close() for the last of them.
 */
uint64_t audit_lost(struct audit *a, int *ret_error);

#endif
