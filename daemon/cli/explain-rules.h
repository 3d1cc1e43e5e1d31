/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify policy explain`, rule by rule: for every rule of the policy
 * (implicit ones and the default included) the layer that enforces it for
 * each syscall it names, the seccomp filter in the kernel, Landlock or the
 * supervisor, and for the supervisor's why not Landlock. explain.c walks
 * the syscalls and adds one record per (rule, syscall); this file groups
 * and prints them (explain-rules.c).
 */
#ifndef UNOTIFY_EXPLAIN_RULES_H
#define UNOTIFY_EXPLAIN_RULES_H

#include <stddef.h>

#include <json-c/json.h>

#include "policy/policy.h"

enum explain_at {
	EXPLAIN_AT_KERNEL,     /* the seccomp filter settles it */
	EXPLAIN_AT_LANDLOCK,   /* Landlock decides it in the kernel */
	EXPLAIN_AT_SUPERVISOR, /* notified: the supervisor decides it */
};

struct explain_at_rec {
	size_t index;	 /* the rule (policy_rule_count(p): the default) */
	int nr;		 /* a syscall it names */
	enum explain_at at;
	const char *why; /* EXPLAIN_AT_SUPERVISOR: why not Landlock (borrowed) */
};

struct explain_at_list {
	struct explain_at_rec *v;
	size_t n, cap;
};

/* -ENOMEM */
int explain_at_add(struct explain_at_list *l, size_t index, int nr, enum explain_at at,
		   const char *why);
/* "the layer of each rule:" and a line per layer under each rule. Sorts l. */
void explain_at_print(const struct policy *p, struct explain_at_list *l);
/* The same as an array: [{"rule": "FILE:LINE", "text":..., "layers": [...]}]. Sorts l. */
struct json_object *explain_at_json(const struct policy *p, struct explain_at_list *l);
void explain_at_free(struct explain_at_list *l);

#endif
