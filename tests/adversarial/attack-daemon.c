/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Daemon confusion. One unotifyd supervises many sandboxes; the end of one
 * (its exit, its children outliving it, its client closing early, a
 * container id it shares with another) must never end or change another's
 * supervision. daemon-many registers N sandboxes of two policies at once,
 * each checking that every answer is its own policy's.
 *
 * This command runs outside any sandbox: each child loads its own filter
 * (raw BPF: getppid notified, the rest allowed, foreign ABIs killed) and
 * registers itself the way runc does (connect, one JSON state with the
 * listener in SCM_RIGHTS, close). As runtimes do, each sandbox is pid 1 of
 * a pid namespace of its own (unotifyd refuses one in its namespace),
 * unless ATTACK_SHARE_PID is set.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "attack.h"

#define CALLS_LONG 20
#define THREADS 4

struct box {
	int i;
	int kind;        /* 0 short, 1 long, 2 outlived by its child, 3 threads */
	bool plain;      /* unique container ids, every client waits for the answer */
	long expect;     /* 1111 (policy A) or 2222 (policy B) */
	int results;     /* write end: one line per reporting process */
	int barrier;     /* read end: EOF once every sandbox started */
};

#define MAX_NOTIFIED 8

/* Our pid as the daemon numbers it: set by box_fork() in a child of a namespace of its own. */
static pid_t outer_pid;

/*
 * In the namespace's pid 1 (the registered process, as a container's init
 * is): the sandbox proper is its child, so that what it forks may outlive
 * it while pid 1 reaps them all, then exits with the sandbox's status.
 * Returns in the sandbox; in our own namespace (shared), at once. Called
 * once the caller closed what the sandbox must not hold (pid 1 keeps it).
 */
static void box_init(void)
{
	pid_t box, p;
	int st, code = 0;

	if (getpid() != 1)
		return;
	box = fork();
	if (box <= 0)
		return; /* the sandbox (or no fork: the sandbox is pid 1 itself) */
	while ((p = wait(&st)) > 0 || errno == EINTR)
		if (p == box)
			code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	_exit(code);
}

/*
 * fork(), the child pid 1 of a new pid namespace: we enter it for our next
 * child only and come back, so that every sandbox gets one of its own.
 * Unprivileged, or with ATTACK_SHARE_PID: our namespace. The child learns
 * its pid in ours from a pipe.
 */
static pid_t box_fork(void)
{
	int ours = -1, p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (!getenv("ATTACK_SHARE_PID")) {
		ours = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
		if (ours >= 0 && unshare(CLONE_NEWPID) < 0) {
			close(ours);
			ours = -1;
		}
	}
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &outer_pid, sizeof(outer_pid)) != sizeof(outer_pid))
			_exit(5);
		close(p[0]);
		return 0;
	}
	if (ours >= 0) {
		if (setns(ours, CLONE_NEWPID) < 0)
			abort(); /* our own namespace, as root: cannot fail */
		close(ours);
	}
	close(p[0]);
	if (pid > 0 && write(p[1], &pid, sizeof(pid)) != sizeof(pid))
		pid = -1;
	close(p[1]);
	return pid;
}

/*
 * Sends nrs to the daemon, allows the rest; returns the listener. Calls
 * through another ABI (i386's int $0x80, x32's numbers) are killed, as our
 * own filters do, or with foreign all sent to the daemon, as a runtime's
 * filter may (an OCI profile that lists them as x86_64's sub-architectures).
 */
