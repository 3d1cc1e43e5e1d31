/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Acting as the target. The supervisor runs as root; an open it performs on
 * a target's behalf must be checked by the kernel as if the target made it.
 * So the supervising thread takes on, for the time of one resolution or one
 * open, the target thread's root, umask, supplementary groups, gids,
 * effective and file-system uids and effective capabilities, and gives them
 * back afterwards. Not its real and saved uids: a thread of those accepts
 * signals from any process of that uid (a POSIX queue, which the kernel
 * charges to its creator's real uid, is created by a helper process:
 * emulate-queue.c).
 *
 * All of it is per thread. Root and umask live in the fs_struct, which
 * unotify_thread_init() unshares; credentials are per task in the kernel,
 * but glibc's setgroups()/setuid() broadcast to every thread of the process
 * (and libcap's cap_set_proc does with libpsx), so the raw system calls are
 * used. setfsuid() leaving 0 clears the file-system capabilities from the
 * effective set and returning to 0 raises them again only from the permitted
 * set: the capabilities are therefore set explicitly on the way in (after
 * fsuid) and on the way out (before fsuid), and checked at the end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "target.h"
#include "uapi.h"
#include "util.h"

/* The supervisor's /proc, shared by every thread (fd tables are per process). */
static _Atomic int proc_fd = -1;

/* What the supervising thread is, captured once by unotify_thread_init(). */
static __thread struct {
	bool ready;
	bool broken;              /* a target_leave() failed: never act as a target again */
	struct target_fid root;   /* our root, to tell whether a chroot is needed */
	dev_t proc_dev;
	struct target_fid userns; /* our user namespace */
	/*
	 * Our credentials, read at the first target_enter(): only
	 * target_enter() and target_leave() change them on this thread, and
	 * target_leave() proves it put them back. A fork forgets them (the
	 * child may take other ids before it supervises: target_atfork); a
	 * supervisor that changes its own ids otherwise must do it before its
	 * threads first act as a target.
	 */
	bool creds_known;
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	uid_t euid;
	gid_t gid, egid, sgid;
	uid_t fsuid;
	gid_t fsgid;
	gid_t *groups;
	int ngroups;
} self;

static int target_statx(int dirfd, const char *path, int flags, struct target_stat *ret)
{
	struct statx stx;

	if (statx(dirfd, path, flags | AT_STATX_SYNC_AS_STAT,
		  STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_INO | STATX_MNT_ID,
		  &stx) < 0)
		return negative_errno();
	*ret = (struct target_stat){
		.mode = stx.stx_mode,
		.uid = stx.stx_uid,
		.gid = stx.stx_gid,
		.automount = (stx.stx_attributes & STATX_ATTR_AUTOMOUNT) != 0,
		.rdev = makedev(stx.stx_rdev_major, stx.stx_rdev_minor),
		.fid = {
			.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor),
			.ino = stx.stx_ino,
			.mnt = (stx.stx_mask & STATX_MNT_ID) ? stx.stx_mnt_id : 0,
		},
	};
	return 0;
}

int target_fstat(int fd, struct target_stat *ret)
{
	return target_statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, ret);
}

static int target_fid_at(int dirfd, const char *path, struct target_fid *ret)
{
	struct stat st;

	if (fstatat(dirfd, path, &st, 0) < 0)
		return negative_errno();
	*ret = (struct target_fid){ .dev = st.st_dev, .ino = st.st_ino };
	return 0;
}

int target_proc_fd(void)
{
	int fd = atomic_load(&proc_fd);
	int expected = -1;

	if (fd >= 0)
		return fd;
	fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (!atomic_compare_exchange_strong(&proc_fd, &expected, fd)) {
		fd = safe_close(fd);
		return expected;
	}
	return fd;
}

bool target_proc_is_ours(dev_t dev)
{
	return dev == self.proc_dev;
}

static int target_stat_root(struct target_stat *ret)
{
	_cleanup_close_ int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return negative_errno();
	return target_fstat(fd, ret);
}

