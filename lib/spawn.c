/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Spawning a supervised program.
 *
 * Once its filter is loaded, every call of the child goes through it, and the
 * policy may deny or notify write, sendmsg or execve. So the child hands over
 * nothing itself: it tells the parent (before the filter) the lowest free fd
 * number, which is where NEW_LISTENER puts the listener; the parent takes it
 * with pidfd_getfd(2). The child then waits in the gate call (gate.c), which
 * reaches the listener whatever the policy says, until the parent has the
 * listener and answers; only then does it exec.
 *
 * Everything that may allocate or take locks (PATH search, NSS lookups,
 * parsing) happens in the parent before fork.
 *
 * Unless share_pid, the child is pid 1 of a pid namespace of its own,
 * which forks the program's process and stays as its init (spawn-ns.c).
 * The program's process sends its own pidfd first (we know neither its
 * number nor its process otherwise), then the fd number; we pin its root
 * before it may run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "internal.h"
#include "uapi.h"
#include "util.h"

extern char **environ;

/* How long the child may take from its report to a loaded filter. */
#define SPAWN_TIMEOUT_NS  (5 * 1000000000L)
#define SPAWN_DELAY_MIN_NS 50000L
#define SPAWN_DELAY_MAX_NS 1000000L

#define SPAWN_EXIT_SETUP 125 /* the child failed before exec (env(1) convention) */

struct spawn_plan {
	const struct unotify_spawn_attr *attr;
	char *path;             /* the program, found as execvp(3) would */
	bool set_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int n_groups;
	bool set_caps;          /* drop_caps or keep_caps */
	uint64_t keep;          /* capabilities kept (none with drop_caps) */
	bool dumpable;          /* we lack CAP_SYS_PTRACE over it: the child must be dumpable */
	struct sock_fprog prog; /* the gate, then attr->filter */
	unsigned long flags;    /* seccomp(2) flags */
	int status[2];          /* socketpair: [0] the parent's end, [1] the child's */
	int ready[2];           /* pipe: EOF once the sandbox's init is confined (not share_pid) */
};

/* As execve(2) will judge it: 0, -EACCES (not an executable file) or stat's -errno. */
static int spawn_check_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

/* PATH search like execvp(3): -EACCES if only unexecutable candidates were found. */
static int spawn_find_program(const char *name, char **ret)
{
	const char *dirs = getenv("PATH") ?: "/bin:/usr/bin";
	int r = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		r = spawn_check_file(name);
		*ret = r < 0 ? NULL : strdup(name);
		return r < 0 ? r : *ret ? 0 : -ENOMEM;
	}
	for (const char *p = dirs;;) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p), k;
		_cleanup_free_ char *full = NULL;

		if (asprintf(&full, "%.*s%s%s", len, p, len ? "/" : "./", name) < 0)
			return -ENOMEM;
		k = spawn_check_file(full);
		if (k == 0) {
			*ret = steal_pointer(&full);
			return 0;
		}
		if (k == -EACCES)
			r = -EACCES;
		if (!*end)
			return r;
		p = end + 1;
	}
}

static int spawn_lookup_groups(const char *name, gid_t gid, struct spawn_plan *p)
{
	int n = 32;

	for (;;) {
		gid_t *g = reallocarray(p->groups, (size_t)n, sizeof(gid_t));
		int want = n;

		if (!g)
			return -ENOMEM;
		p->groups = g;
		if (getgrouplist(name, gid, g, &want) >= 0) {
			p->n_groups = want;
			return 0;
		}
		if (n >= 65536)
			return -E2BIG;
		n = want > n ? want : 2 * n;
	}
}

/* A user name or uid, looked up in the parent (NSS after fork is unsafe). -ESRCH: unknown. */
static int spawn_lookup_user(const char *user, struct spawn_plan *p)
{
	_cleanup_free_ char *buf = NULL;
	struct passwd pw, *found = NULL;
	char *end = NULL;
	unsigned long uid = strtoul(user, &end, 10);
	bool numeric = *user >= '0' && *user <= '9' && !*end && uid < UINT32_MAX;
	size_t size = 1024;
	int r;

	for (;;) {
		buf = malloc(size);
		if (!buf)
			return -ENOMEM;
		r = numeric ? getpwuid_r((uid_t)uid, &pw, buf, size, &found)
			    : getpwnam_r(user, &pw, buf, size, &found);
		if (r != ERANGE || size >= 1 << 20)
			break;
		free(steal_pointer(&buf));
		size *= 2;
	}
	if (r > 0)
		return -r;
	if (!found)
		return -ESRCH;
	p->set_user = true;
	p->uid = pw.pw_uid;
	p->gid = pw.pw_gid;
	return spawn_lookup_groups(pw.pw_name, pw.pw_gid, p);
}