static int load_filter(const int *nrs, int n, bool foreign)
{
	const unsigned int other = foreign ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_KILL_PROCESS;
	struct sock_filter f[6 + 2 * MAX_NOTIFIED + 1] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, other),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
		BPF_STMT(BPF_RET | BPF_K, other),
	};
	struct sock_fprog prog = { .filter = f };
	unsigned short len = 6;

	for (int i = 0; i < n && i < MAX_NOTIFIED; i++) {
		f[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		f[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	}
	f[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = len;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

/* The runc-style hand-over; ack: read the daemon's answer (runc does not). */
static int register_once(const char *sock, int listener, const char *policy, int id, bool ack)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char msg[512], control[CMSG_SPACE(sizeof(int))] = { 0 }, answer[512];
	struct iovec iov = { msg, 0 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ssize_t n, got = 0;

	/* Container ids repeat on purpose: the daemon must not key sandboxes by them. */
	iov.iov_len = (size_t)snprintf(
		msg, sizeof(msg),
		"{\"ociVersion\":\"1.0.2\",\"fds\":[\"seccompFd\"],\"pid\":%d,"
		"\"metadata\":\"policy=%s\",\"state\":{\"ociVersion\":\"1.0.2\",\"id\":\"box-%d\","
		"\"status\":\"creating\",\"pid\":%d,\"bundle\":\"/b\"}}",
		(int)(outer_pid ? outer_pid : getpid()), policy, id,
		(int)(outer_pid ? outer_pid : getpid()));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &listener, sizeof(int));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
		return -errno;
	shutdown(fd, SHUT_WR);
	while (ack && (n = read(fd, answer + got, sizeof(answer) - 1 - (size_t)got)) > 0)
		got += n;
	answer[got] = '\0';
	close(fd);
	if (ack && strstr(answer, "\"busy: "))
		return -EBUSY;
	return !ack || strstr(answer, "\"ok\":true") ? 0 : -EPROTO;
}

/* As `unotify run --daemon` does: a daemon busy with our other connections is asked again. */
static int register_as(const char *sock, int listener, const char *policy, int id, bool ack)
{
	for (int tries = 0;; tries++) {
		int r = register_once(sock, listener, policy, id, ack);

		if (r != -EBUSY || tries >= 100)
			return r;
		usleep(10000);
	}
}

struct tally {
	long ok, wrong, enosys;
};

static void calls(long n, long expect, struct tally *t)
{
	for (long k = 0; k < n; k++) {
		long v = syscall(SYS_getppid);

		if (v == expect)
			t->ok++;
		else if (v == -1 && errno == ENOSYS)
			t->enosys++;
		else
			t->wrong++;
	}
}

static void report(const struct box *b, const char *who, const struct tally *t)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "R %d %s %ld %ld %ld\n", b->i, who, t->ok, t->wrong,
			 t->enosys);

	if (write(b->results, line, (size_t)n) != n)
		_exit(4);
}

static void wait_barrier(const struct box *b)
{
	char byte;

	while (read(b->barrier, &byte, 1) > 0)
		;
}

struct thread_arg {
	const struct box *b;
	struct tally t;
};

static void *box_thread(void *arg)
{
	struct thread_arg *a = arg;

	calls(50, a->b->expect, &a->t);
	return NULL;
}

static void box_threads(const struct box *b, struct tally *t)
{
	struct thread_arg a[THREADS];
	pthread_t th[THREADS];

	for (int k = 0; k < THREADS; k++) {
		a[k] = (struct thread_arg){ .b = b };
		pthread_create(&th[k], NULL, box_thread, &a[k]);
	}
	for (int k = 0; k < THREADS; k++) {
		pthread_join(th[k], NULL);
		t->ok += a[k].t.ok;
		t->wrong += a[k].t.wrong;
		t->enosys += a[k].t.enosys;
	}
}

/* The sandbox: registered, then the calls its kind makes. */
static void box_main(const char *sock, const struct box *b)
{
	struct tally t = { 0 };
	int listener;
	int getppid_nr = SYS_getppid;

	box_init(); /* after our caller closed what the sandbox must not hold */
	alarm(20); /* a hung sandbox dies of SIGALRM and is counted as hung */
	listener = load_filter(&getppid_nr, 1, false);
	if (listener < 0 ||
	    register_as(sock, listener, b->expect == 1111 ? "A" : "B", b->plain ? b->i : b->i % 16,
			b->plain || b->kind != 0) < 0)
		_exit(5);
	close(listener);
	calls(1, b->expect, &t);
	if (b->kind == 1) {
		wait_barrier(b);
		calls(CALLS_LONG, b->expect, &t);
	} else if (b->kind == 2 && fork() == 0) {
		struct tally g = { 0 };

		/* Outlives the registered process: the filter is still in use. */
		alarm(20);
		wait_barrier(b);
		calls(CALLS_LONG, b->expect, &g);
		report(b, "child", &g);
		_exit(0);
	} else if (b->kind == 3) {
		box_threads(b, &t);
	}
	report(b, "box", &t);
	_exit(0);
}

