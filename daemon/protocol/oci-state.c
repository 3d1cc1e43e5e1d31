/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OCI runtime-spec listenerPath protocol: the runtime connects, sends one
 * JSON "container process state" with the seccomp listener in SCM_RIGHTS,
 * and closes. runc sends it compact, crun pretty-printed with a trailing
 * newline; `fds` names map index by index onto the SCM_RIGHTS array and
 * `metadata` is the container's listenerMetadata. The daemon reads
 * `policy=NAME` from it; ociVersion is not checked (runtimes disagree).
 * `unotify run --daemon` speaks it too (oci_state_new).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "audit/audit-buf.h"
#include "lib/util.h"
#include "oci-state.h"
#include "protocol.h"

#define OCI_SECCOMP_FD_NAME "seccompFd"
#define OCI_VERSION "1.0.2"

bool oci_state_detect(struct json_object *msg)
{
	return json_object_object_get_ex(msg, "fds", NULL) ||
	       json_object_object_get_ex(msg, "state", NULL);
}

bool oci_fd_is_listener(int fd)
{
	char link[64], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "anon_inode:seccomp notify") == 0;
}

static const char *oci_get_string(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Finds the seccompFd among the fds names; every name must be a string. */
static int oci_find_seccomp_fd(struct json_object *msg, size_t n_fds, size_t *ret_index,
			       const char **ret_why)
{
	struct json_object *names;
	size_t i, found = SIZE_MAX;

	if (!json_object_object_get_ex(msg, "fds", &names) ||
	    !json_object_is_type(names, json_type_array)) {
		*ret_why = "no \"fds\" array";
		return -EBADMSG;
	}
	if (json_object_array_length(names) != n_fds) {
		*ret_why = "\"fds\" does not name each received fd";
		return -EBADMSG;
	}
	for (i = 0; i < n_fds; i++) {
		struct json_object *n = json_object_array_get_idx(names, i);

		if (!json_object_is_type(n, json_type_string)) {
			*ret_why = "an \"fds\" name is not a string";
			return -EBADMSG;
		}
		if (strcmp(json_object_get_string(n), OCI_SECCOMP_FD_NAME) != 0)
			continue;
		if (found != SIZE_MAX) {
			*ret_why = "two fds named seccompFd";
			return -EBADMSG;
		}
		found = i;
	}
	if (found == SIZE_MAX) {
		*ret_why = "no fd named seccompFd";
		return -EBADMSG;
	}
	*ret_index = found;
	return 0;
}

/*
 * An id names the sandbox in the log, the audit trail and status: UTF-8
 * with no control character, C0 or C1, and no format character that
 * reorders or hides what a terminal shows (U+202E...: abuf_text_len).
 * runc and crun allow letters, digits and "_+-." only.
 */
static bool oci_id_printable(const char *id)
{
	for (const unsigned char *c = (const unsigned char *)id; *c;) {
		size_t k = abuf_text_len(c);

		if (!k || *c < 0x20 || *c == 0x7f)
			return false;
		c += k;
	}
	return true;
}

/* The fields of "state" we keep: id (required), status and bundle (optional). */
static int oci_parse_state(struct json_object *msg, struct oci_state *s, const char **ret_why)
{
	struct json_object *state;
	const char *id, *status, *bundle;

	if (!json_object_object_get_ex(msg, "state", &state) ||
	    !json_object_is_type(state, json_type_object)) {
		*ret_why = "no \"state\" object";
		return -EBADMSG;
	}
	id = oci_get_string(state, "id");
	if (!id || !id[0] || strlen(id) > OCI_ID_MAX || !oci_id_printable(id)) {
		*ret_why = "\"state\" has no valid \"id\"";
		return -EBADMSG;
	}
	status = oci_get_string(state, "status");
	bundle = oci_get_string(state, "bundle");
	s->id = strdup(id);
	s->status = status ? strdup(status) : NULL;
	s->bundle = bundle ? strdup(bundle) : NULL;
	if (!s->id)
		return -ENOMEM;
	return 0;
}

static int oci_parse_pid(struct json_object *msg, pid_t *ret, const char **ret_why)
{
	struct json_object *v;
	int64_t pid;

	if (!json_object_object_get_ex(msg, "pid", &v) || !json_object_is_type(v, json_type_int)) {
		*ret_why = "no \"pid\" number";
		return -EBADMSG;
	}
	pid = json_object_get_int64(v);
	if (pid <= 0 || pid > INT32_MAX) {
		*ret_why = "\"pid\" out of range";
		return -EBADMSG;
	}
	*ret = (pid_t)pid;
	return 0;
}

static int oci_parse_serial(struct json_object *msg, uint64_t *ret, const char **ret_why)
{
	struct json_object *v;

	if (!json_object_object_get_ex(msg, OCI_POLICY_SERIAL, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) <= 0) {
		*ret_why = "\"" OCI_POLICY_SERIAL "\" is not a positive number";
		return -EBADMSG;
	}
	*ret = (uint64_t)json_object_get_int64(v);
	return 0;
}

int oci_state_parse(struct json_object *msg, int *fds, size_t n_fds, struct oci_state *ret,
		    const char **ret_why)
{
	struct oci_state s = { .seccomp_fd = -1 };
	struct json_object *md;
	size_t idx;
	int r;

	r = oci_find_seccomp_fd(msg, n_fds, &idx, ret_why);
	if (r >= 0)
		r = oci_parse_pid(msg, &s.pid, ret_why);
	if (r >= 0 && json_object_object_get_ex(msg, "metadata", &md) &&
	    !json_object_is_type(md, json_type_null)) {
		if (!json_object_is_type(md, json_type_string)) {
			*ret_why = "\"metadata\" is not a string";
			r = -EBADMSG;
		} else if (!(s.metadata = strdup(json_object_get_string(md)))) {
			r = -ENOMEM;
		}
	}
	if (r >= 0)
		r = oci_parse_serial(msg, &s.policy_serial, ret_why);
	if (r >= 0)
		r = oci_parse_state(msg, &s, ret_why);
	if (r >= 0 && !oci_fd_is_listener(fds[idx])) {
		*ret_why = "the fd named seccompFd is not a seccomp listener";
		r = -EBADMSG;
	}
	if (r < 0) {
		oci_state_release(&s);
		return r;
	}
	s.seccomp_fd = TAKE_FD(fds[idx]);
	*ret = s;
	return 0;
}

void oci_state_release(struct oci_state *s)
{
	free(s->id);
	free(s->metadata);
	free(s->status);
	free(s->bundle);
	s->seccomp_fd = safe_close(s->seccomp_fd);
	*s = (struct oci_state){ .seccomp_fd = -1 };
}

int oci_metadata_policy(const char *metadata, char *buf, size_t size)
{
	static const char key[] = "policy=";
	const char *name;
	size_t len;

	/* Runtimes pass listenerMetadata verbatim; tolerate a trailing newline. */
	if (strncmp(metadata, key, sizeof(key) - 1) != 0)
		return -EINVAL;
	name = metadata + sizeof(key) - 1;
	len = strcspn(name, "\n");
	if (name[len] && name[len + 1])
		return -EINVAL;
	if (len >= size)
		return -EINVAL;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return proto_policy_name_valid(buf) ? 0 : -EINVAL;
}

struct json_object *oci_state_new(const char *id, pid_t pid, const char *metadata)
{
	struct json_object *msg = json_object_new_object(), *state = json_object_new_object();
	struct json_object *fds = json_object_new_array();

	if (!msg || !state || !fds) {
		json_object_put(fds);
		json_object_put(state);
		json_object_put(msg);
		return NULL;
	}
	json_object_array_add(fds, json_object_new_string(OCI_SECCOMP_FD_NAME));
	json_object_object_add(state, "ociVersion", json_object_new_string(OCI_VERSION));
	json_object_object_add(state, "id", json_object_new_string(id));
	json_object_object_add(state, "status", json_object_new_string("running"));
	json_object_object_add(state, "pid", json_object_new_int(pid));
	json_object_object_add(state, "bundle", json_object_new_string("/"));
	json_object_object_add(msg, "ociVersion", json_object_new_string(OCI_VERSION));
	json_object_object_add(msg, "fds", fds);
	json_object_object_add(msg, "pid", json_object_new_int(pid));
	if (metadata)
		json_object_object_add(msg, "metadata", json_object_new_string(metadata));
	json_object_object_add(msg, "state", state);
	return msg;
}
