/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU migrations and context switches of one thread over a window.
 *
 * perf_event_open's software counters are exact and cheap to read; they may
 * be refused (perf_event_paranoid, seccomp in a container), so we fall back
 * to the scheduler's own statistics in /proc/thread-self/sched (kernels with
 * CONFIG_SCHED_DEBUG) and last to getrusage(RUSAGE_THREAD), which knows
 * context switches but not migrations. The source is reported with the
 * figures: a reader must know what was counted. Another process's thread
 * (unotifyd's supervising thread in the daemon mode) is counted the same
 * way, through its pid instead of "this thread", with no rusage fallback.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "lib/util.h"

const char *bench_counter_source_name(enum bench_counter_source s)
{
	switch (s) {
	case BENCH_COUNTERS_PERF:
		return "perf_event";
	case BENCH_COUNTERS_SCHED:
		return "proc_sched";
	case BENCH_COUNTERS_RUSAGE:
		return "rusage";
	default:
		return "none";
	}
}

static int counters_perf_open(uint64_t config, pid_t tid)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		/* Switches and migrations happen in the kernel: counting it is the point. */
		.exclude_kernel = 0,
		.exclude_hv = 1,
	};
	long fd;

	/* pid 0 (this thread) or a thread id, cpu -1: wherever it runs. */
	fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? negative_errno() : (int)fd;
}

static int counters_perf_read(int fd, uint64_t *ret)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -EIO;
	*ret = v;
	return 0;
}

static int counters_sched_read(const struct bench_counters *c, struct bench_counts *ret)
{
	_cleanup_fclose_ FILE *f = NULL;
	char path[64], line[256];
	bool mig = false, sw = false;
	uint64_t v;

	if (c->tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", (int)c->pid, (int)c->tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/sched");
	f = fopen(path, "re");
	if (!f)
		return negative_errno();
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "se.nr_migrations : %" SCNu64, &v) == 1) {
			ret->migrations = v;
			mig = true;
		} else if (sscanf(line, "nr_switches : %" SCNu64, &v) == 1) {
			ret->switches = v;
			sw = true;
		}
	}
	if (!mig || !sw)
		return -ENODATA;
	ret->has_migrations = true;
	return 0;
}

static void counters_rusage_read(struct bench_counts *ret)
{
	struct rusage ru;

	memset(ret, 0, sizeof(*ret));
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		ret->switches = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

static void counters_start(struct bench_counters *c)
{
	c->fd_migrations = counters_perf_open(PERF_COUNT_SW_CPU_MIGRATIONS, c->tid);
	if (c->fd_migrations >= 0) {
		c->fd_switches = counters_perf_open(PERF_COUNT_SW_CONTEXT_SWITCHES, c->tid);
		if (c->fd_switches >= 0) {
			c->source = BENCH_COUNTERS_PERF;
			return;
		}
		closep(&c->fd_migrations);
		c->fd_migrations = -1;
	}
	if (counters_sched_read(c, &c->base) == 0) {
		c->source = BENCH_COUNTERS_SCHED;
		return;
	}
	if (c->tid)
		return; /* getrusage knows only the caller */
	counters_rusage_read(&c->base);
	c->source = BENCH_COUNTERS_RUSAGE;
}

void bench_counters_start(struct bench_counters *c)
{
	*c = (struct bench_counters){ .fd_migrations = -1, .fd_switches = -1 };
	counters_start(c);
}

void bench_counters_start_task(struct bench_counters *c, pid_t pid, pid_t tid)
{
	*c = (struct bench_counters){ .fd_migrations = -1, .fd_switches = -1, .pid = pid,
				      .tid = tid };
	counters_start(c);
}

void bench_counters_stop(struct bench_counters *c, struct bench_counts *ret)
{
	struct bench_counts now = { 0 };

	switch (c->source) {
	case BENCH_COUNTERS_PERF:
		if (counters_perf_read(c->fd_migrations, &now.migrations) == 0 &&
		    counters_perf_read(c->fd_switches, &now.switches) == 0)
			now.has_migrations = true;
		else
			c->source = BENCH_COUNTERS_NONE;
		closep(&c->fd_migrations);
		closep(&c->fd_switches);
		c->fd_migrations = c->fd_switches = -1;
		break;
	case BENCH_COUNTERS_SCHED:
		if (counters_sched_read(c, &now) < 0) {
			c->source = BENCH_COUNTERS_NONE;
			now = c->base;
		}
		now.migrations -= c->base.migrations;
		now.switches -= c->base.switches;
		break;
	case BENCH_COUNTERS_RUSAGE:
		counters_rusage_read(&now);
		now.switches -= c->base.switches;
		break;
	default:
		break;
	}
	*ret = now;
}
