/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unotifyd: supervises many sandboxes at once, for `unotify run --daemon` and
 * for containers whose OCI seccomp profile names its socket as listenerPath.
 *
 * The main thread: options, policies, the socket, hardening, readiness, then
 * a poll loop over the socket (accept, check the peer, hand the connection to
 * a thread), signals (SIGHUP reloads, SIGTERM/SIGINT stop) and the watchdog.
 * Only main() exits.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/prctl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "closing.h"
#include "daemon.h"
#include "harden.h"
#include "lib/util.h"
#include "listen.h"
#include "log.h"
#include "notify.h"
#include "peer.h"
#include "policies.h"
#include "protocol/protocol.h"
#include "sandbox.h"

#define STATUS_TICK_MS 1000
#define CONTINUE (-1) /* from the start-up steps: no exit code yet */
#define ACCEPT_PAUSE_MS 100

static struct daemon daemon_state;

uint64_t daemon_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct policy_set *daemon_policies(struct daemon *d)
{
	struct policy_set *s;

	pthread_mutex_lock(&d->lock);
	s = d->policies ? policies_ref(d->policies) : NULL;
	pthread_mutex_unlock(&d->lock);
	return s;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: unotifyd [OPTIONS]\n"
		"Supervise seccomp user notifications for many sandboxes (OCI listenerPath).\n\n"
		"  --socket PATH          listen here (default: $UNOTIFY_SOCKET, else\n"
		"                         %s)\n"
		"  --socket-mode MODE     octal mode of the socket (default 0660)\n"
		"  --socket-group GROUP   group of the socket (default: the first --allow-group)\n"
		"  --allow-group GROUP    may register and query (repeatable; root always may)\n"
		"  --policy-dir DIR       NAME.policy files (default: $UNOTIFY_POLICY_DIR,\n"
		"                         else %s)\n"
		"  --default-policy NAME  policy when there is no metadata (default \"default\")\n"
		"  --log FILE             audit trail to FILE (default: the journal under\n"
		"                         systemd, else stderr)\n"
		"  --log-format FORMAT    text, json or journal\n"
		"  --log-level LEVEL      deny (default: denials, kills, log rules), all\n"
		"                         or none\n"
		"  --log-limit SIZE/SECS  per sandbox, at most SIZE bytes of records (K, M,\n"
		"                         G) per SECS seconds, the rest counted (default\n"
		"                         " AUDIT_BUDGET_DEFAULT "), or none\n"
		"  --audit-sync           write each audit record before replying (slower;\n"
		"                         default: a writer thread, within 5 ms)\n"
		"  --no-sync              do not use the same-CPU hand-off (SYNC_WAKE_UP)\n"
		"  --sandbox-threads N    at most N supervising threads per sandbox (default\n"
		"                         16); a call that blocks holds the others only with 1\n"
		"  --client-timeout MS    drop clients silent for MS milliseconds (default %d)\n"
		"  --seccomp-default ACT  the daemon's own filter: errno (default) or kill\n"
		"  --no-harden            keep capabilities, no seccomp filter (debugging only)\n"
		"  --allow-shared-pid     supervise sandboxes in the daemon's own pid namespace\n"
		"                         (they can reach the daemon and every sandbox)\n"
		"  -t, --check            load the policies, report, exit (1 if one is broken)\n"
		"  -v, --verbose          debug messages\n"
		"  -h, --help, -V, --version\n",
		PROTO_SOCKET_DEFAULT, PROTO_POLICY_DIR_DEFAULT, DAEMON_CLIENT_TIMEOUT_MS);
}

static int parse_group(const char *s, gid_t *ret)
{
	struct group *g = getgrnam(s);
	char *end;
	long v;

	if (g) {
		*ret = g->gr_gid;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0)
		return -EINVAL;
	*ret = (gid_t)v;
	return 0;
}

enum {
	OPT_SOCKET = 256, OPT_SOCKET_MODE, OPT_SOCKET_GROUP, OPT_ALLOW_GROUP, OPT_POLICY_DIR,
	OPT_DEFAULT_POLICY, OPT_LOG, OPT_LOG_FORMAT, OPT_NO_SYNC, OPT_CLIENT_TIMEOUT,
	OPT_SECCOMP_DEFAULT, OPT_NO_HARDEN, OPT_AUDIT_SYNC, OPT_LOG_LEVEL, OPT_ALLOW_SHARED_PID,
	OPT_SANDBOX_THREADS, OPT_LOG_LIMIT,
};

