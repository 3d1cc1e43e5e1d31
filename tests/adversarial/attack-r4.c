/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 4: the kept target state (lib/target-cache.c). A thread's state is
 * kept by its thread id and used again while its ids and capabilities are
 * the same. Supplementary groups are not among what PIDFD_GET_INFO shows:
 * these attacks change what stands behind a thread id, or its groups,
 * keeping the ids and capabilities the kept state has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <unistd.h>

#include "attack.h"

/* The raw calls change this thread's credentials only (glibc's change every thread's). */
static int r4_drop_thread(gid_t group, bool keep_group, uid_t uid)
{
	gid_t groups[1] = { group };

	if (syscall(SYS_setgroups, keep_group ? 1 : 0, groups) < 0 ||
	    syscall(SYS_setresgid, uid, uid, uid) < 0 || syscall(SYS_setresuid, uid, uid, uid) < 0)
		return -errno;
	return 0;
}

struct r4_exec {
	const char *path;
	const char *attack;
	gid_t group;
	bool exec_keeps; /* the exec'ing thread keeps the group, the leader none */
	uid_t uid;
	atomic_int leader_done;
	int err;
};

static void *r4_exec_thread(void *arg)
{
	struct r4_exec *x = arg;
	char *args[] = { (char *)x->attack, "r4-read", (char *)x->path, NULL };
	int r = r4_drop_thread(x->group, x->exec_keeps, x->uid);

	if (r < 0) {
		x->err = r;
		atomic_store(&x->leader_done, -1);
		return NULL;
	}
	while (atomic_load(&x->leader_done) == 0)
		pause_ms(10);
	note("exec thread %ld: %s, uid %u, exec'ing the reader", syscall(SYS_gettid),
	     x->exec_keeps ? "the group" : "no groups", x->uid);
	execve(x->attack, args, (char *[]){ NULL });
	x->err = -errno;
	return NULL;
}

/*
 * The leader keeps GROUP and reads PATH (its state is kept); a second
 * thread drops every group to the same ids and capabilities, then execs:
 * the program it runs takes the leader's thread id (exec makes the
 * exec'ing thread the leader), without the group. With "exec" last, the
 * other way round: the exec'ing thread keeps the group, the leader none
 * (a file whose group class has fewer rights than its other class).
 */
static int cmd_exec_groups(int argc, char **argv)
{
	struct r4_exec x = { 0 };
	pthread_t th;
	int fd, r;

	if (argc != 4 && argc != 5)
		return 2;
	x.exec_keeps = argc == 5 && strcmp(argv[4], "exec") == 0;
	x.path = argv[0];
	x.group = (gid_t)parse_long(argv[1]);
	x.uid = (uid_t)parse_long(argv[2]);
	x.attack = argv[3];
	if (pthread_create(&th, NULL, r4_exec_thread, &x) != 0)
		return setup_failed("pthread_create", EAGAIN);
	r = r4_drop_thread(x.group, !x.exec_keeps, x.uid);
	if (r < 0)
		return setup_failed("drop", -r);
	fd = open(x.path, O_RDONLY | O_CLOEXEC);
	note("leader %ld (%s): open %s: %s", syscall(SYS_gettid),
	     x.exec_keeps ? "no groups" : "the group", x.path, fd >= 0 ? "opened" : errname(errno));
	if (fd >= 0)
		close(fd);
	atomic_store(&x.leader_done, 1);
	pthread_join(th, NULL); /* returns only if the exec failed */
	return setup_failed("execve", x.err ? -x.err : EINVAL);
}

/* Opens PATH and prints LEAK or BLOCKED. */
static int cmd_read(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	note("reader %ld: groups %d", syscall(SYS_gettid), getgroups(0, NULL));
	return leak_path(AT_FDCWD, argv[0]);
}

static bool r4_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * A directory opened while it is allowed, read by openat(dirfd) (its name
 * is then known to the supervisor), READY created; once MOVED exists (the
 * directory was moved, outside, into the denied one), read again.
 */
static int cmd_dirfd_moved(int argc, char **argv)
{
	int dfd, fd;

	if (argc != 4)
		return 2;
	dfd = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return setup_failed("open dir", errno);
	fd = openat(dfd, argv[1], O_RDONLY | O_CLOEXEC);
	note("first openat: %s", fd >= 0 ? "opened" : errname(errno));
	if (fd >= 0)
		close(fd);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return setup_failed("ready", errno);
	close(fd);
	for (int i = 0; i < 2000 && !r4_exists(argv[3]); i++)
		pause_ms(10);
	if (!r4_exists(argv[3]))
		return setup_failed("moved", ETIMEDOUT);
	return leak_path(dfd, argv[1]);
}

/* Drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from this thread's effective set. */
static int r4_drop_dac(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	d[0].effective &= ~((1U << CAP_DAC_OVERRIDE) | (1U << CAP_DAC_READ_SEARCH));
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/*
 * One thread opens PATH (its state is kept), changes one thing that
 * decides the open (WHAT: fsuid, capdrop, groups), and opens it again.
 * groups: starts with GID as its only group and no DAC capability
 * effective, then drops the group (it keeps CAP_SETGID).
 */
static int cmd_cred_seq(int argc, char **argv)
{
	gid_t g;
	int fd, r = 0;

	if (argc != 3)
		return 2;
	g = (gid_t)parse_long(argv[2]);
	if (strcmp(argv[1], "groups") == 0 &&
	    (syscall(SYS_setgroups, 1, &g) < 0 || r4_drop_dac() < 0))
		return setup_failed("groups", errno);
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	note("first open: %s", fd >= 0 ? "opened" : errname(errno));
	if (fd < 0)
		return setup_failed("first open", errno);
	close(fd);
	if (strcmp(argv[1], "fsuid") == 0)
		setfsuid(1000);
	else if (strcmp(argv[1], "capdrop") == 0)
		r = r4_drop_dac();
	else if (strcmp(argv[1], "groups") == 0)
		r = syscall(SYS_setgroups, 0, NULL) < 0 ? -errno : 0;
	else
		return 2;
	if (r < 0)
		return setup_failed(argv[1], -r);
	return leak_path(AT_FDCWD, argv[0]);
}

const struct attack_cmd attack_r4_cmds[] = {
	{ "r4-cred-seq", "PATH fsuid|capdrop|groups GID  open, change a credential, open",
	  cmd_cred_seq },
	{ "r4-dirfd-moved", "DIR NAME READY MOVED  openat(dirfd) before and after DIR moves",
	  cmd_dirfd_moved },
	{ "r4-exec-groups", "PATH GID UID ATTACK [exec]  a leader's tid reused by exec",
	  cmd_exec_groups },
	{ "r4-read", "PATH               open PATH, print LEAK or BLOCKED", cmd_read },
	{ NULL, NULL, NULL },
};
