/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Registrations (registration.c): an OCI container process state with its
 * listener, from a runtime or `unotify run --daemon`, becomes a sandbox.
 */
#ifndef UNOTIFYD_REGISTRATION_H
#define UNOTIFYD_REGISTRATION_H

#include <sys/socket.h>

#include "daemon.h"
#include "protocol/protocol.h"

/*
 * Handles a registration on its connection thread; returns when the sandbox
 * ends. Answers on *conn and closes it (leaving -1) as soon as it can, and
 * closes every fd of m it does not keep.
 */
int registration_handle(struct daemon *d, int *conn, const struct ucred *cred,
			struct proto_message *m);

#endif
