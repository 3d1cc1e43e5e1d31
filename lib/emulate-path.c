/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The target of a notification, and path arguments resolved as the target
 * would resolve them (resolve.c's walk, run in the target's shoes), for
 * every call that takes a path, not only opens. Three ways of walking:
 * the whole path following a final symlink (stat, chmod, truncate...), not
 * following it (lstat, readlink, lchown), or up to the parent of the last
 * component, which is then the name the call acts on (unlink, mkdir,
 * rename...): the call is performed by its *at variant on that pinned
 * parent, so nothing is ever looked up by the whole path a second time.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emulate.h"
#include "internal.h"
#include "spare.h"
#include "uapi.h"
#include "util.h"

/* Zeroed, as a new one: from this thread's spare (spare.c) when it has one. */
static unotify_target *target_alloc(void)
{
	unotify_target *t = spare_take(SPARE_TARGET, sizeof(*t));

	if (t)
		*t = (unotify_target){ 0 };
	return t;
}

static void target_dealloc(unotify_target *t)
{
	spare_give(SPARE_TARGET, t, sizeof(*t));
}

static int target_new(unotify_listener *l, const struct seccomp_notif *req, bool kept,
		      bool view_fixed, unotify_target **ret)
{
	unotify_target *t;
	int r;

	if (!l || !req || !ret)
		return -EINVAL;
	r = unotify_thread_init();
	if (r < 0)
		return r;
	t = target_alloc();
	if (!t)
		return -ENOMEM;
	t->l = l;
	t->id = req->id;
	t->nr = req->data.nr;
	t->pidfd = -1;
	r = kept ? target_read_kept(l, req, view_fixed, &t->t) : target_read(l, req, &t->t);
	if (r < 0) {
		target_dealloc(t);
		return r;
	}
	*ret = t;
	return 0;
}

int unotify_target_new(unotify_listener *l, const struct seccomp_notif *req, unotify_target **ret)
{
	return target_new(l, req, false, false, ret);
}

int unotify_target_new_kept(unotify_listener *l, const struct seccomp_notif *req, bool view_fixed,
			    unotify_target **ret)
{
	return target_new(l, req, true, view_fixed, ret);
}

bool unotify_target_proves_reads(const unotify_target *t)
{
	return t && t->t.proves_reads;
}

int unotify_target_mem_write(unotify_target *t, uint64_t addr, const void *buf, size_t len)
{
	if (t->t.mem)
		return target_mem_write(t->t.mem, addr, buf, len);
	return memory_write_proved(t->l, t->id, t->t.tid, addr, buf, len);
}

void unotify_target_free(unotify_target *t)
{
	if (!t)
		return;
	target_release(&t->t);
	if (t->pidfd >= 0)
		t->pidfd = safe_close(t->pidfd);
	target_dealloc(t);
}

void unotify_target_use_real_ids(unotify_target *t)
{
	t->t.fsuid = t->t.uid;
	t->t.fsgid = t->t.gid;
	/*
	 * access_override_creds() gives root its permitted set and anyone else
	 * none, unless SECBIT_NO_SETUID_FIXUP is set: then the effective set
	 * stays as it is. /proc does not show a task's securebits, so take the
	 * smaller set of the two cases: root keeps its effective set (within
	 * its permitted one), anyone else has none. Never more than the kernel
	 * grants; less only to root that lowered its effective set without the
	 * bit, or to another uid that kept one with it (EACCES where the kernel
	 * says yes: the program can raise the set and ask again).
	 */
	if (t->t.uid != 0)
		t->t.cap_eff = 0;
}

/*
 * A pidfd whose fd table is the calling thread's. The thread's own pidfd
 * (PIDFD_THREAD, 6.9) when the kernel has them; else the process's, which
 * has the same table unless the thread unshared it (kcmp tells).
 */
