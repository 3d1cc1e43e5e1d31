/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clients of the socket, trusted for nothing: SO_PEERCRED decides who may
 * talk at all (root, or a member of --allow-group); each connection then gets
 * its own short-lived thread that reads exactly one message, of bounded size,
 * under a deadline, so a client that sends nothing, garbage or a megabyte
 * delays no one else. Every fd that arrives and is not used is closed.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "unotifyd.h"

#define PEER_THREAD_STACK (256 * 1024)
#define PEER_JSON_DEPTH 16
#define PEER_SEND_TIMEOUT_S 2

struct peer_conn {
	struct daemon *daemon;
	int conn;
	struct ucred cred;
};

static bool peer_gid_allowed(const struct daemon_config *c, gid_t gid)
{
	for (size_t i = 0; i < c->n_allow_gids; i++)
		if (c->allow_gids[i] == gid)
			return true;
	return false;
}

/* The peer's supplementary groups, as they were when it connected. */
static bool peer_groups_allowed(const struct daemon_config *c, int fd)
{
	gid_t stack[64], *groups = stack;
	socklen_t len = sizeof(stack);
	bool allowed = false;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0) {
		if (errno != ERANGE)
			return false;
		groups = malloc(len);
		if (!groups || getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0) {
			free(groups);
			return false;
		}
	}
	for (size_t i = 0; i < len / sizeof(gid_t) && !allowed; i++)
		allowed = peer_gid_allowed(c, groups[i]);
	if (groups != stack)
		free(groups);
	return allowed;
}

int peer_credentials(int fd, struct ucred *ret)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return negative_errno();
	*ret = cred;
	return 0;
}

bool peer_allowed(const struct daemon_config *c, int fd, const struct ucred *cred)
{
	return cred->uid == 0 || peer_gid_allowed(c, cred->gid) || peer_groups_allowed(c, fd);
}

void peer_message_release(struct peer_message *m)
{
	for (size_t i = 0; i < m->n_fds; i++)
		closep(&m->fds[i]);
	m->n_fds = 0;
	json_object_put(m->json);
	m->json = NULL;
	free(m->data);
	m->data = NULL;
	m->len = 0;
}

/* Keeps the fds of one recvmsg; anything unexpected fails the message. */
static int peer_take_fds(struct msghdr *mh, struct peer_message *m, const char **ret_why)
{
	int r = 0;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		size_t n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		const unsigned char *data = CMSG_DATA(cm);

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) {
			*ret_why = "unexpected control message";
			r = -EBADMSG;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, data + i * sizeof(int), sizeof(int));
			if (m->n_fds < DAEMON_MAX_FDS) {
				m->fds[m->n_fds++] = fd;
			} else {
				close(fd);
				*ret_why = "too many fds";
				r = -EBADMSG;
			}
		}
	}
	if (mh->msg_flags & MSG_CTRUNC) {
		*ret_why = "fds truncated (too many fds)";
		r = -EBADMSG;
	}
	return r;
}

static int64_t peer_remaining_ms(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

/* One recvmsg under the deadline: bytes read (0 at EOF), or -errno. */
static ssize_t peer_recv_chunk(int fd, const struct timespec *deadline, char *buf, size_t size,
			       struct peer_message *m, const char **ret_why)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * DAEMON_MAX_FDS)];
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t left;
	ssize_t n;
	int r;

	for (;;) {
		left = peer_remaining_ms(deadline);
		if (left <= 0) {
			*ret_why = "no complete message in time";
			return -ETIMEDOUT;
		}
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return negative_errno();
		if (r <= 0)
			continue;
		mh.msg_control = control.buf;
		mh.msg_controllen = sizeof(control.buf);
		n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			*ret_why = "receive failed";
			return negative_errno();
		}
		r = peer_take_fds(&mh, m, ret_why);
		return r < 0 ? r : n;
	}
}

static bool peer_only_space(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t')
			return false;
	return true;
}

/* Feeds one chunk to the tokener: 1 when the object is complete, 0 for more. */
static int peer_parse_chunk(json_tokener *tok, const char *buf, size_t n, struct peer_message *m,
			    const char **ret_why)
{
	struct json_object *o = json_tokener_parse_ex(tok, buf, (int)n);
	enum json_tokener_error e = json_tokener_get_error(tok);

	if (!o && e == json_tokener_continue)
		return 0;
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !peer_only_space(buf + json_tokener_get_parse_end(tok),
			     n - json_tokener_get_parse_end(tok))) {
		json_object_put(o);
		*ret_why = "not one JSON object";
		return -EBADMSG;
	}
	m->json = o;
	return 1;
}

