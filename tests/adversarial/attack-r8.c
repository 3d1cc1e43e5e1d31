/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 8: the pool's blocking guessed open (lib/open.c open_guessed, no
 * O_NONBLOCK any more in a pool), the watchdog's kick after an idle tick
 * (lib/pool.c), the kept target object per supervising thread
 * (lib/emulate-path.c) and writes into the target without ID_VALID
 * (lib/memory.c). Driven by r8-pool-open.sh.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

#define R8_MAX 64

static long r8_nr(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end ? v : -1;
}

/* The system call a thread is in (its /proc/thread-self/syscall, read by pread), or -1. */
static long r8_in_call(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int r8_mode_flags(const char *m)
{
	if (strcmp(m, "rd") == 0)
		return O_RDONLY;
	if (strcmp(m, "wr") == 0)
		return O_WRONLY;
	if (strcmp(m, "rw") == 0)
		return O_RDWR;
	return -1;
}

/*
 * r8-flood N rd|wr|rw IDLE_MS release|kill|intr|restart PATH: N threads open
 * PATH (blocking, mode rd/wr/rw) by its plain name at once, after the
 * program made no call for IDLE_MS. Once every one is inside its openat,
 * the main thread calls getppid (ANSWERED N), then by action:
 *   release  opens PATH O_RDWR itself (the other end for all of them)
 *   kill     SIGKILL to the whole program (before getppid: KILLING WAITING w)
 *   intr     SIGUSR1 to each (handler without SA_RESTART), then reports
 *   restart  the same with SA_RESTART, then release
 * Each opened fd is checked: above 2 and the very inode of PATH (GOOD),
 * else BAD. Result: ANSWERED n GOOD g BAD b EINTR e OTHER o HANDLED h.
 */
struct r8_opener {
	pthread_t thread;
	const char *path;
	int flags;
	atomic_int sysfd;  /* its /proc/thread-self/syscall + 1 */
	atomic_int state;  /* 0 waiting, 1 good, 2 bad, -errno failed */
};

static atomic_int r8_go, r8_handled;
static struct stat r8_want;

static void r8_on_usr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&r8_handled, 1);
}

static void *r8_opener_main(void *arg)
{
	struct r8_opener *o = arg;
	struct stat st;
	int fd;

	atomic_store(&o->sysfd, open("/proc/thread-self/syscall", O_RDONLY | O_CLOEXEC) + 1);
	while (!atomic_load(&r8_go))
		pause_ms(1);
	fd = open(o->path, o->flags | O_CLOEXEC);
	if (fd < 0) {
		atomic_store(&o->state, -errno);
		return NULL;
	}
	if (fd > 2 && fstat(fd, &st) == 0 && st.st_ino == r8_want.st_ino &&
	    st.st_dev == r8_want.st_dev)
		atomic_store(&o->state, 1);
	else
		atomic_store(&o->state, 2);
	close(fd);
	return NULL;
}

/* N openers of path started, each ready (its syscall file open) and waiting for r8_go; -1 and errno. */
static int r8_start_openers(struct r8_opener *o, long n, const char *path, int flags)
{
	for (long i = 0; i < n; i++) {
		o[i].path = path;
		o[i].flags = flags;
		errno = pthread_create(&o[i].thread, NULL, r8_opener_main, &o[i]);
		if (errno != 0)
			return -1;
	}
	for (long i = 0; i < n; i++)
		while (atomic_load(&o[i].sysfd) == 0)
			pause_ms(1);
	return 0;
}

