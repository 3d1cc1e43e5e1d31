/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Landlock layer in the kernel-layer request and answer (kernel-layer-landlock.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kernel-layer-landlock.h"
#include "lib/util.h"

static const char *const kernel_layer_families[KERNEL_LAYER_LANDLOCK_FAMILIES] = {
	"opens", "exec", "connect", "bind"};

int kernel_layer_request_add_landlock(struct json_object *req, int abi, unsigned int off)
{
	struct json_object *l = json_object_new_object(), *o = json_object_new_array();

	if (!l || !o) {
		json_object_put(l);
		json_object_put(o);
		return -ENOMEM;
	}
	json_object_object_add(l, "abi", json_object_new_int(abi));
	for (int f = 0; f < KERNEL_LAYER_LANDLOCK_FAMILIES; f++)
		if (off & (1u << f))
			json_object_array_add(o, json_object_new_string(kernel_layer_families[f]));
	json_object_object_add(l, "off", o);
	json_object_object_add(l, "ports", json_object_new_boolean(true));
	json_object_object_add(req, "landlock", l);
	return 0;
}

static int64_t kernel_layer_get_int(struct json_object *o, const char *key, int64_t bad)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return bad;
	return json_object_get_int64(v);
}

int kernel_layer_request_landlock(struct json_object *req, int *ret_abi, unsigned int *ret_off,
				  const char **ret_why)
{
	struct json_object *l, *off, *ports;
	int64_t abi;
	unsigned int mask = 0;

	if (!json_object_object_get_ex(req, "landlock", &l))
		return 0;
	abi = kernel_layer_get_int(l, "abi", -1);
	if (!json_object_is_type(l, json_type_object) || abi < 0 || abi > 1000 ||
	    !json_object_object_get_ex(l, "off", &off) ||
	    !json_object_is_type(off, json_type_array)) {
		*ret_why = "\"landlock\" needs an \"abi\" and an \"off\" list";
		return -EINVAL;
	}
	for (size_t i = 0; i < json_object_array_length(off); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(off, i));
		bool known = false;

		for (int f = 0; f < KERNEL_LAYER_LANDLOCK_FAMILIES; f++)
			if (name && strcmp(name, kernel_layer_families[f]) == 0) {
				mask |= 1u << f;
				known = true;
			}
		if (!known) {
			*ret_why = "\"off\" names a family other than \"opens\", \"exec\", "
				   "\"connect\" and \"bind\"";
			return -EINVAL;
		}
	}
	/* A client that does not bind TCP port rules: the daemon keeps them. */
	if (!json_object_object_get_ex(l, "ports", &ports) ||
	    !json_object_is_type(ports, json_type_boolean) || !json_object_get_boolean(ports))
		mask |= KERNEL_LAYER_LANDLOCK_NET;
	*ret_abi = (int)abi;
	*ret_off = mask;
	return 1;
}

static struct json_object *kernel_layer_rule(const struct unotify_landlock_rule *r,
					     unsigned int families)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "path", json_object_new_string(r->path));
	json_object_object_add(o, "beneath", json_object_new_boolean(r->beneath));
	json_object_object_add(o, "access", json_object_new_int64((int64_t)r->access));
	json_object_object_add(o, "covered", json_object_new_int64((int64_t)r->covered));
	json_object_object_add(o, "families", json_object_new_int((int)families));
	return o;
}

int kernel_layer_answer_add_landlock(struct json_object *answer,
				     const struct kernel_layer_landlock *ll)
{
	struct json_object *l, *rules;

	if (ll->n_rules > KERNEL_LAYER_LANDLOCK_RULES_MAX ||
	    ll->n_ports > KERNEL_LAYER_LANDLOCK_PORTS_MAX)
		return -E2BIG;
	l = json_object_new_object();
	rules = json_object_new_array();
	if (!l || !rules) {
		json_object_put(l);
		json_object_put(rules);
		return -ENOMEM;
	}
	json_object_object_add(l, "abi", json_object_new_int(ll->abi));
	json_object_object_add(l, "handled", json_object_new_int64((int64_t)ll->handled));
	json_object_object_add(l, "scoped", json_object_new_int64((int64_t)ll->scoped));
	for (size_t i = 0; i < ll->n_rules; i++)
		json_object_array_add(rules, kernel_layer_rule(&ll->rules[i], ll->families[i]));
	json_object_object_add(l, "rules", rules);
	if (ll->handled_net) {
		struct json_object *ports = json_object_new_array();

		if (!ports)
			return -ENOMEM;
		for (size_t i = 0; i < ll->n_ports; i++) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "port", json_object_new_int(ll->ports[i].port));
			json_object_object_add(o, "access",
					       json_object_new_int64((int64_t)ll->ports[i].access));
			json_object_array_add(ports, o);
		}
		json_object_object_add(l, "handled_net",
				       json_object_new_int64((int64_t)ll->handled_net));
		json_object_object_add(l, "ports", ports);
	}
	json_object_object_add(answer, "landlock", l);
	return 0;
}

