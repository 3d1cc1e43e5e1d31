/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: one small program with many sub-commands, run under `unotify run`
 * by the live tests. Each sub-command makes one kind of system call and
 * prints a one-line, machine-readable result ("ok fd=3", "err EACCES",
 * "ret=42", ...) so that a shell script can assert on it. It exits 0 unless
 * the sub-command says otherwise: a denied call is a result, not a failure.
 *
 * `probe --pid CMD ...` prints "pid=N" first, so a test can tell the
 * target's pid from the supervisor's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/fanotify.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "probe.h"
#include "lib/uapi.h"


/* struct open_how of openat2(2), spelled out so old headers do not matter. */
struct probe_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};


static const struct probe_name probe_open_flags[] = {
	{"rdonly", O_RDONLY},	    {"wronly", O_WRONLY},
	{"rdwr", O_RDWR},	    {"creat", O_CREAT},
	{"excl", O_EXCL},	    {"trunc", O_TRUNC},
	{"directory", O_DIRECTORY}, {"nofollow", O_NOFOLLOW},
	{"append", O_APPEND},	    {"cloexec", O_CLOEXEC},
	{"path", O_PATH},	    {"tmpfile", O_TMPFILE},
	{"nonblock", O_NONBLOCK},   {NULL, 0},
};

/* openat2 RESOLVE_* flags (linux/openat2.h), by value for old headers. */
static const struct probe_name probe_resolve_flags[] = {
	{"resolve-no-xdev", 0x01}, {"resolve-no-magiclinks", 0x02}, {"resolve-no-symlinks", 0x04},
	{"resolve-beneath", 0x08}, {"resolve-in-root", 0x10},	    {NULL, 0},
};

static const struct probe_name probe_domains[] = {
	{"unix", AF_UNIX},	 {"inet", AF_INET},	{"inet6", AF_INET6},
	{"netlink", AF_NETLINK}, {"packet", AF_PACKET}, {NULL, 0},
};

static const struct probe_name probe_types[] = {
	{"stream", SOCK_STREAM},
	{"dgram", SOCK_DGRAM},
	{"raw", SOCK_RAW},
	{"seqpacket", SOCK_SEQPACKET},
	{NULL, 0},
};

static void probe_usage(void)
{
	fputs("usage: probe [--pid] [--euid N] COMMAND [ARGS...]\n"
	      "  open PATH [FLAG...]        openat(AT_FDCWD, PATH); FLAG: rdonly wronly rdwr "
	      "creat\n"
	      "                             excl trunc directory nofollow append cloexec path\n"
	      "                             tmpfile nonblock mode=OCTAL\n"
	      "  open-getfl PATH [FLAG...]  open, then prints its F_GETFL: ok flags=0OCTAL\n"
	      "  openat DIR REL [FLAG...]   openat(open(DIR, O_DIRECTORY), REL)\n"
	      "  open-raw PATH [FLAG...]    the legacy open(2) system call\n"
	      "  creat PATH MODE            creat(2)\n"
	      "  openat2 PATH [FLAG...]     openat2(2); also resolve-beneath, resolve-in-root, "
	      "...\n"
	      "  read PATH                  open + read: prints data=FIRST-LINE\n"
	      "  getppid                    raw getppid: prints ret=V\n"
	      "  syscall NR [ARG...]        raw syscall: prints ret=V or err NAME\n"
	      "  socket DOMAIN TYPE         DOMAIN: unix inet inet6 netlink packet or a number\n"
	      "  threads N PATH [ITER [PPID [DENIED]]]\n"
	      "                             N threads open+read PATH (and getppid == PPID, DENIED\n"
	      "                             fails with EACCES) ITER times: prints ok N\n"
	      "  threads-own N DIR ITER [PHASES]\n"
	      "                             N threads open DIR/fI, readlink DIR/lI, stat DIR/fI\n"
	      "                             and open DIR/denied (EACCES), each checking its own\n"
	      "                             answers, ITER times: prints ok N; with PHASES, that\n"
	      "                             PHASES times, each after thread 0 alone made 300\n"
	      "                             rounds (a second receiver parks, then forms again)\n"
	      "  race ALLOWED DENIED ITER [wronly]\n"
	      "                             open a path buffer flipped by another thread\n"
	      "  exec PATH [ARG...]         execv(PATH, [PATH, ARG...]): err NAME if it fails\n"
	      "  landlocked PATH [ARG...]   the same inside a Landlock domain\n"
	      "  exit N | kill SIG          exit with N, raise SIG\n"
	      "  sleep-getppid [SECONDS]    getppid every 10ms, one line each\n"
	      "  whoami                     uid gid groups capabilities no_new_privs seccomp\n"
	      "  i386-getpid | x32-getpid   getpid through a foreign system call ABI\n"
	      "  fanotify FILE COUNT SECS   print the pid of each process opening FILE\n"
	      "file calls (stat, readlink, access, unlink, mkdir, rename, link, symlink, chmod,\n"
	      "chown, utimensat, truncate...): see probe-fs.c; sockets (connect, bind, sendto,\n"
	      "sendmsg, serve): probe-net.c; race-stat, race-mkdir, race-connect, race-exec:\n"
	      "probe-race.c\n",
	      stderr);
}