struct summary {
	long lines, ok, wrong, enosys, bad_exit;
};

static void collect(int fd, struct summary *s)
{
	char line[128];
	FILE *f = fdopen(fd, "r");

	while (f && fgets(line, sizeof(line), f)) {
		long ok, wrong, enosys;
		char who[16];
		int i;

		if (sscanf(line, "R %d %15s %ld %ld %ld", &i, who, &ok, &wrong, &enosys) != 5)
			continue;
		s->lines++;
		s->ok += ok;
		s->wrong += wrong;
		s->enosys += enosys;
		if (wrong || enosys)
			note("sandbox %d (%s, policy %s): %ld right, %ld wrong, %ld ENOSYS", i, who,
			     i % 2 ? "B" : "A", ok, wrong, enosys);
	}
	if (f)
		fclose(f);
}

/*
 * daemon-many SOCKET N [plain]: N sandboxes of policies A and B at once;
 * every answer checked. By default container ids repeat (16 of them) and
 * the short-lived clients close without reading the answer, as runc does;
 * plain: unique ids, every client reads its answer.
 */
static int cmd_daemon_many(int argc, char **argv)
{
	int results[2], barrier[2];
	struct summary s = { 0 };
	long expected_lines = 0;
	bool plain;
	pid_t *pids;
	int n;

	if (argc < 2 || argc > 3)
		return 2;
	n = (int)parse_long(argv[1]);
	plain = argc == 3 && strcmp(argv[2], "plain") == 0;
	pids = calloc((size_t)n, sizeof(*pids));
	if (!pids || pipe2(results, O_CLOEXEC) < 0 || pipe2(barrier, O_CLOEXEC) < 0)
		return setup_failed("pipes", errno);
	for (int i = 0; i < n; i++) {
		struct box b = { .i = i, .kind = (i / 2) % 4, .plain = plain,
				 .expect = i % 2 ? 2222 : 1111, .results = results[1],
				 .barrier = barrier[0] };

		expected_lines += b.kind == 2 ? 2 : 1;
		pids[i] = box_fork();
		if (pids[i] == 0) {
			close(results[0]);
			close(barrier[1]);
			box_main(argv[0], &b);
		}
	}
	close(results[1]);
	close(barrier[0]);
	close(barrier[1]); /* every sandbox started: the long ones go on */
	collect(results[0], &s);
	for (int i = 0; i < n; i++) {
		int st;

		if (pids[i] > 0 && waitpid(pids[i], &st, 0) > 0 &&
		    !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			s.bad_exit++;
			note("sandbox %d: %s %d", i, WIFSIGNALED(st) ? "killed by signal" : "exit",
			     WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		}
	}
	note("%d sandboxes: %ld reports of %ld expected, %ld right, %ld wrong, %ld ENOSYS, "
	     "%ld bad exits", n, s.lines, expected_lines, s.ok, s.wrong, s.enosys, s.bad_exit);
	if (s.lines == expected_lines && s.wrong == 0 && s.enosys == 0 && s.bad_exit == 0)
		result("BLOCKED all %d sandboxes got only their own answers", n);
	else
		result("CONFUSED reports=%ld/%ld wrong=%ld enosys=%ld bad_exits=%ld", s.lines,
		       expected_lines, s.wrong, s.enosys, s.bad_exit);
	free(pids);
	return 0;
}

/* getppid-loop EXPECT SECONDS READY: a victim sandbox counting answers not its policy's. */
static int cmd_getppid_loop(int argc, char **argv)
{
	struct tally t = { 0 };
	time_t end;
	long expect;
	int fd;

	if (argc != 3)
		return 2;
	expect = parse_long(argv[0]);
	end = time(NULL) + parse_long(argv[1]);
	calls(1, expect, &t);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	while (time(NULL) < end) {
		calls(1, expect, &t);
		pause_ms(2);
	}
	if (t.wrong || t.enosys)
		result("CONFUSED %ld of %ld answers were not policy %ld's (%ld ENOSYS)",
		       t.wrong + t.enosys, t.ok + t.wrong + t.enosys, expect, t.enosys);
	else
		result("BLOCKED all %ld answers were %ld", t.ok, expect);
	return 0;
}

static const struct {
	const char *name;
	int nr;
} notified_names[] = {
	{ "getppid", SYS_getppid }, { "openat", SYS_openat }, { "open", SYS_open },
	{ "connect", SYS_connect }, { "openat2", SYS_openat2 }, { "rename", SYS_rename },
	{ "link", SYS_link },       { "setxattr", SYS_setxattr }, { "fchownat", SYS_fchownat },
	{ "chown", SYS_chown },     { NULL, 0 },
};

/* "getppid,openat": the numbers the filter sends to the daemon. */
static int parse_notified(char *list, int *nrs)
{
	int n = 0;

	for (char *save = NULL, *w = strtok_r(list, ",", &save); w && n < MAX_NOTIFIED;
	     w = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; notified_names[k].name && strcmp(notified_names[k].name, w); k++)
			;
		if (!notified_names[k].name)
			return -EINVAL;
		nrs[n++] = notified_names[k].nr;
	}
	return n;
}

