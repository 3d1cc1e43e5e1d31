/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-read: what reading a path out of another process costs, by how much
 * is read. A supervisor reads the path argument of a call with
 * process_vm_readv(2) before it knows where the string ends; reading to
 * the end of the page (what a simple supervisor does, and unotify did)
 * copies and scans up to 4 KiB, reading a first 256 bytes (what
 * lib/memory.c does now) rarely more than the path.
 *
 * The reads alternate call by call, on the same 27-byte path 100 bytes
 * into a page of a child process (3996 bytes to the page's end), so that
 * the machine's drift affects both alike. Prints the median and the 10th
 * percentile of each, and their ratio, with the machine and the kernel.
 *
 *   make contrib/bench/path-read && contrib/bench/path-read [CALLS]
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "micro.h"

#define PAGE 4096
#define PATH_OFFSET 100

static const size_t sizes[] = { PAGE - PATH_OFFSET, 256, 64 };
#define SIZES (sizeof(sizes) / sizeof(sizes[0]))

/* One read of size bytes at addr in pid, timed; 0 when it failed. */
static uint64_t timed_read(pid_t pid, char *addr, size_t size, char *buf)
{
	struct iovec local = { buf, size }, remote = { addr, size };
	uint64_t t0 = now_ns();
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	uint64_t t1 = now_ns();

	return n == (ssize_t)size ? t1 - t0 : 0;
}

int main(int argc, char **argv)
{
	static char page[PAGE] __attribute__((aligned(PAGE)));
	long calls = argc > 1 ? atol(argv[1]) : 200000;
	uint64_t *t[SIZES], median[SIZES];
	char buf[PAGE];
	struct utsname u;
	int pipefd[2];
	pid_t child;

	if (calls < 10 || pipe(pipefd) < 0)
		return 2;
	strcpy(page + PATH_OFFSET, "/usr/include/some/header.h");
	child = fork();
	if (child == 0) {
		char c;

		/* Waits, its memory read, until killed. */
		_exit(read(pipefd[0], &c, 1) < 0);
	}
	for (size_t k = 0; k < SIZES; k++)
		t[k] = calloc((size_t)calls, sizeof(uint64_t));
	for (long i = 0; i < calls; i++)
		for (size_t k = 0; k < SIZES; k++) {
			t[k][i] = timed_read(child, page + PATH_OFFSET, sizes[k], buf);
			if (!t[k][i]) {
				perror("process_vm_readv");
				kill(child, SIGKILL);
				return 1;
			}
		}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	uname(&u);
	printf("%s %s, %ld calls each, alternating\n", u.machine, u.release, calls);
	for (size_t k = 0; k < SIZES; k++) {
		qsort(t[k], (size_t)calls, sizeof(uint64_t), cmp_u64);
		median[k] = t[k][calls / 2];
		printf("%5zu bytes: median %6" PRIu64 " ns, p10 %6" PRIu64 " ns, %.3fx the first\n",
		       sizes[k], median[k], t[k][calls / 10], (double)median[k] / (double)median[0]);
		free(t[k]);
	}
	return 0;
}
