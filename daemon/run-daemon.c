/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run --daemon`: the client side of the listenerPath protocol, as
 * an OCI runtime speaks it (one JSON container process state, the listener
 * in SCM_RIGHTS), plus reading the daemon's one-line answer, which runtimes
 * ignore but which lets `run` tell its user what happened.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "run-daemon.h"

#define RUN_DAEMON_ANSWER_TIMEOUT_MS 5000
#define RUN_DAEMON_OCI_VERSION "1.0.2"

bool run_daemon_policy_name_valid(const char *name)
{
	size_t i;

	if (!name || !name[0] || strlen(name) > RUN_DAEMON_POLICY_NAME_MAX)
		return false;
	for (i = 0; name[i]; i++) {
		char c = name[i];
		bool alnum =
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '_' && c != '.' && c != '-')))
			return false;
	}
	return true;
}

int run_daemon_policy_path(const char *dir, const char *name, char **ret_path)
{
	char *path;

	if (!run_daemon_policy_name_valid(name))
		return -EINVAL;
	if (asprintf(&path, "%s/%s.policy", dir ? dir : RUN_DAEMON_POLICY_DIR_DEFAULT, name) < 0)
		return -ENOMEM;
	*ret_path = path;
	return 0;
}

int run_daemon_connect(const char *path, int *ret_fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return negative_errno();
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return negative_errno();
	*ret_fd = steal_fd(&fd);
	return 0;
}

/* The container process state runc would send, with metadata policy=NAME. */
static char *run_daemon_state_json(const char *policy_name, pid_t pid)
{
	struct json_object *msg = json_object_new_object(), *state = json_object_new_object();
	struct json_object *fds = json_object_new_array();
	char id[64], metadata[RUN_DAEMON_POLICY_NAME_MAX + 16];
	char *out = NULL;

	snprintf(id, sizeof(id), "unotify-run-%d", (int)pid);
	snprintf(metadata, sizeof(metadata), "policy=%s", policy_name);
	if (msg && state && fds) {
		json_object_array_add(fds, json_object_new_string("seccompFd"));
		json_object_object_add(state, "ociVersion",
				       json_object_new_string(RUN_DAEMON_OCI_VERSION));
		json_object_object_add(state, "id", json_object_new_string(id));
		json_object_object_add(state, "status", json_object_new_string("running"));
		json_object_object_add(state, "pid", json_object_new_int(pid));
		json_object_object_add(state, "bundle", json_object_new_string("/"));
		json_object_object_add(msg, "ociVersion",
				       json_object_new_string(RUN_DAEMON_OCI_VERSION));
		json_object_object_add(msg, "fds", steal_pointer(&fds));
		json_object_object_add(msg, "pid", json_object_new_int(pid));
		json_object_object_add(msg, "metadata", json_object_new_string(metadata));
		json_object_object_add(msg, "state", steal_pointer(&state));
		out = strdup(json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(fds);
	json_object_put(state);
	json_object_put(msg);
	return out;
}

static int run_daemon_send(int sock, const char *text, int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)text, .iov_len = strlen(text) };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	ssize_t n;

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	if (n < 0)
		return negative_errno();
	/* The fd went with the first byte; the rest, if any, as plain data. */
	while ((size_t)n < iov.iov_len) {
		ssize_t m = send(sock, text + n, iov.iov_len - n, MSG_NOSIGNAL);

		if (m < 0)
			return negative_errno();
		n += m;
	}
	return 0;
}

/* Reads the daemon's answer (one JSON object) until EOF or the deadline. */
static int run_daemon_answer(int sock, struct json_object **ret)
{
	char buf[4096];
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = sock, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, RUN_DAEMON_ANSWER_TIMEOUT_MS) <= 0)
			return -EPROTO;
		n = recv(sock, buf + len, sizeof(buf) - 1 - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* ECONNRESET: the daemon closed without reading all we sent. */
		if (n < 0 && errno == ECONNRESET)
			n = 0;
		if (n < 0)
			return negative_errno();
		if (n == 0 || len + n >= sizeof(buf) - 1) {
			len += n;
			break;
		}
		len += n;
	}
	buf[len] = '\0';
	*ret = json_tokener_parse(buf);
	return *ret ? 0 : -EPROTO;
}

static int run_daemon_interpret(struct json_object *answer)
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

int run_daemon_handoff(const char *socket_path, const char *policy_name, int listener_fd,
		       pid_t pid)
{
	_cleanup_close_ int sock = -1;
	_cleanup_free_ char *text = NULL;
	struct json_object *answer = NULL;
	int r;

	if (!run_daemon_policy_name_valid(policy_name) || listener_fd < 0 || pid <= 0)
		return -EINVAL;
	text = run_daemon_state_json(policy_name, pid);
	if (!text)
		return -ENOMEM;
	r = run_daemon_connect(socket_path ? socket_path : RUN_DAEMON_SOCKET_DEFAULT, &sock);
	if (r < 0)
		return r;
	r = run_daemon_send(sock, text, listener_fd);
	/* A daemon that refuses us closes at once: its answer says why. */
	if (r < 0 && r != -EPIPE)
		return r;
	shutdown(sock, SHUT_WR);
	if (run_daemon_answer(sock, &answer) < 0)
		return r < 0 ? r : -EPROTO;
	r = run_daemon_interpret(answer);
	json_object_put(answer);
	return r;
}

const char *run_daemon_strerror(int r)
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