int unotify_thread_init(void)
{
	struct target_stat root;
	struct target_stat proc;
	int procfd;
	int r;

	if (self.broken)
		return -ENOTRECOVERABLE;
	if (self.ready)
		return 0;
	procfd = target_proc_fd();
	if (procfd < 0)
		return procfd;
	r = target_fstat(procfd, &proc);
	if (r < 0)
		return r;
	r = target_fid_at(procfd, "thread-self/ns/user", &self.userns);
	if (r < 0)
		return r;
	/* chroot and umask must change this thread only. */
	if (unshare(CLONE_FS) < 0)
		return negative_errno();
	r = target_stat_root(&root);
	if (r < 0)
		return r;
	self.root = root.fid;
	self.proc_dev = proc.fid.dev;
	self.ready = true;
	return 0;
}

/* ---- Reading the target ---- */

/* The whole of a /proc file, NUL-terminated (Groups: may list 65536 ids). */
int target_read_file(int dirfd, const char *name, char **ret)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	size_t size = 4096;
	size_t len = 0;

	if (fd < 0)
		return negative_errno();
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= size) {
			char *bigger = realloc(buf, size * 2);

			if (!bigger)
				return -ENOMEM;
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*ret = steal_pointer(&buf);
	return 0;
}

int target_read_limit(const struct target *t, const char *name, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	char file[32], key[64], *line, *end;
	unsigned long long v;
	int r;

	snprintf(file, sizeof(file), "%d/limits", (int)t->tgid);
	r = target_read_file(target_proc_fd(), file, &text);
	if (r < 0)
		return r;
	/* Never the first line, which names the columns. */
	snprintf(key, sizeof(key), "\n%s ", name);
	line = strstr(text, key);
	if (!line)
		return -EIO;
	line += strlen(key);
	line += strspn(line, " ");
	if (strncmp(line, "unlimited", 9) == 0) {
		*ret = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(line, &end, 10);
	if (errno || end == line)
		return -EIO;
	*ret = v;
	return 0;
}

/* The numbers after "key:" on its line of /proc/TID/status; returns how many. */
int target_status_numbers(const char *text, const char *key, int base,
				 unsigned long long *vals, size_t max)
{
	size_t klen = strlen(key);
	const char *p = text;
	size_t n = 0;

	while (p && !(strncmp(p, key, klen) == 0 && p[klen] == ':'))
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	if (!p)
		return -ENODATA;
	p += klen + 1;
	for (;;) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '\0')
			break;
		errno = 0;
		v = strtoull(p, &end, base);
		if (end == p || errno)
			return -EBADMSG;
		if (vals && n < max)
			vals[n] = v;
		n++;
		p = end;
	}
	return (int)n;
}

/*
 * NStgid and NSpid: the numbers from our pid namespace down to the
 * target's own, one per level (a namespace nests 32 deep at most).
 */
static int target_parse_levels(const char *text, struct target *t)
{
	unsigned long long tgids[TARGET_PID_LEVELS], tids[TARGET_PID_LEVELS];
	int n = target_status_numbers(text, "NStgid", 10, tgids, TARGET_PID_LEVELS);
	int m = target_status_numbers(text, "NSpid", 10, tids, TARGET_PID_LEVELS);

	if (n < 0 || m < 0)
		return n < 0 ? n : m;
	if (n == 0 || n != m || n > TARGET_PID_LEVELS)
		return -EBADMSG;
	for (int i = 0; i < n; i++) {
		t->nstgid[i] = (pid_t)tgids[i];
		t->nspid[i] = (pid_t)tids[i];
	}
	t->levels = (unsigned int)n;
	t->ns_tgid = t->nstgid[n - 1];
	t->ns_tid = t->nspid[n - 1];
	return 0;
}

static int target_parse_groups(const char *text, struct target *t)
{
	_cleanup_free_ unsigned long long *vals = NULL;
	int n = target_status_numbers(text, "Groups", 10, NULL, 0);

	if (n < 0)
		return n;
	t->ngroups = 0;
	if (n == 0)
		return 0;
	vals = calloc((size_t)n, sizeof(*vals));
	t->groups = calloc((size_t)n, sizeof(*t->groups));
	if (!vals || !t->groups)
		return -ENOMEM;
	n = target_status_numbers(text, "Groups", 10, vals, (size_t)n);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		t->groups[i] = (gid_t)vals[i];
	t->ngroups = (size_t)n;
	return 0;
}

