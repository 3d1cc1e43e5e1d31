/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live tests of libunotify: real filters, real processes. TAP-like output,
 * exit 0 (all passed), 1 (a failure) or 77 (seccomp user notification is
 * unavailable here, reason printed).
 *
 * Run as `test-lib --child NAME` it is instead one of the small programs the
 * spawn tests exec (see child_main).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "unotify.h"
#include "util.h"

static int test_count, test_failures;

#define EXPECT(cond)                                                                   \
	do {                                                                           \
		if (!(cond)) {                                                         \
			printf("#   %s:%d: failed: %s\n", __FILE__, __LINE__, #cond);    \
			return false;                                                  \
		}                                                                      \
	} while (0)

#define EXPECT_EQ(a, b)                                                                \
	do {                                                                           \
		long long a_ = (long long)(a), b_ = (long long)(b);                    \
		if (a_ != b_) {                                                        \
			printf("#   %s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, \
			       #a, a_, b_);                                            \
			return false;                                                  \
		}                                                                      \
	} while (0)

static void run_test(const char *name, bool (*fn)(void))
{
	bool ok;

	fflush(stdout);
	ok = fn();
	test_count++;
	if (!ok)
		test_failures++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", test_count, name);
	fflush(stdout);
}

static void skip_test(const char *name, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++test_count, name, why);
}

/* A wait status as a shell shows it. */
static int status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* ------------------------------------------------------------------ forked targets */

/* arch check, getppid notified, everything else allowed */
static struct sock_filter target_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UNOTIFY_AUDIT_ARCH, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

struct target {
	pid_t pid;
	int sock;
	unotify_listener *l;
};

static int send_fd(int sock, int fd)
{
	char byte = 'L', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static char self_exe[4096];

/* In the exec'd target (outside valgrind, if the test runs under it). */
static _Noreturn void target_child(int sock, int (*fn)(pid_t))
{
	struct sock_fprog prog = { .len = ARRAY_SIZE(target_insns), .filter = target_insns };
	pid_t parent = getppid();
	char go;
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(90);
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0 || send_fd(sock, (int)fd) < 0)
		_exit(91);
	close((int)fd);
	if (read(sock, &go, 1) != 1)
		_exit(92);
	_exit(fn(parent));
}

/*
 * Starts `test-lib --target NAME`, which loads the target filter, hands its
 * listener over and waits for target_go. Exec'd rather than forked so that
 * the supervisor side can run under valgrind, which cannot load filters.
 */
static bool target_start(struct target *t, const char *name)
{
	char sock[16];
	int sv[2], fd;

	EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	snprintf(sock, sizeof(sock), "%d", sv[1]);
	fflush(stdout);
	t->pid = fork();
	EXPECT(t->pid >= 0);
	if (t->pid == 0) {
		fcntl(sv[1], F_SETFD, 0);
		execl(self_exe, self_exe, "--target", name, sock, (char *)NULL);
		_exit(93);
	}
	close(sv[1]);
	t->sock = sv[0];
	fd = recv_fd(t->sock);
	EXPECT(fd >= 0);
	EXPECT_EQ(unotify_listener_new(fd, &t->l), 0);
	return true;
}

static void target_go(struct target *t)
{
	(void)!write(t->sock, "g", 1);
}

/* The child's status as a shell shows it; the listener is freed. */
static int target_finish(struct target *t)
{
	int status;

	unotify_listener_free(t->l);
	t->l = NULL;
	close(t->sock);
	if (waitpid(t->pid, &status, 0) < 0)
		return -1;
	return status_code(status);
}

static bool recv_getppid(unotify_listener *l, pid_t pid, const struct seccomp_notif **ret)
{
	EXPECT_EQ(unotify_listener_recv(l, ret), 0);
	EXPECT_EQ((*ret)->data.nr, __NR_getppid);
	EXPECT_EQ((*ret)->pid, pid);
	return true;
}

/* ------------------------------------------------------------------ features, gate */

static bool test_features(void)
{
	static const char *const names[] = { "user-notification", "sync-wake-up", "addfd",
					     "addfd-send", "wait-killable-recv", "tsync-esrch",
					     "pidfd-open", "pidfd-getfd", "process-vm-readv",
					     "openat2" };
	struct unotify_features f;
	const char *name;
	bool on;

	EXPECT_EQ(unotify_features_probe(&f), 0);
	printf("# kernel %s\n", f.kernel_release);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		EXPECT_EQ(unotify_features_get(&f, i, &name, &on), 0);
		EXPECT(strcmp(name, names[i]) == 0);
		printf("# %s: %s\n", name, on ? "available" : "not available");
	}
	EXPECT_EQ(unotify_features_get(&f, ARRAY_SIZE(names), &name, &on), -ENOENT);
	EXPECT(f.user_notif && f.addfd && f.pidfd_getfd && f.kernel_release[0]);
	return true;
}

static bool test_gate_match(void)
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

/* ------------------------------------------------------------------ listener */

static int child_expect_42_twice(pid_t parent)
{
	return syscall(__NR_getppid) == 42 && syscall(__NR_getppid) == 42 ? 0 : 1;
}

static bool valgrind_mode; /* the probe cannot see the kernel from under valgrind */

static bool test_set_sync(void)
{
	struct unotify_features f;
	const struct seccomp_notif *req;
	struct target t;
	int r;

	EXPECT_EQ(unotify_features_probe(&f), 0);
	EXPECT(target_start(&t, "expect_42_twice"));
	EXPECT(!unotify_listener_sync(t.l));
	r = unotify_listener_set_sync(t.l, true);
	if (f.sync_wake_up || valgrind_mode)
		EXPECT_EQ(r, 0);
	else
		EXPECT_EQ(r, -EOPNOTSUPP);
	EXPECT_EQ(unotify_listener_sync(t.l), r == 0);
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT_EQ(unotify_listener_set_sync(t.l, false), 0);
	EXPECT(!unotify_listener_sync(t.l));
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

static int child_value_errno_continue(pid_t parent)
{
	if (syscall(__NR_getppid) != 42)
		return 1;
	if (syscall(__NR_getppid) != -1 || errno != EACCES)
		return 2;
	return syscall(__NR_getppid) == parent ? 0 : 3;
}

static bool test_reply_kinds(void)
{
	const struct seccomp_notif *req;
	struct target t;

	EXPECT(target_start(&t, "value_errno_continue"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_id_valid(t.l, req->id), 0);
	EXPECT_EQ(unotify_reply_errno(t.l, req->id, 0), -EINVAL); /* would be a success */
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_reply_errno(t.l, req->id, EACCES), 0);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_reply_continue(t.l, req->id), 0);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

static int child_addfd(pid_t parent)
{
	char buf[8] = { 0 };
	long fd = syscall(__NR_getppid);

	if (fd < 0 || read((int)fd, buf, sizeof(buf)) != 5 || strcmp(buf, "hello") != 0)
		return 1;
	if (!(fcntl((int)fd, F_GETFD) & FD_CLOEXEC))
		return 2;
	if (syscall(__NR_getppid) != 0)
		return 3;
	return fcntl(100, F_GETFD) == 0 ? 0 : 4; /* installed at 100, without CLOEXEC */
}

static bool test_addfd(void)
{
	const struct seccomp_notif *req;
	struct target t;
	int p[2], fd;

	EXPECT(pipe2(p, O_CLOEXEC) == 0);
	EXPECT(write(p[1], "hello", 5) == 5);
	EXPECT(target_start(&t, "addfd"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	fd = unotify_reply_addfd(t.l, req->id, p[0], O_CLOEXEC);
	EXPECT(fd >= 0);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(unotify_addfd(t.l, req->id, p[0], 100, 0), 100);
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 0), 0);
	EXPECT_EQ(target_finish(&t), 0);
	close(p[0]);
	close(p[1]);
	return true;
}

static int child_block(pid_t parent)
{
	syscall(__NR_getppid);
	return 0;
}

static bool test_target_dies(void)
{
	const struct seccomp_notif *req;
	struct target t;
	uint64_t id;
	char buf[8];
	int status;

	EXPECT(target_start(&t, "block"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	id = req->id;
	EXPECT_EQ(unotify_id_valid(t.l, id), 0);
	EXPECT_EQ(unotify_mem_read(t.l, req, req->data.instruction_pointer, buf, sizeof(buf)), 0);
	kill(t.pid, SIGKILL);
	EXPECT(waitpid(t.pid, &status, 0) == t.pid);
	EXPECT_EQ(unotify_id_valid(t.l, id), -ENOENT);
	EXPECT_EQ(unotify_mem_read(t.l, req, req->data.instruction_pointer, buf, sizeof(buf)),
		  -ENOENT);
	EXPECT_EQ(unotify_reply_value(t.l, id, 1), -ENOENT);
	/* Nobody uses the filter any more: the end of supervision. */
	EXPECT_EQ(unotify_listener_recv(t.l, &req), -EPIPE);
	unotify_listener_free(t.l);
	close(t.sock);
	return true;
}

/* ------------------------------------------------------------------ memory */

static int child_memory(pid_t parent)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char longstr[101], out[16] = { 0 };

	if (m == MAP_FAILED || munmap(m + page, page) < 0)
		return 10;
	memcpy(m + page - 5, "tail", 5); /* its NUL is the page's last byte */
	memset(longstr, 'x', 100);
	longstr[100] = '\0';
	if (syscall(__NR_getppid, m + page - 5, longstr, out, m + page) != 0)
		return 11;
	return strcmp(out, "written") == 0 ? 0 : 12;
}

static bool check_memory(unotify_listener *l, const struct seccomp_notif *req)
{
	const __u64 *a = req->data.args;
	char buf[256];

	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, sizeof(buf)), 4);
	EXPECT(strcmp(buf, "tail") == 0);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, 5), 4);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, 4), -ENAMETOOLONG);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[1], buf, 16), -ENAMETOOLONG);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[1], buf, sizeof(buf)), 100);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[3], buf, sizeof(buf)), -EFAULT);
	EXPECT_EQ(unotify_mem_read(l, req, a[1], buf, 8), 0);
	EXPECT(memcmp(buf, "xxxxxxxx", 8) == 0);
	EXPECT_EQ(unotify_mem_read(l, req, a[0], buf, 5), 0);
	EXPECT_EQ(unotify_mem_read(l, req, a[0], buf, 6), -EFAULT); /* into the hole */
	EXPECT_EQ(unotify_mem_read(l, req, a[3], buf, 1), -EFAULT);
	EXPECT_EQ(unotify_mem_write(l, req, a[2], "written", 8), 0);
	return true;
}

