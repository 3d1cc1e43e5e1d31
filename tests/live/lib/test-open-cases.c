/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live open test's cases, and how a case's outcomes are judged: the
 * native and supervised results must agree, and the plan must be what the
 * case expects. Part of the test-open program (see test-open.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "test-open.h"
#include "util.h"

const struct tcase cases[] = {
	{ .name = "absolute", .path = "@/allowed/a.txt", .want_path = "@/allowed/a.txt",
	  .want_head = "allowed" },
	{ .name = "relative to cwd", .cwd = "@/allowed", .path = "a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "open(2) relative", .nr = SYS_open, .cwd = "@/allowed", .path = "./sub/../a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dotdot", .path = "@/allowed/../secret/s.txt", .want_path = "@/secret/s.txt",
	  .want_head = "secret" },
	{ .name = "dotdot beyond the root", .path = "/../../..@/allowed/a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dotdot from cwd", .cwd = "@/allowed/sub", .path = "../../secret//s.txt",
	  .want_path = "@/secret/s.txt" },
	{ .name = "dirfd", .dirfd = "@/secret", .path = "s.txt", .want_path = "@/secret/s.txt" },
	{ .name = "bad dirfd", .dirfd = "-", .path = "s.txt", .want_path = "/s.txt",
	  .want_plan_error = EBADF, .want_errno = EBADF },
	{ .name = "bad dirfd, absolute path", .dirfd = "-", .path = "@/allowed/a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dirfd on a file", .dirfd = "@/allowed/a.txt", .path = "x",
	  .want_path = "@/allowed/a.txt/x", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "symlink inside", .path = "@/allowed/link-in", .want_path = "@/allowed/a.txt" },
	{ .name = "symlink pointing outside", .path = "@/allowed/link-out",
	  .want_path = "@/secret/s.txt" },
	{ .name = "absolute symlink", .cwd = "@/allowed", .path = "link-abs",
	  .want_path = "@/secret/s.txt" },
	{ .name = "missing file behind a symlink", .path = "@/allowed/link-dir/missing",
	  .want_path = "@/secret/missing", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "missing, lexical guess", .path = "@/nowhere/../x/./y",
	  .want_path = "@/x/y", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "symlink loop", .path = "@/allowed/loop1", .want_path = "@/allowed/loop1",
	  .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "O_NOFOLLOW on a symlink", .path = "@/allowed/link-in", .flags = O_NOFOLLOW,
	  .want_path = "@/allowed/link-in", .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "O_PATH|O_NOFOLLOW on a symlink", .path = "@/allowed/link-in",
	  .flags = O_PATH | O_NOFOLLOW, .want_path = "@/allowed/link-in", .want_symlink = true,
	  .deviates = true, .sup_errno = EOPNOTSUPP },
	{ .name = "O_PATH on a file", .path = "@/allowed/link-in", .flags = O_PATH,
	  .want_path = "@/allowed/a.txt" },
	{ .name = "O_PATH|O_DIRECTORY", .uid = NOBODY, .path = "@/allowed/sub/",
	  .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .want_path = "@/allowed/sub" },
	{ .name = "O_PATH|O_CREAT: O_CREAT ignored", .path = "@/allowed/nothere",
	  .flags = O_PATH | O_CREAT, .mode = 0644, .want_path = "@/allowed/nothere",
	  .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "O_PATH on an unreadable file", .uid = NOBODY, .path = "@/secret/s.txt",
	  .flags = O_PATH, .want_path = "@/secret/s.txt", .deviates = true, .sup_errno = EACCES },
	{ .name = "O_PATH on a FIFO", .path = "@/fifo", .flags = O_PATH, .want_path = "@/fifo",
	  .deviates = true, .sup_errno = EOPNOTSUPP },
	{ .name = "trailing slash follows", .path = "@/allowed/link-dir/", .flags = O_NOFOLLOW,
	  .want_path = "@/secret" },
	{ .name = "/proc/self", .path = "/proc/self/status", .want_path = "/proc/%p/status",
	  .want_head = "\nTgid:\t%p\n" },
	{ .name = "/proc/thread-self", .path = "/proc/thread-self/status",
	  .want_path = "/proc/%p/task/%p/status", .want_head = "\nPid:\t%p\n" },
	{ .name = "/proc/mounts (-> self/mounts)", .path = "/proc/mounts",
	  .want_path = "/proc/%p/mounts" },
	{ .name = "/proc/self/fd magic link", .dirfd = "@/secret", .path = "/proc/self/fd/10/s.txt",
	  .want_path = "@/secret/s.txt", .want_head = "secret" },
	{ .name = "symlink to /proc/self/fd", .dirfd = "@/secret", .path = "@/allowed/self-fd/10",
	  .flags = O_DIRECTORY, .want_path = "@/secret" },
	{ .name = "proc from cwd /proc", .cwd = "/proc", .path = "self/status",
	  .want_path = "/proc/%p/status", .want_head = "\nTgid:\t%p\n" },
	{ .name = "create as nobody with umask", .uid = NOBODY, .umask = 027,
	  .path = "@/world/new", .flags = O_CREAT | O_WRONLY, .mode = 0666,
	  .want_path = "@/world/new", .want_creates = true, .want_mode = 0640 },
	{ .name = "create relative", .cwd = "@/world", .path = "new2",
	  .flags = O_CREAT | O_EXCL | O_RDWR, .mode = 0600, .want_path = "@/world/new2",
	  .want_creates = true, .want_mode = 0600 },
	{ .name = "create through dangling symlink", .path = "@/allowed/dangling",
	  .flags = O_CREAT | O_WRONLY, .mode = 0644, .want_path = "@/allowed/newfile",
	  .want_creates = true, .want_mode = 0644 },
	{ .name = "O_EXCL on dangling symlink", .path = "@/allowed/dangling",
	  .flags = O_CREAT | O_EXCL | O_WRONLY, .mode = 0644, .want_path = "@/allowed/dangling",
	  .want_plan_error = EEXIST, .want_errno = EEXIST },
	{ .name = "O_EXCL on existing file", .path = "@/allowed/a.txt",
	  .flags = O_CREAT | O_EXCL | O_WRONLY, .mode = 0644, .want_path = "@/allowed/a.txt",
	  .want_plan_error = EEXIST, .want_errno = EEXIST },
	{ .name = "O_CREAT on existing file", .path = "@/allowed/a.txt", .flags = O_CREAT | O_RDWR,
	  .mode = 0644, .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "O_CREAT in a locked dir", .uid = NOBODY, .path = "@/allowed/new",
	  .flags = O_CREAT | O_WRONLY, .mode = 0644, .want_path = "@/allowed/new",
	  .want_creates = true, .want_errno = EACCES },
	{ .name = "O_CREAT with trailing slash", .path = "@/world/x/", .flags = O_CREAT | O_WRONLY,
	  .mode = 0644, .want_path = "@/world/x", .want_plan_error = EISDIR, .want_errno = EISDIR },
	{ .name = "O_CREAT on a directory", .path = "@/allowed", .flags = O_CREAT | O_RDONLY,
	  .mode = 0644, .want_path = "@/allowed", .want_plan_error = EISDIR, .want_errno = EISDIR },
	{ .name = "O_CREAT on dot", .cwd = "@/allowed", .path = ".", .flags = O_CREAT | O_EXCL,
	  .mode = 0644, .want_path = "@/allowed", .want_plan_error = EEXIST,
	  .want_errno = EEXIST },
	{ .name = "O_DIRECTORY on a file", .path = "@/allowed/a.txt", .flags = O_DIRECTORY,
	  .want_path = "@/allowed/a.txt", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "trailing slash on a file", .path = "@/allowed/a.txt/",
	  .want_path = "@/allowed/a.txt", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "directory for writing", .path = "@/allowed", .flags = O_WRONLY,
	  .want_path = "@/allowed", .want_errno = EISDIR },
	{ .name = "nobody, root-only file", .uid = NOBODY, .path = "@/secret/s.txt",
	  .want_path = "@/secret/s.txt", .want_errno = EACCES },
	{ .name = "nobody, unsearchable dir", .uid = NOBODY, .path = "@/locked/x.txt",
	  .want_path = "@/locked/x.txt", .want_plan_error = EACCES, .want_errno = EACCES },
	{ .name = "nobody, own file", .uid = NOBODY, .path = "@/secret/nobody.txt",
	  .flags = O_RDWR, .want_path = "@/secret/nobody.txt" },
	{ .name = "nobody, supplementary group", .uid = NOBODY, .ngroups = 1, .groups = { GROUP },
	  .path = "@/secret/group.txt", .want_path = "@/secret/group.txt", .want_head = "group" },
	{ .name = "nobody, without the group", .uid = NOBODY, .path = "@/secret/group.txt",
	  .want_path = "@/secret/group.txt", .want_errno = EACCES },
	{ .name = "root without capabilities", .nocaps = true, .path = "@/secret/nobody.txt",
	  .want_path = "@/secret/nobody.txt", .want_errno = EACCES },
	{ .name = "root without capabilities, own file", .nocaps = true, .path = "@/secret/s.txt",
	  .want_path = "@/secret/s.txt" },
	/*
	 * A chroot moves where the target's paths resolve, not the names the
	 * policy sees: those stay relative to the root supervision started with.
	 */
	{ .name = "chroot", .root = "@/root", .path = "/etc/hostname",
	  .want_path = "@/root/etc/hostname", .want_head = "chroot" },
	{ .name = "chroot, dotdot", .root = "@/root", .path = "/../../../etc/../etc/hostname",
	  .want_path = "@/root/etc/hostname", .want_head = "chroot" },
	{ .name = "chroot, absolute symlink", .root = "@/root", .path = "/link-abs",
	  .want_path = "@/root/etc/hostname", .want_head = "chroot" },
	{ .name = "chroot, missing", .root = "@/root", .path = "/../etc/shadow",
	  .want_path = "@/root/etc/shadow", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "O_TRUNC", .path = "@/allowed/trunc.txt", .flags = O_WRONLY | O_TRUNC,
	  .want_path = "@/allowed/trunc.txt" },
	{ .name = "O_APPEND|O_NONBLOCK|O_CLOEXEC", .path = "@/allowed/a.txt",
	  .flags = O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC, .want_path = "@/allowed/a.txt" },
	{ .name = "O_TMPFILE", .uid = NOBODY, .umask = 077, .path = "@/world",
	  .flags = O_TMPFILE | O_RDWR, .mode = 0666, .want_path = "@/world", .want_mode = 0600 },
	{ .name = "FIFO, non-blocking", .path = "@/fifo", .flags = O_RDONLY | O_NONBLOCK,
	  .want_path = "@/fifo" },
	{ .name = "FIFO, blocking reader", .path = "@/fifo", .flags = O_RDONLY,
	  .want_path = "@/fifo", .no_native = true },
	{ .name = "empty path", .path = "", .want_path = "/", .want_plan_error = ENOENT,
	  .want_errno = ENOENT },
	{ .name = "name too long",
	  .path = "@/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  .want_plan_error = ENAMETOOLONG, .want_errno = ENAMETOOLONG },
	{ .name = "O_DIRECTORY|O_CREAT", .path = "@/world/d", .flags = O_DIRECTORY | O_CREAT,
	  .want_path = "@/world/d", .want_plan_error = EINVAL, .want_errno = EINVAL },
	{ .name = "thread with its own cwd and user", .thread = true, .uid = NOBODY,
	  .cwd = "@/allowed", .path = "a.txt", .want_path = "@/allowed/a.txt" },
	{ .name = "thread's own user decides", .thread = true, .uid = NOBODY,
	  .path = "@/secret/s.txt", .want_path = "@/secret/s.txt", .want_errno = EACCES },
	{ .name = "thread-self in a thread", .thread = true, .path = "/proc/thread-self/status",
	  .want_path = "/proc/%p/task/%t/status", .want_head = "\nPid:\t%t\n" },
	/*
	 * A mount namespace of the target's own that the listener's root is
	 * not in: a file on a mount only it has has no name of ours (a
	 * policy must not match it: fail closed); a file its copy of our
	 * mounts holds is named by its path, which reaches that very file
	 * (device and inode) here too.
	 */
	{ .name = "mount namespace", .mountns = true, .path = "@/allowed/sub/m.txt",
	  .want_path = "@/allowed/sub/m.txt", .want_head = "mounted", .want_unnamed = true },
	{ .name = "mount namespace, a file we have too", .mountns = true, .path = "@/allowed/a.txt",
	  .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "mount namespace, RESOLVE_NO_XDEV", .mountns = true, .nr = SYS_openat2,
	  .dirfd = "@/allowed", .path = "sub/m.txt", .resolve = RESOLVE_NO_XDEV,
	  .want_path = "@/allowed/sub/m.txt", .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "mount namespace, root pinned there", .mountns = true, .pin_root = true,
	  .path = "@/allowed/sub/m.txt", .want_path = "@/allowed/sub/m.txt",
	  .want_head = "mounted" },
	{ .name = "pid namespace with its own /proc", .pidns = true, .path = "/proc/self/status",
	  .want_path = "/proc/%p/status", .want_head = "\nTgid:\t%p\n", .want_unnamed = true },
	{ .name = "pid namespace, root pinned there", .pidns = true, .pin_root = true,
	  .path = "/proc/self/status", .want_path = "/proc/%p/status",
	  .want_head = "\nTgid:\t%p\n" },
	{ .name = "pid namespace, thread-self", .pidns = true, .pin_root = true,
	  .path = "/proc/thread-self/status", .want_path = "/proc/%p/task/%p/status",
	  .want_head = "\nPid:\t%p\n" },
	/*
	 * The supervisor's own /proc entries pass every check of the kernel
	 * for the supervising thread (same thread group), whatever it borrowed:
	 * never reached for a target, by pid, by tid, by "..", cwd or dirfd.
	 * (Root may read them itself; supervised, it may not.)
	 */
	{ .name = "our /proc/PID/environ", .path = "/proc/%s/environ",
	  .want_path = "/proc/%s/environ", .want_plan_error = EACCES, .deviates = true, .sup_errno = EACCES },
	{ .name = "our /proc/PID/mem", .path = "/proc/%s/mem", .want_path = "/proc/%s/mem",
	  .want_plan_error = EACCES, .deviates = true, .sup_errno = EACCES },
	{ .name = "our root through /proc", .path = "/proc/%s/root/etc/hostname",
	  .want_path = "/proc/%s/root/etc/hostname", .want_plan_error = EACCES, .deviates = true,
	  .sup_errno = EACCES },
	{ .name = "our thread by tid", .path = "/proc/%s/task/%s/status",
	  .want_path = "/proc/%s/task/%s/status", .want_plan_error = EACCES, .deviates = true,
	  .sup_errno = EACCES },
	{ .name = "our /proc through ..", .path = "/proc/self/../%s/status",
	  .want_path = "/proc/%s/status", .want_plan_error = EACCES, .deviates = true,
	  .sup_errno = EACCES },
	{ .name = "our /proc as cwd", .cwd = "/proc/%s", .path = "status",
	  .want_path = "/proc/%s/status", .want_plan_error = EACCES, .deviates = true,
	  .sup_errno = EACCES },
	{ .name = "our /proc as dirfd", .dirfd = "/proc/%s/task", .path = "%s/environ",
	  .want_path = "/proc/%s/task/%s/environ", .want_plan_error = EACCES, .deviates = true,
	  .sup_errno = EACCES },
	{ .name = "our /proc as nobody", .uid = NOBODY, .path = "/proc/%s/cwd/allowed/a.txt",
	  .want_path = "/proc/%s/cwd/allowed/a.txt", .want_plan_error = EACCES,
	  .want_errno = EACCES },
	{ .name = "/proc/1 is not ours", .path = "/proc/1/status", .want_path = "/proc/1/status",
	  .want_head = "\nPid:\t1\n" },
	/*
	 * A target that is not dumpable (runc's init) may follow its own
	 * links; we, in its credentials, may not: its own entries are walked
	 * with ours, the file itself still opened as the target.
	 */
	{ .name = "not dumpable, own fd", .nodump = true, .nocaps = true,
	  .dirfd = "@/allowed/a.txt", .path = "/proc/self/fd/10", .want_path = "@/allowed/a.txt",
	  .want_head = "allowed" },
	{ .name = "not dumpable nobody, own fd", .nodump = true, .uid = NOBODY,
	  .dirfd = "@/allowed/a.txt", .path = "/proc/self/fd/10", .want_path = "@/allowed/a.txt",
	  .want_head = "allowed" },
	{ .name = "not dumpable nobody, own fd to a file it may not open", .nodump = true,
	  .uid = NOBODY, .dirfd = "@/allowed/a.txt", .path = "/proc/self/cwd/secret/s.txt",
	  .want_path = "@/secret/s.txt", .want_errno = EACCES },
	{ .name = "not dumpable, own fd, pid namespace", .nodump = true, .nocaps = true,
	  .pidns = true, .pin_root = true, .dirfd = "@/allowed/a.txt", .path = "/proc/self/fd/10",
	  .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "unprivileged supervisor", .sup_uid = NOBODY, .uid = NOBODY, .cwd = "@/allowed",
	  .path = "link-in", .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "unprivileged supervisor, create", .sup_uid = NOBODY, .uid = NOBODY,
	  .path = "@/world/u", .flags = O_CREAT | O_WRONLY, .mode = 0666,
	  .want_path = "@/world/u", .want_creates = true, .want_mode = 0644 },
	{ .name = "unprivileged supervisor, target with more groups", .sup_uid = NOBODY,
	  .uid = NOBODY, .ngroups = 1, .groups = { GROUP }, .path = "@/secret/group.txt",
	  .want_prepare_error = EPERM },
	{ .name = "protected_symlinks", .sysctl = "protected_symlinks=1", .uid = NOBODY,
	  .path = "@/sticky/lnk", .want_path = "@/sticky/lnk", .want_plan_error = EACCES,
	  .want_errno = EACCES },
	{ .name = "protected_symlinks off", .sysctl = "protected_symlinks=0", .uid = NOBODY,
	  .path = "@/sticky/lnk", .want_path = "@/allowed/a.txt" },
	{ .name = "protected_symlinks, own link", .sysctl = "protected_symlinks=1", .uid = 1000,
	  .path = "@/sticky/lnk", .want_path = "@/allowed/a.txt" },
	{ .name = "protected_regular", .sysctl = "protected_regular=1", .uid = NOBODY,
	  .path = "@/sticky/reg", .flags = O_CREAT | O_WRONLY, .mode = 0644,
	  .want_path = "@/sticky/reg", .want_plan_error = EACCES, .want_errno = EACCES },
	{ .name = "protected_regular off", .sysctl = "protected_regular=0", .uid = NOBODY,
	  .path = "@/sticky/reg", .flags = O_CREAT | O_WRONLY, .mode = 0644,
	  .want_path = "@/sticky/reg" },
	{ .name = "setgid directory", .uid = NOBODY, .path = "@/sgid/new",
	  .flags = O_CREAT | O_WRONLY, .mode = 0666, .want_path = "@/sgid/new",
	  .want_creates = true, .want_mode = 0644 },
	{ .name = "openat2", .nr = SYS_openat2, .path = "@/allowed/link-out",
	  .want_path = "@/secret/s.txt" },
	{ .name = "openat2 RESOLVE_BENEATH escaping", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "../secret/s.txt", .resolve = RESOLVE_BENEATH, .want_path = "@/secret/s.txt",
	  .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_BENEATH symlink escaping", .nr = SYS_openat2,
	  .dirfd = "@/allowed", .path = "link-out", .resolve = RESOLVE_BENEATH,
	  .want_path = "@/secret/s.txt", .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_BENEATH inside", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "sub/../link-in", .resolve = RESOLVE_BENEATH, .want_path = "@/allowed/a.txt" },
	{ .name = "openat2 RESOLVE_BENEATH absolute", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "@/allowed/a.txt", .resolve = RESOLVE_BENEATH, .want_path = "@/allowed/a.txt",
	  .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_IN_ROOT", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "/../../a.txt", .resolve = RESOLVE_IN_ROOT, .want_path = "@/allowed/a.txt" },
	{ .name = "openat2 RESOLVE_IN_ROOT absolute symlink", .nr = SYS_openat2,
	  .dirfd = "@/root", .path = "link-abs", .resolve = RESOLVE_IN_ROOT,
	  .want_path = "@/root/etc/hostname", .want_head = "chroot" },
	{ .name = "openat2 RESOLVE_NO_SYMLINKS", .nr = SYS_openat2, .path = "@/allowed/link-in",
	  .resolve = RESOLVE_NO_SYMLINKS, .want_path = "@/allowed/link-in",
	  .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "openat2 RESOLVE_NO_MAGICLINKS", .nr = SYS_openat2, .dirfd = "@/secret",
	  .path = "/proc/self/fd/10", .resolve = RESOLVE_NO_MAGICLINKS,
	  .want_path = "/proc/%p/fd/10", .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "openat2 RESOLVE_NO_XDEV", .nr = SYS_openat2, .path = "/proc/self/status",
	  .resolve = RESOLVE_NO_XDEV, .want_path = "/proc/self/status", .want_plan_error = EXDEV,
	  .want_errno = EXDEV },
	{ .name = "openat2 unknown resolve flag", .nr = SYS_openat2, .path = "@/allowed/a.txt",
	  .resolve = 0x4000, .want_path = "@/allowed/a.txt", .want_plan_error = EINVAL,
	  .want_errno = EINVAL },
	{ .name = "openat2 mode without O_CREAT", .nr = SYS_openat2, .path = "@/allowed/a.txt",
	  .mode = 0644, .want_path = "@/allowed/a.txt", .want_plan_error = EINVAL,
	  .want_errno = EINVAL },
};

const size_t cases_count = ARRAY_SIZE(cases);

/* ---- Checks ---- */

#define CHECK(cond, ...)                                        \
	do {                                                    \
		if (!(cond)) {                                  \
			printf("#   %s: ", c->name);            \
			printf(__VA_ARGS__);                    \
			printf("\n");                           \
			ok = false;                             \
		}                                               \
	} while (0)

static bool check_outcome(const struct tcase *c, const struct report *rep, const char *who,
			  int want_errno)
{
	char want[PATH_MAX];
	bool ok = true;

	CHECK(rep->err == want_errno, "%s: errno %d (%s), expected %d (%s)", who, rep->err,
	      strerror(rep->err), want_errno, strerror(want_errno));
	if (rep->err || want_errno)
		return ok;
	if (c->want_head) {
		expand_tid(c->want_head, rep->pid, rep->tid, want, sizeof(want));
		CHECK(strstr(rep->head, want), "%s: read '%.40s', expected '%s' in it", who,
		      rep->head, want);
	}
	if (c->want_mode)
		CHECK((rep->st.st_mode & 07777) == c->want_mode, "%s: mode %o, expected %o", who,
		      rep->st.st_mode & 07777, c->want_mode);
	CHECK(S_ISLNK(rep->st.st_mode) == c->want_symlink, "%s: symlink %d", who,
	      S_ISLNK(rep->st.st_mode));
	/* ADDFD takes no O_PATH file: the target gets a read-only one (lib/open.c). */
	if ((c->flags & O_PATH) && strcmp(who, "supervised") == 0)
		CHECK((rep->fl & (O_PATH | O_ACCMODE)) == O_RDONLY, "%s: flags %#o", who, rep->fl);
	return ok;
}

static bool check_plan(const struct tcase *c, const struct seen *seen, pid_t pid, pid_t tid)
{
	char want[PATH_MAX];
	bool ok = true;

	CHECK(seen->prepare == -c->want_prepare_error, "prepare returned %d (%s), expected %d",
	      seen->prepare, strerror(-seen->prepare), -c->want_prepare_error);
	if (c->want_prepare_error)
		return ok;
	CHECK(seen->called, "no notification handled");
	if (!seen->called)
		return false;
	if (c->want_path) {
		expand_tid(c->want_path, pid, tid, want, sizeof(want));
		CHECK(strcmp(seen->path, want) == 0, "plan path '%s', expected '%s'", seen->path,
		      want);
	}
	CHECK(seen->plan_error == c->want_plan_error, "plan error %d (%s), expected %d",
	      seen->plan_error, strerror(seen->plan_error), c->want_plan_error);
	CHECK(seen->creates == c->want_creates, "plan creates %d", seen->creates);
	CHECK(seen->unnamed == c->want_unnamed, "plan unnamed %d, expected %d", seen->unnamed,
	      c->want_unnamed);
	return ok;
}

/* Does the case change the fixture? Then each run gets a fresh one. */
static bool case_mutates(const struct tcase *c)
{
	return c->want_creates || (c->flags & O_TRUNC) || (c->flags & O_TMPFILE) == O_TMPFILE;
}

/* Does the case open a file of the target's own in /proc (one per process)? */
static bool case_proc(const struct tcase *c)
{
	return strstr(c->path, "proc/") || (c->cwd && strcmp(c->cwd, "/proc") == 0);
}

/* The same file, or (created) one with the same owner, mode, flags. */
static bool check_same(const struct tcase *c, const struct report *n, const struct report *s)
{
	const int fl = O_ACCMODE | O_APPEND | O_NONBLOCK | ((c->flags & O_PATH) ? 0 : O_PATH) |
		       O_DIRECT | O_NOATIME;
	bool ok = true;

	if (n->err || s->err || c->deviates)
		return true;
	/* Each run mounts a tmpfs of its own in a mount namespace case: the same
	 * file is then on another device (want_head shows it is the same text). */
	if (!case_mutates(c) && !case_proc(c) && !c->mountns)
		CHECK(n->st.st_dev == s->st.st_dev && n->st.st_ino == s->st.st_ino,
		      "supervised opened another file than native");
	CHECK(n->st.st_mode == s->st.st_mode, "mode %o natively, %o supervised", n->st.st_mode,
	      s->st.st_mode);
	CHECK(n->st.st_uid == s->st.st_uid && n->st.st_gid == s->st.st_gid,
	      "owner %d:%d natively, %d:%d supervised", n->st.st_uid, n->st.st_gid, s->st.st_uid,
	      s->st.st_gid);
	CHECK(n->st.st_size == s->st.st_size, "size %lld natively, %lld supervised",
	      (long long)n->st.st_size, (long long)s->st.st_size);
	CHECK((n->fl & fl) == (s->fl & fl), "flags %#o natively, %#o supervised", n->fl & fl,
	      s->fl & fl);
	CHECK(n->fdfl == s->fdfl, "fd flags %d natively, %d supervised", n->fdfl, s->fdfl);
	return ok;
}

static bool run_case(const struct tcase *c)
{
	struct report native = { 0 }, sup = { 0 };
	struct seen seen = { 0 };
	bool ok = true;
	int r;

	if (!c->no_native && !c->want_prepare_error) {
		fixture_reset();
		r = run_child(c, false, &native, NULL);
		CHECK(r == 0, "native run failed: %s", strerror(-r));
		if (r == 0)
			ok = check_outcome(c, &native, "natively", c->want_errno) && ok;
	}
	if (c->no_native || c->want_prepare_error || case_mutates(c))
		fixture_reset();
	r = run_child(c, true, &sup, &seen);
	CHECK(r == 0, "supervised run failed: %s", strerror(-r));
	if (r < 0)
		return false;
	ok = check_plan(c, &seen, sup.pid, sup.tid) && ok;
	if (c->want_prepare_error) {
		CHECK(sup.err == ENOSYS, "the target got %d, expected ENOSYS", sup.err);
		return ok;
	}
	ok = check_outcome(c, &sup, "supervised", c->deviates ? c->sup_errno : c->want_errno) &&
	     ok;
	if (!c->no_native)
		ok = check_same(c, &native, &sup) && ok;
	if (c->no_native && !sup.err)
		CHECK(!(sup.fl & O_NONBLOCK), "a blocking open came back non-blocking");
	return ok;
}

const char *skip_reason;

static int sysctl_rw(const char *path, char *buf, size_t size, bool write_it)
{
	int fd = open(path, (write_it ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write_it ? write(fd, buf, strlen(buf)) : read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if (!write_it)
		buf[n] = '\0';
	return 0;
}

/* A case that needs a tunable of fs/ set: set it for the case, then put it back. */
bool run_case_sysctl(const struct tcase *c)
{
	const char *eq;
	char path[128], old[32], val[32];
	bool ok;

	skip_reason = NULL;
	if (!c->sysctl)
		return run_case(c);
	eq = strchr(c->sysctl, '=');
	snprintf(path, sizeof(path), "/proc/sys/fs/%.*s", (int)(eq - c->sysctl), c->sysctl);
	snprintf(val, sizeof(val), "%s", eq + 1);
	if (sysctl_rw(path, old, sizeof(old), false) < 0 || sysctl_rw(path, val, 0, true) < 0) {
		skip_reason = "cannot set the sysctl";
		return true;
	}
	ok = run_case(c);
	if (sysctl_rw(path, old, 0, true) < 0)
		printf("# could not restore %s to %s", path, old);
	return ok;
}
