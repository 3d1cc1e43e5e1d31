/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files: names that change under the check (a replaced file reads back as
 * "PATH (deleted)"; renaming what contains a protected file; exchanges;
 * hard links) and calls outside the categories a policy names (O_PATH,
 * handles, xattrs and ACLs, unix socket files, device nodes, fcntl and
 * ftruncate on an append-only descriptor).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"

static bool time_left(time_t end)
{
	return time(NULL) < end;
}

/* open-loop PATH SECONDS MAX: the denied PATH opened again and again; any success leaks. */
static int cmd_open_loop(int argc, char **argv)
{
	long max, tries = 0, opened = 0;
	time_t end;

	if (argc != 3)
		return 2;
	end = time(NULL) + parse_long(argv[1]);
	max = parse_long(argv[2]);
	for (; tries < max && time_left(end); tries++) {
		int fd = open(argv[0], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (opened++ == 0) {
			note("opened the denied path at try %ld", tries);
			leak_fd(fd);
		}
		close(fd);
	}
	note("%ld opens, %ld succeeded", tries, opened);
	if (opened == 0)
		result("BLOCKED all %ld", tries);
	return 0;
}

/*
 * rename-loop DIR NAME CONTENT SECONDS [unlink] (outside the sandbox): the
 * system replacing DIR/NAME again and again, as editors and package
 * managers do: a new file renamed over it, or (unlink) the old one removed
 * and a new one written in its place.
 */
static int cmd_rename_loop(int argc, char **argv)
{
	char tmp[4096], dst[4096];
	bool unlink_mode;
	size_t len;
	long n = 0;
	time_t end;

	if (argc < 4 || argc > 5)
		return 2;
	unlink_mode = argc == 5 && strcmp(argv[4], "unlink") == 0;
	snprintf(tmp, sizeof(tmp), "%s/.%s.new", argv[0], argv[1]);
	snprintf(dst, sizeof(dst), "%s/%s", argv[0], argv[1]);
	len = strlen(argv[2]);
	end = time(NULL) + parse_long(argv[3]);
	while (time_left(end)) {
		const char *where = unlink_mode ? dst : tmp;
		int fd;

		if (unlink_mode && unlink(dst) < 0 && errno != ENOENT)
			return setup_failed("unlink", errno);
		fd = open(where, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, argv[2], len) != (ssize_t)len)
			return setup_failed("write", errno);
		close(fd);
		if (!unlink_mode && rename(tmp, dst) < 0)
			return setup_failed("rename", errno);
		n++;
	}
	result("RENAMED %ld", n);
	return 0;
}

static unsigned int rename_flags(const char *s)
{
	if (!s)
		return 0;
	if (strcmp(s, "exchange") == 0)
		return RENAME_EXCHANGE;
	if (strcmp(s, "noreplace") == 0)
		return RENAME_NOREPLACE;
	return 0;
}

/* rename OLD NEW [exchange|noreplace] */
static int cmd_rename(int argc, char **argv)
{
	if (argc < 2 || argc > 3)
		return 2;
	if (renameat2(AT_FDCWD, argv[0], AT_FDCWD, argv[1], rename_flags(argc > 2 ? argv[2] : NULL)))
		return blocked(errno);
	result("DONE rename %s %s", argv[0], argv[1]);
	return 0;
}

/* link OLD NEW: a second name for OLD. */
static int cmd_link(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (link(argv[0], argv[1]) < 0)
		return blocked(errno);
	result("DONE link %s %s", argv[0], argv[1]);
	return 0;
}

static int write_file(const char *path, const char *data, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	size_t len = strlen(data);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != (ssize_t)len)
		r = -errno;
	close(fd);
	return r;
}

/* write PATH DATA: PATH truncated and rewritten. */
static int cmd_write(int argc, char **argv)
{
	int r;

	if (argc != 2)
		return 2;
	r = write_file(argv[0], argv[1], O_TRUNC);
	if (r < 0)
		return blocked(-r);
	result("WROTE %s", argv[0]);
	return 0;
}

/* link-write OLD NEW DATA: a hard link to the protected OLD at the free NEW, written there. */
static int cmd_link_write(int argc, char **argv)
{
	int r;

	if (argc != 3)
		return 2;
	if (link(argv[0], argv[1]) < 0)
		return blocked(errno);
	r = write_file(argv[1], argv[2], O_TRUNC);
	if (r < 0)
		return blocked(-r);
	result("WROTE %s through the link %s", argv[0], argv[1]);
	return 0;
}

