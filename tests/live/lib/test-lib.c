/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live tests of libunotify: real filters, real processes. TAP-like output,
 * exit 0 (all passed), 1 (a failure) or 77 (seccomp user notification is
 * unavailable here, reason printed).
 *
 * The spawn tests are in test-spawn.c. Run as `test-lib --child NAME` it is
 * instead one of the small programs they exec (see spawn_child_main); run as
 * `test-lib --target NAME SOCK` one of the targets below (see target_main).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/sched.h>

#include "internal.h"
#include "spare.h"
#include "test-lib.h"
#include "unotify.h"
#include "util.h"

static int test_count, test_failures;

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
/* ------------------------------------------------------------------ features */

static bool test_features(void)
{
	static const char *const names[] = { "user-notification", "sync-wake-up", "addfd",
					     "addfd-send", "wait-killable-recv", "tsync-esrch",
					     "pidfd-open", "pidfd-getfd", "process-vm-readv",
					     "openat2", "landlock" };
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
	EXPECT(f.landlock == (f.landlock_abi > 0));
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
	char *n = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char longstr[101], out[16] = { 0 };

	if (m == MAP_FAILED || munmap(m + page, page) < 0)
		return 10;
	if (n == MAP_FAILED || munmap(n + page, page) < 0)
		return 10;
	memcpy(m + page - 5, "tail", 5); /* its NUL is the page's last byte */
	memset(longstr, 'x', 100);
	longstr[100] = '\0';
	/* longer than the first read, its NUL again the page's last byte */
	memset(n + page - 601, 'y', 600);
	n[page - 1] = '\0';
	if (syscall(__NR_getppid, m + page - 5, longstr, out, m + page, n + page - 601) != 0)
		return 11;
	return strcmp(out, "written") == 0 ? 0 : 12;
}

static bool check_memory(unotify_listener *l, const struct seccomp_notif *req)
{
	const __u64 *a = req->data.args;
	char buf[256], big[1024];

	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, sizeof(buf)), 4);
	EXPECT(strcmp(buf, "tail") == 0);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, 5), 4);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[0], buf, 4), -ENAMETOOLONG);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[1], buf, 16), -ENAMETOOLONG);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[1], buf, sizeof(buf)), 100);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[3], buf, sizeof(buf)), -EFAULT);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[4], big, sizeof(big)), 600);
	EXPECT(strspn(big, "y") == 600);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[4], big, 600), -ENAMETOOLONG);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[4] + 344, big, sizeof(big)), 256);
	EXPECT_EQ(unotify_mem_read_string(l, req, a[4] + 343, big, sizeof(big)), 257);
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

/* ------------------------------------------------------------------ a write after reuse */

/* Far from anything a fresh process maps: the target's buffer, and the other process's page. */
#define REUSE_ADDR ((void *)0x6f0000000000UL)
#define REUSE_CANARY "canary!"

static int child_reused(pid_t parent)
{
	char *page = mmap(REUSE_ADDR, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	(void)parent;
	if (page != REUSE_ADDR)
		return 10;
	syscall(__NR_getppid, page); /* killed while it waits */
	return 11;
}

/*
 * Another process with the number tid (clone3's set_tid: as if the number
 * came round again), the same page mapped at REUSE_ADDR holding the canary.
 * Its pid, or -errno (EPERM: not allowed to choose; EEXIST: taken).
 */
static pid_t reuse_start(pid_t tid)
{
	pid_t set_tid[1] = { tid };
	struct clone_args args = { .exit_signal = SIGCHLD,
				   .set_tid = (uintptr_t)set_tid,
				   .set_tid_size = 1 };
	int ready[2];
	char c;
	long pid;

	if (pipe2(ready, O_CLOEXEC) < 0)
		return -errno;
	fflush(stdout);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		char *page = mmap(REUSE_ADDR, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (page != REUSE_ADDR)
			_exit(10);
		memcpy(page, REUSE_CANARY, sizeof(REUSE_CANARY));
		(void)!write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	if (pid < 0)
		pid = -errno;
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) != 1)
		pid = -EIO;
	close(ready[0]);
	return (pid_t)pid;
}

/*
 * The thread that made the call dies and its number goes to another
 * process before the result is written: nothing reaches that process (a
 * write by number, process_vm_writev, would land there).
 */
