/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run --daemon [SOCKET] --policy-name NAME`: hand a spawned
 * program's listener to unotifyd through the OCI listenerPath protocol.
 *
 * The daemon decides every notified call, but the kernel layer of the filter
 * is still loaded by `run`: it compiles the same named policy from the same
 * policy directory (run_daemon_policy_path) and spawns the program with it,
 * then calls run_daemon_handoff with the listener, then closes its own copy
 * of the listener and waits for the program as usual:
 *
 *     r = run_daemon_policy_path(NULL, name, &path);     // 125 on error
 *     ... policy_parse_file(path) + policy_finish + policy_compile ...
 *     r = unotify_spawn(&attr, &child);
 *     r = run_daemon_handoff(socket, name, child.listener_fd, child.pid);
 *     if (r < 0) fprintf(stderr, "unotify: %s\n", run_daemon_strerror(r));
 *     close(child.listener_fd);    // the daemon holds its own copy now
 *     ... unotify_child_wait(&child) ...
 *
 * The program's notified calls wait in the kernel until the daemon receives
 * them; if the hand-off fails, closing the listener makes them fail with
 * ENOSYS (fail closed), so on failure kill the program and exit 125.
 */
#ifndef UNOTIFY_RUN_DAEMON_H
#define UNOTIFY_RUN_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

#define RUN_DAEMON_SOCKET_DEFAULT RUNSTATEDIR "/unotifyd/unotifyd.sock"
#define RUN_DAEMON_POLICY_DIR_DEFAULT SYSCONFDIR "/unotify/policies"
#define RUN_DAEMON_POLICY_NAME_MAX 64

/* [A-Za-z0-9][A-Za-z0-9_.-]* of at most 64 bytes: a name, never a path. */
bool run_daemon_policy_name_valid(const char *name);

/*
 * The file of the named policy: dir/NAME.policy (dir NULL: the default
 * policy directory). -EINVAL for a name that is not valid.
 */
int run_daemon_policy_path(const char *dir, const char *name, char **ret_path);

/*
 * Sends the OCI container process state for pid with listener_fd (which is
 * not closed) to the daemon at socket_path (NULL: the default socket), with
 * metadata "policy=NAME", and waits for the daemon's answer. Returns:
 *   0             the daemon supervises the program with that policy;
 *   -ENODATA      the daemon has no usable policy NAME: it supervises the
 *                 program fail closed (every notified call is denied);
 *   -EACCES       the daemon refused us (not root nor in --allow-group);
 *   -ECONNREFUSED / -ENOENT from connect: no daemon at socket_path;
 *   -EPROTO       the daemon's answer was not understood (or none in 5 s);
 *   other -errno  sending failed.
 */
int run_daemon_handoff(const char *socket_path, const char *policy_name, int listener_fd,
		       pid_t pid);

/* Connects a stream socket to the daemon at path (also used by `unotify status`). */
int run_daemon_connect(const char *path, int *ret_fd);

/* A sentence for the error codes above. */
const char *run_daemon_strerror(int r);

#endif
