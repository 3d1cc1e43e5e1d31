/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's own messages (startup, clients dropped, policies reloaded):
 * one line each on stderr, written with a single write(2) so that lines from
 * different threads never interleave. Under systemd, stderr is a journal
 * stream and a "<N>" prefix gives each line its priority.
 */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit-buf.h"
#include "daemon.h"
#include "log.h"

static bool log_journal_prefix;
static bool log_verbose;

void log_setup(bool journal_prefix, bool verbose)
{
	log_journal_prefix = journal_prefix;
	log_verbose = verbose;
}

/* JOURNAL_STREAM=dev:ino names stderr when systemd connected it to the journal. */
bool log_stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(STDERR_FILENO, &st) < 0)
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

bool log_under_systemd(void)
{
	return log_stderr_is_journal() || getenv("INVOCATION_ID");
}

static const char *log_level_word(int priority)
{
	switch (priority) {
	case LOG_EMERG:
	case LOG_ALERT:
	case LOG_CRIT:
	case LOG_ERR:
		return "error: ";
	case LOG_WARNING:
		return "warning: ";
	default:
		return "";
	}
}

/*
 * A line is one line: a control character a client put in a field (a
 * sandbox id, a path) that reached a message unescaped becomes '?', so
 * that it can neither end the line and forge one of ours nor, under
 * systemd, start one with a priority of its own. So does each byte of a
 * C1 control (U+009B is CSI), of a character that reorders or hides text
 * (U+202E) and of what is not UTF-8: a terminal shows the line as it is.
 * line is NUL-terminated at len.
 */
static void log_neutralize(char *line, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char *c = (unsigned char *)line + i;
		size_t k = abuf_text_len(c);

		if (!k || *c < 0x20 || *c == 0x7f) {
			*c = '?';
			k = 1;
		}
		i += k;
	}
}

static void log_vmsg(int priority, const char *fmt, va_list ap)
{
	char line[2048];
	int n;

	if (priority >= LOG_DEBUG && !log_verbose)
		return;
	if (log_journal_prefix)
		n = snprintf(line, sizeof(line), "<%d>", priority);
	else
		n = snprintf(line, sizeof(line), "unotifyd: %s", log_level_word(priority));
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if ((size_t)n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n] = '\0';
	log_neutralize(line, (size_t)n);
	line[n++] = '\n';
	/* One write per line; a failing stderr has nowhere to be reported. */
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}

void log_msg(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(priority, fmt, ap);
	va_end(ap);
}

/*
 * Messages a client causes: at most LOG_CLIENT_BURST a window. Past it they
 * are counted, said once when it starts, and summed up with the next
 * window's first (or when the daemon stops, log_client_flush).
 */
static struct {
	pthread_mutex_t lock;
	uint64_t window_start; /* daemon_now_ns(); 0: none yet */
	unsigned int used;
	unsigned long long held;
} log_client = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Under log_client.lock: the summary of a window's held messages, taken. */
static unsigned long long log_client_take_locked(void)
{
	unsigned long long held = log_client.held;

	log_client.held = 0;
	return held;
}

static void log_client_say_held(unsigned long long held)
{
	if (held)
		log_msg(LOG_WARNING, "%llu messages about clients suppressed (more than %d in %d s)",
			held, LOG_CLIENT_BURST, LOG_CLIENT_WINDOW_S);
}

static __thread bool log_client_trusted;

void log_client_trust(bool trusted)
{
	log_client_trusted = trusted;
}

void log_client_msg(int priority, const char *fmt, ...)
{
	unsigned long long held = 0;
	bool admit, first = false;
	uint64_t now;
	va_list ap;

	if (log_client_trusted) {
		va_start(ap, fmt);
		log_vmsg(priority, fmt, ap);
		va_end(ap);
		return;
	}
	now = daemon_now_ns();
	pthread_mutex_lock(&log_client.lock);
	if (!log_client.window_start ||
	    now - log_client.window_start >= LOG_CLIENT_WINDOW_S * UINT64_C(1000000000)) {
		log_client.window_start = now;
		log_client.used = 0;
		held = log_client_take_locked();
	}
	admit = log_client.used < LOG_CLIENT_BURST;
	if (admit)
		log_client.used++;
	else
		first = log_client.held++ == 0;
	pthread_mutex_unlock(&log_client.lock);
	log_client_say_held(held);
	if (first)
		log_msg(LOG_WARNING, "more than %d messages about clients in %d s: the rest of "
				     "them are counted, not written", LOG_CLIENT_BURST,
			LOG_CLIENT_WINDOW_S);
	if (!admit)
		return;
	va_start(ap, fmt);
	log_vmsg(priority, fmt, ap);
	va_end(ap);
}

void log_client_flush(void)
{
	unsigned long long held;

	pthread_mutex_lock(&log_client.lock);
	held = log_client_take_locked();
	pthread_mutex_unlock(&log_client.lock);
	log_client_say_held(held);
}

const char *log_escape(const char *in, char *buf, size_t size)
{
	size_t o = 0;

	if (!in)
		return "(none)";
	for (; *in && o + 5 < size; in++) {
		unsigned char c = *in;

		if (isprint(c) && c != '\\')
			buf[o++] = c;
		else
			o += snprintf(buf + o, size - o, "\\x%02x", c);
	}
	if (*in && o + 4 <= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}
