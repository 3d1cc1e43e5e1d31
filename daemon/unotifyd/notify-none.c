/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Built --without-systemd: no socket activation, no readiness or watchdog
 * notifications. The daemon binds its own socket and simply runs.
 */
#include "config.h"

#include "notify.h"

int notify_listen_fds(int *ret_fd)
{
	return 0;
}

void notify_ready(void)
{
}

void notify_reloading(void)
{
}

void notify_stopping(void)
{
}

void notify_status(const char *fmt, ...)
{
}

uint64_t notify_watchdog_interval_usec(void)
{
	return 0;
}

void notify_watchdog(void)
{
}
