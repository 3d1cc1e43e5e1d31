/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A spawned program's own pid namespace, so that it can name no process
 * outside its sandbox: not the supervisor (kill, ptrace, pidfd_open and
 * pidfd_getfd of its listener, prlimit, sched_*, setpriority, kcmp,
 * perf_event_open, process_vm_*: every pid-taking call), not the processes
 * next to it. The pieces, in order:
 *  - fds the program would inherit that reach outside a pid namespace (a
 *    /proc directory, a namespace, a pidfd) are refused before fork;
 *  - the first process of the namespace (its pid 1) gets a mount
 *    namespace and a /proc of its own (the old one detached, when it can
 *    be: a program that may umount finds nothing under it), and a process
 *    group of its own (kill(0), setpriority(PRIO_PGRP, 0) and F_SETOWN of a
 *    group reach every member of the group, whatever its namespace);
 *  - it forks the program's process and becomes its init: pid 1 must reap
 *    orphans and, unlike the program would, receive the signals
 *    `unotify run` forwards (a pid 1 gets only those it handles). Being
 *    outside the program's filter, it runs under one of its own that lets
 *    it only wait, exit and signal the program's process: a program that
 *    may ptrace it can make it do nothing else. It closes every fd and
 *    drops every capability first.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/magic.h>

#include "internal.h"
#include "uapi.h"
#include "util.h"

/* ---- Before fork, in the parent ---- */

/* A descriptor whose holder can name processes outside its pid namespace. */
static bool spawn_ns_fd_escapes(int fd)
{
	char link[64], text[64];
	struct statfs sfs;
	struct stat st;
	ssize_t n;

	if (fstatfs(fd, &sfs) < 0 || fstat(fd, &st) < 0)
		return false;
	/* A /proc directory (the root or a task's) of our pid namespace, or a namespace. */
	if ((sfs.f_type == PROC_SUPER_MAGIC && S_ISDIR(st.st_mode)) || sfs.f_type == NSFS_MAGIC)
		return true;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, text, sizeof(text) - 1);
	if (n <= 0)
		return false;
	text[n] = '\0';
	return strcmp(text, "anon_inode:[pidfd]") == 0;
}

int spawn_ns_check_fds(const int stdio_fds[3])
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int r = 0;

	for (int i = 0; i < 3; i++)
		if (stdio_fds[i] >= 0 && spawn_ns_fd_escapes(stdio_fds[i]))
			r = -EBADFD;
	if (!d)
		return r < 0 ? r : negative_errno();
	while (r == 0 && (e = readdir(d))) {
		int fd = atoi(e->d_name), fl;

		if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == dirfd(d))
			continue;
		/* 0, 1, 2 are the child's only if stdio_fds does not replace them. */
		if (fd < 3 && stdio_fds[fd] >= 0)
			continue;
		fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC) && spawn_ns_fd_escapes(fd))
			r = -EBADFD;
	}
	closedir(d);
	return r;
}

/*
 * fork() with the child as pid 1 of a new pid namespace. unshare(CLONE_NEWPID)
 * puts the calling thread's later children there, for good: it is done in a
 * thread of its own, which forks and ends, so that our other children (the
 * network helpers) stay in our namespace. (Coming back with setns() would
 * need CAP_SYS_ADMIN over our own namespace, which a user namespace of ours
 * does not give.) The child goes on in that thread's stead: child(arg).
 */
struct spawn_ns_job {
	void (*child)(const void *arg);
	const void *arg;
	pid_t pid;
	int error;
};

static void *spawn_ns_thread(void *data)
{
	struct spawn_ns_job *job = data;

	if (unshare(CLONE_NEWPID) < 0) {
		job->error = errno;
		return NULL;
	}
	job->pid = fork();
	if (job->pid == 0)
		job->child(job->arg); /* never returns */
	if (job->pid < 0)
		job->error = errno;
	return NULL;
}

int spawn_ns_fork(void (*child)(const void *arg), const void *arg, pid_t *ret)
{
	struct spawn_ns_job job = { .child = child, .arg = arg, .pid = -1 };
	pthread_t t;
	int r;

	r = pthread_create(&t, NULL, spawn_ns_thread, &job);
	if (r > 0)
		return -r;
	pthread_join(t, NULL);
	if (job.error)
		return -job.error;
	*ret = job.pid;
	return 0;
}

/* ---- The terminal: the program's group in the foreground while it runs ---- */