static int target_parse_status(const char *text, struct target *t)
{
	unsigned long long ids[4], v;
	int r;

	if (target_status_numbers(text, "Uid", 10, ids, 4) != 4)
		return -EBADMSG;
	t->uid = (uid_t)ids[0];
	t->euid = (uid_t)ids[1];
	t->suid = (uid_t)ids[2];
	t->fsuid = (uid_t)ids[3];
	if (target_status_numbers(text, "Gid", 10, ids, 4) != 4)
		return -EBADMSG;
	t->gid = (gid_t)ids[0];
	t->egid = (gid_t)ids[1];
	t->sgid = (gid_t)ids[2];
	t->fsgid = (gid_t)ids[3];
	if (target_status_numbers(text, "Tgid", 10, &v, 1) != 1)
		return -EBADMSG;
	t->tgid = (pid_t)v;
	r = target_parse_levels(text, t);
	if (r < 0)
		return r;
	/* Umask: is there since Linux 4.7; without it we cannot create as the target would. */
	if (target_status_numbers(text, "Umask", 8, &v, 1) != 1)
		return -EOPNOTSUPP;
	t->umask = (mode_t)(v & 0777);
	if (target_status_numbers(text, "CapEff", 16, &v, 1) != 1)
		return -EBADMSG;
	t->cap_eff = t->raw_cap_eff = v;
	if (target_status_numbers(text, "CapPrm", 16, &v, 1) != 1)
		return -EBADMSG;
	t->cap_prm = t->raw_cap_prm = v;
	/* NoNewPrivs: is there since Linux 4.10; without it, an exec may grant. */
	t->nnp = target_status_numbers(text, "NoNewPrivs", 10, &v, 1) == 1 && v == 1;
	if (target_status_numbers(text, "SigIgn", 16, &v, 1) != 1)
		return -EBADMSG;
	t->sig_ignored = v;
	if (target_status_numbers(text, "SigCgt", 16, &v, 1) != 1)
		return -EBADMSG;
	t->sig_caught = v;
	return target_parse_groups(text, t);
}

/*
 * Capabilities count only in the target's own user namespace. Outside ours
 * they would be too strong here (root of a container is not root of the
 * host), so such a target is given none: stricter than the kernel, never
 * looser.
 */
static int target_check_userns(int procfd, struct target *t)
{
	struct target_fid ns;
	char name[64];
	int r;

	snprintf(name, sizeof(name), "%d/ns/user", (int)t->tid);
	r = target_fid_at(procfd, name, &ns);
	if (r < 0)
		return r;
	t->same_userns = ns.dev == self.userns.dev && ns.ino == self.userns.ino;
	if (!t->same_userns)
		t->cap_eff = t->cap_prm = 0;
	return 0;
}

/*
 * A device whose open binds the opener's network namespace (resolve-ns.c)
 * is looked at after a guessed open only when the target's differs: read
 * once per state kept, so an ordinary open in our namespace pays nothing.
 */
static int target_check_netns(int procfd, struct target *t)
{
	char name[64];
	int r;

	snprintf(name, sizeof(name), "%d/ns/net", (int)t->tid);
	r = resolve_ns_differs(procfd, name, "thread-self/ns/net");
	if (r < 0)
		return r;
	t->same_netns = r == 0;
	return 0;
}

/*
 * Two roots: the target's own now (where its absolute paths start and its
 * ".." stops), and the sandbox's pinned one (what names are relative to,
 * and where the supervising thread is chrooted while it acts).
 */
static int target_read_root(int procfd, unotify_listener *l, struct target *t)
{
	struct target_stat st;
	char name[64];
	int r;

	snprintf(name, sizeof(name), "%d/root", (int)t->tid);
	t->rootfd = openat(procfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->rootfd < 0)
		return negative_errno();
	r = target_fstat(t->rootfd, &st);
	if (r < 0)
		return r;
	t->root = st.fid;
	t->pinned_rootfd = l->root_fd;
	t->pinned_root = l->root;
	t->same_root = target_fid_equal(&t->pinned_root, &self.root);
	return 0;
}

