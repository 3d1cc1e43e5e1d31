/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calls that read a file's extended attributes (getxattr, lgetxattr,
 * getxattrat, listxattr, llistxattr, listxattrat: @file-read) or its inode
 * flags (file_getattr: @file-stat) by path. As for the stat family
 * (enforce-stat.c): the path is resolved as the target, an allowed call is
 * done on the resolved file (lib/emulate-xattr.c) and its result written
 * into the target's buffer (unotify_target_mem_write) before the
 * reply, with the kernel's size rules: size 0 asks for the size needed, a
 * buffer too small gets ERANGE, and a size over 64 KiB is read as 64 KiB.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforce-call.h"
#include "lib/util.h"
#include "lib/uapi.h"

/* XATTR_NAME_MAX + 1, XATTR_SIZE_MAX, XATTR_LIST_MAX (linux/limits.h). */
#define XATTR_NAME_BUF 256
#define XATTR_SIZE_LIMIT 65536
/* struct xattr_args (6.13) and struct file_attr (6.17), their first sizes. */
#define XATTR_ARGS_SIZE_VER0 16
#define XATTR_FILE_ATTR_SIZE_VER0 24

enum xattr_kind {
	XATTR_GET,
	XATTR_LIST,
	XATTR_FILE_GETATTR,
};

struct xattr_state {
	enum xattr_kind kind;
	int dirfd;
	uint64_t path_addr;
	bool nofollow;
	bool empty_path;
	unsigned int at_flags;
	bool at_call;       /* getxattrat, listxattrat: at_flags to check */
	uint64_t name_addr; /* the getxattr forms */
	uint64_t uargs;     /* getxattrat: struct xattr_args, usize bytes */
	uint64_t usize;
	uint64_t out;       /* the target's buffer */
	uint64_t size;      /* its size */
	int early;          /* the kernel refuses the arguments before any lookup */
	bool read;          /* what precedes the path in memory was read (read_err) */
	int read_err;
	char name[XATTR_NAME_BUF];
};

static uint64_t xattr_page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (uint64_t)n : 4096;
}

static void xattr_decode_nr(struct enforce_call *c, struct xattr_state *s, const uint64_t *a)
{
	int nr = c->req->data.nr;

	s->dirfd = AT_FDCWD;
	if (nr == SYS_getxattr || nr == SYS_lgetxattr) {
		*s = (struct xattr_state){ .kind = XATTR_GET, .dirfd = AT_FDCWD, .path_addr = a[0],
					   .name_addr = a[1], .out = a[2], .size = a[3],
					   .nofollow = nr == SYS_lgetxattr };
	} else if (nr == SYS_listxattr || nr == SYS_llistxattr) {
		*s = (struct xattr_state){ .kind = XATTR_LIST, .dirfd = AT_FDCWD, .path_addr = a[0],
					   .out = a[1], .size = a[2],
					   .nofollow = nr == SYS_llistxattr };
	} else if (nr == SYS_fgetxattr || nr == SYS_flistxattr) {
		/* The descriptor's file, as getxattrat(fd, NULL, AT_EMPTY_PATH) names it. */
		*s = (struct xattr_state){ .kind = nr == SYS_fgetxattr ? XATTR_GET : XATTR_LIST,
					   .dirfd = (int)a[0], .empty_path = true };
		if (nr == SYS_fgetxattr) {
			s->name_addr = a[1];
			s->out = a[2];
			s->size = a[3];
		} else {
			s->out = a[1];
			s->size = a[2];
		}
		return;
	} else if (nr == SYS_getxattrat) {
		*s = (struct xattr_state){ .kind = XATTR_GET, .dirfd = (int)a[0], .path_addr = a[1],
					   .at_flags = (unsigned int)a[2], .at_call = true,
					   .name_addr = a[3], .uargs = a[4], .usize = a[5] };
		/* SYSCALL_DEFINE6(getxattrat): the size of struct xattr_args first. */
		if (s->usize < XATTR_ARGS_SIZE_VER0)
			s->early = EINVAL;
		else if (s->usize > xattr_page_size())
			s->early = E2BIG;
	} else if (nr == SYS_listxattrat) {
		*s = (struct xattr_state){ .kind = XATTR_LIST, .dirfd = (int)a[0], .path_addr = a[1],
					   .at_flags = (unsigned int)a[2], .at_call = true,
					   .out = a[3], .size = a[4] };
	} else if (nr == SYS_file_getattr) {
		*s = (struct xattr_state){ .kind = XATTR_FILE_GETATTR, .dirfd = (int)a[0],
					   .path_addr = a[1], .out = a[2], .usize = a[3],
					   .at_flags = (unsigned int)a[4], .at_call = true };
		if (s->at_flags & ~(unsigned int)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			s->early = EINVAL;
		else if (s->usize > xattr_page_size())
			s->early = E2BIG;
		else if (s->usize < XATTR_FILE_ATTR_SIZE_VER0)
			s->early = EINVAL;
	}
	s->nofollow |= s->at_flags & AT_SYMLINK_NOFOLLOW;
	s->empty_path = s->at_flags & AT_EMPTY_PATH;
}

static void xattr_decode(struct enforce_call *c)
{
	struct xattr_state *s = calloc(1, sizeof(*s));

	c->state = s;
	if (s)
		xattr_decode_nr(c, s, c->args);
	c->has_path[0] = true;
	c->kept_ok = true; /* nothing created, nothing signalled */
}

/* getxattrat's struct xattr_args, as copy_struct_from_user() takes it: a longer one ends in zeros. */
static int xattr_read_args(struct enforce_call *c, struct xattr_state *s)
{
	size_t len = (size_t)s->usize; /* 16 up to a page: decode checked */
	_cleanup_free_ uint8_t *buf = malloc(len);
	uint64_t value;
	uint32_t size, flags;
	int r;

	if (!buf)
		return -ENOMEM;
	r = unotify_mem_read(c->l, c->req, s->uargs, buf, len);
	if (r < 0)
		return r == -ENOENT ? -ENOENT : -EFAULT;
	for (size_t i = XATTR_ARGS_SIZE_VER0; i < len; i++)
		if (buf[i])
			return -E2BIG;
	memcpy(&value, buf, sizeof(value));
	memcpy(&size, buf + 8, sizeof(size));
	memcpy(&flags, buf + 12, sizeof(flags));
	if (flags != 0)
		return -EINVAL;
	s->out = value;
	s->size = size;
	return 0;
}

/* What the kernel reads before the path, in its order: struct xattr_args, at_flags, the name. */
static int xattr_read_before(struct enforce_call *c, struct xattr_state *s)
{
	int r = 0;

	if (s->kind == XATTR_GET && s->at_call)
		r = xattr_read_args(c, s);
	if (r == 0 && s->at_call && (s->at_flags & ~(unsigned int)(AT_SYMLINK_NOFOLLOW |
								    AT_EMPTY_PATH)))
		r = -EINVAL;
	if (r == 0 && s->kind == XATTR_GET) {
		/* import_xattr_name(): an empty name or one of 256 bytes or more is ERANGE. */
		r = unotify_mem_read_string(c->l, c->req, s->name_addr, s->name, sizeof(s->name));
		if (r == 0 || r == -ENAMETOOLONG)
			r = -ERANGE;
		else if (r < 0 && r != -ENOENT)
			r = -EFAULT;
		else if (r > 0)
			r = 0;
	}
	return r;
}

static int xattr_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct xattr_state *s = c->state;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	r = enforce_target_first(c, s->early);
	if (r < 0)
		return r;
	if (!s->read) {
		s->read = true;
		s->read_err = -xattr_read_before(c, s);
	}
	if (s->read_err)
		return enforce_fail(c, s->read_err);
	return enforce_resolve_file(c, s->dirfd, s->path_addr, s->nofollow, s->empty_path,
				    ret_path);
}

