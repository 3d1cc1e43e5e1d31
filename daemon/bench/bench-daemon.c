/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon mode: the same target as bare and lib, answered by a real
 * unotifyd. Each row starts a private daemon (its own socket, policy
 * directory and logs in a temporary directory; --no-sync for sync=off),
 * waits until it answers a status request, and stops it with SIGTERM after
 * the row. Each run hands the target's listener over with the listenerPath
 * protocol (client_register, as `unotify run --daemon` does); the
 * daemon's policy answers getppid with 42, as the other supervisors do.
 *
 * The parent no longer answers anything, so it sleeps on the target's phase
 * word and only opens the counters of the daemon's supervising thread for
 * the measured window: after the warm-up, which the target ends by waiting
 * for them (BENCH_MODE_COUNTED_OUTSIDE). No daemon to be found or started is not a failure
 * of the benchmark: the row says "unsupported" and why.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench.h"
#include "lib/uapi.h"
#include "lib/util.h"
#include "protocol/client.h"

#define BENCH_DAEMON_POLICY "bench"
#define BENCH_DAEMON_START_MS 10000
#define BENCH_DAEMON_STOP_MS 5000
#define BENCH_DAEMON_IDLE_MS 2000
#define BENCH_DAEMON_THREADS_MAX 256 /* the daemon has some 5 per sandbox */

/* Each thread's context switches so far, to tell which one answered the warm-up's calls. */
struct bench_daemon_switches {
	unsigned int n;
	pid_t tid[BENCH_DAEMON_THREADS_MAX];
	unsigned long long count[BENCH_DAEMON_THREADS_MAX];
};

struct bench_daemon {
	pid_t pid;
	pid_t tid;                 /* its thread supervising the current run */
	struct bench_daemon_switches at_handoff; /* its threads' switches when the run began */
	char dir[PATH_MAX];        /* ours: policies/, the socket, its logs */
	char socket[sizeof(((struct sockaddr_un *)0)->sun_path)];
	unsigned int idle_threads; /* its threads when ready, before any run (its audit writer) */
	struct sock_fprog layer;   /* its kernel layer of the bench policy (filter NULL: none) */
	uint64_t layer_serial;     /* the policy's version the layer is of */
};

static void bench_daemon_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* dir/name (dir of len bytes) into ret[PATH_MAX], if it fits and may be executed. */
static bool bench_daemon_candidate(char *ret, const char *dir, size_t len, const char *name)
{
	int n = snprintf(ret, PATH_MAX, "%.*s/%s", (int)len, dir, name);

	return len > 0 && n > 0 && n < PATH_MAX && access(ret, X_OK) == 0;
}

/* The directory of this program, "" when unknown. */
static void bench_daemon_exe_dir(char *ret, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", ret, size - 1);
	char *slash;

	ret[n > 0 ? n : 0] = '\0';
	slash = strrchr(ret, '/');
	if (slash)
		*slash = '\0';
	else
		ret[0] = '\0';
}

/*
 * --unotifyd, else "unotifyd" next to this program, in its ../sbin (installed),
 * in ../unotifyd (the build tree), or in PATH.
 */
static int bench_daemon_find(const char *given, char ret[PATH_MAX], char *error,
			     size_t error_size)
{
	char dir[PATH_MAX], found[PATH_MAX];
	const char *path = getenv("PATH");
	bool ok = false;

	if (given) {
		if (access(given, X_OK) < 0 || strlen(given) >= PATH_MAX) {
			snprintf(error, error_size, "--unotifyd %s: %s", given, strerror(errno));
			return -EOPNOTSUPP;
		}
		strcpy(ret, given);
		return 0;
	}
	bench_daemon_exe_dir(dir, sizeof(dir));
	ok = bench_daemon_candidate(found, dir, strlen(dir), "unotifyd") ||
	     bench_daemon_candidate(found, dir, strlen(dir), "../sbin/unotifyd") ||
	     bench_daemon_candidate(found, dir, strlen(dir), "../unotifyd/unotifyd");
	for (const char *p = path; !ok && p && *p;) {
		size_t len = strcspn(p, ":");

		ok = bench_daemon_candidate(found, p, len, "unotifyd");
		p += len + (p[len] == ':');
	}
	if (!ok) {
		snprintf(error, error_size,
			 "no unotifyd in %s, %s/../sbin or PATH (give --unotifyd PATH)",
			 dir[0] ? dir : "?", dir[0] ? dir : "?");
		return -EOPNOTSUPP;
	}
	strcpy(ret, found);
	return 0;
}

