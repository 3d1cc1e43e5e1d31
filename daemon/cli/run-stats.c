/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-syscall statistics of one run, on the latency API `unotify bench`
 * uses (latency.h). Up to RUN_STATS_SAMPLES round trips per syscall are kept,
 * so the percentiles of a short run are exact; past that a uniform reservoir
 * keeps the memory bounded for a program that runs for days, and count, min
 * and max stay exact. Sorting happens once, at exit, off the hot path.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench/latency.h"
#include "run-stats.h"
#include "lib/util.h"
#include "policy/policy.h"

#define RUN_STATS_SYSCALLS 1024
#define RUN_STATS_SAMPLES 65536 /* 512 KiB per syscall at most */

enum { STAT_ERRNO, STAT_VALUE, STAT_CONTINUE, STAT_FD, STAT_KINDS };

struct run_stats_syscall {
	uint64_t verdicts[STAT_KINDS];
	struct latency_stats ns;
	/* The supervisor's own system calls per decision (run-syscount.h). */
	uint64_t own_total, own_n, own_min, own_max;
};

struct run_stats {
	struct run_stats_syscall sys[RUN_STATS_SYSCALLS];
	const char *own_why;     /* why the supervisor's calls are not counted, or NULL */
	uint64_t audit_written;  /* records the audit trail got */
	uint64_t audit_skipped;  /* decisions --log-level left out */
	uint64_t audit_suppressed; /* records --log-limit held back */
	char log_limit[64];
	const char *log_level;
	struct unotify_supervise_stats threads;
	unsigned int threads_max;  /* --threads; 0: not set (supervision never ran) */
};

struct run_stats *run_stats_new(void)
{
	struct run_stats *s = calloc(1, sizeof(struct run_stats));

	if (!s)
		return NULL;
	for (size_t i = 0; i < RUN_STATS_SYSCALLS; i++)
		latency_stats_init(&s->sys[i].ns, RUN_STATS_SAMPLES);
	return s;
}

void run_stats_free(struct run_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < RUN_STATS_SYSCALLS; i++)
		latency_stats_done(&s->sys[i].ns);
	free(s);
}

static int run_stats_kind(const struct unotify_verdict *v)
{
	switch (v->kind) {
	case UNOTIFY_VERDICT_VALUE:
		return STAT_VALUE;
	case UNOTIFY_VERDICT_CONTINUE:
		return STAT_CONTINUE;
	case UNOTIFY_VERDICT_FD:
		return STAT_FD;
	default:
		return STAT_ERRNO;
	}
}

void run_stats_add(struct run_stats *s, int nr, const struct unotify_verdict *v, uint64_t ns)
{
	struct run_stats_syscall *c;

	if (nr < 0 || nr >= RUN_STATS_SYSCALLS)
		return;
	c = &s->sys[nr];
	c->verdicts[run_stats_kind(v)]++;
	/* -ENOMEM loses this sample only: the count and the verdicts stay right. */
	(void)latency_stats_add(&c->ns, ns);
}

void run_stats_add_own(struct run_stats *s, int nr, int64_t calls)
{
	struct run_stats_syscall *c;

	if (nr < 0 || nr >= RUN_STATS_SYSCALLS || calls < 0)
		return;
	c = &s->sys[nr];
	if (c->own_n == 0 || (uint64_t)calls < c->own_min)
		c->own_min = (uint64_t)calls;
	if ((uint64_t)calls > c->own_max)
		c->own_max = (uint64_t)calls;
	c->own_total += (uint64_t)calls;
	c->own_n++;
}

void run_stats_set_own_why(struct run_stats *s, const char *why)
{
	s->own_why = why;
}

void run_stats_set_audit(struct run_stats *s, uint64_t written, uint64_t skipped,
			 uint64_t suppressed, const char *level, const char *limit)
{
	s->audit_written = written;
	s->audit_skipped = skipped;
	s->audit_suppressed = suppressed;
	s->log_level = level;
	snprintf(s->log_limit, sizeof(s->log_limit), "%s", limit);
}