/* One rule of an answer: an absolute path and numbers, else -EPROTO. */
static int kernel_layer_rule_parse(struct json_object *o, struct unotify_landlock_rule *r,
				   unsigned int *ret_families)
{
	struct json_object *path, *beneath;
	int64_t access = kernel_layer_get_int(o, "access", -1);
	int64_t covered = kernel_layer_get_int(o, "covered", -1);
	int64_t families = kernel_layer_get_int(o, "families", -1);
	char *copy;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "path", &path) ||
	    !json_object_is_type(path, json_type_string) ||
	    json_object_get_string(path)[0] != '/' ||
	    !json_object_object_get_ex(o, "beneath", &beneath) ||
	    !json_object_is_type(beneath, json_type_boolean) || access < 0 || covered < 0 ||
	    families < 0)
		return -EPROTO;
	copy = strdup(json_object_get_string(path));
	if (!copy)
		return -ENOMEM;
	*r = (struct unotify_landlock_rule){.path = copy,
					    .beneath = json_object_get_boolean(beneath),
					    .access = (uint64_t)access,
					    .covered = (uint64_t)covered};
	*ret_families = (unsigned int)families;
	return 0;
}

/* The answer's TCP ports (optional: a daemon without them), else -EPROTO. */
static int kernel_layer_ports_parse(struct json_object *l, struct kernel_layer_landlock *ll)
{
	struct json_object *ports;
	size_t n;

	if (!json_object_object_get_ex(l, "handled_net", NULL))
		return 0;
	ll->handled_net = (uint64_t)kernel_layer_get_int(l, "handled_net", -1);
	if (ll->handled_net == (uint64_t)-1 || !json_object_object_get_ex(l, "ports", &ports) ||
	    !json_object_is_type(ports, json_type_array) ||
	    (n = json_object_array_length(ports)) > KERNEL_LAYER_LANDLOCK_PORTS_MAX)
		return -EPROTO;
	ll->ports = calloc(n + 1, sizeof(*ll->ports));
	if (!ll->ports)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(ports, i);
		int64_t port = kernel_layer_get_int(o, "port", -1);
		int64_t access = kernel_layer_get_int(o, "access", -1);

		if (port < 0 || port > 65535 || access < 0)
			return -EPROTO;
		ll->ports[ll->n_ports++] = (struct unotify_landlock_port){
			.port = (uint16_t)port, .access = (uint64_t)access};
	}
	return 0;
}

int kernel_layer_answer_landlock(struct json_object *answer, struct kernel_layer_landlock *ret,
				 const char **ret_why)
{
	struct kernel_layer_landlock ll = {0};
	struct json_object *l, *rules;
	int r = 0;

	*ret_why = "the daemon's Landlock ruleset is malformed";
	if (!json_object_object_get_ex(answer, "landlock", &l))
		return 0;
	ll.abi = (int)kernel_layer_get_int(l, "abi", -1);
	ll.handled = (uint64_t)kernel_layer_get_int(l, "handled", -1);
	/* Optional (a daemon before scopes); a scope the client cannot bind fails its spawn. */
	ll.scoped = json_object_object_get_ex(l, "scoped", NULL)
			    ? (uint64_t)kernel_layer_get_int(l, "scoped", -1)
			    : 0;
	if (ll.abi < 0 || ll.scoped == (uint64_t)-1 ||
	    !json_object_object_get_ex(l, "rules", &rules) ||
	    !json_object_is_type(rules, json_type_array) ||
	    json_object_array_length(rules) > KERNEL_LAYER_LANDLOCK_RULES_MAX)
		return -EPROTO;
	ll.rules = calloc(json_object_array_length(rules) + 1, sizeof(*ll.rules));
	ll.families = calloc(json_object_array_length(rules) + 1, sizeof(*ll.families));
	if (!ll.rules || !ll.families)
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < json_object_array_length(rules); i++) {
		r = kernel_layer_rule_parse(json_object_array_get_idx(rules, i), &ll.rules[i],
					    &ll.families[i]);
		if (r == 0)
			ll.n_rules++;
	}
	if (r == 0)
		r = kernel_layer_ports_parse(l, &ll);
	if (r < 0) {
		kernel_layer_landlock_free(&ll);
		return r;
	}
	*ret = ll;
	return 1;
}

void kernel_layer_landlock_free(struct kernel_layer_landlock *ll)
{
	for (size_t i = 0; ll->rules && i < ll->n_rules; i++)
		free((char *)ll->rules[i].path);
	free(ll->rules);
	free(ll->families);
	free(ll->ports);
	*ll = (struct kernel_layer_landlock){0};
}
