/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The safe-supervisor floor (floor.h): raw ioctls and system calls, no
 * libunotify, so that what it costs is what safety costs.
 *
 * What it relies on, and why that holds for what it serves (the bench's
 * targets and the program trees of floor_exec):
 *  - the root and credentials of the programs are ours and cannot change:
 *    floor_exec's filter fails chroot, pivot_root, mount, unshare, setns
 *    and every setuid/setgid/setgroups/capset call with EPERM, so the root
 *    is pinned once (an O_PATH fd of "/") and no credential is read or
 *    entered per call (FLOOR_CREDS measures what entering would cost);
 *  - the umask is the one the programs started with (ours): created files
 *    get the mode the program's own open would give them;
 *  - procfs is never reached: openat2 runs with RESOLVE_NO_XDEV first
 *    (every file of a build lives on the root file system here); when it
 *    crosses a mount (EXDEV) it is resolved again without it and a result
 *    on procfs is refused (EACCES), since our /proc/self is not theirs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "floor.h"
#include "lib/uapi.h"
#include "lib/util.h"

#define FLOOR_PATH_MAX 4096
#define FLOOR_LINKS_MAX 40

/* openat2 refuses bits openat ignores: keep the ones the kernel knows. */
#define FLOOR_OPEN_FLAGS                                                                       \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DSYNC |   \
	 O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC |    \
	 O_PATH | O_TMPFILE | O_SYNC)

struct floor_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

static void floor_count(atomic_ullong *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

int floor_set_sync(int listener)
{
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		  (unsigned long)SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0) == 0)
		return 0;
	return errno == EINVAL || errno == ENOTTY ? -EOPNOTSUPP : negative_errno();
}

int floor_init(struct floor *f, int listener, unsigned int flags, struct floor_counts *counts)
{
	struct seccomp_notif_sizes sizes = { 0 };

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return negative_errno();
	*f = (struct floor){
		.listener = listener,
		.flags = flags,
		.counts = counts,
		.req_size = sizes.seccomp_notif > sizeof(struct seccomp_notif)
				    ? sizes.seccomp_notif : sizeof(struct seccomp_notif),
		.resp_size = sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp)
				     ? sizes.seccomp_notif_resp : sizeof(struct seccomp_notif_resp),
	};
	f->root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return f->root < 0 ? negative_errno() : 0;
}

void floor_done(struct floor *f)
{
	f->root = safe_close(f->root);
}

/* ---------------------------------------------------------------- the target's memory */

