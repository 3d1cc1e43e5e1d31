/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci-client: speaks to unotifyd the way OCI runtimes and hostile clients do,
 * for tests/live/daemon-*.sh.
 *
 *   register SOCKET [--style runc|crun|run] [--metadata M] [--id ID] [--notify a,b]
 *            [--no-ack] [--serial S] [--hold-close SECONDS] [--share-pid] -- PROGRAM [ARGS]
 *       a child loads a filter (notify the listed calls, allow the rest), its
 *       listener is sent in a runc- or crun-style container process state
 *       (or by client_register() of `unotify run --daemon`, with --metadata
 *       the policy name), then the child execs PROGRAM; exits with its status.
 *       --serial S: the state carries "policySerial": S, as `unotify run
 *       --daemon` sends the version of the policy whose kernel layer it loaded.
 *       --hold-close: a second fd ("held") goes with the state, a file on a
 *       FUSE mount of ours whose close by the daemon waits SECONDS (its
 *       FLUSH, uninterruptible): the daemon's thread closing it is held
 *       between reading the message and registering the sandbox.
 *       As a runtime does, each sandbox is pid 1 of a pid namespace of its
 *       own (unotifyd refuses sandboxes in its namespace), unless --share-pid
 *       (also for many and mix).
 *   send SOCKET [--data TEXT | --data-file F | --zeros N] [--fd PATH]...
 *       sends bytes with fds in SCM_RIGHTS, prints the answer, "eof" once the
 *       daemon closed the connection (exit 0), "open" if it did not in 10 s.
 *   silent SOCKET SECONDS
 *       connects and sends nothing: "dropped" (0) if the daemon closes first.
 *   request SOCKET JSON        prints the daemon's answer
 *   many SOCKET N [--daemon-pid PID] [--metadata M]
 *       N sandboxes at once, each making a notified getppid (expects 42)
 *       before and after a barrier that holds them all alive together.
 *   mix SOCKET N [options]     N sandboxes of several policies, registered
 *       and ended concurrently, every answer checked (oci-mix.c)
 *   notify-listen PATH SECONDS prints the datagrams sent to PATH (NOTIFY_SOCKET)
 *   loop-getppid N             N getppid calls: "ns_per_call=..."
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
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

#include "daemon/protocol/client.h"
#include "fuse-hold.h"
#include "oci-client.h"

int die(const char *what)
{
	fprintf(stderr, "oci-client: %s: %s\n", what, strerror(errno));
	return 2;
}

int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Sends len bytes; the fds travel with the first sendmsg. */
int send_with_fds(int sock, const char *data, size_t len, const int *fds, size_t nfds)
{
	char control[CMSG_SPACE(sizeof(int) * 64)];
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	size_t off = 0;

	if (nfds > 0) {
		struct cmsghdr *cm;

		memset(control, 0, sizeof(control));
		mh.msg_control = control;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
	}
	while (off < len || (off == 0 && len == 0)) {
		ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);

		if (n < 0)
			return -1;
		off += n;
		if (len == 0)
			break;
		iov.iov_base = (char *)data + off;
		iov.iov_len = len - off;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
	}
	return 0;
}

/* Reads until EOF or timeout; prints what came; 0 at EOF, 1 on timeout. */
int read_answer(int sock, int timeout_ms, FILE *out)
{
	char buf[65536];

	for (;;) {
		struct pollfd p = { .fd = sock, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, timeout_ms) <= 0)
			return 1;
		n = recv(sock, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		if (out)
			fwrite(buf, 1, n, out);
	}
}

int recv_fd(int sock)
{
	char control[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) <= 0)
		return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* ---- The sandboxed child ---- */

scmp_filter_ctx build_filter(const char *list)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	char *copy = strdup(list), *save = NULL;

	for (char *name = strtok_r(copy, ",", &save); ctx && name;
	     name = strtok_r(NULL, ",", &save)) {
		int nr = seccomp_syscall_resolve_name(name);

		if (nr == __NR_SCMP_ERROR || seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0) < 0) {
			fprintf(stderr, "oci-client: cannot notify '%s'\n", name);
			seccomp_release(ctx);
			ctx = NULL;
		}
	}
	free(copy);
	return ctx;
}

