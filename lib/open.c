/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Opens performed on the target's behalf (the target: emulate-path.c, the
 * one handle every performed call uses). A supervisor must never decide on
 * a path read from the target's memory and then let the kernel run the call
 * (CONTINUE): another thread of the target can change the memory in between.
 * So the supervisor resolves the path itself, as the target (target.c,
 * resolve.c), lets the policy decide on the result, and performs the open on
 * exactly what was resolved: the file is reopened through its O_PATH fd, a
 * new one is created by name in its pinned parent directory, never by path
 * again. The fd is then injected (ADDFD with SEND) by the caller.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emulate.h"
#include "internal.h"
#include "spare.h"
#include "target.h"
#include "uapi.h"
#include "util.h"

#define OPEN_VALID_RESOLVE                                                                 \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
	 RESOLVE_IN_ROOT | RESOLVE_CACHED)

/*
 * The kernel's own O_* values where glibc's differ: glibc's O_LARGEFILE is 0
 * on 64-bit ABIs, its O_TMPFILE and O_SYNC include O_DIRECTORY and O_DSYNC.
 */
#if defined(__aarch64__) || defined(__arm__)
#define KERNEL_O_LARGEFILE 0400000
#elif defined(__powerpc__)
#define KERNEL_O_LARGEFILE 0200000
#else
#define KERNEL_O_LARGEFILE 0100000
#endif
#define KERNEL_O_TMPFILE (O_TMPFILE & ~O_DIRECTORY)
#define KERNEL_O_SYNC    (O_SYNC & ~O_DSYNC)
#define OPEN_VALID_FLAGS                                                                   \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DSYNC | \
	 O_ASYNC | O_DIRECT | KERNEL_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |     \
	 O_CLOEXEC | O_PATH | KERNEL_O_SYNC | KERNEL_O_TMPFILE)
#define OPEN_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)

/* Behind plan->context: what perform needs besides the public fields. */
struct open_context {
	unotify_target *t;  /* the listener and notification: is the call still on (a FIFO) */
	bool owns_target;   /* made by unotify_open_prepare */
	uint64_t flags;  /* as the kernel keeps them after build_open_flags() */
	uint64_t resolve;
	mode_t mode;
	mode_t type;     /* S_IFMT of what was resolved */
	char *text;      /* guessed: the target's path, looked up once by perform */
	/* A copy of the target's absolute path, when text is that; not zeroed on reuse. */
	char text_buf[PATH_MAX];
};

/* The caller's path may be gone when perform runs: copied, if it fits; NULL if not. */
static char *open_copy_text(struct open_context *c, const char *path)
{
	size_t len = strnlen(path, sizeof(c->text_buf));

	if (len >= sizeof(c->text_buf))
		return NULL;
	return memcpy(c->text_buf, path, len + 1);
}

/* From this thread's spare (spare.c): the header zeroed, the buffer not. */
static struct open_context *open_context_new(void)
{
	struct open_context *c = spare_take(SPARE_OPEN_CONTEXT, sizeof(*c));

	/* The header before the buffer: text NULL until a guess sets it. */
	if (c)
		memset(c, 0, offsetof(struct open_context, text_buf));
	return c;
}

static void open_context_free(struct open_context *c)
{
	if (!c)
		return;
	if (c->text != c->text_buf)
		free(c->text);
	spare_give(SPARE_OPEN_CONTEXT, c, sizeof(*c));
}

/*
 * build_open_how() and build_open_flags(): open/openat/creat silently drop
 * what is unknown, openat2 refuses it. Returns the errno the target's call
 * fails with before any lookup, or 0.
 */
