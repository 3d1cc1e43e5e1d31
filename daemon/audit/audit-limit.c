/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail's budget (audit-limit.h). Fixed windows, as journald's
 * rate limit: simple to state ("at most 4 MiB a minute") and to check
 * against a trail. Only records to be written reach the limit (by default
 * denials): an allowed call's round trip never takes its lock.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "audit-limit.h"
#include "lib/util.h"

#define AUDIT_BUDGET_SECONDS_MAX 86400u

static const struct {
	char suffix;
	unsigned int shift;
} audit_budget_units[] = {
	{ 'K', 10 },
	{ 'M', 20 },
	{ 'G', 30 },
};

/* "4M" -> 4 MiB; -EINVAL for anything but digits and one unit, or 0 and overflow. */
static int audit_budget_parse_size(const char *s, const char *end, uint64_t *ret)
{
	char *p;
	uint64_t v;
	unsigned int shift = 0;

	if (s == end || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &p, 10);
	if (errno || v == 0)
		return -EINVAL;
	if (p + 1 == end) {
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(audit_budget_units); i++)
			if (*p == audit_budget_units[i].suffix) {
				shift = audit_budget_units[i].shift;
				known = true;
			}
		if (!known)
			return -EINVAL;
		p++;
	}
	if (p != end || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*ret = v << shift;
	return 0;
}

static int audit_budget_parse_seconds(const char *s, uint32_t *ret)
{
	char *p;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &p, 10);
	if (*p == 's')
		p++;
	if (errno || *p || v == 0 || v > AUDIT_BUDGET_SECONDS_MAX)
		return -EINVAL;
	*ret = (uint32_t)v;
	return 0;
}

int audit_budget_parse(const char *s, struct audit_budget *ret)
{
	const char *slash = strchr(s, '/');
	struct audit_budget b = { 0 };

	if (strcmp(s, "none") == 0) {
		*ret = b;
		return 0;
	}
	if (!slash || audit_budget_parse_size(s, slash, &b.bytes) < 0 ||
	    audit_budget_parse_seconds(slash + 1, &b.seconds) < 0)
		return -EINVAL;
	*ret = b;
	return 0;
}

void audit_budget_format(const struct audit_budget *b, char *buf, size_t size)
{
	char unit[2] = "";
	uint64_t v = b->bytes;

	if (!b->bytes) {
		snprintf(buf, size, "none");
		return;
	}
	/* The largest unit that divides it: units go up. */
	for (size_t i = 0; i < ARRAY_SIZE(audit_budget_units); i++)
		if ((b->bytes & ((UINT64_C(1) << audit_budget_units[i].shift) - 1)) == 0) {
			v = b->bytes >> audit_budget_units[i].shift;
			unit[0] = audit_budget_units[i].suffix;
		}
	snprintf(buf, size, "%" PRIu64 "%s/%" PRIu32 "s", v, unit, b->seconds);
}

void audit_limit_init(struct audit_limit *l)
{
	*l = (struct audit_limit){ .owner_uid = -1 };
	pthread_mutex_init(&l->lock, NULL);
	atomic_init(&l->suppressed, 0);
}

void audit_limit_destroy(struct audit_limit *l)
{
	pthread_mutex_destroy(&l->lock);
}

static uint64_t audit_limit_now(void)
{
	struct timespec ts;

	/* Coarse: a window is seconds long, and this clock is read without a system call. */
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	/* Never 0, which says "no window yet". */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1;
}

/* Under l->lock: what is held back, taken. */
static void audit_limit_take_locked(struct audit_limit *l, struct audit_held *ret)
{
	*ret = l->held;
	l->held = (struct audit_held){ 0 };
}

/* Under l->lock: a new window once the last one ended; what it held goes to *ret_held. */
static void audit_limit_roll_locked(struct audit_limit *l, const struct audit_budget *b,
				    uint64_t now, struct audit_held *ret_held)
{
	if (l->window_start && now - l->window_start < (uint64_t)b->seconds * 1000000000u)
		return;
	l->window_start = now;
	l->used = 0;
	audit_limit_take_locked(l, ret_held);
}

