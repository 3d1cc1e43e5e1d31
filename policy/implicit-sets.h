/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The implicit rule sets, as policy text (implicit-sets.c), for
 * implicit.c, which adds them to a policy that has what they guard.
 */
#ifndef UNOTIFY_POLICY_IMPLICIT_SETS_H
#define UNOTIFY_POLICY_IMPLICIT_SETS_H

/* One implicit rule: syscalls (those the native architecture lacks are left out), the rest. */
struct implicit_rule {
	const char *syscalls;
	const char *rest; /* conditions and errno, as in a policy */
};

struct implicit_set {
	const char *name;
	unsigned int guards;
	const char *gap; /* what a program can do once the set is off */
	struct implicit_rule rules[32];
};

/* POLICY_IMPLICIT_SETS of them, in the order `policy explain` lists them. */
extern const struct implicit_set implicit_sets[];

#endif