static int target_pidfd(unotify_target *t)
{
	int fd;

	if (t->pidfd >= 0)
		return t->pidfd;
	fd = (int)syscall(SYS_pidfd_open, t->t.tid, PIDFD_THREAD);
	if (fd < 0 && errno == EINVAL) {
		fd = (int)syscall(SYS_pidfd_open, t->t.tgid, 0);
		if (fd >= 0 && t->t.tgid != t->t.tid &&
		    syscall(SYS_kcmp, t->t.tgid, t->t.tid, KCMP_FILES, 0, 0) != 0) {
			fd = safe_close(fd);
			return -EOPNOTSUPP;
		}
	}
	if (fd < 0)
		return errno == ESRCH ? -ENOENT : negative_errno();
	/* The numbers name our target only while its notification is pending. */
	if (unotify_id_valid(t->l, t->id) < 0) {
		fd = safe_close(fd);
		return -ENOENT;
	}
	t->pidfd = fd;
	return fd;
}

int unotify_target_getfd(unotify_target *t, int fd)
{
	int pidfd = target_pidfd(t);
	int copy;

	if (pidfd < 0)
		return pidfd;
	if (fd < 0)
		return -EBADF;
	copy = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (copy < 0)
		return errno == ESRCH ? -ENOENT : negative_errno();
	return copy;
}

int unotify_target_signal(unotify_target *t, int sig)
{
	int pidfd = target_pidfd(t);

	if (pidfd < 0)
		return pidfd;
	if (syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0) < 0)
		return errno == ESRCH ? -ENOENT : negative_errno();
	return 0;
}

enum unotify_sig_disposition unotify_target_sig_disposition(unotify_target *t, int sig)
{
	uint64_t bit = sig >= 1 && sig <= 64 ? UINT64_C(1) << (sig - 1) : 0;

	if (t->t.sig_ignored & bit)
		return UNOTIFY_SIG_IGNORED;
	return (t->t.sig_caught & bit) ? UNOTIFY_SIG_CAUGHT : UNOTIFY_SIG_DEFAULT;
}

int emulate_enter(unotify_target *t, struct target_saved *s)
{
	return target_enter(&t->t, s);
}

int emulate_enter_as(unotify_target *t, unsigned int what, struct target_saved *s)
{
	return target_enter_as(&t->t, what, s);
}

/* The lookup of a guess, or of a proof: from the pinned root, exact or refused. */
static int guess_lookup(const unotify_target *t, const char *path, uint64_t flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	int fd = (int)syscall(SYS_openat2, t->t.pinned_rootfd, path, &how, sizeof(how));

	return fd < 0 ? negative_errno() : fd;
}

/*
 * The name of the directory a relative path starts from, proved: the last
 * name it had (kept per listener) or the kernel's text for it, looked up
 * again from the pinned root with no symlink and no mount crossed, must
 * reach that very directory. 1 and the name, 0: none that can be proved.
 */
static int guess_start_name(unotify_target *t, int dirfd, char *name, size_t size)
{
	_cleanup_close_ int proof = -1;
	struct target_stat st, at;
	char link[64];
	ssize_t n;

	/* The directory itself, through its magic link (no fd: the proof below names it). */
	if (target_stat_dir(&t->t, dirfd, &st) < 0 || !S_ISDIR(st.mode))
		return 0;
	if (!target_cache_dir_get(t->l, &st.fid, name, size)) {
		/* The kernel's text for it, as readlink of an fd of ours on it would give. */
		if (target_dir_link(&t->t, dirfd, link, sizeof(link)) < 0)
			return 0;
		n = readlinkat(target_proc_fd(), link, name, size);
		if (n <= 0 || (size_t)n >= size || name[0] != '/')
			return 0;
		name[n] = '\0';
	}
	proof = guess_lookup(t, name, O_PATH | O_DIRECTORY);
	if (proof < 0 || target_fstat(proof, &at) < 0 || !target_fid_equal(&at.fid, &st.fid))
		return 0;
	target_cache_dir_put(t->l, &st.fid, name);
	/* The cwd (dirfd) was read by the thread's number: it was still our target's. */
	return unotify_id_valid(t->l, t->id) < 0 ? -ENOENT : 1;
}

