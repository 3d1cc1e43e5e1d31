/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 7 (see attack-r7.c), the credential changes a supervisor could
 * miss: the credential calls through the other system call ABIs of x86-64
 * (int $0x80, x32), and a change made by a signal handler while an open
 * of the same thread waits for its answer (the open is withdrawn, then
 * restarted with the new credentials).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"

/* ---- a credential change in a signal handler, during an open ---- */

/* Counters of every round, shared with the children (MAP_SHARED). */
struct r7_race_stats {
	atomic_int bypass;  /* rounds where an open after the change opened */
	atomic_int landed;  /* signals that came while an open was under way */
	atomic_int rounds;  /* rounds that ran to the end */
};

static atomic_int r7_race_changed;

static void r7_race_handler(int sig)
{
	(void)sig;
	/* This thread only, as a glibc setuid() broadcast does in each thread. */
	syscall(SYS_setresuid, R7_UID, R7_UID, R7_UID);
	atomic_store(&r7_race_changed, 1);
}

struct r7_race {
	const char *path;
	atomic_int opens;
	atomic_int tid;
	struct r7_race_stats *stats;
};

/*
 * Opens in a loop; counts the opens that began after the handler ran and
 * opened. A hundred after the change: a state put late, by the supervising
 * thread of the withdrawn open, has time to land before the last.
 */
static void *r7_race_thread(void *arg)
{
	struct r7_race *x = arg;
	int after = 0;

	atomic_store(&x->tid, r7_gettid());
	for (int i = 0; i < 100000 && after < 100; i++) {
		int before = atomic_load(&r7_race_changed);
		int r = r7_open(x->path);

		if (before && r == 0)
			atomic_fetch_add(&x->stats->bypass, 1);
		if (!before && atomic_load(&r7_race_changed))
			atomic_fetch_add(&x->stats->landed, 1);
		after += before;
		atomic_fetch_add(&x->opens, 1);
	}
	return NULL;
}

/* Spins about us microseconds: where the signal lands in the open varies from round to round. */
static void r7_spin_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

/* One round, in a fresh process (a fresh root thread): 0, or 3 when it could not start. */
static int r7_race_round(const char *path, int round, struct r7_race_stats *stats)
{
	struct sigaction sa = { .sa_handler = r7_race_handler, .sa_flags = SA_RESTART };
	struct r7_race x = { .path = path, .stats = stats };
	pthread_t th;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0 ||
	    pthread_create(&th, NULL, r7_race_thread, &x) != 0)
		return 3;
	/* From round to round: during the first open (no state kept yet) or a later one. */
	while (atomic_load(&x.tid) == 0 || atomic_load(&x.opens) < round % 3)
		;
	r7_spin_us((round * 37) % 150);
	syscall(SYS_tgkill, getpid(), atomic_load(&x.tid), SIGUSR1);
	pthread_join(th, NULL);
	atomic_fetch_add(&stats->rounds, 1);
	return 0;
}

/*
 * ROUNDS times, in a new process each: a root thread opens PATH in a
 * loop; a signal comes at a varying moment, mostly while an open waits
 * for its answer; its handler drops the thread's ids (raw setresuid), and
 * the open restarts. An open begun after the handler ran must be refused:
 * a state read for the interrupted open, before the change, and kept
 * after it, must not decide it.
 */
static int cmd_signal_race(int argc, char **argv)
{
	struct r7_race_stats *stats;
	int rounds, st;
	pid_t pid;

	if (argc != 2)
		return 2;
	rounds = (int)parse_long(argv[1]);
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	if (stats == MAP_FAILED)
		return setup_failed("mmap", errno);
	fflush(stdout);
	for (int i = 0; i < rounds; i++) {
		pid = fork();
		if (pid == 0)
			_exit(r7_race_round(argv[0], i, stats));
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return setup_failed("fork", errno);
	}
	note("%d of %d rounds ran; %d signals came while an open was under way",
	     atomic_load(&stats->rounds), rounds, atomic_load(&stats->landed));
	if (atomic_load(&stats->bypass) > 0)
		result("LEAK 0 %d opens opened %s after the thread's ids changed",
		       atomic_load(&stats->bypass), argv[0]);
	else if (atomic_load(&stats->rounds) == 0)
		return setup_failed("rounds", EAGAIN);
	else
		result("BLOCKED EACCES (every open after the change)");
	return 0;
}

