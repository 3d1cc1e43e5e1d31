/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail. Each record is formatted into one buffer and written
 * with a single write(2) on an O_APPEND fd, so lines from several
 * supervising threads never interleave and no lock is held on the round
 * trip. Text records avoid stdio altogether (audit-buf.h says why).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "audit.h"
#include "audit-args.h"
#include "audit-buf.h"
#include "audit-queue.h"
#include "lib/util.h"
#include "policy/policy.h"

struct audit {
	int fd;
	bool owned;
	enum audit_format format;
	enum audit_level level;    /* set before the first record, read-only after */
	struct audit_queue *queue; /* NULL: each record written at once */
};

static const char *const audit_level_names[] = {
	[AUDIT_LEVEL_DENY] = "deny",
	[AUDIT_LEVEL_ALL] = "all",
	[AUDIT_LEVEL_NONE] = "none",
};

int audit_level_parse(const char *s, enum audit_level *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(audit_level_names); i++)
		if (strcmp(s, audit_level_names[i]) == 0) {
			*ret = (enum audit_level)i;
			return 0;
		}
	return -EINVAL;
}

const char *audit_level_name(enum audit_level level)
{
	return level < ARRAY_SIZE(audit_level_names) ? audit_level_names[level] : "?";
}

void audit_set_level(struct audit *a, enum audit_level level)
{
	a->level = level;
}

bool audit_wants(const struct audit *a, const char *verdict)
{
	switch (a->level) {
	case AUDIT_LEVEL_ALL:
		return true;
	case AUDIT_LEVEL_NONE:
		return false;
	default:
		return strcmp(verdict, "allow") != 0;
	}
}

int audit_format_parse(const char *s, enum audit_format *ret)
{
	static const struct {
		const char *name;
		enum audit_format format;
	} names[] = {
		{ "text", AUDIT_TEXT },
		{ "json", AUDIT_JSON },
		{ "journal", AUDIT_JOURNAL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(s, names[i].name) == 0) {
			*ret = names[i].format;
			return 0;
		}
	return -EINVAL;
}

int audit_open(const char *path, enum audit_format format, struct audit **ret)
{
	_cleanup_free_ struct audit *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	if (format == AUDIT_JOURNAL && !audit_journal_available())
		return -EOPNOTSUPP;
	a->format = format;
	a->fd = STDERR_FILENO;
	if (path && strcmp(path, "-") != 0) {
		/* Append, so a trail shared by several runs loses nothing. */
		a->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);
		if (a->fd < 0)
			return negative_errno();
		a->owned = true;
	}
	*ret = steal_pointer(&a);
	return 0;
}

int audit_set_async(struct audit *a)
{
	if (a->format == AUDIT_JOURNAL || a->queue)
		return 0;
	return audit_queue_start(a->fd, &a->queue);
}

void audit_close(struct audit *a)
{
	if (!a)
		return;
	audit_queue_stop(a->queue);
	if (a->owned)
		a->fd = safe_close(a->fd);
	free(a);
}

/* The second is formatted once per thread and second: the round trip is short. */
static void audit_timestamp(struct audit_buf *b)
{
	static __thread time_t cached_sec = -1;
	static __thread char cached[24];
	struct timespec ts;
	char frac[8];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != cached_sec) {
		struct tm tm;

		gmtime_r(&ts.tv_sec, &tm);
		strftime(cached, sizeof(cached), "%Y-%m-%dT%H:%M:%S", &tm);
		cached_sec = ts.tv_sec;
	}
	abuf_put(b, cached);
	frac[0] = '.';
	for (long us = ts.tv_nsec / 1000, i = 6; i > 0; i--, us /= 10)
		frac[i] = (char)('0' + us % 10);
	frac[7] = 'Z';
	abuf_putn(b, frac, sizeof(frac));
}


static void audit_put_rule(struct audit_buf *b, const struct audit_record *r)
{
	abuf_put(b, " rule=");
	if (r->rule_line <= 0) {
		abuf_put(b, "default");
		return;
	}
	abuf_put_field(b, r->rule_file ? r->rule_file : "?");
	abuf_putc(b, ':');
	abuf_put_i64(b, r->rule_line);
}

static void audit_put_optional(struct audit_buf *b, const char *key, const char *value)
{
	if (!value)
		return;
	abuf_put(b, key);
	abuf_put_field(b, value);
}