void probe_print_err(int err)
{
	const char *name = strerrorname_np(err);

	if (name)
		printf("err %s\n", name);
	else
		printf("err E%d\n", err);
}

/* Parses a number of any base, or -1 with errno set. */
int probe_parse_long(const char *s, long *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0') {
		/* Large unsigned values (0xffffffffffffffff) do not fit a long. */
		errno = 0;
		v = (long)strtoul(s, &end, 0);
		if (errno != 0 || end == s || *end != '\0') {
			fprintf(stderr, "probe: not a number: '%s'\n", s);
			return -EINVAL;
		}
	}
	*ret = v;
	return 0;
}

int probe_lookup(const struct probe_name *table, const char *s, long *ret)
{
	for (size_t i = 0; table[i].name; i++) {
		if (strcmp(table[i].name, s) == 0) {
			*ret = table[i].value;
			return 0;
		}
	}
	return probe_parse_long(s, ret);
}

/* Turns "rdonly creat mode=0600 resolve-beneath" into open flags, mode and resolve. */
static int probe_parse_flags(int argc, char **argv, struct probe_open_how *ret)
{
	struct probe_open_how how = {.flags = O_RDONLY, .mode = 0644, .resolve = 0};

	for (int i = 0; i < argc; i++) {
		long v;

		if (strncmp(argv[i], "mode=", 5) == 0) {
			how.mode = strtoul(argv[i] + 5, NULL, 8);
			continue;
		}
		if (strncmp(argv[i], "resolve-", 8) == 0) {
			if (probe_lookup(probe_resolve_flags, argv[i], &v) < 0)
				return -EINVAL;
			how.resolve |= (uint64_t)v;
			continue;
		}
		if (probe_lookup(probe_open_flags, argv[i], &v) < 0)
			return -EINVAL;
		how.flags |= (uint64_t)v;
	}
	*ret = how;
	return 0;
}

/* Prints the outcome of a call returning an fd (or -1 with errno). */
static int probe_report_fd(long fd)
{
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	printf("ok fd=%ld\n", fd);
	return 0;
}

static int probe_cmd_open(int argc, char **argv)
{
	struct probe_open_how how;

	if (argc < 1 || probe_parse_flags(argc - 1, argv + 1, &how) < 0)
		return 2;
	return probe_report_fd(openat(AT_FDCWD, argv[0], (int)how.flags, (mode_t)how.mode));
}

/* open, then the fd's status flags (F_GETFL) as the kernel keeps them: ok flags=0OCTAL. */
static int probe_cmd_open_getfl(int argc, char **argv)
{
	struct probe_open_how how;
	int fd, fl;

	if (argc < 1 || probe_parse_flags(argc - 1, argv + 1, &how) < 0)
		return 2;
	fd = openat(AT_FDCWD, argv[0], (int)how.flags, (mode_t)how.mode);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		probe_print_err(errno);
	else
		printf("ok flags=0%o\n", (unsigned int)fl);
	close(fd);
	return 0;
}

