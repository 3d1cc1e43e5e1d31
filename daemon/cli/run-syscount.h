/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run --stats`: the supervising thread's own system calls, counted
 * exactly by the kernel (a perf_event_open counter on the tracepoint
 * raw_syscalls:sys_enter, this thread only) and read once per decision, so
 * a change that adds a system call to the path of a decision shows as a
 * changed figure, whatever the machine's noise.
 *
 * Overhead: one read(2) of the counter per decision (excluded from the
 * figures), and, while any such counter is open, the kernel sends the
 * system calls of every task through its syscall-tracing slow path (the
 * tracepoint is a system-wide switch); docs/BENCHMARKS.md has the figure.
 */
#ifndef UNOTIFY_RUN_SYSCOUNT_H
#define UNOTIFY_RUN_SYSCOUNT_H

#include <stdint.h>

struct run_syscount {
	int fd;           /* the counter, or -1 */
	uint64_t last;    /* its value at the previous read */
	const char *why;  /* why there is no counter (fd < 0) */
};

/* Opens the counter for the calling thread; never fails: sc->why says why not. */
void run_syscount_open(struct run_syscount *sc);
/*
 * The system calls this thread made since the previous call (or the open),
 * not counting the counter's own read; -1 without a counter.
 */
int64_t run_syscount_take(struct run_syscount *sc);
void run_syscount_close(struct run_syscount *sc);

#endif
