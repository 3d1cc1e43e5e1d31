/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc-escape: a hostile program for the adversarial tests proc-*.sh. Each
 * command tries to reach the supervisor (its /proc entries, its process,
 * its listener) or to lean on the supervisor's privilege, and prints one
 * line saying what it got ("data=...", "ok ...", "err ENAME"), so that the
 * test can check the forbidden effect did not happen.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>

#include "lib/uapi.h"

static int report_err(int err)
{
	const char *name = strerrorname_np(err);

	printf("err %s\n", name ? name : "E?");
	return 0;
}

/* The first line of what fd reads (at most 200 bytes), as data=LINE. */
static int report_read(int fd)
{
	char buf[256];
	ssize_t n = read(fd, buf, 200);

	if (n < 0)
		return report_err(errno);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\0' || (unsigned char)*p < ' ')
			*p = ' ';
	printf("data=%s\n", buf);
	return 0;
}

static int cmd_read(int dirfd, const char *path, int flags)
{
	int fd = openat(dirfd, path, flags | O_CLOEXEC);

	if (fd < 0)
		return report_err(errno);
	report_read(fd);
	close(fd);
	return 0;
}

/* Like runc's init: not dumpable, no CAP_SYS_PTRACE, then its own fd through /proc/self/fd. */
static int cmd_nodump_fd(const char *path)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2];
	char link[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return report_err(errno);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || syscall(SYS_capget, &h, caps) < 0)
		return report_err(errno);
	for (int i = 0; i < 2; i++)
		caps[i].effective = caps[i].permitted = caps[i].inheritable = 0;
	if (syscall(SYS_capset, &h, caps) < 0)
		return report_err(errno);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	return cmd_read(AT_FDCWD, link, O_RDONLY);
}

/* Every fd of pid that we can copy: is one of them a seccomp listener? */
static int cmd_steal(pid_t pid)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int copied = 0;

	if (pidfd < 0)
		return report_err(errno);
	for (int n = 0; n < 256; n++) {
		char link[64], text[128];
		int fd = (int)syscall(SYS_pidfd_getfd, pidfd, n, 0);
		ssize_t len;

		if (fd < 0) {
			if (errno != EBADF)
				return report_err(errno);
			continue;
		}
		copied++;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, text, sizeof(text) - 1);
		if (len > 0) {
			text[len] = '\0';
			if (strstr(text, "seccomp")) {
				printf("stolen listener fd %d\n", n);
				return 0;
			}
		}
		close(fd);
	}
	printf("ok copied=%d no-listener\n", copied);
	return 0;
}

static int report_call(long r)
{
	if (r < 0)
		return report_err(errno);
	printf("ok\n");
	return 0;
}

static int cmd_vmread(pid_t pid)
{
	char buf[16], maps[64], line[256];
	unsigned long start = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (f && fgets(line, sizeof(line), f))
		start = strtoul(line, NULL, 16);
	if (f)
		fclose(f);
	struct iovec local = { buf, sizeof(buf) }, remote = { (void *)start, sizeof(buf) };
	return report_call(process_vm_readv(pid, &local, 1, &remote, 1, 0));
}

static int cmd_perf(pid_t pid)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1 };
	long fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);

	if (fd >= 0)
		close((int)fd);
	return report_call(fd);
}

static int cmd_ptrace(pid_t pid)
{
	long r = ptrace(PTRACE_SEIZE, pid, 0, 0);

	if (r == 0)
		ptrace(PTRACE_DETACH, pid, 0, 0);
	return report_call(r);
}

static int cmd_prlimit(pid_t pid)
{
	struct rlimit none = { 0, 0 };

	return report_call(prlimit(pid, RLIMIT_NOFILE, &none, NULL));
}

/* kill(0, SIGKILL) from a child: its whole process group, wherever its members live. */
static int cmd_kill_group(void)
{
	pid_t c = fork();
	int st;

	if (c == 0) {
		kill(0, SIGKILL);
		_exit(0);
	}
	waitpid(c, &st, 0);
	printf("survived\n");
	return 0;
}

/* N opens of path: how many read what (a racing writer replaces the file meanwhile). */
static int cmd_loop_read(const char *path, int n, const char *marker)
{
	int got = 0, refused = 0, other = 0;

	for (int i = 0; i < n; i++) {
		char buf[64];
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len;

		if (fd < 0) {
			refused++;
			continue;
		}
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[len > 0 ? len : 0] = '\0';
		if (strstr(buf, marker))
			got++;
		else
			other++;
	}
	printf("read-marker=%d refused=%d other=%d\n", got, refused, other);
	return 0;
}

