/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The listener: each seccomp notification ioctl is wrapped here, once, with
 * its ENOENT/EINTR semantics documented at the wrapper.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "uapi.h"
#include "util.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * The kernel tells the sizes of its structs; a newer kernel may have grown
 * them. We never allocate less than our headers' structs either, so reading
 * the fields we know is always in bounds.
 */
static int listener_get_sizes(struct seccomp_notif_sizes *ret)
{
	struct seccomp_notif_sizes s = { 0 };

	/*
	 * A kernel that gave us a listener has this call: ENOSYS comes from an
	 * emulator (valgrind 3.19 does not know seccomp(2)); our headers' sizes
	 * are the only ones such a caller can use anyway.
	 */
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &s) < 0 && errno != ENOSYS)
		return negative_errno();
	s.seccomp_notif = MAX(s.seccomp_notif, (__u16)sizeof(struct seccomp_notif));
	s.seccomp_notif_resp = MAX(s.seccomp_notif_resp, (__u16)sizeof(struct seccomp_notif_resp));
	s.seccomp_data = MAX(s.seccomp_data, (__u16)sizeof(struct seccomp_data));
	if (s.seccomp_notif_resp > LISTENER_RESP_MAX)
		return -EOVERFLOW;
	*ret = s;
	return 0;
}

/*
 * The fd numbers that live listeners own, one bit each, so that
 * unotify_child_close() never closes a number a listener took over
 * (unotify.h: a caller that gave child.listener_fd to unotify_listener_new()
 * and kept the number). Not on any hot path: taken at listener_new and free.
 */
static pthread_mutex_t owned_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *owned;
static size_t owned_words;

static int listener_own(int fd)
{
	size_t w = (size_t)fd / 64;
	int r = 0;

	pthread_mutex_lock(&owned_lock);
	if (w >= owned_words) {
		size_t n = w + 1 > owned_words * 2 ? w + 1 : owned_words * 2;
		uint64_t *grown = realloc(owned, n * sizeof(*owned));

		if (grown) {
			memset(grown + owned_words, 0, (n - owned_words) * sizeof(*owned));
			owned = grown;
			owned_words = n;
		} else {
			r = -ENOMEM;
		}
	}
	if (r == 0 && (owned[w] & (1ULL << (fd % 64))))
		r = -EBUSY;
	if (r == 0)
		owned[w] |= 1ULL << (fd % 64);
	pthread_mutex_unlock(&owned_lock);
	return r;
}

static void listener_disown(int fd)
{
	pthread_mutex_lock(&owned_lock);
	if ((size_t)fd / 64 < owned_words)
		owned[fd / 64] &= ~(1ULL << (fd % 64));
	pthread_mutex_unlock(&owned_lock);
}

bool listener_owns(int fd)
{
	bool r;

	if (fd < 0)
		return false;
	pthread_mutex_lock(&owned_lock);
	r = (size_t)fd / 64 < owned_words && (owned[fd / 64] & (1ULL << (fd % 64)));
	pthread_mutex_unlock(&owned_lock);
	return r;
}

/* A directory's identity as target.c compares them (statx: device, inode, mount). */
static int listener_root_fid(int fd, struct target_fid *ret)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT,
		  STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx) < 0)
		return negative_errno();
	if (!S_ISDIR(stx.stx_mode))
		return -ENOTDIR;
	*ret = (struct target_fid){
		.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor),
		.ino = stx.stx_ino,
		.mnt = (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0,
	};
	return 0;
}

int unotify_listener_set_root(unotify_listener *l, int rootfd)
{
	_cleanup_close_ int root = rootfd;
	struct target_fid fid;
	int r;

	if (!l || rootfd < 0)
		return -EINVAL;
	r = listener_root_fid(rootfd, &fid);
	if (r < 0)
		return r;
	l->root_fd = safe_close(l->root_fd);
	l->root_fd = TAKE_FD(root);
	l->root = fid;
	return 0;
}

int unotify_listener_watch_creds(unotify_listener *l)
{
	if (!l)
		return -EINVAL;
	l->creds_watched = true;
	return 0;
}

