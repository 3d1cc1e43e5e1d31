/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live tests of the opens performed on a target's behalf
 * (unotify_open_prepare / unotify_open_perform).
 *
 * Every case runs twice, each time in a fresh fixture and a fresh child set
 * up as the case says (user, groups, capabilities, cwd, chroot, umask,
 * dirfd): once natively, once under a filter that sends open, openat and
 * openat2 to us. We resolve and perform the call as the target and inject
 * the fd. The two outcomes must be the same (errno; the very file, or a new
 * file with the same owner and mode), and the resolved path and errno the
 * policy would see must be what the case expects.
 *
 * TAP-like output; exit 0 (all passed), 1 (a failure), 77 (not root, or no
 * seccomp user notification here; the reason is printed).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/openat2.h>

#include "test-open.h"
#include "unotify.h"
#include "util.h"

static int test_count, test_failures;

/* ---- The supervisor side ---- */

static int sup_how(unotify_listener *l, const struct seccomp_notif *req, char *path,
		   size_t size, struct unotify_open_how *how)
{
	const __u64 *a = req->data.args;
	int r;

	*how = (struct unotify_open_how){ .dirfd = (int)a[0], .flags = a[2], .mode = a[3] };
	if (req->data.nr == SYS_open)
		*how = (struct unotify_open_how){ .dirfd = AT_FDCWD, .flags = a[1], .mode = a[2] };
	r = unotify_mem_read_string(l, req, req->data.nr == SYS_open ? a[0] : a[1], path, size);
	if (r < 0)
		return r;
	how->path = path;
	if (req->data.nr == SYS_openat2) {
		struct open_how oh;

		r = unotify_mem_read(l, req, a[2], &oh, sizeof(oh));
		if (r < 0)
			return r;
		how->flags = oh.flags;
		how->mode = oh.mode;
		how->resolve = oh.resolve;
	}
	return 0;
}

/* The target's root, as unotify run and unotifyd pin the sandbox's when supervision starts. */
static int sup_pin_root(unotify_listener *l, pid_t pid)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int rootfd, r;

	if (pidfd < 0)
		return -errno;
	r = unotify_root_open(pidfd, &rootfd);
	close(pidfd);
	return r < 0 ? r : unotify_listener_set_root(l, rootfd);
}

/* Resolves, performs and answers one notification, as the daemon's enforcer does. */
static int sup_handle(const struct tcase *c, unotify_listener *l, struct seen *seen)
{
	const struct seccomp_notif *req;
	struct unotify_open_plan plan;
	struct unotify_open_how how;
	char path[4096];
	int r, fd;

	r = unotify_listener_recv(l, &req);
	if (r < 0)
		return r;
	if (c->pin_root && (r = sup_pin_root(l, (pid_t)req->pid)) < 0) {
		unotify_reply_errno(l, req->id, ENOSYS);
		return r;
	}
	r = sup_how(l, req, path, sizeof(path), &how);
	if (r < 0) {
		unotify_reply_errno(l, req->id, ENOSYS);
		return r;
	}
	r = unotify_open_prepare(l, req, &how, &plan);
	seen->prepare = r;
	if (r < 0) {
		/* Fail closed, as the enforcer does. */
		unotify_reply_errno(l, req->id, ENOSYS);
		return 0;
	}
	seen->called = true;
	snprintf(seen->path, sizeof(seen->path), "%s", plan.path);
	seen->plan_error = plan.error;
	seen->creates = plan.creates;
	seen->unnamed = plan.unnamed;
	fd = unotify_open_perform(&plan);
	seen->perform = fd;
	if (fd >= 0) {
		r = unotify_reply_addfd(l, req->id, fd, (how.flags & O_CLOEXEC) ? O_CLOEXEC : 0);
		close(fd);
	} else {
		r = unotify_reply_errno(l, req->id, -fd);
	}
	unotify_open_plan_release(&plan);
	return r < 0 ? r : 0;
}

static int sup_run(const struct tcase *c, int listener, struct seen *seen)
{
	unotify_listener *l;
	int r;

	r = unotify_listener_new(listener, &l);
	if (r < 0)
		return r;
	r = sup_handle(c, l, seen);
	unotify_listener_free(l);
	return r;
}

/* The supervisor as an ordinary user: a child drops root and every capability. */
static int sup_run_as(const struct tcase *c, uid_t uid, int listener, struct seen *seen)
{
	int pfd[2], status, r;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		r = 0;
		if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			r = -errno;
		if (r == 0)
			r = sup_run(c, listener, seen);
		else
			close(listener);
		seen->result = r;
		_exit(write(pfd[1], seen, sizeof(*seen)) == sizeof(*seen) ? 0 : 1);
	}
	close(listener);
	close(pfd[1]);
	r = read(pfd[0], seen, sizeof(*seen)) == sizeof(*seen) ? seen->result : -EPROTO;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	return r;
}

