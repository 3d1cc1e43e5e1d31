/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy directory: every NAME.policy parsed once at start and again on
 * SIGHUP. Sandboxes hold a reference to the entry they were registered with,
 * so a reload never changes the rules under a running sandbox, and a file
 * that breaks on reload leaves its previous good version in service.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine/policy-env.h"
#include "lib/util.h"
#include "log.h"
#include "policies.h"
#include "policy/policy.h"
#include "protocol/protocol.h"

struct policy_set {
	atomic_int refs;
	struct policy_entry **entries; /* sorted by name */
	size_t n;
};

static const char POLICY_SUFFIX[] = ".policy";
/* The last serial given to a loaded policy version (policy_entry.serial). */
static atomic_ullong policies_serial;

void policy_entry_unref(struct policy_entry *e)
{
	if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	policy_program_free(e->prog);
	policy_free(e->policy);
	free(e->name);
	free(e->error);
	free(e);
}

static struct policy_entry *policy_entry_ref(struct policy_entry *e)
{
	atomic_fetch_add(&e->refs, 1);
	return e;
}

struct policy_set *policies_ref(struct policy_set *s)
{
	atomic_fetch_add(&s->refs, 1);
	return s;
}

void policies_unref(struct policy_set *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	for (size_t i = 0; i < s->n; i++)
		policy_entry_unref(s->entries[i]);
	free(s->entries);
	free(s);
}

/* Logs every diagnostic of a policy, one line each, through the daemon log. */
static void policies_log_diags(const struct policy_diags *diags)
{
	_cleanup_free_ char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	char *line, *save = NULL;

	if (!f)
		return;
	policy_diags_print(diags, f);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		log_warning("%s", line);
}

/* Parses dir/name.policy into a new entry; a broken file gives an entry with an error. */
/*
 * A policy serves every sandbox that names it, whose capabilities are not
 * known when it is loaded: an OCI profile's includes on capabilities are
 * read as for a program without any, so they never grant more.
 */
static void policies_set_env(struct policy *p)
{
	struct policy_env env = { 0 };

	policy_env_of_self(&env);
	env.caps = 0;
	policy_set_env(p, &env);
}

static int policies_load_one(const char *dir, const char *name, struct policy_entry **ret)
{
	_cleanup_free_ struct policy_entry *e = calloc(1, sizeof(*e));
	_cleanup_free_ char *path = NULL;
	struct policy_diags diags = { 0 };
	struct policy *p;
	int r;

	if (!e || asprintf(&path, "%s/%s%s", dir, name, POLICY_SUFFIX) < 0)
		return -ENOMEM;
	e->name = strdup(name);
	p = policy_new();
	if (!e->name || !p) {
		free(e->name);
		policy_free(p);
		return -ENOMEM;
	}
	policies_set_env(p);
	r = policy_parse_file(p, path, &diags);
	if (r >= 0)
		r = policy_finish(p, &diags);
	if (diags.count > 0)
		policies_log_diags(&diags);
	/*
	 * The kernel layer `unotify run --daemon` asks for: compiled once, here.
	 * Without it the policy still serves registrations (runtimes bring their
	 * own filter); only that request is refused.
	 */
	if (r >= 0 && policy_compile(p, &e->prog) < 0)
		log_warning("policy '%s': cannot compile its kernel layer: unotify run --daemon "
			    "cannot use it", name);
	if (r < 0) {
		policy_free(p);
		if (asprintf(&e->error, "%s: %zu error(s), see the daemon log", path,
			     diags.errors ? diags.errors : 1) < 0)
			e->error = NULL;
		log_warning("policy '%s' is broken (%s)", name, strerror(-r));
	} else {
		e->policy = p;
		e->serial = atomic_fetch_add(&policies_serial, 1) + 1;
	}
	policy_diags_free(&diags);
	atomic_init(&e->refs, 1);
	*ret = steal_pointer(&e);
	return 0;
}

