/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency statistics API (daemon/latency.h) that `unotify bench` and
 * `unotify run --stats` share: nearest-rank percentiles of known sets, the
 * bounded reservoir keeping count, sum, min and max exact, and the
 * histogram's buckets. Output is TAP; exit 1 on any failure.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/bench/latency.h"

static int tap_count;
static int tap_failed;

__attribute__((format(printf, 2, 3)))
static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void expect_u64(uint64_t got, uint64_t want, const char *what)
{
	ok(got == want, "%s: %" PRIu64 " (expected %" PRIu64 ")", what, got, want);
}

/* 1..n in a scrambled order: sorting is the API's job. */
static void add_range(struct latency_stats *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		latency_stats_add(s, (i * 7919) % n + 1);
}

static void test_empty(void)
{
	struct latency_stats s;
	struct latency_summary sum;
	struct latency_bucket *b = (struct latency_bucket *)&s;
	size_t n = 1;

	latency_stats_init(&s, 0);
	expect_u64(latency_stats_percentile(&s, 50), 0, "empty: p50");
	latency_stats_summarize(&s, &sum);
	expect_u64(sum.count + sum.min + sum.max + sum.p99, 0, "empty: summary all 0");
	ok(latency_stats_mean(&s) == 0.0, "empty: mean 0");
	ok(latency_stats_histogram(&s, &b, &n) == 0 && b == NULL && n == 0,
	   "empty: no histogram bucket");
	latency_stats_done(&s);
}

static void test_percentiles(void)
{
	struct latency_stats s;
	struct latency_summary sum;

	latency_stats_init(&s, 0);
	add_range(&s, 100);
	expect_u64(latency_stats_percentile(&s, 0), 1, "1..100: p0 is the minimum");
	expect_u64(latency_stats_percentile(&s, 1), 1, "1..100: p1");
	expect_u64(latency_stats_percentile(&s, 50), 50, "1..100: p50");
	expect_u64(latency_stats_percentile(&s, 90), 90, "1..100: p90");
	expect_u64(latency_stats_percentile(&s, 99), 99, "1..100: p99");
	expect_u64(latency_stats_percentile(&s, 99.9), 100, "1..100: p99.9");
	expect_u64(latency_stats_percentile(&s, 100), 100, "1..100: p100 is the maximum");
	ok(latency_stats_mean(&s) == 50.5, "1..100: mean 50.5");
	latency_stats_done(&s);

	latency_stats_init(&s, 0);
	add_range(&s, 1000);
	latency_stats_summarize(&s, &sum);
	expect_u64(sum.count, 1000, "1..1000: count");
	expect_u64(sum.min, 1, "1..1000: min");
	expect_u64(sum.p50, 500, "1..1000: p50");
	expect_u64(sum.p90, 900, "1..1000: p90");
	expect_u64(sum.p99, 990, "1..1000: p99");
	expect_u64(sum.p999, 999, "1..1000: p99.9 (rank 999, not 1000)");
	expect_u64(sum.max, 1000, "1..1000: max");
	/* Adding after a percentile was asked: sorted again on the next question. */
	latency_stats_add(&s, 0);
	expect_u64(latency_stats_percentile(&s, 0), 0, "a sample added later is seen");
	latency_stats_done(&s);

	latency_stats_init(&s, 0);
	latency_stats_add(&s, 7);
	latency_stats_summarize(&s, &sum);
	ok(sum.min == 7 && sum.p50 == 7 && sum.p999 == 7 && sum.max == 7 && sum.mean == 7.0,
	   "one sample: every statistic is that sample");
	latency_stats_done(&s);
}

/*
 * 1000..9999 over and over, with the extremes in the middle, where the
 * reservoir most likely drops them.
 */
static uint64_t reservoir_value(uint64_t i, uint64_t n)
{
	if (i == n / 2)
		return 5;
	if (i == n / 2 + 1)
		return 10000000;
	return 1000 + i % 9000;
}

