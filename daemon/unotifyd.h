/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unotifyd internals: the pieces of the daemon and the state they share.
 *
 * Threads: the main thread owns the listening socket, signals, readiness and
 * the watchdog. Each accepted connection gets a short-lived thread (peer.c)
 * that reads one message under a deadline; a registration turns that thread
 * into the sandbox's supervisor, blocking in SECCOMP_IOCTL_NOTIF_RECV on its
 * one listener for as long as the sandbox lives (docs/DAEMON.md says why).
 */
#ifndef UNOTIFYD_H
#define UNOTIFYD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <syslog.h>

#include "lib/unotify.h"
#include "audit.h"
#include "enforce.h"

struct json_object;

/* ---- Configuration (unotifyd.c) ---- */

#define DAEMON_MAX_MESSAGE (64 * 1024)  /* one OCI state or control request */
#define DAEMON_MAX_FDS 8                /* SCM_RIGHTS fds accepted with one message */
#define DAEMON_CLIENT_TIMEOUT_MS 2000   /* a connection must deliver its message by then */
#define DAEMON_MAX_PENDING 128          /* connections still being read at once */

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
	bool sync;                      /* same-CPU hand-off on each listener */
	bool harden;
	bool audit_sync;       /* --audit-sync: no writer thread */
	bool seccomp_kill;              /* the daemon's own filter kills instead of EPERM */
	int client_timeout_ms;
};

/* ---- Daemon log (log.c): the daemon's own messages, not the audit trail ---- */