static bool test_write_reused_tid(void)
{
	const struct seccomp_notif *req;
	char seen[sizeof(REUSE_CANARY)] = { 0 };
	struct iovec local = { .iov_base = seen, .iov_len = sizeof(seen) };
	struct iovec remote = { .iov_base = REUSE_ADDR, .iov_len = sizeof(seen) };
	struct target t;
	ssize_t got = -1;
	int status, written = 0;
	pid_t other;

	EXPECT(target_start(&t, "reused"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(req->data.args[0], (uint64_t)(uintptr_t)REUSE_ADDR);
	kill(t.pid, SIGKILL);
	EXPECT(waitpid(t.pid, &status, 0) == t.pid);
	other = reuse_start(t.pid);
	if (other == t.pid) {
		written = unotify_mem_write(t.l, req, (uintptr_t)REUSE_ADDR, "written", 8);
		got = process_vm_readv(other, &local, 1, &remote, 1, 0);
		kill(other, SIGKILL);
		waitpid(other, &status, 0);
	}
	unotify_listener_free(t.l);
	close(t.sock);
	EXPECT_EQ(other, t.pid);
	EXPECT(written < 0);
	EXPECT_EQ(got, (ssize_t)sizeof(seen));
	EXPECT(memcmp(seen, REUSE_CANARY, sizeof(seen)) == 0);
	return true;
}

/* Kernels before PROCMAP_QUERY: whether pages are writable, from the maps text. */
static bool test_writable_text(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t a = (uintptr_t)m;
	int maps;

	EXPECT(m != MAP_FAILED);
	EXPECT_EQ(mprotect(m + page, page, PROT_READ), 0);
	EXPECT_EQ(munmap(m + 2 * page, page), 0);
	maps = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	EXPECT(maps >= 0);
	EXPECT_EQ(memory_writable_text(maps, a, a + 16), 0);
	EXPECT_EQ(memory_writable_text(maps, a + page - 8, a + page + 8), -EFAULT); /* into read-only */
	EXPECT_EQ(memory_writable_text(maps, a + page, a + page + 1), -EFAULT);
	EXPECT_EQ(memory_writable_text(maps, a + 2 * page, a + 2 * page + 1), -EFAULT); /* unmapped */
	EXPECT_EQ(mprotect(m + page, page, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
	/* Two mappings side by side (the flags differ), both writable: one range. */
	EXPECT_EQ(memory_writable_text(maps, a + page - 8, a + page + 8), 0);
	close(maps);
	munmap(m, 2 * page);
	return true;
}

/* clone3 with set_tid: root only; valgrind does not know clone3. */
static void run_test_write_reused_tid(bool valgrind)
{
	const char *name = "mem_write after the thread's number went to another process: nothing written";

	if (geteuid() != 0)
		skip_test(name, "needs root (clone3 with set_tid gives the number again)");
	else if (valgrind)
		skip_test(name, "valgrind does not run clone3");
	else
		run_test(name, test_write_reused_tid);
}

/* ------------------------------------------------------------------ supervise, fail closed */

static int decide_value_7(unotify_listener *l, const struct seccomp_notif *req,
			  struct unotify_verdict *ret, void *userdata)
{
	struct counts *c = userdata;

	c->gates += unotify_is_gate(req);
	if (++c->decided > 3)
		return -EIO; /* must fail the call with ENOSYS */
	if (c->stop_after_first)
		c->stop = true;
	*ret = unotify_verdict_value(7);
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
	struct unotify_supervise_stats st;
	struct unotify_loop_ops ops = { .decide = decide_value_7, .replied = replied_count,
					.userdata = &c };
	struct target t;

	EXPECT(target_start(&t, "three_then_enosys"));
	target_go(&t);
	EXPECT_EQ(unotify_supervise_counted(t.l, &ops, &c.stop, &st), 0);
	EXPECT_EQ(c.decided, 4);
	EXPECT_EQ(c.replied, 4);
	EXPECT(st.threads == 1 && st.calls == 4 && st.partners == 0);
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
	struct unotify_loop_ops ops = { .decide = decide_value_7, .userdata = &c };
	struct target t;

	EXPECT(target_start(&t, "7_then_enosys"));
	target_go(&t);
	EXPECT_EQ(unotify_supervise(t.l, &ops, &c.stop), 0);
	EXPECT_EQ(c.decided, 1);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

/*
 * A decision slow enough that another thread of the pool takes the
 * receiver's role meanwhile (as any blocking one): the call is then
 * answered by a worker, and the flag it sets must end the loop there too.
 */
static int decide_slowly_7_then_stop(unotify_listener *l, const struct seccomp_notif *req,
				     struct unotify_verdict *ret, void *userdata)
{
	struct counts *c = userdata;
	struct timespec slow = { .tv_nsec = 300 * 1000 * 1000 };

	c->decided++;
	nanosleep(&slow, NULL);
	c->stop = true;
	*ret = unotify_verdict_value(7);
	return 0;
}

/* One call, then nothing until the test is done with the listener (the socket's EOF). */
static int child_7_wait_enosys(pid_t parent)
{
	char eof;

	if (syscall(__NR_getppid) != 7)
		return 1;
	if (read(target_sock, &eof, 1) != 0)
		return 3;
	return syscall(__NR_getppid) == -1 && errno == ENOSYS ? 0 : 2;
}

/*
 * No second call comes to end the loop: before, only the receiver's own
 * calls were followed by a look at the flag, and the loop went on until
 * the target exited (here: never, the alarm ends the test).
 */
static bool test_supervise_stop_worker(void)
{
	struct counts c = { .fd = -1 };
	struct unotify_supervise_stats st;
	struct unotify_loop_ops ops = { .decide = decide_slowly_7_then_stop, .threads = 4,
					.userdata = &c };
	struct target t;
	int r;

	EXPECT(target_start(&t, "7_wait_enosys"));
	target_go(&t);
	alarm(30); /* a loop that never ends fails the test, not the suite's time */
	r = unotify_supervise_counted(t.l, &ops, &c.stop, &st);
	alarm(0);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(c.decided, 1);
	/* The one call, taken over after a tick; one thread never forms a partner. */
	EXPECT(st.calls == 1 && st.slow == 1 && st.threads >= 2 && st.partners == 0);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
}

int child_enosys(pid_t parent)
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

static int child_42_three_times(pid_t parent)
{
	for (int i = 0; i < 3; i++)
		if (syscall(__NR_getppid) != 42)
			return 1;
	return 0;
}

/* Does a kept target for req (as if it were this notification) prove a read made before it? */
static int kept_proves(unotify_listener *l, const struct seccomp_notif *req)
{
	unotify_target *t = NULL;
	int r = unotify_target_new_kept(l, req, true, &t);

	if (r == 0)
		r = unotify_target_proves_reads(t);
	unotify_target_free(t);
	return r;
}

/*
 * A target proves a read of the thread's memory made before it: read
 * afresh (ID_VALID ends it), or kept on a listener that watches
 * credentials, for a call made after the notification that proved what
 * was kept. Not for one made before or by it: the thread that holds the
 * number now need not be the one that made that call.
 */
static bool test_target_proves_reads(void)
{
	const struct seccomp_notif *req;
	struct seccomp_notif earlier;
	uint64_t proving;
	struct target t;

	EXPECT(target_start(&t, "42_three_times"));
	target_go(&t);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	proving = req->id;
	EXPECT_EQ(kept_proves(t.l, req), 1); /* read afresh, and kept */
	/* Not watched: a kept state proves nothing of an earlier read. */
	EXPECT_EQ(kept_proves(t.l, req), 0);
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(kept_proves(t.l, req), 0);
	EXPECT_EQ(unotify_listener_watch_creds(t.l), 0);
	EXPECT_EQ(kept_proves(t.l, req), 1); /* a later call than the proving one */
	earlier = *req;
	earlier.id = proving;
	EXPECT_EQ(kept_proves(t.l, &earlier), 0);
	earlier.id = proving - 1;
	EXPECT_EQ(kept_proves(t.l, &earlier), 0);
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT(recv_getppid(t.l, t.pid, &req));
	EXPECT_EQ(kept_proves(t.l, req), 1);
	EXPECT_EQ(unotify_reply_value(t.l, req->id, 42), 0);
	EXPECT_EQ(target_finish(&t), 0);
	return true;
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
	{ "reused", child_reused },
	{ "three_then_enosys", child_three_then_enosys },
	{ "7_then_enosys", child_7_then_enosys },
	{ "7_wait_enosys", child_7_wait_enosys },
	{ "enosys", child_enosys },
	{ "42_three_times", child_42_three_times },
};

static int target_main(const char *name, const char *sock)
{
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (strcmp(name, targets[i].name) == 0)
			target_child(atoi(sock), targets[i].fn);
	return 94;
}

/* Our fds, but the one of /proc the library keeps for the process once it needs it. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char link[300], text[16];
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, text, sizeof(text) - 1);
		if (len == 5 && memcmp(text, "/proc", 5) == 0)
			continue;
		n++;
	}
	closedir(d);
	return n;
}

/* ------------------------------------------------------------------ spare */

#define SPARE_TEST_SIZE (4 << 20) /* mmap'ed by malloc: counted in hblkhd until freed */

static pthread_key_t spare_test_key;

/* Runs after spare.c's own destructor (a key made later), and gives a block back. */
static void spare_test_late_give(void *p)
{
	spare_give(SPARE_TARGET, p, SPARE_TEST_SIZE);
}

static void *spare_test_thread(void *arg)
{
	/* A first give registers spare.c's key; the second block goes at thread end. */
	spare_give(SPARE_TARGET, spare_take(SPARE_TARGET, 64), 64);
	pthread_setspecific(spare_test_key, malloc(SPARE_TEST_SIZE));
	return arg;
}

/* A block given by a destructor that runs after the spare's own is freed, never parked. */
static bool test_spare_thread_end(void)
{
	size_t before;
	pthread_t th;

	/* spare.c's key first (made at a first give), so that ours is destroyed after it. */
	spare_give(SPARE_OPEN_CONTEXT, spare_take(SPARE_OPEN_CONTEXT, 64), 64);
	EXPECT_EQ(pthread_key_create(&spare_test_key, spare_test_late_give), 0);
	before = mallinfo2().hblkhd;
	EXPECT_EQ(pthread_create(&th, NULL, spare_test_thread, NULL), 0);
	EXPECT_EQ(pthread_join(th, NULL), 0);
	EXPECT_EQ(mallinfo2().hblkhd, before);
	pthread_key_delete(spare_test_key);
	return true;
}

/* malloc is not glibc's: mallinfo2 says nothing of it. */
static bool heap_replaced(bool valgrind)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return true;
#else
	return valgrind;
#endif
}

static int fds_at_start;

static bool test_no_fd_leaked(void)
{
	EXPECT_EQ(count_fds(), fds_at_start);
	return true;
}

static const struct test_entry lib_tests[] = {
	{ "features are probed and named", test_features, false, true },
	{ "the gate call is recognised", test_gate_match, false, false },
	{ "set_sync on and off", test_set_sync, false, false },
	{ "reply value, errno, continue", test_reply_kinds, false, false },
	{ "addfd with SEND and with SETFD", test_addfd, false, false },
	{ "the target dies: ID_VALID, reply and recv", test_target_dies, false, false },
	{ "mem_read, mem_read_string, mem_write", test_memory, false, false },
	{ "writable pages from the maps text (before PROCMAP_QUERY)", test_writable_text, false,
	  false },
	{ "supervise until the target exits; decide errors fail closed", test_supervise, false,
	  false },
	{ "supervise stops on the flag", test_supervise_stop, false, false },
	{ "supervise with threads stops on the flag a worker's call set", test_supervise_stop_worker,
	  false, false },
	{ "listener closed while a call waits: ENOSYS", test_fail_closed_pending, false, false },
	{ "a target proves an earlier read: afresh, or kept, watched, for a later call",
	  test_target_proves_reads, false, false },
};

/* Last, after the spawn tests: everything before must have closed what it opened. */
static const struct test_entry final_tests[] = {
	{ "no fd leaked", test_no_fd_leaked, false, false },
};

static void run_tests(const struct test_entry *tests, size_t n, bool valgrind)
{
	for (size_t i = 0; i < n; i++) {
		if (tests[i].root && geteuid() != 0)
			skip_test(tests[i].name, "needs root");
		else if (tests[i].in_process && valgrind)
			skip_test(tests[i].name, "valgrind cannot load seccomp filters");
		else
			run_test(tests[i].name, tests[i].fn);
	}
}

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
		_exit(spawn_child_main(argv[2]));
	if (argc == 4 && strcmp(argv[1], "--target") == 0)
		_exit(target_main(argv[2], argv[3]));
	if (!valgrind && (unotify_features_probe(&f) < 0 || !f.user_notif)) {
		printf("1..0 # SKIP seccomp user notification is not available on this kernel\n");
		return 0; /* TAP: the plan says skipped */
	}
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n < 0) {
		printf("1..0 # SKIP cannot find /proc/self/exe\n");
		return 0;
	}
	self_exe[n] = '\0';
	fds_at_start = count_fds();
	run_tests(lib_tests, ARRAY_SIZE(lib_tests), valgrind);
	run_test_write_reused_tid(valgrind);
	run_tests(spawn_tests, spawn_tests_count, valgrind);
	if (heap_replaced(valgrind))
		skip_test("spare: a block given at thread end is freed",
			  "mallinfo2 counts glibc's heap, which the sanitizer or valgrind replaces");
	else
		run_test("spare: a block given at thread end is freed", test_spare_thread_end);
	run_tests(final_tests, ARRAY_SIZE(final_tests), valgrind);
	printf("1..%d\n", test_count);
	return test_failures ? 1 : 0;
}