/* ---- the credential calls of the other x86-64 ABIs ---- */

#ifdef __x86_64__
/* i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl). */
#define R7_I386_SETGROUPS32 206
#define R7_I386_SETRESUID32 208
#define R7_I386_SETUID32    213
#define R7_X32_BIT          0x40000000L

static long r7_int80(long nr, long a, long b, long c)
{
	long ret;

	/* The kernel zeroes r8-r11 on the way back from a 32-bit entry. */
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static long r7_abi_call(const char *how)
{
	if (strcmp(how, "int80-setuid32") == 0)
		return r7_int80(R7_I386_SETUID32, R7_UID, 0, 0);
	if (strcmp(how, "int80-setresuid32") == 0)
		return r7_int80(R7_I386_SETRESUID32, R7_UID, R7_UID, R7_UID);
	if (strcmp(how, "int80-setgroups32") == 0)
		return r7_int80(R7_I386_SETGROUPS32, 0, 0, 0);
	if (strcmp(how, "x32-setresuid") == 0)
		return r7_sys(syscall(R7_X32_BIT | SYS_setresuid, R7_UID, R7_UID, R7_UID));
	if (strcmp(how, "x32-setgroups") == 0)
		return r7_sys(syscall(R7_X32_BIT | SYS_setgroups, 0, NULL));
	return -EINVAL;
}
#endif

/* What decides the open: the ids and the groups, as the kernel has them now. */
static void r7_ids(char *buf, size_t size)
{
	uid_t r, e, s;
	gid_t groups[8];
	int n;

	syscall(SYS_getresuid, &r, &e, &s);
	n = (int)syscall(SYS_getgroups, 8, groups);
	snprintf(buf, size, "uid %u/%u/%u groups %d", r, e, s, n);
}

/* The child of cmd_abi: first open, the call, the second open. */
static int r7_abi_child(const char *path, const char *how)
{
	char before[96], after[96];
	long ret;
	int r;

	if (strstr(how, "setgroups")) {
		gid_t g = 4242;

		/* Root reading by its group only: no DAC override, one group. */
		if (syscall(SYS_setgroups, 1, &g) < 0 || r7_caps_drop_dac() < 0)
			return setup_failed("groups", errno);
	}
	r = r7_open(path);
	note("first open: %s", r7_what(r));
	if (r < 0)
		return setup_failed("first open", -r);
	r7_ids(before, sizeof(before));
#ifdef __x86_64__
	ret = r7_abi_call(how);
#else
	ret = -ENOSYS;
#endif
	r7_ids(after, sizeof(after));
	note("%s: %s; before: %s; after: %s", how, ret == 0 ? "done" : errname((int)-ret), before,
	     after);
	if (strcmp(before, after) != 0)
		return leak_path(AT_FDCWD, path);
	/* Nothing changed: the open is the kernel's to allow, with the old ids. */
	r = r7_open(path);
	if (r == 0)
		result("BLOCKED %s (no credential changed; the open after: opened)",
		       errname((int)-ret));
	else
		result("SETUP unchanged-ids-refused %s (the call did nothing, the open %s)",
		       errname((int)-ret), r7_what(r));
	return 0;
}

/*
 * HOW (int80-setuid32, int80-setresuid32, int80-setgroups32,
 * x32-setresuid, x32-setgroups) between two opens of PATH, in a child: a
 * filter may kill it for the call (that is a refusal: BLOCKED SIGSYS).
 */
static int cmd_abi(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc != 2)
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return setup_failed("fork", errno);
	if (pid == 0)
		_exit(r7_abi_child(argv[0], argv[1]));
	if (waitpid(pid, &st, 0) < 0)
		return setup_failed("waitpid", errno);
	if (WIFSIGNALED(st))
		result("BLOCKED %s (the call killed the process)", strsignal(WTERMSIG(st)));
	return 0;
}

const struct attack_cmd attack_r7_abi_cmds[] = {
	{ "r7-abi", "PATH HOW  int $0x80 / x32 credential calls between two opens", cmd_abi },
	{ "r7-signal-race", "PATH ROUNDS  a signal handler drops the ids during an open",
	  cmd_signal_race },
	{ NULL, NULL, NULL },
};
