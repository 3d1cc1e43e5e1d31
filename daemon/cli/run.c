/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run`: policy -> filter -> spawn -> supervise -> the program's
 * exit status. Only decisions the kernel layer cannot take reach us.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <pthread.h>

#include "commands.h"
#include "engine/enforce.h"
#include "engine/policy-env.h"
#include "run.h"
#include "protocol/client.h"
#include "record.h"
#include "run-stats.h"
#include "run-landlock.h"
#include "run-syscount.h"
#include "lib/util.h"

static int run_policy_add_rules(struct policy *p, char **rules, size_t n,
				struct policy_diags *diags)
{
	int r = 0;

	for (size_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "--rule-%zu", i + 1);
		if (policy_parse_text(p, name, rules[i], diags) < 0)
			r = -EINVAL;
	}
	return r;
}

/* Set by `run` for its program; otherwise the policy is read as if for us. */
static struct policy_env run_env;
static bool run_env_set;

int run_policy_load(char **files, size_t n_files, char **rules, size_t n_rules,
		    struct policy **ret)
{
	struct policy_diags diags = { 0 };
	struct policy *p = policy_new();
	struct policy_env env = run_env;
	int r = 0;

	if (!p)
		return -ENOMEM;
	if (!run_env_set && policy_env_of_self(&env) < 0)
		env = (struct policy_env){ 0 };
	policy_set_env(p, &env);
	for (size_t i = 0; i < n_files; i++) {
		int k = policy_parse_file(p, files[i], &diags);

		if (k < 0 && k != -EINVAL)
			fprintf(stderr, "unotify: %s: %s\n", files[i], strerror(-k));
		if (k < 0)
			r = k;
	}
	if (run_policy_add_rules(p, rules, n_rules, &diags) < 0)
		r = -EINVAL;
	if (policy_finish(p, &diags) < 0 && r == 0)
		r = -EINVAL;
	policy_diags_print(&diags, stderr);
	if (diags.errors > 0 && r == 0)
		r = -EINVAL;
	policy_diags_free(&diags);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

/* --record: the recording policy. Only its errors would be news (a bug): no warnings. */
static int run_policy_load_record(struct policy **ret)
{
	struct policy_diags diags = { 0 };
	_cleanup_free_ char *text = NULL;
	struct policy *p = NULL;
	int r;

	r = record_policy_text(&text);
	if (r == 0)
		p = policy_new();
	if (!p)
		return -ENOMEM;
	r = policy_parse_text(p, "record", text, &diags);
	if (policy_finish(p, &diags) < 0 && r == 0)
		r = -EINVAL;
	if (diags.errors > 0) {
		policy_diags_print(&diags, stderr);
		r = -EINVAL;
	}
	policy_diags_free(&diags);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

static volatile sig_atomic_t run_child_pid;

/* Signals meant for "the program" reach the program; the supervisor stays. */
static void run_forward_signal(int sig)
{
	if (run_child_pid > 0)
		kill((pid_t)run_child_pid, sig);
}

static void run_setup_signals(pid_t child)
{
	static const int forwarded[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = run_forward_signal, .sa_flags = SA_RESTART };

	run_child_pid = child;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaction(forwarded[i], &sa, NULL);
	/*
	 * The terminal sends ^C and ^\ to the whole foreground group, the
	 * program included: the supervisor must outlive the program to answer
	 * its last calls, so it ignores them.
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
}

/*
 * May this process give a child a mount namespace of its own, made
 * private (what the pid namespace's /proc needs)? Asked in a child, after a
 * start failed with EPERM: a Landlock domain refuses every mount, as does
 * the lack of CAP_SYS_ADMIN in our user namespace.
 */
static bool run_may_mount(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 &&
		      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : 1);
	if (pid < 0)
		return true; /* no hint rather than a wrong one */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int run_spawn_error(const char *prog, bool share_pid, int r)
{
	switch (r) {
	case -ENOENT:
		fprintf(stderr, "unotify: %s: command not found\n", prog);
		return EXIT_NOT_FOUND;
	case -ESRCH:
		fprintf(stderr, "unotify: no such user (see --user)\n");
		return EXIT_SUPERVISOR;
	case -ESTALE:
		fprintf(stderr, "unotify: landlock: a path of the ruleset changed between the "
				"check and the start; not started (try again, or --no-landlock)\n");
		return EXIT_SUPERVISOR;
	case -EACCES:
	case -ENOEXEC:
	case -EISDIR:
		fprintf(stderr, "unotify: %s: cannot execute: %s\n", prog, strerror(-r));
		return EXIT_CANNOT_EXEC;
	case -EBADFD:
		fprintf(stderr, "unotify: a descriptor the program would inherit (a /proc "
				"directory, a namespace or a pidfd) lets it reach processes outside "
				"its pid namespace: close it, or pass --share-pid (see unotify(1))\n");
		return EXIT_SUPERVISOR;

	case -EPERM:
		if (!share_pid && !run_may_mount()) {
			fprintf(stderr, "unotify: cannot start %s: %s: this process may not mount, "
					"and the program's pid namespace needs its own /proc "
					"(inside a Landlock domain, every mount is refused); "
					"--share-pid runs it in ours (see unotify(1))\n",
				prog, strerror(-r));
			return EXIT_SUPERVISOR;
		}
		/* fall through */
	default:
		fprintf(stderr, "unotify: cannot start %s: %s\n", prog, strerror(-r));
		return EXIT_SUPERVISOR;
	}
}

static bool run_has_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	return syscall(SYS_capget, &h, d) == 0 && (d[0].effective & (1U << CAP_SYS_ADMIN));
}

static int run_write_file(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);

	if (fd < 0)
		return negative_errno();
	return write(fd, text, len) == (ssize_t)len ? 0 : negative_errno();
}

/*
 * Without CAP_SYS_ADMIN we cannot make the program a pid namespace: we make
 * ourselves a user namespace first, where we have it, with our own uid and
 * gid mapped to themselves (the program keeps its ids and, as before, no
 * capability once it execs; other users' files show as nobody). Once, while
 * we are the only thread.
 */
static int run_enter_userns(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int r;

	if (run_has_sys_admin())
		return 0;
	if (unshare(CLONE_NEWUSER) < 0)
		return negative_errno();
	r = run_write_file("/proc/self/setgroups", "deny");
	if (r < 0 && r != -ENOENT)
		return r;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)uid, (unsigned int)uid);
	r = run_write_file("/proc/self/uid_map", map);
	if (r < 0)
		return r;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)gid, (unsigned int)gid);
	return run_write_file("/proc/self/gid_map", map);
}

static int run_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? negative_errno() : 0;
}

struct run_state {
	const struct run_options *o;
	struct policy *policy;
	struct policy_program *prog;
	struct sock_fprog layer;    /* --daemon: the daemon's kernel layer of its policy */
	uint64_t layer_serial;      /* and the version of the policy it is */
	struct audit *audit;
	struct unotify_child child;
	unotify_listener *listener;
	/*
	 * Several threads decide at once (--threads): stats and record are
	 * behind lock; each supervising thread counts its own system calls
	 * (counters, one per thread that replied, closed at the end).
	 */
	pthread_mutex_t lock;
	struct run_stats *stats;
	struct run_syscount **syscounts;
	size_t n_syscounts;
	struct record *record;
	int record_fd; /* --record: the file, opened before the program runs */
	struct run_landlock landlock;
};

/*
 * --daemon: the daemon owns its policies. Its kernel layer of the named one
 * is what the program is started under, so that what the kernel settles and
 * what the daemon decides are one policy; an unknown name stops here,
 * before anything runs.
 */
static int run_fetch_layer(struct run_state *s)
{
	_cleanup_free_ char *why = NULL;
	unsigned int off = 0, more = 0;
	int r;

	/*
	 * With the Landlock layer the daemon builds (run-landlock.h), asked again
	 * without a family a rule of which cannot be bound here.
	 */
	run_landlock_abi(s->o->no_landlock, &s->landlock);
	s->landlock.share_pid = s->o->share_pid;
	for (int tries = 0; tries <= POLICY_LANDLOCK_FAMILIES; tries++) {
		struct kernel_layer_landlock k = { 0 };

		free(steal_pointer(&s->layer.filter));
		free(steal_pointer(&why));
		r = client_kernel_layer_landlock(s->o->daemon_socket, s->o->policy_name,
						 s->landlock.abi > 0 ? s->landlock.abi : -1, off,
						 &s->layer, &s->layer_serial, &k, &why);
		if (r == 0)
			r = run_landlock_adopt(&s->landlock, &k, s->o->quiet, &more);
		kernel_layer_landlock_free(&k);
		if (r < 0 || !(more & ~off))
			break;
		off |= more;
	}
	if (r == -EINVAL && !why)
		fprintf(stderr, "unotify: '%s' is not a policy name (letters, digits, '_', '.', "
				"'-')\n", s->o->policy_name);
	else if (r < 0 && why)
		fprintf(stderr, "unotify: unotifyd refused policy '%s': %s\n", s->o->policy_name,
			why);
	else if (r < 0)
		fprintf(stderr, "unotify: %s\n", client_strerror(r));
	return r;
}

/* --log-level, else deny; a recorded run's trail (--record --log) holds every call. */
static enum audit_level run_log_level(const struct run_options *o)
{
	if (o->log_level_set)
		return o->log_level;
	return o->record_path ? AUDIT_LEVEL_ALL : AUDIT_LEVEL_DENY;
}

static int run_prepare(struct run_state *s)
{
	const struct run_options *o = s->o;
	int r;

	r = policy_env_for_run(o->user, o->drop_caps, o->keep_caps, &run_env);
	if (r < 0) {
		fprintf(stderr, "unotify: --keep-caps: unknown capability in '%s'\n", o->keep_caps);
		return r;
	}
	run_env_set = true;
	if (o->daemon)
		return run_fetch_layer(s);
	if (o->record_path)
		r = run_policy_load_record(&s->policy);
	else
		r = run_policy_load(o->policy_files, o->n_policy_files, o->rules, o->n_rules,
				    &s->policy);
	if (r < 0)
		return r;
	/* The rules Landlock enforces exactly, bound in the child (run-landlock.h). */
	run_landlock_abi(o->no_landlock || o->record_path, &s->landlock);
	s->landlock.share_pid = o->share_pid;
	r = run_landlock_prepare(s->policy, o->quiet, &s->landlock);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot work out the Landlock layer: %s\n", strerror(-r));
		return r;
	}
	/* A `scope` only Landlock enforces, and it cannot here: never run without it. */
	if (s->landlock.layer->scope_why) {
		fprintf(stderr, "unotify: %s\n", s->landlock.layer->scope_why);
		return -EOPNOTSUPP;
	}
	r = policy_compile_landlock(s->policy, s->landlock.layer, &s->prog);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot compile the policy: %s\n", strerror(-r));
		return r;
	}
	if (o->record_path && record_new(&s->record) < 0)
		return -ENOMEM;
	r = o->record_path ? record_open(o->record_path, &s->record_fd) : 0;
	if (r < 0) {
		fprintf(stderr, "unotify: cannot open %s for the recorded policy: %s%s\n",
			o->record_path, strerror(-r),
			r == -ELOOP || r == -EPERM ? " (a symbolic link, or not a regular file "
						     "with one name)" : "");
		return r;
	}
	/* A recorded run logs every call: to a trail only when --log asks for one. */
	r = o->record_path && !o->log_path ? 0 : audit_open(o->log_path, o->log_format, &s->audit);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot open the audit trail %s: %s\n",
			o->log_path ? o->log_path : "stderr", strerror(-r));
		return r;
	}
	if (s->audit) {
		audit_set_level(s->audit, run_log_level(o));
		audit_set_budget(s->audit, &o->log_limit);
	}
	if (o->stats) {
		s->stats = run_stats_new();
		if (!s->stats)
			return -ENOMEM;
	}
	return 0;
}

/*
 * A core dump is a file the kernel writes with no system call: next to file
 * rules the program gets RLIMIT_CORE 0, which the policy's implicit set
 * core-dumps keeps there. Under --daemon the policy is the daemon's, not
 * read here: always.
 */
static bool run_no_core_dumps(const struct run_state *s)
{
	struct policy_implicit_info in;

	if (s->o->daemon)
		return true;
	for (size_t i = 0; policy_implicit_info(s->policy, i, &in) == 0; i++)
		if (strcmp(in.name, "core-dumps") == 0)
			return in.on;
	return false;
}

static int run_start(struct run_state *s)
{
	const struct run_options *o = s->o;
	struct unotify_spawn_attr attr = {
		.path = o->argv[0],
		.argv = o->argv,
		.filter = o->daemon ? &s->layer : &s->prog->bpf,
		.user = o->user,
		.drop_caps = o->drop_caps,
		.keep_caps = o->keep_caps,
		.pin_cpu = o->cpu >= 0,
		.cpu = o->cpu,
		.landlock = run_landlock_attr(&s->landlock),
		.share_pid = o->share_pid,
		/* The sandbox's init execs us afresh (unotify.c): none of our memory in it. */
		.init_exe = "/proc/self/exe",
		.no_core_dumps = run_no_core_dumps(s),
	};
	int r;

	if (o->cpu >= 0 && (r = run_pin_self(o->cpu)) < 0) {
		fprintf(stderr, "unotify: cannot pin to CPU %d: %s\n", o->cpu, strerror(-r));
		return EXIT_SUPERVISOR;
	}
	if (!o->share_pid && (r = run_enter_userns()) < 0) {
		fprintf(stderr, "unotify: cannot give %s a pid namespace of its own (no user "
				"namespace: %s); run as root, allow user namespaces, or pass "
				"--share-pid (see unotify(1))\n", o->argv[0], strerror(-r));
		return EXIT_SUPERVISOR;
	}
	r = unotify_spawn(&attr, &s->child);
	if (r < 0)
		return run_spawn_error(o->argv[0], o->share_pid, r);
	run_setup_signals(s->child.pid);
	r = unotify_child_listener(&s->child, &s->listener);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot use the listener: %s\n", strerror(-r));
		return EXIT_SUPERVISOR;
	}
	/* The program's filter is s->prog: it notifies every credential change it lets run. */
	if (!o->daemon && policy_watches_creds(s->policy))
		(void)unotify_listener_watch_creds(s->listener);
	if (o->sync) {
		r = unotify_listener_set_sync(s->listener, true);
		if (r < 0 && !o->quiet)
			fprintf(stderr, "unotify: same-CPU hand-off unavailable (%s); "
					"continuing without it\n", strerror(-r));
	}
	return 0;
}

/* This thread's counter of its own system calls, opened at its first reply. */
static __thread struct run_syscount *run_thread_syscount;

static struct run_syscount *run_syscount_of_thread(struct run_state *s, bool *ret_new)
{
	struct run_syscount *sc = run_thread_syscount, **grown;

	*ret_new = false;
	if (sc)
		return sc;
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return NULL;
	grown = realloc(s->syscounts, (s->n_syscounts + 1) * sizeof(*grown));
	if (!grown) {
		free(sc);
		return NULL;
	}
	s->syscounts = grown;
	s->syscounts[s->n_syscounts++] = sc;
	run_syscount_open(sc);
	if (sc->fd < 0)
		run_stats_set_own_why(s->stats, sc->why);
	run_thread_syscount = sc;
	*ret_new = true;
	return sc;
}

static void run_syscounts_close(struct run_state *s)
{
	for (size_t i = 0; i < s->n_syscounts; i++) {
		run_syscount_close(s->syscounts[i]);
		free(s->syscounts[i]);
	}
	free(s->syscounts);
	s->syscounts = NULL;
	s->n_syscounts = 0;
	run_thread_syscount = NULL;
}

static void run_replied(const struct seccomp_notif *req, const struct unotify_verdict *v,
			int reply_result, uint64_t ns, void *userdata)
{
	struct run_state *s = ((struct enforcer *)userdata)->user;
	struct run_syscount *sc;
	int64_t own;
	bool fresh;

	pthread_mutex_lock(&s->lock);
	run_stats_add(s->stats, req->data.nr, v, ns);
	/*
	 * Everything since this thread's previous reply: the RECV, the
	 * decision, the reply. A thread's first reply is not a figure: it
	 * counts only since its counter opened, and the loop's own set-up
	 * (its watchdog thread) came before it.
	 */
	sc = run_syscount_of_thread(s, &fresh);
	own = sc ? run_syscount_take(sc) : -1;
	run_stats_add_own(s->stats, req->data.nr, fresh ? -1 : own);
	pthread_mutex_unlock(&s->lock);
}

static void run_observe(struct enforcer *e, const struct audit_record *r)
{
	struct run_state *s = e->user;

	pthread_mutex_lock(&s->lock);
	record_add(s->record, r);
	pthread_mutex_unlock(&s->lock);
}

/* The trail sums up what its budget held back; so does stderr (the trail may be a file). */
static void run_audit_limit_end(struct run_state *s, struct enforcer *e)
{
	uint64_t suppressed = atomic_load(&e->audit_limit.suppressed);
	char limit[64];

	audit_limit_end(s->audit, &e->audit_limit, NULL);
	if (!s->audit)
		return;
	audit_budget_format(audit_get_budget(s->audit), limit, sizeof(limit));
	if (suppressed && !s->o->quiet)
		fprintf(stderr, "unotify: %llu audit record%s suppressed, over --log-limit %s (the "
				"trail says when); every decision is still counted (--stats)\n",
			(unsigned long long)suppressed, suppressed > 1 ? "s" : "", limit);
	if (s->stats)
		run_stats_set_audit(s->stats, atomic_load(&e->audited), atomic_load(&e->unaudited),
				    suppressed, audit_level_name(run_log_level(s->o)), limit);
}

static int run_supervise(struct run_state *s)
{
	struct enforcer e = {
		.policy = s->policy,
		.audit = s->audit,
		.user = s,
		.observe = s->record ? run_observe : NULL,
		.filter_is_policy = true, /* run loaded the policy's kernel layer itself */
	};
	struct unotify_supervise_stats threads = { 0 };
	struct unotify_loop_ops ops = {
		.decide = enforce_decide,
		.replied = s->stats ? run_replied : NULL,
		.userdata = &e,
		.threads = s->o->threads,
	};
	int r;

	r = unotify_thread_init();
	if (r < 0) {
		fprintf(stderr, "unotify: cannot prepare the supervisor thread: %s\n", strerror(-r));
		return r;
	}
	audit_limit_init(&e.audit_limit);
	/*
	 * Records leave through a thread of their own (after the fork): a trail
	 * whose reader waits for the program (a full pipe it filled itself)
	 * then holds them queued instead of stalling every call of the program.
	 * None with --log-level none: no record to write, no thread to count.
	 */
	if (s->audit && run_log_level(s->o) != AUDIT_LEVEL_NONE &&
	    (r = audit_set_async(s->audit)) < 0)
		fprintf(stderr, "unotify: warning: the audit trail is written on the round trip: %s\n",
			strerror(-r));
	r = unotify_supervise_counted(s->listener, &ops, NULL, s->stats ? &threads : NULL);
	if (s->stats)
		run_stats_set_threads(s->stats, &threads, s->o->threads);
	run_syscounts_close(s);
	run_audit_limit_end(s, &e);
	if (r < 0)
		fprintf(stderr, "unotify: supervision failed: %s\n", strerror(-r));
	return r;
}

/* The program's status, or why it never ran. */
static int run_finish(struct run_state *s)
{
	int status = unotify_child_wait(&s->child);
	int err = unotify_child_exec_result(&s->child);

	if (err > 0)
		return run_spawn_error(s->o->argv[0], s->o->share_pid, -err);
	if (status < 0) {
		fprintf(stderr, "unotify: cannot wait for the program: %s\n", strerror(-status));
		return EXIT_SUPERVISOR;
	}
	if (s->stats)
		run_stats_print(s->stats, stderr);
	return status;
}

/* A trail that lost records says so, whatever --quiet: an audit trail is not optional. */
static void run_audit_close(struct audit *a)
{
	int err = 0;
	unsigned long long lost;

	lost = audit_close(a, &err);
	if (lost)
		fprintf(stderr, "unotify: %llu audit record%s lost: could not be written (%s): the "
				"audit trail is incomplete\n",
			lost, lost > 1 ? "s" : "", err ? strerror(err) : "unknown error");
}

static void run_state_free(struct run_state *s)
{
	unotify_listener_free(s->listener);
	unotify_child_close(&s->child);
	run_stats_free(s->stats);
	record_free(s->record);
	s->record_fd = safe_close(s->record_fd);
	run_audit_close(s->audit);
	policy_program_free(s->prog);
	run_landlock_free(&s->landlock);
	policy_free(s->policy);
	free(s->layer.filter);
}

/*
 * Has the program (or the sandbox's init) ended, or does it within 2 s? Its
 * status is left to wait for. The init outlives the program by its reaping
 * and exit, so a program the daemon found gone may leave its init running a
 * moment; meanwhile nothing runs unchecked: the daemon did not take the
 * listener and ours is closed, so every notified call fails.
 */
static bool run_child_ended(const struct unotify_child *c)
{
	for (int ms = 0; ms <= 2000; ms += 10) {
		siginfo_t info = { 0 };

		if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid == c->pid)
			return true;
		usleep(10 * 1000);
	}
	return false;
}

/*
 * Hands the listener to unotifyd. Whatever happens, our copy is closed: if
 * the daemon did not take it, the program's notified calls now fail with
 * ENOSYS, and it is stopped rather than left to run half-denied.
 */
static int run_handoff(struct run_state *s)
{
	_cleanup_free_ char *why = NULL;
	int r = client_register_serial(s->o->daemon_socket, s->o->policy_name, s->layer_serial,
				       unotify_listener_fd(s->listener), s->child.pid, &why);

	unotify_listener_free(steal_pointer(&s->listener));
	/*
	 * A program that notified nothing can be over before the daemon pinned
	 * its root: nothing was left to supervise, and its status is the answer.
	 */
	if (r == -ENODATA && run_child_ended(&s->child)) {
		if (!s->o->quiet)
			fprintf(stderr, "unotify: the program ended before unotifyd took it over "
					"(%s)\n", why ? why : client_strerror(r));
		return 0;
	}
	/* Fail closed in the daemon (its policy changed since, or broke): stopped, not half-run. */
	if (r == -ENODATA)
		fprintf(stderr, "unotify: unotifyd would supervise it fail closed: %s%s\n",
			why ? why : client_strerror(r),
			s->o->share_pid ? " (with --share-pid, unotifyd refuses the program unless "
					  "started with --allow-shared-pid)" : "");
	else if (r < 0)
		fprintf(stderr, "unotify: %s\n", client_strerror(r));
	if (r < 0) {
		kill(s->child.pid, SIGKILL);
		unotify_child_wait(&s->child);
		return EXIT_SUPERVISOR;
	}
	return 0;
}

/* --record: the program's status stays the exit code; failing to write is ours. */
static int run_record_write(struct run_state *s)
{
	int r = record_write(s->record, s->record_fd, s->o->record_path, s->o->argv);

	if (r < 0)
		fprintf(stderr, "unotify: cannot write the recorded policy %s: %s\n",
			s->o->record_path, strerror(-r));
	else if (!s->o->quiet)
		fprintf(stderr, "unotify: recorded policy written to %s; review it before use "
				"(unotify(1), RECORDING A POLICY)\n", s->o->record_path);
	return r;
}

int run_main(const struct run_options *o)
{
	struct run_state s = {
		.o = o,
		.child = UNOTIFY_CHILD_INIT,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.record_fd = -1,
	};
	int r;

	if (run_prepare(&s) < 0) {
		run_state_free(&s);
		return EXIT_SUPERVISOR;
	}
	r = run_start(&s);
	if (r == 0 && o->daemon) {
		r = run_handoff(&s);
		if (r == 0)
			r = run_finish(&s);
	} else if (r == 0) {
		/*
		 * A supervision failure is not the program's: it keeps running,
		 * and its intercepted calls now fail (the listener closes).
		 */
		if (run_supervise(&s) < 0)
			unotify_listener_free(steal_pointer(&s.listener));
		r = run_finish(&s);
		if (s.record && run_record_write(&s) < 0)
			r = EXIT_SUPERVISOR;
	}
	run_state_free(&s);
	return r;
}