static int cmd_r8_flood(int argc, char **argv)
{
	static struct r8_opener o[R8_MAX];
	struct sigaction sa = { .sa_handler = r8_on_usr1 };
	long n, idle, ppid;
	int flags, good = 0, bad = 0, eintr = 0, other = 0, waiting = 0, rel = -1;
	const char *action;

	if (argc != 5)
		return 2;
	n = r8_nr(argv[0]);
	flags = r8_mode_flags(argv[1]);
	idle = r8_nr(argv[2]);
	action = argv[3];
	if (n < 1 || n > R8_MAX || flags < 0 || idle < 0)
		return 2;
	/* stdio's first write fstats stdout: done now, not once every supervising thread waits. */
	note("%ld openers, %s", n, argv[1]);
	if (stat(argv[4], &r8_want) < 0)
		return setup_failed("stat", errno);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = strcmp(action, "restart") == 0 ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	if (r8_start_openers(o, n, argv[4], flags) < 0)
		return setup_failed("thread", errno);
	pause_ms(idle); /* no call meanwhile: the watchdog slows down */
	atomic_store(&r8_go, 1);
	/* Every one inside its openat (or done, which the kernel would not be). */
	for (int tries = 0; tries < 1000; tries++) {
		int in = 0;

		for (long i = 0; i < n; i++)
			in += atomic_load(&o[i].state) != 0 ||
			      r8_in_call(atomic_load(&o[i].sysfd) - 1) == SYS_openat;
		if (in == n)
			break;
		pause_ms(5);
	}
	pause_ms(50);
	for (long i = 0; i < n; i++)
		waiting += atomic_load(&o[i].state) == 0;
	note("%d of %ld openers still waiting before getppid", waiting, n);
	if (strcmp(action, "kill") == 0) {
		/* Before any other call: one a stalled supervisor never answers would stop us here. */
		result("KILLING WAITING %d", waiting);
		kill(getpid(), SIGKILL);
		pause();
	}
	ppid = syscall(SYS_getppid);
	note("getppid answered %ld", ppid);
	if (strcmp(action, "intr") == 0 || strcmp(action, "restart") == 0) {
		for (long i = 0; i < n; i++)
			pthread_kill(o[i].thread, SIGUSR1);
		pause_ms(100);
	}
	if (strcmp(action, "intr") != 0) {
		rel = open(argv[4], O_RDWR | O_CLOEXEC);
		if (rel < 0)
			return setup_failed("release", errno);
	}
	for (long i = 0; i < n; i++) {
		int s;

		for (int k = 0; k < 1000 && (s = atomic_load(&o[i].state)) == 0; k++)
			pause_ms(5);
		if (s == 1)
			good++;
		else if (s == 2)
			bad++;
		else if (s == -EINTR)
			eintr++;
		else
			other++;
		if (s < 0 && s != -EINTR)
			note("opener %ld: %s", i, errname(-s));
	}
	if (rel >= 0)
		close(rel);
	result("ANSWERED %ld GOOD %d BAD %d EINTR %d OTHER %d HANDLED %d", ppid, good, bad, eintr,
	       other, atomic_load(&r8_handled));
	_exit(0);
}

/*
 * r8-peer FIFO (outside the sandbox): who holds FIFO open: READER yes|no
 * (a non-blocking writer's open fails ENXIO without one), WRITER yes|no (a
 * non-blocking reader reads end of file without one).
 */
