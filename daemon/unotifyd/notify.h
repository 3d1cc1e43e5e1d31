/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd (notify.c, or notify-none.c without libsystemd).
 */
#ifndef UNOTIFYD_NOTIFY_H
#define UNOTIFYD_NOTIFY_H

#include <stdint.h>

/* The socket passed by the service manager: 1 and *ret_fd, 0 when none, or -errno. */
int notify_listen_fds(int *ret_fd);
void notify_ready(void);
void notify_reloading(void);
void notify_stopping(void);
void notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Interval at which WATCHDOG=1 is due (half of WATCHDOG_USEC), 0 when off. */
uint64_t notify_watchdog_interval_usec(void);
void notify_watchdog(void);

#endif
