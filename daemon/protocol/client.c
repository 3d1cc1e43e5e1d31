/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client side of unotifyd's socket (client.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "client.h"
#include "kernel-layer.h"
#include "kernel-layer-landlock.h"
#include "lib/util.h"
#include "oci-state.h"
#include "protocol.h"

#define CLIENT_ANSWER_TIMEOUT_MS 5000

/* The daemon's refusal, as an errno: "permission denied" is the peer check's, EBUSY its share's. */
static int client_refusal(struct json_object *answer)
{
	struct json_object *v;

	if (!json_object_object_get_ex(answer, "error", &v))
		return -EPROTO;
	if (strcmp(json_object_get_string(v), "permission denied") == 0)
		return -EACCES;
	if (strcmp(json_object_get_string(v), PROTO_ERROR_BUSY) == 0)
		return -EBUSY;
	return -EPROTO;
}

static char *client_string(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return strdup(json_object_get_string(v));
}

static int client_interpret(struct json_object *answer, char **ret_why)
{
	struct json_object *ok, *v;

	if (!json_object_object_get_ex(answer, "ok", &ok) ||
	    !json_object_is_type(ok, json_type_boolean))
		return -EPROTO;
	if (!json_object_get_boolean(ok))
		return client_refusal(answer);
	if (!json_object_object_get_ex(answer, "fail_closed", &v))
		return 0;
	if (ret_why)
		*ret_why = client_string(answer, "fail_closed");
	return -ENODATA;
}

static int client_register_once(const char *socket_path, const char *policy_name,
				uint64_t serial, int listener_fd, pid_t pid, char **ret_why)
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
	if (serial)
		json_object_object_add(msg, OCI_POLICY_SERIAL, json_object_new_int64((int64_t)serial));
	r = proto_request(socket_path ? socket_path : proto_socket_default(), msg, &listener_fd, 1,
			  CLIENT_ANSWER_TIMEOUT_MS, PROTO_MAX_REQUEST, &answer);
	json_object_put(msg);
	if (r < 0)
		return r;
	r = client_interpret(answer, ret_why);
	json_object_put(answer);
	return r;
}

/*
 * A daemon busy reading as many connections of ours as it reads at once
 * (a runtime starting many sandboxes) says so: we try again, waiting
 * longer each time, for as long as an answer may take. Says whether to.
 */
struct client_backoff {
	long wait_us, waited_us;
};

static bool client_again(struct client_backoff *b, int r)
{
	if (r != -EBUSY || b->waited_us >= CLIENT_ANSWER_TIMEOUT_MS * 1000L)
		return false;
	if (!b->wait_us)
		b->wait_us = 1000;
	usleep((useconds_t)b->wait_us);
	b->waited_us += b->wait_us;
	b->wait_us = b->wait_us < 100000 ? b->wait_us * 2 : 100000;
	return true;
}

int client_register_serial(const char *socket_path, const char *policy_name, uint64_t serial,
			   int listener_fd, pid_t pid, char **ret_why)
{
	struct client_backoff b = { 0 };
	int r;

	do {
		r = client_register_once(socket_path, policy_name, serial, listener_fd, pid,
					 ret_why);
	} while (client_again(&b, r));
	return r;
}

int client_register(const char *socket_path, const char *policy_name, int listener_fd,
		    pid_t pid)
{
	return client_register_serial(socket_path, policy_name, 0, listener_fd, pid, NULL);
}

/* "WHY; the daemon's policies: a, b" from a refusal that lists them. */
static char *client_refusal_text(struct json_object *answer)
{
	_cleanup_free_ char *why = client_string(answer, "error");
	struct json_object *names;
	char *text = NULL, *list = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&list, &size);

	if (!f)
		return NULL;
	if (json_object_object_get_ex(answer, "policies", &names) &&
	    json_object_is_type(names, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(names); i++)
			fprintf(f, "%s%s", i ? ", " : "",
				json_object_get_string(json_object_array_get_idx(names, i)));
	}
	fclose(f);
	if (asprintf(&text, "%s; the daemon's policies: %s", why ? why : "refused",
		     list && list[0] ? list : "none") < 0)
		text = NULL;
	free(list);
	return text;
}

