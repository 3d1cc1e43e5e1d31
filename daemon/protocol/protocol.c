/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One JSON object per direction per connection (protocol.h). The reader
 * feeds json_tokener chunk by chunk, so a message is complete when its
 * object is, whatever the sender does next: runc sends compact JSON and
 * closes, crun pretty-prints with a trailing newline, the daemon answers
 * and closes. Strict JSON, UTF-8 checked, depth 16, a size limit and one
 * deadline for the whole message: a peer that sends nothing, garbage or a
 * megabyte costs one bounded read.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "protocol.h"

#define PROTO_JSON_DEPTH 16
/*
 * The fds one recvmsg may bring (the kernel's SCM_MAX_FD): all are taken,
 * and those past PROTO_MAX_FDS closed by proto_close_received. Fds that
 * do not fit the buffer are released inside recvmsg, where no closer of
 * ours could bound a release that waits (closing.c in the daemon).
 */
#define PROTO_RECV_FDS 253

static int (*proto_close_received)(int fd) = safe_close;

void proto_set_fd_closer(int (*close_fd)(int fd))
{
	proto_close_received = close_fd;
}

/* secure_getenv: a set-user-ID copy would not take its paths from the caller. */
static const char *proto_env_or(const char *name, const char *fallback)
{
	const char *e = secure_getenv(name);

	return e && e[0] ? e : fallback;
}

const char *proto_socket_default(void)
{
	return proto_env_or(PROTO_SOCKET_ENV, PROTO_SOCKET_DEFAULT);
}

const char *proto_policy_dir_default(void)
{
	return proto_env_or(PROTO_POLICY_DIR_ENV, PROTO_POLICY_DIR_DEFAULT);
}

bool proto_policy_name_valid(const char *name)
{
	if (!name || !name[0] || strlen(name) > PROTO_POLICY_NAME_MAX)
		return false;
	for (size_t i = 0; name[i]; i++) {
		char c = name[i];
		bool alnum =
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '_' && c != '.' && c != '-')))
			return false;
	}
	return true;
}

int proto_connect(const char *path, int *ret_fd)
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
	*ret_fd = TAKE_FD(fd);
	return 0;
}

void proto_message_release(struct proto_message *m)
{
	for (size_t i = 0; i < m->n_fds; i++)
		m->fds[i] = proto_close_received(m->fds[i]);
	m->n_fds = 0;
	json_object_put(m->json);
	m->json = NULL;
}

/* Keeps the fds of one recvmsg; anything unexpected fails the message. */
static int proto_take_fds(struct msghdr *mh, struct proto_message *m, const char **ret_why)
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
			if (m->n_fds < PROTO_MAX_FDS) {
				m->fds[m->n_fds++] = fd;
			} else {
				fd = proto_close_received(fd);
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

static int64_t proto_remaining_ms(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

/* One recvmsg under the deadline: bytes read (0 at EOF), or -errno. */
static ssize_t proto_recv_chunk(int fd, const struct timespec *deadline, char *buf, size_t size,
				struct proto_message *m, const char **ret_why)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * PROTO_RECV_FDS)];
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t left;
	ssize_t n;
	int r;

	for (;;) {
		left = proto_remaining_ms(deadline);
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
		/* ECONNRESET: the peer closed without reading all we sent; what it said stands. */
		if (n < 0 && errno == ECONNRESET)
			return 0;
		if (n < 0) {
			*ret_why = "receive failed";
			return negative_errno();
		}
		r = proto_take_fds(&mh, m, ret_why);
		return r < 0 ? r : n;
	}
}

static bool proto_only_space(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t')
			return false;
	return true;
}

/* Feeds one chunk to the tokener: 1 when the object is complete, 0 for more. */
static int proto_parse_chunk(json_tokener *tok, const char *buf, size_t n,
			     struct proto_message *m, const char **ret_why)
{
	struct json_object *o = json_tokener_parse_ex(tok, buf, (int)n);
	enum json_tokener_error e = json_tokener_get_error(tok);

