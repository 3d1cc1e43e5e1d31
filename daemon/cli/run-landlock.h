/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock layer for `unotify run` (in-process and --daemon alike),
 * `policy explain` and `policy compile`: the ABI this kernel has (or the
 * one the switches leave), the policy layer, and the rules checked here,
 * ready for the child (unotify_spawn_attr.landlock).
 */
#ifndef UNOTIFY_RUN_LANDLOCK_H
#define UNOTIFY_RUN_LANDLOCK_H

#include <stdbool.h>

#include "lib/unotify.h"
#include "policy/landlock.h"
#include "protocol/kernel-layer-landlock.h"

struct run_landlock {
	int abi;		       /* probed, capped by UNOTIFY_LANDLOCK_ABI; 0 when off */
	const char *off;	       /* why the layer is off (--no-landlock...), or NULL */
	struct policy_landlock *layer; /* what policy/ says (never NULL once prepared) */
	struct unotify_landlock attr;  /* the rules to bind, for the child */
	struct unotify_landlock_rule *rules;
	struct unotify_landlock_port *ports; /* the layer's TCP ports, as attr has them */
	struct kernel_layer_landlock daemon; /* --daemon: the ruleset the daemon sent */
	bool share_pid; /* set by the caller: the program shares our pid namespace */
};

/*
 * The ABI to build for: the kernel's, 0 with off (--no-landlock) or
 * UNOTIFY_LANDLOCK=off, at most UNOTIFY_LANDLOCK_ABI=N (tests: an older
 * kernel's split). Sets ll->abi and ll->off.
 */
void run_landlock_abi(bool off, struct run_landlock *ll);
/*
 * Builds the layer for p and checks each rule on this system
 * (unotify_landlock_check): a rule that cannot be bound exactly leaves
 * its families with the supervisor, said on stderr unless quiet.
 */
int run_landlock_prepare(const struct policy *p, bool quiet, struct run_landlock *ll);
/*
 * --daemon: takes over the ruleset the daemon built (k, emptied) and checks
 * each rule here. Returns 0 and sets *ret_off to the families a rule of
 * which cannot be bound (ask the daemon again without them), said on
 * stderr unless quiet; -ENOMEM.
 */
int run_landlock_adopt(struct run_landlock *ll, struct kernel_layer_landlock *k, bool quiet,
		       unsigned int *ret_off);
/* For the child: NULL when nothing is bound. */
const struct unotify_landlock *run_landlock_attr(const struct run_landlock *ll);
void run_landlock_free(struct run_landlock *ll);

#endif
