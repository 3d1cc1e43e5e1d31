/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live tests of unotify_spawn: the program starts under the filter behind
 * the gate, with its stdio, environment, cpu, user and capabilities, and the
 * supervisor sees its calls. Part of the test-lib program (see test-lib.c);
 * spawn_child_main is what `test-lib --child MODE` runs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "test-lib.h"
#include "unotify.h"
#include "util.h"

/* ------------------------------------------------------------------ the gate */

/* The one call a freshly spawned child makes to wait for its supervisor before exec. */
bool test_gate_match(void)
{
	struct seccomp_notif req = { .data = { .nr = __NR_ioctl, .arch = UNOTIFY_AUDIT_ARCH,
					       .args = { UINT64_MAX, UNOTIFY_GATE_IOCTL_CMD } } };

	EXPECT(unotify_is_gate(&req));
	req.data.args[0] = 0xffffffffu;
	EXPECT(!unotify_is_gate(&req));
	req.data.args[0] = UINT64_MAX;
	req.data.args[1]++;
	EXPECT(!unotify_is_gate(&req));
	return true;
}

/* ------------------------------------------------------------------ spawn */

static bool filter_export(scmp_filter_ctx ctx, struct sock_fprog *ret)
{
	_cleanup_close_ int fd = memfd_create("bpf", MFD_CLOEXEC);
	struct stat st;
	void *insns;

	EXPECT(fd >= 0);
	EXPECT_EQ(seccomp_export_bpf(ctx, fd), 0);
	EXPECT(fstat(fd, &st) == 0 && st.st_size > 0);
	insns = malloc((size_t)st.st_size);
	EXPECT(insns);
	EXPECT(pread(fd, insns, (size_t)st.st_size, 0) == st.st_size);
	*ret = (struct sock_fprog){ .len = (unsigned short)(st.st_size / 8), .filter = insns };
	return true;
}

enum filter_kind {
	FILTER_NOTIFY_GETPPID, /* allow all, notify getppid */
	FILTER_POLICY_LIKE,    /* deny write and sendmsg, notify execve */
};

static bool filter_build(enum filter_kind kind, struct sock_fprog *ret)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	bool ok;

	EXPECT(ctx);
	EXPECT_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS), 0);
	if (kind == FILTER_NOTIFY_GETPPID) {
		EXPECT_EQ(seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(getppid), 0), 0);
	} else {
		EXPECT_EQ(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(write), 0), 0);
		EXPECT_EQ(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sendmsg), 0), 0);
		EXPECT_EQ(seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execve), 0), 0);
	}
	ok = filter_export(ctx, ret);
	seccomp_release(ctx);
	return ok;
}

static int decide_spawned(unotify_listener *l, const struct seccomp_notif *req,
			  struct unotify_verdict *ret, void *userdata)
{
	struct counts *c = userdata;

	c->decided++;
	c->gates += unotify_is_gate(req);
	if (req->data.nr == __NR_execve) {
		c->execve++;
		*ret = unotify_verdict_continue();
	} else if (c->fd >= 0) {
		*ret = unotify_verdict_fd(c->fd, 0);
	} else {
		*ret = unotify_verdict_value(42);
	}
	return 0;
}

struct spawned {
	int status;     /* as a shell shows it */
	int exec_error; /* unotify_child_exec_result */
	struct counts c;
};

/* Spawns, supervises to the end, waits. */
static bool spawn_run(struct unotify_spawn_attr *a, enum filter_kind kind, struct spawned *s)
{
	struct unotify_loop_ops ops = { decide_spawned, NULL, &s->c };
	struct sock_fprog prog;
	struct unotify_child child;
	unotify_listener *l;
	int r;

	EXPECT(filter_build(kind, &prog));
	a->filter = &prog;
	r = unotify_spawn(a, &child);
	free(prog.filter);
	EXPECT_EQ(r, 0);
	EXPECT(child.pid > 0 && child.pidfd >= 0 && child.exec_status_fd >= 0);
	EXPECT_EQ(unotify_child_listener(&child, &l), 0);
	EXPECT_EQ(child.listener_fd, -1);
	EXPECT_EQ(unotify_supervise(l, &ops, NULL), 0);
	unotify_listener_free(l);
	s->status = unotify_child_wait(&child);
	s->exec_error = unotify_child_exec_result(&child);
	EXPECT_EQ(unotify_child_exec_result(&child), s->exec_error); /* asked twice */
	unotify_child_close(&child);
	EXPECT_EQ(s->c.gates, 0); /* the gate never reaches decide */
	return true;
}

