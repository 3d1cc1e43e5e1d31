/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Landlock layer of `unotify run`, explain and compile (run-landlock.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/uapi.h"
#include "run-landlock.h"

/* The newest Landlock ABI this build knows the rights of (lib/landlock.c). */
#define RUN_LANDLOCK_ABI_KNOWN 7
#include "lib/util.h"

void run_landlock_abi(bool off, struct run_landlock *ll)
{
	const char *env = getenv("UNOTIFY_LANDLOCK"), *cap = getenv("UNOTIFY_LANDLOCK_ABI");
	struct unotify_features f;

	ll->abi = unotify_features_probe(&f) == 0 ? f.landlock_abi : 0;
	ll->off = NULL;
	if (off)
		ll->off = "--no-landlock";
	else if (env && strcmp(env, "off") == 0)
		ll->off = "UNOTIFY_LANDLOCK=off";
	if (ll->off)
		ll->abi = 0;
	if (cap && *cap && atoi(cap) < ll->abi)
		ll->abi = atoi(cap) < 0 ? 0 : atoi(cap);
}

/* One rule of the layer checked here: 0 (bound or left out) or a family dropped (1). */
static int run_landlock_check_rule(struct run_landlock *ll, size_t i, bool quiet)
{
	const struct policy_landlock_rule *pr = &ll->layer->rules[i];
	struct unotify_landlock_rule r = {.path = pr->path,
					  .beneath = pr->beneath,
					  .access = pr->access,
					  .covered = pr->covered};
	const char *why = NULL;
	char text[4352];
	unsigned int families;
	int k;

	k = unotify_landlock_check(&r, &why);
	if (k > 0) {
		ll->rules[ll->attr.n_rules++] = r;
		return 0;
	}
	snprintf(text, sizeof(text), "%s:%d: %s%s: %s", pr->file ? pr->file : "?", pr->line,
		 pr->path, pr->beneath ? "/**" : "", why);
	if (k == 0) {
		if (!quiet && strstr(why, "does not exist"))
			fprintf(stderr,
				"unotify: landlock: %s (nothing there is allowed until "
				"then)\n",
				text);
		return 0;
	}
	/* Dropping a family rebuilds the layer's rules, pr's array included. */
	families = pr->families;
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++)
		if ((families & (1u << f)) && ll->layer->decided[f]) {
			if (!quiet)
				fprintf(stderr,
					"unotify: landlock: %s: %s stay with the "
					"supervisor\n",
					text,
					policy_landlock_family_name(
						(enum policy_landlock_family)f));
			k = policy_landlock_disable(ll->layer, (enum policy_landlock_family)f,
						    text);
			if (k < 0)
				return k;
		}
	return 1;
}

/*
 * A kernel without Landlock: the same answers, from the supervisor, at a
 * round trip each. Said once, when the policy has rules a kernel with it
 * would take (never silently slower).
 */
static void run_landlock_note_missing(const struct policy *p, const struct run_landlock *ll)
{
	struct policy_landlock *would = NULL;

	if (ll->abi > 0 || ll->off || policy_landlock_build(p, RUN_LANDLOCK_ABI_KNOWN, &would) < 0)
		return;
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++)
		if (would->decided[f]) {
			fprintf(stderr, "unotify: note: this kernel has no Landlock: the rules that "
					"ask for the kernel's answer are decided by the supervisor "
					"(same answers, a round trip each)\n");
			break;
		}
	policy_landlock_free(would);
}

/*
 * The execute right does not reach a memfd (an internal mount Landlock
 * never checks): the layer takes the execs only where the sandbox's memfds
 * cannot run. 1: they cannot (vm.memfd_noexec is 2 already, or the child
 * makes it so: *ret_set); 0 and *ret_why: the execs stay with the
 * supervisor, which names a memfd by its /proc/PID/fd link and refuses it
 * as the rules say.
 */
static int run_landlock_memfd(const struct run_landlock *ll, bool *ret_set, const char **ret_why)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/sys/vm/memfd_noexec", "re");
	int v = -1;

	*ret_set = false;
	if (f && fscanf(f, "%d", &v) == 1 && v >= 2)
		return 1;
	/* No such sysctl (before Linux 6.3): memfds are executable, and nothing can say not. */
	if (!f) {
		*ret_why = "a memfd could run (Landlock does not check it, and this kernel has no "
			   "vm.memfd_noexec)";
		return 0;
	}
	if (ll->share_pid || geteuid() != 0) {
		*ret_why = "a memfd could run (Landlock does not check it): vm.memfd_noexec is "
			   "below 2 here and only root with a pid namespace of the program's own "
			   "(not --share-pid) can raise it for the sandbox";
		return 0;
	}
	*ret_set = true;
	return 1;
}