static void test_reservoir(void)
{
	const uint64_t n = 100000, limit = 1000;
	struct latency_stats s;
	struct latency_summary sum;
	struct latency_bucket *b = NULL;
	size_t nb = 0;
	uint64_t counted = 0, want_sum = 0;

	latency_stats_init(&s, limit);
	for (uint64_t i = 0; i < n; i++) {
		latency_stats_add(&s, reservoir_value(i, n));
		want_sum += reservoir_value(i, n);
	}
	latency_stats_summarize(&s, &sum);
	expect_u64(s.count, n, "reservoir: count is exact");
	expect_u64(s.n, limit, "reservoir: keeps `limit` samples");
	ok(s.capacity <= limit, "reservoir: memory bounded (capacity %zu <= %" PRIu64 ")",
	   s.capacity, limit);
	expect_u64(sum.min, 5, "reservoir: min exact");
	expect_u64(sum.max, 10000000, "reservoir: max exact");
	expect_u64(s.sum, want_sum, "reservoir: sum exact");
	/* Deterministic generator: an estimate of a uniform 1000..9999, not a timing. */
	ok(sum.p50 >= 4500 && sum.p50 <= 6500, "reservoir: p50 %" PRIu64 " estimates 5500",
	   sum.p50);
	ok(latency_stats_histogram(&s, &b, &nb) == 0 && nb > 0, "reservoir: histogram");
	for (size_t i = 0; i < nb; i++)
		counted += b[i].count;
	expect_u64(counted, limit, "reservoir: the histogram counts the kept samples");
	free(b);
	latency_stats_done(&s);
	expect_u64(s.limit, limit, "done keeps the limit for the next use");
}

/* Bucket k is [2^(k/2), 2^((k+1)/2)) ns, bounds rounded up. */
static void test_histogram(void)
{
	static const uint64_t samples[] = { 1000, 1000, 1000, 1500, 2000, 2000, 8000 };
	static const struct latency_bucket want[] = {
		{ 725, 1024, 3 }, { 1024, 1449, 0 }, { 1449, 2048, 3 }, { 2048, 2897, 0 },
		{ 2897, 4096, 0 }, { 4096, 5793, 0 }, { 5793, 8192, 1 },
	};
	struct latency_stats s;
	struct latency_bucket *b = NULL;
	size_t n = 0;
	char *text = NULL;
	size_t text_size = 0;
	FILE *f;

	latency_stats_init(&s, 0);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		latency_stats_add(&s, samples[i]);
	ok(latency_stats_histogram(&s, &b, &n) == 0, "histogram of 7 samples");
	expect_u64(n, sizeof(want) / sizeof(want[0]), "7 half-octave buckets, empty ones included");
	for (size_t i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++)
		ok(b[i].lo == want[i].lo && b[i].hi == want[i].hi && b[i].count == want[i].count,
		   "bucket %zu: [%" PRIu64 ", %" PRIu64 ") x %" PRIu64, i, b[i].lo, b[i].hi,
		   b[i].count);

	f = open_memstream(&text, &text_size);
	latency_histogram_print(f, b, n, 6);
	fclose(f);
	ok(text && strstr(text, "      0.72 -      1.02 us |######| 3\n") &&
		   strstr(text, "      5.79 -      8.19 us |##    | 1\n") &&
		   strstr(text, "      1.02 -      1.45 us |      | 0\n"),
	   "printed: bars scaled to the fullest bucket, a non-empty one always shows");
	free(text);
	free(b);
	latency_stats_done(&s);

	latency_stats_init(&s, 0);
	latency_stats_add(&s, 0);
	latency_stats_add(&s, 1);
	ok(latency_stats_histogram(&s, &b, &n) == 0 && n == 1 && b[0].lo == 0 && b[0].hi == 2 &&
		   b[0].count == 2,
	   "0 and 1 ns: one bucket [0, 2) holding both");
	free(b);
	latency_stats_done(&s);
}

int main(void)
{
	test_empty();
	test_percentiles();
	test_reservoir();
	test_histogram();
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
