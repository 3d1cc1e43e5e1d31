/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control requests: a JSON object with "request", on the same socket as
 * registrations but with no fd. "status": the sandboxes alive with their
 * counters and round-trip percentiles, the policies, uptime and the kernel
 * features the daemon uses. "kernel-layer": the compiled kernel layer of
 * one policy (protocol/kernel-layer.h). The answer is one JSON object and
 * a newline; the daemon then closes the connection.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "closing.h"
#include "control.h"
#include "control-landlock.h"
#include "daemon.h"
#include "lib/util.h"
#include "log.h"
#include "policies.h"
#include "policy/policy.h"
#include "protocol/kernel-layer.h"
#include "protocol/kernel-layer-landlock.h"
#include "protocol/protocol.h"
#include "sandbox.h"

bool control_detect(struct json_object *msg)
{
	return json_object_object_get_ex(msg, "request", NULL);
}

static struct json_object *control_features(const struct unotify_features *f)
{
	struct json_object *o = json_object_new_object();
	const char *name;
	bool on;

	for (size_t i = 0; o && unotify_features_get(f, i, &name, &on) == 0; i++)
		json_object_object_add(o, name, json_object_new_boolean(on));
	return o;
}

/* Resident memory of the daemon, in KiB, from /proc/self/statm. */
static long control_rss_kib(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/statm", "re");
	long size, resident;

	if (!f || fscanf(f, "%ld %ld", &size, &resident) != 2)
		return -1;
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static struct json_object *control_status(struct daemon *d, uid_t asker)
{
	struct json_object *o = json_object_new_object();
	struct policy_set *set = daemon_policies(d);
	size_t active;
	uint64_t total;

	if (!o) {
		policies_unref(set);
		return NULL;
	}
	json_object_object_add(o, "ok", json_object_new_boolean(true));
	json_object_object_add(o, "daemon", json_object_new_string("unotifyd"));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	json_object_object_add(o, "uptime_s",
			       json_object_new_double((daemon_now_ns() - d->started_ns) / 1e9));
	json_object_object_add(o, "kernel", json_object_new_string(d->features.kernel_release));
	json_object_object_add(o, "features", control_features(&d->features));
	json_object_object_add(o, "sync_wake_up",
			       json_object_new_boolean(d->config.sync && d->features.sync_wake_up));
	json_object_object_add(o, "rss_kib", json_object_new_int64(control_rss_kib()));
	json_object_object_add(o, "policy_dir", json_object_new_string(d->config.policy_dir));
	json_object_object_add(o, "default_policy",
			       json_object_new_string(d->config.default_policy));
	json_object_object_add(o, "policies", policies_to_json(set));
	policies_unref(set);
	json_object_object_add(o, "sandboxes", sandboxes_to_json(d, asker));
	pthread_mutex_lock(&d->lock);
	active = d->sandboxes_active;
	total = d->sandboxes_total;
	pthread_mutex_unlock(&d->lock);
	json_object_object_add(o, "sandboxes_active", json_object_new_int64((int64_t)active));
	json_object_object_add(o, "sandboxes_total", json_object_new_int64((int64_t)total));
	json_object_object_add(o, "clients_rejected",
			       json_object_new_int64((int64_t)atomic_load(&d->rejected)));
	/* A close that lasts: a client's descriptor no signal lets us close (closing.c). */
	json_object_object_add(o, "client_closes",
			       json_object_new_int64((int64_t)closing_in_progress()));
	/* Records the trail could not write: counted, never silently lost. */
	json_object_object_add(o, "audit_lost",
			       json_object_new_int64((int64_t)audit_lost(d->audit, NULL)));
	return o;
}

static int control_reply_status(struct daemon *d, int conn, uid_t asker,
				struct json_object *msg)
{
	struct json_object *reply = control_status(d, asker);

	if (!reply) {
		proto_reply_error(conn, "out of memory");
		return -ENOMEM;
	}
	proto_reply(conn, reply);
	json_object_put(reply);
	return 0;
}

/* A refusal of a policy name, with the names the daemon has. */
static void control_refuse_policy(int conn, const char *reason, const char *why,
				  const struct policy_set *set)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return;
	json_object_object_add(o, "ok", json_object_new_boolean(false));
	json_object_object_add(o, "reason", json_object_new_string(reason));
	json_object_object_add(o, "error", json_object_new_string(why));
	json_object_object_add(o, "policies", policies_names_json(set));
	proto_reply(conn, o);
	json_object_put(o);
}