/* A NUL-terminated string, read a page at a time (the next page may be unmapped). */
static int floor_read_path(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		size_t room = 4096 - ((addr + got) & 4095);
		struct iovec local, remote;
		ssize_t n;

		if (room > size - got)
			room = size - got;
		local = (struct iovec){ .iov_base = buf + got, .iov_len = room };
		remote = (struct iovec){ .iov_base = (void *)(uintptr_t)(addr + got), .iov_len = room };
		n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return n < 0 && errno == ESRCH ? -ENOENT : -EFAULT;
		if (memchr(buf + got, '\0', (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -ENAMETOOLONG;
}

/*
 * Results are written through /proc/TID/mem, never by number (the thread
 * may die and its number go to another process before a write by number):
 * opened before the call's ID_VALID (floor_resolve), which proves it, and
 * kept per serving thread for the next calls of that tid. The bench's
 * targets never exec (floor_exec's programs are only opened for), so the
 * address space stays the thread's; a tid that went to another process
 * meanwhile finds the old one gone, and the write fails. /proc/TID/maps
 * says first whether the pages are writable (the mem fd writes through
 * read-only mappings), as the kernel's own copy would.
 */
struct floor_mem {
	pid_t tid;
	int mem;
	int maps;
};

static __thread struct floor_mem floor_mem = { .mem = -1, .maps = -1 };

static void floor_mem_prepare(pid_t tid)
{
	char name[40];

	if (floor_mem.tid == tid && floor_mem.maps >= 0)
		return;
	if (floor_mem.mem >= 0)
		floor_mem.mem = safe_close(floor_mem.mem);
	if (floor_mem.maps >= 0)
		floor_mem.maps = safe_close(floor_mem.maps);
	floor_mem.tid = tid;
	snprintf(name, sizeof(name), "/proc/%d/mem", (int)tid);
	floor_mem.mem = open(name, O_WRONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "/proc/%d/maps", (int)tid);
	floor_mem.maps = open(name, O_RDONLY | O_CLOEXEC);
}

static int floor_write(uint64_t addr, const void *buf, size_t len)
{
	uint64_t at = addr;

	if (floor_mem.mem < 0 || floor_mem.maps < 0)
		return -EFAULT;
	while (at < addr + len) {
		struct procmap_query q = { .size = sizeof(q), .query_addr = at };

		if (ioctl(floor_mem.maps, PROCMAP_QUERY, &q) < 0 ||
		    !(q.vma_flags & PROCMAP_QUERY_VMA_WRITABLE))
			return -EFAULT;
		at = q.vma_end;
	}
	return pwrite(floor_mem.mem, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -EFAULT;
}

static int floor_id_valid(const struct floor *f, uint64_t id)
{
	while (ioctl(f->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0)
		if (errno != EINTR)
			return -ENOENT;
	return 0;
}

/* ---------------------------------------------------------------- credentials (FLOOR_CREDS) */

struct floor_creds {
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[64];
	struct __user_cap_data_struct caps[2];
};

static int floor_creds_self(struct floor_creds *c)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	/* setfsuid returns the previous value whatever it is given: -1 changes nothing. */
	c->fsuid = (uid_t)syscall(SYS_setfsuid, -1);
	c->fsgid = (gid_t)syscall(SYS_setfsgid, -1);
	c->ngroups = getgroups(ARRAY_SIZE(c->groups), c->groups);
	if (c->ngroups < 0 || syscall(SYS_capget, &h, c->caps) < 0)
		return negative_errno();
	return 0;
}

/*
 * What a supervisor acting as another identity does around each call, here
 * with our own values (the programs' are ours): the raw calls change this
 * thread only. Each of them commits a new set of credentials.
 */
static void floor_creds_apply(const struct floor_creds *c)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	syscall(SYS_setgroups, c->ngroups, c->groups);
	syscall(SYS_setfsgid, c->fsgid);
	syscall(SYS_setfsuid, c->fsuid);
	syscall(SYS_capset, &h, c->caps);
}

/* ---------------------------------------------------------------- resolution */

/*
 * The fd paths are resolved from: the pinned root for absolute paths, the
 * target's cwd or dirfd otherwise (opened before ID_VALID, which proves
 * they were the target's). *ret_owned is the fd to close, or -1.
 */
static int floor_base(const struct floor *f, pid_t pid, int dirfd, const char *path,
		      int *ret_base, int *ret_owned)
{
	char proc[64];
	int fd, pidfd;

	if (path[0] == '/') {
		*ret_base = f->root;
		*ret_owned = -1;
		return 0;
	}
	if (dirfd == AT_FDCWD) {
		snprintf(proc, sizeof(proc), "/proc/%d/cwd", (int)pid);
		fd = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT ? -ENOENT : negative_errno();
	} else {
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd < 0)
			pidfd = (int)syscall(SYS_pidfd_open, pid, PIDFD_THREAD);
		if (pidfd < 0)
			return -ENOENT;
		fd = (int)syscall(SYS_pidfd_getfd, pidfd, dirfd, 0);
		pidfd = safe_close(pidfd);
		if (fd < 0)
			return -EBADF;
	}
	*ret_base = fd;
	*ret_owned = fd;
	return 0;
}

/* buf becomes the symlink linkfd's text followed by what is left of the path (rest). */
static int floor_walk_splice(int linkfd, const char *rest, char buf[FLOOR_PATH_MAX])
{
	char link[FLOOR_PATH_MAX];
	ssize_t n = readlinkat(linkfd, "", link, sizeof(link) - 1);

	if (n < 0)
		return negative_errno();
	link[n] = '\0';
	if ((size_t)n + strlen(rest) + 2 > sizeof(link))
		return -ENAMETOOLONG;
	if (*rest)
		snprintf(link + n, sizeof(link) - (size_t)n, "/%s", rest);
	memcpy(buf, link, strlen(link) + 1);
	return 0;
}

/* The careful walk (FLOOR_WALK): one component at a time, symlinks followed by us. */
static int floor_walk(int base, const char *path, const struct floor_open_how *how)
{
	char buf[FLOOR_PATH_MAX];
	_cleanup_close_ int cur = -1;
	int links = 0;
	char *p = buf;

	snprintf(buf, sizeof(buf), "%s", path);
	cur = fcntl(base, F_DUPFD_CLOEXEC, 0);
	while (cur >= 0) {
		char *name, *end;
		bool last;
		struct stat st;
		_cleanup_close_ int next = -1;
		int err = 0;

		while (*p == '/')
			p++;
		if (!*p)
			return TAKE_FD(cur); /* "/" or a trailing slash: the directory itself */
		name = p;
		end = strchr(p, '/');
		last = !end || !end[strspn(end, "/")];
		if (end)
			*end = '\0';
		p = end ? end + 1 : p + strlen(p);
		if (last && !(how->flags & O_PATH)) {
			/* The final open itself, O_NOFOLLOW: a symlink is read below. */
			next = openat(cur, name, (int)(how->flags | O_NOFOLLOW | O_CLOEXEC),
				      (mode_t)how->mode);
			if (next >= 0)
				return TAKE_FD(next);
			if ((errno != ELOOP && errno != ENOTDIR) || (how->flags & O_NOFOLLOW))
				return negative_errno();
			err = errno;
		}
		next = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st) < 0)
			return negative_errno();
		if (err && !S_ISLNK(st.st_mode))
			return -err; /* not a symlink: the final open's own error */
		if (S_ISLNK(st.st_mode) && !(last && (how->flags & O_NOFOLLOW))) {
			int r = ++links > FLOOR_LINKS_MAX ? -ELOOP : floor_walk_splice(next, p, buf);

			if (r < 0)
				return r;
			p = buf;
			if (buf[0] == '/') {
				cur = safe_close(cur);
				cur = fcntl(base, F_DUPFD_CLOEXEC, 0); /* the root, in the floor */
			}
			continue;
		}
		if (last)
			return TAKE_FD(next);
		cur = safe_close(cur);
		cur = TAKE_FD(next);
	}
	return negative_errno();
}