/* The temporary directory and the one policy in it. */
static int bench_daemon_files(struct bench_daemon *d, const struct bench_config *cfg)
{
	char text[256];
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX + 32];
	_cleanup_fclose_ FILE *f = NULL;

	snprintf(d->dir, sizeof(d->dir), "%s/unotify-bench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d->dir)) {
		d->dir[0] = '\0';
		return negative_errno();
	}
	if (snprintf(d->socket, sizeof(d->socket), "%s/d.sock", d->dir) >= (int)sizeof(d->socket))
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "%s/policies", d->dir);
	if (mkdir(path, 0700) < 0)
		return negative_errno();
	snprintf(path, sizeof(path), "%s/policies/%s.policy", d->dir, BENCH_DAEMON_POLICY);
	f = fopen(path, "wxe");
	if (!f)
		return negative_errno();
	bench_policy_text(cfg, text, sizeof(text));
	fprintf(f, "# unotify bench: what the bare and lib supervisors answer\n%s", text);
	return fflush(f) == 0 ? 0 : negative_errno();
}

static void bench_daemon_remove(struct bench_daemon *d)
{
	static const char *const files[] = { "policies/" BENCH_DAEMON_POLICY ".policy",
					     "policies", "d.sock", "daemon.log", "audit.log" };
	char path[PATH_MAX + 32];

	if (!d->dir[0])
		return;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", d->dir, files[i]);
		if (unlink(path) < 0 && errno == EISDIR)
			rmdir(path);
	}
	rmdir(d->dir);
}

/* What the daemon logged last (bar the "Try --help" of a usage error): why it did not start. */
static void bench_daemon_last_log(const struct bench_daemon *d, char *buf, size_t size)
{
	char path[PATH_MAX + 32], line[512];
	_cleanup_fclose_ FILE *f = NULL;

	snprintf(buf, size, "no message");
	snprintf(path, sizeof(path), "%s/daemon.log", d->dir);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && strncmp(line, "Try ", 4) != 0)
			snprintf(buf, size, "%s", line);
	}
}

/*
 * In the child: stdin and stdout /dev/null, stderr the log; dies with the
 * benchmark. --unotifyd-arg options come last, so they may override ours.
 */
static void bench_daemon_exec(const struct bench_daemon *d, const char *exe, int sync,
			      const struct bench_settings *set)
{
	char policies[PATH_MAX + 16], log[PATH_MAX + 16], audit[PATH_MAX + 16], gid[16];
	const char *argv[16 + BENCH_DAEMON_ARGS_MAX];
	size_t n = 0;
	int null, fd;

	snprintf(log, sizeof(log), "%s/daemon.log", d->dir);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (null < 0 || fd < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	snprintf(policies, sizeof(policies), "%s/policies", d->dir);
	snprintf(audit, sizeof(audit), "%s/audit.log", d->dir);
	snprintf(gid, sizeof(gid), "%u", (unsigned int)getgid());
	argv[n++] = exe;
	argv[n++] = "--socket";
	argv[n++] = d->socket;
	argv[n++] = "--policy-dir";
	argv[n++] = policies;
	argv[n++] = "--default-policy";
	argv[n++] = BENCH_DAEMON_POLICY;
	argv[n++] = "--log";
	argv[n++] = audit;
	if (sync != 1)
		argv[n++] = "--no-sync";
	/* The measured loop is our own child, in our pid namespace: trusted, and timed as is. */
	argv[n++] = "--allow-shared-pid";
	argv[n++] = "--log-level";
	argv[n++] = audit_level_name(set->log_level);
	if (getuid() != 0) {
		/* Only root may register by default: let our own group in. */
		argv[n++] = "--allow-group";
		argv[n++] = gid;
	}
	for (unsigned int i = 0; i < set->n_unotifyd_args; i++)
		argv[n++] = set->unotifyd_args[i];
	argv[n] = NULL;
	execv(exe, (char *const *)argv);
	fprintf(stderr, "cannot execute %s: %s\n", exe, strerror(errno));
	_exit(127);
}

/* The daemon's answer to a status request, or NULL while it does not answer. */
static struct json_object *bench_daemon_status(const struct bench_daemon *d)
{
	struct json_object *st = NULL;

	return client_status(d->socket, 1000, &st) < 0 ? NULL : st;
}

/* Until the daemon answers: 0 with whether it uses the same-CPU hand-off. */
static int bench_daemon_wait_ready(struct bench_daemon *d, bool *ret_sync, char *error,
				   size_t error_size)
{
	uint64_t deadline = bench_now_ns() + BENCH_DAEMON_START_MS * UINT64_C(1000000);
	char last[512];
	int status;

	while (bench_now_ns() < deadline) {
		struct json_object *st, *ok, *sync;

		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			bench_daemon_last_log(d, last, sizeof(last));
			snprintf(error, error_size, "unotifyd exited at start (status %d): %s",
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				 last);
			return -EOPNOTSUPP;
		}
		st = bench_daemon_status(d);
		if (st && json_object_object_get_ex(st, "ok", &ok) && json_object_get_boolean(ok)) {
			*ret_sync = json_object_object_get_ex(st, "sync_wake_up", &sync) &&
				    json_object_get_boolean(sync);
			json_object_put(st);
			return 0;
		}
		json_object_put(st);
		bench_daemon_sleep_ms(10);
	}
	bench_daemon_last_log(d, last, sizeof(last));
	snprintf(error, error_size, "unotifyd did not answer on %s within %d s: %s", d->socket,
		 BENCH_DAEMON_START_MS / 1000, last);
	return -EOPNOTSUPP;
}

