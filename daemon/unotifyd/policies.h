/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Policies (policies.c): every NAME.policy of the policy directory,
 * reference-counted, reloaded on SIGHUP.
 */
#ifndef UNOTIFYD_POLICIES_H
#define UNOTIFYD_POLICIES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

struct policy_entry {
	atomic_int refs;
	char *name;
	struct policy *policy;          /* NULL: unusable (error says why) */
	struct policy_program *prog;    /* its kernel layer, compiled once at load */
	uint64_t serial;                /* this loaded version (a reload makes new ones) */
	char *error;
};

struct policy_set;

/*
 * Loads every *.policy file of dir. A file that does not parse is reported
 * (every diagnostic logged) and, when old has a good version of it, that
 * version is kept. Returns the number of broken files.
 */
int policies_load(const char *dir, const struct policy_set *old, struct policy_set **ret);
void policies_unref(struct policy_set *s);
struct policy_set *policies_ref(struct policy_set *s);
/* A reference to the entry named name, or -ENOENT. */
int policies_lookup(const struct policy_set *s, const char *name, struct policy_entry **ret);
void policy_entry_unref(struct policy_entry *e);
size_t policies_count(const struct policy_set *s, size_t *ret_broken);
/* [{"name":..., "status":"ok"|"broken", "error":...}] */
struct json_object *policies_to_json(const struct policy_set *s);
/* ["name", "name (broken)", ...] */
struct json_object *policies_names_json(const struct policy_set *s);

#endif