/* Zero means unset: only what a test names differs from the caller. */
#define SPAWN_ATTR(...) ((struct unotify_spawn_attr){ __VA_ARGS__ })

static bool spawn_sh(const char *script, struct spawned *s)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = "/bin/sh", .argv = argv);

	*s = (struct spawned){ .c.fd = -1 };
	return spawn_run(&a, FILTER_NOTIFY_GETPPID, s);
}

static bool test_spawn_exit(void)
{
	struct spawned s;

	EXPECT(spawn_sh("exit 3", &s));
	EXPECT_EQ(s.status, 3);
	EXPECT_EQ(s.exec_error, 0);
	EXPECT(spawn_sh("kill -TERM $$", &s));
	EXPECT_EQ(s.status, 128 + SIGTERM);
	return true;
}

static bool test_spawn_path_search(void)
{
	char *argv[] = { "sh", "-c", "exit 4", NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = "sh", .argv = argv);
	struct spawned s = { .c.fd = -1 };

	EXPECT(spawn_run(&a, FILTER_NOTIFY_GETPPID, &s));
	EXPECT_EQ(s.status, 4);
	return true;
}

static bool spawn_expect_error(struct unotify_spawn_attr *a, int expected)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	struct unotify_child child;

	a->filter = &prog;
	EXPECT_EQ(unotify_spawn(a, &child), expected);
	return true;
}

static bool spawn_fails(const char *path, int expected)
{
	char *argv[] = { (char *)path, NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = path, .argv = argv);

	return spawn_expect_error(&a, expected);
}

static bool test_spawn_not_found(void)
{
	EXPECT(spawn_fails("/nonexistent/program", -ENOENT));
	EXPECT(spawn_fails("unotify-no-such-program", -ENOENT));
	EXPECT(spawn_fails("/etc/passwd", -EACCES));
	EXPECT(spawn_fails("/", -EACCES));
	return true;
}

/* Found and executable, but execve itself fails: exec_result says why. */
static bool test_spawn_exec_fails(void)
{
	char path[] = "/tmp/unotify-test-XXXXXX";
	int fd = mkstemp(path);
	char *argv[] = { path, NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = path, .argv = argv);
	struct spawned s = { .c.fd = -1 };
	bool ok;

	EXPECT(fd >= 0);
	EXPECT(write(fd, "\1\2\3\4 not a program\n", 20) == 20 && fchmod(fd, 0755) == 0);
	close(fd);
	ok = spawn_run(&a, FILTER_NOTIFY_GETPPID, &s);
	unlink(path);
	EXPECT(ok);
	EXPECT_EQ(s.status, 126);
	EXPECT_EQ(s.exec_error, ENOEXEC);
	return true;
}

/* The reason for the gate: a policy that denies write/sendmsg and notifies execve. */
static bool test_spawn_policy_like(void)
{
	char *argv[] = { "true", NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = "/bin/true", .argv = argv);
	struct spawned s = { .c.fd = -1 };

	EXPECT(spawn_run(&a, FILTER_POLICY_LIKE, &s));
	EXPECT_EQ(s.status, 0);
	EXPECT_EQ(s.c.execve, 1);
	EXPECT_EQ(s.c.decided, 1);
	return true;
}

/* Runs sh -c SCRIPT with stdout into a pipe; *out gets what it printed. */
static bool spawn_capture(struct unotify_spawn_attr *a, const char *script, char *out,
			  size_t size, int *status)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct spawned s = { .c.fd = -1 };
	int p[2];
	ssize_t n;

	EXPECT(pipe2(p, O_CLOEXEC) == 0);
	a->path = "/bin/sh";
	a->argv = argv;
	a->redirect_stdio = true;
	a->stdio_fds[0] = -1;
	a->stdio_fds[1] = p[1];
	a->stdio_fds[2] = -1;
	EXPECT(spawn_run(a, FILTER_NOTIFY_GETPPID, &s));
	close(p[1]);
	n = read(p[0], out, size - 1);
	close(p[0]);
	EXPECT(n >= 0);
	out[n] = '\0';
	*status = s.status;
	return true;
}

