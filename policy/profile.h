/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to profile.c and profile-rules.c: an OCI seccomp profile between JSON and rules. */
#ifndef UNOTIFY_POLICY_PROFILE_H
#define UNOTIFY_POLICY_PROFILE_H

#include <json-c/json.h>

#include "policy/internal.h"

/* An SCMP_ACT_* as a rule's outcome; skip: SCMP_ACT_NOTIFY, left to the rules that follow. */
struct profile_action {
	enum policy_action action;
	int error;
	int64_t value;
	bool skip;
	/*
	 * libseccomp's action as runc's getAction makes it (with errnoRet for
	 * ERRNO and TRACE), which runc compares with the default's: several
	 * of them map to one policy action.
	 */
	uint32_t scmp;
};

/* One entry of syscalls[] that applies to the target (includes/excludes held). */
struct profile_entry {
	size_t index; /* in syscalls[], from 0 */
	int *nrs;
	size_t n_nrs;
	struct profile_action act;
	struct policy_cond *conds;
	size_t n_conds;
};

void profile_entry_free(struct profile_entry *e);
/* "syscalls[3]: ..." errors and warnings, about the profile as a whole (no line). */
void profile_report(struct parser *ps, enum policy_severity sev, const char *hint,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* JSON keys as Go reads them (profile-keys.c): key name of obj, in any case. */
bool profile_key_get(json_object *obj, const char *name, json_object **ret);
/*
 * Warns of obj's keys that are none of known (NULL-ended) or spelt with
 * another case; an error when two keys name one of known.
 */
void profile_keys_check(struct parser *ps, const char *where, json_object *obj,
		       const char *const *known);
/* Turns the entries into first-match rules where the profile is included (profile-rules.c). */
int profile_emit(struct parser *ps, struct profile_entry *entries, size_t n,
	     const struct profile_action *def);

#endif
