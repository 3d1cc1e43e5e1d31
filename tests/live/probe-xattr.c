/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: extended attributes and inode flags read by path, each with the
 * raw system call named. DIR: "-" for AT_FDCWD, else opened first (probe.h).
 * SIZE is the buffer size passed (0: the size query); the buffer holds 64 KiB.
 *
 *   getxattr PATH NAME SIZE [l]                 ok len=N value=V (V: what was written)
 *   getxattrat DIR PATH NAME SIZE [nofollow] [empty] [null] [usize=N] [argsflags]
 *   listxattr PATH SIZE [l]                     ok len=N names=a,b, (NULs shown as ,)
 *   listxattrat DIR PATH SIZE [nofollow] [empty]
 *   file_getattr DIR PATH [USIZE] [nofollow] [empty]   ok xflags=... tail=zero|kept
 * badbuf anywhere: an unmapped buffer (EFAULT in the kernel).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe.h"
#include "lib/uapi.h"

#define PROBE_XATTR_BUF 65536

/* struct xattr_args (linux/xattr.h, 6.13), which Debian 12's headers lack. */
struct probe_xattr_args {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

static char probe_xattr_buf[PROBE_XATTR_BUF];

static int probe_xattr_flags(int argc, char **argv)
{
	return (probe_has(argc, argv, "nofollow") ? AT_SYMLINK_NOFOLLOW : 0) |
	       (probe_has(argc, argv, "empty") ? AT_EMPTY_PATH : 0);
}

static void *probe_xattr_out(int argc, char **argv)
{
	memset(probe_xattr_buf, 0x5a, sizeof(probe_xattr_buf));
	return probe_has(argc, argv, "badbuf") ? (void *)8 : probe_xattr_buf;
}

static int probe_xattr_size(const char *s, size_t *ret)
{
	long n;

	if (probe_parse_long(s, &n) < 0 || n < 0 || n > PROBE_XATTR_BUF)
		return -EINVAL;
	*ret = (size_t)n;
	return 0;
}

/* The bytes written (none for a size query), printable or \xHH; sep shows NULs so. */
static void probe_xattr_report(long n, size_t size, const char *what, char nul)
{
	if (n < 0) {
		probe_print_err(errno);
		return;
	}
	printf("ok len=%ld", n);
	if (size) {
		printf(" %s=", what);
		for (long i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)probe_xattr_buf[i];

			if (ch == 0 && nul)
				putchar(nul);
			else if (ch >= 0x21 && ch < 0x7f && ch != '\\')
				putchar(ch);
			else
				printf("\\x%02x", ch);
		}
	}
	/* A size query writes nothing: the buffer is as it was. */
	if (size == 0 && probe_xattr_buf[0] != 0x5a)
		printf(" written");
	putchar('\n');
}

static int probe_cmd_getxattr(int argc, char **argv)
{
	bool l = probe_has(argc, argv, "l");
	size_t size;
	void *out;
	long n;

	if (argc < 3 || probe_xattr_size(argv[2], &size) < 0)
		return 2;
	out = probe_xattr_out(argc, argv);
	n = syscall(l ? SYS_lgetxattr : SYS_getxattr, argv[0], argv[1], out, size);
	probe_xattr_report(n, size, "value", 0);
	return 0;
}

static int probe_cmd_getxattrat(int argc, char **argv)
{
	struct probe_xattr_args a[2];
	size_t size, usize = sizeof(a[0]);
	int dirfd;
	long n;

	if (argc < 4 || probe_xattr_size(argv[3], &size) < 0)
		return 2;
	for (int i = 4; i < argc; i++)
		if (strncmp(argv[i], "usize=", 6) == 0)
			usize = (size_t)strtoul(argv[i] + 6, NULL, 0);
	if (usize > sizeof(a))
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	memset(a, 0, sizeof(a));
	a[0].value = (uintptr_t)probe_xattr_out(argc, argv);
	a[0].size = (uint32_t)size;
	a[0].flags = probe_has(argc, argv, "argsflags") ? 1 : 0;
	n = syscall(SYS_getxattrat, dirfd, probe_has(argc, argv, "null") ? NULL : argv[1],
		    probe_xattr_flags(argc, argv), argv[2], a, usize);
	probe_xattr_report(n, size, "value", 0);
	return 0;
}

static int probe_cmd_listxattr(int argc, char **argv)
{
	bool l = probe_has(argc, argv, "l");
	size_t size;
	void *out;
	long n;

	if (argc < 2 || probe_xattr_size(argv[1], &size) < 0)
		return 2;
	out = probe_xattr_out(argc, argv);
	n = syscall(l ? SYS_llistxattr : SYS_listxattr, argv[0], out, size);
	probe_xattr_report(n, size, "names", ',');
	return 0;
}

static int probe_cmd_listxattrat(int argc, char **argv)
{
	size_t size;
	void *out;
	int dirfd;
	long n;

	if (argc < 3 || probe_xattr_size(argv[2], &size) < 0)
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	out = probe_xattr_out(argc, argv);
	n = syscall(SYS_listxattrat, dirfd, argv[1], probe_xattr_flags(argc, argv), out, size);
	probe_xattr_report(n, size, "names", ',');
	return 0;
}

/* struct file_attr (linux/fs.h, 6.17): xflags, extsize, nextents, projid, cowextsize. */
static int probe_cmd_file_getattr(int argc, char **argv)
{
	size_t usize = 24;
	uint64_t xflags;
	uint32_t v[4];
	bool zero = true;
	int dirfd;
	long n;

	if (argc < 2 || (argc > 2 && argv[2][0] >= '0' && argv[2][0] <= '9' &&
			 probe_xattr_size(argv[2], &usize) < 0))
		return 2;
	dirfd = probe_open_dir(argv[0]);
	if (dirfd == -1)
		return 0;
	n = syscall(SYS_file_getattr, dirfd, argv[1], probe_xattr_out(argc, argv), usize,
		    probe_xattr_flags(argc, argv));
	if (n < 0) {
		probe_print_err(errno);
		return 0;
	}
	memcpy(&xflags, probe_xattr_buf, sizeof(xflags));
	memcpy(v, probe_xattr_buf + 8, sizeof(v));
	for (size_t i = 24; i < usize; i++)
		zero &= probe_xattr_buf[i] == 0;
	printf("ok ret=%ld xflags=0x%" PRIx64 " extsize=%u nextents=%u projid=%u cowextsize=%u "
	       "tail=%s\n", n, xflags, v[0], v[1], v[2], v[3], zero ? "zero" : "kept");
	return 0;
}

const struct probe_cmd probe_xattr_cmds[] = {
	{ "getxattr", probe_cmd_getxattr },
	{ "getxattrat", probe_cmd_getxattrat },
	{ "listxattr", probe_cmd_listxattr },
	{ "listxattrat", probe_cmd_listxattrat },
	{ "file_getattr", probe_cmd_file_getattr },
	{ NULL, NULL },
};