static bool test_spawn_stdio_env(void)
{
	char *envp[] = { "UNOTIFY_TEST=bar", "PATH=/usr/bin:/bin", NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.envp = envp);
	char out[256];
	int status;

	EXPECT(spawn_capture(&a, "echo \"$UNOTIFY_TEST\"", out, sizeof(out), &status));
	EXPECT_EQ(status, 0);
	EXPECT(strcmp(out, "bar\n") == 0);
	return true;
}

static bool test_spawn_cpu(void)
{
	struct unotify_spawn_attr a = SPAWN_ATTR();
	char out[256];
	int status;

	a.pin_cpu = true;
	a.cpu = 0;

	EXPECT(spawn_capture(&a, "grep Cpus_allowed_list /proc/self/status", out, sizeof(out),
			     &status));
	EXPECT_EQ(status, 0);
	EXPECT(strcmp(out, "Cpus_allowed_list:\t0\n") == 0);
	return true;
}

/* readlink of /proc/self/fd/FD, or "" */
static void fd_target(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
}

/* A zero-initialised attr: the child keeps the caller's CPUs and stdio. */
static bool test_spawn_zero_attr(void)
{
	char fd0[256], fd1[256], fd2[256], cpus[256] = "", *argv[9];
	struct unotify_spawn_attr a = { 0 };
	struct spawned s = { .c.fd = -1 };
	FILE *f = fopen("/proc/self/status", "re");

	EXPECT(f);
	while (fgets(cpus, sizeof(cpus), f) && strncmp(cpus, "Cpus_allowed_list:", 18) != 0)
		;
	fclose(f);
	cpus[strcspn(cpus, "\n")] = '\0';
	fd_target(0, fd0, sizeof(fd0));
	fd_target(1, fd1, sizeof(fd1));
	fd_target(2, fd2, sizeof(fd2));
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = "[ \"$(readlink /proc/$$/fd/0)\" = \"$1\" ] &&"
		  " [ \"$(readlink /proc/$$/fd/1)\" = \"$2\" ] &&"
		  " [ \"$(readlink /proc/$$/fd/2)\" = \"$3\" ] &&"
		  " [ \"$(grep Cpus_allowed_list: /proc/$$/status)\" = \"$4\" ]";
	argv[3] = "sh";
	argv[4] = fd0;
	argv[5] = fd1;
	argv[6] = fd2;
	argv[7] = cpus;
	argv[8] = NULL;
	a.path = "/bin/sh";
	a.argv = argv;
	EXPECT(spawn_run(&a, FILTER_NOTIFY_GETPPID, &s));
	EXPECT_EQ(s.status, 0);
	return true;
}

#define CAPS_SCRIPT "id -u; grep -E '^Cap(Inh|Eff|Bnd|Amb)' /proc/self/status | cut -f2"

static bool test_spawn_user_drop_caps(void)
{
	struct unotify_spawn_attr a = SPAWN_ATTR(.drop_caps = true);
	char out[512];
	int status;

	EXPECT(spawn_capture(&a, CAPS_SCRIPT, out, sizeof(out), &status));
	EXPECT_EQ(status, 0);
	EXPECT(strcmp(out, "0\n0000000000000000\n0000000000000000\n0000000000000000\n"
			   "0000000000000000\n") == 0);
	a = SPAWN_ATTR(.user = "nobody", .drop_caps = true);
	EXPECT(spawn_capture(&a, CAPS_SCRIPT, out, sizeof(out), &status));
	EXPECT(strcmp(out, "65534\n0000000000000000\n0000000000000000\n0000000000000000\n"
			   "0000000000000000\n") == 0);
	return true;
}