int target_read(unotify_listener *l, const struct seccomp_notif *req, struct target *ret)
{
	struct target t = { .tid = (pid_t)req->pid, .rootfd = -1, .pinned_rootfd = -1 };
	_cleanup_free_ char *status = NULL;
	char name[64];
	int procfd;
	int r;

	if (req->pid == 0)
		return -ESRCH; /* not visible in our pid namespace */
	procfd = target_proc_fd();
	if (procfd < 0)
		return procfd;
	snprintf(name, sizeof(name), "%d/status", (int)t.tid);
	r = target_read_file(procfd, name, &status);
	if (r == 0)
		r = target_parse_status(status, &t);
	/* One pid namespace level: the thread is in ours (a thread never changes its own). */
	if (r == 0 && l->refuse_shared_pid && t.levels < 2)
		r = -EPERM;
	if (r == 0)
		r = target_check_userns(procfd, &t);
	if (r == 0)
		r = target_check_netns(procfd, &t);
	if (r == 0)
		r = target_read_root(procfd, l, &t);
	/*
	 * The thread may have died and its tid been reused while we read:
	 * what we read is our target's only while its notification is pending.
	 */
	if (unotify_id_valid(l, req->id) < 0)
		r = -ENOENT;
	if (r < 0) {
		target_release(&t);
		return r;
	}
	t.proves_reads = true;
	*ret = t;
	return 0;
}

/*
 * A state worth keeping: its root is the pinned root (then the pinned root
 * is borrowed for it), and its thread has a pidfd proved to be that thread
 * (ID_VALID after pidfd_open: the tid was still our target's). On a
 * listener that watches credentials its address space is opened before
 * that proof too, for this call's writes and the kept state's.
 */
static void target_keep(unotify_listener *l, const struct seccomp_notif *req, struct target *t,
			uint64_t epoch)
{
	struct target_mem *mem = NULL;
	int pidfd;

	if (!target_fid_equal(&t->root, &t->pinned_root))
		return;
	if (l->creds_watched)
		mem = target_mem_open(t->tid);
	pidfd = (int)syscall(SYS_pidfd_open, t->tid, PIDFD_THREAD);
	if (pidfd < 0) {
		mem = target_mem_unref(mem);
		return;
	}
	if (unotify_id_valid(l, req->id) < 0) {
		pidfd = safe_close(pidfd);
		mem = target_mem_unref(mem);
		return;
	}
	t->mem = mem;
	target_cache_put(l, t, pidfd, req->id, epoch);
}

int target_read_kept(unotify_listener *l, const struct seccomp_notif *req, bool view_fixed,
		     struct target *ret)
{
	uint64_t epoch = UINT64_MAX;
	int r;

	if (req->pid == 0)
		return -ESRCH;
	if (view_fixed) {
		r = target_cache_get(l, req, ret, &epoch);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	r = target_read(l, req, ret);
	if (r == 0 && view_fixed)
		target_keep(l, req, ret, epoch);
	return r;
}

void target_release(struct target *t)
{
	t->mem = target_mem_unref(t->mem);
	free(t->groups);
	t->groups = NULL;
	t->ngroups = 0;
	if (t->rootfd >= 0 && !t->rootfd_borrowed)
		t->rootfd = safe_close(t->rootfd);
	t->rootfd = -1;
}

/* v in decimal at buf (up to 10 digits, no NUL); returns how many. */
static size_t target_put_uint(char *buf, unsigned int v)
{
	char digits[10];
	size_t n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (size_t i = 0; i < n; i++)
		buf[i] = digits[n - 1 - i];
	return n;
}

/*
 * "TID/cwd" or "TID/fd/FD", built by hand: every relative path's decision
 * comes here, and snprintf (with emulate_guess_text's) showed in perf at
 * some 1 % of such a decision.
 */
int target_dir_link(const struct target *t, int dirfd, char *ret, size_t size)
{
	size_t n;

	if (dirfd != AT_FDCWD && dirfd < 0)
		return -EBADF;
	if (size < sizeof("4294967295/fd/4294967295"))
		return -ENAMETOOLONG;
	n = target_put_uint(ret, (unsigned int)t->tid);
	if (dirfd == AT_FDCWD) {
		memcpy(ret + n, "/cwd", sizeof("/cwd"));
		return 0;
	}
	memcpy(ret + n, "/fd/", 4);
	n += 4;
	n += target_put_uint(ret + n, (unsigned int)dirfd);
	ret[n] = '\0';
	return 0;
}

int target_open_dir(const struct target *t, int dirfd)
{
	char name[64];
	int procfd = target_proc_fd();
	int fd, r;

	if (procfd < 0)
		return procfd;
	r = target_dir_link(t, dirfd, name, sizeof(name));
	if (r < 0)
		return r;
	/* Following the magic link reaches the very file the target's fd refers to. */
	fd = openat(procfd, name, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT && dirfd != AT_FDCWD ? -EBADF : negative_errno();
	return fd;
}

int target_stat_dir(const struct target *t, int dirfd, struct target_stat *ret)
{
	char name[64];
	int procfd = target_proc_fd();
	int r;

	if (procfd < 0)
		return procfd;
	r = target_dir_link(t, dirfd, name, sizeof(name));
	if (r < 0)
		return r;
	/* The same magic link followed, without an fd to open and close. */
	r = target_statx(procfd, name, 0, ret);
	return r == -ENOENT && dirfd != AT_FDCWD ? -EBADF : r;
}

/* ---- Switching the thread ---- */

static int sys_capget(struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &h, data) < 0 ? negative_errno() : 0;
}

static int sys_capset(const struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capset, &h, data) < 0 ? negative_errno() : 0;
}

