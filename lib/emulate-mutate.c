/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls that change the file system, performed as the target on what was
 * resolved as the target (emulate-path.c):
 *  - calls on a name (unlink, rmdir, mkdir, mknod, rename, link, symlink)
 *    by their *at variant on the pinned parent directory and the last
 *    component, exactly as the target gave it (with its trailing slash, so
 *    the kernel applies its own rules for "name/", "." and "..");
 *  - calls on a file (chmod, chown, utimes, truncate, xattrs) on the resolved file
 *    itself: through /proc/self/fd/N (looked up from our /proc, the kernel
 *    following the magic link to that very inode), or with AT_EMPTY_PATH.
 * The kernel checks each with the target's credentials, umask and root,
 * which emulate_enter() put on this thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "emulate.h"
#include "util.h"
#include "uapi.h"


/* parent: the path must come from an UNOTIFY_WALK_PARENT walk, else from a whole one. */
static int mutate_check(const struct unotify_path *p, bool parent)
{
	if (!p)
		return -EINVAL;
	if (p->error)
		return -p->error;
	if (p->fd < 0 || parent != (p->name[0] != '\0'))
		return -EINVAL;
	return 0;
}

/* The result of a raw system call as 0 or -errno. */
static int mutate_result(long n)
{
	return n < 0 ? negative_errno() : 0;
}

/* One call to make as the target: its paths, its arguments, the call itself. */
struct mutate_op {
	const struct unotify_path *a;
	bool a_by_name;                  /* a comes from a parent walk: a name in a directory */
	const struct unotify_path *b;    /* the second path (rename, link), always by name */
	bool two_paths;
	int (*call)(const struct mutate_op *op);
	unsigned int flags;
	mode_t mode;
	unsigned int dev;
	uid_t uid;
	gid_t gid;
	const char *text;
	const struct timespec *times;
	int64_t length;
	const void *value;
	size_t size;
};

/* Checks the paths, puts the target's credentials on, calls, takes them off. */
static int mutate_as(unotify_target *t, const struct mutate_op *op)
{
	struct target_saved saved;
	int r = mutate_check(op->a, op->a_by_name);

	if (r == 0 && op->two_paths)
		r = mutate_check(op->b, true);
	if (r < 0)
		return r;
	r = emulate_enter(t, &saved);
	if (r < 0)
		return r;
	return emulate_leave(&saved, op->call(op));
}

/* ---- Calls on a name ---- */

static int mutate_unlink(const struct mutate_op *op)
{
	return mutate_result(unlinkat(op->a->fd, op->a->name, (int)op->flags));
}

int unotify_path_unlink(unotify_target *t, const struct unotify_path *p, int flags)
{
	struct mutate_op op = { .a = p, .a_by_name = true, .call = mutate_unlink,
				.flags = (unsigned int)flags };

	return mutate_as(t, &op);
}

static int mutate_mkdir(const struct mutate_op *op)
{
	return mutate_result(mkdirat(op->a->fd, op->a->name, op->mode));
}

int unotify_path_mkdir(unotify_target *t, const struct unotify_path *p, mode_t mode)
{
	struct mutate_op op = { .a = p, .a_by_name = true, .call = mutate_mkdir, .mode = mode };

	return mutate_as(t, &op);
}

/* The raw call: dev goes to the kernel in its own encoding, as the target gave it. */
static int mutate_mknod(const struct mutate_op *op)
{
	return mutate_result(syscall(SYS_mknodat, op->a->fd, op->a->name, op->mode, op->dev));
}

/* A regular file on an mqueue mount is a queue, created by a helper (emulate-queue.c). */
static bool mutate_makes_queue(const struct unotify_path *p, mode_t mode)
{
	mode_t type = mode & S_IFMT;

	return (type == S_IFREG || type == 0) && mutate_check(p, true) == 0 &&
	       emulate_is_queue_dir(p->fd);
}

int unotify_path_mknod(unotify_target *t, const struct unotify_path *p, mode_t mode,
		       unsigned int dev)
{
	struct mutate_op op = { .a = p, .a_by_name = true, .call = mutate_mknod, .mode = mode,
				.dev = dev };
	struct emulate_queue q = { .by_mknod = true, .mode = mode, .dev = dev };

	if (!mutate_makes_queue(p, mode))
		return mutate_as(t, &op);
	q.dirfd = p->fd;
	q.name = p->name;
	return emulate_queue_create(t, &q);
}

static int mutate_rename(const struct mutate_op *op)
{
	return mutate_result(syscall(SYS_renameat2, op->a->fd, op->a->name, op->b->fd,
				     op->b->name, op->flags));
}

int unotify_path_rename(unotify_target *t, const struct unotify_path *from,
			const struct unotify_path *to, unsigned int flags)
{
	struct mutate_op op = { .a = from, .a_by_name = true, .b = to, .two_paths = true,
				.call = mutate_rename, .flags = flags };

	return mutate_as(t, &op);
}

/*
 * linkat of a file resolved whole: through its magic link. AT_EMPTY_PATH on
 * our fd would need CAP_DAC_READ_SEARCH (the fd is not the target's own),
 * which the target does not need for the same link by /proc/self/fd/N.
 */
