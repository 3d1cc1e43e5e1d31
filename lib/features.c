/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel features, found by trying them (a version number says nothing about
 * backports or disabled options). Probed once per process.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "uapi.h"
#include "util.h"

/* What the forked child found, as bits of one int written to a pipe. */
enum {
	PROBE_SYNC_WAKE_UP = 1 << 0,
	PROBE_ADDFD = 1 << 1,
	PROBE_ADDFD_SEND = 1 << 2,
	PROBE_WAIT_KILLABLE_RECV = 1 << 3,
	PROBE_TSYNC_ESRCH = 1 << 4,
};

static long features_seccomp(unsigned int op, unsigned long flags, void *args)
{
	return syscall(SYS_seccomp, op, flags, args);
}

static bool features_probe_user_notif(void)
{
	uint32_t action = SECCOMP_RET_USER_NOTIF;

	return features_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

/* On a listener with no notification: ENOENT proves the ioctl and its flags are known. */
static int features_probe_listener(int fd)
{
	struct seccomp_notif_addfd a = { .id = 0, .srcfd = (uint32_t)fd };
	int bits = 0;

	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0) == 0)
		bits |= PROBE_SYNC_WAKE_UP;
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 && errno == ENOENT)
		bits |= PROBE_ADDFD;
	a.flags = SECCOMP_ADDFD_FLAG_SEND;
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 && errno == ENOENT)
		bits |= PROBE_ADDFD_SEND;
	return bits;
}

/* Runs in a forked child: async-signal-safe calls only. */
static int features_probe_child(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	unsigned long listen = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	int bits = 0;
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 0;
	fd = features_seccomp(SECCOMP_SET_MODE_FILTER,
			      listen | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
	if (fd >= 0)
		bits |= PROBE_WAIT_KILLABLE_RECV;
	else
		fd = features_seccomp(SECCOMP_SET_MODE_FILTER, listen, &prog);
	if (fd >= 0)
		bits |= features_probe_listener((int)fd);
	if (features_seccomp(SECCOMP_SET_MODE_FILTER,
			     SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_TSYNC_ESRCH, &prog) == 0)
		bits |= PROBE_TSYNC_ESRCH;
	return bits;
}

/* Filters cannot be removed: the listener probes run in a throw-away child. */
static int features_probe_forked(void)
{
	_cleanup_close_ int rd = -1, wr = -1;
	int fds[2], bits = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return 0;
	rd = fds[0];
	wr = fds[1];
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		bits = features_probe_child();
		_exit(write(wr, &bits, sizeof(bits)) == sizeof(bits) ? 0 : 1);
	}
	wr = safe_close(wr);
	if (TEMP_FAILURE_RETRY(read(rd, &bits, sizeof(bits))) != sizeof(bits))
		bits = 0;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return bits;
}

static void features_probe_pidfd(struct unotify_features *f)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	_cleanup_close_ int copy = -1;

	f->pidfd_open = pidfd >= 0;
	if (pidfd < 0)
		return;
	copy = (int)syscall(SYS_pidfd_getfd, pidfd, pidfd, 0);
	f->pidfd_getfd = copy >= 0;
}

static void features_probe_process_vm(struct unotify_features *f)
{
	uint64_t src = 0x554e4f54, dst = 0;
	struct iovec local = { .iov_base = &dst, .iov_len = sizeof(dst) };
	struct iovec remote = { .iov_base = &src, .iov_len = sizeof(src) };

	f->process_vm_readv = process_vm_readv(getpid(), &local, 1, &remote, 1, 0) ==
				      (ssize_t)sizeof(dst) && dst == src;
}

static void features_probe_openat2(struct unotify_features *f)
{
	/* struct open_how (linux/openat2.h), spelled out for older headers. */
	struct {
		uint64_t flags, mode, resolve;
	} how = { .flags = O_PATH | O_CLOEXEC };
	_cleanup_close_ int fd = (int)syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

	f->openat2 = fd >= 0;
}

static struct unotify_features features_cache;
static int features_cache_result;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static void features_probe_once(void)
{
	struct unotify_features *f = &features_cache;
	struct utsname u;
	int bits;

	if (uname(&u) < 0) {
		features_cache_result = negative_errno();
		return;
	}
	snprintf(f->kernel_release, sizeof(f->kernel_release), "%s", u.release);
	f->user_notif = features_probe_user_notif();
	bits = f->user_notif ? features_probe_forked() : 0;
	f->sync_wake_up = bits & PROBE_SYNC_WAKE_UP;
	f->addfd = bits & PROBE_ADDFD;
	f->addfd_send = bits & PROBE_ADDFD_SEND;
	f->wait_killable_recv = bits & PROBE_WAIT_KILLABLE_RECV;
	f->tsync_esrch = bits & PROBE_TSYNC_ESRCH;
	features_probe_pidfd(f);
	features_probe_process_vm(f);
	features_probe_openat2(f);
	f->landlock_abi = landlock_probe_abi();
	f->landlock = f->landlock_abi > 0;
}

const struct unotify_features *features_cached(void)
{
	pthread_once(&features_once, features_probe_once);
	return features_cache_result < 0 ? NULL : &features_cache;
}

int unotify_features_probe(struct unotify_features *ret)
{
	const struct unotify_features *f = features_cached();

	if (!f)
		return features_cache_result;
	*ret = *f;
	return 0;
}

static const struct {
	const char *name;
	size_t offset;
} features_table[] = {
	{ "user-notification", offsetof(struct unotify_features, user_notif) },
	{ "sync-wake-up", offsetof(struct unotify_features, sync_wake_up) },
	{ "addfd", offsetof(struct unotify_features, addfd) },
	{ "addfd-send", offsetof(struct unotify_features, addfd_send) },
	{ "wait-killable-recv", offsetof(struct unotify_features, wait_killable_recv) },
	{ "tsync-esrch", offsetof(struct unotify_features, tsync_esrch) },
	{ "pidfd-open", offsetof(struct unotify_features, pidfd_open) },
	{ "pidfd-getfd", offsetof(struct unotify_features, pidfd_getfd) },
	{ "process-vm-readv", offsetof(struct unotify_features, process_vm_readv) },
	{ "openat2", offsetof(struct unotify_features, openat2) },
	{ "landlock", offsetof(struct unotify_features, landlock) },
};

int unotify_features_get(const struct unotify_features *f, size_t n, const char **ret_name,
			 bool *ret_available)
{
	if (n >= ARRAY_SIZE(features_table))
		return -ENOENT;
	*ret_name = features_table[n].name;
	*ret_available = *(const bool *)((const char *)f + features_table[n].offset);
	return 0;
}