/* setfsuid() always returns the old value; asking again with -1 tells whether it took. */
static int sys_setfsuid(uid_t uid)
{
	syscall(SYS_setfsuid, uid);
	return (uid_t)syscall(SYS_setfsuid, (uid_t)-1) == uid ? 0 : -EPERM;
}

static int sys_setfsgid(gid_t gid)
{
	syscall(SYS_setfsgid, gid);
	return (gid_t)syscall(SYS_setfsgid, (gid_t)-1) == gid ? 0 : -EPERM;
}

static int sys_setgroups(size_t n, const gid_t *groups)
{
	return syscall(SYS_setgroups, n, groups) < 0 ? negative_errno() : 0;
}

/* The raw calls change this thread only (glibc's wrappers change every thread of the process). */
static int sys_setresgid(gid_t r, gid_t e, gid_t s)
{
	return syscall(SYS_setresgid, r, e, s) < 0 ? negative_errno() : 0;
}

static int sys_seteuid(uid_t e)
{
	return syscall(SYS_setresuid, (uid_t)-1, e, (uid_t)-1) < 0 ? negative_errno() : 0;
}

static void target_atfork_child(void)
{
	self.creds_known = false;
}

/* Frees a supervising thread's copy of its groups when the thread ends (pool workers do). */
static pthread_key_t self_groups_key;
static bool self_groups_key_made;

static void target_self_groups_free(void *groups)
{
	free(groups);
}

static void target_atfork(void)
{
	pthread_atfork(NULL, NULL, target_atfork_child);
	/* Without a key (no memory for one), a thread's few bytes of groups outlive it. */
	self_groups_key_made = pthread_key_create(&self_groups_key, target_self_groups_free) == 0;
}

static int target_self_creds(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int n;
	int r;

	if (self.creds_known)
		return 0;
	pthread_once(&once, target_atfork);
	r = sys_capget(self.caps);
	if (r < 0)
		return r;
	self.euid = geteuid();
	if (getresgid(&self.gid, &self.egid, &self.sgid) < 0)
		return negative_errno();
	self.fsuid = (uid_t)syscall(SYS_setfsuid, (uid_t)-1);
	self.fsgid = (gid_t)syscall(SYS_setfsgid, (gid_t)-1);
	n = getgroups(0, NULL);
	if (n < 0)
		return negative_errno();
	free(self.groups);
	self.groups = calloc((size_t)n + 1, sizeof(gid_t));
	if (self_groups_key_made)
		pthread_setspecific(self_groups_key, self.groups);
	if (!self.groups)
		return -ENOMEM;
	n = getgroups(n, self.groups);
	if (n < 0)
		return negative_errno();
	self.ngroups = n;
	self.creds_known = true;
	return 0;
}

/* Ours, to come back to: read once per thread (self), then copied. */
static int target_save(struct target_saved *s)
{
	int r = target_self_creds();

	if (r < 0)
		return r;
	memcpy(s->caps, self.caps, sizeof(s->caps));
	s->euid = self.euid;
	s->gid = self.gid;
	s->egid = self.egid;
	s->sgid = self.sgid;
	s->fsuid = self.fsuid;
	s->fsgid = self.fsgid;
	s->groups = self.groups; /* borrowed */
	s->ngroups = self.ngroups;
	return 0;
}

static int target_chroot(const struct target *t, struct target_saved *s)
{
	s->rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->rootfd < 0)
		return negative_errno();
	s->cwdfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->cwdfd < 0)
		return negative_errno();
	if (fchdir(t->pinned_rootfd) < 0)
		return negative_errno();
	s->cwd_moved = true;
	if (chroot(".") < 0)
		return negative_errno();
	s->chrooted = true;
	return 0;
}