static int mutate_link(const struct mutate_op *op)
{
	char link[64];

	if (op->a_by_name)
		return mutate_result(linkat(op->a->fd, op->a->name, op->b->fd, op->b->name, 0));
	emulate_fd_link(op->a->fd, link, sizeof(link));
	return mutate_result(linkat(target_proc_fd(), link, op->b->fd, op->b->name,
				    AT_SYMLINK_FOLLOW));
}

int unotify_path_link(unotify_target *t, const struct unotify_path *from,
		      const struct unotify_path *to)
{
	struct mutate_op op = { .a = from, .a_by_name = from && from->name[0] != '\0', .b = to,
				.two_paths = true, .call = mutate_link };

	return mutate_as(t, &op);
}

static int mutate_symlink(const struct mutate_op *op)
{
	return mutate_result(symlinkat(op->text, op->a->fd, op->a->name));
}

int unotify_path_symlink(unotify_target *t, const char *text, const struct unotify_path *to)
{
	struct mutate_op op = { .a = to, .a_by_name = true, .call = mutate_symlink,
				.text = text };
	int r = mutate_check(to, true);

	if (r < 0)
		return r;
	if (!text)
		return -EINVAL;
	return mutate_as(t, &op);
}

/* ---- Calls on the file itself ---- */

static int mutate_chmod(const struct mutate_op *op)
{
	const struct unotify_path *p = op->a;
	char link[64];
	long n;

	if (p->type != S_IFLNK) {
		emulate_fd_link(p->fd, link, sizeof(link));
		return mutate_result(fchmodat(target_proc_fd(), link, op->mode, 0));
	}
	/* Only fchmodat2 (6.6) reaches a symlink itself; most file systems then say EOPNOTSUPP. */
	n = syscall(SYS_fchmodat2, p->fd, "", op->mode, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (n < 0 && errno == ENOSYS)
		return -EOPNOTSUPP;
	return mutate_result(n);
}

int unotify_path_chmod(unotify_target *t, const struct unotify_path *p, mode_t mode)
{
	struct mutate_op op = { .a = p, .call = mutate_chmod, .mode = mode };

	return mutate_as(t, &op);
}

/*
 * The ids a call names are the caller's user namespace's (make_kuid(
 * current_user_ns(), id)); performed from ours they would name others: an
 * ACL entry for the namespace's user 1000 would grant the host's user
 * 1000. So an id of a target in another user namespace is mapped through
 * its uid_map or gid_map (read from our side: the second column is in our
 * namespace); one it does not map fails with EINVAL, as the kernel does.
 * (uid_t)-1 ("unchanged" for chown) is left as it is.
 */
static int mutate_map_id(const struct target *t, bool gid, uint32_t id, uint32_t *ret)
{
	_cleanup_free_ char *text = NULL;
	char name[32];
	int r;

	if (t->same_userns || id == UINT32_MAX) {
		*ret = id;
		return 0;
	}
	snprintf(name, sizeof(name), "%d/%s", (int)t->tid, gid ? "gid_map" : "uid_map");
	r = target_read_file(target_proc_fd(), name, &text);
	if (r < 0)
		return r;
	for (char *line = text, *next; line && *line; line = next) {
		unsigned long long inside, outside, count;

		next = strchr(line, '\n');
		if (next)
			next++;
		if (sscanf(line, "%llu %llu %llu", &inside, &outside, &count) == 3 &&
		    id >= inside && id - inside < count) {
			*ret = (uint32_t)(outside + (id - inside));
			return 0;
		}
	}
	return -EINVAL;
}

/* An empty path is the fd's file itself, a symlink included (lchown). */
static int mutate_chown(const struct mutate_op *op)
{
	return mutate_result(syscall(SYS_fchownat, op->a->fd, "", op->uid, op->gid, AT_EMPTY_PATH));
}

int unotify_path_chown(unotify_target *t, const struct unotify_path *p, uid_t uid, gid_t gid)
{
	struct mutate_op op = { .a = p, .call = mutate_chown };
	uint32_t u, g;
	int r = mutate_map_id(&t->t, false, uid, &u);

	if (r == 0)
		r = mutate_map_id(&t->t, true, gid, &g);
	if (r < 0)
		return r;
	op.uid = u;
	op.gid = g;
	return mutate_as(t, &op);
}

static int mutate_utimens(const struct mutate_op *op)
{
	const struct unotify_path *p = op->a;
	char link[64];

	if (p->type == S_IFLNK)
		return mutate_result(utimensat(p->fd, "", op->times,
					       AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
	emulate_fd_link(p->fd, link, sizeof(link));
	return mutate_result(utimensat(target_proc_fd(), link, op->times, 0));
}

int unotify_path_utimens(unotify_target *t, const struct unotify_path *p,
			 const struct timespec *times)
{
	struct mutate_op op = { .a = p, .call = mutate_utimens, .times = times };

	return mutate_as(t, &op);
}

/*
 * What inode_newsize_ok() refuses: growing a file past the target's
 * RLIMIT_FSIZE (EFBIG; the kernel also raises SIGXFSZ, the caller's part:
 * enforce-mutate.c). Shrinking, or staying within the limit, is allowed.
 */
static int mutate_fsize_ok(unotify_target *t, const struct unotify_path *p, int64_t length)
{
	struct stat st;
	uint64_t limit;
	int r;

	if (fstat(p->fd, &st) < 0)
		return negative_errno();
	if (length <= st.st_size)
		return 0;
	/*
	 * Limits are per process: the supervising thread cannot take the
	 * target's RLIMIT_FSIZE, so it is checked here.
	 */
	r = target_read_limit(&t->t, "Max file size", &limit);
	if (r < 0)
		return r;
	return (uint64_t)length > limit ? -EFBIG : 0;
}

/*
 * truncate(2) has no *at variant: the file is opened for writing as the
 * target (the same checks: write permission, read-only mount, append-only,
 * a running executable) and cut with ftruncate. The supervisor's own
 * RLIMIT_FSIZE is not the target's: the target's is checked first.
 */
static int mutate_truncate(const struct mutate_op *op)
{
	_cleanup_close_ int fd = -1;
	char link[64];

	emulate_fd_link(op->a->fd, link, sizeof(link));
	fd = openat(target_proc_fd(), link, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	return mutate_result(ftruncate(fd, (off_t)op->length));
}

int unotify_path_truncate(unotify_target *t, const struct unotify_path *p, int64_t length)
{
	struct mutate_op op = { .a = p, .call = mutate_truncate, .length = length };
	int r = mutate_check(p, false);

	if (length < 0)
		return -EINVAL;
	if (r < 0)
		return r;
	if (p->type == S_IFDIR)
		return -EISDIR;
	if (p->type != S_IFREG)
		return -EINVAL;
	r = mutate_fsize_ok(t, p, length);
	if (r < 0)
		return r;
	return mutate_as(t, &op);
}

/* ---- Extended attributes ---- */

/*
 * No *at variant (before setxattrat, 6.13): the file is named by its magic
 * link (emulate_fd_cwd_link), a symlink itself for lsetxattr's NOFOLLOW walk.
 */
static int mutate_xattr_link(const struct mutate_op *op, char *link, size_t size)
{
	return emulate_fd_cwd_link(op->a->fd, link, size);
}

static int mutate_setxattr(const struct mutate_op *op)
{
	char link[64];
	int r = mutate_xattr_link(op, link, sizeof(link));

	if (r < 0)
		return r;
	return mutate_result(setxattr(link, op->text, op->value, op->size, (int)op->flags));
}

/* struct posix_acl_xattr_header and _entry (uapi/linux/posix_acl_xattr.h); tags USER, GROUP. */
#define MUTATE_ACL_USER    0x02
#define MUTATE_ACL_GROUP   0x08

/*
 * A POSIX ACL's user and group entries, mapped as chown's ids are
 * (posix_acl_from_xattr(current_user_ns(), ...)), into ret (size bytes).
 * A malformed value is left for the kernel to refuse.
 */
static int mutate_map_acl(const struct target *t, const uint8_t *value, size_t size, uint8_t *ret)
{
	memcpy(ret, value, size);
	if (size < 4 || (size - 4) % 8)
		return 0;
	for (size_t off = 4; off < size; off += 8) {
		uint16_t tag;
		uint32_t id;
		int r;

		memcpy(&tag, ret + off, sizeof(tag));
		memcpy(&id, ret + off + 4, sizeof(id));
		if (tag != MUTATE_ACL_USER && tag != MUTATE_ACL_GROUP)
			continue;
		r = mutate_map_id(t, tag == MUTATE_ACL_GROUP, id, &id);
		if (r < 0)
			return r;
		memcpy(ret + off + 4, &id, sizeof(id));
	}
	return 0;
}

int unotify_path_setxattr(unotify_target *t, const struct unotify_path *p, const char *name,
			  const void *value, size_t size, int flags)
{
	struct mutate_op op = { .a = p, .call = mutate_setxattr, .text = name, .value = value,
				.size = size, .flags = (unsigned int)flags };
	_cleanup_free_ uint8_t *mapped = NULL;
	int r;

	if (!name || (size && !value))
		return -EINVAL;
	if (!t->t.same_userns && size && (strcmp(name, "system.posix_acl_access") == 0 ||
					  strcmp(name, "system.posix_acl_default") == 0)) {
		mapped = malloc(size);
		if (!mapped)
			return -ENOMEM;
		r = mutate_map_acl(&t->t, value, size, mapped);
		if (r < 0)
			return r;
		op.value = mapped;
	}
	return mutate_as(t, &op);
}

static int mutate_removexattr(const struct mutate_op *op)
{
	char link[64];
	int r = mutate_xattr_link(op, link, sizeof(link));

	if (r < 0)
		return r;
	return mutate_result(removexattr(link, op->text));
}

int unotify_path_removexattr(unotify_target *t, const struct unotify_path *p, const char *name)
{
	struct mutate_op op = { .a = p, .call = mutate_removexattr, .text = name };

	if (!name)
		return -EINVAL;
	return mutate_as(t, &op);
}
