/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 17: the supervisor reached as a process while it acts as the
 * program (r17-identity.sh). A thread that took the program's real or
 * saved uid accepts signals and prlimit from any process of that uid: a
 * SIGKILL to it kills the supervisor. Run from outside the sandbox as the
 * program's uid, this probes each thread of the supervisor with signal 0
 * (never a real signal) while one of them performs a call for it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"

/* The first thread of tgid that takes our signal 0, or 0. */
static pid_t signallable_thread(pid_t tgid)
{
	char dir[64];
	struct dirent *e;
	pid_t found = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)tgid);
	d = opendir(dir);
	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid > 0 && syscall(SYS_tgkill, tgid, tid, 0) == 0)
			found = tid;
	}
	closedir(d);
	return found;
}

/* TGID ROUNDS: SIGNALLABLE if a thread took signal 0 in ROUNDS sweeps, else REFUSED. */
static int cmd_r17_signal_threads(int argc, char **argv)
{
	pid_t tgid, tid = 0;
	long rounds;

	if (argc != 2)
		return 2;
	tgid = (pid_t)atoi(argv[0]);
	rounds = atol(argv[1]);
	for (long i = 0; i < rounds && tid == 0; i++)
		tid = signallable_thread(tgid);
	if (tid < 0)
		result("GONE %d", (int)tgid);
	else if (tid > 0)
		result("SIGNALLABLE thread %d of %d", (int)tid, (int)tgid);
	else
		result("REFUSED %ld sweeps", rounds);
	return 0;
}

const struct attack_cmd attack_r17_cmds[] = {
	{ "r17-signal-threads", "TGID ROUNDS  (outside) signal 0 to each thread of TGID",
	  cmd_r17_signal_threads },
	{ NULL, NULL, NULL },
};
