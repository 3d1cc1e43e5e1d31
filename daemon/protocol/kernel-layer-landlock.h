/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock layer in the kernel-layer request (kernel-layer.h), for
 * `unotify run --daemon`: the client names its kernel's Landlock ABI and
 * the families it found it cannot bind here; the daemon answers the filter
 * built with the layer of its policy and the ruleset, which the client
 * checks on its system and its program binds (docs/LANDLOCK.md). Both
 * members are optional: without them, the filter of the policy alone.
 * A client that binds TCP port rules says "ports":true; without it (an
 * older client) the daemon keeps connect and bind (TCP ports) to itself.
 *
 *   request  ... "landlock":{"abi":N,"off":["opens"|"exec"|"connect"|"bind",...],
 *                "ports":true}
 *   answer   ... "landlock":{"abi":N,"handled":H,"scoped":S,"rules":[{"path":P,
 *                "beneath":B,"access":A,"covered":C,"families":F},...],
 *                "handled_net":HN,"ports":[{"port":N,"access":A},...]}
 */
#ifndef UNOTIFY_KERNEL_LAYER_LANDLOCK_H
#define UNOTIFY_KERNEL_LAYER_LANDLOCK_H

#include <stdint.h>

#include "lib/unotify.h"

struct json_object;

/* The families, as landlock.h numbers them (bit f of a mask). */
#define KERNEL_LAYER_LANDLOCK_FAMILIES 4
/* The TCP families (connect, bind): off unless the client says it binds ports. */
#define KERNEL_LAYER_LANDLOCK_NET (1u << 2 | 1u << 3)
/* At most this many rules (and TCP ports) in an answer. */
#define KERNEL_LAYER_LANDLOCK_RULES_MAX 256
#define KERNEL_LAYER_LANDLOCK_PORTS_MAX 1024

/* The ruleset of an answer; paths and arrays owned. */
struct kernel_layer_landlock {
	int abi;
	uint64_t handled;
	uint64_t scoped; /* LANDLOCK_SCOPE_* (the policy's `scope`; absent: 0) */
	struct unotify_landlock_rule *rules;
	unsigned int *families; /* per rule: bit f, the families that need it */
	size_t n_rules;
	uint64_t handled_net; /* LANDLOCK_ACCESS_NET_* (absent: 0) */
	struct unotify_landlock_port *ports;
	size_t n_ports;
};

/* The client: asks for the layer of abi, without the families of the mask off. -ENOMEM. */
int kernel_layer_request_add_landlock(struct json_object *req, int abi, unsigned int off);
/* The daemon: 1 and what was asked, 0 when not asked, -EINVAL with *ret_why. */
int kernel_layer_request_landlock(struct json_object *req, int *ret_abi, unsigned int *ret_off,
				  const char **ret_why);
/* The daemon: adds the ruleset to its answer. -ENOMEM, -E2BIG (too many rules). */
int kernel_layer_answer_add_landlock(struct json_object *answer,
				     const struct kernel_layer_landlock *ll);
/* The client: 1 and the ruleset, 0 when the answer has none, -EPROTO with *ret_why. */
int kernel_layer_answer_landlock(struct json_object *answer, struct kernel_layer_landlock *ret,
				 const char **ret_why);
void kernel_layer_landlock_free(struct kernel_layer_landlock *ll);

#endif