int emulate_guess_text(unotify_target *t, int dirfd, const char *path, char **ret)
{
	_cleanup_free_ char *name = NULL;
	size_t len, plen;
	int r;

	*ret = NULL;
	if (!path || !path[0] || strnlen(path, PATH_MAX) >= PATH_MAX ||
	    !target_fid_equal(&t->t.root, &t->t.pinned_root))
		return 0;
	if (path[0] == '/')
		return 1;
	name = malloc(PATH_MAX);
	if (!name)
		return -ENOMEM;
	r = guess_start_name(t, dirfd, name, PATH_MAX);
	if (r <= 0)
		return r;
	len = strlen(name);
	plen = strlen(path);
	if (len + 1 + plen >= PATH_MAX)
		return 0;
	/* "/" + path, or name + "/" + path: the kernel walks it, ".." included. */
	if (len > 1)
		name[len++] = '/';
	memcpy(name + len, path, plen + 1);
	*ret = steal_pointer(&name);
	return 1;
}

int emulate_guess_openat2(const unotify_target *t, const char *path, uint64_t flags)
{
	int fd = guess_lookup(t, path, flags);

	switch (fd) {
	case -ELOOP:  /* a symlink (or the target's O_NOFOLLOW on one: the walk tells) */
	case -EXDEV:  /* a mount crossed: procfs, or any other the walk must look at */
	case -EAGAIN: /* a rename or mount raced a "..", or a lease (O_NONBLOCK) */
	case -ENXIO:  /* a FIFO without reader, a socket: the walk's open waits or refuses */
	case -ENOSYS: /* no openat2 (Linux < 5.6) */
	/*
	 * A relative path's text walks from the pinned root through its
	 * start's ancestors, whose search permission the target's own walk
	 * (from its start) never needs: a program that chdir'ed and then
	 * dropped its ids. The walk answers as the kernel would.
	 */
	case -EACCES:
		return -UNOTIFY_EGUESS;
	default:
		return fd;
	}
}

int emulate_leave(struct target_saved *s, int r)
{
	int q = target_leave(s);

	return q < 0 ? q : r;
}

void emulate_fd_link(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "self/fd/%d", fd);
}

int emulate_fd_cwd_link(int fd, char *buf, size_t size)
{
	if (fchdir(target_proc_fd()) < 0)
		return negative_errno();
	emulate_fd_link(fd, buf, size);
	return 0;
}

/* ---- Resolution ---- */

/* The file the target's dirfd refers to (AT_EMPTY_PATH), named as the target sees it. */
static int path_resolve_empty(unotify_target *t, int dirfd, struct unotify_path *ret)
{
	_cleanup_close_ int fd = target_open_dir(&t->t, dirfd);
	struct target_saved saved;
	struct target_stat st;
	int r;

	if (fd < 0) {
		if (fd != -EBADF)
			return fd;
		ret->error = EBADF;
		strcpy(ret->path, "/");
		return 0;
	}
	r = target_fstat(fd, &st);
	if (r < 0)
		return r;
	r = emulate_enter_as(t, TARGET_ENTER_ROOT, &saved);
	if (r < 0)
		return r;
	r = emulate_leave(&saved, resolve_fd_name(&t->t, fd, ret->path, sizeof(ret->path),
						  &ret->unnamed));
	if (r < 0)
		return r;
	/*
	 * A descriptor it holds with no name under the pinned root (its stdout
	 * redirected, before the sandbox had a mount namespace of its own, to a
	 * file on the parent's mounts): named by its own link, as resolve.c
	 * names what a magic link leads to.
	 */
	if (ret->unnamed) {
		if (dirfd == AT_FDCWD)
			snprintf(ret->path, sizeof(ret->path), "/proc/%d/cwd", (int)t->t.ns_tgid);
		else
			snprintf(ret->path, sizeof(ret->path), "/proc/%d/fd/%d", (int)t->t.ns_tgid,
				 dirfd);
		ret->unnamed = false;
	}
	ret->type = st.mode & S_IFMT;
	ret->fd = TAKE_FD(fd);
	return 0;
}