/* SIGTERM, as systemd would stop it; SIGKILL only if it does not stop. */
static void bench_daemon_stop(struct bench_daemon *d)
{
	bool gone = false;
	int status;

	if (d->pid > 0) {
		kill(d->pid, SIGTERM);
		for (unsigned int ms = 0; !gone && ms < BENCH_DAEMON_STOP_MS; ms += 10) {
			gone = waitpid(d->pid, &status, WNOHANG) != 0;
			if (!gone)
				bench_daemon_sleep_ms(10);
		}
		if (!gone) {
			fprintf(stderr, "unotify bench: unotifyd (pid %d) did not stop on SIGTERM: "
				"killed\n", (int)d->pid);
			kill(d->pid, SIGKILL);
			waitpid(d->pid, &status, 0);
		} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			char last[512];

			/* Its figures stand (every reply was checked), but say it. */
			bench_daemon_last_log(d, last, sizeof(last));
			fprintf(stderr, "unotify bench: unotifyd ended with %s %d: %s\n",
				WIFEXITED(status) ? "status" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), last);
		}
	}
	bench_daemon_remove(d);
	free(d);
}

static void bench_daemon_count_idle(struct bench_daemon *d);

static int bench_daemon_start(struct bench_daemon *d, const char *exe,
			      const struct bench_config *cfg, const struct bench_settings *set,
			      char *error, size_t error_size)
{
	int sync = cfg->sync;
	bool daemon_sync = false;
	int r;

	r = bench_daemon_files(d, cfg);
	if (r < 0) {
		snprintf(error, error_size, "cannot prepare unotifyd's directory %s: %s", d->dir,
			 strerror(-r));
		return -EOPNOTSUPP;
	}
	fflush(stdout);
	fflush(stderr);
	d->pid = fork();
	if (d->pid < 0) {
		snprintf(error, error_size, "fork: %m");
		d->pid = 0;
		return -EOPNOTSUPP;
	}
	if (d->pid == 0)
		bench_daemon_exec(d, exe, sync, set);
	r = bench_daemon_wait_ready(d, &daemon_sync, error, error_size);
	if (r < 0)
		return r;
	if (sync == 1 && !daemon_sync) {
		snprintf(error, error_size, "unotifyd does not use SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP "
			 "(Linux 6.6+) on this kernel");
		return -EOPNOTSUPP;
	}
	bench_daemon_count_idle(d);
	return 0;
}

