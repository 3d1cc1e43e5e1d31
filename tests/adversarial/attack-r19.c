/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 19: what a performed call is charged to, and answers, beyond the
 * program's own ids. A queue created by name from a user namespace of the
 * program's own (r18-queues.sh): the kernel charges it to that namespace's
 * uid and up its chain, where the supervisor's helper, in the supervisor's
 * namespace, charged a host uid. An open with the program's descriptor
 * table full (r19-full-table.sh): the kernel answers EMFILE.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/*
 * DIR PREFIX: in a user namespace of its own (no id map: its ids show as
 * the overflow ids), creates DIR/PREFIX0 by open(O_CREAT); the result.
 */
static int cmd_r19_mq_userns(int argc, char **argv)
{
	char path[4096];
	int fd;

	if (argc != 2)
		return 2;
	if (unshare(CLONE_NEWUSER) < 0) {
		result("UNSHARE %s", errname(errno));
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s0", argv[0], argv[1]);
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0) {
		result("OPEN %s", errname(errno));
		return 0;
	}
	close(fd);
	result("CREATED");
	return 0;
}

/* Writes "0 100000 65536" to /proc/PID/NAME: a container's map. */
static int write_map(pid_t pid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return write_text(path, "0 100000 65536");
}

/*
 * CMD...: runs CMD as root of a user namespace root made, which maps its
 * ids 0-65535 to 100000-165535 (as a container runtime does): CMD's real
 * uid is 100000 there, not the namespace's maker's. Needs root.
 */
static int cmd_r19_container_ns(int argc, char **argv)
{
	int ready[2], go[2], status, r;
	char byte = 0;
	pid_t pid;

	if (argc < 1 || pipe(ready) < 0 || pipe(go) < 0)
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) < 0 || write(ready[1], &byte, 1) != 1 ||
		    read(go[0], &byte, 1) != 1 || setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
			_exit(125);
		execvp(argv[0], argv);
		_exit(127);
	}
	r = read(ready[0], &byte, 1) == 1 ? write_map(pid, "uid_map") : -EPIPE;
	if (r == 0)
		r = write_map(pid, "gid_map");
	if (r < 0) {
		result("MAP %s", errname(-r));
		kill(pid, SIGKILL);
	} else if (write(go[1], &byte, 1) != 1) {
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * PATH read|create|trunc: with RLIMIT_NOFILE at the number of descriptors
 * open (the table full), opens PATH (to read; O_CREAT|O_EXCL; O_TRUNC);
 * the result.
 */
static int cmd_r19_full_table(int argc, char **argv)
{
	int flags, fd, lowest;
	struct rlimit rl;

	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "read") == 0)
		flags = O_RDONLY;
	else if (strcmp(argv[1], "create") == 0)
		flags = O_WRONLY | O_CREAT | O_EXCL;
	else if (strcmp(argv[1], "trunc") == 0)
		flags = O_WRONLY | O_TRUNC;
	else
		return 2;
	/* The lowest free number: with the limit there, no open can have one. */
	lowest = dup(0);
	if (lowest < 0)
		return 2;
	close(lowest);
	rl.rlim_cur = rl.rlim_max = (rlim_t)lowest;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		result("SETRLIMIT %s", errname(errno));
		return 0;
	}
	fd = open(argv[0], flags, 0600);
	if (fd >= 0) {
		result("OPENED %d", fd);
		return 0;
	}
	result("OPEN %s", errname(errno));
	return 0;
}

const struct attack_cmd attack_r19_cmds[] = {
	{ "r19-mq-userns", "DIR PREFIX  a queue by name from a user namespace of its own",
	  cmd_r19_mq_userns },
	{ "r19-container-ns", "CMD...  run CMD as root of a container's user namespace",
	  cmd_r19_container_ns },
	{ "r19-full-table", "PATH read|create|trunc  an open with the fd table full",
	  cmd_r19_full_table },
	{ NULL, NULL, NULL },
};