/* In the child: load the filter and pass the listener up; returns 0 or exits. */
void child_load(scmp_filter_ctx ctx, int sock)
{
	int fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_load(ctx) < 0)
		_exit(120);
	fd = seccomp_notify_fd(ctx);
	if (fd < 0 || send_with_fds(sock, "L", 1, &fd, 1) < 0)
		_exit(121);
	close(fd);
	close(sock);
}

/* ---- Messages as the runtimes write them ---- */

char *state_runc(pid_t pid, const char *id, const char *metadata)
{
	char *s, md[1024] = "";

	if (metadata)
		snprintf(md, sizeof(md), "\"metadata\":\"%s\",", metadata);
	if (asprintf(
		    &s,
		    "{\"ociVersion\":\"1.0.2-dev\",\"fds\":[\"seccompFd\"],\"pid\":%d,%s"
		    "\"state\":{\"ociVersion\":\"1.0.2-dev\",\"id\":\"%s\",\"status\":\"creating\","
		    "\"pid\":%d,\"bundle\":\"/path/to/bundle\"}}",
		    (int)pid, md, id, (int)pid) < 0)
		return NULL;
	return s;
}

char *state_crun(pid_t pid, const char *id, const char *metadata)
{
	char *s, md[1024] = "";

	if (metadata)
		snprintf(md, sizeof(md), "    \"metadata\": \"%s\",\n", metadata);
	if (asprintf(&s,
		     "{\n    \"ociVersion\": \"0.2.0\",\n    \"fds\": [\n        \"seccompFd\"\n"
		     "    ],\n    \"pid\": %d,\n%s    \"state\": {\n"
		     "        \"ociVersion\": \"0.2.0\",\n        \"id\": \"%s\",\n"
		     "        \"status\": \"creating\",\n        \"pid\": %d,\n"
		     "        \"bundle\": \"/path/to/bundle\",\n        \"annotations\": {\n"
		     "            \"io.container.manager\": \"test\"\n        }\n    }\n}\n",
		     (int)pid, md, id, (int)pid) < 0)
		return NULL;
	return s;
}


/*
 * The state with the listener and a file whose close waits (fuse-hold.c):
 * the daemon's close of it, between reading the message and registering
 * the sandbox, holds that thread for hold_close seconds, and no signal
 * cuts it short. Ours is closed at once (its server answers us at once).
 */
static int hand_over_held(const struct reg_opts *o, int sock, const char *msg, int listener)
{
	static const char one_fd[] = "\"fds\":[\"seccompFd\"]";
	char *two = NULL, *at = strstr(msg, one_fd);
	int fds[2] = { listener, fuse_hold_open(o->hold_close) }, r;

	if (!at || fds[1] < 0 ||
	    asprintf(&two, "%.*s\"fds\":[\"seccompFd\",\"held\"]%s", (int)(at - msg), msg,
		     at + strlen(one_fd)) < 0)
		return die("preparing the held fd");
	r = send_with_fds(sock, two, 1, fds, 2);
	close(fds[1]);
	if (r == 0)
		r = send_with_fds(sock, two + 1, strlen(two) - 1, NULL, 0);
	free(two);
	return r < 0 ? die("hand-over") : 0;
}

/* `unotify run --daemon`'s own client (daemon/protocol/client.c), --metadata being the name. */
static int hand_over_run(const struct reg_opts *o, int listener, pid_t pid)
{
	int r = client_register(o->socket, o->metadata, listener, pid);

	fprintf(stderr, "handoff: %s: %s\n", r == 0 ? "0" : strerrorname_np(-r),
		client_strerror(r));
	return 0;
}

/* Hands one listener to the daemon; prints the daemon's answer to stderr. */
int hand_over(const struct reg_opts *o, int listener, pid_t pid, const char *id)
{
	char *msg;
	int sock, r = 0;

	if (strcmp(o->style, "run") == 0)
		return hand_over_run(o, listener, pid);
	msg = strcmp(o->style, "crun") == 0 ? state_crun(pid, id, o->metadata) :
					      state_runc(pid, id, o->metadata);
	if (msg && o->serial) {
		char *pinned = NULL;

		if (asprintf(&pinned, "{\"policySerial\":%s,%s", o->serial, msg + 1) < 0)
			pinned = NULL;
		free(msg);
		msg = pinned;
	}
	sock = connect_to(o->socket);

	if (msg && sock >= 0 && o->hold_close > 0) {
		r = hand_over_held(o, sock, msg, listener);
		if (r == 0 && o->ack) {
			shutdown(sock, SHUT_WR);
			read_answer(sock, ANSWER_TIMEOUT_MS, o->answer ? o->answer : stderr);
		}
	} else if (!msg || sock < 0 || send_with_fds(sock, msg, strlen(msg), &listener, 1) < 0) {
		r = die("hand-over");
	} else if (o->ack) {
		shutdown(sock, SHUT_WR);
		read_answer(sock, ANSWER_TIMEOUT_MS, o->answer ? o->answer : stderr);
	}
	if (sock >= 0)
		close(sock);
	free(msg);
	return r;
}

