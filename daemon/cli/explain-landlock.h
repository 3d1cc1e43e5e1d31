/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify policy explain`: what the Landlock layer does (explain-landlock.c). */
#ifndef UNOTIFY_EXPLAIN_LANDLOCK_H
#define UNOTIFY_EXPLAIN_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "policy/landlock.h"
#include "run-landlock.h"

/* The header: the ABI here, the families decided, the rules bound. */
void explain_landlock_print_header(const struct run_landlock *ll);
/* The layer of a syscall Landlock decides, as text. */
const char *explain_landlock_layer_text(const struct run_landlock *ll, int nr);
/* Under a syscall's line: Landlock decides it, or why not (nothing for calls without a path). */
void explain_landlock_print_syscall(const struct run_landlock *ll, int nr);
/* Under a rule: what Landlock does with it, for syscall nr. */
void explain_landlock_print_rule(const struct run_landlock *ll, int nr, size_t index);
/* The same as JSON members: "landlock" of a syscall, of a rule, of the whole. */
void explain_landlock_json_syscall(const struct run_landlock *ll, int nr, struct json_object *o);
void explain_landlock_json_rule(const struct run_landlock *ll, int nr, size_t index,
				struct json_object *o);
void explain_landlock_json_header(const struct run_landlock *ll, struct json_object *o);
/* Does Landlock decide the calls of nr that rule index meets? */
bool explain_landlock_rule_decided(const struct run_landlock *ll, int nr, size_t index);
/* Why calls of nr are not Landlock's (never NULL: a call without a path has its reason too). */
const char *explain_landlock_why_not(const struct run_landlock *ll, int nr);

#endif
