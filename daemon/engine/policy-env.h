/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts a policy is evaluated against (OCI profiles' includes and
 * excludes on capabilities and minKernel): those of the target, not of
 * the supervisor, which usually holds every capability.
 */
#ifndef UNOTIFY_POLICY_ENV_H
#define UNOTIFY_POLICY_ENV_H

#include <stdbool.h>

#include "policy/policy.h"

/* This kernel and this process's effective capabilities (policy check/explain). */
int policy_env_of_self(struct policy_env *ret);
/*
 * What a program started by `unotify run` will have: no capabilities with
 * --drop-caps, the listed ones with --keep-caps, none for a non-root user,
 * else ours.
 */
int policy_env_for_run(const char *user, bool drop_caps, const char *keep_caps,
		       struct policy_env *ret);

#endif