static int open_flags_check(int nr, const struct unotify_open_how *how, struct open_context *c)
{
	uint64_t flags = how->flags;
	uint64_t mode = how->mode;

	c->resolve = 0;
	if (nr != SYS_openat2) {
		flags = (unsigned int)flags & OPEN_VALID_FLAGS;
		if (flags & O_PATH)
			flags &= OPEN_PATH_FLAGS;
		mode &= 07777;
		if (!(flags & (O_CREAT | KERNEL_O_TMPFILE)))
			mode = 0;
	} else {
		if (flags & ~(uint64_t)OPEN_VALID_FLAGS)
			return EINVAL;
		if (how->resolve & ~(uint64_t)OPEN_VALID_RESOLVE)
			return EINVAL;
		if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT))
			return EINVAL;
		if ((flags & (O_CREAT | KERNEL_O_TMPFILE)) ? (mode & ~07777ULL) != 0 : mode != 0)
			return EINVAL;
		c->resolve = how->resolve;
	}
	c->flags = flags & ~(uint64_t)O_CLOEXEC;
	c->mode = (mode_t)mode;
	if ((flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT))
		return EINVAL;
	if ((flags & KERNEL_O_TMPFILE) &&
	    (!(flags & O_DIRECTORY) || (flags & O_ACCMODE) == O_RDONLY))
		return EINVAL;
	if ((flags & O_PATH) && (flags & ~(uint64_t)OPEN_PATH_FLAGS))
		return EINVAL;
	if ((c->resolve & RESOLVE_CACHED) && (flags & (O_TRUNC | O_CREAT | KERNEL_O_TMPFILE)))
		return EAGAIN;
	return 0;
}

/* Resolves in the target's shoes; returns -errno only for our own failures. */
static int open_resolve(const struct unotify_open_how *how, struct open_context *c,
			struct resolved *res)
{
	struct resolve_how rh = {
		.start = -1, .path = how->path, .flags = c->flags, .resolve = c->resolve,
	};
	_cleanup_close_ int start = -1;
	struct target_saved saved;
	int r, q;

	/* The dirfd matters only to a relative path (or any path in RESOLVE_IN_ROOT). */
	if (how->path[0] != '/' || (c->resolve & RESOLVE_IN_ROOT)) {
		start = target_open_dir(&c->t->t, how->dirfd);
		if (start < 0) {
			res->error = -start == ENOENT ? EBADF : -start;
			return resolve_lexical("/", how->path, res->path, sizeof(res->path));
		}
		rh.start = start;
	}
	/* The kernel's lookup first (no chroot), the walk where it cannot settle it. */
	r = target_enter_as(&c->t->t, 0, &saved);
	if (r < 0)
		return r;
	r = resolve_kernel(&c->t->t, &rh, res);
	q = target_leave(&saved);
	if (q < 0 || r != 0) {
		if (q < 0 && res->fd >= 0)
			res->fd = safe_close(res->fd);
		return q < 0 ? q : r < 0 ? r : 0;
	}
	r = target_enter_as(&c->t->t, TARGET_ENTER_ROOT, &saved);
	if (r < 0)
		return r;
	r = resolve_walk(&c->t->t, &rh, res);
	q = target_leave(&saved);
	if (q < 0) {
		if (res->fd >= 0)
			res->fd = safe_close(res->fd);
		res->fd = -1;
		return q;
	}
	return r;
}

static void open_fill_plan(struct unotify_open_plan *plan, const struct unotify_open_how *how,
			   const struct resolved *res)
{
	memcpy(plan->path, res->path, sizeof(plan->path));
	plan->error = res->error;
	plan->unnamed = res->unnamed;
	plan->creates = res->error == 0 && res->creates;
	plan->pathfd = res->error == 0 ? res->fd : -1;
	memcpy(plan->base, res->base, sizeof(plan->base));
	plan->how = *how;
	plan->how.path = NULL; /* the caller's buffer: not ours to keep */
}

/*
 * Named by its text (how->guess): an open that creates nothing and asks
 * nothing of the walk, in a target whose root is the pinned root (the
 * text: emulate_guess_text). O_ASYNC: a single thread's perform clears
 * O_NONBLOCK with F_SETFL, which would also arm what open(2) leaves
 * unarmed (open_guessed). 1: planned,
 * 0: walk it.
 */
static int open_plan_guess(const struct unotify_open_how *how, struct open_context *c,
			   struct unotify_open_plan *ret)
{
	char *text = NULL;
	int r;

