/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clients of the socket, trusted for nothing: SO_PEERCRED decides who may
 * talk at all (root, or a member of --allow-group); each connection then gets
 * its own short-lived thread that reads exactly one message, of bounded size,
 * under a deadline, so a client that sends nothing, garbage or a megabyte
 * delays no one else. Every fd that arrives and is not used is closed, by
 * closing_close() (a close may wait as long as the client makes it).
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

#include "closing.h"
#include "control.h"
#include "lib/util.h"
#include "log.h"
#include "peer.h"
#include "protocol/oci-state.h"
#include "protocol/protocol.h"
#include "registration.h"

#define PEER_THREAD_STACK (256 * 1024)
#define PEER_SEND_TIMEOUT_S 2

struct peer_conn {
	struct daemon *daemon;
	int conn;
	struct ucred cred;
	struct pending_key key; /* its client's share of the connections being read */
};

bool peer_gid_allowed(const struct daemon_config *c, gid_t gid)
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

/*
 * The kinds of message a client may send, as OpenSSH's monitor dispatches
 * its requests: how each is recognised, how many fds may come with it, and
 * who handles it. A message of no kind, or with more fds than its kind
 * allows, is dropped with an answer saying why.
 */
struct peer_kind {
	const char *name;
	bool (*detect)(struct json_object *msg);
	size_t max_fds;
	/* Answers on *conn; may close it early (leaving -1). Negative: a rejected client. */
	int (*handle)(struct daemon *d, int *conn, const struct ucred *cred,
		      struct proto_message *m);
};

static int peer_handle_control(struct daemon *d, int *conn, const struct ucred *cred,
			       struct proto_message *m)
{
	return control_handle(d, *conn, cred->uid, m->json);
}

static const struct peer_kind peer_kinds[] = {
	{ "control request", control_detect, 0, peer_handle_control },
	{ "OCI state", oci_state_detect, PROTO_MAX_FDS, registration_handle },
};

static void peer_drop(struct peer_conn *c, const char *why)
{
	log_client_warning("client pid=%d uid=%u: dropped: %s", (int)c->cred.pid, c->cred.uid, why);
	atomic_fetch_add(&c->daemon->rejected, 1);
	proto_reply_error(c->conn, why);
}

static void peer_dispatch(struct peer_conn *c, struct proto_message *m)
{
	char why[128];

	for (size_t i = 0; i < ARRAY_SIZE(peer_kinds); i++) {
		const struct peer_kind *k = &peer_kinds[i];

		if (!k->detect(m->json))
			continue;
		if (m->n_fds > k->max_fds) {
			snprintf(why, sizeof(why), "fds sent with a %s", k->name);
			peer_drop(c, why);
		} else if (k->handle(c->daemon, &c->conn, &c->cred, m) < 0) {
			atomic_fetch_add(&c->daemon->rejected, 1);
		}
		return;
	}
	peer_drop(c, "neither an OCI state nor a control request");
}

static void *peer_thread(void *arg)
{
	struct peer_conn *c = arg;
	struct daemon *d = c->daemon;
	struct proto_message m = { .n_fds = 0 };
	const char *why = "?";
	int r;

	/* A runtime's lines (its sandboxes' FAIL CLOSED ones too) are never held back. */
	log_client_trust(pending_key_is_runtime(&d->clients, &c->key));
	/* The client's descriptors this thread closes count against it (closing.c). */
	closing_serve(d, &c->key);
	r = proto_read(c->conn, d->config.client_timeout_ms, PROTO_MAX_REQUEST, &m, &why);
	pending_release(&d->clients, &c->key);
	atomic_fetch_sub(&d->pending, 1);
	if (r < 0) {
		log_client_warning("client pid=%d uid=%u: dropped: %s", (int)c->cred.pid,
				   c->cred.uid, why);
		atomic_fetch_add(&d->rejected, 1);
		if (r != -ETIMEDOUT)
			proto_reply_error(c->conn, why);
	} else {
		peer_dispatch(c, &m);
	}
	proto_message_release(&m);
	c->conn = closing_close(c->conn);
	free(c);
	/* The last use of the shared state: after this the daemon may free it. */
	atomic_fetch_sub(&d->workers, 1);
	return NULL;
}

int peer_spawn(struct daemon *d, int *conn, const struct ucred *cred,
	       const struct pending_key *key)
{
	struct timeval tv = { .tv_sec = PEER_SEND_TIMEOUT_S };
	struct peer_conn *c = malloc(sizeof(*c));
	pthread_attr_t attr;
	pthread_t t;
	int r;

	if (!c)
		return -ENOMEM;
	*c = (struct peer_conn){ .daemon = d, .conn = *conn, .cred = *cred, .key = *key };
	/* A reader that never reads must not hold a thread forever either. */
	setsockopt(*conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, PEER_THREAD_STACK);
	atomic_fetch_add(&d->pending, 1);
	atomic_fetch_add(&d->workers, 1);
	r = -pthread_create(&t, &attr, peer_thread, c);
	pthread_attr_destroy(&attr);
	if (r < 0) {
		atomic_fetch_sub(&d->workers, 1);
		atomic_fetch_sub(&d->pending, 1);
		free(c);
		return r;
	}
	*conn = -1; /* the thread's now */
	return 0;
}