/*
 * May we take a non-dumpable child's fds? That needs CAP_SYS_PTRACE over
 * the user namespace its memory belongs to: the one we exec'd in. We know
 * it is ours only in the initial one (whose inode number is fixed); after
 * unshare(CLONE_NEWUSER) (unotify run without root) it is not.
 */
#define SPAWN_INIT_USERNS_INO 0xEFFFFFFDU

static bool spawn_have_ptrace(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	struct stat st;

	if (stat("/proc/self/ns/user", &st) < 0 || st.st_ino != SPAWN_INIT_USERNS_INO)
		return false;
	return syscall(SYS_capget, &h, d) == 0 && (d[0].effective & (1U << CAP_SYS_PTRACE));
}

static int spawn_plan_new(const struct unotify_spawn_attr *attr, struct spawn_plan *p)
{
	const struct unotify_features *f = features_cached();
	int r;

	if (!attr->path || !attr->argv || !attr->argv[0] || !attr->filter)
		return -EINVAL;
	if ((attr->drop_caps && attr->keep_caps) ||
	    (attr->pin_cpu && (attr->cpu < 0 || attr->cpu >= CPU_SETSIZE)))
		return -EINVAL;
	if (f && !f->user_notif)
		return -EOPNOTSUPP;
	r = spawn_find_program(attr->path, &p->path);
	if (r < 0)
		return r;
	if (attr->user && (r = spawn_lookup_user(attr->user, p)) < 0)
		return r;
	if (attr->keep_caps && (r = caps_parse(attr->keep_caps, &p->keep)) < 0)
		return r;
	p->set_caps = attr->drop_caps || attr->keep_caps;
	r = gate_prepend(attr->filter, &p->prog);
	if (r < 0)
		return r;
	p->flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	if (f && f->wait_killable_recv)
		p->flags |= SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
	if (!attr->share_pid) {
		static const int inherited[3] = { -1, -1, -1 };

		r = spawn_ns_check_fds(attr->redirect_stdio ? attr->stdio_fds : inherited);
		if (r < 0)
			return r;
	}
	p->dumpable = !spawn_have_ptrace();
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->status) < 0)
		return negative_errno();
	if (!attr->share_pid && pipe2(p->ready, O_CLOEXEC) < 0)
		return negative_errno();
	return 0;
}

static void spawn_plan_free(struct spawn_plan *p)
{
	free(p->path);
	free(p->groups);
	free(p->prog.filter);
	closep(&p->status[0]);
	closep(&p->status[1]);
	closep(&p->ready[0]);
	closep(&p->ready[1]);
}

/*
 * ---- In the child, until execve: no NSS, no stdio, no locks; malloc only
 * inside libcap (glibc's fork() leaves malloc usable in the child) ----
 */

static int spawn_child_stdio(const int fds[3])
{
	int tmp[3] = { -1, -1, -1 };

	/* Moved out of the way first, so that {1, 0, -1} swaps instead of clobbering. */
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (tmp[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)) < 0)
			return negative_errno();
	for (int i = 0; i < 3; i++)
		if (tmp[i] >= 0) {
			if (dup2(tmp[i], i) < 0)
				return negative_errno();
			tmp[i] = safe_close(tmp[i]);
		}
	return 0;
}

/* The parent's handlers must not run in the child (think of a self-pipe). */
static int spawn_child_signals(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) < 0 || sa.sa_handler == SIG_IGN ||
		    sa.sa_handler == SIG_DFL)
			continue;
		if (sigaction(sig, &dfl, NULL) < 0)
			return negative_errno();
	}
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL) < 0 ? negative_errno() : 0;
}