static int cmd_r8_peer(int argc, char **argv)
{
	int w, r;
	bool writer = false;
	char c;

	if (argc != 1)
		return 2;
	r = open(argv[0], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r < 0)
		return setup_failed("reader", errno);
	writer = read(r, &c, 1) < 0 && errno == EAGAIN;
	close(r);
	w = open(argv[0], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (w >= 0)
		close(w);
	else if (errno != ENXIO)
		return setup_failed("writer", errno);
	result("READER %s WRITER %s", w >= 0 ? "yes" : "no", writer ? "yes" : "no");
	return 0;
}

/* r8-wrlease FILE SECS READY (outside): a write lease on FILE for SECS seconds. */
static int cmd_r8_wrlease(int argc, char **argv)
{
	int fd, r;

	if (argc != 3)
		return 2;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fcntl(fd, F_SETLEASE, F_WRLCK) < 0)
		return setup_failed("lease", errno);
	signal(SIGIO, SIG_IGN);
	r = open(argv[2], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (r >= 0)
		close(r);
	sleep((unsigned int)atol(argv[1]));
	return 0;
}

/*
 * r8-forms FIFO LINK DOTDOT DIR BASE: the refused FIFO opened, blocking, by
 * its name, a symlink, a ".." path, relative after chdir(DIR), and
 * openat(dirfd of DIR, BASE), each rd, wr and rw: one line each, "FORM
 * MODE opened" or its errno; then BLOCKED EACCES if every one was refused.
 * (The script holds the FIFO open both ways: the kernel's opens never wait.)
 */
static int cmd_r8_forms(int argc, char **argv)
{
	static const char *const modes[] = { "rd", "wr", "rw" };
	int opened = 0, dfd;

	if (argc != 5)
		return 2;
	dfd = open(argv[3], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return setup_failed("dirfd", errno);
	for (int m = 0; m < 3; m++) {
		int fl = r8_mode_flags(modes[m]) | O_CLOEXEC;
		struct {
			const char *form;
			int dir;
			const char *path;
		} f[] = {
			{ "name", AT_FDCWD, argv[0] }, { "symlink", AT_FDCWD, argv[1] },
			{ "dotdot", AT_FDCWD, argv[2] }, { "relative", -2, argv[4] },
			{ "dirfd", dfd, argv[4] },
		};

		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			int fd;

			if (f[i].dir == -2) {
				if (chdir(argv[3]) < 0)
					return setup_failed("chdir", errno);
				fd = openat(AT_FDCWD, f[i].path, fl);
				if (chdir("/") < 0)
					return setup_failed("chdir", errno);
			} else {
				fd = openat(f[i].dir, f[i].path, fl);
			}
			if (fd >= 0) {
				opened++;
				note("%s %s opened", f[i].form, modes[m]);
				close(fd);
			} else {
				note("%s %s %s", f[i].form, modes[m], errname(errno));
				if (errno != EACCES)
					opened += 1000;
			}
		}
	}
	if (opened == 0)
		return blocked(EACCES);
	result("OPENED %d (of 15; 1000 per other errno)", opened);
	return 0;
}

/*
 * r8-data FIFO BYTES rw|wr: a reader thread and the main thread as writer
 * open FIFO (blocking, by name; "wr": the writer opens first) and pass BYTES
 * bytes of a pattern: DATA n SUM s, as without unotify.
 */
struct r8_data {
	const char *path;
	long want;
	long got;
	uint32_t sum;
	int err;
	long delay;
};

static uint32_t r8_sum(uint32_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void *r8_data_reader(void *arg)
{
	struct r8_data *d = arg;
	unsigned char buf[8192];
	ssize_t n;
	int fd;

	pause_ms(d->delay);
	fd = open(d->path, O_RDONLY | O_CLOEXEC);

	d->sum = 2166136261u;
	if (fd < 0) {
		d->err = errno;
		return NULL;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		d->sum = r8_sum(d->sum, buf, (size_t)n);
		d->got += n;
	}
	close(fd);
	return NULL;
}

static int cmd_r8_data(int argc, char **argv)
{
	struct r8_data d = { 0 };
	unsigned char buf[8192];
	pthread_t t;
	long left;
	int fd;

	if (argc != 3)
		return 2;
	d.path = argv[0];
	d.want = r8_nr(argv[1]);
	/* "wr": the writer's open waits first, the reader comes 100 ms later. */
	d.delay = strcmp(argv[2], "wr") == 0 ? 100 : 0;
	if (pthread_create(&t, NULL, r8_data_reader, &d) != 0)
		return setup_failed("thread", errno);
	if (!d.delay)
		pause_ms(30);
	fd = open(d.path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("writer", errno);
	for (long i = 0; i < (long)sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (left = d.want; left > 0;) {
		ssize_t n = write(fd, buf, (size_t)(left < (long)sizeof(buf) ? left : (long)sizeof(buf)));

		if (n <= 0)
			return setup_failed("write", errno);
		left -= n;
	}
	close(fd);
	pthread_join(t, NULL);
	if (d.err)
		return blocked(d.err);
	result("DATA %ld SUM %08x", d.got, d.sum);
	return 0;
}

/*
 * r8-ids FILE ITER concurrent|alternate setresuid|setfsuid: thread A drops
 * to uid R7_UID (raw setresuid, or setfsuid: this thread only) and opens
 * FILE (root's, 0600) ITER times; thread B stays root and opens it ITER
 * times, at once or taking turns with A. IDS dropped=a root=r: the kernel
 * says dropped=0 root=ITER.
 */
static const char *r8_ids_file;
static long r8_ids_iter;
static bool r8_ids_alt;
static atomic_long r8_turn;
static atomic_int r8_ready;

static void *r8_ids_thread(void *arg)
{
	long me = (long)arg, opened = 0;

	atomic_fetch_add(&r8_ready, 1);
	while (atomic_load(&r8_ready) < 2)
		;
	for (long i = 0; i < r8_ids_iter; i++) {
		int fd;

		if (r8_ids_alt)
			while (atomic_load(&r8_turn) % 2 != me)
				;
		fd = open(r8_ids_file, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			opened++;
			close(fd);
		}
		if (r8_ids_alt)
			atomic_fetch_add(&r8_turn, 1);
	}
	return (void *)opened;
}

static void *r8_ids_dropper(void *arg)
{
	const char *how = arg;
	long r;

	if (strcmp(how, "setfsuid") == 0) {
		syscall(SYS_setfsuid, R7_UID);
		r = syscall(SYS_setfsuid, -1) == R7_UID ? 0 : -1;
	} else {
		r = syscall(SYS_setresuid, R7_UID, R7_UID, R7_UID);
	}
	if (r < 0)
		return (void *)-1L;
	return r8_ids_thread((void *)0L);
}

static int cmd_r8_ids(int argc, char **argv)
{
	pthread_t a, b;
	void *ra, *rb;

	if (argc != 4)
		return 2;
	r8_ids_file = argv[0];
	r8_ids_iter = r8_nr(argv[1]);
	r8_ids_alt = strcmp(argv[2], "alternate") == 0;
	if (pthread_create(&a, NULL, r8_ids_dropper, argv[3]) != 0 ||
	    pthread_create(&b, NULL, r8_ids_thread, (void *)1L) != 0)
		return setup_failed("thread", errno);
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	if ((long)ra < 0)
		return setup_failed("drop", EPERM);
	result("IDS dropped=%ld root=%ld", (long)ra, (long)rb);
	return 0;
}

/*
 * r8-procsig FIFO: a process-directed SIGUSR1 (kill(getpid())) while the
 * only thread that does not block it waits in a FIFO's read-open (the main
 * thread blocks it): the kernel delivers it to that thread and its open
 * fails EINTR (handler without SA_RESTART). After 2 s the main thread opens
 * the other end: EINTR HANDLED 1 (the kernel's), or, if the signal was held
 * until then, LATE: the open went on, as a program timing out a FIFO's
 * open with alarm() would wait for good.
 */
static int cmd_r8_procsig(int argc, char **argv)
{
	static struct r8_opener o;
	struct sigaction sa = { .sa_handler = r8_on_usr1 };
	sigset_t set;
	int s, rel = -1;

	if (argc != 1)
		return 2;
	note("procsig");
	if (stat(argv[0], &r8_want) < 0)
		return setup_failed("stat", errno);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	o.path = argv[0];
	o.flags = O_RDONLY;
	if (pthread_create(&o.thread, NULL, r8_opener_main, &o) != 0)
		return setup_failed("thread", errno);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL); /* the opener was made before: it does not */
	while (atomic_load(&o.sysfd) == 0)
		pause_ms(1);
	atomic_store(&r8_go, 1);
	for (int i = 0; i < 1000 && r8_in_call(atomic_load(&o.sysfd) - 1) != SYS_openat &&
			atomic_load(&o.state) == 0; i++)
		pause_ms(5);
	pause_ms(50);
	kill(getpid(), SIGUSR1);
	for (int i = 0; i < 400 && atomic_load(&o.state) == 0; i++)
		pause_ms(5);
	if (atomic_load(&o.state) == 0) {
		note("the open still waits 2 s after the signal");
		rel = open(argv[0], O_RDWR | O_CLOEXEC);
		for (int i = 0; i < 1000 && atomic_load(&o.state) == 0; i++)
			pause_ms(5);
	}
	s = atomic_load(&o.state);
	if (rel >= 0)
		close(rel);
	if (rel >= 0)
		result("LATE %s HANDLED %d", s == 1 ? "GOOD" : s < 0 ? errname(-s) : "BAD",
		       atomic_load(&r8_handled));
	else
		result("%s HANDLED %d", s == 1 ? "GOOD" : s < 0 ? errname(-s) : "BAD",
		       atomic_load(&r8_handled));
	_exit(0);
}

/*
 * r8-stat N ITER DIR: N threads, thread i stats DIR/fI (I*100+1 bytes) and
 * readlinks DIR/lI (-> tI) ITER times at once: results written into the
 * target by the supervisor (no ID_VALID after the write any more) must be
 * each thread's own. STAT bad=B.
 */
static const char *r8_stat_dir;
static long r8_stat_iter;
static atomic_long r8_stat_bad;

static void *r8_stat_thread(void *arg)
{
	long i = (long)arg;
	char f[4096], l[4096], want[32], got[64];

	snprintf(f, sizeof(f), "%s/f%ld", r8_stat_dir, i);
	snprintf(l, sizeof(l), "%s/l%ld", r8_stat_dir, i);
	snprintf(want, sizeof(want), "t%ld", i);
	for (long k = 0; k < r8_stat_iter; k++) {
		struct stat st;
		ssize_t n;

		memset(&st, 0xa5, sizeof(st));
		if (stat(f, &st) < 0 || st.st_size != i * 100 + 1)
			atomic_fetch_add(&r8_stat_bad, 1);
		memset(got, 0, sizeof(got));
		n = readlink(l, got, sizeof(got) - 1);
		if (n < 0 || strcmp(got, want) != 0)
			atomic_fetch_add(&r8_stat_bad, 1);
	}
	return NULL;
}

static int cmd_r8_stat(int argc, char **argv)
{
	pthread_t t[R8_MAX];
	long n;

	if (argc != 3)
		return 2;
	n = r8_nr(argv[0]);
	r8_stat_iter = r8_nr(argv[1]);
	r8_stat_dir = argv[2];
	if (n < 1 || n > R8_MAX || r8_stat_iter < 1)
		return 2;
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, r8_stat_thread, (void *)i) != 0)
			return setup_failed("thread", errno);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	result("STAT bad=%ld", atomic_load(&r8_stat_bad));
	return 0;
}

/*
 * r8-full N A B rd|wr: N threads wait in read-opens of FIFO A (N = the
 * pool's threads less one: every supervising thread but the receiver
 * waits), then a child process opens FIFO B (blocking, rd or wr): the
 * receiver itself waits, no thread is left to take over. The child is
 * killed (SIGKILL, reaped), then the main thread opens A O_RDWR to release
 * the N: with the kernel, or a supervisor that let go of the child's call,
 * GOOD N KILLED 1; a supervisor still in the child's open never answers.
 */
static int cmd_r8_full(int argc, char **argv)
{
	static struct r8_opener o[R8_MAX];
	long n;
	int flags, go[2], sys, good = 0, rel, st;
	char name[64], c = 'x';
	bool peer_reader, peer_writer;
	pid_t child;

	if (argc != 4)
		return 2;
	note("full");
	n = r8_nr(argv[0]);
	flags = r8_mode_flags(argv[3]);
	if (n < 1 || n > R8_MAX || flags < 0)
		return 2;
	if (stat(argv[1], &r8_want) < 0)
		return setup_failed("stat", errno);
	if (pipe2(go, O_CLOEXEC) < 0)
		return setup_failed("pipe", errno);
	child = fork();
	if (child < 0)
		return setup_failed("fork", errno);
	if (child == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		open(argv[2], flags | O_CLOEXEC);
		_exit(0);
	}
	snprintf(name, sizeof(name), "/proc/%d/syscall", (int)child);
	sys = open(name, O_RDONLY | O_CLOEXEC);
	if (sys < 0)
		return setup_failed("child-syscall", errno);
	if (r8_start_openers(o, n, argv[1], O_RDONLY) < 0)
		return setup_failed("thread", errno);
	atomic_store(&r8_go, 1);
	for (int tries = 0; tries < 1000; tries++) {
		int in = 0;

		for (long i = 0; i < n; i++)
			in += r8_in_call(atomic_load(&o[i].sysfd) - 1) == SYS_openat;
		if (in == n)
			break;
		pause_ms(5);
	}
	pause_ms(50);
	if (write(go[1], &c, 1) != 1)
		return setup_failed("go", errno);
	for (int i = 0; i < 1000 && r8_in_call(sys) != SYS_openat; i++)
		pause_ms(5);
	pause_ms(100); /* ticks of the watchdog: it would take over, had it a thread */
	note("killing the child in its open");
	kill(child, SIGKILL);
	if (waitpid(child, &st, 0) != child)
		return setup_failed("waitpid", errno);
	/*
	 * Ticks of the watchdog (128 ms while a worker waits): the call is
	 * gone. 200 ms once fell short on a loaded machine (the sanitizer
	 * build, other work beside it), and the probe below then met the
	 * supervisor's open still pending; so did 1000 ms once, with two
	 * review builds beside the suite. The probe cannot poll (it is the
	 * FIFO's other end, which lets a pending open go): 3 s, 24 ticks.
	 */
	pause_ms(3000);
	{
		int r = open(argv[2], O_RDONLY | O_NONBLOCK | O_CLOEXEC), w;

		peer_writer = r >= 0 && read(r, &c, 1) < 0 && errno == EAGAIN;
		if (r >= 0)
			close(r);
		w = open(argv[2], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		peer_reader = w >= 0;
		if (w >= 0)
			close(w);
	}
	rel = open(argv[1], O_RDWR | O_CLOEXEC);
	if (rel < 0)
		return setup_failed("release", errno);
	for (long i = 0; i < n; i++) {
		for (int k = 0; k < 1000 && atomic_load(&o[i].state) == 0; k++)
			pause_ms(5);
		good += atomic_load(&o[i].state) == 1;
	}
	close(rel);
	result("GOOD %d KILLED %d B-READER %s B-WRITER %s", good,
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, peer_reader ? "yes" : "no",
	       peer_writer ? "yes" : "no");
	_exit(0);
}

const struct attack_cmd attack_r8_cmds[] = {
	{ "r8-flood", "N rd|wr|rw IDLE_MS release|kill|intr|restart PATH  N blocking opens at once",
	  cmd_r8_flood },
	{ "r8-peer", "FIFO  who holds FIFO open (outside the sandbox)", cmd_r8_peer },
	{ "r8-wrlease", "FILE SECS READY  a write lease on FILE (outside)", cmd_r8_wrlease },
	{ "r8-forms", "FIFO LINK DOTDOT DIR BASE  a refused FIFO by every form", cmd_r8_forms },
	{ "r8-data", "FIFO BYTES rw|wr  data through a FIFO opened by name", cmd_r8_data },
	{ "r8-ids", "FILE ITER concurrent|alternate setresuid|setfsuid  a dropped thread and root",
	  cmd_r8_ids },
	{ "r8-procsig", "FIFO  a process-directed signal to the one thread in a FIFO's open",
	  cmd_r8_procsig },
	{ "r8-stat", "N ITER DIR  threads' stat and readlink results, each its own", cmd_r8_stat },
	{ "r8-full", "N A B rd|wr  N opens wait on A, a child's on B is killed, A released",
	  cmd_r8_full },
	{ NULL, NULL, NULL },
};