int peer_read_message(int fd, int timeout_ms, struct peer_message *ret, const char **ret_why)
{
	struct peer_message m = { .n_fds = 0 };
	struct timespec deadline;
	json_tokener *tok = json_tokener_new_ex(PEER_JSON_DEPTH);
	size_t total = 0;
	char buf[4096];
	int r = 0;

	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	while (r == 0) {
		ssize_t n = peer_recv_chunk(fd, &deadline, buf, sizeof(buf), &m, ret_why);

		if (n < 0) {
			r = (int)n;
		} else if (n == 0) {
			*ret_why = total ? "incomplete message" : "closed without a message";
			r = -EBADMSG;
		} else if ((total += n) > DAEMON_MAX_MESSAGE) {
			*ret_why = "message too large";
			r = -EMSGSIZE;
		} else {
			r = peer_parse_chunk(tok, buf, n, &m, ret_why);
		}
	}
	json_tokener_free(tok);
	if (r < 0) {
		peer_message_release(&m);
		return r;
	}
	*ret = m;
	return 0;
}

void peer_reply(int fd, struct json_object *reply)
{
	const char *text;
	size_t len, off = 0;

	if (fd < 0 || !reply)
		return;
	text = json_object_to_json_string_ext(reply, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	while (off < len) {
		ssize_t n = send(fd, text + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* runtimes close right after sending: nothing to do */
		off += n;
	}
	if (send(fd, "\n", 1, MSG_NOSIGNAL) < 0)
		return;
}

void peer_reply_error(int fd, const char *why)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return;
	json_object_object_add(o, "ok", json_object_new_boolean(false));
	json_object_object_add(o, "error", json_object_new_string(why));
	peer_reply(fd, o);
	json_object_put(o);
}

/* Dispatches one message: a control request or a registration. */
static void peer_dispatch(struct peer_conn *c, struct peer_message *m)
{
	const struct ucred *cred = &c->cred;
	const char *why = NULL;

	if (control_detect(m->json)) {
		if (m->n_fds == 0) {
			control_handle(c->daemon, c->conn, m->json);
			return;
		}
		why = "fds sent with a control request";
	} else if (oci_state_detect(m->json)) {
		if (oci_register(c->daemon, &c->conn, cred, m) < 0)
			atomic_fetch_add(&c->daemon->rejected, 1);
		return;
	} else {
		why = "neither an OCI state nor a control request";
	}
	log_warning("client pid=%d uid=%u: dropped: %s", (int)cred->pid, cred->uid, why);
	atomic_fetch_add(&c->daemon->rejected, 1);
	peer_reply_error(c->conn, why);
}

static void *peer_thread(void *arg)
{
	struct peer_conn *c = arg;
	struct daemon *d = c->daemon;
	struct peer_message m = { .n_fds = 0 };
	const char *why = "?";
	int r;

	r = peer_read_message(c->conn, d->config.client_timeout_ms, &m, &why);
	atomic_fetch_sub(&d->pending, 1);
	if (r < 0) {
		log_warning("client pid=%d uid=%u: dropped: %s", (int)c->cred.pid, c->cred.uid,
			    why);
		atomic_fetch_add(&d->rejected, 1);
		if (r != -ETIMEDOUT)
			peer_reply_error(c->conn, why);
	} else {
		peer_dispatch(c, &m);
	}
	peer_message_release(&m);
	closep(&c->conn);
	free(c);
	return NULL;
}

int peer_spawn(struct daemon *d, int conn, const struct ucred *cred)
{
	struct timeval tv = { .tv_sec = PEER_SEND_TIMEOUT_S };
	struct peer_conn *c = malloc(sizeof(*c));
	pthread_attr_t attr;
	pthread_t t;
	int r;

	if (!c) {
		close(conn);
		return -ENOMEM;
	}
	*c = (struct peer_conn){ .daemon = d, .conn = conn, .cred = *cred };
	/* A reader that never reads must not hold a thread forever either. */
	setsockopt(conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, PEER_THREAD_STACK);
	atomic_fetch_add(&d->pending, 1);
	r = -pthread_create(&t, &attr, peer_thread, c);
	pthread_attr_destroy(&attr);
	if (r < 0) {
		atomic_fetch_sub(&d->pending, 1);
		close(conn);
		free(c);
	}
	return r;
}
