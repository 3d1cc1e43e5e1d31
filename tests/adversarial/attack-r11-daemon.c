/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 11, unotifyd as a client that is not sandboxed sees it: silent
 * connections from sibling user and pid namespaces of one uid, each a
 * client of its own for the daemon's share (r11-daemon-flood-uid.sh).
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/* A child in new user and pid namespaces (a sibling of the others) holding per connections. */
static pid_t r11_flood_one(const char *sock, long per, long secs, const char *ready)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (unshare(CLONE_NEWUSER | CLONE_NEWPID) < 0)
		_exit(setup_failed("unshare(CLONE_NEWUSER|CLONE_NEWPID)", errno));
	pid = fork();
	if (pid == 0)
		_exit(r10_flood(sock, per, secs, ready));
	waitpid(pid, NULL, 0);
	_exit(0);
}

/*
 * r11-flood-userns SOCK NNS PER SECS READY: NNS processes, each in user
 * and pid namespaces of its own, siblings (what any user may make), each
 * holding PER connections to SOCK that never send, reopened as the daemon
 * closes them, for SECS seconds; READY is created once one has all its
 * connections open. Result: FLOOD n open, r reopened (one line per
 * process), or SETUP.
 */
static int cmd_r11_flood_userns(int argc, char **argv)
{
	long nns, per, secs;

	if (argc != 5 || (nns = parse_long(argv[1])) < 1 || nns > 512 ||
	    (per = parse_long(argv[2])) < 1 || per > 4000 ||
	    (secs = parse_long(argv[3])) < 1)
		return 2;
	for (long i = 0; i < nns; i++)
		if (r11_flood_one(argv[0], per, secs, argv[4]) < 0)
			return setup_failed("fork", errno);
	while (wait(NULL) > 0)
		;
	return 0;
}

const struct attack_cmd attack_r11_daemon_cmds[] = {
	{ "r11-flood-userns", "SOCK NNS PER SECS READY  silent connections from sibling namespaces",
	  cmd_r11_flood_userns },
	{ NULL, NULL, NULL },
};