	if (!how->guess || c->resolve != 0 ||
	    (c->flags & (O_CREAT | KERNEL_O_TMPFILE | O_PATH | O_ASYNC)))
		return 0;
	r = emulate_guess_text(c->t, how->dirfd, how->path, &text);
	if (r <= 0)
		return r;
	c->text = text ? text : open_copy_text(c, how->path);
	if (!c->text)
		return 0; /* too long to be a guess: the walk names it (ENAMETOOLONG) */
	r = resolve_lexical("/", c->text, ret->path, sizeof(ret->path));
	if (r < 0)
		return r;
	ret->error = 0;
	ret->creates = false;
	ret->unnamed = false;
	ret->guessed = true;
	ret->pathfd = -1;
	ret->base[0] = '\0';
	ret->how = *how;
	ret->how.path = NULL;
	return 1;
}

/* Resolves carefully (the walk): the plan names what was reached. */
static int open_plan_walk(const struct unotify_open_how *how, struct open_context *c,
			  struct unotify_open_plan *ret)
{
	_cleanup_free_ struct resolved *res = calloc(1, sizeof(*res));
	int r;

	if (!res)
		return -ENOMEM;
	res->fd = -1;
	res->error = open_flags_check(c->t->nr, how, c);
	if (res->error == 0 && how->path[0] == '\0')
		res->error = ENOENT;
	if (res->error == 0 && strlen(how->path) >= PATH_MAX)
		res->error = ENAMETOOLONG;
	if (res->error == 0)
		r = open_resolve(how, c, res);
	else
		r = resolve_lexical("/", how->path, res->path, sizeof(res->path));
	/* Whatever we resolved is the target's only while its call is pending. */
	if (r == 0 && unotify_id_valid(c->t->l, c->t->id) < 0)
		r = -ENOENT;
	if (r < 0) {
		if (res->fd >= 0)
			res->fd = safe_close(res->fd);
		return r;
	}
	c->type = res->type;
	open_fill_plan(ret, how, res);
	ret->guessed = false;
	if (res->error && res->fd >= 0)
		res->fd = safe_close(res->fd);
	return 0;
}

static int open_plan(unotify_target *t, bool owns, const struct unotify_open_how *how,
		     struct unotify_open_plan *ret)
{
	struct open_context *c = open_context_new();
	int r;

	if (!c)
		return -ENOMEM;
	c->t = t;
	r = open_flags_check(t->nr, how, c) == 0 ? open_plan_guess(how, c, ret) : 0;
	if (r == 0)
		r = open_plan_walk(how, c, ret);
	if (r < 0) {
		open_context_free(c);
		return r;
	}
	c->owns_target = owns;
	ret->context = c;
	return 0;
}

int unotify_open_resolve(unotify_target *t, const struct unotify_open_how *how,
			 struct unotify_open_plan *ret)
{
	if (!t || !how || !how->path || !ret)
		return -EINVAL;
	return open_plan(t, false, how, ret);
}

int unotify_open_prepare(unotify_listener *l, const struct seccomp_notif *req,
			 const struct unotify_open_how *how, struct unotify_open_plan *ret)
{
	struct unotify_open_how careful;
	unotify_target *t = NULL;
	int r;

	if (!l || !req || !how || !how->path || !ret)
		return -EINVAL;
	r = unotify_target_new(l, req, &t);
	if (r < 0)
		return r;
	careful = *how;
	careful.guess = false;
	r = open_plan(t, true, &careful, ret);
	if (r < 0)
		unotify_target_free(t);
	return r;
}

/*
 * O_PATH. The kernel's ADDFD takes no O_PATH file (fget() skips them: EBADF),
 * so the target cannot get one from us, and CONTINUE would let a racing
 * thread swap the path. A directory or a regular file is opened read-only
 * instead, as the target (so only if it may read it): it does all an O_PATH
 * fd does (fstat, fchdir, *at() calls, /proc/self/fd) and reads what the
 * target could read anyway. Anything else (a symlink itself, a device, a
 * FIFO, a socket: opening those is not side-effect free) is refused with
 * EOPNOTSUPP, which is also what glibc's lchmod() answers for a symlink.
 */
static int open_path_flags(const struct open_context *c)
{
	if (c->type == S_IFDIR)
		return O_RDONLY | O_DIRECTORY;
	if (c->type == S_IFREG)
		return O_RDONLY;
	return -EOPNOTSUPP;
}