static int probe_cmd_openat(int argc, char **argv)
{
	struct probe_open_how how;
	int dirfd;

	if (argc < 2 || probe_parse_flags(argc - 2, argv + 2, &how) < 0)
		return 2;
	/*
	 * Not O_PATH: the kernel's ADDFD cannot inject an O_PATH file, so a
	 * supervised O_PATH open is a case of its own (paths.sh tests it).
	 */
	dirfd = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		printf("dirfd ");
		probe_print_err(errno);
		return 0;
	}
	return probe_report_fd(openat(dirfd, argv[1], (int)how.flags, (mode_t)how.mode));
}

static int probe_cmd_open_raw(int argc, char **argv)
{
	struct probe_open_how how;

	if (argc < 1 || probe_parse_flags(argc - 1, argv + 1, &how) < 0)
		return 2;
	return probe_report_fd(syscall(SYS_open, argv[0], (int)how.flags, (mode_t)how.mode));
}

static int probe_cmd_creat(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	return probe_report_fd(syscall(SYS_creat, argv[0], (mode_t)strtoul(argv[1], NULL, 8)));
}

static int probe_cmd_openat2(int argc, char **argv)
{
	struct probe_open_how how;

	if (argc < 1 || probe_parse_flags(argc - 1, argv + 1, &how) < 0)
		return 2;
	if (!(how.flags & (O_CREAT | O_TMPFILE)))
		how.mode = 0; /* openat2 insists */
	return probe_report_fd(syscall(SYS_openat2, AT_FDCWD, argv[0], &how, sizeof(how)));
}

/* Reads the first line of fd into buf (without the newline). */
static int probe_read_line(int fd, char *buf, size_t size)
{
	ssize_t n;

	n = read(fd, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int probe_cmd_read(int argc, char **argv)
{
	char buf[4096];
	int fd, r;

	if (argc != 1)
		return 2;
	fd = openat(AT_FDCWD, argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	r = probe_read_line(fd, buf, sizeof(buf));
	close(fd);
	if (r < 0) {
		printf("read ");
		probe_print_err(-r);
		return 0;
	}
	printf("data=%s\n", buf);
	return 0;
}

void probe_report_ret(long r)
{
	if (r == -1)
		probe_print_err(errno);
	else
		printf("ret=%ld\n", r);
}

void probe_report_ok(long r)
{
	if (r == -1)
		probe_print_err(errno);
	else
		printf("ok\n");
}

int probe_open_dir(const char *arg)
{
	int fd;

	if (strcmp(arg, "-") == 0)
		return AT_FDCWD;
	fd = open(arg, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("dirfd ");
		probe_print_err(errno);
	}
	return fd;
}

bool probe_has(int argc, char **argv, const char *word)
{
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], word) == 0)
			return true;
	return false;
}

static int probe_cmd_getppid(int argc, char **argv)
{
	probe_report_ret(syscall(SYS_getppid));
	return 0;
}

