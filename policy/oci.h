/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to oci.c and oci-rules.c: an OCI seccomp profile between JSON and rules. */
#ifndef UNOTIFY_POLICY_OCI_H
#define UNOTIFY_POLICY_OCI_H

#include "policy/internal.h"

/* An SCMP_ACT_* as a rule's outcome; skip: SCMP_ACT_NOTIFY, left to the rules that follow. */
struct oci_action {
	enum policy_action action;
	int error;
	int64_t value;
	bool skip;
};

/* One entry of syscalls[] that applies to the target (includes/excludes held). */
struct oci_entry {
	size_t index; /* in syscalls[], from 0 */
	int *nrs;
	size_t n_nrs;
	struct oci_action act;
	struct policy_cond *conds;
	size_t n_conds;
};

void oci_entry_free(struct oci_entry *e);
/* Turns the entries into first-match rules where the profile is included (oci-rules.c). */
int oci_emit(struct parser *ps, struct oci_entry *entries, size_t n,
	     const struct oci_action *def);

#endif
