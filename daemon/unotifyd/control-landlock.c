/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock layer for `unotify run --daemon` (docs/LANDLOCK.md): the
 * daemon owns the policy, so it works out which rules Landlock takes for
 * the client's kernel and builds the filter to match; the client checks
 * the rules on its system (asking again without a family it cannot bind)
 * and its program binds them. The daemon then decides what still reaches
 * it by the same policy, the kernel's answers included.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "control-landlock.h"
#include "policy/landlock.h"
#include "protocol/kernel-layer-landlock.h"

/* The ruleset of the layer, as the protocol carries it. */
static int control_landlock_answer(const struct policy_landlock *ll, struct json_object *answer)
{
	struct kernel_layer_landlock k = {.abi = ll->abi,
					  .handled = ll->handled_fs,
					  .scoped = ll->scoped,
					  .n_rules = ll->n_rules,
					  .handled_net = ll->handled_net,
					  .n_ports = ll->n_ports};
	int r = -ENOMEM;

	k.rules = calloc(ll->n_rules + 1, sizeof(*k.rules));
	k.families = calloc(ll->n_rules + 1, sizeof(*k.families));
	k.ports = calloc(ll->n_ports + 1, sizeof(*k.ports));
	if (k.rules && k.families && k.ports) {
		for (size_t i = 0; i < ll->n_ports; i++)
			k.ports[i] = (struct unotify_landlock_port){.port = ll->ports[i].port,
								    .access = ll->ports[i].access};
		for (size_t i = 0; i < ll->n_rules; i++) {
			k.rules[i] =
				(struct unotify_landlock_rule){.path = ll->rules[i].path,
							       .beneath = ll->rules[i].beneath,
							       .access = ll->rules[i].access,
							       .covered = ll->rules[i].covered};
			k.families[i] = ll->rules[i].families;
		}
		r = kernel_layer_answer_add_landlock(answer, &k);
	}
	/* The paths are the layer's: not kernel_layer_landlock_free(). */
	free(k.rules);
	free(k.families);
	free(k.ports);
	return r;
}

int control_landlock_layer(const struct policy *p, int abi, unsigned int off,
			   struct json_object *answer, struct policy_program **ret_prog, char *buf,
			   size_t size, const char **ret_why)
{
	struct policy_landlock *ll = NULL;
	struct policy_program *prog = NULL;
	int r;

	*ret_why = "the Landlock layer could not be built";
	r = policy_landlock_build(p, abi < 0 ? 0 : abi, &ll);
	if (r == 0 && ll->scope_why) {
		/* Nothing but the client's Landlock enforces it: the program must not start. */
		snprintf(buf, size, "%s", ll->scope_why);
		*ret_why = buf;
		r = -EOPNOTSUPP;
	}
	for (int f = 0; r == 0 && f < POLICY_LANDLOCK_FAMILIES; f++)
		if (off & (1u << f))
			r = policy_landlock_disable(ll, (enum policy_landlock_family)f,
						    "the client cannot bind it");
	if (r == 0)
		r = policy_compile_landlock(p, ll, &prog);
	if (r == 0)
		r = control_landlock_answer(ll, answer);
	if (r == -E2BIG)
		*ret_why = "the Landlock ruleset has too many rules for one answer";
	policy_landlock_free(ll);
	if (r < 0) {
		policy_program_free(prog);
		return r;
	}
	*ret_prog = prog;
	return 0;
}
