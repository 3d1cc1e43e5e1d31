/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * connect, bind and sendmsg performed for the target on its own socket
 * (pidfd_getfd), with the address the policy decided on.
 *
 * Why a helper process and not this thread acting as the target, as for
 * files: a socket call records or sends the caller's identity, and checks
 * the caller's capabilities, from credentials a thread acting as the
 * target does not take (its real uid, its pid). A unix stream peer's
 * SO_PEERCRED is the connecting task's pid, euid and egid; a datagram
 * carries its sender's pid, uid and gid (SCM_CREDENTIALS, NETLINK_CREDS);
 * netlink multicast, SO_MARK and IPV6_PKTINFO control messages are checked
 * against the caller's capabilities. Performed by the supervisor (root), a target running as
 * nobody would be seen as root: a privilege escalation. So the call runs in
 * a helper process that is the target (helper.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "emulate.h"
#include "helper.h"
#include "util.h"

enum net_kind {
	NET_CONNECT,
	NET_BIND,
	NET_SENDMSG,
};

struct net_op {
	enum net_kind kind;
	int sock;
	const void *addr;        /* connect, bind */
	socklen_t len;
	struct msghdr *msg;      /* sendmsg */
	int flags;
	int dirfd;               /* the helper's cwd for a relative unix path, or -1 */
	int keep_fd;             /* an fd the address names ("self/fd/N"), or -1 */
};

/* ---- In the helper (helper.c: it is the target) ---- */

/* SCM_CREDENTIALS was checked to name the target: the helper sends in its stead. */
HELPER_CHILD static void net_own_credentials(struct msghdr *msg)
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

HELPER_CHILD static long net_call(const struct net_op *op)
{
	switch (op->kind) {
	case NET_CONNECT:
		return helper_sys(syscall(SYS_connect, op->sock, op->addr, op->len));
	case NET_BIND:
		return helper_sys(syscall(SYS_bind, op->sock, op->addr, op->len));
	case NET_SENDMSG:
		net_own_credentials(op->msg);
		/* SIGPIPE is the target's to get, not ours (unotify_target_signal). */
		return helper_sys(syscall(SYS_sendmsg, op->sock, op->msg, op->flags | MSG_NOSIGNAL));
	}
	return -EINVAL;
}

#define NET_KEEP_MAX 512

/*
 * What the call uses stays (helper_close_others says why): the socket, the
 * file the address names, the descriptors SCM_RIGHTS carries.
 */
HELPER_CHILD static long net_close_others(const struct net_op *op)
{
	int keep[NET_KEEP_MAX];
	size_t n = 0;

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
	return helper_close_others(keep, n);
}

HELPER_CHILD static long net_helper(void *arg)
{
	const struct net_op *op = arg;
	long r = 0;

	if (op->dirfd >= 0)
		r = helper_sys(syscall(SYS_fchdir, op->dirfd));
	if (r == 0)
		r = net_close_others(op);
	if (r == 0)
		r = net_call(op);
	return r;
}

/* ---- In the supervisor ---- */

/* Runs op in the helper and returns its result (a count or -errno). */
static int net_run(unotify_target *t, struct net_op *op)
{
	struct helper_call call = {
		.run = net_helper, .arg = op,
		/* A bind does not wait; a connect may never be accepted. */
		.may_block = op->kind != NET_BIND,
	};

	return (int)helper_run(t, &call);
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
