/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify run --stats`: where a real program's interception time goes. */
#ifndef UNOTIFY_RUN_STATS_H
#define UNOTIFY_RUN_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "lib/unotify.h"

struct run_stats;

struct run_stats *run_stats_new(void);
void run_stats_free(struct run_stats *s);
/* One reply: its syscall, verdict and receive-to-reply time. */
void run_stats_add(struct run_stats *s, int nr, const struct unotify_verdict *v, uint64_t ns);
/* The supervisor's own system calls for one decision of syscall nr (-1: not counted). */
void run_stats_add_own(struct run_stats *s, int nr, int64_t calls);
/* Why they are not counted, printed under the table (why stays the caller's). */
void run_stats_set_own_why(struct run_stats *s, const char *why);
/* The trail's counts: written, left out by --log-level, held back by --log-limit. */
void run_stats_set_audit(struct run_stats *s, uint64_t written, uint64_t skipped,
			 uint64_t suppressed, const char *level, const char *limit);
/* What the supervising threads did (max: --threads), printed under the table. */
void run_stats_set_threads(struct run_stats *s, const struct unotify_supervise_stats *t,
			   unsigned int max);
/* Per syscall: count, verdicts, p50/p90/p99/p99.9/max round trip, own calls per decision. */
void run_stats_print(const struct run_stats *s, FILE *out);

#endif
