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
/* Per syscall: count, verdicts, p50/p90/p99/p99.9/max round trip. */
void run_stats_print(const struct run_stats *s, FILE *out);

#endif