static int spawn_child_user(const struct spawn_plan *p)
{
	bool keep = p->set_caps && p->keep;

	if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return negative_errno();
	if (setgroups((size_t)p->n_groups, p->groups) < 0 || setresgid(p->gid, p->gid, p->gid) < 0 ||
	    setresuid(p->uid, p->uid, p->uid) < 0)
		return negative_errno();
	if (keep && prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return negative_errno();
	return 0;
}

static int spawn_child_prepare(const struct spawn_plan *p)
{
	const struct unotify_spawn_attr *a = p->attr;
	int r;

	if ((a->redirect_stdio && (r = spawn_child_stdio(a->stdio_fds)) < 0) ||
	    (r = spawn_child_signals()) < 0)
		return r;
	if (a->pin_cpu) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(a->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			return negative_errno();
	}
	if (a->no_core_dumps && setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 }) < 0)
		return negative_errno();
	/* The bounding set needs CAP_SETPCAP: before giving up root. */
	if (p->set_caps && (r = caps_limit_bounding(p->keep)) < 0)
		return r;
	/* Bound as the spawner (who checked the rules), in the sandbox's root. */
	if (a->landlock && (r = landlock_apply(a->landlock)) < 0)
		return r;
	if (p->set_user && (r = spawn_child_user(p)) < 0)
		return r;
	if (p->set_caps && (r = caps_set_inheritable(p->keep)) < 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return negative_errno();
	/*
	 * We made ourselves non-dumpable, and so this copy of us. Without
	 * CAP_SYS_PTRACE we could then neither take its listener nor pin its
	 * root: until exec (which decides anew), it is dumpable again.
	 */
	if (p->dumpable && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return negative_errno();
	return 0;
}

static _Noreturn void spawn_child_fail(int fd, int r)
{
	(void)!write(fd, &r, sizeof(r));
	_exit(SPAWN_EXIT_SETUP);
}

/* 0 and our own pidfd (SCM_RIGHTS): how the parent finds this process, in any pid namespace. */
static int spawn_child_send_pidfd(int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	int zero = 0;
	struct iovec iov = { .iov_base = &zero, .iov_len = sizeof(zero) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)syscall(SYS_getpid), 0);
	ssize_t n;

	if (pidfd < 0)
		return negative_errno();
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pidfd, sizeof(int));
	n = sendmsg(fd, &msg, MSG_NOSIGNAL);
	pidfd = safe_close(pidfd);
	return n == sizeof(zero) ? 0 : n < 0 ? negative_errno() : -EIO;
}

static _Noreturn void spawn_child(const struct spawn_plan *p)
{
	int fd = p->status[1], lowest, r;
	long listener;

	/* Here pid 1 of a new namespace: we go on as the program's process, it stays as init. */
	if (!p->attr->share_pid) {
		struct spawn_init in = { .exe = p->attr->init_exe, .ready = p->ready[1],
					 .set_user = p->set_user, .uid = p->uid, .gid = p->gid };

		r = spawn_init_start(&in);
		if (r < 0)
			spawn_child_fail(fd, r);
		/* The program's process: the init alone keeps the readiness pipe. */
		(void)safe_close(p->ready[0]);
		(void)safe_close(p->ready[1]);
	}
	/*
	 * Sent while we are still the spawner's user: a process of the
	 * program's uid with more descriptors in flight than our
	 * RLIMIT_NOFILE would otherwise make the send fail (ETOOMANYREFS)
	 * and the sandbox never start. A setup failure after it is our next
	 * word, in place of the fd number.
	 */
	r = spawn_child_send_pidfd(fd);
	if (r < 0)
		spawn_child_fail(fd, r);
	r = spawn_child_prepare(p);
	if (r < 0)
		spawn_child_fail(fd, r);
	lowest = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (lowest < 0)
		spawn_child_fail(fd, negative_errno());
	/* Only the number matters: it is free again for NEW_LISTENER. */
	(void)safe_close(lowest);
	if (write(fd, &lowest, sizeof(lowest)) != sizeof(lowest))
		_exit(SPAWN_EXIT_SETUP);
	/* From here on the policy applies: the parent may never hear of a failure. */
	listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, p->flags, &p->prog);
	if (listener != lowest)
		spawn_child_fail(fd, listener < 0 ? negative_errno() : -EPROTO);
	/* Anything but the supervisor's 0 (ENOSYS: it is gone): never run unsupervised. */
	if (syscall(SYS_ioctl, (long)UNOTIFY_GATE_IOCTL_FD, UNOTIFY_GATE_IOCTL_CMD, 0L) != 0)
		_exit(SPAWN_EXIT_SETUP);
	execve(p->path, p->attr->argv, p->attr->envp ? p->attr->envp : environ);
	r = errno;
	(void)!write(fd, &r, sizeof(r));
	_exit(r == ENOENT ? 127 : 126);
}

static _Noreturn void spawn_child_entry(const void *p)
{
	spawn_child(p);
}

/* ---- In the parent ---- */

