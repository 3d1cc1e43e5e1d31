/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * connect, bind and sendmsg performed for the target on its own socket
 * (pidfd_getfd), with the address the policy decided on.
 *
 * Why a helper process and not this thread acting as the target, as for
 * files: a socket call records or sends the caller's identity, and checks
 * the caller's capabilities, from credentials that setfsuid() does not
 * touch. A unix stream peer's SO_PEERCRED is the connecting task's pid,
 * euid and egid; a datagram carries its sender's pid, uid and gid
 * (SCM_CREDENTIALS, NETLINK_CREDS); netlink multicast, SO_MARK and
 * IPV6_PKTINFO control messages are checked against the caller's
 * capabilities. Performed by the supervisor (root), a target running as
 * nobody would be seen as root: a privilege escalation. So the call runs in
 * a helper process with all of the target's ids, groups, capabilities and
 * umask. Its pid is its own (documented in unotify.h); nothing else differs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "emulate.h"
#include "util.h"

enum net_kind {
	NET_CONNECT,
	NET_BIND,
	NET_SENDMSG,
};

struct net_op {
	const struct target *target;
	long result;             /* written by the helper */
	enum net_kind kind;
	int sock;
	const void *addr;        /* connect, bind */
	socklen_t len;
	struct msghdr *msg;      /* sendmsg */
	int flags;
	int dirfd;               /* the helper's cwd for a relative unix path, or -1 */
	int keep_fd;             /* an fd the address names ("self/fd/N"), or -1 */
	bool groups_equal;       /* no setgroups needed (an unprivileged supervisor cannot) */
};

/*
 * ---- In the helper ----
 * clone(CLONE_VM | CLONE_VFORK), as posix_spawn does: no copy of our
 * address space (fork's cost grows with it), and we wait anyway. The child
 * shares our memory and our thread's TLS, with its own credentials: it
 * makes raw system calls only (no libc state, no interceptors), runs with
 * every signal blocked, writes its result into op and exits. Sanitizer
 * instrumentation is off in it: its stack is not one the runtime knows.
 */
#define NET_CHILD __attribute__((no_sanitize("address", "undefined", "thread")))
#define NET_STACK (64 * 1024)

/*
 * ThreadSanitizer intercepts clone() and runs its fork bookkeeping in the
 * child, which with CLONE_VM is in our own memory: the supervisor would then
 * believe it had forked and die at its next pthread_create. glibc's
 * __clone is the same function, not intercepted.
 */
#if defined(__SANITIZE_THREAD__)
int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
#define NET_CLONE __clone
#else
#define NET_CLONE clone
#endif

NET_CHILD static long net_sys(long r)
{
	return r < 0 ? -(long)errno : r;
}

NET_CHILD static long net_capset(const struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return net_sys(syscall(SYS_capset, &h, data));
}

/* Sets the target's capabilities (within ours); eff_all: our whole permitted set for now. */
NET_CHILD static long net_set_caps(const struct target *t,
				   const struct __user_cap_data_struct *ours, bool eff_all)
{
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];

	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		uint32_t prm = (uint32_t)(t->cap_prm >> (32 * i)) & ours[i].permitted;
		uint32_t eff = (uint32_t)(t->cap_eff >> (32 * i)) & ours[i].permitted;

		caps[i].permitted = eff_all ? ours[i].permitted : prm | eff;
		caps[i].effective = eff_all ? ours[i].permitted : eff;
		caps[i].inheritable = 0;
	}
	return net_capset(caps);
}

NET_CHILD static long net_set_ids(const struct target *t, const struct net_op *op)
{
	long r = 0;

	if (!op->groups_equal)
		r = net_sys(syscall(SYS_setgroups, t->ngroups, t->groups));
	if (r == 0)
		r = net_sys(syscall(SYS_setresgid, t->gid, t->egid, t->sgid));
	/* Keep the permitted set across setresuid, to set the fs ids and the target's caps. */
	if (r == 0)
		r = net_sys(syscall(SYS_prctl, PR_SET_KEEPCAPS, 1, 0, 0, 0));
	if (r == 0)
		r = net_sys(syscall(SYS_setresuid, t->uid, t->euid, t->suid));
	return r;
}