/*
 * rename-edit DIR ASIDE FILE DATA [exchange]: DIR (whose contents are
 * protected, DIR itself not) renamed (or exchanged with ASIDE), FILE in it
 * rewritten under the new name, and everything put back.
 */
static int cmd_rename_edit(int argc, char **argv)
{
	unsigned int flags;
	char inside[4096];
	int r;

	if (argc < 4 || argc > 5)
		return 2;
	flags = rename_flags(argc > 4 ? argv[4] : NULL);
	if (renameat2(AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags) < 0)
		return blocked(errno);
	snprintf(inside, sizeof(inside), "%s/%s", argv[1], argv[2]);
	r = write_file(inside, argv[3], O_TRUNC);
	if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[0], flags) < 0)
		note("putting %s back failed: %s", argv[0], errname(errno));
	if (r < 0)
		return blocked(-r);
	result("REWROTE %s/%s through %s", argv[0], argv[2], argv[1]);
	return 0;
}

/* rename-read DIR ASIDE FILE: DIR renamed to ASIDE, FILE (denied under DIR) read there. */
static int cmd_rename_read(int argc, char **argv)
{
	char inside[4096];
	int r;

	if (argc != 3)
		return 2;
	if (rename(argv[0], argv[1]) < 0)
		return blocked(errno);
	snprintf(inside, sizeof(inside), "%s/%s", argv[1], argv[2]);
	r = leak_path(AT_FDCWD, inside);
	if (rename(argv[1], argv[0]) < 0)
		note("putting %s back failed: %s", argv[0], errname(errno));
	return r;
}

/* opath-read PATH: an O_PATH open the policy allows; is what came back readable? */
static int cmd_opath_read(int argc, char **argv)
{
	int fd, r;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_PATH | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	note("O_PATH open gave fd %d, flags %#x", fd, fcntl(fd, F_GETFL));
	r = leak_fd(fd);
	close(fd);
	return r;
}

/* handle-read DIR NAME: name_to_handle_at + open_by_handle_at, no path for the policy. */
static int cmd_handle_read(int argc, char **argv)
{
	union {
		struct file_handle h;
		char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} u = { .h = { .handle_bytes = MAX_HANDLE_SZ } };
	char path[4096];
	int mount_id, mfd, fd, r;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/%s", argv[0], argv[1]);
	if (name_to_handle_at(AT_FDCWD, path, &u.h, &mount_id, 0) < 0)
		return setup_failed("name_to_handle_at", errno);
	mfd = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return setup_failed("mount-fd", errno);
	fd = open_by_handle_at(mfd, &u.h, O_RDONLY | O_CLOEXEC);
	close(mfd);
	if (fd < 0)
		return blocked(errno);
	r = leak_fd(fd);
	close(fd);
	return r;
}

/* setxattr PATH NAME VALUE / removexattr PATH NAME / xattr-get PATH NAME (the check) */
static int cmd_setxattr(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	if (setxattr(argv[0], argv[1], argv[2], strlen(argv[2]), 0) < 0)
		return blocked(errno);
	result("CHANGED xattr %s of %s", argv[1], argv[0]);
	return 0;
}

static int cmd_removexattr(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (removexattr(argv[0], argv[1]) < 0)
		return blocked(errno);
	result("CHANGED removed xattr %s of %s", argv[1], argv[0]);
	return 0;
}

static int cmd_xattr_get(int argc, char **argv)
{
	char value[256];
	ssize_t n;

	if (argc != 2)
		return 2;
	n = lgetxattr(argv[0], argv[1], value, sizeof(value) - 1);
	if (n < 0)
		return blocked(errno);
	result("VALUE %zd", n);
	return 0;
}

/* struct posix_acl_xattr_{header,entry}, as the kernel reads system.posix_acl_access. */
struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

/* acl-grant PATH UID: an ACL giving UID read and write (a chmod the policy never sees). */
static int cmd_acl_grant(int argc, char **argv)
{
	struct {
		uint32_t version;
		struct acl_entry e[5];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, UINT32_MAX },                         /* ACL_USER_OBJ rw */
			{ 0x02, 6, (uint32_t)parse_long(argv[1]) },   /* ACL_USER UID rw */
			{ 0x04, 4, UINT32_MAX },                         /* ACL_GROUP_OBJ r */
			{ 0x10, 6, UINT32_MAX },                         /* ACL_MASK rw */
			{ 0x20, 4, UINT32_MAX },                         /* ACL_OTHER r */
		},
	};

	if (argc != 2)
		return 2;
	if (setxattr(argv[0], "system.posix_acl_access", &acl, sizeof(acl), 0) < 0)
		return blocked(errno);
	result("CHANGED acl of %s grants uid %s rw", argv[0], argv[1]);
	return 0;
}

