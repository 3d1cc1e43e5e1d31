/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 7: the kept target state (lib/target-cache.c) against every way a
 * thread's credentials, or the task behind a thread id, change between
 * two opens of one file: the set*id and setgroups calls, capset, exec
 * (of a program that drops its ids, by a thread that is not the leader),
 * glibc's setuid broadcast to every thread, and a thread id that a new
 * task takes after the first one exited (attack-r7-abi.c: the other
 * system call ABIs, a change made by a signal handler during an open).
 * The first open is allowed (its state may be kept); the second must be
 * decided with the credentials of that moment, as the kernel decides it.
 *
 * The credential calls are raw system calls unless said otherwise: they
 * change the calling thread only (glibc's wrappers change every thread).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>

#include "attack.h"

#define R7_CAP(c) (1U << (c))
#define R7_DAC    (R7_CAP(CAP_DAC_OVERRIDE) | R7_CAP(CAP_DAC_READ_SEARCH))

long r7_sys(long r)
{
	return r < 0 ? -errno : 0;
}

int r7_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

const char *r7_what(int r)
{
	return r == 0 ? "opened" : errname(-r);
}

/* This thread's capability sets (the low 32 bits hold every DAC and set-id one). */
static int r7_caps_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return r7_sys(syscall(SYS_capget, &h, d));
}

/* Sets this thread's effective and permitted sets (low word; the high word emptied). */
static int r7_caps_set(uint32_t effective, uint32_t permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	int r = r7_caps_get(d);

	if (r < 0)
		return r;
	d[0].effective = effective;
	d[0].permitted = permitted;
	d[0].inheritable = 0;
	d[1].effective = d[1].permitted = d[1].inheritable = 0;
	return r7_sys(syscall(SYS_capset, &h, d));
}

int r7_caps_drop_dac(void)
{
	struct __user_cap_data_struct d[2];
	int r = r7_caps_get(d);

	if (r < 0)
		return r;
	return r7_caps_set(d[0].effective & ~R7_DAC, d[0].permitted);
}

/*
 * This thread becomes uid R7_UID, gid GID, groups [GROUP] (none when
 * GROUP < 0), keeping CAP_SETUID and CAP_SETGID only (no DAC override):
 * a non-root thread that can still change its ids and groups.
 */
static int r7_become_user(gid_t gid, long group)
{
	const uint32_t keep = R7_CAP(CAP_SETUID) | R7_CAP(CAP_SETGID);
	gid_t g = (gid_t)group;
	int r;

	r = r7_sys(syscall(SYS_setgroups, group < 0 ? 0 : 1, &g));
	if (r == 0)
		r = r7_sys(syscall(SYS_setresgid, gid, gid, gid));
	if (r == 0)
		r = r7_sys(syscall(SYS_prctl, PR_SET_KEEPCAPS, 1, 0, 0, 0));
	if (r == 0)
		r = r7_sys(syscall(SYS_setresuid, R7_UID, R7_UID, R7_UID));
	if (r == 0)
		r = r7_caps_set(keep, keep);
	return r;
}

/* Drops every group and all ids to R7_UID (all capabilities go): this thread only. */
static int r7_drop_thread(void)
{
	int r = r7_sys(syscall(SYS_setgroups, 0, NULL));

	if (r == 0)
		r = r7_sys(syscall(SYS_setresgid, R7_UID, R7_UID, R7_UID));
	if (r == 0)
		r = r7_sys(syscall(SYS_setresuid, R7_UID, R7_UID, R7_UID));
	return r;
}

/* keepcaps: the permitted set survives setresuid; the DAC overrides raised again after. */
static int r7_change_keepcaps(bool raise)
{
	struct __user_cap_data_struct d[2];
	int r = r7_sys(syscall(SYS_prctl, PR_SET_KEEPCAPS, 1, 0, 0, 0));

	if (r == 0)
		r = r7_sys(syscall(SYS_setresuid, R7_UID, R7_UID, R7_UID));
	if (r == 0 && raise)
		r = r7_caps_get(d);
	if (r == 0 && raise)
		r = r7_caps_set(d[0].permitted & R7_DAC, d[0].permitted);
	return r;
}

