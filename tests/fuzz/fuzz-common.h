/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the fuzz targets of tests/fuzz/. */
#ifndef UNOTIFY_FUZZ_COMMON_H
#define UNOTIFY_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "policy/policy.h"

/* An invariant that must hold whatever the input: abort (a crash to libFuzzer) otherwise. */
#define FUZZ_CHECK(cond)                                                                    \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "fuzz: %s:%d: check failed: %s\n", __FILE__,       \
				__LINE__, #cond);                                           \
			abort();                                                            \
		}                                                                           \
	} while (0)

/* Compiles an accepted (finished, error-free) policy and checks both layers agree. */
void fuzz_compiled(const struct policy *p);

/*
 * Parses text as name (a ".json" name is read as an OCI profile), finishes
 * the policy, and runs fuzz_compiled when it was accepted. An error must
 * come with a diagnostic.
 */
void fuzz_policy_text(const char *name, const char *text, const struct policy_env *env);

#endif
