/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client side of unotifyd's socket: `unotify run --daemon` hands a
 * spawned program's listener over as an OCI runtime would (one container
 * process state, the listener in SCM_RIGHTS) and reads the daemon's
 * answer, which runtimes ignore but which lets `run` say what happened;
 * `unotify status` and the bench ask for the daemon's status.
 *
 * The program's notified calls wait in the kernel until the daemon
 * receives them; if the hand-off fails, closing the listener makes them
 * fail with ENOSYS (fail closed), so on failure kill the program.
 */
#ifndef UNOTIFY_CLIENT_H
#define UNOTIFY_CLIENT_H

#include <sys/types.h>

struct json_object;

/*
 * The file of the named policy: dir/NAME.policy (dir NULL: the default
 * policy directory). -EINVAL for a name that is not valid.
 */
int client_policy_path(const char *dir, const char *name, char **ret_path);

/*
 * Sends the container process state for pid with listener_fd (borrowed: the
 * caller closes its copy once this returns) to the daemon at socket_path
 * (NULL: the default socket), metadata "policy=NAME", and waits for the
 * answer. Returns:
 *   0             the daemon supervises the program with that policy;
 *   -ENODATA      the daemon has no usable policy NAME: it supervises the
 *                 program fail closed (every notified call is denied);
 *   -EACCES       the daemon refused us (not root nor in --allow-group);
 *   -ECONNREFUSED / -ENOENT from connect: no daemon at socket_path;
 *   -EPROTO       the daemon's answer was not understood (or none in 5 s);
 *   other -errno  sending failed.
 */
int client_register(const char *socket_path, const char *policy_name, int listener_fd,
		    pid_t pid);

/* {"request":"status"}: the daemon's answer (the caller's), within timeout_ms. */
int client_status(const char *socket_path, int timeout_ms, struct json_object **ret);

/* A sentence for the error codes above. */
const char *client_strerror(int r);

#endif