static int probe_cmd_syscall(int argc, char **argv)
{
	long nr, a[6] = {0};

	if (argc < 1 || argc > 7 || probe_parse_long(argv[0], &nr) < 0)
		return 2;
	for (int i = 1; i < argc; i++)
		if (probe_parse_long(argv[i], &a[i - 1]) < 0)
			return 2;
	probe_report_ret(syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
	return 0;
}

static int probe_cmd_socket(int argc, char **argv)
{
	long domain, type;
	int fd;

	if (argc != 2 || probe_lookup(probe_domains, argv[0], &domain) < 0 ||
	    probe_lookup(probe_types, argv[1], &type) < 0)
		return 2;
	fd = socket((int)domain, (int)type, 0);
	if (fd < 0) {
		probe_print_err(errno);
		return 0;
	}
	printf("ok fd=%d\n", fd);
	return 0;
}

/* ---- threads ---- */

struct probe_threads {
	pthread_barrier_t start;
	const char *path;
	const char *denied;
	char expect[4096];
	long iterations;
	long ppid; /* expected getppid() result, or -1 not to check */
	atomic_long failures;
};

/* One iteration of a worker: returns true when every call gave the expected result. */
static bool probe_threads_once(struct probe_threads *t)
{
	char buf[4096];
	int fd, r;

	fd = openat(AT_FDCWD, t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = probe_read_line(fd, buf, sizeof(buf));
	close(fd);
	if (r < 0 || strcmp(buf, t->expect) != 0)
		return false;
	if (t->ppid >= 0 && syscall(SYS_getppid) != t->ppid)
		return false;
	if (t->denied) {
		fd = openat(AT_FDCWD, t->denied, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return false;
		}
		if (errno != EACCES)
			return false;
	}
	return true;
}

static void *probe_threads_worker(void *arg)
{
	struct probe_threads *t = arg;

	pthread_barrier_wait(&t->start);
	for (long i = 0; i < t->iterations; i++)
		if (!probe_threads_once(t))
			atomic_fetch_add(&t->failures, 1);
	return NULL;
}

static int probe_threads_expect(struct probe_threads *t)
{
	int fd, r;

	fd = openat(AT_FDCWD, t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = probe_read_line(fd, t->expect, sizeof(t->expect));
	close(fd);
	return r;
}

static int probe_cmd_threads(int argc, char **argv)
{
	struct probe_threads t = {.path = argv[1], .iterations = 100, .ppid = -1};
	pthread_t tids[64];
	long n;
	int r;

	if (argc < 2 || argc > 5 || probe_parse_long(argv[0], &n) < 0 || n < 1 || n > 64)
		return 2;
	if ((argc > 2 && probe_parse_long(argv[2], &t.iterations) < 0) ||
	    (argc > 3 && probe_parse_long(argv[3], &t.ppid) < 0))
		return 2;
	t.denied = argc > 4 ? argv[4] : NULL;
	r = probe_threads_expect(&t);
	if (r < 0) {
		printf("first read ");
		probe_print_err(-r);
		return 0;
	}
	pthread_barrier_init(&t.start, NULL, (unsigned int)n);
	for (long i = 0; i < n; i++)
		if (pthread_create(&tids[i], NULL, probe_threads_worker, &t) != 0)
			return 3;
	for (long i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	if (atomic_load(&t.failures) == 0)
		printf("ok %ld\n", n);
	else
		printf("fail %ld of %ld\n", atomic_load(&t.failures), n * t.iterations);
	return 0;
}

/* ---- race ---- */

struct probe_race {
	volatile char buf[4096];
	char allowed[4096];
	char denied[4096];
	atomic_bool started;
	atomic_bool stop;
};

/* Byte by byte on purpose: the opener must also meet half-written paths. */
static void probe_race_copy(volatile char *dst, const char *src)
{
	size_t i = 0;

	do
		dst[i] = src[i];
	while (src[i++] != '\0');
}

static void *probe_race_flipper(void *arg)
{
	struct probe_race *r = arg;
	unsigned int seed = 1;

	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		probe_race_copy(r->buf, r->denied);
		atomic_store_explicit(&r->started, true, memory_order_relaxed);
		/* Hold each value a varying while so both land in every window. */
		seed = seed * 1103515245 + 12345;
		for (volatile unsigned int spin = (seed >> 16) % 512; spin > 0; spin--)
			;
		probe_race_copy(r->buf, r->allowed);
		for (volatile unsigned int spin = (seed >> 20) % 512; spin > 0; spin--)
			;
	}
	return NULL;
}

static int probe_cmd_race(int argc, char **argv)
{
	static struct probe_race r;
	long iterations, opened_denied = 0, allowed = 0, denied = 0, other = 0;
	int flags = O_RDONLY | O_CLOEXEC;
	struct stat dst, st;
	pthread_t flipper;

	/* "wronly" last: opened for writing (a write rule, or the Landlock layer's). */
	if (argc == 4 && strcmp(argv[3], "wronly") == 0) {
		flags = O_WRONLY | O_CLOEXEC;
		argc--;
	}
	if (argc != 3 || probe_parse_long(argv[2], &iterations) < 0 ||
	    strlen(argv[0]) >= sizeof(r.allowed) || strlen(argv[1]) >= sizeof(r.denied))
		return 2;
	strcpy(r.allowed, argv[0]);
	strcpy(r.denied, argv[1]);
	if (stat(r.denied, &dst) < 0) {
		printf("stat denied ");
		probe_print_err(errno);
		return 0;
	}
	probe_race_copy(r.buf, r.allowed);
	if (pthread_create(&flipper, NULL, probe_race_flipper, &r) != 0)
		return 3;
	/* Short runs would be over before the flipper is scheduled. */
	while (!atomic_load(&r.started))
		sched_yield();
	for (long i = 0; i < iterations; i++) {
		/* The cast drops volatile: the kernel and the supervisor read it, not us. */
		int fd = openat(AT_FDCWD, (const char *)(uintptr_t)r.buf, flags);

		if (fd < 0) {
			if (errno == EACCES)
				denied++;
			else
				other++;
			continue;
		}
		if (fstat(fd, &st) == 0 && st.st_ino == dst.st_ino && st.st_dev == dst.st_dev)
			opened_denied++;
		else
			allowed++;
		close(fd);
	}
	atomic_store(&r.stop, true);
	pthread_join(flipper, NULL);
	printf("opened-denied=%ld allowed=%ld denied=%ld other=%ld\n", opened_denied, allowed,
	       denied, other);
	return 0;
}

/* ---- process ---- */

/* execv(PATH, ARGS): the program's own output, or the probe's err line. */
static int probe_cmd_exec(int argc, char **argv)
{
	if (argc < 1)
		return 2;
	fflush(stdout);
	execv(argv[0], argv);
	probe_print_err(errno);
	return 0;
}

/*
 * landlocked PATH ARGS: execv inside a Landlock domain that handles
 * making block devices only (every mount is refused in any domain).
 */
static int probe_cmd_landlocked(int argc, char **argv)
{
	struct unotify_ll_ruleset_attr attr = { .handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_BLOCK };
	int fd;

	if (argc < 1)
		return 2;
	/* ABI 1's size: handled_access_fs alone. */
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr.handled_access_fs), 0);
	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, fd, 0) < 0) {
		probe_print_err(errno);
		return 0;
	}
	close(fd);
	return probe_cmd_exec(argc, argv);
}