/* The answer to a kernel-layer request, checked (client_kernel_layer). */
static int client_kernel_layer_answer(struct json_object *answer, const char *policy_name,
				      struct sock_fprog *ret, uint64_t *ret_serial,
				      struct kernel_layer_landlock *ret_ll, char **ret_why)
{
	struct json_object *ok, *reason;
	const char *why = NULL;
	int r;

	if (!json_object_object_get_ex(answer, "ok", &ok) ||
	    !json_object_is_type(ok, json_type_boolean))
		return -EPROTO;
	if (json_object_get_boolean(ok)) {
		r = kernel_layer_answer_parse(answer, policy_name, ret, ret_serial, &why);
		/* A daemon without the Landlock layer answers none: the filter alone. */
		if (r == 0 && ret_ll && kernel_layer_answer_landlock(answer, ret_ll, &why) < 0) {
			free(steal_pointer(&ret->filter));
			r = -EPROTO;
		}
		if (r < 0 && why)
			*ret_why = strdup(why);
		return r;
	}
	if (json_object_object_get_ex(answer, "reason", &reason)) {
		*ret_why = client_refusal_text(answer);
		return strcmp(json_object_get_string(reason), "broken-policy") == 0 ? -ENODATA
										    : -ENOENT;
	}
	*ret_why = client_string(answer, "error");
	return client_refusal(answer);
}

/* The request sent and its answer checked, again while the daemon is busy (client_again). */
static int client_kernel_layer_ask(const char *socket_path, struct json_object *req,
				   const char *policy_name, struct sock_fprog *ret,
				   uint64_t *ret_serial, struct kernel_layer_landlock *ret_ll,
				   char **ret_why)
{
	struct client_backoff b = { 0 };
	int r;

	do {
		struct json_object *answer = NULL;

		free(steal_pointer(ret_why));
		r = proto_request(socket_path ? socket_path : proto_socket_default(), req, NULL, 0,
				  CLIENT_ANSWER_TIMEOUT_MS, KERNEL_LAYER_MAX_ANSWER, &answer);
		if (r < 0)
			return r;
		r = client_kernel_layer_answer(answer, policy_name, ret, ret_serial, ret_ll,
					       ret_why);
		json_object_put(answer);
	} while (client_again(&b, r));
	return r;
}

int client_kernel_layer(const char *socket_path, const char *policy_name, struct sock_fprog *ret,
			uint64_t *ret_serial, char **ret_why)
{
	return client_kernel_layer_landlock(socket_path, policy_name, -1, 0, ret, ret_serial, NULL,
					    ret_why);
}

int client_kernel_layer_landlock(const char *socket_path, const char *policy_name, int abi,
				 unsigned int off, struct sock_fprog *ret, uint64_t *ret_serial,
				 struct kernel_layer_landlock *ret_ll, char **ret_why)
{
	struct json_object *req;
	int r;

	*ret_why = NULL;
	if (ret_ll)
		*ret_ll = (struct kernel_layer_landlock){ 0 };
	if (!proto_policy_name_valid(policy_name))
		return -EINVAL;
	req = kernel_layer_request_new(policy_name);
	if (!req)
		return -ENOMEM;
	if (abi >= 0 && kernel_layer_request_add_landlock(req, abi, off) < 0) {
		json_object_put(req);
		return -ENOMEM;
	}
	r = client_kernel_layer_ask(socket_path, req, policy_name, ret, ret_serial,
				    abi >= 0 ? ret_ll : NULL, ret_why);
	json_object_put(req);
	return r;
}

int client_status(const char *socket_path, int timeout_ms, struct json_object **ret)
{
	struct json_object *req = json_object_new_object();
	int r;

	if (!req)
		return -ENOMEM;
	json_object_object_add(req, "request", json_object_new_string("status"));
	r = proto_request(socket_path ? socket_path : proto_socket_default(), req, NULL, 0,
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
	case -EBUSY:
		return "unotifyd stayed busy reading other connections of this user: try again";
	case -EINVAL:
		return "invalid policy name (letters, digits, '_', '.', '-'; not a path)";
	default:
		return strerror(-r);
	}
}