/* One credential change of this thread, by name; -EINVAL for an unknown one. */
static int r7_change(const char *how)
{
	const long u = R7_UID;

	if (strcmp(how, "none") == 0)
		return 0;
	if (strcmp(how, "setgroups") == 0)
		return r7_sys(syscall(SYS_setgroups, 0, NULL));
	if (strcmp(how, "setresgid") == 0)
		return r7_sys(syscall(SYS_setresgid, u, u, u));
	if (strcmp(how, "setregid") == 0)
		return r7_sys(syscall(SYS_setregid, u, u));
	if (strcmp(how, "setgid") == 0)
		return r7_sys(syscall(SYS_setgid, u));
	if (strcmp(how, "setfsgid") == 0)
		return (void)syscall(SYS_setfsgid, u), 0; /* the old fsgid, never an error */
	if (strcmp(how, "setresuid") == 0)
		return r7_sys(syscall(SYS_setresuid, u, u, u));
	if (strcmp(how, "setreuid") == 0)
		return r7_sys(syscall(SYS_setreuid, u, u));
	if (strcmp(how, "setuid") == 0)
		return r7_sys(syscall(SYS_setuid, u));
	if (strcmp(how, "setfsuid") == 0)
		return (void)syscall(SYS_setfsuid, u), 0;
	if (strcmp(how, "capdrop") == 0)
		return r7_caps_drop_dac();
	if (strcmp(how, "keepcaps") == 0)
		return r7_change_keepcaps(true);
	if (strcmp(how, "keepcaps-lost") == 0)
		return r7_change_keepcaps(false);
	if (strcmp(how, "securebits") == 0) {
		int r = r7_sys(syscall(SYS_prctl, PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0,
				       0));

		return r < 0 ? r : r7_sys(syscall(SYS_setresuid, u, u, u));
	}
	return -EINVAL;
}

/* "root", or "user:GID:GROUP" (GROUP "none": no supplementary group). */
static int r7_become(const char *who)
{
	unsigned long gid;
	char group[32];

	if (strcmp(who, "root") == 0)
		return 0;
	if (sscanf(who, "user:%lu:%31s", &gid, group) != 2)
		return -EINVAL;
	return r7_become_user((gid_t)gid, strcmp(group, "none") == 0 ? -1 : parse_long(group));
}

/*
 * WHO (root, user:GID:GROUP) opens PATH (its state may be kept), makes
 * the change HOW (r7_change) in the same thread, and reads PATH again.
 */
static int cmd_seq(int argc, char **argv)
{
	int r;

	if (argc != 3)
		return 2;
	r = r7_become(argv[1]);
	if (r < 0)
		return setup_failed(argv[1], -r);
	r = r7_open(argv[0]);
	note("first open as %s: %s", argv[1], r7_what(r));
	if (r < 0)
		return setup_failed("first open", -r);
	r = r7_change(argv[2]);
	note("%s: %s", argv[2], r < 0 ? errname(-r) : "done");
	if (r < 0)
		return setup_failed(argv[2], -r);
	return leak_path(AT_FDCWD, argv[0]);
}

/* ---- glibc's setuid(), broadcast to every thread while one opens ---- */

struct r7_loop {
	const char *path;
	atomic_int opens;
	atomic_int changed; /* 1: setuid() returned, every thread has the new ids */
};

static void *r7_loop_thread(void *arg)
{
	struct r7_loop *x = arg;

	while (atomic_load(&x->changed) == 0) {
		(void)r7_open(x->path);
		atomic_fetch_add(&x->opens, 1);
	}
	note("opener %ld: %d opens before setuid() returned", syscall(SYS_gettid),
	     atomic_load(&x->opens));
	leak_path(AT_FDCWD, x->path);
	return NULL;
}

/*
 * A second thread opens PATH in a loop; the leader calls glibc's
 * setuid(R7_UID), which changes every thread's ids (by a signal to each,
 * whose handler makes the call there); then the opener reads PATH once.
 */
