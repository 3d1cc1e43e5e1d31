/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail. Each record is formatted into one buffer and written
 * with a single write(2) on an O_APPEND fd (whole lines, several at once
 * from the writer thread), so lines from several supervising threads never
 * interleave. Queued, a record is only copied on the round trip and the
 * writer formats it (audit_enqueue). Text records avoid stdio altogether
 * (audit-buf.h says why).
 *
 * What decided comes first (syscall, verdict, errno or value, rule), then
 * what the call was (its arguments, paths, address): values from the
 * target are cut at AUDIT_FIELD_MAX bytes, visibly ("..." and a
 * truncated= field naming them), so a record always says its verdict and
 * rule however long its paths. What cannot be written is counted
 * (audit-sink.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
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
#include "audit-sink.h"
#include "lib/util.h"
#include "policy/policy.h"

/* Bytes of one value from the target (a path, an address) kept in a record. */
#define AUDIT_FIELD_MAX 1024

struct audit {
	struct audit_sink sink;
	enum audit_format format;
	enum audit_level level;    /* set before the first record, read-only after */
	struct audit_budget budget; /* the same */
	atomic_bool stopping;       /* audit_stopping(): no budget, no queue any more */
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

void audit_set_budget(struct audit *a, const struct audit_budget *b)
{
	a->budget = *b;
}

const struct audit_budget *audit_get_budget(const struct audit *a)
{
	return &a->budget;
}

/* A result the program reads as a failure with errno -value (the syscall convention). */
static bool audit_value_is_error(int64_t value)
{
	return value >= -4095 && value <= -1;
}

bool audit_wants(const struct audit *a, const char *verdict, int64_t value)
{
	switch (a->level) {
	case AUDIT_LEVEL_ALL:
		return true;
	case AUDIT_LEVEL_NONE:
		return false;
	default:
		/* The allowed call first: most calls are, and this is their round trip. */
		if (strcmp(verdict, "allow") == 0)
			return false;
		return strcmp(verdict, "return") != 0 || audit_value_is_error(value);
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
	(void)audit_budget_parse(AUDIT_BUDGET_DEFAULT, &a->budget);
	if (format != AUDIT_JOURNAL) {
		int r = audit_sink_open(&a->sink, path);

		if (r < 0)
			return r;
	} else {
		a->sink.fd = -1;
	}
	*ret = steal_pointer(&a);
	return 0;
}

uint64_t audit_lost(struct audit *a, int *ret_error)
{
	if (!a)
		return 0;
	if (ret_error)
		*ret_error = atomic_load(&a->sink.error);
	return atomic_load(&a->sink.lost);
}

uint64_t audit_close(struct audit *a, int *ret_error)
{
	uint64_t lost;

	if (!a)
		return 0;
	audit_queue_stop(a->queue);
	lost = audit_lost(a, ret_error);
	audit_sink_close(&a->sink);
	free(a);
	return lost;
}

/* When the record was decided; the second is formatted once per thread and second. */
static void audit_timestamp(struct audit_buf *b, const struct timespec *ts)
{
	static __thread time_t cached_sec = -1;
	static __thread char cached[24];
	char frac[8];

	if (ts->tv_sec != cached_sec) {
		struct tm tm;

		gmtime_r(&ts->tv_sec, &tm);
		strftime(cached, sizeof(cached), "%Y-%m-%dT%H:%M:%S", &tm);
		cached_sec = ts->tv_sec;
	}
	abuf_put(b, cached);
	frac[0] = '.';
	for (long us = ts->tv_nsec / 1000, i = 6; i > 0; i--, us /= 10)
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

/* Values from the target, cut at AUDIT_FIELD_MAX bytes ("..." added): what a record shows. */
struct audit_cut {
	char path_arg[AUDIT_FIELD_MAX + 4], path_arg2[AUDIT_FIELD_MAX + 4];
	char path[AUDIT_FIELD_MAX + 4], path2[AUDIT_FIELD_MAX + 4], addr[AUDIT_FIELD_MAX + 4];
	struct audit_record r;
	char truncated[64]; /* "args,path": the fields cut, or "" */
};

static const char *audit_cut_one(struct audit_cut *c, const char *v, char *buf, const char *name)
{
	size_t n, keep = AUDIT_FIELD_MAX;

	if (!v || strlen(v) <= AUDIT_FIELD_MAX)
		return v;
	/* Not in the middle of a character: what is kept stays UTF-8 if it was. */
	while (keep > AUDIT_FIELD_MAX - 3 && ((unsigned char)v[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(buf, v, keep);
	memcpy(buf + keep, "...", 4);
	n = strlen(c->truncated);
	if (!strstr(c->truncated, name))
		snprintf(c->truncated + n, sizeof(c->truncated) - n, "%s%s", n ? "," : "", name);
	return buf;
}

static void audit_cut(const struct audit_record *r, struct audit_cut *c)
{
	c->truncated[0] = '\0';
	c->r = *r;
	c->r.path_arg = audit_cut_one(c, r->path_arg, c->path_arg, "args");
	c->r.path_arg2 = audit_cut_one(c, r->path_arg2, c->path_arg2, "args");
	c->r.path = audit_cut_one(c, r->path, c->path, "path");
	c->r.path2 = audit_cut_one(c, r->path2, c->path2, "path2");
	c->r.addr = audit_cut_one(c, r->addr, c->addr, "addr");
}

/* Native names only: another ABI's numbers mean other calls (i386's 5 is open). */
static const char *audit_syscall_name(const struct audit_record *r)
{
	return r->arch ? NULL : policy_syscall_name(r->nr);
}

static void audit_format_text(struct audit_buf *b, const struct audit_record *r,
			      const char *truncated, const struct timespec *when)
{
	const char *name = audit_syscall_name(r);

	audit_timestamp(b, when);
	audit_put_optional(b, " sandbox=", r->sandbox);
	abuf_put(b, " pid=");
	abuf_put_i64(b, r->pid);
	abuf_put(b, " syscall=");
	if (name)
		abuf_put(b, name);
	else
		abuf_put_i64(b, r->nr);
	if (r->arch) {
		abuf_put(b, " arch=");
		abuf_put_hex(b, r->arch);
	}
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
	abuf_put(b, " args=");
	audit_args_format(b, r->arch ? -1 : r->nr, r->args, r->path_arg, r->path_arg2, r->argv);
	audit_put_optional(b, " path=", r->path);
	audit_put_optional(b, " path2=", r->path2);
	audit_put_optional(b, " addr=", r->addr);
	if (truncated[0])
		audit_put_optional(b, " truncated=", truncated);
}

/*
 * A JSON string of a value from the target (or a file name): RFC 8259 text
 * is UTF-8, and a strict reader rejects a record (or the whole trail) with
 * a byte that is not. Such bytes, C1 controls and DEL (which json-c would
 * leave raw for a terminal showing the trail), and '\\' so that none can be
 * forged, are written as the text format writes them, \xNN.
 */
static struct json_object *audit_json_string(const char *s)
{
	size_t len = strlen(s), n = 0;
	_cleanup_free_ char *buf = malloc(len * 4 + 1);

	if (!buf)
		return json_object_new_string("?");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t k = abuf_text_len(p);

		if (k && *p != '\\' && *p != 0x7f) {
			memcpy(buf + n, p, k);
			n += k;
			p += k;
			continue;
		}
		n += (size_t)sprintf(buf + n, "\\x%02x", *p);
		p++;
	}
	buf[n] = '\0';
	return json_object_new_string_len(buf, (int)n);
}

/* The same time text as the text format, so the two agree. */
static struct json_object *audit_json_time(const struct timespec *ts)
{
	char text[64];
	struct audit_buf t;

	abuf_init(&t, text, sizeof(text));
	audit_timestamp(&t, ts);
	*t.p = '\0';
	return json_object_new_string(text);
}

static struct json_object *audit_json_object(const struct audit_record *r, const char *truncated,
					     const struct timespec *ts)
{
	struct json_object *o = json_object_new_object(), *args = json_object_new_array();
	const char *name = audit_syscall_name(r);
	/* The rule is never cut: its file name may be as long as a path, and its line counts. */
	char rule[PATH_MAX + 32], hex[32];

	if (r->rule_line > 0)
		snprintf(rule, sizeof(rule), "%s:%d", r->rule_file ? r->rule_file : "?",
			 r->rule_line);
	else
		snprintf(rule, sizeof(rule), "default");
	json_object_object_add(o, "time", audit_json_time(ts));
	if (r->sandbox)
		json_object_object_add(o, "sandbox", audit_json_string(r->sandbox));
	json_object_object_add(o, "pid", json_object_new_int(r->pid));
	json_object_object_add(o, "syscall",
			       name ? json_object_new_string(name) : json_object_new_int(r->nr));
	if (r->arch) {
		snprintf(hex, sizeof(hex), "0x%" PRIx32, r->arch);
		json_object_object_add(o, "arch", json_object_new_string(hex));
	}
	json_object_object_add(o, "verdict", json_object_new_string(r->verdict));
	if (strcmp(r->verdict, "deny") == 0)
		json_object_object_add(o, "errno",
				       json_object_new_string(audit_errno_name(r->error)));
	if (strcmp(r->verdict, "return") == 0)
		json_object_object_add(o, "value", json_object_new_int64(r->value));
	json_object_object_add(o, "rule", audit_json_string(rule));
	for (int i = 0; i < 6; i++) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->args[i]);
		json_object_array_add(args, json_object_new_string(hex));
	}
	json_object_object_add(o, "args", args);
	if (r->argv) {
		struct json_object *argv = json_object_new_array();

		if (r->path_arg)
			json_object_object_add(o, "program", audit_json_string(r->path_arg));
		for (size_t i = 0; i < r->argv->n; i++)
			json_object_array_add(argv, audit_json_string(r->argv->args[i]));
		json_object_object_add(o, "argv", argv);
		if (r->argv->more)
			json_object_object_add(o, "argv_truncated", json_object_new_boolean(1));
	}
	if (r->path)
		json_object_object_add(o, "path", audit_json_string(r->path));
	if (r->path2)
		json_object_object_add(o, "path2", audit_json_string(r->path2));
	if (r->addr)
		json_object_object_add(o, "addr", audit_json_string(r->addr));
	if (truncated[0])
		json_object_object_add(o, "truncated", json_object_new_string(truncated));
	return o;
}

/*
 * One record's line at line (size >= AUDIT_QUEUE_LINE_MAX): r with its
 * values already cut, truncated naming them ("" for none).
 */
static size_t audit_format(const struct audit *a, const struct audit_record *r,
			   const char *truncated, const struct timespec *when, char *line,
			   size_t size)
{
	struct audit_buf b;

	abuf_init(&b, line, size);
	if (a->format == AUDIT_JSON) {
		struct json_object *o = audit_json_object(r, truncated, when);

		abuf_put(&b, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		audit_format_text(&b, r, truncated, when);
	}
	return abuf_finish(&b, line);
}

/*
 * A record as queued for the writer (audit-queue.h), who formats it: its
 * values, its strings (as cut) after it, each at str[i] - 1 in text, 0
 * for none. A record with an argv (execve) is queued as its line instead.
 */
enum { AUDIT_ENTRY_LINE, AUDIT_ENTRY_RECORD };
enum {
	AUDIT_STR_SANDBOX,
	AUDIT_STR_PATH_ARG,
	AUDIT_STR_PATH_ARG2,
	AUDIT_STR_PATH,
	AUDIT_STR_PATH2,
	AUDIT_STR_ADDR,
	AUDIT_STR_VERDICT,
	AUDIT_STR_RULE_FILE,
	AUDIT_STR_TRUNCATED,
	AUDIT_STR_COUNT
};
/* Five cut values, a sandbox id, a rule's file name: beyond this, queued as its line. */
#define AUDIT_ENTRY_MAX (16 * 1024)
_Static_assert(AUDIT_ENTRY_MAX <= AUDIT_QUEUE_ENTRY_MAX, "an entry fits the queue");

struct audit_entry {
	int kind;
	pid_t pid;
	int nr, error, rule_line;
	uint32_t arch;
	int64_t value;
	uint64_t args[6];
	struct timespec when;
	uint32_t str[AUDIT_STR_COUNT];
	char text[];
};
_Static_assert(sizeof(struct audit_entry) + AUDIT_QUEUE_LINE_MAX <= AUDIT_QUEUE_ENTRY_MAX,
	       "a record queued as its line fits the queue");

/* An entry's strings, as cut, in the order of AUDIT_STR_*. */
static void audit_entry_strings(const struct audit_cut *cut, const char *str[AUDIT_STR_COUNT])
{
	str[AUDIT_STR_SANDBOX] = cut->r.sandbox;
	str[AUDIT_STR_PATH_ARG] = cut->r.path_arg;
	str[AUDIT_STR_PATH_ARG2] = cut->r.path_arg2;
	str[AUDIT_STR_PATH] = cut->r.path;
	str[AUDIT_STR_PATH2] = cut->r.path2;
	str[AUDIT_STR_ADDR] = cut->r.addr;
	str[AUDIT_STR_VERDICT] = cut->r.verdict;
	str[AUDIT_STR_RULE_FILE] = cut->r.rule_file;
	str[AUDIT_STR_TRUNCATED] = cut->truncated[0] ? cut->truncated : NULL;
}

/* The length of the entry of str (n[i]: each string's size), 0 beyond AUDIT_ENTRY_MAX. */
static size_t audit_entry_size(const char *const str[AUDIT_STR_COUNT], size_t n[AUDIT_STR_COUNT])
{
	size_t used = offsetof(struct audit_entry, text);

	for (int i = 0; i < AUDIT_STR_COUNT; i++) {
		n[i] = str[i] ? strlen(str[i]) + 1 : 0;
		used += n[i];
	}
	return used <= AUDIT_ENTRY_MAX ? used : 0;
}

/* The entry of cut at e, whose strings str of sizes n fit (audit_entry_size). */
static void audit_entry_pack(const struct audit_cut *cut, const struct timespec *when,
			     const char *const str[AUDIT_STR_COUNT],
			     const size_t n[AUDIT_STR_COUNT], struct audit_entry *e)
{
	uint32_t used = 0;

	/* Field by field, not a compound literal: that zeroes the whole entry first, on every record. */
	e->kind = AUDIT_ENTRY_RECORD;
	e->pid = cut->r.pid;
	e->nr = cut->r.nr;
	e->arch = cut->r.arch;
	e->error = cut->r.error;
	e->rule_line = cut->r.rule_line;
	e->value = cut->r.value;
	e->when = *when;
	memcpy(e->args, cut->r.args, sizeof(e->args));
	for (int i = 0; i < AUDIT_STR_COUNT; i++) {
		e->str[i] = 0;
		if (!str[i])
			continue;
		memcpy(e->text + used, str[i], n[i]);
		e->str[i] = used + 1;
		used += (uint32_t)n[i];
	}
}

static const char *audit_entry_str(const struct audit_entry *e, int i)
{
	return e->str[i] ? e->text + e->str[i] - 1 : NULL;
}

/* The writer's side (audit_render_fn): an entry to its line. */
static size_t audit_entry_render(void *userdata, const void *entry, size_t len, char *out,
				 size_t size)
{
	const struct audit *a = userdata;
	const struct audit_entry *full = entry; /* 8-byte aligned in the queue */
	struct audit_record r;

	if (full->kind == AUDIT_ENTRY_LINE) {
		len -= sizeof(*full);
		memcpy(out, (const char *)entry + sizeof(*full), len);
		return len;
	}
	r = (struct audit_record){
		.pid = full->pid, .nr = full->nr, .arch = full->arch, .error = full->error,
		.rule_line = full->rule_line, .value = full->value, .args = full->args,
		.sandbox = audit_entry_str(full, AUDIT_STR_SANDBOX),
		.path_arg = audit_entry_str(full, AUDIT_STR_PATH_ARG),
		.path_arg2 = audit_entry_str(full, AUDIT_STR_PATH_ARG2),
		.path = audit_entry_str(full, AUDIT_STR_PATH),
		.path2 = audit_entry_str(full, AUDIT_STR_PATH2),
		.addr = audit_entry_str(full, AUDIT_STR_ADDR),
		.verdict = audit_entry_str(full, AUDIT_STR_VERDICT),
		.rule_file = audit_entry_str(full, AUDIT_STR_RULE_FILE),
	};
	/* Already cut when queued: formatted as they are (no copy, no printf per record). */
	return audit_format(a, &r, audit_entry_str(full, AUDIT_STR_TRUNCATED) ?: "", &full->when,
			    out, size);
}

/* entry: room for an entry's header, then a line of len bytes: queued as that line. */
static void audit_queue_line(struct audit *a, char *entry, size_t len)
{
	memcpy(entry, &(struct audit_entry){ .kind = AUDIT_ENTRY_LINE }, sizeof(struct audit_entry));
	audit_queue_push(a->queue, entry, sizeof(struct audit_entry) + len);
}

/*
 * On the round trip: the values are cut and copied straight into the
 * queue, and the writer formats them (the line costs several times the
 * copy). A record with an argv, or too long to copy, is formatted here and
 * queued as its line.
 */
/*
 * A record too long for an entry, or with an argv: queued as its line.
 * Apart, so that its header's initialization stays off the common path.
 */
static __attribute__((noinline)) void audit_enqueue_line(struct audit *a,
							 const struct audit_cut *cut,
							 const struct timespec *when)
{
	_cleanup_free_ char *entry = malloc(sizeof(struct audit_entry) + AUDIT_QUEUE_LINE_MAX);

	if (!entry) {
		atomic_fetch_add(&a->sink.lost, 1);
		return;
	}
	audit_queue_line(a, entry,
			 audit_format(a, &cut->r, cut->truncated, when,
				      entry + sizeof(struct audit_entry), AUDIT_QUEUE_LINE_MAX));
}

static void audit_enqueue(struct audit *a, const struct audit_cut *cut, const struct timespec *when)
{
	const char *str[AUDIT_STR_COUNT];
	size_t n[AUDIT_STR_COUNT], len = 0;

	if (!cut->r.argv) {
		audit_entry_strings(cut, str);
		len = audit_entry_size(str, n);
	}
	if (!len) {
		audit_enqueue_line(a, cut, when);
		return;
	}
	audit_entry_pack(cut, when, str, n, audit_queue_reserve(a->queue, len));
	audit_queue_commit(a->queue);
}

/*
 * Formatted and written at once (--audit-sync, or no writer thread). Not
 * inlined: its line buffer (40 KiB) stays off the queued path's stack.
 */
static __attribute__((noinline)) void audit_write_now(struct audit *a, const struct audit_cut *cut,
						      const struct timespec *when)
{
	/* Five values of at most AUDIT_FIELD_MAX bytes, each byte escaped to at most 4. */
	char line[AUDIT_QUEUE_LINE_MAX];

	audit_sink_write(&a->sink, line,
			 audit_format(a, &cut->r, cut->truncated, when, line, sizeof(line)));
}

/*
 * The records of the budget (--log-limit), h NULL for the first: from now
 * on the sandbox's records over the limit are held back (verdict=
 * suppressing, the limit); then, before the next window's first record or
 * at the end, what was held back (verdict=suppressed, how many records,
 * at most how many bytes, since when, the limit). A budget the sandboxes
 * of a user share (uid >= 0) names the user, not a sandbox; the one users
 * left over share (AUDIT_UID_OTHERS) is user=others.
 */
static void audit_format_held_text(struct audit_buf *b, const char *sandbox, long uid,
				   const struct audit_held *h, const char *limit,
				   const struct timespec *when)
{
	audit_timestamp(b, when);
	if (uid == AUDIT_UID_OTHERS) {
		abuf_put(b, " user=others");
	} else if (uid >= 0) {
		abuf_put(b, " user=");
		abuf_put_i64(b, uid);
	} else {
		audit_put_optional(b, " sandbox=", sandbox);
	}
	abuf_put(b, h ? " verdict=suppressed" : " verdict=suppressing");
	if (h) {
		abuf_put(b, " records=");
		abuf_put_u64(b, h->records);
		abuf_put(b, " bytes=");
		abuf_put_u64(b, h->bytes);
		abuf_put(b, " since=");
		audit_timestamp(b, &h->since);
	}
	abuf_put(b, " limit=");
	abuf_put(b, limit);
}

static void audit_format_held_json(struct audit_buf *b, const char *sandbox, long uid,
				   const struct audit_held *h, const char *limit,
				   const struct timespec *when)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "time", audit_json_time(when));
	if (uid == AUDIT_UID_OTHERS)
		json_object_object_add(o, "user", json_object_new_string("others"));
	else if (uid >= 0)
		json_object_object_add(o, "user", json_object_new_int64(uid));
	else if (sandbox)
		json_object_object_add(o, "sandbox", audit_json_string(sandbox));
	json_object_object_add(o, "verdict",
			       json_object_new_string(h ? "suppressed" : "suppressing"));
	if (h) {
		json_object_object_add(o, "records", json_object_new_int64((int64_t)h->records));
		json_object_object_add(o, "bytes", json_object_new_int64((int64_t)h->bytes));
		json_object_object_add(o, "since", audit_json_time(&h->since));
	}
	json_object_object_add(o, "limit", json_object_new_string(limit));
	abuf_put(b, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/* A record of the budget's (h NULL: the first held back, else what was), queued as a line. */
static void audit_write_held(struct audit *a, const char *sandbox, long uid,
			     const struct audit_held *h)
{
	/* After the entry's header when queued: a sandbox id (256 bytes, 4 each shown), the rest. */
	char entry[sizeof(struct audit_entry) + 2048], limit[64];
	char *line = entry + sizeof(struct audit_entry);
	struct audit_buf b;
	size_t len;
	struct timespec when;

	if (h && !h->records)
		return;
	audit_budget_format(&a->budget, limit, sizeof(limit));
	if (a->format == AUDIT_JOURNAL) {
		if (audit_journal_write_held(sandbox, uid, h ? h->records : 0, h ? h->bytes : 0,
					     limit) < 0)
			atomic_fetch_add(&a->sink.lost, 1);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &when);
	abuf_init(&b, line, sizeof(entry) - sizeof(struct audit_entry));
	if (a->format == AUDIT_JSON)
		audit_format_held_json(&b, sandbox, uid, h, limit, &when);
	else
		audit_format_held_text(&b, sandbox, uid, h, limit, &when);
	len = abuf_finish(&b, line);
	if (a->queue)
		audit_queue_line(a, entry, len);
	else
		audit_sink_write(&a->sink, line, len);
}

/* The budget's say on a record: false when it is held back (written first: what the budget asks). */
static bool audit_admit(struct audit *a, struct audit_limit *limit, const struct audit_record *r)
{
	struct audit_admit ad;
	long uid = limit->shared ? limit->shared->owner_uid : -1;

	audit_limit_admit(limit, &a->budget, audit_record_cost(r, a->format), &ad);
	audit_write_held(a, r->sandbox, -1, &ad.held);
	audit_write_held(a, r->sandbox, uid, &ad.shared_held);
	if (ad.first)
		audit_write_held(a, r->sandbox, -1, NULL);
	if (ad.shared_first)
		audit_write_held(a, r->sandbox, uid, NULL);
	return ad.admit;
}

bool audit_write(struct audit *a, struct audit_limit *limit, const struct audit_record *r)
{
	struct audit_cut cut;
	struct timespec when;
	bool stopping = atomic_load_explicit(&a->stopping, memory_order_relaxed);

	audit_cut(r, &cut);
	/* Stopping: the process exits soon, with no summary to come. Every record, now. */
	if (limit && !stopping && !audit_admit(a, limit, &cut.r))
		return false;
	if (a->format == AUDIT_JOURNAL) {
		if (audit_journal_write(&cut.r) < 0)
			atomic_fetch_add(&a->sink.lost, 1);
		return true;
	}
	clock_gettime(CLOCK_REALTIME, &when);
	if (a->queue && !stopping)
		audit_enqueue(a, &cut, &when);
	else
		audit_write_now(a, &cut, &when);
	return true;
}

void audit_limit_flush(struct audit *a, struct audit_limit *limit, const char *sandbox)
{
	struct audit_held held;

	if (!a)
		return;
	audit_limit_take(limit, &held);
	audit_write_held(a, sandbox, limit->owner_uid, &held);
}

void audit_limit_end(struct audit *a, struct audit_limit *limit, const char *sandbox)
{
	audit_limit_flush(a, limit, sandbox);
	audit_limit_destroy(limit);
}

void audit_stopping(struct audit *a)
{
	if (a)
		atomic_store(&a->stopping, true);
}

void audit_sync(struct audit *a)
{
	if (a)
		audit_queue_sync(a->queue);
}

int audit_set_async(struct audit *a)
{
	if (a->format == AUDIT_JOURNAL || a->queue)
		return 0;
	return audit_queue_start(&a->sink, audit_entry_render, a, &a->queue);
}