/* unix-bind PATH: a socket file created by bind(2). */
static int cmd_unix_bind(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (argc != 1)
		return 2;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[0]);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return setup_failed("socket", errno);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return blocked(errno);
	result("CREATED %s", argv[0]);
	return 0;
}

/* mknod-read NODE MAJOR MINOR NEEDLE: a block device node of the disk, scanned for NEEDLE. */
static int cmd_mknod_read(int argc, char **argv)
{
	static char buf[1 << 20];
	size_t nlen;
	off_t off = 0;
	int fd;

	if (argc != 4)
		return 2;
	nlen = strlen(argv[3]);
	if (mknod(argv[0], S_IFBLK | 0600,
		  makedev((unsigned int)parse_long(argv[1]), (unsigned int)parse_long(argv[2]))) < 0)
		return blocked(errno);
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);
		long at = n > 0 ? find_bytes(buf, (size_t)n, argv[3], nlen) : -1;

		if (n <= 0)
			break;
		if (at >= 0) {
			result("LEAK %zu %s at offset %lld of the device", nlen, argv[3],
			       (long long)(off + at));
			return 0;
		}
		off += n > (ssize_t)nlen ? n - (ssize_t)nlen : n;
	}
	close(fd);
	result("BLOCKED not-found (device read, %lld bytes)", (long long)off);
	return 0;
}

/* append-rewrite PATH DATA: opened O_APPEND as the policy demands, O_APPEND dropped, pwrite at 0. */
static int cmd_append_rewrite(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_APPEND) < 0)
		return blocked(errno);
	if (pwrite(fd, argv[1], strlen(argv[1]), 0) != (ssize_t)strlen(argv[1]))
		return blocked(errno);
	close(fd);
	result("REWROTE the start of %s", argv[0]);
	return 0;
}

/* append-truncate PATH: opened O_APPEND, then ftruncate to 0. */
static int cmd_append_truncate(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	if (ftruncate(fd, 0) < 0)
		return blocked(errno);
	close(fd);
	result("TRUNCATED %s", argv[0]);
	return 0;
}

const struct attack_cmd attack_fs_cmds[] = {
	{ "open-loop", "PATH SECS MAX    open the denied PATH again and again", cmd_open_loop },
	{ "rename-loop", "DIR NAME DATA SECS [unlink]  (outside) replace DIR/NAME again and again",
	  cmd_rename_loop },
	{ "rename", "OLD NEW [exchange|noreplace]", cmd_rename },
	{ "link", "OLD NEW", cmd_link },
	{ "write", "PATH DATA            truncate and write", cmd_write },
	{ "link-write", "OLD NEW DATA    hard link OLD at NEW, write NEW", cmd_link_write },
	{ "rename-edit", "DIR ASIDE FILE DATA [exchange]  edit DIR/FILE while DIR is aside",
	  cmd_rename_edit },
	{ "rename-read", "DIR ASIDE FILE  read DIR/FILE while DIR is aside", cmd_rename_read },
	{ "opath-read", "PATH            read() an allowed O_PATH open", cmd_opath_read },
	{ "handle-read", "DIR NAME       open_by_handle_at DIR/NAME", cmd_handle_read },
	{ "setxattr", "PATH NAME VALUE", cmd_setxattr },
	{ "removexattr", "PATH NAME", cmd_removexattr },
	{ "xattr-get", "PATH NAME        (the check, outside the sandbox)", cmd_xattr_get },
	{ "acl-grant", "PATH UID         POSIX ACL granting UID rw", cmd_acl_grant },
	{ "unix-bind", "PATH             bind an AF_UNIX socket at PATH", cmd_unix_bind },
	{ "mknod-read", "NODE MAJ MIN NEEDLE  block device node, scanned for NEEDLE",
	  cmd_mknod_read },
	{ "append-rewrite", "PATH DATA   drop O_APPEND (fcntl), pwrite at 0", cmd_append_rewrite },
	{ "append-truncate", "PATH       ftruncate an O_APPEND fd", cmd_append_truncate },
	{ NULL, NULL, NULL },
};