/* Runs the case in a child; supervised or not. */
int run_child(const struct tcase *c, bool supervised, struct report *rep, struct seen *seen)
{
	int sv[2], listener = -1, status;
	struct report first;
	pid_t pid;
	int r = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(sv[0]);
		child_main(c, sv[1], supervised);
	}
	close(sv[1]);
	if (recv_msg(sv[0], &first, sizeof(first), &listener) != sizeof(first))
		r = -EPROTO;
	else if (first.setup_error)
		r = -first.setup_error;
	if (r == 0 && supervised) {
		r = c->sup_uid ? sup_run_as(c, c->sup_uid, listener, seen)
			       : sup_run(c, listener, seen);
		listener = -1;
	}
	if (listener >= 0)
		close(listener);
	if (r == 0 && recv_msg(sv[0], rep, sizeof(*rep), NULL) != sizeof(*rep))
		r = -EPROTO;
	close(sv[0]);
	if (r < 0)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return r;
}

/* The target dies while we hold its notification: prepare says -ENOENT, nothing else. */
static bool test_gone(void)
{
	static const struct tcase c = { .name = "gone", .path = "@/allowed/a.txt" };
	const struct seccomp_notif *req;
	struct unotify_open_plan plan;
	struct unotify_open_how how = { .dirfd = AT_FDCWD, .path = "/etc/hostname" };
	struct report first;
	unotify_listener *l = NULL;
	int sv[2], listener = -1, status, r = -EPROTO;
	pid_t pid;

	fixture_reset();
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		child_main(&c, sv[1], true);
	}
	close(sv[1]);
	if (recv_msg(sv[0], &first, sizeof(first), &listener) == sizeof(first) &&
	    unotify_listener_new(listener, &l) == 0 && unotify_listener_recv(l, &req) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		pid = -1;
		r = unotify_open_prepare(l, req, &how, &plan);
		if (r == 0)
			unotify_open_plan_release(&plan);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	unotify_listener_free(l);
	close(sv[0]);
	if (r != -ENOENT)
		printf("#   gone: prepare returned %d, expected -ENOENT\n", r);
	return r == -ENOENT;
}

/* ---- The supervising thread must come back exactly as it was ---- */

struct thread_state {
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[64];
	mode_t umask;
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	struct stat root, cwd;
	int fds;
};

static void thread_state(struct thread_state *s)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	memset(s, 0, sizeof(*s));
	s->fsuid = (uid_t)syscall(SYS_setfsuid, -1);
	s->fsgid = (gid_t)syscall(SYS_setfsgid, -1);
	s->ngroups = getgroups(64, s->groups);
	s->umask = umask(0);
	umask(s->umask);
	syscall(SYS_capget, &h, s->caps);
	stat("/", &s->root);
	stat(".", &s->cwd);
	for (int fd = 0; fd < 1024; fd++)
		s->fds += fcntl(fd, F_GETFD) >= 0;
}

static bool thread_state_equal(const struct thread_state *a, const struct thread_state *b)
{
	return a->fsuid == b->fsuid && a->fsgid == b->fsgid && a->ngroups == b->ngroups &&
	       memcmp(a->groups, b->groups, sizeof(a->groups)) == 0 && a->umask == b->umask &&
	       memcmp(a->caps, b->caps, sizeof(a->caps)) == 0 &&
	       a->root.st_ino == b->root.st_ino && a->root.st_dev == b->root.st_dev &&
	       a->cwd.st_ino == b->cwd.st_ino && a->cwd.st_dev == b->cwd.st_dev &&
	       a->fds == b->fds;
}

static int skip(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return 0; /* TAP: the plan says skipped; a non-zero status would be an error */
}

int main(void)
{
	struct thread_state before, after;
	struct unotify_features f;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	supervisor_pid = getpid();
	if (geteuid() != 0)
		return skip("needs root (targets of other users, chroot)");
	if (unotify_features_probe(&f) < 0 || !f.user_notif || !f.addfd || !f.openat2)
		return skip("seccomp user notification with ADDFD and openat2 unavailable");
	if (unotify_thread_init() < 0)
		die("unotify_thread_init");
	snprintf(fixture, sizeof(fixture), "/tmp/unotify-test-open.XXXXXX");
	if (!mkdtemp(fixture))
		die("mkdtemp");
	alarm(300);
	umask(022);
	thread_state(&before);
	printf("1..%zu\n", cases_count + 2);
	for (i = 0; i < cases_count; i++) {
		bool ok = run_case_sysctl(&cases[i]);

		test_count++;
		test_failures += !ok;
		printf("%sok %d - %s%s%s\n", ok ? "" : "not ", test_count, cases[i].name,
		       skip_reason ? " # SKIP " : "", skip_reason ? skip_reason : "");
	}
	test_count++;
	if (test_gone()) {
		printf("ok %d - target gone: -ENOENT\n", test_count);
	} else {
		test_failures++;
		printf("not ok %d - target gone: -ENOENT\n", test_count);
	}
	thread_state(&after);
	test_count++;
	if (!thread_state_equal(&before, &after)) {
		test_failures++;
		printf("not ok %d - supervising thread restored, no fd leaked\n", test_count);
	} else {
		printf("ok %d - supervising thread restored, no fd leaked\n", test_count);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", fixture);
	}
	printf("# %d passed, %d failed\n", test_count - test_failures, test_failures);
	return test_failures ? 1 : 0;
}
