/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the contrib/bench micro-benchmarks share: the clock, and sorting samples. */
#ifndef UNOTIFY_CONTRIB_BENCH_MICRO_H
#define UNOTIFY_CONTRIB_BENCH_MICRO_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* qsort's comparison of two uint64_t samples. */
static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#endif