static int cmd_setuid_all(int argc, char **argv)
{
	struct r7_loop x = { .path = argv[0] };
	pthread_t th;

	if (argc != 1)
		return 2;
	if (pthread_create(&th, NULL, r7_loop_thread, &x) != 0)
		return setup_failed("pthread_create", EAGAIN);
	while (atomic_load(&x.opens) < 20)
		pause_ms(1);
	if (setgroups(0, NULL) < 0 || setuid(R7_UID) < 0)
		return setup_failed("setuid", errno);
	atomic_store(&x.changed, 1);
	pthread_join(th, NULL);
	return 0;
}

/* ---- another thread drops its own capabilities ---- */

struct r7_pair {
	const char *path;
	atomic_int step;
	int thread_r;
};

static void *r7_capdrop_thread(void *arg)
{
	struct r7_pair *x = arg;

	while (atomic_load(&x->step) == 0)
		pause_ms(1);
	x->thread_r = r7_caps_drop_dac();
	if (x->thread_r == 0)
		x->thread_r = r7_open(x->path);
	note("thread %ld, no DAC capability: open %s", syscall(SYS_gettid), r7_what(x->thread_r));
	return NULL;
}

/*
 * The leader opens PATH (root: allowed); a second thread drops its own
 * DAC capabilities and opens it (refused: it must not be read with the
 * leader's state); the leader, unchanged, opens it again (allowed: the
 * other thread's drop is not the leader's). One line: BLOCKED when the
 * thread was refused, with leader=opened|ERRNO for the script to check.
 */
static int cmd_thread_capdrop(int argc, char **argv)
{
	struct r7_pair x = { .path = argv[0] };
	pthread_t th;
	int r;

	if (argc != 1)
		return 2;
	if (pthread_create(&th, NULL, r7_capdrop_thread, &x) != 0)
		return setup_failed("pthread_create", EAGAIN);
	r = r7_open(x.path);
	note("leader %ld: first open %s", syscall(SYS_gettid), r7_what(r));
	atomic_store(&x.step, 1);
	pthread_join(th, NULL);
	if (r < 0)
		return setup_failed("first open", -r);
	r = r7_open(x.path);
	if (x.thread_r == 0) {
		result("LEAK 0 the capability-less thread opened %s", x.path);
		return 0;
	}
	result("BLOCKED %s leader=%s", errname(-x.thread_r), r7_what(r));
	return 0;
}

/* ---- a thread id taken again by a task with other credentials ---- */

struct r7_reuse {
	const char *path;
	uid_t uid;          /* of the creator thread (0: a guard, root like the first) */
	bool thread;        /* the new task is a thread (else a process) */
	pid_t want;         /* the thread id to take */
	int try;            /* how many writes of ns_last_pid so far */
	atomic_int go;      /* 1: create one task now; 2: stop */
	atomic_int done;    /* 1: a task was made, 2: it had the id */
	atomic_int ready;
	int err;
};

pid_t r7_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void *r7_first_thread(void *arg)
{
	const char *path = arg;
	int r = r7_open(path);

	note("first thread %ld (root): open %s", (long)r7_gettid(), r7_what(r));
	return (void *)(long)(r == 0 ? r7_gettid() : r);
}

/* The new task: reads PATH when it has the id, else says so; 0 when it had it. */
static int r7_reuse_task(struct r7_reuse *x, const char *how)
{
	pid_t tid = r7_gettid();

	if (tid != x->want)
		return -1;
	note("reused tid %ld (the first thread's) by a %s of uid %u, via %s (try %d)", (long)tid,
	     x->thread ? "thread" : "process", (unsigned)getuid(), how, x->try);
	leak_path(AT_FDCWD, x->path);
	return 0;
}

static void *r7_reuse_thread_main(void *arg)
{
	struct r7_reuse *x = arg;

	return (void *)(long)r7_reuse_task(x, "ns_last_pid");
}

