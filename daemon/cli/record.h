/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run --record FILE`: the program runs under a policy that allows
 * and logs everything; each decision is collected here, and at exit a policy
 * that allows what the run used is written to FILE.
 */
#ifndef UNOTIFY_RECORD_H
#define UNOTIFY_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/audit.h"

struct record;

int record_new(struct record **ret);
void record_free(struct record *rec);

/*
 * The policy a recorded run is supervised with: every call allowed and
 * logged, and every call that takes a path the language can match has its
 * path resolved (and so the call performed by the supervisor). A malloc'd
 * text.
 */
int record_policy_text(char **ret);

/* One decision, as the audit trail gets it. Never fails: what it cannot keep, it counts. */
void record_add(struct record *rec, const struct audit_record *r);

/*
 * Opens the file the policy will be written to, before the program runs:
 * a program that may write where it is (a run as root with --user, in the
 * program's own directory) must not turn the name into a link to a file of
 * ours meanwhile. Not followed if a symbolic link, and it must be a
 * regular file with one name (a hard link to a file of another's is not
 * ours to rewrite). Nothing is truncated yet. Returns -errno.
 */
int record_open(const char *path, int *ret_fd);

/*
 * Writes the policy that allows what was recorded to fd (record_open's,
 * named path), with comments; argv is the recorded command (for the
 * header). The text is checked by the parser before it is written.
 * Returns -errno.
 */
int record_write(const struct record *rec, int fd, const char *path, char *const *argv);

/* ---- record-fold.c: paths to globs ---- */

/* One pattern of a recorded policy. */
struct record_glob {
	char *pattern; /* a path= glob */
	size_t covers; /* distinct recorded paths it stands for */
	bool broad;    /* folded into a tree or a wildcard: to be reviewed */
	bool tree;     /* the tree of a directory, found from the paths under DIR (rule 2 of record-fold.c) */
};

/*
 * Folds the distinct resolved paths of one syscall (and access class) into
 * globs, sorted (see record-fold.c for the rules). A path that starts with
 * "/proc/self/" is one of the calling process's own entries (record.c
 * writes them so). Returns the number of globs, or -ENOMEM.
 */
int record_fold(char *const *paths, size_t n, struct record_glob **ret);
void record_globs_free(struct record_glob *globs, size_t n);

#endif
