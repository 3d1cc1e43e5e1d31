/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Peers (peer.c): one thread per connection, checked by SO_PEERCRED, that
 * reads one message and hands it to the handler of its kind.
 */
#ifndef UNOTIFYD_PEER_H
#define UNOTIFYD_PEER_H

#include <stdbool.h>
#include <sys/socket.h>

#include "daemon.h"

/* The peer's credentials as it connected (SO_PEERCRED). */
int peer_credentials(int fd, struct ucred *ret);
/* gid is one of the --allow-groups. */
bool peer_gid_allowed(const struct daemon_config *c, gid_t gid);
/* Root, or a member of an --allow-group (primary, or supplementary by SO_PEERGROUPS)? */
bool peer_allowed(const struct daemon_config *c, int fd, const struct ucred *cred);
/*
 * Hands an accepted, allowed connection to a new thread, which takes *conn
 * (-1 left). On failure *conn stays the caller's, to close off the main
 * thread (closing_hand_over).
 */
int peer_spawn(struct daemon *d, int *conn, const struct ucred *cred,
	       const struct pending_key *key);

#endif