/* One task made by the creator thread; 1 when it had the wanted id. */
static int r7_reuse_make(struct r7_reuse *x, const char *how)
{
	pthread_t th;
	void *ret;
	pid_t pid;
	int st;

	if (x->thread) {
		if (pthread_create(&th, NULL, r7_reuse_thread_main, x) != 0)
			return 0;
		pthread_join(th, &ret);
		return ret == NULL;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(r7_reuse_task(x, how) == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The creator: drops to x->uid (this thread only), then makes a task per request. */
static void *r7_creator(void *arg)
{
	struct r7_reuse *x = arg;
	int g;

	if (x->uid != 0 && (x->err = r7_drop_thread()) < 0) {
		atomic_store(&x->ready, -1);
		return NULL;
	}
	atomic_store(&x->ready, 1);
	for (;;) {
		/* Spins: another task of the pid namespace may fork between the write and ours. */
		while ((g = atomic_load(&x->go)) == 0)
			sched_yield();
		if (g == 2)
			return NULL;
		atomic_store(&x->go, 0);
		atomic_store(&x->done, r7_reuse_make(x, "ns_last_pid") ? 2 : 1);
	}
}

/* Writes N to this pid namespace's ns_last_pid (its next pid is then N + 1). */
static int r7_last_pid(pid_t n)
{
	char text[32];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	int len = snprintf(text, sizeof(text), "%ld", (long)n);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)len) != len)
		r = -errno;
	close(fd);
	return r;
}

/*
 * A root thread opens PATH (its state may be kept) and exits; a thread
 * that dropped to UID (0: a guard, stays root) then makes a new task,
 * thread or process, with the same thread id (the leader writes
 * ns_last_pid, as root in the program's pid namespace), which reads
 * PATH. Tries up to TRIES times (another task may take the id first).
 */
static int cmd_tid_reuse(int argc, char **argv)
{
	struct r7_reuse x = { .path = argv[0] };
	pthread_t first, creator;
	void *ret;
	int tries, r;

	if (argc != 4)
		return 2;
	x.uid = (uid_t)parse_long(argv[1]);
	x.thread = strcmp(argv[2], "thread") == 0;
	tries = (int)parse_long(argv[3]);
	if (pthread_create(&creator, NULL, r7_creator, &x) != 0)
		return setup_failed("pthread_create", EAGAIN);
	while (atomic_load(&x.ready) == 0)
		pause_ms(1);
	if (atomic_load(&x.ready) < 0)
		return setup_failed("drop", -x.err);
	if (pthread_create(&first, NULL, r7_first_thread, (void *)x.path) != 0)
		return setup_failed("pthread_create", EAGAIN);
	pthread_join(first, &ret);
	if ((long)ret <= 0)
		return setup_failed("first open", (int)-(long)ret);
	x.want = (pid_t)(long)ret;
	for (int i = 0; i < tries; i++) {
		pause_ms(5); /* the first thread's id is free once it is reaped */
		x.try = i + 1;
		r = r7_last_pid(x.want - 1);
		if (r < 0)
			return setup_failed("ns_last_pid", -r);
		atomic_store(&x.done, 0);
		atomic_store(&x.go, 1);
		while (atomic_load(&x.done) == 0)
			pause_ms(1);
		if (atomic_load(&x.done) == 2) {
			atomic_store(&x.go, 2);
			pthread_join(creator, NULL);
			return 0;
		}
	}
	atomic_store(&x.go, 2);
	return setup_failed("tid-reuse: the id was never taken again", EAGAIN);
}

/* ---- exec by a thread that is not the leader, with other ids ---- */

struct r7_exec {
	const char *path;
	const char *attack;
	bool drop;          /* the exec'ing thread drops to R7_UID (else the leader does) */
	atomic_int opens;
	int err;
};

static void *r7_exec_thread(void *arg)
{
	struct r7_exec *x = arg;
	char *args[] = { (char *)x->attack, "r7-read", (char *)x->path, NULL };

	if (x->drop && (x->err = r7_drop_thread()) < 0)
		return NULL;
	while (atomic_load(&x->opens) < 50)
		pause_ms(1);
	note("thread %ld (uid %u) execs the reader while the leader opens",
	     (long)r7_gettid(), (unsigned)getuid());
	execve(x->attack, args, (char *[]){ NULL });
	x->err = -errno;
	return NULL;
}

