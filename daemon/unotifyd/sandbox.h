/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sandboxes (sandbox.c): one listener, one supervising thread, until its
 * last task is gone.
 */
#ifndef UNOTIFYD_SANDBOX_H
#define UNOTIFYD_SANDBOX_H

#include <sys/types.h>

#include "daemon.h"
#include "policies.h"

struct json_object;

struct sandbox_params {
	const char *id;
	pid_t pid;
	const char *policy_name;
	struct policy_entry *policy;   /* referenced, NULL: fail closed */
	const char *fail_reason;
	int root_fd;                   /* taken by sandbox_run: the sandbox's pinned root, or -1 */
	bool filter_is_policy;         /* its filter is policy's kernel layer (run --daemon) */
	bool creds_watched;            /* and notifies every credential change (registration.c) */
	uid_t registrant;              /* the client's uid: its sandboxes share a budget */
};

/*
 * Registers a sandbox around listener_fd (taken), acknowledges it on *conn
 * and closes that (leaving -1), then supervises it in the calling thread
 * until its last task is gone. Returns 0 then, or -errno.
 */
int sandbox_run(struct daemon *d, int listener_fd, const struct sandbox_params *p, int *conn);
/*
 * [{"id":..., "pid":..., ...}] of the sandboxes alive, under d->lock: for
 * root every one, for another uid those it registered (a member of an
 * --allow-group, or a program it sandboxed, learns nothing of the others').
 */
struct json_object *sandboxes_to_json(struct daemon *d, uid_t asker);
/*
 * The daemon stops with sandboxes running: what their budgets hold back is
 * summed up in the trail, and every record queued is written out.
 */
void sandboxes_flush_audit(struct daemon *d);

#endif