/*
 * The compiled kernel layer of a loaded policy (protocol/kernel-layer.h),
 * for `unotify run --daemon`: the client loads exactly what this daemon
 * decides by. The peer was checked as for a registration (accept_clients).
 */
static int control_kernel_layer(struct daemon *d, int conn, uid_t asker,
				struct json_object *msg)
{
	struct policy_set *set = daemon_policies(d);
	struct policy_entry *e = NULL;
	struct json_object *reply = NULL, *ll = json_object_new_object();
	struct policy_program *with_ll = NULL;
	const char *name = "?", *why = NULL;
	char text[PROTO_POLICY_NAME_MAX + 96], scope_why[1024];
	unsigned int off = 0;
	int r, abi = -1;

	r = kernel_layer_request_parse(msg, &name, &why);
	if (r == 0 && kernel_layer_request_landlock(msg, &abi, &off, &why) < 0)
		r = -EINVAL;
	if (r < 0) {
		proto_reply_error(conn, why);
	} else if (policies_lookup(set, name, &e) < 0) {
		snprintf(text, sizeof(text), "unknown policy '%s'", name);
		control_refuse_policy(conn, "unknown-policy", text, set);
		r = -ENOENT;
	} else if (!e->policy || !e->prog) {
		snprintf(text, sizeof(text), "policy '%s' is broken (see the daemon log)", name);
		control_refuse_policy(conn, "broken-policy", text, set);
		r = -ENODATA;
	} else if (!ll || ((abi >= 0 || policy_scope(e->policy, NULL, NULL)) &&
			   (r = control_landlock_layer(e->policy, abi, off, ll, &with_ll, scope_why,
						       sizeof(scope_why), &why)) < 0)) {
		/*
		 * The Landlock layer (control-landlock.c), when the client asked for
		 * it, or to refuse a `scope` a client without the layer cannot keep.
		 */
		proto_reply_error(conn, ll ? why : "out of memory");
		r = r < 0 ? r : -ENOMEM;
	} else if (!(reply = kernel_layer_answer_new(e->name, e->serial,
						     with_ll ? &with_ll->bpf : &e->prog->bpf))) {
		proto_reply_error(conn, "the kernel layer does not fit one answer");
		r = -E2BIG;
	} else {
		if (with_ll)
			json_object_object_add(reply, "landlock",
					       json_object_get(json_object_object_get(ll, "landlock")));
		proto_reply(conn, reply);
	}
	policy_program_free(with_ll);
	json_object_put(ll);
	if (r < 0 && r != -EINVAL)
		log_client_info("kernel layer of '%s' refused: %s", name, strerror(-r));
	json_object_put(reply);
	policy_entry_unref(e);
	policies_unref(set);
	/* An unknown name is the client's mistake, answered; not a rejected client. */
	return r == -EINVAL ? r : 0;
}

/* The requests, by name, as peer.c dispatches messages by kind. */
static const struct {
	const char *name;
	int (*handle)(struct daemon *d, int conn, uid_t asker, struct json_object *msg);
} control_requests[] = {
	{ "status", control_reply_status },
	{ KERNEL_LAYER_REQUEST, control_kernel_layer },
};

int control_handle(struct daemon *d, int conn, uid_t asker, struct json_object *msg)
{
	struct json_object *req;

	if (json_object_object_get_ex(msg, "request", &req) &&
	    json_object_is_type(req, json_type_string)) {
		for (size_t i = 0; i < ARRAY_SIZE(control_requests); i++)
			if (strcmp(json_object_get_string(req), control_requests[i].name) == 0)
				return control_requests[i].handle(d, conn, asker, msg);
	}
	log_client_warning("control: unknown request");
	proto_reply_error(conn, "unknown request (known: status, " KERNEL_LAYER_REQUEST ")");
	return -EINVAL;
}
