/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 2, the filter and the view. A listener of the program's own (a
 * second seccomp filter with NEW_LISTENER, whose CONTINUE would win over
 * the supervisor's notification), the i386 entry point, setns through a
 * pidfd with several namespace flags, a user namespace of the program's
 * own (its capabilities there must lend nothing outside), and opens of
 * paths the shell cannot spell (hex) for the audit trail.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>

#include "attack.h"
#include "lib/uapi.h"

static int r2_listener_fd = -1;

/* Answers every notification of our own filter with CONTINUE. */
static void *r2_continue_all(void *arg)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	(void)arg;
	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(r2_listener_fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			continue;
		resp = (struct seccomp_notif_resp){ .id = req.id,
						    .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE };
		ioctl(r2_listener_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	return NULL;
}

/*
 * nested-listener PATH: our own filter notifies openat to a thread of ours
 * that answers CONTINUE (the newest filter's notification wins a tie of
 * USER_NOTIF), then PATH, which the policy denies, is opened.
 */
static int cmd_nested_listener(int argc, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	pthread_t th;

	if (argc != 1)
		return 2;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	/* The thread exists before the filter: it is not under it (no TSYNC). */
	if (pthread_create(&th, NULL, r2_continue_all, NULL) != 0)
		return setup_failed("thread", EAGAIN);
	r2_listener_fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				      SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (r2_listener_fd < 0)
		return blocked(errno);
	note("our own listener is fd %d", r2_listener_fd);
	return leak_path(AT_FDCWD, argv[0]);
}

/* i386-open PATH: open(2) through int $0x80 (nr 5), then read natively. */
static int cmd_i386_open(int argc, char **argv)
{
#if defined(__x86_64__)
	char *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
			 -1, 0);
	long fd;

	if (argc != 1)
		return 2;
	if (low == MAP_FAILED)
		return setup_failed("mmap", errno);
	snprintf(low, 4096, "%s", argv[0]);
	note("open(\"%s\") through int $0x80", argv[0]);
	__asm__ volatile("int $0x80"
			 : "=a"(fd)
			 : "a"(5L), "b"((long)(uintptr_t)low), "c"(0L), "d"(0L)
			 : "memory");
	if (fd < 0)
		return blocked((int)-fd);
	return leak_fd((int)fd);
#else
	(void)argc;
	(void)argv;
	return setup_failed("i386", ENOSYS);
#endif
}

/* x32-open PATH: openat(2) by its x32 number (__X32_SYSCALL_BIT | 257), then read natively. */
static int cmd_x32_open(int argc, char **argv)
{
#if defined(__x86_64__)
	long fd;

	if (argc != 1)
		return 2;
	note("openat(\"%s\") by its x32 number", argv[0]);
	fd = syscall(0x40000000L | SYS_openat, AT_FDCWD, argv[0], O_RDONLY);
	if (fd < 0)
		return blocked(errno);
	return leak_fd((int)fd);
#else
	(void)argc;
	(void)argv;
	return setup_failed("x32", ENOSYS);
#endif
}

/* setns-pidfd-read PID FLAGS PATH: setns(pidfd of PID, FLAGS), then PATH read. */
static int cmd_setns_read(int argc, char **argv)
{
	int pidfd;

	if (argc != 3)
		return 2;
	pidfd = (int)syscall(SYS_pidfd_open, parse_pid(argv[0]), 0);
	if (pidfd < 0)
		return setup_failed("pidfd_open", errno);
	if (setns(pidfd, (int)parse_long(argv[1])) < 0)
		return blocked(errno);
	note("joined the namespaces 0x%lx of pid %s", parse_long(argv[1]), argv[0]);
	return leak_path(AT_FDCWD, argv[2]);
}

/*
 * userns-read PATH: a user namespace of our own, where we are root with
 * every capability, then PATH opened. Our capabilities there count for
 * nothing outside: PATH (another user's 0600 file) stays unreadable.
 */