/*
 * The daemon's kernel layer of the bench policy, fetched as `unotify run
 * --daemon` fetches it: the targets of a daemon row load it (instead of
 * the raw filter of the other rows) and register with its version, so the
 * daemon supervises them as it supervises run --daemon's programs. Each
 * row's own: the rows of a round run between one row's start and stop.
 */
const struct sock_fprog *bench_daemon_row_layer(void *data)
{
	const struct bench_daemon *d = data;

	return d && d->layer.filter ? &d->layer : NULL;
}

static void bench_daemon_layer_drop(struct bench_daemon *d)
{
	free(d->layer.filter);
	d->layer.filter = NULL;
}

static int bench_daemon_layer_fetch(struct bench_daemon *d, char *error, size_t error_size)
{
	_cleanup_free_ char *why = NULL;
	int r;

	bench_daemon_layer_drop(d);
	r = client_kernel_layer(d->socket, BENCH_DAEMON_POLICY, &d->layer, &d->layer_serial, &why);
	if (r < 0) {
		d->layer.filter = NULL;
		snprintf(error, error_size, "unotifyd's kernel layer: %s",
			 why ? why : client_strerror(r));
		return r;
	}
	return 0;
}

int bench_daemon_row_start(const struct bench_config *cfg, const struct bench_settings *set,
			   void **ret_data, char *error, size_t error_size)
{
	struct bench_daemon *d = calloc(1, sizeof(*d));
	char exe[PATH_MAX];
	int r;

	if (!d)
		return -ENOMEM;
	r = bench_daemon_find(set->unotifyd, exe, error, error_size);
	if (r >= 0)
		r = bench_daemon_start(d, exe, cfg, set, error, error_size);
	if (r >= 0)
		r = bench_daemon_layer_fetch(d, error, error_size);
	if (r < 0) {
		bench_daemon_layer_drop(d);
		bench_daemon_stop(d);
		return r;
	}
	*ret_data = d;
	return 0;
}

void bench_daemon_row_stop(void *data)
{
	if (!data)
		return;
	bench_daemon_layer_drop(data);
	bench_daemon_stop(data);
}

/* ---------------------------------------------------------------- the daemon's threads */

/* /proc/PID/task/TID/NAME as a string in buf. */
static int bench_daemon_task_read(pid_t pid, pid_t tid, const char *name, char *buf, size_t size)
{
	char path[64];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid, (int)tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	n = read(fd, buf, size - 1);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/* Field 22 of /proc/PID/task/TID/stat: when the thread started, in clock ticks. */
static int bench_daemon_thread_start(pid_t pid, pid_t tid, unsigned long long *ret)
{
	char buf[1024], *p;
	int r = bench_daemon_task_read(pid, tid, "stat", buf, sizeof(buf));

	if (r < 0)
		return r;
	/* The name may hold spaces and parentheses: count fields after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", ret) != 1)
		return -EIO;
	return 0;
}

/*
 * Is the thread blocked in SECCOMP_IOCTL_NOTIF_RECV? /proc/PID/task/TID/syscall
 * is "NR ARG1 ARG2 ..." of the call it waits in: ioctl(fd, request).
 */
static bool bench_daemon_thread_in_recv(pid_t pid, pid_t tid)
{
	char buf[256];
	unsigned long long fd_arg, request;
	long nr;

	return bench_daemon_task_read(pid, tid, "syscall", buf, sizeof(buf)) == 0 &&
	       sscanf(buf, "%ld %llx %llx", &nr, &fd_arg, &request) == 3 && nr == SYS_ioctl &&
	       request == SECCOMP_IOCTL_NOTIF_RECV;
}

/* The process's thread ids, its main thread's included (at most BENCH_DAEMON_THREADS_MAX). */
static int bench_daemon_list_threads(pid_t pid, pid_t tids[BENCH_DAEMON_THREADS_MAX],
				     unsigned int *ret_n)
{
	char path[64];
	DIR *dir;
	struct dirent *e;
	unsigned int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return negative_errno();
	while ((e = readdir(dir)) && n < BENCH_DAEMON_THREADS_MAX) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid > 0)
			tids[n++] = tid;
	}
	closedir(dir);
	*ret_n = n;
	return 0;
}

