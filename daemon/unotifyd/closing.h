/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Closing what a client gave us (closing.c): its connection, and the
 * descriptors it sent with SCM_RIGHTS or left queued on it. The last close
 * of such a descriptor may wait as long as the client likes; these closes
 * are cut short where a signal can cut them, never run on the main
 * thread, and counted against the client while they last. The listening
 * socket is one too: its close releases the connections of its backlog.
 */
#ifndef UNOTIFYD_CLOSING_H
#define UNOTIFYD_CLOSING_H

#include <signal.h>
#include <stdbool.h>

#include "daemon.h"

/* Sent by a closing thread's own timer to itself; a handler without SA_RESTART. */
#define CLOSING_SIGNAL (SIGRTMIN + 7)
/* Refused connections waiting for a closer thread; beyond, accepting waits. */
#define CLOSING_QUEUE 512

/* Once, before any thread: installs the signal's handler. */
int closing_init(void);

/*
 * Closes fd, a client's connection or a descriptor it sent, with a timer
 * of this thread's own interrupting any wait a signal ends (a socket's
 * SO_LINGER, also reached through the descriptors queued on a closed
 * unix socket). Returns -1 for `fd = closing_close(fd);`. While it lasts,
 * the close counts as a connection of the client this thread serves
 * (closing_serve), so closes no signal ends use up that client's share.
 */
int closing_close(int fd);
/* Such closes under way now; one that lasts is a wait no signal ends. */
unsigned int closing_in_progress(void);
/* The client this thread closes for, until the thread ends (peer.c). */
void closing_serve(struct daemon *d, const struct pending_key *key);

/*
 * The main thread's refusals: a closer thread sends reply (a static
 * string, NULL for none) and closes *conn, which it takes (-1 left).
 * closing_has_room() first: only the main thread hands over, so room it
 * saw stays.
 */
int closing_start(void);
bool closing_has_room(void);
void closing_hand_over(int *conn, const char *reply);
/* At shutdown: lets the closers finish the queue, for at most about timeout_ms. */
void closing_stop(int timeout_ms);
/* Closes fd (closing_close) in a thread of its own, not waited for. Returns -1. */
int closing_apart(int fd);

#endif