NET_CHILD static long net_become(const struct target *t, const struct net_op *op)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct ours[_LINUX_CAPABILITY_U32S_3];
	long r = net_sys(syscall(SYS_capget, &h, ours));

	if (r == 0)
		r = net_sys(syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0));
	if (r == 0)
		r = net_set_ids(t, op);
	if (r == 0)
		r = net_set_caps(t, ours, true);
	if (r < 0)
		return r;
	syscall(SYS_setfsgid, t->fsgid);
	syscall(SYS_setfsuid, t->fsuid);
	if ((gid_t)syscall(SYS_setfsgid, (gid_t)-1) != t->fsgid ||
	    (uid_t)syscall(SYS_setfsuid, (uid_t)-1) != t->fsuid)
		return -EPERM;
	r = net_set_caps(t, ours, false);
	syscall(SYS_umask, t->umask);
	return r;
}

/* SCM_CREDENTIALS was checked to name the target: the helper sends in its stead. */
NET_CHILD static void net_own_credentials(struct msghdr *msg)
{
	char *p = msg->msg_control, *end = p + msg->msg_controllen;

	/* The header walk was checked by net_control(); CMSG_NXTHDR would call into libc. */
	while (p && p + sizeof(struct cmsghdr) <= end) {
		struct cmsghdr *c = (struct cmsghdr *)p;

		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred *u = (struct ucred *)CMSG_DATA(c);

			u->pid = (pid_t)syscall(SYS_getpid);
		}
		p += CMSG_ALIGN(c->cmsg_len);
	}
}

NET_CHILD static long net_call(const struct net_op *op)
{
	switch (op->kind) {
	case NET_CONNECT:
		return net_sys(syscall(SYS_connect, op->sock, op->addr, op->len));
	case NET_BIND:
		return net_sys(syscall(SYS_bind, op->sock, op->addr, op->len));
	case NET_SENDMSG:
		net_own_credentials(op->msg);
		/* SIGPIPE is the target's to get, not ours (unotify_target_signal). */
		return net_sys(syscall(SYS_sendmsg, op->sock, op->msg, op->flags | MSG_NOSIGNAL));
	}
	return -EINVAL;
}

#define NET_KEEP_MAX 512

/*
 * The program can be handed a pidfd of this process (SCM_PIDFD of the
 * sendmsg it performs, SO_PEERPIDFD of the connect) and take its
 * descriptors with pidfd_getfd: our table is a copy of the supervisor's
 * (the listener among them). Only what the call uses stays: the socket,
 * the file the address names, the descriptors SCM_RIGHTS carries.
 */
NET_CHILD static long net_close_others(const struct net_op *op)
{
	int keep[NET_KEEP_MAX];
	size_t n = 0;
	unsigned int from = 0;

	keep[n++] = op->sock;
	if (op->keep_fd >= 0)
		keep[n++] = op->keep_fd;
	if (op->kind == NET_SENDMSG && op->msg->msg_control) {
		char *p = op->msg->msg_control, *end = p + op->msg->msg_controllen;

		while (p + sizeof(struct cmsghdr) <= end) {
			struct cmsghdr *c = (struct cmsghdr *)p;
			size_t len = c->cmsg_len < CMSG_LEN(0) ? 0 : c->cmsg_len - CMSG_LEN(0);

			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				for (size_t i = 0; i + sizeof(int) <= len; i += sizeof(int)) {
					if (n == NET_KEEP_MAX)
						return -EMFILE;
					memcpy(&keep[n++], CMSG_DATA(c) + i, sizeof(int));
				}
			p += CMSG_ALIGN(c->cmsg_len);
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < from)
			continue;
		if ((unsigned int)keep[i] > from &&
		    syscall(SYS_close_range, from, (unsigned int)keep[i] - 1, 0) < 0)
			return -errno;
		from = (unsigned int)keep[i] + 1;
	}
	return net_sys(syscall(SYS_close_range, from, ~0U, 0));
}

NET_CHILD static int net_helper(void *arg)
{
	struct net_op *op = arg;
	long r = net_become(op->target, op);

	if (r == 0 && op->dirfd >= 0)
		r = net_sys(syscall(SYS_fchdir, op->dirfd));
	if (r == 0)
		r = net_close_others(op);
	if (r == 0)
		r = net_call(op);
	op->result = r;
	syscall(SYS_exit, 0);
	return 0;
}

/* ---- In the supervisor ---- */

static bool net_groups_equal(const struct target *t)
{
	_cleanup_free_ gid_t *ours = NULL;
	int n = getgroups(0, NULL);

	if (n < 0 || (size_t)n != t->ngroups)
		return false;
	ours = calloc((size_t)n + 1, sizeof(gid_t));
	if (!ours || getgroups(n, ours) != n)
		return false;
	return n == 0 || memcmp(ours, t->groups, (size_t)n * sizeof(gid_t)) == 0;
}

