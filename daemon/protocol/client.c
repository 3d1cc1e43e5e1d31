/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client side of unotifyd's socket (client.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "client.h"
#include "lib/util.h"
#include "oci-state.h"
#include "protocol.h"

#define CLIENT_ANSWER_TIMEOUT_MS 5000

int client_policy_path(const char *dir, const char *name, char **ret_path)
{
	char *path;

	if (!proto_policy_name_valid(name))
		return -EINVAL;
	if (asprintf(&path, "%s/%s.policy", dir ? dir : PROTO_POLICY_DIR_DEFAULT, name) < 0)
		return -ENOMEM;
	*ret_path = path;
	return 0;
}

static int client_interpret(struct json_object *answer)
{
	struct json_object *ok, *v;

	if (!json_object_object_get_ex(answer, "ok", &ok) ||
	    !json_object_is_type(ok, json_type_boolean))
		return -EPROTO;
	if (json_object_get_boolean(ok))
		return json_object_object_get_ex(answer, "fail_closed", &v) ? -ENODATA : 0;
	if (json_object_object_get_ex(answer, "error", &v) &&
	    strcmp(json_object_get_string(v), "permission denied") == 0)
		return -EACCES;
	return -EPROTO;
}

int client_register(const char *socket_path, const char *policy_name, int listener_fd,
		    pid_t pid)
{
	char id[64], metadata[PROTO_POLICY_NAME_MAX + 16];
	struct json_object *msg, *answer = NULL;
	int r;

	if (!proto_policy_name_valid(policy_name) || listener_fd < 0 || pid <= 0)
		return -EINVAL;
	snprintf(id, sizeof(id), "unotify-run-%d", (int)pid);
	snprintf(metadata, sizeof(metadata), "policy=%s", policy_name);
	msg = oci_state_new(id, pid, metadata);
	if (!msg)
		return -ENOMEM;
	r = proto_request(socket_path ? socket_path : PROTO_SOCKET_DEFAULT, msg, &listener_fd, 1,
			  CLIENT_ANSWER_TIMEOUT_MS, PROTO_MAX_REQUEST, &answer);
	json_object_put(msg);
	if (r < 0)
		return r;
	r = client_interpret(answer);
	json_object_put(answer);
	return r;
}

int client_status(const char *socket_path, int timeout_ms, struct json_object **ret)
{
	struct json_object *req = json_object_new_object();
	int r;

	if (!req)
		return -ENOMEM;
	json_object_object_add(req, "request", json_object_new_string("status"));
	r = proto_request(socket_path ? socket_path : PROTO_SOCKET_DEFAULT, req, NULL, 0,
			  timeout_ms, PROTO_MAX_ANSWER, ret);
	json_object_put(req);
	return r;
}

const char *client_strerror(int r)
{
	switch (r) {
	case 0:
		return "supervised by unotifyd";
	case -ENODATA:
		return "unotifyd has no usable policy of that name: every intercepted call is "
		       "denied";
	case -EACCES:
		return "unotifyd refused the hand-off: only root and members of its --allow-group "
		       "may";
	case -ENOENT:
	case -ECONNREFUSED:
		return "no unotifyd listening on that socket";
	case -EPROTO:
		return "unotifyd did not acknowledge the hand-off";
	case -EINVAL:
		return "invalid policy name (letters, digits, '_', '.', '-'; not a path)";
	default:
		return strerror(-r);
	}
}
