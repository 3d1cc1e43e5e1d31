/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The service manager's protocols through libsystemd: socket activation,
 * readiness and status (sd_notify), the watchdog. Each call is a no-op when
 * the daemon was not started by systemd (no LISTEN_FDS, no NOTIFY_SOCKET).
 * notify-none.c replaces this file in builds --without-systemd.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <systemd/sd-daemon.h>

#include "log.h"
#include "notify.h"

int notify_listen_fds(int *ret_fd)
{
	int n = sd_listen_fds(1);

	if (n <= 0)
		return n;
	if (n > 1) {
		log_error("socket activation passed %d sockets; unotifyd takes exactly one", n);
		return -EINVAL;
	}
	*ret_fd = SD_LISTEN_FDS_START;
	return 1;
}

void notify_ready(void)
{
	sd_notify(0, "READY=1");
}

void notify_reloading(void)
{
	sd_notify(0, "RELOADING=1");
}

void notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}

void notify_status(const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sd_notifyf(0, "STATUS=%s", text);
}

uint64_t notify_watchdog_interval_usec(void)
{
	uint64_t usec = 0;

	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	return usec / 2;
}

void notify_watchdog(void)
{
	sd_notify(0, "WATCHDOG=1");
}
