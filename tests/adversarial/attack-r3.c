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
#include <sys/resource.h>
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

const struct attack_cmd attack_r3_cmds[] = {
	{ "coredump-raise", "DIR segv|abort   raise RLIMIT_CORE, crash in DIR", cmd_coredump_raise },
	{ 0 },
};