static void audit_format_text(struct audit_buf *b, const struct audit_record *r)
{
	const char *name = policy_syscall_name(r->nr);

	audit_timestamp(b);
	audit_put_optional(b, " sandbox=", r->sandbox);
	abuf_put(b, " pid=");
	abuf_put_i64(b, r->pid);
	abuf_put(b, " syscall=");
	if (name)
		abuf_put(b, name);
	else
		abuf_put_i64(b, r->nr);
	abuf_put(b, " args=");
	audit_args_format(b, r->nr, r->args, r->path_arg, r->path_arg2, r->argv);
	audit_put_optional(b, " path=", r->path);
	audit_put_optional(b, " path2=", r->path2);
	audit_put_optional(b, " addr=", r->addr);
	abuf_put(b, " verdict=");
	abuf_put(b, r->verdict);
	if (strcmp(r->verdict, "deny") == 0) {
		abuf_put(b, " errno=");
		abuf_put(b, audit_errno_name(r->error));
	}
	if (strcmp(r->verdict, "return") == 0) {
		abuf_put(b, " value=");
		abuf_put_i64(b, r->value);
	}
	audit_put_rule(b, r);
}

static struct json_object *audit_json_object(const struct audit_record *r)
{
	struct json_object *o = json_object_new_object(), *args = json_object_new_array();
	const char *name = policy_syscall_name(r->nr);
	char when[64], rule[300], hex[32];
	struct audit_buf b;

	/* The same time text as the text format, so the two agree. */
	abuf_init(&b, when, sizeof(when));
	audit_timestamp(&b);
	*b.p = '\0';
	if (r->rule_line > 0)
		snprintf(rule, sizeof(rule), "%s:%d", r->rule_file ? r->rule_file : "?",
			 r->rule_line);
	else
		snprintf(rule, sizeof(rule), "default");
	json_object_object_add(o, "time", json_object_new_string(when));
	if (r->sandbox)
		json_object_object_add(o, "sandbox", json_object_new_string(r->sandbox));
	json_object_object_add(o, "pid", json_object_new_int(r->pid));
	json_object_object_add(o, "syscall",
			       name ? json_object_new_string(name) : json_object_new_int(r->nr));
	for (int i = 0; i < 6; i++) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->args[i]);
		json_object_array_add(args, json_object_new_string(hex));
	}
	json_object_object_add(o, "args", args);
	if (r->argv) {
		struct json_object *argv = json_object_new_array();

		if (r->path_arg)
			json_object_object_add(o, "program", json_object_new_string(r->path_arg));
		for (size_t i = 0; i < r->argv->n; i++)
			json_object_array_add(argv, json_object_new_string(r->argv->args[i]));
		json_object_object_add(o, "argv", argv);
		if (r->argv->more)
			json_object_object_add(o, "argv_truncated", json_object_new_boolean(1));
	}
	if (r->path)
		json_object_object_add(o, "path", json_object_new_string(r->path));
	if (r->path2)
		json_object_object_add(o, "path2", json_object_new_string(r->path2));
	if (r->addr)
		json_object_object_add(o, "addr", json_object_new_string(r->addr));
	json_object_object_add(o, "verdict", json_object_new_string(r->verdict));
	if (strcmp(r->verdict, "deny") == 0)
		json_object_object_add(o, "errno",
				       json_object_new_string(audit_errno_name(r->error)));
	if (strcmp(r->verdict, "return") == 0)
		json_object_object_add(o, "value", json_object_new_int64(r->value));
	json_object_object_add(o, "rule", json_object_new_string(rule));
	return o;
}

/* One write(2): partial writes only happen on errors we cannot mend anyway. */
static void audit_write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

void audit_write(struct audit *a, const struct audit_record *r)
{
	/* Two paths of up to 4 KiB, each byte escaped to at most 4. */
	char line[40 * 1024];
	struct audit_buf b;

	if (a->format == AUDIT_JOURNAL) {
		audit_journal_write(r);
		return;
	}
	if (a->format == AUDIT_JSON) {
		struct json_object *o = audit_json_object(r);
		const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);

		abuf_init(&b, line, sizeof(line));
		abuf_put(&b, text);
		json_object_put(o);
	} else {
		abuf_init(&b, line, sizeof(line));
		audit_format_text(&b, r);
	}
	if (a->queue)
		audit_queue_push(a->queue, line, abuf_finish(&b, line));
	else
		audit_write_all(a->fd, line, abuf_finish(&b, line));
}