static bool test_spawn_user_keep_caps(void)
{
	struct unotify_spawn_attr a =
		SPAWN_ATTR(.user = "65534", .keep_caps = "cap_net_bind_service,cap_chown");
	char out[512];
	int status;

	EXPECT(spawn_capture(&a, CAPS_SCRIPT, out, sizeof(out), &status));
	EXPECT_EQ(status, 0);
	/* CAP_CHOWN = 0, CAP_NET_BIND_SERVICE = 10: inheritable, effective, bounding, ambient. */
	EXPECT(strcmp(out, "65534\n0000000000000401\n0000000000000401\n0000000000000401\n"
			   "0000000000000401\n") == 0);
	a = SPAWN_ATTR(.keep_caps = "cap_net_bind_service,cap_chown");
	EXPECT(spawn_capture(&a, CAPS_SCRIPT, out, sizeof(out), &status));
	EXPECT(strcmp(out, "0\n0000000000000401\n0000000000000401\n0000000000000401\n"
			   "0000000000000401\n") == 0);
	return true;
}

static bool test_spawn_bad_attr(void)
{
	char *argv[] = { "true", NULL };
	struct unotify_spawn_attr a =
		SPAWN_ATTR(.path = "/bin/true", .argv = argv, .user = "unotify-no-such-user");

	EXPECT(spawn_expect_error(&a, -ESRCH));
	a = SPAWN_ATTR(.path = "/bin/true", .argv = argv, .keep_caps = "cap_no_such_thing");
	EXPECT(spawn_expect_error(&a, -EINVAL));
	a = SPAWN_ATTR(.path = "/bin/true", .argv = argv, .keep_caps = "cap_chown",
		       .drop_caps = true);
	EXPECT(spawn_expect_error(&a, -EINVAL));
	return true;
}

/* ------------------------------------------------------------------ spawning ourselves */

static bool spawn_self(const char *mode, enum filter_kind kind, struct spawned *s, int fd)
{
	char *argv[] = { self_exe, "--child", (char *)mode, NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = self_exe, .argv = argv);

	*s = (struct spawned){ .c.fd = fd };
	return spawn_run(&a, kind, s);
}

static bool test_foreign_abi_killed(void)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	struct spawned s;

	EXPECT(spawn_self("native", FILTER_NOTIFY_GETPPID, &s, -1));
	EXPECT_EQ(s.status, 0);
	EXPECT(spawn_self("x32", FILTER_NOTIFY_GETPPID, &s, -1));
	EXPECT_EQ(s.status, 128 + SIGSYS);
	EXPECT(spawn_self("i386", FILTER_NOTIFY_GETPPID, &s, -1));
	EXPECT_EQ(s.status, 128 + SIGSYS);
#endif
	return true;
}

/* An FD verdict: the fd is injected as the call's result and closed in the supervisor. */
static bool test_spawn_fd_verdict(void)
{
	struct spawned s;
	int p[2];

	EXPECT(pipe2(p, O_CLOEXEC) == 0);
	EXPECT(write(p[1], "hello", 5) == 5);
	close(p[1]);
	EXPECT(spawn_self("read-injected", FILTER_NOTIFY_GETPPID, &s, p[0]));
	EXPECT_EQ(s.status, 0);
	EXPECT(fcntl(p[0], F_GETFD) < 0 && errno == EBADF);
	return true;
}

/* The supervisor drops the listener at once: the program's notified call gets ENOSYS. */
static bool test_spawn_fail_closed(void)
{
	char *argv[] = { self_exe, "--child", "enosys", NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = self_exe, .argv = argv);
	struct unotify_child child;
	struct sock_fprog prog;

	EXPECT(filter_build(FILTER_NOTIFY_GETPPID, &prog));
	a.filter = &prog;
	EXPECT_EQ(unotify_spawn(&a, &child), 0);
	free(prog.filter);
	close(TAKE_FD(child.listener_fd));
	EXPECT_EQ(unotify_child_wait(&child), 0);
	unotify_child_close(&child);
	return true;
}

/*
 * The ownership trap of unotify.h: the listener took child.listener_fd and
 * the caller kept the number. unotify_child_close() must not close what the
 * listener now owns (in a threaded supervisor that number may by then be
 * another sandbox's), and taking the listener a second time is refused.
 */
