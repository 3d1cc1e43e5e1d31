/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracepoint counter of run-syscount.h. The tracepoint's id is read
 * from tracefs where it is mounted; where it is not (a minimal system), a
 * private tracefs instance is made with fsopen/fsmount and read through
 * its detached mount, so that nothing is mounted anywhere (root only).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run-syscount.h"
#include "lib/util.h"

#define SYSCOUNT_EVENT "events/raw_syscalls/sys_enter/id"

static int syscount_read_id(int dirfd, const char *path, uint64_t *ret)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	char buf[32];
	ssize_t n;

	if (fd < 0)
		return negative_errno();
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*ret = strtoull(buf, NULL, 10);
	return *ret ? 0 : -EIO;
}

/* tracefs, unmounted: a detached instance of our own. */
static int syscount_read_id_private(uint64_t *ret)
{
	_cleanup_close_ int fs = (int)syscall(SYS_fsopen, "tracefs", FSOPEN_CLOEXEC);
	_cleanup_close_ int mnt = -1;

	if (fs < 0)
		return negative_errno();
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return negative_errno();
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		return negative_errno();
	return syscount_read_id(mnt, SYSCOUNT_EVENT, ret);
}

void run_syscount_open(struct run_syscount *sc)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
	};
	uint64_t id;

	*sc = (struct run_syscount){ .fd = -1 };
	if (syscount_read_id(AT_FDCWD, "/sys/kernel/tracing/" SYSCOUNT_EVENT, &id) < 0 &&
	    syscount_read_id(AT_FDCWD, "/sys/kernel/debug/tracing/" SYSCOUNT_EVENT, &id) < 0 &&
	    syscount_read_id_private(&id) < 0) {
		sc->why = "no tracefs (raw_syscalls:sys_enter) to be found or mounted";
		return;
	}
	attr.config = id;
	/* This thread (pid 0), any CPU; not inherited by threads it starts. */
	sc->fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (sc->fd < 0) {
		sc->why = errno == EACCES || errno == EPERM
				  ? "perf_event_open refused (perf_event_paranoid, or not root)"
				  : "perf_event_open failed";
		return;
	}
	if (read(sc->fd, &sc->last, sizeof(sc->last)) != sizeof(sc->last)) {
		sc->fd = safe_close(sc->fd);
		sc->why = "the counter cannot be read";
	}
}

int64_t run_syscount_take(struct run_syscount *sc)
{
	uint64_t now, prev;

	if (sc->fd < 0 || read(sc->fd, &now, sizeof(now)) != sizeof(now))
		return -1;
	/* Each value counts its own read's entry: what lies between is now - prev - 1. */
	prev = sc->last;
	sc->last = now;
	return now > prev ? (int64_t)(now - prev - 1) : 0;
}

void run_syscount_close(struct run_syscount *sc)
{
	sc->fd = safe_close(sc->fd);
}