static void spawn_tty_set(int fd, pid_t pgrp)
{
	sigset_t ttou, old;

	/* A background group's tcsetpgrp raises SIGTTOU: not for us. */
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &old);
	(void)tcsetpgrp(fd, pgrp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int spawn_tty_give(pid_t pgrp, int *ret_fd)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	*ret_fd = -1;
	if (fd < 0)
		return 0; /* no controlling terminal: nothing to hand over */
	if (tcgetpgrp(fd) != getpgrp()) {
		fd = safe_close(fd);
		return 0; /* we are not in the foreground: neither is the program */
	}
	/* The child does it too; whoever is first, the group exists before tcsetpgrp. */
	if (setpgid(pgrp, pgrp) < 0 && errno != EACCES) {
		fd = safe_close(fd);
		return negative_errno();
	}
	spawn_tty_set(fd, pgrp);
	*ret_fd = fd;
	return 0;
}

void spawn_tty_take_back(int *fd)
{
	if (*fd < 0)
		return;
	spawn_tty_set(*fd, getpgrp());
	*fd = safe_close(*fd);
}

/* ---- In the namespace's first process ---- */

/* A mount namespace whose /proc shows this pid namespace, and only it. */
static int spawn_ns_mount_proc(void)
{
	if (unshare(CLONE_NEWNS) < 0)
		return negative_errno();
	/* Nothing we mount may propagate back to the parent's namespace. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return negative_errno();
	/*
	 * Detached, the old /proc is not under the new one for a program that
	 * may umount. In a user namespace of ours the copied mounts are locked
	 * (EINVAL): the program cannot umount them either.
	 */
	if (umount2("/proc", MNT_DETACH) < 0 && errno != EINVAL && errno != ENOENT)
		return negative_errno();
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return negative_errno();
	return 0;
}

#define INIT_ALLOW(nr)                                  \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/*
 * The init's own filter: wait, exit, signal the program's process, and
 * close the readiness pipe ready (when >= 0); nothing else.
 */
static int spawn_init_filter(pid_t program, int ready)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UNOTIFY_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __x86_64__
		/* x32 numbers share the native architecture: never theirs. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, UNOTIFY_X32_SYSCALL_BIT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
		INIT_ALLOW(SYS_rt_sigtimedwait),
		INIT_ALLOW(SYS_wait4),
		INIT_ALLOW(SYS_exit_group),
		INIT_ALLOW(SYS_exit),
		INIT_ALLOW(SYS_rt_sigreturn),
		INIT_ALLOW(SYS_restart_syscall),
		/* close(ready): to the allow or the kill at the end (the fd is 32 bits). */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ready, 5, 6),
		/* kill(program, sig) only, the pid compared in full */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)program, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(f), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return negative_errno();
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0 ? negative_errno() : 0;
}

/* Numbers we do not own and never use again: close_range (5.9), else raw closes. */
static void spawn_init_close_all_but(int keep)
{
	if (keep > 0 && syscall(SYS_close_range, 0U, (unsigned int)keep - 1, 0U) < 0)
		goto slow;
	if (syscall(SYS_close_range, (unsigned int)keep + 1, ~0U, 0U) < 0)
		goto slow;
	return;
slow:
	for (long fd = 0; fd < 65536; fd++)
		if (fd != keep)
			(void)syscall(SYS_close, fd);
}

/*
 * Nothing of ours for a program that may trace the init: no fd but the
 * readiness pipe, no capability (the bounding set too, so that an exec
 * regains none), the program's uid when it has another (the init must
 * still signal it, and the program may then do to the init only what it
 * may do to itself).
 */
static int spawn_init_disarm(const struct spawn_init *in)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = { 0 };

	spawn_init_close_all_but(in->ready);
	for (int c = 0; c <= 63; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return negative_errno();
	if (in->set_user) {
		(void)syscall(SYS_setgroups, 0, NULL);
		if (syscall(SYS_setresgid, in->gid, in->gid, in->gid) < 0 ||
		    syscall(SYS_setresuid, in->uid, in->uid, in->uid) < 0)
			return negative_errno();
	}
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || syscall(SYS_capset, &h, none) < 0)
		return negative_errno();
	return 0;
}

/* What a shell says of a child: its exit code, or 128+N when signal N killed it. */
static int spawn_init_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 125;
}