static int probe_cmd_exit(int argc, char **argv)
{
	long n;

	if (argc != 1 || probe_parse_long(argv[0], &n) < 0)
		return 2;
	fflush(stdout);
	_exit((int)n);
}

static int probe_cmd_kill(int argc, char **argv)
{
	long sig;

	if (argc != 1 || probe_parse_long(argv[0], &sig) < 0)
		return 2;
	fflush(stdout);
	signal((int)sig, SIG_DFL);
	raise((int)sig);
	printf("still alive after signal %ld\n", sig);
	return 1;
}

/* Calls getppid every 10 ms for at most SECONDS (default 60), one line each. */
static int probe_cmd_sleep_getppid(int argc, char **argv)
{
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 10 * 1000 * 1000};
	long seconds = 60;

	if (argc > 1 || (argc == 1 && probe_parse_long(argv[0], &seconds) < 0))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid=%ld\n", (long)getpid());
	for (long i = 0; i < seconds * 100; i++) {
		probe_report_ret(syscall(SYS_getppid));
		nanosleep(&tick, NULL);
	}
	return 0;
}

/* Effective, permitted capability sets and the bounding set, as 64-bit masks. */
static void probe_caps(uint64_t *ret_eff, uint64_t *ret_prm, uint64_t *ret_bnd)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};
	uint64_t bnd = 0;

	if (syscall(SYS_capget, &hdr, data) < 0)
		memset(data, 0, sizeof(data));
	for (int cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
			bnd |= UINT64_C(1) << cap;
	*ret_eff = data[0].effective | (uint64_t)data[1].effective << 32;
	*ret_prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	*ret_bnd = bnd;
}

static int probe_cmd_whoami(int argc, char **argv)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid, groups[256];
	uint64_t eff, prm, bnd;
	int n;

	getresuid(&ruid, &euid, &suid);
	getresgid(&rgid, &egid, &sgid);
	n = getgroups(256, groups);
	probe_caps(&eff, &prm, &bnd);
	printf("uid=%u euid=%u gid=%u egid=%u groups=", ruid, euid, rgid, egid);
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", groups[i]);
	printf(" capeff=0x%" PRIx64 " capprm=0x%" PRIx64 " capbnd=0x%" PRIx64
	       " nnp=%d seccomp=%d\n",
	       eff, prm, bnd, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0),
	       prctl(PR_GET_SECCOMP, 0, 0, 0, 0));
	return 0;
}

/* ---- foreign system call ABIs ---- */

static int probe_cmd_i386_getpid(int argc, char **argv)
{
#if defined(__x86_64__)
	long ret = 20; /* __NR_getpid in the i386 table */

	fflush(stdout);
	__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
	printf("ret=%ld\n", ret);
	return 0;
#else
	printf("unsupported\n");
	return 0;
#endif
}