static bool target_groups_equal(const struct target *t, const struct target_saved *s)
{
	return t->ngroups == (size_t)s->ngroups &&
	       (t->ngroups == 0 || memcmp(t->groups, s->groups, t->ngroups * sizeof(gid_t)) == 0);
}

/* The real, effective and saved gids, then fsgid (which setresgid sets to the effective one). */
static int target_switch_gids(const struct target *t, struct target_saved *s)
{
	gid_t fsgid = s->fsgid;
	int r;

	if (t->gid != s->gid || t->egid != s->egid || t->sgid != s->sgid) {
		s->resgid_set = true;
		r = sys_setresgid(t->gid, t->egid, t->sgid);
		if (r < 0)
			return r;
		fsgid = t->egid;
	}
	if (t->fsgid == fsgid)
		return 0;
	s->ids_set = true;
	return sys_setfsgid(t->fsgid);
}

/*
 * The effective uid, then fsuid (which seteuid sets to the effective one).
 * Not the real and saved uids: the kernel lets a process signal a thread,
 * or change its process's limits (prlimit), by those, and any process of
 * the target's uid would then kill or stop the supervisor while it acts.
 * Kept ours, they also keep the permitted set when the effective uid
 * leaves 0 (only the effective set empties, and is set below).
 */
static int target_switch_uids(const struct target *t, struct target_saved *s)
{
	uid_t fsuid = s->fsuid;
	int r;

	if (t->euid != s->euid) {
		s->euid_set = true;
		r = sys_seteuid(t->euid);
		if (r < 0)
			return r;
		fsuid = t->euid;
		/* Leaving euid 0 emptied the effective set: a fsuid of no id of ours needs it. */
		if (t->fsuid != fsuid && s->euid == 0) {
			r = sys_capset(s->caps);
			if (r < 0)
				return r;
		}
	}
	if (t->fsuid == fsuid)
		return 0;
	s->ids_set = true;
	return sys_setfsuid(t->fsuid);
}

/*
 * Groups, gids (real, effective, saved, file-system), the effective and
 * file-system uids (a check that asks for the effective one, cgroup v1's
 * writer, a sysctl's owner, FUSE's mounter check, must see the target's
 * and never our root), then capabilities: the target's, within our
 * permitted set.
 */
static int target_switch_ids(const struct target *t, struct target_saved *s)
{
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	int r;

	/* Only when they differ: an unprivileged supervisor can then act for its own kind. */
	if (!target_groups_equal(t, s)) {
		r = sys_setgroups(t->ngroups, t->groups);
		if (r < 0)
			return r;
		s->groups_set = true;
	}
	r = target_switch_gids(t, s);
	if (r == 0)
		r = target_switch_uids(t, s);
	if (r < 0)
		return r;
	memcpy(caps, s->caps, sizeof(caps));
	caps[0].effective = (uint32_t)t->cap_eff & caps[0].permitted;
	caps[1].effective = (uint32_t)(t->cap_eff >> 32) & caps[1].permitted;
	/* Leaving uid or fsuid 0 may have cleared capabilities: set them whenever ids moved. */
	if (!s->ids_set && !s->euid_set && !s->resgid_set && memcmp(caps, s->caps, sizeof(caps)) == 0)
		return 0;
	s->caps_set = true;
	return sys_capset(caps);
}

static int target_switch(const struct target *t, unsigned int what, struct target_saved *s)
{
	int r;

	if ((what & TARGET_ENTER_ROOT) && !t->same_root) {
		r = target_chroot(t, s);
		if (r < 0)
			return r;
	}
	if (what & TARGET_ENTER_UMASK) {
		s->umask = umask(t->umask);
		s->umask_set = true;
	}
	return target_switch_ids(t, s);
}

/* What target_enter() is doing on this thread now, for target_suspend(). */
static __thread struct {
	const struct target *t;
	struct target_saved *s;
	bool suspended;
} active;

int target_enter(const struct target *t, struct target_saved *s)
{
	return target_enter_as(t, TARGET_ENTER_ROOT | TARGET_ENTER_UMASK, s);
}

