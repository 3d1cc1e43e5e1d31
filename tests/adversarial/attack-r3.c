/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 3: core dumps (a file the kernel writes with no system call) and
 * the Landlock layer (rules the kernel enforces, their calls no longer
 * notified): programs that try to make the layered result differ from the
 * policy as written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/* prlimit64 itself: glibc's prlimit() is the same call, spelt out so the test says which. */
static int r3_prlimit(int resource, const struct rlimit *new, struct rlimit *old)
{
	return (int)syscall(SYS_prlimit64, 0, resource, new, old);
}

/*
 * Tries to raise RLIMIT_CORE by setrlimit and prlimit64; *ret_raised says
 * whether one did. Returns the errno the first refusal said (0: none).
 */
static int r3_core_raise(bool *ret_raised)
{
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY }, meg = { 1 << 20, 1 << 20 };
	struct rlimit now = { 0 };
	int err = 0;

	*ret_raised = false;
	if (setrlimit(RLIMIT_CORE, &inf) == 0)
		*ret_raised = true;
	else
		err = errno;
	note("setrlimit(RLIMIT_CORE, unlimited): %s", *ret_raised ? "done" : errname(err));
	if (r3_prlimit(RLIMIT_CORE, &meg, NULL) == 0) {
		*ret_raised = true;
	} else {
		note("prlimit64(0, RLIMIT_CORE, 1 MiB, NULL): %s", errname(errno));
		err = err ? err : errno;
	}
	/* A read (no new limit) must stay allowed. */
	if (r3_prlimit(RLIMIT_CORE, NULL, &now) < 0)
		note("prlimit64 read: %s", errname(errno));
	else
		note("core limit %llu:%llu", (unsigned long long)now.rlim_cur,
		     (unsigned long long)now.rlim_max);
	if (now.rlim_cur > 0)
		*ret_raised = true;
	return err;
}

/*
 * coredump-raise DIR segv|abort: raises RLIMIT_CORE, then a child in DIR
 * crashes (core_pattern "core": the kernel creates DIR/core with no call).
 * Prints CREATED when the child dumped core, RAISED when only the limit was
 * raised, else BLOCKED with the errno of the raise.
 */
static int cmd_coredump_raise(int argc, char **argv)
{
	bool raised = false;
	int status = 0, err;
	pid_t pid;

	if (argc != 2)
		return 2;
	if (chdir(argv[0]) < 0)
		return setup_failed("chdir", errno);
	err = r3_core_raise(&raised);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		note("PR_SET_DUMPABLE: %s", errname(errno));
	pid = fork();
	if (pid < 0)
		return setup_failed("fork", errno);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		if (strcmp(argv[1], "abort") == 0)
			abort();
		/* A real fault: a write to a page that is not mapped writable. */
		volatile int *bad = (volatile int *)(uintptr_t)strtoul("8", NULL, 10);
		*bad = 1;
		raise(SIGSEGV);
		_exit(1);
	}
	waitpid(pid, &status, 0);
	note("child status 0x%x", status);
	if (WIFSIGNALED(status) && WCOREDUMP(status)) {
		result("CREATED %s/core (core dumped)", argv[0]);
		return 0;
	}
	if (raised) {
		result("RAISED RLIMIT_CORE (no dump)");
		return 0;
	}
	return blocked(err ? err : EPERM);
}


/* A copy of path in a memfd (MFD_CLOEXEC only: executable unless vm.memfd_noexec says not). */
static int r3_memfd_copy(const char *path)
{
	int in = open(path, O_RDONLY | O_CLOEXEC), fd;
	struct stat st;

	if (in < 0)
		return -errno;
	fd = (int)syscall(SYS_memfd_create, "r3", MFD_CLOEXEC);
	if (fd < 0 || fstat(in, &st) < 0 || sendfile(fd, in, NULL, (size_t)st.st_size) < 0) {
		int e = errno;

		close(in);
		return -e;
	}
	close(in);
	return fd;
}

/* In the child: exec prog the way how says; returns the errno (the caller reports it). */
static int r3_exec_child(const char *prog, const char *how)
{
	char *const argv[] = { (char *)prog, NULL };
	char *const envp[] = { NULL };
	char buf[64], dir[4096];
	const char *slash = strrchr(prog, '/');
	int fd = -1;

	if (strcmp(how, "execve") == 0) {
		execve(prog, argv, envp);
		return errno;
	}
	if (strcmp(how, "execveat-dirfd") == 0 && slash) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - prog), prog);
		fd = open(dir[0] ? dir : "/", O_PATH | O_DIRECTORY);
		if (fd < 0)
			return errno;
		syscall(SYS_execveat, fd, slash + 1, argv, envp, 0);
		return errno;
	}
	if (strcmp(how, "memfd") == 0)
		fd = r3_memfd_copy(prog);
	else if (strcmp(how, "fexecve-opath") == 0)
		fd = open(prog, O_PATH);
	else
		fd = open(prog, O_RDONLY);
	if (fd < 0)
		return fd == -1 ? errno : -fd;
	if (strcmp(how, "procfd") == 0) {
		snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
		execve(buf, argv, envp);
		return errno;
	}
	if (strcmp(how, "memfd-procfd") == 0) {
		close(fd);
		fd = r3_memfd_copy(prog);
		if (fd < 0)
			return -fd;
		snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
		execve(buf, argv, envp);
		return errno;
	}
	/* fexecve, fexecve-opath, memfd: execveat(fd, "", AT_EMPTY_PATH), as glibc's fexecve. */
	syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
	return errno;
}

/*
 * exec PROG HOW: a child runs PROG (a program that exits 0) by HOW:
 * execve, execveat-dirfd, fexecve, fexecve-opath, procfd (execve of
 * /proc/self/fd/N), memfd (a copy in a memfd, fexecve'd), memfd-procfd.
 * Prints RAN when it ran, else BLOCKED with the exec's errno.
 */
static int cmd_exec_how(int argc, char **argv)
{
	int pipefd[2], status = 0, err = 0;
	pid_t pid;
	ssize_t n;

	if (argc != 2)
		return 2;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return setup_failed("pipe", errno);
	pid = fork();
	if (pid < 0)
		return setup_failed("fork", errno);
	if (pid == 0) {
		close(pipefd[0]);
		err = r3_exec_child(argv[0], argv[1]);
		(void)!write(pipefd[1], &err, sizeof(err));
		_exit(127);
	}
	close(pipefd[1]);
	n = read(pipefd[0], &err, sizeof(err));
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (n == sizeof(err))
		return blocked(err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		result("RAN %s (%s)", argv[0], argv[1]);
		return 0;
	}
	note("child status 0x%x", status);
	return setup_failed("exec-status", EIO);
}

const struct attack_cmd attack_r3_cmds[] = {
	{ "coredump-raise", "DIR segv|abort   raise RLIMIT_CORE, crash in DIR", cmd_coredump_raise },
	{ "exec-how", "PROG HOW           exec PROG by execve|execveat-dirfd|fexecve|procfd|memfd...", cmd_exec_how },
	{ 0 },
};