/*
 * The leader opens PATH in a loop (until the exec kills it); a second
 * thread execs a reader of PATH, which takes the leader's thread id. With
 * "drop" the exec'ing thread first drops to R7_UID (the reader must be
 * refused); with "guard" the leader drops instead and the exec'ing thread
 * stays root (the reader must read: no stricter than the kernel).
 */
static int cmd_exec_thread(int argc, char **argv)
{
	struct r7_exec x = { .path = argv[0], .attack = argv[1] };
	pthread_t th;
	int r;

	if (argc != 3)
		return 2;
	x.drop = strcmp(argv[2], "drop") == 0;
	if (pthread_create(&th, NULL, r7_exec_thread, &x) != 0)
		return setup_failed("pthread_create", EAGAIN);
	if (!x.drop && (r = r7_drop_thread()) < 0)
		return setup_failed("drop", -r);
	note("leader %ld (uid %u) opens in a loop", (long)r7_gettid(), (unsigned)getuid());
	for (int i = 0; i < 200000 && x.err == 0; i++) {
		(void)r7_open(x.path);
		atomic_fetch_add(&x.opens, 1);
	}
	return setup_failed("execve", x.err ? -x.err : ETIMEDOUT);
}

/* Opens PATH, prints LEAK or BLOCKED (the exec'd reader). */
static int cmd_read(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	note("reader %ld: uid %u euid %u, groups %d", (long)r7_gettid(), (unsigned)getuid(),
	     (unsigned)geteuid(), getgroups(0, NULL));
	return leak_path(AT_FDCWD, argv[0]);
}

/* ---- exec of a program that drops its own ids ---- */

/* The exec'd program: HOW (none, setresuid: glibc's, every thread) then reads PATH. */
static int cmd_drop_read(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "setresuid") == 0 &&
	    (setgroups(0, NULL) < 0 || setresgid(R7_UID, R7_UID, R7_UID) < 0 ||
	     setresuid(R7_UID, R7_UID, R7_UID) < 0))
		return setup_failed("setresuid", errno);
	note("exec'd %ld: %s, uid %u", (long)r7_gettid(), argv[1], (unsigned)getuid());
	return leak_path(AT_FDCWD, argv[0]);
}

/* Root opens PATH (its state may be kept), then execs ATTACK r7-drop-read PATH HOW. */
static int cmd_exec_drop(int argc, char **argv)
{
	char *args[] = { argv[1], "r7-drop-read", argv[0], argv[2], NULL };
	int r;

	if (argc != 3)
		return 2;
	r = r7_open(argv[0]);
	note("before exec %ld: open %s", (long)r7_gettid(), r7_what(r));
	if (r < 0)
		return setup_failed("first open", -r);
	execve(argv[1], args, (char *[]){ NULL });
	return setup_failed("execve", errno);
}

const struct attack_cmd attack_r7_cmds[] = {
	{ "r7-seq", "PATH root|user:GID:GROUP HOW  open, change a credential (HOW), read",
	  cmd_seq },
	{ "r7-setuid-all", "PATH  a thread opens in a loop while glibc's setuid() runs",
	  cmd_setuid_all },
	{ "r7-thread-capdrop", "PATH  another thread drops its DAC capabilities and opens",
	  cmd_thread_capdrop },
	{ "r7-tid-reuse", "PATH UID thread|process TRIES  a root thread's id taken by UID",
	  cmd_tid_reuse },
	{ "r7-exec-thread", "PATH ATTACK drop|guard  a non-leader execs a reader",
	  cmd_exec_thread },
	{ "r7-read", "PATH  print ids, read PATH", cmd_read },
	{ "r7-drop-read", "PATH none|setresuid  drop the ids, read PATH", cmd_drop_read },
	{ "r7-exec-drop", "PATH ATTACK none|setresuid  open, exec a program that drops",
	  cmd_exec_drop },
	{ NULL, NULL, NULL },
};