/* A value or a list: at most 64 KiB read (the kernel clamps the size so), the count returned. */
static int xattr_perform_read(struct enforce_call *c, struct xattr_state *s,
			      const struct unotify_path *p)
{
	size_t size = s->size < XATTR_SIZE_LIMIT ? (size_t)s->size : XATTR_SIZE_LIMIT;
	_cleanup_free_ char *buf = size ? malloc(size) : NULL;
	int n, r;

	if (size && !buf)
		return -ENOMEM;
	if (s->kind == XATTR_GET)
		n = unotify_path_getxattr(c->target, p, s->name, buf, size);
	else
		n = unotify_path_listxattr(c->target, p, buf, size);
	if (n <= 0 || size == 0)
		return n;
	r = enforce_write(c, s->out, buf, (size_t)n);
	return r < 0 ? r : n;
}

/* struct file_attr, and zeros up to usize: copy_struct_to_user(). The kernel writes it all. */
static int xattr_perform_file_getattr(struct enforce_call *c, struct xattr_state *s,
				      const struct unotify_path *p)
{
	_cleanup_free_ char *buf = calloc(1, (size_t)s->usize);
	int r;

	if (!buf)
		return -ENOMEM;
	r = unotify_path_file_getattr(c->target, p, buf, (size_t)s->usize);
	return r < 0 ? r : enforce_write(c, s->out, buf, (size_t)s->usize);
}

static void xattr_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	struct xattr_state *s = c->state;
	const struct unotify_path *p = enforce_perform_path(c, v);
	int r;

	if (!p)
		return;
	if (s->kind == XATTR_FILE_GETATTR)
		r = xattr_perform_file_getattr(c, s, p);
	else
		r = xattr_perform_read(c, s, p);
	enforce_result_file(c, v, r);
}

/*
 * `deny @file-read kernel`: Landlock checks no xattr read, so the
 * supervisor refuses it as the kernel refuses the open of that file: the
 * lookup's own error first (a missing file: ENOENT), then EACCES.
 */
static int xattr_refuse(struct enforce_call *c)
{
	const char *ignored;
	int r = xattr_path(c, 0, &ignored);

	if (r < 0)
		return c->read_error ? c->read_error : -r;
	return unotify_path_refusal(c->target, c->req->data.nr, &c->paths[0].res, NULL, 0);
}

const struct enforce_family enforce_xattr_family = {
	.decode = xattr_decode,
	.path = xattr_path,
	.perform = xattr_perform,
	.refuse = xattr_refuse,
	.release = enforce_free_state,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_STAT,
};