int unotify_listener_refuse_shared_pid(unotify_listener *l)
{
	if (!l)
		return -EINVAL;
	l->refuse_shared_pid = true;
	return 0;
}

/*
 * A process that holds a listener is a supervisor: nobody of its uid may
 * read or write its memory, take its descriptors (the listener) or trace
 * it without CAP_SYS_PTRACE (the kernel's ptrace checks require it for
 * non-dumpable processes). Once per process; exec gives a program its own.
 */
static void listener_harden_process(void)
{
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int unotify_listener_new(int fd, unotify_listener **ret)
{
	_cleanup_close_ int owned_fd = -1;
	_cleanup_free_ struct unotify_listener *l = NULL;
	int r;

	if (fd < 0)
		return -EBADF;
	listener_harden_process();
	/* Already a live listener's: adopting it twice would close it twice. Not ours to close. */
	r = listener_own(fd);
	if (r == -EBUSY)
		return r;
	owned_fd = fd;
	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	if (!l) {
		listener_disown(fd);
		return -ENOMEM;
	}
	l->root_fd = -1;
	r = listener_get_sizes(&l->sizes);
	if (r == 0) {
		l->req = calloc(1, l->sizes.seccomp_notif);
		if (!l->req)
			r = -ENOMEM;
	}
	/* Until told otherwise, names are relative to our own root. */
	if (r == 0)
		r = unotify_listener_set_root(l, open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
	if (r < 0) {
		free(l->req);
		listener_disown(fd);
		return r;
	}
	l->fd = TAKE_FD(owned_fd);
	*ret = steal_pointer(&l);
	return 0;
}

int listener_release_fd(struct unotify_listener *l)
{
	int fd = TAKE_FD(l->fd);

	listener_disown(fd);
	l->root_fd = safe_close(l->root_fd);
	target_cache_free(atomic_load(&l->cache));
	free(l->req);
	free(l);
	return fd;
}

void unotify_listener_free(unotify_listener *l)
{
	int fd;

	if (!l)
		return;
	fd = listener_release_fd(l);
	fd = safe_close(fd);
}

int unotify_listener_fd(const unotify_listener *l)
{
	return l->fd;
}

/*
 * SET_FLAGS takes the flag BY VALUE although its number says __u64: a pointer
 * is an unknown flag (EINVAL). Kernels before 6.6 answer EINVAL or ENOTTY:
 * both mean "not supported", remembered so that we never ask again.
 */
int unotify_listener_set_sync(unotify_listener *l, bool on)
{
	unsigned long flags = on ? SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP : 0;

	if (l->sync_unsupported)
		return on ? -EOPNOTSUPP : 0;
	if (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, flags, 0) < 0) {
		if (errno != EINVAL && errno != ENOTTY)
			return negative_errno();
		l->sync_unsupported = true;
		l->sync = false;
		return on ? -EOPNOTSUPP : 0;
	}
	l->sync = on;
	return 0;
}

bool unotify_listener_sync(const unotify_listener *l)
{
	return l->sync;
}

/* POLLHUP on the listener: no task uses the filter any more (5.8+). */
static int listener_hung_up(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, 0);
	while (n < 0 && errno == EINTR);
	/*
	 * poll fails when we cannot ask (EINVAL under RLIMIT_NOFILE 0, which
	 * a program sharing our pid namespace may set on us): an error of
	 * ours, never "a target was interrupted", or the loop would spin.
	 */
	if (n < 0)
		return negative_errno();
	return n > 0 && (p.revents & POLLHUP);
}

/*
 * RECV blocks (no poll/epoll in front: a blocking RECV is what receives the
 * same-CPU wake-up). The kernel wants a zeroed buffer. EINTR: retried.
 * ENOENT: a notification arrived but its target died or was interrupted
 * before we got it, or the filter has no task left (the kernel wakes a
 * blocked RECV then). POLLHUP tells them apart: the latter becomes -EPIPE;
 * when poll itself fails, its error is returned (the caller stops).
 */
