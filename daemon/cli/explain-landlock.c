/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock part of `unotify policy explain`: for each syscall a
 * family of which Landlock can decide (opens, exec, TCP ports of connect
 * and bind), that takes a path or sends to an address,
 * whether the layer decides its calls on this kernel and, when not, why;
 * under each rule, what the layer does with it. Kept apart from explain.c,
 * which other commands' authors edit too.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "explain-landlock.h"
#include "lib/uapi.h"

/* Does nr carry a socket address (connect, bind, the sends)? */
static bool explain_landlock_addressed(int nr)
{
	static const char *const names[] = {"connect", "bind", "sendto", "sendmsg", "sendmmsg"};
	const char *name = policy_syscall_name(nr);

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

void explain_landlock_print_header(const struct run_landlock *ll)
{
	const struct policy_landlock *layer = ll->layer;

	printf("landlock: ABI %d%s%s%s\n", ll->abi, ll->off ? " (off: " : "",
	       ll->off ? ll->off : "", ll->off ? ")" : "");
	for (int f = 0; layer && f < POLICY_LANDLOCK_FAMILIES; f++)
		printf("  %s: %s%s\n", policy_landlock_family_name((enum policy_landlock_family)f),
		       layer->decided[f] ? "decided by Landlock in the kernel" : "not Landlock: ",
		       !layer->decided[f] ? layer->why_not[f]
		       : f == POLICY_LANDLOCK_EXEC
			       ? " (each exec goes to the supervisor too, which refuses the "
				 "dynamic loader run as a program unless a rule names it)"
			       : "");
	if (layer && layer->decided[POLICY_LANDLOCK_OPEN])
		printf("  opens that create: %s%s\n",
		       layer->open_create ? "decided by Landlock too" : "with the supervisor: ",
		       layer->open_create ? "" : layer->create_why);
	if (layer && layer->scope_why)
		printf("  scope: not enforceable here: %s\n", layer->scope_why);
	else if (layer && layer->scoped)
		printf("  scope: %s%s%s: decided by Landlock in the kernel (EPERM outside the "
		       "sandbox)\n",
		       (layer->scoped & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET) ? "abstract-unix" : "",
		       layer->scoped ==
				       (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL)
			       ? " "
			       : "",
		       (layer->scoped & LANDLOCK_SCOPE_SIGNAL) ? "signal" : "");
	if (layer && (layer->n_rules || layer->n_ports || layer->scoped))
		printf("  (the ruleset: unotify policy compile FILE --landlock)\n");
}

const char *explain_landlock_layer_text(const struct run_landlock *ll, int nr)
{
	static char text[512];
	char flags[256];

	int f = policy_landlock_family_of(nr);

	if (f == POLICY_LANDLOCK_CONNECT || f == POLICY_LANDLOCK_BIND)
		return "every call runs in the kernel: Landlock refuses a TCP socket's port the "
		       "ruleset does not grant (EACCES), and lets the rest run: no round trip";
	if (f == POLICY_LANDLOCK_EXEC)
		return "the kernel checks every call against the Landlock ruleset; each goes to "
		       "the supervisor first, which refuses the dynamic loader run as a program "
		       "unless a rule names it";
	if (f != POLICY_LANDLOCK_OPEN)
		return "every call runs in the kernel, which checks it against the Landlock "
		       "ruleset: no round trip";
	landlock_open_notified_text(ll->layer, flags, sizeof(flags));
	snprintf(text, sizeof(text),
		 "the opens run in the kernel, which checks them against the Landlock ruleset, "
		 "but those with %s, which go to the supervisor%s%s",
		 flags, ll->layer->open_create ? "" : " (",
		 ll->layer->open_create ? "" : "creating stays there: see the opens' line above)");
	return text;
}

void explain_landlock_print_syscall(const struct run_landlock *ll, int nr)
{
	const char *why;

	if (!ll->layer || policy_landlock_decides(ll->layer, nr))
		return;
	why = policy_landlock_why_not(ll->layer, nr);
	if (why)
		printf("  not Landlock: %s\n", why);
}

/* What the layer does with rule index for nr, when it decides nr. */
static const char *explain_landlock_note(const struct run_landlock *ll, int nr, size_t index)
{
	int f = policy_landlock_family_of(nr);

	if (!ll->layer || f < 0 || !policy_landlock_decides(ll->layer, nr))
		return NULL;
	return policy_landlock_rule_note(ll->layer, (enum policy_landlock_family)f, index);
}

void explain_landlock_print_rule(const struct run_landlock *ll, int nr, size_t index)
{
	const char *note = explain_landlock_note(ll, nr, index);

	if (note)
		printf("      %s\n", note);
}

void explain_landlock_json_syscall(const struct run_landlock *ll, int nr, struct json_object *o)
{
	struct json_object *l;
	const char *why;

	if (!ll->layer || (!policy_pathcall_find(nr) && !explain_landlock_addressed(nr)))
		return;
	l = json_object_new_object();
	json_object_object_add(l, "decides",
			       json_object_new_boolean(policy_landlock_decides(ll->layer, nr)));
	why = policy_landlock_decides(ll->layer, nr) ? NULL
						     : policy_landlock_why_not(ll->layer, nr);
	if (why)
		json_object_object_add(l, "why_not", json_object_new_string(why));
	json_object_object_add(o, "landlock", l);
}

void explain_landlock_json_rule(const struct run_landlock *ll, int nr, size_t index,
				struct json_object *o)
{
	const char *note = explain_landlock_note(ll, nr, index);

	if (note)
		json_object_object_add(o, "landlock", json_object_new_string(note));
}

void explain_landlock_json_header(const struct run_landlock *ll, struct json_object *o)
{
	struct json_object *l = json_object_new_object(), *fam = json_object_new_object();

	json_object_object_add(l, "abi", json_object_new_int(ll->abi));
	if (ll->off)
		json_object_object_add(l, "off", json_object_new_string(ll->off));
	for (int f = 0; ll->layer && f < POLICY_LANDLOCK_FAMILIES; f++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "decided",
				       json_object_new_boolean(ll->layer->decided[f]));
		if (!ll->layer->decided[f])
			json_object_object_add(e, "why_not",
					       json_object_new_string(ll->layer->why_not[f]));
		json_object_object_add(
			fam, policy_landlock_family_name((enum policy_landlock_family)f), e);
	}
	if (ll->layer && ll->layer->decided[POLICY_LANDLOCK_OPEN]) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "decided",
				       json_object_new_boolean(ll->layer->open_create));
		if (!ll->layer->open_create)
			json_object_object_add(e, "why_not",
					       json_object_new_string(ll->layer->create_why));
		json_object_object_add(fam, "opens that create", e);
	}
	json_object_object_add(l, "families", fam);
	if (ll->layer && (ll->layer->scoped || ll->layer->scope_why)) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(
			e, "abstract-unix",
			json_object_new_boolean(ll->layer->scoped &
						LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET));
		json_object_object_add(
			e, "signal",
			json_object_new_boolean(ll->layer->scoped & LANDLOCK_SCOPE_SIGNAL));
		if (ll->layer->scope_why)
			json_object_object_add(e, "why_not",
					       json_object_new_string(ll->layer->scope_why));
		json_object_object_add(l, "scope", e);
	}
	json_object_object_add(l, "rules",
			       json_object_new_int((int)(ll->layer ? ll->layer->n_rules : 0)));
	json_object_object_add(l, "ports",
			       json_object_new_int((int)(ll->layer ? ll->layer->n_ports : 0)));
	json_object_object_add(o, "landlock", l);
}

bool explain_landlock_rule_decided(const struct run_landlock *ll, int nr, size_t index)
{
	return explain_landlock_note(ll, nr, index) != NULL;
}

const char *explain_landlock_why_not(const struct run_landlock *ll, int nr)
{
	const char *why = ll->layer ? policy_landlock_why_not(ll->layer, nr) : NULL;

	if (why)
		return why;
	if (!ll->layer || ll->abi < 1)
		return "no Landlock here (the kernel lacks it, or the layer is off)";
	if (explain_landlock_addressed(nr))
		return "socket addresses stay with the supervisor: Landlock's port right "
		       "is TCP's alone (proto=tcp port=), and it checks a socket's name "
		       "on its directory (unotify.policy(5), LANDLOCK)";
	return "Landlock has no right for this call";
}