/* Under l->lock: one more record held back, of cost bytes; true for the window's first. */
static bool audit_limit_hold_locked(struct audit_limit *l, uint64_t cost)
{
	bool first = !l->held.records;

	if (first)
		clock_gettime(CLOCK_REALTIME, &l->held.since);
	l->held.records++;
	l->held.bytes += cost;
	return first;
}

/* The shared budget: room taken, or the record held there. */
static bool audit_limit_shared_admit(struct audit_limit *l, const struct audit_budget *b,
				     uint64_t cost, uint64_t now, struct audit_admit *ret)
{
	bool room;

	pthread_mutex_lock(&l->lock);
	audit_limit_roll_locked(l, b, now, &ret->shared_held);
	room = l->used + cost <= b->bytes;
	if (room)
		l->used += cost;
	else
		ret->shared_first = audit_limit_hold_locked(l, cost);
	pthread_mutex_unlock(&l->lock);
	return room;
}

void audit_limit_admit(struct audit_limit *l, const struct audit_budget *b, uint64_t cost,
		       struct audit_admit *ret)
{
	uint64_t now;

	*ret = (struct audit_admit){ .admit = true };
	if (!b->bytes)
		return;
	now = audit_limit_now();
	pthread_mutex_lock(&l->lock);
	audit_limit_roll_locked(l, b, now, &ret->held);
	if (l->used + cost > b->bytes) {
		ret->admit = false;
		ret->first = audit_limit_hold_locked(l, cost);
	} else if (l->shared && !audit_limit_shared_admit(l->shared, b, cost, now, ret)) {
		/* The shared budget's lock inside the sandbox's: always in that order. */
		ret->admit = false;
	} else {
		l->used += cost;
	}
	if (!ret->admit)
		atomic_fetch_add_explicit(&l->suppressed, 1, memory_order_relaxed);
	pthread_mutex_unlock(&l->lock);
}

void audit_limit_take(struct audit_limit *l, struct audit_held *ret_held)
{
	pthread_mutex_lock(&l->lock);
	audit_limit_take_locked(l, ret_held);
	pthread_mutex_unlock(&l->lock);
}

/*
 * The most a byte of a value from the target can take: in text, itself if
 * it is printable ASCII and no blank, quote or backslash, else \xNN (a
 * quoted string escapes every byte past ASCII); in JSON, itself, "\/" or
 * "\"" for '/' and '"', else \\xNN (the \xNN the trail writes, its
 * backslash escaped by JSON). A journal entry holds the bytes as they are.
 */
static uint64_t audit_byte_cost(unsigned char c, enum audit_format format)
{
	bool plain = c > 0x20 && c < 0x7f && c != '\\' && c != '"';

	switch (format) {
	case AUDIT_JSON:
		if (c == ' ' || (plain && c != '/'))
			return 1;
		return c == '/' || c == '"' ? 2 : 5;
	case AUDIT_JOURNAL:
		return 1;
	default:
		return plain ? 1 : 4;
	}
}

static uint64_t audit_value_cost(const char *s, enum audit_format format)
{
	uint64_t n = 0;

	for (; s && *s; s++)
		n += audit_byte_cost((unsigned char)*s, format);
	return n;
}

uint64_t audit_record_cost(const struct audit_record *r, enum audit_format format)
{
	/* Time, pid, syscall, verdict, rule, six arguments, keys and quotes. */
	uint64_t n = 320 + audit_value_cost(r->sandbox, format);

	n += audit_value_cost(r->rule_file, format);
	n += audit_value_cost(r->path_arg, format) + audit_value_cost(r->path_arg2, format);
	n += audit_value_cost(r->path, format) + audit_value_cost(r->path2, format);
	n += audit_value_cost(r->addr, format);
	/* The journal's MESSAGE holds the path too. */
	if (format == AUDIT_JOURNAL)
		n += audit_value_cost(r->path, format);
	for (size_t i = 0; r->argv && i < r->argv->n; i++)
		n += 4 + audit_value_cost(r->argv->args[i], format);
	return n;
}
