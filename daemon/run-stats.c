/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-syscall statistics of one run. Every sample is kept (4 bytes each) so
 * the percentiles are exact; they are sorted once, at exit, off the hot path.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "run-stats.h"
#include "lib/util.h"
#include "policy/policy.h"

#define RUN_STATS_SYSCALLS 1024

enum { STAT_ERRNO, STAT_VALUE, STAT_CONTINUE, STAT_FD, STAT_KINDS };

struct run_stats_syscall {
	uint64_t verdicts[STAT_KINDS];
	uint32_t *ns;
	size_t n, cap;
};

struct run_stats {
	struct run_stats_syscall sys[RUN_STATS_SYSCALLS];
};

struct run_stats *run_stats_new(void)
{
	return calloc(1, sizeof(struct run_stats));
}

void run_stats_free(struct run_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < RUN_STATS_SYSCALLS; i++)
		free(s->sys[i].ns);
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
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		uint32_t *p = realloc(c->ns, cap * sizeof(*p));

		if (!p)
			return; /* the count stays right; only this sample is lost */
		c->ns = p;
		c->cap = cap;
	}
	c->ns[c->n++] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

static int run_stats_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array. */
static double run_stats_pct(const uint32_t *v, size_t n, double p)
{
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);

	if (rank < 1)
		rank = 1;
	return v[(rank > n ? n : rank) - 1] / 1000.0;
}

static void run_stats_print_one(FILE *out, int nr, struct run_stats_syscall *c)
{
	const char *name = policy_syscall_name(nr);
	uint64_t total = 0;

	for (int k = 0; k < STAT_KINDS; k++)
		total += c->verdicts[k];
	qsort(c->ns, c->n, sizeof(*c->ns), run_stats_cmp);
	fprintf(out, "%-16s %8llu %8llu %8llu %8llu %8llu", name ? name : "?",
		(unsigned long long)total, (unsigned long long)c->verdicts[STAT_CONTINUE],
		(unsigned long long)c->verdicts[STAT_FD], (unsigned long long)c->verdicts[STAT_VALUE],
		(unsigned long long)c->verdicts[STAT_ERRNO]);
	if (c->n)
		fprintf(out, " %9.1f %9.1f %9.1f %9.1f\n", run_stats_pct(c->ns, c->n, 50),
			run_stats_pct(c->ns, c->n, 90), run_stats_pct(c->ns, c->n, 99),
			c->ns[c->n - 1] / 1000.0);
	else
		fputc('\n', out);
}

void run_stats_print(const struct run_stats *cs, FILE *out)
{
	/* Sorting in place is fine: printing is the last thing a run does. */
	struct run_stats *s = (struct run_stats *)cs;

	fprintf(out, "\nunotify: supervised calls (round trip = receive to reply, microseconds)\n");
	fprintf(out, "%-16s %8s %8s %8s %8s %8s %9s %9s %9s %9s\n", "syscall", "calls",
		"continue", "injected", "value", "errno", "p50", "p90", "p99", "max");
	for (int nr = 0; nr < RUN_STATS_SYSCALLS; nr++)
		if (s->sys[nr].n || s->sys[nr].verdicts[STAT_ERRNO])
			run_stats_print_one(out, nr, &s->sys[nr]);
}