static int probe_cmd_x32_getpid(int argc, char **argv)
{
#if defined(__x86_64__)
	long ret = 0x40000000L | 39; /* __X32_SYSCALL_BIT | __NR_getpid */

	fflush(stdout);
	__asm__ volatile("syscall" : "+a"(ret) : : "rcx", "r11", "memory");
	printf("ret=%ld\n", ret);
	return 0;
#else
	printf("unsupported\n");
	return 0;
#endif
}

/* ---- fanotify: who opened a file (the supervisor or the target itself?) ---- */

static int probe_cmd_fanotify(int argc, char **argv)
{
	struct fanotify_event_metadata ev[16];
	long count, seconds, seen = 0;
	time_t deadline;
	int fd;

	if (argc != 3 || probe_parse_long(argv[1], &count) < 0 ||
	    probe_parse_long(argv[2], &seconds) < 0)
		return 2;
	fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, argv[0]) < 0) {
		probe_print_err(errno);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	deadline = time(NULL) + seconds;
	while (seen < count && time(NULL) < deadline) {
		ssize_t n = read(fd, ev, sizeof(ev));

		if (n <= 0) {
			usleep(10000);
			continue;
		}
		for (struct fanotify_event_metadata *m = ev; FAN_EVENT_OK(m, n);
		     m = FAN_EVENT_NEXT(m, n)) {
			printf("open pid=%d\n", m->pid);
			if (m->fd >= 0)
				close(m->fd);
			seen++;
		}
	}
	printf("done %ld\n", seen);
	return 0;
}

static const struct probe_cmd probe_cmds[] = {
	{"open", probe_cmd_open},
	{"open-getfl", probe_cmd_open_getfl},
	{"landlocked", probe_cmd_landlocked},
	{"openat", probe_cmd_openat},
	{"open-raw", probe_cmd_open_raw},
	{"creat", probe_cmd_creat},
	{"openat2", probe_cmd_openat2},
	{"read", probe_cmd_read},
	{"getppid", probe_cmd_getppid},
	{"syscall", probe_cmd_syscall},
	{"socket", probe_cmd_socket},
	{"threads", probe_cmd_threads},
	{"race", probe_cmd_race},
	{"exec", probe_cmd_exec},
	{"exit", probe_cmd_exit},
	{"kill", probe_cmd_kill},
	{"sleep-getppid", probe_cmd_sleep_getppid},
	{"whoami", probe_cmd_whoami},
	{"i386-getpid", probe_cmd_i386_getpid},
	{"x32-getpid", probe_cmd_x32_getpid},
	{"fanotify", probe_cmd_fanotify},
	{NULL, NULL},
};

static const struct probe_cmd *const probe_tables[] = {
	probe_cmds,
	probe_fs_cmds,
	probe_net_cmds,
	probe_race_cmds,
	probe_threads_cmds,
	probe_xattr_cmds,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int main(int argc, char **argv)
{
	int first = 1;

	if (argc > first && strcmp(argv[first], "--pid") == 0) {
		printf("pid=%ld\n", (long)getpid());
		first++;
	}
	/* --euid N: the effective uid (and fsuid) become N, the real uid stays (access(2)). */
	if (argc > first + 1 && strcmp(argv[first], "--euid") == 0) {
		long euid;

		if (probe_parse_long(argv[first + 1], &euid) < 0 ||
		    setresuid((uid_t)-1, (uid_t)euid, (uid_t)-1) < 0) {
			perror("probe: --euid");
			return 2;
		}
		first += 2;
	}
	if (argc <= first) {
		probe_usage();
		return 2;
	}
	for (size_t t = 0; t < ARRAY_SIZE(probe_tables); t++) {
		for (const struct probe_cmd *c = probe_tables[t]; c->name; c++) {
			if (strcmp(c->name, argv[first]) == 0) {
				int r = c->run(argc - first - 1, argv + first + 1);

				if (r == 2)
					probe_usage();
				fflush(stdout);
				return r;
			}
		}
	}
	fprintf(stderr, "probe: unknown command '%s'\n", argv[first]);
	probe_usage();
	return 2;
}