/* A user namespace of our own, our uid and gid mapped to 0 in it (every capability there). */
static int r2_enter_userns(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();
	int r;

	/* After --user the process is not dumpable: /proc/self/uid_map would be root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (unshare(CLONE_NEWUSER) < 0)
		return setup_failed("unshare", errno);
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	r = write_text("/proc/self/uid_map", map);
	if (r == 0)
		r = write_text("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if (r == 0)
		r = write_text("/proc/self/gid_map", map);
	if (r < 0)
		return setup_failed("id maps", -r);
	note("in a user namespace of our own as uid %u (outside %u)", (unsigned)getuid(),
	     (unsigned)uid);
	return 0;
}

static int cmd_userns_read(int argc, char **argv)
{
	int r;

	if (argc != 1)
		return 2;
	r = r2_enter_userns();
	return r ? r : leak_path(AT_FDCWD, argv[0]);
}

/*
 * userns-do CMD ARGS...: the attack CMD run in a user namespace of our own
 * (ids are then those of the namespace: an ACL's uid, chown's).
 */
static int cmd_userns_do(int argc, char **argv)
{
	char *args[16] = { "attack" };
	int r;

	if (argc < 1 || argc > 14)
		return 2;
	r = r2_enter_userns();
	if (r)
		return r;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	execv("/proc/self/exe", args);
	return setup_failed("exec", errno);
}

#define NR_LANDLOCK_CREATE_RULESET 444
#define NR_LANDLOCK_RESTRICT_SELF  446
#define LL_ACCESS_FS_READ_FILE     (1ULL << 2)
#define LL_ACCESS_NET_CONNECT_TCP  (1ULL << 1)

/*
 * landlock-read PATH | landlock-connect ADDR PORT: a Landlock domain of our
 * own that reads no file (or connects to no TCP port), then PATH read (or
 * ADDR:PORT connected). The kernel refuses it to us; a supervisor that
 * performs the call for us must refuse it too.
 */
static int r2_landlock_self(uint64_t fs, uint64_t net)
{
	struct {
		uint64_t handled_access_fs, handled_access_net;
	} attr = { fs, net };
	int fd;

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	fd = (int)syscall(NR_LANDLOCK_CREATE_RULESET, &attr, sizeof(attr), 0);
	if (fd < 0)
		return -errno;
	if (syscall(NR_LANDLOCK_RESTRICT_SELF, fd, 0) < 0)
		return -errno;
	close(fd);
	return 0;
}

static int cmd_landlock_read(int argc, char **argv)
{
	int r;

	if (argc != 1)
		return 2;
	r = r2_landlock_self(LL_ACCESS_FS_READ_FILE, 0);
	if (r < 0)
		return setup_failed("landlock", -r);
	note("landlocked: no file may be read");
	return leak_path(AT_FDCWD, argv[0]);
}

static int cmd_landlock_connect(int argc, char **argv)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	int fd, r;

	if (argc != 2 || inet_pton(AF_INET, argv[0], &in.sin_addr) != 1)
		return 2;
	in.sin_port = htons((uint16_t)parse_long(argv[1]));
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	r = r2_landlock_self(0, LL_ACCESS_NET_CONNECT_TCP);
	if (r < 0)
		return setup_failed("landlock", -r);
	note("landlocked: no TCP connect");
	if (connect(fd, (struct sockaddr *)&in, sizeof(in)) < 0)
		return blocked(errno);
	result("CONNECTED %s port %s out of our Landlock domain", argv[0], argv[1]);
	return 0;
}

struct r2_uffd_staller {
	const char *path; /* in a page no one will ever fill */
	atomic_int tid;
	atomic_int done; /* its openat returned (a user-mode-only userfaultfd: EFAULT) */
	int sysfd; /* its /proc/thread-self/syscall, opened before the stall */
	int go[2];
};

static void *r2_uffd_staller_main(void *arg)
{
	struct r2_uffd_staller *st = arg;
	char byte;

	/*
	 * thread-self, not self/task/TID: under unotifyd the sandbox may see a
	 * /proc of an outer pid namespace, where our own tid names no task.
	 */
	st->sysfd = open("/proc/thread-self/syscall", O_RDONLY | O_CLOEXEC);
	atomic_store(&st->tid, (int)syscall(SYS_gettid));
	if (read(st->go[0], &byte, 1) == 1)
		openat(AT_FDCWD, st->path, O_RDONLY | O_CLOEXEC);
	atomic_store(&st->done, 1);
	return NULL;
}

