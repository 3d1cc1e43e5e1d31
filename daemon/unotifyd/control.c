/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control requests: a JSON object with "request", on the same socket as
 * registrations but with no fd. Only "status" exists: the sandboxes alive
 * with their counters and round-trip percentiles, the policies, uptime and
 * the kernel features the daemon uses. The answer is one JSON object and a
 * newline; the daemon then closes the connection.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "control.h"
#include "daemon.h"
#include "lib/util.h"
#include "log.h"
#include "policies.h"
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

static struct json_object *control_status(struct daemon *d)
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
	json_object_object_add(o, "sandboxes", sandboxes_to_json(d));
	pthread_mutex_lock(&d->lock);
	active = d->sandboxes_active;
	total = d->sandboxes_total;
	pthread_mutex_unlock(&d->lock);
	json_object_object_add(o, "sandboxes_active", json_object_new_int64((int64_t)active));
	json_object_object_add(o, "sandboxes_total", json_object_new_int64((int64_t)total));
	json_object_object_add(o, "clients_rejected",
			       json_object_new_int64((int64_t)atomic_load(&d->rejected)));
	/* Records the trail could not write: counted, never silently lost. */
	json_object_object_add(o, "audit_lost",
			       json_object_new_int64((int64_t)audit_lost(d->audit, NULL)));
	return o;
}

int control_handle(struct daemon *d, int conn, struct json_object *msg)
{
	struct json_object *req, *reply;

	if (!json_object_object_get_ex(msg, "request", &req) ||
	    !json_object_is_type(req, json_type_string) ||
	    strcmp(json_object_get_string(req), "status") != 0) {
		log_warning("control: unknown request");
		proto_reply_error(conn, "unknown request (known: status)");
		return -EINVAL;
	}
	reply = control_status(d);
	if (!reply) {
		proto_reply_error(conn, "out of memory");
		return -ENOMEM;
	}
	proto_reply(conn, reply);
	json_object_put(reply);
	return 0;
}