/*
 * The daemon's newest thread but the main one (with in_recv, the newest
 * blocked in RECV): the thread that took our hand-off supervises it
 * (unotifyd keeps one supervision pool per listener), and any older one
 * belongs to a sandbox that is ending. The pool's receiver is the thread in
 * RECV; its watchdog and workers, which may start later, wait elsewhere.
 */
static int bench_daemon_threads(pid_t pid, bool in_recv, pid_t *ret_newest,
				unsigned int *ret_count)
{
	pid_t tids[BENCH_DAEMON_THREADS_MAX], newest = 0;
	unsigned long long best = 0, start;
	unsigned int n;
	int r = bench_daemon_list_threads(pid, tids, &n);

	if (r < 0)
		return r;
	for (unsigned int i = 0; i < n; i++) {
		pid_t tid = tids[i];

		if (tid == pid || bench_daemon_thread_start(pid, tid, &start) < 0)
			continue;
		if (in_recv && !bench_daemon_thread_in_recv(pid, tid))
			continue;
		if (!newest || start > best || (start == best && tid > newest)) {
			best = start;
			newest = tid;
		}
	}
	*ret_newest = newest;
	*ret_count = n;
	return 0;
}

/* Voluntary and involuntary context switches of a thread (/proc/PID/task/TID/status). */
static unsigned long long bench_daemon_thread_switches(pid_t pid, pid_t tid)
{
	char buf[4096];
	unsigned long long total = 0, n;

	if (bench_daemon_task_read(pid, tid, "status", buf, sizeof(buf)) < 0)
		return 0;
	for (char *line = buf; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &n) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &n) == 1)
			total += n;
	return total;
}

/* Every thread's but the main one's (none when /proc cannot say). */
static void bench_daemon_read_switches(pid_t pid, struct bench_daemon_switches *ret)
{
	pid_t tids[BENCH_DAEMON_THREADS_MAX];
	unsigned int n;

	ret->n = 0;
	if (bench_daemon_list_threads(pid, tids, &n) < 0)
		return;
	for (unsigned int i = 0; i < n; i++) {
		if (tids[i] == pid)
			continue;
		ret->tid[ret->n] = tids[i];
		ret->count[ret->n++] = bench_daemon_thread_switches(pid, tids[i]);
	}
}

/* ---------------------------------------------------------------- one run */

static int bench_daemon_pin_thread(struct bench_run *run, pid_t tid)
{
	cpu_set_t set;

	if (run->cfg->pin == BENCH_PIN_FREE)
		return 0;
	/* The supervisor's CPU, as bench_run_parent pins the in-process ones. */
	CPU_ZERO(&set);
	CPU_SET(run->set->cpu_a, &set);
	if (sched_setaffinity(tid, sizeof(set), &set) < 0) {
		snprintf(run->error, sizeof(run->error), "cannot pin unotifyd's thread %d: %m",
			 (int)tid);
		return negative_errno();
	}
	return 0;
}

/* What wait_idle waits for: at least the main thread, whatever /proc says. */
static void bench_daemon_count_idle(struct bench_daemon *d)
{
	unsigned int count = 0;
	pid_t newest;

	if (bench_daemon_threads(d->pid, false, &newest, &count) < 0 || count < 1)
		count = 1;
	d->idle_threads = count;
}

/*
 * Before a run: the previous run's supervising threads gone (2 s at most),
 * so that the new run's is the one found. Idle, the daemon keeps the
 * threads it had when ready (its main thread and its audit writer).
 */
static void bench_daemon_wait_idle(const struct bench_daemon *d)
{
	unsigned int count;
	pid_t newest;

	for (unsigned int ms = 0; ms < BENCH_DAEMON_IDLE_MS; ms++) {
		if (bench_daemon_threads(d->pid, false, &newest, &count) < 0 ||
		    count <= d->idle_threads)
			return;
		bench_daemon_sleep_ms(1);
	}
}

/* The thread in RECV for our listener, waiting for it to get there (2 s); else the newest. */
static int bench_daemon_find_receiver(struct bench_daemon *d, unsigned int *ret_count)
{
	int r;

	for (unsigned int ms = 0; ms < BENCH_DAEMON_IDLE_MS; ms++) {
		r = bench_daemon_threads(d->pid, true, &d->tid, ret_count);
		if (r < 0 || d->tid)
			return r;
		bench_daemon_sleep_ms(1);
	}
	return bench_daemon_threads(d->pid, false, &d->tid, ret_count);
}