/* The TCP ports of the layer (connect, bind), as lib takes them. */
static int run_landlock_ports(struct run_landlock *ll)
{
	free(ll->ports);
	ll->ports = calloc(ll->layer->n_ports + 1, sizeof(*ll->ports));
	if (!ll->ports)
		return -ENOMEM;
	for (size_t i = 0; i < ll->layer->n_ports; i++)
		ll->ports[i] = (struct unotify_landlock_port){.port = ll->layer->ports[i].port,
							      .access = ll->layer->ports[i].access};
	ll->attr.handled_net = ll->layer->handled_net;
	ll->attr.ports = ll->ports;
	ll->attr.n_ports = ll->layer->n_ports;
	return 0;
}

int run_landlock_prepare(const struct policy *p, bool quiet, struct run_landlock *ll)
{
	int r = policy_landlock_build(p, ll->abi, &ll->layer);
	const char *why = NULL;
	bool set = false;

	if (r == 0 && !quiet)
		run_landlock_note_missing(p, ll);
	if (r == 0 && ll->layer->decided[POLICY_LANDLOCK_EXEC] &&
	    run_landlock_memfd(ll, &set, &why) == 0) {
		if (!quiet)
			fprintf(stderr, "unotify: landlock: %s: exec stays with the supervisor\n",
				why);
		r = policy_landlock_disable(ll->layer, POLICY_LANDLOCK_EXEC, why);
	}

	/* Dropping a family changes the rules: check them all again. */
	while (r == 0) {
		free(ll->rules);
		ll->attr = (struct unotify_landlock){.abi = ll->abi,
						     .handled_fs = ll->layer->handled_fs,
						     .scoped = ll->layer->scoped};
		r = run_landlock_ports(ll);
		if (r < 0)
			return r;
		ll->rules = calloc(ll->layer->n_rules + 1, sizeof(*ll->rules));
		if (!ll->rules)
			return -ENOMEM;
		ll->attr.rules = ll->rules;
		for (size_t i = 0; i < ll->layer->n_rules && r == 0; i++)
			r = run_landlock_check_rule(ll, i, quiet);
		if (r == 0)
			break;
		r = r < 0 ? r : 0;
		if (r < 0)
			return r;
	}
	ll->attr.memfd_noexec = r == 0 && set && (ll->attr.handled_fs & LANDLOCK_ACCESS_FS_EXECUTE);
	return r;
}

int run_landlock_adopt(struct run_landlock *ll, struct kernel_layer_landlock *k, bool quiet,
		       unsigned int *ret_off)
{
	unsigned int off = 0;

	kernel_layer_landlock_free(&ll->daemon);
	ll->daemon = *k;
	*k = (struct kernel_layer_landlock){0};
	free(ll->rules);
	ll->rules = calloc(ll->daemon.n_rules + 1, sizeof(*ll->rules));
	if (!ll->rules)
		return -ENOMEM;
	ll->attr = (struct unotify_landlock){.abi = ll->daemon.abi,
					     .handled_fs = ll->daemon.handled,
					     .scoped = ll->daemon.scoped,
					     .rules = ll->rules,
					     .handled_net = ll->daemon.handled_net,
					     .ports = ll->daemon.ports,
					     .n_ports = ll->daemon.n_ports};
	for (size_t i = 0; i < ll->daemon.n_rules; i++) {
		const char *why = NULL;
		int r = unotify_landlock_check(&ll->daemon.rules[i], &why);

		if (r > 0)
			ll->rules[ll->attr.n_rules++] = ll->daemon.rules[i];
		else if (r < 0)
			off |= ll->daemon.families[i];
		if (!quiet && r <= 0 && (r < 0 || strstr(why, "does not exist")))
			fprintf(stderr, "unotify: landlock: %s%s: %s%s\n", ll->daemon.rules[i].path,
				ll->daemon.rules[i].beneath ? "/**" : "", why,
				r < 0 ? ": its calls stay with the daemon" : "");
	}
	/* The daemon's layer takes the execs: only where memfds cannot run (as above). */
	if (ll->attr.handled_fs & LANDLOCK_ACCESS_FS_EXECUTE) {
		const char *why = NULL;
		bool set = false;

		if (run_landlock_memfd(ll, &set, &why) == 0) {
			if (!quiet)
				fprintf(stderr, "unotify: landlock: %s: exec stays with the daemon\n",
					why);
			off |= 1u << POLICY_LANDLOCK_EXEC;
		}
		ll->attr.memfd_noexec = set;
	}
	*ret_off = off;
	return 0;
}

const struct unotify_landlock *run_landlock_attr(const struct run_landlock *ll)
{
	return (ll->layer || ll->daemon.rules) &&
			       (ll->attr.handled_fs || ll->attr.handled_net || ll->attr.scoped)
		       ? &ll->attr
		       : NULL;
}

void run_landlock_free(struct run_landlock *ll)
{
	policy_landlock_free(ll->layer);
	kernel_layer_landlock_free(&ll->daemon);
	free(ll->rules);
	free(ll->ports);
	*ll = (struct run_landlock){0};
}
