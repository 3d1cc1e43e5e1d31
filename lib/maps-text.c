/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whether pages of a process are writable, from the text of its
 * /proc/PID/maps: what memory.c asks PROCMAP_QUERY on Linux 6.11 and
 * later, for the kernels before it. A file of its own so that the tests
 * check it on any kernel (tests/live/lib/test-lib.c).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "util.h"

/* One line of /proc/PID/maps: its range and whether it is writable; false if not such a line. */
static bool memory_maps_line(const char *line, uint64_t *start, uint64_t *end, bool *writable)
{
	unsigned long long s, e;
	char perms[5];

	if (sscanf(line, "%llx-%llx %4s", &s, &e, perms) != 3)
		return false;
	*start = s;
	*end = e;
	*writable = perms[1] == 'w';
	return true;
}

/* The lines are in address order: one pass. */
int memory_writable_text(int maps, uint64_t at, uint64_t end)
{
	/* A line is at most a path (PATH_MAX) and some 80 characters before it. */
	_cleanup_free_ char *buf = malloc(2 * PATH_MAX);
	size_t have = 0, size = 2 * PATH_MAX;
	off_t off = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = pread(maps, buf + have, size - 1 - have, off);
		char *line = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ESRCH ? -ENOENT : negative_errno();
		if (n == 0)
			return -EFAULT; /* at is in no mapping */
		off += n;
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = strchr(line, '\n')) != NULL) {
			uint64_t s, e;
			bool w;

			*nl = '\0';
			if (memory_maps_line(line, &s, &e, &w) && s <= at && at < e) {
				if (!w)
					return -EFAULT;
				at = e;
				if (at >= end)
					return 0;
			}
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == size - 1)
			return -EIO; /* no line is that long */
	}
}