static bool floor_on_procfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) < 0 || sfs.f_type == PROC_SUPER_MAGIC;
}

/* One openat2 from base; a mount crossed (EXDEV): again without NO_XDEV, refusing procfs. */
static int floor_openat2(const struct floor *f, int base, const char *path, bool absolute,
			 struct floor_open_how how)
{
	int fd;

	how.resolve = RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV | (absolute ? RESOLVE_IN_ROOT : 0);
	fd = (int)syscall(SYS_openat2, base, path, &how, sizeof(how));
	if (fd >= 0 || errno != EXDEV)
		return fd < 0 ? negative_errno() : fd;
	if (f->counts)
		floor_count(&f->counts->fallbacks);
	how.resolve &= ~(uint64_t)RESOLVE_NO_XDEV;
	fd = (int)syscall(SYS_openat2, base, path, &how, sizeof(how));
	if (fd < 0)
		return negative_errno();
	if (floor_on_procfs(fd)) {
		fd = safe_close(fd);
		if (f->counts)
			floor_count(&f->counts->refused);
		return -EACCES;
	}
	return fd;
}

/* The file the call names, opened as how says: an fd or the errno the target gets. */
static int floor_resolve(const struct floor *f, const struct seccomp_notif *req, int dirfd,
			 uint64_t addr, struct floor_open_how how)
{
	char path[FLOOR_PATH_MAX];
	_cleanup_close_ int owned = -1;
	int base, r;

	r = floor_read_path((pid_t)req->pid, addr, path, sizeof(path));
	if (r < 0)
		return r;
	if (!path[0])
		return -ENOENT;
	r = floor_base(f, (pid_t)req->pid, dirfd, path, &base, &owned);
	if (r < 0)
		return r;
	/* What was read and opened was the target's: it was still pending after. */
	if (floor_id_valid(f, req->id) < 0)
		return -ENOENT;
	how.flags = (how.flags & FLOOR_OPEN_FLAGS) | O_CLOEXEC;
	if (!(how.flags & (O_CREAT | O_TMPFILE)))
		how.mode = 0;
	if (f->flags & FLOOR_WALK)
		return floor_walk(path[0] == '/' ? f->root : base, path, &how);
	return floor_openat2(f, base, path, path[0] == '/', how);
}

/* ---------------------------------------------------------------- the calls */

struct floor_reply {
	int64_t val;
	int error;     /* positive errno, or 0 */
	bool replied;  /* ADDFD with SEND completed the call */
};

static void floor_result(struct floor_reply *out, int64_t r)
{
	if (r < 0)
		out->error = (int)-r;
	else
		out->val = r;
}