/* A private mount namespace where src is mounted over dst, then dst read by its name. */
static int cmd_unshare_bind(const char *src, const char *dst)
{
	if (unshare(CLONE_NEWNS) < 0)
		return report_err(errno);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount(src, dst, NULL, MS_BIND, NULL) < 0)
		return report_err(errno);
	return cmd_read(AT_FDCWD, dst, O_RDONLY);
}

/* The numeric entries of /proc: the processes we can name. */
static int cmd_pids(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return report_err(errno);
	printf("pids=");
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			printf("%s ", e->d_name);
	printf("\n");
	closedir(d);
	return 0;
}

/* Who /proc/self and /proc/thread-self say we are, against getpid() and gettid(). */
static int cmd_self(void)
{
	char self[64] = "", thread[64] = "", want[64];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);
	ssize_t m = readlink("/proc/thread-self", thread, sizeof(thread) - 1);
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long pid = -1;

	if (n > 0)
		self[n] = '\0';
	if (m > 0)
		thread[m] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Pid:", 4) == 0)
			pid = strtol(line + 4, NULL, 10);
	if (f)
		fclose(f);
	snprintf(want, sizeof(want), "%d/task/%d", (int)getpid(), (int)gettid());
	printf("self=%s status=%ld getpid=%d thread-self=%s\n",
	       (pid == getpid() && atoi(self) == getpid()) ? "own" : self, pid, (int)getpid(),
	       strcmp(thread, want) == 0 ? "own" : thread);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	pid_t pid = argc > 2 ? (pid_t)atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(cmd, "read") == 0 && argc == 3)
		return cmd_read(AT_FDCWD, argv[2], O_RDONLY);
	if (strcmp(cmd, "readat") == 0 && argc == 4)
		return cmd_read(atoi(argv[2]), argv[3], O_RDONLY);
	if (strcmp(cmd, "chdir-read") == 0 && argc == 4)
		return chdir(argv[2]) < 0 ? report_err(errno)
					  : cmd_read(AT_FDCWD, argv[3], O_RDONLY);
	if (strcmp(cmd, "chroot-read") == 0 && argc == 4)
		return chroot(argv[2]) < 0 || chdir("/") < 0 ? report_err(errno)
							 : cmd_read(AT_FDCWD, argv[3], O_RDONLY);
	if (strcmp(cmd, "loop-read") == 0 && argc == 5)
		return cmd_loop_read(argv[2], atoi(argv[3]), argv[4]);
	if (strcmp(cmd, "unshare-bind") == 0 && argc == 4)
		return cmd_unshare_bind(argv[2], argv[3]);
	if (strcmp(cmd, "nodump-fd") == 0 && argc == 3)
		return cmd_nodump_fd(argv[2]);
	if (strcmp(cmd, "steal") == 0 && argc == 3)
		return cmd_steal(strcmp(argv[2], "ppid") == 0 ? getppid() : pid);
	if (strcmp(cmd, "stop") == 0 && argc == 3)
		return report_call(kill(pid, SIGSTOP));
	if (strcmp(cmd, "ptrace") == 0 && argc == 3)
		return cmd_ptrace(pid);
	if (strcmp(cmd, "prlimit") == 0 && argc == 3)
		return cmd_prlimit(pid);
	if (strcmp(cmd, "kcmp") == 0 && argc == 3)
		return report_call(syscall(SYS_kcmp, getpid(), pid, 0, 0, 0));
	if (strcmp(cmd, "renice") == 0 && argc == 3)
		return report_call(setpriority(PRIO_PROCESS, (id_t)pid, 19));
	if (strcmp(cmd, "sched") == 0 && argc == 3) {
		struct sched_param sp = { 0 };

		return report_call(sched_setscheduler(pid, SCHED_IDLE, &sp));
	}
	if (strcmp(cmd, "vmread") == 0 && argc == 3)
		return cmd_vmread(pid);
	if (strcmp(cmd, "perf") == 0 && argc == 3)
		return cmd_perf(pid);
	if (strcmp(cmd, "kill-group") == 0)
		return cmd_kill_group();
	if (strcmp(cmd, "pids") == 0)
		return cmd_pids();
	if (strcmp(cmd, "self") == 0)
		return cmd_self();
	if (strcmp(cmd, "ppid") == 0)
		return printf("ppid=%d\n", (int)getppid()) < 0;
	fprintf(stderr, "usage: proc-escape read|readat|chdir-read|chroot-read|loop-read|"
			"unshare-bind|nodump-fd|steal|stop|ptrace|prlimit|kcmp|renice|sched|"
			"vmread|perf|kill-group|pids|self|ppid ...\n");
	return 2;
}