/*
 * A FIFO's blocking open waits for the other end. In a pool of supervising
 * threads (lib/pool.c) it waits in open(2), as the kernel would, reader
 * and writer alike: another thread receives meanwhile, and the pool
 * interrupts the wait once the target's call is gone (or the target has a
 * signal to handle). A single supervising thread cannot sleep in open(2)
 * (a target that goes away would leave it there), so it opens non-blocking
 * and makes the fd blocking again. A writer without a reader (ENXIO
 * non-blocking) waits by trying again while the target's call is still
 * pending (runc's exec fifo is such a writer); a reader does not wait for
 * a writer: its reads see end of file until one comes. Meanwhile this
 * listener's other calls wait too.
 */
static int open_fifo(const struct open_context *c, const char *name, int flags)
{
	struct timespec delay = { 0, 100 * 1000 };
	int fd;

	if (pool_may_block()) {
		fd = openat(target_proc_fd(), name, flags | O_NOCTTY | O_CLOEXEC);
		fd = fd < 0 ? negative_errno() : fd;
		pool_wait_end();
		return fd;
	}

	for (;;) {
		fd = openat(target_proc_fd(), name, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0 || errno != ENXIO || (flags & O_ACCMODE) != O_WRONLY)
			break;
		if (unotify_id_valid(c->t->l, c->t->id) < 0)
			return -EINTR; /* the call is gone: nobody waits for this open any more */
		nanosleep(&delay, NULL);
		if (delay.tv_nsec < 10 * 1000 * 1000)
			delay.tv_nsec *= 2;
	}
	if (fd < 0)
		return negative_errno();
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		fd = safe_close(fd);
		return negative_errno();
	}
	return fd;
}

/* Reopens the resolved file through its fd: same inode, same mount, no second lookup. */
static int open_reopen(const struct unotify_open_plan *plan, const struct open_context *c)
{
	int flags = (int)(c->flags & ~(uint64_t)(O_CREAT | O_EXCL | O_NOFOLLOW));
	char name[64];
	int fd;

	if (c->flags & O_PATH) {
		flags = open_path_flags(c);
		if (flags < 0)
			return flags;
	}
	snprintf(name, sizeof(name), "self/fd/%d", plan->pathfd);
	if (c->type == S_IFIFO && !(flags & O_NONBLOCK))
		return open_fifo(c, name, flags);
	/* O_NOCTTY: the supervisor must not acquire the target's terminal. */
	fd = openat(target_proc_fd(), name, flags | O_NOCTTY | O_CLOEXEC, c->mode);
	return fd < 0 ? negative_errno() : fd;
}

/*
 * Creates the name in the parent resolved earlier. RESOLVE_NO_SYMLINKS: a
 * symlink planted there since would lead elsewhere than what was decided
 * (ELOOP). Not O_NOFOLLOW, which the file would keep in its status flags
 * (F_GETFL) where the program did not ask for it.
 */
static int open_create(const struct unotify_open_plan *plan, const struct open_context *c)
{
	struct open_how how = { .flags = c->flags | O_NOCTTY | O_CLOEXEC, .mode = c->mode,
				.resolve = RESOLVE_NO_SYMLINKS };
	int fd = (int)syscall(SYS_openat2, plan->pathfd, plan->base, &how, sizeof(how));

	return fd < 0 ? negative_errno() : fd;
}

/*
 * A guessed open is one openat2, with no stat: a device node the sandbox
 * made (CAP_MKNOD) on the root's own mount is opened by it. When the
 * target's network namespace is not ours, it is looked at: /dev/net/tun
 * opened here would make interfaces in ours (resolve-ns.c). -EACCES then.
 * The namespace is the one target_read found: a thread that moves itself
 * to a new one later held this one's privileges to do so.
 */
static int open_guessed_ns_check(const struct open_context *c, int fd)
{
	struct target_stat st;
	int r;

	if (c->t->t.same_netns)
		return 0;
	r = target_fstat(fd, &st);
	if (r < 0)
		return r;
	return resolve_ns_dev_foreign(&c->t->t, &st, false) != 0 ? -EACCES : 0;
}

