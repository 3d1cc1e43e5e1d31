/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Landlock layer of a kernel-layer answer (control.c, control-landlock.c). */
#ifndef UNOTIFYD_CONTROL_LANDLOCK_H
#define UNOTIFYD_CONTROL_LANDLOCK_H

#include <stddef.h>

#include "policy/policy.h"

struct json_object;

/*
 * For a client that asked for the Landlock layer of ABI abi without the
 * families in off (kernel-layer-landlock.h): *ret_prog, the filter built
 * with the layer of p (the caller frees it), and the ruleset added to
 * answer. 0, or -errno with *ret_why (written in buf when it is made
 * here). abi < 0 (the client has no layer): only to refuse a policy whose
 * `scope` nothing else enforces (-EOPNOTSUPP).
 */
int control_landlock_layer(const struct policy *p, int abi, unsigned int off,
			   struct json_object *answer, struct policy_program **ret_prog,
			   char *buf, size_t size, const char **ret_why);

#endif
