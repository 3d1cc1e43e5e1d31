/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail. Each record is formatted into one buffer and written
 * with a single call under a lock, so lines from several supervising
 * threads never interleave.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "audit.h"
#include "audit-args.h"
#include "lib/util.h"
#include "policy/policy.h"

struct audit {
	FILE *out;
	bool owned;
	enum audit_format format;
	pthread_mutex_t lock;
};

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
	a->out = stderr;
	if (path && strcmp(path, "-") != 0) {
		/* Append, so a trail shared by several runs loses nothing. */
		int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);

		if (fd < 0)
			return negative_errno();
		a->out = fdopen(fd, "a");
		if (!a->out) {
			int r = negative_errno();

			close(fd);
			return r;
		}
		a->owned = true;
		setvbuf(a->out, NULL, _IOLBF, 0);
	}
	pthread_mutex_init(&a->lock, NULL);
	*ret = steal_pointer(&a);
	return 0;
}

void audit_close(struct audit *a)
{
	if (!a)
		return;
	if (a->owned)
		fclose(a->out);
	else
		fflush(a->out);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

static void audit_timestamp(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000);
}

static void audit_rule_name(const struct audit_record *r, char *buf, size_t size)
{
	if (r->rule_line > 0)
		snprintf(buf, size, "%s:%d", r->rule_file ? r->rule_file : "?", r->rule_line);
	else
		snprintf(buf, size, "default");
}

/* Text values come from the target: escape anything that could forge a record. */
static void audit_put_safe(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\\' || c == ' ')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void audit_format_text(FILE *f, const struct audit_record *r)
{
	char when[64], rule[300];
	const char *name = policy_syscall_name(r->nr);

	audit_timestamp(when, sizeof(when));
	audit_rule_name(r, rule, sizeof(rule));
	fprintf(f, "%s ", when);
	if (r->sandbox) {
		fputs("sandbox=", f);
		audit_put_safe(f, r->sandbox);
		fputc(' ', f);
	}
	if (name)
		fprintf(f, "pid=%d syscall=%s args=", (int)r->pid, name);
	else
		fprintf(f, "pid=%d syscall=%d args=", (int)r->pid, r->nr);
	audit_args_format(f, r->nr, r->args, r->path_arg);
	if (r->path) {
		fputs(" path=", f);
		audit_put_safe(f, r->path);
	}
	fprintf(f, " verdict=%s", r->verdict);
	if (strcmp(r->verdict, "deny") == 0)
		fprintf(f, " errno=%s", audit_errno_name(r->error));
	if (strcmp(r->verdict, "return") == 0)
		fprintf(f, " value=%lld", (long long)r->value);
	fprintf(f, " rule=%s\n", rule);
}

static struct json_object *audit_json_object(const struct audit_record *r)
{
	struct json_object *o = json_object_new_object(), *args = json_object_new_array();
	const char *name = policy_syscall_name(r->nr);
	char when[64], rule[300], hex[32];

	audit_timestamp(when, sizeof(when));
	audit_rule_name(r, rule, sizeof(rule));
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
	if (r->path)
		json_object_object_add(o, "path", json_object_new_string(r->path));
	json_object_object_add(o, "verdict", json_object_new_string(r->verdict));
	if (strcmp(r->verdict, "deny") == 0)
		json_object_object_add(o, "errno",
				       json_object_new_string(audit_errno_name(r->error)));
	if (strcmp(r->verdict, "return") == 0)
		json_object_object_add(o, "value", json_object_new_int64(r->value));
	json_object_object_add(o, "rule", json_object_new_string(rule));
	return o;
}

void audit_write(struct audit *a, const struct audit_record *r)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *mem;

	if (a->format == AUDIT_JOURNAL) {
		audit_journal_write(r);
		return;
	}
	mem = open_memstream(&line, &len);
	if (!mem)
		return;
	if (a->format == AUDIT_JSON) {
		struct json_object *o = audit_json_object(r);

		fprintf(mem, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		audit_format_text(mem, r);
	}
	fclose(mem);
	pthread_mutex_lock(&a->lock);
	fwrite(line, 1, len, a->out);
	fflush(a->out);
	pthread_mutex_unlock(&a->lock);
}