	if (!o && e == json_tokener_continue)
		return 0;
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !proto_only_space(buf + json_tokener_get_parse_end(tok),
			      n - json_tokener_get_parse_end(tok))) {
		json_object_put(o);
		*ret_why = "not one JSON object";
		return -EBADMSG;
	}
	m->json = o;
	return 1;
}

int proto_read(int fd, int timeout_ms, size_t max, struct proto_message *ret,
	       const char **ret_why)
{
	struct proto_message m = { .n_fds = 0 };
	struct timespec deadline;
	json_tokener *tok = json_tokener_new_ex(PROTO_JSON_DEPTH);
	size_t total = 0;
	char buf[4096];
	int r = 0;

	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	monotonic_deadline((uint64_t)timeout_ms * 1000000u, &deadline);
	while (r == 0) {
		ssize_t n = proto_recv_chunk(fd, &deadline, buf, sizeof(buf), &m, ret_why);

		if (n < 0) {
			r = (int)n;
		} else if (n == 0) {
			*ret_why = total ? "incomplete message" : "closed without a message";
			r = -EBADMSG;
		} else if ((total += (size_t)n) > max) {
			*ret_why = "message too large";
			r = -EMSGSIZE;
		} else {
			r = proto_parse_chunk(tok, buf, (size_t)n, &m, ret_why);
		}
	}
	json_tokener_free(tok);
	if (r < 0) {
		proto_message_release(&m);
		return r;
	}
	*ret = m;
	return 0;
}

/* Plain data after the first sendmsg; the fds went with its first byte. */
static int proto_send_rest(int fd, const char *text, size_t len, size_t off)
{
	while (off < len) {
		ssize_t n = send(fd, text + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		off += (size_t)n;
	}
	return 0;
}

int proto_send(int fd, struct json_object *msg, const int *fds, size_t n_fds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * PROTO_MAX_FDS)];
	} control = { 0 };
	_cleanup_free_ char *text = NULL;
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (n_fds > PROTO_MAX_FDS)
		return -EINVAL;
	/* "/" as itself: paths and base64 read as they are (both forms are JSON). */
	if (asprintf(&text, "%s\n",
		     json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		return -ENOMEM;
	iov = (struct iovec){ .iov_base = text, .iov_len = strlen(text) };
	if (n_fds > 0) {
		struct cmsghdr *cm;

		mh.msg_control = control.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * n_fds);
	}
	do
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	return proto_send_rest(fd, text, iov.iov_len, (size_t)n);
}

void proto_reply(int fd, struct json_object *reply)
{
	if (fd >= 0 && reply)
		(void)proto_send(fd, reply, NULL, 0);
}

void proto_reply_error(int fd, const char *why)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return;
	json_object_object_add(o, "ok", json_object_new_boolean(false));
	json_object_object_add(o, "error", json_object_new_string(why));
	proto_reply(fd, o);
	json_object_put(o);
}

int proto_request(const char *socket_path, struct json_object *req, const int *fds,
		  size_t n_fds, int timeout_ms, size_t max, struct json_object **ret_answer)
{
	struct proto_message answer = { .n_fds = 0 };
	_cleanup_close_ int sock = -1;
	const char *why = NULL;
	int r, sent;

	r = proto_connect(socket_path, &sock);
	if (r < 0)
		return r;
	sent = proto_send(sock, req, fds, n_fds);
	/* A daemon that refuses us closes at once: its answer says why. */
	if (sent < 0 && sent != -EPIPE)
		return sent;
	shutdown(sock, SHUT_WR);
	r = proto_read(sock, timeout_ms, max, &answer, &why);
	if (r < 0)
		return sent < 0 ? sent : -EPROTO;
	/* Nothing comes back with an answer: any fd is the daemon's mistake, closed. */
	*ret_answer = steal_pointer(&answer.json);
	proto_message_release(&answer);
	return 0;
}