static const struct option options[] = {
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "socket-mode", required_argument, NULL, OPT_SOCKET_MODE },
	{ "socket-group", required_argument, NULL, OPT_SOCKET_GROUP },
	{ "allow-group", required_argument, NULL, OPT_ALLOW_GROUP },
	{ "policy-dir", required_argument, NULL, OPT_POLICY_DIR },
	{ "default-policy", required_argument, NULL, OPT_DEFAULT_POLICY },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "log-format", required_argument, NULL, OPT_LOG_FORMAT },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "log-limit", required_argument, NULL, OPT_LOG_LIMIT },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "sandbox-threads", required_argument, NULL, OPT_SANDBOX_THREADS },
	{ "client-timeout", required_argument, NULL, OPT_CLIENT_TIMEOUT },
	{ "seccomp-default", required_argument, NULL, OPT_SECCOMP_DEFAULT },
	{ "no-harden", no_argument, NULL, OPT_NO_HARDEN },
	{ "audit-sync", no_argument, NULL, OPT_AUDIT_SYNC },
	{ "allow-shared-pid", no_argument, NULL, OPT_ALLOW_SHARED_PID },
	{ "check", no_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

static const char *option_name(int val)
{
	for (const struct option *o = options; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

struct cli {
	bool check;
	bool verbose;
	bool socket_group_set;
};

/* One option into the configuration; -EINVAL with a message on a bad value. */
static int parse_one(int opt, const char *arg, struct daemon_config *c, struct cli *cli)
{
	char *end;
	long v;

	switch (opt) {
	case OPT_SOCKET: c->socket_path = arg; return 0;
	case OPT_POLICY_DIR: c->policy_dir = arg; return 0;
	case OPT_LOG: c->log_path = arg; return 0;
	case OPT_NO_SYNC: c->sync = false; return 0;
	case OPT_NO_HARDEN: c->harden = false; return 0;
	case OPT_AUDIT_SYNC: c->audit_sync = true; return 0;
	case OPT_ALLOW_SHARED_PID: c->allow_shared_pid = true; return 0;
	case 't': cli->check = true; return 0;
	case 'v': cli->verbose = true; return 0;
	case OPT_SOCKET_MODE:
		v = strtol(arg, &end, 8);
		if (*end || end == arg || v < 0 || v > 0777)
			break;
		c->socket_mode = (mode_t)v;
		return 0;
	case OPT_SOCKET_GROUP:
		cli->socket_group_set = true;
		return parse_group(arg, &c->socket_gid) < 0 ? -EINVAL : 0;
	case OPT_ALLOW_GROUP:
		if (c->n_allow_gids == ARRAY_SIZE(c->allow_gids) ||
		    parse_group(arg, &c->allow_gids[c->n_allow_gids]) < 0)
			break;
		c->n_allow_gids++;
		return 0;
	case OPT_DEFAULT_POLICY:
		if (!proto_policy_name_valid(arg))
			break;
		c->default_policy = arg;
		return 0;
	case OPT_LOG_FORMAT:
		c->log_format_set = true;
		return audit_format_parse(arg, &c->log_format) < 0 ? -EINVAL : 0;
	case OPT_LOG_LEVEL:
		return audit_level_parse(arg, &c->log_level) < 0 ? -EINVAL : 0;
	case OPT_LOG_LIMIT:
		return audit_budget_parse(arg, &c->log_limit) < 0 ? -EINVAL : 0;
	case OPT_CLIENT_TIMEOUT:
		v = strtol(arg, &end, 10);
		if (*end || end == arg || v < 10 || v > 600000)
			break;
		c->client_timeout_ms = (int)v;
		return 0;
	case OPT_SANDBOX_THREADS:
		v = strtol(arg, &end, 10);
		if (*end || end == arg || v < 1 || v > 1024)
			break;
		c->sandbox_threads = (unsigned int)v;
		return 0;
	case OPT_SECCOMP_DEFAULT:
		if (strcmp(arg, "kill") != 0 && strcmp(arg, "errno") != 0)
			break;
		c->seccomp_kill = strcmp(arg, "kill") == 0;
		return 0;
	}
	return -EINVAL;
}

/* CONTINUE to go on, or the exit code. */
static int parse_args(int argc, char **argv, struct daemon_config *c, struct cli *cli)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "tvhV", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return EXIT_SUCCESS;
		}
		if (opt == 'V') {
			printf("unotifyd %s\n", PACKAGE_VERSION);
			return EXIT_SUCCESS;
		}
		if (opt == '?' || parse_one(opt, optarg, c, cli) < 0) {
			if (opt != '?')
				fprintf(stderr, "unotifyd: invalid value for --%s: '%s'\n",
					option_name(opt), optarg);
			fprintf(stderr, "Try 'unotifyd --help'.\n");
			return EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unotifyd: unexpected argument '%s'\n", argv[optind]);
		return EXIT_FAILURE;
	}
	if (!cli->socket_group_set && c->n_allow_gids > 0)
		c->socket_gid = c->allow_gids[0];
	return CONTINUE;
}

/* Daemons serve many clients: take the hard limit of open files (1 fd per sandbox). */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int open_audit(struct daemon *d)
{
	struct daemon_config *c = &d->config;
	enum audit_format f = c->log_format;
	int r;

	if (!c->log_format_set && !c->log_path && log_under_systemd())
		f = AUDIT_JOURNAL;
	r = audit_open(c->log_path, f, &d->audit);
	if (r < 0 && f == AUDIT_JOURNAL && !c->log_path) {
		log_warning("journal not available (%s): audit trail on stderr", strerror(-r));
		r = audit_open(NULL, AUDIT_TEXT, &d->audit);
	}
	if (r < 0) {
		log_error("cannot open the audit trail %s: %s",
			  c->log_path ? c->log_path : "(stderr)", strerror(-r));
		return r;
	}
	audit_set_level(d->audit, c->log_level);
	audit_set_budget(d->audit, &c->log_limit);
	return 0;
}

/*
 * Off the round trip: the supervising threads only copy their line, a
 * thread of its own writes it. Started once hardened: capabilities and
 * the seccomp filter are per thread, and a thread started before
 * harden_apply() keeps every capability and no filter.
 */
static int start_audit_writer(struct daemon *d)
{
	int r = d->config.audit_sync ? 0 : audit_set_async(d->audit);

	if (r < 0)
		log_error("cannot start the audit writer: %s", strerror(-r));
	return r;
}

/* Records the trail lost are said when it closes, as `status` says them while it runs. */
static void daemon_audit_close(struct audit *a)
{
	unsigned long long lost = audit_close(a, NULL);

	if (lost)
		log_error("%llu audit records lost: could not be written: the audit trail is incomplete",
			  lost);
}

static void send_status(struct daemon *d)
{
	struct policy_set *set = daemon_policies(d);
	size_t n, broken, active;
	uint64_t total;

	n = policies_count(set, &broken);
	policies_unref(set);
	pthread_mutex_lock(&d->lock);
	active = d->sandboxes_active;
	total = d->sandboxes_total;
	pthread_mutex_unlock(&d->lock);
	notify_status("%zu sandboxes (%llu since start), %zu policies (%zu broken), "
		      "%llu clients rejected", active, (unsigned long long)total, n, broken,
		      (unsigned long long)atomic_load(&d->rejected));
}

static bool policies_has(const struct policy_set *s, const char *name)
{
	struct policy_entry *e;

	if (policies_lookup(s, name, &e) < 0)
		return false;
	policy_entry_unref(e);
	return true;
}

/* Loads the policy directory; at start (old NULL) a failure is fatal, on reload not. */
static int load_policies(struct daemon *d)
{
	struct policy_set *old = daemon_policies(d), *fresh = NULL;
	size_t n, broken;
	int r;

	r = policies_load(d->config.policy_dir, old, &fresh);
	policies_unref(old);
	if (r < 0) {
		log_error("cannot read the policy directory %s: %s%s", d->config.policy_dir,
			  strerror(-r), old ? " (keeping the policies loaded before)" : "");
		return r;
	}
	pthread_mutex_lock(&d->lock);
	old = d->policies;
	d->policies = fresh;
	pthread_mutex_unlock(&d->lock);
	policies_unref(old);
	n = policies_count(fresh, &broken);
	log_info("%zu policies loaded from %s, %d broken", n, d->config.policy_dir, r);
	if (!policies_has(fresh, d->config.default_policy))
		log_warning(
			"no default policy %s/%s.policy: sandboxes without metadata fail closed",
			d->config.policy_dir, d->config.default_policy);
	atomic_fetch_add(&d->generation, 1);
	return r;
}

/*
 * Accepts every waiting connection (up to the hard limit) and hands each
 * to a thread; while the daemon is saturated, a client, or a uid, that has
 * its share being read already gets no more (pending.c). This thread
 * closes none: a refused connection goes to the closers (closing.c), and
 * each accept waits for room there.
 */
static void accept_clients(struct daemon *d, int listen_fd, uint64_t *pause_until)
{
	while (atomic_load(&d->pending) < DAEMON_MAX_PENDING_HARD && closing_has_room()) {
		struct pending_key key;
		struct ucred cred;
		int conn = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		bool first;
		int r;

		if (conn < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				log_error("accept: %s: pausing %d ms", strerror(errno),
					  ACCEPT_PAUSE_MS);
				*pause_until = daemon_now_ns() + ACCEPT_PAUSE_MS * 1000000ULL;
			}
			return;
		}
		atomic_fetch_add(&d->connections, 1);
		r = peer_credentials(conn, &cred);
		if (r < 0) {
			log_client_warning("client refused: no credentials: %s", strerror(-r));
			closing_hand_over(&conn, NULL);
			continue;
		}
		if (!peer_allowed(&d->config, conn, &cred)) {
			log_client_warning("client pid=%d uid=%u: refused: %s", (int)cred.pid,
					   cred.uid, "not root nor in an --allow-group");
			atomic_fetch_add(&d->rejected, 1);
			closing_hand_over(&conn, "permission denied");
			continue;
		}
		pending_key_of(&cred, &key);
		r = pending_take(&d->clients, &key, atomic_load(&d->pending) >= DAEMON_MAX_PENDING,
				 &first);
		if (r < 0) {
			if (first)
				log_client_warning(
					"client pid=%d uid=%u: refused: %d connections of its %s "
					"being read already (more are told to retry until one ends)",
					(int)cred.pid, cred.uid,
					r == -EUSERS ? PENDING_PER_UID : PENDING_PER_CLIENT,
					r == -EUSERS ? "uid" : "own");
			atomic_fetch_add(&d->rejected, 1);
			/* A burst (a runtime starting many containers) retries; a flood gets no more. */
			closing_hand_over(&conn, PROTO_ERROR_BUSY);
			continue;
		}
		r = peer_spawn(d, &conn, &cred, &key);
		if (r < 0) {
			pending_release(&d->clients, &key);
			log_client_error("client pid=%d: no thread for it: %s", (int)cred.pid,
					 strerror(-r));
			closing_hand_over(&conn, NULL);
		}
	}
}

