/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unotifyd's configuration and the state its threads share.
 *
 * Threads: the main thread owns the listening socket, signals, readiness and
 * the watchdog. Each accepted connection gets a short-lived thread (peer.c)
 * that reads one message under a deadline; a registration turns that thread
 * into the sandbox's supervisor, blocking in SECCOMP_IOCTL_NOTIF_RECV on its
 * one listener for as long as the sandbox lives (docs/DAEMON.md says why).
 */
#ifndef UNOTIFYD_DAEMON_H
#define UNOTIFYD_DAEMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "audit/audit.h"
#include "lib/unotify.h"
#include "pending.h"
#include "user-budget.h"

struct policy_set;

#define DAEMON_CLIENT_TIMEOUT_MS 2000   /* a connection must deliver its message by then */
#define DAEMON_MAX_PENDING 128          /* connections being read at once, beyond: saturated */
#define DAEMON_MAX_PENDING_HARD 256     /* never more: accepting waits (pending.c) */
/* One uid holds at most this much below saturation and its share on the other side above. */
_Static_assert(DAEMON_MAX_PENDING + PENDING_PER_UID < DAEMON_MAX_PENDING_HARD,
	       "one uid could fill the accept limit");

struct daemon_config {
	const char *socket_path;
	mode_t socket_mode;
	gid_t socket_gid;               /* (gid_t)-1: leave as created */
	const char *policy_dir;
	const char *default_policy;
	gid_t allow_gids[16];
	size_t n_allow_gids;
	const char *log_path;           /* audit trail file, NULL: stderr or the journal */
	enum audit_format log_format;
	bool log_format_set;
	enum audit_level log_level; /* --log-level (default: deny) */
	struct audit_budget log_limit; /* --log-limit, per sandbox */
	bool sync;                      /* same-CPU hand-off on each listener */
	unsigned int sandbox_threads;   /* the most supervising threads of one sandbox */
	bool harden;
	bool audit_sync;       /* --audit-sync: no writer thread */
	bool seccomp_kill;              /* the daemon's own filter kills instead of EPERM */
	bool allow_shared_pid;          /* supervise sandboxes in our pid namespace */
	int client_timeout_ms;
};

struct daemon {
	struct daemon_config config;
	struct unotify_features features;
	struct audit *audit;
	struct user_budgets budgets;     /* the trail's, of users who register sandboxes */
	uint64_t started_ns;             /* CLOCK_MONOTONIC */

	pthread_mutex_t lock;            /* policies and the sandbox list */
	struct policy_set *policies;
	struct sandbox *sandboxes;       /* doubly linked, newest first */
	size_t sandboxes_active;
	uint64_t sandboxes_total;

	atomic_uint pending;             /* connections being read (the accept limit) */
	struct pending_table clients;    /* the same, per client (its share of the limit) */
	/*
	 * Connection threads alive, from before pthread_create to their last
	 * instruction: reading, registering, answering or supervising. The
	 * policies and the audit trail are freed at shutdown only when this is
	 * 0 (pending drops once a message is read, before a registration counts
	 * as a sandbox: it cannot tell whether a thread still uses them).
	 */
	atomic_uint workers;
	atomic_ullong connections;
	atomic_ullong rejected;          /* dropped clients */
	atomic_uint generation;          /* bumped on any change STATUS= shows */
};

/* Current policy set, referenced (policies_unref when done). */
struct policy_set *daemon_policies(struct daemon *d);
uint64_t daemon_now_ns(void);

#endif