/* journal_prefix: stderr goes to the journal, prefix lines with <N>. */
void log_setup(bool journal_prefix, bool verbose);
void log_msg(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
/* Copies untrusted text for a log line: non-printable bytes as \xNN, truncated. */
const char *log_escape(const char *in, char *buf, size_t size);
/* Is stderr connected to the journal? */
bool log_stderr_is_journal(void);
/* ... or are we a systemd service at all (INVOCATION_ID)? */
bool log_under_systemd(void);

/* ---- Policies (policies.c): every NAME.policy of the policy directory ---- */

struct policy_entry {
	atomic_int refs;
	char *name;
	struct policy *policy;  /* NULL: unusable (error says why) */
	char *error;
};

struct policy_set;

/*
 * Loads every *.policy file of dir. A file that does not parse is reported
 * (every diagnostic logged) and, when old has a good version of it, that
 * version is kept. Returns the number of broken files.
 */
int policies_load(const char *dir, const struct policy_set *old, struct policy_set **ret);
void policies_unref(struct policy_set *s);
struct policy_set *policies_ref(struct policy_set *s);
/* A reference to the entry named name, or -ENOENT. */
int policies_lookup(const struct policy_set *s, const char *name, struct policy_entry **ret);
void policy_entry_unref(struct policy_entry *e);
size_t policies_count(const struct policy_set *s, size_t *ret_broken);
/* [{"name":..., "status":"ok"|"broken", "error":...}] */
struct json_object *policies_to_json(const struct policy_set *s);

/* ---- The daemon's shared state (unotifyd.c) ---- */

struct daemon {
	struct daemon_config config;
	struct unotify_features features;
	struct audit *audit;
	uint64_t started_ns;             /* CLOCK_MONOTONIC */

	pthread_mutex_t lock;            /* policies and the sandbox list */
	struct policy_set *policies;
	struct sandbox *sandboxes;       /* doubly linked, newest first */
	size_t sandboxes_active;
	uint64_t sandboxes_total;

	atomic_uint pending;             /* connections being read */
	atomic_ullong connections;
	atomic_ullong rejected;          /* dropped clients */
	atomic_uint generation;          /* bumped on any change STATUS= shows */
};

/* Current policy set, referenced (policies_unref when done). */
struct policy_set *daemon_policies(struct daemon *d);
uint64_t daemon_now_ns(void);

/* ---- Peers (peer.c): one thread per connection ---- */

struct peer_message {
	char *data;
	size_t len;
	struct json_object *json;
	int fds[DAEMON_MAX_FDS];
	size_t n_fds;
};

/* The peer's credentials as it connected (SO_PEERCRED). */
int peer_credentials(int fd, struct ucred *ret);
/* Root, or a member of an --allow-group (primary, or supplementary by SO_PEERGROUPS)? */
bool peer_allowed(const struct daemon_config *c, int fd, const struct ucred *cred);
/* Reads one message under the deadline; every problem is -errno and *ret_why. */
int peer_read_message(int fd, int timeout_ms, struct peer_message *ret, const char **ret_why);
void peer_message_release(struct peer_message *m);
/* Hands an accepted, allowed connection to a new thread. Takes conn. */
int peer_spawn(struct daemon *d, int conn, const struct ucred *cred);
/* Sends a JSON reply (best effort: runtimes close right after sending). */
void peer_reply(int fd, struct json_object *reply);
/* Sends {"ok":false,"error":why}. */
void peer_reply_error(int fd, const char *why);

/* ---- OCI container process state (oci.c) ---- */

struct oci_state {
	char *id;
	pid_t pid;
	char *metadata;          /* NULL when absent */
	char *status;
	char *bundle;
	int seccomp_fd;
};

/* Is this message an OCI state (as opposed to a control request)? */
bool oci_state_detect(struct json_object *msg);
/*
 * Validates msg and takes the fd named seccompFd out of fds (index by index
 * with the `fds` names). Every other fd is left in place for the caller to
 * close. -EBADMSG with *ret_why on a malformed message.
 */
int oci_state_parse(struct json_object *msg, int *fds, size_t n_fds, struct oci_state *ret,
		    const char **ret_why);
void oci_state_release(struct oci_state *s);
/* The policy name the metadata selects: "policy=NAME", or -EINVAL. */
int oci_metadata_policy(const char *metadata, char *buf, size_t size);
/*
 * Handles a registration on its connection thread; returns when the sandbox
 * ends. Answers on *conn and closes it (leaving -1) as soon as it can.
 */
int oci_register(struct daemon *d, int *conn, const struct ucred *cred, struct peer_message *m);
/* Is this fd a seccomp notification listener? */
bool oci_fd_is_listener(int fd);

/* ---- Sandboxes (sandbox.c) ---- */

struct sandbox_params {
	const char *id;
	pid_t pid;
	const char *policy_name;
	struct policy_entry *policy;   /* referenced, NULL: fail closed */
	const char *fail_reason;
};

/*
 * Registers a sandbox around listener_fd (taken), acknowledges it on *conn
 * and closes that (leaving -1), then supervises it in the calling thread
 * until its last task is gone. Returns 0 then, or -errno.
 */
int sandbox_run(struct daemon *d, int listener_fd, const struct sandbox_params *p, int *conn);
/* [{"id":..., "pid":..., ...}] of the sandboxes alive, under d->lock. */
struct json_object *sandboxes_to_json(struct daemon *d);

/* ---- Control requests (control.c) ---- */

bool control_detect(struct json_object *msg);
int control_handle(struct daemon *d, int conn, struct json_object *msg);

/* ---- The listening socket (listen.c) ---- */

/* Socket activation (one AF_UNIX stream socket) or a socket of our own. */
int listen_open(const struct daemon_config *c, int *ret_fd, bool *ret_activated);
/* Removes the socket file when we created it. */
void listen_close(const struct daemon_config *c, int fd, bool activated);

/* ---- systemd (notify.c, or notify-none.c without libsystemd) ---- */

/* The socket passed by the service manager: 1 and *ret_fd, 0 when none, or -errno. */
int notify_listen_fds(int *ret_fd);
void notify_ready(void);
void notify_reloading(void);
void notify_stopping(void);
void notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Interval at which WATCHDOG=1 is due (half of WATCHDOG_USEC), 0 when off. */
uint64_t notify_watchdog_interval_usec(void);
void notify_watchdog(void);

/* ---- Self-hardening (harden.c) ---- */

/*
 * Capabilities, no_new_privs and the daemon's own seccomp filter, whose
 * default action is EPERM, or killing the daemon when seccomp_kill.
 */
int harden_apply(bool seccomp_kill);
/* The capabilities kept, for the log and the man page. */
const char *harden_caps_kept(void);

#endif
