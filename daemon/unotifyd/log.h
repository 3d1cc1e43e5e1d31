/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's own messages (log.c), not the audit trail.
 */
#ifndef UNOTIFYD_LOG_H
#define UNOTIFYD_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

/* journal_prefix: stderr goes to the journal, prefix lines with <N>. */
void log_setup(bool journal_prefix, bool verbose);
void log_msg(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
/*
 * A message a client causes (refused, dropped, registered, ended): a client
 * that connects in a loop must not fill the disk the log is on. At most
 * LOG_CLIENT_BURST of them in LOG_CLIENT_WINDOW_S seconds, for all clients
 * together but a runtime (log_client_trust); the rest are counted and
 * summed up in a line of their own.
 */
#define LOG_CLIENT_BURST 600
#define LOG_CLIENT_WINDOW_S 60
void log_client_msg(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_client_error(...) log_client_msg(LOG_ERR, __VA_ARGS__)
#define log_client_warning(...) log_client_msg(LOG_WARNING, __VA_ARGS__)
#define log_client_info(...) log_client_msg(LOG_INFO, __VA_ARGS__)
/* The daemon stops: what is held is summed up. */
void log_client_flush(void);
/*
 * The calling thread serves a client trusted with the log (root inside the
 * daemon's pid namespace: a runtime): its messages are never held back,
 * nor counted against the others'.
 */
void log_client_trust(bool trusted);
/* Copies untrusted text for a log line: non-printable bytes as \xNN, truncated. */
const char *log_escape(const char *in, char *buf, size_t size);
/* Is stderr connected to the journal? */
bool log_stderr_is_journal(void);
/* ... or are we a systemd service at all (INVOCATION_ID)? */
bool log_under_systemd(void);

#endif
