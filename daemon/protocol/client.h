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

#include <stdint.h>
#include <sys/types.h>
#include <linux/filter.h>

struct json_object;


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
/*
 * The same for a program started with the kernel layer client_kernel_layer()
 * gave (serial: its version of the policy): a daemon whose policy changed
 * since supervises fail closed (-ENODATA). *ret_why (may be NULL; the
 * caller's to free) is the daemon's reason when it did.
 */
int client_register_serial(const char *socket_path, const char *policy_name, uint64_t serial,
			   int listener_fd, pid_t pid, char **ret_why);

/*
 * The kernel layer of the daemon's policy NAME (kernel-layer.h), checked:
 * *ret (ret->filter the caller's to free()) and its *ret_serial. Or:
 *   -ENOENT       the daemon has no policy NAME,
 *   -ENODATA      its policy NAME is broken,
 *   -EACCES, -ECONNREFUSED, -ENOENT, -EPROTO as for client_register,
 * with *ret_why a sentence for the user (the caller's to free; the names
 * the daemon has, when it refused the name).
 */
int client_kernel_layer(const char *socket_path, const char *policy_name, struct sock_fprog *ret,
			uint64_t *ret_serial, char **ret_why);
/*
 * The same with the Landlock layer (kernel-layer-landlock.h): the filter
 * built with the layer of the daemon's policy for Landlock ABI abi, without
 * the families in off, and *ret_ll its ruleset (the caller frees it with
 * kernel_layer_landlock_free; empty when the daemon has no Landlock layer).
 */
struct kernel_layer_landlock;
int client_kernel_layer_landlock(const char *socket_path, const char *policy_name, int abi,
				 unsigned int off, struct sock_fprog *ret, uint64_t *ret_serial,
				 struct kernel_layer_landlock *ret_ll, char **ret_why);

/* {"request":"status"}: the daemon's answer (the caller's), within timeout_ms. */
int client_status(const char *socket_path, int timeout_ms, struct json_object **ret);

/* A sentence for the error codes above. */
const char *client_strerror(int r);

#endif