int bench_daemon_prepare(struct bench_run *run)
{
	struct bench_daemon *d = run->row_data;
	_cleanup_free_ char *why = NULL;
	unsigned int count;
	int r;

	bench_daemon_wait_idle(d);
	r = client_register_serial(d->socket, BENCH_DAEMON_POLICY, d->layer_serial,
				   run->listener, run->pid, &why);
	if (r < 0) {
		snprintf(run->error, sizeof(run->error), "hand-off to unotifyd: %s",
			 why ? why : client_strerror(r));
		return r;
	}
	/* The daemon holds the listener: if it dies, the target's calls fail (ENOSYS). */
	closep(&run->listener);
	run->listener = -1;
	r = bench_daemon_find_receiver(d, &count);
	if (r >= 0 && !d->tid)
		r = -ESRCH;
	bench_daemon_read_switches(d->pid, &d->at_handoff);
	if (r < 0) {
		snprintf(run->error, sizeof(run->error), "unotifyd's supervising thread: %s",
			 strerror(-r));
		return r;
	}
	return bench_daemon_pin_thread(run, d->tid);
}

/* Sleeps while the phase is `from`; false when the target is gone first. */
static bool bench_daemon_wait_phase(struct bench_run *run, int from)
{
	_Atomic int *phase = &run->shm->phase;

	while (atomic_load(phase) == from) {
		/* Bounded: a target that dies between our check and the wait wakes no one. */
		struct timespec ts = { .tv_nsec = 50 * 1000000 };

		if (bench_run_child_exited())
			return false;
		syscall(SYS_futex, (int *)phase, FUTEX_WAIT, from, &ts, NULL, 0);
	}
	return true;
}

/*
 * The thread that answered the warm-up's calls: the one whose switches grew
 * most since the hand-off. Usually the receiver found then; not when the
 * pool's watchdog gave the role to another thread meanwhile, which it does
 * when a call is still in progress at its second tick (8 ms): a loaded
 * machine can hold up the sandbox's first decision so long. The measured
 * calls are then answered by the new receiver, which is counted instead.
 */
static void bench_daemon_follow_receiver(struct bench_run *run, struct bench_daemon *d)
{
	struct bench_daemon_switches now;
	unsigned long long best = 0;
	pid_t tid = 0;

	bench_daemon_read_switches(d->pid, &now);
	for (unsigned int i = 0; i < now.n; i++) {
		unsigned long long grew = now.count[i];

		/* A thread id met at the hand-off with more switches is another, newer thread. */
		for (unsigned int j = 0; j < d->at_handoff.n; j++)
			if (d->at_handoff.tid[j] == now.tid[i] && d->at_handoff.count[j] <= grew)
				grew -= d->at_handoff.count[j];
		if (grew > best) {
			best = grew;
			tid = now.tid[i];
		}
	}
	if (!tid || tid == d->tid)
		return;
	if (bench_daemon_pin_thread(run, tid) < 0) {
		run->error[0] = '\0'; /* the thread found at the hand-off stays counted */
		return;
	}
	d->tid = tid;
}

int bench_daemon_supervise(struct bench_run *run)
{
	struct bench_daemon *d = run->row_data;

	if (!bench_daemon_wait_phase(run, BENCH_PHASE_WARMUP))
		return 0; /* the target says why it stopped */
	bench_daemon_follow_receiver(run, d);
	bench_counters_start_task(&run->counters, d->pid, d->tid);
	/* Counting: the target, waiting in BENCH_PHASE_WARM, may measure. */
	atomic_store(&run->shm->counting, 1);
	syscall(SYS_futex, (uint32_t *)&run->shm->counting, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
	bench_daemon_wait_phase(run, BENCH_PHASE_WARM);
	bench_daemon_wait_phase(run, BENCH_PHASE_MEASURE);
	bench_counters_stop(&run->counters, &run->peer_counts);
	run->counter_state = 2;
	return 0;
}

/* The daemon lets go of the run's sandbox (POLLHUP) before the next run. */
void bench_daemon_cleanup(struct bench_run *run)
{
	bench_daemon_wait_idle(run->row_data);
}