/*
 * Waits until the thread whose /proc syscall file is fd is inside system
 * call nr, or has made it already (*done).
 */
static bool r2_in_syscall(int fd, long nr, atomic_int *done)
{
	char buf[128];

	for (int i = 0; fd >= 0 && i < 1000 && !atomic_load(done); i++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n > 0) {
			buf[n] = '\0';
			if (strtol(buf, NULL, 10) == nr)
				return true;
		}
		pause_ms(5);
	}
	return atomic_load(done);
}

/*
 * A userfaultfd: "kernel" (userfaultfd(2) that handles the kernel's faults
 * too), "user" (UFFD_USER_MODE_ONLY), "dev" (ioctl USERFAULTFD_IOC_NEW of
 * /dev/userfaultfd, kernel faults too). -errno.
 */
static int r2_uffd_new(const char *mode)
{
	int fd, dev;

	if (strcmp(mode, "dev") == 0) {
		dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
		if (dev < 0)
			return -errno;
		fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		close(dev);
		return fd;
	}
	fd = (int)syscall(SYS_userfaultfd,
			  O_CLOEXEC | (strcmp(mode, "user") == 0 ? UFFD_USER_MODE_ONLY : 0));
	return fd < 0 ? -errno : fd;
}

/* uffd-probe MODE: can this process make that userfaultfd (asked outside the sandbox)? */
static int cmd_uffd_probe(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = r2_uffd_new(argv[0]);
	if (fd < 0)
		return setup_failed("userfaultfd", -fd);
	result("MADE a %s userfaultfd", argv[0]);
	return 0;
}

/*
 * uffd-stall [MODE]: one thread opens a path whose page is registered with
 * userfaultfd and never filled, so the supervisor's read of the path
 * (process_vm_readv, /proc/PID/mem) waits for a fault no one serves; then
 * the main thread makes an allowed intercepted call (getppid, answered by
 * the policy). A stalled supervisor never answers it. MODE as for
 * uffd-probe (default kernel): a user-mode-only userfaultfd does not hold
 * the kernel's faults, so the supervisor's read fails instead of waiting.
 */