int target_enter_as(const struct target *t, unsigned int what, struct target_saved *s)
{
	int r;

	*s = (struct target_saved){ .rootfd = -1, .cwdfd = -1 };
	if (self.broken)
		return -ENOTRECOVERABLE;
	if (!self.ready)
		return -EINVAL;
	r = target_save(s);
	if (r < 0)
		return r; /* nothing changed yet */
	s->entered = true;
	r = target_switch(t, what, s);
	if (r < 0) {
		int q = target_leave(s);

		return q < 0 ? q : r;
	}
	active.t = t;
	active.s = s;
	active.suspended = false;
	return 0;
}

static int target_restore_root(struct target_saved *s)
{
	int r = 0;

	if (s->chrooted && (fchdir(s->rootfd) < 0 || chroot(".") < 0))
		r = negative_errno();
	if (s->cwd_moved && fchdir(s->cwdfd) < 0 && r == 0)
		r = negative_errno();
	return r;
}

static int target_restore_caps(struct target_saved *s)
{
	struct __user_cap_data_struct now[_LINUX_CAPABILITY_U32S_3];
	int r;

	r = sys_capget(now);
	if (r < 0)
		return r;
	if (memcmp(now, s->caps, sizeof(now)) == 0)
		return 0;
	r = sys_capset(s->caps);
	if (r < 0)
		return r;
	r = sys_capget(now);
	if (r < 0)
		return r;
	return memcmp(now, s->caps, sizeof(now)) == 0 ? 0 : -EPERM;
}

/* Undoes target_switch_ids(); the flags stay, for target_resume() to do it again. */
static int target_restore_ids(struct target_saved *s)
{
	bool moved = s->caps_set || s->ids_set || s->euid_set || s->resgid_set;
	int r = 0;

	/* Capabilities first: seteuid, setresgid, setfsuid and setgroups need them back. */
	if (moved && sys_capset(s->caps) < 0)
		r = -EPERM;
	if (s->euid_set && sys_seteuid(s->euid) < 0)
		r = -EPERM;
	if (s->resgid_set && sys_setresgid(s->gid, s->egid, s->sgid) < 0)
		r = -EPERM;
	/* seteuid and setresgid set the file-system ids to the effective ones. */
	if ((s->ids_set || (s->euid_set && s->fsuid != s->euid)) && sys_setfsuid(s->fsuid) < 0)
		r = -EPERM;
	if ((s->ids_set || (s->resgid_set && s->fsgid != s->egid)) && sys_setfsgid(s->fsgid) < 0)
		r = -EPERM;
	if (s->groups_set && sys_setgroups((size_t)s->ngroups, s->groups) < 0)
		r = -EPERM;
	/* Returning to euid 0 raises capabilities from the permitted set: put ours back exactly. */
	if (moved && target_restore_caps(s) < 0)
		r = -EPERM;
	return r;
}

static int target_broken(void)
{
	self.broken = true;
	return -ENOTRECOVERABLE;
}

int target_suspend(void)
{
	if (!active.s || active.suspended)
		return self.broken ? -ENOTRECOVERABLE : 0;
	active.suspended = true;
	return target_restore_ids(active.s) < 0 ? target_broken() : 0;
}

int target_resume(void)
{
	if (self.broken)
		return -ENOTRECOVERABLE;
	if (!active.s || !active.suspended)
		return self.broken ? -ENOTRECOVERABLE : 0;
	active.suspended = false;
	return target_switch_ids(active.t, active.s) < 0 ? target_broken() : 0;
}

int target_leave(struct target_saved *s)
{
	int r = 0;

	if (!s->entered)
		return self.broken ? -ENOTRECOVERABLE : 0;
	s->entered = false;
	if (active.s == s) {
		/* Suspended: the ids are ours already; restoring them again is harmless. */
		active.s = NULL;
		active.t = NULL;
		active.suspended = false;
	}
	if (target_restore_ids(s) < 0)
		r = -EPERM;
	if (s->umask_set)
		umask(s->umask);
	if (target_restore_root(s) < 0)
		r = -EPERM;
	s->groups = NULL; /* self's */
	if (s->rootfd >= 0)
		s->rootfd = safe_close(s->rootfd);
	if (s->cwdfd >= 0)
		s->cwdfd = safe_close(s->cwdfd);
	s->rootfd = s->cwdfd = -1;
	if (r < 0)
		return target_broken();
	return 0;
}
