/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail's file descriptor. By default the trail is stderr, which
 * the supervised program inherited: with the same open file description, a
 * program that sets O_NONBLOCK on it and fills the pipe makes every write
 * of the trail fail with EAGAIN, and its denials vanish. So stderr is
 * reopened through /proc/self/fd/2, which gives a description of our own
 * for a pipe, a FIFO, a terminal or another character device. A regular
 * file is shared (dup): O_NONBLOCK means nothing to it, and a second
 * offset would let the program's writes overwrite the trail's lines. A
 * socket (systemd's journal stream) cannot be reopened: it is shared, and
 * a write that finds it full waits for room a bounded while.
 *
 * Whatever cannot be written is counted (audit_lost(): `unotify run` says
 * so when the program ends, unotifyd in `status`), never silently dropped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit-sink.h"
#include "lib/util.h"

/* How long a write waits for a full shared socket before the records count as lost. */
#define AUDIT_SINK_WAIT_MS 2000

static int audit_sink_stderr(struct audit_sink *s)
{
	struct stat st;
	int fd;

	if (fstat(STDERR_FILENO, &st) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode)) {
		fd = open("/proc/self/fd/2", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0) {
			s->fd = fd;
			s->owned = true;
			return 0;
		}
	}
	/* A regular file, a socket, or /proc unavailable: the description is shared. */
	fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return negative_errno();
	s->fd = fd;
	s->owned = true;
	s->shared = !S_ISREG(st.st_mode);
	return 0;
}

int audit_sink_open(struct audit_sink *s, const char *path)
{
	*s = (struct audit_sink){ .fd = -1 };
	atomic_init(&s->lost, 0);
	atomic_init(&s->error, 0);
	if (!path || strcmp(path, "-") == 0)
		return audit_sink_stderr(s);
	/* Append, so a trail shared by several runs loses nothing. */
	s->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);
	if (s->fd < 0)
		return negative_errno();
	s->owned = true;
	return 0;
}

/* A shared description made non-blocking by the program: wait for room, a bounded while. */
static bool audit_sink_wait(int fd, int *waited_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int n;

	if (*waited_ms >= AUDIT_SINK_WAIT_MS)
		return false;
	n = poll(&p, 1, 100);
	*waited_ms += 100;
	return n >= 0 || errno == EINTR;
}

/* Lines not written: those whose newline is in p[0..len). */
static unsigned long long audit_sink_lines(const char *p, size_t len)
{
	unsigned long long n = 0;

	for (const char *e = p + len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		n++;
	return n;
}

void audit_sink_write(struct audit_sink *s, const char *p, size_t len)
{
	int waited = 0;

	while (len > 0) {
		ssize_t n = write(s->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && audit_sink_wait(s->fd, &waited))
			continue;
		if (n <= 0) {
			atomic_store(&s->error, n < 0 ? errno : EIO);
			atomic_fetch_add(&s->lost, audit_sink_lines(p, len));
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

void audit_sink_close(struct audit_sink *s)
{
	if (s->owned)
		s->fd = safe_close(s->fd);
}
