/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the pool's watchdog reads of a target thread while a supervising
 * thread waits in a call performed for it (lib/pool.c): whether the thread
 * has a signal the kernel would wake it for, were the call its own.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "target.h"
#include "util.h"

/* A mask of /proc/PID/status ("SigPnd:\t0000000000000200"), 0 if absent. */
static uint64_t pool_status_mask(const char *status, const char *key)
{
	const char *p = strstr(status, key);

	return p ? strtoull(p + strlen(key), NULL, 16) : 0;
}

/* A thread's /proc/PID/status (our /proc), NUL-terminated; false if gone. */
static bool pool_read_status(const char *name, char *buf, size_t size)
{
	_cleanup_close_ int fd = -1;
	int proc = target_proc_fd();
	ssize_t n;

	if (proc < 0)
		return false;
	fd = openat(proc, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/*
 * Of the process-directed signals in mask, those every other thread of pid's
 * process blocks: the kernel would deliver them to pid, waking it from the
 * wait we perform for it. A thread that does not block one would take it.
 */
static uint64_t pool_only_taker(uint32_t pid, uint64_t mask)
{
	_cleanup_close_ int fd = -1;
	int proc = target_proc_fd();
	char name[64], buf[4096];
	struct dirent *e;
	DIR *d;

	if (proc < 0)
		return 0;
	snprintf(name, sizeof(name), "%u/task", pid);
	fd = openat(proc, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d)
		return 0;
	(void)TAKE_FD(fd); /* the DIR owns it */
	while (mask && (e = readdir(d))) {
		unsigned long tid = strtoul(e->d_name, NULL, 10);

		if (tid == 0 || tid == pid)
			continue;
		snprintf(name, sizeof(name), "%u/task/%lu/status", pid, tid);
		if (pool_read_status(name, buf, sizeof(buf)))
			mask &= pool_status_mask(buf, "SigBlk:");
	}
	closedir(d);
	return mask;
}

/*
 * Has the target thread a signal it would handle now, if its call were the
 * kernel's? (WAIT_KILLABLE_RECV holds it until we reply.) Its own pending
 * signals, or the process's when no other thread of it could take them (it
 * is the only thread, or every other one blocks them): the reply
 * (ERESTARTSYS) needs one it can take, or the kernel restarts the call.
 */
bool pool_target_signalled(uint32_t pid)
{
	char name[32], buf[4096];
	uint64_t own, shared, handled;

	if (pid == 0)
		return false;
	snprintf(name, sizeof(name), "%u/status", pid);
	if (!pool_read_status(name, buf, sizeof(buf)))
		return false;
	handled = ~(pool_status_mask(buf, "SigBlk:") | pool_status_mask(buf, "SigIgn:"));
	own = pool_status_mask(buf, "SigPnd:") & handled;
	shared = pool_status_mask(buf, "ShdPnd:") & handled;
	if (own)
		return true;
	if (!shared)
		return false;
	return strstr(buf, "\nThreads:\t1\n") || pool_only_taker(pid, shared) != 0;
}