static int policies_cmp(const void *a, const void *b)
{
	const struct policy_entry *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* NAME of NAME.policy, when the file name is one we load. */
static bool policies_file_name(const char *file, char *name, size_t size)
{
	size_t len = strlen(file), suffix = sizeof(POLICY_SUFFIX) - 1;

	if (len <= suffix || strcmp(file + len - suffix, POLICY_SUFFIX) != 0)
		return false;
	if (len - suffix >= size)
		return false;
	memcpy(name, file, len - suffix);
	name[len - suffix] = '\0';
	return proto_policy_name_valid(name);
}

/* Adds a freshly loaded entry, or the old good one when the new is broken. */
static int policies_add(struct policy_set *s, struct policy_entry *fresh,
			const struct policy_set *old)
{
	struct policy_entry **grown, *prev = NULL;

	if (!fresh->policy && old && policies_lookup(old, fresh->name, &prev) == 0) {
		if (prev->policy) {
			log_warning("policy '%s': keeping the version loaded before", fresh->name);
			policy_entry_unref(fresh);
			fresh = prev;
		} else {
			policy_entry_unref(prev);
		}
	}
	grown = realloc(s->entries, (s->n + 1) * sizeof(*grown));
	if (!grown) {
		policy_entry_unref(fresh);
		return -ENOMEM;
	}
	s->entries = grown;
	s->entries[s->n++] = fresh;
	return 0;
}

int policies_load(const char *dir, const struct policy_set *old, struct policy_set **ret)
{
	struct policy_set *s;
	struct dirent *de;
	int r = 0, broken = 0;
	DIR *d;

	d = opendir(dir);
	if (!d && errno != ENOENT)
		return negative_errno();
	s = calloc(1, sizeof(*s));
	if (!s) {
		if (d)
			closedir(d);
		return -ENOMEM;
	}
	atomic_init(&s->refs, 1);
	if (!d) {
		/*
		 * Not there (yet): no policy, so every sandbox is refused (fail
		 * closed) until the directory exists and SIGHUP reloads it. Not
		 * fatal: the daemon may start before its configuration. Counted
		 * as one broken policy, so `unotifyd --check` fails.
		 */
		log_warning("the policy directory %s does not exist: every sandbox fails closed "
			    "until it is created and the daemon reloaded (SIGHUP)", dir);
		*ret = s;
		return 1;
	}
	while (r >= 0 && (de = readdir(d))) {
		struct policy_entry *e;
		char name[PROTO_POLICY_NAME_MAX + 1];

		if (!policies_file_name(de->d_name, name, sizeof(name)))
			continue;
		r = policies_load_one(dir, name, &e);
		if (r < 0)
			break;
		if (!e->policy)
			broken++;
		r = policies_add(s, e, old);
	}
	closedir(d);
	if (r < 0) {
		policies_unref(s);
		return r;
	}
	if (s->n > 1)
		qsort(s->entries, s->n, sizeof(*s->entries), policies_cmp);
	*ret = s;
	return broken;
}

int policies_lookup(const struct policy_set *s, const char *name, struct policy_entry **ret)
{
	struct policy_entry key = { .name = (char *)name }, *kp = &key, **found;

	if (!s || s->n == 0)
		return -ENOENT;
	found = bsearch(&kp, s->entries, s->n, sizeof(*s->entries), policies_cmp);
	if (!found)
		return -ENOENT;
	*ret = policy_entry_ref(*found);
	return 0;
}

size_t policies_count(const struct policy_set *s, size_t *ret_broken)
{
	size_t broken = 0;

	for (size_t i = 0; s && i < s->n; i++)
		if (!s->entries[i]->policy)
			broken++;
	if (ret_broken)
		*ret_broken = broken;
	return s ? s->n : 0;
}

struct json_object *policies_names_json(const struct policy_set *s)
{
	struct json_object *arr = json_object_new_array();
	char text[PROTO_POLICY_NAME_MAX + 16];

	for (size_t i = 0; arr && s && i < s->n; i++) {
		const struct policy_entry *e = s->entries[i];

		snprintf(text, sizeof(text), "%s%s", e->name, e->policy ? "" : " (broken)");
		json_object_array_add(arr, json_object_new_string(text));
	}
	return arr;
}

struct json_object *policies_to_json(const struct policy_set *s)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && s && i < s->n; i++) {
		const struct policy_entry *e = s->entries[i];
		struct json_object *o = json_object_new_object();

		if (!o)
			break;
		json_object_object_add(o, "name", json_object_new_string(e->name));
		json_object_object_add(o, "status",
				       json_object_new_string(e->policy ? "ok" : "broken"));
		if (e->error)
			json_object_object_add(o, "error", json_object_new_string(e->error));
		json_object_array_add(arr, o);
	}
	return arr;
}