/* resolve_walk() in the target's shoes; flags: O_PATH plus O_NOFOLLOW or O_DIRECTORY. */
static int path_walk(unotify_target *t, int dirfd, const char *path, int flags,
		     struct resolved *res)
{
	struct resolve_how rh = { .start = -1, .path = path, .flags = (uint64_t)flags };
	_cleanup_close_ int start = -1;
	struct target_saved saved;
	int r;

	res->fd = -1;
	if (path[0] != '/') {
		start = target_open_dir(&t->t, dirfd);
		if (start < 0) {
			if (start != -EBADF)
				return start;
			res->error = EBADF;
			return resolve_lexical("/", path, res->path, sizeof(res->path));
		}
		rh.start = start;
	}
	/* The kernel's lookup first (no chroot), the walk where it cannot settle it. */
	r = emulate_enter_as(t, 0, &saved);
	if (r < 0)
		return r;
	r = emulate_leave(&saved, resolve_kernel(&t->t, &rh, res));
	if (r != 0) {
		if (r < 0 && res->fd >= 0)
			res->fd = safe_close(res->fd);
		return r < 0 ? r : 0;
	}
	r = emulate_enter_as(t, TARGET_ENTER_ROOT, &saved);
	if (r < 0)
		return r;
	r = emulate_leave(&saved, resolve_walk(&t->t, &rh, res));
	if (r < 0 && res->fd >= 0) {
		res->fd = safe_close(res->fd);
		res->fd = -1;
	}
	return r;
}

static int path_resolve_whole(unotify_target *t, const struct unotify_path_how *how,
			      struct unotify_path *ret)
{
	_cleanup_free_ struct resolved *res = calloc(1, sizeof(*res));
	int flags = O_PATH | (how->walk == UNOTIFY_WALK_NOFOLLOW ? O_NOFOLLOW : 0);
	int r;

	if (!res)
		return -ENOMEM;
	r = path_walk(t, how->dirfd, how->path, flags, res);
	if (r < 0)
		return r;
	memcpy(ret->path, res->path, sizeof(ret->path));
	ret->error = res->error;
	ret->unnamed = res->unnamed;
	if (res->error == 0) {
		ret->fd = res->fd;
		ret->type = res->type;
		memcpy(ret->link, res->link, sizeof(ret->link));
	} else if (res->fd >= 0) {
		res->fd = safe_close(res->fd);
	}
	return 0;
}

/*
 * Splits path as the kernel's filename_parentat() does: the directory part
 * (NULL: the start directory), the last component and whether slashes
 * followed it. "/" is its own last component (LAST_ROOT).
 */
static int path_split(const char *path, char *dir, size_t dir_size, char *last, size_t last_size,
		      bool *ret_trailing)
{
	size_t len = strlen(path), cut;
	bool trailing = false;
	const char *slash;

	while (len > 1 && path[len - 1] == '/') {
		len--;
		trailing = true;
	}
	if (len == 1 && path[0] == '/') {
		snprintf(dir, dir_size, "/");
		snprintf(last, last_size, "/");
		*ret_trailing = false;
		return 0;
	}
	slash = memrchr(path, '/', len);
	cut = slash ? (size_t)(slash - path) + 1 : 0;
	if (cut >= dir_size || len - cut >= last_size)
		return -ENAMETOOLONG;
	memcpy(dir, path, cut);
	dir[cut] = '\0';
	if (cut == 0)
		strcpy(dir, ".");
	memcpy(last, path + cut, len - cut);
	last[len - cut] = '\0';
	*ret_trailing = trailing;
	return 0;
}

/* What the policy sees for a parent walk: the parent and the name, "." and ".." folded. */
static int path_parent_name(const char *dir, const char *last, char *out, size_t size)
{
	if (strcmp(last, "/") == 0)
		return resolve_lexical("/", "/", out, size);
	return resolve_lexical(dir, last, out, size);
}