/* Room in the closer's queue for one more refusal; said once each time it runs out. */
static bool main_closer_keeps_up(void)
{
	static bool paused;
	bool room = closing_has_room();

	if (!room && !paused)
		log_warning("%d refused connections wait to be closed (a client's descriptors "
			    "that close slowly?): accepting waits for the closers",
			    CLOSING_QUEUE);
	else if (room && paused)
		log_info("refused connections closed: accepting again");
	paused = !room;
	return room;
}

static int signals_setup(void)
{
	sigset_t mask;
	int fd;

	/* Blocked here, before any thread, so every thread inherits the mask. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	signal(SIGPIPE, SIG_IGN);
	if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0)
		return -EINVAL;
	fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? negative_errno() : fd;
}

/* The signal that arrived: SIGHUP reloads here; the stop signals are returned. */
static int signals_handle(struct daemon *d, int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGHUP)
			return (int)si.ssi_signo;
		log_info("SIGHUP: reloading policies from %s", d->config.policy_dir);
		notify_reloading();
		load_policies(d);
		notify_ready();
		send_status(d);
	}
	return 0;
}

static int main_loop(struct daemon *d, int listen_fd, int sfd)
{
	uint64_t wd_interval = notify_watchdog_interval_usec() * 1000ULL, next_wd = 0;
	uint64_t pause_until = 0;
	unsigned int shown = atomic_load(&d->generation) - 1;

	for (;;) {
		uint64_t now = daemon_now_ns();
		bool accepting = atomic_load(&d->pending) < DAEMON_MAX_PENDING_HARD &&
				 now >= pause_until && main_closer_keeps_up();
		struct pollfd p[2] = {
			{ .fd = accepting ? listen_fd : -1, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		int timeout = accepting ? STATUS_TICK_MS : ACCEPT_PAUSE_MS / 2, sig;

		if (wd_interval && now >= next_wd) {
			notify_watchdog();
			next_wd = now + wd_interval;
		}
		if (wd_interval && (next_wd - now) / 1000000 < (uint64_t)timeout)
			timeout = (int)((next_wd - now) / 1000000) + 1;
		if (atomic_load(&d->generation) != shown) {
			shown = atomic_load(&d->generation);
			send_status(d);
		}
		if (poll(p, 2, timeout) < 0 && errno != EINTR)
			return negative_errno();
		if (p[1].revents & POLLIN) {
			sig = signals_handle(d, sfd);
			if (sig)
				return sig;
		}
		if (p[0].revents & POLLIN)
			accept_clients(d, listen_fd, &pause_until);
	}
}

/* SIGTERM/SIGINT: stop accepting, tell systemd, say what happens to the sandboxes. */
static void shutdown_daemon(struct daemon *d, int listen_fd, bool activated, int sig)
{
	unsigned int workers;
	size_t active;

	notify_stopping();
	listen_close(&d->config, listen_fd, activated);
	/* Refusals still queued are answered and closed, not left to the exit. */
	closing_stop(1000);
	/*
	 * No new thread can start now (only this thread spawns them). A thread
	 * counted in workers may still read the policies or write the audit
	 * trail, whatever it is doing: only with none left are they freed.
	 */
	workers = atomic_load(&d->workers);
	log_client_flush();
	/* Nothing of the trail left behind: held-back records summed up, the queue written. */
	sandboxes_flush_audit(d);
	if (workers == 0) {
		log_info("%s: stopping, no sandbox supervised", strsignal(sig));
		daemon_audit_close(d->audit);
		d->audit = NULL;
		policies_unref(d->policies);
		d->policies = NULL;
		return;
	}
	pthread_mutex_lock(&d->lock);
	active = d->sandboxes_active;
	pthread_mutex_unlock(&d->lock);
	/*
	 * Supervising threads are blocked in RECV and cannot be woken; the
	 * process exit closes their listeners, and the kernel then fails every
	 * intercepted call of those sandboxes with ENOSYS: fail closed. A
	 * registration still in flight fails the same way. Nothing shared is
	 * freed here, since those threads still use it until the exit.
	 */
	log_warning("%s: stopping with %zu sandboxes supervised and %zu connections in flight: "
		    "their intercepted calls now fail with ENOSYS (fail closed)", strsignal(sig),
		    active, workers > active ? (size_t)(workers - active) : 0);
}

/*
 * Started from a shell, we would keep its terminal as our controlling one,
 * and /dev/tty opened for a sandbox is the opener's terminal: a sandbox
 * that left its own (setsid) got ours. Leave it, so that such an open is
 * ENXIO, as under systemd. TIOCNOTTY by a session leader would hang up the
 * terminal's foreground group: one keeps it, and says so.
 */
static void leave_terminal(void)
{
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	if (getsid(0) == getpid())
		log_warning("a session leader with a controlling terminal: a sandbox's /dev/tty "
			    "opened by the daemon is that terminal (start unotifyd with setsid)");
	else if (ioctl(fd, TIOCNOTTY) < 0)
		log_warning("leaving the controlling terminal: %s", strerror(errno));
	fd = safe_close(fd);
}

static int start_closer(void)
{
	int r = closing_start();

	if (r < 0)
		log_error("the threads that close refused connections: %s", strerror(-r));
	return r;
}

static int daemon_init(struct daemon *d, struct cli *cli, int argc, char **argv)
{
	struct daemon_config *c = &d->config;
	int r;

	*c = (struct daemon_config){
		.socket_path = proto_socket_default(),
		.socket_mode = 0660,
		.socket_gid = (gid_t)-1,
		.policy_dir = proto_policy_dir_default(),
		.default_policy = "default",
		.log_format = AUDIT_TEXT,
		.sync = true,
		.sandbox_threads = UNOTIFY_SUPERVISE_THREADS_DEFAULT,
		.harden = true,
		.client_timeout_ms = DAEMON_CLIENT_TIMEOUT_MS,
	};
	(void)audit_budget_parse(AUDIT_BUDGET_DEFAULT, &c->log_limit);
	r = parse_args(argc, argv, c, cli);
	if (r != CONTINUE)
		return r;
	log_setup(log_stderr_is_journal(), cli->verbose);
	pthread_mutex_init(&d->lock, NULL);
	user_budgets_init(&d->budgets);
	pending_init(&d->clients);
	d->started_ns = daemon_now_ns();
	r = unotify_features_probe(&d->features);
	if (r < 0 || !d->features.user_notif) {
		log_error("this kernel has no seccomp user notification");
		return EXIT_FAILURE;
	}
	if (c->sync && !d->features.sync_wake_up)
		log_warning("kernel %s has no SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: "
			    "supervising without the same-CPU hand-off",
			    d->features.kernel_release);
	r = load_policies(d);
	if (cli->check)
		return r == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	return r < 0 ? EXIT_FAILURE : CONTINUE;
}

int main(int argc, char **argv)
{
	struct daemon *d = &daemon_state;
	struct cli cli = { 0 };
	char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 2];
	int listen_fd = -1, sfd, r;
	bool activated = false;

	/*
	 * Not dumpable: a process of our uid (a sandbox's root) needs
	 * CAP_SYS_PTRACE to read our memory, trace us or take our
	 * descriptors (every sandbox's listener), before any policy is read.
	 */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	r = daemon_init(d, &cli, argc, argv);
	if (r != CONTINUE)
		return r;
	raise_nofile();
	leave_terminal();
	if (open_audit(d) < 0)
		return EXIT_FAILURE;
	r = closing_init();
	if (r < 0) {
		log_error("a signal for closing clients' descriptors: %s", strerror(-r));
		return EXIT_FAILURE;
	}
	/* What clients send and we do not keep is closed by closing.c, off this thread. */
	proto_set_fd_closer(closing_close);
	sfd = signals_setup();
	if (sfd < 0) {
		log_error("signals: %s", strerror(-sfd));
		return EXIT_FAILURE;
	}
	r = listen_open(&d->config, &listen_fd, &activated);
	if (r < 0) {
		log_error("cannot listen on %s: %s", d->config.socket_path,
			  r == -EADDRINUSE ? "another daemon is listening there" : strerror(-r));
		return EXIT_FAILURE;
	}
	/* libunotify keeps one /proc fd for the process: open it before hardening. */
	r = unotify_thread_init();
	if (r < 0)
		log_warning("preparing /proc for impersonation: %s", strerror(-r));
	/* No thread but this one before: each later one inherits what it gave up. */
	if ((d->config.harden && harden_apply(d->config.seccomp_kill) < 0) ||
	    start_audit_writer(d) < 0 || start_closer() < 0) {
		listen_close(&d->config, listen_fd, activated);
		return EXIT_FAILURE;
	}
	log_info("listening on %s%s; same-CPU hand-off %s; %s",
		 activated ? "(socket activation) " : "", listen_name(listen_fd, name, sizeof(name)),
		 d->config.sync && d->features.sync_wake_up ? "on" : "off",
		 d->config.harden ? "hardened" : "NOT hardened (--no-harden)");
	notify_ready();
	r = main_loop(d, listen_fd, sfd);
	if (r < 0) {
		log_error("main loop: %s", strerror(-r));
		listen_close(&d->config, listen_fd, activated);
		return EXIT_FAILURE;
	}
	shutdown_daemon(d, listen_fd, activated, r);
	sfd = safe_close(sfd);
	return EXIT_SUCCESS;
}