static int cmd_uffd_stall(int argc, char **argv)
{
	static struct r2_uffd_staller st;
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	long page = sysconf(_SC_PAGESIZE), v;
	char *area, name[64];
	pthread_t th;
	int uffd, fd;

	if (argc > 1)
		return 2;
	uffd = r2_uffd_new(argc ? argv[0] : "kernel");
	if (uffd < 0)
		return setup_failed("userfaultfd", -uffd);
	if (ioctl(uffd, UFFDIO_API, &api) < 0)
		return setup_failed("UFFDIO_API", errno);
	area = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	if (area == MAP_FAILED)
		return setup_failed("mmap", errno);
	reg.range = (struct uffdio_range){ (uintptr_t)area, (uint64_t)page };
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		return setup_failed("UFFDIO_REGISTER", errno);
	st.path = area;
	if (pipe(st.go) < 0 || pthread_create(&th, NULL, r2_uffd_staller_main, &st) != 0)
		return setup_failed("thread", EAGAIN);
	while (atomic_load(&st.tid) == 0)
		pause_ms(1);
	/* Opened before the stall: an open is itself a call the supervisor decides. */
	fd = st.sysfd;
	if (fd < 0) {
		snprintf(name, sizeof(name), "/proc/self/task/%d/syscall", atomic_load(&st.tid));
		fd = open(name, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || write(st.go[1], "g", 1) != 1)
		return setup_failed("syscall-file", errno);
	if (!r2_in_syscall(fd, SYS_openat, &st.done))
		return setup_failed("staller-not-in-call", 0);
	note("the other thread is inside its openat, its path in an unfilled page");
	v = syscall(SYS_getppid);
	result("ANSWERED getppid=%ld", v);
	_exit(0);
}

/*
 * lease-stall FILE: a read lease of ours on FILE (we own it), then another
 * thread opens FILE for writing: the open the supervisor performs for it
 * waits for the lease to be given back (up to lease-break-time, 45 s) --
 * as ours would, but in the supervisor. Then getppid (answered by the
 * policy): a supervisor held by the open never answers it.
 */
static void *r2_lease_opener_main(void *arg)
{
	struct r2_uffd_staller *st = arg;
	char byte;

	st->sysfd = open("/proc/thread-self/syscall", O_RDONLY | O_CLOEXEC);
	atomic_store(&st->tid, (int)syscall(SYS_gettid));
	if (read(st->go[0], &byte, 1) == 1)
		openat(AT_FDCWD, st->path, O_WRONLY | O_CLOEXEC);
	atomic_store(&st->done, 1);
	return NULL;
}

static int cmd_lease_stall(int argc, char **argv)
{
	static struct r2_uffd_staller st;
	pthread_t th;
	long v;
	int fd;

	if (argc != 1)
		return 2;
	/* The lease break's SIGIO would end us: a holder that does not give it back. */
	signal(SIGIO, SIG_IGN);
	/* open(2), not openat: the policy decides openat, the lease's own fd need not be. */
	fd = (int)syscall(SYS_open, argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	if (fcntl(fd, F_SETLEASE, F_RDLCK) < 0)
		return setup_failed("F_SETLEASE", errno);
	st.path = argv[0];
	if (pipe(st.go) < 0 || pthread_create(&th, NULL, r2_lease_opener_main, &st) != 0)
		return setup_failed("thread", EAGAIN);
	while (atomic_load(&st.tid) == 0)
		pause_ms(1);
	if (st.sysfd < 0 || write(st.go[1], "g", 1) != 1)
		return setup_failed("syscall-file", errno);
	if (!r2_in_syscall(st.sysfd, SYS_openat, &st.done))
		return setup_failed("opener-not-in-call", 0);
	note("the other thread is inside its openat for writing, our read lease held");
	v = syscall(SYS_getppid);
	result("ANSWERED getppid=%ld", v);
	_exit(0);
}

static int r2_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* open-hex HEX...: each argument a path in hex (any bytes), opened read-only. */
static int cmd_open_hex(int argc, char **argv)
{
	static char path[8192];

	for (int i = 0; i < argc; i++) {
		size_t n = 0;
		int fd;

		for (const char *s = argv[i]; s[0] && s[1] && n + 1 < sizeof(path); s += 2) {
			int hi = r2_hex(s[0]), lo = r2_hex(s[1]);

			if (hi < 0 || lo < 0)
				return 2;
			path[n++] = (char)(hi << 4 | lo);
		}
		path[n] = '\0';
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			leak_fd(fd);
			close(fd);
			continue;
		}
		blocked(errno);
	}
	return 0;
}

const struct attack_cmd attack_r2_sys_cmds[] = {
	{ "lease-stall", "FILE         a read lease, an open for writing of FILE, then getppid",
	  cmd_lease_stall },
	{ "nested-listener", "PATH  our own NEW_LISTENER filter answering CONTINUE",
	  cmd_nested_listener },
	{ "i386-open", "PATH          open through int $0x80", cmd_i386_open },
	{ "x32-open", "PATH           openat by its x32 number", cmd_x32_open },
	{ "setns-pidfd-read", "PID FLAGS PATH  setns(pidfd, FLAGS), read PATH", cmd_setns_read },
	{ "userns-read", "PATH        a user namespace of our own, read PATH", cmd_userns_read },
	{ "userns-do", "CMD ARGS...   CMD in a user namespace of our own", cmd_userns_do },
	{ "landlock-read", "PATH      our own Landlock domain, then read PATH", cmd_landlock_read },
	{ "landlock-connect", "ADDR PORT  our own Landlock domain, then connect",
	  cmd_landlock_connect },
	{ "uffd-probe", "MODE         (outside) make a kernel|user|dev userfaultfd",
	  cmd_uffd_probe },
	{ "uffd-stall", "[MODE]       an openat whose path page is never filled, then getppid",
	  cmd_uffd_stall },
	{ "open-hex", "HEX...          open paths given in hex", cmd_open_hex },
	{ NULL, NULL, NULL },
};