/* The signals `unotify run` forwards; from outside the namespace (si_pid 0) only. */
static bool spawn_init_forwards(int sig, const siginfo_t *si)
{
	return (sig == SIGTERM || sig == SIGHUP || sig == SIGUSR1 || sig == SIGUSR2) &&
	       (si->si_code == SI_USER || si->si_code == SI_QUEUE) && si->si_pid == 0;
}

static _Noreturn void spawn_init_loop(pid_t program)
{
	int code = 125, status;
	bool done = false;
	sigset_t all;

	sigfillset(&all);
	for (;;) {
		siginfo_t si = { 0 };
		long sig = syscall(SYS_rt_sigtimedwait, &all, &si, NULL, (size_t)(_NSIG / 8));
		pid_t p;

		if (sig > 0 && sig != SIGCHLD) {
			if (!done && spawn_init_forwards((int)sig, &si))
				syscall(SYS_kill, program, sig);
			continue;
		}
		/* An error that would come back at once: never spin, end the sandbox. */
		if (sig < 0 && errno != EINTR && errno != EAGAIN)
			syscall(SYS_exit_group, 125);
		while ((p = (pid_t)syscall(SYS_wait4, -1, &status, WNOHANG | __WALL, NULL)) > 0)
			if (p == program) {
				code = spawn_init_code(status);
				done = true;
			}
		/* Nobody left: the program and every orphan are reaped. */
		if (p < 0 && errno == ECHILD)
			syscall(SYS_exit_group, code);
	}
}

/*
 * The init proper, in whatever image runs it: its own filter, then the
 * readiness pipe closed (the supervisor answers the program's gate only
 * then, so the program never runs beside an init not yet confined).
 */
static _Noreturn void spawn_init_run(pid_t program, int ready)
{
	sigset_t all;

	sigfillset(&all);
	(void)sigprocmask(SIG_SETMASK, &all, NULL);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	(void)prctl(PR_SET_NAME, "unotify-init", 0, 0, 0);
	/* Without its filter it must not stay: its death kills the program too. */
	if (signal(SIGCHLD, SIG_DFL) == SIG_ERR || spawn_init_filter(program, ready) < 0)
		syscall(SYS_exit_group, 125);
	if (ready >= 0)
		(void)syscall(SYS_close, (long)ready);
	spawn_init_loop(program);
}

int unotify_sandbox_init_main(int argc, char **argv)
{
	char *end;
	long program, ready;

	if (argc != 3 || strcmp(argv[0], UNOTIFY_INIT_ARGV0) != 0)
		return 125;
	program = strtol(argv[1], &end, 10);
	if (*end || program <= 0)
		return 125;
	ready = strtol(argv[2], &end, 10);
	if (*end || ready < 0)
		return 125;
	spawn_init_run((pid_t)program, (int)ready);
}

/*
 * A clean image for the init: this process's memory is a copy of the
 * supervisor's (its policy, its environment), which a program with
 * CAP_SYS_PTRACE could read. exe runs unotify_sandbox_init_main().
 */
static _Noreturn void spawn_init_exec(const struct spawn_init *in, pid_t program)
{
	char pid[16], fd[16];
	char *argv[] = { (char *)UNOTIFY_INIT_ARGV0, pid, fd, NULL };
	char *envp[] = { NULL };

	snprintf(pid, sizeof(pid), "%d", (int)program);
	snprintf(fd, sizeof(fd), "%d", in->ready);
	if (fcntl(in->ready, F_SETFD, 0) == 0)
		execve(in->exe, argv, envp);
	syscall(SYS_exit_group, 125);
	__builtin_unreachable();
}

int spawn_init_start(const struct spawn_init *in)
{
	pid_t program;
	int r;

	/* Its group: no kill(0) of the program's reaches the supervisor's. */
	if (setpgid(0, 0) < 0)
		return negative_errno();
	/* Orphans must stay to be waited for (SIG_IGN would reap them unseen, and the program). */
	if (signal(SIGCHLD, SIG_DFL) == SIG_ERR)
		return negative_errno();
	r = spawn_ns_mount_proc();
	if (r < 0)
		return r;
	program = fork();
	if (program < 0)
		return negative_errno();
	if (program == 0)
		return 0;
	if (spawn_init_disarm(in) < 0)
		syscall(SYS_exit_group, 125);
	if (in->exe)
		spawn_init_exec(in, program);
	spawn_init_run(program, in->ready);
}