/*
 * A guessed open: the one lookup is the open, as the target (its ids). In a
 * pool of supervising threads (lib/pool.c) it waits as the target's own open
 * would: a FIFO for its other end, a lease being broken, a device. The
 * pool's watchdog gives RECV to another thread once the call has lasted a
 * tick, and interrupts the wait when the call goes away or its target has a
 * signal to handle, as for any call that blocks. A single supervising thread
 * cannot wait (a target gone would leave it there): it opens non-blocking,
 * so that a FIFO or a device cannot hold it, and takes O_NONBLOCK off again
 * when the target did not ask for it (a FIFO writer without reader, ENXIO,
 * is left to the walk, which waits by polling).
 */
static int open_guessed(const struct open_context *c)
{
	bool waits = pool_running();
	int flags = (int)c->flags | O_NOCTTY | (waits ? 0 : O_NONBLOCK);
	struct target_saved saved;
	int fd, r;

	r = target_enter_as(&c->t->t, 0, &saved);
	if (r < 0)
		return r;
	if (waits)
		pool_wait_begin();
	fd = emulate_guess_openat2(c->t, c->text, (uint64_t)flags);
	if (waits)
		pool_wait_end();
	r = target_leave(&saved);
	if (r == 0 && fd >= 0)
		r = open_guessed_ns_check(c, fd);
	if (r < 0 || fd < 0) {
		if (fd >= 0)
			fd = safe_close(fd);
		return r < 0 ? r : fd;
	}
	if (waits || (c->flags & O_NONBLOCK))
		return fd;
	if (fcntl(fd, F_SETFL, (int)c->flags & (O_APPEND | O_DIRECT | O_NOATIME)) < 0) {
		/* An append-only file opened for reading refuses it: the walk's way. */
		fd = safe_close(fd);
		return -UNOTIFY_EGUESS;
	}
	return fd;
}

/* A queue on an mqueue mount is created by a helper (emulate-queue.c: what it is charged to). */
static int open_create_queue(const struct unotify_open_plan *plan, const struct open_context *c)
{
	struct emulate_queue q = { .dirfd = plan->pathfd, .name = plan->base,
				   .flags = (int)c->flags, .mode = c->mode };

	return emulate_queue_create(c->t, &q);
}

int unotify_open_perform(struct unotify_open_plan *plan)
{
	struct open_context *c;
	struct target_saved saved;
	int fd, r;

	if (!plan || !plan->context)
		return -EINVAL;
	c = plan->context;
	if (plan->guessed)
		return open_guessed(c);
	if (plan->error)
		return -plan->error;
	if (plan->pathfd < 0)
		return -EINVAL;
	if (plan->creates && emulate_is_queue_dir(plan->pathfd))
		return open_create_queue(plan, c);
	/* The umask decides the mode of what is created (O_TMPFILE too); a resolved fd needs no root. */
	r = target_enter_as(&c->t->t,
			    plan->creates || (c->flags & KERNEL_O_TMPFILE) ? TARGET_ENTER_UMASK : 0,
			    &saved);
	if (r < 0)
		return r;
	fd = plan->creates ? open_create(plan, c) : open_reopen(plan, c);
	r = target_leave(&saved);
	if (r < 0) {
		if (fd >= 0)
			fd = safe_close(fd);
		return r;
	}
	return fd;
}

int unotify_open_refusal(const struct unotify_open_plan *plan)
{
	const struct open_context *c;

	if (!plan || !plan->context)
		return EPERM;
	if (plan->error)
		return plan->error;
	if (plan->pathfd < 0)
		return EPERM;
	c = plan->context;
	return refusal_open(&c->t->t, plan->pathfd, c->type, c->flags, plan->creates);
}

void unotify_open_plan_release(struct unotify_open_plan *plan)
{
	struct open_context *c;

	if (!plan)
		return;
	c = plan->context;
	if (c) {
		if (c->owns_target)
			unotify_target_free(c->t);
		open_context_free(c);
		plan->context = NULL;
	}
	if (plan->pathfd >= 0)
		plan->pathfd = safe_close(plan->pathfd);
	plan->pathfd = -1;
}
