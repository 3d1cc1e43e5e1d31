/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency statistics, shared by `unotify bench` and `unotify run --stats`:
 * add samples in nanoseconds, ask for percentiles, a summary or a log-scale
 * histogram. Depends on nothing else of unotify.
 */
#ifndef UNOTIFY_LATENCY_H
#define UNOTIFY_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Latency samples in nanoseconds. Every sample is kept while count <= limit
 * (limit 0: always), so percentiles are exact; past the limit a uniform
 * reservoir of `limit` samples is kept, so memory stays bounded for a
 * long-running program and percentiles become unbiased estimates. count, sum,
 * min and max are always exact. Not thread-safe: one owner adds.
 */
struct latency_stats {
	uint64_t *samples;
	size_t n;          /* samples kept */
	size_t capacity;
	size_t limit;      /* 0: keep every sample */
	uint64_t count;    /* samples added */
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t rng;      /* reservoir sampling */
	bool sorted;
};

struct latency_summary {
	uint64_t count;
	uint64_t min, p50, p90, p99, p999, max;
	double mean;
};

/* One bucket of a log-scale histogram: samples with lo <= ns < hi. */
struct latency_bucket {
	uint64_t lo;
	uint64_t hi;
	uint64_t count;
};

void latency_stats_init(struct latency_stats *s, size_t limit);
/* Frees the samples; the struct may be initialised again. */
void latency_stats_done(struct latency_stats *s);
/* -ENOMEM when a sample could not be kept (count, sum, min and max are still right). */
int latency_stats_add(struct latency_stats *s, uint64_t ns);
/* Nearest-rank percentile of the kept samples, p in [0, 100]; 0 when empty. Sorts on first use. */
uint64_t latency_stats_percentile(struct latency_stats *s, double p);
double latency_stats_mean(const struct latency_stats *s);
/* min and max are exact (not those of the reservoir); 0 everywhere when empty. */
void latency_stats_summarize(struct latency_stats *s, struct latency_summary *ret);
/*
 * Half-octave buckets (each bound sqrt(2) times the previous) from the
 * smallest to the largest kept sample, empty ones between included so the
 * shape shows. *ret is malloc'd. Counts are of kept samples.
 */
int latency_stats_histogram(struct latency_stats *s, struct latency_bucket **ret,
			    size_t *ret_n);
/* Draws a histogram with bars of '#' at most `width` wide (values in microseconds). */
void latency_histogram_print(FILE *out, const struct latency_bucket *b, size_t n,
			     unsigned int width);

#endif
