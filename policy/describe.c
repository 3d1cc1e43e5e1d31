/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Introspection for `unotify policy explain` and `check`: rules as people read them. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "policy/internal.h"

struct describe_buf {
	char *buf;
	size_t size;
	size_t len; /* what the whole text needs, even past size */
};

static void describe_add(struct describe_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void describe_add(struct describe_buf *b, const char *fmt, ...)
{
	size_t room = b->len < b->size ? b->size - b->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static void describe_outcome(struct describe_buf *b, const struct policy_rule *r)
{
	const char *name;

	describe_add(b, "%s", policy_action_name(r->action));
	if (r->action == POLICY_DENY && r->kernel_answer) {
		describe_add(b, " kernel");
	} else if (r->action == POLICY_DENY) {
		name = policy_errno_name(r->error);
		if (name)
			describe_add(b, " %s", name);
		else
			describe_add(b, " %d", r->error);
	} else if (r->action == POLICY_RETURN) {
		describe_add(b, " %lld", (long long)r->value);
	}
}

/*
 * "openat path=/etc/shadow -> deny EACCES"; i == policy_rule_count(p)
 * describes the default: "default -> deny EPERM". Returns the length, or
 * -ERANGE when buf was too small (it then holds a truncated text).
 */
int policy_rule_describe(const struct policy *p, size_t i, char *buf, size_t size)
{
	struct describe_buf b = { .buf = buf, .size = size };
	const struct policy_rule *r;

	if (!p || (!buf && size) || i > p->n_rules)
		return -ENOENT;
	if (size)
		buf[0] = '\0';
	if (i == p->n_rules) {
		describe_add(&b, "default -> ");
		describe_outcome(&b, &p->def);
		return b.len < size ? (int)b.len : -ERANGE;
	}
	r = &p->rules[i];
	/* As written: syscalls and @groups, then the conditions in their order. */
	for (size_t j = 0; j < r->n_words; j++)
		describe_add(&b, "%s%s", j ? " " : "", r->words[j]);
	for (size_t j = 0; j < r->n_cond_words; j++)
		describe_add(&b, " %s", r->cond_words[j]);
	describe_add(&b, " -> ");
	describe_outcome(&b, r);
	return b.len < size ? (int)b.len : -ERANGE;
}

int policy_rule_source(const struct policy *p, size_t i, const char **ret_file, int *ret_line)
{
	const struct policy_rule *r;

	if (!p || i > p->n_rules)
		return -ENOENT;
	r = i == p->n_rules ? &p->def : &p->rules[i];
	if (ret_file)
		*ret_file = r->file;
	if (ret_line)
		*ret_line = r->line;
	return 0;
}