bool share_pid;

/*
 * fork(), the child in a new pid namespace (its pid 1) unless share_pid:
 * we enter it for our children only, fork, and come back to ours, so that
 * the next sandbox gets a namespace of its own too. Unprivileged (a hostile
 * client): ours, as it could not do otherwise.
 */
pid_t fork_sandbox(void)
{
	int ours = -1;
	pid_t pid;

	if (!share_pid) {
		ours = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
		if (ours < 0)
			return -1;
		if (unshare(CLONE_NEWPID) < 0) {
			close(ours);
			ours = -1;
			if (errno != EPERM)
				return -1;
		}
	}
	pid = fork();
	if (pid != 0 && ours >= 0) {
		if (setns(ours, CLONE_NEWPID) < 0)
			pid = -1;
		close(ours);
	}
	return pid;
}

int wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

pid_t child_start(scmp_filter_ctx ctx, int *ret_listener, int *ret_go)
{
	int sp[2], go[2];
	char one;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0)
		return -1;
	if (pipe2(go, O_CLOEXEC) < 0) {
		close(sp[0]);
		close(sp[1]);
		return -1;
	}
	pid = fork_sandbox();
	if (pid == 0) {
		close(sp[0]);
		close(go[1]);
		child_load(ctx, sp[1]);
		if (read(go[0], &one, 1) != 1)
			_exit(122);
		close(go[0]);
		return 0;
	}
	close(sp[1]);
	close(go[0]);
	*ret_listener = pid > 0 ? recv_fd(sp[0]) : -1;
	close(sp[0]);
	if (*ret_listener < 0) {
		close(go[1]);
		if (pid > 0)
			kill(pid, SIGKILL);
		return -1;
	}
	*ret_go = go[1];
	return pid;
}

void child_release(int go)
{
	char one = 1;

	if (write(go, &one, 1) != 1)
		die("releasing the child");
	close(go);
}

static int cmd_register(const struct reg_opts *o, char **argv)
{
	scmp_filter_ctx ctx = build_filter(o->notify);
	int listener, go;
	pid_t pid;

	if (!ctx)
		return die("setup");
	pid = child_start(ctx, &listener, &go);
	if (pid < 0)
		return die("starting the sandbox");
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	seccomp_release(ctx);
	if (hand_over(o, listener, pid, o->id) != 0)
		kill(pid, SIGKILL);
	close(listener);
	child_release(go);
	return wait_status(pid);
}

/* ---- Raw clients ---- */

/* Options after SOCKET: the payload and the fds to send with it. */
static char *send_payload(int argc, char **argv, size_t *ret_len, int *fds, size_t *ret_nfds)
{
	char *data = strdup("");
	size_t len = 0, nfds = 0;

	for (int i = 0; i + 1 < argc; i += 2) {
		const char *opt = argv[i], *arg = argv[i + 1];

		if (strcmp(opt, "--data") == 0) {
			free(data);
			data = strdup(arg);
			len = strlen(data);
		} else if (strcmp(opt, "--zeros") == 0) {
			len = strtoul(arg, NULL, 10);
			free(data);
			data = malloc(len + 1);
			memset(data, '0', len);
		} else if (strcmp(opt, "--data-file") == 0) {
			FILE *f = fopen(arg, "re");

			free(data);
			data = calloc(1, 1 << 20);
			len = f ? fread(data, 1, (1 << 20) - 1, f) : 0;
			if (f)
				fclose(f);
		} else if (strcmp(opt, "--fd") == 0 && nfds < 64) {
			fds[nfds] = open(arg, O_RDONLY | O_CLOEXEC);
			if (fds[nfds] < 0) {
				die(arg);
				exit(2);
			}
			nfds++;
		} else {
			fprintf(stderr, "oci-client: send: unknown option %s\n", opt);
			exit(2);
		}
	}
	*ret_len = len;
	*ret_nfds = nfds;
	return data;
}