static int path_resolve_parent(unotify_target *t, const struct unotify_path_how *how,
			       struct unotify_path *ret)
{
	_cleanup_free_ struct resolved *res = calloc(1, sizeof(*res));
	_cleanup_free_ char *dir = malloc(PATH_MAX);
	char last[NAME_MAX + 2];
	bool trailing;
	int r;

	if (!res || !dir)
		return -ENOMEM;
	r = path_split(how->path, dir, PATH_MAX, last, sizeof(last), &trailing);
	if (r == -ENAMETOOLONG) {
		/* A last component over NAME_MAX: the kernel's lookup of it fails so. */
		ret->error = ENAMETOOLONG;
		return resolve_lexical("/", how->path, ret->path, sizeof(ret->path));
	}
	if (r < 0)
		return r;
	r = path_walk(t, how->dirfd, dir, O_PATH | O_DIRECTORY, res);
	if (r < 0)
		return r;
	ret->error = res->error;
	ret->unnamed = res->unnamed;
	if (res->error) {
		if (res->fd >= 0)
			res->fd = safe_close(res->fd);
		return path_parent_name(res->path, last, ret->path, sizeof(ret->path));
	}
	ret->fd = res->fd;
	snprintf(ret->name, sizeof(ret->name), "%s%s", last, trailing ? "/" : "");
	return path_parent_name(res->path, last, ret->path, sizeof(ret->path));
}

void unotify_path_init(struct unotify_path *p)
{
	p->path[0] = '\0';
	p->error = 0;
	p->type = 0;
	p->fd = -1;
	p->name[0] = '\0';
	p->link[0] = '\0';
	p->unnamed = false;
	p->guessed = false;
	p->text = NULL;
	p->owned = NULL;
	p->nofollow = false;
}

int unotify_path_resolve(unotify_target *t, const struct unotify_path_how *how,
			 struct unotify_path *ret)
{
	bool empty;
	int r;

	if (!t || !how || !ret || (!how->path && !how->empty_path))
		return -EINVAL;
	unotify_path_init(ret);
	empty = !how->path || how->path[0] == '\0';
	if (empty && how->empty_path && how->walk != UNOTIFY_WALK_PARENT)
		r = path_resolve_empty(t, how->dirfd, ret);
	else if (empty) {
		ret->error = ENOENT;
		r = resolve_lexical("/", "", ret->path, sizeof(ret->path));
	} else if (strnlen(how->path, PATH_MAX) >= PATH_MAX) {
		ret->error = ENAMETOOLONG;
		r = resolve_lexical("/", "", ret->path, sizeof(ret->path));
	} else if (how->walk == UNOTIFY_WALK_PARENT)
		r = path_resolve_parent(t, how, ret);
	else if (how->guess && (r = emulate_guess_text(t, how->dirfd, how->path, &ret->owned)) != 0) {
		/* Nothing looked up: no ID_VALID owed for it (the caller's memory read proved the rest). */
		if (r < 0)
			return r;
		ret->guessed = true;
		ret->text = ret->owned ? ret->owned : how->path;
		ret->nofollow = how->walk == UNOTIFY_WALK_NOFOLLOW;
		return resolve_lexical("/", ret->text, ret->path, sizeof(ret->path));
	} else
		r = path_resolve_whole(t, how, ret);
	/* Whatever we resolved is the target's only while its call is pending. */
	if (r == 0 && unotify_id_valid(t->l, t->id) < 0)
		r = -ENOENT;
	if (r < 0) {
		unotify_path_release(ret);
		return r;
	}
	if (ret->error && ret->fd >= 0) {
		ret->fd = safe_close(ret->fd);
		ret->fd = -1;
	}
	return 0;
}

void unotify_path_release(struct unotify_path *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		p->fd = safe_close(p->fd);
	p->fd = -1;
	free(p->owned);
	p->owned = NULL;
	p->text = NULL;
}
