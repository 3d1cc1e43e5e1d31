/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The listening socket (listen.c).
 */
#ifndef UNOTIFYD_LISTEN_H
#define UNOTIFYD_LISTEN_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon.h"

/* Socket activation (one AF_UNIX stream socket) or a socket of our own. */
int listen_open(const struct daemon_config *c, int *ret_fd, bool *ret_activated);
/* The socket's address, for messages: its path, or @name when abstract. */
const char *listen_name(int fd, char *buf, size_t size);
/* Removes the socket file when we created it. */
void listen_close(const struct daemon_config *c, int fd, bool activated);

#endif