static int cmd_send(int argc, char **argv)
{
	int fds[64], sock, r;
	size_t len, nfds;
	char *data = send_payload(argc - 1, argv + 1, &len, fds, &nfds);

	sock = connect_to(argv[0]);
	if (sock < 0)
		return die("connect");
	/* A megabyte does not fit the socket buffer: the daemon may close first. */
	if (send_with_fds(sock, data, len, fds, nfds) < 0 && errno != EPIPE && errno != ECONNRESET)
		return die("send");
	shutdown(sock, SHUT_WR);
	r = read_answer(sock, ANSWER_TIMEOUT_MS, stdout);
	printf("\n%s\n", r == 0 ? "eof" : "open");
	free(data);
	close(sock);
	return r;
}

static int cmd_silent(const char *path, int seconds)
{
	int sock = connect_to(path), r;

	if (sock < 0)
		return die("connect");
	r = read_answer(sock, seconds * 1000, stdout);
	printf("%s\n", r == 0 ? "dropped" : "still open");
	close(sock);
	return r;
}

static int cmd_request(const char *path, const char *json)
{
	int sock = connect_to(path), r;

	if (sock < 0)
		return die("connect");
	/* A refused client may find the connection closed already: read the why. */
	if (send(sock, json, strlen(json), MSG_NOSIGNAL) < 0 && errno != EPIPE)
		return die("send");
	shutdown(sock, SHUT_WR);
	r = read_answer(sock, ANSWER_TIMEOUT_MS, stdout);
	close(sock);
	return r;
}

/* ---- Many sandboxes at once ---- */

static void many_child(scmp_filter_ctx ctx, int sock, int results, int barrier, int i)
{
	char line[64], byte;
	long v;
	int n;

	child_load(ctx, sock);
	v = syscall(SYS_getppid);
	n = snprintf(line, sizeof(line), "R1 %d %ld %d\n", i, v, v < 0 ? errno : 0);
	if (write(results, line, n) != n)
		_exit(3);
	/* Everybody alive at once: wait for the parent to close the barrier. */
	while (read(barrier, &byte, 1) > 0)
		;
	v = syscall(SYS_getppid);
	n = snprintf(line, sizeof(line), "R2 %d %ld %d\n", i, v, v < 0 ? errno : 0);
	if (write(results, line, n) != n)
		_exit(3);
	_exit(0);
}

/* Starts sandbox i and hands its listener to the daemon. */
static pid_t many_start(const struct reg_opts *o, scmp_filter_ctx ctx, int results, int barrier[2],
			int i)
{
	char id[32];
	int sp[2], listener;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0)
		return -1;
	pid = fork_sandbox();
	if (pid == 0) {
		close(sp[0]);
		close(barrier[1]);
		many_child(ctx, sp[1], results, barrier[0], i);
	}
	close(sp[1]);
	listener = pid > 0 ? recv_fd(sp[0]) : -1;
	close(sp[0]);
	if (listener < 0)
		return -1;
	snprintf(id, sizeof(id), "many-%d", i);
	hand_over(o, listener, pid, id);
	close(listener);
	return pid;
}

/* Reads n result lines of one round; counts those that got 42. */
static int many_collect(FILE *in, const char *round, int n)
{
	char line[128], tag[8];
	int good = 0, idx, err;
	long v;

	for (int k = 0; k < n && fgets(line, sizeof(line), in); k++) {
		if (sscanf(line, "%7s %d %ld %d", tag, &idx, &v, &err) != 4 || strcmp(tag, round))
			continue;
		if (v == 42)
			good++;
		else
			fprintf(stderr, "sandbox %d: %s getppid=%ld errno=%d\n", idx, round, v,
				err);
	}
	return good;
}

/* Threads, fds and memory of the daemon while every sandbox is alive. */
static void many_report_daemon(const char *pid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Threads:", 8) || !strncmp(line, "VmRSS:", 6))
			printf("peak %s", line);
	if (f)
		fclose(f);
}