/* Mean, min and max of the supervisor's own calls per decision: "12.0 (12-14)". */
static void run_stats_print_own(FILE *out, const struct run_stats_syscall *c)
{
	char range[48];

	if (c->own_n == 0) {
		fprintf(out, " %9s %11s\n", "-", "");
		return;
	}
	snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)c->own_min,
		 (unsigned long long)c->own_max);
	fprintf(out, " %9.1f %11s\n", (double)c->own_total / (double)c->own_n, range);
}

static double run_stats_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static void run_stats_print_one(FILE *out, int nr, struct run_stats_syscall *c)
{
	const char *name = policy_syscall_name(nr);
	struct latency_summary sum;
	uint64_t total = 0;

	for (int k = 0; k < STAT_KINDS; k++)
		total += c->verdicts[k];
	fprintf(out, "%-16s %8llu %8llu %8llu %8llu %8llu", name ? name : "?",
		(unsigned long long)total, (unsigned long long)c->verdicts[STAT_CONTINUE],
		(unsigned long long)c->verdicts[STAT_FD], (unsigned long long)c->verdicts[STAT_VALUE],
		(unsigned long long)c->verdicts[STAT_ERRNO]);
	if (c->ns.count == 0) {
		fputc('\n', out);
		return;
	}
	latency_stats_summarize(&c->ns, &sum);
	fprintf(out, " %9.1f %9.1f %9.1f %9.1f %9.1f", run_stats_us(sum.p50),
		run_stats_us(sum.p90), run_stats_us(sum.p99), run_stats_us(sum.p999),
		run_stats_us(sum.max));
	run_stats_print_own(out, c);
}

void run_stats_set_threads(struct run_stats *s, const struct unotify_supervise_stats *t,
			   unsigned int max)
{
	s->threads = *t;
	s->threads_max = max ? max : 1;
}

/*
 * How the calls were spread over supervising threads: whether target
 * threads calling at once were answered at once (the partner), and how
 * many calls waited, or took so long that another thread took over.
 */
static void run_stats_print_threads(FILE *out, const struct run_stats *s)
{
	const struct unotify_supervise_stats *t = &s->threads;

	if (!s->threads_max)
		return;
	fprintf(out, "threads: %u supervised (--threads %u), %llu calls received\n", t->threads,
		s->threads_max, (unsigned long long)t->calls);
	if (s->threads_max < 2)
		return;
	fprintf(out, "threads: a second receiver while target threads' calls met: formed %llu "
		"time%s, received %llu calls\n", (unsigned long long)t->partners,
		t->partners == 1 ? "" : "s", (unsigned long long)t->partner_calls);
	fprintf(out, "threads: %llu calls spread to another thread; %llu said they may wait (a "
		"FIFO, a connect); %llu taken over after a whole tick\n",
		(unsigned long long)t->spread, (unsigned long long)t->waited,
		(unsigned long long)t->slow);
}

void run_stats_print(const struct run_stats *cs, FILE *out)
{
	/* Percentiles sort in place: fine, printing is the last thing a run does. */
	struct run_stats *s = (struct run_stats *)cs;

	fprintf(out, "\nunotify: supervised calls (round trip = receive to reply, microseconds)\n");
	fprintf(out, "%-16s %8s %8s %8s %8s %8s %9s %9s %9s %9s %9s %9s %11s\n", "syscall",
		"calls", "continue", "injected", "value", "errno", "p50", "p90", "p99", "p99.9",
		"max", "sys/call", "(min-max)");
	for (int nr = 0; nr < RUN_STATS_SYSCALLS; nr++)
		if (s->sys[nr].ns.count || s->sys[nr].verdicts[STAT_ERRNO])
			run_stats_print_one(out, nr, &s->sys[nr]);
	if (s->own_why)
		fprintf(out, "sys/call: not counted: %s\n", s->own_why);
	else
		fprintf(out, "sys/call: the supervisor's own system calls per decision, receive and "
			"reply included\n");
	if (s->log_level)
		fprintf(out, "audit: %llu records written, %llu decisions not recorded "
			"(--log-level %s)\n", (unsigned long long)s->audit_written,
			(unsigned long long)s->audit_skipped, s->log_level);
	if (s->audit_suppressed)
		fprintf(out, "audit: %llu records suppressed (--log-limit %s)\n",
			(unsigned long long)s->audit_suppressed, s->log_limit);
	run_stats_print_threads(out, s);
}
