/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify policy explain`: the layer of each rule (explain-rules.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain-rules.h"

/* At most this many syscall names on a line; the rest are counted. */
#define EXPLAIN_AT_NAMES 8

static const char *const explain_at_names[] = {
	[EXPLAIN_AT_KERNEL] = "seccomp filter in the kernel",
	[EXPLAIN_AT_LANDLOCK] = "Landlock in the kernel",
	[EXPLAIN_AT_SUPERVISOR] = "supervisor",
};
static const char *const explain_at_keys[] = {
	[EXPLAIN_AT_KERNEL] = "kernel",
	[EXPLAIN_AT_LANDLOCK] = "landlock",
	[EXPLAIN_AT_SUPERVISOR] = "supervisor",
};

int explain_at_add(struct explain_at_list *l, size_t index, int nr, enum explain_at at,
		   const char *why)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct explain_at_rec *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct explain_at_rec){.index = index,
					       .nr = nr,
					       .at = at,
					       .why = at == EXPLAIN_AT_SUPERVISOR ? why : NULL};
	return 0;
}

static int explain_at_cmp(const void *a, const void *b)
{
	const struct explain_at_rec *x = a, *y = b;
	int c;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	c = strcmp(x->why ? x->why : "", y->why ? y->why : "");
	if (c)
		return c;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* The end of the records of l->v[i]'s rule and place, from i on. */
static size_t explain_at_group(const struct explain_at_list *l, size_t i)
{
	size_t j = i + 1;

	while (j < l->n && l->v[j].index == l->v[i].index && l->v[j].at == l->v[i].at &&
	       strcmp(l->v[j].why ? l->v[j].why : "", l->v[i].why ? l->v[i].why : "") == 0)
		j++;
	return j;
}

static void explain_at_rule_text(const struct policy *p, size_t index, char *where, size_t wsize,
				 char *text, size_t tsize)
{
	const char *file = NULL;
	int line = 0;

	policy_rule_describe(p, index, text, tsize);
	if (policy_rule_source(p, index, &file, &line) == 0 && file && line > 0)
		snprintf(where, wsize, "%s:%d", file, line);
	else
		snprintf(where, wsize, "(no default line)");
}

/* The lines of one rule and one place. */
static void explain_at_print_group(const struct explain_at_list *l, size_t i, size_t end)
{
	printf("      %s:", explain_at_names[l->v[i].at]);
	for (size_t k = i; k < end && k < i + EXPLAIN_AT_NAMES; k++)
		printf(" %s", policy_syscall_name(l->v[k].nr));
	if (end - i > EXPLAIN_AT_NAMES)
		printf(" and %zu more", end - i - EXPLAIN_AT_NAMES);
	printf("\n");
	if (l->v[i].why)
		printf("        not Landlock: %s\n", l->v[i].why);
}

void explain_at_print(const struct policy *p, struct explain_at_list *l)
{
	char where[512], text[1024];
	size_t i = 0;

	if (l->n) /* l->v is NULL then, which qsort may not be given */
		qsort(l->v, l->n, sizeof(*l->v), explain_at_cmp);
	printf("\nthe layer of each rule (for the syscalls it names):\n");
	for (size_t index = 0; index <= policy_rule_count(p); index++) {
		explain_at_rule_text(p, index, where, sizeof(where), text, sizeof(text));
		printf("  %s: %s\n", where, text);
		/* The default decides the syscalls no rule names too: see "every syscall no rule
		 * names". */
		if ((i >= l->n || l->v[i].index != index) && index < policy_rule_count(p))
			printf("      never reached: earlier rules decide every call it names\n");
		while (i < l->n && l->v[i].index == index) {
			size_t end = explain_at_group(l, i);

			explain_at_print_group(l, i, end);
			i = end;
		}
	}
}

/* One place of one rule, as JSON. */
static struct json_object *explain_at_json_group(const struct explain_at_list *l, size_t i,
						 size_t end)
{
	struct json_object *e = json_object_new_object(), *names = json_object_new_array();

	json_object_object_add(e, "layer", json_object_new_string(explain_at_keys[l->v[i].at]));
	for (size_t k = i; k < end; k++)
		json_object_array_add(names,
				      json_object_new_string(policy_syscall_name(l->v[k].nr)));
	json_object_object_add(e, "syscalls", names);
	if (l->v[i].why)
		json_object_object_add(e, "why_not_landlock", json_object_new_string(l->v[i].why));
	return e;
}

struct json_object *explain_at_json(const struct policy *p, struct explain_at_list *l)
{
	struct json_object *rules = json_object_new_array();
	char where[512], text[1024];
	size_t i = 0;

	if (l->n) /* l->v is NULL then, which qsort may not be given */
		qsort(l->v, l->n, sizeof(*l->v), explain_at_cmp);
	for (size_t index = 0; rules && index <= policy_rule_count(p); index++) {
		struct json_object *rule = json_object_new_object(),
				   *layers = json_object_new_array();

		explain_at_rule_text(p, index, where, sizeof(where), text, sizeof(text));
		json_object_object_add(rule, "rule", json_object_new_string(where));
		json_object_object_add(rule, "text", json_object_new_string(text));
		while (i < l->n && l->v[i].index == index) {
			size_t end = explain_at_group(l, i);

			json_object_array_add(layers, explain_at_json_group(l, i, end));
			i = end;
		}
		/* Empty: never reached (the default: see "default"). */
		json_object_object_add(rule, "layers", layers);
		json_object_array_add(rules, rule);
	}
	return rules;
}

void explain_at_free(struct explain_at_list *l)
{
	free(l->v);
	*l = (struct explain_at_list){0};
}