static bool test_memory(void)
{
	const struct seccomp_notif *req;
	struct target t;
	bool ok;

	EXPECT(target_start(&t, "memory"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	ok = check_memory(t.l, req);
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 0), 0);
	EXPECT_EQ(target_finish(&t), 0);
	return ok;
}

/* ------------------------------------------------------------------ supervise, fail closed */

struct counts {
	int decided, gates, replied, execve;
	bool stop_after_first;
	volatile bool stop;
	int fd; /* for an FD verdict, or -1 */
};

static int decide_value_7(unotify_listener *l, const struct seccomp_notif *req,
			  struct unotify_verdict *ret, void *userdata)
{
	struct counts *c = userdata;

	c->gates += unotify_is_gate(req);
	if (++c->decided > 3)
		return -EIO; /* must fail the call with ENOSYS */
	if (c->stop_after_first)
		c->stop = true;
	*ret = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_VALUE, .value = 7 };
	return 0;
}

static void replied_count(const struct seccomp_notif *req, const struct unotify_verdict *v,
			  int reply_result, uint64_t ns, void *userdata)
{
	((struct counts *)userdata)->replied += reply_result == 0;
}

static int child_three_then_enosys(pid_t parent)
{
	for (int i = 0; i < 3; i++)
		if (syscall(__NR_getppid) != 7)
			return 1;
	return syscall(__NR_getppid) == -1 && errno == ENOSYS ? 0 : 2;
}

