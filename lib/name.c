/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The name a policy decides on. The walk names what it resolved by reading
 * its /proc/self/fd link while the thread is chrooted in the sandbox's
 * pinned root (the kernel's d_path). That text is not always a name:
 *  - a file replaced or deleted since the walk reached it reads
 *    "/etc/shadow (deleted)" (passwd, editors and log rotation replace
 *    files by renaming over them), which an exact pattern misses;
 *  - a file outside the pinned root, or in another mount namespace (after
 *    chroot, unshare, setns), reads as its path from whatever root its
 *    mount tree has, which can spell any path of ours.
 * So a text is a name only if looking it up from the pinned root, with no
 * symlink and no magic link followed, reaches that very file (device and
 * inode, through whichever mount). We check the result rather than build
 * the name from the components walked: a walk's own record of "..",
 * renames of the directories it went through and magic links is only a
 * guess, while the check proves the name at a moment after the walk. The caller retries a
 * walk whose result has no name (a replaced file is found anew) and
 * otherwise marks it unnamed: never matched as a path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"
#include "uapi.h"
#include "util.h"

struct name_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

/* Component by component, for kernels without openat2 (before 5.6). */
static int name_lookup_walk(int rootfd, const char *name)
{
	_cleanup_close_ int cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);

	if (cur < 0)
		return negative_errno();
	for (const char *p = name; *p;) {
		char part[256];
		size_t n = strcspn(p, "/");
		int next;

		if (n == 0) {
			p++;
			continue;
		}
		if (n >= sizeof(part) || (n == 2 && p[0] == '.' && p[1] == '.'))
			return -ENOENT; /* d_path never spells "..": not a name */
		memcpy(part, p, n);
		part[n] = '\0';
		next = openat(cur, part, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return negative_errno();
		cur = safe_close(cur);
		cur = next;
		p += n;
	}
	return TAKE_FD(cur);
}

static int name_lookup(int rootfd, const char *name)
{
	struct name_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS,
	};
	int fd = (int)syscall(SYS_openat2, rootfd, name, &how, sizeof(how));

	if (fd >= 0)
		return fd;
	if (errno == ENOSYS)
		return name_lookup_walk(rootfd, name);
	return negative_errno();
}

int name_check(int rootfd, const char *name, const struct target_fid *fid)
{
	_cleanup_close_ int fd = -1;
	struct target_stat st;
	int r, q;

	/* pipe:[N], socket:[N], anon_inode:...: no file, no path; no pattern can match them. */
	if (name[0] != '/')
		return 1;
	fd = name_lookup(rootfd, name);
	if (fd == -EACCES) {
		/* The target may not search a directory above its cwd: still a name. */
		r = target_suspend();
		if (r == 0)
			fd = name_lookup(rootfd, name);
		q = target_resume();
		if (q < 0 || r < 0)
			return q < 0 ? q : r;
	}
	if (fd < 0)
		return 0;
	r = target_fstat(fd, &st);
	if (r < 0)
		return r;
	/*
	 * The file, whatever mount it was reached through: a descriptor opened
	 * before the sandbox had a mount namespace of its own (a shell's
	 * redirection) is on the parent's copy of the mount, and the name it
	 * has there names it in the sandbox too. A policy rules on that name;
	 * named by its /proc link instead, a deny-list would never match it.
	 */
	return target_fid_same_file(&st.fid, fid) ? 1 : 0;
}
