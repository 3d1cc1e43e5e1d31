/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency statistics: exact percentiles while the samples fit the limit,
 * a uniform reservoir past it, and a log-scale histogram for the terminal.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "lib/util.h"

void latency_stats_init(struct latency_stats *s, size_t limit)
{
	*s = (struct latency_stats){
		.limit = limit,
		.min = UINT64_MAX,
		.rng = 0x9e3779b97f4a7c15ULL,
	};
}

void latency_stats_done(struct latency_stats *s)
{
	free(s->samples);
	latency_stats_init(s, s->limit);
}

/* xorshift64*: the reservoir needs uniform picks, not secrets. */
static uint64_t latency_stats_random(struct latency_stats *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545f4914f6cdd1dULL;
}

static int latency_stats_grow(struct latency_stats *s)
{
	size_t cap = s->capacity ? s->capacity * 2 : 1024;
	uint64_t *p;

	if (s->limit && cap > s->limit)
		cap = s->limit;
	p = realloc(s->samples, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	s->samples = p;
	s->capacity = cap;
	return 0;
}

int latency_stats_add(struct latency_stats *s, uint64_t ns)
{
	int r;

	s->count++;
	s->sum += ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->sorted = false;

	if (s->limit && s->n == s->limit) {
		/* Algorithm R: the newest replaces a kept sample with probability limit/count. */
		uint64_t j = latency_stats_random(s) % s->count;

		if (j < s->limit)
			s->samples[j] = ns;
		return 0;
	}
	if (s->n == s->capacity) {
		r = latency_stats_grow(s);
		if (r < 0)
			return r;
	}
	s->samples[s->n++] = ns;
	return 0;
}

static int latency_stats_compare(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t latency_stats_percentile(struct latency_stats *s, double p)
{
	size_t rank;

	if (s->n == 0)
		return 0;
	if (!s->sorted) {
		qsort(s->samples, s->n, sizeof(*s->samples), latency_stats_compare);
		s->sorted = true;
	}
	if (p <= 0)
		return s->samples[0];
	if (p >= 100)
		return s->samples[s->n - 1];
	/* The epsilon keeps 99.9% of 1000 at rank 999: 99.9 is not exact in binary. */
	rank = (size_t)ceil(p * (double)s->n / 100.0 - 1e-9);
	return s->samples[rank ? rank - 1 : 0];
}

double latency_stats_mean(const struct latency_stats *s)
{
	return s->count ? (double)s->sum / (double)s->count : 0.0;
}

void latency_stats_summarize(struct latency_stats *s, struct latency_summary *ret)
{
	*ret = (struct latency_summary){
		.count = s->count,
		.min = s->count ? s->min : 0,
		.p50 = latency_stats_percentile(s, 50),
		.p90 = latency_stats_percentile(s, 90),
		.p99 = latency_stats_percentile(s, 99),
		.p999 = latency_stats_percentile(s, 99.9),
		.max = s->max,
		.mean = latency_stats_mean(s),
	};
}

/*
 * Bucket k covers [2^(k/2), 2^((k+1)/2)) ns: fine enough to see a second
 * mode (a migration, a missed hand-off), coarse enough to fit a screen.
 */
static unsigned int latency_bucket_index(uint64_t ns)
{
	return ns < 1 ? 0 : (unsigned int)floor(2.0 * log2((double)ns));
}

static uint64_t latency_bucket_bound(unsigned int k)
{
	return (uint64_t)ceil(pow(2.0, (double)k / 2.0));
}

int latency_stats_histogram(struct latency_stats *s, struct latency_bucket **ret, size_t *ret_n)
{
	_cleanup_free_ struct latency_bucket *b = NULL;
	unsigned int first, last;
	size_t n;

	if (s->n == 0) {
		*ret = NULL;
		*ret_n = 0;
		return 0;
	}
	latency_stats_percentile(s, 0); /* sorts */
	first = latency_bucket_index(s->samples[0]);
	last = latency_bucket_index(s->samples[s->n - 1]);
	n = last - first + 1;
	b = calloc(n, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t hi = latency_bucket_bound(first + (unsigned int)i + 1);

		/* Below ~8 ns rounding would make empty [2, 2) buckets: keep them 1 ns wide. */
		b[i].lo = i ? b[i - 1].hi : latency_bucket_bound(first);
		/* A 0 ns sample falls in bucket 0, whose bound is 1. */
		if (i == 0 && s->samples[0] < b[0].lo)
			b[0].lo = s->samples[0];
		b[i].hi = hi > b[i].lo ? hi : b[i].lo + 1;
	}
	/* The bounds are rounded up, so place by bounds rather than by index. */
	for (size_t i = 0, k = 0; i < s->n; i++) {
		while (k + 1 < n && s->samples[i] >= b[k].hi)
			k++;
		b[k].count++;
	}
	*ret = steal_pointer(&b);
	*ret_n = n;
	return 0;
}

void latency_histogram_print(FILE *out, const struct latency_bucket *b, size_t n,
			     unsigned int width)
{
	uint64_t top = 0;

	for (size_t i = 0; i < n; i++)
		if (b[i].count > top)
			top = b[i].count;
	for (size_t i = 0; i < n; i++) {
		/* Linear bars, but a non-empty bucket always shows: the tail is the point. */
		unsigned int len = top ? (unsigned int)((b[i].count * width + top - 1) / top) : 0;

		fprintf(out, "  %9.2f - %9.2f us |", (double)b[i].lo / 1000.0,
			(double)b[i].hi / 1000.0);
		for (unsigned int j = 0; j < width; j++)
			fputc(j < len ? '#' : ' ', out);
		fprintf(out, "| %" PRIu64 "\n", b[i].count);
	}
}
