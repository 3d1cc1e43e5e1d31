/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The socket protocol unotifyd and its clients speak (`unotify run
 * --daemon`, `unotify status`, the bench's daemon mode, OCI runtimes): on
 * one AF_UNIX stream connection the client sends one JSON object, fds in
 * SCM_RIGHTS with its first bytes, and the daemon answers with one JSON
 * object and closes. Both directions are read by proto_read(): bounded in
 * size, depth and fds, under one deadline for the whole message.
 */
#ifndef UNOTIFY_PROTOCOL_H
#define UNOTIFY_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

#define PROTO_SOCKET_DEFAULT RUNSTATEDIR "/unotifyd/unotifyd.sock"
#define PROTO_POLICY_DIR_DEFAULT SYSCONFDIR "/unotify/policies"
#define PROTO_SOCKET_ENV "UNOTIFY_SOCKET"
#define PROTO_POLICY_DIR_ENV "UNOTIFY_POLICY_DIR"
#define PROTO_POLICY_NAME_MAX 64
#define PROTO_MAX_REQUEST (64 * 1024)        /* one OCI state or control request */
#define PROTO_MAX_ANSWER (16 * 1024 * 1024)  /* a status answer lists every sandbox */
#define PROTO_MAX_FDS 8                      /* SCM_RIGHTS fds accepted with one message */

struct proto_message {
	struct json_object *json;
	int fds[PROTO_MAX_FDS]; /* owned: proto_message_release() closes those left */
	size_t n_fds;
};

/*
 * The daemon's socket when no --socket names one, for unotifyd and its
 * clients alike: $UNOTIFY_SOCKET when set and not empty, else
 * PROTO_SOCKET_DEFAULT. So a private daemon and the commands that talk to
 * it agree without repeating --socket on every line.
 */
const char *proto_socket_default(void);
/* unotifyd's policy directory when no --policy-dir: $UNOTIFY_POLICY_DIR, else the built-in one. */
const char *proto_policy_dir_default(void);

/* [A-Za-z0-9][A-Za-z0-9_.-]* of at most 64 bytes: a name, never a path. */
bool proto_policy_name_valid(const char *name);

/* A stream socket connected to the daemon at path; the caller owns *ret_fd. */
int proto_connect(const char *path, int *ret_fd);

/*
 * Reads one JSON object of at most max bytes (whitespace around it allowed)
 * before timeout_ms, keeping at most PROTO_MAX_FDS fds. Every problem is a
 * -errno with a sentence in *ret_why (-ETIMEDOUT when nothing complete came
 * in time). On failure nothing is kept: received fds are closed.
 */
int proto_read(int fd, int timeout_ms, size_t max, struct proto_message *ret,
	       const char **ret_why);
void proto_message_release(struct proto_message *m);
/*
 * How proto_read() and proto_message_release() close the fds a peer sent
 * (default safe_close): the daemon's own, since such a close may wait as
 * long as the peer likes. Set once, before any thread reads.
 */
void proto_set_fd_closer(int (*close_fd)(int fd));

/*
 * Sends msg as compact JSON and a newline, with fds (borrowed, not closed)
 * attached to its first bytes. -EPIPE when the peer closed first (a daemon
 * that refuses a client closes at once; its answer may still be readable).
 */
int proto_send(int fd, struct json_object *msg, const int *fds, size_t n_fds);

/* Best effort: answers once, then the connection is done (runtimes close at once). */
void proto_reply(int fd, struct json_object *reply);
/* {"ok":false,"error":why} */
/*
 * The refusal of a connection the daemon will not read now, its client's
 * share of connections being read taken: the client may try again.
 */
#define PROTO_ERROR_BUSY "busy: too many connections being read; try again"
void proto_reply_error(int fd, const char *why);

/*
 * A client's whole exchange: connect to socket_path, send req with fds,
 * half-close, read the answer (at most max bytes) within timeout_ms.
 * *ret_answer is the caller's (json_object_put).
 */
int proto_request(const char *socket_path, struct json_object *req, const int *fds,
		  size_t n_fds, int timeout_ms, size_t max, struct json_object **ret_answer);

#endif
