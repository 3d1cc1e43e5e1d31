/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls performed on a target's behalf, other than opens: the target object
 * shared by emulate-path.c (resolution), emulate-stat.c, emulate-mutate.c
 * and emulate-net.c. Private to lib/.
 */
#ifndef UNOTIFY_EMULATE_H
#define UNOTIFY_EMULATE_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"
#include "unotify.h"

struct unotify_target {
	unotify_listener *l;
	uint64_t id;        /* the notification: what we read is the target's while it is pending */
	struct target t;
	int pidfd;          /* -1 until a fd of the target is needed */
};

/*
 * Acting as the target for one call: emulate_enter() puts its credentials,
 * root and umask on this thread; emulate_leave() restores ours and returns
 * r, or -ENOTRECOVERABLE when the thread could not be restored.
 */
int emulate_enter(unotify_target *t, struct target_saved *s);
int emulate_leave(struct target_saved *s, int r);

/* "self/fd/N" for one of our fds, to be looked up relative to target_proc_fd(). */
void emulate_fd_link(int fd, char *buf, size_t size);

#endif