/* Runs op in the helper and returns its result (a count or -errno). */
static int net_run(unotify_target *t, struct net_op *op)
{
	sigset_t all, saved;
	void *stack;
	int status;
	pid_t pid;

	op->target = &t->t;
	op->groups_equal = net_groups_equal(&t->t);
	op->result = -EIO; /* the helper died before it could say: the call may not have happened */
	stack = mmap(NULL, NET_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return negative_errno();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	/*
	 * CLONE_PARENT_SETTID: the helper's pid is known (to a supervising
	 * pool, which kills it if the call goes away) while clone still waits
	 * for it: a connect that is never accepted would otherwise hold us.
	 */
	if (op->kind != NET_BIND)
		pool_may_block();
	pid = NET_CLONE(net_helper, (char *)stack + NET_STACK,
			CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | SIGCHLD, op,
			pool_helper_slot());
	pool_helper_done();
	if (pid < 0)
		op->result = negative_errno();
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	/* CLONE_VFORK: the helper has exited by now; reap it. */
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	munmap(stack, NET_STACK);
	return (int)op->result;
}

/* An AF_UNIX address naming a file we hold: "self/fd/N" from our /proc. */
static socklen_t net_unix_fd_addr(int fd, struct sockaddr_un *ret)
{
	char link[64];

	emulate_fd_link(fd, link, sizeof(link));
	memset(ret, 0, sizeof(*ret));
	ret->sun_family = AF_UNIX;
	strcpy(ret->sun_path, link);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(link) + 1);
}