int listener_recv_into(struct unotify_listener *l, struct seccomp_notif *buf)
{
	memset(buf, 0, l->sizes.seccomp_notif);
	if (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_RECV, buf) == 0)
		return 0;
	if (errno == ENOENT) {
		int h = listener_hung_up(l->fd);

		return h < 0 ? h : h ? -EPIPE : -ENOENT;
	}
	return negative_errno();
}

int unotify_listener_recv(unotify_listener *l, const struct seccomp_notif **ret)
{
	int r;

	do
		r = listener_recv_into(l, l->req);
	while (r == -EINTR);
	if (r < 0)
		return r;
	*ret = l->req;
	return 0;
}

/*
 * SEND. ENOENT: the target died or a signal interrupted the call meanwhile
 * (without WAIT_KILLABLE_RECV any signal does): ordinary, nothing to do.
 * EINTR: retried (the reply was not taken).
 */
static int listener_send(unotify_listener *l, uint64_t id, int64_t val, int32_t error,
			 uint32_t flags)
{
	union {
		struct seccomp_notif_resp resp;
		char bytes[LISTENER_RESP_MAX];
	} u;

	memset(&u, 0, l->sizes.seccomp_notif_resp);
	u.resp = (struct seccomp_notif_resp){ .id = id, .val = val, .error = error, .flags = flags };
	while (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SEND, &u.resp) < 0)
		if (errno != EINTR)
			return negative_errno();
	return 0;
}

int unotify_reply_value(unotify_listener *l, uint64_t id, int64_t val)
{
	return listener_send(l, id, val, 0, 0);
}

/* err is a positive errno; 0 would turn the denial into a success. */
int unotify_reply_errno(unotify_listener *l, uint64_t id, int err)
{
	if (err <= 0 || err > 4095)
		return -EINVAL;
	return listener_send(l, id, 0, -err, 0);
}

int unotify_reply_continue(unotify_listener *l, uint64_t id)
{
	return listener_send(l, id, 0, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
}

/*
 * ADDFD. Returns the fd number in the target. ENOENT: the target is gone or
 * was interrupted (as for SEND). EINTR: retried; the fd was not installed.
 * With SEND the call completes atomically with the fd as its result.
 */
static int listener_addfd(unotify_listener *l, uint64_t id, int srcfd, int newfd,
			  unsigned int flags, uint32_t addfd_flags)
{
	struct seccomp_notif_addfd a = {
		.id = id,
		.flags = addfd_flags,
		.srcfd = (uint32_t)srcfd,
		.newfd = newfd >= 0 ? (uint32_t)newfd : 0,
		.newfd_flags = flags,
	};
	int r;

	if (srcfd < 0 || (flags & ~(unsigned int)O_CLOEXEC))
		return -EINVAL;
	do
		r = ioctl(l->fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
	while (r < 0 && errno == EINTR);
	return r < 0 ? negative_errno() : r;
}

int unotify_addfd(unotify_listener *l, uint64_t id, int srcfd, int newfd, unsigned int flags)
{
	return listener_addfd(l, id, srcfd, newfd, flags, newfd >= 0 ? SECCOMP_ADDFD_FLAG_SETFD : 0);
}

/*
 * Kernels 5.9 to 5.13 have ADDFD but not its SEND flag (EINVAL: every other
 * cause of EINVAL is excluded by listener_addfd): install, then reply with
 * the number. Not atomic: the target may be interrupted in between and keep
 * an fd it does not know of; the best such a kernel allows.
 */
int unotify_reply_addfd(unotify_listener *l, uint64_t id, int srcfd, unsigned int flags)
{
	int r, s;

	r = listener_addfd(l, id, srcfd, -1, flags, SECCOMP_ADDFD_FLAG_SEND);
	if (r != -EINVAL)
		return r;
	r = listener_addfd(l, id, srcfd, -1, flags, 0);
	if (r < 0)
		return r;
	s = unotify_reply_value(l, id, r);
	return s < 0 ? s : r;
}

/* ID_VALID: 0 while pending; ENOENT once the target is gone or interrupted. */
int unotify_id_valid(unotify_listener *l, uint64_t id)
{
	while (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0)
		if (errno != EINTR)
			return negative_errno();
	return 0;
}