/*
 * With ATTACK_REGISTER_AGAIN=POLICY: a dup of the listener registered too,
 * under POLICY, on a connection of its own; "# AGAIN registered|refused"
 * (r11-daemon-listener-twice.sh: one sandbox, two policies in turn).
 */
static void register_again(const char *sock, int listener)
{
	const char *policy = getenv("ATTACK_REGISTER_AGAIN");
	int again, r;

	if (!policy)
		return;
	again = fcntl(listener, F_DUPFD_CLOEXEC, 0);
	r = again < 0 ? -errno : register_as(sock, again, policy, (int)getpid(), true);
	if (again >= 0)
		close(again);
	note("AGAIN %s", r == 0 ? "registered" : "refused");
}

/* The sandbox is a child of ours, in a pid namespace of its own: its status is ours. */
static int daemon_run_boxed(void)
{
	pid_t box = box_fork();
	int st;

	if (box < 0)
		return setup_failed("fork", errno);
	if (box > 0) {
		while (waitpid(box, &st, 0) < 0)
			if (errno != EINTR)
				return setup_failed("wait", errno);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	box_init();
	return -1;
}

/*
 * daemon-run SOCKET POLICY CALLS PROGRAM [ARGS...]: this process loads a
 * filter sending CALLS to the daemon, registers itself under POLICY, and
 * execs PROGRAM, which the daemon then supervises. CALLS "foreign:LIST":
 * calls through another ABI are sent too (load_filter). With
 * ATTACK_CLAIM_PID=N the client lies: the sandbox stays in our pid
 * namespace and the registration names process N.
 */
static int cmd_daemon_run(int argc, char **argv)
{
	const char *claim = getenv("ATTACK_CLAIM_PID");
	int nrs[MAX_NOTIFIED], n, listener, r;
	bool foreign;

	if (argc < 4)
		return 2;
	if (!claim) {
		r = daemon_run_boxed();
		if (r >= 0)
			return r;
	}
	foreign = strncmp(argv[2], "foreign:", 8) == 0;
	n = parse_notified(argv[2] + (foreign ? 8 : 0), nrs);
	if (n <= 0)
		return 2;
	listener = load_filter(nrs, n, foreign);
	if (listener < 0)
		return setup_failed("filter", errno);
	if (claim)
		outer_pid = (pid_t)parse_long(claim);
	r = register_as(argv[0], listener, argv[1], (int)getpid(), true);
	if (r < 0)
		return setup_failed("register", -r);
	register_again(argv[0], listener);
	close(listener);
	execv(argv[3], argv + 3);
	return setup_failed("exec", errno);
}

const struct attack_cmd attack_daemon_cmds[] = {
	{ "daemon-run", "SOCK POLICY CALLS PROG...  register with unotifyd, exec PROG",
	  cmd_daemon_run },
	{ "daemon-many", "SOCKET N [plain]  (outside) N sandboxes of policies A and B at once",
	  cmd_daemon_many },
	{ "getppid-loop", "EXPECT SECS READY  getppid for SECS, each answer checked",
	  cmd_getppid_loop },
	{ NULL, NULL, NULL },
};