int unotify_net_connect(unotify_target *t, int sock, const void *addr, size_t len,
			const struct unotify_path *unix_path)
{
	struct net_op op = { .kind = NET_CONNECT, .sock = sock, .addr = addr,
			     .len = (socklen_t)len, .dirfd = -1, .keep_fd = -1 };
	struct sockaddr_un sun;

	if (!t || !addr || len > sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (unix_path) {
		/* The socket file as resolved: the kernel follows the magic link to it. */
		if (unix_path->error)
			return -unix_path->error;
		op.len = net_unix_fd_addr(unix_path->fd, &sun);
		op.addr = &sun;
		op.dirfd = target_proc_fd();
		op.keep_fd = unix_path->fd;
	}
	return net_run(t, &op);
}

/* Does the target's AF_UNIX address spell exactly the name we bind in the parent? */
static bool net_unix_same_name(const void *addr, size_t len, const char *name)
{
	const struct sockaddr_un *given = addr;
	size_t max;

	if (len <= offsetof(struct sockaddr_un, sun_path))
		return false;
	max = len - offsetof(struct sockaddr_un, sun_path);
	return strnlen(given->sun_path, max) == strlen(name) &&
	       strncmp(given->sun_path, name, max) == 0;
}

int unotify_net_bind(unotify_target *t, int sock, const void *addr, size_t len,
		     const struct unotify_path *unix_path)
{
	struct net_op op = { .kind = NET_BIND, .sock = sock, .addr = addr,
			     .len = (socklen_t)len, .dirfd = -1, .keep_fd = -1 };
	struct sockaddr_un sun;

	if (!t || !addr || len > sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (unix_path) {
		/* Created by name in the pinned parent; the exact address when it is that name. */
		if (unix_path->error)
			return -unix_path->error;
		if (!net_unix_same_name(addr, len, unix_path->name)) {
			size_t n = strlen(unix_path->name);

			/* Never longer than the address it comes from. */
			if (n >= sizeof(sun.sun_path))
				return -EINVAL;
			memset(&sun, 0, sizeof(sun));
			sun.sun_family = AF_UNIX;
			memcpy(sun.sun_path, unix_path->name, n);
			op.addr = &sun;
			op.len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
		}
		op.dirfd = unix_path->fd;
	}
	return net_run(t, &op);
}

/* ---- sendmsg's control messages ---- */

/* The fds taken from the target for SCM_RIGHTS, closed after the call. */
struct net_taken {
	int *fds;
	size_t n;
};

static void net_taken_close(struct net_taken *k)
{
	for (size_t i = 0; i < k->n; i++)
		k->fds[i] = safe_close(k->fds[i]);
	free(k->fds);
	k->fds = NULL;
	k->n = 0;
}

/* The kernel's CMSG_OK walk (__scm_send): a malformed header fails the call with EINVAL. */
static struct cmsghdr *net_cmsg_next(const struct msghdr *m, struct cmsghdr *c)
{
	char *end = (char *)m->msg_control + m->msg_controllen;
	char *p = c ? (char *)c + CMSG_ALIGN(c->cmsg_len) : (char *)m->msg_control;

	if (p + sizeof(struct cmsghdr) > end)
		return NULL;
	return (struct cmsghdr *)p;
}

static bool net_cmsg_ok(const struct msghdr *m, const struct cmsghdr *c)
{
	char *end = (char *)m->msg_control + m->msg_controllen;

	return c->cmsg_len >= sizeof(struct cmsghdr) &&
	       c->cmsg_len <= (size_t)(end - (const char *)c);
}

static int net_take_rights(unotify_target *t, struct cmsghdr *c, struct net_taken *k)
{
	size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	int *fds = (int *)CMSG_DATA(c);
	int *more;

	/*
	 * SCM_MAX_FD (253) descriptors in the whole message, as the kernel
	 * counts them (scm_fp_copy): every one is held here until the send
	 * returns, so a message the kernel would refuse must not make the
	 * supervisor take thousands first.
	 */
	if (n > 253 || k->n > 253 - n)
		return -EINVAL;
	more = realloc(k->fds, (k->n + n + 1) * sizeof(int));
	if (!more)
		return -ENOMEM;
	k->fds = more;
	for (size_t i = 0; i < n; i++) {
		int fd, ours;

		memcpy(&fd, fds + i, sizeof(fd));
		ours = unotify_target_getfd(t, fd);
		if (ours < 0)
			return ours;
		k->fds[k->n++] = ours;
		memcpy(fds + i, &ours, sizeof(ours));
	}
	return 0;
}

/* The credentials the target may send: its own (scm_check_creds, without forging). */
static int net_check_creds(const struct target *t, const struct cmsghdr *c)
{
	struct ucred u;

	if (c->cmsg_len != CMSG_LEN(sizeof(u)))
		return -EINVAL;
	memcpy(&u, CMSG_DATA(c), sizeof(u));
	if (!t->same_userns || u.pid != t->ns_tgid)
		return -EPERM;
	if (u.uid != t->uid && u.uid != t->euid && u.uid != t->suid)
		return -EPERM;
	if (u.gid != t->gid && u.gid != t->egid && u.gid != t->sgid)
		return -EPERM;
	return 0;
}

/* Rewrites m's control (our copy): the target's fds become ours. Others pass as they are. */
static int net_control(unotify_target *t, struct msghdr *m, struct net_taken *k)
{
	for (struct cmsghdr *c = net_cmsg_next(m, NULL); c; c = net_cmsg_next(m, c)) {
		int r = 0;

		if (!net_cmsg_ok(m, c))
			return -EINVAL;
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			r = net_take_rights(t, c, k);
		else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
			r = net_check_creds(&t->t, c);
		if (r < 0)
			return r;
	}
	return 0;
}

int unotify_net_sendmsg(unotify_target *t, int sock, const struct msghdr *msg, int flags,
			const struct unotify_path *unix_path)
{
	struct net_op op = { .kind = NET_SENDMSG, .sock = sock, .flags = flags, .dirfd = -1,
			     .keep_fd = -1 };
	_cleanup_free_ char *control = NULL;
	struct net_taken k = { 0 };
	struct sockaddr_un sun;
	struct msghdr m;
	int r;

	if (!t || !msg)
		return -EINVAL;
	/*
	 * With MSG_ZEROCOPY (on a socket with SO_ZEROCOPY) the kernel pins the
	 * pages of the data and reads them when it transmits, after the call
	 * returns: here those are the caller's copy, freed and reused by then,
	 * so the peer would get our memory. ENOBUFS is the kernel's own answer
	 * when it cannot send without copying; programs fall back to a copy.
	 */
	if (flags & MSG_ZEROCOPY)
		return -ENOBUFS;
	m = *msg;
	if (unix_path) {
		if (unix_path->error)
			return -unix_path->error;
		m.msg_namelen = net_unix_fd_addr(unix_path->fd, &sun);
		m.msg_name = &sun;
		op.dirfd = target_proc_fd();
		op.keep_fd = unix_path->fd;
	}
	if (m.msg_controllen > 0) {
		control = malloc(m.msg_controllen);
		if (!control)
			return -ENOMEM;
		memcpy(control, msg->msg_control, m.msg_controllen);
		m.msg_control = control;
		r = net_control(t, &m, &k);
		if (r < 0) {
			net_taken_close(&k);
			return r;
		}
	}
	op.msg = &m;
	r = net_run(t, &op);
	net_taken_close(&k);
	return r;
}
