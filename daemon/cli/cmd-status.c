/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify status [--socket PATH] [--json]`: asks unotifyd for its status
 * (a control request on its socket) and prints the sandboxes it supervises.
 * Exit 0, 1 when the daemon cannot be reached or refuses, 125 on bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "audit/audit-buf.h"
#include "lib/util.h"
#include "commands.h"
#include "protocol/client.h"
#include "protocol/oci-state.h"
#include "protocol/protocol.h"

#define STATUS_TIMEOUT_MS 5000

static const char *status_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "?";
}

/*
 * A field a client chose (a sandbox id) as a terminal may show it: control
 * characters, C1 and format ones (U+202E), '\\' and blanks as \xNN.
 */
static const char *status_text(struct json_object *o, const char *key, char *buf, size_t size)
{
	struct audit_buf b;

	abuf_init(&b, buf, size);
	abuf_put_field(&b, status_str(o, key));
	*b.p = '\0';
	return buf;
}

static int64_t status_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

/* 1234 ns as "1.2us", for round trips. */
static const char *status_ns(int64_t ns, char *buf, size_t size)
{
	if (ns <= 0)
		snprintf(buf, size, "-");
	else if (ns < 1000)
		snprintf(buf, size, "%" PRId64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else
		snprintf(buf, size, "%.1fms", ns / 1e6);
	return buf;
}

static void status_print_header(struct json_object *st)
{
	struct json_object *features, *policies, *v;
	double up = 0;

	if (json_object_object_get_ex(st, "uptime_s", &v))
		up = json_object_get_double(v);
	printf("unotifyd %s (pid %" PRId64 "), up %.0fs, kernel %s\n", status_str(st, "version"),
	       status_int(st, "pid"), up, status_str(st, "kernel"));
	printf("features:");
	if (json_object_object_get_ex(st, "features", &features)) {
		json_object_object_foreach(features, name, on)
			if (json_object_get_boolean(on))
				printf(" %s", name);
	}
	printf("\nsame-CPU hand-off: %s\npolicies (%s):",
	       json_object_object_get_ex(st, "sync_wake_up", &v) && json_object_get_boolean(v) ?
		       "in use" : "off",
	       status_str(st, "policy_dir"));
	if (json_object_object_get_ex(st, "policies", &policies)) {
		for (size_t i = 0; i < json_object_array_length(policies); i++) {
			struct json_object *p = json_object_array_get_idx(policies, i);

			printf(" %s%s", status_str(p, "name"),
			       strcmp(status_str(p, "status"), "ok") == 0 ? "" : "(BROKEN)");
		}
	}
	printf("\nsandboxes: %" PRId64 " active, %" PRId64 " since start; %" PRId64
	       " clients rejected\n",
	       status_int(st, "sandboxes_active"), status_int(st, "sandboxes_total"),
	       status_int(st, "clients_rejected"));
	if (status_int(st, "audit_lost") > 0)
		printf("AUDIT: %" PRId64 " records could not be written: the trail is incomplete\n",
		       status_int(st, "audit_lost"));
	if (status_int(st, "client_closes") > 0)
		printf("CLOSING: %" PRId64 " descriptors sent by clients are being closed "
		       "(one that stays is held by its file system, e.g. a FUSE server)\n",
		       status_int(st, "client_closes"));
}

static void status_print(struct json_object *st)
{
	struct json_object *list;
	char p50[32], p99[32], id[OCI_ID_MAX * 4 + 8], policy[PROTO_POLICY_NAME_MAX * 4 + 8];

	status_print_header(st);
	if (!json_object_object_get_ex(st, "sandboxes", &list) ||
	    json_object_array_length(list) == 0)
		return;
	printf("%-24s %8s %-16s %10s %8s %9s %9s\n", "ID", "PID", "POLICY", "NOTIFIED", "DENIED",
	       "P50", "P99");
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *s = json_object_array_get_idx(list, i);
		struct json_object *fc;

		printf("%-24s %8" PRId64 " %-16s %10" PRId64 " %8" PRId64 " %9s %9s%s\n",
		       status_text(s, "id", id, sizeof(id)), status_int(s, "pid"),
		       status_text(s, "policy", policy, sizeof(policy)),
		       status_int(s, "notifications"), status_int(s, "denials"),
		       status_ns(status_int(s, "p50_ns"), p50, sizeof(p50)),
		       status_ns(status_int(s, "p99_ns"), p99, sizeof(p99)),
		       json_object_object_get_ex(s, "fail_closed", &fc) ? "  FAIL CLOSED" : "");
	}
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *path = proto_socket_default();
	struct json_object *st = NULL, *ok;
	bool json = false;
	int opt, r;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (opt == 's') {
			path = optarg;
		} else if (opt == 'j') {
			json = true;
		} else if (opt == 'h') {
			printf("Usage: unotify status [--socket PATH] [--json]\n"
			       "The daemon's sandboxes. The socket: --socket, else $UNOTIFY_SOCKET,\n"
			       "else " PROTO_SOCKET_DEFAULT ".\n");
			return EXIT_SUCCESS;
		} else {
			return EXIT_SUPERVISOR;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unotify status: unexpected argument '%s'\n", argv[optind]);
		return EXIT_SUPERVISOR;
	}
	r = client_status(path, STATUS_TIMEOUT_MS, &st);
	if (r < 0) {
		fprintf(stderr, "unotify status: %s: %s\n", path,
			r == -ENOENT || r == -ECONNREFUSED ? "no unotifyd listening"
							   : strerror(-r));
		return EXIT_FAILURE;
	}
	if (!json_object_object_get_ex(st, "ok", &ok) || !json_object_get_boolean(ok)) {
		fprintf(stderr, "unotify status: unotifyd refused: %s\n", status_str(st, "error"));
		json_object_put(st);
		return EXIT_FAILURE;
	}
	if (json)
		printf("%s\n", json_object_to_json_string_ext(st, JSON_C_TO_STRING_PLAIN));
	else
		status_print(st);
	json_object_put(st);
	return EXIT_SUCCESS;
}
