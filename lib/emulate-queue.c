/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A POSIX message queue created by name on an mqueue mount, for the
 * target: by a helper process that is the target (helper.c), since the
 * kernel charges the queue to its creator's real uid and checks it against
 * its RLIMIT_MSGQUEUE, and the thread acting as the target keeps ours.
 *
 * The charge is to that uid in the creator's user namespace, and up the
 * chain of its parents, each checked against the limit the namespace's
 * creator had. The helper stays in ours (joining the target's needs
 * CAP_SYS_ADMIN, which unotifyd does not keep): for a target in another
 * user namespace the queue would count as a host uid's, each uid a
 * container maps with a quota of its own. Even from one the target's uid
 * made, where the charge in ours is the kernel's, the queue would not
 * count in the target's namespace, whose mq_open would then find a fresh
 * quota. So the create is refused (EACCES), as other performed calls
 * bound to a namespace are.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helper.h"
#include "uapi.h"
#include "util.h"

/* The mqueue file system's f_type (ipc/mqueue.c; no uapi header has it). */
#define MQUEUE_MAGIC 0x19800202

bool emulate_is_queue_dir(int dirfd)
{
	struct statfs sf;

	return fstatfs(dirfd, &sf) == 0 && sf.f_type == MQUEUE_MAGIC;
}

/* Sends fd over sock (SCM_RIGHTS): 0 or -errno. */
HELPER_CHILD static long queue_send_fd(int sock, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control = { 0 };
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	__builtin_memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return helper_sys(syscall(SYS_sendmsg, sock, &msg, MSG_NOSIGNAL));
}

/*
 * The queue is opened in the helper's own table and sent to us: had it
 * shared ours, a helper killed between its open and its report (any
 * process of the target's uid may) would leave the fd there for good.
 */
HELPER_CHILD static long queue_call(void *arg)
{
	const struct emulate_queue *q = arg;
	int keep[2] = { q->dirfd, q->sock };
	long r = helper_close_others(keep, 2);
	struct open_how how = { 0 };

	if (r < 0)
		return r;
	if (q->by_mknod)
		return helper_sys(syscall(SYS_mknodat, q->dirfd, q->name, q->mode, q->dev));
	/* As open_create: no symlink followed, and none of our flags kept in the file's. */
	how.flags = (uint64_t)(unsigned int)q->flags | O_NOCTTY | O_CLOEXEC;
	how.mode = q->mode;
	how.resolve = RESOLVE_NO_SYMLINKS;
	r = helper_sys(syscall(SYS_openat2, q->dirfd, q->name, &how, sizeof(how)));
	return r < 0 ? r : queue_send_fd(q->sock, (int)r);
}

/* The fd the helper sent, or -errno. */
static int queue_receive_fd(int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) < 0)
		return negative_errno();
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)) || (msg.msg_flags & MSG_CTRUNC))
		return -EIO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

int emulate_queue_create(unotify_target *t, struct emulate_queue *q)
{
	struct helper_call call = { .run = queue_call, .arg = q, .sets_msgqueue = true };
	_cleanup_close_ int ours = -1, theirs = -1;
	int sv[2];
	long r;

	if (!t->t.same_userns)
		return -EACCES;
	r = target_read_limit(&t->t, "Max msgqueue size", &call.msgqueue_limit);
	if (r < 0)
		return (int)r;
	q->sock = -1;
	if (!q->by_mknod) {
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
			return negative_errno();
		ours = sv[0];
		theirs = sv[1];
		q->sock = theirs;
	}
	r = helper_run(t, &call);
	if (r < 0 || q->by_mknod)
		return (int)r; /* a queue sent before the helper died is closed with ours */
	return queue_receive_fd(ours);
}