static void floor_do_open(const struct floor *f, const struct seccomp_notif *req, int dirfd,
			  uint64_t addr, uint64_t flags, uint64_t mode, struct floor_reply *out)
{
	struct floor_open_how how = { .flags = flags, .mode = mode };
	struct seccomp_notif_addfd a = { .id = req->id, .flags = SECCOMP_ADDFD_FLAG_SEND };
	_cleanup_close_ int fd = floor_resolve(f, req, dirfd, addr, how);
	int r;

	if (fd < 0) {
		out->error = -fd;
		return;
	}
	a.srcfd = (uint32_t)fd;
	a.newfd_flags = (uint32_t)(flags & O_CLOEXEC);
	do
		r = ioctl(f->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
	while (r < 0 && errno == EINTR);
	if (r >= 0 || errno == ENOENT)
		out->replied = true;
	else
		out->error = errno;
}

/* stat, access, readlink: an O_PATH fd of the file, then the call on it. */
static int floor_path_fd(const struct floor *f, const struct seccomp_notif *req, bool follow)
{
	struct floor_open_how how = { .flags = O_PATH | (follow ? 0 : O_NOFOLLOW) };

	return floor_resolve(f, req, (int)req->data.args[0], req->data.args[1], how);
}

static void floor_do_stat(const struct floor *f, const struct seccomp_notif *req,
			  struct floor_reply *out)
{
	int flags = (int)req->data.args[3];
	_cleanup_close_ int fd = -1;
	struct stat st;

	floor_mem_prepare((pid_t)req->pid); /* before the ID_VALID that proves it */
	fd = floor_path_fd(f, req, !(flags & AT_SYMLINK_NOFOLLOW));
	if (fd < 0)
		return floor_result(out, fd);
	if (fstat(fd, &st) < 0)
		return floor_result(out, negative_errno());
	floor_result(out, floor_write(req->data.args[2], &st, sizeof(st)));
}

static void floor_do_access(const struct floor *f, const struct seccomp_notif *req,
			    struct floor_reply *out)
{
	_cleanup_close_ int fd = floor_path_fd(f, req, true);

	if (fd < 0)
		return floor_result(out, fd);
	if (syscall(SYS_faccessat2, fd, "", (int)req->data.args[2], AT_EMPTY_PATH) < 0)
		return floor_result(out, negative_errno());
	floor_result(out, 0);
}

static void floor_do_readlink(const struct floor *f, const struct seccomp_notif *req,
			      struct floor_reply *out)
{
	size_t size = req->data.args[3] < FLOOR_PATH_MAX ? req->data.args[3] : FLOOR_PATH_MAX;
	_cleanup_close_ int fd = -1;
	char text[FLOOR_PATH_MAX];
	ssize_t n;
	int r;

	floor_mem_prepare((pid_t)req->pid); /* before the ID_VALID that proves it */
	fd = floor_path_fd(f, req, false);
	if (fd < 0)
		return floor_result(out, fd);
	if ((int64_t)req->data.args[3] <= 0)
		return floor_result(out, -EINVAL);
	n = readlinkat(fd, "", text, size);
	if (n < 0)
		return floor_result(out, errno == ENOENT ? -EINVAL : negative_errno());
	r = floor_write(req->data.args[2], text, (size_t)n);
	floor_result(out, r < 0 ? r : n);
}

static void floor_perform(const struct floor *f, const struct seccomp_notif *req,
			  struct floor_reply *out)
{
	const __u64 *a = req->data.args;

	switch (req->data.nr) {
	case SYS_openat:
		return floor_do_open(f, req, (int)a[0], a[1], a[2], a[3], out);
#ifdef SYS_open
	case SYS_open:
		return floor_do_open(f, req, AT_FDCWD, a[0], a[1], a[2], out);
#endif
	case SYS_newfstatat:
		return floor_do_stat(f, req, out);
	case SYS_faccessat:
	case SYS_faccessat2:
		return floor_do_access(f, req, out);
	case SYS_readlinkat:
		return floor_do_readlink(f, req, out);
	case SYS_getppid:
		out->val = FLOOR_REPLY_VALUE;
		return;
	default:
		out->error = ENOSYS; /* never notified by our filters */
	}
}

int floor_answer(const struct floor *f, void *reqbuf, void *respbuf)
{
	const struct seccomp_notif *req = reqbuf;
	struct seccomp_notif_resp *resp = respbuf;
	/* Ours, read once per thread: the switch alone is measured, not reading them. */
	static __thread struct floor_creds creds;
	static __thread bool have_creds;
	struct floor_reply out = { 0 };

	if ((f->flags & FLOOR_CREDS) && !have_creds) {
		if (floor_creds_self(&creds) < 0)
			return -EPERM;
		have_creds = true;
	}
	/* As a supervisor acting as the target would: in before, out after. */
	if (f->flags & FLOOR_CREDS)
		floor_creds_apply(&creds);
	floor_perform(f, req, &out);
	if (f->flags & FLOOR_CREDS)
		floor_creds_apply(&creds);
	if (f->counts)
		floor_count(&f->counts->calls);
	if (out.replied)
		return 0;
	memset(resp, 0, f->resp_size);
	resp->id = req->id;
	resp->val = out.error ? 0 : out.val;
	resp->error = out.error ? -out.error : 0;
	if (ioctl(f->listener, SECCOMP_IOCTL_NOTIF_SEND, resp) < 0 && errno != ENOENT &&
	    errno != EINTR)
		return negative_errno();
	return 0;
}

static bool floor_hung_up(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0 && (p.revents & POLLHUP);
}

/* 1: a notification in req; 0: no task uses the filter any more; -errno. */
static int floor_recv(const struct floor *f, void *req)
{
	for (;;) {
		memset(req, 0, f->req_size);
		if (ioctl(f->listener, SECCOMP_IOCTL_NOTIF_RECV, req) == 0)
			return 1;
		if (errno == EINTR)
			continue;
		/* ENOENT: a target gone meanwhile, or every one of them (POLLHUP). */
		if (errno != ENOENT)
			return negative_errno();
		if (floor_hung_up(f->listener))
			return 0;
	}
}

int floor_serve(const struct floor *f, const atomic_bool *stop)
{
	_cleanup_free_ void *req = calloc(1, f->req_size);
	_cleanup_free_ void *resp = calloc(1, f->resp_size);
	int r;

	if (!req || !resp)
		return -ENOMEM;
	while (!stop || !atomic_load_explicit(stop, memory_order_relaxed)) {
		r = floor_recv(f, req);
		if (r <= 0)
			return r;
		r = floor_answer(f, req, resp);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---------------------------------------------------------------- one receiver, workers */

#define FLOOR_QUEUE 64
#define FLOOR_WORKERS_MAX 64

struct floor_queue {
	const struct floor *f;
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	pthread_cond_t nonfull;
	unsigned int head, count;
	bool done;
	char *slots;           /* FLOOR_QUEUE requests of f->req_size bytes */
};

static void *floor_worker_main(void *arg)
{
	struct floor_queue *q = arg;
	_cleanup_free_ void *req = malloc(q->f->req_size);
	_cleanup_free_ void *resp = malloc(q->f->resp_size);

	if (!req || !resp)
		return NULL;
	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (q->count == 0 && !q->done)
			pthread_cond_wait(&q->nonempty, &q->lock);
		if (q->count == 0) {
			pthread_mutex_unlock(&q->lock);
			return NULL;
		}
		memcpy(req, q->slots + (size_t)q->head * q->f->req_size, q->f->req_size);
		q->head = (q->head + 1) % FLOOR_QUEUE;
		q->count--;
		pthread_cond_signal(&q->nonfull);
		pthread_mutex_unlock(&q->lock);
		(void)floor_answer(q->f, req, resp);
	}
}

static void floor_queue_push(struct floor_queue *q, const void *req)
{
	pthread_mutex_lock(&q->lock);
	while (q->count == FLOOR_QUEUE)
		pthread_cond_wait(&q->nonfull, &q->lock);
	memcpy(q->slots + (size_t)((q->head + q->count) % FLOOR_QUEUE) * q->f->req_size, req,
	       q->f->req_size);
	q->count++;
	pthread_cond_signal(&q->nonempty);
	pthread_mutex_unlock(&q->lock);
}

static int floor_receive_into(struct floor_queue *q, void *req)
{
	int r;

	while ((r = floor_recv(q->f, req)) > 0)
		floor_queue_push(q, req);
	return r;
}

int floor_serve_workers(const struct floor *f, unsigned int workers)
{
	struct floor_queue q = { .f = f };
	pthread_t threads[FLOOR_WORKERS_MAX];
	_cleanup_free_ void *req = calloc(1, f->req_size);
	unsigned int started = 0;
	int r = -ENOMEM;

	if (workers < 1 || workers > FLOOR_WORKERS_MAX)
		return -EINVAL;
	q.slots = calloc(FLOOR_QUEUE, f->req_size);
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.nonempty, NULL);
	pthread_cond_init(&q.nonfull, NULL);
	if (req && q.slots) {
		for (; started < workers; started++)
			if (pthread_create(&threads[started], NULL, floor_worker_main, &q) != 0)
				break;
		r = started ? floor_receive_into(&q, req) : -EAGAIN;
	}
	pthread_mutex_lock(&q.lock);
	q.done = true;
	pthread_cond_broadcast(&q.nonempty);
	pthread_mutex_unlock(&q.lock);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_cond_destroy(&q.nonfull);
	pthread_cond_destroy(&q.nonempty);
	pthread_mutex_destroy(&q.lock);
	free(q.slots);
	return r;
}