/* fork with every signal blocked, so that no handler of ours runs in the child. */
static int spawn_fork(const struct spawn_plan *p, pid_t *ret)
{
	sigset_t all, old;
	pid_t pid;
	int saved;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (p->attr->share_pid) {
		pid = fork();
		saved = errno;
		if (pid == 0)
			spawn_child(p);
	} else {
		saved = -spawn_ns_fork(spawn_child_entry, p, &pid);
		if (saved)
			pid = -1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return -saved;
	*ret = pid;
	return 0;
}

/* One int from the child (blocking). -ECHILD: it died without a word. */
static int spawn_read_status(int fd, int *ret)
{
	ssize_t n;
	int v;

	do
		n = recv(fd, &v, sizeof(v), MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	if (n != sizeof(v))
		return -ECHILD;
	*ret = v;
	return 0;
}

/* Sleeps up to delay; an error when the child reported one or is gone. */
static int spawn_wait_child(int pidfd, int status, long delay_ns)
{
	struct pollfd p[2] = { { .fd = status, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
	struct timespec ts = { .tv_sec = 0, .tv_nsec = delay_ns };
	int r, v;

	r = ppoll(p, 2, &ts, NULL);
	if (r < 0 && errno != EINTR)
		return negative_errno();
	if (r <= 0)
		return 0;
	if (p[0].revents) {
		r = spawn_read_status(status, &v);
		return r < 0 ? r : v < 0 ? v : -EPROTO;
	}
	return -ECHILD;
}

static int spawn_check_listener(int fd, int *ret)
{
	_cleanup_close_ int owned = fd;
	char link[64], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return negative_errno();
	target[n] = '\0';
	if (strcmp(target, "anon_inode:seccomp notify") != 0)
		return -EPROTO;
	*ret = TAKE_FD(owned);
	return 0;
}

/* pidfd_getfd until the filter is loaded (EBADF before), without spinning. */
static int spawn_take_listener(int pidfd, int status, int lowest, int *ret)
{
	long delay = SPAWN_DELAY_MIN_NS, waited = 0;
	int fd, r;

	for (;;) {
		fd = (int)syscall(SYS_pidfd_getfd, pidfd, lowest, 0);
		if (fd >= 0)
			return spawn_check_listener(fd, ret);
		r = negative_errno();
		if (r != -EBADF) {
			int why = spawn_wait_child(pidfd, status, 0);
			return why < 0 ? why : r;
		}
		if (waited >= SPAWN_TIMEOUT_NS)
			return -ETIMEDOUT;
		r = spawn_wait_child(pidfd, status, delay);
		if (r < 0)
			return r;
		waited += delay;
		delay = delay * 2 > SPAWN_DELAY_MAX_NS ? SPAWN_DELAY_MAX_NS : delay * 2;
	}
}

/* Answers the child's gate call; returns the listener fd (consumed either way). */
static int spawn_open_gate(int fd)
{
	const struct seccomp_notif *req;
	unotify_listener *l;
	int r;

	r = unotify_listener_new(fd, &l);
	if (r < 0)
		return r;
	for (;;) {
		r = unotify_listener_recv(l, &req);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			break;
		if (!unotify_is_gate(req)) {
			unotify_reply_errno(l, req->id, ENOSYS);
			continue;
		}
		/* ENOENT: a signal interrupted the gate call; the child makes it again. */
		r = unotify_reply_value(l, req->id, 0);
		if (r != -ENOENT)
			break;
	}
	if (r < 0) {
		unotify_listener_free(l);
		return r == -EPIPE ? -ECHILD : r;
	}
	return listener_release_fd(l);
}

/* The program's process's first word: 0 with its pidfd, or why its setup failed. */
static int spawn_read_pidfd(int fd, int *ret)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	int v = 0, got = -1;
	struct iovec iov = { .iov_base = &v, .iov_len = sizeof(v) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *c;
	ssize_t n;

	do
		n = recvmsg(fd, &msg, MSG_WAITALL | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	c = CMSG_FIRSTHDR(&msg);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&got, CMSG_DATA(c), sizeof(int));
	if (n != sizeof(v) || v != 0 || got < 0) {
		got = safe_close(got);
		return n != sizeof(v) ? -ECHILD : v < 0 ? v : -EPROTO;
	}
	*ret = got;
	return 0;
}

/*
 * The sandbox's init closes its end of the pipe once under its own filter
 * (after its exec, with init_exe): only then may the program run. EOF, or
 * the init's death, or the spawn timeout.
 */
static int spawn_wait_init(int ready, int initfd)
{
	struct pollfd fds[2] = { { .fd = ready, .events = POLLIN }, { .fd = initfd, .events = POLLIN } };
	char byte;
	int n;

	do
		n = poll(fds, 2, (int)(SPAWN_TIMEOUT_NS / 1000000));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	if (n == 0)
		return -ETIMEDOUT;
	if (!(fds[0].revents & (POLLIN | POLLHUP)))
		return -ECHILD; /* the init died first */
	return read(ready, &byte, 1) == 0 ? 0 : -EPROTO;
}

static int spawn_handshake(struct unotify_child *c, int ready)
{
	bool isolated = ready >= 0;

	_cleanup_close_ int program = -1;
	int lowest, fd, r;

	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	if (c->pidfd < 0)
		return negative_errno();
	/* The program's process group has the terminal (if we had it) until it is done. */
	if (isolated && (r = spawn_tty_give(c->pid, &c->tty_fd)) < 0)
		return r;
	r = spawn_read_pidfd(c->exec_status_fd, &program);
	if (r < 0)
		return r;
	r = spawn_read_status(c->exec_status_fd, &lowest);
	if (r < 0)
		return r;
	if (lowest < 0)
		return lowest;
	r = spawn_take_listener(program, c->exec_status_fd, lowest, &fd);
	if (r < 0)
		return r;
	/* Pinned while the program waits at the gate: names are relative to this root. */
	r = unotify_root_open(program, &c->root_fd);
	if (r == 0 && isolated)
		r = spawn_wait_init(ready, c->pidfd);
	if (r < 0) {
		fd = safe_close(fd);
		return r;
	}
	r = spawn_open_gate(fd);
	if (r < 0)
		return r;
	c->listener_fd = r;
	return 0;
}

static void spawn_abort(struct unotify_child *c)
{
	if (c->pid > 0) {
		if (c->pidfd < 0 || syscall(SYS_pidfd_send_signal, c->pidfd, SIGKILL, NULL, 0) < 0)
			kill(c->pid, SIGKILL); /* still our unreaped child: the pid is ours */
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	unotify_child_close(c);
}

int unotify_spawn(const struct unotify_spawn_attr *attr, struct unotify_child *ret)
{
	struct spawn_plan p = { .attr = attr, .status = { -1, -1 }, .ready = { -1, -1 } };
	struct unotify_child c = UNOTIFY_CHILD_INIT;
	int r;

	if (!attr)
		return -EINVAL;
	/* Not dumpable from here on: nobody of our uid may trace us or take our listener. */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	r = spawn_plan_new(attr, &p);
	if (r == 0)
		r = spawn_fork(&p, &c.pid);
	if (r == 0) {
		closep(&p.status[1]);
		closep(&p.ready[1]);
		c.exec_status_fd = TAKE_FD(p.status[0]);
		r = spawn_handshake(&c, p.ready[0]);
	}
	spawn_plan_free(&p);
	if (r < 0) {
		spawn_abort(&c);
		return r;
	}
	*ret = c;
	return 0;
}

/*
 * Never blocks: -EAGAIN while the child has neither exec'd nor exited (it may
 * be waiting for the supervisor to answer its execve). Reliable once
 * unotify_child_wait() or unotify_supervise() has returned. Peeks, so it can
 * be asked again.
 */
int unotify_child_exec_result(struct unotify_child *c)
{
	ssize_t n;
	int err;

	n = recv(c->exec_status_fd, &err, sizeof(err), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0)
		return negative_errno();
	if (n == 0)
		return 0;
	return n == sizeof(err) ? err : -EAGAIN;
}

int unotify_child_wait(struct unotify_child *c)
{
	siginfo_t si = { 0 };

	while (waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &si, WEXITED) < 0)
		if (errno != EINTR)
			return negative_errno();
	spawn_tty_take_back(&c->tty_fd);
	switch (si.si_code) {
	case CLD_EXITED:
		return si.si_status;
	case CLD_KILLED:
	case CLD_DUMPED:
		return 128 + si.si_status;
	}
	return -EIO;
}

int unotify_child_listener(struct unotify_child *c, unotify_listener **ret)
{
	_cleanup_close_ int root = TAKE_FD(c->root_fd);
	unotify_listener *l;
	int r;

	if (c->listener_fd < 0)
		return -EBADF;
	/* Taken whatever happens: unotify_listener_new() closes it when it fails. */
	r = unotify_listener_new(TAKE_FD(c->listener_fd), &l);
	if (r < 0)
		return r;
	/* Names relative to the root the program had before it ran (spawn pinned it). */
	if (root >= 0 && (r = unotify_listener_set_root(l, TAKE_FD(root))) < 0) {
		unotify_listener_free(l);
		return r;
	}
	*ret = l;
	return 0;
}

void unotify_child_close(struct unotify_child *c)
{
	spawn_tty_take_back(&c->tty_fd);
	closep(&c->pidfd);
	/* A number unotify_listener_new() took over is the listener's to close, not ours. */
	if (listener_owns(c->listener_fd))
		c->listener_fd = -1;
	closep(&c->listener_fd);
	closep(&c->exec_status_fd);
	closep(&c->root_fd);
}