static int cmd_many(const struct reg_opts *o, int n, const char *daemon_pid)
{
	scmp_filter_ctx ctx = build_filter("getppid");
	int results[2], barrier[2], started = 0, ok1, ok2, bad = 0;
	pid_t *pids = calloc(n, sizeof(pid_t));
	FILE *in;

	if (!ctx || !pids || pipe2(results, O_CLOEXEC) < 0 || pipe2(barrier, O_CLOEXEC) < 0)
		return die("setup");
	for (int i = 0; i < n; i++) {
		pids[i] = many_start(o, ctx, results[1], barrier, i);
		if (pids[i] > 0)
			started++;
	}
	close(results[1]);
	close(barrier[0]);
	in = fdopen(results[0], "r");
	ok1 = many_collect(in, "R1", started);
	printf("started %d\nround1 ok %d\n", started, ok1);
	if (daemon_pid)
		many_report_daemon(daemon_pid);
	fflush(stdout);
	close(barrier[1]);
	ok2 = many_collect(in, "R2", started);
	for (int i = 0; i < n; i++)
		if (pids[i] > 0 && wait_status(pids[i]) != 0)
			bad++;
	printf("round2 ok %d\nexit bad %d\n", ok2, bad);
	seccomp_release(ctx);
	fclose(in);
	free(pids);
	return started == n && ok1 == n && ok2 == n && bad == 0 ? 0 : 1;
}

/* ---- systemd's side of sd_notify ---- */

static int cmd_notify_listen(const char *path, int seconds)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	time_t end = time(NULL) + seconds;
	char buf[4096];

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return die("bind");
	printf("listening\n");
	fflush(stdout);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		printf("%s\n", buf);
		fflush(stdout);
	}
	return 0;
}

static int cmd_loop_getppid(long n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ret=%ld ns_per_call=%.0f\n", (long)syscall(SYS_getppid),
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}

/* ---- main ---- */

static int parse_reg(int argc, char **argv, struct reg_opts *o)
{
	int i;

	*o = (struct reg_opts){ .socket = argv[0], .style = "runc", .id = "oci-test",
				.notify = "getppid", .ack = true };
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--") == 0)
			return i + 1;
		if (strcmp(a, "--share-pid") == 0) {
			share_pid = true;
			continue;
		}
		if (strcmp(a, "--no-ack") == 0) {
			o->ack = false;
			continue;
		}
		if (!v)
			break;
		if (strcmp(a, "--style") == 0)
			o->style = v;
		else if (strcmp(a, "--metadata") == 0)
			o->metadata = v;
		else if (strcmp(a, "--id") == 0)
			o->id = v;
		else if (strcmp(a, "--notify") == 0)
			o->notify = v;
		else if (strcmp(a, "--hold-close") == 0)
			o->hold_close = atoi(v);
		else if (strcmp(a, "--serial") == 0)
			o->serial = v;
		else if (strcmp(a, "--daemon-pid") == 0)
			;
		else
			break;
		i++;
	}
	return i;
}

static const char *opt_value(int argc, char **argv, const char *name)
{
	for (int i = 0; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

int main(int argc, char **argv)
{
	struct reg_opts o;
	const char *cmd = argc > 2 ? argv[1] : "";
	int rest;

	signal(SIGPIPE, SIG_IGN);
	if (strcmp(cmd, "register") == 0) {
		rest = parse_reg(argc - 2, argv + 2, &o);
		if (rest + 2 >= argc)
			goto usage;
		return cmd_register(&o, argv + 2 + rest);
	}
	if (strcmp(cmd, "many") == 0 && argc >= 4) {
		/* many SOCKET N [options]: N takes the place parse_reg gives SOCKET. */
		parse_reg(argc - 3, argv + 3, &o);
		o.socket = argv[2];
		o.ack = true;
		return cmd_many(&o, atoi(argv[3]), opt_value(argc, argv, "--daemon-pid"));
	}
	if (strcmp(cmd, "mix") == 0)
		return cmd_mix(argc - 2, argv + 2);
	if (strcmp(cmd, "send") == 0)
		return cmd_send(argc - 2, argv + 2);
	if (strcmp(cmd, "silent") == 0 && argc == 4)
		return cmd_silent(argv[2], atoi(argv[3]));
	if (strcmp(cmd, "request") == 0 && argc == 4)
		return cmd_request(argv[2], argv[3]);
	if (strcmp(cmd, "notify-listen") == 0 && argc == 4)
		return cmd_notify_listen(argv[2], atoi(argv[3]));
	if (strcmp(cmd, "loop-getppid") == 0)
		return cmd_loop_getppid(atol(argv[2]));
usage:
	fprintf(stderr, "usage: oci-client register|send|silent|request|many|mix|notify-listen|"
			"loop-getppid ... (see the comment at the top of oci-client.c)\n");
	return 2;
}