static bool test_spawn_listener_ownership(void)
{
	struct counts c = { .fd = -1 };
	struct unotify_loop_ops ops = { decide_spawned, NULL, &c };
	char *argv[] = { self_exe, "--child", "getppid42", NULL };
	struct unotify_spawn_attr a = SPAWN_ATTR(.path = self_exe, .argv = argv);
	struct unotify_child child;
	struct sock_fprog prog;
	unotify_listener *l, *again = NULL;
	int fd;

	EXPECT(filter_build(FILTER_NOTIFY_GETPPID, &prog));
	a.filter = &prog;
	EXPECT_EQ(unotify_spawn(&a, &child), 0);
	free(prog.filter);
	fd = child.listener_fd;
	EXPECT_EQ(unotify_listener_new(fd, &l), 0); /* and child.listener_fd kept */
	EXPECT_EQ(unotify_listener_new(fd, &again), -EBUSY);
	EXPECT(again == NULL);
	unotify_child_close(&child);
	EXPECT_EQ(child.listener_fd, -1);
	EXPECT_EQ(child.pidfd, -1);
	EXPECT(fcntl(unotify_listener_fd(l), F_GETFD) >= 0); /* still open: the listener's */
	EXPECT_EQ(unotify_supervise(l, &ops, NULL), 0);     /* and it still works */
	EXPECT_EQ(c.decided, 1);
	unotify_listener_free(l);
	EXPECT(waitpid(child.pid, &fd, 0) == child.pid && WIFEXITED(fd) && WEXITSTATUS(fd) == 0);
	EXPECT_EQ(unotify_child_listener(&child, &l), -EBADF);
	return true;
}

/* `test-lib --child MODE`: the program the spawn tests above exec. */
int spawn_child_main(const char *mode)
{
	if (strcmp(mode, "native") == 0)
		return syscall(__NR_getpid) == getpid() ? 0 : 1;
	if (strcmp(mode, "enosys") == 0)
		return child_enosys(getppid());
	if (strcmp(mode, "getppid42") == 0)
		return syscall(__NR_getppid) == 42 ? 0 : 1;
	if (strcmp(mode, "read-injected") == 0) {
		char buf[8] = { 0 };
		long fd = syscall(__NR_getppid);

		return fd >= 0 && read((int)fd, buf, 8) == 5 && strcmp(buf, "hello") == 0 ? 0 : 1;
	}
#if defined(__x86_64__) && !defined(__ILP32__)
	if (strcmp(mode, "x32") == 0)
		syscall(__X32_SYSCALL_BIT | __NR_getpid);
	if (strcmp(mode, "i386") == 0) {
		long ret;

		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory", "r8", "r9", "r10",
				 "r11");
	}
#endif
	return 3; /* a foreign call that returned: not killed */
}

/* ------------------------------------------------------------------ table */

const struct test_entry spawn_tests[] = {
	{ "spawn: exit status and signal", test_spawn_exit, false, true },
	{ "spawn: PATH search", test_spawn_path_search, false, true },
	{ "spawn: program not found or not executable", test_spawn_not_found, false, true },
	{ "spawn: execve fails after the gate", test_spawn_exec_fails, false, true },
	{ "spawn: policy denying write/sendmsg and notifying execve", test_spawn_policy_like,
	  false, true },
	{ "spawn: stdio and environment", test_spawn_stdio_env, false, true },
	{ "spawn: cpu affinity", test_spawn_cpu, false, true },
	{ "spawn: a zero attr leaves CPUs and stdio as they are", test_spawn_zero_attr, false, true },
	{ "spawn: drop_caps as root and as nobody", test_spawn_user_drop_caps, true, true },
	{ "spawn: keep_caps as nobody and as root", test_spawn_user_keep_caps, true, true },
	{ "spawn: unknown user or capability", test_spawn_bad_attr, false, true },
	{ "spawn: x32 and i386 entry points killed", test_foreign_abi_killed, false, true },
	{ "spawn: an FD verdict", test_spawn_fd_verdict, false, true },
	{ "spawn: supervisor drops the listener: ENOSYS", test_spawn_fail_closed, false, true },
	{ "spawn: the listener owns listener_fd once it took it", test_spawn_listener_ownership,
	  false, true },
};

const size_t spawn_tests_count = ARRAY_SIZE(spawn_tests);
