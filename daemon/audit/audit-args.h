/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pieces of the audit trail: argument decoding and the journal sink. */
#ifndef UNOTIFY_AUDIT_ARGS_H
#define UNOTIFY_AUDIT_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "audit.h"

/* "(AT_FDCWD, "/etc/shadow", O_RDONLY|O_CLOEXEC)": as many arguments as the call takes. */
struct audit_buf;
void audit_args_format(struct audit_buf *b, int nr, const uint64_t *args, const char *path_arg,
		       const char *path_arg2, const struct audit_argv *argv);
/* "EACCES", or "E<number>" for an errno without a name. Never NULL. */
const char *audit_errno_name(int err);

/* The journal sink (audit-journal.c, or audit-journal-none.c without libsystemd). */
bool audit_journal_available(void);
/* 0, or -errno when the entry could not be sent (counted as lost). */
int audit_journal_write(const struct audit_record *r);
/* The entries of the trail's budget (audit-limit.h); records 0: the first held back. */
int audit_journal_write_held(const char *sandbox, long uid, uint64_t records, uint64_t bytes,
			     const char *limit);

#endif