static bool test_supervise(void)
{
	struct counts c = { .fd = -1 };
	struct unotify_loop_ops ops = { decide_value_7, replied_count, &c };
	struct target t;

	EXPECT(target_start(&t, "three_then_enosys"));
	target_go(&t);
	EXPECT_EQ(unotify_supervise(t.l, &ops, &c.stop), 0);
	EXPECT_EQ(c.decided, 4);
	EXPECT_EQ(c.replied, 4);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

static int child_7_then_enosys(pid_t parent)
{
	if (syscall(__NR_getppid) != 7)
		return 1;
	return syscall(__NR_getppid) == -1 && errno == ENOSYS ? 0 : 2;
}

/* The stop flag ends the loop; closing the listener then fails the next call (fail closed). */
static bool test_supervise_stop(void)
{
	struct counts c = { .stop_after_first = true, .fd = -1 };
	struct unotify_loop_ops ops = { decide_value_7, NULL, &c };
	struct target t;

	EXPECT(target_start(&t, "7_then_enosys"));
	target_go(&t);
	EXPECT_EQ(unotify_supervise(t.l, &ops, &c.stop), 0);
	EXPECT_EQ(c.decided, 1);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

static int child_enosys(pid_t parent)
{
	return syscall(__NR_getppid) == -1 && errno == ENOSYS ? 0 : 1;
}

/* The supervisor closes the listener while the call waits: the call fails with ENOSYS. */
static bool test_fail_closed_pending(void)
{
	const struct seccomp_notif *req;
	struct target t;

	EXPECT(target_start(&t, "enosys"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(target_finish(&t), 0);
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
		*ret = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_CONTINUE };
	} else if (c->fd >= 0) {
		*ret = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_FD, .fd = c->fd };
	} else {
		*ret = (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_VALUE, .value = 42 };
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
	EXPECT_EQ(unotify_listener_new(child.listener_fd, &l), 0);
	child.listener_fd = -1;
	EXPECT_EQ(unotify_supervise(l, &ops, NULL), 0);
	unotify_listener_free(l);
	s->status = unotify_child_wait(&child);
	s->exec_error = unotify_child_exec_result(&child);
	EXPECT_EQ(unotify_child_exec_result(&child), s->exec_error); /* asked twice */
	unotify_child_close(&child);
	EXPECT_EQ(s->c.gates, 0); /* the gate never reaches decide */
	return true;
}

#define SPAWN_ATTR(...) \
	((struct unotify_spawn_attr){ .cpu = -1, .stdio_fds = { -1, -1, -1 }, __VA_ARGS__ })

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
	a->stdio_fds[1] = p[1];
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

	a.cpu = 0;

	EXPECT(spawn_capture(&a, "grep Cpus_allowed_list /proc/self/status", out, sizeof(out),
			     &status));
	EXPECT_EQ(status, 0);
	EXPECT(strcmp(out, "Cpus_allowed_list:\t0\n") == 0);
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
	close(steal_fd(&child.listener_fd));
	EXPECT_EQ(unotify_child_wait(&child), 0);
	unotify_child_close(&child);
	return true;
}

static int child_main(const char *mode)
{
	if (strcmp(mode, "native") == 0)
		return syscall(__NR_getpid) == getpid() ? 0 : 1;
	if (strcmp(mode, "enosys") == 0)
		return child_enosys(getppid());
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

/* ------------------------------------------------------------------ main */

static const struct {
	const char *name;
	int (*fn)(pid_t parent);
} targets[] = {
	{ "expect_42_twice", child_expect_42_twice },
	{ "value_errno_continue", child_value_errno_continue },
	{ "addfd", child_addfd },
	{ "block", child_block },
	{ "memory", child_memory },
	{ "three_then_enosys", child_three_then_enosys },
	{ "7_then_enosys", child_7_then_enosys },
	{ "enosys", child_enosys },
};

static int target_main(const char *name, const char *sock)
{
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (strcmp(name, targets[i].name) == 0)
			target_child(atoi(sock), targets[i].fn);
	return 94;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int fds_at_start;

static bool test_no_fd_leaked(void)
{
	EXPECT_EQ(count_fds(), fds_at_start);
	return true;
}

static const struct {
	const char *name;
	bool (*fn)(void);
	bool root;       /* needs root */
	bool in_process; /* loads filters in this process (not under valgrind) */
} tests[] = {
	{ "features are probed and named", test_features, false, true },
	{ "the gate call is recognised", test_gate_match, false, false },
	{ "set_sync on and off", test_set_sync, false, false },
	{ "reply value, errno, continue", test_reply_kinds, false, false },
	{ "addfd with SEND and with SETFD", test_addfd, false, false },
	{ "the target dies: ID_VALID, reply and recv", test_target_dies, false, false },
	{ "mem_read, mem_read_string, mem_write", test_memory, false, false },
	{ "supervise until the target exits; decide errors fail closed", test_supervise, false, false },
	{ "supervise stops on the flag", test_supervise_stop, false, false },
	{ "listener closed while a call waits: ENOSYS", test_fail_closed_pending, false, false },
	{ "spawn: exit status and signal", test_spawn_exit, false, true },
	{ "spawn: PATH search", test_spawn_path_search, false, true },
	{ "spawn: program not found or not executable", test_spawn_not_found, false, true },
	{ "spawn: execve fails after the gate", test_spawn_exec_fails, false, true },
	{ "spawn: policy denying write/sendmsg and notifying execve", test_spawn_policy_like,
	  false, true },
	{ "spawn: stdio and environment", test_spawn_stdio_env, false, true },
	{ "spawn: cpu affinity", test_spawn_cpu, false, true },
	{ "spawn: drop_caps as root and as nobody", test_spawn_user_drop_caps, true, true },
	{ "spawn: keep_caps as nobody and as root", test_spawn_user_keep_caps, true, true },
	{ "spawn: unknown user or capability", test_spawn_bad_attr, false, true },
	{ "spawn: x32 and i386 entry points killed", test_foreign_abi_killed, false, true },
	{ "spawn: an FD verdict", test_spawn_fd_verdict, false, true },
	{ "spawn: supervisor drops the listener: ENOSYS", test_spawn_fail_closed, false, true },
	{ "no fd leaked", test_no_fd_leaked, false, false },
};

static bool under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

int main(int argc, char **argv)
{
	struct unotify_features f;
	bool valgrind = valgrind_mode = under_valgrind();
	ssize_t n;

	/* _exit: no exit-time work (LSan's leak check calls getppid, which is notified). */
	if (argc == 3 && strcmp(argv[1], "--child") == 0)
		_exit(child_main(argv[2]));
	if (argc == 4 && strcmp(argv[1], "--target") == 0)
		_exit(target_main(argv[2], argv[3]));
	if (!valgrind && (unotify_features_probe(&f) < 0 || !f.user_notif)) {
		printf("1..0 # SKIP seccomp user notification is not available on this kernel\n");
		return 77;
	}
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n < 0) {
		printf("1..0 # SKIP cannot find /proc/self/exe\n");
		return 77;
	}
	self_exe[n] = '\0';
	fds_at_start = count_fds();
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].root && geteuid() != 0)
			skip_test(tests[i].name, "needs root");
		else if (tests[i].in_process && valgrind)
			skip_test(tests[i].name, "valgrind cannot load seccomp filters");
		else
			run_test(tests[i].name, tests[i].fn);
	}
	printf("1..%d\n", test_count);
	return test_failures ? 1 : 0;
}
